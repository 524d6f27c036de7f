// A table keyed by tenant is sized by its largest tenant (issue 35): its plans are a shard count per tenant,
// preferred from PER_TENANT_SHARDS up, beside the uniform shards, each saying why; and where one column
// dominates the row, the plans' reasons say how many shards the table needs with that column moved out.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PartitionPlan } from '../../server/core/partition/plan';
import { PER_TENANT_SHARDS } from '../../server/core/partition/limits';
import { MAIN, exampleProject } from './helpers';

const TABLE = (key: string) =>
  `CREATE TABLE app.docs (${key} uuid, doc_id timeuuid, title text, body text, PRIMARY KEY (${key}, doc_id)) WITH default_time_to_live = 7776000;`;

async function plansOf(code: string): Promise<PartitionPlan[]> {
  const project = await exampleProject({ code });
  const finding = project.lint(MAIN).find((f) => f.ruleId === 'large-partition');
  assert.ok(finding, 'large-partition reports the hinted partition');
  return (finding.data as { plans: PartitionPlan[] }).plans;
}

describe('a table keyed by tenant', () => {
  test('many shards: the count per tenant is the first plan, and it cures', async () => {
    const plans = await plansOf(`-- @cqlint rows=2000000\n${TABLE('tenant_id')}`);
    const [first] = plans;
    assert.equal(first!.mechanism, 'tenant-shard');
    assert.ok(first!.cures);
    assert.ok(first!.shard!.count >= PER_TENANT_SHARDS);
    assert.deepEqual(first!.shard!.perTenant, { column: 'tenant_id', table: 'app.docs_shards' });
    assert.match(first!.figures!.reasons.at(-1)!, /^per tenant_id: the figures are those of the largest tenant_id's/);
    const uniform = plans.filter((p) => p.shard && !p.shard.perTenant);
    assert.ok(uniform.length > 0, 'the uniform shards are offered too');
    for (const p of uniform)
      assert.ok(p.figures!.reasons.some((r) => r.startsWith(`every tenant_id gets ${p.shard!.count} shards`)));
  });

  test('a few shards: the uniform shards come first, the count per tenant after them', async () => {
    const plans = await plansOf(`-- @cqlint rows=100000\n${TABLE('org_id')}`);
    assert.ok(plans[0]!.shard!.count < PER_TENANT_SHARDS);
    assert.equal(plans[0]!.shard!.perTenant, undefined);
    assert.ok(plans.some((p) => p.shard?.perTenant?.column === 'org_id'));
  });

  test('a key that names no tenant gets no count per tenant', async () => {
    const plans = await plansOf(`-- @cqlint rows=2000000\n${TABLE('folder_id')}`);
    assert.ok(plans.length > 0);
    assert.ok(plans.every((p) => !p.shard?.perTenant && p.mechanism !== 'tenant-shard'));
  });

  test('a column that dominates the row: the reasons give the shards with it moved out', async () => {
    const plans = await plansOf(`-- @cqlint rows=600000 body.bytes=4000\n${TABLE('tenant_id')}`);
    const split = plans[0]!.figures!.reasons.find((r) => r.startsWith('split: '));
    assert.ok(split, 'a split line');
    assert.match(
      split,
      /^split: body is 3\.9 KB of a 4 KB row; moved to a table of its own \(app\.docs_body, keyed by \(\(tenant_id, doc_id\)\), one row a partition\)/,
    );
    const [, after, before] = /: (\d+) shards, not (\d+) \(/.exec(split)!;
    assert.ok(Number(after) < Number(before));
    assert.equal(Number(before), plans[0]!.shard!.count);
    // The move is a plan of its own: it does not cure alone, so it comes last and says what the rest still needs.
    const moved = plans.at(-1)!;
    assert.equal(moved.mechanism, 'split-column');
    assert.equal(moved.cures, false);
    assert.deepEqual(moved.split && [moved.split.column, moved.split.table, moved.split.key], [
      'body',
      'app.docs_body',
      ['tenant_id', 'doc_id'],
    ]);
    assert.match(moved.leaves ?? '', new RegExp(`^then .*\\b${after} shards\\b.* is still needed$`));
    // Without a dominant column, no split line.
    const even = await plansOf(`-- @cqlint rows=600000\n${TABLE('tenant_id')}`);
    assert.ok(even.every((p) => !p.figures!.reasons.some((r) => r.startsWith('split: '))));
  });
});
