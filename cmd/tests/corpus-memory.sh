#!/bin/bash
# corpus-memory.sh - the program's memory over Emacs's own Lisp sources
# (suite 'corpus' of the sanitizer build, where the corpus checks that run
# Emacs are left out: they test the expansions, which this build does not
# change, and they run once, in the plain build).
#
# Usage: corpus-memory.sh PCEXPAND CORPUS_DIR [EXPECT_FILES]
# Every file read and printed again (--no-expand), expanded into an
# --out-dir (once in one thread, once with -j 2, once --no-memo), and
# checked (-c): each run must exit 0 with one output file per input.
# A sanitizer report aborts the program, which fails the run.
set -euo pipefail

prog=$(realpath "$1")
corpus=$2
expect_files=${3:-}
here=$(dirname "$(realpath "$0")")
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
corpus_unpacked corpus-memory "$corpus" "$tmp/src" || exit 1
if [[ -n $expect_files && $n_files != "$expect_files" ]]; then
    echo "corpus-memory: $n_files files, expected $expect_files" >&2
    exit 1
fi

fail=0
run() { # NAME ARGS...: one run of the program, which must exit 0
    local name=$1 st=0
    shift
    "$prog" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || st=$?
    if [[ $st != 0 ]]; then
        echo "corpus-memory: $name: pcexpand $* exited with $st:" >&2
        tail -n 20 "$tmp/$name.err" >&2
        fail=1
    fi
}
outputs() { # DIR: the files written under DIR must be the inputs
    local n
    n=$(find "$1" -type f | wc -l)
    if [[ $n != "$n_files" ]]; then
        echo "corpus-memory: $n files under ${1#"$tmp"/}, expected $n_files" >&2
        fail=1
    fi
}

run no-expand -q --no-expand "$tmp/src"
run out-dir -q --out-dir "$tmp/out1" "$tmp/src"
outputs "$tmp/out1"
run jobs -q -j 2 --out-dir "$tmp/out2" "$tmp/src"
outputs "$tmp/out2"
if ! diff -rq "$tmp/out1" "$tmp/out2" >&2; then
    echo "corpus-memory: -j 2 wrote other files than -j 1" >&2
    fail=1
fi
run no-memo -q --no-memo --out-dir "$tmp/out3" "$tmp/src"
if ! diff -rq "$tmp/out1" "$tmp/out3" >&2; then
    echo "corpus-memory: --no-memo wrote other files" >&2
    fail=1
fi
run check -q -c "$tmp/out1"
echo "corpus-memory: 5 runs over $n_files files ($((SECONDS - start)) s)"
exit $fail
