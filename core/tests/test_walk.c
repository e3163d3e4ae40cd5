/* test_walk.c - the code walker: which sub-forms are code, and rebuilding.
 *
 * Each test reads a form, walks it with a callback that records the head
 * of every cons it is shown (or replaces some), and compares with what
 * cli.md section 3 says is code.  Also: sharing of unchanged structure,
 * the input left intact, abort, prune, the depth limit on very deep
 * input (no C recursion), and the head tables being sorted.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "lisp/print.h"
#include "syntax/read.h"
#include "syntax/walk.h"

struct fx {
    struct arena *a;
    struct lisp *L;
    struct buf seen;         /* heads visited, space separated */
    const char *replace;     /* head whose forms are replaced by `R` */
    const char *prune;       /* head whose forms are pruned */
    const char *abort_at;    /* head that aborts */
    const char *scope;       /* head whose forms open a scope (WALK_SCOPE) */
    int rebuilt;             /* copies reported */
};

static struct fx *fx_new(void)
{
    struct fx *f = test_calloc(1, sizeof *f);
    f->a = support_arena();
    f->L = intern_new(f->a);
    buf_init(&f->seen, f->a);
    return f;
}

static void fx_free(struct fx *f)
{
    arena_free(f->a);
    test_free(f);
}

static struct value *rd(struct fx *f, const char *text)
{
    struct read_result r;
    assert_true(read_source(f->L, (const uint8_t *)text, strlen(text), &r));
    assert_int_equal(r.n_forms, 1);
    return r.forms[0].v;
}

static const char *pr(struct fx *f, const struct value *v)
{
    struct print_opts o = print_opts_default();
    struct buf b;
    buf_init(&b, f->a);
    print_value(f->L, &b, v, &o);
    return buf_cstr(&b);
}

static const char *head_name(struct value *form)
{
    struct value *h = value_car(form);
    return value_symbolp(h) ? h->u.sym.name : "<list>";
}

static enum walk_status visit(struct walker *w, struct value *form)
{
    struct fx *f = w->ctx;
    const char *h = head_name(form);
    if (f->seen.len)
        buf_putc(&f->seen, ' ');
    buf_puts(&f->seen, h);
    if (f->abort_at && strcmp(h, f->abort_at) == 0)
        return WALK_ABORT;
    if (f->replace && strcmp(h, f->replace) == 0) {
        w->replacement = intern_cstr(f->L, "R");
        return WALK_PRUNE;
    }
    if (f->prune && strcmp(h, f->prune) == 0)
        return WALK_PRUNE;
    if (f->scope && strcmp(h, f->scope) == 0)
        return WALK_SCOPE;
    return WALK_CONTINUE;
}

/* The end of a scope: " /HEAD" in the record. */
static void on_leave(struct walker *w, struct value *form)
{
    struct fx *f = w->ctx;
    buf_printf(&f->seen, " /%s", head_name(form));
}

static void on_rebuilt(struct walker *w, struct value *orig, struct value *copy)
{
    struct fx *f = w->ctx;
    assert_ptr_not_equal(orig, copy);
    f->rebuilt++;
}

static struct value *walk(struct fx *f, struct value *form)
{
    struct walker w;
    walk_init(&w, f->L, visit, f);
    w.rebuilt = on_rebuilt;
    w.leave = on_leave;
    return walk_form(&w, form);
}

/* The heads visited when walking text. */
static const char *heads(struct fx *f, const char *text)
{
    buf_init(&f->seen, f->a);
    struct value *v = rd(f, text);
    assert_ptr_equal(walk(f, v), v);
    return buf_cstr(&f->seen);
}

#define HEADS(text, want) assert_string_equal(heads(f, (text)), (want))

static void test_let_and_quote(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    HEADS("(let ((a (f 1)) b (c)) (g a) '(h (i)) (j . k))", "let f g quote j");
    HEADS("(let* ((a (f)) (b (g a) (h))) (i))", "let* f g h i");
    HEADS("(progn (f) (quote (g)) (function h) (function (i)))", "progn f quote function function");
    fx_free(f);
}

static void test_cond_and_handlers(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    HEADS("(cond ((p x) (q)) (t (r)) ((s)))", "cond p q r s");
    HEADS("(condition-case err (a) (error (b)) ((foo bar) (c) (d)))",
          "condition-case a b c d");
    HEADS("(cl-case (k) ((a b) (x)) (c (y)))", "cl-case k x y");
    fx_free(f);
}

static void test_definitions(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    HEADS("(defun f (x &optional (y (g))) \"doc\" (declare (indent (i))) "
          "(interactive (list 1)) (h x))",
          "defun declare interactive list h");
    /* interactive: its spec is code, the modes after it are not;
     * declare: only the clauses whose arguments are code */
    HEADS("(defun f () (interactive (a) (b-mode)) (declare (indent (i)) "
          "(compiler-macro (lambda (form) (c form))) (gv-setter (lambda (v) (d v))) "
          "(gv-expander g) (completion (lambda (s b) (e s))) (obsolete (n) (w)) "
          "(interactive-args (arg (k)) (arg2 (l))) (debug (m)) (ftype (function (o)))) x)",
          "defun interactive a declare lambda c lambda d lambda e w k l");
    HEADS("(lambda (a (b)) (c))", "lambda c");
    HEADS("(cl-defmacro m ((a b) &rest (c)) (d))", "cl-defmacro d");
    HEADS("(dolist (x (xs) (res)) (body))", "dolist xs res body");
    HEADS("(dotimes (i (n)) (body))", "dotimes n body");
    fx_free(f);
}

static void test_function_and_calls(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    HEADS("(mapcar #'(lambda (x) (k x)) '(l m))", "mapcar function lambda k quote");
    HEADS("((lambda (x) (b x)) (c))", "<list> lambda b c");
    HEADS("(unknown-macro (a) [(b)] \"s\")", "unknown-macro a");
    HEADS("(setq a (f) b (g) (c) (h))", "setq f g h");
    fx_free(f);
}

static void test_backquote(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    HEADS("`(a ,(b) ,@(c) (d ,(e)) [f ,(g)] . ,(h))", "` b c e g h");
    HEADS("`(x `(y ,(z ,(w))))", "` w");
    HEADS("`(p . q)", "`");
    fx_free(f);
}

static void test_iflet(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    HEADS("(when-let ((a (p)) ((q)) b) (r))", "when-let p q r");
    HEADS("(if-let (a (p)) (r) (s))", "if-let p r s");
    HEADS("(cl-flet ((f (x) (a x)) (g (b))) (c))", "cl-flet a b c");
    fx_free(f);
}

/* Inside a pcase or cond* form that is kept (not expanded), code is found
 * in subjects, bodies, guards and pred/app calls, not in patterns. */
static void test_kept_pcase(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->prune = "zz";
    HEADS("(pcase (s) ((and x (guard (g x))) (b)) (`(,(pred (p 1)) . ,(app (h) y)) (c)) ((or 'a (cons z _)) (d)))",
          "pcase s g b c d");
    HEADS("(pcase-let (((cons a b) (v)) (`[,c] (w))) (body))", "pcase-let v w body");
    HEADS("(pcase-setq (cons a b) (v) c (w))", "pcase-setq v w");
    HEADS("(pcase-dolist ((cons a b) (xs)) (body))", "pcase-dolist xs body");
    HEADS("(pcase-lambda ((cons a b) (pred p)) (body))", "pcase-lambda body");
    HEADS("(cond* ((match* (pred p) (d)) (b)) ((bind* (x (e)) y) (f)) ((g) (h)) (t (zz (i))))",
          "cond* d b e f g h zz");
    fx_free(f);
}

static void test_replace_shares(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->replace = "r";
    struct value *v = rd(f, "(let ((a (r 1)) (b (s))) (t1) (r) '(r) (u))");
    const char *before = pr(f, v);
    struct value *w = walk(f, v);
    assert_non_null(w);
    assert_ptr_not_equal(w, v);
    assert_string_equal(pr(f, w), "(let ((a R) (b (s))) (t1) R '(r) (u))");
    assert_string_equal(pr(f, v), before); /* the input is untouched */
    /* (b (s)) and the last element were not copied. */
    struct value *binds = value_car(value_cdr(w));
    assert_ptr_equal(value_car(value_cdr(binds)),
                     value_car(value_cdr(value_car(value_cdr(v)))));
    assert_true(f->rebuilt > 0);
    fx_free(f);
}

static void test_replace_in_templates(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->replace = "r";
    struct value *v = rd(f, "`(a [b ,(r)] . ,(r))");
    assert_string_equal(pr(f, walk(f, v)), "`(a [b ,R] \\, R)");
    v = rd(f, "(f (r) . tail)");
    assert_string_equal(pr(f, walk(f, v)), "(f R . tail)");
    v = rd(f, "(r x)");
    assert_string_equal(pr(f, walk(f, v)), "R");
    fx_free(f);
}

static void test_prune_abort(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->prune = "p";
    HEADS("(a (p (b)) (c))", "a p c");
    f->abort_at = "c";
    struct value *v = rd(f, "(a (b) (c) (d))");
    assert_null(walk(f, v));
    fx_free(f);
}

/* rx-let's bindings are data and its body code; rx-define is data. */
static void test_rx_definitions(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    HEADS("(rx-let ((a (f)) (b (x) (g x))) (h) (i (j)))", "rx-let h i j");
    HEADS("(rx-define n (x) (f x))", "rx-define");
    HEADS("(progn (rx-define n (f)) (rx-let-eval (k) (l)))", "progn rx-define rx-let-eval k l");
    fx_free(f);
}

/* A scope is left after its sub-forms, and every open scope, innermost
 * first, when the walk stops early. */
static void test_scopes(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->scope = "s";
    HEADS("(progn (s (a) (s (b)) (c)) (d))", "progn s a s b /s c /s d");
    HEADS("(s)", "s /s");
    f->abort_at = "x";
    buf_init(&f->seen, f->a);
    assert_null(walk(f, rd(f, "(s (y) (s (s (x)) (z)))")));
    assert_string_equal(buf_cstr(&f->seen), "s y s s x /s /s /s");
    fx_free(f);
}

/* (f (f (f ... x))) n levels deep, built directly. */
static struct value *deep(struct fx *f, int n)
{
    struct value *v = intern_cstr(f->L, "x"), *h = intern_cstr(f->L, "f");
    for (int i = 0; i < n; i++)
        v = lisp_listv(f->L, h, v, NULL);
    return v;
}

static enum walk_status count_visit(struct walker *w, struct value *form)
{
    (void)form;
    (*(long *)w->ctx)++;
    return WALK_CONTINUE;
}

static void test_depth(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    long n = 0;
    struct walker w;
    walk_init(&w, f->L, count_visit, &n);
    struct value *v = deep(f, 60000);
    assert_ptr_equal(walk_form(&w, v), v); /* no C recursion: no crash */
    assert_int_equal(n, 60000);
    assert_false(w.too_deep);
    w.max_depth = 1000;
    assert_null(walk_form(&w, v));
    assert_true(w.too_deep);
    assert_non_null(w.deep_at);
    fx_free(f);
}

/* Reader labels can make a code list circular: the walk stops. */
static void test_circular(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *v = rd(f, "(progn . #1=((f) (g) . #1#))");
    struct walker w;
    walk_init(&w, f->L, visit, f);
    assert_null(walk_form(&w, v));
    assert_true(w.too_deep);
    assert_true(w.circular);
    /* Quoted circular data is not walked. */
    v = rd(f, "(h '#1=(a . #1#))");
    assert_ptr_equal(walk_form(&w, v), v);
    assert_false(w.circular);
    fx_free(f);
}

static void test_body_and_tables(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->replace = "r";
    struct walker w;
    walk_init(&w, f->L, visit, f);
    struct value *body = rd(f, "((a) (r) 'x)");
    assert_string_equal(pr(f, walk_body(&w, body)), "((a) R 'x)");
    assert_int_equal(walk_check_tables(), -1);
    assert_true(walk_knows("condition-case"));
    assert_true(walk_knows("`"));
    assert_false(walk_knows("no-such-head"));
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_let_and_quote),
        cmocka_unit_test(test_cond_and_handlers),
        cmocka_unit_test(test_definitions),
        cmocka_unit_test(test_function_and_calls),
        cmocka_unit_test(test_backquote),
        cmocka_unit_test(test_iflet),
        cmocka_unit_test(test_kept_pcase),
        cmocka_unit_test(test_replace_shares),
        cmocka_unit_test(test_replace_in_templates),
        cmocka_unit_test(test_prune_abort),
        cmocka_unit_test(test_rx_definitions),
        cmocka_unit_test(test_scopes),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_circular),
        cmocka_unit_test(test_body_and_tables),
    };
    return SUPPORT_RUN(tests);
}
