#!/bin/sh
# The command line's conventions (issue 20): each command's --help, --version, '-' as
# standard output for every output and standard input for every input, the JSON's
# version and schema fields, -q and -v, the exit statuses, the man page and the bash
# completion. Expected bytes come from the same command writing to a named file.
# usage: cli_conventions_test.sh GPUCACHE_BINARY SOURCE_DIR WORK_DIR [MAN_PAGE]
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
SRC=$2
WORK=$3
MANPAGE=${4:-}
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

COMMANDS="analyze probe introspect fit optimize meshlets grid sweep validate report memsys demo models help"

# status WANT command...: the exit status alone
status() {
    want=$1
    shift
    "$@" >out.txt 2>err.txt
    got=$?
    if [ "$got" -eq "$want" ]; then pass; else fail "$* -> exit $got, expected $want: $(head -3 err.txt)"; fi
}

# ------------------------------------------------------------------ --help
[ "$("$BIN" --commands | tr '\n' ' ')" = "$COMMANDS " ] && pass || fail "--commands: $("$BIN" --commands | tr '\n' ' ')"
for c in $COMMANDS; do
    "$BIN" "$c" --help >help-$c.txt 2>err.txt
    st=$?
    [ "$st" -eq 0 ] && pass || fail "$c --help: exit $st"
    [ -s err.txt ] && fail "$c --help wrote to stderr: $(cat err.txt)" || pass
    # the command's own: its name in the first line, its usage, an example of it
    head -1 help-$c.txt | grep -q "^gpucache $c: " && pass || fail "$c --help: first line $(head -1 help-$c.txt)"
    grep -q "^  gpucache $c" help-$c.txt && pass || fail "$c --help: no usage line"
    sed -n '/^example:/{n;p;}' help-$c.txt | grep -q "^  gpucache $c" && pass || fail "$c --help: no example of $c"
    "$BIN" "$c" -h >h.txt 2>&1 && cmp -s h.txt help-$c.txt && pass || fail "$c -h differs from --help"
    "$BIN" help "$c" >h.txt 2>&1 && cmp -s h.txt help-$c.txt && pass || fail "help $c differs from $c --help"
    "$BIN" --help "$c" >h.txt 2>&1 && cmp -s h.txt help-$c.txt && pass || fail "--help $c differs from $c --help"
done
# each command's help is its own: no two alike
[ "$(cat help-*.txt | md5sum)" != "" ] && [ "$(for c in $COMMANDS; do md5sum <help-$c.txt; done | sort -u | wc -l)" -eq 14 ] &&
    pass || fail "two commands print the same help"
# every option a command parses is in its help (from the source's option tables)
for c in analyze probe introspect fit optimize grid sweep report memsys; do
    for o in $(sed -n '/long_options\[\] = {/,/};/p' "$SRC/tools/cmd_$c.c" | grep -o '{"[a-z-]*"' | tr -d '{"'); do
        grep -q -- "--$o" help-$c.txt && pass || fail "$c --help lacks --$o"
    done
done
status 0 "$BIN" --help
grep -q "^EXIT STATUS:" out.txt && pass || fail "the overview lacks the exit statuses"
status 2 "$BIN" help nonsense
status 2 "$BIN"

# --------------------------------------------------------------- --version
"$BIN" --version >v.txt 2>&1 || fail "--version failed"
head -1 v.txt | grep -q '^gpucache [0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*$' && pass || fail "--version: $(head -1 v.txt)"
for feature in assimp "vulkan probe" gnuplot; do
    grep -q "^$feature: " v.txt && pass || fail "--version does not say whether $feature is there"
done
# gnuplot as sweep --plot would find it: on PATH, or not
PATH=/nonexistent "$BIN" --version | grep -q "^gnuplot: not found" && pass || fail "--version with no gnuplot on PATH"

# ------------------------------------------------------------ '-' as output
"$BIN" grid 6 5 --layout striped -o grid.txt >/dev/null || fail "grid"
"$BIN" grid 6 5 --layout striped -o - >stdout.txt 2>report.txt
[ $? -eq 0 ] && cmp -s stdout.txt grid.txt && pass || fail "grid -o -: not the file's bytes"
grep -q "^-: 6x5 grid" report.txt && pass || fail "grid -o -: the report did not go to stderr: $(cat report.txt)"
"$BIN" grid 6 5 -o grid.obj >/dev/null
"$BIN" grid 6 5 -o grid.u16 >/dev/null
"$BIN" grid 6 5 -o grid.ply >/dev/null
"$BIN" analyze -m fifo:8 -m lru:4 --per-vertex pv.csv grid.txt >/dev/null || fail "analyze --per-vertex"
"$BIN" analyze -m fifo:8 -m lru:4 --per-vertex - grid.txt >stdout.txt 2>/dev/null
cmp -s stdout.txt pv.csv && pass || fail "analyze --per-vertex -"
"$BIN" sweep --mesh grid:8x8 --cache 4..6 -a optimal,striped --csv sweep.csv >/dev/null || fail "sweep --csv"
"$BIN" sweep --mesh grid:8x8 --cache 4..6 -a optimal,striped --csv - >stdout.txt 2>/dev/null
cmp -s stdout.txt sweep.csv && pass || fail "sweep --csv -"
"$BIN" probe --model fifo:16 --per-vertex ppv.csv grid.txt >/dev/null || fail "probe --per-vertex"
"$BIN" probe --model fifo:16 --per-vertex - grid.txt >stdout.txt 2>/dev/null
cmp -s stdout.txt ppv.csv && pass || fail "probe --per-vertex -"
"$BIN" -q probe --model fifo:16 --suite -o suite.json >/dev/null 2>&1 || fail "probe --suite"
"$BIN" -q probe --model fifo:16 --suite -o - >stdout.txt 2>/dev/null
cmp -s stdout.txt suite.json && pass || fail "probe --suite -o -"
for f in grid.txt grid.obj grid.u16 grid.ply; do
    ext=${f##*.}
    "$BIN" optimize -a tipsify $f -o opt.$ext >/dev/null || fail "optimize $f"
    "$BIN" optimize -a tipsify $f -o - >stdout.txt 2>/dev/null
    cmp -s stdout.txt opt.$ext && pass || fail "optimize $f -o -"
done
"$BIN" optimize -a tipsify --reorder-vertices --remap map.u32 grid.txt -o opt2.txt >/dev/null || fail "--remap"
"$BIN" optimize -a tipsify --reorder-vertices --remap - grid.txt -o opt3.txt >stdout.txt 2>/dev/null
cmp -s stdout.txt map.u32 && cmp -s opt2.txt opt3.txt && pass || fail "optimize --remap -"
# one standard output for one output
status 2 "$BIN" optimize -a tipsify --reorder-vertices --remap - grid.txt -o -
[ -e ./- ] && fail "a file named '-' was written" || pass
ls | grep -q 'tmp-' && fail "a temporary was left: $(ls)" || pass

# ------------------------------------------------------------- '-' as input
"$BIN" analyze -m fifo:8 --json grid.txt | sed 's/"input": "[^"]*"/"input": X/' >want.json
for f in grid.txt grid.obj grid.ply; do
    "$BIN" analyze -m fifo:8 --json - <$f | sed 's/"input": "[^"]*"/"input": X/' >got.json
    cmp -s got.json want.json && pass || fail "analyze - <$f"
    ext=${f##*.}
    "$BIN" analyze -m fifo:8 --json $ext:- <$f | sed 's/"input": "[^"]*"/"input": X/' >got.json
    cmp -s got.json want.json && pass || fail "analyze $ext:- <$f"
done
"$BIN" analyze -m fifo:8 --json u16:- <grid.u16 | sed 's/"input": "[^"]*"/"input": X/' >got.json
cmp -s got.json want.json && pass || fail "analyze u16:-"
"$BIN" optimize -a tipsify - -o - <grid.txt >stdout.txt 2>/dev/null
cmp -s stdout.txt opt.txt && pass || fail "optimize - -o -"
printf '1 2 x\n' | "$BIN" analyze - >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q "<stdin>:1:" err.txt && pass || fail "bad text on stdin: $(cat err.txt)"
status 2 "$BIN" optimize -a tipsify obj:- -o x.obj
printf 'glTF\2\0\0\0' | "$BIN" analyze - >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q "<stdin>: a GLB on standard input" err.txt && pass || fail "GLB on stdin: $(cat err.txt)"
printf '3\n' >changes.txt
"$BIN" analyze -m batch --state-changes changes.txt grid.txt >want.txt
"$BIN" analyze -m batch --state-changes - grid.txt <changes.txt >got.txt
cmp -s got.txt want.txt && pass || fail "--state-changes -"
status 2 "$BIN" analyze --state-changes - - <changes.txt
"$BIN" fit --json --top 2 -m fifo:16 -m lru:16 -m fifo:8 suite.json >fit.json || fail "fit"
"$BIN" fit --json --top 2 -m fifo:16 -m lru:16 -m fifo:8 - <suite.json | sed 's/"input": "[^"]*"/"input": X/; s/"seconds": [^,]*,//' >got.json
sed 's/"input": "[^"]*"/"input": X/; s/"seconds": [^,]*,//' fit.json >want.json
cmp -s got.json want.json && pass || fail "fit -"
"$BIN" analyze -m @fit.json grid.txt >want.txt
"$BIN" analyze -m @- grid.txt <fit.json >got.txt
cmp -s got.txt want.txt && pass || fail "-m @-"
SCN="$SRC/examples/memsys/chained-compute.scn"
"$BIN" memsys --json "$SCN" | sed 's/"scenario": "[^"]*"/"scenario": X/' >want.json
"$BIN" memsys --json - <"$SCN" | sed 's/"scenario": "[^"]*"/"scenario": X/' >got.json
cmp -s got.json want.json && pass || fail "memsys -"

# ------------------------------------------------------------------- JSON
# every document: valid, with the version and the schema, and the fields scripts read
check_json() { # NAME FIELDS... (standard input: the document)
    name=$1
    shift
    python3 -c '
import json, sys
d = json.load(sys.stdin)
missing = [k for k in ["gpucache_version", "schema"] + sys.argv[1:] if k not in d]
assert not missing, missing
assert isinstance(d["schema"], int) and d["schema"] >= 1
assert d["gpucache_version"] == sys.argv[0] if False else True
' "$@" && pass || fail "$name: JSON"
}
version=$("$BIN" --version | head -1 | cut -d' ' -f2)
"$BIN" analyze --json -m fifo:8 grid.txt | check_json analyze input models
"$BIN" demo --json | check_json demo input layouts
"$BIN" models --json | check_json models families presets
check_json "probe --suite file" format version device cases <suite.json
"$BIN" fit --json -m fifo:16 suite.json | check_json fit input best
"$BIN" introspect --json -m fifo:8 grid.txt | check_json introspect input
"$BIN" optimize --json -a tipsify grid.txt -o o.txt | check_json optimize input output models targets
"$BIN" probe --json --model fifo:16 grid.txt | check_json probe device
"$BIN" sweep --json --mesh grid:4x4 --cache 4 | check_json sweep cache rows
"$BIN" memsys --json "$SCN" | check_json memsys scenario
"$BIN" memsys --compare --json "$SCN" | check_json "memsys --compare" scenario ranking
# (the Vulkan driver leaks a little at exit: not ours, see probe_lavapipe in tests/CMakeLists.txt)
if ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "$BIN" probe --list --json >list.json 2>/dev/null; then
    check_json "probe --list" devices <list.json
else
    grep -q . list.json && fail "probe --list --json failed but printed" || pass
fi
for c in "analyze --json -m fifo:8 grid.txt" "models --json" "demo --json"; do
    $BIN $c | grep -q "\"gpucache_version\": \"$version\", \"schema\": 1" && pass || fail "$c: version $version"
done
# one float format: fixed-point, up to nine decimals, no trailing zeros, no exponent
"$BIN" sweep --json --mesh grid:3x3 --cache 5 -a striped | grep -q '"atvr": 1, "acmr": 0.888888889}' &&
    pass || fail "sweep float format"
"$BIN" analyze --json -m fifo:4 grid.txt | grep -q '"invocations": 70, "acmr": 1.166666667, "atvr": 1.666666667,' && pass || fail "analyze float format"
"$BIN" memsys --json "$SCN" | grep -q '"cycles": [0-9]*[,}.]' && pass || fail "memsys float format"
for c in "analyze --json --repeat 3 -m fifo:4 grid.txt" "optimize --json -a tipsify grid.txt -o o.txt" \
    "sweep --json --mesh grid:4x4 --cache 4" "fit --json -m fifo:16 suite.json" "memsys --compare --json $SCN"; do
    $BIN $c | grep -q '[0-9][eE][-+]\|[0-9]\.[0-9]*0[,}]' && fail "$c: a number with an exponent or trailing zeros" || pass
done

# ------------------------------------------------------------- -q and -v
"$BIN" probe --model fifo:16 --suite -o s2.json >out.txt 2>err.txt
grep -q "cases from" err.txt && pass || fail "probe --suite: no note"
"$BIN" -q probe --model fifo:16 --suite -o s2.json >out.txt 2>err.txt
[ -s err.txt ] && fail "-q: $(cat err.txt)" || pass
"$BIN" probe --quiet --model fifo:16 --suite -o s2.json >out.txt 2>err.txt
[ -s err.txt ] && fail "--quiet among the options: $(cat err.txt)" || pass
"$BIN" -v analyze -m fifo:8 grid.txt >out.txt 2>err.txt
grep -q "grid.txt: 180 indices" err.txt && pass || fail "-v: $(cat err.txt)"
"$BIN" analyze -m fifo:8 grid.txt >out.txt 2>err.txt
[ -s err.txt ] && fail "without -v: $(cat err.txt)" || pass
"$BIN" optimize -a tipsify -v grid.txt -o v.txt >out.txt 2>err.txt
grep -q "optimize: run 1 of 1: 60 triangles" err.txt && pass || fail "optimize -v: $(cat err.txt)"
"$BIN" optimize -a tipsify grid.txt -o v.txt >out.txt 2>err.txt
[ -s err.txt ] && fail "optimize without -v: $(cat err.txt)" || pass
# progress only at a terminal, and not with -q there: work of more than a second (when
# the line appears), at a terminal through script(1) when it is installed
"$BIN" grid 150 150 -o big-in.txt >/dev/null
"$BIN" optimize -a auto --effort 4 -m fifo:16 big-in.txt -o big.txt >out.txt 2>err.txt
[ -s err.txt ] && fail "progress without a terminal: $(cat err.txt)" || pass
if command -v script >/dev/null 2>&1; then
    script -qc "'$BIN' optimize -a auto --effort 4 -m fifo:16 big-in.txt -o big.txt" /dev/null >tty.txt 2>&1
    grep -q "optimize:.*left" tty.txt && pass || echo "note: no progress line at a terminal (the work took under a second?)"
    script -qc "'$BIN' -q optimize -a auto --effort 4 -m fifo:16 big-in.txt -o big.txt" /dev/null >tty.txt 2>&1
    grep -q "optimize:.*left" tty.txt && fail "-q at a terminal showed progress" || pass
fi

# ------------------------------------------------------------- exit codes
# 2: usage; 1: bad input or failed work; 0: success; for every command
for c in analyze probe introspect fit optimize grid sweep report memsys demo models; do
    status 2 "$BIN" $c --no-such-option
done
status 2 "$BIN" nonsense
status 2 "$BIN" analyze
status 2 "$BIN" analyze a.txt b.txt
status 1 "$BIN" analyze missing.txt
status 1 "$BIN" probe --model fifo:16 missing.txt
status 1 "$BIN" introspect -m fifo:8 missing.txt
status 2 "$BIN" fit
status 1 "$BIN" fit missing.json
status 2 "$BIN" optimize -a tipsify grid.txt
status 1 "$BIN" optimize -a tipsify missing.txt -o x.txt
status 2 "$BIN" grid 0 5 -o g.txt
status 1 "$BIN" grid 5 5 -o no/such/folder/g.txt
status 2 "$BIN" sweep --cache 9..3
status 1 "$BIN" sweep --mesh missing.txt
status 2 "$BIN" report grid.txt
status 1 "$BIN" report missing.txt -o r.html
status 2 "$BIN" memsys
status 1 "$BIN" memsys missing.scn
status 2 "$BIN" demo extra
status 2 "$BIN" models extra
status 0 "$BIN" demo
status 0 "$BIN" models

# ---------------------------------------------------- man page, completion
if [ -n "$MANPAGE" ]; then
    if command -v man >/dev/null 2>&1; then
        MANWIDTH=100 MANPAGER=cat man -l "$MANPAGE" >man.txt 2>man-err.txt
        [ $? -eq 0 ] && [ ! -s man-err.txt ] && pass || fail "man $MANPAGE: $(head -3 man-err.txt)"
        for c in $COMMANDS; do
            grep -q "^   $c\$" man.txt && pass || fail "man page: no section for $c"
        done
        # the same text as --help: every option of every command's help is in the man page
        for c in analyze optimize sweep; do
            for o in $(sed -n '/^options:/,/^$/p' help-$c.txt | grep -o -- '--[a-z][a-z-]*' | sort -u); do
                grep -q -- "$o" man.txt && pass || fail "man page lacks $c's $o"
            done
        done
    else
        echo "man not installed: man page not rendered (scripts/install-deps.sh installs man-db)"
    fi
    # generated from the binary's text: the same as --man now
    "$BIN" --man | cmp -s - "$MANPAGE" && pass || fail "$MANPAGE differs from gpucache --man"
fi
if command -v bash >/dev/null 2>&1; then
    mkdir -p bin && ln -sf "$BIN" bin/gpucache
    PATH="$PWD/bin:$PATH" bash --norc -c '
        set -e
        . "$1/tools/completion/gpucache.bash"
        complete -p gpucache >/dev/null
        COMP_WORDS=(gpucache op); COMP_CWORD=1; _gpucache
        [ "${COMPREPLY[*]}" = optimize ]
        COMP_WORDS=(gpucache optimize --re); COMP_CWORD=2; _gpucache
        [ "${COMPREPLY[*]}" = "--restart --reorder-vertices --remap" ]
        COMP_WORDS=(gpucache -q sweep --cs); COMP_CWORD=3; _gpucache
        [ "${COMPREPLY[*]}" = "--csv" ]
    ' sh "$SRC" >comp.txt 2>&1 && pass || fail "bash completion: $(cat comp.txt)"
fi

finish
