// `conflicting-definition`: a table defined in two files of the workspace with different primary keys.
// A mention in a third file resolves to the first definition in file order (schema/resolve.ts), so the
// token, the partition analysis and the fixes follow one of them while the other may be what runs on the
// cluster. Reported on each definition, naming the others. Definitions that agree on the key (a schema
// kept in several versions that differ in other columns) are no conflict; neither is a table without a
// keyspace on either side (the docs' snippets), nor a DROP and re-CREATE inside one file.
import type { FindingData } from '../findings/findings-data';
import type { TableInfo } from '../schema/model';
import { keyText } from '../util/statements';
import type { MessageIdOf, RuleExamples, RuleModule } from './types';

/** keySignature's answers: a workspace of migrations defines one table in hundreds of files, and each definition compares itself with all the others. */
let signatures = new WeakMap<TableInfo, string>();

/** Lets go of the kept signatures and their counts (see Project.forgetLookups): made from their table or list alone. */
export function forgetKeySignatures(): void {
  signatures = new WeakMap();
  signatureCounts = new WeakMap();
}

/** The primary key as it decides tokens: column names and types, in order. */
function keySignature(table: TableInfo): string {
  let signature = signatures.get(table);
  if (signature === undefined) {
    const part = (columns: TableInfo['partitionKey']) => columns.map((c) => `${c.name} ${c.typeText}`);
    signature = `${part(table.partitionKey).join(',')}|${part(table.clustering).join(',')}`;
    signatures.set(table, signature);
  }
  return signature;
}

/**
 * How many of a definitions list's tables in `keyspace` (with a partition key) have each key signature, by
 * list and keyspace: in a workspace of migrations every CREATE TABLE of a name compared its key with all
 * the name's definitions (quadratic), and most agree, which the counts tell at once.
 */
let signatureCounts = new WeakMap<
  readonly TableInfo[],
  Map<string | undefined, { total: number; bySignature: Map<string, number> }>
>();

/** Whether any table of `definitions` in `keyspace` with a partition key has a key signature other than `signature`. */
function anyOtherKey(definitions: readonly TableInfo[], keyspace: string | undefined, signature: string): boolean {
  let byKeyspace = signatureCounts.get(definitions);
  if (!byKeyspace) signatureCounts.set(definitions, (byKeyspace = new Map()));
  let counts = byKeyspace.get(keyspace);
  if (!counts) {
    counts = { total: 0, bySignature: new Map() };
    for (const t of definitions) {
      if (!comparable(t, keyspace)) continue;
      const s = keySignature(t);
      counts.total++;
      counts.bySignature.set(s, (counts.bySignature.get(s) ?? 0) + 1);
    }
    byKeyspace.set(keyspace, counts);
  }
  return counts.total > (counts.bySignature.get(signature) ?? 0);
}

/** A definition whose key is compared: a table (not a view) of the keyspace, with a partition key. */
function comparable(t: TableInfo, keyspace: string | undefined): boolean {
  return t.kind === 'table' && t.keyspace === keyspace && t.partitionKey.length > 0;
}

function keyWithTypes(table: TableInfo): string {
  return keyText(
    table.partitionKey.map((c) => `${c.name} ${c.typeText}`),
    table.clustering.map((c) => c.name),
  );
}

function fileName(filePath: string): string {
  return filePath.split(/[\\/]/).pop() ?? filePath;
}

export const rule: RuleModule<'otherKey'> = {
  meta: {
    id: 'conflicting-definition',
    defaultSeverity: 'warning',
    description: 'A table defined in several files with different primary keys.',
    messages: {
      otherKey: '{{table}} is defined with another primary key in {{files}}',
    },
    scope: 'statement',
  },
  handlers: {
    CreateTable(stmt, ctx) {
      const own = ctx.definedBy(stmt);
      if (!own?.keyspace || !own.partitionKey.length) return;
      const table = ctx.latest(own);
      // Every workspace definition in the table's keyspace: what the name resolves to from the start of the
      // file (schema/resolve.ts, rule 2), in file order.
      const signature = keySignature(table);
      const definitions = ctx.definitionsOf(table);
      if (!anyOtherKey(definitions, table.keyspace, signature)) return;
      // In a migration folder, a later file that re-creates the table is its history, not a conflict (primary-key-change judges it).
      const history = ctx.migration()?.folder.files;
      const others = definitions.filter(
        (t) =>
          t.filePath !== ctx.filePath &&
          comparable(t, table.keyspace) &&
          keySignature(t) !== signature &&
          !history?.includes(t.filePath),
      );
      if (!others.length) return;
      const names = [...new Set(others.map((t) => fileName(t.filePath)))];
      ctx.report({
        messageId: 'otherKey',
        values: { table: table.qualifiedName, files: names.join(', ') },
        details:
          `Here: PRIMARY KEY ${keyWithTypes(table)}; ${others.map((t) => `${fileName(t.filePath)}: PRIMARY KEY ${keyWithTypes(t)}`).join('; ')}.\n\n` +
          'Statements in other files resolve to the first definition in file order, so tokens, partition findings and fixes follow that one. ' +
          'Keep one definition of the table, or give the other its own name.',
        range: stmt.name.range,
        related: others.map((t) => ({
          filePath: t.filePath,
          range: t.nameRange,
          message: `${t.qualifiedName} is defined here`,
        })),
        data: {
          table: table.qualifiedName,
          others: others.map((t) => t.filePath),
        } satisfies FindingData<'conflicting-definition'>,
      });
    },
  },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: [
    {
      code: 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);',
      files: { 'other.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY, v text, w int);' },
      name: 'same key, other columns',
    },
    {
      code: 'CREATE TABLE t (id int PRIMARY KEY);',
      files: { 'other.cql': 'CREATE TABLE t (id text PRIMARY KEY);' },
      name: 'no keyspace on either side',
    },
    {
      path: 'migrations/v001_create.cql',
      code: 'CREATE TABLE ks.t (id int PRIMARY KEY);',
      files: { 'migrations/v002_rekey.cql': 'DROP TABLE ks.t;\nCREATE TABLE ks.t (id text PRIMARY KEY);' },
      name: 'a later migration re-creates it (its history: primary-key-change)',
    },
    {
      code: 'CREATE TABLE ks.t (id int PRIMARY KEY);\nDROP TABLE ks.t;\nCREATE TABLE ks.t (id text PRIMARY KEY);',
      name: 're-created in one file',
    },
  ],
  invalid: [
    {
      code: 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);',
      files: { 'other.cql': 'CREATE TABLE ks.t (id text PRIMARY KEY, v text);' },
      at: 'ks.t',
      message: /other\.cql/,
      data: { table: 'ks.t' },
    },
    {
      code: 'CREATE TABLE ks.t (id int PRIMARY KEY);',
      files: {
        'a.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY, v text);',
        'b.cql': 'CREATE TABLE ks.t (id int PRIMARY KEY);',
        'c.cql': 'CREATE TABLE ks.t (id text PRIMARY KEY);',
      },
      name: 'one of several agreeing definitions differs',
      at: 'ks.t',
      message: /^(?![\s\S]*(a|b)\.cql)[\s\S]*c\.cql/,
      data: { others: ['/virtual/cqlint-tests/c.cql'] },
    },
    {
      code: 'USE ks;\nCREATE TABLE t (day date, id int, PRIMARY KEY (day, id));',
      files: { 'other.cql': 'CREATE TABLE ks.t (day date, id int, PRIMARY KEY ((day, id)));' },
      at: 't (',
      message: /PRIMARY KEY \(\(day date, id int\)\)/,
    },
  ],
};
