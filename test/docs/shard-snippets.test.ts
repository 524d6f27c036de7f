// The shard-formula snippets of docs/shard-formula.md compute cqlint's shard: Node and Python here (Java and
// Go in CI with Debian's toolchains, `npm run test:snippets`; see shard-snippets.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { disagreements, snippet, vectors } from './shard-snippets';

describe('docs/shard-formula.md snippets', () => {
  test('the test values cover every tail length, multi-byte text and hashes read signed would get wrong', () => {
    const all = vectors();
    assert.ok(
      all.some((v) => v.hash >= 2 ** 31 && v.n > 1 && (v.hash | 0) % v.n !== v.hash % v.n),
      'a hash above 2^31 where a signed remainder differs',
    );
    for (let tail = 0; tail < 4; tail++)
      assert.ok(
        all.some((v) => Buffer.byteLength(v.value) % 4 === tail && v.value.length > 4),
        `tail length ${tail}`,
      );
    assert.ok(all.some((v) => /[^\u0000-\u007f]/.test(v.value)));
    assert.ok(all.some((v) => v.value === ''));
  });

  for (const language of ['js', 'python'] as const) {
    test(`${language}: gives cqlint's shard for every test value`, () => {
      assert.deepEqual(disagreements(language), []);
    });
  }

  test('a snippet that reads the hash signed is caught', () => {
    const signed = snippet('js').replace('return h >>> 0; // unsigned', 'return h | 0;');
    assert.notEqual(signed, snippet('js'));
    const all = vectors();
    const { shards } = (() => {
      const vm = require('node:vm') as typeof import('node:vm');
      const context = { Buffer, out: [] as number[] };
      vm.runInNewContext(
        `${signed}\nfor (const v of vectors) out.push(shard(v.value, v.n, v.offset));`,
        Object.assign(context, { vectors: all }),
      );
      return { shards: context.out };
    })();
    assert.ok(shards.some((s, i) => s !== all[i]!.shard));
  });
});
