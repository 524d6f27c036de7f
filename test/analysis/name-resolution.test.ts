// One rule resolves a table or view name (server/core/schema/resolve.ts), and every consumer asks it: the
// rules (Project.tableFor), go-to-definition and hover (the symbol index) and `cqlint token --schema`.
// These are the cases where they used to disagree (tables, then user types and views), and the diagnostic
// for conflicting definitions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import { SymbolIndex } from '../../server/core/editor/symbols';
import { findDefinition } from '../../server/core/editor/navigation';
import { nameHover } from '../../server/core/editor/hover';
import { complete } from '../../server/core/editor/completion';
import { rowSizes, udtLookupFrom } from '../../server/core/partition/sizing';
import { columnKeyType, udtLookupFor } from '../../server/core/schema/key-values';
import { keyTypeText } from '../../server/core/token/types';
import { parseCql } from '../../grammar';
import { runCli, tempDir } from '../cli/helpers';

const RECREATED = `CREATE TABLE ks.t (a int PRIMARY KEY, v text);
DROP TABLE ks.t;
CREATE TABLE ks.t (a int PRIMARY KEY, b text);
SELECT b FROM ks.t WHERE a = 1;
`;

function nth(text: string, needle: string, n: number): number {
  let at = -1;
  for (let i = 0; i <= n; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} #${n} occurs`);
  return at;
}

describe('a table dropped and created again in one file', () => {
  const project = new Project({ config: {} });
  project.setFile('/ws/schema.cql', RECREATED);
  const index = new SymbolIndex(project).refresh();
  const select = RECREATED.indexOf('SELECT');

  test('the rules resolve the SELECT to the second definition', () => {
    const table = project.tableFor('/ws/schema.cql', 'ks.t', select);
    assert.deepEqual(
      table?.columns.map((c) => c.name),
      ['a', 'b'],
    );
    assert.deepEqual(
      project.lint('/ws/schema.cql').filter((f) => f.ruleId === 'unknown-column'),
      [],
    );
  });

  test('go to definition on the table name goes to the second CREATE, as the rules resolve it', () => {
    const [definition] = findDefinition(index, '/ws/schema.cql', nth(RECREATED, 'ks.t', 3) + 3);
    assert.equal(definition?.range.start, nth(RECREATED, 't (', 1));
  });

  test('go to definition on a column of the second definition finds it', () => {
    const [definition] = findDefinition(index, '/ws/schema.cql', RECREATED.indexOf('b FROM'));
    assert.equal(definition?.range.start, RECREATED.indexOf('b text'));
  });

  test('a mention before the DROP still goes to the first definition', () => {
    const [definition] = findDefinition(index, '/ws/schema.cql', nth(RECREATED, 'ks.t', 1) + 3);
    assert.equal(definition?.range.start, nth(RECREATED, 't (', 0));
  });
});

describe('one table defined differently in two files', () => {
  const files = {
    'a.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\n',
    'b.cql': 'CREATE TABLE ks.t (id text PRIMARY KEY, v text);\n',
  };

  test('`cqlint token --schema` uses the definition the editor and the rules resolve to (the first file)', async (t) => {
    const dir = tempDir(files);
    t.after(() => dir.cleanup());
    const project = new Project({ config: {} });
    for (const [name, text] of Object.entries(files)) project.setFile(`${dir.dir}/${name}`, text);
    project.setFile(`${dir.dir}/q.cql`, 'SELECT * FROM ks.t WHERE id = 5;\n');
    const resolved = project.tableFor(`${dir.dir}/q.cql`, 'ks.t', 0);
    assert.equal(resolved?.partitionKey[0]?.typeText, 'int');
    const fromSchema = await runCli(['token', '--schema', dir.dir, 'ks.t', '5']);
    const fromTypes = await runCli(['token', '--types', 'int', '5']);
    assert.equal(fromSchema.code, 0, fromSchema.stderr);
    assert.equal(fromSchema.stdout, fromTypes.stdout);
  });

  test('each definition gets a conflicting-definition finding that names the other file', () => {
    const project = new Project({ config: {} });
    for (const [name, text] of Object.entries(files)) project.setFile(`/ws/${name}`, text);
    for (const [name, other] of [
      ['a.cql', 'b.cql'],
      ['b.cql', 'a.cql'],
    ] as const) {
      const found = project.lint(`/ws/${name}`).filter((f) => f.ruleId === 'conflicting-definition');
      assert.equal(found.length, 1, name);
      assert.match(`${found[0]!.message}\n${found[0]!.details ?? ''}`, new RegExp(other.replace('.', '\\.')));
    }
  });

  test('copies of one definition in several files are no conflict', () => {
    const project = new Project({ config: {} });
    project.setFile('/ws/a.cql', files['a.cql']);
    project.setFile('/ws/c.cql', files['a.cql']);
    assert.deepEqual(
      project.lint('/ws/a.cql').filter((f) => f.ruleId === 'conflicting-definition'),
      [],
    );
  });
});

/** The bytes the sizing gives a table's column, its user types looked up in the project's schema. */
function columnBytes(project: Project, filePath: string, table: string, column: string): number | undefined {
  const info = project.tableFor(filePath, table, Number.MAX_SAFE_INTEGER);
  assert.ok(info, `${table} resolves`);
  return rowSizes(info, undefined, udtLookupFrom(project.schema())).columns.find((c) => c.name === column)?.bytes;
}

describe('a user type dropped and created again in one file', () => {
  const text = `CREATE TYPE ks.addr (street text);
DROP TYPE ks.addr;
CREATE TYPE ks.addr (street text, zip bigint, city text);
CREATE TABLE ks.t (id int PRIMARY KEY, home frozen<addr>);
`;
  const second = `CREATE TYPE ks.addr (street text, zip bigint, city text);
CREATE TABLE ks.t (id int PRIMARY KEY, home frozen<addr>);
`;
  const project = new Project({ config: {} });
  project.setFile('/ws/schema.cql', text);
  const index = new SymbolIndex(project).refresh();
  const parse = project.parse('/ws/schema.cql');

  test('hover on the type in the table shows the second definition', () => {
    const hover = nameHover(index, '/ws/schema.cql', text, parse, text.indexOf('addr>') + 1);
    assert.match(hover?.markdown ?? '', /zip bigint/);
  });

  test('go to definition on the type in the table goes to the second CREATE TYPE', () => {
    const [definition] = findDefinition(index, '/ws/schema.cql', text.indexOf('addr>') + 1);
    assert.equal(definition?.range.start, nth(text, 'addr (', 1));
  });

  test('completion of a type there documents the second definition', () => {
    const marked = `${text}CREATE TABLE ks.u (id int PRIMARY KEY, home frozen<ad`;
    const r = complete(index.refresh(), '/ws/schema.cql', marked, parseCql(marked), marked.length);
    const addr = r.items.filter((i) => i.kind === 'type' && i.label === 'addr');
    assert.equal(addr.length, 1);
    assert.match(addr[0]!.documentation ?? '', /zip/);
  });

  test('the sizing sizes the column by the second definition', () => {
    const only = new Project({ config: {} });
    only.setFile('/ws/schema.cql', second);
    assert.equal(
      columnBytes(project, '/ws/schema.cql', 'ks.t', 'home'),
      columnBytes(only, '/ws/schema.cql', 'ks.t', 'home'),
    );
  });
});

describe('one user type defined differently in two files', () => {
  const files = {
    'a.cql': 'CREATE TYPE ks.addr (n int);\n',
    'b.cql': 'CREATE TYPE ks.addr (n bigint);\n',
    'c.cql': 'CREATE TABLE ks.t (k frozen<addr> PRIMARY KEY, v text);\n',
  };

  test("`cqlint token --schema`, hover and the sizing all use the first file's", async (t) => {
    const all = tempDir(files);
    const first = tempDir({ 'a.cql': files['a.cql'], 'c.cql': files['c.cql'] });
    const other = tempDir({ 'b.cql': files['b.cql'], 'c.cql': files['c.cql'] });
    t.after(() => {
      all.cleanup();
      first.cleanup();
      other.cleanup();
    });
    const token = async (dir: string): Promise<string> => {
      const run = await runCli(['token', '--schema', dir, 'ks.t', '{n: 5}']);
      assert.equal(run.code, 0, run.stderr);
      return run.stdout;
    };
    const [fromAll, fromFirst, fromOther] = [await token(all.dir), await token(first.dir), await token(other.dir)];
    assert.notEqual(fromFirst, fromOther, 'int and bigint fields give different tokens');
    assert.equal(fromAll, fromFirst);

    const project = new Project({ config: {} });
    for (const [name, text] of Object.entries(files)) project.setFile(`/ws/${name}`, text);
    const index = new SymbolIndex(project).refresh();
    const c = files['c.cql'];
    const hover = nameHover(index, '/ws/c.cql', c, project.parse('/ws/c.cql'), c.indexOf('addr') + 1);
    assert.match(hover?.markdown ?? '', /n int/);
    const firstOnly = new Project({ config: {} });
    firstOnly.setFile('/ws/a.cql', files['a.cql']);
    firstOnly.setFile('/ws/c.cql', c);
    assert.equal(columnBytes(project, '/ws/c.cql', 'ks.t', 'k'), columnBytes(firstOnly, '/ws/c.cql', 'ks.t', 'k'));
  });
});

describe('a file that redefines a user type another file defines first', () => {
  // The workspace definition of ks.address is a.cql's (rule 2); b.cql defines its own before its table
  // uses it, so its table's row size and key encoding use b.cql's fields (rule 1).
  const files = {
    'a.cql': 'CREATE TYPE ks.address (street text, zip int);\n',
    'b.cql': `CREATE TYPE ks.address (street text, zip bigint, city text);
CREATE TABLE ks.people (home frozen<address>, id int, note text, PRIMARY KEY ((home), id));
`,
  };
  const projectOf = (names: (keyof typeof files)[]): Project => {
    const project = new Project({ config: {} });
    for (const name of names) project.setFile(`/ws/${name}`, files[name]);
    return project;
  };
  const keyType = (project: Project): string => {
    const table = project.tableFor('/ws/b.cql', 'ks.people', Number.MAX_SAFE_INTEGER);
    assert.ok(table, 'ks.people resolves');
    const type = columnKeyType(table, 'home', udtLookupFor(project.schema()));
    assert.ok(type, 'home has a key type');
    return JSON.stringify(type) + keyTypeText(type);
  };
  const both = projectOf(['a.cql', 'b.cql']);
  const own = projectOf(['b.cql']);

  test("the workspace definition is still the first file's", () => {
    assert.deepEqual(
      both
        .schema()
        .userType('ks', 'address')
        ?.fields.map((f) => f.typeText),
      ['text', 'int'],
    );
  });

  test("the sizing sizes the table's column by its own file's definition", () => {
    const bytes = columnBytes(both, '/ws/b.cql', 'ks.people', 'home');
    assert.equal(bytes, columnBytes(own, '/ws/b.cql', 'ks.people', 'home'));
    const other = projectOf(['a.cql']);
    other.setFile('/ws/b.cql', files['b.cql'].slice(files['b.cql'].indexOf('CREATE TABLE')));
    assert.notEqual(
      bytes,
      columnBytes(other, '/ws/b.cql', 'ks.people', 'home'),
      'the two definitions size differently',
    );
  });

  test("the key encoder encodes the table's key by its own file's definition", () => {
    assert.equal(keyType(both), keyType(own));
    assert.match(keyType(both), /"bigint"/);
  });

  test("`cqlint token --schema` gives the token of its own file's definition", async (t) => {
    const all = tempDir(files);
    const only = tempDir({ 'b.cql': files['b.cql'] });
    t.after(() => {
      all.cleanup();
      only.cleanup();
    });
    const token = async (dir: string): Promise<string> => {
      const run = await runCli(['token', '--schema', dir, 'ks.people', "{street: 'x', zip: 5, city: 'y'}"]);
      assert.equal(run.code, 0, run.stderr);
      return run.stdout;
    };
    assert.equal(await token(all.dir), await token(only.dir));
  });
});

describe("the user types' signature that caches compare (SchemaModel.typesSignature)", () => {
  const signature = (text: string): string => {
    const project = new Project({ config: {} });
    project.setFile('/ws/a.cql', text);
    return project.schema().typesSignature();
  };
  const typeFirst = 'CREATE TYPE ks.a (x int);\nCREATE TABLE ks.t (k frozen<a> PRIMARY KEY, v text);\n';

  test("a type version moved across a table changes it: the table's column resolves to another version", () => {
    assert.notEqual(
      signature(typeFirst),
      signature('CREATE TABLE ks.t (k frozen<a> PRIMARY KEY, v text);\nCREATE TYPE ks.a (x int);\n'),
    );
    assert.notEqual(signature(typeFirst), signature(typeFirst.replace('x int', 'x bigint')));
  });

  test('text that only moves the statements (a comment above, a longer name) leaves it', () => {
    assert.equal(signature(typeFirst), signature(`-- the schema\n${typeFirst}`));
    assert.equal(signature(typeFirst), signature(typeFirst.replace('v text', 'a_longer_column_name text')));
  });
});

describe('a user type that contains itself', () => {
  test('the key encoder gives the inner mention as unsupported instead of recursing without end', () => {
    const project = new Project({ config: {} });
    project.setFile(
      '/ws/a.cql',
      'CREATE TYPE ks.a (x frozen<a>);\nCREATE TABLE ks.t (k frozen<a> PRIMARY KEY, v int);\n',
    );
    const table = project.tableFor('/ws/a.cql', 'ks.t', Number.MAX_SAFE_INTEGER);
    assert.ok(table);
    const type = columnKeyType(table, 'k', udtLookupFor(project.schema()));
    assert.equal(type?.kind, 'udt');
    assert.equal(type?.kind === 'udt' ? type.fields[0]?.type.kind : undefined, 'unsupported');
  });
});

describe('a materialized view dropped and created again in one file', () => {
  const text = `CREATE TABLE ks.t (a int, b text, c text, PRIMARY KEY (a, b));
CREATE MATERIALIZED VIEW ks.v AS SELECT a, b FROM ks.t WHERE a IS NOT NULL AND b IS NOT NULL PRIMARY KEY (b, a);
DROP MATERIALIZED VIEW ks.v;
CREATE MATERIALIZED VIEW ks.v AS SELECT a, b, c FROM ks.t WHERE a IS NOT NULL AND b IS NOT NULL PRIMARY KEY (b, a);
SELECT c FROM ks.v WHERE b = 'x';
`;
  const project = new Project({ config: {} });
  project.setFile('/ws/schema.cql', text);
  const index = new SymbolIndex(project).refresh();
  const select = text.indexOf('SELECT c');

  test('the rules resolve the SELECT to the second view', () => {
    assert.deepEqual(
      project
        .tableFor('/ws/schema.cql', 'ks.v', select)
        ?.columns.map((c) => c.name)
        .sort(),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(
      project.lint('/ws/schema.cql').filter((f) => f.ruleId === 'unknown-column'),
      [],
    );
  });

  test('go to definition on the view name goes to the second CREATE', () => {
    const [definition] = findDefinition(index, '/ws/schema.cql', nth(text, 'ks.v', 3) + 3);
    assert.equal(definition?.range.start, nth(text, 'v AS', 1));
  });

  test('hover on the view and completion of its columns show the second view', () => {
    const hover = nameHover(index, '/ws/schema.cql', text, project.parse('/ws/schema.cql'), nth(text, 'ks.v', 3) + 3);
    assert.match(hover?.markdown ?? '', /\| `?c`? \|/);
    const marked = `${text}SELECT  FROM ks.v;`;
    const at = marked.length - ' FROM ks.v;'.length;
    const r = complete(index, '/ws/schema.cql', marked, parseCql(marked), at);
    assert.ok(
      r.items.some((i) => i.kind === 'column' && i.label === 'c'),
      JSON.stringify(r.items.map((i) => i.label)),
    );
  });
});

describe('a user type altered in its file', () => {
  test('the workspace definition is the type as the last ALTER TYPE left it; a DROP TYPE removes it', () => {
    const project = new Project({ config: {} });
    project.setFile(
      '/ws/a.cql',
      `CREATE TYPE ks.addr (street text);
ALTER TYPE ks.addr ADD zip int;
ALTER TYPE ks.addr RENAME street TO line1;
CREATE TYPE ks.gone (x int);
DROP TYPE ks.gone;
`,
    );
    assert.deepEqual(
      project
        .schema()
        .userType('ks', 'addr')
        ?.fields.map((f) => `${f.name} ${f.typeText}`),
      ['line1 text', 'zip int'],
    );
    assert.equal(project.schema().userType('ks', 'gone'), undefined);
  });

  test('hover on a mention after the ALTER TYPE shows the fields it added and renamed', () => {
    const text = `CREATE TYPE ks.addr (street text);
ALTER TYPE ks.addr ADD zip int;
ALTER TYPE ks.addr RENAME street TO line1;
CREATE TABLE ks.t (id int PRIMARY KEY, home frozen<addr>);
`;
    const project = new Project({ config: {} });
    project.setFile('/ws/a.cql', text);
    const index = new SymbolIndex(project).refresh();
    const hover = nameHover(index, '/ws/a.cql', text, project.parse('/ws/a.cql'), text.indexOf('addr>') + 1);
    assert.match(hover?.markdown ?? '', /line1 text,\n {2}zip int\n\)/);
  });
});

describe('a view over a table that its file later drops and creates again', () => {
  const text = `CREATE TABLE ks.t (a int, b text, c text, PRIMARY KEY (a, b));
CREATE MATERIALIZED VIEW ks.v AS SELECT a, b, c FROM ks.t WHERE a IS NOT NULL AND b IS NOT NULL PRIMARY KEY (b, a);
DROP TABLE ks.t;
CREATE TABLE ks.t (a int, b text, d text, PRIMARY KEY (a, b));
`;
  const query = "SELECT c FROM ks.v WHERE b = 'x';\n";

  test("the view's columns come from the table as the view's own file saw it", () => {
    const project = new Project({ config: {} });
    project.setFile('/ws/schema.cql', text);
    project.setFile('/ws/query.cql', query);
    const index = new SymbolIndex(project).refresh();
    const [definition] = findDefinition(index, '/ws/query.cql', query.indexOf('c FROM'));
    assert.equal(definition?.filePath, '/ws/schema.cql');
    assert.equal(definition?.range.start, text.indexOf('c text'));
  });
});

describe('the candidates of a name asked from a keyspace that defines none of its own', () => {
  const project = new Project({ config: {} });
  project.setFile(
    '/ws/a.cql',
    'CREATE TABLE ks1.t (id int PRIMARY KEY);\nCREATE TABLE t (id int PRIMARY KEY, v text);\nCREATE TABLE ks1.u (id int PRIMARY KEY);\n',
  );
  project.setFile('/ws/b.cql', 'CREATE TABLE t (id int PRIMARY KEY, v text);\n');

  test('are the definitions that name no keyspace, in file order, one list for every such keyspace', () => {
    const model = project.schema();
    const fromTwo = model.candidates('ks2', 't');
    assert.deepEqual(
      fromTwo.map((t) => [t.filePath, t.keyspace]),
      [
        ['/ws/a.cql', undefined],
        ['/ws/b.cql', undefined],
      ],
    );
    assert.equal(model.candidates('ks3', 't'), fromTwo);
    assert.deepEqual(
      model.candidates('ks1', 't').map((t) => t.keyspace),
      ['ks1'],
    );
  });

  test('are made again, the same definitions, after the model forgot its lookups', () => {
    const model = project.schema();
    const before = model.candidates('ks2', 't');
    const own = model.candidates('ks1', 't');
    project.forgetLookups();
    assert.equal(project.schema(), model);
    assert.deepEqual(model.candidates('ks2', 't'), before);
    assert.deepEqual(model.candidates('ks1', 't'), own);
    assert.equal(model.candidates('ks3', 't'), model.candidates('ks2', 't'));
  });

  test('are none when every definition names its keyspace', () => {
    assert.deepEqual(project.schema().candidates('ks2', 'u'), []);
  });
});
