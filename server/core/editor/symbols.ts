// The workspace symbol index: every place a keyspace, table, view, column, user type, index or
// function is declared or referenced, across all files (each file's collected by occurrences.ts).
// Definition, references, rename, outline, hover, semantic tokens and completion all read it.
//
// Tables, views and user types resolve by the one rule of schema/resolve.ts, from where the mention
// stands (columns and fields through them); indexes and functions by name: a keyspace comes from the name itself or from the last USE in the file,
// an unknown keyspace on either side matches any, and the first matching declaration in file order wins.
import type {
  CreateMaterializedViewStatement,
  CreateTableStatement,
  CreateTypeStatement,
  Identifier,
  TypeField,
  CqlType,
} from '../../../grammar/ast';
import type { EditorSources } from './sources';
import type { ColumnInfo, SchemaModel, TableDefinition, TableInfo, UserTypeInfo } from '../schema/model';
import { resolveTableName, resolveTypeName } from '../schema/resolve';
import {
  collectFileSymbols,
  type FileSymbols,
  type Occurrence,
  type ScopedName,
  type SymbolKind,
  type SymbolTarget,
} from './occurrences';

export type { Occurrence, SymbolKind } from './occurrences';

// ---------------------------------------------------------------------------------------------
// The workspace index

export interface TableDeclaration {
  occurrence: Occurrence;
  statement: CreateTableStatement | CreateMaterializedViewStatement;
  isView: boolean;
  keyspace?: string;
  name: string;
}

/** A column as completion and hover show it: the schema model's column and where it is declared. */
export interface ColumnSummary {
  name: string;
  typeText?: string;
  type?: CqlType;
  role: 'partition' | 'clustering' | 'static' | 'regular';
  /** 0-based position in the partition key or clustering columns, else -1. */
  keyPosition: number;
  order?: 'ASC' | 'DESC';
  declaration?: Occurrence;
}

function scopeMatches(wanted: string | undefined, declared: string | undefined): boolean {
  return wanted === undefined || declared === undefined || wanted === declared;
}

export class SymbolIndex {
  private readonly files = new Map<string, FileSymbols>();
  private declarationsByName = new Map<string, Occurrence[]>();
  private keyCache = new Map<Occurrence, string>();
  private occurrencesByKey?: Map<string, Occurrence[]>;
  private columnDeclarationsByKey?: Map<string, Occurrence[]>;
  /** Table and view declarations by file and statement start. */
  private declarationsByPlace?: Map<string, TableDeclaration>;
  /** Tables and columns read from one schema model (a new model, e.g. after an edit, starts afresh). */
  private schemaCache?: {
    model: SchemaModel;
    byDefinition: Map<TableDefinition, TableInfo>;
    columns: Map<Occurrence, ColumnSummary[]>;
  };
  private version = 0;

  constructor(private readonly sources: EditorSources) {}

  /** Re-reads the workspace; cheap when nothing changed (parses are compared by identity). */
  refresh(): this {
    const paths = this.sources.files();
    let changed = paths.length !== this.files.size;
    const seen = new Set<string>();
    for (const path of paths) {
      seen.add(path);
      const parse = this.sources.parse(path);
      const existing = this.files.get(path);
      if (existing && existing.parse === parse) continue;
      this.files.set(path, collectFileSymbols(path, parse));
      changed = true;
    }
    for (const path of [...this.files.keys()]) {
      if (!seen.has(path)) {
        this.files.delete(path);
        changed = true;
      }
    }
    if (changed) this.rebuild();
    return this;
  }

  /** Increases whenever the index content changes. */
  get generation(): number {
    return this.version;
  }

  private rebuild(): void {
    this.version++;
    this.declarationsByName = new Map();
    this.keyCache = new Map();
    this.occurrencesByKey = undefined;
    this.columnDeclarationsByKey = undefined;
    this.declarationsByPlace = undefined;
    this.schemaCache = undefined;
    for (const file of this.files.values()) {
      for (const o of file.occurrences) {
        if (!o.declaration) continue;
        const k = `${o.target.kind}:${o.target.name}`;
        const list = this.declarationsByName.get(k);
        if (list) list.push(o);
        else this.declarationsByName.set(k, [o]);
      }
    }
  }

  fileSymbols(path: string): FileSymbols | undefined {
    return this.files.get(path);
  }

  allFiles(): FileSymbols[] {
    return [...this.files.values()];
  }

  /** The occurrence whose identifier touches `offset` (start and end inclusive). */
  occurrenceAt(path: string, offset: number): Occurrence | undefined {
    const list = this.files.get(path)?.occurrences;
    if (!list) return undefined;
    let lo = 0;
    let hi = list.length - 1;
    let found: Occurrence | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = list[mid].identifier.range;
      if (r.end < offset) lo = mid + 1;
      else if (r.start > offset) hi = mid - 1;
      else {
        found = list[mid];
        // Prefer the identifier that starts at the cursor over one that ends there (`a.|b`).
        if (r.end === offset && mid + 1 < list.length && list[mid + 1].identifier.range.start === offset) {
          found = list[mid + 1];
        }
        break;
      }
    }
    return found;
  }

  /** Declarations of a kind with a given name (any keyspace), in file order. */
  declarationsNamed(kind: SymbolKind, name: string): Occurrence[] {
    return this.declarationsByName.get(`${kind}:${name}`) ?? [];
  }

  allDeclarations(): Occurrence[] {
    const out: Occurrence[] = [];
    for (const file of this.files.values()) for (const o of file.occurrences) if (o.declaration) out.push(o);
    return out;
  }

  /** Tables and views compatible with `(keyspace, name)`, the first being the one that counts. */
  tableCandidates(keyspace: string | undefined, name: string): TableDeclaration[] {
    const list = this.declarationsNamed('table', name).filter(
      (o) => o.node && (o.node.kind === 'CreateTable' || o.node.kind === 'CreateMaterializedView'),
    );
    const pick = (o: Occurrence): TableDeclaration => {
      const statement = o.node as CreateTableStatement | CreateMaterializedViewStatement;
      const t = o.target as { keyspace?: string; name: string };
      return {
        occurrence: o,
        statement,
        isView: statement.kind === 'CreateMaterializedView',
        keyspace: t.keyspace,
        name: t.name,
      };
    };
    if (keyspace === undefined) return list.map(pick);
    const exact = list.filter((o) => (o.target as ScopedName).keyspace === keyspace);
    return (exact.length ? exact : list.filter((o) => (o.target as ScopedName).keyspace === undefined)).map(pick);
  }

  /**
   * The declaration of the table or view a name refers to, by the rule the rules follow too
   * (schema/resolve.ts): as seen from a place of a file (its DROPs and re-CREATEs count), or without one as
   * from a file that does not define it.
   */
  resolveTable(ref: ScopedName, from?: { filePath: string; offset: number }): TableDeclaration | undefined {
    const info = resolveTableName(
      this.sources.schema(),
      from && this.sources.fileSchema(from.filePath),
      ref,
      from?.offset,
    )[0];
    return info && this.declarationOf(info);
  }

  /** The table a mention names, where it stands (its statement's start: a DROP TABLE names what it drops). */
  tableOfMention(o: Occurrence, ref: ScopedName): TableDeclaration | undefined {
    return this.resolveTable(ref, { filePath: o.filePath, offset: o.statement.range.start });
  }

  /** The CREATE statement a schema model table comes from, as a declaration of this index. */
  private declarationOf(info: TableInfo): TableDeclaration | undefined {
    if (!this.declarationsByPlace) {
      this.declarationsByPlace = new Map(
        this.allTables().map((d) => [`${d.occurrence.filePath}\u0000${d.statement.range.start}`, d] as const),
      );
    }
    return this.declarationsByPlace.get(`${info.filePath}\u0000${info.range.start}`);
  }

  /** Every table and view declaration in the workspace. */
  allTables(): TableDeclaration[] {
    const out: TableDeclaration[] = [];
    for (const [key, list] of this.declarationsByName) {
      if (!key.startsWith('table:')) continue;
      for (const o of list) {
        if (!o.node || (o.node.kind !== 'CreateTable' && o.node.kind !== 'CreateMaterializedView')) continue;
        const t = o.target as ScopedName;
        out.push({
          occurrence: o,
          statement: o.node as CreateTableStatement | CreateMaterializedViewStatement,
          isView: o.node.kind === 'CreateMaterializedView',
          keyspace: t.keyspace,
          name: t.name,
        });
      }
    }
    return out;
  }

  /**
   * The CREATE TYPE a user type name refers to, by the rule of schema/resolve.ts: as seen from a place of a
   * file (its DROPs and re-CREATEs count), or without one as from a file that does not define it.
   */
  resolveType(ref: ScopedName, from?: { filePath: string; offset: number }): Occurrence | undefined {
    const info = this.resolveTypeInfo(ref, from);
    if (!info) return undefined;
    return this.declarationsNamed('type', ref.name).find(
      (o) => o.node?.kind === 'CreateType' && o.filePath === info.filePath && o.node.range.start === info.range.start,
    );
  }

  /** The schema's user type a name refers to (its fields as the last ALTER TYPE left them), by the same rule. */
  resolveTypeInfo(ref: ScopedName, from?: { filePath: string; offset: number }): UserTypeInfo | undefined {
    return resolveTypeName(this.sources.schema(), from && this.sources.fileSchema(from.filePath), ref, from?.offset)[0];
  }

  /** The type a mention names, where it stands. */
  private typeOfMention(o: Occurrence, ref: ScopedName): Occurrence | undefined {
    return this.resolveType(ref, { filePath: o.filePath, offset: o.statement.range.start });
  }

  /**
   * For a view, the table whose columns it shows (followed through views of views), resolved from where the
   * view stands: a base its file drops and creates again later is the one before the view.
   */
  baseOf(table: TableDeclaration): TableDeclaration {
    let current = table;
    for (let depth = 0; current.isView && depth < 8; depth++) {
      const from = (current.statement as CreateMaterializedViewStatement).from;
      const base = this.resolveTable(
        { keyspace: from.keyspace?.name ?? current.keyspace, name: from.name.name },
        { filePath: current.occurrence.filePath, offset: current.statement.range.start },
      );
      if (!base || base === current) break;
      current = base;
    }
    return current;
  }

  /**
   * The schema model's table or view for a declaration: the workspace definition its CREATE became
   * (ALTERs applied, a view completed from its base), else the table as that CREATE built it (when a
   * later DROP or CREATE of the same name in its file replaced it).
   */
  tableInfo(table: TableDeclaration): TableInfo | undefined {
    const model = this.sources.schema();
    if (this.schemaCache?.model !== model) {
      this.schemaCache = {
        model,
        byDefinition: new Map(model.allTables().map((t) => [t.definition, t] as const)),
        columns: new Map(),
      };
    }
    const built = this.sources.fileSchema(table.occurrence.filePath)?.byStatement.get(table.statement);
    return built && (this.schemaCache.byDefinition.get(built.definition) ?? built);
  }

  /** The columns of a table or view in definition order, as the schema model has them. */
  columnsOf(table: TableDeclaration): ColumnSummary[] {
    const info = this.tableInfo(table);
    const cache = this.schemaCache!;
    let columns = cache.columns.get(table.occurrence);
    if (!columns) {
      columns = (info?.columns ?? []).map((c): ColumnSummary => {
        const summary: ColumnSummary = {
          name: c.name,
          type: c.type,
          typeText: c.type ? c.typeText : undefined,
          role: c.role,
          keyPosition: c.keyPosition,
          declaration: this.columnDeclaration(table, c),
        };
        if (c.order) summary.order = c.order;
        return summary;
      });
      cache.columns.set(table.occurrence, columns);
    }
    return columns;
  }

  /** Where a column is declared: its definition in the CREATE itself, else (a view's column, one added by
   * ALTER TABLE or renamed) the first declaration of that name for the table (a view's: its base's). */
  private columnDeclaration(table: TableDeclaration, column: ColumnInfo): Occurrence | undefined {
    if (!table.isView) {
      const own = this.occurrenceAt(table.occurrence.filePath, column.range.start);
      if (
        own?.declaration &&
        own.target.kind === 'column' &&
        own.identifier.name === column.name &&
        own.identifier.range.start === column.range.start
      )
        return own;
    }
    return this.columnDeclarations().get(`${this.tableKey(table, true)}#${column.name}`)?.[0];
  }

  private findDeclaration(path: string, id: Identifier): Occurrence | undefined {
    const o = this.occurrenceAt(path, id.range.start);
    return o && o.identifier === id ? o : undefined;
  }

  /** The declaration a mention refers to, or undefined when the workspace does not declare it. */
  definitionOf(o: Occurrence): Occurrence | undefined {
    if (o.declaration && o.node) return o;
    const t = o.target;
    switch (t.kind) {
      case 'keyspace':
        return this.declarationsNamed('keyspace', t.name)[0];
      case 'table':
        return this.tableOfMention(o, t)?.occurrence;
      case 'type':
        return this.typeOfMention(o, t);
      case 'column': {
        const table = this.tableOfMention(o, t.table);
        if (!table) return undefined;
        const base = this.baseOf(table);
        return this.columnsOf(base).find((c) => c.name === t.name)?.declaration;
      }
      case 'field': {
        const type = this.typeOfMention(o, t.type);
        const fields = (type?.node as CreateTypeStatement | undefined)?.fields ?? [];
        const field: TypeField | undefined = fields.find((f) => f.name.name === t.name);
        return field ? this.findDeclaration(type!.filePath, field.name) : undefined;
      }
      case 'index':
      case 'function': {
        const list = this.declarationsNamed(t.kind, t.name);
        return list.find((d) => scopeMatches(t.keyspace, (d.target as ScopedName).keyspace));
      }
      default:
        return undefined;
    }
  }

  /**
   * A key that is equal for every mention of the same symbol: the resolved declaration's identity,
   * or the name as written when the workspace does not declare it.
   */
  keyOf(o: Occurrence): string {
    let key = this.keyCache.get(o);
    if (key === undefined) {
      key = this.computeKey(o.target);
      this.keyCache.set(o, key);
    }
    return key;
  }

  private tableKey(ref: ScopedName, followViews: boolean): string {
    const table = this.resolveTable(ref);
    if (!table) return `table:?${ref.keyspace ?? ''}.${ref.name}`;
    const t = followViews ? this.baseOf(table) : table;
    return `table:${t.keyspace ?? ''}.${t.name}`;
  }

  private computeKey(t: SymbolTarget): string {
    switch (t.kind) {
      case 'keyspace':
        return `keyspace:${t.name}`;
      case 'table':
        return this.tableKey(t, false);
      case 'column':
        return `${this.tableKey(t.table, true)}#${t.name}`;
      case 'type': {
        const d = this.resolveType(t);
        const ks = d ? (d.target as ScopedName).keyspace : t.keyspace;
        return `type:${d ? '' : '?'}${ks ?? ''}.${t.name}`;
      }
      case 'field': {
        const d = this.resolveType(t.type);
        const ks = d ? (d.target as ScopedName).keyspace : t.type.keyspace;
        return `type:${d ? '' : '?'}${ks ?? ''}.${t.type.name}#${t.name}`;
      }
      case 'index':
      case 'function': {
        const d = this.definitionOf({ target: t } as Occurrence);
        const ks = d ? (d.target as ScopedName).keyspace : t.keyspace;
        return `${t.kind}:${d ? '' : '?'}${ks ?? ''}.${t.name}`;
      }
      default:
        return 'unknown';
    }
  }

  private byKey(): Map<string, Occurrence[]> {
    if (!this.occurrencesByKey) {
      const map = new Map<string, Occurrence[]>();
      for (const file of this.files.values()) {
        for (const o of file.occurrences) {
          const key = this.keyOf(o);
          const list = map.get(key);
          if (list) list.push(o);
          else map.set(key, [o]);
        }
      }
      this.occurrencesByKey = map;
    }
    return this.occurrencesByKey;
  }

  /** Every mention (declarations included) of the symbol with this key, in file order. */
  occurrencesOfKey(key: string): Occurrence[] {
    return this.byKey().get(key) ?? [];
  }

  /** Column declarations (definitions, ALTER TABLE ADD, RENAME targets) by the key of their table and name. */
  private columnDeclarations(): Map<string, Occurrence[]> {
    if (!this.columnDeclarationsByKey) {
      const map = new Map<string, Occurrence[]>();
      for (const file of this.files.values()) {
        for (const o of file.occurrences) {
          if (!o.declaration || o.target.kind !== 'column') continue;
          const key = `${this.tableKey(o.target.table, true)}#${o.target.name}`;
          const list = map.get(key);
          if (list) list.push(o);
          else map.set(key, [o]);
        }
      }
      this.columnDeclarationsByKey = map;
    }
    return this.columnDeclarationsByKey;
  }

  /** Every mention of the same symbol as `o`. */
  referencesOf(o: Occurrence): Occurrence[] {
    return this.occurrencesOfKey(this.keyOf(o));
  }
}
