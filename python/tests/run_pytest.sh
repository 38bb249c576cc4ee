#!/bin/sh
# CTest's "python" test: pytest over python/tests against the library of this build.
# usage: run_pytest.sh LIBGPUCACHE_PYTHON GPUCACHE_CLI SANITIZED
# Exit 77 (skipped) in the sanitizer build or without numpy, cffi or pytest; pytest's
# exit 5 (no test collected) is a failure, never a pass or a skip.
set -u
LIB=$1
CLI=$2
SANITIZED=$3
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
if [ "$SANITIZED" = 1 ]; then
    echo "python: skipped in the sanitizer build (an ASan library cannot load into /usr/bin/python3)"
    exit 77
fi
if ! "$PY" -c 'import numpy, cffi, pytest' 2>/dev/null; then
    echo "python: skipped: /usr/bin/python3 lacks numpy, cffi or pytest (scripts/install-deps.sh installs them)"
    exit 77
fi
export GPUCACHE_LIBRARY="$LIB" GPUCACHE_CLI="$CLI"
export PYTHONPATH="$HERE/..${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
"$PY" -m pytest -q -p no:cacheprovider "$HERE"
status=$?
if [ "$status" -eq 5 ]; then
    echo "python: pytest collected no test" >&2
    exit 1
fi
exit "$status"
