#!/usr/bin/env bash
# Install everything the tests need and run every check:
# ruff (lint), mypy (types), pytest (unit, property, perft, server and doctests),
# then the browser tests in their own pytest run (real Chromium driven by Playwright).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's packages, installed when missing (one apt-get update, one install): Chromium for the
# end-to-end browser tests (Playwright drives /usr/bin/chromium); PostgreSQL, Redis, nginx and curl for
# the cluster test (tests/test_cluster_script.py runs scripts/cluster.sh).
packages=()
[ -x /usr/bin/chromium ] || packages+=(chromium fonts-dejavu-core)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || packages+=(postgresql)
command -v redis-server >/dev/null || packages+=(redis-server)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || packages+=(nginx)
command -v curl >/dev/null || packages+=(curl)
command -v npm >/dev/null || packages+=(npm)  # the pinned browser-side packages (axe-core, Pyodide) and Node.js (the offline pack)
if [ ${#packages[@]} -gt 0 ]; then
  echo "== installing ${packages[*]} (apt)"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
fi

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
lint=(src tests bench scripts)
if [ -d e2e ]; then lint+=(e2e); fi
echo "== ruff"; .venv/bin/ruff check "${lint[@]}"
echo "== mypy"; .venv/bin/mypy
# two workers (pytest-xdist): most slow tests wait on real processes and sockets, so two run in
# about three quarters of the time of one on a 2-core machine; --durations lists the slowest
echo "== pytest"; .venv/bin/pytest -n 2 --durations=25 --hypothesis-profile=ci
if [ -d e2e ]; then
  echo "== browser packages"; .venv/bin/python scripts/browser_packages.py  # axe-core, pinned (scripts/browser-packages.json)
  # the browser tests on three workers, a test file per worker (each worker its own server and
  # Chromium): they wait on the page's pauses and the server more than they compute, so a third worker
  # fits on two cores (docs/performance.md "The test suite's time")
  echo "== pytest (browser)"; .venv/bin/pytest e2e -n 3 --dist loadfile --durations=15
fi
