#!/bin/sh
# Issue 21: gpucache report's page, checked by content (tests/report_test.py, Debian's
# python3 and its html.parser: nothing from the package index).
# usage: report_test.sh GPUCACHE_BINARY WORK_DIR [CORPUS_DIR]
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "python3 not installed: skipped"; exit 77; }
exec "$PY" "$(dirname "$0")/report_test.py" "$@"
