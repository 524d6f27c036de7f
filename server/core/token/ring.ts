// A token ring (from `nodetool ring`, `nodetool describering` or JSON) and replica placement like
// `nodetool getendpoints`: SimpleStrategy and NetworkTopologyStrategy (distinct racks first per DC).
import type { CreateKeyspaceStatement, Expression } from '../../../grammar/ast';
import { nameRecord, ownEntry } from '../util/names';
import { LineIndex } from '../../../grammar/line-index';
import { nestingPast } from '../util/json-scan';
import { MAX_TOKEN, MIN_TOKEN } from './murmur3';

export interface RingNode {
  address: string;
  dc: string;
  rack: string;
}

interface RingEntry {
  token: bigint;
  node: RingNode;
  /** Where the token was read (`line 12`, `node 3, token 2`), for error messages. */
  where?: string;
}

/** An explicit range with its replicas (from describering): (start, end]. */
interface RingRange {
  start: bigint;
  end: bigint;
  endpoints: string[];
  /** Where the range was read, for error messages. */
  where?: string;
}

export interface Ring {
  /** Sorted by token, one entry per token (vnodes give a node many entries). */
  entries: RingEntry[];
  nodes: RingNode[];
  /** Set when the ring came from `nodetool describering`: replicas per range as the cluster computed them. */
  ranges?: RingRange[];
}

/**
 * A ring file that cannot be used. Messages name a line (or an entry's position) and never quote the
 * file's content: a workspace could point the ring at a file of secrets, and errors reach hovers and logs.
 */
export class RingParseError extends Error {
  override name = 'RingParseError';
}

const DEFAULT_DC = 'datacenter1';
const DEFAULT_RACK = 'rack1';

function buildRing(entries: RingEntry[], ranges?: RingRange[]): Ring {
  if (!entries.length) throw new RingParseError('no tokens found in the ring description');
  entries.sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
  for (let i = 1; i < entries.length; i++) {
    if (entries[i].token === entries[i - 1].token) {
      const first = entries[i - 1].where,
        second = entries[i].where;
      throw new RingParseError(`the same token is given twice${first && second ? ` (${first} and ${second})` : ''}`);
    }
  }
  const byAddress = new Map<string, RingNode>();
  for (const e of entries) {
    const known = byAddress.get(e.node.address);
    if (known) e.node = known;
    else byAddress.set(e.node.address, e.node);
  }
  return { entries, nodes: [...byAddress.values()], ranges };
}

function parseToken(text: string, where: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new RingParseError(`${where}: not a token (a signed 64-bit integer)`);
  // A 2^63 has 19 digits: do not turn a megabyte of digits into a BigInt to find it out of range.
  const t = text.replace(/^-?0*/, '').length > 20 ? undefined : BigInt(text);
  if (t === undefined || t < MIN_TOKEN || t > MAX_TOKEN)
    throw new RingParseError(`${where}: token outside -2^63..2^63-1`);
  return t;
}

/**
 * `nodetool ring` output: `Datacenter: dc1` headers, then lines
 * `Address Rack Status State Load Owns Token` (the Load may contain a space, e.g. `105.6 KiB`).
 */
export function parseNodetoolRing(text: string): Ring {
  const entries: RingEntry[] = [];
  let dc = DEFAULT_DC;
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    const dcMatch = /^\s*Datacenter:\s*(\S+)/.exec(line);
    if (dcMatch) {
      dc = dcMatch[1];
      return;
    }
    const fields = line.trim().split(/\s+/);
    if (fields.length < 4) return;
    const address = fields[0];
    if (!/^[0-9a-fA-F:.]+$/.test(address) || !/[.:]/.test(address) || !/\d/.test(address)) return;
    const token = fields[fields.length - 1];
    if (!/^-?\d+$/.test(token)) return;
    const rack = fields[1];
    entries.push({
      token: parseToken(token, `line ${i + 1}`),
      node: { address: address.replace(/\/.*$/, ''), dc, rack },
      where: `line ${i + 1}`,
    });
  });
  if (!entries.length)
    throw new RingParseError(
      'no `nodetool ring` lines found (expected "Address Rack Status State Load Owns Token" rows)',
    );
  return buildRing(entries);
}

const TOKEN_RANGE = 'TokenRange(';
/** The start of a range, read where a `TokenRange(` stands (sticky: no search, no backtracking over the line). */
const RANGE_START = /TokenRange\(\s*start_token:\s*(-?\d+),\s*end_token:\s*(-?\d+),\s*endpoints:\s*\[/y;
const ENDPOINT_DETAILS = 'EndpointDetails(';

/**
 * `nodetool describering <keyspace>` output: a line per range, `TokenRange(start_token:..., end_token:...,
 * endpoints:[...], ..., endpoint_details:[EndpointDetails(host:..., datacenter:..., rack:...), ...])`.
 * Read line by line with indexOf: a search with `[^\]]*` over the whole text cost the square of a megabyte
 * of unclosed `TokenRange(...endpoints:[` (44 s).
 */
export function parseDescribeRing(text: string): Ring {
  const entries: RingEntry[] = [];
  const ranges: RingRange[] = [];
  const details = new Map<string, RingNode>();
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    for (let at = line.indexOf(TOKEN_RANGE); at >= 0; at = line.indexOf(TOKEN_RANGE, at + 1)) {
      RANGE_START.lastIndex = at;
      const m = RANGE_START.exec(line);
      if (!m) continue;
      const close = line.indexOf(']', RANGE_START.lastIndex);
      if (close < 0) return;
      const where = `line ${i + 1}`;
      const start = parseToken(m[1], where);
      const end = parseToken(m[2], where);
      const endpoints = line
        .slice(RANGE_START.lastIndex, close)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      readEndpointDetails(line.slice(close + 1), details);
      ranges.push({ start, end, endpoints, where });
      return; // one range a line
    }
  });
  if (!ranges.length) throw new RingParseError('no TokenRange(...) lines found in the `nodetool describering` output');
  for (const r of ranges) {
    const primary = r.endpoints[0];
    if (!primary) continue;
    entries.push({
      token: r.end,
      node: details.get(primary) ?? { address: primary, dc: DEFAULT_DC, rack: DEFAULT_RACK },
      where: r.where,
    });
  }
  return buildRing(entries, ranges);
}

/** `EndpointDetails(host: a, datacenter: d, rack: r)` entries of a line, by address. */
function readEndpointDetails(text: string, details: Map<string, RingNode>): void {
  for (let at = text.indexOf(ENDPOINT_DETAILS); at >= 0;) {
    const close = text.indexOf(')', at);
    if (close < 0) return;
    // The last entry that opens before this `)` (an unclosed one before it holds no details).
    const start = text.lastIndexOf(ENDPOINT_DETAILS, close);
    const [host, dc, ...rack] = text.slice(start + ENDPOINT_DETAILS.length, close).split(',');
    const value = (part: string | undefined, name: string): string | undefined => {
      const t = part?.trimStart();
      return t?.startsWith(`${name}:`) ? t.slice(name.length + 1).trim() : undefined;
    };
    const address = value(host, 'host');
    const datacenter = value(dc, 'datacenter');
    const rackName = value(rack.join(','), 'rack');
    if (address && datacenter && rackName) details.set(address, { address, dc: datacenter, rack: rackName });
    at = text.indexOf(ENDPOINT_DETAILS, close + 1);
  }
}

const MAX_RING_NESTING = 8;

/**
 * JSON: `{"10.0.0.1": ["-9000...", "0"], ...}` or `{"10.0.0.1": {"tokens": [...], "dc": "dc1", "rack": "r1"}}`
 * (tokens as strings to stay exact; integers are accepted when they are exact).
 */
export function parseRingJson(text: string): Ring {
  // A ring is three levels deep at most (node -> { tokens: [...] }): deeper is not a ring, and is refused
  // before JSON.parse spends a second a megabyte on it.
  const deep = nestingPast(text, MAX_RING_NESTING);
  if (deep !== undefined)
    throw new RingParseError(
      `ring JSON nested deeper than ${MAX_RING_NESTING} levels (line ${new LineIndex(text).location(deep).line}); a ring is node -> tokens`,
    );
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    // The parser's own message quotes the text around the error: give the line only.
    const position = /at position (\d+)/.exec((e as Error).message);
    throw new RingParseError(
      `ring JSON does not parse${position ? ` (line ${new LineIndex(text).location(Number(position[1])).line})` : ''}`,
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new RingParseError('ring JSON must be an object of node -> tokens');
  const entries: RingEntry[] = [];
  let nodeIndex = 0;
  for (const [address, v] of Object.entries(data as Record<string, unknown>)) {
    const node = `node ${++nodeIndex}`;
    let tokens: unknown;
    let dc = DEFAULT_DC,
      rack = DEFAULT_RACK;
    if (Array.isArray(v)) tokens = v;
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      tokens = o.tokens;
      if (typeof o.dc === 'string') dc = o.dc;
      if (typeof o.datacenter === 'string') dc = o.datacenter;
      if (typeof o.rack === 'string') rack = o.rack;
    } else if (typeof v === 'string' || typeof v === 'number') tokens = [v];
    if (!Array.isArray(tokens)) throw new RingParseError(`${node}: expected a list of tokens`);
    tokens.forEach((t: unknown, i) => {
      const where = `${node}, token ${i + 1}`;
      if (typeof t === 'number' && !Number.isSafeInteger(t))
        throw new RingParseError(`${where}: not exact as a JSON number; write it as a string`);
      if (typeof t !== 'string' && typeof t !== 'number') throw new RingParseError(`${where}: tokens must be strings`);
      entries.push({ token: parseToken(String(t), where), node: { address, dc, rack }, where });
    });
  }
  return buildRing(entries);
}

/** Detects the format (JSON, describering or nodetool ring) and parses it. */
export function parseRing(text: string): Ring {
  const t = text.trim();
  if (t.startsWith('{')) return parseRingJson(t);
  if (/TokenRange\(/.test(t)) return parseDescribeRing(t);
  return parseNodetoolRing(t);
}

// -------------------------------------------------------------------------------------------------
// Replication

export type Replication =
  | { strategy: 'SimpleStrategy'; replicationFactor: number }
  | { strategy: 'NetworkTopologyStrategy'; dcs: Record<string, number>; defaultFactor?: number }
  | { strategy: 'LocalStrategy' | 'EverywhereStrategy' }
  | { strategy: 'unknown'; className: string };

function literalText(e: Expression): string | undefined {
  if (e.kind === 'Literal') return e.value;
  return undefined;
}

function factor(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*(\d+)(?:\/\d+)?\s*$/.exec(text); // '3' or '3/1' (transient replicas count in the total)
  return m ? Number(m[1]) : undefined;
}

/** Replication from CREATE KEYSPACE ... WITH replication = {...}. */
export function replicationFromKeyspace(ks: CreateKeyspaceStatement): Replication | undefined {
  const prop = ks.properties.find((p) => p.name.name === 'replication');
  if (!prop || prop.value.kind !== 'MapLiteral') return undefined;
  const map = nameRecord<string>();
  for (const { key, value } of prop.value.entries) {
    const k = literalText(key);
    const v = value.kind === 'Literal' ? value.value : undefined;
    if (k !== undefined && v !== undefined) map[k] = v;
  }
  return replicationFromMap(map);
}

/** Replication from its option map (`{'class': 'NetworkTopologyStrategy', 'dc1': '3'}`). */
export function replicationFromMap(map: Record<string, string | number>): Replication {
  const cls = String(map.class ?? '');
  const short = cls.replace(/^org\.apache\.cassandra\.locator\./, '');
  if (short === 'SimpleStrategy')
    return { strategy: 'SimpleStrategy', replicationFactor: factor(String(map.replication_factor ?? '1')) ?? 1 };
  if (short === 'NetworkTopologyStrategy') {
    const dcs = nameRecord<number>();
    let defaultFactor: number | undefined;
    for (const [k, v] of Object.entries(map)) {
      if (k === 'class') continue;
      const f = factor(String(v));
      if (f === undefined) continue;
      if (k === 'replication_factor') defaultFactor = f;
      else dcs[k] = f;
    }
    return { strategy: 'NetworkTopologyStrategy', dcs, defaultFactor };
  }
  if (short === 'LocalStrategy' || short === 'EverywhereStrategy') return { strategy: short };
  return { strategy: 'unknown', className: cls };
}

/** Index of the ring entry owning `token`: the first token >= it, wrapping to the first. */
export function ownerIndex(ring: Ring, token: bigint): number {
  const e = ring.entries;
  let lo = 0,
    hi = e.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (e[mid].token < token) lo = mid + 1;
    else hi = mid;
  }
  return lo === e.length ? 0 : lo;
}

/** The range (start, end] containing `token`. */
export function tokenRangeOf(ring: Ring, token: bigint): { start: bigint; end: bigint } {
  const i = ownerIndex(ring, token);
  const prev = ring.entries[(i - 1 + ring.entries.length) % ring.entries.length];
  return { start: prev.token, end: ring.entries[i].token };
}

/**
 * The replicas of `token` in placement order, like `nodetool getendpoints`. Walks the ring clockwise from
 * the owning token. NetworkTopologyStrategy follows Cassandra: per DC, new racks are taken first; a node
 * in an already used rack is taken only while `rf - racks` repeats remain.
 */
export function replicasFor(ring: Ring, token: bigint, replication: Replication): RingNode[] {
  if (ring.ranges) {
    const r = ring.ranges.find((x) => inRange(token, x.start, x.end));
    if (r) {
      const byAddress = new Map(ring.nodes.map((n) => [n.address, n]));
      return r.endpoints.map((a) => byAddress.get(a) ?? { address: a, dc: DEFAULT_DC, rack: DEFAULT_RACK });
    }
  }
  const entries = ring.entries;
  const start = ownerIndex(ring, token);
  const out: RingNode[] = [];
  const seen = new Set<string>();
  if (replication.strategy === 'LocalStrategy') return [entries[start].node];
  if (replication.strategy === 'EverywhereStrategy' || replication.strategy === 'unknown') {
    for (let k = 0; k < entries.length; k++) {
      const n = entries[(start + k) % entries.length].node;
      if (!seen.has(n.address)) {
        seen.add(n.address);
        out.push(n);
      }
      if (replication.strategy === 'unknown') break;
    }
    return out;
  }
  if (replication.strategy === 'SimpleStrategy') {
    const rf = Math.min(replication.replicationFactor, ring.nodes.length);
    for (let k = 0; k < entries.length && out.length < rf; k++) {
      const n = entries[(start + k) % entries.length].node;
      if (!seen.has(n.address)) {
        seen.add(n.address);
        out.push(n);
      }
    }
    return out;
  }
  if (replication.strategy !== 'NetworkTopologyStrategy') return out;
  interface DcState {
    rfLeft: number;
    repeats: number;
    racks: Set<string>;
  }
  const dcs = new Map<string, DcState>();
  const dcNames = new Set(ring.nodes.map((n) => n.dc));
  for (const dc of dcNames) {
    const rf = ownEntry(replication.dcs, dc) ?? replication.defaultFactor ?? 0;
    if (rf <= 0) continue;
    const nodesInDc = ring.nodes.filter((n) => n.dc === dc);
    const racks = new Set(nodesInDc.map((n) => n.rack)).size;
    dcs.set(dc, { rfLeft: Math.min(rf, nodesInDc.length), repeats: rf - racks, racks: new Set() });
  }
  let toFill = [...dcs.values()].filter((d) => d.rfLeft > 0).length;
  for (let k = 0; k < entries.length && toFill > 0; k++) {
    const n = entries[(start + k) % entries.length].node;
    const d = dcs.get(n.dc);
    if (!d || d.rfLeft <= 0 || seen.has(n.address)) continue;
    if (!d.racks.has(n.rack)) {
      d.racks.add(n.rack);
    } else {
      if (d.repeats <= 0) continue;
      d.repeats--;
    }
    seen.add(n.address);
    out.push(n);
    d.rfLeft--;
    if (d.rfLeft === 0) toFill--;
  }
  return out;
}

/** Whether token lies in the ring range (start, end] (wrapping when start >= end). */
export function inRange(token: bigint, start: bigint, end: bigint): boolean {
  if (start < end) return token > start && token <= end;
  return token > start || token <= end;
}
