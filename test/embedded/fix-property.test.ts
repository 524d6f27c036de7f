// Property: every partition fix offered for every partition finding of a workspace of schema and application code,
// applied to every file it edits (application code through its string literals, as the editor and `cqlint fix` do),
// leaves no new incomplete-key-write, unrestricted-partition-key, unknown-column, shard-mismatch or syntax-error,
// cures its finding (a copy or a rate hint leaves it, by design), keeps every statement the code held readable,
// leaves every host file parsing in its own language with no new ERROR or MISSING node, and writes the oracle's
// shard values where the code gives literal key values. A fix the code cannot take is marked refused, is never
// preferred, and the editor does not offer it.
// Over each fixture folder (Java, Kotlin, Python, Go, JavaScript, TypeScript, C#, the seed folder of literal
// values in seven languages) and the app fixtures, each under several workloads that make partition findings on
// the tables the code uses.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CqlintConfig } from '../../server/core/vocabulary/config';
import { hostLanguageOf } from '../../server/core/embedded';
import { parserFor } from '../../server/core/embedded/runtime';
import type { Finding } from '../../server/core/findings/findings';
import type { Fix } from '../../server/core/fixes/types';
import { applyEdits } from '../../server/core/fixes/text';
import type { Project } from '../../server/core/engine/project';
import { codeActionsFor } from '../../server/lsp/features/code-actions';
import { fixesFor, PARTITION_RULES, refactoringProblems, shardValueChecks, workspaceProject } from '../fixes/workspace';
import { hostWorkspaces, loadFixtureLanguages, type HostWorkspace } from './workspaces';

/**
 * Workloads, as `-- @cqlint` hints above every table of the schema (a key change rescales them, as it would the
 * user's) and the target: as the schema says (hot days), rows arriving at 10/s (time buckets for the histories),
 * Amazon Keyspaces' per-partition throughput, large partitions.
 */
const WORKLOADS: Record<string, { hints?: string; config: CqlintConfig }> = {
  default: { config: {} },
  growth: { hints: 'rate=10/s', config: {} },
  throughput: { hints: 'writes=3000/s', config: { target: 'keyspaces' } },
  rows: { hints: 'rows=5000000', config: {} },
};

/** The workspace with the workload's hints written above every CREATE TABLE of its schema. */
function underWorkload(workspace: HostWorkspace, hints: string | undefined): HostWorkspace {
  if (!hints) return workspace;
  const files = new Map(
    [...workspace.files].map(([path, text]) => [
      path,
      hostLanguageOf(path) ? text : text.replace(/^CREATE TABLE/gm, `-- @cqlint ${hints}\nCREATE TABLE`),
    ]),
  );
  return { ...workspace, files };
}

/** ERROR and MISSING nodes of a host file's tree, by kind and the text they cover. */
function syntaxErrors(path: string, text: string): string[] {
  const tree = parserFor(hostLanguageOf(path)!).parse(text)!;
  const out: string[] = [];
  try {
    const cursor = tree.walk();
    for (let more = true; more;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing)
        out.push(
          `${node.isMissing ? 'MISSING' : 'ERROR'} ${JSON.stringify(text.slice(node.startIndex, node.endIndex).slice(0, 60))}`,
        );
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          more = false;
          break;
        }
      }
    }
    cursor.delete();
  } finally {
    tree.delete();
  }
  return out;
}

/** The new text of every file the fix edits, written as the file holds it (application code: in its literals). */
function applied(project: Project, file: string, fix: Fix): { texts: Map<string, string>; refused?: string } {
  const texts = new Map<string, string>();
  for (const { filePath, edits } of [{ filePath: file, edits: fix.edits }, ...(fix.otherFiles ?? [])]) {
    if (!edits.length) continue;
    const source = project.sourceEdits(filePath, edits);
    if ('refused' in source) return { texts, refused: `${filePath}: ${source.refused}` };
    texts.set(filePath, applyEdits(project.sourceText(filePath)!, source.edits));
  }
  return { texts };
}

/** What applying the fix broke, in the words of the properties above; `shards` counts the shard values checked. */
function fixProblems(
  workspace: HostWorkspace,
  config: CqlintConfig,
  project: Project,
  file: string,
  finding: Finding,
  fix: Fix,
): { problems: string[]; shards: number } {
  const { texts, refused } = applied(project, file, fix);
  if (refused) return { problems: [`not marked refused, but its edits are: ${refused}`], shards: 0 };
  const after = workspaceProject(new Map([...workspace.files, ...texts]), config);
  const problems = refactoringProblems(project, after, [...workspace.files.keys()], file, finding, fix);
  for (const [path, text] of texts) {
    if (!hostLanguageOf(path)) continue;
    const was = syntaxErrors(path, workspace.files.get(path)!);
    const now = syntaxErrors(path, text);
    if (now.length > was.length)
      problems.push(`${path} no longer parses as it did: ${now.filter((e) => !was.includes(e)).join('; ')}`);
    const statements = project.embedded(path)!.statements.length;
    const read = after.embedded(path)!.statements.length;
    if (read !== statements) problems.push(`${path}: ${read} statements read after the fix, ${statements} before`);
  }
  const checks = shardValueChecks(after, [...texts.keys()]);
  for (const check of checks) {
    if (check.written !== check.expected)
      problems.push(`${check.where}: shard ${check.written} written, the oracle's is ${check.expected}`);
  }
  return { problems, shards: checks.length };
}

/** What a fix marked refused must be: refused for real, not preferred, and saying why. */
function refusalProblems(project: Project, file: string, fix: Fix): string[] {
  const refused = fix.refused!;
  const edits =
    [{ filePath: file, edits: fix.edits }, ...(fix.otherFiles ?? [])].find((f) => f.filePath === refused.filePath)
      ?.edits ?? [];
  const problems: string[] = [];
  // A column moved to a table of its own (fixes/split-column.ts) is refused too where the text would fit but the
  // statement would not mean the same: its key bound twice, or two statements in one string.
  const semantic =
    !!fix.plan?.split && /: the statement .*(needs the application|becomes two statements)/.test(refused.reason);
  if (!semantic && !('refused' in project.sourceEdits(refused.filePath, edits)))
    problems.push(`marked refused, but ${refused.filePath} takes its edits`);
  if (fix.isPreferred) problems.push(`refused (${refused.reason}) yet preferred`);
  if (!fix.detail?.some((d) => d.startsWith('not possible: ') && d.endsWith(refused.reason)))
    problems.push('refused without saying why in its detail');
  return problems;
}

/** The titles of the code actions the editor gets for a finding (partition fixes resolved later, as VS Code does), `*` marking the preferred. */
function offered(project: Project, file: string, finding: Finding): string[] {
  return codeActionsFor({
    project,
    filePath: file,
    uri: `file://${file}`,
    start: finding.range.start.offset,
    end: finding.range.end.offset,
    diagnostics: [],
    resolveEdits: true,
  })
    .filter((a) => a.diagnostics?.[0]?.code === finding.ruleId)
    .map((a) => `${a.isPreferred ? '*' : ''}${a.title}`);
}

before(loadFixtureLanguages);

describe('partition fixes over schema and application code', () => {
  for (const workspace of hostWorkspaces()) {
    for (const [name, { hints, config }] of Object.entries(WORKLOADS)) {
      test(`${workspace.name}, ${name}`, () => {
        const workload = underWorkload(workspace, hints);
        const project = workspaceProject(workload.files, config);
        const problems: string[] = [];
        let applied = 0;
        let shards = 0;
        for (const file of workload.files.keys()) {
          for (const finding of project.lint(file).filter((f) => PARTITION_RULES.includes(f.ruleId))) {
            const fixes = fixesFor(project, file, finding);
            for (const fix of fixes) {
              const label = `${finding.ruleId} ${(finding.data as { table?: string }).table} ${fix.id}`;
              if (fix.refused) {
                for (const p of refusalProblems(project, file, fix)) problems.push(`${label}: ${p}`);
                continue;
              }
              applied++;
              const result = fixProblems(workload, config, project, file, finding, fix);
              shards += result.shards;
              for (const p of result.problems) problems.push(`${label}: ${p}`);
            }
            // The editor offers exactly the fixes that can be made.
            const makeable = fixes.filter((f) => !f.refused).map((f) => `${f.isPreferred ? '*' : ''}${f.title}`);
            assert.deepEqual(
              offered(project, file, finding),
              makeable,
              `${file} ${finding.ruleId}: the editor's actions`,
            );
          }
        }
        assert.deepEqual(
          problems,
          [],
          `${workspace.name}, ${name}: ${problems.length} problem(s) over ${applied} fix(es) applied`,
        );
        assert.ok(applied > 0, 'some fix was applied');
        // The seed folder writes literal key values: the shards written into its code are checked against the oracle.
        if (workspace.name === 'seed' && name === 'default') assert.ok(shards >= 14, `${shards} shard values checked`);
      });
    }
  }
});
