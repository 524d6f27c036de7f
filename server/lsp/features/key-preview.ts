// The numbers behind a partition key value: its Murmur3 token, serialized key bytes, the @shard formula's
// value and, when a ring file is known, the owning token range and replicas. Contributed to the hover
// (on a partition key value or a shard source value) and shared with inlay hints and cqlint/tokenAt.
//
// The ring comes from the server's cache (ctx.ringFor; which file and who may name it: config-files.ts).
import type { Expression } from '../../../grammar/ast';
import {
  keyedStatements,
  statementColumnValues,
  statementKeyInput,
  statementTable,
  udtLookupFor,
  usableShardSpec,
  type ColumnValues,
  type KeyedStatement,
  type StatementKeyInput,
} from '../../core/schema/key-values';
import type { TableInfo } from '../../core/schema/model';
import { describeKeyPreview, formatKeyPreviewMarkdown, type KeyPreview } from '../../core/token/preview';
import { replicationFromMap, type Replication } from '../../core/token/ring';
import { toHex, tryComputeToken } from '../../core/token/token';
import { keyTypeText } from '../../core/token/types';
import type { Feature, ServerContext } from '../context';
import { registerHoverProvider } from './hover';
import type { EditorDocument } from './symbols';
import { inlineCode, markdownText } from '../../core/util/markdown';

function replicationOf(ctx: ServerContext, table: TableInfo): Replication | undefined {
  const ks = table.keyspace ? ctx.project.schema().keyspaces.get(table.keyspace) : undefined;
  return ks && ks.replication.class ? replicationFromMap(ks.replication) : undefined;
}

// ---------------------------------------------------------------------------------------------
// The key under the cursor

interface KeyAt {
  statement: KeyedStatement;
  table: TableInfo;
  values: Map<string, ColumnValues>;
  key: StatementKeyInput;
  /** The value under the cursor, when it belongs to a partition key column or a shard source column. */
  focus?: { column: string; expression: Expression };
}

function containing(e: Expression, offset: number): boolean {
  return e.range.start <= offset && offset <= e.range.end;
}

/** The INSERT/UPDATE/DELETE/SELECT statement (batches included) whose range holds `offset`. */
function keyedStatementAt(doc: EditorDocument, offset: number): KeyedStatement | undefined {
  return keyedStatements(doc.parse).find((s) => s.range.start <= offset && offset <= s.range.end);
}

/**
 * The partition key of the statement at `offset`. With `requireValue`, only when the cursor is on a value
 * of a partition key column or of a shard source column (the hover); else for any place in the statement.
 */
export function keyAt(
  ctx: ServerContext,
  doc: EditorDocument,
  offset: number,
  requireValue: boolean,
): KeyAt | undefined {
  const statement = keyedStatementAt(doc, offset);
  if (!statement) return undefined;
  const table = ctx.project.tableFor(doc.filePath, statementTable(statement), statement.range.start);
  if (!table || !table.partitionKey.length) return undefined;
  const values = statementColumnValues(statement);
  const relevant = new Set(table.partitionKey.map((c) => c.name));
  const spec = usableShardSpec(table);
  for (const s of spec?.sources ?? []) relevant.add(s);
  let focus: KeyAt['focus'];
  let pickIndex: number | undefined;
  for (const [column, v] of values) {
    if (!relevant.has(column)) continue;
    const i = v.values.findIndex((e) => containing(e, offset));
    if (i >= 0) {
      focus = { column, expression: v.values[i]! };
      pickIndex = i;
      break;
    }
  }
  if (requireValue && !focus) return undefined;
  const key = statementKeyInput(table, values, udtLookupFor(ctx.project.schema()), (column) =>
    column === focus?.column ? pickIndex : undefined,
  );
  if (!key) return undefined;
  return { statement, table, values, key, focus };
}

/** describeKeyPreview with the ring and the keyspace's replication filled in. */
function previewOf(
  ctx: ServerContext,
  filePath: string,
  at: KeyAt,
): { preview: KeyPreview; ringError?: string; replicationKnown: boolean } {
  const ring = ctx.ringFor(filePath);
  const replication = replicationOf(ctx, at.table);
  const preview = describeKeyPreview({ ...at.key.input, ring: ring.ring, replication });
  return { preview, ringError: ring.error, replicationKnown: !!replication };
}

function sourceText(doc: EditorDocument, e: Expression): string {
  const text = doc.text.slice(e.range.start, e.range.end).replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The markdown shown by the hover and cqlint/tokenAt. */
export function keyPreviewMarkdown(ctx: ServerContext, doc: EditorDocument, at: KeyAt): string {
  const { preview, ringError, replicationKnown } = previewOf(ctx, doc.filePath, at);
  const pk = at.table.partitionKey.map((c) => c.name);
  const lines: string[] = [
    `**Partition key** of ${inlineCode(at.table.qualifiedName)}: ${inlineCode(`(${pk.join(', ')})`)}`,
  ];
  // (An empty replica list is explained below instead of printed as `replicas: `.)
  lines.push(formatKeyPreviewMarkdown(preview).replace(/(^|\n\n)replicas: (?=\n|$)/, ''));
  const spec = at.key.input.shard;
  if (spec && at.key.shardAssumed && preview.shard?.value !== undefined) {
    const written = at.values.get(spec.shardColumn)?.values[0];
    lines.push(
      written
        ? `${inlineCode(spec.shardColumn)} is ${inlineCode(sourceText(doc, written))} here; the token uses the formula's value ${preview.shard.value}`
        : `${inlineCode(spec.shardColumn)} is not given here; the token uses the formula's value ${preview.shard.value}`,
    );
  }
  if (preview.ok && preview.components && preview.components.length > 1) {
    lines.push(
      `components: ${preview.components.map((c) => `${inlineCode(c.column)} ${c.type} \`0x${c.hex}\``).join(', ')}`,
    );
  }
  if (!preview.ok) {
    // Say what is known and what is missing, column by column.
    const known: string[] = [];
    const missing: string[] = [];
    for (const c of at.key.input.columns) {
      const value = at.key.input.values[c.name];
      if (value === undefined) {
        if (spec?.shardColumn === c.name && preview.shard?.value !== undefined) continue;
        missing.push(`${inlineCode(c.name)} (not restricted by = or IN in this statement)`);
        continue;
      }
      const r = tryComputeToken([c.type], [value], { columns: [c.name] });
      if (r.ok) known.push(`${inlineCode(c.name)} ${keyTypeText(c.type)} \`0x${toHex(r.key)}\``);
      else missing.push(`${inlineCode(c.name)}: ${markdownText(r.problem.message)}`);
    }
    if (known.length) lines.push(`known: ${known.join(', ')}`);
    if (missing.length) lines.push(`missing: ${missing.join('; ')}`);
  }
  for (const alt of at.key.alternatives) {
    lines.push(
      `${inlineCode(alt.column)} IN: value ${alt.index + 1} of ${alt.count}${at.focus?.column === alt.column ? '' : ' (hover another value for its token)'}`,
    );
  }
  if (preview.ring && preview.ring.replicas.length === 0) {
    const ringDcs = [...new Set(ctx.ringFor(doc.filePath).ring?.nodes.map((n) => n.dc) ?? [])];
    const replication = replicationOf(ctx, at.table);
    const wanted = replication?.strategy === 'NetworkTopologyStrategy' ? Object.keys(replication.dcs) : [];
    lines.push(
      `no replicas: keyspace ${at.table.keyspace ?? '?'} replicates to ${wanted.join(', ') || 'no datacenter of the ring'}, the ring's datacenters are ${ringDcs.join(', ')}`,
    );
  }
  if (preview.ring && !replicationKnown) {
    lines.push(
      `replication of ${at.table.keyspace ? `keyspace ${at.table.keyspace}` : 'the keyspace'} unknown (no CREATE KEYSPACE in the workspace): only the primary replica is shown`,
    );
  }
  if (ringError) lines.push(`ring: ${markdownText(ringError)}`);
  return lines.filter(Boolean).join('\n\n');
}

/** Hover contribution: the key preview when the cursor is on a partition key (or shard source) value. */
function keyHoverProvider(ctx: ServerContext, doc: EditorDocument, offset: number) {
  const at = keyAt(ctx, doc, offset, true);
  if (!at?.focus) return undefined;
  return {
    markdown: keyPreviewMarkdown(ctx, doc, at),
    start: at.focus.expression.range.start,
    end: at.focus.expression.range.end,
  };
}

export const keyPreviewFeature: Feature = {
  name: 'keyPreview',
  register(ctx) {
    registerHoverProvider(keyHoverProvider);
  },
};
