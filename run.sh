#!/usr/bin/env bash
# Sets up a virtual environment in .venv (once), then runs the tests (`run.sh test`), the lint,
# format and type checks (`run.sh check`), or starts Umpire (`run.sh [bot.py arguments]`): the
# Discord bot when DISCORD_TOKEN is set,
# otherwise the local table in this terminal.
set -euo pipefail
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.umpire-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ constraints.txt -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  # constraints.txt: the exact versions the tests ran with, also what the Docker image ships.
  .venv/bin/python -m pip install --quiet -c constraints.txt -e '.[test,bench,dev]'
  touch "$stamp"
fi
if [ "${1:-}" = "check" ]; then
  # Lint, formatting and types, as configured in pyproject.toml (CI runs this before the tests).
  .venv/bin/python -m ruff check .
  .venv/bin/python -m ruff format --check .
  exec .venv/bin/python -m mypy engine service
fi
if [ "${1:-}" = "test" ]; then
  shift
  exec .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python bot.py "$@"
