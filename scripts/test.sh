#!/bin/sh
# README command 2: install what is needed, build with -Werror and run every test; then
# the same tests again under AddressSanitizer and UndefinedBehaviorSanitizer; then a short
# pass of every fuzz target on its seed corpus (about a minute, docs/FUZZING.md).
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
jobs=$(nproc)

echo "== release build (-Werror)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGPUCACHE_WERROR=ON >/dev/null
cmake --build build -j"$jobs" >/dev/null
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== ASan + UBSan build"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUCACHE_WERROR=ON -DGPUCACHE_SANITIZE=ON \
    -DGPUCACHE_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"

echo "== fuzz targets, 6 s each on their seed corpora (clang, ASan+UBSan)"
sh scripts/fuzz.sh 6
