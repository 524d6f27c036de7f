// `secondary-index-scan`: a SELECT served by an index without restricting the partition key: the
// coordinator asks every node (every token range) for matches. The index named is the one that serves
// the restriction (serving-index.ts): in effect at that point of the file, covering the column the way
// the query reads it. A legacy index or SASI is a warning. A storage-attached index (SAI) is built for
// such queries but still costs a cluster-wide scatter-gather: that is reported as information (with the
// replication numbers of the keyspace), and `reportStorageAttached: false` silences it.
// With ALLOW FILTERING, allow-filtering reports the query instead.
import type { CqlintConfig } from '../vocabulary/config';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { analyseWhere, unrestrictedPartitionColumns } from '../util/statements';
import type { FindingData } from '../findings/findings-data';
import { describeIndex, indexFamily, scatterGatherCost, servedRestrictions } from './serving-index';
import { hasColumn } from '../schema/model';
import { settingParagraph } from './guardrail-text';

export const rule: RuleModule<'everyNode' | 'refused'> = {
  meta: {
    id: 'secondary-index-scan',
    defaultSeverity: 'warning',
    description:
      'An index query without the partition key: it fans out to every node (storage-attached indexes: information).',
    messages: {
      everyNode: 'this query on {{table}} asks every node: an index on {{column}} without the partition key',
      refused: 'this index query on {{table}} fails on this cluster: {{setting}} is false',
    },
    scope: 'statement',
    options: {
      defaultIndexIsSai: {
        type: 'boolean',
        default: false,
        description: 'Treat CREATE INDEX without USING as SAI (cassandra.yaml default_secondary_index: sai).',
      },
      reportStorageAttached: {
        type: 'boolean',
        default: true,
        description:
          'Report queries served by a storage-attached index (SAI) without the partition key, as information: they still contact every node.',
      },
    },
  },
  handlers: {
    Select(stmt, ctx) {
      const plainIsSai = ctx.options['defaultIndexIsSai'] === true;
      if (stmt.allowFiltering) return;
      const at = stmt.range.start;
      const table = ctx.tableFor(stmt.from, at);
      if (!table) return;
      const missing = unrestrictedPartitionColumns(table, analyseWhere(stmt.where));
      if (!missing.length) return;
      const served = servedRestrictions(stmt.where, ctx.indexesAt(table, at), table, plainIsSai);
      if (!served.length) return;
      // The team's non_partition_restricted_index_query_enabled: false refuses every such query.
      const cluster = ctx.cluster();
      const enabled = cluster?.flag('non_partition_restricted_index_query_enabled');
      if (cluster && enabled?.value === false) {
        ctx.report({
          messageId: 'refused',
          values: { table: table.qualifiedName, setting: enabled.writtenKey },
          details: `The query uses an index without the partition key (${missing.join(', ')}).\n\n${settingParagraph(cluster, enabled, 'fail', 'query')}\n\nRestrict ${missing.join(', ')} as well, or query a table keyed by ${served[0]!.column}.`,
          range: served[0]!.relation.range,
          data: {
            table: table.qualifiedName,
            column: served[0]!.column,
            indexKind: indexFamily(served[0]!.indexes[0]!, plainIsSai),
            missing,
            setting: enabled.key,
          } satisfies FindingData<'secondary-index-scan'>,
        });
        return;
      }
      const sai = served.find((s) => s.indexes.some((i) => indexFamily(i, plainIsSai) === 'sai'));
      if (sai) {
        if (ctx.options['reportStorageAttached'] === false) return;
        const index = sai.indexes.find((i) => indexFamily(i, plainIsSai) === 'sai')!;
        const keyspace = table.keyspace ? ctx.keyspace(table.keyspace) : undefined;
        ctx.report({
          severity: 'info',
          messageId: 'everyNode',
          values: { table: table.qualifiedName, column: sai.column },
          details: `It is served by ${describeIndex(index, plainIsSai)} without the partition key (${missing.join(', ')}): ${scatterGatherCost(keyspace)}.\n\nFine for occasional queries; for a frequent one restrict ${missing.join(', ')} as well, or query a table keyed by ${sai.column}.`,
          range: sai.relation.range,
          data: {
            table: table.qualifiedName,
            column: sai.column,
            ...(index.name ? { index: index.name } : {}),
            indexKind: 'sai',
            missing,
          } satisfies FindingData<'secondary-index-scan'>,
        });
        return;
      }
      // One index answers (Cassandra picks one when several could); name the others that could. The same
      // index defined in several files (CREATE INDEX IF NOT EXISTS in two scripts) is one index, not two.
      const first = served[0]!;
      const used = first.indexes[0]!;
      const label = (i: typeof used): string => i.name ?? `(${i.column})`;
      const alternatives = [...new Set(served.flatMap((s) => s.indexes).map(label))].filter(
        (name) => name !== label(used),
      );
      // Every other restricted regular column is filtered after the index lookup, which Cassandra
      // refuses without ALLOW FILTERING.
      const keyColumns = new Set([...table.partitionKey, ...table.clustering].map((c) => c.name));
      const needsFiltering = [
        ...new Set(stmt.where.flatMap((r) => (r.left.kind === 'ColumnRef' ? [r.left.name.name] : []))),
      ].filter((c) => c !== first.column && !keyColumns.has(c) && hasColumn(table, c));
      const family = indexFamily(used, plainIsSai);
      ctx.report({
        messageId: 'everyNode',
        values: { table: table.qualifiedName, column: first.column },
        details:
          `It is served by ${describeIndex(used, plainIsSai)}${alternatives.length ? ` (${alternatives.join(', ')} could serve it too)` : ''} without the partition key (${missing.join(', ')}): every node is asked.` +
          (needsFiltering.length
            ? ` The restriction on ${needsFiltering.join(', ')} would then be filtered: Cassandra refuses the query without ALLOW FILTERING.`
            : '') +
          `\n\nRestrict the partition key, use a storage-attached index (USING 'sai'), or query a table keyed by ${first.column}.`,
        range: first.relation.range,
        data: {
          table: table.qualifiedName,
          column: first.column,
          ...(used.name ? { index: used.name } : {}),
          indexKind: family,
          missing,
          ...(alternatives.length ? { alternatives } : {}),
          ...(needsFiltering.length ? { needsFiltering } : {}),
        } satisfies FindingData<'secondary-index-scan'>,
      });
    },
  },
};

const t = 'CREATE TABLE ks.t (id uuid, ts timestamp, country text, PRIMARY KEY (id, ts));\n';
const cyclists = 'CREATE TABLE cycling.cyclist_name (id uuid PRIMARY KEY, firstname text, lastname text);\n';
const sasi = (name: string, mode?: string): string =>
  `CREATE CUSTOM INDEX ${name} ON cycling.cyclist_name (firstname) USING 'org.apache.cassandra.index.sasi.SASIIndex'${mode ? ` WITH OPTIONS = { 'mode': '${mode}' }` : ''};\n`;
const teams = 'CREATE TABLE cycling.teams (id uuid PRIMARY KEY, lastname text, teams map<int, text>);\n';
const saiOff: CqlintConfig = { rules: { 'secondary-index-scan': ['warn', { reportStorageAttached: false }] } };

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'index lookup inside one partition',
      code: `${t}CREATE INDEX t_country ON ks.t (country);\nSELECT * FROM ks.t WHERE id = ? AND country = 'FR';`,
    },
    { name: 'partition key read, no index involved', code: `${t}SELECT * FROM ks.t WHERE id = ?;` },
    {
      name: 'SAI scan with the SAI notes turned off',
      code: `${t}CREATE INDEX t_country ON ks.t (country) USING 'sai';\nSELECT * FROM ks.t WHERE country = 'FR';`,
      config: saiOff,
    },
    {
      name: 'plain index taken as SAI (option), SAI notes off',
      code: `${t}CREATE INDEX t_country ON ks.t (country);\nSELECT * FROM ks.t WHERE country = 'FR';`,
      config: {
        rules: { 'secondary-index-scan': ['warn', { defaultIndexIsSai: true, reportStorageAttached: false }] },
      },
    },
    {
      name: 'index dropped before the query',
      code: `${t}CREATE INDEX t_country ON ks.t (country);\nDROP INDEX ks.t_country;\nSELECT * FROM ks.t WHERE country = 'FR';`,
    },
    {
      name: 'script creates the index only after the query',
      code: `${t}SELECT * FROM ks.t WHERE country = 'FR';\nCREATE INDEX t_country ON ks.t (country);`,
    },
    {
      name: 'filtering query (allow-filtering reports it)',
      code: `${t}CREATE INDEX t_country ON ks.t (country);\nSELECT * FROM ks.t WHERE country = 'FR' ALLOW FILTERING;`,
    },
    {
      name: 'map keys index cannot serve CONTAINS (values)',
      code: `${teams}CREATE INDEX team_keys ON cycling.teams (KEYS(teams));\nSELECT * FROM cycling.teams WHERE teams CONTAINS 'Rabobank';`,
    },
    {
      name: 'legacy index cannot serve a range',
      code: `${t}CREATE INDEX t_country ON ks.t (country);\nSELECT * FROM ks.t WHERE country > 'F';`,
    },
    {
      name: 'SASI cannot serve a range on text',
      code: `${cyclists}${sasi('fn_prefix')}SELECT * FROM cycling.cyclist_name WHERE firstname > 'Mar';`,
    },
    {
      name: 'prefix-mode SASI cannot serve an infix LIKE',
      code: `${cyclists}${sasi('fn_prefix')}SELECT * FROM cycling.cyclist_name WHERE firstname LIKE '%ari%';`,
    },
  ],
  invalid: [
    {
      name: "the team's non_partition_restricted_index_query_enabled: false",
      code: `${t}CREATE INDEX t_country ON ks.t (country);\nSELECT * FROM ks.t WHERE country = 'FR';`,
      clusterYaml: 'non_partition_restricted_index_query_enabled: false\n',
      at: "country = 'FR'",
      messageId: 'refused',
      data: { setting: 'non_partition_restricted_index_query_enabled', indexKind: 'legacy' },
    },
    {
      name: 'legacy index lookup without the partition key',
      code: `${t}CREATE INDEX t_country ON ks.t (country);\nSELECT * FROM ks.t WHERE country = 'FR';`,
      at: "country = 'FR'",
      message: /secondary index t_country on country without the partition key \(id\): every node is asked/,
      data: { column: 'country', index: 't_country', indexKind: 'legacy' },
    },
    {
      name: 'index defined in another file',
      code: `SELECT * FROM ks.t WHERE country = 'FR';`,
      at: 'country',
      files: { 'schema.cql': `${t}CREATE INDEX ON ks.t (country);` },
      data: { column: 'country', indexKind: 'legacy' },
    },
    {
      name: 'noise: the same index defined in two files is no alternative to itself',
      code: `SELECT * FROM ks.t WHERE country = 'FR';`,
      at: 'country',
      files: {
        'schema.cql': `${t}CREATE INDEX IF NOT EXISTS t_country ON ks.t (country);`,
        'migration.cql': 'CREATE INDEX IF NOT EXISTS t_country ON ks.t (country);',
      },
      message:
        /^this query on ks\.t asks every node: an index on country without the partition key It is served by the secondary index t_country on country without the partition key \(id\): every node is asked\. Restrict/,
      data: { index: 't_country', alternatives: undefined },
    },
    {
      name: 'indexes on two columns: the one on the restricted column',
      code: 'CREATE TABLE ks.u (id uuid PRIMARY KEY, email text, city text);\nCREATE INDEX u_email ON ks.u (email);\nCREATE INDEX u_city ON ks.u (city);\nSELECT * FROM ks.u WHERE city = ?;',
      at: 'city =',
      data: { column: 'city', index: 'u_city' },
    },
    {
      name: 'map entry lookup: the ENTRIES index, not the later VALUES one',
      code: `${teams}CREATE INDEX team_entries ON cycling.teams (ENTRIES(teams));\nCREATE INDEX team_values ON cycling.teams (VALUES(teams));\nSELECT * FROM cycling.teams WHERE teams[2015] = 'Rabobank';`,
      at: 'teams[',
      message: /ENTRIES\(teams\)/,
      data: { index: 'team_entries' },
    },
    {
      name: 'map value lookup: the VALUES index, not the KEYS one',
      code: `${teams}CREATE INDEX team_values ON cycling.teams (VALUES(teams));\nCREATE INDEX team_keys ON cycling.teams (KEYS(teams));\nSELECT * FROM cycling.teams WHERE teams CONTAINS 'Rabobank';`,
      at: 'teams CONTAINS',
      data: { index: 'team_values' },
    },
    {
      name: 'map key lookup: the KEYS index',
      code: `${teams}CREATE INDEX team_keys ON cycling.teams (KEYS(teams));\nCREATE INDEX team_entries ON cycling.teams (ENTRIES(teams));\nSELECT * FROM cycling.teams WHERE teams CONTAINS KEY 2015;`,
      at: 'teams CONTAINS',
      data: { index: 'team_keys' },
    },
    {
      name: 'frozen list equality: the FULL index',
      code: 'CREATE TABLE cycling.race_starts (cyclist_name text PRIMARY KEY, rnumbers frozen<list<int>>);\nCREATE INDEX rnumbers_idx ON cycling.race_starts (FULL(rnumbers));\nSELECT * FROM cycling.race_starts WHERE rnumbers = [39, 7, 14];',
      at: 'rnumbers =',
      message: /FULL\(rnumbers\)/,
      data: { index: 'rnumbers_idx' },
    },
    {
      name: 'infix LIKE: the CONTAINS-mode SASI index, not the prefix one',
      code: `${cyclists}${sasi('fn_prefix')}${sasi('fn_contains', 'CONTAINS')}SELECT * FROM cycling.cyclist_name WHERE firstname LIKE '%ari%';`,
      at: 'firstname LIKE',
      message: /SASI index fn_contains on firstname without/,
      data: { index: 'fn_contains', indexKind: 'sasi' },
    },
    {
      name: 'prefix LIKE with two able indexes: the latest, the other named',
      code: `${cyclists}${sasi('fn_prefix')}${sasi('fn_contains', 'CONTAINS')}SELECT * FROM cycling.cyclist_name WHERE firstname LIKE 'Mar%';`,
      at: 'firstname LIKE',
      message: /fn_contains on firstname \(fn_prefix could serve it too\)/,
      data: { index: 'fn_contains', alternatives: ['fn_prefix'] },
    },
    {
      name: 'time range on a SPARSE-mode SASI index',
      code: "CREATE TABLE cycling.comments (id uuid, created_at timestamp, comment text, PRIMARY KEY (id, created_at));\nCREATE CUSTOM INDEX fn_sparse ON cycling.comments (created_at) USING 'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = { 'mode': 'SPARSE' };\nSELECT * FROM cycling.comments WHERE created_at < '2017-02-13';",
      at: 'created_at <',
      data: { index: 'fn_sparse', indexKind: 'sasi' },
    },
    {
      name: 'script: the index in effect at the query, not one created later',
      code: `${cyclists}${sasi('fn_prefix')}SELECT * FROM cycling.cyclist_name WHERE firstname = 'Marianne';\n${sasi('fn_contains', 'CONTAINS')}`,
      at: 'firstname =',
      data: { index: 'fn_prefix' },
    },
    {
      name: 'script: an index dropped at the end still served the queries before',
      code:
        'CREATE TABLE cycling.birthdays (cyclist_name text PRIMARY KEY, blist map<text, text>);\nCREATE INDEX blist_idx ON cycling.birthdays (ENTRIES(blist));\nCREATE INDEX blist_values_idx ON cycling.birthdays (VALUES(blist));\n' +
        "SELECT * FROM cycling.birthdays WHERE blist['age'] = '23';\nDROP INDEX IF EXISTS cycling.blist_idx;",
      at: 'blist[',
      data: { index: 'blist_idx' },
    },
    {
      name: 'table resolved through USE',
      code: `USE ks;\nCREATE TABLE t (id uuid, ts timestamp, country text, PRIMARY KEY (id, ts));\nCREATE INDEX t_country ON t (country);\nSELECT * FROM t WHERE country = 'FR';`,
      at: 'country =',
      message: /this query on ks\.t asks every node.* served by the secondary index t_country/,
    },
    {
      name: "same table name in two keyspaces: the queried keyspace's index",
      code: 'CREATE TABLE a.t (id int PRIMARY KEY, x int, y int);\nCREATE TABLE b.t (id int PRIMARY KEY, x int, y int);\nCREATE INDEX a_x ON a.t (x);\nCREATE INDEX b_y ON b.t (y);\nCREATE INDEX b_x ON b.t (x);\nSELECT * FROM b.t WHERE x = 1;',
      at: 'x =',
      data: { index: 'b_x' },
    },
    {
      name: 'two indexed regular columns: Cassandra refuses without ALLOW FILTERING',
      code:
        'CREATE TABLE cycling.alt_stats (id uuid PRIMARY KEY, birthday date, nationality text);\nCREATE INDEX birthday_idx ON cycling.alt_stats (birthday);\nCREATE INDEX nationality_idx ON cycling.alt_stats (nationality);\n' +
        "SELECT * FROM cycling.alt_stats WHERE birthday = '1982-01-29' AND nationality = 'Russia';",
      at: 'birthday =',
      message: /refuses the query without ALLOW FILTERING/,
      data: { index: 'birthday_idx', alternatives: ['nationality_idx'], needsFiltering: ['nationality'] },
    },
    {
      name: 'storage-attached index scan: information, with the replication numbers',
      code:
        "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n" +
        `${t}CREATE INDEX t_country ON ks.t (country) USING 'sai';\nSELECT * FROM ks.t WHERE country = 'FR';`,
      at: 'country =',
      severity: 'info',
      message:
        /storage-attached index t_country on country without the partition key \(id\): .*every token range.*dc1: replication factor 3, so each range is read from 1 of its 3 replicas at LOCAL_ONE, 2 at LOCAL_QUORUM/,
      data: { indexKind: 'sai', index: 't_country' },
    },
    {
      name: 'storage-attached index scan, single-replica keyspace',
      code:
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n" +
        `${t}CREATE INDEX t_country ON ks.t (country) USING 'sai';\nSELECT * FROM ks.t WHERE country = 'FR';`,
      at: 'country =',
      severity: 'info',
      message: /replication factor 1, so each range has one replica and every node answers/,
    },
    {
      name: 'storage-attached index scan, keyspace unknown',
      code: `${t}CREATE CUSTOM INDEX ON ks.t (country) USING 'StorageAttachedIndex';\nSELECT * FROM ks.t WHERE country = 'FR';`,
      at: 'country =',
      severity: 'info',
      message: /cluster-wide scatter-gather/,
    },
    {
      name: 'plain index taken as SAI (option)',
      code: `${t}CREATE INDEX t_country ON ks.t (country);\nSELECT * FROM ks.t WHERE country = 'FR';`,
      at: 'country =',
      config: { rules: { 'secondary-index-scan': ['warn', { defaultIndexIsSai: true }] } },
      severity: 'info',
      data: { indexKind: 'sai' },
    },
    {
      name: 'SAI note stays information when the rule is an error',
      code: `${t}CREATE INDEX t_country ON ks.t (country) USING 'sai';\nSELECT * FROM ks.t WHERE country = 'FR';`,
      at: 'country =',
      config: { rules: { 'secondary-index-scan': 'error' } },
      severity: 'info',
    },
  ],
};
