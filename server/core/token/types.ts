// Column types as the token code needs them: native types, and frozen collections, tuples and UDTs with
// their element types resolved.
import type { CqlType, Identifier, NativeTypeName, SourceRange } from '../../../grammar/ast';
import { typeText } from '../util/cql-type';
import { type FragmentResult, parseCqlType, parseCqlTypes } from '../../../grammar';

export type KeyType =
  | { kind: 'native'; name: NativeTypeName }
  | { kind: 'list' | 'set'; element: KeyType; frozen: boolean }
  | { kind: 'map'; key: KeyType; value: KeyType; frozen: boolean }
  | { kind: 'tuple'; elements: KeyType[] }
  | { kind: 'udt'; name: string; fields: { name: string; type: KeyType }[]; frozen: boolean }
  | { kind: 'unsupported'; text: string; reason: string };

/** A type as callers may give it: a native type name, a type text like `frozen<list<int>>`, or a KeyType. */
export type CqlTypeName = NativeTypeName | string | KeyType;

export const NATIVE_TYPES: readonly NativeTypeName[] = [
  'ascii',
  'bigint',
  'blob',
  'boolean',
  'counter',
  'date',
  'decimal',
  'double',
  'duration',
  'float',
  'inet',
  'int',
  'smallint',
  'text',
  'time',
  'timestamp',
  'timeuuid',
  'tinyint',
  'uuid',
  'varchar',
  'varint',
];
export function nativeType(name: NativeTypeName): KeyType {
  return { kind: 'native', name };
}

/** The key type as CQL writes it, by the one type printer (util/cql-type.ts). */
export function keyTypeText(type: KeyType): string {
  return typeText(keyTypeAst(type));
}

const NOWHERE: SourceRange = Object.freeze({ start: 0, end: 0 });

/**
 * The AST type a key type prints as: frozen collections and user types wrapped in frozen<>, a tuple as it
 * is (tuples are always frozen), and a type the token code cannot encode as the text it was read from.
 */
function keyTypeAst(type: KeyType): CqlType {
  switch (type.kind) {
    case 'native':
      return { kind: 'NativeType', name: type.name, range: NOWHERE };
    case 'list':
    case 'set':
    case 'map': {
      const elementTypes = (type.kind === 'map' ? [type.key, type.value] : [type.element]).map(keyTypeAst);
      return frozenIf(type.frozen, { kind: 'CollectionType', collection: type.kind, elementTypes, range: NOWHERE });
    }
    case 'tuple':
      return { kind: 'TupleType', elementTypes: type.elements.map(keyTypeAst), range: NOWHERE };
    case 'udt': {
      const name: Identifier = { kind: 'Identifier', name: type.name, text: type.name, quoted: false, range: NOWHERE };
      return frozenIf(type.frozen, {
        kind: 'UserType',
        name: { kind: 'QualifiedName', name, range: NOWHERE },
        range: NOWHERE,
      });
    }
    case 'unsupported':
      // Printed as read (`vector`, a type name not found, a custom class): not a type the printer can build.
      return { kind: 'NativeType', name: type.text as NativeTypeName, range: NOWHERE };
  }
}

function frozenIf(frozen: boolean, inner: CqlType): CqlType {
  return frozen ? { kind: 'FrozenType', inner, range: NOWHERE } : inner;
}

export class TypeSpecError extends Error {}

/** UDT definitions by name (`ks.name` or `name`), for resolving UDT references. */
export type UdtLookup = (
  name: string,
  keyspace?: string,
) => { name: string; fields: { name: string; type: KeyType }[] } | undefined;

/**
 * Parses a type text as written in CQL: `int`, `frozen<list<text>>`, `tuple<int, text>`, `map<text, int>`.
 * UDT names are resolved with `udts` when given. Throws TypeSpecError with a clear message.
 */
export function parseTypeSpec(text: string, udts?: UdtLookup): KeyType {
  return keyTypeFromText(text, parseCqlType(text), udts);
}

/** Parses a comma-separated list of types (`date, frozen<map<text, int>>`), as `cqlint token --types` takes them. */
export function parseTypeSpecs(text: string, udts?: UdtLookup): KeyType[] {
  const { value, errors } = parseCqlTypes(text);
  if (!value) throw new TypeSpecError(`invalid types '${text}': ${errors[0].message}`);
  return value.map((type) => keyTypeFromText(text, { value: type, errors: [] }, udts));
}

function keyTypeFromText(text: string, { value, errors }: FragmentResult<CqlType>, udts?: UdtLookup): KeyType {
  if (!value) throw new TypeSpecError(`invalid type '${text}': ${errors[0].message}`);
  // A user type named in a type text must exist (in a schema, a missing one is only "unsupported").
  const unknown = unknownUserType(value, udts);
  if (unknown) throw new TypeSpecError(`unknown type '${unknown}' in '${text}'`);
  return keyTypeFromAst(value, udts);
}

function unknownUserType(type: CqlType, udts?: UdtLookup): string | undefined {
  switch (type.kind) {
    case 'UserType': {
      const { keyspace, name } = type.name;
      return udts?.(name.name, keyspace?.name) ? undefined : (keyspace ? `${keyspace.text}.` : '') + name.text;
    }
    case 'FrozenType':
      return unknownUserType(type.inner, udts);
    case 'CollectionType':
    case 'TupleType':
      for (const t of type.elementTypes) {
        const found = unknownUserType(t, udts);
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

export function resolveTypeName(type: CqlTypeName, udts?: UdtLookup): KeyType {
  return typeof type === 'string' ? parseTypeSpec(type, udts) : type;
}

/** Converts an AST type (grammar/ast.ts) to a KeyType. */
export function keyTypeFromAst(type: CqlType, udts?: UdtLookup, frozen = false): KeyType {
  switch (type.kind) {
    case 'NativeType':
      return { kind: 'native', name: type.name };
    case 'FrozenType':
      return keyTypeFromAst(type.inner, udts, true);
    case 'CollectionType': {
      const [a, b] = type.elementTypes;
      if (type.collection === 'map') {
        if (!a || !b) return { kind: 'unsupported', text: 'map', reason: 'map type without key and value types' };
        return { kind: 'map', key: keyTypeFromAst(a, udts), value: keyTypeFromAst(b, udts), frozen };
      }
      if (!a)
        return { kind: 'unsupported', text: type.collection, reason: `${type.collection} type without element type` };
      return { kind: type.collection, element: keyTypeFromAst(a, udts), frozen };
    }
    case 'TupleType':
      return { kind: 'tuple', elements: type.elementTypes.map((t) => keyTypeFromAst(t, udts)) };
    case 'VectorType':
      return { kind: 'unsupported', text: 'vector', reason: 'vector columns cannot be part of a partition key' };
    case 'UserType': {
      const name = type.name.name.name;
      const udt = udts?.(name, type.name.keyspace?.name);
      if (!udt) return { kind: 'unsupported', text: name, reason: `the definition of type '${name}' was not found` };
      return { kind: 'udt', name: udt.name, fields: udt.fields, frozen };
    }
    case 'CustomType':
      return {
        kind: 'unsupported',
        text: `'${type.className}'`,
        reason: `custom type '${type.className}' is not supported`,
      };
  }
}

/** Why a type cannot be used in a partition key, or undefined when it can. */
export function keyTypeProblem(type: KeyType): string | undefined {
  switch (type.kind) {
    case 'native':
      if (type.name === 'duration') return 'duration columns cannot be part of a primary key (Cassandra rejects them)';
      if (type.name === 'counter') return 'counter columns cannot be part of a primary key (Cassandra rejects them)';
      return undefined;
    case 'list':
    case 'set':
    case 'map':
      if (!type.frozen)
        return `non-frozen ${type.kind} columns cannot be part of a primary key; use frozen<${keyTypeText(type)}>`;
      return nestedProblem(type.kind === 'map' ? [type.key, type.value] : [type.element]);
    case 'tuple':
      return nestedProblem(type.elements);
    case 'udt':
      if (!type.frozen)
        return `non-frozen user type '${type.name}' cannot be part of a primary key; use frozen<${type.name}>`;
      return nestedProblem(type.fields.map((f) => f.type));
    case 'unsupported':
      return type.reason;
  }
}

function nestedProblem(types: KeyType[]): string | undefined {
  for (const t of types) {
    if (t.kind === 'unsupported') return t.reason;
    if (t.kind === 'native' && t.name === 'counter') return 'counters cannot be nested in other types';
    if ((t.kind === 'list' || t.kind === 'set' || t.kind === 'map' || t.kind === 'udt') && !t.frozen) {
      // Nested collections are implicitly frozen in a frozen parent.
    }
    const p =
      t.kind === 'native'
        ? undefined
        : nestedProblem(
            t.kind === 'map'
              ? [t.key, t.value]
              : t.kind === 'tuple'
                ? t.elements
                : t.kind === 'udt'
                  ? t.fields.map((f) => f.type)
                  : t.kind === 'list' || t.kind === 'set'
                    ? [t.element]
                    : [],
          );
    if (p) return p;
  }
  return undefined;
}
