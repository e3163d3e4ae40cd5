#!/bin/bash
# check-cli.sh - the cond* goldens through the pcexpand program.
#
# Usage: check-cli.sh PCEXPAND
# For every case of manifest.yaml, `pcexpand input.el` run in the case's
# directory must print exactly expected.el (nothing for expect: error),
# write exactly expected.err on stderr (nothing for expect: ok: no
# diagnostic, note or summary) and exit with 0, or 2 for expect: error.
# Error cases are run with --compact too (same diagnostics, no output).
# When the program can turn the memo cache off (--no-memo or --memo=off),
# every case is run again so: the cache must not change any output.  Last, a pattern nested
# deeper than the limit must fail with one nesting-too-deep error.
set -uo pipefail

pcexpand=${1:?usage: check-cli.sh PCEXPAND}
pcexpand=$(cd "$(dirname "$pcexpand")" && pwd)/$(basename "$pcexpand")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 runs=0 cases=0 errors=0

fail() {
  echo "FAIL $*" >&2
  failures=$((failures + 1))
}

# same FILE WHAT ID: does $tmp/FILE equal the golden (or is it empty)?
same() {
  local got=$tmp/$1 golden=$2 id=$3
  if [ -n "$golden" ]; then
    if ! cmp -s "$got" "$golden"; then
      fail "$id: $(basename "$golden") differs:"
      diff "$golden" "$got" | head -20 >&2
    fi
  elif [ -s "$got" ]; then
    fail "$id: unexpected $1:"
    head -20 "$got" >&2
  fi
}

# run_case ID EXPECT OPTION...: one run of the program on one case.
run_case() {
  local id=$1 expect=$2
  shift 2
  local dir=$here/$id want_out='' want_err='' want_status=0 status=0 how=${*:-default}
  [ "$expect" != error ] && want_out=$dir/expected.el
  [ "$expect" != ok ] && want_err=$dir/expected.err
  [ "$expect" = error ] && want_status=2
  (cd "$dir" && "$pcexpand" "$@" input.el) >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
  runs=$((runs + 1))
  [ "$status" -eq "$want_status" ] ||
    fail "$id ($how): exit status $status, expected $want_status"
  same stdout "$want_out" "$id ($how)"
  same stderr "$want_err" "$id ($how)"
}

option_sets=("")
help=$("$pcexpand" --help)
if grep -q -e '--no-memo' <<<"$help"; then
  option_sets+=(--no-memo)
elif grep -q -e '--memo=' <<<"$help"; then
  option_sets+=(--memo=off)
else
  echo "note: $pcexpand has no --no-memo option; memo on/off identity is checked by test_condstar only"
fi

# "  - id: ID" then "    expect: WHAT", as test_condstar.c reads them.
while read -r id expect; do
  cases=$((cases + 1))
  [ "$expect" = error ] && errors=$((errors + 1))
  for opts in "${option_sets[@]}"; do
    # shellcheck disable=SC2086 # empty or one word
    run_case "$id" "$expect" $opts
    # shellcheck disable=SC2086
    [ "$expect" = error ] && run_case "$id" "$expect" --compact $opts
  done
done < <(awk '/^ *- id: / { id = $3 } /^ *expect: / && id != "" { print id, $2; id = "" }' \
           "$here/manifest.yaml")

[ "$cases" -ge 40 ] || fail "only $cases cases in manifest.yaml"

# Deeper than the nesting limit (1000): an error, not a crash.
awk 'BEGIN { s = "(cond* ((match* "; for (i = 0; i < 1200; i++) s = s "(cons a ";
             s = s "b"; for (i = 0; i < 1200; i++) s = s ")"; print s " x) 1))" }' >"$tmp/deep.el"
status=0
(cd "$tmp" && "$pcexpand" deep.el) >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
[ "$status" -eq 2 ] || fail "deep.el: exit status $status, expected 2"
same stdout "" deep.el
if ! grep -qx 'deep\.el:1:[0-9]*: error: nesting too deep (more than 1000 levels) \[nesting-too-deep\]' \
       "$tmp/stderr" || [ "$(wc -l <"$tmp/stderr")" -ne 1 ]; then
  fail "deep.el: expected one nesting-too-deep error, got:"
  head -5 "$tmp/stderr" >&2
fi

echo "cond* goldens through pcexpand: $cases cases ($errors with errors), $runs runs, $failures failures"
[ "$failures" -eq 0 ]
