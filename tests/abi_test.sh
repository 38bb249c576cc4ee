#!/bin/sh
# Issue 29 item 2: each shared library's dynamic symbols are exactly the functions its public
# headers declare, both ways (nothing exported that no header promises, nothing promised that
# is not exported), the functions read from the headers by python/gen_cdef.py --functions:
#   libgpucache.so        gpucache.h, gpucache_memsys.h, gpucache_pictures.h
#   libgpucache_io.so     gpucache_io.h, gpucache_validate.h
#   libgpucache_python.so all of them (libgpucache and libgpucache_io in one file)
# and the tool's private interface (src/gpucache_private.h) is in none of them.
# usage: abi_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BUILD=$1
SRC=$2
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
PY=/usr/bin/python3
declared() { # the functions the named headers declare (without the headers they include)
    "$PY" "$SRC/python/gen_cdef.py" --functions-only "$SRC/include" "$@"
}
exported() {
    nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRVWi]$/ { print $3 }' | grep -v '^_' | sed 's/@.*//' | sort -u
}
check() { # LIBRARY HEADER...
    lib=$1; shift
    if [ ! -e "$lib" ]; then
        fail "no $lib"; return
    fi
    declared "$@" >declared.txt
    exported "$lib" >exported.txt
    [ "$(wc -l <declared.txt)" -ge 20 ] && pass || fail "$(basename "$lib"): only $(wc -l <declared.txt) functions in $*"
    if cmp -s declared.txt exported.txt; then
        pass
    else
        fail "$(basename "$lib"): exports differ from $* (< declared only, > exported only): $(diff declared.txt exported.txt | grep '^[<>]' | head -10 | tr '\n' ' ')"
    fi
    # the private interface is hidden
    for f in gc_parse_u64 gc_atomic_open gc_stdin_format gc_output_check gc_mesh_parse_text gc_memsys_machine_value; do
        grep -qx "$f" exported.txt && fail "$(basename "$lib") exports the private $f" || pass
    done
}
CORE="gpucache/gpucache.h gpucache/gpucache_memsys.h gpucache/gpucache_pictures.h"
IO="gpucache/gpucache_io.h gpucache/gpucache_validate.h"
if [ -e "$BUILD/libgpucache.so" ]; then
    check "$BUILD/libgpucache.so" $CORE
    check "$BUILD/libgpucache_io.so" $IO
    # the SONAMEs: the ABI version 1 since the split (CHANGELOG.md)
    for l in libgpucache libgpucache_io; do
        objdump -p "$BUILD/$l.so" | grep -q "SONAME *$l\.so\.1\$" && pass || fail "$l.so: $(objdump -p "$BUILD/$l.so" | grep SONAME)"
    done
fi
[ -e "$BUILD/python/libgpucache_python.so" ] && check "$BUILD/python/libgpucache_python.so" $CORE $IO
# every public function is marked GC_API (so none is exported by accident of visibility)
for h in $CORE $IO gpucache/gpucache_probe.h; do
    "$PY" "$SRC/python/gen_cdef.py" --functions-only "$SRC/include" "$h" | while read -r f; do
        grep -q "^GC_API[^(]*[ *]$f(" "$SRC/include/$h" || echo "$h: $f without GC_API"
    done
done >nogcapi.txt
[ -s nogcapi.txt ] && fail "$(head -5 nogcapi.txt)" || pass
finish
