import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCql } from '../../grammar';
import { documentSymbols, workspaceSymbols } from '../../server/core/editor/outline';
import { foldingRanges } from '../../server/core/editor/folding';
import { selectionChain } from '../../server/core/editor/selection';
import { nameHover } from '../../server/core/editor/hover';
import {
  semanticTokens,
  encodeSemanticTokens,
  decodeSemanticTokens,
  SEMANTIC_TOKENS_LEGEND,
} from '../../server/core/editor/semantic-tokens';
import { withCursor, workspace, SCHEMA } from './helpers';

describe('document and workspace symbols', () => {
  test('outline lists keyspaces, types, tables with columns, views and indexes in order', () => {
    const symbols = documentSymbols(parseCql(SCHEMA));
    assert.deepEqual(
      symbols.map((s) => `${s.kind}:${s.name}`),
      [
        'keyspace:shop',
        'type:address',
        'table:shop.orders',
        'table:shop."Products"',
        'view:shop.orders_by_total',
        'index:orders_total_idx',
      ],
    );
    const orders = symbols[2];
    assert.deepEqual(
      orders.children.map((c) => c.name),
      ['customer_id', 'order_day', 'order_time', 'total', 'note', 'ship_to'],
    );
    assert.match(orders.children[1].detail!, /date · partition key/);
    assert.match(orders.children[2].detail!, /clustering DESC/);
    assert.match(orders.children[4].detail!, /static/);
    for (const s of symbols) {
      assert.ok(s.range.start <= s.selectionRange.start && s.selectionRange.end <= s.range.end);
      for (const c of s.children) assert.ok(s.range.start <= c.range.start && c.range.end <= s.range.end);
    }
  });

  test('workspace symbols match by subsequence across files and carry their container', () => {
    const { index } = workspace({ '/ws/more.cql': 'CREATE TABLE audit.events (id uuid PRIMARY KEY, at timestamp);' });
    const hits = workspaceSymbols(index, 'ordday');
    assert.deepEqual(
      hits.map((h) => `${h.name}@${h.containerName}`),
      ['order_day@shop.orders'],
    );
    const events = workspaceSymbols(index, 'events');
    assert.equal(events[0].filePath, '/ws/more.cql');
    assert.equal(events[0].kind, 'table');
  });
});

describe('folding ranges', () => {
  test('multi-line statements, column lists, maps, block comments and runs of line comments', () => {
    const text = [
      '-- one',
      '-- two',
      '-- three', // 0-2 comment run
      'CREATE TABLE t (', // 3
      '  id uuid PRIMARY KEY,', // 4
      '  v text', // 5
      ') WITH compaction = {', // 6
      "  'class': 'LeveledCompactionStrategy'", // 7
      '};', // 8
      '/* a',
      'block */', // 9-10
      'SELECT * FROM t; -- trailing', // 11
      'BEGIN BATCH', // 12
      '  INSERT INTO t (id) VALUES (uuid());', // 13
      'APPLY BATCH;', // 14
    ].join('\n');
    const ranges = foldingRanges(text, parseCql(text));
    const seen = ranges.map((r) => `${r.startLine}-${r.endLine}${r.kind ? `:${r.kind}` : ''}`);
    assert.ok(seen.includes('0-2:comment'), seen.join(' '));
    assert.ok(seen.includes('3-8'), seen.join(' '));
    assert.ok(seen.includes('6-7'), 'the map keeps its closing line visible');
    assert.ok(seen.includes('9-10:comment'));
    assert.ok(seen.includes('12-14'));
    assert.ok(!seen.some((s) => s.startsWith('11-')), 'single-line statements do not fold');
  });
});

describe('selection ranges', () => {
  test('token -> expression -> clause -> statement -> file', () => {
    const { text, offset } = withCursor('SELECT a FROM t WHERE k = 1 AND c > to|Timestamp(now());\nSELECT 1 FROM u;');
    const chain = selectionChain(text, parseCql(text), offset).map((s) => text.slice(s.start, s.end));
    assert.equal(chain[0], 'toTimestamp');
    assert.ok(chain.includes('toTimestamp(now())'));
    assert.ok(chain.includes('c > toTimestamp(now())'));
    assert.ok(
      chain.some((s) => s.startsWith('WHERE k = 1')),
      chain.join(' | '),
    );
    assert.ok(chain.some((s) => s.startsWith('SELECT a FROM t') && s.trimEnd().endsWith(';')));
    assert.equal(chain[chain.length - 1], text);
    for (let i = 1; i < chain.length; i++) assert.ok(chain[i].length > chain[i - 1].length);
  });
});

describe('hover on names', () => {
  const QUERY = 'SELECT order_day, total, count(*) FROM shop.orders WHERE customer_id = ? ORDER BY order_time DESC;';

  function hoverAt(needle: string, delta = 1, describeTable?: () => string) {
    const { index, sources } = workspace({ '/ws/q.cql': QUERY });
    const offset = QUERY.indexOf(needle) + delta;
    return nameHover(
      index,
      '/ws/q.cql',
      QUERY,
      sources.parse('/ws/q.cql'),
      offset,
      describeTable ? { describeTable } : {},
    );
  }

  test('column: type and role', () => {
    assert.match(
      hoverAt('order_day')!.markdown,
      /`order_day` `date`[\s\S]*partition key \(2 of 2\) of table `shop.orders`/,
    );
    assert.match(hoverAt('order_time DESC')!.markdown, /clustering column 1, DESC/);
    assert.match(hoverAt('total')!.markdown, /regular column/);
  });

  test('table: the schema description is used when provided, else a built-in summary', () => {
    assert.equal(hoverAt('orders', 1, () => 'DESCRIBED')!.markdown, 'DESCRIBED');
    const builtIn = hoverAt('orders')!.markdown;
    assert.match(builtIn, /\*\*table shop.orders\*\*/);
    assert.match(builtIn, /Partition key: `customer_id`, `order_day`/);
  });

  test('keyspace, keyword and function docs', () => {
    assert.match(hoverAt('shop')!.markdown, /\*\*keyspace\*\* `shop`[\s\S]*replication/);
    assert.match(hoverAt('WHERE')!.markdown, /\*\*WHERE\*\*/);
    assert.match(hoverAt('count')!.markdown, /count\(\* \| column\)/);
    const h = hoverAt('ORDER');
    assert.equal(QUERY.slice(h!.start, h!.end), 'ORDER');
  });

  test('native types in definitions', () => {
    const { index, sources } = workspace({});
    const offset = SCHEMA.indexOf('timestamp,') + 2;
    const h = nameHover(index, '/ws/schema.cql', SCHEMA, sources.parse('/ws/schema.cql'), offset);
    assert.match(h!.markdown, /\*\*type\*\* `timestamp`/);
  });
});

describe('semantic tokens', () => {
  test('legend, key-role modifiers and the relative encoding', () => {
    const query = 'SELECT note, total FROM shop.orders WHERE customer_id = ? AND order_time > now(); -- hi\n/* x\ny */';
    const { index, sources } = workspace({ '/ws/q.cql': query });
    const tokens = semanticTokens(index, '/ws/q.cql', query, sources.parse('/ws/q.cql'));
    const at = (word: string) =>
      tokens.find((t) => t.line === 0 && query.slice(t.character, t.character + t.length) === word);
    assert.equal(at('SELECT')!.type, 'keyword');
    assert.deepEqual(at('note')!.modifiers, ['static']);
    assert.deepEqual(at('total')!.modifiers, []);
    assert.equal(at('total')!.type, 'property');
    assert.deepEqual(at('customer_id')!.modifiers, ['partitionKey']);
    assert.deepEqual(at('order_time')!.modifiers, ['clusteringKey']);
    assert.equal(at('orders')!.type, 'class');
    assert.equal(at('shop')!.type, 'namespace');
    assert.equal(at('now')!.type, 'function');
    assert.equal(at('?')!.type, 'parameter');
    assert.equal(at('-- hi')!.type, 'comment');
    // The block comment spans two lines: one token per line.
    assert.deepEqual(
      tokens.filter((t) => t.line > 0).map((t) => [t.line, t.character, t.length, t.type]),
      [
        [1, 0, 4, 'comment'],
        [2, 0, 4, 'comment'],
      ],
    );
    assert.ok(SEMANTIC_TOKENS_LEGEND.tokenModifiers.includes('partitionKey'));
    const data = encodeSemanticTokens(tokens);
    assert.equal(data.length, tokens.length * 5);
    assert.deepEqual(
      decodeSemanticTokens(data),
      [...tokens].sort((a, b) => a.line - b.line || a.character - b.character),
    );
  });

  test('declarations, types and views in the schema', () => {
    const { index, sources } = workspace({});
    const tokens = semanticTokens(index, '/ws/schema.cql', SCHEMA, sources.parse('/ws/schema.cql'));
    const lines = SCHEMA.split('\n');
    const find = (line: number, word: string) =>
      tokens.find((t) => t.line === line && lines[line].slice(t.character, t.character + t.length) === word);
    assert.deepEqual(find(4, 'customer_id')!.modifiers, ['declaration', 'partitionKey']);
    assert.equal(find(4, 'uuid')!.type, 'type');
    assert.equal(find(9, 'address')!.type, 'struct');
    assert.equal(find(13, 'orders_by_total')!.type, 'interface');
  });
});
