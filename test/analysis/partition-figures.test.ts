// The partition figures (row size, the target's limit hit first, rows and time to reach it) are computed
// once (sizing.ts partitionFigures) and cited alike by the rules' messages and the table hover; the
// workload hints that correct them come from .cqlint.json or a `-- @cqlint` comment.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../server/core/config';
import { describeTable } from '../../server/core/editor/table-hover';
import { firstPlansOf } from '../../server/core/fixes';
import { tableCures } from '../../server/core/report/table-findings';
import { cureAdvice } from '../../server/core/partition/planner';
import type { PartitionPlan } from '../../server/core/partition/plan';
import { markdownText } from '../../server/core/util/markdown';
import { partitionInputs, type InputSource } from '../../server/core/partition/inputs';
import { rowSizes } from '../../server/core/partition/sizing';
import { targetInfo } from '../../server/core/partition/targets';
import { MAIN, ROOT, ofRule, projectWith } from './helpers';

const LOG = 'CREATE TABLE ks.app_log (level text, logged_at timestamp, message text, PRIMARY KEY (level, logged_at));';
const READINGS =
  'CREATE TABLE ks.readings (sensor_id uuid, reading_time timestamp, value double, PRIMARY KEY (sensor_id, reading_time));';

function lint(code: string, target?: 'cassandra' | 'scylladb' | 'keyspaces' | 'cosmosdb', config = {}) {
  const project = projectWith(code, {}, { config, target });
  return { project, findings: project.lint(MAIN) };
}

describe('partition figures', () => {
  test('the hover shows the numbers the message cites', () => {
    const { project, findings } = lint(READINGS);
    const [finding] = ofRule(findings, 'unbounded-partition');
    const numbers = finding!.data!.numbers as { rowsToLimit: number; limitLabel: string };
    const hover = describeTable(
      project.schema().allTables()[0]!,
      'cassandra',
      project.tableHints(MAIN, project.schema().allTables()[0]!),
    );
    const rows = numbers.rowsToLimit.toLocaleString('en-US');
    assert.match(finding!.details!, new RegExp(`${numbers.limitLabel}, at ${rows} rows`));
    assert.match(
      hover,
      new RegExp(`\\[${numbers.limitLabel}\\]\\([^)]+\\) \\*\\*\\(hit first\\)\\*\\* \\| ${rows} \\|`),
    );
    assert.match(hover, /sensor_id`: identifier/);
  });

  test('messages differ by target and cite that target', () => {
    // At 50 rows/s even Cosmos DB's 20 GB is reached within the horizon (at the default 1 row/min it takes centuries: silent).
    assert.equal(ofRule(lint(READINGS, 'cosmosdb').findings, 'unbounded-partition').length, 0);
    const hinted = `-- @cqlint rate=50/s\n${READINGS}`;
    const messages = (['cassandra', 'scylladb', 'cosmosdb'] as const).map(
      (t) => ofRule(lint(hinted, t).findings, 'unbounded-partition')[0]!.details!,
    );
    assert.match(messages[0]!, /Apache Cassandra: .*100,000 values per partition.*datastax/);
    assert.match(messages[1]!, /ScyllaDB: .*large-partition warning at 100,000 rows.*scylladb\.com/);
    assert.match(
      messages[2]!,
      /Azure Cosmos DB for Apache Cassandra: .*20 GB per logical partition.*learn\.microsoft\.com/,
    );
    assert.equal(new Set(messages).size, 3);
    const hot = (['cassandra', 'keyspaces'] as const).map(
      (t) => ofRule(lint(LOG, t).findings, 'hot-partition')[0]!.details!,
    );
    assert.match(hot[0]!, /100,000 values per partition/);
    assert.match(hot[1]!, /1,000 WCU per partition = 1,000 writes\/s/);
  });

  test('a hot and growing key reports both, and hot-partition carries the growth for the fix', () => {
    const { findings } = lint(LOG);
    assert.equal(ofRule(findings, 'unbounded-partition').length, 1);
    const [hot] = ofRule(findings, 'hot-partition');
    assert.deepEqual(hot!.data!.growth, { timeColumn: 'logged_at', suggestedBucket: 'day' });
    const [unbounded] = ofRule(findings, 'unbounded-partition');
    assert.equal(unbounded!.data!.rowsPerSecond, 1);
    assert.ok(Number.isFinite(unbounded!.data!.limitBytes as number) && (unbounded!.data!.limitBytes as number) > 0);
    assert.ok((unbounded!.data!.rowBytes as number) > 0);
  });
});

describe('workload hints', () => {
  test('.cqlint.json: columns.<c>.distinct and rowsPerSecondPerPartition are validated', () => {
    const ok = parseConfig({
      tables: { 'ks.t': { columns: { country: { distinct: 5 } }, rowsPerSecondPerPartition: 2 } },
    });
    assert.deepEqual(ok.errors, []);
    assert.deepEqual(structuredClone(ok.config?.tables?.['ks.t']), {
      columns: { country: { distinct: 5 } },
      rowsPerSecondPerPartition: 2,
    });
    const bad = parseConfig({
      tables: {
        'ks.t': { columns: { country: { distinc: 5 }, city: { distinct: 0 }, x: 3 }, rowsPerSecondPerPartition: -1 },
      },
    });
    assert.deepEqual(
      bad.errors.map((e) => e.key),
      [
        'tables.ks.t.columns.country.distinc',
        'tables.ks.t.columns.city.distinct',
        'tables.ks.t.columns.x',
        'tables.ks.t.rowsPerSecondPerPartition',
      ],
    );
    assert.match(bad.errors[0]!.message, /unknown column hint \(did you mean "distinct"\?\)/);
    assert.match(bad.errors[1]!.message, /must be a whole number of distinct values >= 1, got 0/);
  });

  test('a cardinality hint corrects the model without suppressing the rule', () => {
    const code = 'CREATE TABLE ks.users_by_country (country text, user_id uuid, PRIMARY KEY (country, user_id));';
    assert.equal(ofRule(lint(code).findings, 'hot-partition').length, 1);
    assert.equal(
      ofRule(
        lint(code, undefined, { tables: { 'ks.users_by_country': { columns: { country: { distinct: 50_000 } } } } })
          .findings,
        'hot-partition',
      ).length,
      0,
    );
    assert.equal(ofRule(lint(`-- @cqlint country.distinct=50000\n${code}`).findings, 'hot-partition').length, 0);
  });

  test('the config overrides a -- @cqlint comment key by key, and the hover shows the hints in effect', () => {
    const code = `-- @cqlint rate=2/s country.distinct=5\nCREATE TABLE ks.t (country text, ts timestamp, v int, PRIMARY KEY (country, ts));`;
    const project = projectWith(code, {}, { config: { tables: { 'ks.t': { rowsPerSecondPerPartition: 7 } } } });
    const table = project.schema().allTables()[0]!;
    assert.deepEqual(structuredClone(project.tableHints(MAIN, table)), {
      rowsPerSecondPerPartition: 7,
      columns: { country: { distinct: 5 } },
    });
    const [hot] = ofRule(project.lint(MAIN), 'hot-partition');
    assert.match(hot!.details!, /at 7 rows\/s \(hinted\)/);
    assert.match(hot!.details!, /hint: 5 distinct values/);
    const hover = describeTable(table, 'cassandra', project.tableHints(MAIN, table));
    assert.match(hover, /hints: `rate=7\/s` `country\.distinct=5`/);
    assert.match(hover, /at 7 rows\/s \(hinted\)/);
  });

  test('editing the -- @cqlint comment re-lints the table (the cached statement result is not reused)', () => {
    const project = projectWith(
      `-- @cqlint cohort.distinct=4\nCREATE TABLE ks.u (cohort text, user_id uuid, PRIMARY KEY (cohort, user_id));`,
    );
    assert.equal(ofRule(project.lint(MAIN), 'hot-partition').length, 1);
    project.setFile(
      MAIN,
      `-- @cqlint cohort.distinct=40000\nCREATE TABLE ks.u (cohort text, user_id uuid, PRIMARY KEY (cohort, user_id));`,
    );
    assert.equal(ofRule(project.lint(MAIN), 'hot-partition').length, 0);
  });

  test('the hover states the bucket fit large-partition reports and shows the plan its finding carries', () => {
    const code =
      '-- @cqlint rate=500/s\nCREATE TABLE iot.readings_by_hour (sensor_id uuid, hour timestamp, ts timestamp, value double, PRIMARY KEY ((sensor_id, hour), ts));';
    const { project, findings } = lint(code);
    const [large] = ofRule(findings, 'large-partition');
    const bucket = large!.data!.bucket as { rowsPerBucket: number };
    const table = project.schema().allTables()[0]!;
    const hover = describeTable(table, 'cassandra', {
      ...project.tableHints(MAIN, table),
      cures: firstPlansOf(findings, table.qualifiedName),
    });
    const sentence = /[oO]ne sensor_id's hour bucket \(hour\) takes ([\d,]+) rows at 500 rows\/s \(hinted\)/;
    const [, rows] = sentence.exec(hover)!;
    assert.equal(rows, bucket.rowsPerBucket.toLocaleString('en-US'));
    assert.match(large!.details!, sentence);
    // The cure is the finding's own first plan, shown: the same words as the message's advice.
    const plan = (large!.data!.plans as PartitionPlan[])[0]!;
    const advice = cureAdvice(table, plan);
    assert.ok(large!.details!.includes(advice), large!.details);
    assert.ok(hover.includes(`Cure (\`large-partition\`, the preferred fix): ${markdownText(advice)}`), hover);
  });

  test("the hover shows over-partitioned-read's cure, found on the reads of the table in other files, once", () => {
    const code =
      'CREATE TABLE iot.readings_by_minute (sensor_id uuid, minute timestamp, ts timestamp, value double, PRIMARY KEY ((sensor_id, minute), ts));';
    // Two reads that fan out, in another file: one finding each, one plan.
    const project = projectWith(code, {
      'queries.cql':
        'SELECT value FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ? LIMIT 500;\nSELECT ts FROM iot.readings_by_minute WHERE sensor_id = ? AND minute = ? LIMIT 600;\n',
    });
    const reads = ofRule(project.lint(`${ROOT}/queries.cql`), 'over-partitioned-read');
    assert.equal(reads.length, 2);
    const table = project.schema().allTables()[0]!;
    const cures = tableCures(project, table);
    assert.deepEqual(
      cures.map((c) => c.rule),
      ['over-partitioned-read'],
    );
    const plan = (reads[0]!.data!.plans as PartitionPlan[])[0]!;
    assert.deepEqual(cures[0]!.plan, plan);
    const hover = describeTable(table, 'cassandra', { ...project.tableHints(MAIN, table), cures });
    assert.ok(
      hover.includes(`Cure (\`over-partitioned-read\`, the preferred fix): ${markdownText(cureAdvice(table, plan))}`),
      hover,
    );
  });

  test('a partition that cannot grow states the rows it holds, not a time at a rate', () => {
    const { project, findings } = lint(
      'CREATE TABLE ks.settings_by_active (active boolean PRIMARY KEY, params map<text, text>);',
    );
    const [hot] = ofRule(findings, 'hot-partition');
    assert.doesNotMatch(`${hot!.message} ${hot!.details}`, /row\/s/);
    assert.match(hot!.details!, /which one partition never holds: at most 1 row/);
    const table = project.schema().allTables()[0]!;
    const hover = describeTable(table, 'cassandra', project.tableHints(MAIN, table));
    assert.match(
      hover,
      /at most 1 row per partition \(no clustering columns: one row per partition\) \| — \| it does not grow with time/,
    );
    assert.doesNotMatch(hover, /\| time at /);
  });

  test("the partition rules of one run share their context's user type lookup, and the next run has its own", () => {
    const project = projectWith(READINGS);
    const table = project.schema().allTables()[0]!;
    const source = (userType: InputSource['userType']): InputSource => ({
      target: targetInfo('cassandra'),
      hints: () => undefined,
      referencesTo: () => [],
      evidence: () => undefined,
      sample: () => undefined,
      userType,
    });
    const run1: InputSource['userType'] = (keyspace, name, mention) =>
      project.schema().userType(keyspace, name, mention);
    const run2: InputSource['userType'] = (keyspace, name, mention) =>
      project.schema().userType(keyspace, name, mention);
    // Two rules' contexts of one run: two objects with one userType (the run's).
    const first = partitionInputs(source(run1), table);
    const second = partitionInputs(source(run1), table);
    assert.equal(first.udts, second.udts);
    // The sizes are then computed once for both (the caches key on the lookup).
    assert.equal(rowSizes(table, undefined, second.udts), rowSizes(table, undefined, first.udts));
    // Another run's lookup is another key: a table changed in place between runs is sized again.
    const next = partitionInputs(source(run2), table);
    assert.notEqual(next.udts, first.udts);
    assert.notEqual(rowSizes(table, undefined, next.udts), rowSizes(table, undefined, first.udts));
  });
});
