// Application code in the Project: its statements count as a .cql file's do (the model, the read-aware advice,
// every rule), its findings show at the host file's positions, holes silence what they could change, and the
// fixes' edits are written into its string literals.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import { loadHostLanguages } from '../../server/core/embedded';
import { applyEdits } from '../../server/core/fixes/text';
import { fixesForFinding } from '../../server/core/fixes';
import { projectFixContext } from '../../server/core/fixes/environment';
import type { Finding } from '../../server/core/findings/findings';
import { JAVA, SCHEMA } from './app-fixtures';

const ROOT = '/virtual/app';
/** A read of a day's orders, its string split over two lines (Python's implicit concatenation). */
const PYTHON = `from cassandra.cluster import Cluster

session = Cluster(['127.0.0.1']).connect('shop')

def orders_of_day(day):
    return session.execute("SELECT order_id, total FROM orders_by_day "
                           "WHERE day = %s", (day,))
`;

function project(files: Record<string, string>, config = {}): Project {
  const p = new Project({ config });
  for (const [name, text] of Object.entries(files)) p.setFile(`${ROOT}/${name}`, text);
  return p;
}

/** The host text a finding underlines. */
function underlined(p: Project, file: string, finding: Finding): string {
  const lines = p.sourceLines(`${ROOT}/${file}`)!;
  const text = p.sourceText(`${ROOT}/${file}`)!;
  const start = lines.offsetAt({ line: finding.range.start.line - 1, character: finding.range.start.column - 1 });
  const end = lines.offsetAt({ line: finding.range.end.line - 1, character: finding.range.end.column - 1 });
  return text.slice(start, end);
}

before(() => loadHostLanguages(['java', 'python']));

describe('application code in the Project', () => {
  test('a finding inside a Java string shows at the host position and underlines exactly the name', () => {
    const p = project({ 'schema.cql': SCHEMA, 'UserDao.java': JAVA });
    const [finding, ...rest] = p.lint(`${ROOT}/UserDao.java`);
    assert.equal(rest.length, 0);
    assert.equal(finding!.ruleId, 'unknown-column');
    assert.equal(finding!.message, 'table shop.users has no column nmae; did you mean name?');
    assert.deepEqual([finding!.range.start.line, finding!.range.start.column], [9, 39]);
    assert.equal(underlined(p, 'UserDao.java', finding!), 'nmae');
    // The engine's offsets are the CQL text's: they slice the same name out of it.
    assert.equal(
      p.getText(`${ROOT}/UserDao.java`)!.slice(finding!.range.start.offset, finding!.range.end.offset),
      'nmae',
    );
  });

  test('the read-aware advice sees the queries in code, across a Python concatenation', () => {
    const p = project({ 'schema.cql': SCHEMA, 'repo.py': PYTHON });
    const hot = p.lint(`${ROOT}/schema.cql`).find((f) => f.ruleId === 'hot-partition');
    assert.ok(hot);
    assert.match(hot.details ?? '', /the workspace's 1 query on shop\.orders_by_day takes whole partitions by day/);
    assert.equal(p.referencesTo(p.tableFor(`${ROOT}/schema.cql`, 'shop.orders_by_day')!).length, 1);
  });

  test('a file of code with no CQL is an empty CQL text; editing code around the strings keeps the lint', () => {
    const p = project({
      'schema.cql': SCHEMA,
      'Util.java': 'class Util { String log = "failed to insert the user"; }\n',
    });
    assert.equal(p.getText(`${ROOT}/Util.java`), '');
    assert.deepEqual(p.embedded(`${ROOT}/Util.java`)?.statements, []);
    const q = project({ 'schema.cql': SCHEMA, 'UserDao.java': JAVA });
    const first = q.lint(`${ROOT}/UserDao.java`)[0]!;
    // Two lines of code above the class: the same CQL text, the finding two lines lower.
    q.setFile(`${ROOT}/UserDao.java`, JAVA.replace('public class', '// a comment\n// another\npublic class'));
    const moved = q.lint(`${ROOT}/UserDao.java`)[0]!;
    assert.equal(moved.range.start.line, first.range.start.line + 2);
    assert.equal(moved.range.start.offset, first.range.start.offset);
  });

  test('holes: what the program computes silences the findings that touch it, not the others', () => {
    const code = `from cassandra.cluster import Cluster
session = Cluster().connect('shop')
def find(column, value):
    return session.execute("SELECT name FROM users WHERE " + column + " = %s", (value,))
def by_mail(mail):
    return session.execute("SELECT nmae FROM users WHERE email = %s ALLOW FILTERING", (mail,))
`;
    const p = project({ 'schema.cql': SCHEMA, 'search.py': code });
    const doc = p.embedded(`${ROOT}/search.py`)!;
    assert.equal(doc.statements.length, 2);
    assert.equal(doc.statements[0]!.holes.length, 1);
    const rules = p.lint(`${ROOT}/search.py`).map((f) => `${f.range.start.line} ${f.ruleId}`);
    // The first statement restricts a column the program picks: no unrestricted-partition-key guess.
    assert.ok(!rules.some((r) => r.startsWith('4 ')), rules.join(', '));
    assert.ok(rules.includes('6 unknown-column'), rules.join(', '));
  });

  test('defaultKeyspace: a statement the code gives no keyspace resolves there, and a new setting reads the file again', () => {
    const code = `from cassandra.cluster import Cluster\nsession = Cluster().connect()\ndef rename(user_id, name):\n    session.execute("UPDATE users SET nmae = %s WHERE user_id = %s", (name, user_id))\n`;
    const two = `${SCHEMA}CREATE KEYSPACE other WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\nCREATE TABLE other.users (user_id uuid PRIMARY KEY, nmae text);\n`;
    const p = project({ 'schema.cql': two, 'users.py': code });
    // Without a keyspace, two different tables named users: no guess.
    assert.deepEqual(
      p.lint(`${ROOT}/users.py`).map((f) => f.ruleId),
      [],
    );
    p.setOptions({ config: { defaultKeyspace: 'shop' } });
    assert.deepEqual(
      p.lint(`${ROOT}/users.py`).map((f) => f.ruleId),
      ['unknown-column'],
    );
    assert.deepEqual(p.embedded(`${ROOT}/users.py`)!.statements[0]!.keyspace, { kind: 'setting', name: 'shop' });
    p.setOptions({ config: { defaultKeyspace: 'other' } });
    assert.deepEqual(
      p.lint(`${ROOT}/users.py`).map((f) => f.ruleId),
      [],
    );
  });

  test('a fix edits the string literals of the code: the new column in the list and the VALUES, kept in the host quoting', () => {
    const code = `from cassandra.cluster import Cluster
session = Cluster().connect('shop')
def add(day, order_id, total):
    session.execute("INSERT INTO orders_by_day (day, order_id, total) VALUES (%s, %s, %s)", (day, order_id, total))
def day_orders(day):
    return session.execute("SELECT total FROM orders_by_day WHERE day = '2026-11-29'")
`;
    const p = project({ 'schema.cql': SCHEMA, 'orders.py': code });
    const schema = `${ROOT}/schema.cql`;
    const hot = p.lint(schema).find((f) => f.ruleId === 'hot-partition')!;
    const fixes = fixesForFinding(p.getText(schema)!, p.parse(schema), hot, projectFixContext(p, schema));
    const fix = fixes.find((f) => f.id === 'shard:order_id');
    assert.ok(fix, fixes.map((f) => f.id).join(', '));
    const other = fix.otherFiles?.find((o) => o.filePath === `${ROOT}/orders.py`);
    assert.ok(other);
    const mapped = p.sourceEdits(other.filePath, other.edits);
    assert.ok(!('refused' in mapped), 'refused' in mapped ? mapped.refused : '');
    const after = applyEdits(code, mapped.edits);
    assert.match(
      after,
      /\n {4}# cqlint: bind shard = murmur3\(order_id\) % \d+ \+ 1[^\n]*\n {4}session\.execute\("INSERT INTO orders_by_day \(day, order_id, total, shard\) VALUES \(%s, %s, %s, %s\)"/,
    );
    // A read of a whole day reads every shard: a literal list in the literal.
    assert.match(after, /WHERE day = '2026-11-29' AND shard IN \(1(, \d+)+\)"\)/);
    // Applied with the schema's edits, nothing is left to say about the key.
    p.setFile(schema, applyEdits(p.getText(schema)!, fix.edits));
    p.setFile(other.filePath, after);
    assert.deepEqual(
      p.lint(other.filePath).map((f) => f.ruleId),
      [],
    );
    assert.equal(p.lint(schema).filter((f) => f.ruleId === 'hot-partition').length, 0);
  });
});
