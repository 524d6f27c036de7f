// syntaxes/cql.tmLanguage.json, the TextMate grammar (scope source.cql) VS Code and other editors highlight CQL
// with: written by `npm run generate` (scripts/generate-docs.ts), its keyword, type, reserved-word and cqlsh
// command lists read from grammar/lexer.ts, so that a keyword added to the lexer is highlighted without a second
// list to keep. What only highlighting knows (the built-in functions, the words that are operators, the
// consistency levels) is listed here. test/extension/grammar.test.ts checks what it scopes; the generated-files
// test fails while the committed file is stale.
import {
  BASIC_UNRESERVED_KEYWORDS,
  NATIVE_TYPE_NAMES,
  OTHER_UNRESERVED_KEYWORDS,
  RESERVED_KEYWORDS,
  SHELL_COMMANDS,
} from '../grammar/lexer';

export const TEXTMATE_GRAMMAR_PATH = 'syntaxes/cql.tmLanguage.json';

const words = (s: string): string[] => s.trim().split(/\s+/);
/** A regex alternation of words, lower-cased, each once, sorted (the lexer's lists are case-insensitive). */
const alternation = (list: readonly string[]): string =>
  [...new Set(list.map((w) => w.toLowerCase()))].sort().join('|');

/** Number constants (NaN, Infinity) are keywords to the lexer and numbers to the highlighter. */
const NUMBER_WORDS = new Set(['NAN', 'INFINITY']);

const nativeTypes = alternation(NATIVE_TYPE_NAMES);
/** Every keyword of the lexer that is not a native type name (those are types) or a number. */
const statementKw = alternation(
  [...RESERVED_KEYWORDS, ...BASIC_UNRESERVED_KEYWORDS, ...OTHER_UNRESERVED_KEYWORDS].filter(
    (w) => !NUMBER_WORDS.has(w),
  ),
);
const cqlshCommands = alternation(SHELL_COMMANDS);
// AND/OR/NOT/IN/IS/LIKE/CONTAINS/BETWEEN are operators on values; the rest of the list stays keyword.other.
const logicalKw = alternation(words(`and or not in is like contains between`));
const functions = alternation(
  words(`token now uuid currenttimestamp currentdate currenttime currenttimeuuid todate totimestamp tounixtimestamp
  dateof unixtimestampof mintimeuuid maxtimeuuid ttl writetime maxwritetime count min max sum avg cast similarity_cosine
  similarity_euclidean similarity_dot_product blobasint intasblob textasblob blobastext floor round abs exp log log10
  collection_count collection_min collection_max collection_sum collection_avg map_keys map_values mask_null mask_default
  mask_replace mask_inner mask_outer mask_hash random_uuid murmur3 codepoints random`),
);
/** Reserved words: never a function or table name. */
const reserved = alternation(RESERVED_KEYWORDS);

/** The grammar, as an object. */
export function textMateGrammar(): Record<string, unknown> {
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'CQL',
    scopeName: 'source.cql',
    fileTypes: ['cql', 'cqlsh'],
    patterns: [{ include: '#comments' }, { include: '#statement-names' }, { include: '#expression' }],
    repository: {
      comments: {
        patterns: [
          {
            name: 'comment.line.double-dash.shard-annotation.cql',
            begin: '(--|//)\\s*(@shard)\\b',
            beginCaptures: {
              1: { name: 'punctuation.definition.comment.cql' },
              2: { name: 'storage.type.annotation.shard.cql' },
            },
            end: '$',
            contentName: 'meta.annotation.shard.cql',
            patterns: [{ include: '#annotation-expression' }],
          },
          {
            name: 'comment.line.double-dash.cql',
            begin: '--',
            beginCaptures: { 0: { name: 'punctuation.definition.comment.cql' } },
            end: '$',
            patterns: [{ include: '#directives' }],
          },
          {
            name: 'comment.line.double-slash.cql',
            begin: '//',
            beginCaptures: { 0: { name: 'punctuation.definition.comment.cql' } },
            end: '$',
            patterns: [{ include: '#directives' }],
          },
          {
            name: 'comment.block.cql',
            begin: '/\\*',
            beginCaptures: { 0: { name: 'punctuation.definition.comment.begin.cql' } },
            end: '\\*/',
            endCaptures: { 0: { name: 'punctuation.definition.comment.end.cql' } },
            patterns: [{ include: '#directives' }],
          },
        ],
      },
      directives: {
        // `-- cqlint-disable-next-line hot-partition, unbounded-partition` and friends.
        match: '(?<![\\w-])(cqlint-(?:disable-next-line|disable-line|disable|enable))\\b((?:[ \\t,]+[a-z][a-z0-9-]*)*)',
        captures: {
          1: { name: 'keyword.control.directive.cqlint.cql' },
          2: {
            name: 'meta.directive.rules.cql',
            patterns: [{ match: '[a-z][a-z0-9-]*', name: 'entity.name.tag.rule-id.cql' }],
          },
        },
      },
      'annotation-expression': {
        patterns: [
          { match: '(?i)\\b(murmur3|codepoints|hash|random)(?=\\s*\\()', name: 'support.function.shard.cql' },
          { include: '#quoted-identifiers' },
          { include: '#numbers' },
          { include: '#operators' },
          { include: '#punctuation' },
          { match: '[A-Za-z_][A-Za-z0-9_$]*', name: 'variable.other.column.cql' },
        ],
      },
      'statement-names': {
        // The object a DDL statement defines: CREATE TABLE [IF NOT EXISTS] ks.name
        match:
          '(?i)\\b(create|alter|drop)(\\s+(?:or\\s+replace\\s+)?(?:custom\\s+)?)(table|columnfamily|type|materialized\\s+view|index|keyspace|function|aggregate|trigger|role|user)\\b(\\s+(?:if\\s+(?:not\\s+)?exists\\s+)?)(?!(?:on|if|as|with)\\b)([A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")+")?(?:(\\.)([A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")+"))?',
        captures: {
          1: { name: 'keyword.other.ddl.cql' },
          2: { patterns: [{ match: '(?i)\\b(or|replace|custom)\\b', name: 'keyword.other.ddl.cql' }] },
          3: { name: 'keyword.other.ddl.cql' },
          4: { patterns: [{ match: '(?i)\\b(if|not|exists)\\b', name: 'keyword.other.cql' }] },
          5: { name: 'entity.name.type.cql' },
          6: { name: 'punctuation.separator.period.cql' },
          7: { name: 'entity.name.type.cql' },
        },
      },
      'table-references': {
        // INSERT INTO t (...), FROM ks.t, UPDATE t, ON t (col), TRUNCATE t: a table, not a function call.
        match: `(?i)\\b(into|from|update|on|truncate)(\\s+)(?!(?:${reserved}|keyspaces|all|role|roles|function|functions|input|json|distinct)\\b)([A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")+")(?:(\\.)([A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")+"))?`,
        captures: {
          1: { name: 'keyword.other.cql' },
          3: { name: 'variable.other.table.cql' },
          4: { name: 'punctuation.separator.period.cql' },
          5: { name: 'variable.other.table.cql' },
        },
      },
      expression: {
        patterns: [
          { include: '#comments' },
          { include: '#table-references' },
          { include: '#strings' },
          { include: '#dollar-strings' },
          { include: '#quoted-identifiers' },
          { include: '#uuids' },
          { include: '#durations' },
          { include: '#blobs' },
          { include: '#numbers' },
          { include: '#constants' },
          { include: '#bind-markers' },
          { include: '#types' },
          { include: '#functions' },
          { include: '#keywords' },
          { include: '#operators' },
          { include: '#punctuation' },
          { include: '#identifiers' },
        ],
      },
      strings: {
        name: 'string.quoted.single.cql',
        begin: "'",
        beginCaptures: { 0: { name: 'punctuation.definition.string.begin.cql' } },
        end: "'(?!')",
        endCaptures: { 0: { name: 'punctuation.definition.string.end.cql' } },
        patterns: [{ match: "''", name: 'constant.character.escape.cql' }],
      },
      'dollar-strings': {
        // $$ ... $$: a string constant without escapes, typically a function body (Java/JavaScript).
        name: 'string.quoted.other.dollar.cql',
        begin: '\\$\\$',
        beginCaptures: { 0: { name: 'punctuation.definition.string.begin.cql' } },
        end: '\\$\\$',
        endCaptures: { 0: { name: 'punctuation.definition.string.end.cql' } },
        contentName: 'meta.embedded.block.function-body.cql',
      },
      'quoted-identifiers': {
        name: 'variable.other.quoted.cql',
        begin: '"',
        beginCaptures: { 0: { name: 'punctuation.definition.identifier.begin.cql' } },
        end: '"(?!")',
        endCaptures: { 0: { name: 'punctuation.definition.identifier.end.cql' } },
        patterns: [{ match: '""', name: 'constant.character.escape.cql' }],
      },
      uuids: {
        match: '\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b',
        name: 'constant.other.uuid.cql',
      },
      durations: {
        patterns: [
          // 1h30m, 12mo, 500ms, 3us / 3µs, 10ns
          {
            match: '(?i)(?<![\\w.])\\d+(?:mo|ms|us|µs|ns|y|w|d|h|m|s)(?:\\d+(?:mo|ms|us|µs|ns|y|w|d|h|m|s))*(?![\\w.])',
            name: 'constant.other.duration.cql',
          },
          // ISO 8601: P1Y2M3D, PT5S, P1DT2H, P2W, P0001-02-03T04:05:06
          { match: '(?i)(?<![\\w.])P\\d+W(?![\\w.])', name: 'constant.other.duration.iso8601.cql' },
          {
            match: '(?i)(?<![\\w.])P\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?![\\w.])',
            name: 'constant.other.duration.iso8601.cql',
          },
          {
            match:
              '(?i)(?<![\\w.])P(?=[\\dT])(?:\\d+Y)?(?:\\d+M)?(?:\\d+D)?(?:T(?=\\d)(?:\\d+H)?(?:\\d+M)?(?:\\d+S)?)?(?![\\w.])',
            name: 'constant.other.duration.iso8601.cql',
          },
        ],
      },
      blobs: { match: '(?<![\\w.])0[xX][0-9a-fA-F]*(?![\\w.])', name: 'constant.numeric.hex.blob.cql' },
      numbers: {
        patterns: [
          { match: '(?i)(?<![\\w.])(?:nan|infinity)(?![\\w.])', name: 'constant.numeric.float.special.cql' },
          {
            match: '(?<![\\w.])(?:\\d+\\.\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?|\\d+[eE][+-]?\\d+)(?![\\w.])',
            name: 'constant.numeric.float.cql',
          },
          { match: '(?<![\\w.])\\d+(?![\\w.])', name: 'constant.numeric.integer.cql' },
        ],
      },
      constants: {
        patterns: [
          { match: '(?i)\\b(?:true|false)\\b', name: 'constant.language.boolean.cql' },
          { match: '(?i)\\bnull\\b', name: 'constant.language.null.cql' },
        ],
      },
      'bind-markers': {
        patterns: [
          { match: '\\?', name: 'variable.parameter.bind-marker.positional.cql' },
          {
            match: '(?<![\\w:]):(?:[A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")+")',
            name: 'variable.parameter.bind-marker.named.cql',
          },
        ],
      },
      types: {
        patterns: [
          { match: `(?i)\\b(?:frozen|list|set|map|tuple|vector)(?=\\s*<)`, name: 'storage.type.collection.cql' },
          { match: `(?i)\\b(?:${nativeTypes})\\b(?!\\s*\\()`, name: 'storage.type.native.cql' },
        ],
      },
      functions: {
        patterns: [
          { match: `(?i)\\b(?:${functions})(?=\\s*\\()`, name: 'support.function.builtin.cql' },
          {
            match: `(?i)\\b(?!(?:${reserved}|values|key|keys|exists|static|contains|as|frozen|list|set|map|tuple|vector)\\b)[A-Za-z_][A-Za-z0-9_]*(?=\\s*\\()`,
            name: 'entity.name.function.cql',
          },
        ],
      },
      keywords: {
        patterns: [
          { match: `(?i)\\b(?:${logicalKw})\\b`, name: 'keyword.operator.logical.cql' },
          { match: `(?i)\\b(?:${statementKw})\\b`, name: 'keyword.other.cql' },
          { match: `(?i)^\\s*(?:${cqlshCommands})\\b`, name: 'keyword.other.cqlsh.cql' },
          {
            match:
              '(?i)\\b(?:ANY|ONE|TWO|THREE|QUORUM|ALL|LOCAL_QUORUM|EACH_QUORUM|SERIAL|LOCAL_SERIAL|LOCAL_ONE|CONSISTENCY)\\b',
            name: 'keyword.other.consistency.cql',
          },
        ],
      },
      operators: {
        patterns: [
          { match: '<=|>=|!=|=|<|>', name: 'keyword.operator.comparison.cql' },
          { match: '\\+=|-=', name: 'keyword.operator.assignment.compound.cql' },
          { match: '[-+*/%]', name: 'keyword.operator.arithmetic.cql' },
        ],
      },
      punctuation: {
        patterns: [
          { match: ';', name: 'punctuation.terminator.statement.cql' },
          { match: ',', name: 'punctuation.separator.comma.cql' },
          { match: '\\.', name: 'punctuation.separator.period.cql' },
          { match: '[()]', name: 'punctuation.section.parens.cql' },
          { match: '[\\[\\]]', name: 'punctuation.section.brackets.cql' },
          { match: '[{}]', name: 'punctuation.section.braces.cql' },
        ],
      },
      identifiers: { match: '[A-Za-z_][A-Za-z0-9_$]*', name: 'variable.other.cql' },
    },
  };
}

/** The grammar file's text. */
export function textMateGrammarSource(): string {
  return `${JSON.stringify(textMateGrammar(), null, 2)}\n`;
}
