#!/usr/bin/env bash
# Sets up a virtual environment from the project's own files and starts the bot (polling).
# Needs BOT_TOKEN in the environment or in .env; everything else has a default.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
exec .venv/bin/python -m bot "$@"
