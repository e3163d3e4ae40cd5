/* charname.c - Unicode character names for \N{NAME} (see charname.h).
 *
 * Part of stage 1 (lexing).  Three sources, as in Emacs 30.1's
 * `char-from-name`: the numbered names (`CJK IDEOGRAPH-4E00`, checked
 * against the ranges Emacs names that way), Hangul syllables (composed
 * from the jamo short names), and the table of names, which is searched
 * by word indices rather than text; the ranges and the table are
 * generated from Emacs 30.1 (charname_data.h, charname_gen.py).
 */
#include "charname.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "charname_data.h"

static int upper(int c) { return c >= 'a' && c <= 'z' ? c - 32 : c; }

/* Case-insensitive comparison of name[0..len) with the upper-case s. */
static int compare(const char *name, size_t len, const char *s)
{
    for (size_t k = 0; k < len; k++) {
        int a = upper((unsigned char)name[k]), b = (unsigned char)s[k];
        if (!b)
            return 1;
        if (a != b)
            return a - b;
    }
    return s[len] ? -1 : 0;
}

/* Are the n bytes of name, upper-cased, the n bytes of s? */
static bool compare_n(const char *name, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (upper((unsigned char)name[k]) != (unsigned char)s[k])
            return false;
    return true;
}

/* ---- PREFIX-HEX names (charname_numbered, charname_data.h) ---- */

static int32_t numbered_lookup(const char *name, size_t len)
{
    for (size_t k = 0; k < sizeof charname_numbered / sizeof *charname_numbered; k++) {
        const struct charname_range *r = &charname_numbered[k];
        size_t pl = strlen(r->prefix);
        if (len <= pl || len > pl + 5 || compare(name, pl, r->prefix) != 0)
            continue;
        int32_t c = 0;
        for (size_t j = pl; j < len; j++) {
            int d = upper((unsigned char)name[j]);
            d = d >= '0' && d <= '9' ? d - '0' : d >= 'A' && d <= 'F' ? d - 'A' + 10 : -1;
            if (d < 0)
                return -1;
            c = c * 16 + d;
        }
        char canon[16];
        snprintf(canon, sizeof canon, "%X", (unsigned)c);
        if (c >= r->lo && c <= r->hi && compare(name + pl, len - pl, canon) == 0)
            return c;
    }
    return -1;
}

/* ---- Hangul syllables: U+AC00 + (L * 21 + V) * 28 + T ---- */

static const char *const jamo_l[19] = {"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S",
                                       "SS", "", "J", "JJ", "C", "K", "T", "P", "H"};
static const char *const jamo_v[21] = {"A", "AE", "YA", "YAE", "EO", "E", "YEO",
                                       "YE", "O", "WA", "WAE", "OE", "YO", "U",
                                       "WEO", "WE", "WI", "YU", "EU", "YI", "I"};
static const char *const jamo_t[28] = {"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG",
                                       "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S",
                                       "SS", "NG", "J", "C", "K", "T", "P", "H"};

/* Does s (n bytes) start with the jamo name j?  Returns its length or -1. */
static int jamo_match(const char *s, size_t n, const char *j)
{
    size_t l = strlen(j);
    if (l > n)
        return -1;
    for (size_t k = 0; k < l; k++)
        if (upper((unsigned char)s[k]) != j[k])
            return -1;
    return (int)l;
}

static int32_t hangul_lookup(const char *name, size_t len)
{
    static const char prefix[] = "HANGUL SYLLABLE ";
    size_t pl = sizeof prefix - 1;
    if (len <= pl || compare(name, pl, prefix) != 0)
        return -1;
    const char *s = name + pl;
    size_t n = len - pl;
    for (int l = 0; l < 19; l++) {
        int a = jamo_match(s, n, jamo_l[l]);
        for (int v = 0; a >= 0 && v < 21; v++) {
            int b = jamo_match(s + a, n - (size_t)a, jamo_v[v]);
            for (int t = 0; b >= 0 && t < 28; t++)
                if ((size_t)(a + b) + strlen(jamo_t[t]) == n &&
                    jamo_match(s + a + b, n - (size_t)(a + b), jamo_t[t]) >= 0)
                    return 0xAC00 + (l * 21 + v) * 28 + t;
        }
    }
    return -1;
}

/* ---- the name table (charname_data.h, see charname_gen.py) ---- */

#define MAX_QUERY 104 /* words in a name of at most 200 characters */

/* Value of a base-91 digit: the printable ASCII characters but " ? \. */
static int digit(char c)
{
    return c - 0x21 - (c > '"') - (c > '?') - (c > '\\');
}

static uint32_t varint(const char **p)
{
    uint32_t acc = 0;
    int d;
    while ((d = digit(*(*p)++)) >= 45)
        acc = acc * 46 + (uint32_t)(d - 45);
    return acc * 45 + (uint32_t)d;
}

struct word {
    const char *s; /* in the query */
    size_t n;
    int64_t index; /* in the dictionary, -1 until found */
};

/* Look every query word up in the dictionary (one pass over it). */
static bool find_words(struct word *w, size_t nw)
{
    size_t missing = nw;
    int64_t index = 0;
    for (size_t c = 0; c < sizeof charname_dict / sizeof *charname_dict; c++) {
        for (const char *p = charname_dict[c]; *p; index++) {
            const char *e = strchr(p, ' ');
            for (size_t k = 0; k < nw; k++)
                if (w[k].index < 0 && w[k].n == (size_t)(e - p) &&
                    compare_n(w[k].s, p, w[k].n))
                    w[k].index = index, missing--;
            p = e + 1;
        }
    }
    return missing == 0;
}

/* The query as dictionary tokens (index * 2 + hyphen follows); -1 if some
 * word is in no name. */
static int query_tokens(const char *name, size_t len, uint32_t *out)
{
    struct word w[MAX_QUERY];
    bool hyphen[MAX_QUERY];
    size_t nw = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && name[i] != ' ' && name[i] != '-')
            continue;
        if (nw == MAX_QUERY)
            return -1;
        w[nw] = (struct word){name + start, i - start, -1};
        hyphen[nw++] = i < len && name[i] == '-';
        start = i + 1;
    }
    if (!find_words(w, nw))
        return -1;
    for (size_t k = 0; k < nw; k++)
        out[k] = (uint32_t)w[k].index * 2 + hyphen[k];
    return (int)nw;
}

static int32_t table_lookup(const char *name, size_t len)
{
    uint32_t q[MAX_QUERY], cur[32];
    int nq = query_tokens(name, len, q);
    if (nq < 0 || nq > 16)
        return -1;
    uint32_t code = 0;
    for (size_t c = 0; c < sizeof charname_stream / sizeof *charname_stream; c++) {
        for (const char *p = charname_stream[c]; *p;) {
            uint32_t km = varint(&p);
            uint32_t k = km / 16, m = km % 16;
            code += varint(&p);
            for (uint32_t j = 0; j < m; j++)
                cur[k + j] = varint(&p);
            if ((int)(k + m) == nq && memcmp(cur, q, (size_t)nq * sizeof *q) == 0)
                return (int32_t)code;
        }
    }
    return -1;
}

int32_t charname_lookup(const char *name, size_t len)
{
    int32_t c = table_lookup(name, len);
    if (c < 0)
        c = hangul_lookup(name, len);
    if (c < 0)
        c = numbered_lookup(name, len);
    return c;
}
