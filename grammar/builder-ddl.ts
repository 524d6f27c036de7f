// CST -> AST for the schema statements (CREATE, ALTER, DROP) and the ones modelled as OtherStatement (roles,
// permissions, DESCRIBE, LIST), from the parts in grammar/builder-parts.ts.
import type { CstNode, IToken } from './chevrotain';
import type * as A from './ast';
import type { AlterStatementCstNode, AlterTableCstNode, CreateStatementCstNode, DropStatementCstNode } from './cst';
import * as Lexer from './lexer';
import { identifierFromToken, literalFromToken, sized, startOf, tokenRange } from './nodes';
import {
  type Base, addColumn, otherOf, alterKeyspaceOf, createTriggerOf, dropKeyspaceOf, dropFunctionOf, dropTriggerOf, createTypeOf, createFunctionOf, createMaterializedViewOf, functionArgumentOf, createIndexOf, createKeyspaceOf, createTableOf, dropOf, indexTargetOf,
  alterTableOf, alterColumnTypeOf, alterColumnMaskOf, addColumnsOf, dropColumnsOf, renameColumnsOf, withOptionsOf,
} from './nodes-statements';
import {
  firstOf, lastOf, rangeOf, isToken, ch, node, nodes, tok, has, identifier, qualifiedName, buildType, buildExpression, buildSelectors, buildWhere, buildProperties, buildTableOptions, buildPrimaryKeyClause, buildMask, buildColumnDefinition, buildTypeField, typeList,
} from './builder-parts';

// Token types as module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a
// getter call, a few per cent of a parse in the builder's hot paths.
const { keywordTokens: K } = Lexer;

export function buildCreate(n: CreateStatementCstNode, base: Base, nameWords: string[]): A.Statement {
  const c = n.children;
  if (c.createKeyspace) {
    const s = c.createKeyspace[0];
    return createKeyspaceOf(base, identifier(node(s, 'keyspaceName')!), has(s, 'ifNotExists'), buildProperties(node(s, 'properties')));
  }
  if (c.createTable) {
    const s = c.createTable[0];
    const names = nodes(s, 'tableName');
    const body = node(s, 'tableBody');
    const stmt = createTableOf(base, tok(s, 'TABLE')!, qualifiedName(names[0]), has(s, 'ifNotExists'));
    if (body) {
      stmt.bodyRange = rangeOf(body);
      for (const el of nodes(body, 'tableElement')) {
        const def = node(el, 'columnDefinition');
        if (def) {
          addColumn(stmt, buildColumnDefinition(def), () => tokenRange(tok(def, 'PRIMARY')!, tok(def, 'KEY')!));
        } else if (!stmt.primaryKey) {
          stmt.primaryKey = buildPrimaryKeyClause(node(el, 'primaryKeyClause')!);
        }
      }
    } else {
      stmt.like = qualifiedName(names[1]);
    }
    const options = node(s, 'tableOptions');
    if (options) stmt.options = buildTableOptions(options);
    return stmt;
  }
  if (c.createType) {
    const s = c.createType[0];
    return createTypeOf(base, qualifiedName(node(s, 'userTypeName')!), has(s, 'ifNotExists'), nodes(s, 'typeField').map(buildTypeField));
  }
  if (c.createIndex) {
    const s = c.createIndex[0];
    const nameNode = node(s, 'indexName');
    return createIndexOf(base, {
      custom: has(s, 'CUSTOM'),
      ifNotExists: has(s, 'ifNotExists'),
      table: qualifiedName(node(s, 'tableName')!),
      targets: nodes(s, 'indexTarget').map((t) => indexTargetOf(identifier(node(t, 'columnName')!), tok(t, 'KEYS') ?? tok(t, 'VALUES') ?? tok(t, 'ENTRIES') ?? tok(t, 'FULL'), rangeOf(t))),
      properties: buildProperties(node(s, 'properties')),
      name: nameNode ? identifier(nameNode) : undefined,
      using: tok(s, 'StringLiteral'),
    });
  }
  if (c.createMaterializedView) {
    const s = c.createMaterializedView[0];
    const names = nodes(s, 'tableName');
    const options = node(s, 'tableOptions');
    return createMaterializedViewOf(base, {
      name: qualifiedName(names[0]),
      ifNotExists: has(s, 'ifNotExists'),
      clause: buildSelectors(node(s, 'selectClause')!),
      from: qualifiedName(names[1]),
      where: buildWhere(node(s, 'whereClause')),
      primaryKey: buildPrimaryKeyClause(node(s, 'primaryKeyClause')!),
      options: options ? buildTableOptions(options) : undefined,
    });
  }
  if (c.createFunction) {
    const s = c.createFunction[0];
    return createFunctionOf(base, {
      orReplace: has(s, 'orReplace'),
      ifNotExists: has(s, 'ifNotExists'),
      name: qualifiedName(node(s, 'functionName')!),
      arguments: nodes(s, 'functionArgument').map((a) => functionArgumentOf(identifier(node(a, 'argumentName')!), buildType(node(a, 'cqlType')!), rangeOf(a))),
      calledOnNullInput: has(s, 'CALLED'),
      returnType: buildType(node(s, 'cqlType')!),
      language: identifierFromToken(tok(s, 'Ident')!),
      body: literalFromToken(tok(s, 'StringLiteral')!),
    });
  }
  if (c.createAggregate) {
    const s = c.createAggregate[0];
    const fns = nodes(s, 'functionName').map(qualifiedName);
    const stmt: A.CreateAggregateStatement = {
      kind: 'CreateAggregate',
      range: base.range,
      terminated: base.terminated,
      orReplace: has(s, 'orReplace'),
      ifNotExists: has(s, 'ifNotExists'),
      name: fns[0],
      argumentTypes: typeList(node(s, 'typeList')) ?? [],
      stateFunction: fns[1],
      stateType: buildType(node(s, 'cqlType')!),
    };
    if (fns[2]) stmt.finalFunction = fns[2];
    const init = node(s, 'expression');
    if (init) stmt.initialCondition = buildExpression(init);
    return stmt;
  }
  if (c.createTrigger) {
    const s = c.createTrigger[0];
    return createTriggerOf(base, has(s, 'ifNotExists'), identifier(node(s, 'triggerName')!), qualifiedName(node(s, 'tableName')!), literalFromToken(tok(s, 'StringLiteral')!));
  }
  return buildOther(n, base, nameWords);
}

export function buildAlter(n: AlterStatementCstNode, base: Base, nameWords: string[]): A.Statement {
  const c = n.children;
  if (c.alterKeyspace) {
    const s = c.alterKeyspace[0];
    return alterKeyspaceOf(base, identifier(node(s, 'keyspaceName')!), has(s, 'ifExists'), buildProperties(node(s, 'properties')));
  }
  if (c.alterTable) {
    const s = c.alterTable[0];
    return alterTableOf(base, qualifiedName(node(s, 'tableName')!), has(s, 'ifExists'), buildAlterTableAction(s));
  }
  if (c.alterType) {
    const s = c.alterType[0];
    const name = qualifiedName(node(s, 'userTypeName')!);
    const ifs = nodes(s, 'ifExists');
    // The first IF EXISTS (right after TYPE) is the type's, a second one belongs to RENAME.
    const typeIfExists = ifs.length > 0 && firstOf(ifs[0]).startOffset < name.range.start;
    let action: A.AlterTypeAction;
    if (has(s, 'ADD')) {
      const field = buildTypeField(node(s, 'typeField')!);
      action = { kind: 'AddField', ifNotExists: has(s, 'ifNotExists'), field, range: { start: startOf(tok(s, 'ADD')!), end: field.range.end } };
    } else if (has(s, 'RENAME')) {
      const pairs = nodes(s, 'renameField');
      action = {
        kind: 'RenameFields',
        ifExists: ifs.length > (typeIfExists ? 1 : 0),
        renames: pairs.map((p) => {
          const [from, to] = nodes(p, 'fieldName').map(identifier);
          return { from, to };
        }),
        range: tokenRange(tok(s, 'RENAME')!, lastOf(pairs[pairs.length - 1])),
      };
    } else {
      const type = buildType(node(s, 'cqlType')!);
      action = { kind: 'AlterFieldType', field: identifier(node(s, 'fieldName')!), type, range: { start: startOf(tok(s, 'ALTER')!), end: type.range.end } };
    }
    return { kind: 'AlterType', range: base.range, terminated: base.terminated, name, ifExists: typeIfExists, action };
  }
  if (c.alterMaterializedView) {
    const s = c.alterMaterializedView[0];
    return { kind: 'AlterMaterializedView', range: base.range, terminated: base.terminated, name: qualifiedName(node(s, 'tableName')!), ifExists: has(s, 'ifExists'), options: buildTableOptions(node(s, 'tableOptions')!) };
  }
  return buildOther(n, base, nameWords);
}

export function buildAlterTableAction(s: AlterTableCstNode): A.AlterTableAction {
  const alter = node(s, 'alterColumn');
  if (alter) {
    const column = identifier(node(alter, 'columnName')!);
    const range = rangeOf(alter);
    const ifExists = has(alter, 'ifExists');
    if (has(alter, 'TYPE')) return alterColumnTypeOf(ifExists, column, buildType(node(alter, 'cqlType')!), range);
    const mask = node(alter, 'columnMask');
    return alterColumnMaskOf(ifExists, column, mask ? buildMask(mask) : undefined, range);
  }
  const add = node(s, 'addColumns');
  if (add) return addColumnsOf(has(add, 'ifNotExists'), nodes(add, 'columnDefinition').map(buildColumnDefinition), rangeOf(add));
  const drop = node(s, 'dropColumns');
  if (drop) {
    const ts = tok(drop, 'IntegerLiteral');
    return dropColumnsOf(has(drop, 'ifExists'), nodes(drop, 'columnName').map(identifier), ts ? literalFromToken(ts) : undefined, rangeOf(drop));
  }
  const rename = node(s, 'renameColumns');
  if (rename) {
    const renames = nodes(rename, 'renamePair').map((p) => {
      const [from, to] = nodes(p, 'columnName').map(identifier);
      return { from, to };
    });
    return renameColumnsOf(has(rename, 'ifExists'), renames, rangeOf(rename));
  }
  const dropCompact = node(s, 'dropCompactStorage');
  if (dropCompact) return { kind: 'DropCompactStorage', range: rangeOf(dropCompact) };
  const options = node(s, 'tableOptions')!;
  return withOptionsOf(buildTableOptions(options), rangeOf(options));
}

export function buildDrop(n: DropStatementCstNode, base: Base, nameWords: string[]): A.Statement {
  const c = n.children;
  if (c.dropKeyspace) {
    const s = c.dropKeyspace[0];
    return dropKeyspaceOf(base, identifier(node(s, 'keyspaceName')!), has(s, 'ifExists'));
  }
  if (c.dropTable) {
    const s = c.dropTable[0];
    return dropOf('DropTable', base, qualifiedName(node(s, 'tableName')!), has(s, 'ifExists'));
  }
  if (c.dropType) {
    const s = c.dropType[0];
    return dropOf('DropType', base, qualifiedName(node(s, 'userTypeName')!), has(s, 'ifExists'));
  }
  if (c.dropIndex) {
    const s = c.dropIndex[0];
    return dropOf('DropIndex', base, qualifiedName(node(s, 'qualifiedIndexName')!), has(s, 'ifExists'));
  }
  if (c.dropMaterializedView) {
    const s = c.dropMaterializedView[0];
    return dropOf('DropMaterializedView', base, qualifiedName(node(s, 'tableName')!), has(s, 'ifExists'));
  }
  if (c.dropFunction || c.dropAggregate) {
    const s = (c.dropFunction ?? c.dropAggregate)![0];
    return dropFunctionOf(c.dropFunction ? 'DropFunction' : 'DropAggregate', base, has(s, 'ifExists'), qualifiedName(node(s, 'functionName')!), typeList(node(s, 'typeList')));
  }
  if (c.dropTrigger) {
    const s = c.dropTrigger[0];
    return dropTriggerOf(base, has(s, 'ifExists'), identifier(node(s, 'triggerName')!), qualifiedName(node(s, 'tableName')!));
  }
  return buildOther(n, base, nameWords);
}

const QUALIFIED_RULES = new Set(['tableName', 'userTypeName', 'qualifiedIndexName', 'functionName']);
const NAME_RULES = new Set(['keyspaceName', 'roleName', 'userName', 'identityName', 'indexName', 'columnName', 'triggerName']);

/** Names mentioned by a statement modelled as OtherStatement, in source order. */
export function collectNames(n: CstNode, out: (A.Identifier | A.QualifiedName)[]): void {
  for (const [key, list] of Object.entries(ch(n))) {
    for (const child of list!) {
      if (isToken(child)) continue;
      if (QUALIFIED_RULES.has(key)) out.push(qualifiedName(child));
      else if (NAME_RULES.has(key)) out.push(identifier(child));
      else collectNames(child, out);
    }
  }
}

export function buildOther(n: CstNode, base: Base, words: string[]): A.OtherStatement {
  const names: (A.Identifier | A.QualifiedName)[] = [];
  collectNames(n, names);
  names.sort((a, b) => a.range.start - b.range.start);
  return otherOf(base, words.join(' '), sized(names));
}

/** `statementType` words for statements modelled as OtherStatement. */
export function otherStatementType(n: CstNode, tokens: IToken[]): string[] {
  const first = tokens[0].tokenType;
  const second = tokens[1]?.tokenType;
  if (first === K.DESCRIBE || first === K.DESC) {
    const d = n;
    const words = ['DESCRIBE'];
    for (const w of ['FULL', 'ONLY', 'CLUSTER', 'SCHEMA', 'KEYSPACES', 'KEYSPACE', 'TABLES', 'TABLE', 'INDEX', 'MATERIALIZED', 'VIEW', 'TYPES', 'TYPE', 'FUNCTIONS', 'FUNCTION', 'AGGREGATES', 'AGGREGATE']) {
      if (has(d, w)) words.push(w);
    }
    return words;
  }
  if (first === K.LIST) {
    if (second === K.ROLES || second === K.USERS || second === K.SUPERUSERS) return ['LIST', tokens[1].image.toUpperCase()];
    return ['LIST', 'PERMISSIONS'];
  }
  if (first === K.GRANT || first === K.REVOKE) return [tokens[0].image.toUpperCase()];
  return [tokens[0].image.toUpperCase(), tokens[1]?.image.toUpperCase() ?? ''].filter(Boolean);
}
