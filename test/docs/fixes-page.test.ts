// docs/fixes.md shows each partition fix as the diff it makes to a workspace fixture of
// test/fixes/workspaces (a schema file and a queries file): every `<!-- fixture: <case> -->` marker is followed
// by a ```diff block that must be exactly that fixture's before -> after. UPDATE_FIXTURES=1 rewrites the blocks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { projectRoot } from '../helpers/corpus';
import { filesBelow } from '../fixes/workspace';

const PAGE = join(projectRoot, 'docs', 'fixes.md');
const WORKSPACES = join(projectRoot, 'test', 'fixes', 'workspaces');

/** The fixture's change as a unified diff, file by file (schema files first, as the fix edits them). */
function fixtureDiff(name: string): string {
  const before = filesBelow(join(WORKSPACES, name, 'before'));
  const after = filesBelow(join(WORKSPACES, name, 'after'));
  const order = [...after.keys()].sort(
    (a, b) => Number(!/schema/.test(a)) - Number(!/schema/.test(b)) || a.localeCompare(b),
  );
  return order
    .map((file) => {
      const patch = createTwoFilesPatch(`a/${file}`, `b/${file}`, before.get(file)!, after.get(file)!, '', '', {
        context: 3,
      });
      return patch.slice(patch.indexOf('---')).replace(/\t\n/g, '\n');
    })
    .join('');
}

const BLOCK = /<!-- fixture: ([\w-]+) -->\n```diff\n([\s\S]*?)```\n/g;

test("docs/fixes.md: every fixture block is the fixture's diff, and every fix has a section with one", () => {
  const page = readFileSync(PAGE, 'utf8');
  const seen: string[] = [];
  const updated = page.replace(BLOCK, (_all, name: string, shown: string) => {
    seen.push(name);
    const diff = fixtureDiff(name);
    if (!process.env.UPDATE_FIXTURES)
      assert.equal(shown, diff, `the diff shown for ${name} (UPDATE_FIXTURES=1 rewrites it)`);
    return `<!-- fixture: ${name} -->\n\`\`\`diff\n${diff}\`\`\`\n`;
  });
  if (process.env.UPDATE_FIXTURES) writeFileSync(PAGE, updated);
  for (const name of [
    'invoices-calculated',
    'tasks-random-reads',
    'tenant-176-shards',
    'counter-calculated',
    'logs-day-bucket',
    'readings-minute-shards',
    'status-work-list',
    'copy-move',
    'keyspaces-throughput',
    'view-replaced-by-table',
  ]) {
    assert.ok(seen.includes(name), `docs/fixes.md shows ${name}`);
  }
});
