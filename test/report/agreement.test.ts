// The partition report and the diagnostics agree (issue 21), on every table of the corpus and of the 43
// expert-labelled tables: the report lists the rules' findings for the table; the rate, the limit hit
// first and the rows that reach it are the ones the findings state; a bucket too coarse for its rate is
// drawn exactly when large-partition reports it (or hot-partition speaks for the key); and the report
// never draws a partition past its first limit under no finding: within a bucket (large-partition or
// hot-partition), past a TTL (unbounded-partition or hot-partition), or growing without end within the
// rules' 5-year horizon (unbounded-partition, hot-partition or queue-table), except for the growth the
// rules leave unreported on purpose (one entity's history at a human pace, stated in the model).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import { tableReport, tablesDefinedIn } from '../../server/core/report';
import { tableWorkload } from '../../server/core/schema/workload';
import type { Finding } from '../../server/core/findings/findings';
import { corpusFiles, readText } from '../helpers/corpus';
import { EXPERT_TABLES } from '../fixtures/expert-tables';

const HORIZON_SECONDS = 5 * 365 * 86_400;
const SIZE_RULES = ['hot-partition', 'unbounded-partition', 'large-partition', 'queue-table'];
const HOT_SHAPES = new Set(['time-bucket', 'few', 'shard-only']);

/** What the report of one table says that the diagnostics do not, or the other way round. */
function disagreements(project: Project): { tables: number; problems: string[] } {
  const problems: string[] = [];
  let tables = 0;
  for (const table of tablesDefinedIn(project)) {
    if (table.kind !== 'table') continue;
    tables++;
    const data = tableReport(project, table);
    const where = `${table.qualifiedName} (${table.filePath.split('/').slice(-2).join('/')})`;
    const findings: Finding[] = project
      .lint(table.filePath)
      .filter((f) => f.range.start.offset >= table.range.start && f.range.end.offset <= table.range.end);
    const say = (problem: string): void => {
      problems.push(`${where}: ${problem}`);
    };

    // The report lists the table's findings as the rules report them (and, besides, its queries').
    assert.deepEqual(
      data.findings.filter((f) => f.on === 'table').map((f) => `${f.ruleId} ${f.message}`),
      findings.map((f) => `${f.ruleId} ${f.message}`),
      `${where}: the report's findings`,
    );

    const sized = findings.filter((f) => SIZE_RULES.includes(f.ruleId));
    const binding = data.growth.limits.find((l) => l.binding);
    // The figures the findings state are the report's.
    for (const f of sized) {
      const numbers = (f.data as { numbers?: { rowsPerSecond?: number; rowsToLimit?: number } } | undefined)?.numbers;
      if (numbers?.rowsPerSecond !== undefined && numbers.rowsPerSecond !== data.growth.rowsPerSecond)
        say(`${f.ruleId} states ${numbers.rowsPerSecond} rows/s, the report draws ${data.growth.rowsPerSecond}`);
      if (numbers?.rowsToLimit !== undefined && numbers.rowsToLimit !== binding?.rowsAtLimit)
        say(`${f.ruleId} states the limit at ${numbers.rowsToLimit} rows, the report at ${binding?.rowsAtLimit}`);
    }

    // The bucket fit: one computation, drawn and reported alike.
    const fit = data.growth.bucketFit;
    const bucketFinding = findings.find(
      (f) => f.ruleId === 'large-partition' && (f.data as { bucket?: unknown }).bucket !== undefined,
    );
    const w = tableWorkload(table, project.tableHints(table.filePath, table), project.referencesTo(table));
    if (bucketFinding) {
      const bucket = (bucketFinding.data as { bucket: { rowsPerBucket: number } }).bucket;
      if (!fit || fit.fits) say('large-partition reports a bucket the report shows fitting');
      else if (fit.rowsPerBucket !== bucket.rowsPerBucket)
        say(`large-partition states ${bucket.rowsPerBucket} rows per bucket, the report ${fit.rowsPerBucket}`);
    } else if (fit && !fit.fits) {
      const stated = data.hints?.rowsPerPartition !== undefined || data.sampleVerdict !== undefined;
      const hotSpeaks =
        !fit.rateHinted && HOT_SHAPES.has(w.keyShape) && findings.some((f) => f.ruleId === 'hot-partition');
      if (!stated && !hotSpeaks)
        say(`the report shows a bucket past its limit (${fit.rowsPerBucket} rows) and no rule reports it`);
    }

    // No curve past the first limit under no finding.
    const today = data.growth.today;
    const reached = binding?.secondsToday;
    if (reached === undefined || today === undefined) {
      if (findings.some((f) => f.ruleId === 'unbounded-partition'))
        say(
          `unbounded-partition reports growth the report ${today ? 'never draws reaching the limit' : 'says does not happen'}`,
        );
      continue;
    }
    const any = (...rules: string[]): boolean => findings.some((f) => rules.includes(f.ruleId));
    if (today.stopsBecause === 'bucket') {
      if (!any('large-partition', 'hot-partition'))
        say(`the report draws each bucket past ${binding!.label} and no rule reports it`);
    } else if (today.stopsBecause === 'ttl') {
      if (!any('unbounded-partition', 'hot-partition'))
        say(`the report draws the partition past ${binding!.label} within its TTL and no rule reports it`);
    } else if (today.stopsBecause === undefined && reached <= HORIZON_SECONDS) {
      const unreported = w.rateClass === 'entity' && !w.rateHinted;
      if (!unreported && !any('unbounded-partition', 'hot-partition', 'queue-table'))
        say(
          `the report draws the partition past ${binding!.label} after ${Math.round(reached / 86_400)} days and no rule reports it`,
        );
    }
  }
  return { tables, problems };
}

describe('the partition report and the diagnostics agree', () => {
  for (const folder of ['killrvideo', 'cassandra-docs', 'dialects']) {
    test(`corpus: ${folder}`, () => {
      const project = new Project({ config: {} });
      for (const file of corpusFiles(folder)) project.setFile(file, readText(file));
      const { tables, problems } = disagreements(project);
      assert.ok(tables > 0 || folder === 'dialects');
      assert.deepEqual(problems, []);
    });
  }

  test(`the ${EXPERT_TABLES.length} expert-labelled tables`, () => {
    const problems: string[] = [];
    let tables = 0;
    for (const t of EXPERT_TABLES) {
      const project = new Project({ config: t.config ?? {}, target: t.target });
      project.setFile('/virtual/expert/main.cql', t.schema);
      if (t.app) project.setFile('/virtual/expert/app.cql', t.app);
      const result = disagreements(project);
      tables += result.tables;
      problems.push(...result.problems.map((p) => `${t.name}: ${p}`));
    }
    assert.equal(tables, EXPERT_TABLES.length);
    assert.deepEqual(problems, []);
  });
});
