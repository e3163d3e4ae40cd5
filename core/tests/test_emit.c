/* test_emit.c - the emitter (match/emit) on decision DAGs made directly.
 *
 * The printed code of whole DAGs whose size crosses the emitter's first
 * allocations: a long else-chain (one cond of a hundred clauses), a
 * then-chain seventy tests deep whose else branches are all different
 * leaves (the walk that counts in-degrees keeps them all pending), and
 * clauses binding more than 64 variables, as let bindings and as setq;
 * the clause marks (which code carries which clause, for the printer).
 */
#include "support.h"
#include "match_fixture.h"

#include <stdio.h>
#include <string.h>

#include "lisp/print.h"
#include "match/emit.h"
#include "syntax/read.h"

static struct value *rd(struct match_fx *f, const char *text)
{
    return match_fx_read(f, text);
}

/* Clause bodies of emit_clauses: clause i's body is the symbol bI. */
#define MAX_CLAUSES 128

/* The printed code of the DAG of pats[0..n), every clause of kind kind
 * binding vars[0..n_vars) (clause 0) or nothing (the others). */
static const char *emit_clauses(struct match_fx *f, const struct pat *const *pats,
                                size_t n, enum emit_leaf_kind kind,
                                struct value *const *vars, size_t n_vars)
{
    assert_true(n <= MAX_CLAUSES);
    f->m.ordered_leaves = kind == EMIT_SETQ; /* as pcase_compile sets it */
    const struct dnode *d = dtree_build(&f->m, f->root, pats, n);
    assert_non_null(d);
    struct emit_clause cl[MAX_CLAUSES];
    for (size_t i = 0; i < n; i++) {
        char body[32];
        snprintf(body, sizeof body, "(b%zu)", i);
        cl[i] = (struct emit_clause){kind, rd(f, body), false, i ? NULL : vars,
                                     i ? 0 : n_vars, NULL};
    }
    struct emit_info info[MAX_CLAUSES];
    struct value *form = emit_form(&f->m, d, f->root, NULL, cl, n, info);
    assert_non_null(form);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(info[i].leaves, 1);
    struct buf b;
    buf_init(&b, f->a);
    struct print_opts o = print_opts_default();
    print_value(f->L, &b, form, &o);
    return buf_cstr(&b);
}

/* A hundred constants and a default: one cond, clauses in order. */
static void long_chain_is_one_cond(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[101];
    struct buf want;
    buf_init(&want, f->a);
    buf_puts(&want, "(cond");
    for (int i = 0; i < 100; i++) {
        char c[16];
        snprintf(c, sizeof c, "%d", i);
        p[i] = pat_quote(&f->m, rd(f, c));
        char clause[48];
        snprintf(clause, sizeof clause, " ((eql x %d) b%d)", i, i);
        buf_puts(&want, clause);
    }
    p[100] = pat_any(&f->m);
    buf_puts(&want, " (t b100))");
    assert_string_equal(emit_clauses(f, p, 101, EMIT_BODY, NULL, 0), buf_cstr(&want));
    arena_free(f->a);
}

/* Clause 0 tests p0 ... p69; clause k+1 is (pred (not pk)), which the
 * failure of pk decides: seventy nested ifs, each else a different leaf. */
static void deep_then_chain(void **state)
{
    (void)state;
    enum { DEPTH = 70 };
    struct match_fx *f = match_fx_new(true);
    const struct pat *tests[DEPTH], *p[DEPTH + 1];
    struct buf want, tail;
    buf_init(&want, f->a);
    buf_init(&tail, f->a);
    for (int k = 0; k < DEPTH; k++) {
        char fun[32], text[32];
        snprintf(fun, sizeof fun, "p%d", k);
        tests[k] = pat_pred(&f->m, rd(f, fun));
        snprintf(fun, sizeof fun, "(not p%d)", k);
        p[k + 1] = pat_pred(&f->m, rd(f, fun));
        snprintf(text, sizeof text, "(if (p%d x) ", k);
        buf_puts(&want, text);
    }
    p[0] = pat_and(&f->m, tests, DEPTH);
    buf_puts(&want, "b0");
    for (int k = DEPTH - 1; k >= 0; k--) {
        char text[32];
        snprintf(text, sizeof text, " b%d)", k + 1);
        buf_puts(&want, text);
    }
    assert_string_equal(emit_clauses(f, p, DEPTH + 1, EMIT_BODY, NULL, 0),
                        buf_cstr(&want));
    arena_free(f->a);
}

/* pcase-setq assigns in Emacs's order, which decides its value (the last
 * one): (and (or c (or a)) c) on x assigns a before c on both ways,
 * although the pattern names c first. */
static void setq_order_is_emacs_order(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct value *vars[2] = {rd(f, "c"), rd(f, "a")};
    const struct pat *va = pat_var(&f->m, vars[1]), *vc = pat_var(&f->m, vars[0]);
    const struct pat *alts[2] = {vc, pat_or(&f->m, &va, 1)};
    const struct pat *both[2] = {pat_or(&f->m, alts, 2), vc};
    const struct pat *p[1] = {pat_and(&f->m, both, 2)};
    f->m.ordered_leaves = true;
    const struct dnode *d = dtree_build(&f->m, f->root, p, 1);
    assert_non_null(d);
    struct emit_clause cl[1] = {{EMIT_SETQ, f->L->nil, false, vars, 2, NULL}};
    struct value *form = emit_form(&f->m, d, f->root, NULL, cl, 1, NULL);
    assert_non_null(form);
    struct buf b;
    buf_init(&b, f->a);
    struct print_opts o = print_opts_compact();
    print_value(f->L, &b, form, &o);
    assert_string_equal(buf_cstr(&b), "(if (eql x x) (setq a nil c x) (setq a x c x))");
    arena_free(f->a);
}

/* Clause 0 binds v0 ... v69 to x (more variables than one word of bits). */
static void many_variables(void **state)
{
    (void)state;
    enum { NV = 70 };
    for (int setq = 0; setq < 2; setq++) {
        struct match_fx *f = match_fx_new(true);
        struct value *vars[NV];
        const struct pat *binds[NV];
        struct buf want;
        buf_init(&want, f->a);
        buf_puts(&want, setq ? "(setq" : "(let (");
        for (int i = 0; i < NV; i++) {
            char name[16], text[32];
            snprintf(name, sizeof name, "v%d", i);
            vars[i] = rd(f, name);
            binds[i] = pat_var(&f->m, vars[i]);
            if (setq)
                snprintf(text, sizeof text, " v%d x", i);
            else
                snprintf(text, sizeof text, "%s(v%d x)", i ? " " : "", i);
            buf_puts(&want, text);
        }
        buf_puts(&want, setq ? ")" : ") b0)");
        const struct pat *p[1] = {pat_and(&f->m, binds, NV)};
        assert_string_equal(emit_clauses(f, p, 1, setq ? EMIT_SETQ : EMIT_BODY, vars, NV),
                            buf_cstr(&want));
        arena_free(f->a);
    }
}

/* ---- clause marks ---- */

struct carried {
    const struct value *code[16];
    uint32_t clause[16];
    int n;
};

/* The record of the running test (the hooks' context is the fixture's). */
static struct carried *recording;

static void record_carrier(void *ctx, const struct value *code, uint32_t clause)
{
    struct carried *c = recording;
    (void)ctx;
    assert_true(c->n < 16);
    c->code[c->n] = code;
    c->clause[c->n++] = clause;
}

/* Is the cons x one of form's (through cars and cdrs)? */
static bool holds(const struct value *form, const struct value *x)
{
    for (; form->kind == VK_CONS; form = value_cdr(form))
        if (form == x || holds(value_car(form), x))
            return true;
    return false;
}

/* The code of three clauses: a body shared by two leaves (a lambda), an
 * atom, two forms (spliced into the cond clause). */
static struct value *emit_marked(struct match_fx *f, struct value **bodies,
                                 struct carried *c)
{
    if (c) {
        f->m.hooks.carries = record_carrier;
        recording = c;
    }
    const struct pat *alt[2] = {pat_pred(&f->m, rd(f, "p")), pat_pred(&f->m, rd(f, "q"))};
    const struct pat *p[3] = {pat_or(&f->m, alt, 2), pat_quote(&f->m, rd(f, "1")),
                              pat_any(&f->m)};
    bodies[0] = rd(f, "((f (g x) (g y)))");
    bodies[1] = rd(f, "(b1)");
    bodies[2] = rd(f, "((h) (k))");
    struct emit_clause cl[3];
    for (int i = 0; i < 3; i++)
        cl[i] = (struct emit_clause){EMIT_BODY, bodies[i], false, NULL, 0, NULL};
    const struct dnode *d = dtree_build(&f->m, f->root, p, 3);
    assert_non_null(d);
    struct emit_info info[3];
    struct value *form = emit_form(&f->m, d, f->root, NULL, cl, 3, info);
    assert_non_null(form);
    assert_true(info[0].shared);
    return form;
}

static const char *printed(struct match_fx *f, const struct value *v)
{
    struct buf b;
    buf_init(&b, f->a);
    struct print_opts o = print_opts_default();
    print_value(f->L, &b, v, &o);
    return buf_cstr(&b);
}

/* Every report names code of the form; the atom leaf by the cell that
 * holds it, the spliced forms by the first, the shared body by its
 * lambda; and the form is the one printed without the hook. */
static void clause_marks(void **state)
{
    (void)state;
    struct match_fx *plain = match_fx_new(true), *f = match_fx_new(true);
    struct value *bodies[3];
    const char *want = printed(plain, emit_marked(plain, bodies, NULL));
    struct carried c = {0};
    struct value *form = emit_marked(f, bodies, &c);
    assert_string_equal(printed(f, form), want);
    bool lambda = false, atom = false, first_form = false;
    for (int i = 0; i < c.n; i++) {
        assert_true(holds(form, c.code[i]));
        const struct value *k = c.code[i];
        if (c.clause[i] == 0 && value_car(k) == f->L->lambda)
            lambda = value_car(value_cdr(value_cdr(k))) == value_car(bodies[0]);
        if (c.clause[i] == 1)
            atom = value_car(k) == value_car(bodies[1]);
        if (c.clause[i] == 2)
            first_form = k == value_car(bodies[2]);
    }
    assert_true(lambda);
    assert_true(atom);
    assert_true(first_form);
    arena_free(plain->a);
    arena_free(f->a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_chain_is_one_cond),
        cmocka_unit_test(deep_then_chain),
        cmocka_unit_test(many_variables),
        cmocka_unit_test(setq_order_is_emacs_order),
        cmocka_unit_test(clause_marks),
    };
    return SUPPORT_RUN(tests);
}
