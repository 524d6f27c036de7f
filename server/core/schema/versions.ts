// Rules 1 and 2 of schema/resolve.ts over one kind of definition (tables or user types), for the resolver
// and for SchemaModel.userType, which model.ts answers itself (it sits below resolve.ts).
import { countBefore } from '../util/lists';

/** A file's version of one name (a table's or a type's): where it stands and its keyspace. */
export interface Version {
  offset: number;
  keyspace?: string;
}

/** Where a name is written: a file and an offset in it. */
export interface Mention {
  filePath: string;
  offset: number;
}

/**
 * The definitions `name` resolves to, best first: the file's own `versions` of the name before `atOffset`
 * decide when it has any (rule 1: one or none); otherwise the workspace's candidates in `keyspace`, the
 * file's own first when it defines the name later (rule 2).
 */
export function resolveVersions<V extends Version, T extends { filePath: string }>(
  versions: readonly V[] | undefined,
  valueOf: (v: V) => T | undefined,
  candidatesIn: (keyspace: string | undefined) => readonly T[],
  filePath: string | undefined,
  keyspace: string | undefined,
  atOffset: number,
): readonly T[] {
  if (versions) {
    // Versions are in file order (offsets ascending): those before `atOffset` are found by bisection, not
    // by a scan back from the file's last one (a file that re-creates a name hundreds of times asked that
    // of every statement on it).
    for (let i = countBefore(versions, atOffset, offsetOf) - 1; i >= 0; i--) {
      const v = versions[i]!;
      if (keyspace && v.keyspace && v.keyspace !== keyspace) continue;
      const value = valueOf(v);
      return value ? onlyOne(value) : NONE;
    }
  }
  const candidates = candidatesIn(keyspace);
  // Only a file that defines the name (later than here) can be among the candidates.
  return filePath !== undefined && versions && candidates.length > 1 ? ownFirst(candidates, filePath) : candidates;
}

const NONE: readonly never[] = Object.freeze([]);
const offsetOf = (v: Version): number => v.offset;
/** One list per definition for `onlyOne`: the rule runner keys its kept results by the list it is given. */
let singleLists = new WeakMap<object, readonly object[]>();

/**
 * Lets go of the one-definition lists (see Project.forgetLookups). A list made again is a new array with
 * the same definition: the statement keys fingerprint a list by its tables, not by the array.
 */
export function forgetSingleLists(): void {
  singleLists = new WeakMap();
}

/** `[value]`, the same array each time (a new one per lookup made every statement's key anew). */
function onlyOne<T extends object>(value: T): readonly T[] {
  let list = singleLists.get(value) as readonly T[] | undefined;
  if (!list) singleLists.set(value, (list = Object.freeze([value])));
  return list;
}

/** The last ownFirst answer of each list: files are linted one at a time, each asks for every statement. */
const ownFirstLists = new WeakMap<readonly object[], { filePath: string; out: readonly object[] }>();

/**
 * The candidates with those of `filePath` first; the same array for the same list and file (the rule
 * runner keys its kept results by the lists a statement's names resolve to).
 */
function ownFirst<T extends { filePath: string }>(candidates: readonly T[], filePath: string): readonly T[] {
  const last = ownFirstLists.get(candidates) as { filePath: string; out: readonly T[] } | undefined;
  if (last?.filePath === filePath) return last.out;
  const out = candidates.some((c) => c.filePath === filePath)
    ? [...candidates.filter((c) => c.filePath === filePath), ...candidates.filter((c) => c.filePath !== filePath)]
    : candidates;
  ownFirstLists.set(candidates, { filePath, out });
  return out;
}
