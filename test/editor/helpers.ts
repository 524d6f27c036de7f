// Fixtures with a cursor marker: `|` in the text marks the cursor and is removed.
import { Project } from '../../server/core/engine/project';
import { SymbolIndex } from '../../server/core/editor/symbols';
import { defaultFeatures } from '../../server/lsp/features';
import { editorFeatures } from '../../server/lsp/features/formatting';

/** The server's features with the editor features: the default features plus every editor feature not already listed. */
export function editorServerFeatures() {
  const names = new Set(defaultFeatures.map((f) => f.name));
  return [...defaultFeatures, ...editorFeatures().filter((f) => !names.has(f.name))];
}

interface CursorFixture {
  text: string;
  offset: number;
}

export function withCursor(marked: string, marker = '|'): CursorFixture {
  const offset = marked.indexOf(marker);
  if (offset < 0) throw new Error('fixture has no cursor marker');
  if (marked.indexOf(marker, offset + 1) >= 0) throw new Error('fixture has more than one cursor marker');
  return { text: marked.slice(0, offset) + marked.slice(offset + marker.length), offset };
}

export const SCHEMA = `CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE shop;
CREATE TYPE address (street text, city text);
CREATE TABLE shop.orders (
  customer_id uuid,
  order_day date,
  order_time timestamp,
  total decimal,
  note text STATIC,
  ship_to frozen<address>,
  PRIMARY KEY ((customer_id, order_day), order_time)
) WITH CLUSTERING ORDER BY (order_time DESC);
CREATE TABLE shop."Products" (sku text PRIMARY KEY, title text, price decimal);
CREATE MATERIALIZED VIEW shop.orders_by_total AS
  SELECT * FROM shop.orders
  WHERE total IS NOT NULL AND customer_id IS NOT NULL AND order_day IS NOT NULL AND order_time IS NOT NULL
  PRIMARY KEY (total, customer_id, order_day, order_time);
CREATE INDEX orders_total_idx ON shop.orders (total);
`;

/** A workspace of named files; `/ws/schema.cql` holds SCHEMA unless overridden. */
export function workspace(files: Record<string, string>): { sources: Project; index: SymbolIndex } {
  const sources = new Project();
  for (const [path, text] of Object.entries({ '/ws/schema.cql': SCHEMA, ...files })) sources.setFile(path, text);
  const index = new SymbolIndex(sources).refresh();
  return { sources, index };
}
