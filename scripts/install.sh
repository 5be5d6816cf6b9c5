# Sourced by scripts/run.sh and scripts/test.sh: the one way this project fills a virtual
# environment, so that what a fresh clone installs is the same bytes on any day.
#
# First the installer: a fresh venv brings whatever pip its Python bundles (3.11's venv brings
# 23.2.1), and pip's resolver has changed how it reads a lock between releases (23.2 refuses a
# hash-pinned package that another asks for with an extra, once the index serves a newer
# release of it). So the venv's own pip installs only one pinned, hash-checked pip from
# requirements-pip.lock (a single wheel with no dependencies, which any pip reads the same way),
# and that pip installs the lock files. The Dockerfile runs the same commands.

# the pip of requirements-pip.lock in the venv at $1 (created when missing)
bootstrap_venv() {
  local venv=$1 root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes \
    --no-deps -r "$root/requirements-pip.lock"
}

# installs the lock file $2 into the venv at $1 (extra pip options after it, e.g. --dry-run);
# on a failure, says what to do
install_lock() {
  local venv=$1 lock=$2
  shift 2
  if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes \
    -r "$lock" "$@"; then
    cat >&2 <<MESSAGE

$lock cannot be installed on this machine by the project's pinned pip
($("$venv/bin/python" -m pip --version | cut -d' ' -f1-2)). A lock that installed yesterday and fails
today means the package index changed under it: regenerate both lock files as
docs/operations.md ("Dependencies") shows, and, if pip-compile moved pip, copy its
entry from requirements-dev.lock to requirements-pip.lock. Then run scripts/test.sh.
MESSAGE
    return 1
  fi
}
