// grammar/cst.ts (the CST node types builder.ts reads nodes through) must match the grammar as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CST_TYPES_PATH, cstTypesSource } from '../../scripts/generate-cst-types';

test('grammar/cst.ts is generated from the current grammar', () => {
  assert.equal(readFileSync(CST_TYPES_PATH, 'utf8'), cstTypesSource(), 'grammar/cst.ts is stale: run `npx tsx scripts/generate-cst-types.ts`');
});
