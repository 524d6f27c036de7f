// A small TextMate tokenizer for testing syntaxes/cql.tmLanguage.json under node:test, where VS Code's
// own engine (vscode-textmate + Oniguruma) is not a project dependency. It implements the parts our
// grammar uses: match / begin+end / contentName / captures with nested patterns / include #name,
// `(?i)` as the regex's `i` flag, and TextMate's rule choice (leftmost match wins, ties go to the end
// pattern, then to the first rule listed). Regexes that JavaScript cannot compile fail loudly.

interface Capture {
  name?: string;
  patterns?: RawRule[];
}

export interface RawRule {
  name?: string;
  contentName?: string;
  match?: string;
  begin?: string;
  end?: string;
  captures?: Record<string, Capture>;
  beginCaptures?: Record<string, Capture>;
  endCaptures?: Record<string, Capture>;
  patterns?: RawRule[];
  include?: string;
}

export interface RawGrammar {
  scopeName: string;
  patterns: RawRule[];
  repository: Record<string, RawRule>;
}

export interface Token {
  text: string;
  scopes: string[];
}

const regexCache = new Map<string, RegExp>();

/** Compiles an Oniguruma pattern as a JavaScript regex (global, with indices for captures). */
export function compile(source: string): RegExp {
  let regex = regexCache.get(source);
  if (!regex) {
    let flags = 'gdu';
    let body = source;
    if (body.startsWith('(?i)')) {
      flags += 'i';
      body = body.slice(4);
    }
    regex = new RegExp(body, flags);
    regexCache.set(source, regex);
  }
  return regex;
}

type Emit = (value: string, scopes: string[]) => void;

export class Tokenizer {
  constructor(private readonly grammar: RawGrammar) {}

  /** Flattens includes and pattern-only containers into the rules that actually match. */
  private expand(rules: readonly RawRule[] | undefined, seen: ReadonlySet<RawRule> = new Set()): RawRule[] {
    const out: RawRule[] = [];
    for (const rule of rules ?? []) {
      if (rule.include) {
        if (rule.include === '$self') {
          out.push(...this.expand(this.grammar.patterns, seen));
          continue;
        }
        const target = this.grammar.repository[rule.include.replace(/^#/, '')];
        if (!target) throw new Error(`unknown include ${rule.include}`);
        if (seen.has(target)) continue;
        const inner = new Set(seen).add(target);
        out.push(...(target.match || target.begin ? [target] : this.expand(target.patterns, inner)));
      } else if (rule.match || rule.begin) {
        out.push(rule);
      } else {
        out.push(...this.expand(rule.patterns, seen));
      }
    }
    return out;
  }

  tokenize(text: string): Token[] {
    const tokens: Token[] = [];
    const stack: { rule: RawRule; scopes: string[] }[] = [];
    const base = this.grammar.scopeName ? [this.grammar.scopeName] : [];
    const emit: Emit = (value, scopes) => {
      if (!value) return;
      const last = tokens[tokens.length - 1];
      if (last && last.scopes.join(' ') === scopes.join(' ')) last.text += value;
      else tokens.push({ text: value, scopes });
    };
    const inside = () => {
      const top = stack[stack.length - 1];
      if (!top) return base;
      return top.rule.contentName ? [...top.scopes, top.rule.contentName] : top.scopes;
    };
    const lines = text.split('\n');
    lines.forEach((line, lineIndex) => {
      let pos = 0;
      for (;;) {
        const top = stack[stack.length - 1];
        const scopes = inside();
        let best: { match: RegExpExecArray; rule: RawRule | null } | undefined;
        if (top) {
          const end = compile(top.rule.end!);
          end.lastIndex = pos;
          const m = end.exec(line);
          if (m) best = { match: m, rule: null };
        }
        for (const rule of this.expand(top ? top.rule.patterns : this.grammar.patterns)) {
          const regex = compile(rule.match ?? rule.begin!);
          regex.lastIndex = pos;
          const m = regex.exec(line);
          if (m && (!best || m.index < best.match.index)) best = { match: m, rule };
        }
        if (!best || (best.match[0] === '' && best.rule !== null && best.match.index >= line.length)) {
          emit(line.slice(pos), scopes);
          break;
        }
        const { match, rule } = best;
        emit(line.slice(pos, match.index), scopes);
        const matchEnd = match.index + match[0].length;
        if (rule === null) {
          this.emitCaptures(match, top!.rule.endCaptures, top!.scopes, emit);
          stack.pop();
        } else {
          const ruleScopes = rule.name ? [...scopes, rule.name] : scopes;
          if (rule.match) {
            this.emitCaptures(match, rule.captures, ruleScopes, emit);
          } else {
            this.emitCaptures(match, rule.beginCaptures ?? rule.captures, ruleScopes, emit);
            stack.push({ rule, scopes: ruleScopes });
          }
        }
        if (matchEnd === pos && match[0] === '' && rule !== null && rule.match) {
          // An empty match must not stall the scanner.
          if (pos >= line.length) break;
          emit(line[pos]!, scopes);
          pos += 1;
        } else {
          pos = matchEnd;
        }
        if (pos >= line.length && (stack.length === 0 || !/\$$/.test(stack[stack.length - 1]!.rule.end!))) break;
      }
      if (lineIndex < lines.length - 1) emit('\n', inside());
    });
    return tokens;
  }

  private emitCaptures(
    match: RegExpExecArray,
    captures: Record<string, Capture> | undefined,
    scopes: string[],
    emit: Emit,
  ): void {
    const start = match.index;
    const text = match[0];
    if (!captures || Object.keys(captures).length === 0) {
      emit(text, scopes);
      return;
    }
    const whole = captures['0'];
    const outer = whole?.name ? [...scopes, whole.name] : scopes;
    // Groups in order of position (our grammar's capture groups do not nest).
    const groups = Object.keys(captures)
      .filter((k) => k !== '0')
      .map((k) => ({ range: match.indices![Number(k)], capture: captures[k]! }))
      .filter((g): g is { range: [number, number]; capture: Capture } => !!g.range && g.range[1] > g.range[0])
      .sort((a, b) => a.range[0] - b.range[0]);
    let cursor = start;
    for (const { range, capture } of groups) {
      const [from, to] = range;
      if (from < cursor) continue;
      emit(match.input.slice(cursor, from), outer);
      const value = match.input.slice(from, to);
      const groupScopes = capture.name ? [...outer, capture.name] : outer;
      if (capture.patterns) {
        const sub = new Tokenizer({ ...this.grammar, scopeName: '', patterns: capture.patterns });
        for (const token of sub.tokenize(value)) emit(token.text, [...groupScopes, ...token.scopes]);
      } else {
        emit(value, groupScopes);
      }
      cursor = to;
    }
    emit(match.input.slice(cursor, start + text.length), outer);
  }
}
