const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
import { generateAnalysisFile } from './analysis';
import { Project } from '../server/core/project';
const work = generateAnalysisFile();
const file = '/tmp/bench.cql';
const full: number[] = [];
for (let i = 0; i < 15; i++) {
  const t = cpu();
  const p = new Project({ config: {} });
  p.setFile(file, work.text);
  p.lint(file);
  full.push(cpu() - t);
}
const project = new Project({ config: {} });
let text = work.text;
project.setFile(file, text);
project.lint(file);
const lines = text.split('\n');
const re: number[] = [];
for (let i = 0; i < 100; i++) {
  const n = work.editableLines[i % work.editableLines.length]!;
  lines[n] = lines[n]!.replace(/'v\d+'/, `'v${i}x'`);
  text = lines.join('\n');
  const t = cpu();
  project.setFile(file, text);
  project.lint(file);
  re.push(cpu() - t);
}
const q = (a: number[], p: number) => a.slice().sort((x, y) => x - y)[Math.floor(p * (a.length - 1))]!.toFixed(1);
console.log(`full min ${q(full, 0)} p25 ${q(full, 0.25)} | relint min ${q(re, 0)} p25 ${q(re, 0.25)} med ${q(re, 0.5)}`);
