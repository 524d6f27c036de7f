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
