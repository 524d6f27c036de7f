// Facts about CQL types that the rules and the size estimate need (the printer of a type is util/cql-type.ts).
import type { CqlType, NativeTypeName, SourceRange } from '../../../grammar/ast';
import { typeText } from '../util/cql-type';

/** Where a shared type stands: nowhere (it stands for every column of that type; read locations from a parse). */
const NO_RANGE: SourceRange = Object.freeze({
  start: 0,
  end: 0,
});

/** Shared types by their text; dropped when full, like the name pool (it grows with the schema's types). */
const sharedTypes = new Map<string, CqlType>();
const MAX_SHARED_TYPES = 10_000;

/**
 * One range-free object per type for schemas that outlive their tree (compactFileSchema): a released
 * file's columns of `text` or `frozen<address>` all point at one copy, not each at its own subtree.
 * Types print to the same text exactly when Cassandra reads them as the same type.
 */
export function sharedType(type: CqlType): CqlType {
  const text = typeText(type);
  const known = sharedTypes.get(text);
  if (known) return known;
  if (sharedTypes.size >= MAX_SHARED_TYPES) sharedTypes.clear();
  const copy = withoutRanges(type);
  sharedTypes.set(text, copy);
  return copy;
}

function withoutRanges<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutRanges) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'range' ? NO_RANGE : withoutRanges(value);
  return out as T;
}

/** The native type, looking through `frozen<>`; undefined for collections, tuples, UDTs and unknowns. */
export function nativeName(type: CqlType | undefined): NativeTypeName | undefined {
  if (!type) return undefined;
  if (type.kind === 'FrozenType') return nativeName(type.inner);
  return type.kind === 'NativeType' ? type.name : undefined;
}

export function isCollection(type: CqlType | undefined): boolean {
  if (!type) return false;
  return type.kind === 'CollectionType';
}

/** Default value sizes in bytes used by the partition size estimate (override per column in config). */
const NATIVE_SIZES: Record<NativeTypeName, number> = {
  ascii: 32,
  text: 32,
  varchar: 32,
  blob: 64,
  bigint: 8,
  counter: 8,
  double: 8,
  timestamp: 8,
  time: 8,
  varint: 8,
  int: 4,
  float: 4,
  date: 4,
  smallint: 2,
  tinyint: 1,
  boolean: 1,
  decimal: 16,
  uuid: 16,
  timeuuid: 16,
  inet: 16,
  duration: 12,
};

/** Elements assumed in a collection when no hint says otherwise. */
const DEFAULT_COLLECTION_ELEMENTS = 5;

type UdtSizer = (type: CqlType & { kind: 'UserType' }) => number | undefined;

/** Estimated serialized size of one value of `type`, in bytes. */
export function typeSize(type: CqlType | undefined, udtSize?: UdtSizer, depth = 0): number {
  if (!type || depth > 8) return 16;
  switch (type.kind) {
    case 'NativeType':
      return NATIVE_SIZES[type.name] ?? 16;
    case 'FrozenType':
      return typeSize(type.inner, udtSize, depth + 1);
    case 'CollectionType': {
      const each = type.elementTypes.reduce((sum, t) => sum + typeSize(t, udtSize, depth + 1), 0);
      return DEFAULT_COLLECTION_ELEMENTS * each;
    }
    case 'TupleType':
      return type.elementTypes.reduce((sum, t) => sum + typeSize(t, udtSize, depth + 1), 0);
    case 'VectorType':
      return type.dimension * typeSize(type.elementType, udtSize, depth + 1);
    case 'UserType':
      return udtSize?.(type) ?? 64;
    case 'CustomType':
      return 64;
    default:
      return 16;
  }
}
