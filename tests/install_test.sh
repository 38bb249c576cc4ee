#!/bin/sh
# The installed library (issue 20): `cmake --install` into a temporary prefix, then a small
# C program built against it once with pkg-config and once with CMake's
# find_package(gpucache), and run; the probe library the same way; and the shared
# library's dynamic symbols are exactly the GC_API functions of gpucache.h.
# usage: install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR [EXTRA_FLAGS]
# (EXTRA_FLAGS: what the library was built with that its users must link with too: the
# sanitizers' -fsanitize=... in a sanitized build)
set -u
. "$(dirname "$0")/test_lib.sh"
BUILD=$1
SRC=$2
WORK=$3
EXTRA=${4:-}
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
PREFIX=$WORK/prefix
cmake --install "$BUILD" --prefix "$PREFIX" >install.log 2>&1 || { fail "cmake --install: $(tail -5 install.log)"; finish; exit 1; }
LIBDIR=$(dirname "$(find "$PREFIX" -name gpucache.pc | head -1)")/..
LIBDIR=$(cd "$LIBDIR" && pwd)

# the files
for f in include/gpucache/gpucache.h include/gpucache/gpucache_probe.h share/man/man1/gpucache.1 \
    share/bash-completion/completions/gpucache share/zsh/site-functions/_gpucache bin/gpucache; do
    [ -e "$PREFIX/$f" ] && pass || fail "not installed: $f"
done
for f in libgpucache.a libgpucache_probe.a libgpucache.so pkgconfig/gpucache.pc pkgconfig/gpucache_probe.pc \
    cmake/gpucache/gpucacheConfig.cmake; do
    [ -e "$LIBDIR/$f" ] && pass || fail "not installed: $LIBDIR/$f"
done
# a SONAME with the major version
objdump -p "$LIBDIR/libgpucache.so" | grep -q 'SONAME *libgpucache\.so\.[0-9]' && pass || fail "no versioned SONAME"
# nothing of the build machine in the package files: no build folder, no absolute library path
grep -l "$BUILD\|/usr/lib/[^ ]*libassimp\|$SRC" "$LIBDIR/pkgconfig/"*.pc "$LIBDIR/cmake/gpucache/"*.cmake >leaks.txt 2>/dev/null
[ -s leaks.txt ] && fail "build paths in $(cat leaks.txt)" || pass
grep -q '^prefix=${pcfiledir}' "$LIBDIR/pkgconfig/gpucache.pc" && pass || fail "gpucache.pc: $(head -1 "$LIBDIR/pkgconfig/gpucache.pc")"

# exported symbols: exactly the GC_API functions of gpucache.h, gpucache_validate.h, gpucache_pictures.h and
# gpucache_text.h
cat "$SRC/include/gpucache/gpucache.h" "$SRC/include/gpucache/gpucache_validate.h" "$SRC/include/gpucache/gpucache_pictures.h" \
    "$SRC/include/gpucache/gpucache_text.h" |
    sed -n 's/.*GC_API[^(]*[ *]\(gc_[a-z0-9_]*\)(.*/\1/p' | sort -u >header.txt
nm -D --defined-only "$LIBDIR/libgpucache.so" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | grep -v '^_' | sort -u >exported.txt
if [ -s header.txt ] && cmp -s header.txt exported.txt; then
    pass
else
    fail "exported symbols differ from the headers' GC_API functions: $(diff header.txt exported.txt | head -10)"
fi
[ "$(wc -l <header.txt)" -ge 60 ] && pass || fail "only $(wc -l <header.txt) GC_API functions found in the header"

# every public function has a doc comment right above it (its constraints, ownership and
# cost are reviewed by hand; this catches one added without any)
for h in gpucache.h gpucache_probe.h gpucache_pictures.h; do
    awk '/^GC_API/ { if (prev !~ /\*\/ *$/) print FILENAME ": " $0 } NF { prev = $0 }' \
        "$SRC/include/gpucache/$h" >undocumented.txt
    [ -s undocumented.txt ] && fail "no doc comment: $(cat undocumented.txt)" || pass
done
grep -n 'stdin_stream' "$SRC/include/gpucache/"*.h && fail "a comment names stdin_stream, which does not exist" || pass

# a program of the library's users
cat >use.c <<'EOS'
#include <gpucache/gpucache.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    /* a 2x1 quad grid: 4 triangles, 6 vertices; FIFO of 8 shades each vertex once */
    uint32_t idx[12];
    size_t n = 0;
    gc_error err;
    if (gc_grid_generate(2, 1, GC_GRID_ROWMAJOR, 0, idx, &n, &err) != GC_OK)
        return 1;
    gc_model m;
    if (gc_model_parse("fifo:8", &m, &err) != GC_OK)
        return 1;
    gc_draw d = {idx, n, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    if (gc_analyze(&m, &d, NULL, &st, &err) != GC_OK)
        return 1;
    printf("%s %llu\n", GPUCACHE_VERSION_STRING, (unsigned long long)st.invocations);
    return strcmp(GPUCACHE_VERSION_STRING, "") == 0;
}
EOS
version=$("$PREFIX/bin/gpucache" --version | head -1 | cut -d' ' -f2)
want="$version 6"
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
# pkg-config, shared
if cc $EXTRA -o use-pc use.c $(pkg-config --cflags --libs gpucache) 2>cc.txt; then
    got=$(LD_LIBRARY_PATH="$LIBDIR" ./use-pc)
    [ "$got" = "$want" ] && pass || fail "pkg-config program printed '$got', expected '$want'"
    # linked to the installed library, not another one
    LD_LIBRARY_PATH="$LIBDIR" ldd ./use-pc | grep -q "$LIBDIR/libgpucache.so" && pass || fail "use-pc: $(ldd ./use-pc | grep gpucache)"
else
    fail "pkg-config build: $(head -5 cc.txt)"
fi
# pkg-config, static
if cc $EXTRA -o use-static use.c $(pkg-config --cflags gpucache) "$LIBDIR/libgpucache.a" $(pkg-config --static --libs-only-l gpucache | sed 's/-lgpucache//') 2>cc.txt; then
    [ "$(./use-static)" = "$want" ] && pass || fail "static program: $(./use-static)"
else
    fail "static build: $(head -5 cc.txt)"
fi
# the probe library with the shared libgpucache: it needs nothing hidden there
cat >probe.c <<'EOS'
#include <gpucache/gpucache_probe.h>
#include <stdio.h>
int main(void)
{
    gc_measurements in;
    gc_error err;
    /* a missing file: the probe library's own error path, through the shared libgpucache */
    return gc_measurements_load("missing.json", &in, &err) == GC_ERR_IO ? 0 : 1;
}
EOS
if cc $EXTRA -o probe-pc probe.c $(pkg-config --cflags --libs gpucache_probe) $(pkg-config --libs --static gpucache_probe | tr ' ' '\n' | grep -v 'gpucache' | tr '\n' ' ') 2>cc.txt; then
    LD_LIBRARY_PATH="$LIBDIR" ./probe-pc && pass || fail "probe program failed"
else
    fail "probe with pkg-config: $(head -5 cc.txt)"
fi
# CMake: find_package(gpucache)
mkdir -p cm
cat >cm/CMakeLists.txt <<'EOS'
cmake_minimum_required(VERSION 3.25)
project(use_gpucache C)
find_package(gpucache 0.1 REQUIRED)
add_executable(use ../use.c)
target_link_libraries(use PRIVATE gpucache::gpucache)
add_executable(use_probe ../probe.c)
target_link_libraries(use_probe PRIVATE gpucache::gpucache_probe)
EOS
if cmake -S cm -B cm/build -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_FLAGS="$EXTRA" -DCMAKE_EXE_LINKER_FLAGS="$EXTRA" >cm.log 2>&1 && cmake --build cm/build >>cm.log 2>&1; then
    [ "$(cm/build/use)" = "$want" ] && pass || fail "find_package program printed '$(cm/build/use)'"
    cm/build/use_probe && pass || fail "find_package probe program failed"
else
    fail "find_package(gpucache): $(grep -i error cm.log | head -5)"
fi
finish
