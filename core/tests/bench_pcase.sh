#!/bin/bash
# bench_pcase.sh - the `pcase-expand' benchmark: pcexpand against Emacs's
# own macro expander on the pcase-family forms of Emacs's Lisp sources.
#
# 1. The outermost pcase-family forms of CORPUS (default: Emacs 28.2's
#    lisp/ directory) are extracted (cmd/tests/conformance/pcxc-extract.el,
#    or read from $PCX_BENCH_TSV when set), one per line; the forms that
#    pcexpand or Emacs refuses are left out (bench_pcase.el select).
# 2. Whole processes are timed: `pcexpand --compact FORMS' against
#    `emacs --batch' running macroexpand-all on the same forms and printing
#    them; the best of $PCX_BENCH_RUNS runs (default 3) of each.
# 3. Sizes (conses + atoms) of both expansions.
# 4. An `and' of k `or's of predicates, k = 2..20: pcexpand's output size
#    and process time next to Emacs's size and expansion time (Emacs for
#    k <= $PCX_BENCH_KMAX_EMACS, default 14: its expansion doubles with k).
# Prints figures only; nothing is asserted about time.
#
# Usage: bench_pcase.sh PCEXPAND [CORPUS]
set -euo pipefail

pcexpand=${1:?usage: bench_pcase.sh PCEXPAND [CORPUS]}
corpus=${2:-/usr/share/emacs/28.2/lisp}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
emacs=${EMACS:-emacs}
runs=${PCX_BENCH_RUNS:-3}
kmax_emacs=${PCX_BENCH_KMAX_EMACS:-14}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
el() { "$emacs" -Q --batch -l "$here/bench_pcase.el" -f "$@"; }

now() { date +%s.%N; }
# best_time CMD...: the smallest wall time of $runs runs of CMD, in seconds.
best_time() {
    local best="" t0 t1 d
    for _ in $(seq "$runs"); do
        t0=$(now)
        "$@"
        t1=$(now)
        d=$(echo "$t1 - $t0" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$d < $best" | bc -l)" = 1 ]; then best=$d; fi
    done
    printf '%.4f' "$best"
}

# ---- 1. the forms ----
if [ -n "${PCX_BENCH_TSV:-}" ]; then
    cp "$PCX_BENCH_TSV" "$tmp/corpus.tsv"
else
    "$emacs" -Q --batch -l "$root/cmd/tests/conformance/pcxc-extract.el" \
        -f pcxc-extract-main "$tmp/corpus.tsv" "$corpus" >"$tmp/extract.log" 2>&1
    grep '^extract:' "$tmp/extract.log" || true
fi
grep -v '^#' "$tmp/corpus.tsv" | cut -f3 >"$tmp/all.el"
"$pcexpand" --compact "$tmp/all.el" >/dev/null 2>"$tmp/all.err" || true
el bench-pcase-select "$tmp/all.el" "$tmp/all.err" "$tmp/forms.el" 2>/dev/null

# ---- 2. whole-process times ----
run_pcx() { "$pcexpand" --compact -q "$tmp/forms.el" >"$tmp/pcx.el" 2>/dev/null; }
run_emacs() { el bench-pcase-expand "$tmp/forms.el" "$tmp/emacs.el" 2>/dev/null; }
t_pcx=$(best_time run_pcx)
t_emacs=$(best_time run_emacs)
echo "time (whole process, best of $runs): pcexpand ${t_pcx} s, Emacs ${t_emacs} s," \
     "ratio $(echo "$t_emacs / $t_pcx" | bc -l | xargs printf '%.0f')x"

# ---- 3. sizes ----
el bench-pcase-sizes "$tmp/forms.el" "$tmp/pcx.el" 2>/dev/null

# ---- 4. an `and' of k `or's ----
and_of_ors() {
    local k=$1 i
    printf '(pcase x ((and'
    for i in $(seq 0 $((k - 1))); do printf ' (or (pred p%d) (pred q%d))' "$i" "$i"; done
    printf ") 'yes) (_ 'no))\n"
}
el bench-pcase-and-or "$kmax_emacs" 2>/dev/null >"$tmp/emacs-k.txt"
run_k() { "$pcexpand" --compact -q "$tmp/k.el" >"$tmp/k.out" 2>/dev/null; }
echo "and of k ors:  k  pcexpand size  pcexpand time (process)  Emacs size  Emacs time (expansion)"
for k in $(seq 2 20); do
    and_of_ors "$k" >"$tmp/k.el"
    t=$(best_time run_k)
    size=$(el bench-pcase-size "$tmp/k.out" 2>/dev/null)
    read -r _ esize etime < <(grep "^$k " "$tmp/emacs-k.txt" || echo "- - not-run")
    [ "$etime" = not-run ] || etime="$etime s"
    printf '%17d %14s %24s %11s %23s\n' "$k" "$size" "${t} s" "$esize" "$etime"
done
