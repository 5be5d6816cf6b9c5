#!/usr/bin/env bash
# Sets up a virtual environment from the project's own files and starts the bot (polling):
# the pinned pip of requirements-pip.lock (scripts/install.sh says why), then with it the exact
# versions of requirements.lock, each checked against its hash (the build backend, setuptools,
# among them), then the bot itself, built with that setuptools (no build isolation: pip fetches
# nothing more) and installed as a package, not editable. The Dockerfile runs the same commands.
# Needs BOT_TOKEN in the environment or in .env; everything else has a default.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install.sh
bootstrap_venv .venv
install_lock .venv requirements.lock
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation --check-build-dependencies .
# -P: the installed bot, not the source files in this folder (which is still the working
# directory, for data/ and .env)
exec .venv/bin/python -P -m server "$@"
