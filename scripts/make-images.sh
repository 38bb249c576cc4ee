#!/bin/sh
# Regenerates the pictures the README shows (docs/images/) from the corpus: the heat map of
# spot.obj under the generic 16-entry FIFO before and after `optimize -a auto`, on one
# colour scale, the cache timeline of its first 60 triangles under the NVIDIA model, and a
# screenshot of `gpucache report`'s page for spot.obj in headless Chromium (report.png; the
# report itself is not committed: it is regenerated in a second).
# usage: scripts/make-images.sh [BUILD_DIR] [CORPUS_DIR]   (defaults: build, ../shared/corpus)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# absolute: the report runs from the corpus folder
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
CORPUS=$(cd "${2:-$ROOT/../shared/corpus}" && pwd)
G=$BUILD/gpucache
OUT=$ROOT/docs/images
[ -x "$G" ] || { echo "$0: no $G (build first)" >&2; exit 2; }
[ -f "$CORPUS/spot.obj" ] || { echo "$0: no $CORPUS/spot.obj" >&2; exit 2; }
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the optimized copy keeps the input's base name, so that both captions name spot.obj
mkdir "$tmp/after"
"$G" -q optimize -a auto -m generic "$CORPUS/spot.obj" -o "$tmp/after/spot.obj" >/dev/null
# the same scale for both: up to the largest count before (from --per-vertex's CSV)
max=$("$G" analyze -m generic --per-vertex - "$CORPUS/spot.obj" 2>/dev/null |
    awk -F, 'NR > 1 && $2 + 0 > m { m = $2 + 0 } END { print m }')
# each run from the mesh's folder, so that the pictures name spot.obj, not this machine's paths
(cd "$CORPUS" && "$G" analyze -m generic --heatmap "$OUT/heatmap-spot-before.svg" --view side \
    --heatmap-max "$max" spot.obj >/dev/null)
(cd "$tmp/after" && "$G" analyze -m generic --heatmap "$OUT/heatmap-spot-after.svg" --view side \
    --heatmap-max "$max" spot.obj >/dev/null)
(cd "$CORPUS" && "$G" analyze -m nvidia --trace-plot "$OUT/trace-spot-nvidia.svg" --count 60 spot.obj >/dev/null)
# the report, run from the corpus folder so that the page names spot.obj, not this machine's path
(cd "$CORPUS" && "$G" -q report -m generic --view side spot.obj -o "$tmp/report.html")
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$CHROMIUM" ]; then
    # --no-sandbox: Chromium's sandbox refuses to run as root; the page is our own file
    "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,2280 \
        --screenshot="$tmp/report.png" "file://$tmp/report.html" >/dev/null 2>&1
    mv "$tmp/report.png" "$OUT/report.png"
else
    echo "$0: chromium not installed: docs/images/report.png left as it is (scripts/install-deps.sh installs it)" >&2
fi
ls -l "$OUT"
