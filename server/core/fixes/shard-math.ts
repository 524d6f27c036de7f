// The shard value of a statement's source values, through the shard maths of server/core/token/shard.ts,
// for a table's `@shard` annotation.
import type { Expression } from '../../../grammar/ast';
import { type TableInfo, columnNamed } from '../schema/model';
import { computeShardValue, type ShardSpec, type SourceValue } from '../token/shard';
import { keyTypeFromAst } from '../token/types';

/** murmur3/codepoints shard of the given source values; undefined for random shards or values it cannot compute. */
export function computeShard(spec: ShardSpec, table: TableInfo, values: ReadonlyMap<string, Expression>): number | undefined {
  if (spec.method === 'random') return undefined;
  const sources: Record<string, SourceValue> = {};
  for (const name of spec.sources) {
    const column = columnNamed(table, name);
    const value = values.get(name);
    if (!column?.type || !value) return undefined;
    sources[name] = { type: keyTypeFromAst(column.type), value };
  }
  const result = computeShardValue(spec, sources);
  return result.ok ? result.value : undefined;
}
