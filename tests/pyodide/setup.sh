#!/usr/bin/env bash
# Prepares the offline Pyodide test of the xlwings Lite bundle (tests/test_lite.py):
#   node_modules/  pyodide from npm, at the version package-lock.json pins
#   index/         the pure-Python wheels micropip installs from the bundle's requirements.txt
#   preload/       micropip and Pyodide's own pure-Python packages, at its lockfile's versions
# (offline.py says what each holds). Needs node/npm and the project's Python environment
# (pip). Safe to run again.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
rm -rf wheels  # the folder of an earlier layout
"${PYTHON:-python}" offline.py
