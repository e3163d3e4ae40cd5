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

corpus_unpacked explain "$corpus" "$tmp/src" || exit 1
if [[ -n $expect_files && $n_files -ne $expect_files ]]; then
    fail "expected $expect_files files, found $n_files"
fi

# Each check is one run over every file (-j: one thread per core), in the
# order of the list; a diagnostic names the file that failed.
cd "$tmp/src"
files=()
skipped=0
while read -r f; do
    if [[ -n ${SKIP[$f]:-} ]]; then
        echo "explain: skipped $f: ${SKIP[$f]}"
        skipped=$((skipped + 1))
    else
        files+=("$f")
    fi
done <"$tmp/src.list"
jobs=$(corpus_jobs)

# run NAME ARGS...: pcexpand -q -j JOBS ARGS FILES, stdout to NAME.out,
# stderr to NAME.err; any status but 0 is a failure, and each error names
# its file.
run() {
    local name=$1 st=0
    shift
    "$prog" -q -j "$jobs" "$@" "${files[@]}" >"$tmp/$name.out" 2>"$tmp/$name.err" || st=$?
    if [[ $st -ne 0 ]]; then
        fail "pcexpand $* exited with $st: $(grep -m 3 ': error: ' "$tmp/$name.err")"
    fi
}
# first_diff A B: the header of the form where A and B first differ.
first_diff() {
    local at
    at=$(cmp "$1" "$2" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
    head -n "${at:-1}" "$1" | grep '^;;; \|^/\* ' | tail -n 1
}

# (a) --explain, the same without the cache, and its records.
run explain --explain
run nomemo --explain --no-memo
cmp -s "$tmp/nomemo.out" "$tmp/explain.out" ||
    fail "--explain --no-memo differs, from $(first_diff "$tmp/explain.out" "$tmp/nomemo.out")"
run json --explain --format=json
run messages --message-format=json
n_forms=$(grep -c '^;;; ' "$tmp/explain.out" || true)
n_sections=$(grep -vc '"code":' "$tmp/json.out" || true)

# (b) The DAGs as text and as DOT: as many test nodes, form by form (each
# count follows the form's FILE:LINE:COL MACRO).
run dtree --dump=dtree
run dot --dump=dtree --format=dot
# Per-form counts of tests: a line "FILE:LINE:COL MACRO COUNT" per form.
dtree_tests() { awk '/^;;; /{if (h != "") print h, n; h = substr($0, 5); n = 0; next} /^n[0-9]+: if /{n++} END{if (h != "") print h, n}' "$1"; }
dot_tests() { awk '/^\/\* .* \*\/$/ && !/^\/\* (outside|cond\*)/{if (h != "") print h, n; h = substr($0, 4, length($0) - 6); n = 0; next} /class="test"/{n++} END{if (h != "") print h, n}' "$1"; }
dtree_tests "$tmp/dtree.out" >"$tmp/dtree.count"
dot_tests "$tmp/dot.out" >"$tmp/dot.count"
if ! cmp -s "$tmp/dtree.count" "$tmp/dot.count"; then
    fail "test nodes of the DOT and of --dump=dtree differ: $(diff "$tmp/dtree.count" "$tmp/dot.count" | grep '^[<>]' | head -n 4 | tr '\n' ' ')"
fi
n_tests=$(awk '{s += $NF} END{print s + 0}' "$tmp/dtree.count")
n_graphs=$(grep -c '^digraph ' "$tmp/dot.out" || true)

# dot -Tsvg on the DOT of each file that has forms, one process per file,
# as many at once as there are cores, the largest first: each must exit 0
# and print nothing.
dot_file() { # the file of a DOT header line "/* FILE:LINE:COL MACRO */"
    awk '/^\/\* .*:[0-9]+:[0-9]+ [^ ]+ \*\/$/{f = $2; sub(/:[0-9]+:[0-9]+$/, "", f); print f}' "$@"
}
dot_file "$tmp/dot.out" | awk '!seen[$0]++' >"$tmp/dot.list"
mkdir -p "$tmp/dot"
(cd "$tmp/dot" && sed -n 's|/[^/]*$||p' "$tmp/dot.list" | sort -u | xargs -r mkdir -p --)
awk -v dir="$tmp/dot" '/^\/\* .*:[0-9]+:[0-9]+ [^ ]+ \*\/$/{
        f = $2; sub(/:[0-9]+:[0-9]+$/, "", f); if (out != "") close(out); out = dir "/" f ".dot"}
    out != "" {print >>out}' "$tmp/dot.out"
(cd "$tmp/dot" && find . -name '*.dot' -printf '%s %P\n' | sort -k1,1rn -k2 | cut -d' ' -f2- |
    tr '\n' '\0' | xargs -0 -r -n 1 -P "$jobs" sh -c \
        'dot -Tsvg "$1" >/dev/null 2>"$1.err" || echo "exit status $?" >>"$1.err"' _)
while read -r f; do
    if [[ -s $tmp/dot/$f.dot.err ]]; then
        fail "dot -Tsvg on the DOT of $f: $(head -n 2 "$tmp/dot/$f.dot.err")"
    fi
done <"$tmp/dot.list"
echo "explain: $n_forms forms ($n_sections compilations) explained, exit 0, same without the cache"
echo "explain: $n_graphs DOT graphs of $(wc -l <"$tmp/dot.list") files rendered by dot -Tsvg without a message; $n_tests test nodes, as many as --dump=dtree has"

# The warnings of the plain runs (JSON messages).
grep '"code":' "$tmp/messages.err" >"$tmp/warn.err" || true
with_witness=$(grep -c '"code":"exhaustive-can-fail"' "$tmp/warn.err" || true)
named=$(grep '"code":"exhaustive-can-fail"' "$tmp/warn.err" | grep -c 'depending on' || true)
witness=$(grep '"code":"exhaustive-can-fail"' "$tmp/warn.err" | grep -c '"witness":' || true)
echo "explain: exhaustive-can-fail $with_witness: $witness with a witness, $named naming the functions they depend on"
echo "explain: unreachable-clause $(grep -c '"severity":"warning","code":"unreachable-clause"' "$tmp/warn.err" || true) warnings"

cat "$tmp/json.out" "$tmp/warn.err" >"$tmp/records.jsonl"
emacs -Q --batch -l "$check_el" -f explain-check-main - "$tmp/records.jsonl" >"$tmp/check.out" 2>"$tmp/check.err" || {
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
