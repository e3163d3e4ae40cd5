# corpus-lib.sh - shared by the corpus tests and benchmarks (sourced, not run).
#
# corpus_unpack CORPUS OUT: decompress every CORPUS/**/*.el.gz to OUT/**/*.el
# and write their relative paths, byte-wise sorted, to OUT.list.  Fails with
# a message naming the package when the corpus is missing.
# corpus_unpacked TAG CORPUS OUT: corpus_unpack, then set n_files and say
# "TAG: N files unpacked from CORPUS (S s)".
# corpus_bench_setup CORPUS TMP: corpus_unpack to TMP/src, and set bytes
# and n_files (the figures the benchmarks divide by).
# best_times FILE...: of the "WALL CPU" lines in FILEs, the smallest wall
# time and the smallest CPU time (each the steadiest figure of its kind on
# a shared machine).

corpus_jobs() {
    local n
    n=$(nproc 2>/dev/null || echo 1)
    echo $((n < 1 ? 1 : n))
}

corpus_unpack() {
    local corpus=$1 out=$2
    if ! command -v emacs >/dev/null; then
        echo "corpus: emacs is not installed (apt-get install -y emacs-nox)" >&2
        return 1
    fi
    if [[ ! -d $corpus ]] || ! find "$corpus" -name '*.el.gz' -print -quit | grep -q .; then
        echo "corpus: no *.el.gz files under $corpus:" \
             "install emacs-el (apt-get install -y emacs-el) or set -Dcorpus=DIR" >&2
        return 1
    fi
    mkdir -p "$out"
    (cd "$corpus" && find . -name '*.el.gz' -printf '%P\n') | LC_ALL=C sort |
        sed 's/\.gz$//' >"$out.list"
    (cd "$out" && sed -n 's|/[^/]*$||p' "$out.list" | sort -u | xargs -r mkdir -p)
    # Decompress in parallel batches.
    tr '\n' '\0' <"$out.list" |
        xargs -0 -n 64 -P "$(corpus_jobs)" bash -c '
            corpus=$1 out=$2; shift 2
            for f; do
                gzip -dc "$corpus/$f.gz" >"$out/$f"
            done' _ "$corpus" "$out"
}

corpus_unpacked() {
    local t0=$SECONDS
    corpus_unpack "$2" "$3" || return 1
    n_files=$(wc -l <"$3.list")
    echo "$1: $n_files files unpacked from $2 ($((SECONDS - t0)) s)"
}

corpus_bench_setup() {
    corpus_unpack "$1" "$2/src" || return 1
    bytes=$(find "$2/src" -type f -printf '%s\n' | awk '{s += $1} END {print s}')
    n_files=$(wc -l <"$2/src.list")
}

best_times() {
    awk 'NR == 1 || $1 < w {w = $1} NR == 1 || $2 < c {c = $2}
         END {printf "%.3f %.3f\n", w, c}' "$@"
}
