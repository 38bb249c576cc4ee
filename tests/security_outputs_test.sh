#!/bin/sh
# Issue 14, the files gpucache writes: temporaries made safely (a symlink planted at a
# predictable name is never followed), the final mode, no stray temporaries after success,
# failure or SIGTERM, write errors of standard output (exit 1, one line), outputs refused
# over their own inputs (same path, hard link, symlink, a glTF's buffer or image), and
# output-path problems reported before any work.
# usage: security_outputs_test.sh GPUCACHE_BINARY WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
SRC=$(cd "$(dirname "$0")/.." && pwd)
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
# no_temps WHAT: no temporary of any writer is left in the work folder
no_temps() {
    left=$(ls -A | grep -e '\.tmp-' -e '^\.gpucache-plot-' | grep -v '^planted' || true)
    if [ -z "$left" ]; then pass; else fail "$1: temporaries left: $left"; fi
}
mode_of() { stat -c %a "$1"; }

# A small mesh in several formats, and a shuffled one that optimize changes.
printf '0 1 2\n2 1 3\n2 3 4\n4 3 5\n' >tri.txt
"$BIN" grid 12 12 -o grid.obj >/dev/null || fail "grid.obj"
"$BIN" grid 12 12 -o grid.txt >/dev/null || fail "grid.txt"
"$BIN" grid 40 40 -o big-in.obj >/dev/null || fail "big-in.obj"
awk 'NR % 2 == 0' grid.txt >shuf.txt
awk 'NR % 2 == 1' grid.txt >>shuf.txt
printf '0 1 x\n' >bad.txt
mkdir -p adir.txt
no_temps "setup"

# --- item 2: a symlink planted at the old predictable name OUT.tmp-<pid> is not followed.
# `exec` keeps the shell's pid, so $$ inside sh -c is the pid gpucache runs under.
echo "do not touch" >victim
cp victim victim.orig
sh -c 'ln -s victim "planted.txt.tmp-$$" && ln -s victim "out.txt.tmp-$$" && exec "$0" optimize -a tipsify shuf.txt -o out.txt' \
    "$BIN" >/dev/null 2>err.txt
if cmp -s victim victim.orig; then pass; else fail "optimize wrote through a planted symlink"; fi
if [ -f out.txt ] && [ ! -L out.txt ] && [ "$(wc -l <out.txt)" = "$(wc -l <shuf.txt)" ]; then pass; else
    fail "optimize output after a planted symlink: $(ls -l out.txt 2>&1) $(cat err.txt)"
fi
rm -f out.txt.tmp-* planted.txt.tmp-*
no_temps "optimize after success"
if command -v gnuplot >/dev/null 2>&1; then
    sh -c 'ln -s victim "plot.png.tmp-$$" && exec "$0" sweep --mesh grid:6x6 --cache 3..5 --plot plot.png' \
        "$BIN" >/dev/null 2>err.txt
    if cmp -s victim victim.orig; then pass; else fail "gnuplot wrote through a planted symlink"; fi
    if [ -f plot.png ] && [ ! -L plot.png ] && [ -s plot.png ] && grep -qF 'set output "plot.png"' plot.gp; then pass; else
        fail "sweep --plot after a planted symlink: $(ls -l plot.png 2>&1) $(cat err.txt)"
    fi
    rm -f plot.png.tmp-*
    no_temps "sweep --plot"
fi

# --- item 2: modes. A new file gets 0666 minus the umask; a replaced one keeps its mode.
(umask 027 && "$BIN" optimize -a tipsify shuf.txt -o m1.txt >/dev/null)
if [ "$(mode_of m1.txt)" = 640 ]; then pass; else fail "new optimize output mode $(mode_of m1.txt), expected 640"; fi
(umask 027 && "$BIN" grid 3 3 -o m2.ply >/dev/null)
if [ "$(mode_of m2.ply)" = 640 ]; then pass; else fail "new grid output mode $(mode_of m2.ply), expected 640"; fi
for f in m1.txt m2.ply; do chmod 600 $f; done
"$BIN" optimize -a forsyth shuf.txt -o m1.txt >/dev/null
"$BIN" grid 4 4 -o m2.ply >/dev/null
if [ "$(mode_of m1.txt)" = 600 ]; then pass; else fail "replaced optimize output mode $(mode_of m1.txt), expected 600"; fi
if [ "$(mode_of m2.ply)" = 600 ]; then pass; else fail "replaced grid output mode $(mode_of m2.ply), expected 600"; fi
chmod 604 m1.txt
"$BIN" analyze -m generic --per-vertex m1.txt tri.txt >/dev/null
if [ "$(mode_of m1.txt)" = 604 ]; then pass; else fail "replaced per-vertex CSV mode $(mode_of m1.txt), expected 604"; fi
if command -v gnuplot >/dev/null 2>&1; then
    chmod 600 plot.png
    "$BIN" sweep --mesh grid:6x6 --cache 3..5 --plot plot.png >/dev/null 2>&1
    if [ "$(mode_of plot.png)" = 600 ]; then pass; else fail "replaced plot mode $(mode_of plot.png), expected 600"; fi
fi
no_temps "modes"

# --- item 11: a write that fails in the middle (the file size limit: EFBIG, not a kill by
# SIGXFSZ) is reported, and neither a temporary nor a partial output is left.
expect 1 "write failed" sh -c 'ulimit -f 8 && exec "$0" grid 200 200 -o limited.txt' "$BIN"
expect 1 "write failed" sh -c 'ulimit -f 8 && exec "$0" optimize -a tipsify big-in.obj -o limited.obj' "$BIN"
if [ ! -e limited.txt ] && [ ! -e limited.obj ]; then pass; else fail "a partial output was left"; fi
no_temps "failed writes"

# --- item 11: write errors of standard output exit 1 with one line.
if [ -w /dev/full ]; then
    for cmd in "analyze -m generic tri.txt" "analyze --json tri.txt" "models" "demo" "help" "--version" \
        "optimize -a tipsify shuf.txt -o full.txt" "grid 2 2 -o full2.txt" "sweep --mesh grid:4x4 --cache 3..4" \
        "introspect -m fifo:8 tri.txt" "fit $SRC/data/measurements/lavapipe-22.3.6.json --top 1 -m fifo:16"; do
        # shellcheck disable=SC2086
        "$BIN" $cmd >/dev/full 2>err.txt
        got=$?
        if [ "$got" -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "standard output: write failed" err.txt; then
            pass
        else
            fail "$cmd >/dev/full: exit $got, $(head -c 200 err.txt)"
        fi
    done
    no_temps "/dev/full"
fi

# --- item 12: an output that is one of its inputs is refused, and the input kept.
cp shuf.txt keep.txt
expect 2 "refusing to overwrite" "$BIN" optimize -a tipsify shuf.txt -o shuf.txt
ln -f shuf.txt hard.txt
expect 2 "refusing to overwrite" "$BIN" optimize -a tipsify shuf.txt -o hard.txt
ln -sf shuf.txt sym.txt
expect 2 "refusing to overwrite" "$BIN" optimize -a tipsify shuf.txt -o sym.txt
cp grid.obj keep.obj
expect 2 "refusing to overwrite" "$BIN" optimize -a tipsify grid.obj -o ./grid.obj
if cmp -s shuf.txt keep.txt && cmp -s grid.obj keep.obj && [ -L sym.txt ]; then pass; else fail "an input was changed"; fi
cp tri.txt keep-tri.txt
expect 2 "refusing to overwrite" "$BIN" analyze -m generic --per-vertex tri.txt tri.txt
printf '1\n' >state.txt
expect 2 "refusing to overwrite" "$BIN" analyze -m generic --state-changes state.txt --per-vertex state.txt tri.txt
expect 2 "refusing to overwrite" "$BIN" sweep --mesh tri.txt --cache 3..4 --csv tri.txt
if cmp -s tri.txt keep-tri.txt && [ "$(cat state.txt)" = 1 ]; then pass; else fail "analyze/sweep changed an input"; fi
no_temps "refused outputs"

# glTF: the output's .bin would replace the input's buffer (or an image it names).
echo AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAAAAAABAAIAAQADAAIA | base64 -d >b.bin
cp b.bin keep.bin
cat >a.gltf <<'JSON'
{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}], "buffers": [{"byteLength": 60, "uri": "b.bin"}], "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12}], "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}, {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}], "images": [{"uri": "pic%2Ebin"}]}
JSON
cp b.bin pic.bin
if "$BIN" analyze -m generic a.gltf >/dev/null 2>err.txt; then
    expect 2 "b.bin: is the input" "$BIN" optimize -a tipsify a.gltf -o b.gltf
    expect 2 "pic.bin: is the input" "$BIN" optimize -a tipsify a.gltf -o pic.gltf
    if cmp -s b.bin keep.bin && cmp -s pic.bin keep.bin && [ ! -e b.gltf ] && [ ! -e pic.gltf ]; then pass; else
        fail "glTF: an input buffer or image was replaced"
    fi
    # a good glTF output: both files, renamed into place, nothing left over
    expect 0 "" "$BIN" optimize -a tipsify --reorder-vertices a.gltf -o sub.gltf
    if [ -s sub.gltf ] && [ -s sub.bin ] && grep -q '"sub.bin"' sub.gltf; then pass; else fail "glTF output files"; fi
    p=$("$BIN" analyze --json -m generic sub.gltf | num primitives)
    if [ "$p" = 2 ]; then pass; else fail "glTF output reads back as $p triangles"; fi
    no_temps "glTF"
elif ! grep -q "without assimp" err.txt; then
    fail "a.gltf does not load: $(cat err.txt)"
fi

# --- item 12: output-path problems come before any work: with a bad input AND a bad
# output, the output is what is reported (the input is never read).
expect 1 "the folder nodir does not exist" "$BIN" optimize -a tipsify bad.txt -o nodir/out.txt
expect 1 "the folder nodir does not exist" "$BIN" analyze --per-vertex nodir/pv.csv bad.txt
expect 1 "the folder nodir does not exist" "$BIN" sweep --mesh bad.txt --csv nodir/s.csv
expect 1 "the folder nodir does not exist" "$BIN" sweep --mesh bad.txt --plot nodir/s.png
expect 1 "the folder nodir does not exist" "$BIN" probe --model generic --per-vertex nodir/p.csv bad.txt
expect 1 "it is a folder" "$BIN" optimize -a tipsify bad.txt -o adir.txt
expect 1 "it is a folder" "$BIN" grid 2 2 -o adir.txt
expect 1 "is not a folder" "$BIN" optimize -a tipsify bad.txt -o tri.txt/out.txt
expect 1 "the folder nodir does not exist" "$BIN" probe --suite --model generic -o nodir/suite.json
if [ "$(id -u)" -ne 0 ]; then
    mkdir -p ro && chmod 555 ro
    expect 1 "cannot write in the folder ro" "$BIN" optimize -a tipsify bad.txt -o ro/out.txt
    chmod 755 ro
fi
no_temps "output-path problems"

# --- item 2: SIGTERM while the output is being written leaves no temporary: the signal
# takes effect once the output is complete. Kill as soon as the temporary appears.
"$BIN" grid 500 500 -o big.obj >/dev/null
"$BIN" optimize -a tipsify big.obj -o big-out.obj >/dev/null 2>&1 &
pid=$!
while ! ls big-out.obj.tmp-* >/dev/null 2>&1 && kill -0 $pid 2>/dev/null; do :; done
kill -TERM $pid 2>/dev/null
wait $pid
no_temps "SIGTERM while writing"
if [ ! -e big-out.obj ] || [ "$(grep -c '^f' big-out.obj)" = "$(grep -c '^f' big.obj)" ]; then pass; else
    fail "SIGTERM while writing left a partial output"
fi
rm -f big-out.obj
# ... and during a long optimization (the brief's case): no temporary, no output.
"$BIN" optimize -a auto --effort 3 big.obj -o long-out.obj >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid 2>/dev/null
wait $pid
no_temps "SIGTERM during optimize"
if [ ! -e long-out.obj ] || [ "$(grep -c '^f' long-out.obj)" = "$(grep -c '^f' big.obj)" ]; then pass; else
    fail "SIGTERM during optimize left a partial output"
fi

finish
