// Production evidence: the outputs of the cluster's own tools (nodetool, dsbulk, system tables), read
// offline. Readers per format (read.ts dispatches by content), the combination per table (combine.ts),
// what rules and views say of it (figures.ts), key decoding (keys.ts) and the files and their cache
// (files.ts). Pure: no LSP, and only files.ts does I/O.
export * from './types';
export { EVIDENCE_BOUNDS } from './bounds';
export { readEvidence, EvidenceReadError, KNOWN_FORMATS, type EvidenceReadOptions } from './read';
export { combineEvidence, tableMatches, type Cited, type BusyPartition, type TableEvidence } from './combine';
export * from './figures';
export { decodePartitionKey, type DecodedKey } from './keys';
export {
  EvidenceCache,
  evidenceFilesOf,
  evidenceSettingsOf,
  readEvidenceFile,
  readProjectEvidence,
  undefinedTableWarnings,
  type EvidenceReadResult,
} from './files';
