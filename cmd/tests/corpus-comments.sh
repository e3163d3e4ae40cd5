#!/bin/bash
# corpus-comments.sh - comments stay with their pcase clauses, over the
# whole Emacs corpus (suite 'corpus').
#
# Usage: corpus-comments.sh PCEXPAND CORPUS_DIR CHECK_EL [MIN_FORMS MIN_LINES]
# Decompresses every CORPUS_DIR/**/*.el.gz and runs CHECK_EL (one Emacs
# per core over its share of the files): for every pcase form with
# comment lines between its clauses, each such line must stand after the
# code of every earlier clause's body and before the code of its own
# clause's body (the first copy of each), as CHECK_EL's commentary says.
# Prints the counts, and the lines where no place could satisfy that
# because the code of a later clause's body comes before the code of an
# earlier one's ("forced": the order of the generated code, not of the
# comments).  Fails on any other break, on a form whose probes changed
# its expansion, or when fewer than MIN_FORMS forms or MIN_LINES comment
# lines were checked.
set -euo pipefail

prog=$(realpath "$1")
corpus=$2
check_el=$(realpath "$3")
min_forms=${4:-1}
min_lines=${5:-1}
here=$(dirname "$(realpath "$0")")
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

corpus_unpacked corpus "$corpus" "$tmp/src" || exit 1

jobs=$(corpus_jobs)
split -n "l/$jobs" "$tmp/src.list" "$tmp/part."
for part in "$tmp"/part.??; do
    mkdir -p "$part.d"
    emacs -Q --batch -l "$check_el" -f pcx-comments-check "$prog" "$part" "$tmp/src" \
        "$part.d" >"$part.out" 2>"$part.log" &
done
wait
grep -h -E '^(BREAKS|UNSURE)' "$tmp"/part.??.log | head -n 40 || true
for part in "$tmp"/part.??; do
    if ! grep -q '^forms ' "$part.out"; then
        echo "corpus: an Emacs process did not finish:"
        tail -n 20 "$part.log"
        exit 1
    fi
done
read -r forms clauses lines breaks unsure unprobed forced < <(awk '/^forms /{
    f+=$2; c+=$4; l+=$6; b+=$8; u+=$10; p+=$12; x+=$14}
    END {print f, c, l, b, u, p, x}' "$tmp"/part.??.out)
echo "corpus: $forms pcase forms with comments between clauses ($clauses clauses," \
     "$unprobed of them without a token to find their code by), $lines comment lines:" \
     "$breaks out of place, $forced where the generated code puts a later clause's" \
     "body before an earlier one's; $unsure forms whose probes changed them" \
     "($((SECONDS - start)) s)"
if [[ $breaks -ne 0 || $unsure -ne 0 || $forms -lt $min_forms || $lines -lt $min_lines ]]; then
    echo "corpus: FAILED"
    exit 1
fi
echo "corpus: ok"
