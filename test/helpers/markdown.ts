// Reading markdown the way a renderer does, for tests that check user text stays text.

/**
 * The markdown with its code spans removed (CommonMark: a run of n backticks closes at the next run of
 * exactly n; a backslash-escaped character is text and opens no span): what is left is read as markup.
 */
export function outsideCodeSpans(markdown: string): string {
  let out = '';
  for (let i = 0; i < markdown.length;) {
    if (markdown[i] === '\\') {
      out += markdown.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (markdown[i] !== '`') {
      out += markdown[i++];
      continue;
    }
    let n = 0;
    while (markdown[i + n] === '`') n++;
    const fence = '`'.repeat(n);
    let close = i + n;
    for (;;) {
      close = markdown.indexOf(fence, close);
      if (close < 0 || markdown[close + n] !== '`') break;
      while (markdown[close] === '`') close++;
    }
    if (close < 0) {
      out += markdown.slice(i, i + n);
      i += n;
      continue;
    }
    out += ' ';
    i = close + n;
  }
  return out;
}
