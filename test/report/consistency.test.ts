// One verdict: on real CQL (the corpus, ../shared/corpus when present, examples/), every table's report
// lists exactly diagnostics (rule, severity, message, place), its badge counts them, every diagnostic on
// a table's statements lands in that table's report, and the figures the partition rules cite are the
// report's figures: the first limit and the rows that reach it, the rate, the cure, throughput, size.
// A growth chart that passes a limit without a finding says why, in the rules' terms.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../../server/core/engine/project';
import type { Finding } from '../../server/core/findings/findings';
import { isFindingOf } from '../../server/core/findings/findings-data';
import { renderReportHtml } from '../../server/core/report/html';
import { tableReport, tablesDefinedIn, type PartitionReportData } from '../../server/core/report';
import { severityRank } from '../../server/core/report/table-findings';
import { fixesForFinding } from '../../server/core/fixes';
import { projectFixContext } from '../../server/core/fixes/environment';
import { BUCKETS } from '../../server/core/partition/planner';
import { corpusFiles, projectRoot, readText } from '../helpers/corpus';

function cqlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? cqlFiles(p) : name.endsWith('.cql') ? [p] : [];
    });
}

const CURE_ORDER = ['unbounded-partition', 'large-partition', 'hot-partition', 'partition-throughput'];

function check(files: readonly string[]): {
  tables: number;
  findings: number;
  partition: number;
  attributed: number;
  cured: number;
} {
  const project = new Project({});
  for (const file of files) project.setFile(file, readText(file));
  const diagnostics = new Map<string, Finding[]>(files.map((f) => [f, project.lint(f)]));
  const tables = tablesDefinedIn(project);
  const reports: PartitionReportData[] = tables.map((t) => tableReport(project, t));
  let cured = 0;
  const key = (ruleId: string, file: string, line: number): string => `${ruleId}\0${file}\0${line}`;
  let listed = 0;
  let partition = 0;
  for (const r of reports) {
    const where = `${r.table} (${r.file})`;
    // Listed findings are diagnostics, as they are.
    for (const f of r.findings) {
      const same = (diagnostics.get(f.file) ?? []).find(
        (d) => d.ruleId === f.ruleId && d.range.start.line === f.line && d.message === f.message,
      );
      assert.ok(same, `${where}: ${f.ruleId} at ${f.file}:${f.line} is no diagnostic`);
      assert.equal(same.severity, f.severity);
    }
    listed += r.findings.length;
    // The badge counts them, with their worst severity.
    const worst = r.findings.reduce<string | undefined>(
      (w, f) => (severityRank(f.severity) > severityRank(w as never) ? f.severity : w),
      undefined,
    );
    assert.equal(r.severity, worst, where);
    const html = renderReportHtml([r]);
    const badge = /<h2>[^<]*<span class="badge sev-(\w+)" data-severity="\w+" data-findings="(\d+)">/.exec(html);
    assert.ok(badge, where);
    assert.deepEqual([badge[1], Number(badge[2])], [r.severity ?? 'none', r.findings.length], where);

    // The partition rules' figures are the report's.
    const binding = r.growth.limits.find((l) => l.binding);
    for (const d of diagnostics.get(r.file) ?? []) {
      if (!r.findings.some((f) => f.on === 'table' && f.ruleId === d.ruleId && f.line === d.range.start.line)) continue;
      const numbers = (
        d.data as { numbers?: { limitLabel?: string; rowsToLimit?: number; rowsPerSecond?: number } } | undefined
      )?.numbers;
      if (numbers?.limitLabel !== undefined && !(isFindingOf(d, 'large-partition') && d.data.sample)) {
        partition++;
        assert.equal(binding?.label, numbers.limitLabel, `${where}: ${d.ruleId}'s first limit`);
        assert.equal(binding?.rowsAtLimit, numbers.rowsToLimit, `${where}: ${d.ruleId}'s rows to the limit`);
        if (numbers.rowsPerSecond !== undefined)
          assert.equal(r.growth.rowsPerSecond, numbers.rowsPerSecond, `${where}: ${d.ruleId}'s rate`);
      }
      if (isFindingOf(d, 'hot-partition')) assert.ok(r.traffic, `${where}: a hot table has its traffic panel`);
      if (isFindingOf(d, 'partition-throughput')) {
        const row = r.throughput.find((t) => t.kind === d.data.kind);
        assert.deepEqual([row?.unitsPerSecond, row?.shardsNeeded], [d.data.unitsPerSecond, d.data.shardsNeeded], where);
      }
      if (
        isFindingOf(d, 'large-partition') &&
        d.data.estimatedBytes !== undefined &&
        d.data.rowsPerPartition !== undefined
      ) {
        assert.equal(r.sizeTerms.rows, d.data.rowsPerPartition, where);
        assert.equal(
          r.sizeTerms.total,
          d.data.estimatedBytes,
          `${where}: the size terms add up to large-partition's estimate`,
        );
      }
    }

    // "With the fix" is the preferred fix of the table's first partition finding that has one: the fix the
    // editor offers first and `cqlint fix` applies, its shards and bucket.
    const table = tables.find((t) => t.qualifiedName === r.table && t.filePath === r.file)!;
    const env = projectFixContext(project, r.file);
    const text = project.getText(r.file)!;
    const plan = (diagnostics.get(r.file) ?? [])
      .filter(
        (d) =>
          CURE_ORDER.includes(d.ruleId) &&
          d.range.start.offset >= table.range.start &&
          d.range.end.offset <= table.range.end,
      )
      .sort((a, b) => CURE_ORDER.indexOf(a.ruleId) - CURE_ORDER.indexOf(b.ruleId))
      .map((d) => fixesForFinding(text, project.parse(r.file), d, env).find((f) => f.isPreferred && f.plan)?.plan)
      .find((p) => p && (p.shard || p.bucket));
    if (table.clustering.length)
      assert.deepEqual(r.growth.cure?.plan, plan, `${where}: the cure is the preferred fix's plan`);
    if (plan && r.growth.today) {
      cured++;
      // Today's curve starts from the rate the fix was sized from; the cured one is the fix's own rate.
      if (plan.figures) {
        assert.equal(r.growth.rowsPerSecond, plan.figures.rowsPerSecond, `${where}: the rate the fix was sized from`);
        assert.equal(r.growth.cured?.rowsPerSecond, plan.figures.rowsPerSecondAfter, where);
      }
      assert.equal(r.growth.cured?.rowsPerSecond, r.growth.rowsPerSecond / (plan.shard?.count ?? 1), where);
      if (plan.bucket)
        assert.equal(
          r.growth.cured?.stopsAfterSeconds,
          Math.min(BUCKETS[plan.bucket.granularity].seconds, r.growth.today.stopsAfterSeconds ?? Infinity),
          where,
        );
    }

    // A chart that passes the first limit without a size finding says why.
    const reported = r.findings.some(
      (f) => f.on === 'table' && ['unbounded-partition', 'large-partition', 'hot-partition'].includes(f.ruleId),
    );
    if (r.growth.verdict.kind === 'not-reported') assert.match(r.growth.verdict.text, /reportEntityHistories/, where);
    if (binding?.secondsToday !== undefined && r.growth.today && !reported) {
      assert.ok(
        ['bounded', 'beyond-horizon', 'not-reported'].includes(r.growth.verdict.kind),
        `${where}: ${r.growth.verdict.kind}`,
      );
      if (r.growth.verdict.kind === 'bounded') assert.match(r.growth.verdict.text, /passes its first limit/, where);
    }
    if (!r.growth.today) assert.equal(r.growth.verdict.kind, 'no-growth', where);
  }

  // Every diagnostic on a table's definition or on a statement that uses it is in that table's report.
  const listedKeys = new Set(reports.flatMap((r) => r.findings.map((f) => key(f.ruleId, f.file, f.line))));
  let attributed = 0;
  for (const table of tablesDefinedIn(project)) {
    const ranges = [
      { file: table.filePath, start: table.range.start, end: table.range.end },
      ...project.referencesTo(table).map((ref) => ({ file: ref.file, ...ref.range })),
    ];
    for (const range of ranges) {
      for (const d of diagnostics.get(range.file) ?? []) {
        if (d.range.start.offset < range.start || d.range.end.offset > range.end) continue;
        attributed++;
        assert.ok(
          listedKeys.has(key(d.ruleId, range.file, d.range.start.line)),
          `${d.ruleId} at ${range.file}:${d.range.start.line} is in no report`,
        );
      }
    }
  }
  return { tables: reports.length, findings: listed, partition, attributed, cured };
}

test('one verdict on the killrvideo corpus', () => {
  const { tables, findings, partition, attributed, cured } = check(corpusFiles('killrvideo'));
  assert.ok(cured >= 3, `${cured} curves drawn with the preferred fix`);
  assert.ok(tables >= 50, `${tables} tables`);
  assert.ok(attributed >= 10, `${attributed} diagnostics on tables and their statements found in the reports`);
  // The review's case: content_moderation's INSERTs missing a key column and its ALLOW FILTERING scan.
  assert.ok(findings >= 10, `${findings} findings listed`);
  assert.ok(partition >= 4, `${partition} partition findings checked against the report's figures`);
});

test('one verdict on the Cassandra documentation corpus', () => {
  const { tables, partition } = check(corpusFiles('cassandra-docs'));
  assert.ok(tables >= 50, `${tables} tables`);
  assert.ok(partition >= 1, `${partition} partition findings`);
});

test('one verdict on examples/', () => {
  const { tables, findings, partition, cured } = check(cqlFiles(join(projectRoot, 'examples')));
  // schema/ (7 tables) and evidence/ (the shop measured on its cluster: 2 tables).
  assert.equal(tables, 9);
  assert.ok(cured >= 2, `${cured} curves drawn with the preferred fix`);
  assert.ok(findings >= 4 && partition >= 3, `${findings} findings, ${partition} partition findings`);
});

test("the review's table: content_moderation lists its queries' errors and its ALLOW FILTERING scan", () => {
  const project = new Project({});
  for (const file of corpusFiles('killrvideo')) project.setFile(file, readText(file));
  const table = tablesDefinedIn(project).find(
    (t) => t.qualifiedName === 'killrvideo.content_moderation' && t.filePath.endsWith('schema-v5.cql'),
  )!;
  const r = tableReport(project, table);
  assert.equal(r.severity, 'error');
  assert.ok(r.findings.filter((f) => f.ruleId === 'incomplete-key-write' && f.on === 'query').length >= 1);
  assert.ok(r.findings.some((f) => f.ruleId === 'allow-filtering' && f.on === 'query'));
  const html = renderReportHtml([r]);
  assert.doesNotMatch(html, /no findings/);
  assert.match(html, /data-figure="query-findings"/);
});
