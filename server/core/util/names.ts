// How a name is written in CQL: unquoted names are folded to lower case, so a name with upper case,
// odd characters or the spelling of a reserved keyword must be double-quoted to mean itself.
import { RESERVED_KEYWORDS as GRAMMAR_RESERVED } from '../../../grammar';

/** Apache Cassandra 5.0 reserved keywords (cannot be used unquoted as names), from the grammar. */
const RESERVED_KEYWORDS: ReadonlySet<string> = new Set(GRAMMAR_RESERVED);

const PLAIN_NAME = /^[a-z][a-z0-9_]*$/;

/** True when `name` (as Cassandra sees it) must be written in double quotes. */
export function needsQuotes(name: string): boolean {
  return !PLAIN_NAME.test(name) || RESERVED_KEYWORDS.has(name.toUpperCase());
}

/** The CQL spelling of a name: bare when possible, else double-quoted with `"` doubled. */
export function quoteName(name: string): string {
  return needsQuotes(name) ? `"${name.replace(/"/g, '""')}"` : name;
}

/**
 * Reads a name the user typed (rename box, command argument): `"Quoted"` keeps its case and has
 * `""` unescaped; anything else is taken literally, case kept (it gets quotes when it needs them).
 * Returns undefined for an empty name or a stray quote.
 */
export function parseTypedName(input: string): string | undefined {
  const text = input.trim();
  if (!text) return undefined;
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    const inner = text.slice(1, -1);
    // Inside quotes every `"` must be doubled.
    if (inner.replace(/""/g, '').includes('"')) return undefined;
    const name = inner.replace(/""/g, '"');
    return name ? name : undefined;
  }
  if (text.includes('"')) return undefined;
  return text;
}

/**
 * A CQL identifier as written (`Users`, `"Users"`) to the name Cassandra sees: unquoted names fold to lower
 * case, quoted ones keep their case with `""` unescaped.
 */
export function foldName(written: string): string {
  return written.length >= 2 && written.startsWith('"') && written.endsWith('"')
    ? written.slice(1, -1).replace(/""/g, '"')
    : written.toLowerCase();
}

/** Names kept once per process (a workspace spells the same table and type names in thousands of places). */
const internedNames = new Map<string, string>();
/** The pool is dropped when it reaches this size: it holds names, never text, so it grows with the schema. */
const MAX_INTERNED_NAMES = 100_000;

/**
 * Lets go of the pool (see Project.forgetLookups): names interned later are not shared with those kept
 * so far, which stay as they are. Strings compare by value: only memory depends on the pool.
 */
export function forgetInternedNames(): void {
  internedNames.clear();
}

/**
 * One string object for equal names (names of tables, columns, keyspaces and indexes, qualified names, type
 * texts) kept by schema summaries and references: a workspace spells the same few in thousands of places.
 */
export function internName(name: string): string;
/** An optional name (a keyspace a statement may not say): undefined stays undefined. */
export function internName(name: string | undefined): string | undefined;
export function internName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const known = internedNames.get(name);
  if (known !== undefined) return known;
  if (internedNames.size >= MAX_INTERNED_NAMES) internedNames.clear();
  internedNames.set(name, name);
  return name;
}

/**
 * A fresh record keyed by names a user wrote (columns, tables, data centers, rule ids): without a
 * prototype, `constructor` or `__proto__` is a key like any other, never Object.prototype's member.
 */
export function nameRecord<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/**
 * nameRecord for the many small records kept as long as their file (a statement's literal values by column):
 * the same safety, in a quarter of the memory. Object.create(null) makes a dictionary (288 bytes for four
 * keys); an empty object whose prototype is then taken away keeps V8's fast properties (64 bytes), and
 * without a prototype an assigned `__proto__` is a key like any other. Not for records that take many keys
 * or lose them (V8 turns those into dictionaries anyway).
 */
export function smallNameRecord<V>(): Record<string, V> {
  return Object.setPrototypeOf({}, null) as Record<string, V>;
}

/**
 * `record[key]` for a key a user wrote, only when the record holds it itself: a plain object (a spread,
 * JSON, Object.fromEntries) would answer `constructor` with Object.prototype's function.
 */
export function ownEntry<V>(record: Readonly<Record<string, V>> | undefined, key: string): V | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
