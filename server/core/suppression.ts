// Suppression comments, ESLint style, in any comment form (`--`, `//`, `/* */`):
//   -- cqlint-disable-next-line hot-partition, unbounded-partition   (the next line; no ids: every rule)
//   -- cqlint-disable-line allow-filtering                           (this line)
//   -- cqlint-disable hot-partition  ...  -- cqlint-enable hot-partition
//   -- cqlint-disable                (without a matching enable: to the end of the file, so at the top: file-wide)
// Text after ` -- ` is a free description.
import type { Comment } from '../../grammar/ast';
import type { Finding } from './findings';

interface Region {
  /** undefined: every rule. */
  rules?: Set<string>;
  startOffset: number;
  endOffset: number;
}

interface LineRule {
  rules?: Set<string>;
  line: number;
}

interface Suppressions {
  regions: Region[];
  lines: LineRule[];
}

const DIRECTIVE = /^(cqlint-disable-next-line|cqlint-disable-line|cqlint-disable|cqlint-enable)(?=\s|$)(.*)$/s;

function ruleList(rest: string): Set<string> | undefined {
  const body = rest.split(/\s--\s/)[0]!.trim();
  if (!body) return undefined;
  const ids = body.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
  return ids.length ? new Set(ids) : undefined;
}

function collectSuppressions(comments: readonly Comment[]): Suppressions {
  const regions: Region[] = [];
  const lines: LineRule[] = [];
  // Open `cqlint-disable` regions: one for "all rules" and one per named rule.
  let openAll: number | undefined;
  const openRules = new Map<string, number>();
  for (const c of comments) {
    const m = DIRECTIVE.exec(c.value.trim());
    if (!m) continue;
    const directive = m[1]!;
    const rules = ruleList(m[2] ?? '');
    if (directive === 'cqlint-disable-next-line') {
      lines.push({ rules, line: c.range.end.line + 1 });
    } else if (directive === 'cqlint-disable-line') {
      lines.push({ rules, line: c.range.start.line });
    } else if (directive === 'cqlint-disable') {
      const at = c.range.start.offset;
      if (!rules) {
        if (openAll === undefined) openAll = at;
      } else {
        for (const id of rules) if (!openRules.has(id)) openRules.set(id, at);
      }
    } else {
      const at = c.range.end.offset;
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
  for (const [id, start] of openRules) regions.push({ rules: new Set([id]), startOffset: start, endOffset: Number.POSITIVE_INFINITY });
  return { regions, lines };
}

function isSuppressed(finding: Finding, s: Suppressions): boolean {
  const offset = finding.range.start.offset;
  const line = finding.range.start.line;
  for (const r of s.regions) {
    if (offset >= r.startOffset && offset < r.endOffset && (!r.rules || r.rules.has(finding.ruleId))) return true;
  }
  for (const l of s.lines) {
    if (l.line === line && (!l.rules || l.rules.has(finding.ruleId))) return true;
  }
  return false;
}

export function applySuppressions(findings: Finding[], comments: readonly Comment[]): Finding[] {
  if (!comments.length) return findings;
  const s = collectSuppressions(comments);
  if (!s.regions.length && !s.lines.length) return findings;
  return findings.filter((f) => !isSuppressed(f, s));
}
