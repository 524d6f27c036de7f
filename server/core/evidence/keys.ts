// A partition key as a tool printed it, decoded into the table's key columns and hashed to its token, so
// the report can show the exact token (and replicas) of a top partition and the fix for that very key:
// - nodetool (toppartitions, tablestats' top partitions) prints Cassandra's partition key type text:
//   one column as its type's text; a composite as the parts joined by `:`, a `:` inside a part escaped
//   `\:` and a `!` appended to a part ending in `\` or `!` (AbstractCompositeType.escape);
// - dsbulk joins CQL literals (`'2026-11-20'|'eu-west'|42`) with `|`, spaces turned into `_`;
// - ScyllaDB's system tables print `pk{<hex>}`: each part as a 2-byte length and its bytes.
import { murmur3Token } from '../token/murmur3';
import { KeyEncoder } from '../token/token';
import { keyTypeFromAst, keyTypeProblem, type KeyType, type UdtLookup } from '../token/types';
import type { TableInfo } from '../schema/model';
import type { EvidenceTool } from './types';

export interface DecodedKey {
  /** One value per partition key column, as CQL literal text (or as printed). */
  values: string[];
  /** The Murmur3Partitioner token, as `SELECT token(...)` returns it. */
  token?: string;
  /** Why the key could not be decoded or hashed. */
  problem?: string;
}

/** Splits on `sep` outside single-quoted CQL strings. */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      if (quoted && text[i + 1] === "'") {
        current += "''";
        i++;
        continue;
      }
      quoted = !quoted;
    }
    if (c === sep && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** Cassandra's composite split: on `:` not preceded by `\`, then `\:` -> `:` and a trailing `!` dropped. */
function splitComposite(text: string): string[] {
  const parts: string[] = [];
  let prev = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === ':' && (i === 0 || text[i - 1] !== '\\')) {
      parts.push(text.slice(prev, i));
      prev = i + 1;
    }
  }
  parts.push(text.slice(prev));
  return parts.map((p) => {
    const s = p.replace(/\\:/g, ':');
    return s.endsWith('!') ? s.slice(0, -1) : s;
  });
}

function hexComponents(hex: string): Uint8Array[] | undefined {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) return undefined;
  const bytes = Buffer.from(hex, 'hex');
  const parts: Uint8Array[] = [];
  let i = 0;
  while (i < bytes.length) {
    if (i + 2 > bytes.length) return undefined;
    const len = bytes.readUInt16BE(i);
    if (i + 2 + len > bytes.length) return undefined;
    parts.push(bytes.subarray(i + 2, i + 2 + len));
    i += 2 + len;
  }
  return parts;
}

function uuidText(b: Uint8Array): string {
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A value's bytes as CQL literal text, for the simple types; hex otherwise. */
function literalOf(type: KeyType, b: Uint8Array): string {
  const buf = Buffer.from(b);
  if (type.kind === 'native') {
    switch (type.name) {
      case 'text':
      case 'varchar':
      case 'ascii':
        return `'${buf.toString('utf8').replace(/'/g, "''")}'`;
      case 'int':
        if (buf.length === 4) return String(buf.readInt32BE(0));
        break;
      case 'bigint':
      case 'counter':
        if (buf.length === 8) return buf.readBigInt64BE(0).toString();
        break;
      case 'smallint':
        if (buf.length === 2) return String(buf.readInt16BE(0));
        break;
      case 'tinyint':
        if (buf.length === 1) return String(buf.readInt8(0));
        break;
      case 'boolean':
        if (buf.length === 1) return buf[0] ? 'true' : 'false';
        break;
      case 'uuid':
      case 'timeuuid':
        if (buf.length === 16) return uuidText(buf);
        break;
      case 'date':
        if (buf.length === 4)
          return `'${new Date((buf.readUInt32BE(0) - 2 ** 31) * 86_400_000).toISOString().slice(0, 10)}'`;
        break;
      case 'timestamp':
        if (buf.length === 8) return `'${new Date(Number(buf.readBigInt64BE(0))).toISOString()}'`;
        break;
      default:
        break;
    }
  }
  return `0x${buf.toString('hex')}`;
}

function keyTypes(table: TableInfo, udts?: UdtLookup): KeyType[] | undefined {
  const types = table.partitionKey.map((c) => (c.type ? keyTypeFromAst(c.type, udts) : undefined));
  return types.every((t): t is KeyType => !!t && !keyTypeProblem(t)) ? types : undefined;
}

/** A nodetool part of a type whose text Cassandra prints bare as CQL literal text (blobs as hex without 0x). */
function nodetoolLiteral(type: KeyType, text: string): string {
  if (type.kind === 'native' && type.name === 'blob' && /^[0-9a-f]*$/i.test(text)) return `0x${text}`;
  return text;
}

/** Decodes a printed key into the table's key columns and computes its token (never throws). */
/**
 * Whether a printed key can be a key of a partition key of `columns` columns: its parts as the tool joins
 * them. A key of another partition key (the table re-keyed since the capture: a shard or a time bucket joined
 * it) is another table's partition, whatever its name. A one-column key is taken as printed (its value may
 * hold a `:`), so a capture of a one-column key fits only a one-column key.
 */
export function keyFitsColumns(printed: string, tool: EvidenceTool, columns: number): boolean {
  const scylla = /^pk\{([0-9a-fA-F]*)\}$/.exec(printed.trim());
  if (scylla) return columns === 1 || hexComponents(scylla[1]!)?.length === columns;
  const parts = tool === 'dsbulk count' ? splitOutsideQuotes(printed, '|').length : splitComposite(printed).length;
  return columns === 1 ? (tool === 'dsbulk count' ? parts === 1 : true) : parts === columns;
}

export function decodePartitionKey(
  printed: string,
  tool: EvidenceTool,
  table: TableInfo,
  udts?: UdtLookup,
): DecodedKey {
  const types = keyTypes(table, udts);
  const n = table.partitionKey.length;
  const scylla = /^pk\{([0-9a-fA-F]*)\}$/.exec(printed.trim());
  if (scylla) {
    const parts = hexComponents(scylla[1]!);
    if (!parts || parts.length !== n)
      return {
        values: [printed],
        problem: `the key has ${parts?.length ?? 'no'} parts, the table's partition key ${n}`,
      };
    // Cassandra hashes one column's bytes as they are, a composite as length, bytes and a 0 byte per part.
    let bytes: Uint8Array;
    if (n === 1) bytes = parts[0]!;
    else {
      const out: number[] = [];
      for (const p of parts) out.push(p.length >> 8, p.length & 0xff, ...p, 0);
      bytes = Uint8Array.from(out);
    }
    return {
      values: parts.map((p, i) => (types ? literalOf(types[i]!, p) : `0x${Buffer.from(p).toString('hex')}`)),
      token: murmur3Token(bytes).toString(),
    };
  }
  let values: string[];
  if (tool === 'dsbulk count') values = splitOutsideQuotes(printed, '|');
  else values = n === 1 ? [printed] : splitComposite(printed);
  if (values.length !== n)
    return {
      values,
      problem: `the key has ${values.length} part${values.length === 1 ? '' : 's'}, the table's partition key ${n}`,
    };
  if (!types) return { values, problem: 'the partition key has a type whose token cqlint cannot compute' };
  if (tool !== 'dsbulk count') values = values.map((v, i) => nodetoolLiteral(types[i]!, v));
  try {
    const encoder = new KeyEncoder(types, { columns: table.partitionKey.map((c) => c.name) });
    return { values, token: encoder.token(encoder.parse(values)).toString() };
  } catch (error) {
    return { values, problem: error instanceof Error ? error.message : String(error) };
  }
}
