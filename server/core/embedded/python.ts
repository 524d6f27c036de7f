// Python: strings with their prefixes (r, f, u; b is not text), triple quotes, implicit and `+` concatenation,
// f-strings, `%` and `.format`, module-level and class-level names and local variables assigned once, and the
// DataStax `cassandra-driver` calls (`execute` with `%s` / `%(name)s` parameters, `prepare` with `?`).
import { backslashEscape, refuse } from './encode';
import { anchor, driverReceiver, lastSegment } from './drivers';
import { climbTo, compactText, importFacts, indexIn, namedChildren, parentOf, sameNode, treeRoot } from './nodes';
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

const PY_SIMPLE: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

function pythonEscape(braces: boolean): EscapeReader {
  return (src, i, end) => {
    const c = src[i]!;
    if (c === '{' || c === '}') return braces && src[i + 1] === c && i + 1 < end ? { text: c, length: 2 } : undefined;
    const d = src[i + 1];
    if (d === undefined || i + 1 >= end) return undefined;
    if (d === '\n') return { text: '', length: 2 };
    if (d === '\r') return { text: '', length: src[i + 2] === '\n' ? 3 : 2 };
    const simple = PY_SIMPLE[d];
    if (simple !== undefined) return { text: simple, length: 2 };
    const octal = /^[0-7]{1,3}/.exec(src.slice(i + 1, Math.min(end, i + 4)));
    if (octal) return { text: String.fromCharCode(parseInt(octal[0], 8)), length: 1 + octal[0].length };
    const width = d === 'x' ? 2 : d === 'u' ? 4 : d === 'U' ? 8 : 0;
    if (width) {
      const hex = readHex(src, i + 2, end, width, width);
      const text = hex && codePoint(hex.value);
      return text ? { text, length: 2 + width } : undefined;
    }
    return undefined;
  };
}

/** A raw f-string reads only its doubled braces. */
const bracesOnly: EscapeReader = (src, i, end) => (src[i] === '\\' ? undefined : pythonEscape(true)(src, i, end));

function pythonLiteral(node: Node, src: string, evaluate: Evaluate): Part[] | undefined {
  const startNode = node.child(0);
  const endNode = node.child(node.childCount - 1);
  if (startNode?.type !== 'string_start' || endNode?.type !== 'string_end') return undefined;
  const opening = startNode.text;
  const prefix = opening.replace(/['"]+$/, '').toLowerCase();
  if (prefix.includes('b')) return undefined;
  const quote = opening.slice(prefix.length);
  const raw = prefix.includes('r');
  const fString = prefix.includes('f');
  const triple = quote.length === 3;
  const literal: HostLiteral = {
    start: node.startIndex,
    end: node.endIndex,
    encode(text) {
      if (raw) {
        if (text.includes('\\') || text.includes(quote[0]!) || (!triple && /[\r\n]/.test(text))) {
          return refuse(
            `cannot write ${JSON.stringify(text)} in a Python raw string (${opening}...): no escapes there`,
          );
        }
        return fString ? text.replace(/[{}]/g, '$&$&') : text;
      }
      const escaped = backslashEscape(text, { escaped: quote[0]!, newline: triple ? 'keep' : 'escape' });
      return fString ? escaped.replace(/[{}]/g, '$&$&') : escaped;
    },
  };
  const holes: Interpolation[] = [];
  for (const child of namedChildren(node)) {
    if (child.type !== 'interpolation') continue;
    const expression = child.childForFieldName('expression');
    const value =
      expression && !namedChildren(child).some((c) => c.type === 'format_specifier' || c.type === 'type_conversion')
        ? evaluate(expression)
        : undefined;
    holes.push(
      value
        ? { start: child.startIndex, end: child.endIndex, parts: value }
        : { start: child.startIndex, end: child.endIndex },
    );
  }
  const out = new ValueBuilder();
  const escape = raw ? (fString ? bracesOnly : undefined) : pythonEscape(fString);
  decodeRange(
    out,
    literal,
    src,
    startNode.endIndex,
    endNode.startIndex,
    escape,
    holes,
    raw ? '{}' : fString ? '\\{}' : '\\',
  );
  return out.parts;
}

const LITERALS = new Set(['string']);
const FUNCTIONS = new Set(['function_definition', 'lambda']);

function callShape(node: Node | null | undefined): CallShape | undefined {
  if (!node) return undefined;
  if (node.type !== 'call') return undefined;
  const fn = node.childForFieldName('function');
  const argList = node.childForFieldName('arguments');
  if (!fn || !argList || argList.type !== 'argument_list') return undefined;
  const args: Node[] = [];
  const keywords = new Map<string, Node>();
  for (const child of namedChildren(argList)) {
    if (child.type === 'keyword_argument') {
      const name = child.childForFieldName('name')?.text;
      const value = child.childForFieldName('value');
      if (name && value) keywords.set(name, value);
    } else {
      args.push(child);
    }
  }
  if (fn.type === 'attribute') {
    const name = fn.childForFieldName('attribute')?.text;
    return name
      ? { node, name, receiver: compactText(fn.childForFieldName('object')), isNew: false, args, keywords }
      : undefined;
  }
  return {
    node,
    name: lastSegment(fn.text),
    isNew: /^[A-Z]/.test(lastSegment(fn.text)),
    receiver: fn.type === 'identifier' ? undefined : compactText(fn),
    args,
    keywords,
  };
}

function declarationOf(assignment: Node): Declaration | undefined {
  const left = assignment.childForFieldName('left');
  const value = assignment.childForFieldName('right');
  if (left?.type !== 'identifier' || !value || parentOf(assignment)?.type !== 'expression_statement') return undefined;
  let scope: Node | null = parentOf(parentOf(assignment));
  while (scope && !FUNCTIONS.has(scope.type) && scope.type !== 'module') scope = parentOf(scope);
  if (!scope) return undefined;
  if (scope.type === 'module') {
    const file = treeRoot(scope);
    return { name: left.text, nameStart: left.startIndex, value, scope: file, constant: true, reassignable: true };
  }
  return { name: left.text, nameStart: left.startIndex, value, scope, constant: false, reassignable: true };
}

const CASSANDRA_MODULES = /^(?:cassandra|dse|acsylla|scylla|aiocassandra|cassandra_driver)\b/;
const OTHER_SQL_MODULES =
  /^(?:sqlite3|psycopg2?|psycopg_pool|mysql|MySQLdb|pymysql|sqlalchemy|flask_sqlalchemy|django\.db|peewee|asyncpg|aiosqlite|aiomysql|pymssql|pyodbc|cx_Oracle|oracledb|databases|records|pony|tortoise|sqlmodel|duckdb|snowflake|ibm_db|teradatasql|pg8000)\b/;

/** The driver calls that take the statement first (or as `query=`). */
const SESSION_CALLS = new Set(['execute', 'execute_async', 'prepare']);
/** Calls that take SQL in the other APIs: a literal passed to them is not CQL. */
const OTHER_SQL_CALLS = new Set([
  'executemany',
  'executescript',
  'mogrify',
  'text',
  'raw',
  'fetch',
  'fetchrow',
  'fetchval',
]);

function pythonAnchor(call: CallShape, index: number, keyword: string | undefined, facts: FileFacts) {
  const first = index === 0 || keyword === 'query' || keyword === 'query_string';
  if (call.name === 'SimpleStatement' && first)
    return facts.otherSql && !facts.cassandra ? 'sql' : anchor('SimpleStatement', call.node, 'python');
  if (call.name === 'add' && index === 0 && /batch/i.test(call.receiver ?? '') && facts.cassandra)
    return anchor(`${lastSegment(call.receiver!)}.add`, call.node, 'python');
  if (
    (call.name === 'execute_concurrent_with_args' || call.name === 'execute_concurrent') &&
    index === 1 &&
    facts.cassandra
  )
    return anchor(call.name, call.node, 'python');
  if (OTHER_SQL_CALLS.has(call.name) && first) return 'sql';
  if (!SESSION_CALLS.has(call.name) || !first) return undefined;
  if (driverReceiver(call.receiver, facts) === 'sql') return 'sql';
  return anchor(
    `${lastSegment(call.receiver ?? '') || 'session'}.${call.name}`,
    call.node,
    call.name === 'prepare' ? undefined : 'python',
  );
}

export const python: LanguageSupport = {
  commentPrefix: '#',

  literalAt: (node) => climbTo(node, LITERALS),

  classify(node): Expr {
    switch (node.type) {
      case 'string':
        return { kind: 'literal', node };
      case 'concatenated_string':
        return { kind: 'concat', operands: namedChildren(node) };
      case 'binary_operator': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const operator = node.childForFieldName('operator')?.type;
        if (!left || !right) return { kind: 'other' };
        if (operator === '+') return { kind: 'concat', operands: [left, right] };
        if (operator === '%')
          return {
            kind: 'format',
            template: left,
            args: right.type === 'tuple' ? namedChildren(right) : [right],
            style: 'python-percent',
          };
        return { kind: 'other' };
      }
      case 'parenthesized_expression': {
        const inner = namedChildren(node)[0];
        return inner ? { kind: 'paren', inner } : { kind: 'other' };
      }
      case 'identifier':
        return { kind: 'name', name: node.text };
      case 'attribute': {
        const object = node.childForFieldName('object');
        const attribute = node.childForFieldName('attribute');
        return object && attribute && /^(?:self|cls|[A-Z]\w*)$/.test(object.text)
          ? { kind: 'name', name: attribute.text }
          : { kind: 'other' };
      }
      case 'call': {
        const fn = node.childForFieldName('function');
        const call = callShape(node);
        const template = fn?.type === 'attribute' ? fn.childForFieldName('object') : undefined;
        if (call?.name === 'format' && template)
          return { kind: 'format', template, args: call.args, named: call.keywords, style: 'python-format' };
        return { kind: 'other' };
      }
      default:
        return { kind: 'other' };
    }
  },

  decodeLiteral: (node, src, _mode, evaluate) => pythonLiteral(node, src, evaluate),

  contextOf(expr): Context {
    let parent = parentOf(expr);
    let keyword: string | undefined;
    if (parent?.type === 'keyword_argument' && sameNode(parent.childForFieldName('value'), expr)) {
      keyword = parent.childForFieldName('name')?.text;
      parent = parentOf(parent);
    }
    if (!parent) return { kind: 'other' };
    if (parent.type === 'argument_list') {
      const call = callShape(parentOf(parent));
      if (!call) return { kind: 'other' };
      return keyword
        ? { kind: 'argument', call, index: -1, keyword }
        : { kind: 'argument', call, index: indexIn(call.args, expr) };
    }
    if (parent.type === 'assignment' && sameNode(parent.childForFieldName('right'), expr)) {
      const declaration = declarationOf(parent);
      return declaration ? { kind: 'declaration', declaration } : { kind: 'other' };
    }
    if (parent.type === 'expression_statement') return { kind: 'statement' };
    return { kind: 'other' };
  },

  declarationAt(node) {
    const parent = parentOf(node);
    if (
      node.type !== 'identifier' ||
      parent?.type !== 'assignment' ||
      !sameNode(parent.childForFieldName('left'), node)
    )
      return undefined;
    return declarationOf(parent);
  },

  nameUse(node) {
    if (node.type !== 'identifier') return undefined;
    const parent = parentOf(node);
    if (!parent) return node;
    if (parent.type === 'attribute' && sameNode(parent.childForFieldName('attribute'), node)) {
      return python.classify(parent).kind === 'name' ? parent : undefined;
    }
    if (parent.type === 'keyword_argument' && sameNode(parent.childForFieldName('name'), node)) return undefined;
    if (
      (parent.type === 'assignment' || parent.type === 'augmented_assignment') &&
      sameNode(parent.childForFieldName('left'), node)
    )
      return undefined;
    if (/parameter|function_definition|class_definition|import/.test(parent.type)) return undefined;
    return node;
  },

  imports(src) {
    const out: string[] = [];
    for (const m of src.matchAll(/^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import|import[ \t]+([\w., \t]+))/gm)) {
      if (m[1]) out.push(m[1]);
      else for (const name of m[2]!.split(',')) out.push(name.trim().split(/\s/)[0]!);
    }
    return out;
  },

  facts: (imports) => importFacts(imports, CASSANDRA_MODULES, OTHER_SQL_MODULES),

  anchorOf(context, facts) {
    return context.kind === 'argument' ? pythonAnchor(context.call, context.index, context.keyword, facts) : undefined;
  },

  keyspaceWords: /\b(?:connect|set_keyspace)\b/,

  keyspaceAt(node, facts) {
    const attribute = parentOf(node);
    const call =
      attribute?.type === 'attribute' && sameNode(attribute.childForFieldName('attribute'), node)
        ? callShape(parentOf(attribute))
        : undefined;
    if (!call || !facts.cassandra) return undefined;
    const expr = call.args[0] ?? call.keywords.get('keyspace');
    if (!expr) return undefined;
    if (
      call.name === 'set_keyspace' ||
      (call.name === 'connect' && driverReceiver(call.receiver, facts, /cluster/i) === 'anchor')
    )
      return { expr, via: call.node };
    return undefined;
  },
};
