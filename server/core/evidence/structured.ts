// The `-F json` and `-F yaml` forms of nodetool, read as a stream of (path, scalar, line) events: a
// small JSON tokenizer that keeps its place across lines (Jackson's pretty printer puts a key per line;
// a compact document works too while its lines stay under the line cap) and a reader for the block
// YAML SnakeYAML prints (`DumperOptions.FlowStyle.BLOCK`: two-space indents, `- ` list items).
import type { FormatReader } from './context';

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

  constructor(
    private readonly onScalar: ScalarHandler,
    private readonly onProblem: (line: number, reason: string) => void,
  ) {}

  private path(): string[] {
    return this.stack.map((f) => (f.kind === 'object' ? f.key ?? '' : String(f.index)));
  }

  line(text: string, line: number): void {
    let i = 0;
    const n = text.length;
    while (i < n) {
      const c = text[i]!;
      if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
      if (this.done) {
        this.onProblem(line, 'text after the end of the JSON document');
        return;
      }
      const top = this.stack[this.stack.length - 1];
      if (c === '{' || c === '[') {
        if (top?.kind === 'object' && !top.expectValue) return this.bad(line, `a ${c} where a key was expected`);
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
      if (c === ',') { i++; continue; }
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
            out += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'u' ? String.fromCharCode(parseInt(text.slice(j + 1, j + 5), 16) || 0) : e;
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
    if (!this.done && this.stack.length) this.onProblem(0, 'the JSON document ends early (truncated?)');
  }
}

function unquoteYaml(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  return v;
}

/** `key: value` with the key possibly quoted (a partition key of top_size_partitions). */
const YAML_ENTRY = /^('(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|[^:#'"][^:]*?|\? .*?)\s*:(?:\s+(.*))?$/;

export class YamlEvents implements FormatReader {
  private readonly stack: { indent: number; key: string }[] = [];

  constructor(
    private readonly onScalar: ScalarHandler,
    private readonly onProblem: (line: number, reason: string) => void,
  ) {}

  line(text: string, line: number): void {
    if (!text.trim() || text.trimStart().startsWith('#') || text.trim() === '---' || text.trim() === '...') return;
    const indent = text.length - text.trimStart().length;
    const body = text.trim();
    while (this.stack.length && this.stack[this.stack.length - 1]!.indent >= indent) this.stack.pop();
    if (body.startsWith('- ') || body === '-') return; // list items (sstables per level): not figures
    const m = YAML_ENTRY.exec(body);
    if (!m) {
      this.onProblem(line, 'not a YAML mapping line');
      return;
    }
    const key = unquoteYaml(m[1]!);
    const value = m[2]?.trim();
    if (value === undefined || value === '') {
      this.stack.push({ indent, key });
      return;
    }
    if (value === '[]' || value === '{}' || value === 'null' || value === '~') return;
    this.onScalar([...this.stack.map((f) => f.key), key], unquoteYaml(value), line);
  }

  end(): void {}
}
