// A partition fix on a table a migration created (docs/migrations.md, issue 38 item 3), through the real CLI on
// a copy of test/fixtures/migrations/fix-*/before: `cqlint fix` creates exactly the folder's next migration
// (after/ holds every file the fix writes, exactly) and edits no migration; linting the fixed folder again finds
// the copy cured and no migration-safety finding in the new file; --dry-run shows the new file as a diff from
// /dev/null and writes nothing; a file already at the new name stops the fix (exit 2, nothing changed).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, type JsonResult } from '../cli/helpers';
import { projectRoot } from '../helpers/corpus';
import { filesBelow } from '../fixes/workspace';
import { MIGRATION_RULES } from './rules';

const FIXTURES = join(projectRoot, 'test', 'fixtures', 'migrations');

const CASES = [
  {
    name: 'fix-cassandra-migrate',
    rule: 'unbounded-partition',
    created: 'migrations/v003_events_by_minute.cql',
    copy: 'shop.events_by_minute',
    leftInMigrations: ['migrations/v002_events_note.cql:3'],
  },
  {
    name: 'fix-flyway',
    rule: 'hot-partition',
    created: 'db/migration/V3__invoices_by_day_sharded.cql',
    copy: 'billing.invoices_by_day_sharded',
    leftInMigrations: [],
  },
];

/** A copy of a fixture's before/ in a temporary folder. */
function workspace(name: string) {
  const dir = tempDir();
  cpSync(join(FIXTURES, name, 'before'), dir.dir, { recursive: true });
  return dir;
}

describe('a partition fix in a migration folder creates the next migration', () => {
  for (const c of CASES) {
    test(`${c.name}: cqlint fix writes ${c.created}, edits no migration, and the lint again finds the copy cured`, async () => {
      const before = filesBelow(join(FIXTURES, c.name, 'before'));
      const expected = filesBelow(join(FIXTURES, c.name, 'after'));
      const dir = workspace(c.name);
      try {
        const run = await runCli(['fix', '.'], { cwd: dir.dir });
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, new RegExp(`created ${c.created.replace(/\./g, '\\.')}\\n`));
        // The statements of applied migrations are listed under their own heading, not as the application's.
        const [, toApplication = '', inMigrations = ''] =
          /^ {2}left to the application[^\n]*\n((?: {4}.*\n)*)(?: {2}left in applied migrations:\n((?: {4}.*\n)*))?/m.exec(
            run.stdout,
          ) ?? [];
        assert.doesNotMatch(toApplication, /applied migration/);
        assert.deepEqual(
          inMigrations
            .split('\n')
            .filter(Boolean)
            .map((line) => /^ {4}(\S+): left on /.exec(line)?.[1] ?? line),
          c.leftInMigrations,
        );

        const now = filesBelow(dir.dir);
        // Exactly the files of before/ and the new migration; each as after/ has it, or unchanged.
        assert.deepEqual([...now.keys()].sort(), [...new Set([...before.keys(), c.created])].sort());
        assert.ok(expected.has(c.created) && !before.has(c.created), 'after/ holds the new migration');
        for (const [rel, text] of now) assert.equal(text, expected.get(rel) ?? before.get(rel), rel);
        for (const rel of before.keys())
          if (/migration/.test(rel)) assert.equal(now.get(rel), before.get(rel), `${rel} is an applied migration`);

        const lint = await runCli(['lint', '--format', 'json', '.'], { cwd: dir.dir });
        const results = JSON.parse(lint.stdout) as JsonResult[];
        const found = results.flatMap((r) =>
          r.messages.map((m) => ({ file: r.filePath.slice(dir.dir.length + 1), ...m })),
        );
        const inNew = found.filter((f) => f.file === c.created);
        assert.deepEqual(
          inNew.filter((f) => MIGRATION_RULES.includes(f.ruleId) || f.ruleId === c.rule || f.severity === 2),
          [],
          'the new migration draws no migration-safety finding, and its table no finding of the rule fixed',
        );
        assert.ok(
          !found.some((f) => f.ruleId === c.rule && f.message.includes(c.copy)),
          `no ${c.rule} finding on ${c.copy}`,
        );
        // The old table is still on the cluster until a later migration drops it: its finding stays (docs/migrations.md).
        assert.equal(found.filter((f) => f.ruleId === c.rule).length, 1);
      } finally {
        dir.cleanup();
      }
    });
  }

  test('--dry-run shows the new migration as a diff from /dev/null, and writes nothing', async () => {
    const dir = workspace('fix-cassandra-migrate');
    try {
      const run = await runCli(['fix', '--dry-run', '.'], { cwd: dir.dir });
      assert.equal(run.code, 0, run.stderr);
      const text = readFileSync(join(FIXTURES, 'fix-cassandra-migrate', 'after', CASES[0]!.created), 'utf8');
      const lines = text.split('\n').slice(0, -1);
      assert.ok(
        run.stdout.includes(
          `--- /dev/null\n+++ b/${CASES[0]!.created}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}\n`).join('')}`,
        ),
        run.stdout,
      );
      assert.match(run.stdout, /^--- a\/queries\.cql\n\+\+\+ b\/queries\.cql$/m);
      assert.ok(!existsSync(dir.path(CASES[0]!.created)));
      assert.deepEqual(filesBelow(dir.dir), filesBelow(join(FIXTURES, 'fix-cassandra-migrate', 'before')));
    } finally {
      dir.cleanup();
    }
  });

  test('a file at the new migration name stops the fix: exit 2, nothing written', async () => {
    const dir = workspace('fix-cassandra-migrate');
    try {
      // Not a .cql file the inputs hold (that would be the folder's next migration itself): a stray file on disk.
      const created = CASES[0]!.created;
      dir.write(created, 'mine\n');
      const run = await runCli(
        ['fix', 'queries.cql', 'migrations/v001_create.cql', 'migrations/v002_events_note.cql'],
        {
          cwd: dir.dir,
        },
      );
      assert.equal(run.code, 2);
      assert.match(
        run.stderr,
        /v003_events_by_minute\.cql exists already, and the fix creates it .*nothing was changed/,
      );
      assert.equal(readFileSync(dir.path(created), 'utf8'), 'mine\n');
      const before = filesBelow(join(FIXTURES, 'fix-cassandra-migrate', 'before'));
      for (const [rel, text] of before) assert.equal(readFileSync(dir.path(rel), 'utf8'), text, rel);
    } finally {
      dir.cleanup();
    }
  });
});
