// Small helpers for the analysis tests: a Project from in-memory files.
import assert from 'node:assert/strict';
import { Project, type ProjectOptions } from '../../server/core/engine/project';
import type { Finding } from '../../server/core/findings/findings';
import type { ExampleCase } from '../../server/core/rules/types';
import { readSample, type SampleSummary } from '../../server/core/report/sample';
import { readEvidence, type EvidenceFile } from '../../server/core/evidence';
import { readClusterYaml } from '../../server/core/cluster';

export const ROOT = '/virtual/cqlint-tests';
export const MAIN = `${ROOT}/main.cql`;

/** The file an example's code is (its `path`, else main.cql). */
export function mainOf(c: Pick<ExampleCase, 'path'>): string {
  return c.path ? `${ROOT}/${c.path}` : MAIN;
}

/** A project holding `code` as main.cql plus other files (relative path → text); explicit config so no discovery. */
export function projectWith(
  code: string,
  files: Record<string, string> = {},
  options: ProjectOptions = {},
  main = MAIN,
): Project {
  const project = new Project({ config: {}, ...options });
  project.setFile(main, code);
  for (const [rel, text] of Object.entries(files)) project.setFile(`${ROOT}/${rel}`, text);
  return project;
}

export function lintMain(code: string, files: Record<string, string> = {}, options: ProjectOptions = {}): Finding[] {
  return projectWith(code, files, options).lint(MAIN);
}

export function ofRule(findings: Finding[], ruleId: string): Finding[] {
  return findings.filter((f) => f.ruleId === ruleId);
}

export function summary(findings: Finding[]): string {
  return findings.map((f) => `${f.range.start.line}:${f.range.start.column} ${f.ruleId}: ${f.message}`).join('\n');
}

/**
 * A rule example's project: its code as main.cql (or `code`, the same workspace after a fix), its other
 * files, config and target, its evidence read as the CLI reads it before linting (each file as
 * evidence/<name>), its cluster yaml as cluster.yaml, and its sample configured as samples/sample.csv, read
 * against the table as main.cql defines it (a sample that no longer fits the table, its key changed, is not
 * used, as the CLI does not).
 */
export async function exampleProject(c: ExampleCase, code = c.code, files = c.files ?? {}): Promise<Project> {
  let read: SampleSummary | undefined;
  const samples = c.sample
    ? { [c.sample.table]: { file: `${ROOT}/samples/sample.csv`, name: 'samples/sample.csv' } }
    : undefined;
  // The example's evidence, read as the CLI reads it before linting (each file as evidence/<name>).
  const evidence: EvidenceFile[] = [];
  for (const [name, text] of Object.entries(c.evidence ?? {})) {
    const file = await readEvidence([text], { file: `${ROOT}/evidence/${name}`, name: `evidence/${name}` });
    assert.equal(
      file.problemCount,
      0,
      `the example's evidence ${name} reads cleanly: ${JSON.stringify(file.problems)}`,
    );
    evidence.push(file);
  }
  // The example's cluster yaml, read as the CLI reads it before linting (as cluster.yaml).
  const cluster =
    c.clusterYaml === undefined ? undefined : readClusterYaml(c.clusterYaml, `${ROOT}/cluster.yaml`, 'cluster.yaml');
  assert.deepEqual(cluster?.problems ?? [], [], "the example's cluster yaml reads cleanly");
  const project = projectWith(
    code,
    files,
    {
      config: {
        ...c.config,
        ...(cluster ? { cluster: { ...c.config?.cluster, config: cluster.file, name: 'cluster.yaml' } } : {}),
        ...(samples ? { samples: { ...c.config?.samples, ...samples } } : {}),
        ...(c.evidence
          ? {
              evidence: Object.keys(c.evidence).map((name) => ({
                path: `${ROOT}/evidence/${name}`,
                name: `evidence/${name}`,
              })),
            }
          : {}),
      },
      target: c.target,
      sampleSummary: () => read,
      evidenceFiles: () => evidence,
      clusterFile: (file) => (file === cluster?.file ? cluster : undefined),
    },
    mainOf(c),
  );
  if (c.sample) {
    const table = project.tableFor(mainOf(c), c.sample.table);
    assert.ok(table, `the sample's table ${c.sample.table} is defined`);
    const csv = typeof c.sample.csv === 'string' ? c.sample.csv : c.sample.csv();
    try {
      read = await readSample([csv], table, project.schema(), {
        file: `${ROOT}/samples/sample.csv`,
        name: 'samples/sample.csv',
      });
    } catch (error) {
      if (code === c.code) throw error;
    }
    if (code === c.code)
      assert.equal(read?.malformedCount, 0, `the example's sample reads cleanly: ${JSON.stringify(read?.malformed)}`);
    else if (read?.malformedCount) read = undefined;
    project.refreshSamples();
  }
  return project;
}
