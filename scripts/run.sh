#!/usr/bin/env bash
# Sets up a virtual environment from the project's own files and starts the bot (polling):
# the exact versions of requirements.lock, each checked against its hash, then the bot itself.
# Needs BOT_TOKEN in the environment or in .env; everything else has a default.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes \
  -r requirements.lock
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
exec .venv/bin/python -m bot "$@"
