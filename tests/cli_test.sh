#!/bin/sh
# Command-line behaviour of `gpucache`: the acceptance items of the analyzer and one
# check per class of bad input (message, exit status, never a signal, no partial output).
# usage: cli_test.sh GPUCACHE_BINARY WORK_DIR [CORPUS_DIR]
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
CORPUS=${3:-}
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1


# expect STATUS PATTERN command...: exit status and a line of stderr+stdout matching PATTERN.
expect() {
    want=$1 pattern=$2
    shift 2
    "$@" >out.txt 2>err.txt
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "$* -> exit $got, expected $want: $(cat err.txt)"
        return
    fi
    if [ -n "$pattern" ] && ! grep -q -- "$pattern" out.txt err.txt; then
        fail "$* -> output lacks '$pattern': $(cat err.txt out.txt | head -5)"
        return
    fi
    if [ "$want" -ne 0 ] && [ "$(wc -l <err.txt)" -ne 1 ]; then
        fail "$* -> expected exactly one error line, got: $(cat err.txt)"
        return
    fi
    pass
}

# --- acceptance: the trace of 0..32 under nvidia ends with seed 000's [30, 31, 32]
seq 0 32 >seq33.txt
"$BIN" analyze -m nvidia --trace seq33.txt >trace.txt 2>&1
if [ "$(tail -n 1 trace.txt | sed 's/^[0-9]*: //')" = "[30, 31, 32]" ]; then pass; else fail "trace ends with: $(tail -n 1 trace.txt)"; fi
seq 0 29 >seq30.txt
"$BIN" analyze -m nvidia --trace seq30.txt >trace30.txt 2>&1
want30=$(seq -s ', ' 0 29)
if [ "$(tail -n 1 trace30.txt | sed 's/^[0-9]*: //')" = "[$want30]" ]; then pass; else fail "0..29 trace: $(tail -n 1 trace30.txt)"; fi

# --- the table and the JSON contract
expect 0 "nvidia-pascal" "$BIN" analyze seq33.txt
echo "0 1 1 2 3 4 5 5 5" >deg.txt
"$BIN" analyze --json deg.txt >deg.json
for field in '"input": "deg.txt"' '"topology": "triangle-list"' '"indices": 9' '"primitives": 3' '"vertices": 6' \
    '"model": "intel"' '"invocations": 6' '"acmr": 2' '"atvr": 1' '"batches": null' '"seconds": null'; do
    if grep -q -- "$field" deg.json; then pass; else fail "JSON lacks $field: $(cat deg.json)"; fi
done
presets=$("$BIN" models | sed -n '/^presets:/,$p' | grep -c ' = ')
if [ "$(grep -o '"invocations": 6' deg.json | wc -l)" -eq "$presets" ] && [ "$presets" -ge 6 ]; then pass; else fail "seed 002: not 6 under every preset"; fi
"$BIN" analyze --json --repeat 3 -m fifo:16 deg.txt >rep.json
if grep -q '"seconds": [0-9]' rep.json; then pass; else fail "--repeat gives no seconds: $(cat rep.json)"; fi
if command -v python3 >/dev/null; then
    if python3 -c 'import json,sys; d=json.load(open("deg.json")); assert d["models"][2]["batches"] == 1' 2>/dev/null; then pass; else fail "JSON does not parse"; fi
fi

# --- per-vertex CSV: one row per vertex, counts add up to the invocations, no temp file left
echo "0 1 2 3 4 5 0 1 2 6 7 8 0 1 2" >pv.txt
expect 0 "" "$BIN" analyze -m fifo:6 -m lru:6 --per-vertex pv.csv pv.txt
if [ "$(head -n 1 pv.csv)" = "index,fifo:6,lru:6" ] && [ "$(sed -n 2p pv.csv)" = "0,2,1" ] && [ "$(sed -n 5p pv.csv)" = "3,1,1" ] && [ "$(wc -l <pv.csv)" -eq 10 ]; then pass; else fail "per-vertex CSV: $(cat pv.csv)"; fi
if ls pv.csv.tmp-* >/dev/null 2>&1; then fail "temporary file left behind"; else pass; fi

# --- topology, restart and state changes from the command line
printf '0 1 2 3 -1 4 5 6\n' >strip.txt
expect 0 "3 primitives" "$BIN" analyze -t triangle-strip --restart -m fifo:8 strip.txt
expect 0 "3 primitives" "$BIN" analyze -t strip --restart=4294967295 -m fifo:8 strip.txt
printf '1 2 3 4 5\n' >patent.txt
echo 4 >changes.txt
"$BIN" analyze --json -t triangle-strip -m batch:slots=4 --state-changes changes.txt patent.txt >patent.json
if grep -q '"invocations": 7' patent.json && grep -q '"map_mode_batches": 1' patent.json; then pass; else fail "patent strip: $(cat patent.json)"; fi
expect 0 "grid:10x10" "$BIN" analyze -m intel grid:10x10
expect 0 "rowmajor" "$BIN" demo

# --- bad input, one class each: clear message naming the file and place, right status
printf 'ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0\n1\n3 0 1 7\n' >range.ply
expect 1 "range.ply: element 'face' item 0 of 1: vertex index 7 out of range" "$BIN" analyze range.ply
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n' >range.obj
expect 1 "range.obj:4: position index 4 out of range" "$BIN" analyze range.obj
head -c 300 /dev/urandom >junk.ply
expect 1 "junk.ply" "$BIN" analyze junk.ply
printf 'ply\nformat binary_little_endian 1.0\nelement vertex 1000\nproperty float x\nend_header\n' >short.ply
expect 1 "short.ply: byte 84: file ends inside element 'vertex' item 0 of 1000" "$BIN" analyze short.ply
printf '0 1 2 3\n' >four.txt
expect 1 "four.txt: 4 indices do not make whole primitives of a triangle-list (1 left over)" "$BIN" analyze four.txt
expect 1 "four.txt: index 3: the quad-list segment starting at index 0 holds 3 indices" "$BIN" analyze -t quad-list --restart=3 four.txt
expect 2 "unknown model 'fifi:16'" "$BIN" analyze -m fifi:16 seq33.txt
expect 2 "model 'nvidia:speed=3': unknown parameter 'speed'" "$BIN" analyze -m nvidia:speed=3 seq33.txt
expect 2 "model 'meshopt:2,32,32': cache 2 is out of range" "$BIN" analyze -m meshopt:2,32,32 seq33.txt
expect 2 "model 'fifo:x': entries 'x' is not a whole number" "$BIN" analyze -m fifo:x seq33.txt
expect 2 "unknown topology 'hexagons'" "$BIN" analyze -t hexagons seq33.txt
expect 2 "unknown option '--frobnicate'" "$BIN" analyze --frobnicate seq33.txt
expect 2 "analyze needs an INPUT" "$BIN" analyze
expect 2 "--repeat needs a count" "$BIN" analyze --repeat 0 seq33.txt
: >empty.txt
expect 1 "empty.txt: no indices (empty input)" "$BIN" analyze empty.txt
: >empty.u32
expect 1 "empty.u32: empty file" "$BIN" analyze empty.u32
printf 'abc' >three.u32
expect 1 "three.u32: byte 0: 3 bytes is not a whole number of 32-bit indices" "$BIN" analyze three.u32
expect 1 "missing.obj: cannot open" "$BIN" analyze missing.obj
printf '0 1 -1\n' >restart.txt
expect 1 "restart.txt: index 2 is 4294967295 (-1), the primitive restart value" "$BIN" analyze restart.txt
printf '0 1 2\n' >tri.txt
printf '7\n' >late.txt
expect 1 "late.txt:1: state change at 7 is past the end" "$BIN" analyze -m batch --state-changes late.txt tri.txt
# A file too large for the limits: a sparse 9 GiB raw buffer (no disk used) is refused before any allocation.
if truncate -s 9G huge.u32 2>/dev/null; then
    expect 1 "huge.u32: 2415919104 indices exceed the limit" "$BIN" analyze huge.u32
    rm -f huge.u32
fi
# No partial output: a per-vertex CSV into a missing folder fails cleanly; an existing file stays untouched.
expect 1 "nodir/out.csv: cannot create" "$BIN" analyze --per-vertex nodir/out.csv tri.txt
echo "keep me" >kept.csv
expect 2 "" "$BIN" analyze -m nope --per-vertex kept.csv tri.txt
if [ "$(cat kept.csv)" = "keep me" ]; then pass; else fail "existing output file was modified"; fi
expect 1 "" "$BIN" analyze --per-vertex kept.csv four.txt
if [ "$(cat kept.csv)" = "keep me" ] && ! ls kept.csv.tmp-* >/dev/null 2>&1; then pass; else fail "bad input touched the output"; fi

# --- the corpus through the CLI (skipped when ../shared/corpus is absent)
if [ -n "$CORPUS" ] && [ -f "$CORPUS/igea.ply" ]; then
    expect 0 "triangle-strip" "$BIN" analyze -m fifo:16 "$CORPUS/igea.ply"
    expect 0 "968 primitives" "$BIN" analyze -m fifo:16 "$CORPUS/suzanne.obj"
else
    echo "corpus not found: corpus checks skipped"
fi

finish
