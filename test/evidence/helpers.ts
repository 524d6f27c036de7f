// The shop workspace the evidence view tests share: its schema, every fixture as its evidence, a ring,
// and the independent token oracle (cassandra-driver) for its keys.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../../server/core/engine/project';
import { readEvidence, type EvidenceFile } from '../../server/core/evidence';
import { driverEncoder, driverRoutingKey, driverToken, driverTypes } from '../token/helpers';

const FIXTURES = join(__dirname, '..', 'fixtures', 'evidence');
export const SHOP_SCHEMA = [
  "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 2};",
  'CREATE TABLE shop.events_by_day (day date, region text, ts timeuuid, payload text, PRIMARY KEY ((day, region), ts));',
  'CREATE TABLE shop.carts (cart_id uuid, item_id int, qty int, PRIMARY KEY (cart_id, item_id));',
].join('\n');
export const EVIDENCE_FIXTURES = [
  'tablestats-4x.txt',
  'tablehistograms-4x.txt',
  'toppartitions-3x.txt',
  'toppartitions-4x.txt',
  'dsbulk-count.txt',
  'large-partitions.csv',
];
/** Three nodes, two tokens each, one datacenter. */
export const RING = JSON.stringify({
  '10.0.0.3': { tokens: ['-6000000000000000000', '3000000000000000000'], dc: 'dc1', rack: 'r1' },
  '10.0.0.4': { tokens: ['-3000000000000000000', '6000000000000000000'], dc: 'dc1', rack: 'r2' },
  '10.0.0.5': { tokens: ['0', '9000000000000000000'], dc: 'dc1', rack: 'r3' },
});

export async function shopProject(): Promise<Project> {
  const files: EvidenceFile[] = [];
  for (const name of EVIDENCE_FIXTURES)
    files.push(
      await readEvidence([readFileSync(join(FIXTURES, name), 'utf8')], {
        file: join(FIXTURES, name),
        name: `evidence/${name}`,
      }),
    );
  const project = new Project({
    config: { evidence: [{ path: FIXTURES, name: 'evidence' }] },
    evidenceFiles: () => files,
  });
  project.setFile('/virtual/shop/shop.cql', SHOP_SCHEMA);
  return project;
}

/** The oracle's token of a (date, text) key: cassandra-driver's encoder, composite framing and Murmur3. */
export function oracleDayRegion(day: string, region: string): string {
  const parts = [
    driverEncoder.encode(driverTypes.LocalDate.fromString(day), driverTypes.dataTypes.date),
    driverEncoder.encode(region, driverTypes.dataTypes.text),
  ];
  return driverToken(driverRoutingKey(parts)).toString();
}
export function oracleUuid(uuid: string): string {
  return driverToken(driverEncoder.encode(driverTypes.Uuid.fromString(uuid), driverTypes.dataTypes.uuid)).toString();
}
