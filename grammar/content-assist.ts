// expectedTokensAt: what may be typed at an offset, from the grammar (content assist, grammar/next-tokens.ts), for completion.
import { type IToken, type TokenType } from './chevrotain';
import {
  lexCql,
  Keyword,
  Ident,
  NativeTypeKw,
  NonTypeIdent,
  PermissionKw,
  NumberLit,
  Semicolon,
  StringLiteral,
  UnterminatedString,
  UnterminatedQuotedName,
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
  LineComment,
  BlockComment,
  keywordTokens as K,
  SHELL_COMMANDS,
} from './lexer';
import { nextTokenTypes } from './errors';
import { isWord, isShellWord, startsStatement, chunkTokens } from './chunks';
import { LineIndex } from './line-index';

/** Permission names usable in GRANT / REVOKE / LIST. */
export const PERMISSIONS: readonly string[] = [
  'ALL',
  'ALTER',
  'AUTHORIZE',
  'CREATE',
  'DESCRIBE',
  'DROP',
  'EXECUTE',
  'MODIFY',
  'SELECT',
  'UNMASK',
  'SELECT_MASKED',
];

/** What a name at the cursor refers to, from the grammar rule that expects it. */
export type IdentifierKind =
  | 'keyspace'
  | 'table'
  | 'column'
  | 'field'
  | 'type'
  | 'function'
  | 'role'
  | 'index'
  | 'property'
  | 'alias'
  | 'trigger'
  | 'argument'
  | 'identity'
  | 'language';

const RULE_IDENTIFIER_KIND: Record<string, IdentifierKind> = {
  keyspaceName: 'keyspace',
  tableName: 'table',
  columnName: 'column',
  columnRef: 'column',
  fieldName: 'field',
  userTypeName: 'type',
  functionName: 'function',
  roleName: 'role',
  userName: 'role',
  indexName: 'index',
  qualifiedIndexName: 'index',
  operand: 'column',
  propertyName: 'property',
  aliasName: 'alias',
  triggerName: 'trigger',
  argumentName: 'argument',
  identityName: 'identity',
  createFunction: 'language',
  cqlType: 'type',
};

/** The index of the last BEGIN that no APPLY follows, if any. */
function openBatchStart(tokens: readonly IToken[]): number | undefined {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const type = tokens[i]!.tokenType;
    if (type === K.APPLY) return undefined;
    if (type === K.BEGIN) return i;
  }
  return undefined;
}

/**
 * What may be typed at `offset`, from the grammar (content assist, grammar/next-tokens.ts, on the statement containing
 * the offset). Shape:
 * - `keywords`: keywords valid next, upper-case (`['FROM', 'WHERE']`). Keywords that are only valid there
 *   as names are not listed; type constructors (`MAP`, `FROZEN`, ...) are listed only if a type is expected.
 * - `punctuation`: punctuation valid next (`'('`, `','`, `';'`, ...), as written.
 * - `expectsIdentifier` and `identifierKinds`: a name may come next, and of which kind(s)
 *   (`'keyspace'`, `'table'`, `'column'`, `'type'`, `'function'`, `'role'`, ...).
 * - `expectsType`: a CQL type may come next (see NATIVE_TYPE_NAMES, plus `frozen<`, `list<`, ...).
 * - `expectsValue`: a literal, bind marker or other value may come next.
 * - `atStatementStart`: a new statement may start here (then `shellCommands` lists cqlsh commands too).
 * - `prefix`/`prefixStart`: the partly typed word ending at the cursor (excluded from the analysis).
 * - `inCommentOrString`: the cursor is inside a comment or a string: nothing to complete.
 * - `namePaths`: for each way a name may come next, the grammar rules it would be read by (outermost first,
 *   e.g. `selectStatement > whereClause > relation > expression > operand`) and each rule's occurrence in its
 *   parent (`relation`'s first `expression` is 0, the one after the operator 2): the site the name fills.
 */
export interface NamePath {
  rules: readonly string[];
  occurrences: readonly number[];
}

export interface ExpectedTokens {
  keywords: string[];
  punctuation: string[];
  expectsIdentifier: boolean;
  identifierKinds: IdentifierKind[];
  expectsType: boolean;
  expectsValue: boolean;
  atStatementStart: boolean;
  shellCommands: string[];
  prefix: string;
  prefixStart: number;
  inCommentOrString: boolean;
  namePaths: NamePath[];
}

const VALUE_TYPES = new Set<TokenType>([
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
]);
const TYPE_CONSTRUCTORS = new Set<TokenType>([K.MAP, K.LIST, K.SET, K.TUPLE, K.VECTOR, K.FROZEN]);
/** The grammar rules that consume a type constructor as the start of a type (grammar/syntax/types.ts). */
const TYPE_RULES = new Set(['cqlType', 'collectionType', 'tupleType', 'vectorType', 'frozenType']);
const NAME_TYPES = new Set<TokenType>([Ident, NonTypeIdent, QuotedName, EmptyQuotedName, Identifier]);

export function expectedTokensAt(text: string, offset: number): ExpectedTokens {
  const result: ExpectedTokens = {
    keywords: [],
    punctuation: [],
    expectsIdentifier: false,
    identifierKinds: [],
    expectsType: false,
    expectsValue: false,
    atStatementStart: false,
    shellCommands: [],
    prefix: '',
    prefixStart: offset,
    inCommentOrString: false,
    namePaths: [],
  };
  try {
    offset = Math.max(0, Math.min(offset, text.length));
    result.prefixStart = offset;
    const before = text.slice(0, offset);
    const { tokens, comments } = lexCql(before);
    const lastComment = comments[comments.length - 1];
    if (lastComment && lastComment.endOffset! + 1 >= offset) {
      const closed =
        lastComment.tokenType === BlockComment && lastComment.image.length >= 4 && lastComment.image.endsWith('*/');
      if (!closed && (lastComment.tokenType === LineComment || lastComment.tokenType === BlockComment)) {
        result.inCommentOrString = true;
        return result;
      }
    }
    let prefixTokens = tokens;
    const last = tokens[tokens.length - 1];
    if (last && (last.tokenType === UnterminatedString || last.tokenType === UnterminatedQuotedName)) {
      result.inCommentOrString = true;
      return result;
    }
    if (last && last.endOffset! + 1 === offset && (isWord(last) || last.tokenType === QuotedName)) {
      result.prefix = last.image;
      result.prefixStart = last.startOffset;
      prefixTokens = tokens.slice(0, -1);
    }
    const chunks = chunkTokens(prefixTokens);
    let stmt: IToken[] = [];
    const lastChunk = chunks[chunks.length - 1];
    if (lastChunk) {
      const [s, e] = lastChunk;
      const complete =
        prefixTokens[e - 1].tokenType === Semicolon &&
        !(prefixTokens[s].tokenType === K.BEGIN && prefixTokens[e - 2]?.tokenType !== K.BATCH);
      if (isShellWord(prefixTokens[s])) {
        if (complete || prefixTokens[e - 1].endLine! < new LineIndex(before).location(offset).line) stmt = [];
        else return result;
      } else if (!complete) {
        stmt = prefixTokens.slice(s, e);
      }
    }
    // A batch with no APPLY yet is cut into chunks at each `;`: the grammar reads it from its BEGIN.
    const begin = openBatchStart(prefixTokens);
    if (begin !== undefined && lastChunk && lastChunk[0] > begin && !isShellWord(prefixTokens[lastChunk[0]]))
      stmt = prefixTokens.slice(begin);
    let next = nextTokenTypes(stmt);
    // The statement before the cursor may be missing its `;`: retry from the last statement keyword at a line start.
    if (next.types.length === 0 && stmt.length > 0) {
      for (let j = stmt.length - 1; j > 0; j--) {
        if (startsStatement(stmt, j, true)) {
          stmt = stmt.slice(j);
          next = nextTokenTypes(stmt);
          break;
        }
      }
    }
    result.atStatementStart = stmt.length === 0;
    if (result.atStatementStart) result.shellCommands = [...SHELL_COMMANDS];
    const kinds = new Set<IdentifierKind>();
    const paths = new Map<string, NamePath>();
    const keywords = new Set<string>();
    const punctuation = new Set<string>();
    const expectsType = next.types.includes(NativeTypeKw);
    result.expectsType = expectsType;
    for (const t of next.types) {
      if (NAME_TYPES.has(t)) {
        result.expectsIdentifier = true;
        const occurrences = next.occurrenceStacks.get(t) ?? [];
        (next.ruleStacks.get(t) ?? []).forEach((stack, i) => {
          const kind = RULE_IDENTIFIER_KIND[stack[stack.length - 1]];
          if (kind && !(kind === 'type' && t !== NonTypeIdent)) kinds.add(kind);
          const key = `${stack.join('>')}/${occurrences[i]?.join(',')}`;
          if (!paths.has(key)) paths.set(key, { rules: stack, occurrences: occurrences[i] ?? [] });
        });
      } else if (t === NativeTypeKw) {
        // covered by expectsType
      } else if (t === PermissionKw) {
        for (const p of PERMISSIONS) keywords.add(p);
      } else if (VALUE_TYPES.has(t)) {
        result.expectsValue = true;
        if (t === LBracket || t === LBrace || t === Minus || t === Colon || t === QMark)
          punctuation.add(t.LABEL!.slice(1, -1));
        if (t === K.NULL) keywords.add('NULL');
      } else if (t.CATEGORIES?.includes(Keyword)) {
        // MAP, LIST, SET, ... as a type's start only where a type is expected; LIST (the statement) and
        // SET (UPDATE's clause) are keywords of other rules.
        if (
          TYPE_CONSTRUCTORS.has(t) &&
          !expectsType &&
          (next.ruleStacks.get(t) ?? []).every((stack) => TYPE_RULES.has(stack[stack.length - 1]!))
        )
          continue;
        keywords.add(t.name);
      } else if (t.LABEL) {
        punctuation.add(t.LABEL.replace(/^'|'$/g, ''));
      }
    }
    if (next.types.includes(K.TOKEN)) keywords.add('TOKEN');
    result.identifierKinds = [...kinds];
    result.namePaths = [...paths.values()];
    result.keywords = [...keywords].sort();
    result.punctuation = [...punctuation];
  } catch {
    // Completion must never throw; an empty answer is the safe fallback.
  }
  return result;
}
