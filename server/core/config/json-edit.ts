// Edits one key of a .cqlint.json as text, keeping everything else as written (comments are not JSON,
// so the file has none; key order, spacing and the other keys stay): used to save a sample chosen in the
// editor's partition report into `samples`. Only locates what it needs; the text must be valid JSON.
// Not jsonc-parser's modify(): it parses recursively, and a value nested a million levels deep overflows
// the stack (RangeError) where this scanner answers (test/report/json-edit.test.ts).
import { JsonScanError, jsonObjectMembers, skipSpace, type JsonMember } from '../util/json-scan';
import type { TextEdit } from '../util/text-edit';

export type { TextEdit } from '../util/text-edit';

/** The edit replacing `length` characters at `offset` with `text`. */
function edit(offset: number, length: number, text: string): TextEdit {
  return { start: offset, end: offset + length, newText: text };
}

interface JsonObject {
  start: number;
  /** Offset of the closing brace. */
  end: number;
  properties: JsonMember[];
}

/** The object at `pos` (a `{`), as the scanner gives it. */
function objectAt(text: string, pos: number): JsonObject {
  const { start, end, members } = jsonObjectMembers(text, pos);
  return { start, end, properties: members };
}

/** The whole text as one object (a SyntaxError otherwise), scanned without recursion (util/json-scan.ts). */
function parseTopObject(text: string): JsonObject {
  const top = objectAt(text, skipSpace(text, 0));
  if (skipSpace(text, top.end + 1) !== text.length) throw new JsonScanError(skipSpace(text, top.end + 1));
  return top;
}

/** The indentation of the line `offset` is on. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** Adds `"key": value` to an object: after its last property on a line of its own, or inside an empty one. */
function addProperty(text: string, object: JsonObject, key: string, value: string): TextEdit {
  const entry = `${JSON.stringify(key)}: ${value}`;
  const last = object.properties.at(-1);
  if (!last) return edit(object.start, object.end + 1 - object.start, `{ ${entry} }`);
  const sameLine =
    !text.slice(last.keyStart, object.end).includes('\n') || !text.slice(object.start, last.keyStart).includes('\n');
  return edit(last.valueEnd, 0, sameLine ? `, ${entry}` : `,\n${indentAt(text, last.keyStart)}${entry}`);
}

/**
 * The edit that makes `samples[table]` name `file` in a .cqlint.json's text (undefined text: a new file),
 * leaving the rest as written. Throws SyntaxError when the text is not a JSON object.
 */
export function sampleSettingEdit(text: string | undefined, table: string, file: string): TextEdit {
  const value = JSON.stringify(file);
  if (text === undefined || text.trim() === '') {
    return edit(0, text?.length ?? 0, `{\n  "samples": { ${JSON.stringify(table)}: ${value} }\n}\n`);
  }
  const top = parseTopObject(text);
  const samples = top.properties.filter((p) => p.key === 'samples').pop();
  if (!samples) return addProperty(text, top, 'samples', `{ ${JSON.stringify(table)}: ${value} }`);
  if (text.charCodeAt(samples.valueStart) !== 123 /* { */)
    return edit(samples.valueStart, samples.valueEnd - samples.valueStart, `{ ${JSON.stringify(table)}: ${value} }`);
  const object = objectAt(text, samples.valueStart);
  const existing = object.properties.filter((p) => p.key === table).pop();
  if (existing) return edit(existing.valueStart, existing.valueEnd - existing.valueStart, value);
  return addProperty(text, object, table, value);
}
