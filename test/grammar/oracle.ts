// The grammar-driven oracle (issue 36): the reader (the fast path, grammar/syntax/*'s reader classes) must accept a
// statement exactly when the Chevrotain rules accept it, and give it the very AST the rules' actions give it: the
// same fields in the same order, the same values and ranges, the same range objects shared between the same
// nodes. Where the reader leaves a form to the parser it says so (LeftToParser), and nothing is required of it.
//
// The statements come from the grammar itself: a bounded random walk over its productions (Chevrotain's serialised
// GAST, public API), and near-misses of each (two clauses swapped, a clause deleted or doubled, a keyword swapped
// for another), so that a clause the reader reads in the wrong place, or a word it makes optional, shows up as a
// statement one side accepts and the other rejects. `loadGrammar` loads any copy of grammar/, so a test can plant
// a slip in a copy and check that the oracle catches it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { IToken, TokenType } from '../../grammar/chevrotain';
import type * as LexerModule from '../../grammar/lexer';
import type * as ChunksModule from '../../grammar/chunks';
import type * as ParserModule from '../../grammar/parser';
import type * as NodesModule from '../../grammar/nodes';
import { mulberry32 } from '../helpers/random';

/** The modules of one copy of grammar/ (the project's, or one with a slip planted). */
export interface Grammar {
  lexer: typeof LexerModule;
  chunks: typeof ChunksModule;
  parser: typeof ParserModule;
  nodes: typeof NodesModule;
}

export function loadGrammar(dir: string): Grammar {
  return {
    lexer: require(join(dir, 'lexer')) as typeof LexerModule,
    chunks: require(join(dir, 'chunks')) as typeof ChunksModule,
    parser: require(join(dir, 'parser')) as typeof ParserModule,
    nodes: require(join(dir, 'nodes')) as typeof NodesModule,
  };
}

// ---------------------------------------------------------------------------------------------
// Comparing the two readings

/** Where two ASTs differ (fields and their order, values, and which nodes share an object), or undefined. */
export function difference(
  a: unknown,
  b: unknown,
  path = 'statement',
  seenA = new Map<object, object>(),
  seenB = new Map<object, object>(),
): string | undefined {
  if (typeof a !== typeof b) return `${path}: ${typeof a} vs ${typeof b}`;
  if (a === null || typeof a !== 'object')
    return Object.is(a, b) ? undefined : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  if (seenA.has(x) || seenB.has(y))
    return seenA.get(x) === y && seenB.get(y) === x ? undefined : `${path}: shared differently`;
  seenA.set(x, y);
  seenB.set(y, x);
  if (Array.isArray(x) !== Array.isArray(y)) return `${path}: array vs object`;
  const keysA = Object.keys(x).join();
  const keysB = Object.keys(y).join();
  if (keysA !== keysB) return `${path}: fields ${keysA} vs ${keysB}`;
  for (const key of Object.keys(x)) {
    const d = difference(x[key], y[key], `${path}.${key}`, seenA, seenB);
    if (d) return d;
  }
  return undefined;
}

/** How the statements checked so far went. */
export interface Tally {
  /** Both readings accepted, with the same AST. */
  read: number;
  /** The rules accepted a form the reader leaves to them. */
  left: number;
  /** Both rejected. */
  rejected: number;
  disagreements: string[];
}

export function newTally(): Tally {
  return { read: 0, left: 0, rejected: 0, disagreements: [] };
}

/** Fails with the first disagreements, if any. */
export function assertAgree(tally: Tally, what: string): void {
  assert.deepEqual(tally.disagreements.slice(0, 10), [], `${tally.disagreements.length} disagreements in ${what}`);
}

/** Every statement chunk of `text` (cqlsh commands aside), each checked on tokens of its own for each reading. */
export function checkText(g: Grammar, text: string, tally: Tally): void {
  const { tokens } = g.lexer.lexCql(text);
  for (const [start, end] of g.chunks.chunkTokens(tokens)) {
    if (g.chunks.isShellWord(tokens[start]!)) continue;
    const source = text.slice(tokens[start]!.startOffset, tokens[end - 1]!.endOffset! + 1);
    checkStatement(g, source, tally);
  }
}

function checkStatement(g: Grammar, source: string, tally: Tally): void {
  const fresh = (): IToken[] => g.lexer.lexCql(source).tokens;
  const parser = g.parser.getParser();
  const parserTokens = fresh();
  parser.input = parserTokens;
  const parsed = g.nodes.withSharedStrings(() => parser.cqlStatement());
  const accepted = parser.errors.length === 0;
  let verdict: ReturnType<Grammar['parser']['readVerdict']>;
  try {
    verdict = g.nodes.withSharedStrings(() => g.parser.readVerdict(fresh()));
  } catch (e) {
    tally.disagreements.push(`the reader failed (${(e as Error).message}) on ${JSON.stringify(source)}`);
    return;
  }
  if ('statement' in verdict) {
    if (!accepted) tally.disagreements.push(`the reader accepts what the rules reject: ${JSON.stringify(source)}`);
    else {
      const d = difference(verdict.statement, parsed);
      if (d) tally.disagreements.push(`the readings give different ASTs (${d}): ${JSON.stringify(source)}`);
      else tally.read++;
    }
  } else if ('rejected' in verdict) {
    if (accepted) tally.disagreements.push(`the rules accept what the reader rejects: ${JSON.stringify(source)}`);
    else tally.rejected++;
  } else if (accepted) tally.left++;
  else tally.rejected++;
}

// ---------------------------------------------------------------------------------------------
// Statements from the grammar

/** A production of Chevrotain's serialised GAST (the fields the walk reads). */
interface Production {
  type: string;
  name?: string;
  definition?: Production[];
}

/** What a walk made: token images, and the span of each production it took (a clause is a span). */
interface Span {
  start: number;
  end: number;
  children: Span[];
  /** The image of a single token, for keyword swaps. */
  image?: string;
}

interface Generated {
  images: string[];
  root: Span;
}

const NAMES = [
  'a',
  'b',
  'c',
  't',
  'ks',
  'v1',
  'cqlint_hole_1',
  '"Quoted"',
  'key',
  'type',
  'ttl',
  'values',
  'json',
  'filtering',
  'all',
  'role',
];
const NON_TYPE_NAMES = ['a', 't', 'address', '"Quoted"', 'key', 'type'];
const STRINGS = ["'s'", "'it''s'", '$$b$$'];
const NUMBERS = ['1', '2.5', '1e3', '1h30m', 'NaN', 'Infinity'];
const LITERALS: Record<string, string[]> = {
  Ident: NAMES,
  NonTypeIdent: NON_TYPE_NAMES,
  Identifier: ['a', 'b', 'cqlint_hole_1'],
  QuotedName: ['"Quoted"'],
  EmptyQuotedName: ['""'],
  StringLiteral: STRINGS,
  NumberLit: NUMBERS,
  IntegerLiteral: ['1', '42'],
  FloatLiteral: ['2.5'],
  DurationLiteral: ['1h30m'],
  UuidLiteral: ['123e4567-e89b-12d3-a456-426614174000'],
  HexLiteral: ['0xff'],
  BooleanLiteral: ['true', 'false'],
  NanLiteral: ['NaN'],
  InfinityLiteral: ['Infinity'],
  PermissionKw: ['SELECT', 'MODIFY', 'ALTER', 'DESCRIBE', 'EXECUTE', 'UNMASK'],
};

/** The walk's limits: past them it takes the shortest way out of every production. */
const MAX_DEPTH = 14;
const MAX_TOKENS = 120;
/** Rule depth of a statement's clauses: they are taken more often than what nests inside them. */
const CLAUSE_DEPTH = 2;

class Walker {
  private readonly rules = new Map<string, Production[]>();
  private readonly minimal = new Map<Production, number>();
  private readonly images = new Map<string, string[]>();
  /** How often each alternative and option was taken: the walk prefers what it took least (every clause early). */
  private readonly taken = new Map<Production, number>();
  readonly keywords: string[] = [];

  constructor(g: Grammar) {
    for (const rule of g.parser.getParser().getSerializedGastProductions() as Production[])
      this.rules.set(rule.name!, rule.definition!);
    for (const [word, type] of Object.entries(g.lexer.keywordTokens)) {
      this.images.set(type.name, [word]);
      this.keywords.push(word);
    }
    for (const type of g.lexer.allTokenTypes as TokenType[]) {
      if (typeof type.PATTERN === 'string') this.images.set(type.name, [type.PATTERN]);
    }
    for (const [name, values] of Object.entries(LITERALS)) this.images.set(name, values);
    this.images.set('NativeTypeKw', [...g.lexer.NATIVE_TYPE_NAMES]);
    // The shortest expansion of every rule, by fixed point.
    const ruleMin = new Map<string, number>();
    for (let changed = true; changed;) {
      changed = false;
      for (const [name, definition] of this.rules) {
        const length = this.sequenceMin(definition, ruleMin);
        if (length < (ruleMin.get(name) ?? Infinity)) {
          ruleMin.set(name, length);
          changed = true;
        }
      }
    }
    for (const definition of this.rules.values()) this.sequenceMin(definition, ruleMin);
  }

  private sequenceMin(definition: Production[], ruleMin: Map<string, number>): number {
    let sum = 0;
    for (const p of definition) sum += this.productionMin(p, ruleMin);
    return sum;
  }

  private productionMin(p: Production, ruleMin: Map<string, number>): number {
    let length: number;
    if (p.type === 'Terminal') length = 1;
    else if (p.type === 'NonTerminal') length = ruleMin.get(p.name!) ?? Infinity;
    else if (p.type === 'Option' || p.type === 'Repetition') length = 0;
    else if (p.type === 'Alternation')
      length = Math.min(...p.definition!.map((alt) => this.sequenceMin(alt.definition!, ruleMin)));
    else length = this.sequenceMin(p.definition!, ruleMin);
    this.minimal.set(p, length);
    return length;
  }

  generate(random: () => number, start = 'cqlStatement'): Generated {
    const images: string[] = [];
    const root: Span = { start: 0, end: 0, children: [] };
    this.sequence(this.rules.get(start)!, images, root, 0, random);
    root.end = images.length;
    return { images, root };
  }

  private sequence(definition: Production[], out: string[], parent: Span, depth: number, random: () => number): void {
    for (const p of definition) this.production(p, out, parent, depth, random);
  }

  private production(p: Production, out: string[], parent: Span, depth: number, random: () => number): void {
    const short = depth > MAX_DEPTH || out.length > MAX_TOKENS;
    switch (p.type) {
      case 'Terminal': {
        const choices = this.images.get(p.name!);
        if (!choices) throw new Error(`the oracle has no image for token ${p.name}`);
        const image = choices[Math.floor(random() * choices.length)]!;
        parent.children.push({ start: out.length, end: out.length + 1, children: [], image });
        out.push(image);
        return;
      }
      case 'NonTerminal': {
        const span: Span = { start: out.length, end: 0, children: [] };
        this.sequence(this.rules.get(p.name!)!, out, span, depth + 1, random);
        span.end = out.length;
        parent.children.push(span);
        return;
      }
      case 'Option': {
        const rare = (this.taken.get(p) ?? 0) < 3;
        if (!short && random() < (rare ? 0.9 : depth <= CLAUSE_DEPTH ? 0.7 : 0.35)) {
          this.taken.set(p, (this.taken.get(p) ?? 0) + 1);
          this.inSpan(p.definition!, out, parent, depth, random);
        }
        return;
      }
      case 'Repetition':
      case 'RepetitionMandatory': {
        const least = p.type === 'Repetition' ? 0 : 1;
        const more = short ? 0 : depth <= CLAUSE_DEPTH ? Math.floor(random() * 3) : random() < 0.3 ? 1 : 0;
        for (let i = 0; i < least + more; i++) this.inSpan(p.definition!, out, parent, depth, random);
        return;
      }
      case 'Alternation': {
        const alternatives = p.definition!;
        let chosen: Production;
        // Deep inside a statement, the short ways half of the time: expressions and types stay small.
        if (short || (depth > 2 * CLAUSE_DEPTH && random() < 0.5))
          chosen = alternatives.reduce((best, alt) =>
            this.sequenceLength(alt) < this.sequenceLength(best) ? alt : best,
          );
        else if (random() < 0.5)
          chosen = alternatives.reduce((least, alt) =>
            (this.taken.get(alt) ?? 0) < (this.taken.get(least) ?? 0) ? alt : least,
          );
        else chosen = alternatives[Math.floor(random() * alternatives.length)]!;
        this.taken.set(chosen, (this.taken.get(chosen) ?? 0) + 1);
        this.inSpan(chosen.definition!, out, parent, depth, random);
        return;
      }
      default:
        // The grammar has no separated repetitions (MANY_SEP, AT_LEAST_ONE_SEP): one would need its own walk.
        throw new Error(`the oracle cannot walk a ${p.type}`);
    }
  }

  private sequenceLength(alt: Production): number {
    let sum = 0;
    for (const p of alt.definition!) sum += this.minimal.get(p) ?? 0;
    return sum;
  }

  private inSpan(definition: Production[], out: string[], parent: Span, depth: number, random: () => number): void {
    const span: Span = { start: out.length, end: 0, children: [] };
    this.sequence(definition, out, span, depth, random);
    span.end = out.length;
    if (span.end > span.start) parent.children.push(span.children.length === 1 ? span.children[0]! : span);
  }
}

/** Every span with at least two children: a rule's clauses, which can be swapped. */
function spansWithClauses(root: Span, out: Span[] = []): Span[] {
  if (root.children.length >= 2) out.push(root);
  for (const child of root.children) spansWithClauses(child, out);
  return out;
}

/** Every single-token span (a word or a punctuation mark). */
function tokenSpans(root: Span, out: Span[] = []): Span[] {
  for (const child of root.children) {
    if (child.image !== undefined) out.push(child);
    else tokenSpans(child, out);
  }
  return out;
}

/** Two spans' tokens swapped (`first` before `second`). */
function swapped(images: string[], first: Span, second: Span): string[] {
  return [
    ...images.slice(0, first.start),
    ...images.slice(second.start, second.end),
    ...images.slice(first.end, second.start),
    ...images.slice(first.start, first.end),
    ...images.slice(second.end),
  ];
}

/**
 * The statements one edit away from a generated one, at most `limit` of them (a random choice when there are more):
 * each pair of neighbouring clauses swapped (the slip of a clause read in the wrong place), each clause left out or
 * doubled, each keyword left out (a word read as optional) or replaced by another.
 */
function nearMissesOf(
  { images, root }: Generated,
  keywords: readonly string[],
  limit: number,
  random: () => number,
): string[][] {
  const out: string[][] = [];
  for (const parent of spansWithClauses(root)) {
    const clauses = parent.children;
    for (let i = 0; i < clauses.length; i++) {
      const clause = clauses[i]!;
      if (i + 1 < clauses.length) out.push(swapped(images, clause, clauses[i + 1]!));
      if (clause.image !== undefined) continue;
      out.push([...images.slice(0, clause.start), ...images.slice(clause.end)]);
      out.push([
        ...images.slice(0, clause.end),
        ...images.slice(clause.start, clause.end),
        ...images.slice(clause.end),
      ]);
    }
  }
  for (const word of tokenSpans(root)) {
    if (!keywords.includes(word.image!)) continue;
    out.push([...images.slice(0, word.start), ...images.slice(word.end)]);
    out.push([
      ...images.slice(0, word.start),
      keywords[Math.floor(random() * keywords.length)]!,
      ...images.slice(word.end),
    ]);
  }
  // A random choice of `limit` (Fisher-Yates on the first `limit` places).
  for (let i = 0; i < Math.min(limit, out.length); i++) {
    const j = i + Math.floor(random() * (out.length - i));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, limit);
}

export interface OracleRun {
  generated: Tally;
  nearMisses: Tally;
}

/**
 * `statements` statements generated from the grammar with `seed`, and at most `nearMisses` near-misses of each, checked.
 * Stops at the first disagreement when `stopEarly` (a test that only needs to know whether there is one).
 */
export function runOracle(
  g: Grammar,
  seed: number,
  statements: number,
  nearMisses: number,
  stopEarly = false,
): OracleRun {
  const random = mulberry32(seed);
  const walker = new Walker(g);
  const run: OracleRun = { generated: newTally(), nearMisses: newTally() };
  for (let i = 0; i < statements; i++) {
    const statement = walker.generate(random);
    checkStatement(g, statement.images.join(' '), run.generated);
    for (const images of nearMissesOf(statement, walker.keywords, nearMisses, random)) {
      if (images.length) checkStatement(g, images.join(' '), run.nearMisses);
    }
    if (stopEarly && (run.generated.disagreements.length || run.nearMisses.disagreements.length)) break;
  }
  return run;
}
