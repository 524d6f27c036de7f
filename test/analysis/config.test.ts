import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findConfigFor, loadConfigFile, parseConfig } from '../../server/core/config';
import { allRules } from '../../server/core/rules';
import { Project } from '../../server/core/engine/project';
import { TARGET_IDS } from '../../server/core/vocabulary/config';
import { projectRoot } from '../helpers/corpus';

function keys(json: unknown): string[] {
  return parseConfig(json).errors.map((e) => e.key ?? '');
}

describe('parseConfig', () => {
  test('accepts a full config', () => {
    const { config, errors } = parseConfig({
      $schema: './schemas/cqlint.schema.json',
      target: 'keyspaces',
      rules: {
        'hot-partition': 'error',
        'allow-filtering': 'off',
        'large-in-partition-key': ['warn', { maxPartitions: 20 }],
      },
      tables: {
        'ks.posts': {
          rowsPerPartition: 200000,
          writesPerSecondPerPartition: 2000,
          readsPerSecondPerPartition: 100,
          columnSizes: { body: 2000 },
        },
      },
    });
    assert.deepEqual(errors, []);
    assert.equal(config?.target, 'keyspaces');
    // Records keyed by user names have no prototype (structuredClone compares their entries).
    assert.deepEqual(structuredClone(config?.rules?.['large-in-partition-key']), ['warn', { maxPartitions: 20 }]);
    assert.equal(config?.tables?.['ks.posts']?.columnSizes?.['body'], 2000);
  });

  test('errors name the key', () => {
    assert.deepEqual(keys({ target: 'mongo' }), ['target']);
    assert.deepEqual(keys({ rules: { 'hot-partiton': 'warn' } }), ['rules.hot-partiton']);
    assert.deepEqual(keys({ rules: { 'hot-partition': 'warning' } }), ['rules.hot-partition']);
    assert.deepEqual(keys({ rules: { 'large-in-partition-key': ['warn', { maxPartitons: 3 }] } }), [
      'rules.large-in-partition-key.maxPartitons',
    ]);
    assert.deepEqual(keys({ rules: { 'large-in-partition-key': ['warn', { maxPartitions: 0 }] } }), [
      'rules.large-in-partition-key.maxPartitions',
    ]);
    assert.deepEqual(keys({ tables: { 'ks.t': { rowsPerPartition: -1 } } }), ['tables.ks.t.rowsPerPartition']);
    assert.deepEqual(keys({ tables: { 'ks.t': { rowsPerPartiton: 5 } } }), ['tables.ks.t.rowsPerPartiton']);
    assert.deepEqual(keys({ tables: { 'ks.t': { columnSizes: { body: 'big' } } } }), ['tables.ks.t.columnSizes.body']);
    assert.deepEqual(keys({ tragets: 'cassandra' }), ['tragets']);
  });

  test('messages name the key and suggest a fix', () => {
    const { errors } = parseConfig({ rules: { 'hot-partiton': 'warn' } }, '/p/.cqlint.json');
    assert.match(
      errors[0]!.message,
      /^\/p\/\.cqlint\.json: rules\.hot-partiton: unknown rule "hot-partiton" \(did you mean "hot-partition"\?\)/,
    );
    const level = parseConfig({ rules: { 'hot-partition': 2 } }).errors[0]!;
    assert.match(level.message, /rules\.hot-partition: level must be "off", "warn" or "error"/);
  });

  test('keeps the valid parts of a config with errors', () => {
    const { config, errors } = parseConfig({ target: 'scylladb', rules: { nope: 'off', 'hot-partition': 'off' } });
    assert.equal(errors.length, 1);
    assert.equal(config?.target, 'scylladb');
    assert.deepEqual(structuredClone(config?.rules), { 'hot-partition': 'off' });
  });

  test('rejects non-objects', () => {
    assert.equal(parseConfig([]).errors.length, 1);
    assert.equal(parseConfig({ rules: [] }).errors[0]!.key, 'rules');
    assert.equal(parseConfig({ tables: 3 }).errors[0]!.key, 'tables');
  });
});

describe('config files', () => {
  test('findConfigFor walks up; loadConfigFile reports bad JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cqlint-config-'));
    try {
      mkdirSync(join(dir, 'a', 'b'), { recursive: true });
      writeFileSync(join(dir, '.cqlint.json'), JSON.stringify({ target: 'scylladb' }));
      const file = join(dir, 'a', 'b', 'schema.cql');
      assert.equal(findConfigFor(file), join(dir, '.cqlint.json'));
      writeFileSync(join(dir, 'a', '.cqlint.json'), '{ "target": ');
      assert.equal(findConfigFor(file), join(dir, 'a', '.cqlint.json'));
      const bad = loadConfigFile(join(dir, 'a', '.cqlint.json'));
      assert.equal(bad.config, undefined);
      assert.match(bad.errors[0]!.message, /not valid JSON/);
      const missing = loadConfigFile(join(dir, 'nope.json'));
      assert.match(missing.errors[0]!.message, /cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a Project discovers the config per file, and options override it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cqlint-project-'));
    try {
      writeFileSync(
        join(dir, '.cqlint.json'),
        JSON.stringify({ rules: { 'allow-filtering': 'error' }, target: 'keyspaces' }),
      );
      const file = join(dir, 'q.cql');
      const code = 'SELECT * FROM ks.t WHERE v = 1 ALLOW FILTERING;';
      const project = new Project();
      project.setFile(file, code);
      assert.equal(project.targetFor(file), 'keyspaces');
      assert.equal(project.lint(file).find((f) => f.ruleId === 'allow-filtering')?.severity, 'error');
      project.setOptions({ ruleOverrides: { 'allow-filtering': 'off' }, target: 'cassandra' });
      assert.equal(
        project.lint(file).find((f) => f.ruleId === 'allow-filtering'),
        undefined,
      );
      assert.equal(project.targetFor(file), 'cassandra');
      project.setOptions({ config: { rules: { 'allow-filtering': 'warn' } } });
      assert.equal(project.lint(file).find((f) => f.ruleId === 'allow-filtering')?.severity, 'warning');
      writeFileSync(join(dir, '.cqlint.json'), '{"rules": {"nope": "off"}}');
      project.setOptions({});
      assert.equal(project.configErrors(file)[0]?.key, 'rules.nope');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('schemas/cqlint.schema.json', () => {
  const schema = JSON.parse(readFileSync(join(projectRoot, 'schemas', 'cqlint.schema.json'), 'utf8'));
  test('lists every rule and target', () => {
    const ruleIds = Object.keys(schema.properties.rules.properties).sort();
    assert.deepEqual(ruleIds, allRules.map((r) => r.meta.id).sort());
    assert.deepEqual(schema.properties.target.enum, [...TARGET_IDS]);
  });
  test('describes every rule option', () => {
    for (const rule of allRules) {
      const options = Object.keys(rule.meta.options ?? {});
      if (!options.length) continue;
      const entry = JSON.stringify(schema.properties.rules.properties[rule.meta.id]);
      for (const o of options) assert.ok(entry.includes(`"${o}"`), `${rule.meta.id}.${o} in the schema`);
    }
  });
});
