// Semantic tokens: keywords, types, keyspaces, tables, views, columns by key role, functions,
// literals and comments. Columns carry custom modifiers (partitionKey, clusteringKey) next to the
// standard ones (static, declaration, defaultLibrary) so themes can colour key columns.
import type { ParseResult } from '../../../grammar/ast';
import { LineIndex } from '../../../grammar/line-index';
import type { ColumnSummary, SymbolIndex } from './symbols';
import { editorTokens, type EditorToken } from './tokens';
import { FUNCTIONS_BY_NAME } from './cql-docs';
import type { WorkBudget } from '../util/budget';

const SEMANTIC_TOKEN_TYPES = [
  'namespace',
  'class',
  'struct',
  'property',
  'type',
  'function',
  'keyword',
  'string',
  'number',
  'comment',
  'operator',
  'parameter',
  'variable',
  'interface',
] as const;
const SEMANTIC_TOKEN_MODIFIERS = [
  'declaration',
  'static',
  'defaultLibrary',
  'partitionKey',
  'clusteringKey',
  'readonly',
] as const;

type SemanticTokenType = (typeof SEMANTIC_TOKEN_TYPES)[number];
type SemanticTokenModifier = (typeof SEMANTIC_TOKEN_MODIFIERS)[number];

export const SEMANTIC_TOKENS_LEGEND = {
  tokenTypes: [...SEMANTIC_TOKEN_TYPES] as string[],
  tokenModifiers: [...SEMANTIC_TOKEN_MODIFIERS] as string[],
};

interface SemanticToken {
  /** 0-based line and UTF-16 character. */
  line: number;
  character: number;
  length: number;
  type: SemanticTokenType;
  modifiers: SemanticTokenModifier[];
}

const OPERATOR_TYPES = new Set([
  'Eq',
  'NotEq',
  'Lt',
  'Gt',
  'LtEq',
  'GtEq',
  'Plus',
  'Minus',
  'Star',
  'Slash',
  'Percent',
  'PlusEq',
  'MinusEq',
]);

/**
 * The part of the text to classify: the statements overlapping `range` (all without one), cut where the
 * budget (characters of statement text) runs out. The bounds lie between statements, where lexing can start.
 */
function classifiedSpan(
  text: string,
  parse: ParseResult,
  range: { start: number; end: number } | undefined,
  budget: WorkBudget | undefined,
): { from: number; to: number } {
  let from = 0;
  let to = text.length;
  for (const statement of parse.statements) {
    const start = statement.range.start;
    const end = statement.range.end;
    if (range && end < range.start) {
      from = end;
      continue;
    }
    if (range && start > range.end) {
      to = start;
      break;
    }
    if (budget && !budget.spend(end - start, start)) {
      to = start;
      break;
    }
  }
  return { from, to: Math.max(from, to) };
}

/**
 * Classifies every token of a file. `range` (offsets) limits the result to tokens that overlap it; a
 * `budget` stops at the statement where it runs out (`budget.stoppedAt`).
 */
export function semanticTokens(
  index: SymbolIndex,
  filePath: string,
  text: string,
  parse: ParseResult,
  range?: { start: number; end: number },
  budget?: WorkBudget,
): SemanticToken[] {
  const lines = new LineIndex(text);
  const { from, to } = classifiedSpan(text, parse, range, budget);
  // Lexed from a statement boundary, so the tokens are the whole text's; shifted back to its offsets.
  const tokens =
    from === 0 && to === text.length
      ? editorTokens(text)
      : editorTokens(text.slice(from, to)).map((token) => ({
          ...token,
          start: token.start + from,
          end: token.end + from,
        }));
  const columnMaps = new Map<unknown, Map<string, ColumnSummary>>();
  const columnOf = (o: NonNullable<ReturnType<SymbolIndex['occurrenceAt']>>): ColumnSummary | undefined => {
    if (o.target.kind !== 'column') return undefined;
    const table = index.tableOfMention(o, o.target.table);
    if (!table) return undefined;
    const base = index.baseOf(table);
    let map = columnMaps.get(base.occurrence);
    if (!map) {
      map = new Map(index.columnsOf(base).map((c) => [c.name, c] as const));
      columnMaps.set(base.occurrence, map);
    }
    return map.get(o.target.name);
  };

  const out: SemanticToken[] = [];
  const emit = (token: EditorToken, type: SemanticTokenType, modifiers: SemanticTokenModifier[] = []): void => {
    // Split tokens that span lines (block comments, $$ strings): one entry per line.
    let start = token.start;
    while (start < token.end) {
      const pos = lines.positionAt(start);
      const lineEnd = Math.min(lines.lineEnd(pos.line), token.end);
      if (lineEnd > start)
        out.push({ line: pos.line, character: pos.character, length: lineEnd - start, type, modifiers });
      if (pos.line + 1 >= lines.lineCount) break;
      start = Math.max(lines.lineStarts[pos.line + 1], start + 1);
    }
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (range && (token.end < range.start || token.start > range.end)) continue;
    switch (token.category) {
      case 'comment':
        emit(token, 'comment');
        continue;
      case 'string':
        emit(token, 'string');
        continue;
      case 'number':
        emit(token, 'number');
        continue;
      case 'literalWord':
        emit(token, /^(nan|infinity)$/i.test(token.image) ? 'number' : 'keyword');
        continue;
      case 'punctuation':
        if (OPERATOR_TYPES.has(token.type)) emit(token, 'operator');
        else if (token.type === 'QMark') emit(token, 'parameter');
        continue;
      default:
        break;
    }
    // Words and quoted names: a symbol when the index knows the spot, else by lexical category.
    const o = token.category === 'unknown' ? undefined : index.occurrenceAt(filePath, token.start);
    if (o && o.identifier.range.start === token.start) {
      const declaration: SemanticTokenModifier[] = o.declaration ? ['declaration'] : [];
      switch (o.target.kind) {
        case 'keyspace':
          emit(token, 'namespace', declaration);
          break;
        case 'table': {
          const table = index.tableOfMention(o, o.target);
          emit(token, table?.isView ? 'interface' : 'class', declaration);
          break;
        }
        case 'column': {
          const column = columnOf(o);
          const mods = [...declaration];
          if (column?.role === 'partition') mods.push('partitionKey');
          else if (column?.role === 'clustering') mods.push('clusteringKey');
          else if (column?.role === 'static') mods.push('static');
          emit(token, 'property', mods);
          break;
        }
        case 'type':
          emit(token, 'struct', declaration);
          break;
        case 'field':
          emit(token, 'property', declaration);
          break;
        case 'index':
          emit(token, 'variable', declaration);
          break;
        case 'function': {
          const native = !index.definitionOf(o) && FUNCTIONS_BY_NAME.has(o.target.name.toLowerCase());
          emit(token, 'function', native ? ['defaultLibrary'] : declaration);
          break;
        }
        default:
          break;
      }
      continue;
    }
    if (token.category === 'keyword') {
      const next = tokens[i + 1];
      const prev = tokens[i - 1];
      if (token.nativeType && prev?.type !== 'Dot') emit(token, 'type', ['defaultLibrary']);
      else if (/^(list|set|map|frozen|tuple|vector)$/i.test(token.image) && next?.type === 'Lt')
        emit(token, 'type', ['defaultLibrary']);
      else emit(token, 'keyword');
    } else if (token.category === 'identifier' && tokens[i - 1]?.type === 'Colon') {
      emit(token, 'parameter');
    }
  }
  return out;
}

/** LSP's relative encoding: [deltaLine, deltaStart, length, typeIndex, modifierBits] per token. */
export function encodeSemanticTokens(tokens: readonly SemanticToken[]): number[] {
  const data: number[] = [];
  let prevLine = 0;
  let prevChar = 0;
  const sorted = [...tokens].sort((a, b) => a.line - b.line || a.character - b.character);
  for (const t of sorted) {
    const deltaLine = t.line - prevLine;
    const deltaStart = deltaLine === 0 ? t.character - prevChar : t.character;
    let bits = 0;
    for (const m of t.modifiers) bits |= 1 << SEMANTIC_TOKEN_MODIFIERS.indexOf(m);
    data.push(deltaLine, deltaStart, t.length, SEMANTIC_TOKEN_TYPES.indexOf(t.type), bits);
    prevLine = t.line;
    prevChar = t.character;
  }
  return data;
}

/** Decodes LSP's relative encoding (for tests and debugging). */
export function decodeSemanticTokens(data: readonly number[]): SemanticToken[] {
  const out: SemanticToken[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i + 4 < data.length; i += 5) {
    line += data[i];
    character = data[i] === 0 ? character + data[i + 1] : data[i + 1];
    const modifiers = SEMANTIC_TOKEN_MODIFIERS.filter((_, bit) => (data[i + 4] & (1 << bit)) !== 0);
    out.push({
      line,
      character,
      length: data[i + 2],
      type: SEMANTIC_TOKEN_TYPES[data[i + 3]],
      modifiers: [...modifiers],
    });
  }
  return out;
}
