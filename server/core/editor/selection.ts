// Selection ranges (expand selection): token -> expression -> clause -> statement -> whole file.
// Built from every AST node range and clause range (`whereRange`, `bodyRange`, ...) around the cursor.
import type { ParseResult, SourceRange } from '../../../grammar/ast';
import { clauseRanges, statementAt, walk } from '../util/ast-walk';

/** Innermost first; each span contains the previous one and is strictly larger. */
export function selectionChain(text: string, parse: ParseResult, offset: number): SourceRange[] {
  const spans: SourceRange[] = [];
  const word = wordAt(text, offset);
  if (word) spans.push(word);
  const statement = statementAt(parse, offset);
  if (statement) {
    walk(statement, (node) => {
      const candidates = [node.range, ...clauseRanges(node)];
      for (const r of candidates) {
        if (r.start <= offset && offset <= r.end) spans.push(r);
      }
    });
  } else {
    const comment = parse.comments.find((c) => c.range.start <= offset && offset <= c.range.end);
    if (comment) spans.push(comment.range);
  }
  spans.push({ start: 0, end: text.length });
  spans.sort((a, b) => a.end - a.start - (b.end - b.start) || b.start - a.start);
  const chain: SourceRange[] = [];
  for (const span of spans) {
    const last = chain[chain.length - 1];
    if (!last) {
      chain.push(span);
      continue;
    }
    const contains = span.start <= last.start && last.end <= span.end;
    const larger = span.end - span.start > last.end - last.start;
    if (contains && larger) chain.push(span);
  }
  return chain;
}

/** The word, quoted name or string literal under the cursor. */
function wordAt(text: string, offset: number): SourceRange | undefined {
  const isWord = (ch: string | undefined): boolean => ch !== undefined && /[A-Za-z0-9_]/.test(ch);
  let start = offset;
  let end = offset;
  while (start > 0 && isWord(text[start - 1])) start--;
  while (end < text.length && isWord(text[end])) end++;
  return end > start ? { start, end } : undefined;
}
