/* read_coding.c - the `coding:` file variable of a source text.
 *
 * Checked before stage 1 (reading): pcexpand decodes every file as Emacs's
 * extended UTF-8, which is right only for files that declare no coding
 * system, a UTF-8 variant, us-ascii or undecided.  Emacs looks for the
 * declaration in the `-*- ... -*-` line (first line, or second after a
 * `#!` line) and in a Local Variables block near the end.
 */
#include <string.h>

#include "read.h"

/* Coding systems whose decoding equals pcexpand's (sorted, lower case,
 * without -unix/-dos/-mac). */
static const char *const accepted[] = {
    "ascii",       "emacs-internal", "mule-utf-8", "prefer-utf-8",
    "undecided",   "us-ascii",       "utf-8",      "utf-8-auto",
    "utf-8-emacs", "utf-8-hfs",      "utf-8-with-signature",
};

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static bool ci_equal(const uint8_t *p, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (lower(p[k]) != lower((uint8_t)s[k]))
            return false;
    return true;
}

static bool ci_prefix(const uint8_t *p, const uint8_t *end, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(end - p) >= n && ci_equal(p, s, n);
}

/* First case-insensitive occurrence of s in [p, end).  Every needle here
 * ends in a byte that is not a letter, so memchr finds the candidates by
 * their last byte: the search costs little more than a memchr over the
 * text instead of a comparison at every position. */
static const uint8_t *find(const uint8_t *p, const uint8_t *end, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(end - p) < n)
        return NULL;
    uint8_t last = (uint8_t)s[n - 1];
    for (const uint8_t *q = p + n - 1; q < end; q++) {
        q = memchr(q, last, (size_t)(end - q));
        if (!q)
            return NULL;
        if (ci_equal(q - (n - 1), s, n - 1))
            return q - (n - 1);
    }
    return NULL;
}

static bool blank(uint8_t c) { return c == ' ' || c == '\t'; }

static bool accepted_name(const uint8_t *p, size_t n)
{
    static const char *const eols[] = {"-unix", "-dos", "-mac"};
    for (size_t k = 0; k < 3; k++) {
        size_t m = strlen(eols[k]);
        if (n > m && ci_prefix(p + n - m, p + n, eols[k])) {
            n -= m;
            break;
        }
    }
    for (size_t k = 0; k < sizeof accepted / sizeof *accepted; k++)
        if (strlen(accepted[k]) == n && ci_prefix(p, p + n, accepted[k]))
            return true;
    return false;
}

/* The value of a `coding:` at p (p at "coding:"), up to a blank, `;` or
 * end; false if it is not accepted. */
static bool check_value(const uint8_t *text, const uint8_t *p, const uint8_t *end,
                        struct span *name)
{
    p += 7;
    while (p < end && blank(*p))
        p++;
    const uint8_t *v = p;
    while (p < end && !blank(*p) && *p != ';' && *p != '\n' && *p != '\r')
        p++;
    if (p == v || accepted_name(v, (size_t)(p - v)))
        return true;
    name->start = (uint32_t)(v - text);
    name->end = (uint32_t)(p - text);
    return false;
}

static const uint8_t *line_end(const uint8_t *p, const uint8_t *end)
{
    const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl : end;
}

/* `-*- ... coding: X ... -*-` on the first line (second after #!). */
static bool check_cookie(const uint8_t *text, size_t len, struct span *name)
{
    const uint8_t *end = text + len, *ls = text, *le = line_end(ls, end);
    if (len >= 2 && text[0] == '#' && text[1] == '!' && le < end)
        ls = le + 1, le = line_end(ls, end);
    const uint8_t *a = find(ls, le, "-*-");
    const uint8_t *b = a ? find(a + 3, le, "-*-") : NULL;
    if (!b)
        return true;
    for (const uint8_t *p = a + 3; (p = find(p, b, "coding:")) != NULL; p++) {
        const uint8_t *q = p;
        while (q > a + 3 && blank(q[-1]))
            q--;
        if (q == a + 3 || q[-1] == ';')
            return check_value(text, p, b, name);
    }
    return true;
}

/* A Local Variables block in the last 3000 bytes: lines that start with
 * the prefix of the `Local Variables:` line, up to `End:`. */
static bool check_local_variables(const uint8_t *text, size_t len, struct span *name)
{
    const uint8_t *end = text + len;
    const uint8_t *start = len > READ_CODING_TAIL ? end - READ_CODING_TAIL : text;
    const uint8_t *lv = NULL, *p = start;
    while ((p = find(p, end, "Local Variables:")) != NULL)
        lv = p++;
    if (!lv)
        return true;
    const uint8_t *ls = lv;
    while (ls > text && ls[-1] != '\n')
        ls--;
    size_t plen = (size_t)(lv - ls);
    for (p = line_end(lv, end); p < end; p = line_end(p, end)) {
        p++;
        if ((size_t)(end - p) < plen || memcmp(p, ls, plen) != 0)
            continue;
        const uint8_t *q = p + plen, *le = line_end(q, end);
        while (q < le && blank(*q))
            q++;
        if (ci_prefix(q, le, "End:"))
            break;
        if (ci_prefix(q, le, "coding:"))
            return check_value(text, q, le, name);
    }
    return true;
}

bool read_check_coding(const uint8_t *text, size_t len, struct span *name)
{
    return check_cookie(text, len, name) && check_local_variables(text, len, name);
}

bool read_check_coding_start(const uint8_t *text, size_t len, struct span *name)
{
    return check_cookie(text, len, name);
}

bool read_check_coding_end(const uint8_t *text, size_t len, struct span *name)
{
    return check_local_variables(text, len, name);
}
