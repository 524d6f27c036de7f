// What an analysis reports, independent of how it is shown (LSP diagnostic, CLI line, SARIF result).
import type { SourceRange } from '../../../grammar/ast';
import type { LocatedRange, SourcePositions } from '../../../grammar/line-index';

export type Severity = 'error' | 'warning' | 'info';

/** The values of a message template's `{{placeholders}}`, by name. */
export type MessageValues = Readonly<Record<string, string | number>>;

/** Another place that explains a finding, e.g. where the table a query uses is defined. */
interface RelatedLocation<R> {
  /** Absolute file path. */
  filePath: string;
  range: R;
  message: string;
}

interface FindingWith<R> {
  /** Stable rule id (`syntax-error`, `hot-partition`, ...): the diagnostic code, CLI ruleId and suppression name. */
  ruleId: string;
  severity: Severity;
  /**
   * The headline: what is wrong and where, in at most about 100 characters, for someone who is not a
   * Cassandra expert. The LSP diagnostic's message, the CLI's row, ESLint JSON's and SARIF's message.
   */
  message: string;
  /**
   * Which of the rule's declared messages (RuleMeta.messages) the headline is: stable where the wording is
   * not (ESLint JSON's `messageId`, SARIF's `message.id`, the LSP diagnostic's `data.messageId`).
   */
  messageId: string;
  /** The values the message's template placeholders were filled with (SARIF's `message.arguments`). */
  values?: MessageValues;
  /**
   * The rest: the figures, the cure and the sources, as markdown (code spans, links; it reads as plain text
   * too). Shown under the headline by stylish output, in the hover, as JSON `details` and SARIF
   * `message.markdown`.
   */
  details?: string;
  range: R;
  related?: RelatedLocation<R>[];
  /** Rule-specific facts a quick fix needs (e.g. the table name, the suggested column); JSON-serialisable. */
  data?: Record<string, unknown>;
}

/** A finding with its lines and columns, as the CLI and the language server show it. */
export type Finding = FindingWith<LocatedRange>;

/** A finding as a rule reports it: its ranges (and those in `data`) are the AST's offsets; the rule runner locates them. */
export type OffsetFinding = FindingWith<SourceRange>;

/**
 * A file's findings with lines and columns, from the line indexes of the texts as they are now: `lines` for the
 * file's own ranges, `linesOf` for a related location in another file. Findings are kept with offsets and
 * located when asked for, since a lint result stands while an edit elsewhere (a comment above a table)
 * moves the definitions it points at. A related location in a file with no text is left out, not misplaced.
 */
export function locateFindings(
  findings: readonly OffsetFinding[],
  filePath: string,
  lines: SourcePositions,
  linesOf: (filePath: string) => SourcePositions | undefined,
): Finding[] {
  return findings.map((finding) => {
    // A spread with the range replaced (V8 copies such a literal fast; a rest pattern is several times slower).
    const located = { ...finding, range: lines.locate(finding.range) } as Finding;
    const related = finding.related;
    if (related) {
      located.related = [];
      for (const r of related) {
        const there = r.filePath === filePath ? lines : linesOf(r.filePath);
        if (there) located.related.push({ ...r, range: there.locate(r.range) });
      }
    } else if ('related' in located) delete located.related; // reported as `related: undefined`
    return located;
  });
}

/** A headline's length in characters, at most (about: a table name can make one a little longer). */
export const HEADLINE_CHARS = 100;

/**
 * A message composed elsewhere as one sentence (a parser's error, a formula check), as a headline and
 * details: when it is longer than a headline may be, it is cut at its first `: ` or `; ` that leaves a
 * headline of 10 to HEADLINE_CHARS characters, and what follows becomes the details. Shorter messages,
 * and those without such a place, stay whole.
 */
export function headlineAndDetails(text: string): { message: string; details?: string } {
  if (text.length <= HEADLINE_CHARS) return { message: text };
  const cut = /[:;] /g;
  for (let m = cut.exec(text); m && m.index <= HEADLINE_CHARS; m = cut.exec(text)) {
    if (m.index < 10) continue;
    const rest = text.slice(m.index + 2);
    return {
      message: text.slice(0, m.index),
      details: `${rest[0]!.toUpperCase()}${rest.slice(1)}${/[.?!)]$/.test(rest) ? '' : '.'}`,
    };
  }
  return { message: text };
}

/** The id of the report of a suppression comment that silenced nothing (ESLint's unused eslint-disable directive). */
export const UNUSED_DIRECTIVE_ID = 'unused-disable-directive';

/** What the unused-directive report catches, in one line (SARIF's rule description). */
export const UNUSED_DIRECTIVE_DESCRIPTION =
  'A cqlint-disable, cqlint-disable-line or cqlint-disable-next-line comment that silences no finding.';

/** Where a rule's docs page lives; the file is docs/rules/<id>.md in the repository. */
const DOCS_BASE_URL = 'https://github.com/cqlint/cqlint/blob/main/docs/rules/';

export function docsUrl(ruleId: string): string {
  // The report of a suppression comment that silences nothing is no rule: its page is the suppressions page.
  if (ruleId === UNUSED_DIRECTIVE_ID)
    return `${DOCS_BASE_URL.replace(/rules\/$/, '')}suppressions.md#unused-directives`;
  return `${DOCS_BASE_URL}${ruleId}.md`;
}
