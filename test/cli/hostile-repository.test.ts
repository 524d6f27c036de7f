// A hostile repository and a careless user against the command line (issue 40): links that lead out of
// the project, ignore files and caches made to break the run, stdin that skips the guards files get,
// names that carry terminal control sequences. Each case is the class, not only its first reproduction:
// every command that writes, every door a text comes in through.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCli, tempDir, type JsonResult } from './helpers';

/** The refactoring workspace of the fix tests: a hot table in schema/, the queries on it in queries/. */
const WORKSPACE = join(__dirname, '..', 'fixes', 'workspaces', 'invoices-calculated', 'before');
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (statSync(join(dir, name)).isFile()) out[name] = readFileSync(join(dir, name), 'utf8');
  }
  return out;
}
const BEFORE = filesOf(WORKSPACE);

const SCHEMA = 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);\n';
const HOT = 'CREATE TABLE ks.books (publish_date date, title text, PRIMARY KEY (publish_date, title));\n';

const lintedFiles = (stdout: string, cwd: string): string[] =>
  (JSON.parse(stdout) as JsonResult[]).map((r) => r.filePath.slice(cwd.length + 1)).sort();

describe('.cqlintignore and ignorePatterns a repository holds', () => {
  test('a line of 32,000 wildcards: that line is an error naming its number (never quoting it), the others apply, every file is linted', async (t) => {
    const line = '*a'.repeat(16_000);
    const temp = tempDir({
      '.cqlintignore': `generated/\n${line}\n*.draft.cql\n`,
      'schema.cql': SCHEMA,
      'generated/x.cql': HOT,
      'wip.draft.cql': HOT,
    });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-f', 'json', '.'], { cwd: temp.dir });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr, 'cqlint: .cqlintignore: line 2: a pattern of 32000 characters (at most 1024): not used\n');
    assert.deepEqual(lintedFiles(run.stdout, temp.dir), ['schema.cql']);
    // Under the length cap, a pattern of wildcards alone compiles and applies (it matches nothing here).
    const wild = tempDir({ '.cqlintignore': `${'*a'.repeat(500)}\n`, 'schema.cql': SCHEMA });
    t.after(() => wild.cleanup());
    const compiled = await runCli(['lint', '-f', 'json', '.'], { cwd: wild.dir });
    assert.equal(compiled.stderr, '');
    assert.deepEqual(lintedFiles(compiled.stdout, wild.dir), ['schema.cql']);
  });

  test('past 1,000 patterns or 64 KiB of them, the rest are not used, said once with the line where they start', async (t) => {
    const many = Array.from({ length: 1_200 }, (_, i) => `p${i}/`).join('\n');
    const long = Array.from({ length: 700 }, (_, i) => `${'d'.repeat(95)}${String(i).padStart(4, '0')}/`).join('\n');
    for (const [text, message] of [
      [many, 'line 1001: more than 1000 patterns'],
      [long, 'line 656: more than 64 KiB of patterns'],
    ] as const) {
      const temp = tempDir({ '.cqlintignore': `${text}\nschema.cql\n`, 'schema.cql': SCHEMA });
      t.after(() => temp.cleanup());
      const run = await runCli(['lint', '-f', 'json', '.'], { cwd: temp.dir });
      assert.equal(run.stderr, `cqlint: .cqlintignore: ${message}: this one and the rest are not used\n`);
      assert.deepEqual(lintedFiles(run.stdout, temp.dir), ['schema.cql'], 'the pattern after the cap is not applied');
    }
  });

  test('ignorePatterns: a pattern too long is a config error naming its index, the others apply', async (t) => {
    const temp = tempDir({
      '.cqlint.json': JSON.stringify({ ignorePatterns: ['generated/', 'x'.repeat(5_000)] }),
      'schema.cql': SCHEMA,
      'generated/x.cql': HOT,
    });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-f', 'json', '.'], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /\.cqlint\.json: ignorePatterns\[1\]: a pattern of 5000 characters \(at most 1024\): not used\n$/,
    );
    assert.deepEqual(lintedFiles(run.stdout, temp.dir), ['schema.cql']);
  });

  test('a .cqlintignore linked to a file outside the project is refused, not read or quoted', async (t) => {
    const outside = tempDir({ 'secret.txt': 'token=hunter2\nschema.cql\n' });
    const temp = tempDir({ 'schema.cql': SCHEMA });
    t.after(() => {
      temp.cleanup();
      outside.cleanup();
    });
    symlinkSync(outside.path('secret.txt'), temp.path('.cqlintignore'));
    const run = await runCli(['lint', '-f', 'json', '.'], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      'cqlint: cannot read .cqlintignore: the file (or the link it goes through) is outside the workspace\n',
    );
    assert.deepEqual(lintedFiles(run.stdout, temp.dir), ['schema.cql'], 'its lines were not applied');
    assert.equal(readFileSync(outside.path('secret.txt'), 'utf8'), 'token=hunter2\nschema.cql\n');
  });
});

/** A file outside the project, and the project beside it (both removed after the test). */
function projectAndOutside(
  t: { after(fn: () => void): void },
  files: Record<string, string>,
): { project: ReturnType<typeof tempDir>; outside: (name: string, text: string) => string } {
  const project = tempDir(files);
  const away = tempDir();
  t.after(() => {
    project.cleanup();
    away.cleanup();
  });
  return { project, outside: (name, text) => away.write(name, text) };
}

describe('every write stays inside the project unless the user named the path', () => {
  const BASHRC = 'export PATH=/usr/bin\n';

  test('lint --cache: a committed .cqlintcache linked outside is neither read nor replaced; --cache-location is written where it names', async (t) => {
    const { project, outside } = projectAndOutside(t, { 'schema.cql': SCHEMA });
    const bashrc = outside('.bashrc', BASHRC);
    symlinkSync(bashrc, project.path('.cqlintcache'));
    const run = await runCli(['lint', '--cache', '.'], { cwd: project.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /warning: cannot write the cache \.cqlintcache: the file \(or the link it goes through\) leads outside the project/,
    );
    assert.equal(readFileSync(bashrc, 'utf8'), BASHRC);
    const named = outside('cache.json', '');
    assert.equal((await runCli(['lint', '--cache', '--cache-location', named, '.'], { cwd: project.dir })).code, 0);
    assert.match(readFileSync(named, 'utf8'), /^\{"format":/);
  });

  test('report: report.html or a page of report-pages/ linked outside is refused (exit 2); --out names a path that is written', async (t) => {
    const tables = Array.from({ length: 101 }, (_, i) => `CREATE TABLE ks.t${i} (id int PRIMARY KEY, v text);\n`).join(
      '',
    );
    const { project, outside } = projectAndOutside(t, { 'schema.cql': SCHEMA });
    const target = outside('other.html', 'theirs');
    symlinkSync(target, project.path('report.html'));
    const run = await runCli(['report', '.'], { cwd: project.dir });
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /cannot write report\.html: the file \(or the link it goes through\) leads outside the project/,
    );
    assert.equal(readFileSync(target, 'utf8'), 'theirs');
    assert.equal(
      (await runCli(['report', '--out', 'report.html', '.'], { cwd: project.dir })).code,
      0,
      'named: written through the link',
    );
    assert.match(readFileSync(target, 'utf8'), /<html/);

    const paged = projectAndOutside(t, { 'schema.cql': tables });
    const page = paged.outside('ks-2.html', 'theirs');
    paged.project.write('report-pages/.keep', '');
    symlinkSync(page, paged.project.path('report-pages/ks-2.html'));
    const pages = await runCli(['report', '--out', 'report.html', '.'], { cwd: paged.project.dir });
    assert.equal(pages.code, 2);
    assert.match(
      pages.stderr,
      /cannot write report-pages\/ks-2\.html: the file \(or the link it goes through\) leads outside the project/,
    );
    assert.equal(readFileSync(page, 'utf8'), 'theirs');
  });

  test('format, lint --fix and fix: a .cql the folder walk finds that links outside is skipped, never read or rewritten; named, it is written', async (t) => {
    const UGLY = 'create table ks.t (id int primary key, v text);\n';
    const { project, outside } = projectAndOutside(t, { 'schema.cql': SCHEMA });
    const theirs = outside('theirs.cql', UGLY);
    symlinkSync(theirs, project.path('linked.cql'));
    for (const args of [
      ['format', '.'],
      ['lint', '--fix', '.'],
    ]) {
      const run = await runCli(args, { cwd: project.dir });
      assert.match(
        run.stderr,
        /skipping linked\.cql: the file \(or the link it goes through\) is outside the workspace \(name it on the command line to include it\)/,
        args.join(' '),
      );
      assert.equal(readFileSync(theirs, 'utf8'), UGLY, `${args.join(' ')}: the other project's file is untouched`);
    }
    assert.equal((await runCli(['format', 'linked.cql'], { cwd: project.dir })).code, 0);
    assert.notEqual(readFileSync(theirs, 'utf8'), UGLY, 'named on the command line, it is formatted where it leads');

    // fix: another project's queries, linked into this one, are not refactored with it.
    const { [join('queries', 'invoices.cql')]: queries, ...rest } = BEFORE;
    const fix = projectAndOutside(t, rest);
    const other = fix.outside('invoices.cql', queries!);
    mkdirSync(fix.project.path('queries'));
    symlinkSync(other, fix.project.path('queries/invoices.cql'));
    const run = await runCli(['fix', '--table', 'billing.invoices_by_day', '.'], { cwd: fix.project.dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /skipping queries\/invoices\.cql: .*outside/);
    assert.equal(readFileSync(other, 'utf8'), queries);
  });
});

describe('cqlint fix --dry-run', () => {
  test('fix --dry-run keeps a byte order mark: git apply takes the patch of a BOM file', async (t) => {
    const temp = tempDir(BEFORE);
    t.after(() => temp.cleanup());
    for (const name of Object.keys(BEFORE)) writeFileSync(temp.path(name), `\uFEFF${BEFORE[name]}`);
    const run = await runCli(['fix', '--table', 'billing.invoices_by_day', '--dry-run', '.'], { cwd: temp.dir });
    assert.equal(run.code, 0, run.stderr);
    temp.write('fix.patch', run.stdout);
    const check = spawnSync('git', ['apply', '--check', 'fix.patch'], { cwd: temp.dir, encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    assert.equal(spawnSync('git', ['apply', 'fix.patch'], { cwd: temp.dir }).status, 0);
    const written = tempDir(BEFORE);
    t.after(() => written.cleanup());
    for (const name of Object.keys(BEFORE)) writeFileSync(written.path(name), `\uFEFF${BEFORE[name]}`);
    assert.equal((await runCli(['fix', '--table', 'billing.invoices_by_day', '.'], { cwd: written.dir })).code, 0);
    for (const name of Object.keys(BEFORE))
      assert.equal(
        readFileSync(temp.path(name), 'utf8'),
        readFileSync(written.path(name), 'utf8'),
        `${name}: the patch gives what fix writes, BOM and all`,
      );
  });
});

describe('lint --cache with a cache a repository holds', () => {
  test('a malformed entry (null findings, a finding of another shape) is a miss: the file is linted again, never an internal error', async (t) => {
    const temp = tempDir({ 'hot.cql': HOT });
    t.after(() => temp.cleanup());
    const fresh = await runCli(['lint', '-f', 'json', '--cache', '.'], { cwd: temp.dir });
    assert.equal(fresh.code, 0, fresh.stderr);
    const cache = JSON.parse(readFileSync(temp.path('.cqlintcache'), 'utf8')) as {
      entries: Record<string, { findings: unknown[]; fixable?: unknown[] }>;
    };
    const entry = Object.values(cache.entries)[0]!;
    const original = entry.findings;
    for (const broken of [
      [null],
      [{ ...(original[0] as object), range: null }],
      [{ ...(original[0] as object), severity: 'fatal' }],
      [{ ...(original[0] as object), related: [null] }],
    ]) {
      entry.findings = broken;
      writeFileSync(temp.path('.cqlintcache'), JSON.stringify(cache));
      const run = await runCli(['lint', '-f', 'json', '--cache', '.'], { cwd: temp.dir });
      assert.equal(run.stderr, '', JSON.stringify(broken));
      assert.equal(run.stdout, fresh.stdout, 'the same findings, linted again');
    }
  });
});

describe('cqlint token and the ring a repository names', () => {
  test('a .cqlint.json ring outside the project is refused, never read or quoted; inside it, or named by --ring, it is read', async (t) => {
    const ring = JSON.stringify({
      'secret-node-1.internal': ['-3074457345618258603'],
      'secret-node-2.internal': ['9223372036854775807'],
    });
    const { project, outside } = projectAndOutside(t, { 'schema.cql': SCHEMA });
    const far = outside('ring.json', ring);
    project.write('.cqlint.json', JSON.stringify({ ring: far }));
    const args = ['token', '--schema', 'schema.cql', 'ks.t', '1'];
    const refused = await runCli(args, { cwd: project.dir });
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /cannot read ring file \(named in \.cqlint\.json\) .*ring\.json: the file \(or the link it goes through\) is outside the workspace/,
    );
    assert.doesNotMatch(refused.stdout + refused.stderr, /secret-node/);
    // A link inside the project to the same file is refused the same way.
    symlinkSync(far, project.path('ring-link.json'));
    project.write('.cqlint.json', JSON.stringify({ ring: 'ring-link.json' }));
    assert.doesNotMatch((await runCli(args, { cwd: project.dir })).stdout, /secret-node/);
    project.write('ring.json', ring);
    project.write('.cqlint.json', JSON.stringify({ ring: 'ring.json' }));
    const inside = await runCli(args, { cwd: project.dir });
    assert.equal(inside.code, 0, inside.stderr);
    assert.match(inside.stdout, /secret-node-1\.internal/);
    const named = await runCli([...args, '--ring', far, '--no-config'], { cwd: project.dir });
    assert.equal(named.code, 0, named.stderr);
    assert.match(named.stdout, /secret-node/);
  });
});

describe('control characters in names reach the terminal escaped', () => {
  /** Any C0 control but tab and line feed, DEL or C1, once our own colours are taken out. */
  const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
  const withoutColours = (text: string): string => text.replace(/\u001b\[\d+m/g, '');
  const ESC = '\u001b';

  test('file names, quoted identifiers, config keys and evidence names: escaped as git shows them, in every format and message', async (t) => {
    const evilFile = `evil${ESC}]0;pwned\u0007.cql`;
    const table = `CREATE TABLE ks."b${ESC}[2Jooks\u009b1A" (publish_date date, title text, PRIMARY KEY (publish_date, title));\n`;
    const temp = tempDir({
      [evilFile]: table,
      '.cqlint.json': JSON.stringify({ [`${ESC}[1Aoops`]: 1, evidence: [`stats${ESC}[K.txt`] }),
      [`stats${ESC}[K.txt`]: `Total number of tables: 1\nKeyspace : ks\n\tTable: x\n\tbad line \r${ESC}[2K\n`,
    });
    t.after(() => temp.cleanup());
    const outputs: [string, string][] = [];
    for (const args of [
      ['lint', '.'],
      ['lint', '--color', '.'],
      ['lint', '-f', 'compact', '.'],
      ['lint', '-f', 'json', '.'],
      ['lint', '-f', 'sarif', '.'],
      ['fix', '--list', '--no-config', '.'],
      ['format', '--check', '.'],
      ['report', '--out', 'r.html', '.'],
    ]) {
      const run = await runCli(args, { cwd: temp.dir });
      outputs.push([`${args.join(' ')} stdout`, run.stdout], [`${args.join(' ')} stderr`, run.stderr]);
    }
    const output = (name: string): string => outputs.find(([n]) => n === name)![1];
    assert.match(output('lint . stdout'), /evil\\033\]0;pwned\\a\.cql/, 'the file name as git shows it');
    assert.match(output('lint . stdout'), /b\\033\[2Jooks\\302\\2331A/, 'the table name, ESC and CSI escaped');
    assert.match(output('lint --color . stdout'), /\u001b\[4m.*evil\\033\]0;pwned\\a\.cql/, 'coloured, and escaped');
    assert.match(output('lint . stderr'), /\\033\[1Aoops/, 'the config key in its error');
    assert.match(
      output('lint . stderr'),
      /evidence stats\\033\[K\.txt: 2 lines not read/,
      'the evidence file in its warning',
    );
    assert.match(output('lint -f json . stdout'), /\\u001b\[2Jooks\\u009b1A/, 'JSON escapes C1 too');
    assert.match(output('fix --list --no-config . stdout'), /b\\033\[2Jooks/);
    for (const [name, text] of outputs) assert.doesNotMatch(withoutColours(text), RAW_CONTROL, name);
  });
});

describe('markdown in names stays text in SARIF and JSON, and reads as written in stylish', () => {
  test('a table name with an image and a link: escaped in message.markdown (headline and details) and JSON details, shown as written by stylish', async (t) => {
    const name = 'b![i](http://h.invalid/p.png)[l](http://h.invalid)<b>';
    const temp = tempDir({
      'hot.cql': `CREATE TABLE ks."${name}" (publish_date date, title text, PRIMARY KEY (publish_date, title));\n`,
    });
    t.after(() => temp.cleanup());
    const sarif = JSON.parse((await runCli(['lint', '-f', 'sarif', '.'], { cwd: temp.dir })).stdout) as {
      runs: { results: { message: { text: string; markdown: string } }[] }[];
    };
    const message = sarif.runs[0]!.results[0]!.message;
    assert.ok(message.text.includes(name), 'the plain headline as written');
    assert.doesNotMatch(message.markdown, /(?<!\\)\[(i|l)(?<!\\)\]\(http/, message.markdown);
    assert.doesNotMatch(message.markdown, /(?<!\\)<b>/);
    const json = JSON.parse((await runCli(['lint', '-f', 'json', '.'], { cwd: temp.dir })).stdout) as {
      messages: { details: string }[];
    }[];
    assert.match(
      json[0]!.messages[0]!.details,
      /ks\.b!\\\[i\\\]\(http:\/\/h\.invalid\/p\.png\)\\\[l\\\]\(http:\/\/h\.invalid\)\\<b\\>/,
    );
    const stylish = (await runCli(['lint', '--format', 'stylish', '.'], { cwd: temp.dir })).stdout;
    assert.ok(stylish.replace(/\s+/g, ' ').includes(`no query in the workspace reads ks.${name} yet`), stylish);
  });
});
