// The real schemas of the test corpus (test/fixtures/corpus): every finding below was reviewed by hand (see the notes); the
// counts are asserted so that a rule change that adds noise (or loses a finding) shows up here.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import { corpusFiles, readText } from '../helpers/corpus';

function lintFolder(folder: string) {
  const project = new Project({ config: {} });
  const files = corpusFiles(folder);
  for (const f of files) project.setFile(f, readText(f));
  const counts: Record<string, number> = {};
  const lines: string[] = [];
  for (const f of files) {
    for (const x of project.lint(f)) {
      counts[x.ruleId] = (counts[x.ruleId] ?? 0) + 1;
      lines.push(`${f.split('/corpus/')[1]}:${x.range.start.line} ${x.ruleId}: ${x.message}`);
    }
  }
  return { project, counts, lines };
}

describe('corpus', () => {
  test('killrvideo', () => {
    const { project, counts, lines } = lintFolder('killrvideo');
    console.log(`killrvideo: ${JSON.stringify(counts)}\n${lines.join('\n')}`);
    assert.deepEqual(project.internalErrors, []);
    assert.deepEqual(counts, {
      // examples_schema-v5-data-examples.cql inserts into content_moderation without flagid (a clustering column): Cassandra rejects these
      'incomplete-key-write': 4,
      // the content_moderation status query in the v5 query examples
      'allow-filtering': 1,
      // the v5 query examples read users by account_status through its SAI index: a cluster-wide
      // scatter-gather (information)
      'secondary-index-scan': 1,
      // latest_videos keyed by day/yyyymmdd alone (v3, v5, astra) and video_activity by day: every write of the day in one partition;
      // v3 tags_by_letter keyed by first_letter: every tag in 26 partitions
      'hot-partition': 5,
      // v3 videos_by_tag (tag, videoid): a popular tag collects every video tagged with it, forever
      'unbounded-partition': 1,
      // schema-v5.cql's five CREATE FUNCTIONs: user_defined_functions_enabled is false on a default 4.0+ node
      'guardrail-schema': 5,
    });
  });

  test('cassandra-docs', () => {
    const { project, counts, lines } = lintFolder('cassandra-docs');
    console.log(`cassandra-docs: ${JSON.stringify(counts)}\n${lines.join('\n')}`);
    assert.deepEqual(project.internalErrors, []);
    assert.deepEqual(counts, {
      // SELECT * without WHERE or with non-key conditions on tables whose definition is known: full scans,
      // including the two `LIMIT 50000` exports of rank_by_year_and_name
      'unrestricted-partition-key': 40,
      // index queries without the partition key (ALLOW FILTERING ones are left to allow-filtering): 34 legacy
      // 2i / SASI warnings naming the index in effect that serves the restriction, and 16 SAI notes
      // (information) on queries served only by a storage-attached index
      'secondary-index-scan': 50,
      'allow-filtering': 10,
      // CREATE/ALTER KEYSPACE with SimpleStrategy (the docs' own advice is NetworkTopologyStrategy in production)
      'simple-strategy': 7,
      // create_table.cql: loads (machine, cpu) clustered by mtime timeuuid, no bucket, no TTL; timeline by userid
      // with its posted_month bucket among the clustering columns instead of in the partition key
      'unbounded-partition': 2,
      // country_flag-table.cql: cyclists keyed by country (~200 partitions, a few take most rows)
      'hot-partition': 1,
      // sai/create-vector-table-cycling.cql: ALTER ... ADD comment_vector, which the CREATE above already has
      'duplicate-column': 1,
      // tuple.cql: CREATE TABLE durations without a primary key
      'missing-primary-key': 1,
      // what a default 4.0+ node refuses: 5 CREATE MATERIALIZED VIEW (materialized_views_enabled), 5 SASI
      // indexes (sasi_indexes_enabled) and 5 CREATE FUNCTION (user_defined_functions_enabled)
      'guardrail-schema': 15,
    });
  });

  test('dialects', () => {
    const { project, counts, lines } = lintFolder('dialects');
    console.log(`dialects: ${JSON.stringify(counts)}\n${lines.join('\n')}`);
    assert.deepEqual(project.internalErrors, []);
    assert.deepEqual(counts, {
      // datastax/cyclist_category-table.cql defines cyclist_category twice, keyed (category, points): a
      // handful of categories hold every cyclist (hot-partition), and two cyclists with the same points in
      // one category overwrite each other (non-unique-key: id and lastname are not in the key)
      'hot-partition': 2,
      'non-unique-key': 2,
      // DataStax-only syntax: RESTRICT ROWS and OR in WHERE
      'syntax-error': 3,
      'unrestricted-partition-key': 1,
    });
  });

  test('a syntax error per broken docs file, and nothing crashes', () => {
    const { project, counts } = lintFolder('cassandra-docs-broken');
    assert.deepEqual(project.internalErrors, []);
    assert.ok((counts['syntax-error'] ?? 0) >= corpusFiles('cassandra-docs-broken').length);
  });
});
