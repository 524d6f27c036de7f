// The rule runner: runs the rules on one file of a Project and keeps the statement cache (the findings
// of statement-scoped rules, RuleMeta.scope, by statement), reused while what a statement looks up is
// unchanged. The Project owns the files, the schema and the references, and answers the runner's
// lookups (RuleRunHost).
import {
  isSourceRange,
  type BatchStatement,
  type ParseResult,
  type QualifiedName,
  type SourceRange,
  type Statement,
} from '../../../grammar/ast';
import type { LineIndex } from '../../../grammar/line-index';
import type { OffsetFinding, Severity } from '../findings/findings';
import { keyspaceAt } from '../schema/build';
import type { SchemaModel, TableInfo } from '../schema/model';
import { targetInfo } from '../partition/targets';
import type { RuleLevel, RuleSetting } from '../vocabulary/config';
import { allRules, ruleById } from '../rules';
import type { ClusterSettings } from '../cluster';
import type { FileLocalRuleModule, FileRuleContext, RuleContext, RuleModule } from '../rules/types';
import { findingOf } from '../rules/messages';
import { applySuppressions, suppressWithUnused } from '../findings/suppression';
import {
  endCovered,
  IndexEvents,
  isSchemaStatement,
  keptScopeHolds,
  StatementKeys,
  type KeyedScope,
  type ReferenceDependency,
  type StatementScope,
} from './statement-keys';
import {
  fileContext,
  statementContext,
  type BaseContext,
  type RuleRunHost,
  type RuleRunInput,
  type StatementRun,
} from './rule-context';

export { isSchemaStatement, withoutRanges, type ReferenceDependency } from './statement-keys';

/** Per-statement results of the statement-scoped rules (see RuleMeta.scope), reused while `key` is unchanged. */
interface StatementResult {
  /** Config, options and file the findings were computed under. */
  epoch: string;
  /** What the statement's findings depend on besides its own text and the references: see statementScope. */
  key: string;
  /**
   * In a file open in an editor (RuleRunInput.editing), the kept scope `key` was last found in: while it holds
   * (keptScopeHolds), StatementKeys.statementScope would answer it again, so the result is reused without
   * asking for it (see runStatementRules).
   */
  scoped: KeyedScope | undefined;
  /** The findings of the rules that read no references and no workspace definitions: they stand while the key does. */
  fixed: RuleResult;
  /**
   * The rules that read references (referencesTo) or the workspace's definitions (definitionsOf, viewsOf, ...,
   * which no key covers), each with its own result: when an edited query changes the references, or an edit of
   * a schema statement makes a new model, only these run again on the statement, not all its rules.
   */
  dynamic: DynamicResult[];
}

interface DynamicResult {
  rule: number;
  result: RuleResult;
  /** Set when the rule's run read the workspace's definitions: its result stands with this model only. */
  model: SchemaModel | undefined;
}

interface RuleResult {
  findings: OffsetFinding[];
  /**
   * Ranges in the findings that start inside the statement, with their offset from its start: they must
   * have moved with the statement (AST objects are shifted in place by the parser); if one did not, the
   * findings are recomputed.
   */
  anchors: { range: SourceRange; relative: number }[];
  /** The referencesTo() answers the findings were computed from. */
  references: readonly ReferenceDependency[];
}

/** Shared by the statement results of rules that read no references (most). */
const NO_REFERENCES: readonly ReferenceDependency[] = [];
/** Shared by the (most common) results with no finding and no reference read. */
const EMPTY_RESULT: RuleResult = { findings: [], anchors: [], references: NO_REFERENCES };
const NO_DYNAMIC: StatementResult['dynamic'] = [];
/** The lookups and names of a statement run without a key (its first lint): none is covered. */
const NO_LOOKUPS: StatementScope['lookups'] = new Map();
const NO_NAMES: ReadonlySet<string> = new Set();

/** Every range object in a finding (range, related, data), up to a small depth. */
function findingRanges(value: unknown, out: SourceRange[], depth = 0): void {
  if (depth > 6 || !value || typeof value !== 'object') return;
  if (isSourceRange(value)) {
    out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) findingRanges(v, out, depth + 1);
    return;
  }
  for (const key in value as Record<string, unknown>)
    findingRanges((value as Record<string, unknown>)[key], out, depth + 1);
}

/** A file-scoped rule with handlers, in the one walk over a file's statements (walkHandlers). */
interface HandlerRun {
  rule: RuleModule;
  ctx: RuleContext;
  /** It threw on an earlier statement: not called again on this file. */
  failed: boolean;
}

type StatementHandler = (stmt: Statement, ctx: RuleContext) => void;

/**
 * The rule's handler for a kind of statement (RuleModule.handlers), if any. On a BATCH, a rule with
 * RuleMeta.batchMembers runs its Batch handler (if any) and then its INSERT/UPDATE/DELETE handlers on each
 * member in order, with ctx.batch the batch: one handler for the batch, so that every walk (file-scoped,
 * file-local, statement-scoped and its cache) runs and keeps the members' findings with their batch.
 */
function handlerOf(rule: RuleModule, kind: Statement['kind']): StatementHandler | undefined {
  const handlers = rule.handlers as Partial<Record<Statement['kind'], StatementHandler>> | undefined;
  const own = handlers?.[kind];
  if (kind !== 'Batch' || !rule.meta.batchMembers || !handlers) return own;
  if (!handlers.Insert && !handlers.Update && !handlers.Delete) return own;
  return (stmt, ctx) => {
    own?.(stmt, ctx);
    const batch = stmt as BatchStatement;
    let inBatch: RuleContext | undefined;
    for (const member of batch.statements) {
      const handler = handlers[member.kind];
      if (handler) handler(member, (inBatch ??= ruleContext(ctx, ctx.options, ctx.report, batch)));
    }
  };
}

/** The context fields that differ from rule to rule (and for a BATCH's members), held by ContextTemplate as placeholders. */
type RuleSlots = Pick<RuleContext, 'options' | 'report'> & { batch: RuleContext['batch'] };

/** A run's context with placeholders for each rule's own fields (see ruleContext). */
type ContextTemplate = BaseContext & RuleSlots;

const NO_OPTIONS: RuleContext['options'] = Object.freeze({});
const reportNothing: RuleContext['report'] = () => undefined;

/** The run's context, with the rule's own fields as placeholders (made once per run, not per rule). */
function contextTemplate(base: BaseContext): ContextTemplate {
  return { ...base, options: NO_OPTIONS, report: reportNothing, batch: undefined };
}

/**
 * A rule's context: a copy of the run's template with the rule's fields set. Copying an object that holds
 * every field already is a copy of its fields; a spread that adds fields ({ ...base, options, report })
 * took V8's slow path, about 4 us a context of thirty lookups: 0.4 s of a 2,000-file CLI run, for its
 * 45 contexts a file.
 */
function ruleContext(
  template: ContextTemplate | RuleContext,
  options: RuleContext['options'],
  report: RuleContext['report'],
  batch?: RuleContext['batch'],
): RuleContext {
  const ctx = { ...template } as { -readonly [K in keyof ContextTemplate]: ContextTemplate[K] };
  ctx.options = options;
  ctx.report = report;
  ctx.batch = batch;
  return ctx;
}

/** A rule of a run (by its index) to run on a kind of statement, with its handler for the kind (none: its check()). */
interface KindRule {
  index: number;
  handler: StatementHandler | undefined;
}

/**
 * Of a run's rules, those with something to run on a kind of statement (a check(), or a handler for the
 * kind), by their index: found once per kind and run, not once per statement and rule (most rules
 * handle a few kinds, and a file has tens of thousands of statements).
 */
class RulesByKind {
  private readonly lists = new Map<Statement['kind'], readonly KindRule[]>();

  constructor(private readonly rules: readonly RuleModule[]) {}

  /**
   * The lists for a run's rules, shared by the runs of the same rules in the same order (every file of a
   * workspace under one configuration): each run found them again, 45 rules by each kind of statement.
   */
  static of(rules: readonly { rule: RuleModule }[], kept: Map<string, RulesByKind>): RulesByKind {
    let key = '';
    for (const { rule } of rules) key += rule.meta.id + '\u0000';
    let found = kept.get(key);
    if (!found) {
      // A few configurations in a workspace; a bound all the same, as the rule sets come from its files.
      if (kept.size >= RULE_SETS_KEPT) kept.clear();
      kept.set(key, (found = new RulesByKind(rules.map((r) => r.rule))));
    }
    return found;
  }

  of(kind: Statement['kind']): readonly KindRule[] {
    let list = this.lists.get(kind);
    if (!list) {
      const found: KindRule[] = [];
      for (let i = 0; i < this.rules.length; i++) {
        const rule = this.rules[i]!;
        const handler = handlerOf(rule, kind);
        if (!rule.handlers || handler) found.push({ index: i, handler: rule.check ? undefined : handler });
      }
      this.lists.set(kind, (list = found));
    }
    return list;
  }
}

/** Rule sets whose lists by kind a runner keeps (RulesByKind.of). */
const RULE_SETS_KEPT = 32;

/** A rule whose findings depend on its file alone: it runs with a FileRuleContext (runLocal). */
export function isFileLocal(rule: RuleModule): rule is FileLocalRuleModule {
  return rule.meta.fileLocal === true;
}

/** A rule's severity under its config setting (`level` or `[level, options]`) and an editor override; undefined when off. */
export function severityFor(
  rule: RuleModule,
  setting: RuleSetting | undefined,
  override?: RuleLevel,
): Severity | undefined {
  const level = override ?? (Array.isArray(setting) ? setting[0] : setting);
  if (level === 'off') return undefined;
  if (level === 'error') return 'error';
  if (level === 'warn') return 'warning';
  return rule.meta.defaultSeverity;
}

/**
 * Whether, and how, a run reports the suppression comments that silence nothing: the command line's level,
 * else the config's `reportUnusedDisableDirectives` (default off). The ids judged are those of the rules that
 * run on the file: a directive for a rule the configuration turns off is left alone (ESLint reports it; here
 * a comment kept for a rule a team turns on and off, or a file linted with several configs, is not churned).
 */
export function unusedDirectivesFor(
  input: Pick<RuleRunInput, 'config' | 'overrides' | 'unusedDirectives'>,
): { severity: Severity; judged: (ruleId: string) => boolean } | undefined {
  const level = input.unusedDirectives ?? input.config.reportUnusedDisableDirectives ?? 'off';
  if (level === 'off') return undefined;
  return {
    severity: level === 'error' ? 'error' : 'warning',
    judged: (id) => {
      const rule = ruleById(id);
      return !!rule && !!severityFor(rule, input.config.rules?.[id], input.overrides?.[id]);
    },
  };
}

/** A rule's options: defaults from its meta, overridden by the config's `[level, options]` setting. */
export function ruleOptions(rule: RuleModule, setting: unknown): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [k, spec] of Object.entries(rule.meta.options ?? {}))
    if (spec.default !== undefined) options[k] = spec.default;
  if (Array.isArray(setting)) Object.assign(options, setting[1]);
  return options;
}

/** One file to run the file-local rules on: the file alone, nothing of the workspace. */
type LocalRunInput = Pick<
  RuleRunInput,
  'filePath' | 'text' | 'parse' | 'fileSchema' | 'config' | 'target' | 'overrides'
>;

export class RuleRunner {
  /** Statement-scoped rule results by statement AST object. */
  private statementResults = new WeakMap<Statement, StatementResult>();
  /**
   * Parses (their statement lists) linted once, whose statements' results were not kept: most statements
   * are linted once (every file of a workspace, the CLI's), so a statement's key is made, and its results
   * kept, from its parse's second lint on (a file whose lint read a table that an edit elsewhere changed).
   * Marked by parse, not by statement: one entry per file instead of one per statement (a WeakSet of tens
   * of thousands of statements cost the CLI more than the keys it saved); a statement the incremental parse
   * carried into a new parse of a file not open in an editor is linted as new there once more.
   */
  private lintedOnce = new WeakSet<readonly Statement[]>();
  private readonly keys = new StatementKeys();
  /** Each rule set's rules by kind of statement (RulesByKind.of). */
  private readonly rulesByKind = new Map<string, RulesByKind>();
  private readonly resolveTable = (filePath: string, name: QualifiedName, at: number): readonly TableInfo[] =>
    this.host.resolveTable(filePath, name, at);

  constructor(private readonly host: RuleRunHost) {}

  /**
   * Runs the enabled file-local rules (RuleMeta.fileLocal) on one file, each over the whole file with a
   * FileRuleContext. Their findings, as reported (see settle), are the same whatever the workspace holds.
   */
  runLocal(input: LocalRunInput): OffsetFinding[] {
    const { filePath, text, parse, config } = input;
    const fs = input.fileSchema;
    const target = targetInfo(input.target ?? config.target);
    const findings: OffsetFinding[] = [];
    const walk: HandlerRun[] = [];
    let cluster: ClusterSettings | null | undefined;
    const clusterOf = (): ClusterSettings | undefined =>
      (cluster === undefined ? (cluster = this.host.cluster(filePath) ?? null) : cluster) ?? undefined;
    for (const rule of allRules) {
      if (!isFileLocal(rule)) continue;
      const setting = config.rules?.[rule.meta.id];
      const severity = severityFor(rule, setting, input.overrides?.[rule.meta.id]);
      if (!severity) continue;
      const ctx: FileRuleContext = {
        filePath,
        text,
        parse,
        target,
        options: ruleOptions(rule, setting),
        keyspaceAt: (offset: number) => keyspaceAt(fs, offset),
        cluster: clusterOf,
        report: (f) => findings.push(findingOf(rule.meta, f, severity)),
      };
      if (rule.handlers) walk.push({ rule, ctx: ctx as RuleContext, failed: false });
      else this.runRule(rule, ctx as RuleContext, filePath);
    }
    this.walkHandlers(parse.statements, walk, filePath);
    return findings;
  }

  /**
   * Walks the statements once, calling each rule's handler for the statement's kind. A rule that throws is
   * recorded and called no more on this file (as a check() that throws stops there).
   */
  private walkHandlers(statements: readonly Statement[], runs: HandlerRun[], filePath: string): void {
    if (!runs.length) return;
    const byKind = RulesByKind.of(runs, this.rulesByKind);
    // Indexed loops: an iterator's result object per step, for every statement and rule, was garbage
    // whenever the loop ran unoptimized.
    for (let s = 0; s < statements.length; s++) {
      const stmt = statements[s]!;
      const rules = byKind.of(stmt.kind);
      for (let r = 0; r < rules.length; r++) {
        const { index, handler } = rules[r]!;
        const run = runs[index]!;
        if (run.failed) continue;
        try {
          handler!(stmt, run.ctx);
        } catch (error) {
          run.failed = true;
          this.host.recordInternalError(run.rule.meta.id, filePath, error);
        }
      }
    }
  }

  /**
   * A file's findings as lint results: those its suppression comments silence left out, sorted by position.
   * `unused`: the suppression comments that silenced nothing are reported too, with that severity, judged on
   * the rules `judged` says run (unusedDirectivesFor).
   */
  settle(
    findings: OffsetFinding[],
    parse: ParseResult,
    lines: () => LineIndex,
    unused?: { severity: Severity; judged: (ruleId: string) => boolean },
  ): OffsetFinding[] {
    const kept = !parse.comments.length
      ? findings
      : unused
        ? suppressWithUnused(findings, parse.comments, lines(), unused.severity, unused.judged)
        : findings.length
          ? applySuppressions(findings, parse.comments, lines())
          : findings;
    kept.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end || a.ruleId.localeCompare(b.ruleId));
    return kept;
  }

  /**
   * Runs every enabled rule on one file, the file-local ones' findings given (runLocal); statement-scoped rules
   * reuse their cached results where they still hold. The findings keep the AST's offsets (locateFindings gives
   * their lines), sorted by position.
   */
  run(input: RuleRunInput): OffsetFinding[] {
    const { filePath, parse, config } = input;
    const target = targetInfo(input.target ?? config.target);
    const overrides = input.overrides ?? {};
    const findings: OffsetFinding[] = [];
    const fileBase = fileContext(this.host, input, target);
    const statementRun: StatementRun = { scope: undefined, out: findings, single: [] };
    const base = contextTemplate(fileBase);
    const scopedBase = contextTemplate(statementContext(this.host, input, fileBase, statementRun));

    const statementRules: StatementRule[] = [];
    const walk: HandlerRun[] = [];
    const epochParts: string[] = [
      filePath,
      String(input.optionsVersion),
      String(this.keys.objectId(config)),
      target.id,
    ];
    for (const rule of allRules) {
      if (isFileLocal(rule)) continue; // input.local holds their findings
      const setting = config.rules?.[rule.meta.id];
      const severity = severityFor(rule, setting, overrides[rule.meta.id]);
      if (!severity) continue;
      const options = ruleOptions(rule, setting);
      const report = (f: Parameters<RuleContext['report']>[0]): void => {
        statementRun.out.push(findingOf(rule.meta, f, severity));
      };
      if (rule.meta.scope === 'statement') {
        statementRules.push({ rule, ctx: ruleContext(scopedBase, options, report) });
        epochParts.push(rule.meta.id);
        continue;
      }
      const ctx = ruleContext(base, options, report);
      if (rule.handlers) walk.push({ rule, ctx, failed: false });
      else this.runRule(rule, ctx, filePath);
    }
    this.walkHandlers(parse.statements, walk, filePath);
    if (statementRules.length)
      this.runStatementRules(input, statementRules, statementRun, findings, epochParts.join('\u0000'));
    for (const f of input.local) findings.push(f);
    return this.settle(findings, parse, input.lines, unusedDirectivesFor(input));
  }

  /**
   * The statement-scoped rules, statement by statement: a statement's cached results are reused while its
   * key, the epoch and its anchors hold (the rules that read references run again when those changed);
   * otherwise each rule runs with a fresh scope and the results are cached if every lookup was covered.
   */
  private runStatementRules(
    input: RuleRunInput,
    statementRules: readonly StatementRule[],
    run: StatementRun,
    findings: OffsetFinding[],
    epoch: string,
  ): void {
    const { filePath, parse, model, references } = input;
    const fs = input.fileSchema;
    if (this.keys.full()) {
      // Every cached statement result was keyed by the fingerprints forgotten: they miss once.
      this.keys.reset();
      this.statementResults = new WeakMap();
    }
    this.keys.useModel(model);
    const indexEvents = new IndexEvents(model, filePath);
    // What one rule reports on one statement (most report nothing: no array each).
    const reported: OffsetFinding[] = [];
    // Runs one statement rule with a fresh scope; its result when it can be reused.
    // A rule with handlers but none for a statement's kind has nothing to say on it: it is not run.
    const byKind = RulesByKind.of(statementRules, this.rulesByKind);
    // Whether the last runOne read the workspace's definitions (StatementScope.modelBound).
    let ranModelBound = false;
    const runOne = (
      i: number,
      stmt: Statement,
      current: StatementScope,
      handler: StatementHandler | undefined,
    ): RuleResult | undefined => {
      const { rule, ctx } = statementRules[i]!;
      const scope = (run.scope = current);
      scope.cacheable = true;
      scope.modelBound = false;
      scope.references = undefined;
      reported.length = 0;
      run.out = reported;
      const ran = this.runRule(rule, ctx, filePath, stmt, handler);
      ranModelBound = scope.modelBound;
      run.out = findings;
      for (const f of reported) findings.push(f);
      const result =
        !ran || !scope.cacheable
          ? undefined
          : !reported.length && !scope.references
            ? EMPTY_RESULT
            : {
                findings: reported.slice(),
                anchors: anchorsOf(reported, stmt),
                references: scope.references ?? NO_REFERENCES,
              };
      run.scope = undefined;
      return result;
    };
    const single = run.single;
    // The scope of a statement's first lint (no key: nothing is covered), one object for the run.
    let bare: StatementScope | undefined;
    const firstLint = !input.editing && !this.lintedOnce.has(parse.statements);
    if (firstLint) this.lintedOnce.add(parse.statements);
    // The statement's scope and key (kept for an open file: see StatementKeys.statementScope).
    const scopeOf = (stmt: Statement, following: number | undefined, schemaBefore: number) =>
      this.keys.statementScope(
        filePath,
        fs,
        model,
        stmt,
        indexEvents,
        this.resolveTable,
        following,
        input.editing ? schemaBefore : undefined,
      );
    // How many schema statements precede the statement (an open file's kept scopes are checked with it).
    let schemaSeen = 0;
    const statements = parse.statements;
    for (let s = 0; s < statements.length; s++) {
      const stmt = statements[s]!;
      const start = stmt.range.start;
      const schemaBefore = schemaSeen;
      if (input.editing && isSchemaStatement(stmt)) schemaSeen++;
      single[0] = stmt;
      const rules = byKind.of(stmt.kind);
      const cached = this.statementResults.get(stmt);
      if (!cached && firstLint) {
        if (!bare)
          bare = {
            statement: stmt,
            start,
            lookups: NO_LOOKUPS,
            names: NO_NAMES,
            types: false,
            cacheable: false,
            modelBound: false,
          };
        bare.statement = stmt;
        bare.start = start;
        for (let r = 0; r < rules.length; r++) {
          const { index, handler } = rules[r]!;
          const { rule, ctx } = statementRules[index]!;
          bare.cacheable = false;
          bare.references = undefined;
          run.scope = bare;
          this.runRule(rule, ctx, filePath, stmt, handler);
        }
        run.scope = undefined;
        continue;
      }
      const following = statements[s + 1]?.range.start;
      const end = endCovered(stmt, following) !== undefined;
      // In an open file, a statement whose key was last found to hold under the same file schema, model, count
      // of schema statements before it and end coverage has that key still (StatementKeys keeps its scope under
      // those): after an edit that is every statement but the edited ones, and none of them is asked for it.
      const keyHolds =
        input.editing === true &&
        cached?.scoped !== undefined &&
        keptScopeHolds(cached.scoped, fs, model, schemaBefore, end);
      let current = keyHolds ? undefined : scopeOf(stmt, following, schemaBefore);
      if (cached && cached.epoch === epoch && (keyHolds || cached.key === current!.key) && moved(cached.fixed, start)) {
        if (input.editing && !keyHolds) cached.scoped = current;
        for (const f of cached.fixed.findings) findings.push(f);
        let stale = false;
        for (const entry of cached.dynamic) {
          if (
            (entry.model === undefined || entry.model === model) &&
            moved(entry.result, start) &&
            this.host.referencesUnchanged(entry.result.references)
          ) {
            for (const f of entry.result.findings) findings.push(f);
            for (const d of entry.result.references) references.push(d);
            continue;
          }
          const rule = statementRules[entry.rule]!.rule;
          current ??= scopeOf(stmt, following, schemaBefore);
          const result = runOne(entry.rule, stmt, current.scope, rule.check ? undefined : handlerOf(rule, stmt.kind));
          if (result) entry.result = result;
          else stale = true;
          entry.model = ranModelBound ? model : undefined;
        }
        if (stale) this.statementResults.delete(stmt);
        continue;
      }
      current ??= scopeOf(stmt, following, schemaBefore);
      let fixed: RuleResult = EMPTY_RESULT;
      let dynamic: StatementResult['dynamic'] = NO_DYNAMIC;
      let cacheable = true;
      for (let r = 0; r < rules.length; r++) {
        const { index: i, handler } = rules[r]!;
        const result = runOne(i, stmt, current.scope, handler);
        if (!result) cacheable = false;
        else if (result.references.length || ranModelBound)
          (dynamic === NO_DYNAMIC ? (dynamic = []) : dynamic).push({
            rule: i,
            result,
            model: ranModelBound ? model : undefined,
          });
        else if (result !== EMPTY_RESULT) {
          // The rule's own anchors, found by runOne, serve the statement's fixed result as they are.
          if (fixed === EMPTY_RESULT) fixed = { findings: [], anchors: [], references: NO_REFERENCES };
          for (const f of result.findings) fixed.findings.push(f);
          for (const a of result.anchors) fixed.anchors.push(a);
        }
      }
      if (!cacheable) this.statementResults.delete(stmt);
      else
        this.statementResults.set(stmt, {
          epoch,
          key: current.key,
          fixed,
          dynamic,
          scoped: input.editing ? current : undefined,
        });
    }
    single.length = 0;
  }

  /**
   * Runs one rule: its check(), or (a statement-scoped run of a rule with handlers) its `handler` for `stmt`.
   * A crash is recorded (a rule must never take the server down). False when it threw.
   */
  private runRule(
    rule: RuleModule,
    ctx: RuleContext,
    filePath: string,
    stmt?: Statement,
    handler?: StatementHandler,
  ): boolean {
    try {
      if (rule.check) rule.check(ctx);
      else if (stmt) handler?.(stmt, ctx);
      return true;
    } catch (error) {
      this.host.recordInternalError(rule.meta.id, filePath, error);
      return false;
    }
  }
}

/** Whether a result's anchors moved with its statement, now at `start` (a plain loop: asked of every statement on every edit). */
function moved(result: RuleResult, start: number): boolean {
  for (const a of result.anchors) if (a.range.start - start !== a.relative) return false;
  return true;
}

/** Ranges starting inside the statement that the findings hold, with their offset from its start. */
function anchorsOf(findings: OffsetFinding[], stmt: Statement): RuleResult['anchors'] {
  const start = stmt.range.start;
  const end = stmt.range.end;
  const ranges: SourceRange[] = [];
  for (const f of findings) findingRanges(f, ranges);
  const anchors: RuleResult['anchors'] = [];
  for (const range of ranges) {
    if (range.start >= start && range.start <= end) anchors.push({ range, relative: range.start - start });
  }
  return anchors;
}

/** A statement-scoped rule with its context (made once per run). */
interface StatementRule {
  rule: RuleModule;
  ctx: RuleContext;
}
