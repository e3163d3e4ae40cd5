/* bignum.c - radix-N digit strings -> decimal digit strings.
 *
 * Layer `lisp`, used by the reader for radix integer literals.  The number
 * is kept as little-endian limbs of nine decimal digits; each step
 * multiplies by radix^k and adds the value of the next k digits, with k as
 * large as fits in 32 bits, so a step is one pass over the limbs.
 */
#include "bignum.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LIMB_BASE 1000000000u

static int digit_of(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    return c - 'A' + 10;
}

/* limbs[0..*nl) = limbs * mul + add. */
static void mul_add(uint32_t *limbs, size_t *nl, uint32_t mul, uint32_t add)
{
    uint64_t carry = add;
    for (size_t k = 0; k < *nl; k++) {
        uint64_t x = (uint64_t)limbs[k] * mul + carry;
        limbs[k] = (uint32_t)(x % LIMB_BASE);
        carry = x / LIMB_BASE;
    }
    while (carry) {
        limbs[(*nl)++] = (uint32_t)(carry % LIMB_BASE);
        carry /= LIMB_BASE;
    }
}

/* Write the limbs as decimal (most significant limb unpadded). */
static char *limbs_to_text(struct arena *a, const uint32_t *limbs, size_t nl, size_t *len)
{
    char *out = arena_alloc(a, nl * 9 + 2);
    size_t p = (size_t)snprintf(out, 11, "%u", (unsigned)limbs[nl - 1]);
    for (size_t k = nl - 1; k-- > 0;)
        p += (size_t)snprintf(out + p, 10, "%09u", (unsigned)limbs[k]);
    out[p] = 0;
    *len = p;
    return out;
}

char *bignum_to_decimal(struct arena *a, const char *digits, size_t n, int radix,
                        size_t *len)
{
    /* The largest k with radix^k below 2^32. */
    uint32_t step_mul = (uint32_t)radix;
    int k = 1;
    while ((uint64_t)step_mul * (uint64_t)radix <= UINT32_MAX)
        step_mul *= (uint32_t)radix, k++;
    /* bits <= n*6 (radix 36 < 2^6); a 9-digit limb holds > 29 bits. */
    size_t cap = n * 6 / 29 + 3;
    uint32_t *limbs = arena_alloc(a, cap * sizeof *limbs);
    size_t nl = 1;
    limbs[0] = 0;
    size_t i = 0;
    while (i < n) {
        uint32_t mul = 1, add = 0;
        for (int j = 0; j < k && i < n; j++, i++) {
            mul *= (uint32_t)radix;
            add = add * (uint32_t)radix + (uint32_t)digit_of(digits[i]);
        }
        mul_add(limbs, &nl, mul, add);
    }
    while (nl > 1 && limbs[nl - 1] == 0)
        nl--;
    return limbs_to_text(a, limbs, nl, len);
}
