// The symbols of one file: every place a keyspace, table, view, column, user type, index or function is
// declared or mentioned in its statements, with the name it targets (keyspace from the name itself or from
// the last USE). The workspace index (symbols.ts) gathers these and resolves them.
import type {
  ColumnDefinition,
  CqlType,
  Expression,
  Identifier,
  Node,
  ParseResult,
  QualifiedName,
  Statement,
} from '../../../grammar/ast';
import { walk } from '../util/ast-walk';

export type SymbolKind = 'keyspace' | 'table' | 'column' | 'type' | 'field' | 'index' | 'function';

/** A table, view or type named with an optional keyspace. */
export interface ScopedName {
  keyspace?: string;
  name: string;
}

export type SymbolTarget =
  | { kind: 'keyspace'; name: string }
  | { kind: 'table'; keyspace?: string; name: string }
  | { kind: 'column'; table: ScopedName; name: string }
  | { kind: 'type'; keyspace?: string; name: string }
  | { kind: 'field'; type: ScopedName; name: string }
  | { kind: 'index'; keyspace?: string; name: string }
  | { kind: 'function'; keyspace?: string; name: string };

/** One mention of a symbol in the source. */
export interface Occurrence {
  filePath: string;
  identifier: Identifier;
  target: SymbolTarget;
  declaration: boolean;
  statement: Statement;
  /** For declarations: the declaring node (table/view/type statement, column definition, type field, ...). */
  node?: Node;
}

export interface FileSymbols {
  filePath: string;
  parse: ParseResult;
  /** Sorted by identifier start offset. */
  occurrences: Occurrence[];
}

// ---------------------------------------------------------------------------------------------
// Collecting occurrences from one file

/** Collects the occurrences of one file. `filePath` is stored on each occurrence. */
export function collectFileSymbols(filePath: string, parse: ParseResult): FileSymbols {
  const out: Occurrence[] = [];
  let currentKeyspace: string | undefined;
  for (const statement of parse.statements) {
    if (statement.kind === 'Use') {
      out.push(
        occ(filePath, statement.keyspace, { kind: 'keyspace', name: statement.keyspace.name }, false, statement),
      );
      currentKeyspace = statement.keyspace.name;
      continue;
    }
    collectStatement(new Collector(filePath, statement, currentKeyspace, out), statement);
  }
  out.sort((a, b) => a.identifier.range.start - b.identifier.range.start);
  return { filePath, parse, occurrences: out };
}

function occ(
  filePath: string,
  identifier: Identifier,
  target: SymbolTarget,
  declaration: boolean,
  statement: Statement,
  node?: Node,
): Occurrence {
  return { filePath, identifier, target, declaration, statement, node };
}

/** What a statement's collector adds its mentions with: every one is of `top` (a batch's members too), with `ks` in effect. */
class Collector {
  constructor(
    private readonly filePath: string,
    private readonly top: Statement,
    private readonly ks: string | undefined,
    private readonly out: Occurrence[],
  ) {}

  add(id: Identifier | undefined, target: SymbolTarget, declaration = false, node?: Node): void {
    if (id && id.name !== '') this.out.push(occ(this.filePath, id, target, declaration, this.top, node));
  }

  scoped(q: QualifiedName): ScopedName {
    return { keyspace: q.keyspace?.name ?? this.ks, name: q.name.name };
  }

  keyspaceOf(q: QualifiedName): void {
    if (q.keyspace) this.add(q.keyspace, { kind: 'keyspace', name: q.keyspace.name });
  }

  tableRef(q: QualifiedName, declaration?: boolean, node?: Node): ScopedName;
  tableRef(q: QualifiedName | undefined, declaration?: boolean, node?: Node): ScopedName | undefined;
  tableRef(q: QualifiedName | undefined, declaration = false, node?: Node): ScopedName | undefined {
    if (!q) return undefined;
    this.keyspaceOf(q);
    const s = this.scoped(q);
    this.add(q.name, { kind: 'table', ...s }, declaration, node);
    return s;
  }

  columnRef(table: ScopedName | undefined, id: Identifier | undefined, declaration = false, node?: Node): void {
    if (table && id) this.add(id, { kind: 'column', table, name: id.name }, declaration, node);
  }

  columnRefs(table: ScopedName | undefined, ids: readonly Identifier[]): void {
    for (const id of ids) this.columnRef(table, id);
  }

  columnDefs(table: ScopedName, columns: ColumnDefinition[]): void {
    for (const column of columns) {
      this.columnRef(table, column.name, true, column);
      this.typeRefs(column.type);
    }
  }

  /** A named thing declared or mentioned with its keyspace (types, indexes, functions). */
  scopedRef(kind: 'type' | 'index' | 'function', q: QualifiedName, declaration = false, node?: Node): void {
    this.keyspaceOf(q);
    this.add(q.name, { kind, ...this.scoped(q) }, declaration, node);
  }

  field(type: ScopedName, id: Identifier, declaration = false, node?: Node): void {
    this.add(id, { kind: 'field', type, name: id.name }, declaration, node);
  }

  /** Column names, user types and function calls inside expressions, types and relations. */
  expressionRefs(root: Node | undefined, table: ScopedName | undefined): void {
    if (!root) return;
    walk(root, (node) => {
      if (node.kind === 'ColumnRef') this.columnRef(table, (node as Extract<Expression, { kind: 'ColumnRef' }>).name);
      else if (node.kind === 'UserType') this.scopedRef('type', (node as Extract<CqlType, { kind: 'UserType' }>).name);
      else if (node.kind === 'FunctionCall')
        this.scopedRef('function', (node as Extract<Expression, { kind: 'FunctionCall' }>).name);
    });
  }

  typeRefs(type: CqlType | undefined): void {
    this.expressionRefs(type, undefined);
  }

  nodesRefs(nodes: readonly Node[] | undefined, table: ScopedName | undefined): void {
    for (const n of nodes ?? []) this.expressionRefs(n, table);
  }

  /** A primary key clause's columns and CLUSTERING ORDER's, of `table`. */
  keyRefs(
    table: ScopedName | undefined,
    statement: Extract<Statement, { kind: 'CreateTable' | 'CreateMaterializedView' }>,
  ): void {
    const pk = statement.primaryKey;
    if (pk && (statement.kind === 'CreateMaterializedView' || pk.form === 'clause'))
      this.columnRefs(table, [...pk.partitionKey, ...pk.clustering]);
    for (const order of statement.options?.clusteringOrder ?? []) this.columnRef(table, order.column);
  }
}

type StatementOf<K extends Statement['kind']> = Extract<Statement, { kind: K }>;
/** One collector per statement kind that mentions names (ESLint's handler shape): a kind without one mentions none. */
type Collectors = { [K in Statement['kind']]?: (c: Collector, statement: StatementOf<K>) => void };

const keyspaceMention = (c: Collector, statement: StatementOf<'AlterKeyspace' | 'DropKeyspace'>): void =>
  c.add(statement.name, { kind: 'keyspace', name: statement.name.name });
const tableMention = (
  c: Collector,
  statement: StatementOf<'DropTable' | 'Truncate' | 'AlterMaterializedView' | 'DropMaterializedView'>,
): void => {
  c.tableRef(statement.name);
};
const triggerMention = (c: Collector, statement: StatementOf<'CreateTrigger' | 'DropTrigger'>): void => {
  c.tableRef(statement.table);
};
const functionDrop = (c: Collector, statement: StatementOf<'DropFunction' | 'DropAggregate'>): void => {
  c.scopedRef('function', statement.name);
  for (const t of statement.argumentTypes ?? []) c.typeRefs(t);
};

const collectors: Collectors = {
  CreateKeyspace: (c, statement) =>
    c.add(statement.name, { kind: 'keyspace', name: statement.name.name }, true, statement),
  AlterKeyspace: keyspaceMention,
  DropKeyspace: keyspaceMention,
  CreateTable: (c, statement) => {
    const table = c.tableRef(statement.name, true, statement);
    c.columnDefs(table, statement.columns);
    c.keyRefs(table, statement);
    if (statement.like) c.tableRef(statement.like);
  },
  AlterTable: (c, statement) => {
    const table = c.tableRef(statement.name);
    const action = statement.action;
    switch (action.kind) {
      case 'AddColumns':
        c.columnDefs(table, action.columns);
        break;
      case 'DropColumns':
        c.columnRefs(table, action.columns);
        break;
      case 'RenameColumns':
        for (const r of action.renames) {
          c.columnRef(table, r.from);
          c.columnRef(table, r.to, true);
        }
        break;
      case 'AlterColumnType':
        c.columnRef(table, action.column);
        c.typeRefs(action.type);
        break;
      case 'AlterColumnMask':
        c.columnRef(table, action.column);
        break;
      default:
        break;
    }
  },
  DropTable: tableMention,
  Truncate: tableMention,
  CreateType: (c, statement) => {
    const type = c.scoped(statement.name);
    c.scopedRef('type', statement.name, true, statement);
    for (const field of statement.fields) {
      c.field(type, field.name, true, field);
      c.typeRefs(field.type);
    }
  },
  AlterType: (c, statement) => {
    c.scopedRef('type', statement.name);
    const type = c.scoped(statement.name);
    const action = statement.action;
    if (action.kind === 'AddField') {
      c.field(type, action.field.name, true, action.field);
      c.typeRefs(action.field.type);
    } else if (action.kind === 'RenameFields') {
      for (const r of action.renames) {
        c.field(type, r.from);
        c.field(type, r.to, true);
      }
    } else {
      c.field(type, action.field);
      c.typeRefs(action.type);
    }
  },
  DropType: (c, statement) => c.scopedRef('type', statement.name),
  CreateIndex: (c, statement) => {
    const table = c.tableRef(statement.table);
    if (statement.name)
      c.add(statement.name, { kind: 'index', keyspace: table.keyspace, name: statement.name.name }, true, statement);
    for (const target of statement.targets) c.columnRef(table, target.column);
  },
  DropIndex: (c, statement) => c.scopedRef('index', statement.name),
  CreateMaterializedView: (c, statement) => {
    c.tableRef(statement.name, true, statement);
    // A view's columns are its base table's columns: mentions resolve to the base definitions.
    const base = c.tableRef(statement.from);
    c.nodesRefs(statement.selectors, base);
    c.nodesRefs(statement.where, base);
    c.keyRefs(base, statement);
  },
  AlterMaterializedView: tableMention,
  DropMaterializedView: tableMention,
  CreateFunction: (c, statement) => {
    c.scopedRef('function', statement.name, true, statement);
    for (const arg of statement.arguments) c.typeRefs(arg.type);
    c.typeRefs(statement.returnType);
  },
  CreateAggregate: (c, statement) => {
    c.scopedRef('function', statement.name, true, statement);
    for (const t of statement.argumentTypes) c.typeRefs(t);
    c.typeRefs(statement.stateType);
    for (const f of [statement.stateFunction, statement.finalFunction]) if (f) c.scopedRef('function', f);
  },
  DropFunction: functionDrop,
  DropAggregate: functionDrop,
  CreateTrigger: triggerMention,
  DropTrigger: triggerMention,
  Select: (c, statement) => {
    const table = c.tableRef(statement.from);
    c.nodesRefs(statement.selectors, table);
    c.nodesRefs(statement.where, table);
    c.columnRefs(table, statement.groupBy);
    for (const order of statement.orderBy) {
      c.columnRef(table, order.column);
      c.expressionRefs(order.annOf, table);
    }
  },
  Insert: (c, statement) => {
    const table = c.tableRef(statement.table);
    c.columnRefs(table, statement.columns);
    c.nodesRefs(statement.values, table);
  },
  Update: (c, statement) => {
    const table = c.tableRef(statement.table);
    c.nodesRefs(statement.assignments, table);
    c.nodesRefs(statement.where, table);
    c.nodesRefs(statement.conditions, table);
  },
  Delete: (c, statement) => {
    const table = c.tableRef(statement.table);
    c.nodesRefs(statement.selections, table);
    c.nodesRefs(statement.where, table);
    c.nodesRefs(statement.conditions, table);
  },
  Batch: (c, statement) => {
    for (const inner of statement.statements) collectStatement(c, inner);
  },
  Other: (c, statement) => {
    // DESCRIBE TABLE ks.t, DESCRIBE KEYSPACE ks, GRANT ... ON ks.t: only names whose role is clear.
    const type = statement.statementType;
    for (const name of statement.names) {
      if (name.kind === 'QualifiedName') {
        if (/\b(TYPE)$/.test(type)) c.scopedRef('type', name);
        else if (/\b(TABLE|COLUMNFAMILY|MATERIALIZED VIEW)$/.test(type) || /^(GRANT|REVOKE)\b/.test(type))
          c.tableRef(name);
      } else if (/\bKEYSPACE$/.test(type)) {
        c.add(name, { kind: 'keyspace', name: name.name });
      }
    }
  },
};

function collectStatement(c: Collector, statement: Statement): void {
  (collectors[statement.kind] as ((c: Collector, s: Statement) => void) | undefined)?.(c, statement);
}
