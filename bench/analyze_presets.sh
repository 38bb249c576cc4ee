#!/bin/sh
# analyze with every preset in one run against the sum of one run per preset, on a
# 100M-index input read from a file (a 4096 x 4096 grid, 400 MB of 32-bit indices), with
# each run's wall time and peak resident memory (GNU time). Prints a Markdown table.
# usage: bench/analyze_presets.sh [BUILD_DIR] [SIDE]   (SIDE 4096: 100.7 M indices)
set -eu
build=${1:-build}
side=${2:-4096}
gpucache="$build/gpucache"
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
"$gpucache" grid "$side" "$side" -o "$dir/grid.u32" >/dev/null
indices=$(( $(stat -c %s "$dir/grid.u32") / 4 ))
presets=$("$gpucache" models | awk '/^presets:/ {p = 1; next} p && NF >= 3 && $2 == "=" {print $1}')

beyond() { # peak kilobytes -> bytes per index beyond the 4-byte indices
    awk -v k="$1" -v n="$indices" 'BEGIN {printf "%.2f", (k * 1024 - n * 4) / n}'
}

run() { # label, then the arguments: prints "label seconds kilobytes"
    label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$dir/time" "$gpucache" analyze "$@" "$dir/grid.u32" >/dev/null
    echo "$label $(cat "$dir/time")"
}

echo "input: a ${side}x${side} grid, $indices indices, $(nproc) cores"
echo
echo "| run | seconds | peak MB | bytes per index beyond the index buffer |"
echo "|---|---:|---:|---:|"
sum=0
for p in $presets; do
    set -- $(run "$p" -m "$p")
    sum=$(awk -v a="$sum" -v b="$2" 'BEGIN {print a + b}')
    echo "| -m $p | $2 | $(($3 / 1024)) | $(beyond "$3") |"
done
for threads in 1 $(nproc); do
    set -- $(run all --threads "$threads")
    echo "| every preset, --threads $threads | $2 | $(($3 / 1024)) | $(beyond "$3") |"
    eval "all_$threads=$2"
done
echo
echo "sum of the one-preset runs: $sum s"
eval "best=\$all_$(nproc)"
awk -v s="$sum" -v b="$best" -v n="$(nproc)" 'BEGIN {printf "every preset in one run, %d threads: %s s: %.2fx faster than the sum\n", n, b, s / b}'
awk -v s="$sum" -v b="$all_1" 'BEGIN {printf "every preset in one run, 1 thread: %s s: %.2fx faster than the sum\n", b, s / b}' 
