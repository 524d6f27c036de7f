// What the evidence readers keep, in one place: a 20 GB dsbulk log or a garbage file never costs more
// memory than these allow, whatever its size. A record (a line of tool output, a CSV row) is bounded by
// the one bounded-input policy, io/input-limits.ts (RECORD_LIMITS through RecordGuard: lines.ts and the
// CSV reader), a kept key by its KEY_LIMITS.maxKeyLength. The caps below are the evidence's own: how many
// figures of each kind a file keeps. (Tables are refused past their cap rather than tallied with KeyTally:
// every table's figures matter alike, so dropping the ones seen least would lose figures silently.)
import { KEY_LIMITS } from '../io/input-limits';
import { flatCopy } from '../util/strings';

export const EVIDENCE_BOUNDS = Object.freeze({
  /** Characters of one value kept (a partition key as printed): longer ones are cut and marked. */
  maxCellChars: KEY_LIMITS.maxKeyLength,
  /** Tables kept from one file (a cluster-wide `nodetool tablestats` lists every table). */
  maxTables: 10_000,
  /** Partitions kept per table and list (toppartitions, dsbulk partitions, large partitions): the largest. */
  maxPartitions: 100,
  /** Hosts kept from one dsbulk hosts listing. */
  maxHosts: 5_000,
  /** Problems listed by line per file (the count covers all of them). */
  maxProblems: 50,
  /** Files read from one configured folder. */
  maxFilesPerFolder: 1_000,
  /** Folder depth walked below a configured folder. */
  maxFolderDepth: 4,
});

/** A value as kept: at most maxCellChars characters, with an ellipsis when cut, in a string of its own. */
export function boundedCell(text: string): string {
  const max = EVIDENCE_BOUNDS.maxCellChars;
  return flatCopy(text.length > max ? `${text.slice(0, max)}…` : text);
}
