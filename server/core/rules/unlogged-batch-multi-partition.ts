// `unlogged-batch-multi-partition`: an UNLOGGED batch whose statements write to more than one partition.
// Unlogged batches are only a win inside one partition; across partitions the coordinator does all the
// work and nothing is atomic. Statements whose keys are bind markers are compared by marker text, and
// when two keys cannot be compared the batch is not reported.
import type { Expression } from '../../../grammar/ast';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { analyseWhere, exprText } from '../util/statements';
import type { FindingData } from '../findings/findings-data';
import { clusterNote } from './guardrail-text';

export const rule: RuleModule<'partitions' | 'partitionsInTables'> = {
  meta: {
    id: 'unlogged-batch-multi-partition',
    defaultSeverity: 'warning',
    description: 'An UNLOGGED batch that writes to several partitions.',
    messages: {
      partitions: 'this UNLOGGED batch writes to {{partitions}} partitions: it is not atomic and only loads one node',
      partitionsInTables:
        'this UNLOGGED batch writes to {{partitions}} partitions in {{tables}} tables: it is not atomic and only loads one node',
    },
    scope: 'statement',
  },
  handlers: {
    Batch(stmt, ctx) {
      if (stmt.batchType !== 'UNLOGGED' || stmt.statements.length < 2) return;
      const keys = new Set<string>();
      const tables = new Set<string>();
      let comparable = true;
      for (const inner of stmt.statements) {
        const table = ctx.tableFor(inner.table, inner.range.start);
        const tableName =
          table?.qualifiedName ?? (inner.table.keyspace ? `${inner.table.keyspace.name}.` : '') + inner.table.name.name;
        tables.add(tableName);
        if (!table) {
          keys.add(`${tableName}|?${keys.size}`);
          comparable = false;
          continue;
        }
        const values: string[] = [];
        for (const col of table.partitionKey) {
          let expr: Expression | undefined;
          if (inner.kind === 'Insert') {
            const i = inner.columns.findIndex((c) => c.name === col.name);
            expr = i >= 0 ? inner.values[i] : undefined;
          } else {
            const r = (analyseWhere(inner.where).byColumn.get(col.name) ?? []).find((x) => x.kind === 'eq');
            expr = r?.relation.right[0];
          }
          if (!expr || (expr.kind === 'BindMarker' && !expr.name)) {
            values.push(`?${keys.size}`);
            comparable = false;
          } else values.push(exprText(ctx.text, expr));
        }
        keys.add(`${tableName}|${values.join('|')}`);
      }
      // Different tables are different partitions for sure; same-table keys only when comparable.
      if (tables.size < 2 && !comparable) return;
      if (keys.size < 2) return;
      // The server's own warning (unlogged_batch_across_partitions_warn_threshold) fires only past its threshold.
      const threshold = ctx.cluster()?.number('unlogged_batch_across_partitions_warn_threshold');
      const note =
        threshold?.value === undefined
          ? ''
          : keys.size > threshold.value
            ? `\n\n${clusterNote(threshold, 'warn', 'query')}`
            : `\n\nOn this cluster the server stays silent: ${keys.size} partitions are within \`${threshold.writtenKey}\` (${threshold.value}, ${threshold.source}); the cost stands.`;
      ctx.report({
        messageId: tables.size > 1 ? 'partitionsInTables' : 'partitions',
        values: { partitions: keys.size, tables: tables.size },
        details: `Across partitions an unlogged batch only adds coordinator load and is not atomic.${note}\n\nSend the writes as separate asynchronous statements, or use a LOGGED batch if they must apply together.`,
        range: stmt.range,
        data: {
          partitions: keys.size,
          tables: [...tables],
          batchRange: stmt.range,
        } satisfies FindingData<'unlogged-batch-multi-partition'>,
      });
    },
  },
};

const t = 'CREATE TABLE ks.t (id int, c int, v text, PRIMARY KEY (id, c));\n';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    `${t}BEGIN UNLOGGED BATCH\n  INSERT INTO ks.t (id, c, v) VALUES (1, 1, 'a');\n  INSERT INTO ks.t (id, c, v) VALUES (1, 2, 'b');\nAPPLY BATCH;`,
    `${t}BEGIN BATCH\n  INSERT INTO ks.t (id, c, v) VALUES (1, 1, 'a');\n  INSERT INTO ks.t (id, c, v) VALUES (2, 2, 'b');\nAPPLY BATCH;`,
    `${t}BEGIN UNLOGGED BATCH\n  INSERT INTO ks.t (id, c, v) VALUES (?, ?, ?);\n  INSERT INTO ks.t (id, c, v) VALUES (?, ?, ?);\nAPPLY BATCH;`,
  ],
  invalid: [
    {
      code: `${t}BEGIN UNLOGGED BATCH\n  INSERT INTO ks.t (id, c, v) VALUES (1, 1, 'a');\n  UPDATE ks.t SET v = 'b' WHERE id = 2 AND c = 1;\nAPPLY BATCH;`,
      at: 'BEGIN',
      messageId: 'partitions',
      data: { partitions: 2 },
    },
    {
      code: `${t}CREATE TABLE ks.u (id int PRIMARY KEY, v text);\nBEGIN UNLOGGED BATCH\n  INSERT INTO ks.t (id, c, v) VALUES (?, ?, ?);\n  INSERT INTO ks.u (id, v) VALUES (?, ?);\nAPPLY BATCH;`,
      at: 'BEGIN',
      messageId: 'partitionsInTables',
      data: { partitions: 2, tables: ['ks.t', 'ks.u'] },
    },
  ],
};
