// `lwt-hot-partition`: a lightweight transaction (INSERT ... IF NOT EXISTS, UPDATE/DELETE ... IF) on a
// partition that takes many of them: the statement pins every partition-key column with a literal (one
// fixed partition, such as a global sequence row), or the table's key is hot by the workload model (a
// time bucket alone, a few-valued key, a shard alone). Each LWT runs Paxos (four round trips between the
// replicas) and conditional writes to one partition serialise: concurrent ones contend, retry and time
// out. Cassandra and ScyllaDB (Paxos-based LWT); reported at the statement.
import type { DeleteStatement, InsertStatement, Statement, UpdateStatement } from '../../../grammar/ast';
import { tableWorkload } from '../schema/workload';
import { formatCount } from '../util/format';
import type { RuleContext, MessageIdOf, RuleExamples, RuleModule } from './types';
import type { FindingData } from '../findings/findings-data';
import { bindsValues } from '../schema/references';

// States that an LWT takes four round trips between the proposer and the replicas, and blocks other LWTs.
const LWT_SOURCE =
  'https://docs.datastax.com/en/hyper-converged-database/1.2/architecture/database-internals/lightweight-transactions.html';
const HOT_SHAPES = new Set(['time-bucket', 'few', 'shard-only']);

type Conditional = InsertStatement | UpdateStatement | DeleteStatement;

function isConditional(stmt: Statement): stmt is Conditional {
  if (stmt.kind === 'Insert') return stmt.ifNotExists;
  return (stmt.kind === 'Update' || stmt.kind === 'Delete') && (stmt.ifExists || stmt.conditions.length > 0);
}

/** The literal value each partition-key column is pinned to by the statement, when all of them are. */
function fixedPartition(stmt: Conditional, partitionKey: readonly string[]): string[] | undefined {
  const valueOf = (column: string): string | undefined => {
    if (stmt.kind === 'Insert') {
      const i = stmt.columns.findIndex((c) => c.name === column);
      const v = i >= 0 ? stmt.values[i] : undefined;
      return v?.kind === 'Literal' && v.literalKind !== 'null' ? v.value : undefined;
    }
    const r = stmt.where.find((x) => x.operator === '=' && x.left.kind === 'ColumnRef' && x.left.name.name === column);
    const v = r?.right[0];
    return v?.kind === 'Literal' && v.literalKind !== 'null' ? v.value : undefined;
  };
  const values = partitionKey.map(valueOf);
  return values.every((v) => v !== undefined) ? (values as string[]) : undefined;
}

function checkWrite(stmt: Statement, ctx: RuleContext<'contention'>): void {
  if (isConditional(stmt)) check(ctx, stmt);
}

function check(ctx: RuleContext<'contention'>, stmt: Conditional): void {
  if (!ctx.target.paxosLwt) return;
  const table = ctx.tableFor(stmt.table, stmt.range.start);
  if (!table) return;
  const pk = table.partitionKey.map((c) => c.name);
  if (!pk.length) return;
  // Literal keys are a fixed partition in application code (a statement that binds its other values);
  // in an example or a script every value is a literal and says nothing of the traffic.
  const values = bindsValues(stmt) ? fixedPartition(stmt, pk) : undefined;
  const w = values ? undefined : tableWorkload(table, ctx.hints(table), ctx.referencesTo(table));
  if (!values && !(w && HOT_SHAPES.has(w.keyShape))) return;
  const kind = stmt.kind === 'Insert' ? 'INSERT' : stmt.kind === 'Update' ? 'UPDATE' : 'DELETE';
  const where = values
    ? `the one partition ${pk.map((k, i) => `${k} = '${values[i]}'`).join(' AND ')}, which every run of it pins`
    : `a partition of ${table.qualifiedName}, whose key sends its writes to ${w!.livePartitions !== undefined && Number.isFinite(w!.livePartitions) ? `at most ${formatCount(w!.livePartitions)}` : 'a few'} partitions (${w!.partitionKey.map((p) => `${p.name}: ${p.signal}`).join('; ')})`;
  ctx.report({
    messageId: 'contention',
    values: { table: table.qualifiedName },
    details:
      `This ${kind} ... IF runs Paxos (four round trips between the replicas, ${LWT_SOURCE}) on ${where}. ` +
      'Conditional writes to one partition serialise: concurrent ones contend, retry and time out.\n\n' +
      'Key the transactions by what they protect (one partition per item), or avoid the shared row (timeuuid or uuid ids instead of a counter row, ranges of ids handed out per client).',
    range: stmt.table.range,
    data: {
      table: table.qualifiedName,
      statement: kind,
      reason: values ? 'fixed-partition' : 'few-partitions',
      partitionKey: pk,
      ...(values ? { values } : {}),
      ...(w?.livePartitions !== undefined && Number.isFinite(w.livePartitions)
        ? { livePartitions: w.livePartitions }
        : {}),
    } satisfies FindingData<'lwt-hot-partition'>,
  });
}

export const rule: RuleModule<'contention'> = {
  meta: {
    id: 'lwt-hot-partition',
    defaultSeverity: 'warning',
    description:
      'A lightweight transaction (IF NOT EXISTS, IF ...) on a partition many of them share: Paxos rounds on one partition serialise and contend.',
    messages: {
      contention:
        'lightweight transaction on a hot partition of {{table}}: concurrent ones contend, retry and time out',
    },
    scope: 'statement',
    batchMembers: true,
  },
  handlers: {
    Insert: checkWrite,
    Update: checkWrite,
    Delete: checkWrite,
  },
};

const sequences = 'CREATE TABLE ids.sequences (name text PRIMARY KEY, next_id bigint);';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'one partition per user: no contention',
      code: 'CREATE TABLE accounts.users_by_email (email text PRIMARY KEY, user_id uuid);\nINSERT INTO accounts.users_by_email (email, user_id) VALUES (?, ?) IF NOT EXISTS;',
    },
    {
      name: 'a literal key without a condition is an ordinary write',
      code: `${sequences}\nUPDATE ids.sequences SET next_id = ? WHERE name = 'order';`,
    },
    {
      name: 'a bound key of a spread table',
      code: `${sequences}\nUPDATE ids.sequences SET next_id = ? WHERE name = ? IF next_id = ?;`,
    },
    {
      name: 'an example with literal values only (documentation, a script) is no fixed partition',
      code: `${sequences}\nUPDATE ids.sequences SET next_id = 42 WHERE name = 'order' IF next_id = 41;`,
    },
    {
      name: 'Keyspaces does not run Paxos',
      code: `${sequences}\nUPDATE ids.sequences SET next_id = ? WHERE name = 'order' IF next_id = ?;`,
      target: 'keyspaces',
    },
  ],
  invalid: [
    {
      name: 'LWT class: a global id sequence on one fixed partition',
      code: `${sequences}\nUPDATE ids.sequences SET next_id = ? WHERE name = 'order' IF next_id = ?;`,
      at: 'ids.sequences SET',
      message:
        /^lightweight transaction on a hot partition of [\w.]+: .* This UPDATE \.\.\. IF runs Paxos .* on the one partition name = 'order', which every run of it pins/,
      data: { reason: 'fixed-partition', values: ['order'], statement: 'UPDATE' },
    },
    {
      name: 'LWT class: IF NOT EXISTS on a day-keyed booking table',
      code: 'CREATE TABLE booking.slots_by_day (day date, slot_time timestamp, booked_by uuid, PRIMARY KEY (day, slot_time));\nINSERT INTO booking.slots_by_day (day, slot_time, booked_by) VALUES (?, ?, ?) IF NOT EXISTS;',
      at: 'booking.slots_by_day (day,',
      message: /whose key sends its writes to at most 1 partitions \(day: date type\)/,
      data: { reason: 'few-partitions', statement: 'INSERT' },
    },
    {
      name: 'LWT class: a conditional delete in a batch on a status-keyed table defined in another file, ScyllaDB',
      code: 'BEGIN BATCH\n  DELETE FROM shop.orders_by_status WHERE status = ? AND order_id = ? IF EXISTS;\nAPPLY BATCH;',
      at: 'shop.orders_by_status',
      files: {
        'schema.cql':
          'CREATE TABLE shop.orders_by_status (status text, order_id uuid, total decimal, PRIMARY KEY (status, order_id));',
      },
      target: 'scylladb',
      message: /This DELETE \.\.\. IF runs Paxos.*at most 10 partitions \(status: name word 'status'/,
      data: { reason: 'few-partitions', livePartitions: 10 },
    },
  ],
};
