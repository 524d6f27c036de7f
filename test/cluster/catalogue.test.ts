// The catalogue against Cassandra 5.0's own list of guardrail settings: every name is checked by a rule or
// listed in docs/guardrails.md as needing the cluster, with the reason; and the catalogue is consistent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GUARDRAILS, SETTINGS, settingSpec } from '../../server/core/cluster';
import { allRules } from '../../server/core/rules';
import { projectRoot } from '../helpers/corpus';

const names = readFileSync(join(projectRoot, 'test/fixtures/cluster/cassandra-5.0-guardrail-names.txt'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const page = readFileSync(join(projectRoot, 'docs/guardrails.md'), 'utf8');

test("every guardrail setting of Cassandra 5.0's cassandra.yaml is checked, or listed as needing the cluster with the reason", () => {
  assert.ok(names.length > 80, 'the list is read');
  const unlisted: string[] = [];
  for (const name of names) {
    const guardrail = GUARDRAILS.find((g) => g.keys.includes(name));
    if (!guardrail || !(guardrail.checkedBy || guardrail.needsCluster?.trim())) unlisted.push(name);
    else if (!page.includes(`\`${name}\``)) unlisted.push(`${name} (not on docs/guardrails.md)`);
    else if (!guardrail.checkedBy)
      assert.ok(page.includes(guardrail.needsCluster!.slice(0, 40)), `${name}: docs/guardrails.md gives the reason`);
  }
  assert.deepEqual(unlisted, []);
});

test('each guardrail is checked by a rule that exists, or gives a reason; its keys are settings cqlint reads', () => {
  const ids = new Set(allRules.map((r) => r.meta.id));
  for (const g of GUARDRAILS) {
    assert.ok(g.checkedBy ? ids.has(g.checkedBy) && !!g.from : !!g.needsCluster, g.name);
    if (g.checkedBy)
      for (const key of g.keys)
        assert.ok(
          settingSpec(key) || SETTINGS.some((s) => s.legacy?.some((l) => l.key === key)),
          `${g.name}: ${key} is read`,
        );
  }
  const keys = SETTINGS.map((s) => s.key);
  assert.equal(new Set(keys).size, keys.length, 'each setting once');
});
