// Go to definition, find references and rename for keyspaces, tables, views, columns and user types,
// across every file of the workspace.
import type { SourceRange } from '../../../grammar/ast';
import type { Occurrence, SymbolIndex, SymbolKind } from './symbols';
import { needsQuotes, parseTypedName, quoteName } from '../util/names';
import type { TextEdit } from '../util/text-edit';

interface FileRange {
  filePath: string;
  range: SourceRange;
}

/** A rename's edit: the text edit of the fixes (one shape, applied by fixes/text.ts applyEdits) in a file. */
interface FileEdit extends TextEdit {
  filePath: string;
}

const RENAMEABLE: ReadonlySet<SymbolKind> = new Set(['keyspace', 'table', 'column', 'type', 'field']);

function toFileRange(o: Occurrence): FileRange {
  return { filePath: o.filePath, range: o.identifier.range };
}

/** Where the name under the cursor is declared (empty when the workspace does not declare it). */
export function findDefinition(index: SymbolIndex, filePath: string, offset: number): FileRange[] {
  const o = index.occurrenceAt(filePath, offset);
  if (!o) return [];
  const definition = index.definitionOf(o);
  return definition ? [toFileRange(definition)] : [];
}

/** Every mention of the symbol under the cursor, in file order. */
export function findReferences(
  index: SymbolIndex,
  filePath: string,
  offset: number,
  includeDeclaration = true,
): FileRange[] {
  const o = index.occurrenceAt(filePath, offset);
  if (!o) return [];
  const definition = index.definitionOf(o);
  return index
    .referencesOf(o)
    .filter((r) => includeDeclaration || r !== definition)
    .map(toFileRange);
}

type PrepareRenameResult =
  { ok: true; range: SourceRange; placeholder: string; kind: SymbolKind } | { ok: false; message: string };

/** Whether the name at the cursor can be renamed, and the range and text the rename box shows. */
export function prepareRename(index: SymbolIndex, filePath: string, offset: number): PrepareRenameResult {
  const o = index.occurrenceAt(filePath, offset);
  if (!o)
    return { ok: false, message: 'Place the cursor on a keyspace, table, view, column or type name to rename it.' };
  if (!RENAMEABLE.has(o.target.kind)) return { ok: false, message: `Renaming a ${o.target.kind} is not supported.` };
  if (!index.definitionOf(o)) {
    return {
      ok: false,
      message: `'${o.identifier.name}' is not declared in the workspace; nothing to rename consistently.`,
    };
  }
  return {
    ok: true,
    range: o.identifier.range,
    placeholder: o.identifier.quoted ? quoteName(o.identifier.name) : o.identifier.name,
    kind: o.target.kind,
  };
}

type RenameResult = { ok: true; edits: FileEdit[] } | { ok: false; message: string };

/**
 * Renames the symbol under the cursor everywhere: each mention's identifier is replaced by the new
 * name, double-quoted when it needs quotes (upper case, spaces, a reserved keyword). `newName` is
 * the name as the user typed it: `"Quoted"` is read as a quoted identifier; anything else literally.
 */
export function rename(index: SymbolIndex, filePath: string, offset: number, newName: string): RenameResult {
  const prepared = prepareRename(index, filePath, offset);
  if (!prepared.ok) return prepared;
  const name = parseTypedName(newName);
  if (name === undefined) return { ok: false, message: `'${newName}' is not a valid CQL name.` };
  const o = index.occurrenceAt(filePath, offset)!;
  if (name === o.identifier.name) return { ok: true, edits: [] };
  const conflict = findConflict(index, o, name);
  if (conflict) return { ok: false, message: conflict };
  const text = needsQuotes(name) ? quoteName(name) : name;
  const edits: FileEdit[] = [];
  const seen = new Set<string>();
  for (const ref of index.referencesOf(o)) {
    const key = `${ref.filePath}\0${ref.identifier.range.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edits.push({
      filePath: ref.filePath,
      start: ref.identifier.range.start,
      end: ref.identifier.range.end,
      newText: text,
    });
  }
  return { ok: true, edits };
}

/** A reason the rename would clash with an existing name, if it would. */
function findConflict(index: SymbolIndex, o: Occurrence, name: string): string | undefined {
  const t = o.target;
  switch (t.kind) {
    case 'column': {
      const table = index.resolveTable(t.table);
      if (!table) return undefined;
      const base = index.baseOf(table);
      if (index.columnsOf(base).some((c) => c.name === name))
        return `Table ${base.name} already has a column named ${quoteName(name)}.`;
      return undefined;
    }
    case 'table': {
      const definition = index.resolveTable(t);
      const keyspace = definition?.keyspace ?? t.keyspace;
      const clash = index
        .tableCandidates(keyspace, name)
        .find((d) => keyspace === undefined || d.keyspace === keyspace);
      return clash
        ? `A table or view named ${quoteName(name)} already exists${keyspace ? ` in keyspace ${keyspace}` : ''}.`
        : undefined;
    }
    case 'keyspace':
      return index.declarationsNamed('keyspace', name).length
        ? `Keyspace ${quoteName(name)} already exists.`
        : undefined;
    case 'type': {
      const clash = index.resolveType({ keyspace: t.keyspace, name });
      return clash ? `A type named ${quoteName(name)} already exists.` : undefined;
    }
    default:
      return undefined;
  }
}

/** Groups edits by file, each list sorted by offset (what WorkspaceEdit.changes wants). */
export function editsByFile(edits: readonly FileEdit[]): Map<string, FileEdit[]> {
  const map = new Map<string, FileEdit[]>();
  for (const edit of edits) {
    const list = map.get(edit.filePath);
    if (list) list.push(edit);
    else map.set(edit.filePath, [edit]);
  }
  for (const list of map.values()) list.sort((a, b) => a.start - b.start);
  return map;
}
