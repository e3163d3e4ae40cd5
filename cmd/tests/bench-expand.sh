#!/bin/bash
# bench-expand.sh - expansion speed of pcexpand on the corpus, -j 1 and -j 2.
#
# Usage: bench-expand.sh PCEXPAND CORPUS_DIR   (meson test --benchmark)
# Expands every corpus file to --out-dir (a fresh directory each time) with
# -j 1 and with -j 2, best of three rounds, and prints wall-clock and
# CPU MB/s (input bytes) and the -j 2 / -j 1 ratio; the same printing to
# standard output (no files written, no fsync) shows the expander alone.
# The speed-up of -j 2 writing files is compared with the speed-up of
# -j 2 printing, measured in the same run: the aim is 90% of it (the
# files' writing adds no contention between the threads).  An input with
# errors (exit 2) is measured all the same.  It reports; it never asserts.
set -euo pipefail

prog=$(realpath "$1")
corpus=$2
here=$(dirname "$(realpath "$0")")
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
corpus_bench_setup "$corpus" "$tmp" || exit 1

# measure OUT ARGS...: one run of pcexpand -q ARGS SRC, "WALL CPU"
# seconds to OUT.  Each --out-dir run writes a directory of its own
# (DIR in ARGS), and none is removed before the end: a tree removed just
# before its files are written again makes ext4 look past the inodes it
# freed moments ago at every file it creates, which took most of the
# writing time and made the threads of -j 2 wait on each other in the
# kernel, whatever pcexpand does.
measure() {
    local out=$1 TIMEFORMAT='%R %U %S'
    shift
    { time "$prog" -q "$@" "$tmp/src" >/dev/null 2>&1 || true; } 2>"$tmp/time"
    awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$tmp/time" >"$out"
}

# Three rounds, each running the four configurations one after the
# other, so that a slow stretch of a shared machine weighs on all of
# them alike; of each configuration's three runs, the smallest wall time
# and the smallest CPU time (each the steadiest figure of its kind).
for k in 1 2 3; do
    measure "$tmp/j1.$k" -j 1 --out-dir "$tmp/out.j1.$k"
    measure "$tmp/j2.$k" -j 2 --out-dir "$tmp/out.j2.$k"
    measure "$tmp/p1.$k" -j 1
    measure "$tmp/p2.$k" -j 2
done
read -r w1 c1 < <(best_times "$tmp"/j1.?)
read -r w2 c2 < <(best_times "$tmp"/j2.?)
read -r p1 q1 < <(best_times "$tmp"/p1.?)
read -r p2 q2 < <(best_times "$tmp"/p2.?)
awk -v bytes="$bytes" -v files="$n_files" -v cpus="$(corpus_jobs)" \
    -v w1="$w1" -v c1="$c1" -v w2="$w2" -v c2="$c2" \
    -v p1="$p1" -v q1="$q1" -v p2="$p2" -v q2="$q2" \
    -v load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')" 'BEGIN {
    mb = bytes / 1e6
    printf "corpus: %d files, %.1f MB; %d CPUs online\n", files, mb, cpus
    printf "%-32s %9s %9s %10s %10s\n", "", "wall s", "cpu s", "wall MB/s", "cpu MB/s"
    row("pcexpand -j 1 --out-dir", w1, c1)
    row("pcexpand -j 2 --out-dir", w2, c2)
    row("pcexpand -j 1 >/dev/null", p1, q1)
    row("pcexpand -j 2 >/dev/null", p2, q2)
    printf "ratio -j 2 / -j 1, --out-dir: %.2fx wall\n", w1 / (w2 > 0 ? w2 : 1e-3)
    printf "ratio -j 2 / -j 1, >/dev/null: %.2fx wall\n", p1 / (p2 > 0 ? p2 : 1e-3)
    # -j 2 writing files, against -j 2 printing: the speed-ups, and the
    # first over the second.
    up_dir = w1 / nz(w2); up_null = p1 / nz(p2)
    printf "speed-up of -j 2: --out-dir %.2fx, >/dev/null %.2fx; --out-dir / >/dev/null %.0f%%\n",
        up_dir, up_null, 100 * up_dir / up_null
    printf "aim -j 2 --out-dir speed-up >= 90%% of -j 2 >/dev/null speed-up: %s (%.0f%%)\n",
        met(up_dir >= 0.9 * up_null), 100 * up_dir / up_null
    # The aims: 60 MB/s at -j 1, and -j 2 at least 1.6 times as fast.
    printf "aim -j 1 --out-dir >= 60 MB/s: %s wall (%.1f), %s cpu (%.1f)\n",
        met(mbs(w1) >= 60), mbs(w1), met(mbs(c1) >= 60), mbs(c1)
    printf "aim -j 2 >= 1.6x -j 1 (--out-dir, wall): %s (%.2fx)\n",
        met(w1 / nz(w2) >= 1.6), w1 / nz(w2)
    # -j 2 can only be 1.6 times as fast with two idle cores: the CPU
    # seconds per wall second of the -j 2 run show how many it got.  With
    # two idle cores the -j 2 run would take its CPU time over two, so
    # the CPU-based speedup is twice the -j 1 CPU time over the -j 2 one.
    printf "-j 2 kept %.2f CPUs busy (cpu s / wall s; %d online, load %s)\n", c2 / nz(w2), cpus, load
    printf "aim -j 2 >= 1.6x -j 1, CPU-based (2 x cpu -j 1 / cpu -j 2): %s --out-dir (%.2fx), %s >/dev/null (%.2fx)\n",
        met(2 * c1 / nz(c2) >= 1.6), 2 * c1 / nz(c2), met(2 * q1 / nz(q2) >= 1.6), 2 * q1 / nz(q2)
}
function nz(t) { return t > 0 ? t : 1e-3 }
function mbs(t) { return mb / nz(t) }
function met(ok) { return ok ? "MET" : "NOT MET" }
function row(name, w, c) {
    printf "%-32s %9.3f %9.3f %10.1f %10.1f\n", name, w, c, mb / (w > 0 ? w : 1e-3), mb / (c > 0 ? c : 1e-3)
}'
