// The partition report in the editor: a "Partition report" CodeLens above every CREATE TABLE and CREATE
// MATERIALIZED VIEW (running the client command cqlint.showPartitionReport), and the custom requests the
// client's webview uses, `cqlint/partitionReport` and `cqlint/sampleConfigEdit` (lsp-extensions.ts). Reading a
// sample reports work-done progress on the request's token (or a server-created one); summaries come from
// the server's cache (sample-summaries.ts). The page is the same HTML as `cqlint report` writes, with the
// same numbers as hovers and diagnostics.
import { offsetsToRange } from '../conversions';
import * as path from 'node:path';
import type { CodeLens, CodeLensParams, TextEdit, WorkspaceEdit } from 'vscode-languageserver/node';
import type { CancellationToken } from 'vscode-languageserver/node';
import {
  configuredSample,
  keyspaceViews,
  renderReportHtml,
  tableReport,
  tablesDefinedIn,
  type SourcePlace,
} from '../../core/report';
import { lintMemo } from '../../core/report/table-findings';
import { findConfigFor } from '../../core/config';
import { sampleSettingEdit } from '../../core/config/json-edit';
import { isInside, readTextFile } from '../../core/io/files';
import { LineIndex } from '../../../grammar/line-index';
import { markdownText } from '../../core/util/markdown';
import type { TableInfo } from '../../core/schema/model';
import type { Feature, ServerContext } from '../context';
import { requires } from '../readiness';
import {
  SHOW_PARTITION_REPORT_COMMAND,
  partitionReportRequest,
  sampleConfigEditRequest,
  type PartitionReportParams,
  type PartitionReportResult,
  type SampleConfigEditParams,
  type SampleConfigEditResult,
} from '../lsp-extensions';
import { editorDocument, type EditorDocument } from './symbols';
import { registerHoverProvider } from './hover';

/** The rules whose findings the report explains: their hover links to it. */
const PARTITION_RULES = new Set(['hot-partition', 'unbounded-partition', 'large-partition', 'partition-throughput']);

/** Tables and views defined in a file, in source order. */
function tablesIn(ctx: ServerContext, filePath: string): TableInfo[] {
  return ctx.project
    .schema()
    .allTables()
    .filter((t) => t.filePath === filePath)
    .sort((a, b) => a.range.start - b.range.start);
}

function partitionReportLenses(ctx: ServerContext, params: CodeLensParams): CodeLens[] {
  const doc = editorDocument(ctx, params.textDocument.uri);
  if (!doc) return [];
  return tablesIn(ctx, doc.filePath).map((t) => ({
    range: offsetsToRange(doc.lines, t.nameRange),
    command: {
      title: 'Partition report',
      command: SHOW_PARTITION_REPORT_COMMAND,
      arguments: [params.textDocument.uri, t.qualifiedName],
    },
  }));
}

/**
 * On a partition rule's finding: a link that opens the report of its table (a command link; VS Code's
 * client trusts this one command in hovers).
 */
function partitionReportHover(ctx: ServerContext, doc: EditorDocument, offset: number): string | undefined {
  const findings = ctx.project
    .lint(doc.filePath)
    .filter((f) => PARTITION_RULES.has(f.ruleId) && f.range.start.offset <= offset && offset <= f.range.end.offset);
  if (!findings.length) return undefined;
  const table = tablesIn(ctx, doc.filePath).find((t) => t.range.start <= offset && offset <= t.range.end);
  if (!table) return undefined;
  // The table's name is the user's text: escaped in the link text, and its parentheses encoded in the
  // target (encodeURIComponent keeps them), so that a name can neither end the link nor change where it goes.
  const args = encodeURIComponent(JSON.stringify([ctx.pathToUri(doc.filePath), table.qualifiedName])).replace(
    /[()]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `[Partition report of ${markdownText(table.qualifiedName)}](command:${SHOW_PARTITION_REPORT_COMMAND}?${args}): growth against the limits, shard spread, throughput.`;
}

export async function partitionReport(
  ctx: ServerContext,
  params: PartitionReportParams,
  token?: CancellationToken,
): Promise<PartitionReportResult | null> {
  const uri = params?.textDocument?.uri;
  if (typeof uri !== 'string') return null;
  const doc = editorDocument(ctx, uri);
  if (!doc) return null;
  const tables = tablesIn(ctx, doc.filePath);
  let table: TableInfo | undefined;
  if (typeof params.table === 'string') table = tables.find((t) => t.qualifiedName === params.table);
  else if (params.position && typeof params.position.line === 'number') {
    const offset = doc.lines.offsetAt(params.position) ?? 0;
    table = tables.filter((t) => t.range.start <= offset).pop() ?? tables[0];
  } else table = tables[0];
  if (!table) return null;
  const chosenFile =
    typeof params.sample?.file === 'string' && params.sample.file.trim() !== '' ? params.sample.file : undefined;
  const chosen = chosenFile ? { file: chosenFile, name: displayName(ctx, chosenFile) } : undefined;
  const setting = chosen ?? configuredSample(ctx.project, table);
  const options = { shardCount: ctx.settings.shardCount, ring: ctx.ringFor(doc.filePath).ring };
  let data = tableReport(ctx.project, table, options);
  if (setting) {
    const progress = ctx.samples.requestProgress(setting, params.workDoneToken);
    const read = await ctx.samples.read(table, chosen, progress, token);
    if (read) {
      // After the reading: a new configured summary has refreshed the findings the page lists.
      const shownChosen = chosen !== undefined && chosen.file !== configuredSample(ctx.project, table)?.file;
      data = tableReport(ctx.project, table, { ...options, sample: read.summary, sampleChosen: shownChosen });
    }
  }
  const command = (name: unknown): string | undefined =>
    typeof name === 'string' && /^[\w.-]+$/.test(name) ? name : undefined;
  const chooseSampleCommand = command(params.chooseSampleCommand);
  const openSource = command(params.openSourceCommand);
  const sourceHref = openSource
    ? (place: SourcePlace): string =>
        `command:${openSource}?${encodeURIComponent(JSON.stringify([ctx.pathToUri(place.file), place.line, place.character]))}`
    : undefined;
  // The keyspace the table is in, with the workspace's queries on its tables.
  // Each file the keyspace's statements are in is linted once for the view (after the sample's reading).
  const keyspaces = keyspaceViews(ctx.project, tablesDefinedIn(ctx.project), {
    only: table,
    displayPath: (file) => displayName(ctx, file),
    lint: lintMemo(ctx.project),
  });
  const html = renderReportHtml([data], {
    chooseSampleCommand,
    keyspaces,
    sourceHref,
    displayPath: (file) => displayName(ctx, file),
  });
  return { table: table.qualifiedName, html, ...(data.sampleChosen && chosen ? { chosenSample: chosen.file } : {}) };
}

/** A chosen file as messages name it: relative to its workspace folder, else its path. */
function displayName(ctx: ServerContext, file: string): string {
  const folder = ctx.workspaceFolders.find((f) => isInside(f, file));
  return folder ? path.relative(folder, file).split(path.sep).join('/') : file;
}

/**
 * The WorkspaceEdit that names `file` as the sample of `table` in the .cqlint.json that applies to the
 * document (a new one in its workspace folder when there is none). Only the `samples` key changes. The
 * file must be inside the workspace: .cqlint.json samples outside it are not read.
 */
export async function sampleConfigEdit(
  ctx: ServerContext,
  params: SampleConfigEditParams,
): Promise<SampleConfigEditResult | null> {
  if (
    typeof params?.textDocument?.uri !== 'string' ||
    typeof params.table !== 'string' ||
    typeof params.file !== 'string'
  )
    return null;
  const filePath = ctx.uriToPath(params.textDocument.uri);
  const folder = ctx.workspaceFolders.filter((f) => isInside(f, filePath)).sort((a, b) => b.length - a.length)[0];
  if (!folder || !isInside(folder, params.file)) {
    return {
      error: `${path.basename(params.file)} is outside the workspace folder: .cqlint.json can only name samples inside it`,
    };
  }
  const configPath = findConfigFor(filePath, ctx.workspaceFolders) ?? path.join(folder, '.cqlint.json');
  const uri = ctx.pathToUri(configPath);
  const open = ctx.documents.get(uri);
  let text: string | undefined = open?.getText();
  let exists = open !== undefined;
  if (text === undefined) {
    const read = await readTextFile(configPath, { kind: 'config', roots: ctx.workspaceFolders });
    if (read.ok) {
      text = read.text;
      exists = true;
    } else if (read.reason !== 'io' || !/no such file/.test(read.message)) {
      return { error: `cannot read ${path.basename(configPath)}: ${read.message}` };
    }
  }
  const relative = path.relative(path.dirname(configPath), params.file).split(path.sep).join('/');
  let change;
  try {
    change = sampleSettingEdit(text, params.table, relative);
  } catch (error) {
    // What is wrong with the file, in words: never a stack trace.
    return {
      error: `cannot edit ${path.basename(configPath)}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const lines = new LineIndex(text ?? '');
  const edit: TextEdit = { range: offsetsToRange(lines, change), newText: change.newText };
  const workspaceEdit: WorkspaceEdit = exists
    ? { changes: { [uri]: [edit] } }
    : {
        documentChanges: [
          { kind: 'create', uri, options: { ignoreIfExists: true } },
          { textDocument: { uri, version: null }, edits: [edit] },
        ],
      };
  return { edit: workspaceEdit, config: uri };
}

export const partitionReportFeature: Feature = {
  name: 'partitionReport',
  capabilities: { codeLensProvider: { resolveProvider: false } },
  register(ctx) {
    registerHoverProvider(partitionReportHover);
    ctx.connection.onCodeLens(requires('file', (params) => partitionReportLenses(ctx, params)));
    ctx.connection.onRequest(
      partitionReportRequest.method,
      requires('file', (params: PartitionReportParams, token: CancellationToken) =>
        partitionReport(ctx, params, token),
      ),
    );
    ctx.connection.onRequest(
      sampleConfigEditRequest.method,
      requires('file', (params: SampleConfigEditParams) => sampleConfigEdit(ctx, params)),
    );
  },
};
