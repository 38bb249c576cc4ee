#!/bin/sh
# Issue 14, item 1: names that reach a gnuplot script are data, never code. A mesh whose
# file name holds quotes, backquotes, a newline, a gnuplot system() call, @macros, a
# backslash and non-ASCII text, plotted to an output whose own name is as hostile, must run
# no command and still give a plot whose title is the name, byte for byte.
# usage: security_plot_test.sh GPUCACHE_BINARY WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
command -v gnuplot >/dev/null || { echo "gnuplot not installed: skipped"; exit 77; }

nl='
'
mesh="evil'\"\`touch pwned-backquote\`${nl}system('touch pwned-system') @m \\ é_^{x}.obj"
plot="plot '\`touch pwned-output\`${nl}@m.svg"
"$BIN" grid 4 4 -o "$mesh" >/dev/null 2>&1 || fail "grid -o a hostile name"

# SVG: the title is in the image as text (gnuplot writes a line break as two <text> lines)
"$BIN" sweep --mesh "$mesh" -a tipsify,forsyth --cache 4..6 -m fifo:16 --plot "$plot" >out.txt 2>err.txt
status=$?
if [ "$status" -eq 0 ]; then pass; else fail "sweep --plot exit $status: $(cat err.txt)"; fi
for f in pwned-backquote pwned-system pwned-output; do
    if [ -e "$f" ]; then fail "a name ran a command: $f exists"; else pass; fi
done
if [ -s "$plot" ]; then pass; else fail "no plot written"; fi
if grep -qF "<text>evil'\"\`touch pwned-backquote\`</text>" "$plot" &&
    grep -qF "<text>system('touch pwned-system') @m \\ é_^{x}.obj, fifo:16</text>" "$plot"; then
    pass
else
    fail "the title is not the file name: $(grep -A1 evil "$plot" | head -4)"
fi
# the script beside the plot is all code we wrote: one line per statement, no byte of the
# name outside a literal (the name's own quote, backquote and newline never appear raw)
gp="plot '\`touch pwned-output\`${nl}@m.gp"
if [ -f "$gp" ] && ! grep -q '`' "$gp" && ! grep -q "evil'" "$gp"; then pass; else fail "raw name in the script"; fi
# the script alone redraws the figure where it was drawn (its set output names the plot)
rm -f "$plot"
if gnuplot "$gp" 2>/dev/null && [ -s "$plot" ] && [ ! -e pwned-output ]; then pass; else fail "script alone"; fi
# PNG through pngcairo, and no temporary folder or file left beside it
"$BIN" sweep --mesh "$mesh" -a tipsify --cache 4..5 -m fifo:16 --plot "a b.png" >/dev/null 2>err.txt
if [ -s "a b.png" ] && [ "$(head -c 4 "a b.png" | od -An -c | tr -d ' ')" = "211PNG" ]; then pass; else fail "png: $(cat err.txt)"; fi
if ls -a | grep -q -e '^\.gpucache-plot' -e 'tmp'; then fail "temporary left: $(ls -a)"; else pass; fi
finish
