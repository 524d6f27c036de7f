// The numbers behind a partition key value: its Murmur3 token, serialized key bytes, the @shard formula's
// value and, when a ring file is known, the owning token range and replicas. Contributed to the hover
// (on a partition key value or a shard source value) and shared with inlay hints and cqlint/tokenAt.
//
// The ring comes from the `cqlint.ringFile` setting (relative to the workspace folder) or else from the
// `.cqlint.json` `ring` key (relative to that file); it is re-read when the file changes on disk.
// A `.cqlint.json` comes with the workspace, so its ring must be inside the workspace; a ring elsewhere
// needs the setting, which VS Code takes from user settings only (machine scope). In an untrusted
// workspace nothing outside it is read, and `.cqlint.json` names no ring at all.
import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Expression } from '../../../grammar/ast';
import {
  keyedStatements, statementColumnValues, statementKeyInput, statementTable, udtLookupFor, usableShardSpec,
  type ColumnValues, type KeyedStatement, type StatementKeyInput,
} from '../../core/schema/keyValues';
import type { TableInfo } from '../../core/schema/model';
import { describeKeyPreview, formatKeyPreviewMarkdown, type KeyPreview } from '../../core/token/preview';
import { parseRing, replicationFromMap, RingParseError, type Replication, type Ring } from '../../core/token/ring';
import { toHex, tryComputeToken } from '../../core/token/token';
import { typeToString } from '../../core/token/types';
import { readTextFileSync, type ReadOptions } from '../../core/io/files';
import type { Feature, ServerContext } from '../context';
import { registerHoverProvider } from './hover';
import type { EditorDocument } from './symbols';

// ---------------------------------------------------------------------------------------------
// Ring files

interface LoadedRing {
  mtimeMs: number;
  ring?: Ring;
  error?: string;
}

const rings = new Map<string, LoadedRing>();

/** The ring file that applies to a file: the setting (relative to its workspace folder), else .cqlint.json's `ring`. */
export function ringPathFor(ctx: ServerContext, filePath: string): string | undefined {
  return ringSourceFor(ctx, filePath)?.path;
}

function ringSourceFor(ctx: ServerContext, filePath: string): { path: string; fromSetting: boolean } | undefined {
  const setting = ctx.settingsOf(filePath).ringFile?.trim();
  if (setting) {
    if (isAbsolute(setting)) return { path: setting, fromSetting: true };
    const folder = ctx.workspaceFolders.find((f) => filePath.startsWith(f.endsWith('/') ? f : `${f}/`)) ?? ctx.workspaceFolders[0];
    return { path: resolve(folder ?? process.cwd(), setting), fromSetting: true };
  }
  if (!isAbsolute(filePath)) return undefined; // untitled documents have no .cqlint.json
  const ring = ctx.project.configFor(filePath).ring;
  return ring ? { path: ring, fromSetting: false } : undefined;
}

/** The ring for a file (cached per path and modification time), or why it could not be read. */
export function ringFor(ctx: ServerContext, filePath: string): { path?: string; ring?: Ring; error?: string } {
  const source = ringSourceFor(ctx, filePath);
  if (!source) return {};
  const { path } = source;
  if (!source.fromSetting && !ctx.workspaceTrusted) {
    return { path, error: 'ring files named in .cqlint.json are not read in an untrusted workspace (trust it, or set cqlint.ringFile)' };
  }
  // A workspace's .cqlint.json may not reach outside it; nor may anything in an untrusted workspace.
  const confined = !source.fromSetting || !ctx.workspaceTrusted;
  const roots = confined ? (ctx.workspaceFolders.length ? ctx.workspaceFolders : [dirname(filePath)]) : undefined;
  const readOptions: ReadOptions = { kind: 'ring', roots };
  let mtimeMs: number;
  try {
    mtimeMs = statSync(path).mtimeMs;
  } catch (error) {
    return { path, error: `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  // Per roots too: a file refused for one workspace may be inside another.
  const cacheKey = `${roots ? roots.join('\0') : ''}\n${path}`;
  const cached = rings.get(cacheKey);
  if (cached && cached.mtimeMs === mtimeMs) return { path, ring: cached.ring, error: cached.error };
  const loaded: LoadedRing = { mtimeMs };
  const read = readTextFileSync(path, readOptions);
  if (!read.ok) {
    loaded.error = `cannot read ${path} (${read.message}${read.reason === 'outside-workspace' && !source.fromSetting ? '; a ring outside the workspace must be set in cqlint.ringFile in your user settings' : ''})`;
  } else {
    try {
      loaded.ring = parseRing(read.text);
    } catch (error) {
      // RingParseError messages name a line, never the file's content.
      loaded.error = `${path}: ${error instanceof RingParseError ? error.message : 'cannot parse the ring file'}`;
    }
  }
  if (loaded.error) ctx.log.warn(`cqlint: ring file ${loaded.error}`);
  rings.set(cacheKey, loaded);
  return { path, ring: loaded.ring, error: loaded.error };
}

function replicationOf(ctx: ServerContext, table: TableInfo): Replication | undefined {
  const ks = table.keyspace ? ctx.project.schema().keyspaces.get(table.keyspace) : undefined;
  return ks && ks.replication.class ? replicationFromMap(ks.replication) : undefined;
}

// ---------------------------------------------------------------------------------------------
// The key under the cursor

export interface KeyAt {
  statement: KeyedStatement;
  table: TableInfo;
  values: Map<string, ColumnValues>;
  key: StatementKeyInput;
  /** The value under the cursor, when it belongs to a partition key column or a shard source column. */
  focus?: { column: string; expression: Expression };
}

function containing(e: Expression, offset: number): boolean {
  return e.range.start.offset <= offset && offset <= e.range.end.offset;
}

/** The INSERT/UPDATE/DELETE/SELECT statement (batches included) whose range holds `offset`. */
export function keyedStatementAt(doc: EditorDocument, offset: number): KeyedStatement | undefined {
  return keyedStatements(doc.parse).find((s) => s.range.start.offset <= offset && offset <= s.range.end.offset);
}

/**
 * The partition key of the statement at `offset`. With `requireValue`, only when the cursor is on a value
 * of a partition key column or of a shard source column (the hover); else for any place in the statement.
 */
export function keyAt(ctx: ServerContext, doc: EditorDocument, offset: number, requireValue: boolean): KeyAt | undefined {
  const statement = keyedStatementAt(doc, offset);
  if (!statement) return undefined;
  const table = ctx.project.tableFor(doc.filePath, statementTable(statement), statement.range.start.offset);
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
  const key = statementKeyInput(table, values, udtLookupFor(ctx.project.schema()), (column) => (column === focus?.column ? pickIndex : undefined));
  if (!key) return undefined;
  return { statement, table, values, key, focus };
}

/** describeKeyPreview with the ring and the keyspace's replication filled in. */
export function previewOf(ctx: ServerContext, filePath: string, at: KeyAt): { preview: KeyPreview; ringError?: string; replicationKnown: boolean } {
  const ring = ringFor(ctx, filePath);
  const replication = replicationOf(ctx, at.table);
  const preview = describeKeyPreview({ ...at.key.input, ring: ring.ring, replication });
  return { preview, ringError: ring.error, replicationKnown: !!replication };
}

function sourceText(doc: EditorDocument, e: Expression): string {
  const text = doc.text.slice(e.range.start.offset, e.range.end.offset).replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function code(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** The markdown shown by the hover and cqlint/tokenAt. */
export function keyPreviewMarkdown(ctx: ServerContext, doc: EditorDocument, at: KeyAt): string {
  const { preview, ringError, replicationKnown } = previewOf(ctx, doc.filePath, at);
  const pk = at.table.partitionKey.map((c) => c.name);
  const lines: string[] = [`**Partition key** of \`${at.table.qualifiedName}\`: \`(${pk.join(', ')})\``];
  // (An empty replica list is explained below instead of printed as `replicas: `.)
  lines.push(formatKeyPreviewMarkdown(preview).replace(/(^|\n\n)replicas: (?=\n|$)/, ''));
  const spec = at.key.input.shard;
  if (spec && at.key.shardAssumed && preview.shard?.value !== undefined) {
    const written = at.values.get(spec.shardColumn)?.values[0];
    lines.push(written
      ? `\`${spec.shardColumn}\` is ${code(sourceText(doc, written))} here; the token uses the formula's value ${preview.shard.value}`
      : `\`${spec.shardColumn}\` is not given here; the token uses the formula's value ${preview.shard.value}`);
  }
  if (preview.ok && preview.components && preview.components.length > 1) {
    lines.push(`components: ${preview.components.map((c) => `\`${c.column}\` ${c.type} \`0x${c.hex}\``).join(', ')}`);
  }
  if (!preview.ok) {
    // Say what is known and what is missing, column by column.
    const known: string[] = [];
    const missing: string[] = [];
    for (const c of at.key.input.columns) {
      const value = at.key.input.values[c.name];
      if (value === undefined) {
        if (spec?.shardColumn === c.name && preview.shard?.value !== undefined) continue;
        missing.push(`\`${c.name}\` (not restricted by = or IN in this statement)`);
        continue;
      }
      const r = tryComputeToken([c.type], [value], { columns: [c.name] });
      if (r.ok) known.push(`\`${c.name}\` ${typeToString(c.type)} \`0x${toHex(r.key)}\``);
      else missing.push(`\`${c.name}\`: ${r.problem.message}`);
    }
    if (known.length) lines.push(`known: ${known.join(', ')}`);
    if (missing.length) lines.push(`missing: ${missing.join('; ')}`);
  }
  for (const alt of at.key.alternatives) {
    lines.push(`\`${alt.column}\` IN: value ${alt.index + 1} of ${alt.count}${at.focus?.column === alt.column ? '' : ' (hover another value for its token)'}`);
  }
  if (preview.ring && preview.ring.replicas.length === 0) {
    const ringDcs = [...new Set(ringFor(ctx, doc.filePath).ring?.nodes.map((n) => n.dc) ?? [])];
    const replication = replicationOf(ctx, at.table);
    const wanted = replication?.strategy === 'NetworkTopologyStrategy' ? Object.keys(replication.dcs) : [];
    lines.push(`no replicas: keyspace ${at.table.keyspace ?? '?'} replicates to ${wanted.join(', ') || 'no datacenter of the ring'}, the ring's datacenters are ${ringDcs.join(', ')}`);
  }
  if (preview.ring && !replicationKnown) {
    lines.push(`replication of ${at.table.keyspace ? `keyspace ${at.table.keyspace}` : 'the keyspace'} unknown (no CREATE KEYSPACE in the workspace): only the primary replica is shown`);
  }
  if (ringError) lines.push(`ring: ${ringError}`);
  return lines.filter(Boolean).join('\n\n');
}

/** Hover contribution: the key preview when the cursor is on a partition key (or shard source) value. */
export function keyHoverProvider(ctx: ServerContext, doc: EditorDocument, offset: number) {
  const at = keyAt(ctx, doc, offset, true);
  if (!at?.focus) return undefined;
  return { markdown: keyPreviewMarkdown(ctx, doc, at), start: at.focus.expression.range.start.offset, end: at.focus.expression.range.end.offset };
}

export const keyPreviewFeature: Feature = {
  name: 'keyPreview',
  register(ctx) {
    registerHoverProvider(keyHoverProvider);
    ctx.onShutdown(() => rings.clear());
  },
};
