// Names a user wrote (columns, tables, data centers, hint units) are looked up only among the names
// cqlint knows: `constructor`, `toString` or `__proto__` never find Object.prototype's members.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Project } from '../../server/core/engine/project';
import { parseConfig } from '../../server/core/config';
import { nameHover } from '../../server/core/editor/hover';
import { workspace } from '../editor/helpers';
import { replicasFor, parseRing, replicationFromMap } from '../../server/core/token/ring';
import { describeKeyPreview } from '../../server/core/token/preview';
import { nativeType } from '../../server/core/token/types';
import { buildFileReferences } from '../../server/core/schema/references';
import { parseCql } from '../../grammar';

const SCHEMA = `-- @cqlint rate=5/constructor constructor.bytes=100 __proto__.distinct=3
CREATE TABLE ks.u (
  constructor text,
  tostring int,
  "__proto__" text,
  "hasOwnProperty" text,
  v text,
  PRIMARY KEY ((constructor), tostring)
);
-- @shard constructor = murmur3(valueof) % 16 + 1
CREATE TABLE ks.s (d date, constructor int, valueof text, PRIMARY KEY ((d, constructor), valueof));
INSERT INTO ks.s (d, constructor, valueof) VALUES ('2020-01-01', 3, 'x');
SELECT * FROM ks.u WHERE constructor = 'a';
`;

const PROTOTYPE_LEAK = /function|native code|unlimited|NaN|undefined|\[object/;

describe('names that are Object.prototype members', () => {
  test('lint: no false hot partition, no leaked function text, the hint unit and the shard value judged as for any name', () => {
    const project = new Project({ config: {} });
    project.setFile('/v/names.cql', SCHEMA);
    const findings = project.lint('/v/names.cql');
    for (const f of findings) assert.doesNotMatch(f.message, PROTOTYPE_LEAK, f.message);
    assert.deepEqual(findings.map((f) => f.ruleId).sort(), ['invalid-hint', 'shard-mismatch']);
    assert.match(
      findings.find((f) => f.ruleId === 'invalid-hint')!.message,
      /rate must be a number of rows per second, minute, hour or day/,
    );
    assert.match(
      findings.find((f) => f.ruleId === 'shard-mismatch')!.message,
      /^constructor = 3 but murmur3\(valueof\) % 16 \+ 1 gives \d+/,
    );
  });

  test('the key hover of a statement without a value for a key column named constructor says so', () => {
    const preview = describeKeyPreview({ columns: [{ name: 'constructor', type: nativeType('text') }], values: {} });
    assert.deepEqual(preview.problem, {
      kind: 'not-computable',
      message: 'no value for partition key column constructor',
      column: 'constructor',
    });
  });

  test('the table hover states sizes and partitions from the schema, not from Object', () => {
    const { sources, index } = workspace({ '/ws/names.cql': SCHEMA });
    const offset = SCHEMA.indexOf('ks.u') + 3;
    const hover = nameHover(index, '/ws/names.cql', SCHEMA, sources.parse('/ws/names.cql'), offset);
    assert.ok(hover, 'a hover on the table');
    assert.doesNotMatch(hover.markdown, PROTOTYPE_LEAK, hover.markdown);
  });

  test('references: the literal values of columns named __proto__ or constructor are entries like any other', () => {
    const text = `INSERT INTO ks.u ("__proto__", constructor, v) VALUES ('p', 'c', 'v');\nSELECT * FROM ks.u WHERE constructor IN ('a', 'b', 'a');\n`;
    const [insert, select] = buildFileReferences('/v/refs.cql', parseCql(text));
    assert.equal(Object.getPrototypeOf(insert!.literals), null);
    assert.deepEqual(Object.entries(insert!.literals!), [
      ['__proto__', ['p']],
      ['constructor', ['c']],
      ['v', ['v']],
    ]);
    assert.deepEqual(Object.entries(select!.literals!), [['constructor', ['a', 'b']]]);
  });

  test('.cqlint.json: tables, columns and sizes named __proto__ or constructor are entries like any other', () => {
    const json = JSON.parse(
      '{"tables": {"__proto__": {"columnSizes": {"__proto__": 5, "constructor": 7}}, "constructor": {"rowsPerPartition": 9}}, "samples": {"__proto__": "a.csv"}}',
    );
    const { config, errors } = parseConfig(json, '/p/.cqlint.json');
    assert.deepEqual(errors, []);
    assert.deepEqual(Object.keys(config!.tables!).sort(), ['__proto__', 'constructor']);
    assert.deepEqual(Object.entries(config!.tables!['__proto__']!.columnSizes!).sort(), [
      ['__proto__', 5],
      ['constructor', 7],
    ]);
    assert.equal(config!.tables!['constructor']!.rowsPerPartition, 9);
    assert.deepEqual(Object.keys(config!.samples!), ['__proto__']);
  });

  test('a ring whose data center is named constructor gets the replication the keyspace gives it', () => {
    const ring = parseRing(
      JSON.stringify({
        '10.0.0.1': { tokens: ['0'], dc: 'constructor' },
        '10.0.0.2': { tokens: ['100'], dc: 'constructor' },
      }),
    );
    const replicas = replicasFor(ring, 50n, replicationFromMap({ class: 'NetworkTopologyStrategy', dc1: 3 }));
    assert.deepEqual(replicas, [], 'constructor is not a data center the keyspace replicates to');
  });
});
