// The partition key values a statement writes or reads (INSERT values, UPDATE/DELETE/SELECT `=` and
// `IN` restrictions, UPDATE `SET col = value`), and the inputs the token maths needs for them. Shared by
// the shard rules and the editor features (hover, inlay hints, cqlint/tokenAt) so they agree on what a
// statement's key is.
import type { Expression, ParseResult, SourceRange } from '../../../grammar/ast';
import { computeShardValue, type ShardSpec, type ShardValueResult, type SourceValue } from '../token/shard';
import { keyTypeFromAst, type KeyType, type UdtLookup } from '../token/types';
import type { KeyPreviewInput } from '../token/preview';
import { type SchemaModel, type TableInfo, type UserTypeInfo, columnMention, columnNamed } from './model';
import type { Mention } from './versions';
import { nameRecord } from '../util/names';
import { statementTable, type KeyedStatement } from '../util/statements';

export { statementTable, type KeyedStatement };

/** The values one column gets in a statement. */
export interface ColumnValues {
  /** One expression for `=`, an INSERT value or a SET; several for `IN (...)`; `IN ?` gives its marker. */
  values: Expression[];
  /** `IN` restriction (the values are alternatives, each its own partition). */
  in: boolean;
  /** Range of the relation, assignment or INSERT value (where a hint may go). */
  range: SourceRange;
}

/** Top-level INSERT/UPDATE/DELETE/SELECT statements and those inside batches, in source order. */
export function keyedStatements(parse: ParseResult): KeyedStatement[] {
  const out: KeyedStatement[] = [];
  for (const s of parse.statements) {
    if (s.kind === 'Batch') out.push(...s.statements);
    else if (s.kind === 'Insert' || s.kind === 'Update' || s.kind === 'Delete' || s.kind === 'Select') out.push(s);
  }
  return out;
}

/** Column name -> the values the statement gives it (only plain `col = v`, `col IN (...)`, tuple `=` and INSERT values). */
export function statementColumnValues(stmt: KeyedStatement): Map<string, ColumnValues> {
  const out = new Map<string, ColumnValues>();
  if (stmt.kind === 'Insert') {
    if (stmt.json || stmt.columns.length !== stmt.values.length) return out;
    stmt.columns.forEach((c, i) =>
      out.set(c.name, { values: [stmt.values[i]!], in: false, range: stmt.values[i]!.range }),
    );
    return out;
  }
  for (const rel of stmt.where) {
    if (rel.operator !== '=' && rel.operator !== 'IN') continue;
    if (rel.left.kind === 'ColumnRef') {
      if (out.has(rel.left.name.name)) continue; // a column restricted twice: keep the first
      if (rel.operator === '=' && rel.right.length === 1)
        out.set(rel.left.name.name, { values: [rel.right[0]!], in: false, range: rel.range });
      if (rel.operator === 'IN' && rel.right.length >= 1)
        out.set(rel.left.name.name, { values: [...rel.right], in: true, range: rel.range });
    } else if (
      rel.left.kind === 'TupleExpression' &&
      rel.operator === '=' &&
      rel.right.length === 1 &&
      rel.right[0]!.kind === 'TupleExpression'
    ) {
      const right = rel.right[0]!;
      rel.left.elements.forEach((el, i) => {
        const v = right.elements[i];
        if (el.kind === 'ColumnRef' && v && !out.has(el.name.name))
          out.set(el.name.name, { values: [v], in: false, range: rel.range });
      });
    }
  }
  if (stmt.kind === 'Update') {
    for (const a of stmt.assignments) {
      if (a.operator !== '=' || a.target.kind !== 'ColumnRef' || out.has(a.target.name.name)) continue;
      out.set(a.target.name.name, { values: [a.value], in: false, range: a.range });
    }
  }
  return out;
}

/** The token code's UdtLookup, told where the name is written (schema/resolve.ts rule 3). */
export type SchemaUdtLookup = (name: string, keyspace?: string, mention?: Mention) => ReturnType<UdtLookup>;

/**
 * Resolves user types through the workspace schema (for keys made of frozen UDTs): from where the name is
 * written, a field's types from the type's own definition, in its keyspace.
 */
export function udtLookupFor(schema: Pick<SchemaModel, 'userType'>): SchemaUdtLookup {
  // A type that contains itself (Cassandra refuses one, a file may still hold it) is not found inside itself.
  const expanding = new Set<UserTypeInfo>();
  const lookup: SchemaUdtLookup = (name, keyspace, mention) => {
    const t = schema.userType(keyspace, name, mention);
    if (!t || expanding.has(t)) return undefined;
    const inType: Mention = { filePath: t.filePath, offset: t.range.start };
    const fieldTypes: UdtLookup = (field, ks) => lookup(field, ks ?? t.keyspace, inType);
    expanding.add(t);
    try {
      return {
        name: t.name,
        fields: t.fields.map((f) => ({ name: f.name, type: keyTypeFromAst(f.type, fieldTypes) })),
      };
    } finally {
      expanding.delete(t);
    }
  };
  return lookup;
}

/** A column's type as the key encoder takes it, its user types resolved where the column is defined. */
export function columnKeyType(table: TableInfo, column: string, udts?: SchemaUdtLookup): KeyType | undefined {
  const c = columnNamed(table, column);
  if (!c?.type) return undefined;
  const mention = columnMention(table, c);
  return keyTypeFromAst(c.type, udts && ((name, keyspace) => udts(name, keyspace ?? table.keyspace, mention)));
}

/**
 * The table's shard spec when it can be used for the maths: the shard column is in the partition key and
 * every source column exists with a known type.
 */
export function usableShardSpec(table: TableInfo): ShardSpec | undefined {
  const spec = table.shard;
  if (!spec || table.kind !== 'table') return undefined;
  if (!table.partitionKey.some((c) => c.name === spec.shardColumn)) return undefined;
  if (!columnNamed(table, spec.shardColumn)?.type) return undefined;
  if (!spec.sources.every((s) => s !== spec.shardColumn && columnNamed(table, s)?.type)) return undefined;
  return spec;
}

/**
 * The formula's shard value for the statement's source values (each given once, by `=`, INSERT or SET).
 * Undefined for random shards or when a source has no single value.
 */
export function computedShard(
  table: TableInfo,
  spec: ShardSpec,
  values: Map<string, ColumnValues>,
  udts?: UdtLookup,
): ShardValueResult | undefined {
  if (spec.method === 'random') return undefined;
  const sources = nameRecord<SourceValue>();
  for (const name of spec.sources) {
    const v = values.get(name);
    const type = columnKeyType(table, name, udts);
    if (!v || v.in || v.values.length !== 1 || !type) return undefined;
    sources[name] = { type, value: v.values[0]! };
  }
  return computeShardValue(spec, sources);
}

/** Whether an expression is a bind marker (`?` or `:name`). */
function isBindMarker(e: Expression | undefined): boolean {
  return e?.kind === 'BindMarker';
}

export interface StatementKeyInput {
  input: KeyPreviewInput;
  /** Partition key columns with no value in the statement. */
  absent: string[];
  /** The shard column was a bind marker (or absent) and is taken to be the formula's value. */
  shardAssumed: boolean;
  /** Columns restricted with IN: which alternative was used, of how many. */
  alternatives: { column: string; index: number; count: number }[];
}

/**
 * The describeKeyPreview input for one partition of a statement: each IN column takes the alternative at
 * `pick(column)` (default the first). A shard column written as a bind marker, or left out, gets the
 * formula's value when its sources are known (the application computes it the same way).
 */
export function statementKeyInput(
  table: TableInfo,
  values: Map<string, ColumnValues>,
  udts?: UdtLookup,
  pick?: (column: string) => number | undefined,
): StatementKeyInput | undefined {
  if (!table.partitionKey.length) return undefined;
  const columns: KeyPreviewInput['columns'] = [];
  for (const c of table.partitionKey) {
    const type = c.type ? keyTypeFromAst(c.type, udts) : undefined;
    if (!type) return undefined;
    columns.push({ name: c.name, type });
  }
  const input: KeyPreviewInput = { columns, values: nameRecord() };
  const absent: string[] = [];
  const alternatives: StatementKeyInput['alternatives'] = [];
  for (const c of columns) {
    const v = values.get(c.name);
    if (!v) {
      absent.push(c.name);
      continue;
    }
    let index = 0;
    if (v.in && v.values.length > 1) {
      index = Math.min(Math.max(pick?.(c.name) ?? 0, 0), v.values.length - 1);
      alternatives.push({ column: c.name, index, count: v.values.length });
    }
    input.values[c.name] = v.values[index];
  }
  let shardAssumed = false;
  const spec = usableShardSpec(table);
  if (spec) {
    input.shard = spec;
    const sourceColumns = nameRecord<SourceValue>();
    for (const name of spec.sources) {
      if (columns.some((c) => c.name === name)) continue;
      const v = values.get(name);
      const type = columnKeyType(table, name, udts);
      if (v && type && !v.in && v.values.length === 1) sourceColumns[name] = { type, value: v.values[0]! };
    }
    input.sourceColumns = sourceColumns;
    const written = input.values[spec.shardColumn] as Expression | undefined;
    if (spec.method !== 'random' && (written === undefined || isBindMarker(written))) {
      const r = computedShard(table, spec, values, udts);
      if (r?.ok) {
        delete input.values[spec.shardColumn];
        shardAssumed = true;
        const i = absent.indexOf(spec.shardColumn);
        if (i >= 0) absent.splice(i, 1);
      }
    }
  }
  return { input, absent, shardAssumed, alternatives };
}
