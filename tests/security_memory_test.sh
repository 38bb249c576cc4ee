#!/bin/sh
# Issue 14, items 8 and 10: memory that follows the input, allocation failures that say
# what they tried, and assimp kept from hostile glTF/GLB files.
#  - fit, optimize on OBJ and sweep run within a virtual-memory limit (ulimit -v) that
#    the old code exceeded: about 16 bytes an index beyond the input and output buffers;
#  - under a limit far too tight, each fails with one non-empty line that names what it
#    tried to allocate, exit 1, no crash;
#  - a GLB whose chunk lengths lie, and glTF buffers that point outside the input's
#    folder (../secret.bin, /etc/passwd, file:, percent-encoded ..) or declare more bytes
#    than exist, are refused with one line naming the file and the place, exit 1, fast.
# The ulimit checks are skipped for sanitizer builds (their shadow memory is virtual).
# usage: security_memory_test.sh GPUCACHE_BINARY WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
# one arena: glibc reserves 64 MiB of address space per thread arena otherwise
MALLOC_ARENA_MAX=1
export MALLOC_ARENA_MAX

# one_line_exit1 NAME EXPECTED_TEXT: err.txt holds exactly one non-empty line with the text, and rc was 1
one_line_exit1() {
    if [ "$rc" -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "$2" err.txt; then
        pass
    else
        fail "$1: exit $rc, stderr: $(head -c 400 err.txt)"
    fi
}

sanitized=0
if grep -q "__asan_init" "$BIN" 2>/dev/null; then sanitized=1; fi

# ------------------------------------------------------------------ memory
# A measurement file of one case with 1,200,000 indices (the old reader: ~43 bytes each).
awk 'BEGIN { printf "{\"device\": \"synthetic\", \"cases\": [{\"name\": \"big\", \"topology\": \"triangle-list\", \"invocations\": 1, \"indices\": [";
             for (i = 0; i < 1200000; ++i) printf "%s%d", (i ? ", " : ""), (i * 7) % 100003;
             printf "]}]}" }' >big.json
# An OBJ grid of 400 x 400 quads: 960,000 indices.
awk 'BEGIN { W = 400; for (y = 0; y <= W; ++y) for (x = 0; x <= W; ++x) printf "v %d %d 0\n", x, y;
             for (y = 0; y < W; ++y) for (x = 0; x < W; ++x) { a = y * (W + 1) + x + 1; b = a + 1; c = a + W + 1; d = c + 1;
             printf "f %d %d %d\nf %d %d %d\n", a, b, d, a, d, c } }' >grid.obj

# base: the address space the program needs to start at all (its libraries), found by trying
base=0
if [ "$sanitized" -eq 0 ]; then
    seq 0 2 >tiny.txt
    for v in $(seq 8000 2000 400000); do
        if (ulimit -v "$v"; "$BIN" analyze -m fifo:16 tiny.txt >/dev/null 2>&1); then base=$v; break; fi
    done
    [ "$base" -gt 0 ] || fail "analyze tiny.txt does not run under any ulimit -v up to 400 MB"
fi
# Measured above the base (KB): fit 6,000 now / 60,000 before; optimize 20,000 / 48,000;
# sweep 70,000 / 122,000. The limits sit between.
if [ "$sanitized" -eq 0 ] && [ "$base" -gt 0 ]; then
    # fit: the indices (4.8 MB) and little more; the old reader needed about 50 MB more.
    (ulimit -v $((base + 24000)); "$BIN" fit -m fifo:16 --threads 1 big.json >out.txt 2>err.txt)
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q "1 cases from synthetic" out.txt; then pass; else fail "fit big.json within 24 MB of the base: exit $rc: $(cat err.txt)"; fi
    # optimize: input and output buffers (3.8 MB each) and the optimizer's and the rewrite's
    # working memory: about 22 bytes an index in all now, 43 before.
    (ulimit -v $((base + 32000)); "$BIN" optimize -a tipsify grid.obj -o grid-out.obj >out.txt 2>err.txt)
    rc=$?
    if [ "$rc" -eq 0 ] && [ "$(grep -c '^f ' grid-out.obj)" -eq 320000 ]; then pass; else fail "optimize grid.obj within 32 MB of the base: exit $rc: $(cat err.txt)"; fi
    # sweep: two threads share one job's budget (each thread used to hold a job's 16 bytes an index).
    (ulimit -v $((base + 96000)); "$BIN" sweep --mesh grid:600x600 -a tipsify,auto --cache 31..32 -m fifo:32 --threads 2 \
        --csv sweep.csv >out.txt 2>err.txt)
    rc=$?
    if [ "$rc" -eq 0 ] && [ "$(grep -c '^grid:600x600,' sweep.csv)" -eq 4 ]; then pass; else fail "sweep grid:600x600 within 96 MB of the base: exit $rc: $(cat err.txt)"; fi

    # Far too little memory: one line that names what was being allocated, exit 1.
    (ulimit -v $((base + 2000)); "$BIN" fit -m fifo:16 --threads 1 big.json >out.txt 2>err.txt)
    rc=$?
    one_line_exit1 "fit big.json out of memory" "big.json: .*out of memory for [0-9]* "
    (ulimit -v $((base + 8000)); "$BIN" optimize -a tipsify grid.obj -o oom.obj >out.txt 2>err.txt)
    rc=$?
    one_line_exit1 "optimize grid.obj out of memory" "out of memory .*[0-9]"
    if [ -e oom.obj ]; then fail "optimize out of memory left oom.obj"; else pass; fi
    (ulimit -v $((base + 20000)); "$BIN" sweep --mesh grid:1000x1000 -a tipsify --cache 32..32 -m fifo:32 --threads 1 --csv oom.csv \
        >out.txt 2>err.txt)
    rc=$?
    one_line_exit1 "sweep grid:1000x1000 out of memory" "grid:1000x1000: out of memory for .*[0-9]"
fi

# ------------------------------------------------------------------ glTF / GLB
mkdir -p gl/sub
# le32 N: N as 4 little-endian bytes
le32() { printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)))"; }
# A triangle: 3 float positions (36 bytes) and 3 uint16 indices padded to 8 bytes.
tri_bin() { le32 0; le32 0; le32 0; le32 1065353216; le32 0; le32 0; le32 0; le32 1065353216; le32 0; le32 65536; le32 2; }
tri_bin >gl/sub/tri.bin
tri_bin >gl/secret.bin
# gltf_doc BUFFER_JSON [INDEX_COUNT]
gltf_doc() {
    printf '{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}], '
    printf '"meshes": [{"primitives": [{"attributes": {"POSITION": 1}, "indices": 0}]}], "buffers": [%s], ' "$1"
    printf '"bufferViews": [{"buffer": 0, "byteOffset": 36, "byteLength": 6}, {"buffer": 0, "byteOffset": 0, "byteLength": 36}], '
    printf '"accessors": [{"bufferView": 0, "componentType": 5123, "count": %s, "type": "SCALAR"}, ' "${2:-3}"
    printf '{"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}]}'
}
gltf_doc '{"uri": "tri.bin", "byteLength": 44}' >gl/sub/ok.gltf
gltf_doc '{"uri": "../secret.bin", "byteLength": 44}' >gl/sub/dotdot.gltf
gltf_doc '{"uri": "/etc/passwd", "byteLength": 10}' >gl/sub/absolute.gltf
gltf_doc '{"uri": "file:///etc/passwd", "byteLength": 10}' >gl/sub/file-uri.gltf
gltf_doc '{"uri": "%2e%2e/secret.bin", "byteLength": 44}' >gl/sub/encoded.gltf
gltf_doc '{"uri": "tri.bin", "byteLength": 4000000000}' >gl/sub/byte-length.gltf
gltf_doc '{"uri": "tri.bin", "byteLength": 44}' 1000000000 >gl/sub/count.gltf
ln -s ../secret.bin gl/sub/link.bin 2>/dev/null
gltf_doc '{"uri": "link.bin", "byteLength": 44}' >gl/sub/symlink.gltf
# A GLB: header, JSON chunk (padded to 4 bytes), BIN chunk; glb JSON TOTAL JSONLEN BINLEN
glb() {
    json=$1
    pad=$(( (4 - ${#json} % 4) % 4 ))
    json="$json$(printf '%*s' "$pad" '')"
    printf 'glTF'; le32 2; le32 "$2"
    le32 "$3"; printf 'JSON'; printf '%s' "$json"
    le32 "$4"; printf 'BIN\000'; tri_bin
}
doc=$(gltf_doc '{"byteLength": 44}')
pad=$(( (4 - ${#doc} % 4) % 4 ))
jlen=$(( ${#doc} + pad ))
total=$(( 12 + 8 + jlen + 8 + 44 ))
glb "$doc" "$total" "$jlen" 44 >gl/sub/ok.glb
glb "$doc" 4000000000 "$jlen" 44 >gl/sub/total-lies.glb
glb "$doc" "$total" 4294967040 44 >gl/sub/json-lies.glb
glb "$doc" "$total" "$jlen" 2147483647 >gl/sub/bin-lies.glb
doc=$(gltf_doc '{"byteLength": 4000000000}')
pad=$(( (4 - ${#doc} % 4) % 4 ))
jlen=$(( ${#doc} + pad ))
glb "$doc" $(( 12 + 8 + jlen + 8 + 44 )) "$jlen" 44 >gl/sub/buffer-lies.glb
# The 52-byte GLB of the report: a header and a JSON chunk header that claim far more than there is.
{ printf 'glTF'; le32 2; le32 52; le32 4294967040; printf 'JSON'; printf '{"buffers":[{"byteLength":4000000000}]}   '; } \
    | head -c 52 >gl/sub/hostile.glb
# An accessor without a buffer view: 200 million zero vectors from 220 bytes.
zeros='{"asset":{"version":"2.0"},"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"accessors":[{"componentType":5126,"count":200000000,"type":"VEC3"}]}'
zpad=$(( (4 - ${#zeros} % 4) % 4 ))
{ printf 'glTF'; le32 2; le32 $((20 + ${#zeros} + zpad)); le32 $((${#zeros} + zpad)); printf 'JSON'; printf '%s%*s' "$zeros" "$zpad" ''; } \
    >gl/sub/zeros.glb

if "$BIN" analyze gl/sub/ok.gltf >out.txt 2>err.txt; then
    pass
    if "$BIN" analyze gl/sub/ok.glb >out.txt 2>err.txt && grep -q "3 indices" out.txt; then pass; else fail "ok.glb: $(cat err.txt)"; fi
    # check FILE TEXT: refused with one line naming the file and the place, exit 1, within 5 s
    check() {
        start=$(date +%s)
        (ulimit -t 20; "$BIN" analyze "gl/sub/$1" >out.txt 2>err.txt)
        rc=$?
        one_line_exit1 "$1" "gl/sub/$1: $2"
        if [ $(( $(date +%s) - start )) -le 5 ]; then pass; else fail "$1: took more than 5 s"; fi
    }
    check dotdot.gltf "buffers\[0\]\.uri '\.\./secret\.bin' has a '\.\.' component"
    check absolute.gltf "buffers\[0\]\.uri '/etc/passwd' is an absolute path"
    check file-uri.gltf "buffers\[0\]\.uri 'file:///etc/passwd' names a scheme"
    check encoded.gltf "buffers\[0\]\.uri '%2e%2e/secret\.bin' has a '\.\.' component"
    check byte-length.gltf "buffers\[0\]: byteLength 4000000000 is more than the 44 bytes"
    check count.gltf "accessors\[0\]: 1000000000 elements need"
    [ -L gl/sub/link.bin ] && check symlink.gltf "buffers\[0\]\.uri 'link\.bin' leads outside the input's folder"
    check total-lies.glb "byte 8: the GLB header declares 4000000000 bytes"
    check json-lies.glb "byte 12: a JSON chunk of 4294967040 bytes runs past"
    check bin-lies.glb "byte [0-9]*: a chunk of 2147483647 bytes runs past"
    check buffer-lies.glb "buffers\[0\]: byteLength 4000000000 is more than the 44 bytes"
    check hostile.glb "byte 12: a JSON chunk of 4294967040 bytes runs past"
    check zeros.glb "accessors\[0\]: 200000000 elements of 12 bytes without a buffer view"
    # optimize refuses the same way, and writes nothing
    "$BIN" optimize -a tipsify gl/sub/dotdot.gltf -o gl/sub/out.gltf >out.txt 2>err.txt
    rc=$?
    one_line_exit1 "optimize dotdot.gltf" "gl/sub/dotdot.gltf: buffers\[0\]\.uri"
    if [ -e gl/sub/out.gltf ] || [ -e gl/sub/out.bin ]; then fail "optimize dotdot.gltf wrote an output"; else pass; fi
    # issue 17: compressed geometry is refused by name, exit 1, no output; with
    # --allow-external-uris a '..' buffer is read
    sed 's/"asset": {/"extensionsUsed": ["KHR_draco_mesh_compression"], "extensionsRequired": ["KHR_draco_mesh_compression"], "asset": {/' \
        gl/sub/ok.gltf >gl/sub/draco.gltf
    "$BIN" optimize -a tipsify gl/sub/draco.gltf -o gl/sub/draco-out.gltf >out.txt 2>err.txt
    rc=$?
    one_line_exit1 "optimize draco.gltf" "gl/sub/draco.gltf: .*KHR_draco_mesh_compression"
    if [ -e gl/sub/draco-out.gltf ] || [ -e gl/sub/draco-out.bin ]; then fail "optimize draco.gltf wrote an output"; else pass; fi
    if "$BIN" analyze --allow-external-uris gl/sub/dotdot.gltf >out.txt 2>err.txt && grep -q "3 indices" out.txt; then
        pass
    else
        fail "--allow-external-uris: $(cat err.txt)"
    fi
    # glTF content under another name never reaches assimp
    cp gl/sub/ok.glb gl/sub/disguised.stl
    "$BIN" analyze gl/sub/disguised.stl >out.txt 2>err.txt
    rc=$?
    grep -q "without assimp" err.txt || one_line_exit1 "disguised.stl" "looks like glTF"
else
    fail "ok.gltf: $(cat err.txt)"
fi

finish
