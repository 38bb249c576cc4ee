#!/bin/sh
# The installed libraries (issues 20 and 29): `cmake --install` into a temporary prefix (not
# the configured one: the package must work wherever it is moved), then for each library --
# libgpucache (the core), libgpucache_io (the files) and libgpucache_probe -- a small C program
# built against it with its pkg-config file and with its CMake target (find_package(gpucache)),
# and run; the core needs nothing but libc, libm and threads (ldd), and each shared library's
# dynamic symbols are exactly the GC_API functions of its headers (tests/abi_test.sh checks
# the build's libraries against the headers both ways).
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
# installed in one place, then moved: nothing may point back to where it was installed
cmake --install "$BUILD" --prefix "$WORK/first" >install.log 2>&1 || { fail "cmake --install: $(tail -5 install.log)"; finish; exit 1; }
mv "$WORK/first" "$PREFIX" || exit 1
LIBDIR=$(dirname "$(find "$PREFIX" -name gpucache.pc | head -1)")/..
LIBDIR=$(cd "$LIBDIR" && pwd)

# the files
for f in include/gpucache/gpucache.h include/gpucache/gpucache_io.h include/gpucache/gpucache_memsys.h \
    include/gpucache/gpucache_probe.h share/man/man1/gpucache.1 \
    share/bash-completion/completions/gpucache share/zsh/site-functions/_gpucache bin/gpucache; do
    [ -e "$PREFIX/$f" ] && pass || fail "not installed: $f"
done
for f in libgpucache.a libgpucache_io.a libgpucache_probe.a libgpucache.so libgpucache_io.so pkgconfig/gpucache.pc \
    pkgconfig/gpucache_io.pc pkgconfig/gpucache_probe.pc \
    cmake/gpucache/gpucacheConfig.cmake; do
    [ -e "$LIBDIR/$f" ] && pass || fail "not installed: $LIBDIR/$f"
done
# a SONAME with the ABI version (1 since issue 29's split)
for l in libgpucache libgpucache_io; do
    objdump -p "$LIBDIR/$l.so" | grep -q "SONAME *$l\.so\.1\$" && pass || fail "$l.so: no SONAME $l.so.1"
done
# the private interface is not installed
[ -e "$PREFIX/include/gpucache/gpucache_private.h" ] && fail "the private header is installed" || pass
# the core needs the C library, libm and threads alone (issue 29)
# (what it links, NEEDED; in the sanitizer build also the sanitizers' runtimes, and ldd then
# lists what those need)
objdump -p "$LIBDIR/libgpucache.so" | awk '$1 == "NEEDED" { print $2 }' >core-needed.txt
allowed='^libc\.so\|^libm\.so\|^libpthread\.so\|^ld-linux'
[ -n "$EXTRA" ] && allowed="$allowed\\|^libasan\\.so\\|^libubsan\\.so"
grep -v "$allowed" core-needed.txt >core-deps.txt
[ -s core-deps.txt ] && fail "libgpucache.so needs $(tr '\n' ' ' <core-deps.txt)" || pass
if [ -z "$EXTRA" ]; then
    ldd "$LIBDIR/libgpucache.so" | awk '{ print $1 }' |
        grep -v '^linux-vdso\|^/lib\|^libc\.so\|^libm\.so\|^libpthread\.so\|^ld-linux' >core-ldd.txt
    [ -s core-ldd.txt ] && fail "ldd libgpucache.so: $(tr '\n' ' ' <core-ldd.txt)" || pass
fi
ldd "$LIBDIR/libgpucache_io.so" | grep -q jansson && pass || fail "libgpucache_io.so does not need jansson?"
# nothing of the build machine in the package files: no build folder, no absolute library path
grep -l "$BUILD\|$WORK/first\|/usr/lib/[^ ]*libassimp\|$SRC" "$LIBDIR/pkgconfig/"*.pc "$LIBDIR/cmake/gpucache/"*.cmake >leaks.txt 2>/dev/null
[ -s leaks.txt ] && fail "build paths in $(cat leaks.txt)" || pass
for pc in gpucache gpucache_io gpucache_probe; do
    grep -q '^prefix=${pcfiledir}' "$LIBDIR/pkgconfig/$pc.pc" && pass || fail "$pc.pc: $(head -1 "$LIBDIR/pkgconfig/$pc.pc")"
done
# the core's pkg-config file names no dependency (no jansson, no assimp)
grep -q '^Requires' "$LIBDIR/pkgconfig/gpucache.pc" && fail "gpucache.pc requires $(grep '^Requires' "$LIBDIR/pkgconfig/gpucache.pc")" || pass

# exported symbols: exactly the GC_API functions of each library's headers
exports_of() { # LIBRARY HEADER...
    lib=$1; shift
    for h in "$@"; do cat "$SRC/include/gpucache/$h"; done |
        sed -n 's/.*GC_API[^(]*[ *]\(gc_[a-z0-9_]*\)(.*/\1/p' | sort -u >header.txt
    nm -D --defined-only "$LIBDIR/$lib" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | grep -v '^_' | sort -u >exported.txt
    if [ -s header.txt ] && cmp -s header.txt exported.txt; then
        pass
    else
        fail "$lib: exported symbols differ from the headers' GC_API functions: $(diff header.txt exported.txt | head -10)"
    fi
    [ "$(wc -l <header.txt)" -ge 30 ] && pass || fail "only $(wc -l <header.txt) GC_API functions found in $*"
}
exports_of libgpucache.so gpucache.h gpucache_memsys.h gpucache_pictures.h
exports_of libgpucache_io.so gpucache_io.h gpucache_validate.h

# every public function has a doc comment right above it (its constraints, ownership and
# cost are reviewed by hand; this catches one added without any)
for h in gpucache.h gpucache_io.h gpucache_memsys.h gpucache_probe.h gpucache_pictures.h gpucache_validate.h; do
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
# libgpucache_io: a file read and written (no jansson nor assimp named by the program)
cat >use_io.c <<'EOS'
#include <gpucache/gpucache.h>
#include <gpucache/gpucache_io.h>
#include <stdio.h>
int main(int argc, char** argv)
{
    gc_error err;
    const char text[] = "0 1 2\n2 1 3\n";
    if (argc != 2 || gc_write_file_atomic(argv[1], text, sizeof text - 1, &err) != GC_OK)
        return 1;
    gc_mesh mesh;
    if (gc_mesh_load(argv[1], NULL, &mesh, &err) != GC_OK)
        return 1;
    gc_model m;
    gc_model_parse("fifo:8", &m, &err);
    gc_draw d = {mesh.indices, mesh.index_count, GC_TRIANGLE_LIST, 0, 0};
    gc_stats st;
    if (gc_analyze(&m, &d, NULL, &st, &err) != GC_OK)
        return 1;
    printf("%zu %llu %s\n", mesh.index_count, (unsigned long long)st.invocations, gc_mesh_format("x.glb"));
    gc_mesh_free(&mesh);
    return 0;
}
EOS
want_io="6 4 gltf"
if cc $EXTRA -o use-io use_io.c $(pkg-config --cflags --libs gpucache_io) 2>cc.txt; then
    got=$(LD_LIBRARY_PATH="$LIBDIR" ./use-io io.txt)
    [ "$got" = "$want_io" ] && pass || fail "pkg-config io program printed '$got', expected '$want_io'"
    LD_LIBRARY_PATH="$LIBDIR" ldd ./use-io | grep -q "$LIBDIR/libgpucache_io.so" && pass || fail "use-io: $(ldd ./use-io | grep gpucache)"
else
    fail "pkg-config build of libgpucache_io: $(head -5 cc.txt)"
fi
if cc $EXTRA -o use-io-static use_io.c $(pkg-config --cflags gpucache_io) "$LIBDIR/libgpucache_io.a" "$LIBDIR/libgpucache.a" \
        $(pkg-config --static --libs-only-l gpucache_io | tr ' ' '\n' | grep -v 'gpucache' | tr '\n' ' ') 2>cc.txt; then
    [ "$(./use-io-static io-static.txt)" = "$want_io" ] && pass || fail "static io program: $(./use-io-static io-static.txt)"
else
    fail "static build of libgpucache_io: $(head -5 cc.txt)"
fi
# the probe library with the shared libraries: it needs nothing hidden there
cat >probe.c <<'EOS'
#include <gpucache/gpucache_probe.h>
#include <stdio.h>
int main(void)
{
    gc_measurements in;
    gc_error err;
    /* a missing file: libgpucache_io's error path */
    if (gc_measurements_load("missing.json", &in, &err) != GC_ERR_IO)
        return 1;
    /* an emulated backend: the probe library's own code */
    gc_backend b;
    if (gc_backend_open(&b, 0, "fifo:4", &err) != GC_OK)
        return 1;
    uint32_t idx[6] = {0, 1, 2, 2, 1, 3};
    gc_draw d = {idx, 6, GC_TRIANGLE_LIST, 0, 0};
    gc_measurement m;
    if (gc_backend_measure(&b, &d, 1, &m, &err) != GC_OK || m.invocations != 4)
        return 1;
    gc_measurement_free(&m);
    gc_backend_close(&b);
    return gc_backend_open(&b, 0, "no-such-model", &err) == GC_ERR_USAGE ? 0 : 1;
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
add_executable(use_shared ../use.c)
target_link_libraries(use_shared PRIVATE gpucache::gpucache_shared)
add_executable(use_io ../use_io.c)
target_link_libraries(use_io PRIVATE gpucache::gpucache_io)
add_executable(use_io_shared ../use_io.c)
target_link_libraries(use_io_shared PRIVATE gpucache::gpucache_io_shared)
add_executable(use_probe ../probe.c)
target_link_libraries(use_probe PRIVATE gpucache::gpucache_probe)
EOS
if cmake -S cm -B cm/build -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_FLAGS="$EXTRA" -DCMAKE_EXE_LINKER_FLAGS="$EXTRA" >cm.log 2>&1 && cmake --build cm/build >>cm.log 2>&1; then
    [ "$(cm/build/use)" = "$want" ] && pass || fail "find_package program printed '$(cm/build/use)'"
    [ "$(cm/build/use_shared)" = "$want" ] && pass || fail "find_package shared program printed '$(cm/build/use_shared)'"
    [ "$(cm/build/use_io cm-io.txt)" = "$want_io" ] && pass || fail "find_package io program printed '$(cm/build/use_io cm-io.txt)'"
    [ "$(cm/build/use_io_shared cm-io2.txt)" = "$want_io" ] && pass || fail "find_package shared io program printed '$(cm/build/use_io_shared cm-io2.txt)'"
    cm/build/use_probe && pass || fail "find_package probe program failed"
else
    fail "find_package(gpucache): $(grep -i error cm.log | head -5)"
fi
finish
