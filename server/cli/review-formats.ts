// Where reviewers look: `--format github` (GitHub Actions workflow commands, which the runner turns into
// annotations on the pull request's diff) and `--format markdown` (a job summary or a pull-request comment
// body, with each finding's figures). Both take hostile text (a table name, a file name, a message) and keep
// it text: the runner's escaping for the one, markdown and HTML escaping for the other, and both stay
// within GitHub's limits, saying so when they cut.
import * as path from 'node:path';
import type { Finding, Severity } from '../core/findings/findings';
import { docsUrl } from '../core/findings/findings';
import { markdownText } from '../core/util/markdown';
import { detailsLines } from './details-text';
import { terminalText } from './terminal';

/** What these writers read of a linted file (formatters.ts FileResult has it). */
interface ReviewResult {
  filePath: string;
  findings: readonly Finding[];
}

interface Sink {
  write(text: string): unknown;
}

interface Writer {
  file(result: ReviewResult): void;
  end(): void;
}

/** A file as a repository-relative path ('/'-separated) when it is under the working directory, else as it is. */
function shownPath(filePath: string, cwd: string): string {
  const relative = path.relative(cwd, filePath);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative)
    ? relative.split(path.sep).join('/')
    : filePath;
}

/** `text` cut to at most `max` characters, with an ellipsis when cut (never inside a surrogate pair). */
function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  if (/[\uD800-\uDBFF]/.test(text[cut - 1] ?? '')) cut--;
  return `${text.slice(0, cut)}…`;
}

// ---------------------------------------------------------------------------------------------
// github: ::error file=…,line=…,endLine=…,col=…,endColumn=…,title=…::message

/** The runner's escaping of a command's data (what follows `::`): %, CR and LF. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** The runner's escaping of a property value: the data's, and `:` and `,`, which end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const ANNOTATION_LEVEL: Record<Severity, 'error' | 'warning' | 'notice'> = {
  error: 'error',
  warning: 'warning',
  info: 'notice',
};

/** GitHub shows at most this many annotations of each level from one step (and 50 from a job). */
export const ANNOTATIONS_PER_LEVEL = 10;
/** An annotation's message at most (its headline and details); GitHub keeps a short message whole. */
export const ANNOTATION_MESSAGE_CHARS = 4000;
const TITLE_CHARS = 255;

/**
 * One annotation a finding, up to ANNOTATIONS_PER_LEVEL of each level (notices: one less, for the closing
 * notice); the rest as plain log lines, never lost, and a closing notice that says how many were not annotated.
 */
export function githubWriter(out: Sink, cwd: string): Writer {
  const written: Record<'error' | 'warning' | 'notice', number> = { error: 0, warning: 0, notice: 0 };
  let over = 0;
  // Control characters other than line breaks are shown escaped (terminal.ts); line breaks become %0D %0A.
  const write = (line: string): unknown => out.write(`${terminalText(line, true)}\n`);
  return {
    file(result) {
      const file = shownPath(result.filePath, cwd);
      for (const finding of result.findings) {
        const level = ANNOTATION_LEVEL[finding.severity] ?? 'warning';
        const cap = level === 'notice' ? ANNOTATIONS_PER_LEVEL - 1 : ANNOTATIONS_PER_LEVEL;
        const { start, end } = finding.range;
        if (written[level] >= cap) {
          over++;
          // Not a workflow command: a line that starts with `cqlint:` is never one, whatever the message holds.
          write(
            `cqlint: ${file}:${start.line}:${start.column}: ${level}: ${finding.message.replace(/\s*[\r\n]+\s*/g, ' ')} (${finding.ruleId})`,
          );
          continue;
        }
        written[level]++;
        const details = finding.details
          ? `\n\n${detailsLines(finding.details, Number.MAX_SAFE_INTEGER).join('\n')}`
          : '';
        // Control characters shown escaped before the message is bounded (the bound is what is shown).
        const shown = `${finding.message}${details}\n\n${docsUrl(finding.ruleId)}`.replace(/[^\r\n]+/g, (line) =>
          terminalText(line),
        );
        const message = bounded(shown, ANNOTATION_MESSAGE_CHARS);
        const properties = [
          `file=${escapeProperty(file)}`,
          `line=${start.line}`,
          `endLine=${end.line}`,
          `col=${start.column}`,
          `endColumn=${end.column}`,
          `title=${escapeProperty(bounded(`cqlint ${finding.ruleId}`, TITLE_CHARS))}`,
        ];
        write(`::${level} ${properties.join(',')}::${escapeData(message)}`);
      }
    },
    end() {
      if (!over) return;
      const plural = over === 1 ? 'finding is' : 'findings are';
      write(
        `::notice title=cqlint::${escapeData(`${over} more ${plural} not annotated (GitHub shows at most ${ANNOTATIONS_PER_LEVEL} errors, ${ANNOTATIONS_PER_LEVEL} warnings and ${ANNOTATIONS_PER_LEVEL} notices of a step, and 50 of a job): they are listed in this step's log, each on a line that starts with "cqlint:".`)}`,
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// markdown: a job summary or a pull-request comment

/** A pull-request comment holds at most 65,536 characters (a job summary 1 MiB): the output stays within both. */
export const MARKDOWN_CHARS = 65_536;
/** A finding's details at most, in its section (cut at a paragraph). */
const SECTION_DETAILS_CHARS = 6000;
/** Room kept for the truncation note. */
const NOTE_ROOM = 400;

const SEVERITY_MARK: Record<Severity, string> = { error: '🔴 error', warning: '🟡 warning', info: '🔵 info' };

/**
 * Markdown written by cqlint (a finding's details), made safe to paste: raw HTML is shown as text (a `<`
 * outside code spans and not already escaped becomes `&lt;`), and it is cut at a paragraph to `max`.
 */
export function safeDetails(markdown: string, max: number): string {
  const safe = markdown.replace(/(`+)[\s\S]*?\1|\\[\s\S]|</g, (piece) => (piece === '<' ? '&lt;' : piece));
  if (safe.length <= max) return safe;
  let kept = '';
  for (const paragraph of safe.split(/\n\s*\n/)) {
    if (kept.length + paragraph.length + 2 > max) break;
    kept += `${kept ? '\n\n' : ''}${paragraph}`;
  }
  return `${kept}${kept ? '\n\n' : ''}_(details cut: \`cqlint lint\` shows them whole)_`;
}

/**
 * A summary line, a table of every finding (severity, file and line, rule with its docs link, headline),
 * then a section per finding with its figures. Written at the end, within MARKDOWN_CHARS: rows first, then
 * sections, each whole or not at all, and a closing note saying what was left out.
 */
export function markdownWriter(out: Sink, cwd: string): Writer {
  const rows: string[] = [];
  const sections: string[] = [];
  let rowsSize = 0;
  let sectionsSize = 0;
  let findings = 0;
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  return {
    file(result) {
      const file = shownPath(result.filePath, cwd);
      for (const finding of result.findings) {
        findings++;
        counts[finding.severity] = (counts[finding.severity] ?? 0) + 1;
        // What cannot fit is only counted: the output is bounded, and so is what is kept for it.
        if (rowsSize > MARKDOWN_CHARS) continue;
        const where = `${markdownText(file)}:${finding.range.start.line}:${finding.range.start.column}`;
        const rule = `[${markdownText(finding.ruleId)}](${encodeURI(docsUrl(finding.ruleId))})`;
        const headline = markdownText(bounded(finding.message, 300));
        const row = `| ${SEVERITY_MARK[finding.severity]} | ${where} | ${rule} | ${headline} |`;
        const section = `#### ${findings}. ${where} · ${rule}\n\n**${headline}**${finding.details ? `\n\n${safeDetails(finding.details, SECTION_DETAILS_CHARS)}` : ''}`;
        rows.push(row);
        rowsSize += row.length + 1;
        if (rowsSize + sectionsSize > MARKDOWN_CHARS) continue;
        sections.push(section);
        sectionsSize += section.length + 2;
      }
    },
    end() {
      const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
      if (!findings) {
        out.write(terminalText('### cqlint: no problems\n'));
        return;
      }
      const head = `### cqlint: ${plural(findings, 'problem')} (${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}${counts.info ? `, ${counts.info} info` : ''})\n\n| severity | where | rule | problem |\n| --- | --- | --- | --- |\n`;
      let text = head;
      const budget = MARKDOWN_CHARS - NOTE_ROOM;
      let rowsShown = 0;
      for (const row of rows) {
        if (text.length + row.length + 1 > budget) break;
        text += `${row}\n`;
        rowsShown++;
      }
      let sectionsShown = 0;
      if (rowsShown === findings) {
        text += '\n';
        for (const section of sections) {
          if (text.length + section.length + 2 > budget) break;
          text += `${section}\n\n`;
          sectionsShown++;
        }
      }
      if (rowsShown < findings || sectionsShown < findings) {
        const left =
          rowsShown < findings
            ? `${plural(findings - rowsShown, 'finding')} more, and the figures of every finding, are not shown`
            : `the figures of ${plural(findings - sectionsShown, 'finding')} are not shown`;
        text += `\n> [!NOTE]\n> Truncated to fit GitHub's limit of ${MARKDOWN_CHARS.toLocaleString('en-US')} characters for a comment: ${left}. \`cqlint lint\` lists them all.\n`;
      }
      out.write(terminalText(text));
    },
  };
}
