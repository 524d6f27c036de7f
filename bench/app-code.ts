// Application code beside the 2,000-file workspace (issue 34): the workspace bench's 2,000 .cql files
// (../shared/tools/make-workspace.py, built here at bench time, never committed) plus the embedded fixtures' schema,
// once as they are and once with 2,000 host files beside them (the embedded bench's mix of eight languages: services
// with statements on that schema, files whose strings only mention CQL words, plain code). Measures, against the
// BUILT bin/ (run `npm run build` first), runs interleaved so that a busy machine weighs on both alike:
//   - `cqlint lint --format json` on each: wall time, and the mixed workspace's time over the .cql-only one
//     (aim: at most 2x);
//   - the language server (push client) on each, one file opened right after `initialize`: time to that file's
//     first diagnostics (aim: at most 1 s) and to its full set, for the same .cql file in both, and for a
//     Python file with statements in the mixed one.
//
//   npm run bench -- app-code      (CQLINT_BENCH_RUNS=3 by default; not a name `-- embedded` or `-- workspace` selects)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HostLanguage } from '../server/core/embedded/types';
import { hostCorpus } from './embedded';
import { benchRuns, formatSpread, spread } from './stats';
import { buildWorkspace, cliRun, firstCqlFile, makeWorkspace, serverRun, type ServerMeasure } from './workspace';

const root = path.resolve(__dirname, '..');
const HOST_FILES = 2000;

const EXTENSION: Record<HostLanguage, string> = {
  java: 'java',
  kotlin: 'kt',
  python: 'py',
  go: 'go',
  javascript: 'js',
  typescript: 'ts',
  tsx: 'tsx',
  csharp: 'cs',
};

const LANGUAGE_ID: Record<HostLanguage, string> = {
  java: 'java',
  kotlin: 'kotlin',
  python: 'python',
  go: 'go',
  javascript: 'javascript',
  typescript: 'typescript',
  tsx: 'typescriptreact',
  csharp: 'csharp',
};

/**
 * Writes the fixtures' schema into `web/` (sorted after the workspace's svc00..svc19, so that both workspaces open
 * the same first file) and, with `hosts`, 2,000 host files under web/<language>/; the first Python file with
 * statements, to open.
 */
function addApplication(dir: string, hosts: boolean): string | undefined {
  mkdirSync(path.join(dir, 'web'), { recursive: true });
  writeFileSync(
    path.join(dir, 'web', 'schema.cql'),
    readFileSync(path.join(root, 'test', 'fixtures', 'embedded', 'schema.cql')),
  );
  if (!hosts) return undefined;
  // The embedded bench's mix by bytes (30% services with statements, 10% silent, 60% plain), 2,000 files of it.
  const files = hostCorpus((HOST_FILES * 3) / 1024).slice(0, HOST_FILES);
  if (files.length < HOST_FILES) throw new Error(`only ${files.length} host files generated`);
  let python: string | undefined;
  files.forEach((file, i) => {
    const folder = path.join(dir, 'web', file.language);
    mkdirSync(folder, { recursive: true });
    const name = path.join(folder, `f${String(i).padStart(4, '0')}.${EXTENSION[file.language]}`);
    writeFileSync(name, file.text);
    if (!python && file.language === 'python' && file.kind === 'statements') python = name;
  });
  return python;
}

function serverLine(what: string, measures: ServerMeasure[]): string {
  const of = (f: (m: ServerMeasure) => number) => spread(measures.map(f));
  const counts = (f: (m: ServerMeasure) => number) => [...new Set(measures.map(f))].join(' / ');
  const withdrawn = measures.reduce((n, m) => n + m.withdrawn, 0);
  return (
    `  server, ${what}: first diagnostics ${formatSpread(
      of((m) => m.firstDiagnosticsSeconds),
      's',
      2,
    )} after didOpen (${counts((m) => m.firstCount)} diagnostics; aim ≤ 1 s), ` +
    `full set ${formatSpread(
      of((m) => m.fullDiagnosticsSeconds),
      's',
    )} (${counts((m) => m.fullCount)}), initialize ${formatSpread(
      of((m) => m.initializeSeconds),
      's',
      2,
    )}` +
    (withdrawn ? `; ${withdrawn} DIAGNOSTICS SHOWN, THEN WITHDRAWN OR CHANGED` : '')
  );
}

export async function runAppCodeBench(): Promise<void> {
  if (!existsSync(makeWorkspace)) {
    console.log(`app-code: ${makeWorkspace} is not here (../shared is optional); nothing measured`);
    return;
  }
  if (!existsSync(path.join(root, 'dist', 'cli.js')))
    throw new Error('run `npm run build` first: this bench runs the built bin/');
  const runs = benchRuns(3);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cqlint-app-code-bench-'));
  try {
    const cqlOnly = path.join(tmp, 'cql-only');
    const mixed = path.join(tmp, 'mixed');
    buildWorkspace(cqlOnly, 2000);
    buildWorkspace(mixed, 2000);
    addApplication(cqlOnly, false);
    const python = addApplication(mixed, true)!;
    console.log(
      `2,000 .cql files + the fixtures' schema; mixed: + ${HOST_FILES} host files (${runs} runs each, interleaved)`,
    );

    const seconds = { cqlOnly: [] as number[], mixed: [] as number[] };
    const exits = new Set<string>();
    for (let i = 0; i < runs; i++) {
      const a = cliRun(cqlOnly, tmp);
      const b = cliRun(mixed, tmp);
      seconds.cqlOnly.push(a.seconds);
      seconds.mixed.push(b.seconds);
      exits.add(`${a.exit}/${b.exit}`);
    }
    const ratios = seconds.mixed.map((s, i) => s / seconds.cqlOnly[i]!);
    console.log(
      `  cli lint --format json: .cql only ${formatSpread(spread(seconds.cqlOnly), 's')}, with the code ${formatSpread(spread(seconds.mixed), 's')}; ` +
        `run by run ${formatSpread(spread(ratios), 'x', 2)} (aim ≤ 2x); exit ${[...exits].join(', ')}`,
    );

    const open = firstCqlFile(cqlOnly);
    const sameInMixed = path.join(mixed, path.relative(cqlOnly, open));
    const measures = {
      cqlOnly: [] as ServerMeasure[],
      mixedCql: [] as ServerMeasure[],
      mixedPython: [] as ServerMeasure[],
    };
    for (let i = 0; i < runs; i++) {
      measures.cqlOnly.push(await serverRun(cqlOnly, open, 'push'));
      measures.mixedCql.push(await serverRun(mixed, sameInMixed, 'push'));
      measures.mixedPython.push(await serverRun(mixed, python, 'push', LANGUAGE_ID.python));
    }
    console.log(serverLine(`.cql only, ${path.relative(cqlOnly, open)} opened`, measures.cqlOnly));
    console.log(serverLine(`with the code, ${path.relative(mixed, sameInMixed)} opened`, measures.mixedCql));
    console.log(serverLine(`with the code, ${path.relative(mixed, python)} opened`, measures.mixedPython));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
