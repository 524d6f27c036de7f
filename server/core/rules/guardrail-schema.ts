// `guardrail-schema`: DDL the cluster's own settings refuse or warn about when it runs: features a
// cassandra.yaml turns off (materialized views, SASI, user-defined functions, DROP COMPACT STORAGE,
// secondary indexes, ALTER/DROP/TRUNCATE...), counts over a guardrail's threshold (keyspaces, tables,
// columns, indexes and views per table, UDT fields, vector dimensions), replication factors outside the
// allowed range and table properties the team warns about, ignores or disallows. Values come from the
// team's yaml (.cqlint.json `cluster.config`, `--cluster-config`), else from the version's defaults
// (server/core/cluster/catalogue.ts); docs/guardrails.md lists every one.
import type { CqlType, Expression, SourceRange, Statement } from '../../../grammar/ast';
import type { ClusterSettings, Crossing, SettingValue } from '../cluster';
import { formatSetting } from '../cluster';
import { mapLiteralStrings } from '../schema/definitions';
import type { FindingData } from '../findings/findings-data';
import { settingParagraph } from './guardrail-text';
import type { MessageIdOf, RuleContext, RuleExamples, RuleModule, StatementOf } from './types';

type Id =
  | 'disabled'
  | 'countFails'
  | 'countWarns'
  | 'replicationFails'
  | 'replicationWarns'
  | 'propertyDisallowed'
  | 'propertyWarned'
  | 'propertyIgnored'
  | 'zeroTtlFails'
  | 'zeroTtlWarns';
type Ctx = RuleContext<Id>;

function data(
  setting: SettingValue,
  action: 'fail' | 'warn' | 'ignore',
  measured?: number,
): FindingData<'guardrail-schema'> {
  return {
    setting: setting.key,
    action,
    value: formatSetting(setting),
    source: setting.source,
    ...(measured !== undefined ? { measured } : {}),
  };
}

/** A feature flag that is false: the statement fails. */
function disabled(ctx: Ctx, key: string, statement: string, range: SourceRange, why: string): void {
  const cluster = ctx.cluster();
  const setting = cluster?.flag(key);
  if (!cluster || !setting || setting.value !== false) return;
  ctx.report({
    messageId: 'disabled',
    values: { statement, setting: setting.writtenKey },
    range,
    details: `${why}\n\n${settingParagraph(cluster, setting, 'fail', 'DDL')}`,
    data: data(setting, 'fail'),
  });
}

/** A count against a `<name>_warn/fail_threshold` pair. */
function count(
  ctx: Ctx,
  name: string,
  measured: number,
  subject: string,
  things: string,
  range: SourceRange,
  cure: string,
): void {
  const cluster = ctx.cluster();
  const crossing = cluster?.pair(name, measured);
  if (!cluster || !crossing) return;
  reportCount(ctx, cluster, crossing, measured, subject, things, range, cure);
}

function reportCount(
  ctx: Ctx,
  cluster: ClusterSettings,
  crossing: Crossing,
  measured: number,
  subject: string,
  things: string,
  range: SourceRange,
  cure: string,
): void {
  const { action, setting } = crossing;
  ctx.report({
    messageId: action === 'fail' ? 'countFails' : 'countWarns',
    values: { subject, count: String(measured), things, setting: setting.writtenKey, limit: formatSetting(setting) },
    range,
    details: `${settingParagraph(cluster, setting, action, 'DDL')}\n\n${cure}`,
    data: data(setting, action, measured),
  });
}

/** Vector columns of a type, at any depth. */
function vectorDimensions(type: CqlType): number[] {
  switch (type.kind) {
    case 'VectorType':
      return [type.dimension, ...vectorDimensions(type.elementType)];
    case 'FrozenType':
      return vectorDimensions(type.inner);
    case 'CollectionType':
    case 'TupleType':
      return type.elementTypes.flatMap(vectorDimensions);
    default:
      return [];
  }
}

function checkColumnTypes(
  ctx: Ctx,
  columns: readonly { name: { text: string }; type: CqlType; range: SourceRange }[],
): void {
  for (const column of columns) {
    const dims = vectorDimensions(column.type);
    if (!dims.length) continue;
    disabled(
      ctx,
      'vector_type_enabled',
      'a vector column',
      column.type.range,
      `Column ${column.name.text} is a vector.`,
    );
    count(
      ctx,
      'vector_dimensions',
      Math.max(...dims),
      `column ${column.name.text}`,
      'dimensions',
      column.type.range,
      'Use fewer dimensions (a smaller embedding model), or raise the threshold.',
    );
  }
}

/** `WITH prop = ...` names, lower-cased, and `compression = {'enabled': 'false'}`. */
function checkTableProperties(
  ctx: Ctx,
  properties: readonly { name: { name: string }; value: Expression; range: SourceRange }[],
  statement: string,
): void {
  const cluster = ctx.cluster();
  if (!cluster) return;
  for (const prop of properties) {
    const name = prop.name.name.toLowerCase();
    for (const [key, id, action] of [
      ['table_properties_disallowed', 'propertyDisallowed', 'fail'],
      ['table_properties_ignored', 'propertyIgnored', 'ignore'],
      ['table_properties_warned', 'propertyWarned', 'warn'],
    ] as const) {
      const setting = cluster.list(key);
      if (!setting?.value?.some((p) => p.toLowerCase() === name)) continue;
      ctx.report({
        messageId: id,
        values: { property: name, statement, setting: setting.writtenKey },
        range: prop.range,
        details: settingParagraph(cluster, setting, action, 'DDL'),
        data: data(setting, action),
      });
      break;
    }
    if (name === 'compression') {
      const options = mapLiteralStrings(prop.value);
      if (options['enabled']?.toLowerCase() === 'false' || options['chunk_length_in_kb'] === '0') {
        disabled(
          ctx,
          'uncompressed_tables_enabled',
          `an uncompressed ${statement === 'CREATE TABLE' ? 'table' : 'ALTER TABLE'}`,
          prop.range,
          'This table turns compression off.',
        );
      }
    }
  }
}

/** A TWCS table without a default TTL (zero_ttl_on_twcs_enabled / _warned). */
function checkTwcs(
  ctx: Ctx,
  properties: readonly { name: { name: string }; value: Expression }[],
  table: string,
  range: SourceRange,
): void {
  const cluster = ctx.cluster();
  if (!cluster) return;
  const compaction = properties.find((p) => p.name.name.toLowerCase() === 'compaction');
  const cls = compaction ? (mapLiteralStrings(compaction.value)['class'] ?? '') : '';
  if (!/TimeWindowCompactionStrategy$/i.test(cls)) return;
  const ttl = properties.find((p) => p.name.name.toLowerCase() === 'default_time_to_live');
  if (ttl && ttl.value.kind === 'Literal' && Number(ttl.value.value) > 0) return;
  const why = `${table} uses TimeWindowCompactionStrategy with default_time_to_live 0: its SSTables expire only if every write sets a TTL.`;
  const enabled = cluster.flag('zero_ttl_on_twcs_enabled');
  if (enabled?.value === false) {
    ctx.report({
      messageId: 'zeroTtlFails',
      values: { table, setting: enabled.writtenKey },
      range,
      details: `${why}\n\n${settingParagraph(cluster, enabled, 'fail', 'DDL')}`,
      data: data(enabled, 'fail'),
    });
    return;
  }
  const warned = cluster.flag('zero_ttl_on_twcs_warned');
  if (warned?.value === true) {
    ctx.report({
      messageId: 'zeroTtlWarns',
      values: { table, setting: warned.writtenKey },
      range,
      details: `${why}\n\n${settingParagraph(cluster, warned, 'warn', 'DDL')}\n\nSet default_time_to_live to the data's lifetime.`,
      data: data(warned, 'warn'),
    });
  }
}

/** Replication: RF per datacenter against the minimum/maximum guardrails; `n/t` needs transient replication. */
function checkReplication(ctx: Ctx, stmt: StatementOf<'CreateKeyspace' | 'AlterKeyspace'>): void {
  const cluster = ctx.cluster();
  const prop = stmt.properties.find((p) => p.name.name.toLowerCase() === 'replication');
  if (!cluster || !prop) return;
  const replication = mapLiteralStrings(prop.value);
  for (const [dc, value] of Object.entries(replication)) {
    if (dc === 'class') continue;
    const transient = /^\s*\d+\s*\/\s*\d+\s*$/.test(value);
    if (transient)
      disabled(
        ctx,
        'transient_replication_enabled',
        'transient replication',
        prop.value.range,
        `Keyspace ${stmt.name.text} replicates ${dc} as '${value}' (transient replicas).`,
      );
    const rf = Number.parseInt(value, 10);
    // RF 0 means "not in this datacenter" and is always allowed.
    if (!Number.isFinite(rf) || rf <= 0) continue;
    const where = dc === 'replication_factor' ? 'the keyspace' : dc;
    const crossing =
      cluster.pair('minimum_replication_factor', rf, 'below') ?? cluster.pair('maximum_replication_factor', rf);
    if (!crossing) continue;
    ctx.report({
      messageId: crossing.action === 'fail' ? 'replicationFails' : 'replicationWarns',
      values: {
        rf: String(rf),
        dc: where,
        setting: crossing.setting.writtenKey,
        limit: formatSetting(crossing.setting),
      },
      range: prop.value.range,
      details: settingParagraph(cluster, crossing.setting, crossing.action, 'DDL'),
      data: data(crossing.setting, crossing.action, rf),
    });
  }
}

type Placed = { filePath: string; range: SourceRange };
const byPlace = (a: Placed, b: Placed): number =>
  a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.range.start - b.range.start;

/**
 * The first definition of each name, in file then offset order, once per list (the model's lists are the
 * same arrays while the schema is): the cluster counts the n-th CREATE as its n-th keyspace or table.
 */
const firstDefinitions = new WeakMap<readonly Placed[], readonly Placed[]>();
function firstsOf<T extends Placed>(all: readonly T[], name: (d: T) => string | undefined): readonly Placed[] {
  let firsts = firstDefinitions.get(all);
  if (!firsts) {
    const seen = new Set<string>();
    firsts = all
      .filter((d) => name(d) !== undefined)
      .sort(byPlace)
      .filter((d) => !seen.has(name(d)!) && !!seen.add(name(d)!));
    firstDefinitions.set(all, firsts);
  }
  return firsts;
}

/** How many of `firsts` come at or before (filePath, offset): a binary search. */
function positionOf(firsts: readonly Placed[], filePath: string, offset: number): number {
  const at: Placed = { filePath, range: { start: offset, end: offset } };
  let lo = 0;
  let hi = firsts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byPlace(firsts[mid]!, at) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function hasPair(cluster: ClusterSettings, name: string): boolean {
  return (
    cluster.number(`${name}_warn_threshold`)?.value !== undefined ||
    cluster.number(`${name}_fail_threshold`)?.value !== undefined
  );
}

function keyspaceCount(ctx: Ctx, stmt: Statement): void {
  const cluster = ctx.cluster();
  if (!cluster || !hasPair(cluster, 'keyspaces')) return;
  const n = positionOf(
    firstsOf(ctx.workspaceDefinitions().keyspaces, (k) => k.name),
    ctx.filePath,
    stmt.range.start,
  );
  count(
    ctx,
    'keyspaces',
    n,
    'the workspace',
    'keyspaces with this one',
    stmt.range,
    'The count is of the keyspaces this workspace defines (in file order); the cluster may hold more, and counts only user keyspaces.',
  );
}

function tableCount(ctx: Ctx, stmt: Statement): void {
  const cluster = ctx.cluster();
  if (!cluster || !hasPair(cluster, 'tables')) return;
  // One per name (views aside): a table defined in several files (migrations, docs) is one table on the cluster.
  const n = positionOf(
    firstsOf(ctx.workspaceDefinitions().tables, (t) => (t.kind === 'table' ? t.qualifiedName : undefined)),
    ctx.filePath,
    stmt.range.start,
  );
  count(
    ctx,
    'tables',
    n,
    'the workspace',
    'tables with this one',
    stmt.range,
    'The count is of the tables this workspace defines (in file order); the cluster may hold more.',
  );
}

export const rule: RuleModule<Id> = {
  meta: {
    id: 'guardrail-schema',
    defaultSeverity: 'warning',
    description:
      "DDL the cluster's own guardrails refuse or warn about (cassandra.yaml, scylla.yaml, or the version's defaults).",
    messages: {
      disabled: '{{statement}} fails on this cluster: {{setting}} is false',
      countFails: '{{subject}} has {{count}} {{things}}, over {{setting}} ({{limit}}): the cluster refuses it',
      countWarns: '{{subject}} has {{count}} {{things}}, over {{setting}} ({{limit}}): the cluster warns',
      replicationFails: 'replication factor {{rf}} in {{dc}} breaks {{setting}} ({{limit}}): the cluster refuses it',
      replicationWarns: 'replication factor {{rf}} in {{dc}} breaks {{setting}} ({{limit}}): the cluster warns',
      propertyDisallowed: 'table property {{property}} is in {{setting}}: the cluster refuses this {{statement}}',
      propertyWarned: 'table property {{property}} is in {{setting}}: the cluster warns at this {{statement}}',
      propertyIgnored: 'table property {{property}} is in {{setting}}: the cluster drops it silently',
      zeroTtlFails: 'TWCS table {{table}} has no default TTL: the cluster refuses it ({{setting}})',
      zeroTtlWarns: 'TWCS table {{table}} has no default TTL: the cluster warns ({{setting}})',
    },
    scope: 'statement',
  },
  handlers: {
    CreateKeyspace(stmt, ctx) {
      checkReplication(ctx, stmt);
      keyspaceCount(ctx, stmt);
    },
    AlterKeyspace(stmt, ctx) {
      checkReplication(ctx, stmt);
    },
    DropKeyspace(stmt, ctx) {
      disabled(ctx, 'drop_keyspace_enabled', 'DROP KEYSPACE', stmt.range, `This drops keyspace ${stmt.name.text}.`);
    },
    CreateTable(stmt, ctx) {
      const table = ctx.definedBy(stmt);
      const name = table?.qualifiedName ?? stmt.name.name.name;
      if (stmt.options?.compactStorage)
        disabled(
          ctx,
          'compact_tables_enabled',
          'WITH COMPACT STORAGE',
          stmt.options.range,
          `${name} is created with COMPACT STORAGE.`,
        );
      checkColumnTypes(ctx, stmt.columns);
      checkTableProperties(ctx, stmt.options?.properties ?? [], 'CREATE TABLE');
      checkTwcs(ctx, stmt.options?.properties ?? [], name, stmt.name.range);
      count(
        ctx,
        'columns_per_table',
        stmt.columns.length,
        name,
        'columns',
        stmt.name.range,
        'Split the table, or keep rarely read fields in a map or a frozen UDT.',
      );
      tableCount(ctx, stmt);
    },
    AlterTable(stmt, ctx) {
      const action = stmt.action;
      if (action.kind === 'DropCompactStorage') {
        disabled(
          ctx,
          'drop_compact_storage_enabled',
          'ALTER TABLE ... DROP COMPACT STORAGE',
          action.range,
          'Dropping COMPACT STORAGE is experimental in Cassandra 4.0 and later.',
        );
        return;
      }
      if (action.kind === 'AddColumns' || action.kind === 'DropColumns' || action.kind === 'RenameColumns') {
        disabled(
          ctx,
          'alter_table_enabled',
          'ALTER TABLE',
          action.range,
          `This changes the columns of ${stmt.name.name.name}.`,
        );
      }
      if (action.kind === 'AddColumns') {
        checkColumnTypes(ctx, action.columns);
        const table = ctx.tableFor(stmt.name, stmt.range.start);
        if (table) {
          const columns = new Set([
            ...ctx.latest(table).columns.map((c) => c.name),
            ...action.columns.map((c) => c.name.name),
          ]).size;
          count(
            ctx,
            'columns_per_table',
            columns,
            table.qualifiedName,
            'columns with this ALTER',
            action.range,
            'Split the table, or keep rarely read fields in a map or a frozen UDT.',
          );
        }
      }
      if (action.kind === 'WithOptions') checkTableProperties(ctx, action.options.properties, 'ALTER TABLE');
    },
    DropTable(stmt, ctx) {
      disabled(ctx, 'drop_truncate_table_enabled', 'DROP TABLE', stmt.range, `This drops ${stmt.name.name.name}.`);
    },
    Truncate(stmt, ctx) {
      disabled(ctx, 'drop_truncate_table_enabled', 'TRUNCATE', stmt.range, `This truncates ${stmt.name.name.name}.`);
    },
    CreateType(stmt, ctx) {
      checkColumnTypes(
        ctx,
        stmt.fields.map((f) => ({ name: f.name, type: f.type, range: f.range })),
      );
      count(
        ctx,
        'fields_per_udt',
        stmt.fields.length,
        `type ${stmt.name.name.name}`,
        'fields',
        stmt.name.range,
        'Split the type, or nest related fields in a second type.',
      );
    },
    AlterType(stmt, ctx) {
      if (stmt.action.kind !== 'AddField') return;
      const type = ctx.userType(stmt.name.keyspace?.name ?? ctx.keyspaceAt(stmt.range.start), stmt.name.name.name, {
        filePath: ctx.filePath,
        offset: stmt.range.start,
      });
      if (type)
        count(
          ctx,
          'fields_per_udt',
          new Set([...type.fields.map((f) => f.name), stmt.action.field.name.name]).size,
          `type ${type.qualifiedName}`,
          'fields with this ALTER',
          stmt.action.range,
          'Split the type, or nest related fields in a second type.',
        );
    },
    CreateIndex(stmt, ctx) {
      const sasi = !!stmt.using && /sasi/i.test(stmt.using);
      if (sasi)
        disabled(
          ctx,
          'sasi_indexes_enabled',
          'a SASI index',
          stmt.range,
          "SASI indexes are experimental and off by default since Cassandra 4.0; a storage-attached index (USING 'sai', Cassandra 5.0) serves the same queries.",
        );
      disabled(
        ctx,
        'secondary_indexes_enabled',
        'CREATE INDEX',
        stmt.range,
        'The cluster does not allow secondary indexes.',
      );
      const table = ctx.tableFor(stmt.table, stmt.range.start);
      if (table)
        count(
          ctx,
          'secondary_indexes_per_table',
          ctx.indexesAt(table, stmt.range.end).length,
          table.qualifiedName,
          'indexes with this one',
          stmt.range,
          'Serve the query with a table keyed by what it filters on instead of another index.',
        );
    },
    CreateMaterializedView(stmt, ctx) {
      disabled(
        ctx,
        'materialized_views_enabled',
        'CREATE MATERIALIZED VIEW',
        stmt.range,
        'Materialized views are experimental and off by default since Cassandra 4.0: write a second table from the application (a logged batch keeps the two in step).',
      );
      const base = ctx.tableFor(stmt.from, stmt.range.start);
      const cluster = ctx.cluster();
      if (!base || !cluster || !hasPair(cluster, 'materialized_views_per_table')) return;
      const n = new Set(
        ctx
          .viewsOf(base)
          .filter((v) => v.filePath !== ctx.filePath || v.range.start <= stmt.range.start)
          .map((v) => v.qualifiedName),
      ).size;
      count(
        ctx,
        'materialized_views_per_table',
        n,
        base.qualifiedName,
        'views with this one',
        stmt.range,
        'Every view adds a write to each write of the base table.',
      );
    },
    CreateFunction(stmt, ctx) {
      disabled(
        ctx,
        'user_defined_functions_enabled',
        'CREATE FUNCTION',
        stmt.range,
        'User-defined functions are off by default (they run code inside the server).',
      );
    },
  },
};

const nts = "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n";
const table = 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);\n';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    { name: 'a table and an index on a default 5.0 node', code: `${nts}${table}CREATE INDEX ON ks.t (v) USING 'sai';` },
    {
      name: 'views where the team enabled them',
      code: `${table}CREATE MATERIALIZED VIEW ks.by_v AS SELECT * FROM ks.t WHERE v IS NOT NULL AND id IS NOT NULL PRIMARY KEY (v, id);`,
      config: { cluster: { version: '4.0' } },
      target: 'keyspaces',
    },
  ],
  invalid: [
    {
      name: 'a view on a default node',
      code: `${table}CREATE MATERIALIZED VIEW ks.by_v AS SELECT * FROM ks.t WHERE v IS NOT NULL AND id IS NOT NULL PRIMARY KEY (v, id);`,
      at: 'CREATE MATERIALIZED',
      messageId: 'disabled',
      data: { setting: 'materialized_views_enabled', action: 'fail', source: 'Cassandra 5.0 default' },
    },
    {
      name: 'too many columns (yaml)',
      code: 'CREATE TABLE ks.w (id int PRIMARY KEY, a int, b int);',
      clusterYaml: 'columns_per_table_fail_threshold: 2\n',
      at: 'ks.w',
      messageId: 'countFails',
      data: { setting: 'columns_per_table_fail_threshold', source: 'cluster.yaml:1', measured: 3 },
    },
    {
      name: 'many columns, warned (yaml)',
      code: 'CREATE TABLE ks.w (id int PRIMARY KEY, a int, b int);',
      clusterYaml: 'columns_per_table_warn_threshold: 2\n',
      at: 'ks.w',
      messageId: 'countWarns',
    },
    {
      name: 'RF under the minimum (yaml)',
      code: "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 1};",
      clusterYaml: 'minimum_replication_factor_fail_threshold: 2\n',
      at: '{',
      messageId: 'replicationFails',
      message: /dc1/,
    },
    {
      name: 'RF over the warned maximum (yaml)',
      code: "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 7};",
      clusterYaml: 'maximum_replication_factor_warn_threshold: 5\n',
      at: '{',
      messageId: 'replicationWarns',
    },
    {
      name: 'a disallowed property (yaml)',
      code: 'CREATE TABLE ks.w (id int PRIMARY KEY) WITH gc_grace_seconds = 0;',
      clusterYaml: 'table_properties_disallowed: [gc_grace_seconds]\n',
      at: 'gc_grace',
      messageId: 'propertyDisallowed',
    },
    {
      name: 'a warned property (yaml)',
      code: "CREATE TABLE ks.w (id int PRIMARY KEY) WITH comment = 'x';",
      clusterYaml: 'table_properties_warned:\n  - comment\n',
      at: 'comment',
      messageId: 'propertyWarned',
    },
    {
      name: 'an ignored property (yaml)',
      code: "CREATE TABLE ks.w (id int PRIMARY KEY) WITH comment = 'x';",
      clusterYaml: 'table_properties_ignored: [comment]\n',
      at: 'comment',
      messageId: 'propertyIgnored',
    },
    {
      name: 'TWCS without a TTL, refused (yaml)',
      code: "CREATE TABLE ks.w (id int PRIMARY KEY) WITH compaction = {'class': 'TimeWindowCompactionStrategy'};",
      clusterYaml: 'zero_ttl_on_twcs_enabled: false\n',
      at: 'ks.w',
      messageId: 'zeroTtlFails',
    },
    {
      name: 'TWCS without a TTL on a default 5.0 node',
      code: "CREATE TABLE ks.w (id int PRIMARY KEY) WITH compaction = {'class': 'TimeWindowCompactionStrategy'};",
      at: 'ks.w',
      messageId: 'zeroTtlWarns',
      data: { setting: 'zero_ttl_on_twcs_warned', source: 'Cassandra 5.0 default' },
    },
    {
      name: 'UDFs on a 4.0 node, named the 4.0 way',
      code: "CREATE FUNCTION ks.f (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return a;';",
      at: 'CREATE FUNCTION',
      messageId: 'disabled',
      config: { cluster: { version: '4.0' } },
      message: /user_defined_functions_enabled/,
    },
  ],
};
