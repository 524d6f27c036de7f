// `cqlint lint`: formats, exit codes, I/O and configuration errors, in-process.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { runCli, tempDir, projectRoot, type JsonResult } from './helpers';
import { main } from '../../server/cli/main';
import { corpusDir } from '../helpers/corpus';
import packageJson from '../../package.json';

const SCHEMA = 'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\n';
const QUERY = 'SELECT email FROM ks.users WHERE id = ?;\n';
const HOT = 'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));\n';
const CLEAN = 'CREATE TABLE ks.things (id uuid PRIMARY KEY, v text);\n';
const BROKEN = 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text;\n';

function parseJson(stdout: string): JsonResult[] {
  return JSON.parse(stdout) as JsonResult[];
}

describe('cqlint lint: formats', () => {
  test('output is written per file as it is linted (json, sarif and stylish), not built as one string', async (t) => {
    const temp = tempDir({ 'a.cql': HOT, 'b.cql': SCHEMA + QUERY, 'c.cql': HOT.replace('books', 'novels') });
    t.after(() => temp.cleanup());
    for (const formatName of ['json', 'sarif', 'stylish']) {
      const chunks: string[] = [];
      const code = await main(['lint', '-f', formatName, '.'], {
        stdout: { write: (text: string) => chunks.push(text) },
        stderr: { write: () => true },
        cwd: temp.dir,
        env: {},
      });
      assert.equal(code, 1);
      const whole = chunks.join('');
      const byFile = chunks.filter((chunk) => /[abc]\.cql/.test(chunk));
      assert.ok(byFile.length >= 3, `${formatName}: ${chunks.length} writes`);
      for (const [i, name] of ['a.cql', 'b.cql', 'c.cql'].entries())
        assert.ok(byFile[i]!.includes(name), `${formatName}: ${name} comes in its own write`);
      if (formatName === 'json')
        assert.deepEqual(
          parseJson(whole).map((r) => path.basename(r.filePath)),
          ['a.cql', 'b.cql', 'c.cql'],
        );
      if (formatName === 'sarif')
        assert.equal(
          (JSON.parse(whole) as { runs: { results: unknown[]; artifacts: unknown[] }[] }).runs[0].artifacts.length,
          3,
        );
      if (formatName === 'stylish') assert.match(whole, /\u2716 \d+ problems? \(\d+ errors?, \d+ warnings?\)\n/);
    }
  });

  test('stylish: file header, aligned rows, summary; no colour without a terminal', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA, 'q.cql': QUERY + HOT });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', temp.dir]);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, '');
    assert.doesNotMatch(run.stdout, /\u001b\[/);
    const lines = run.stdout.split('\n');
    assert.equal(lines[0], '');
    assert.equal(lines[1], temp.path('q.cql'), 'the header is the file path');
    assert.match(lines[2]!, /^ {2}1:8 +error {4}table ks\.users has no column email.* {2}unknown-column$/);
    assert.match(lines[3]!, /^ {2}2:\d+ +warning {2}hot partition in ks\.books.* {2}hot-partition$/);
    // Columns line up: the message column starts at the same place on every row.
    const messageColumn = lines[2]!.indexOf('table ks.users');
    assert.equal(messageColumn, lines[3]!.indexOf('hot partition'));
    // The hot partition's details follow its row, indented to the message column, wrapped to 100 columns.
    const end = lines.indexOf('', 4);
    const details = lines.slice(4, end);
    assert.ok(details.length >= 3, details.join('\n'));
    for (const line of details) {
      assert.ok(line.startsWith(' '.repeat(messageColumn)) && line[messageColumn] !== ' ', JSON.stringify(line));
      assert.ok(line.length <= 100, `wrapped: ${line}`);
    }
    assert.match(details.join(' '), /Shard it: add a shard column/);
    assert.equal(lines[end + 1], '\u2716 2 problems (1 error, 1 warning)');
    assert.doesNotMatch(run.stdout, /schema\.cql/, 'files without problems are not listed');
  });

  test('stylish: colours on a terminal, not with NO_COLOR or --no-color; nothing printed when clean', async (t) => {
    const temp = tempDir({ 'hot.cql': HOT, 'clean.cql': CLEAN });
    t.after(() => temp.cleanup());
    const coloured = await runCli(['lint', temp.path('hot.cql')], { tty: true });
    assert.match(coloured.stdout, /\u001b\[33mwarning\u001b\[39m/);
    assert.match(coloured.stdout, /\u001b\[1m\u001b\[33m\u2716 1 problem \(0 errors, 1 warning\)/);
    assert.equal(coloured.code, 0, 'warnings alone exit 0');
    const noColor = await runCli(['lint', temp.path('hot.cql')], { tty: true, env: { NO_COLOR: '1' } });
    assert.doesNotMatch(noColor.stdout, /\u001b\[/);
    const flag = await runCli(['lint', '--no-color', temp.path('hot.cql')], { tty: true });
    assert.doesNotMatch(flag.stdout, /\u001b\[/);
    const clean = await runCli(['lint', temp.path('clean.cql')]);
    assert.deepEqual(clean, { code: 0, stdout: '', stderr: '' });
  });

  test('json: ESLint formatter shape with severities, positions and counts', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA, 'q.cql': QUERY + HOT, 'broken.cql': BROKEN });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '--format', 'json', temp.dir]);
    assert.equal(run.code, 1);
    const results = parseJson(run.stdout);
    assert.deepEqual(
      results.map((r) => path.basename(r.filePath)),
      ['broken.cql', 'q.cql', 'schema.cql'],
    );
    assert.ok(results.every((r) => path.isAbsolute(r.filePath)));

    const q = results.find((r) => r.filePath.endsWith('q.cql'))!;
    assert.deepEqual(q.messages[0], {
      ruleId: 'unknown-column',
      severity: 2,
      message: q.messages[0]!.message,
      line: 1,
      column: 8,
      messageId: 'noColumn',
      endLine: 1,
      endColumn: 13,
    });
    assert.match(q.messages[0]!.message, /has no column email/);
    assert.equal(q.messages[1]!.messageId, 'timeBucket');
    assert.equal(q.messages[1]!.ruleId, 'hot-partition');
    assert.equal(q.messages[1]!.severity, 1);
    assert.equal(q.messages[1]!.line, 2);
    assert.deepEqual(
      [q.errorCount, q.warningCount, q.fatalErrorCount, q.fixableErrorCount, q.fixableWarningCount],
      [1, 1, 0, 0, 0],
    );
    assert.equal(q.source, QUERY + HOT);

    const broken = results.find((r) => r.filePath.endsWith('broken.cql'))!;
    assert.equal(broken.messages[0]!.ruleId, 'syntax-error');
    assert.equal(broken.messages[0]!.fatal, true);
    assert.equal(broken.fatalErrorCount, 1);
    assert.equal(broken.messages[0]!.column, BROKEN.indexOf(';') + 1);

    const schema = results.find((r) => r.filePath.endsWith('schema.cql'))!;
    assert.deepEqual(schema.messages, []);
    assert.equal(schema.source, undefined, 'like ESLint, no source for clean files');
  });

  test('sarif: SARIF 2.1.0 with the rules and relative artifact URIs', async (t) => {
    const temp = tempDir({ 'schema.cql': SCHEMA, 'sub dir/q.cql': QUERY + HOT });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '--format=sarif', '.'], { cwd: temp.dir });
    assert.equal(run.code, 1);
    const log = JSON.parse(run.stdout);
    assert.equal(log.version, '2.1.0');
    assert.match(log.$schema, /sarif-2\.1\.0/);
    const sarifRun = log.runs[0];
    const driver = sarifRun.tool.driver;
    assert.equal(driver.name, 'cqlint');
    assert.equal(driver.version, packageJson.version);
    assert.match(driver.informationUri, /^https:\/\//);
    const hotRule = driver.rules.find((r: { id: string }) => r.id === 'hot-partition');
    assert.equal(hotRule.defaultConfiguration.level, 'warning');
    assert.match(hotRule.helpUri, /docs\/rules\/hot-partition\.md$/);
    assert.ok(hotRule.shortDescription.text.length > 10);
    assert.ok(driver.rules.some((r: { id: string }) => r.id === 'syntax-error'));
    // Each rule's messages, their {{placeholders}} numbered as SARIF message strings (§3.49.11, §3.11.5).
    assert.equal(
      hotRule.messageStrings.timeBucket.text,
      'hot partition in {0}: every write of the same {1} goes to one partition',
    );
    assert.ok(
      driver.rules.every(
        (r: { messageStrings?: object }) => r.messageStrings && Object.keys(r.messageStrings).length > 0,
      ),
      'every rule lists its messages',
    );

    const [unknown, hot] = sarifRun.results;
    assert.equal(unknown.ruleId, 'unknown-column');
    assert.equal(unknown.level, 'error');
    assert.equal(driver.rules[unknown.ruleIndex].id, 'unknown-column');
    assert.match(unknown.message.text, /has no column email/);
    // The message's id and arguments rebuild its text from the rule's message string (§3.11.10, §3.11.11).
    assert.equal(unknown.message.id, 'noColumn');
    assert.deepEqual(unknown.message.arguments, ['table', 'ks.users', 'email']);
    const template: string = driver.rules[unknown.ruleIndex].messageStrings[unknown.message.id].text;
    assert.equal(
      template.replace(/\{(\d+)\}/g, (_: string, n: string) => unknown.message.arguments[Number(n)]),
      unknown.message.text,
    );
    assert.equal(hot.message.id, 'timeBucket');
    const location = unknown.locations[0].physicalLocation;
    assert.deepEqual(location.artifactLocation, { uri: 'sub%20dir/q.cql', uriBaseId: '%SRCROOT%' });
    assert.deepEqual(location.region, { startLine: 1, startColumn: 8, endLine: 1, endColumn: 13 });
    assert.equal(unknown.relatedLocations[0].physicalLocation.artifactLocation.uri, 'schema.cql');
    assert.equal(hot.level, 'warning');
    assert.ok(sarifRun.originalUriBaseIds['%SRCROOT%'].uri.startsWith('file:///'));
  });
});

describe('cqlint lint: exit codes and options', () => {
  test('0 clean or warnings only, 1 errors, 1 when warnings exceed --max-warnings', async (t) => {
    const temp = tempDir({ 'hot.cql': HOT, 'clean.cql': CLEAN, 'broken.cql': BROKEN });
    t.after(() => temp.cleanup());
    assert.equal((await runCli(['lint', temp.path('clean.cql')])).code, 0);
    assert.equal((await runCli(['lint', temp.path('hot.cql')])).code, 0);
    assert.equal((await runCli(['lint', '--max-warnings', '1', temp.path('hot.cql')])).code, 0);
    assert.equal(
      (await runCli(['lint', '--max-warnings', '-1', temp.path('hot.cql')])).code,
      0,
      'the help offers -1 for no limit',
    );
    assert.equal((await runCli(['lint', '--max-warnings=-1', temp.path('hot.cql')])).code, 0);
    const tooMany = await runCli(['lint', '--max-warnings', '0', temp.path('hot.cql')]);
    assert.equal(tooMany.code, 1);
    assert.match(tooMany.stderr, /too many warnings \(1\)/);
    assert.equal((await runCli(['lint', temp.path('broken.cql')])).code, 1);
  });

  test('all inputs form one project: queries resolve against schema given as another input', async (t) => {
    const temp = tempDir({ 'schema/users.cql': SCHEMA, 'queries/q.cql': QUERY });
    t.after(() => temp.cleanup());
    const alone = parseJson((await runCli(['lint', '-f', 'json', temp.path('queries/q.cql')])).stdout);
    assert.deepEqual(alone[0]!.messages, [], 'without the schema the table is unknown, so no column is checked');
    const together = parseJson(
      (await runCli(['lint', '-f', 'json', temp.path('queries/q.cql'), temp.path('schema')])).stdout,
    );
    assert.equal(together.length, 2);
    assert.deepEqual(
      together[0]!.messages.map((m) => m.ruleId),
      ['unknown-column'],
    );
  });

  test('--target changes target-specific findings', async (t) => {
    const temp = tempDir({
      'posts.cql': 'CREATE TABLE ks.posts (author_id uuid, id timeuuid, body text, PRIMARY KEY ((author_id, id)));\n',
      '.cqlint.json': JSON.stringify({ tables: { 'ks.posts': { writesPerSecondPerPartition: 2000 } } }),
    });
    t.after(() => temp.cleanup());
    const cassandra = parseJson((await runCli(['lint', '-f', 'json', temp.dir])).stdout);
    assert.deepEqual(cassandra[0]!.messages, []);
    const keyspaces = parseJson((await runCli(['lint', '-f', 'json', '--target', 'keyspaces', temp.dir])).stdout);
    assert.deepEqual(
      keyspaces[0]!.messages.map((m) => m.ruleId),
      ['partition-throughput'],
    );
  });

  test('usage errors exit 2 with a clear message', async () => {
    const cases: [string[], RegExp][] = [
      [['lint', '--format', 'xml', 'x.cql'], /unknown format "xml"; use one of stylish, compact, json, sarif/],
      [
        ['lint', '--target', 'mongodb', 'x.cql'],
        /unknown target "mongodb"; use one of cassandra, scylladb, keyspaces, cosmosdb/,
      ],
      [['lint', '--max-warnings', 'lots', 'x.cql'], /--max-warnings expects a whole number/],
      [['lint', '--max-warnings'], /argument missing|--max-warnings/],
      [['lint', '--frobnicate', 'x.cql'], /Unknown option '--frobnicate'/],
      [['lint'], /no files or folders given/],
      [['lint', '--config', 'a.json', '--no-config', 'x.cql'], /cannot be used together/],
      [['frobnicate'], /unknown command "frobnicate"/],
    ];
    for (const [argv, message] of cases) {
      const run = await runCli(argv);
      assert.equal(run.code, 2, argv.join(' '));
      assert.match(run.stderr, message, argv.join(' '));
      assert.equal(run.stdout, '', argv.join(' '));
    }
  });

  test('--help, --version, no arguments', async () => {
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Commands:\n {2}lint .*\n {2}token /);
    const lintHelp = await runCli(['lint', '--help']);
    assert.equal(lintHelp.code, 0);
    assert.match(lintHelp.stdout, /--max-warnings/);
    const version = await runCli(['--version']);
    assert.deepEqual(version, { code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
    const none = await runCli([]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Usage: cqlint <command>/);
  });

  test('token is routed to the token command', async () => {
    const run = await runCli(['token', '--types', 'int', '1']);
    assert.equal(run.code, 0, run.stderr);
    // Murmur3 token of int 1 (cassandra-tokens.md).
    assert.match(run.stdout, /-4069959284402364209/);
  });
});

describe('cqlint lint: I/O and configuration failures', () => {
  test('a missing file: named on stderr, exit 2, the other files still linted and reported', async (t) => {
    const temp = tempDir({ 'hot.cql': HOT });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', '-f', 'json', 'missing.cql', 'hot.cql'], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /cqlint: cannot read missing\.cql: no such file or directory/);
    const results = parseJson(run.stdout);
    assert.deepEqual(
      results.map((r) => path.basename(r.filePath)),
      ['hot.cql'],
    );
    assert.equal(results[0]!.messages[0]!.ruleId, 'hot-partition');
  });

  test('a folder without CQL, a binary file and a non-UTF-8 file: each named, exit 2', async (t) => {
    const temp = tempDir({
      'empty/readme.txt': 'nothing here',
      'blob.cql': Buffer.from([0x00, 0x01, 0x02, 0x03]),
      'latin1.cql': Buffer.from('-- caf\xe9\nSELECT 1;\n', 'latin1'),
      'ok.cql': CLEAN,
    });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', 'empty', 'blob.cql', 'latin1.cql', 'ok.cql'], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no CQL files \(\*\.cql, \*\.cqlsh, or application code\) in empty/);
    assert.match(run.stderr, /cannot read blob\.cql: file looks binary/);
    assert.match(run.stderr, /cannot read latin1\.cql: file is not valid UTF-8/);
    assert.equal(run.stdout, '', 'ok.cql is clean, so stylish prints nothing');
    const json = await runCli(['lint', '-f', 'json', 'blob.cql', 'ok.cql'], { cwd: temp.dir });
    assert.deepEqual(
      parseJson(json.stdout).map((r) => path.basename(r.filePath)),
      ['ok.cql'],
    );
  });

  test('a path that cannot be read (ENOTDIR) is an I/O failure', async (t) => {
    // Permissions would not do: tests may run as root, who reads anything.
    const temp = tempDir({ 'ok.cql': CLEAN });
    t.after(() => temp.cleanup());
    const run = await runCli(['lint', 'ok.cql', '/dev/null/nope.cql'], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /cannot read \/dev\/null\/nope\.cql: /);
  });

  test('a bad .cqlint.json (discovered or --config): the key is named, exit 2, linting still happens', async (t) => {
    const temp = tempDir({
      'project/.cqlint.json': JSON.stringify({ rules: { 'hot-partiton': 'off' }, target: 'mongo' }),
      'project/hot.cql': HOT,
      'other.json': '{ not json',
    });
    t.after(() => temp.cleanup());
    const discovered = await runCli(['lint', '-f', 'json', 'project'], { cwd: temp.dir });
    assert.equal(discovered.code, 2);
    assert.match(
      discovered.stderr,
      /rules\.hot-partiton: unknown rule "hot-partiton" \(did you mean "hot-partition"\?\)/,
    );
    assert.match(discovered.stderr, /target: must be one of/);
    assert.deepEqual(
      parseJson(discovered.stdout)[0]!.messages.map((m) => m.ruleId),
      ['hot-partition'],
    );

    const explicit = await runCli(['lint', '--config', 'other.json', 'project/hot.cql'], { cwd: temp.dir });
    assert.equal(explicit.code, 2);
    assert.match(explicit.stderr, /other\.json: not valid JSON/);
    const missing = await runCli(['lint', '--config', 'nope.json', 'project/hot.cql'], { cwd: temp.dir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.json: cannot read the file/);
  });

  test('configuration applies: discovered, explicit, and --no-config', async (t) => {
    const temp = tempDir({
      'project/.cqlint.json': JSON.stringify({ rules: { 'hot-partition': 'error' } }),
      'project/hot.cql': HOT,
      'project/quiet/.cqlint.json': JSON.stringify({ rules: { 'hot-partition': 'off' } }),
      'project/quiet/hot.cql': HOT,
      'project/quiet/deeper/hot.cql': HOT,
      'off.json': JSON.stringify({ rules: { 'hot-partition': 'off' } }),
    });
    t.after(() => temp.cleanup());
    const discovered = await runCli(['lint', '-f', 'json', 'project'], { cwd: temp.dir });
    assert.equal(discovered.code, 1);
    // Each file gets its nearest config (looked up once per folder in a run).
    const severities = Object.fromEntries(
      parseJson(discovered.stdout).map((r) => [path.relative(temp.dir, r.filePath), r.messages.map((m) => m.severity)]),
    );
    assert.deepEqual(severities, {
      'project/hot.cql': [2],
      'project/quiet/hot.cql': [],
      'project/quiet/deeper/hot.cql': [],
    });
    const explicit = await runCli(['lint', '-f', 'json', '--config', 'off.json', 'project'], { cwd: temp.dir });
    assert.equal(explicit.code, 0);
    assert.deepEqual(parseJson(explicit.stdout)[0]!.messages, []);
    const none = await runCli(['lint', '-f', 'json', '--no-config', 'project'], { cwd: temp.dir });
    assert.equal(none.code, 0);
    assert.equal(parseJson(none.stdout)[0]!.messages[0]!.severity, 1);
  });
});

describe('cqlint lint on real CQL', () => {
  test('the Cassandra docs corpus has no syntax-error', async () => {
    const folder = path.join(corpusDir, 'cassandra-docs');
    assert.ok(existsSync(folder), `${folder} is missing`);
    const run = await runCli(['lint', '-f', 'json', folder]);
    assert.notEqual(run.code, 2, run.stderr);
    const results = parseJson(run.stdout);
    assert.ok(results.length > 100, `${results.length} files`);
    const syntaxErrors = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'syntax-error')
        .map((m) => `${r.filePath}:${m.line}:${m.column} ${m.message}`),
    );
    assert.deepEqual(syntaxErrors, []);
  });

  test('examples/: the README walk-through finds the planted problems and nothing in the good designs', async () => {
    const run = await runCli(['lint', '-f', 'json', 'examples'], { cwd: projectRoot });
    assert.equal(run.code, 1, run.stderr);
    const results = parseJson(run.stdout);
    const rules = (file: string): string[] =>
      results.find((r) => r.filePath.endsWith(file))!.messages.map((m) => m.ruleId);
    assert.deepEqual(rules('hot-partition.cql'), ['hot-partition', 'hot-partition']);
    assert.deepEqual(rules('unbounded-partition.cql'), ['unbounded-partition']);
    assert.deepEqual(rules('good-sharded.cql'), []);
    assert.deepEqual(rules('keyspace.cql'), []);
    assert.deepEqual(rules('queries.cql'), ['unknown-column']);
  });
});
