#!/bin/sh
# Installs the Debian 12 packages gpucache needs to build, test and benchmark.
# Both README commands call this; it does nothing when everything is present.
set -eu
PACKAGES="build-essential cmake pkg-config libcmocka-dev libmeshoptimizer-dev libassimp-dev libvulkan-dev mesa-vulkan-drivers glslc libjansson-dev gnuplot-nox clang libclang-rt-14-dev man-db groff-base bsdutils"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "gpucache: missing packages:$missing (run this script as root, or install them)" >&2
        exit 1
    fi
    echo "gpucache: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
