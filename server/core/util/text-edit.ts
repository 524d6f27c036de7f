// The one shape of a text edit in the engine: quick fixes and refactorings (fixes/), renames
// (editor/navigation.ts) and the .cqlint.json edit (config/json-edit.ts) all produce it, and
// fixes/text.ts applyEdits applies it.

/** Replace `text.slice(start, end)` with `newText`; offsets are 0-based UTF-16 offsets into the text. */
export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}
