/* test_condstar.c - the cond* front end (condstar.c, matchstar.c, bquote.c).
 *
 * Unit tests: the head table; backquote lowering against the expansions
 * Emacs 28.2 gives (testdata/expand/cond-star/backquote.tsv); every case of
 * the conformance suite (testdata/conformance/cond-star/cases.tsv) expands
 * or fails as expected (the same with the memo cache off), with the
 * expected warnings, no input cons copied twice (each datum, condition and
 * value is evaluated at most once) and no expansion outside the output
 * vocabulary of cli.md section 9 (the check is tested too); the goldens
 * of testdata/expand/cond-star/ (output and diagnostics, memo cache on and
 * off, output vocabulary).  With PCX_UPDATE_GOLDENS=1 the goldens are
 * rewritten instead.  The same goldens and the conformance cases also run
 * through the pcexpand program (cmd/tests/meson.build, cond* section).
 */
#include "support.h"

#include <string.h>

#include "expand/bquote.h"
#include "expand/condstar.h"
#include "expand/matchstar.h"
#include "lisp/print.h"

/* ---- properties of an expansion ---- */

/* Input conses met in an expansion (by identity). */
struct seen {
    const struct read_result *src; /* tells input conses from generated ones */
    const struct value **v;
    size_t n, cap;
    struct arena *a;
};

static bool note_cons(void *ctx, const struct value *c)
{
    struct seen *s = ctx;
    struct span sp;
    if (!read_origin_span(s->src, c, &sp))
        return true; /* generated (accessors are shared on purpose) */
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == c)
            return false;
    if (s->n == s->cap) {
        s->v = arena_grow(s->a, s->v, s->cap * sizeof *s->v, 2 * s->cap * sizeof *s->v);
        s->cap *= 2;
    }
    s->v[s->n++] = c;
    return true;
}

/* No cons of the input occurs twice in the expansion: nothing (a datum,
 * a condition, a bind* value) is copied into two places, so nothing is
 * evaluated twice.  Quoted data is not looked into. */
static bool no_copies(struct support_run *r, const struct value *e)
{
    struct seen s = {&r->rr, NULL, 0, 16, r->a};
    s.v = ARENA_NEWN(r->a, const struct value *, s.cap);
    return support_each_cons(r->a, e, r->L->quote, note_cons, &s);
}

/* The backquoted forms of the input, lowered as match* lowers them. */
struct lowered {
    struct support_run *r;
    struct condstar_syms S;
    struct value *list; /* their expansions */
};

static bool lower_backquote(void *ctx, const struct value *c)
{
    struct lowered *l = ctx;
    if (value_car(c) != l->S.backquote)
        return true;
    struct diag_list *diags = l->r->x.diags, scratch; /* errors are not ours */
    diag_init(&scratch, l->r->a);
    l->r->x.diags = &scratch;
    struct condstar_at at = {c, NULL};
    struct value *e = bquote_expand(&l->r->x, &l->S, (struct value *)c, at);
    l->r->x.diags = diags;
    if (e)
        l->list = value_cons(l->r->a, e, l->list);
    return true;
}

/* cli.md section 9 for cond*: a backquoted match* pattern is matched as
 * its expansion, so the functions that expansion names (`append' made a
 * predicate, `list' in its arguments) count as named by the input. */
static const char *vocabulary(struct support_run *r, const struct value *e)
{
    struct lowered l = {r, {0}, r->L->nil};
    condstar_syms_init(&l.S, r->L);
    for (size_t i = 0; i < r->rr.n_forms; i++)
        support_each_cons(r->a, r->rr.forms[i].v, NULL, lower_backquote, &l);
    return support_vocabulary_also(r, e, l.list);
}

/* ---- the head table and backquote ---- */

static void test_heads_sorted(void **state)
{
    (void)state;
    assert_true(matchstar_heads_sorted());
}

/* Each template of backquote.tsv lowers to what Emacs's macroexpand gave. */
static void test_backquote_like_emacs(void **state)
{
    (void)state;
    size_t n;
    char *data = support_slurp(support_testdata("expand/cond-star/backquote.tsv"), &n);
    int rows = 0;
    for (char *line = strtok(data, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = 0;
        struct arena *a = support_arena();
        struct support_run r;
        support_run_text(&r, a, line, strlen(line), true);
        struct condstar_syms S;
        condstar_syms_init(&S, r.L);
        struct condstar_at at = {r.rr.forms[0].v, NULL};
        struct value *e = bquote_expand(&r.x, &S, r.rr.forms[0].v, at);
        assert_non_null(e);
        struct buf b;
        buf_init(&b, a);
        struct print_opts o = print_opts_default();
        print_value(r.L, &b, e, &o);
        if (strcmp(buf_cstr(&b), tab + 1) != 0)
            fail_msg("%s: got %s, Emacs gives %s", line, buf_cstr(&b), tab + 1);
        arena_free(a);
        rows++;
    }
    assert_true(rows >= 40);
    test_free(data);
}

/* ---- the conformance cases ---- */

/* Columns of one row of cases.tsv (the line is cut up in place). */
struct row {
    char *id, *form, *expected, *log, *diag;
};

static bool split_row(char *line, struct row *w)
{
    char *col[6] = {0};
    int k = 0;
    for (char *p = line; k < 6; k++) {
        col[k] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p++ = 0;
    }
    if (k < 4)
        return false;
    *w = (struct row){col[0], col[1], col[2], col[3], col[4] ? col[4] : ""};
    return true;
}

/* Do the warnings of r agree with the row's diagnostics column? */
static void check_warnings(struct support_run *r, const struct row *w)
{
    size_t divergence = 0;
    for (size_t i = 0; i < r->dl.n; i++) {
        const struct diag *d = &r->dl.items[i];
        if (d->sev == DIAG_WARNING && strcmp(d->code, "emacs-divergence") == 0)
            divergence++;
        else if (d->sev == DIAG_WARNING && strcmp(d->code, w->diag) != 0)
            fail_msg("%s: unexpected warning %s: %s", w->id, d->code, d->message);
    }
    if (strcmp(w->diag, "emacs-divergence") == 0 && divergence == 0)
        fail_msg("%s: no emacs-divergence warning", w->id);
    if (strcmp(w->diag, "emacs-divergence") != 0 && divergence > 0)
        fail_msg("%s: unexpected emacs-divergence warning", w->id);
}

/* The same expansion (or error) and diagnostics with the memo cache off. */
static void check_memo_off(struct support_run *on, const struct row *w)
{
    struct support_run off;
    support_run_text(&off, on->a, w->form, strlen(w->form), false);
    if (strcmp(support_run_diags(on, "t.el"), support_run_diags(&off, "t.el")) != 0 ||
        on->failed != off.failed ||
        (!on->failed && strcmp(support_run_compact(on, 0), support_run_compact(&off, 0)) != 0))
        fail_msg("%s: the memo cache changes the expansion", w->id);
}

static void check_case(const struct row *w)
{
    struct arena *a = support_arena();
    struct support_run r;
    support_run_text(&r, a, w->form, strlen(w->form), true);
    assert_int_equal(r.rr.n_forms, 1);
    if (strncmp(w->expected, "XERROR:", 7) == 0) {
        if (!r.failed)
            fail_msg("%s: expanded, expected an error", w->id);
        assert_true(r.dl.n_errors > 0);
        assert_string_equal(r.dl.items[r.dl.n - 1].code, w->expected + 7);
    } else {
        if (r.failed)
            fail_msg("%s: %s", w->id, r.dl.items[r.dl.n - 1].message);
        check_warnings(&r, w);
        const char *bad = vocabulary(&r, r.out[0]);
        if (bad)
            fail_msg("%s: %s", w->id, bad);
        if (!strstr(w->form, "pcase*") && !no_copies(&r, r.out[0]))
            fail_msg("%s: an input form occurs twice in the expansion", w->id);
    }
    check_memo_off(&r, w);
    arena_free(a);
}

static void test_conformance_cases(void **state)
{
    (void)state;
    size_t n;
    char *data = support_slurp(support_testdata("conformance/cond-star/cases.tsv"), &n);
    int cases = 0;
    char *save = NULL;
    for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        struct row w = {0};
        if (line[0] == '#')
            continue;
        assert_true(split_row(line, &w));
        check_case(&w);
        cases++;
    }
    assert_true(cases >= 150);
    test_free(data);
}

/* ---- goldens ---- */

/* Every golden, memo cache on and off, expansions inside the vocabulary. */
static void test_goldens(void **state)
{
    (void)state;
    assert_true(support_goldens("expand/cond-star", vocabulary) >= 40);
}

/* The vocabulary check itself: generated code (not read from the input)
 * with a head outside cli.md section 9 is found at any depth, in code
 * positions only; user code and functions the input names pass. */
static const char *vocabulary_of(struct support_run *r, const char *generated)
{
    struct value *v;
    size_t used;
    struct read_error err;
    assert_true(read_one(r->L, (const uint8_t *)generated, strlen(generated), &v,
                         &used, &err));
    return vocabulary(r, v);
}

static void test_vocabulary_check(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct support_run r;
    const char *text = "(cond* ((match* (my-pred x) v) (mapcar #'f x)))";
    support_run_text(&r, a, text, strlen(text), true);
    assert_false(r.failed);
    assert_null(vocabulary(&r, r.out[0]));
    assert_null(vocabulary_of(&r, "(let* ((x (car d))) (if (my-pred d) (mapcar x '(pcase 1))))"));
    assert_null(vocabulary_of(&r, "(cond ((eq d 'apply) (funcall (function (lambda (q) q)) 1)))"));
    assert_string_equal(vocabulary_of(&r, "(let* ((x (car d))) (if (eq d 1) (when (apply x d))))"),
                        "generated form outside the output vocabulary: (apply x d)");
    assert_non_null(vocabulary_of(&r, "(cond ((eq d 1) 1) (t (seq-elt d 1)))"));
    assert_non_null(vocabulary_of(&r, "(let ((y (vconcat d))) y)"));
    assert_non_null(vocabulary_of(&r, "(progn ((lambda (q) q) 1))"));
    assert_string_equal(vocabulary_of(&r, "(if d (pcase-let ((x d)) x))"),
                        "a pcase-family or cond* head remains");
    arena_free(a);
}

/* ---- positions ---- */

static void test_positions(void **state)
{
    (void)state;
    /* Q7 at the nil itself; the missing CDRPAT at its cons pattern. */
    support_expect_diags("(cond* ((match* (list a\n                       nil) x) a))",
                 "t.el:2:24: warning: nil sub-pattern: Emacs 30 enters the "
                 "debugger while expanding this (batch Emacs exits with status "
                 "255); pcexpand tests (eq nil VALUE) [emacs-divergence]\n");
    support_expect_diags("(cond* ((match* `(k ,(cons\tx)) y) x))",
                 "t.el:1:22: warning: nil sub-pattern: Emacs 30 enters the "
                 "debugger while expanding this (batch Emacs exits with status "
                 "255); pcexpand tests (eq nil VALUE) [emacs-divergence]\n");
    /* An error deep in a pattern, after a TAB (next multiple of 8). */
    support_expect_diags("(cond*\t((match* (list a (or)) x) a))",
                 "t.el:1:26: error: `or' subpattern with malformed or missing "
                 "arguments [malformed-pattern]\n");
    /* Only the first error of a form is reported; later forms go on. */
    support_expect_diags("(cond* ((match* (list) x)) ((match* (and) y)))\n"
                 "(cond* (t 1) oops)",
                 "t.el:1:17: error: `list' subpattern with malformed or "
                 "missing arguments [malformed-pattern]\n"
                 "t.el:2:14: error: cond* clause is not a list (Emacs 30 "
                 "signals wrong-type-argument listp) [malformed-pattern]\n");
}

/* The compact expansion of the single form in text. */
static void expect_compact(const char *text, const char *want)
{
    struct arena *a = support_arena();
    struct support_run r;
    support_run_text(&r, a, text, strlen(text), true);
    assert_false(r.failed);
    assert_string_equal(support_run_compact(&r, 0), want);
    arena_free(a);
}

/* rx: the regexp is computed while expanding, as Emacs's rx-to-string
 * computes it; names rx does not define here are left to run time. */
static void test_rx(void **state)
{
    (void)state;
    expect_compact("(cond* ((match* (rx (or \"ab\" (+ \"c\"))) s) 1))",
                   "(if (string-match \"ab\\\\|c+\\\\'\" s) 1)");
    /* rx-to-string runs before the datum is read: the datum is copied. */
    expect_compact("(cond* ((match* (rx (my-name)) s) 1))",
                   "(let ((pcx--d0 s)) (if (string-match (concat (rx-to-string "
                   "'(my-name) t) \"\\\\'\") pcx--d0) 1))");
    /* No submatch is taken for `_'; with only `_' the test is the match,
     * or t where the test is the value of the cond*. */
    expect_compact("(cond* ((match* (rx (group digit) _ d) s) d))",
                   "(let (pcx--ba0) (if (if (string-match \"\\\\([[:digit:]]\\\\)"
                   "\\\\'\" s) (progn (setq pcx--ba0 (match-string 1 s)) t)) "
                   "(let ((d pcx--ba0)) d)))");
    expect_compact("(cond* ((match* (rx digit _) s) 1))",
                   "(if (string-match \"[[:digit:]]\\\\'\" s) 1)");
    expect_compact("(cond* ((match* (rx digit _) s)))",
                   "(and (string-match \"[[:digit:]]\\\\'\" s) t)");
    support_expect_diags("(cond* ((match* (rx (literal x)) s) 1))",
                 "t.el:1:17: error: rx pattern: literal, regexp and eval need "
                 "constant arguments here (Emacs 30 signals an error while "
                 "expanding) [malformed-pattern]\n");
    /* rx-to-string sees rx-define's names, not rx-let's (only the rx
     * macro and the rx pattern read those) */
    const char *text = "(rx-define cs-g \"g\")\n"
                       "(rx-let ((cs-l \"l\")) (cond* ((match* (rx (seq cs-g cs-l)) s) 1)))\n"
                       "(cond* ((match* (rx (seq \"x\" cs-g)) s) 1))";
    struct arena *a = support_arena();
    struct support_run r;
    support_run_text(&r, a, text, strlen(text), true);
    assert_false(r.failed);
    assert_string_equal(support_run_compact(&r, 1),
                        "(rx-let ((cs-l \"l\")) (let ((pcx--d0 s)) (if (string-match "
                        "(concat (rx-to-string '(seq cs-g cs-l) t) \"\\\\'\") pcx--d0) "
                        "1)))");
    assert_string_equal(support_run_compact(&r, 2),
                        "(if (string-match \"xg\\\\'\" s) 1)");
    arena_free(a);
}

/* Shapes that matter beyond the value: the datum is bound once and only
 * when used, Q5 carries values in one temporary per variable, and a
 * literal t condition needs no test. */
static void test_shapes(void **state)
{
    (void)state;
    expect_compact("(cond* ((match* _ (f)) 1))", "(progn (f) 1)");
    expect_compact("(cond* ((match* (cons a _) (f)) a))",
                   "(let ((pcx--d0 (f))) (if (consp pcx--d0) (let ((a (car pcx--d0))) a)))");
    /* :non-exit not at the end is just a body form of an exit clause. */
    expect_compact("(cond* ((match* (cons a _) x) :non-exit a) (t a))",
                   "(if (consp x) (let ((a (car x))) :non-exit a) a)");
    expect_compact("(cond* ((match* (cons a _) x) (g a) :non-exit) (t a))",
                   "(let (pcx--ua0) (if (consp x) (let ((a (car x))) (prog1 (g a) "
                   "(setq pcx--ua0 a)))) (let ((a pcx--ua0)) a))");
    /* Aliases that are only assigned (the bindings are not emitted) are
     * named with `_', and nothing is stored for clauses that cannot use it;
     * the test is the value here, so the or stays an or. */
    expect_compact("(cond* ((match* (or (cons 'k v) 1) x)))",
                   "(let (_pcx--ba0) (or (and (consp x) (eq (car x) 'k) (progn "
                   "(setq _pcx--ba0 (cdr x)) t)) (setq _pcx--ba0 nil) (eql x 1)))");
    expect_compact("(cond* ((match* (cons a b) x) (g a) :non-exit) ((progn)))",
                   "(progn (if (consp x) (let ((a (car x)) (b (cdr x))) (g a))) nil)");
    expect_compact("(cond* ((f) 1) (t 2 3))", "(if (f) 1 2 3)");
    expect_compact("(cond* ((bind* (x (f)))) (t x))", "(let ((x (f))) x)");
}

/* Exit clauses make one flat cond, a final t clause its default; what
 * must enclose the later clauses ends it in a (t ...) clause.  Constant
 * conditions are decided while expanding. */
static void test_flat_cond(void **state)
{
    (void)state;
    expect_compact("(cond* ((eq x 'a) 1) ((match* 'b x) 2) ((match* 3 x) 3) (t 4))",
                   "(cond ((eq x 'a) 1) ((eq x 'b) 2) ((eql x 3) 3) (t 4))");
    expect_compact("(cond* ((eq x 'a) 1) ((f) :non-exit) ((eq x 'b) 2) ((eq x 'c) 3))",
                   "(if (eq x 'a) 1 (f) (cond ((eq x 'b) 2) ((eq x 'c) 3)))");
    expect_compact("(cond* (nil 1) ((f) 2) (:k 3) (t 4))", "(if (f) 2 3)");
    expect_compact("(cond* ((f) 1) (t nil))", "(if (f) 1)");
    expect_compact("(cond* (t) ((f) 1) (x) ((g) 2))", "(if (f) 1 x (if (g) 2))");
    expect_compact("(cond* ((f) 1 2))", "(when (f) 1 2)");
    /* pcase*'s tests join the cond when they end in the later clauses. */
    expect_compact("(cond* ((pcase* (pred stringp) x) 1) ((eq x 'a) 2) (t 3))",
                   "(cond ((stringp x) 1) ((eq x 'a) 2) (t 3))");
    /* A datum that must be copied keeps the later clauses inside its let. */
    expect_compact("(cond* ((eq x 'a) 1) ((match* 'b (f)) 2) ((eq x 'c) 3))",
                   "(if (eq x 'a) 1 (let ((pcx--d0 (f))) (cond ((eq pcx--d0 'b) 2) "
                   "((eq x 'c) 3))))");
}

/* A datum that is a variable is read by the test itself unless the
 * pattern runs code that could assign it (a predicate or constrain
 * expression that is not an inert built-in on constants and variables,
 * an expression run before the datum is read) or binds it. */
static void test_datum_read_directly(void **state)
{
    (void)state;
    expect_compact("(cond* ((match* (cons a (numberp b)) x) (list a b)))",
                   "(if (and (consp x) (numberp (cdr x))) (let ((a (car x)) (b (cdr x))) "
                   "(list a b)))");
    expect_compact("(cond* ((match* (cons a (> b 3)) x) (list a b)))",
                   "(if (and (consp x) (> (cdr x) 3)) (let ((a (car x)) (b (cdr x))) "
                   "(list a b)))");
    expect_compact("(cond* ((match* (cons a (my-pred b)) x) (list a b)))",
                   "(let ((pcx--d0 x)) (if (and (consp pcx--d0) (my-pred (cdr pcx--d0))) "
                   "(let ((a (car pcx--d0)) (b (cdr pcx--d0))) (list a b))))");
    expect_compact("(cond* ((match* (cons a (> b (f))) x) (list a b)))",
                   "(let ((pcx--d0 x)) (if (and (consp pcx--d0) (> (cdr pcx--d0) (f))) "
                   "(let ((a (car pcx--d0)) (b (cdr pcx--d0))) (list a b))))");
    expect_compact("(cond* ((match* (cons a (constrain _ (f))) x) a))",
                   "(let ((pcx--d0 x)) (if (and (consp pcx--d0) (f)) (let ((a (car pcx--d0))) a)))");
    expect_compact("(cond* ((match* (cons a (constrain b (< a b))) x) b))",
                   "(if (and (consp x) (let ((a (car x)) (b (cdr x))) (< a b))) "
                   "(let ((a (car x)) (b (cdr x))) b))");
    expect_compact("(cond* ((match* (cons x b) x) (list x b)))",
                   "(let ((pcx--d0 x)) (if (consp pcx--d0) (let ((x (car pcx--d0)) "
                   "(b (cdr pcx--d0))) (list x b))))");
}

/* Constant folding: nil is null, an or of constants is memq, memql or
 * member where only its truth counts, bind-and* has no (and t X) and no
 * temporary for `_', bind* tests its first variable when nothing can
 * have changed it, comparisons only left out where nothing reads them. */
static void test_folding(void **state)
{
    (void)state;
    expect_compact("(cond* ((match* (cons nil _) x) 1))", "(if (and (consp x) (null (car x))) 1)");
    expect_compact("(cond* ((match* (or 'a nil) x) 1) ((match* (or 'b 3) x) 2) "
                   "((match* (or 'c '\"s\") x) 3))",
                   "(cond ((memq x '(a nil)) 1) ((memql x '(b 3)) 2) "
                   "((member x '(c \"s\")) 3))");
    expect_compact("(cond* ((match* (or 'a 3) x)))", "(or (eq x 'a) (eql x 3))");
    expect_compact("(cond* ((match* (or 'a \"s\") x) 1))",
                   "(if (or (eq x 'a) (string-match \"s\\\\'\" x)) 1)");
    expect_compact("(cond* ((bind-and* (a (f)) (_ (g a)) (b (h a))) (list a b)) (t 0))",
                   "(progn (let* ((a (f)) (b (and a (g a) (h a)))) (if b (list a b))) 0)");
    expect_compact("(cond* ((bind-and* (a (f)) (b (g a)))) (t 0))",
                   "(progn (let ((a (f))) (and a (g a))) 0)");
    expect_compact("(cond* ((bind-and* (_ (f))) 1) (t 0))", "(progn (if (f) 1) 0)");
    expect_compact("(cond* ((bind-and* (nil (f)))) (t 0))", "(progn (let ((nil (f)))) 0)");
    expect_compact("(cond* ((bind* (x (f)) (y 2) z) x) (t x))",
                   "(let* ((x (f)) (y 2) z) (when x x) x)");
    expect_compact("(cond* ((bind* (x (f)) (y (g x))) x) (t x))",
                   "(let ((pcx--init0 (f))) (let* ((x pcx--init0) (y (g x))) "
                   "(when pcx--init0 x) x))");
    expect_compact("(cond* ((bind* (x (f)) (x 2)) x) (t x))",
                   "(let ((pcx--init0 (f))) (let* ((x pcx--init0) (x 2)) "
                   "(when pcx--init0 x) x))");
    expect_compact("(cond* ((match* (list a b) x)) (t (list a b)))",
                   "(let ((a (car x)) (b (nth 1 x))) (list a b))");
    expect_compact("(cond* ((match* (list a (> b 1)) x)) (t (list a b)))",
                   "(progn (and (consp x) (consp (cdr x)) (> (nth 1 x) 1) "
                   "(null (nthcdr 2 x))) (let ((a (car x)) (b (nth 1 x))) (list a b)))");
}

/* Deeply nested patterns and clauses fail with a diagnostic, not a crash. */
static void test_deep(void **state)
{
    (void)state;
    size_t depth = 5000;
    struct buf b;
    struct arena *a = support_arena();
    buf_init(&b, a);
    buf_puts(&b, "(cond* ((match* ");
    for (size_t i = 0; i < depth; i++)
        buf_puts(&b, "(cons a ");
    buf_puts(&b, "b");
    for (size_t i = 0; i < depth; i++)
        buf_puts(&b, ")");
    buf_puts(&b, " x) 1))");
    struct support_run r;
    support_run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    assert_true(r.failed);
    assert_string_equal(r.dl.items[r.dl.n - 1].code, "nesting-too-deep");
    arena_free(a);
}

/* Many clauses are folded without recursion. */
static void test_many_clauses(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct buf b;
    buf_init(&b, a);
    buf_puts(&b, "(cond*");
    for (int i = 0; i < 20000; i++)
        buf_printf(&b, " ((eq x %d) %d)", i, i);
    buf_puts(&b, ")");
    struct support_run r;
    support_run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    assert_false(r.failed);
    assert_int_equal(r.dl.n, 0);
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heads_sorted),
        cmocka_unit_test(test_backquote_like_emacs),
        cmocka_unit_test(test_conformance_cases),
        cmocka_unit_test(test_goldens),
        cmocka_unit_test(test_vocabulary_check),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_rx),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_flat_cond),
        cmocka_unit_test(test_datum_read_directly),
        cmocka_unit_test(test_folding),
        cmocka_unit_test(test_deep),
        cmocka_unit_test(test_many_clauses),
    };
    return SUPPORT_RUN(tests);
}
