/* lex.c - source bytes -> tokens with leading trivia (see lex.h).
 *
 * Stage 1a of the pipeline.  The hot loops (trivia, atoms, strings) run
 * over bytes with one class table: every byte >= 0x80 is a symbol
 * constituent except the NBSP sequence C2 A0, and ASCII bytes never occur
 * inside a multibyte sequence, so byte-wise scanning finds the same token
 * boundaries as character-wise scanning.  Characters are decoded only where
 * their value matters (character literals, escapes).
 */
#include "lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "charname.h"

/* Byte classes for token scanning (elisp-syntax.md 1.1). */
enum { C_SYM, C_WS, C_DELIM, C_BSL, C_C2 };

static const uint8_t cls[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x00: controls */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x10: controls */
    [' '] = C_WS, ['"'] = C_DELIM, ['#'] = C_DELIM, ['\''] = C_DELIM,
    ['('] = C_DELIM, [')'] = C_DELIM, [','] = C_DELIM, [';'] = C_DELIM,
    ['['] = C_DELIM, ['\\'] = C_BSL, [']'] = C_DELIM, ['`'] = C_DELIM,
    [0xC2] = C_C2,
};

/* Bytes that end the fast scan of an atom: delimiters, whitespace and
 * controls, the backslash, and every byte >= 0x80 (flags, NBSP).  The
 * general scan_atom takes over at such a byte unless it ends the token. */
const uint8_t lex_atom_stop[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x00: controls */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x10: controls */
    [' '] = 1, ['"'] = 1, ['#'] = 1, ['\''] = 1, ['('] = 1, [')'] = 1,
    [','] = 1, [';'] = 1, ['['] = 1, ['\\'] = 1, [']'] = 1, ['`'] = 1,
    [0x80] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x80 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x90 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xA0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xB0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xC0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xD0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xE0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xF0 */
};

/* ---- eight bytes at a time ---- */

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* The 8 bytes at p as a little-endian word: byte k of the text is byte k
 * of the word on every host (one load where the host is little-endian). */
static inline uint64_t load8(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#elif !defined(__BYTE_ORDER__)
    w = 0;
    for (int k = 7; k >= 0; k--)
        w = (w << 8) | p[k];
#endif
    return w;
}

/* The high bit of every zero byte of x, and possibly of bytes above the
 * first zero byte (borrows): exact in whether it is 0 and in its lowest
 * set bit, which is all the callers use. */
static inline uint64_t zero_bytes(uint64_t x)
{
    return (x - ONES) & ~x & HIGHS;
}

/* Index of the lowest byte whose high bit is set in m (m != 0). */
static inline size_t first_byte(uint64_t m)
{
#ifdef __GNUC__
    return (size_t)__builtin_ctzll(m) / 8;
#else
    size_t k = 0;
    while (!(m & 0x80))
        m >>= 8, k++;
    return k;
#endif
}

static bool fail(struct lex *lx, size_t pos, const char *sym, const char *msg)
{
    lx->err.pos = (uint32_t)pos;
    lx->err.symbol = sym;
    lx->err.message = msg;
    return false;
}

static bool fail_eof(struct lex *lx)
{
    return fail(lx, lx->len, "end-of-file", "");
}

static bool failf(struct lex *lx, size_t pos, const char *sym, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool failf(struct lex *lx, size_t pos, const char *sym, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lx->msg, sizeof lx->msg, fmt, ap);
    va_end(ap);
    return fail(lx, pos, sym, lx->msg);
}

void lex_init(struct lex *lx, const uint8_t *text, size_t len, size_t start)
{
    lx->text = text;
    lx->len = len;
    lx->pos = start;
    lx->err.pos = 0;
    lx->err.symbol = NULL;
    lx->err.message = NULL;
    lx->msg[0] = 0;
}

/* ---- decoding ---- */

static inline bool cont(uint8_t b) { return (b & 0xC0) == 0x80; }

/* Multibyte sequences: leads C2..F8 with their continuation count; the
 * value must be in the range of that length (no overlong forms), 3-byte
 * surrogates are rejected, 5-byte forms stop below the raw bytes. */
uint32_t lex_decode(const uint8_t *p, size_t n, int *len)
{
    uint8_t b = p[0];
    *len = 1;
    if (b < 0x80)
        return b;
    if (b >= 0xC2 && b < 0xE0 && n >= 2 && cont(p[1])) {
        *len = 2;
        return ((uint32_t)(b & 0x1F) << 6) | (p[1] & 0x3F);
    }
    if (b >= 0xE0 && b < 0xF0 && n >= 3 && cont(p[1]) && cont(p[2])) {
        uint32_t c = ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(p[1] & 0x3F) << 6) |
                     (p[2] & 0x3F);
        if (c >= 0x800 && (c < 0xD800 || c > 0xDFFF)) {
            *len = 3;
            return c;
        }
    } else if (b >= 0xF0 && b < 0xF8 && n >= 4 && cont(p[1]) && cont(p[2]) &&
               cont(p[3])) {
        uint32_t c = ((uint32_t)(b & 0x07) << 18) | ((uint32_t)(p[1] & 0x3F) << 12) |
                     ((uint32_t)(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
        if (c >= 0x10000) {
            *len = 4;
            return c;
        }
    } else if (b == 0xF8 && n >= 5 && cont(p[1]) && cont(p[2]) && cont(p[3]) &&
               cont(p[4])) {
        uint32_t c = ((uint32_t)(p[1] & 0x3F) << 18) | ((uint32_t)(p[2] & 0x3F) << 12) |
                     ((uint32_t)(p[3] & 0x3F) << 6) | (p[4] & 0x3F);
        if (c >= 0x200000 && c <= 0x3FFF7F) {
            *len = 5;
            return c;
        }
    }
    return 0x3FFF00 + b;
}

size_t lex_count_chars(const uint8_t *p, size_t n)
{
    size_t k = 0, count = 0;
    while (k < n) {
        if (p[k] < 0x80) {
            k++;
        } else {
            int l;
            lex_decode(p + k, n - k, &l);
            k += (size_t)l;
        }
        count++;
    }
    return count;
}

/* Byte length of the character at p. */
static inline size_t char_len(const uint8_t *p, size_t n)
{
    int l = 1;
    if (*p >= 0x80)
        lex_decode(p, n, &l);
    return (size_t)l;
}

/* ---- trivia ---- */

/* Position just after the next LF at or after p (or n). */
static size_t after_line(const uint8_t *s, size_t n, size_t p)
{
    const uint8_t *nl = memchr(s + p, '\n', n - p);
    return nl ? (size_t)(nl - s) + 1 : n;
}

/* `#@DIGITS` at p (1.12.7, text read from a buffer): skip up to and
 * including the next 0x1F.  The character after a nonzero count is
 * consumed first, as Emacs does.  Returns p itself for `#@00`, which is a
 * token (the rest of the input reads as nil), and for a count past
 * Emacs's 64-bit integer, an error. */
static size_t skip_docref(const uint8_t *s, size_t n, size_t p)
{
    size_t q = p + 2;
    int digits = 0;
    bool nonzero = false;
    int64_t count = 0;
    while (q < n && s[q] >= '0' && s[q] <= '9') {
        int d = s[q] - '0';
        if (count > (INT64_MAX - d) / 10)
            return p;
        count = count * 10 + d;
        nonzero |= d != 0;
        digits++;
        q++;
        if (digits == 2 && !nonzero)
            return p;
    }
    if (nonzero && q < n)
        q += char_len(s + q, n - q);
    const uint8_t *us = q < n ? memchr(s + q, 0x1F, n - q) : NULL;
    return us ? (size_t)(us - s) + 1 : n;
}

/* First position at or after p that is not whitespace or a control
 * character (bytes <= ' '), eight bytes at a time: a byte is above ' '
 * when its low seven bits plus 0x5F carry into the high bit, or when the
 * high bit is already set.  No carry crosses a byte (0x7F + 0x5F < 0x100). */
static inline size_t skip_blank(const uint8_t *s, size_t n, size_t p)
{
    while (n - p >= 8) {
        uint64_t w = load8(s + p);
        uint64_t m = (((w & ~HIGHS) + ONES * 0x5F) | w) & HIGHS;
        if (m)
            return p + first_byte(m);
        p += 8;
    }
    while (p < n && s[p] <= ' ')
        p++;
    return p;
}

/* The bytes that may start trivia other than blanks: `;`, `#` (of `#!`
 * and `#@`), and the C2 of an NBSP. */
static const uint8_t trivia_start[256] = {[';'] = 1, ['#'] = 1, [0xC2] = 1};

/* First position at or after p that is not trivia. */
static inline size_t skip_trivia(const uint8_t *s, size_t n, size_t p)
{
    /* most tokens follow another one directly: no blank to skip */
    if (p < n && s[p] > ' ' && !trivia_start[s[p]])
        return p;
    for (;;) {
        p = skip_blank(s, n, p);
        if (p >= n)
            return n;
        uint8_t b = s[p];
        if (!trivia_start[b]) {
            return p;
        } else if (b == ';') {
            p = after_line(s, n, p);
        } else if (b == 0xC2 && p + 1 < n && s[p + 1] == 0xA0) {
            p += 2;
        } else if (b == '#' && p + 1 < n && s[p + 1] == '!') {
            p = after_line(s, n, p);
        } else if (b == '#' && p + 1 < n && s[p + 1] == '@') {
            size_t q = skip_docref(s, n, p);
            if (q == p)
                return p;
            p = q;
        } else {
            return p;
        }
    }
}

/* ---- atoms and strings ---- */

/* Does the byte at s[p] (or end of input) end a symbol token? */
static inline bool at_delimiter(const uint8_t *s, size_t n, size_t p)
{
    if (p >= n)
        return true;
    uint8_t c = cls[s[p]];
    return c == C_WS || c == C_DELIM ||
           (c == C_C2 && p + 1 < n && s[p + 1] == 0xA0);
}

/* Symbol-or-number token from p (which is not a delimiter): up to the next
 * delimiter, a backslash taking the following character whatever it is. */
static bool scan_atom(struct lex *lx, size_t p, struct lex_token *t, size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len;
    uint8_t acc = 0;
    for (;;) {
        while (p < n && cls[s[p]] == C_SYM)
            acc |= s[p++];
        if (p >= n)
            break;
        uint8_t c = cls[s[p]];
        if (c == C_BSL) {
            t->flags |= LEX_ESCAPED;
            if (p + 1 >= n)
                return fail_eof(lx);
            acc |= s[p + 1];
            p += 1 + char_len(s + p + 1, n - p - 1);
        } else if (c == C_C2 && !(p + 1 < n && s[p + 1] == 0xA0)) {
            acc |= 0x80;
            p++;
        } else {
            break;
        }
    }
    if (acc & 0x80)
        t->flags |= LEX_NONASCII;
    *end = p;
    return true;
}

/* Is there a modifier prefix (C- M- S- H- A- ^, and s- after a chained
 * backslash) at q?  Its length, or 0. */
static size_t prefix_len(const uint8_t *s, size_t n, size_t q, bool chained)
{
    if (q >= n)
        return 0;
    if (s[q] == '^')
        return 1;
    bool letter = s[q] && (strchr("CMSHA", s[q]) || (chained && s[q] == 's'));
    return letter && q + 1 < n && s[q + 1] == '-' ? 2 : 0;
}

size_t lex_string_escape_end(const uint8_t *s, size_t n, size_t q)
{
    bool chained = false;
    for (;;) {
        q++; /* past the backslash */
        if (q >= n)
            return n;
        size_t k = prefix_len(s, n, q, chained);
        if (k == 0) {
            if (s[q] == 'N' && q + 1 < n && s[q + 1] == '{') {
                const uint8_t *close = memchr(s + q, '}', n - q);
                return close ? (size_t)(close - s) + 1 : n;
            }
            return q + 1;
        }
        q += k;
        if (q >= n)
            return n;
        if (s[q] != '\\') /* the character the prefixes apply to, whatever it is */
            return q + 1;
        chained = true;
    }
}

/* String from the quote at p to the matching unescaped quote. */
static bool scan_string(struct lex *lx, size_t p, struct lex_token *t, size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len, q = p + 1;
    uint64_t acc = 0; /* OR of the bytes: its high bits say LEX_NONASCII */
    while (q < n) {
        if (n - q >= 8) { /* skip to the first quote or backslash */
            uint64_t w = load8(s + q);
            uint64_t m = zero_bytes(w ^ (ONES * '"')) | zero_bytes(w ^ (ONES * '\\'));
            if (!m) {
                acc |= w;
                q += 8;
                continue;
            }
            size_t k = first_byte(m);
            acc |= w & ((UINT64_C(1) << (8 * k)) - 1);
            q += k;
        }
        uint8_t b = s[q];
        if (b == '"')
            break;
        if (b == '\\') {
            t->flags |= LEX_ESCAPED;
            q = lex_string_escape_end(s, n, q);
            continue;
        }
        acc |= b;
        q++;
    }
    if (q >= n)
        return fail_eof(lx);
    if (acc & HIGHS)
        t->flags |= LEX_NONASCII;
    t->kind = LK_STRING;
    *end = q + 1;
    return true;
}

/* The high bit of each byte of w that is ASCII and neither a quote nor a
 * backslash.  Over the low seven bits of each byte, x + 0x7F reaches the
 * high bit unless x is zero, and carries into no other byte. */
static inline uint64_t plain_string_bytes(uint64_t w)
{
    uint64_t low = w & ~HIGHS, seven = ONES * 0x7F;
    return ((low ^ (ONES * '"')) + seven) & ((low ^ (ONES * '\\')) + seven) & ~w & HIGHS;
}

size_t lex_plain_string_end(const uint8_t *s, size_t n, size_t q)
{
    while (n - q >= 8) {
        uint64_t ok = plain_string_bytes(load8(s + q));
        if (ok != HIGHS)
            return q + first_byte(~ok & HIGHS);
        q += 8;
    }
    while (q < n && s[q] != '"' && s[q] != '\\' && s[q] < 0x80)
        q++;
    return q;
}

/* ---- escapes (elisp-syntax.md 1.6, 1.7) ---- */

static int hex_value(uint32_t c)
{
    if (c >= '0' && c <= '9')
        return (int)(c - '0');
    if (c >= 'a' && c <= 'f')
        return (int)(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return (int)(c - 'A' + 10);
    return -1;
}

/* \ooo: up to three octal digits; 0200..0377 are raw bytes. */
static int64_t octal_escape(const uint8_t *s, size_t n, size_t *q)
{
    int64_t i = s[*q] - '0';
    (*q)++;
    for (int k = 1; k < 3 && *q < n && s[*q] >= '0' && s[*q] <= '7'; k++)
        i = i * 8 + (s[(*q)++] - '0');
    return (i >= 0x80 && i < 0x100) ? 0x3FFF00 + i : i;
}

/* \xHH...: one or more hex digits up to 0xFFFFFFF; with one or two
 * digits a value >= 0x80 is a raw byte.  No digit is an error. */
static bool hex_escape(struct lex *lx, size_t *q, int64_t *out)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len;
    uint32_t i = 0;
    int count = 0, d;
    while (*q < n && (d = hex_value(s[*q])) >= 0) {
        i = (i << 4) + (uint32_t)d;
        if (i > 0xFFFFFFF)
            return failf(lx, *q, "error", "Hex character out of range: \\x%x...", i);
        count += count < 3;
        (*q)++;
    }
    if (count == 0)
        return fail(lx, *q < n ? *q : n, "error",
                    "Invalid escape char syntax: \\x not followed by hex digit");
    *out = (count < 3 && i >= 0x80) ? 0x3FFF00 + (int64_t)i : (int64_t)i;
    return true;
}

/* Append character c to buf as UTF-8 (for messages). */
static int put_char(char *buf, uint32_t c)
{
    if (c < 0x80) {
        buf[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        buf[0] = (char)(0xC0 | (c >> 6));
        buf[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        buf[0] = (char)(0xE0 | (c >> 12));
        buf[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        buf[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    buf[0] = (char)(0xF0 | ((c >> 18) & 7));
    buf[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    buf[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    buf[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* \uXXXX (4 digits) or \UXXXXXXXX (8 digits), at most U+10FFFF. */
static bool unicode_escape(struct lex *lx, size_t *q, int want, int64_t *out)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len;
    uint32_t i = 0;
    for (int k = 0; k < want; k++) {
        if (*q >= n)
            return failf(lx, n, "error", "Malformed Unicode escape: \\%c%x",
                         want == 4 ? 'u' : 'U', i);
        int l;
        uint32_t c = lex_decode(s + *q, n - *q, &l);
        int d = hex_value(c);
        if (d < 0) {
            char ch[5] = {0};
            put_char(ch, c);
            return failf(lx, *q, "error",
                         "Non-hex character used for Unicode escape: %s (%u)", ch, c);
        }
        i = (i << 4) + (uint32_t)d;
        *q += (size_t)l;
    }
    if (i > 0x10FFFF)
        return failf(lx, *q - 1, "error", "Non-Unicode character: 0x%x", i);
    *out = i;
    return true;
}

/* Value of a collapsed \N{} name: U+HEX (any number of hex digits, no
 * sign or space) or a Unicode name; -1 if none. */
static int32_t name_value(const char *name, size_t len)
{
    int64_t c;
    if (len >= 2 && name[0] == 'U' && name[1] == '+') {
        if (len == 2)
            return -1;
        c = 0;
        for (size_t k = 2; k < len; k++) {
            int d = hex_value((uint8_t)name[k]);
            if (d < 0)
                return -1;
            c = c > 0x10FFFF ? c : c * 16 + d; /* past the range it stays past */
        }
    } else {
        c = charname_lookup(name, len);
    }
    if (c < 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return -1;
    return (int32_t)c;
}

static bool is_name_space(uint32_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* \N{NAME}: q is at the N. */
static bool named_escape(struct lex *lx, size_t *q, int64_t *out)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len, p = *q + 1;
    if (p >= n || s[p] != '{')
        return fail(lx, p, "invalid-read-syntax", "Expected opening brace after \\N");
    char name[201];
    size_t len = 0;
    bool white = false;
    for (p++;;) {
        if (p >= n)
            return fail_eof(lx);
        int l;
        uint32_t c = lex_decode(s + p, n - p, &l);
        if (c == '}')
            break;
        if (c == 0 || c >= 0x80)
            return failf(lx, p, "invalid-read-syntax",
                         "Invalid character U+%04X in character name", c);
        p += (size_t)l;
        if (is_name_space(c) && white)
            continue;
        white = is_name_space(c);
        name[len++] = white ? ' ' : (char)c;
        if (len >= sizeof name)
            return fail(lx, p - 1, "invalid-read-syntax", "Character name too long");
    }
    if (len == 0)
        return fail(lx, p, "invalid-read-syntax", "Empty character name");
    int32_t v = name_value(name, len);
    if (v < 0)
        return failf(lx, p, "invalid-read-syntax", "\\N{%.*s}", (int)len, name);
    *q = p + 1;
    *out = v;
    return true;
}

/* An escape that is not a modifier prefix; q is at the character after
 * the backslash. */
static bool simple_escape(struct lex *lx, size_t *q, bool in_string, int64_t *out)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len;
    uint8_t b = s[*q];
    static const char letters[] = "abdefnrtvs";
    static const int8_t values[] = {7, 8, 127, 27, 12, 10, 13, 9, 11, 32};
    const char *hit = b ? strchr(letters, b) : NULL;
    if (hit) {
        (*q)++;
        *out = values[hit - letters];
        return true;
    }
    switch (b) {
    case '\n': /* nothing in a string (directly after its backslash) */
        if (!in_string)
            return fail(lx, *q, "error", "Invalid escape char syntax: \\<newline>");
        (*q)++;
        *out = -1;
        return true;
    case ' ':
        (*q)++;
        *out = in_string ? -1 : ' ';
        return true;
    case 'x':
        (*q)++;
        return hex_escape(lx, q, out);
    case 'u':
    case 'U':
        (*q)++;
        return unicode_escape(lx, q, b == 'u' ? 4 : 8, out);
    case 'N':
        return named_escape(lx, q, out);
    default:
        if (b >= '0' && b <= '7') {
            *out = octal_escape(s, n, q);
            return true;
        }
        int l;
        *out = lex_decode(s + *q, n - *q, &l);
        *q += (size_t)l;
        return true;
    }
}

/* A modifier prefix at q (C- ^ M- S- H- A-, and s- outside strings)?
 * Returns 1 and advances past it, 0 if there is none, -1 on error. */
static int modifier_prefix(struct lex *lx, size_t *q, bool in_string, int64_t *bits,
                           unsigned *nctl)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len;
    uint8_t b = s[*q];
    bool dash = *q + 1 < n && s[*q + 1] == '-';
    int64_t bit;
    switch (b) {
    case '^':
        (*q)++;
        (*nctl)++;
        return 1;
    case 's':
        if (in_string || !dash)
            return 0;
        bit = LEX_CHAR_SUPER;
        break;
    case 'C': bit = 0; break;
    case 'M': bit = LEX_CHAR_META; break;
    case 'S': bit = LEX_CHAR_SHIFT; break;
    case 'H': bit = LEX_CHAR_HYPER; break;
    case 'A': bit = LEX_CHAR_ALT; break;
    default:
        return 0;
    }
    if (!dash) {
        failf(lx, *q + 1 < n ? *q + 1 : n, "error",
              "Invalid escape char syntax: \\%c not followed by -", b);
        return -1;
    }
    *q += 2;
    *bits |= bit;
    *nctl += b == 'C';
    return 1;
}

/* Emacs 30's control rule (elisp-syntax.md 1.6), on the character
 * without its modifier bits: @ A-Z [ \ ] ^ _ and a-z become their
 * control characters, ? becomes DEL, anything else (digits, punctuation,
 * non-ASCII, raw bytes) gets the control bit. */
static int64_t control(int64_t c)
{
    int64_t base = c & ~LEX_CHAR_MODS, mods = c & LEX_CHAR_MODS;
    if ((base >= '@' && base <= '_') || (base >= 'a' && base <= 'z'))
        return (base & 0x1F) | mods;
    if (base == '?')
        return 127 | mods;
    return c | LEX_CHAR_CTL;
}

/* Modifier prefixes chain (`\C-\M-a`); they are read in a loop, not by
 * recursion.  The OR-ed bits commute with the control rule (which looks
 * only at the base character), and the rule is idempotent after two
 * applications, so the prefixes are counted rather than stacked.  The
 * input ending right after a prefix leaves Emacs 30.1 with no character
 * (-1): the value of a character literal, an invalid modifier in a
 * string. */
bool lex_escape(struct lex *lx, size_t *pos, bool in_string, int64_t *out)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len, q = *pos;
    int64_t bits = 0, base = 0;
    unsigned nctl = 0;
    bool string = in_string;
    for (;;) {
        if (q >= n)
            return fail_eof(lx);
        int k = modifier_prefix(lx, &q, in_string, &bits, &nctl);
        if (k < 0)
            return false;
        if (k == 0) {
            if (!simple_escape(lx, &q, in_string, &base))
                return false;
            break;
        }
        if (q >= n) {
            if (string)
                return fail(lx, *pos - 1, "invalid-read-syntax", "Invalid modifier in string");
            *pos = q;
            *out = -1;
            return true;
        }
        if (s[q] != '\\') {
            int l;
            base = lex_decode(s + q, n - q, &l);
            q += (size_t)l;
            break;
        }
        q++;
        in_string = false;
    }
    *pos = q;
    if (base == -1) {
        *out = -1;
        return true;
    }
    int64_t v = base | bits;
    for (unsigned k = 0; k < nctl && k < 3; k++)
        v = control(v);
    *out = v;
    return true;
}

/* ---- character literals ---- */

/* Characters allowed right after a character literal. */
static inline bool char_follower(uint8_t b)
{
    return cls[b] == C_WS || cls[b] == C_DELIM || b == '?' || b == '.';
}

static bool scan_char(struct lex *lx, size_t p, struct lex_token *t, size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len, q = p + 1;
    if (q >= n)
        return fail_eof(lx);
    t->kind = LK_CHAR;
    if (s[q] == ' ' || s[q] == '\t') { /* no terminator check */
        t->ival = s[q];
        *end = q + 1;
        return true;
    }
    int64_t v;
    if (s[q] == '\\') {
        q++;
        if (!lex_escape(lx, &q, false, &v))
            return false;
    } else {
        int l;
        v = lex_decode(s + q, n - q, &l);
        q += (size_t)l;
    }
    if (v != -1) {
        int64_t mods = v & LEX_CHAR_MODS, base = v & ~LEX_CHAR_MODS;
        if (base >= 0x3FFF80 && base <= 0x3FFFFF)
            base -= 0x3FFF00;
        v = base | mods;
    }
    if (q < n && !char_follower(s[q]))
        return fail(lx, q, "invalid-read-syntax", "?");
    t->ival = v;
    *end = q;
    return true;
}

/* ---- # syntaxes ---- */

static int digit_value(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return -1;
}

/* The invalid-read-syntax error at pos whose message is the text
 * [p, stop), stopping at a NUL (Emacs passes it as a C string). */
static bool fail_text(struct lex *lx, size_t p, size_t stop, size_t pos)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len, k = 0;
    char *m = lx->msg;
    for (size_t i = p; i < stop && k + 5 < sizeof lx->msg;) {
        int l;
        uint32_t c = lex_decode(s + i, stop - i, &l);
        if (c == 0)
            break;
        if (c >= 0x3FFF80) { /* a raw byte, in the internal encoding */
            m[k++] = (char)(0xC0 | ((c >> 6) & 1));
            m[k++] = (char)(0x80 | (c & 0x3F));
        } else {
            memcpy(m + k, s + i, (size_t)l);
            k += (size_t)l;
        }
        i += (size_t)l;
    }
    m[k] = 0;
    return fail(lx, pos < n ? pos : n, "invalid-read-syntax", m);
}

/* The error Emacs 30 gives for a `#` syntax it cannot read: the text
 * read so far, from the `#` at p to the character at q included (to the
 * end of the input when q is past it). */
static bool fail_hash(struct lex *lx, size_t p, size_t q)
{
    size_t n = lx->len;
    return fail_text(lx, p, q < n ? q + char_len(lx->text + q, n - q) : n, q);
}

/* Radix integer digits at q (after the prefix of the token at p), as
 * Emacs 30.1 reads them: an optional sign, then every ASCII letter or
 * digit, each a digit of the radix, at least one; leading zeros are
 * taken before the radix is looked at, so radix 0 and 1 (which #NrDIGITS
 * does not refuse) read zeros alone (1.5). */
static bool scan_radix(struct lex *lx, size_t p, size_t q, int64_t radix,
                       struct lex_token *t, size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len;
    t->aux = (uint32_t)(q - p);
    if (q < n && (s[q] == '+' || s[q] == '-'))
        q++;
    size_t d0 = q, bad = n + 1;
    while (q < n && s[q] == '0')
        q++;
    int d;
    while (q < n && (d = digit_value(s[q])) >= 0) {
        if (d >= radix && bad > n)
            bad = q;
        q++;
    }
    if (q == d0 || bad <= n)
        return failf(lx, q == d0 ? q : bad, "invalid-read-syntax", "integer, radix %lld",
                     (long long)radix);
    t->kind = LK_RADIX;
    t->ival = radix;
    *end = q;
    return true;
}

/* #N=, #N#, #NrDIGITS: q is at the first digit.  N is read as a 64-bit
 * integer; a radix up to 36 (0 and 1 included, as in Emacs 30.1) reads
 * digits, a label must be a fixnum; anything else is an error naming the
 * text read. */
static bool scan_numbered(struct lex *lx, size_t p, size_t q, struct lex_token *t,
                          size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len;
    int64_t v = 0;
    for (; q < n && s[q] >= '0' && s[q] <= '9'; q++) {
        int d = s[q] - '0';
        if (v > (INT64_MAX - d) / 10)
            return fail_hash(lx, p, q);
        v = v * 10 + d;
    }
    if (q >= n)
        return fail_hash(lx, p, n);
    if (s[q] == 'r' || s[q] == 'R') {
        if (v > 36)
            return failf(lx, q, "invalid-read-syntax", "integer, radix %lld", (long long)v);
        return scan_radix(lx, p, q + 1, v, t, end);
    }
    if (v > INT64_C(2305843009213693951) || (s[q] != '=' && s[q] != '#'))
        return fail_hash(lx, p, q);
    t->kind = s[q] == '=' ? LK_LABEL_DEF : LK_LABEL_REF;
    t->ival = v;
    *end = q + 1;
    return true;
}

/* #:NAME and #_NAME.  Directly followed by a delimiter, #: is an
 * uninterned symbol with the empty name and #_ the interned one, `##'. */
static bool scan_prefixed_symbol(struct lex *lx, size_t p, struct lex_token *t,
                                 size_t *end)
{
    bool colon = lx->text[p + 1] == ':';
    if (at_delimiter(lx->text, lx->len, p + 2)) {
        t->kind = colon ? LK_UNINTERNED : LK_EMPTY_SYMBOL;
        *end = p + 2;
        return true;
    }
    t->kind = colon ? LK_UNINTERNED : LK_NOSHORTHAND;
    return scan_atom(lx, p + 2, t, end);
}

/* #^[ and #^^[: p is at the `#`. */
static bool scan_chartable(struct lex *lx, size_t p, struct lex_token *t, size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len, q = p + 2;
    bool sub = q < n && s[q] == '^';
    q += sub;
    if (q < n && s[q] == '[') {
        t->kind = sub ? LK_SUBCHARTABLE : LK_CHARTABLE;
        *end = q + 1;
        return true;
    }
    /* after #^^ Emacs 30.1 names only what it read before the character */
    return sub ? fail_text(lx, p, q, q) : fail_hash(lx, p, q);
}

/* #&N: the decimal length directly after `#&`, then the string, which
 * must follow at once (the token ends before its quote). */
static bool scan_boolvec(struct lex *lx, size_t p, struct lex_token *t, size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len, q = p + 2;
    int64_t v = 0;
    for (; q < n && s[q] >= '0' && s[q] <= '9'; q++) {
        int d = s[q] - '0';
        if (v > (INT64_MAX - d) / 10)
            return fail(lx, q, "invalid-read-syntax", "#&");
        v = v * 10 + d;
    }
    if (q >= n || s[q] != '"')
        return fail(lx, q < n ? q : n, "invalid-read-syntax", "#&");
    t->kind = LK_BOOLVEC;
    t->ival = v;
    *end = q;
    return true;
}

/* `#@` where skip_trivia stopped: `#@00`, the rest of the input (read as
 * nil), or a count too large for Emacs's integer. */
static bool scan_docref(struct lex *lx, size_t p, struct lex_token *t, size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len;
    if (p + 3 < n && s[p + 2] == '0' && s[p + 3] == '0') {
        t->kind = LK_SKIP_END;
        *end = n;
        return true;
    }
    return fail(lx, p + 2, "invalid-read-syntax", "#@");
}

/* Single-token # forms: the kind for the character after #. */
static int hash_simple_kind(uint8_t c)
{
    switch (c) {
    case '\'': return LK_FUNCTION;
    case '(': return LK_PROPSTRING;
    case '[': return LK_BYTECODE;
    case '$': return LK_LOAD_NAME;
    case '#': return LK_EMPTY_SYMBOL;
    default: return -1;
    }
}

static bool scan_hash(struct lex *lx, size_t p, struct lex_token *t, size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len, q = p + 1;
    if (q >= n)
        return fail_hash(lx, p, n);
    uint8_t c = s[q];
    int k = hash_simple_kind(c);
    if (k >= 0) {
        t->kind = (uint8_t)k;
        *end = q + 1;
        return true;
    }
    switch (c) {
    case ':': case '_':
        return scan_prefixed_symbol(lx, p, t, end);
    case 's':
        if (q + 1 < n && s[q + 1] == '(') {
            t->kind = LK_RECORD;
            *end = q + 2;
            return true;
        }
        return fail_hash(lx, p, q + 1);
    case '^':
        return scan_chartable(lx, p, t, end);
    case '&':
        return scan_boolvec(lx, p, t, end);
    case 'x': case 'X':
        return scan_radix(lx, p, q + 1, 16, t, end);
    case 'o': case 'O':
        return scan_radix(lx, p, q + 1, 8, t, end);
    case 'b': case 'B':
        return scan_radix(lx, p, q + 1, 2, t, end);
    case '@': /* only what skip_trivia leaves gets here */
        return scan_docref(lx, p, t, end);
    default:
        if (c >= '0' && c <= '9')
            return scan_numbered(lx, p, q, t, end);
        return fail_hash(lx, p, q);
    }
}

/* ---- tokens ---- */

/* Is a `.` at p-1 a dotted-pair dot?  Only before whitespace (NBSP
 * included), the end of input or one of " ' ; ( [ # ? ` , (not before
 * ) or ]). */
static inline bool dot_follower(const uint8_t *s, size_t n, size_t p)
{
    if (p >= n || s[p] <= ' ')
        return true;
    switch (s[p]) {
    case 0xC2:
        return p + 1 < n && s[p + 1] == 0xA0;
    case '"': case '\'': case ';': case '(': case '[': case '#': case '?':
    case '`': case ',':
        return true;
    default:
        return false;
    }
}

/* A token of `len` bytes that needs no more scanning. */
static bool simple(struct lex_token *t, int kind, size_t p, size_t len, size_t *end)
{
    t->kind = (uint8_t)kind;
    *end = p + len;
    return true;
}

/* Every token but the plain atoms lex_next scans itself. */
static bool scan_token(struct lex *lx, size_t p, struct lex_token *t, size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len;
    switch (s[p]) {
    case '(': return simple(t, LK_LPAREN, p, 1, end);
    case ')': return simple(t, LK_RPAREN, p, 1, end);
    case '[': return simple(t, LK_LBRACK, p, 1, end);
    case ']': return simple(t, LK_RBRACK, p, 1, end);
    case '\'': return simple(t, LK_QUOTE, p, 1, end);
    case '`': return simple(t, LK_BACKQUOTE, p, 1, end);
    case ',':
        if (p + 1 < n && s[p + 1] == '@')
            return simple(t, LK_COMMA_AT, p, 2, end);
        return simple(t, LK_COMMA, p, 1, end);
    case '"':
        return scan_string(lx, p, t, end);
    case '?':
        return scan_char(lx, p, t, end);
    case '#':
        return scan_hash(lx, p, t, end);
    case '.':
        if (dot_follower(s, n, p + 1))
            return simple(t, LK_DOT, p, 1, end);
        break;
    default:
        break;
    }
    t->kind = LK_ATOM;
    return scan_atom(lx, p, t, end);
}

/* Does byte b start a symbol-or-number token that scan_plain_atom can
 * take (ASCII, not a delimiter, not `?` or `.`, which start other tokens
 * at the start of one)? */
static inline bool plain_atom_start(uint8_t b)
{
    return !lex_atom_stop[b] && b != '?' && b != '.';
}

/* The atom starting with the plain byte at p: ASCII constituents in a
 * tight loop; a backslash or non-ASCII byte hands over to scan_atom. */
static inline bool scan_plain_atom(struct lex *lx, size_t p, struct lex_token *t,
                                   size_t *end)
{
    const uint8_t *s = lx->text;
    size_t n = lx->len, q = lex_plain_end(s, n, p + 1);
    t->kind = LK_ATOM;
    if (q < n && (s[q] == '\\' || s[q] >= 0x80))
        return scan_atom(lx, q, t, end);
    *end = q;
    return true;
}

/* The kind of the one-byte tokens that need no look-ahead; 0 (LK_EOF)
 * for every other byte. */
static const uint8_t single_kind[256] = {
    ['('] = LK_LPAREN, [')'] = LK_RPAREN, ['['] = LK_LBRACK, [']'] = LK_RBRACK,
    ['\''] = LK_QUOTE, ['`'] = LK_BACKQUOTE,
};

size_t lex_skip_trivia(const uint8_t *text, size_t n, size_t p)
{
    /* the reader's usual case: the newline or space between two forms */
    if (p + 1 < n && text[p] <= ' ' && text[p + 1] > ' ' && !trivia_start[text[p + 1]])
        return p + 1;
    return skip_trivia(text, n, p);
}

/* Plain atoms and one-byte tokens, most of any text, are scanned here. */
bool lex_next(struct lex *lx, struct lex_token *t)
{
    size_t p = skip_trivia(lx->text, lx->len, lx->pos);
    t->lead = (uint32_t)lx->pos;
    t->start = (uint32_t)p;
    t->aux = 0;
    t->flags = 0;
    t->ival = 0;
    size_t end = p;
    if (p >= lx->len) {
        t->kind = LK_EOF;
    } else if (plain_atom_start(lx->text[p])) {
        if (!scan_plain_atom(lx, p, t, &end))
            return false;
    } else if (single_kind[lx->text[p]]) {
        t->kind = single_kind[lx->text[p]];
        end = p + 1;
    } else if (!scan_token(lx, p, t, &end)) {
        return false;
    }
    t->end = (uint32_t)end;
    lx->pos = end;
    return true;
}


void lex_trivia_lines(const uint8_t *text, size_t from, size_t to, bool *newline,
                      bool *empty)
{
    bool content = true; /* the first line is the previous token's */
    *newline = *empty = false;
    for (size_t k = from; k < to; k++) {
        uint8_t b = text[k];
        if (b == '\n') {
            *empty |= !content;
            *newline = true;
            content = false;
        } else if (b == ';') {
            content = true;
            const uint8_t *nl = memchr(text + k, '\n', to - k);
            k = nl ? (size_t)(nl - text) - 1 : to;
        } else if (b != ' ' && b != '\t' && b != '\f' && b != '\r') {
            content = true;
        }
    }
}
