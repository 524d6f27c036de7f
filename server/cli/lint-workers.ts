// `cqlint lint` on several cores: worker threads (node:worker_threads) parse and lint the files, and the
// output is the same, byte for byte, as a run on one thread.
//
//   main thread                                   worker k (of n)
//   reads the files in order, file i to worker i % n   indexes its files: schema, references, text
//   asks each for its index                        sends it (Project.exportIndexed)
//   hands each worker every other worker's index   adopts them (Project.adoptIndexed): the whole workspace
//                                                  reads the configured samples, lints its files in order,
//   writes each file's result in file order        sends each result as it is made
//
// Every worker ends up with the same Project a one-thread run builds (the schema is merged from the same
// file schemas, in the same order), so each file gets the same findings. A worker that fails is an internal
// error: the run stops with exit 2.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { deserialize, serialize } from 'node:v8';
import { Project, type IndexedFile } from '../core/engine/project';
import type { ClusterSetting, CqlintConfig, RuleLevel } from '../core/vocabulary/config';
import type { TargetId } from '../core/partition/targets';
import { BATCH_HEAP, WORKER_HEAP, compactHeap, heapKeeper, useHeapBudget } from '../core/util/heap';
import { discoveredConfigs, displayPath } from './io';
import { loadHostLanguages, type HostLanguage } from '../core/embedded';
import { ProjectFacts } from './project-facts';
import { fixableFindings } from './fix';
import type { FileResult } from './formatters';
import type { Finding } from '../core/findings/findings';

/** Marks the workers this module starts (workerData.role), so that the bundle knows to serve as one. */
const ROLE = 'cqlint-lint-worker';
/**
 * A worker per this many files (the first one included). Below it, a run stays on the main thread: a
 * worker's sized young generation (YOUNG_GENERATION_MB) pays for itself only when the index is large (on
 * the generated workspaces, 500 files took as long in a worker for twice the memory; 1,000 files took
 * 12.0 s of CPU instead of 13.6 s), and each further worker reads and indexes the whole workspace again.
 */
const FILES_PER_WORKER = 1000;
/**
 * Cores per worker by default: each lint thread keeps about one more core busy with V8's concurrent marking
 * and sweeping. On 2 cores and 2,000 files one worker took 23 s of CPU, two 34 s (each holds the whole
 * index, and merges it) for no shorter run and 400 MiB more memory.
 */
const CORES_PER_WORKER = 2;
/** At most this many workers by default: each holds the whole workspace's index (about 300 MiB at 2,000 files). */
const DEFAULT_MAX_WORKERS = 4;
/** At most this many workers, whatever CQLINT_WORKERS says. */
const MAX_WORKERS = 16;
/**
 * Each worker's young generation (V8's resourceLimits.maxYoungGenerationSizeMb). Indexing and linting make
 * many objects that live for a statement or a file: V8's default 16 MiB semi-space is full before they die,
 * so they are promoted, then marked and swept with the index (GC took 29% of a 2,000-file run). On the
 * 2,000-file workspace (one worker, texts kept outside the heap), 8 runs each interleaved at load 5-10: 192 MiB
 * peaked at 653-699 MiB (median 660) for 35.97-51.06 s of CPU (median 45.7), 64 MiB at 571-591 MiB (median
 * 579) for 39.84-52.04 s (median 43.8), the wall times alike; single runs of 32 and 48 MiB peaked at 540 MiB
 * for more CPU than 64 MiB beside them, and no worker at 470-479 MiB for 44.3-45.3 s (3 runs, longer wall).
 */
const YOUNG_GENERATION_MB = 64;
/**
 * Files sent to a worker and not yet taken, at most: the main thread reads faster than a worker indexes, and
 * every text sent waits, copied, in the worker's queue (the whole workspace's texts, on 2,000 files: a
 * one-worker run peaked at 687 MiB with 8 in flight against 728 MiB unbounded, the same CPU, one run each at
 * load 16-25). 64 files (about 1.7 MB of text on that workspace) keep the worker busy however late a loaded
 * machine wakes the main thread to send the next.
 */
const FILES_IN_FLIGHT = 64;

/**
 * How many worker threads lint `files` files: 0 means none (the run stays on the main thread).
 * CQLINT_WORKERS=n sets it (0: none).
 */
export function workerCount(files: number, env: NodeJS.ProcessEnv): number {
  const asked = env.CQLINT_WORKERS?.trim() ? Number(env.CQLINT_WORKERS) : Number.NaN;
  if (Number.isInteger(asked) && asked >= 0) return Math.min(asked, MAX_WORKERS, files);
  const cores = Math.max(1, Math.floor(availableParallelism() / CORES_PER_WORKER));
  return Math.min(cores, DEFAULT_MAX_WORKERS, Math.floor(files / FILES_PER_WORKER));
}

/** What the workers' Projects are made with (the main thread's options, plain data). */
interface WorkerSetup {
  target?: TargetId;
  /** The explicit configuration (--config, --no-config); undefined: each file's nearest .cqlint.json. */
  config?: CqlintConfig;
  /** The inputs' folders: what a .cqlint.json names is read only inside them (or its own folder). */
  roots?: readonly string[];
  /** --evidence: evidence for every table, besides what each .cqlint.json names (relative to `cwd`). */
  evidence?: readonly string[];
  /** --cluster-config, --cluster-version (resolved). */
  cluster?: ClusterSetting;
  /** The working directory the --evidence values are relative to. */
  cwd?: string;
  /** --report-unused-disable-directives(-severity): replaces each config's reportUnusedDisableDirectives. */
  unusedDirectives?: RuleLevel;
  /**
   * Whether this worker reports the samples and evidence it cannot read, and the evidence's warnings (one of
   * them does: they all read the same).
   */
  reportsReads: boolean;
  /** Whether this is the only worker (it then holds the whole index itself). */
  alone: boolean;
  /** The host languages of the application code among the files (their parsers are loaded first). */
  languages?: readonly HostLanguage[];
}

/**
 * A worker's index (IndexedFile[]) as v8.serialize makes it: it passes through the main thread as bytes,
 * moved rather than copied, and only the workers that adopt it make objects of it.
 */
type SerializedIndex = Uint8Array;

type ToWorker =
  | { type: 'file'; filePath: string; text: string }
  | { type: 'index' }
  | { type: 'lint'; adopt: SerializedIndex[]; order: string[]; mine: number[] };

type FromWorker =
  /** A file the main thread sent was taken (indexed, or dropped): it may send another. */
  | { type: 'took' }
  | { type: 'indexed'; files: SerializedIndex }
  | { type: 'problem'; message: string }
  | { type: 'warning'; message: string }
  /**
   * A file's result; none for application code that holds no CQL (it is not reported). `problems`: what the
   * reader of application code could not read in it.
   */
  | { type: 'result'; index: number; result?: FileResult; problems?: string[] }
  | { type: 'failed'; index: number; filePath: string; message: string }
  | { type: 'done' };

export interface WorkerLint {
  workers: number;
  setup: Omit<WorkerSetup, 'reportsReads' | 'alone'>;
  /** The files, in order; each is read by `read` (undefined: it could not be, and was reported). */
  files: readonly string[];
  read(filePath: string): Promise<string | undefined>;
  /** Called once every file is read, with those that were (the configuration errors are reported then). */
  allRead(readFiles: readonly string[]): void;
  /** A problem to report (exit 2): a sample or evidence that cannot be read. */
  problem(message: string): void;
  /** A warning to report: evidence lines not read, tables the evidence names that the workspace does not define. */
  warning(message: string): void;
  /** Each file's result, in file order; or why it could not be linted. */
  result(result: FileResult): void;
  failed(filePath: string, message: string): void;
  /** The worker script (tests); the module itself by default (in the bundle, dist/cli.js). */
  entry?: string;
}

/** A worker thread that stopped without finishing: the run is an internal error. */
class WorkerFailed extends Error {}

/** Lints in `plan.workers` worker threads; resolves when every result was handed over in order. */
export async function lintInWorkers(plan: WorkerLint): Promise<void> {
  const workers: Worker[] = [];
  let failure: Error | undefined;
  let onFailure: (error: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    onFailure = reject;
  });
  failed.catch(() => undefined);
  const fail = (error: Error): void => {
    if (failure) return;
    failure = error;
    onFailure(error);
  };
  // Messages of each kind, per worker, as they come; a waiter per kind.
  const handlers: ((message: FromWorker, worker: number) => void)[] = [];
  const entry = plan.entry ?? __filename;
  // Run from the TypeScript sources (tests, development), a worker loads this file through tsx's require
  // hook, as the main thread's modules were (a worker's entry does not go through --import hooks); the
  // bundle (dist/cli.js) is plain JavaScript.
  const script = entry.endsWith('.ts')
    ? `require(${JSON.stringify(createRequire(__filename).resolve('tsx/cjs'))});\nrequire(${JSON.stringify(entry)});`
    : entry;
  for (let k = 0; k < plan.workers; k++) {
    const setup: WorkerSetup = { ...plan.setup, reportsReads: k === 0, alone: plan.workers === 1 };
    const worker = new Worker(script, {
      workerData: { role: ROLE, setup },
      eval: script !== entry,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    let done = false;
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'done') done = true;
      for (const handler of handlers) handler(message, k);
    });
    worker.on('error', (error) => fail(new WorkerFailed(`a lint worker thread failed: ${error.message}`)));
    worker.on('exit', (code) => {
      if (!done) fail(new WorkerFailed(`a lint worker thread stopped (exit code ${code}) before it finished`));
    });
    workers.push(worker);
  }
  try {
    // 1. Read the files in order; each worker indexes its share as it comes, a few files sent ahead.
    const inFlight = workers.map(() => 0);
    let room: (() => void) | undefined;
    handlers.push((message, k) => {
      if (message.type !== 'took') return;
      inFlight[k]!--;
      room?.();
    });
    const readFiles: string[] = [];
    for (const filePath of plan.files) {
      if (failure) break;
      const text = await plan.read(filePath);
      if (text === undefined) continue;
      const k = readFiles.length % plan.workers;
      while (inFlight[k]! >= FILES_IN_FLIGHT && !failure)
        await Promise.race([failed, new Promise<void>((resolve) => (room = resolve))]);
      room = undefined;
      inFlight[k]!++;
      workers[k]!.postMessage({ type: 'file', filePath, text } satisfies ToWorker);
      readFiles.push(filePath);
      heapKeeper().settle();
    }
    plan.allRead(readFiles);
    // 2. Every worker's index, then each worker gets the others' and lints its files.
    // A lone worker holds the whole index already: nothing to exchange.
    const indexes =
      plan.workers === 1
        ? []
        : await Promise.race([
            failed,
            collect<SerializedIndex>(
              handlers,
              plan.workers,
              (m) => (m.type === 'indexed' ? m.files : undefined),
              workers,
              { type: 'index' },
            ),
          ]);
    const order = readFiles;
    const results = new Map<number, FromWorker>();
    let next = 0;
    let finishedWorkers = 0;
    const allDone = new Promise<void>((resolve) => {
      handlers.push((message) => {
        if (message.type === 'problem') plan.problem(message.message);
        else if (message.type === 'warning') plan.warning(message.message);
        else if (message.type === 'result' || message.type === 'failed') {
          results.set(message.index, message);
          // Handed over in file order, whichever worker finishes first.
          for (let ready = results.get(next); ready; ready = results.get(next)) {
            results.delete(next);
            if (ready.type === 'result') {
              for (const problem of ready.problems ?? [])
                plan.warning(`${displayPath(order[ready.index]!, plan.setup.cwd ?? process.cwd())}: ${problem}`);
              if (ready.result) plan.result(ready.result);
            } else if (ready.type === 'failed') plan.failed(ready.filePath, ready.message);
            next++;
          }
          // The results written are garbage: keep the main thread's heap near what is alive, as the workers do.
          heapKeeper().settle();
        } else if (message.type === 'done' && ++finishedWorkers === plan.workers) resolve();
      });
    });
    for (let k = 0; k < plan.workers; k++) {
      // Each index goes to every other worker: copied for all but the last of them, which gets the bytes themselves.
      const lastFor = (j: number): number => (j === plan.workers - 1 ? plan.workers - 2 : plan.workers - 1);
      const adopt = indexes.flatMap((bytes, j) => (j === k ? [] : [lastFor(j) === k ? bytes : bytes.slice()]));
      const mine = order.flatMap((_, i) => (i % plan.workers === k ? [i] : []));
      workers[k]!.postMessage(
        { type: 'lint', adopt, order, mine } satisfies ToWorker,
        adopt
          .filter((b) => b.byteOffset === 0 && b.byteLength === b.buffer.byteLength)
          .map((b) => b.buffer as ArrayBuffer),
      );
    }
    indexes.length = 0;
    await Promise.race([failed, allDone]);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  if (failure) throw failure;
}

/** Sends `request` to every worker and resolves with each one's answer (picked out of its messages), by worker. */
function collect<T>(
  handlers: ((message: FromWorker, worker: number) => void)[],
  count: number,
  pick: (message: FromWorker) => T | undefined,
  workers: Worker[],
  request: ToWorker,
): Promise<T[]> {
  return new Promise((resolve) => {
    const answers: T[] = [];
    let got = 0;
    const handler = (message: FromWorker, worker: number): void => {
      const answer = pick(message);
      if (answer === undefined) return;
      answers[worker] = answer;
      if (++got === count) {
        handlers.splice(handlers.indexOf(handler), 1);
        resolve(answers);
      }
    };
    handlers.push(handler);
    for (const worker of workers) worker.postMessage(request);
  });
}

// ---------------------------------------------------------------------------------------------
// The worker

const EMPTY = new Uint8Array(0);

/** Serves as a lint worker (see the top of this file) until the main thread has all its results. */
function serveAsWorker(setup: WorkerSetup): void {
  const port = parentPort!;
  // A lone worker is the one-thread run moved off the main thread: it keeps that run's budget.
  useHeapBudget(setup.alone ? BATCH_HEAP : WORKER_HEAP);
  // The samples and evidence, read as the one-thread run reads them (project-facts.ts).
  const facts = new ProjectFacts(setup.evidence ?? [], setup.cwd ?? process.cwd(), setup.cluster);
  const project = new Project({
    target: setup.target,
    config: setup.config,
    configLookup: discoveredConfigs(setup.roots ?? []).lookup,
    reportUnusedDisableDirectives: setup.unusedDirectives,
    keepTexts: true,
    ...facts.projectOptions(),
  });
  const own: string[] = [];
  /** Application code with no CQL (taken out of the project again), and what could not be read in application code. */
  const dropped = new Set<string>();
  const readerProblems = new Map<string, string[]>();
  const send = (message: FromWorker): void => port.postMessage(message);
  // Messages are handled in order, once the host languages' parsers are loaded.
  let queue: Promise<void> = setup.languages?.length ? loadHostLanguages([...setup.languages]) : Promise.resolve();
  port.on('message', (message: ToWorker) => {
    queue = queue.then(() => handle(message));
  });
  function handle(message: ToWorker): void {
    if (message.type === 'file') {
      index(message);
      // The main thread may send the next file (see FILES_IN_FLIGHT).
      send({ type: 'took' });
    } else if (message.type === 'index') {
      const bytes = serialize(own.map((filePath) => project.exportIndexed(filePath)!));
      // A buffer of its own, moved to the main thread rather than copied.
      const index =
        bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
          ? bytes
          : Uint8Array.prototype.slice.call(bytes);
      port.postMessage({ type: 'indexed', files: index } satisfies FromWorker, [index.buffer as ArrayBuffer]);
    } else {
      void lintShare(message).then(() => send({ type: 'done' }));
    }
  }

  /** As the one-thread run does: index the file, then let go of its tree. */
  function index(message: Extract<ToWorker, { type: 'file' }>): void {
    project.setFile(message.filePath, message.text);
    const doc = project.embedded(message.filePath);
    if (doc?.problems.length)
      readerProblems.set(
        message.filePath,
        doc.problems.map((p) => p.message),
      );
    if (doc && !doc.statements.length) {
      project.removeFile(message.filePath);
      dropped.add(message.filePath);
      return;
    }
    project.fileSchema(message.filePath);
    project.release(message.filePath);
    heapKeeper().settle();
    own.push(message.filePath);
  }

  async function lintShare({ adopt, order, mine }: Extract<ToWorker, { type: 'lint' }>): Promise<void> {
    // Indexing left the heap's pages mostly empty (the trees let go): hand them back before the other
    // workers' indexes come in, or every worker keeps them for the rest of the run. A lone worker adopts
    // nothing: the pages it has serve the linting (a compaction here took 2 s on 2,000 files).
    if (adopt.length) compactHeap();
    for (let i = 0; i < adopt.length; i++) {
      for (const file of deserialize(adopt[i]!) as IndexedFile[]) project.adoptIndexed(file);
      adopt[i] = EMPTY;
    }
    await facts.read(project, order, {
      roots: setup.roots ?? [],
      fail: (problem) => {
        if (setup.reportsReads) send({ type: 'problem', message: problem });
      },
      warn: (warning) => {
        if (setup.reportsReads) send({ type: 'warning', message: warning });
      },
    });
    for (const index of mine) {
      const filePath = order[index]!;
      const problems = readerProblems.get(filePath);
      if (dropped.has(filePath)) {
        send({ type: 'result', index, ...(problems ? { problems } : {}) });
        continue;
      }
      let findings;
      try {
        findings = project.lint(filePath);
      } catch (error) {
        send({ type: 'failed', index, filePath, message: error instanceof Error ? error.message : String(error) });
        continue;
      }
      let fixable: boolean[] | undefined;
      try {
        fixable = fixableFindings(project, filePath, findings);
      } catch {
        // The fixable counts are a hint; a fix that cannot be computed is simply not counted.
      }
      send({
        type: 'result',
        index,
        result: { filePath, findings: findings.map(withoutData), source: project.sourceText(filePath)!, fixable },
        ...(problems ? { problems } : {}),
      });
      project.release(filePath, { findings: true });
      heapKeeper().settle();
    }
  }
}

/**
 * A finding as the main thread needs it to format it: without `data`, the facts its quick fixes read (the
 * fixable counts are computed here), which no formatter reads. Serialising them took most of postMessage's
 * time: on 250 generated files' findings, v8.serialize took 64 ms with them and 18 ms without.
 */
function withoutData(finding: Finding): Finding {
  if (finding.data === undefined) return finding;
  const { data: _data, ...rest } = finding;
  return rest;
}

if (!isMainThread && (workerData as { role?: unknown } | null)?.role === ROLE)
  serveAsWorker((workerData as { setup: WorkerSetup }).setup);
