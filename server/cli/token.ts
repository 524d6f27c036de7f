// `cqlint token`: exact Murmur3Partitioner tokens (and shard values, owning ranges, replicas) for keys.
// --schema loads the CQL into a Project, as `cqlint lint` does, and reads the table from its schema model.
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { CONFIG_FILE_NAME, findConfigFor, loadConfigFile } from '../core/config';
import { Project } from '../core/engine/project';
import { columnKeyType, udtLookupFor } from '../core/schema/key-values';
import type { TableInfo } from '../core/schema/model';
import { parseTableName, resolveTableName } from '../core/schema/resolve';
import { foldName } from '../core/util/names';
import { shardAnnotationAbove } from '../core/schema/shard';
import {
  parseRing,
  type Replication,
  replicasFor,
  replicationFromMap,
  type Ring,
  RingParseError,
  tokenRangeOf,
} from '../core/token/ring';
import { formatShardFormula, shardValueFrom, type ShardSpec } from '../core/token/shard';
import { KeyEncoder, toHex, toProblem } from '../core/token/token';
import { parseTypeSpecs, type KeyType } from '../core/token/types';
import { type KeyValue, parseKeyValue } from '../core/token/values';
import { collectSourceFiles, keepSourceFile } from './sources';
import { jsonTerminalSafe, terminalStream } from './terminal';
import {
  EXIT,
  InputError,
  UsageError,
  displayPath,
  parseCommandArgs,
  inputFolders,
  readInput,
  readRequiredInput,
  type CliIO,
} from './io';
import { HELP_OPTION, commandHelp, type CliOptions, type CommandSpec } from './options';
import { LineIndex } from '../../grammar/line-index';

const TOKEN_OPTIONS = {
  types: {
    type: 'string',
    value: 'T,...',
    help: "Partition key column types in key order (e.g. date,int or 'frozen<list<int>>')",
  },
  schema: {
    type: 'string',
    value: 'path',
    help: "CQL file or folder; the table's partition key gives the types. For a table with a '-- @shard' annotation you may give the source columns (title='...') instead of the shard column; the shard value is computed and printed.",
  },
  ring: {
    type: 'string',
    value: 'file',
    help: '\'nodetool ring\', \'nodetool describering\' or JSON {"node": ["token", ...]}: also print the owning token range and the replicas (default: the ring of the .cqlint.json found from --schema, else from the working directory)',
  },
  'no-config': { type: 'boolean', help: 'Ignore .cqlint.json files (and the ring they name)' },
  replication: {
    type: 'string',
    value: 'spec',
    help: "SimpleStrategy RF ('3') or per-DC RFs ('dc1:3,dc2:2'); default: the keyspace's CREATE KEYSPACE in --schema, else 1",
  },
  json: {
    type: 'boolean',
    help: 'JSON output, one object per key; without values, read one JSON array (or {col: value} object) per line from stdin',
  },
  ...HELP_OPTION,
} satisfies CliOptions;

export const TOKEN_COMMAND: CommandSpec = {
  name: 'token',
  summary: 'compute Murmur3 tokens and shard values for partition keys',
  usage: [
    '--types <T,...> [options] <value...>',
    '--schema <path> [options] <keyspace.table> <value...|col=value...>',
    '(--types <T,...> | --schema <path> <keyspace.table>) --json [options]    (keys from stdin, one per line)',
  ],
  description: 'Prints the Murmur3Partitioner token of a partition key, exactly as SELECT token(...) returns it.',
  options: TOKEN_OPTIONS,
  notes: `Values are CQL literals; quotes are optional for text, dates, times, timestamps, inet and uuid
(2020-07-09, '2020-07-09' and 17 all work). Timestamps without a zone are read as UTC.
A bare integer for a date column is Cassandra's raw day number (2147483648 = 1970-01-01).

Values may be positional, by name (col=value, for --schema) or both: named values go to their columns,
positional ones fill the remaining partition key columns in order. For a table with a calculated @shard,
the shard column may be left out when its source columns are given: then the positional values are the
rest of the key followed by the sources that are not key columns (e.g. publish_date title), or the
sources are named (publish_date title='Hello').`,
  exitStatus: '0 ok, 2 bad usage or input (in stdin mode: when any line failed; the others are still printed).',
};

/** Bad input for one key (in stdin mode the line gets it and the others go on). */
class CliError extends InputError {}

interface Options {
  types?: string;
  schema?: string;
  ring?: string;
  noConfig: boolean;
  replication?: string;
  json: boolean;
  help: boolean;
  positional: string[];
}

/** A negative number stands for itself among the values (`--types int -5`), not for an option. */
const NEGATIVE_NUMBER = /^-\d/;

function parseTokenArgs(args: string[]): Options {
  // parseArgs reads `-5` as an option: hide such values as positionals, then put them back.
  const hidden = new Map<string, string>();
  const hide = args.map((arg, i) => {
    const previous = args[i - 1];
    const isOptionValue = previous !== undefined && /^--(types|schema|ring|replication)$/.test(previous);
    if (!NEGATIVE_NUMBER.test(arg) || isOptionValue || args.slice(0, i).includes('--')) return arg;
    const placeholder = `\u0000${i}`;
    hidden.set(placeholder, arg);
    return placeholder;
  });
  const { values, positionals } = parseCommandArgs(hide, TOKEN_OPTIONS);
  return {
    types: values.types,
    schema: values.schema,
    ring: values.ring,
    noConfig: values['no-config'] === true,
    replication: values.replication,
    json: values.json === true,
    help: values.help === true,
    positional: positionals.map((p) => hidden.get(p) ?? p),
  };
}

// -------------------------------------------------------------------------------------------------
// Schema

/** The files of --schema in one Project (one schema model), read and walked as lint reads them. */
async function loadSchema(schemaPath: string, io: CliIO): Promise<Project> {
  // Any file that cannot be read stops the command: a token from part of the schema could be wrong.
  const report = {
    fail: (message: string): never => {
      throw new InputError(message);
    },
    failed: false,
  };
  // A schema may be created by application code too (CREATE TABLE in a migration class).
  const files = await collectSourceFiles([schemaPath], io, report, undefined, { configFor: () => undefined });
  const project = new Project({ config: {} });
  for (const file of files) {
    const read = await readInput(file, io, report);
    if (!read) continue;
    project.setFile(file, read.text);
    keepSourceFile(project, file, io);
  }
  return project;
}

/**
 * The ring the nearest .cqlint.json names (as lint finds configs: upward from the --schema file or folder,
 * else from the working directory), and where it may be read: as lint and report read what a .cqlint.json
 * names, only inside that config's folder and the input's (the --schema's folder, else the working
 * directory); a .cqlint.json whose real path is outside them is not read. A broken .cqlint.json is an
 * input error, as for lint.
 */
async function configuredRing(
  schemaPath: string | undefined,
  io: CliIO,
): Promise<{ file: string; roots: string[] } | undefined> {
  const from = schemaPath === undefined ? io.cwd : path.resolve(io.cwd, schemaPath);
  const found = findConfigFor(
    existsSync(from) && statSync(from).isDirectory() ? path.join(from, CONFIG_FILE_NAME) : from,
  );
  if (found === undefined) return undefined;
  const roots = [path.dirname(found), ...(schemaPath === undefined ? [io.cwd] : await inputFolders([schemaPath], io))];
  const loaded = loadConfigFile(found, { roots });
  if (loaded.errors.length) throw new InputError(loaded.errors.map((e) => e.message).join('; '));
  return loaded.config?.ring === undefined ? undefined : { file: loaded.config.ring, roots };
}

/** The table a command-line name resolves to, by the rule the editor and the rules follow (schema/resolve.ts). */
function findTable(project: Project, qualified: string): TableInfo {
  const name = parseTableName(qualified);
  if (!name) throw new UsageError(`${qualified} is not a table name: write keyspace.table`);
  const matches = resolveTableName(project.schema(), undefined, name).filter((t) => t.kind === 'table');
  if (!matches.length) {
    const known = project
      .schema()
      .allTables()
      .filter((t) => t.kind === 'table')
      .map((t) => t.qualifiedName);
    throw new CliError(
      `table ${qualified} not found in the schema${known.length ? ` (tables: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', ...' : ''})` : ''}`,
    );
  }
  const keyspaces = [...new Set(matches.map((m) => m.keyspace))];
  if (keyspaces.length > 1 && !name.keyspace)
    throw new CliError(
      `table ${qualified} is defined in several keyspaces (${keyspaces.join(', ')}); write keyspace.table`,
    );
  return matches[0]!;
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

/** The key of --types; a list that is not one is a usage error (it is part of the command line). */
function shapeFromTypes(types: string): KeyShape {
  if (!types.trim()) throw new UsageError('--types needs at least one type');
  try {
    // The grammar's own type rule reads the list (nested types included); names are for messages only.
    const columns = parseTypeSpecs(types).map((type, i) => ({ name: `#${i + 1}`, type }));
    // Types no partition key can have (duration) are refused here too, not when the first key is encoded.
    new KeyEncoder(columns.map((c) => c.type));
    return { named: false, columns };
  } catch (error) {
    throw new UsageError(`--types: ${errorMessage(error)}`);
  }
}

function shapeFromSchema(project: Project, tableName: string, io: CliIO): KeyShape {
  const table = findTable(project, tableName);
  if (!table.partitionKey.length) throw new CliError(`table ${tableName} has no primary key`);
  const udts = udtLookupFor(project.schema());
  const allColumns = new Map<string, KeyType>();
  for (const c of table.columns) {
    const type = columnKeyType(table, c.name, udts);
    if (type) allColumns.set(c.name, type);
  }
  const columns = table.partitionKey.map((c) => {
    const type = allColumns.get(c.name);
    if (!type) throw new CliError(`partition key column ${c.name} of ${tableName} has no definition`);
    return { name: c.name, type };
  });
  let shard = table.shard;
  if (!shard) {
    // The schema model keeps only well-formed annotations: say what is wrong with a broken one.
    const text = project.getText(table.filePath) ?? '';
    const found = shardAnnotationAbove(project.parse(table.filePath).comments, text, table.range.start);
    if (found && !found.result.ok) {
      const at = new LineIndex(text).location(found.result.error.range.start);
      throw new CliError(
        `${displayPath(table.filePath, io.cwd)}:${at.line}:${at.column}: ${found.result.error.message}`,
      );
    }
  }
  const ks = table.keyspace ? project.schema().keyspaces.get(table.keyspace) : undefined;
  return {
    named: true,
    columns,
    allColumns,
    shard,
    replication: ks?.replication.class ? replicationFromMap(ks.replication) : undefined,
  };
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

/**
 * The values of one key: by name (`col=value`, a JSON object) and positional (filling the key columns
 * that have no named value, in key order). Maps, not objects: a column may be named `constructor`.
 */
interface GivenValues {
  positional: KeyValue[];
  named: Map<string, KeyValue>;
}

function computeOne(
  shape: KeyShape,
  given: GivenValues,
  encoder: KeyEncoder,
  ring?: Ring,
  replication?: Replication,
): KeyResult {
  const names = shape.columns.map((c) => c.name);
  const values = new Map<string, KeyValue>();
  for (const [k, v] of given.named) {
    const n = foldName(k);
    if (shape.allColumns ? !shape.allColumns.has(n) : !names.includes(n)) throw new CliError(`unknown column ${k}`);
    if (values.has(n)) throw new CliError(`column ${n} is given twice`);
    values.set(n, v);
  }
  const spec = shape.shard;
  const computable = !!spec && spec.method !== 'random';
  // Key columns still to fill from positional values.
  const open = names.filter((n) => !values.has(n));
  if (given.positional.length) {
    // A sharded table may take the source values instead of the shard: the open key columns without the
    // shard, followed by the sources that are neither key columns nor named.
    const sourceSlots =
      spec && computable && open.includes(spec.shardColumn)
        ? [
            ...open.filter((n) => n !== spec.shardColumn),
            ...spec.sources.filter((src) => !names.includes(src) && !values.has(src)),
          ]
        : undefined;
    let slots = open;
    if (sourceSlots && given.positional.length !== open.length) slots = sourceSlots;
    else if (sourceSlots && sourceSlots.length === open.length) {
      // Both forms take as many values: it is the key itself only when the shard position holds a valid shard.
      const at = open.indexOf(spec!.shardColumn);
      const shardType = shape.columns[names.indexOf(spec!.shardColumn)]?.type;
      try {
        if (shardType) parseKeyValue(shardType, given.positional[at], {});
      } catch {
        slots = sourceSlots;
      }
    }
    if (given.positional.length !== slots.length) {
      const forms = [open, ...(sourceSlots && sourceSlots.join() !== open.join() ? [sourceSlots] : [])];
      const describeForm = (form: string[]) => `${form.length}${shape.named ? ` (${form.join(', ')})` : ''}`;
      const after = values.size ? ' after the named ones' : '';
      throw new CliError(
        `expected ${forms.map(describeForm).join(' or ')} value${forms.length === 1 && forms[0].length === 1 ? '' : 's'}${after}, got ${given.positional.length}`,
      );
    }
    slots.forEach((n, i) => values.set(n, given.positional[i]));
  }
  let shardOut: KeyResult['shard'];
  if (spec && computable && spec.sources.every((src) => values.has(src))) {
    const r = shardValueFrom(
      spec,
      (src) => shape.allColumns?.get(src),
      (src) => values.get(src),
    );
    if (!r.ok) throw new CliError(r.reason);
    shardOut = {
      column: spec.shardColumn,
      value: r.value,
      formula: `${spec.shardColumn} = ${formatShardFormula(spec)}`,
    };
    if (!values.has(spec.shardColumn)) values.set(spec.shardColumn, r.value);
  }
  const missing = names.filter((n) => !values.has(n));
  if (missing.length) {
    const hint =
      spec && missing.includes(spec.shardColumn) && computable
        ? ` (or give ${spec.sources.join(', ')} to compute ${spec.shardColumn})`
        : '';
    throw new CliError(
      `missing value for partition key column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}${hint}`,
    );
  }
  const parsed = encoder.parse(names.map((n) => values.get(n)!));
  const token = encoder.token(parsed);
  const result: KeyResult = { token: token.toString(), key: toHex(encoder.bytes(parsed)) };
  if (shardOut) {
    result.shard = shardOut;
    const idx = names.indexOf(shardOut.column);
    const written = idx >= 0 ? parsed[idx] : undefined;
    if (written !== undefined && Number(written) !== shardOut.value) {
      throw new CliError(
        `${shardOut.column} = ${String(written)} but ${shardOut.formula.split(' = ')[1]} gives ${shardOut.value}`,
      );
    }
  }
  if (ring) {
    const range = tokenRangeOf(ring, token);
    result.range = { start: range.start.toString(), end: range.end.toString() };
    result.replicas = replicasFor(ring, token, replication ?? { strategy: 'SimpleStrategy', replicationFactor: 1 }).map(
      (n) => n.address,
    );
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

const NAMED_VALUE = /^("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;

/**
 * Splits command-line values into named (`col=value` where col is a column of the table) and positional
 * ones. Text that only looks like `name=value` (a text value `a=b` when there is no column a) stays a value.
 */
function splitValues(values: string[], shape: KeyShape): GivenValues {
  const given: GivenValues = { positional: [], named: new Map() };
  for (const v of values) {
    const m = shape.named ? NAMED_VALUE.exec(v) : null;
    if (m && shape.allColumns?.has(foldName(m[1]))) {
      if (given.named.has(m[1])) throw new CliError(`column ${m[1]} is given twice`);
      given.named.set(m[1], m[2]);
    } else given.positional.push(v);
  }
  return given;
}

/** Longest stdin line (one key): a stream without newlines must not be buffered without end. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;

async function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): Promise<void> {
  let buffered = '';
  stream.setEncoding?.('utf8');
  for await (const chunk of stream as AsyncIterable<string | Buffer>) {
    buffered += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let start = 0;
    let nl: number;
    while ((nl = buffered.indexOf('\n', start)) >= 0) {
      onLine(buffered.slice(start, nl));
      start = nl + 1;
    }
    buffered = buffered.slice(start);
    if (buffered.length > MAX_LINE_CHARS)
      throw new InputError(`a line on stdin is longer than ${MAX_LINE_CHARS / (1024 * 1024)} Mi characters`);
  }
  if (buffered.length) onLine(buffered);
}

function errorMessage(e: unknown): string {
  if (e instanceof CliError || e instanceof RingParseError) return e.message;
  return toProblem(e).message;
}

/** Runs `cqlint token <args>`; returns the exit code (0 ok, 2 bad usage or input). */
export async function runTokenCommand(args: string[], io: CliIO): Promise<number> {
  const opts = parseTokenArgs(args);
  if (opts.help) {
    io.stdout.write(commandHelp(TOKEN_COMMAND));
    return EXIT.ok;
  }
  let shape: KeyShape;
  let values = opts.positional;
  if (opts.schema !== undefined) {
    if (opts.types !== undefined) throw new UsageError('give either --types or --schema, not both');
    const tableName = values[0];
    if (!tableName)
      throw new UsageError(
        '--schema needs the table: cqlint token --schema <file|folder> <keyspace.table> <values...>',
      );
    values = values.slice(1);
    shape = shapeFromSchema(await loadSchema(opts.schema, io), tableName, io);
  } else if (opts.types !== undefined) {
    shape = shapeFromTypes(opts.types);
  } else {
    throw new UsageError('give the key types with --types (e.g. --types date,int) or a table with --schema');
  }
  try {
    const encoder = new KeyEncoder(
      shape.columns.map((c) => c.type),
      { columns: shape.named ? shape.columns.map((c) => c.name) : undefined },
    );
    shape.columns = shape.columns.map((c, i) => ({ name: c.name, type: encoder.types[i] }));
    // --ring is read where it is; the ring a .cqlint.json names only inside the project.
    const configured = opts.ring !== undefined || opts.noConfig ? undefined : await configuredRing(opts.schema, io);
    const ringText =
      opts.ring !== undefined
        ? await readRequiredInput(opts.ring, io, 'ring file', 'ring')
        : configured
          ? await readRequiredInput(configured.file, io, 'ring file (named in .cqlint.json)', 'ring', configured.roots)
          : undefined;
    const ring = ringText !== undefined ? parseRing(ringText) : undefined;
    const replication = opts.replication ? parseReplication(opts.replication) : shape.replication;

    if (!values.length) {
      if (!opts.json)
        throw new UsageError('no values given (to read keys from stdin, use --json with one JSON array per line)');
      let failed = 0;
      let lines = 0;
      await readLines(io.stdin ?? process.stdin, (line) => {
        if (!line.trim()) return;
        lines++;
        try {
          let data: unknown;
          try {
            data = JSON.parse(line);
          } catch {
            throw new CliError('line is not JSON');
          }
          let given: GivenValues;
          if (Array.isArray(data)) given = { positional: data.map((v) => ({ json: v })), named: new Map() };
          else if (typeof data === 'object' && data !== null)
            given = { positional: [], named: new Map(Object.entries(data).map(([k, v]) => [k, { json: v }])) };
          else throw new CliError('each line must be a JSON array of values (or an object of column: value)');
          io.stdout.write(
            jsonTerminalSafe(JSON.stringify(computeOne(shape, given, encoder, ring, replication))) + '\n',
          );
        } catch (e) {
          failed++;
          io.stdout.write(jsonTerminalSafe(JSON.stringify({ error: errorMessage(e) })) + '\n');
        }
      });
      if (failed)
        io.stderr.write(
          `cqlint token: ${failed} of ${lines} key${lines === 1 ? '' : 's'} on stdin failed (see their "error" lines)\n`,
        );
      return failed ? EXIT.failure : EXIT.ok;
    }
    const result = computeOne(shape, splitValues(values, shape), encoder, ring, replication);
    if (opts.json) io.stdout.write(jsonTerminalSafe(JSON.stringify(result)) + '\n');
    else terminalStream(io.stdout).write(formatText(result));
    return EXIT.ok;
  } catch (e) {
    if (e instanceof UsageError || e instanceof InputError) throw e;
    throw new InputError(errorMessage(e));
  }
}
