// format --diff's unified diff, built from edits as they come: checked by applying it with `git apply`
// (outside a repository git applies a patch as `patch` does), on random edits and on real formatting.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { UnifiedDiff } from '../../server/core/format/diff';
import { formatPieces, formatText } from '../../server/core/format/formatter';
import { corpusFiles, readText } from '../helpers/corpus';
import { mulberry32 } from '../helpers/random';

function diffOf(
  original: string,
  edits: { start: number; end: number; text: string }[],
): { text: string; changed: boolean } {
  let text = '';
  const diff = new UnifiedDiff(original, { from: 'a/x.cql', to: 'b/x.cql' }, (chunk) => (text += chunk));
  for (const e of edits) diff.edit(e.start, e.end, e.text);
  const changed = diff.end();
  return { text, changed };
}

/** What `git apply` makes of `original` with the patch. */
function applied(original: string, patch: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cqlint-diff-'));
  try {
    writeFileSync(path.join(dir, 'x.cql'), original);
    writeFileSync(path.join(dir, 'change.diff'), patch);
    const run = spawnSync('git', ['apply', '--whitespace=nowarn', 'change.diff'], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.status, 0, `git apply: ${run.stderr}\n${patch}`);
    return readFileSync(path.join(dir, 'x.cql'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function applyEdits(original: string, edits: { start: number; end: number; text: string }[]): string {
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += original.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + original.slice(at);
}

describe('unified diff of a rewrite', () => {
  test('the same text gives no diff at all', () => {
    assert.deepEqual(diffOf('a\nb\n', [{ start: 0, end: 2, text: 'a\n' }]), { text: '', changed: false });
  });

  test('hunks as diff -u writes them: 3 lines of context, nearby changes joined, counts, no newline at the end', () => {
    const original = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15', '16'].join('\n');
    const at = (line: number): number =>
      original
        .split('\n')
        .slice(0, line - 1)
        .join('\n').length + (line > 1 ? 1 : 0);
    const { text } = diffOf(original, [
      { start: at(2), end: at(2) + 1, text: 'two' },
      { start: at(5), end: at(6), text: '' },
      { start: at(16), end: original.length, text: '16\n' },
    ]);
    assert.equal(
      text,
      [
        '--- a/x.cql',
        '+++ b/x.cql',
        '@@ -1,8 +1,7 @@',
        ' 1',
        '-2',
        '+two',
        ' 3',
        ' 4',
        '-5',
        ' 6',
        ' 7',
        ' 8',
        '@@ -13,4 +12,4 @@',
        ' 13',
        ' 14',
        ' 15',
        '-16',
        '\\ No newline at end of file',
        '+16',
        '',
      ].join('\n'),
    );
  });

  test('a large file changed throughout (one hunk, written in chunks) applies', () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `select c${i} from t;\n`);
    const original = lines.join('');
    const edits: { start: number; end: number; text: string }[] = [];
    let at = 0;
    lines.forEach((line, i) => {
      if (i % 3 === 0) edits.push({ start: at, end: at + line.length, text: line.toUpperCase() });
      at += line.length;
    });
    let writes = 0;
    let text = '';
    const diff = new UnifiedDiff(original, { from: 'a/x.cql', to: 'b/x.cql' }, (chunk) => ((text += chunk), writes++));
    for (const e of edits) diff.edit(e.start, e.end, e.text);
    diff.end();
    assert.equal(text.slice(0, text.indexOf('\n-')), '--- a/x.cql\n+++ b/x.cql\n@@ -1,30000 +1,30000 @@');
    assert.ok(writes > 5, `${writes} writes`);
    assert.equal(applied(original, text), applyEdits(original, edits));
  });

  test('random edits of random texts: git apply turns the text into the rewrite', () => {
    const random = mulberry32(26);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    for (let round = 0; round < 40; round++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 40) }, () =>
        pick(['select a from t;', '', '  -- note', 'x\r', 'CREATE TABLE t (a int PRIMARY KEY);']),
      );
      const original = lines.join('\n') + (random() < 0.5 ? '\n' : '');
      const edits: { start: number; end: number; text: string }[] = [];
      let at = 0;
      while (at < original.length) {
        const start = at + Math.floor(random() * 30);
        if (start > original.length) break;
        const end = Math.min(original.length, start + Math.floor(random() * 12));
        edits.push({ start, end, text: pick(['', '\n', 'X', 'new line\n', ' \n\n ', original.slice(start, end)]) });
        at = end + 1;
      }
      const rewritten = applyEdits(original, edits);
      const { text, changed } = diffOf(original, edits);
      assert.equal(changed, rewritten !== original, `round ${round}`);
      if (changed) assert.equal(applied(original, text), rewritten, `round ${round}`);
    }
  });

  test('the formatter of every corpus file: the diff of its pieces applies to the formatted text', () => {
    let diffs = 0;
    for (const file of corpusFiles('').slice(0, 60)) {
      const original = readText(file);
      const pieces = [...formatPieces(original, {}, undefined, 4096)];
      const { text, changed } = diffOf(original, pieces);
      const formatted = formatText(original);
      assert.equal(changed, formatted !== original, file);
      if (!changed) continue;
      diffs++;
      assert.equal(applied(original, text), formatted, file);
    }
    assert.ok(diffs > 10);
  });
});
