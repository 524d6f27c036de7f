// The workspace reference index: which statements read or write each table, and with which columns.
// Each file's references are a pure function of its parse (built once per parse by the Project); the
// Project aggregates them by table name, so a lookup reads only the references of that name and never
// walks the project. Rules (what the workspace queries), the fixes (which shard to propose) and
// navigation read it.
import { commonEnds } from '../util/lists';
import type { Expression, ParseResult, Relation, SourceRange, Statement } from '../../../grammar/ast';
import { qualify } from './model';
import { internName, smallNameRecord } from '../util/names';
import { RecentCache } from '../util/recent-cache';
import { flatCopy } from '../util/strings';
import { statementTable } from '../util/statements';

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
  /** Some value is a bind marker (or the write time): application code, as an example's literals are not. */
  bound?: true;
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

/**
 * How many lists or records each pool below keeps (the recent ones, twice this at most): the pools outlive
 * the Projects that fill them, and they grow with the schema and its statements.
 */
const POOL_CAPACITY = 10_000;

/** Column lists kept once per process: thousands of statements pin the same columns (`WHERE id = ?`). */
const keptLists = new RecentCache<string, readonly string[]>(POOL_CAPACITY);

const NO_NAMES: readonly string[] = Object.freeze([]);

/** The one frozen, exactly sized copy of a column list (a list grown by push holds room for 16 more). */
function keptNames(names: readonly string[]): readonly string[] {
  if (!names.length) return NO_NAMES;
  // Keyed by the names joined with a character names do not have (JSON for a quoted name that has it), each
  // form marked, so that no two lists share a key: cheaper than JSON for every statement.
  const key = names.some((n) => n.includes('\u0000')) ? `j${JSON.stringify(names)}` : `n${names.join('\u0000')}`;
  let kept = keptLists.get(key);
  if (!kept) keptLists.set(key, (kept = Object.freeze(names.map((name) => internName(name)))));
  return kept;
}

/**
 * Literal value lists kept once per process: a column's literals take an array each, about 500 bytes of
 * every reference's on the 2,000-file workspace (literals were 12 of the 20 MiB references held on 500 files),
 * and the same values recur from statement to statement (an example's ids, a status, a day).
 */
const keptValueLists = new RecentCache<string, readonly string[]>(POOL_CAPACITY);
/** Each pooled value list's number, which keys the records that hold it (cheaper than its values again). */
const valueListIds = new WeakMap<readonly string[], number>();
let nextValueListId = 0;
/**
 * Longer lists of values are copied but not pooled: the pools outlive the Projects that filled them (bounded
 * by count, not bytes), and one long blob or text literal repeated seldom is not worth keeping for the next.
 */
const MAX_POOLED_VALUE_CHARS = 256;

function pooledValues(values: readonly string[]): boolean {
  let chars = 0;
  for (const value of values) chars += value.length;
  return chars <= MAX_POOLED_VALUE_CHARS;
}

/**
 * The one frozen copy of a column's literal values (keptNames for values). Its strings are copied flat: a
 * literal's value is a slice of its file's text, and a pooled slice would keep that text alive (an old
 * version of it, in the server) for as long as another file's statement shares the list.
 */
function keptValues(values: readonly string[]): readonly string[] {
  if (!pooledValues(values)) return Object.freeze(values.map(flatCopy));
  const key = values.length === 1 ? `1${values[0]}` : `j${JSON.stringify(values)}`;
  let kept = keptValueLists.get(key);
  if (!kept) {
    keptValueLists.set(key, (kept = Object.freeze(values.map(flatCopy))));
    valueListIds.set(kept, nextValueListId++);
  }
  return kept;
}

/** Literal records kept once per process, by their columns and value lists (see keptLiterals). */
const keptRecords = new RecentCache<string, Readonly<Record<string, readonly string[]>>>(POOL_CAPACITY);

/**
 * A statement's literals by column, each list kept once (keptValues), and the record itself shared with the
 * statements that give the same columns the same values (the same write or read, repeated in files and examples).
 */
function keptLiterals(literals: Record<string, string[]>): Readonly<Record<string, readonly string[]>> {
  let key = '';
  let pooled = true;
  for (const column in literals) {
    const values = keptValues(literals[column]!);
    literals[column] = values as string[];
    const id = valueListIds.get(values);
    if (id === undefined) pooled = false;
    // The column's length first: no two records share a key whatever their names hold.
    else if (pooled) key += `${column.length}:${column}${id};`;
  }
  if (!pooled) return Object.freeze(literals);
  let kept = keptRecords.get(key);
  if (!kept) keptRecords.set(key, (kept = Object.freeze(literals)));
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

/** The write time, as termOf gives it (distinct from every literal's value). */
const NOW: unique symbol = Symbol('now()');

/** What a value term is, as the workload model reads it: a literal's value, the write time, or anything else. */
function termOf(expr: Expression | undefined): string | typeof NOW | undefined {
  if (!expr) return undefined;
  if (expr.kind === 'Literal') return expr.literalKind === 'null' ? undefined : expr.value;
  if (expr.kind === 'TypeHint' || expr.kind === 'CastExpression') return termOf(expr.expression);
  if (expr.kind === 'FunctionCall') {
    const name = expr.name.name.name.toLowerCase();
    if (NOW_FUNCTIONS.has(name)) return NOW;
    if (INSTANT_OF.has(name) && expr.args.length === 1 && termOf(expr.args[0]) === NOW) return NOW;
  }
  return undefined;
}

interface ValueFacts {
  literals?: Record<string, string[]>;
  now?: string[];
  /** A bind marker or now() among the terms looked at (the statement is then application code). */
  variable?: true;
}

/** Records one column's literal value (the first, or one more of an IN list). */
function addLiteral(facts: ValueFacts, column: string, value: string): void {
  // Kept as long as the file is: the column name interned like the other lists of names, and a column's
  // first value in an array of its own size (an empty array grown by push holds room for 17: 152 bytes
  // against 24 for one value, 462,000 times over on the 2,000-file workspace, about 60 MB of the server's heap).
  const literals = (facts.literals ??= smallNameRecord<string[]>());
  const name = internName(column);
  const kept = literals[name];
  if (!kept) literals[name] = [value];
  else if (!kept.includes(value)) kept.push(value);
}

/** Adds one column's value term to the facts: its literal, or that it gets now(), or that it is bound. */
function addValueTerm(facts: ValueFacts, column: string, value: Expression): void {
  const t = termOf(value);
  if (typeof t === 'string') addLiteral(facts, column, t);
  else if (t === NOW) {
    (facts.now ??= []).push(column);
    facts.variable = true;
  } else if (variable(value)) facts.variable = true;
}

/** Adds an IN list's terms: the column's literals when every term is one, else what addValueTerm says of the others. */
function addValueTerms(facts: ValueFacts, column: string, values: readonly Expression[]): void {
  if (values.length === 1) return addValueTerm(facts, column, values[0]!);
  const terms = values.map(termOf);
  if (terms.every((t) => typeof t === 'string')) {
    for (const t of terms) addLiteral(facts, column, t as string);
    return;
  }
  if (terms.includes(NOW)) (facts.now ??= []).push(column);
  if (terms.includes(NOW) || values.some(variable)) facts.variable = true;
}

/** The literal values and now() terms of the columns a statement writes (Insert) or pins with = and IN. */
function valueFacts(stmt: Statement): ValueFacts {
  const facts: ValueFacts = {};
  if (stmt.kind === 'Insert') {
    for (let i = 0; i < stmt.columns.length; i++) {
      const v = stmt.values[i];
      if (v) addValueTerm(facts, stmt.columns[i]!.name, v);
    }
  } else if (stmt.kind === 'Select' || stmt.kind === 'Update' || stmt.kind === 'Delete') {
    for (const relation of stmt.where) {
      if (relation.left.kind !== 'ColumnRef') continue;
      if (relation.operator === '=' || (relation.operator === 'IN' && relation.inList))
        addValueTerms(facts, relation.left.name.name, relation.right);
    }
  }
  return facts;
}

/** Whether a value term holds a bind marker (`?`, `:name`, `hits + ?`, `[?]`) or the write time. */
function variable(expr: Expression): boolean {
  switch (expr.kind) {
    case 'BindMarker':
      return true;
    case 'FunctionCall':
      return termOf(expr) === NOW || expr.args.some(variable);
    case 'BinaryExpression':
      return variable(expr.left) || variable(expr.right);
    case 'UnaryExpression':
      return variable(expr.operand);
    case 'TypeHint':
    case 'CastExpression':
      return variable(expr.expression);
    case 'ListLiteral':
    case 'SetLiteral':
    case 'TupleExpression':
      return expr.elements.some(variable);
    default:
      return false;
  }
}

/** Whether any value term of a DML statement (written values, restrictions, assignments, conditions) is variable. */
function anyVariable(stmt: Statement): boolean {
  switch (stmt.kind) {
    case 'Insert':
      return stmt.values.some(variable);
    case 'Select':
      return stmt.where.some(variableRelation);
    case 'Update':
      return (
        stmt.assignments.some((a) => variable(a.value)) ||
        stmt.where.some(variableRelation) ||
        stmt.conditions.some(variableRelation)
      );
    case 'Delete':
      return stmt.where.some(variableRelation) || stmt.conditions.some(variableRelation);
    default:
      return false;
  }
}

/**
 * Whether a statement binds a value (or writes now()): application code, whose literals are chosen
 * values, unlike an example or a script whose values are all literals.
 */
export function bindsValues(stmt: Statement): boolean {
  return anyVariable(stmt);
}

/** A restriction valueFacts reads (= or an IN list on a column). */
function pinningRelation(r: Relation): boolean {
  return r.left.kind === 'ColumnRef' && (r.operator === '=' || (r.operator === 'IN' && !!r.inList));
}

/** Whether a relation's value terms hold a bind marker or now(). */
function variableRelation(r: Relation): boolean {
  return r.right.some(variable);
}

/** Whether a relation valueFacts does not read has a variable term. */
function otherVariableRelation(r: Relation): boolean {
  return !pinningRelation(r) && variableRelation(r);
}

/** Whether a value term valueFacts does not look at (ranges, assignments, conditions) is variable. */
function otherTermsVariable(stmt: Statement): boolean {
  switch (stmt.kind) {
    case 'Select':
      return stmt.where.some(otherVariableRelation);
    case 'Update':
      return (
        stmt.assignments.some((a) => variable(a.value)) ||
        stmt.where.some(otherVariableRelation) ||
        stmt.conditions.some(variableRelation)
      );
    case 'Delete':
      return stmt.where.some(otherVariableRelation) || stmt.conditions.some(variableRelation);
    default:
      return false;
  }
}

function ttlOf(using: readonly { option: string; value: Expression }[]): number | undefined {
  const clause = using.find((u) => u.option === 'TTL');
  return clause ? integerLiteral(clause.value) : undefined;
}

/**
 * The table references of one file, in source order (a batch's members in place of the batch), each
 * qualified with the keyspace its statement names or the USE in effect. `previous`: the references built
 * from the parse this one was parsed from incrementally (the same file's); those of the statements that
 * parse kept are reused as they are (the same objects), so that an edit changes the references of the
 * edited statements only.
 */
export function buildFileReferences(
  filePath: string,
  parse: ParseResult,
  previous?: readonly TableReference[],
  previousStatements?: readonly Statement[],
): TableReference[] {
  const statements = parse.statements;
  // With the statements `previous` was built from, those before and after the edit keep theirs without a look.
  const ends = previous?.length && previousStatements ? keptEnds(previous, previousStatements, statements) : undefined;
  const kept = previous?.length && !ends ? new PreviousReferences(previous) : undefined;
  const out: TableReference[] = ends ? previous!.slice(0, ends.headReferences) : [];
  let current: string | undefined = ends?.keyspace;
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
        const qualified = statementTable(stmt);
        const keyspace = qualified.keyspace?.name ?? current;
        const name = qualified.name.name;
        let columns: { pinned: string[]; ranged: string[] };
        if (stmt.kind === 'Insert') {
          columns = { pinned: [], ranged: [] };
          addOnce(
            columns.pinned,
            stmt.columns.map((c) => c.name),
          );
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
        const facts = valueFacts(stmt);
        if (facts.literals) {
          reference.literals = keptLiterals(facts.literals);
          if (!facts.variable && !otherTermsVariable(stmt)) reference.allLiteral = true;
        }
        if (facts.now) reference.now = keptNames(facts.now);
        if (facts.variable || anyVariable(stmt)) reference.bound = true;
        if (
          (stmt.kind === 'Insert' && stmt.ifNotExists) ||
          ((stmt.kind === 'Update' || stmt.kind === 'Delete') && (stmt.ifExists || stmt.conditions.length > 0))
        )
          reference.conditional = true;
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
  const last = ends ? statements.length - ends.tail : statements.length;
  for (let s = ends ? ends.head : 0; s < last; s++) {
    const stmt = statements[s]!;
    if (stmt.kind === 'Use') {
      visit(stmt);
      continue;
    }
    // Most statements of a schema file reference no table: nothing to visit, nothing to remember.
    if (!REFERENCING_KINDS.has(stmt.kind)) continue;
    // The incremental parse keeps unchanged statements (their ranges moved in place): so do we.
    if (kept?.reuse(stmt, current, out)) continue;
    visit(stmt);
  }
  if (ends) for (let i = previous!.length - ends.tailReferences; i < previous!.length; i++) out.push(previous![i]!);
  // Kept as long as the file is: copied to its size (a list grown by push keeps room to spare).
  return out.slice();
}

/**
 * The statements an edit left before and after it (the same objects at both ends of both lists: the incremental
 * parse keeps them, ranges moved in place) and how many of `previous`'s references are theirs, with the keyspace
 * in effect after the first ones. Their references hold as they are, each in the keyspace it was made in, unless
 * a USE is among the statements the edit removed or made: then undefined, and every kept statement is checked.
 */
function keptEnds(
  previous: readonly TableReference[],
  before: readonly Statement[],
  now: readonly Statement[],
): { head: number; tail: number; headReferences: number; tailReferences: number; keyspace?: string } | undefined {
  const { head, tail } = commonEnds(before, now);
  for (let i = head; i < before.length - tail; i++) if (before[i]!.kind === 'Use') return undefined;
  for (let i = head; i < now.length - tail; i++) if (now[i]!.kind === 'Use') return undefined;
  let keyspace: string | undefined;
  let headReferences = 0;
  for (let s = 0; s < head; s++) {
    const stmt = now[s]!;
    if (stmt.kind === 'Use') keyspace = stmt.keyspace.name;
    else if (REFERENCING_KINDS.has(stmt.kind))
      while (headReferences < previous.length && statementKey(previous[headReferences]!) === stmt.range)
        headReferences++;
  }
  let tailReferences = 0;
  for (let s = now.length - 1; s >= now.length - tail; s--) {
    const stmt = now[s]!;
    if (!REFERENCING_KINDS.has(stmt.kind)) continue;
    while (
      tailReferences < previous.length - headReferences &&
      statementKey(previous[previous.length - 1 - tailReferences]!) === stmt.range
    )
      tailReferences++;
  }
  return { head, tail, headReferences, tailReferences, keyspace };
}

/** The statements visit() makes references of (a batch's members through the batch). */
const REFERENCING_KINDS: ReadonlySet<Statement['kind']> = new Set(['Select', 'Insert', 'Update', 'Delete', 'Batch']);

/** The range object of the statement a reference was made from (a batch's, for its members). */
function statementKey(reference: TableReference): SourceRange {
  return reference.batch ?? reference.range;
}

/**
 * The previous build's references, found for the new parse's statements in file order: the incremental parse
 * keeps statements in order, so a kept statement's references are at the cursor or a few past it (past
 * those of statements the edit removed). After two misses in a row (a block of new statements, or more
 * removed ones than the look-ahead) the rest is indexed by statement once, and the statements missed are
 * looked up there too (their new references replaced by the kept ones). Not a table entry for every
 * statement of every file (a WeakMap entry per statement was the largest line of a first lint's reference
 * building), nor for every statement of an edited file.
 */
class PreviousReferences {
  private cursor = 0;
  private byStatement?: Map<SourceRange, number>;
  /** The statements not found since the last one found, with the keyspace in effect and where their references start in `out`. */
  private readonly missed: { stmt: Statement; current: string | undefined; at: number }[] = [];

  constructor(private readonly list: readonly TableReference[]) {}

  /**
   * Adds the statement's previous references to `out` when the parse kept it and they still hold (true);
   * false when the caller must make them (right away: a later miss may replace them).
   */
  reuse(stmt: Statement, current: string | undefined, out: TableReference[]): boolean {
    const from = this.find(stmt, current, out);
    if (from < 0) return false;
    const to = this.end(from);
    if (!sameKeyspaces(stmt, this.list, from, to, current)) return false;
    for (let i = from; i < to; i++) out.push(this.list[i]!);
    return true;
  }

  /** Where the statement's references start in the previous list; -1 when it was not kept. */
  private find(stmt: Statement, current: string | undefined, out: TableReference[]): number {
    if (this.byStatement) return this.byStatement.get(stmt.range) ?? -1;
    const list = this.list;
    const limit = Math.min(list.length, this.cursor + LOOK_AHEAD);
    for (let i = this.cursor; i < limit; i++) {
      if (statementKey(list[i]!) !== stmt.range) continue;
      // Those missed since the last one found stand before this one: they were not in the previous list.
      this.missed.length = 0;
      this.cursor = this.end(i);
      return i;
    }
    this.missed.push({ stmt, current, at: out.length });
    if (this.missed.length < MISSES_BEFORE_INDEX) return -1;
    const byStatement = (this.byStatement = new Map());
    for (let i = list.length - 1; i >= this.cursor; i--) byStatement.set(statementKey(list[i]!), i);
    // The earlier misses have references made already: the kept ones replace them (the same number: the same statement).
    for (const { stmt: missed, current: keyspace, at } of this.missed.slice(0, -1)) {
      const from = byStatement.get(missed.range);
      if (from === undefined) continue;
      const to = this.end(from);
      if (!sameKeyspaces(missed, list, from, to, keyspace)) continue;
      for (let i = from; i < to; i++) out[at + i - from] = list[i]!;
    }
    this.missed.length = 0;
    return byStatement.get(stmt.range) ?? -1;
  }

  /** The end of the run of references that starts at `from` (those of one statement). */
  end(from: number): number {
    const key = statementKey(this.list[from]!);
    let to = from + 1;
    while (to < this.list.length && statementKey(this.list[to]!) === key) to++;
    return to;
  }
}
const LOOK_AHEAD = 16;
const MISSES_BEFORE_INDEX = 2;

/**
 * Whether a kept statement's references still hold: one for it (a batch: one per member, in order),
 * each in the keyspace the statement now resolves in (its own, else the USE in effect, which an edit
 * above it may have changed).
 */
function sameKeyspaces(
  stmt: Statement,
  references: readonly TableReference[],
  from: number,
  to: number,
  current: string | undefined,
): boolean {
  if (stmt.kind !== 'Batch') return to === from + 1 && references[from]!.keyspace === statementKeyspace(stmt, current);
  let next = from;
  for (const member of stmt.statements) {
    if (next >= to || references[next++]!.keyspace !== statementKeyspace(member, current)) return false;
  }
  return next === to;
}

/** The keyspace a statement's table resolves in: the one it names, else the USE in effect. */
function statementKeyspace(stmt: Statement, current: string | undefined): string | undefined {
  const keyed = stmt.kind === 'Select' || stmt.kind === 'Insert' || stmt.kind === 'Update' || stmt.kind === 'Delete';
  return (keyed ? statementTable(stmt).keyspace?.name : undefined) ?? current;
}
