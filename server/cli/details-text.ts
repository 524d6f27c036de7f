// A finding's details (markdown) as plain text lines: what stylish output prints under a headline and the
// github format puts in an annotation.
import { wrapWords } from './options';

/** What detailsLines reads of markdown: a code span, a backslash escape, a link. */
const MARKDOWN_INLINE = /(`+)(.+?)\1|\\([\\`*_{}[\]()#+\-.!<>|&])|\[((?:\\.|[^\]\\])+)\]\(([^)\s]+)\)/g;

/**
 * A finding's details (markdown) as terminal lines of at most `width`: links as `text (url)`, code spans
 * without their backticks, backslash escapes as the characters they escape (a name in the details is
 * escaped markdown: core/util/markdown.ts), paragraphs and list items kept, each wrapped. One pass, so that an
 * escaped bracket never starts a link.
 */
export function detailsLines(details: string, width: number): string[] {
  const plain = details.replace(
    MARKDOWN_INLINE,
    (whole, _fence: string, code?: string, escaped?: string, text?: string, url?: string) => {
      if (code !== undefined) return code.trim();
      if (escaped !== undefined) return escaped;
      const shown = text!.replace(/\\(.)/g, '$1');
      return shown === url ? url! : `${shown} (${url})`;
    },
  );
  const lines: string[] = [];
  for (const paragraph of plain.split(/\n\s*\n/)) {
    // A list item starts a line of its own and hangs under its text.
    for (const block of paragraph.split(/\n(?=\s*[-*] )/)) {
      const item = /^\s*[-*] /.exec(block);
      const words = wrapWords(item ? block.slice(item[0].length) : block, width - (item ? 2 : 0));
      words.forEach((line, i) => lines.push(item ? `${i === 0 ? '- ' : '  '}${line}` : line));
    }
  }
  return lines;
}
