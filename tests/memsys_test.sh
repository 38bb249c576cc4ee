#!/bin/sh
# `gpucache memsys` on the command line: the acceptance command on the shipped example,
# JSON, and malformed scenarios (one line naming the file and line, exit status 1).
# usage: memsys_test.sh GPUCACHE_BINARY EXAMPLES_DIR WORK_DIR
set -u
. "$(dirname "$0")/test_lib.sh"
BIN=$1
EXAMPLES=$2
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

"$BIN" memsys --compare "$EXAMPLES/chained-compute.scn" >compare.txt 2>err.txt || fail "compare: $(cat err.txt)"
if grep -q '^1 ' compare.txt && grep -q '^4 ' compare.txt; then pass; else fail "no ranking: $(cat compare.txt)"; fi
if grep -q 'hazard under as-written: .*cp-cannot-see-semaphore' compare.txt; then pass; else fail "semaphore hazard not flagged"; fi
# the strategies without the hazard do not report it
if ! grep -q 'hazard under sc-as-uc' compare.txt && ! grep -q 'hazard under l2-bypass' compare.txt; then pass; else fail "hazard under UC or L2 bypass"; fi
for f in "$EXAMPLES"/*.scn; do
    "$BIN" memsys --json "$f" >out.json 2>err.txt || { fail "$f: $(cat err.txt)"; continue; }
    if grep -q '"total": {"l1": {"RO"' out.json && grep -q '"hazards": \[' out.json; then pass; else fail "$f json"; fi
done
printf 'buffer a size=1K type=RO\ndispatch d\n  read b\nend\n' >bad.scn
"$BIN" memsys bad.scn >out.txt 2>err.txt
st=$?
if [ "$st" -eq 1 ] && grep -q "bad.scn:3: unknown buffer 'b'" err.txt && [ "$(wc -l <err.txt)" -eq 1 ]; then pass; else fail "bad.scn: exit $st, $(cat err.txt)"; fi
"$BIN" memsys missing.scn >out.txt 2>err.txt
if [ $? -eq 1 ] && grep -q "missing.scn" err.txt; then pass; else fail "missing.scn: $(cat err.txt)"; fi
"$BIN" memsys --strategy nonsense bad.scn >out.txt 2>err.txt
if [ $? -eq 2 ]; then pass; else fail "--strategy nonsense accepted"; fi

finish
