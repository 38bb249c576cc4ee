#!/bin/sh
# Installs the Debian 12 packages gpucache needs to build, test and benchmark.
# Both README commands call this; it does nothing when everything is present.
# chromium, chromium-driver and python3-selenium: the report_browser test (gpucache
# report's page in headless Chromium) and scripts/make-images.sh's screenshot.
set -eu
PACKAGES="build-essential cmake pkg-config libcmocka-dev libmeshoptimizer-dev libassimp-dev libvulkan-dev mesa-vulkan-drivers glslc libjansson-dev gnuplot-nox librsvg2-bin clang libclang-rt-14-dev python3-numpy python3-cffi python3-pytest python3-setuptools python3-wheel python3-dask python3-distributed python3-pandas python3 gltfpack time man-db groff-base bsdutils chromium chromium-driver python3-selenium"
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

# The Khronos glTF validator (npm package gltf-validator, pinned) for the glTF tests
# (tests/gltf/validate.js reads it from here). npm comes from Debian where the machine has
# none (a node installed some other way is left alone); where neither works the glTF
# validator test is skipped, and this script still succeeds.
GLTF_VALIDATOR_VERSION=2.0.0-dev.3.10
GLTF_VALIDATOR_DIR=${GLTF_VALIDATOR_DIR:-/opt/gpucache-node}
if ! grep -qs "\"version\": \"$GLTF_VALIDATOR_VERSION\"" "$GLTF_VALIDATOR_DIR/node_modules/gltf-validator/package.json"; then
    if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
        echo "gpucache: installing nodejs npm (the glTF validator's runtime)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nodejs npm >/dev/null 2>&1 ||
            echo "gpucache: could not install nodejs/npm (the glTF validator test will be skipped)" >&2
    fi
    if command -v npm >/dev/null 2>&1 && mkdir -p "$GLTF_VALIDATOR_DIR" 2>/dev/null && [ -w "$GLTF_VALIDATOR_DIR" ]; then
        echo "gpucache: installing gltf-validator $GLTF_VALIDATOR_VERSION into $GLTF_VALIDATOR_DIR" >&2
        npm install --prefix "$GLTF_VALIDATOR_DIR" --no-audit --no-fund --no-save --loglevel=error \
            "gltf-validator@$GLTF_VALIDATOR_VERSION" >/dev/null 2>&1 ||
            echo "gpucache: could not install gltf-validator (the glTF validator test will be skipped)" >&2
    else
        echo "gpucache: npm missing or $GLTF_VALIDATOR_DIR not writable: the glTF validator test will be skipped" >&2
    fi
fi
