// The symbols of one file: every place a keyspace, table, view, column, user type, index or function is
// declared or mentioned in its statements, with the name it targets (keyspace from the name itself or from
// the last USE). The workspace index (symbols.ts) gathers these and resolves them.
import type { ColumnDefinition, CqlType, Expression, Identifier, Node, ParseResult, QualifiedName, Statement } from '../../../grammar/ast';
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
      out.push(occ(filePath, statement.keyspace, { kind: 'keyspace', name: statement.keyspace.name }, false, statement));
      currentKeyspace = statement.keyspace.name;
      continue;
    }
    collectStatement(filePath, statement, statement, currentKeyspace, out);
  }
  out.sort((a, b) => a.identifier.range.start - b.identifier.range.start);
  return { filePath, parse, occurrences: out };
}

function occ(filePath: string, identifier: Identifier, target: SymbolTarget, declaration: boolean,
  statement: Statement, node?: Node): Occurrence {
  return { filePath, identifier, target, declaration, statement, node };
}

function collectStatement(filePath: string, statement: Statement, top: Statement, ks: string | undefined,
  out: Occurrence[]): void {
  const add = (id: Identifier | undefined, target: SymbolTarget, declaration = false, node?: Node): void => {
    if (id && id.name !== '') out.push(occ(filePath, id, target, declaration, top, node));
  };
  const scoped = (q: QualifiedName): ScopedName => ({ keyspace: q.keyspace?.name ?? ks, name: q.name.name });
  const keyspaceOf = (q: QualifiedName): void => {
    if (q.keyspace) add(q.keyspace, { kind: 'keyspace', name: q.keyspace.name });
  };
  const tableRef = (q: QualifiedName | undefined, declaration = false, node?: Node): ScopedName | undefined => {
    if (!q) return undefined;
    keyspaceOf(q);
    const s = scoped(q);
    add(q.name, { kind: 'table', ...s }, declaration, node);
    return s;
  };
  const columnRef = (table: ScopedName | undefined, id: Identifier | undefined, declaration = false, node?: Node): void => {
    if (table && id) add(id, { kind: 'column', table, name: id.name }, declaration, node);
  };
  const columnDefs = (table: ScopedName, columns: ColumnDefinition[]): void => {
    for (const column of columns) {
      columnRef(table, column.name, true, column);
      typeRefs(column.type);
    }
  };
  // Column names, user types and function calls inside expressions, types and relations.
  const expressionRefs = (root: Node | undefined, table: ScopedName | undefined): void => {
    if (!root) return;
    walk(root, (node) => {
      if (node.kind === 'ColumnRef') columnRef(table, (node as Extract<Expression, { kind: 'ColumnRef' }>).name);
      else if (node.kind === 'UserType') typeRef((node as Extract<CqlType, { kind: 'UserType' }>).name);
      else if (node.kind === 'FunctionCall') {
        const name = (node as Extract<Expression, { kind: 'FunctionCall' }>).name;
        keyspaceOf(name);
        add(name.name, { kind: 'function', keyspace: name.keyspace?.name ?? ks, name: name.name.name });
      }
    });
  };
  const typeRef = (q: QualifiedName): void => {
    keyspaceOf(q);
    add(q.name, { kind: 'type', ...scoped(q) });
  };
  const typeRefs = (type: CqlType | undefined): void => expressionRefs(type, undefined);
  const nodesRefs = (nodes: readonly Node[] | undefined, table: ScopedName | undefined): void => {
    for (const n of nodes ?? []) expressionRefs(n, table);
  };

  switch (statement.kind) {
    case 'CreateKeyspace':
      add(statement.name, { kind: 'keyspace', name: statement.name.name }, true, statement);
      break;
    case 'AlterKeyspace':
    case 'DropKeyspace':
      add(statement.name, { kind: 'keyspace', name: statement.name.name });
      break;
    case 'CreateTable': {
      const table = tableRef(statement.name, true, statement)!;
      columnDefs(table, statement.columns);
      if (statement.primaryKey?.form === 'clause') {
        for (const id of [...statement.primaryKey.partitionKey, ...statement.primaryKey.clustering]) columnRef(table, id);
      }
      for (const order of statement.options?.clusteringOrder ?? []) columnRef(table, order.column);
      if (statement.like) tableRef(statement.like);
      break;
    }
    case 'AlterTable': {
      const table = tableRef(statement.name)!;
      const action = statement.action;
      switch (action.kind) {
        case 'AddColumns':
          columnDefs(table, action.columns);
          break;
        case 'DropColumns':
          for (const id of action.columns) columnRef(table, id);
          break;
        case 'RenameColumns':
          for (const r of action.renames) {
            columnRef(table, r.from);
            columnRef(table, r.to, true);
          }
          break;
        case 'AlterColumnType':
          columnRef(table, action.column);
          typeRefs(action.type);
          break;
        case 'AlterColumnMask':
          columnRef(table, action.column);
          break;
        default:
          break;
      }
      break;
    }
    case 'DropTable':
    case 'Truncate':
      tableRef(statement.name);
      break;
    case 'CreateType': {
      const type = scoped(statement.name);
      keyspaceOf(statement.name);
      add(statement.name.name, { kind: 'type', ...type }, true, statement);
      for (const field of statement.fields) {
        add(field.name, { kind: 'field', type, name: field.name.name }, true, field);
        typeRefs(field.type);
      }
      break;
    }
    case 'AlterType': {
      typeRef(statement.name);
      const type = scoped(statement.name);
      const action = statement.action;
      if (action.kind === 'AddField') {
        add(action.field.name, { kind: 'field', type, name: action.field.name.name }, true, action.field);
        typeRefs(action.field.type);
      } else if (action.kind === 'RenameFields') {
        for (const r of action.renames) {
          add(r.from, { kind: 'field', type, name: r.from.name });
          add(r.to, { kind: 'field', type, name: r.to.name }, true);
        }
      } else {
        add(action.field, { kind: 'field', type, name: action.field.name });
        typeRefs(action.type);
      }
      break;
    }
    case 'DropType':
      typeRef(statement.name);
      break;
    case 'CreateIndex': {
      const table = tableRef(statement.table)!;
      if (statement.name) {
        add(statement.name, { kind: 'index', keyspace: table.keyspace, name: statement.name.name }, true, statement);
      }
      for (const target of statement.targets) columnRef(table, target.column);
      break;
    }
    case 'DropIndex':
      keyspaceOf(statement.name);
      add(statement.name.name, { kind: 'index', ...scoped(statement.name) });
      break;
    case 'CreateMaterializedView': {
      tableRef(statement.name, true, statement);
      // A view's columns are its base table's columns: mentions resolve to the base definitions.
      const base = tableRef(statement.from);
      nodesRefs(statement.selectors, base);
      nodesRefs(statement.where, base);
      if (statement.primaryKey) {
        for (const id of [...statement.primaryKey.partitionKey, ...statement.primaryKey.clustering]) columnRef(base, id);
      }
      for (const order of statement.options?.clusteringOrder ?? []) columnRef(base, order.column);
      break;
    }
    case 'AlterMaterializedView':
    case 'DropMaterializedView':
      tableRef(statement.name);
      break;
    case 'CreateFunction':
      keyspaceOf(statement.name);
      add(statement.name.name, { kind: 'function', ...scoped(statement.name) }, true, statement);
      for (const arg of statement.arguments) typeRefs(arg.type);
      typeRefs(statement.returnType);
      break;
    case 'CreateAggregate':
      keyspaceOf(statement.name);
      add(statement.name.name, { kind: 'function', ...scoped(statement.name) }, true, statement);
      for (const t of statement.argumentTypes) typeRefs(t);
      typeRefs(statement.stateType);
      for (const f of [statement.stateFunction, statement.finalFunction]) {
        if (f) {
          keyspaceOf(f);
          add(f.name, { kind: 'function', ...scoped(f) });
        }
      }
      break;
    case 'DropFunction':
    case 'DropAggregate':
      keyspaceOf(statement.name);
      add(statement.name.name, { kind: 'function', ...scoped(statement.name) });
      for (const t of statement.argumentTypes ?? []) typeRefs(t);
      break;
    case 'CreateTrigger':
    case 'DropTrigger':
      tableRef(statement.table);
      break;
    case 'Select': {
      const table = tableRef(statement.from);
      nodesRefs(statement.selectors, table);
      nodesRefs(statement.where, table);
      for (const id of statement.groupBy) columnRef(table, id);
      for (const order of statement.orderBy) {
        columnRef(table, order.column);
        expressionRefs(order.annOf, table);
      }
      break;
    }
    case 'Insert': {
      const table = tableRef(statement.table);
      for (const id of statement.columns) columnRef(table, id);
      nodesRefs(statement.values, table);
      break;
    }
    case 'Update': {
      const table = tableRef(statement.table);
      nodesRefs(statement.assignments, table);
      nodesRefs(statement.where, table);
      nodesRefs(statement.conditions, table);
      break;
    }
    case 'Delete': {
      const table = tableRef(statement.table);
      nodesRefs(statement.selections, table);
      nodesRefs(statement.where, table);
      nodesRefs(statement.conditions, table);
      break;
    }
    case 'Batch':
      for (const inner of statement.statements) collectStatement(filePath, inner, top, ks, out);
      break;
    case 'Other': {
      // DESCRIBE TABLE ks.t, DESCRIBE KEYSPACE ks, GRANT ... ON ks.t: only names whose role is clear.
      const type = statement.statementType;
      for (const name of statement.names) {
        if (name.kind === 'QualifiedName') {
          if (/\b(TYPE)$/.test(type)) typeRef(name);
          else if (/\b(TABLE|COLUMNFAMILY|MATERIALIZED VIEW)$/.test(type) || /^(GRANT|REVOKE)\b/.test(type)) tableRef(name);
        } else if (/\bKEYSPACE$/.test(type)) {
          add(name, { kind: 'keyspace', name: name.name });
        }
      }
      break;
    }
    default:
      break;
  }
}
