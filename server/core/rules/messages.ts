// A rule's report becomes a finding here: the headline is the rule's declared message (ESLint's
// meta.messages) with its placeholders filled, so no rule writes a headline of its own.
import { headlineAndDetails, type MessageValues, type OffsetFinding, type Severity } from '../findings/findings';
import type { ReportedFinding, RuleMeta } from './types';
import { Markdown, markdownProse } from '../util/markdown';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The names of a template's `{{placeholders}}`, in order of first use. */
export function placeholders(template: string): string[] {
  return [...new Set(Array.from(template.matchAll(PLACEHOLDER), (m) => m[1]!))];
}

/**
 * A template with its placeholders filled. A placeholder without a value is a bug in the rule, so it
 * throws (the runner records it as the rule's internal error) rather than show `{{table}}` to a user.
 */
export function fillMessage(template: string, values: MessageValues | undefined): string {
  const parts = templateParts(template);
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    const value = values && Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined;
    if (value === undefined) throw new Error(`message "${template}" has no value for {{${name}}}`);
    out += String(value) + parts[i + 1]!;
  }
  return out;
}

/** Templates split once: text, placeholder name, text, ... (a lint fills the same few templates many times). */
const splitTemplates = new Map<string, readonly string[]>();
export function templateParts(template: string): readonly string[] {
  let parts = splitTemplates.get(template);
  if (!parts) splitTemplates.set(template, (parts = template.split(PLACEHOLDER)));
  return parts;
}

/**
 * For a message whose template is `{{problem}}`: a sentence another module words (the parser's error, the
 * hint reader's, the shard check's), cut into the headline, as the `problem` value, and the details
 * (findings.ts headlineAndDetails). Spread into a report: `ctx.report({ messageId, ...composedMessage(text), range })`.
 */
export function composedMessage(text: string): { values: { problem: string }; details?: string } {
  const { message, details } = headlineAndDetails(text);
  return details === undefined ? { values: { problem: message } } : { values: { problem: message }, details };
}

/**
 * The finding a rule reported, with its headline made from the declared message `messageId` (a message id
 * the rule does not declare throws: an internal error of the rule) and the severity it runs at (or info).
 */
export function findingOf(meta: RuleMeta, reported: ReportedFinding, severity: Severity): OffsetFinding {
  const template = Object.prototype.hasOwnProperty.call(meta.messages, reported.messageId)
    ? meta.messages[reported.messageId]
    : undefined;
  if (template === undefined)
    throw new Error(
      `${meta.id} reported the message id "${reported.messageId}", which its meta.messages does not declare`,
    );
  // One literal shape (the optional fields set only when present, as a rule reports them).
  const finding: OffsetFinding = {
    ruleId: meta.id,
    severity: reported.severity ?? severity,
    message: fillMessage(template, reported.values),
    messageId: reported.messageId,
    range: reported.range,
  };
  if (reported.values !== undefined) finding.values = reported.values;
  // Where every finding's details are assembled: plain text is escaped here, once for every rule, so that a
  // name the user wrote (a table, a column, an evidence node, a partition key) stays text in the markdown.
  if (reported.details !== undefined)
    finding.details = reported.details instanceof Markdown ? reported.details.text : markdownProse(reported.details);
  if (reported.related !== undefined) finding.related = reported.related;
  if (reported.data !== undefined) finding.data = reported.data;
  return finding;
}
