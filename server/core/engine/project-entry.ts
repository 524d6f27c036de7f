// What a Project keeps per file (FileEntry), and the text it keeps deflated once the file's tree is let go.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

import type { ParseResult, Statement } from '../../../grammar/ast';
import type { OffsetFinding } from '../findings/findings';
import type { FileSchema } from '../schema/build';
import type { SchemaModel } from '../schema/model';
import type { TableReference } from '../schema/references';
import type { CqlintConfig } from '../vocabulary/config';
import type { ReferenceDependency } from './rule-runner';
import type { DdlSignature } from './schema-reuse';

export interface FileEntry {
  /** The text; absent once the tree is let go (release()), when `raw` or `packed` holds it (see textOf). */
  text?: string;
  /**
   * The text as UTF-8, kept from release() until the text changes when the Project keeps its texts as they are
   * (ProjectOptions.keepTexts): outside V8's heap, which then neither marks, moves nor grows by them.
   */
  raw?: Buffer;
  /** The text deflated, kept from release() until the text changes. */
  packed?: Buffer;
  parse?: ParseResult;
  /** The parse of the previous text, handed to the parser for incremental reuse. */
  previous?: ParseResult;
  schema?: FileSchema;
  /**
   * What `schema` was built from (its schema statements), to reuse it when an edit touches no DDL: made when
   * the text changes (setFile), from `schemaParse`, unless fileSchema made it already to compare with the
   * previous one. Most files are never edited: building it with every schema cost ~3% of a first lint.
   */
  ddl?: DdlSignature;
  /** The parse `schema` was built (or reused) for: `ddl` can be made from it while it is `parse`. */
  schemaParse?: ParseResult;
  /** The previous text's schema and signature: reused when the new parse has the same schema statements. */
  previousSchema?: { schema: FileSchema; ddl: DdlSignature };
  lint?: {
    findings: OffsetFinding[];
    model: SchemaModel;
    config: CqlintConfig | undefined;
    optionsVersion: number;
    /** The reference lookups the rules made: the findings are stale when one of them answers differently. */
    references: ReferenceDependency[];
  };
  /** The file-local rules' findings on `parse` (RuleRunner.runLocal), with what they were computed under. */
  local?: { findings: OffsetFinding[]; parse: ParseResult; config: CqlintConfig; optionsVersion: number };
  /** The table references of `parse` (see schema/references.ts). */
  references?: TableReference[];
  /** Those of `previous`: the statements the incremental parse keeps keep theirs. */
  previousReferences?: TableReference[];
  /** The statements of `previous` (kept past the parse until the references are built from them). */
  previousStatements?: readonly Statement[];
  /** The tree was let go (release()): the next parse keys `schema.byStatement` by its statements again. */
  released?: boolean;
}

/**
 * A file's entry with every field it will ever have, so that it keeps one shape (V8 map) for its life. An
 * entry given a field later (its first lint's `lint`) moves its fields to a new property store, and the old
 * store, dead in the old generation, still points at the tree of the moment: V8's young-generation
 * collections take such a pointer as alive, so every tree then parsed was promoted and freed only by a full
 * collection (the CLI's lint pass: 10 MB promoted per scavenge).
 */
export function fileEntry(fields: FileEntry): FileEntry {
  // Every field, in one order (the type makes a field added to FileEntry an error here until it is listed).
  const blank: { [K in keyof Required<FileEntry>]: FileEntry[K] } = {
    text: undefined,
    raw: undefined,
    packed: undefined,
    parse: undefined,
    previous: undefined,
    schema: undefined,
    ddl: undefined,
    schemaParse: undefined,
    previousSchema: undefined,
    lint: undefined,
    local: undefined,
    references: undefined,
    previousReferences: undefined,
    previousStatements: undefined,
    released: undefined,
  };
  return { ...blank, ...fields };
}

/** No lone surrogate (String.prototype.isWellFormed: Node 20+, newer than the ES2022 lib we compile against). */
export const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * A text deflated, in a buffer of its own size: zlib answers with a view of its 16 KiB output chunk, which
 * would keep the whole chunk alive (32 MiB for 12 MiB of packed texts on the 2,000-file bench).
 */
export function packText(text: string | Buffer): Buffer {
  const deflated = deflateRawSync(text, { level: 1 });
  return deflated.byteLength === deflated.buffer.byteLength ? deflated : Buffer.from(deflated);
}

/**
 * A text as UTF-8, in a buffer of its own: Buffer.from puts a short text in a shared 8 KiB slab, which a
 * text kept for the whole run would keep alive with whatever else was cut from it.
 */
export function rawText(text: string): Buffer {
  const raw = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  raw.write(text, 'utf8');
  return raw;
}

/** A file's text, decoded from its raw copy or inflated from its packed one when its tree was let go. */
export function textOf(entry: FileEntry): string {
  if (entry.text !== undefined) return entry.text;
  if (entry.raw) return entry.raw.toString('utf8');
  return entry.packed ? inflateRawSync(entry.packed).toString('utf8') : '';
}
