// Short reference text for CQL keywords, native types, native functions, table options and the
// compaction/compression classes: shown in hovers and completion documentation. Facts follow the
// Apache Cassandra 5.0 CQL reference.

interface FunctionDoc {
  name: string;
  signature: string;
  doc: string;
  /** Only in a select list (aggregates, writetime/ttl). */
  selectorOnly?: boolean;
  /** Insert `name()` rather than `name(` (takes no argument). */
  noArgs?: boolean;
}

export const NATIVE_FUNCTIONS: readonly FunctionDoc[] = [
  {
    name: 'now',
    signature: 'now() → timeuuid',
    doc: 'A new unique timeuuid for the current time (at the coordinator).',
    noArgs: true,
  },
  { name: 'uuid', signature: 'uuid() → uuid', doc: 'A new random (version 4) uuid.', noArgs: true },
  {
    name: 'currentTimestamp',
    signature: 'currentTimestamp() → timestamp',
    doc: 'The current time as a timestamp.',
    noArgs: true,
  },
  { name: 'currentDate', signature: 'currentDate() → date', doc: 'The current date.', noArgs: true },
  { name: 'currentTime', signature: 'currentTime() → time', doc: 'The current time of day.', noArgs: true },
  {
    name: 'currentTimeUUID',
    signature: 'currentTimeUUID() → timeuuid',
    doc: 'A new timeuuid for the current time.',
    noArgs: true,
  },
  {
    name: 'toDate',
    signature: 'toDate(timeuuid | timestamp) → date',
    doc: 'Converts a timeuuid or timestamp to a date.',
  },
  {
    name: 'toTimestamp',
    signature: 'toTimestamp(timeuuid | date) → timestamp',
    doc: 'Converts a timeuuid or date to a timestamp.',
  },
  {
    name: 'toUnixTimestamp',
    signature: 'toUnixTimestamp(timeuuid | timestamp | date) → bigint',
    doc: 'Milliseconds since the Unix epoch.',
  },
  {
    name: 'minTimeuuid',
    signature: 'minTimeuuid(timestamp) → timeuuid',
    doc: 'The smallest timeuuid for a timestamp (for range queries on timeuuid columns).',
  },
  {
    name: 'maxTimeuuid',
    signature: 'maxTimeuuid(timestamp) → timeuuid',
    doc: 'The largest timeuuid for a timestamp (for range queries on timeuuid columns).',
  },
  {
    name: 'token',
    signature: 'token(partition key columns) → bigint',
    doc: 'The Murmur3 token of a partition key: where the partition lives on the ring. `WHERE token(k) > token(?)` pages over all partitions.',
  },
  {
    name: 'writetime',
    signature: 'writetime(column) → bigint',
    doc: "The write timestamp (microseconds) of a regular column's cell.",
    selectorOnly: true,
  },
  {
    name: 'maxwritetime',
    signature: 'maxwritetime(column) → bigint',
    doc: 'The largest write timestamp of a (multi-cell) column.',
    selectorOnly: true,
  },
  {
    name: 'ttl',
    signature: 'ttl(column) → int',
    doc: "Remaining time to live, in seconds, of a regular column's cell (null without TTL).",
    selectorOnly: true,
  },
  {
    name: 'count',
    signature: 'count(* | column) → bigint',
    doc: 'Number of rows (`count(*)`) or of non-null values of a column. Counting a large table scans every partition.',
    selectorOnly: true,
  },
  {
    name: 'min',
    signature: 'min(column)',
    doc: 'Smallest value of a column over the selected rows.',
    selectorOnly: true,
  },
  {
    name: 'max',
    signature: 'max(column)',
    doc: 'Largest value of a column over the selected rows.',
    selectorOnly: true,
  },
  {
    name: 'avg',
    signature: 'avg(column)',
    doc: 'Average of a numeric column over the selected rows (integer types give an integer average).',
    selectorOnly: true,
  },
  { name: 'sum', signature: 'sum(column)', doc: 'Sum of a numeric column over the selected rows.', selectorOnly: true },
  { name: 'cast', signature: 'CAST(expr AS type)', doc: 'Converts a selected value to another native type.' },
  {
    name: 'blobAsText',
    signature: 'blobAsText(blob) → text',
    doc: 'Reads a blob as text (one `blobAs<type>` function exists per native type).',
  },
  {
    name: 'textAsBlob',
    signature: 'textAsBlob(text) → blob',
    doc: 'Converts text to a blob (one `<type>AsBlob` function exists per native type).',
  },
  {
    name: 'toJson',
    signature: 'toJson(value) → text',
    doc: 'The JSON encoding of a selected value.',
    selectorOnly: true,
  },
  {
    name: 'fromJson',
    signature: 'fromJson(text)',
    doc: "Decodes a JSON string into the target column's type (INSERT/UPDATE values).",
  },
  { name: 'map_keys', signature: 'map_keys(map) → set', doc: 'The keys of a map.' },
  { name: 'map_values', signature: 'map_values(map) → list', doc: 'The values of a map.' },
  {
    name: 'collection_count',
    signature: 'collection_count(collection) → int',
    doc: 'Number of elements of a collection.',
  },
  { name: 'collection_min', signature: 'collection_min(collection)', doc: 'Smallest element of a set or list.' },
  { name: 'collection_max', signature: 'collection_max(collection)', doc: 'Largest element of a set or list.' },
  {
    name: 'collection_sum',
    signature: 'collection_sum(collection)',
    doc: 'Sum of the numeric elements of a set or list.',
  },
  {
    name: 'collection_avg',
    signature: 'collection_avg(collection)',
    doc: 'Average of the numeric elements of a set or list.',
  },
  { name: 'abs', signature: 'abs(number)', doc: 'Absolute value.' },
  { name: 'exp', signature: 'exp(number)', doc: 'e raised to the argument.' },
  { name: 'log', signature: 'log(number)', doc: 'Natural logarithm.' },
  { name: 'log10', signature: 'log10(number)', doc: 'Base-10 logarithm.' },
  { name: 'round', signature: 'round(number)', doc: 'Rounds to the closest integer (half up).' },
  {
    name: 'similarity_cosine',
    signature: 'similarity_cosine(vector, vector) → float',
    doc: 'Cosine similarity of two float vectors (vector search).',
  },
  {
    name: 'similarity_euclidean',
    signature: 'similarity_euclidean(vector, vector) → float',
    doc: 'Euclidean similarity of two float vectors.',
  },
  {
    name: 'similarity_dot_product',
    signature: 'similarity_dot_product(vector, vector) → float',
    doc: 'Dot-product similarity of two normalized float vectors.',
  },
  { name: 'mask_null', signature: 'mask_null(value)', doc: 'Dynamic data masking: replaces the value with null.' },
  {
    name: 'mask_default',
    signature: 'mask_default(value)',
    doc: 'Dynamic data masking: replaces the value with a fixed default of its type (`****` for text, 0 for numbers).',
  },
  {
    name: 'mask_replace',
    signature: 'mask_replace(value, replacement)',
    doc: 'Dynamic data masking: replaces the value with the given one.',
  },
  {
    name: 'mask_inner',
    signature: 'mask_inner(text, begin, end[, padding])',
    doc: 'Dynamic data masking: masks all but the first `begin` and last `end` characters.',
  },
  {
    name: 'mask_outer',
    signature: 'mask_outer(text, begin, end[, padding])',
    doc: 'Dynamic data masking: masks the first `begin` and last `end` characters.',
  },
  {
    name: 'mask_hash',
    signature: 'mask_hash(value[, algorithm])',
    doc: 'Dynamic data masking: replaces the value with its hash (SHA-256 by default) as a blob.',
  },
];

export const FUNCTIONS_BY_NAME: ReadonlyMap<string, FunctionDoc> = new Map(
  NATIVE_FUNCTIONS.map((f) => [f.name.toLowerCase(), f]),
);

export const NATIVE_TYPE_DOCS: Readonly<Record<string, string>> = {
  ascii: 'US-ASCII character string.',
  bigint: '64-bit signed integer.',
  blob: 'Arbitrary bytes (no validation).',
  boolean: '`true` or `false`.',
  counter:
    '64-bit counter incremented/decremented with `UPDATE ... SET c = c + n`; a table with counters holds only counters besides its key.',
  date: 'A date without time (days since the epoch).',
  decimal: 'Variable-precision decimal.',
  double: '64-bit IEEE-754 floating point.',
  duration: 'A duration with nanosecond precision (`1h30m`, `P1DT2H`); cannot be part of a primary key.',
  float: '32-bit IEEE-754 floating point.',
  inet: 'An IPv4 or IPv6 address.',
  int: '32-bit signed integer.',
  smallint: '16-bit signed integer.',
  text: 'UTF-8 encoded string.',
  time: 'A time of day with nanosecond precision.',
  timestamp: 'A date and time with millisecond precision (8 bytes).',
  timeuuid: 'A version 1 (time-based) uuid; sorts by time. Generate with `now()`.',
  tinyint: '8-bit signed integer.',
  uuid: 'A 128-bit universally unique identifier. Generate with `uuid()`.',
  varchar: 'UTF-8 encoded string (alias of text).',
  varint: 'Arbitrary-precision integer.',
  list: 'An ordered collection: `list<type>`. Keep collections small; they are read whole.',
  set: 'A sorted collection of unique values: `set<type>`.',
  map: 'Sorted key/value pairs: `map<key_type, value_type>`.',
  frozen:
    '`frozen<type>`: the value is serialized as one cell (required for collections and UDTs inside a primary key or nested collections).',
  tuple: '`tuple<type, ...>`: fixed-length, positional values (always frozen).',
  vector: '`vector<float, n>`: a fixed-length vector for similarity search (SAI `ANN OF`).',
};

export const KEYWORD_DOCS: Readonly<Record<string, string>> = {
  SELECT:
    'Reads rows: `SELECT selectors FROM table [WHERE ...] [GROUP BY ...] [ORDER BY ...] [PER PARTITION LIMIT n] [LIMIT n] [ALLOW FILTERING]`. Efficient queries restrict the whole partition key.',
  FROM: 'The table or view a query reads or a DELETE removes from.',
  WHERE:
    'Restricts rows. Restrict every partition key column with `=` or `IN` so the query goes to known partitions; clustering columns may then be restricted in order.',
  AND: 'Combines conditions (WHERE, IF) or options (WITH ... AND ...).',
  INSERT:
    'Writes a row: `INSERT INTO table (columns) VALUES (values) [IF NOT EXISTS] [USING TTL n AND TIMESTAMP t]`. Inserts are upserts.',
  INTO: 'The table an INSERT writes to.',
  VALUES: 'The values of an INSERT, in the order of its column list.',
  UPDATE:
    'Writes columns of rows selected by their full primary key: `UPDATE table [USING ...] SET col = value WHERE key = ...`. Updates are upserts.',
  SET: 'The assignments of an UPDATE (`col = value`, `col = col + {...}`, `counter = counter + 1`).',
  DELETE: 'Removes rows, a range of rows, or columns: `DELETE [columns] FROM table WHERE ...` (writes tombstones).',
  CREATE: 'Creates a keyspace, table, type, index, materialized view, function, aggregate, trigger, role or user.',
  ALTER: 'Changes a keyspace, table, type, view, role or user.',
  DROP: 'Removes a keyspace, table, type, index, view, function, aggregate, trigger, role or user.',
  TABLE: 'A table: rows grouped into partitions by the partition key and sorted by the clustering columns.',
  KEYSPACE:
    "A namespace of tables with a replication strategy (`replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3}`).",
  PRIMARY:
    '`PRIMARY KEY ((partition key), clustering columns)`: the partition key decides which nodes store a row (by its Murmur3 token); clustering columns order rows inside the partition.',
  KEY: 'Part of `PRIMARY KEY`, `CONTAINS KEY` or `KEYS(...)`.',
  CLUSTERING: '`WITH CLUSTERING ORDER BY (col DESC)`: the on-disk order of rows inside a partition.',
  ORDER: '`ORDER BY clustering_col ASC|DESC`: only clustering columns, in their declared order (or its reverse).',
  BY: 'Part of `ORDER BY`, `GROUP BY` or `CLUSTERING ORDER BY`.',
  GROUP: '`GROUP BY` partition key / clustering columns, in key order.',
  LIMIT: 'Caps the number of rows returned.',
  PER: '`PER PARTITION LIMIT n`: caps the rows returned from each partition.',
  PARTITION: '`PER PARTITION LIMIT n`.',
  ALLOW:
    '`ALLOW FILTERING`: lets Cassandra scan and discard rows; its cost grows with the data scanned. Prefer a table designed for the query.',
  FILTERING: '`ALLOW FILTERING`: lets Cassandra scan and discard rows; its cost grows with the data scanned.',
  USING: "`USING TTL seconds AND TIMESTAMP microseconds` on writes, or `USING 'class'` on CREATE INDEX.",
  TTL: 'Time to live in seconds: written cells expire (become tombstones) after it. `ttl(col)` reads the remaining TTL.',
  TIMESTAMP: 'A write timestamp in microseconds (`USING TIMESTAMP`), or the `timestamp` type.',
  IF: '`IF NOT EXISTS` / `IF EXISTS` / `IF cond`: a lightweight transaction (Paxos, ~4 round trips) on writes; a no-error guard on DDL.',
  EXISTS: 'Part of `IF EXISTS` / `IF NOT EXISTS`.',
  NOT: 'Part of `IF NOT EXISTS`, `IS NOT NULL`, `NOT IN`.',
  IN: '`col IN (a, b)`: several values. On a partition key it makes a multi-partition query coordinated by one node.',
  CONTAINS: '`col CONTAINS value` / `CONTAINS KEY`: matches collection elements (needs an index or ALLOW FILTERING).',
  BATCH: '`BEGIN BATCH ... APPLY BATCH`: applies writes atomically; efficient only when they target one partition.',
  BEGIN: 'Starts a batch: `BEGIN [UNLOGGED | COUNTER] BATCH`.',
  APPLY: 'Ends a batch: `APPLY BATCH`.',
  UNLOGGED: '`BEGIN UNLOGGED BATCH`: no batch log (no atomicity across partitions).',
  INDEX:
    "A secondary index. Prefer SAI (`CREATE INDEX ... USING 'sai'`); legacy indexes on high-cardinality columns scan every node.",
  CUSTOM: "`CREATE CUSTOM INDEX ... USING 'class'`.",
  MATERIALIZED:
    '`CREATE MATERIALIZED VIEW`: a server-maintained copy of a table keyed differently (experimental in Cassandra 4+/5).',
  VIEW: 'A materialized view.',
  TYPE: 'A user-defined type (UDT): named fields, used frozen in keys and collections.',
  WITH: 'Options: table options (compaction, compression, caching, default_time_to_live, gc_grace_seconds, ...), keyspace replication, role options.',
  COMPACT: '`COMPACT STORAGE`: legacy Thrift-era layout; deprecated.',
  STATIC: 'A static column: one value shared by every row of a partition.',
  FROZEN: '`frozen<type>`: the value is serialized as one cell.',
  USE: 'Sets the current keyspace for the following statements.',
  TRUNCATE: 'Removes all data of a table (on every node).',
  JSON: '`SELECT JSON` / `INSERT JSON`: rows as JSON documents.',
  DISTINCT: '`SELECT DISTINCT partition_key`: one row per partition.',
  AS: 'An alias (`SELECT col AS name`) or part of `CAST(x AS type)`.',
  ASC: 'Ascending order.',
  DESC: 'Descending order (or DESCRIBE in cqlsh).',
  TOKEN: '`token(partition key)`: the Murmur3 token (a bigint in -2^63..2^63-1) that places a partition on the ring.',
  WRITETIME: '`writetime(col)`: the write timestamp of a cell, in microseconds.',
  COUNT: '`count(*)` / `count(col)`: counts rows (scans what it counts).',
  CAST: '`CAST(expr AS type)`: converts a selected value.',
  NULL: 'No value. Writing null creates a tombstone.',
  ANN: '`ORDER BY vec ANN OF [..]`: approximate nearest-neighbour vector search (needs an SAI index).',
  MASKED: '`MASKED WITH mask_fn(...)`: dynamic data masking of a column.',
  LIKE: "`LIKE 'pattern%'` (SASI/SAI) or `CREATE TABLE t LIKE other`.",
  BETWEEN: '`col BETWEEN a AND b`: an inclusive range.',
  OPTIONS: 'Index options: `WITH OPTIONS = {...}`.',
  REPLACE: '`CREATE OR REPLACE FUNCTION`.',
  FUNCTION: 'A user-defined function (UDF).',
  AGGREGATE: 'A user-defined aggregate (UDA).',
  TRIGGER: 'A trigger class run on writes to a table.',
  ROLE: 'A role (authentication/authorization).',
  GRANT: 'Gives a permission on a resource to a role.',
  REVOKE: 'Takes a permission back from a role.',
};

interface OptionDoc {
  name: string;
  doc: string;
  /** Text inserted after `name = `. */
  valueSnippet: string;
}

export const TABLE_OPTIONS: readonly OptionDoc[] = [
  {
    name: 'compaction',
    doc: "How SSTables are merged: `{'class': 'UnifiedCompactionStrategy'}` (5.0), `SizeTieredCompactionStrategy` (default before 5.0), `LeveledCompactionStrategy` (read-heavy), `TimeWindowCompactionStrategy` (time series with TTL).",
    valueSnippet:
      "{'class': '${1|UnifiedCompactionStrategy,SizeTieredCompactionStrategy,LeveledCompactionStrategy,TimeWindowCompactionStrategy|}'}",
  },
  {
    name: 'compression',
    doc: "SSTable compression: `{'class': 'LZ4Compressor', 'chunk_length_in_kb': 16}`; `{'enabled': false}` disables it.",
    valueSnippet: "{'class': '${1|LZ4Compressor,ZstdCompressor,SnappyCompressor,DeflateCompressor|}'}",
  },
  {
    name: 'default_time_to_live',
    doc: 'TTL in seconds applied to every write without its own TTL (0 = none). Bounds partitions that would otherwise grow forever.',
    valueSnippet: '${1:86400}',
  },
  {
    name: 'gc_grace_seconds',
    doc: 'How long tombstones are kept before compaction may purge them (default 864000 = 10 days); repair must run more often than this.',
    valueSnippet: '${1:864000}',
  },
  {
    name: 'caching',
    doc: "Key and row caches: `{'keys': 'ALL', 'rows_per_partition': 'NONE'}`.",
    valueSnippet: "{'keys': '${1|ALL,NONE|}', 'rows_per_partition': '${2:NONE}'}",
  },
  { name: 'comment', doc: 'A free-text description of the table.', valueSnippet: "'${1}'" },
  {
    name: 'bloom_filter_fp_chance',
    doc: 'Target false-positive rate of the SSTable bloom filters (default 0.01; 0.1 with LCS).',
    valueSnippet: '${1:0.01}',
  },
  {
    name: 'speculative_retry',
    doc: "When the coordinator sends a redundant read: `'99p'` (default), `'50ms'`, `'ALWAYS'`, `'NONE'`.",
    valueSnippet: "'${1:99p}'",
  },
  {
    name: 'additional_write_policy',
    doc: "When to send speculative writes to extra replicas (default `'99p'`).",
    valueSnippet: "'${1:99p}'",
  },
  {
    name: 'memtable_flush_period_in_ms',
    doc: 'Forces memtable flushes at this period (0 = only when full).',
    valueSnippet: '${1:0}',
  },
  { name: 'min_index_interval', doc: 'Minimum gap between partition index summary entries.', valueSnippet: '${1:128}' },
  {
    name: 'max_index_interval',
    doc: 'Maximum gap between partition index summary entries.',
    valueSnippet: '${1:2048}',
  },
  {
    name: 'crc_check_chance',
    doc: 'Probability of verifying checksums of compressed blocks on read.',
    valueSnippet: '${1:1.0}',
  },
  {
    name: 'cdc',
    doc: 'Change data capture: keep commit log segments for this table.',
    valueSnippet: '${1|true,false|}',
  },
  { name: 'read_repair', doc: "`'BLOCKING'` (default) or `'NONE'`.", valueSnippet: "'${1|BLOCKING,NONE|}'" },
  {
    name: 'memtable',
    doc: 'The memtable configuration (from cassandra.yaml `memtable.configurations`).',
    valueSnippet: "'${1:default}'",
  },
];

export const KEYSPACE_OPTIONS: readonly OptionDoc[] = [
  {
    name: 'replication',
    doc: "Where replicas go: `{'class': 'NetworkTopologyStrategy', 'dc1': 3}` (production) or `SimpleStrategy` with `replication_factor` (one data centre, tests).",
    valueSnippet: "{'class': '${1|NetworkTopologyStrategy,SimpleStrategy|}', '${2:replication_factor}': ${3:3}}",
  },
  {
    name: 'durable_writes',
    doc: 'Whether writes go to the commit log (default true; false risks data loss).',
    valueSnippet: '${1|true,false|}',
  },
];

interface ClassDoc {
  name: string;
  doc: string;
}

export const COMPACTION_CLASSES: readonly ClassDoc[] = [
  {
    name: 'UnifiedCompactionStrategy',
    doc: 'UCS (Cassandra 5.0): adaptive tiered/leveled compaction; the recommended default for new tables.',
  },
  {
    name: 'SizeTieredCompactionStrategy',
    doc: 'STCS: merges SSTables of similar size; good for write-heavy tables; reads may touch many SSTables.',
  },
  {
    name: 'LeveledCompactionStrategy',
    doc: 'LCS: levels of non-overlapping SSTables; predictable reads for read-heavy tables, more compaction I/O.',
  },
  {
    name: 'TimeWindowCompactionStrategy',
    doc: 'TWCS: one SSTable per time window; for time series written in time order with a TTL (whole SSTables expire).',
  },
];

export const COMPRESSION_CLASSES: readonly ClassDoc[] = [
  { name: 'LZ4Compressor', doc: 'Fast compression (the default).' },
  { name: 'ZstdCompressor', doc: 'Better ratio than LZ4 at more CPU; `compression_level` 1..22.' },
  { name: 'SnappyCompressor', doc: 'Snappy compression.' },
  { name: 'DeflateCompressor', doc: 'Deflate (zlib): best ratio, slowest.' },
  { name: 'NoopCompressor', doc: 'Checksums without compression.' },
];

/** Sub-options inside the compaction / compression maps. */
export const COMPACTION_SUBOPTIONS: readonly ClassDoc[] = [
  { name: 'class', doc: 'The strategy class.' },
  { name: 'compaction_window_unit', doc: 'TWCS window unit: MINUTES, HOURS or DAYS.' },
  { name: 'compaction_window_size', doc: 'TWCS: number of units per window.' },
  { name: 'sstable_size_in_mb', doc: 'LCS: target SSTable size (default 160).' },
  { name: 'min_threshold', doc: 'STCS: minimum SSTables to trigger a minor compaction (default 4).' },
  { name: 'max_threshold', doc: 'STCS: maximum SSTables compacted at once (default 32).' },
  { name: 'scaling_parameters', doc: 'UCS: `T4`, `L10`, `N`... (tiered vs leveled behaviour).' },
  { name: 'unchecked_tombstone_compaction', doc: 'Allow single-SSTable tombstone compactions without overlap checks.' },
  {
    name: 'tombstone_threshold',
    doc: 'Ratio of droppable tombstones that triggers a single-SSTable compaction (default 0.2).',
  },
  { name: 'enabled', doc: 'Whether compaction/compression is enabled.' },
];

export const COMPRESSION_SUBOPTIONS: readonly ClassDoc[] = [
  { name: 'class', doc: 'The compressor class.' },
  { name: 'chunk_length_in_kb', doc: 'Compression block size (default 16).' },
  { name: 'compression_level', doc: 'Zstd level (1..22, default 3).' },
  { name: 'enabled', doc: 'Whether compression is enabled.' },
];
