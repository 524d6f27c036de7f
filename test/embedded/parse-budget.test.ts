// The host parse budget counts work, not waiting. In a file of its own: a process that has loaded tree-sitter's
// grammars compiles their WebAssembly on background threads for a while, and that CPU time counts too (so the
// product errs towards the clock, never below it), which would blur the waiting half of this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { budgetSpent } from '../../server/core/embedded';

test('the parse budget is spent by work, not by waiting: a loaded machine does not make a file unreadable', async () => {
  const waiting = budgetSpent(500);
  await sleep(700); // the clock passes the budget; the process does no work
  assert.equal(waiting(), false);
  // Work for longer than the budget by both measures (the process's CPU time counts its other threads too, so
  // it can run ahead of the clock).
  const working = budgetSpent(100);
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  let spins = 0;
  for (;;) {
    const cpu = process.cpuUsage(cpuStarted);
    if ((cpu.user + cpu.system) / 1000 > 150 && performance.now() - started > 150) break;
    spins++;
  }
  assert.ok(spins > 0);
  assert.equal(working(), true);
});
