// A fix's detail lines are written and told apart in one module (fixes/detail-lines.ts): each line a writer
// makes is read back as its own kind, whatever its places and notes hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applicationLine,
  detailKind,
  migrationLine,
  refusedLine,
  sizingLines,
  type DetailKind,
} from '../../server/core/fixes/detail-lines';
import type { PartitionPlan } from '../../server/core/partition/plan';

const relative = (path: string): string => path.replace(/^\/work\//, '');

test('every detail line is read back as the kind it was written as', () => {
  const plan = { figures: { reasons: ['200 rows/s per partition (hinted)', '30 days kept (TTL)'] } } as PartitionPlan;
  const cases: [string, DetailKind][] = [
    ...sizingLines(plan).map((line): [string, DetailKind] => [line, 'sizing']),
    [
      applicationLine(relative, {
        filePath: '/work/app/Dao.java',
        line: 42,
        note: 'bind shard = murmur3(title) % 8 + 1',
      }),
      'application',
    ],
    [
      applicationLine(relative, { filePath: '/work/q.cql', note: 'left on ks.t (it reads the old key)' }),
      'application',
    ],
    [migrationLine(relative, { filePath: '/work/migrations/v001.cql', line: 3 }, 'ks.events'), 'migration'],
    [migrationLine(relative, { filePath: '/work/migrations/v002.cql' }, 'ks.events'), 'migration'],
    [refusedLine(relative, '/work/app/dao.py', 'the statement is built from an f-string'), 'refused'],
  ];
  assert.equal(cases.filter(([, kind]) => kind === 'sizing').length, 2);
  for (const [line, kind] of cases) assert.equal(detailKind(line), kind, line);
  assert.deepEqual(
    cases.slice(2).map(([line]) => line),
    [
      'app/Dao.java:42: bind shard = murmur3(title) % 8 + 1',
      'q.cql: left on ks.t (it reads the old key)',
      'migrations/v001.cql:3: left on ks.events (an applied migration is not edited)',
      'migrations/v002.cql: left on ks.events (an applied migration is not edited)',
      'not possible: app/dao.py cannot take its edits: the statement is built from an f-string',
    ],
  );
});
