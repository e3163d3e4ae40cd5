/* test_value.c - value constructors, eql/equal, character coding, interning. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lisp/intern.h"

static void integers_pick_representation(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct value *v = value_integer_from_decimal(a, "0009223372036854775807", 22, false);
    assert_int_equal(v->kind, VK_INT);
    assert_true(v->u.i == INT64_MAX);
    assert_false(value_fixnump(v)); /* beyond 62 bits: a bignum in Emacs */
    v = value_integer_from_decimal(a, "9223372036854775808", 19, false);
    assert_int_equal(v->kind, VK_BIGNUM);
    assert_string_equal(v->u.big.digits, "9223372036854775808");
    v = value_integer_from_decimal(a, "9223372036854775808", 19, true);
    assert_int_equal(v->kind, VK_INT);
    assert_true(v->u.i == INT64_MIN);
    arena_free(a);
}

static void eql_on_floats_is_bitwise(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    assert_false(value_eql(value_float(a, 0.0), value_float(a, -0.0)));
    assert_true(value_eql(value_float(a, NAN), value_float(a, NAN)));
    assert_true(value_eql(value_int(a, 5), value_int(a, 5)));
    assert_false(value_eql(value_int(a, 5), value_float(a, 5.0)));
    arena_free(a);
}

static void equal_compares_structure(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct lisp *L = intern_new(a);
    struct value *x = lisp_listv(L, intern_cstr(L, "a"), value_string(a, "s", 1, false),
                                 value_int(a, 1), NULL);
    struct value *y = lisp_listv(L, intern_cstr(L, "a"), value_string(a, "s", 1, true),
                                 value_int(a, 1), NULL);
    assert_true(value_equal(x, y)); /* ASCII strings: multibyteness ignored */
    struct value *u = value_string(a, "\377", 1, false);
    struct value *m = value_string(a, "\xc1\xbf", 2, true); /* raw byte 255 */
    assert_false(value_equal(u, m));
    assert_int_equal(m->u.str.nchars, 1);
    /* A long list does not recurse on the C stack. */
    struct value *l1 = L->nil, *l2 = L->nil;
    for (int k = 0; k < 200000; k++) {
        l1 = value_cons(a, value_cons(a, value_int(a, k), L->nil), l1);
        l2 = value_cons(a, value_cons(a, value_int(a, k), L->nil), l2);
    }
    assert_true(value_equal(l1, l2));
    assert_int_equal(value_list_length(l1, L->nil), 200000);
    arena_free(a);
}

static void chars_round_trip(void **state)
{
    (void)state;
    uint32_t cs[] = {0, 0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xd800, 0xffff, 0x10000,
                     0x10ffff, 0x1fffff, 0x200000, 0x3fff7f, 0x3fff80, 0x3fffff};
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
        uint8_t buf[8];
        int n = value_char_encode(cs[k], buf), len;
        assert_int_equal(value_char_decode(buf, (size_t)n, &len), cs[k]);
        assert_int_equal(len, n);
    }
    const uint8_t bad[] = {0xff, 0x41};
    int len;
    assert_int_equal(value_char_decode(bad, 2, &len), 0x3fffff);
    assert_int_equal(len, 1);
}

static void interning_is_unique(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct lisp *L = intern_new(a);
    char name[32];
    struct value *first = NULL;
    for (int k = 0; k < 5000; k++) { /* forces table growth */
        snprintf(name, sizeof name, "sym%d", k);
        struct value *s = intern_cstr(L, name);
        if (k == 0)
            first = s;
    }
    assert_ptr_equal(intern_cstr(L, "sym0"), first);
    assert_ptr_equal(intern_cstr(L, "nil"), L->nil);
    assert_null(intern_find(L, "nope", 4));
    struct value *u = intern_uninterned(L, "sym0", 4);
    assert_ptr_not_equal(u, first);
    assert_false(u->u.sym.interned);
    arena_free(a);
}

/* A literal's symbol is cached by the literal's address: the same symbol
 * as intern_cstr's, before and after the table grows, and two literals
 * never share one. */
static void literals_intern_once(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct lisp *L = intern_new(a);
    struct value *let = INTERN_LIT(L, "let");
    assert_ptr_equal(let, intern_cstr(L, "let"));
    assert_ptr_not_equal(INTERN_LIT(L, "let*"), let);
    char name[32];
    for (int k = 0; k < 3000; k++) { /* table growth; cache slots reused */
        snprintf(name, sizeof name, "s%d", k);
        intern_cstr(L, name);
        assert_ptr_equal(INTERN_LIT(L, "let"), let);
    }
    assert_ptr_equal(intern_cstr(L, "let"), let);
    assert_string_equal(INTERN_LIT(L, "if")->u.sym.name, "if");
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers_pick_representation),
        cmocka_unit_test(eql_on_floats_is_bitwise),
        cmocka_unit_test(equal_compares_structure),
        cmocka_unit_test(chars_round_trip),
        cmocka_unit_test(interning_is_unique),
        cmocka_unit_test(literals_intern_once),
    };
    return SUPPORT_RUN(tests);
}
