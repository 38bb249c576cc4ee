#!/bin/sh
# Issue 21: gpucache report's page in headless Chromium (tests/report_browser_test.py, with
# Debian's python3-selenium and chromium-driver); skipped (77) where they are missing.
# usage: report_browser_test.sh GPUCACHE_BINARY WORK_DIR [CORPUS_DIR]
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "python3 not installed: skipped"; exit 77; }
exec "$PY" "$(dirname "$0")/report_browser_test.py" "$@"
