// Runs the shard-formula snippets of docs/shard-formula.md, as written there, against cqlint's engine:
// each language's code block plus a small driver that reads `n offset hex-of-UTF-8` lines and prints the
// shard of each. Node and Python run in npm test (shard-snippets.test.ts); Java, Go and C#, which need
// Debian's JDK, Go toolchain and Mono, in CI: `npm run test:snippets` (node --import tsx test/docs/shard-snippets.ts java go csharp).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeShardValue } from '../../server/core/token/shard';
import { parseTypeSpecs } from '../../server/core/token/types';
import { mulberry32 } from '../helpers/random';

const projectRoot = join(__dirname, '..', '..');

export type SnippetLanguage = 'js' | 'python' | 'java' | 'go' | 'csharp';

/** The fenced code block of a language in docs/shard-formula.md (exactly one each). */
export function snippet(language: SnippetLanguage): string {
  const doc = readFileSync(join(projectRoot, 'docs', 'shard-formula.md'), 'utf8');
  const blocks = [...doc.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))];
  if (blocks.length !== 1)
    throw new Error(`docs/shard-formula.md: expected one \`\`\`${language} block, found ${blocks.length}`);
  return blocks[0]![1]!;
}

export interface Vector {
  value: string;
  n: number;
  offset: number;
  /** What cqlint computes. */
  shard: number;
  /** The unsigned hash (to show that hashes above 2^31 are covered). */
  hash: number;
}

const ALPHABET = ['a', 'Z', '0', ' ', '-', "'", '"', '\\', 'é', 'ß', 'ü', '中', '文', 'ж', '😀', '🐘', '\u00a0', '\t'];

/** Deterministic test values: every tail length, ASCII and multi-byte UTF-8, shard counts up to 2^31 - 1. */
export function vectors(count = 400): Vector[] {
  const random = mulberry32(2026);
  const text = parseTypeSpecs('text')[0]!;
  const out: Vector[] = [];
  const counts = [1, 2, 7, 16, 200, 1000, 65536, 2_147_483_647];
  for (let i = 0; i < count; i++) {
    const length = i < 20 ? i : Math.floor(random() * 40);
    let value = '';
    for (let j = 0; j < length; j++) value += ALPHABET[Math.floor(random() * ALPHABET.length)];
    const n = counts[i % counts.length]!;
    const offset = i % 3 === 0 ? 0 : 1;
    const spec = { method: 'murmur3' as const, shardColumn: 'shard', sources: ['v'], count: n, offset };
    const result = computeShardValue(spec as Parameters<typeof computeShardValue>[0], {
      v: { type: text, value: `'${value.replace(/'/g, "''")}'` },
    });
    if (!result.ok || result.hash === undefined)
      throw new Error(`the engine cannot compute ${JSON.stringify(value)}: ${result.ok ? 'no hash' : result.reason}`);
    out.push({ value, n, offset, shard: result.value, hash: result.hash });
  }
  return out;
}

const DRIVERS: Record<
  SnippetLanguage,
  { files: (code: string) => Record<string, string>; run: (dir: string) => { command: string; args: string[] }[] }
> = {
  js: {
    files: (code) => ({
      'main.js':
        `${code}\nconst lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean);\n` +
        `for (const line of lines) { const [n, offset, hex] = line.split(' '); console.log(shard(Buffer.from(hex ?? '', 'hex').toString('utf8'), Number(n), Number(offset))); }\n`,
    }),
    run: () => [{ command: process.execPath, args: ['main.js'] }],
  },
  python: {
    files: (code) => ({
      'main.py': `${code}\nimport sys\nfor line in sys.stdin.read().splitlines():\n    n, offset, *rest = line.split(' ')\n    print(shard(bytes.fromhex(rest[0] if rest else '').decode('utf-8'), int(n), int(offset)))\n`,
    }),
    run: () => [{ command: 'python3', args: ['main.py'] }],
  },
  java: {
    files: (code) => ({
      'CqlintShard.java': code,
      'Main.java':
        `import java.io.*;\nimport java.nio.charset.StandardCharsets;\npublic class Main {\n  public static void main(String[] args) throws IOException {\n` +
        `    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));\n    StringBuilder out = new StringBuilder();\n` +
        `    for (String line; (line = in.readLine()) != null;) {\n      if (line.isEmpty()) continue;\n      String[] p = line.split(" ", -1);\n` +
        `      String hex = p.length > 2 ? p[2] : "";\n      byte[] b = new byte[hex.length() / 2];\n      for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);\n` +
        `      out.append(CqlintShard.shard(new String(b, StandardCharsets.UTF_8), Integer.parseInt(p[0]), Integer.parseInt(p[1]))).append('\\n');\n    }\n    System.out.print(out);\n  }\n}\n`,
    }),
    run: () => [
      { command: 'javac', args: ['CqlintShard.java', 'Main.java'] },
      { command: 'java', args: ['-cp', '.', 'Main'] },
    ],
  },
  go: {
    files: (code) => ({
      'shard.go': code,
      'main.go':
        `package main\n\nimport (\n\t"bufio"\n\t"encoding/hex"\n\t"fmt"\n\t"os"\n\t"strconv"\n\t"strings"\n)\n\nfunc main() {\n\tscanner := bufio.NewScanner(os.Stdin)\n` +
        `\tfor scanner.Scan() {\n\t\tp := strings.Split(scanner.Text(), " ")\n\t\tif len(p) < 2 {\n\t\t\tcontinue\n\t\t}\n\t\tn, _ := strconv.ParseUint(p[0], 10, 32)\n\t\toffset, _ := strconv.ParseUint(p[1], 10, 32)\n` +
        `\t\tvalue := []byte{}\n\t\tif len(p) > 2 {\n\t\t\tvalue, _ = hex.DecodeString(p[2])\n\t\t}\n\t\tfmt.Println(Shard(string(value), uint32(n), uint32(offset)))\n\t}\n}\n`,
    }),
    run: (dir) => [
      { command: 'go', args: ['build', '-o', join(dir, 'shard-bin'), 'shard.go', 'main.go'] },
      { command: join(dir, 'shard-bin'), args: [] },
    ],
  },
  csharp: {
    files: (code) => ({
      'Shard.cs': code,
      'Main.cs':
        `using System;\nusing System.IO;\nusing System.Text;\npublic static class Program {\n  public static void Main() {\n    var input = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));\n` +
        `    var output = new StringBuilder();\n    for (string line; (line = input.ReadLine()) != null;) {\n      if (line.Length == 0) continue;\n      var p = line.Split(' ');\n      var hex = p.Length > 2 ? p[2] : "";\n` +
        `      var bytes = new byte[hex.Length / 2];\n      for (int i = 0; i < bytes.Length; i++) bytes[i] = Convert.ToByte(hex.Substring(2 * i, 2), 16);\n` +
        `      output.Append(CqlintShard.Shard(Encoding.UTF8.GetString(bytes), uint.Parse(p[0]), uint.Parse(p[1]))).Append('\\n');\n    }\n    Console.Out.Write(output.ToString());\n  }\n}\n`,
    }),
    run: (dir) => [
      { command: 'mcs', args: ['-out:' + join(dir, 'shard.exe'), 'Shard.cs', 'Main.cs'] },
      { command: 'mono', args: [join(dir, 'shard.exe')] },
    ],
  },
};

/** Runs a language's snippet on the vectors; the shards it printed, or why it could not run. */
export function runSnippet(language: SnippetLanguage, input: readonly Vector[]): { shards?: number[]; error?: string } {
  const dir = mkdtempSync(join(tmpdir(), `cqlint-snippet-${language}-`));
  try {
    const driver = DRIVERS[language];
    for (const [name, text] of Object.entries(driver.files(snippet(language)))) writeFileSync(join(dir, name), text);
    const stdin =
      input.map((v) => `${v.n} ${v.offset} ${Buffer.from(v.value, 'utf8').toString('hex')}`).join('\n') + '\n';
    let stdout = '';
    for (const step of driver.run(dir)) {
      const run = spawnSync(step.command, step.args, {
        cwd: dir,
        input: stdin,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, GOCACHE: join(dir, 'gocache'), GOPATH: join(dir, 'gopath'), GOFLAGS: '-mod=mod' },
      });
      if (run.error) return { error: `${step.command}: ${run.error.message}` };
      if (run.status !== 0)
        return { error: `${step.command} ${step.args.join(' ')} exited ${run.status}: ${run.stderr}` };
      stdout = run.stdout;
    }
    return { shards: stdout.split('\n').filter(Boolean).map(Number) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The vectors a snippet gets wrong, described (empty when it agrees with the engine on all of them). */
export function disagreements(language: SnippetLanguage, input = vectors()): string[] {
  const { shards, error } = runSnippet(language, input);
  if (error) return [error];
  if (shards!.length !== input.length) return [`${shards!.length} shards printed for ${input.length} values`];
  return input
    .flatMap((v, i) =>
      shards![i] === v.shard
        ? []
        : [`${JSON.stringify(v.value)} % ${v.n} + ${v.offset}: ${shards![i]}, cqlint ${v.shard}`],
    )
    .slice(0, 10);
}

if (require.main === module) {
  const languages = process.argv.slice(2) as SnippetLanguage[];
  let failed = false;
  for (const language of languages.length ? languages : (['java', 'go', 'csharp'] as SnippetLanguage[])) {
    const wrong = disagreements(language);
    console.log(
      `${wrong.length ? '✖' : '✔'} docs/shard-formula.md ${language} snippet ${wrong.length ? `disagrees with cqlint:\n    ${wrong.join('\n    ')}` : "gives cqlint's shard for every test value"}`,
    );
    failed ||= wrong.length > 0;
  }
  process.exit(failed ? 1 : 0);
}
