// Same answer on every thread (issue 40): how deep a statement may nest is the grammar's limit (MAX_NESTING, a
// syntax error past it), not the stack of the thread that parses it. A statement nested 3,000 deep overflowed the
// main thread's stack (an internal error) and parsed clean in a lint worker, whose stack is larger: a project's
// verdict changed at its 1,000th file, where lint switches to workers. Here the deep and the wide inputs are parsed
// on the main thread and in workers with small stacks, and every answer must be the same.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { parseCql, parseTerm } from '../../grammar';
import { MAX_NESTING, TOO_DEEP_MESSAGE } from '../../grammar/syntax/base';
import { projectRoot } from '../helpers/corpus';

/** Statements nested `depth` levels deep, one per way to nest. */
function deep(depth: number): Record<string, string> {
  const repeat = (s: string, n = depth) => s.repeat(n);
  return {
    parentheses: `SELECT ${repeat('(')}1${repeat(')')} FROM t;`,
    lists: `INSERT INTO t (k, v) VALUES (1, ${repeat('[')}1${repeat(']')});`,
    maps: `INSERT INTO t (k, v) VALUES (1, ${repeat('{1: ')}1${repeat('}')});`,
    calls: `SELECT ${repeat('f(')}1${repeat(')')} FROM t;`,
    casts: `SELECT ${repeat('CAST(')}1${repeat(' AS int)')} FROM t;`,
    hints: `SELECT ${repeat('(int) ')}1 FROM t;`,
    types: `CREATE TABLE t (k int PRIMARY KEY, v ${repeat('frozen<')}int${repeat('>')});`,
    'a nested statement left open': `SELECT ${repeat('(')}1 FROM t WHERE`,
  };
}

/** Statements wide or long but not nested: chains of operators, minuses and fields, long lists. */
function wide(length: number): Record<string, string> {
  return {
    sum: `SELECT ${Array(length).fill('1').join(' + ')} FROM t;`,
    minuses: `SELECT ${'- '.repeat(length)}v FROM t;`,
    fields: `SELECT v${'.a'.repeat(length)} FROM t;`,
    'IN list': `SELECT * FROM t WHERE k IN (${Array(length).fill('1').join(', ')});`,
    values: `INSERT INTO t (k, v) VALUES (1, [${Array(length).fill("'x'").join(', ')}]);`,
  };
}

const INPUTS: Record<string, string> = {};
for (const depth of [MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1, 3000]) {
  for (const [name, text] of Object.entries(deep(depth))) INPUTS[`${name} ${depth} deep`] = text;
}
for (const [name, text] of Object.entries(wide(20_000))) INPUTS[`${name} of 20,000`] = text;

/**
 * What a thread makes of every input: the statements' kinds and the errors, and a digest of each whole result
 * computed without recursion (a 20,000-deep chain of operators is a 20,000-deep tree, which JSON.stringify and
 * postMessage would walk recursively).
 */
function answers(): Record<string, string> {
  const out: Record<string, string> = {};
  const describe = (result: ReturnType<typeof parseCql>) =>
    JSON.stringify({ kinds: result.statements.map((s) => s.kind), errors: result.errors, digest: digest(result) });
  for (const [name, text] of Object.entries(INPUTS)) {
    out[name] = describe(parseCql(text));
    // The incremental re-parse after an edit above the statement moves its tree (every range in it).
    const previous = parseCql(`SELECT a FROM t;\n${text}`);
    out[`${name}, moved by an edit above it`] = describe(parseCql(`SELECT ab FROM t;\n${text}`, { previous }));
  }
  return out;
}

/** A digest of a value's keys and primitives in depth-first order, with an explicit stack. */
function digest(value: unknown): string {
  let hash = 0;
  let count = 0;
  const mix = (s: string) => {
    for (let i = 0; i < s.length; i++) hash = (Math.imul(hash, 31) + s.charCodeAt(i)) | 0;
    count++;
  };
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') {
      mix(String(v));
      continue;
    }
    const keys = Object.keys(v);
    mix(Array.isArray(v) ? `[${keys.length}` : `{${keys.join(',')}`);
    for (let i = keys.length - 1; i >= 0; i--) stack.push((v as Record<string, unknown>)[keys[i]!]);
  }
  return `${count}:${hash}`;
}

/** `answers()` in a worker thread with a stack of `stackSizeMb`. */
function inWorker(stackSizeMb: number): Promise<Record<string, string>> {
  const script = `
    require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();
    const { parentPort } = require('node:worker_threads');
    parentPort.postMessage(require(${JSON.stringify(join(projectRoot, 'test', 'grammar', 'nesting.test.ts'))}).answers());
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, {
      eval: true,
      resourceLimits: { stackSizeMb },
      env: { ...process.env, CQLINT_NESTING_WORKER: '1' },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

export { answers };

if (!process.env.CQLINT_NESTING_WORKER) {
  describe('nesting: the same answer on every thread and stack size', () => {
    const main = answers();

    test(`past ${MAX_NESTING} levels a statement is a syntax error at the token that nests too deep, in every way to nest`, () => {
      for (const name of Object.keys(deep(0))) {
        for (const depth of [MAX_NESTING + 1, 3000]) {
          const text = INPUTS[`${name} ${depth} deep`]!;
          const result = parseCql(text);
          assert.deepEqual(
            result.errors.map((e) => e.message),
            [TOO_DEEP_MESSAGE],
            `${name} ${depth} deep`,
          );
          assert.deepEqual(
            result.statements.map((s) => s.kind),
            ['Invalid'],
            `${name} ${depth} deep`,
          );
        }
        // At the limit it is read as any statement is (the one left open is still an error, but not this one).
        if (name === 'a nested statement left open') continue;
        const atLimit = parseCql(INPUTS[`${name} ${MAX_NESTING} deep`]!);
        assert.deepEqual(atLimit.errors, [], `${name} ${MAX_NESTING} deep`);
      }
      // The error is at the value that nests one level too deep: inside the 65th parenthesis.
      const tooDeep = INPUTS[`parentheses ${MAX_NESTING + 1} deep`]!;
      assert.match(tooDeep.slice(parseCql(tooDeep).errors[0]!.range.start), /^1\)/);
    });

    test('a term or a type on its own has the same limit', () => {
      assert.deepEqual(
        parseTerm(`${'['.repeat(MAX_NESTING + 1)}1${']'.repeat(MAX_NESTING + 1)}`).errors.map((e) => e.message),
        [TOO_DEEP_MESSAGE],
      );
      assert.deepEqual(parseTerm(`${'['.repeat(MAX_NESTING)}1${']'.repeat(MAX_NESTING)}`).errors, []);
    });

    test('wide and long statements parse, however deep their trees, and move with an edit above them', () => {
      for (const name of Object.keys(wide(1))) {
        const text = INPUTS[`${name} of 20,000`]!;
        const result = parseCql(text);
        assert.deepEqual(result.errors, [], name);
        assert.equal(result.statements.length, 1, name);
        const previous = parseCql(`SELECT a FROM t;\n${text}`);
        const moved = parseCql(`SELECT ab FROM t;\n${text}`, { previous });
        assert.deepEqual(moved.errors, [], name);
        assert.equal(moved.statements[1]!.range.start, 'SELECT ab FROM t;\n'.length, name);
      }
    });

    for (const stackSizeMb of [0.5, 1, 8]) {
      test(`a worker with a ${stackSizeMb} MB stack answers as the main thread does`, async () => {
        assert.deepEqual(await inWorker(stackSizeMb), main);
      });
    }
  });
}
