// Syntax error messages in the user's words: what was expected (from the grammar, via Chevrotain's content
// assist on the tokens before the error), where (the rule being parsed), and what was found.
import { EOF, type IRecognitionException, type IToken, type TokenType } from './chevrotain';
import {
  Ident,
  NonTypeIdent,
  NativeTypeKw,
  NumberLit,
  PermissionKw,
  Keyword,
  StringLiteral,
  QuotedName,
  EmptyQuotedName,
  Identifier,
  IntegerLiteral,
  FloatLiteral,
  DurationLiteral,
  UuidLiteral,
  HexLiteral,
  BooleanLiteral,
  NanLiteral,
  InfinityLiteral,
  QMark,
  Colon,
  LBracket,
  LBrace,
  Minus,
  UnterminatedString,
  UnterminatedQuotedName,
  Unknown,
  Dot,
  Star,
  Slash,
  Percent,
  Plus,
  Range,
  keywordTokens as K,
} from './lexer';
import { nextTokenPaths } from './next-tokens';

/** Content assist beyond this many tokens of prefix is skipped (it walks the grammar for each token). */
const MAX_ASSIST_PREFIX = 400;

const VALUE_TOKENS = new Set<TokenType>([
  StringLiteral,
  NumberLit,
  IntegerLiteral,
  FloatLiteral,
  DurationLiteral,
  UuidLiteral,
  HexLiteral,
  BooleanLiteral,
  NanLiteral,
  InfinityLiteral,
  K.NULL,
  QMark,
  Colon,
  LBracket,
  LBrace,
  Minus,
  K.CAST,
]);
const TYPE_TOKENS = new Set<TokenType>([NativeTypeKw, K.MAP, K.LIST, K.SET, K.TUPLE, K.VECTOR, K.FROZEN]);
const NAME_TOKENS = new Set<TokenType>([Ident, NonTypeIdent, QuotedName, EmptyQuotedName, Identifier, K.TOKEN]);
const PUNCT_ORDER = ["')'", "']'", "'}'", "'>'", "','", "';'"];

interface NextTokens {
  types: TokenType[];
  /** Per next token type, the grammar rule path of each way it may come (outermost rule first). */
  ruleStacks: Map<TokenType, string[][]>;
  /** The same paths' occurrence numbers: which SUBRULE call of its parent each rule is (0 for SUBRULE, 2 for SUBRULE2, ...). */
  occurrenceStacks: Map<TokenType, number[][]>;
}

/**
 * Recent content-assist answers by the prefix's token types (content assist reads nothing else). Each keystroke
 * asks twice for the same prefix (diagnostics' error message, then completion), and the statement being typed
 * is re-asked while its other statements stay unchanged. Answers are shared: callers must not mutate them.
 */
const assistCache = new Map<string, NextTokens>();
const ASSIST_CACHE_SIZE = 64;

/** Forgets cached content-assist answers (for benchmarks that time the uncached path). */
export function clearAssistCache(): void {
  assistCache.clear();
}

/** The next token types the grammar allows after `prefix` (the tokens `startRule` began at), deduplicated. */
export function nextTokenTypes(prefix: IToken[], startRule = 'cqlStatement'): NextTokens {
  if (prefix.length > MAX_ASSIST_PREFIX) return { types: [], ruleStacks: new Map(), occurrenceStacks: new Map() };
  let key = startRule + ':';
  for (const t of prefix) key += t.tokenTypeIdx + ',';
  const cached = assistCache.get(key);
  if (cached) {
    // Most recently used last.
    assistCache.delete(key);
    assistCache.set(key, cached);
    return cached;
  }
  const ruleStacks = new Map<TokenType, string[][]>();
  const occurrenceStacks = new Map<TokenType, number[][]>();
  let paths;
  try {
    paths = nextTokenPaths(startRule, prefix);
  } catch {
    return { types: [], ruleStacks, occurrenceStacks };
  }
  for (const path of paths) {
    const stacks = ruleStacks.get(path.nextTokenType) ?? [];
    stacks.push(path.ruleStack);
    ruleStacks.set(path.nextTokenType, stacks);
    const occurrences = occurrenceStacks.get(path.nextTokenType) ?? [];
    occurrences.push(path.occurrenceStack);
    occurrenceStacks.set(path.nextTokenType, occurrences);
  }
  const answer = { types: [...ruleStacks.keys()], ruleStacks, occurrenceStacks };
  if (assistCache.size >= ASSIST_CACHE_SIZE) assistCache.delete(assistCache.keys().next().value!);
  assistCache.set(key, answer);
  return answer;
}

function isKeywordType(t: TokenType): boolean {
  return t.CATEGORIES?.includes(Keyword) ?? false;
}

function label(t: TokenType): string {
  if (isKeywordType(t)) return `'${t.name}'`;
  if (t.LABEL) return t.LABEL;
  return t.name;
}

/** "'a', 'b' or 'c'" — grouped into "a column type", "a value", "an identifier" where that reads better. */
function describeExpected(types: TokenType[], found: IToken | undefined): string {
  const set = new Set(types);
  const parts: string[] = [];
  const isType = [...set].some((t) => t === NativeTypeKw);
  if (isType) {
    parts.push('a column type');
    for (const t of TYPE_TOKENS) set.delete(t);
    set.delete(NonTypeIdent);
    set.delete(StringLiteral);
    if (set.has(Ident)) set.delete(Ident);
  }
  const valueCount = [...set].filter((t) => VALUE_TOKENS.has(t)).length;
  if (set.has(StringLiteral) && set.has(NumberLit) && valueCount >= 4) {
    parts.push(set.has(Ident) ? 'an expression' : 'a value');
    for (const t of VALUE_TOKENS) set.delete(t);
    for (const t of NAME_TOKENS) set.delete(t);
    set.delete(K.TOKEN);
  }
  if ([...set].some((t) => NAME_TOKENS.has(t))) {
    parts.push('an identifier');
    for (const t of NAME_TOKENS) set.delete(t);
  }
  if (set.has(PermissionKw)) {
    parts.push('a permission');
    set.delete(PermissionKw);
  }
  // Keywords that are also names are covered by "an identifier" when a name is expected.
  let rest = [...set].map(label);
  const punct = rest.filter((l) => /^'[^A-Za-z]+'$/.test(l)).sort((a, b) => order(a) - order(b));
  const words = rest.filter((l) => !/^'[^A-Za-z]+'$/.test(l)).sort();
  rest = [...punct, ...words];
  void found;
  const all = [...rest, ...parts];
  if (all.length === 0) return 'something else';
  // Nine fit a message of about 100 characters (a SELECT's clauses after WHERE are nine); past that, seven and '...'.
  if (all.length > 9) return `${all.slice(0, 7).join(', ')}, ...`;
  return all.length === 1 ? all[0] : `${all.slice(0, -1).join(', ')} or ${all[all.length - 1]}`;
}

function order(l: string): number {
  const i = PUNCT_ORDER.indexOf(l);
  return i < 0 ? PUNCT_ORDER.length : i;
}

export function describeFound(token: IToken | undefined): string {
  if (!token || token.tokenType === EOF) return 'end of input';
  const image = token.image.length > 30 ? token.image.slice(0, 27) + '...' : token.image;
  return `'${image.replace(/\s+/g, ' ')}'`;
}

/** Where the error is, from the innermost rule that has a description. */
const RULE_CONTEXT: Record<string, (prev: IToken | undefined) => string | undefined> = {
  tableBody: (prev) =>
    prev && (prev.image === '(' || prev.image === ',') ? 'in the column list' : 'after column definition',
  columnDefinition: () => 'in column definition',
  primaryKeyClause: () => 'in PRIMARY KEY',
  partitionKey: () => 'in the partition key',
  createType: (prev) =>
    prev && (prev.image === '(' || prev.image === ',') ? 'in the field list' : 'after field definition',
  insertColumns: () => 'in the INSERT column list',
  insertValues: () => 'in the VALUES list',
  whereClause: () => 'in WHERE clause',
  relation: () => 'in WHERE condition',
  ifClause: () => 'in IF condition',
  selectClause: () => 'in the selection',
  assignment: () => 'in SET assignment',
  properties: () => 'in WITH options',
  property: () => 'in option',
  tableOptions: () => 'in table options',
  clusteringOrder: () => 'in CLUSTERING ORDER BY',
  braceLiteral: () => 'in map or set literal',
  braceEntry: () => 'in map or set literal',
  listLiteral: () => 'in list literal',
  functionCall: () => 'in function call',
  typeList: () => 'in the argument types',
  collectionType: () => 'in collection type',
  tupleType: () => 'in tuple type',
  vectorType: () => 'in vector type',
  frozenType: () => 'in frozen type',
  usingClause: () => 'in USING clause',
  roleOption: () => 'in role option',
  resource: () => 'in resource',
  indexTarget: () => 'in index target',
  createIndex: () => 'in CREATE INDEX',
  createKeyspace: () => 'in CREATE KEYSPACE',
  alterKeyspace: () => 'in ALTER KEYSPACE',
  createTable: () => 'in CREATE TABLE',
  alterTable: () => 'in ALTER TABLE',
  createMaterializedView: () => 'in CREATE MATERIALIZED VIEW',
  createFunction: () => 'in CREATE FUNCTION',
  createAggregate: () => 'in CREATE AGGREGATE',
  selectStatement: () => 'in SELECT',
  insertStatement: () => 'in INSERT',
  updateStatement: () => 'in UPDATE',
  deleteStatement: () => 'in DELETE',
  batchStatement: () => 'in BATCH',
  listStatement: () => 'in LIST',
  grantStatement: () => 'in GRANT',
  revokeStatement: () => 'in REVOKE',
  describeStatement: () => 'in DESCRIBE',
};

interface SyntaxErrorInfo {
  message: string;
  /** The offending token (undefined: end of the statement's input). */
  token: IToken | undefined;
}

/**
 * The message for a Chevrotain recognition exception on `tokens` (one statement's tokens, or the tokens of a
 * term or type parsed from `startRule`).
 * `errorIndex` is the offending token's index in `tokens` (tokens.length for end of input).
 */
export function buildSyntaxMessage(
  exception: IRecognitionException,
  tokens: IToken[],
  errorIndex: number,
  startRule = 'cqlStatement',
): SyntaxErrorInfo {
  const token = errorIndex < tokens.length ? tokens[errorIndex] : undefined;
  if (token?.tokenType === UnterminatedString) return { message: 'unterminated string literal', token };
  if (token?.tokenType === UnterminatedQuotedName) return { message: 'unterminated quoted name', token };
  if (token?.tokenType === Unknown) return { message: `unexpected character ${describeFound(token)}`, token };
  const found = describeFound(token);
  if (errorIndex === 0 && startRule === 'cqlStatement') {
    const dialect = dialectHint(token, [], tokens);
    if (dialect) return { message: dialect, token };
    return {
      message: `expected a CQL statement (such as CREATE, SELECT, INSERT, UPDATE or DELETE), found ${found}`,
      token,
    };
  }
  const prefix = tokens.slice(0, errorIndex);
  const next = nextTokenTypes(prefix, startRule);
  const ruleStack = exception.context?.ruleStack ?? [];
  const rule = ruleStack[ruleStack.length - 1];
  if (rule === 'selectClause' && token?.tokenType === K.FROM) {
    return {
      message: "unexpected 'FROM': a SELECT needs at least one selector (a column, an expression or '*')",
      token,
    };
  }
  const dialect = dialectHint(token, ruleStack, tokens);
  if (dialect) return { message: dialect, token };
  const types = relevantTypes(
    next.types,
    next.ruleStacks,
    exception.name === 'MismatchedTokenException' ? ruleStack : undefined,
  );
  const prev = tokens[errorIndex - 1];
  let where: string | undefined;
  for (let i = ruleStack.length - 1; i >= 0 && where === undefined; i--) where = RULE_CONTEXT[ruleStack[i]]?.(prev);
  if (types.length === 0) return { message: `unexpected ${found}${where ? ' ' + where : ''}`, token };
  const expected = describeExpected(types, token);
  return { message: `expected ${expected}${where ? ' ' + where : ''}, found ${found}`, token };
}

/** Tokens that would only continue the element just parsed (an expression, a name): noise in a message. */
const CONTINUATIONS = new Set<TokenType>([LBracket, Dot, Star, Slash, Percent, Plus, Minus, Range]);

/**
 * Keeps the suggestions made at the level of the rule that failed (or its callers): after a complete column
 * definition, "')' or ','" rather than also every optional modifier the column could still take.
 */
function relevantTypes(
  types: TokenType[],
  ruleStacks: Map<TokenType, string[][]>,
  failedStack: string[] | undefined,
): TokenType[] {
  const isPrefix = (stack: string[]) =>
    !!failedStack && stack.length <= failedStack.length && stack.every((r, i) => failedStack[i] === r);
  let kept = failedStack ? types.filter((t) => (ruleStacks.get(t) ?? []).some(isPrefix)) : types;
  if (kept.length === 0) kept = types;
  const withoutContinuations = kept.filter((t) => !CONTINUATIONS.has(t));
  return withoutContinuations.length ? withoutContinuations : kept;
}

/** Syntax from other CQL dialects (DataStax Enterprise) gets a message that says so. */
function dialectHint(token: IToken | undefined, ruleStack: string[], tokens: IToken[]): string | undefined {
  if (!token) return undefined;
  const word = token.image.toUpperCase();
  if (
    word === 'OR' &&
    (ruleStack.length === 0 ||
      ruleStack.some(
        (r) => r === 'whereClause' || r === 'relation' || r === 'selectStatement' || r === 'cqlStatement',
      )) &&
    tokens.some((t) => t.tokenType === K.WHERE)
  ) {
    return "'OR' is not supported in a CQL WHERE clause: Apache Cassandra 5.0 only combines conditions with AND (OR is DataStax-specific syntax); use IN, or run separate queries";
  }
  if (word === 'RESTRICT' || word === 'UNRESTRICT') {
    return `'${word} ROWS' is DataStax Enterprise syntax (row-level access control), not Apache Cassandra CQL`;
  }
  return undefined;
}
