#!/bin/sh
# Builds the libFuzzer targets (clang, ASan+UBSan) and runs each on its seed corpus for
# SECONDS (default 6: about a minute for all of them, as CI does). Seeds: fuzz/corpus/<target>
# plus, for OBJ and PLY, the meshes of ../shared/corpus when present. Findings are written
# to build-fuzz/findings/ and make the script fail. Longer runs: docs/FUZZING.md.
# usage: sh scripts/fuzz.sh [SECONDS] [TARGET...]
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-6}
[ $# -gt 0 ] && shift
command -v clang >/dev/null || { echo "gpucache: fuzz: clang is not installed (scripts/install-deps.sh)" >&2; exit 1; }
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUCACHE_FUZZ=ON -DGPUCACHE_TESTS=OFF \
    -DGPUCACHE_BENCH=OFF -DGPUCACHE_WERROR=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" >/dev/null
targets=${*:-"text u16 u32 obj ply gltf glb model_spec state_changes memsys measurements published models write gnuplot pipeline meshlet_data gltf_write"}
mkdir -p build-fuzz/findings
status=0
for t in $targets; do
    work=build-fuzz/corpus/$t
    mkdir -p "$work"
    cp fuzz/corpus/"$t"/* "$work"/ 2>/dev/null || true
    case $t in
    obj | ply) cp ../shared/corpus/*."$t" "$work"/ 2>/dev/null || true ;;
    esac
    printf 'fuzz_%s: ' "$t"
    if ./build-fuzz/fuzz/fuzz_"$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix=build-fuzz/findings/"$t"- -print_final_stats=1 "$work" >build-fuzz/fuzz_"$t".log 2>&1; then
        grep -o 'stat::number_of_executed_units: *[0-9]*' build-fuzz/fuzz_"$t".log | sed 's/.*: */runs /' | tr '\n' ' '
        echo "ok"
    else
        echo "FINDING (see build-fuzz/fuzz_$t.log and build-fuzz/findings/)"
        tail -n 30 build-fuzz/fuzz_"$t".log
        status=1
    fi
done
exit $status
