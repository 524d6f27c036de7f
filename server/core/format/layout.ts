// How the formatter lays out one statement (formatter.ts prints it): the facts of the AST that spacing
// and case need, and where lines break, how far they are indented and where types align.
import type { Node, Statement } from '../../../grammar/ast';
import { walk } from '../util/ast-walk';
import type { EditorToken } from '../editor/tokens';

// Facts from the AST that spacing and case need.

export interface Facts {
  /** Token starts of names (never re-cased). */
  names: Set<number>;
  /** Token starts of literals (never re-cased). */
  literals: Set<number>;
  /** Offsets covered by types (keywords inside are lower-cased). */
  typeRanges: [number, number][];
  /** `(` offsets of function calls (no space before). */
  callParens: Set<number>;
  /** `[` offsets of element access (no space before). */
  indexBrackets: Set<number>;
  /** `:` offsets of named bind markers (no space after). */
  bindColons: Set<number>;
}

export function collectFacts(statement: Statement, tokens: EditorToken[]): Facts {
  const facts: Facts = {
    names: new Set(),
    literals: new Set(),
    typeRanges: [],
    callParens: new Set(),
    indexBrackets: new Set(),
    bindColons: new Set(),
  };
  const tokenAfter = (offset: number): EditorToken | undefined => {
    for (const t of tokens) if (t.start >= offset && t.category !== 'comment') return t;
    return undefined;
  };
  walk(statement, (node: Node) => {
    const n = node as Node & Record<string, unknown>;
    switch (node.kind) {
      case 'Identifier':
        facts.names.add(node.range.start);
        break;
      case 'Literal':
        facts.literals.add(node.range.start);
        break;
      case 'NativeType':
      case 'CollectionType':
      case 'FrozenType':
      case 'TupleType':
      case 'VectorType':
        facts.typeRanges.push([node.range.start, node.range.end]);
        break;
      case 'FunctionCall': {
        const name = n.name as Node;
        const paren = tokenAfter(name.range.end);
        if (paren?.type === 'LParen') facts.callParens.add(paren.start);
        break;
      }
      case 'CastExpression':
      case 'IndexTarget': {
        if (node.kind === 'IndexTarget' && n.indexKind === 'simple') break;
        const first = tokenAfter(node.range.start);
        const paren = first ? tokenAfter(first.end) : undefined;
        if (paren?.type === 'LParen') facts.callParens.add(paren.start);
        break;
      }
      case 'ElementAccess':
      case 'SliceAccess': {
        const target = n.target as Node;
        const bracket = tokenAfter(target.range.end);
        if (bracket?.type === 'LBracket') facts.indexBrackets.add(bracket.start);
        break;
      }
      case 'BindMarker':
        if (n.name) facts.bindColons.add(node.range.start);
        break;
      default:
        break;
    }
  });
  return facts;
}

// ---------------------------------------------------------------------------------------------
// Layout: where lines break, how far they are indented, and where types align.

export interface Layout {
  /** Token index -> indentation level of the new line that starts with it. */
  breaks: Map<number, number>;
  /** Token index -> column (from the line start) the token is padded to. */
  pads: Map<number, number>;
}

const upper = (t: EditorToken | undefined): string => (t ? t.image.toUpperCase() : '');

export function layoutStatement(
  statement: Statement,
  tokens: EditorToken[],
  facts: Facts,
  base: number,
  layout: Layout,
  indentWidth: number,
): void {
  const first = tokens.findIndex((t) => t.start >= statement.range.start && t.category !== 'comment');
  const last = lastIndex(tokens, (t) => t.end <= statement.range.end + 1 && t.category !== 'comment');
  if (first < 0 || last < first) return;
  const isKeywordAt = (i: number): boolean => tokens[i].category === 'keyword' && !facts.names.has(tokens[i].start);
  /** Indices of tokens at bracket depth 0 (within this statement). */
  const depth0: number[] = [];
  let depth = 0;
  for (let i = first; i <= last; i++) {
    const t = tokens[i];
    if (t.category === 'comment') continue;
    if (t.type === 'RParen' || t.type === 'RBrace' || t.type === 'RBracket') depth = Math.max(0, depth - 1);
    if (depth === 0) depth0.push(i);
    if (t.type === 'LParen' || t.type === 'LBrace' || t.type === 'LBracket') depth++;
  }
  const breakAt = (i: number, level: number): void => {
    if (i > first) layout.breaks.set(i, base + level);
  };
  /** Breaks before clause keywords at depth 0, and before AND of WHERE/IF conditions (and WITH options). */
  const clauses = (words: Record<string, number>, andLevels: Record<string, number>): void => {
    let clause = '';
    let betweenPending = false;
    for (const i of depth0) {
      if (!isKeywordAt(i)) continue;
      const w = upper(tokens[i]);
      if (w === 'BETWEEN') betweenPending = true;
      if (w === 'AND') {
        if (betweenPending) {
          betweenPending = false;
          continue;
        }
        const level = andLevels[clause];
        if (level !== undefined) breakAt(i, level);
        continue;
      }
      // `IF NOT EXISTS` / `IF EXISTS` right after the name is not a condition clause... unless it ends the statement.
      if (w in words) {
        if (w === 'IF' && statement.kind === 'Insert') {
          breakAt(i, words[w]);
          clause = w;
          continue;
        }
        if ((w === 'GROUP' || w === 'ORDER') && upper(tokens[nextSig(tokens, i)]) !== 'BY') continue;
        if (w === 'PER' && upper(tokens[nextSig(tokens, i)]) !== 'PARTITION') continue;
        if (w === 'LIMIT' && upper(tokens[prevSig(tokens, i)]) === 'PARTITION') continue;
        breakAt(i, words[w]);
        clause = w;
      }
    }
  };

  switch (statement.kind) {
    case 'Select':
      clauses({ FROM: 0, WHERE: 0, GROUP: 0, ORDER: 0, PER: 0, LIMIT: 0, ALLOW: 0, BYPASS: 0, USING: 0 }, { WHERE: 1 });
      break;
    case 'Insert':
      clauses({ VALUES: 0, IF: 0, USING: 0 }, {});
      break;
    case 'Update': {
      clauses({ USING: 0, SET: 0, WHERE: 0, IF: 0 }, { WHERE: 1, IF: 1 });
      break;
    }
    case 'Delete':
      clauses({ USING: 0, WHERE: 0, IF: 0 }, { WHERE: 1, IF: 1 });
      break;
    case 'CreateMaterializedView':
      clauses({ SELECT: 1, FROM: 1, WHERE: 1, PRIMARY: 1, WITH: 1 }, { WHERE: 2, WITH: 2 });
      break;
    case 'CreateTable':
      bodyLayout(
        tokens,
        facts,
        statement.bodyRange?.start,
        base,
        layout,
        indentWidth,
        statement.columns.map((c) => c.name.range.start),
      );
      // `) WITH ...`: WITH stays on the closing line; ANDs of the options break.
      withAnds(tokens, depth0, isKeywordAt, base + 1, layout);
      break;
    case 'CreateType': {
      const open = tokens.findIndex((t, i) => i >= first && t.type === 'LParen');
      bodyLayout(
        tokens,
        facts,
        open >= 0 ? tokens[open].start : undefined,
        base,
        layout,
        indentWidth,
        statement.fields.map((f) => f.name.range.start),
      );
      break;
    }
    case 'CreateKeyspace':
    case 'AlterKeyspace':
    case 'AlterTable':
    case 'AlterMaterializedView':
    case 'CreateIndex':
      withAnds(tokens, depth0, isKeywordAt, base + 1, layout);
      break;
    case 'CreateFunction':
      clauses({ CALLED: 1, RETURNS: 1, LANGUAGE: 1, AS: 1 }, {});
      break;
    case 'CreateAggregate':
      clauses({ SFUNC: 1, STYPE: 1, FINALFUNC: 1, INITCOND: 1 }, {});
      break;
    case 'Batch': {
      for (const inner of statement.statements) {
        const i = tokens.findIndex((t) => t.start === inner.range.start);
        if (i >= 0) breakAt(i, 1);
        layoutStatement(inner, tokens, facts, base + 1, layout, indentWidth);
      }
      const apply = lastIndex(tokens, (t) => upper(t) === 'APPLY' && t.start < statement.range.end);
      if (apply > first) breakAt(apply, 0);
      break;
    }
    default:
      break;
  }
}

/** Breaks before each AND that follows a depth-0 WITH (table/keyspace/index options). */
function withAnds(
  tokens: EditorToken[],
  depth0: number[],
  isKeywordAt: (i: number) => boolean,
  level: number,
  layout: Layout,
): void {
  let inWith = false;
  for (const i of depth0) {
    if (!isKeywordAt(i)) continue;
    const w = upper(tokens[i]);
    if (w === 'WITH') inWith = true;
    else if (w === 'AND' && inWith) layout.breaks.set(i, level);
  }
}

/** `( col type, ..., PRIMARY KEY (...) )`: one element per line, types aligned, `)` on its own line. */
function bodyLayout(
  tokens: EditorToken[],
  facts: Facts,
  openOffset: number | undefined,
  base: number,
  layout: Layout,
  indentWidth: number,
  nameOffsets: number[],
): void {
  if (openOffset === undefined) return;
  const open = tokens.findIndex((t) => t.start === openOffset && t.type === 'LParen');
  if (open < 0) return;
  let depth = 0;
  let close = -1;
  const starts: number[] = [];
  let expectStart = true;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.category === 'comment') continue;
    if (t.type === 'LParen' || t.type === 'LBrace' || t.type === 'LBracket' || (t.type === 'Lt' && depth >= 1)) {
      depth++;
      if (depth === 1) continue;
    } else if (t.type === 'RParen' || t.type === 'RBrace' || t.type === 'RBracket' || (t.type === 'Gt' && depth > 1)) {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    }
    if (depth === 1) {
      if (t.type === 'Comma') {
        expectStart = true;
        continue;
      }
      if (expectStart) {
        starts.push(i);
        expectStart = false;
      }
    }
  }
  if (close < 0 || starts.length === 0) return;
  for (const i of starts) layout.breaks.set(i, base + 1);
  layout.breaks.set(close, base);
  // Align the types of column definitions.
  const nameIdx = starts.filter((i) => nameOffsets.includes(tokens[i].start));
  const width = Math.max(...nameIdx.map((i) => tokens[i].image.length));
  for (const i of nameIdx) {
    const typeIdx = nextSig(tokens, i);
    if (typeIdx > i && typeIdx === i + 1) layout.pads.set(typeIdx, (base + 1) * indentWidth + width + 1);
  }
  void facts;
}

export function nextSig(tokens: EditorToken[], i: number): number {
  for (let j = i + 1; j < tokens.length; j++) if (tokens[j].category !== 'comment') return j;
  return -1;
}

function prevSig(tokens: EditorToken[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (tokens[j].category !== 'comment') return j;
  return -1;
}

function lastIndex<T>(list: readonly T[], fn: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (fn(list[i])) return i;
  return -1;
}
