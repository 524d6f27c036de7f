// The cqlint commands of the recipes the docs give, one JSON object a line ({ recipe, command }), for
// scripts/ci/install-checks.sh to run against a broken .cqlint.json (each must fail its job): the `run:` steps
// of docs/ci/github-actions.yml, the `script:` lines of docs/ci/gitlab-ci.yml, and from docs/install.md (and
// docs/ci.md when there is one) the shell blocks' and inline commands and the npm scripts of its JSON blocks
// (run as `npm run <name>`). Only commands that run cqlint are taken. Exits 1 when a recipe yields none.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runsCqlint = (command) => /\bcqlint\b/.test(command) && !/^npm (ci|install)\b/.test(command);

/** `run:` of every step (GitHub Actions) and `script:` lines of every job (GitLab CI). */
function yamlCommands(file) {
  const doc = YAML.parse(readFileSync(file, 'utf8')) ?? {};
  const commands = [];
  const jobs = doc.jobs ?? doc;
  for (const job of Object.values(jobs)) {
    if (!job || typeof job !== 'object') continue;
    for (const step of job.steps ?? []) if (typeof step?.run === 'string') commands.push(step.run.trim());
    for (const line of [].concat(job.script ?? [])) if (typeof line === 'string') commands.push(line.trim());
  }
  return commands.filter(runsCqlint);
}

/** Shell lines of ```sh blocks, `npx cqlint ...` inline code, and npm scripts of ```json blocks, in a markdown page. */
function markdownCommands(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const [, lang, body] of text.matchAll(/```(\w*)\n([\s\S]*?)```/g)) {
    if (lang === 'sh' || lang === 'bash') {
      for (const line of body.split('\n')) {
        const command = line.replace(/\s+#.*$/, '').trim();
        if (command && runsCqlint(command) && !/cqlint --version|command -v/.test(command)) out.push({ command });
      }
    } else if (lang === 'json') {
      let parsed;
      try {
        parsed = JSON.parse(body);
      } catch {
        continue;
      }
      for (const [name, script] of Object.entries(parsed?.scripts ?? {}))
        if (runsCqlint(script)) out.push({ command: `npm run ${name}`, script: { name, value: script } });
    }
  }
  const prose = text.replace(/```[\s\S]*?```/g, '');
  for (const [, command] of prose.matchAll(/`(npx cqlint [^`]+)`/g))
    if (!command.includes('...')) out.push({ command });
  return out;
}

const recipes = [];
const ci = join(root, 'docs', 'ci');
for (const name of existsSync(ci)
  ? readdirSync(ci)
      .filter((n) => /\.ya?ml$/.test(n))
      .sort()
  : []) {
  recipes.push({ recipe: `docs/ci/${name}`, commands: yamlCommands(join(ci, name)).map((command) => ({ command })) });
}
for (const page of ['docs/install.md', 'docs/ci.md']) {
  if (existsSync(join(root, page))) recipes.push({ recipe: page, commands: markdownCommands(join(root, page)) });
}
let empty = false;
for (const { recipe, commands } of recipes) {
  if (!commands.length) {
    process.stderr.write(`${recipe}: no cqlint command found\n`);
    empty = true;
  }
  for (const entry of commands) process.stdout.write(`${JSON.stringify({ recipe, ...entry })}\n`);
}
process.exit(empty ? 1 : 0);
