// Writing new CQL text inside a host literal: each literal syntax escapes its own characters. These helpers are
// shared by the languages' HostLiteral.encode.

/** Options of a backslash-escaped literal. */
export interface BackslashOptions {
  /** Characters escaped with a backslash before them (the quote, `$` in Kotlin, `` ` `` in a template literal). */
  escaped: string;
  /** Line breaks: written as `\n` (a one-line literal), or kept with `indent` after each (a multi-line one). */
  newline: 'escape' | 'keep';
  /** Written after each kept line break (a text block's or raw string's indentation). */
  indent?: string;
  /** Two-character sequences escaped by a backslash before their first (`${` in a template literal). */
  pairs?: string[];
}

/** Escapes `text` for a literal where a backslash starts an escape. */
export function backslashEscape(text: string, options: BackslashOptions): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') out += '\\\\';
    else if (c === '\n') out += options.newline === 'escape' ? '\\n' : `\n${options.indent ?? ''}`;
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (options.escaped.includes(c)) out += `\\${c}`;
    else if (options.pairs?.some((p) => p[0] === c && text[i + 1] === p[1])) out += `\\${c}`;
    else if (c.charCodeAt(0) < 0x20) out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return out;
}

/** Keeps line breaks of `text` with `indent` after each (a raw or verbatim multi-line literal). */
export function indentLines(text: string, indent: string): string {
  return indent ? text.replace(/\n/g, () => `\n${indent}`) : text;
}

/** A refusal, with the reason a user reads. */
export const refuse = (refused: string): { refused: string } => ({ refused });
