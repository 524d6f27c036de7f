// Runs every test/**/*.test.ts with Node's built-in test runner (through tsx, so no compile step), one
// process per file as `node --test` does, a few files at a time, and ends with the slowest files.
// Node 20's --test does not expand globs or pick up .ts files, and runs one file at a time on a 2-core
// machine (its concurrency is the core count minus one), hence this small runner.
// Usage: node scripts/run-tests.mjs [--jobs N] [--typecheck] [path filters...]
//        node scripts/run-tests.mjs --browser [filters...]   (test/browser: needs Chromium, see README)
// --jobs: files run at once (default: the core count + 1; many suites wait on child processes and files).
// --typecheck: `tsc --noEmit` runs too, as one more job beside the files (`npm test` does this), and
// fails the run like a failing file.
// The slowest files of the last run start first (node_modules/.cache/cqlint-test-times.json), so that
// a long file does not start last and run alone.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { values: options, positionals: filters } = parseArgs({
  allowPositionals: true,
  options: {
    browser: { type: 'boolean', default: false },
    jobs: { type: 'string' },
    typecheck: { type: 'boolean', default: false },
  },
});
const jobs = options.jobs === undefined ? availableParallelism() + 1 : Number(options.jobs);
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error(`--jobs must be a whole number of at least 1, not ${options.jobs}`);
  process.exit(2);
}

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      // test/vscode holds the mocha suite that runs inside VS Code, not under node:test; test/browser needs
      // a Chromium, which `npm test` must not (it runs with `npm run test:browser`).
      if (
        name === 'vscode' ||
        name === 'fixtures' ||
        name === 'node_modules' ||
        (name === 'browser' && !options.browser)
      )
        continue;
      found.push(...findTests(path));
    } else if (name.endsWith('.test.ts')) {
      found.push(relative(root, path));
    }
  }
  return found;
}

let files = findTests(join(root, 'test', ...(options.browser ? ['browser'] : []))).sort();
if (filters.length) files = files.filter((f) => filters.some((flt) => f.includes(flt)));
if (!files.length) {
  console.error('no test files found');
  process.exit(1);
}

const timesFile = join(root, 'node_modules', '.cache', 'cqlint-test-times.json');
/** Seconds each file took in the last run that ran it (a missing or unreadable record: none). */
function lastTimes() {
  try {
    const times = JSON.parse(readFileSync(timesFile, 'utf8'));
    return times && typeof times === 'object' ? times : {};
  } catch {
    return {};
  }
}
const times = lastTimes();
const TYPECHECK = 'typecheck: tsc -p tsconfig.json --noEmit';
/** What runs: each test file in its own process (as `node --test` runs it), and the typecheck if asked for. */
const jobsToRun = [
  ...(options.typecheck
    ? [
        {
          name: TYPECHECK,
          args: [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit'],
        },
      ]
    : []),
  ...files.map((file) => ({ name: file, args: ['--import', 'tsx', '--test-reporter=spec', file] })),
];
/** A job's last time; the typecheck, never timed yet, goes first (it is one of the longest). */
const lastTime = (name) => Number(times[name]) || (name === TYPECHECK ? Infinity : 0);
jobsToRun.sort((a, b) => lastTime(b.name) - lastTime(a.name));

// The suites that run the bundles build dist/ when it is missing; building it once here keeps two of them
// from writing it at the same time.
if (!existsSync(join(root, 'dist', 'cli.js')) || !existsSync(join(root, 'dist', 'server.js'))) {
  console.log('dist/ is missing: npm run build');
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

/** The spec reporter's closing counts (`ℹ pass 12`), summed over the files. */
const COUNTS = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const totals = Object.fromEntries(COUNTS.map((name) => [name, 0]));
const children = new Set();

/** Runs one job in its own process and resolves with its output, status and time. */
function run({ name, args }) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({
        name,
        output: Buffer.concat(output).toString(),
        ok: code === 0,
        status: signal ?? code,
        seconds: (performance.now() - started) / 1000,
      });
    });
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

const started = performance.now();
const results = [];
let next = 0;
async function worker() {
  while (next < jobsToRun.length) {
    const result = await run(jobsToRun[next++]);
    results.push(result);
    process.stdout.write(`\n▶ ${result.name} (${result.seconds.toFixed(1)} s)\n${result.output}`);
    for (const [, name, count] of result.output.matchAll(/^ℹ (\w+) (\d+)$/gm))
      if (name in totals) totals[name] += Number(count);
    if (!result.ok && !/^ℹ fail [1-9]/m.test(result.output)) totals.fail++; // a file that failed before reporting
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, jobsToRun.length) }, worker));

const wall = (performance.now() - started) / 1000;
for (const result of results) times[result.name] = Number(result.seconds.toFixed(2));
try {
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  writeFileSync(timesFile, `${JSON.stringify(times, null, 1)}\n`);
} catch {
  // only the order of the next run depends on it
}
const failed = results.filter((result) => !result.ok);
const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
console.log(
  `\n${files.length} files${options.typecheck ? ' and the typecheck' : ''}, ${jobs} at a time, ${wall.toFixed(1)} s`,
);
console.log(COUNTS.map((name) => `${name} ${totals[name]}`).join(', '));
console.log(`slowest: ${slowest.map((result) => `${result.name} ${result.seconds.toFixed(1)} s`).join(', ')}`);
if (failed.length)
  console.log(`\n✖ failed: ${failed.map((result) => `${result.name} (exit ${result.status})`).join(', ')}`);
process.exit(failed.length ? 1 : 0);
