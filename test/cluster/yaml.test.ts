// Reading a cluster yaml: units as Cassandra writes them, 4.0's names, and every kind of bad file (syntax,
// units, huge, binary, a link out of the project, an alias bomb) a clear error while the rest still applies.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterFileCache, ClusterSettings, parseSettingValue, readClusterYaml } from '../../server/core/cluster';
import { parseConfig } from '../../server/core/config';
import { MAX_FILE_BYTES } from '../../server/core/io/files';

describe('units', () => {
  test('sizes, counts, durations and flags as Cassandra and ScyllaDB write them', () => {
    assert.deepEqual(parseSettingValue('bytes', '5KiB'), { ok: true, value: 5120 });
    assert.deepEqual(parseSettingValue('bytes', '100MiB'), { ok: true, value: 100 * 1024 * 1024 });
    assert.deepEqual(parseSettingValue('bytes', 5, 'KiB'), { ok: true, value: 5120 }, 'a 4.0 _in_kb number');
    assert.deepEqual(parseSettingValue('bytes', null), { ok: true, value: undefined });
    assert.deepEqual(parseSettingValue('count', -1), { ok: true, value: undefined });
    assert.deepEqual(parseSettingValue('count', '-1'), { ok: true, value: undefined });
    assert.deepEqual(parseSettingValue('duration', '12h'), { ok: true, value: 12 * 3_600_000 });
    assert.deepEqual(parseSettingValue('flag', 'False'), { ok: true, value: false });
    assert.deepEqual(parseSettingValue('list', ['ANY', 'ONE']), { ok: true, value: ['ANY', 'ONE'] });
    for (const wrong of ['5 KB', '5kb', '5', 'lots']) assert.equal(parseSettingValue('bytes', wrong).ok, false, wrong);
    assert.equal(parseSettingValue('bytes', 5).ok, false, 'a bare number needs a unit in 4.1+ names');
    assert.equal(parseSettingValue('count', 1.5).ok, false);
    assert.equal(parseSettingValue('flag', 'maybe').ok, false);
  });
});

describe('readClusterYaml', () => {
  test('a wrong unit names the file, line and key; the default applies and the rest is read', () => {
    const file = readClusterYaml(
      'cluster_name: x\nbatch_size_warn_threshold: 5 KB\ngroup_by_enabled: false\n',
      '/c.yaml',
      'conf/cassandra.yaml',
    );
    assert.equal(file.problems.length, 1);
    assert.match(file.problems[0]!, /^conf\/cassandra\.yaml:2: batch_size_warn_threshold: "5 KB" is not a size/);
    assert.equal(file.settings.get('group_by_enabled')?.value, false);
    const settings = new ClusterSettings('5.0', file);
    assert.equal(settings.number('batch_size_warn_threshold')?.source, 'Cassandra 5.0 default');
    assert.equal(settings.flag('group_by_enabled')?.source, 'conf/cassandra.yaml:3');
  });

  test('a syntax error gives the line; what parsed is kept', () => {
    const file = readClusterYaml('group_by_enabled: false\nbad: [1, 2\n', '/c.yaml', 'c.yaml');
    assert.ok(file.problems.length >= 1);
    assert.match(file.problems[0]!, /^c\.yaml:\d+: not valid YAML \(line \d+, column \d+/);
  });

  test('a key given twice is an error', () => {
    const file = readClusterYaml('group_by_enabled: false\ngroup_by_enabled: true\n', '/c.yaml', 'c.yaml');
    assert.ok(file.problems.some((p) => /not valid YAML/.test(p)));
  });

  test('an alias bomb is read in the time its text takes: values are never expanded', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 20; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(', ')}]`,
      );
    lines.push('table_properties_disallowed: *t');
    const file = readClusterYaml(`${lines.join('\n')}\n`, '/c.yaml', 'c.yaml');
    // The alias points at a list of aliases: not a list of names, an error, not 10^20 strings.
    assert.equal(file.settings.has('table_properties_disallowed'), false);
    assert.match(file.problems.join('\n'), /table_properties_disallowed: .* is not a list of names/);
  });

  test('text that is not YAML is read a bounded part at a time: a few places, then the rest is left', () => {
    // 1 MiB of lines the yaml library makes an error of every piece of (125,000 errors read whole).
    const garbage = `${' :'.repeat(50)}x\n`.repeat(Math.floor((1024 * 1024) / 102));
    const file = readClusterYaml(`group_by_enabled: false\nguardrails:\n${garbage}`, '/c.yaml', 'c.yaml');
    assert.equal(file.settings.get('group_by_enabled')?.value, false, 'what came before is read');
    assert.ok(file.problems.length <= 3 * 21 + 1, `${file.problems.length} problems`);
    assert.match(
      file.problems.at(-1)!,
      /c\.yaml:\d+: (a setting of \d+ KiB \(at most 32 KiB\): not read|not valid YAML in 3 places: the rest of the file is not read)$/,
    );
    // Many settings that are each not YAML: three runs are read, then the rest is not.
    const many = Array.from({ length: 2000 }, (_, i) => `k${i}: [${' :'.repeat(40)}\n`).join('');
    const manyRead = readClusterYaml(`${many}group_by_enabled: false\n`, '/c.yaml', 'c.yaml');
    assert.match(manyRead.problems.at(-1)!, /not valid YAML in 3 places: the rest of the file is not read$/);
    assert.equal(manyRead.settings.has('group_by_enabled'), false);
  });

  test('top-level lines that are no "key:" are not read, and after three the rest of the file is not', () => {
    const text = `group_by_enabled: false\n${'? ? ? x\n'.repeat(10_000)}"user_timestamps_enabled": false\n`;
    const file = readClusterYaml(text, '/c.yaml', 'c.yaml');
    assert.deepEqual(file.problems, [
      'c.yaml:2: expected a "key: value" setting: not read',
      'c.yaml:3: expected a "key: value" setting: not read',
      'c.yaml:4: expected a "key: value" setting: not read',
      'c.yaml:4: not a settings file in 3 places: the rest of the file is not read',
    ]);
    assert.equal(file.settings.get('group_by_enabled')?.value, false);
    assert.equal(file.settings.has('user_timestamps_enabled'), false);
    const quoted = readClusterYaml('- a list\n"user_timestamps_enabled": false\n', '/c.yaml', 'c.yaml');
    assert.deepEqual(quoted.problems, ['c.yaml:1: expected a "key: value" setting: not read']);
    assert.equal(quoted.settings.get('user_timestamps_enabled')?.line, 2, 'a quoted key is a key');
  });

  test('an over-long setting is not read; the settings after it are, at their own lines', () => {
    const long = `seed_provider:\n${'  # a comment line that is long enough to add up\n'.repeat(1000)}`;
    const file = readClusterYaml(`${long}group_by_enabled: false\n`, '/c.yaml', 'c.yaml');
    assert.deepEqual(file.problems, ['c.yaml:1: a setting of 48 KiB (at most 32 KiB): not read']);
    assert.deepEqual(file.settings.get('group_by_enabled'), {
      writtenKey: 'group_by_enabled',
      value: false,
      line: 1002,
    });
  });

  test('a key given twice far apart (in another run of settings) is an error too', () => {
    const filler = Array.from({ length: 600 }, (_, i) => `unknown_setting_${i}: ${i}\n`).join('');
    const file = readClusterYaml(`group_by_enabled: false\n${filler}group_by_enabled: true\n`, '/c.yaml', 'c.yaml');
    assert.deepEqual(file.problems, [
      'c.yaml:602: not valid YAML (line 602, column 1: group_by_enabled is given twice: map keys must be unique)',
    ]);
    assert.equal(file.settings.get('group_by_enabled')?.value, false);
  });

  test('a value quoted in an error is one of the settings cqlint reads, never another key (passwords)', () => {
    const file = readClusterYaml('keystore_password: hunter2 [\n', '/c.yaml', 'c.yaml');
    assert.ok(!file.problems.join('\n').includes('hunter2'));
  });

  test('a scylla.yaml and a 4.0 yaml are told apart', () => {
    assert.equal(readClusterYaml('compaction_large_cell_warning_threshold_mb: 2\n', '/s.yaml').scylla, true);
    assert.equal(readClusterYaml('enable_materialized_views: true\n', '/c.yaml').legacySpelling, true);
    const old = readClusterYaml('enable_materialized_views: true\n', '/c.yaml');
    assert.equal(new ClusterSettings('4.0', old).flag('materialized_views_enabled')?.value, true);
  });
});

describe('ClusterFileCache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cqlint-cluster-'));
  const project = join(dir, 'project');
  mkdirSync(project);

  test('a huge file, a binary file, a missing file and a link out of the project are refused with the reason', async () => {
    writeFileSync(join(project, 'huge.yaml'), Buffer.alloc(MAX_FILE_BYTES.cluster + 1, 0x20));
    writeFileSync(join(project, 'binary.yaml'), Buffer.from([0x61, 0x00, 0x62]));
    writeFileSync(join(dir, 'outside.yaml'), 'group_by_enabled: false\n');
    symlinkSync(join(dir, 'outside.yaml'), join(project, 'linked.yaml'));
    const cache = new ClusterFileCache();
    const setting = (name: string) => ({ config: join(project, name), name, configFolder: project });
    const read = await cache.read(
      [setting('huge.yaml'), setting('binary.yaml'), setting('missing.yaml'), setting('linked.yaml')],
      { roots: [project] },
    );
    assert.deepEqual(read.files, []);
    assert.equal(read.problems.length, 4);
    assert.match(read.problems[0]!, /huge\.yaml: cannot read the file: file is .* over the 2 MiB limit/);
    assert.match(read.problems[1]!, /binary\.yaml: cannot read the file: file looks binary/);
    assert.match(read.problems[2]!, /missing\.yaml: cannot read the file/);
    assert.match(read.problems[3]!, /linked\.yaml: cannot read the file: .*outside/);
    // Named on the command line (unconfined), the same link is read.
    const own = await cache.read([{ config: join(project, 'linked.yaml'), name: 'linked.yaml', unconfined: true }]);
    assert.equal(own.files.length, 1);
  });

  test('a file is read again only when it changed', async () => {
    writeFileSync(join(project, 'c.yaml'), 'group_by_enabled: false\n');
    const cache = new ClusterFileCache();
    const setting = { config: join(project, 'c.yaml'), name: 'c.yaml', unconfined: true };
    assert.equal((await cache.read([setting])).fresh, true);
    assert.equal((await cache.read([setting])).fresh, false);
    assert.equal(cache.latest(setting.config)?.settings.get('group_by_enabled')?.value, false);
  });

  test.after(() => rmSync(dir, { recursive: true, force: true }));
});

describe('.cqlint.json cluster', () => {
  test('version and config are validated; config is relative to the .cqlint.json', () => {
    const good = parseConfig({ cluster: { version: '4.1', config: 'ops/cassandra.yaml' } }, '/w/.cqlint.json');
    assert.deepEqual(good.errors, []);
    assert.deepEqual(good.config?.cluster, {
      version: '4.1',
      config: '/w/ops/cassandra.yaml',
      name: 'ops/cassandra.yaml',
      configFolder: '/w',
    });
    const bad = parseConfig({ cluster: { version: '3.11', config: 3, extra: true } });
    assert.deepEqual(bad.errors.map((e) => e.key).sort(), ['cluster.config', 'cluster.extra', 'cluster.version']);
    assert.equal(
      parseConfig({ cluster: { version: 5.0 } }).config?.cluster?.version,
      '5.0',
      'a number 5.0 reads as "5.0"',
    );
  });
});
