#!/bin/sh
# Issue 34, the writing half: the files a glTF output consists of (F1, F13), outputs
# checked against every file a glTF input names (F2), signals during the copies (F3),
# `-q` and the glTF notes (F16), GLB to standard output (F15). Every refusal: one line,
# a non-zero exit, nothing written, no folder or temporary left behind.
# usage: security_gltf_write_test.sh GPUCACHE_BINARY WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
umask 022

# expect STATUS PATTERN command...: the exit status, exactly one stderr line (on failure)
# holding PATTERN.
expect() {
    want=$1 pattern=$2
    shift 2
    "$@" >out.txt 2>err.txt
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "$* -> exit $got, expected $want: $(head -c 300 err.txt)"
        return 1
    fi
    if [ "$want" -ne 0 ] && { [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -q -- "$pattern" err.txt; }; then
        fail "$* -> expected one line with '$pattern', got: $(head -c 300 err.txt)"
        return 1
    fi
    pass
}
# refused STATUS PATTERN command...: like expect with a non-zero STATUS (any when 0)
refused() {
    want=$1 pattern=$2
    shift 2
    "$@" >out.txt 2>err.txt
    got=$?
    if [ "$got" -eq 0 ] || { [ "$want" -ne 0 ] && [ "$got" -ne "$want" ]; }; then
        fail "$* -> exit $got, expected a refusal ($want): $(head -c 300 err.txt)"
        return 1
    fi
    if [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -q -- "$pattern" err.txt; then
        fail "$* -> expected one line with '$pattern', got: $(head -c 300 err.txt)"
        return 1
    fi
    pass
}
# same FILE TEXT: FILE holds exactly TEXT (and a newline)
same() {
    if [ "$(cat "$1" 2>/dev/null)" = "$2" ]; then pass; else fail "$1 changed: $(head -c 100 "$1" 2>&1)"; fi
}
# nothing_in DIR WHAT: DIR holds nothing but the files named after WHAT... (a find listing)
listing() { (cd "$1" && find . | LC_ALL=C sort | tr '\n' ' '); }

# The buffer: 4 positions (48 bytes) and 6 u16 indices, two triangles (0 1 2, 1 3 2).
BUF=AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAAAAAABAAIAAQADAAIA
# gltf DIR BUFFER_URI IMAGE_URI...: DIR/m.gltf naming BUFFER_URI (written from BUF) and the images
gltf() {
    dir=$1 buri=$2
    shift 2
    mkdir -p "$dir"
    images=""
    for u in "$@"; do images="$images${images:+, }{\"uri\": \"$u\"}"; done
    mkdir -p "$dir/$(dirname "$buri")"
    echo "$BUF" | base64 -d >"$dir/$buri"
    cat >"$dir/m.gltf" <<EOF
{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}], "buffers": [{"byteLength": 60, "uri": "$buri"}${XB:+, {\"byteLength\": 60, \"uri\": \"$XB\"\}}], "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12}], "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}, {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}], "images": [$images]}
EOF
}
# le32 N: N as 4 little-endian bytes
le32() { printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"; }
# glb FILE [IMAGE_URI]: a GLB holding BUF in its BIN chunk (and naming an image file)
glb() {
    img=""
    [ $# -gt 1 ] && img=", \"images\": [{\"uri\": \"$2\"}]"
    json='{"asset": {"version": "2.0"}, "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}], "buffers": [{"byteLength": 60}], "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12}], "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}, {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}]'"$img"'}'
    n=${#json}
    pad=$(((4 - n % 4) % 4))
    { printf 'glTF'; le32 2; le32 $((12 + 8 + n + pad + 8 + 60)); le32 $((n + pad)); printf 'JSON%s%*s' "$json" $pad ''
      le32 60; printf 'BIN\000'; echo "$BUF" | base64 -d; } >"$1"
}
no_temps() {
    left=$(find . -name '*.tmp-*' | head -5)
    if [ -z "$left" ]; then pass; else fail "$1: temporaries left: $left"; fi
}

# --- F1: a hostile glTF names the user's dot files and files beside the output.
gltf evil b.bin .bashrc
echo evil >evil/.bashrc
mkdir -p home && echo mine >home/.bashrc
refused 1 "images\[0\]" "$BIN" optimize -a tipsify evil/m.gltf -o home/m.gltf
same home/.bashrc mine
if [ "$(listing home)" = ". ./.bashrc " ]; then pass; else fail "F1 .bashrc: home holds $(listing home)"; fi

gltf evil2 b.bin .ssh/authorized_keys
mkdir -p evil2/.ssh && echo evil >evil2/.ssh/authorized_keys
mkdir -p home2/.ssh && echo mine >home2/.ssh/authorized_keys
refused 1 "images\[0\]" "$BIN" optimize -a tipsify evil2/m.gltf -o home2/m.gltf
same home2/.ssh/authorized_keys mine
if [ "$(listing home2)" = ". ./.ssh ./.ssh/authorized_keys " ]; then pass; else fail "F1 .ssh: home2 holds $(listing home2)"; fi

# the same names percent-encoded or behind "./"
for u in %2Ebashrc ./.bashrc sub/%2E%2E/.bashrc; do
    rm -rf evil8 && gltf evil8 b.bin "$u"
    echo evil >evil8/.bashrc
    rm -rf home8 && mkdir -p home8 && echo mine >home8/.bashrc
    refused 0 "images\[0\]" "$BIN" optimize -a tipsify evil8/m.gltf -o home8/m.gltf
    same home8/.bashrc mine
    if [ "$(listing home8)" = ". ./.bashrc " ]; then pass; else fail "F1 $u: home8 holds $(listing home8)"; fi
done

# one name as a file and as a folder: refused before anything is written (the reader
# refuses the image 'tex', a folder in the input, first; the output set would refuse the
# pair if it got that far: either one line)
gltf evil9 b.bin tex/a.png tex
mkdir -p evil9/tex && echo image >evil9/tex/a.png
mkdir -p home9
refused 1 "a file and a folder\|not a regular file" "$BIN" optimize -a tipsify evil9/m.gltf -o home9/m.gltf
if [ "$(listing home9)" = ". " ]; then pass; else fail "F1: file and folder: home9 holds $(listing home9)"; fi

# an unchanged buffer (no accessor uses buffers[1]) named like a dot file
XB=.profile gltf evil3 b.bin
echo "$BUF" | base64 -d >evil3/.profile
mkdir -p home3 && echo mine >home3/.profile
refused 1 "buffers\[1\]" "$BIN" optimize -a tipsify evil3/m.gltf -o home3/m.gltf
same home3/.profile mine

# an existing file that is not this command's own output, under an ordinary name
gltf evil4 b.bin notes.txt
echo evil >evil4/notes.txt
mkdir -p home4 && echo mine >home4/notes.txt
refused 1 "exists" "$BIN" optimize -a tipsify evil4/m.gltf -o home4/m.gltf
same home4/notes.txt mine
[ ! -e home4/m.gltf ] && [ ! -e home4/b.bin ] && pass || fail "F1: home4 got files: $(listing home4)"

# a symlinked folder in the output's folder leads outside it
gltf evil5 b.bin tex/a.png
mkdir -p evil5/tex && echo evil >evil5/tex/a.png
mkdir -p home5 victim5 && ln -s ../victim5 home5/tex
refused 1 "tex" "$BIN" optimize -a tipsify evil5/m.gltf -o home5/m.gltf
if [ "$(listing victim5)" = ". " ] && [ ! -e home5/m.gltf ]; then pass; else fail "F1: symlinked folder followed: $(listing victim5)"; fi

# a good set: copied, then the same command again (its own earlier output, byte for byte)
gltf good b.bin tex/a.png
mkdir -p good/tex && echo image >good/tex/a.png
mkdir -p out
expect 0 "" "$BIN" optimize -a tipsify good/m.gltf -o out/m.gltf
p=$("$BIN" analyze --json -m generic out/m.gltf | num primitives)
if cmp -s good/tex/a.png out/tex/a.png && [ "$p" = 2 ]; then pass; else
    fail "F1: the good set: $(listing out) $(cat err.txt)"
fi
expect 0 "" "$BIN" optimize -a tipsify good/m.gltf -o out/m.gltf
if cmp -s good/tex/a.png out/tex/a.png; then pass; else fail "F1: the good set again"; fi
no_temps "F1"

# --- F13: a failed set leaves no folder it created and says nothing was copied.
gltf evil6 b.bin tex/a.png tex2/d.png
mkdir -p evil6/tex evil6/tex2/d.png && echo image >evil6/tex/a.png
mkdir -p home6
refused 1 "d.png" "$BIN" optimize -a tipsify evil6/m.gltf -o home6/m.gltf
if [ "$(listing home6)" = ". " ]; then pass; else fail "F13: home6 holds $(listing home6)"; fi
if grep -q "copied" err.txt; then fail "F13: says copied: $(cat err.txt)"; else pass; fi
no_temps "F13"

# --- F2: every output against every file a glTF input names, not only the .gltf itself.
gltf f2a tri.svg
expect 2 "is the input" "$BIN" analyze -m generic --heatmap f2a/tri.svg f2a/m.gltf
gltf f2b r.html
expect 2 "is the input" "$BIN" report -o f2b/r.html f2b/m.gltf
gltf f2c s.csv
expect 2 "is the input" "$BIN" sweep --mesh f2c/m.gltf --cache 3..4 --csv f2c/s.csv
gltf f2d p.svg
expect 2 "is the input" "$BIN" sweep --mesh f2d/m.gltf --cache 3..4 --plot f2d/p.svg
for d in a b c d; do
    if cmp -s "f2$d/$(cd f2$d && ls | grep -v '^m' | head -1)" good/b.bin; then pass; else fail "F2: f2$d's buffer was replaced"; fi
done
# optimize: the rewritten buffer's file (o.bin) over a fit result given with -m @FILE
gltf f2e b.bin
echo '{"best": [{"model": "lru:8", "family": "lru"}]}' >f2e/o.bin
cp f2e/o.bin fit.keep
expect 2 "is the input" "$BIN" optimize -a auto -m @f2e/o.bin f2e/m.gltf -o f2e/o.gltf
if cmp -s f2e/o.bin fit.keep && [ ! -e f2e/o.gltf ]; then pass; else fail "F2: the fit result was replaced"; fi
no_temps "F2"

# --- F16: -q silences the glTF notes (here: the image copied beside the output).
mkdir -p out16
"$BIN" optimize -a tipsify good/m.gltf -o out16/m.gltf >/dev/null 2>err.txt
if grep -q "tex/a.png" err.txt; then pass; else fail "F16: no note without -q: $(cat err.txt)"; fi
rm -rf out16 && mkdir -p out16
"$BIN" -q optimize -a tipsify good/m.gltf -o out16/m.gltf >/dev/null 2>err.txt
if [ ! -s err.txt ] && [ -s out16/tex/a.png ]; then pass; else fail "F16: -q still notes: $(cat err.txt)"; fi

# --- F15: a GLB is self-contained: -o - writes it to standard output, the same bytes as
# a file; one naming an image file is refused (one line, nothing on standard output).
glb t.glb
expect 0 "" "$BIN" optimize -a tipsify t.glb -o t-file.glb
"$BIN" optimize -a tipsify t.glb -o - >t-out.glb 2>err.txt
got=$?
if [ "$got" -eq 0 ] && [ -s t-out.glb ] && cmp -s t-out.glb t-file.glb; then pass; else
    fail "F15: optimize X.glb -o - -> exit $got: $(head -c 300 err.txt)"
fi
p=$("$BIN" analyze --json -m generic t-out.glb | num primitives)
if [ "$p" = 2 ]; then pass; else fail "F15: the GLB from standard output reads back as $p triangles"; fi
echo image >pic.png
glb ti.glb pic.png
"$BIN" optimize -a tipsify ti.glb -o - >ti-out.glb 2>err.txt
got=$?
if [ "$got" -eq 2 ] && [ ! -s ti-out.glb ] && [ "$(grep -c . err.txt)" = 1 ] && grep -q "images\[0\]" err.txt; then pass; else
    fail "F15: a GLB naming an image, -o - -> exit $got: $(head -c 300 err.txt)"
fi

# --- F14: pictures in a folder whose name starts with '-' (rsvg-convert must not read
# the temporary's path as an option; gnuplot neither).
mkdir -p -- -pics
printf '0 1 2\n2 1 3\n' >tri.txt
if command -v rsvg-convert >/dev/null 2>&1; then
    expect 0 "" "$BIN" analyze -m generic --heatmap -pics/h.png good/m.gltf
    if [ "$(head -c 4 -- -pics/h.png | tail -c 3)" = PNG ]; then pass; else fail "F14: -pics/h.png is no PNG"; fi
fi
if command -v gnuplot >/dev/null 2>&1; then
    expect 0 "" "$BIN" sweep --mesh grid:6x6 --cache 3..5 --plot -pics/p.png
    if [ "$(head -c 4 -- -pics/p.png | tail -c 3)" = PNG ]; then pass; else fail "F14: -pics/p.png is no PNG"; fi
fi
if [ -z "$(ls -A -- -pics | grep -v -e '^h.png$' -e '^p.png$' -e '^p.gp$')" ]; then pass; else fail "F14: left in -pics: $(ls -A -- -pics)"; fi

# --- F12: the report shows no control character nor invalid UTF-8 of a file name, also
# not through gnuplot's inlined SVG.
if command -v gnuplot >/dev/null 2>&1; then
    hostile=$(printf 'mesh\033[31mred\007\377\376.obj')
    "$BIN" grid 6 6 -o "$hostile" >/dev/null
    expect 0 "" "$BIN" report --cache 3..6 -o hostile.html "$hostile"
    if grep -q "<svg" hostile.html && [ "$(grep -c 'sweep-' hostile.html)" -gt 0 ]; then pass; else fail "F12: no gnuplot figure"; fi
    # every byte below 0x20 except tab, newline and carriage return, and DEL
    if LC_ALL=C tr -d '\t\n\r' <hostile.html | LC_ALL=C grep -q "$(printf '[\001-\037\177]')"; then
        fail "F12: control characters in the report"
    else pass; fi
    if iconv -f UTF-8 -t UTF-8 hostile.html >/dev/null 2>&1; then pass; else fail "F12: the report is not UTF-8"; fi
fi

# --- F3: a FIFO named as an image is never opened for reading (it would block forever,
# with the signals held): refused before anything is written. `timeout` only guards the run.
gltf evil7 b.bin tex.png
mkfifo evil7/tex.png
mkdir -p home7
refused 1 "not a regular file" timeout 60 "$BIN" optimize -a tipsify evil7/m.gltf -o home7/m.gltf
if [ "$(listing home7)" = ". " ]; then pass; else fail "F3: home7 holds $(listing home7)"; fi

# --- F3: SIGTERM while the set's files are copied: the command ends non-zero, leaves no
# temporary, and either the whole set is in place or nothing is (no folder it created).
gltf big b.bin tex/a.png
mkdir -p big/tex && truncate -s 48M big/tex/a.png
mkdir -p bigout
"$BIN" optimize -a tipsify big/m.gltf -o bigout/m.gltf >/dev/null 2>&1 &
pid=$!
while [ -z "$(find bigout -name '*.tmp-*' 2>/dev/null | head -1)" ] && kill -0 $pid 2>/dev/null; do :; done
kill -TERM $pid 2>/dev/null
wait $pid
got=$?
if [ "$got" -ne 0 ]; then pass; else fail "F3: SIGTERM during the copy: exit 0"; fi
no_temps "F3 SIGTERM"
if [ -e bigout/m.gltf ]; then
    if cmp -s big/tex/a.png bigout/tex/a.png; then pass; else fail "F3: a partial image beside the output"; fi
elif [ "$(listing bigout)" = ". " ]; then pass; else fail "F3: after SIGTERM bigout holds $(listing bigout)"; fi
rm -rf big bigout

finish
