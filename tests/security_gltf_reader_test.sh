#!/bin/sh
# Issue 34, the glTF reader's half (F3, F4, F6 to F11): hostile glTF files made by
# gltf/hostile_gltf.py (each small, declaring far more than it holds).
#  F3  a FIFO named by a buffer or image URI, or given as the input: refused at once
#  F4  glTF content under another name (.vrm, no extension), after 64 spaces or a BOM:
#      never handed to assimp (whose glTF importer overflows its stack on deep nesting)
#  F6  10,000 POSITION accessors over the same bytes: one vertex set, not 10^8 vertices;
#      shifted by 4 bytes each: refused at the stated cap
#  F7  100 buffer entries naming one 8 MB file: the file read once
#  F8  a viewless accessor drawn by 4,000 non-indexed primitives: refused at the stated cap
#  F9  200,000 primitives sharing index accessors in pairs: optimize in linear time
#  F10 2^57 + 1 elements of stride 128 in a 36-byte view: refused, no wrap-around
#  F11 indices of attributes with 0 elements: refused
# Memory is bounded with ulimit -v (release) or the sanitizer's own limits (ASan cannot run
# under ulimit -v); F9's time with a generous CPU limit (ulimit -t) that the quadratic code
# exceeds many times over. No wall-clock timing.
# usage: security_gltf_reader_test.sh GPUCACHE_BINARY WORK_DIR [SANITIZED (0|1)]
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
SANITIZED=${3:-0}
GEN="$(cd "$(dirname "$0")" && pwd)/gltf/hostile_gltf.py"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || { echo "skipped: python3 not found"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
MALLOC_ARENA_MAX=1
export MALLOC_ARENA_MAX
if grep -q "__asan_init" "$BIN" 2>/dev/null; then SANITIZED=1; fi
ASAN_BASE=${ASAN_OPTIONS:-}

# one_line RC TEXT: the last command (its rc in $rc, stderr in err.txt) exited RC with
# exactly one line on stderr containing TEXT.
one_line() {
    if [ "$rc" -eq "$1" ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -qF -- "$2" err.txt; then
        pass
    else
        fail "$3: exit $rc (expected $1 and one line with '$2'): $(head -c 400 err.txt)"
    fi
}

# base: the address space the program needs to start at all, found by trying
base=0
if [ "$SANITIZED" -eq 0 ]; then
    seq 0 2 >tiny.txt
    for v in $(seq 8000 2000 400000); do
        if (ulimit -v "$v"; "$BIN" analyze -m fifo:16 tiny.txt >/dev/null 2>&1); then base=$v; break; fi
    done
    [ "$base" -gt 0 ] || fail "analyze tiny.txt does not run under any ulimit -v up to 400 MB"
fi
# capped LIMIT_KB command...: runs the command within LIMIT_KB of address space above the
# base (release); in the sanitizer build no single allocation may exceed 256 MB and the
# process is stopped past LIMIT_KB + 300 MB resident (shadow memory included). Its status
# in $rc.
capped() {
    limit=$1
    shift
    if [ "$SANITIZED" -eq 1 ]; then
        ASAN_OPTIONS="${ASAN_BASE:+$ASAN_BASE:}allocator_may_return_null=1:max_allocation_size_mb=256:hard_rss_limit_mb=$((limit / 1000 + 300))" \
            "$@" >out.txt 2>err.txt
    else
        (ulimit -v $((base + limit)); "$@" >out.txt 2>err.txt)
    fi
    rc=$?
}

# ------------------------------------------------------------------ F3: FIFOs
mkdir f3 && "$PY" "$GEN" fifo-buffer f3/buf.gltf && mkfifo f3/fifo.bin
timeout 30 "$BIN" analyze f3/buf.gltf >out.txt 2>err.txt
rc=$?
one_line 1 "buffers[0].uri 'fifo.bin'" "F3 buffer FIFO"
grep -q "not a regular file" err.txt && pass || fail "F3 buffer FIFO: no 'not a regular file': $(cat err.txt)"
mkdir f3i && "$PY" "$GEN" fifo-image f3i/img.gltf && mkfifo f3i/fifo.png
timeout 30 "$BIN" analyze f3i/img.gltf >out.txt 2>err.txt
rc=$?
one_line 1 "images[0].uri 'fifo.png'" "F3 image FIFO"
mkfifo f3/input.gltf
timeout 30 "$BIN" analyze f3/input.gltf >out.txt 2>err.txt
rc=$?
one_line 1 "input.gltf: cannot open: not a regular file" "F3 input FIFO"
mkdir f3out
timeout 30 "$BIN" optimize -a tipsify f3/input.gltf -o f3out/out.gltf >out.txt 2>err.txt
rc=$?
one_line 1 "input.gltf: cannot open: not a regular file" "F3 input FIFO to optimize"
[ -z "$(ls f3out)" ] && pass || fail "F3 input FIFO to optimize left $(ls f3out)"
# a FIFO under a name assimp would read
mkfifo f3/fifo.stl
timeout 30 "$BIN" analyze f3/fifo.stl >out.txt 2>err.txt
rc=$?
one_line 1 "fifo.stl: cannot open: not a regular file" "F3 FIFO for assimp"

# ------------------------------------------------------------------ F4: glTF by content
"$PY" "$GEN" nested deep.gltf
cp deep.gltf deep.vrm && cp deep.gltf deep
printf '\357\273\277' >bom.vrm && cat deep.gltf >>bom.vrm
for f in deep.vrm deep bom.vrm; do
    "$BIN" analyze "$f" >out.txt 2>err.txt
    rc=$?
    one_line 1 "$f: cannot read this mesh: it looks like glTF" "F4 $f"
done
# GLB magic under another name
printf 'glTF\002\000\000\000\014\000\000\000' >magic.obj2
"$BIN" analyze magic.obj2 >out.txt 2>err.txt
rc=$?
one_line 1 "magic.obj2: cannot read this mesh: it looks like glTF" "F4 GLB magic"
"$BIN" analyze deep.gltf >out.txt 2>err.txt
rc=$?
one_line 1 "deep.gltf" "F4 deep.gltf"

# ------------------------------------------------------------------ F6: one vertex set
"$PY" "$GEN" shared-positions f6.gltf
# 10,000 primitives of one triangle over the same 10,000 vertices (1.2 MB): the positions
# of one vertex set, 120 KB; as 10,000 sets they were 1.2 GB.
capped 200000 "$BIN" analyze --heatmap f6.svg f6.gltf
if [ "$rc" -eq 0 ] && grep -q "sum over 10000 draws: 30000 indices, 10000 primitives, 30000 vertices" out.txt && [ -s f6.svg ]; then
    pass
else
    fail "F6 analyze --heatmap within 200 MB: exit $rc: $(head -c 400 err.txt)"
fi

# the same, each accessor 4 bytes further: 10^8 distinct vertices, refused at the cap
"$PY" "$GEN" shifted-positions f6s.gltf
capped 200000 "$BIN" analyze --heatmap f6s.svg f6s.gltf
one_line 1 "more vertices than the reader expands" "F6 shifted accessors"
[ -e f6s.svg ] && fail "F6 shifted accessors left f6s.svg" || pass

# ------------------------------------------------------------------ F7: each file read once
mkdir f7 && "$PY" "$GEN" one-file-many-buffers f7/f7.gltf
capped 120000 "$BIN" analyze f7/f7.gltf
if [ "$rc" -eq 0 ] && grep -q "sum over 1 draws: 3 indices" out.txt; then
    pass
else
    fail "F7 analyze with 100 buffers of one 8 MB file within 120 MB: exit $rc: $(head -c 400 err.txt)"
fi

# ------------------------------------------------------------------ F8: the expansion cap
"$PY" "$GEN" viewless-non-indexed f8.gltf
capped 200000 "$BIN" analyze f8.gltf
one_line 1 "more indices than the reader expands" "F8 viewless non-indexed"

# ------------------------------------------------------------------ F9: shared index accessors
"$PY" "$GEN" shared-indices f9.gltf
mkdir f9out
# linear: 4 s of CPU here (release), 15 s (ASan); the quadratic code walked every later
# primitive for each rewritten one: 10^10 steps, over 75 s (over 300 s for twice as many)
(ulimit -t 60; "$BIN" optimize -q -a tipsify f9.gltf -o f9out/f9.gltf >out.txt 2>err.txt)
rc=$?
if [ "$rc" -eq 0 ] && [ -s f9out/f9.gltf ]; then pass; else fail "F9 optimize within 60 s of CPU: exit $rc: $(head -c 400 err.txt)"; fi

# ------------------------------------------------------------------ F10, F11
"$PY" "$GEN" overflow-count f10.gltf
"$BIN" analyze f10.gltf >out.txt 2>err.txt
rc=$?
one_line 1 "f10.gltf: accessors[0]: 144115188075855873 elements need" "F10 count overflow"
"$PY" "$GEN" zero-vertices f11.gltf
"$BIN" analyze f11.gltf >out.txt 2>err.txt
rc=$?
one_line 1 "f11.gltf: meshes[0].primitives[0].indices: index 0 is 0, the attributes hold 0 vertices" "F11 no vertices"

finish
