/* test_gensym.c - naming of temporaries (cli.md section 7).
 *
 * Numbers follow first appearance in print order, per top-level form and
 * per base; names of input symbols and names already taken in the form
 * are skipped; side-effect-only temporaries get `_`; hash and circle
 * modes; prefixes that need escaping print escaped.
 */
#include "support.h"

#include <string.h>

#include "expand/gensym.h"

struct fx {
    struct arena *a;
    struct lisp *L;
    struct gensym *g;
};

/* A run whose input had the symbols of input (space separated). */
static struct fx *fx_new(const char *input)
{
    struct fx *f = test_calloc(1, sizeof *f);
    f->a = support_arena();
    f->L = intern_new(f->a);
    for (const char *p = input; *p;) {
        const char *e = strchr(p, ' ');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        intern_symbol(f->L, p, n);
        p += n + (e ? 1 : 0);
    }
    f->g = gensym_new(f->L);
    return f;
}

static void fx_free(struct fx *f)
{
    arena_free(f->a);
    test_free(f);
}

static const char *txt(struct fx *f, struct value *t)
{
    size_t n;
    const char *s = gensym_text(f->g, t, &n);
    assert_non_null(s);
    assert_int_equal(strlen(s), n);
    return s;
}

static void test_print_order(void **state)
{
    (void)state;
    struct fx *f = fx_new("");
    struct value *a = gensym_make(f->g, "x"), *b = gensym_make(f->g, "val"),
                 *c = gensym_make(f->g, "x");
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, c), "pcx--x0"); /* first printed, first number */
    assert_string_equal(txt(f, a), "pcx--x1");
    assert_string_equal(txt(f, b), "pcx--val0");
    assert_string_equal(txt(f, c), "pcx--x0"); /* stable within the form */
    gensym_begin_form(f->g, 0);                /* next top-level form */
    assert_string_equal(txt(f, a), "pcx--x0");
    assert_string_equal(txt(f, c), "pcx--x1");
    assert_int_equal(gensym_count(f->g), 3);
    fx_free(f);
}

static void test_collisions(void **state)
{
    (void)state;
    struct fx *f = fx_new("pcx--x0 pcx--x2 foo");
    struct value *t[4];
    for (int i = 0; i < 3; i++)
        t[i] = gensym_make(f->g, "x");
    t[3] = gensym_make(f->g, "x1"); /* could produce pcx--x10 */
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, t[0]), "pcx--x1");
    assert_string_equal(txt(f, t[1]), "pcx--x3");
    assert_string_equal(txt(f, t[2]), "pcx--x4");
    assert_string_equal(txt(f, t[3]), "pcx--x10");
    /* Interned later (not input): not a collision. */
    intern_cstr(f->L, "pcx--val0");
    struct value *v = gensym_make(f->g, "val");
    assert_string_equal(txt(f, v), "pcx--val0");
    fx_free(f);
}

static void test_taken_in_form(void **state)
{
    (void)state;
    struct fx *f = fx_new("");
    struct value *x1 = gensym_make(f->g, "x1"), *x[12];
    for (int i = 0; i < 12; i++)
        x[i] = gensym_make(f->g, "x");
    /* the second form finds every name made already: the same choices */
    for (int round = 0; round < 2; round++) {
        gensym_begin_form(f->g, 0);
        assert_string_equal(txt(f, x1), "pcx--x10");
        for (int i = 0; i < 10; i++)
            txt(f, x[i]);
        assert_string_equal(txt(f, x[10]), "pcx--x11"); /* x10 is taken */
        assert_string_equal(txt(f, x[11]), "pcx--x12");
    }
    /* in the third, x takes x10 and x11 first, and x1 goes on to x12 */
    gensym_begin_form(f->g, 0);
    for (int i = 0; i < 12; i++)
        txt(f, x[i]);
    assert_string_equal(txt(f, x[10]), "pcx--x10");
    assert_string_equal(txt(f, x1), "pcx--x12");
    fx_free(f);
}

static void test_effect_only_and_prefix(void **state)
{
    (void)state;
    struct fx *f = fx_new("_pcx--0");
    struct value *u = gensym_make(f->g, "_"), *v = gensym_make(f->g, "_");
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, u), "_pcx--1");
    assert_string_equal(txt(f, v), "_pcx--2");
    gensym_configure(f->g, GENSYM_RENAME, "my.tmp-");
    struct value *w = gensym_make(f->g, "d");
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, w), "my.tmp-d0"); /* Emacs 30 escapes no inner '.' */
    gensym_configure(f->g, GENSYM_RENAME, "1");
    struct value *e = gensym_make(f->g, "e"), *g = gensym_make(f->g, "x");
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, e), "\\1e0"); /* reads as a number otherwise */
    assert_string_equal(txt(f, g), "1x0");   /* a symbol as it is */
    fx_free(f);
}

/* A base's names are made once for the run; a new prefix or a new set
 * of input symbols must still change them. */
static void test_names_reused(void **state)
{
    (void)state;
    struct fx *f = fx_new("");
    struct value *a = gensym_make(f->g, "x"), *b = gensym_make(f->g, "x");
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, a), "pcx--x0");
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, b), "pcx--x0");
    assert_string_equal(txt(f, a), "pcx--x1");
    gensym_configure(f->g, GENSYM_RENAME, "q-");
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, a), "q-x0");
    intern_cstr(f->L, "q-x0");
    gensym_set_input_limit(f->g, f->L->next_id); /* q-x0 is the input's now */
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, a), "q-x1");
    assert_string_equal(txt(f, b), "q-x2");
    gensym_configure(f->g, GENSYM_HASH, NULL);
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, b), "#:x1"); /* q-x0 is still skipped */
    fx_free(f);
}

static void test_hash_and_circle(void **state)
{
    (void)state;
    struct fx *f = fx_new("");
    struct value *a = gensym_make(f->g, "x"), *b = gensym_make(f->g, "_");
    gensym_configure(f->g, GENSYM_HASH, NULL);
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, a), "#:x0");
    assert_string_equal(txt(f, b), "#:_0");
    assert_string_equal(txt(f, a), "#:x0");
    gensym_configure(f->g, GENSYM_CIRCLE, NULL);
    gensym_begin_form(f->g, 3); /* the form uses #3= already */
    assert_string_equal(txt(f, b), "#4=#:_0");
    assert_string_equal(txt(f, a), "#5=#:x0");
    assert_string_equal(txt(f, b), "#4#");
    assert_string_equal(txt(f, a), "#5#");
    gensym_begin_form_cb(f->g, 0);
    assert_string_equal(txt(f, a), "#1=#:x0");
    fx_free(f);
}

static void test_not_temporaries(void **state)
{
    (void)state;
    struct fx *f = fx_new("x");
    struct value *t = gensym_make(f->g, "x");
    struct value *user = intern_uninterned(f->L, "x", 1);
    size_t n;
    gensym_begin_form(f->g, 0);
    assert_true(gensym_is_temp(f->g, t));
    assert_false(gensym_is_temp(f->g, user));
    assert_false(gensym_is_temp(f->g, intern_cstr(f->L, "x")));
    assert_null(gensym_text(f->g, user, &n));
    assert_null(gensym_text(f->g, f->L->nil, &n));
    assert_null(gensym_text(f->g, value_int(f->a, 1), &n));
    /* another table's temporaries are not this one's, whatever their
     * index says */
    struct gensym *other = gensym_new(f->L);
    struct value *o1 = gensym_make(other, "y"), *o2 = gensym_make(other, "y");
    assert_false(gensym_is_temp(f->g, o1));
    assert_false(gensym_is_temp(f->g, o2));
    assert_null(gensym_text(f->g, o2, &n));
    assert_true(gensym_is_temp(other, o2));
    fx_free(f);
}

static void test_many(void **state)
{
    (void)state;
    struct fx *f = fx_new("");
    struct value *t[3000];
    for (int i = 0; i < 3000; i++)
        t[i] = gensym_make(f->g, i % 3 ? "x" : "val");
    for (int round = 0; round < 2; round++) {
        gensym_begin_form(f->g, 0);
        for (int i = 2999; i >= 0; i--)
            txt(f, t[i]);
        assert_string_equal(txt(f, t[2999]), "pcx--x0");
        assert_string_equal(txt(f, t[1]), "pcx--x1999");
        assert_string_equal(txt(f, t[0]), "pcx--val999");
    }
    fx_free(f);
}

/* Temporaries of one base are distinct uninterned symbols with the base
 * as name and ids in creation order, interleaved with other symbols; a
 * copy of a temporary's symbol elsewhere is not a temporary. */
static void test_fresh_symbols(void **state)
{
    (void)state;
    struct fx *f = fx_new("");
    struct value *a = gensym_make(f->g, "x");
    struct value *u = intern_uninterned(f->L, "x", 1);
    struct value *b = gensym_make(f->g, "x"), *c = gensym_make(f->g, "_x");
    uint32_t next = f->L->next_id;
    struct value *d = gensym_make(f->g, "x");
    assert_true(a != b && b != d);
    assert_true(a->u.sym.id < u->u.sym.id && u->u.sym.id < b->u.sym.id);
    assert_true(b->u.sym.id < c->u.sym.id);
    assert_int_equal(d->u.sym.id, next);
    assert_int_equal(f->L->next_id, next + 1);
    struct value *all[] = {a, b, c, d};
    for (int i = 0; i < 4; i++) {
        assert_string_equal(all[i]->u.sym.name, "x");
        assert_int_equal(all[i]->u.sym.len, 1);
        assert_false(all[i]->u.sym.interned);
        assert_true(gensym_is_temp(f->g, all[i]));
    }
    struct value *copy = arena_alloc(f->a, sizeof *copy);
    memcpy(copy, d, sizeof *copy);
    assert_false(gensym_is_temp(f->g, copy));
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, d), "pcx--x0");
    assert_string_equal(txt(f, c), "_pcx--x0");
    assert_string_equal(txt(f, a), "pcx--x1");
    fx_free(f);
}

/* Names joined from pieces longer than 16 bytes, colliding with input
 * symbols of over 16 bytes (whose lookup compares the tail too), and a
 * base whose name needs a backslash. */
static void test_long_pieces(void **state)
{
    (void)state;
    struct fx *f = fx_new("a-rather-long-prefix--very-long-base-name0 "
                          "a-rather-long-prefix--x1 pcx--very-long-base-name1");
    gensym_configure(f->g, GENSYM_RENAME, "a-rather-long-prefix--");
    struct value *a = gensym_make(f->g, "very-long-base-name"),
                 *b = gensym_make(f->g, "very-long-base-name"), *x = gensym_make(f->g, "x"),
                 *q = gensym_make(f->g, "a,b");
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, a), "a-rather-long-prefix--very-long-base-name1");
    assert_string_equal(txt(f, x), "a-rather-long-prefix--x0");
    assert_string_equal(txt(f, b), "a-rather-long-prefix--very-long-base-name2");
    assert_string_equal(txt(f, q), "a-rather-long-prefix--a\\,b0");
    gensym_configure(f->g, GENSYM_RENAME, "pcx--");
    gensym_begin_form(f->g, 0);
    assert_string_equal(txt(f, b), "pcx--very-long-base-name0");
    assert_string_equal(txt(f, a), "pcx--very-long-base-name2");
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_print_order),
        cmocka_unit_test(test_collisions),
        cmocka_unit_test(test_taken_in_form),
        cmocka_unit_test(test_effect_only_and_prefix),
        cmocka_unit_test(test_names_reused),
        cmocka_unit_test(test_hash_and_circle),
        cmocka_unit_test(test_not_temporaries),
        cmocka_unit_test(test_many),
        cmocka_unit_test(test_fresh_symbols),
        cmocka_unit_test(test_long_pieces),
    };
    return SUPPORT_RUN(tests);
}
