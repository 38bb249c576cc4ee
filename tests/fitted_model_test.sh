#!/bin/sh
# Issue 16: -m @FILE, a fit result (`gpucache fit --json`) standing for its best model.
# Wherever -m is accepted (analyze, optimize with several targets, sweep, introspect, fit,
# probe --model), @FILE gives exactly what -m with the best model's spec gives; a bad file
# is one line naming it, a non-zero exit and no output.
# usage: fitted_model_test.sh GPUCACHE_BINARY WORK_DIR MEASUREMENTS.json
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
DATA=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
# best FILE: the "model" of the first element of "best", read here with sed
best() { sed -n 's/.*"best": \[{"model": "\([^"]*\)".*/\1/p' "$1"; }

# Two fit results of lavapipe's measurements: every family (llvmpipe predicts it exactly)
# and a few candidates, so that the best one has parameters.
"$BIN" fit --json "$DATA" >all.json 2>err.txt || fail "fit --json: $(cat err.txt)"
"$BIN" fit --json -m meshopt:32,32,32 -m lru:8 -m fifo:16 -m nvidia:size=16,idle=8,life=16 "$DATA" >few.json \
    2>err.txt || fail "fit --json -m: $(cat err.txt)"
spec_all=$(best all.json)
spec_few=$(best few.json)
if [ "$spec_all" = "llvmpipe" ]; then pass; else fail "fit of lavapipe: best '$spec_all', expected llvmpipe"; fi
case "$spec_few" in *:*) pass ;; *) fail "restricted fit: best '$spec_few' has no parameters" ;; esac

"$BIN" grid 24 16 --layout rowmajor -o grid.u32 >/dev/null || fail "grid"
"$BIN" grid 10 10 --layout striped --cache 8 -o small.txt >/dev/null || fail "grid small"
for f in all few; do
    spec=$(best $f.json)
    # analyze: the table and the JSON, byte for byte
    "$BIN" analyze -m "@$f.json" grid.u32 >a1.txt 2>err.txt || fail "analyze -m @$f.json: $(cat err.txt)"
    "$BIN" analyze -m "$spec" grid.u32 >a2.txt
    if [ -s a1.txt ] && cmp -s a1.txt a2.txt; then pass; else fail "analyze -m @$f.json differs from -m $spec"; fi
    "$BIN" analyze --json -m intel -m "@$f.json" -t triangle-strip small.txt >a1.json
    "$BIN" analyze --json -m intel -m "$spec" -t triangle-strip small.txt >a2.json
    if grep -q "\"model\": \"$spec\"" a1.json && cmp -s a1.json a2.json; then pass; else fail "analyze --json -m @$f.json"; fi
    # optimize -a auto: one target, and several with @FILE among specs and presets
    "$BIN" optimize -a auto -m "@$f.json" grid.u32 -o o1.u32 >/dev/null 2>err.txt || fail "optimize -m @$f.json: $(cat err.txt)"
    "$BIN" optimize -a auto -m "$spec" grid.u32 -o o2.u32 >/dev/null
    if [ -s o1.u32 ] && cmp -s o1.u32 o2.u32; then pass; else fail "optimize -m @$f.json differs from -m $spec"; fi
    "$BIN" optimize -a auto -m intel -m "@$f.json" -m fifo:24 --json grid.u32 -o o3.u32 >o3.json 2>err.txt ||
        fail "optimize with three targets: $(cat err.txt)"
    "$BIN" optimize -a auto -m intel -m "$spec" -m fifo:24 --json grid.u32 -o o4.u32 >o4.json
    strip() { sed 's/"output": "[^"]*"//; s/"seconds": [0-9.e-]*//' "$1"; }
    if cmp -s o3.u32 o4.u32 && [ "$(strip o3.json)" = "$(strip o4.json)" ]; then pass; else fail "optimize, @$f.json among targets"; fi
    # sweep: the CSV, byte for byte
    "$BIN" sweep --mesh grid:12x12 -a tipsify,auto --cache 6..9 -m "@$f.json" -m amd-gcn --threads 2 --csv s1.csv \
        >/dev/null 2>err.txt || fail "sweep -m @$f.json: $(cat err.txt)"
    "$BIN" sweep --mesh grid:12x12 -a tipsify,auto --cache 6..9 -m "$spec" -m amd-gcn --threads 2 --csv s2.csv >/dev/null
    rows=$(grep -c ",$spec," s1.csv)
    if [ "$rows" -eq 8 ] && cmp -s s1.csv s2.csv; then pass; else fail "sweep -m @$f.json: $rows rows of $spec, or differs"; fi
done
# introspect, probe's emulator and fit's candidates take it too (the small fit's model)
"$BIN" introspect -m @few.json --json small.txt >i1.json 2>err.txt || fail "introspect -m @few.json: $(cat err.txt)"
"$BIN" introspect -m "$spec_few" --json small.txt >i2.json
if [ -s i1.json ] && cmp -s i1.json i2.json; then pass; else fail "introspect -m @few.json"; fi
"$BIN" probe --model @few.json --json small.txt >p1.json 2>err.txt || fail "probe --model @few.json: $(cat err.txt)"
"$BIN" probe --model "$spec_few" --json small.txt >p2.json
if [ -s p1.json ] && cmp -s p1.json p2.json; then pass; else fail "probe --model @few.json"; fi
"$BIN" fit --json -m @few.json -m lru:8 "$DATA" >f1.json
"$BIN" fit --json -m "$spec_few" -m lru:8 "$DATA" >f2.json
strip_fit() { sed 's/"seconds": [0-9.e-]*//; s/"threads": [0-9]*//' "$1"; }
if [ "$(best f1.json)" = "$spec_few" ] && [ "$(strip_fit f1.json)" = "$(strip_fit f2.json)" ]; then pass; else fail "fit -m @few.json"; fi

# Bad fit results: exit 1, exactly one line on standard error naming the file (and the
# place), nothing on standard output, no output file.
printf '{"best": [{"model": "fifo:16", "family": "fifo"}, ' >truncated.json
printf '{"best": [\n  {"model": "fifo:16",\n   "family": "fifo"\n  } ]\n  ]\n}\n' >malformed.json
printf '{"best": []}\n' >empty.json
printf '[{"model": "fifo:16"}]\n' >array.json
printf '{"best": [{"family": "fifo"}]}\n' >nomodel.json
printf '{"best": [\n {"model": "fifo:99999999", "family": "fifo"}]}\n' >badspec.json
printf '{"best": [{"model": "lru:8", "family": "fifo"}]}\n' >family.json
head -c 67108865 /dev/zero | tr '\0' ' ' >huge.json # one byte over GC_FITTED_MAX_BYTES
# bad FILE TEXT: every command refuses -m @FILE with one line containing TEXT
bad() {
    file=$1
    text=$2
    rm -f out.u32 s.csv pv.csv
    for cmd in "analyze --per-vertex pv.csv -m @$file grid.u32" "optimize -a auto -m intel -m @$file grid.u32 -o out.u32" \
        "sweep --mesh grid:6x6 -a tipsify --cache 4..5 -m fifo:8 -m @$file --csv s.csv"; do
        # shellcheck disable=SC2086
        "$BIN" $cmd >out.txt 2>err.txt
        got=$?
        if [ "$got" -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -qF -- "$text" err.txt && [ ! -s out.txt ] &&
            [ ! -e out.u32 ] && [ ! -e s.csv ] && [ ! -e pv.csv ]; then
            pass
        else
            fail "$cmd: exit $got, expected 1 and one line with '$text': $(head -c 300 err.txt)"
        fi
    done
}
bad missing.json "missing.json: cannot open: No such file or directory"
bad truncated.json "truncated.json:1:51: a value expected, found the end of the file"
bad malformed.json "malformed.json:5:3: ',' or '}' expected, found ']'"
bad empty.json 'empty.json: the fit result has no candidates ("best" is empty)'
bad array.json 'array.json: not a fit result (no "best" array'
bad "$DATA" 'lavapipe-22.3.6.json: not a fit result (no "best" array'
bad nomodel.json 'nomodel.json:1:11: the best candidate has no "model" string: not a fit result'
bad badspec.json "badspec.json:2:2: the best model does not parse: model 'fifo:99999999'"
bad family.json "family.json:1:11: the best model 'lru:8' is a lru model, but its \"family\" says 'fifo'"
bad huge.json "huge.json: more than 67108864 bytes: too large to read"
# "-m @" names no file: a usage error
"$BIN" analyze -m @ grid.u32 >out.txt 2>err.txt
if [ $? -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -s out.txt ]; then pass; else fail "-m @: $(cat err.txt)"; fi
# A fit result is an input: no output may replace it.
cp few.json keep.json
"$BIN" analyze --per-vertex few.json -m @few.json grid.u32 >out.txt 2>err.txt
if [ $? -eq 2 ] && grep -q "is the input" err.txt && cmp -s few.json keep.json; then pass; else fail "--per-vertex over the fit result"; fi
"$BIN" sweep --mesh grid:6x6 -a tipsify --cache 4..5 -m @few.json --csv few.json >out.txt 2>err.txt
if [ $? -eq 2 ] && grep -q "is the input" err.txt && cmp -s few.json keep.json; then pass; else fail "sweep --csv over the fit result"; fi
cp few.json few.u32
"$BIN" optimize -a auto -m @few.u32 grid.u32 -o few.u32 >out.txt 2>err.txt
if [ $? -eq 2 ] && grep -q "is the input" err.txt && cmp -s few.u32 keep.json; then pass; else fail "optimize -o over the fit result"; fi
finish
