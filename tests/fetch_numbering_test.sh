#!/bin/sh
# Issue 30: optimize --reorder-vertices numbers the output's vertices for the vertex fetch
# model (meshopt:32 by default, the fetch optimize reports) where the format carries the
# numbering (PLY, index buffers), and keeps first use for OBJ and for value-keyed targets.
# Checked independently of the library: corpus meshes converted to PLY and to text indices
# with awk; the bytes of meshopt_analyzeVertexFetch (every index reference, a direct-mapped
# 128 KiB cache of 64-byte lines, 32-byte vertices) computed by an awk transcription of its
# rule, on the written file and on the same triangles renumbered by first use (awk too):
#   - the written file fetches no more than first use, and strictly less on stanford-bunny;
#   - `analyze --fetch meshopt:32` of the written file and optimize's JSON "fetch" "after"
#     are both the awk figure;
#   - the PLY's triangles, as triples of positions (winding kept), are the input's;
#   - with a value-keyed target (llvmpipe) and for an OBJ output, first use is kept.
# Skipped (77) without the corpus.
# usage: fetch_numbering_test.sh GPUCACHE_BINARY WORK_DIR CORPUS_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
CORPUS=$3
[ -f "$CORPUS/stanford-bunny.obj" ] || { echo "skipped: no corpus at $CORPUS"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

# to_ply OBJ: an ASCII PLY of its positions and faces (polygons as fans)
to_ply() {
    awk '/^v / { vx[++nv] = $2 " " $3 " " $4; next }
        /^f / { k = 0; for (i = 2; i <= NF; ++i) { split($i, p, "/"); x = p[1] + 0; if (x < 0) x = nv + 1 + x; c[++k] = x - 1 }
                for (i = 3; i <= k; ++i) f[++nf] = c[1] " " c[i - 1] " " c[i]; next }
        END { print "ply"; print "format ascii 1.0"; print "element vertex " nv
              print "property float x"; print "property float y"; print "property float z"
              print "element face " nf; print "property list uchar int vertex_indices"; print "end_header"
              for (i = 1; i <= nv; ++i) print vx[i]; for (i = 1; i <= nf; ++i) print "3 " f[i] }' "$1"
}
# ply_indices PLY: its face indices, one a line (triangles)
ply_indices() {
    awk 'body && nv-- > 0 { next } body { for (i = 2; i <= NF; ++i) print $i; next }
         /^element vertex / { nv = $3 } /^end_header/ { body = 1 }' "$1"
}
# ply_triangles PLY: each triangle as its three positions, rotated to start at the smallest, sorted
ply_triangles() {
    awk 'body && nv > 0 { p[n++] = $1 "," $2 "," $3; nv--; next }
         body { a = p[$2]; b = p[$3]; c = p[$4]
                if (b < a && b <= c) { t = a; a = b; b = c; c = t } else if (c < a && c < b) { t = c; c = b; b = a; a = t }
                print a, b, c; next }
         /^element vertex / { nv = $3 } /^end_header/ { body = 1 }' "$1" | sort
}
# first_use: indices (one a line) renumbered in order of first use
first_use() { awk '!($1 in m) { m[$1] = k++ } { print m[$1] }'; }
# meshopt_bytes: meshopt_analyzeVertexFetch's bytes for 32-byte vertices (indices one a line)
meshopt_bytes() {
    awk '{ s = $1 * 32; for (t = int(s / 64); t < int((s + 32 + 63) / 64); ++t) { l = t % 2048
             if (!(l in c) || c[l] != t) { bytes += 64; c[l] = t } } }
         END { print bytes + 0 }'
}
# after_bytes JSON: optimize's "fetch" "after" bytes; fetch_bytes JSON: analyze's
after_bytes() { sed -n 's/.*"after": {"bytes": \([0-9]*\).*/\1/p' "$1"; }
fetch_bytes() { sed -n 's/.*"fetch": {"spec": "meshopt:32", "bytes": \([0-9]*\).*/\1/p' "$1"; }

for mesh in stanford-bunny beetle-alt; do
    to_ply "$CORPUS/$mesh.obj" >"$mesh.ply"
    ply_indices "$mesh.ply" >"$mesh.in.v"
    if ! "$BIN" optimize -a auto --reorder-vertices --json "$mesh.ply" -o "$mesh-out.ply" >"$mesh.json" 2>err.txt; then
        fail "$mesh: optimize: $(cat err.txt)"
        continue
    fi
    ply_indices "$mesh-out.ply" >out.v
    first_use <out.v >first.v
    written=$(meshopt_bytes <out.v)
    first=$(meshopt_bytes <first.v)
    echo "$mesh: meshopt:32 bytes, written $written, first use $first"
    if [ "$written" -le "$first" ]; then pass; else fail "$mesh: $written bytes written, $first with first use"; fi
    if [ "$mesh" = stanford-bunny ]; then
        if [ "$written" -lt "$first" ]; then pass; else fail "$mesh: $written bytes, not below first use's $first"; fi
        # not first use: the numbering was chosen for the fetch model
        if cmp -s out.v first.v; then fail "$mesh: the output is numbered by first use"; else pass; fi
    fi
    "$BIN" analyze --fetch meshopt:32 --json "$mesh-out.ply" >analyze.json 2>err.txt || fail "$mesh: analyze: $(cat err.txt)"
    analyzed=$(fetch_bytes analyze.json)
    reported=$(after_bytes "$mesh.json")
    if [ "$analyzed" = "$written" ]; then pass; else fail "$mesh: analyze --fetch says $analyzed, awk $written"; fi
    if [ "$reported" = "$written" ]; then pass; else fail "$mesh: optimize's fetch after $reported, the file $written"; fi
    ply_triangles "$mesh.ply" >in.t
    ply_triangles "$mesh-out.ply" >out.t
    if [ -s in.t ] && cmp -s in.t out.t; then pass; else fail "$mesh: the output's triangles are not the input's"; fi
done

# Index buffers carry the numbering too: the same list as text indices.
paste -d' ' - - - <stanford-bunny.in.v >bunny.txt
if "$BIN" optimize -a auto --reorder-vertices --json bunny.txt -o bunny-out.txt >bunny.json 2>err.txt; then
    tr -s ' ' '\n' <bunny-out.txt | grep -v '^$' >out.v
    first_use <out.v >first.v
    written=$(meshopt_bytes <out.v)
    first=$(meshopt_bytes <first.v)
    if [ "$written" -lt "$first" ]; then pass; else fail "bunny.txt: $written bytes, not below first use's $first"; fi
    if [ "$(after_bytes bunny.json)" = "$written" ]; then pass; else fail "bunny.txt: fetch after $(after_bytes bunny.json), the file $written"; fi
else
    fail "bunny.txt: optimize: $(cat err.txt)"
fi

# A value-keyed target (llvmpipe): auto chose its order on first-use numbers, which stay.
if "$BIN" optimize -a auto -m llvmpipe --reorder-vertices --json stanford-bunny.ply -o llvm.ply >llvm.json 2>err.txt; then
    ply_indices llvm.ply >out.v
    first_use <out.v >first.v
    if cmp -s out.v first.v; then pass; else fail "-m llvmpipe: the output is not numbered by first use"; fi
    if [ "$(after_bytes llvm.json)" = "$(meshopt_bytes <out.v)" ]; then pass; else fail "-m llvmpipe: fetch after"; fi
else
    fail "-m llvmpipe: optimize: $(cat err.txt)"
fi

# --fetch meshopt:16: the numbering is chosen for it, and reported for it.
if "$BIN" optimize -a auto --reorder-vertices --fetch meshopt:16 --json stanford-bunny.ply -o m16.ply >m16.json 2>err.txt; then
    "$BIN" analyze --fetch meshopt:16 --json m16.ply >analyze.json
    a16=$(sed -n 's/.*"fetch": {"spec": "meshopt:16", "bytes": \([0-9]*\).*/\1/p' analyze.json)
    if [ -n "$a16" ] && [ "$(after_bytes m16.json)" = "$a16" ]; then pass; else fail "--fetch meshopt:16: fetch after $(after_bytes m16.json), analyze $a16"; fi
else
    fail "--fetch meshopt:16: optimize: $(cat err.txt)"
fi

# An OBJ output: its reader numbers vertices by first use whatever the file lists; the
# report's fetch after is first use's.
if "$BIN" optimize -a auto --reorder-vertices --json "$CORPUS/stanford-bunny.obj" -o bunny-out.obj >obj.json 2>err.txt; then
    "$BIN" analyze --fetch meshopt:32 --json bunny-out.obj >analyze.json
    if [ "$(after_bytes obj.json)" = "$(fetch_bytes analyze.json)" ]; then pass; else fail "OBJ: fetch after $(after_bytes obj.json), analyze $(fetch_bytes analyze.json)"; fi
else
    fail "OBJ: optimize: $(cat err.txt)"
fi
finish
