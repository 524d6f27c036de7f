// Output formats of `cqlint lint`: ESLint's stylish and JSON shapes (so existing tooling reads them)
// and SARIF 2.1.0 (GitHub code scanning and other SARIF viewers).
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding, Severity } from '../core/findings/findings';
import {
  UNUSED_DIRECTIVE_DESCRIPTION,
  UNUSED_DIRECTIVE_ID,
  docsUrl as defaultDocsUrl,
} from '../core/findings/findings';
import { detailsLines } from './details-text';
import { githubWriter, markdownWriter } from './review-formats';
import { placeholders, templateParts } from '../core/rules/messages';
import { jsonTerminalSafe, terminalText } from './terminal';
import { markdownText } from '../core/util/markdown';
import { FINGERPRINT_KEY, fingerprints } from './fingerprint';

export { detailsLines } from './details-text';

export const FORMAT_NAMES = ['stylish', 'compact', 'json', 'sarif', 'github', 'markdown'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** The findings of one linted file. */
export interface FileResult {
  /** Absolute path. */
  filePath: string;
  /** Sorted by position. */
  findings: Finding[];
  /** The text that was linted (ESLint's JSON carries it as `source` for files with problems). */
  source: string;
  /** Per finding (same order): whether `cqlint lint --fix` would fix it (ESLint's fixable counts). */
  fixable?: readonly boolean[];
  /** The fixed text, when --fix or --fix-dry-run changed the file (ESLint's `output`). */
  output?: string;
  /** Per finding (same order): its fingerprint (fingerprint.ts); computed from the cwd when left out. */
  fingerprints?: readonly string[];
}

export interface RuleDescription {
  id: string;
  defaultSeverity: Severity;
  description: string;
  docsUrl: string;
  /** The rule's headlines by message id (RuleMeta.messages): templates with `{{placeholders}}`. */
  messages?: Readonly<Record<string, string>>;
}

interface FormatContext {
  cwd: string;
  color: boolean;
  /** Stylish links each rule id to its page (an OSC 8 terminal hyperlink). */
  hyperlinks?: boolean;
  /** Width stylish output wraps details to (the terminal's; DEFAULT_COLUMNS when not a terminal). */
  columns?: number;
  /** Every rule cqlint knows (SARIF lists them). */
  rules: readonly RuleDescription[];
  toolVersion: string;
  informationUri: string;
}

/** ESLint has two levels; an info finding is reported as a warning (severity 1) and counted as one. */
function eslintSeverity(severity: Severity): 1 | 2 {
  return severity === 'error' ? 2 : 1;
}

export interface Counts {
  errorCount: number;
  warningCount: number;
}

export function countFindings(findings: readonly Finding[]): Counts {
  let errorCount = 0;
  let warningCount = 0;
  for (const finding of findings) {
    if (eslintSeverity(finding.severity) === 2) errorCount++;
    else warningCount++;
  }
  return { errorCount, warningCount };
}

/** Where a result writer writes (a CliStream, or a string collector). */
interface OutputSink {
  write(text: string): unknown;
}

/**
 * Writes results as they come, one file at a time (a run over many files never builds its whole output
 * as one string), then what only the end knows (stylish's summary, SARIF's rules and artifacts).
 */
export interface ResultWriter {
  file(result: FileResult): void;
  end(): void;
}

/**
 * The writer of a format. Text reaches a terminal escaped (terminal.ts): the text formats escape every piece
 * of a finding they print, JSON and SARIF go through jsonTerminalSafe.
 */
export function resultWriter(name: FormatName, out: OutputSink, context: FormatContext): ResultWriter {
  const json: OutputSink = { write: (text: string) => out.write(jsonTerminalSafe(text)) };
  switch (name) {
    case 'json':
      return jsonWriter(json);
    case 'sarif':
      return sarifWriter(json, context);
    case 'compact':
      return compactWriter(out);
    case 'github':
      return githubWriter(out, context.cwd);
    case 'markdown':
      return markdownWriter(out, context.cwd);
    default:
      return stylishWriter(out, context);
  }
}

/** The whole output as one string (for small runs and tests; the CLI streams with resultWriter). */
export function format(name: FormatName, results: readonly FileResult[], context: FormatContext): string {
  let text = '';
  const writer = resultWriter(name, { write: (chunk: string) => (text += chunk) }, context);
  for (const result of results) writer.file(result);
  writer.end();
  return text;
}

// ---------------------------------------------------------------------------------------------
// stylish

const ANSI = {
  red: ['\u001b[31m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  blue: ['\u001b[34m', '\u001b[39m'],
  dim: ['\u001b[2m', '\u001b[22m'],
  bold: ['\u001b[1m', '\u001b[22m'],
  underline: ['\u001b[4m', '\u001b[24m'],
} as const;

type Style = keyof typeof ANSI;

/** Width of stylish output when stdout is not a terminal (a CI log, a file). */
const DEFAULT_COLUMNS = 100;
/** Details are never wrapped narrower than this, however far right the message column is. */
const MIN_DETAILS_WIDTH = 40;

/** `text` as an OSC 8 terminal hyperlink to `url` (terminals without them show the text alone). */
function hyperlink(text: string, url: string): string {
  return `\u001b]8;;${url}\u001b\\${text}\u001b]8;;\u001b\\`;
}

function stylishWriter(
  out: OutputSink,
  context: Pick<FormatContext, 'color' | 'columns' | 'hyperlinks'>,
): ResultWriter {
  const columns = context.columns && context.columns > 0 ? context.columns : DEFAULT_COLUMNS;
  const paint = (text: string, ...styles: Style[]): string =>
    context.color ? styles.reduce((painted, style) => `${ANSI[style][0]}${painted}${ANSI[style][1]}`, text) : text;
  let errors = 0;
  let warnings = 0;
  let fixableErrors = 0;
  let fixableWarnings = 0;
  return {
    file(result) {
      if (!result.findings.length) return;
      const rows = result.findings.map((finding) => {
        if (eslintSeverity(finding.severity) === 2) errors++;
        else warnings++;
        return {
          line: String(finding.range.start.line),
          column: String(finding.range.start.column),
          severity: finding.severity,
          // ESLint drops a message's final period.
          message: terminalText(finding.message.replace(/([^ ])\.$/u, '$1').replace(/\r?\n/g, ' '), true),
          ruleId: finding.ruleId,
          details: finding.details,
        };
      });
      const fixable = countFixable([result]);
      fixableErrors += fixable.fixableErrorCount;
      fixableWarnings += fixable.fixableWarningCount;
      const width = (pick: (row: (typeof rows)[number]) => string): number =>
        rows.reduce((max, row) => Math.max(max, pick(row).length), 0);
      const lineWidth = width((row) => row.line);
      const columnWidth = width((row) => row.column);
      const severityWidth = width((row) => row.severity);
      const messageWidth = width((row) => row.message);
      let block = `\n${paint(terminalText(result.filePath, true), 'underline')}\n`;
      // Where the message starts: the details are indented to it.
      const messageColumn = 2 + lineWidth + 1 + columnWidth + 2 + severityWidth + 2;
      for (const row of rows) {
        const severityStyle: Style = row.severity === 'error' ? 'red' : row.severity === 'warning' ? 'yellow' : 'blue';
        // Rule ids line up, as ESLint's do, unless that would make the row wider than the terminal.
        const fits = messageColumn + messageWidth + 2 + row.ruleId.length <= columns;
        block +=
          `  ${paint(`${row.line.padStart(lineWidth)}:${row.column}`, 'dim')}${' '.repeat(columnWidth - row.column.length)}` +
          `  ${paint(row.severity, severityStyle)}${' '.repeat(severityWidth - row.severity.length)}` +
          `  ${row.message}${' '.repeat(fits ? messageWidth - row.message.length : 0)}` +
          `  ${context.hyperlinks ? hyperlink(paint(row.ruleId, 'dim'), defaultDocsUrl(row.ruleId)) : paint(row.ruleId, 'dim')}\n`;
        if (row.details) {
          const indent = ' '.repeat(messageColumn);
          for (const line of detailsLines(row.details, Math.max(MIN_DETAILS_WIDTH, columns - messageColumn)))
            block += line ? `${indent}${terminalText(line, true)}\n` : '\n';
        }
      }
      out.write(block);
    },
    end() {
      const total = errors + warnings;
      if (total === 0) return;
      const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
      const summary = `\u2716 ${plural(total, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')})`;
      let tail = `\n${paint(summary, errors ? 'red' : 'yellow', 'bold')}\n`;
      if (fixableErrors + fixableWarnings > 0) {
        const line = `  ${plural(fixableErrors, 'error')} and ${plural(fixableWarnings, 'warning')} potentially fixable with the \`--fix\` option.`;
        tail += `${paint(line, errors ? 'red' : 'yellow', 'bold')}\n`;
      }
      out.write(tail);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// compact (ESLint's compact formatter: one line per problem, for logs and editors' error formats)

function compactWriter(out: OutputSink): ResultWriter {
  let total = 0;
  return {
    file(result) {
      let block = '';
      for (const finding of result.findings) {
        total++;
        const severity = eslintSeverity(finding.severity) === 2 ? 'Error' : 'Warning';
        const message = terminalText(finding.message.replace(/\s*\r?\n\s*/g, ' '), true);
        block += `${terminalText(result.filePath, true)}: line ${finding.range.start.line}, col ${finding.range.start.column}, ${severity} - ${message} (${finding.ruleId})\n`;
      }
      out.write(block);
    },
    end() {
      if (total > 0) out.write(`\n${total} problem${total === 1 ? '' : 's'}\n`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// json (ESLint's JSON formatter shape)

interface EslintMessage {
  ruleId: string;
  severity: 1 | 2;
  message: string;
  line: number;
  column: number;
  /** Which of the rule's messages this is (RuleMeta.messages), as ESLint prints it. */
  messageId: string;
  endLine: number;
  endColumn: number;
  /** Set on syntax errors, like ESLint's parsing errors. */
  fatal?: true;
  /** cqlint's addition: the figures, cure and sources behind `message` (markdown); see Finding.details. */
  details?: string;
}

interface EslintResult {
  filePath: string;
  messages: EslintMessage[];
  suppressedMessages: never[];
  errorCount: number;
  fatalErrorCount: number;
  warningCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
  usedDeprecatedRules: never[];
  source?: string;
  /** The fixed text (only when --fix or --fix-dry-run changed the file; `source` is left out then). */
  output?: string;
}

/** ESLint's fixable counts: findings `--fix` would fix, by ESLint severity. */
function countFixable(results: readonly FileResult[]): { fixableErrorCount: number; fixableWarningCount: number } {
  let fixableErrorCount = 0;
  let fixableWarningCount = 0;
  for (const result of results) {
    result.findings.forEach((finding, i) => {
      if (!result.fixable?.[i]) return;
      if (eslintSeverity(finding.severity) === 2) fixableErrorCount++;
      else fixableWarningCount++;
    });
  }
  return { fixableErrorCount, fixableWarningCount };
}

function toEslintResults(results: readonly FileResult[]): EslintResult[] {
  return results.map((result) => {
    const messages = result.findings.map((finding): EslintMessage => {
      const message: EslintMessage = {
        ruleId: finding.ruleId,
        severity: eslintSeverity(finding.severity),
        message: finding.message,
        line: finding.range.start.line,
        column: finding.range.start.column,
        messageId: finding.messageId,
        endLine: finding.range.end.line,
        endColumn: finding.range.end.column,
      };
      if (finding.ruleId === 'syntax-error') message.fatal = true;
      if (finding.details) message.details = finding.details;
      return message;
    });
    const counts = countFindings(result.findings);
    const fixable = countFixable([result]);
    const out: EslintResult = {
      filePath: result.filePath,
      messages,
      suppressedMessages: [],
      errorCount: counts.errorCount,
      fatalErrorCount: messages.filter((message) => message.fatal).length,
      warningCount: counts.warningCount,
      fixableErrorCount: fixable.fixableErrorCount,
      fixableWarningCount: fixable.fixableWarningCount,
      usedDeprecatedRules: [],
    };
    // Like ESLint: the fixed text as `output` when fixing changed the file, else `source` when there are problems.
    if (result.output !== undefined) out.output = result.output;
    else if (messages.length) out.source = result.source;
    return out;
  });
}

/** ESLint's JSON formatter output (one array of file results), written one file at a time. */
function jsonWriter(out: OutputSink): ResultWriter {
  let first = true;
  return {
    file(result) {
      out.write(`${first ? '[' : ','}${JSON.stringify(toEslintResults([result])[0])}`);
      first = false;
    },
    end() {
      out.write(first ? '[]\n' : ']\n');
    },
  };
}

// ---------------------------------------------------------------------------------------------
// SARIF 2.1.0

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

/** A URI reference for a file: relative to the cwd (with %SRCROOT%) when inside it, else absolute. */
function artifactLocation(filePath: string, cwd: string): { uri: string; uriBaseId?: string } {
  const relative = path.relative(cwd, filePath);
  if (relative && !relative.startsWith('..') && !path.isAbsolute(relative)) {
    return { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
  }
  return { uri: pathToFileURL(filePath).href };
}

function region(range: Finding['range']): Record<string, number> {
  return {
    startLine: range.start.line,
    startColumn: range.start.column,
    endLine: range.end.line,
    endColumn: range.end.column,
  };
}

/**
 * A message template as a SARIF message string (§3.11.5): the `{{name}}` placeholders numbered `{0}`, `{1}`...
 * in order of first use (the order of a result's arguments), other braces doubled.
 */
function sarifTemplate(template: string): string {
  const names = placeholders(template);
  // templateParts: text, placeholder name, text, ...
  return templateParts(template)
    .map((part, i) => (i % 2 ? `{${names.indexOf(part)}}` : part.replace(/[{}]/g, '$&$&')))
    .join('');
}

/** A rule's `messageStrings` (§3.49.11): each message id with its message string. */
function sarifMessageStrings(messages: Readonly<Record<string, string>>): Record<string, { text: string }> {
  const out: Record<string, { text: string }> = {};
  for (const [id, template] of Object.entries(messages)) out[id] = { text: sarifTemplate(template) };
  return out;
}

/**
 * A result's message: the headline as `text` (GitHub code scanning requires it), with the details as
 * markdown (viewers that render markdown show both), and the message `id` (§3.11.10) with the placeholders'
 * values as `arguments` (§3.11.11) when the rule declares that message.
 */
function sarifMessage(finding: Finding, template: string | undefined): Record<string, unknown> {
  const message: Record<string, unknown> = { text: finding.message };
  // The headline is plain text: escaped in markdown, as the hover escapes it.
  if (finding.details) message.markdown = `${markdownText(finding.message)}\n\n${finding.details}`;
  if (template === undefined) return message;
  message.id = finding.messageId;
  const names = placeholders(template);
  if (names.length) message.arguments = names.map((name) => String(finding.values?.[name] ?? ''));
  return message;
}

/** Stands for the results array while the SARIF log around it is laid out. */
const RESULTS_MARK = JSON.stringify('\u0000results\u0000');

/**
 * SARIF, one file's results at a time: the log is laid out with `results` first in the run, so that what
 * only the end knows (the rules used, the artifacts) comes after them. Same JSON as a whole-log
 * JSON.stringify(log, null, 2), keys in that order.
 */
function sarifWriter(out: OutputSink, context: FormatContext): ResultWriter {
  const rules = [...context.rules];
  const index = new Map(rules.map((rule, i) => [rule.id, i]));
  const artifacts: { location: ReturnType<typeof artifactLocation> }[] = [];
  const cwdUri = pathToFileURL(context.cwd.endsWith(path.sep) ? context.cwd : context.cwd + path.sep).href;
  const log = (results: unknown[]) => ({
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        results,
        tool: {
          driver: {
            name: 'cqlint',
            version: context.toolVersion,
            informationUri: context.informationUri,
            rules: rules.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.description },
              helpUri: rule.docsUrl,
              ...(rule.messages ? { messageStrings: sarifMessageStrings(rule.messages) } : {}),
              defaultConfiguration: { level: SARIF_LEVEL[rule.defaultSeverity] ?? 'warning' },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: cwdUri } },
        artifacts,
        columnKind: 'utf16CodeUnits',
      },
    ],
  });
  /** The laid-out log split around the results: [text before, indentation of a result, text after]. */
  const around = (): [string, string, string] => {
    const whole = JSON.stringify(log([JSON.parse(RESULTS_MARK)]), null, 2);
    const at = whole.indexOf(RESULTS_MARK);
    const lineStart = whole.lastIndexOf('\n', at) + 1;
    return [whole.slice(0, lineStart), whole.slice(lineStart, at), whole.slice(at + RESULTS_MARK.length)];
  };
  // What comes before the results ($schema, version) does not change: laid out once.
  let indent: string | undefined;
  return {
    file(result) {
      artifacts.push({ location: artifactLocation(result.filePath, context.cwd) });
      const prints = result.fingerprints ?? fingerprints(result.findings, result.filePath, result.source, context.cwd);
      for (const [i, finding] of result.findings.entries()) {
        if (!index.has(finding.ruleId)) {
          index.set(finding.ruleId, rules.length);
          const unused = finding.ruleId === UNUSED_DIRECTIVE_ID;
          rules.push({
            id: finding.ruleId,
            // The unused-directive report is off unless asked for (reportUnusedDisableDirectives): no rule, no entry.
            defaultSeverity: unused ? 'warning' : 'error',
            description: unused ? UNUSED_DIRECTIVE_DESCRIPTION : finding.ruleId,
            docsUrl: defaultDocsUrl(finding.ruleId),
          });
        }
        const entry: Record<string, unknown> = {
          ruleId: finding.ruleId,
          ruleIndex: index.get(finding.ruleId),
          level: SARIF_LEVEL[finding.severity] ?? 'warning',
          message: sarifMessage(finding, rules[index.get(finding.ruleId)!]!.messages?.[finding.messageId]),
          locations: [
            {
              physicalLocation: {
                artifactLocation: artifactLocation(result.filePath, context.cwd),
                region: region(finding.range),
              },
            },
          ],
          // GitHub code scanning matches results across runs by these (a line moved is the same result).
          partialFingerprints: { [FINGERPRINT_KEY]: prints[i] },
        };
        if (finding.related?.length) {
          entry.relatedLocations = finding.related.map((related, id) => ({
            id,
            message: { text: related.message },
            physicalLocation: {
              artifactLocation: artifactLocation(related.filePath, context.cwd),
              region: region(related.range),
            },
          }));
        }
        if (indent === undefined) {
          const [before, resultIndent] = around();
          out.write(before);
          indent = resultIndent;
        } else out.write(',\n');
        out.write(indent + JSON.stringify(entry, null, 2).replace(/\n/g, `\n${indent}`));
      }
    },
    end() {
      out.write(indent !== undefined ? `${around()[2]}\n` : `${JSON.stringify(log([]), null, 2)}\n`);
    },
  };
}
