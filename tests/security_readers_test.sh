#!/bin/sh
# Hostile inputs to the mesh readers and the PLY rewriter (issue 14, items 3 to 6):
#  3. optimize --reorder-vertices on a PLY with unused vertices (trailing and in the middle)
#  4. headers the loader and the rewriter must read alike: tabs, CRLF, two face elements,
#     NUL and other control bytes, overlong words
#  5. index lists typed float or double: fractions, NaN, infinities refused with the place
#  6. tiny files with huge index values: quick, in little memory, correct output
# Expected results are worked out by hand or with awk here, never with gpucache itself.
# usage: security_readers_test.sh GPUCACHE_BINARY WORK_DIR [SANITIZED (0|1)]
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
SANITIZED=${3:-0}
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

# expect STATUS TEXT command...: the exit status, and for a failure exactly one line on
# stderr that contains TEXT.
expect() {
    want=$1 text=$2
    shift 2
    "$@" >out.txt 2>err.txt
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "$* -> exit $got, expected $want: $(head -c 300 err.txt)"
        return 1
    fi
    if [ "$want" -ne 0 ] && { [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -qF -- "$text" err.txt; }; then
        fail "$* -> expected one line containing '$text', got: $(head -c 300 err.txt)"
        return 1
    fi
    pass
}

# no_file PATH: a failed command left nothing at PATH (nor a temporary beside it).
no_file() {
    if [ -e "$1" ] || ls "$1".* >/dev/null 2>&1; then fail "$1 was left behind"; else pass; fi
}

# Triangles of an ASCII PLY (one vertex record per line, faces as fans) written as their
# corners' vertex records, each triangle rotated to start at its smallest record
# (winding kept), sorted: equal outputs mean the same triangles in space.
ply_triangles() {
    tr -d '\r' <"$1" | awk '
        !body && $1 == "element" { el = $2; if (el == "vertex") nv = $3 + 0; if (el == "face") nf = $3 + 0; next }
        !body && $1 == "end_header" { body = 1; next }
        !body { next }
        { $1 = $1 }
        nread < nv { rec[nread++] = $0; next }
        nf_read < nf {
            nf_read++
            for (i = 2; i < $1; i++) {
                a = rec[$2]; b = rec[$(i + 1)]; c = rec[$(i + 2)]
                if (b < a && b <= c) { t = a; a = b; b = c; c = t }
                else if (c < a && c < b) { t = c; c = b; b = a; a = t }
                print a " | " b " | " c
            }
        }' | sort
}

# The vertex records of an ASCII PLY, sorted.
ply_vertices() {
    tr -d '\r' <"$1" | awk '
        !body && $1 == "element" && $2 == "vertex" { nv = $3 + 0 }
        !body && $1 == "end_header" { body = 1; next }
        body && n < nv { $1 = $1; print; n++ }' | sort
}

# first_use: renumbers a stream of indices (one per line) by first use.
first_use() { awk '{ if (!($1 in id)) id[$1] = n++; print id[$1] }'; }

# limited command...: runs under a memory limit far below what a table sized by the
# largest index value needs (16 GB for 4000000000), and a time limit.
limited() {
    if [ "$SANITIZED" = 1 ]; then
        # AddressSanitizer reserves terabytes of address space, so no ulimit -v: each
        # allocation is capped instead, and a refused one returns NULL.
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=256:allocator_may_return_null=1" \
            timeout 120 "$@"
    else
        (ulimit -v 300000 && exec timeout 20 "$@")
    fi
}

HDR='ply\nformat ascii 1.0\nelement vertex %s\nproperty float x\nproperty float y\nproperty float z\nelement face %s\nproperty list uchar int vertex_indices\nend_header\n'
V6='0 0 0\n1 0 0\n0 1 0\n1 1 0\n5 5 5\n6 6 6\n'

# ---- 3. unused vertices and --reorder-vertices ------------------------------------------

# Vertices 4 and 5 are used by no face: the renumbering of the used ones must still
# cover every record of the file.
printf "$HDR${V6}3 3 1 0\n3 0 2 3\n" 6 2 >trailing.ply
for alg in tipsify forsyth auto; do
    rm -f out.ply
    expect 0 "" "$BIN" optimize -a "$alg" --reorder-vertices trailing.ply -o out.ply || continue
    if [ "$(ply_triangles trailing.ply)" = "$(ply_triangles out.ply)" ]; then pass; else fail "$alg: triangles changed"; fi
    if [ "$(ply_vertices trailing.ply)" = "$(ply_vertices out.ply)" ]; then pass; else fail "$alg: vertex records changed"; fi
    # the used vertices come first, numbered by first use; the unused two last
    faces=$(sed -n '/^3 /p' out.ply | cut -d' ' -f2- | tr ' ' '\n')
    if [ "$faces" = "$(printf '%s\n' "$faces" | first_use)" ]; then pass; else fail "$alg: not first-use order: $faces"; fi
    if [ "$(sed -n '14,15p' out.ply | tr '\n' ' ')" = "5 5 5 6 6 6 " ]; then pass; else fail "$alg: unused vertices not last"; fi
    "$BIN" analyze -m generic out.ply >/dev/null 2>err.txt && pass || fail "$alg: output does not load: $(cat err.txt)"
done
# An unused vertex in the middle, and a binary file of each byte order with unused
# trailing vertices (the records are copied by offset): the output must load with the
# same triangle and vertex counts.
printf "$HDR${V6}3 5 1 0\n3 0 2 5\n" 6 2 >middle.ply
expect 0 "" "$BIN" optimize -a tipsify --reorder-vertices middle.ply -o middle-out.ply &&
    if [ "$(ply_triangles middle.ply)" = "$(ply_triangles middle-out.ply)" ]; then pass; else fail "middle: triangles changed"; fi
for order in binary_little_endian binary_big_endian; do
    # vertices: one uchar each (values 20..25); faces: uchar 3, three uchar indices
    printf "ply\nformat $order 1.0\nelement vertex 6\nproperty uchar v\nelement face 2\nproperty list uchar uchar vertex_indices\nend_header\n\024\025\026\027\030\031\003\003\001\000\003\000\002\003" >"bin-$order.ply"
    rm -f out.ply
    expect 0 "" "$BIN" optimize -a tipsify --reorder-vertices "bin-$order.ply" -o out.ply || continue
    j=$("$BIN" analyze -m generic --json out.ply)
    if [ "$(printf '%s' "$j" | num primitives)" = 2 ] && [ "$(printf '%s' "$j" | num vertices)" = 4 ]; then pass; else fail "$order: $j"; fi
    # the header as the rewriter writes it (faces as int lists), then the six records:
    # all of 20..25 still there, the two unused ones (24, 25) last
    hdr=$(printf "ply\nformat $order 1.0\nelement vertex 6\nproperty uchar v\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n" | wc -c)
    recs=$(tail -c +$((hdr + 1)) out.ply | head -c 6 | od -An -tu1 | tr -s ' ' | sed 's/^ //; s/ $//')
    case "$recs" in
    *" 24 25") [ "$(printf '%s\n' $recs | sort -n | tr '\n' ' ')" = "20 21 22 23 24 25 " ] && pass || fail "$order: records $recs" ;;
    *) fail "$order: records $recs" ;;
    esac
done

# ---- 4. one header parser for the loader and the rewriter -------------------------------

# Tabs between words, CRLF line ends, and a quad that becomes two triangles: the
# rewriter must replace the face element it reads, whatever the spacing.
printf 'ply\r\nformat\tascii\t1.0\r\nelement\tvertex 4\r\nproperty float\tx\r\nproperty float y\r\nproperty float z\r\nelement\tface\t1\r\nproperty\tlist uchar int vertex_indices\r\nend_header\r\n0 0 0\r\n1 0 0\r\n1 1 0\r\n0 1 0\r\n4 0 1 2 3\r\n' >tabs.ply
rm -f out.ply
if expect 0 "" "$BIN" optimize -a tipsify tabs.ply -o out.ply; then
    if [ "$(ply_triangles tabs.ply)" = "$(ply_triangles out.ply)" ]; then pass; else fail "tabs: triangles changed"; fi
    if grep -q '^element face 2$' out.ply; then pass; else fail "tabs: face element not rewritten: $(head -12 out.ply)"; fi
fi
# Refused alike by the loader and the rewriter, with the line, and nothing written:
#   two face elements; a NUL in a comment or after a count; another control byte; a
#   word longer than a name may be; a count that overflows 64 bits.
printf "ply\nformat ascii 1.0\nelement vertex 6\nproperty float x\nproperty float y\nproperty float z\nelement face 2\nproperty list uchar int vertex_indices\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n${V6}3 0 1 2\n3 1 2 3\n3 2 3 0\n" >two-faces.ply
printf "ply\nformat ascii 1.0\ncomment made\000by hand\nelement vertex 6\nproperty float x\nproperty float y\nproperty float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n${V6}3 0 1 2\n3 1 2 3\n" >nul-comment.ply
printf "ply\nformat ascii 1.0\nelement vertex 6\nproperty float x\nproperty float y\nproperty float z\nelement face 2\000 junk\nproperty list uchar int vertex_indices\nend_header\n${V6}3 0 1 2\n3 1 2 3\n" >nul-count.ply
printf "ply\nformat ascii 1.0\nelement vertex 6\nproperty float x\nproperty float y\nproperty float z\nelement face 2\nproperty list uchar int vertex_indices\033\nend_header\n${V6}3 0 1 2\n3 1 2 3\n" >escape.ply
long=$(printf '%070d' 0 | tr 0 v)
printf "ply\nformat ascii 1.0\nelement vertex 6\nproperty float x\nproperty float y\nproperty float $long\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n${V6}3 0 1 2\n3 1 2 3\n" >long-word.ply
printf "ply\nformat ascii 1.0\nelement vertex 18446744073709551622\nproperty float x\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0\n1\n2\n3 0 1 2\n" >count-overflow.ply
for case in "two-faces.ply:9" "nul-comment.ply:3" "nul-count.ply:7" "escape.ply:8" "long-word.ply:6" "count-overflow.ply:3"; do
    f=${case%%:*}
    expect 1 "$case" "$BIN" analyze "$f"
    rm -f out.ply
    expect 1 "$case" "$BIN" optimize -a tipsify "$f" -o out.ply
    no_file out.ply
done

# ---- 5. non-integer index values --------------------------------------------------------

FHDR='ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar %s vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n'
printf "${FHDR}3 0.5 1 2\n" float >half.ply
printf "${FHDR}3 0 nan 2\n" float >nan.ply
printf "${FHDR}3 0 1 inf\n" double >inf.ply
printf "${FHDR}3 0 1 -1e300\n" double >tiny.ply
printf "${FHDR}3 0 1 1e300\n" double >huge.ply
printf "${FHDR}3 0 1 4294967296\n" int >int-range.ply
expect 1 "half.ply: element 'face' item 0 of 1: vertex index 0.5 is not an integer (line 13)" "$BIN" analyze half.ply
expect 1 "nan.ply: element 'face' item 0 of 1: vertex index nan is not an integer (line 13)" "$BIN" analyze nan.ply
expect 1 "inf.ply: element 'face' item 0 of 1: vertex index inf is not an integer (line 13)" "$BIN" analyze inf.ply
expect 1 "out of range [0, 3) (line 13)" "$BIN" analyze tiny.ply
expect 1 "out of range [0, 3) (line 13)" "$BIN" analyze huge.ply
expect 1 "int-range.ply:13: '4294967296' is out of range for a int" "$BIN" analyze int-range.ply
# whole numbers in a float list are indices like any other
printf "${FHDR}3 0.0 1 2e0\n" double >whole.ply
expect 0 "" "$BIN" analyze -m generic whole.ply && grep -q '3 indices, 1 primitives, 3 vertices' out.txt && pass || fail "whole.ply: $(cat out.txt)"
# Binary: a NaN (0x7fc00000) as the second index of a float list, little endian. The
# header is 171 bytes, the vertices 36, the list count 1, the first index 4: byte 212.
printf 'ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar float vertex_indices\nend_header\n' >bin-nan.ply
[ "$(wc -c <bin-nan.ply)" -eq 171 ] && pass || fail "bin-nan.ply header size"
printf '\000\000\000\000\000\000\000\000\000\000\000\000\000\000\200\077\000\000\000\000\000\000\000\000\000\000\000\000\000\000\200\077\000\000\000\000' >>bin-nan.ply
printf '\003\000\000\000\000\000\000\300\177\000\000\000\100' >>bin-nan.ply
expect 1 "bin-nan.ply: element 'face' item 0 of 1: vertex index nan is not an integer (byte 212)" "$BIN" analyze bin-nan.ply
# 1.5 (0x3fc00000) as the first index of a big-endian float list: the header is 168
# bytes, the vertices 36, the list count 1: byte 205.
printf 'ply\nformat binary_big_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar float vertex_indices\nend_header\n' >bin-half.ply
[ "$(wc -c <bin-half.ply)" -eq 168 ] && pass || fail "bin-half.ply header size"
z4='\000\000\000\000' one='\077\200\000\000'
printf "$z4$z4$z4$one$z4$z4$z4$one$z4" >>bin-half.ply
printf '\003\077\300\000\000\000\000\000\000\100\000\000\000' >>bin-half.ply
expect 1 "bin-half.ply: element 'face' item 0 of 1: vertex index 1.5 is not an integer (byte 205)" "$BIN" analyze bin-half.ply
# The other readers parse integers digit by digit and refuse the same values: guards.
printf '0 1 2.5\n' >frac.txt
expect 1 "frac.txt:1: '2.5' is not an index" "$BIN" analyze frac.txt
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2.5 3\n' >frac.obj
expect 1 "frac.obj:4" "$BIN" analyze frac.obj
printf '1.5\n' >state.txt
expect 1 "state.txt:1" "$BIN" analyze -m batch --state-changes state.txt grid:2x2
printf '{"cases": [{"topology": "triangle-list", "indices": [0, 1.5, 2], "invocations": 3}]}' >frac.json
expect 1 "frac.json: case 0: index 1" "$BIN" fit frac.json

# ---- 6. memory after the input, not after the largest value -----------------------------

# 24 bytes: the index 4000000000 among five small ones. A table indexed by value would
# take 16 GB; under a 300 MB limit the work must still be done, and right.
printf '\000\000\000\000\001\000\000\000\000\050\153\356\000\000\000\000\001\000\000\000\002\000\000\000' >huge.u32
[ "$(wc -c <huge.u32)" -eq 24 ] && pass || fail "huge.u32 size"
printf '0 1 4000000000\n0 1 2\n' >huge.txt
for f in huge.u32 huge.txt; do
    ext=${f#huge.}
    rm -f "plain.$ext" "reordered.$ext"
    expect 0 "" limited "$BIN" optimize -a tipsify "$f" -o "plain.$ext" || continue
    expect 0 "" limited "$BIN" optimize -a tipsify --reorder-vertices "$f" -o "reordered.$ext" || continue
    # the reordered file is the plain output (same triangle order) renumbered by first use
    if [ "$ext" = u32 ]; then
        plain=$(od -An -tu4 -v plain.u32 | tr -s ' ' '\n' | grep -v '^$')
        reordered=$(od -An -tu4 -v reordered.u32 | tr -s ' ' '\n' | grep -v '^$')
    else
        plain=$(tr -s ' ' '\n' <plain.txt | grep -v '^$')
        reordered=$(tr -s ' ' '\n' <reordered.txt | grep -v '^$')
    fi
    if printf '%s\n' "$plain" | grep -qx 4000000000 && [ "$(printf '%s\n' "$plain" | first_use)" = "$reordered" ]; then
        pass
    else
        fail "$f: reordered [$reordered] is not plain [$plain] renumbered"
    fi
done
for cmd in "analyze" "analyze --per-vertex pv.csv" "analyze --trace -m fifo:4" "introspect -m fifo:4" \
    "sweep --cache 4..5 -a tipsify,forsyth,auto,original --mesh"; do
    # shellcheck disable=SC2086
    expect 0 "" limited "$BIN" $cmd huge.txt
done
# A PLY that declares 4000000000 vertices without properties (no bytes each): the loader
# and the rewriter must neither allocate nor loop per declared vertex.
printf 'ply\nformat ascii 1.0\nelement vertex 4000000000\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n3 0 1 2\n' >many.ply
rm -f many-out.ply
if expect 0 "" limited "$BIN" optimize -a tipsify --reorder-vertices many.ply -o many-out.ply; then
    # ids above 2^31 must stay readable: the list type becomes uint
    if grep -q '^element vertex 4000000000$' many-out.ply && grep -q 'property list uchar uint vertex_indices' many-out.ply &&
        [ "$(tail -n 1 many-out.ply)" = "3 0 1 2" ]; then pass; else fail "many-out.ply: $(cat many-out.ply)"; fi
fi
# The same count with a property, in a 150-byte file: the header lies, and the reader
# runs into the end of the file instead of allocating for it.
printf 'ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nproperty uchar v\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n\001\002\003' >lies.ply
expect 1 "lies.ply: byte" limited "$BIN" optimize -a tipsify --reorder-vertices lies.ply -o lies-out.ply
no_file lies-out.ply

# fuzz_write's finding: vertex statements do not close a run of faces, and a face after
# them may use them (here by a relative index). The rewritten faces must come after every
# vertex they use: placed where the run's first face was, `f -1 2 3` became `f 6 2 3`
# before vertex 6 existed, and the output did not load. Hand-checked: the output keeps the
# 2 triangles and vertex 6 is defined before any face.
printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\ng b\nf 2 5 3\nv 3 3 3\nf -1 2 3\n# end\n' >interleaved.obj
rm -f interleaved-out.obj
for alg in tipsify forsyth auto; do
    if expect 0 "" "$BIN" optimize -a $alg interleaved.obj -o interleaved-out.obj; then
        expect 0 "triangle-list, 6 indices, 2 primitives" "$BIN" analyze -m fifo:4 interleaved-out.obj
        first_face=$(grep -n '^f ' interleaved-out.obj | head -n 1 | cut -d: -f1)
        sixth_vertex=$(grep -n '^v ' interleaved-out.obj | sed -n 6p | cut -d: -f1)
        if [ -n "$first_face" ] && [ -n "$sixth_vertex" ] && [ "$sixth_vertex" -lt "$first_face" ]; then pass; else
            fail "interleaved-out.obj ($alg): a face before the vertex it uses: $(cat interleaved-out.obj)"
        fi
    fi
done

# 7. what a file or its name says reaches the terminal without its control characters: an
#    escape sequence in a file name, and in a glTF mesh name and buffer URI, comes out as '?'
esc=$(printf '\033')
expect 1 "no?[31mfile.txt" "$BIN" analyze "$(printf 'no\033[31mfile.txt')"
if grep -q "$esc" err.txt; then fail "an escape byte in a file name reached stderr"; else pass; fi
printf '{"asset": {"version": "2.0"}, "buffers": [{"uri": "b\\u001b[2Jin.bin", "byteLength": 4}]}' >esc.gltf
expect 1 "" "$BIN" analyze esc.gltf
if grep -q "$esc" err.txt; then fail "an escape sequence from a glTF URI reached stderr: $(od -c err.txt | head -3)"; else pass; fi

finish
