// Suppression comments that silence nothing (ESLint's --report-unused-disable-directives): which are
// reported, at what level, and what their fix leaves of the comment.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, fixesForFinding } from '../../server/core/fixes';
import { projectFixContext } from '../../server/core/fixes/environment';
import type { CqlintConfig, RuleLevel } from '../../server/core/vocabulary/config';
import { parseConfig } from '../../server/core/config';
import { MAIN, lintMain, projectWith } from './helpers';

const table = 'CREATE TABLE ks.t (id uuid, c int, v int, PRIMARY KEY (id, c));\n';
const scan = 'SELECT * FROM ks.t WHERE v > 1 ALLOW FILTERING;';
const keyed = 'SELECT * FROM ks.t WHERE id = 5e7e7e3e-0000-4000-8000-000000000000 AND c = 1;';
const UNUSED = 'unused-disable-directive';

interface Case {
  name: string;
  code: string;
  config?: CqlintConfig;
  /** The unused-directive findings: `line:column message`. */
  reported: string[];
  /** The text after every unused-directive fix is applied (as --fix does); default: unchanged. */
  fixed?: string;
}

const CASES: Case[] = [
  {
    name: 'a used next-line directive',
    code: `${table}-- cqlint-disable-next-line allow-filtering\n${scan}`,
    reported: [],
  },
  {
    name: 'a next-line directive over a line with nothing to silence',
    code: `${table}-- cqlint-disable-next-line allow-filtering\n${keyed}\n`,
    reported: ["2:29 Unused cqlint-disable-next-line directive (no problems were reported from 'allow-filtering')"],
    fixed: `${table}${keyed}\n`,
  },
  {
    name: 'one id of several unused, a description kept',
    code: `${table}-- cqlint-disable-next-line hot-partition, allow-filtering -- reviewed\n${scan}`,
    reported: ["2:29 Unused cqlint-disable-next-line directive (no problems were reported from 'hot-partition')"],
    fixed: `${table}-- cqlint-disable-next-line allow-filtering -- reviewed\n${scan}`,
  },
  {
    name: 'the last id of several unused',
    code: `${table}/* cqlint-disable-next-line allow-filtering,hot-partition */\n${scan}`,
    reported: ["2:45 Unused cqlint-disable-next-line directive (no problems were reported from 'hot-partition')"],
    fixed: `${table}/* cqlint-disable-next-line allow-filtering */\n${scan}`,
  },
  {
    name: 'every id unused: the whole comment goes, and the -- description with it',
    code: `${table}-- cqlint-disable-next-line hot-partition, unbounded-partition -- why\n${keyed}\n`,
    reported: [
      "2:29 Unused cqlint-disable-next-line directive (no problems were reported from 'hot-partition')",
      "2:44 Unused cqlint-disable-next-line directive (no problems were reported from 'unbounded-partition')",
    ],
    fixed: `${table}${keyed}\n`,
  },
  { name: 'a used disable-line', code: `${table}${scan} -- cqlint-disable-line allow-filtering`, reported: [] },
  {
    name: 'an unused disable-line after code: the comment and the blanks before it go',
    code: `${table}${keyed}  -- cqlint-disable-line allow-filtering\n`,
    reported: ["2:103 Unused cqlint-disable-line directive (no problems were reported from 'allow-filtering')"],
    fixed: `${table}${keyed}\n`,
  },
  {
    name: 'an unused disable-line with no ids',
    code: `${table}${keyed} // cqlint-disable-line`,
    reported: ['2:79 Unused cqlint-disable-line directive (no problems were reported)'],
    fixed: `${table}${keyed}`,
  },
  {
    name: 'a block comment before code on its line',
    code: `${table}/* cqlint-disable-line */ ${keyed}\n`,
    reported: ['2:1 Unused cqlint-disable-line directive (no problems were reported)'],
    fixed: `${table}${keyed}\n`,
  },
  {
    name: 'a used disable ... enable region; the enable is never reported',
    code: `${table}-- cqlint-disable allow-filtering\n${scan}\n-- cqlint-enable allow-filtering\n`,
    reported: [],
  },
  {
    name: 'an unused disable ... enable region (the enable is left)',
    code: `${table}-- cqlint-disable allow-filtering\n${keyed}\n-- cqlint-enable allow-filtering\n${scan}\n`,
    reported: ["2:19 Unused cqlint-disable directive (no problems were reported from 'allow-filtering')"],
    fixed: `${table}${keyed}\n-- cqlint-enable allow-filtering\n${scan}\n`,
  },
  {
    name: 'a second disable of a region already open silences nothing',
    code: `${table}-- cqlint-disable allow-filtering\n${scan}\n-- cqlint-disable allow-filtering\n${scan}\n`,
    reported: ["4:19 Unused cqlint-disable directive (no problems were reported from 'allow-filtering')"],
    fixed: `${table}-- cqlint-disable allow-filtering\n${scan}\n${scan}\n`,
  },
  { name: 'a used file-wide disable', code: `-- cqlint-disable\n${table}${scan}\n`, reported: [] },
  {
    name: 'an unused file-wide disable',
    code: `-- cqlint-disable\n${table}`,
    reported: ['1:1 Unused cqlint-disable directive (no problems were reported)'],
    fixed: table,
  },
  {
    name: 'an unknown id is invalid-suppression, not reported as unused',
    code: `${table}-- cqlint-disable-next-line allow-filtering, no-such-rule\n${scan}`,
    reported: [],
  },
  {
    name: 'a directive for a rule the configuration turns off is left alone',
    code: `${table}-- cqlint-disable-next-line hot-partition\n${keyed}\n`,
    config: { rules: { 'hot-partition': 'off' } },
    reported: [],
  },
  {
    name: 'two directives cover one finding: both are used',
    code: `${table}-- cqlint-disable allow-filtering\n-- cqlint-disable-next-line allow-filtering\n${scan}\n`,
    reported: [],
  },
];

function withLevel(level: RuleLevel, config: CqlintConfig = {}): CqlintConfig {
  return { ...config, reportUnusedDisableDirectives: level };
}

function unusedOf(code: string, config: CqlintConfig): string[] {
  return lintMain(code, {}, { config })
    .filter((f) => f.ruleId === UNUSED)
    .map((f) => `${f.range.start.line}:${f.range.start.column} ${f.message}`);
}

/** Applies the unused-directive fixes as --fix does: one pass at a time, until none is left. */
function fixAll(code: string, config: CqlintConfig): string {
  let text = code;
  for (let pass = 0; pass < 10; pass++) {
    const project = projectWith(text, {}, { config });
    const finding = project.lint(MAIN).find((f) => f.ruleId === UNUSED);
    if (!finding) return text;
    const [fix] = fixesForFinding(text, project.parse(MAIN), finding, projectFixContext(project, MAIN));
    assert.ok(fix?.safeForFixAll, `a safe fix for ${finding.message}`);
    text = applyEdits(text, fix.edits);
  }
  assert.fail('the fixes did not settle');
}

describe('unused suppression comments', () => {
  for (const c of CASES) {
    test(c.name, () => {
      assert.deepEqual(unusedOf(c.code, withLevel('warn', c.config)), c.reported);
      if (c.reported.length) assert.equal(fixAll(c.code, withLevel('warn', c.config)), c.fixed ?? c.code);
      // What the fix leaves silences what the comment silenced before.
      const others = (code: string) =>
        lintMain(code, {}, { config: c.config ?? {} }).map((f) => `${f.ruleId} ${f.range.start.line}`);
      if (c.fixed !== undefined) assert.equal(others(c.fixed).length, others(c.code).length);
    });
  }

  test('off by default, and off leaves every result as it was', () => {
    const code = `${table}-- cqlint-disable-next-line allow-filtering\n${keyed}\n`;
    assert.deepEqual(unusedOf(code, {}), []);
    assert.deepEqual(lintMain(code, {}, { config: withLevel('off') }), lintMain(code));
  });

  test('the level sets the severity; the project option replaces the config', () => {
    const code = `${table}-- cqlint-disable-next-line allow-filtering\n${keyed}\n`;
    const severity = (options: Parameters<typeof lintMain>[2]) =>
      lintMain(code, {}, options)
        .filter((f) => f.ruleId === UNUSED)
        .map((f) => f.severity);
    assert.deepEqual(severity({ config: withLevel('warn') }), ['warning']);
    assert.deepEqual(severity({ config: withLevel('error') }), ['error']);
    assert.deepEqual(severity({ config: withLevel('error'), reportUnusedDisableDirectives: 'off' }), []);
    assert.deepEqual(severity({ config: {}, reportUnusedDisableDirectives: 'warn' }), ['warning']);
  });

  test('.cqlint.json: reportUnusedDisableDirectives is read, and a bad value is a clear error', () => {
    assert.equal(parseConfig({ reportUnusedDisableDirectives: 'warn' }).config?.reportUnusedDisableDirectives, 'warn');
    const bad = parseConfig({ reportUnusedDisableDirectives: true });
    assert.equal(bad.config?.reportUnusedDisableDirectives, undefined);
    assert.deepEqual(
      bad.errors.map((e) => e.key),
      ['reportUnusedDisableDirectives'],
    );
    assert.match(bad.errors[0]!.message, /must be "off", "warn" or "error", got/);
  });
});
