#!/bin/sh
# Regenerates the reference part of docs/cli.md between its BEGIN/END markers from the help
# text (tools/cli-help.txt, read by tools/help.c): the overview (`gpucache help`) and every command's `--help`, the very
# text the tool prints, so that the page cannot drift from the options. With --check, only
# says whether the page is up to date (the ctest `cli_doc` runs that).
# usage: scripts/cli-doc.sh [--check] [GPUCACHE_BINARY]   (default build/gpucache)
set -u
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/build/gpucache}
DOC=$ROOT/docs/cli.md
begin='<!-- BEGIN scripts/cli-doc.sh -->'
end='<!-- END scripts/cli-doc.sh -->'
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
{
    printf '### gpucache help\n\n```text\n'
    "$BIN" help || exit 1
    printf '```\n'
    for c in $("$BIN" --commands); do
        [ "$c" = help ] && continue
        printf '\n### gpucache %s\n\n```text\n' "$c"
        "$BIN" "$c" --help || exit 1
        printf '```\n'
    done
} >"$tmp/reference" || { echo "$0: $BIN help failed" >&2; exit 1; }
grep -qxF "$begin" "$DOC" && grep -qxF "$end" "$DOC" || { echo "$0: $DOC has no BEGIN/END markers" >&2; exit 2; }
awk -v b="$begin" -v e="$end" -v t="$tmp/reference" '
    $0 == b { print; while ((getline line < t) > 0) print line; skip = 1; next }
    $0 == e { skip = 0 }
    !skip { print }' "$DOC" >"$tmp/page"
if [ $check = 1 ]; then
    if cmp -s "$tmp/page" "$DOC"; then echo "docs/cli.md is up to date"; exit 0; fi
    echo "docs/cli.md is stale: run scripts/cli-doc.sh" >&2
    diff "$DOC" "$tmp/page" | head -20 >&2
    exit 1
fi
cp "$tmp/page" "$DOC.tmp" && mv "$DOC.tmp" "$DOC"
