// Pulled diagnostics through random edits: after an edit the server places the diagnostics of the findings the
// edit did not reach from their last ones (before it: as they were; on a line after it: moved by its lines)
// rather than locating every finding again (diagnostics-reports.ts). Each pull must still hold exactly what a
// document the server never saw answers for the same text, and be `unchanged` exactly when that is what the
// client holds.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  Diagnostic,
  DocumentDiagnosticReport,
  FullDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol';
import { capabilities, tempWorkspace } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';
import { mulberry32 } from '../helpers/random';

const full = (report: DocumentDiagnosticReport, note: string): FullDocumentDiagnosticReport => {
  assert.equal(report.kind, 'full', `${note}: expected a full report, got ${JSON.stringify(report)}`);
  return report as FullDocumentDiagnosticReport;
};

/** Lines of CQL with findings of their own and findings that depend on other lines (tables, indexes). */
const LINES = [
  'CREATE TABLE ks.users (id uuid PRIMARY KEY, name text, city text);',
  'CREATE TABLE ks.books (publish_date date, title text, author text, PRIMARY KEY (publish_date, title));',
  '-- @shard shard = murmur3(title) % 16 + 1',
  'CREATE TABLE ks.posts (day date, shard int, title text, PRIMARY KEY ((day, shard), title));',
  'SELECT email FROM ks.users WHERE id = ?;',
  "SELECT title FROM ks.posts WHERE day = '2024-05-01' AND shard = 3 AND title = 'Dune';",
  'SELECT "émail" FROM ks.users WHERE id = ?; SELECT nope FROM ks.users WHERE id = ?;',
  "SELECT * FROM ks.books WHERE author = 'Zoë' ALLOW FILTERING;",
  'SELECT name FROM ks.users WHERE city = ?;',
  'CREATE INDEX ON ks.users (city);',
  'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text;',
  'SELECT title',
  '  FROM ks.books',
  "  WHERE author = 'x';",
  'UPDATE ks.users SET nam = ? WHERE id = ?;',
  '',
];

/** What an edit puts in (besides nothing): words that make and unmake findings, line breaks, whole lines. */
const FRAGMENTS = ['x', ' ', ';', 'email', 'name', 'ks.users', "'", '(', '-- ', 'é', 'SELECT ', 'city'];

interface Edit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  text: string;
}

/** A random edit of `text` (lines end with `eol`): lines inserted or deleted, a line's characters, the start or end. */
function randomEdit(text: string, eol: string, random: () => number): Edit {
  const lines = text.split(/\r\n|\r|\n/);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const line = Math.floor(random() * lines.length);
  const point = (l: number): { line: number; character: number } => ({
    line: l,
    character: Math.floor(random() * (lines[l]!.length + 1)),
  });
  const kind = random();
  if (kind < 0.2) {
    // Whole lines inserted before a line (the first, one inside, or after the last).
    const at = { line, character: 0 };
    const count = 1 + Math.floor(random() * 3);
    const inserted = Array.from({ length: count }, () => pick(LINES) + eol).join('');
    return { range: { start: at, end: at }, text: inserted };
  }
  if (kind < 0.35) {
    // Whole lines deleted.
    const last = Math.min(lines.length - 1, line + Math.floor(random() * 3));
    const end =
      last + 1 < lines.length ? { line: last + 1, character: 0 } : { line: last, character: lines[last]!.length };
    return { range: { start: { line, character: 0 }, end }, text: '' };
  }
  if (kind < 0.45) {
    // At the very start or the very end of the text.
    const last = lines.length - 1;
    const at = random() < 0.5 ? { line: 0, character: 0 } : { line: last, character: lines[last]!.length };
    const insert = random() < 0.7;
    if (!insert && at.line === 0) {
      return { range: { start: at, end: point(0) }, text: '' };
    }
    const piece = random() < 0.5 ? pick(LINES) + eol : pick(FRAGMENTS);
    return { range: { start: insert ? at : point(last), end: at }, text: insert ? piece : '' };
  }
  if (kind < 0.55) {
    // Characters before a statement on its line (at the line's start or after a ';'): the statement and its
    // findings move along the line, their lines stay.
    const text = lines[line]!;
    const semicolon = text.indexOf(';');
    const at = { line, character: random() < 0.5 || semicolon < 0 ? 0 : semicolon + 1 };
    return { range: { start: at, end: at }, text: pick([' ', '  ', '/* c */ ', ';']) };
  }
  if (kind < 0.65) {
    // A line break made or taken away inside a line or at its end.
    if (random() < 0.5 || line === lines.length - 1) {
      const at = point(line);
      return { range: { start: at, end: at }, text: eol };
    }
    return {
      range: { start: { line, character: lines[line]!.length }, end: { line: line + 1, character: 0 } },
      text: random() < 0.5 ? '' : ' ',
    };
  }
  // Characters within a line (or across the next few), replaced by a fragment or nothing.
  const start = point(line);
  const endLine = random() < 0.8 ? line : Math.min(lines.length - 1, line + 1 + Math.floor(random() * 2));
  let end = point(endLine);
  if (endLine === line && end.character < start.character) end = { ...start };
  const replacement = random() < 0.25 ? '' : pick(FRAGMENTS) + (random() < 0.2 ? eol + pick(LINES) : '');
  return { range: { start, end }, text: replacement };
}

describe('pulled diagnostics through random edits', () => {
  for (const [seed, eol] of [
    [1, '\n'],
    [2, '\n'],
    [3, '\r\n'],
    [4, '\r\n'],
  ] as const) {
    test(`seed ${seed} (${eol === '\n' ? 'LF' : 'CRLF'}): each pull holds what a document never seen answers`, async (t) => {
      const random = mulberry32(seed);
      const ws = tempWorkspace();
      t.after(() => ws.cleanup());
      const client = startInProcessServer();
      t.after(() => client.shutdown());
      const fresh = startInProcessServer();
      t.after(() => fresh.shutdown());
      for (const c of [client, fresh]) {
        await c.initialize(capabilities.pull, { workspaceFolders: [ws.dir] });
        await c.whenIndexed();
      }
      const uri = ws.uri('edited.cql');
      const start = Array.from({ length: 24 }, (_, i) => LINES[(i * 7 + seed) % LINES.length]).join(eol) + eol;
      await client.open(uri, start);
      let held = full(await client.pullDiagnostics(uri), 'open');
      /** The report of a document the server has never seen, with this text (its own uri put back to the edited one's). */
      let opened = 0;
      const expected = async (text: string): Promise<Diagnostic[]> => {
        const other = ws.uri(`fresh-${opened++}.cql`);
        await fresh.open(other, text);
        const items = full(await fresh.pullDiagnostics(other), 'fresh').items;
        await fresh.close(other);
        return JSON.parse(JSON.stringify(items).split(other).join(uri)) as Diagnostic[];
      };
      assert.deepEqual(held.items, await expected(start));
      let unchanged = 0;
      let moved = 0;
      for (let i = 0; i < 60; i++) {
        const text = client.text(uri)!;
        const edit = randomEdit(text, eol, random);
        const note = `seed ${seed}, edit ${i}: ${JSON.stringify(edit)}`;
        await client.change(uri, [edit]);
        const want = await expected(client.text(uri)!);
        const report = await client.pullDiagnostics(uri, held.resultId);
        const same = JSON.stringify(want) === JSON.stringify(held.items);
        assert.equal(report.kind, same ? 'unchanged' : 'full', note);
        if (report.kind === 'unchanged') {
          unchanged++;
          assert.equal(report.resultId, held.resultId, note);
          continue;
        }
        const before = held;
        held = full(report, note);
        assert.notEqual(held.resultId, before.resultId, note);
        assert.deepEqual(held.items, want, note);
        if (held.items.some((d, k) => before.items[k] && d.range.start.line !== before.items[k]!.range.start.line))
          moved++;
      }
      // The edits moved findings, and some left the report as it was.
      assert.ok(moved >= 5, `${moved} reports with moved findings`);
      assert.ok(unchanged >= 1, `${unchanged} unchanged`);
    });
  }
});
