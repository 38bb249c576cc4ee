#!/bin/sh
# Issue 16: optimize --reorder-vertices --remap MAP.u32 writes the old-to-new vertex map
# (one little-endian uint32 per input vertex, 0xFFFFFFFF for a vertex no triangle uses).
# Checked here with od and awk, independently of the library: the map turns the optimized
# list in the input's numbering (the same run without --reorder-vertices) into the written
# output index for index, it turns the input's triangles into the output's, and it numbers
# vertices in the output's first-use order. A bad --remap path fails before any work and
# writes nothing.
# usage: remap_test.sh GPUCACHE_BINARY WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

# values FILE: its indices, one a line (raw little-endian by extension, else text)
values() {
    case "$1" in
    *.u16) od -An -v -tu2 -w2 "$1" | tr -d ' ' ;;
    *.u32 | *.map) od -An -v -tu4 -w4 "$1" | tr -d ' ' ;;
    *) tr -s ' \t\n' '\n\n\n' <"$1" | grep -v '^$' ;;
    esac
}
# canon: triangles (3 values a line) rotated to start at the smallest, sorted
canon() {
    paste -d' ' - - - | awk '{ a = $1; b = $2; c = $3;
        if (b + 0 < a + 0 && b + 0 <= c + 0) { t = a; a = b; b = c; c = t }
        else if (c + 0 < a + 0 && c + 0 < b + 0) { t = c; c = b; b = a; a = t }
        print a, b, c }' | sort
}
# maps_exactly MAP.v PLAIN.v OUT.v: map[plain[i]] = out[i] for every i (values one a line)
maps_exactly() {
    awk 'FILENAME == ARGV[1] { m[NR - 1] = $1; next }
         FILENAME == ARGV[2] { p[FNR] = $1; n = FNR; next }
         { if (m[p[FNR]] != $1) bad++; k = FNR }
         END { exit !(bad == 0 && k == n && n > 0) }' "$1" "$2" "$3"
}
# check INPUT PLAIN OUT MAP: the map against the input, the plain optimized list and the output
check() {
    in=$1 plain=$2 out=$3 map=$4
    values "$map" >map.v
    values "$in" >in.v
    values "$plain" >plain.v
    values "$out" >out.v
    # one entry per input vertex: the largest index + 1
    n_map=$(wc -l <map.v)
    n_in=$(sort -n in.v | tail -n 1)
    if [ "$n_map" -eq $((n_in + 1)) ]; then pass; else fail "$map: $n_map entries for largest index $n_in"; fi
    # index for index: map[plain[i]] = out[i]
    if maps_exactly map.v plain.v out.v; then
        pass
    else
        fail "$map: map[plain] is not the output $out"
    fi
    # the input's triangles under the map are the output's
    awk 'FILENAME == ARGV[1] { m[NR - 1] = $1; next } { print m[$1] }' map.v in.v | canon >mapped.t
    canon <out.v >out.t
    if cmp -s mapped.t out.t; then pass; else fail "$map: the mapped input triangles are not the output's"; fi
    # used vertices numbered 0..k-1 in the output's first-use order, unused ones 0xFFFFFFFF
    if awk 'FILENAME == ARGV[1] { if ($1 != 4294967295) { used++; if (seen[$1]++) bad++ } else unused++; next }
            !($1 in first) { first[$1] = 1; if ($1 != next_id++) bad++ }
            END { exit !(bad == 0 && next_id == used) }' map.v out.v; then
        pass
    else
        fail "$map: not the first-use numbering of the output"
    fi
}

# Grids in every index-buffer format, shuffled so that renumbering moves vertices; a text
# file with every other vertex unused (values doubled).
"$BIN" grid 30 20 --layout rowmajor -o grid.txt >/dev/null || fail "grid"
awk '{ print $3, $1, $2 }' grid.txt | awk 'BEGIN { srand(7) } { print rand(), $0 }' | sort -n | cut -d' ' -f2- >shuffled.txt
awk '{ print 2 * $1, 2 * $2, 2 * $3 }' shuffled.txt >gaps.idx
"$BIN" optimize -a forsyth shuffled.txt -o s16.txt >/dev/null # a text copy, for the raw files below
# raw little-endian bytes through printf's octal escapes (awk cannot print a NUL everywhere)
printf "$(values s16.txt | awk '{ printf "\\%03o\\%03o", $1 % 256, int($1 / 256) }')" >shuffled.u16
printf "$(values s16.txt | awk '{ printf "\\%03o\\%03o\\000\\000", $1 % 256, int($1 / 256) }')" >shuffled.u32
if [ "$(values shuffled.u32)" = "$(values s16.txt)" ] && [ "$(values shuffled.u16)" = "$(values s16.txt)" ]; then
    pass
else
    fail "raw copies of the shuffled grid"
fi
for in in shuffled.txt gaps.idx shuffled.u16 shuffled.u32; do
    ext=${in##*.}
    for alg in auto tipsify; do
        rm -f map.u32
        "$BIN" optimize -a $alg "$in" -o plain.$ext >/dev/null 2>err.txt || fail "optimize $alg $in: $(cat err.txt)"
        "$BIN" optimize -a $alg --reorder-vertices --remap map.u32 "$in" -o out.$ext >out.txt 2>err.txt ||
            fail "optimize $alg --remap $in: $(cat err.txt)"
        check "$in" plain.$ext out.$ext map.u32
    done
done
# the doubled values leave every odd vertex unused
"$BIN" optimize -a auto --reorder-vertices --remap gaps.map gaps.idx -o gaps-out.idx >/dev/null
odd=$(values gaps.map | awk 'NR % 2 == 0 && $1 != 4294967295' | wc -l)
even=$(values gaps.map | awk 'NR % 2 == 1 && $1 == 4294967295' | wc -l)
if [ "$odd" -eq 0 ] && [ "$even" -eq 0 ]; then pass; else fail "gaps: $odd odd vertices mapped, $even even ones not"; fi
# the check catches a wrong map: two used entries swapped
values gaps.map | awk '$1 != 4294967295 { if (!a) a = NR; else if (!b) b = NR } { v[NR] = $1 }
    END { t = v[a]; v[a] = v[b]; v[b] = t; for (i = 1; i <= NR; ++i) print v[i] }' >swapped.v
"$BIN" optimize -a auto gaps.idx -o gaps-plain.idx >/dev/null
values gaps-plain.idx >gp.v
values gaps-out.idx >go.v
values gaps.map >gm.v
if maps_exactly gm.v gp.v go.v && ! maps_exactly swapped.v gp.v go.v; then pass; else fail "the map check itself"; fi
# standard input (text) too
"$BIN" optimize -a auto shuffled.txt -o plain.txt >/dev/null
"$BIN" optimize -a auto --reorder-vertices --remap stdin.map - -o stdin.txt <shuffled.txt >/dev/null 2>err.txt ||
    fail "--remap with standard input: $(cat err.txt)"
check shuffled.txt plain.txt stdin.txt stdin.map
# the map replaces an existing file whole
printf 'old' >existing.map
"$BIN" optimize -a auto --reorder-vertices --remap existing.map shuffled.txt -o e.txt >/dev/null
if cmp -s existing.map stdin.map; then pass; else fail "an existing map file was not replaced by the map"; fi

# Bad --remap: exit status, one line naming the path, nothing written, and found before the
# input is even read (a malformed input would otherwise be reported first).
printf '\001\002\003\004\005' >bad.u32
"$BIN" grid 4 4 -o mesh.obj >/dev/null
mkdir folder
printf '0 1 2\n2 1 4000000\n' >sparse.txt
# refused STATUS TEXT ARGS...: optimize ARGS fails with STATUS and one line holding TEXT
refused() {
    want=$1 text=$2
    shift 2
    rm -f o.u32 o.txt o.obj nodir.map
    "$BIN" optimize "$@" >out.txt 2>err.txt
    got=$?
    if [ "$got" -eq "$want" ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -qF -- "$text" err.txt && [ ! -s out.txt ] &&
        [ ! -e o.u32 ] && [ ! -e o.txt ] && [ ! -e o.obj ] && [ -z "$(ls | grep 'tmp-')" ]; then
        pass
    else
        fail "optimize $*: exit $got, expected $want and one line with '$text': $(head -c 300 err.txt)"
    fi
}
refused 1 "no/such/folder/m.map: cannot create: the folder no/such/folder does not exist" \
    -a auto --reorder-vertices --remap no/such/folder/m.map bad.u32 -o o.u32
refused 1 "folder: cannot create: it is a folder" -a auto --reorder-vertices --remap folder bad.u32 -o o.u32
refused 2 "shuffled.u32: is the input shuffled.u32" -a auto --reorder-vertices --remap shuffled.u32 shuffled.u32 -o o.u32
refused 2 "./shuffled.u32: is the input shuffled.u32" -a auto --reorder-vertices --remap ./shuffled.u32 shuffled.u32 -o o.u32
refused 2 "--remap o.u32: is the output (-o) too" -a auto --reorder-vertices --remap o.u32 bad.u32 -o o.u32
refused 2 "--remap ./o.u32: is the output (-o) too" -a auto --reorder-vertices --remap ./o.u32 bad.u32 -o o.u32
refused 2 "--remap ../${WORK##*/}/o.u32: is the output (-o) too" -a auto --reorder-vertices --remap "../${WORK##*/}/o.u32" \
    bad.u32 -o o.u32
refused 2 "--remap writes the map of renumbered vertices: it needs --reorder-vertices" -a auto --remap m.map bad.u32 -o o.u32
refused 2 "mesh.obj: a vertex map is written for index buffers (.txt, .idx, .u16, .u32), not for .obj files" \
    -a auto --reorder-vertices --remap m.map mesh.obj -o o.obj
refused 1 "sparse.txt: index values up to 4000000 in 6 indices" -a auto --reorder-vertices --remap m.map sparse.txt -o o.txt
if [ ! -e m.map ] && [ ! -e no ] && [ "$(ls folder)" = "" ]; then pass; else fail "a refused run wrote a map"; fi
finish
