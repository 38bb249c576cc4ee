#!/bin/sh
# Runs the README's examples and a sample of every command with two gpucache binaries and
# diffs what they print and write: stdout, stderr, exit status and every output file, per
# command. Only timing fields differ between two runs of one binary, so those are masked
# (JSON "seconds" values, and the "N.NNNNNN s" column of analyze --repeat) before diffing.
# Used to show that a change which should not change behaviour (a refactoring) does not.
#
# usage: scripts/compare-outputs.sh BINARY_A BINARY_B [WORK_DIR]
#   WORK_DIR (default out/compare) gets a/ and b/: one folder per command with its inputs,
#   out.txt, err.txt, status.txt and its output files. Exit status 0 when identical.
# Needs the corpus in ../shared/corpus (relative to the repository). glTF inputs come from
# tests/gltf/make_gltf.py. With COMPARE_PYTHON_A and COMPARE_PYTHON_B set (each
# "PACKAGE_DIR:LIBRARY": a folder holding the gpucache package, and the library it loads),
# the Python package of each side is run too (analyze and optimize of loaded files), into
# python/ beside the commands' folders.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 BINARY_A BINARY_B [WORK_DIR]" >&2
    exit 2
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
A=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
B=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
WORK=${3:-$ROOT/out/compare}
CORPUS=$ROOT/../shared/corpus
EXAMPLES=$ROOT/examples/memsys
BAD=$ROOT/tests/bad-inputs
[ -d "$CORPUS" ] || { echo "$0: no corpus at $CORPUS" >&2; exit 2; }
rm -rf "$WORK" && mkdir -p "$WORK/a" "$WORK/b" || exit 2
WORK=$(cd "$WORK" && pwd)

# Inputs shared by both runs: written once, linked into every command's folder, so that
# the relative names in messages are the same for both binaries.
INPUTS=$WORK/inputs
mkdir -p "$INPUTS"
seq 0 29 >"$INPUTS/seq30.txt"
seq 0 32 >"$INPUTS/seq33.txt"
printf '0 1 2 2 1 3 2 3 4 4 3 5\n' >"$INPUTS/quad.txt"
printf '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n' >"$INPUTS/strip.txt"
printf '4\n10\n' >"$INPUTS/changes.txt"
printf '\000\000\001\000\002\000\002\000\001\000\003\000' >"$INPUTS/indices.u16"
cp "$CORPUS/suzanne.obj" "$INPUTS/mesh.obj"
cp "$CORPUS/woody.obj" "$INPUTS/woody.obj"
cp "$CORPUS/igea.ply" "$INPUTS/mesh.ply"
cp "$EXAMPLES"/*.scn "$INPUTS/"
cp "$BAD"/* "$INPUTS/" 2>/dev/null
# glTF scenes (tests/gltf/make_gltf.py, standard library only)
mkdir -p "$WORK/gltf"
if /usr/bin/python3 "$ROOT/tests/gltf/make_gltf.py" "$WORK/gltf" >/dev/null 2>&1; then
    for f in lists.glb modes.glb shared.glb morph_skin.glb shared.gltf shared.bin; do
        cp "$WORK/gltf/$f" "$INPUTS/$f"
    done
else
    echo "$0: warning: tests/gltf/make_gltf.py failed: no glTF cases" >&2
fi
rm -rf "$WORK/gltf"
# The synthesized measurement files of tests/fit_test.sh (emulated devices), made once by A.
( cd "$INPUTS" && "$A" probe --suite --model lru:16 -o synth-lru.json 2>/dev/null &&
  "$A" probe --suite --model llvmpipe -o synth-llvmpipe.json 2>/dev/null ) ||
    echo "$0: warning: binary A could not synthesize the measurement files" >&2

# One command per line: NAME|ARGUMENTS (ARGUMENTS split by the shell; CORPUS expands).
CASES=$WORK/cases.txt
cat >"$CASES" <<EOF
help|help
version|--version
no-command|
unknown-command|frobnicate
models|models
demo|demo
demo-json|demo --json
readme-analyze-mesh|analyze mesh.obj
readme-analyze-json|analyze -m nvidia -m fifo:32 --json indices.u16
readme-analyze-strip|analyze -t triangle-strip --restart $CORPUS/igea.ply
readme-analyze-trace|analyze -m nvidia --trace seq30.txt
readme-analyze-state|analyze -m batch --state-changes changes.txt -t triangle-strip strip.txt
readme-analyze-per-vertex|analyze --per-vertex counts.csv mesh.ply
analyze-cow|analyze $CORPUS/cow.obj
analyze-teapot-json|analyze --json $CORPUS/teapot.obj
analyze-fandisk-per-vertex|analyze -m intel -m llvmpipe -m meshopt:32,32,32 --per-vertex fandisk.csv --json $CORPUS/fandisk.obj
analyze-trace-json|analyze -m fifo:4 -m lru:4 -m direct-value:4 -m direct-position:4 --trace --json quad.txt
analyze-trace-families|analyze -m nvidia -m meshopt:8,8,4 -m reuse:8,4,8 -m batch -m llvmpipe --trace seq33.txt
analyze-positions|analyze --positions -m fifo:16 woody.obj
analyze-restart-value|analyze --restart=3 -t triangle-strip -m lru:8 strip.txt
analyze-grid|analyze -m fifo:16 grid:20x20
analyze-repeat|analyze --repeat 3 -m fifo:16 woody.obj
analyze-repeat-json|analyze --repeat 3 -m fifo:16 --json woody.obj
analyze-stdin-missing|analyze
analyze-bad-model|analyze -m fifo:0 quad.txt
analyze-bad-option|analyze --frob quad.txt
analyze-missing-file|analyze nothing-here.obj
readme-optimize-auto|optimize -a auto $CORPUS/suzanne.obj -o suzanne-optimized.obj
readme-optimize-ply|optimize -a auto -m nvidia-pascal --json mesh.ply -o mesh-opt.ply
readme-optimize-u16|optimize -a tipsify --cache 16 --reorder-vertices indices.u16 -o opt.u16
optimize-tipsify|optimize -a tipsify $CORPUS/cow.obj -o cow-tipsify.obj
optimize-forsyth-json|optimize -a forsyth --cache 24 --json $CORPUS/teapot.obj -o teapot-forsyth.obj
optimize-auto-effort|optimize -a auto --effort 2 --seed 7 -m intel -m amd-gcn --json $CORPUS/spot.obj -o spot-auto.obj
optimize-auto-reorder|optimize -a auto --reorder-vertices woody.obj -o woody-auto.obj
optimize-txt|optimize -a forsyth quad.txt -o quad-opt.txt
optimize-no-output|optimize -a tipsify quad.txt
optimize-bad-alg|optimize -a nope quad.txt -o x.txt
readme-grid|grid 100 100 --layout optimal --cache 16 -o grid.obj
grid-striped|grid 30 20 --layout striped --cache 12 -o grid.txt
grid-rowmajor-u32|grid 10 10 -o grid.u32
grid-bad|grid 0 10 -o bad.obj
sweep-csv|sweep --mesh grid:40x40 -a optimal,striped,tipsify,forsyth --cache 8..20 -m fifo:32 -m intel --threads 2 --csv sweep.csv
sweep-json|sweep --mesh grid:30x30 --mesh woody.obj -a tipsify,forsyth,auto,original --cache 10..14 -m amd-gcn --json
sweep-default|sweep --cache 16
sweep-bad-cache|sweep --cache 2..5
sweep-bad-layout|sweep -a nope
readme-memsys|memsys raycast.scn
readme-memsys-compare|memsys --compare chained-compute.scn
memsys-json|memsys --json procedural-water.scn
memsys-strategy|memsys --strategy l2-bypass simple-rendering.scn
memsys-compare-json|memsys --compare --json raycast.scn
memsys-bad|memsys unknown-statement.scn
probe-emulated|probe --model nvidia --json --per-vertex probe.csv mesh.obj
probe-emulated-text|probe --model llvmpipe -t triangle-strip strip.txt
suite-emulated|probe --suite --model fifo:32 -o suite.json
introspect-30|introspect -m nvidia seq30.txt
introspect-33-json|introspect -m nvidia --json seq33.txt
introspect-fifo|introspect -m fifo:16 woody.obj
fit-lru|fit --threads 2 --top 3 synth-lru.json
fit-llvmpipe-json|fit --json --threads 2 --top 3 synth-llvmpipe.json
fit-short|fit short.json
fit-truncated|fit truncated.json
fit-missing|fit missing.json
fit-not-measurements|fit not-measurements.json
analyze-gltf-modes-json|analyze --json -m fifo:3 -m llvmpipe -m nvidia-dx modes.glb
analyze-gltf-shared|analyze -m llvmpipe -m lru:16 shared.glb
analyze-gltf-lists-json|analyze --json lists.glb
optimize-gltf-lists|optimize -a auto -m llvmpipe --json lists.glb -o lists-opt.glb
optimize-gltf-shared-reorder|optimize -a tipsify --reorder-vertices shared.gltf -o shared-opt.gltf
optimize-gltf-morph|optimize -a forsyth morph_skin.glb -o morph-opt.glb
EOF
printf '{"cases": [{"topology": "triangle-list", "indices": [0, 1], "invocations": 2}]}' >"$INPUTS/short.json"
printf '{"cases": [' >"$INPUTS/truncated.json"

# Every line of tests/bad-inputs/MANIFEST: its command on its file.
n=0
grep -v '^#' "$BAD/MANIFEST" | grep -v '^$' | while IFS='|' read -r file code text command; do
    n=$((n + 1))
    echo "bad-$n-$file|$(echo "$command" | sed "s|{}|$file|g")"
done >>"$CASES"

run_side() {
    BIN_PATH=$1
    while IFS='|' read -r name args; do
        dir=$WORK/$2/$name
        mkdir -p "$dir"
        # the inputs as links (the corpus is large), removed afterwards: what stays is
        # what the command printed and wrote
        cp -s "$INPUTS"/* "$dir"/
        ( cd "$dir" && eval "\"\$BIN_PATH\" $args" >out.txt 2>err.txt </dev/null; echo $? >status.txt )
        find "$dir" -type l -delete
    done <"$CASES"
}
run_side "$A" a
run_side "$B" b

# The Python package of each side (COMPARE_PYTHON_A/B): analyze and optimize of loaded files,
# one line each (numbers, and a digest of optimize's indices).
python_side() {
    dir=$WORK/$2/python
    mkdir -p "$dir"
    ( cd "$INPUTS" && PYTHONPATH="${1%%:*}" GPUCACHE_LIBRARY="${1#*:}" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 - \
        lists.glb modes.glb shared.glb morph_skin.glb shared.gltf mesh.obj woody.obj mesh.ply \
        >"$dir/out.txt" 2>"$dir/err.txt" <<'PYEOF'
import hashlib, sys
import gpucache
models = ["fifo:3", "lru:16", "llvmpipe", "nvidia-dx", "intel"]
for path in sys.argv[1:]:
    try:
        mesh = gpucache.load(path)
        for r in gpucache.analyze(mesh, model=models):
            print(f"analyze {path} {r.model}: topology {r.topology} indices {r.indices} primitives {r.primitives} "
                  f"vertices {r.vertices} invocations {r.invocations} acmr {r.acmr:.9f}")
        for alg, targets in (("tipsify", None), ("auto", ["llvmpipe"])):
            out = gpucache.optimize(mesh, algorithm=alg, targets=targets)
            print(f"optimize {path} -a {alg}: {out.shape[0]} indices, sha1 {hashlib.sha1(out.tobytes()).hexdigest()}")
    except gpucache.Error as e:
        print(f"{path}: error: {e}")
PYEOF
    echo $? >"$dir/status.txt" )
}
if [ -n "${COMPARE_PYTHON_A:-}" ] && [ -n "${COMPARE_PYTHON_B:-}" ]; then
    python_side "$COMPARE_PYTHON_A" a
    python_side "$COMPARE_PYTHON_B" b
fi

# Mask timing fields, in place, in both trees.
find "$WORK/a" "$WORK/b" -type f -exec sed -i -E \
    -e 's/"seconds": [0-9.eE+-]+/"seconds": T/g' \
    -e 's/  [0-9]+\.[0-9]{6} s$/  T s/' \
    -e 's/in [0-9]+\.[0-9]+ s/in T s/g' {} +

cases=$(wc -l <"$CASES")
if diff -r "$WORK/a" "$WORK/b" >"$WORK/diff.txt"; then
    echo "compare-outputs: $cases commands, outputs identical ($WORK/a vs $WORK/b)"
    exit 0
fi
echo "compare-outputs: $cases commands, outputs DIFFER: see $WORK/diff.txt" >&2
head -n 40 "$WORK/diff.txt" >&2
exit 1
