// `low-cardinality-index`: a built-in secondary index (CREATE INDEX, not storage-attached) on a column of
// very few values: a boolean, a flag, a status (at most 10 values by the workload model's vocabulary,
// or a distinct= hint). Each value is one row of the index table on every
// node, so each of those rows holds its share of the node's rows (half of them for a boolean): a huge
// index partition, read whole by every query on that value. The Apache docs call an index on an
// extremely low-cardinality column such as a boolean senseless. SAI and other custom indexes are left
// alone; `defaultIndexIsSai` treats a plain CREATE INDEX as SAI (cassandra.yaml default_secondary_index: sai).
import type { CreateIndexStatement } from '../../../grammar/ast';
import { columnNamed } from '../schema/model';
import { profileColumn } from '../schema/columns';
import { formatCount } from '../util/format';
import { ownEntry } from '../util/names';
import type { RuleContext, MessageIdOf, RuleExamples, RuleModule } from './types';
import type { FindingData } from '../findings/findings-data';

// States that an index on an extremely low-cardinality column, such as a boolean, does not make sense.
const INDEX_SOURCE = 'https://cassandra.apache.org/doc/latest/cassandra/developing/cql/indexing/2i/2i-when-to-use.html';
/** At most this many values make a column too few-valued for a built-in index. */
const MAX_VALUES = 10;

function check(ctx: RuleContext<'index' | 'namedIndex'>, stmt: CreateIndexStatement, plainIsSai: boolean): void {
  // SAI (`USING 'sai'`, 'StorageAttachedIndex'), SASI and plug-ins keep no index table per value.
  if (stmt.custom || (stmt.using && !/legacy_local_table/i.test(stmt.using)) || (plainIsSai && !stmt.using)) return;
  const target = stmt.targets[0];
  if (!target || target.indexKind !== 'simple' || stmt.targets.length > 1) return;
  const table = ctx.tableFor(stmt.table, stmt.range.start);
  const column = table ? columnNamed(table, target.column.name) : undefined;
  if (!table || !column || column.role === 'partition') return;
  const profile = profileColumn(column, table, ownEntry(ctx.hints(table)?.columns, column.name)?.distinct);
  if (profile.nature !== 'enum' || profile.distinct === undefined || profile.distinct > MAX_VALUES) return;
  const share =
    profile.distinct <= 2
      ? 'half'
      : `about a ${profile.distinct === 3 ? 'third' : `${formatCount(profile.distinct)}th`}`;
  const name = stmt.name?.name;
  ctx.report({
    messageId: name ? 'namedIndex' : 'index',
    values: {
      ...(name ? { index: name } : {}),
      table: table.qualifiedName,
      column: column.name,
      values: formatCount(profile.distinct),
    },
    details:
      `${name ? `Index ${name}` : 'This index'} on ${table.qualifiedName} (${column.name} ${column.typeText}: ${profile.signal}) indexes a column of ${formatCount(profile.distinct)} values: ` +
      `each value is one row of the index on every node, holding ${share} of that node's rows, so every query on a value reads a huge index partition (${INDEX_SOURCE}).\n\n` +
      `Query a table keyed by ${column.name} with a shard or a time bucket beside it, or use a storage-attached index (CREATE CUSTOM INDEX ... USING 'sai') with a more selective restriction.`,
    range: stmt.range,
    data: {
      table: table.qualifiedName,
      column: column.name,
      ...(name ? { index: name } : {}),
      distinct: profile.distinct,
      signal: profile.signal,
    } satisfies FindingData<'low-cardinality-index'>,
  });
}

export const rule: RuleModule<'index' | 'namedIndex'> = {
  meta: {
    id: 'low-cardinality-index',
    defaultSeverity: 'warning',
    description:
      'A built-in secondary index on a column of very few values (a boolean, a status): each value is one huge index partition.',
    messages: {
      index: 'an index on {{table}}.{{column}}, a column of {{values}} values: each value is a huge index partition',
      namedIndex:
        'index {{index}} on {{table}}.{{column}}, a column of {{values}} values: each value is a huge index partition',
    },
    scope: 'statement',
    options: {
      defaultIndexIsSai: {
        type: 'boolean',
        default: false,
        description:
          'Treat CREATE INDEX without USING as SAI (cassandra.yaml default_secondary_index: sai), which this rule leaves alone.',
      },
    },
  },
  handlers: {
    CreateIndex(stmt, ctx) {
      check(ctx, stmt, ctx.options['defaultIndexIsSai'] === true);
    },
  },
};

const contacts =
  'CREATE TABLE crm.contacts (contact_id uuid PRIMARY KEY, email text, country text, opted_in boolean, status text);';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    { name: 'an index on an email', code: `${contacts}\nCREATE INDEX contacts_by_email ON crm.contacts (email);` },
    {
      name: 'an index on a country (hundreds of values, like the race year of the Apache docs)',
      code: `${contacts}\nCREATE INDEX contacts_by_country ON crm.contacts (country);`,
    },
    {
      name: 'a storage-attached index on a boolean',
      code: `${contacts}\nCREATE CUSTOM INDEX contacts_opted_sai ON crm.contacts (opted_in) USING 'StorageAttachedIndex';`,
    },
    {
      name: "CREATE INDEX ... USING 'StorageAttachedIndex' on a status (KillrVideo v5)",
      code: `${contacts}\nCREATE INDEX contacts_status_idx ON crm.contacts (status) USING 'StorageAttachedIndex';`,
    },
    {
      name: 'plain CREATE INDEX treated as SAI',
      code: `${contacts}\nCREATE INDEX contacts_by_opt_in ON crm.contacts (opted_in);`,
      config: { rules: { 'low-cardinality-index': ['warn', { defaultIndexIsSai: true }] } },
    },
  ],
  invalid: [
    {
      name: 'low-cardinality class: an index on a boolean',
      code: `${contacts}\nCREATE INDEX contacts_by_opt_in ON crm.contacts (opted_in);`,
      at: 'CREATE INDEX',
      messageId: 'namedIndex',
      message:
        /^index contacts_by_opt_in on crm\.contacts\.opted_in, a column of 2 values: each value is a huge index partition Index contacts_by_opt_in on crm\.contacts \(opted_in boolean: boolean type\) indexes a column of 2 values: each value is one row of the index on every node, holding half of that node's rows/,
      data: { column: 'opted_in', distinct: 2, index: 'contacts_by_opt_in' },
    },
    {
      name: 'low-cardinality class: an index on a status, in another file than the table',
      code: 'CREATE INDEX ON crm.contacts (status);',
      at: 'CREATE',
      messageId: 'index',
      files: { 'schema.cql': contacts },
      message:
        /^an index on crm\.contacts\.status, .* This index on crm\.contacts \(status text: name word 'status' \(enum, ~10 values\)\) indexes a column of 10 values.*about a 10th of that node's rows/,
    },
    {
      name: 'low-cardinality class: a hint says the segment has 3 values',
      code: `${contacts.replace('status text', 'segment_code text')}\nCREATE INDEX ON crm.contacts (segment_code);`,
      at: 'CREATE INDEX',
      messageId: 'index',
      config: { tables: { 'crm.contacts': { columns: { segment_code: { distinct: 3 } } } } },
      data: { distinct: 3 },
    },
  ],
};
