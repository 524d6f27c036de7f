// Bounded work for editor features on large input. A feature walks a document statement by statement
// and spends from a budget before each one; once the budget is spent (or the caller's request was
// cancelled) it stops at that statement boundary and answers with what it has, and the caller can say
// where and why it stopped.

type StopReason = 'budget' | 'cancelled';

export class WorkBudget {
  /** Units spent so far (what a unit is, characters or tokens, is the feature's choice). */
  used = 0;
  /** Offset of the first statement not processed, once the work stopped. */
  stoppedAt?: number;
  reason?: StopReason;

  constructor(
    readonly limit: number,
    private readonly isCancelled: () => boolean = () => false,
  ) {}

  /** Spends `cost` for the work starting at `offset`; false (remembering where) when it must stop there. */
  spend(cost: number, offset: number): boolean {
    if (this.stoppedAt !== undefined) return false;
    if (this.isCancelled()) return this.stop(offset, 'cancelled');
    // The first piece of work always runs, so a budget never answers nothing for a non-empty input.
    if (this.used > 0 && this.used + cost > this.limit) return this.stop(offset, 'budget');
    this.used += cost;
    return true;
  }

  get stopped(): boolean {
    return this.stoppedAt !== undefined;
  }

  private stop(offset: number, reason: StopReason): false {
    this.stoppedAt = offset;
    this.reason = reason;
    return false;
  }
}

interface DenseStatement {
  /** Estimated tokens of the largest statement (an upper bound on what the lexer finds, roughly). */
  tokens: number;
  /** 1-based line where that statement starts. */
  line: number;
}

/**
 * The largest statement of a text, by estimated token count, without lexing or parsing it: a linear scan
 * that counts token starts and splits at semicolons outside quotes and comments. The parser's time and
 * memory grow with the tokens of a statement, so this tells, before parsing, whether a document holds a
 * statement too large to analyse (one SELECT of a million items takes the parser half a minute and
 * gigabytes). Over-estimates inside quoted text, which only makes it cautious.
 */
export function largestStatement(text: string): DenseStatement {
  let best: DenseStatement = { tokens: 0, line: 1 };
  let count = 0;
  let line = 1;
  let startLine = 1;
  let previousWasWord = false;
  let inBatch = false;
  const lastWords = ['', ''];
  const finish = (): void => {
    if (count > best.tokens) best = { tokens: count, line: startLine };
    count = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    // Quoted text and comments: skipped to their end (a ';' inside them ends nothing), one token each.
    let close: string | undefined;
    if (c === 39 /* ' */) close = "'";
    else if (c === 34 /* " */) close = '"';
    else if (c === 36 /* $ */ && text.charCodeAt(i + 1) === 36) close = '$$';
    else if ((c === 45 /* - */ && text.charCodeAt(i + 1) === 45) || (c === 47 /* / */ && text.charCodeAt(i + 1) === 47)) close = '\n';
    else if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) close = '*/';
    if (close !== undefined) {
      // Comments are not the parser's tokens; quoted text is one token.
      if (close !== '\n' && close !== '*/') {
        if (count === 0) startLine = line;
        count++;
      }
      const from = i + (close === '$$' || close === '*/' ? 2 : 1);
      const end = text.indexOf(close, from);
      const stop = end < 0 ? text.length : end + close.length - 1;
      for (let j = i + 1; j <= stop && j < text.length; j++) if (text.charCodeAt(j) === 10) line++;
      i = stop;
      previousWasWord = false;
      continue;
    }
    if (c === 59 /* ; */) {
      count++;
      // A batch is one statement for the parser: its inner statements' semicolons end nothing.
      if (!inBatch || (lastWords[0] === 'apply' && lastWords[1] === 'batch')) {
        finish();
        inBatch = false;
      }
      previousWasWord = false;
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      previousWasWord = false;
      continue;
    }
    if (count === 0) startLine = line;
    count++;
    previousWasWord = isWordChar(c);
    if (!previousWasWord) continue;
    let end = i + 1;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    // Only the words that open and close a batch matter.
    const word = end - i === 5 ? text.slice(i, end).toLowerCase() : '';
    if (count === 1 && word === 'begin') inBatch = true;
    lastWords[0] = lastWords[1];
    lastWords[1] = word;
    i = end - 1;
  }
  finish();
  return best;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}
