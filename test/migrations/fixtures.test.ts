// The migration folders of test/fixtures/migrations (see its README), linted as `cqlint lint <folder>`
// lints them: each migration-safety rule fires where the history makes it, and a safe history is silent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../cli/helpers';
import { projectRoot } from '../helpers/corpus';
import { MIGRATION_RULES } from './rules';

const FIXTURES = join(projectRoot, 'test', 'fixtures', 'migrations');

interface JsonFile {
  filePath: string;
  messages: { ruleId: string; messageId: string; line: number }[];
}

async function lint(folder: string): Promise<{ code: number; found: string[] }> {
  const run = await runCli(['lint', '--format', 'json', join(FIXTURES, folder)]);
  const files = JSON.parse(run.stdout) as JsonFile[];
  const found = files.flatMap((f) =>
    f.messages.map((m) => `${f.filePath.split(/[\\/]/).pop()}:${m.line} ${m.ruleId}/${m.messageId}`),
  );
  return { code: run.code, found: found.sort() };
}

describe('migration fixtures', () => {
  test('cassandra-migrate names (v001_ .. v010_, numeric order)', async () => {
    const { code, found } = await lint('cassandra-migrate');
    assert.deepEqual(found, [
      'v002_rekey_events.cql:2 destructive-migration/dropTable',
      'v002_rekey_events.cql:3 primary-key-change/recreated',
      'v003_users_age.cql:1 destructive-migration/dropColumn',
      'v003_users_age.cql:2 readd-dropped-column/otherType',
      'v010_orders_total.cql:1 column-type-change/alterType',
    ]);
    assert.equal(code, 1, 'primary-key-change is an error');
  });

  test('Flyway names (V1__, V2__, V2_1__, V3__) with tablestats evidence', async () => {
    const { found } = await lint('flyway');
    assert.deepEqual(found, [
      'V2_1__orders_lcs.cql:1 compaction-change-on-large-table/existing',
      'V2__users_by_email.cql:1 index-on-large-table/large',
      'V3__orders_by_customer.cql:1 guardrail-schema/disabled',
      'V3__orders_by_customer.cql:1 view-on-existing-table/existing',
    ]);
  });

  test('timestamp names', async () => {
    const { found } = await lint('timestamp');
    assert.deepEqual(found, [
      '20240215093000_reset_carts.cql:1 destructive-migration/truncate',
      '20240301090000_carts_without_added.cql:1 primary-key-change/alterKey',
    ]);
  });

  test('a folder the setting names (its files follow no convention, step10 after step2)', async () => {
    const { found } = await lint('configured');
    assert.deepEqual(found, ['step2_total.cql:1 column-type-change/alterType']);
  });

  test('a safe history is silent', async () => {
    const { code, found } = await lint('safe');
    assert.deepEqual(found, []);
    assert.equal(code, 0);
  });

  test('every migration rule fires in some fixture', async () => {
    const all = (await Promise.all(['cassandra-migrate', 'flyway', 'timestamp'].map(lint))).flatMap((r) => r.found);
    assert.deepEqual(
      MIGRATION_RULES.filter((id) => !all.some((f) => f.includes(` ${id}/`))),
      [],
    );
  });
});
