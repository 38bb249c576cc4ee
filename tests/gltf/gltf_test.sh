#!/bin/sh
# CTest driver of the glTF tests (issue 17): check_roundtrip.py with Debian's python3.
# usage: gltf_test.sh roundtrip|validate GPUCACHE_BINARY WORK_DIR
# Exit 77 (skipped) when python3, or for `validate` node or the gltf-validator package
# (scripts/install-deps.sh puts it in /opt/gpucache-node, or GLTF_VALIDATOR_DIR), is missing.
set -u
HERE=$(dirname "$0")
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || { echo "skipped: python3 not found"; exit 77; }
case $1 in
    roundtrip) exec "$PY" "$HERE/check_roundtrip.py" --cli "$2" --work "$3" ;;
    validate)
        command -v node >/dev/null 2>&1 || { echo "skipped: node not found"; exit 77; }
        exec "$PY" "$HERE/check_roundtrip.py" --cli "$2" --work "$3" --validate ;;
    *) echo "usage: gltf_test.sh roundtrip|validate GPUCACHE_BINARY WORK_DIR" >&2; exit 2 ;;
esac
