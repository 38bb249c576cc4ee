#!/bin/sh
# Regenerates the tables of docs/models/validation.md (every preset against the published
# measurements, `gpucache validate --markdown`) between its BEGIN/END markers; with --check,
# only says whether the page is up to date (the ctest `validation_doc` runs that).
# usage: scripts/validation-table.sh [--check] [GPUCACHE_BINARY]   (default build/gpucache)
set -u
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/build/gpucache}
DOC=$ROOT/docs/models/validation.md
begin='<!-- BEGIN gpucache validate --markdown -->'
end='<!-- END gpucache validate --markdown -->'
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$BIN" validate --markdown --data "$ROOT/data/published" >"$tmp/tables" || { echo "$0: gpucache validate failed" >&2; exit 1; }
grep -qxF "$begin" "$DOC" && grep -qxF "$end" "$DOC" || { echo "$0: $DOC has no BEGIN/END markers" >&2; exit 2; }
awk -v b="$begin" -v e="$end" -v t="$tmp/tables" '
    $0 == b { print; while ((getline line < t) > 0) print line; skip = 1; next }
    $0 == e { skip = 0 }
    !skip { print }' "$DOC" >"$tmp/page"
if [ $check = 1 ]; then
    if cmp -s "$tmp/page" "$DOC"; then echo "docs/models/validation.md is up to date"; exit 0; fi
    echo "docs/models/validation.md is stale: run scripts/validation-table.sh" >&2
    diff "$DOC" "$tmp/page" | head -20 >&2
    exit 1
fi
cp "$tmp/page" "$DOC.tmp" && mv "$DOC.tmp" "$DOC"
