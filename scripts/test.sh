#!/usr/bin/env bash
# Sets up a virtual environment from the project's own files and runs every check:
# hadolint over the Dockerfile, ruff, mypy --strict on every package (and over tests/), and
# pytest (the conformance cases of tests/cases among its tests) on every core: pytest-xdist's
# -n auto, a worker that runs out taking tests from the other's queue. Installs the exact
# versions of requirements-dev.lock, each checked against its hash (the build backend,
# setuptools, among them), then the bot in editable mode for development, built with that
# setuptools (no build isolation: pip fetches nothing more).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes \
  -r requirements-dev.lock
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation --check-build-dependencies -e .
.venv/bin/hadolint Dockerfile
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy game storage tables bot bench web tests
# the Mini App's browser tests (marked browser) drive Debian's Chromium (Playwright's own
# browser download is not used): installed where this runs as root without it, as CI does
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
.venv/bin/python -m pytest -n auto --dist worksteal "$@"
