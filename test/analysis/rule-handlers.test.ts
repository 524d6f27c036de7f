// Rules with handlers by statement kind (RuleModule.handlers): the runner walks a file's top-level
// statements once and calls, for each, the handler of its kind; file-scoped, statement-scoped and
// file-local rules alike. A handler that throws is recorded and not called again on that file.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Statement } from '../../grammar/ast';
import { allRules } from '../../server/core/rules';
import type { RuleContext, RuleModule } from '../../server/core/rules/types';
import { MAIN, ofRule, projectWith } from './helpers';

const CODE = `CREATE TABLE ks.t (id int PRIMARY KEY, v text);
SELECT * FROM ks.t WHERE id = 1;
INSERT INTO ks.t (id, v) VALUES (1, 'a');
SELECT v FROM ks.t WHERE id = 2;
BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (2, 'b'); APPLY BATCH;
`;

/** A probe rule recording the statements each handler is called with, and reporting on every SELECT. */
function probe(id: string, meta: Partial<RuleModule['meta']> = {}) {
  const seen: string[] = [];
  const rule: RuleModule = {
    meta: {
      id,
      defaultSeverity: 'info',
      description: 'test probe of handlers',
      messages: { select: 'select from {{table}}' },
      ...meta,
    },
    handlers: {
      Select(stmt, ctx) {
        seen.push(`Select@${stmt.range.start}`);
        ctx.report({ messageId: 'select', values: { table: stmt.from.name.name }, range: stmt.from.range });
      },
      CreateTable(stmt) {
        seen.push(`CreateTable@${stmt.range.start}`);
      },
    },
  };
  return { rule, seen };
}

const added: RuleModule[] = [];
function register(rule: RuleModule): void {
  allRules.push(rule);
  added.push(rule);
}
afterEach(() => {
  for (const rule of added.splice(0)) allRules.splice(allRules.indexOf(rule), 1);
});

/** Where each statement of a kind starts in CODE, as the probe records it. */
function starts(kinds: Statement['kind'][]): string[] {
  const project = projectWith(CODE);
  return project
    .parse(MAIN)
    .statements.filter((s) => kinds.includes(s.kind))
    .map((s) => `${s.kind}@${s.range.start}`);
}

describe('rule handlers by statement kind', () => {
  for (const scope of ['file', 'statement'] as const) {
    test(`scope '${scope}': each handler is called once per top-level statement of its kind, in order, and its findings are reported`, () => {
      const { rule, seen } = probe(`handler-probe-${scope}`, { scope });
      register(rule);
      const project = projectWith(CODE);
      const findings = ofRule(project.lint(MAIN), rule.meta.id);
      assert.deepEqual(project.internalErrors, []);
      // The INSERTs (one on its own, one in a batch) and the batch have no handler: never called.
      assert.deepEqual(seen, starts(['CreateTable', 'Select']));
      assert.deepEqual(
        findings.map((f) => [f.range.start.line, f.message]),
        [
          [2, 'select from t'],
          [4, 'select from t'],
        ],
      );
    });
  }

  test('a statement-scoped handler rule gives the same findings on re-lints, run again only on what changed', () => {
    const { rule, seen } = probe('handler-probe-cached', { scope: 'statement' });
    register(rule);
    // An open file: its statements' results are kept from the first lint.
    const project = projectWith(CODE, {}, { editing: () => true });
    const first = ofRule(project.lint(MAIN), rule.meta.id);
    assert.equal(first.length, 2);
    seen.length = 0;
    project.setFile(MAIN, CODE);
    const again = ofRule(project.lint(MAIN), rule.meta.id);
    assert.deepEqual(seen, []);
    assert.deepEqual(again, first);
    // An edit of one SELECT runs its handler alone again.
    seen.length = 0;
    const edited = CODE.replace('WHERE id = 2', 'WHERE id = 3');
    project.setFile(MAIN, edited);
    const after = ofRule(project.lint(MAIN), rule.meta.id);
    assert.deepEqual(seen, [`Select@${edited.indexOf('SELECT v')}`]);
    assert.equal(after.length, 2);
  });

  test('a file-local handler rule runs on the file alone, before the workspace (lintLocal), with the same findings', () => {
    const { rule, seen } = probe('handler-probe-local', { fileLocal: true });
    register(rule);
    const project = projectWith(CODE);
    const local = ofRule(project.lintLocal(MAIN), rule.meta.id);
    assert.deepEqual(seen, starts(['CreateTable', 'Select']));
    assert.deepEqual(ofRule(project.lint(MAIN), rule.meta.id), local);
    assert.equal(local.length, 2);
  });

  /** A probe rule with RuleMeta.batchMembers: it records each write handler's call and the batch it is in. */
  function memberProbe(id: string, meta: Partial<RuleModule['meta']>, withBatch: boolean) {
    const seen: string[] = [];
    const write = (stmt: Statement, ctx: RuleContext): void => {
      seen.push(`${stmt.kind}@${stmt.range.start}${ctx.batch ? ` in Batch@${ctx.batch.range.start}` : ''}`);
      ctx.report({ messageId: 'write', values: { kind: stmt.kind }, range: stmt.range });
    };
    const rule: RuleModule = {
      meta: {
        id,
        defaultSeverity: 'info',
        description: 'test probe of batch members',
        messages: { write: '{{kind}}', batch: 'batch' },
        batchMembers: true,
        ...meta,
      },
      handlers: {
        Insert: write,
        Update: write,
        ...(withBatch
          ? {
              Batch(stmt, ctx) {
                seen.push(`Batch@${stmt.range.start}${ctx.batch ? ' (nested?)' : ''}`);
                ctx.report({ messageId: 'batch', range: stmt.range });
              },
            }
          : {}),
      },
    };
    return { rule, seen };
  }

  const BATCHES = `CREATE TABLE ks.t (id int PRIMARY KEY, v text);
INSERT INTO ks.t (id, v) VALUES (1, 'a');
BEGIN BATCH INSERT INTO ks.t (id, v) VALUES (2, 'b'); DELETE FROM ks.t WHERE id = 3; UPDATE ks.t SET v = 'c' WHERE id = 4; APPLY BATCH;
BEGIN UNLOGGED BATCH DELETE FROM ks.t WHERE id = 5; APPLY BATCH;
`;
  const at = (text: string, from = 0): number => BATCHES.indexOf(text, from);
  const batch1 = at('BEGIN BATCH');
  const batch2 = at('BEGIN UNLOGGED');

  for (const meta of [{}, { scope: 'statement' as const }, { fileLocal: true as const }]) {
    for (const withBatch of [false, true]) {
      test(`batchMembers ${JSON.stringify(meta)}${withBatch ? ' with a Batch handler' : ''}: the write handlers run on each member, in order, with ctx.batch`, () => {
        const { rule, seen } = memberProbe(`batch-probe-${Object.keys(meta).join('')}-${withBatch}`, meta, withBatch);
        register(rule);
        const project = projectWith(BATCHES);
        const findings = ofRule(project.lint(MAIN), rule.meta.id);
        assert.deepEqual(project.internalErrors, []);
        // The DELETEs have no handler; the Batch handler (when there is one) runs before the members.
        assert.deepEqual(seen, [
          `Insert@${at('INSERT')}`,
          ...(withBatch ? [`Batch@${batch1}`] : []),
          `Insert@${at('INSERT', batch1)} in Batch@${batch1}`,
          `Update@${at('UPDATE', batch1)} in Batch@${batch1}`,
          ...(withBatch ? [`Batch@${batch2}`] : []),
        ]);
        assert.deepEqual(
          findings.map((f) => [f.range.start.line, f.message]),
          [
            [2, 'Insert'],
            ...(withBatch ? [[3, 'batch']] : []),
            [3, 'Insert'],
            [3, 'Update'],
            ...(withBatch ? [[4, 'batch']] : []),
          ],
        );
      });
    }
  }

  test('without batchMembers, the write handlers never see a batch member', () => {
    const { rule, seen } = memberProbe('batch-probe-off', { batchMembers: undefined }, false);
    register(rule);
    const project = projectWith(BATCHES);
    assert.equal(ofRule(project.lint(MAIN), rule.meta.id).length, 1);
    assert.deepEqual(seen, [`Insert@${at('INSERT')}`]);
  });

  test("a statement-scoped batchMembers rule keeps its members' findings with the batch's cached result", () => {
    const { rule, seen } = memberProbe('batch-probe-cached', { scope: 'statement' }, false);
    register(rule);
    const project = projectWith(BATCHES, {}, { editing: () => true });
    const first = ofRule(project.lint(MAIN), rule.meta.id);
    assert.equal(first.length, 3);
    seen.length = 0;
    project.setFile(MAIN, BATCHES);
    assert.deepEqual(ofRule(project.lint(MAIN), rule.meta.id), first);
    assert.deepEqual(seen, []);
    // An edit inside the first batch runs its members again, and nothing else.
    const edited = BATCHES.replace("SET v = 'c'", "SET v = 'd'");
    project.setFile(MAIN, edited);
    const after = ofRule(project.lint(MAIN), rule.meta.id);
    assert.deepEqual(seen, [
      `Insert@${at('INSERT', batch1)} in Batch@${batch1}`,
      `Update@${at('UPDATE', batch1)} in Batch@${batch1}`,
    ]);
    assert.deepEqual(after, first);
  });

  test('the rules that opt in to batchMembers handle INSERT, UPDATE or DELETE', () => {
    const optedIn = allRules.filter((r) => r.meta.batchMembers);
    assert.ok(optedIn.length >= 6);
    for (const r of optedIn) {
      assert.ok(r.handlers && !r.check, r.meta.id);
      assert.ok(r.handlers.Insert || r.handlers.Update || r.handlers.Delete, r.meta.id);
    }
  });

  test('a handler that throws is recorded once, not called again on the file, and the other rules still report', () => {
    let calls = 0;
    const rule: RuleModule = {
      meta: {
        id: 'handler-probe-throws',
        defaultSeverity: 'info',
        description: 'test probe that throws',
        messages: {},
      },
      handlers: {
        Select() {
          calls++;
          throw new Error('probe failure');
        },
      },
    };
    register(rule);
    const { rule: other } = probe('handler-probe-other');
    register(other);
    const project = projectWith(CODE);
    const findings = project.lint(MAIN);
    assert.equal(calls, 1);
    assert.deepEqual(
      project.internalErrors.map((e) => e.ruleId),
      ['handler-probe-throws'],
    );
    assert.equal(ofRule(findings, 'handler-probe-other').length, 2);
  });
});
