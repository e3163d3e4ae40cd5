#!/bin/bash
# run.sh - the behaviours of Emacs's own pcase tests, after expansion.
#
# Usage: run.sh PCEXPAND [TESTS.el]
# TESTS.el (default pcase-behaviour-tests.el here) is a file of ERT tests
# that use pcase.  It is expanded by pcexpand (exit 0, no error), the
# expansion must hold no pcase-family form (pcexpand --check), and its
# tests run in Emacs 30.1 after no-pcase.el has made every pcase-family
# macro signal: once loaded from source, once byte-compiled.  Every test
# must give its expected result (ERT's "0 unexpected"), none skipped
# from source; byte-compiled, the tests that read an interpreted
# function's body skip.  Prints ERT's summary lines.
set -euo pipefail

prog=$(realpath "${1:?usage: run.sh PCEXPAND [TESTS.el]}")
here=$(cd "$(dirname "$0")" && pwd)
tests=$(realpath "${2:-$here/pcase-behaviour-tests.el}")
emacs=${EMACS:-emacs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
    echo "pcase-tests: $*"
    failures=$((failures + 1))
}

st=0
"$prog" -o "$tmp/tests.el" "$tests" 2>"$tmp/expand.err" || st=$?
cat "$tmp/expand.err"
[[ $st -eq 0 ]] || fail "pcexpand exited with $st"
! grep -q ': error: ' "$tmp/expand.err" || fail "pcexpand reported errors"
[[ -s $tmp/tests.el ]] || { fail "no expansion written"; exit 1; }
if ! "$prog" -q --check "$tmp/tests.el"; then
    fail "the expansion still holds pcase-family or cond* forms"
fi

n_tests=$(grep -c '^(ert-deftest ' "$tests")
cp "$tmp/tests.el" "$tmp/compiled.el"
# run NAME ARGS...: emacs with no-pcase.el, then ARGS, then the tests.
run() {
    local name=$1 st=0
    shift
    "$emacs" -Q --batch -l "$here/no-pcase.el" "$@" -f ert-run-tests-batch-and-exit \
        >"$tmp/$name.log" 2>&1 || st=$?
    local summary
    summary=$(grep '^Ran [0-9]* tests' "$tmp/$name.log" || true)
    echo "pcase-tests: $name: ${summary:-no summary}"
    if [[ $st -ne 0 || -z $summary ]]; then
        grep -E -A12 '^Test .* condition:|^Error|[Ee]rror:' "$tmp/$name.log" | head -n 60
        fail "$name: exit status $st"
    fi
    [[ $summary == "Ran $n_tests tests, "* ]] || fail "$name: not all $n_tests tests ran"
    [[ $summary == *", 0 unexpected"* ]] || fail "$name: unexpected results"
    skipped=$(sed -n 's/.*, \([0-9]*\) skipped.*/\1/p' <<<"$summary")
    echo "${skipped:-0}" >"$tmp/$name.skipped"
}
run source -l "$tmp/tests.el"
[[ $(cat "$tmp/source.skipped") -eq 0 ]] || fail "source: tests skipped"
run compiled --eval "(unless (byte-compile-file \"$tmp/compiled.el\") (kill-emacs 1))" \
    -l "$tmp/compiled.elc"

if [[ $failures -ne 0 ]]; then
    echo "pcase-tests: FAILED"
    exit 1
fi
echo "pcase-tests: ok ($n_tests tests)"
