// JavaScript, TypeScript and TSX (one support: the three grammars share these node types): quoted strings and
// template literals (a substitution is a hole, or a constant's value), `+` concatenation, `const` and variables
// assigned once, and the Node.js `cassandra-driver` calls: `execute`, `stream`, `eachRow`, `batch` with
// `{ query }` objects and arrays of strings, and `new Client({ keyspace })`.
import { backslashEscape } from './encode';
import { anchor, driverReceiver } from './drivers';
import {
  ancestor,
  climbTo,
  commonExpression,
  compactText,
  declaratorOf,
  importFacts,
  indexIn,
  namedChildren,
  parentOf,
  sameNode,
  treeRoot,
} from './nodes';
import type { CallShape, Context, Declaration, Evaluate, Expr, FileFacts, LanguageSupport, Node } from './syntax';
import {
  type EscapeReader,
  type HostLiteral,
  type Interpolation,
  type Part,
  ValueBuilder,
  codePoint,
  decodeRange,
  readHex,
} from './value';

const JS_SIMPLE: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

const jsEscape: EscapeReader = (src, i, end) => {
  const c = src[i + 1];
  if (c === undefined || i + 1 >= end) return undefined;
  if (c === '\r') return { text: '', length: src[i + 2] === '\n' ? 3 : 2 };
  if (c === '\n' || c === '\u2028' || c === '\u2029') return { text: '', length: 2 };
  const simple = JS_SIMPLE[c];
  if (simple !== undefined) return { text: simple, length: 2 };
  if (c === '0' && !/[0-9]/.test(src[i + 2] ?? '')) return { text: '\0', length: 2 };
  if (c === 'x') {
    const hex = readHex(src, i + 2, end, 2, 2);
    return hex ? { text: String.fromCharCode(hex.value), length: 4 } : undefined;
  }
  if (c === 'u') {
    if (src[i + 2] === '{') {
      const close = src.indexOf('}', i + 3);
      const hex = close > 0 && close < end ? readHex(src, i + 3, close, 1, 6) : undefined;
      const text = hex && hex.length === close - i - 3 ? codePoint(hex.value) : undefined;
      return text ? { text, length: close + 1 - i } : undefined;
    }
    const hex = readHex(src, i + 2, end, 4, 4);
    return hex ? { text: String.fromCharCode(hex.value), length: 6 } : undefined;
  }
  // Any other escaped character stands for itself.
  return { text: c, length: 2 };
};

function jsLiteral(node: Node, src: string, evaluate: Evaluate): Part[] {
  const out = new ValueBuilder();
  const start = node.startIndex;
  const end = node.endIndex;
  if (node.type === 'template_string') {
    const literal: HostLiteral = {
      start,
      end,
      encode: (text) => backslashEscape(text, { escaped: '`', newline: 'keep', pairs: ['${'] }),
    };
    const holes: Interpolation[] = [];
    for (const child of namedChildren(node)) {
      if (child.type !== 'template_substitution') continue;
      const expression = namedChildren(child)[0];
      const value = expression && evaluate(expression);
      holes.push(
        value
          ? { start: child.startIndex, end: child.endIndex, parts: value }
          : { start: child.startIndex, end: child.endIndex },
      );
    }
    decodeRange(out, literal, src, start + 1, end - 1, jsEscape, holes);
    return out.parts;
  }
  const quote = src[start]!;
  const literal: HostLiteral = {
    start,
    end,
    encode: (text) => backslashEscape(text, { escaped: quote, newline: 'escape' }),
  };
  decodeRange(out, literal, src, start + 1, end - 1, jsEscape);
  return out.parts;
}

const LITERALS = new Set(['string', 'template_string']);
const FUNCTIONS = new Set([
  'function_declaration',
  'function_expression',
  'function',
  'arrow_function',
  'method_definition',
  'generator_function_declaration',
  'generator_function',
]);
const WRAPPERS = new Set(['as_expression', 'satisfies_expression', 'non_null_expression', 'type_assertion']);

function callShape(node: Node | null | undefined): CallShape | undefined {
  if (!node) return undefined;
  if (node.type !== 'call_expression' && node.type !== 'new_expression') return undefined;
  const fn = node.childForFieldName(node.type === 'new_expression' ? 'constructor' : 'function');
  const args = node.childForFieldName('arguments');
  if (!fn || !args || args.type !== 'arguments') return undefined;
  const isNew = node.type === 'new_expression';
  if (fn.type === 'member_expression') {
    const name = fn.childForFieldName('property')?.text;
    return name
      ? {
          node,
          name,
          receiver: compactText(fn.childForFieldName('object')),
          isNew,
          args: namedChildren(args),
          keywords: new Map(),
        }
      : undefined;
  }
  return { node, name: fn.text, isNew, args: namedChildren(args), keywords: new Map() };
}

function declarationOf(declarator: Node): Declaration | undefined {
  const nameNode = declarator.childForFieldName('name');
  const value = declarator.childForFieldName('value');
  const statement = parentOf(declarator);
  if (nameNode?.type !== 'identifier' || !value || !statement) return undefined;
  const kind = statement.type === 'lexical_declaration' ? statement.childForFieldName('kind')?.text : 'var';
  const scope = ancestor(declarator, FUNCTIONS);
  if (!scope) {
    const file = treeRoot(declarator);
    return {
      name: nameNode.text,
      nameStart: nameNode.startIndex,
      value,
      scope: file,
      constant: true,
      reassignable: kind !== 'const',
    };
  }
  return {
    name: nameNode.text,
    nameStart: nameNode.startIndex,
    value,
    scope,
    constant: false,
    reassignable: kind !== 'const',
  };
}

const CASSANDRA_MODULES = /^(?:cassandra-driver|dse-driver|@datastax\/|express-cassandra|@scylladb\/)/;
const OTHER_SQL_MODULES =
  /^(?:pg|pg-promise|pg-pool|postgres|mysql|mysql2|mariadb|sqlite3?|better-sqlite3|knex|sequelize|@prisma\/client|prisma|typeorm|mssql|tedious|oracledb|slonik|kysely|drizzle-orm|@databases\/|@vercel\/postgres|@neondatabase\/serverless|sql\.js|@planetscale\/database|mikro-orm|@mikro-orm\/)(?:\/|$)/;

const CLIENT_CALLS = new Set(['execute', 'stream', 'eachRow']);
const OTHER_SQL_CALLS = new Set([
  'query',
  'raw',
  'prepare',
  '$queryRaw',
  '$executeRaw',
  '$queryRawUnsafe',
  '$executeRawUnsafe',
  'unsafe',
  'exec',
]);

/** The call an array literal is the first argument of, if any. */
function arrayCall(array: Node): CallShape | undefined {
  const args = parentOf(array);
  const call = args?.type === 'arguments' ? callShape(parentOf(args)) : undefined;
  return call && sameNode(call.args[0], array) ? call : undefined;
}

function jsAnchor(context: Context, facts: FileFacts) {
  const cassandraOnly = facts.cassandra && !facts.otherSql;
  if (context.kind === 'element') {
    const call = arrayCall(context.array);
    return call?.name === 'batch' && driverReceiver(call.receiver, facts, /client/i) === 'anchor'
      ? anchor(`${call.receiver?.replace(/^.*\./, '') || 'client'}.batch`, call.node)
      : undefined;
  }
  if (context.kind === 'property') {
    if (context.key !== 'query') return undefined;
    const array = parentOf(context.container);
    const call = array?.type === 'array' ? arrayCall(array) : undefined;
    if (call?.name === 'batch' && driverReceiver(call.receiver, facts, /client/i) === 'anchor')
      return anchor(`${call.receiver?.replace(/^.*\./, '') || 'client'}.batch`, call.node);
    return cassandraOnly ? anchor('{ query }', context.container) : undefined;
  }
  if (context.kind !== 'argument' || context.index !== 0) return undefined;
  const { call } = context;
  if (call.node.childForFieldName('arguments')?.type !== 'arguments') return 'sql';
  if (OTHER_SQL_CALLS.has(call.name)) return 'sql';
  if (!CLIENT_CALLS.has(call.name)) return undefined;
  return driverReceiver(call.receiver, facts, /client/i) === 'anchor'
    ? anchor(`${call.receiver?.replace(/^.*\./, '') || 'client'}.${call.name}`, call.node)
    : 'sql';
}

export const javascript: LanguageSupport = {
  commentPrefix: '//',

  literalAt: (node) => climbTo(node, LITERALS),

  classify(node): Expr {
    switch (node.type) {
      case 'string':
        return { kind: 'literal', node };
      case 'template_string':
        // A tagged template is the tag function's business, not a string.
        return parentOf(node)?.type === 'call_expression' &&
          sameNode(parentOf(node)!.childForFieldName('arguments'), node)
          ? { kind: 'other' }
          : { kind: 'literal', node };
      default: {
        const inner = WRAPPERS.has(node.type) ? namedChildren(node)[0] : undefined;
        return inner ? { kind: 'paren', inner } : (commonExpression(node) ?? { kind: 'other' });
      }
    }
  },

  decodeLiteral: (node, src, _mode, evaluate) => jsLiteral(node, src, evaluate),

  contextOf(expr): Context {
    const parent = parentOf(expr);
    if (!parent) return { kind: 'other' };
    switch (parent.type) {
      case 'arguments': {
        const call = callShape(parentOf(parent));
        return call ? { kind: 'argument', call, index: indexIn(call.args, expr) } : { kind: 'other' };
      }
      case 'call_expression': {
        // A tagged template: `sql\`...\``.
        const call = callShape(parent) ?? {
          node: parent,
          name: parent.childForFieldName('function')?.text ?? '',
          isNew: false,
          args: [expr],
          keywords: new Map(),
        };
        return { kind: 'argument', call, index: 0 };
      }
      case 'pair': {
        const key = parent.childForFieldName('key');
        const name = key?.type === 'string' ? key.text.slice(1, -1) : key?.text;
        const container = parentOf(parent);
        return name && container && sameNode(parent.childForFieldName('value'), expr)
          ? { kind: 'property', key: name, container }
          : { kind: 'other' };
      }
      case 'array':
        return { kind: 'element', array: parent };
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
    if (parent.type === 'variable_declarator' && sameNode(parent.childForFieldName('name'), node)) return undefined;
    if (/parameter|import|export_specifier|pattern/.test(parent.type)) return undefined;
    return node;
  },

  imports: (src) =>
    [...src.matchAll(/(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|^[ \t]*import\s+)['"]([^'"]+)['"]/gm)].map(
      (m) => m[1]!,
    ),

  facts: (imports) => importFacts(imports, CASSANDRA_MODULES, OTHER_SQL_MODULES),

  anchorOf: jsAnchor,

  keyspaceWords: /\bkeyspace\b/,

  keyspaceAt(node, facts) {
    const pair = parentOf(node);
    if (!facts.cassandra || pair?.type !== 'pair' || !sameNode(pair.childForFieldName('key'), node)) return undefined;
    const expr = pair.childForFieldName('value');
    const args = parentOf(parentOf(pair));
    return expr ? { expr, via: args?.type === 'arguments' ? (parentOf(args) ?? pair) : pair } : undefined;
  },
};
