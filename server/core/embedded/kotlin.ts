// Kotlin: strings and raw strings (`"""`, with `.trimIndent()` / `.trimMargin()`), templates (`$name`, `${...}`:
// a constant's value or a hole), `+` concatenation, `const val` and top-level or object `val`s, locals assigned
// once, `String.format` / `.format`, and the same JVM drivers, Spring Data Cassandra and mapper as Java.
import { backslashEscape, refuse } from './encode';
import { jvmAnchor, jvmFacts, lastSegment } from './drivers';
import { decodeLines } from './java';
import { climbTo, commonExpression, compactText, indexIn, namedChildren, parentOf, sameNode, treeRoot } from './nodes';
import type { CallShape, Context, Declaration, Evaluate, Expr, LanguageSupport, Node } from './syntax';
import {
  type EscapeReader,
  type HostLiteral,
  type Interpolation,
  type NameValue,
  type Part,
  ValueBuilder,
  decodeRange,
  indentWidth,
  isBlank,
  linesOf,
  readHex,
} from './value';

const KT_SIMPLE: Record<string, string> = {
  t: '\t',
  b: '\b',
  n: '\n',
  r: '\r',
  "'": "'",
  '"': '"',
  '\\': '\\',
  $: '$',
};

/** A `$name` template at `i`. */
function template(src: string, i: number, end: number): { name: string; length: number } | undefined {
  const m = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(src.slice(i, Math.min(end, i + 200)));
  return m ? { name: m[1]!, length: m[0].length } : undefined;
}

const ktEscape: EscapeReader = (src, i, end) => {
  if (src[i] === '$') return template(src, i, end);
  const c = src[i + 1];
  if (c === undefined || i + 1 >= end) return undefined;
  const simple = KT_SIMPLE[c];
  if (simple !== undefined) return { text: simple, length: 2 };
  const hex = c === 'u' ? readHex(src, i + 2, end, 4, 4) : undefined;
  return hex ? { text: String.fromCharCode(hex.value), length: 6 } : undefined;
};

const rawTemplates: EscapeReader = (src, i, end) => template(src, i, end);

type Lines = { keep?: [number, number]; breakAt?: [number, number] }[];

/** The lines `trimIndent()` / `trimMargin()` keep: blank first and last lines dropped, the indentation or margin cut. */
function trimmedLines(
  src: string,
  from: number,
  to: number,
  mode: 'trimIndent' | 'trimMargin',
): { lines: Lines; newline: string } {
  let raw = linesOf(src, from, to);
  const first = raw[0]!;
  if (raw.length > 1 && isBlank(src, first.start, first.end)) raw = raw.slice(1);
  const last = raw[raw.length - 1]!;
  if (raw.length > 1 && isBlank(src, last.start, last.end)) raw = raw.slice(0, -1);
  const model = raw.find((l) => !isBlank(src, l.start, l.end)) ?? raw[0]!;
  if (mode === 'trimIndent') {
    const width = Math.min(
      ...raw.filter((l) => !isBlank(src, l.start, l.end)).map((l) => indentWidth(src, l.start, l.end)),
      Infinity,
    );
    const cut = Number.isFinite(width) ? width : 0;
    return {
      lines: raw.map((l, i) => ({
        keep: [Math.min(l.start + cut, l.end), l.end],
        breakAt: i < raw.length - 1 ? [l.end, l.breakEnd] : undefined,
      })),
      newline: `\n${src.slice(model.start, model.start + cut)}`,
    };
  }
  const lines: Lines = raw.map((l, i) => {
    const margin = l.start + indentWidth(src, l.start, l.end);
    return {
      keep: [src[margin] === '|' ? margin + 1 : l.start, l.end],
      breakAt: i < raw.length - 1 ? [l.end, l.breakEnd] : undefined,
    };
  });
  return { lines, newline: `\n${src.slice(model.start, model.start + indentWidth(src, model.start, model.end))}|` };
}

function kotlinLiteral(
  node: Node,
  src: string,
  mode: 'trimIndent' | 'trimMargin' | undefined,
  evaluate: Evaluate,
  nameValue: NameValue,
): Part[] {
  const out = new ValueBuilder();
  const start = node.startIndex;
  const end = node.endIndex;
  const holes: Interpolation[] = [];
  for (const child of namedChildren(node)) {
    if (child.type !== 'interpolation') continue;
    const expression = namedChildren(child)[0];
    const value = expression && evaluate(expression);
    holes.push(
      value
        ? { start: child.startIndex, end: child.endIndex, parts: value }
        : { start: child.startIndex, end: child.endIndex },
    );
  }
  if (node.type === 'character_literal') {
    // `${'$'}`, how a raw string writes a dollar sign.
    const literal: HostLiteral = { start, end, encode: () => refuse('cannot write in a Kotlin character literal') };
    decodeRange(out, literal, src, start + 1, end - 1, (s, i, e) => (s[i] === '\\' ? ktEscape(s, i, e) : undefined));
    return out.parts;
  }
  if (node.type === 'multiline_string_literal') {
    const from = start + 3;
    const to = end - 3;
    const rawText = (text: string, newline: string): string | { refused: string } =>
      text.includes('"""')
        ? refuse('a Kotlin raw string cannot hold """')
        : text.replace(/\$/g, () => "${'$'}").replace(/\n/g, () => newline);
    if (mode) {
      const { lines, newline } = trimmedLines(src, from, to, mode);
      const literal: HostLiteral = { start, end, encode: (text) => rawText(text, newline) };
      decodeLines(out, literal, src, lines, rawTemplates, holes, '$', nameValue);
    } else {
      const literal: HostLiteral = { start, end, encode: (text) => rawText(text, '\n') };
      decodeRange(out, literal, src, from, to, rawTemplates, holes, '$', nameValue);
    }
    return out.parts;
  }
  const literal: HostLiteral = {
    start,
    end,
    encode: (text) => backslashEscape(text, { escaped: '"$', newline: 'escape' }),
  };
  decodeRange(out, literal, src, start + 1, end - 1, ktEscape, holes, '\\$', nameValue);
  return out.parts;
}

const LITERALS = new Set(['string_literal', 'multiline_string_literal']);
const FUNCTIONS = new Set([
  'function_declaration',
  'anonymous_function',
  'lambda_literal',
  'secondary_constructor',
  'anonymous_initializer',
  'getter',
  'setter',
]);

function argumentsOf(list: Node): { args: Node[]; keywords: Map<string, Node> } {
  const args: Node[] = [];
  const keywords = new Map<string, Node>();
  for (const argument of namedChildren(list)) {
    const children = namedChildren(argument);
    const value = children[children.length - 1];
    if (!value) continue;
    const named = argument.children.some((c) => c?.type === '=');
    if (named && children.length > 1) keywords.set(children[0]!.text, value);
    else args.push(value);
  }
  return { args, keywords };
}

function callShape(node: Node | null | undefined): CallShape | undefined {
  if (!node) return undefined;
  if (node.type === 'call_expression') {
    const callee = node.namedChild(0);
    const list = namedChildren(node).find((c) => c.type === 'value_arguments');
    if (!callee || !list) return undefined;
    const { args, keywords } = argumentsOf(list);
    if (callee.type === 'navigation_expression') {
      const parts = namedChildren(callee);
      const name = parts[parts.length - 1];
      if (name?.type !== 'identifier' || parts.length < 2) return undefined;
      return { node, name: name.text, receiver: compactText(parts[0]), isNew: false, args, keywords };
    }
    const name = lastSegment(callee.text);
    return { node, name, isNew: /^[A-Z]/.test(name), args, keywords };
  }
  if (node.type === 'annotation') {
    const invocation = namedChildren(node).find((c) => c.type === 'constructor_invocation');
    const type = invocation && namedChildren(invocation).find((c) => c.type === 'user_type');
    const list = invocation && namedChildren(invocation).find((c) => c.type === 'value_arguments');
    if (!type || !list) return undefined;
    return { node, name: lastSegment(type.text), isNew: false, ...argumentsOf(list) };
  }
  return undefined;
}

function declarationOf(property: Node, value: Node): Declaration | undefined {
  const variable = namedChildren(property).find((c) => c.type === 'variable_declaration');
  const nameNode = variable && namedChildren(variable).find((c) => c.type === 'identifier');
  if (!nameNode) return undefined;
  const isVar = property.children.some((c) => c?.type === 'var');
  const isConst = namedChildren(property).some((c) => c.type === 'modifiers' && /\bconst\b/.test(c.text));
  let scope: Node | null = parentOf(property);
  while (scope && !FUNCTIONS.has(scope.type) && scope.type !== 'class_body' && scope.type !== 'source_file')
    scope = parentOf(scope);
  if (!scope) return undefined;
  if (FUNCTIONS.has(scope.type))
    return { name: nameNode.text, nameStart: nameNode.startIndex, value, scope, constant: false, reassignable: isVar };
  // A member of a class or object, or a top-level property: a constant when it is `val` (or `const val`).
  if (isVar && !isConst) return undefined;
  const file = treeRoot(property);
  return {
    name: nameNode.text,
    nameStart: nameNode.startIndex,
    value,
    scope: file,
    constant: true,
    reassignable: false,
  };
}

/** The value of a property declaration: the expression after its `=`. */
function propertyValue(property: Node): Node | undefined {
  const children = property.children;
  const equals = children.findIndex((c) => c?.type === '=');
  return equals >= 0 ? children.slice(equals + 1).find((c): c is Node => !!c && c.isNamed) : undefined;
}

export const kotlin: LanguageSupport = {
  commentPrefix: '//',

  literalAt: (node) => climbTo(node, LITERALS),

  classify(node): Expr {
    if (LITERALS.has(node.type) || node.type === 'character_literal') return { kind: 'literal', node };
    if (node.type === 'navigation_expression') {
      const parts = namedChildren(node);
      const object = parts[0];
      const name = parts[parts.length - 1];
      return parts.length === 2 &&
        object &&
        name?.type === 'identifier' &&
        (object.type === 'this_expression' || /^[A-Z]/.test(object.text))
        ? { kind: 'name', name: name.text }
        : { kind: 'other' };
    }
    if (node.type === 'call_expression') {
      const call = callShape(node);
      const callee = node.namedChild(0);
      const target = callee?.type === 'navigation_expression' ? callee.namedChild(0) : undefined;
      if (
        call &&
        target?.type === 'multiline_string_literal' &&
        call.args.length === 0 &&
        (call.name === 'trimIndent' || call.name === 'trimMargin')
      ) {
        return { kind: 'literal', node: target, mode: call.name };
      }
      if (call?.name === 'format' && call.receiver === 'String' && call.args.length >= 1)
        return { kind: 'format', template: call.args[0]!, args: call.args.slice(1), style: 'printf' };
      if (call?.name === 'format' && target && call.receiver !== 'String')
        return { kind: 'format', template: target, args: call.args, style: 'printf' };
      return { kind: 'other' };
    }
    return commonExpression(node) ?? { kind: 'other' };
  },

  decodeLiteral: (node, src, mode, evaluate, nameValue) => kotlinLiteral(node, src, mode, evaluate, nameValue),

  contextOf(expr): Context {
    const parent = parentOf(expr);
    if (!parent) return { kind: 'other' };
    if (parent.type === 'value_argument' && parentOf(parent)?.type === 'value_arguments') {
      const owner = parentOf(parentOf(parent));
      const annotation =
        owner?.type === 'constructor_invocation' && parentOf(owner)?.type === 'annotation'
          ? parentOf(owner)
          : undefined;
      const call = annotation ? callShape(annotation) : owner && callShape(owner);
      if (!call) return { kind: 'other' };
      const index = indexIn(call.args, expr);
      const keyword = index < 0 ? [...call.keywords].find(([, v]) => sameNode(v, expr))?.[0] : undefined;
      return { kind: annotation ? 'annotation' : 'argument', call, index, ...(keyword ? { keyword } : {}) };
    }
    if (parent.type === 'property_declaration' && sameNode(propertyValue(parent), expr)) {
      const declaration = declarationOf(parent, expr);
      return declaration ? { kind: 'declaration', declaration } : { kind: 'other' };
    }
    if (parent.type === 'block' || parent.type === 'statements') return { kind: 'statement' };
    return { kind: 'other' };
  },

  declarationAt(node) {
    const variable = parentOf(node);
    const property = variable?.type === 'variable_declaration' ? parentOf(variable) : undefined;
    if (node.type !== 'identifier' || property?.type !== 'property_declaration') return undefined;
    const value = propertyValue(property);
    return value ? declarationOf(property, value) : undefined;
  },

  nameUse(node) {
    if (node.type !== 'identifier') return undefined;
    const parent = parentOf(node);
    if (!parent) return node;
    if (parent.type === 'navigation_expression' && !sameNode(parent.namedChild(0), node)) {
      return kotlin.classify(parent).kind === 'name' ? parent : undefined;
    }
    if (/variable_declaration|parameter|function_declaration|class_declaration|user_type|import/.test(parent.type))
      return undefined;
    if (
      parent.type === 'value_argument' &&
      parent.children.some((c) => c?.type === '=') &&
      sameNode(parent.namedChild(0), node)
    )
      return undefined;
    return node;
  },

  imports: (src) => [...src.matchAll(/^[ \t]*import[ \t]+([\w.]+)/gm)].map((m) => m[1]!),

  facts: jvmFacts,

  anchorOf(context, facts) {
    if (context.kind === 'argument' || context.kind === 'annotation')
      return jvmAnchor(context.kind, context.call, context.index, context.keyword, facts);
    return undefined;
  },

  keyspaceWords: /\b(?:connect|withKeyspace)\b/,

  keyspaceAt(node, facts) {
    const navigation = parentOf(node);
    const call = navigation?.type === 'navigation_expression' ? callShape(parentOf(navigation)) : undefined;
    if (!call || call.name !== node.text || call.args.length !== 1 || !facts.cassandra) return undefined;
    const arg = call.args[0]!;
    if (call.name === 'connect') return { expr: arg, via: call.node };
    const inner = arg.type === 'call_expression' ? callShape(arg) : undefined;
    if (inner?.name === 'fromCql' && inner.args.length === 1)
      return { expr: inner.args[0]!, via: call.node, cqlName: true };
    return { expr: arg, via: call.node, cqlName: true };
  },
};
