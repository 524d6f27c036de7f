// Run by dropped-project.test.ts in a child process with --expose-gc: builds a Project of the analysis
// bench's generated workspace, lints every file (which fills every cache the rules use: workloads, column
// profiles, references, the planner's figures), watches the Project and each of its tables through weak
// references, drops it, collects, and prints what is still alive and the heap figures as one JSON line.
// With an argument `twice`, a second Project is built and dropped after the first, so that a cache that only
// keeps the latest Project's objects shows too. With `released`, the Project is kept and each file's tree let
// go of after its lint, as the CLI does: it prints how many of those trees are still alive.
import { generateAnalysisFile } from '../../bench/analysis';
import { Project } from '../../server/core/engine/project';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const ROOT = '/virtual/dropped';

/** A full collection once the current job is over (WeakRef targets are kept alive until then). */
async function collect(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc!();
  }
  return process.memoryUsage().heapUsed / 2 ** 20;
}

interface Watched {
  project: WeakRef<Project>;
  tables: WeakRef<object>[];
  /** The heap in use after a full collection while the Project was still held. */
  heapWithMB: number;
}

/** Builds, lints and watches one Project; returns only weak references, so nothing of it stays reachable. */
function buildAndLint(files: Record<string, string>): Watched {
  const project = new Project({ config: {} });
  for (const [file, text] of Object.entries(files)) project.setFile(file, text);
  let findings = 0;
  for (const file of Object.keys(files)) findings += project.lint(file).length;
  if (findings === 0) throw new Error('the workspace gave no findings: the rules did not run');
  const tables = [...project.schema().tablesByName.values()].flat().map((t) => new WeakRef<object>(t));
  if (tables.length < 100) throw new Error(`only ${tables.length} tables`);
  gc!();
  return { project: new WeakRef(project), tables, heapWithMB: process.memoryUsage().heapUsed / 2 ** 20 };
}

/**
 * The CLI's run (server/cli/lint.ts): every file indexed and let go of, then each linted and let go of with
 * its findings, the Project held throughout. Returns how many of the linted files' trees are still alive.
 */
async function releasedTrees(files: Record<string, string>): Promise<{ trees: number; alive: number }> {
  const project = new Project({ config: {}, keepTexts: true });
  for (const [file, text] of Object.entries(files)) {
    project.setFile(file, text);
    project.fileSchema(file);
    project.release(file);
  }
  const trees: WeakRef<object>[] = [];
  let findings = 0;
  for (const file of Object.keys(files)) {
    trees.push(new WeakRef(project.parse(file)));
    findings += project.lint(file).length;
    project.release(file, { findings: true });
  }
  if (findings === 0) throw new Error('the workspace gave no findings: the rules did not run');
  await collect();
  const alive = trees.filter((t) => t.deref() !== undefined).length;
  // Held to here: the trees must go while the Project and its tables stay.
  if (!project.schema().tablesByName.size) throw new Error('no tables');
  return { trees: trees.length, alive };
}

void (async () => {
  const twice = process.argv.includes('twice');
  // Four files: the generated file cut at statements into parts, so references cross files.
  const { text } = generateAnalysisFile(4_000);
  const statements = text.split(/(?<=;)\n/);
  const files: Record<string, string> = {};
  const parts = 4;
  for (let i = 0; i < parts; i++) {
    files[`${ROOT}/part-${i}.cql`] = statements.filter((_, n) => n % parts === i).join('\n');
  }
  if (process.argv.includes('released')) {
    process.stdout.write(`${JSON.stringify(await releasedTrees(files))}\n`);
    return;
  }
  // Warm the module-level state that is not the Project's (the parser, the lexer, the rule table), so the
  // heap before is measured with it.
  const warm = buildAndLint(files);
  const heapBeforeMB = await collect();
  const warmAlive = warm.project.deref() !== undefined;
  const watched = buildAndLint(files);
  const second = twice ? buildAndLint(files) : undefined;
  const heapAfterMB = await collect();
  const all = [watched, ...(second ? [second] : [])];
  const alive = {
    projects: all.filter((w) => w.project.deref() !== undefined).length + (warmAlive ? 1 : 0),
    tables: all.reduce((n, w) => n + w.tables.filter((t) => t.deref() !== undefined).length, 0),
    warmTables: warm.tables.filter((t) => t.deref() !== undefined).length,
  };
  process.stdout.write(
    `${JSON.stringify({ tables: watched.tables.length, alive, heapBeforeMB, heapWithMB: watched.heapWithMB, heapAfterMB })}\n`,
  );
})();
