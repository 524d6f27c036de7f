// The corpus of real CQL: valid files parse without syntax errors; broken files get errors at the broken spot
// while their valid statements still parse; DataStax-only syntax gets a clear message.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusFiles, corpusName, readText } from '../helpers/corpus';
import { parseCql } from '../../grammar';
import { LineIndex } from '../../grammar/line-index';

function errorsOf(file: string): string {
  const text = readText(file);
  const lines = new LineIndex(text);
  return parseCql(text)
    .errors.map((e) => `${lines.location(e.range.start).line}:${lines.location(e.range.start).column} ${e.message}`)
    .join('\n');
}

describe('corpus: valid CQL parses without syntax errors', () => {
  for (const folder of ['cassandra-docs', 'killrvideo']) {
    const files = corpusFiles(folder);
    test(`${folder} has files`, () => assert.ok(files.length > 0));
    for (const file of files) {
      test(corpusName(file), () => {
        const result = parseCql(readText(file));
        assert.equal(errorsOf(file), '');
        assert.ok(result.statements.length > 0);
        assert.ok(result.statements.every((s) => s.kind !== 'Invalid'));
      });
    }
  }

  test('cqlsh commands are ShellCommand statements', () => {
    const shell = corpusFiles('cassandra-docs')
      .flatMap((f) => parseCql(readText(f)).statements)
      .filter((s) => s.kind === 'ShellCommand');
    const commands = new Set(shell.map((s) => (s.kind === 'ShellCommand' ? s.command : '')));
    for (const c of ['SOURCE', 'CAPTURE', 'LOGIN']) assert.ok(commands.has(c), `missing ${c}`);
  });

  test('DESCRIBE is a CQL statement (OtherStatement)', () => {
    const statements = corpusFiles('cassandra-docs').flatMap((f) => parseCql(readText(f)).statements);
    assert.ok(statements.some((s) => s.kind === 'Other' && s.statementType === 'DESCRIBE TABLE'));
    assert.ok(statements.some((s) => s.kind === 'Other' && s.statementType === 'DESCRIBE KEYSPACE'));
  });
});

/** Per broken file: the error lines expected, and the statement kinds that must still parse. */
const BROKEN: Record<string, { errorLines: number[]; kinds: string[]; message?: RegExp }> = {
  'create-table-compaction-options.cql': {
    errorLines: [2],
    kinds: ['Invalid'],
    message: /expected '\(' or 'LIKE' in CREATE TABLE, found '\.'/,
  },
  'create_ks_trans_repl.cql': {
    errorLines: [2],
    kinds: ['Invalid'],
    message: /expected '\}' or ',' in map or set literal, found 'DC2'/,
  },
  // Line 11's bare `frozen` is a (nonexistent) user type name to Cassandra's grammar too: not a syntax error.
  'function_dollarsign.cql': {
    errorLines: [7, 8],
    kinds: ['CreateFunction', 'Invalid', 'Invalid', 'CreateType', 'CreateFunction'],
    message: /found '\.\.'/,
  },
  'function_overload.cql': { errorLines: [1, 2], kinds: ['Invalid', 'Invalid'] },
  'function_udfcontext.cql': {
    errorLines: [2],
    kinds: ['CreateType', 'Invalid'],
    message: /unexpected character '\\'/,
  },
  'list.cql': { errorLines: [8], kinds: ['CreateTable', 'Insert', 'Update'], message: /missing ';' before 'INSERT'/ },
  'list_select_perm.cql': { errorLines: [1], kinds: ['Invalid'], message: /found 'PERMISSIONS'/ },
  'no_revoke.cql': { errorLines: [1], kinds: ['Invalid'], message: /expected a CQL statement/ },
  'sai/insert-vector-data-cycling.cql': {
    errorLines: [2],
    kinds: ['Invalid', 'Insert', 'Insert', 'Insert', 'Insert', 'Insert', 'Insert'],
    message: /expected '\)' or ',' in the INSERT column list, found 'VALUES'/,
  },
  'select_statement.cql': {
    errorLines: [11],
    kinds: ['Select', 'Select', 'Select', 'Select', 'Select'],
    message: /missing ';' before 'SELECT'/,
  },
  'spec_retry_values.cql': { errorLines: [1], kinds: ['Invalid'], message: /found 'min'/ },
  'vector-search/vector-search-cycling.cql': {
    errorLines: [25],
    kinds: [
      'CreateKeyspace',
      'Use',
      'CreateTable',
      'AlterTable',
      'Invalid',
      'CreateIndex',
      'CreateIndex',
      'Insert',
      'Insert',
      'Insert',
      'Insert',
      'Insert',
      'Insert',
      'Insert',
      'Select',
      'Select',
    ],
    message: /found '<'/,
  },
  'vector.cql': { errorLines: [8], kinds: ['CreateTable', 'Insert', 'Update'], message: /missing ';' before 'INSERT'/ },
};

describe('corpus: broken CQL gets errors at the broken spot', () => {
  const files = corpusFiles('cassandra-docs-broken');
  test('every broken file has an expectation', () => {
    assert.deepEqual(files.map((f) => corpusName(f, 'cassandra-docs-broken')).sort(), Object.keys(BROKEN).sort());
  });
  for (const file of files) {
    const name = corpusName(file, 'cassandra-docs-broken');
    test(name, () => {
      const expected = BROKEN[name];
      const text = readText(file);
      const result = parseCql(text);
      assert.ok(result.errors.length > 0, 'expected at least one syntax error');
      assert.deepEqual(
        result.errors.map((e) => new LineIndex(text).location(e.range.start).line),
        expected.errorLines,
        errorsOf(file),
      );
      assert.deepEqual(
        result.statements.map((s) => s.kind),
        expected.kinds,
      );
      if (expected.message) assert.match(result.errors[0].message, expected.message);
    });
  }
});

describe('corpus: DataStax-only syntax gets a clear error', () => {
  test('OR in WHERE', () => {
    for (const file of corpusFiles('dialects/datastax/sai')) {
      const result = parseCql(readText(file));
      assert.equal(result.errors.length, 1);
      assert.match(result.errors[0].message, /'OR' is not supported in a CQL WHERE clause/);
      assert.equal(readText(file).slice(result.errors[0].range.start, result.errors[0].range.end), 'OR');
    }
  });
  test('RESTRICT ROWS', () => {
    const [file] = corpusFiles('dialects/datastax').filter((f) => f.endsWith('cyclist_category-table.cql'));
    const text = readText(file);
    const result = parseCql(text);
    assert.equal(result.errors.length, 1);
    assert.match(result.errors[0].message, /'RESTRICT ROWS' is DataStax Enterprise syntax/);
    assert.equal(new LineIndex(text).location(result.errors[0].range.start).line, 45);
    // Everything around it still parses.
    assert.equal(result.statements.filter((s) => s.kind === 'Invalid').length, 1);
    assert.ok(result.statements.filter((s) => s.kind === 'Insert').length >= 16);
  });
});
