import { generateAnalysisFile } from './analysis';
import { Project } from '../server/core/project';
const work = generateAnalysisFile();
const file = '/tmp/bench.cql';
const project = new Project({ config: {} });
let text = work.text;
project.setFile(file, text);
project.lint(file);
const lines = text.split('\n');
const t0 = performance.now();
for (let i = 0; i < 200; i++) {
  const n = work.editableLines[i % work.editableLines.length]!;
  lines[n] = lines[n]!.replace(/'v\d+'/, `'v${i}x'`);
  text = lines.join('\n');
  project.setFile(file, text);
  project.lint(file);
}
console.log('per re-lint', ((performance.now() - t0) / 200).toFixed(1), 'ms');
