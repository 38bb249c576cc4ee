#!/bin/sh
# Issue 21, item 5: sweep --plot's figure checked by content (tests/sweep_plot_test.py,
# Debian's python3 and its xml.etree: nothing from the package index).
# usage: sweep_plot_test.sh GPUCACHE_BINARY WORK_DIR
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "python3 not installed: skipped"; exit 77; }
exec "$PY" "$(dirname "$0")/sweep_plot_test.py" "$@"
