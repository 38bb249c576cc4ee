#!/bin/sh
# Every file of tests/bad-inputs/MANIFEST through the command it names: the exit status
# must be the one listed (never a signal), and a failure must print exactly one line that
# contains the listed text. (tests/bad-inputs/generate.py wrote the files.)
# usage: bad_inputs_test.sh GPUCACHE_BINARY BAD_INPUTS_DIR WORK_DIR
set -u
BIN=$1
DIR=$2
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
passed=0
failed=0
while IFS='|' read -r file want text cmd; do
    case "$file" in '#'* | '') continue ;; esac
    args=$(printf '%s' "$cmd" | sed "s|{}|$DIR/$file|g")
    # shellcheck disable=SC2086
    (cd "$WORK" && "$BIN" $args >out.txt 2>err.txt)
    got=$?
    if [ "$got" -ne "$want" ]; then
        failed=$((failed + 1))
        echo "FAIL: $file ($cmd): exit $got, expected $want: $(head -c 300 "$WORK/err.txt")"
        continue
    fi
    if [ "$want" -ne 0 ] && { [ "$(wc -l <"$WORK/err.txt")" -ne 1 ] || ! grep -qF -- "$text" "$WORK/err.txt"; }; then
        failed=$((failed + 1))
        echo "FAIL: $file ($cmd): expected one line containing '$text', got: $(head -c 300 "$WORK/err.txt")"
        continue
    fi
    passed=$((passed + 1))
done <"$DIR/MANIFEST"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -ge 50 ]
