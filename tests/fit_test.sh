#!/bin/sh
# `gpucache fit` and `gpucache introspect` on emulated devices (no GPU needed):
#  - fit recovers the family and parameters of measurements synthesized by each model
#    (probe --suite --model M writes what a device behaving like M would measure);
#  - introspect, run on the nvidia model, prints seed 000's cache listings.
# usage: fit_test.sh GPUCACHE_BINARY WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

for model in fifo:128 lru:16 nvidia meshopt:32,32,32 reuse:32,16,32 llvmpipe nv-dx ati; do
    if ! "$BIN" probe --suite --model "$model" -o synth.json 2>err.txt; then
        fail "suite on $model: $(cat err.txt)"
        continue
    fi
    "$BIN" fit --json --top 3 synth.json >fit.json 2>err.txt || { fail "fit on $model: $(cat err.txt)"; continue; }
    best=$(sed -n 's/.*"best": \[{"model": "\([^"]*\)".*/\1/p' fit.json)
    share=$(sed -n 's/.*"best": \[{[^}]*"exact_share": \([0-9.]*\).*/\1/p' fit.json)
    if [ "$best" = "$model" ] && awk "BEGIN { exit !(${share:-0} == 1) }"; then
        pass
    else
        fail "fit on $model's measurements ranks '$best' first (exact share $share)"
    fi
    # The same search on one thread ranks the same way (checked on one model: the check costs a full search).
    case "$model" in
    llvmpipe)
        sed 's/"threads": [0-9]*, "seconds": [0-9.]*//' fit.json >two.json
        "$BIN" fit --json --top 3 --threads 1 synth.json | sed 's/"threads": [0-9]*, "seconds": [0-9.]*//' >one.json
        if cmp -s one.json two.json; then pass; else fail "fit on $model: 1 and 2 threads rank differently"; fi
        ;;
    esac
done

# Seed 000's listings, read back through the introspection method.
seq 0 29 >seq30.txt
seq 0 32 >seq33.txt
listing=$("$BIN" introspect -m nvidia seq30.txt | tail -n 1)
expected="[$(seq -s ', ' 0 29)]"
if [ "$listing" = "$expected" ]; then pass; else fail "introspect nvidia 0..29: $listing"; fi
listing=$("$BIN" introspect -m nvidia seq33.txt | tail -n 1)
if [ "$listing" = "[30, 31, 32]" ]; then pass; else fail "introspect nvidia 0..32: $listing"; fi

# Bad measurement files: one line naming the file, exit 1.
printf '{"cases": [{"topology": "triangle-list", "indices": [0, 1], "invocations": 2}]}' >short.json
"$BIN" fit short.json >out.txt 2>err.txt
if [ $? -eq 1 ] && grep -q "short.json" err.txt && [ "$(wc -l <err.txt)" -eq 1 ]; then pass; else fail "fit short.json: $(cat err.txt)"; fi
printf '{"cases": [' >truncated.json
"$BIN" fit truncated.json >out.txt 2>err.txt
if [ $? -eq 1 ] && grep -q "truncated.json:1:" err.txt; then pass; else fail "fit truncated.json: $(cat err.txt)"; fi
"$BIN" fit missing.json >out.txt 2>err.txt
if [ $? -eq 1 ] && grep -q "missing.json" err.txt; then pass; else fail "fit missing.json: $(cat err.txt)"; fi

finish
