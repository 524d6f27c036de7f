// How a table, view or user type name resolves: the one rule that the rules (Project.tableFor, the
// sizing's and the key encoder's type lookups through SchemaModel.userType and versions.ts), the editor's navigation, hover
// and completion (editor/symbols.ts) and the CLI (`cqlint token --schema`) all follow.
//
// 1. In a file that itself creates, alters or drops the name, that file's history decides: the latest
//    CREATE, ALTER or DROP of the name before the mention, in the keyspace written or in effect (USE). After
//    a DROP the name is undefined there until the next CREATE.
// 2. Otherwise the workspace's definitions of the name in that keyspace (an unqualified definition stands
//    for any keyspace when no definition names it), each file contributing the table or type as its last
//    statement on it left it, in file order: the first one counts. A file that defines the name only later
//    than the mention puts its own definition first.
// 3. A user type named in a column's type (or in a field of another type) is mentioned where that column
//    (field) is defined, in the table's keyspace: the sizing and the key encoder resolve it from there
//    (SchemaModel.userType with the mention), so a file that redefines a type sizes and encodes its own
//    tables by its own definition. A name with no file or position (the command line) resolves as from a
//    file that does not define it.
// A column resolves through its table or view, a view's columns through its base table as the view's own
// file saw it. When the workspace's definitions of one table differ, the conflicting-definition rule
// reports each of them, and the rules do not guess for a file that does not define the table itself
// (Project.tableFor is rule 2; the rules' lookup gives nothing then).
import type { QualifiedName } from '../../../grammar/ast';
import { foldName } from '../util/names';
import { keyspaceAt, type FileSchema } from './build';
import { sameShape, type SchemaModel, type TableInfo, type UserTypeInfo } from './model';
import { resolveVersions, type Version } from './versions';

/** A table, view or type name: keyspace (as written, or none) and name, both as Cassandra sees them. */
export interface TableName {
  keyspace?: string;
  name: string;
}

/** Rules 1 and 2 for a name mentioned in `file` (or nowhere) at `atOffset`. */
function resolveName<V extends Version, T extends { filePath: string }>(
  versions: readonly V[] | undefined,
  valueOf: (v: V) => T | undefined,
  candidatesIn: (keyspace: string | undefined) => readonly T[],
  file: FileSchema | undefined,
  name: TableName,
  atOffset: number,
): readonly T[] {
  let keyspace = name.keyspace;
  if (!keyspace && file) keyspace = keyspaceAt(file, atOffset);
  return resolveVersions(versions, valueOf, candidatesIn, file?.filePath, keyspace, atOffset);
}

/** The candidates for a table or view name, best first (rule 1: one or none; rule 2: every compatible definition). */
export function resolveTableName(
  model: SchemaModel,
  file: FileSchema | undefined,
  name: TableName,
  atOffset = Number.MAX_SAFE_INTEGER,
): readonly TableInfo[] {
  return resolveName(
    file && model.tableVersions(file, name.name),
    (v) => v.table,
    (keyspace) => model.candidates(keyspace, name.name),
    file,
    name,
    atOffset,
  );
}

/** The candidates for a user type name, best first, by the same rule. */
export function resolveTypeName(
  model: SchemaModel,
  file: FileSchema | undefined,
  name: TableName,
  atOffset = Number.MAX_SAFE_INTEGER,
): readonly UserTypeInfo[] {
  return resolveName(
    file?.typeVersions.get(name.name),
    (v) => v.type,
    (keyspace) => model.typeCandidates(keyspace, name.name),
    file,
    name,
    atOffset,
  );
}

/** A name of the AST (`ks.t`, `"Ks"."T"`), as the resolver takes it. */
export function tableNameOf(name: QualifiedName): TableName {
  return { keyspace: name.keyspace?.name, name: name.name.name };
}

/**
 * A name written on the command line or in a setting: `ks.table` or `table`, each part a CQL identifier
 * (unquoted ones fold to lower case, `"Quoted"` ones keep theirs). Undefined when it is not one.
 */
export function parseTableName(text: string): TableName | undefined {
  const parts = /^\s*("(?:[^"]|"")+"|[^."\s]+)(?:\.("(?:[^"]|"")+"|[^."\s]+))?\s*$/.exec(text);
  if (!parts) return undefined;
  return parts[2] === undefined
    ? { name: foldName(parts[1]!) }
    : { keyspace: foldName(parts[1]!), name: foldName(parts[2]) };
}

// Facts about the model's candidate lists (the same array for the same question while the model stands),
// asked for every table a statement names: each list holds hundreds of definitions in a workspace of
// migrations, so they are worked out once per list.
const sameShapeLists = new WeakMap<readonly TableInfo[], boolean>();

/** Every candidate has the first one's shape (copies of one definition). */
export function allSameShape(candidates: readonly TableInfo[]): boolean {
  let same = sameShapeLists.get(candidates);
  if (same === undefined) {
    const first = candidates[0];
    same = !first || candidates.every((c) => sameShape(c, first));
    sameShapeLists.set(candidates, same);
  }
  return same;
}
