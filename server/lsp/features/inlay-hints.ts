// textDocument/inlayHint: on statements using a table,
//  - the shard the table's `-- @shard` formula gives, next to the shard column's value, when the source
//    values are literals (`shard = ?` -> `shard 7`; a literal that disagrees -> `shard should be 7`);
//    setting cqlint.inlayHints.shards;
//  - the Murmur3 token at the end of a fully known partition key (after an INSERT's VALUES list, after
//    the last partition key restriction of a WHERE); setting cqlint.inlayHints.tokens.
// Advertised only to clients that support inlay hints; asks them to refresh (workspace/inlayHint/refresh)
// when the shape of the schema (keys, types, @shard annotations, keyspaces) or the settings change.
import {
  InlayHintKind,
  MarkupKind,
  type InlayHint,
  type InlayHintParams,
  type Position,
  type Range,
} from 'vscode-languageserver/node';
import {
  columnKeyType,
  computedShard,
  keyedStatements,
  statementColumnValues,
  statementKeyInput,
  statementTable,
  udtLookupFor,
  usableShardSpec,
} from '../../core/schema/key-values';
import type { SchemaModel } from '../../core/schema/model';
import { describeKeyPreview } from '../../core/token/preview';
import { formatShardFormula } from '../../core/token/shard';
import { parseKeyValue } from '../../core/token/values';
import type { WorkBudget } from '../../core/util/budget';
import type { Feature, ServerContext } from '../context';
import { requires } from '../readiness';
import { requestBudget, settleBudget } from '../budget';
import { editorDocument, type EditorDocument } from './symbols';
import { inlineCode } from '../../core/util/markdown';

function inlayHintsFor(
  ctx: ServerContext,
  doc: EditorDocument,
  start: number,
  end: number,
  budget?: WorkBudget,
): InlayHint[] {
  const { shards, tokens } = ctx.settingsOf(doc.filePath).inlayHints;
  if (!shards && !tokens) return [];
  const hints: InlayHint[] = [];
  const udts = udtLookupFor(ctx.project.schema());
  for (const stmt of keyedStatements(doc.parse)) {
    if (stmt.range.end < start || stmt.range.start > end) continue;
    // A huge range should not stall the server: the budget counts statements.
    if (budget && !budget.spend(1, stmt.range.start)) break;
    const table = ctx.project.tableFor(doc.filePath, statementTable(stmt), stmt.range.start);
    if (!table || !table.partitionKey.length) continue;
    const values = statementColumnValues(stmt);
    const spec = usableShardSpec(table);

    if (shards && spec && spec.method !== 'random') {
      const written = values.get(spec.shardColumn);
      const r = computedShard(table, spec, values, udts);
      if (written && !written.in && written.values.length === 1 && r?.ok) {
        const expr = written.values[0]!;
        const shardType = columnKeyType(table, spec.shardColumn, udts);
        let actual: number | undefined;
        if (shardType && (expr.kind === 'Literal' || expr.kind === 'UnaryExpression')) {
          try {
            const v = parseKeyValue(shardType, expr);
            if (typeof v === 'number' || typeof v === 'bigint') actual = Number(v);
          } catch {
            actual = undefined; // not a valid shard literal: the hint still says what it should be
          }
        }
        const formula = `${spec.shardColumn} = ${formatShardFormula(spec)}`;
        const label =
          actual === undefined
            ? `shard ${r.value}`
            : actual === r.value
              ? `shard ${r.value} ✓`
              : `shard should be ${r.value}`;
        hints.push({
          position: doc.lines.positionAt(expr.range.end),
          label,
          kind: InlayHintKind.Parameter,
          paddingLeft: true,
          tooltip: {
            kind: MarkupKind.Markdown,
            value: `${inlineCode(formula)} gives **${r.value}** for this row${actual !== undefined && actual !== r.value ? ` (written: ${actual})` : ''}`,
          },
        });
      }
    }

    if (tokens) {
      const key = statementKeyInput(table, values, udts);
      if (!key || key.absent.length || key.alternatives.length) continue;
      // Every partition key value must be given (or be the computed shard) and known.
      const preview = describeKeyPreview(key.input);
      if (!preview.ok || !preview.token) continue;
      let at: number;
      if (stmt.kind === 'Insert') {
        at = stmt.valuesRange?.end ?? Math.max(...stmt.values.map((v) => v.range.end));
      } else {
        at = Math.max(...table.partitionKey.map((c) => values.get(c.name)?.range.end ?? -1));
        if (at < 0) continue;
      }
      hints.push({
        position: doc.lines.positionAt(at),
        label: `token ${preview.token}`,
        kind: InlayHintKind.Type,
        paddingLeft: true,
        tooltip: {
          kind: MarkupKind.Markdown,
          value: `Murmur3 token of the partition key ${inlineCode(`(${table.partitionKey.map((c) => c.name).join(', ')})`)}; key bytes \`0x${preview.keyHex}\``,
        },
      });
    }
  }
  return hints;
}

/** What the hints depend on in the schema: keys and their types, @shard annotations, keyspaces' replication. */
function schemaSignature(model: SchemaModel): string {
  const parts: string[] = [];
  for (const t of model.allTables()) {
    parts.push(
      `${t.qualifiedName}(${t.partitionKey.map((c) => `${c.name}:${c.typeText}`).join(',')}|${t.columns.map((c) => `${c.name}:${c.typeText}`).join(',')})${t.shard ? `@${t.shard.text}` : ''}`,
    );
  }
  // A key's user types resolve from the file of its column (resolve.ts rule 3): every file's versions count.
  parts.push(`types ${model.typesSignature()}`);
  for (const [name, ks] of model.keyspaces) parts.push(`ks ${name}:${JSON.stringify(ks.replication)}`);
  return parts.sort().join('\n');
}

function within(position: Position, range: Range): boolean {
  const after =
    position.line > range.start.line ||
    (position.line === range.start.line && position.character >= range.start.character);
  const before =
    position.line < range.end.line || (position.line === range.end.line && position.character <= range.end.character);
  return after && before;
}

/** Delay after the last change before checking whether the hints need a refresh (changes come in bursts). */
export const REFRESH_DELAY_MS = 250;

export const inlayHintsFeature: Feature = {
  name: 'inlayHints',
  capabilities: (ctx) => (ctx.clientCapabilities.textDocument?.inlayHint ? { inlayHintProvider: true } : undefined),
  register(ctx) {
    if (!ctx.clientCapabilities.textDocument?.inlayHint) return;
    ctx.connection.languages.inlayHint.on(
      requires('file-and-ring', (params: InlayHintParams, token) => {
        const doc = editorDocument(ctx, params.textDocument.uri);
        if (!doc) return [];
        const budget = requestBudget('inlayHints', token);
        // Application code: its CQL is found anywhere in the file, so the hints of all of it, kept where the range shows.
        const hints = doc.host
          ? inlayHintsFor(ctx, doc, 0, doc.text.length, budget).filter((hint) => within(hint.position, params.range))
          : inlayHintsFor(
              ctx,
              doc,
              doc.lines.offsetAt(params.range.start) ?? 0,
              doc.lines.offsetAt(params.range.end) ?? doc.text.length,
              budget,
            );
        settleBudget(ctx, doc, 'inlayHints', budget, 'hints shown');
        return hints;
      }),
    );
    if (!ctx.clientCapabilities.workspace?.inlayHint?.refreshSupport) return;
    let signature: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    let forced = false;
    const check = (): void => {
      timer = undefined;
      const next = schemaSignature(ctx.project.schema());
      const changed = signature !== undefined && next !== signature;
      signature = next;
      if (changed || forced) {
        forced = false;
        ctx.connection.languages.inlayHint
          .refresh()
          .catch((error: unknown) => ctx.log.debug(`inlayHint/refresh failed: ${String(error)}`));
      }
    };
    ctx.onInitialized(() => {
      signature = schemaSignature(ctx.project.schema());
    });
    ctx.onDidChangeFiles((event) => {
      // Settings (hint toggles, ring), ring files and .cqlint.json changes always refresh; edits only when the schema's shape changed.
      if (event.reason === 'settings' || event.reason === 'config' || event.reason === 'ring') forced = true;
      if (timer) clearTimeout(timer);
      timer = setTimeout(check, REFRESH_DELAY_MS);
    });
    ctx.onShutdown(() => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    });
  },
};
