/* source.c - byte offset -> line and screen column (see source.h).
 *
 * The line table is a sorted array of line-start offsets, built once per
 * source on demand; a lookup is a binary search plus a scan of one line.
 */
#include "source.h"

#include <string.h>

void source_init(struct source *s, struct arena *a, const char *name,
                 const uint8_t *text, size_t len)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->text = text;
    s->len = len;
    s->a = a;
}

static int is_cont(const uint8_t *p, size_t n, size_t i)
{
    return i < n && (p[i] & 0xC0) == 0x80;
}

/* Value of the n-byte sequence at p, its lead byte masked with lead_mask. */
static uint32_t seq_value(const uint8_t *p, int n, uint8_t lead_mask)
{
    uint32_t c = p[0] & lead_mask;
    for (int i = 1; i < n; i++)
        c = (c << 6) | (p[i] & 0x3F);
    return c;
}

/* Lead-byte classes: first lead byte, sequence length, value bits of the
 * lead, smallest value that is not overlong, largest valid value. */
static const struct {
    uint8_t lo, hi;
    int len;
    uint8_t mask;
    uint32_t min, max;
} leads[] = {
    {0xC2, 0xDF, 2, 0x1F, 0x80, 0x7FF},
    {0xE0, 0xEF, 3, 0x0F, 0x800, 0xFFFF},
    {0xF0, 0xF7, 4, 0x07, 0x10000, 0x1FFFFF},
    {0xF8, 0xF8, 5, 0x00, 0x200000, 0x3FFF7F},
};

int source_char_len(const uint8_t *p, size_t n)
{
    if (p[0] < 0x80)
        return 1;
    for (size_t k = 0; k < sizeof leads / sizeof leads[0]; k++) {
        if (p[0] < leads[k].lo || p[0] > leads[k].hi)
            continue;
        for (int i = 1; i < leads[k].len; i++)
            if (!is_cont(p, n, (size_t)i))
                return 1;
        uint32_t c = seq_value(p, leads[k].len, leads[k].mask);
        /* UTF-16 surrogates are not characters: Emacs keeps their bytes raw. */
        if (c < leads[k].min || c > leads[k].max || (c >= 0xD800 && c < 0xE000))
            return 1;
        return leads[k].len;
    }
    return 1;
}

/* Build the line-start table: one pass counting, one pass filling
 * (memchr: the text is mostly long runs between line breaks). */
static void build_lines(struct source *s)
{
    size_t n = 1;
    const uint8_t *end = s->text + s->len, *p = s->text, *q;
    for (; p < end && (q = memchr(p, '\n', (size_t)(end - p))); p = q + 1)
        n++;
    s->lines = ARENA_NEWN(s->a, uint32_t, n);
    s->lines[0] = 0;
    size_t k = 1;
    for (p = s->text; p < end && (q = memchr(p, '\n', (size_t)(end - p))); p = q + 1)
        s->lines[k++] = (uint32_t)(q + 1 - s->text);
    s->n_lines = n;
}

/* Index of the last line starting at or before off. */
static size_t line_index(const struct source *s, uint32_t off)
{
    size_t lo = 0, hi = s->n_lines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Screen column after the characters from *i up to off, starting at
 * column col: TAB stops, one column per character (ASCII bytes take the
 * short way).  *i stops at off, or before a character off points into. */
static uint32_t advance_col(const struct source *s, size_t *pi, uint32_t off,
                            uint32_t col)
{
    size_t i = *pi;
    while (i < off) {
        uint8_t b = s->text[i];
        if (b < 0x80 && b != '\t') {
            col++, i++;
            continue;
        }
        int n = source_char_len(s->text + i, s->len - i);
        if (i + (size_t)n > off)
            break; /* off points inside this character */
        col = b == '\t' ? (col / SOURCE_TAB_WIDTH + 1) * SOURCE_TAB_WIDTH : col + 1;
        i += (size_t)n;
    }
    *pi = i;
    return col;
}

/* The line (1-based) of the input that line index li of s's text is. */
static uint32_t input_line(const struct source *s, size_t li, uint32_t off)
{
    if (!s->segs)
        return (uint32_t)li + 1;
    size_t lo = 0, hi = s->n_segs; /* the last piece that begins at or before off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->segs[mid].off <= off)
            lo = mid;
        else
            hi = mid;
    }
    return s->segs[lo].line + (uint32_t)(li - line_index(s, s->segs[lo].off));
}

struct source_pos source_pos(struct source *s, uint32_t off)
{
    if (off > s->len)
        off = (uint32_t)s->len;
    if (!s->lines)
        build_lines(s);
    size_t li = line_index(s, off);
    uint32_t col = 0;
    size_t i = s->lines[li];
    if (s->last_line == li + 1 && s->last_off <= off)
        i = s->last_off, col = s->last_col;
    col = advance_col(s, &i, off, col);
    s->last_line = li + 1;
    s->last_off = (uint32_t)i;
    s->last_col = col;
    struct source_pos p = {input_line(s, li, off), col + 1};
    return p;
}
