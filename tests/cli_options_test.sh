#!/bin/sh
# SPDX-License-Identifier: MIT
# The option parser reads each command's options from the help text (tools/cli-help.txt,
# tools/cli_options.c): every command's --help works (the parser's rows and the help's
# options agree, else an internal error), and every option the help lists is accepted
# (never "unknown option"), with a value where the help shows one.
# usage: tests/cli_options_test.sh GPUCACHE_BINARY HELP_TEXT
set -u
BIN=$1
HELP=$2
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for c in $("$BIN" --commands); do
    if ! "$BIN" "$c" --help >"$out" 2>&1 || ! head -n 1 "$out" | grep -q "^gpucache $c: "; then
        echo "FAIL: gpucache $c --help:"; cat "$out"; fail=1
    fi
done
# "@option -m, --model MODEL" under "@command analyze": analyze --model=1 --help
awk '/^@command / { c = $2 } /^@option / && c != "" { print c, $0 }' "$HELP" | while read -r c at flags; do
    long=$(echo "$flags" | sed -E 's/^-[a-zA-Z], //; s/[ [].*//')
    case "$flags" in
        *"[="*) arg=$long ;;
        *" "*) arg="$long=1" ;;
        *) arg=$long ;;
    esac
    [ "$long" = "--help" ] && continue
    "$BIN" "$c" "$arg" --help >"$out" 2>&1
    if grep -q "unknown option\|internal error\|needs a value" "$out"; then
        echo "FAIL: gpucache $c $arg --help:"; cat "$out"; echo x >"$out.fail"
    fi
done
[ -e "$out.fail" ] && { rm -f "$out.fail"; fail=1; }
[ $fail -eq 0 ] && echo "cli_options: every command's help and every option it lists are the parser's"
exit $fail
