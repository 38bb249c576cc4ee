#!/bin/sh
# `gpucache sweep`: seed 002's grid experiment under fifo:128, CSV completeness, the same
# CSV for 1 and 2 threads, plots of the requested type, and a clear error without gnuplot.
# usage: sweep_test.sh GPUCACHE_BINARY WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
atvr() { grep "^grid:100x100,$1,$2,fifo:128," one.csv | cut -d, -f6; }

# --cache takes one range: two sweeps, joined.
"$BIN" sweep --mesh grid:100x100 -a optimal,striped,tipsify --cache 60..70 -m fifo:128 --threads 1 --csv a.csv \
    >/dev/null 2>&1
"$BIN" sweep --mesh grid:100x100 -a optimal,striped,tipsify --cache 126..130 -m fifo:128 --threads 1 --csv b.csv \
    >/dev/null 2>&1
{ cat a.csv; tail -n +2 b.csv; } >one.csv

# Optimal reaches 1 at its own cache size (one 100-quad strip: rows of 101 < 128 vertices).
if [ "$(atvr optimal 128)" = "1.000000" ]; then pass; else fail "optimal at 128: $(atvr optimal 128)"; fi
# Striped: strips of c - 2 quads; two rows of c - 1 vertices fit 128 while c <= 65. Just
# below the break point it is within 2% of 1, just past it above 1.8 (seed 002: "striped
# breaks down for cache size 66 (strip size 65 vertices)"). On a 128-quad-wide grid, whose
# strips at 66 are all 64 quads wide (on the 100-wide one the second strip is narrow and
# still fits, so the mean only reaches 1.62 there).
"$BIN" sweep --mesh grid:128x100 -a striped --cache 65..66 -m fifo:128 --csv wide.csv >/dev/null 2>&1
below=$(grep "^grid:128x100,striped,65," wide.csv | cut -d, -f6)
above=$(grep "^grid:128x100,striped,66," wide.csv | cut -d, -f6)
if awk "BEGIN { exit !($below <= 1.02) }"; then pass; else fail "striped at 65: $below"; fi
if awk "BEGIN { exit !($above > 1.8) }"; then pass; else fail "striped at 66: $above"; fi

# Every row complete and numeric: 3 layouts x 16 sizes x 1 model.
rows=$(tail -n +2 one.csv | awk -F, 'NF == 9 && $3 ~ /^[0-9]+$/ && $5 ~ /^[0-9]+$/ && $6 ~ /^[0-9.]+$/ { n++ } END { print n + 0 }')
if [ "$rows" -eq 48 ] && [ "$(head -n 1 one.csv)" = "mesh,layout,cache,model,invocations,atvr,acmr,triangles,vertices" ]; then
    pass
else
    fail "csv: $rows complete rows"
fi

# 1 and 2 threads: byte-identical CSV.
"$BIN" sweep --mesh grid:30x20 -a optimal,striped,tipsify,forsyth,auto,original --cache 3..40 -m intel -m lru:16 \
    -m nvidia --threads 1 --csv t1.csv >/dev/null 2>&1
"$BIN" sweep --mesh grid:30x20 -a optimal,striped,tipsify,forsyth,auto,original --cache 3..40 -m intel -m lru:16 \
    -m nvidia --threads 2 --csv t2.csv >/dev/null 2>&1
if [ -s t1.csv ] && cmp -s t1.csv t2.csv; then pass; else fail "1 and 2 threads differ"; fi

# Plots: PNG and SVG by their headers, and the script beside them.
"$BIN" sweep --mesh grid:20x20 --cache 3..30 -m intel -m lru:16 --plot p.png >/dev/null 2>err.txt
if [ "$(head -c 4 p.png | od -An -c | tr -d ' ')" = "211PNG" ] && [ -s p.gp ]; then pass; else fail "png: $(cat err.txt)"; fi
"$BIN" sweep --mesh grid:20x20 --cache 3..30 -m intel --plot p.svg >/dev/null 2>err.txt
if grep -q "<svg" p.svg; then pass; else fail "svg: $(cat err.txt)"; fi
# No gnuplot: one clear line, exit 1, and the CSV is still written.
PATH=/nonexistent "$BIN" sweep --mesh grid:10x10 --cache 3..8 -m intel --csv still.csv --plot none.png >out.txt 2>err.txt
st=$?
if [ "$st" -eq 1 ] && grep -q "gnuplot not found" err.txt && [ -s still.csv ] && [ ! -e none.png ]; then
    pass
else
    fail "no gnuplot: exit $st, $(cat err.txt)"
fi
# Bad arguments: exit 2.
"$BIN" sweep --cache 2..10 >/dev/null 2>&1
if [ $? -eq 2 ]; then pass; else fail "--cache 2..10 accepted"; fi
"$BIN" sweep -a bogus >/dev/null 2>&1
if [ $? -eq 2 ]; then pass; else fail "-a bogus accepted"; fi
"$BIN" sweep --plot x.jpg >/dev/null 2>&1
if [ $? -eq 2 ]; then pass; else fail "--plot x.jpg accepted"; fi

finish
