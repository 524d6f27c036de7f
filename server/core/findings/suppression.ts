// Suppression comments, ESLint style, in any comment form (`--`, `//`, `/* */`):
//   -- cqlint-disable-next-line hot-partition, unbounded-partition   (the next line; no ids: every rule)
//   -- cqlint-disable-line allow-filtering                           (this line)
//   -- cqlint-disable hot-partition  ...  -- cqlint-enable hot-partition
//   -- cqlint-disable                (without a matching enable: to the end of the file, so at the top: file-wide)
// Text after ` -- ` is a free description.
import type { Comment } from '../../../grammar/ast';
import type { LineIndex } from '../../../grammar/line-index';
import type { OffsetFinding } from './findings';

interface Region {
  /** undefined: every rule. */
  rules?: Set<string>;
  startOffset: number;
  endOffset: number;
}

interface LineRule {
  rules?: Set<string>;
  /** 0-based. */
  line: number;
}

interface Suppressions {
  regions: Region[];
  lines: LineRule[];
}

const DIRECTIVE = /^(cqlint-disable-next-line|cqlint-disable-line|cqlint-disable|cqlint-enable)(?=\s|$)(.*)$/s;

type DirectiveName = 'cqlint-disable-next-line' | 'cqlint-disable-line' | 'cqlint-disable' | 'cqlint-enable';

/** A suppression comment: its directive and the rule ids it names (none: every rule), each with its offsets. */
export interface SuppressionDirective {
  comment: Comment;
  directive: DirectiveName;
  rules: { id: string; start: number; end: number }[];
}

/** The suppression directives of a file's comments, in order. */
export function suppressionDirectives(comments: readonly Comment[]): SuppressionDirective[] {
  const out: SuppressionDirective[] = [];
  for (const comment of comments) {
    const m = DIRECTIVE.exec(comment.value.trim());
    if (!m) continue;
    // The ids come before any ` -- description`; their offsets are found in the raw text.
    const valueAt = comment.range.start + Math.max(0, comment.text.indexOf(comment.value));
    const rest = m[2] ?? '';
    const body = rest.split(/\s--\s/)[0]!;
    const restAt = valueAt + m[1]!.length;
    const rules: SuppressionDirective['rules'] = [];
    for (const id of body.matchAll(/[^\s,]+/g))
      rules.push({ id: id[0], start: restAt + id.index!, end: restAt + id.index! + id[0].length });
    out.push({ comment, directive: m[1] as DirectiveName, rules });
  }
  return out;
}

/** The directives of the comments; `lines` is the file's line index. */
function collectSuppressions(comments: readonly Comment[], lines: LineIndex): Suppressions {
  const regions: Region[] = [];
  const lineRules: LineRule[] = [];
  // Open `cqlint-disable` regions: one for "all rules" and one per named rule.
  let openAll: number | undefined;
  const openRules = new Map<string, number>();
  for (const { comment: c, directive, rules: named } of suppressionDirectives(comments)) {
    const rules = named.length ? new Set(named.map((r) => r.id)) : undefined;
    if (directive === 'cqlint-disable-next-line') {
      lineRules.push({ rules, line: lines.lineAt(c.range.end) + 1 });
    } else if (directive === 'cqlint-disable-line') {
      lineRules.push({ rules, line: lines.lineAt(c.range.start) });
    } else if (directive === 'cqlint-disable') {
      const at = c.range.start;
      if (!rules) {
        if (openAll === undefined) openAll = at;
      } else {
        for (const id of rules) if (!openRules.has(id)) openRules.set(id, at);
      }
    } else {
      const at = c.range.end;
      if (!rules) {
        if (openAll !== undefined) regions.push({ startOffset: openAll, endOffset: at });
        openAll = undefined;
        for (const [id, start] of openRules) regions.push({ rules: new Set([id]), startOffset: start, endOffset: at });
        openRules.clear();
      } else {
        for (const id of rules) {
          const start = openRules.get(id);
          if (start !== undefined) {
            regions.push({ rules: new Set([id]), startOffset: start, endOffset: at });
            openRules.delete(id);
          }
        }
      }
    }
  }
  if (openAll !== undefined) regions.push({ startOffset: openAll, endOffset: Number.POSITIVE_INFINITY });
  for (const [id, start] of openRules)
    regions.push({ rules: new Set([id]), startOffset: start, endOffset: Number.POSITIVE_INFINITY });
  return { regions, lines: lineRules };
}

function isSuppressed(finding: OffsetFinding, s: Suppressions, lines: LineIndex): boolean {
  const offset = finding.range.start;
  const line = s.lines.length ? lines.lineAt(offset) : -1;
  for (const r of s.regions) {
    if (offset >= r.startOffset && offset < r.endOffset && (!r.rules || r.rules.has(finding.ruleId))) return true;
  }
  for (const l of s.lines) {
    if (l.line === line && (!l.rules || l.rules.has(finding.ruleId))) return true;
  }
  return false;
}

export function applySuppressions(
  findings: OffsetFinding[],
  comments: readonly Comment[],
  lines: LineIndex,
): OffsetFinding[] {
  if (!comments.length) return findings;
  const s = collectSuppressions(comments, lines);
  if (!s.regions.length && !s.lines.length) return findings;
  return findings.filter((f) => !isSuppressed(f, s, lines));
}
