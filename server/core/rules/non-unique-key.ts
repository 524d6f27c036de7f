// `non-unique-key`: a primary key that does not identify the rows it stores. The clustering columns are
// all values many items share (a measured value such as a score or a price, a few-valued category or
// status, a time bucket) while a regular column holds each item's identity (a player, a product id):
// an INSERT is an upsert, so two items with the same score in one partition overwrite each other.
// The cure adds the identity column to the clustering columns. Counter tables and tables whose
// clustering the model cannot read are left alone.
import { isMeasureColumn, profileColumn } from '../schema/columns';
import { nativeName } from '../schema/types';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { withLatestCreatedTable } from './defined-tables';
import { keyText } from '../util/statements';
import { ownEntry } from '../util/names';
import type { FindingData } from '../findings/findings-data';

// States that an INSERT creates the row when none exists and updates it otherwise (an upsert).
const UPSERT_SOURCE = 'https://cassandra.apache.org/doc/latest/cassandra/developing/cql/dml.html#insert-statement';
const SHARED_NATURES = new Set(['enum', 'cyclic', 'bucket']);

export const rule: RuleModule<'overwrite'> = {
  meta: {
    id: 'non-unique-key',
    defaultSeverity: 'warning',
    description:
      'A primary key that does not identify its rows (clustered only by a score, a category or a bucket while another column holds the item): writes overwrite each other.',
    messages: {
      overwrite:
        'the key of {{table}} does not identify its rows: two with the same {{clustering}} overwrite each other',
    },
    scope: 'statement',
  },
  handlers: {
    CreateTable: withLatestCreatedTable(true, (stmt, table, ctx) => {
      if (table.counter) return;
      const shared = table.clustering.map((c) => {
        if (isMeasureColumn(c) && nativeName(c.type) !== 'timeuuid' && nativeName(c.type) !== 'uuid')
          return `${c.name} (a measured value many rows share)`;
        const p = profileColumn(c, table, ownEntry(ctx.hints(table)?.columns, c.name)?.distinct);
        return SHARED_NATURES.has(p.nature) ? `${c.name} (${p.signal})` : undefined;
      });
      if (shared.some((s) => s === undefined)) return;
      // An identifier, or a timeuuid (one per item written), held outside the key.
      const identity = table.columns
        .filter(
          (c) =>
            c.role === 'regular' &&
            !isMeasureColumn(c) &&
            (profileColumn(c, table).nature === 'identifier' || nativeName(c.type) === 'timeuuid'),
        )
        .map((c) => c.name);
      if (!identity.length) return;
      const pk = table.partitionKey.map((c) => c.name);
      const clustering = table.clustering.map((c) => c.name);
      const suggestedKey = keyText(pk, [...clustering, identity[0]!]);
      ctx.report({
        messageId: 'overwrite',
        values: { table: table.qualifiedName, clustering: clustering.join(', ') },
        details:
          `Within one ${pk.join(', ')} the rows are keyed only by ${shared.join(', ')}, ` +
          `while ${identity.join(', ')} ${identity.length === 1 ? 'holds' : 'hold'} each item's identity. An INSERT is an upsert (${UPSERT_SOURCE}): ` +
          `two items with the same ${clustering.join(', ')} overwrite each other and one is lost.\n\nAdd the item to the clustering columns: PRIMARY KEY ${suggestedKey}.`,
        range: stmt.primaryKey?.range ?? stmt.name.range,
        data: {
          table: table.qualifiedName,
          clustering,
          identity,
          suggestedKey,
          ...(stmt.primaryKey ? { primaryKeyRange: stmt.primaryKey.range } : {}),
        } satisfies FindingData<'non-unique-key'>,
      });
    }),
  },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'the player is in the key after the score',
      code: 'CREATE TABLE game.leaderboard (game_id uuid, score int, player_id uuid, PRIMARY KEY (game_id, score, player_id));',
    },
    {
      name: 'one row per category by design: no item column',
      code: 'CREATE TABLE shop.category_totals (store_id uuid, category text, total decimal, PRIMARY KEY (store_id, category));',
    },
    {
      name: 'a calendar of months holding a list',
      code: 'CREATE TABLE ks.calendar (year int, month int, events list<text>, PRIMARY KEY (year, month));',
    },
    {
      name: 'an unknown clustering column: silent',
      code: 'CREATE TABLE ks.things (owner_id uuid, foo text, item_id uuid, PRIMARY KEY (owner_id, foo));',
    },
    {
      name: 'counter tables count, they do not store items',
      code: 'CREATE TABLE ks.views_by_category (day date, category text, views counter, PRIMARY KEY (day, category));',
    },
  ],
  invalid: [
    {
      name: 'non-unique class: high scores clustered by score alone',
      code: 'CREATE TABLE game.high_scores (game_id uuid, score int, player_name text, achieved_at timestamp, PRIMARY KEY (game_id, score)) WITH CLUSTERING ORDER BY (score DESC);',
      at: 'PRIMARY KEY (game_id, score)',
      message:
        /Within one game_id the rows are keyed only by score \(a measured value many rows share\), while player_name holds each item's identity.*PRIMARY KEY \(game_id, score, player_name\)\.$/,
      data: { identity: ['player_name'], suggestedKey: '(game_id, score, player_name)' },
    },
    {
      name: 'non-unique class: products by brand clustered by category',
      code: 'CREATE TABLE catalog.products_by_brand (brand text, category text, product_id uuid, name text, PRIMARY KEY (brand, category));',
      at: 'PRIMARY',
      message:
        /keyed only by category \(name word 'category' \(enum, ~10 values\)\), while product_id, name hold each item's identity/,
      data: { suggestedKey: '(brand, category, product_id)' },
    },
    {
      name: 'non-unique class: Spanish names (categoria, producto)',
      code: 'CREATE TABLE ventas.precios_por_tienda (tienda_id uuid, categoria text, producto text, precio decimal, PRIMARY KEY (tienda_id, categoria));',
      at: 'PRIMARY',
      data: { identity: ['producto'] },
    },
    {
      name: 'non-unique class: one post per user and day survives',
      code: 'CREATE TABLE social.posts_by_user_day (user_id uuid, day date, post_id timeuuid, body text, PRIMARY KEY (user_id, day));',
      at: 'PRIMARY',
      data: { identity: ['post_id'] },
    },
  ],
};
