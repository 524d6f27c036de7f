// The grammar-driven oracle (test/grammar/oracle.ts): statements generated from the grammar's productions and
// their near-misses, on which the reader and the rules must agree: a fixed seed in `npm test`, a range of seeds in
// CI (CI=true). A test of the test plants three slips, each in a copy of grammar/, and checks that the oracle of
// `npm test` catches each.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../helpers/corpus';
import { type Grammar, assertAgree, loadGrammar, runOracle } from './oracle';

const grammar = loadGrammar(join(projectRoot, 'grammar'));

/** The oracle's run in `npm test`: one seed, statements enough to reach each planted slip (test below). */
const SEED = 36;
const STATEMENTS = 250;
const NEAR_MISSES = 40;
/** In CI, more seeds. */
const CI_SEEDS = 10;

describe('the reader and the rules agree', () => {
  test(`on statements generated from the grammar, and their near-misses (seed ${SEED}${process.env.CI === 'true' ? `, and ${CI_SEEDS - 1} more in CI` : ''})`, () => {
    const seeds = process.env.CI === 'true' ? CI_SEEDS : 1;
    for (let seed = SEED; seed < SEED + seeds; seed++) {
      const run = runOracle(grammar, seed, STATEMENTS, NEAR_MISSES);
      assertAgree(run.generated, `the statements of seed ${seed}`);
      assertAgree(run.nearMisses, `the near-misses of seed ${seed}`);
      // Not vacuous: most generated statements are CQL, most read directly; near-misses fall on both sides.
      const { generated, nearMisses } = run;
      assert.ok(generated.read > 0.7 * STATEMENTS, JSON.stringify({ ...generated, disagreements: undefined }));
      assert.ok(
        nearMisses.read + nearMisses.left > 0.05 * nearMisses.rejected && nearMisses.rejected > 5 * STATEMENTS,
        JSON.stringify({ ...nearMisses, disagreements: undefined }),
      );
    }
  });
});

/** A copy of grammar/ with `from` replaced by `to` in `file`: the slip planted (it must be there to plant). */
function withSlip(file: string, from: string, to: string): { grammar: Grammar; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cqlint-slip-'));
  cpSync(join(projectRoot, 'grammar'), join(dir, 'grammar'), { recursive: true });
  // grammar/chevrotain.ts loads the package by a path relative to grammar/.
  symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'));
  const path = join(dir, 'grammar', file);
  const source = readFileSync(path, 'utf8');
  assert.ok(source.includes(from), `the slip's place is not in ${file} any more: update the test`);
  writeFileSync(path, source.replace(from, to));
  return { grammar: loadGrammar(join(dir, 'grammar')), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('the oracle catches a slip (a test of the test)', () => {
  const slips: { name: string; file: string; from: string; to: string }[] = [
    {
      name: 'LIMIT read before PER PARTITION LIMIT',
      file: 'syntax/select.ts',
      from: `    let perPartitionLimit: A.Expression | undefined;
    if (this.accept(K.PER)) {
      this.expect(K.PARTITION);
      this.expect(K.LIMIT);
      perPartitionLimit = this.intValue();
    }
    const limit = this.accept(K.LIMIT) ? this.intValue() : undefined;`,
      to: `    const limit = this.accept(K.LIMIT) ? this.intValue() : undefined;
    let perPartitionLimit: A.Expression | undefined;
    if (this.accept(K.PER)) {
      this.expect(K.PARTITION);
      this.expect(K.LIMIT);
      perPartitionLimit = this.intValue();
    }`,
    },
    {
      name: "CLUSTERING ORDER's direction read as optional",
      file: 'syntax/table.ts',
      from: 'if (!descending) this.expect(K.ASC);',
      to: 'if (!descending) this.accept(K.ASC);',
    },
    {
      name: 'NORECURSIVE read before OF',
      file: 'syntax/admin.ts',
      from: `    if (this.accept(K.OF)) names.push(this.roleName());
    this.accept(K.NORECURSIVE);`,
      to: `    this.accept(K.NORECURSIVE);
    if (this.accept(K.OF)) names.push(this.roleName());`,
    },
  ];
  for (const slip of slips) {
    test(slip.name, () => {
      const planted = withSlip(slip.file, slip.from, slip.to);
      try {
        const run = runOracle(planted.grammar, SEED, STATEMENTS, NEAR_MISSES, true);
        const found = [...run.generated.disagreements, ...run.nearMisses.disagreements];
        assert.ok(found.length > 0, `the oracle of npm test (seed ${SEED}, ${STATEMENTS} statements) misses the slip`);
      } finally {
        planted.dispose();
      }
    });
  }
});
