/* bignum.h - radix conversion for integers of any size.
 *
 * Layer `lisp`.  Values keep big integers as decimal digit strings
 * (value.h), so exactly one operation is needed: turn the digits of a
 * radix-N literal (`#x...`, `#36r...`) into decimal, when its value is
 * (value_big_digits).
 */
#ifndef PCX_BIGNUM_H
#define PCX_BIGNUM_H

#include <stddef.h>
#include <stdint.h>

#include "../base/arena.h"

/* Decimal digits (no sign, no leading zeros; "0" for zero) of the number
 * written with n digits in radix 2..36 (each digit 0-9, a-z or A-Z and
 * below radix).  The result is NUL-terminated in arena a; *len gets its
 * length.  Time grows as n^1.59 (divide and conquer with Karatsuba's
 * multiplication); memory is linear. */
char *bignum_to_decimal(struct arena *a, const char *digits, size_t n, int radix,
                        size_t *len);

/* The same, adding to *products the number of limb products (9-digit by
 * 9-digit multiplications) it took: the measure of its cost that the
 * tests bound. */
char *bignum_to_decimal_counted(struct arena *a, const char *digits, size_t n,
                                int radix, size_t *len, uint64_t *products);

#endif
