// Edits one key of a .cqlint.json as text, keeping everything else as written (comments are not JSON,
// so the file has none; key order, spacing and the other keys stay): used to save a sample chosen in the
// editor's partition report into `samples`. Only locates what it needs; the text must be valid JSON.

export interface TextEdit {
  offset: number;
  length: number;
  text: string;
}

interface JsonProperty {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
  /** The value when it is an object. */
  object?: JsonObject;
}

interface JsonObject {
  start: number;
  /** Offset of the closing brace. */
  end: number;
  properties: JsonProperty[];
}

class JsonScanner {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(): never {
    throw new SyntaxError(`not valid JSON at offset ${this.pos}`);
  }

  space(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  string(): string {
    if (this.text[this.pos] !== '"') this.fail();
    const start = this.pos;
    this.pos++;
    while (this.pos < this.text.length && this.text[this.pos] !== '"') this.pos += this.text[this.pos] === '\\' ? 2 : 1;
    if (this.pos >= this.text.length) this.fail();
    this.pos++;
    return JSON.parse(this.text.slice(start, this.pos)) as string;
  }

  value(): JsonObject | undefined {
    this.space();
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') {
      this.pos++;
      this.space();
      if (this.text[this.pos] === ']') { this.pos++; return undefined; }
      for (;;) {
        this.value();
        this.space();
        const d = this.text[this.pos++];
        if (d === ']') return undefined;
        if (d !== ',') this.fail();
      }
    }
    if (c === '"') { this.string(); return undefined; }
    const literal = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(this.text.slice(this.pos, this.pos + 64));
    if (!literal) this.fail();
    this.pos += literal[0].length;
    return undefined;
  }

  object(): JsonObject {
    const start = this.pos++;
    const properties: JsonProperty[] = [];
    this.space();
    if (this.text[this.pos] === '}') return { start, end: this.pos++, properties };
    for (;;) {
      this.space();
      const keyStart = this.pos;
      const key = this.string();
      this.space();
      if (this.text[this.pos++] !== ':') this.fail();
      this.space();
      const valueStart = this.pos;
      const object = this.value();
      properties.push({ key, keyStart, valueStart, valueEnd: this.pos, object });
      this.space();
      const d = this.text[this.pos++];
      if (d === '}') return { start, end: this.pos - 1, properties };
      if (d !== ',') this.fail();
    }
  }
}

function parseTopObject(text: string): JsonObject {
  const scanner = new JsonScanner(text);
  scanner.space();
  if (text[scanner.pos] !== '{') scanner.fail();
  const top = scanner.object();
  scanner.space();
  if (scanner.pos !== text.length) scanner.fail();
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
  if (!last) return { offset: object.start, length: object.end + 1 - object.start, text: `{ ${entry} }` };
  const sameLine = !text.slice(last.keyStart, object.end).includes('\n') || !text.slice(object.start, last.keyStart).includes('\n');
  return { offset: last.valueEnd, length: 0, text: sameLine ? `, ${entry}` : `,\n${indentAt(text, last.keyStart)}${entry}` };
}

/**
 * The edit that makes `samples[table]` name `file` in a .cqlint.json's text (undefined text: a new file),
 * leaving the rest as written. Throws SyntaxError when the text is not a JSON object.
 */
export function sampleSettingEdit(text: string | undefined, table: string, file: string): TextEdit {
  const value = JSON.stringify(file);
  if (text === undefined || text.trim() === '') {
    return { offset: 0, length: text?.length ?? 0, text: `{\n  "samples": { ${JSON.stringify(table)}: ${value} }\n}\n` };
  }
  const top = parseTopObject(text);
  const samples = top.properties.filter((p) => p.key === 'samples').pop();
  if (!samples) return addProperty(text, top, 'samples', `{ ${JSON.stringify(table)}: ${value} }`);
  if (!samples.object) return { offset: samples.valueStart, length: samples.valueEnd - samples.valueStart, text: `{ ${JSON.stringify(table)}: ${value} }` };
  const existing = samples.object.properties.filter((p) => p.key === table).pop();
  if (existing) return { offset: existing.valueStart, length: existing.valueEnd - existing.valueStart, text: value };
  return addProperty(text, samples.object, table, value);
}
