// Hover contribution for names: tables and views (the schema's describeTable: key, columns,
// estimated row size, the sample's measured partitions, the evidence's figures), columns (type and key role), keyspaces, types, functions and keywords.
import { nameHover } from '../../core/editor/hover';
import { describeTable } from '../../core/editor/table-hover';
import { udtLookupFrom } from '../../core/partition/sizing';
import { evidenceMarkdown } from '../../core/partition/measured';
import { targetInfo } from '../../core/partition/targets';
import { tableGuardrailsMarkdown } from '../../core/cluster';
import type { ServerContext } from '../context';
import { tableCures } from '../../core/report/table-findings';
import { editorIndex, type EditorDocument } from './symbols';

export function nameHoverProvider(
  ctx: ServerContext,
  doc: EditorDocument,
  offset: number,
): { markdown: string; start: number; end: number } | undefined {
  const index = editorIndex(ctx);
  return nameHover(index, doc.filePath, doc.text, doc.parse, offset, {
    describeTable: (table) => {
      const info = index.tableInfo(table);
      if (!info) return undefined;
      // The hints and workspace statements the partition rules use, so the hover shows their figures.
      const file = table.occurrence.filePath;
      const hints = ctx.project.tableHints(file, info);
      const target = ctx.settings.target ?? ctx.project.targetFor(file);
      const evidence = ctx.project.evidence(info, file);
      const measured = evidenceMarkdown(info, targetInfo(target), hints, udtLookupFrom(ctx.project.schema()), evidence);
      const described = describeTable(info, target, {
        ...hints,
        schema: ctx.project.schema(),
        references: ctx.project.referencesTo(info),
        sample: ctx.project.sampleSummary(info, file),
        measured,
        evidence,
        cures: tableCures(ctx.project, info),
      });
      // The cluster's guardrails that apply to the table, with their values and sources.
      const cluster = ctx.project.clusterSettings(file);
      const guardrails = cluster && tableGuardrailsMarkdown(cluster, info);
      return guardrails ? `${described}\n\n${guardrails}` : described;
    },
  });
}
