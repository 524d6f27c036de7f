// The cluster yaml a .cqlint.json names (`cluster.config`), in the language server: read in the background
// in a trusted workspace (its values in the diagnostics, the hover of a table and the partition report, with
// file and line),
// not at all in Restricted Mode (the version's defaults apply, and the log says why).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { capabilities, startServer, tempWorkspace } from '../../scripts/lsp-client';

const SCHEMA =
  "CREATE TABLE ks.kv (k text, c int, v text, PRIMARY KEY (k, c));\nSELECT k, count(*) FROM ks.kv WHERE k = 'a' GROUP BY k;\n";
const YAML = 'cluster_name: test\ngroup_by_enabled: false\ncolumns_per_table_warn_threshold: 100\n';

test('a trusted workspace checks the yaml its .cqlint.json names and shows it in the hover; Restricted Mode does not read it', async (t) => {
  const ws = tempWorkspace({
    'schema.cql': SCHEMA,
    'cassandra.yaml': YAML,
    '.cqlint.json': JSON.stringify({ cluster: { version: '5.0', config: 'cassandra.yaml' } }),
  });
  t.after(() => ws.cleanup());
  for (const trusted of [true, false]) {
    const client = await startServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push, {
      workspaceFolders: [ws.dir],
      initializationOptions: { workspaceTrusted: trusted },
    });
    const uri = ws.uri('schema.cql');
    await client.open(uri, SCHEMA);
    if (trusted) {
      const diagnostics = await client.waitForDiagnostics(uri, (d) => d.some((x) => x.code === 'guardrail-statement'));
      const groupBy = diagnostics.find((d) => d.code === 'guardrail-statement')!;
      assert.match(String(groupBy.message), /GROUP BY fails on this cluster: group_by_enabled is false/);
      const hover = JSON.stringify(
        await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 17 } }),
      );
      assert.match(hover, /Cluster guardrails/);
      assert.match(hover, /columns_per_table_warn_threshold`: 100 \(cassandra\.yaml:3\)/);
      assert.match(hover, /group_by_enabled`: false \(cassandra\.yaml:2\)/);
      // The partition report lists them per table too.
      const page = (await client.request('cqlint/partitionReport', { textDocument: { uri }, table: 'ks.kv' })) as {
        html: string;
      } | null;
      assert.match(
        page?.html ?? '',
        /Cluster guardrails.*<code>group_by_enabled<\/code><\/td><td>false<\/td><td>cassandra\.yaml:2<\/td>/s,
      );
    } else {
      await client.waitForLog(/cluster config cassandra\.yaml: not read in Restricted Mode/);
      const diagnostics = await client.waitForDiagnostics(uri);
      assert.ok(!diagnostics.some((d) => d.code === 'guardrail-statement'), 'the defaults allow GROUP BY');
      const hover = JSON.stringify(
        await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 17 } }),
      );
      assert.doesNotMatch(hover, /cassandra\.yaml:/);
    }
  }
});
