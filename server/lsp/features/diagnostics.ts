// Findings as LSP diagnostics. Clients with pull support (textDocument.diagnostic) ask for them
// (textDocument/diagnostic for open documents, workspace/diagnostic for the rest) and are told to ask
// again (workspace/diagnostic/refresh) when an edit elsewhere changes them; other clients get
// textDocument/publishDiagnostics for every project file, debounced per file.
// The feature (this file) picks push or pull; diagnostics-reports.ts makes a file's report, which both share.
import type { ClientCapabilities } from 'vscode-languageserver/node';
import { docsUrl } from '../../core/findings/findings';
import type { Feature, ServerContext } from '../context';
import { markdownText } from '../../core/util/markdown';
import { registerHoverProvider } from './hover';
import type { EditorDocument } from './symbols';
import { createReports, createStages } from './diagnostics-reports';
import { registerPush } from './diagnostics-push';
import { registerPull } from './diagnostics-pull';

// What the tests and the benchmark reach through this feature's module.
export { createStages, findingToDiagnostic } from './diagnostics-reports';
export { PUSH_DEBOUNCE_MS } from './diagnostics-push';
export { REFRESH_DEBOUNCE_MS } from './diagnostics-pull';

function usesPullDiagnostics(capabilities: ClientCapabilities): boolean {
  return capabilities.textDocument?.diagnostic !== undefined;
}

export const diagnosticsFeature: Feature = {
  name: 'diagnostics',
  capabilities: (ctx) =>
    usesPullDiagnostics(ctx.clientCapabilities)
      ? { diagnosticProvider: { identifier: 'cqlint', interFileDependencies: true, workspaceDiagnostics: true } }
      : undefined,
  register(ctx) {
    registerHoverProvider(findingDetailsHover);
    const caps = ctx.clientCapabilities;
    const pull = usesPullDiagnostics(caps);
    const relatedInformation = pull
      ? (caps.textDocument?.diagnostic?.relatedInformation ??
          caps.textDocument?.publishDiagnostics?.relatedInformation) === true
      : caps.textDocument?.publishDiagnostics?.relatedInformation === true;
    const reports = createReports(ctx, relatedInformation);
    const stages = createStages(ctx);
    if (pull) registerPull(ctx, reports.reportUnlessHeld, reports.localReportFor, stages, reports.invalidate);
    else registerPush(ctx, reports.reportFor, reports.localReportFor, stages, reports.invalidate);
  },
};

/**
 * The hover over a finding that has details: the diagnostic (and the Problems panel) shows the headline;
 * the hover adds the figures, the cure and the sources, and the rule's page.
 */
export function findingDetailsHover(ctx: ServerContext, doc: EditorDocument, offset: number): string | undefined {
  if (!ctx.project.hasFile(doc.filePath) || ctx.ignoredBy(doc.filePath) !== undefined) return undefined;
  const here = ctx.project
    .lint(doc.filePath)
    .filter((f) => f.details && f.range.start.offset <= offset && offset <= f.range.end.offset);
  if (!here.length) return undefined;
  return here
    .map((f) => `**${markdownText(f.message)}** · [${f.ruleId}](${docsUrl(f.ruleId)})\n\n${f.details}`)
    .join('\n\n---\n\n');
}
