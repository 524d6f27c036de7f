// --format github (workflow commands: the runner's syntax, escaping and annotation limits) and --format
// markdown (a job summary / pull-request comment: escaping and the length limit), with hostile messages.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempDir } from './helpers';
import {
  ANNOTATIONS_PER_LEVEL,
  ANNOTATION_MESSAGE_CHARS,
  MARKDOWN_CHARS,
  escapeData,
  escapeProperty,
  githubWriter,
  markdownWriter,
  safeDetails,
} from '../../server/cli/review-formats';
import type { Finding, Severity } from '../../server/core/findings/findings';

const HOSTILE = 'bad%25 value\r\n::error file=x.cql::injected\n| a | b |\n`code` <script>alert(1)</script> 100%';

function finding(message: string, severity: Severity = 'warning', details?: string, line = 3): Finding {
  return {
    ruleId: 'hot-partition',
    severity,
    message,
    messageId: 'x',
    details,
    range: { start: { line, column: 5, offset: 0 }, end: { line: line + 1, column: 9, offset: 1 } },
  } as Finding;
}

function run(
  writer: (
    out: { write(text: string): unknown },
    cwd: string,
  ) => { file(r: { filePath: string; findings: Finding[] }): void; end(): void },
  files: { filePath: string; findings: Finding[] }[],
): string {
  let text = '';
  const w = writer({ write: (t: string) => (text += t) }, '/repo');
  for (const file of files) w.file(file);
  w.end();
  return text;
}

/** The runner's reading of a workflow command line (actions/runner ActionCommand.TryParseV2), for the checks. */
function parseCommand(line: string): { command: string; properties: Record<string, string>; data: string } | undefined {
  if (!line.startsWith('::')) return undefined;
  const end = line.indexOf('::', 2);
  if (end < 0) return undefined;
  const head = line.slice(2, end);
  const space = head.indexOf(' ');
  const command = space < 0 ? head : head.slice(0, space);
  const unescape = (text: string, property: boolean): string => {
    let out = text.replace(/%0D/g, '\r').replace(/%0A/g, '\n');
    if (property) out = out.replace(/%3A/g, ':').replace(/%2C/g, ',');
    return out.replace(/%25/g, '%');
  };
  const properties: Record<string, string> = {};
  if (space >= 0) {
    for (const pair of head.slice(space + 1).split(',')) {
      const eq = pair.indexOf('=');
      properties[pair.slice(0, eq)] = unescape(pair.slice(eq + 1), true);
    }
  }
  return { command, properties, data: unescape(line.slice(end + 2), false) };
}

describe('--format github', () => {
  test('the runner escaping: % CR LF in data, and : , too in properties', () => {
    assert.equal(escapeData('50%\r\nx::y,z'), '50%25%0D%0Ax::y,z');
    assert.equal(escapeProperty('a:b,c%\n'), 'a%3Ab%2Cc%25%0A');
  });

  test('one annotation a finding, each on one line, read back by the runner exactly as written', () => {
    const text = run(githubWriter, [
      {
        filePath: '/repo/db/we:ird,name%.cql',
        findings: [finding(HOSTILE, 'error', 'the **figures**\n\n- one\n- two'), finding('plain', 'info')],
      },
    ]);
    const lines = text.split('\n');
    assert.equal(lines.pop(), '');
    assert.equal(lines.length, 2);
    const first = parseCommand(lines[0]!)!;
    assert.equal(first.command, 'error');
    assert.deepEqual(first.properties, {
      file: 'db/we:ird,name%.cql',
      line: '3',
      endLine: '4',
      col: '5',
      endColumn: '9',
      title: 'cqlint hot-partition',
    });
    assert.ok(first.data.startsWith(HOSTILE), first.data);
    assert.match(first.data, /the \*\*figures\*\*\n- one\n- two\n\nhttps:\/\/\S+\/docs\/rules\/hot-partition\.md$/);
    assert.equal(parseCommand(lines[1]!)!.command, 'notice');
    // Nothing but the two commands: the injected text is inside the first one's data.
    assert.ok(
      !lines[0]!.slice(2).includes('\n') && lines[0]!.indexOf('::error file=x.cql') > lines[0]!.indexOf('::', 2),
    );
  });

  test('control characters other than line breaks are shown escaped, and a long message is bounded', () => {
    const text = run(githubWriter, [
      { filePath: '/repo/a.cql', findings: [finding(`\u001b]0;title\u0007${'x'.repeat(10_000)}`)] },
    ]);
    assert.ok(!/[\u0000-\u0009\u000b-\u001f]/.test(text));
    const data = parseCommand(text.trimEnd())!.data;
    assert.ok(data.length <= ANNOTATION_MESSAGE_CHARS, String(data.length));
    assert.ok(data.endsWith('…'));
  });

  test('at most 10 annotations of each level (9 notices), the rest as plain lines and a closing notice', () => {
    const many = (severity: Severity, n: number): Finding[] =>
      Array.from({ length: n }, (_, i) =>
        finding(`${severity} ${i}\n::error::not a command`, severity, undefined, i + 1),
      );
    const text = run(githubWriter, [
      { filePath: '/repo/a.cql', findings: [...many('error', 12), ...many('warning', 10), ...many('info', 11)] },
    ]);
    const lines = text.trimEnd().split('\n');
    const commands = lines.map(parseCommand).filter((c) => c !== undefined);
    const levels = (name: string): number => commands.filter((c) => c!.command === name).length;
    assert.deepEqual(
      [levels('error'), levels('warning'), levels('notice')],
      [ANNOTATIONS_PER_LEVEL, ANNOTATIONS_PER_LEVEL, ANNOTATIONS_PER_LEVEL],
    );
    const plain = lines.filter((l) => !l.startsWith('::'));
    assert.deepEqual(plain, [
      'cqlint: a.cql:11:5: error: error 10 ::error::not a command (hot-partition)',
      'cqlint: a.cql:12:5: error: error 11 ::error::not a command (hot-partition)',
      'cqlint: a.cql:10:5: notice: info 9 ::error::not a command (hot-partition)',
      'cqlint: a.cql:11:5: notice: info 10 ::error::not a command (hot-partition)',
    ]);
    assert.match(commands.at(-1)!.data, /^4 more findings are not annotated \(GitHub shows at most 10 errors/);
  });

  test('the CLI: lint --format github annotates the schema relative to the working directory; exit code as ever', async (t) => {
    const temp = tempDir({
      'db/schema.cql':
        'CREATE TABLE ks.books (publish_date date, title text, PRIMARY KEY (publish_date, title));\nSELECT nope FROM ks.books WHERE publish_date = ?;\n',
    });
    t.after(() => temp.cleanup());
    const cli = await runCli(['lint', '-f', 'github', '.'], { cwd: temp.dir });
    assert.equal(cli.code, 1);
    const commands = cli.stdout.trimEnd().split('\n').map(parseCommand);
    assert.deepEqual(
      commands.map((c) => [c?.command, c?.properties.file, c?.properties.line]),
      [
        ['warning', 'db/schema.cql', '1'],
        ['error', 'db/schema.cql', '2'],
      ],
    );
  });
});

describe('--format markdown', () => {
  test('a table and a section per finding; hostile text stays text (pipes, backticks, HTML)', () => {
    const text = run(markdownWriter, [
      {
        filePath: '/repo/db/a|b.cql',
        findings: [
          finding(
            HOSTILE,
            'error',
            'Rows: **1,000** per `day`.\n\nA <b>raw</b> tag, `<kept in code>` and \\<escaped>.',
          ),
        ],
      },
    ]);
    assert.match(
      text,
      /^### cqlint: 1 problem \(1 error, 0 warnings\)\n\n\| severity \| where \| rule \| problem \|\n\| --- \| --- \| --- \| --- \|\n/,
    );
    const row = text.split('\n')[4]!;
    // Five cell borders: no pipe of the message or the file name splits the row.
    assert.equal(row.replace(/\\\|/g, '').split('|').length, 6, row);
    assert.ok(!/<script>/.test(text) && !/<b>/.test(text), text);
    assert.match(text, /\\<script\\>/);
    assert.match(text, /\\`code\\`/);
    assert.match(text, /A &lt;b>raw&lt;\/b> tag, `<kept in code>` and \\<escaped>\./);
    assert.match(text, /Rows: \*\*1,000\*\* per `day`\./);
    // A line break in the message never starts a line of its own (a heading, a list, a table row).
    assert.ok(!text.includes('\n::error'));
  });

  test('within 65,536 characters: whole rows and sections only, and a note that says what was cut', () => {
    const details = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'figures '.repeat(40)}`).join('\n\n');
    const findings = Array.from({ length: 400 }, (_, i) =>
      finding(`finding ${i} ${'y'.repeat(400)}`, 'warning', details, i + 1),
    );
    const text = run(markdownWriter, [{ filePath: '/repo/a.cql', findings }]);
    assert.ok(text.length <= MARKDOWN_CHARS, String(text.length));
    assert.match(
      text,
      /> Truncated to fit GitHub's limit of 65,536 characters for a comment: \d+ findings more, and the figures of every finding, are not shown\./,
    );
    const few = run(markdownWriter, [{ filePath: '/repo/a.cql', findings: findings.slice(0, 20) }]);
    assert.ok(few.length <= MARKDOWN_CHARS);
    assert.match(few, /the figures of \d+ findings are not shown/);
    assert.match(few, /\| finding 19 /);
    assert.equal(run(markdownWriter, []), '### cqlint: no problems\n');
  });

  test('long details are cut at a paragraph, never inside a code span', () => {
    const cut = safeDetails(`one \`a\`\n\n${'`b` '.repeat(100)}`, 50);
    assert.equal(cut, 'one `a`\n\n_(details cut: `cqlint lint` shows them whole)_');
  });
});
