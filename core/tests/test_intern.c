/* test_intern.c - the symbol table.
 *
 * Names are keyed by their first 16 bytes as two words plus their length:
 * names that share those 16 bytes, names with NUL bytes, the empty name
 * and names of every length up to well past 16 must all stay apart, and
 * the reader's entry with a precomputed key (intern_symbol_key) must find
 * the same symbols as intern_symbol, across growth of the table.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "lisp/intern.h"

/* The key of name as the reader computes it: two loads from a buffer
 * with 16 readable bytes, masked to the name's first 16 bytes. */
static void key_of(const char *name, size_t len, uint64_t *w0, uint64_t *w1)
{
    char buf[64] = {0};
    memcpy(buf, name, len < 16 ? len : 16);
    *w0 = intern_load8(buf);
    *w1 = intern_load8(buf + 8);
}

static void names_stay_apart(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct lisp *L = intern_new(a);
    /* every prefix of a 40-byte name, and the same with its last byte
     * changed: 80 distinct names, some sharing 16 or more bytes */
    static const char base[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCD";
    struct value *sym[41][2];
    for (size_t n = 0; n <= 40; n++) {
        char other[41];
        memcpy(other, base, n);
        if (n)
            other[n - 1] = '!';
        sym[n][0] = intern_symbol(L, base, n);
        sym[n][1] = intern_symbol(L, other, n);
        assert_int_equal(sym[n][0]->u.sym.len, n);
        assert_memory_equal(sym[n][0]->u.sym.name, base, n);
        assert_int_equal(sym[n][0]->u.sym.name[n], 0);
        assert_true(sym[n][0]->u.sym.interned);
    }
    for (size_t n = 0; n <= 40; n++) {
        assert_ptr_equal(intern_symbol(L, base, n), sym[n][0]);
        assert_ptr_equal(intern_find(L, base, n), sym[n][0]);
        assert_true(n == 0 || sym[n][1] != sym[n][0]);
        for (size_t m = 0; m < n; m++)
            assert_ptr_not_equal(sym[m][0], sym[n][0]);
    }
    arena_free(a);
}

static void nul_bytes_and_high_bytes(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct lisp *L = intern_new(a);
    /* zero padding must not make "a" and "a\0" the same name */
    struct value *x = intern_symbol(L, "a", 1);
    struct value *y = intern_symbol(L, "a\0", 2);
    struct value *z = intern_symbol(L, "\0", 1);
    struct value *e = intern_symbol(L, "", 0);
    assert_ptr_not_equal(x, y);
    assert_ptr_not_equal(z, e);
    assert_ptr_equal(intern_symbol(L, "a\0", 2), y);
    assert_ptr_equal(intern_symbol(L, "\0", 1), z);
    assert_ptr_equal(intern_find(L, "", 0), e);
    assert_null(intern_find(L, "a\0\0", 3));
    assert_false(x->u.sym.multibyte);
    assert_true(intern_symbol(L, "caf\303\251", 5)->u.sym.multibyte);
    assert_true(intern_symbol(L, "a-rather-long-name-\303\251", 21)->u.sym.multibyte);
    assert_false(intern_symbol(L, "a-rather-long-ascii-name", 24)->u.sym.multibyte);
    arena_free(a);
}

static void key_lookup_matches_and_grows(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct lisp *L = intern_new(a);
    char name[64];
    struct value *first[3000];
    /* through several doublings of the table, short and long names */
    for (int k = 0; k < 3000; k++) {
        int len = snprintf(name, sizeof name, k % 3 ? "s%d" : "a-long-symbol-name-%d", k);
        uint64_t w0, w1;
        key_of(name, (size_t)len, &w0, &w1);
        first[k] = intern_symbol_key(L, name, (size_t)len, w0, w1);
        assert_int_equal(first[k]->u.sym.len, len);
    }
    for (int k = 0; k < 3000; k++) {
        int len = snprintf(name, sizeof name, k % 3 ? "s%d" : "a-long-symbol-name-%d", k);
        assert_ptr_equal(intern_symbol(L, name, (size_t)len), first[k]);
        uint64_t w0, w1;
        key_of(name, (size_t)len, &w0, &w1);
        assert_ptr_equal(intern_symbol_key(L, name, (size_t)len, w0, w1), first[k]);
    }
    /* creation order is the order of first interning */
    for (int k = 1; k < 3000; k++)
        assert_true(first[k]->u.sym.id > first[k - 1]->u.sym.id);
    arena_free(a);
}

static void reserve_keeps_symbols(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct lisp *L = intern_new(a);
    struct value *foo = intern_cstr(L, "foo");
    intern_reserve(L, 10000);
    assert_ptr_equal(intern_cstr(L, "foo"), foo);
    assert_ptr_equal(intern_symbol(L, "nil", 3), L->nil);
    assert_ptr_equal(intern_find(L, ",@", 2), L->comma_at);
    intern_reserve(L, 0);
    assert_ptr_equal(intern_symbol(L, "quote", 5), L->quote);
    arena_free(a);
}

/* With the values in another arena (intern_set_arena), the interned
 * symbols and the table stay in the table's arena: they outlive the
 * values' arena, freed after each of several runs, while the table grows
 * during them; values and uninterned symbols come from the runs' arenas. */
static void symbols_outlive_the_values_arena(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct lisp *L = intern_new(a);
    struct value *first[3];
    char name[32];
    for (int run = 0; run < 3; run++) {
        struct arena *v = support_arena();
        intern_set_arena(L, v);
        size_t before = v->total;
        for (int i = 0; i < 2000; i++) { /* grows the table */
            snprintf(name, sizeof name, "sym-%d-%d", run, i);
            intern_cstr(L, name);
        }
        assert_int_equal(v->total, before); /* nothing of the table in v */
        first[run] = intern_cstr(L, "sym-0-0");
        struct value *u = intern_uninterned(L, "u", 1);
        struct value *c = value_cons(L->a, u, L->nil);
        assert_true(v->total > before); /* values and uninterned symbols in v */
        assert_ptr_equal(value_car(c), u);
        arena_free(v);
    }
    assert_ptr_equal(first[1], first[0]);
    assert_ptr_equal(first[2], first[0]);
    assert_string_equal(first[0]->u.sym.name, "sym-0-0");
    snprintf(name, sizeof name, "sym-%d-%d", 1, 1999);
    assert_non_null(intern_find(L, name, strlen(name)));
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_stay_apart),
        cmocka_unit_test(nul_bytes_and_high_bytes),
        cmocka_unit_test(key_lookup_matches_and_grows),
        cmocka_unit_test(reserve_keeps_symbols),
        cmocka_unit_test(symbols_outlive_the_values_arena),
    };
    return SUPPORT_RUN(tests);
}
