# corpus-lib.sh - shared by corpus.sh and bench.sh (sourced, not run).
#
# corpus_unpack CORPUS OUT: decompress every CORPUS/**/*.el.gz to OUT/**/*.el
# and write their relative paths, byte-wise sorted, to OUT.list.  Fails with
# a message naming the package when the corpus is missing.

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
