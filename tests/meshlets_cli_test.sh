#!/bin/sh
# Issue 31: gpucache meshlets on the command line — bad input gets one line, a non-zero
# exit and nothing written; good input writes the mesh and the data file; --check reads it.
# usage: meshlets_cli_test.sh GPUCACHE_BINARY WORK_DIR [SOURCE_DIR]
set -u
BIN=$1
WORK=$2
SRC=${3:-}
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# refused WANT TEXT command...: exit WANT, one line on stderr containing TEXT, no out.* nor data.*
refused() {
    want=$1 text=$2
    shift 2
    rm -f out.* data.*
    "$@" >stdout.txt 2>err.txt
    got=$?
    [ "$got" -eq "$want" ] || { fail "$* -> exit $got, expected $want: $(head -3 err.txt)"; return; }
    [ "$(wc -l <err.txt)" -eq 1 ] && grep -qF -- "$text" err.txt || { fail "$*: wanted one line with '$text': $(cat err.txt)"; return; }
    ls out.* data.* >/dev/null 2>&1 && { fail "$*: wrote $(ls out.* data.* 2>/dev/null)"; return; }
    pass
}

"$BIN" grid 12 9 -o grid.ply >/dev/null && "$BIN" grid 12 9 -o grid.txt >/dev/null &&
    "$BIN" grid 12 9 -o grid-obj.obj >/dev/null || { echo "cannot make the grids"; exit 1; }
# a strip: 0 1 2 3 4 5 as a PLY tristrips element is a strip; -t strip on a text buffer too
printf '0 1 2 3 4 5 6 7\n' >strip.txt

# limits out of range: V < 3, T < 1, V > 256, T > 512, not numbers
refused 2 "--max-vertices 2" "$BIN" meshlets --max-vertices 2 --max-triangles 10 grid.txt -o out.txt
refused 2 "--max-triangles 0" "$BIN" meshlets --max-vertices 64 --max-triangles 0 grid.txt -o out.txt
refused 2 "--max-vertices 257" "$BIN" meshlets --max-vertices 257 --max-triangles 10 grid.txt -o out.txt
refused 2 "--max-triangles 513" "$BIN" meshlets --max-vertices 64 --max-triangles 513 grid.txt -o out.txt
refused 2 "--max-vertices x" "$BIN" meshlets --max-vertices x --max-triangles 10 grid.txt -o out.txt
refused 2 "--target amd: unknown" "$BIN" meshlets --target amd grid.txt -o out.txt
refused 2 "needs --max-vertices" "$BIN" meshlets grid.txt -o out.txt
refused 2 "needs -o" "$BIN" meshlets --target nvidia grid.txt
refused 2 "--bounds goes into the data file" "$BIN" meshlets --target nvidia --bounds grid.ply -o out.ply
# a strip or fan: say how to convert it
printf 'ply\nformat ascii 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\nelement tristrips 1\nproperty list int int vertex_indices\nend_header\n' >strip.ply
for i in 0 1 2 3 4 5 6 7; do echo "$i 0 $((i % 2))" >>strip.ply; done
echo "8 0 1 2 3 4 5 6 7" >>strip.ply
refused 2 "convert it first (gpucache optimize" "$BIN" meshlets --target nvidia strip.ply -o out.ply
# --bounds without positions (an index buffer)
refused 1 "no vertex positions" "$BIN" meshlets --target nvidia --data data.bin --bounds grid.txt -o out.txt
# the data file may not be the input nor the output
refused 2 "" "$BIN" meshlets --target nvidia --data grid.txt grid.txt -o out.txt

# good: the mesh and the data file; --check reads it back with the same figures
"$BIN" meshlets --max-vertices 10 --max-triangles 7 grid.ply -o out.ply --data data.bin --bounds --json >run.json 2>err.txt &&
    [ -s out.ply ] && [ -s data.bin ] && pass || fail "a good run failed: $(cat err.txt)"
"$BIN" meshlets --check data.bin --json >check.json 2>err.txt && pass || fail "--check of a good file: $(cat err.txt)"
for key in meshlets meshlet_vertices triangles; do
    a=$(grep -o "\"$key\": [0-9]*" run.json)
    b=$(grep -o "\"$key\": [0-9]*" check.json)
    [ -n "$a" ] && [ "$a" = "$b" ] && pass || fail "$key: run says '$a', --check says '$b'"
done
grep -q '"triangles": 216' run.json && pass || fail "12 x 9 quads are 216 triangles: $(cat run.json)"
grep -q '"limits": {"max_vertices": 10, "max_triangles": 7}' run.json && pass || fail "limits: $(cat run.json)"

# bad data files: truncated, counts past the arrays, a meshlet over its limits, bad magic
cp data.bin good.bin
size=$(wc -c <good.bin)
head -c $((size - 1)) good.bin >cut.bin
refused 1 "truncated" "$BIN" meshlets --check cut.bin
head -c 47 good.bin >short.bin
refused 1 "header" "$BIN" meshlets --check short.bin
# meshlet count (byte 24) one more than there is
python3 - <<'EOF' 2>/dev/null
import struct
d = bytearray(open("good.bin", "rb").read())
m = struct.unpack_from("<Q", d, 24)[0]
struct.pack_into("<Q", d, 24, m + 1)
open("more.bin", "wb").write(d)
d = bytearray(open("good.bin", "rb").read())
struct.pack_into("<I", d, 48 + 8, 11)   # meshlet 0: 11 vertices, over the limit 10
open("over.bin", "wb").write(d)
d = bytearray(open("good.bin", "rb").read())
d[0] = ord("X")
open("magic.bin", "wb").write(d)
EOF
if [ -f over.bin ]; then
    refused 1 "counts past the arrays" "$BIN" meshlets --check more.bin
    refused 1 "meshlet 0 has 11 vertices" "$BIN" meshlets --check over.bin
    refused 1 "magic" "$BIN" meshlets --check magic.bin
else
    echo "python3 missing: the edited data files are not tried"
fi
refused 1 "cannot open" "$BIN" meshlets --check missing.bin

# analyze with the batch-all model on the written file counts the same batches and
# invocations as the meshlets and meshlet vertices reported (the scan property, end to end):
# a PLY, and a glTF rewritten in place (made by tests/gltf/make_gltf.py when python3 is here)
same_as_analyze() { # INPUT OUTPUT V T
    "$BIN" meshlets --max-vertices "$3" --max-triangles "$4" --json "$1" -o "$2" >run.json 2>err.txt ||
        { fail "meshlets $1: $(cat err.txt)"; return; }
    "$BIN" analyze -m "batch-all:indices=$(($4 * 3)),vertices=$3" --json "$2" >an.json 2>err.txt ||
        { fail "analyze $2: $(cat err.txt)"; return; }
    m=$(grep -o '"meshlets": [0-9]*' run.json | grep -o '[0-9]*$')
    v=$(grep -o '"meshlet_vertices": [0-9]*' run.json | grep -o '[0-9]*$')
    grep -q "\"invocations\": $v," an.json && grep -q "\"batches\": $m[,}]" an.json && pass ||
        fail "$1 at $3/$4: $m meshlets, $v vertices; analyze says $(grep -o '"invocations": [0-9]*\|"batches": [0-9]*' an.json | tr '\n' ' ')"
}
same_as_analyze grid.ply out2.ply 10 7
same_as_analyze grid.ply out2.ply 3 1
same_as_analyze grid.ply out2.ply 256 512
if [ -n "$SRC" ] && command -v python3 >/dev/null 2>&1 &&
    python3 "$SRC/tests/gltf/make_gltf.py" --from-obj grid-obj.obj --index u16 -o grid.glb >/dev/null 2>&1; then
    same_as_analyze grid.glb out2.glb 17 20
    # --bounds on a glTF: the draw's positions, the same bounds as from the OBJ it was made of
    "$BIN" meshlets --max-vertices 17 --max-triangles 20 --bounds --data gb.bin grid.glb -o out3.glb >/dev/null 2>err.txt &&
        "$BIN" meshlets --max-vertices 17 --max-triangles 20 --bounds --data ob.bin grid-obj.obj -o out3.obj >/dev/null 2>>err.txt &&
        pass || fail "glTF --bounds: $(cat err.txt)"
    # the glTF keeps the file's vertex ids where the OBJ's are renumbered by first use: the
    # meshlet table and the bounds (the last 48 bytes a meshlet) must be the same
    m=$("$BIN" meshlets --check gb.bin --json | grep -o '"meshlets": [0-9]*' | grep -o '[0-9]*$')
    [ -n "$m" ] && [ "$(tail -c $((48 * m)) gb.bin | od -An -tx1)" = "$(tail -c $((48 * m)) ob.bin | od -An -tx1)" ] &&
        [ "$(head -c $((48 + 16 * m)) gb.bin | od -An -tx1)" = "$(head -c $((48 + 16 * m)) ob.bin | od -An -tx1)" ] &&
        pass || fail "glTF --bounds: not the OBJ's meshlets and bounds ($m meshlets)"
else
    echo "no python3 or make_gltf.py: the glTF case is not run"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
