// What the LSP client tests (neovim.mjs, emacs.mjs) share: the schema they open, and the runner's checks.

/** A table whose partition key is a date alone: hot-partition on line 5 (0-based 4), fixed by a shard column. */
export const HOT_SCHEMA = [
  'CREATE TABLE blog.posts_by_day (',
  '  publish_date date,',
  '  title text,',
  '  body text,',
  '  PRIMARY KEY (publish_date, title)',
  ');',
  '',
].join('\n');

/** Named checks printed as they run; `finish()` prints the count and exits 1 if any failed. */
export function checks(title) {
  let passed = 0;
  let failed = 0;
  console.log(title);
  const check = (name, ok, detail) => {
    if (ok) {
      passed++;
      console.log(`  ✔ ${name}`);
    } else {
      failed++;
      console.log(`  ✖ ${name}${detail ? `\n      ${detail}` : ''}`);
    }
  };
  return {
    check,
    /** The quick fix's result in the editor's buffer: a shard in the partition key and its @shard annotation. */
    checkShardFix(applied) {
      check(
        'the fix edits the buffer: shard in the partition key and its @shard annotation',
        /PRIMARY KEY \(\(publish_date, shard\), title\)/.test(applied ?? '') &&
          /^-- @shard shard = murmur3\(title\) % \d+ \+ 1$/m.test(applied ?? ''),
        applied,
      );
    },
    finish() {
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
}
