// Small printers from AST pieces back to CQL text, for hovers, completion details and outlines.
import type { CqlType, QualifiedName, Identifier } from '../../../grammar/ast';
import { quoteName } from './names';

export function nameText(id: Identifier): string {
  return quoteName(id.name);
}

export function qualifiedText(q: QualifiedName): string {
  return q.keyspace ? `${nameText(q.keyspace)}.${nameText(q.name)}` : nameText(q.name);
}

export function typeText(type: CqlType): string {
  switch (type.kind) {
    case 'NativeType':
      return type.name;
    case 'CollectionType':
      return `${type.collection}<${type.elementTypes.map(typeText).join(', ')}>`;
    case 'FrozenType':
      return `frozen<${typeText(type.inner)}>`;
    case 'TupleType':
      return `tuple<${type.elementTypes.map(typeText).join(', ')}>`;
    case 'VectorType':
      return `vector<${typeText(type.elementType)}, ${type.dimension}>`;
    case 'UserType':
      return qualifiedText(type.name);
    case 'CustomType':
      return `'${type.className.replace(/'/g, "''")}'`;
    default:
      return '?';
  }
}
