// Write-sharding annotations (`-- @shard shard = murmur3(title) % 200 + 1`) and shard value maths.
//
// Forms:
//   -- @shard <col> = murmur3(<src>[, <src>...]) % N [+ K]    x86_32 of the serialized source value(s)
//   -- @shard <col> = codepoints(<src>) % N [+ K]              product of the Unicode code points (Amazon's guide)
//   -- @shard <col> = random(N)                                 any of 1..N
// `hash(...)` is accepted as another name for murmur3. Without `+ K` the values are 0..N-1.
import type { Comment, CreateTableStatement, Expression, SourceRange } from '../../../grammar/ast';
import type { TokenType } from '../../../grammar/chevrotain';
import {
  BooleanLiteral,
  Comma,
  Eq,
  Identifier,
  InfinityLiteral,
  IntegerLiteral,
  LParen,
  Minus,
  NanLiteral,
  Percent,
  Plus,
  QuotedName,
  RParen,
  Slash,
  Star,
  Unknown,
  UnterminatedQuotedName,
  isKeywordType,
  lexCql,
} from '../../../grammar/lexer';
import { murmur3x86_32 } from './murmur3';
import { foldName, nameRecord, ownEntry } from '../util/names';
import { ByteWriter, writeKey } from './serialize';
import { type KeyType, keyTypeFromAst, keyTypeProblem, type UdtLookup } from './types';
import { type CqlValue, type KeyValue, KeyValueError, parseKeyValue } from './values';

export type ShardMethod = 'murmur3' | 'codepoints' | 'random';

export interface ShardSpec {
  shardColumn: string;
  method: ShardMethod;
  /** Source column names (Cassandra's spelling: unquoted names lower-cased); empty for random. */
  sources: string[];
  /** N: the number of shards. */
  count: number;
  /** Added to `f % N`: 1 for `+ 1`, 0 without; random(N) is 1..N (offset 1). */
  offset: number;
  /** The formula as written after `@shard`. */
  text: string;
  ranges: {
    annotation: SourceRange;
    formula: SourceRange;
    shardColumn: SourceRange;
    method: SourceRange;
    sources: SourceRange[];
    count: SourceRange;
    offset?: SourceRange;
  };
}

interface ShardParseError {
  message: string;
  range: SourceRange;
}

export type ShardParseResult = { ok: true; spec: ShardSpec } | { ok: false; error: ShardParseError };

/** Whether a comment is a `@shard` annotation (well-formed or not). */
export function isShardAnnotation(comment: Comment): boolean {
  return /^@shard\b/i.test(comment.value.trim());
}

interface Tok {
  kind: 'ident' | 'number' | 'punct' | 'other' | 'end';
  text: string;
  value: string;
  start: number;
  end: number;
}

const WORD_TYPES = new Set<TokenType>([Identifier, BooleanLiteral, NanLiteral, InfinityLiteral]);
const PUNCTUATION = new Set<TokenType>([Eq, LParen, RParen, Comma, Percent, Plus, Minus, Star, Slash]);

/** The formula's tokens, lexed as CQL (names, quoted names and integers as in a statement). */
function tokenize(s: string, base: number): Tok[] | { bad: number } {
  const { tokens, comments } = lexCql(s);
  const out: Tok[] = [];
  for (const t of [...tokens, ...comments].sort((x, y) => x.startOffset - y.startOffset)) {
    const start = base + t.startOffset;
    const end = start + t.image.length;
    const type = t.tokenType;
    if (type === Unknown || type === UnterminatedQuotedName) return { bad: start };
    let kind: Tok['kind'] = 'other';
    let value = t.image;
    if (WORD_TYPES.has(type) || isKeywordType(type)) {
      kind = 'ident';
      value = t.image.toLowerCase();
    } else if (type === QuotedName) {
      kind = 'ident';
      value = foldName(t.image);
    } else if (type === IntegerLiteral) kind = 'number';
    else if (PUNCTUATION.has(type)) kind = 'punct';
    out.push({ kind, text: t.image, value, start, end });
  }
  out.push({ kind: 'end', text: '', value: '', start: base + s.length, end: base + s.length });
  return out;
}

const MAX_SHARDS = 2147483647;

/**
 * Parses a `@shard` comment. Returns the spec, or an error with a clear message and the range of the
 * offending part. Returns undefined when the comment is not a `@shard` annotation at all.
 */
export function parseShardAnnotation(comment: Comment): ShardParseResult | undefined {
  const valueIndex = comment.text.indexOf(comment.value);
  const raw = comment.value;
  const m = /^@shard\b/i.exec(raw);
  if (!m || valueIndex < 0) return undefined;
  const rangeOf = (from: number, to: number): SourceRange => ({
    start: comment.range.start + valueIndex + from,
    end: comment.range.start + valueIndex + to,
  });
  const fail = (message: string, from: number, to: number): ShardParseResult => ({
    ok: false,
    error: { message: `@shard: ${message}`, range: rangeOf(from, Math.max(to, from + 1)) },
  });
  const formulaStart = m[0].length;
  const toks = tokenize(raw.slice(formulaStart), formulaStart);
  const usage = 'expected e.g. `@shard shard = murmur3(title) % 16 + 1` or `@shard shard = random(16)`';
  if (!Array.isArray(toks)) return fail(`unexpected character '${raw[toks.bad]}'; ${usage}`, toks.bad, toks.bad + 1);
  let p = 0;
  const peek = (): Tok => toks[p];
  const take = (): Tok => toks[p++];
  const describe = (t: Tok): string => (t.kind === 'end' ? 'the end of the comment' : `'${t.text}'`);

  const col = take();
  if (col.kind !== 'ident') return fail(`missing the shard column name; ${usage}`, col.start, col.end);
  const eq = take();
  if (eq.value !== '=') return fail(`expected '=' after ${col.text}, found ${describe(eq)}`, eq.start, eq.end);
  const fn = take();
  if (fn.kind !== 'ident')
    return fail(
      `expected murmur3(...), codepoints(...) or random(N) after '=', found ${describe(fn)}`,
      fn.start,
      fn.end,
    );
  const method: ShardMethod | undefined =
    fn.value === 'murmur3' || fn.value === 'hash'
      ? 'murmur3'
      : fn.value === 'codepoints'
        ? 'codepoints'
        : fn.value === 'random'
          ? 'random'
          : undefined;
  if (!method)
    return fail(
      `unknown shard function '${fn.text}'; use murmur3(cols), codepoints(col) or random(N)`,
      fn.start,
      fn.end,
    );
  const open = take();
  if (open.value !== '(') return fail(`expected '(' after ${fn.text}, found ${describe(open)}`, open.start, open.end);

  const parseCount = (t: Tok): number | ShardParseResult => {
    if (t.kind !== 'number') return fail(`expected the number of shards, found ${describe(t)}`, t.start, t.end);
    const n = Number(t.value);
    if (n < 1 || n > MAX_SHARDS)
      return fail(`the number of shards must be 1..${MAX_SHARDS}, not ${t.text}`, t.start, t.end);
    return n;
  };

  let sources: string[] = [];
  const sourceRanges: SourceRange[] = [];
  let count: number;
  let countTok: Tok;
  let offset = 0;
  let offsetRange: SourceRange | undefined;
  if (method === 'random') {
    countTok = take();
    const c = parseCount(countTok);
    if (typeof c !== 'number') return c;
    count = c;
    offset = 1;
    const close = take();
    if (close.value !== ')')
      return fail(`expected ')' after the shard count, found ${describe(close)}`, close.start, close.end);
    const after = peek();
    if (after.kind !== 'end') {
      return fail(
        `random(${count}) already gives 1..${count}; nothing may follow it (found ${describe(after)})`,
        after.start,
        after.end,
      );
    }
  } else {
    for (;;) {
      const s = take();
      if (s.kind !== 'ident')
        return fail(`expected a column name inside ${fn.text}(...), found ${describe(s)}`, s.start, s.end);
      sources.push(s.value);
      sourceRanges.push(rangeOf(s.start, s.end));
      const sep = take();
      if (sep.value === ')') break;
      if (sep.value !== ',')
        return fail(`expected ',' or ')' after ${s.text}, found ${describe(sep)}`, sep.start, sep.end);
    }
    if (method === 'codepoints' && sources.length !== 1) {
      return fail('codepoints() takes exactly one text column', toks[p - 1].start, toks[p - 1].end);
    }
    const mod = take();
    if (mod.value !== '%')
      return fail(`expected '% N' after ${fn.text}(...), found ${describe(mod)}`, mod.start, mod.end);
    countTok = take();
    const c = parseCount(countTok);
    if (typeof c !== 'number') return c;
    count = c;
    const plus = take();
    if (plus.value === '+') {
      const k = take();
      if (k.kind !== 'number') return fail(`expected a number after '+', found ${describe(k)}`, k.start, k.end);
      offset = Number(k.value);
      if (offset > MAX_SHARDS) return fail(`offset ${k.text} is too large`, k.start, k.end);
      offsetRange = rangeOf(plus.start, k.end);
      const end = take();
      if (end.kind !== 'end') return fail(`unexpected ${describe(end)} after the formula`, end.start, end.end);
    } else if (plus.kind !== 'end') {
      return fail(`expected '+ 1' or the end of the formula, found ${describe(plus)}`, plus.start, plus.end);
    }
  }
  sources = [...sources];
  const last = toks[toks.length - 1];
  return {
    ok: true,
    spec: {
      shardColumn: col.value,
      method,
      sources,
      count,
      offset,
      text: raw.slice(formulaStart).trim(),
      ranges: {
        annotation: comment.range,
        formula: rangeOf(col.start, last.start),
        shardColumn: rangeOf(col.start, col.end),
        method: rangeOf(fn.start, fn.end),
        sources: sourceRanges,
        count: rangeOf(countTok.start, countTok.end),
        offset: offsetRange,
      },
    },
  };
}

interface ShardProblem {
  message: string;
  range: SourceRange;
  severity: 'error' | 'warning';
}

const INTEGER_TYPES: Record<string, number> = {
  tinyint: 127,
  smallint: 32767,
  int: 2147483647,
  bigint: Number.MAX_SAFE_INTEGER,
  varint: Number.MAX_SAFE_INTEGER,
};

/** Checks a spec against its table: columns exist, the shard column is in the partition key and fits, sources fit. */
export function validateShardSpec(spec: ShardSpec, table: CreateTableStatement, udts?: UdtLookup): ShardProblem[] {
  const problems: ShardProblem[] = [];
  const tableName = table.name.name.name;
  const column = (name: string) => table.columns.find((c) => c.name.name === name);
  const shardCol = column(spec.shardColumn);
  const partitionKey = table.primaryKey?.partitionKey.map((p) => p.name) ?? [];
  if (!shardCol) {
    problems.push({
      severity: 'error',
      range: spec.ranges.shardColumn,
      message: `@shard: table ${tableName} has no column '${spec.shardColumn}'`,
    });
  } else {
    if (table.primaryKey && !partitionKey.includes(spec.shardColumn)) {
      problems.push({
        severity: 'error',
        range: spec.ranges.shardColumn,
        message: `@shard: shard column '${spec.shardColumn}' is not part of the partition key of ${tableName} (${partitionKey.join(', ')}); write PRIMARY KEY ((${[...partitionKey, spec.shardColumn].join(', ')}), ...)`,
      });
    }
    const t = shardCol.type.kind === 'NativeType' ? shardCol.type.name : undefined;
    const max = t ? INTEGER_TYPES[t] : undefined;
    if (max === undefined) {
      problems.push({
        severity: 'error',
        range: spec.ranges.shardColumn,
        message: `@shard: shard column '${spec.shardColumn}' must be an integer column (int, smallint, tinyint, bigint or varint)`,
      });
    } else if (spec.count - 1 + spec.offset > max) {
      problems.push({
        severity: 'error',
        range: spec.ranges.count,
        message: `@shard: shard values up to ${spec.count - 1 + spec.offset} do not fit in ${t} column '${spec.shardColumn}'`,
      });
    }
  }
  spec.sources.forEach((src, i) => {
    const range = spec.ranges.sources[i] ?? spec.ranges.formula;
    const c = column(src);
    if (!c) {
      problems.push({
        severity: 'error',
        range,
        message: `@shard: source column '${src}' not found in table ${tableName}`,
      });
      return;
    }
    if (src === spec.shardColumn) {
      problems.push({
        severity: 'error',
        range,
        message: `@shard: the shard column '${src}' cannot be computed from itself`,
      });
      return;
    }
    if (spec.method === 'codepoints') {
      const t = c.type.kind === 'NativeType' ? c.type.name : undefined;
      if (t !== 'text' && t !== 'varchar' && t !== 'ascii') {
        problems.push({
          severity: 'error',
          range,
          message: `@shard: codepoints() needs a text column, but '${src}' is ${t ?? 'not a native type'}`,
        });
      }
    } else {
      const problem = keyTypeProblem(keyTypeFromAst(c.type, udts));
      if (problem && !/primary key/.test(problem))
        problems.push({ severity: 'error', range, message: `@shard: cannot hash '${src}': ${problem}` });
    }
  });
  if (spec.count === 1) {
    problems.push({
      severity: 'warning',
      range: spec.ranges.count,
      message: '@shard: one shard does not spread writes; use more (e.g. 16)',
    });
  }
  return problems;
}

// -------------------------------------------------------------------------------------------------
// Shard values

/** Product of the Unicode code points of `text` mod `n`, exactly (the running product stays below 2^52). */
export function codepointsMod(text: string, n: number): number {
  let acc = 1 % n;
  for (const ch of text) acc = (acc * ch.codePointAt(0)!) % n;
  return acc;
}

const shardWriter = new ByteWriter(256);

/** murmur3 shard hash: x86_32 (unsigned) of the serialized source value(s), composite framing for several. */
export function murmur3SourceHash(types: KeyType[], values: CqlValue[]): number {
  shardWriter.reset();
  writeKey(shardWriter, types, values);
  return murmur3x86_32(shardWriter.buf, shardWriter.length);
}

export interface SourceValue {
  type: KeyType;
  value: KeyValue;
}

export type ShardValueResult =
  | { ok: true; value: number; hash?: number; formula: string }
  | {
      ok: false;
      reason: string;
      problem: 'invalid' | 'not-computable' | 'unsupported';
      column?: string;
      range?: SourceRange;
    };

/**
 * The shard value from each source column's type and value, looked up by name (and position in the
 * formula): the one way the fixes and `cqlint token` gather a formula's source values. A source with no
 * type is not a column of the table; one with no value is not computable.
 */
export function shardValueFrom(
  spec: Pick<ShardSpec, 'method' | 'sources' | 'count' | 'offset'>,
  typeOf: (column: string) => KeyType | undefined,
  valueOf: (column: string, index: number) => KeyValue | undefined,
): ShardValueResult {
  const sources: Record<string, SourceValue> = Object.create(null);
  for (const [i, name] of spec.sources.entries()) {
    const type = typeOf(name);
    if (!type)
      return {
        ok: false,
        problem: 'not-computable',
        reason: `@shard source column ${name} is not a column of the table`,
        column: name,
      };
    const value = valueOf(name, i);
    if (value !== undefined) sources[name] = { type, value };
  }
  return computeShardValue(spec, sources);
}

/**
 * The shard value the formula gives for these source values (keyed by column name). random() is not
 * computable (any of 1..N is right).
 */
export function computeShardValue(
  spec: Pick<ShardSpec, 'method' | 'sources' | 'count' | 'offset'>,
  sources: Record<string, SourceValue>,
): ShardValueResult {
  const formula = formatShardFormula(spec);
  if (spec.method === 'random') {
    return {
      ok: false,
      problem: 'not-computable',
      reason: `${formula} picks any of ${spec.offset}..${spec.count - 1 + spec.offset} at random`,
    };
  }
  try {
    const parsed: CqlValue[] = [];
    const types: KeyType[] = [];
    for (const name of spec.sources) {
      const src = ownEntry(sources, name);
      if (!src)
        return { ok: false, problem: 'not-computable', reason: `no value for source column ${name}`, column: name };
      parsed.push(parseKeyValue(src.type, src.value, { column: name }));
      types.push(src.type);
    }
    if (spec.method === 'codepoints') {
      if (typeof parsed[0] !== 'string')
        return {
          ok: false,
          problem: 'invalid',
          reason: `codepoints() needs a text value for ${spec.sources[0]}`,
          column: spec.sources[0],
        };
      return { ok: true, value: codepointsMod(parsed[0], spec.count) + spec.offset, formula };
    }
    const hash = murmur3SourceHash(types, parsed);
    return { ok: true, value: (hash % spec.count) + spec.offset, hash, formula };
  } catch (e) {
    if (e instanceof KeyValueError)
      return { ok: false, problem: e.problem, reason: e.message, column: e.column, range: e.range };
    return { ok: false, problem: 'invalid', reason: e instanceof Error ? e.message : String(e) };
  }
}

export function formatShardFormula(spec: Pick<ShardSpec, 'method' | 'sources' | 'count' | 'offset'>): string {
  if (spec.method === 'random') return `random(${spec.count})`;
  return `${spec.method}(${spec.sources.join(', ')}) % ${spec.count}${spec.offset ? ` + ${spec.offset}` : ''}`;
}

interface ShardCheck {
  /** 'mismatch': the written shard differs from the formula's; 'out-of-range': not a possible shard value. */
  kind: 'mismatch' | 'out-of-range';
  /** The formula's value (undefined for random or out-of-range checks). */
  expected?: number;
  actual: number;
  min: number;
  max: number;
  message: string;
}

/**
 * For a rule: compares a written shard value with the formula. `tableTypes` maps column names to types,
 * `literalValues` column names to the values written (AST expressions or text). Returns null when the
 * value is right or cannot be checked (missing or non-literal values).
 */
export function checkShardValue(
  spec: ShardSpec,
  tableTypes: Record<string, KeyType>,
  literalValues: Record<string, KeyValue | Expression | undefined>,
): ShardCheck | null {
  // Keyed by the user's column names: only own entries (`constructor` is not Object's).
  const written = ownEntry(literalValues, spec.shardColumn);
  const shardType = ownEntry(tableTypes, spec.shardColumn);
  if (written === undefined || !shardType) return null;
  let actual: number;
  try {
    const v = parseKeyValue(shardType, written as KeyValue, { column: spec.shardColumn });
    if (typeof v === 'number') actual = v;
    else if (typeof v === 'bigint') actual = Number(v);
    else return null;
  } catch {
    return null;
  }
  const min = spec.offset;
  const max = spec.count - 1 + spec.offset;
  const formula = formatShardFormula(spec);
  if (actual < min || actual > max) {
    return {
      kind: 'out-of-range',
      actual,
      min,
      max,
      message: `${spec.shardColumn} = ${actual} is outside ${min}..${max}, the values ${formula} can give`,
    };
  }
  if (spec.method === 'random') return null;
  const sources = nameRecord<SourceValue>();
  for (const name of spec.sources) {
    const value = ownEntry(literalValues, name);
    const type = ownEntry(tableTypes, name);
    if (value === undefined || !type) return null;
    sources[name] = { type, value: value as KeyValue };
  }
  const r = computeShardValue(spec, sources);
  if (!r.ok) return null;
  if (r.value === actual) return null;
  const srcText = spec.sources.length === 1 ? spec.sources[0] : `(${spec.sources.join(', ')})`;
  return {
    kind: 'mismatch',
    expected: r.value,
    actual,
    min,
    max,
    message: `${spec.shardColumn} = ${actual} but ${formula} gives ${r.value} for this ${srcText}: the row goes to the wrong shard and reads computing the shard will not find it`,
  };
}
