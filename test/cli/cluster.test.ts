// `cqlint lint --cluster-config` / `--cluster-version` and .cqlint.json `cluster` in CI: the team's yaml
// checked, a yaml that cannot be read a failure (exit 2) while the rest of the lint runs, and a
// .cqlint.json's yaml read only inside the project.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { runCli, tempDir, type JsonResult } from './helpers';

const SCHEMA =
  "CREATE TABLE ks.t (id int PRIMARY KEY, v text);\nSELECT v, count(*) FROM ks.t WHERE id = 1 GROUP BY v;\nSELECT * FROM ks.t WHERE v = 'a' ALLOW FILTERING;\n";

function rules(stdout: string): string[] {
  return (JSON.parse(stdout) as JsonResult[]).flatMap((r) =>
    r.messages.map((m) => `${m.line} ${m.ruleId} ${m.messageId}`),
  );
}

describe('cqlint lint --cluster-config', () => {
  test("the yaml's settings are checked; without it, the version's defaults", async (t) => {
    const temp = tempDir({
      'schema.cql': SCHEMA,
      'ops/cassandra.yaml': 'group_by_enabled: false\nallow_filtering_enabled: false\n',
    });
    t.after(() => temp.cleanup());
    const plain = await runCli(['lint', '-f', 'json', temp.path('schema.cql')]);
    assert.deepEqual(rules(plain.stdout), ['3 allow-filtering everyNode']);
    const run = await runCli(['lint', '-f', 'json', '--cluster-config', 'ops/cassandra.yaml', 'schema.cql'], {
      cwd: temp.dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(rules(run.stdout), ['2 guardrail-statement disabled', '3 allow-filtering refused']);
  });

  test('a yaml that cannot be read fails the run (exit 2) with the reason; the rest of the lint runs', async (t) => {
    const temp = tempDir({
      'schema.cql': SCHEMA,
      'bad.yaml': 'group_by_enabled: [\n',
      'units.yaml': 'batch_size_warn_threshold: 5 KB\n',
      'bin.yaml': new Uint8Array([0, 1, 2]),
    });
    t.after(() => temp.cleanup());
    for (const [file, reason] of [
      ['bad.yaml', /cluster config bad\.yaml:\d+: not valid YAML \(line \d+, column \d+/],
      ['units.yaml', /units\.yaml:1: batch_size_warn_threshold: "5 KB" is not a size/],
      ['bin.yaml', /bin\.yaml: cannot read the file: file looks binary/],
      ['none.yaml', /none\.yaml: cannot read the file/],
    ] as const) {
      const run = await runCli(['lint', '-f', 'json', '--cluster-config', file, 'schema.cql'], { cwd: temp.dir });
      assert.equal(run.code, 2, file);
      assert.match(run.stderr, reason);
      assert.deepEqual(rules(run.stdout), ['3 allow-filtering everyNode'], `${file}: the findings are still reported`);
    }
  });

  test('usage errors: an empty path, an unknown version', async () => {
    for (const args of [
      ['--cluster-config', ' '],
      ['--cluster-version', '3.11'],
    ]) {
      const run = await runCli(['lint', ...args, 'x.cql']);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /--cluster-(config|version)/);
    }
  });

  test(".cqlint.json's cluster.config is read inside the project only; --cluster-version picks the defaults", async (t) => {
    const temp = tempDir({
      'proj/schema.cql':
        "CREATE FUNCTION ks.f (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return a;';\n",
      'proj/.cqlint.json': JSON.stringify({ cluster: { config: 'linked.yaml' } }),
      'outside.yaml': 'user_defined_functions_enabled: true\n',
    });
    t.after(() => temp.cleanup());
    symlinkSync(temp.path('outside.yaml'), temp.path('proj/linked.yaml'));
    const run = await runCli(['lint', '-f', 'json', 'proj'], { cwd: temp.dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /cluster config linked\.yaml: cannot read the file: .*outside/);
    assert.deepEqual(rules(run.stdout), ['1 guardrail-schema disabled'], 'the defaults apply: UDFs off');
    // On the command line the same file is the user's own word.
    const own = await runCli(['lint', '-f', 'json', '--cluster-config', 'outside.yaml', 'proj'], { cwd: temp.dir });
    assert.deepEqual(rules(own.stdout), []);
    assert.equal(own.code, 0, own.stderr);
  });
});
