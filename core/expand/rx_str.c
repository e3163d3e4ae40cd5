/* rx_str.c - Emacs strings as character arrays, and regexp-opt.
 *
 * Part of the rx translation (rx.h).  Strings track multibyteness as
 * concat / char-to-string / format do; rx_regexp_opt follows Emacs 30.1's
 * regexp-opt.el (prefix, suffix, one-character sets, first-character split).
 */
#include "expand/rx.h"

#include <stdlib.h>
#include <string.h>

struct rx_str *rx_str_new(struct arena *a)
{
    return ARENA_NEW(a, struct rx_str);
}

void rx_str_putc(struct arena *a, struct rx_str *s, uint32_t c)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        s->c = arena_grow(a, s->c, s->cap * sizeof *s->c, cap * sizeof *s->c);
        s->cap = cap;
    }
    s->c[s->n++] = c;
    if (c >= 0x80)
        s->mb = true;
}

void rx_str_puts(struct arena *a, struct rx_str *s, const char *t)
{
    for (; *t; t++)
        rx_str_putc(a, s, (unsigned char)*t);
}

void rx_str_append(struct arena *a, struct rx_str *s, const struct rx_str *o)
{
    for (size_t i = 0; i < o->n; i++)
        rx_str_putc(a, s, o->c[i]);
    s->mb = s->mb || o->mb;
}

struct rx_str *rx_str_of_value(struct arena *a, const struct value *v)
{
    struct rx_str *s = rx_str_new(a);
    const uint8_t *p = v->u.str.data;
    size_t n = v->u.str.len;
    for (size_t i = 0; i < n;) {
        if (!v->u.str.multibyte) {
            uint8_t b = p[i++];
            rx_str_putc(a, s, b < 0x80 ? b : VALUE_RAW_BYTE_BASE + b);
            continue;
        }
        int len = 1;
        rx_str_putc(a, s, value_char_decode(p + i, n - i, &len));
        i += (size_t)len;
    }
    s->mb = v->u.str.multibyte;
    return s;
}

struct value *rx_str_value(struct arena *a, const struct rx_str *s)
{
    uint8_t *bytes = arena_alloc(a, s->n * 5 + 1);
    size_t len = 0;
    for (size_t i = 0; i < s->n; i++) {
        uint32_t c = s->c[i];
        if (!s->mb)
            bytes[len++] = (uint8_t)(c < 0x80 ? c : c - VALUE_RAW_BYTE_BASE);
        else
            len += (size_t)value_char_encode(c, bytes + len);
    }
    return value_string(a, bytes, len, s->mb);
}

/* The characters regexp-quote escapes. */
static bool regexp_special(uint32_t c)
{
    return c && c < 0x80 && strchr("[*.\\?+^$", (int)c) != NULL;
}

void rx_str_put_quoted(struct arena *a, struct rx_str *out,
                       const struct rx_str *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (regexp_special(s->c[i]))
            rx_str_putc(a, out, '\\');
        rx_str_putc(a, out, s->c[i]);
    }
    out->mb = out->mb || s->mb;
}

struct rx_str *rx_str_of_char(struct arena *a, uint32_t c)
{
    struct rx_str *s = rx_str_new(a);
    rx_str_putc(a, s, c);
    return s;
}

/* ---- regexp-opt ---------------------------------------------------- */

struct ropt {
    struct arena *a;
    int depth;     /* recursion depth, bounded by RX_MAX_DEPTH */
    bool too_deep; /* set when the bound was hit */
};

/* string-lessp on character codes. */
static int str_cmp(const struct rx_str *x, const struct rx_str *y)
{
    size_t n = x->n < y->n ? x->n : y->n;
    for (size_t i = 0; i < n; i++)
        if (x->c[i] != y->c[i])
            return x->c[i] < y->c[i] ? -1 : 1;
    return x->n < y->n ? -1 : x->n > y->n;
}

static int str_cmp_q(const void *x, const void *y)
{
    return str_cmp(*(struct rx_str *const *)x, *(struct rx_str *const *)y);
}

/* Stable merge sort (Emacs's sort is stable; qsort is not). */
static void sort_strs(struct arena *a, struct rx_str **v, size_t n)
{
    if (n < 2)
        return;
    struct rx_str **tmp = ARENA_NEWN(a, struct rx_str *, n);
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = str_cmp_q(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
}

/* Substring [from, to) of s. */
static struct rx_str *substr(struct arena *a, const struct rx_str *s,
                             size_t from, size_t to)
{
    struct rx_str *r = rx_str_new(a);
    for (size_t i = from; i < to; i++)
        rx_str_putc(a, r, s->c[i]);
    r->mb = s->mb;
    return r;
}

/* Length of the common prefix (reverse: of the common suffix). */
static size_t common_affix(struct rx_str **v, size_t n, bool reverse)
{
    size_t len = v[0]->n;
    for (size_t i = 1; i < n; i++) {
        size_t k = 0;
        while (k < len && k < v[i]->n) {
            uint32_t x = reverse ? v[0]->c[v[0]->n - 1 - k] : v[0]->c[k];
            uint32_t y = reverse ? v[i]->c[v[i]->n - 1 - k] : v[i]->c[k];
            if (x != y)
                break;
            k++;
        }
        len = k;
    }
    return len;
}

/* Append the run start..end: a range when it has 4+ characters. */
static void put_run(struct arena *a, struct rx_str *out, uint32_t start,
                    uint32_t end)
{
    if (end > start + 2) {
        rx_str_putc(a, out, start);
        rx_str_putc(a, out, '-');
        rx_str_putc(a, out, end);
        return;
    }
    for (uint32_t c = start; c <= end; c++)
        rx_str_putc(a, out, c);
}

static int u32_cmp(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* The members of regexp-opt-charset's set: ] first, runs of 4+
 * characters as ranges, ^ and - last. */
static struct rx_str *charset_members(struct arena *a, uint32_t *chars, size_t n)
{
    bool bracket = false, caret = false, dash = false;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (chars[i] == ']')
            bracket = true;
        else if (chars[i] == '^')
            caret = true;
        else if (chars[i] == '-')
            dash = true;
        else
            chars[m++] = chars[i];
    }
    qsort(chars, m, sizeof *chars, u32_cmp);
    struct rx_str *all = rx_str_new(a);
    if (bracket)
        rx_str_putc(a, all, ']');
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j + 1 < m && chars[j + 1] <= chars[j] + 1)
            j++;
        put_run(a, all, chars[i], chars[j]);
        i = j + 1;
    }
    if (caret)
        rx_str_putc(a, all, '^');
    if (dash)
        rx_str_putc(a, all, '-');
    return all;
}

/* regexp-opt-charset. */
static struct rx_str *opt_charset(struct arena *a, uint32_t *chars, size_t n)
{
    struct rx_str *all = charset_members(a, chars, n);
    struct rx_str *r = rx_str_new(a);
    if (all->n == 0)
        rx_str_puts(a, r, "\\`a\\`");
    else if (all->n == 1)
        rx_str_put_quoted(a, r, all);
    else if (all->n == 2 && all->c[0] == '^' && all->c[1] == '-')
        rx_str_puts(a, r, "[-^]");
    else {
        rx_str_putc(a, r, '[');
        rx_str_append(a, r, all);
        rx_str_putc(a, r, ']');
    }
    return r;
}

static struct rx_str *opt_group(struct ropt *o, struct rx_str **v, size_t n,
                                bool paren, bool lax);

/* Text pieces of one regexp-opt-group level. */
struct grp {
    const char *open_group, *close_group;
    const char *open_charset, *close_charset;
};

static struct rx_str *wrap(struct ropt *o, const char *open,
                           struct rx_str *mid, const char *suffix,
                           const char *close)
{
    struct rx_str *r = rx_str_new(o->a);
    rx_str_puts(o->a, r, open);
    if (mid)
        rx_str_append(o->a, r, mid);
    rx_str_puts(o->a, r, suffix);
    rx_str_puts(o->a, r, close);
    return r;
}

/* Several one-character strings: a set, after the longer ones. */
static struct rx_str *opt_letters(struct ropt *o, const struct grp *g,
                                  struct rx_str **v, size_t n)
{
    uint32_t *letters = ARENA_NEWN(o->a, uint32_t, n);
    struct rx_str **rest = ARENA_NEWN(o->a, struct rx_str *, n);
    size_t nl = 0, nr = 0;
    for (size_t i = 0; i < n; i++) {
        /* string-to-char: a unibyte string's byte is its code, even >= 0x80 */
        uint32_t c = v[i]->n == 1 ? v[i]->c[0] : 0;
        if (v[i]->n == 1)
            letters[nl++] = !v[i]->mb && c >= 0x3FFF80 ? c - 0x3FFF00 : c;
        else
            rest[nr++] = v[i];
    }
    struct rx_str *set = opt_charset(o->a, letters, nl);
    if (nr == 0)
        return wrap(o, g->open_charset, set, "", g->close_charset);
    struct rx_str *r = wrap(o, g->open_group, opt_group(o, rest, nr, false, false),
                            "\\|", "");
    rx_str_append(o->a, r, set);
    rx_str_puts(o->a, r, g->close_group);
    return r;
}

/* A common prefix (or suffix) of length k: quote it, recurse on the rest. */
static struct rx_str *opt_affix(struct ropt *o, const struct grp *g,
                                struct rx_str **v, size_t n, size_t k,
                                bool suffix)
{
    struct rx_str **rest = ARENA_NEWN(o->a, struct rx_str *, n);
    for (size_t i = 0; i < n; i++)
        rest[i] = suffix ? substr(o->a, v[i], 0, v[i]->n - k)
                         : substr(o->a, v[i], k, v[i]->n);
    if (suffix)
        sort_strs(o->a, rest, n);
    struct rx_str *affix = suffix ? substr(o->a, v[0], v[0]->n - k, v[0]->n)
                                  : substr(o->a, v[0], 0, k);
    struct rx_str *inner = opt_group(o, rest, n, true, true);
    struct rx_str *r = rx_str_new(o->a);
    rx_str_puts(o->a, r, g->open_group);
    if (!suffix)
        rx_str_put_quoted(o->a, r, affix);
    rx_str_append(o->a, r, inner);
    if (suffix)
        rx_str_put_quoted(o->a, r, affix);
    rx_str_puts(o->a, r, g->close_group);
    return r;
}

/* No common prefix or suffix: split on the first character. */
static struct rx_str *opt_split(struct ropt *o, const struct grp *g,
                                struct rx_str **v, size_t n)
{
    size_t h = 1;
    while (h < n && v[h]->n > 0 && v[h]->c[0] == v[0]->c[0])
        h++;
    struct rx_str *r = wrap(o, g->open_group, opt_group(o, v, h, false, false),
                            "\\|", "");
    rx_str_append(o->a, r, opt_group(o, v + h, n - h, false, false));
    rx_str_puts(o->a, r, g->close_group);
    return r;
}

static bool has_second_letter(struct rx_str **v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (v[i]->n == 1)
            return true;
    return false;
}

static struct rx_str *opt_group_1(struct ropt *o, const struct grp *g,
                                  struct rx_str **v, size_t n)
{
    if (n == 0)
        return rx_str_new(o->a);
    if (n == 1) {
        struct rx_str *q = rx_str_new(o->a);
        rx_str_put_quoted(o->a, q, v[0]);
        if (v[0]->n == 1)
            return wrap(o, g->open_charset, q, "", g->close_charset);
        return wrap(o, g->open_group, q, "", g->close_group);
    }
    if (v[0]->n == 0)
        return wrap(o, g->open_charset, opt_group(o, v + 1, n - 1, true, true),
                    "?", g->close_charset);
    if (v[0]->n == 1 && has_second_letter(v, n))
        return opt_letters(o, g, v, n);
    size_t k = common_affix(v, n, false);
    if (k > 0)
        return opt_affix(o, g, v, n, k, false);
    k = common_affix(v, n, true);
    if (k > 0)
        return opt_affix(o, g, v, n, k, true);
    return opt_split(o, g, v, n);
}

/* regexp-opt-group (v sorted, distinct). */
static struct rx_str *opt_group(struct ropt *o, struct rx_str **v, size_t n,
                                bool paren, bool lax)
{
    if (o->depth >= RX_MAX_DEPTH * 4) {
        o->too_deep = true;
        return rx_str_new(o->a);
    }
    struct grp g = {
        .open_group = paren ? "\\(?:" : "",
        .close_group = paren ? "\\)" : "",
    };
    g.open_charset = lax ? "" : g.open_group;
    g.close_charset = lax ? "" : g.close_group;
    o->depth++;
    struct rx_str *r = opt_group_1(o, &g, v, n);
    o->depth--;
    return r;
}

struct rx_str *rx_regexp_opt(struct arena *a, struct rx_str **strings,
                             size_t n)
{
    if (n == 0) {
        struct rx_str *r = rx_str_new(a);
        rx_str_puts(a, r, "\\(?:\\`a\\`\\)");
        return r;
    }
    struct rx_str **v = ARENA_NEWN(a, struct rx_str *, n);
    memcpy(v, strings, n * sizeof *v);
    sort_strs(a, v, n);
    /* delete-dups after the sort: equal strings are adjacent */
    size_t m = 1;
    for (size_t i = 1; i < n; i++)
        if (str_cmp(v[m - 1], v[i]) != 0)
            v[m++] = v[i];
    struct ropt o = {.a = a};
    struct rx_str *r = opt_group(&o, v, m, true, true);
    return o.too_deep ? NULL : r;
}
