#!/bin/sh
# probe --overdraw on lavapipe (issue 30): the device's count of shaded fragments, from
# per-pixel counters written by an early-depth-test fragment shader, against the overdraw
# model (docs/models/overdraw.md) on one corpus mesh: covered and shaded within 0.5%
# (the table of docs/measuring.md shows the whole corpus within 0.16%). Also: a hand-made
# mesh whose counts are known exactly, and the errors (no positions, a model instead of a
# device). Exits 77 (CTest: skipped) when no Vulkan device is present.
# usage: probe_overdraw_test.sh GPUCACHE_BINARY WORK_DIR [CORPUS_DIR]
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
CORPUS=${3:-}
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
if ! "$BIN" probe --list >devices.txt 2>&1 || ! grep -q llvmpipe devices.txt; then
    echo "SKIPPED: no lavapipe Vulkan device: $(cat devices.txt)"
    exit 77
fi
DEV=$(grep llvmpipe devices.txt | head -n 1 | cut -d: -f1)

# Two unit squares facing +z, at z = 0 and z = 1, the far one drawn first: seen along z
# each covers all 65536 pixel centres of one side and both pass the depth test (the near
# one is drawn later): covered 65536, shaded 131072. Along x and y they are edge-on.
cat >squares.obj <<'OBJ'
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 2 3
f 1 3 4
f 5 6 7
f 5 7 8
OBJ
"$BIN" probe --overdraw --device "$DEV" --json squares.obj >sq.json 2>err.txt
if /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["overdraw"]
sys.exit(0 if (d["covered"], d["shaded"]) == (65536, 131072) else 1)' sq.json; then
    pass
else
    fail "squares: $(cat sq.json err.txt)"
fi

# A corpus mesh: the device within 0.5% of the model.
if [ -n "$CORPUS" ] && [ -r "$CORPUS/spot.obj" ]; then
    "$BIN" probe --overdraw --device "$DEV" --json "$CORPUS/spot.obj" >spot.json 2>err.txt
    if /usr/bin/python3 - spot.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
dev, model = d["overdraw"], d["model"]
for k in ("covered", "shaded"):
    if abs(dev[k] - model[k]) > 0.005 * model[k]:
        sys.exit("%s: device %d, model %d" % (k, dev[k], model[k]))
PY
    then pass; else fail "spot: $(cat spot.json err.txt)"; fi
fi

# Errors: one line, non-zero exit.
printf '0 1 2\n' >indices.txt
if "$BIN" probe --overdraw --device "$DEV" indices.txt >out.txt 2>err.txt; then
    fail "an index buffer without positions was accepted"
elif [ "$(wc -l <err.txt)" -eq 1 ]; then pass; else fail "no positions: $(cat err.txt)"; fi
if "$BIN" probe --overdraw --model fifo:16 squares.obj >out.txt 2>err.txt; then
    fail "--overdraw with --model was accepted"
elif grep -q -- "--overdraw" err.txt; then pass; else fail "--model: $(cat err.txt)"; fi
finish
