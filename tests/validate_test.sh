#!/bin/sh
# `gpucache validate`: every preset against data/published, values derived by hand (a FIFO
# against an LRU on a short sequence, the striped grid's best size and ATVR under a FIFO),
# seed 002's AMD points under amd-seed002, JSON, hostile data files, the docs page's tables.
# usage: validate_test.sh GPUCACHE_BINARY WORK_DIR SOURCE_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
SRC=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
DATA=$SRC/data/published

# Every preset: one heading each, exit 0.
"$BIN" validate --data "$DATA" >all.txt 2>err.txt
st=$?
presets=$("$BIN" models | awk '/^presets:/ { p = 1; next } p && /^  [a-z]/ { n++ } END { print n + 0 }')
headings=$(grep -c "values match" all.txt)
if [ $st -eq 0 ] && [ "$presets" -ge 15 ] && [ "$headings" -eq "$presets" ]; then pass; else fail "every preset: status $st, $headings headings for $presets presets"; fi

# Hand-derived: (0 1 2) (3 0 4) (0 5 6). FIFO 4: 0-3 miss, 0 hits, 4 evicts 0, 0 misses and
# evicts 1, 5 and 6 miss: 8. LRU 4: the hit on 0 refreshes it, 4 evicts 1, 0 hits, 5 and 6
# evict 2 and 3: 7.
cat >hand.json <<'J'
{"source": {"id": "hand"}, "measurements": [
 {"id": "fifo-vs-lru", "gpu": "none", "vendor": "intel", "section": "s", "sentence": "s",
  "buffer": {"parts": [{"range": [0, 2]}, {"indices": [3, 0, 4]}, {"repeat": [0, 5, 6], "times": 1}]},
  "figure": {"kind": "invocations", "value": 8}},
 {"id": "striped-best", "gpu": "none", "vendor": "intel", "section": "s", "sentence": "s",
  "buffer": {"grid": "100x100", "layout": "striped", "cache": "3..64"}, "figure": {"kind": "best_cache", "value": 9}},
 {"id": "striped-best-atvr", "gpu": "none", "vendor": "intel", "section": "s", "sentence": "s",
  "buffer": {"grid": "100x100", "layout": "striped", "cache": "3..64"}, "figure": {"kind": "best_atvr", "value": 1.1386}},
 {"id": "striped-break", "gpu": "none", "vendor": "intel", "section": "s", "sentence": "s",
  "buffer": {"grid": "100x100", "layout": "striped", "cache": "3..128"}, "figure": {"kind": "break_cache", "value": 10}}
]}
J
"$BIN" validate --data hand.json -m fifo:4 -m lru:4 -m fifo:16 --json >hand.out 2>&1
/usr/bin/python3 - hand.out <<'PY' && pass || fail "hand-derived values: $(head -c 400 hand.out)"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {m["model"]: {r["id"]: r for r in m["rows"]} for m in d["models"]}
assert rows["fifo:4"]["fifo-vs-lru"]["predicted"] == 8 and rows["fifo:4"]["fifo-vs-lru"]["match"]
assert rows["lru:4"]["fifo-vs-lru"]["predicted"] == 7 and rows["lru:4"]["fifo-vs-lru"]["error"] == -1
# FIFO 16 on the striped grid: two rows of c - 1 vertices fit while c <= 9; strips of 7
# quads (14 of them and one of 2) shade (100 + 15) x 101 = 11615 of 10201 vertices: 1.1386;
# at 10 (rows of 9) the rows are no longer reused: ATVR near 2, the break.
f = rows["fifo:16"]
assert f["striped-best"]["predicted"] == 9 and f["striped-best"]["match"]
assert abs(f["striped-best-atvr"]["predicted"] - 11615 / 10201) < 1e-6 and f["striped-best-atvr"]["match"]
assert f["striped-break"]["predicted"] == 10
PY

# Seed 002's AMD points under amd-seed002: both sizes exact, both ATVRs within 2%; amd-gcn
# does not match the ATVRs (+7%).
"$BIN" validate --data "$DATA" -m amd-seed002 -m amd-gcn --json >amd.json 2>&1
/usr/bin/python3 - amd.json <<'PY' && pass || fail "seed 002's AMD points: $(head -c 400 amd.json)"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {m["model"]: {r["id"]: r for r in m["rows"]} for m in d["models"]}
a = rows["amd-seed002"]
assert a["amd-striped-best"]["predicted"] == 8 and a["amd-tipsify-best"]["predicted"] == 16
assert abs(a["amd-striped-best-atvr"]["predicted"] / 1.21 - 1) <= 0.02
assert abs(a["amd-tipsify-best-atvr"]["predicted"] / 1.25 - 1) <= 0.02
assert all(r["match"] for k, r in a.items() if k.startswith("amd-"))
g = rows["amd-gcn"]
assert not g["amd-striped-best-atvr"]["match"] and not g["amd-tipsify-best-atvr"]["match"]
assert {m["vendor"] for m in d["models"]} == {"amd"}
PY

# The Intel preset keeps every Intel value (seed 001's FIFO, seed 002's Intel sentences).
if "$BIN" validate --data "$DATA" -m intel | grep -q "7 of 7 intel values match"; then pass; else fail "intel"; fi

# Hostile data: one error line naming the file, status 1, nothing on standard output.
bad() { # NAME CONTENT EXPECTED-IN-MESSAGE
    printf '%s' "$2" >"$1"
    "$BIN" validate --data "$1" >out.txt 2>err.txt
    st=$?
    if [ $st -eq 1 ] && [ ! -s out.txt ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "$1" err.txt && grep -q "$3" err.txt; then
        pass
    else
        fail "$1: status $st, $(head -c 300 err.txt)"
    fi
}
m='{"id": "x", "gpu": "g", "vendor": "amd", "section": "s", "sentence": "s", '
bad notjson.json '{"source": ' 'not JSON'
bad nosource.json '{"measurements": []}' 'source'
bad biggrid.json "{\"source\": {\"id\": \"b\"}, \"measurements\": [$m \"buffer\": {\"grid\": \"5000x5000\", \"layout\": \"striped\", \"cache\": \"3..9\"}, \"figure\": {\"kind\": \"best_cache\", \"value\": 8}}]}" 'grid'
bad ctrl.json "{\"source\": {\"id\": \"b\"}, \"measurements\": [{\"id\": \"x\", \"gpu\": \"g\\u001b[31m\", \"vendor\": \"amd\", \"section\": \"s\", \"sentence\": \"s\", \"buffer\": {\"parts\": [{\"indices\": [0, 1, 2]}]}, \"figure\": {\"kind\": \"invocations\", \"value\": 3}}]}" 'control character'
bad huge.json "{\"source\": {\"id\": \"b\"}, \"measurements\": [$m \"buffer\": {\"parts\": [{\"repeat\": [0, 1, 2], \"times\": 4000000}]}, \"figure\": {\"kind\": \"invocations\", \"value\": 3}}]}" 'longer than'
bad kind.json "{\"source\": {\"id\": \"b\"}, \"measurements\": [$m \"buffer\": {\"parts\": [{\"indices\": [0, 1, 2]}]}, \"figure\": {\"kind\": \"speed\", \"value\": 3}}]}" 'kind'
bad dup.json "{\"source\": {\"id\": \"b\"}, \"measurements\": [$m \"buffer\": {\"parts\": [{\"indices\": [0, 1, 2]}]}, \"figure\": {\"kind\": \"invocations\", \"value\": 3}}, $m \"buffer\": {\"parts\": [{\"indices\": [0, 1, 2]}]}, \"figure\": {\"kind\": \"invocations\", \"value\": 3}}]}" 'twice'
bad mismatch.json "{\"source\": {\"id\": \"b\"}, \"measurements\": [$m \"buffer\": {\"parts\": [{\"indices\": [0, 1, 2]}]}, \"figure\": {\"kind\": \"best_cache\", \"value\": 3}}]}" 'grid'
mkdir -p empty
"$BIN" validate --data empty >out.txt 2>err.txt
if [ $? -eq 1 ] && [ ! -s out.txt ] && grep -q "no .json file" err.txt; then pass; else fail "empty folder"; fi
"$BIN" validate --data missing.json >out.txt 2>err.txt
if [ $? -eq 1 ] && grep -q "missing.json: cannot open" err.txt; then pass; else fail "missing file"; fi

# Usage errors: status 2.
"$BIN" validate --vendor arm >/dev/null 2>&1
if [ $? -eq 2 ]; then pass; else fail "--vendor arm"; fi
"$BIN" validate extra >/dev/null 2>&1
if [ $? -eq 2 ]; then pass; else fail "a positional argument"; fi

# The tables of docs/models/validation.md are what validate prints now.
if sh "$SRC/scripts/validation-table.sh" --check "$BIN" >check.txt 2>&1; then pass; else fail "$(cat check.txt)"; fi

# The picture, where gnuplot is installed.
if command -v gnuplot >/dev/null 2>&1; then
    "$BIN" validate --data "$DATA" -m amd-seed002 --plot v.svg >/dev/null 2>&1
    if [ -s v.svg ] && [ -s v.gp ] && grep -q "seed 002, AMD GPU" v.gp; then pass; else fail "--plot"; fi
fi
finish
