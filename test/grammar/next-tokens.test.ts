// The content assist walk of grammar/next-tokens.ts (what completion offers and syntax errors say was expected)
// answers as Chevrotain 11's computeContentAssist, which it replaces because Chevrotain 12 removed it: the same
// next tokens, in the same order, with the same rule and occurrence stacks, after every prefix of the corpus's
// statements. (Past Chevrotain 11 there is no computeContentAssist to compare with: the before/after snapshot,
// scripts/grammar-snapshot.ts, holds the answers then.)
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lexCql } from '../../grammar/lexer';
import { chunkTokens, isShellWord } from '../../grammar/chunks';
import { CqlParser } from '../../grammar/parser';
import { CONTENT_ASSIST_LOOKAHEAD } from '../../grammar/syntax/base';
import { nextTokenPaths } from '../../grammar/next-tokens';
import { corpusFiles, readText } from '../helpers/corpus';

describe('content assist', () => {
  test("the grammar walk answers as Chevrotain 11's computeContentAssist, after every prefix of the corpus's statements", () => {
    // Chevrotain's content assist prunes at the parser's lookahead.
    const reference = new CqlParser({ maxLookahead: CONTENT_ASSIST_LOOKAHEAD });
    const describe = (
      paths: {
        nextTokenType: { name: string };
        nextTokenOccurrence: number;
        ruleStack: string[];
        occurrenceStack: number[];
      }[],
    ) =>
      paths.map(
        (p) =>
          `${p.nextTokenType.name}#${p.nextTokenOccurrence} ${p.ruleStack.join('>')} ${p.occurrenceStack.join(',')}`,
      );
    let prefixes = 0;
    let paths = 0;
    for (const file of ['cassandra-docs', 'killrvideo', 'dialects', 'cassandra-docs-broken'].flatMap((f) =>
      corpusFiles(f),
    )) {
      const { tokens } = lexCql(readText(file));
      for (const [start, end] of chunkTokens(tokens)) {
        if (isShellWord(tokens[start]!)) continue;
        for (let cut = start; cut <= Math.min(end, start + 40); cut++) {
          const prefix = tokens.slice(start, cut);
          const ours = describe(nextTokenPaths('cqlStatement', prefix));
          assert.deepEqual(
            ours,
            describe(reference.computeContentAssist('cqlStatement', prefix)),
            prefix.map((t) => t.image).join(' '),
          );
          prefixes++;
          paths += ours.length;
        }
      }
    }
    assert.ok(prefixes > 10_000 && paths > prefixes, `${prefixes} prefixes, ${paths} paths`);
  });
});
