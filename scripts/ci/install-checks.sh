#!/usr/bin/env bash
# cqlint installed as a user installs it (issue 38.6), each in a clean `mktemp -d` folder, from the committed
# HEAD: the packed tarball and the git URL (a file:// clone), each installed globally into a prefix of its own
# and run on a sample; the .pre-commit-hooks.yaml hook through `pre-commit try-repo`; and every cqlint command
# of the docs' recipes (scripts/ci/recipe-commands.mjs) run in a project that installed the tarball, with a
# broken .cqlint.json: each must fail (a recipe that swallows exit 2 would pass a broken config in CI).
# Network: the npm registry only (the git install fetches cqlint's build tools). Run by .ci/run; needs
# `npm ci` done in the checkout, git, and pre-commit (Debian package) on the PATH.
# Usage: scripts/ci/install-checks.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CI=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
export PRE_COMMIT_HOME="$work/pre-commit-home"
failures=0
fail() { echo "install-checks: FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "install-checks: ok: $*"; }

# Expects `$1` (an exit code) from the command after it; its output goes to a log shown on failure.
expect() {
  local want="$1" what="$2"; shift 2
  local log="$work/last.log" code=0
  "$@" >"$log" 2>&1 || code=$?
  if [ "$code" = "$want" ]; then ok "$what (exit $code)"; else fail "$what: exit $code, expected $want"; tail -40 "$log" >&2; fi
}

# The sources: a clone of HEAD (what the git URL and pre-commit install) and the tarball packed from it.
git clone --quiet --no-hardlinks "$repo" "$work/src"
rev="$(git -C "$work/src" rev-parse HEAD)"
echo "install-checks: cqlint $rev in $work"
(cd "$repo" && npm pack --silent --pack-destination "$work" >/dev/null 2>"$work/pack.log") || { cat "$work/pack.log" >&2; fail "npm pack"; }
# npm pack built for production: the checkout's own (development) build back for the tests after this.
(cd "$repo" && npm run --silent build >/dev/null 2>&1)
tarball="$(ls "$work"/cqlint-*.tgz)"
git -C "$repo" diff --quiet -- package.json || fail "npm pack left package.json changed"
tar -xzOf "$tarball" package/package.json | node -e 'const p = JSON.parse(require("fs").readFileSync(0, "utf8")); process.exit(p.scripts ? 1 : 0)' \
  || fail "the packed package.json has scripts (an install script npm asks users to approve)"

# A sample project: a schema with an error (unknown-column, exit 1) and one that is clean (exit 0).
sample="$work/sample"
mkdir -p "$sample/schema" "$sample/queries" "$sample/clean"
cat >"$sample/schema/shop.cql" <<'CQL'
CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE shop.orders (customer_id uuid, order_id timeuuid, total decimal, PRIMARY KEY (customer_id, order_id));
CQL
echo "SELECT nope FROM shop.orders WHERE customer_id = 5b6962dd-3f90-4c93-8f61-eabfa4a803e2;" >"$sample/queries/orders.cql"
cat "$sample/schema/shop.cql" >"$sample/clean/shop.cql"

# 1. The tarball, installed globally into a clean prefix.
prefix="$work/prefix-tarball"
expect 0 "npm install --global <tarball>" npm install --global --prefix "$prefix" "$tarball"
grep -q "install-scripts" "$work/last.log" && fail "the tarball install reports an install script: $(grep install-scripts "$work/last.log" | head -3)"
expect 1 "tarball: cqlint lint finds the unknown column" "$prefix/bin/cqlint" lint "$sample/schema" "$sample/queries"
expect 0 "tarball: cqlint lint passes a clean schema" "$prefix/bin/cqlint" lint "$sample/clean"

# 2. The git URL (a file:// URL of the clone), installed globally into another clean prefix.
prefix="$work/prefix-git"
expect 0 "npm install --global git+file://...#$rev" npm install --global --prefix "$prefix" "git+file://$work/src#$rev"
expect 1 "git URL: cqlint lint finds the unknown column" "$prefix/bin/cqlint" lint "$sample/schema" "$sample/queries"
expect 0 "git URL: cqlint-language-server is installed" test -x "$prefix/bin/cqlint-language-server"

# 3. The pre-commit hook, as pre-commit installs node hooks (npm install, npm pack, npm install -g).
hooked="$work/hooked"
mkdir -p "$hooked"
cp "$sample/schema/shop.cql" "$sample/queries/orders.cql" "$hooked/"
git -C "$hooked" init --quiet
# As docs/install.md says: the hook's cache is not committed (a staged one it rewrites would fail the hook).
echo ".cqlintcache" >"$hooked/.gitignore"
git -C "$hooked" add .
expect 1 "pre-commit try-repo cqlint: the hook fails on the unknown column" \
  bash -c 'cd "$1" && pre-commit try-repo "$2" cqlint --files orders.cql' _ "$hooked" "$work/src"
rm "$hooked/orders.cql"
git -C "$hooked" add -A
expect 0 "pre-commit try-repo cqlint: the hook passes a clean schema" \
  bash -c 'cd "$1" && pre-commit try-repo "$2" cqlint --files shop.cql' _ "$hooked" "$work/src"
echo "{ broken" >"$hooked/.cqlint.json"
git -C "$hooked" add -A
expect 1 "pre-commit try-repo cqlint: the hook fails on a broken .cqlint.json" \
  bash -c 'cd "$1" && pre-commit try-repo "$2" cqlint --files shop.cql' _ "$hooked" "$work/src"

# 4. The recipes: a project with the tarball in its devDependencies and a broken .cqlint.json; every cqlint
# command the docs give must fail there, as its CI job must.
project="$work/project"
cp -R "$sample" "$project"
rm -rf "$project/clean"
(cd "$project" && printf '{ "name": "recipes", "private": true }\n' >package.json)
expect 0 "npm install --save-dev <tarball> (into a project)" bash -c 'cd "$1" && npm install --save-dev "$2"' _ "$project" "$tarball"
node "$repo/scripts/ci/recipe-commands.mjs" >"$work/recipes.jsonl" || fail "a recipe has no cqlint command"
# The project as the recipes' CI jobs see it: a git checkout whose base branch is fetched (origin/main, for
# --since), and the runner's variables (GitHub's base ref and job summary file).
(cd "$project" && printf 'node_modules/\n.cqlintcache\n' >.gitignore && git init -q -b main && git add -A &&
  git -c user.name=ci -c user.email=ci@example.invalid commit -q -m base &&
  git update-ref refs/remotes/origin/main HEAD) || fail "the recipes' project as a git checkout"
export GITHUB_BASE_REF=main GITHUB_STEP_SUMMARY="$work/step-summary.md"
echo "{ broken" >"$project/.cqlint.json"
while IFS= read -r line; do
  recipe="$(node -e 'console.log(JSON.parse(process.argv[1]).recipe)' "$line")"
  command="$(node -e 'console.log(JSON.parse(process.argv[1]).command)' "$line")"
  # An npm script recipe: written into the project's package.json, run with npm run.
  node -e '
    const [line, file] = process.argv.slice(1); const entry = JSON.parse(line);
    if (entry.script) { const fs = require("fs"); const p = JSON.parse(fs.readFileSync(file, "utf8")); p.scripts = { ...p.scripts, [entry.script.name]: entry.script.value }; fs.writeFileSync(file, JSON.stringify(p, null, 2)); }
  ' "$line" "$project/package.json"
  code=0
  (cd "$project" && bash -e -o pipefail -c "$command") >"$work/recipe.log" 2>&1 || code=$?
  if [ "$code" = 0 ]; then fail "$recipe: \`$command\` passes with a broken .cqlint.json"; tail -20 "$work/recipe.log" >&2
  else ok "$recipe: \`$command\` fails with a broken .cqlint.json (exit $code)"; fi
done <"$work/recipes.jsonl"
# And the same commands pass the job where nothing is wrong but findings (exit 1 is not swallowed either).
rm "$project/.cqlint.json"
echo "SELECT total FROM shop.orders WHERE customer_id = 5b6962dd-3f90-4c93-8f61-eabfa4a803e2;" >"$project/queries/orders.cql"
while IFS= read -r line; do
  command="$(node -e 'console.log(JSON.parse(process.argv[1]).command)' "$line")"
  code=0
  (cd "$project" && bash -e -o pipefail -c "$command") >"$work/recipe.log" 2>&1 || code=$?
  if [ "$code" = 0 ]; then ok "\`$command\` passes a clean project"; else fail "\`$command\` fails a clean project (exit $code)"; tail -20 "$work/recipe.log" >&2; fi
done <"$work/recipes.jsonl"

if [ "$failures" -gt 0 ]; then
  echo "install-checks: $failures failed" >&2
  exit 1
fi
echo "install-checks: all passed"
