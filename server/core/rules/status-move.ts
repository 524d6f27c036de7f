// `status-move`: rows that move between partitions of a status-like key column (schema/workload.ts
// Consumption): the workspace deletes a row from one partition of the table and inserts it into another,
// in one BATCH, or with two different literal values of a status column ('open' → 'closed'). Each move
// leaves a tombstone in the partition the row leaves, so the partition that rows pass through (the
// 'open' one) fills with tombstones its readers must scan, and the final state's partition only grows.
// Cassandra and ScyllaDB only (Keyspaces and Cosmos DB manage tombstones themselves).
import { tableWorkload } from '../schema/workload';
import { CASSANDRA_TOMBSTONES } from '../partition/targets';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { withLatestCreatedTable } from './defined-tables';
import type { FindingData } from '../findings/findings-data';

export const rule: RuleModule<'statusMove'> = {
  meta: {
    id: 'status-move',
    defaultSeverity: 'warning',
    description:
      'Rows moved between status partitions (deleted from one, inserted into another): every move leaves a tombstone in the partition readers scan.',
    messages: {
      statusMove: 'rows of {{table}} move between {{column}} partitions, leaving a tombstone at each move',
    },
    scope: 'statement',
  },
  handlers: {
    CreateTable: withLatestCreatedTable(true, (stmt, table, ctx) => {
      if (!ctx.target.compactionChoice) return;
      const w = tableWorkload(table, ctx.hints(table), ctx.referencesTo(table));
      if (w.consumption?.kind !== 'status-move') return;
      const { column, from, to, delete: del, insert } = w.consumption;
      const inBatch = del.batch !== undefined && del.batch === insert.batch;
      const move =
        from !== undefined && to !== undefined
          ? `from ${column} = '${from}' to '${to}'`
          : `from one ${column} partition to another`;
      ctx.report({
        messageId: 'statusMove',
        values: { table: table.qualifiedName, column },
        details:
          `A DELETE and an INSERT${inBatch ? ' in one BATCH' : ''} move a row ${move}. ` +
          `Each move leaves a tombstone in the partition the row leaves (${CASSANDRA_TOMBSTONES}), so the partition rows pass through fills with tombstones its readers scan, ` +
          `and the final ${column}'s partition only grows.\n\nKeep ${column} a regular column of a table keyed by the item and update it in place; ` +
          `list items by ${column} from a table bucketed by time (or an index), where rows are written once.`,
        range: stmt.name.range,
        data: {
          table: table.qualifiedName,
          column,
          ...(from !== undefined ? { from } : {}),
          ...(to !== undefined ? { to } : {}),
          inBatch,
          deleteFile: del.file,
          deleteRange: del.range,
          insertFile: insert.file,
          insertRange: insert.range,
        } satisfies FindingData<'status-move'>,
      });
    }),
  },
};

const tickets =
  'CREATE TABLE desk.tickets_by_status (status text, ticket_id timeuuid, title text, PRIMARY KEY (status, ticket_id));';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'status updated in place in a table keyed by the item',
      code: "CREATE TABLE desk.tickets (ticket_id timeuuid PRIMARY KEY, status text, title text);\nUPDATE desk.tickets SET status = 'closed' WHERE ticket_id = ?;",
    },
    {
      name: 'rows only inserted into status partitions, never moved',
      code: `${tickets}\nINSERT INTO desk.tickets_by_status (status, ticket_id, title) VALUES ('open', now(), ?);`,
    },
    {
      name: 'a delete of a mistaken row and an insert of the same status',
      code: `${tickets}\nINSERT INTO desk.tickets_by_status (status, ticket_id, title) VALUES ('open', now(), ?);\nDELETE FROM desk.tickets_by_status WHERE status = 'open' AND ticket_id = ?;`,
    },
    {
      name: 'Cosmos DB manages tombstones itself',
      code: `${tickets}\nBEGIN BATCH\nDELETE FROM desk.tickets_by_status WHERE status = ? AND ticket_id = ?;\nINSERT INTO desk.tickets_by_status (status, ticket_id, title) VALUES (?, ?, ?);\nAPPLY BATCH;`,
      target: 'cosmosdb',
    },
  ],
  invalid: [
    {
      name: 'status-move class: a row moved in one BATCH',
      code: `${tickets}\nBEGIN BATCH\n  DELETE FROM desk.tickets_by_status WHERE status = 'open' AND ticket_id = ?;\n  INSERT INTO desk.tickets_by_status (status, ticket_id, title) VALUES ('closed', ?, ?);\nAPPLY BATCH;`,
      at: 'desk.tickets_by_status (',
      message:
        /^rows of desk\.tickets_by_status move between status partitions, leaving a tombstone at each move A DELETE and an INSERT in one BATCH move a row from status = 'open' to 'closed'/,
      data: { column: 'status', from: 'open', to: 'closed', inBatch: true },
    },
    {
      name: 'status-move class: German state names, two statements in another file',
      code: 'CREATE TABLE shop.auftraege_nach_zustand (zustand text, auftrag_id uuid, kunde text, PRIMARY KEY (zustand, auftrag_id));',
      at: 'shop.auftraege_nach_zustand',
      files: {
        'app.cql':
          "DELETE FROM shop.auftraege_nach_zustand WHERE zustand = 'offen' AND auftrag_id = ?;\nINSERT INTO shop.auftraege_nach_zustand (zustand, auftrag_id, kunde) VALUES ('versandt', ?, ?);",
      },
      message: /move a row from zustand = 'offen' to 'versandt'/,
      data: { inBatch: false, from: 'offen', to: 'versandt' },
    },
    {
      name: 'status-move class: bind markers in a BATCH',
      code: `${tickets}\nBEGIN BATCH\nDELETE FROM desk.tickets_by_status WHERE status = ? AND ticket_id = ?;\nINSERT INTO desk.tickets_by_status (status, ticket_id, title) VALUES (?, ?, ?);\nAPPLY BATCH;`,
      at: 'desk.tickets_by_status',
      message: /move a row from one status partition to another/,
    },
  ],
};
