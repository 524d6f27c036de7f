// `--fix` for the CLI: fix-all passes until nothing is left, the project keeps the fixed text, and
// the file on disk is rewritten only when something changed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project } from '../../server/core/engine/project';
import { applyFixesToText, fixFile, isFixable } from '../../server/cli/fix';
const murmur = require('murmurhash3js-revisited') as { x86: { hash32(bytes: Uint8Array, seed?: number): number } };
const shardOf = (title: string): number => ((murmur.x86.hash32(Buffer.from(title, 'utf8')) >>> 0) % 16) + 1;

const SHARDED = `-- @shard shard = murmur3(title) % 16 + 1
CREATE TABLE ks.books (publish_date date, shard int, title text, author text, PRIMARY KEY ((publish_date, shard), title));
`;
const QUERIES = `INSERT INTO ks.books (publish_date, title, autor) VALUES ('2024-05-01', 'Dune', 'Frank Herbert');\r
SELECT autor FROM ks.books WHERE publish_date = '2024-05-01' AND shard = 3 AND title = 'Emma';\r
`;

describe('applyFixesToText', () => {
  test('applies every safe fix, leaves choices, and reaches a fixed point', () => {
    const project = new Project({ config: {} });
    project.setFile('/v/schema.cql', SHARDED);
    project.setFile('/v/queries.cql', QUERIES);
    const result = applyFixesToText(project, '/v/queries.cql');
    assert.equal(result.changed, true);
    assert.ok(
      result.output.includes(
        "INSERT INTO ks.books (publish_date, title, author, shard) VALUES ('2024-05-01', 'Dune', 'Frank Herbert', 12);\r\n",
      ),
      result.output,
    );
    assert.ok(result.output.includes('SELECT author FROM ks.books'), result.output);
    // The wrong literal shard (shard-mismatch) becomes the formula's value for 'Emma'.
    assert.ok(result.output.includes(`AND shard = ${shardOf('Emma')} AND title = 'Emma';\r\n`), result.output);
    assert.equal(project.getText('/v/queries.cql'), result.output, 'the project holds the fixed text');
    assert.deepEqual(
      result.findings.filter((f) => ['unknown-column', 'incomplete-key-write', 'shard-mismatch'].includes(f.ruleId)),
      [],
    );
    const again = applyFixesToText(project, '/v/queries.cql');
    assert.equal(again.changed, false);
    assert.equal(again.output, result.output);
  });

  test('isFixable tells which findings --fix would change', () => {
    const project = new Project({ config: {} });
    project.setFile('/v/schema.cql', SHARDED);
    project.setFile('/v/queries.cql', QUERIES);
    const fixable = project
      .lint('/v/queries.cql')
      .filter((f) => isFixable(project, '/v/queries.cql', f))
      .map((f) => f.ruleId)
      .sort();
    assert.deepEqual(fixable, ['incomplete-key-write', 'shard-mismatch', 'unknown-column', 'unknown-column']);
    assert.equal(
      project.lint('/v/schema.cql').some((f) => isFixable(project, '/v/schema.cql', f)),
      false,
    );
  });

  test('a file outside the project is an error, not a crash later', () => {
    assert.throws(() => applyFixesToText(new Project({ config: {} }), '/v/none.cql'), /not part of the project/);
  });
});

describe('fixFile', () => {
  test('writes the file only when it changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cqlint-fix-'));
    try {
      const file = join(dir, 'q.cql');
      const clean = join(dir, 'clean.cql');
      writeFileSync(file, `${SHARDED}SELECT autor FROM ks.books WHERE publish_date = ? AND shard = ? AND title = ?;\n`);
      writeFileSync(clean, 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\n');
      const cleanMtime = statSync(clean).mtimeMs;
      const project = new Project({ config: {} });
      project.setFile(file, readFileSync(file, 'utf8'));
      project.setFile(clean, readFileSync(clean, 'utf8'));
      const fixed = await fixFile(project, file);
      assert.equal(fixed.written, true);
      assert.ok(readFileSync(file, 'utf8').includes('SELECT author FROM ks.books'));
      const untouched = await fixFile(project, clean);
      assert.equal(untouched.written, false);
      assert.equal(statSync(clean).mtimeMs, cleanMtime);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
