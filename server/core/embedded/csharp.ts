// C#: regular, verbatim (`@"..."`), raw (`"""..."""`) and interpolated (`$"..."`, `$@"..."`, `$"""..."""`)
// strings, `+` concatenation, `const` / `static readonly` fields and locals assigned once, `string.Format`, and the
// DataStax C# driver's `Execute`, `ExecuteAsync`, `Prepare`, `PrepareAsync`, `new SimpleStatement(...)`,
// `cluster.Connect("ks")`, `ChangeKeyspace`, `WithDefaultKeyspace`.
import { backslashEscape, indentLines, refuse } from './encode';
import { anchor, driverReceiver, lastSegment } from './drivers';
import { decodeLines } from './java';
import {
  climbTo,
  commonExpression,
  compactText,
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
  indentWidth,
  isBlank,
  linesOf,
  readHex,
} from './value';

const CS_SIMPLE: Record<string, string> = {
  "'": "'",
  '"': '"',
  '\\': '\\',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  e: '\x1b',
};

/** Regular strings' escapes, and `{{` / `}}` in an interpolated one. */
function csEscape(braces: boolean): EscapeReader {
  return (src, i, end) => {
    const c = src[i]!;
    if (c === '{' || c === '}') return braces && src[i + 1] === c && i + 1 < end ? { text: c, length: 2 } : undefined;
    const d = src[i + 1];
    if (d === undefined || i + 1 >= end) return undefined;
    const simple = CS_SIMPLE[d];
    if (simple !== undefined) return { text: simple, length: 2 };
    const hex =
      d === 'x'
        ? readHex(src, i + 2, end, 1, 4)
        : d === 'u'
          ? readHex(src, i + 2, end, 4, 4)
          : d === 'U'
            ? readHex(src, i + 2, end, 8, 8)
            : undefined;
    const text = hex && codePoint(hex.value);
    return text ? { text, length: 2 + hex.length } : undefined;
  };
}

/** Verbatim strings' `""`, and `{{` / `}}` in an interpolated one. */
function verbatimEscape(braces: boolean): EscapeReader {
  return (src, i, end) => {
    const c = src[i]!;
    if (src[i + 1] !== c || i + 1 >= end) return undefined;
    return c === '"' || braces ? { text: c, length: 2 } : undefined;
  };
}

const regularEscape = csEscape(false);
const regularBraces = csEscape(true);
const verbatim = verbatimEscape(false);
const verbatimBraces = verbatimEscape(true);

function csLiteral(node: Node, src: string, evaluate: Evaluate): Part[] | undefined {
  const start = node.startIndex;
  const end = node.endIndex;
  const head = /^(\$*@?\$*)("+)/.exec(src.slice(start, Math.min(end, start + 40)));
  if (!head) return undefined;
  const dollars = (head[1]!.match(/\$/g) ?? []).length;
  const isVerbatim = head[1]!.includes('@');
  const quotes = head[2]!.length >= 3 ? head[2]!.length : 1;
  const contentStart = start + head[1]!.length + quotes;
  const contentEnd = end - quotes;
  const holes: Interpolation[] = [];
  for (const child of namedChildren(node)) {
    if (child.type !== 'interpolation') continue;
    const expression = namedChildren(child).find(
      (c) =>
        c.type !== 'interpolation_brace' &&
        c.type !== 'interpolation_alignment_clause' &&
        c.type !== 'interpolation_format_clause',
    );
    const plain = namedChildren(child).every(
      (c) => c.type !== 'interpolation_alignment_clause' && c.type !== 'interpolation_format_clause',
    );
    const value = expression && plain ? evaluate(expression) : undefined;
    holes.push(
      value
        ? { start: child.startIndex, end: child.endIndex, parts: value }
        : { start: child.startIndex, end: child.endIndex },
    );
  }
  const out = new ValueBuilder();
  const braces = (text: string): string => (dollars > 0 ? text.replace(/[{}]/g, '$&$&') : text);
  if (quotes >= 3) {
    const literal: HostLiteral = { start, end, encode: () => refuse('cannot write in a C# raw string literal here') };
    const lines = linesOf(src, contentStart, contentEnd);
    if (lines.length === 1) {
      const single: HostLiteral = {
        start,
        end,
        encode: (text) =>
          /[\r\n]/.test(text) || text.includes('"'.repeat(quotes)) || (dollars > 0 && /[{}]/.test(text))
            ? refuse('a one-line C# raw string cannot hold this text')
            : text,
      };
      decodeRange(out, single, src, contentStart, contentEnd, undefined, holes);
      return out.parts;
    }
    // Multi-line: the first and last lines are the delimiters' own; the last line's white space is every line's indentation.
    const last = lines[lines.length - 1]!;
    if (!isBlank(src, last.start, last.end)) return decodeRaw(out, literal, src, contentStart, contentEnd, holes);
    const width = last.end - last.start;
    const indent = src.slice(last.start, last.end);
    const multi: HostLiteral = {
      start,
      end,
      encode: (text) =>
        text.includes('"'.repeat(quotes)) || (dollars > 0 && /[{}]/.test(text))
          ? refuse('a C# raw string cannot hold this text')
          : indentLines(text, indent),
    };
    const body = lines.slice(1, -1);
    decodeLines(
      out,
      multi,
      src,
      body.map((l, i) => ({
        keep: isBlank(src, l.start, l.end)
          ? undefined
          : ([Math.min(l.start + Math.min(width, indentWidth(src, l.start, l.end)), l.end), l.end] as [number, number]),
        breakAt: i < body.length - 1 ? ([l.end, l.breakEnd] as [number, number]) : undefined,
      })),
      undefined,
      holes,
    );
    return out.parts;
  }
  const literal: HostLiteral = isVerbatim
    ? { start, end, encode: (text) => braces(text.replace(/"/g, '""')) }
    : { start, end, encode: (text) => braces(backslashEscape(text, { escaped: '"', newline: 'escape' })) };
  const escape = isVerbatim ? (dollars > 0 ? verbatimBraces : verbatim) : dollars > 0 ? regularBraces : regularEscape;
  decodeRange(
    out,
    literal,
    src,
    contentStart,
    contentEnd,
    escape,
    holes,
    isVerbatim ? (dollars > 0 ? '"{}' : '"') : dollars > 0 ? '\\{}' : '\\',
  );
  return out.parts;
}

function decodeRaw(
  out: ValueBuilder,
  literal: HostLiteral,
  src: string,
  from: number,
  to: number,
  holes: Interpolation[],
): Part[] {
  decodeRange(out, literal, src, from, to, undefined, holes);
  return out.parts;
}

const LITERALS = new Set([
  'string_literal',
  'verbatim_string_literal',
  'raw_string_literal',
  'interpolated_string_expression',
]);
const FUNCTIONS = new Set([
  'method_declaration',
  'constructor_declaration',
  'local_function_statement',
  'lambda_expression',
  'anonymous_method_expression',
  'accessor_declaration',
]);

function argumentsOf(list: Node): { args: Node[]; keywords: Map<string, Node> } {
  const args: Node[] = [];
  const keywords = new Map<string, Node>();
  for (const argument of namedChildren(list)) {
    const children = namedChildren(argument);
    const value = children[children.length - 1];
    if (!value) continue;
    const name =
      argument.childForFieldName('name')?.text ??
      children.find((c) => c.type === 'name_colon')?.text.replace(/\s*:$/, '');
    if (name && children.length > 1) keywords.set(name, value);
    else args.push(value);
  }
  return { args, keywords };
}

function callShape(node: Node | null | undefined): CallShape | undefined {
  if (!node) return undefined;
  if (node.type === 'invocation_expression') {
    const fn = node.childForFieldName('function');
    const list = node.childForFieldName('arguments');
    if (!fn || !list) return undefined;
    const { args, keywords } = argumentsOf(list);
    if (fn.type === 'member_access_expression') {
      const name = fn.childForFieldName('name')?.text.replace(/<.*$/s, '');
      return name
        ? { node, name, receiver: compactText(fn.childForFieldName('expression')), isNew: false, args, keywords }
        : undefined;
    }
    return { node, name: fn.text.replace(/<.*$/s, ''), isNew: false, args, keywords };
  }
  if (node.type === 'object_creation_expression') {
    const type = node.childForFieldName('type')?.text;
    const list = node.childForFieldName('arguments');
    if (!type || !list) return undefined;
    return { node, name: lastSegment(type), isNew: true, ...argumentsOf(list) };
  }
  return undefined;
}

/** The value of a variable declarator: the expression after its `=`. */
function declaratorValue(declarator: Node): Node | undefined {
  const children = declarator.children;
  const equals = children.findIndex((c) => c?.type === '=');
  return equals >= 0 ? children.slice(equals + 1).find((c): c is Node => !!c && c.isNamed) : undefined;
}

function declarationOf(declarator: Node): Declaration | undefined {
  const nameNode = declarator.childForFieldName('name');
  const value = declaratorValue(declarator);
  const statement = parentOf(parentOf(declarator));
  if (!nameNode || !value || !statement) return undefined;
  const modifiers = namedChildren(statement)
    .filter((c) => c.type === 'modifier')
    .map((c) => c.text);
  if (statement.type === 'field_declaration') {
    const constant = modifiers.includes('const') || (modifiers.includes('static') && modifiers.includes('readonly'));
    if (!constant) return undefined;
    const file = treeRoot(statement);
    return {
      name: nameNode.text,
      nameStart: nameNode.startIndex,
      value,
      scope: file,
      constant: true,
      reassignable: false,
    };
  }
  if (statement.type === 'local_declaration_statement') {
    let scope: Node | null = parentOf(statement);
    while (scope && !FUNCTIONS.has(scope.type)) scope = parentOf(scope);
    if (!scope) return undefined;
    return {
      name: nameNode.text,
      nameStart: nameNode.startIndex,
      value,
      scope,
      constant: false,
      reassignable: !modifiers.includes('const'),
    };
  }
  return undefined;
}

const CASSANDRA_NAMESPACES = /^(?:Cassandra|Dse)(?:\.|$)/;
const OTHER_SQL_NAMESPACES =
  /^(?:System\.Data|Microsoft\.Data\.(?:SqlClient|Sqlite)|Npgsql|Dapper|Microsoft\.EntityFrameworkCore|MySql\.Data|MySqlConnector|Oracle\.ManagedDataAccess|LinqToDB|NHibernate|ServiceStack\.OrmLite|SqlKata|RepoDb|PetaPoco)(?:\.|$)/;

const SESSION_CALLS = new Set(['Execute', 'ExecuteAsync', 'Prepare', 'PrepareAsync']);
const OTHER_SQL_CALLS = new Set([
  'Query',
  'QueryAsync',
  'QueryFirst',
  'QueryFirstOrDefault',
  'QuerySingle',
  'ExecuteScalar',
  'ExecuteReader',
  'FromSqlRaw',
  'ExecuteSqlRaw',
  'SqlQuery',
  'ExecuteSqlRawAsync',
  'FromSqlInterpolated',
]);

function csAnchor(context: Context, facts: FileFacts) {
  if (context.kind !== 'argument' || context.index !== 0) return undefined;
  const { call } = context;
  if (call.isNew) {
    if (call.name === 'SimpleStatement')
      return facts.otherSql && !facts.cassandra ? 'sql' : anchor('new SimpleStatement', call.node);
    return /Command$/.test(call.name) ? 'sql' : undefined;
  }
  if (OTHER_SQL_CALLS.has(call.name)) return 'sql';
  if (!SESSION_CALLS.has(call.name)) return undefined;
  return driverReceiver(call.receiver, facts) === 'anchor'
    ? anchor(`${lastSegment(call.receiver ?? '') || 'session'}.${call.name}`, call.node)
    : 'sql';
}

export const csharp: LanguageSupport = {
  commentPrefix: '//',

  literalAt: (node) => climbTo(node, LITERALS),

  classify(node): Expr {
    if (LITERALS.has(node.type)) return { kind: 'literal', node };
    if (node.type === 'member_access_expression') {
      const object = node.childForFieldName('expression');
      const name = node.childForFieldName('name');
      return object &&
        name &&
        (object.type === 'this_expression' || object.type === 'this' || /^[A-Z]/.test(object.text))
        ? { kind: 'name', name: name.text }
        : { kind: 'other' };
    }
    if (node.type === 'invocation_expression') {
      const call = callShape(node);
      if (
        call?.name === 'Format' &&
        /^(?:string|String|System\.String)$/.test(call.receiver ?? '') &&
        call.args.length >= 1
      ) {
        return { kind: 'format', template: call.args[0]!, args: call.args.slice(1), style: 'csharp' };
      }
      return { kind: 'other' };
    }
    return commonExpression(node) ?? { kind: 'other' };
  },

  decodeLiteral: (node, src, _mode, evaluate) => csLiteral(node, src, evaluate),

  contextOf(expr): Context {
    const parent = parentOf(expr);
    if (!parent) return { kind: 'other' };
    if (parent.type === 'argument' && parentOf(parent)?.type === 'argument_list') {
      const call = callShape(parentOf(parentOf(parent)));
      if (!call) return { kind: 'other' };
      const index = indexIn(call.args, expr);
      const keyword = index < 0 ? [...call.keywords].find(([, v]) => sameNode(v, expr))?.[0] : undefined;
      return { kind: 'argument', call, index, ...(keyword ? { keyword } : {}) };
    }
    if (parent.type === 'variable_declarator' && sameNode(declaratorValue(parent), expr)) {
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
      parent?.type !== 'variable_declarator' ||
      !sameNode(parent.childForFieldName('name'), node)
    )
      return undefined;
    return declarationOf(parent);
  },

  nameUse(node) {
    if (node.type !== 'identifier') return undefined;
    const parent = parentOf(node);
    if (!parent) return node;
    if (parent.type === 'member_access_expression' && sameNode(parent.childForFieldName('name'), node)) {
      return csharp.classify(parent).kind === 'name' ? parent : undefined;
    }
    if (
      /declarator|declaration|parameter|name_colon|using/.test(parent.type) &&
      sameNode(parent.childForFieldName('name'), node)
    )
      return undefined;
    return node;
  },

  imports: (src) =>
    [...src.matchAll(/^[ \t]*(?:global[ \t]+)?using[ \t]+(?:static[ \t]+)?(?:\w+[ \t]*=[ \t]*)?([\w.]+)[ \t]*;/gm)].map(
      (m) => m[1]!,
    ),

  facts: (imports) => importFacts(imports, CASSANDRA_NAMESPACES, OTHER_SQL_NAMESPACES),

  anchorOf: csAnchor,

  keyspaceWords: /\b(?:Connect|ChangeKeyspace|WithDefaultKeyspace)\b/,

  keyspaceAt(node, facts) {
    const access = parentOf(node);
    const call =
      access?.type === 'member_access_expression' && sameNode(access.childForFieldName('name'), node)
        ? callShape(parentOf(access))
        : undefined;
    if (!call || !facts.cassandra || call.args.length !== 1) return undefined;
    return { expr: call.args[0]!, via: call.node };
  },
};
