// The `-F json` and `-F yaml` forms of nodetool, read as a stream of (path, scalar, line) events: a
// small JSON tokenizer that keeps its place across lines (Jackson's pretty printer puts a key per line;
// a compact document works too while its lines stay under the line cap) and a reader for the block
// YAML SnakeYAML prints (`DumperOptions.FlowStyle.BLOCK`: two-space indents, `- ` list items).
// Both take time linear in the text: nesting is bounded (MAX_NESTING; nodetool's maps are five levels
// deep), so a scalar's path costs at most that many steps, and lines are read by hand (text-scan.ts).
import type { FormatReader } from './context';
import { isSpace } from './text-scan';
import { MAX_NESTING } from '../io/input-limits';

// Levels of nesting read: the bounded-input policy's MAX_NESTING. nodetool's `-F json` and `-F yaml` maps
// are five deep (keyspace, tables, table, top_size_partitions, key); past it the rest of the document (of
// the mapping, in YAML) is not read, said once with the line: a path is rebuilt for every scalar, so depth
// without a bound costs depth x scalars.
const tooDeep = (what: string): string =>
  `nested deeper than ${MAX_NESTING} levels (nodetool's output is 5 deep): ${what} not read`;

export type ScalarHandler = (path: readonly string[], value: string, line: number) => void;

interface Frame {
  kind: 'object' | 'array';
  key?: string;
  /** Object: a key was read and a value is expected. */
  expectValue: boolean;
  index: number;
}

export class JsonEvents implements FormatReader {
  private readonly stack: Frame[] = [];
  private done = false;
  /** Past MAX_NESTING: nothing more is read. */
  private abandoned = false;

  constructor(
    private readonly onScalar: ScalarHandler,
    private readonly onProblem: (line: number, reason: string, limit?: boolean) => void,
  ) {}

  private path(): string[] {
    return this.stack.map((f) => (f.kind === 'object' ? (f.key ?? '') : String(f.index)));
  }

  line(text: string, line: number): void {
    if (this.abandoned) return;
    let i = 0;
    const n = text.length;
    while (i < n) {
      const c = text[i]!;
      if (c === ' ' || c === '\t' || c === '\r') {
        i++;
        continue;
      }
      if (this.done) {
        this.onProblem(line, 'text after the end of the JSON document');
        return;
      }
      const top = this.stack[this.stack.length - 1];
      if (c === '{' || c === '[') {
        if (top?.kind === 'object' && !top.expectValue) return this.bad(line, `a ${c} where a key was expected`);
        if (this.stack.length >= MAX_NESTING) {
          this.abandoned = true;
          this.onProblem(line, tooDeep('the rest of the document is'), true);
          return;
        }
        this.stack.push({ kind: c === '{' ? 'object' : 'array', expectValue: false, index: 0 });
        i++;
        continue;
      }
      if (c === '}' || c === ']') {
        if (!top || (c === '}') !== (top.kind === 'object')) return this.bad(line, `an unexpected ${c}`);
        this.stack.pop();
        this.afterValue();
        i++;
        continue;
      }
      if (c === ',') {
        i++;
        continue;
      }
      if (c === ':') {
        if (top?.kind !== 'object' || top.key === undefined) return this.bad(line, 'an unexpected :');
        top.expectValue = true;
        i++;
        continue;
      }
      let token: string;
      let quoted = false;
      if (c === '"') {
        let j = i + 1;
        let out = '';
        for (; j < n; j++) {
          const d = text[j]!;
          if (d === '"') break;
          if (d === '\\' && j + 1 < n) {
            const e = text[++j]!;
            out +=
              e === 'n'
                ? '\n'
                : e === 't'
                  ? '\t'
                  : e === 'u'
                    ? String.fromCharCode(parseInt(text.slice(j + 1, j + 5), 16) || 0)
                    : e;
            if (e === 'u') j += 4;
          } else out += d;
        }
        if (j >= n) return this.bad(line, 'a string is not closed on its line');
        token = out;
        quoted = true;
        i = j + 1;
      } else {
        const m = /^[^\s,:{}[\]"]+/.exec(text.slice(i, i + 64));
        if (!m) return this.bad(line, `an unexpected ${c}`);
        token = m[0];
        i += token.length;
      }
      if (!top) return this.bad(line, 'a value outside the document');
      if (top.kind === 'object' && !top.expectValue) {
        if (!quoted) return this.bad(line, 'a key that is not a string');
        top.key = token;
        continue;
      }
      this.onScalar(this.path(), quoted || token !== 'null' ? token : '', line);
      this.afterValue();
    }
  }

  private afterValue(): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      this.done = true;
      return;
    }
    if (top.kind === 'object') {
      top.expectValue = false;
      top.key = undefined;
    } else top.index++;
  }

  private bad(line: number, reason: string): void {
    this.onProblem(line, `not valid JSON: ${reason}`);
    // Resynchronise on the next line: keep the structure, forget a half-read key.
    const top = this.stack[this.stack.length - 1];
    if (top?.kind === 'object' && !top.expectValue) top.key = undefined;
  }

  end(): void {
    if (!this.done && !this.abandoned && this.stack.length)
      this.onProblem(0, 'the JSON document ends early (truncated?)');
  }
}

function unquoteYaml(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"'))
    return v.slice(1, -1).replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  return v;
}

/** Where a quoted YAML scalar starting at 0 ends (the offset after its closing quote), or -1. */
function quotedEnd(text: string): number {
  const quote = text[0];
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (quote === '"' && c === '\\') i++;
    else if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return -1;
}

/**
 * `key: value` or `key:` (a mapping of its own follows), the key possibly quoted (a partition key of
 * top_size_partitions) or a complex `? key`; undefined for any other line. `body` is trimmed.
 */
function yamlEntry(body: string): { key: string; value?: string } | undefined {
  const at = (colon: number, key: string): { key: string; value?: string } | undefined => {
    if (colon + 1 === body.length) return { key };
    return isSpace(body.charCodeAt(colon + 1)) ? { key, value: body.slice(colon + 1).trim() } : undefined;
  };
  const first = body[0];
  if (first === undefined || first === ':' || first === '#') return undefined;
  if (first === "'" || first === '"') {
    const end = quotedEnd(body);
    if (end < 0) return undefined;
    let colon = end;
    while (colon < body.length && isSpace(body.charCodeAt(colon))) colon++;
    return body[colon] === ':' ? at(colon, body.slice(0, end)) : undefined;
  }
  // A plain key ends at the first colon; a complex one (`? a:b`) at the first colon followed by space or the end.
  const plain = body.indexOf(':');
  const entry = plain < 0 ? undefined : at(plain, body.slice(0, plain).trimEnd());
  if (entry || !body.startsWith('? ')) return entry;
  for (let colon = body.indexOf(':', 2); colon >= 0; colon = body.indexOf(':', colon + 1)) {
    const complex = at(colon, body.slice(0, colon).trimEnd());
    if (complex) return complex;
  }
  return undefined;
}

export class YamlEvents implements FormatReader {
  private readonly stack: { indent: number; key: string }[] = [];
  /** The indent of a mapping past MAX_NESTING: lines indented deeper are skipped. */
  private skipDeeperThan?: number;

  constructor(
    private readonly onScalar: ScalarHandler,
    private readonly onProblem: (line: number, reason: string, limit?: boolean) => void,
  ) {}

  line(text: string, line: number): void {
    if (!text.trim() || text.trimStart().startsWith('#') || text.trim() === '---' || text.trim() === '...') return;
    const indent = text.length - text.trimStart().length;
    const body = text.trim();
    if (this.skipDeeperThan !== undefined) {
      if (indent > this.skipDeeperThan) return;
      this.skipDeeperThan = undefined;
    }
    while (this.stack.length && this.stack[this.stack.length - 1]!.indent >= indent) this.stack.pop();
    if (body.startsWith('- ') || body === '-') return; // list items (sstables per level): not figures
    const entry = yamlEntry(body);
    if (!entry) {
      this.onProblem(line, 'not a YAML mapping line');
      return;
    }
    const key = unquoteYaml(entry.key);
    const value = entry.value;
    if (value === undefined || value === '') {
      if (this.stack.length >= MAX_NESTING) {
        this.onProblem(line, tooDeep('this mapping is'), true);
        this.skipDeeperThan = indent;
        return;
      }
      this.stack.push({ indent, key });
      return;
    }
    if (value === '[]' || value === '{}' || value === 'null' || value === '~') return;
    this.onScalar([...this.stack.map((f) => f.key), key], unquoteYaml(value), line);
  }

  end(): void {}
}
