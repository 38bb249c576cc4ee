#!/bin/sh
# The probe on lavapipe (Mesa's CPU Vulkan driver), the acceptance of the probe issue:
#  - the suite's pipeline statistics equal the per-vertex sums, and fit names llvmpipe,
#    100% exact;
#  - probe -t T X and analyze -m llvmpipe -t T X print the same invocations;
#  - introspect on lavapipe agrees with introspect on the llvmpipe model.
# Exits 77 (CTest: skipped) when no Vulkan device is present.
# usage: probe_test.sh GPUCACHE_BINARY WORK_DIR [CORPUS_DIR]
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

# Suite, then fit.
if "$BIN" probe --device "$DEV" --suite -o lavapipe.json 2>err.txt; then pass; else fail "suite: $(cat err.txt)"; fi
if grep -q '"statistics_disagree":0' lavapipe.json; then pass; else fail "suite: statistics disagree"; fi
"$BIN" fit lavapipe.json >fit.txt 2>&1
if grep -q '^1  *llvmpipe  .*100.00%' fit.txt; then pass; else fail "fit: $(head -n 4 fit.txt)"; fi

# probe and analyze agree, for every Vulkan topology, with and without restart.
awk 'BEGIN { s = 7; for (i = 0; i < 4000; i++) { s = (s * 1103515245 + 12345) % 2147483648;
     if (i > 0 && s % 61 == 0) print -1; else print int(i / 5) + s % 37 } }' >stream.txt
grep -v -- -1 stream.txt | head -n 3600 >plain.txt
for t in point-list line-list line-strip triangle-list triangle-strip triangle-fan; do
    for r in "" "--restart"; do
        input=plain.txt
        [ -n "$r" ] && input=stream.txt
        case "$t" in *list) [ -n "$r" ] && continue ;; esac
        p=$("$BIN" probe --device "$DEV" --json -t "$t" $r "$input" 2>err.txt | num invocations)
        a=$("$BIN" analyze -m llvmpipe --json -t "$t" $r "$input" | num invocations)
        if [ -n "$p" ] && [ "$p" = "$a" ]; then pass; else fail "probe -t $t $r: $p, analyze: $a $(cat err.txt)"; fi
    done
done
for mesh in "grid:100x100" "$CORPUS/teapot.obj" "$CORPUS/igea.ply"; do
    case "$mesh" in /*) [ -r "$mesh" ] || continue ;; esac
    p=$("$BIN" probe --device "$DEV" --json "$mesh" | num invocations)
    a=$("$BIN" analyze -m llvmpipe --json "$mesh" | num invocations)
    if [ -n "$p" ] && [ "$p" = "$a" ]; then pass; else fail "probe $mesh: $p, analyze: $a"; fi
done

# Introspection: the device and the model list the same cached indices.
head -n 600 plain.txt >small.txt
seq 0 32 >seq33.txt
for x in small.txt seq33.txt; do
    d=$("$BIN" introspect --device "$DEV" "$x" | tail -n 1)
    m=$("$BIN" introspect -m llvmpipe "$x" | tail -n 1)
    if [ "$d" = "$m" ]; then pass; else fail "introspect $x: device $d, model $m"; fi
done

# Limits: Vulkan has no line loop; a bad --outputs is a usage error.
"$BIN" probe --device "$DEV" -t line-loop seq33.txt >out.txt 2>err.txt
if [ $? -eq 2 ] && grep -q "no line-loop" err.txt; then pass; else fail "line loop: $(cat err.txt)"; fi
"$BIN" probe --device "$DEV" --outputs 99 seq33.txt >out.txt 2>err.txt
if [ $? -eq 2 ]; then pass; else fail "--outputs 99 accepted"; fi
# An index value far beyond what per-vertex counters can hold: a clear limit, no 16 GB allocation.
printf '0 1 4000000000\n' >huge.txt
"$BIN" probe --device "$DEV" huge.txt >out.txt 2>err.txt
if [ $? -eq 1 ] && grep -q "up to 67108863" err.txt; then pass; else fail "huge value: $(cat err.txt)"; fi
# No driver at all: one clear line, not a crash.
VK_ICD_FILENAMES=/nonexistent.json VK_DRIVER_FILES=/nonexistent.json "$BIN" probe --list >out.txt 2>err.txt
if [ $? -eq 1 ] && grep -q "no Vulkan" err.txt; then pass; else fail "no driver: $(cat err.txt out.txt)"; fi

finish
