// The language server with a second real non-VS Code client: headless Emacs with eglot (Debian's
// `emacs-nox` 28 and `elpa-eglot` 1.9, push diagnostics). Emacs is configured exactly as the README's
// "Other editors" snippet says, with `cqlint-language-server` found on the PATH (a shim here for the
// checkout's bin/); an Emacs Lisp script opens a schema, collects the diagnostics eglot hands to
// Flymake, a hover and the code actions, applies a quick fix, and writes what it saw for this runner
// to check. Needs `npm run build`, `emacs` and eglot (`apt-get install emacs-nox elpa-eglot`).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { HOT_SCHEMA, checks } from './checks.mjs';
import { delimiter, join, resolve } from 'node:path';

const root = resolve(new URL('../..', import.meta.url).pathname);
const emacs = spawnSync('emacs', ['--version'], { encoding: 'utf8' });
if (emacs.status !== 0) {
  console.error('emacs client test: `emacs` is not installed (apt-get install emacs-nox elpa-eglot)');
  process.exit(1);
}
if (!existsSync(join(root, 'dist', 'server.js'))) {
  console.error('emacs client test: run `npm run build` first');
  process.exit(1);
}

/** The README's Emacs configuration, verbatim between its markers (the test uses what users copy). */
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const snippet = /```elisp\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('Emacs')))?.[1];
if (!snippet) {
  console.error('emacs client test: no ```elisp snippet after "Emacs" in README.md');
  process.exit(1);
}

const ws = mkdtempSync(join(tmpdir(), 'cqlint-emacs-'));
const bin = join(ws, 'bin');
mkdirSync(bin);
const shim = join(bin, 'cqlint-language-server');
writeFileSync(
  shim,
  `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'bin', 'cqlint-language-server.js'))} "$@"\n`,
);
chmodSync(shim, 0o755);
const schema = join(ws, 'schema.cql');
writeFileSync(schema, HOT_SCHEMA);
writeFileSync(join(ws, '.cqlint.json'), '{}\n');
const out = join(ws, 'out.json');

const lisp = `
(require 'eglot)
(require 'json)
${snippet}
(setq eglot-sync-connect t)
(defvar cqlint-test-result nil)
(defun cqlint-test-put (key value) (setq cqlint-test-result (plist-put cqlint-test-result key value)))
(defun cqlint-test-wait (predicate seconds)
  "Runs the event loop until PREDICATE holds or SECONDS pass."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (when (fboundp 'flymake-start) (ignore-errors (flymake-start))))
    (funcall predicate)))
(defun cqlint-test-diagnostics ()
  (mapcar (lambda (d)
            (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))))
              (list :code (plist-get lsp :code)
                    :line (plist-get (plist-get (plist-get lsp :range) :start) :line)
                    :severity (plist-get lsp :severity)
                    :message (plist-get lsp :message))))
          (flymake-diagnostics)))
(defun cqlint-test-codes () (mapcar (lambda (d) (plist-get d :code)) (cqlint-test-diagnostics)))
(condition-case err
    (progn
      (find-file ${JSON.stringify(schema)})
      (cqlint-test-put :mode (symbol-name major-mode))
      ;; The README's hook ran eglot-ensure, which connects when the command that opened the file ends:
      ;; batch Emacs runs no command loop, so end one here.
      (run-hooks 'post-command-hook)
      (cqlint-test-wait (lambda () (eglot-current-server)) 30)
      (cqlint-test-put :managed (if (eglot-current-server) t :false))
      (cqlint-test-wait (lambda () (member "hot-partition" (cqlint-test-codes))) 30)
      (cqlint-test-put :diagnostics (vconcat (cqlint-test-diagnostics)))
      ;; Hover on the partition key column (line 2, "publish_date").
      (goto-char (point-min)) (forward-line 1) (forward-char 4)
      (let ((hover (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover (eglot--TextDocumentPositionParams))))
        (cqlint-test-put :hover (plist-get (plist-get hover :contents) :value)))
      ;; The code actions on the primary key line, with its diagnostics, as M-x eglot-code-actions asks.
      (goto-char (point-min)) (forward-line 4)
      (let* ((actions (eglot-code-actions (line-beginning-position) (line-end-position)))
             (fix (seq-find (lambda (a) (string-match-p "calculated shard column from title" (plist-get a :title))) actions)))
        (cqlint-test-put :actions (vconcat (mapcar (lambda (a) (plist-get a :title)) actions)))
        (when fix
          (eglot--apply-workspace-edit (plist-get fix :edit))
          ;; eglot sends the change after eglot-send-changes-idle-time of idleness; batch Emacs is never idle.
          (eglot--signal-textDocument/didChange)
          (cqlint-test-wait (lambda () (not (member "hot-partition" (cqlint-test-codes)))) 30)
          (cqlint-test-put :applied (buffer-substring-no-properties (point-min) (point-max)))
          (cqlint-test-put :after (vconcat (cqlint-test-codes))))))
  (error (cqlint-test-put :error (format "%S" err))))
(with-temp-file ${JSON.stringify(out)}
  (insert (json-encode cqlint-test-result)))
(kill-emacs 0)
`;
const script = join(ws, 'run.el');
writeFileSync(script, lisp);

// No -Q: the site start files activate Debian's elpa packages (eglot); HOME is the temporary folder, so
// no user configuration is read.
const run = spawnSync('emacs', ['--batch', '-l', script], {
  cwd: ws,
  encoding: 'utf8',
  timeout: 180_000,
  env: { ...process.env, HOME: ws, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
});

const { check, checkShardFix, finish } = checks('emacs client (headless Emacs, eglot, push diagnostics)');
if (!existsSync(out)) {
  check('emacs wrote its results', false, `exit ${run.status} ${run.signal ?? ''}\n${run.stdout}\n${run.stderr}`);
} else {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  check('no error in the Emacs Lisp run', !r.error, r.error);
  check('the README snippet gives .cql files cql-mode', r.mode === 'cql-mode', r.mode);
  check(
    'eglot manages the buffer with cqlint-language-server from the PATH',
    r.managed === true,
    `${run.stderr.slice(-2000)}`,
  );
  const diagnostics = r.diagnostics ?? [];
  const hot = diagnostics.find((d) => d.code === 'hot-partition');
  check('a hot-partition diagnostic reaches Flymake', Boolean(hot), JSON.stringify(diagnostics));
  check(
    'on the primary key line (0-based 4), as a warning',
    hot && hot.line === 4 && hot.severity === 2,
    JSON.stringify(hot),
  );
  check(
    'the hover on a column names its role',
    typeof r.hover === 'string' && /partition key/i.test(r.hover),
    JSON.stringify(r.hover),
  );
  check(
    'code actions offer a shard column',
    (r.actions ?? []).some((t) => /shard column/i.test(t)),
    JSON.stringify(r.actions),
  );
  checkShardFix(r.applied);
  check(
    'after the fix the hot-partition diagnostic is gone',
    Array.isArray(r.after) && !r.after.includes('hot-partition'),
    JSON.stringify(r.after),
  );
}
rmSync(ws, { recursive: true, force: true });
finish();
