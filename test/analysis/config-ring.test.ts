// The optional `ring` key of .cqlint.json: a path relative to the config file.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFile, parseConfig } from '../../server/core/config';

describe('.cqlint.json ring', () => {
  test('resolved against the directory of the .cqlint.json', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cqlint-ring-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, '.cqlint.json');
    writeFileSync(file, JSON.stringify({ ring: 'ops/ring.txt' }));
    const { config, errors } = loadConfigFile(file);
    assert.deepEqual(errors, []);
    assert.equal(config?.ring, join(dir, 'ops', 'ring.txt'));
  });

  test('kept as written without a file; anything but a path is an error naming the key', () => {
    assert.equal(parseConfig({ ring: 'ring.json' }).config?.ring, 'ring.json');
    const { config, errors } = parseConfig({ ring: 3 });
    assert.equal(config?.ring, undefined);
    assert.deepEqual(
      errors.map((e) => e.key),
      ['ring'],
    );
    assert.match(errors[0]!.message, /ring: must be the path of a ring file/);
  });
});
