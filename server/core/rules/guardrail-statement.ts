// `guardrail-statement`: queries and writes the cluster's own settings refuse or warn about when they
// run: GROUP BY, USING TIMESTAMP (and literal timestamps out of the allowed window), list operations that
// read before they write, IN lists whose cartesian product is over the threshold, collection and column
// literals over the size and item thresholds, values over the SAI term size thresholds, batches whose
// literals weigh more than the batch size thresholds, and cqlsh CONSISTENCY and PAGING the team warns
// about or disallows. From the team's yaml, else the version's defaults (docs/guardrails.md). Bind
// markers weigh nothing here: only the application knows them.
import type { SourceRange, Statement } from '../../../grammar/ast';
import { formatSetting, type ClusterSettings, type Crossing, type SettingValue } from '../cluster';
import { formatCassandraBytes } from '../util/format';
import { columnNamed, type TableInfo } from '../schema/model';
import type { FindingData } from '../findings/findings-data';
import { settingParagraph } from './guardrail-text';
import { collectionItems, literalBytes, someWrittenValue, writtenValues } from './guardrail-values';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule, StatementOf } from './types';

type Id = 'disabled' | 'overFails' | 'overWarns' | 'levelDisallowed' | 'levelWarned';
type Ctx = RuleContext<Id>;

function data(setting: SettingValue, action: 'fail' | 'warn', measured?: number): FindingData<'guardrail-statement'> {
  return {
    setting: setting.key,
    action,
    value: formatSetting(setting),
    source: setting.source,
    ...(measured !== undefined ? { measured } : {}),
  };
}

function disabled(ctx: Ctx, key: string, what: string, range: SourceRange, why: string): void {
  const cluster = ctx.cluster();
  const setting = cluster?.flag(key);
  if (!cluster || setting?.value !== false) return;
  ctx.report({
    messageId: 'disabled',
    values: { what, setting: setting.writtenKey },
    range,
    details: `${why}\n\n${settingParagraph(cluster, setting, 'fail', 'query')}`,
    data: data(setting, 'fail'),
  });
}

/** A measured figure over a threshold; `shown` writes the figure (`12 KiB`, `120`). */
function over(
  ctx: Ctx,
  crossing: Crossing | undefined,
  what: string,
  measured: number,
  shown: string,
  range: SourceRange,
  details: string,
  when: 'query' | 'write' = 'write',
): void {
  const cluster = ctx.cluster();
  if (!cluster || !crossing) return;
  const { action, setting } = crossing;
  ctx.report({
    messageId: action === 'fail' ? 'overFails' : 'overWarns',
    values: { what, measured: shown, setting: setting.writtenKey, limit: formatSetting(setting) },
    range,
    details: `${details}\n\n${settingParagraph(cluster, setting, action, when)}`,
    data: data(setting, action, measured),
  });
}

function checkTimestamps(ctx: Ctx, using: StatementOf<'Insert' | 'Update' | 'Delete' | 'Batch'>['using']): void {
  const cluster = ctx.cluster();
  if (!cluster) return;
  for (const u of using) {
    if (u.option !== 'TIMESTAMP') continue;
    disabled(
      ctx,
      'user_timestamps_enabled',
      'USING TIMESTAMP',
      u.range,
      'The client sets the write time of this statement.',
    );
    const v = u.value;
    const literal =
      v.kind === 'Literal' && v.literalKind === 'integer'
        ? Number(v.value)
        : v.kind === 'UnaryExpression' && v.operand.kind === 'Literal'
          ? -Number(v.operand.value)
          : undefined;
    if (literal === undefined || !Number.isFinite(literal)) continue;
    // Microseconds since the epoch against the time of the lint, as the server compares them with its clock.
    const nowMicros = ctx.now() * 1000;
    const aheadMs = (literal - nowMicros) / 1000;
    const behindMs = (nowMicros - literal) / 1000;
    const ahead = cluster.crossing('maximum_timestamp_warn_threshold', 'maximum_timestamp_fail_threshold', aheadMs);
    const behind = cluster.crossing('minimum_timestamp_warn_threshold', 'minimum_timestamp_fail_threshold', behindMs);
    const when = (ms: number): string => `${Math.round(ms / 86_400_000)} days`;
    if (ahead)
      over(
        ctx,
        ahead,
        'USING TIMESTAMP',
        aheadMs,
        `${when(aheadMs)} ahead`,
        u.range,
        'The timestamp is in the future: the write shadows every later write to the same cells until then.',
        'query',
      );
    else if (behind)
      over(
        ctx,
        behind,
        'USING TIMESTAMP',
        behindMs,
        `${when(behindMs)} old`,
        u.range,
        'The timestamp is in the past: newer data wins over this write.',
        'query',
      );
  }
}

/** `l[i] = v`, `l = l - [...]` on a non-frozen list: the server reads the list before it writes. */
function isListColumn(table: TableInfo | undefined, name: string): boolean {
  const type = columnNamed(table, name)?.type;
  return type?.kind === 'CollectionType' && type.collection === 'list';
}

function checkListOps(ctx: Ctx, stmt: StatementOf<'Update' | 'Delete'>, table: TableInfo | undefined): void {
  const ranges: SourceRange[] = [];
  if (stmt.kind === 'Update') {
    for (const a of stmt.assignments) {
      if (
        a.target.kind === 'ElementAccess' &&
        a.target.target.kind === 'ColumnRef' &&
        isListColumn(table, a.target.target.name.name)
      )
        ranges.push(a.range);
      if (
        a.target.kind === 'ColumnRef' &&
        isListColumn(table, a.target.name.name) &&
        (a.operator === '-=' || (a.value.kind === 'BinaryExpression' && a.value.operator === '-'))
      )
        ranges.push(a.range);
    }
  } else {
    for (const s of stmt.selections)
      if (s.kind === 'ElementAccess' && s.target.kind === 'ColumnRef' && isListColumn(table, s.target.name.name))
        ranges.push(s.range);
  }
  for (const range of ranges)
    disabled(
      ctx,
      'read_before_write_list_operations_enabled',
      'a list operation that reads before it writes',
      range,
      'Setting or removing a list element by index, or removing by value, makes the server read the list first.',
    );
}

/** The written values against the collection, column value and SAI term thresholds. */
function checkValues(ctx: Ctx, stmt: Statement, table: TableInfo | undefined): void {
  const cluster = ctx.cluster();
  if (!cluster) return;
  const indexes = table ? ctx.indexesAt(table, stmt.range.start).filter((i) => i.sai) : [];
  for (const { column, value } of writtenValues(stmt)) {
    const info = columnNamed(table, column);
    const items = collectionItems(value);
    const bytes = literalBytes(value);
    if (items !== undefined) {
      over(
        ctx,
        cluster.pair('items_per_collection', items),
        `${column}'s collection`,
        items,
        `${items} items`,
        value.range,
        'Every element of a non-frozen collection is a cell; large collections are read whole.',
      );
      over(
        ctx,
        cluster.pair('collection_size', bytes),
        `${column}'s collection`,
        bytes,
        formatCassandraBytes(bytes),
        value.range,
        'Collections are read whole: keep large ones in rows of their own table.',
      );
    }
    if (info && (info.role === 'regular' || info.role === 'static')) {
      over(
        ctx,
        cluster.pair('column_value_size', bytes),
        `the value of ${column}`,
        bytes,
        formatCassandraBytes(bytes),
        value.range,
        'Large values belong in an object store, with their key in the table.',
      );
    }
    if (!info?.type || !indexes.some((i) => i.column === column)) continue;
    const type = info.type;
    const kind =
      type.kind === 'VectorType'
        ? 'sai_vector_term_size'
        : type.kind === 'FrozenType'
          ? 'sai_frozen_term_size'
          : type.kind === 'NativeType' && /^(text|varchar|ascii)$/i.test(type.name)
            ? 'sai_string_term_size'
            : undefined;
    // A vector literal of floats: 4 bytes per dimension.
    const termBytes = type.kind === 'VectorType' && value.kind === 'ListLiteral' ? value.elements.length * 4 : bytes;
    if (kind)
      over(
        ctx,
        cluster.pair(kind, termBytes),
        `the indexed value of ${column}`,
        termBytes,
        formatCassandraBytes(termBytes),
        value.range,
        `${column} has a storage-attached index: the server checks each term it indexes.`,
      );
  }
}

/** The product of a SELECT's IN lists (IN ? counts as one). */
function checkCartesian(ctx: Ctx, stmt: StatementOf<'Select'>): void {
  let product = 1;
  let lists = 0;
  for (const r of stmt.where) {
    if (r.operator !== 'IN' || !r.inList) continue;
    product *= Math.max(1, r.right.length);
    lists++;
  }
  if (lists < 2) return;
  const cluster = ctx.cluster();
  over(
    ctx,
    cluster?.pair('in_select_cartesian_product', product),
    "the IN lists' cartesian product",
    product,
    String(product),
    stmt.whereRange ?? stmt.range,
    'Each combination of the IN values is a read of its own.',
    'query',
  );
}

/** The literals a batch writes (a single statement batch is not checked: the server checks multi-mutation batches). */
function checkBatchSize(ctx: Ctx, stmt: StatementOf<'Batch'>): void {
  const cluster = ctx.cluster();
  if (!cluster || stmt.statements.length < 2) return;
  let bytes = 0;
  for (const member of stmt.statements) {
    for (const { value } of writtenValues(member)) bytes += literalBytes(value);
    const where = member.kind === 'Insert' ? [] : member.where;
    for (const r of where) for (const e of r.right) bytes += literalBytes(e);
  }
  const crossing = cluster.crossing('batch_size_warn_threshold', 'batch_size_fail_threshold', bytes);
  over(
    ctx,
    crossing,
    'this batch',
    bytes,
    `${formatCassandraBytes(bytes)} of values`,
    { start: stmt.range.start, end: stmt.range.start + 'BEGIN'.length },
    'Counted from the literals the batch writes (bind markers count as nothing, so the batch may weigh more). Batches are for atomicity, not for speed: send the writes on their own.',
    'query',
  );
}

const READS = new Set(['Select']);
const WRITES = new Set(['Insert', 'Update', 'Delete', 'Batch']);

/** cqlsh CONSISTENCY: the levels the team disallows or warns about, for the queries that follow it. */
function checkConsistency(ctx: Ctx, stmt: StatementOf<'ShellCommand'>): void {
  const cluster = ctx.cluster();
  if (!cluster) return;
  const level = stmt.argument.trim().toUpperCase();
  if (!level) return;
  const after = ctx.fileStatements().filter((s) => s.range.start > stmt.range.start);
  for (const [kinds, prefix] of [
    [READS, 'read'],
    [WRITES, 'write'],
  ] as const) {
    if (!after.some((s) => kinds.has(s.kind))) continue;
    for (const [suffix, id, action] of [
      ['disallowed', 'levelDisallowed', 'fail'],
      ['warned', 'levelWarned', 'warn'],
    ] as const) {
      const setting = cluster.list(`${prefix}_consistency_levels_${suffix}`);
      if (!setting?.value?.some((l) => l.toUpperCase() === level)) continue;
      ctx.report({
        messageId: id,
        values: { level, setting: setting.writtenKey },
        range: stmt.range,
        details: settingParagraph(cluster, setting, action, 'query'),
        data: data(setting, action),
      });
      break;
    }
  }
}

function checkPaging(ctx: Ctx, stmt: StatementOf<'ShellCommand'>): void {
  const size = /^\d+$/.test(stmt.argument.trim()) ? Number(stmt.argument.trim()) : undefined;
  const cluster = ctx.cluster();
  if (size === undefined || !cluster) return;
  over(
    ctx,
    cluster.pair('page_size', size),
    'the page size',
    size,
    String(size),
    stmt.range,
    'cqlsh asks for pages of this many rows.',
    'query',
  );
}

/** What a write's checks need, per settings: whether list operations are refused, the smallest size and item thresholds. */
interface WritePlan {
  listOpsRefused: boolean;
  minBytes: number;
  minItems: number;
}
const plans = new WeakMap<ClusterSettings, WritePlan>();
function writePlan(cluster: ClusterSettings): WritePlan {
  let plan = plans.get(cluster);
  if (!plan) {
    const smallest = (names: readonly string[]): number =>
      Math.min(
        ...names
          .flatMap((n) => [cluster.number(`${n}_warn_threshold`)?.value, cluster.number(`${n}_fail_threshold`)?.value])
          .filter((v): v is number => v !== undefined),
      );
    plan = {
      listOpsRefused: cluster.flag('read_before_write_list_operations_enabled')?.value === false,
      minBytes: smallest([
        'column_value_size',
        'collection_size',
        'sai_string_term_size',
        'sai_frozen_term_size',
        'sai_vector_term_size',
      ]),
      minItems: smallest(['items_per_collection']),
    };
    plans.set(cluster, plan);
  }
  return plan;
}

function writeChecks(stmt: StatementOf<'Insert' | 'Update' | 'Delete'>, ctx: Ctx): void {
  const cluster = ctx.cluster();
  if (!cluster) return;
  checkTimestamps(ctx, stmt.using);
  // Most writes are small: the table is looked up only when a check could trip (bulk INSERT scripts).
  const plan = writePlan(cluster);
  const listOps = stmt.kind !== 'Insert' && plan.listOpsRefused;
  if (
    !listOps &&
    !someWrittenValue(
      stmt,
      (value) => (collectionItems(value) ?? 0) > plan.minItems || literalBytes(value) > plan.minBytes,
    )
  )
    return;
  const table = ctx.tableFor(stmt.table, stmt.range.start);
  if (stmt.kind !== 'Insert') checkListOps(ctx, stmt, table);
  checkValues(ctx, stmt, table);
}

export const rule: RuleModule<Id> = {
  meta: {
    id: 'guardrail-statement',
    defaultSeverity: 'warning',
    description:
      "Queries and writes the cluster's own guardrails refuse or warn about (cassandra.yaml, scylla.yaml, or the version's defaults).",
    messages: {
      disabled: '{{what}} fails on this cluster: {{setting}} is false',
      overFails: '{{what}} is {{measured}}, over {{setting}} ({{limit}}): the cluster refuses it',
      overWarns: '{{what}} is {{measured}}, over {{setting}} ({{limit}}): the cluster warns',
      levelDisallowed: 'CONSISTENCY {{level}} is in {{setting}}: the cluster refuses the queries that follow',
      levelWarned: 'CONSISTENCY {{level}} is in {{setting}}: the cluster warns at the queries that follow',
    },
    batchMembers: true,
    scope: 'statement',
  },
  handlers: {
    Select(stmt, ctx) {
      if (stmt.groupByExpressions?.length || stmt.groupBy.length)
        disabled(ctx, 'group_by_enabled', 'GROUP BY', stmt.range, 'The cluster does not allow GROUP BY.');
      checkCartesian(ctx, stmt);
    },
    Insert: writeChecks,
    Update: writeChecks,
    Delete: writeChecks,
    Batch(stmt, ctx) {
      checkTimestamps(ctx, stmt.using);
      checkBatchSize(ctx, stmt);
    },
    ShellCommand(stmt, ctx) {
      if (stmt.command === 'CONSISTENCY') checkConsistency(ctx, stmt);
      if (stmt.command === 'PAGING') checkPaging(ctx, stmt);
    },
  },
};

const table = 'CREATE TABLE ks.t (id int PRIMARY KEY, v text, l list<int>, tags set<text>);\n';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'a small batch on a default node',
      code: `${table}BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (1, 'a'); INSERT INTO ks.t (id, v) VALUES (2, 'b'); APPLY BATCH;`,
    },
    { name: 'a list append reads nothing', code: `${table}UPDATE ks.t SET l = l + [1] WHERE id = 1;` },
  ],
  invalid: [
    {
      name: 'GROUP BY turned off (yaml)',
      code: `${table}SELECT id, count(*) FROM ks.t GROUP BY id;`,
      clusterYaml: 'group_by_enabled: false\n',
      at: 'SELECT',
      messageId: 'disabled',
      data: { setting: 'group_by_enabled', source: 'cluster.yaml:1' },
    },
    {
      name: 'a batch over the 4.0 fail threshold, in 4.0 spelling',
      code: `${table}BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (1, '${'x'.repeat(700)}'); INSERT INTO ks.t (id, v) VALUES (2, '${'y'.repeat(700)}'); APPLY BATCH;`,
      clusterYaml: 'batch_size_fail_threshold_in_kb: 1\n',
      at: 'BEGIN',
      messageId: 'overFails',
      data: { setting: 'batch_size_fail_threshold', source: 'cluster.yaml:1' },
    },
    {
      name: 'a disallowed consistency level (yaml)',
      code: `CONSISTENCY ONE\n${table}SELECT * FROM ks.t WHERE id = 1;`,
      clusterYaml: 'read_consistency_levels_disallowed: [ONE, ANY]\n',
      at: 'CONSISTENCY',
      messageId: 'levelDisallowed',
    },
    {
      name: 'a warned consistency level (yaml)',
      code: `CONSISTENCY ANY\n${table}INSERT INTO ks.t (id) VALUES (1);`,
      clusterYaml: 'write_consistency_levels_warned: [ANY]\n',
      at: 'CONSISTENCY',
      messageId: 'levelWarned',
    },
    {
      name: 'a batch over the default 5 KiB warning',
      code: `${table}BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (1, '${'x'.repeat(3000)}'); INSERT INTO ks.t (id, v) VALUES (2, '${'y'.repeat(3000)}'); APPLY BATCH;`,
      at: 'BEGIN',
      messageId: 'overWarns',
      data: { setting: 'batch_size_warn_threshold', action: 'warn', source: 'Cassandra 5.0 default' },
    },
  ],
};
