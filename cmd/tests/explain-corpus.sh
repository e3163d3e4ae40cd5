#!/bin/bash
# explain-corpus.sh - --explain and the DAG's picture on the whole corpus
# (suite 'explain').
#
# Usage: explain-corpus.sh PCEXPAND CORPUS_DIR CHECK_EL [EXPECT_FILES]
# Decompresses every CORPUS_DIR/**/*.el.gz and, for every file,
#  (a) pcexpand --explain exits 0, gives the same text with --no-memo,
#      and --explain --format=json gives one record per compilation;
#  (b) pcexpand --dump=dtree --format=dot renders with `dot -Tsvg'
#      without an error or a warning, and each form's DOT has as many test
#      nodes as its --dump=dtree has tests;
#  (c) CHECK_EL (explain-check.el) runs Emacs's own pcase on every witness
#      (a value no clause matches) and on 40 values or more for every clause
#      reported unreachable;
# and prints the counts, with those of the exhaustive-can-fail warnings
# that name a witness and of those that name the functions it depends on.
# Files that do not expand today are skipped with the reason (SKIP below).
set -euo pipefail

prog=$(realpath "$1")
corpus=$2
check_el=$(realpath "$3")
expect_files=${4:-}
here=$(dirname "$(realpath "$0")")
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"

# Files pcexpand cannot expand yet (an error, exit 2), with the reason.
declare -A SKIP=()

if ! command -v dot >/dev/null; then
    echo "explain: Graphviz is not installed (apt-get install -y graphviz)" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
failures=0
fail() {
    echo "explain: FAIL $*"
    failures=$((failures + 1))
}

corpus_unpack "$corpus" "$tmp/src" || exit 1
n_files=$(wc -l <"$tmp/src.list")
echo "explain: $n_files files unpacked from $corpus ($((SECONDS - start)) s)"
if [[ -n $expect_files && $n_files -ne $expect_files ]]; then
    fail "expected $expect_files files, found $n_files"
fi

# Per-form counts of tests: a line per form in order.
dtree_tests() { awk '/^;;; /{if (n != "") print n; n = 0; next} /^n[0-9]+: if /{n++} END{if (n != "") print n}' "$1"; }
dot_tests() { awk '/^\/\* .* \*\/$/ && !/^\/\* (outside|cond\*)/{if (n != "") print n; n = 0; next} /class="test"/{n++} END{if (n != "") print n}' "$1"; }

cd "$tmp/src"
mkdir -p "$tmp/json"
pairs=()
n_forms=0 n_sections=0 n_tests=0 n_graphs=0 skipped=0
while read -r f; do
    if [[ -n ${SKIP[$f]:-} ]]; then
        echo "explain: skipped $f: ${SKIP[$f]}"
        skipped=$((skipped + 1))
        continue
    fi
    st=0
    "$prog" -q --explain "$f" >"$tmp/x.txt" 2>"$tmp/x.err" || st=$?
    [[ $st -eq 0 ]] || { fail "--explain $f exited with $st: $(head -n 2 "$tmp/x.err")"; continue; }
    [[ -s $tmp/x.txt ]] || continue
    "$prog" -q --explain --no-memo "$f" 2>/dev/null | cmp -s - "$tmp/x.txt" ||
        fail "--explain --no-memo differs on $f"
    j=$tmp/json/$(tr / _ <<<"$f").jsonl
    "$prog" -q --explain --format=json "$f" >"$j" 2>/dev/null || fail "--explain --format=json $f"
    "$prog" -q --message-format=json "$f" 2>>"$j" >/dev/null || fail "$f does not expand"
    pairs+=("$tmp/src/$f" "$j")
    n_forms=$((n_forms + $(grep -c '^;;; ' "$tmp/x.txt")))
    n_sections=$((n_sections + $(grep -vc '"code":' "$j" || true)))
    "$prog" -q --dump=dtree "$f" >"$tmp/d.txt" 2>/dev/null || fail "--dump=dtree $f"
    "$prog" -q --dump=dtree --format=dot "$f" >"$tmp/d.dot" 2>/dev/null ||
        fail "--dump=dtree --format=dot $f"
    if ! dot -Tsvg "$tmp/d.dot" >/dev/null 2>"$tmp/dot.err" || [[ -s $tmp/dot.err ]]; then
        fail "dot -Tsvg on the DOT of $f: $(head -n 2 "$tmp/dot.err")"
    fi
    n_graphs=$((n_graphs + $(grep -c '^digraph ' "$tmp/d.dot" || true)))
    dtree_tests "$tmp/d.txt" >"$tmp/d.count"
    dot_tests "$tmp/d.dot" >"$tmp/o.count"
    cmp -s "$tmp/d.count" "$tmp/o.count" || fail "test nodes of the DOT and of --dump=dtree differ on $f"
    n_tests=$((n_tests + $(awk '{s += $1} END{print s + 0}' "$tmp/d.count")))
done <"$tmp/src.list"
echo "explain: $n_forms forms ($n_sections compilations) explained, exit 0, same without the cache"
echo "explain: $n_graphs DOT graphs rendered by dot -Tsvg without a message; $n_tests test nodes, as many as --dump=dtree has"

# The warnings of the plain runs (JSON messages).
cat "$tmp"/json/*.jsonl | grep '"code":' >"$tmp/warn.err" || true
with_witness=$(grep -c '"code":"exhaustive-can-fail"' "$tmp/warn.err" || true)
named=$(grep '"code":"exhaustive-can-fail"' "$tmp/warn.err" | grep -c 'depending on' || true)
witness=$(grep '"code":"exhaustive-can-fail"' "$tmp/warn.err" | grep -c '"witness":' || true)
echo "explain: exhaustive-can-fail $with_witness: $witness with a witness, $named naming the functions they depend on"
echo "explain: unreachable-clause $(grep -c '"severity":"warning","code":"unreachable-clause"' "$tmp/warn.err" || true) warnings"

emacs -Q --batch -l "$check_el" -f explain-check-main "${pairs[@]}" >"$tmp/check.out" 2>"$tmp/check.err" || {
    fail "explain-check.el"
    grep -v '^explain-check: ' "$tmp/check.out" | head -n 20
}
grep '^explain-check: \|^skipped ' "$tmp/check.out" || true
echo "explain: $skipped files skipped; $((SECONDS - start)) s"
if [[ $failures -gt 0 ]]; then
    echo "explain: $failures failures"
    exit 1
fi
echo "explain: 1 passed, 0 failed"
