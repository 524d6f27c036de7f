// Only what changed: `cqlint lint --since <ref>` (the findings whose fingerprint the merge-base with the ref
// does not have) and `--baseline <file>` (the findings a team has accepted, written by --update-baseline).
// The merge-base's files are read with git (ls-tree, cat-file) into a temporary folder: the user's working
// tree, index and HEAD are never touched.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_FILE_BYTES, describeIoError } from '../core/io/files';
import { InputError } from './io';
import type { Finding } from '../core/findings/findings';

/** Runs git in `cwd`; its stdout, or an InputError that says what git said. */
function git(cwd: string, args: string[], what: string, input?: Buffer): Buffer {
  const run = spawnSync('git', args, { cwd, input, maxBuffer: 1024 * 1024 * 1024, windowsHide: true });
  if (run.error) {
    const code = (run.error as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT'
        ? '--since needs git, which is not on the PATH'
        : `--since: cannot run git: ${run.error.message}`,
    );
  }
  if (run.status !== 0) {
    const said = run.stderr.toString('utf8').trim().split('\n')[0] ?? '';
    throw new InputError(`--since: ${what}${said ? ` (git: ${said})` : ''}`);
  }
  return run.stdout;
}

/** The merge-base's tree, read into a temporary folder, and where the run's inputs are in it. */
export interface BaseTree {
  /** The merge-base commit. */
  commit: string;
  /** The temporary folder: the repository's top level at the merge-base. */
  dir: string;
  /** The folder that stands for the working directory in `dir` (fingerprints are relative to it). */
  cwd: string;
  /** The inputs, mapped into `dir`; those that did not exist at the merge-base are left out. */
  inputs: string[];
  dispose(): void;
}

/**
 * Reads the files under `inputs` (absolute) as they were at the merge-base of HEAD and `ref` into a
 * temporary folder. Throws an InputError when `cwd` is not in a git repository, the ref is unknown, or the
 * histories share no commit.
 */
export function readBaseTree(cwd: string, ref: string, inputs: readonly string[]): BaseTree {
  if (ref.startsWith('-') || ref.trim() === '') throw new InputError(`--since: "${ref}" is not a git ref`);
  const top = git(cwd, ['rev-parse', '--show-toplevel'], `${cwd} is not inside a git repository`)
    .toString('utf8')
    .trim();
  const commit = git(top, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], `unknown git ref "${ref}"`)
    .toString('utf8')
    .trim();
  const base = git(top, ['merge-base', 'HEAD', commit], `HEAD and "${ref}" have no common commit`)
    .toString('utf8')
    .trim();
  const realTop = realpathSync(top);
  const inRepo = (file: string): string => {
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      real = file;
    }
    const relative = path.relative(realTop, real);
    if (relative.startsWith('..') || path.isAbsolute(relative))
      throw new InputError(`--since: ${file} is outside the git repository ${top}`);
    return relative.split(path.sep).join('/');
  };
  const relativeInputs = inputs.map(inRepo);
  const relativeCwd = inRepo(cwd);

  // Every blob under the inputs (the .cqlint.json files of their folders too: they are read by the same
  // walk as the sources), with its size: a file lint would refuse is not read.
  const listing = git(
    top,
    ['ls-tree', '-r', '-l', '-z', '--full-tree', base, '--', ...relativeInputs.map((p) => (p === '' ? '.' : p))],
    `cannot list the files of ${base}`,
  ).toString('utf8');
  const blobs: { id: string; file: string }[] = [];
  for (const entry of listing.split('\0')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+) +(-|\d+)\t([\s\S]+)$/.exec(entry);
    if (!match || match[2] !== 'blob' || match[1] === '120000') continue;
    if (match[4] === '-' || Number(match[4]) > MAX_FILE_BYTES.source) continue;
    if (match[5].split('/').some((part) => part === 'node_modules' || part === '.git')) continue;
    blobs.push({ id: match[3], file: match[5] });
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cqlint-since-'));
  const dispose = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    if (blobs.length) {
      // One cat-file for all: "<id> blob <size>\n<content>\n" per object, in the order asked.
      const out = git(
        top,
        ['cat-file', '--batch'],
        `cannot read the files of ${base}`,
        Buffer.from(blobs.map((b) => b.id).join('\n') + '\n'),
      );
      let at = 0;
      for (const blob of blobs) {
        const header = out.indexOf(10, at);
        const size = Number(/ (\d+)$/.exec(out.subarray(at, header).toString('latin1'))?.[1]);
        const content = out.subarray(header + 1, header + 1 + size);
        at = header + 1 + size + 1;
        const target = path.join(dir, ...blob.file.split('/'));
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, content, { flag: 'wx' });
      }
    }
  } catch (error) {
    dispose();
    throw error instanceof InputError
      ? error
      : new InputError(`--since: cannot write the files of ${base} to a temporary folder: ${describeIoError(error)}`);
  }
  const inDir = (relative: string): string => path.join(dir, ...relative.split('/').filter(Boolean));
  const existing = relativeInputs.filter(
    (relative) => relative === '' || blobs.some((b) => b.file === relative || b.file.startsWith(`${relative}/`)),
  );
  return { commit: base, dir, cwd: inDir(relativeCwd), inputs: existing.map(inDir), dispose };
}

// ---------------------------------------------------------------------------------------------
// Baseline

/** One accepted finding: matched by its fingerprint; the rest is for the people who read the file. */
export interface BaselineEntry {
  fingerprint: string;
  ruleId: string;
  file: string;
  line: number;
  message: string;
}

const BASELINE_FORMAT = 'cqlint-baseline';

/** Reads a baseline file: its fingerprints. A missing, unreadable or malformed file is an InputError (exit 2). */
export async function readBaseline(file: string, shown: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read the baseline ${shown}: ${describeIoError(error)} (--update-baseline writes one)`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InputError(
      `the baseline ${shown} is not JSON: ${error instanceof Error ? error.message : String(error)} (--update-baseline writes it again)`,
    );
  }
  const findings = (parsed as { findings?: unknown } | null)?.findings;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    (parsed as { format?: unknown }).format !== BASELINE_FORMAT ||
    !Array.isArray(findings)
  ) {
    throw new InputError(
      `${shown} is not a cqlint baseline (a JSON object with "format": "${BASELINE_FORMAT}" and a "findings" list; --update-baseline writes one)`,
    );
  }
  const out = new Set<string>();
  for (const [i, entry] of findings.entries()) {
    const fingerprint = (entry as { fingerprint?: unknown } | null)?.fingerprint;
    if (typeof fingerprint !== 'string' || !/^[0-9a-f]{8,64}$/.test(fingerprint)) {
      throw new InputError(`the baseline ${shown}: findings[${i}] has no fingerprint (a hex string)`);
    }
    out.add(fingerprint);
  }
  return out;
}

/** The text of a baseline file holding `entries` (sorted by file, line and fingerprint: a stable diff). */
export function baselineText(entries: readonly BaselineEntry[]): string {
  const sorted = [...entries].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.fingerprint < b.fingerprint ? -1 : 1),
  );
  return `${JSON.stringify({ format: BASELINE_FORMAT, version: 1, findings: sorted }, null, 2)}\n`;
}

/** A baseline entry for a finding. */
export function baselineEntry(finding: Finding, fingerprint: string, file: string): BaselineEntry {
  return { fingerprint, ruleId: finding.ruleId, file, line: finding.range.start.line, message: finding.message };
}
