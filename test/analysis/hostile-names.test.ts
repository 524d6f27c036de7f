// Every rule's invalid examples again, with hostile names: each keyspace, table and column the example
// defines becomes a quoted identifier starting with markdown (a backtick, an image, a link, a pipe), and
// each evidence file's name and node too. A finding's details are markdown (the hover, SARIF's
// message.markdown, JSON details): a name interpolated raw into them would render as an image fetched
// from anywhere or a link re-targeted. Outside code spans, the markup must stay escaped text; this fails
// for any rule (or helper) that interpolates a name raw, whoever writes it next.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lexCql, keywordType } from '../../grammar/lexer';
import { allRules } from '../../server/core/rules';
import type { ExampleCase } from '../../server/core/rules/types';
import { exampleProject, mainOf, projectWith } from './helpers';
import { ruleExamples } from '../helpers/rule-modules';
import { outsideCodeSpans } from '../helpers/markdown';

/** Markdown a name may carry: no word characters (the workload model reads names by their words). */
const HOSTILE = '`![_](/)|[_](/)';
/** What of HOSTILE shows the markup raw, outside code spans: an image or a link not escaped. */
const RAW_MARKUP = /(?<!\\)!?(?<!\\)\[_(?<!\\)\]\(\/\)/;

/** The names an example defines (keyspaces, tables, columns), lower case. */
function definedNames(c: ExampleCase): Set<string> {
  const project = projectWith(c.code, c.files ?? {});
  const names = new Set<string>();
  for (const table of project.schema().allTables()) {
    if (table.keyspace) names.add(table.keyspace.toLowerCase());
    names.add(table.name.toLowerCase());
    for (const column of table.columns) names.add(column.name.toLowerCase());
  }
  return names;
}

/**
 * `text` with each plain identifier in `names` made a quoted hostile name, in the statements and in the
 * comments that name columns (`-- @shard`, `-- @cqlint` hints).
 */
function renamed(text: string, names: ReadonlySet<string>): string {
  const quoted = (word: string): string => `"${HOSTILE}${word}"`;
  let out = '';
  let at = 0;
  const { tokens, comments } = lexCql(text);
  for (const token of [...tokens, ...comments].sort((a, b) => a.startOffset - b.startOffset)) {
    const end = token.startOffset + token.image.length;
    let replacement: string | undefined;
    if (token.tokenType.name === 'Identifier') {
      const word = token.image.toLowerCase();
      if (!keywordType(word) && names.has(word)) replacement = quoted(word);
    } else if (token.image.startsWith('--')) {
      replacement = token.image.replace(/(?<![@\w])[A-Za-z][A-Za-z0-9_]*/g, (word) =>
        names.has(word.toLowerCase()) ? quoted(word.toLowerCase()) : word,
      );
    }
    if (replacement === undefined) continue;
    out += `${text.slice(at, token.startOffset)}${replacement}`;
    at = end;
  }
  return out + text.slice(at);
}

/** The example with hostile names; names its evidence, samples or config refer to are left as they are. */
export function hostile(c: ExampleCase): ExampleCase {
  const names = definedNames(c);
  const csv = typeof c.sample?.csv === 'function' ? c.sample.csv().slice(0, 10_000) : (c.sample?.csv ?? '');
  const mentioned = JSON.stringify([c.evidence ?? {}, c.config ?? {}, c.sample?.table ?? '', csv]).toLowerCase();
  for (const name of [...names]) if (mentioned.includes(name)) names.delete(name);
  const evidence =
    c.evidence &&
    Object.fromEntries(
      Object.entries(c.evidence).map(([name, text]) => [
        `${HOSTILE}${name}`,
        text.replace(/^# node: (.*)$/m, `# node: ${HOSTILE}$1`),
      ]),
    );
  return {
    ...c,
    code: renamed(c.code, names),
    ...(c.files
      ? { files: Object.fromEntries(Object.entries(c.files).map(([file, text]) => [file, renamed(text, names)])) }
      : {}),
    ...(evidence ? { evidence } : {}),
  };
}

describe('names interpolated into findings stay text in their markdown', () => {
  for (const rule of allRules) {
    const id = rule.meta.id;
    test(id, async () => {
      let fired = 0;
      for (const example of ruleExamples[id]!.invalid) {
        const project = await exampleProject(hostile(example));
        for (const finding of project.lint(mainOf(example))) {
          if (finding.ruleId === id) fired++;
          const prose = outsideCodeSpans(finding.details ?? '');
          assert.doesNotMatch(
            prose,
            RAW_MARKUP,
            `${finding.ruleId} (an example of ${id}) interpolates a name raw into its details:\n${finding.details}`,
          );
        }
      }
      assert.ok(
        fired > 0 || UNREACHED.has(id),
        `no invalid example of ${id} fires once its names are hostile: add one that does`,
      );
    });
  }
});

/** Rules none of whose examples can carry a hostile name (their findings name nothing the user wrote). */
const UNREACHED = new Set<string>([]);
