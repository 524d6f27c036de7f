// Evidence for the partition rules' examples: small outputs of the cluster's tools in their exact formats
// (docs/evidence.md names the sources), with the figures an example needs.

/**
 * `nodetool tablestats` text (Cassandra 4.x) of one table, taken on `node` on `captured`; `uptime`: the
 * node's uptime as nodetool info prints it (`Uptime (seconds) : N`), above the output.
 */
export function tablestatsOutput(
  table: string,
  maxBytes: number,
  options: { node?: string; captured?: string; partitions?: number; uptimeSeconds?: number } = {},
): string {
  const [ks, name] = table.split('.');
  return [
    `$ nodetool -h ${options.node ?? '10.0.0.3'} tablestats ${table}`,
    `# captured: ${options.captured ?? '2026-11-20'}`,
    ...(options.uptimeSeconds !== undefined ? [`Uptime (seconds)       : ${options.uptimeSeconds}`] : []),
    'Total number of tables: 1',
    '----------------',
    `Keyspace : ${ks}`,
    '\tRead Count: 2202211',
    '\tRead Latency: 0.4123 ms',
    '\tWrite Count: 183224312',
    '\tWrite Latency: 0.0211 ms',
    '\tPending Flushes: 0',
    `\t\tTable: ${name}`,
    '\t\tSSTable count: 14',
    `\t\tNumber of partitions (estimate): ${options.partitions ?? 1460}`,
    '\t\tLocal read count: 2202211',
    '\t\tLocal read latency: 0.412 ms',
    '\t\tLocal write count: 183224312',
    '\t\tLocal write latency: 0.021 ms',
    '\t\tCompacted partition minimum bytes: 1916',
    `\t\tCompacted partition maximum bytes: ${maxBytes}`,
    `\t\tCompacted partition mean bytes: ${Math.round(maxBytes / 20)}`,
    '\t\tAverage live cells per slice (last five minutes): 12.5',
    '\t\tMaximum live cells per slice (last five minutes): 310',
    '',
    '----------------',
  ].join('\n');
}

/** `nodetool toppartitions ks table <duration>` (Cassandra 3.x layout): the WRITES sampler with these counts. */
export function toppartitionsOutput(
  table: string,
  durationMs: number,
  writes: [key: string, count: number][],
  options: { node?: string; cardinality?: number } = {},
): string {
  const [ks, name] = table.split('.');
  const width = Math.max(...writes.map(([k]) => k.length), 'Partition'.length);
  const row = (a: string, b: string, c: string): string => `\t${a.padEnd(width)}${b.padStart(10)}${c.padStart(10)}`;
  return [
    `$ nodetool -h ${options.node ?? '10.0.0.3'} toppartitions ${ks} ${name} ${durationMs}`,
    '# captured: 2026-11-20',
    'WRITES Sampler:',
    `  Cardinality: ~${options.cardinality ?? writes.length} (256 capacity)`,
    '  Top 10 partitions:',
    row('Partition', 'Count', '+/-'),
    ...writes.map(([k, c]) => row(k, String(c), '0')),
    '',
    'READS Sampler:',
    '  Cardinality: ~0 (256 capacity)',
    '  Top 10 partitions:',
    '\tNothing recorded during sampling period...',
  ].join('\n');
}
