/* bignum.h - radix conversion for integers of any size.
 *
 * Layer `lisp`.  Values keep big integers as decimal digit strings
 * (value.h), so the reader needs exactly one operation: turn the digits of
 * a radix-N literal (`#x...`, `#36r...`) into decimal.
 */
#ifndef PCX_BIGNUM_H
#define PCX_BIGNUM_H

#include <stddef.h>

#include "../base/arena.h"

/* Decimal digits (no sign, no leading zeros; "0" for zero) of the number
 * written with n digits in radix 2..36 (each digit 0-9, a-z or A-Z and
 * below radix).  The result is NUL-terminated in arena a; *len gets its
 * length.  Time is quadratic in n. */
char *bignum_to_decimal(struct arena *a, const char *digits, size_t n, int radix,
                        size_t *len);

#endif
