// Text from the user's files (names, literals, formulas, ring node names) inside markdown: hovers, inlay
// hint tooltips. A quoted CQL name may hold backticks, pipes, brackets or line breaks; put raw into
// markdown it would end a code span, split a table row or start a link or an image. Every piece of
// user text goes into markdown through one of these.

/** `text` as an inline code span that shows it verbatim, whatever backticks it holds, on one line. */
export function inlineCode(text: string): string {
  // A blank line would end the paragraph (and the span): line breaks show as spaces.
  const flat = text.replace(/\r\n|\r|\n/g, ' ');
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space on each side of a span, and a backtick at an end must be kept off the fence.
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * `text` as plain markdown text on one line, after other text: the characters that could start code, a
 * link or an image (`[`), HTML or an entity, or end a table cell are backslash-escaped. Emphasis marks are
 * left alone: names are full of underscores, and at worst they change the style of a few words.
 */
export function markdownText(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ').replace(/[\\`[\]<>|&]/g, (c) => `\\${c}`);
}

/** A table cell: a pipe, even inside a code span, would end the cell (GFM), so it is escaped. */
export function tableCell(markdown: string): string {
  return markdown.replace(/\|/g, '\\|');
}

/** A character markdownProse changes: one markdownText escapes, or a carriage return. */
const PROSE_CHANGES = /[\\`[\]<>|&\r]/;

/**
 * Plain text (a sentence with the user's names in it) as markdown that shows it as written: each line
 * through markdownText, line breaks kept (paragraphs and list items stay as they are).
 */
export function markdownProse(text: string): string {
  // Most details hold nothing to escape: the text as it is, without a split and a join of every line.
  if (!PROSE_CHANGES.test(text)) return text;
  return text
    .split('\n')
    .map((line) => markdownText(line.replace(/\r$/, '')))
    .join('\n');
}

/** Markdown a piece of code builds on purpose (code spans, links): made by `md`, its interpolated values escaped. */
export class Markdown {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/**
 * md`text ${value}`: the literal parts are markdown as written; every interpolated string is the user's
 * text, escaped (markdownProse); a Markdown value (another md``) goes in as it is; numbers as written.
 * The one way a finding's details carry markdown of their own (a rule's plain-string details are escaped
 * whole: rules/messages.ts findingOf).
 */
export function md(strings: TemplateStringsArray, ...values: readonly (string | number | Markdown)[]): Markdown {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out +=
      (value instanceof Markdown ? value.text : typeof value === 'number' ? String(value) : markdownProse(value)) +
      strings[i + 1]!;
  });
  return new Markdown(out);
}

/** `text` as an inline code span (inlineCode), to interpolate into md``. */
export function codeSpan(text: string): Markdown {
  return new Markdown(inlineCode(text));
}
