#!/usr/bin/env bash
# Sets up a virtual environment from the project's own files and runs every check:
# hadolint over the Dockerfile, ruff, mypy --strict on every package (and over tests/), and
# pytest (the conformance cases of tests/cases among its tests) with pytest-xdist: two workers
# a core (many tests wait on sockets, sleeps and child processes more than they compute), a
# worker that runs out taking tests from another's queue. mypy, the slowest check, runs beside
# pytest for the same reason; its report follows pytest's. Installs the exact
# versions of requirements-dev.lock, each checked against its hash (the build backend,
# setuptools, among them), then the bot in editable mode for development, built with that
# setuptools (no build isolation: pip fetches nothing more).
set -euo pipefail
cd "$(dirname "$0")/.."
# bytecode kept, whatever the environment says: without it each pytest worker rewrote and compiled
# every test module again, and each bot a test starts compiled the bot
unset PYTHONDONTWRITEBYTECODE
source scripts/install.sh
bootstrap_venv .venv
install_lock .venv requirements-dev.lock
install_lock .venv requirements.lock --dry-run --ignore-installed
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation --check-build-dependencies -e .
.venv/bin/hadolint Dockerfile
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# the temporary files of the tests, their SQLite databases among them, on a memory file system
# where there is one: on the disk, every commit's fsync waited behind the other writes
scratch=$(mktemp -d /dev/shm/stukolka-tests.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"
mypy_log="$scratch/mypy.log"
.venv/bin/mypy game storage tables bot web server bench tests >"$mypy_log" 2>&1 &
mypy=$!
# the Mini App's browser tests (marked browser) drive Debian's Chromium (Playwright's own
# browser download is not used): installed where this runs as root without it, as CI does
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
status=0
.venv/bin/python -m pytest -n "$((2 * $(nproc)))" --dist worksteal "$@" || status=$?
wait "$mypy" || status=$((status ? status : 1))
cat "$mypy_log"
exit "$status"
