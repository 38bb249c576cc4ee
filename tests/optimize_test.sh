#!/bin/sh
# `gpucache optimize` and `gpucache grid` end to end: every output keeps its input's format,
# its vertex data and its triangles (compared here with awk, independently of the
# library's own check), and analyzing it shows the gain.
# usage: optimize_test.sh GPUCACHE_BINARY WORK_DIR [CORPUS_DIR]
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
CORPUS=${3:-}
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

# Triangles of an index stream or OBJ faces, each rotated to start at its smallest
# index (winding kept), sorted: equal lists mean the same triangles.
canon_txt() { tr -s ' \n' '\n\n' <"$1" | grep -v '^$' | paste -d' ' - - - | canon_rows; }
canon_obj() { grep '^f ' "$1" | cut -d' ' -f2- | canon_rows; }
canon_rows() {
    awk '{ a = $1; b = $2; c = $3;
           if (b + 0 < a + 0 && b + 0 <= c + 0) { t = a; a = b; b = c; c = t }
           else if (c + 0 < a + 0 && c + 0 < b + 0) { t = c; c = b; b = a; a = t }
           print a, b, c }' | sort
}

# Grid files in every format the grid command writes.
"$BIN" grid 30 20 --layout rowmajor -o grid.txt >/dev/null || fail "grid .txt"
"$BIN" grid 30 20 --layout striped --cache 16 -o grid.obj >/dev/null || fail "grid .obj"
"$BIN" grid 30 20 -o grid.ply >/dev/null || fail "grid .ply"
"$BIN" grid 30 20 -o grid.u16 >/dev/null || fail "grid .u16"
"$BIN" grid 30 20 -o grid.u32 >/dev/null || fail "grid .u32"
if [ "$(wc -c <grid.u16)" -eq $((30 * 20 * 6 * 2)) ] && [ "$(wc -c <grid.u32)" -eq $((30 * 20 * 6 * 4)) ]; then pass; else fail "grid raw sizes"; fi
"$BIN" grid 14 20 --layout optimal --cache 16 -o optimal.txt >/dev/null
a=$("$BIN" analyze -m fifo:16 --json optimal.txt | sed -n 's/.*"atvr": \([0-9.]*\).*/\1/p')
if [ "$a" = "1" ]; then pass; else fail "optimal 14x20 for fifo:16: ATVR $a"; fi

# Text: same triangles, fewer invocations.
for alg in tipsify forsyth auto; do
    "$BIN" optimize -a "$alg" grid.txt -o "opt-$alg.txt" >out.txt 2>err.txt || { fail "optimize $alg: $(cat err.txt)"; continue; }
    if [ "$(canon_txt grid.txt)" = "$(canon_txt "opt-$alg.txt")" ]; then pass; else fail "$alg lost or changed triangles"; fi
done
"$BIN" grid 30 20 -o shuffled-src.txt >/dev/null
before=$("$BIN" analyze -m generic --json grid.txt | num invocations)
after=$("$BIN" analyze -m generic --json opt-auto.txt | num invocations)
if [ "$after" -lt "$before" ]; then pass; else fail "auto on a grid: $before -> $after invocations"; fi

# OBJ: every non-face line kept as it was, the same triangles.
"$BIN" optimize -a auto grid.obj -o opt.obj >out.txt 2>err.txt || fail "optimize obj: $(cat err.txt)"
if [ "$(grep -v '^f ' grid.obj)" = "$(grep -v '^f ' opt.obj)" ]; then pass; else fail "obj: other lines changed"; fi
if [ "$(canon_obj grid.obj)" = "$(canon_obj opt.obj)" ]; then pass; else fail "obj: triangles changed"; fi

# OBJ with materials: faces stay in their run.
{
    echo "v 0 0 0"; echo "v 1 0 0"; echo "v 0 1 0"; echo "v 1 1 0"; echo "vt 0 0"; echo "vn 0 0 1"
    echo "usemtl a"; echo "f 1/1/1 2/1/1 3/1/1"; echo "f 2/1/1 4/1/1 3/1/1"
    echo "usemtl b"; echo "f 1 2 4"; echo "f 4 3 1"
} >mat.obj
"$BIN" optimize -a tipsify mat.obj -o mat-opt.obj >/dev/null 2>err.txt || fail "optimize mat.obj: $(cat err.txt)"
if [ "$(sed -n 7p mat-opt.obj)" = "usemtl a" ] && [ "$(sed -n '8,9p' mat-opt.obj | grep -c '/1/1')" -eq 2 ] &&
    [ "$(sed -n 10p mat-opt.obj)" = "usemtl b" ] && [ "$(sed -n '11,12p' mat-opt.obj | grep -c '/')" -eq 0 ]; then
    pass
else
    fail "materials: $(cat mat-opt.obj)"
fi

# PLY (ASCII): header and vertices kept, same triangles; --reorder-vertices keeps the count.
"$BIN" optimize -a forsyth grid.ply -o opt.ply >/dev/null 2>err.txt || fail "optimize ply: $(cat err.txt)"
if [ "$(sed -n '1,/end_header/p' grid.ply)" = "$(sed -n '1,/end_header/p' opt.ply)" ]; then pass; else fail "ply header changed"; fi
"$BIN" optimize -a auto --reorder-vertices grid.ply -o reordered.ply >/dev/null 2>err.txt || fail "reorder ply: $(cat err.txt)"
v1=$("$BIN" analyze -m generic --json grid.ply | num vertices)
v2=$("$BIN" analyze -m generic --json reordered.ply | num vertices)
if [ -n "$v2" ] && [ "$v1" = "$v2" ]; then pass; else fail "reordered ply: $v1 vs $v2 vertices"; fi
# the first triangle of a first-use renumbered buffer is 0 1 2
if [ "$(tail -n 1200 reordered.ply | head -n 1)" = "3 0 1 2" ]; then pass; else fail "reordered ply first face"; fi
# ... and its vertex records are the same records, in another order
if [ "$(sed -n '11,661p' grid.ply | sort)" = "$(sed -n '11,661p' reordered.ply | sort)" ]; then pass; else fail "reordered ply vertices"; fi

# Raw buffers.
for ext in u16 u32; do
    "$BIN" optimize -a tipsify "grid.$ext" -o "opt.$ext" >/dev/null 2>err.txt || fail "optimize $ext: $(cat err.txt)"
    if [ "$(wc -c <"grid.$ext")" = "$(wc -c <"opt.$ext")" ]; then pass; else fail "$ext size"; fi
done

# glTF through assimp.
cat >quad.gltf <<'JSON'
{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}], "buffers": [{"byteLength": 60, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAAAAAABAAIAAQADAAIA"}], "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12}], "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}, {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}]}
JSON
if "$BIN" optimize -a forsyth --reorder-vertices quad.gltf -o opt.gltf >/dev/null 2>err.txt; then
    p=$("$BIN" analyze --json -m generic opt.gltf | num primitives)
    if [ "$p" = "2" ]; then pass; else fail "gltf output: $p triangles"; fi
else
    fail "optimize gltf: $(cat err.txt)"
fi
# issue 17: analyze lists each primitive (the JSON contract), sums on top; the output keeps
# every key of the input (its JSON is the same but for the buffer's data: URI)
"$BIN" analyze --json -m fifo:3 quad.gltf >an.json 2>err.txt || fail "analyze gltf: $(cat err.txt)"
if grep -q '"draws": \[{"mesh": 0, "mesh_name": null, "primitive": 0, "mode": "triangles", "index_type": "u16", "indices": 6, "primitives": 2, "vertices": 4, "models": \[{"model": "fifo:3"' an.json \
    && [ "$(num indices <an.json)" = 6 ] && [ "$(num vertices <an.json)" = 4 ]; then
    pass
else
    fail "analyze gltf JSON: $(cat an.json)"
fi
if grep -q '"min":\[0,0,0\],"max":\[1,1,0\]' opt.gltf && grep -q '"scenes":\[{"nodes":\[0\]}\]' opt.gltf; then pass; else
    fail "optimize gltf changed the JSON: $(cat opt.gltf)"
fi
if "$BIN" analyze -t triangle-strip quad.gltf >/dev/null 2>err.txt; then fail "-t on glTF accepted"; else
    grep -q "does not apply to a glTF input" err.txt && pass || fail "-t on glTF: $(cat err.txt)"
fi

# Corpus: the acceptance command, and a strip PLY (converted to faces).
if [ -n "$CORPUS" ] && [ -r "$CORPUS/ogre.obj" ]; then
    "$BIN" optimize -a auto "$CORPUS/ogre.obj" -o ogre-optimized.obj >/dev/null 2>err.txt || fail "ogre: $(cat err.txt)"
    if [ "$(grep -c '^v' "$CORPUS/ogre.obj")" = "$(grep -c '^v' ogre-optimized.obj)" ] &&
        [ "$(grep -c '^f' "$CORPUS/ogre.obj")" = "$(grep -c '^f' ogre-optimized.obj)" ]; then pass; else fail "ogre counts"; fi
    b=$("$BIN" analyze -m nvidia-pascal --json "$CORPUS/ogre.obj" | num invocations)
    a=$("$BIN" analyze -m nvidia-pascal --json ogre-optimized.obj | num invocations)
    if [ "$a" -lt "$b" ]; then pass; else fail "ogre: $b -> $a"; fi
fi
if [ -n "$CORPUS" ] && [ -r "$CORPUS/igea.ply" ]; then
    "$BIN" optimize -a tipsify "$CORPUS/igea.ply" -o igea.ply >/dev/null 2>err.txt || fail "igea: $(cat err.txt)"
    t1=$("$BIN" analyze -m generic --json "$CORPUS/igea.ply" | num primitives)
    t2=$("$BIN" analyze -m generic --json igea.ply | num primitives)
    if [ -n "$t2" ] && [ "$t1" = "$t2" ]; then pass; else fail "igea: $t1 vs $t2 triangles"; fi
fi

# Bad usage: one line, exit 2, and no output file left behind.
expect_usage() {
    out=$1
    shift
    "$@" >out.txt 2>err.txt
    st=$?
    if [ "$st" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -e "$out" ]; then pass; else fail "$* -> $st: $(cat err.txt)"; fi
}
expect_usage x1.txt "$BIN" optimize -a bogus grid.txt -o x1.txt
expect_usage x2.obj "$BIN" optimize -a tipsify grid.txt -o x2.obj
expect_usage x3.txt "$BIN" optimize -a tipsify -t line-list grid.txt -o x3.txt
expect_usage x4.txt "$BIN" optimize -a tipsify -m intel grid.txt -o x4.txt
expect_usage x5.txt "$BIN" grid 0 10 -o x5.txt
expect_usage x6.u16 "$BIN" grid 300 300 -o x6.u16
# The overdraw options (issue 30): a threshold below 1, a lambda out of [0, 3], either for the
# wrong algorithm, and an explicit overdraw pass on input without positions.
expect_usage x8.obj "$BIN" optimize -a auto --overdraw-threshold 0.99 grid.obj -o x8.obj
expect_usage x8.obj "$BIN" optimize -a auto --overdraw-threshold nan grid.obj -o x8.obj
expect_usage x8.obj "$BIN" optimize -a auto --overdraw-threshold 1.05x grid.obj -o x8.obj
expect_usage x8.obj "$BIN" optimize -a tipsify --overdraw-lambda 4 grid.obj -o x8.obj
expect_usage x8.obj "$BIN" optimize -a tipsify --overdraw-threshold 1.1 grid.obj -o x8.obj
expect_usage x8.obj "$BIN" optimize -a auto --overdraw-lambda 0.7 grid.obj -o x8.obj
expect_usage x8.txt "$BIN" optimize -a auto --overdraw-threshold 1.1 grid.txt -o x8.txt
# With positions: tipsify's clusters sorted keep the triangles; auto at threshold 1 is the
# order without positions (an index buffer of the same faces).
"$BIN" optimize -a tipsify --overdraw-lambda 0.75 grid.obj -o od-tipsify.obj >/dev/null 2>err.txt || fail "tipsify lambda: $(cat err.txt)"
if [ "$(canon_obj grid.obj)" = "$(canon_obj od-tipsify.obj)" ]; then pass; else fail "tipsify lambda lost or changed triangles"; fi
"$BIN" optimize -a auto --overdraw-threshold 1 grid.obj -o od-1.obj >/dev/null 2>err.txt || fail "auto T=1: $(cat err.txt)"
grep '^f ' grid.obj | cut -d' ' -f2- | tr -s ' ' '\n' | awk '{ print $1 - 1 }' >grid-faces.txt
"$BIN" optimize -a auto grid-faces.txt -o od-plain.txt >/dev/null 2>err.txt || fail "auto faces: $(cat err.txt)"
if [ "$(grep '^f ' od-1.obj | cut -d' ' -f2- | tr -s ' ' '\n' | awk '{ print $1 - 1 }' | tr '\n' ' ')" = "$(tr -s ' \n' '  ' <od-plain.txt)" ]; then pass; else fail "auto T=1 differs from auto without positions"; fi
# A failing run leaves an existing output file as it was.
printf 'keep me\n' >existing.txt
"$BIN" optimize -a tipsify bad-missing.txt -o existing.txt >/dev/null 2>&1
if [ "$(cat existing.txt)" = "keep me" ] && [ -z "$(ls | grep 'existing.txt.tmp')" ]; then pass; else fail "existing output touched"; fi
printf '0 1 2 0 1\n' >bad.txt
"$BIN" optimize -a auto bad.txt -o x7.txt >out.txt 2>err.txt
if [ $? -eq 1 ] && [ ! -e x7.txt ] && [ "$(wc -l <err.txt)" -eq 1 ]; then pass; else fail "bad.txt: $(cat err.txt)"; fi

finish
