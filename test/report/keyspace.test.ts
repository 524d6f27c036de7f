// The keyspace view: queries numbered in file order with how each reaches its table (the coverage
// matrix), the tables whose key would answer a query that is not, the logical writes and their
// duplication factor, and the diagram's layout: nothing drawn over anything else, on every keyspace of
// the corpus and on a 50-table keyspace.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../../server/core/engine/project';
import { keyspaceViews, type KeyspaceView } from '../../server/core/report/keyspace';
import {
  arrowKindOf,
  diagramLayout,
  diagramSvg,
  keyspacesSvg,
  type DiagramLayout,
  type Rect,
} from '../../server/core/report/diagram';
import { tablesDefinedIn } from '../../server/core/report';
import { corpusFiles, projectRoot, readText } from '../helpers/corpus';

function views(files: Record<string, string>): KeyspaceView[] {
  const project = new Project({ config: {} });
  for (const [file, text] of Object.entries(files)) project.setFile(file, text);
  return keyspaceViews(project, tablesDefinedIn(project));
}

const SCHEMA = `
CREATE KEYSPACE kv WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE kv.videos (videoid uuid PRIMARY KEY, userid uuid, name text, added_date timestamp, category text, tags set<text>);
CREATE TABLE kv.user_videos (userid uuid, added_date timestamp, videoid uuid, name text, PRIMARY KEY (userid, added_date, videoid));
CREATE TABLE kv.latest_videos (day date, added_date timestamp, videoid uuid, name text, PRIMARY KEY (day, added_date, videoid));
CREATE TABLE kv.video_ratings (videoid uuid PRIMARY KEY, rating_counter counter, rating_total counter);
CREATE TABLE kv.users (userid uuid PRIMARY KEY, email text, firstname text);
CREATE TABLE kv.user_credentials (email text PRIMARY KEY, password text, userid uuid);
CREATE CUSTOM INDEX videos_category ON kv.videos (category) USING 'StorageAttachedIndex';
`;
const QUERIES = `
SELECT * FROM kv.videos WHERE videoid = ?;
SELECT name FROM kv.videos WHERE videoid IN (?, ?, ?);
SELECT name FROM kv.videos WHERE category = 'Education';
SELECT name, added_date FROM kv.videos WHERE userid = ? ALLOW FILTERING;
SELECT name FROM kv.user_videos;
SELECT name FROM kv.latest_videos WHERE token(day) > 0;
SELECT name FROM kv.videos LIMIT 5;
BEGIN BATCH
  INSERT INTO kv.users (userid, email, firstname) VALUES (?, ?, ?);
  INSERT INTO kv.user_credentials (email, password, userid) VALUES (?, ?, ?);
APPLY BATCH;
`;

test('coverage: queries numbered in file order, how each reaches its table, and which key would answer it', () => {
  const [view] = views({ '/ks/a-schema.cql': SCHEMA, '/ks/b-queries.cql': QUERIES });
  assert.ok(view);
  assert.equal(view.title, 'kv');
  const name = (t: number): string => view.tables[t]!.name;
  assert.deepEqual(
    view.queries.map((q) => [q.number, name(q.table), q.access, q.served, q.place.line + 1]),
    [
      [1, 'videos', 'partition', true, 2],
      [2, 'videos', 'partitions', true, 3],
      [3, 'videos', 'index', false, 4],
      [4, 'videos', 'filtering', false, 5],
      [5, 'user_videos', 'scan', false, 6],
      [6, 'latest_videos', 'token-range', false, 7],
      [7, 'videos', 'sample', false, 8],
    ],
  );
  assert.equal(view.queries[1]!.reads, '3 partitions (IN)');
  assert.equal(view.queries[2]!.reads, 'every node, through videos_category (SAI)');
  assert.equal(view.queries[3]!.reads, 'every partition, filtered (ALLOW FILTERING)');
  assert.equal(view.queries[4]!.reads, 'every partition (a scan)');
  assert.deepEqual(view.queries[3]!.findings, ['allow-filtering']);
  // Q4 pins userid and reads name and added_date: user_videos is keyed by userid and has both.
  assert.deepEqual(view.queries[3]!.couldServe.map(name), ['user_videos']);
  assert.deepEqual(view.queries[4]!.couldServe, [], 'a query that pins nothing: no key answers it');
  // Each table lists the queries that reach it.
  const videos = view.tables.find((t) => t.name === 'videos')!;
  assert.deepEqual(
    videos.queries.map((q) => q.number),
    [1, 2, 3, 4, 7],
  );
  assert.equal(videos.place.line + 1, 3);
  assert.deepEqual(videos.columns.slice(0, 2), [
    { name: 'videoid', type: 'uuid', mark: 'K' },
    { name: 'userid', type: 'uuid', mark: '' },
  ]);
  assert.deepEqual(
    view.tables
      .find((t) => t.name === 'user_videos')!
      .columns.slice(0, 3)
      .map((c) => c.mark),
    ['K', 'C↑', 'C↑'],
  );
});

test('logical writes: an entity copied into the tables that share its data, a BATCH, and the duplication factor', () => {
  const [view] = views({ '/ks/a-schema.cql': SCHEMA, '/ks/b-queries.cql': QUERIES });
  const name = (t: number): string => view!.tables[t]!.name;
  const writes = view!.writes.map((w) => [w.kind, w.tables.map(name), w.copied]);
  assert.deepEqual(writes, [
    // videos' data (name, added_date) is copied into user_videos and latest_videos; video_ratings holds counters, no copy.
    ['entity', ['videos', 'user_videos', 'latest_videos'], [[], ['name', 'added_date'], ['name', 'added_date']]],
    ['entity', ['video_ratings'], [[]]],
    // users' email is copied into user_credentials, which is keyed by it.
    ['entity', ['users', 'user_credentials'], [[], ['email']]],
    ['entity', ['user_credentials'], [[]]],
    ['batch', ['users', 'user_credentials'], undefined],
  ]);
  assert.equal(view!.writes[4]!.label, 'the BATCH at b-queries.cql:9');
  // (3 + 1 + 2 + 1 + 2) / 5 logical writes.
  assert.equal(view!.duplicationFactor, 9 / 5);
});

test('keyspaces: one view per keyspace; a keyspace defined again in another file is one view per file', () => {
  const vs = views({
    '/ks/v1.cql':
      'CREATE TABLE app.users (id uuid PRIMARY KEY, name text);\nCREATE TABLE other.t (id int PRIMARY KEY);',
    '/ks/v2.cql':
      'CREATE TABLE app.users (id uuid PRIMARY KEY, name text, email text);\nCREATE TABLE app.orders (id uuid PRIMARY KEY);',
    '/ks/plain.cql': 'CREATE TABLE loose (id int PRIMARY KEY);',
  });
  assert.deepEqual(
    vs.map((v) => [v.title, v.tables.map((t) => t.name)]),
    [
      ['app (v1.cql)', ['users']],
      ['app (v2.cql)', ['users', 'orders']],
      ['other', ['t']],
      ['no keyspace (plain.cql)', ['loose']],
    ],
  );
  assert.equal(new Set(vs.map((v) => v.id)).size, vs.length, 'ids are unique');
});

// ------------------------------------------------------------------------------------------------
// Layout

function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function inside(inner: Rect, outer: Rect): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

/** Everything that would be drawn over something else, as sentences. */
function overlaps(view: KeyspaceView, layout: DiagramLayout): string[] {
  const problems: string[] = [];
  const free: { what: string; rect: Rect }[] = [
    { what: 'title', rect: layout.title.rect },
    ...layout.legend.map((l, i) => ({ what: `legend ${i}`, rect: l.rect })),
    ...layout.boxes.map((b) => ({ what: `box ${view.tables[b.table]!.name}`, rect: b.rect })),
    ...layout.arrows.flatMap((a) => a.labels.map((l) => ({ what: `label Q${l.query}`, rect: l.text.rect }))),
  ];
  for (let i = 0; i < free.length; i++) {
    for (let j = i + 1; j < free.length; j++)
      if (intersects(free[i]!.rect, free[j]!.rect)) problems.push(`${free[i]!.what} overlaps ${free[j]!.what}`);
  }
  for (const box of layout.boxes) {
    const texts = [
      box.header,
      ...box.rows.flatMap((r) => [r.name, r.type, ...(r.mark ? [r.mark] : [])]),
      ...(box.more ? [box.more] : []),
    ];
    for (const t of texts)
      if (!inside(t.rect, box.rect)) problems.push(`"${t.text}" leaves box ${view.tables[box.table]!.name}`);
    for (const row of box.rows) {
      const cells = [row.name, row.type, ...(row.mark ? [row.mark] : [])];
      for (let i = 0; i < cells.length; i++)
        for (let j = i + 1; j < cells.length; j++)
          if (intersects(cells[i]!.rect, cells[j]!.rect))
            problems.push(`"${cells[i]!.text}" overlaps "${cells[j]!.text}"`);
    }
  }
  // Arrows: a shaft from its tick down to its own box's top edge, crossing nothing on the way.
  const segments = layout.arrows.flatMap((a, i) => [
    {
      arrow: i,
      what: `shaft of ${view.tables[a.table]!.name}`,
      rect: { x: a.x - 0.5, y: a.y1, width: 1, height: a.y2 - a.y1 - 0.5 },
    },
    {
      arrow: i,
      what: `tick of ${view.tables[a.table]!.name}`,
      rect: { x: a.x, y: a.y1 - 0.5, width: a.tickTo - a.x, height: 1 },
    },
  ]);
  for (const [i, a] of layout.arrows.entries()) {
    const box = layout.boxes.find((b) => b.table === a.table)!;
    if (a.y2 !== box.rect.y || a.x <= box.rect.x || a.x >= box.rect.x + box.rect.width)
      problems.push(`arrow ${i} does not end on the top of its box`);
    if (a.y1 >= a.y2) problems.push(`arrow ${i} points up`);
  }
  for (const s of segments) {
    for (const f of free) if (intersects(s.rect, f.rect)) problems.push(`${s.what} crosses ${f.what}`);
    for (const o of segments)
      if (o.arrow > s.arrow && intersects(s.rect, o.rect)) problems.push(`${s.what} crosses ${o.what}`);
  }
  if (layout.boxes.some((b) => b.rect.x + b.rect.width > layout.width || b.rect.y + b.rect.height > layout.height))
    problems.push('a box leaves the drawing');
  return problems;
}

function checkLayout(view: KeyspaceView): DiagramLayout {
  const layout = diagramLayout(view);
  assert.deepEqual(overlaps(view, layout), [], `keyspace ${view.title}`);
  assert.equal(layout.boxes.length, view.tables.length);
  // Every query that reads a table has an arrow with its label into that table's box.
  const labelled = layout.arrows.flatMap((a) => a.labels.map((l) => `${l.query}->${a.table}`)).sort();
  const expected = view.queries
    .filter((q) => arrowKindOf(q.access))
    .map((q) => `${q.number}->${q.table}`)
    .sort();
  assert.deepEqual(labelled, expected, `keyspace ${view.title}: one label per query, on the arrow into its table`);
  return layout;
}

function cqlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? cqlFiles(p) : name.endsWith('.cql') ? [p] : [];
  });
}

for (const [name, files] of [
  ['killrvideo', () => corpusFiles('killrvideo')],
  ['cassandra-docs', () => corpusFiles('cassandra-docs')],
  ['examples', () => cqlFiles(join(projectRoot, 'examples'))],
] as const) {
  test(`layout: nothing overlaps in the keyspace diagrams of ${name}`, () => {
    const project = new Project({ config: {} });
    for (const file of files()) project.setFile(file, readText(file));
    const vs = keyspaceViews(project, tablesDefinedIn(project));
    assert.ok(vs.length > 0);
    for (const view of vs) checkLayout(view);
    if (name === 'killrvideo') {
      const astra = vs.find((v) => v.title === 'killrvideo (schema-astra.cql)')!;
      assert.ok(
        astra.tables.length >= 15 && astra.queries.length >= 20,
        'killrvideo has a keyspace with many tables and queries',
      );
    }
  });
}

test('layout: a keyspace of 50 tables, one of them with 60 columns and a long name, one with 45 queries', () => {
  const tables: string[] = [];
  for (let i = 0; i < 50; i++) {
    const extra =
      i === 7
        ? Array.from({ length: 57 }, (_, c) => `, attribute_number_${c} frozen<map<text, frozen<list<int>>>>`).join('')
        : i % 3 === 0
          ? ', note text, score double'
          : '';
    const name = i === 11 ? 'a_table_with_a_rather_long_name_that_goes_on_and_on' : `table_${i}`;
    tables.push(
      `CREATE TABLE big.${name} (id uuid, day date, ts timeuuid${extra}, PRIMARY KEY ((id, day), ts)) WITH CLUSTERING ORDER BY (ts DESC);`,
    );
  }
  const queries: string[] = [];
  for (let q = 0; q < 45; q++)
    queries.push(
      q % 3 === 0
        ? 'SELECT * FROM big.table_3 WHERE id = ? AND day = ?;'
        : q % 3 === 1
          ? 'SELECT * FROM big.table_3 WHERE ts > now() ALLOW FILTERING;'
          : 'SELECT * FROM big.table_3;',
    );
  for (let t = 0; t < 50; t += 4) queries.push(`SELECT * FROM big.table_${t} WHERE id = ? AND day = ?;`);
  const [view] = views({ '/big/schema.cql': tables.join('\n'), '/big/queries.cql': queries.join('\n') });
  assert.equal(view!.tables.length, 50);
  const layout = checkLayout(view!);
  // Readable: several boxes a row, a page's width.
  const rows = new Set(layout.boxes.map((b) => b.rect.y)).size;
  assert.ok(rows <= 17, `${rows} rows of boxes`);
  assert.ok(layout.width <= 1400, `${layout.width} px wide`);
  const wide = layout.boxes.find((b) => view!.tables[b.table]!.name === 'table_7')!;
  assert.equal(wide.rows.length, 23, 'a box shows its first columns');
  assert.equal(wide.more?.text, '+ 37 more columns');
  const long = layout.boxes.find((b) => view!.tables[b.table]!.name.startsWith('a_table_with'))!;
  assert.ok(long.header.text.endsWith('…'), 'a long name is shortened');
  // table_3's 45 queries: three arrows (key, scan: filtering and a scan), their labels wrapped over lines.
  const t3 = layout.arrows.filter((a) => view!.tables[a.table]!.name === 'table_3');
  assert.deepEqual(
    t3.map((a) => [a.kind, a.labels.length]),
    [
      ['key', 15],
      ['scan', 30],
    ],
  );
  assert.ok(new Set(t3[1]!.labels.map((l) => l.text.y)).size > 1, 'the labels wrap');
});

test('the diagram as SVG: boxes link to their table, labels to their query; the export stands alone', () => {
  const [view] = views({ '/ks/a-schema.cql': SCHEMA, '/ks/b-queries.cql': QUERIES });
  const layout = diagramLayout(view!);
  const svg = diagramSvg(view!, layout, { id: 'x', links: { table: (t) => `#t${t}`, query: (q) => `#q${q}` } });
  assert.match(svg, /^<svg class="kd keyspace-diagram"[^>]* role="img" aria-labelledby="x-title x-desc">/);
  assert.equal(svg.match(/<g class="kd-box/g)?.length, view!.tables.length);
  assert.equal(svg.match(/<text class="kd-query"/g)?.length, 7);
  assert.match(
    svg,
    /<a href="#t0" aria-label="table kv\.videos: 2 findings, warning">/,
    'allow-filtering on Q4, secondary-index-scan (information) on Q3',
  );
  assert.match(
    svg,
    /<a href="#q4" aria-label="Q4: SELECT name, added_date FROM kv\.videos WHERE userid = \? ALLOW FILTERING; \(every partition, filtered \(ALLOW FILTERING\)\)"><text class="kd-query"/,
  );
  assert.doesNotMatch(svg, /<script|javascript:/);
  const all = keyspacesSvg([view!, view!]);
  assert.match(
    all,
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1180" height="\d+"/,
  );
  assert.equal(all.match(/<svg x="0" y="\d+" class="kd keyspace-diagram"/g)?.length, 2, 'one diagram under the other');
  assert.equal(
    new Set([...all.matchAll(/<marker id="([^"]+)"/g)].map((m) => m[1])).size,
    6,
    'arrowhead ids stay unique',
  );
});
