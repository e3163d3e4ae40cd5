/* value.c - constructors, equality and character coding for Lisp values. */
#include "value.h"

#include <stdlib.h>
#include <string.h>

#include "bignum.h"

/* Bytes of a value whose union member is `member`: conses and numbers
 * take a third or a quarter of the whole struct, strings and vectors
 * less than it too, which keeps the expander's output dense (printing it
 * was bound by cache misses).  Nothing writes another member into a
 * value or copies one whole. */
#define VALUE_SIZE(member) (offsetof(struct value, u) + sizeof(((struct value *)0)->u.member))

struct value *value_int(struct arena *a, int64_t i)
{
    struct value *v = arena_alloc(a, VALUE_SIZE(i));
    v->origin = 0;
    v->kind = VK_INT;
    v->u.i = i;
    return v;
}

struct value *value_integer_from_decimal(struct arena *a, const char *digits,
                                         size_t n, bool neg)
{
    while (n > 1 && digits[0] == '0')
        digits++, n--;
    /* int64 holds every 18-digit number; check 19 digits by value. */
    if (n <= 18 || (n == 19 && strncmp(digits, "9223372036854775807", 19) <= 0)) {
        uint64_t u = 0;
        for (size_t k = 0; k < n; k++)
            u = u * 10 + (uint64_t)(digits[k] - '0');
        return value_int(a, neg ? -(int64_t)u : (int64_t)u);
    }
    if (neg && n == 19 && strncmp(digits, "9223372036854775808", 19) == 0)
        return value_int(a, INT64_MIN);
    struct value *v = arena_zalloc(a, VALUE_SIZE(big));
    v->kind = VK_BIGNUM;
    v->u.big.digits = arena_strndup(a, digits, n);
    v->u.big.neg = neg;
    return v;
}

struct value *value_bignum_radix(struct arena *a, const char *digits, size_t n,
                                 int radix, bool neg)
{
    struct value *v = arena_zalloc(a, VALUE_SIZE(big));
    v->kind = VK_BIGNUM;
    v->u.big.radix_digits = arena_strndup(a, digits, n);
    v->u.big.radix_len = n;
    v->u.big.radix = radix;
    v->u.big.a = a;
    v->u.big.neg = neg;
    return v;
}

const char *value_big_digits(const struct value *v)
{
    if (!v->u.big.digits) {
        /* The value is not changed, only the form it is kept in: the
         * digits are computed at most once, by the run that owns v. */
        struct value_bignum *b = (struct value_bignum *)&v->u.big;
        size_t len;
        b->digits = bignum_to_decimal(b->a, b->radix_digits, b->radix_len, b->radix, &len);
    }
    return v->u.big.digits;
}

struct value *value_float(struct arena *a, double f)
{
    struct value *v = arena_alloc(a, VALUE_SIZE(f));
    v->origin = 0;
    v->kind = VK_FLOAT;
    v->u.f = f;
    return v;
}

struct value *value_cons(struct arena *a, struct value *car, struct value *cdr)
{
    struct value *v = arena_alloc(a, VALUE_SIZE(cons));
    v->origin = 0;
    v->kind = VK_CONS;
    v->u.cons.car = car;
    v->u.cons.cdr = cdr;
    return v;
}

struct value *value_string(struct arena *a, const void *data, size_t len,
                           bool multibyte)
{
    struct value *v = arena_alloc(a, VALUE_SIZE(str));
    v->origin = 0;
    v->kind = VK_STRING;
    uint8_t *d = (uint8_t *)arena_strndup(a, data, len);
    v->u.str.data = d;
    v->u.str.len = len;
    v->u.str.multibyte = multibyte;
    v->u.str.props = NULL;
    size_t nch = len;
    if (multibyte) {
        nch = 0;
        for (size_t k = 0; k < len; nch++) {
            int l;
            value_char_decode(d + k, len - k, &l);
            k += (size_t)l;
        }
    }
    v->u.str.nchars = nch;
    return v;
}

struct value *value_vector(struct arena *a, enum value_kind kind, size_t n)
{
    struct value *v = arena_alloc(a, VALUE_SIZE(vec));
    v->origin = 0;
    v->kind = (uint8_t)kind;
    v->u.vec.n = n;
    v->u.vec.items = n ? arena_zalloc(a, n * sizeof(struct value *)) : NULL;
    return v;
}

bool value_fixnump(const struct value *v)
{
    return v->kind == VK_INT && v->u.i >= VALUE_FIXNUM_MIN &&
           v->u.i <= VALUE_FIXNUM_MAX;
}

/* eql on floats compares bit patterns (so NaNs with equal payloads are eql
 * and 0.0 is not eql to -0.0), as Emacs does. */
bool value_eql(const struct value *x, const struct value *y)
{
    if (x == y)
        return true;
    if (x->kind != y->kind)
        return false;
    switch (x->kind) {
    case VK_INT:
        return x->u.i == y->u.i;
    case VK_FLOAT:
        return memcmp(&x->u.f, &y->u.f, sizeof(double)) == 0;
    case VK_BIGNUM:
        return x->u.big.neg == y->u.big.neg &&
               strcmp(value_big_digits(x), value_big_digits(y)) == 0;
    default:
        return false;
    }
}

static bool ascii_only(const struct value_string *s)
{
    for (size_t k = 0; k < s->len; k++)
        if (s->data[k] >= 0x80)
            return false;
    return true;
}

static bool string_equal(const struct value_string *a, const struct value_string *b)
{
    if (a->len != b->len || memcmp(a->data, b->data, a->len) != 0)
        return false;
    return a->multibyte == b->multibyte || ascii_only(a);
}

/* Compare two non-container atoms (or identical containers). */
static bool atom_equal(const struct value *x, const struct value *y)
{
    if (x->kind == VK_STRING)
        return string_equal(&x->u.str, &y->u.str);
    if (x->kind == VK_BOOLVEC)
        return x->u.bv.nbits == y->u.bv.nbits &&
               memcmp(x->u.bv.bits, y->u.bv.bits, (x->u.bv.nbits + 7) / 8) == 0;
    return value_eql(x, y);
}

static bool is_vectorlike(int k)
{
    return k == VK_VECTOR || k == VK_RECORD || k == VK_BYTECODE ||
           k == VK_CHARTABLE || k == VK_SUBCHARTABLE;
}

#define EQUAL_STACK 256

/* Move the pair stack to a larger heap block (the first one is on the C
 * stack).  Returns NULL when memory is exhausted. */
static const struct value **realloc_pairs(const struct value **heap,
                                          const struct value **st,
                                          size_t cap, size_t ncap)
{
    const struct value **n = realloc(heap, ncap * 2 * sizeof *n);
    if (n && !heap)
        memcpy(n, st, cap * 2 * sizeof *n);
    return n;
}

/* Iterative structural equality: pairs still to compare are kept on an
 * explicit stack (first on the C stack, then on the heap), cdr chains are
 * followed in a loop, so deep data cannot overflow the C stack.  If memory
 * for the stack runs out the answer is "not equal". */
bool value_equal(const struct value *x, const struct value *y)
{
    const struct value *small[EQUAL_STACK * 2];
    const struct value **st = small;
    size_t cap = EQUAL_STACK, top = 0;
    bool ok = true;
    const struct value **heap = NULL;
    st[top * 2] = x, st[top * 2 + 1] = y, top++;
    while (ok && top) {
        top--;
        x = st[top * 2], y = st[top * 2 + 1];
        for (;;) {
            if (x == y)
                break;
            if (x->kind != y->kind) { ok = false; break; }
            if (x->kind == VK_CONS) {
                if (top == cap) {
                    size_t ncap = cap * 2;
                    const struct value **n = realloc_pairs(heap, st, cap, ncap);
                    if (!n) { ok = false; break; }
                    heap = n, st = n, cap = ncap;
                }
                st[top * 2] = x->u.cons.car, st[top * 2 + 1] = y->u.cons.car, top++;
                x = x->u.cons.cdr, y = y->u.cons.cdr;
                continue;
            }
            if (is_vectorlike(x->kind)) {
                if (x->u.vec.n != y->u.vec.n) { ok = false; break; }
                for (size_t k = 0; k < x->u.vec.n; k++) {
                    if (top == cap) {
                        size_t ncap = cap * 2;
                        const struct value **n = realloc_pairs(heap, st, cap, ncap);
                        if (!n) { ok = false; break; }
                        heap = n, st = n, cap = ncap;
                    }
                    st[top * 2] = x->u.vec.items[k], st[top * 2 + 1] = y->u.vec.items[k], top++;
                }
                break;
            }
            ok = atom_equal(x, y);
            break;
        }
    }
    free(heap);
    return ok;
}

long value_list_length(const struct value *v, const struct value *nil)
{
    long n = 0;
    const struct value *slow = v;
    while (v != nil) {
        if (v->kind != VK_CONS)
            return -1;
        v = v->u.cons.cdr;
        n++;
        if ((n & 1) == 0) {
            slow = slow->u.cons.cdr;
            if (slow == v && v != nil)
                return -1;
        }
    }
    return n;
}

int value_char_encode(uint32_t c, uint8_t *out)
{
    if (c < 0x80) {
        out[0] = (uint8_t)c;
        return 1;
    }
    if (c >= 0x3FFF80 && c <= 0x3FFFFF) { /* raw byte: C0/C1 lead */
        uint32_t b = c - 0x3FFF00;
        out[0] = (uint8_t)(0xC0 | ((b >> 6) & 1));
        out[1] = (uint8_t)(0x80 | (b & 0x3F));
        return 2;
    }
    if (c < 0x800) {
        out[0] = (uint8_t)(0xC0 | (c >> 6));
        out[1] = (uint8_t)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (c >> 12));
        out[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (c & 0x3F));
        return 3;
    }
    if (c < 0x200000) {
        out[0] = (uint8_t)(0xF0 | (c >> 18));
        out[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
        out[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        out[3] = (uint8_t)(0x80 | (c & 0x3F));
        return 4;
    }
    out[0] = 0xF8;
    out[1] = (uint8_t)(0x80 | ((c >> 18) & 0x0F));
    out[2] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
    out[3] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
    out[4] = (uint8_t)(0x80 | (c & 0x3F));
    return 5;
}

/* Continuation bytes 1..k of p are 10xxxxxx? */
static bool conts(const uint8_t *p, size_t n, int k)
{
    if ((size_t)k >= n)
        return false;
    for (int j = 1; j <= k; j++)
        if ((p[j] & 0xC0) != 0x80)
            return false;
    return true;
}

/* Decoder for the internal encoding: shortest forms only; C0/C1 leads are
 * raw bytes; an invalid byte is one raw-byte character.  Surrogates
 * (ED A0 80 ...) are accepted, since "\ud800" makes one; a decoder of file
 * text must reject them itself (elisp-syntax.md 1.1). */
uint32_t value_char_decode(const uint8_t *p, size_t n, int *len)
{
    uint8_t b = p[0];
    *len = 1;
    if (b < 0x80)
        return b;
    if ((b == 0xC0 || b == 0xC1) && conts(p, n, 1)) {
        *len = 2;
        return 0x3FFF80 + (uint32_t)(((b & 1) << 6) | (p[1] & 0x3F));
    }
    if (b >= 0xC2 && b < 0xE0 && conts(p, n, 1)) {
        *len = 2;
        return ((uint32_t)(b & 0x1F) << 6) | (p[1] & 0x3F);
    }
    if (b >= 0xE0 && b < 0xF0 && conts(p, n, 2)) {
        uint32_t c = ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(p[1] & 0x3F) << 6) |
                     (p[2] & 0x3F);
        if (c >= 0x800) {
            *len = 3;
            return c;
        }
    }
    if (b >= 0xF0 && b < 0xF8 && conts(p, n, 3)) {
        uint32_t c = ((uint32_t)(b & 0x07) << 18) | ((uint32_t)(p[1] & 0x3F) << 12) |
                     ((uint32_t)(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
        if (c >= 0x10000 && c < 0x200000) {
            *len = 4;
            return c;
        }
    }
    if (b == 0xF8 && conts(p, n, 4)) {
        uint32_t c = ((uint32_t)(p[1] & 0x0F) << 18) | ((uint32_t)(p[2] & 0x3F) << 12) |
                     ((uint32_t)(p[3] & 0x3F) << 6) | (p[4] & 0x3F);
        if (c >= 0x200000 && c <= 0x3FFF7F && (p[1] & 0x30) == 0) {
            *len = 5;
            return c;
        }
    }
    return 0x3FFF00 + b;
}
