// Suppression comments in application code: `// cqlint-disable-next-line rule` (`#` in Python) above a statement's
// call or above the line its string starts on, or `cqlint-disable-line` at the end of that line, silence the
// rule's findings on that statement and no other; no ids silence every rule; a comment two lines up, a comment
// naming another rule, or the directive's text inside a string silences nothing.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadHostLanguages } from '../../server/core/embedded';
import { Project } from '../../server/core/engine/project';
import { SCHEMA } from './app-fixtures';

const ROOT = '/virtual/suppress';

/** The rule ids of the findings on a host file, by 1-based line. */
function findings(file: string, code: string): string[] {
  const project = new Project({ config: {} });
  project.setFile(`${ROOT}/schema.cql`, SCHEMA);
  project.setFile(`${ROOT}/${file}`, code);
  return project.lint(`${ROOT}/${file}`).map((f) => `${f.range.start.line} ${f.ruleId}`);
}

const JAVA = (above: string, trailing = ''): string => `import com.datastax.oss.driver.api.core.CqlSession;

class Users {
  private final CqlSession session = CqlSession.builder().withKeyspace("shop").build();

  void rename(java.util.UUID id, String name) {
${above}    session.execute("UPDATE users SET nmae = ? WHERE user_id = ?", name, id);${trailing}
    session.execute("SELECT nmae FROM users WHERE user_id = ?", id);
  }
}
`;

before(() => loadHostLanguages(['java', 'python']));

describe('suppression comments in application code', () => {
  test('Java: the line above the call silences the rule it names on that statement only', () => {
    const line = (n: number) => `${n} unknown-column`;
    assert.deepEqual(findings('Users.java', JAVA('')), [line(7), line(8)]);
    assert.deepEqual(
      findings(
        'Users.java',
        JAVA('    // cqlint-disable-next-line unknown-column -- the column is renamed next sprint\n'),
      ),
      [line(9)],
    );
    assert.deepEqual(findings('Users.java', JAVA('    /* cqlint-disable-next-line */\n')), [line(9)]);
    assert.deepEqual(findings('Users.java', JAVA('', '  // cqlint-disable-line unknown-column')), [line(8)]);
    // Another rule, or a comment two lines up: nothing is silenced.
    assert.deepEqual(findings('Users.java', JAVA('    // cqlint-disable-next-line allow-filtering\n')), [
      line(8),
      line(9),
    ]);
    assert.deepEqual(findings('Users.java', JAVA('    // cqlint-disable-next-line unknown-column\n\n')), [
      line(9),
      line(10),
    ]);
  });

  test('Python: `#` above the call, or above the string inside the call', () => {
    const code = (above: string, inside: string): string => `from cassandra.cluster import Cluster
session = Cluster().connect('shop')

def by_mail(mail):
${above}    return session.execute(
${inside}        "SELECT name FROM users WHERE email = %s ALLOW FILTERING",
        (mail,),
    )
`;
    assert.deepEqual(findings('users.py', code('', '')), ['6 allow-filtering']);
    assert.deepEqual(findings('users.py', code('    # cqlint-disable-next-line allow-filtering\n', '')), []);
    assert.deepEqual(findings('users.py', code('', '        # cqlint-disable-next-line\n')), []);
    assert.deepEqual(findings('users.py', code('    # cqlint-disable-next-line unknown-column\n', '')), [
      '7 allow-filtering',
    ]);
  });

  test('the directive inside a string is not a comment', () => {
    const code = `from cassandra.cluster import Cluster
session = Cluster().connect('shop')
note = "# cqlint-disable-next-line"
session.execute("SELECT nmae FROM users WHERE user_id = %s", (1,))
`;
    assert.deepEqual(findings('note.py', code), ['4 unknown-column']);
  });
});
