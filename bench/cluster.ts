// Linting with the cluster's yaml configured costs nothing worth measuring: the corpus files linted by a
// fresh Project each run, without a cluster setting (the version's defaults) and with the 5.0 fixture yaml
// (every guardrail set, test/fixtures/cluster/cassandra-5.0.yaml), interleaved so that the machine's load
// falls on both alike. CPU time per run (the development VM is shared); the ratio is the figure to watch.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from '../server/core/engine/project';
import { readClusterYaml } from '../server/core/cluster';
import { corpusFiles } from './corpus';
import { benchRuns, cpuMs, formatSpread, spread } from './stats';

const YAML = join(__dirname, '..', 'test', 'fixtures', 'cluster', 'cassandra-5.0.yaml');

export async function runClusterBench(): Promise<void> {
  const files = corpusFiles().map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const yaml = readClusterYaml(readFileSync(YAML, 'utf8'), YAML, 'cassandra-5.0.yaml');
  const lintAll = (withYaml: boolean): number =>
    cpuMs(() => {
      const project = new Project({
        config: withYaml ? { cluster: { config: yaml.file, name: yaml.name } } : {},
        clusterFile: (file) => (file === yaml.file ? yaml : undefined),
      });
      for (const { file, text } of files) project.setFile(file, text);
      for (const { file } of files) project.lint(file);
    });
  lintAll(false);
  lintAll(true);
  const without: number[] = [];
  const withYaml: number[] = [];
  for (let i = 0; i < benchRuns(7); i++) {
    without.push(lintAll(false));
    withYaml.push(lintAll(true));
  }
  const a = spread(without);
  const b = spread(withYaml);
  console.log(`cluster: ${files.length} corpus files linted, defaults: ${formatSpread(a, 'ms CPU', 0)}`);
  console.log(`cluster: the same with a cassandra.yaml setting every guardrail: ${formatSpread(b, 'ms CPU', 0)}`);
  console.log(
    `cluster: with the yaml / without: ${(b.median / a.median).toFixed(2)}x (aim: 1.00, within the runs' spread)`,
  );
}

if (require.main === module) void runClusterBench();
