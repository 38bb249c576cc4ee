#!/bin/sh
# Issue 29 item 6: the README's two examples run. examples/hello/hello.c (built by CTest) and
# examples/hello/hello.py (run with /usr/bin/python3 against this build's Python library)
# load a mesh, count it under the "generic" preset, reorder it with tipsify and count again.
# Both print one line of the same form, the same numbers (one library underneath), and the
# reordering costs fewer invocations than the file's order; a missing file fails with one
# line naming it; README.md shows both files as they are. Python's half is skipped (not
# failed) without numpy or cffi.
# usage: hello_example_test.sh HELLO LIBGPUCACHE_PYTHON SOURCE_DIR MESH SANITIZED
set -u
. "$(dirname "$0")/test_lib.sh"
HELLO=$1
PYLIB=$2
SRC=$3
MESH=$4
SANITIZED=$5

# the README shows the two files as they are (its only ```c and ```python blocks)
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
for pair in "c:hello.c" "python:hello.py"; do
    lang=${pair%%:*}
    file=${pair#*:}
    awk -v open="\`\`\`$lang" '$0 == "```" && on { exit } on { print } $0 == open { on = 1 }' "$SRC/README.md" >"$tmp"
    cmp -s "$tmp" "$SRC/examples/hello/$file" && pass || fail "README.md's $lang example is not examples/hello/$file"
done

c_line=$("$HELLO" "$MESH") && pass || fail "hello $MESH failed"
echo "C:      $c_line"
# "MESH under generic: B invocations (ATVR x), after tipsify A (ATVR y)", with A < B
before=$(echo "$c_line" | sed -n 's/.* under generic: \([0-9]*\) invocations .*/\1/p')
after=$(echo "$c_line" | sed -n 's/.*after tipsify \([0-9]*\) (ATVR.*/\1/p')
[ -n "$before" ] && [ -n "$after" ] && [ "$after" -lt "$before" ] && pass ||
    fail "hello: expected fewer invocations after tipsify: '$c_line'"
err=$("$HELLO" "$MESH.missing" 2>&1 >/dev/null)
[ $? -eq 1 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -qF "$MESH.missing" && pass ||
    fail "hello on a missing file: '$err'"

if [ "$SANITIZED" = 1 ] || ! /usr/bin/python3 -c 'import numpy, cffi' 2>/dev/null; then
    echo "hello.py: skipped (sanitizer build, or no numpy/cffi)"
else
    py_line=$(GPUCACHE_LIBRARY="$PYLIB" PYTHONPATH="$SRC/python" PYTHONDONTWRITEBYTECODE=1 \
        /usr/bin/python3 "$SRC/examples/hello/hello.py" "$MESH") && pass || fail "hello.py $MESH failed"
    echo "Python: $py_line"
    [ "$py_line" = "$c_line" ] && pass || fail "hello.py and hello.c disagree"
fi
finish
