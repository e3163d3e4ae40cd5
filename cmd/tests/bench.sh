#!/bin/bash
# bench.sh - reading speed of pcexpand and of Emacs on the corpus.
#
# Usage: bench.sh PCEXPAND CORPUS_DIR CHECK_EL   (meson test --benchmark)
# Reads every corpus file with pcexpand --no-expand and with
# --no-expand --compact (one process over the unpacked directory, best of
# three), and with Emacs's own reader in one `emacs --batch' process (the
# second of two runs, so the files are in the page cache for both), and
# prints wall-clock and CPU MB/s for each and the ratios.  It reports; it
# never asserts.
set -euo pipefail

prog=$(realpath "$1")
corpus=$2
check_el=$(realpath "$3")
here=$(dirname "$(realpath "$0")")
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
corpus_bench_setup "$corpus" "$tmp" || exit 1

# measure OUT CMD...: run CMD (stdout discarded), "WALL CPU" seconds to OUT.
measure() {
    local out=$1 TIMEFORMAT='%R %U %S'
    shift
    { time "$@" >/dev/null 2>&1; } 2>"$tmp/time"
    awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$tmp/time" >"$out"
}

# best_of_three NAME ARGS...: of three runs of pcexpand ARGS DIR, the
# smallest wall time and the smallest CPU time (each the steadiest
# figure of its kind on a shared machine).
best_of_three() {
    local name=$1
    shift
    for k in 1 2 3; do
        measure "$tmp/$name.$k" "$prog" "$@" "$tmp/src"
    done
    best_times "$tmp/$name".?
}

read -r w_plain c_plain < <(best_of_three plain --no-expand)
read -r w_compact c_compact < <(best_of_three compact --no-expand --compact)
sed "s|^|$tmp/src/|" "$tmp/src.list" >"$tmp/files"
emacs -Q --batch -l "$check_el" -f pcx-corpus-read "$tmp/files" >"$tmp/emacs.out" 2>/dev/null
measure "$tmp/emacs.time" emacs -Q --batch -l "$check_el" -f pcx-corpus-read "$tmp/files"
read -r w_emacs c_emacs <"$tmp/emacs.time"

awk -v bytes="$bytes" -v files="$n_files" -v eo="$(cat "$tmp/emacs.out")" \
    -v wp="$w_plain" -v cp="$c_plain" -v wc="$w_compact" -v cc="$c_compact" \
    -v we="$w_emacs" -v ce="$c_emacs" 'BEGIN {
    mb = bytes / 1e6
    printf "corpus: %d files, %.1f MB; Emacs: %s\n", files, mb, eo
    printf "%-32s %9s %9s %10s %10s\n", "", "wall s", "cpu s", "wall MB/s", "cpu MB/s"
    row("pcexpand --no-expand", wp, cp)
    row("pcexpand --no-expand --compact", wc, cc)
    row("emacs --batch (read all forms)", we, ce)
    printf "ratio pcexpand --no-expand / emacs:           %.1fx wall, %.1fx cpu\n", we / wp, ce / cp
    printf "ratio pcexpand --no-expand --compact / emacs: %.1fx wall, %.1fx cpu\n", we / wc, ce / cc
    aim("--no-expand", wp, cp)
    aim("--no-expand --compact", wc, cc)
}
function mbs(t) { return mb / (t > 0 ? t : 1e-3) }
function met(ok) { return ok ? "MET" : "NOT MET" }
# The aims: at least 100 MB/s, and at least 50 times the speed of Emacs.
function aim(name, w, c) {
    printf "aim %s >= 100 MB/s: %s wall (%.1f), %s cpu (%.1f); >= 50x emacs: %s wall (%.1fx), %s cpu (%.1fx)\n",
        name, met(mbs(w) >= 100), mbs(w), met(mbs(c) >= 100), mbs(c),
        met(we / w >= 50), we / w, met(ce / c >= 50), ce / c
}
function row(name, w, c) {
    printf "%-32s %9.3f %9.3f %10.1f %10.1f\n", name, w, c, mb / (w > 0 ? w : 1e-3), mb / (c > 0 ? c : 1e-3)
}'
