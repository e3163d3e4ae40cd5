/* test_interp.c - the evaluator of macro bodies (expand/interp.h).
 *
 * Each case evaluates one form, with the definitions of a small host (the
 * defuns and defmacros of `defs' below), and compares what it printed
 * (prin1) or the failure: "!signal MESSAGE", "!unknown function F",
 * "!limit MESSAGE".  Then the limits (steps, memory, depth, the run's
 * budget), deterministic symbols, the bodies of the Emacs 30.1 macros the
 * evaluator exists for, and the tables.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "expand/interp.h"
#include "lisp/print.h"
#include "syntax/read.h"

/* ---- a host: defuns, defmacros and defvars read from text ---- */

struct host {
    struct lisp *L;
    struct interp_fn fn[32];
    size_t n_fn;
    struct value *var[8], *val[8];
    size_t n_var;
    size_t made; /* symbols made */
};

static const struct interp_fn *host_function(void *ctx, struct value *sym)
{
    struct host *h = ctx;
    for (size_t i = 0; i < h->n_fn; i++)
        if (h->fn[i].name == sym)
            return &h->fn[i];
    return NULL;
}

static bool host_variable(void *ctx, struct value *sym, struct value **out)
{
    struct host *h = ctx;
    for (size_t i = 0; i < h->n_var; i++)
        if (h->var[i] == sym) {
            *out = h->val[i];
            return true;
        }
    return false;
}

static struct value *host_symbol(void *ctx, const char *name, size_t len)
{
    struct host *h = ctx;
    char buf[64];
    snprintf(buf, sizeof buf, "%.*s%zu", (int)len, name, h->made++);
    return intern_uninterned(h->L, buf, strlen(buf));
}

static struct value *read1(struct lisp *L, const char *text)
{
    struct read_result r;
    if (!read_source_opts(L, (const uint8_t *)text, strlen(text), READ_NO_ORIGIN, &r) ||
        r.n_forms != 1)
        fail_msg("cannot read: %s", text);
    return r.forms[0].v;
}

static const char *const defs[] = {
    "(defun my-twice (x) (* 2 x))",
    "(defun my-fact (n) (if (<= n 1) 1 (* n (my-fact (1- n)))))",
    "(defun my-forever (n) (my-forever (1+ n)))",
    "(defun my-opt (a &optional b &rest c) (list a b c))",
    "(defun my-io () (insert \"x\"))",
    "(defmacro my-swap (a b) `(list ,b ,a))",
    "(cl-defun my-keys (a &key (b 2) c) (list a b c))",
    "(cl-defmacro my-destr ((x y) &body body) `(list ',x ',y ,@body))",
    "(cl-defun my-any-keys (&key a &allow-other-keys) a)",
    "(defvar my-prefix \"pfx-\")",
    "(defvar my-counter 0)",
    "(defun my-next () (setq my-counter (1+ my-counter)))",
    "(defmacro my-gen () (my-next))",
    "(defun my-read-prefix () my-prefix)",
    "(defun my-param (my-prefix) (my-read-prefix))",
    /* Emacs 30.1 progmodes/xref.el */
    "(defmacro xref--defstruct (name &rest fields)"
    "  (declare (indent 1))"
    "  `(cl-defstruct ,(if (>= emacs-major-version 27)"
    "                      name"
    "                    (remq (assq :noinline name) name))"
    "     ,@fields))",
};

static void host_init(struct host *h, struct lisp *L)
{
    memset(h, 0, sizeof *h);
    h->L = L;
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) {
        struct value *f = read1(L, defs[i]);
        const char *head = value_car(f)->u.sym.name;
        struct value *name = value_car(value_cdr(f));
        struct value *rest = value_cdr(value_cdr(f));
        if (strcmp(head, "defvar") == 0) {
            h->var[h->n_var] = name;
            h->val[h->n_var++] = value_car(rest);
            continue;
        }
        struct interp_fn *fn = &h->fn[h->n_fn++];
        fn->name = name;
        fn->args = value_car(rest);
        fn->body = value_cdr(rest);
        fn->env = L->nil;
        fn->macro = strstr(head, "defmacro") != NULL;
        fn->cl = strncmp(head, "cl-", 3) == 0;
    }
}

/* "PREFIX MESSAGE" in L's arena. */
static const char *tagged(struct lisp *L, const char *prefix, const char *message)
{
    size_t n = strlen(prefix) + strlen(message) + 2;
    char *t = ARENA_NEWN(L->a, char, n);
    snprintf(t, n, "%s %s", prefix, message);
    return t;
}

/* What evaluating text gives, as the cases write it. */
static const char *outcome(struct lisp *L, struct interp_host *ih, const char *text)
{
    struct interp_result r;
    interp_eval(L, ih, read1(L, text), &r);
    switch (r.status) {
    case INTERP_OK:
        return support_print(L, r.value);
    case INTERP_SIGNAL:
        return tagged(L, "!signal", r.message);
    case INTERP_UNKNOWN:
        return tagged(L, "!unknown", r.message);
    case INTERP_LIMIT:
        return tagged(L, "!limit", r.message);
    }
    return NULL;
}

/* The fixture of every test: an arena, a symbol table, the host. */
struct fx {
    struct arena *a;
    struct lisp *L;
    struct host h;
    struct interp_host ih;
};

static struct fx *fx_new(void)
{
    struct fx *f = test_calloc(1, sizeof *f);
    f->a = support_arena();
    f->L = intern_new(f->a);
    host_init(&f->h, f->L);
    f->ih = (struct interp_host){host_function, host_variable, host_symbol, &f->h, NULL, NULL};
    return f;
}

static void fx_free(struct fx *f)
{
    arena_free(f->a);
    test_free(f);
}

struct eval_case {
    const char *form, *want;
};

static const struct eval_case cases[] = {
    /* data and quoting */
    {"'(a . b)", "(a . b)"},
    {"\"s\"", "\"s\""},
    {":k", ":k"},
    {"[1 x]", "[1 x]"},
    {"(list 1 'a \"s\")", "(1 a \"s\")"},
    {"(cons 1 2)", "(1 . 2)"},
    {"(append '(1) '(2 3) nil '(4 . 5))", "(1 2 3 4 . 5)"},
    {"(append [1 2] nil)", "(1 2)"},
    {"(car '(1 2))", "1"},
    {"(cdr '(1 2))", "(2)"},
    {"(car nil)", "nil"},
    {"(car 3)", "!signal Wrong type argument: listp, 3"},
    {"(car-safe 3)", "nil"},
    {"(cadr '(1 2 3))", "2"},
    {"(cddr '(1 2 3))", "(3)"},
    {"(nth 2 '(a b c d))", "c"},
    {"(nth 9 '(a b))", "nil"},
    {"(nthcdr 1 '(a b c))", "(b c)"},
    {"(last '(1 2 3))", "(3)"},
    {"(last '(1 2 3) 2)", "(2 3)"},
    {"(butlast '(1 2 3))", "(1 2)"},
    {"(length '(1 2 3))", "3"},
    {"(length \"h\\u00e9\")", "2"},
    {"(reverse '(1 2 3))", "(3 2 1)"},
    {"(nreverse (list 1 2 3))", "(3 2 1)"},
    {"(elt [a b c] 1)", "b"},
    {"(aref [a b c] 3)", "!signal Args out of range: [a b c], 3"},
    {"(number-sequence 1 4)", "(1 2 3 4)"},
    {"(flatten-tree '(1 (2 (3 nil)) 4))", "(1 2 3 4)"},
    {"(make-list 2 'x)", "(x x)"},
    /* backquote */
    {"(let ((x 1) (y '(2 3))) `(a ,x ,@y b))", "(a 1 2 3 b)"},
    {"(let ((y '(2 3))) `(a . ,y))", "(a 2 3)"},
    {"(let ((x 1)) `[a ,x])", "[a 1]"},
    {"(let ((x 1)) `(a `(b ,(c ,x))))", "(a `(b ,(c 1)))"},
    {"(let ((y '(2))) `(,@y))", "(2)"},
    /* control */
    {"(if nil 1 2 3)", "3"},
    {"(if 0 1 2)", "1"},
    {"(cond ((eq 1 2) 'a) ((+ 1 1)) (t 'c))", "2"},
    {"(when t 1 2)", "2"},
    {"(unless t 1)", "nil"},
    {"(and 1 2)", "2"},
    {"(and 1 nil 2)", "nil"},
    {"(or nil 2)", "2"},
    {"(not 3)", "nil"},
    {"(progn 1 2)", "2"},
    {"(prog1 1 2)", "1"},
    {"(let ((x 1) (y 2)) (let ((x y) (y x)) (list x y)))", "(2 1)"},
    {"(let* ((x 1) (y (1+ x))) (list x y))", "(1 2)"},
    {"(let ((x 1)) (setq x (+ x 10)) x)", "11"},
    {"(setq zz 1)", "!unknown variable zz"},
    {"(let ((n 0) (l nil)) (while (< n 3) (push n l) (setq n (1+ n))) l)", "(2 1 0)"},
    {"(let (r) (dolist (x '(1 2 3) r) (push (* x x) r)))", "(9 4 1)"},
    {"(let (r) (dotimes (i 3) (push i r)) r)", "(2 1 0)"},
    /* a fresh binding at each turn: closures keep their own */
    {"(let (fs) (dolist (x '(1 2)) (push (lambda () x) fs)) (mapcar #'funcall fs))", "(2 1)"},
    {"(let (fs) (dotimes (i 2) (push (lambda () i) fs)) (mapcar #'funcall fs))", "(1 0)"},
    {"(let ((l '(1 2))) (list (pop l) l))", "(1 (2))"},
    {"(if-let ((a 1) (b 2)) (+ a b) 'no)", "3"},
    {"(when-let ((a nil)) 'yes)", "nil"},
    {"(and-let* ((a 1) ((> a 0))) 'pos)", "pos"},
    {"(cl-case 2 (1 'one) ((2 3) 'two) (t 'other))", "two"},
    {"(condition-case e (car 1) (wrong-type-argument (list 'caught (car e))))",
     "(caught wrong-type-argument)"},
    {"(condition-case nil (error \"x\") (error 'caught))", "caught"},
    {"(ignore-errors (error \"no\"))", "nil"},
    {"(condition-case nil (my-io) (error 'caught))", "!unknown function insert"},
    /* functions as values */
    {"(mapcar (lambda (x) (* x 2)) '(1 2 3))", "(2 4 6)"},
    {"(mapcar #'car '((a) (b)))", "(a b)"},
    {"(mapcar #'1+ [1 2])", "(2 3)"},
    {"(mapcan (lambda (x) (list x x)) '(1 2))", "(1 1 2 2)"},
    {"(let ((k 10)) (mapcar (lambda (x) (+ x k)) '(1 2)))", "(11 12)"},
    {"(funcall (let ((k 5)) (lambda (x) (* x k))) 2)", "10"},
    {"(apply #'+ 1 2 '(3 4))", "10"},
    {"(funcall 'list 1 2)", "(1 2)"},
    {"(mapconcat #'symbol-name '(a b) \"-\")", "\"a-b\""},
    {"(seq-filter #'numberp '(1 a 2))", "(1 2)"},
    {"(funcall 'when t)", "!signal Invalid function: when"},
    /* equality, membership */
    {"(eq 'a 'a)", "t"},
    {"(eq 1 1)", "t"},
    {"(eq \"a\" \"a\")", "nil"},
    {"(eql 1.0 1.0)", "t"},
    {"(equal '(1 \"a\") '(1 \"a\"))", "t"},
    {"(memq 'b '(a b c))", "(b c)"},
    {"(member \"b\" '(\"a\" \"b\"))", "(\"b\")"},
    {"(assq 'b '((a . 1) (b . 2)))", "(b . 2)"},
    {"(assoc \"b\" '((\"a\" . 1) (\"b\" . 2)))", "(\"b\" . 2)"},
    {"(alist-get 'b '((a . 1) (b . 2)))", "2"},
    {"(plist-get '(:a 1 :b 2) :b)", "2"},
    {"(plist-put '(:a 1) :b 2)", "(:a 1 :b 2)"},
    {"(remq 'a '(a b a c))", "(b c)"},
    {"(delq nil '(1 nil 2))", "(1 2)"},
    {"(remove \"a\" '(\"a\" \"b\"))", "(\"b\")"},
    {"(delete-dups '(1 2 1 3 2))", "(1 2 3)"},
    /* type predicates */
    {"(list (symbolp 'a) (symbolp nil) (consp nil) (listp nil) (atom '(1)))", "(t t nil t nil)"},
    {"(list (stringp \"\") (integerp 1) (integerp 1.0) (numberp 1.5) (floatp 1))",
     "(t t nil t nil)"},
    {"(list (keywordp :a) (keywordp 'a) (vectorp []) (natnump -1) (booleanp nil))",
     "(t nil t nil t)"},
    {"(list (functionp 'car) (functionp (lambda ())) (functionp 'when) (functionp 'my-twice))",
     "(t t nil t)"},
    /* symbols and strings */
    {"(intern \"foo\")", "foo"},
    {"(eq (intern \"foo\") 'foo)", "t"},
    {"(symbol-name 'foo-bar)", "\"foo-bar\""},
    {"(intern (format \"%s-%d\" 'my 3))", "my-3"},
    {"(format \"%S and %s\" \"q\" \"r\")", "\"\\\"q\\\" and r\""},
    {"(format \"%3d|%-3s|%x|%c|%%\" 5 'ab 255 ?z)", "\"  5|ab |ff|z|%\""},
    {"(format \"%.2f\" 1.5)", "\"1.50\""},
    {"(format \"%i|%03i\" 5 7)", "\"5|007\""},
    {"(format \"%d\")", "!signal Not enough arguments for format string"},
    {"(concat \"a\" nil \"b\" '(?c))", "\"abc\""},
    {"(string ?a ?b)", "\"ab\""},
    {"(substring \"hello\" 1 3)", "\"el\""},
    {"(substring \"hello\" -2)", "\"lo\""},
    {"(string-prefix-p \"he\" \"hello\")", "t"},
    {"(string-suffix-p \"lo\" \"hello\")", "t"},
    {"(string= \"a\" 'a)", "t"},
    {"(string-join '(\"a\" \"b\") \", \")", "\"a, b\""},
    {"(upcase \"abc\")", "\"ABC\""},
    {"(number-to-string 1.5)", "\"1.5\""},
    {"(string-to-number \"42\")", "42"},
    {"(symbolp (make-symbol \"tmp\"))", "t"},
    {"(eq (make-symbol \"tmp\") 'tmp)", "nil"},
    /* numbers */
    {"(+ 1 2 3)", "6"},
    {"(- 10 1 2)", "7"},
    {"(- 3)", "-3"},
    {"(* 2 3.0)", "6.0"},
    {"(/ 7 2)", "3"},
    {"(/ 7 2.0)", "3.5"},
    {"(/ 1 0)", "!signal Arithmetic error"},
    {"(% -7 2)", "-1"},
    {"(mod -7 2)", "1"},
    {"(list (< 1 2 3) (<= 2 2) (> 1 2) (>= 3 3) (= 1 1.0) (/= 1 2))", "(t t nil t t t)"},
    {"(list (max 1 3 2) (min 1 3 2) (abs -4) (1+ 1) (1- 1) (zerop 0))", "(3 1 4 2 0 t)"},
    {"(max 1 2.0)", "2.0"},
    {"(* most-positive-fixnum 2)",
     "!limit an integer outgrew the fixnum range (bignums are not evaluated)"},
    {"(< 'a 1)", "!signal Wrong type argument: number-or-marker-p, a"},
    /* constants, errors */
    {"emacs-major-version", "30"},
    {"(>= emacs-major-version 27)", "t"},
    {"(error \"Bad %s: %d\" 'thing 3)", "!signal Bad thing: 3"},
    {"(signal 'wrong-type-argument '(listp 3))", "!signal Wrong type argument: listp, 3"},
    {"(user-error \"nope\")", "!signal nope"},
    {"(buffer-string)", "!unknown function buffer-string"},
    /* named before its arguments, which may not be code */
    {"(cl-flet ((f (x) x)) (f 1))", "!unknown function cl-flet"},
    {"undefined-var", "!unknown variable undefined-var"},
    {"(let ((nil 1)) nil)", "!signal Attempt to set a constant symbol: nil"},
    {"(1 2)", "!signal Invalid function: 1"},
    /* the host's definitions */
    {"(my-twice 21)", "42"},
    {"(my-fact 10)", "3628800"},
    {"(my-opt 1)", "(1 nil nil)"},
    {"(my-opt 1 2 3 4)", "(1 2 (3 4))"},
    {"(my-opt)", "!signal Wrong number of arguments: my-opt, 0"},
    {"(my-twice 1 2)", "!signal Wrong number of arguments: my-twice, 2"},
    {"(my-swap 1 2)", "(2 1)"},
    {"(my-keys 1 :c 3)", "(1 2 3)"},
    {"(my-keys 1 :d 3)", "!signal Keyword argument :d not one of the keys"},
    {"(my-destr (p q) 7)", "(p q 7)"},
    {"(my-any-keys :b 1 :a 2)", "2"},
    {"(concat my-prefix \"x\")", "\"pfx-x\""},
    {"(my-io)", "!unknown function insert"},
    {"((lambda (x) (list x x)) 1)", "(1 1)"},
    /* Emacs 30.1 eshell/esh-var.el, the body of eshell-index-range */
    {"(let ((start 's) (end 'e))"
     "  (list '\\` (cons (list '\\, `(and (or (pred integerp) (pred null)) ,start))"
     "                  (list '\\, `(and (or (pred integerp) (pred null)) ,end)))))",
     "`(,(and (or (pred integerp) (pred null)) s) \\, (and (or (pred integerp) (pred null)) "
     "e))"},
    {"(macroexpand-1 '(my-swap 1 2))", "!unknown function macroexpand-1"},
    /* special variables: setq sets the global value until the evaluation
     * ends, let and a parameter bind dynamically */
    {"(list (my-next) (my-next) my-counter)", "(1 2 2)"},
    {"my-counter", "0"},
    {"(let ((my-prefix \"dyn-\")) (my-read-prefix))", "\"dyn-\""},
    {"(list (let ((my-prefix \"a\")) (my-read-prefix)) (my-read-prefix))", "(\"a\" \"pfx-\")"},
    {"(let* ((my-prefix \"a\") (x (my-read-prefix))) (list x my-prefix))", "(\"a\" \"a\")"},
    {"(progn (setq my-prefix \"set\") (my-read-prefix))", "\"set\""},
    {"(list (my-param \"p\") (my-read-prefix))", "(\"p\" \"pfx-\")"},
    {"(list (ignore-errors (let ((my-prefix \"in\")) (error \"x\"))) (my-read-prefix))",
     "(nil \"pfx-\")"},
    {"(condition-case nil (let ((my-prefix \"in\")) (error \"x\")) (error (my-read-prefix)))",
     "\"pfx-\""},
    {"(setq my-undefined 1)", "!unknown variable my-undefined"},
    {"(list case-fold-search (let ((case-fold-search nil)) case-fold-search))", "(t nil)"},
    /* a macro call form is expanded once (Emacs expands a body once):
     * my-gen's expansion is the counter's value at that time */
    {"(let ((f (lambda () (my-gen)))) (list (funcall f) (funcall f)))", "(1 1)"},
    {"(list (my-gen) (my-gen))", "(1 2)"},
    {"(let ((x 1)) (setf x 2) x)", "2"},
    {"(let ((x (list 1))) (setf (car x) 2) x)", "!unknown function setf"},
    {"(with-case-table ascii-case-table (upcase \"ab\"))", "\"AB\""},
    {"(with-case-table (standard-case-table) 1)", "!unknown function with-case-table"},
    /* regexps: what the evaluator does not know is refused (the values
     * it gives are regexp-cases.tsv's, test_regexp_cases) */
    {"(string-match \"\\\\_<a\" \"a\")", "!unknown function (string-match \"\\\\_<a\")"},
    {"(string-match \"\\\\(?1:a\\\\)\" \"a\")",
     "!unknown function (string-match \"\\\\(?1:a\\\\)\")"},
    {"(string-match \"\\\\ca\" \"a\")", "!unknown function (string-match \"\\\\ca\")"},
    {"(string-match \"\\u00e9\" \"\\u00c9\")", "!unknown function (string-match \"\u00e9\")"},
    {"(let ((case-fold-search nil)) (string-match \"\\u00e9\" \"a\\u00e9\"))", "1"},
    {"(string-match \"\\\\w\" \"$\")", "!unknown function (string-match \"\\\\w\")"},
    {"(string-match \"\\\\w\" \"a\\nb\")", "!unknown function (string-match \"\\\\w\")"},
    {"(let ((case-fold-search nil)) (string-match \"[[:alpha:]]\" \"\\u00e9\"))",
     "!unknown function (string-match \"[[:alpha:]]\")"},
    {"(match-beginning 0)", "!unknown function match-beginning"},
    {"(progn (string-match \"a\" \"a\") (match-string 0))", "!unknown function match-string"},
    {"(progn (string-match \"a\" \"a\") (replace-match \"b\"))",
     "!unknown function replace-match"},
    {"(split-string \"a b\" nil nil \"x\")", "!unknown function split-string"},
    /* Emacs's message has the quotes of the locale's text-quoting-style */
    {"(progn (string-match \"b\" \"abc\") (replace-match \"\\\\x\" t nil \"abc\"))",
     "!signal Invalid use of `\\' in replacement text"},
    {"(replace-regexp-in-string \"a\" \"b\" \"a\" nil nil 1)",
     "!unknown function replace-regexp-in-string"},
    {"(string-match \"\\\\(a*\\\\)*b\" \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\")",
     "!limit the evaluation took more than 1000000 steps"},
};

static void test_cases(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct lisp *L = f->L;
    struct interp_host *ih = &f->ih;
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = outcome(L, ih, cases[i].form);
        if (strcmp(got, cases[i].want) != 0) {
            print_message("%s\n  want: %s\n  got:  %s\n", cases[i].form, cases[i].want, got);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
    fx_free(f);
}

/* The wrapper macro of xref.el expands to the cl-defstruct it wraps. */
static void test_xref_defstruct(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct lisp *L = f->L;
    struct host *h = &f->h;
    struct interp_host *ih = &f->ih;
    const struct interp_fn *fn = host_function(h, intern_cstr(L, "xref--defstruct"));
    assert_non_null(fn);
    struct value *args = read1(L, "((xref-item (:constructor xref-make (summary location))"
                                  " (:noinline t)) \"doc\" (summary nil) location)");
    struct interp_result r;
    interp_apply(L, ih, fn, args, &r);
    assert_int_equal(r.status, INTERP_OK);
    assert_string_equal(support_print(L, r.value),
                        "(cl-defstruct (xref-item (:constructor xref-make (summary location)) "
                        "(:noinline t)) \"doc\" (summary nil) location)");
    fx_free(f);
}

/* make-symbol and gensym ask the host, in evaluation order. */
static void test_symbols_from_host(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct lisp *L = f->L;
    struct host *h = &f->h;
    struct interp_host *ih = &f->ih;
    assert_string_equal(outcome(L, ih, "(list (make-symbol \"v\") (gensym) (gensym \"p\"))"),
                        "(v0 g1 p2)");
    assert_int_equal(h->made, 3);
    fx_free(f);
}

/* prin1 with print-escape-newlines and print-escape-control-characters,
 * as regexp-cases.el writes values. */
static const char *escaped(struct lisp *L, const struct value *v)
{
    struct buf b;
    struct print_opts o = print_opts_default();
    o.escape_newlines = true;
    o.escape_control = true;
    buf_init(&b, L->a);
    print_value(L, &b, v, &o);
    return buf_cstr(&b);
}

/* The evaluator gives Emacs's values for the forms of
 * testdata/expand/interp/regexp-cases.tsv (its second column, made and
 * checked by Emacs 30.1: regexp-cases.el): the value as prin1 prints it,
 * or ERROR: and the signal. */
static void test_regexp_cases(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct lisp *L = f->L;
    size_t n;
    char *text = support_slurp(support_testdata("expand/interp/regexp-cases.tsv"), &n);
    int rows = 0, bad = 0;
    char *line = strchr(text, '\n') + 1; /* past the header */
    while (*line) {
        char *end = strchr(line, '\n'), *tab = strchr(line, '\t');
        *end = 0;
        *tab = 0;
        struct interp_result r;
        interp_eval(L, &f->ih, read1(L, line), &r);
        const char *got = r.status == INTERP_OK       ? escaped(L, r.value)
                          : r.status == INTERP_SIGNAL ? escaped(L, r.signal)
                                                      : tagged(L, "!", r.message);
        const char *want = tab + 1;
        if (r.status == INTERP_SIGNAL && strncmp(want, "ERROR:", 6) == 0)
            want += 6;
        if (strcmp(got, want) != 0) {
            print_message("%s\n  emacs: %s\n  got:   %s\n", line, tab + 1, got);
            bad++;
        }
        rows++;
        line = end + 1;
    }
    assert_true(rows >= 100);
    assert_int_equal(bad, 0);
    test_free(text);
    fx_free(f);
}

/* ---- limits ---- */

static struct interp_result run(struct lisp *L, struct interp_host *ih, const char *text)
{
    struct interp_result r;
    interp_eval(L, ih, read1(L, text), &r);
    return r;
}

static void test_step_limit(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct lisp *L = f->L;
    struct interp_host bare = {0}, *ih = &bare;
    struct interp_result r = run(L, ih, "(while t)");
    assert_int_equal(r.status, INTERP_LIMIT);
    assert_string_equal(r.message, "the evaluation took more than 1000000 steps");
    assert_true(r.steps > INTERP_MAX_STEPS && r.steps <= INTERP_MAX_STEPS + 1);
    fx_free(f);
}

static void test_memory_limit(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct arena *a = f->a;
    struct lisp *L = f->L;
    struct interp_host bare = {0}, *ih = &bare;
    /* doubling a list: 2^30 elements if nothing stopped it */
    struct interp_result r =
        run(L, ih, "(let ((l '(x))) (dotimes (_ 30) (setq l (append l l))) (length l))");
    assert_int_equal(r.status, INTERP_LIMIT);
    assert_string_equal(r.message, "the evaluation made more than 64 MiB of values");
    /* what was made stays near the limit */
    assert_true(a->total < 4 * INTERP_MAX_BYTES);
    r = run(L, ih, "(length (make-list 100000000 nil))");
    assert_int_equal(r.status, INTERP_LIMIT);
    fx_free(f);
}

static void test_depth_limit(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct arena *a = f->a;
    struct lisp *L = f->L;
    struct interp_host *ih = &f->ih;
    struct interp_result r = run(L, ih, "(my-forever 0)");
    assert_int_equal(r.status, INTERP_LIMIT);
    assert_string_equal(r.message, "the evaluation nested more than 500 levels deep");
    /* deep data in a form: each level is an evaluation */
    char *deep = ARENA_NEWN(a, char, 20 * 1000 + 8);
    char *p = deep;
    for (int i = 0; i < 1000; i++)
        p += sprintf(p, "(list ");
    p += sprintf(p, "1");
    for (int i = 0; i < 1000; i++)
        *p++ = ')';
    *p = 0;
    r = run(L, ih, deep);
    assert_int_equal(r.status, INTERP_LIMIT);
    /* a deep backquote template */
    p = deep;
    p += sprintf(p, "`");
    for (int i = 0; i < 1000; i++)
        *p++ = '(';
    for (int i = 0; i < 1000; i++)
        *p++ = ')';
    *p = 0;
    r = run(L, ih, deep);
    assert_int_equal(r.status, INTERP_LIMIT);
    assert_string_equal(r.message, "the evaluation nested more than 500 levels deep");
    fx_free(f);
}

/* The run's budget: shared by the evaluations, each taking from it. */
static void test_run_budget(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct lisp *L = f->L;
    struct interp_budget b = {.steps = 100, .bytes = (size_t)1 << 20};
    struct interp_host budgeted = {.budget = &b}, *ih = &budgeted;
    struct interp_result r = run(L, ih, "(+ 1 2)");
    assert_int_equal(r.status, INTERP_OK);
    assert_int_equal(b.steps, 100 - r.steps);
    r = run(L, ih, "(let ((n 0)) (while (< n 1000) (setq n (1+ n))) n)");
    assert_int_equal(r.status, INTERP_LIMIT);
    assert_string_equal(r.message, "the evaluations of this input took more than 20000000 steps");
    assert_int_equal(b.steps, 0);
    r = run(L, ih, "1");
    assert_int_equal(r.status, INTERP_LIMIT); /* spent: nothing more runs */
    interp_budget_init(&b);
    assert_int_equal(b.steps, INTERP_RUN_STEPS);
    assert_int_equal(b.bytes, INTERP_RUN_BYTES);
    fx_free(f);
}

/* An unknown function is named, even inside condition-case (it is not a
 * signal), and so is a macro that is called as a function. */
static void test_unknown_names_function(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct lisp *L = f->L;
    struct interp_host bare = {0}, *ih = &bare;
    struct interp_result r = run(L, ih, "(ignore-errors (buffer-substring 1 2))");
    assert_int_equal(r.status, INTERP_UNKNOWN);
    assert_string_equal(support_print(L, r.what), "buffer-substring");
    assert_false(r.variable);
    assert_string_equal(r.message, "function buffer-substring");
    fx_free(f);
}

static void test_tables(void **state)
{
    (void)state;
    assert_true(interp_tables_sorted());
    assert_true(interp_knows("mapcar"));
    assert_true(interp_knows("let*"));
    assert_false(interp_knows("insert"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_regexp_cases),
        cmocka_unit_test(test_xref_defstruct),
        cmocka_unit_test(test_symbols_from_host),
        cmocka_unit_test(test_step_limit),
        cmocka_unit_test(test_memory_limit),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_run_budget),
        cmocka_unit_test(test_unknown_names_function),
        cmocka_unit_test(test_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
