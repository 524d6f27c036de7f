// The partition report in the editor: a "Partition report" CodeLens above every CREATE TABLE and CREATE
// MATERIALIZED VIEW (running the client command cqlint.showPartitionReport), and the custom request the
// client's webview asks for the page with:
//   `cqlint/partitionReport`: params `{ textDocument: { uri }, table?: string, position?: Position }`
//   -> `{ table, html } | null` (the table named, else the one defined at or before the position).
// The page is the same HTML as `cqlint report` writes, with the same numbers as hovers and diagnostics.
import type { CodeLens, CodeLensParams, Position } from 'vscode-languageserver/node';
import type { CancellationToken } from 'vscode-languageserver/node';
import { renderReportHtml, tableReportWithSample } from '../../core/report';
import type { TableInfo } from '../../core/schema/model';
import type { Feature, ServerContext } from '../context';
import { editorDocument, type EditorDocument } from './symbols';
import { registerHoverProvider } from './hover';

/** The rules whose findings the report explains: their hover links to it. */
const PARTITION_RULES = new Set(['hot-partition', 'unbounded-partition', 'large-partition', 'partition-throughput']);

export const PARTITION_REPORT_REQUEST = 'cqlint/partitionReport';
export const SHOW_PARTITION_REPORT_COMMAND = 'cqlint.showPartitionReport';

interface PartitionReportParams {
  textDocument: { uri: string };
  /** Qualified name as the CodeLens passes it (`ks.table`, or `table` without a keyspace). */
  table?: string;
  position?: Position;
}

interface PartitionReportResult {
  table: string;
  html: string;
}

/** Tables and views defined in a file, in source order. */
function tablesIn(ctx: ServerContext, filePath: string): TableInfo[] {
  return ctx.project.schema().allTables()
    .filter((t) => t.filePath === filePath)
    .sort((a, b) => a.range.start.offset - b.range.start.offset);
}

function partitionReportLenses(ctx: ServerContext, params: CodeLensParams): CodeLens[] {
  const doc = editorDocument(ctx, params.textDocument.uri);
  if (!doc) return [];
  return tablesIn(ctx, doc.filePath).map((t) => ({
    range: ctx.toRange(t.nameRange),
    command: { title: 'Partition report', command: SHOW_PARTITION_REPORT_COMMAND, arguments: [params.textDocument.uri, t.qualifiedName] },
  }));
}

/**
 * On a partition rule's finding: a link that opens the report of its table (a command link; VS Code's
 * client trusts this one command in hovers).
 */
function partitionReportHover(ctx: ServerContext, doc: EditorDocument, offset: number): string | undefined {
  const findings = ctx.project.lint(doc.filePath)
    .filter((f) => PARTITION_RULES.has(f.ruleId) && f.range.start.offset <= offset && offset <= f.range.end.offset);
  if (!findings.length) return undefined;
  const table = tablesIn(ctx, doc.filePath).find((t) => t.range.start.offset <= offset && offset <= t.range.end.offset);
  if (!table) return undefined;
  const args = encodeURIComponent(JSON.stringify([ctx.pathToUri(doc.filePath), table.qualifiedName]));
  return `[Partition report of ${table.qualifiedName}](command:${SHOW_PARTITION_REPORT_COMMAND}?${args}): growth against the limits, shard spread, throughput.`;
}

export async function partitionReport(ctx: ServerContext, params: PartitionReportParams, token?: CancellationToken): Promise<PartitionReportResult | null> {
  const uri = params?.textDocument?.uri;
  if (typeof uri !== 'string') return null;
  const doc = editorDocument(ctx, uri);
  if (!doc) return null;
  const tables = tablesIn(ctx, doc.filePath);
  let table: TableInfo | undefined;
  if (typeof params.table === 'string') table = tables.find((t) => t.qualifiedName === params.table);
  else if (params.position && typeof params.position.line === 'number') {
    const offset = doc.lines.offsetAt(params.position);
    table = tables.filter((t) => t.range.start.offset <= offset).pop() ?? tables[0];
  } else table = tables[0];
  if (!table) return null;
  const data = await tableReportWithSample(ctx.project, table, {
    shardCount: ctx.settings.shardCount,
    isCancelled: () => token?.isCancellationRequested === true,
    onProblem: (message) => ctx.log.warn(`cqlint: partition report: ${message}`),
  });
  return { table: table.qualifiedName, html: renderReportHtml([data]) };
}

export const partitionReportFeature: Feature = {
  name: 'partitionReport',
  capabilities: { codeLensProvider: { resolveProvider: false } },
  register(ctx) {
    registerHoverProvider(partitionReportHover);
    ctx.connection.onCodeLens((params) => partitionReportLenses(ctx, params));
    ctx.connection.onRequest(PARTITION_REPORT_REQUEST, (params: PartitionReportParams, token: CancellationToken) => partitionReport(ctx, params, token));
  },
};
