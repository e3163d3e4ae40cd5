#!/bin/bash
# corpus-expand.sh - the whole Emacs corpus expanded (suite 'corpus').
#
# Usage: corpus-expand.sh PCEXPAND CORPUS_DIR CHECK_EL [EXPECT_FILES]
# Decompresses every CORPUS_DIR/**/*.el.gz, runs
#   pcexpand --out-dir OUT SRC        (must succeed: exit 0, no error)
#   pcexpand --format=json SRC        (one record per replaced form)
# and checks that
#  (a) CHECK_EL (one Emacs per core) reads every output file without an
#      error, finds no pcase-family or cond* head in a code position,
#      finds the input's bytes outside the replaced forms, and finds that
#      indent-region leaves the lines of every expansion unchanged (at
#      least 300 multi-line expansions must have been checked; see
#      CHECK_EL for input lines that Emacs would itself re-indent);
#  (b) --no-expand --out-dir reproduces every file byte for byte;
#  (c) --whole (every file in one piece), --no-memo and -j 2 write the
#      same files as the plain run (which computes the files over 128 KiB
#      in parts), with the same diagnostics for --whole;
#  (d) every file over 128 KiB, run alone with -j 3 (in parts, on three
#      threads), gives the bytes of the plain run, and with --compact
#      (also with -j 1) the output and diagnostics of --whole;
#  (e) CHECK_EL reads every output file to the forms of the --compact
#      output (the layout, with the user's code keeping its text, changes
#      no value).
# Prints the counts; fails on any failure, or when the number of files
# differs from EXPECT_FILES if given.
set -euo pipefail

prog=$(realpath "$1")
corpus=$2
check_el=$(realpath "$3")
expect_files=${4:-}
here=$(dirname "$(realpath "$0")")
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
failures=0

corpus_unpacked corpus "$corpus" "$tmp/src" || exit 1

# run NAME ARGS...: pcexpand ARGS, stdout to NAME.out, stderr to NAME.err;
# any status but 0 or a line "error:" is a failure.
run() {
    local name=$1
    shift
    set +e
    "$prog" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local st=$?
    set -e
    if [[ $st -ne 0 ]] || grep -q ': error: ' "$tmp/$name.err"; then
        echo "corpus: pcexpand $* exited with $st:"
        grep ': error: ' "$tmp/$name.err" | head -n 10
        failures=$((failures + 1))
    fi
}

run expand -q --out-dir "$tmp/out" "$tmp/src"
n_warnings=$(grep -c ': warning: ' "$tmp/expand.err" || true)
run records -q --format=json "$tmp/src"
run compact -q --compact --out-dir "$tmp/compact" "$tmp/src"
n_sites=$(wc -l <"$tmp/records.out")
echo "corpus: expanded, $n_sites forms replaced, $n_warnings warnings ($((SECONDS - start)) s)"

# (a) One Emacs per core over its share of the files.
jobs=$(corpus_jobs)
split -n "l/$jobs" "$tmp/src.list" "$tmp/part."
for part in "$tmp"/part.??; do
    emacs -Q --batch -l "$check_el" -f pcx-expand-check "$part" "$tmp/src" \
        "$tmp/out" "$tmp/records.out" "$tmp/compact" >"$part.out" 2>"$part.log" &
done
wait
grep -h -A2 -E '^(MISMATCH|HEAD-LEFT|READ-ERROR|INDENT|VALUE)' "$tmp"/part.??.log | head -n 45 || true
for part in "$tmp"/part.??; do
    if ! grep -q '^files ' "$part.out"; then
        echo "corpus: an Emacs process did not finish:"
        tail -n 20 "$part.log"
        exit 1
    fi
done
read -r e_files e_sites e_read e_heads e_text e_ind e_lines e_indp e_shift e_val < <(awk '/^files /{
    f+=$2; s+=$4; r+=$6; h+=$8; t+=$10; i+=$12; l+=$14; p+=$16; m+=$18; v+=$20}
    END {print f, s, r, h, t, i, l, p, m, v}' "$tmp"/part.??.out)
echo "corpus: emacs checked files $e_files sites $e_sites read-errors $e_read" \
     "heads-left $e_heads text-mismatches $e_text value-mismatches $e_val" \
     "($((SECONDS - start)) s)"
echo "corpus: indent-region over $e_ind multi-line expansions ($e_lines lines):" \
     "$e_indp lines moved ($e_shift expansions first moved with their input line)"

# (b) and (c): the same bytes other ways.
same_tree() { # NAME DIR DIR
    if ! diff -rq "$2" "$3" >"$tmp/$1.diff"; then
        echo "corpus: $1: $(wc -l <"$tmp/$1.diff") files differ:"
        head -n 5 "$tmp/$1.diff"
        failures=$((failures + 1))
    fi
}
run noexp -q --no-expand --out-dir "$tmp/noexp" "$tmp/src"
same_tree no-expand "$tmp/src" "$tmp/noexp"
run whole -q --whole --out-dir "$tmp/whole" "$tmp/src"
same_tree whole "$tmp/out" "$tmp/whole"
if ! cmp -s "$tmp/expand.err" "$tmp/whole.err"; then
    echo "corpus: --whole: other diagnostics"
    failures=$((failures + 1))
fi
run nomemo -q --no-memo --out-dir "$tmp/nomemo" "$tmp/src"
same_tree no-memo "$tmp/out" "$tmp/nomemo"
run j2 -q -j 2 --out-dir "$tmp/j2" "$tmp/src"
same_tree j2 "$tmp/out" "$tmp/j2"
echo "corpus: --no-expand, --whole, --no-memo and -j 2 compared ($((SECONDS - start)) s)"

# (d) Each file over 128 KiB alone with -j 3: computed in parts, it
# prints what the whole run wrote for it, and the compact output and
# diagnostics of -j 1.
n_big=0
while IFS= read -r f; do
    rel=${f#"$tmp/src/"}
    n_big=$((n_big + 1))
    if ! "$prog" -q -j 3 "$f" 2>/dev/null | cmp -s - "$tmp/out/$rel"; then
        echo "corpus: -j 3 $rel: output differs"
        failures=$((failures + 1))
    fi
    "$prog" --compact --whole "$f" >"$tmp/cw" 2>"$tmp/dw" || true
    for j in 1 3; do
        "$prog" --compact -j $j "$f" >"$tmp/cj" 2>"$tmp/dj" || true
        if ! cmp -s "$tmp/cw" "$tmp/cj" || ! cmp -s "$tmp/dw" "$tmp/dj"; then
            echo "corpus: --compact -j $j $rel: output or diagnostics differ"
            failures=$((failures + 1))
        fi
    done
done < <(find "$tmp/src" -name '*.el' -size +128k | sort)
echo "corpus: $n_big files over 128 KiB computed in parts, compared ($((SECONDS - start)) s)"
if [[ $n_big -lt 50 ]]; then
    echo "corpus: only $n_big large files"
    failures=$((failures + 1))
fi

min_indented=300
if [[ $e_ind -lt $min_indented ]]; then
    echo "corpus: only $e_ind expansions indent-checked, expected at least $min_indented"
    failures=$((failures + 1))
fi
if [[ $e_read -ne 0 || $e_heads -ne 0 || $e_text -ne 0 || $e_indp -ne 0 || $e_val -ne 0 ||
      $e_files -ne $n_files ||
      $e_sites -ne $n_sites || $failures -ne 0 ]]; then
    echo "corpus: FAILED"
    exit 1
fi
if [[ -n $expect_files && $n_files -ne $expect_files ]]; then
    echo "corpus: expected $expect_files files"
    exit 1
fi
echo "corpus: ok"
