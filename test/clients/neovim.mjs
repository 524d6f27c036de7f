// The language server with a real non-VS Code client: headless Neovim (Debian's 0.7, which has no pull
// diagnostics, so this exercises the push path). Neovim talks to `bin/cqlint-language-server --stdio`
// exactly as a user's config would; a Lua script collects what the editor received and this runner
// checks it. Needs `npm run build` and `nvim` on PATH (`apt-get install neovim`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { HOT_SCHEMA, checks } from './checks.mjs';
import { join, resolve } from 'node:path';

const root = resolve(new URL('../..', import.meta.url).pathname);
const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
if (nvim.status !== 0) {
  console.error('neovim client test: `nvim` is not installed (apt-get install neovim)');
  process.exit(1);
}
if (!existsSync(join(root, 'dist', 'server.js'))) {
  console.error('neovim client test: run `npm run build` first');
  process.exit(1);
}

const ws = mkdtempSync(join(tmpdir(), 'cqlint-nvim-'));
const schema = join(ws, 'schema.cql');
writeFileSync(schema, HOT_SCHEMA);
const query = join(ws, 'query.cql');
writeFileSync(query, "SELECT titel FROM blog.posts_by_day WHERE publish_date = '2024-05-01';\n");
const out = join(ws, 'out.json');

const lua = `
local server = { 'node', ${JSON.stringify(join(root, 'bin', 'cqlint-language-server.js'))}, '--stdio' }
local result = { files = {} }
local client_id = vim.lsp.start_client({ name = 'cqlint', cmd = server, root_dir = ${JSON.stringify(ws)} })
local function code_of(d)
  if d.code then return d.code end
  if d.user_data and d.user_data.lsp then return d.user_data.lsp.code end
  return nil
end
local function collect(path)
  vim.cmd('edit ' .. path)
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = 'cql'
  vim.lsp.buf_attach_client(buf, client_id)
  vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  local entry = { diagnostics = {} }
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(entry.diagnostics, { code = code_of(d), line = d.lnum, col = d.col, severity = d.severity, message = d.message })
  end
  return buf, entry
end
local buf, schema_entry = collect(${JSON.stringify(schema)})
local uri = vim.uri_from_bufnr(buf)
local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', { textDocument = { uri = uri }, position = { line = 1, character = 4 } }, 10000)
for _, r in pairs(hover or {}) do
  if r.result and r.result.contents then schema_entry.hover = r.result.contents.value or r.result.contents end
end
-- What Neovim 0.7's vim.lsp.buf.code_action() sends: the line's diagnostics converted back to LSP.
local lsp_diags = vim.lsp.diagnostic.get_line_diagnostics(buf, 4)
local actions = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
  textDocument = { uri = uri },
  range = { start = { line = 4, character = 0 }, ['end'] = { line = 4, character = 40 } },
  context = { diagnostics = lsp_diags },
}, 10000)
schema_entry.actions = {}
schema_entry.action_errors = {}
if actions == nil then table.insert(schema_entry.action_errors, 'no answer') end
for _, r in pairs(actions or {}) do
  local err = r.error or r.err
  if err then table.insert(schema_entry.action_errors, err.message or vim.inspect(err)) end
  for _, a in ipairs(r.result or {}) do
    table.insert(schema_entry.actions, a.title)
    if not schema_entry.applied and a.title:find('calculated shard column from title', 1, true) then
      -- Apply it the way Neovim does when the user picks it (resolving its edit first, as vim.lsp.buf.code_action
      -- does when the server resolves edits), then wait for the re-lint.
      if not a.edit and a.data then
        local resolved = vim.lsp.buf_request_sync(buf, 'codeAction/resolve', a, 10000)
        for _, rr in pairs(resolved or {}) do if rr.result then a = rr.result end end
        schema_entry.resolved = a.edit ~= nil
      end
      vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16')
      vim.wait(30000, function()
        for _, d in ipairs(vim.diagnostic.get(buf)) do if code_of(d) == 'hot-partition' then return false end end
        return true
      end, 50)
      schema_entry.applied = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\\n')
      schema_entry.after = {}
      for _, d in ipairs(vim.diagnostic.get(buf)) do table.insert(schema_entry.after, code_of(d)) end
    end
  end
end
result.files.schema = schema_entry
local _, query_entry = collect(${JSON.stringify(query)})
result.files.query = query_entry
local f = io.open(${JSON.stringify(out)}, 'w')
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd('qa!')
`;
const script = join(ws, 'run.lua');
writeFileSync(script, lua);

const run = spawnSync('nvim', ['--headless', '--clean', '-u', 'NONE', '-c', `luafile ${script}`], {
  cwd: ws,
  encoding: 'utf8',
  timeout: 120_000,
  env: { ...process.env, XDG_STATE_HOME: ws, XDG_DATA_HOME: ws, XDG_CONFIG_HOME: ws },
});

const { check, checkShardFix, finish } = checks('neovim client (headless nvim, push diagnostics)');
if (!existsSync(out)) {
  check('neovim wrote its results', false, `exit ${run.status} ${run.signal ?? ''}\n${run.stdout}\n${run.stderr}`);
} else {
  const result = JSON.parse(readFileSync(out, 'utf8'));
  const s = result.files.schema;
  const hot = s.diagnostics.find((d) => d.code === 'hot-partition');
  check(
    'hot-partition diagnostic pushed to a client without pull support',
    Boolean(hot),
    JSON.stringify(s.diagnostics),
  );
  check(
    'diagnostic points at the partition key column (line 5, 0-based 4)',
    hot && hot.line === 4,
    JSON.stringify(hot),
  );
  check('severity is a warning (2)', hot && hot.severity === 2, JSON.stringify(hot));
  check(
    'hover on a column names its role',
    typeof s.hover === 'string' && /partition key/i.test(s.hover),
    JSON.stringify(s.hover),
  );
  check(
    'quick fixes offer a shard column',
    s.actions.some((t) => /shard column/i.test(t)),
    JSON.stringify({ actions: s.actions, errors: s.action_errors }),
  );
  checkShardFix(s.applied);
  check(
    'after the fix the hot-partition diagnostic is gone',
    Array.isArray(s.after) && !s.after.includes('hot-partition'),
    JSON.stringify(s.after),
  );
  const q = result.files.query;
  const unknown = q.diagnostics.find((d) => d.code === 'unknown-column');
  check(
    'a query in another file resolves the schema: unknown-column with a suggestion',
    unknown && /title/.test(unknown.message),
    JSON.stringify(q.diagnostics),
  );
}
rmSync(ws, { recursive: true, force: true });
finish();
