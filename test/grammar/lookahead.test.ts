// A parse decides with one token of lookahead, and each rule says where it needs more (`MAX_LOOKAHEAD`): a failed
// decision then costs Chevrotain little to describe (grammar/syntax/base.ts, CONTENT_ASSIST_LOOKAHEAD). This checks
// that no decision is cut short by it: each one is built with as many tokens as LL(4) would use to tell its
// alternatives apart (Chevrotain's own lookahead paths, compared through its public API). A grammar change that
// needs more lookahead somewhere fails here with the place and the lookahead to give it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LLkLookaheadStrategy, getLookaheadPaths } from '../../grammar/chevrotain';
import { CqlParser } from '../../grammar/parser';
import { CONTENT_ASSIST_LOOKAHEAD } from '../../grammar/syntax/base';

/** As far as the parse looked before (one parser, maxLookahead 4), and as far as content assist still looks. */
const FULL = CONTENT_ASSIST_LOOKAHEAD;

/**
 * Decisions built with less on purpose: `operand` tells names, calls, casts, hints and tuples apart with one token
 * and its gates (grammar/syntax/expressions.ts); LL(4) analysis of it alone took over a second.
 */
const BY_DESIGN = new Set(['operand Alternation 0']);

type Rule = Parameters<typeof getLookaheadPaths>[0]['rule'];
type ProdType = Parameters<typeof getLookaheadPaths>[0]['prodType'];
interface Decision {
  rule: Rule;
  prodType: ProdType;
  occurrence: number;
  maxLookahead: number;
}

/** Chevrotain's LL(k) strategy, recording what each decision is built with. */
class RecordingStrategy extends LLkLookaheadStrategy {
  readonly decisions: Decision[] = [];

  override buildLookaheadForAlternation(
    options: Parameters<InstanceType<typeof LLkLookaheadStrategy>['buildLookaheadForAlternation']>[0],
  ) {
    this.decisions.push({
      rule: options.rule,
      prodType: 'Alternation',
      occurrence: options.prodOccurrence,
      maxLookahead: options.maxLookahead,
    });
    return super.buildLookaheadForAlternation(options);
  }

  override buildLookaheadForOptional(
    options: Parameters<InstanceType<typeof LLkLookaheadStrategy>['buildLookaheadForOptional']>[0],
  ) {
    this.decisions.push({
      rule: options.rule,
      prodType: options.prodType,
      occurrence: options.prodOccurrence,
      maxLookahead: options.maxLookahead,
    });
    return super.buildLookaheadForOptional(options);
  }
}

function paths(d: Decision, maxLookahead: number): string {
  const sequences = getLookaheadPaths({ occurrence: d.occurrence, rule: d.rule, prodType: d.prodType, maxLookahead });
  return JSON.stringify(sequences.map((alternative) => alternative.map((path) => path.map((t) => t.name))));
}

describe('lookahead', () => {
  test(`every decision is built with as much lookahead as LL(${FULL}) gives it`, () => {
    const strategy = new RecordingStrategy();
    new CqlParser({ lookaheadStrategy: strategy });
    assert.ok(strategy.decisions.length > 150, `${strategy.decisions.length} decisions`);
    const short: string[] = [];
    let more = 0;
    for (const d of strategy.decisions) {
      const place = `${d.rule.name} ${d.prodType} ${d.occurrence}`;
      if (d.maxLookahead > 1) more++;
      if (BY_DESIGN.has(place) || d.maxLookahead >= FULL) continue;
      const full = paths(d, FULL);
      if (paths(d, d.maxLookahead) === full) continue;
      let needed = d.maxLookahead + 1;
      while (needed < FULL && paths(d, needed) !== full) needed++;
      short.push(`${place}: built with ${d.maxLookahead} token(s) of lookahead, needs MAX_LOOKAHEAD: ${needed}`);
    }
    assert.deepEqual(short, []);
    // The parse decides with one token almost everywhere: a few decisions say they need more.
    assert.ok(more > 0 && more < 30, `${more} decisions look further than one token`);
  });
});
