#!/usr/bin/env bash
# `npm test` in a fresh clone inside a `mktemp -d` folder (mode 0700: no other user can enter it), once as the
# user running CI and, when that is root, once more as a normal user (created here if missing) in a folder of
# its own: the tests must pass wherever the checkout sits and whoever runs them (issue 25). Run by .ci/run.
# The clone is of the committed HEAD, with ../shared (the corpus the tests read) copied beside it.
# Usage: scripts/ci/test-in-clone.sh [user]   (default user: cqlint-ci)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
shared="$(cd "$repo/.." && pwd)/shared"
user="${1:-cqlint-ci}"

# <dir>/repo.bundle and <dir>/shared in place: clone, install from the lockfile, build, test.
clone_and_test='set -euo pipefail; cd "$0"; git clone --quiet repo.bundle cqlint; cd cqlint; npm ci --no-audit --no-fund --loglevel=error; npm run build; npm test'

prepare() {
  git -C "$repo" bundle create "$1/repo.bundle" HEAD 2>/dev/null
  if [ -d "$shared" ]; then cp -R "$shared" "$1/shared"; chmod -R u+w "$1/shared"; fi
}

as_root="$(mktemp -d)"
as_user=""
trap 'rm -rf "$as_root" ${as_user:+"$as_user"}' EXIT
prepare "$as_root"
echo "npm test in a clone in $as_root as $(id -un)"
bash -c "$clone_and_test" "$as_root"

if [ "$(id -u)" = 0 ]; then
  id -u "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
  as_user="$(runuser -u "$user" -- mktemp -d)"
  prepare "$as_user"
  chown -R "$user:" "$as_user"
  echo "npm test in a clone in $as_user as $user"
  runuser -u "$user" -- bash -c "$clone_and_test" "$as_user"
fi
