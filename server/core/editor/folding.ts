// Folding ranges: statements that span lines, batches, column and value lists, multi-line map and
// collection literals, block comments and runs of line comments. Lines are 0-based (LSP).
import type { ParseResult, SourceRange } from '../../../grammar/ast';
import { clauseRanges, walk } from '../util/ast-walk';
import type { WorkBudget } from '../budget';

export interface FoldingRange {
  startLine: number;
  endLine: number;
  kind?: 'comment' | 'region';
}

/** 0-based first and last line of a range (an end at column 1 belongs to the previous line). */
function lines(range: SourceRange): [number, number] {
  const start = range.start.line - 1;
  let end = range.end.line - 1;
  if (range.end.column === 1 && end > start) end--;
  return [start, end];
}

/** Folding ranges of a file; a `budget` (characters of statement text) stops at the statement where it runs out. */
export function foldingRanges(text: string, parse: ParseResult, budget?: WorkBudget): FoldingRange[] {
  const out: FoldingRange[] = [];
  const addBlock = (range: SourceRange, keepLastLine: boolean): void => {
    const [start, end] = lines(range);
    // A bracketed list keeps its closing line visible: `(` ... fold ... `)`.
    const last = keepLastLine ? end - 1 : end;
    if (last > start) out.push({ startLine: start, endLine: last });
  };

  for (const statement of parse.statements) {
    if (budget && !budget.spend(statement.range.end.offset - statement.range.start.offset, statement.range.start.offset)) break;
    addBlock(statement.range, false);
    walk(statement, (node) => {
      if (node !== statement && (node.kind === 'Insert' || node.kind === 'Update' || node.kind === 'Delete')) addBlock(node.range, false);
      if (node.kind === 'MapLiteral' || node.kind === 'SetLiteral' || node.kind === 'ListLiteral' || node.kind === 'UdtLiteral') addBlock(node.range, true);
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
    const line = comment.range.start.line - 1;
    const lineStart = comment.range.start.offset - (comment.range.start.column - 1);
    const wholeLine = text.slice(lineStart, comment.range.start.offset).trim() === '';
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
