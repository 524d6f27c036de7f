// Data for a hover over a partition key value: token, key bytes, shard value, owning range and replicas.
import type { SourceRange } from '../../../grammar/ast';
import { type Replication, replicasFor, type Ring, type RingNode, tokenRangeOf } from './ring';
import { computeShardValue, formatShardFormula, type ShardSpec, type SourceValue } from './shard';
import { toHex, tryComputeToken } from './token';
import { type KeyType, keyTypeText } from './types';
import type { KeyValue } from './values';
import { inlineCode, markdownText } from '../util/markdown';
import { nameRecord } from '../util/names';

export interface KeyPreviewInput {
  /** Partition key columns in key order. */
  columns: { name: string; type: KeyType }[];
  /** Value per partition key column (AST expression, CQL text or JSON); the shard column may be missing when it can be computed. */
  values: Record<string, KeyValue | undefined>;
  /** The table's @shard spec; lets a missing shard value be computed from its source columns. */
  shard?: ShardSpec;
  /** Types and values of the shard's source columns when they are not part of the key. */
  sourceColumns?: Record<string, SourceValue>;
  ring?: Ring;
  replication?: Replication;
}

export interface KeyPreview {
  ok: boolean;
  /** The token as a decimal string (exact). */
  token?: string;
  /** Serialized partition key, hex. */
  keyHex?: string;
  keyLength?: number;
  components?: { column: string; type: string; hex: string }[];
  shard?: {
    formula: string;
    column: string;
    /** The formula's value, when computable. */
    value?: number;
    /** Why it cannot be computed (random, missing or non-literal source values). */
    note?: string;
    /** Set when the key's written shard value differs from the formula's. */
    written?: number;
  };
  ring?: {
    range: { start: string; end: string };
    primary: RingNode;
    replicas: RingNode[];
  };
  /** Why the token cannot be shown (non-literal value, invalid literal, ...). */
  problem?: { kind: string; message: string; column?: string; range?: SourceRange };
}

export function describeKeyPreview(input: KeyPreviewInput): KeyPreview {
  const out: KeyPreview = { ok: false };
  // Keyed by column names: no prototype, so a column named `constructor` is looked up like any other.
  const values = Object.assign(nameRecord<KeyPreviewInput['values'][string]>(), input.values);
  const spec = input.shard;
  if (spec) {
    const srcs = Object.assign(nameRecord<SourceValue>(), input.sourceColumns);
    for (const c of input.columns) {
      if (values[c.name] !== undefined && !srcs[c.name]) srcs[c.name] = { type: c.type, value: values[c.name]! };
    }
    const r = computeShardValue(spec, srcs);
    out.shard = { formula: `${spec.shardColumn} = ${formatShardFormula(spec)}`, column: spec.shardColumn };
    if (r.ok) out.shard.value = r.value;
    else out.shard.note = r.reason;
    const written = values[spec.shardColumn];
    if (written === undefined && r.ok) values[spec.shardColumn] = r.value;
    else if (written !== undefined && r.ok) {
      const shardType = input.columns.find((c) => c.name === spec.shardColumn)?.type;
      const t = shardType ? tryComputeToken([shardType], [written]) : undefined;
      if (t?.ok && typeof t.values[0] === 'number' && t.values[0] !== r.value) out.shard.written = t.values[0];
      if (t?.ok && typeof t.values[0] === 'bigint' && Number(t.values[0]) !== r.value)
        out.shard.written = Number(t.values[0]);
    }
  }
  const missing = input.columns.find((c) => values[c.name] === undefined);
  if (missing) {
    out.problem = {
      kind: 'not-computable',
      message: `no value for partition key column ${missing.name}`,
      column: missing.name,
    };
    return out;
  }
  const result = tryComputeToken(
    input.columns.map((c) => c.type),
    input.columns.map((c) => values[c.name]!),
    { columns: input.columns.map((c) => c.name) },
  );
  if (!result.ok) {
    out.problem = result.problem;
    return out;
  }
  out.ok = true;
  out.token = result.token.toString();
  out.keyHex = toHex(result.key);
  out.keyLength = result.key.length;
  out.components = input.columns.map((c, i) => {
    const single = tryComputeToken([c.type], [values[c.name]!]);
    return { column: c.name, type: keyTypeText(result.types[i]), hex: single.ok ? toHex(single.key) : '' };
  });
  if (input.ring) {
    const range = tokenRangeOf(input.ring, result.token);
    const replicas = replicasFor(
      input.ring,
      result.token,
      input.replication ?? { strategy: 'SimpleStrategy', replicationFactor: 1 },
    );
    out.ring = { range: { start: range.start.toString(), end: range.end.toString() }, primary: replicas[0], replicas };
  }
  return out;
}

/** Markdown for a hover. */
export function formatKeyPreviewMarkdown(p: KeyPreview): string {
  const lines: string[] = [];
  if (p.ok) {
    lines.push(`**token** ${inlineCode(String(p.token))}`);
    lines.push(`key bytes (${p.keyLength}): \`0x${p.keyHex}\``);
  } else if (p.problem) {
    lines.push(`token not computable: ${markdownText(p.problem.message)}`);
  }
  if (p.shard) {
    if (p.shard.value !== undefined) {
      lines.push(
        `shard: ${inlineCode(p.shard.formula)} = **${p.shard.value}**${p.shard.written !== undefined ? ` (written: ${p.shard.written})` : ''}`,
      );
    } else {
      lines.push(`shard: ${inlineCode(p.shard.formula)}${p.shard.note ? ` (${p.shard.note})` : ''}`);
    }
  }
  if (p.ring) {
    lines.push(`range (${p.ring.range.start}, ${p.ring.range.end}]`);
    lines.push(`replicas: ${p.ring.replicas.map((n) => markdownText(`${n.address} (${n.dc}/${n.rack})`)).join(', ')}`);
  }
  return lines.join('\n\n');
}
