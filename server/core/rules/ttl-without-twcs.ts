// `ttl-without-twcs`: a time series that only ever expires (every row has a TTL: default_time_to_live, or
// USING TTL on every write of the workspace) compacted with SizeTieredCompactionStrategy (the default) or
// LeveledCompactionStrategy. Expired rows then sit in SSTables beside live ones until compaction happens
// to merge them; TimeWindowCompactionStrategy groups rows by write time and drops a whole SSTable once all
// of it has expired. The message gives the option, with a window of about a thirtieth of the TTL (the
// Apache docs advise 20-30 windows). Cassandra and ScyllaDB (the managed targets choose compaction
// themselves); a table with another strategy (TWCS, UCS, ICS ...) is left alone.
import { mapLiteralStrings } from '../schema/definitions';
import { formatDuration } from '../util/format';
import { tableWorkload, writeTtlSeconds } from '../schema/workload';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';
import { withLatestCreatedTable } from './defined-tables';
import type { FindingData } from '../findings/findings-data';
import { canHoldInstant } from '../schema/columns';

// States TWCS is the recommended strategy for time series and expiring TTL workloads, and 20-30 windows.
const TWCS_SOURCE = 'https://cassandra.apache.org/doc/latest/cassandra/managing/operating/compaction/twcs.html';
// Strategies that keep expired rows mixed with live ones.
const MIXING = new Set(['SizeTieredCompactionStrategy', 'LeveledCompactionStrategy']);
const UNITS: ['DAYS' | 'HOURS' | 'MINUTES', number][] = [
  ['DAYS', 86_400],
  ['HOURS', 3600],
  ['MINUTES', 60],
];

/** A TWCS window of about a thirtieth of the TTL, in the largest whole unit. */
function windowFor(ttlSeconds: number): { unit: 'DAYS' | 'HOURS' | 'MINUTES'; size: number } {
  const window = ttlSeconds / 30;
  for (const [unit, seconds] of UNITS) if (window >= seconds) return { unit, size: Math.round(window / seconds) };
  return { unit: 'MINUTES', size: 1 };
}

export const rule: RuleModule<'noTwcs'> = {
  meta: {
    id: 'ttl-without-twcs',
    defaultSeverity: 'warning',
    description:
      'A time series whose rows all expire by TTL, compacted without TimeWindowCompactionStrategy: expired rows linger beside live ones.',
    messages: {
      noTwcs: '{{table}} expires its rows by TTL but compacts without TimeWindowCompactionStrategy',
    },
    scope: 'statement',
  },
  handlers: {
    CreateTable: withLatestCreatedTable(true, (stmt, table, ctx) => {
      if (!ctx.target.compactionChoice) return;
      // Cheapest first: the compaction option, then whether rows arrive in time order, then the TTL.
      const declared = mapLiteralStrings(table.options.get('compaction'))['class'];
      const compaction = declared ? declared.replace(/^.*\./, '') : 'SizeTieredCompactionStrategy';
      if (!MIXING.has(compaction)) return;
      // Only a time series: a clustering column of a type that can hold an instant, before any lookup.
      if (!table.clustering.some(canHoldInstant)) return;
      const references = ctx.referencesTo(table);
      const w = tableWorkload(table, ctx.hints(table), references);
      if (w.growth?.by !== 'time') return;
      const writeTtl = writeTtlSeconds(references);
      const ttl = writeTtl ?? table.defaultTtlSeconds;
      if (!ttl) return;
      const ttlSource = writeTtl !== undefined ? 'USING TTL' : 'default_time_to_live';
      const { unit, size } = windowFor(ttl);
      const suggestedOption = `compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': '${unit}', 'compaction_window_size': ${size}}`;
      ctx.report({
        messageId: 'noTwcs',
        values: { table: table.qualifiedName },
        details:
          `${table.qualifiedName} writes its rows in time order (${w.growth.column.name}) and expires every one of them by TTL (${ttlSource} of ${formatDuration(ttl)}), ` +
          `but compacts with ${compaction}${declared ? '' : ' (the default)'}: expired rows stay in SSTables beside live ones until a compaction happens to merge them.\n\n` +
          `TimeWindowCompactionStrategy, recommended for expiring time series (${TWCS_SOURCE}), groups rows by write time and drops a whole SSTable once it has expired: ` +
          `WITH ${suggestedOption} (about 30 windows over the TTL).`,
        range: stmt.name.range,
        data: {
          table: table.qualifiedName,
          ttlSeconds: ttl,
          ttlSource,
          compaction,
          timeColumn: w.growth.column.name,
          windowUnit: unit,
          windowSize: size,
          suggestedOption,
        } satisfies FindingData<'ttl-without-twcs'>,
      });
    }),
  },
};

const cpu =
  'CREATE TABLE metrics.cpu_by_host_day (host text, day date, ts timestamp, pct double, PRIMARY KEY ((host, day), ts))';

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      name: 'TWCS already',
      code: `${cpu} WITH default_time_to_live = 2592000 AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 1};`,
    },
    { name: 'no TTL: rows are kept, not expired', code: `${cpu};` },
    {
      name: 'a TTL on a table of sessions keyed by id: overwritten, not a time series',
      code: 'CREATE TABLE web.sessions (session_id uuid PRIMARY KEY, data text) WITH default_time_to_live = 1800;',
    },
    {
      name: 'one write without USING TTL keeps its rows',
      code: `${cpu};\nINSERT INTO metrics.cpu_by_host_day (host, day, ts, pct) VALUES (?, ?, ?, ?) USING TTL 86400;\nINSERT INTO metrics.cpu_by_host_day (host, day, ts, pct) VALUES (?, ?, ?, ?);`,
    },
    {
      name: "the unified compaction strategy is the user's choice",
      code: `${cpu} WITH default_time_to_live = 2592000 AND compaction = {'class': 'UnifiedCompactionStrategy'};`,
    },
    {
      name: 'Keyspaces chooses compaction itself',
      code: `${cpu} WITH default_time_to_live = 2592000;`,
      target: 'keyspaces',
    },
  ],
  invalid: [
    {
      name: 'TTL class: a 30-day TTL on the default compaction',
      code: `${cpu} WITH default_time_to_live = 2592000;`,
      output: null,
      suggestion: {
        title: 'Compact metrics.cpu_by_host_day with TimeWindowCompactionStrategy (1-day windows)',
        output: `${cpu} WITH default_time_to_live = 2592000 AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 1};`,
      },
      at: 'metrics.cpu_by_host_day',
      message:
        /writes its rows in time order \(ts\) and expires every one of them by TTL \(default_time_to_live of 30 days\), but compacts with SizeTieredCompactionStrategy \(the default\).*'compaction_window_unit': 'DAYS', 'compaction_window_size': 1\}/,
      data: { windowUnit: 'DAYS', windowSize: 1, compaction: 'SizeTieredCompactionStrategy' },
    },
    {
      name: 'TTL class: USING TTL of 90 days on every write, leveled compaction',
      code: `${cpu} WITH compaction = {'class': 'LeveledCompactionStrategy'};\nINSERT INTO metrics.cpu_by_host_day (host, day, ts, pct) VALUES (?, ?, ?, ?) USING TTL 7776000;`,
      at: 'metrics.cpu_by_host_day',
      data: { ttlSource: 'USING TTL', compaction: 'LeveledCompactionStrategy', windowSize: 3 },
    },
    {
      name: 'TTL class: a day of heartbeats on ScyllaDB, 48-minute windows',
      code: 'CREATE TABLE iot.gateway_heartbeats (gateway_id text, beat_ts timestamp, rssi int, PRIMARY KEY (gateway_id, beat_ts)) WITH default_time_to_live = 86400;',
      at: 'iot.gateway_heartbeats',
      target: 'scylladb',
      data: { windowUnit: 'MINUTES', windowSize: 48 },
    },
  ],
};
