#!/bin/bash
# corpus-compile.sh - expanded corpus files compile with no new warning
# (suite 'corpus').
#
# Usage: corpus-compile.sh PCEXPAND CORPUS_DIR COMPILE_EL [MIN_CHANGED]
# Decompresses every CORPUS_DIR/**/*.el.gz, runs
#   pcexpand -q --add-requires --out-dir OUT SRC   (must exit 0)
# and, for every file whose output differs from its input, byte-compiles
# the input and the output, each in an Emacs of its own (what one
# compilation loads would hide the other's warnings about undefined
# functions), with COMPILE_EL writing the compiler's messages without
# their positions.  A message of the output that the input did not get
# (as often) is a failure: pcexpand's output, with the requires it needs,
# compiles with no warning the original did not have.  Prints the counts;
# fails on any new message, or when fewer than MIN_CHANGED files changed.
set -euo pipefail

prog=$(realpath "$1")
corpus=$2
compile_el=$(realpath "$3")
min_changed=${4:-1}
here=$(dirname "$(realpath "$0")")
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

corpus_unpacked corpus-compile "$corpus" "$tmp/src" || exit 1
if ! "$prog" -q --add-requires --out-dir "$tmp/out" "$tmp/src" 2>"$tmp/expand.err"; then
    echo "corpus-compile: pcexpand failed:"
    head -n 10 "$tmp/expand.err"
    exit 1
fi
while IFS= read -r f; do
    cmp -s "$tmp/src/$f" "$tmp/out/$f" || printf '%s\n' "$f"
done <"$tmp/src.list" >"$tmp/changed"
n_changed=$(wc -l <"$tmp/changed")
echo "corpus-compile: $n_files files expanded, $n_changed changed" \
     "($((SECONDS - start)) s)"

# One Emacs per file and side, as many at once as there are cores.
mkdir -p "$tmp/msg"
tr '\n' '\0' <"$tmp/changed" |
    xargs -0 -n 1 -P "$(corpus_jobs)" bash -c '
        tmp=$1 el=$2 f=$3
        m=$tmp/msg/${f//\//%}
        for side in src out; do
            emacs -Q --batch -l "$el" -f pcx-compile-messages \
                "$tmp/$side/$f" "$m.$side" >/dev/null 2>&1 ||
                echo ":stopped emacs exited with $?" >>"$m.$side"
        done' _ "$tmp" "$compile_el"

# Messages of the output beyond the input's, file by file.
new=0 n_src=0 n_out=0
while IFS= read -r f; do
    m=$tmp/msg/${f//\//%}
    n_src=$((n_src + $(wc -l <"$m.src")))
    n_out=$((n_out + $(wc -l <"$m.out")))
    # (by file name, not FNR == NR: that is true all along when the
    # input's list is empty, and then nothing of the output's is new)
    extra=$(awk 'FILENAME == ARGV[1] {have[$0]++; next} have[$0]-- <= 0' "$m.src" "$m.out")
    if [[ -n $extra ]]; then
        new=$((new + $(printf '%s\n' "$extra" | wc -l)))
        printf '%s\n' "$extra" | sed "s|^|corpus-compile: $f: new: |" | head -n 5
    fi
done <"$tmp/changed"
echo "corpus-compile: $n_changed changed files compiled: $n_src messages from the" \
     "inputs, $n_out from the outputs, $new new ($((SECONDS - start)) s)"
status=0
if [[ $new -gt 0 ]]; then
    status=1
fi
if [[ $n_changed -lt $min_changed ]]; then
    echo "corpus-compile: only $n_changed files changed, expected at least $min_changed"
    status=1
fi
exit $status
