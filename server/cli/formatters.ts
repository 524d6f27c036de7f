// Output formats of `cqlint lint`: ESLint's stylish and JSON shapes (so existing tooling reads them)
// and SARIF 2.1.0 (GitHub code scanning and other SARIF viewers).
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding, Severity } from '../core/findings';
import { docsUrl as defaultDocsUrl } from '../core/findings';

export const FORMAT_NAMES = ['stylish', 'json', 'sarif'] as const;
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
}

export interface RuleDescription {
  id: string;
  defaultSeverity: Severity;
  description: string;
  docsUrl: string;
}

export interface FormatContext {
  cwd: string;
  color: boolean;
  /** Every rule cqlint knows (SARIF lists them). */
  rules: readonly RuleDescription[];
  toolVersion: string;
  informationUri: string;
}

/** ESLint has two levels; an info finding is reported as a warning (severity 1) and counted as one. */
export function eslintSeverity(severity: Severity): 1 | 2 {
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

export function format(name: FormatName, results: readonly FileResult[], context: FormatContext): string {
  switch (name) {
    case 'json': return formatJson(results);
    case 'sarif': return formatSarif(results, context);
    default: return formatStylish(results, context);
  }
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

/** ESLint's stylish: a block per file with problems, then a summary line; nothing when clean. */
export function formatStylish(results: readonly FileResult[], context: Pick<FormatContext, 'color'>): string {
  const paint = (text: string, ...styles: Style[]): string =>
    context.color ? styles.reduce((out, style) => `${ANSI[style][0]}${out}${ANSI[style][1]}`, text) : text;
  let output = '';
  let errors = 0;
  let warnings = 0;
  for (const result of results) {
    if (!result.findings.length) continue;
    const rows = result.findings.map((finding) => {
      if (eslintSeverity(finding.severity) === 2) errors++;
      else warnings++;
      return {
        line: String(finding.range.start.line),
        column: String(finding.range.start.column),
        severity: finding.severity,
        // ESLint drops a message's final period.
        message: finding.message.replace(/([^ ])\.$/u, '$1').replace(/\r?\n/g, ' '),
        ruleId: finding.ruleId,
      };
    });
    const width = (pick: (row: (typeof rows)[number]) => string): number => Math.max(...rows.map((row) => pick(row).length));
    const lineWidth = width((row) => row.line);
    const columnWidth = width((row) => row.column);
    const severityWidth = width((row) => row.severity);
    const messageWidth = width((row) => row.message);
    output += `\n${paint(result.filePath, 'underline')}\n`;
    for (const row of rows) {
      const severityStyle: Style = row.severity === 'error' ? 'red' : row.severity === 'warning' ? 'yellow' : 'blue';
      output +=
        `  ${paint(`${row.line.padStart(lineWidth)}:${row.column}`, 'dim')}${' '.repeat(columnWidth - row.column.length)}` +
        `  ${paint(row.severity, severityStyle)}${' '.repeat(severityWidth - row.severity.length)}` +
        `  ${row.message}${' '.repeat(messageWidth - row.message.length)}` +
        `  ${paint(row.ruleId, 'dim')}\n`;
    }
  }
  const total = errors + warnings;
  if (total === 0) return '';
  const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
  const summary = `\u2716 ${plural(total, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')})`;
  output += `\n${paint(summary, errors ? 'red' : 'yellow', 'bold')}\n`;
  const fixable = countFixable(results);
  if (fixable.fixableErrorCount + fixable.fixableWarningCount > 0) {
    const line = `  ${plural(fixable.fixableErrorCount, 'error')} and ${plural(fixable.fixableWarningCount, 'warning')} potentially fixable with the \`--fix\` option.`;
    output += `${paint(line, errors ? 'red' : 'yellow', 'bold')}\n`;
  }
  return output;
}

// ---------------------------------------------------------------------------------------------
// json (ESLint's JSON formatter shape)

export interface EslintMessage {
  ruleId: string;
  severity: 1 | 2;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Set on syntax errors, like ESLint's parsing errors. */
  fatal?: true;
}

export interface EslintResult {
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
export function countFixable(results: readonly FileResult[]): { fixableErrorCount: number; fixableWarningCount: number } {
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

export function toEslintResults(results: readonly FileResult[]): EslintResult[] {
  return results.map((result) => {
    const messages = result.findings.map((finding): EslintMessage => {
      const message: EslintMessage = {
        ruleId: finding.ruleId,
        severity: eslintSeverity(finding.severity),
        message: finding.message,
        line: finding.range.start.line,
        column: finding.range.start.column,
        endLine: finding.range.end.line,
        endColumn: finding.range.end.column,
      };
      if (finding.ruleId === 'syntax-error') message.fatal = true;
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

export function formatJson(results: readonly FileResult[]): string {
  return `${JSON.stringify(toEslintResults(results))}\n`;
}

// ---------------------------------------------------------------------------------------------
// SARIF 2.1.0

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

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

export function formatSarif(results: readonly FileResult[], context: FormatContext): string {
  const rules = [...context.rules];
  const index = new Map(rules.map((rule, i) => [rule.id, i]));
  const used = results.flatMap((result) => result.findings.map((finding) => finding.ruleId));
  for (const id of used) {
    if (index.has(id)) continue;
    index.set(id, rules.length);
    rules.push({ id, defaultSeverity: 'error', description: id, docsUrl: defaultDocsUrl(id) });
  }
  const sarifResults = results.flatMap((result) =>
    result.findings.map((finding) => {
      const out: Record<string, unknown> = {
        ruleId: finding.ruleId,
        ruleIndex: index.get(finding.ruleId),
        level: SARIF_LEVEL[finding.severity] ?? 'warning',
        message: { text: finding.message },
        locations: [{ physicalLocation: { artifactLocation: artifactLocation(result.filePath, context.cwd), region: region(finding.range) } }],
      };
      if (finding.related?.length) {
        out.relatedLocations = finding.related.map((related, id) => ({
          id,
          message: { text: related.message },
          physicalLocation: { artifactLocation: artifactLocation(related.filePath, context.cwd), region: region(related.range) },
        }));
      }
      return out;
    }),
  );
  const cwdUri = pathToFileURL(context.cwd.endsWith(path.sep) ? context.cwd : context.cwd + path.sep).href;
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'cqlint',
            version: context.toolVersion,
            informationUri: context.informationUri,
            rules: rules.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.description },
              helpUri: rule.docsUrl,
              defaultConfiguration: { level: SARIF_LEVEL[rule.defaultSeverity] ?? 'warning' },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: cwdUri } },
        artifacts: results.map((result) => ({ location: artifactLocation(result.filePath, context.cwd) })),
        results: sarifResults,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
