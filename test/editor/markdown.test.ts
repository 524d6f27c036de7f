// User text inside hover markdown (server/core/util/markdown.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineCode, markdownText, tableCell } from '../../server/core/util/markdown';

describe('markdown escaping', () => {
  test('inlineCode: a fence longer than any backtick run, padding where a backtick or space touches it, one line', () => {
    assert.equal(inlineCode('ks.users'), '`ks.users`');
    assert.equal(inlineCode('a`b'), '``a`b``');
    assert.equal(inlineCode('``x'), '``` ``x ```');
    assert.equal(inlineCode('x`'), '`` x` ``');
    assert.equal(inlineCode('a\n\n[l](http://e)'), '`a  [l](http://e)`');
  });

  test('markdownText: links, images, HTML and pipes become text; underscores in names stay', () => {
    assert.equal(
      markdownText('![i](http://e/p.png) <img src=x> a|b'),
      '!\\[i\\](http://e/p.png) \\<img src=x\\> a\\|b',
    );
    assert.equal(markdownText('publish_date'), 'publish_date');
    assert.equal(markdownText('a\\b `c` &amp;'), 'a\\\\b \\`c\\` \\&amp;');
  });

  test('tableCell escapes pipes, also inside code spans', () => {
    assert.equal(tableCell(inlineCode('a|b')), '`a\\|b`');
  });
});
