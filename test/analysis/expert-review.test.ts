// Realistic tables from several domains, each labelled with the partition-design verdict an expert would
// give (before the rules ran on them): how many findings each partition rule should report. The rules
// decide from the workload model (server/core/schema/workload.ts); this table keeps them honest beyond
// the cases the rules' own examples name.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CqlintConfig } from '../../server/core/vocabulary/config';
import type { TargetId } from '../../server/core/partition/targets';
import { MAIN, ofRule, projectWith, summary } from './helpers';

const RULES = ['hot-partition', 'unbounded-partition', 'large-partition', 'partition-throughput'] as const;
type Verdict = Partial<Record<(typeof RULES)[number], number>>;

interface Review {
  name: string;
  code: string;
  /** Findings per rule; a rule not named expects none. */
  expect: Verdict;
  /** Why an expert says so. */
  why: string;
  config?: CqlintConfig;
  target?: TargetId;
}

const reviews: Review[] = [
  // IoT
  {
    name: 'sensor readings by sensor',
    code: 'CREATE TABLE iot.sensor_readings (sensor_id uuid, reading_ts timestamp, temperature double, humidity double, PRIMARY KEY (sensor_id, reading_ts));',
    expect: { 'unbounded-partition': 1 },
    why: 'a sensor writes forever into one partition',
  },
  {
    name: 'sensor readings by sensor and day',
    code: 'CREATE TABLE iot.readings_by_sensor_day (sensor_id uuid, day date, ts timestamp, value double, PRIMARY KEY ((sensor_id, day), ts));',
    expect: {},
    why: 'the day bucket bounds each partition',
  },
  {
    name: 'latest device status',
    code: 'CREATE TABLE iot.device_status_latest (device_id text PRIMARY KEY, status text, last_seen timestamp, battery int);',
    expect: {},
    why: 'one row per device, overwritten',
  },
  {
    name: 'alarms by severity',
    code: 'CREATE TABLE iot.alarms_by_severity (severity text, raised_at timestamp, device_id uuid, message text, PRIMARY KEY (severity, raised_at, device_id));',
    expect: { 'hot-partition': 1, 'unbounded-partition': 1 },
    why: 'a handful of severities take every alarm, forever',
  },
  {
    name: 'gateway heartbeats with a one-day TTL',
    code: 'CREATE TABLE iot.gateway_heartbeats (gateway_id text, beat_ms bigint, rssi int, PRIMARY KEY (gateway_id, beat_ms)) WITH default_time_to_live = 86400;',
    expect: {},
    why: 'the TTL keeps one day of beats',
  },
  {
    name: 'meter readings kept five years',
    code: 'CREATE TABLE iot.meter_readings (meter_id uuid, read_at timestamp, kwh double, PRIMARY KEY (meter_id, read_at)) WITH default_time_to_live = 157680000;',
    expect: { 'unbounded-partition': 1 },
    why: 'five years of readings in one partition',
  },
  {
    name: 'sensor group sharded but never bucketed',
    code: 'CREATE TABLE iot.readings_sharded (sensor_group text, shard int, ts timestamp, value double, PRIMARY KEY ((sensor_group, shard), ts));',
    expect: { 'unbounded-partition': 1 },
    why: 'each (group, shard) still grows forever',
  },
  // E-commerce
  {
    name: 'orders by customer',
    code: 'CREATE TABLE shop.orders_by_customer (customer_id uuid, order_id timeuuid, total decimal, status text, PRIMARY KEY (customer_id, order_id));',
    expect: {},
    why: "a customer's orders grow at human pace",
  },
  {
    name: 'orders by status',
    code: 'CREATE TABLE shop.orders_by_status (status text, order_id timeuuid, customer_id uuid, total decimal, PRIMARY KEY (status, order_id));',
    expect: { 'hot-partition': 1, 'unbounded-partition': 1 },
    why: 'every order lands in a few status partitions, forever',
  },
  {
    name: 'products',
    code: 'CREATE TABLE shop.products (product_id uuid PRIMARY KEY, name text, price decimal, category text);',
    expect: {},
    why: 'keyed by id',
  },
  {
    name: 'products by category',
    code: 'CREATE TABLE shop.products_by_category (category text, product_id uuid, name text, price decimal, PRIMARY KEY (category, product_id));',
    expect: { 'hot-partition': 1 },
    why: 'a few categories hold the catalogue',
  },
  {
    name: 'cart items',
    code: 'CREATE TABLE shop.cart_items (cart_id uuid, product_id uuid, quantity int, PRIMARY KEY (cart_id, product_id));',
    expect: {},
    why: 'a cart is small',
  },
  {
    name: 'daily sales counters per store',
    code: 'CREATE TABLE shop.daily_sales_by_store (store_id uuid, sale_date date, total counter, PRIMARY KEY (store_id, sale_date));',
    expect: {},
    why: 'keyed by store; one row a day',
  },
  {
    name: 'inventory events per SKU',
    code: 'CREATE TABLE shop.inventory_events (sku text, event_time timestamp, delta int, warehouse text, PRIMARY KEY (sku, event_time));',
    expect: { 'unbounded-partition': 1 },
    why: 'every stock movement of a SKU, forever',
  },
  {
    name: 'prices by currency',
    code: 'CREATE TABLE shop.prices_by_currency (currency text, product_id uuid, price decimal, PRIMARY KEY (currency, product_id));',
    expect: { 'hot-partition': 1 },
    why: 'the whole catalogue in ~180 skewed partitions',
  },
  // Social
  {
    name: 'posts by user',
    code: 'CREATE TABLE social.posts_by_user (user_id uuid, post_id timeuuid, body text, PRIMARY KEY (user_id, post_id));',
    expect: {},
    why: "a user's own posts: human pace",
  },
  {
    name: 'followers',
    code: 'CREATE TABLE social.followers (user_id uuid, follower_id uuid, since timestamp, PRIMARY KEY (user_id, follower_id));',
    expect: {},
    why: 'celebrities are skewed, but nothing in the schema says so: stay silent',
  },
  {
    name: 'posts by hashtag',
    code: 'CREATE TABLE social.posts_by_hashtag (hashtag text, post_id timeuuid, author_id uuid, PRIMARY KEY (hashtag, post_id));',
    expect: { 'unbounded-partition': 1 },
    why: 'a popular hashtag grows forever',
  },
  {
    name: 'notifications per user',
    code: 'CREATE TABLE social.notifications (user_id uuid, created_at timestamp, kind text, payload text, PRIMARY KEY (user_id, created_at));',
    expect: { 'unbounded-partition': 1 },
    why: 'machine-generated, never expire',
  },
  {
    name: 'users by language',
    code: 'CREATE TABLE social.users_by_language (language text, user_id uuid, name text, PRIMARY KEY (language, user_id));',
    expect: { 'hot-partition': 1 },
    why: 'English takes most users',
  },
  {
    name: 'user profiles',
    code: 'CREATE TABLE social.user_profiles (user_id uuid PRIMARY KEY, display_name text, country text, language text);',
    expect: {},
    why: 'keyed by id',
  },
  // Finance
  {
    name: 'trades by symbol',
    code: 'CREATE TABLE fin.trades_by_symbol (symbol text, trade_time timestamp, trade_id timeuuid, price decimal, qty int, PRIMARY KEY (symbol, trade_time, trade_id));',
    expect: { 'unbounded-partition': 1 },
    why: 'a liquid symbol trades forever',
  },
  {
    name: 'trades by symbol and day',
    code: 'CREATE TABLE fin.trades_by_symbol_day (symbol text, trade_date date, trade_time timestamp, trade_id timeuuid, price decimal, PRIMARY KEY ((symbol, trade_date), trade_time, trade_id));',
    expect: {},
    why: 'bucketed by day',
  },
  {
    name: 'account ledger',
    code: 'CREATE TABLE fin.account_ledger (account_id uuid, entry_id timeuuid, amount decimal, balance decimal, PRIMARY KEY (account_id, entry_id));',
    expect: { 'unbounded-partition': 1 },
    why: 'ledgers are bucketed by month in practice: busy accounts never stop',
  },
  {
    name: 'transactions by merchant',
    code: 'CREATE TABLE fin.transactions_by_merchant (merchant_id uuid, txn_time timestamp, txn_id uuid, amount decimal, PRIMARY KEY (merchant_id, txn_time, txn_id));',
    expect: { 'unbounded-partition': 1 },
    why: 'a big merchant takes payments all day, forever',
  },
  {
    name: 'fx rates per currency pair',
    code: 'CREATE TABLE fin.fx_rates (currency_pair text, as_of timestamp, rate decimal, PRIMARY KEY (currency_pair, as_of));',
    expect: { 'unbounded-partition': 1 },
    why: 'a rate tick stream per pair',
  },
  {
    name: 'accounts by branch',
    code: 'CREATE TABLE fin.accounts_by_branch (branch_id int, account_id uuid, opened date, PRIMARY KEY (branch_id, account_id));',
    expect: {},
    why: 'branches are many and even enough: unsure, silent',
  },
  // Gaming
  {
    name: 'leaderboard by level',
    code: 'CREATE TABLE game.leaderboard_by_level (level int, score bigint, player_id uuid, PRIMARY KEY (level, score, player_id)) WITH CLUSTERING ORDER BY (score DESC, player_id ASC);',
    expect: { 'hot-partition': 1 },
    why: 'a few levels hold every player',
  },
  {
    name: 'player sessions',
    code: 'CREATE TABLE game.player_sessions (player_id uuid, session_start timestamp, duration int, PRIMARY KEY (player_id, session_start));',
    expect: {},
    why: "a player's sessions: human pace",
  },
  {
    name: 'events of one match',
    code: 'CREATE TABLE game.match_events (match_id uuid, event_seq int, event_type text, payload text, PRIMARY KEY (match_id, event_seq));',
    expect: {},
    why: 'a match ends: its events are naturally bounded',
  },
  {
    name: 'chat by guild (Discord)',
    code: 'CREATE TABLE game.chat_by_guild (guild_id bigint, message_id bigint, author_id bigint, content text, PRIMARY KEY (guild_id, message_id));',
    expect: { 'unbounded-partition': 1 },
    why: 'Discord had to bucket exactly this',
  },
  {
    name: 'players by region',
    code: 'CREATE TABLE game.players_by_region (region text, player_id uuid, name text, PRIMARY KEY (region, player_id));',
    expect: { 'hot-partition': 1 },
    why: 'a handful of regions',
  },
  // Logging and operations
  {
    name: 'logs by level',
    code: 'CREATE TABLE ops.logs_by_level (level text, ts timeuuid, service text, line text, PRIMARY KEY (level, ts));',
    expect: { 'hot-partition': 1, 'unbounded-partition': 1 },
    why: 'five levels take every line, forever',
  },
  {
    name: 'app logs by service and hour',
    code: 'CREATE TABLE ops.app_logs (service text, hour timestamp, ts timeuuid, line text, PRIMARY KEY ((service, hour), ts));',
    expect: {},
    why: 'hour bucket',
  },
  {
    name: 'spans of one trace',
    code: 'CREATE TABLE ops.request_traces (trace_id uuid, span_id uuid, started_at timestamp, duration_ms int, PRIMARY KEY (trace_id, span_id));',
    expect: {},
    why: 'a trace is bounded',
  },
  {
    name: 'host metrics with a 14-day TTL',
    code: 'CREATE TABLE ops.metrics_by_host (host text, metric text, ts timestamp, value double, PRIMARY KEY ((host, metric), ts)) WITH default_time_to_live = 1209600;',
    expect: {},
    why: 'two weeks of per-minute samples stay small',
  },
  {
    name: 'error counters by day',
    code: 'CREATE TABLE ops.error_counts_by_day (day date, error_code text, count counter, PRIMARY KEY (day, error_code));',
    expect: { 'hot-partition': 1 },
    why: "every error of the day increments today's partition",
  },
  {
    name: 'audit log per tenant',
    code: 'CREATE TABLE ops.audit_log (tenant_id uuid, event_time timestamp, actor text, action text, PRIMARY KEY (tenant_id, event_time));',
    expect: { 'unbounded-partition': 1 },
    why: "a tenant's audit log never stops",
  },
  {
    name: 'job queue',
    code: 'CREATE TABLE ops.job_queue (queue text, enqueued_at timeuuid, job_id uuid, payload blob, PRIMARY KEY (queue, enqueued_at));',
    expect: { 'hot-partition': 1, 'unbounded-partition': 1 },
    why: 'the queue anti-pattern: few queues, endless rows and tombstones',
  },
  // Other
  {
    name: 'stores by country code',
    code: 'CREATE TABLE geo.stores_by_country (country_code text, store_id uuid, city text, PRIMARY KEY (country_code, store_id));',
    expect: { 'hot-partition': 1 },
    why: '~200 skewed partitions',
  },
  {
    name: 'views by video and day',
    code: 'CREATE TABLE media.views_by_video_day (video_id uuid, day date, viewer_id uuid, viewed_at timestamp, PRIMARY KEY ((video_id, day), viewed_at, viewer_id));',
    expect: {},
    why: 'day bucket',
  },
  {
    name: 'view counters per video',
    code: 'CREATE TABLE media.video_view_counts (video_id uuid PRIMARY KEY, views counter);',
    expect: {},
    why: 'keyed by video',
  },
  {
    name: 'employees by gender',
    code: 'CREATE TABLE hr.employees_by_gender (gender text, employee_id uuid, name text, PRIMARY KEY (gender, employee_id));',
    expect: { 'hot-partition': 1 },
    why: 'two or three partitions',
  },
  // With hints
  {
    name: 'sensor readings with a rows hint',
    code: 'CREATE TABLE iot.sensor_readings (sensor_id uuid, reading_ts timestamp, temperature double, humidity double, PRIMARY KEY (sensor_id, reading_ts));',
    config: { tables: { 'iot.sensor_readings': { rowsPerPartition: 500_000 } } },
    expect: { 'unbounded-partition': 1, 'large-partition': 1 },
    why: '500,000 rows of two values is ten times the values guidance',
  },
  {
    name: 'orders by status on Keyspaces at 3,000 writes/s',
    code: 'CREATE TABLE shop.orders_by_status (status text, order_id timeuuid, customer_id uuid, total decimal, PRIMARY KEY (status, order_id));',
    config: { tables: { 'shop.orders_by_status': { writesPerSecondPerPartition: 3000 } } },
    target: 'keyspaces',
    expect: { 'hot-partition': 1, 'partition-throughput': 1 },
    why: 'three times the 1,000 WCU a partition takes; Keyspaces has no size limit',
  },
];

describe('expert review of realistic tables', () => {
  test('at least 30 tables', () => assert.ok(reviews.length >= 30));
  for (const r of reviews) {
    test(`${r.name}: ${r.why}`, () => {
      const project = projectWith(r.code, {}, { config: r.config ?? {}, target: r.target });
      const findings = project.lint(MAIN);
      assert.deepEqual(project.internalErrors, []);
      for (const rule of RULES) {
        const mine = ofRule(findings, rule);
        assert.equal(mine.length, r.expect[rule] ?? 0, `${rule} on ${r.name}:\n${summary(mine)}`);
      }
    });
  }
});
