#!/bin/sh
# Issue 16: the README's loop, end to end, on lavapipe (a real Vulkan driver):
#   1. probe --suite -o m.json          measure the device
#   2. fit --json m.json > fitted.json  fit a model to it
#   3. optimize -a auto -m @fitted.json mesh.obj -o out.obj
#   4. probe out.obj                    the gain, on the device
# Checks: the device's invocations for out.obj are below those for the input and for
# Forsyth's order (docs/PERFORMANCE.md compares with meshoptimizer's own, in bench/), and
# equal to what the fitted model predicts. The mesh: a corpus mesh if present, else a
# shuffled grid.
# Exits 77 (CTest: skipped) when no Vulkan device is present.
# usage: loop_test.sh GPUCACHE_BINARY WORK_DIR [CORPUS_DIR]
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
if [ -n "$CORPUS" ] && [ -r "$CORPUS/cheburashka.obj" ]; then
    cp "$CORPUS/cheburashka.obj" mesh.obj
else
    "$BIN" grid 120 60 -o grid.txt >/dev/null || exit 1
    awk 'BEGIN { s = 5 } { s = (s * 1103515245 + 12345) % 2147483648; print s, $0 }' grid.txt | sort -n |
        cut -d' ' -f2- >shuffled.txt
    awk 'BEGIN { for (v = 0; v < 121 * 61; v++) printf "v %d %d 0\n", v % 121, int(v / 121) }
         { printf "f %d %d %d\n", $1 + 1, $2 + 1, $3 + 1 }' shuffled.txt >mesh.obj
fi

# 1-2: measure and fit
if "$BIN" probe --suite -o m.json >suite.txt 2>&1; then pass; else fail "probe --suite: $(cat suite.txt)"; fi
if "$BIN" fit --json m.json >fitted.json 2>err.txt; then pass; else fail "fit: $(cat err.txt)"; fi
best=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["best"][0]["model"])' fitted.json)
if [ "$best" = llvmpipe ]; then pass; else fail "fit's best model on lavapipe is $best, not llvmpipe"; fi

# 3: optimize for the fitted model, and for comparison with Forsyth's algorithm
if "$BIN" optimize -a auto -m @fitted.json mesh.obj -o out.obj >opt.txt 2>&1; then pass; else
    fail "optimize -m @fitted.json: $(cat opt.txt)"; fi
"$BIN" optimize -a forsyth mesh.obj -o forsyth.obj >/dev/null 2>&1 || fail "optimize -a forsyth"

# 4: the device's count
device() { "$BIN" probe --json "$1" 2>>err.txt | num invocations; }
before=$(device mesh.obj)
after=$(device out.obj)
other=$(device forsyth.obj)
predicted=$("$BIN" analyze -m @fitted.json --json out.obj | num invocations)
echo "lavapipe invocations: input $before, forsyth $other, auto -m @fitted.json $after (predicted $predicted)"
if [ -n "$after" ] && [ -n "$before" ] && [ "$after" -lt "$before" ]; then pass; else fail "no gain: $before -> $after"; fi
if [ -n "$other" ] && [ "$after" -lt "$other" ]; then pass; else fail "not below forsyth's order: $after vs $other"; fi
if [ "$after" = "$predicted" ]; then pass; else fail "device $after, fitted model predicts $predicted"; fi
finish
