// Go: interpreted and raw (backtick) strings, `+` concatenation, `const` and variables assigned once,
// `fmt.Sprintf`, and gocql's (and gocqlx's) `session.Query`, `batch.Query` and `gocql.BatchEntry{Stmt: ...}`.
import { backslashEscape, refuse } from './encode';
import { anchor, driverReceiver } from './drivers';
import {
  climbTo,
  commonExpression,
  compactText,
  importFacts,
  indexIn,
  namedChildren,
  parentOf,
  sameNode,
} from './nodes';
import type { CallShape, Context, Declaration, Expr, FileFacts, LanguageSupport, Node } from './syntax';
import { type EscapeReader, type HostLiteral, type Part, ValueBuilder, codePoint, decodeRange, readHex } from './value';

const GO_SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

const goEscape: EscapeReader = (src, i, end) => {
  const c = src[i + 1];
  if (c === undefined || i + 1 >= end) return undefined;
  const simple = GO_SIMPLE[c];
  if (simple !== undefined) return { text: simple, length: 2 };
  if (/[0-7]/.test(c)) {
    const octal = /^[0-7]{3}/.exec(src.slice(i + 1, Math.min(end, i + 4)));
    return octal ? { text: String.fromCharCode(parseInt(octal[0], 8)), length: 4 } : undefined;
  }
  const width = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : 0;
  const hex = width ? readHex(src, i + 2, end, width, width) : undefined;
  const text = hex && codePoint(hex.value);
  return text ? { text, length: 2 + width } : undefined;
};

function goLiteral(node: Node, src: string): Part[] {
  const out = new ValueBuilder();
  const start = node.startIndex;
  const end = node.endIndex;
  if (node.type === 'raw_string_literal') {
    const literal: HostLiteral = {
      start,
      end,
      encode: (text) =>
        /[`\r]/.test(text) ? refuse('a Go raw string (`...`) cannot hold a backtick or a carriage return') : text,
    };
    // A raw string drops its carriage returns.
    for (let i = start + 1; i < end - 1; i++) if (src[i] !== '\r') out.char(literal, src[i]!, i, i + 1);
    return out.parts;
  }
  const literal: HostLiteral = {
    start,
    end,
    encode: (text) => backslashEscape(text, { escaped: '"', newline: 'escape' }),
  };
  decodeRange(out, literal, src, start + 1, end - 1, goEscape);
  return out.parts;
}

const LITERALS = new Set(['interpreted_string_literal', 'raw_string_literal']);
const FUNCTIONS = new Set(['function_declaration', 'method_declaration', 'func_literal']);

function callShape(node: Node | null | undefined): CallShape | undefined {
  if (!node) return undefined;
  if (node.type !== 'call_expression') return undefined;
  const fn = node.childForFieldName('function');
  const args = node.childForFieldName('arguments');
  if (!fn || !args) return undefined;
  if (fn.type === 'selector_expression') {
    const name = fn.childForFieldName('field')?.text;
    return name
      ? {
          node,
          name,
          receiver: compactText(fn.childForFieldName('operand')),
          isNew: false,
          args: namedChildren(args),
          keywords: new Map(),
        }
      : undefined;
  }
  return { node, name: fn.text, isNew: false, args: namedChildren(args), keywords: new Map() };
}

function declarationOf(spec: Node, nameNode: Node, value: Node): Declaration | undefined {
  let scope: Node | null = parentOf(spec);
  while (scope && !FUNCTIONS.has(scope.type) && scope.type !== 'source_file') scope = parentOf(scope);
  if (!scope) return undefined;
  const isConst = spec.type === 'const_spec';
  const fileLevel = scope.type === 'source_file';
  return {
    name: nameNode.text,
    nameStart: nameNode.startIndex,
    value,
    scope,
    constant: fileLevel,
    reassignable: !isConst,
  };
}

/** The declaration a `const`/`var` spec or `:=` gives the name at `index` of its names, with its value. */
function specDeclaration(spec: Node, nameNode: Node): Declaration | undefined {
  if (spec.type === 'const_spec' || spec.type === 'var_spec') {
    const names = spec.childrenForFieldName('name').filter((n): n is Node => !!n && n.type === 'identifier');
    const values = spec.childForFieldName('value');
    const i = indexIn(names, nameNode);
    const value = values && namedChildren(values)[i];
    return i >= 0 && value ? declarationOf(spec, nameNode, value) : undefined;
  }
  if (spec.type === 'short_var_declaration') {
    const names = namedChildren(spec.childForFieldName('left')!);
    const values = spec.childForFieldName('right');
    const i = indexIn(names, nameNode);
    const value = values && namedChildren(values)[i];
    return i >= 0 && value ? declarationOf(spec, nameNode, value) : undefined;
  }
  return undefined;
}

const CASSANDRA_MODULES =
  /^github\.com\/(?:gocql\/gocql|scylladb\/gocqlx|apache\/cassandra-gocql-driver|scylladb\/gocql)/;
const OTHER_SQL_MODULES =
  /^(?:database\/sql|github\.com\/(?:jmoiron\/sqlx|jackc\/pgx|lib\/pq|go-sql-driver\/mysql|mattn\/go-sqlite3|uptrace\/bun|doug-martin\/goqu|Masterminds\/squirrel|go-pg\/pg|denisenkom\/go-mssqldb|microsoft\/go-mssqldb)|gorm\.io\/|modernc\.org\/sqlite|entgo\.io\/)/;

function goAnchor(context: Context, facts: FileFacts) {
  if (context.kind === 'property') {
    // `gocql.BatchEntry{Stmt: ...}`, or an element of `[]gocql.BatchEntry{{Stmt: ...}}` whose type is elided.
    let literal: Node | null = context.container;
    for (let i = 0; literal && literal.type !== 'composite_literal' && i < 4; i++) literal = parentOf(literal);
    const type = literal?.type === 'composite_literal' ? (literal.childForFieldName('type')?.text ?? '') : '';
    return context.key === 'Stmt' && facts.cassandra && /BatchEntry/.test(type)
      ? anchor('gocql.BatchEntry', context.container)
      : undefined;
  }
  if (context.kind !== 'argument' || context.index !== 0) return undefined;
  const { call } = context;
  if (call.name !== 'Query')
    return facts.otherSql &&
      /^(?:QueryRow|QueryRowContext|QueryContext|Exec|ExecContext|Prepare|PrepareContext|Get|Select|Raw|MustExec|NamedExec|Queryx|QueryRowx)$/.test(
        call.name,
      )
      ? 'sql'
      : undefined;
  return driverReceiver(call.receiver, facts, /batch|^b$/i) === 'anchor'
    ? anchor(`${call.receiver?.replace(/^.*\./, '') || 'session'}.Query`, call.node)
    : 'sql';
}

export const go: LanguageSupport = {
  commentPrefix: '//',

  literalAt: (node) => climbTo(node, LITERALS),

  classify(node): Expr {
    switch (node.type) {
      case 'interpreted_string_literal':
      case 'raw_string_literal':
        return { kind: 'literal', node };
      case 'call_expression': {
        const call = callShape(node);
        if (call?.name === 'Sprintf' && call.receiver === 'fmt' && call.args.length >= 1) {
          return { kind: 'format', template: call.args[0]!, args: call.args.slice(1), style: 'printf' };
        }
        return { kind: 'other' };
      }
      default:
        return commonExpression(node) ?? { kind: 'other' };
    }
  },

  decodeLiteral: (node, src) => goLiteral(node, src),

  contextOf(expr): Context {
    const parent = parentOf(expr);
    if (!parent) return { kind: 'other' };
    if (parent.type === 'argument_list') {
      const call = callShape(parentOf(parent));
      return call ? { kind: 'argument', call, index: indexIn(call.args, expr) } : { kind: 'other' };
    }
    const keyed = parentOf(parent);
    if (
      parent.type === 'literal_element' &&
      keyed?.type === 'keyed_element' &&
      sameNode(keyed.childForFieldName('value'), parent)
    ) {
      const key = keyed.childForFieldName('key')?.text;
      const container = parentOf(parentOf(parent));
      return key && container ? { kind: 'property', key, container } : { kind: 'other' };
    }
    if (parent.type === 'expression_list') {
      const spec = parentOf(parent);
      const values = namedChildren(parent);
      const i = indexIn(values, expr);
      if (!spec || i < 0) return { kind: 'other' };
      const names =
        spec.type === 'short_var_declaration'
          ? namedChildren(spec.childForFieldName('left')!)
          : spec.type === 'const_spec' || spec.type === 'var_spec'
            ? spec.childrenForFieldName('name').filter((n): n is Node => !!n && n.type === 'identifier')
            : [];
      const nameNode = names[i];
      const declaration = nameNode?.type === 'identifier' ? specDeclaration(spec, nameNode) : undefined;
      return declaration ? { kind: 'declaration', declaration } : { kind: 'other' };
    }
    if (parent.type === 'expression_statement') return { kind: 'statement' };
    return { kind: 'other' };
  },

  declarationAt(node) {
    if (node.type !== 'identifier') return undefined;
    const parent = parentOf(node);
    if (!parent) return undefined;
    if (parent.type === 'const_spec' || parent.type === 'var_spec') return specDeclaration(parent, node);
    const spec = parentOf(parent);
    if (
      parent.type === 'expression_list' &&
      spec?.type === 'short_var_declaration' &&
      sameNode(spec.childForFieldName('left'), parent)
    ) {
      return specDeclaration(spec, node);
    }
    return undefined;
  },

  nameUse(node) {
    if (node.type !== 'identifier') return undefined;
    const parent = parentOf(node);
    if (!parent) return node;
    if (parent.type === 'const_spec' || parent.type === 'var_spec' || /parameter/.test(parent.type)) return undefined;
    const statement = parentOf(parent);
    if (
      parent.type === 'expression_list' &&
      (statement?.type === 'short_var_declaration' || statement?.type === 'assignment_statement') &&
      sameNode(statement.childForFieldName('left'), parent)
    )
      return undefined;
    return node;
  },

  imports(src) {
    const out: string[] = [];
    for (const m of src.matchAll(/^[ \t]*import[ \t]*(?:\(([^)]*)\)|(?:[\w.]+[ \t]+)?"([^"]+)")/gm)) {
      if (m[2]) out.push(m[2]);
      else for (const spec of m[1]!.matchAll(/"([^"]+)"/g)) out.push(spec[1]!);
    }
    return out;
  },

  facts: (imports) => importFacts(imports, CASSANDRA_MODULES, OTHER_SQL_MODULES),

  anchorOf: goAnchor,

  keyspaceWords: /\bKeyspace\b/,

  keyspaceAt(node, facts) {
    if (!facts.cassandra) return undefined;
    const parent = parentOf(node);
    // cluster.Keyspace = "shop"
    if (
      node.type === 'field_identifier' &&
      parent?.type === 'selector_expression' &&
      parentOf(parent)?.type === 'expression_list'
    ) {
      const assignment = parentOf(parentOf(parent));
      if (
        assignment?.type !== 'assignment_statement' ||
        !sameNode(assignment.childForFieldName('left'), parentOf(parent))
      )
        return undefined;
      const expr = namedChildren(assignment.childForFieldName('right')!)[
        indexIn(namedChildren(parentOf(parent)!), parent)
      ];
      return expr ? { expr, via: assignment } : undefined;
    }
    // gocql.ClusterConfig{Keyspace: "shop"}
    const keyed = parent?.type === 'literal_element' ? parentOf(parent) : undefined;
    if (
      node.type === 'identifier' &&
      keyed?.type === 'keyed_element' &&
      sameNode(keyed.childForFieldName('key'), parent)
    ) {
      const value = keyed.childForFieldName('value');
      const expr = value && namedChildren(value)[0];
      return expr ? { expr, via: keyed } : undefined;
    }
    return undefined;
  },
};
