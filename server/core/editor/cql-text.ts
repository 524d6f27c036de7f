// Small printers from AST pieces back to CQL text, for hovers, completion details and outlines.
import type { QualifiedName, Identifier } from '../../../grammar/ast';
import { quoteName } from '../util/names';

// The one type printer (util/cql-type.ts); editors reach it from here too.
export { typeText } from '../util/cql-type';

function nameText(id: Identifier): string {
  return quoteName(id.name);
}

export function qualifiedText(q: QualifiedName): string {
  return q.keyspace ? `${nameText(q.keyspace)}.${nameText(q.name)}` : nameText(q.name);
}
