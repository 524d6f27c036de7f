// Before/after snapshot of what the grammar makes of real CQL, for changes to grammar/ that must not change it:
// every statement of test/fixtures/corpus, ../shared/corpus (when present), examples/ and the .cql fixtures of
// test/, the CQL strings of test/**/*.ts and the CQL text read from the host-code fixtures (test/fixtures/embedded:
// statements from application code, with their placeholders `?` and `cqlint_hole_N`), each file whole, each
// statement cut after its tokens (what the editor sees while typing) and mutated (a token dropped, doubled,
// swapped or replaced, seeded), and completion at the cuts. Each case's parseCql result (statements, comments,
// errors) and expectedTokensAt answer are kept as JSON, with the serialised grammar (Chevrotain's GAST).
//
//   npx tsx scripts/grammar-snapshot.ts write /tmp/before.jsonl     (with the code before the change)
//   npx tsx scripts/grammar-snapshot.ts write /tmp/after.jsonl      (after it)
//   npx tsx scripts/grammar-snapshot.ts compare /tmp/before.jsonl /tmp/after.jsonl
//
// `write <file> <checkout>` reads the CQL of another checkout (the code before the change, as a copy of this
// script there, reading this checkout's CQL: both snapshots then have the same cases).
//
// The snapshot is large and belongs to one machine's checkout: keep it out of the repository.
import { createWriteStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { expectedTokensAt, getParser, parseCql } from '../grammar';
import { lexCql } from '../grammar/lexer';
import { chunkTokens } from '../grammar/chunks';
import { mulberry32 } from '../test/helpers/random';
import { hostLanguageOf, loadHostLanguages, readEmbedded, type HostLanguage } from '../server/core/embedded';

/** The checkout whose CQL is read (this one, unless `write` names another). */
let root = resolve(__dirname, '..');

/** Tokens a mutation may put anywhere: words whose reading depends on what follows, punctuation, values. */
const POOL = [
  'KEY',
  'EXISTS',
  'IF',
  'NOT',
  'AND',
  'AS',
  'CONTAINS',
  'IN',
  'FROM',
  'WHERE',
  'JSON',
  'DISTINCT',
  'CAST',
  'TOKEN',
  'FROZEN',
  'MAP',
  'LIST',
  'SET',
  'STATIC',
  'PRIMARY',
  'TYPE',
  'WITH',
  'CLUSTERING',
  'ORDER',
  'BY',
  'ASC',
  'DESC',
  'TTL',
  'TIMESTAMP',
  'USING',
  'LIMIT',
  'PER',
  'PARTITION',
  'ALLOW',
  'FILTERING',
  'APPLY',
  'BATCH',
  'INDEX',
  'ON',
  'OF',
  'NORECURSIVE',
  'ROLE',
  'ALL',
  'TO',
  'TABLE',
  'SELECT',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '<',
  '>',
  ',',
  ';',
  '.',
  ':',
  '?',
  '=',
  '+',
  '-',
  '*',
  '..',
  "'x'",
  '1',
  '1.5',
  'true',
  'null',
  'int',
  'x',
  '"Q"',
];

/** The files below `dir` (sorted, node_modules and dot files left out) whose names `keep` keeps. */
function filesBelow(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesBelow(path, keep, out);
    else if (keep(name)) out.push(path);
  }
  return out;
}

const STATEMENT_WORD =
  /^\s*(select|insert|update|delete|begin|use|truncate|create|alter|drop|grant|revoke|list|describe|desc|add)\b/i;

/** The string and template literals of a TypeScript file that read as CQL statements. */
function cqlStrings(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && STATEMENT_WORD.test(node.text))
      out.push(node.text);
    node.forEachChild(visit);
  };
  visit(source);
  return out;
}

interface Source {
  name: string;
  text: string;
}

/** The CQL text of each host-code fixture, as the language server reads it (its grammars loaded first). */
async function embeddedSources(): Promise<Source[]> {
  const files: { path: string; language: HostLanguage }[] = [];
  for (const path of filesBelow(
    join(root, 'test', 'fixtures', 'embedded'),
    (name) => hostLanguageOf(name) !== undefined,
  )) {
    files.push({ path, language: hostLanguageOf(path)! });
  }
  await loadHostLanguages([...new Set(files.map((f) => f.language))]);
  return files.map(({ path, language }) => ({
    name: `${relative(root, path)} (its CQL)`,
    text: readEmbedded(language, readFileSync(path, 'utf8')).cqlText,
  }));
}

function sources(embedded: Source[]): Source[] {
  const files: string[] = [];
  for (const dir of [join(root, 'test'), join(root, 'examples'), resolve(root, '..', 'shared', 'corpus')])
    filesBelow(dir, (name) => name.endsWith('.cql'), files);
  const out: Source[] = files.map((file) => ({ name: relative(root, file), text: readFileSync(file, 'utf8') }));
  out.push(...embedded);
  for (const file of filesBelow(join(root, 'test'), (name) => name.endsWith('.ts')))
    for (const text of cqlStrings(file)) out.push({ name: 'string', text });
  return out;
}

/** What the grammar makes of a text: the parse (JSON) and, where `complete`, completion at its end. */
function outcome(text: string, complete: boolean): unknown {
  const parse = parseCql(text);
  return complete ? { parse, completion: expectedTokensAt(text, text.length) } : { parse };
}

function* cases(embedded: Source[]): Generator<{ key: string; text: string; complete: boolean }> {
  const random = mulberry32(36);
  const seen = new Set<string>();
  for (const source of sources(embedded)) {
    if (!seen.has(source.text)) {
      seen.add(source.text);
      // Keyed by the file's name, or by its text for a test's string (a test may move).
      yield {
        key: source.name === 'string' ? `string ${source.text}` : `file ${source.name}`,
        text: source.text,
        complete: false,
      };
    }
    const { tokens } = lexCql(source.text);
    for (const [start, end] of chunkTokens(tokens)) {
      const images = tokens.slice(start, end).map((t) => t.image);
      const statement = images.join(' ');
      if (seen.has(statement)) continue;
      seen.add(statement);
      // Cut after each token (at most 40 cuts, spread over the statement), and in the middle of a word.
      const step = Math.max(1, Math.ceil(images.length / 40));
      for (let at = 1; at <= images.length; at += step) {
        const prefix = images.slice(0, at).join(' ');
        yield { key: `cut ${prefix}`, text: prefix, complete: true };
        const last = images[at - 1]!;
        if (/^[A-Za-z]{3,}$/.test(last))
          yield { key: `cut ${prefix.slice(0, -1)}`, text: prefix.slice(0, -1), complete: true };
      }
      for (let m = 0; m < 12; m++) {
        const mutated = images.slice();
        const at = Math.floor(random() * mutated.length);
        const op = Math.floor(random() * 4);
        if (op === 0) mutated.splice(at, 1);
        else if (op === 1) mutated.splice(at, 0, mutated[at]!);
        else if (op === 2 && at + 1 < mutated.length) [mutated[at], mutated[at + 1]] = [mutated[at + 1]!, mutated[at]!];
        else mutated.splice(at, random() < 0.5 ? 1 : 0, POOL[Math.floor(random() * POOL.length)]!);
        const text = mutated.join(' ');
        if (!seen.has(text)) {
          seen.add(text);
          yield { key: `mutation ${text}`, text, complete: false };
        }
      }
    }
  }
}

async function write(out: string): Promise<void> {
  const stream = createWriteStream(out);
  const line = (record: unknown) =>
    new Promise<void>((done) => (stream.write(JSON.stringify(record) + '\n') ? done() : stream.once('drain', done)));
  await line({ key: 'grammar', value: getParser().getSerializedGastProductions() });
  let count = 0;
  for (const c of cases(await embeddedSources())) {
    await line({ key: c.key, value: outcome(c.text, c.complete) });
    count++;
  }
  await new Promise<void>((done) => stream.end(done));
  console.log(`${count} cases written to ${out}`);
}

function load(file: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const record = JSON.parse(line) as { key: string; value: unknown };
    if (record.key === 'grammar') {
      // The rules by name: the order they are defined in (which family file first) is not part of the grammar.
      for (const rule of record.value as { name: string }[]) map.set(`grammar rule ${rule.name}`, JSON.stringify(rule));
    } else map.set(record.key, JSON.stringify(record.value));
  }
  return map;
}

function compare(beforeFile: string, afterFile: string): void {
  const before = load(beforeFile);
  const after = load(afterFile);
  const changed: string[] = [];
  for (const [key, value] of before) if (after.has(key) && after.get(key) !== value) changed.push(key);
  const onlyBefore = [...before.keys()].filter((k) => !after.has(k));
  const onlyAfter = [...after.keys()].filter((k) => !before.has(k));
  console.log(
    `${before.size} cases before, ${after.size} after: ${changed.length} changed, ${onlyBefore.length} only before, ${onlyAfter.length} only after`,
  );
  for (const key of changed.slice(0, 40)) {
    console.log(
      `\n${key.slice(0, 300)}\n  before: ${before.get(key)!.slice(0, 600)}\n  after:  ${after.get(key)!.slice(0, 600)}`,
    );
  }
  for (const key of [...onlyBefore.slice(0, 10), ...onlyAfter.slice(0, 10)])
    console.log(`only in one: ${key.slice(0, 200)}`);
  if (changed.length || onlyBefore.length || onlyAfter.length) process.exitCode = 1;
}

const [command, a, b] = process.argv.slice(2);
if (command === 'write' && a) {
  if (b) root = resolve(b);
  void write(a);
} else if (command === 'compare' && a && b) compare(a, b);
else {
  console.error('usage: npx tsx scripts/grammar-snapshot.ts write <file> | compare <before> <after>');
  process.exitCode = 2;
}
