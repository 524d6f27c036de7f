// Java: string literals and text blocks, `+` concatenation, `static final` constants and local variables,
// `String.format` / `.formatted`, and the DataStax Java driver's, Spring Data Cassandra's and the mapper's calls
// and annotations (drivers.ts).
import { backslashEscape } from './encode';
import { driverReceiver, jvmAnchor, jvmFacts, lastSegment } from './drivers';
import {
  climbTo,
  commonExpression,
  compactText,
  declaratorOf,
  indexIn,
  namedChildren,
  parentOf,
  sameNode,
  treeRoot,
} from './nodes';
import type { CallShape, Context, Declaration, Expr, LanguageSupport, Node } from './syntax';
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

const JAVA_SIMPLE: Record<string, string> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  s: ' ',
  '"': '"',
  "'": "'",
  '\\': '\\',
};

/** Java's escapes: `\n` and friends, `\s`, octal, and `\uXXXX` (any number of `u`). */
export const javaEscape: EscapeReader = (src, i, end) => {
  const c = src[i + 1];
  if (c === undefined || i + 1 >= end) return undefined;
  const simple = JAVA_SIMPLE[c];
  if (simple !== undefined) return { text: simple, length: 2 };
  if (c === 'u') {
    let j = i + 1;
    while (j < end && src[j] === 'u') j++;
    const hex = readHex(src, j, end, 4, 4);
    return hex ? { text: String.fromCharCode(hex.value), length: j + 4 - i } : undefined;
  }
  const octal = /^[0-3][0-7]{0,2}|^[4-7][0-7]?/.exec(src.slice(i + 1, Math.min(end, i + 4)));
  if (octal) return { text: String.fromCharCode(parseInt(octal[0], 8)), length: 1 + octal[0].length };
  return undefined;
};

/**
 * Decodes the lines of a multi-line literal whose indentation is stripped (a Java text block, a Kotlin
 * `trimIndent()`/`trimMargin()` string, a C# raw string): `lines` gives, per line, the host range kept (or none for
 * a line that reads as empty) and whether a line break follows it.
 */
export function decodeLines(
  out: ValueBuilder,
  literal: HostLiteral,
  src: string,
  lines: readonly { keep?: [number, number]; breakAt?: [number, number] }[],
  escape: EscapeReader | undefined,
  holes: readonly Interpolation[],
  triggers?: string,
  nameValue?: NameValue,
): void {
  for (const line of lines) {
    if (line.keep)
      decodeRange(
        out,
        literal,
        src,
        line.keep[0],
        line.keep[1],
        escape,
        holes.filter((h) => h.start >= line.keep![0] && h.end <= line.keep![1]),
        triggers,
        nameValue,
      );
    if (line.breakAt) out.char(literal, '\n', line.breakAt[0], line.breakAt[1]);
  }
}

/** A Java text block's content lines after its indentation and trailing white space are stripped (JLS 3.10.6). */
function textBlockLines(
  src: string,
  contentStart: number,
  closeStart: number,
): { lines: { keep?: [number, number]; breakAt?: [number, number] }[]; indent: string } {
  const raw = linesOf(src, contentStart, closeStart);
  const significant = raw.filter((l, i) => i === raw.length - 1 || !isBlank(src, l.start, l.end));
  const width = Math.min(
    ...significant.map((l) => (isBlank(src, l.start, l.end) ? l.end - l.start : indentWidth(src, l.start, l.end))),
  );
  const model = significant.find((l) => !isBlank(src, l.start, l.end)) ?? significant[0]!;
  const lines: { keep?: [number, number]; breakAt?: [number, number] }[] = [];
  raw.forEach((l, i) => {
    const last = i === raw.length - 1;
    let end = l.end;
    while (end > l.start && (src[end - 1] === ' ' || src[end - 1] === '\t')) end--;
    const start = Math.min(l.start + width, end);
    let backslashes = 0;
    while (end - backslashes > start && src[end - 1 - backslashes] === '\\') backslashes++;
    const continued = !last && backslashes % 2 === 1;
    lines.push({
      keep: end > start ? [start, continued ? end - 1 : end] : undefined,
      breakAt: last || continued ? undefined : [end, l.breakEnd],
    });
  });
  return { lines, indent: src.slice(model.start, model.start + width) };
}

/**
 * Text for a text block: quotes and backslashes escaped, each line break followed by the block's indentation, and
 * white space that would end a line (which the block strips) written as `\s` / `\t`.
 */
function textBlockText(text: string, indent: string, atLineEnd: boolean): string {
  const lines = text.split('\n');
  return lines
    .map((line, i) => {
      const escaped = backslashEscape(line, { escaped: '"', newline: 'escape' });
      return i < lines.length - 1 || atLineEnd ? escaped.replace(/ $/, '\\s') : escaped;
    })
    .join(`\n${indent}`);
}

function javaLiteral(node: Node, src: string): Part[] {
  const out = new ValueBuilder();
  const start = node.startIndex;
  const end = node.endIndex;
  if (src.startsWith('"""', start)) {
    const open = start + 3;
    const firstBreak = src.slice(open, end).search(/\r?\n|\r/);
    const contentStart =
      firstBreak < 0 ? end - 3 : open + firstBreak + (src.startsWith('\r\n', open + firstBreak) ? 2 : 1);
    const closeStart = Math.max(contentStart, end - 3);
    const { lines, indent } = textBlockLines(src, contentStart, closeStart);
    const atLineEnd = (at: number): boolean => /^[ \t]*(?:[\r\n]|""")/.test(src.slice(at, at + 200));
    const literal: HostLiteral = { start, end, encode: (text, at) => textBlockText(text, indent, atLineEnd(at)) };
    decodeLines(out, literal, src, lines, javaEscape, []);
    return out.parts;
  }
  const literal: HostLiteral = {
    start,
    end,
    encode: (text) => backslashEscape(text, { escaped: '"', newline: 'escape' }),
  };
  decodeRange(out, literal, src, start + 1, end - 1, javaEscape);
  return out.parts;
}

const LITERALS = new Set(['string_literal']);
const FUNCTIONS = new Set([
  'method_declaration',
  'constructor_declaration',
  'lambda_expression',
  'compact_constructor_declaration',
  'static_initializer',
]);

function callShape(node: Node | null | undefined): CallShape | undefined {
  if (!node) return undefined;
  if (node.type === 'method_invocation') {
    const name = node.childForFieldName('name')?.text;
    const args = node.childForFieldName('arguments');
    if (!name || !args) return undefined;
    return {
      node,
      name,
      receiver: compactText(node.childForFieldName('object')),
      isNew: false,
      args: namedChildren(args),
      keywords: new Map(),
    };
  }
  if (node.type === 'object_creation_expression') {
    const type = node.childForFieldName('type')?.text;
    const args = node.childForFieldName('arguments');
    if (!type || !args) return undefined;
    return { node, name: lastSegment(type), isNew: true, args: namedChildren(args), keywords: new Map() };
  }
  if (node.type === 'annotation') {
    const name = node.childForFieldName('name')?.text;
    const args = node.childForFieldName('arguments');
    if (!name || !args) return undefined;
    const positional: Node[] = [];
    const keywords = new Map<string, Node>();
    for (const child of namedChildren(args)) {
      if (child.type === 'element_value_pair') {
        const key = child.childForFieldName('key')?.text;
        const value = child.childForFieldName('value');
        if (key && value) keywords.set(key, value);
      } else {
        positional.push(child);
      }
    }
    return { node, name: lastSegment(name), isNew: false, args: positional, keywords };
  }
  return undefined;
}

function hasModifier(declaration: Node, modifier: string): boolean {
  const modifiers = namedChildren(declaration).find((c) => c.type === 'modifiers');
  return !!modifiers && modifiers.children.some((c) => c?.type === modifier);
}

function declarationOf(declarator: Node): Declaration | undefined {
  const nameNode = declarator.childForFieldName('name');
  const value = declarator.childForFieldName('value');
  const statement = parentOf(declarator);
  if (!nameNode || !value || !statement) return undefined;
  if (statement.type === 'field_declaration' || statement.type === 'constant_declaration') {
    const inInterface = parentOf(statement)?.type === 'interface_body';
    if (!inInterface && !hasModifier(statement, 'final')) return undefined;
    const scope = treeRoot(statement);
    return { name: nameNode.text, nameStart: nameNode.startIndex, value, scope, constant: true, reassignable: false };
  }
  if (statement.type === 'local_variable_declaration') {
    let scope: Node | null = parentOf(statement);
    while (scope && !FUNCTIONS.has(scope.type)) scope = parentOf(scope);
    if (!scope) return undefined;
    return {
      name: nameNode.text,
      nameStart: nameNode.startIndex,
      value,
      scope,
      constant: false,
      reassignable: !hasModifier(statement, 'final'),
    };
  }
  return undefined;
}

export const java: LanguageSupport = {
  commentPrefix: '//',

  literalAt: (node) => climbTo(node, LITERALS),

  classify(node): Expr {
    switch (node.type) {
      case 'string_literal':
        return { kind: 'literal', node };
      case 'field_access': {
        const object = node.childForFieldName('object');
        const field = node.childForFieldName('field');
        return object && field && (object.type === 'this' || /^[A-Z]/.test(object.text))
          ? { kind: 'name', name: field.text }
          : { kind: 'other' };
      }
      case 'method_invocation': {
        const call = callShape(node);
        if (!call) return { kind: 'other' };
        const object = node.childForFieldName('object');
        if (call.name === 'format' && call.receiver === 'String' && call.args.length >= 1) {
          return { kind: 'format', template: call.args[0]!, args: call.args.slice(1), style: 'printf' };
        }
        if (call.name === 'formatted' && object)
          return { kind: 'format', template: object, args: call.args, style: 'printf' };
        return { kind: 'other' };
      }
      default:
        return commonExpression(node) ?? { kind: 'other' };
    }
  },

  decodeLiteral: (node, src) => javaLiteral(node, src),

  contextOf(expr): Context {
    const parent = parentOf(expr);
    if (!parent) return { kind: 'other' };
    switch (parent.type) {
      case 'argument_list': {
        const call = callShape(parentOf(parent));
        return call ? { kind: 'argument', call, index: indexIn(call.args, expr) } : { kind: 'other' };
      }
      case 'annotation_argument_list': {
        const call = callShape(parentOf(parent));
        return call ? { kind: 'annotation', call, index: indexIn(call.args, expr) } : { kind: 'other' };
      }
      case 'element_value_pair': {
        const call = callShape(parentOf(parentOf(parent)));
        const keyword = parent.childForFieldName('key')?.text;
        return call && keyword ? { kind: 'annotation', call, index: -1, keyword } : { kind: 'other' };
      }
      case 'variable_declarator': {
        const declaration = sameNode(parent.childForFieldName('value'), expr) ? declarationOf(parent) : undefined;
        return declaration ? { kind: 'declaration', declaration } : { kind: 'other' };
      }
      case 'expression_statement':
        return { kind: 'statement' };
      default:
        return { kind: 'other' };
    }
  },

  declarationAt(node) {
    const declarator = declaratorOf(node, 'variable_declarator');
    return declarator && declarationOf(declarator);
  },

  nameUse(node) {
    if (node.type !== 'identifier') return undefined;
    const parent = parentOf(node);
    if (!parent) return node;
    if (parent.type === 'field_access' && sameNode(parent.childForFieldName('field'), node)) {
      return java.classify(parent).kind === 'name' ? parent : undefined;
    }
    if (parent.type === 'method_invocation' && sameNode(parent.childForFieldName('name'), node)) return undefined;
    if (/declarator|declaration|parameter/.test(parent.type) && sameNode(parent.childForFieldName('name'), node))
      return undefined;
    return node;
  },

  imports: (src) => [...src.matchAll(/^[ \t]*import[ \t]+(?:static[ \t]+)?([\w.]+)/gm)].map((m) => m[1]!),

  facts: jvmFacts,

  anchorOf(context, facts) {
    if (context.kind === 'argument' || context.kind === 'annotation')
      return jvmAnchor(context.kind, context.call, context.index, context.keyword, facts);
    return undefined;
  },

  keyspaceWords: /\b(?:connect|withKeyspace|getKeyspaceName)\b/,

  keyspaceAt(node, facts) {
    const parent = parentOf(node);
    if (!parent || node.type !== 'identifier') return undefined;
    if (parent.type === 'method_invocation' && sameNode(parent.childForFieldName('name'), node)) {
      const call = callShape(parent);
      if (!call || call.args.length !== 1) return undefined;
      if (call.name === 'connect' && facts.cassandra && driverReceiver(call.receiver, facts, /cluster/i) === 'anchor')
        return { expr: call.args[0]!, via: parent };
      if (call.name !== 'withKeyspace') return undefined;
      const arg = call.args[0]!;
      const inner = arg.type === 'method_invocation' ? callShape(arg) : undefined;
      if (inner?.name === 'fromCql' && inner.args.length === 1)
        return { expr: inner.args[0]!, via: parent, cqlName: true };
      if (inner?.name === 'fromInternal' && inner.args.length === 1) return { expr: inner.args[0]!, via: parent };
      return { expr: arg, via: parent, cqlName: true };
    }
    if (parent.type === 'method_declaration' && node.text === 'getKeyspaceName' && facts.spring) {
      const body = parent.childForFieldName('body');
      const ret = body && namedChildren(body).find((c) => c.type === 'return_statement');
      const expr = ret && namedChildren(ret)[0];
      return expr ? { expr, via: parent.childForFieldName('name') ?? parent } : undefined;
    }
    return undefined;
  },
};
