#!/bin/sh
# analyze --meshlets FILE INPUT (issue 31 item 2): a data file written by `meshlets --data`
# checked against the mesh it describes (the written OUTPUT, whose vertex numbering the
# data file uses): accepted with the figures `meshlets --json` reported; against another
# mesh, a mesh missing a triangle or drawing one twice: one line naming the data file and
# the meshlet or the triangle, exit 1, nothing on standard output.
# usage: analyze_meshlets_test.sh GPUCACHE_BINARY WORK_DIR [CORPUS_DIR]
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
CORPUS=${3:-}
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
if [ -z "$CORPUS" ] || [ ! -r "$CORPUS/cow.obj" ]; then
    echo "SKIPPED: no corpus"
    exit 77
fi
"$BIN" meshlets --json --max-vertices 64 --max-triangles 124 "$CORPUS/cow.obj" -o out.obj --data out.gcm >made.json
if "$BIN" analyze --json --meshlets out.gcm out.obj >got.json 2>err.txt &&
    [ "$(num meshlets <got.json)" = "$(num meshlets <made.json)" ] &&
    [ "$(num meshlet_vertices <got.json)" = "$(num meshlet_vertices <made.json)" ]; then
    pass
else
    fail "analyze --meshlets: $(cat got.json err.txt) against $(cat made.json)"
fi
refused() {
    if "$BIN" analyze --meshlets out.gcm "$1" >out.txt 2>err.txt; then
        fail "$1: accepted"
    elif [ ! -s out.txt ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "out.gcm: .*$2" err.txt; then
        pass
    else
        fail "$1: $(cat out.txt err.txt)"
    fi
}
refused "$CORPUS/spot.obj" "triangles"
# the same mesh with its last face dropped, then with its first face drawn twice instead
awk '/^f / { last = NR } { line[NR] = $0 } END { for (i = 1; i <= NR; i++) if (i != last) print line[i] }' out.obj >short.obj
refused short.obj "the mesh 5803"
awk '/^f / && !done { first = $0; done = 1 } /^f / { last = NR } { line[NR] = $0 } END { for (i = 1; i <= NR; i++) if (i != last) print line[i]; print first }' out.obj >twice.obj
refused twice.obj "meshlet [0-9]* draws\|is in no meshlet"
if "$BIN" analyze --meshlets out.gcm -m fifo:16 out.obj >out.txt 2>err.txt; then fail "-m with --meshlets accepted"; else pass; fi
finish
