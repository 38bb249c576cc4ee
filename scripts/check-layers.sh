#!/bin/sh
# Checks that no two parts of gpucache call each other: from the object files of a build,
# which part defines each symbol and which parts use it, then (1) no loop of calls
# between files and (2) each folder calls only the layers below it (the order below).
# Then the libraries' boundaries (issue 29): (3) the core (libgpucache) links no jansson,
# assimp nor Vulkan and calls nothing of libgpucache_io or the probe, by its objects, its
# sources' includes and, where built, ldd of libgpucache.so; (4) no library source includes
# a header of the tool (tools/).
# usage: scripts/check-layers.sh [BUILD_DIR]   (default build; needs nm)
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
# Layers, bottom first: a part may call its own layer and those listed before it.
LAYERS="src src/models src/vertexpipe src/io src/optimize src/meshlet src/fit src/memsys src/pipeline src/pictures src/probe tools"
objs=$(find "$BUILD/CMakeFiles/gpucache_common_objects.dir" "$BUILD/CMakeFiles/gpucache_objects.dir" \
    "$BUILD/CMakeFiles/gpucache_io_objects.dir" "$BUILD/CMakeFiles/gpucache_probe.dir" \
    "$BUILD/CMakeFiles/gpucache_cli.dir" -name '*.o' 2>/dev/null)
[ -n "$objs" ] || { echo "$0: no object files under $BUILD (build first)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for o in $objs; do
    # the source file an object comes from: .../gpucache_objects.dir/src/io/ply.c.o -> src/io/ply.c
    src=$(echo "$o" | sed -E 's|.*\.dir/||; s|\.o$||')
    # skip objects left over from sources no longer in the target (a build dir keeps them)
    grep -q "$ROOT/$src\"" "$(echo "$o" | sed -E 's|(\.dir)/.*|\1|')/DependInfo.cmake" || continue
    nm "$o" | awk -v f="$src" '$2 ~ /^[TDBR]$/ { print $3, f >> "'"$tmp"'/defs" } $1 == "U" { print $2, f >> "'"$tmp"'/uses" }'
done
sort -u "$tmp/defs" >"$tmp/defs.s"
sort -u "$tmp/uses" >"$tmp/uses.s"
# file -> file edges (caller callee)
join "$tmp/uses.s" "$tmp/defs.s" | awk '$2 != $3 { print $2, $3 }' | sort -u >"$tmp/edges"
status=0
# (1) loops between files: tsort reports a cycle
if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/tsort"; then
    echo "loop of calls between files:"; cat "$tmp/tsort"; status=1
fi
# (2) folder layers
layer_of() { # the index of a file's folder in LAYERS
    d=$(dirname "$1"); i=0
    for l in $LAYERS; do [ "$l" = "$d" ] && { echo $i; return; }; i=$((i + 1)); done
    echo 99
}
while read -r from to; do
    lf=$(layer_of "$from"); lt=$(layer_of "$to")
    if [ "$lt" -gt "$lf" ]; then
        echo "upward call: $from -> $to"; status=1
    fi
done <"$tmp/edges"
# same-layer folders may not call each other (fit, memsys, optimize are side by side only
# through the layers below); list the folder graph for the record
awk '{ a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b); if (a != b) print a " -> " b }' "$tmp/edges" |
    sort | uniq -c | sed 's/^ */  /' >"$tmp/folders"
echo "folder dependencies (calls):"; cat "$tmp/folders"
awk '{ a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b); if (a != b) print a, b }' "$tmp/edges" |
    sort -u >"$tmp/fedges"
if ! tsort "$tmp/fedges" >/dev/null 2>"$tmp/tsort2"; then
    echo "loop of calls between folders:"; cat "$tmp/tsort2"; status=1
fi
# includes: a folder's internal header is included only from its folder (or from bench,
# which tunes the optimizer)
for h in models/models.h io/io.h optimize/optimize.h memsys/memsys.h pipeline/pipeline.h; do
    d=src/$(dirname "$h")
    grep -rln "include \"\(\.\./\)*$(basename "$h")\"\|include \"$h\"" src tools | grep -v "^$d/" | while read -r f; do
        echo "$f includes $h from outside $d"; echo x >"$tmp/bad-include"
    done
done
[ -e "$tmp/bad-include" ] && status=1
# (3) the core's boundary (issue 29): libgpucache is the objects of gpucache_objects and
# gpucache_common_objects (CMakeLists.txt); it may use the C library, libm and threads only
core_objs=$(find "$BUILD/CMakeFiles/gpucache_objects.dir" "$BUILD/CMakeFiles/gpucache_common_objects.dir" -name '*.o')
: >"$tmp/core_undef"
: >"$tmp/core_srcs"
for o in $core_objs; do
    src=$(echo "$o" | sed -E 's|.*\.dir/||; s|\.o$||')
    grep -q "$ROOT/$src\"" "$(echo "$o" | sed -E 's|(\.dir)/.*|\1|')/DependInfo.cmake" || continue
    echo "$src" >>"$tmp/core_srcs"
    nm -u "$o" | awk -v f="$src" '{ print $NF, f }' >>"$tmp/core_undef"
done
if [ ! -s "$tmp/core_srcs" ]; then
    echo "core: no objects of gpucache_objects under $BUILD"; status=1
fi
# jansson (json_*), assimp (ai*), Vulkan (vk*) symbols
grep -E '^(json_|jansson_|ai[A-Z]|vk[A-Z])' "$tmp/core_undef" | sed 's/^/core uses a dependency: /' >"$tmp/core_deps"
# anything defined by libgpucache_io or the probe (the core must not call up)
for o in $(find "$BUILD/CMakeFiles/gpucache_io_objects.dir" "$BUILD/CMakeFiles/gpucache_probe.dir" -name '*.o' 2>/dev/null); do
    nm --defined-only "$o" | awk '$2 ~ /^[TDBR]$/ { print $3 }'
done | sort -u >"$tmp/upper_defs"
sort "$tmp/core_undef" | join - "$tmp/upper_defs" | sed 's/^/core calls libgpucache_io or the probe: /' >>"$tmp/core_deps"
# the sources' includes (and those of the headers beside them)
while read -r f; do
    grep -Hn '#include *[<"]\(jansson\|assimp/\|vulkan/\)' "$f" "$(dirname "$f")"/*.h 2>/dev/null
done <"$tmp/core_srcs" | sort -u | sed 's/^/core includes a dependency: /' >>"$tmp/core_deps"
if [ -e "$BUILD/libgpucache.so" ]; then
    # what it links (NEEDED): libc, libm, libpthread; the sanitizers' runtimes in that build
    objdump -p "$BUILD/libgpucache.so" | awk '$1 == "NEEDED" { print $2 }' |
        grep -v '^libc\.so\|^libm\.so\|^libpthread\.so\|^ld-linux\|^libasan\.so\|^libubsan\.so' |
        sed 's/^/libgpucache.so needs /' >>"$tmp/core_deps"
fi
if [ -s "$tmp/core_deps" ]; then
    cat "$tmp/core_deps"; status=1
else
    echo "core: $(wc -l <"$tmp/core_srcs") sources; no jansson, assimp nor Vulkan; no call into libgpucache_io or the probe"
fi
# (4) no library source includes a header of the tool: neither a path into tools/ nor the
# name of a tools/ header that is not a header of the library's own
for f in $(find src include -name '*.c' -o -name '*.h'); do
    grep -Hn '#include *"[^"]*tools/' "$f"
    for h in tools/*.h; do
        b=$(basename "$h")
        [ -e "$(dirname "$f")/$b" ] || [ -e "src/$b" ] && continue
        grep -Hn "#include *\"$b\"" "$f"
    done
done >"$tmp/cli_includes"
if [ -s "$tmp/cli_includes" ]; then
    sed 's/^/a library includes a header of the tool: /' "$tmp/cli_includes"; status=1
fi

# sizes (issue 28): tools/ is argument parsing, a call and printing; src/ files stay readable
TOOLS_FILE_MAX=400
# the issue's goal is 3,500 lines for tools/ in all; it stood at 6,683 when this check
# came and at 7,289 once issue 30's and 31's commands and the table printer were merged, and
# at 5,189 once the reports, the gnuplot and PNG output and the input handling moved into
# the library and the help text became data (tools/cli-help.txt, text the build embeds:
# counted here are the .c and .h files), 5,222 with --threads and the meshlet rows, 4,388
# once the value parsers and analyze's reports moved, and at 3,490 once every command's
# options became a table read by one parser (tools/cli_options.c), the sweep the library's
# gc_sweep and demo's, probe --overdraw's, grid's and the meshlet files' reports the
# library's (3,489 with the fetch numbering's one line moved out); the limit is a ratchet:
# lower it as tools/ shrinks (the goal, 3500, is met)
TOOLS_TOTAL_MAX=3489
SRC_FILE_MAX=900
# Exempt from SRC_FILE_MAX: none (gltf.c, ply.c and measurements.c were split by job).
SRC_EXEMPT=""
for f in tools/*.c tools/*.h; do
    n=$(wc -l <"$f")
    [ "$n" -gt $TOOLS_FILE_MAX ] && { echo "size: $f has $n lines, more than $TOOLS_FILE_MAX"; status=1; }
done
# (the licence line each file starts with is not counted)
total=$(cat tools/*.c tools/*.h | grep -vc '^// SPDX-License-Identifier:')
if [ "$total" -gt $TOOLS_TOTAL_MAX ]; then
    echo "size: tools/ has $total lines in all, more than $TOOLS_TOTAL_MAX"; status=1
fi
for f in $(find src -name '*.c' -o -name '*.h' | sort); do
    case " $SRC_EXEMPT " in *" $f "*) continue ;; esac
    n=$(wc -l <"$f")
    [ "$n" -gt $SRC_FILE_MAX ] && { echo "size: $f has $n lines, more than $SRC_FILE_MAX"; status=1; }
done
# every source file names its licence (LICENSE, MIT) in its first lines (issue 29 item 6)
for f in $(find src include tools fuzz bench tests python -name '*.c' -o -name '*.h' -o -name '*.py' | sort); do
    head -3 "$f" | grep -q 'SPDX-License-Identifier: MIT' || { echo "licence: $f has no SPDX-License-Identifier line"; status=1; }
done
echo "sizes: tools/ has $total lines in all (limit $TOOLS_TOTAL_MAX; files: tools/ $TOOLS_FILE_MAX, src/ $SRC_FILE_MAX)"
[ $status -eq 0 ] && echo "check-layers: no loops of calls; every call goes to the same or a lower layer"
exit $status
