// What the server reads from disk, through the real server: nothing outside the workspace that the
// workspace names (a .cqlint.json above it, a ring file beside it, a symlinked .cql), nothing that is
// not a regular file (a FIFO .cqlint.json), and config errors shown on the .cqlint.json itself while
// linting goes on with the defaults.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { capabilities, fileUri, tempWorkspace, type LspTestClient } from '../../scripts/lsp-client';
import { startInProcessServer } from '../helpers/in-process-server';

const HOT = 'CREATE TABLE ks.posts_by_day (publish_date date, title text, PRIMARY KEY (publish_date, title));\n';
const SCHEMA =
  "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE TABLE ks.users (id int PRIMARY KEY, name text);\n";
const QUERY = 'SELECT * FROM ks.users WHERE id = 1;\n';
const SECRET = 'wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY';
const CREDS = JSON.stringify({ aws_access_key_id: 'AKIAIOSFODNN7EXAMPLE', aws_secret_access_key: SECRET });

interface Started {
  client: LspTestClient;
  /** The parent folder; the workspace folder is `root/ws`. */
  root: string;
  ws: (relative: string) => string;
}

async function start(
  t: { after(fn: () => unknown): void },
  files: Record<string, string>,
  initializationOptions?: unknown,
): Promise<Started> {
  const temp = tempWorkspace(files);
  t.after(() => temp.cleanup());
  mkdirSync(temp.path('ws'), { recursive: true });
  const client = startInProcessServer();
  t.after(() => client.shutdown());
  await client.initialize(capabilities.push, {
    workspaceFolders: [temp.path('ws')],
    initializationOptions,
    settings: { trace: { server: 'verbose' } },
  });
  await client.waitForLog(/cqlint: indexed \d+ CQL file/);
  return { client, root: temp.dir, ws: (relative) => temp.path(path.join('ws', relative)) };
}

async function hoverOnKey(client: LspTestClient, uri: string): Promise<string> {
  await client.open(uri, QUERY);
  const hover = (await client.request('textDocument/hover', {
    textDocument: { uri },
    position: { line: 0, character: QUERY.indexOf('= 1') + 2 },
  })) as Hover | null;
  return hover ? (hover.contents as MarkupContent).value : '';
}

const codes = (diagnostics: Diagnostic[]) => diagnostics.map((d) => d.code);

describe('files the server reads', () => {
  test('a .cqlint.json above the workspace folder does not apply to it', async (t) => {
    const { client, ws } = await start(t, {
      '.cqlint.json': JSON.stringify({ rules: { 'hot-partition': 'off' } }),
      'ws/hot.cql': HOT,
    });
    const diagnostics = await client.waitForDiagnostics(fileUri(ws('hot.cql')));
    assert.deepEqual(codes(diagnostics), ['hot-partition']);
  });

  test('a ring outside the workspace named by .cqlint.json is refused, and its content is never quoted', async (t) => {
    const { client, ws } = await start(t, {
      'creds.json': CREDS,
      'ws/.cqlint.json': JSON.stringify({ ring: '../creds.json' }),
      'ws/schema.cql': SCHEMA,
      'ws/q.cql': QUERY,
    });
    const hover = await hoverOnKey(client, fileUri(ws('q.cql')));
    assert.match(hover, /outside the workspace/);
    assert.match(hover, /cqlint\.ringFile in your user settings/);
    for (const text of [hover, ...client.logs]) assert.doesNotMatch(text, /wJalr|AKIA|aws_/, text);
  });

  test('a ring inside the workspace that is not a ring: the error names a place, never the values', async (t) => {
    const { client, ws } = await start(t, {
      'ws/creds.json': CREDS,
      'ws/.cqlint.json': JSON.stringify({ ring: 'creds.json' }),
      'ws/schema.cql': SCHEMA,
    });
    const hover = await hoverOnKey(client, fileUri(ws('q.cql')));
    assert.match(hover, /node 1, token 1: not a token/);
    for (const text of [hover, ...client.logs]) assert.doesNotMatch(text, /wJalr|AKIA|aws_/, text);
  });

  test('in an untrusted workspace, the ring named by .cqlint.json is not read at all', async (t) => {
    const ring = JSON.stringify({ '10.0.0.1': ['0'] });
    const { client, ws } = await start(
      t,
      { 'ws/ring.json': ring, 'ws/.cqlint.json': JSON.stringify({ ring: 'ring.json' }), 'ws/schema.cql': SCHEMA },
      { workspaceTrusted: false },
    );
    const hover = await hoverOnKey(client, fileUri(ws('q.cql')));
    assert.match(hover, /not read in an untrusted workspace/);
    assert.doesNotMatch(hover, /replicas: 10\.0\.0\.1/);
  });

  test('a .cqlint.json nested 100,000 levels deep: a diagnostic on it, and files are linted with the defaults', async (t) => {
    const deep = `{"target": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const { client, ws } = await start(t, { 'ws/.cqlint.json': deep, 'ws/hot.cql': HOT });
    const onConfig = await client.waitForDiagnostics(fileUri(ws('.cqlint.json')));
    assert.equal(onConfig.length, 1);
    assert.match(String(onConfig[0].message), /^target: must be one of .*, got \[\[\[/);
    assert.deepEqual(codes(await client.waitForDiagnostics(fileUri(ws('hot.cql')))), ['hot-partition']);
  });

  test('a FIFO named .cqlint.json or given as the ring: refused at once, the server keeps answering', async (t) => {
    const { client, ws } = await start(t, { 'ws/schema.cql': SCHEMA, 'ws/hot.cql': HOT, 'ws/sub/hot.cql': HOT });
    for (const fifo of [ws('sub/.cqlint.json'), ws('ring.pipe')]) assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    writeFileSync(ws('.cqlint.json'), JSON.stringify({ ring: 'ring.pipe' }));
    await client.filesChanged([
      { uri: fileUri(ws('.cqlint.json')), type: 1 },
      { uri: fileUri(ws('sub/.cqlint.json')), type: 1 },
    ]);
    const onConfig = await client.waitForDiagnostics(fileUri(ws('sub/.cqlint.json')));
    assert.match(String(onConfig[0]?.message ?? ''), /cannot read the file: not a regular file \(a named pipe\)/);
    assert.match(await hoverOnKey(client, fileUri(ws('q.cql'))), /not a regular file \(a named pipe\)/);
    assert.deepEqual(
      codes(await client.waitForDiagnostics(fileUri(ws('sub/hot.cql')))),
      ['hot-partition'],
      'files under the broken config are linted with the defaults',
    );
  });

  test('a symlinked .cql that points outside the workspace is not read', async (t) => {
    const temp = tempWorkspace({ 'outside/secret.cql': `-- ${SECRET}\n${HOT}`, 'ws/inside.cql': HOT });
    t.after(() => temp.cleanup());
    symlinkSync(temp.path('outside/secret.cql'), temp.path('ws/link.cql'));
    const client = startInProcessServer();
    t.after(() => client.shutdown());
    await client.initialize(capabilities.push, { workspaceFolders: [temp.path('ws')] });
    assert.match(await client.waitForLog(/link\.cql/), /skipping .*link\.cql: .*outside the workspace/);
    assert.match(await client.waitForLog(/indexed \d+ CQL file/), /indexed 1 CQL file/);
  });
});

describe('ignore patterns in the editor', () => {
  test('.cqlintignore and ignorePatterns: ignored files are not indexed, and an opened one gets no diagnostics', async (t) => {
    const { client, ws } = await start(t, {
      'ws/.cqlintignore': 'generated/\n',
      'ws/.cqlint.json': JSON.stringify({ ignorePatterns: ['*.draft.cql'] }),
      'ws/hot.cql': HOT,
      'ws/generated/hot.cql': HOT.replace('posts_by_day', 'generated_posts'),
      'ws/wip.draft.cql': HOT.replace('posts_by_day', 'draft_posts'),
    });
    await client.waitForLog(/cqlint: 2 file\(s\) left out by \.cqlintignore or ignorePatterns/);
    assert.deepEqual(codes(await client.waitForDiagnostics(fileUri(ws('hot.cql')))), ['hot-partition']);
    for (const ignored of ['generated/hot.cql', 'wip.draft.cql']) {
      const uri = fileUri(ws(ignored));
      await client.open(uri, HOT);
      assert.deepEqual(await client.waitForDiagnostics(uri), [], `${ignored} is ignored`);
    }
  });

  test('a .cqlintignore linked outside the workspace is not read, in Restricted Mode too; a line it cannot use is logged by its number', async (t) => {
    for (const workspaceTrusted of [true, false]) {
      const { client, root, ws } = await start(
        t,
        { 'outside/patterns': '*.cql\n', 'ws/hot.cql': HOT },
        { workspaceTrusted },
      );
      symlinkSync(path.join(root, 'outside', 'patterns'), ws('.cqlintignore'));
      await client.notify('workspace/didChangeWatchedFiles', {
        changes: [{ uri: fileUri(ws('.cqlintignore')), type: 1 }],
      });
      assert.match(
        await client.waitForLog(/\.cqlintignore/),
        /cannot read .*\.cqlintignore: the file \(or the link it goes through\) is outside the workspace/,
      );
      assert.deepEqual(
        codes(await client.waitForDiagnostics(fileUri(ws('hot.cql')))),
        ['hot-partition'],
        `trusted: ${workspaceTrusted}`,
      );
    }
    const { client, ws } = await start(t, {
      'ws/.cqlintignore': `generated/\n${'*a'.repeat(16_000)}\n`,
      'ws/hot.cql': HOT,
      'ws/generated/hot.cql': HOT,
    });
    const logged = await client.waitForLog(/\.cqlintignore: line/);
    assert.match(logged, /\.cqlintignore: line 2: a pattern of 32000 characters \(at most 1024\): not used$/);
    await client.waitForLog(/cqlint: 1 file\(s\) left out by \.cqlintignore or ignorePatterns/);
    assert.deepEqual(codes(await client.waitForDiagnostics(fileUri(ws('hot.cql')))), ['hot-partition']);
  });
});
