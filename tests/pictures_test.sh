#!/bin/sh
# Issue 21: analyze --heatmap and --trace-plot, checked by content (tests/pictures_test.py,
# Debian's python3 and its xml.etree: nothing from the package index).
# usage: pictures_test.sh GPUCACHE_BINARY WORK_DIR
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "python3 not installed: skipped"; exit 77; }
exec "$PY" "$(dirname "$0")/pictures_test.py" "$@"
