// Folding ranges: statements that span lines, batches, column and value lists, multi-line map and
// collection literals, block comments and runs of line comments. Lines are 0-based (LSP).
import type { ParseResult, SourceRange } from '../../../grammar/ast';
import { LineIndex } from '../../../grammar/line-index';
import { clauseRanges, walk } from '../util/ast-walk';
import type { WorkBudget } from '../util/budget';

export interface FoldingRange {
  startLine: number;
  endLine: number;
  kind?: 'comment' | 'region';
}

/** 0-based first and last line of a range (an end at column 1 belongs to the previous line). */
function linesOf(index: LineIndex, range: SourceRange): [number, number] {
  const start = index.lineAt(range.start);
  let end = index.lineAt(range.end);
  if (index.lineStarts[end] === range.end && end > start) end--;
  return [start, end];
}

/** Folding ranges of a file; a `budget` (characters of statement text) stops at the statement where it runs out. */
export function foldingRanges(text: string, parse: ParseResult, budget?: WorkBudget): FoldingRange[] {
  const out: FoldingRange[] = [];
  const index = new LineIndex(text);
  const lines = (range: SourceRange): [number, number] => linesOf(index, range);
  const addBlock = (range: SourceRange, keepLastLine: boolean): void => {
    const [start, end] = lines(range);
    // A bracketed list keeps its closing line visible: `(` ... fold ... `)`.
    const last = keepLastLine ? end - 1 : end;
    if (last > start) out.push({ startLine: start, endLine: last });
  };

  for (const statement of parse.statements) {
    if (budget && !budget.spend(statement.range.end - statement.range.start, statement.range.start)) break;
    addBlock(statement.range, false);
    walk(statement, (node) => {
      if (node !== statement && (node.kind === 'Insert' || node.kind === 'Update' || node.kind === 'Delete'))
        addBlock(node.range, false);
      if (
        node.kind === 'MapLiteral' ||
        node.kind === 'SetLiteral' ||
        node.kind === 'ListLiteral' ||
        node.kind === 'UdtLiteral'
      )
        addBlock(node.range, true);
      for (const range of clauseRanges(node)) {
        const key = Object.entries(node).find(([, v]) => v === range)?.[0];
        if (key === 'bodyRange' || key === 'columnsRange' || key === 'valuesRange') addBlock(range, true);
      }
    });
  }

  // Comments: block comments over several lines, and runs of whole-line line comments.
  let run: [number, number] | undefined;
  const flush = (): void => {
    if (run && run[1] > run[0]) out.push({ startLine: run[0], endLine: run[1], kind: 'comment' });
    run = undefined;
  };
  for (const comment of parse.comments) {
    if (comment.style === 'block') {
      flush();
      const [start, end] = lines(comment.range);
      if (end > start) out.push({ startLine: start, endLine: end, kind: 'comment' });
      continue;
    }
    const line = index.lineAt(comment.range.start);
    const lineStart = index.lineStarts[line]!;
    const wholeLine = text.slice(lineStart, comment.range.start).trim() === '';
    if (!wholeLine) {
      flush();
      continue;
    }
    if (run && run[1] === line - 1) run[1] = line;
    else {
      flush();
      run = [line, line];
    }
  }
  flush();

  // One range per start line (editors keep only one): the longest.
  const byStart = new Map<number, FoldingRange>();
  for (const range of out) {
    const existing = byStart.get(range.startLine);
    if (!existing || range.endLine > existing.endLine) byStart.set(range.startLine, range);
  }
  return [...byStart.values()].sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}
