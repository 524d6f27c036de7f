// .cqlint.json `evidence`: the forms it takes, paths relative to the config, and a message naming the key
// for each thing it cannot use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../server/core/config';

test('evidence: a path, a list of paths and objects, relative to the .cqlint.json', () => {
  const one = parseConfig({ evidence: 'ops/evidence' }, '/repo/.cqlint.json');
  assert.deepEqual(one.errors, []);
  assert.deepEqual(one.config?.evidence, [{ path: '/repo/ops/evidence', name: 'ops/evidence', configFolder: '/repo' }]);
  const many = parseConfig(
    {
      evidence: [
        'a.txt',
        { path: 'top.txt', node: '10.0.0.3', captured: '2026-11-20', table: 'shop.carts', duration: '60s' },
        { path: 'b.txt', duration: 30 },
      ],
    },
    '/repo/.cqlint.json',
  );
  assert.deepEqual(many.errors, []);
  assert.deepEqual(
    many.config?.evidence?.map((e) => [e.path, e.node, e.captured, e.table, e.durationSeconds]),
    [
      ['/repo/a.txt', undefined, undefined, undefined, undefined],
      ['/repo/top.txt', '10.0.0.3', '2026-11-20', 'shop.carts', 60],
      ['/repo/b.txt', undefined, undefined, undefined, 30],
    ],
  );
});

test('evidence: each unusable value is named by its key, the rest still applies', () => {
  const { config, errors } = parseConfig({
    evidence: [
      'ok.txt',
      42,
      { node: 'x' },
      {
        path: 'p.txt',
        captured: 'last tuesday',
        table: 'carts',
        duration: 'a while',
        unconfined: true,
        configFolder: '/',
      },
    ],
  });
  assert.deepEqual(
    errors.map((e) => e.key),
    [
      'evidence[1]',
      'evidence[2]',
      'evidence[3].unconfined',
      'evidence[3].configFolder',
      'evidence[3].table',
      'evidence[3].captured',
      'evidence[3].duration',
    ],
  );
  assert.match(errors.find((e) => e.key === 'evidence[3].captured')!.message, /must be a date like "2026-11-20"/);
  assert.match(errors.find((e) => e.key === 'evidence[3].table')!.message, /must be "keyspace\.table"/);
  // A workspace cannot declare its evidence unconfined: the key is refused and not set.
  assert.deepEqual(
    config?.evidence?.map((e) => [e.name, e.unconfined, e.table, e.captured]),
    [
      ['ok.txt', undefined, undefined, undefined],
      ['p.txt', undefined, undefined, undefined],
    ],
  );
  assert.match(
    parseConfig({ evidence: { path: 'x' } }).errors[0]!.message,
    /^evidence: must be a file or folder, or a list of them/,
  );
});
