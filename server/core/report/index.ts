// The partition report: data (data.ts), sample reading (sample.ts, csv.ts) and the HTML page (html.ts).
import { createHash } from 'node:crypto';
import type { Project, ProjectOptions } from '../engine/project';
import { sampleFor, type SampleSetting } from '../config';
import { readTextFile } from '../io/files';
import { parseRing, type Ring } from '../token/ring';
import type { TableInfo } from '../schema/model';
import { targetInfo } from '../partition/targets';
import { partitionReportData, type PartitionReportData, type ReportOptions } from './data';
import type { SampleOptions } from './sample';
import { SampleCache, type SampleRequest, type SampleResult } from './sample-cache';

export * from './data';
export { renderReportHtml, sortBySeverity, type RenderOptions } from './html';
export { keyspaceViews, type KeyspaceView, type SourcePlace } from './keyspace';
export { diagramLayout, diagramSvg } from './diagram';
export type { SampleSummary, SamplePartition } from './sample';
export { SampleCache, type SampleProgress, type SampleResult } from './sample-cache';

/** Tables and views defined in `files` (every project file when omitted), in file order. */
export function tablesDefinedIn(project: Project, files: readonly string[] = project.files()): TableInfo[] {
  const wanted = new Set(files);
  return project
    .schema()
    .allTables()
    .filter((t) => wanted.has(t.filePath))
    .sort((a, b) => a.filePath.localeCompare(b.filePath) || a.range.start - b.range.start);
}

/** The report data of one table, with the target and hints that apply to its file. */
export function tableReport(project: Project, table: TableInfo, options: ReportOptions = {}): PartitionReportData {
  // The hints as the rules see them: the table's `-- @cqlint` comment, overridden by the config.
  return partitionReportData(
    project,
    table,
    targetInfo(project.targetFor(table.filePath)),
    project.tableHints(table.filePath, table),
    options,
  );
}

interface SampleReading {
  /** Progress and cancellation for the sample's reading. */
  onProgress?: SampleRequest['onProgress'];
  isCancelled?: SampleOptions['isCancelled'];
  /** Why the sample or the ring could not be used (the report is made without them). */
  onProblem?: (message: string) => void;
  /** Summaries already read (and where new ones are kept); without it the sample is read each time. */
  cache?: SampleCache;
  /** A sample chosen for this report instead of the configured one (the editor's "Choose sample CSV…"). */
  chosen?: SampleSetting;
  /**
   * Where the samples and the ring a .cqlint.json names may be read from besides that config's own folder:
   * the editor's workspace folders, or the folders of the command line's inputs. 'none' reads none of them
   * (an untrusted workspace: VS Code's Restricted Mode).
   */
  roots?: ConfinedRoots;
  /** Rings already read, by path and confinement (a report of many tables reads each ring once). */
  rings?: Map<string, Promise<{ ring: Ring; key: string } | undefined>>;
}

/** Folders a file must be inside, or 'none' when no such file is read at all. */
type ConfinedRoots = readonly string[] | 'none';

/** Said once per reading when a configured sample or ring is not read in an untrusted workspace. */
const UNTRUSTED = 'not read in an untrusted workspace (Restricted Mode): trust the workspace to read it';

/**
 * The folders a sample or ring named by the config of `filePath` must be inside: `roots` and the config's
 * own folder; undefined (anywhere) only for a config given as an object, with no roots. 'none' stays 'none'.
 */
function confinement(
  project: Project,
  filePath: string,
  roots: ConfinedRoots | undefined,
): readonly string[] | 'none' | undefined {
  if (roots === 'none') return 'none';
  const folder = project.configFor(filePath).folder;
  const all = [...(roots ?? []), ...(folder ? [folder] : [])];
  return all.length ? all : undefined;
}

function ringFor(
  path: string | undefined,
  roots: readonly string[] | 'none' | undefined,
  onProblem?: (message: string) => void,
  cache?: SampleReading['rings'],
): Promise<{ ring: Ring; key: string } | undefined> {
  if (!path) return Promise.resolve(undefined);
  if (roots === 'none') {
    onProblem?.(`ring ${path}: ${UNTRUSTED}`);
    return Promise.resolve(undefined);
  }
  const key = `${path}\u0000${(roots ?? []).join('\u0000')}`;
  let read = cache?.get(key);
  if (!read) {
    read = readRing(path, roots, onProblem);
    cache?.set(key, read);
  }
  return read;
}

async function readRing(
  path: string,
  roots: readonly string[] | undefined,
  onProblem?: (message: string) => void,
): Promise<{ ring: Ring; key: string } | undefined> {
  const read = await readTextFile(path, { kind: 'ring', roots });
  if (!read.ok) {
    onProblem?.(`ring ${path}: ${read.message}`);
    return undefined;
  }
  try {
    return { ring: parseRing(read.text), key: createHash('sha1').update(read.text).digest('hex') };
  } catch (error) {
    onProblem?.(`ring ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** The sample .cqlint.json names for a table (under the config of the file that defines it). */
export function configuredSample(project: Project, table: TableInfo): SampleSetting | undefined {
  return sampleFor(project.configFor(table.filePath), table.keyspace, table.name);
}

/**
 * Reads (or takes from the cache) a table's sample: the configured one, or `options.chosen`. The shard
 * spread is the report's (the table's @shard, or the one the fix proposes, from `report`), so that the
 * report reuses a summary read for the rules. Undefined when there is no sample; problems go to onProblem.
 * A new summary of a configured sample refreshes the project's findings (the rules cite it).
 */
export async function readTableSample(
  project: Project,
  table: TableInfo,
  options: ReportOptions & SampleReading & { report?: PartitionReportData } = {},
): Promise<SampleResult | undefined> {
  const setting = options.chosen ?? configuredSample(project, table);
  if (!setting) return undefined;
  const roots = confinement(project, table.filePath, options.roots);
  // A sample chosen in the editor was picked by hand: it may lie anywhere. A configured one is confined.
  if (!options.chosen && roots === 'none') {
    options.onProblem?.(`sample ${setting.name ?? setting.file} of ${table.qualifiedName}: ${UNTRUSTED}`);
    return undefined;
  }
  const spread = (options.report ?? tableReport(project, table, options)).spread;
  const ring = await ringFor(project.configFor(table.filePath).ring, roots, options.onProblem, options.rings);
  const request = {
    table,
    schema: project.schema(),
    setting,
    shard: spread?.shard.method === 'random' ? undefined : spread?.shard,
    ring: ring?.ring,
    ringKey: ring?.key,
    roots: options.chosen || roots === 'none' ? undefined : roots,
    onProgress: options.onProgress,
    isCancelled: options.isCancelled,
  };
  try {
    const result = await (options.cache ?? new SampleCache()).get(request);
    if (result.fresh && !result.summary.cancelled && !options.chosen) project.refreshSamples();
    return result;
  } catch (error) {
    options.onProblem?.(
      `sample ${setting.name ?? setting.file} of ${table.qualifiedName}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

/**
 * The report of a table with its sample read in (the configured one, or the one chosen for this report):
 * spread with the formula the report shows, nodes with the configured ring.
 */
export async function tableReportWithSample(
  project: Project,
  table: TableInfo,
  options: ReportOptions & SampleReading = {},
): Promise<PartitionReportData> {
  // The ring (traffic panel, nodes of the sample) is read once per report of many tables.
  const rings = options.rings ?? new Map();
  const ring = (await ringFor(project.configFor(table.filePath).ring, options.roots, options.onProblem, rings))?.ring;
  const withRing = { ...options, rings, ...(ring ? { ring } : {}) };
  const first = tableReport(project, table, withRing);
  const read = await readTableSample(project, table, { ...withRing, report: first });
  if (!read) return first;
  const configured = configuredSample(project, table);
  const chosen = options.chosen !== undefined && options.chosen.file !== configured?.file;
  return tableReport(project, table, { ...withRing, sample: read.summary, sampleChosen: chosen });
}

/**
 * Reads the configured samples of `tables` one after the other (the command line does so before linting,
 * so that the rules cite them). Problems go to onProblem.
 */
export async function readConfiguredSamples(
  project: Project,
  tables: readonly TableInfo[],
  options: SampleReading & { cache: SampleCache },
): Promise<number> {
  let read = 0;
  for (const table of tables) {
    const setting = configuredSample(project, table);
    if (!setting) continue;
    const roots = confinement(project, table.filePath, options.roots);
    if (roots === 'none') {
      options.onProblem?.(`sample ${setting.name ?? setting.file} of ${table.qualifiedName}: ${UNTRUSTED}`);
      continue;
    }
    // No report here: the spread formula is the table's own @shard (what the rules need is the partitions).
    const shard = table.shard && table.shard.method !== 'random' ? table.shard : undefined;
    try {
      await options.cache.get({
        table,
        schema: project.schema(),
        setting,
        shard,
        roots,
        onProgress: options.onProgress,
        isCancelled: options.isCancelled,
      });
      read++;
    } catch (error) {
      options.onProblem?.(
        `sample ${setting.name ?? setting.file} of ${table.qualifiedName}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (read) project.refreshSamples();
  return read;
}

/** The Project hook that hands the rules the summaries of a cache (ProjectOptions.sampleSummary). */
export function sampleSummaryHook(cache: SampleCache): NonNullable<ProjectOptions['sampleSummary']> {
  return (table, setting) => cache.latest(setting.file, table.qualifiedName);
}
