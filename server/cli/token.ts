// `cqlint token`: exact Murmur3Partitioner tokens (and shard values, owning ranges, replicas) for keys.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CreateKeyspaceStatement, CreateTableStatement, CreateTypeStatement, ParseResult, Statement } from '../../grammar/ast';
import { parseRing, type Replication, replicasFor, replicationFromKeyspace, replicationFromMap, type Ring, RingParseError, tokenRangeOf } from '../core/token/ring';
import { computeShardValue, formatShardFormula, type ShardSpec, type SourceValue } from '../core/token/shard';
import { shardAnnotationAbove } from '../core/schema/shard';
import { KeyEncoder, toHex, toProblem } from '../core/token/token';
import { type KeyType, keyTypeFromAst, udtLookupFromStatements } from '../core/token/types';
import { type KeyValue, parseKeyValue } from '../core/token/values';

type Out = ((s: string) => void) | { write(s: string): unknown };

/** Streams the command writes to; `stdout`/`stderr` may be functions or objects with `write` (CliIO). */
export interface TokenCommandIO {
  stdout: Out;
  stderr: Out;
  stdin?: NodeJS.ReadableStream;
  cwd?: string;
  /** The CQL parser for --schema (defaults to grammar's parseCql); tests may inject one. */
  parseCql?: (text: string) => ParseResult;
}

const USAGE = `Usage:
  cqlint token --types <t1,t2,...> <value...>
  cqlint token --schema <file|folder> <keyspace.table> <value...|col=value...>
  cqlint token ... --json                 (no values: read one JSON array (or {col: value} object) per line from stdin)

Prints the Murmur3Partitioner token of a partition key, exactly as SELECT token(...) returns it.

Options:
  --types T,...        partition key column types in key order (e.g. date,int or 'frozen<list<int>>')
  --schema PATH        CQL file or folder; the table's partition key gives the types. For a table with a
                       '-- @shard' annotation you may give the source columns (title='...') instead of the
                       shard column; the shard value is computed and printed.
  --ring FILE          'nodetool ring', 'nodetool describering' or JSON {"node": ["token", ...]}: also print
                       the owning token range and the replicas
  --replication SPEC   SimpleStrategy RF ('3') or per-DC RFs ('dc1:3,dc2:2'); default: the keyspace's
                       CREATE KEYSPACE in --schema, else 1
  --json               JSON output, one object per key
  -h, --help           this help

Values are CQL literals; quotes are optional for text, dates, times, timestamps, inet and uuid
(2020-07-09, '2020-07-09' and 17 all work). Timestamps without a zone are read as UTC.
A bare integer for a date column is Cassandra's raw day number (2147483648 = 1970-01-01).
Exit status: 0 ok, 2 bad usage or input (in stdin mode: when any line failed; the others are still printed).
For a table with a calculated @shard, positional values may be the partition key without the shard column
followed by the source columns that are not in the key (e.g. publish_date title).`;

class CliError extends Error {}

function writer(out: Out): (s: string) => void {
  return typeof out === 'function' ? out : (s: string) => { out.write(s); };
}

/** Splits `date,frozen<map<text,int>>` on top-level commas. */
export function splitTypes(text: string): string[] {
  const out: string[] = [];
  let depth = 0, cur = '';
  for (const ch of text) {
    if (ch === '<') depth++;
    if (ch === '>') depth--;
    if (ch === ',' && depth === 0) { out.push(cur.trim()); cur = ''; continue; }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

interface Options {
  types?: string;
  schema?: string;
  ring?: string;
  replication?: string;
  json: boolean;
  help: boolean;
  positional: string[];
}

function parseArgs(args: string[]): Options {
  const o: Options = { json: false, help: false, positional: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const valueOf = (name: string): string => {
      const eq = a.indexOf('=');
      if (a.startsWith('--') && eq > 0) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new CliError(`${name} needs a value`);
      return v;
    };
    if (a === '--') { o.positional.push(...args.slice(i + 1)); break; }
    if (a === '-h' || a === '--help') o.help = true;
    else if (a === '--json') o.json = true;
    else if (a === '--types' || a.startsWith('--types=')) o.types = valueOf('--types');
    else if (a === '--schema' || a.startsWith('--schema=')) o.schema = valueOf('--schema');
    else if (a === '--ring' || a.startsWith('--ring=')) o.ring = valueOf('--ring');
    else if (a === '--replication' || a.startsWith('--replication=')) o.replication = valueOf('--replication');
    else if (a.startsWith('--') && !/^--?\d/.test(a)) throw new CliError(`unknown option ${a}`);
    else o.positional.push(a);
  }
  return o;
}

// -------------------------------------------------------------------------------------------------
// Schema

interface SchemaTable {
  keyspace?: string;
  table: CreateTableStatement;
  parse: ParseResult;
  text: string;
  file: string;
}

interface Schema {
  tables: SchemaTable[];
  keyspaces: CreateKeyspaceStatement[];
  types: CreateTypeStatement[];
}

type ParseCql = (text: string) => ParseResult;

function loadParser(): ParseCql {
  try {
    // The grammar is loaded lazily so that `--types` works without it.
    const mod = require('../../grammar') as { parseCql?: ParseCql };
    if (typeof mod.parseCql === 'function') return mod.parseCql;
  } catch {
    // fall through
  }
  throw new CliError('--schema needs the CQL parser (grammar/index.ts parseCql), which is not available in this build');
}

function cqlFiles(path: string): string[] {
  const st = statSync(path);
  if (!st.isDirectory()) return [path];
  const out: string[] = [];
  for (const name of readdirSync(path).sort()) {
    const p = join(path, name);
    if (statSync(p).isDirectory()) { if (name !== 'node_modules' && !name.startsWith('.')) out.push(...cqlFiles(p)); }
    else if (name.endsWith('.cql')) out.push(p);
  }
  return out;
}

function loadSchema(path: string, parseCql: ParseCql): Schema {
  let files: string[];
  try {
    files = cqlFiles(path);
  } catch (e) {
    throw new CliError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!files.length) throw new CliError(`no .cql files in ${path}`);
  const schema: Schema = { tables: [], keyspaces: [], types: [] };
  for (const file of files) {
    let text: string;
    try { text = readFileSync(file, 'utf8'); } catch (e) { throw new CliError(`cannot read ${file}: ${(e as Error).message}`); }
    const parse = parseCql(text);
    let current: string | undefined;
    const visit = (st: Statement): void => {
      if (st.kind === 'Use') current = st.keyspace.name;
      else if (st.kind === 'CreateKeyspace') schema.keyspaces.push(st);
      else if (st.kind === 'CreateType') schema.types.push(st);
      else if (st.kind === 'CreateTable') schema.tables.push({ keyspace: st.name.keyspace?.name ?? current, table: st, parse, text, file });
    };
    parse.statements.forEach(visit);
  }
  return schema;
}

function normalizeName(n: string): string {
  return n.startsWith('"') && n.endsWith('"') ? n.slice(1, -1).replace(/""/g, '"') : n.toLowerCase();
}

function findTable(schema: Schema, qualified: string): SchemaTable {
  const dot = qualified.match(/^("(?:[^"]|"")+"|[^.]+)\.(.+)$/);
  const ks = dot ? normalizeName(dot[1]) : undefined;
  const name = normalizeName(dot ? dot[2] : qualified);
  const matches = schema.tables.filter((t) => t.table.name.name.name === name && (!ks || t.keyspace === ks));
  if (!matches.length) {
    const known = schema.tables.map((t) => (t.keyspace ? `${t.keyspace}.` : '') + t.table.name.name.name);
    throw new CliError(`table ${qualified} not found in the schema${known.length ? ` (tables: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', ...' : ''})` : ''}`);
  }
  if (matches.length > 1 && !ks) throw new CliError(`table ${qualified} is defined in several keyspaces (${matches.map((m) => m.keyspace).join(', ')}); write keyspace.table`);
  return matches[matches.length - 1];
}

// -------------------------------------------------------------------------------------------------
// Key shape

interface KeyShape {
  /** False for --types (columns are only numbered). */
  named?: boolean;
  columns: { name: string; type: KeyType }[];
  /** Every table column's type (for named values and shard sources). */
  allColumns?: Map<string, KeyType>;
  shard?: ShardSpec;
  replication?: Replication;
}

function shapeFromTypes(types: string): KeyShape {
  const parts = splitTypes(types);
  if (!parts.length) throw new CliError('--types needs at least one type');
  // KeyEncoder resolves and checks the texts; names are for messages only.
  return { named: false, columns: parts.map((t, i) => ({ name: `#${i + 1}`, type: t as unknown as KeyType })) };
}

function shapeFromSchema(schema: Schema, tableName: string): KeyShape {
  const st = findTable(schema, tableName);
  const pk = st.table.primaryKey?.partitionKey;
  if (!pk?.length) throw new CliError(`table ${tableName} has no primary key`);
  const udts = udtLookupFromStatements(schema.types);
  const allColumns = new Map<string, KeyType>();
  for (const c of st.table.columns) allColumns.set(c.name.name, keyTypeFromAst(c.type, udts));
  const columns = pk.map((id) => {
    const type = allColumns.get(id.name);
    if (!type) throw new CliError(`partition key column ${id.name} of ${tableName} has no definition`);
    return { name: id.name, type };
  });
  let shard: ShardSpec | undefined;
  const annotation = shardAnnotationAbove(st.parse.comments, st.text, st.table.range.start.offset);
  if (annotation) {
    const r = annotation.result;
    if (r && !r.ok) throw new CliError(`${st.file}:${r.error.range.start.line}:${r.error.range.start.column}: ${r.error.message}`);
    if (r?.ok) shard = r.spec;
  }
  const ks = schema.keyspaces.find((k) => k.name.name === st.keyspace);
  return { named: true, columns, allColumns, shard, replication: ks ? replicationFromKeyspace(ks) : undefined };
}

function parseReplication(spec: string): Replication {
  if (/^\d+$/.test(spec)) return { strategy: 'SimpleStrategy', replicationFactor: Number(spec) };
  const m = /^SimpleStrategy:(\d+)$/i.exec(spec);
  if (m) return { strategy: 'SimpleStrategy', replicationFactor: Number(m[1]) };
  const map: Record<string, string> = { class: 'NetworkTopologyStrategy' };
  for (const part of spec.split(',')) {
    const kv = /^\s*([^:=\s]+)\s*[:=]\s*(\d+)\s*$/.exec(part);
    if (!kv) throw new CliError(`--replication: expected an RF ('3') or dc:rf pairs ('dc1:3,dc2:2'), got '${spec}'`);
    map[kv[1]] = kv[2];
  }
  return replicationFromMap(map);
}

// -------------------------------------------------------------------------------------------------
// One key

interface KeyResult {
  token: string;
  key: string;
  shard?: { column: string; value: number; formula: string };
  range?: { start: string; end: string };
  replicas?: string[];
}

/** Values given positionally (in key order) or by name (`col=value`, or a JSON object). */
type GivenValues = { positional: KeyValue[] } | { named: Record<string, KeyValue> };

function computeOne(shape: KeyShape, given: GivenValues, encoder: KeyEncoder, ring?: Ring, replication?: Replication): KeyResult {
  const names = shape.columns.map((c) => c.name);
  const values: Record<string, KeyValue> = {};
  let shardOut: KeyResult['shard'];
  if ('positional' in given) {
    const spec = shape.shard;
    // A sharded table may take the source values instead of the shard (positionally: the key with the
    // shard column left out, followed by the sources that are not key columns).
    const keyWithoutShard = spec ? names.filter((n) => n !== spec.shardColumn) : names;
    const extraSources = spec ? spec.sources.filter((s) => !names.includes(s)) : [];
    const expected = keyWithoutShard.length + extraSources.length;
    let sourceForm = !!spec && spec.method !== 'random' && given.positional.length !== names.length;
    if (spec && spec.method !== 'random' && given.positional.length === names.length && expected === names.length) {
      // Both forms have as many values: it is the key itself only when the shard position holds a valid shard.
      const at = names.indexOf(spec.shardColumn);
      const shardType = shape.columns[at]?.type;
      try {
        if (shardType) parseKeyValue(shardType, given.positional[at], {});
      } catch {
        sourceForm = true;
      }
    }
    if (spec && sourceForm) {
      if (given.positional.length !== expected) {
        throw new CliError(`expected ${names.length} values (${names.join(', ')}) or ${expected} (${[...keyWithoutShard, ...extraSources].join(', ')}), got ${given.positional.length}`);
      }
      [...keyWithoutShard, ...extraSources].forEach((n, i) => { values[n] = given.positional[i]; });
    } else {
      if (given.positional.length !== names.length) {
        throw new CliError(`expected ${names.length} value${names.length === 1 ? '' : 's'}${shape.named ? ` (${names.join(', ')})` : ''}, got ${given.positional.length}`);
      }
      names.forEach((n, i) => { values[n] = given.positional[i]; });
    }
  } else {
    for (const [k, v] of Object.entries(given.named)) {
      const n = normalizeName(k);
      if (shape.allColumns && !shape.allColumns.has(n)) throw new CliError(`unknown column ${k}`);
      if (!shape.allColumns && !names.includes(n)) throw new CliError(`unknown column ${k}`);
      values[n] = v;
    }
  }
  const spec = shape.shard;
  if (spec && spec.method !== 'random' && spec.sources.every((s) => values[s] !== undefined)) {
    const sources: Record<string, SourceValue> = {};
    for (const s of spec.sources) {
      const type = shape.allColumns?.get(s);
      if (!type) throw new CliError(`@shard source column ${s} is not a column of the table`);
      sources[s] = { type, value: values[s] };
    }
    const r = computeShardValue(spec, sources);
    if (!r.ok) throw new CliError(r.reason);
    shardOut = { column: spec.shardColumn, value: r.value, formula: `${spec.shardColumn} = ${formatShardFormula(spec)}` };
    if (values[spec.shardColumn] === undefined) values[spec.shardColumn] = r.value;
  }
  const missing = names.filter((n) => values[n] === undefined);
  if (missing.length) {
    const hint = spec && missing.includes(spec.shardColumn) && spec.method !== 'random'
      ? ` (or give ${spec.sources.join(', ')} to compute ${spec.shardColumn})` : '';
    throw new CliError(`missing value for partition key column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}${hint}`);
  }
  const parsed = encoder.parse(names.map((n) => values[n]));
  const token = encoder.token(parsed);
  const result: KeyResult = { token: token.toString(), key: toHex(encoder.bytes(parsed)) };
  if (shardOut) {
    result.shard = shardOut;
    const idx = names.indexOf(shardOut.column);
    const written = idx >= 0 ? parsed[idx] : undefined;
    if (written !== undefined && Number(written) !== shardOut.value) {
      throw new CliError(`${shardOut.column} = ${String(written)} but ${shardOut.formula.split(' = ')[1]} gives ${shardOut.value}`);
    }
  }
  if (ring) {
    const range = tokenRangeOf(ring, token);
    result.range = { start: range.start.toString(), end: range.end.toString() };
    result.replicas = replicasFor(ring, token, replication ?? { strategy: 'SimpleStrategy', replicationFactor: 1 }).map((n) => n.address);
  }
  return result;
}

function formatText(r: KeyResult): string {
  const lines = [r.token];
  if (r.shard) lines.push(`shard: ${r.shard.value} (${r.shard.formula})`);
  if (r.range) lines.push(`range: (${r.range.start}, ${r.range.end}]`);
  if (r.replicas) lines.push(`replicas: ${r.replicas.join(', ')}`);
  return lines.join('\n') + '\n';
}

function namedOrPositional(values: string[]): GivenValues {
  const named = values.every((v) => /^("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*)=/.test(v));
  if (named && values.length) {
    const out: Record<string, KeyValue> = {};
    for (const v of values) {
      const m = /^("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(v)!;
      out[m[1]] = m[2];
    }
    return { named: out };
  }
  return { positional: values };
}

async function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): Promise<void> {
  let buffered = '';
  stream.setEncoding?.('utf8');
  for await (const chunk of stream as AsyncIterable<string | Buffer>) {
    buffered += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      onLine(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
  }
  if (buffered.length) onLine(buffered);
}

function errorMessage(e: unknown): string {
  if (e instanceof CliError || e instanceof RingParseError) return e.message;
  return toProblem(e).message;
}

/** Runs `cqlint token <args>`; returns the exit code (0 ok, 2 bad usage or input). */
export async function runTokenCommand(args: string[], io: TokenCommandIO): Promise<number> {
  const out = writer(io.stdout);
  const err = writer(io.stderr);
  let opts: Options;
  try {
    opts = parseArgs(args);
  } catch (e) {
    err(`cqlint token: ${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (opts.help) { out(USAGE + '\n'); return 0; }
  try {
    const cwd = io.cwd ?? process.cwd();
    let shape: KeyShape;
    let values = opts.positional;
    if (opts.schema) {
      if (opts.types) throw new CliError('give either --types or --schema, not both');
      const tableName = values[0];
      if (!tableName) throw new CliError('--schema needs the table: cqlint token --schema <file|folder> <keyspace.table> <values...>');
      values = values.slice(1);
      shape = shapeFromSchema(loadSchema(resolve(cwd, opts.schema), io.parseCql ?? loadParser()), tableName);
    } else if (opts.types) {
      shape = shapeFromTypes(opts.types);
    } else {
      throw new CliError('give the key types with --types (e.g. --types date,int) or a table with --schema');
    }
    const encoder = new KeyEncoder(shape.columns.map((c) => c.type), { columns: shape.named ? shape.columns.map((c) => c.name) : undefined });
    shape.columns = shape.columns.map((c, i) => ({ name: c.name, type: encoder.types[i] }));
    let ring: Ring | undefined;
    if (opts.ring) {
      let text: string;
      try { text = readFileSync(resolve(cwd, opts.ring), 'utf8'); } catch (e) { throw new CliError(`cannot read ring file ${opts.ring}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
      ring = parseRing(text);
    }
    const replication = opts.replication ? parseReplication(opts.replication) : shape.replication;

    if (!values.length) {
      if (!opts.json) throw new CliError('no values given (to read keys from stdin, use --json with one JSON array per line)');
      const stdin = io.stdin ?? process.stdin;
      let failed = 0;
      await readLines(stdin, (line) => {
        if (!line.trim()) return;
        try {
          let data: unknown;
          try { data = JSON.parse(line); } catch (e) { throw new CliError(`line is not JSON: ${(e as Error).message}`); }
          let given: GivenValues;
          if (Array.isArray(data)) given = { positional: data.map((v) => ({ json: v })) };
          else if (typeof data === 'object' && data !== null) given = { named: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, { json: v }])) };
          else throw new CliError('each line must be a JSON array of values (or an object of column: value)');
          out(JSON.stringify(computeOne(shape, given, encoder, ring, replication)) + '\n');
        } catch (e) {
          failed++;
          out(JSON.stringify({ error: errorMessage(e) }) + '\n');
        }
      });
      return failed ? 2 : 0;
    }
    const result = computeOne(shape, namedOrPositional(values), encoder, ring, replication);
    out(opts.json ? JSON.stringify(result) + '\n' : formatText(result));
    return 0;
  } catch (e) {
    err(`cqlint token: ${errorMessage(e)}\n`);
    return 2;
  }
}
