#!/bin/sh
# Issue 16: the invocations `optimize -a auto` reports for its output under each target
# equal what `analyze` reports on the written output, for every family, on a text index
# buffer (vertices kept, and renumbered with --reorder-vertices) and on an OBJ (whose reader
# numbers vertices in order of first use): the optimizer scores what the file will be.
# usage: auto_report_test.sh GPUCACHE_BINARY WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
PY=/usr/bin/python3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

# A 40 x 30 grid, its triangles shuffled (a fixed seed) and its vertices renumbered by a
# fixed permutation (so that nothing of the grid's order is left), as text and as OBJ.
"$BIN" grid 40 30 -o grid.txt >/dev/null || { echo "grid failed"; exit 1; }
awk 'BEGIN { s = 11 } { s = (s * 1103515245 + 12345) % 2147483648; print s, $0 }' grid.txt | sort -n |
    cut -d' ' -f2- | awk '{ for (i = 1; i <= 3; i++) $i = ($i * 7919) % 1271; print }' >shuffled.txt
awk 'BEGIN { for (v = 0; v < 1271; v++) printf "v %d %d 0\n", v % 41, int(v / 41) }
     { printf "f %d %d %d\n", $1 + 1, $2 + 1, $3 + 1 }' shuffled.txt >shuffled.obj

json_after() { # FILE: the first target's invocations after
    $PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["targets"][0]["after"]["invocations"])' "$1"
}
for m in fifo:16 lru:16 direct-value:64 direct-position:32 nvidia meshopt:32,32,32 reuse:32,16,32 batch \
    batch:slots=16,prims=8 llvmpipe llvmpipe:segment=96,map=32 amd-gcn; do
    for input in shuffled.txt:keep shuffled.txt:--reorder-vertices shuffled.obj:keep; do
        file=${input%%:*}
        flag=${input#*:}
        [ "$flag" = keep ] && flag=
        out=out.${file##*.}
        if ! "$BIN" optimize -a auto -m "$m" $flag --json "$file" -o "$out" >report.json 2>err.txt; then
            fail "optimize -m $m $flag $file: $(cat err.txt)"
            continue
        fi
        reported=$(json_after report.json)
        analyzed=$("$BIN" analyze -m "$m" --json "$out" | num invocations)
        if [ -n "$reported" ] && [ "$reported" = "$analyzed" ]; then pass; else
            fail "-m $m $flag $file: optimize reports $reported, analyze of $out says $analyzed"; fi
    done
done
finish
