#!/usr/bin/env bash
# Install everything the tests need and run every check:
# ruff (lint), mypy (types), pytest (unit, property, perft, server and doctests),
# then the browser tests in their own pytest run (real Chromium driven by Playwright).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's Chromium for the end-to-end browser tests (Playwright drives /usr/bin/chromium).
if [ ! -x /usr/bin/chromium ]; then
  echo "== installing chromium (apt)"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
echo "== ruff"; .venv/bin/ruff check src tests bench scripts $( [ -d e2e ] && echo e2e )
echo "== mypy"; .venv/bin/mypy
echo "== pytest"; .venv/bin/pytest
if [ -d e2e ]; then
  echo "== pytest (browser)"; .venv/bin/pytest e2e
fi
