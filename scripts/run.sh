#!/bin/sh
# README command 1: install what is needed, build, and run the main job on the embedded
# default: a generated 100x100 grid in several orders analyzed under every preset, then
# seed 002's experiment on it (ATVR against the target cache size), drawn in out/.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target gpucache_cli >/dev/null
./build/gpucache demo
echo
echo "Seed 002's experiment on the same grid (docs/experiments/optimal-grid.md):"
mkdir -p out
./build/gpucache sweep --mesh grid:100x100 -a optimal,striped,tipsify,forsyth --cache 3..200 \
    -m intel -m lru:16 -m nvidia-pascal -m amd-gcn --csv out/optimal-grid.csv --plot out/optimal-grid.png
echo "plot: out/optimal-grid.png (script: out/optimal-grid.gp), data: out/optimal-grid.csv"
