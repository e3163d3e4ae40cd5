/* print_atom.c - the printer's atoms: integers, floats, symbols, strings,
 * bool-vectors, as Emacs 30.1's prin1-to-string writes them
 * (elisp-syntax.md 2.2-2.5, 2.7).  print.c walks containers and calls
 * these for the leaves.  Output is in Emacs's internal encoding, like the
 * multibyte string prin1-to-string returns.
 */
#include "print.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print_fast.h"
#include "print_out.h"

/* ---- integers ---- */

/* Decimal digits of u, written backwards ending at end; returns the start. */
static char *digits_back(char *end, uint64_t u)
{
    do {
        *--end = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    return end;
}

static void put_int(struct buf *b, int64_t i)
{
    char tmp[24];
    uint64_t u = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
    char *p = digits_back(tmp + sizeof tmp, u);
    if (i < 0)
        *--p = '-';
    out_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

static const struct {
    uint32_t lo, hi;
} graphic_ranges[] = {
#include "print_graphic.inc"
};

/* Emacs's graphic_base_p: not a mark, separator, control, surrogate,
 * format or unassigned character (binary search in the range table). */
static bool graphic_base_p(uint32_t c)
{
    size_t lo = 0, hi = sizeof graphic_ranges / sizeof graphic_ranges[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c < graphic_ranges[mid].lo)
            hi = mid;
        else if (c > graphic_ranges[mid].hi)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

/* The ?\X letter for characters with a named escape, else 0. */
static char named_escape(uint32_t c)
{
    switch (c) {
    case 8: return 'b';
    case 9: return 't';
    case 10: return 'n';
    case 12: return 'f';
    case 13: return 'r';
    case 32: return 's';
    default: return 0;
    }
}

/* ?C syntax for character c if Emacs would use it; false otherwise. */
static bool put_char_syntax(struct buf *b, uint32_t c)
{
    char esc = named_escape(c);
    if (!esc && !graphic_base_p(c))
        return false;
    out_putc(b, '?');
    if (esc) {
        out_putc(b, '\\');
        out_putc(b, esc);
        return true;
    }
    if (c < 0x80 && strchr(";\"'\\(){}[]", (int)c))
        out_putc(b, '\\');
    uint8_t enc[5];
    out_put(b, enc, (size_t)value_char_encode(c, enc));
    return true;
}

void print_integer(struct buf *b, const struct value *v, bool as_chars)
{
    if (v->kind == VK_BIGNUM) {
        if (v->u.big.neg)
            out_putc(b, '-');
        const char *digits = value_big_digits(v);
        out_put(b, digits, strlen(digits));
    } else if (!(as_chars && v->u.i >= 0 && v->u.i <= 0x10FFFF &&
                 put_char_syntax(b, (uint32_t)v->u.i))) {
        put_int(b, v->u.i);
    }
    out_end(b);
}

/* ---- floats ---- */

/* f's text when it has at most 4 decimals and 15 digits (2.0, 22.1,
 * -0.25: most floats in code), its digits with the point put in; 0 for
 * other floats.  Such a text is what "%.15g" prints (f is far closer to
 * it than half a unit of its 15th digit, and it needs no exponent) and
 * reads back as f (r / 10^k rounds as strtod does), so the snprintf and
 * strtod round trip is not needed.  out has room for 24 bytes. */
static int float_decimal(char *out, double f)
{
    static const double scale[] = {1, 10, 100, 1000, 10000};
    for (int k = 0; k < 5; k++) {
        double x = f * scale[k];
        if (!(fabs(x) < 1e15)) /* NaN too */
            return 0;
        int64_t r = (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
        if ((double)r / scale[k] != f)
            continue;
        char tmp[24], *p = tmp + sizeof tmp;
        uint64_t u = r < 0 ? 0 - (uint64_t)r : (uint64_t)r;
        for (int d = 0; d < k; d++, u /= 10)
            *--p = (char)('0' + u % 10);
        if (k)
            *--p = '.';
        p = digits_back(p, u);
        if (signbit(f))
            *--p = '-';
        int n = (int)(tmp + sizeof tmp - p);
        memcpy(out, p, (size_t)n);
        return n;
    }
    return 0;
}

/* Shortest "%.Pg" text (P = 15, 16, 17; from 1 below DBL_MIN) that reads
 * back as f.  Returns the length. */
static int float_shortest(char *out, size_t cap, double f)
{
    int n = cap >= 24 ? float_decimal(out, f) : 0;
    if (n)
        return n;
    for (int p = fabs(f) < DBL_MIN ? 1 : DBL_DIG;; p++) {
        n = snprintf(out, cap, "%.*g", p, f);
        if (n < 0 || p >= DBL_DIG + 2 || strtod(out, NULL) == f)
            return n;
    }
}

/* Parse a float-output-format Emacs accepts: "%." [digits] one of e f g,
 * precision <= 15, 0 only with f.  *width gets the precision or -1 when
 * none was written. */
static bool float_format_ok(const char *fmt, int *width, char *conv)
{
    if (fmt[0] != '%' || fmt[1] != '.')
        return false;
    const char *p = fmt + 2;
    *width = -1;
    if (*p >= '0' && *p <= '9') {
        *width = 0;
        while (*p >= '0' && *p <= '9') {
            *width = *width * 10 + (*p++ - '0');
            if (*width > DBL_DIG)
                return false;
        }
        if (*width == 0 && *p != 'f')
            return false;
    }
    if ((*p != 'e' && *p != 'f' && *p != 'g') || p[1] != 0)
        return false;
    *conv = *p;
    return true;
}

static int float_user(char *out, size_t cap, double f, int width, char conv)
{
    int prec = width < 0 ? 0 : width;
    if (conv == 'e')
        return snprintf(out, cap, "%.*e", prec, f);
    if (conv == 'f')
        return snprintf(out, cap, "%.*f", prec, f);
    return snprintf(out, cap, "%.*g", prec, f);
}

/* Make the text read as a float: "1" -> "1.0", "1." -> "1.0" (s has room
 * for two more bytes).  Returns the new length. */
static size_t float_add_point(char *s, size_t n)
{
    size_t k = 0;
    while (k < n && ((s[k] >= '0' && s[k] <= '9') || s[k] == '-'))
        k++;
    if (k == n) {
        s[n++] = '.';
        s[n++] = '0';
    } else if (s[k] == '.' && k + 1 == n) {
        s[n++] = '0';
    }
    return n;
}

/* NaN: sign, the 51 payload bits below the quiet bit, ".0e+NaN". */
static void put_nan(struct buf *b, double f)
{
    uint64_t bits;
    memcpy(&bits, &f, sizeof bits);
    if (bits >> 63)
        out_putc(b, '-');
    char tmp[24];
    char *p = digits_back(tmp + sizeof tmp, bits & ((UINT64_C(1) << 51) - 1));
    out_put(b, p, (size_t)(tmp + sizeof tmp - p));
    OUT_LIT(b, ".0e+NaN");
}

void print_float_format(struct buf *b, double f, const char *float_format)
{
    if (isinf(f)) {
        if (f < 0)
            out_putc(b, '-');
        OUT_LIT(b, "1.0e+INF");
    } else if (isnan(f)) {
        put_nan(b, f);
    } else {
        char tmp[400]; /* %.15f of DBL_MAX is 325 bytes */
        int width = -1, n;
        char conv;
        if (float_format && float_format_ok(float_format, &width, &conv)) {
            n = float_user(tmp, sizeof tmp - 2, f, width, conv);
        } else {
            width = -1;
            n = float_shortest(tmp, sizeof tmp - 2, f);
        }
        if (n < 0)
            n = 0;
        size_t len = (size_t)n;
        if (width != 0) /* "%.0f" may print an integer, as in Emacs */
            len = float_add_point(tmp, len);
        out_put(b, tmp, len);
    }
    out_end(b);
}

void print_float(struct buf *b, double f)
{
    print_float_format(b, f, NULL);
}

/* ---- symbols ---- */

/* Initialisers of a byte table's second half: every byte from 0x80 (the
 * UTF-8 of a non-ASCII character) marked 1. */
#define MARK16 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
#define HIGH_BYTES_MARKED \
    [0x80] = MARK16, MARK16, MARK16, MARK16, MARK16, MARK16, MARK16, MARK16

/* ASCII characters prin1 escapes anywhere in a symbol's name: controls
 * and space, " \ ' ; # ( ) , ` [ ]  (`.` and `?` only at the start, as
 * Emacs 30 does: see starts_confusing).  Bytes from 0x80 are marked too:
 * they end a name's plain run, and take the careful loop. */
static const uint8_t sym_escape[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0..15 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 16..31 */
    1,                                              /* space */
    ['"'] = 1, ['\\'] = 1, ['\''] = 1, [';'] = 1, ['#'] = 1, ['('] = 1,
    [')'] = 1, [','] = 1, ['`'] = 1, ['['] = 1, [']'] = 1,
    HIGH_BYTES_MARKED,
};

/* Length of the run at the start of name p (NUL-terminated, so the
 * table's NUL ends the scan) that needs no backslash: two bytes a turn. */
static size_t plain_prefix(const uint8_t *p)
{
    size_t k = 0;
    while (!sym_escape[p[k]] && !sym_escape[p[k + 1]])
        k += 2;
    return k + !sym_escape[p[k]];
}

static size_t count_digits(const char *p, size_t k, size_t n)
{
    size_t s = k;
    while (k < n && p[k] >= '0' && p[k] <= '9')
        k++;
    return k - s;
}

/* exponent = (e|E) ([sign] digit+ | "+INF" | "+NaN"), filling p[k..n). */
static bool exponent_to_end(const char *p, size_t k, size_t n)
{
    if (k >= n || (p[k] != 'e' && p[k] != 'E'))
        return false;
    k++;
    if (n - k == 4 && (memcmp(p + k, "+INF", 4) == 0 || memcmp(p + k, "+NaN", 4) == 0))
        return true;
    if (k < n && (p[k] == '+' || p[k] == '-'))
        k++;
    size_t d = count_digits(p, k, n);
    return d > 0 && k + d == n;
}

bool print_name_is_number(const char *p, size_t n)
{
    size_t k = 0;
    if (k < n && (p[k] == '+' || p[k] == '-'))
        k++;
    size_t lead = count_digits(p, k, n), frac = 0;
    k += lead;
    if (k < n && p[k] == '.') {
        frac = count_digits(p, k + 1, n);
        k += 1 + frac;
    }
    if (lead == 0 && frac == 0)
        return false;
    return k == n || exponent_to_end(p, k, n);
}

/* Does the name start like a number (digit or '.', after a sign)? */
static bool starts_numeric(const char *p, size_t n)
{
    size_t k = (n && (p[0] == '+' || p[0] == '-')) ? 1 : 0;
    return k < n && ((p[k] >= '0' && p[k] <= '9') || p[k] == '.');
}

/* Does the name need a backslash before its first character whatever
 * that is: does it read as a number, or start with `.` or `?` (which
 * would start a dot or a character literal)? */
static bool starts_confusing(const char *p, size_t n)
{
    if (n && (p[0] == '.' || p[0] == '?'))
        return true;
    return starts_numeric(p, n) && print_name_is_number(p, n);
}

/* 1 when the name needs nothing (prints as it is), else 2: empty,
 * confusing at its start, or with a character that needs a backslash. */
static uint8_t name_class(const struct value_symbol *s)
{
    if (s->len == 0 || starts_confusing(s->name, s->len))
        return 2;
    return plain_prefix((const uint8_t *)s->name) == s->len ? 1 : 2;
}

bool print_symbol_plain(const struct value *sym)
{
    const struct value_symbol *s = &sym->u.sym;
    if (s->plain)
        return s->plain == 1;
    uint8_t c = name_class(s);
    /* A cache of a function of the name: not a change of the symbol.
     * Kept for interned symbols only: the fast path takes plain == 1 as
     * "prints as its name", which an uninterned one may not (the
     * caller's text for a temporary, #: with print-gensym). */
    if (s->interned)
        ((struct value *)sym)->u.sym.plain = c;
    return c == 1;
}

void print_symbol(struct buf *b, const struct value *sym, bool gensym)
{
    const struct value_symbol *s = &sym->u.sym;
    if (gensym && !s->interned) {
        OUT_LIT(b, "#:");
    } else if (s->len == 0) {
        OUT_LIT(b, "##");
        out_end(b);
        return;
    }
    if (print_symbol_plain(sym)) {
        out_name(b, s->name, s->len);
        out_end(b);
        return;
    }
    const uint8_t *p = (const uint8_t *)s->name;
    size_t n = s->len, o = 0;
    bool confusing = starts_confusing(s->name, n);
    char *d = out_room(b, 2 * n); /* at most one backslash per character */
    for (size_t k = 0; k < n; k++) {
        uint8_t c = p[k];
        if ((c == 0xC0 || c == 0xC1) && k + 1 < n && (p[k + 1] & 0xC0) == 0x80) {
            /* A raw-byte character goes out as the byte itself, as Emacs
             * writes it to a file; its internal C0/C1 form would read back
             * as other characters. */
            d[o++] = (char)(0x80 | ((c & 1) << 6) | (p[++k] & 0x3F));
            continue;
        }
        if (c < 0x80 ? sym_escape[c] || (k == 0 && confusing)
                     : c == 0xC2 && k + 1 < n && p[k + 1] == 0xA0) /* NBSP */
            d[o++] = '\\';
        d[o++] = (char)c;
    }
    b->len += o;
    out_end(b);
}

/* ---- strings ---- */

/* Backslash and octal digits for byte c: 3 digits when c > 077 or when the
 * next byte is an octal digit (so it cannot be absorbed), else minimal. */
static void put_octal(struct buf *b, unsigned c, int next)
{
    int digits = (c > 077 || (next >= '0' && next <= '7')) ? 3 : c > 7 ? 2 : 1;
    char *d = out_room(b, 4);
    size_t o = 0;
    d[o++] = '\\';
    while (digits--)
        d[o++] = (char)('0' + ((c >> (3 * digits)) & 7));
    b->len += o;
}

/* "\x" and at least four lowercase hex digits. */
static void put_hex_escape(struct buf *b, uint32_t c)
{
    char tmp[12];
    int n = 0;
    do {
        tmp[n++] = "0123456789abcdef"[c & 15];
        c >>= 4;
    } while (c || n < 4);
    OUT_LIT(b, "\\x");
    while (n)
        out_putc(b, tmp[--n]);
}

static bool is_xdigit(uint32_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* One character (code c, bytes p[0..len)) outside the octal/hex cases:
 * the newline/formfeed/quote escapes, control octal, or the bytes. */
static void put_plain_char(struct buf *b, uint32_t c, const uint8_t *p, int len,
                           int next, const struct print_opts *o)
{
    if (o->escape_newlines && (c == '\n' || c == '\f')) {
        out_putc(b, '\\');
        out_putc(b, c == '\n' ? 'n' : 'f');
    } else if (c == '"' || c == '\\') {
        out_putc(b, '\\');
        out_putc(b, (char)c);
    } else if (o->escape_control && (c < 32 || c == 127)) {
        put_octal(b, c, next);
    } else {
        out_put(b, p, (size_t)len);
    }
}

/* The general loop: every print-escape-* setting, one character at a time. */
static void string_slow(struct buf *b, const struct value_string *s,
                        const struct print_opts *o)
{
    bool need_nonhex = false; /* a \x escape was just written */
    for (size_t k = 0; k < s->len;) {
        int len = 1;
        uint32_t c = s->multibyte ? value_char_decode(s->data + k, s->len - k, &len)
                                  : s->data[k];
        int next = k + (size_t)len < s->len ? s->data[k + (size_t)len] : -1;
        if (s->multibyte ? c >= 0x3FFF80 : c >= 0x80) {
            put_octal(b, c & 0xFF, next);
            need_nonhex = false;
        } else if (s->multibyte && c >= 0x80 && o->escape_multibyte) {
            put_hex_escape(b, c);
            need_nonhex = true;
        } else {
            if (need_nonhex && is_xdigit(c))
                OUT_LIT(b, "\\ ");
            put_plain_char(b, c, s->data + k, len, next, o);
            need_nonhex = false;
        }
        k += (size_t)len;
    }
}

/* What ends a run of string bytes copied as they are: 1 always (the
 * quote, the backslash, bytes from 0x80), 2 with print-escape-newlines. */
static const uint8_t str_stop[256] = {
    ['\n'] = 2, ['\f'] = 2, ['"'] = 1, ['\\'] = 1,
    HIGH_BYTES_MARKED,
};

#define BYTES_ONE 0x0101010101010101u
#define BYTES_HIGH 0x8080808080808080u

/* The high bit of each byte of the result is set for a byte of w that
 * is c (and maybe for bytes after one that is: only the lowest flag, and
 * whether there is one, are exact; the other bits are noise). */
static inline uint64_t bytes_equal(uint64_t w, uint8_t c)
{
    uint64_t x = w ^ (BYTES_ONE * c);
    return (x - BYTES_ONE) & ~x;
}

/* The bytes of w (8 string bytes, the first in its low byte) that may
 * end a plain run under mask, flagged by their high bits: all that
 * str_stop marks, and with print-escape-newlines every control
 * character (one test for \n and \f; the byte loops copy the others).
 * Eight bytes checked in a few operations, not eight lookups. */
static inline uint64_t stop_bytes(uint64_t w, uint8_t mask)
{
    uint64_t m = w | bytes_equal(w, '"') | bytes_equal(w, '\\');
    if (mask & 2)
        m |= (w - BYTES_ONE * 0x20) & ~w;
    return m & BYTES_HIGH;
}

/* The end of the run of bytes from q that need nothing under mask. */
static const uint8_t *plain_run(const uint8_t *q, const uint8_t *end, uint8_t mask)
{
    while (end - q >= 8 && !stop_bytes(intern_load8(q), mask))
        q += 8;
    while (q < end && !(str_stop[*q] & mask))
        q++;
    return q;
}

/* The byte or character at q (before end) that ends a plain run, as the
 * default settings write it, into d (room for 5 bytes); *len gets its
 * bytes in the string.  Raw bytes (and unibyte bytes from 0x80) as
 * three octal digits: all are above 077. */
static char *put_special(char *d, const uint8_t *q, const uint8_t *end, bool multibyte,
                         int *len)
{
    uint32_t c = *q;
    *len = 1;
    if (c >= 0x80 && multibyte)
        c = value_char_decode(q, (size_t)(end - q), len);
    if (c >= 0x3FFF80 || (c >= 0x80 && !multibyte)) {
        c &= 0xFF;
        d[0] = '\\';
        d[1] = (char)('0' + (c >> 6));
        d[2] = (char)('0' + ((c >> 3) & 7));
        d[3] = (char)('0' + (c & 7));
        return d + 4;
    }
    if (c >= 0x80) {
        memcpy(d, q, (size_t)*len);
        return d + *len;
    }
    d[0] = '\\';
    d[1] = c == '\n' ? 'n' : c == '\f' ? 'f' : (char)c;
    return d + 2;
}

/* Default settings (only print-escape-newlines allowed): runs of bytes
 * that need nothing are copied in one go. */
static void string_fast(struct buf *b, const struct value_string *s, bool nl)
{
    const uint8_t *p = s->data, *end = p + s->len;
    uint8_t mask = nl ? 3 : 1;
    while (p < end) {
        const uint8_t *q = plain_run(p, end, mask);
        out_put(b, p, (size_t)(q - p));
        if (q == end)
            break;
        int len;
        char *d = out_room(b, 5);
        b->len += (size_t)(put_special(d, q, end, s->multibyte, &len) - d);
        p = q + len;
    }
}

/* The bytes from *pq that need no escape copied to d, eight at a time
 * while eight are left; stops at the first that may need one (as
 * stop_bytes says) or with fewer than eight left.  d has room for eight
 * bytes per byte left. */
static char *string_words(char *d, const uint8_t **pq, const uint8_t *end, uint8_t mask)
{
    const uint8_t *q = *pq;
    while (end - q >= 8) {
        uint64_t m = stop_bytes(intern_load8(q), mask);
        memcpy(d, q, 8);
        if (m) {
            size_t k = (size_t)__builtin_ctzll(m) / 8;
            d += k, q += k;
            break;
        }
        d += 8, q += 8;
    }
    *pq = q;
    return d;
}

/* print_string_short's general case: any length, any byte. */
static __attribute__((noinline)) char *string_short_any(char *d, const struct value *v, bool nl)
{
    const struct value_string *s = &v->u.str;
    const uint8_t *q = s->data, *end = q + s->len;
    uint8_t mask = nl ? 3 : 1;
    *d++ = '"';
    while (q < end) {
        d = string_words(d, &q, end, mask);
        while (q < end && !(str_stop[*q] & mask))
            *d++ = (char)*q++;
        if (q == end)
            break;
        int len;
        d = put_special(d, q, end, s->multibyte, &len);
        q += len;
    }
    *d++ = '"';
    return d;
}

char *print_string_short(char *d, const struct value *v, bool nl)
{
    /* Most strings of a program are a few bytes that need nothing: a
     * byte loop with no setup and no call, which the general case (word
     * checks, escapes) would cost several times over. */
    const uint8_t *q = v->u.str.data;
    size_t n = v->u.str.len, k = 0;
    uint8_t mask = nl ? 3 : 1;
    if (n < 8) {
        for (; k < n && !(str_stop[q[k]] & mask); k++)
            d[k + 1] = (char)q[k];
        if (k == n) {
            d[0] = '"';
            d[n + 1] = '"';
            return d + n + 2;
        }
    }
    return string_short_any(d, v, nl);
}

void print_string_text(struct buf *b, const struct value *v,
                       const struct print_opts *o)
{
    out_putc(b, '"');
    if (o->escape_control || o->escape_multibyte)
        string_slow(b, &v->u.str, o);
    else
        string_fast(b, &v->u.str, o->escape_newlines);
    out_putc(b, '"');
    out_end(b);
}

/* ---- bool-vectors ---- */

void print_boolvec(struct buf *b, const struct value *v, const struct print_opts *o)
{
    size_t real = (v->u.bv.nbits + 7) / 8, n = real;
    const uint8_t *d = v->u.bv.bits;
    OUT_LIT(b, "#&");
    char tmp[24];
    char *p = digits_back(tmp + sizeof tmp, v->u.bv.nbits);
    out_put(b, p, (size_t)(tmp + sizeof tmp - p));
    out_putc(b, '"');
    if (o->length >= 0 && (size_t)o->length < n)
        n = (size_t)o->length;
    for (size_t k = 0; k < n; k++) {
        unsigned c = d[k];
        if (o->escape_newlines && (c == '\n' || c == '\f')) {
            out_putc(b, '\\');
            out_putc(b, c == '\n' ? 'n' : 'f');
        } else if (c > 127 || (o->escape_control && (c < 32 || c == 127))) {
            put_octal(b, c, k + 1 < n ? d[k + 1] : -1);
        } else {
            if (c == '"' || c == '\\')
                out_putc(b, '\\');
            out_putc(b, (char)c);
        }
    }
    if (n < real)
        OUT_LIT(b, " ...");
    out_putc(b, '"');
    out_end(b);
}
