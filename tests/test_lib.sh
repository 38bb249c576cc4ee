# Shared by the shell tests (sourced): counters, pass/fail, a JSON number, the summary.
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# num KEY: the integer value of "KEY" in the JSON on standard input
num() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p"; }
# finish: print the counts and exit non-zero on any failure
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
