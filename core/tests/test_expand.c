/* test_expand.c - the expansion driver with stand-in front ends.
 *
 * pcase_expand and condstar_expand are replaced at link time by the small
 * front ends below, which rewrite (HEAD SUBJECT BODY...) into
 * (HEAD-done TEMP SUBJECT' BODY'...) with the subject and bodies expanded
 * through expand_code, so the driver's own behaviour is under test:
 * which forms are replaced (code positions only, outermost sites, nested
 * ones inside them), --only/--skip selection, stray cond* keywords,
 * errors and their positions, the depth guard, temporaries and the
 * copy -> original map.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "expand/condstar.h"
#include "expand/expand.h"
#include "expand/gensym.h"
#include "expand/pcase.h"
#include "lisp/print.h"

/* ---- stand-in front ends ---- */

static int front_end_calls;

/* (HEAD SUBJECT BODY...) -> (HEAD-done TEMP SUBJECT' BODY'...).  A
 * subject `fail` records an error at it; `silent` fails without one. */
static struct value *fake(struct expand_ctx *x, struct value *form)
{
    struct lisp *L = x->L;
    front_end_calls++;
    struct value *h = value_car(form), *args = value_cdr(form);
    char name[64];
    snprintf(name, sizeof name, "%s-done", h->u.sym.name);
    struct value *items[32];
    size_t n = 0;
    items[n++] = intern_cstr(L, name);
    items[n++] = expand_gensym(x, "x");
    for (; value_consp(args) && n < 32; args = value_cdr(args)) {
        struct value *a = value_car(args);
        if (value_symbolp(a) && strcmp(a->u.sym.name, "fail") == 0) {
            expand_diag(x, DIAG_ERROR, form, "malformed-pattern", "bad form");
            return NULL;
        }
        if (value_symbolp(a) && strcmp(a->u.sym.name, "silent") == 0)
            return NULL;
        struct value *e = expand_code(x, a);
        if (!e)
            return NULL;
        items[n++] = e;
    }
    return lisp_list(L, n, items);
}

struct value *pcase_expand(struct expand_ctx *x, struct value *form)
{
    return fake(x, form);
}

struct value *condstar_expand(struct expand_ctx *x, struct value *form)
{
    return fake(x, form);
}

/* ---- fixtures ---- */

struct fx {
    struct arena *a;
    struct lisp *L;
    struct diag_list diags;
    struct read_result r;
    struct expand_ctx x;
    const char *text;
};

static struct fx *fx_new(const char *text)
{
    struct fx *f = test_calloc(1, sizeof *f);
    f->a = support_arena();
    f->L = intern_new(f->a);
    f->text = text;
    diag_init(&f->diags, f->a);
    assert_true(read_source(f->L, (const uint8_t *)text, strlen(text), &f->r));
    expand_init(&f->x, f->L, &f->diags, &f->r);
    front_end_calls = 0;
    return f;
}

static void fx_free(struct fx *f)
{
    arena_free(f->a);
    test_free(f);
}

static const char *pr(struct fx *f, const struct value *v)
{
    struct print_opts o = print_opts_default();
    struct buf b;
    buf_init(&b, f->a);
    print_value(f->L, &b, v, &o);
    return buf_cstr(&b);
}

/* Expand top-level form i and print it (temporaries print as their base
 * name, "x"). */
static const char *expand(struct fx *f, size_t i)
{
    struct value *v = expand_form(&f->x, f->r.forms[i].v);
    return v ? pr(f, v) : NULL;
}

/* The text of the span of value v. */
static const char *text_of(struct fx *f, uint32_t s, uint32_t e)
{
    return arena_strndup(f->a, f->text + s, e - s);
}

/* ---- tests ---- */

static void test_outermost_site(void **state)
{
    (void)state;
    struct fx *f = fx_new("(defun k (x) (pcase x (a (pcase a (b b)))))");
    assert_string_equal(expand(f, 0),
                        "(defun k (x) (pcase-done x x (a (pcase-done x a (b b)))))");
    /* The stand-in expands its arguments as code, so the inner pcase is
     * expanded as part of the outer one: two calls, one site. */
    assert_int_equal(front_end_calls, 2);
    assert_int_equal(f->x.n_sites, 1);
    assert_string_equal(f->x.sites[0].head, "pcase");
    assert_string_equal(pr(f, f->x.sites[0].orig), "(pcase x (a (pcase a (b b))))");
    assert_int_equal(f->x.stats.forms, 1);
    assert_int_equal(f->x.stats.temporaries, 2);
    fx_free(f);
}

static void test_nested_expanded_inside(void **state)
{
    (void)state;
    struct fx *f = fx_new("(pcase (pcase-let y z) (when q (cond* w)))");
    assert_string_equal(expand(f, 0),
                        "(pcase-done x (pcase-let-done x y z) (when q (cond*-done x w)))");
    assert_int_equal(f->x.n_sites, 1); /* the nested ones are part of it */
    assert_int_equal(front_end_calls, 3);
    assert_int_equal(f->x.stats.temporaries, 3);
    fx_free(f);
}

/* With the heads primed before reading, the reader counts each form's
 * head tokens, however written, and says where they are; expanding with
 * that knowledge (x.top) gives what the look through every list gives,
 * nested heads included. */
static void test_reader_counted_heads(void **state)
{
    (void)state;
    const char *text = "(pcase x (a (p\\case a (b b))) (c (list 1 2)))\n"
                       "(list 'pcase-let 2)\n"
                       "(defun g () [pcase] (when q (cond* w)))\n"
                       "(defun h (y) (list y y))\n";
    struct fx *plain = fx_new(text);
    struct fx *f = test_calloc(1, sizeof *f);
    f->a = support_arena();
    f->L = intern_new(f->a);
    f->text = text;
    diag_init(&f->diags, f->a);
    expand_prime_heads(f->L);
    assert_true(read_source(f->L, (const uint8_t *)text, strlen(text), &f->r));
    expand_init(&f->x, f->L, &f->diags, &f->r);
    assert_true(f->r.heads_known);
    assert_false(plain->r.heads_known);
    static const uint32_t n_heads[] = {2, 1, 2, 0};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(f->r.forms[i].n_heads, n_heads[i]);
    const struct read_form *f0 = &f->r.forms[0];
    assert_string_equal(text_of(f, f0->heads[0], f0->heads[0] + 5), "pcase");
    assert_string_equal(text_of(f, f0->heads[1], f0->heads[1] + 6), "p\\case");
    for (size_t i = 0; i < 4; i++) {
        front_end_calls = 0;
        const char *want = expand(plain, i);
        int calls = front_end_calls;
        front_end_calls = 0;
        f->x.top = &f->r.forms[i];
        const char *got = expand(f, i);
        f->x.top = NULL;
        assert_string_equal(got, want);
        assert_int_equal(front_end_calls, calls);
    }
    fx_free(plain);
    fx_free(f);
}

static void test_sites_in_order(void **state)
{
    (void)state;
    struct fx *f = fx_new("(progn (pcase-setq a b) (f '(pcase x) (pcase-lambda c)) "
                          "(let ((pcase-dolist (pcase-exhaustive d))) pcase-dolist))");
    assert_string_equal(expand(f, 0),
                        "(progn (pcase-setq-done x a b) (f '(pcase x) (pcase-lambda-done x c)) "
                        "(let ((pcase-dolist (pcase-exhaustive-done x d))) pcase-dolist))");
    assert_int_equal(f->x.n_sites, 3);
    assert_string_equal(f->x.sites[0].head, "pcase-setq");
    assert_string_equal(f->x.sites[1].head, "pcase-lambda");
    assert_string_equal(f->x.sites[2].head, "pcase-exhaustive");
    fx_free(f);
}

static void test_data_positions(void **state)
{
    (void)state;
    struct fx *f = fx_new("(list '(pcase a) (quote (cond* b)) #'pcase `(pcase ,c) "
                          "(condition-case pcase (f) (pcase-let (g))))");
    struct value *in = f->r.forms[0].v;
    assert_ptr_equal(expand_form(&f->x, in), in); /* unchanged: same pointer */
    assert_int_equal(f->x.n_sites, 0);
    assert_int_equal(front_end_calls, 0);
    fx_free(f);
}

static void test_only_skip(void **state)
{
    (void)state;
    struct fx *f = fx_new("(pcase a (_ (cond* b)) (pcase-let c))");
    f->x.heads = EXPAND_HEAD_COND_STAR;
    /* pcase is kept, but the walker looks into its bodies. */
    assert_string_equal(expand(f, 0), "(pcase a (_ (cond*-done x b)) (pcase-let c))");
    assert_int_equal(f->x.n_sites, 1);
    assert_string_equal(f->x.sites[0].head, "cond*");
    f->x.heads = (unsigned)~EXPAND_HEAD_PCASE & 0xff;
    assert_string_equal(expand(f, 0), "(pcase a (_ (cond*-done x b)) (pcase-let c))");
    fx_free(f);
}

static void test_stray_keywords(void **state)
{
    (void)state;
    struct fx *f = fx_new("(list (match* a b) (bind* (c 1)) '(pcase* d))\n"
                          "(cond* ((match* p q) (bind-and* r)))");
    assert_string_equal(expand(f, 0), "(list nil nil '(pcase* d))");
    assert_int_equal(f->diags.n_warnings, 2);
    assert_string_equal(f->diags.items[0].code, "cond-star-keyword-outside");
    assert_string_equal(text_of(f, f->diags.items[0].start, f->diags.items[0].end),
                        "(match* a b)");
    assert_int_equal(f->x.n_sites, 2);
    assert_string_equal(f->x.sites[0].head, "match*");
    /* Not replaced when cond* is not selected. */
    f->x.heads = EXPAND_HEAD_PCASE;
    assert_string_equal(expand(f, 0), "(list (match* a b) (bind* (c 1)) '(pcase* d))");
    /* In a kept cond*, conditions are not stray; bodies are walked. */
    f->x.heads = EXPAND_HEAD_PCASE;
    assert_string_equal(expand(f, 1), "(cond* ((match* p q) (bind-and* r)))");
    fx_free(f);
}

static void test_errors(void **state)
{
    (void)state;
    struct fx *f = fx_new("(f (pcase fail))\n(g (pcase-let silent))\n(h (cond* 1))");
    assert_null(expand_form(&f->x, f->r.forms[0].v));
    assert_int_equal(f->diags.n_errors, 1);
    assert_string_equal(f->diags.items[0].code, "malformed-pattern");
    assert_string_equal(text_of(f, f->diags.items[0].start, f->diags.items[0].end),
                        "(pcase fail)");
    /* A front end that fails silently gets an internal error at the site. */
    assert_null(expand_form(&f->x, f->r.forms[1].v));
    assert_int_equal(f->diags.n_errors, 2);
    assert_string_equal(f->diags.items[1].code, "internal");
    assert_string_equal(text_of(f, f->diags.items[1].start, f->diags.items[1].end),
                        "(pcase-let silent)");
    /* The next form still expands. */
    assert_string_equal(expand(f, 2), "(h (cond*-done x 1))");
    fx_free(f);
}

/* Every failing form of a top-level form is reported, not only the
 * first; with keep_going the form comes back with the failing forms as
 * written and the others expanded. */
static void test_every_error(void **state)
{
    (void)state;
    const char *text = "(defun g () (pcase fail) (pcase 1) (f (pcase-let fail) (cond* 2)))";
    struct fx *f = fx_new(text);
    assert_null(expand_form(&f->x, f->r.forms[0].v));
    assert_int_equal(f->diags.n_errors, 2);
    assert_string_equal(text_of(f, f->diags.items[1].start, f->diags.items[1].end),
                        "(pcase-let fail)");
    fx_free(f);
    f = fx_new(text);
    f->x.keep_going = true;
    assert_string_equal(expand(f, 0), "(defun g nil (pcase fail) (pcase-done x 1) "
                                      "(f (pcase-let fail) (cond*-done x 2)))");
    assert_int_equal(f->diags.n_errors, 2);
    assert_int_equal(f->x.n_sites, 2);
    fx_free(f);
    /* nested: the enclosing form fails with its nested one, and is kept */
    f = fx_new("(pcase 1 (pcase fail) (pcase 2))");
    f->x.keep_going = true;
    assert_string_equal(expand(f, 0), "(pcase 1 (pcase fail) (pcase 2))");
    assert_int_equal(f->diags.n_errors, 1);
    assert_int_equal(f->x.n_sites, 0);
    fx_free(f);
}

static void test_diag_positions(void **state)
{
    (void)state;
    struct fx *f = fx_new("(pcase (subject) (clause))");
    struct value *form = f->r.forms[0].v;
    assert_non_null(expand_form(&f->x, form));
    struct value *subject = value_car(value_cdr(form));
    expand_diag(&f->x, DIAG_WARNING, subject, "unused-variable", "at %s", "subject");
    /* A generated value falls back to the current top-level form. */
    expand_diag(&f->x, DIAG_WARNING, lisp_listv(f->L, f->L->t, NULL), "x", "gen");
    expand_diag(&f->x, DIAG_NOTE, NULL, "x", "none");
    assert_int_equal(f->diags.n, 3);
    assert_string_equal(text_of(f, f->diags.items[0].start, f->diags.items[0].end), "(subject)");
    assert_string_equal(f->diags.items[0].message, "at subject");
    assert_int_equal(f->diags.items[1].start, 0);
    assert_int_equal(f->diags.items[1].end, strlen(f->text));
    assert_int_equal(f->diags.items[2].sev, DIAG_NOTE);
    fx_free(f);
}

static void test_origin_of_copies(void **state)
{
    (void)state;
    struct fx *f = fx_new("(pcase s (a (list 1 (pcase-let z))))");
    struct value *form = f->r.forms[0].v;
    assert_non_null(expand_form(&f->x, form));
    /* The stand-in treats clauses as code: (a (list 1 (pcase-let z))) is
     * rebuilt twice over; copies map back to the read conses. */
    struct value *clause = value_car(value_cdr(value_cdr(form)));
    struct value *out = f->x.sites[0].expansion;
    struct value *copy = value_car(value_cdr(value_cdr(value_cdr(out))));
    assert_string_equal(pr(f, copy), "(a (list 1 (pcase-let-done x z)))");
    assert_ptr_not_equal(copy, clause);
    assert_ptr_equal(expand_origin(&f->x, copy), clause);
    struct value *inner = value_car(value_cdr(copy));
    assert_ptr_equal(expand_origin(&f->x, inner), value_car(value_cdr(clause)));
    assert_ptr_equal(expand_origin(&f->x, form), form);
    fx_free(f);
}

static void test_depth_guard(void **state)
{
    (void)state;
    /* 1200 pcase forms nested in each other's subjects. */
    struct buf b;
    struct arena *a = support_arena();
    buf_init(&b, a);
    for (int i = 0; i < 1200; i++)
        buf_puts(&b, "(pcase ");
    buf_puts(&b, "x");
    for (int i = 0; i < 1200; i++)
        buf_puts(&b, ")");
    struct fx *f = fx_new(buf_cstr(&b));
    assert_null(expand_form(&f->x, f->r.forms[0].v));
    assert_int_equal(f->diags.n_errors, 1);
    assert_string_equal(f->diags.items[0].code, "nesting-too-deep");
    assert_int_equal(f->x.depth, 0); /* balanced after the failure */
    f->x.max_depth = 5000;
    assert_non_null(expand_form(&f->x, f->r.forms[0].v));
    fx_free(f);
    arena_free(a);
}

static void test_circular_code(void **state)
{
    (void)state;
    struct fx *f = fx_new("(progn . #1=((pcase a) . #1#))");
    assert_null(expand_form(&f->x, f->r.forms[0].v));
    assert_int_equal(f->diags.n_errors, 1);
    assert_string_equal(f->diags.items[0].code, "nesting-too-deep");
    assert_string_equal(f->diags.items[0].message, "circular list in a code position");
    fx_free(f);
}

/* Code without a head symbol is returned as it is without a walk; what
 * the walk would have reported must still be reported. */
static void test_code_without_heads(void **state)
{
    (void)state;
    struct fx *f = fx_new("(progn . #1=((f a) . #1#))\n#1=(g #1#)\n"
                          "(f `[a ,(h (pcase b))])\n(f #:pcase (#:match* 1))");
    assert_null(expand_form(&f->x, f->r.forms[0].v));
    assert_int_equal(f->diags.n_errors, 1);
    assert_string_equal(f->diags.items[0].message, "circular list in a code position");
    assert_null(expand_form(&f->x, f->r.forms[1].v));
    assert_int_equal(f->diags.n_errors, 2);
    assert_string_equal(f->diags.items[1].message, "nesting too deep to walk");
    assert_string_equal(expand(f, 2), "(f `[a ,(h (pcase-done x b))])");
    struct value *in = f->r.forms[3].v;
    assert_ptr_equal(expand_form(&f->x, in), in);
    assert_int_equal(f->diags.n, 2);
    fx_free(f);
}

/* A tree too large to look through first is walked as before. */
static void test_large_code(void **state)
{
    (void)state;
    struct buf b;
    struct arena *a = support_arena();
    buf_init(&b, a);
    buf_puts(&b, "(progn");
    for (int i = 0; i < 40000; i++)
        buf_puts(&b, " (f [x] (g))");
    buf_puts(&b, ")\n(progn");
    for (int i = 0; i < 40000; i++)
        buf_puts(&b, " (f [x] (g))");
    buf_puts(&b, " (pcase a))");
    struct fx *f = fx_new(buf_cstr(&b));
    struct value *in = f->r.forms[0].v;
    assert_ptr_equal(expand_form(&f->x, in), in);
    struct value *out = expand_form(&f->x, f->r.forms[1].v);
    assert_non_null(out);
    assert_int_equal(f->x.n_sites, 1);
    assert_int_equal(front_end_calls, 1);
    assert_int_equal(value_list_length(out, f->L->nil), 40002);
    fx_free(f);
    arena_free(a);
}

/* expand_unchanged: code whose expansion is itself, with no diagnostic,
 * is recognised without a walk; anything else is left to expand_code. */
static void test_unchanged(void **state)
{
    (void)state;
    struct fx *f = fx_new("(f a (g [b (c)]) \"s\")\n(f (h (pcase a)))\n"
                          "(f `[,(match* a b)])\n(f (#:pcase a) (#:cond* b))\n"
                          "(progn . #1=((f a) . #1#))\n(f pcase (g match* . cond*))");
    struct value *v[6];
    for (int i = 0; i < 6; i++)
        v[i] = f->r.forms[i].v;
    /* heads only count at the start of a list: the walk sees no form in
     * (pcase (g match* . cond*)) or (match* . cond*) */
    assert_true(expand_unchanged(&f->x, v[5]));
    assert_ptr_equal(expand_form(&f->x, v[5]), v[5]);
    assert_int_equal(f->diags.n, 0);
    assert_true(expand_unchanged(&f->x, v[0]));
    assert_false(expand_unchanged(&f->x, v[1]));
    assert_false(expand_unchanged(&f->x, v[2])); /* a stray cond* keyword */
    assert_true(expand_unchanged(&f->x, v[3]));  /* not the macros */
    assert_false(expand_unchanged(&f->x, v[4])); /* circular: walked */
    /* code found touched is walked as expand_code walks it */
    assert_string_equal(pr(f, expand_code_touched(&f->x, v[1])),
                        "(f (h (pcase-done x a)))");
    assert_string_equal(pr(f, expand_code_touched(&f->x, v[2])),
                        pr(f, expand_code(&f->x, v[2])));
    f->x.depth = f->x.max_depth; /* expand_code would report the depth */
    assert_false(expand_unchanged(&f->x, v[0]));
    assert_null(expand_code(&f->x, v[0]));
    assert_int_equal(f->diags.n_errors, 1);
    assert_null(expand_code_touched(&f->x, v[1]));
    assert_int_equal(f->diags.n_errors, 2);
    fx_free(f);
}

static void test_temporaries_named(void **state)
{
    (void)state;
    struct fx *f = fx_new("(pcase pcx--x0 (pcase b))");
    struct value *v = expand_form(&f->x, f->r.forms[0].v);
    assert_non_null(v);
    struct gensym *g = expand_gensyms(&f->x);
    gensym_begin_form(g, 0);
    struct value *outer = value_car(value_cdr(v));
    struct value *inner = value_car(value_cdr(value_car(value_cdr(value_cdr(value_cdr(v))))));
    assert_true(gensym_is_temp(g, outer));
    size_t n;
    /* Print order: the outer temporary first; pcx--x0 is the input's. */
    assert_string_equal(gensym_text(g, outer, &n), "pcx--x1");
    assert_string_equal(gensym_text(g, inner, &n), "pcx--x2");
    assert_int_equal(gensym_count(g), 2);
    fx_free(f);
}

/* --at: list every candidate, then expand only one of them. */
static void test_list_and_target(void **state)
{
    (void)state;
    struct fx *f = fx_new("(progn (pcase a (_ (pcase-let b))) '(pcase c) "
                          "(cond* (match* x y) (bind* z)) (when (pcase d) (match* e)))");
    struct value **found;
    size_t n = expand_list_forms(&f->x, f->r.forms[0].v, &found);
    assert_int_equal(n, 4);
    assert_string_equal(pr(f, found[0]), "(pcase a (_ (pcase-let b)))");
    assert_string_equal(pr(f, found[1]), "(pcase-let b)");
    assert_string_equal(pr(f, found[2]), "(cond* (match* x y) (bind* z))");
    assert_string_equal(pr(f, found[3]), "(pcase d)");
    assert_int_equal(front_end_calls, 0);
    assert_int_equal(f->diags.n, 0);
    expand_set_target(&f->x, found[1]);
    assert_string_equal(expand(f, 0),
                        "(progn (pcase a (_ (pcase-let-done x b))) '(pcase c) "
                        "(cond* (match* x y) (bind* z)) (when (pcase d) (match* e)))");
    assert_int_equal(f->x.n_sites, 1);
    assert_ptr_equal(f->x.sites[0].orig, found[1]);
    expand_set_target(&f->x, NULL);
    /* (The stand-in treats its arguments as code: its match* and bind*
     * are stray there.) */
    assert_string_equal(expand(f, 0),
                        "(progn (pcase-done x a (_ (pcase-let-done x b))) '(pcase c) "
                        "(cond*-done x nil nil) (when (pcase-done x d) nil))");
    fx_free(f);
}

static void test_tables(void **state)
{
    (void)state;
    assert_int_equal(expand_check_tables(), -1);
    assert_int_equal(expand_head_bit("pcase-let*"), EXPAND_HEAD_PCASE_LET_STAR);
    assert_int_equal(expand_head_bit("cond*"), EXPAND_HEAD_COND_STAR);
    assert_int_equal(expand_head_bit("pcase-defmacro"), 0);
}

/* expand_head_of: the bit of a head symbol, asked again (the answer is
 * then cached on the symbol); 0 for a stray keyword, another symbol or
 * a non-symbol. */
static void test_head_of(void **state)
{
    (void)state;
    struct fx *f = fx_new("x");
    struct value *let = intern_cstr(f->L, "pcase-let"), *m = intern_cstr(f->L, "match*");
    for (int round = 0; round < 2; round++) {
        assert_int_equal(expand_head_of(let), EXPAND_HEAD_PCASE_LET);
        assert_int_equal(expand_head_of(intern_cstr(f->L, "cond*")), EXPAND_HEAD_COND_STAR);
        assert_int_equal(expand_head_of(intern_cstr(f->L, "pcase")), EXPAND_HEAD_PCASE);
        assert_int_equal(expand_head_of(m), 0);
        assert_int_equal(expand_head_of(intern_cstr(f->L, "pcasex")), 0);
    }
    assert_int_equal(expand_head_of(value_int(f->a, 3)), 0);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outermost_site),
        cmocka_unit_test(test_nested_expanded_inside),
        cmocka_unit_test(test_reader_counted_heads),
        cmocka_unit_test(test_sites_in_order),
        cmocka_unit_test(test_data_positions),
        cmocka_unit_test(test_only_skip),
        cmocka_unit_test(test_stray_keywords),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_every_error),
        cmocka_unit_test(test_diag_positions),
        cmocka_unit_test(test_origin_of_copies),
        cmocka_unit_test(test_depth_guard),
        cmocka_unit_test(test_circular_code),
        cmocka_unit_test(test_code_without_heads),
        cmocka_unit_test(test_large_code),
        cmocka_unit_test(test_unchanged),
        cmocka_unit_test(test_temporaries_named),
        cmocka_unit_test(test_list_and_target),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_head_of),
    };
    return SUPPORT_RUN(tests);
}
