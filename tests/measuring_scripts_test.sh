#!/bin/sh
# The measuring scripts' output files written through a temporary and a rename
# (tests/measuring_scripts_test.py, Debian's python3: nothing from the package index).
# usage: measuring_scripts_test.sh SOURCE_DIR WORK_DIR
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "python3 not installed: skipped"; exit 77; }
exec "$PY" "$(dirname "$0")/measuring_scripts_test.py" "$@"
