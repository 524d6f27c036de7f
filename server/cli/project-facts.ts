// What the commands that analyse a project (lint, report, fix) read besides the CQL: the samples and the
// production evidence their .cqlint.json names, and --evidence. Read alike by all three, so that the
// report draws and the fix sizes from the findings lint prints.

import * as path from 'node:path';
import { EvidenceCache, readProjectEvidence, type EvidenceSetting } from '../core/evidence';
import type { Project, ProjectOptions } from '../core/engine/project';
import { SampleCache, readConfiguredSamples, sampleSummaryHook, tablesDefinedIn } from '../core/report';
import { UsageError } from './io';
import { CLUSTER_VERSIONS, ClusterFileCache } from '../core/cluster';
import type { ClusterSetting, ClusterVersion } from '../core/vocabulary/config';
import type { CliOptions } from './options';

/** `--evidence`, for the commands that analyse a project. */
export const EVIDENCE_OPTION = {
  evidence: {
    type: 'string',
    multiple: true,
    value: 'path',
    help: "Production evidence for every table, besides .cqlint.json's `evidence`: a saved output of nodetool tablestats, tablehistograms or toppartitions, dsbulk count, or a COPY of system.large_partitions/large_rows/size_estimates, or a folder of them, read wherever it is (repeatable; see docs/evidence.md). Measured figures win over workload hints",
  },
} satisfies CliOptions;

/** `--cluster-config`, `--cluster-version`: the cluster's own settings, for the commands that lint. */
export const CLUSTER_OPTIONS = {
  'cluster-config': {
    type: 'string',
    value: 'file',
    help: "The cluster's cassandra.yaml or scylla.yaml: its guardrails and thresholds are checked instead of the version's defaults (over .cqlint.json's `cluster.config`; read wherever it is; see docs/guardrails.md)",
  },
  'cluster-version': {
    type: 'string',
    value: 'v',
    help: `The cluster's version, whose guardrails and defaults apply: ${CLUSTER_VERSIONS.join(', ')} (default: .cqlint.json's \`cluster.version\`, else scylladb for --target scylladb, else 5.0)`,
  },
} satisfies CliOptions;

/** The --cluster-config and --cluster-version values, checked; undefined when neither is given. */
export function clusterOption(
  values: { 'cluster-config'?: string; 'cluster-version'?: string },
  cwd: string,
): ClusterSetting | undefined {
  const file = values['cluster-config'];
  const version = values['cluster-version'];
  if (file !== undefined && file.trim() === '')
    throw new UsageError('--cluster-config expects a cassandra.yaml or scylla.yaml');
  if (version !== undefined && !(CLUSTER_VERSIONS as readonly string[]).includes(version.trim().toLowerCase())) {
    throw new UsageError(`--cluster-version must be one of ${CLUSTER_VERSIONS.join(', ')}, got "${version}"`);
  }
  if (file === undefined && version === undefined) return undefined;
  return {
    ...(version !== undefined ? { version: version.trim().toLowerCase() as ClusterVersion } : {}),
    ...(file !== undefined ? { config: path.resolve(cwd, file), name: file, unconfined: true } : {}),
  };
}

/** The --evidence values, checked. */
export function evidenceOption(values: readonly string[] | undefined): string[] {
  const evidence = [...(values ?? [])];
  if (evidence.some((e) => e.trim() === '')) throw new UsageError('--evidence expects a file or folder');
  return evidence;
}

/** The samples and evidence of one run: the Project's hooks, then one reading before the rules run. */
export class ProjectFacts {
  /** The samples read (the report draws their panels from the same reading). */
  readonly samples = new SampleCache();
  private readonly evidenceCache = new EvidenceCache();
  private readonly evidence: EvidenceSetting[];
  private readonly clusterFiles = new ClusterFileCache();

  /**
   * `evidence`: the --evidence values, the user's own word, so read wherever they are (relative to `cwd`).
   * `cluster`: --cluster-config and --cluster-version (clusterOption).
   */
  constructor(
    evidence: readonly string[],
    cwd: string,
    private readonly cluster?: ClusterSetting,
  ) {
    this.evidence = evidence.map((e) => ({ path: path.resolve(cwd, e), name: e, unconfined: true }));
  }

  /** The Project options that hand the rules what was read. */
  projectOptions(): Pick<ProjectOptions, 'sampleSummary' | 'evidence' | 'evidenceFiles' | 'cluster' | 'clusterFile'> {
    return {
      sampleSummary: sampleSummaryHook(this.samples),
      evidence: this.evidence,
      evidenceFiles: (settings) => this.evidenceCache.latest(settings),
      cluster: this.cluster,
      clusterFile: (file) => this.clusterFiles.latest(file),
    };
  }

  /**
   * Reads the samples and evidence that apply to `files` (what a .cqlint.json names only inside `roots`).
   * A file that cannot be read is a problem (the run fails, exit 2); lines not read and tables the
   * workspace does not define are warnings. Returns the evidence files read.
   */
  async read(
    project: Project,
    files: readonly string[],
    options: { roots: readonly string[]; fail: (message: string) => void; warn: (message: string) => void },
  ): Promise<readonly string[]> {
    // Most runs configure no sample: then the workspace's tables (tens of thousands, sorted) are not listed.
    if (files.some((file) => project.configFor(file).samples)) {
      await readConfiguredSamples(project, tablesDefinedIn(project, files), {
        cache: this.samples,
        onProblem: options.fail,
        roots: options.roots,
      });
    }
    const read = await readProjectEvidence(project, files, this.evidenceCache, { roots: options.roots });
    for (const problem of read.problems) options.fail(problem);
    for (const warning of read.warnings) options.warn(warning);
    // The cluster's yaml files: one that cannot be read is a failure (exit 2), a value that cannot be read a
    // failure too (its default applies); the rest of the lint runs either way.
    const clusters = [
      ...new Map(files.map((file) => [project.clusterSetting(file)?.config, project.clusterSetting(file)])).values(),
    ].filter((s): s is ClusterSetting => !!s?.config);
    if (clusters.length) {
      const cluster = await this.clusterFiles.read(clusters, { roots: options.roots });
      for (const problem of cluster.problems) options.fail(problem);
      if (cluster.fresh) project.refreshCluster();
    }
    return read.files.map((f) => f.origin.file);
  }
}
