#!/usr/bin/env bash
# Install the package with its test tools into .venv and run every check:
# ruff (lint), mypy (types), pytest (unit, property, perft and doctests).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
echo "== ruff"; .venv/bin/ruff check src tests bench
echo "== mypy"; .venv/bin/mypy
echo "== pytest"; .venv/bin/pytest
