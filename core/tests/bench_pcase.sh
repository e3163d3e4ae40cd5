#!/bin/bash
# bench_pcase.sh - the `pcase-expand' benchmark: pcexpand against Emacs's
# own macro expander on the pcase-family forms of Emacs's Lisp sources.
#
# 1. The outermost pcase-family forms of CORPUS (default: Emacs 30.1's
#    lisp/ directory) are extracted (cmd/tests/conformance/pcxc-extract.el,
#    or read from $PCX_BENCH_TSV when set), one per line; the forms that
#    pcexpand or Emacs refuses are left out (bench_pcase.el select).
# 2. Whole processes are timed: `pcexpand --compact FORMS' (and with
#    -j 0: the file computed in parts, one per CPU) against `emacs --batch'
#    running macroexpand-all on the same forms and printing them; the best
#    of $PCX_BENCH_RUNS runs (default 3) of each; and whether this Emacs
#    runs pcase's compiler and the macro expander native-compiled.
# 3. Sizes (conses + atoms) of both expansions.
# 4. An `and' of k `or's of predicates, k = 2..20: pcexpand's output size
#    and time per form (one process expanding 100 copies) next to Emacs's
#    size and expansion time (Emacs for k <= $PCX_BENCH_KMAX_EMACS, default
#    14: its expansion doubles with k).
# Prints figures only; nothing is asserted about time.
#
# Usage: bench_pcase.sh PCEXPAND [CORPUS]
set -euo pipefail

pcexpand=${1:?usage: bench_pcase.sh PCEXPAND [CORPUS]}
corpus=${2:-/usr/share/emacs/30.1/lisp}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
emacs=${EMACS:-emacs}
runs=${PCX_BENCH_RUNS:-3}
kmax_emacs=${PCX_BENCH_KMAX_EMACS:-14}
copies=100
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
el() { "$emacs" -Q --batch -l "$here/bench_pcase.el" -f "$@"; }

# time_once OUT CMD...: "WALL CPU" (seconds; CPU = user + system) of one
# run of CMD, which writes the file OUT.  Wall clock from $EPOCHREALTIME
# (microseconds: a run of pcexpand takes a few milliseconds), CPU from
# bash's `time' (whole milliseconds).  OUT is removed before the run,
# outside the time: each run writes a new file, as a first run does
# (truncating the last run's 700 KB took the file system about a
# millisecond, a tenth of pcexpand's time).
time_once() {
    local out=$1 t u s t0 t1
    shift
    rm -f -- "$out"
    t=$( { TIMEFORMAT='%U %S'; t0=$EPOCHREALTIME; time "$@"
           t1=$EPOCHREALTIME; echo "${t0/,/.} ${t1/,/.}"; } 2>&1 )
    read -r u s t0 t1 <<<"$(echo $t)"
    echo "$(echo "$t1 - $t0" | bc -l) $(echo "$u + $s" | bc -l)"
}

# smaller A B: the smaller of two numbers (A empty: B).
smaller() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"; else echo "$1"; fi; }

# best_time OUT CMD...: "WALL CPU" of the fastest of $runs runs of CMD
# (the smallest of each).  CPU time is the steadier figure on a loaded
# machine.
best_time() {
    local bw="" bc="" w c
    for _ in $(seq "$runs"); do
        read -r w c < <(time_once "$@")
        bw=$(smaller "$bw" "$w") bc=$(smaller "$bc" "$c")
    done
    printf '%.4f %.3f\n' "$bw" "$bc"
}
ratio() { echo "$1 / $2" | bc -l | xargs printf '%.0f'; }

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
run_pcx_j() { "$pcexpand" --compact -q -j 0 "$tmp/forms.el" >"$tmp/pcx-j.el" 2>/dev/null; }
run_emacs() { el bench-pcase-expand "$tmp/forms.el" "$tmp/emacs.el" 2>/dev/null; }
# Reading and printing the same forms, nothing expanded: what the whole
# process costs at least, whatever the expansion costs.
run_pcx_read() { "$pcexpand" --compact -q --no-expand "$tmp/forms.el" >"$tmp/pcx-read.el" 2>/dev/null; }
# The three take turns, $runs rounds of one run each: a slow stretch of
# the machine (another program, a virtual machine's host) then slows a
# run of each alike, not all the runs of one of them.  The best run of
# each counts.
w_pcx="" c_pcx="" w_pcxj="" c_pcxj="" w_emacs="" c_emacs="" w_read="" c_read=""
for _ in $(seq "$runs"); do
    read -r w c < <(time_once "$tmp/pcx-read.el" run_pcx_read)
    w_read=$(smaller "$w_read" "$w") c_read=$(smaller "$c_read" "$c")
    read -r w c < <(time_once "$tmp/pcx.el" run_pcx)
    w_pcx=$(smaller "$w_pcx" "$w") c_pcx=$(smaller "$c_pcx" "$c")
    read -r w c < <(time_once "$tmp/pcx-j.el" run_pcx_j)
    w_pcxj=$(smaller "$w_pcxj" "$w") c_pcxj=$(smaller "$c_pcxj" "$c")
    read -r w c < <(time_once "$tmp/emacs.el" run_emacs)
    w_emacs=$(smaller "$w_emacs" "$w") c_emacs=$(smaller "$c_emacs" "$c")
done
read -r w_pcx c_pcx < <(printf '%.4f %.3f\n' "$w_pcx" "$c_pcx")
read -r w_pcxj c_pcxj < <(printf '%.4f %.3f\n' "$w_pcxj" "$c_pcxj")
read -r w_emacs c_emacs < <(printf '%.4f %.3f\n' "$w_emacs" "$c_emacs")
cmp -s "$tmp/pcx.el" "$tmp/pcx-j.el" || echo "pcexpand -j 0 printed other bytes than -j 1"
echo "time (whole process, best of $runs): pcexpand ${w_pcx} s wall, ${c_pcx} s CPU;" \
     "pcexpand -j 0 ($(nproc) CPUs: the file in parts) ${w_pcxj} s wall, ${c_pcxj} s CPU;" \
     "Emacs ${w_emacs} s wall, ${c_emacs} s CPU"
el bench-pcase-compiled 2>/dev/null | sed 's/^/  /'
read -r w_read c_read < <(printf '%.4f %.3f\n' "$w_read" "$c_read")
# (CPU times come in whole milliseconds: none may be 0)
cpu_ceiling=n/a
[ "$(echo "$c_read > 0" | bc -l)" = 1 ] && cpu_ceiling="$(ratio "$c_emacs" "$c_read")x"
echo "  pcexpand --no-expand (reading and printing only): ${w_read} s wall, ${c_read} s CPU;" \
     "the most any expansion leaves: $(ratio "$w_emacs" "$w_read")x wall, $cpu_ceiling CPU;" \
     "expansion $(echo "100 * ($w_pcx - $w_read) / $w_pcx" | bc -l | xargs printf '%.0f')% of pcexpand's wall time"
echo "  ratio: $(ratio "$w_emacs" "$w_pcx")x wall, $(ratio "$c_emacs" "$c_pcx")x CPU;" \
     "-j 0: $(ratio "$w_emacs" "$w_pcxj")x wall"
verdict() { [ "$(echo "$1" | bc -l)" = 1 ] && echo MET || echo "NOT MET"; }
echo "  aim: pcexpand >= 100x faster than Emacs (whole process):" \
     "$(verdict "$c_emacs >= 100 * $c_pcx") by CPU time," \
     "$(verdict "$w_emacs >= 100 * $w_pcx") by wall clock," \
     "$(verdict "$w_emacs >= 100 * $w_pcxj") by wall clock with -j 0"

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
echo "and of k ors: sizes as conses / conses + atoms; time per form: pcexpand's"
echo "whole process on $copies copies divided by $copies, Emacs's macroexpand-all of one"
printf '%4s %20s %12s %22s %14s\n' k "pcexpand size" time "Emacs size" time
declare -A ksize ktime
for k in $(seq 2 20); do
    and_of_ors "$k" >"$tmp/one.el"
    for _ in $(seq "$copies"); do cat "$tmp/one.el"; done >"$tmp/k.el"
    read -r w _ < <(best_time "$tmp/k.out" run_k)
    t=$(echo "$w / $copies" | bc -l | xargs printf '%.5f')
    head -n 1 "$tmp/k.out" >"$tmp/k1.out"
    read -r pc ps < <(el bench-pcase-size "$tmp/k1.out" 2>/dev/null)
    ksize[$k]=$ps ktime[$k]=$t
    if read -r _ ec es et < <(grep "^$k " "$tmp/emacs-k.txt"); then
        printf '%4d %9d / %8d %10s s %10d / %9d %12s s\n' "$k" "$pc" "$ps" "$t" "$ec" "$es" "$et"
    else
        printf '%4d %9d / %8d %10s s %22s %14s\n' "$k" "$pc" "$ps" "$t" "(not run)" ""
    fi
done
# Linear growth: the size grows by the same step for each added `or'
# (smallest and largest step within 25%), and doubling k from 10 to 20 at
# most triples the time (2 for linear, 4 for quadratic; timings of a few
# milliseconds are noisy).
steps=$(for k in $(seq 3 20); do echo $((ksize[$k] - ksize[$((k - 1))])); done | sort -n)
smin=$(head -n 1 <<<"$steps") smax=$(tail -n 1 <<<"$steps")
echo "aim: size grows linearly in k: $(verdict "$smax <= 1.25 * $smin && $smin > 0")" \
     "(size step per added or: $smin .. $smax)"
tratio=$(awk -v a="${ktime[20]}" -v b="${ktime[10]}" 'BEGIN {printf "%.2f", a / (b > 0 ? b : 1e-6)}')
echo "aim: time grows linearly in k: $(verdict "$tratio <= 3")" \
     "(time k=20 / k=10: $tratio)"
