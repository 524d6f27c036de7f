// Suppression comments, ESLint style, in any comment form (`--`, `//`, `/* */`):
//   -- cqlint-disable-next-line hot-partition, unbounded-partition   (the next line; no ids: every rule)
//   -- cqlint-disable-line allow-filtering                           (this line)
//   -- cqlint-disable hot-partition  ...  -- cqlint-enable hot-partition
//   -- cqlint-disable                (without a matching enable: to the end of the file, so at the top: file-wide)
// Text after ` -- ` is a free description.
import type { Comment } from '../../../grammar/ast';
import type { LineIndex } from '../../../grammar/line-index';
import { UNUSED_DIRECTIVE_ID, type OffsetFinding, type Severity } from './findings';

/** Which directive made a region or line rule, and the one rule it silences (undefined: every rule). */
interface Source {
  directive: number;
  id?: string;
}

interface Region {
  startOffset: number;
  endOffset: number;
  source: Source;
}

interface LineRule {
  /** 0-based. */
  line: number;
  source: Source;
}

interface Suppressions {
  directives: SuppressionDirective[];
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
  const directives = suppressionDirectives(comments);
  const regions: Region[] = [];
  const lineRules: LineRule[] = [];
  // Open `cqlint-disable` regions: one for "all rules" and one per named rule, each with the directive that opened it.
  let openAll: { at: number; directive: number } | undefined;
  const openRules = new Map<string, { at: number; directive: number }>();
  for (const [index, { comment: c, directive, rules: named }] of directives.entries()) {
    const rules = named.length ? new Set(named.map((r) => r.id)) : undefined;
    if (directive === 'cqlint-disable-next-line' || directive === 'cqlint-disable-line') {
      const line = directive === 'cqlint-disable-line' ? lines.lineAt(c.range.start) : lines.lineAt(c.range.end) + 1;
      if (!rules) lineRules.push({ line, source: { directive: index } });
      for (const id of rules ?? []) lineRules.push({ line, source: { directive: index, id } });
    } else if (directive === 'cqlint-disable') {
      const at = { at: c.range.start, directive: index };
      if (!rules) openAll ??= at;
      else for (const id of rules) if (!openRules.has(id)) openRules.set(id, at);
    } else {
      const at = c.range.end;
      if (!rules) {
        if (openAll !== undefined)
          regions.push({ startOffset: openAll.at, endOffset: at, source: { directive: openAll.directive } });
        openAll = undefined;
        for (const [id, open] of openRules)
          regions.push({ startOffset: open.at, endOffset: at, source: { directive: open.directive, id } });
        openRules.clear();
      } else {
        for (const id of rules) {
          const open = openRules.get(id);
          if (open !== undefined) {
            regions.push({ startOffset: open.at, endOffset: at, source: { directive: open.directive, id } });
            openRules.delete(id);
          }
        }
      }
    }
  }
  if (openAll !== undefined)
    regions.push({
      startOffset: openAll.at,
      endOffset: Number.POSITIVE_INFINITY,
      source: { directive: openAll.directive },
    });
  for (const [id, open] of openRules)
    regions.push({
      startOffset: open.at,
      endOffset: Number.POSITIVE_INFINITY,
      source: { directive: open.directive, id },
    });
  return { directives, regions, lines: lineRules };
}

/** Whether a directive's region or line silences the finding's rule: the one it names, or every rule. */
const silences = (source: Source, finding: OffsetFinding): boolean =>
  source.id === undefined || source.id === finding.ruleId;

/**
 * Whether a directive silences the finding; each directive that does is marked in `used` (by its index, with
 * the id that matched, `*` for a directive that names none), so that a finding two directives cover uses both.
 */
function isSuppressed(finding: OffsetFinding, s: Suppressions, lines: LineIndex, used?: Set<string>): boolean {
  const offset = finding.range.start;
  const line = s.lines.length ? lines.lineAt(offset) : -1;
  let suppressed = false;
  const mark = (source: Source): void => {
    suppressed = true;
    used?.add(`${source.directive}\u0000${source.id ?? '*'}`);
  };
  for (const r of s.regions) {
    if (offset >= r.startOffset && offset < r.endOffset && silences(r.source, finding)) {
      mark(r.source);
      if (!used) return true;
    }
  }
  for (const l of s.lines) {
    if (l.line === line && silences(l.source, finding)) {
      mark(l.source);
      if (!used) return true;
    }
  }
  return suppressed;
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

export { UNUSED_DIRECTIVE_ID } from './findings';

/** What an unused-directive finding carries for its fix: which comment form, and what to remove. */
export interface UnusedDirectiveData {
  directive: DirectiveName;
  /** The id that silenced nothing; absent: the directive names no rule and silenced nothing at all. */
  id?: string;
  /** `comment`: every id it names is unused (or it names none), so the whole comment goes; `id`: that id alone. */
  removes: 'comment' | 'id';
}

/**
 * The findings the suppression comments leave (as applySuppressions), and a finding for each `cqlint-disable`,
 * `-line` and `-next-line` directive that silenced nothing: for each id it names that silenced no finding of
 * that rule, or, when it names none, for the directive itself. `judged(id)`: whether a named id is judged at
 * all; ids of rules that do not exist (invalid-suppression reports them) or that the configuration turns off
 * (they report nothing here, so their directives would look unused while the rule is off) are not.
 * `cqlint-enable` comments are never reported.
 */
export function suppressWithUnused(
  findings: OffsetFinding[],
  comments: readonly Comment[],
  lines: LineIndex,
  severity: Severity,
  judged: (ruleId: string) => boolean,
): OffsetFinding[] {
  if (!comments.length) return findings;
  const s = collectSuppressions(comments, lines);
  if (!s.directives.length) return findings;
  const used = new Set<string>();
  const kept = findings.filter((f) => !isSuppressed(f, s, lines, used));
  for (const [index, { comment, directive, rules }] of s.directives.entries()) {
    if (directive === 'cqlint-enable') continue;
    if (!rules.length) {
      if (!used.has(`${index}\u0000*`))
        kept.push(unusedFinding(directive, undefined, comment.range, severity, 'comment'));
      continue;
    }
    const unused = rules.filter((r) => judged(r.id) && !used.has(`${index}\u0000${r.id}`));
    // Only when no id is left that silenced something, or that names another rule, does the comment go.
    const removes = unused.length === rules.length ? 'comment' : 'id';
    for (const r of unused) kept.push(unusedFinding(directive, r.id, r, severity, removes));
  }
  return kept;
}

/** Whether the finding is an unused-directive report, with its data. */
export function isUnusedDirective(finding: {
  ruleId: string;
  data?: Record<string, unknown>;
}): finding is { ruleId: string; data: UnusedDirectiveData & Record<string, unknown> } {
  const data = finding.data;
  return (
    finding.ruleId === UNUSED_DIRECTIVE_ID &&
    typeof data?.directive === 'string' &&
    (data.removes === 'comment' || data.removes === 'id')
  );
}

function unusedFinding(
  directive: DirectiveName,
  id: string | undefined,
  range: { start: number; end: number },
  severity: Severity,
  removes: UnusedDirectiveData['removes'],
): OffsetFinding {
  const data: UnusedDirectiveData = { directive, ...(id !== undefined ? { id } : {}), removes };
  return {
    ruleId: UNUSED_DIRECTIVE_ID,
    severity,
    message:
      id === undefined
        ? `Unused ${directive} directive (no problems were reported)`
        : `Unused ${directive} directive (no problems were reported from '${id}')`,
    messageId: id === undefined ? 'unused' : 'unusedRule',
    values: { directive, ...(id !== undefined ? { id } : {}) },
    details:
      id === undefined
        ? `This ${directive} comment silenced no finding: it can go.`
        : `This ${directive} comment silenced no finding of that rule: the id can go.`,
    range: { start: range.start, end: range.end },
    data: data as unknown as Record<string, unknown>,
  };
}
