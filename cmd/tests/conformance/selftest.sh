#!/bin/sh
# selftest.sh - checks the conformance harness itself (suite
# 'conformance-harness').  The stand-in expander (standin-expand: Emacs's
# own pcase macros) must pass the case files (rows flagged differs, where
# pcexpand departs from Emacs on purpose, skipped), random cases and the
# corpus; the same stand-in
# broken on purpose (clauses swapped; subjects evaluated twice) must be
# caught, with a shrunk failing form.
#
# Usage: selftest.sh EMACS CASES-DIR WORKDIR [CORPUS.tsv]
set -u
emacs=$1 cases=$2 work=$3 corpus=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
status=0

run() {
    "$emacs" -Q --batch -L "$here" -l pcxc-run -f pcxc-main \
        --expander "$here/standin-expand" --workdir "$work" "$@"
}

case_args="--cases $cases/pcase-edge.tsv --cases $cases/pcase-emacs30.tsv --cases $cases/pcase-behaviour.tsv"

# expect WANT NAME ARGS...: run the harness, compare its exit status.
expect() {
    want=$1 name=$2
    shift 2
    out=$(run "$@" 2>&1)
    got=$?
    printf '%s\n' "$out" | grep -E '^(conformance|MINIMAL)' | sed "s/^/  [$name] /"
    if [ "$got" -ne "$want" ]; then
        echo "selftest: $name: exit $got, expected $want"
        printf '%s\n' "$out" | tail -n 30
        status=1
    elif [ "$want" -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^FAIL '; then
        echo "selftest: $name: no FAIL reported"
        status=1
    else
        echo "selftest: $name: ok"
    fi
}

# shellcheck disable=SC2086
expect 0 stand-in $case_args --skip-flagged differs --max-skip-percent 100 \
    --random 1000 ${corpus:+--cases "$corpus" --gaps "$cases/corpus-gaps.tsv"}
# shellcheck disable=SC2086
expect 1 swapped-clauses --expander-arg=--break=swap $case_args \
    --skip-flagged differs --max-skip-percent 100 --random 300 --show 2 --shrink 1
expect 1 subject-twice --expander-arg=--break=twice --random 300 --show 2 \
    --shrink 1
exit $status
