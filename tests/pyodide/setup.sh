#!/usr/bin/env bash
# Prepares the offline Pyodide test of the xlwings Lite bundle (tests/test_lite.py):
#   node_modules/  pyodide from npm, at the version package-lock.json pins
#   wheels/        pure-Python wheels of pint and its dependencies, fetched by pip
# Needs node/npm and the project's Python environment (pip). Safe to run again.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
python="${PYTHON:-python}"
reqs="$("$python" -c 'from addin.routes.lite import requirements; print(" ".join(requirements()))')"
rm -rf wheels && mkdir -p wheels
# shellcheck disable=SC2086
"$python" -m pip download --quiet --no-deps --only-binary=:all: --implementation py \
    --platform any --python-version 3.13 --abi none -d wheels $reqs
ls wheels
