// Code action latency through the language server on the editor bench's 10,000-line workspace, with a hot
// table whose partition fixes rewrite 300 statements in 3 other files: the light bulb on its key (every
// partition fix's title; the edits wait for codeAction/resolve, as VS Code asks), resolving the preferred
// fix's edit, and the light bulb on an unknown column (a one-statement fix), p50/p95.
//
//   npm run bench -- code-actions
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { startServerCommand, tempWorkspace, capabilities, projectRoot } from '../scripts/lsp-client';
import { generateWorkspace } from './editor';

const SAMPLES = 40;

const HOT_SCHEMA = [
  'CREATE TABLE sales.orders_by_day (',
  '  order_day date,',
  '  order_id uuid,',
  '  customer text,',
  '  total decimal,',
  '  PRIMARY KEY (order_day, order_id)',
  ');',
  '',
].join('\n');

/** 100 statements on the hot table: writes with literals and markers, point reads, reads of a whole day. */
function hotQueries(file: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 25; i++) {
    const day = `2026-${String((i % 12) + 1).padStart(2, '0')}-${String(((file * 7 + i) % 28) + 1).padStart(2, '0')}`;
    lines.push(
      `INSERT INTO sales.orders_by_day (order_day, order_id, customer, total) VALUES ('${day}', 5b6962dd-3f90-4c93-8f61-${String(file * 100 + i).padStart(12, '0')}, 'c${i}', ${i}.50);`,
    );
    lines.push('INSERT INTO sales.orders_by_day (order_day, order_id, customer, total) VALUES (?, ?, ?, ?);');
    lines.push('SELECT total FROM sales.orders_by_day WHERE order_day = ? AND order_id = ?;');
    lines.push(`SELECT order_id, total FROM sales.orders_by_day WHERE order_day = '${day}';`);
  }
  return `${lines.join('\n')}\n`;
}

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return `n=${sorted.length}  p50 ${at(50).toFixed(1).padStart(7)} ms  p95 ${at(95).toFixed(1).padStart(7)} ms  max ${sorted[sorted.length - 1]!.toFixed(1).padStart(7)} ms`;
}

export async function runCodeActionsBench(): Promise<void> {
  const generated = generateWorkspace();
  const files: Record<string, string> = { ...generated.files, 'schema/orders.cql': HOT_SCHEMA };
  for (let f = 0; f < 3; f++) files[`queries/orders_${f}.cql`] = hotQueries(f);
  const ws = tempWorkspace(files);
  const client = startServerCommand(
    process.execPath,
    ['--import', 'tsx', path.join('test', 'editor', 'lsp-server.ts'), '--stdio'],
    { cwd: projectRoot },
  );
  try {
    // As VS Code asks: code action literals, and the edit resolved for the action the user picks.
    await client.initialize(
      {
        ...capabilities.pull,
        textDocument: {
          ...capabilities.pull.textDocument,
          codeAction: {
            dataSupport: true,
            isPreferredSupport: true,
            resolveSupport: { properties: ['edit'] },
            codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source'] } },
          },
        },
      },
      { workspaceFolders: [ws.dir] },
    );
    const lines = Object.values(files).reduce((n, text) => n + text.split('\n').length, 0);
    const uri = ws.uri('schema/orders.cql');
    const typo = `${HOT_SCHEMA}SELECT totl FROM sales.orders_by_day WHERE order_day = ? AND order_id = ?;\n`;
    await client.open(uri, typo);
    const diagnostics = async (): Promise<Diagnostic[]> =>
      ((await client.request('textDocument/diagnostic', { textDocument: { uri } })) as { items: Diagnostic[] }).items;
    // The index must hold the other files' statements before the light bulb is asked.
    let found: Diagnostic[] = [];
    const deadline = Date.now() + 120_000;
    for (;;) {
      found = await diagnostics();
      const hot = found.find((d) => d.code === 'hot-partition');
      const actions = hot
        ? ((await client.request('textDocument/codeAction', {
            textDocument: { uri },
            range: hot.range,
            context: { diagnostics: [hot] },
          })) as CodeAction[])
        : [];
      const full = await Promise.all(
        actions.map(async (a) => (a.edit ? a : ((await client.request('codeAction/resolve', a)) as CodeAction))),
      );
      // Ready once a fix edits the query files too (their statements are in the index).
      if (full.some((a) => Object.keys(a.edit?.changes ?? {}).length + (a.edit?.documentChanges?.length ?? 0) >= 4))
        break;
      if (Date.now() > deadline)
        throw new Error(
          `the hot table's fixes never reached the query files: ${actions.map((a) => a.title).join(' | ')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    console.log(
      `code-actions bench: ${Object.keys(files).length} files, ${lines} lines; 300 statements on the hot table in 3 files`,
    );
    for (const code of ['hot-partition', 'unknown-column']) {
      const diagnostic = found.find((d) => d.code === code);
      if (!diagnostic) throw new Error(`no ${code} diagnostic`);
      const request = () =>
        client.request('textDocument/codeAction', {
          textDocument: { uri },
          range: diagnostic.range,
          context: { diagnostics: [diagnostic] },
        }) as Promise<CodeAction[]>;
      const first = await request();
      for (let i = 0; i < 5; i++) await request();
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const start = performance.now();
        await request();
        samples.push(performance.now() - start);
      }
      console.log(`codeAction on ${code.padEnd(15)} ${String(first.length).padStart(2)} actions  ${stats(samples)}`);
      const lazy = first.find((a) => a.isPreferred && !a.edit);
      if (!lazy) continue;
      // The action the user picks: its edit, a refactoring of 300 statements in 4 files.
      const resolves: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const start = performance.now();
        await client.request('codeAction/resolve', lazy);
        resolves.push(performance.now() - start);
      }
      console.log(`codeAction/resolve, preferred fix  ${stats(resolves)}`);
    }
  } finally {
    await client.shutdown().catch(() => undefined);
    ws.cleanup();
  }
}

if (require.main === module) {
  runCodeActionsBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
