// The CQL a program keeps in its source code (Java, Kotlin, Python, Go, JavaScript/TypeScript, C#), as the
// engine sees it: one CQL text per host file (its statements, in order, each on lines of its own), and a map
// between that text and the host file. Everything in server/core reads the CQL text with offsets into it;
// the map turns those offsets into host positions (diagnostics, hovers) and CQL edits into host edits
// (fixes), keeping the host's quoting and escapes.
import type { SourceRange } from '../../../grammar/ast';
import type { TextEdit } from '../util/text-edit';

/** The host languages read, by the tree-sitter grammar that reads them. */
export type HostLanguage = 'java' | 'kotlin' | 'python' | 'go' | 'javascript' | 'typescript' | 'tsx' | 'csharp';

/** Where a statement's session keyspace came from (the hover says which). */
export type KeyspaceSource =
  /** A literal in the host file: `cluster.connect('shop')`, `new Client({ keyspace: 'shop' })`, `USE shop` ... */
  | {
      kind: 'code';
      name: string;
      /** Host range of the literal naming it. */ hostRange: SourceRange;
      /** The call, as written, shortened. */ via: string;
    }
  /** The `defaultKeyspace` setting. */
  | { kind: 'setting'; name: string };

/** One statement found in the host file. */
export interface EmbeddedStatement {
  /** Its range in the CQL text (without the `;` the CQL text may add after it, nor leading or trailing white space). */
  cqlRange: SourceRange;
  /** Host range of the expression that holds it (the literal, the concatenation, the constant's use). */
  hostRange: SourceRange;
  /**
   * What the statement reaches: a known driver call or annotation (`session.execute`, `@Query`), or none (a literal
   * that parses as a complete CQL statement on its own).
   */
  anchor?: string;
  /**
   * The parts of the statement that are not literals (a table name from a variable), as ranges of the CQL text.
   * Each is a placeholder there: `?` where the text before it asks for a value (after `=`, `IN`, `LIMIT`, inside
   * `VALUES (...)`), else a name `cqlint_hole_N` (N counts the file's holes from 1; inside a quoted string too).
   */
  holes: SourceRange[];
  /** The session keyspace that applies to it, when the code or the settings give one. */
  keyspace?: KeyspaceSource;
  /**
   * The rules a suppression comment of the code turns off on it (`// cqlint-disable-next-line allow-filtering` above
   * its call, `# ...` in Python, or `cqlint-disable-line` at the end of the line); empty: every rule.
   */
  disabled?: string[];
}

/** Something about the host file the user should know (too large to read, a grammar that failed): shown as a note. */
export interface EmbeddedProblem {
  message: string;
  hostRange: SourceRange;
}

/** The result of mapping CQL edits to the host file. */
export type HostEditResult = { edits: TextEdit[] } | { refused: string };

/** A host file read for its CQL. */
export interface EmbeddedDocument {
  readonly language: HostLanguage;
  /** The CQL text: every statement found, each followed by `;` and a line break, with `USE` for session keyspaces. */
  readonly cqlText: string;
  readonly statements: readonly EmbeddedStatement[];
  readonly problems: readonly EmbeddedProblem[];
  /**
   * The host offset a CQL offset shows at (a hole's or a synthesised character's nearest host place). Where two
   * parts meet (`"a" + "b"`), the start of the next one; use toHostRange for a range, whose end is the end of the
   * last character it covers.
   */
  toHost(cqlOffset: number): number;
  /** The host range a CQL range covers: from where its first character was written to where its last one ends. */
  toHostRange(cqlRange: SourceRange): SourceRange;
  /** The CQL offset of a host offset inside a statement's literal (or hole), else undefined. */
  toCql(hostOffset: number): number | undefined;
  /**
   * Host edits for non-overlapping edits of the CQL text: new text is encoded for the literal it lands in, text
   * spanning several literals goes into the first and the rest is deleted, comment lines inserted at a statement's
   * start (`-- bind shard = ...`) become host comments above the call (`// cqlint: bind shard = ...`). Refused, with
   * the reason, when an edit would touch a hole or code between literals, or cannot be written in a literal.
   */
  hostEdits(cqlEdits: readonly TextEdit[]): HostEditResult;
}

/** What reading a host file may take from the settings. */
export interface EmbeddedOptions {
  /** The keyspace of statements the code gives none for (`.cqlint.json` `defaultKeyspace`). */
  defaultKeyspace?: string;
}
