#!/bin/sh
# Issue 14, items 5 (memsys part), 7 and 9: numbers that wrapped around silently, fractional
# machine parameters, and tiny inputs that asked for unbounded work. Each case: the exit
# status, one error line naming the file and line (or the option), and, for the work
# bounds, an answer within a time limit where the old code ran for minutes or hours.
# usage: security_limits_test.sh GPUCACHE_BINARY WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

# expect STATUS TEXT CMD...: exit status STATUS, TEXT in standard error, no standard output
# on failure; bounded by 30 s so that a hang fails instead of stalling the suite.
expect() {
    want=$1 text=$2
    shift 2
    timeout 30 "$@" >out.txt 2>err.txt
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "$* : exit $got, wanted $want ($(head -c 300 err.txt))"
    elif [ -n "$text" ] && ! grep -qF -- "$text" err.txt; then
        fail "$* : stderr lacks '$text': $(head -c 300 err.txt)"
    elif [ "$want" -ne 0 ] && [ -s out.txt ]; then
        fail "$* : output on failure: $(head -c 200 out.txt)"
    else
        pass
    fi
}

# --- item 9: state-change positions. 18446744073709551619 = 2^64 + 3 was read as 3.
printf '0 18446744073709551619\n' >wrap.txt
expect 1 "wrap.txt:1: state change at 18446744073709551619 is past the end" \
    "$BIN" analyze -m batch --state-changes wrap.txt grid:2x2
printf '# ok\n4, 12\n' >ok.txt
expect 0 "" "$BIN" analyze -m batch --state-changes ok.txt grid:2x2
printf '1\n2.5\n' >frac.txt
expect 1 "frac.txt:2: '2.5' is not a position (is not a whole number)" \
    "$BIN" analyze -m batch --state-changes frac.txt grid:2x2

# --- item 9: memsys sizes. 17592186044417M = (2^44 + 1) x 2^20 = 2^64 + 2^20 wrapped to 1 MiB.
printf 'buffer b size=17592186044417M type=RO\ndispatch d\n read b bytes=4K\nend\n' >size.scn
expect 1 "size.scn:1: bad buffer size '17592186044417M': is out of range" "$BIN" memsys size.scn
printf 'buffer b size=4K type=RO\ndispatch d\n read b bytes=18446744073709551616\nend\n' >bytes.scn
expect 1 "bytes.scn:3: bytes=18446744073709551616 is out of range" "$BIN" memsys bytes.scn
printf 'buffer b size=4K type=RO\ndispatch d cus=4294967297\nend\n' >cus.scn
expect 1 "cus.scn:2: cus=4294967297 is out of range" "$BIN" memsys cus.scn
printf 'buffer b size=1G type=RO\ndispatch d\n read b ws=4K bytes=8K seed=18446744073709551615\nend\n' >big-seed.scn
expect 0 "" "$BIN" memsys big-seed.scn

# --- item 5: a fractional machine parameter where a count is needed was truncated (2.5 -> 2).
printf 'machine cus=2.5\nbuffer b size=4K type=RO\ndispatch d\n read b\nend\n' >cus-frac.scn
expect 1 "cus-frac.scn:1: machine parameter 'cus'=2.5 is not a whole number" "$BIN" memsys cus-frac.scn
printf '# comment\nmachine line_bytes=64 l2_kb=512.5\n' >kb-frac.scn
expect 1 "kb-frac.scn:2: machine parameter 'l2_kb'=512.5 is not a whole number" "$BIN" memsys kb-frac.scn
printf 'machine l2_kb=0x10\n' >hex.scn   # strtod took this as 16
expect 1 "hex.scn:1: machine parameter 'l2_kb'=0x10 is not a number" "$BIN" memsys hex.scn
# a rate may be fractional
printf 'machine onion_bytes_per_cycle=2.5\nbuffer b size=4K type=SC\ndispatch d\n write b\nend\nl2_wb sc\n' >rate.scn
expect 0 "" "$BIN" memsys rate.scn

# --- item 9: grids and ranges on the command line. 4294967300 = 2^32 + 4 was read as 4.
expect 2 "grid:4294967300x4: expected grid:WxH" "$BIN" analyze -m fifo:8 grid:4294967300x4
expect 2 "grid:4x-1: expected grid:WxH" "$BIN" analyze -m fifo:8 grid:4x-1
expect 2 "--cache 4294967300..4294967302: expected A..B" \
    "$BIN" sweep --mesh grid:2x2 --cache 4294967300..4294967302 -a original -m fifo:4
expect 2 "--cache 8..4: expected A..B" "$BIN" sweep --mesh grid:2x2 --cache 8..4 -a original -m fifo:4
expect 2 "--mesh grid:4294967297x2: expected grid:WxH" "$BIN" sweep --mesh grid:4294967297x2 -a original -m fifo:4
expect 2 "--restart value '4294967296'" "$BIN" analyze -m fifo:8 --restart=4294967296 grid:2x2
expect 2 "model 'fifo:18446744073709551632': entries 18446744073709551632 is out of range" \
    "$BIN" analyze -m fifo:18446744073709551632 grid:2x2
expect 2 "--seed needs an unsigned 64-bit number, not '18446744073709551616'" \
    "$BIN" optimize -a auto --seed 18446744073709551616 grid:2x2 -o seed.txt
expect 2 "--repeat needs a count" "$BIN" analyze -m fifo:8 --repeat 9223372036854775808 grid:2x2

# --- item 7: grids a few characters long that asked for gigabytes.
expect 2 "grid 20000 x 20000 is 400000000 quads, more than the limit of 16777216" \
    "$BIN" grid 20000 20000 -o huge.txt
if [ -e huge.txt ]; then fail "grid left huge.txt"; else pass; fi
expect 2 "grid:20000x20000: expected grid:WxH with W and H in [1, 20000] and W x H at most 16777216 quads" \
    "$BIN" analyze -m fifo:8 grid:20000x20000

# --- item 7: memsys work is bounded before the replay starts. 16384 MiB of random reads of
# 64-byte lines is 2^28 line accesses, over the default 2^27: refused at once.
printf 'buffer b size=16384M type=RO\ndispatch d\n read b pattern=random bytes=16384M\nend\n' >huge.scn
start=$(date +%s)
expect 1 "huge.scn: the scenario asks for" "$BIN" memsys huge.scn
if grep -qF "more than the limit of 134217728; raise it with --max-accesses N" err.txt; then pass; else
    fail "limit message: $(cat err.txt)"; fi
if [ $(($(date +%s) - start)) -le 5 ]; then pass; else fail "memsys took $(($(date +%s) - start)) s to refuse"; fi
# the flag moves the bound both ways; --compare counts its four replays
printf 'buffer b size=64K type=RO\ndispatch d\n read b\nend\n' >small.scn
expect 0 "" "$BIN" memsys small.scn
expect 1 "small.scn: the scenario asks for" "$BIN" memsys --max-accesses 100 small.scn
expect 0 "" "$BIN" memsys --max-accesses 1G small.scn
expect 1 "(four strategies)" "$BIN" memsys --compare --max-accesses 20000 small.scn
expect 2 "--max-accesses needs a positive count" "$BIN" memsys --max-accesses 0 small.scn
expect 2 "--max-accesses needs a positive count" "$BIN" memsys --max-accesses 18446744073709551616 small.scn
# events count the cache lines they go over: 100000 L2 invalidates of a 32 MiB L2 at 16-byte
# lines (2 M lines) would be 2e11 steps
awk 'BEGIN { print "machine line_bytes=16 l2_kb=32768 l1_kb=1 kcache_kb=1"; for (i = 0; i < 100000; i++) print "l2_inv all" }' >inv.scn
expect 1 "inv.scn: the scenario asks for" "$BIN" memsys inv.scn
# many buffers and accesses parse in linear time (the name lookup was a linear scan)
awk 'BEGIN { for (i = 0; i < 60000; i++) print "buffer b" i " size=64 type=RO"; print "dispatch d";
             for (i = 0; i < 60000; i++) print " read b" (59999 - i); print "end" }' >many.scn
start=$(date +%s)
expect 0 "" "$BIN" memsys many.scn
if [ $(($(date +%s) - start)) -le 10 ]; then pass; else fail "many buffers took $(($(date +%s) - start)) s"; fi
awk 'BEGIN { for (i = 0; i < 70000; i++) print "buffer b" i " size=64 type=RO" }' >too-many.scn
expect 1 "too-many.scn:65537: more than 65536 buffers" "$BIN" memsys too-many.scn
awk 'BEGIN { print "machine line_bytes=16 l2_kb=65536 l1_kb=1024 cus=64" }' >caches.scn
expect 1 "caches.scn:1: the machine's caches hold" "$BIN" memsys caches.scn

# --- item 7: introspect. On fifo:3, "0 1 2 2 1 3" leaves {1, 2, 3} cached (3 evicts 0).
printf '0 1 2 2 1 3\n' >tri.txt
"$BIN" introspect -m fifo:3 tri.txt >intro.txt 2>err.txt || fail "introspect: $(cat err.txt)"
if grep -qF '3 of 4 indices still cached:' intro.txt && grep -qxF '[1, 2, 3]' intro.txt; then pass; else
    fail "introspect fifo:3: $(cat intro.txt)"; fi
# LRU: the hits on 2 and 1 refresh them, so 3 evicts 0 as well; lru:2 keeps {1, 3}
"$BIN" introspect -m lru:2 tri.txt >intro.txt 2>err.txt || fail "introspect: $(cat err.txt)"
if grep -qxF '[1, 3]' intro.txt; then pass; else fail "introspect lru:2: $(cat intro.txt)"; fi
# near-linear on a FIFO: a 300 x 300 grid (90601 candidates x 540000 indices, hours before).
# Vertex rows 299 and 300 are 89999..90299 and 90300..90600; each of the last quads x inserts
# its right-hand pair (89999 + x + 1, 90300 + x + 1), so fifo:16 ends holding the pairs of
# the last 8 quads (x = 292..299): 90292..90299 and 90593..90600.
start=$(date +%s)
expect 0 "" "$BIN" introspect -m fifo:16 --json grid:300x300
if grep -qF '"candidates": 90601, "cached": [90292, 90293, 90294, 90295, 90296, 90297, 90298, 90299, 90593, 90594, 90595, 90596, 90597, 90598, 90599, 90600]}' out.txt; then pass; else
    fail "introspect grid:300x300: $(head -c 300 out.txt)"; fi
if [ $(($(date +%s) - start)) -le 10 ]; then pass; else fail "introspect took $(($(date +%s) - start)) s"; fi
# every model is linear since issue 16 (gc_introspect, through the model's state machine)
for m in nvidia llvmpipe batch meshopt:32,32,32 reuse:32,16,32 direct-position:32; do
    start=$(date +%s)
    expect 0 "" "$BIN" introspect -m "$m" --json grid:300x300
    if grep -qF '"candidates": 90601' out.txt; then pass; else fail "introspect -m $m grid:300x300: $(head -c 300 out.txt)"; fi
    if [ $(($(date +%s) - start)) -le 10 ]; then pass; else fail "introspect -m $m took $(($(date +%s) - start)) s"; fi
done
# a device still draws once per candidate: bounded, and refused before the work starts
if "$BIN" probe --list 2>/dev/null | grep -q llvmpipe; then
    expect 1 "grid:200x200: introspect would draw 40401 candidates x 240003 indices" \
        "$BIN" introspect --device 0 grid:200x200
fi

finish
