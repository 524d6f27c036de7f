// Generates syntaxes/cql.tmLanguage.json (the TextMate grammar, scope source.cql) from the word lists below.
// Edit this file, then run: node scripts/vscode/generate-grammar.mjs
import { writeFileSync } from 'node:fs';
const words = (s) => s.trim().split(/\s+/).join('|');
const nativeTypes = words(`ascii bigint blob boolean counter date decimal double duration float inet int smallint text time timestamp timeuuid tinyint uuid varchar varint`);
const statementKw = words(`select insert update delete batch begin apply create alter drop truncate use grant revoke list describe desc
  add rename with where from into values set using if exists not and or in is of on to by order group limit per partition
  allow filtering distinct as json default unset ttl timestamp writetime maxwritetime contains key keys entries full
  primary clustering static compact storage table tables columnfamily keyspace keyspaces schema index custom view materialized
  type types function functions aggregate aggregates trigger role roles user users superuser nosuperuser password login options
  access datacenters cidrs permission permissions authorize modify execute all unlogged logged counter replace returns called
  null input language sfunc stype finalfunc initcond deterministic monotonic like between asc desc cast token
  masked unmask select_masked only hashed mbean mbeans cluster any norecursive identity superusers nologin generated
  internals ann count`);
const cqlshCommands = words(`capture clear cls consistency copy debug exit expand help history login paging quit serial show source
  tracing unicode elapsed`);
// AND/OR/NOT/IN/IS/LIKE/CONTAINS/BETWEEN are operators on values; the rest of the list stays keyword.other.
const logicalKw = words(`and or not in is like contains between`);
const functions = words(`token now uuid currenttimestamp currentdate currenttime currenttimeuuid todate totimestamp tounixtimestamp
  dateof unixtimestampof mintimeuuid maxtimeuuid ttl writetime maxwritetime count min max sum avg cast similarity_cosine
  similarity_euclidean similarity_dot_product blobasint intasblob textasblob blobastext floor round abs exp log log10
  collection_count collection_min collection_max collection_sum collection_avg map_keys map_values mask_null mask_default
  mask_replace mask_inner mask_outer mask_hash random_uuid murmur3 codepoints random`);

// Cassandra 5.0 reserved words: never a function or table name.
const reserved = words(`add allow alter and apply asc authorize batch begin by columnfamily create delete desc describe drop
  entries execute from full grant if in index infinity insert into is keyspace limit materialized modify nan norecursive
  not null of on or order primary rename revoke schema select set table to token truncate unlogged update use using view
  where with`);

const g = {
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
        2: { name: 'meta.directive.rules.cql', patterns: [{ match: '[a-z][a-z0-9-]*', name: 'entity.name.tag.rule-id.cql' }] },
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
      match:
        `(?i)\\b(into|from|update|on|truncate)(\\s+)(?!(?:${reserved}|keyspaces|all|role|roles|function|functions|input|json|distinct)\\b)([A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")+")(?:(\\.)([A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")+"))?`,
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
        { match: '(?i)(?<![\\w.])\\d+(?:mo|ms|us|µs|ns|y|w|d|h|m|s)(?:\\d+(?:mo|ms|us|µs|ns|y|w|d|h|m|s))*(?![\\w.])', name: 'constant.other.duration.cql' },
        // ISO 8601: P1Y2M3D, PT5S, P1DT2H, P2W, P0001-02-03T04:05:06
        { match: '(?i)(?<![\\w.])P\\d+W(?![\\w.])', name: 'constant.other.duration.iso8601.cql' },
        { match: '(?i)(?<![\\w.])P\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?![\\w.])', name: 'constant.other.duration.iso8601.cql' },
        {
          match: '(?i)(?<![\\w.])P(?=[\\dT])(?:\\d+Y)?(?:\\d+M)?(?:\\d+D)?(?:T(?=\\d)(?:\\d+H)?(?:\\d+M)?(?:\\d+S)?)?(?![\\w.])',
          name: 'constant.other.duration.iso8601.cql',
        },
      ],
    },
    blobs: { match: '(?<![\\w.])0[xX][0-9a-fA-F]*(?![\\w.])', name: 'constant.numeric.hex.blob.cql' },
    numbers: {
      patterns: [
        { match: '(?i)(?<![\\w.])(?:nan|infinity)(?![\\w.])', name: 'constant.numeric.float.special.cql' },
        { match: '(?<![\\w.])(?:\\d+\\.\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?|\\d+[eE][+-]?\\d+)(?![\\w.])', name: 'constant.numeric.float.cql' },
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
        { match: '(?<![\\w:]):(?:[A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")+")', name: 'variable.parameter.bind-marker.named.cql' },
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
        { match: `(?i)\\b(?!(?:${reserved}|values|key|keys|exists|static|contains|as|frozen|list|set|map|tuple|vector)\\b)[A-Za-z_][A-Za-z0-9_]*(?=\\s*\\()`, name: 'entity.name.function.cql' },
      ],
    },
    keywords: {
      patterns: [
        { match: `(?i)\\b(?:${logicalKw})\\b`, name: 'keyword.operator.logical.cql' },
        { match: `(?i)\\b(?:${statementKw})\\b`, name: 'keyword.other.cql' },
        { match: `(?i)^\\s*(?:${cqlshCommands})\\b`, name: 'keyword.other.cqlsh.cql' },
        { match: '(?i)\\b(?:ANY|ONE|TWO|THREE|QUORUM|ALL|LOCAL_QUORUM|EACH_QUORUM|SERIAL|LOCAL_SERIAL|LOCAL_ONE|CONSISTENCY)\\b', name: 'keyword.other.consistency.cql' },
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
writeFileSync(process.argv[2] ?? new URL('../../syntaxes/cql.tmLanguage.json', import.meta.url), JSON.stringify(g, null, 2) + '\n');
