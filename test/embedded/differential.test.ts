// Differential: a statement read out of application code gets the findings the same statement gets in a .cql file.
// For each fixture workspace (schema + host files), the same workspace is built again with every host file replaced
// by a .cql file holding its statements' CQL text (each under the `USE` of its session keyspace); both are linted,
// and each host finding must be the copy's finding (rule, severity, message) at the host range toHostRange maps the
// copy's range to, statement by statement. The copy's findings that touch a hole are dropped by design (the count and
// the list are in the failure message); nothing else may be lost, moved or added, and the schema's findings (the
// read-aware advice counts the code's queries) are the same in both.
// Besides the fixtures as written, two variants of every statement make findings to compare where the fixtures have
// few: a column name misspelt (unknown-column, through escapes and concatenations) and ` ALLOW FILTERING` appended
// (allow-filtering on a read, a syntax error elsewhere), each written into the host file by its map.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourceRange } from '../../grammar/ast';
import { LineIndex } from '../../grammar/line-index';
import type { EmbeddedDocument } from '../../server/core/embedded';
import type { Finding } from '../../server/core/findings/findings';
import { applyEdits } from '../../server/core/fixes/text';
import type { Project } from '../../server/core/engine/project';
import { quoteName } from '../../server/core/util/names';
import type { TextEdit } from '../../server/core/util/text-edit';
import { workspaceProject } from '../fixes/workspace';
import { hostWorkspaces, loadFixtureLanguages, type HostWorkspace } from './workspaces';

/** A .cql copy of a host file's statements, and where each statement starts in it. */
interface Copy {
  text: string;
  /** The copy's offset of each statement's first character. */
  starts: number[];
}

/** The statements' CQL text, each under a `USE` of its keyspace where that changes, as a .cql file holds them. */
function copyOf(doc: EmbeddedDocument): Copy {
  let text = '';
  let keyspace: string | undefined;
  const starts: number[] = [];
  for (const s of doc.statements) {
    const name = s.keyspace?.name;
    // The reader gives every statement after the first USE a keyspace: a .cql file can say the same.
    assert.ok(name !== undefined || keyspace === undefined, 'a statement without a keyspace after one with');
    if (name !== undefined && name !== keyspace) text += `USE ${quoteName(name)};\n`;
    keyspace = name;
    starts.push(text.length);
    const statement = doc.cqlText.slice(s.cqlRange.start, s.cqlRange.end);
    const lastLine = statement.slice(statement.lastIndexOf('\n') + 1);
    text += statement + (statement.endsWith(';') ? '\n' : /--|\/\//.test(lastLine) ? '\n;\n' : ';\n');
  }
  return { text, starts };
}

/** The statement a CQL range of the host's CQL text lies in (-1: none, e.g. a `USE` line cqlint wrote). */
function statementAt(doc: EmbeddedDocument, range: SourceRange): number {
  return doc.statements.findIndex((s) => s.cqlRange.start <= range.start && range.end <= s.cqlRange.end);
}

/** A copy's range as a range of the host's CQL text (undefined outside the statements). */
function toHostCql(
  doc: EmbeddedDocument,
  copy: Copy,
  range: SourceRange,
): { statement: number; range: SourceRange } | undefined {
  for (let i = copy.starts.length - 1; i >= 0; i--) {
    const start = copy.starts[i]!;
    if (range.start < start) continue;
    const s = doc.statements[i]!;
    const shift = s.cqlRange.start - start;
    if (range.end - start > s.cqlRange.end - s.cqlRange.start) return undefined;
    return { statement: i, range: { start: range.start + shift, end: range.end + shift } };
  }
  return undefined;
}

/**
 * What is dropped by design: a finding whose range touches one of its statement's holes (ends included), or whose
 * message names a hole's placeholder (a table the program picks).
 */
function aboutHole(doc: EmbeddedDocument, statement: number, range: SourceRange, message: string): boolean {
  return (
    doc.statements[statement]!.holes.some((h) => h.start <= range.end && range.start <= h.end) ||
    /\bcqlint_hole_\d+\b/.test(message)
  );
}

const where = (lines: LineIndex, range: SourceRange): string => {
  const start = lines.location(range.start);
  const end = lines.location(range.end);
  return `${start.line}:${start.column}-${end.line}:${end.column}`;
};
const said = (f: Finding): string => `${f.ruleId} ${f.severity} ${f.message}`;

interface Comparison {
  /** Findings in the host files found at their place (the schema's aside). */
  compared: number;
  problems: string[];
  dropped: string[];
}

/** Compares the findings of one host file with those of its copy, as the file's own lines show them. */
function compareFile(host: Project, copied: Project, path: string, copy: Copy): Comparison {
  const doc = host.embedded(path)!;
  const source = host.sourceText(path)!;
  const lines = new LineIndex(source);
  const problems: string[] = [];
  const dropped: string[] = [];
  const expected = new Map<string, number>();
  const outside: string[] = [];
  for (const f of copied.lint(`${path}.cql`)) {
    const mapped = toHostCql(doc, copy, { start: f.range.start.offset, end: f.range.end.offset });
    if (!mapped) {
      outside.push(said(f));
      continue;
    }
    const hostRange = doc.toHostRange(mapped.range);
    const key = `${said(f)} @ ${where(lines, hostRange)}`;
    if (aboutHole(doc, mapped.statement, mapped.range, f.message)) {
      dropped.push(`${path}: ${key} (${JSON.stringify(source.slice(hostRange.start, hostRange.end))})`);
      continue;
    }
    expected.set(key, (expected.get(key) ?? 0) + 1);
  }
  let compared = 0;
  for (const f of host.lint(path)) {
    const range = { start: f.range.start.offset, end: f.range.end.offset };
    if (statementAt(doc, range) < 0) {
      const i = outside.indexOf(said(f));
      if (i >= 0) outside.splice(i, 1);
      else problems.push(`${path}: added outside the statements: ${said(f)}`);
      continue;
    }
    const key = `${said(f)} @ ${f.range.start.line}:${f.range.start.column}-${f.range.end.line}:${f.range.end.column}`;
    const n = expected.get(key) ?? 0;
    if (n === 0) {
      problems.push(`${path}: added or moved: ${key}`);
      continue;
    }
    expected.set(key, n - 1);
    compared++;
  }
  for (const [key, n] of expected) for (let i = 0; i < n; i++) problems.push(`${path}: lost or moved: ${key}`);
  for (const left of outside) problems.push(`${path}: lost outside the statements: ${left}`);
  return { compared, problems, dropped };
}

/** The schema's findings (their details name the queries the advice counts), with the copies' names made the host files'. */
function schemaFindings(project: Project, path: string): string[] {
  return project
    .lint(path)
    .map(
      (f) =>
        `${said(f)} @ ${f.range.start.line}:${f.range.start.column} ${(f.details ?? '').replace(/\.cql\b(?=[:\s)`])/g, '')}`,
    );
}

/** Lints a workspace and its copy; every difference, and the findings dropped for touching a hole. */
function compareWorkspace(files: ReadonlyMap<string, string>, hosts: readonly string[]): Comparison {
  const host = workspaceProject(files);
  const copies = new Map<string, Copy>();
  const copiedFiles = new Map([...files].filter(([path]) => !hosts.includes(path)));
  for (const path of hosts) {
    const copy = copyOf(host.embedded(path)!);
    copies.set(path, copy);
    copiedFiles.set(`${path}.cql`, copy.text);
  }
  const copied = workspaceProject(copiedFiles);
  const total: Comparison = { compared: 0, problems: [], dropped: [] };
  for (const path of hosts) {
    const { compared, problems, dropped } = compareFile(host, copied, path, copies.get(path)!);
    total.compared += compared;
    total.problems.push(...problems);
    total.dropped.push(...dropped);
  }
  for (const path of files.keys()) {
    if (hosts.includes(path)) continue;
    const a = schemaFindings(host, path);
    const b = schemaFindings(copied, path);
    if (JSON.stringify(a) !== JSON.stringify(b))
      total.problems.push(
        `${path}: the findings differ:\n  code:  ${a.join('\n         ')}\n  .cql:  ${b.join('\n         ')}`,
      );
  }
  return total;
}

/** A statement's CQL edit meant to make a finding; undefined when it has nothing to edit. */
type Variant = (doc: EmbeddedDocument, statement: number, columns: ReadonlySet<string>) => TextEdit | undefined;

/** The first column name of the statement outside quotes and holes, misspelt. */
const misspelt: Variant = (doc, i, columns) => {
  const s = doc.statements[i]!;
  const words = /'(?:[^']|'')*'|"(?:[^"]|"")*"|\b[a-z_][a-z0-9_]*\b/gi;
  const text = doc.cqlText.slice(s.cqlRange.start, s.cqlRange.end);
  for (let m = words.exec(text); m; m = words.exec(text)) {
    if (!columns.has(m[0])) continue;
    const range = { start: s.cqlRange.start + m.index, end: s.cqlRange.start + m.index + m[0].length };
    if (!aboutHole(doc, i, range, '')) return { ...range, newText: `${m[0]}_x` };
  }
  return undefined;
};

/** ` ALLOW FILTERING` after the statement's last character: allow-filtering on most reads, a syntax error on writes. */
const filtering: Variant = (doc, i) => {
  const end = doc.statements[i]!.cqlRange.end;
  return { start: end, end, newText: ' ALLOW FILTERING' };
};

/** The workspace with the variant's edit written into every statement of every host file (where the map takes it). */
function variantOf(workspace: HostWorkspace, variant: Variant): { files: Map<string, string>; edited: number } {
  const project = workspaceProject(workspace.files);
  const columns = new Set<string>();
  for (const table of project.schema().allTables()) for (const c of table.columns) columns.add(c.name);
  const files = new Map(workspace.files);
  let edited = 0;
  for (const path of workspace.hosts) {
    const doc = project.embedded(path)!;
    const hostEdits: TextEdit[] = [];
    doc.statements.forEach((_, i) => {
      const edit = variant(doc, i, columns);
      const mapped = edit && doc.hostEdits([edit]);
      if (!mapped || 'refused' in mapped) return;
      hostEdits.push(...mapped.edits);
      edited++;
    });
    files.set(path, applyEdits(workspace.files.get(path)!, hostEdits));
  }
  return { files, edited };
}

function report(name: string, { compared, problems, dropped }: Comparison): string {
  return `${name}: ${problems.length} difference(s) over ${compared} finding(s):\n${problems.join('\n')}\n${dropped.length} finding(s) of the .cql copies dropped for touching a hole (by design):\n${dropped.join('\n')}`;
}

before(loadFixtureLanguages);

describe('findings in code are the findings of the same statements in a .cql file', () => {
  // Each variant's edit makes at least one finding in every statement it was written into (`each`), or in some.
  const variants: [string, Variant | undefined, 'each' | 'some'][] = [
    ['as written', undefined, 'some'],
    ['a column misspelt', misspelt, 'each'],
    ['ALLOW FILTERING appended', filtering, 'some'],
  ];
  for (const workspace of hostWorkspaces()) {
    for (const [label, variant, made] of variants) {
      test(`${workspace.name}, ${label}`, () => {
        const { files, edited } = variant ? variantOf(workspace, variant) : { files: workspace.files, edited: 0 };
        const result = compareWorkspace(files, workspace.hosts);
        assert.deepEqual(result.problems, [], report(`${workspace.name}, ${label}`, result));
        if (variant)
          assert.ok(
            result.compared + result.dropped.length >= (made === 'each' ? edited : 1),
            report(`${edited} statements edited`, result),
          );
      });
    }
  }
});
