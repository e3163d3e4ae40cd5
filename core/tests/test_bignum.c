/* test_bignum.c - radix conversion: the divide-and-conquer result equals
 * the plain quadratic one, its cost grows as n^1.59, not n^2, and a
 * radix literal's value is computed only when it is needed. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisp/bignum.h"
#include "lisp/intern.h"
#include "lisp/print.h"
#include "syntax/read.h"

/* Digits of a number in radix, from a fixed pseudo-random sequence; the
 * first is not 0.  test_malloc'd. */
static char *random_digits(size_t n, int radix, unsigned seed)
{
    char *d = test_malloc(n + 1);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        int v = (int)((x >> 16) % (uint32_t)radix);
        if (i == 0 && v == 0)
            v = 1;
        d[i] = (char)(v < 10 ? '0' + v : 'a' + v - 10);
    }
    d[n] = 0;
    return d;
}

/* The reference: one digit at a time, into decimal limbs (quadratic). */
static char *plain_decimal(const char *d, size_t n, int radix)
{
    size_t cap = n + 2, nl = 1;
    uint32_t *limbs = test_calloc(cap, sizeof *limbs);
    for (size_t i = 0; i < n; i++) {
        uint64_t carry = (uint64_t)(d[i] <= '9' ? d[i] - '0' : d[i] - 'a' + 10);
        for (size_t k = 0; k < nl; k++) {
            uint64_t v = (uint64_t)limbs[k] * (uint64_t)radix + carry;
            limbs[k] = (uint32_t)(v % 1000000000u);
            carry = v / 1000000000u;
        }
        if (carry)
            limbs[nl++] = (uint32_t)carry;
    }
    char *out = test_malloc(nl * 9 + 2);
    size_t p = (size_t)sprintf(out, "%u", (unsigned)limbs[nl - 1]);
    for (size_t k = nl - 1; k-- > 0;)
        p += (size_t)sprintf(out + p, "%09u", (unsigned)limbs[k]);
    test_free(limbs);
    return out;
}

/* Lengths around every threshold of the conversion (512-digit leaves,
 * cuts at 512 * 2^j, 40-limb Karatsuba products), in several radices. */
static void same_as_plain_conversion(void **state)
{
    (void)state;
    static const size_t lengths[] = {1, 2, 15, 16, 100, 511, 512, 513, 1023, 1024,
                                     1025, 2049, 4000, 9000, 20000};
    static const int radices[] = {2, 3, 8, 10, 16, 36};
    for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++) {
        for (size_t j = 0; j < sizeof radices / sizeof *radices; j++) {
            char *d = random_digits(lengths[i], radices[j], (unsigned)(i * 7 + j));
            char *want = plain_decimal(d, lengths[i], radices[j]);
            struct arena *a = support_arena();
            size_t len;
            char *got = bignum_to_decimal(a, d, lengths[i], radices[j], &len);
            if (strcmp(got, want) != 0)
                fail_msg("%zu digits in radix %d differ", lengths[i], radices[j]);
            assert_int_equal(len, strlen(want));
            arena_free(a);
            test_free(want);
            test_free(d);
        }
    }
}

/* Limb products for n random digits of radix 16. */
static uint64_t products(size_t n)
{
    char *d = random_digits(n, 16, 1);
    struct arena *a = support_arena();
    size_t len;
    uint64_t count = 0;
    bignum_to_decimal_counted(a, d, n, 16, &len, &count);
    arena_free(a);
    test_free(d);
    return count;
}

/* Four times the digits cost at most 4^1.7 (10.6) times the limb
 * products, where the quadratic conversion took 16 times; and 400,000
 * hexadecimal digits take under a fifth of the quadratic count (about
 * n^2 / 126 products: one per limb for each 7-digit chunk). */
static void cost_grows_as_n_to_the_1_59(void **state)
{
    (void)state;
    uint64_t small = products(100000), large = products(400000);
    assert_true(large * 10 < small * 106);
    uint64_t quadratic = (uint64_t)400000 * 400000 / 126;
    assert_true(large * 5 < quadratic);
}

/* A radix literal beyond int64 keeps its digits until its value is
 * needed (printed canonically, compared): reading does not convert. */
static void radix_literals_convert_when_needed(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct lisp *L = intern_new(a);
    char *d = random_digits(5000, 16, 3);
    char *text = test_malloc(5000 + 8);
    sprintf(text, "(#x%s)", d);
    struct read_result rr;
    assert_true(read_source(L, (const uint8_t *)text, strlen(text), &rr));
    struct value *v = value_car(rr.forms[0].v);
    assert_int_equal(v->kind, VK_BIGNUM);
    assert_null(v->u.big.digits);
    char *want = plain_decimal(d, 5000, 16);
    assert_string_equal(value_big_digits(v), want);
    /* a literal that fits int64 after all (leading zeros) is an integer */
    sprintf(text, "(#b%s)", "000000000000000000000000000000000000000000000000000000000000000000101");
    assert_true(read_source(L, (const uint8_t *)text, strlen(text), &rr));
    v = value_car(rr.forms[0].v);
    assert_int_equal(v->kind, VK_INT);
    assert_int_equal(v->u.i, 5);
    /* equal values from different radices are eql */
    sprintf(text, "(#x10000000000000000 #o2000000000000000000000 18446744073709551616)");
    assert_true(read_source(L, (const uint8_t *)text, strlen(text), &rr));
    struct value *x = value_car(rr.forms[0].v), *y = value_car(value_cdr(rr.forms[0].v));
    struct value *z = value_car(value_cdr(value_cdr(rr.forms[0].v)));
    assert_true(value_eql(x, y) && value_eql(y, z));
    test_free(want);
    test_free(text);
    test_free(d);
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_as_plain_conversion),
        cmocka_unit_test(cost_grows_as_n_to_the_1_59),
        cmocka_unit_test(radix_literals_convert_when_needed),
    };
    return SUPPORT_RUN(tests);
}
