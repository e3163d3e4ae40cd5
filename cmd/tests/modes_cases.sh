#!/bin/bash
# modes_cases.sh - end-to-end cases for the modes and options of pcexpand:
# targets (-w, -o, --out-dir, -c, -d, -l), --only/--skip, --at, --stats,
# -j, --format, --dump, --werror, -q/-v, --no-memo, streamed standard
# input, configuration and golden files (cli.md sections 2-7, 10, 12, 13,
# 15).
#
# Usage: modes_cases.sh PCEXPAND CASE   (PCX_TESTDATA: the testdata folder)
# Each CASE builds its inputs in a scratch directory, runs the program and
# checks exit status, standard output, standard error and files written.
set -euo pipefail

prog=$(realpath "$1")
case_name=$2

# Cases that write to device names run in a mount namespace of their own,
# over a /dev of their own (a tmpfs with null, full, zero and the
# descriptor links): nothing they do, right or wrong, reaches the
# machine's /dev.  They need root and unshare (util-linux); without them
# they are skipped (exit 77), except that pipe-targets runs as is for a
# user who cannot change /dev anyway.
skip() {
    echo "SKIP [$case_name]: $*"
    exit 77
}
private_dev() {
    mount -t tmpfs -o mode=0755 pcx-dev /dev || skip "cannot mount a tmpfs on /dev"
    mknod -m 666 /dev/null c 1 3
    mknod -m 666 /dev/full c 1 7
    mknod -m 666 /dev/zero c 1 5
    ln -s /proc/self/fd /dev/fd
    ln -s /proc/self/fd/0 /dev/stdin
    ln -s /proc/self/fd/1 /dev/stdout
    ln -s /proc/self/fd/2 /dev/stderr
}
case $case_name in
device-targets | pipe-targets)
    if [[ ${PCX_PRIVATE_DEV:-} == 1 ]]; then
        private_dev
    elif [[ $(id -u) -eq 0 ]] && unshare -m --propagation private true 2>/dev/null; then
        exec env PCX_PRIVATE_DEV=1 unshare -m --propagation private -- \
            "$BASH" "$0" "$prog" "$case_name"
    elif [[ $case_name == device-targets || $(id -u) -eq 0 ]]; then
        skip "needs root and 'unshare -m' for a private /dev"
    fi
    ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

fail() {
    echo "FAIL [$case_name]: $*" >&2
    for f in out err; do
        if [[ -s $f ]]; then
            echo "--- $f:" >&2
            head -c 3000 "$f" >&2
        fi
    done
    exit 1
}

# run ARGS... : runs the program, status in $status, output in out/err.
run() {
    set +e
    "$prog" "$@" >out 2>err
    status=$?
    set -e
}

expect_status() {
    [[ $status -eq $1 ]] || fail "exit status $status, expected $1"
}

# run_bounded ARGS... : run, ended after 20 s (status 124) should it wait
# for ever (reading a FIFO or its own output pipe).
run_bounded() {
    set +e
    timeout 20 "$prog" "$@" >out 2>err
    status=$?
    set -e
}

# A file with two expandable forms, comments and a cookie.
make_sample() {
    cat >"$1" <<'EOF'
;;; sample.el --- test input  -*- lexical-binding: t -*-

(defun sample-kind (x)
  ;; What is it?
  (pcase x
    ((pred integerp) 'int)
    (`(,a . ,b) (list a b))               ; a pair
    (_ 'other)))

(defun sample-first (l) (cond* ((match* (cons a _) l) a) (t nil)))
EOF
}

# 3000 forms to expand (some 250 KB, more once expanded).
make_many_forms() {
    for i in $(seq 3000); do
        printf '(defun f%d (x)\n  (pcase x\n    (`(,a ,b . ,c) (list a b c))\n    (_ nil)))\n' "$i"
    done >"$1"
}

# mtime in nanoseconds
mtime() { stat -c %.9Y "$1" 2>/dev/null || stat -c %Y "$1"; }

case $case_name in
write)
    make_sample a.el
    make_sample b.el
    printf ';; nothing to do\n(a b)\n' >plain.el
    chmod 640 a.el
    "$prog" a.el >expected.el 2>/dev/null
    touch -d '2001-01-01 00:00' plain.el
    before=$(mtime plain.el)
    run -w a.el b.el plain.el
    expect_status 0
    [[ ! -s out ]] || fail "-w printed something"
    cmp -s a.el expected.el || fail "a.el not rewritten with the expansion"
    cmp -s b.el expected.el || fail "b.el not rewritten"
    [[ $(stat -c %a a.el) == 640 ]] || fail "permissions not kept: $(stat -c %a a.el)"
    [[ $(mtime plain.el) == "$before" ]] || fail "an unchanged file was rewritten"
    ls -A | grep -q '\.tmp$' && fail "a temporary file was left"
    # A second -w changes nothing.
    cp a.el again.el
    run -w again.el
    expect_status 0
    cmp -s again.el expected.el || fail "second -w changed the file"
    ;;
write-errors)
    # A file with a read error stays byte-identical; others are written.
    make_sample good.el
    printf '(pcase x (1 2)\n' >bad.el
    cp bad.el bad.orig
    printf '(pcase x (pred))\n(pcase y ((pred) 1))\n' >warn.el
    cp warn.el warn.orig
    run -w bad.el good.el
    expect_status 2
    cmp -s bad.el bad.orig || fail "a file with errors was changed"
    grep -q '^bad.el:2:1: error: .*\[read\]$' err || fail "read error not reported"
    grep -q '(cond' good.el || fail "the good file was not written"
    # Warnings do not stop -w; under --werror they do, and print as errors.
    run -w --werror warn.el
    expect_status 2
    cmp -s warn.el warn.orig || fail "--werror: a file with warnings was written"
    grep -q '^warn.el:2:[0-9]*: error: .*\[pred-without-function\]$' err ||
        fail "--werror: warning not printed as an error"
    run -w warn.el
    expect_status 0
    ! cmp -s warn.el warn.orig || fail "a file with warnings only was not written"
    # -w does not accept standard input, nor a mode that does not write.
    run -w <good.el
    expect_status 2
    grep -q 'standard input' err || fail "-w with standard input"
    run -w -c good.el
    expect_status 2
    [[ $(head -1 err) == "pcexpand: error: -w cannot be combined with -c [usage]" ]] ||
        fail "-w -c message"
    # An unwritable directory is an io error, and the file stays as it was.
    mkdir ro
    make_sample ro/x.el
    cp ro/x.el x.orig
    chmod 555 ro
    if [[ ! -w ro ]]; then
        run -w ro/x.el
        expect_status 2
        grep -q '^ro/x.el: error: cannot create temporary file: .*\[io\]$' err ||
            fail "unwritable directory not reported"
        cmp -s ro/x.el x.orig || fail "file changed"
    fi
    chmod 755 ro
    ;;
write-killed)
    # A -w killed at any moment leaves the old file or the new one, never
    # a mix (temporary file + rename).
    for i in $(seq 3000); do
        printf '(defun f%d (x)\n  (pcase x\n    (`(,a ,b . ,c) (list a b c))\n    ((pred stringp) (length x))\n    (_ nil)))\n\n' "$i"
    done >old.el
    "$prog" old.el >new.el
    cmp -s old.el new.el && fail "nothing to expand"
    size=$(stat -c %s new.el)
    killed=0
    for delay in 0.01 0.03 0.05 0.08 0.1 0.15 0.2 0.3; do
        cp old.el f.el
        "$prog" -w f.el &
        pid=$!
        sleep "$delay"
        kill -KILL "$pid" 2>/dev/null && killed=$((killed + 1))
        wait "$pid" 2>/dev/null || true
        if ! cmp -s f.el old.el && ! cmp -s f.el new.el; then
            fail "after SIGKILL at ${delay}s f.el is neither old nor new ($(stat -c %s f.el) bytes, new has $size)"
        fi
        rm -f .f.el.*.tmp
    done
    [[ $killed -gt 0 ]] || fail "the program always ended before the kill"
    echo "killed $killed times"
    ;;
output)
    make_sample a.el
    "$prog" a.el >expected.el
    run -o out.el a.el
    expect_status 0
    [[ ! -s out ]] || fail "-o printed to standard output"
    cmp -s out.el expected.el || fail "-o wrote something else"
    touch -d '2001-01-01 00:00' out.el
    before=$(mtime out.el)
    run -o out.el a.el
    [[ $(mtime out.el) == "$before" ]] || fail "an up-to-date -o target was rewritten"
    run --output=std.el <a.el
    expect_status 0
    cmp -s std.el expected.el || fail "-o with standard input"
    run -o out.el a.el a.el
    expect_status 2
    [[ $(head -1 err) == "pcexpand: error: -o needs exactly one input [usage]" ]] ||
        fail "-o with two inputs"
    run -o no/such/dir/out.el a.el
    expect_status 2
    grep -q '^no/such/dir/out.el: error: cannot create temporary file: No such file or directory \[io\]$' err ||
        fail "missing directory for -o"
    printf '(x\n' >bad.el
    run -o bad-out.el bad.el
    expect_status 2
    [[ ! -e bad-out.el ]] || fail "-o written for an input with errors"
    ;;
out-dir)
    mkdir -p src/sub src/.hidden
    make_sample src/a.el
    printf '(b)\n' >src/sub/b.el
    printf '(h)\n' >src/.hidden/h.el
    make_sample top.el
    run --out-dir od src top.el
    expect_status 0
    [[ ! -s out ]] || fail "--out-dir printed to standard output"
    [[ $(cd od && find . -type f | LC_ALL=C sort | tr '\n' ' ') == "./a.el ./sub/b.el ./top.el " ]] ||
        fail "wrong files: $(cd od && find . -type f | tr '\n' ' ')"
    "$prog" src/a.el | cmp -s - od/a.el || fail "od/a.el is not the expansion"
    cmp -s src/sub/b.el od/sub/b.el || fail "od/sub/b.el"
    # A DIR operand given with a trailing slash or as ./ mirrors the same.
    run --out-dir out2/ ./src/
    [[ -f out2/a.el && -f out2/sub/b.el ]] || fail "trailing slash"
    # An absolute FILE operand: its base name; '..' is refused.
    run --out-dir out3 "$tmp/top.el"
    expect_status 0
    [[ -f out3/top.el ]] || fail "absolute file operand"
    run --out-dir out4 src/../top.el
    expect_status 2
    grep -q "^src/../top.el: error: cannot mirror a path with '..' components under --out-dir \[io\]$" err ||
        fail "'..' in a file operand"
    # Standard input needs a name.
    run --out-dir out5 <top.el
    expect_status 2
    grep -q 'needs --stdin-filepath' err || fail "standard input without a name"
    run --out-dir out5 --stdin-filepath=lisp/t.el <top.el
    expect_status 0
    cmp -s out5/lisp/t.el od/top.el || fail "standard input with --stdin-filepath"
    # Check against the directory: up to date, then stale.
    run -c --out-dir od src top.el
    expect_status 0
    [[ $(cat err) == "pcexpand: 3 files checked, 0 stale" ]] || fail "summary"
    printf ';; changed\n' >>od/sub/b.el
    rm od/top.el
    run -l --out-dir od src top.el
    expect_status 1
    [[ $(cat out) == $'od/sub/b.el\nod/top.el' ]] || fail "-l names"
    ;;
out-dir-mistakes)
    # Two inputs with one target: both refused, nothing written there;
    # the other inputs are still written (exit 2, every mode).
    mkdir -p a b c
    make_sample a/x.el
    printf '(pcase y (1 2))\n' >b/x.el
    make_sample c/y.el
    for mode in "" -c; do
        run $mode --out-dir od a b c
        expect_status 2
        grep -qxF 'a/x.el: error: its --out-dir target od/x.el is also the target of b/x.el [usage]' err ||
            fail "$mode: collision not said for a/x.el"
        grep -qxF 'b/x.el: error: its --out-dir target od/x.el is also the target of a/x.el [usage]' err ||
            fail "$mode: collision not said for b/x.el"
        [[ ! -e od/x.el ]] || fail "$mode: a colliding target was written"
        [[ -n $mode || -f od/y.el ]] || fail "the input without a collision was not written"
    done
    # Also when the spellings differ, and with -j 2; one file given twice
    # is no collision.
    rm -rf od
    printf '(pcase z (1 2))\n' >x.el
    run -j 2 --out-dir od/ .//x.el a
    expect_status 2
    [[ $(grep -c 'is also the target of' err) -eq 2 ]] || fail "spellings: not two collisions"
    run --out-dir od a/x.el ./a/x.el
    expect_status 0
    [[ -f od/a/x.el && ! -s err ]] || fail "one file given twice"
    # An --out-dir that is the input directory would rewrite the inputs in
    # place: refused, nothing written; so is a file whose mirror is itself.
    cp a/x.el a/keep.el
    run --out-dir a a
    expect_status 2
    grep -qxF 'a: error: this directory is the --out-dir: its files would be rewritten in place (only -w rewrites inputs) [usage]' err ||
        fail "--out-dir=DIR DIR not refused"
    cmp -s a/x.el a/keep.el || fail "an input was rewritten"
    run --out-dir ./a/ ./a
    expect_status 2
    run --out-dir . a/x.el
    expect_status 2
    grep -qxF 'a/x.el: error: its --out-dir target is the file itself: it would be rewritten in place (only -w rewrites inputs) [usage]' err ||
        fail "a file that is its own target not refused"
    cmp -s a/x.el a/keep.el || fail "an input was rewritten"
    # An --out-dir inside the input directory is not searched (said in a
    # note), so a second run writes the same files, not a level deeper.
    rm a/keep.el
    run --out-dir a/build a
    expect_status 0
    first=$(cd a/build && find . -type f | LC_ALL=C sort | tr '\n' ' ')
    run --out-dir a/build a
    expect_status 0
    grep -qxF 'a/build: note: not searched for inputs: it is the --out-dir' err ||
        fail "the skipped --out-dir is not said"
    [[ ! -e a/build/build ]] || fail "the second run nested the output"
    [[ $(cd a/build && find . -type f | LC_ALL=C sort | tr '\n' ' ') == "$first" ]] ||
        fail "the second run wrote other files"
    run -q --out-dir a/build a
    [[ ! -s err ]] || fail "-q does not silence the note"
    ;;
check)
    make_sample a.el
    printf '(a b)\n' >plain.el
    run -c plain.el
    expect_status 0
    [[ ! -s out ]] || fail "-c printed something"
    [[ $(cat err) == "pcexpand: 1 file checked, 0 stale" ]] || fail "summary (fresh)"
    run --check plain.el a.el
    expect_status 1
    [[ ! -s out ]] || fail "-c printed something"
    [[ $(cat err) == "pcexpand: 2 files checked, 1 stale" ]] || fail "summary (stale)"
    run -c -q plain.el a.el
    expect_status 1
    [[ ! -s err ]] || fail "-q must silence the summary"
    # Broken beats stale: exit 2.
    printf '(x\n' >bad.el
    run -c a.el bad.el
    expect_status 2
    # A missing -o target is stale.
    run -c -o missing.el plain.el
    expect_status 1
    [[ ! -e missing.el ]] || fail "-c wrote the target"
    # Standard input is compared with itself.
    run -c <plain.el
    expect_status 0
    run -c --stdin-filepath=x.el <a.el
    expect_status 1
    ;;
list)
    make_sample a.el
    printf '(a b)\n' >plain.el
    mkdir d
    make_sample d/z.el
    run -l plain.el a.el d
    expect_status 1
    [[ $(cat out) == $'a.el\nd/z.el' ]] || fail "names of stale targets"
    run --list plain.el
    expect_status 0
    [[ ! -s out ]] || fail "nothing is stale"
    ;;
diff)
    make_sample a.el
    printf '(a b)\n' >plain.el
    "$prog" a.el >expected.el
    run -d plain.el a.el
    expect_status 1
    [[ $(sed -n 1p out) == "--- a/a.el" && $(sed -n 2p out) == "+++ b/a.el" ]] ||
        fail "headers"
    grep -q '^@@ -[0-9]*,[0-9]* +[0-9]*,[0-9]* @@$' out || fail "hunk header"
    grep -q '^-  (pcase x$' out || fail "removed line"
    grep -q '^+  (cond$' out || fail "added line"
    # The diff applies (git apply and patch) and gives the output.
    mkdir g && cp a.el g/a.el
    (cd g && git apply ../out) || fail "git apply refused the diff"
    cmp -s g/a.el expected.el || fail "git apply gave something else"
    cp a.el p.el
    patch -s p.el <out || fail "patch refused the diff"
    cmp -s p.el expected.el || fail "patch gave something else"
    # Up to date: no diff, exit 0.
    run -d plain.el expected.el
    expect_status 0
    [[ ! -s out ]] || fail "diff of an up-to-date file"
    # Against a missing -o target: a creation diff.
    run -d -o new.el a.el
    expect_status 1
    [[ $(sed -n 1p out) == "--- /dev/null" && $(sed -n 2p out) == "+++ b/new.el" ]] ||
        fail "creation headers"
    [[ $(grep -c '^+' out) -eq $(($(wc -l <expected.el) + 1)) ]] || fail "creation lines"
    # No final newline in the target, standard input named by --stdin-filepath.
    printf '(pcase x (1 2))' >nonl.el
    run -d --stdin-filepath=lisp/s.el <nonl.el
    expect_status 1
    [[ $(sed -n 1p out) == "--- a/lisp/s.el" ]] || fail "standard input header"
    grep -q '^\\ No newline at end of file$' out || fail "missing newline marker"
    # -c and -l combine with -d.
    run -c -l -d a.el
    expect_status 1
    [[ $(sed -n 1p out) == "a.el" && $(sed -n 2p out) == "--- a/a.el" ]] || fail "-l -d"
    ;;
only-skip)
    printf '(pcase x (1 (cond* (t 2))))\n(cond* ((match* (cons a _) x) a))\n(pcase-let ((`(,p) l)) p)\n' >f.el
    run --only=cond* f.el
    expect_status 0
    grep -q '^(pcase x (1 ' out || fail "--only=cond*: pcase must stay"
    ! grep -q 'cond\*' out || fail "--only=cond*: a cond* form is left (nested ones too)"
    grep -q '^(pcase-let ' out || fail "--only=cond*: pcase-let must stay"
    run --skip=pcase,cond* f.el
    expect_status 0
    [[ $(grep -c 'cond\*' out) -eq 2 ]] || fail "--skip: cond* forms must stay"
    ! grep -q 'pcase-let' out || fail "--skip: pcase-let must be expanded"
    run --only=pcase-let,pcase --skip=pcase f.el
    ! grep -q 'pcase-let' out && grep -q '^(pcase x' out || fail "--only with --skip"
    run --only=pcase,bogus f.el
    expect_status 2
    grep -q "invalid --only 'pcase,bogus'" err || fail "unknown head"
    ;;
at)
    cat >f.el <<'EOF'
(defun f (x)
  (pcase x
    (1 (pcase-let ((`(,a) x)) a))
    (_ 2)))
(defun g (y) (cond* (t y)))

(pcase z (_ 3))
EOF
    run --at=3:10 --format=json f.el
    expect_status 0
    [[ $(wc -l <out) -eq 1 ]] || fail "one record expected"
    grep -q '"line":3,"column":8,.*"macro":"pcase-let"' out || fail "innermost form at 3:10"
    run --at=2 --format=json f.el
    grep -q '"line":2,"column":3,.*"macro":"pcase"' out || fail "first form starting on line 2"
    run --at=4 --format=json f.el
    grep -q '"line":2,"column":3,' out || fail "form containing the start of line 4"
    run --at=5:40 --format=json f.el
    grep -q '"line":5,"column":14,.*"macro":"cond\*"' out || fail "last form ending before 5:40"
    run --at=3:10 f.el
    expect_status 0
    grep -q '^  (pcase x$' out || fail "--at: the enclosing form must stay"
    ! grep -q 'pcase-let' out || fail "--at: the selected form must be expanded"
    grep -q '^(defun g (y) (cond\* (t y)))$' out || fail "--at: other forms stay"
    run --at=3:10 --compact f.el
    [[ $(wc -l <out) -eq 1 ]] && grep -q '^(defun f ' out || fail "--at --compact"
    run --at=6 f.el
    expect_status 2
    [[ ! -s out ]] || fail "output for a missing form"
    [[ $(cat err) == "f.el:6:1: error: no pcase-family or cond* form at line 6 [usage]" ]] ||
        fail "message without COL"
    run --at=99:3 f.el
    expect_status 2
    grep -q 'no pcase-family or cond\* form at 99:3' err || fail "message with COL"
    run --at=7:2 f.el f.el
    expect_status 2
    run --at=7:2 --format=json <f.el
    grep -q '"line":7,"column":1' out || fail "--at with standard input"
    ;;
stats)
    cat >f.el <<'EOF'
(pcase x (`(,a . ,b) (list a b)) (_ nil))
(pcase-let ((`(,c ,d) l)) (list c d))
EOF
    printf '(a)\n' >g.el
    run --stats f.el g.el
    expect_status 0
    grep -Eq '^pcexpand: stats: files=2 forms=2 memo-hits=[0-9]+ memo-misses=[1-9][0-9]* temporaries=[1-9][0-9]* output-bytes=[0-9]+ time-ms=[0-9]+$' err ||
        fail "stats line"
    bytes=$(wc -c <out)
    grep -q "output-bytes=$bytes " err || fail "output-bytes is not the size of the output"
    run --stats -v f.el g.el
    [[ $(grep -c '^pcexpand: stats: ' err) -eq 3 ]] || fail "-v: a line per file"
    grep -q '^pcexpand: stats: file=g.el forms=0 ' err || fail "-v: g.el"
    # Counters do not depend on -j, except time.
    run --stats f.el g.el f.el
    sed 's/time-ms=[0-9]*//' err >j1
    run --stats -j2 f.el g.el f.el
    sed 's/time-ms=[0-9]*//' err | cmp -s - j1 || fail "stats differ with -j2"
    # Without the cache: same output, no hits.
    run f.el
    cp out memo.out
    run --no-memo --stats f.el
    cmp -s out memo.out || fail "--no-memo changed the output"
    grep -q 'memo-hits=0 ' err || fail "--no-memo still hit the cache"
    ;;
jobs)
    # Many files with expansions, warnings and errors: -j 2 and -j 0 give
    # the bytes, diagnostics and status of -j 1.
    mkdir d
    for i in $(seq 40); do
        {
            printf ';; file %d\n' "$i"
            printf '(defun f%d (x) (pcase x (`(,a . ,b) (list a b %d)) ((pred) 1) (_ nil)))\n' "$i" "$i"
            if ((i % 7 == 0)); then printf '(broken\n'; fi
        } >"d/f$(printf %02d "$i").el"
    done
    run d
    expect_status 2
    cp out j1.out
    cp err j1.err
    for j in 2 3 0; do
        run -j "$j" d
        expect_status 2
        cmp -s out j1.out || fail "-j $j: output differs"
        cmp -s err j1.err || fail "-j $j: diagnostics differ"
    done
    run --out-dir o1 d
    run -j2 --out-dir o2 d
    diff -r o1 o2 >/dev/null || fail "-j2 --out-dir wrote other files"
    run -j2 d - d <d/f01.el
    "$prog" d - d <d/f01.el >seq.out 2>/dev/null || true
    cmp -s out seq.out || fail "-j2 with standard input between directories"
    run -j x d
    expect_status 2
    ;;
jobs-split)
    # The only input, when large, is computed in parts, one after the
    # other or by the -j threads: the bytes, diagnostics, counters and
    # status are those of the run in one piece (--whole).  The
    # file defines a pattern macro and a struct in its first lines and uses
    # them at the end, has two forms on one line, comments and blank lines
    # between forms, a warning near the end, and CRLF-free text.
    {
        printf ';;; big.el  -*- lexical-binding: t -*-\n'
        printf '(pcase-defmacro my-pair (a b) `(and (pred consp) (app car ,a) (app cdr ,b)))\n'
        printf '(cl-defstruct big-pt x y)\n\n'
        for i in $(seq 2000); do
            printf ';; form %d\n' "$i"
            printf '(defun big-f%d (v)\n  (pcase v\n    (`(,a ,b . ,c) (list a b c %d))\n' "$i" "$i"
            printf '    ((and (pred stringp) s) (concat s "%d"))\n    (_ nil)))\n' "$i"
            if ((i % 100 == 0)); then printf '(pcase-let ((`(,p) q)) p) (pcase w (1 2))\n'; fi
        done
        printf '(defun big-last (v) (pcase v ((my-pair x y) (+ x y)) ((cl-struct big-pt x) x)))\n'
        printf '(defun big-warn (v) (pcase v (_ 1) (2 3)))\n'
    } >big.el
    [[ $(stat -c %s big.el) -gt 262144 ]] || fail "big.el is too small to be split"
    for mode in "" --compact; do
        run $mode --stats --whole big.el
        expect_status 0
        grep -q 'unreachable' err || fail "the warning near the end is missing"
        grep -v 'time-ms' err >j1.err
        cp out j1.out
        for j in 1 2 3 0; do
            run $mode --stats -j "$j" big.el
            expect_status 0
            cmp -s out j1.out || fail "-j $j $mode: output differs"
            grep -v 'time-ms' err | cmp -s - j1.err || fail "-j $j $mode: diagnostics or counters differ"
        done
    done
    grep -q '(my-pair x y)' j1.out && fail "the pattern macro was not expanded"
    # An error in the last form: nothing printed, the same diagnostics.
    cp big.el bad.el
    printf '(pcase z ((frob a) 1))\n' >>bad.el
    run --whole bad.el
    expect_status 2
    cp err bad1.err
    [[ ! -s out ]] || fail "output for a file with an error"
    for j in 1 2; do
        run -j $j bad.el
        expect_status 2
        [[ ! -s out ]] || fail "-j $j: output for a file with an error"
        cmp -s err bad1.err || fail "-j $j: diagnostics of the bad file differ"
    done
    # In place: the same file as in one piece.
    cp big.el w1.el
    cp big.el w2.el
    cp big.el w3.el
    run -w --whole w1.el
    run -w -j 2 w2.el
    run -w w3.el
    cmp -s w1.el w2.el || fail "-w -j 2 wrote another file"
    cmp -s w1.el w3.el || fail "-w in parts wrote another file"
    cmp -s w1.el big.el && fail "-w did not rewrite the file"
    ;;
add-requires)
    # The libraries the expansions call (map-elt from a map pattern,
    # cl-typep from cl-type): a note at the first form that calls one the
    # file does not require; --add-requires adds the requires after the
    # file's own and drops the (require 'pcase) nothing needs any more.
    cat >lib.el <<'EOF'
;;; lib.el --- uses map  -*- lexical-binding: t -*-

;;; Code:

(require 'cl-lib)
(eval-when-compile (require 'pcase))

(defun lib-get (m)
  (pcase m
    ((map :a) a)
    ((cl-type integer) m)))

(defun lib-again (m) (pcase m ((map :b) b)))

(provide 'lib)
EOF
    run lib.el
    expect_status 0
    [[ $(grep -c 'missing-require' err) -eq 1 ]] || fail "not one note missing-require"
    grep -q "^lib.el:9:3: note: .*map.*(require 'map).*\[missing-require\]" err ||
        fail "the note is not at the first form that calls map-elt"
    cp out plain.out
    run --add-requires lib.el
    expect_status 0
    grep -q missing-require err && fail "a note for a require --add-requires added"
    sed -e "/^(require 'cl-lib)\$/a (require 'map)" \
        -e "/^(eval-when-compile (require 'pcase))\$/d" plain.out >expected.out
    cmp -s out expected.out || fail "--add-requires: $(diff expected.out out)"
    # In place, the same bytes.
    cp lib.el w.el
    run -w --add-requires w.el
    expect_status 0
    "$prog" --add-requires lib.el 2>/dev/null | cmp -s - w.el || fail "-w wrote other bytes"
    # Standard input: the whole text, not form by form.
    "$prog" --add-requires - <lib.el 2>/dev/null | cmp -s - w.el ||
        fail "standard input got other bytes"
    # No require of its own: before the first form, a blank line after;
    # a (require 'pcase) the output still needs (a pattern macro's
    # definition) is kept; CRLF line ends are kept.
    printf ';; header\r\n\r\n(defun f (m) (pcase m ((map x) x)))\r\n' >crlf.el
    run --add-requires crlf.el
    expect_status 0
    printf ";; header\r\n\r\n(require 'map)\r\n\r\n(defun" >head.el
    head -c "$(stat -c %s head.el)" out | cmp -s - head.el ||
        fail "the require is not before the first form: $(head -c 60 out | od -c | head -n 4)"
    printf "(require 'pcase)\n(pcase-defmacro two (a) \`(and ,a ,a))\n(defun g (m) (pcase m ((map y) y)))\n" >keep.el
    run --add-requires keep.el
    expect_status 0
    head -n 2 out | cmp -s - <(printf "(require 'pcase)\n(require 'map)\n") ||
        fail "the needed (require 'pcase) was not kept, or map not added after it"
    # The file requires the library, provides it, or calls the function
    # itself: no note.
    printf "(require 'map)\n(defun h (m) (pcase m ((map z) z)))\n" >has.el
    printf "(defun k (m) (pcase m ((map z) z)))\n(provide 'map)\n" >provides.el
    printf "(defun u (m) (pcase m ((map z) (map-elt z 1))))\n" >own.el
    printf "(eval-and-compile (require 'cl-lib))\n(defun c (m) (pcase m ((cl-type integer) m)))\n" >body.el
    for f in has.el provides.el own.el body.el; do
        run "$f"
        expect_status 0
        grep -q missing-require err && fail "$f: a note for a library it has"
        run --add-requires "$f"
        cmp -s out <("$prog" "$f" 2>/dev/null) || fail "$f: --add-requires changed its text"
    done
    # eval-when-compile is no run-time require.
    printf "(eval-when-compile (require 'cl-lib))\n(defun c (m) (pcase m ((cl-type integer) m)))\n" >ewc.el
    run ewc.el
    grep -q "cl-lib.*missing-require" err || fail "eval-when-compile counted as a run-time require"
    # A file with nothing to expand keeps its (require 'pcase).
    printf "(require 'pcase)\n(defun n () 1)\n" >none.el
    run --add-requires none.el
    cmp -s out none.el || fail "a file with nothing expanded was changed"
    # A large input computed in parts: the same note as in one piece, and
    # --add-requires (always one piece) the same bytes with -j 2.
    {
        printf "(require 'cl-lib)\n"
        for i in $(seq 2500); do
            printf '(defun big-%d (v)\n  (pcase v\n    (`(,a ,b . ,c) (list a b c %d))\n    (_ nil)))\n' "$i" "$i"
        done
        printf '(defun big-map (m) (pcase m ((map q) q)))\n'
    } >big.el
    run --whole big.el
    cp err whole.err
    grep -q missing-require whole.err || fail "no note in one piece"
    for j in 1 2; do
        run -j "$j" big.el
        cmp -s err whole.err || fail "-j $j: other diagnostics: $(cat err)"
    done
    "$prog" --add-requires --whole big.el >whole.out 2>/dev/null
    run --add-requires -j 2 big.el
    cmp -s out whole.out || fail "--add-requires -j 2 gave other bytes"
    grep -q "^(require 'map)$" out || fail "no require added to the large file"
    # Only with the text as output.
    for o in --compact --no-expand --format=json --dump=pat --explain --at=1; do
        run --add-requires "$o" lib.el
        expect_status 2
        grep -q "add-requires cannot be combined with" err || fail "$o: $(cat err)"
    done
    run -g --add-requires x
    expect_status 2
    ;;
format-json)
    cat >f.el <<'EOF'
(defun f (x)
	(pcase x ;; tab before
	  ("é" 1)
	  (_ 2)))
(cond* ((match* (cons a b) y) a))
EOF
    "$prog" f.el >lisp.out
    run --format=json f.el
    expect_status 0
    [[ $(wc -l <out) -eq 2 ]] || fail "two JSON lines expected"
    jq -e -s 'length == 2 and .[0].file == "f.el" and .[0].line == 2 and
              .[0].column == 9 and .[0].end_line == 4 and .[0].end_column == 17 and
              .[0].macro == "pcase" and .[1].macro == "cond*" and
              .[1].line == 5 and .[1].column == 1 and
              (.[0].stats | has("memo_hits") and has("memo_misses") and
                            has("temporaries") and has("bytes")) and
              .[0].stats.bytes == (.[0].expansion | utf8bytelength)' out >/dev/null ||
        fail "record fields"
    # original is the form's text; expansion is what the Lisp output has
    # there (the trailing comment re-emitted first).
    [[ $(jq -r -s '.[0].original' out) == $'(pcase x ;; tab before\n\t  ("\xc3\xa9" 1)\n\t  (_ 2))' ]] ||
        fail "original text"
    exp=$(jq -r -s '.[0].expansion' out)
    [[ $exp == ";; tab before"$'\n'* ]] || fail "the comment starts the expansion"
    [[ $(cat lisp.out) == *"$exp"* ]] || fail "expansion not in the Lisp output"
    run --format=json --compact f.el
    jq -e -s '.[0].expansion | test("\n") | not' out >/dev/null || fail "--compact records are one line"
    # Nothing for a file with errors; nothing to expand gives no records.
    printf '(a)\n' >g.el
    run --format=json g.el
    expect_status 0
    [[ ! -s out ]] || fail "records for a file without forms"
    ;;
format-yaml)
    cat >f.el <<'EOF'
(defun f (x)
  (pcase x
    ("a:b # c" 1)
    (_ 2)))
(pcase-let ((`(,a) y)) a)
EOF
    run --format=yaml f.el
    expect_status 0
    [[ $(grep -c '^---$' out) -eq 2 ]] || fail "one document per record"
    grep -q '^original: |' out || fail "multi-line strings as | blocks"
    run --format=json f.el
    cp out records.json
    # Compare with the JSON records through an independent YAML reader.
    if python3 -c 'import yaml' 2>/dev/null; then
        run --format=yaml f.el
        python3 - out records.json <<'EOF' || fail "YAML and JSON records differ"
import json, sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1], encoding="utf-8")))
recs = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
sys.exit(0 if docs == recs else 1)
EOF
    else
        echo "python3 yaml module not available: YAML read-back skipped"
    fi
    ;;
dump)
    # Goldens: testdata/examples/dump.{pat,dtree} (regenerate with
    # `pcexpand --dump=pat dump.el >dump.pat` in testdata/examples).
    cp "$PCX_TESTDATA/examples/dump.el" .
    for kind in pat dtree; do
        run --dump=$kind dump.el
        expect_status 0
        diff -u "$PCX_TESTDATA/examples/dump.$kind" out >&2 || fail "--dump=$kind differs from its golden"
        cp out first
        run --dump=$kind dump.el
        cmp -s out first || fail "--dump=$kind is not deterministic"
        run --dump=$kind --no-memo dump.el
        cmp -s out first || fail "--dump=$kind changes without the cache"
        run --dump=$kind -j2 dump.el dump.el
        cat first first | cmp -s - out || fail "--dump=$kind with -j2"
    done
    grep -q '^;;; dump.el:5:3 pcase$' first || fail "dump header"
    run --dump=pat -o x.el dump.el
    expect_status 2
    run --dump=graph dump.el
    expect_status 2
    ;;
explain)
    # Goldens: testdata/explain/forms.{txt,json} (regenerate with
    # `pcexpand --explain forms.el >forms.txt` and `--format=json` in
    # testdata/explain).
    cp "$PCX_TESTDATA/explain/forms.el" .
    run --explain forms.el
    expect_status 0
    diff -u "$PCX_TESTDATA/explain/forms.txt" out >&2 || fail "--explain differs from its golden"
    [[ $(grep -c '^;;; forms.el:' out) -ge 20 ]] || fail "fewer than 20 forms explained"
    cp out first
    run --explain --no-memo forms.el
    cmp -s out first || fail "--explain changes without the cache"
    run --explain -j2 forms.el forms.el
    cat first first | cmp -s - out || fail "--explain with -j2"
    run --explain --format=json forms.el
    expect_status 0
    diff -u "$PCX_TESTDATA/explain/forms.json" out >&2 || fail "--explain --format=json differs"
    cp out records.json
    if python3 -c 'import yaml' 2>/dev/null; then
        run --explain --format=yaml forms.el
        python3 - out records.json <<'PY' || fail "YAML and JSON explanations differ"
import json, sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1], encoding="utf-8")))
recs = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
sys.exit(0 if docs == recs else 1)
PY
    fi
    # One form: --at, and standard input with its name.
    run --explain --at=80 forms.el
    grep -q '^;;; forms.el:80:3 pcase-exhaustive$' out || fail "--at"
    [[ $(grep -c '^;;; ' out) -eq 1 ]] || fail "--at explains one form"
    grep -q '^no match: some values match no clause, e.g. foo$' out || fail "witness line"
    set +e
    "$prog" --explain --stdin-filepath=s.el - <forms.el >out 2>err
    status=$?
    set -e
    expect_status 0
    sed 's/^;;; forms.el:/;;; s.el:/' first | cmp -s - out || fail "--explain of standard input"
    for bad in --dump=dtree --compact --no-expand -c -w; do
        run --explain $bad forms.el
        expect_status 2
        grep -q 'cannot be combined' err || fail "--explain $bad: $(cat err)"
    done
    ;;
dump-dot)
    # The DAG as Graphviz DOT: test nodes as in --dump=dtree, rendered by
    # dot without a message when Graphviz is installed.
    cp "$PCX_TESTDATA/examples/dump.el" .
    run --dump=dtree --format=dot dump.el
    expect_status 0
    diff -u "$PCX_TESTDATA/examples/dump.dot" out >&2 || fail "--format=dot differs from its golden"
    cp out first
    run --dump=dtree --format=dot --no-memo dump.el
    cmp -s out first || fail "DOT changes without the cache"
    run --dump=dtree dump.el
    [[ $(grep -c ': if ' out) -eq $(grep -c 'class="test"' first) ]] || fail "test nodes"
    grep -q 'peripheries=2' first || fail "no shared node drawn"
    if command -v dot >/dev/null; then
        dot -Tsvg first >g.svg 2>dot.err || fail "dot failed"
        [[ ! -s dot.err ]] || fail "dot: $(cat dot.err)"
        grep -q '<svg' g.svg || fail "no SVG"
    fi
    grep -q '^  graph \[' first && fail "a small DAG asks for bounded layout"
    # A DAG of more than 200 nodes asks dot for straight edges and bounded
    # layout passes (dot spent minutes on such graphs).
    { printf '(pcase x'; for i in $(seq 1 150); do printf ' (`(%d . ,y) (f y %d))' "$i" "$i"; done
      printf ' (_ 0))\n'; } >big.el
    run --dump=dtree --format=dot big.el
    expect_status 0
    [[ $(grep -c '^  n[0-9]* \[' out) -gt 200 ]] || fail "big.el: not a large DAG"
    grep -q '^  graph \[splines=line, nslimit=1, nslimit1=1, mclimit=0.1\];$' out ||
        fail "a large DAG does not bound dot's layout"
    if command -v dot >/dev/null; then
        dot -Tsvg out >g.svg 2>dot.err || fail "dot failed on the large DAG"
        [[ ! -s dot.err ]] || fail "dot: $(cat dot.err)"
    fi
    run --format=dot dump.el
    expect_status 2
    grep -q -- '--format=dot needs --dump=dtree' err || fail "dot without --dump"
    run --dump=pat --format=dot dump.el
    expect_status 2
    ;;
werror-quiet-verbose)
    printf '(pcase x ((pred) 1))\n' >w.el
    run w.el
    expect_status 0
    grep -q '^w.el:1:11: warning: .*\[pred-without-function\]$' err || fail "warning"
    [[ -s out ]] || fail "output expected with a warning"
    run --werror w.el
    expect_status 2
    [[ ! -s out ]] || fail "--werror: output printed"
    grep -q '^w.el:1:11: error: .*\[pred-without-function\]$' err || fail "--werror: error"
    run --werror --message-format=github w.el
    grep -q '^::error file=w.el,line=1,col=11,' err || fail "--werror github"
    run -q w.el
    grep -q 'warning' err || fail "-q must not silence warnings"
    printf '(a)\n' >n.el
    run -q n.el
    [[ ! -s err ]] || fail "-q: note printed"
    ;;
stdin-filepath)
    printf '(pcase x ((pred) 1))\n' >w.el
    run --stdin-filepath=lisp/w.el <w.el
    grep -q '^lisp/w.el:1:11: warning: ' err || fail "name in diagnostics"
    run --stdin-filepath lisp/w.el --format=json - <w.el
    grep -q '"file":"lisp/w.el"' out || fail "name in records"
    ;;
no-memo-goldens)
    # The compiler's cache changes nothing: every expansion test input of
    # the repository gives the same bytes, diagnostics and status without it.
    n=0
    while IFS= read -r -d '' f; do
        set +e
        "$prog" "$f" >a.out 2>a.err
        sa=$?
        "$prog" --no-memo "$f" >b.out 2>b.err
        sb=$?
        set -e
        [[ $sa -eq $sb ]] && cmp -s a.out b.out && cmp -s a.err b.err ||
            fail "--no-memo differs for $f"
        n=$((n + 1))
    done < <(find "$PCX_TESTDATA/expand" "$PCX_TESTDATA/examples" -name '*.el' -print0 | LC_ALL=C sort -z)
    [[ $n -gt 20 ]] || fail "only $n inputs found"
    echo "$n inputs identical with and without the cache"
    ;;
stream-requires)
    # Standard input run a stretch at a time: the note missing-require is
    # said once, at the first stretch that needs the library, never when
    # an earlier stretch required it, and also after a definition that the
    # later stretches read again (the pause makes each write a stretch).
    paced() { # FIRST SECOND: the two texts written half a second apart
        { printf '%s\n' "$1"; sleep 0.5; printf '%s\n' "$2"; } |
            "$prog" --compact --stdin-filepath=s.el >out 2>err || fail "exit status $?"
    }
    paced "(require 'map)" '(pcase m ((map a) a))'
    grep -q missing-require err && fail "a note for a library an earlier stretch required"
    grep -q "map-elt m 'a" out || fail "no expansion: $(cat out)"
    paced '(pcase m ((map a) a))' '(pcase m ((map b) b))'
    [[ $(grep -c missing-require err) -eq 1 ]] || fail "not one note: $(cat err)"
    grep -q '^s.el:1:1: note: .*(require .map).*\[missing-require\]$' err || fail "note: $(cat err)"
    paced '(pcase-defmacro my (x) `(pred ,x))' '(pcase m ((my consp) 1) ((map b) b))'
    grep -q '^s.el:2:1: note: .*\[missing-require\]$' err || fail "no note after a definition: $(cat err)"
    ;;
stream)
    # Standard input is answered form by form: each answer is read before
    # the next form is sent, through one process.
    coproc PC { "$prog" -q --stdin-filepath=s.el 2>&1; }
    exec 5<&"${PC[0]}" 6>&"${PC[1]}"
    exec {PC[1]}>&- {PC[0]}<&- # only 5 and 6 stay: closing 6 ends the input
    ask() { # ask TEXT LINES: send TEXT, read LINES lines of answer into $answer
        printf '%s' "$1" >&6
        answer=
        for ((k = 0; k < $2; k++)); do
            IFS= read -r -t 10 line <&5 || fail "no answer to: $1 (got: $answer)"
            answer+="$line"$'\n'
        done
    }
    ask $'(pcase x (1 2))\n' 1
    [[ $answer == $'(if (eql x 1) 2)\n' ]] || fail "first answer: $answer"
    ask $';; a comment\n' 1
    [[ $answer == $';; a comment\n' ]] || fail "comment: $answer"
    # A form split over two writes is answered once complete.
    printf '(pcase y\n' >&6
    sleep 0.3
    ask $'  (2 3))\n' 1
    [[ $answer == $'(if (eql y 2) 3)\n' ]] || fail "split form: $answer"
    # A bad form gets its diagnostic (positioned in the whole stream), and
    # the process goes on.
    ask $'(a))\n' 1
    [[ $answer == $'s.el:5:4: error: invalid read syntax: ")" [read]\n' ]] ||
        fail "error answer: $answer"
    ask $'(pcase-let ((`(,a ,b ,c) v)) (list a b c))\n' 5
    [[ $answer == "(let* ((pcx--x0 (cdr-safe v))"* && $answer == *"  (list a b c))"$'\n' ]] ||
        fail "multi-line answer: $answer"
    exec 6>&-
    wait "$PC_PID" || status=$?
    [[ ${status:-0} -eq 2 ]] || fail "exit status ${status:-0}, expected 2"
    # --compact streamed: each part is printed, temporaries numbered
    # afresh in each form.
    coproc PC { "$prog" -q --compact 2>&1; }
    exec 5<&"${PC[0]}" 6>&"${PC[1]}"
    exec {PC[1]}>&- {PC[0]}<&-
    ask $'(pcase-let ((`(,a ,b) (f))) (list a b))\n' 1
    first=$answer
    [[ $first == *"(pcx--val0 (f))"* ]] || fail "compact first part: $first"
    ask $'(pcase-let ((`(,a ,b) (f))) (list a b))\n' 1
    [[ $answer == "$first" ]] || fail "compact second part: $answer"
    exec 6>&-
    wait "$PC_PID" || fail "compact stream: exit status $?"
    # Streamed or not, the bytes are those of a file.
    make_sample a.el
    "$prog" a.el >file.out
    cat a.el | "$prog" >pipe.out
    cmp -s file.out pipe.out || fail "streamed output differs from the file's"
    ;;
stream-as-file)
    # Standard input, in stretches, says and prints what the same text as
    # a file does: definitions (templates, structures, a pattern macro a
    # note points at) learned across stretches, a symbol named like a
    # temporary avoided after it, CRLF from the first line on, #@00
    # skipping to the very end, a Local Variables coding at the end; sent
    # at once and in two pieces, 0.3 s apart.
    forms() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
        printf "(defun g%d (x) (pcase x (`(,a . ,b) (list a b %d)) (_ nil)))\n", i, i }'; }
    { echo ';;; -*- lexical-binding: t -*-'
      echo '(pcase-defmacro my-pos (v) `(and (pred integerp) ,v (guard (> ,v 0))))'
      echo '(cl-defstruct pt x y)'
      printf '\t(pcase-defmacro io1 (v) (list (quote pred) (buffer-name)))\n'
      echo "(setq q 'pcx--x0)"
      forms 3000
      echo '(pcase z ((my-pos n) n) ((cl-struct pt x y) (+ x y)) (`(,a . ,b) a))'
      forms 10
      echo '(pcase z ((io1 n) n))'; } >defs.el
    { printf '(pcase x (1 2))\r\n'; forms 3000; } >crlf.el
    { forms 2000; printf '#@00 junk ( " \n'; head -c 100000 /dev/zero | tr '\0' '('; } >skip.el
    { forms 3000; printf ';; Local Variables:\n;; coding: latin-1\n;; End:\n'; } >coding.el
    { printf ';; -*- coding: latin-1 -*-\n'; forms 3000; } >cookie.el
    # a required file, a definer macro, a helper in eval-and-compile that
    # a pattern macro calls
    mkdir -p lib
    printf "(cl-defstruct pt x y)\n(provide 'geo)\n" >lib/geo.el
    { echo "(require 'geo)"
      echo '(defmacro mydef (n) `(cl-defstruct ,n a b))'
      echo '(mydef rec)'
      echo "(eval-and-compile (defun helper (v) (list 'pred v)))"
      echo '(pcase-defmacro hp (v) (helper v))'
      forms 3000
      echo '(defun u (p r) (list (pcase p ((cl-struct pt x) x)) (pcase r ((cl-struct rec b) b)) (pcase r ((hp numberp) 1))))'
    } >learn.el
    for f in defs crlf skip coding cookie learn; do
        run -L lib $f.el
        file_status=$status
        mv out $f.want
        mv err $f.want-err
        for how in whole pieces; do
            set +e
            if [[ $how == whole ]]; then
                cat $f.el | "$prog" -L lib --stdin-filepath=$f.el >out 2>err
            else
                { head -c 70000 $f.el; sleep 0.3; tail -c +70001 $f.el; } |
                    "$prog" -L lib --stdin-filepath=$f.el >out 2>err
            fi
            status=$?
            set -e
            [[ $status -eq $file_status ]] || fail "$f, $how: status $status, as a file $file_status"
            cmp -s err $f.want-err || fail "$f, $how: other diagnostics than as a file"
            # a stretch before an error is printed (a file prints nothing)
            [[ $f == defs || $f == coding ]] || cmp -s out $f.want ||
                fail "$f, $how: other output than as a file"
        done
    done
    grep -q "^defs.el:3017:11: error: pattern macro io1 cannot be expanded" defs.want-err &&
        grep -qx "defs.el:4:9: note: pattern macro io1 is defined here \[macro-eval\]" defs.want-err ||
        fail "defs: $(cat defs.want-err)"
    [[ $(cat skip.want-err) == "" && $(wc -c <skip.want) -gt 100000 ]] || fail "skip: as a file"
    grep -qx 'coding.el:3002:12: error: .*\[encoding\]' coding.want-err || fail "coding: as a file"
    [[ ! -s cookie.want ]] || fail "cookie: printed"
    grep -q "(aref r 2)" learn.want && grep -q "(aref p 1)" learn.want &&
        grep -q "(if (numberp r) 1)" learn.want || fail "learn: as a file"
    # defs without the forms that fail: the same text as a file
    head -n -1 defs.el >defs2.el
    "$prog" defs2.el >defs2.want 2>/dev/null
    { head -c 70000 defs2.el; sleep 0.3; tail -c +70001 defs2.el; } | "$prog" >out 2>/dev/null
    cmp -s out defs2.want || fail "defs: other output than as a file"
    [[ $(grep -c 'pcx--x0' out) -eq 1 ]] || fail "defs: a temporary is named pcx--x0"
    ;;
config)
    # The closest .pcexpand.yaml applies (up to a .git), under the command
    # line; exclude applies to files found under a DIR operand only.
    mkdir -p proj/lisp proj/vendor proj/.git other
    cat >proj/.pcexpand.yaml <<'EOF'
version: 1
expand:
  skip: ["cond*"]
output:
  width: 40
  gensym-prefix: "my--"
pattern-macros:
  my-pos:
    args: "(v)"
    expand: |
      `(and (pred integerp) ,v (guard (> ,v 0)))
structs:
  point:
    type: record
    slots: [x, y]
warnings:
  pred-without-function: false
exclude: ["vendor/**"]
EOF
    printf '(pcase (f) ((my-pos n) (list n)) ((cl-struct point x) x) ((pred) 0))\n(cond* (t 1))\n' >proj/lisp/a.el
    cp proj/lisp/a.el proj/vendor/v.el
    cp proj/lisp/a.el other/a.el
    run proj
    expect_status 0
    [[ ! -s err ]] || fail "a disabled warning was printed"
    grep -q 'my--' out || fail "gensym-prefix of the configuration"
    grep -q '^(cond\* (t 1))$' out || fail "skip of the configuration"
    [[ $(grep -c '^(cond\*' out) -eq 1 ]] || fail "vendor/ was not excluded"
    cp out cfg.out
    run --width=80 proj
    ! cmp -s out cfg.out || fail "width of the configuration not applied"
    run proj/vendor/v.el
    grep -q 'my--' out || fail "exclude must not apply to a FILE operand"
    # The command line wins; --no-config and --config.
    run --gensym-prefix=cli- --only=pcase,cond* proj/lisp/a.el
    grep -q 'cli-' out && ! grep -q 'my--' out || fail "--gensym-prefix over the configuration"
    ! grep -q '^(cond\*' out || fail "--only over the configuration"
    run --no-config proj/lisp/a.el
    expect_status 2
    grep -q "pattern macro 'my-pos' is not defined" err || fail "--no-config"
    run other/a.el
    expect_status 2
    run --config=proj/.pcexpand.yaml other/a.el
    expect_status 0
    run --stdin-filepath=proj/lisp/s.el <other/a.el
    expect_status 0
    grep -q 'my--' out || fail "standard input's configuration from --stdin-filepath"
    # -v names it; an invalid file fails every input that uses it, its
    # errors printed once.
    run -v proj/lisp/a.el other/a.el
    grep -q '^proj/lisp/a.el: note: configuration proj/.pcexpand.yaml$' err ||
        fail "-v: configuration used"
    printf 'version: 1\noutput:\n  width: wide\n' >other/.pcexpand.yaml
    cp other/a.el other/b.el
    run other/a.el other/b.el proj/lisp/a.el
    expect_status 2
    [[ $(grep -c '^other/.pcexpand.yaml:3:[0-9]*: error: .*\[config\]$' err) -eq 1 ]] ||
        fail "configuration errors once, positioned"
    grep -q 'my--' out || fail "the other inputs still run"
    ;;
print-config)
    mkdir -p p/.git
    printf 'version: 1\noutput:\n  width: 100\n' >p/.pcexpand.yaml
    printf '(a)\n' >p/a.el
    run --print-config p/a.el
    expect_status 0
    grep -q '^# .*p/.pcexpand.yaml' out || fail "source comment"
    grep -q '^  width: 100$' out || fail "width from the file"
    grep -q '^  gensym-prefix: pcx--$' out || fail "defaults filled in"
    run --print-config --width=60 --gensyms=hash p/a.el
    grep -q '^  width: 60$' out && grep -q '^  gensyms: hash$' out ||
        fail "command-line values applied"
    # The printed configuration is itself a valid configuration.
    cp out p2.yaml
    run --config=p2.yaml --print-config p/a.el
    expect_status 0
    run --no-config --print-config
    grep -q '^  width: 80$' out || fail "built-in defaults"
    printf 'version: 2\n' >p/.pcexpand.yaml
    run --print-config p/a.el
    expect_status 2
    grep -q '^p/.pcexpand.yaml:1:[0-9]*: error: .*\[config\]$' err || fail "invalid file"
    ;;
goldens)
    mkdir -p proj/.git proj/test proj/lisp
    printf 'version: 1\ngoldens:\n  manifest: test/g.yaml\n' >proj/.pcexpand.yaml
    cat >proj/lisp/m.el <<'EOF'
(defun m1 (x) (pcase x (1 'one) (_ 'other)))
(defun m2 (y) (pcase-let ((`(,a) y)) a))
EOF
    cat >proj/test/g.yaml <<'EOF'
version: 1
defaults:
  golden-dir: goldens
cases:
  cons:
    source: |
      (pcase x (`(,a . ,b) (+ a b)) (_ 'other))
  m2:
    file: ../lisp/m.el
    form: { defun: m2 }
  second:
    file: ../lisp/m.el
    form: { nth: 1 }
  line1:
    file: ../lisp/m.el
    form: { line: 1 }
  bad:
    source: "(pcase x ((my-undeclared y) y))"
    expect: error
EOF
    cd proj
    run -g
    expect_status 1
    grep -q '^pcexpand: 0 passed, 0 failed, 5 missing$' err || fail "all missing"
    grep -q '^pcexpand: run: pcexpand -g --update ' err || fail "accept command"
    run -g --update
    expect_status 0
    [[ -f test/goldens/cons.el && -f test/goldens/bad.err ]] || fail "goldens written"
    grep -q "^(if (consp x) (let ((a (car x)) (b (cdr x))) (+ a b)) 'other)\$" test/goldens/cons.el ||
        fail "cons golden"
    grep -q "^(defun m2 (y) " test/goldens/m2.el && ! grep -q 'm1' test/goldens/m2.el ||
        fail "defun selector"
    [[ $(tail -n +4 test/goldens/m2.el) == "$(tail -n +4 test/goldens/second.el)" ]] ||
        fail "nth 1 and defun m2 differ"
    grep -q "^(defun m1 (x) (if (eql x 1) 'one 'other))$" test/goldens/line1.el ||
        fail "line selector"
    grep -q '^bad.el:1:11: error: .*\[unknown-pattern\]$' test/goldens/bad.err || fail ".err golden"
    run -g
    expect_status 0
    [[ $(cat err) == "pcexpand: 5 passed, 0 failed, 0 missing" ]] || fail "all pass"
    # A stale golden: -d shows it, -l names it, --update=missing keeps it.
    sed -i 's/other/OTHER/' test/goldens/cons.el
    run -g -d -l
    expect_status 1
    grep -q "^-.*'OTHER)$" out && grep -q '^cons$' out || fail "-d -l output"
    run -g --update=missing
    expect_status 1
    run -g 'c*' --update
    expect_status 0
    run --manifest=test/g.yaml bad
    expect_status 0
    cd ..
    run -g
    expect_status 2
    grep -q 'golden mode needs --manifest' err || fail "no manifest"
    ;;
default-bytes)
    # Default mode: every byte outside the replaced forms is kept (cookie,
    # comments, blank lines, page breaks, trailing blanks, CRLF, no final
    # newline); only the forms change; --no-expand gives the input back.
    printf ';;; c.el --- x  -*- lexical-binding: t -*-\r\n\r\n;; about f   \r\n(defun f (x)\r\n  (pcase x (`(,a . ,b) (list a b)) (_ nil))) ; tail\r\n\f\r\n(g)\t ' >crlf.el
    run crlf.el
    expect_status 0
    [[ ! -s err ]] || fail "diagnostics for crlf.el"
    printf ';;; c.el --- x  -*- lexical-binding: t -*-\r\n\r\n;; about f   \r\n(defun f (x)\r\n  (if (consp x) (let ((a (car x)) (b (cdr x))) (list a b)))) ; tail\r\n\f\r\n(g)\t ' >crlf.want
    cmp -s out crlf.want || fail "CRLF file: $(diff <(od -c crlf.want) <(od -c out) | head -n 8)"
    run --no-expand crlf.el
    cmp -s out crlf.el || fail "--no-expand changed crlf.el"
    # The example of cli.md 4.2: comments inside a replaced form.
    cat >kind.el <<'EOF'
(defun kind (x)
  (pcase x
    ;; Small numbers.
    ((pred integerp)
     ;; Tag it.
     (list 'int x))                     ; exact
    (_ 'other)))
EOF
    run kind.el
    expect_status 0
    diff -u - out >&2 <<'EOF' || fail "comments inside a replaced form (cli.md 4.2)"
(defun kind (x)
  (if (integerp x)
      ;; Small numbers.
      ;; Tag it.
      (list 'int x)                     ; exact
    'other))
EOF
    # The example of cli.md 7 (a top-level form, default width).
    printf "%s\n" "(pcase x (1 'one) ((pred stringp) 'str) (\`(,a . ,b) (+ a b)) (_ 'other))" >seven.el
    run seven.el
    expect_status 0
    diff -u - out >&2 <<'EOF' || fail "the example of cli.md 7"
(cond
 ((eql x 1) 'one)
 ((stringp x) 'str)
 ((consp x) (let ((a (car x)) (b (cdr x))) (+ a b)))
 (t 'other))
EOF
    # Nested forms are part of the replaced one; a form in data is not code.
    printf "(setq v '(pcase x (1 2)))\n(when y (pcase-let ((\`(,a) y)) (pcase a (1 (cond* (t 2))))))\n" >nest.el
    run nest.el
    expect_status 0
    grep -q "^(setq v '(pcase x (1 2)))\$" out || fail "quoted data was expanded"
    ! grep -q 'pcase-let\|cond\*\|(pcase a' out || fail "a nested form is left"
    # Width: no line is longer than --width (here every line can be
    # broken to fit), and a smaller width gives more lines.
    prev=0
    for width in 80 50 35; do
        run --width=$width seven.el
        expect_status 0
        awk -v w=$width 'length($0) > w {bad=1} END {exit bad}' out ||
            fail "--width=$width: a line is longer"
        [[ $(wc -l <out) -gt $prev ]] || fail "--width=$width: not more lines"
        prev=$(wc -l <out)
    done
    # A label defined inside a replaced form and used after it: the
    # whole top-level form is printed (the kept text would have a #1#
    # without its #1=); other forms are spliced as usual, also when the
    # label is used inside the replaced form only, or "#4#" is a string.
    printf "(list (pcase x (1 '#1=(a))) (pcase y (2 3)) '#1#) ; c\n(list '#2=(b) (pcase y (2 '#2#)))\n(f ; k\n (pcase z (3 (list '#3=(c) '#3#))))\n(g ; s\n (pcase w (4 '#4=(d))) \"#4#\")\n" >label.el
    run label.el
    expect_status 0
    diff -u - out >&2 <<'EOF' || fail "a label defined in a replaced form"
(list (if (eql x 1) '(a)) (if (eql y 2) 3) '(a)) ; c
(list '#2=(b) (if (eql y 2) '(b)))
(f ; k
 (if (eql z 3) (list '(c) '(c))))
(g ; s
 (if (eql w 4) '(d)) "#4#")
EOF
    cp out label.out
    run --no-expand label.out
    expect_status 0
    ;;
compact)
    # --compact: one canonical line per top-level form, no comments;
    # with --no-expand, how the reader sees each form.
    printf ';; c\n(pcase (f) (`(,a . ,b) (list a b)))   ; x\n\n(a  ?b  #x10 "s\n" (quote q))\n' >f.el
    run --compact f.el
    expect_status 0
    diff -u - out >&2 <<'EOF' || fail "--compact"
(let ((pcx--val0 (f))) (if (consp pcx--val0) (let ((a (car pcx--val0)) (b (cdr pcx--val0))) (list a b))))
(a 98 16 "s\n" 'q)
EOF
    run --no-expand --compact f.el
    expect_status 0
    # (as Emacs 28.2 prints it: the dotted ,b is the list tail (\, b))
    diff -u - out >&2 <<'EOF' || fail "--no-expand --compact"
(pcase (f) (`(,a \, b) (list a b)))
(a 98 16 "s\n" 'q)
EOF
    # --gensyms=circle: readable labels on temporaries only.
    run --gensyms=circle f.el
    expect_status 0
    grep -q '^(let ((#1=#:val0 (f)))$' out && grep -q '(let ((a (car #1#)) (b (cdr #1#)))' out ||
        fail "--gensyms=circle"
    # ... numbered above the labels the input's form defines (--compact
    # too); a form without labels starts at 1.
    printf "(list '#3=(a) (pcase (g x) (\`(,y) (list y '#3#))))\n(pcase (h z) (\`(,w) w))\n" >floor.el
    run --gensyms=circle --compact floor.el
    expect_status 0
    grep -q "(#4=#:val0 (g x))" out && grep -q "(#1=#:val0 (h z))" out ||
        fail "--gensyms=circle above the input's labels: $(cat out)"
    ;;
golden-round-trip)
    # --update writes, --check passes, an edited case makes --check exit 1
    # with a diff; the expect kinds; obsolete goldens; manifest errors at
    # their YAML line:column.
    mkdir -p proj/.git proj/test
    cd proj
    cat >test/m.yaml <<'EOF'
version: 1
defaults:
  golden-dir: gold
cases:
  pair:
    source: |
      (pcase x (`(,a . ,b) (+ a b)) (_ 'other))
  warns:
    source: "(pcase x ((pred) 1))"
    expect: warning
  rejects:
    source: "(pcase x ((nope y) y))"
    expect: error
  narrow:
    source: "(pcase (f) (`(,a . ,b) (list a b)))"
    options: { width: 30, gensyms: hash }
EOF
    run --manifest=test/m.yaml --check
    expect_status 1
    grep -q '^pcexpand: 0 passed, 0 failed, 4 missing$' err || fail "missing goldens"
    run --manifest=test/m.yaml --update=all
    expect_status 0
    [[ $(cd test/gold && ls | tr '\n' ' ') == "narrow.el pair.el rejects.err warns.el warns.err " ]] ||
        fail "goldens written: $(ls test/gold)"
    diff -u - test/gold/pair.el >&2 <<'EOF' || fail "golden file format (cli.md 13)"
;;; pair.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: pair (test/m.yaml); do not edit.
;; Options: width=80 gensyms=rename

(if (consp x) (let ((a (car x)) (b (cdr x))) (+ a b)) 'other)
EOF
    grep -q '^;; Options: width=30 gensyms=hash$' test/gold/narrow.el &&
        grep -q '#:val0' test/gold/narrow.el || fail "case options"
    grep -q '^warns.el:1:11: warning: .*\[pred-without-function\]$' test/gold/warns.err ||
        fail ".err golden of expect: warning"
    grep -q '^rejects.el:1:11: error: Unknown nope pattern: (nope y) \[unknown-pattern\]$' test/gold/rejects.err ||
        fail ".err golden of expect: error"
    touch -d '2001-01-01 00:00' test/gold/pair.el
    before=$(mtime test/gold/pair.el)
    run --manifest=test/m.yaml --check
    expect_status 0
    [[ $(cat err) == "pcexpand: 4 passed, 0 failed, 0 missing" ]] || fail "check after update"
    run --manifest=test/m.yaml --update
    expect_status 0
    [[ $(mtime test/gold/pair.el) == "$before" ]] || fail "an up-to-date golden was rewritten"
    # An edited case: --check exits 1, -d shows the diff, and the message
    # gives the command that accepts it.
    sed -i 's/(+ a b)/(- a b)/' test/m.yaml
    run --manifest=test/m.yaml --check -d
    expect_status 1
    [[ $(sed -n 1p out) == "--- a/test/gold/pair.el" && $(sed -n 2p out) == "+++ b/test/gold/pair.el" ]] ||
        fail "diff headers"
    grep -q "^-(if (consp x) (let ((a (car x)) (b (cdr x))) (+ a b)) 'other)\$" out &&
        grep -q "^+(if (consp x) (let ((a (car x)) (b (cdr x))) (- a b)) 'other)\$" out || fail "diff lines"
    grep -q '^pcexpand: 3 passed, 1 failed, 0 missing$' err || fail "summary of a stale case"
    grep -q '^pcexpand: run: pcexpand -g --manifest=test/m.yaml --update pair$' err || fail "accept command"
    run --manifest=test/m.yaml --check
    expect_status 1
    [[ ! -s out ]] || fail "--check without -d printed something"
    # The diff applies to the golden and gives the fresh output.
    run --manifest=test/m.yaml -d
    patch -s test/gold/pair.el <out || fail "patch refused the diff"
    run --manifest=test/m.yaml
    expect_status 0
    # expect: error whose input now expands fails; expect: ok with an
    # error is a broken case (exit 2) pointing at the case in the manifest.
    sed -i 's/((nope y) y)/(1 2)/' test/m.yaml
    run --manifest=test/m.yaml
    expect_status 1
    grep -q '^pcexpand: failed: rejects expands without error (expect: error)$' err || fail "expect: error"
    sed -i 's/((pred) 1)/((bad z) 1)/; s/expect: warning/expect: ok/' test/m.yaml
    run --manifest=test/m.yaml warns
    expect_status 2
    grep -q "^test/m.yaml:8:3: error: case 'warns' has errors (expect: ok) \[manifest\]$" err ||
        fail "broken case"
    # Goldens no case refers to (reported when every case is run).
    touch test/gold/old.el
    run --manifest=test/m.yaml
    grep -q '^gold/old.el: warning: golden file not referenced by any case of the manifest \[golden-obsolete\]$' err ||
        fail "golden-obsolete"
    run --manifest=test/m.yaml pair
    expect_status 0
    # Manifest errors: the YAML file's line and column.
    printf 'version: 1\ncases:\n  a:\n    source: "(a)"\n    sorce: x\n' >bad1.yaml
    run --manifest=bad1.yaml
    expect_status 2
    grep -q '^bad1.yaml:5:5: error: .*sorce.*\[manifest\]$' err || fail "unknown key position"
    printf 'version: 1\ncases:\n  a:\n    source: "(a)"\n  a:\n    source: "(b)"\n' >bad2.yaml
    run --manifest=bad2.yaml
    expect_status 2
    grep -q '^bad2.yaml:5:3: error: duplicate key \[manifest\]$' err || fail "duplicate case position"
    printf 'version: 1\ncases:\n  a:\n    source: `(a)\n' >bad3.yaml
    run --manifest=bad3.yaml
    expect_status 2
    grep -q "^bad3.yaml:4:13: error: plain scalar cannot start with '\`'; quote the value or use a | block \[manifest\]\$" err ||
        fail "YAML syntax error position"
    printf 'version: 1\ncases:\n  a:\n    source: "(a)"\n    expect: maybe\n' >bad4.yaml
    run --manifest=bad4.yaml
    expect_status 2
    grep -q "^bad4.yaml:5:13: error: 'a.expect' must be ok, warning or error, not 'maybe' \[manifest\]\$" err ||
        fail "value error position"
    ;;
config-errors)
    # A broken configuration: FILE:LINE:COL from libfyaml, exit 2, no output.
    printf '(pcase x (1 2))\n' >a.el
    check_config() { # TEXT EXPECTED-DIAGNOSTIC-REGEXP
        printf "$1" >c.yaml
        run --config=c.yaml a.el
        expect_status 2
        [[ ! -s out ]] || fail "output with a broken configuration"
        [[ $(wc -l <err) -eq 1 ]] || fail "one diagnostic expected for: $1"
        grep -Eq "^$2 \\[config\\]\$" err || fail "for '$1' expected: $2"
    }
    check_config 'version: 1\noutput:\n  width: wide\n' \
        "c.yaml:3:10: error: 'output.width' must be an integer .*"
    check_config 'version: 1\nversion: 1\n' 'c.yaml:2:1: error: duplicate key'
    check_config 'version: 1\nwarnings:\n  unused-variable: no\n' \
        "c.yaml:3:20: error: .*YAML 1.1 booleans like 'no' are not accepted"
    check_config 'version: 1\nbogus: 3\n' "c.yaml:2:1: error: unknown key 'bogus' .*"
    check_config 'version: 1\nexclude: [a, b\n' 'c.yaml:3:1: error: .*not closed.*'
    check_config 'version: 2\n' 'c.yaml:1:10: error: .*version.*'
    check_config 'output:\n  width: 70\n' 'c.yaml:1:1: error: .*version.*'
    check_config 'version: 1\npattern-macros:\n  m:\n    args: "(v)"\n    expand: (f #'"'"'g)\n' \
        "c.yaml:5:[0-9]+: error: 'pattern-macros.m.expand' must read as exactly one Lisp form.*quote the value or use a \\| block"
    check_config 'version: 1\nindent:\n  my-mac: (lambda)\n' \
        "c.yaml:3:11: error: indent spec of 'my-mac' must be an integer, defun or nil"
    check_config 'version: 1\nwarnings:\n  no-such-warning: false\n' \
        "c.yaml:3:3: error: unknown warning code 'no-such-warning' .*"
    check_config 'version: 1\n  output: x\n' 'c.yaml:[0-9]+:[0-9]+: error: .*'
    # extends: the including file wins; an error in the included file is
    # reported at its own position and at the extends line.
    printf 'version: 1\noutput:\n  width: 70\n  gensym-prefix: "b--"\n' >base.yaml
    printf 'version: 1\nextends: base.yaml\noutput:\n  width: 50\n' >top.yaml
    run --config=top.yaml --print-config a.el
    expect_status 0
    grep -q '^  width: 50$' out && grep -q '^  gensym-prefix: b--$' out || fail "extends"
    printf 'version: 1\noutput:\n  width: -3\n' >base.yaml
    run --config=top.yaml a.el
    expect_status 2
    grep -q '^base.yaml:3:10: error: ' err && grep -q '^top.yaml:2:10: error: ' err ||
        fail "errors of an extended file"
    # Discovery: .pcexpand.yml is accepted; the search stops at .hg.
    mkdir -p r/.hg r/sub/deeper
    printf 'version: 1\noutput:\n  gensym-prefix: "yml--"\n' >r/.pcexpand.yml
    printf '(pcase (f) (`(,a) a))\n' >r/sub/deeper/f.el
    run r/sub/deeper/f.el
    grep -q 'yml--' out || fail ".pcexpand.yml not found"
    printf 'version: 1\noutput:\n  gensym-prefix: "above--"\n' >.pcexpand.yaml
    mv r/.pcexpand.yml r/moved.yml
    run r/sub/deeper/f.el
    grep -q 'pcx--' out && ! grep -q 'above--' out || fail "discovery went past .hg"
    run --print-config r/sub/deeper/f.el
    [[ $(sed -n 1p out) == "# pcexpand configuration: built-in defaults (no configuration file)" ]] ||
        fail "source comment without a file"
    ;;
keep-going)
    # --keep-going: every form that can be expanded is, a failing form
    # stays as written byte for byte, each error is reported, exit 2, and
    # the output is made and written in every mode.  Without it nothing
    # is printed or written for a file with errors.
    make_sample g1.el
    printf '\n(defun bad-a (x)\n  ;; two  spaces\n  (pcase x 1   (2 3)))\n' >f1.el
    printf '\n(pcase-let ((`(,a) y)) a)   ; good\n' >g2.el
    printf '(pcase-setq p 1\n            q)\n' >f2.el
    cat g1.el f1.el g2.el f2.el >mixed.el
    # the expected text: good forms as expanded alone, failing ones as written
    { "$prog" g1.el; cat f1.el; "$prog" g2.el; cat f2.el; } >expected.el
    run mixed.el
    expect_status 2
    [[ ! -s out ]] || fail "output without --keep-going"
    cp err plain.err
    run --keep-going mixed.el
    expect_status 2
    cmp -s out expected.el || fail "stdout: not the good forms expanded and the others as written"
    cmp -s err plain.err || fail "the diagnostics differ from a run without --keep-going"
    [[ $(grep -c ': error: ' err) -eq 2 ]] || fail "both errors reported"
    # one top-level form with a good and a failing form, and one inside another
    printf '(defun m (x)\n  (list (pcase x (1 2))\n        (pcase x 3)\n        (pcase x (4 (pcase-setq a 1 b)))))\n' >inner.el
    run -k inner.el
    expect_status 2
    grep -qF '(list (if (eql x 1) 2)' out || fail "the good form of the defun was not expanded"
    grep -qF '        (pcase x 3)' out || fail "the failing form was changed"
    grep -qF '        (pcase x (4 (pcase-setq a 1 b)))))' out || fail "a form with a failing nested form was changed"
    [[ $(grep -c ': error: ' err) -eq 2 ]] || fail "not every error of the defun was reported"
    # -o, --out-dir, -w: written, the same bytes; status 2
    run -k -o o.el mixed.el
    expect_status 2
    cmp -s o.el expected.el || fail "-o: wrong file"
    run -o o2.el mixed.el
    expect_status 2
    [[ ! -e o2.el ]] || fail "-o without --keep-going wrote a file with errors"
    mkdir -p src
    cp mixed.el src/mixed.el
    make_sample src/good.el
    run -k --out-dir d src
    expect_status 2
    cmp -s d/mixed.el expected.el || fail "--out-dir: wrong file"
    grep -q '(cond' d/good.el || fail "--out-dir: the good file was not written"
    run --out-dir d2 src
    expect_status 2
    [[ ! -e d2/mixed.el && -e d2/good.el ]] || fail "--out-dir without --keep-going"
    cp mixed.el w.el
    run -w w.el
    expect_status 2
    cmp -s w.el mixed.el || fail "-w without --keep-going changed the file"
    run -k -w w.el
    expect_status 2
    cmp -s w.el expected.el || fail "-w: wrong file"
    # check modes compare the output made
    cp mixed.el c.el
    run -k -c c.el
    expect_status 2
    run -k -l c.el
    expect_status 2
    [[ $(cat out) == c.el ]] || fail "-l: the stale file is not listed"
    # a file that cannot be read is its own output
    printf '(pcase x (1 2)\n' >unread.el
    cp unread.el unread.orig
    run -k unread.el
    expect_status 2
    cmp -s out unread.orig || fail "unreadable: stdout is not the input"
    run -k --out-dir d3 unread.el
    expect_status 2
    cmp -s d3/unread.el unread.orig || fail "unreadable: --out-dir copy differs"
    run -k -w unread.el
    cmp -s unread.el unread.orig || fail "unreadable: -w changed the file"
    # --compact: one line per form, a failing form printed as read
    run -k --compact mixed.el
    expect_status 2
    [[ $(wc -l <out) -eq 5 ]] || fail "--compact: not one line per form"
    grep -qxF '(pcase-setq p 1 q)' out || fail "--compact: the failing form"
    grep -q '^(defun sample-kind (x) (cond' out || fail "--compact: a good form"
    # --format=json: records of the forms that expanded
    run -k --format=json mixed.el
    expect_status 2
    [[ $(grep -c '"macro"' out) -eq 3 ]] || fail "--format=json: not one record per expanded form"
    # a large input, computed in parts or whole: the same bytes
    { for i in $(seq 1500); do printf '(defun big%d (v)\n  (pcase v (`(,a . ,b) (list a b %d)) (_ nil)))\n' "$i" "$i"; done
      printf '(pcase z ((frob a) 1))\n'; } >big.el
    run -k --whole big.el
    expect_status 2
    cp out big1.out
    cp err big1.err
    tail -1 big1.out | grep -qxF '(pcase z ((frob a) 1))' || fail "big: the failing form"
    for j in 1 2; do
        run -k -j $j big.el
        expect_status 2
        cmp -s out big1.out || fail "-j $j: output differs"
        cmp -s err big1.err || fail "-j $j: diagnostics differ"
    done
    ;;
device-targets)
    # A device or FIFO is never renamed over: -o writes through it, -w
    # refuses it; a symbolic link stays a link (cli.md 5).  Runs in a
    # private /dev (see private_dev).
    make_sample a.el
    "$prog" a.el >expected.el
    run -o /dev/null a.el
    expect_status 0
    [[ -c /dev/null ]] || fail "-o /dev/null replaced the device: $(ls -l /dev/null)"
    run -o /dev/full a.el
    expect_status 2
    grep -q '^/dev/full: error: cannot write: No space left on device \[io\]$' err ||
        fail "-o /dev/full: no diagnostic"
    [[ -c /dev/full ]] || fail "-o /dev/full replaced the device"
    # /dev/stdout: the descriptor itself (a file opened for appending stays so)
    printf ';; before\n' >appended.el
    set +e
    "$prog" -o /dev/stdout a.el >>appended.el 2>err
    status=$?
    set -e
    expect_status 0
    { printf ';; before\n'; cat expected.el; } | cmp -s - appended.el ||
        fail "-o /dev/stdout did not append to the descriptor's file"
    [[ -L /dev/stdout ]] || fail "/dev/stdout is no longer a link"
    # a symbolic link: its target is replaced, the link kept
    printf 'old\n' >real.el
    ln -s real.el link.el
    run -o link.el a.el
    expect_status 0
    [[ -L link.el ]] || fail "-o replaced the link"
    cmp -s real.el expected.el || fail "-o did not write the link's target"
    cp a.el real-w.el
    ln -s real-w.el link-w.el
    run -w link-w.el
    expect_status 0
    [[ -L link-w.el ]] && cmp -s real-w.el expected.el || fail "-w through a link"
    # -w on anything but a regular file is an error; nothing is replaced
    set +e
    printf '(pcase x (1 2))\n' | timeout 20 "$prog" -w /dev/stdin >out 2>err
    status=$?
    set -e
    expect_status 2
    grep -q '^/dev/stdin: error: cannot write in place: it is the name of a file descriptor, not a regular file \[io\]$' err ||
        fail "-w /dev/stdin: diagnostic"
    [[ -L /dev/stdin ]] || fail "-w replaced the /dev/stdin link"
    run_bounded -w /dev/null
    expect_status 2
    grep -q '^/dev/null: error: cannot write in place: it is a character device, not a regular file \[io\]$' err ||
        fail "-w /dev/null: diagnostic"
    [[ -c /dev/null ]] || fail "-w replaced /dev/null"
    mkfifo f.el
    run_bounded -w f.el
    expect_status 2
    grep -q '^f.el: error: cannot write in place: it is a FIFO, not a regular file \[io\]$' err ||
        fail "-w on a FIFO: diagnostic"
    [[ -p f.el ]] || fail "-w replaced the FIFO"
    # a block device (a number no driver has) is neither replaced nor opened
    mknod blk b 240 0
    run_bounded -o blk a.el
    expect_status 2
    grep -q '^blk: error: cannot write: it is a block device, not a regular file \[io\]$' err ||
        fail "-o to a block device: diagnostic"
    [[ -b blk ]] || fail "-o replaced the block device"
    ls -A | grep -q '\.tmp$' && fail "a temporary file was left"
    ;;
pipe-targets)
    # -o to the program's own output pipe, or to a FIFO, writes through
    # it and returns: the target is not read to compare.
    make_sample a.el
    "$prog" a.el >expected.el
    set +e
    timeout 20 "$prog" -o /dev/stdout a.el 2>err | cat >piped.el
    status=${PIPESTATUS[0]}
    set -e
    expect_status 0
    cmp -s piped.el expected.el || fail "-o /dev/stdout | cat: wrong output"
    mkfifo fifo.el
    cat fifo.el >got.el &
    reader=$!
    run_bounded -o fifo.el a.el
    [[ $status -eq 0 ]] || { kill "$reader" 2>/dev/null; fail "-o FIFO: exit status $status"; }
    wait "$reader"
    cmp -s got.el expected.el || fail "-o FIFO: the reader got something else"
    [[ -p fifo.el ]] || fail "-o replaced the FIFO"
    # a check cannot compare with a FIFO: an error, at once
    run_bounded -c -o fifo.el a.el
    expect_status 2
    grep -q '^fifo.el: error: cannot compare: it is a FIFO, not a regular file \[io\]$' err ||
        fail "-c -o FIFO: diagnostic"
    ;;
write-failures)
    # Every write is checked: a full device or a file-size limit is exit 2
    # with a diagnostic, in every mode, never exit 0 with a cut output.
    make_sample a.el
    if [[ -c /dev/full ]]; then
        for input in file stdin; do
            set +e
            if [[ $input == file ]]; then
                "$prog" a.el >/dev/full 2>err
            else
                printf 'F\n' | "$prog" >/dev/full 2>err
            fi
            status=$?
            set -e
            expect_status 2
            [[ $(cat err) == "pcexpand: error: cannot write the output: No space left on device" ]] ||
                fail "full device ($input): $(cat err)"
        done
    fi
    make_many_forms big.el
    cp big.el w.el
    # limited: MODE ARGS... runs the program under a 64 KiB file-size limit
    limited() {
        set +e
        (ulimit -f 64 && exec "$prog" "$@" >out 2>err)
        status=$?
        set -e
    }
    check_limited() { # WHAT: exit 2 and "File too large"
        expect_status 2
        grep -q 'File too large' err || fail "$1: no diagnostic"
    }
    limited big.el
    check_limited "standard output"
    limited <big.el
    check_limited "streamed standard input"
    limited -d big.el
    check_limited "-d output"
    limited -o o.el big.el
    check_limited "-o"
    [[ ! -e o.el ]] || fail "-o left a cut file"
    limited --out-dir od big.el
    check_limited "--out-dir"
    [[ ! -e od/big.el ]] || fail "--out-dir left a cut file"
    limited -w w.el
    check_limited "-w"
    cmp -s w.el big.el || fail "-w changed the file"
    ls -A | grep -q '\.tmp$' && fail "a temporary file was left"
    ;;
write-keeps)
    # -w keeps what the file had: owner and group (as root: another
    # user's), permission bits (0444 too), extended attributes; refuses
    # a file with several hard links, and one edited during the run;
    # handles names up to NAME_MAX; removes killed runs' temporaries.
    make_sample a.el
    "$prog" a.el >expected.el
    cp a.el own.el
    chmod 0640 own.el
    root=$([[ $(id -u) -eq 0 ]] && echo yes || true)
    [[ -z $root ]] || chown 1234:2345 own.el
    attrs=$(python3 -c 'import os,sys; os.setxattr(sys.argv[1], "user.pcx", b"kept"); print("yes")' own.el 2>/dev/null || true)
    run -w own.el
    expect_status 0
    cmp -s own.el expected.el || fail "not rewritten"
    [[ $(stat -c %a own.el) == 640 ]] || fail "mode not kept: $(stat -c %a own.el)"
    [[ -z $root || $(stat -c %u:%g own.el) == 1234:2345 ]] ||
        fail "owner not kept: $(stat -c %u:%g own.el)"
    [[ -z $attrs || $(python3 -c 'import os,sys; print(os.getxattr(sys.argv[1], "user.pcx").decode())' own.el) == kept ]] ||
        fail "extended attribute not kept"
    # A read-only file is rewritten (the directory allows it), still 0444.
    cp a.el ro.el
    chmod 0444 ro.el
    run -w ro.el
    expect_status 0
    cmp -s ro.el expected.el && [[ $(stat -c %a ro.el) == 444 ]] || fail "0444 file"
    # Hard links: replacing one name would separate it from the others.
    cp a.el h.el
    ln h.el h2.el
    run -w h.el
    expect_status 2
    [[ $(cat err) == "h.el: error: cannot write in place: the file has 2 hard links (replacing it would separate them) [io]" ]] ||
        fail "hard links: diagnostic"
    cmp -s h.el a.el && [[ $(stat -c %h h.el) == 2 ]] || fail "hard-linked file changed"
    # Names of 245 and 255 bytes (NAME_MAX): the temporary's name fits.
    for len in 245 255; do
        name=$(printf "%0$((len - 3))d.el" 0)
        cp a.el "$name"
        run -w "$name"
        expect_status 0
        cmp -s "$name" expected.el || fail "name of $len bytes not rewritten"
    done
    # Temporaries of a killed run are removed, a live run's are kept.
    sleep 0 &
    dead=$!
    wait "$dead"
    cp a.el s.el
    touch ".s.el.$dead-0.pcexpand.tmp" ".s.el.$$-0.pcexpand.tmp"
    run -w s.el
    expect_status 0
    [[ ! -e .s.el.$dead-0.pcexpand.tmp ]] || fail "a dead run's temporary was kept"
    [[ -e .s.el.$$-0.pcexpand.tmp ]] || fail "a live run's temporary was removed"
    rm ".s.el.$$-0.pcexpand.tmp"
    # An edit made while the run computes is not lost: the program is
    # stopped once it has read the file and before it made its temporary,
    # the file is edited, and the program goes on.
    make_many_forms old.el
    size=$(stat -c %s old.el)
    edited=
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
        cp old.el e.el
        ino=$(stat -c %i e.el)
        "$prog" -w e.el 2>err &
        pid=$!
        while read -r key value <"/proc/$pid/io" 2>/dev/null; do # rchar
            [[ $key == rchar: && $value -lt $size ]] || break
        done
        if kill -STOP "$pid" 2>/dev/null; then
            if [[ $(stat -c %i e.el) == "$ino" ]] && ! ls -A | grep -q '^\.e\.el\..*\.tmp$'; then
                printf ';; edited\n' >>e.el
                edited=yes
            fi
            kill -CONT "$pid"
        fi
        set +e
        wait "$pid"
        status=$?
        set -e
        [[ -z $edited ]] || break
    done
    [[ -n $edited ]] || fail "the program always ended before the edit"
    expect_status 2
    [[ $(cat err) == "e.el: error: not written: the file changed since it was read [io]" ]] ||
        fail "edit during the run: diagnostic"
    { cat old.el; printf ';; edited\n'; } | cmp -s - e.el || fail "the edit was lost"
    ls -A | grep -q '\.tmp$' && fail "a temporary file was left"
    ;;
broken-pipe)
    # A reader that leaves ends the run at the first failed write, with
    # one message and exit 2 (SIGPIPE ignored, as some parents leave it;
    # otherwise the signal ends the program).  Standard input never ends
    # here: only the failed write can stop the program.
    set +e
    (trap '' PIPE; yes '(pcase x (1 2))' 2>/dev/null | timeout 30 "$prog" 2>err |
        head -c 100 >/dev/null; echo "${PIPESTATUS[1]}" >status)
    set -e
    status=$(cat status)
    expect_status 2
    [[ $(cat err) == "pcexpand: error: cannot write the output: Broken pipe" ]] ||
        fail "streamed input: not one message: $(wc -l <err) lines"
    # Many files (260 KB of output, four times what a pipe holds), in
    # order and in parallel: the files after the failure are not run
    # (--stats counts those that were).
    mkdir d
    for i in $(seq 600); do make_sample "d/f$i.el"; done
    for j in 1 2; do
        set +e
        (trap '' PIPE; timeout 30 "$prog" --stats -j "$j" d 2>err | head -c 100 >/dev/null;
         echo "${PIPESTATUS[0]}" >status)
        set -e
        status=$(cat status)
        expect_status 2
        [[ $(sed -n 1p err) == "pcexpand: error: cannot write the output: Broken pipe" &&
           $(wc -l <err) -eq 2 ]] || fail "-j $j: not one message: $(wc -l <err) lines"
        files=$(sed -n 's/^pcexpand: stats: files=\([0-9]*\) .*/\1/p' err)
        [[ -n $files && $files -lt 600 ]] || fail "-j $j: the run went on after the failure"
    done
    ;;
config-files)
    # Configurations and manifests are regular files of at most 16 MiB:
    # a FIFO blocked, extends: /dev/zero filled the memory.
    printf '(pcase x (1 2))\n' >a.el
    mkfifo fifo.yaml
    run --config=fifo.yaml a.el
    expect_status 2
    grep -qx 'fifo.yaml: error: cannot read: not a regular file \[config\]' err ||
        fail "a FIFO as configuration"
    printf 'version: 1\nextends: /dev/zero\n' >z.yaml
    run --config=z.yaml a.el
    expect_status 2
    grep -qx "z.yaml:2:10: error: 'extends': cannot read '/dev/zero': not a regular file \\[config\\]" err ||
        fail "extends: /dev/zero"
    mkdir d && mkfifo d/.pcexpand.yaml && cp a.el d/
    run d/a.el
    expect_status 2
    grep -q '^d/.pcexpand.yaml: error: cannot read: not a regular file' err ||
        fail "a FIFO found by discovery"
    run -g --manifest=fifo.yaml
    expect_status 2
    grep -qx 'fifo.yaml: error: cannot read: not a regular file \[manifest\]' err ||
        fail "a FIFO as manifest"
    # what libfyaml dropped unseen: after a NUL, a second document
    printf 'version: 1\n\0output: [\n' >nul.yaml
    run --config=nul.yaml a.el
    expect_status 2
    grep -q '^nul.yaml:2:1: error: a NUL byte' err || fail "NUL byte"
    printf 'version: 1\n---\nversion: 1\noutput: {width: 3}\n' >two.yaml
    run --config=two.yaml a.el
    expect_status 2
    grep -q '^two.yaml:2:1: error: a second YAML document' err || fail "second document"
    ;;
config-trust)
    # As git's safe.directory: a configuration another user owns, in a
    # directory others can write to, is ignored with a warning (root only:
    # a file's owner cannot be changed otherwise).
    [[ $(id -u) -eq 0 ]] || { echo "not root: skipped"; exit 0; }
    mkdir -p p/.git p/tmp
    chmod 1777 p/tmp
    printf 'version: 1\nexclude: ["*.el"]\n' >p/tmp/.pcexpand.yaml
    printf '(pcase x (1 2))\n' >p/tmp/a.el
    chown 1234:1234 p/tmp/.pcexpand.yaml
    run --check p/tmp
    expect_status 1
    grep -qx 'p/tmp/.pcexpand.yaml: warning: configuration ignored: it is owned by user 1234, in a directory that others can write to \[config\]' err ||
        fail "no warning"
    grep -q '1 file checked, 1 stale' err || fail "the configuration was applied"
    [[ $(grep -c 'configuration ignored' err) -eq 1 ]] || fail "warned more than once"
    chmod 0777 p/tmp
    run --check p/tmp
    grep -q '1 file checked' err || fail "0777: applied"
    chown 0:0 p/tmp/.pcexpand.yaml
    run --check p/tmp
    expect_status 0
    grep -q '0 files checked' err || fail "owned by root: not applied"
    chown 1234:1234 p/tmp/.pcexpand.yaml
    chmod 0755 p/tmp
    run --check p/tmp
    grep -q '0 files checked' err || fail "not world-writable: not applied"
    ;;
golden-places)
    # Goldens and inputs stay in the project; --update overwrites neither
    # a source nor another case's golden.
    mkdir -p proj/.git proj/test outside
    printf 'secret\n' >outside/keys
    printf '(pcase x (1 2))\n' >proj/src.el
    printf 'version: 1\ncases:\n  up:\n    source: "(pcase x (1 2))"\n    golden: ../../outside/keys\n' >proj/test/m.yaml
    run -g --manifest=proj/test/m.yaml --update
    expect_status 2
    grep -q "^proj/test/m.yaml:5:13: error: case 'up': golden '../../outside/keys' is outside the project directory .*/proj \[manifest\]\$" err ||
        fail "golden outside the project"
    [[ $(cat outside/keys) == secret ]] || fail "a file outside was written"
    printf 'version: 1\ncases:\n  env: {file: /proc/self/environ}\n' >proj/test/m.yaml
    run -g --manifest=proj/test/m.yaml -d
    expect_status 2
    ! grep -q PATH= out || fail "the environment was printed"
    ln -s ../../outside proj/test/link
    printf 'version: 1\ncases:\n  l: {source: "(pcase x (1 2))", golden: link/l.el}\n' >proj/test/m.yaml
    run -g --manifest=proj/test/m.yaml --update
    expect_status 2
    [[ ! -e outside/l.el ]] || fail "written through a link"
    printf 'version: 1\ncases:\n  own: {file: ../src.el, golden: ../src.el}\n  me: {source: "(pcase x (1 2))", golden: m.yaml}\n  a: {source: "(pcase x (1 2))", golden: g.el}\n  b: {source: "(pcase x (2 3))", golden: g.el}\n' >proj/test/m.yaml
    cp proj/test/m.yaml m.saved
    run -g --manifest=proj/test/m.yaml --update
    expect_status 2
    grep -q "case 'own': golden '../src.el' is the case's own input" err &&
        grep -q "case 'me': golden 'm.yaml' is the manifest itself" err &&
        grep -q "case 'b': golden 'g.el' is also a golden of case 'a'" err ||
        fail "sources overwritten"
    cmp -s proj/test/m.yaml m.saved && [[ $(cat proj/src.el) == "(pcase x (1 2))" ]] ||
        fail "a source changed"
    [[ ! -e proj/test/g.el ]] || fail "a golden written from a bad manifest"
    # a missing file: said at the case's file: in the manifest
    printf 'version: 1\ncases:\n  gone:\n    file: nothere.el\n' >proj/test/m.yaml
    run -g --manifest=proj/test/m.yaml
    expect_status 2
    grep -q "^proj/test/m.yaml:4:11: error: case 'gone': nothere.el: cannot open" err ||
        fail "missing file position"
    ;;
golden-messages)
    # A case's own diagnostics follow --message-format and -q like the
    # rest; its .err golden stays in GNU format with every note.
    printf 'version: 1\ncases:\n  errs: {source: "(pcase x ((bogus-head y) y))"}\n  bad: {source: "(pcase x ((bogus-head y) y))", expect: error}\n' >m.yaml
    run -g --manifest=m.yaml --message-format=json
    expect_status 2
    grep -q '^{"file":"errs.el","line":1,"column":11,.*"severity":"error","code":"unknown-pattern"' err ||
        fail "the case's error is not JSON"
    ! grep -q '^errs.el:' err || fail "GNU lines among JSON"
    run -g --manifest=m.yaml -q
    grep -q '^errs.el:1:11: error: Unknown bogus-head pattern' err || fail "-q dropped an error"
    ! grep -q ': note: ' err || fail "-q printed a note"
    run -g --manifest=m.yaml --update=missing --message-format=json bad
    expect_status 0
    grep -q '^bad.el:1:11: error: Unknown bogus-head pattern' goldens/bad.err &&
        grep -q '^bad.el:1:11: note: ' goldens/bad.err || fail ".err golden not in GNU format"
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
