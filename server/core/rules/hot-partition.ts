// `hot-partition`: a partition key that sends the table's writes to few partitions, decided by the
// workload model (schema/workload.ts, docs/partition-model.md): a time bucket alone (all of today's
// writes in one partition), few-valued columns (booleans, status, country, first letter, language,
// queue ...), or a shard column alone (N partitions for the whole table). Only when rows accumulate
// (clustering by anything but buckets and enums) or each event rewrites cells of the partition
// (counters, collections of ids): a lookup table keyed by an enum, or a summary written once a day, is fine.
// Silent when the key has an identifier, a split or shard column beside it, or anything the model cannot tell.
// With evidence (`nodetool toppartitions`), measured traffic wins: one partition taking at least 20% of the
// sampled writes or reads and 5 times an even share is reported (reason 'measured' when the model saw
// nothing), quoting the sampler's line; samplers that show an even spread silence the model.
import type { CreateMaterializedViewStatement, CreateTableStatement } from '../../../grammar/ast';
import { figuresData, partitionNumbersText } from '../partition/sizing';
import { formatCount } from '../util/format';
import { isHighCardinality } from '../schema/columns';
import type { TableInfo } from '../schema/model';
import type { TableReference } from '../schema/references';
import { nativeName } from '../schema/types';
import type { TableWorkload } from '../schema/workload';
import type { InvalidExampleCase, MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';
import { keyText } from '../util/statements';
import type { FindingData } from '../findings/findings-data';
import { evidenceFindingData, measuredHotText, shareText } from '../evidence';
import { tablestatsOutput, toppartitionsOutput } from '../../../test/helpers/example-evidence';
import { partitionInputs } from '../partition/inputs';
import {
  figuresOf,
  hotVerdict,
  reportableGrowth,
  rowRate,
  workListColumn,
  workloadOf,
  type HotReason,
} from '../partition/verdicts';
import { chooseBucket, cureAdvice, partitionPlans, plannedKeyText } from '../partition/planner';
import { rekeyedInputs, ruleVerdict } from '../partition/rekey';

type Reason = HotReason;

type HeadlineId = 'timeBucket' | 'lowCardinality' | 'lowCardinalityColumns' | 'shardOnly';
type MessageId = HeadlineId | `${HeadlineId}Measured` | 'measured';

/** The headline for the reason (a key of one column or several), with the measured share when there is one. */
function messageIdFor(reason: Reason, keyColumns: number, measured: boolean): MessageId {
  if (reason === 'measured') return 'measured';
  const id: HeadlineId =
    reason === 'time-bucket'
      ? 'timeBucket'
      : reason === 'shard-only'
        ? 'shardOnly'
        : keyColumns === 1
          ? 'lowCardinality'
          : 'lowCardinalityColumns';
  return measured ? `${id}Measured` : id;
}

/** `overwrittenBy`: the per-item columns a time-bucket key's one row takes from each new item (see check). */
function keyDescription(w: TableWorkload, reason: Reason, overwrittenBy: readonly string[]): string {
  const pk = w.table.partitionKey;
  if (reason === 'time-bucket') {
    const names = pk.map((c) => c.name);
    const overwrite = overwrittenBy.length
      ? `, and with no clustering column each new item (${overwrittenBy.join(', ')}) overwrites that ${names.join('/')}'s one row`
      : '';
    return `the partition key (${names.join(', ')}) is a time bucket alone, so all writes of the current ${names.join('/')} go to one partition${overwrite}`;
  }
  if (reason === 'shard-only') {
    const n = w.livePartitions !== undefined ? `${w.livePartitions} partitions` : 'as many partitions as shard values';
    return `the partition key is the shard column ${pk.map((c) => c.name).join(', ')} alone, so the whole table lives in ${n}`;
  }
  const columns = w.partitionKey.map((p, i) => `${p.name} ${pk[i]!.typeText}: ${p.signal}`).join('; ');
  const count = w.livePartitions !== undefined ? `at most ${formatCount(w.livePartitions)}` : 'a handful of';
  return `the partition key has few distinct values (${columns}), so all rows share ${count} partitions${w.skewed ? ', and a few of them take most of the traffic' : ''}`;
}

/**
 * Which shard the workspace's reads call for: a calculated one from a high-cardinality column they pin
 * (they can compute the shard), random shards when they take whole partitions (they must then visit every
 * shard), and both, said plainly, when no query of the workspace reads the table.
 */
function shardAdvice(table: TableInfo, candidates: readonly string[], references: readonly TableReference[]): string {
  const reads = references.filter((r) => r.kind === 'Select');
  const pk = table.partitionKey.map((c) => c.name);
  const count = (n: number): string => `${n} ${n === 1 ? 'query' : 'queries'}`;
  const pinning = candidates
    .map((c) => ({ column: c, reads: reads.filter((r) => r.pinned.includes(c)).length }))
    .filter((x) => x.reads > 0)
    .sort((a, b) => b.reads - a.reads)[0];
  if (pinning) {
    return `calculated as murmur3(${pinning.column}) % N + 1: ${count(pinning.reads)} of the workspace read by ${pinning.column}, so they can compute the shard`;
  }
  const whole = reads.filter((r) => pk.every((k) => r.pinned.includes(k)));
  if (whole.length) {
    return `random 1..N: the workspace's ${count(whole.length)} on ${table.qualifiedName} ${whole.length === 1 ? 'takes' : 'take'} whole partitions by ${pk.join(', ')}, so ${whole.length === 1 ? 'it' : 'they'} then ${whole.length === 1 ? 'reads' : 'read'} every shard (shard IN (1, ..., N))`;
  }
  if (!reads.length) {
    const none = `no query in the workspace reads ${table.qualifiedName} yet`;
    if (!candidates.length) return `random 1..N (reads then visit every shard); ${none}`;
    return `calculated as murmur3(${candidates[0]}) % N + 1 if the reads will know ${candidates[0]}, or random 1..N if they take whole partitions (and then read every shard); ${none}`;
  }
  const calculated = candidates.length
    ? `calculated as murmur3(${candidates[0]}) % N + 1 if reads can know ${candidates[0]}, or `
    : '';
  return `${calculated}random 1..N (reads then visit every shard); none of the workspace's ${count(reads.length)} on it pins the partition key`;
}

function check(stmt: CreateTableStatement | CreateMaterializedViewStatement, ctx: RuleContext<MessageId>): void {
  const defined = ctx.definedBy(stmt);
  if (!defined || !defined.partitionKey.length) return;
  const table: TableInfo = ctx.latest(defined);
  const inputs = partitionInputs(ctx, table);
  const w = workloadOf(inputs);
  // Measured traffic wins over the model: a hot partition on the cluster is reported, an even spread silences it.
  const verdict = hotVerdict(inputs, w);
  if (!verdict) return;
  const { reason, overwrittenBy, wholeTable } = verdict;
  const busiest = verdict.measured?.busiest;
  const references = inputs.references;
  const rate = rowRate(inputs, w);
  const figures = figuresOf(inputs, rate);
  const candidates = table.columns
    .filter((c) => c.role !== 'partition' && isHighCardinality(c) && nativeName(c.type) !== 'timeuuid')
    .map((c) => c.name);
  const pkNames = table.partitionKey.map((c) => c.name);
  const clustering = table.clustering.map((c) => c.name);
  // The same growth unbounded-partition reports (none on a target without a partition size limit).
  const unbounded = reportableGrowth(w, rate, figures);
  const grows = unbounded && w.growth?.by === 'time' ? w.growth : undefined;
  // A work list read whole ("every pending order") gets shards, no time bucket.
  const workList = grows ? workListColumn(w) : undefined;
  const isView = table.kind === 'view';
  // The cures, planned once: the message words the first, the fix applies it. A key of shards alone is spread
  // by another shard no better, and a tiny key without clustering needs another key: neither gets a plan. A
  // view's key follows its base table's: its plans replace it with a table (planner.ts replacesView).
  const plans =
    reason === 'shard-only' || wholeTable
      ? []
      : partitionPlans(inputs, {
          rule: 'hot-partition',
          spread: true,
          ...(grows ? { growth: { timeColumn: grows.column.name } } : {}),
          ...(overwrittenBy.length ? { overwrittenBy } : {}),
          ...(workList ? { workList } : {}),
        });
  const plan = plans[0];
  // The preferred cure bounds the growth too (its bucket): unbounded-partition's finding then refers to this
  // one instead of proposing another edit of the same key (rules/one-answer.ts).
  const curesGrowth =
    !!grows && !!plan?.cures && !!plan.bucket && !ruleVerdict(rekeyedInputs(inputs, plan), 'unbounded-partition');
  const shardName = reason === 'shard-only' ? undefined : (plan?.shard?.column ?? 'shard');
  const bucketName =
    grows && !workList
      ? (plan?.bucket?.column ??
        chooseBucket(rate.rowsPerSecond, figures.binding?.rows, { force: true })?.granularity ??
        'day')
      : undefined;
  const growth = grows ? { timeColumn: grows.column.name, suggestedBucket: bucketName ?? '' } : undefined;
  const suggestedKey = plan
    ? plannedKeyText(table, plan)
    : keyText(
        [...pkNames, ...(shardName ? [shardName] : []), ...(bucketName ? [bucketName] : [])],
        overwrittenBy.length ? [overwrittenBy[0]!] : clustering,
      );
  const shardHint = shardAdvice(table, candidates, references);
  const growthText = grows
    ? ` Each of these partitions also grows without bound (rows arrive per event, clustered by ${grows.column.name} (${grows.column.typeText})${unbounded?.ttl ? `, and the TTL keeps them for too long` : ', with no bucket or TTL'}): ${
        workList
          ? `but ${workList} is a work list the application reads whole ("every pending one"), so no time bucket: one would put an old item as many queries away as buckets have passed; its rows leave a ${workList} partition when it moves on (status-move).`
          : `a shard spreads the writes but does not stop the growth, so add ${bucketName === 'hour' ? 'an' : 'a'} ${bucketName} bucket too.`
      }`
    : '';
  const advice =
    reason === 'shard-only'
      ? `Put a real key in front of the shard, or a time bucket beside it: ${suggestedKey}`
      : isView
        ? `A materialized view's key follows its base table's and cannot take a shard column: replace the view with a table the application writes beside ${table.baseTable ?? 'its base table'} (key ${suggestedKey}; the fix does this), or index ${pkNames.join(', ')} with SAI (CREATE INDEX ... USING 'sai') and read the base table`
        : overwrittenBy.length
          ? `Keep a row per item and shard by it: make ${overwrittenBy[0]} a clustering column and add a shard column computed from it, ${suggestedKey}`
          : wholeTable
            ? `Key the table by what identifies each of its rows: it holds at most ${formatCount(w.livePartitions ?? 0)} rows, and every read and write of it goes to those partitions (values the application reads on every request belong in its own configuration or cache)`
            : plan && !plan.cures
              ? `Shard it, ${shardHint}: ${cureAdvice(table, plan)}`
              : `Shard it: add a shard column to the partition key ${suggestedKey}, ${shardHint}`;
  ctx.report({
    messageId: messageIdFor(reason, pkNames.length, !!busiest),
    values: {
      table: table.qualifiedName,
      key: pkNames.join(reason === 'time-bucket' ? '/' : ', '),
      ...(busiest ? { share: shareText(busiest).replace(/ of the .*/, '') } : {}),
    },
    details: `${reason === 'measured' ? `${measuredHotText(busiest!).replace(/^measured/, 'Measured')}.` : `The ${keyDescription(w, reason, overwrittenBy).replace(/^the /, '')}.${busiest ? ` ${measuredHotText(busiest).replace(/^measured/, 'Measured')}.` : ''}`}${verdict.measured && verdict.measured.partitions > busiest!.distinct ? ` Judged against the table's ${formatCount(verdict.measured.partitions)} partitions (${verdict.measured.partitionsFrom}).` : ''}${growthText}\n\n${advice}.\n\n${partitionNumbersText(figures)}`,
    range: stmt.primaryKey?.partitionKeyRange ?? stmt.primaryKey?.range ?? stmt.name.range,
    data: {
      table: table.qualifiedName,
      ...(table.keyspace ? { keyspace: table.keyspace } : {}),
      partitionKey: pkNames,
      reason,
      ...(w.livePartitions !== undefined && Number.isFinite(w.livePartitions)
        ? { livePartitions: w.livePartitions }
        : {}),
      candidates,
      suggestedKey,
      statementRange: stmt.range,
      ...(stmt.primaryKey?.partitionKeyRange ? { partitionKeyRange: stmt.primaryKey.partitionKeyRange } : {}),
      ...(growth ? { growth } : {}),
      ...(overwrittenBy.length ? { overwrittenBy } : {}),
      ...(wholeTable ? { wholeTable: true } : {}),
      ...(curesGrowth ? { curesGrowth } : {}),
      numbers: figuresData(figures),
      plans,
      ...(busiest
        ? {
            evidence: {
              ...evidenceFindingData({ ...busiest, label: `${busiest.kind} sampled`, value: busiest.count }),
              key: busiest.key,
              share: busiest.share!,
            },
          }
        : {}),
    } satisfies FindingData<'hot-partition'>,
  });
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'hot-partition',
    defaultSeverity: 'warning',
    description:
      'A partition key that sends most traffic to few partitions (time bucket alone, boolean, enum-like, shard alone), or a partition measured taking most of it.',
    // What is wrong, for someone who is not a Cassandra expert.
    messages: {
      timeBucket: 'hot partition in {{table}}: every write of the same {{key}} goes to one partition',
      timeBucketMeasured:
        'hot partition in {{table}}: every write of the same {{key}} goes to one partition (measured: {{share}})',
      lowCardinality: 'hot partition in {{table}}: {{key}} has few values, so a few partitions take all the writes',
      lowCardinalityMeasured: 'hot partition in {{table}}: {{key}} has few values (measured: {{share}})',
      lowCardinalityColumns:
        'hot partition in {{table}}: {{key}} have few values, so a few partitions take all the writes',
      lowCardinalityColumnsMeasured: 'hot partition in {{table}}: {{key}} have few values (measured: {{share}})',
      shardOnly:
        'hot partition in {{table}}: the partition key is only a shard number, so the table has few partitions',
      shardOnlyMeasured: 'hot partition in {{table}}: the partition key is only a shard number (measured: {{share}})',
      measured: 'hot partition in {{table}}: one partition takes most of the traffic (measured: {{share}})',
    },
    scope: 'statement',
  },
  handlers: { CreateTable: check, CreateMaterializedView: check },
};

/** An invalid case whose table nodetool toppartitions measured hot: the first key takes 9,000 of the sampled writes, the second 100. */
function measuredHot(
  name: string,
  code: string,
  at: string,
  keys: [string, string],
  cardinality: number,
  messageId: MessageId,
  reason: Reason,
): InvalidExampleCase<MessageId> {
  const table = /CREATE TABLE (\S+)/.exec(code)![1]!;
  return {
    name,
    code,
    at,
    evidence: {
      'top.txt': toppartitionsOutput(
        table,
        60_000,
        [
          [keys[0], 9000],
          [keys[1], 100],
        ],
        { cardinality },
      ),
    },
    messageId,
    data: { reason },
  };
}

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'evidence of an even spread silences the model: toppartitions saw 10 days of books with about the same writes each',
      code: 'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));',
      evidence: {
        'top.txt': toppartitionsOutput(
          'ks.books',
          60_000,
          Array.from({ length: 10 }, (_, i): [string, number] => [`2026-11-${String(11 + i)}`, 1000 - i * 10]),
        ),
      },
    },
    'CREATE TABLE ks.books (publish_date date, shard int, title text, PRIMARY KEY ((publish_date, shard), title));',
    'CREATE TABLE ks.users (id uuid PRIMARY KEY, status text);',
    'CREATE TABLE ks.orders (customer_id uuid, status text, order_id timeuuid, PRIMARY KEY ((customer_id, status), order_id));',
    {
      name: '@shard comment declares the shard column',
      code: '-- @shard s = murmur3(title) % 8 + 1\nCREATE TABLE ks.books (publish_date date, s int, title text, PRIMARY KEY ((publish_date, s), title));',
    },
    {
      name: 'enum-keyed lookup table without clustering',
      code: 'CREATE TABLE ks.status_labels (status text PRIMARY KEY, label text);',
    },
    {
      name: 'a calendar: few rows per partition',
      code: 'CREATE TABLE ks.calendar (year int, month int, events list<text>, PRIMARY KEY (year, month));',
    },
    {
      name: 'daily summary written once a day',
      code: 'CREATE TABLE ks.daily_summary (report_date date PRIMARY KEY, total_orders bigint, revenue decimal, top_product text);',
    },
    {
      name: 'country lookup: one row per country',
      code: 'CREATE TABLE ks.countries (country_code text PRIMARY KEY, name text, currency text);',
    },
    {
      name: 'videos by tag: many tags (unbounded-partition judges the growth)',
      code: 'CREATE TABLE ks.videos_by_tag (tag text, added_date timestamp, videoid uuid, PRIMARY KEY (tag, added_date, videoid));',
    },
    {
      name: 'country hint: a business in 5000 regions of a country column is spread',
      code: 'CREATE TABLE ks.users_by_country (country text, user_id uuid, name text, PRIMARY KEY (country, user_id));',
      config: { tables: { 'ks.users_by_country': { columns: { country: { distinct: 5000 } } } } },
    },
    {
      name: 'unknown key column: silent',
      code: 'CREATE TABLE ks.things (foo text, bar_at timestamp, PRIMARY KEY (foo, bar_at));',
    },
    {
      name: 'statements: a key column given a literal by one statement and a bind marker by another is not few-valued',
      code: "CREATE TABLE ks.jobs (lane text, id timeuuid, body blob, PRIMARY KEY (lane, id));\nINSERT INTO ks.jobs (lane, id, body) VALUES ('fast', now(), ?);\nINSERT INTO ks.jobs (lane, id, body) VALUES (?, now(), ?);",
    },
    {
      name: "owner-aware: a person's settings keyed by user, no clustering",
      code: 'CREATE TABLE ks.user_settings (user_id uuid PRIMARY KEY, theme text, locale text);',
    },
    {
      name: 'no clustering: a lookup of ten statuses is no tiny key',
      code: 'CREATE TABLE ks.status_names (status text PRIMARY KEY, label text, color text);',
    },
    {
      name: 'a reference table: a tag vocabulary by category, seeded by literal rows and only read by the application',
      code: "CREATE TABLE ks.tags_by_category (category text, tag text, label text, PRIMARY KEY (category, tag));\nINSERT INTO ks.tags_by_category (category, tag, label) VALUES ('color', 'red', 'Red');\nINSERT INTO ks.tags_by_category (category, tag, label) VALUES ('size', 'xl', 'Extra large');\nSELECT tag, label FROM ks.tags_by_category WHERE category = ?;",
    },
  ],
  invalid: [
    {
      name: 'evidence alone: one cart takes most of the sampled writes, though its key is an identifier',
      code: 'CREATE TABLE ks.carts (cart_id uuid, item_id int, qty int, PRIMARY KEY (cart_id, item_id));',
      at: 'cart_id,',
      messageId: 'measured',
      evidence: {
        'top.txt': toppartitionsOutput(
          'ks.carts',
          60_000,
          [
            ['3f0c2a4e-7d2b-4c6e-9a51-2b7f4c1d9e80', 9000],
            ['00000001-0000-4000-8000-000000000001', 100],
            ['00000002-0000-4000-8000-000000000002', 100],
            ['00000003-0000-4000-8000-000000000003', 100],
          ],
          { cardinality: 40 },
        ),
      },
      message:
        /^hot partition in ks\.carts: one partition takes most of the traffic \(measured: at least 70%\) Measured on the cluster, partition 3f0c2a4e-7d2b-4c6e-9a51-2b7f4c1d9e80 takes at least 70% of the writes sampled over 40 partitions \(nodetool toppartitions, node 10\.0\.0\.3, 2026-11-20: 9,000 writes in 60 s on partition 3f0c2a4e-7d2b-4c6e-9a51-2b7f4c1d9e80 \(evidence\/top\.txt:7\)\)\. Shard it:/,
      data: {
        reason: 'measured',
        evidence: {
          tool: 'nodetool toppartitions',
          file: '/virtual/cqlint-tests/evidence/top.txt',
          line: 7,
          node: '10.0.0.3',
          captured: '2026-11-20',
          label: 'writes sampled',
          value: 9000,
          key: '3f0c2a4e-7d2b-4c6e-9a51-2b7f4c1d9e80',
          share: 9000 / 12900,
        },
      },
    },
    {
      name: "evidence judged against the table's partitions: one region takes 39% of the writes of a 14-partition table (tablestats), though the sampler listed 10",
      code: 'CREATE TABLE ks.orders_by_region (region text, order_id timeuuid, total decimal, PRIMARY KEY (region, order_id));',
      at: 'region,',
      messageId: 'lowCardinalityMeasured',
      evidence: {
        'top.txt': toppartitionsOutput('ks.orders_by_region', 60_000, [
          ['eu-west', 3900],
          ...Array.from({ length: 9 }, (_, i): [string, number] => [`region-${i}`, 680 - i * 10]),
        ]),
        'stats.txt': tablestatsOutput('ks.orders_by_region', 50_000_000, { partitions: 14 }),
      },
      message: /Judged against the table's 14 partitions \(nodetool tablestats/,
      data: { reason: 'low-cardinality' },
    },
    {
      name: 'evidence: a capture listing 2 partitions, 99.95% of the writes (10,201/s) on one: hot, and the shards sized from the measured writes',
      code: 'CREATE TABLE ks.events_by_kind (kind text, event_id timeuuid, body text, PRIMARY KEY (kind, event_id));',
      at: 'kind,',
      messageId: 'lowCardinalityMeasured',
      evidence: {
        'top.txt': toppartitionsOutput('ks.events_by_kind', 60_000, [
          ['click', 612_060],
          ['view', 300],
        ]),
      },
      message: /at 10201 rows\/s \(measured: nodetool toppartitions/,
    },
    {
      name: "Amazon's write-sharding example: a day's partition at 1 row/s closes at 86,400 rows, under the 100,000 values (no time past its 24 hours)",
      code: 'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));',
      at: 'publish_date, title)',
      messageId: 'timeBucket',
      message:
        /time bucket alone.*Apache Cassandra: a row ≈ \d+ B; the first limit hit is .* at [\d,]+ rows, which one partition never holds: its day bucket \(publish_date\) closes after 24 hours, at 86,400 rows at 1 row\/s/,
      data: {
        reason: 'time-bucket',
        partitionKey: ['publish_date'],
        candidates: ['title'],
        suggestedKey: '((publish_date, shard), title)',
      },
    },
    {
      code: 'CREATE TABLE ks.tasks (done boolean, task_id uuid, PRIMARY KEY (done, task_id));',
      output: null,
      suggestion: {
        title: 'Add a calculated shard column from task_id (2 shards)',
        output:
          '-- @shard shard = murmur3(task_id) % 2 + 1\nCREATE TABLE ks.tasks (done boolean, task_id uuid, shard int, PRIMARY KEY ((done, shard), task_id));',
      },
      at: 'done,',
      messageId: 'lowCardinality',
      data: { reason: 'low-cardinality', candidates: ['task_id'], livePartitions: 2 },
    },
    measuredHot(
      'a status key measured hot: the measured share in the headline',
      'CREATE TABLE ks.orders (status text, order_id uuid, PRIMARY KEY (status, order_id));',
      'status,',
      ['NEW', 'SHIPPED'],
      10,
      'lowCardinalityMeasured',
      'low-cardinality',
    ),
    {
      name: 'a key of two few-valued columns',
      code: 'CREATE TABLE ks.tasks (done boolean, urgent boolean, task_id uuid, PRIMARY KEY ((done, urgent), task_id));',
      at: '(done, urgent)',
      message: /^hot partition in ks\.tasks: done, urgent have few values/,
      messageId: 'lowCardinalityColumns',
      data: { reason: 'low-cardinality' },
    },
    measuredHot(
      'a key of two few-valued columns, measured hot',
      'CREATE TABLE ks.orders (region text, status text, order_id uuid, PRIMARY KEY ((region, status), order_id));',
      '(region, status)',
      ['eu:NEW', 'us:NEW'],
      20,
      'lowCardinalityColumnsMeasured',
      'low-cardinality',
    ),
    measuredHot(
      'a time-bucket key measured hot',
      'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));',
      'publish_date, title)',
      ['2026-11-20', '2026-11-19'],
      30,
      'timeBucketMeasured',
      'time-bucket',
    ),
    {
      code: 'CREATE TABLE ks.orders (status text, order_id uuid, PRIMARY KEY (status, order_id));',
      at: 'status,',
      messageId: 'lowCardinality',
    },
    {
      code: 'CREATE TABLE ks.latest (yyyymmdd text, added_date timestamp, videoid uuid, PRIMARY KEY (yyyymmdd, added_date, videoid));',
      at: 'yyyymmdd,',
      messageId: 'timeBucket',
      data: { reason: 'time-bucket', candidates: ['videoid'] },
    },
    {
      code: 'CREATE TABLE ks.b (id uuid PRIMARY KEY, region text, v text);\nCREATE MATERIALIZED VIEW ks.by_region AS SELECT * FROM ks.b WHERE region IS NOT NULL AND id IS NOT NULL PRIMARY KEY (region, id);',
      at: 'region,',
      messageId: 'lowCardinality',
    },
    {
      name: 'initial-letter directory',
      code: 'CREATE TABLE ks.users_by_first_letter (first_letter text, username text, email text, PRIMARY KEY (first_letter, username));',
      at: 'first_letter,',
      messageId: 'lowCardinality',
      message: /first_letter text: name word 'letter' \(initial, ~26 values\).*at most 26 partitions/,
      data: { reason: 'low-cardinality', livePartitions: 26 },
    },
    {
      name: 'country-keyed materialized view (Cassandra docs country_flag)',
      code: 'CREATE TABLE ks.cyclists (id uuid PRIMARY KEY, name text, country text);\nCREATE MATERIALIZED VIEW ks.cyclists_by_country AS SELECT * FROM ks.cyclists WHERE country IS NOT NULL AND id IS NOT NULL PRIMARY KEY (country, id);',
      at: 'country,',
      messageId: 'lowCardinality',
      message: /geography, ~200 values.*a few of them take most of the traffic/,
      data: { reason: 'low-cardinality', livePartitions: 200 },
    },
    {
      name: 'a hot, growing view with its own clustering order: replaced by a table of the same name with a shard and a day bucket, which keeps the order (the fix writes it; cures.test applies it)',
      code: 'CREATE TABLE ks.riders (id timeuuid PRIMARY KEY, name text, country text);\nCREATE MATERIALIZED VIEW ks.riders_by_country AS SELECT * FROM ks.riders WHERE country IS NOT NULL AND id IS NOT NULL PRIMARY KEY (country, id) WITH CLUSTERING ORDER BY (id DESC);\nINSERT INTO ks.riders (id, name, country) VALUES (now(), ?, ?);\nSELECT name FROM ks.riders_by_country WHERE country = ?;',
      at: 'country,',
      messageId: 'lowCardinality',
      message:
        /replace the view with a table the application writes beside ks\.riders \(key \(\(country, shard, day\), id\); the fix does this\)/,
      data: { reason: 'low-cardinality', suggestedKey: '((country, shard, day), id)' },
    },
    {
      name: 'nationality-keyed table',
      code: 'CREATE TABLE ks.athletes_by_nationality (nationality text, athlete_id uuid, name text, PRIMARY KEY (nationality, athlete_id));',
      at: 'nationality,',
      messageId: 'lowCardinality',
    },
    {
      name: 'shard-only key',
      code: 'CREATE TABLE ks.events_sharded (shard int, event_time timestamp, payload text, PRIMARY KEY (shard, event_time));',
      at: 'shard,',
      message: /shard column shard alone/,
      messageId: 'shardOnly',
      // 1 row/s into each of the shard partitions: a day (86,400 rows) is past 100,000 values with the headroom.
      data: { reason: 'shard-only', growth: { timeColumn: 'event_time', suggestedBucket: 'hour' } },
    },
    measuredHot(
      'shard-only key measured hot',
      'CREATE TABLE ks.events_sharded (shard int, event_time timestamp, payload text, PRIMARY KEY (shard, event_time));',
      'shard,',
      ['3', '4'],
      16,
      'shardOnlyMeasured',
      'shard-only',
    ),
    {
      name: 'queue table keyed by queue name',
      code: 'CREATE TABLE ks.queue_items (queue_name text, item_id timeuuid, payload blob, PRIMARY KEY (queue_name, item_id));',
      at: 'queue_name,',
      messageId: 'lowCardinality',
      message: /queue, ~10 values.*also grows without bound/,
      data: { reason: 'low-cardinality', growth: { timeColumn: 'item_id', suggestedBucket: 'day' } },
    },
    {
      name: 'status-keyed log both hot and unbounded',
      code: 'CREATE TABLE ks.app_log (level text, logged_at timestamp, message text, PRIMARY KEY (level, logged_at));',
      at: 'level,',
      messageId: 'lowCardinality',
      message: /also grows without bound.*add a \w+ bucket too.*\(\(level, shard, \w+\), logged_at\)/,
      data: { growth: { timeColumn: 'logged_at', suggestedBucket: 'day' } },
    },
    {
      name: 'date-keyed row of per-item columns: every new book overwrites the day',
      code: 'CREATE TABLE books_by_date (publish_date date, isbn text, title text, PRIMARY KEY (publish_date));',
      at: 'publish_date)',
      messageId: 'timeBucket',
      message: /each new item \(isbn, title\) overwrites that publish_date's one row/,
      data: { reason: 'time-bucket' },
    },
    {
      name: "date-keyed row of per-item columns: a book's price beside its isbn and title does not make the row a summary",
      code: 'CREATE TABLE shop.books_by_date (publish_date date, isbn text, title text, price decimal, PRIMARY KEY (publish_date));',
      at: 'publish_date)',
      messageId: 'timeBucket',
      message: /each new item \(isbn, title\) overwrites that publish_date's one row/,
      data: { reason: 'time-bucket', overwrittenBy: ['isbn', 'title'] },
    },
    {
      name: 'date-keyed counters: every event increments the day',
      code: 'CREATE TABLE ks.daily_counts (day date PRIMARY KEY, page_views counter, signups counter);',
      at: 'day',
      messageId: 'timeBucket',
      data: { reason: 'time-bucket' },
    },
    {
      name: 'date-keyed set of visitor ids appended per visit',
      code: 'CREATE TABLE ks.daily_visitors (visit_date date PRIMARY KEY, visitors set<uuid>);',
      at: 'visit_date',
      messageId: 'timeBucket',
      data: { reason: 'time-bucket' },
    },
    {
      name: 'day-of-week key: 7 partitions that never move on',
      code: 'CREATE TABLE ks.orders_by_weekday (day_of_week int, order_id timeuuid, total decimal, PRIMARY KEY (day_of_week, order_id));',
      at: 'day_of_week,',
      messageId: 'lowCardinality',
      data: { reason: 'low-cardinality', livePartitions: 7 },
    },
    {
      name: 'hinted cardinality: a "segment" of 3 values',
      code: 'CREATE TABLE ks.users_by_cohort (cohort text, user_id uuid, PRIMARY KEY (cohort, user_id));',
      at: 'cohort,',
      messageId: 'lowCardinality',
      config: { tables: { 'ks.users_by_cohort': { columns: { cohort: { distinct: 3 } } } } },
      message: /hint: 3 distinct values/,
      data: { livePartitions: 3 },
    },
    {
      name: '-- @cqlint comment hint',
      code: '-- @cqlint cohort.distinct=4 rate=20/s\nCREATE TABLE ks.users_by_cohort (cohort text, user_id uuid, PRIMARY KEY (cohort, user_id));',
      at: 'cohort,',
      messageId: 'lowCardinality',
      message: /20 rows\/s \(hinted\)/,
      data: { livePartitions: 4 },
    },
    {
      name: 'reads pin a high-cardinality column: a calculated shard from it',
      code: 'CREATE TABLE ks.latest (day date, added_date timestamp, videoid uuid, title text, PRIMARY KEY (day, added_date, videoid));\nSELECT * FROM ks.latest WHERE day = ? AND added_date = ? AND videoid = ?;',
      at: 'day,',
      messageId: 'timeBucket',
      message: /calculated as murmur3\(videoid\) % N \+ 1: 1 query of the workspace read by videoid/,
    },
    {
      name: 'reads take whole buckets: random shards read together',
      code: 'CREATE TABLE ks.latest (day date, added_date timestamp, videoid uuid, title text, PRIMARY KEY (day, added_date, videoid));\nSELECT * FROM ks.latest WHERE day = ? LIMIT 10;',
      at: 'day,',
      messageId: 'timeBucket',
      message:
        /random 1\.\.N: the workspace's 1 query on ks\.latest takes whole partitions by day, so it then reads every shard/,
    },
    {
      name: 'no reads in the workspace: says so and offers both',
      code: 'CREATE TABLE ks.latest (day date, added_date timestamp, videoid uuid, title text, PRIMARY KEY (day, added_date, videoid));',
      at: 'day,',
      messageId: 'timeBucket',
      message:
        /murmur3\(videoid\) % N \+ 1 if the reads will know videoid, or random 1\.\.N .*no query in the workspace reads ks\.latest yet/,
    },
    {
      name: 'USING TTL on every write judged against the rate: 10 years bounds nothing',
      code: 'CREATE TABLE ks.app_log (level text, logged_at timestamp, message text, PRIMARY KEY (level, logged_at));\nINSERT INTO ks.app_log (level, logged_at, message) VALUES (?, ?, ?) USING TTL 315360000;',
      at: 'level,',
      messageId: 'lowCardinality',
      data: { growth: { timeColumn: 'logged_at', suggestedBucket: 'day' } },
    },
    {
      name: 'no clustering: a boolean key puts the whole table in two partitions',
      code: 'CREATE TABLE ks.settings_by_active (active boolean PRIMARY KEY, params map<text, text>, updated_at timestamp);',
      at: 'active boolean',
      messageId: 'lowCardinality',
      message:
        /active boolean: boolean type.*at most 2 partitions.*Key the table by what identifies each of its rows.*which one partition never holds: at most 1 row/,
      data: { reason: 'low-cardinality', livePartitions: 2, wholeTable: true },
    },
    {
      name: 'no clustering: a day-keyed row whose columns hold one article is overwritten by every new one',
      code: 'CREATE TABLE ks.articles_by_day (day date PRIMARY KEY, headline text, body text, author text);',
      at: 'day date',
      messageId: 'timeBucket',
      message: /each new item \(headline, body\) overwrites that day's one row/,
      data: { reason: 'time-bucket' },
    },
    {
      name: 'statements: a key column only ever written with two literal values',
      code: "CREATE TABLE ks.jobs (lane text, id timeuuid, body blob, PRIMARY KEY (lane, id));\nINSERT INTO ks.jobs (lane, id, body) VALUES ('fast', now(), ?);\nINSERT INTO ks.jobs (lane, id, body) VALUES ('slow', now(), ?);",
      at: 'lane,',
      messageId: 'lowCardinality',
      message:
        /lane text: only 2 literal values \('fast', 'slow'\) in the workspace's statements.*at most 2 partitions/,
      data: { reason: 'low-cardinality', livePartitions: 2 },
    },
    {
      name: 'vocabulary: German state names (Zustand)',
      code: 'CREATE TABLE shop.auftraege_nach_zustand (zustand text, auftrag_id uuid, kunde text, PRIMARY KEY (zustand, auftrag_id));',
      at: 'zustand,',
      messageId: 'lowCardinality',
      message: /name word 'zustand' \(enum/,
    },
    {
      name: 'vocabulary: Dutch language names (taal)',
      code: 'CREATE TABLE social.gebruikers_per_taal (taal text, gebruiker_id uuid, naam text, PRIMARY KEY (taal, gebruiker_id));',
      at: 'taal,',
      messageId: 'lowCardinality',
      data: { livePartitions: 100 },
    },
    {
      name: 'Keyspaces: the per-partition write quota',
      code: 'CREATE TABLE ks.orders (status text, order_id uuid, PRIMARY KEY (status, order_id));',
      at: 'status,',
      messageId: 'lowCardinality',
      target: 'keyspaces',
      message: /Amazon Keyspaces: a row ≈ \d+ B; one partition takes at most 1,000 WCU per partition = 1,000 writes\/s/,
    },
    {
      name: 'Keyspaces: no partition size limit, so no growth to bucket',
      code: 'CREATE TABLE ks.app_log (level text, logged_at timestamp, message text, PRIMARY KEY (level, logged_at));',
      at: 'level,',
      messageId: 'lowCardinality',
      target: 'keyspaces',
      data: { reason: 'low-cardinality', suggestedKey: '((level, shard), logged_at)', growth: undefined },
    },
    {
      name: 'Cosmos DB: 20 GB and the RU/s quota',
      code: 'CREATE TABLE ks.orders (status text, order_id uuid, PRIMARY KEY (status, order_id));',
      at: 'status,',
      messageId: 'lowCardinality',
      target: 'cosmosdb',
      message:
        /20 GB per logical partition.*10,000 RU\/s per logical \(and physical\) partition = 1,818 writes\/s of this row \(5\.5 RU each/,
    },
  ],
};
