// The shared parser skips Chevrotain's grammar validations to start fast; this builds one with them on, so a
// grammar change that adds an ambiguity, a left recursion or a duplicate occurrence index still fails here
// (performSelfAnalysis throws "Parser Definition Errors detected" with the list).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CqlParser } from '../../grammar/parser';
import { lexCql } from '../../grammar/lexer';

describe('grammar validation', () => {
  test("the grammar passes all of Chevrotain's validations", () => {
    let parser: CqlParser | undefined;
    assert.doesNotThrow(() => {
      parser = new CqlParser({ validate: true });
    });
    // The validated parser is a working parser.
    parser!.input = lexCql('SELECT a, (int) 1, cast(b AS text), ks.f(c) FROM t WHERE d IN (1, 2);').tokens;
    assert.ok(parser!.cqlStatement());
    assert.deepEqual(parser!.errors, []);
  });
});
