// Text for a terminal, the one way: a file name, a quoted CQL identifier, a config key, an evidence node
// name or a partition key may hold control characters, and raw on a terminal they set its title, clear
// the screen or erase the line above an error. Every formatter and every message shows them escaped, as
// git shows such characters in paths (`\033`, `\r`, C1 as the octal of its UTF-8 bytes: `\302\233`):
// stderr goes through terminalStream (main.ts), the text formats escape each piece they print before
// colouring it (formatters.ts), and commands print their human text through terminalStream(io.stdout).
// JSON and SARIF escape the C1 characters JSON.stringify leaves raw (jsonTerminalSafe); diffs, HTML and
// SVG carry the file's bytes as they are. See DEVELOPERS.md, "Contracts others rely on".
import type { CliStream } from './io';

/** C0 controls but tab and line feed, DEL and C1: what terminalText escapes (with line feeds when asked). */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROLS_ALL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const CONTROLS_AND_LINES = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

const C_ESCAPES: Readonly<Record<string, string>> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\n': '\\n',
  '\u000b': '\\v',
  '\f': '\\f',
  '\r': '\\r',
};

function escapeControl(c: string): string {
  const named = C_ESCAPES[c];
  if (named) return named;
  // The octal of each UTF-8 byte, three digits: U+001B is \033, U+009B is \302\233.
  return [...Buffer.from(c, 'utf8')].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
}

/**
 * `text` with its control characters shown escaped (see the top of this file). Tabs are kept, and line
 * feeds unless `oneLine` (a file name, a headline: a line feed in them would make a line of its own).
 */
export function terminalText(text: string, oneLine = false): string {
  if (oneLine)
    return text.includes('\n') || CONTROLS.test(text) ? text.replace(CONTROLS_AND_LINES, escapeControl) : text;
  return CONTROLS.test(text) ? text.replace(CONTROLS_ALL, escapeControl) : text;
}

/**
 * A stream whose writes go through terminalText (line feeds kept): stderr for every message, stdout for a
 * command's human text. `writeControl` writes as it is: the progress line's own erase sequence.
 */
export function terminalStream(stream: CliStream): CliStream {
  if (stream.writeControl) return stream; // escaping already
  return {
    write: (text: string) => stream.write(terminalText(text)),
    writeControl: (text: string) => stream.write(text),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
  };
}

/**
 * JSON text (JSON.stringify's) with DEL and the C1 controls escaped as \u00XX too: JSON.stringify escapes
 * C0 only, and a terminal takes U+009B for CSI. The same JSON value, so every reader reads it the same.
 */
export function jsonTerminalSafe(json: string): string {
  return /[\u007f-\u009f]/.test(json)
    ? json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : json;
}
