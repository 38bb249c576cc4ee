#!/bin/sh
# README command 1: install what is needed, build, and run the main job on the embedded
# default (a generated 100x100 grid in several orders, analyzed under every preset).
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target gpucache_cli >/dev/null
./build/gpucache demo
