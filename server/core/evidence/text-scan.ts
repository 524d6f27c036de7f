// The shapes of evidence lines that a regular expression would read in quadratic time, read by hand in one
// pass. A line may be megabytes long (RECORD_LIMITS allows 16 MiB: a partition key as printed), and
// V8's backtracking makes patterns such as `^(.*?)\s+(\d+)\s+(\d+)$`, `^(\S+)\/(\S+) x$` or even
// `\s+$` cost the square of a long run of spaces or slashes: 50 s for 256 KB. The rule for every reader:
// no two adjacent parts of a pattern may match the same characters (a lazy `.*?` or `\S+` followed by
// what it can also take), or the line is scanned by hand here. `npm run bench -- hostile` times each
// reader's worst input.

/** Whether a UTF-16 code unit is white space as `\s` and trim() see it. */
export function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Whether the text holds white space. */
export function hasSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isSpace(text.charCodeAt(i))) return true;
  return false;
}

/**
 * The last `count` white-space separated fields of `text` and what comes before them (its trailing white
 * space removed), or undefined when there are fewer fields or a field fails `accept`. Each field must be
 * preceded by white space: `head` is what is left, possibly empty.
 */
export function trailingFields(
  text: string,
  count: number,
  accept: (field: string) => boolean,
): { head: string; fields: string[] } | undefined {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  const fields: string[] = [];
  for (let k = 0; k < count; k++) {
    let start = end;
    while (start > 0 && !isSpace(text.charCodeAt(start - 1))) start--;
    const field = text.slice(start, end);
    if (!field || start === 0 || !accept(field)) return undefined;
    fields.unshift(field);
    end = start;
    while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  }
  return { head: text.slice(0, end), fields };
}

export const isDigits = (text: string): boolean => /^\d+$/.test(text);

const HISTOGRAMS_SUFFIX = ' histograms';

/** `ks/table histograms` (the title of a table's `nodetool tablehistograms`): `ks.table`, or undefined. */
export function histogramTitle(body: string): string | undefined {
  if (!body.endsWith(HISTOGRAMS_SUFFIX)) return undefined;
  const name = body.slice(0, -HISTOGRAMS_SUFFIX.length);
  const slash = name.lastIndexOf('/');
  if (slash <= 0 || slash === name.length - 1 || hasSpace(name)) return undefined;
  return `${name.slice(0, slash)}.${name.slice(slash + 1)}`;
}

/**
 * ScyllaDB's `(ks:table) key` prefix of a toppartitions row: the table and the key after it, or undefined.
 * The keyspace is what comes before the first colon, the table what comes after it up to the first `) `.
 */
export function scyllaTablePrefix(text: string): { table: string; key: string } | undefined {
  if (text.charCodeAt(0) !== 40 /* ( */) return undefined;
  const colon = text.indexOf(':', 2);
  if (colon < 0) return undefined;
  const close = text.indexOf(') ', colon + 2);
  if (close < 0) return undefined;
  const keyspace = text.slice(1, colon);
  const table = text.slice(colon + 1, close);
  if (hasSpace(keyspace) || hasSpace(table)) return undefined;
  return { table: `${keyspace}.${table}`, key: text.slice(close + 2) };
}
