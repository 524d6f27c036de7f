// A partition measured by tablestats, which grows forever (issue 35): a size is not a rate. The rate its
// cure is sized at comes from what can give one (the node's uptime beside the table's local write count, a
// toppartitions capture, two captures at different dates, a rate= hint); with none, the plan's reasons
// say the rate is the model's assumption and how long the measured partition would have taken at it, and
// no shard that only postpones the growth is offered.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PartitionPlan } from '../../server/core/partition/plan';
import { readHeaderLine, type CaptureHeader } from '../../server/core/evidence/header';
import { tablestatsOutput } from '../helpers/example-evidence';
import { MAIN, exampleProject } from './helpers';

const LOGS = 'CREATE TABLE ks.logs (server text, log_time timeuuid, line text, PRIMARY KEY (server, log_time));';
const BYTES = 1386179893;

async function plansOf(code: string, evidence: Record<string, string>): Promise<PartitionPlan[]> {
  const project = await exampleProject({ code, evidence });
  const finding = project.lint(MAIN).find((f) => f.ruleId === 'large-partition');
  assert.ok(finding, 'large-partition reports the measured 1.3 GB');
  return (finding.data as { plans: PartitionPlan[] }).plans;
}

describe('a measured size that grows forever', () => {
  test("the capture's header reads the node's uptime, as a comment or as nodetool info prints it", () => {
    for (const [line, seconds] of [
      ['# uptime: 30d', 2_592_000],
      ['Uptime (seconds)       : 2592000', 2_592_000],
      ['# uptime: 36h', 129_600],
      ['# uptime: 0', undefined],
      ['# uptime: soon', undefined],
    ] as const) {
      const header: CaptureHeader = {};
      assert.equal(readHeaderLine(line, header), true, line);
      assert.equal(header.uptimeSeconds, seconds, line);
    }
  });

  test('with no rate, the plan is a bucket at the assumed default, and its reasons say so', async () => {
    const plans = await plansOf(LOGS, { 'node3.txt': tablestatsOutput('ks.logs', BYTES) });
    assert.ok(plans.length > 0);
    for (const plan of plans) {
      assert.equal(plan.shard, undefined, 'no shard: it would only postpone the growth');
      assert.ok(plan.bucket, 'a bucket bounds the growth');
      assert.equal(plan.cures, false, 'a measured size stays in the captures until the table is captured again');
      assert.equal(plan.figures?.rateSource, 'default');
      assert.match(
        plan.figures!.reasons[0]!,
        /^rate: none measured or hinted; the 1\.3 GB measured is a size, not a rate, so this is sized at the assumed 1 row\/min \(the default for a machine source\), at which that partition took 47 years to fill: the real rate is likely higher/,
      );
    }
  });

  test("with the node's uptime, the rate is the table's local writes over it at the largest partition's share of the bytes", async () => {
    const plans = await plansOf(LOGS, {
      'node3.txt': tablestatsOutput('ks.logs', BYTES, { uptimeSeconds: 2_592_000 }),
    });
    const [plan] = plans;
    // 183,224,312 writes over 30 days, at 1 / (1,460 partitions × mean max/20) of the bytes: 20/1,460.
    const rate = (183_224_312 / 2_592_000) * (BYTES / (1460 * Math.round(BYTES / 20)));
    assert.equal(plan!.figures?.rateSource, 'measured');
    assert.ok(Math.abs(plan!.figures!.rowsPerSecond - rate) < 1e-9, `${plan!.figures!.rowsPerSecond} vs ${rate}`);
    assert.equal(plan!.bucket?.granularity, 'hour');
    assert.ok(!plan!.figures!.reasons.some((r) => r.startsWith('rate: none')), 'no assumption to name');
  });

  test('a rate= hint wins over the assumption, and is named as hinted', async () => {
    const plans = await plansOf(`-- @cqlint rate=20/s\n${LOGS}`, { 'node3.txt': tablestatsOutput('ks.logs', BYTES) });
    assert.equal(plans[0]!.figures?.rateSource, 'hinted');
    assert.equal(plans[0]!.bucket?.granularity, 'minute');
    assert.ok(!plans[0]!.figures!.reasons.some((r) => r.startsWith('rate: none')));
  });
});
