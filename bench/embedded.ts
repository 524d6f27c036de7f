// Reading CQL out of application code: about 10 MB of host code across the eight host languages, read by
// readEmbedded (prefilter, tree-sitter parse, finding the statements, the map) and the CQL text parsed by parseCql,
// as the language server and the CLI would. The code is generated here from the embedded fixtures (services with
// statements, files whose strings only mention CQL words) and from plain code with no CQL at all, which most files
// of a real project are and which must cost only the prefilter. Not a test: times depend on the machine.
//
//   npm run bench -- embedded
//   CQLINT_EMBEDDED_MB=50 npm run bench -- embedded      (another size)
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseCql } from '../grammar';
import { hostLanguageOf, loadHostLanguages, readEmbedded } from '../server/core/embedded';
import type { HostLanguage } from '../server/core/embedded/types';

const FIXTURES = path.resolve(__dirname, '..', 'test', 'fixtures', 'embedded');

interface HostFile {
  language: HostLanguage;
  text: string;
  kind: 'statements' | 'silent' | 'plain';
}

/** Plain code of a language with strings but no CQL: what most files of an application are. */
function plainFile(language: HostLanguage, n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 120; i++) {
    const message = `"item ${i} of batch ${n} is ready"`;
    switch (language) {
      case 'python':
        lines.push(
          `def handler_${n}_${i}(request, items):`,
          `    total = sum(x.price for x in items if x.id > ${i})`,
          `    log.info(${message}, total)`,
          '    return {"total": total, "count": len(items)}',
          '',
        );
        break;
      case 'go':
        lines.push(
          `func handler${n}x${i}(items []Item) int {`,
          '\ttotal := 0',
          `\tfor _, x := range items { if x.ID > ${i} { total += x.Price } }`,
          `\tlog.Printf(${message})`,
          '\treturn total',
          '}',
          '',
        );
        break;
      default:
        lines.push(
          `  public int handler${n}x${i}(java.util.List<Item> items) {`,
          '    int total = 0;',
          `    for (Item x : items) { if (x.id > ${i}) { total += x.price; } }`,
          `    log.info(${message});`,
          '    return total;',
          '  }',
          '',
        );
    }
  }
  return lines.join('\n');
}

/** About `megabytes` of host files: 30% services with statements, 10% silent files, the rest plain code. */
export function hostCorpus(megabytes: number): HostFile[] {
  const withStatements: HostFile[] = [];
  const silent: HostFile[] = [];
  for (const folder of readdirSync(FIXTURES).sort()) {
    const dir = path.join(FIXTURES, folder);
    if (folder.includes('.')) continue;
    for (const name of readdirSync(dir).sort()) {
      const language = hostLanguageOf(name);
      if (!language) continue;
      const text = readFileSync(path.join(dir, name), 'utf8');
      (/Audit|Messages|messages|Notices|notices|audit|Reports|reports|export_rows/.test(name)
        ? silent
        : withStatements
      ).push({ language, text, kind: 'statements' });
    }
  }
  for (const f of silent) f.kind = 'silent';
  const languages: HostLanguage[] = ['java', 'kotlin', 'python', 'go', 'javascript', 'typescript', 'tsx', 'csharp'];
  const out: HostFile[] = [];
  const budget = megabytes * 1024 * 1024;
  // By bytes: each file goes to the kind furthest behind its share (30% statements, 10% silent, 60% plain).
  const share = { statements: 0.3, silent: 0.1, plain: 0.6 };
  const bytes = { statements: 0, silent: 0, plain: 0 };
  let size = 0;
  for (let i = 0; size < budget; i++) {
    const kind = (Object.keys(share) as HostFile['kind'][]).sort(
      (a, b) => bytes[a] / share[a] - bytes[b] / share[b],
    )[0]!;
    const language = languages[i % languages.length]!;
    const entry =
      kind === 'statements'
        ? withStatements[i % withStatements.length]!
        : kind === 'silent'
          ? silent[i % silent.length]!
          : { language, text: plainFile(language, i), kind };
    out.push(entry);
    bytes[kind] += entry.text.length;
    size += entry.text.length;
  }
  return out;
}

export interface EmbeddedFigures {
  files: number;
  megabytes: number;
  statements: number;
  readMs: number;
  parseMs: number;
  /** The process's CPU time over the whole pass (reading and parsing): steadier than wall time on a loaded machine. */
  cpuMs: number;
  byKind: Record<HostFile['kind'], { megabytes: number; ms: number; cpuMs: number }>;
}

/** This process's CPU time so far, in ms. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Reads the corpus once (grammars loaded before the clock starts). */
export async function benchEmbedded(megabytes = 10): Promise<EmbeddedFigures> {
  const corpus = hostCorpus(megabytes);
  await loadHostLanguages();
  // One warm-up pass over a slice, so that the figures are not the JIT's first steps.
  for (const file of corpus.slice(0, 50)) readEmbedded(file.language, file.text);
  const byKind: EmbeddedFigures['byKind'] = {
    statements: { megabytes: 0, ms: 0, cpuMs: 0 },
    silent: { megabytes: 0, ms: 0, cpuMs: 0 },
    plain: { megabytes: 0, ms: 0, cpuMs: 0 },
  };
  let statements = 0;
  let readMs = 0;
  let parseMs = 0;
  const cpuStarted = cpuNow();
  for (const file of corpus) {
    const cpu = cpuNow();
    const started = performance.now();
    const doc = readEmbedded(file.language, file.text);
    const read = performance.now();
    if (doc.cqlText) parseCql(doc.cqlText);
    const parsed = performance.now();
    readMs += read - started;
    parseMs += parsed - read;
    statements += doc.statements.length;
    byKind[file.kind].megabytes += file.text.length / 1048576;
    byKind[file.kind].ms += parsed - started;
    byKind[file.kind].cpuMs += cpuNow() - cpu;
  }
  const cpuMs = cpuNow() - cpuStarted;
  const total = corpus.reduce((n, f) => n + f.text.length, 0) / 1048576;
  return { files: corpus.length, megabytes: total, statements, readMs, parseMs, cpuMs, byKind };
}

export async function runEmbeddedBench(): Promise<void> {
  const megabytes = Number(process.env.CQLINT_EMBEDDED_MB ?? 10);
  const f = await benchEmbedded(megabytes);
  const rate = (mb: number, ms: number): string => `${(mb / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(`embedded: ${f.files} host files, ${f.megabytes.toFixed(1)} MB, ${f.statements} statements`);
  console.log(
    `  read (prefilter + tree-sitter + find + map): ${(f.readMs / 1000).toFixed(2)} s; CQL parse: ${(f.parseMs / 1000).toFixed(2)} s; all: ${rate(f.megabytes, f.readMs + f.parseMs)} wall, ${rate(f.megabytes, f.cpuMs)} of CPU time`,
  );
  for (const [kind, k] of Object.entries(f.byKind))
    console.log(
      `  ${kind.padEnd(10)} ${k.megabytes.toFixed(1)} MB in ${(k.ms / 1000).toFixed(2)} s (${rate(k.megabytes, k.ms)} wall, ${rate(k.megabytes, k.cpuMs)} of CPU time)`,
    );
}
