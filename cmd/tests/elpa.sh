#!/bin/bash
# elpa.sh - Debian's Emacs Lisp packages expanded and byte-compiled (suite elpa).
#
# Usage: elpa.sh PCEXPAND PACKAGES COMPILE_EL CHECK_EL
# PACKAGES is testdata/elpa/packages.txt: the elpa-NAME packages of Debian
# 12 to check ("check NAME"), the dependencies only loaded ("load NAME")
# and those Emacs 30.1 provides itself ("builtin NAME").  The test
#  1. downloads each checked and loaded package (apt-get download
#     elpa-NAME/bookworm; with PCX_ELPA_DEBS=DIR, takes DIR's
#     elpa-NAME_*.deb instead) and unpacks it with dpkg -x into a scratch
#     directory: nothing is installed.  Without network (or any other
#     failure to get them) it fails, saying so: it never passes without
#     having run;
#  2. checks that every elpa-* dependency of those packages is in
#     PACKAGES, so that the byte compiler finds every library;
#  3. runs pcexpand --out-dir over every .el file of the checked packages,
#     with -L over every package's directory: exit 0, no error diagnostic;
#  4. has Emacs (CHECK_EL, as the corpus suite does) read every output
#     file back, find no pcase-family or cond* head left in a code
#     position, the input's bytes outside the replaced forms, and every
#     expansion indented as indent-region indents it;
#  5. byte-compiles every .el file of every checked package twice in
#     Emacs (COMPILE_EL, one Emacs per package): the original with the
#     original packages on the load path, and the expansion with the
#     expanded ones (the loaded packages as they are, on both): the
#     expansion must give no warning or error that the original did not
#     give, and compile whenever the original compiles.
# Prints per package the files, the forms replaced, the warnings of the
# original compilation, its files that did not compile (as in magit-forge,
# whose yaml dependency Emacs 30 cannot read: the expansion must then fail
# the same way) and the new warnings; fails on any failure.
# PCX_ELPA_KEEP=1 keeps the scratch directory (its name is printed).
set -euo pipefail

prog=$(realpath "$1")
packages=$(realpath "$2")
compile_el=$(realpath "$3")
check_el=$(realpath "$4")
here=$(dirname "$(realpath "$0")")
# shellcheck source=corpus-lib.sh
. "$here/corpus-lib.sh"

tmp=$(mktemp -d)
if [[ -n ${PCX_ELPA_KEEP:-} ]]; then
    echo "elpa: scratch directory $tmp (kept)"
else
    trap 'rm -rf "$tmp"' EXIT
fi
start=$SECONDS
failures=0

fail() {
    echo "elpa: $*"
    failures=$((failures + 1))
}

die() {
    echo "elpa: $*" >&2
    echo "elpa: FAILED"
    exit 1
}

command -v emacs >/dev/null || die "emacs is not installed (see the README's first command)"
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing: this test needs Debian's dpkg"

mapfile -t checked < <(awk '$1 == "check" {print $2}' "$packages")
mapfile -t loaded < <(awk '$1 == "load" {print $2}' "$packages")
mapfile -t builtin < <(awk '$1 == "builtin" {print $2}' "$packages")
[[ ${#checked[@]} -gt 0 ]] || die "no package to check in $packages"
wanted=("${checked[@]}" "${loaded[@]}")

# 1. The .deb files.
mkdir -p "$tmp/debs" "$tmp/root"
if [[ -n ${PCX_ELPA_DEBS:-} ]]; then
    for p in "${wanted[@]}"; do
        deb=$(find "$PCX_ELPA_DEBS" -maxdepth 1 -name "elpa-${p}_*.deb" | sort | tail -n 1)
        [[ -n $deb ]] || die "PCX_ELPA_DEBS=$PCX_ELPA_DEBS has no elpa-${p}_*.deb"
        cp "$deb" "$tmp/debs/"
    done
else
    command -v apt-get >/dev/null || die "apt-get is missing: cannot download the packages"
    specs=()
    for p in "${wanted[@]}"; do specs+=("elpa-$p/bookworm"); done
    if ! (cd "$tmp/debs" && apt-get download "${specs[@]}") >"$tmp/apt.log" 2>&1; then
        grep -v '^W: Download is performed unsandboxed' "$tmp/apt.log" | tail -n 10
        die "apt-get download failed (no network, or no bookworm in apt's sources?):" \
            "the packages of $packages could not be fetched; PCX_ELPA_DEBS=DIR takes DIR's .deb files"
    fi
fi
echo "elpa: $(find "$tmp/debs" -name '*.deb' | wc -l) packages downloaded ($((SECONDS - start)) s)"

# 2. Every dependency is here or in Emacs; each package's directory.
known=" ${wanted[*]} ${builtin[*]} "
src=$tmp/root/usr/share/emacs/site-lisp/elpa-src
: >"$tmp/check.dirs"
: >"$tmp/load.dirs"
for deb in "$tmp/debs"/*.deb; do
    name=$(dpkg-deb -f "$deb" Package)
    echo "elpa: $name $(dpkg-deb -f "$deb" Version)"
    for dep in $(dpkg-deb -f "$deb" Depends | tr ',|' '\n\n' | awk '{print $1}' | grep '^elpa-' || true); do
        [[ $known == *" ${dep#elpa-} "* ]] ||
            fail "$name depends on $dep, which $packages does not name"
    done
    dpkg -x "$deb" "$tmp/root"
    kind=check
    [[ " ${loaded[*]} " == *" ${name#elpa-} "* ]] && kind=load
    dpkg-deb -c "$deb" | awk '{print $6}' | sed -n 's|^\./usr/share/emacs/site-lisp/elpa-src/\([^/]*\)/$|\1|p' \
        >>"$tmp/$kind.dirs"
done
mapfile -t dirs < <(LC_ALL=C sort "$tmp/check.dirs")
mapfile -t load_dirs < <(LC_ALL=C sort "$tmp/load.dirs")
[[ ${#dirs[@]} -gt 0 ]] || die "the packages have no directory under usr/share/emacs/site-lisp/elpa-src"
for d in "${dirs[@]}"; do
    (cd "$src" && find "$d" -name '*.el')
done | LC_ALL=C sort >"$tmp/src.list"
echo "elpa: ${#dirs[@]} package directories checked, ${#load_dirs[@]} loaded," \
     "$(wc -l <"$tmp/src.list") .el files"

# 3. Expansion, from the top of the packages so that --out-dir mirrors
# them (each file an operand: the paths under OUT are the operands').
mapfile -t files < "$tmp/src.list"
lflags=()
for d in "${dirs[@]}" "${load_dirs[@]}"; do lflags+=(-L "$d"); done
expand() { # NAME ARGS...
    local name=$1 st=0
    shift
    (cd "$src" && "$prog" "${lflags[@]}" "$@" "${files[@]}") >"$tmp/$name.out" 2>"$tmp/$name.err" ||
        st=$?
    if [[ $st -ne 0 ]] || grep -q '^[^ ]*: error: ' "$tmp/$name.err"; then
        grep '^[^ ]*: error: ' "$tmp/$name.err" | head -n 20
        fail "pcexpand $* exited with $st"
    fi
}
expand expand -q --out-dir "$tmp/exp"
expand records -q --format=json
echo "elpa: expanded, $(wc -l <"$tmp/records.out") forms replaced," \
     "$(grep -c '^[^ ]*: warning: ' "$tmp/expand.err" || true) warnings ($((SECONDS - start)) s)"

# 4. The output read back by Emacs, with no head left in code.
emacs -Q --batch -l "$check_el" -f pcx-expand-check "$tmp/src.list" "$src" \
    "$tmp/exp" "$tmp/records.out" >"$tmp/check.out" 2>"$tmp/check.log" || true
grep -h -A2 -E '^(MISMATCH|HEAD-LEFT|READ-ERROR|INDENT)' "$tmp/check.log" | head -n 30 || true
read -r c_files c_sites c_read c_heads c_text c_ind c_indp < <(awk '/^files /{
    print $2, $4, $6, $8, $10, $12, $16}' "$tmp/check.out") || true
[[ -n ${c_files:-} ]] ||
    { tail -n 20 "$tmp/check.log"; die "the Emacs that reads the output back did not finish"; }
echo "elpa: emacs read back $c_files files, $c_sites forms: read-errors $c_read" \
     "heads-left $c_heads text-mismatches $c_text; indent-region over $c_ind expansions:" \
     "$c_indp lines moved ($((SECONDS - start)) s)"
[[ $c_read -eq 0 && $c_heads -eq 0 && $c_text -eq 0 && $c_indp -eq 0 ]] ||
    fail "the output does not read back as it should"
[[ $c_files -eq $(wc -l <"$tmp/src.list") ]] || fail "$c_files files read back, not all"

# 5. Byte-compiled before and after, one Emacs per package directory.
for d in "${load_dirs[@]}"; do echo "$src/$d"; done >"$tmp/load.path"
for d in "${dirs[@]}"; do echo "$src/$d"; done | cat - "$tmp/load.path" >"$tmp/orig.path"
for d in "${dirs[@]}"; do echo "$tmp/exp/$d"; done | cat - "$tmp/load.path" >"$tmp/exp.path"
for d in "${dirs[@]}"; do grep "^$d/" "$tmp/src.list" >"$tmp/$d.list"; done
for side in orig exp; do
    root=$src
    [[ $side == exp ]] && root=$tmp/exp
    printf '%s\0' "${dirs[@]}" |
        xargs -0 -I{} -P "$(corpus_jobs)" bash -c '
            d=$1 side=$2 root=$3 el=$4 tmp=$5
            emacs -Q --batch -l "$el" -f pcx-elpa-compile "$root" "$tmp/$d.list" \
                "$tmp/elc-$side" "$tmp/$side.path" >"$tmp/$side.$d.out" 2>"$tmp/$side.$d.log" ||
                true' _ {} "$side" "$root" "$compile_el" "$tmp"
done
echo "elpa: package files forms original-warnings original-failed new-warnings" \
     "($((SECONDS - start)) s)"
t_files=0 t_forms=0 t_orig=0 t_failed=0 t_new=0
for d in "${dirs[@]}"; do
    files=$(wc -l <"$tmp/$d.list")
    for side in orig exp; do
        if [[ $(grep -c '^R' "$tmp/$side.$d.out" || true) -ne $files ]]; then
            tail -n 5 "$tmp/$side.$d.log"
            fail "$d: the $side compilation did not finish"
        fi
    done
    LC_ALL=C sort "$tmp/orig.$d.out" >"$tmp/orig.$d.sorted"
    LC_ALL=C sort "$tmp/exp.$d.out" >"$tmp/exp.$d.sorted"
    LC_ALL=C comm -13 "$tmp/orig.$d.sorted" "$tmp/exp.$d.sorted" >"$tmp/new.$d"
    forms=$(grep -c "^{\"file\":\"$d/" "$tmp/records.out" || true)
    n_orig=$(grep -c '^W' "$tmp/orig.$d.out" || true)
    n_failed=$(grep -c '^R.*failed$' "$tmp/orig.$d.out" || true)
    n_new=$(wc -l <"$tmp/new.$d")
    echo "elpa: $d $files $forms $n_orig $n_failed $n_new"
    if [[ $n_new -ne 0 ]]; then
        head -n 10 "$tmp/new.$d"
        fail "$d: the expansion compiles with warnings or errors the original did not have"
    fi
    t_files=$((t_files + files)) t_forms=$((t_forms + forms))
    t_orig=$((t_orig + n_orig)) t_failed=$((t_failed + n_failed)) t_new=$((t_new + n_new))
done
echo "elpa: total ${#dirs[@]} packages, $t_files files, $t_forms forms replaced," \
     "$t_orig warnings of the originals, $t_failed originals not compiled, $t_new new" \
     "($((SECONDS - start)) s)"
if [[ $failures -ne 0 ]]; then
    echo "elpa: FAILED"
    exit 1
fi
echo "elpa: ok"
