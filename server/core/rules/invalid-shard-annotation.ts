// `invalid-shard-annotation`: a `-- @shard` comment cqlint cannot use. The annotation documents how a
// write-sharded table fills its shard column (`-- @shard shard = murmur3(title) % 16 + 1` directly above
// CREATE TABLE); when it is malformed, names a column the table does not have, puts the shard outside the
// partition key, or stands where it applies to no table, every shard check and hint silently stops, so it
// is an error at the annotation.
import { qualify } from '../schema/model';
import { composedMessage } from './messages';
import { shardAnnotationAbove } from '../schema/shard';
import { annotatedTables } from '../schema/annotations';
import { udtLookupFor } from '../schema/key-values';
import { isShardAnnotation, validateShardSpec } from '../token/shard';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import type { FindingData } from '../findings/findings-data';

export const rule: RuleModule<'malformed' | 'schemaMismatch' | 'detached'> = {
  meta: {
    id: 'invalid-shard-annotation',
    defaultSeverity: 'error',
    description: 'A -- @shard annotation that is malformed, names unknown columns, or applies to no table.',
    messages: {
      // The annotation reader and the spec check word their problems (token/shard.ts parseShardAnnotation, validateShardSpec); the headline is their sentence.
      malformed: '{{problem}}',
      schemaMismatch: '{{problem}}',
      detached: '@shard: this annotation applies to no table',
    },
  },
  check(ctx) {
    const udts = udtLookupFor(ctx);
    const above = (start: number) => {
      const found = shardAnnotationAbove(ctx.parse.comments, ctx.text, start);
      return found ? [found] : [];
    };
    const { tables, detached } = annotatedTables(ctx.parse, above, isShardAnnotation);
    for (const {
      statement: stmt,
      annotations: [found],
    } of tables) {
      const table = qualify(stmt.name.keyspace?.name, stmt.name.name.name);
      if (!found.result.ok) {
        ctx.report({
          messageId: 'malformed',
          ...composedMessage(found.result.error.message),
          range: found.result.error.range,
          data: { problem: 'syntax', table } satisfies FindingData<'invalid-shard-annotation'>,
        });
        continue;
      }
      for (const p of validateShardSpec(found.result.spec, stmt, udts)) {
        if (p.severity !== 'error') continue; // one shard (a warning) is skewed-shard-formula's business
        ctx.report({
          messageId: 'schemaMismatch',
          ...composedMessage(p.message),
          range: p.range,
          data: { problem: 'schema', table } satisfies FindingData<'invalid-shard-annotation'>,
        });
      }
    }
    for (const comment of detached) {
      ctx.report({
        messageId: 'detached',
        details: 'Write it on the line directly above CREATE TABLE (no blank line between), one per table.',
        range: comment.range,
        data: { problem: 'detached' } satisfies FindingData<'invalid-shard-annotation'>,
      });
    }
  },
};

const books =
  'CREATE TABLE ks.books (publish_date date, shard int, title text, isbn text, PRIMARY KEY ((publish_date, shard), isbn));';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    `-- @shard shard = murmur3(title) % 16 + 1\n${books}`,
    `-- @shard shard = codepoints(title) % 200 + 1\n${books}`,
    `-- @shard shard = random(8)\n${books}`,
    `-- books by day, sharded\n-- @shard shard = murmur3(title, isbn) % 16\n${books}`,
    {
      name: 'a quoted source column',
      code: '-- @shard shard = murmur3("Title") % 4 + 1\nCREATE TABLE ks.t (d date, shard int, "Title" text, PRIMARY KEY ((d, shard)));',
    },
    { name: 'not an annotation', code: `-- the shard column is computed by the app\n${books}` },
  ],
  invalid: [
    {
      name: 'malformed formula',
      code: `-- @shard shard = md5(title) % 16\n${books}`,
      at: 'md5',
      messageId: 'malformed',
      message: /unknown shard function 'md5'/,
      data: { problem: 'syntax', table: 'ks.books' },
    },
    {
      name: 'missing % N',
      code: `-- @shard shard = murmur3(title)\n${books}`,
      at: '\nCREATE',
      messageId: 'malformed',
      message: /expected '% N'/,
    },
    {
      name: 'random(N) + 1',
      code: `-- @shard shard = random(8) + 1\n${books}`,
      at: '+ 1',
      messageId: 'malformed',
      message: /random\(8\) already gives 1\.\.8/,
    },
    {
      name: 'unknown source column',
      code: `-- @shard shard = murmur3(headline) % 16 + 1\n${books}`,
      at: 'headline',
      messageId: 'schemaMismatch',
      message: /source column 'headline' not found in table books/,
      data: { problem: 'schema' },
    },
    {
      name: 'unknown shard column',
      code: `-- @shard bucket = murmur3(title) % 16 + 1\n${books}`,
      at: 'bucket',
      messageId: 'schemaMismatch',
      message: /has no column 'bucket'/,
    },
    {
      name: 'shard column not in the partition key',
      code: '-- @shard shard = murmur3(title) % 16 + 1\nCREATE TABLE ks.b (publish_date date, shard int, title text, PRIMARY KEY (publish_date, shard));',
      at: 'shard =',
      messageId: 'schemaMismatch',
      message: /not part of the partition key of b \(publish_date\) Write PRIMARY KEY \(\(publish_date, shard\)/,
    },
    {
      name: 'detached by a blank line',
      code: `-- @shard shard = murmur3(title) % 16 + 1\n\n${books}`,
      at: '-- @shard',
      messageId: 'detached',
      message: /applies to no table/,
      data: { problem: 'detached' },
    },
  ],
};
