#!/bin/sh
# Issue 29 item 5: the tables line up. `gpucache analyze` on a mesh prints one row per preset;
# the numeric columns of every row must end where the header's words end, including the rows
# whose names are longer than the old 32-character column (cure-warp, cure-block, the
# radeonsi presets), and the name column is exactly as wide as the longest name (at least
# 32). The same for optimize's before/after table, demo's table (a layout column first) and
# the presets of `gpucache models` ("=" and the spec in one column on every row).
# usage: table_align_test.sh GPUCACHE MESH WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MESH=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

# aligned FILE K: the lines of FILE from its header (line 1) on, blank lines skipped; the
# last K fields of each line end at the same columns as the header's last K fields. Prints
# the first line that does not, else nothing.
aligned() {
    awk -v k="$2" '
    function ends(s,    n, i, pos, out, rest, m) {
        # the end column of each whitespace-separated field, space-joined
        out = ""; pos = 0; rest = s
        while (match(rest, /[^ ]+/)) {
            pos += RSTART + RLENGTH - 1
            out = out " " pos
            rest = substr(rest, RSTART + RLENGTH)
        }
        n = split(out, e, " ")
        m = ""
        for (i = n - k + 1; i <= n; ++i) m = m " " e[i]
        return m
    }
    NF == 0 { next }
    NR == 1 { want = ends($0); next }
    { if (ends($0) != want) { print NR ": " $0; exit } }' "$1"
}

# --- analyze: line 1 is the input's summary; the table follows, up to a blank line (the
# meshlet presets' lines come after it)
"$BIN" analyze "$MESH" >analyze.txt || fail "analyze $MESH"
tail -n +2 analyze.txt | sed '/^$/,$d' >table.txt
grep -q '^meshlets (this order scanned' analyze.txt && pass || fail "analyze: no meshlet lines after the table"
[ "$(wc -l <table.txt)" -ge 16 ] && pass || fail "analyze printed $(wc -l <table.txt) table lines"
for name in 'cure-warp (batch-all:indices=96,vertices=32)' 'cure-block (batch-all:indices=1023,vertices=256)' \
    'radeonsi-polaris (ati:lru=30,vertices=64,reset=384)' 'radeonsi-polaris-tess-odd (ati:lru=14,vertices=64,reset=384)'; do
    grep -qF "$name " table.txt && pass || fail "no row for $name"
done
bad=$(aligned table.txt 4)
[ -z "$bad" ] && pass || fail "analyze: a row does not line up with the header: $bad"
# the name column: as wide as the longest name (everything before the 4 numbers), at least
# 32: the header's "invocations" (12 wide, right-aligned) then ends at width + 1 + 12
longest=$(tail -n +2 table.txt | sed -E 's/ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+$//' | awk '{ if (length($0) > n) n = length($0) } END { print n }')
[ "$longest" -eq 60 ] && pass || fail "the longest name is $longest characters, not 60 (radeonsi-polaris-tess-odd's)"
width=$longest; [ "$width" -lt 32 ] && width=32
end=$(head -1 table.txt | awk '{ print index($0, "invocations") + length("invocations") - 1 }')
[ "$end" -eq $((width + 13)) ] && pass || fail "invocations ends at column $end, not $((width + 13))"
# every row's name starts at column 1 and is followed by at least one space before the numbers
! grep -q '^ ' table.txt && pass || fail "a row starts with a space"

# --- optimize: the before/after table (line 1: what was done)
"$BIN" optimize -a auto "$MESH" -o out.obj >optimize.txt || fail "optimize"
tail -n +2 optimize.txt >opt-table.txt
grep -qF 'radeonsi-polaris-tess-odd (ati:lru=14,vertices=64,reset=384) ' opt-table.txt && pass ||
    fail "optimize: no radeonsi-polaris-tess-odd row"
bad=$(aligned opt-table.txt 5)
[ -z "$bad" ] && pass || fail "optimize: a row does not line up with the header: $bad"

# --- demo: the header after two lines of text and a blank line; groups separated by blank lines
"$BIN" demo >demo.txt || fail "demo"
sed -n '/^layout /,/^ATVR 1.0/p' demo.txt | grep -v '^ATVR 1.0' >demo-table.txt
[ "$(grep -c 'cure-warp (batch-all:indices=96,vertices=32)' demo-table.txt)" -eq 4 ] && pass ||
    fail "demo: not one cure-warp row per layout"
bad=$(aligned demo-table.txt 4)
[ -z "$bad" ] && pass || fail "demo: a row does not line up with the header: $bad"

# --- models: the presets, "NAME = SPEC SOURCE": "=" and the spec start at one column each
"$BIN" models >models.txt || fail "models"
sed -n '/^presets:/,$p' models.txt | tail -n +2 >presets.txt
[ "$(wc -l <presets.txt)" -ge 15 ] && pass || fail "models lists $(wc -l <presets.txt) presets"
eq=$(awk '{ print index($0, " = ") }' presets.txt | sort -u | wc -l)
[ "$eq" -eq 1 ] && pass || fail "models: the '=' of the presets is in $eq different columns"
spec=$(awk '{ i = index($0, " = "); r = substr($0, i + 3); match(r, /[^ ]/); print i + 3 + RSTART - 1 }' presets.txt | sort -u | wc -l)
[ "$spec" -eq 1 ] && pass || fail "models: the specs start in $spec different columns"
# the source column starts after the longest spec (batch-all:indices=1023,vertices=256) and a space
src=$(awk '{ n = split($0, f, / +/); print index($0, " " f[5] " ") }' presets.txt | sort -u | wc -l)
[ "$src" -eq 1 ] && pass || fail "models: the sources start in $src different columns"

finish
