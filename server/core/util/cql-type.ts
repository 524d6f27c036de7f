// The one printer of a CQL type: the schema's types (the parse's) and, through token/types.ts keyTypeText,
// the token code's key types.
import type { CqlType } from '../../../grammar/ast';
import { internName, quoteName } from './names';

/**
 * The type as CQL text that Cassandra reads back as the same type: names that need it are double-quoted
 * (`"My Type"`), custom type classes are single-quoted strings with `'` doubled; `?` when unknown.
 */
export function typeText(type: CqlType | undefined): string {
  if (!type) return '?';
  return type.kind === 'NativeType' ? type.name : internName(printType(type));
}

function printType(type: CqlType): string {
  switch (type.kind) {
    case 'NativeType':
      return type.name;
    case 'CollectionType':
      return `${type.collection}<${type.elementTypes.map(printType).join(', ')}>`;
    case 'FrozenType':
      return `frozen<${printType(type.inner)}>`;
    case 'TupleType':
      return `tuple<${type.elementTypes.map(printType).join(', ')}>`;
    case 'VectorType':
      return `vector<${printType(type.elementType)}, ${type.dimension}>`;
    case 'UserType': {
      const { keyspace, name } = type.name;
      return keyspace ? `${quoteName(keyspace.name)}.${quoteName(name.name)}` : quoteName(name.name);
    }
    case 'CustomType':
      return `'${type.className.replace(/'/g, "''")}'`;
    default:
      return '?';
  }
}
