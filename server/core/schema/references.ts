// The workspace reference index: which statements read or write each table, and with which columns.
// Each file's references are a pure function of its parse (built once per parse by the Project); the
// Project aggregates them by table name, so a lookup reads only the references of that name and never
// walks the project. Rules (what the workspace queries), the fixes (which shard to propose) and
// navigation read it.
import type { Expression, ParseResult, Relation, SourceRange, Statement } from '../../../grammar/ast';
import { qualify } from './model';
import { internName } from '../util/names';

export interface TableReference {
  /** File path of the statement. */
  file: string;
  kind: 'Select' | 'Insert' | 'Update' | 'Delete';
  /** The whole statement (a batch member's own range). */
  range: SourceRange;
  /** Qualified name as resolved (ks.table, the keyspace from the statement or the USE in effect), or the bare name. */
  table: string;
  /** The keyspace as written or from the USE in effect (undefined when neither says): what the name resolves in. */
  keyspace: string | undefined;
  /** The table name as Cassandra sees it (without keyspace): the key of the Project's reference index. */
  name: string;
  /** Columns restricted with = or IN, in WHERE order (for an Insert: the columns written). Shared: never changed. */
  pinned: readonly string[];
  /** Columns restricted with <, <=, >, >= or BETWEEN, and the columns of a token() range. Shared: never changed. */
  ranged: readonly string[];
  /** The LIMIT literal, when present. */
  limit?: number;
  allowFiltering: boolean;
  /** The USING TTL literal of an Insert or Update. */
  ttlSeconds?: number;
  /**
   * The literal values of the columns it pins (Select, Update, Delete) or writes (Insert) with literals,
   * by column; a pinned or written column missing here is given a bind marker, now() or another term.
   * Absent when there is none (most application statements bind every value).
   */
  literals?: Readonly<Record<string, readonly string[]>>;
  /**
   * Every value the statement gives is a literal, none a bind marker or now(): an example or a one-off
   * script rather than application code, whose literals say nothing about the values the application uses.
   */
  allLiteral?: true;
  /** Columns written or pinned with now(), toTimestamp(now()), currentTimestamp() ...: a new value per write. */
  now?: readonly string[];
  /** A lightweight transaction: IF NOT EXISTS, IF EXISTS or IF conditions. */
  conditional?: true;
  /** The range of the BATCH this statement is a member of (one object per batch: members compare it by identity). */
  batch?: SourceRange;
  /** A Select's first ORDER BY direction, when it has one. */
  order?: 'ASC' | 'DESC';
  /** A Delete of columns or elements (`DELETE a FROM ...`), not of rows. */
  deletesCells?: true;
}

const RANGE_OPERATORS = new Set(['<', '<=', '>', '>=', 'BETWEEN']);

/** A non-negative integer literal's value (LIMIT 100, USING TTL 86400); undefined for bind markers and the rest. */
function integerLiteral(expr: Expression | undefined): number | undefined {
  if (expr?.kind !== 'Literal' || expr.literalKind !== 'integer' || !/^\d+$/.test(expr.value)) return undefined;
  const n = Number(expr.value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The column names a relation's left side restricts: a column, a tuple of columns, or token(columns). */
function relationColumns(relation: Relation): { columns: string[]; token: boolean } {
  const left = relation.left;
  if (left.kind === 'ColumnRef') return { columns: [left.name.name], token: false };
  if (left.kind === 'TupleExpression') {
    return { columns: left.elements.flatMap((e) => (e.kind === 'ColumnRef' ? [e.name.name] : [])), token: false };
  }
  if (left.kind === 'FunctionCall' && left.name.name.name.toLowerCase() === 'token') {
    return { columns: left.args.flatMap((e) => (e.kind === 'ColumnRef' ? [e.name.name] : [])), token: true };
  }
  return { columns: [], token: false };
}

/** Column lists kept once per process: thousands of statements pin the same columns (`WHERE id = ?`). */
const keptLists = new Map<string, readonly string[]>();
/** The pool is dropped when it reaches this size: it holds lists of names, so it grows with the schema. */
const MAX_KEPT_LISTS = 20_000;

/** The one frozen, exactly sized copy of a column list (a list grown by push holds room for 16 more). */
function keptNames(names: readonly string[]): readonly string[] {
  const key = JSON.stringify(names);
  let kept = keptLists.get(key);
  if (!kept) {
    if (keptLists.size >= MAX_KEPT_LISTS) keptLists.clear();
    kept = Object.freeze(names.map((name) => internName(name)));
    keptLists.set(key, kept);
  }
  return kept;
}

function addOnce(list: string[], names: readonly string[]): void {
  for (const n of names) if (!list.includes(n)) list.push(n);
}

function whereColumns(where: readonly Relation[]): { pinned: string[]; ranged: string[] } {
  const pinned: string[] = [];
  const ranged: string[] = [];
  for (const relation of where) {
    const { columns, token } = relationColumns(relation);
    if (RANGE_OPERATORS.has(relation.operator)) addOnce(ranged, columns);
    // token(k) = token(?) pins a partition by its token, not a column value: not a pinned column.
    else if (!token && (relation.operator === '=' || relation.operator === 'IN')) addOnce(pinned, columns);
  }
  return { pinned, ranged };
}

// Functions whose value is the time of the write (a new value each time).
const NOW_FUNCTIONS = new Set(['now', 'currenttimeuuid', 'currenttimestamp']);
// Conversions that keep it an instant (toDate(now()) is a day: a bucket, not an instant).
const INSTANT_OF = new Set(['totimestamp', 'tounixtimestamp', 'unixtimestampof', 'dateof']);

/** What a value term is, as the workload model reads it: a literal's value, the write time, or anything else. */
function termOf(expr: Expression | undefined): { literal: string } | 'now' | undefined {
  if (!expr) return undefined;
  if (expr.kind === 'Literal') return expr.literalKind === 'null' ? undefined : { literal: expr.value };
  if (expr.kind === 'TypeHint' || expr.kind === 'CastExpression') return termOf(expr.expression);
  if (expr.kind === 'FunctionCall') {
    const name = expr.name.name.name.toLowerCase();
    if (NOW_FUNCTIONS.has(name)) return 'now';
    if (INSTANT_OF.has(name) && expr.args.length === 1 && termOf(expr.args[0]) === 'now') return 'now';
  }
  return undefined;
}

/** The literal values and now() terms of the pinned or written columns: `pairs` of column and value terms. */
function valueFacts(pairs: readonly (readonly [string, readonly Expression[]])[]): { literals?: Record<string, string[]>; now?: string[] } {
  let literals: Record<string, string[]> | undefined;
  let now: string[] | undefined;
  for (const [column, values] of pairs) {
    const terms = values.map(termOf);
    if (terms.length && terms.every((t) => t !== undefined && t !== 'now')) {
      const list = ((literals ??= Object.create(null) as Record<string, string[]>)[column] ??= []);
      for (const t of terms) if (typeof t === 'object' && !list.includes(t.literal)) list.push(t.literal);
    } else if (terms.some((t) => t === 'now')) {
      (now ??= []).push(column);
    }
  }
  return { ...(literals ? { literals } : {}), ...(now ? { now } : {}) };
}

/** Whether a value term holds a bind marker (`?`, `:name`, `hits + ?`, `[?]`) or the write time. */
function variable(expr: Expression): boolean {
  switch (expr.kind) {
    case 'BindMarker': return true;
    case 'FunctionCall': return termOf(expr) === 'now' || expr.args.some(variable);
    case 'BinaryExpression': return variable(expr.left) || variable(expr.right);
    case 'UnaryExpression': return variable(expr.operand);
    case 'TypeHint': case 'CastExpression': return variable(expr.expression);
    case 'ListLiteral': case 'SetLiteral': case 'TupleExpression': return expr.elements.some(variable);
    default: return false;
  }
}

/** Every value term a DML statement gives (written values, restrictions, assignments, conditions). */
function valueTerms(stmt: Statement): Expression[] {
  switch (stmt.kind) {
    case 'Insert': return stmt.values;
    case 'Select': return stmt.where.flatMap((r) => r.right);
    case 'Update': return [...stmt.assignments.map((a) => a.value), ...stmt.where.flatMap((r) => r.right), ...stmt.conditions.flatMap((r) => r.right)];
    case 'Delete': return [...stmt.where.flatMap((r) => r.right), ...stmt.conditions.flatMap((r) => r.right)];
    default: return [];
  }
}

/**
 * Whether a statement binds a value (or writes now()): application code, whose literals are chosen
 * values, unlike an example or a script whose values are all literals.
 */
export function bindsValues(stmt: Statement): boolean {
  return valueTerms(stmt).some(variable);
}

/** Column and value terms of the = and IN restrictions of a WHERE clause. */
function whereValues(where: readonly Relation[]): [string, Expression[]][] {
  const out: [string, Expression[]][] = [];
  for (const relation of where) {
    if (relation.left.kind !== 'ColumnRef') continue;
    if (relation.operator === '=' || (relation.operator === 'IN' && relation.inList)) out.push([relation.left.name.name, relation.right]);
  }
  return out;
}

function ttlOf(using: readonly { option: string; value: Expression }[]): number | undefined {
  const clause = using.find((u) => u.option === 'TTL');
  return clause ? integerLiteral(clause.value) : undefined;
}

/**
 * The table references of one file, in source order (a batch's members in place of the batch), each
 * qualified with the keyspace its statement names or the USE in effect.
 */
export function buildFileReferences(filePath: string, parse: ParseResult): TableReference[] {
  const out: TableReference[] = [];
  let current: string | undefined;
  let batch: SourceRange | undefined;
  const visit = (stmt: Statement): void => {
    switch (stmt.kind) {
      case 'Use':
        current = stmt.keyspace.name;
        return;
      case 'Batch':
        batch = stmt.range;
        for (const inner of stmt.statements) visit(inner);
        batch = undefined;
        return;
      case 'Select':
      case 'Insert':
      case 'Update':
      case 'Delete': {
        const qualified = stmt.kind === 'Select' ? stmt.from : stmt.table;
        const keyspace = qualified.keyspace?.name ?? current;
        const name = qualified.name.name;
        let columns: { pinned: string[]; ranged: string[] };
        if (stmt.kind === 'Insert') {
          columns = { pinned: [], ranged: [] };
          addOnce(columns.pinned, stmt.columns.map((c) => c.name));
        } else {
          columns = whereColumns(stmt.where);
        }
        const reference: TableReference = {
          file: filePath,
          kind: stmt.kind,
          range: stmt.range,
          table: qualify(keyspace, name),
          keyspace: internName(keyspace),
          name: internName(name),
          // References outlive their file's tree: their lists of names are shared.
          pinned: keptNames(columns.pinned),
          ranged: keptNames(columns.ranged),
          allowFiltering: stmt.kind === 'Select' && stmt.allowFiltering,
        };
        if (stmt.kind === 'Select') {
          const limit = integerLiteral(stmt.limit);
          if (limit !== undefined) reference.limit = limit;
        }
        if (stmt.kind === 'Insert' || stmt.kind === 'Update') {
          const ttl = ttlOf(stmt.using);
          if (ttl !== undefined) reference.ttlSeconds = ttl;
        }
        // What the workload model reads of the values (schema/workload.ts): kept only when there is any.
        const facts = valueFacts(stmt.kind === 'Insert'
          ? stmt.columns.map((c, i) => [c.name, stmt.values[i] ? [stmt.values[i]!] : []] as const)
          : whereValues(stmt.where));
        if (facts.literals) {
          reference.literals = Object.freeze(Object.fromEntries(Object.entries(facts.literals).map(([k, v]) => [internName(k), Object.freeze(v)])));
          if (!bindsValues(stmt)) reference.allLiteral = true;
        }
        if (facts.now) reference.now = keptNames(facts.now);
        if ((stmt.kind === 'Insert' && stmt.ifNotExists) || ((stmt.kind === 'Update' || stmt.kind === 'Delete') && (stmt.ifExists || stmt.conditions.length > 0))) reference.conditional = true;
        if (batch !== undefined) reference.batch = batch;
        if (stmt.kind === 'Select' && stmt.orderBy[0]?.direction) reference.order = stmt.orderBy[0].direction;
        if (stmt.kind === 'Delete' && stmt.selections.length) reference.deletesCells = true;
        out.push(reference);
        return;
      }
      default:
        return;
    }
  };
  for (const stmt of parse.statements) {
    if (stmt.kind === 'Use') {
      visit(stmt);
      continue;
    }
    // The incremental parse keeps unchanged statements (their ranges moved in place): so do we, so
    // that an edit changes the references of the edited statements only.
    const memo = referencesByStatement.get(stmt);
    if (memo && memo.filePath === filePath && memo.keyspace === current) {
      out.push(...memo.references);
      continue;
    }
    const start = out.length;
    visit(stmt);
    referencesByStatement.set(stmt, { filePath, keyspace: current, references: out.slice(start) });
  }
  // Kept as long as the file is: copied to its size (a list grown by push keeps room to spare).
  return out.slice();
}

const referencesByStatement = new WeakMap<Statement, { filePath: string; keyspace: string | undefined; references: TableReference[] }>();
