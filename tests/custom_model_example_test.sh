#!/bin/sh
# The custom-model example program (examples/custom_model/custom_model.c) runs: on its
# built-in grid, where a cache shape that holds every vertex gives a count derived by hand,
# on a corpus mesh where present, and with bad arguments (exit status 2) or a missing file (1).
# usage: custom_model_example_test.sh CUSTOM_MODEL_BINARY WORK_DIR CORPUS_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
CORPUS=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

# invocations: the second-to-last field of the row that starts with $1
row() { awk -v m="$1" 'index($0, m) == 1 { print $(NF - 2) }' out.txt; }

"$BIN" >out.txt 2>err.txt || fail "built-in grid: $(cat err.txt)"
if grep -q '^set-assoc 8x2 (custom) ' out.txt && grep -q '^lru:16 ' out.txt && grep -q '^direct-value:16 ' out.txt &&
    grep -q 'as before$' out.txt; then pass; else fail "built-in grid: $(cat out.txt)"; fi
if [ "$(grep -c 'invocation' out.txt)" -ge 4 ]; then pass; else fail "no what-if questions: $(cat out.txt)"; fi
# registered as a family (gc_family_register): gc_analyze counts what the machine counted,
# and the fit, given that count as the measurement, finds the model exact
if grep -q '^registered as a family (gc_family_register), as set-assoc:$' out.txt &&
    grep -q '^  gc_analyze: [0-9]* invocations, as the machine counted$' out.txt &&
    grep -q '^  auto.s order for it: [0-9]* invocations$' out.txt &&
    grep -q '^  gc_fit: rank [123] of 3, 1 of 1 case exact$' out.txt; then
    pass
else
    fail "registered family: $(cat out.txt)"
fi

# The built-in grid: 12x4 quads, 13 x 5 = 65 vertices, vertex v in column v % 13. With 13
# sets of 5 ways, set = v % 13 is the column, which holds 5 vertices: nothing is ever
# evicted, each vertex is shaded once, 65 invocations (lru:65 holds them all too).
"$BIN" --sets 13 --ways 5 >out.txt 2>err.txt || fail "13x5: $(cat err.txt)"
if [ "$(row 'set-assoc 13x5')" = 65 ] && [ "$(row 'lru:65')" = 65 ]; then pass; else fail "13x5: $(cat out.txt)"; fi
# and then the last triangle costs nothing again, nor the first: every vertex is cached
if [ "$(grep -c ' 0 invocations$' out.txt)" -eq 3 ]; then pass; else fail "13x5 what-if: $(cat out.txt)"; fi
# in any order, as a registered family too: 65, each vertex once
if grep -q '^  gc_analyze: 65 invocations, as the machine counted$' out.txt &&
    grep -q '^  auto.s order for it: 65 invocations$' out.txt; then pass; else fail "13x5 as a family: $(cat out.txt)"; fi

if [ -r "$CORPUS/cow.obj" ]; then
    "$BIN" --ways 4 --sets 4 "$CORPUS/cow.obj" >out.txt 2>err.txt || fail "cow.obj: $(cat err.txt)"
    if grep -q '^input: .*cow.obj, triangle-list, 5804 primitives' out.txt && grep -q 'as before$' out.txt; then
        pass
    else
        fail "cow.obj: $(cat out.txt)"
    fi
fi

for args in "--sets 0" "--ways" "--sets 256 --ways 257" "--bogus" "a.obj b.obj"; do
    # shellcheck disable=SC2086 # the arguments are meant to split
    "$BIN" $args >out.txt 2>err.txt
    st=$?
    if [ "$st" -eq 2 ] && grep -q '^usage: ' err.txt; then pass; else fail "'$args': exit $st"; fi
done
"$BIN" missing.obj >out.txt 2>err.txt
st=$?
if [ "$st" -eq 1 ] && grep -q 'missing.obj' err.txt; then pass; else fail "missing.obj: exit $st, $(cat err.txt)"; fi

finish
