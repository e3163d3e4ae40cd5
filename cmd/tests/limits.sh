#!/bin/bash
# limits.sh - adversarial inputs: pcexpand must end cleanly and quickly.
#
# Usage: limits.sh PCEXPAND CASE      (suite 'limits'; docs/limits.md)
#        limits.sh PCEXPAND --table   (every case, one table row each)
# Each CASE generates its input in a scratch directory and runs the
# program under a 20-second timeout and a 1 GiB address-space limit (for
# sanitizer builds, which reserve more address space than that up front
# and run slower: no address-space limit, and three times the time and
# peak memory allowed).  It must
# exit with the status the case allows (0 or 2, never a signal, never 3),
# print a diagnostic with the expected code when it fails, and stay under
# the time and memory limits.  Time and peak memory are printed.
set -uo pipefail

prog=$(realpath "$1")
case_name=$2
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

TIME_LIMIT=20            # seconds
MEM_LIMIT_KB=$((1024 * 1024))

fail() {
    echo "FAIL [$case_name]: $*" >&2
    [[ -f err ]] && { echo "--- stderr:" >&2; head -c 2000 err >&2; }
    exit 1
}

# A sanitizer runtime reserves terabytes of address space: no ulimit -v.
sanitized=false
grep -q -a -m1 -e __asan_init -e __ubsan_handle "$prog" && sanitized=true
if $sanitized; then
    TIME_LIMIT=$((TIME_LIMIT * 3))
    MEM_LIMIT_KB=$((MEM_LIMIT_KB * 3))
fi

# small: the last run stayed under 200 MB (SMALL_KB; three times that
# for sanitizer builds), the bound of the inputs that must stay linear.
SMALL_KB=$((200 * 1024))
$sanitized && SMALL_KB=$((SMALL_KB * 3))
small() {
    [[ $kb == "?" || $kb -lt $SMALL_KB ]] || fail "used ${kb} KiB (at most $SMALL_KB)"
}

# rep N TEXT: TEXT repeated N times, on standard output.
rep() {
    awk -v n="$1" -v s="$2" 'BEGIN { while (n-- > 0) printf "%s", s }'
}

# run ARGS...: run the program under the limits; sets status, secs, kb.
run() {
    local limit=""
    $sanitized || limit="ulimit -v $MEM_LIMIT_KB;"
    local t0 t1
    t0=$(date +%s%N)
    if [[ -x /usr/bin/time ]]; then
        bash -c "$limit"' exec /usr/bin/time -f %M -o "$0.rss" timeout -s KILL "$@"' \
            mem "$TIME_LIMIT" "$prog" "$@" >out 2>err
    else
        bash -c "$limit"' exec timeout -s KILL "$@"' \
            mem "$TIME_LIMIT" "$prog" "$@" >out 2>err
    fi
    status=$?
    t1=$(date +%s%N)
    secs=$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.2f", d / 1e9 }')
    kb=$(tail -n 1 mem.rss 2>/dev/null | grep -E '^[0-9]+$' || echo "?")
}

# check ALLOWED CODE: status in ALLOWED ("0", "2", "0|2"); when it is 2,
# a diagnostic with [CODE] (CODE "" = any code).  Prints the table row.
check() {
    local allowed=$1 code=$2
    # /usr/bin/time reports a killed child as "Command terminated by signal".
    if grep -q '^Command terminated by signal' mem.rss 2>/dev/null ||
        [[ $status -ge 124 ]]; then
        fail "killed or timed out (status $status, ${secs}s)"
    fi
    [[ $status =~ ^($allowed)$ ]] || fail "exit status $status, expected $allowed"
    if [[ $status -eq 2 && -n $code ]]; then
        grep -q "\[$code\]" err || fail "no [$code] diagnostic"
    fi
    [[ $kb == "?" || $kb -lt $MEM_LIMIT_KB ]] || fail "used ${kb} KiB"
    local first
    first=$(grep -m1 -E 'error:' err | sed -E 's/^[^ ]*: error: //' | cut -c1-200)
    printf '%s\texit %s\t%ss\t%s KiB\t%s\n' "$case_name" "$status" "$secs" "$kb" \
        "${first:-(no diagnostic)}"
}

case $case_name in
--table)
    for c in $(sed -n 's/^\([a-z0-9][a-z0-9-]*\))$/\1/p' "$here/limits.sh"); do
        "$here/limits.sh" "$prog" "$c" || echo "$c	FAILED"
    done
    ;;
parens-1m)
    # 1,000,000 nested lists; --no-expand and default mode.
    { rep 1000000 "("; rep 1000000 ")"; echo; } >f.el
    run --no-expand f.el; check "0|2" nesting-too-deep
    cmp -s out f.el || [[ $status -eq 2 ]] || fail "--no-expand output differs"
    run f.el; check "0|2" nesting-too-deep
    ;;
vectors-1m)
    { rep 1000000 "["; rep 1000000 "]"; echo; } >f.el
    run --no-expand f.el; check "0|2" nesting-too-deep
    run --compact f.el; check "0|2" nesting-too-deep
    ;;
parens-1m-in-pcase)
    # The deep list is the body of a clause: code the expander walks.
    { echo "(pcase x (_ "; rep 1000000 "(f "; rep 1000000 ")"; echo "))"; } >f.el
    run f.el; check "2" nesting-too-deep
    ;;
quoted-1m-in-pcase)
    # ... and quoted data in a clause body, which is printed, not walked.
    { echo "(pcase x (_ '"; rep 1000000 "("; rep 1000000 ")"; echo "))"; } >f.el
    run f.el; check "0|2" nesting-too-deep
    ;;
circular-quoted-in-pcase)
    # Quoted data that contains itself, in a clause body: printed with
    # print-circle labels, in the default layout and in --compact.
    printf "(pcase x (_ '#1=(a . #1#)))\n(pcase y (_ '#2=[#2# b]))\n" >f.el
    for mode in "" --compact; do
        run $mode f.el; check "0" ""
        grep -qxF "'#1=(a . #1#)" out || fail "$mode: no labelled list in output"
        grep -qxF "'#1=[#1# b]" out || fail "$mode: no labelled vector in output"
    done
    # Outside any expansion too: --compact prints labels, not #0.
    printf "'#1=(a . #1#)\n(pcase y (1 2))\n" >f.el
    run --compact f.el; check "0" ""
    grep -qxF "'#1=(a . #1#)" out || fail "--compact: unexpanded circular form"
    ;;
clauses-100k)
    # More clauses than a decision tree may have (4,000).
    { echo "(pcase x"; awk 'BEGIN { for (i = 0; i < 100000; i++) printf "  (%d (f %d))\n", i, i }'
      echo "  (_ nil))"; } >f.el
    run f.el; check "2" nesting-too-deep
    grep -q 'pcase form too large' err || fail "the error does not name the form"
    ;;
clauses-3000)
    # ... and below that limit: expanded.
    { echo "(pcase x"; awk 'BEGIN { for (i = 0; i < 3000; i++) printf "  (%d (f %d))\n", i, i }'
      echo "  (_ nil))"; } >f.el
    run f.el; check "0" ""
    ;;
clauses-100k-cond-star)
    # Each clause copies its own datum, so its let wraps the next ones:
    # the layout would be quadratic.
    { echo "(cond*"; awk 'BEGIN { for (i = 0; i < 100000; i++) printf "  ((match* (list %d y) (g x)) (f y))\n", i }'
      echo "  (t nil))"; } >f.el
    run f.el; check "2" nesting-too-deep
    grep -q "cond\* form's expansion too large" err || fail "the error does not name the form"
    run --compact f.el; check "2" nesting-too-deep
    ;;
clauses-50k-flat-cond-star)
    # match* clauses on one variable: one flat cond of 50,000 clauses.
    { echo "(cond*"; awk 'BEGIN { for (i = 0; i < 50000; i++) printf "  ((match* (list %d y) x) (f y))\n", i }'
      echo "  (t nil))"; } >f.el
    run f.el; check "0" ""
    run --compact f.el; check "0" ""
    [[ $(wc -l <out) -eq 1 ]] || fail "--compact: not one line"
    ;;
clauses-20k-plain-cond-star)
    # 20,000 exit clauses: one flat cond (Emacs nests them 20,000 deep).
    { echo "(cond*"; awk 'BEGIN { for (i = 0; i < 20000; i++) printf "  ((eq x %d) %d)\n", i, i }'
      echo ")"; } >f.el
    run f.el; check "0" ""
    grep -q '^ ((eq x 19999) 19999))$' out || fail "not one flat cond"
    run --compact f.el; check "0" ""
    ;;
clauses-5000-bind-cond-star)
    # 5,000 bind* clauses, each binding around the next ones: 5,000
    # levels, too large to lay out, printed on one line.
    { echo "(cond*"; awk 'BEGIN { for (i = 0; i < 5000; i++) printf "  ((bind* (v%d (f %d))))\n", i, i }'
      echo "  (t nil))"; } >f.el
    run f.el; check "2" nesting-too-deep
    run --compact f.el; check "0" ""
    ;;
clauses-1000-cond-star)
    # The largest layout allowed is about 64 MB: this one prints 34 MB.
    { echo "(cond*"; awk 'BEGIN { for (i = 0; i < 1000; i++) printf "  ((match* (list %d y) (g x)) (f y))\n", i }'
      echo "  (t nil))"; } >f.el
    run f.el; check "0" ""
    ;;
pattern-and-100k)
    { echo "(pcase x ("; rep 100000 "(and "; echo -n "y"; rep 100000 ")"; echo " y))"; } >f.el
    run f.el; check "2" nesting-too-deep
    ;;
pattern-backquote-100k)
    { echo "(pcase x (\`"; rep 100000 "("; echo -n ",y"; rep 100000 ")"; echo " y))"; } >f.el
    run f.el; check "2" nesting-too-deep
    ;;
pattern-vector-100k)
    { echo "(pcase x (\`"; rep 100000 "["; echo -n ",y"; rep 100000 "]"; echo " y))"; } >f.el
    run f.el; check "2" nesting-too-deep
    ;;
pattern-match-100k)
    { echo "(cond* ((match* "; rep 100000 "(cons "; echo -n "y"; rep 100000 " _)"; echo " x) y))"; } >f.el
    run f.el; check "2" nesting-too-deep
    ;;
string-10mb)
    { echo -n '(pcase x ("'; head -c 10485760 /dev/zero | tr '\0' 'a'; echo '" 1) (_ 2))'; } >f.el
    run f.el; check "0" ""
    grep -q '"aaaa' out || fail "the string is missing from the output"
    ;;
and-of-30-ors)
    { echo "(pcase x ((and"
      for i in $(seq 30); do echo "   (or (pred p$i) (pred q$i))"; done
      echo "  ) 'yes) (_ 'no))"; } >f.el
    run f.el; check "0|2" ""
    ;;
and-of-30-binding-ors)
    # Each or binds v differently: 2^30 paths, each with its own
    # bindings; the decision tree's size budget stops it.
    { echo "(pcase x ((and"
      for i in $(seq 30); do echo "   (or \`(a$i . ,v$i) (and v$i (pred p$i)))"; done
      echo "  ) 'yes) (_ 'no))"; } >f.el
    run f.el; check "2" nesting-too-deep
    grep -q 'pcase form too large' err || fail "the error does not name the form"
    ;;
and-of-13-binding-ors)
    # ... and below the budget: expanded (10 MB of output).
    { echo "(pcase x ((and"
      for i in $(seq 13); do echo "   (or \`(a$i . ,v$i) (and v$i (pred p$i)))"; done
      echo "  ) 'yes) (_ 'no))"; } >f.el
    run f.el; check "0" ""
    ;;
macro-self-recursive)
    printf '(pcase-defmacro forever (x) `(forever ,x))\n(pcase y ((forever a) a))\n' >f.el
    run f.el; check "2" nesting-too-deep
    grep -q 'pattern macro forever keeps expanding' err || fail "the error does not name the macro"
    ;;
macro-mutually-recursive)
    printf '(pcase-defmacro ping (x) `(pong ,x))\n(pcase-defmacro pong (x) `(ping ,x))\n(pcase y ((ping a) a))\n' >f.el
    run f.el; check "2" nesting-too-deep
    ;;
macro-doubling)
    # Each step doubles the pattern: 2^depth nodes without a size cap.
    # The first branch reaches the depth limit; its 2^1000 copies are not
    # normalised nor reported again.
    printf '(pcase-defmacro grow (x) `(and (grow ,x) (grow ,x)))\n(pcase y ((grow a) a))\n' >f.el
    run f.el; check "2" nesting-too-deep
    [[ $(grep -c 'error:' err) -eq 1 ]] || fail "more than one error"
    ;;
rx-self-recursive)
    # An rx definition that uses itself, plain and with a parameter, and
    # two that use each other inside rx-let: Emacs recurses until its
    # Lisp nesting limit.
    { echo '(rx-define forever (or "a" forever))'
      echo '(rx-define deeper (x) (seq x (deeper x)))'
      echo '(defun f (s) (pcase s ((rx forever) 1) ((rx (deeper "b")) 2)))'
      echo '(defun g (s) (rx-let ((ping (seq "p" pong)) (pong (* ping))) (pcase s ((rx ping) 3))))'; } >f.el
    run f.el; check "2" nesting-too-deep
    [[ $(grep -c 'error:' err) -eq 3 ]] || fail "not one error per pattern"
    ;;
rx-doubling)
    # 40 rx definitions, each doubling the one before (2^40 characters), and
    # &rest arguments that double at each of 40 levels.
    { echo '(rx-define d0 "a")'
      for i in $(seq 40); do echo "(rx-define d$i (seq d$((i - 1)) d$((i - 1))))"; done
      echo '(rx-define r0 (&rest x) (seq x))'
      for i in $(seq 40); do echo "(rx-define r$i (&rest x) (r$((i - 1)) x x))"; done
      echo '(defun f (s) (pcase s ((rx d40) 1) ((rx (r40 "b")) 2)))'; } >f.el
    run f.el; check "2" nesting-too-deep
    grep -q 'rx pattern too large' err || fail "the error does not say the pattern is too large"
    ;;
rx-or-100k)
    # or, not and intersection of 100,000 characters: sets are merged once,
    # not once per character.
    chars=$(awk 'BEGIN { for (i = 0; i < 100000; i++) printf " %d", 65536 + 2 * i }')
    nots=$(awk 'BEGIN { for (i = 0; i < 100000; i++) printf " (not %d)", 65536 + 2 * i }')
    { echo "(defun f (s) (pcase s ((rx (or digit$chars)) 1)"
      echo "  ((rx (not (or digit$chars))) 2)"
      echo "  ((rx (intersection$nots)) 3)))"; } >f.el
    run f.el; check "0" ""
    ;;
macro-wide-doubling)
    # 24 templates, each doubling the one before: 2^24 sub-patterns, only
    # 24 deep; the size limit of a pattern stops it.
    { echo '(pcase-defmacro g0 (x) `(and ,x))'
      for i in $(seq 24); do echo "(pcase-defmacro g$i (x) \`(and (g$((i - 1)) ,x) (g$((i - 1)) ,x)))"; done
      echo '(pcase y ((g24 a) a))'; } >f.el
    run f.el; check "2" nesting-too-deep
    grep -q 'pattern too large' err || fail "no size error"
    ;;
invalid-utf8)
    # A string with bytes that start no UTF-8 sequence, a truncated
    # sequence in a symbol, an encoded surrogate: raw bytes, as in Emacs.
    printf '(pcase x ("\xff\xfe" 1) (\x27a\xc3 2) (_ \x27\xed\xa0\x80))\n' >f.el
    run f.el; check "0" ""
    grep -q -a $'"\xff\xfe"' out || fail "the raw bytes are not kept"
    # Raw bytes are written as themselves, not in Emacs's internal form
    # (a C0 or C1 byte before them), which would read as other symbols.
    ! LC_ALL=C grep -q -a $'[\xc0\xc1]' out || fail "raw bytes written as C0/C1 pairs"
    grep -q -a $'\x27a\xc3\x20\|\x27a\xc3)' out || fail "symbol a\\xC3 not written back"
    ;;
nul-bytes)
    printf '(pcase x ("a\0b" 1) (?\0 2))\n\0\n' >f.el
    run f.el; check "0|2" ""
    printf '(pcase x ("a\0b" 1) (?\0 2))\n' >g.el
    run g.el; check "0" ""
    ;;
directory-operand)
    # A directory named like a Lisp file, given as an operand and met
    # while searching another directory.
    mkdir -p d.el e/sub.el
    printf '(a)\n' >e/a.el
    run d.el; check "0|2" ""
    run e; check "0|2" ""
    ;;
unreadable-file)
    # Root reads any mode-000 file, so: a path whose read fails (EIO),
    # and, when setpriv exists, a mode-000 file read as nobody.
    run /proc/self/mem; check "2" io
    if command -v setpriv >/dev/null && [[ $(id -u) -eq 0 ]]; then
        printf '(a)\n' >f.el
        chmod 000 f.el
        chmod 755 "$tmp"
        run_as() { setpriv --reuid=65534 --regid=65534 --clear-groups "$prog" "$@"; }
        set +e; run_as f.el >out 2>err; status=$?; set -e
        [[ $status -eq 2 ]] && grep -q '\[io\]' err || fail "mode 000 as nobody: status $status"
    fi
    ;;
forms-1m)
    # A million small top-level forms, one of them expandable.
    { rep 1000000 "(a) "; echo "(pcase x (1 2))"; } >f.el
    run f.el; check "0" ""
    ;;
stdin-64mb)
    # 64 MB of small forms through standard input, under a 400 MB
    # address-space limit: each stretch's memory is given back to the
    # next (it was all kept: 4.9 GB); the output is the file's.
    awk 'BEGIN { for (i = 0; i < 700000; i++)
        printf "(defun f%d (x) (pcase x (1 (quote one)) (_ (list x %d))))\n(foo (bar) \"s\" %d)\n", i, i, i }' >f.el
    limit=$MEM_LIMIT_KB
    $sanitized || MEM_LIMIT_KB=$((400 * 1024))
    run - < <(cat f.el); check "0" ""
    mv out stdin.out
    MEM_LIMIT_KB=$limit
    run f.el; check "0" ""
    cmp -s out stdin.out || fail "standard input gives other output than the file"
    ;;
stdin-form-20mb)
    # One form of 20 MB over 290,000 lines through a pipe: each byte is
    # scanned once for where forms end, and the form read once (it was
    # read again at every 64 KiB: 15 s).
    { printf "(pcase x (1 '("; head -c 20000000 /dev/zero | tr '\0' 'a' | fold -w 68
      printf ')) (_ 2))\n'; } >f.el
    run - < <(cat f.el); check "0" ""
    ;;
quotes-5m)
    # 5,000,000 quotes in a row: one frame of the reader for the row (it
    # took one a quote), and --compact prints it from one frame without
    # a record of its path (it printed it with print-circle's table).
    { head -c 5000000 /dev/zero | tr '\0' "'"; echo x; } >f.el
    run f.el; check "0" ""
    run --no-expand f.el; check "0" ""
    cmp -s out f.el || fail "--no-expand output differs"
    run --compact f.el; check "0" ""
    cmp -s out f.el || fail "--compact output differs"
    ;;
line-100mb)
    # 100 MB of small forms on one line: cut into parts between forms
    # within the line, each in reused memory (in one piece it took 44
    # bytes per byte).
    awk 'BEGIN { for (i = 0; i < 14300000; i++) printf "(a %d) ", i % 100; print "" }' >f.el
    run f.el; check "0" ""
    cmp -s out f.el || fail "output differs"
    run -j 2 --compact f.el; check "0" ""
    ;;
jobs-held)
    # -j 2 on 14 files of 0.5 MB, each computed in one piece (--whole,
    # about 115 MB), the output read slowly: the runs waiting for their
    # turn keep their output only (1.5 MB each), and no more than 64 MB of
    # it (eight whole runs were kept: out of memory).
    for i in $(seq 14); do
        awk -v k="$i" 'BEGIN { for (i = 0; i < 7500; i++)
            printf "(defun f%d_%d (x) (pcase x (`(,a . ,b) (list a b %d)) (_ nil)))\n", k, i, i }' >f$i.el
    done
    limit=""
    $sanitized || limit="ulimit -v $MEM_LIMIT_KB;"
    t0=$(date +%s%N)
    bash -c "$limit"' exec /usr/bin/time -f %M -o "$0.rss" timeout -s KILL "$@"' mem \
        "$TIME_LIMIT" "$prog" -j 2 --whole f*.el 2>err | { sleep 2; cat >out; }
    status=${PIPESTATUS[0]}
    secs=$(awk -v d=$(($(date +%s%N) - t0)) 'BEGIN { printf "%.2f", d / 1e9 }')
    kb=$(tail -n 1 mem.rss 2>/dev/null | grep -E '^[0-9]+$' || echo "?")
    check "0" ""
    [[ $(wc -c <out) -gt 10000000 ]] || fail "output missing"
    ;;
radix-800k)
    # A #x literal of 800,000 digits: printed from its text where its
    # value is not needed; converted (divide and conquer, n^1.59) where
    # it is: --compact, and as a pattern.
    { printf '(a #x'; head -c 800000 /dev/zero | tr '\0' 'f'; echo ')'; } >f.el
    run --no-expand f.el; check "0" ""
    cmp -s out f.el || fail "--no-expand output differs"
    run --no-expand --compact f.el; check "0" ""
    [[ $(wc -c <out) -eq $((963296 + 5)) ]] || fail "--compact: not 963,296 decimal digits"
    { printf '(pcase x (#x'; head -c 800000 /dev/zero | tr '\0' 'f'; echo ' 1))'; } >g.el
    run g.el; check "0" ""
    ;;
symbol-10mb)
    { echo -n "(pcase x ('"; head -c 10485760 /dev/zero | tr '\0' 's'; echo " 1))"; } >f.el
    run f.el; check "0" ""
    ;;
eval-loop-many-uses)
    # A pattern macro whose body never ends, used 1,000 times: each use
    # stops after 1,000,000 steps, and all the uses of a file after
    # 20,000,000 (the run's budget): the time stays bounded.
    { echo '(pcase-defmacro spin (x) (while t) x)'
      for i in $(seq 1000); do echo "(pcase y ((spin a$i) a$i))"; done; } >f.el
    run f.el; check "2" nesting-too-deep
    grep -q 'more than 20000000 steps' err || fail "the run's budget was not reached"
    ;;
eval-memory-doubling)
    # A pattern macro that doubles a list 40 times, used 100 times: each
    # use stops at 64 MiB of values, all of them at 256 MiB.
    { echo '(pcase-defmacro big (x) (let ((l (list x))) (dotimes (_ 40) (setq l (append l l))) (cons (quote and) l)))'
      for i in $(seq 100); do echo "(pcase y ((big a$i) a$i))"; done; } >f.el
    run f.el; check "2" nesting-too-deep
    grep -q 'more than 64 MiB of values' err || fail "no memory limit"
    ;;
eval-deep-recursion)
    # A helper that recurses without end, called by a pattern macro: the
    # evaluator's depth limit, not the C stack, stops it.
    printf '(defun down (n) (list (down (1+ n))))\n(pcase-defmacro deep (x) (down 0) x)\n(pcase y ((deep a) a))\n' >f.el
    run f.el; check "2" nesting-too-deep
    grep -q 'nested more than 500 levels' err || fail "no depth limit"
    ;;
definer-expanding-forever)
    # A top-level call of a macro that expands to a call of itself is
    # skipped after 64 expansions.
    printf "(defmacro again (n) (list 'again (1+ n)))\n(again 0)\n(pcase y (1 2))\n" >f.el
    run -v f.el; check "0" ""
    grep -q 'macros expanded more than 64 times \[definer\]' err || fail "no note"
    ;;
require-chain-2000)
    # 2,000 files, each requiring the next: followed with an explicit
    # stack; the last one's struct is known.
    mkdir lib
    for i in $(seq 2000); do printf "(require 'r%d)\n" $((i + 1)) >lib/r$i.el; done
    printf "(cl-defstruct far a b)\n" >lib/r2001.el
    printf "(require 'r1)\n(pcase y ((cl-struct far b) b))\n" >f.el
    run -L lib f.el; check "0" ""
    grep -q '(aref y 2)' out || fail "the struct of the last file"
    ;;
require-cycle)
    mkdir lib
    printf "(require 'b)\n(cl-defstruct sa x)\n(provide 'a)\n" >lib/a.el
    printf "(require 'a)\n(cl-defstruct sb x)\n(provide 'b)\n" >lib/b.el
    printf "(require 'a)\n(pcase y ((cl-struct sa x) x) ((cl-struct sb x) x))\n" >f.el
    run -L lib f.el; check "0" ""
    [[ $(grep -c 'aref y 1' out) -eq 2 ]] || fail "both structs"
    ;;
require-parens-1m)
    # A required file nested 1,000,000 deep, then a struct.
    mkdir lib
    { rep 1000000 "("; rep 1000000 ")"; printf "\n(cl-defstruct s a)\n"; } >lib/deep.el
    printf "(require 'deep)\n(pcase y ((cl-struct s a) a))\n" >f.el
    run -L lib f.el; check "0" ""
    grep -q '(aref y 1)' out || fail "the struct after the deep form"
    ;;
require-gzip-bomb)
    # 1 GiB of text compressed to 1 MB: decompression stops at 8 MiB, a
    # warning, and the input is expanded.
    mkdir lib
    head -c 1073741824 /dev/zero | tr '\0' ' ' | gzip -1 -c >lib/bomb.el.gz
    printf "(require 'bomb)\n(pcase y (1 2))\n" >f.el
    run -L lib f.el; check "0" ""
    grep -q 'lib/bomb.el.gz (required for bomb) does not read: cannot read: File too large; nothing of it is learned \[library-unreadable\]' err ||
        fail "no warning: $(head -c 300 err)"
    ;;
require-10mb)
    # A required file of 10 MB: larger than a required file may be.
    mkdir lib
    { printf "(cl-defstruct s a)\n"; head -c 10485760 /dev/zero | tr '\0' ' '; } >lib/huge.el
    printf "(require 'huge)\n(pcase y ((cl-struct s a) a))\n" >f.el
    run -L lib f.el; check "0" ""
    grep -q 'File too large; nothing of it is learned \[library-unreadable\]' err || fail "no warning"
    ;;
config-structs-20k)
    # 20,000 struct layouts (a map grown one entry at a time: 6.5 GB).
    { echo "version: 1"; echo "structs:"
      awk 'BEGIN { for (i = 0; i < 20000; i++) printf "  s%d: {type: vector, slots: [a, b]}\n", i }'
    } >c.yaml
    echo "(pcase x (1 2))" >f.el
    run --config=c.yaml f.el; check "0" ""; small
    ;;
config-indent-20k)
    { echo "version: 1"; echo "indent:"
      awk 'BEGIN { for (i = 0; i < 20000; i++) printf "  my-macro-%d: %d\n", i, i % 4 }'
    } >c.yaml
    echo "(pcase x (1 2))" >f.el
    run --config=c.yaml f.el; check "0" ""; small
    ;;
config-unknown-keys-20k)
    # Each key an error (every key was compared with all earlier ones).
    { echo "version: 1"; awk 'BEGIN { for (i = 0; i < 20000; i++) printf "k%d: 1\n", i }'
    } >c.yaml
    echo "(pcase x (1 2))" >f.el
    run --config=c.yaml f.el; check "2" config; small
    [[ $(grep -c "unknown key" err) -eq 20000 ]] || fail "not one error per key"
    ;;
config-files-8k)
    # 8,000 directories, each with its configuration (the set of loaded
    # files grew one entry at a time: 1.85 GB).
    awk 'BEGIN { for (i = 0; i < 8000; i++) print "d/" i }' | xargs mkdir -p
    awk 'BEGIN { for (i = 0; i < 8000; i++) {
        c = "d/" i "/.pcexpand.yaml"; printf "version: 1\noutput: {width: 70}\n" >c; close(c)
        f = "d/" i "/f.el"; print "(a)" >f; close(f) } }'
    run --check d; check "0" ""; small
    grep -q "8000 files checked" err || fail "not every file checked"
    ;;
manifest-cases-20k)
    { echo "version: 1"; echo "cases:"
      awk 'BEGIN { for (i = 0; i < 20000; i++) printf "  c%d: {source: \"(pcase x (%d 2))\"}\n", i, i }'
    } >m.yaml
    run -g --manifest=m.yaml; check "1" ""; small
    grep -q "0 passed, 0 failed, 20000 missing" err || fail "not every case run"
    ;;
*)
    echo "unknown case $case_name" >&2
    exit 1
    ;;
esac
