// `incomplete-key-write`: writes Cassandra rejects because they do not name a full key: an INSERT
// without every primary key column; an UPDATE without the partition key or (unless it only sets static
// columns) every clustering column; a DELETE without the whole partition key.
import type { RuleContext, MessageIdOf, RuleExamples, RuleModule, StatementOf } from './types';
import { analyseWhere } from '../util/statements';
import type { FindingData } from '../findings/findings-data';
import { columnNamed } from '../schema/model';

/** An INSERT, UPDATE or DELETE, on its own or in a batch. */
function checkWrite(
  stmt: StatementOf<'Insert' | 'Update' | 'Delete'>,
  ctx: RuleContext<'primaryKey' | 'partitionKey'>,
): void {
  const table = ctx.tableFor(stmt.table, stmt.range.start);
  if (!table || table.kind !== 'table' || !table.partitionKey.length) return;
  // Most writes name their whole key: the lists below are made only for a column found missing (a Set, a
  // filter and a map per write were a measurable share of the rule runner's garbage).
  let missing: string[] | undefined;
  const add = (name: string): void => {
    (missing ??= []).push(name);
  };
  if (stmt.kind === 'Insert') {
    if (stmt.json || !stmt.columns.length) return;
    const named = (name: string): boolean => {
      for (const c of stmt.columns) if (c.name === name) return true;
      return false;
    };
    // Setting only static columns needs the partition key alone.
    let staticOnly = false;
    for (const c of stmt.columns) {
      const role = columnNamed(table, c.name)?.role;
      if (role === 'static') staticOnly = true;
      else if (role !== 'partition') {
        staticOnly = false;
        break;
      }
    }
    for (const c of table.partitionKey) if (!named(c.name)) add(c.name);
    if (!staticOnly) for (const c of table.clustering) if (!named(c.name)) add(c.name);
  } else {
    const where = analyseWhere(stmt.where);
    if (where.token) return;
    const eqOrIn = (name: string): boolean => {
      const restrictions = where.byColumn.get(name);
      if (restrictions) for (const r of restrictions) if (r.kind === 'eq' || r.kind === 'in') return true;
      return false;
    };
    for (const c of table.partitionKey) if (!eqOrIn(c.name)) add(c.name);
    if (stmt.kind === 'Update') {
      const staticOnly = stmt.assignments.every((a) => {
        const target =
          a.target.kind === 'ColumnRef'
            ? a.target
            : (a.target.kind === 'ElementAccess' || a.target.kind === 'FieldAccess') &&
                a.target.target.kind === 'ColumnRef'
              ? a.target.target
              : undefined;
        return !!target && columnNamed(table, target.name.name)?.role === 'static';
      });
      if (!staticOnly) for (const c of table.clustering) if (!eqOrIn(c.name)) add(c.name);
    }
  }
  if (!missing) return;
  const verb = stmt.kind.toUpperCase() as Uppercase<typeof stmt.kind>;
  ctx.report({
    messageId: stmt.kind === 'Delete' ? 'partitionKey' : 'primaryKey',
    values: { statement: verb, table: table.qualifiedName, missing: missing.join(', ') },
    range: stmt.kind === 'Insert' ? (stmt.columnsRange ?? stmt.table.range) : (stmt.whereRange ?? stmt.table.range),
    data: {
      table: table.qualifiedName,
      statement: verb,
      missing,
      partitionKey: table.partitionKey.map((c) => c.name),
      clustering: table.clustering.map((c) => c.name),
    } satisfies FindingData<'incomplete-key-write'>,
  });
}

export const rule: RuleModule<'primaryKey' | 'partitionKey'> = {
  meta: {
    id: 'incomplete-key-write',
    defaultSeverity: 'error',
    description: 'An INSERT, UPDATE or DELETE that does not name the full key Cassandra requires.',
    messages: {
      primaryKey: '{{statement}} on {{table}} must name the full primary key; missing {{missing}}',
      partitionKey: '{{statement}} on {{table}} must name the whole partition key; missing {{missing}}',
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

const t = 'CREATE TABLE ks.t (id uuid, c int, s text STATIC, v text, PRIMARY KEY (id, c));\n';
const posts =
  '-- @shard shard = murmur3(title) % 16 + 1\nCREATE TABLE ks.posts (publish_date date, shard int, title text, body text, PRIMARY KEY ((publish_date, shard), title));\n';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    `${t}INSERT INTO ks.t (id, c, v) VALUES (?, ?, ?);`,
    `${t}UPDATE ks.t SET v = ? WHERE id = ? AND c IN (1, 2);`,
    `${t}UPDATE ks.t SET s = ? WHERE id = ?;`,
    `${t}DELETE FROM ks.t WHERE id = ? AND c > 3;`,
    `${t}INSERT INTO ks.t JSON '{"id": "x"}';`,
    { name: 'static columns only', code: `${t}INSERT INTO ks.t (id, s) VALUES (?, ?);` },
  ],
  invalid: [
    {
      code: `${t}INSERT INTO ks.t (id, v) VALUES (?, ?);`,
      at: '(id, v)',
      messageId: 'primaryKey',
      data: { statement: 'INSERT', missing: ['c'] },
    },
    { code: `${t}UPDATE ks.t SET v = ? WHERE id = ?;`, at: 'WHERE', messageId: 'primaryKey', data: { missing: ['c'] } },
    {
      code: `${t}DELETE FROM ks.t WHERE c = 1;`,
      at: 'WHERE',
      messageId: 'partitionKey',
      data: { statement: 'DELETE', missing: ['id'] },
    },
    {
      name: 'a write-sharded table written without the shard: the shard is computed',
      code: `${posts}INSERT INTO ks.posts (publish_date, title, body) VALUES ('2020-07-09', 'Hello', 'Hi');`,
      at: '(publish_date, title, body)',
      messageId: 'primaryKey',
      data: { missing: ['shard'] },
      output: `${posts}INSERT INTO ks.posts (publish_date, title, body, shard) VALUES ('2020-07-09', 'Hello', 'Hi', 9);`,
    },
    {
      name: 'in a batch',
      code: `${t}BEGIN BATCH\n  INSERT INTO ks.t (c, v) VALUES (1, 'x');\nAPPLY BATCH;`,
      at: '(c',
      messageId: 'primaryKey',
      data: { missing: ['id'] },
    },
  ],
};
