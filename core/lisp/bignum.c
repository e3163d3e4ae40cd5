/* bignum.c - radix-N digit strings -> decimal digit strings.
 *
 * Layer `lisp`, used when the value of a radix integer literal is needed
 * (value_big_digits).  Numbers are little-endian limbs of nine decimal
 * digits.  A short digit string is converted a chunk of digits at a time
 * (multiply by radix^k, add the chunk: one pass over the limbs per
 * chunk, quadratic).  A long one is cut in two, the low part LEAF * 2^j
 * digits long: value = high * radix^(LEAF * 2^j) + low, both parts
 * converted the same way, and the powers radix^(LEAF * 2^j) made once by
 * squaring.  With Karatsuba's multiplication (three half-size products
 * instead of four) the whole takes time n^1.59 instead of n^2: 800,000
 * hexadecimal digits in a fraction of a second instead of ten seconds.
 * Temporaries are taken from the arena and given back (arena_release)
 * when each product or part is done, so memory stays linear.
 */
#include "bignum.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LIMB_BASE 1000000000u
/* Digits converted by the quadratic loop; longer strings are cut. */
#define LEAF_DIGITS 512
/* Products with fewer limbs on the shorter side are done directly. */
#define KARATSUBA_MIN 40
/* Limb products summed in 64 bits before their total is reduced: each
 * is below 10^18, and 16 of them plus a column's carry stay below 2^64. */
#define LAZY_TERMS 16

/* A number: n limbs at d, least significant first (leading zeros allowed). */
struct nat {
    uint32_t *d;
    size_t n;
};

struct conv {
    struct arena *a;
    int radix;
    struct nat *pow;   /* pow[j] = radix^(LEAF_DIGITS * 2^j), made on demand */
    size_t n_pow;
    uint64_t *products; /* limb products made (NULL: not counted) */
};

static int digit_of(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    return c - 'A' + 10;
}

static void count(struct conv *c, uint64_t k)
{
    if (c->products)
        *c->products += k;
}

/* Limbs enough for a number of n digits in radix (below 2^6): 29.8 bits a
 * limb. */
static size_t limbs_for(size_t n, int radix)
{
    int bits = 1;
    while ((1 << bits) < radix)
        bits++;
    return n * (size_t)bits / 29 + 2;
}

/* ---- the quadratic conversion ---- */

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

/* The n digits at s, a chunk at a time into out (room: limbs_for). */
static struct nat convert_short(struct conv *c, uint32_t *out, const char *s, size_t n)
{
    /* The largest k with radix^k below 2^32. */
    uint32_t step_mul = (uint32_t)c->radix;
    int k = 1;
    while ((uint64_t)step_mul * (uint64_t)c->radix <= UINT32_MAX)
        step_mul *= (uint32_t)c->radix, k++;
    size_t nl = 1;
    out[0] = 0;
    for (size_t i = 0; i < n;) {
        uint32_t mul = 1, add = 0;
        for (int j = 0; j < k && i < n; j++, i++) {
            mul *= (uint32_t)c->radix;
            add = add * (uint32_t)c->radix + (uint32_t)digit_of(s[i]);
        }
        count(c, nl);
        mul_add(out, &nl, mul, add);
    }
    return (struct nat){out, nl};
}

/* ---- multiplication ---- */

/* r[0..na+nb) = a * b for nb < KARATSUBA_MIN, column by column: the
 * products of a column are summed in 64 bits, reduced every LAZY_TERMS
 * products (one is below 10^18, and 16 of them and a carry stay below
 * 2^64). */
static void mul_basecase(uint32_t *r, const uint32_t *a, size_t na, const uint32_t *b,
                         size_t nb)
{
    uint64_t carry = 0; /* into the column */
    for (size_t k = 0; k + 1 < na + nb; k++) {
        size_t i = k >= nb ? k - nb + 1 : 0, hi = k < na ? k + 1 : na;
        const uint32_t *bk = b + k;
        uint64_t low = carry % LIMB_BASE, high = carry / LIMB_BASE;
        while (hi - i > LAZY_TERMS) {
            for (size_t end = i + LAZY_TERMS; i < end; i++)
                low += (uint64_t)a[i] * bk[-(ptrdiff_t)i];
            high += low / LIMB_BASE;
            low %= LIMB_BASE;
        }
        for (; i < hi; i++)
            low += (uint64_t)a[i] * bk[-(ptrdiff_t)i];
        r[k] = (uint32_t)(low % LIMB_BASE);
        carry = high + low / LIMB_BASE;
    }
    r[na + nb - 1] = (uint32_t)carry; /* below the base: the product has na + nb limbs */
}

/* r[0..n) += x[0..m) (m <= n); the carry out of r is dropped (the
 * caller knows the sum fits).  The limbs of x are added without a test
 * (the carry is a comparison's 0 or 1), then the carry runs on. */
static void add_into(uint32_t *r, size_t n, const uint32_t *x, size_t m)
{
    uint32_t carry = 0;
    size_t i = 0;
    for (; i < m; i++) {
        uint32_t s = r[i] + x[i] + carry;
        carry = s >= LIMB_BASE;
        r[i] = s - (carry ? LIMB_BASE : 0);
    }
    for (; carry && i < n; i++) {
        carry = r[i] == LIMB_BASE - 1;
        r[i] = carry ? 0 : r[i] + 1;
    }
}

/* t[0..n) -= x[0..m) + y[0..k) (m, k <= n; the difference is not
 * negative): one pass, the borrow 0, 1 or 2. */
static void sub2_from(uint32_t *t, size_t n, const uint32_t *x, size_t m,
                      const uint32_t *y, size_t k)
{
    int64_t borrow = 0;
    size_t i = 0;
    for (; i < n && (i < m || i < k || borrow); i++) {
        int64_t v = (int64_t)t[i] - (i < m ? x[i] : 0) - (i < k ? y[i] : 0) - borrow;
        borrow = (v < 0) + (v < -(int64_t)LIMB_BASE);
        t[i] = (uint32_t)(v + borrow * (int64_t)LIMB_BASE);
    }
}

/* s[0..h+1) = x[0..h) + x[h..n) (n - h <= h). */
static void add_halves(uint32_t *s, const uint32_t *x, size_t n, size_t h)
{
    memcpy(s, x, h * sizeof *s);
    s[h] = 0;
    add_into(s, h + 1, x + h, n - h);
}

static void mul(struct conv *c, uint32_t *r, const uint32_t *a, size_t na,
                const uint32_t *b, size_t nb);

/* mul for a much longer than b: slices of a as long as b, each product
 * added in its place. */
static void mul_slices(struct conv *c, uint32_t *r, const uint32_t *a, size_t na,
                       const uint32_t *b, size_t nb)
{
    struct arena_mark m = arena_mark(c->a);
    uint32_t *t = arena_alloc(c->a, 2 * nb * sizeof *t);
    memset(r, 0, (na + nb) * sizeof *r);
    for (size_t off = 0; off < na; off += nb) {
        size_t len = na - off < nb ? na - off : nb;
        mul(c, t, a + off, len, b, nb);
        add_into(r + off, na + nb - off, t, len + nb);
    }
    arena_release(c->a, m);
}

/* r[0..na+nb) = a * b (Karatsuba): with a = a1 B^h + a0 and b likewise,
 * a0 b0 and a1 b1 go straight into r, and (a0 + a1)(b0 + b1) - a0 b0 -
 * a1 b1 is added at B^h. */
static void mul(struct conv *c, uint32_t *r, const uint32_t *a, size_t na,
                const uint32_t *b, size_t nb)
{
    if (na < nb) {
        const uint32_t *t = a;
        size_t tn = na;
        a = b, na = nb, b = t, nb = tn;
    }
    size_t h = (na + 1) / 2;
    if (nb < KARATSUBA_MIN) {
        count(c, (uint64_t)na * nb);
        mul_basecase(r, a, na, b, nb);
        return;
    }
    if (nb <= h) {
        mul_slices(c, r, a, na, b, nb);
        return;
    }
    mul(c, r, a, h, b, h);
    mul(c, r + 2 * h, a + h, na - h, b + h, nb - h);
    struct arena_mark m = arena_mark(c->a);
    uint32_t *sa = arena_alloc(c->a, (h + 1) * sizeof *sa);
    uint32_t *sb = arena_alloc(c->a, (h + 1) * sizeof *sb);
    uint32_t *t = arena_alloc(c->a, (2 * h + 2) * sizeof *t);
    add_halves(sa, a, na, h);
    add_halves(sb, b, nb, h);
    mul(c, t, sa, h + 1, sb, h + 1);
    sub2_from(t, 2 * h + 2, r, 2 * h, r + 2 * h, na + nb - 2 * h);
    add_into(r + h, na + nb - h, t, 2 * h + 2 < na + nb - h ? 2 * h + 2 : na + nb - h);
    arena_release(c->a, m);
}

/* ---- divide and conquer ---- */

static struct nat trim(struct nat x)
{
    while (x.n > 1 && x.d[x.n - 1] == 0)
        x.n--;
    return x;
}

/* radix^(LEAF_DIGITS * 2^j), kept for the whole conversion. */
static struct nat power(struct conv *c, size_t j)
{
    while (c->n_pow <= j) {
        size_t k = c->n_pow++;
        if (k == 0) {
            /* "1" and LEAF_DIGITS zeros */
            char one[LEAF_DIGITS + 1];
            memset(one, '0', sizeof one);
            one[0] = '1';
            uint32_t *d = arena_alloc(c->a, limbs_for(sizeof one, c->radix) * sizeof *d);
            c->pow[0] = convert_short(c, d, one, sizeof one);
            continue;
        }
        struct nat p = c->pow[k - 1];
        uint32_t *d = arena_alloc(c->a, 2 * p.n * sizeof *d);
        mul(c, d, p.d, p.n, p.d, p.n);
        c->pow[k] = trim((struct nat){d, 2 * p.n});
    }
    return c->pow[j];
}

/* The n digits at s into out (room: limbs_for(n)). */
static struct nat convert(struct conv *c, uint32_t *out, const char *s, size_t n)
{
    if (n <= LEAF_DIGITS)
        return trim(convert_short(c, out, s, n));
    size_t j = 0, low = LEAF_DIGITS;
    while (2 * low < n)
        low *= 2, j++;
    struct nat p = power(c, j); /* before the mark: kept */
    struct arena_mark m = arena_mark(c->a);
    uint32_t *hd = arena_alloc(c->a, limbs_for(n - low, c->radix) * sizeof *hd);
    uint32_t *ld = arena_alloc(c->a, limbs_for(low, c->radix) * sizeof *ld);
    struct nat hi = convert(c, hd, s, n - low);
    struct nat lo = convert(c, ld, s + n - low, low);
    size_t room = limbs_for(n, c->radix);
    memset(out, 0, room * sizeof *out);
    /* hi * p has hi.n + p.n limbs, which may pass room only in zeros */
    uint32_t *prod = hi.n + p.n <= room ? out
                                        : arena_alloc(c->a, (hi.n + p.n) * sizeof *prod);
    mul(c, prod, hi.d, hi.n, p.d, p.n);
    if (prod != out)
        memcpy(out, prod, room * sizeof *out);
    add_into(out, room, lo.d, lo.n);
    arena_release(c->a, m);
    return trim((struct nat){out, room});
}

/* Write the limbs as decimal (most significant limb unpadded) into out
 * (room: 9 bytes a limb and 1). */
static size_t limbs_to_text(char *out, struct nat x)
{
    size_t p = (size_t)snprintf(out, 11, "%u", (unsigned)x.d[x.n - 1]);
    for (size_t k = x.n - 1; k-- > 0;) {
        uint32_t v = x.d[k];
        for (int i = 8; i >= 0; i--, v /= 10)
            out[p + (size_t)i] = (char)('0' + v % 10);
        p += 9;
    }
    out[p] = 0;
    return p;
}

char *bignum_to_decimal_counted(struct arena *a, const char *digits, size_t n,
                                int radix, size_t *len, uint64_t *products)
{
    struct nat pow[64];
    struct conv c = {a, radix, pow, 0, products};
    size_t limbs = limbs_for(n, radix);
    /* the text is kept; the limbs, the powers and every temporary go */
    char *text = arena_alloc(a, limbs * 9 + 2);
    struct arena_mark m = arena_mark(a);
    uint32_t *out = arena_alloc(a, limbs * sizeof *out);
    *len = limbs_to_text(text, convert(&c, out, digits, n));
    arena_release(a, m);
    return text;
}

char *bignum_to_decimal(struct arena *a, const char *digits, size_t n, int radix,
                        size_t *len)
{
    return bignum_to_decimal_counted(a, digits, n, radix, len, NULL);
}
