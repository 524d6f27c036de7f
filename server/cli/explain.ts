// `cqlint explain <rule>`: the rule's documentation page (docs/rules/<rule>.md, bundled into the CLI) in the
// terminal. An unknown rule is exit 2 with the rule names closest to it.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { allRules } from '../core/rules';
import { UNUSED_DIRECTIVE_ID, docsUrl } from '../core/findings/findings';
import { editDistance } from '../core/util/edit-distance';
import { EXIT, UsageError, parseCommandArgs, type CliIO } from './io';
import { HELP_OPTION, commandHelp, type CliOptions, type CommandSpec } from './options';
import { terminalStream } from './terminal';
import { bundledRuleDocs } from './rule-docs-data';

const EXPLAIN_OPTIONS = {
  ...HELP_OPTION,
} satisfies CliOptions;

export const EXPLAIN_COMMAND: CommandSpec = {
  name: 'explain',
  summary: "print a rule's documentation (what it catches, how it decides, how to fix it)",
  usage: ['<rule>'],
  description: `Prints the documentation page of a rule (the one its findings link to) in the terminal: its messages, what
it catches, how it decides and its fixes. The pages are part of the CLI: no network and no checkout needed.`,
  options: EXPLAIN_OPTIONS,
  exitStatus: '0 the page was printed, 2 no rule or an unknown rule (the closest rule names are listed).',
};

/** A page as terminal text: generated-block markers dropped, links as `text (url)` with relative ones made absolute. */
export function terminalPage(markdown: string, ruleId: string): string {
  const base = docsUrl(ruleId);
  return markdown
    .replace(/<!--[\s\S]*?-->\n?/g, '')
    .replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_, text: string, url: string) => {
      const absolute = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : new URL(url, base).href;
      return `${text} (${absolute})`;
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .concat('\n');
}

/**
 * Finding ids that are no rule but have a page: an unused suppression comment's report is explained by the
 * suppressions page (the page its findings link to). scripts/build.mjs bundles it under the same id.
 */
const PAGES_OF_OTHER_IDS: Readonly<Record<string, string>> = { [UNUSED_DIRECTIVE_ID]: 'suppressions.md' };

/** An id's page: the bundled one, else the checkout's docs/rules (or docs/, for the ids above) when run from the sources. */
function rulePage(ruleId: string): string | undefined {
  const bundled = bundledRuleDocs();
  if (bundled) return Object.prototype.hasOwnProperty.call(bundled, ruleId) ? bundled[ruleId] : undefined;
  const docs = path.resolve(__dirname, '..', '..', 'docs');
  const other = PAGES_OF_OTHER_IDS[ruleId];
  try {
    return readFileSync(other ? path.join(docs, other) : path.join(docs, 'rules', `${ruleId}.md`), 'utf8');
  } catch {
    return undefined;
  }
}

/** The rule ids closest to `word`: those within a third of its length in edits, or sharing a word of it, at most 5. */
export function closeRuleIds(word: string, ids: readonly string[]): string[] {
  const lower = word.toLowerCase();
  const parts = lower.split(/[^a-z0-9]+/).filter((p) => p.length >= 3);
  return ids
    .map((id) => ({ id, distance: editDistance(lower, id) }))
    .filter(
      ({ id, distance }) => distance <= Math.max(2, Math.floor(id.length / 3)) || parts.some((p) => id.includes(p)),
    )
    .sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : 1))
    .slice(0, 5)
    .map(({ id }) => id);
}

export async function runExplainCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(args, EXPLAIN_OPTIONS);
  if (parsed.values.help) {
    io.stdout.write(commandHelp(EXPLAIN_COMMAND));
    return EXIT.ok;
  }
  if (parsed.positionals.length !== 1)
    throw new UsageError(
      parsed.positionals.length ? 'one rule at a time' : 'which rule? e.g. cqlint explain hot-partition',
    );
  const wanted = parsed.positionals[0]!;
  const ids = [...allRules.map((rule) => rule.meta.id), ...Object.keys(PAGES_OF_OTHER_IDS)].sort();
  const id = ids.find((candidate) => candidate === wanted.toLowerCase());
  const page = id === undefined ? undefined : rulePage(id);
  if (id === undefined || page === undefined) {
    const close = closeRuleIds(wanted, ids);
    const list = close.length
      ? `did you mean ${close.map((c) => `"${c}"`).join(', ')}?`
      : `the rules are: ${ids.join(', ')}`;
    io.stderr.write(
      `cqlint explain: ${id === undefined ? `unknown rule "${wanted}"` : `no documentation page for "${id}"`}; ${list}\n`,
    );
    return EXIT.failure;
  }
  terminalStream(io.stdout).write(terminalPage(page, id));
  return EXIT.ok;
}
