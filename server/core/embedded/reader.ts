// Finds the CQL statements of one parsed host file, the same way for every language (the language's own shapes
// come from its LanguageSupport): from each literal that starts like a CQL statement, up to the largest constant
// expression it is part of (a concatenation, a format call), then where that value goes: a driver call or
// annotation (an anchored statement), a constant or a local variable (followed to its uses), or nowhere (a
// statement only when it parses as one complete CQL statement, in a file that uses no other SQL database).
//
// Everything is iterative or depth-bounded (a 10,000-deep concatenation must not overflow the stack), and only the
// nodes around the literals that matter are visited: the keyword hits are found in the text, not by walking the
// tree.
import type { Anchor, Context, Declaration, FileFacts, FormatStyle, LanguageSupport, Node } from './syntax';
import { nodeAt, parentOf } from './nodes';
import { type Part, ValueBuilder, plainText, rewriteMatches } from './value';

/** A literal whose content starts like a CQL statement (after a quote, white space, a Kotlin margin `|`). */
export const STATEMENT_START =
  /["'`|]\s*(select|insert|update|delete|begin|create|alter|drop|truncate|grant|revoke|list|use(?!\s+(?:strict|client|server)\b))(?![\w$])/gi;

/** At most this many keyword hits are followed in one file (a generated file of literals stays bounded). */
export const MAX_HITS = 20_000;
/** How deep constants, format calls and interpolations are followed inside each other. */
const MAX_DEPTH = 12;
/** At most this many uses of one name are followed. */
const MAX_USES = 2_000;

export interface FoundStatement {
  /** The expression whose value is the statement. */
  expr: Node;
  parts: Part[];
  anchors: Anchor[];
  /** Writes CQL `?` and `%` the way the driver's parameters read them, when the text uses them. */
  encodeParameters?: (text: string) => string;
}

export interface FoundKeyspace {
  /** The name as written in the code. */
  name: string;
  /** The name is CQL syntax (`withKeyspace(String)` reads it as CQL: unquoted folds to lower case). */
  cqlName: boolean;
  /** Host range of the literal. */
  start: number;
  end: number;
  /** Host offset of the call, for ordering. */
  at: number;
  via: string;
}

const key = (node: Node): string => `${node.startIndex}:${node.endIndex}:${node.typeId}`;

const nameBoundary = (name: string): RegExp => new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`, 'g');

export class Reader {
  private readonly valueCache = new Map<string, Part[] | undefined>();
  private readonly resolving = new Set<string>();
  private readonly namePositions = new Map<string, number[]>();
  /** The declarations of each name, found once: resolve() is asked for a name at each of its uses. */
  private readonly declarations = new Map<string, Declaration[]>();
  /** assignedOnce and usesOf by a declaration's name offset: each scans its scope. */
  private readonly assignedOnceCache = new Map<number, boolean>();
  private readonly usesCache = new Map<number, Node[]>();
  private depth = 0;

  constructor(
    private readonly support: LanguageSupport,
    private readonly src: string,
    private readonly root: Node,
    readonly facts: FileFacts,
  ) {}

  // ------------------------------------------------------------------------------------------------
  // Statements

  statements(unanchored: (text: string) => boolean): FoundStatement[] {
    const { support, src, root } = this;
    const candidates: Node[] = [];
    const seenLiteral = new Set<string>();
    STATEMENT_START.lastIndex = 0;
    let hits = 0;
    for (let m = STATEMENT_START.exec(src); m && hits < MAX_HITS; m = STATEMENT_START.exec(src), hits++) {
      const at = STATEMENT_START.lastIndex - m[1]!.length;
      const node = nodeAt(root, at, at + 1);
      const literal = node && support.literalAt(node);
      if (!literal || seenLiteral.has(key(literal))) continue;
      seenLiteral.add(key(literal));
      if (this.insideError(literal)) continue;
      candidates.push(this.rootOf(literal));
    }
    const found = new Map<string, FoundStatement>();
    const fragments = new Set<string>();
    const done = new Set<string>();
    for (let i = 0; i < candidates.length; i++) {
      const expr = candidates[i]!;
      const k = key(expr);
      if (done.has(k)) continue;
      done.add(k);
      const reach = this.reach(expr, candidates, fragments);
      if (reach.statementOnly) continue;
      const parts = this.evaluate(expr);
      if (!parts || !parts.some((p) => p.kind === 'text')) continue;
      if (reach.anchors.length > 0) {
        found.set(k, { expr, ...this.withParameters(parts, reach.anchors), anchors: reach.anchors });
      } else if (!reach.silenced && !this.facts.otherSql) {
        const text = plainText(parts);
        if (text !== undefined && unanchored(text)) found.set(k, { expr, parts, anchors: [] });
      }
    }
    // A constant used only as a part of larger statements is not a statement of its own.
    for (const k of fragments) if (found.get(k)?.anchors.length === 0) found.delete(k);
    return [...found.values()].sort((a, b) => a.expr.startIndex - b.expr.startIndex);
  }

  /**
   * A literal tree-sitter could not read whole (an unterminated string), or one lying loose in an error. Code
   * around an error often parses fine inside it (a method intact in a class the error swallowed): that is read.
   */
  private insideError(node: Node): boolean {
    if (!this.root.hasError) return false;
    return node.hasError || node.isMissing || parentOf(node)?.isError === true;
  }

  /** The largest constant expression `node` is an operand of (a concatenation, a parenthesis, a format call). */
  rootOf(node: Node): Node {
    let current = node;
    climbing: for (;;) {
      // A format call holds its arguments inside an argument list (and a C# argument), a Kotlin `.trimIndent()`
      // its literal inside a navigation: up to three levels.
      let ancestor = parentOf(current);
      for (let level = 0; ancestor && level < 3; level++, ancestor = parentOf(ancestor)) {
        const e = this.support.classify(ancestor);
        const id = key(current);
        const inside =
          level === 0 &&
          ((e.kind === 'concat' && e.operands.some((o) => key(o) === id)) ||
            (e.kind === 'paren' && key(e.inner) === id));
        // A format call's template or argument, a literal under `.trimIndent()`.
        if (
          inside ||
          (e.kind === 'format' && (key(e.template) === id || e.args.some((a) => key(a) === id))) ||
          (e.kind === 'literal' && e.mode !== undefined && key(e.node) === id)
        ) {
          current = ancestor;
          continue climbing;
        }
      }
      return current;
    }
  }

  /** The anchors an expression's value reaches, following constants and variables to their uses. */
  private reach(
    expr: Node,
    candidates: Node[],
    fragments: Set<string>,
  ): { anchors: Anchor[]; silenced: boolean; statementOnly: boolean } {
    const anchors: Anchor[] = [];
    let silenced = false;
    let statementOnly = false;
    const stack: { node: Node; depth: number }[] = [{ node: expr, depth: 0 }];
    const visited = new Set<string>();
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      if (visited.has(key(node)) || depth > 4) continue;
      visited.add(key(node));
      const context = this.support.contextOf(node);
      if (context.kind === 'statement') {
        if (depth === 0) statementOnly = true;
      } else if (context.kind === 'declaration') {
        const uses = this.usesOf(context.declaration);
        for (const use of uses) {
          const useRoot = this.rootOf(use);
          if (key(useRoot) === key(use)) {
            stack.push({ node: use, depth: depth + 1 });
          } else {
            candidates.push(useRoot);
            fragments.add(key(expr));
          }
        }
      } else if (context.kind !== 'other') {
        const verdict = this.support.anchorOf(context, this.facts);
        if (verdict === 'sql') silenced = true;
        else if (verdict && !anchors.some((a) => key(a.node) === key(verdict.node))) anchors.push(verdict);
      }
    }
    anchors.sort((a, b) => a.node.startIndex - b.node.startIndex);
    return { anchors, silenced, statementOnly };
  }

  /** The uses of a declared name: anywhere in the file for a constant, after it in its function for a local. */
  private usesOf(declaration: Declaration): Node[] {
    let uses = this.usesCache.get(declaration.nameStart);
    if (!uses) {
      uses = this.findUses(declaration);
      this.usesCache.set(declaration.nameStart, uses);
    }
    return uses;
  }

  private findUses(declaration: Declaration): Node[] {
    if (declaration.reassignable && !this.assignedOnce(declaration)) return [];
    const uses: Node[] = [];
    const from = declaration.constant ? declaration.scope.startIndex : declaration.value.endIndex;
    for (const at of this.positionsOf(declaration.name)) {
      if (at < from || at >= declaration.scope.endIndex || at === declaration.nameStart) continue;
      const node = nodeAt(this.root, at, at + declaration.name.length);
      const use = node && this.support.nameUse(node);
      if (use) uses.push(use);
      if (uses.length >= MAX_USES) break;
    }
    return uses;
  }

  /** A variable that may be assigned again: its value is known only when it is assigned once, where declared. */
  private assignedOnce(declaration: Declaration): boolean {
    let once = this.assignedOnceCache.get(declaration.nameStart);
    if (once === undefined) {
      once = this.scanAssignments(declaration);
      this.assignedOnceCache.set(declaration.nameStart, once);
    }
    return once;
  }

  private scanAssignments(declaration: Declaration): boolean {
    const text = this.src.slice(declaration.scope.startIndex, declaration.scope.endIndex);
    const name = declaration.name.replace(/[$]/g, '\\$');
    const assignment = new RegExp(
      `(?<![\\w$.])${name}\\s*(?:[-+*/%|&^]?=|:=|\\+\\+|--)(?!=)|(?:\\+\\+|--)${name}(?![\\w$])`,
      'g',
    );
    let count = 0;
    for (const m of text.matchAll(assignment)) {
      if (declaration.scope.startIndex + m.index !== declaration.nameStart) count++;
      if (count > 0) return false;
    }
    return true;
  }

  private positionsOf(name: string): number[] {
    let positions = this.namePositions.get(name);
    if (!positions) {
      positions = [];
      for (const m of this.src.matchAll(nameBoundary(name))) positions.push(m.index);
      this.namePositions.set(name, positions);
    }
    return positions;
  }

  // ------------------------------------------------------------------------------------------------
  // Values

  /** The value of an expression: its literals decoded, everything else a hole; undefined past the depth bound. */
  evaluate(expr: Node): Part[] | undefined {
    const k = key(expr);
    if (this.valueCache.has(k)) return this.valueCache.get(k);
    if (this.depth >= MAX_DEPTH) return undefined;
    this.depth++;
    try {
      const value = this.evaluateNow(expr);
      this.valueCache.set(k, value);
      return value;
    } finally {
      this.depth--;
    }
  }

  private evaluateNow(expr: Node): Part[] {
    const out = new ValueBuilder();
    const stack: Node[] = [expr];
    const constantOnly = (node: Node): Part[] | undefined => {
      const value = this.evaluate(node);
      return value && value.every((p) => p.kind === 'text') ? value : undefined;
    };
    while (stack.length > 0) {
      const node = stack.pop()!;
      const e = this.support.classify(node);
      switch (e.kind) {
        case 'literal': {
          const parts = this.support.decodeLiteral(e.node, this.src, e.mode, constantOnly, (name, at) =>
            this.resolve(name, at),
          );
          if (parts) out.append(parts);
          else out.hole(node.startIndex, node.endIndex);
          break;
        }
        case 'concat':
          for (let i = e.operands.length - 1; i >= 0; i--) stack.push(e.operands[i]!);
          break;
        case 'paren':
          stack.push(e.inner);
          break;
        case 'name': {
          const value = this.resolve(e.name, node.startIndex);
          if (value) out.append(value);
          else out.hole(node.startIndex, node.endIndex);
          break;
        }
        case 'format': {
          const template = this.evaluate(e.template);
          if (template) out.append(this.formatted(template, e.style, e.args, e.named ?? new Map(), constantOnly));
          else out.hole(node.startIndex, node.endIndex);
          break;
        }
        default:
          out.hole(node.startIndex, node.endIndex);
      }
    }
    return out.parts;
  }

  /** The value of a name at a node: a local assigned once before it in its function, else a constant of the file. */
  private resolve(name: string, at: number): Part[] | undefined {
    let best: Declaration | undefined;
    for (const declaration of this.declarationsOf(name)) {
      if (declaration.constant) {
        if (!best && (!declaration.reassignable || this.assignedOnce(declaration))) best = declaration;
      } else if (
        declaration.scope.startIndex <= at &&
        at < declaration.scope.endIndex &&
        declaration.value.endIndex <= at &&
        this.assignedOnce(declaration)
      ) {
        if (!best || best.constant || best.nameStart < declaration.nameStart) best = declaration;
      }
    }
    if (!best) return undefined;
    const k = key(best.value);
    if (this.resolving.has(k)) return undefined;
    this.resolving.add(k);
    try {
      // A variable whose value is not a constant of literals stays a hole where it is used.
      const value = this.evaluate(best.value);
      return value?.some((p) => p.kind === 'text') ? value : undefined;
    } finally {
      this.resolving.delete(k);
    }
  }

  /** Where `name` is declared in the file (constants and locals), in the order of the text. */
  private declarationsOf(name: string): Declaration[] {
    let found = this.declarations.get(name);
    if (!found) {
      found = [];
      for (const position of this.positionsOf(name)) {
        const node = nodeAt(this.root, position, position + name.length);
        const declaration = node && this.support.declarationAt(node);
        if (declaration && declaration.name === name) found.push(declaration);
      }
      this.declarations.set(name, found);
    }
    return found;
  }

  /** A format call's value: the template with each specifier replaced by its argument's value, or a hole. */
  private formatted(
    template: Part[],
    style: FormatStyle,
    args: Node[],
    named: Map<string, Node>,
    constantOnly: (node: Node) => Part[] | undefined,
  ): Part[] {
    let next = 0;
    const argument = (node: Node | undefined): { parts: readonly Part[] } | { hole: true } => {
      const value = node && constantOnly(node);
      return value ? { parts: value } : { hole: true };
    };
    const pattern = FORMAT_SPECIFIERS[style];
    // Text written into the template later must not read as a specifier: `%` as `%%`, `{` as `{{`.
    const escape =
      style === 'printf' || style === 'python-percent'
        ? (t: string) => t.replace(/%/g, '%%')
        : (t: string) => t.replace(/[{}]/g, '$&$&');
    const inTemplate = template.map((p): Part =>
      p.kind === 'text'
        ? {
            ...p,
            literal: { start: p.literal.start, end: p.literal.end, encode: (t, at) => p.literal.encode(escape(t), at) },
          }
        : p,
    );
    return rewriteMatches(inTemplate, pattern, (m) => {
      const spec = m[0];
      if (spec === '%%' || spec === '{{' || spec === '}}') return { text: spec[0]! };
      if (style === 'printf' && spec === '%n') return { text: '\n' };
      const index = m[1];
      if (index !== undefined && index !== '') {
        if (/^\d+$/.test(index)) return argument(args[Number(index) - (style === 'printf' ? 1 : 0)]);
        return argument(named.get(index));
      }
      return argument(args[next++]);
    });
  }

  /** The statement's text as the driver reads it: Python's `%s`, Spring's `?0`, the mapper's `${tableId}`. */
  private withParameters(
    parts: Part[],
    anchors: readonly Anchor[],
  ): { parts: Part[]; encodeParameters?: (text: string) => string } {
    let out = parts;
    let encodeParameters: ((text: string) => string) | undefined;
    const text = () => out.map((p) => (p.kind === 'text' ? p.text : '')).join('');
    if (anchors.some((a) => a.params === 'python') && /%s|%\(\w+\)s/.test(text())) {
      out = rewriteMatches(out, /%(?:%|s|\((\w+)\)s)/g, (m) => ({
        text: m[0] === '%%' ? '%' : m[0] === '%s' ? '?' : `:${m[1]}`,
      }));
      encodeParameters = (t) => outsideQuotes(t.replace(/%/g, '%%'), (c) => (c === '?' ? '%s' : c));
    }
    if (anchors.some((a) => a.params === 'spring')) {
      const indexes = [...text().matchAll(/\?(\d+)/g)].map((m) => Number(m[1]));
      if (indexes.length > 0) {
        let next = Math.max(...indexes) + 1;
        encodeParameters = (t) => outsideQuotes(t, (c) => (c === '?' ? `?${next++}` : c));
      }
      out = rewriteMatches(out, /[?:]#\{[^}]*\}|\?\d+/g, (m) => (m[0].includes('#') ? { hole: true } : { text: '?' }));
    }
    if (anchors.some((a) => a.params === 'mapper')) out = rewriteMatches(out, /\$\{\w+\}/g, () => ({ hole: true }));
    return encodeParameters ? { parts: out, encodeParameters } : { parts: out };
  }

  // ------------------------------------------------------------------------------------------------
  // Session keyspaces

  keyspaces(): FoundKeyspace[] {
    const out: FoundKeyspace[] = [];
    const words = new RegExp(this.support.keyspaceWords.source, 'g');
    for (const m of this.src.matchAll(words)) {
      const node = nodeAt(this.root, m.index, m.index + m[0].length);
      const found = node && this.support.keyspaceAt(node, this.facts);
      if (!found || this.insideError(found.expr)) continue;
      const parts = this.evaluate(found.expr);
      const name = parts && plainText(parts);
      const first = parts?.[0];
      if (!name || !first || first.kind !== 'text' || parts!.length !== 1) continue;
      if (!(found.cqlName ? /^(?:[A-Za-z0-9_]+|"(?:[^"]|"")+")$/ : /^[A-Za-z0-9_]+$/).test(name)) continue;
      const via = this.src.slice(found.via.startIndex, found.via.endIndex).replace(/\s+/g, ' ');
      out.push({
        name,
        cqlName: !!found.cqlName,
        start: first.literal.start,
        end: first.literal.end,
        at: found.via.startIndex,
        via: via.length > 60 ? `${via.slice(0, 57)}...` : via,
      });
    }
    return out.sort((a, b) => a.at - b.at);
  }
}

/** Rewrites the characters of `text` outside CQL quotes (a `?` inside `'...'` is not a marker). */
function outsideQuotes(text: string, rewrite: (c: string) => string): string {
  let out = '';
  let quote: string | undefined;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = undefined;
      out += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else {
      out += rewrite(c);
    }
  }
  return out;
}

/** Format specifiers: group 1 is an explicit argument index or name. */
const FORMAT_SPECIFIERS: Record<FormatStyle, RegExp> = {
  printf: /%%|%n|%(?:(\d+)\$)?[-#+ 0,(<]*\d*(?:\.\d+)?[a-zA-Z]/g,
  'python-percent': /%%|%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]/g,
  'python-format': /\{\{|\}\}|\{(\w*)(?:![rsa])?(?::[^{}]*)?\}/g,
  csharp: /\{\{|\}\}|\{(\d+)(?:,[^}:]*)?(?::[^}]*)?\}/g,
};

export type { Context };
