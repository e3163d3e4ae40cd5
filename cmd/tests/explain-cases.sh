#!/bin/bash
# explain-cases.sh - the claims of --explain on testdata/explain, checked
# by Emacs (suite 'explain').
#
# Usage: explain-cases.sh PCEXPAND TESTDATA CHECK_EL
# testdata/explain/unreachable.el holds constructed clauses no value can
# choose (shadowed by a catch-all, by an or of the same constants, by type
# exclusion, by a pred another implies, by destructuring an earlier clause
# took) and look-alikes that can be chosen; forms.el the forms whose
# explanations are pinned.  For each: the warnings are those of its
# golden (unreachable.err: every constructed case, no look-alike), and
# CHECK_EL runs Emacs's pcase on every witness and on 40 values or more for
# every clause reported unreachable, its own example among them.
set -euo pipefail

prog=$(realpath "$1")
data=$(realpath "$2")/explain
check_el=$(realpath "$3")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$data"

st=0
"$prog" unreachable.el >/dev/null 2>"$tmp/u.err" || st=$?
[[ $st -eq 0 ]] || { echo "FAIL: exit status $st"; exit 1; }
grep -v unused-variable "$tmp/u.err" >"$tmp/u.warn" || true
diff -u unreachable.err "$tmp/u.warn" || { echo "FAIL: unreachable.err differs"; exit 1; }
n=$(grep -c 'warning: this clause can never be reached' unreachable.err)
[[ $n -ge 15 ]] || { echo "FAIL: only $n constructed cases"; exit 1; }
echo "explain-cases: $n clauses reported unreachable in unreachable.el, none of the look-alikes"

pairs=()
for f in unreachable.el forms.el; do
    j=$tmp/$f.jsonl
    "$prog" -q --explain --format=json "$f" >"$j"
    "$prog" -q --message-format=json "$f" 2>>"$j" >/dev/null
    pairs+=("$f" "$j")
done
emacs -Q --batch -l "$check_el" -f explain-check-main "${pairs[@]}" >"$tmp/check.out" 2>&1 || {
    cat "$tmp/check.out"
    echo "FAIL: explain-check.el"
    exit 1
}
grep '^explain-check: ' "$tmp/check.out"
grep -q '^explain-check: unreachable-no-own-example 1$' "$tmp/check.out" ||
    { echo "FAIL: a constructed clause was tried without a value of its own"; exit 1; }
echo "explain-cases: 1 passed, 0 failed"
