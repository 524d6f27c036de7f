// `invalid-hint`: a `-- @cqlint` workload-hint comment cqlint cannot use (docs/partition-model.md): a pair
// that is not key=value, an unknown key, a value that is not a number or rate, a column the table does
// not have, or a comment that stands where it applies to no table. Each would silently leave the
// partition rules on their defaults, so it is an error at the comment.
import { qualify } from '../schema/model';
import { composedMessage } from './messages';
import { hintCommentsAbove, isHintComment } from '../schema/hint-comments';
import { annotatedTables } from '../schema/annotations';
import type { FindingData } from '../findings/findings-data';
import type { FileLocalRuleModule, MessageIdOf, RuleExamples } from './types';

export const rule: FileLocalRuleModule<'malformed' | 'unknownColumn' | 'detached'> = {
  meta: {
    id: 'invalid-hint',
    defaultSeverity: 'error',
    description: 'A -- @cqlint workload-hint comment that is malformed, names unknown columns, or applies to no table.',
    messages: {
      // The hint reader words what it cannot read (schema/hint-comments.ts); the headline is its sentence.
      malformed: '{{problem}}',
      unknownColumn: "@cqlint: {{table}} has no column '{{column}}'",
      detached: '@cqlint: this hint comment applies to no table',
    },
    fileLocal: true,
  },
  check(ctx) {
    // Most files hold no hint at all: skip the per-table search for them (this rule runs on every edit).
    if (!ctx.parse.comments.some(isHintComment)) return;
    const { tables, detached } = annotatedTables(
      ctx.parse,
      (start) => hintCommentsAbove(ctx.parse.comments, ctx.text, start),
      isHintComment,
    );
    for (const { statement: stmt, annotations } of tables) {
      const table = qualify(stmt.name.keyspace?.name, stmt.name.name.name);
      const columns = new Set(stmt.columns.map((c) => c.name.name));
      for (const found of annotations) {
        for (const e of found.errors)
          ctx.report({
            messageId: 'malformed',
            ...composedMessage(e.message),
            range: e.range,
            data: { problem: 'syntax', table } satisfies FindingData<'invalid-hint'>,
          });
        const named = [...Object.keys(found.hints.columns ?? {}), ...Object.keys(found.hints.columnSizes ?? {})];
        for (const column of new Set(named)) {
          if (columns.has(column)) continue;
          const at = found.comment.text.indexOf(`${column}.`);
          const start = found.comment.range.start + Math.max(0, at);
          const range = at < 0 ? found.comment.range : { start, end: start + column.length };
          ctx.report({
            messageId: 'unknownColumn',
            values: { table, column },
            details: `Its columns: ${[...columns].join(', ')}.`,
            range,
            data: { problem: 'schema', table } satisfies FindingData<'invalid-hint'>,
          });
        }
      }
    }
    for (const comment of detached) {
      ctx.report({
        messageId: 'detached',
        details: 'Write it on the line directly above CREATE TABLE (no blank line between).',
        range: comment.range,
        data: { problem: 'detached' } satisfies FindingData<'invalid-hint'>,
      });
    }
  },
};

const readings =
  'CREATE TABLE ks.readings (sensor_id uuid, country text, ts timestamp, value double, PRIMARY KEY (sensor_id, ts));';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    `-- @cqlint rate=50/s country.distinct=5\n${readings}`,
    `-- @cqlint rows=2_000_000 writes=1200/s reads=2/min value.bytes=16\n${readings}`,
    {
      name: 'with a @shard line and prose in the same run',
      code: `-- readings, one partition per sensor\n-- @cqlint rate=1/s\n${readings}`,
    },
    { name: 'not a hint', code: `-- cqlint would flag this\n${readings}` },
  ],
  invalid: [
    {
      name: 'not key=value',
      code: `-- @cqlint fast\n${readings}`,
      at: 'fast',
      messageId: 'malformed',
      message: /'fast' is not a key=value pair/,
      data: { problem: 'syntax', table: 'ks.readings' },
    },
    {
      name: 'unknown key',
      code: `-- @cqlint speed=5/s\n${readings}`,
      at: 'speed=5/s',
      messageId: 'malformed',
      message: /unknown hint 'speed'/,
    },
    {
      name: 'a rate that is not one',
      code: `-- @cqlint rate=fast\n${readings}`,
      at: 'rate',
      messageId: 'malformed',
      message: /rate must be a number of rows per second, minute, hour or day/,
    },
    {
      name: 'an unknown unit',
      code: `-- @cqlint rate=5/fortnight\n${readings}`,
      at: 'rate',
      messageId: 'malformed',
      message: /rate must be/,
    },
    {
      name: 'distinct must be whole',
      code: `-- @cqlint country.distinct=2.5\n${readings}`,
      at: 'country.distinct',
      messageId: 'malformed',
      message: /country\.distinct must be a whole number of distinct values >= 1/,
    },
    {
      name: 'unknown column',
      code: `-- @cqlint nation.distinct=5\n${readings}`,
      at: 'nation',
      messageId: 'unknownColumn',
      message: /ks\.readings has no column 'nation'/,
      data: { problem: 'schema' },
    },
    { name: 'empty', code: `-- @cqlint\n${readings}`, at: '@cqlint', messageId: 'malformed', message: /no hints/ },
    {
      name: 'detached by a blank line',
      code: `-- @cqlint rate=5/s\n\n${readings}`,
      at: '-- @cqlint',
      messageId: 'detached',
      message: /applies to no table/,
      data: { problem: 'detached' },
    },
  ],
};
