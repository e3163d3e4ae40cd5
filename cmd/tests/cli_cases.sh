#!/bin/bash
# cli_cases.sh - end-to-end cases for the pcexpand program.
#
# Usage: cli_cases.sh PCEXPAND CASE   (PCX_TESTDATA: the testdata folder)
# Each CASE builds its input in a scratch directory, runs the program and
# checks exit status, standard output and standard error.  Bad input must
# give exactly one "FILE:LINE:COL: error: ..." line, exit 2, no output and
# no crash; good input must come back byte for byte with --no-expand.
set -euo pipefail

prog=$(realpath "$1")
case_name=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

fail() {
    echo "FAIL [$case_name]: $*" >&2
    if [[ -f err ]]; then
        echo "--- stderr:" >&2
        head -c 2000 err >&2
    fi
    exit 1
}

# run ARGS... : runs the program, status in $status, output in out/err.
run() {
    set +e
    "$prog" "$@" >out 2>err
    status=$?
    set -e
}

# expect_read_error FILE LINE:COL : one positioned read error, nothing else.
expect_read_error() {
    local file=$1 pos=$2
    run --no-expand "$file"
    [[ $status -eq 2 ]] || fail "exit status $status, expected 2"
    [[ ! -s out ]] || fail "output written for a file with errors"
    [[ $(wc -l <err) -eq 1 ]] || fail "expected exactly one diagnostic line"
    grep -Eq "^$file:[0-9]+:[0-9]+: error: .+ \[read\]$" err ||
        fail "diagnostic not in FILE:LINE:COL: error: ... [read] form"
    grep -q "^$file:$pos: " err || fail "expected position $pos"
    # Default and compact modes must refuse the file the same way.
    for mode in "" --compact; do
        run $mode "$file"
        [[ $status -eq 2 && ! -s out && $(wc -l <err) -eq 1 ]] ||
            fail "mode '$mode': status $status or output/diagnostics wrong"
    done
}

# expect_round_trip FILE : --no-expand reproduces FILE exactly.
expect_round_trip() {
    local file=$1
    run --no-expand "$file"
    [[ $status -eq 0 ]] || fail "exit status $status, expected 0"
    [[ ! -s err ]] || fail "unexpected diagnostics"
    cmp -s out "$file" || fail "output differs from input"
}

case $case_name in
unbalanced)
    printf '(defun f ()\n  (list 1 2)\n' >f.el
    expect_read_error f.el 3:1
    ;;
unterminated-string)
    printf '(message "abc)\n' >f.el
    expect_read_error f.el 2:1
    ;;
stray-paren)
    printf '(a))\n(b)\n' >f.el
    expect_read_error f.el 1:4
    ;;
char-modifier-at-eof)
    # Emacs 30.1 reads ?\C- at the very end as -1: no character follows
    # the modifier.  A backslash there, or the same in a string, is an
    # error.
    printf '(a)\n?\\C-' >f.el
    expect_round_trip f.el
    run --no-expand --compact f.el
    [[ $status -eq 0 ]] || fail "compact: exit status $status"
    printf '(a)\n-1\n' | cmp -s - out || fail "compact: (a) and -1 expected"
    printf '(a)\n?\\C-\\' >g.el
    expect_read_error g.el 2:6
    printf '(a)\n"\\M-' >h.el
    expect_read_error h.el 2:2
    ;;
nul-in-form)
    printf '(a \0 b' >f.el
    expect_read_error f.el 1:7
    ;;
invalid-utf8-in-form)
    printf '(a \xff b' >f.el
    expect_read_error f.el 1:7
    ;;
deep-nesting)
    head -c 1000000 /dev/zero | tr '\0' '(' >f.el
    expect_read_error f.el 1:1000001
    ;;
nul-between-forms)
    printf '(a)\0(b)\n\0' >f.el
    expect_round_trip f.el
    run --no-expand --compact f.el
    [[ $status -eq 0 ]] || fail "compact: exit status $status"
    printf '(a)\n(b)\n' | cmp -s - out || fail "compact: two forms expected"
    ;;
raw-byte)
    printf ';; \xc0 comment\n(a "\xff" b\xfe c)\n\xf8' >f.el
    expect_round_trip f.el
    ;;
tabs-and-columns)
    # Columns count characters, and a TAB moves to the next multiple of 8.
    printf '(a\n\t"\xc3\xa9\xe2\x82\xac" ])\n' >f.el
    expect_read_error f.el 2:14
    ;;
coding-cookie)
    printf ';; -*- coding: latin-1 -*-\n(a)\n' >f.el
    run --no-expand f.el
    [[ $status -eq 2 && ! -s out ]] || fail "status $status"
    [[ $(cat err) == "f.el:1:16: error: unsupported coding system 'latin-1' (pcexpand reads UTF-8 only) [encoding]" ]] ||
        fail "unexpected message"
    printf ';; -*- coding: utf-8-emacs; lexical-binding: t -*-\n(a)\n' >g.el
    expect_round_trip g.el
    ;;
example)
    # The README example: expanded, everything outside the form kept.
    ex=$PCX_TESTDATA/examples/hello.el
    run "$ex"
    [[ $status -eq 0 && ! -s err ]] || fail "status $status"
    ! cmp -s out "$ex" || fail "nothing was expanded"
    ! grep -q '(pcase' out || fail "a pcase form is left"
    cmp -s <(head -n 7 "$ex") <(head -n 7 out) || fail "text before the form changed"
    cmp -s <(tail -n 3 "$ex") <(tail -n 3 out) || fail "text after the form changed"
    cp out default.out
    run --compact "$ex"
    [[ $status -eq 0 && $(wc -l <out) -eq 2 ]] || fail "compact: two lines expected"
    # temporaries: the subject of a call is held in one
    printf '(pcase (f) (`(,a ,b) (list a b)))\n' >t.el
    run --gensyms=hash t.el
    grep -q '(#:val0 (f))' out && ! grep -q 'pcx--' out || fail "--gensyms=hash not applied"
    run --gensym-prefix=my- t.el
    grep -q '(my-val0 (f))' out || fail "--gensym-prefix not applied"
    run --width=40 "$ex"
    [[ $status -eq 0 ]] && ! cmp -s out default.out || fail "--width not applied"
    ;;
nothing-to-expand)
    printf ';; c\n(a (b))\n' >f.el
    run f.el
    [[ $status -eq 0 ]] && cmp -s out f.el || fail "input must be printed unchanged"
    [[ $(cat err) == "pcexpand: no pcase-family or cond* forms" ]] || fail "note expected"
    run -q f.el
    [[ $status -eq 0 && ! -s err ]] || fail "-q must silence the note"
    run --no-expand f.el
    [[ $status -eq 0 && ! -s err ]] || fail "no note under --no-expand"
    ;;
internal-error)
    # An assertion failure (SIGABRT) is reported as a bug, exit status 3.
    mkfifo pipe
    exec 3<>pipe
    "$prog" <pipe >out 2>err &
    pid=$!
    # Wait until the program itself is blocked reading standard input.
    for _ in $(seq 100); do
        if [[ $(readlink "/proc/$pid/exe") == "$prog" ]] &&
            grep -q '^[0-9]* (.*) S ' "/proc/$pid/stat"; then
            break
        fi
        sleep 0.1
    done
    kill -ABRT "$pid"
    set +e
    wait "$pid"
    status=$?
    set -e
    exec 3>&-
    [[ $status -eq 3 ]] || fail "status $status, expected 3"
    grep -q '^pcexpand: internal error: .*bug.*--version' err || fail "message"
    ;;
missing-file)
    run --no-expand missing.el
    [[ $status -eq 2 && ! -s out ]] || fail "status $status"
    [[ $(cat err) == "missing.el: error: cannot open: No such file or directory [io]" ]] ||
        fail "unexpected message"
    ;;
errors-do-not-stop-other-files)
    printf '(a)\n' >a.el
    printf '(b\n' >b.el
    printf '(c)\n' >c.el
    run --no-expand a.el b.el c.el
    [[ $status -eq 2 ]] || fail "status $status, expected 2"
    printf '(a)\n(c)\n' | cmp -s - out || fail "good files must still be printed"
    [[ $(wc -l <err) -eq 1 ]] && grep -q '^b.el:2:1: error: ' err ||
        fail "one error for b.el expected"
    ;;
compact-error-after-good-forms)
    # --compact prints each form as soon as it is expanded; an error in a
    # later form must still leave the file's output empty, and the other
    # files of the run are printed whole.
    printf '(pcase x (1 (f)))\n(pcase y (`(,a) a))\n(pcase z ((frob a) 1))\n' >bad.el
    printf '(pcase x (1 (f)))\n' >good.el
    run --compact bad.el
    [[ $status -eq 2 && ! -s out ]] || fail "status $status or output for a file with errors"
    grep -q '^bad.el:3:' err || fail "error of the third form expected"
    run --compact good.el bad.el good.el
    [[ $status -eq 2 ]] || fail "status $status, expected 2"
    [[ $(wc -l <out) -eq 2 ]] || fail "both good files must be printed, nothing of bad.el"
    run --compact good.el
    one=$(cat out)
    printf '%s\n%s\n' "$one" "$one" >want
    run --compact good.el bad.el good.el
    cmp -s want out || fail "output of the good files differs"
    ;;
directory-walk)
    mkdir -p d/sub d/.git
    printf '(b)\n' >d/b.el
    printf '(a)\n' >d/a-x.el
    printf '(s)\n' >d/sub/s.el
    printf '(h)\n' >d/.git/h.el
    printf '(t)\n' >d/notes.txt
    ln -s sub d/zlink
    run --no-expand d
    [[ $status -eq 0 ]] || fail "status $status"
    printf '(a)\n(b)\n(s)\n' | cmp -s - out || fail "wrong files or order"
    ;;
stdin)
    printf '(x\n' >bad.el
    printf '(x)\n' >good.el
    run --no-expand <bad.el
    [[ $status -eq 2 ]] && grep -q '^<stdin>:2:1: error: ' err || fail "stdin name"
    run --no-expand --stdin-filepath=lisp/y.el - <bad.el
    grep -q '^lisp/y.el:2:1: error: ' err || fail "--stdin-filepath name"
    run --no-expand good.el - good.el <good.el
    [[ $status -eq 0 && $(cat out) == $'(x)\n(x)\n(x)' ]] || fail "stdin between files"
    ;;
usage-error)
    run --bogus f.el
    [[ $status -eq 2 && ! -s out ]] || fail "status $status"
    [[ $(head -1 err) == "pcexpand: error: unrecognized option '--bogus' [usage]" ]] ||
        fail "first line"
    [[ $(sed -n 2p err) == "Try 'pcexpand --help'." ]] || fail "second line"
    ;;
help-and-version)
    run --help
    [[ $status -eq 0 && ! -s err ]] || fail "--help status $status"
    grep -q '^Usage: pcexpand \[OPTION\]\.\.\. \[FILE|DIR|-\]\.\.\.$' out || fail "usage line"
    run --version
    [[ $status -eq 0 ]] && grep -Eq '^pcexpand [0-9]+\.[0-9]+\.[0-9]+$' out ||
        fail "--version"
    ;;
man-page)
    # docs/pcexpand.1 documents every option of --help, and renders.
    page=$PCX_TESTDATA/../docs/pcexpand.1
    run --help
    opts=$(grep -oE -- '(^|[ ,])--?[a-z][a-z-]*' out | tr -d ' ,' | sort -u)
    [[ $(wc -l <<<"$opts") -gt 30 ]] || fail "too few options in --help"
    for o in $opts; do
        grep -q -- "$(sed 's/-/\\\\-/g' <<<"$o")\\b" "$page" || fail "$o is not in pcexpand.1"
    done
    if command -v groff >/dev/null; then
        groff -man -ww -z "$page" 2>groff.err && [[ ! -s groff.err ]] ||
            fail "groff: $(head -n 3 groff.err)"
    fi
    ;;
message-formats)
    printf '(a))\n' >f.el
    run --no-expand --message-format=json f.el
    [[ $status -eq 2 ]] || fail "status $status"
    grep -q '^{"file":"f.el","line":1,"column":4,.*"severity":"error","code":"read",' err ||
        fail "json"
    run --no-expand --message-format=github f.el
    grep -q '^::error file=f.el,line=1,col=4,.*\[read\]$' err || fail "github"
    # A warning with its note: every field, in every format.
    printf "(defun s (x)\n  (pcase x\n    ('a 1)\n    ((or 'a 'b) 2)\n    ('a 3)))\n" >u.el
    run u.el
    [[ $status -eq 0 ]] || fail "status $status"
    [[ $(cat err) == "u.el:5:5: warning: this clause can never be reached [unreachable-clause]
u.el:3:5: note: because this clause matches first [unreachable-clause]" ]] || fail "gnu"
    run --message-format=json u.el
    [[ $(cat err) == '{"file":"u.el","line":5,"column":5,"end_line":5,"end_column":11,"severity":"warning","code":"unreachable-clause","message":"this clause can never be reached"}
{"file":"u.el","line":3,"column":5,"end_line":3,"end_column":11,"severity":"note","code":"unreachable-clause","message":"because this clause matches first"}' ]] ||
        fail "json"
    run --message-format=github u.el
    [[ $(cat err) == '::warning file=u.el,line=5,col=5,endLine=5,endColumn=11::this clause can never be reached [unreachable-clause]
::notice file=u.el,line=3,col=5,endLine=3,endColumn=11::because this clause matches first [unreachable-clause]' ]] ||
        fail "github with a note"
    ;;
load-path)
    # (require 'F): F.el from the input's own directory first, then -L in
    # order; not recursive; a feature not found is no error.
    mkdir -p lib lib2 lib/sub src
    printf "(require 'cl-lib)\n(cl-defstruct pt x y)\n(provide 'geo)\n" >lib/geo.el
    printf "(require 'cl-lib)\n(cl-defstruct pt z x y)\n(provide 'geo)\n" >lib2/geo.el
    printf "(cl-defstruct deep a)\n" >lib/sub/deep.el
    printf "(require 'geo)\n(require 'deep)\n(require 'absent)\n(pcase p ((cl-struct pt x) x))\n" >src/a.el
    run -L lib src/a.el
    [[ $status -eq 0 && ! -s err ]] || fail "status $status"
    grep -q "(aref p 1)" out || fail "layout of lib/geo.el not used"
    run -L lib2 -L lib src/a.el
    grep -q "(aref p 2)" out || fail "the first -L directory wins"
    run -Llib2 --directory=lib src/a.el
    grep -q "(aref p 2)" out || fail "-LDIR and --directory=DIR"
    # the input's own directory comes before -L
    printf "(cl-defstruct pt y x)\n" >src/geo.el
    run -L lib src/a.el
    grep -q "(aref p 2)" out || fail "the input's own directory comes first"
    rm src/geo.el
    # without a layout: the run-time fallback, a note, exit 0
    run src/a.el
    [[ $status -eq 0 ]] || fail "a struct without a layout is no error"
    grep -q "(cl-struct-slot-value 'pt 'x p)" out || fail "run-time fallback"
    grep -q '^src/a.el:4:11: note: the layout of struct pt is not known.*\[struct-layout-unknown\]$' err ||
        fail "note struct-layout-unknown"
    # not searched recursively
    printf "(require 'deep)\n(pcase p ((cl-struct deep a) a))\n" >src/b.el
    run -L lib src/b.el
    grep -q "cl-struct-slot-value 'deep" out || fail "directories are searched recursively"
    ;;
load-path-config)
    # load-path: in .pcexpand.yaml, relative to the file, after -L
    mkdir -p proj/.git proj/src proj/vendor other
    printf "version: 1\nload-path: [vendor]\n" >proj/.pcexpand.yaml
    printf "(cl-defstruct pt x y)\n" >proj/vendor/geo.el
    printf "(cl-defstruct pt z x y)\n" >other/geo.el
    printf "(require 'geo)\n(pcase p ((cl-struct pt x) x))\n" >proj/src/a.el
    run proj/src/a.el
    grep -q "(aref p 1)" out || fail "load-path: of the configuration"
    (cd proj/src && "$prog" a.el >../../out2 2>&1) && grep -q "(aref p 1)" out2 ||
        fail "load-path: relative to the configuration file, not the current directory"
    run -L other proj/src/a.el
    grep -q "(aref p 2)" out || fail "-L comes before load-path:"
    run --no-config proj/src/a.el
    grep -q "cl-struct-slot-value" out || fail "--no-config drops load-path:"
    run --print-config proj/src/a.el
    grep -q '^load-path: \[vendor\]$' out || fail "--print-config shows load-path"
    printf "version: 1\nload-path: vendor\n" >proj/.pcexpand.yaml
    run proj/src/a.el
    [[ $status -eq 2 ]] && grep -q "^proj/.pcexpand.yaml:2:.*'load-path' must be a list.*\[config\]$" err ||
        fail "load-path: must be a list"
    ;;
load-path-verbose)
    # -v says which file was read for which require, and what it defined;
    # requires are followed (each file once: a cycle ends); .el.gz too.
    mkdir -p lib
    printf "(require 'b)\n(cl-defstruct sa x)\n(provide 'a)\n" >lib/a.el
    printf "(require 'cl-lib)\n(require 'a)\n(defmacro b-def (n) \`(cl-defstruct ,n v))\n(b-def sb)\n(pcase-defmacro b-pos (v) (list 'and (list 'pred 'natnump) v))\n(provide 'b)\n" >lib/b.el
    printf "(defmacro c-bad (n) (list 'cl-defstruct (buffer-name) n))\n(c-bad sc)\n" >c.el
    gzip -c c.el >lib/c.el.gz
    rm c.el
    printf "(require 'a)\n(require 'c)\n(require 'missing)\n(pcase p ((cl-struct sb v) v) ((b-pos n) n))\n" >f.el
    run -v -L lib f.el
    [[ $status -eq 0 ]] || fail "status $status"
    want="f.el: note: no configuration file: the built-in defaults
f.el:1:1: note: feature cl-lib, required by lib/b.el: not found on the load path [require]
f.el:1:1: note: feature b, required by lib/a.el: read lib/b.el (struct sb, pattern macro b-pos) [require]
f.el:1:1: note: feature a: read lib/a.el (struct sa) [require]
f.el:2:1: note: (c-bad sc) in lib/c.el.gz was not learned from: macro c-bad calls buffer-name, which pcexpand does not evaluate [definer]
f.el:2:1: note: feature c: read lib/c.el.gz (nothing pcexpand uses) [require]
f.el:3:1: note: feature missing: not found on the load path [require]"
    [[ $(grep -v '^pcexpand:' err) == "$want" ]] || fail "-v lines: $(cat err)"
    grep -q "(aref p 1)" out && grep -q "(natnump p)" out || fail "definitions of lib/b.el not used"
    # without -v: nothing said
    run -L lib f.el
    [[ ! -s err ]] || fail "notes without -v"
    # the same with several threads, and the input in parts
    run -j 2 -L lib f.el
    [[ ! -s err ]] || fail "-j 2"
    ;;
load-path-split)
    # A large input computed in parts: a part that reads only its own
    # stretch and needs what a require before it defines (a struct
    # layout, a pattern macro, an rx definition) runs the input again in
    # one piece; the output is the same as in one piece.
    mkdir -p lib
    printf "(cl-defstruct pt x y)\n(pcase-defmacro pos (v) (list 'and '(pred natnump) v))\n(rx-define digs (+ digit))\n" >lib/geo.el
    for use in "(pcase p ((cl-struct pt x) x) ((pos n) n))" "(pcase p ((rx digs) 'd))"; do
        { printf "(require 'geo)\n"
          for i in $(seq 1 4000); do printf "(defun f%d (x) (pcase x (%d 'a) (_ 'b)))\n" "$i" "$i"; done
          printf "(defun g (p) %s)\n" "$use"
        } >big.el
        [[ $(wc -c <big.el) -gt 140000 ]] || fail "input too small to be split"
        run --whole -L lib big.el
        cp out whole.out
        grep -q '(aref p 1)\|"\[\[:digit:\]\]+"' whole.out || fail "definitions not used"
        for opts in "" "-j 2" "-j 3"; do
            run $opts -L lib big.el
            [[ $status -eq 0 ]] && cmp -s out whole.out || fail "'$opts' differs from --whole: $use"
        done
    done
    ;;
load-path-errors)
    # A required file that does not read is a warning at the require, and
    # what it defines before the error is learned; a file of the input's
    # own name is not learned again.
    mkdir -p lib
    printf "(cl-defstruct good x)\n(cl-defstruct bad . (y))\n(cl-defstruct late z)\n)\n" >lib/broken.el
    printf "(require 'broken)\n(pcase p ((cl-struct good x) x) ((cl-struct late z) z))\n" >f.el
    run -L lib f.el
    [[ $status -eq 0 ]] || fail "status $status"
    grep -q '^f.el:1:1: warning: lib/broken.el (required for broken) does not read: line 4, column 1: invalid-read-syntax: ); the definitions after that are not learned \[library-unreadable\]$' err ||
        fail "library-unreadable warning: $(cat err)"
    grep -q "(aref p 1)" out || fail "what reads is learned"
    run --werror -L lib f.el
    [[ $status -eq 2 && ! -s out ]] || fail "--werror"
    printf "(cl-defstruct gz a)\n" | gzip -c | head -c 20 >lib/gz.el.gz
    printf "(require 'gz)\n" >g.el
    run -L lib g.el
    grep -q "^g.el:1:1: warning: lib/gz.el.gz (required for gz) does not read: cannot decompress" err ||
        fail "a damaged .el.gz"
    # a feature that names the input itself
    printf "(require 'self)\n(cl-defstruct s2 a)\n(pcase p ((cl-struct s2 a) a))\n" >self.el
    run -v self.el
    [[ $status -eq 0 ]] && ! grep -q 'read ./self.el' err || fail "the input learned as a library"
    ;;
macro-eval)
    # pattern macros whose bodies compute: evaluated at each use; one that
    # calls what the evaluator does not have is an error at the use,
    # naming the function and the macro.
    printf "(defun helper (v) (list 'pred v))\n(pcase-defmacro ok1 (v) (helper v))\n(pcase-defmacro io1 (v) (list 'pred (buffer-name)))\n(pcase x ((ok1 numberp) 1))\n(pcase x ((io1 y) 1))\n" >f.el
    run f.el
    [[ $status -eq 2 && ! -s out ]] || fail "status $status"
    [[ $(cat err) == "f.el:5:11: error: pattern macro io1 cannot be expanded: its body calls buffer-name, which pcexpand does not evaluate [macro-eval]
f.el:3:1: note: pattern macro io1 is defined here [macro-eval]" ]] || fail "$(cat err)"
    run --keep-going f.el
    grep -q "(if (numberp x) 1)" out || fail "the good use is expanded"
    printf "(pcase-defmacro loop1 (v) (while t) v)\n(pcase x ((loop1 y) 1))\n" >g.el
    run g.el
    [[ $status -eq 2 ]] && grep -q '^g.el:2:11: error: pattern macro loop1: the evaluation took more than 1000000 steps \[nesting-too-deep\]$' err ||
        fail "step limit: $(cat err)"
    ;;
control-names)
    # File names with terminal controls and bytes that are no UTF-8 are
    # shown escaped in every message format (the raw bytes never reach
    # a terminal or a CI log), and JSON lines stay valid UTF-8.
    esc=$'a\x1b[31mred\x07.el' bad=$'b\xff.el'
    printf '(pcase x ((foo y) y))\n' >"$esc"
    printf '(pcase x ((foo y) y))\n' >"$bad"
    for format in gnu github json; do
        run --message-format=$format -q "$esc" "$bad"
        [[ $status -eq 2 ]] || fail "$format: status $status"
        ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' err || fail "$format: control bytes in the messages"
        iconv -f UTF-8 -t UTF-8 err >/dev/null || fail "$format: messages are not UTF-8"
    done
    run -q "$esc" "$bad"
    grep -qxF 'a\x1b[31mred\x07.el:1:11: error: Unknown foo pattern: (foo y) [unknown-pattern]' err ||
        fail "gnu: the name is not escaped"
    run --message-format=json -q "$bad"
    grep -q '^{"file":"b\\ufffd.el","line":1,"column":11,' err || fail "json: the name is not U+FFFD"
    if command -v emacs >/dev/null; then
        run --message-format=json -q "$esc" "$bad"
        emacs -Q --batch --eval '(with-temp-buffer
          (set-buffer-multibyte t)
          (insert-file-contents "err")
          (dolist (l (split-string (buffer-string) "\n" t)) (json-parse-string l)))' ||
            fail "json: not valid JSON"
    fi
    # The list of stale targets and the statistics name files the same way.
    printf '(pcase x (1 2))\n' >"$esc"
    run -l "$esc"
    grep -qxF 'a\x1b[31mred\x07.el' out || fail "-l: the name is not escaped"
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
