#!/bin/sh
# Issue 28: every list of the model families comes from the library's table. For each
# family gc_family_get gives (tests/family_names.c), it must be in `gpucache models` (text
# and JSON, in table order), in the help's MODEL section, in the man page, and in the bash
# completion after -m; and the fuzzer, test_sim and Python must take the list from the
# table (Python's own check is python/tests/test_api.py, test_families_are_the_table).
# usage: family_lists_test.sh GPUCACHE FAMILY_NAMES SOURCE_DIR MANPAGE WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
NAMES=$2
SRC=$3
MANPAGE=$4
WORK=$5
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

"$NAMES" >table.txt || fail "family_names failed"
[ "$(wc -l <table.txt)" -ge 13 ] && pass || fail "the table has $(wc -l <table.txt) families"
cut -f1 table.txt >names.txt

"$BIN" models >models.txt || fail "models"
"$BIN" models --json >models.json || fail "models --json"
"$BIN" help >help.txt || fail "help"
sed -n '/^MODEL:/,/^[A-Z]/p' help.txt >model-section.txt
sed -n '/^\.SH MODEL/,/^\.SH [A-Z]/p' "$MANPAGE" | sed 's/\\-/-/g' >man-section.txt

# JSON: the families in table order
grep -o '"family": "[^"]*"' models.json | sed 's/"family": "//; s/"$//' >json-names.txt
cmp -s names.txt json-names.txt && pass || fail "models --json lists $(tr '\n' ' ' <json-names.txt)"

# bash completion of -m: the families and presets
if command -v bash >/dev/null 2>&1; then
    mkdir -p bin && ln -sf "$BIN" bin/gpucache
    PATH="$PWD/bin:$PATH" bash --norc -c '. "$1/tools/completion/gpucache.bash"
        COMP_WORDS=(gpucache analyze -m ""); COMP_CWORD=3; _gpucache; printf "%s\n" "${COMPREPLY[@]}"' \
        sh "$SRC" >completion.txt 2>&1 || fail "bash completion: $(cat completion.txt)"
    grep -qx intel completion.txt && pass || fail "bash completion lacks the presets: $(cat completion.txt)"
fi
grep -q 'gpucache models' "$SRC/tools/completion/_gpucache" && pass || fail "zsh completion does not ask gpucache models"

while IFS="$(printf '\t')" read -r name syntax; do
    grep -qF "  $syntax " models.txt || grep -qxF "  $syntax" models.txt || fail "models lacks $syntax"
    # help and man page: the name, then ':' or '[' (its syntax with defaults)
    grep -Eq "(^| )$name[:[]" model-section.txt || fail "help's MODEL section lacks $name"
    grep -Eq "(^| )$name[:[]" man-section.txt || fail "the man page's MODEL section lacks $name"
    if [ -s completion.txt ]; then grep -qx "$name" completion.txt || fail "bash completion lacks $name"; fi
    pass
done <table.txt

# the code that must cover every family iterates the table
for f in fuzz/fuzz_models.c tests/test_sim.c python/gpucache/__init__.py; do
    grep -q 'gc_family_get\|gc_family_count' "$SRC/$f" && pass || fail "$f does not iterate the family table"
done

finish
