// Helpers for the workspace refactoring tests: a Project over several files, a fix applied to all of
// them (each file checked as applyChecked checks one), what the workspace's lint says before and after,
// and an oracle for the shard values written, independent of the engine's shard maths.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Expression, Statement } from '../../grammar/ast';
import { Project } from '../../server/core/engine/project';
import type { CqlintConfig } from '../../server/core/vocabulary/config';
import { readEvidence, type EvidenceFile } from '../../server/core/evidence';
import type { Finding } from '../../server/core/findings/findings';
import type { Fix } from '../../server/core/fixes/types';
import { fixesForFinding } from '../../server/core/fixes';
import { projectFixContext, type ContextSettings } from '../../server/core/fixes/environment';
import { allStatements, statementTable } from '../../server/core/util/statements';
import { columnNamed } from '../../server/core/schema/model';
import { nativeName } from '../../server/core/schema/types';
import { profileColumn } from '../../server/core/schema/columns';
import { applyChecked } from './helpers';
import { RATE_HINT_ID } from '../../server/core/fixes/rate-hint';
import { PARTITION_RULES as FIX_COMMAND_RULES } from '../../server/cli/fix-command';
import { driverEncoder, driverRoutingKey, driverTypes } from '../token/helpers';

const murmur = require('murmurhash3js-revisited') as { x86: { hash32(bytes: Uint8Array, seed?: number): number } };

/** The files below a folder by their path relative to it, sorted (an absent folder has none). */
export function filesBelow(dir: string, base = dir): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [k, v] of filesBelow(path, base)) out.set(k, v);
    else out.set(relative(base, path), readFileSync(path, 'utf8'));
  }
  return out;
}

/** The rules a refactoring must never add findings of (partial-partition-key: a DISTINCT, token() or GROUP BY left on part of the new key). */
export const GUARDED_RULES = [
  'syntax-error',
  'incomplete-key-write',
  'unrestricted-partition-key',
  'unknown-column',
  'shard-mismatch',
  'partial-partition-key',
];
/** The findings whose fixes are refactorings of the key (those `cqlint fix` applies). */
export const PARTITION_RULES: string[] = [...FIX_COMMAND_RULES];

export function workspaceProject(
  files: ReadonlyMap<string, string>,
  config: CqlintConfig = {},
  evidence: readonly EvidenceFile[] = [],
): Project {
  const project = new Project({
    config: evidence.length
      ? { ...config, evidence: evidence.map((e) => ({ path: e.origin.file, name: e.origin.name })) }
      : config,
    ...(evidence.length ? { evidenceFiles: () => evidence } : {}),
  });
  for (const [path, text] of files) project.setFile(path, text);
  return project;
}

/**
 * A workspace fixture's captures (test/fixes/workspaces/<case>/evidence/: nodetool outputs), read as the CLI
 * reads `evidence` before linting, each as evidence/<name> under `root`. None when the folder is absent.
 */
export async function fixtureEvidence(dir: string, root: string): Promise<EvidenceFile[]> {
  const out: EvidenceFile[] = [];
  for (const [rel, text] of filesBelow(join(dir, 'evidence'))) {
    const file = await readEvidence([text], { file: `${root}/evidence/${rel}`, name: `evidence/${rel}` });
    if (file.problemCount)
      throw new Error(`${dir}/evidence/${rel} does not read cleanly: ${JSON.stringify(file.problems)}`);
    out.push(file);
  }
  return out;
}

/** The fixes offered for a finding of `filePath`, as the editor and the CLI get them. */
export function fixesFor(project: Project, filePath: string, finding: Finding, settings: ContextSettings = {}): Fix[] {
  const env = projectFixContext(project, filePath, settings);
  return fixesForFinding(project.getText(filePath)!, project.parse(filePath), finding, env);
}

/** Applies a fix to every file it edits; the new texts by path, and every problem applyChecked finds in each. */
export function applyToWorkspace(
  project: Project,
  filePath: string,
  fix: Fix,
): { texts: Map<string, string>; problems: string[] } {
  const texts = new Map<string, string>();
  const problems: string[] = [];
  for (const { filePath: path, edits } of [{ filePath, edits: fix.edits }, ...(fix.otherFiles ?? [])]) {
    if (!edits.length) continue;
    const { output, problems: found } = applyChecked(project.getText(path)!, {
      title: fix.title,
      edits,
      // A copy adds its CREATE TABLE to the finding's file, unless it is written in a new file (a migration).
      ...(path === filePath && fix.id?.startsWith('copy') && !fix.newFiles?.length ? { id: fix.id } : {}),
      ...(fix.plan ? { plan: fix.plan } : {}),
    });
    for (const p of found) problems.push(`${path}: ${p}`);
    texts.set(path, output);
  }
  return { texts, problems };
}

/** Counts of findings by `file rule`. */
export function findingCounts(project: Project, files: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of files) {
    for (const f of project.lint(file)) counts.set(`${file} ${f.ruleId}`, (counts.get(`${file} ${f.ruleId}`) ?? 0) + 1);
  }
  return counts;
}

/**
 * What a refactoring broke: guarded findings it added; and, for a fix whose plan the planner says cures
 * (the preferred one among them), a finding of its rule left on its table, or a partition finding there
 * that was not before. A plan that does not cure must say so in its title ("(leaves: ...)"), and a copy or a
 * rate hint leaves the original's findings as they were.
 */
export function refactoringProblems(
  before: Project,
  after: Project,
  files: readonly string[],
  file: string,
  finding: Finding,
  fix: Fix,
): string[] {
  const problems: string[] = [];
  const was = findingCounts(before, files);
  const now = findingCounts(after, files);
  for (const [key, n] of now) {
    const rule = key.slice(key.lastIndexOf(' ') + 1);
    if (GUARDED_RULES.includes(rule) && n > (was.get(key) ?? 0))
      problems.push(`new ${key}: ${n} after, ${was.get(key) ?? 0} before`);
  }
  const table = (finding.data as { table?: string } | undefined)?.table;
  const onTable =
    (rule: string) =>
    (f: Finding): boolean =>
      f.ruleId === rule && (f.data as { table?: string } | undefined)?.table === table;
  // Counted in the finding's file: a workspace may define the table again elsewhere (or drop and re-create it).
  const had = before.lint(file).filter(onTable(finding.ruleId)).length;
  const left = after.lint(file).filter(onTable(finding.ruleId));
  if (fix.id?.startsWith('copy') || fix.id === RATE_HINT_ID) {
    // A copy leaves the original as it was; moving the statements to it may take away what the original's
    // finding read of them (a key given two literals is few-valued only while those statements are there).
    const moved = fix.id?.startsWith('copy-move');
    if (moved ? left.length > had : left.length !== had)
      problems.push(
        `the ${fix.id === RATE_HINT_ID ? 'rate hint' : 'copy'} should leave the original's ${finding.ruleId} findings alone: ${left.length} left, ${had} before`,
      );
    return problems;
  }
  if (fix.isPreferred && !fix.plan?.cures) problems.push('a preferred fix whose plan does not cure');
  if (fix.plan && !fix.plan.cures) {
    if (!fix.title.includes('(leaves: '))
      problems.push(`a fix that does not cure must say what it leaves in its title: "${fix.title}"`);
    return problems;
  }
  if (left.length)
    problems.push(
      `the ${finding.ruleId} finding on ${table} is still there: ${left.map((f) => f.message.slice(0, 160)).join(' | ')}`,
    );
  for (const rule of PARTITION_RULES) {
    if (rule === finding.ruleId) continue;
    const n = after.lint(file).filter(onTable(rule)).length;
    const m = before.lint(file).filter(onTable(rule)).length;
    if (n > m)
      problems.push(
        `a new ${rule} finding on ${table}: ${after
          .lint(file)
          .filter(onTable(rule))
          .map((f) => f.message.slice(0, 160))
          .join(' | ')}`,
      );
  }
  return problems;
}

/**
 * Shard values the oracle can check: for every statement on a table with a calculated `-- @shard`
 * whose shard column and every source column are given literals, the oracle's shard beside the written
 * one. The oracle serializes with cassandra-driver's encoder and hashes with murmurhash3js-revisited
 * (x86_32, seed 0, read unsigned), or multiplies code points: none of the engine's shard maths.
 */
export function shardValueChecks(
  project: Project,
  files: readonly string[],
): { where: string; written: number; expected: number }[] {
  const out: { where: string; written: number; expected: number }[] = [];
  for (const file of files) {
    const text = project.getText(file)!;
    for (const statement of allStatements(project.parse(file).statements)) {
      if (
        statement.kind !== 'Insert' &&
        statement.kind !== 'Update' &&
        statement.kind !== 'Delete' &&
        statement.kind !== 'Select'
      )
        continue;
      const name = statementTable(statement);
      const table = project.tableFor(file, name, statement.range.start);
      const spec = table?.shard;
      if (!table || !spec || spec.method === 'random') continue;
      const values = literalValues(statement);
      const written = values.get(spec.shardColumn);
      if (!written || written.length !== 1 || written[0]!.kind !== 'Literal' || written[0]!.literalKind !== 'integer')
        continue;
      const sources = spec.sources.map((s) => values.get(s));
      if (sources.some((s) => !s || s.length !== 1 || s[0]!.kind !== 'Literal')) continue;
      const parts: Buffer[] = [];
      let supported = true;
      for (const [i, source] of spec.sources.entries()) {
        const bytes = serialized(
          nativeName(columnNamed(table, source)?.type),
          sources[i]![0] as Expression & { kind: 'Literal' },
        );
        if (!bytes) supported = false;
        else parts.push(bytes);
      }
      if (!supported) continue;
      let expected: number;
      if (spec.method === 'codepoints') {
        let product = 1n;
        for (const ch of (sources[0]![0] as Expression & { kind: 'Literal' }).value)
          product *= BigInt(ch.codePointAt(0)!);
        expected = Number(product % BigInt(spec.count)) + spec.offset;
      } else {
        const key = parts.length === 1 ? parts[0]! : driverRoutingKey(parts);
        expected = ((murmur.x86.hash32(key, 0) >>> 0) % spec.count) + spec.offset;
      }
      out.push({
        where: `${file}:${text.slice(0, statement.range.start).split('\n').length}`,
        written: Number((written[0] as Expression & { kind: 'Literal' }).value),
        expected,
      });
    }
  }
  return out;
}

/** The literal each column is given: INSERT values, `=` relations. */
function literalValues(statement: Statement): Map<string, Expression[]> {
  const values = new Map<string, Expression[]>();
  if (statement.kind === 'Insert')
    statement.columns.forEach((c, i) => {
      if (statement.values[i]) values.set(c.name, [statement.values[i]!]);
    });
  if (statement.kind === 'Update' || statement.kind === 'Delete' || statement.kind === 'Select') {
    for (const r of statement.where)
      if (r.operator === '=' && r.left.kind === 'ColumnRef') values.set(r.left.name.name, r.right);
  }
  return values;
}

/** The driver's serialization of a literal of a native type; undefined for types the oracle leaves out. */
function serialized(type: string | undefined, literal: Expression & { kind: 'Literal' }): Buffer | undefined {
  const T = driverTypes.dataTypes;
  switch (type) {
    case 'text':
    case 'varchar':
      return driverEncoder.encode(literal.value, T.text);
    case 'ascii':
      return driverEncoder.encode(literal.value, T.ascii);
    case 'uuid':
      return driverEncoder.encode(driverTypes.Uuid.fromString(literal.value), T.uuid);
    case 'timeuuid':
      return driverEncoder.encode(driverTypes.TimeUuid.fromString(literal.value), T.timeuuid);
    case 'int':
      return driverEncoder.encode(Number(literal.value), T.int);
    case 'bigint':
      return driverEncoder.encode(BigInt(literal.value), T.bigint);
    default:
      return undefined;
  }
}

const TIME_TYPES = new Set(['timestamp', 'timeuuid', 'date']);
const EPOCH_TYPES = new Set(['bigint', 'varint', 'int']);

/**
 * The meaning of a partition fix's rewrites, checked on the workspace it leaves: a time bucket is computed
 * from a column that holds an instant (a timestamp, timeuuid or date, or an epoch number named as a time),
 * never from an id; and every read left to walk its buckets one at a time walks them in its own order
 * (a read of the oldest rows first steps forward from the oldest bucket, one of the newest steps back).
 */
export function meaningProblems(
  before: Project,
  after: Project,
  files: Iterable<string>,
  finding: Finding,
  fix: Fix,
): string[] {
  const problems: string[] = [];
  const table = (finding.data as { table?: string } | undefined)?.table;
  const source = fix.plan?.bucket?.source;
  if (source) {
    const info = before
      .schema()
      .allTables()
      .find((t) => t.qualifiedName === table);
    const column = info?.columns.find((c) => c.name === source);
    const type = nativeName(column?.type) ?? '';
    // An epoch number the model reads as a time (by its name or its statements), never a sequence or an id.
    const profile = column && info ? profileColumn(column, info) : undefined;
    const epoch = EPOCH_TYPES.has(type) && profile?.nature === 'instant' && !/sequence/.test(profile.signal);
    if (!TIME_TYPES.has(type) && !epoch)
      problems.push(`the bucket is computed from ${source} (${column?.typeText ?? '?'}), which holds no time`);
  }
  for (const file of files) {
    const text = after.getText(file);
    if (text === undefined) continue;
    const parse = after.parse(file);
    for (const statement of parse.statements) {
      if (statement.kind !== 'Select') continue;
      const above = parse.comments
        .filter(
          (c) =>
            c.range.end <= statement.range.start &&
            !text
              .slice(c.range.end, statement.range.start)
              .trim()
              .replace(/--[^\n]*\n/g, '')
              .trim(),
        )
        .map((c) => c.text)
        .join('\n');
      const forward = /step forward|oldest first/.test(above);
      const back = /step back|newest first/.test(above);
      if (!forward && !back) continue;
      const info = after.tableFor(file, statement.from, statement.range.start);
      const first = info?.clustering[0];
      if (!first) continue;
      const written = statement.orderBy[0]?.direction ?? (statement.orderBy.length ? 'ASC' : undefined);
      const declared = first.order ?? 'ASC';
      const descending = written === undefined ? declared === 'DESC' : written === 'DESC';
      if (descending ? forward : back)
        problems.push(
          `${file}:${text.slice(0, statement.range.start).split('\n').length}: the read returns the ${descending ? 'newest' : 'oldest'} rows first, but its buckets are walked ${forward ? 'from the oldest' : 'from the newest'}`,
        );
    }
  }
  return problems;
}
