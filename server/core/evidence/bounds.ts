// The caps every evidence reader keeps to, in one place: a 20 GB dsbulk log or a garbage file never costs
// more memory than these allow, whatever its size. (The issue 27 bounded-input policy for documents,
// samples and evidence will take these over; until it lands they live here and only here.)

export const EVIDENCE_BOUNDS = Object.freeze({
  /**
   * Characters of one line. nodetool and dsbulk lines are short (a partition key, a few numbers);
   * a longer line is reported and skipped without being kept, so a file with no line breaks streams too.
   */
  maxLineChars: 64 * 1024,
  /** Fields of one CSV record (system.large_partitions has 9). */
  maxFields: 64,
  /** Characters of one value kept (a partition key as printed): longer ones are cut and marked. */
  maxCellChars: 1024,
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

/**
 * A string kept past its line: a copy of its own. A line is a slice of a 256 KB chunk read from the
 * file, and V8 keeps the whole chunk alive for any slice of it that is kept.
 */
export function ownString(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** A value as kept: at most maxCellChars characters, with an ellipsis when cut, in a string of its own. */
export function boundedCell(text: string): string {
  const max = EVIDENCE_BOUNDS.maxCellChars;
  return ownString(text.length > max ? `${text.slice(0, max)}…` : text);
}
