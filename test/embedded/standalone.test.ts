// A literal that reaches no driver call is a statement only when it parses as one complete statement; the reader
// turns prose down by its shape before parsing it (a failed parse costs milliseconds). The shape check must never
// turn down a real statement: every statement of the CQL corpus (test/fixtures/corpus: real schemas and queries)
// that parses as one complete statement of those kinds is still one, as written, in lower case, on one line and
// after a comment; and the prose of log messages is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseCql } from '../../grammar';
import { standaloneStatement } from '../../server/core/embedded';

const CORPUS = resolve(__dirname, '..', 'fixtures', 'corpus');
const KINDS = /^(?:Select|Insert|Update|Delete|Batch|Truncate|Create\w+|Alter\w+|Drop\w+)$/;

function cqlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return cqlFiles(path);
      return name.endsWith('.cql') ? [path] : [];
    });
}

/** One complete statement of the kinds a literal may be on its own, by the parser alone. */
function parsesAsOne(text: string): boolean {
  const result = parseCql(text);
  return result.errors.length === 0 && result.statements.length === 1 && KINDS.test(result.statements[0]!.kind);
}

test('every complete statement of the corpus is read as a statement', () => {
  const missed: string[] = [];
  let checked = 0;
  for (const file of cqlFiles(CORPUS)) {
    const text = readFileSync(file, 'utf8');
    for (const statement of parseCql(text).statements) {
      const own = text.slice(statement.range.start, statement.range.end);
      for (const variant of [
        own,
        own.toLowerCase(),
        own.replace(/\s+/g, ' '),
        `-- a comment\n${own}`,
        `/* a comment */ ${own}`,
      ]) {
        if (!parsesAsOne(variant)) continue;
        checked++;
        if (!standaloneStatement(variant)) missed.push(`${file.slice(CORPUS.length + 1)}: ${variant.slice(0, 120)}`);
      }
    }
  }
  assert.ok(checked > 1000, `${checked} statements checked`);
  assert.deepEqual(missed, []);
});

test('log messages that start with a statement keyword are not statements', () => {
  for (const prose of [
    'Select failed',
    'Insert failed for user %s: %s',
    'update of %s done',
    'Delete requested by user',
    'Drop the cache of',
    'Select count failed for video {}: no row',
    'Truncate the log first',
    'Create table failed',
    'select from the list below',
  ]) {
    assert.equal(standaloneStatement(prose), false, prose);
  }
  assert.equal(standaloneStatement('SELECT release_version FROM system.local'), true);
});
