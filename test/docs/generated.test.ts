// The schema's rule section, the docs pages' header blocks and the README rule table are generated from
// rule metadata and the README's command reference from the CLI's option declarations
// (scripts/generate-docs.ts); like rust-analyzer's generated-config check, this fails
// while any of them is stale and says which command brings them up to date.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLI_GENERATED_START,
  GENERATE_COMMAND,
  GENERATED_END,
  GENERATED_START,
  LSP_EXTENSIONS_MODULE,
  docsHeader,
  generatedFiles,
  readmeCommandReference,
  staleFiles,
  withDocsHeader,
} from '../../scripts/generate-docs';
import { TEXTMATE_GRAMMAR_PATH } from '../../scripts/generate-textmate';
import { commands } from '../../server/cli/main';
import { optionLabel } from '../../server/cli/options';
import { runCli } from '../cli/helpers';
import { allRules, ruleById } from '../../server/core/rules';
import { projectRoot } from '../helpers/corpus';

/** What generatedFiles reads, copied into `root`. */
function copyGeneratedInputs(root: string): void {
  for (const path of [
    'schemas',
    'docs/rules',
    'README.md',
    'docs/lsp-extensions.md',
    'docs/guardrails.md',
    LSP_EXTENSIONS_MODULE,
    TEXTMATE_GRAMMAR_PATH,
  ]) {
    cpSync(join(projectRoot, path), join(root, path), { recursive: true });
  }
}

describe('generated docs, schema and README', () => {
  test('are up to date with the rule metadata', () => {
    const stale = staleFiles(projectRoot);
    assert.deepEqual(
      stale,
      [],
      `stale generated text in ${stale.join(', ')}: run \`${GENERATE_COMMAND}\` and commit the result`,
    );
  });

  test('cover every rule: a page header, a schema entry with its options, a README row', () => {
    const files = new Map(generatedFiles(projectRoot).map((f) => [f.path, f.content]));
    const schema = JSON.parse(files.get('schemas/cqlint.schema.json')!);
    const readme = files.get('README.md')!;
    for (const { meta } of allRules) {
      const page = files.get(`docs/rules/${meta.id}.md`)!;
      assert.ok(
        page.startsWith(`${GENERATED_START}\n# ${meta.id}\n`),
        `${meta.id}: the page starts with its generated header`,
      );
      const options = Object.keys(meta.options ?? {});
      for (const o of options)
        assert.match(
          page.slice(0, page.indexOf(GENERATED_END)),
          new RegExp(`- \`${o}\` `),
          `${meta.id}: option ${o} in the header`,
        );
      if (!options.length) assert.match(page, /\*\*Options:\*\* none\./);
      const entry = schema.properties.rules.properties[meta.id];
      assert.deepEqual(
        Object.keys(entry.oneOf[1].prefixItems[1].properties ?? {}),
        options,
        `${meta.id}: schema options`,
      );
      assert.ok(readme.includes(`| [\`${meta.id}\`](docs/rules/${meta.id}.md) |`), `${meta.id}: README row`);
    }
  });

  test('the page body below the header is kept, and regenerating changes nothing', () => {
    const meta = ruleById('large-in-partition-key')!.meta;
    const body = '**Data:** `{ table }`\n\n## What it catches\nSomething edited by hand.\n';
    const handWritten = `# large-in-partition-key\n\n**Default:** warning · **Options:** none · **Data:** \`{ table }\`\n\n## What it catches\nSomething edited by hand.\n`;
    const once = withDocsHeader(handWritten, meta);
    assert.equal(once, `${docsHeader(meta)}\n\n${body}`);
    assert.equal(withDocsHeader(once, meta), once);
    const edited = once.replace('Something edited by hand.', 'Edited again, below the header.');
    assert.equal(withDocsHeader(edited, meta), edited);
    assert.match(once, /- `maxPartitions` \(number ≥ 1, default `10`\): /);
  });

  test('staleFiles names what a hand edit or a metadata change made stale', () => {
    const root = mkdtempSync(join(tmpdir(), 'cqlint-generated-'));
    try {
      copyGeneratedInputs(root);
      assert.deepEqual(staleFiles(root), []);
      const page = join(root, 'docs/rules/allow-filtering.md');
      writeFileSync(
        page,
        readFileSync(page, 'utf8').replace('**Default severity:** warning', '**Default severity:** error'),
      );
      const readme = join(root, 'README.md');
      writeFileSync(readme, readFileSync(readme, 'utf8').replace(/^\| \[`invalid-shard-annotation`\].*\n/m, ''));
      const grammar = join(root, TEXTMATE_GRAMMAR_PATH);
      writeFileSync(grammar, readFileSync(grammar, 'utf8').replace('|norecursive|', '|'));
      assert.deepEqual(staleFiles(root), ['docs/rules/allow-filtering.md', 'README.md', TEXTMATE_GRAMMAR_PATH]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the README's command reference", () => {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const block = readme.slice(
    readme.indexOf(CLI_GENERATED_START),
    readme.indexOf(GENERATED_END, readme.indexOf(CLI_GENERATED_START)),
  );

  test('is the one generated from the commands the CLI runs, option for option', async () => {
    assert.ok(
      readme.includes(readmeCommandReference()),
      `the README's command reference is stale: run \`${GENERATE_COMMAND}\``,
    );
    for (const [name, command] of Object.entries(commands)) {
      assert.equal(command.spec.name, name);
      assert.match(block, new RegExp(`#### \`cqlint ${name}\``), `${name} has a section`);
      const help = await runCli([name, '--help']);
      assert.equal(help.code, 0, `${name} --help`);
      for (const [option, spec] of Object.entries(command.spec.options)) {
        const label = optionLabel(option, spec).trim();
        assert.ok(block.includes(`| \`${label}\` |`), `${name} ${label} is in the README`);
        assert.ok(help.stdout.includes(label), `${name} ${label} is in --help`);
        // The parser takes what the reference lists: never "Unknown option".
        const run = await runCli([name, `--${option}`, ...(spec.type === 'string' ? ['x'] : [])]);
        assert.doesNotMatch(run.stderr, /Unknown option/, `${name} --${option} is parsed`);
      }
    }
  });

  test('an option edited by hand in the README makes it stale', () => {
    const root = mkdtempSync(join(tmpdir(), 'cqlint-generated-'));
    try {
      copyGeneratedInputs(root);
      writeFileSync(join(root, 'README.md'), readme.replace('| `--no-config` | Ignore .cqlint.json files |\n', ''));
      assert.deepEqual(staleFiles(root), ['README.md']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the README's Quick start", () => {
  test('shows the output of a real `cqlint lint examples/` (the checkout path shortened)', async () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const quick = readme.slice(readme.indexOf('## Quick start'));
    const shown = /```\n(\/path\/to\/cqlint\/[\s\S]*?)```/.exec(quick)?.[1];
    assert.ok(shown, 'the Quick start shows an output block');
    const run = await runCli(['lint', 'examples/'], { cwd: projectRoot });
    assert.equal(run.code, 1, 'the run exits 1, as the README says');
    assert.equal(
      shown,
      run.stdout.split(projectRoot).join('/path/to/cqlint').replace(/^\n/, ''),
      "the README's Quick start output is not what `npx cqlint lint examples/` prints now: paste a real run",
    );
  });
});
