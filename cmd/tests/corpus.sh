#!/bin/bash
# corpus.sh - pcexpand over Emacs's own Lisp sources (suite 'corpus').
#
# Usage: corpus.sh PCEXPAND CORPUS_DIR CHECK_EL [EXPECT_FILES EXPECT_FORMS]
# Decompresses every CORPUS_DIR/**/*.el.gz, then checks that
#  (a) pcexpand --no-expand reproduces every file byte for byte;
#  (b) pcexpand --no-expand --compact prints one line per top-level form,
#      which Emacs reads back `equal' to the form Emacs reads from the file,
#      and which is the text Emacs's prin1-to-string gives that form
#      (CHECK_EL does the comparison, one Emacs per core).
# Prints files, forms, mismatches and text differences; fails on any
# failure, or when the counts differ from EXPECT_FILES / EXPECT_FORMS if
# those are given.
set -euo pipefail

prog=$(realpath "$1")
corpus=$2
check_el=$(realpath "$3")
expect_files=${4:-}
expect_forms=${5:-}
here=$(dirname "$(realpath "$0")")
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

corpus_unpacked corpus "$corpus" "$tmp/src" || exit 1

jobs=$(corpus_jobs)
mapfile -t rel <"$tmp/src.list"
files=("${rel[@]/#/$tmp/src/}")

# (a) One run over the directory (this also tests the walk and its order)
# must print the concatenation of the files; when it does not, run the
# files one by one to name the ones that differ.
n_round=0
set +e
"$prog" --no-expand "$tmp/src" >"$tmp/all.out" 2>"$tmp/all.err"
st=$?
set -e
if [[ $st -ne 0 || -s $tmp/all.err ]] || ! cat "${files[@]}" | cmp -s - "$tmp/all.out"; then
    head -n 10 "$tmp/all.err"
    for f in "${files[@]}"; do
        if ! "$prog" --no-expand "$f" 2>/dev/null | cmp -s - "$f"; then
            echo "ROUND-TRIP ${f#"$tmp/src/"}"
        fi
    done >"$tmp/round"
    head -n 20 "$tmp/round"
    n_round=$(wc -l <"$tmp/round")
    [[ $n_round -gt 0 ]] || n_round=1 # the files pass alone, not together
fi
echo "corpus: round trip done ($((SECONDS - start)) s)"

# (b) The files split into one part per core: pcexpand prints each part's
# forms, and one Emacs per part compares them with what it reads itself.
n_compact=0
split -n "l/$jobs" "$tmp/src.list" "$tmp/part."
for part in "$tmp"/part.*; do
    sed -i "s|^|$tmp/src/|" "$part"
    mapfile -t pf <"$part"
    if ! "$prog" --no-expand --compact "${pf[@]}" >"$part.compact" 2>"$part.err"; then
        head -n 10 "$part.err"
        n_compact=$((n_compact + $(grep -c ': error: ' "$part.err" || true)))
    fi
done
for part in "$tmp"/part.??; do
    emacs -Q --batch -l "$check_el" -f pcx-corpus-check "$part" "$part.compact" \
        >"$part.out" 2>"$part.log" &
done
wait
grep -h -A2 -E '^(MISMATCH|TEXT)' "$tmp"/part.*.log | head -n 40 || true
for part in "$tmp"/part.??; do
    if ! grep -q '^files ' "$part.out"; then
        echo "corpus: an Emacs process did not finish:"
        tail -n 20 "$part.log"
        exit 1
    fi
done
read -r e_files e_forms e_mism e_text < <(awk '/^files /{f+=$2; n+=$4; m+=$6; t+=$8}
    END {print f, n, m, t}' "$tmp"/part.*.out)

echo "corpus: files $e_files forms $e_forms mismatches $e_mism text-differences $e_text" \
     "round-trip-failures $n_round compact-failures $n_compact" \
     "($((SECONDS - start)) s)"
status=0
if [[ $e_mism -ne 0 || $e_text -ne 0 || $n_round -ne 0 || $n_compact -ne 0 ||
      $e_files -ne $n_files ]]; then
    status=1
fi
if [[ -n $expect_files && $e_files -ne $expect_files ]]; then
    echo "corpus: expected $expect_files files"
    status=1
fi
if [[ -n $expect_forms && $e_forms -ne $expect_forms ]]; then
    echo "corpus: expected $expect_forms forms"
    status=1
fi
exit $status
