// Suppression comments in application code, as in a .cql file but in the host language's comments:
//   // cqlint-disable-next-line allow-filtering          (`#` in Python; on the line above the call, or above the
//                                                        line where the statement's string starts)
//   session.execute("...")  // cqlint-disable-line      (at the end of that line)
// silence those rules' findings on the statement (no ids: every rule). Text after ` -- ` is a free description.
// Only comments of the host language count: tree-sitter says what is one (a `//` inside a string is not).
import { nodeAt } from './nodes';
import type { Node } from './syntax';

const DIRECTIVE = /(?:\/\/|#|\/\*)[ \t]*(cqlint-disable-next-line|cqlint-disable-line)(?=[\s*]|$)([^\n]*)/g;

/** The rule ids a directive names (empty: every rule). */
function ruleIds(body: string): string[] {
  const ids = body.split(/\*\//)[0]!.split(/\s--\s/)[0]!;
  return ids.split(/[\s,]+/).filter((id) => id.length > 0);
}

/**
 * The rules the comments around a statement turn off on it: `lines` are the starts of the lines it is written
 * from (each call site's, the string's first line). Undefined when none does; an empty array: every rule.
 */
export function disabledRules(
  root: Node,
  hostText: string,
  lines: readonly number[],
  lineStartOf: (offset: number) => number,
): string[] | undefined {
  let all = false;
  const rules = new Set<string>();
  const scan = (from: number, directive: string): void => {
    const end = hostText.indexOf('\n', from);
    const line = hostText.slice(from, end < 0 ? hostText.length : end);
    if (!line.includes(directive)) return;
    DIRECTIVE.lastIndex = 0;
    for (let m = DIRECTIVE.exec(line); m; m = DIRECTIVE.exec(line)) {
      if (m[1] !== directive) continue;
      const at = from + m.index;
      if (!nodeAt(root, at, at + 1).type.includes('comment')) continue;
      const ids = ruleIds(m[2]!);
      if (ids.length === 0) all = true;
      for (const id of ids) rules.add(id);
    }
  };
  for (const start of lines) {
    if (start > 0) scan(lineStartOf(start - 1), 'cqlint-disable-next-line');
    scan(start, 'cqlint-disable-line');
  }
  if (all) return [];
  return rules.size > 0 ? [...rules] : undefined;
}
