// What may come after a statement's first tokens, by walking the grammar's productions (Chevrotain's GAST, its
// public API) over those tokens: the syntactic content assist that completion and the syntax errors' "expected
// ..." lists are made of. Chevrotain 11 offers it as `computeContentAssist`, removed in Chevrotain 12; this is
// the same walk, so that the grammar depends on nothing an upgrade takes away.
//
// The walk is depth first, through every way the productions can read the tokens. Once one way has reached the
// last token, an alternative that left the tokens more than CONTENT_ASSIST_LOOKAHEAD tokens before the end is not
// explored: the parser would have decided against it by then (LL(k) with that lookahead).
import * as Chevrotain from './chevrotain';
import type { IToken, TokenType } from './chevrotain';
import { CONTENT_ASSIST_LOOKAHEAD } from './syntax/base';
import { getParser } from './parser';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const {
  Alternation,
  Alternative,
  NonTerminal,
  Option,
  Repetition,
  RepetitionMandatory,
  RepetitionMandatoryWithSeparator,
  RepetitionWithSeparator,
  Rule,
  Terminal,
  tokenMatcher,
} = Chevrotain;

type Production = InstanceType<typeof Terminal> | { accept(visitor: unknown): void };

/** One way the next token may come: its type, and the rules (and their occurrences) that would read it. */
export interface NextTokenPath {
  nextTokenType: TokenType;
  nextTokenOccurrence: number;
  ruleStack: string[];
  occurrenceStack: number[];
}

/** In a path's remaining productions: the end of the rule entered last (its rule and occurrence are dropped). */
const END_OF_RULE = { endOfRule: true };
/** On the stack of paths: the alternative above this mark has been explored; the one below is next. */
const NEXT_ALTERNATIVE = { nextAlternative: true };
/** The rest of a repetition after its first iteration: none or more further iterations. */
interface MoreIterations {
  moreOf: Production[];
  separator: TokenType | undefined;
}

type Step = Production | typeof END_OF_RULE | MoreIterations;

interface Path {
  /** The index of the last token read (-1: none). */
  idx: number;
  /** What the path still has to read, in order. */
  rest: Step[];
  ruleStack: string[];
  occurrenceStack: number[];
}

function definitionOf(p: Production): Production[] {
  return (p as unknown as { definition: Production[] }).definition;
}

/**
 * The ways the token after `tokens` may come, reading `tokens` from `startRule` (a rule name of the grammar); none
 * when `tokens` cannot start `startRule`. Callers cache the answers (errors.ts).
 */
export function nextTokenPaths(startRule: string, tokens: readonly IToken[]): NextTokenPath[] {
  const rule = getParser().getGAstProductions()[startRule];
  if (!rule) throw new Error(`no rule ${startRule}`);
  const last = tokens.length - 1;
  /** Alternatives that left the tokens at or before this index are not explored once a way reached the end. */
  const decidedBefore = tokens.length - CONTENT_ASSIST_LOOKAHEAD - 1;
  const result: NextTokenPath[] = [];
  let reachedEnd = false;
  const stack: (Path | typeof NEXT_ALTERNATIVE)[] = [{ idx: -1, rest: [rule], ruleStack: [], occurrenceStack: [] }];
  const push = (from: Path, idx: number, rest: Step[]) =>
    stack.push({ idx, rest, ruleStack: from.ruleStack, occurrenceStack: from.occurrenceStack });

  while (stack.length) {
    const popped = stack.pop()!;
    if (popped === NEXT_ALTERNATIVE) {
      const next = stack[stack.length - 1];
      if (reachedEnd && next && next !== NEXT_ALTERNATIVE && (next as Path).idx <= decidedBefore) stack.pop();
      continue;
    }
    const path = popped as Path;
    if (path.rest.length === 0) continue;
    const [head, ...tail] = path.rest;
    if (head === END_OF_RULE) {
      stack.push({
        idx: path.idx,
        rest: tail,
        ruleStack: path.ruleStack.slice(0, -1),
        occurrenceStack: path.occurrenceStack.slice(0, -1),
      });
    } else if ('moreOf' in head) {
      // None, or one more iteration (its separator first) and the rest of the repetition again.
      const iteration: Step[] = head.separator
        ? [new Terminal({ terminalType: head.separator }), ...head.moreOf]
        : head.moreOf;
      push(path, path.idx, tail);
      stack.push(NEXT_ALTERNATIVE);
      push(path, path.idx, [...iteration, head, ...tail]);
    } else if (head instanceof Terminal) {
      if (path.idx < last) {
        if (tokenMatcher(tokens[path.idx + 1]!, head.terminalType)) push(path, path.idx + 1, tail);
      } else {
        result.push({
          nextTokenType: head.terminalType,
          nextTokenOccurrence: head.idx,
          ruleStack: path.ruleStack,
          occurrenceStack: path.occurrenceStack,
        });
        reachedEnd = true;
      }
    } else if (head instanceof NonTerminal) {
      stack.push({
        idx: path.idx,
        rest: [...head.definition, END_OF_RULE, ...tail],
        ruleStack: [...path.ruleStack, head.nonTerminalName],
        occurrenceStack: [...path.occurrenceStack, head.idx],
      });
    } else if (head instanceof Option || head instanceof Repetition || head instanceof RepetitionWithSeparator) {
      // Without it, then (explored first) with it: a repetition's iterations go on as MoreIterations.
      const more: Step[] =
        head instanceof Option
          ? []
          : [
              {
                moreOf: definitionOf(head),
                separator: head instanceof RepetitionWithSeparator ? head.separator : undefined,
              },
            ];
      push(path, path.idx, tail);
      stack.push(NEXT_ALTERNATIVE);
      push(path, path.idx, [...definitionOf(head), ...more, ...tail]);
    } else if (head instanceof RepetitionMandatory || head instanceof RepetitionMandatoryWithSeparator) {
      push(path, path.idx, [
        ...definitionOf(head),
        {
          moreOf: definitionOf(head),
          separator: head instanceof RepetitionMandatoryWithSeparator ? head.separator : undefined,
        },
        ...tail,
      ]);
    } else if (head instanceof Alternation) {
      // The first alternative is explored first.
      const alternatives = head.definition as Production[];
      for (let i = alternatives.length - 1; i >= 0; i--) {
        push(path, path.idx, [...definitionOf(alternatives[i]!), ...tail]);
        stack.push(NEXT_ALTERNATIVE);
      }
    } else if (head instanceof Alternative) {
      push(path, path.idx, [...definitionOf(head), ...tail]);
    } else if (head instanceof Rule) {
      stack.push({
        idx: path.idx,
        rest: [...head.definition],
        ruleStack: [...path.ruleStack, head.name],
        occurrenceStack: [...path.occurrenceStack, 1],
      });
    } else {
      throw new Error('a production the content assist walk does not know');
    }
  }
  return result;
}
