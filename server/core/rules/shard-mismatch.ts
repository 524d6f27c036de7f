// `shard-mismatch`: on a write-sharded table (`-- @shard` above CREATE TABLE), a literal shard value that
// is not the one the formula gives for the statement's literal source values, or that no formula result
// can be (outside offset..offset+N-1; random(N) is 1..N). Checks INSERT values, UPDATE/DELETE/SELECT
// `=` and `IN` restrictions and UPDATE `SET` values; bind markers and function calls are left alone.
// The quick fix replaces data.valueRange with data.expected.
import type { Expression } from '../../../grammar/ast';
import {
  computedShard,
  statementColumnValues,
  statementTable,
  udtLookupFor,
  usableShardSpec,
  columnKeyType,
  type KeyedStatement,
} from '../schema/key-values';
import { checkShardValue } from '../token/shard';
import { nameRecord } from '../util/names';
import type { KeyType } from '../token/types';
import { composedMessage } from './messages';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule } from './types';
import type { FindingData } from '../findings/findings-data';

type MessageId = 'wrongShard' | 'outOfRange';

/** Checks the literal shard values of one statement against its table's @shard formula. */
function checkStatement(stmt: KeyedStatement, ctx: RuleContext<MessageId>): void {
  const table = ctx.tableFor(statementTable(stmt), stmt.range.start);
  if (!table) return;
  const spec = usableShardSpec(table);
  if (!spec) return;
  const values = statementColumnValues(stmt);
  const shard = values.get(spec.shardColumn);
  if (!shard) return;
  const udts = udtLookupFor(ctx);
  const types = nameRecord<KeyType>();
  for (const name of [spec.shardColumn, ...spec.sources]) {
    const t = columnKeyType(table, name, udts);
    if (t) types[name] = t;
  }
  const computed = computedShard(table, spec, values, udts);
  const expected = computed?.ok ? computed.value : undefined;
  const sourceLiterals = nameRecord<Expression>();
  for (const name of spec.sources) {
    const v = values.get(name);
    if (v && !v.in && v.values.length === 1) sourceLiterals[name] = v.values[0]!;
  }
  for (const value of shard.values) {
    if (value.kind !== 'Literal' && value.kind !== 'UnaryExpression') continue;
    // An IN list of shards reads several partitions on purpose: only the range is checked there.
    const check = checkShardValue(
      spec,
      types,
      shard.in && shard.values.length > 1
        ? { [spec.shardColumn]: value }
        : { ...sourceLiterals, [spec.shardColumn]: value },
    );
    if (!check) continue;
    let message = check.message;
    if (check.kind === 'out-of-range' && expected !== undefined) message += `; for this row it is ${expected}`;
    ctx.report({
      messageId: check.kind === 'mismatch' ? 'wrongShard' : 'outOfRange',
      ...composedMessage(message),
      range: value.range,
      data: {
        table: table.qualifiedName,
        shardColumn: spec.shardColumn,
        valueRange: value.range,
        kind: check.kind,
        ...(check.expected !== undefined ? { expected: check.expected } : expected !== undefined ? { expected } : {}),
        actual: check.actual,
        min: check.min,
        max: check.max,
      } satisfies FindingData<'shard-mismatch'>,
    });
  }
}

export const rule: RuleModule<MessageId> = {
  meta: {
    id: 'shard-mismatch',
    defaultSeverity: 'error',
    description:
      "A literal shard value that is not what the table's @shard formula gives for the row (or is out of range).",
    messages: {
      // The shard check words what is wrong with the value (token/shard.ts checkShardValue); the headline is its sentence.
      wrongShard: '{{problem}}',
      outOfRange: '{{problem}}',
    },
    // Each statement is checked against its table's spec alone: results are cached per statement.
    scope: 'statement',
    batchMembers: true,
  },
  handlers: {
    Select: checkStatement,
    Insert: checkStatement,
    Update: checkStatement,
    Delete: checkStatement,
  },
};

const table =
  '-- @shard shard = murmur3(title) % 16 + 1\nCREATE TABLE ks.posts (publish_date date, shard int, title text, body text, PRIMARY KEY ((publish_date, shard), title));\n';
// murmur3x86_32('Hello') % 16 + 1 = 9 (cross-checked with murmurhash3js-revisited in test/analysis/shard-rules.test.ts).
const random =
  '-- @shard shard = random(8)\nCREATE TABLE ks.events (day date, shard int, id uuid, PRIMARY KEY ((day, shard), id));\n';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    `${table}INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', 9, 'Hello');`,
    `${table}INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', ?, 'Hello');`,
    `${table}INSERT INTO ks.posts (publish_date, shard, title) VALUES (?, 3, ?);`,
    `${table}SELECT * FROM ks.posts WHERE publish_date = '2020-07-09' AND shard = 9 AND title = 'Hello';`,
    `${table}SELECT * FROM ks.posts WHERE publish_date = '2020-07-09' AND shard IN (1, 2, 16);`,
    `${table}UPDATE ks.posts SET body = 'x' WHERE publish_date = '2020-07-09' AND shard = 9 AND title = 'Hello';`,
    `${random}INSERT INTO ks.events (day, shard, id) VALUES ('2020-07-09', 8, uuid());`,
    {
      name: 'no annotation, no check',
      code: "CREATE TABLE ks.p (d date, shard int, title text, PRIMARY KEY ((d, shard), title));\nINSERT INTO ks.p (d, shard, title) VALUES ('2020-07-09', 3, 'Hello');",
    },
  ],
  invalid: [
    {
      name: 'INSERT with the wrong shard',
      code: `${table}INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', 3, 'Hello');`,
      output: `${table}INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', 9, 'Hello');`,
      at: "3, 'Hello'",
      messageId: 'wrongShard',
      message: /shard = 3 but murmur3\(title\) % 16 \+ 1 gives 9 for this title/,
      data: { expected: 9, shardColumn: 'shard', kind: 'mismatch', actual: 3 },
    },
    {
      name: 'SELECT with the wrong shard',
      code: `${table}SELECT * FROM ks.posts WHERE publish_date = '2020-07-09' AND shard = 4 AND title = 'Hello';`,
      output: `${table}SELECT * FROM ks.posts WHERE publish_date = '2020-07-09' AND shard = 9 AND title = 'Hello';`,
      at: '4 AND',
      messageId: 'wrongShard',
      data: { expected: 9 },
    },
    {
      name: 'DELETE in a batch',
      code: `${table}BEGIN BATCH\n  DELETE FROM ks.posts WHERE publish_date = '2020-07-09' AND shard = 1 AND title = 'Hello';\nAPPLY BATCH;`,
      output: `${table}BEGIN BATCH\n  DELETE FROM ks.posts WHERE publish_date = '2020-07-09' AND shard = 9 AND title = 'Hello';\nAPPLY BATCH;`,
      at: '1 AND',
      messageId: 'wrongShard',
      data: { expected: 9, actual: 1 },
    },
    {
      name: 'out of range, without a source value',
      code: `${table}SELECT * FROM ks.posts WHERE publish_date = '2020-07-09' AND shard = 17;`,
      // Without the title there is no value to put: the finding has no fix.
      output: null,
      at: '17',
      messageId: 'outOfRange',
      message: /shard = 17 is outside 1\.\.16/,
      data: { kind: 'out-of-range', min: 1, max: 16 },
    },
    {
      name: 'out of range, with the value it should be',
      code: `${table}INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', 0, 'Hello');`,
      output: `${table}INSERT INTO ks.posts (publish_date, shard, title) VALUES ('2020-07-09', 9, 'Hello');`,
      at: '0,',
      messageId: 'outOfRange',
      message: /outside 1\.\.16.*for this row it is 9/,
      data: { kind: 'out-of-range', expected: 9 },
    },
    {
      name: 'random(8) is 1..8',
      code: `${random}SELECT * FROM ks.events WHERE day = '2020-07-09' AND shard IN (0, 1, 9);`,
      count: 2,
      at: '0, 1',
      messageId: 'outOfRange',
      message: /outside 1\.\.8/,
    },
  ],
};
