/* read.c - tokens -> Lisp values, with an explicit stack (see read.h).
 *
 * Stage 1b of the pipeline.  The machine (fast_run) scans the common
 * tokens (plain atoms and strings, parentheses, quotes, vectors, single
 * spaces) itself, straight into its stacks; next_token takes the rarer
 * ones, and the lexer (lex.c) the rest; an opening
 * token pushes a frame, an atom or a closing token produces an item, and
 * the item is handed to the frame below it until a frame wants more input
 * or the stack is empty.  Nothing recurses on the nesting depth of the
 * input.  Lists are built when they close, from the elements kept on the
 * item stack, so each cons is allocated once, with its final span.  The
 * `#` objects that need validation live in read_forms.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

/* Inline whatever the compiler's size limits say: the per-token paths
 * of the machine, each of which has more than one caller. */
#ifdef __GNUC__
#define READ_INLINE inline __attribute__((always_inline))
#else
#define READ_INLINE inline
#endif

/* ---- errors ---- */

static struct value *message_value(struct reader *R, const char *msg)
{
    size_t n = strlen(msg);
    bool multi = false;
    for (size_t k = 0; k < n; k++)
        multi |= (uint8_t)msg[k] >= 0x80;
    return value_string(R->a, msg, n, multi);
}

bool read_failv(struct reader *R, size_t pos, const char *symbol, const char *msg,
                struct value *x, struct value *y)
{
    struct value *data[3] = {NULL, NULL, NULL};
    size_t n = 0;
    if (msg)
        data[n++] = message_value(R, msg);
    if (x)
        data[n++] = x;
    if (y)
        data[n++] = y;
    R->err.pos = (uint32_t)(pos < R->len ? pos : R->len);
    R->err.symbol = symbol;
    R->err.message = msg ? arena_strndup(R->a, msg, strlen(msg)) : "";
    R->err.data = lisp_list(R->L, n, data);
    return false;
}

bool read_fail(struct reader *R, size_t pos, const char *symbol, const char *msg)
{
    if (strcmp(symbol, "end-of-file") == 0)
        return read_failv(R, R->len, symbol, NULL, NULL, NULL);
    return read_failv(R, pos, symbol, msg, NULL, NULL);
}

static bool lex_failed(struct reader *R)
{
    return read_fail(R, R->lx.err.pos, R->lx.err.symbol, R->lx.err.message);
}

static bool syntax_error(struct reader *R, size_t pos, const char *msg)
{
    return read_fail(R, pos, "invalid-read-syntax", msg);
}

/* ---- stacks ---- */

/* The stacks grow by doubling; growth is rare, so it stays out of line. */
static READ_COLD void grow_frames(struct reader *R)
{
    size_t cap = R->capframes ? R->capframes * 2 : 64;
    R->frames = arena_grow(R->a, R->frames, R->capframes * sizeof *R->frames,
                           cap * sizeof *R->frames);
    R->capframes = cap;
}

static READ_COLD void grow_items(struct reader *R)
{
    size_t cap = R->capitems ? R->capitems * 2 : 256;
    R->items = arena_grow(R->a, R->items, R->capitems * sizeof *R->items,
                          cap * sizeof *R->items);
    R->capitems = cap;
}

/* A new frame for the opening token [start, end); fields other than
 * these are set by the kinds that use them. */
static inline struct frame *push_frame(struct reader *R, uint8_t kind, uint32_t start,
                                       uint32_t end)
{
    if (R->nframes == R->capframes)
        grow_frames(R);
    struct frame *f = &R->frames[R->nframes++];
    if (R->nframes > R->most_frames)
        R->most_frames = R->nframes;
    f->kind = kind;
    f->dot = 0;
    f->sub = 0;
    f->flags = 0;
    f->start = start;
    f->tok_end = end;
    f->base = (uint32_t)R->nitems;
    return f;
}

static inline void push_item(struct reader *R, const struct item *it)
{
    if (R->nitems == R->capitems)
        grow_items(R);
    /* Field by field: *it was just written field by field, and one wide
     * load of it cannot take the data from those narrower stores (a
     * store-forwarding stall on every list element). */
    struct item *d = &R->items[R->nitems++];
    d->v = it->v;
    d->start = it->start;
    d->end = it->end;
}

/* The origin entry of v, a value just built (it has none yet): no call,
 * no search, nothing when there is no map. */
static inline void origin_new(struct reader *R, struct value *v, uint32_t start,
                              uint32_t end, uint32_t car_start, uint32_t car_end)
{
    struct read_origin *o = R->origin;
    if (!o)
        return;
    uint32_t index;
    struct origin_slot *e = read_origin_take(o, 1, &index);
    v->origin = index;
    e->key = v;
    e->span = (struct span){start, end};
    e->car = (struct span){car_start, car_end};
}

/* ---- strings ---- */

/* Bytes of a string value: the header and the string member (as
 * value_string's). */
#define STRING_SIZE (offsetof(struct value, u) + sizeof(struct value_string))

/* Make v, STRING_SIZE bytes of the arena, the string of data (in the
 * arena, with room for its NUL). */
static inline struct value *string_at(struct value *v, uint8_t *data, size_t len,
                                      bool multibyte, size_t nchars)
{
    v->kind = VK_STRING;
    v->origin = 0;
    data[len] = 0;
    v->u.str.data = data;
    v->u.str.len = len;
    v->u.str.nchars = nchars;
    v->u.str.multibyte = multibyte;
    v->u.str.props = NULL;
    return v;
}

/* A string value over data already in the arena. */
static struct value *string_over(struct reader *R, uint8_t *data, size_t len,
                                 bool multibyte, size_t nchars)
{
    return string_at(arena_alloc(R->a, STRING_SIZE), data, len, multibyte, nchars);
}

/* A copy of data: the value and its bytes in one block (one allocation). */
struct value *read_make_string(struct reader *R, const uint8_t *data, size_t len,
                               bool multibyte, size_t nchars)
{
    uint8_t *block = arena_alloc(R->a, STRING_SIZE + len + 1);
    memcpy(block + STRING_SIZE, data, len);
    return string_at((struct value *)block, block + STRING_SIZE, len, multibyte, nchars);
}

/* A string being decoded: internal encoding, plus Emacs's two flags. */
struct strbuild {
    uint8_t *buf;
    size_t k;      /* bytes written */
    size_t nchars; /* characters written */
    bool multi;    /* saw a non-ASCII character that is not a raw byte */
    bool single;   /* saw a raw byte */
};

/* Apply the string rules for modifiers (elisp-syntax.md 1.7) to the escape
 * value c; returns the character or -1 for "Invalid modifier in string". */
static int64_t string_escape_char(int64_t c, struct strbuild *sb)
{
    int64_t mods = c & LEX_CHAR_MODS, ch = c & ~LEX_CHAR_MODS;
    if (ch >= 0x3FFF80) {
        sb->single = true;
    } else if (ch >= 0x80) {
        sb->multi = true;
    } else {
        if (mods == LEX_CHAR_CTL && ch == ' ') /* \C-SPC, \^SPC: NUL */
            ch = 0, mods = 0;
        if ((mods & LEX_CHAR_SHIFT) && ch >= 'A' && ch <= 'Z')
            mods &= ~LEX_CHAR_SHIFT;
        else if ((mods & LEX_CHAR_SHIFT) && ch >= 'a' && ch <= 'z')
            ch -= 'a' - 'A', mods &= ~LEX_CHAR_SHIFT;
        if (mods & LEX_CHAR_META) {
            mods &= ~LEX_CHAR_META;
            ch = 0x3FFF00 + (ch | 0x80);
            sb->single = true;
        }
    }
    return mods ? -1 : ch;
}

/* The character a backslash and the ASCII byte b stand for in a string
 * when that is all of the escape (elisp-syntax.md 1.7): the letters of
 * control characters, and bytes that stand for themselves; 0 for the
 * others (modifier prefixes, x u U N, octal digits, newline and space,
 * controls), which lex_escape reads. */
static const uint8_t string_escape_byte[128] = {
    ['!'] = '!', ['"'] = '"', ['#'] = '#', ['$'] = '$', ['%'] = '%', ['&'] = '&',
    ['\''] = '\'', ['('] = '(', [')'] = ')', ['*'] = '*', ['+'] = '+', [','] = ',',
    ['-'] = '-', ['.'] = '.', ['/'] = '/', ['8'] = '8', ['9'] = '9', [':'] = ':',
    [';'] = ';', ['<'] = '<', ['='] = '=', ['>'] = '>', ['?'] = '?', ['@'] = '@',
    ['['] = '[', ['\\'] = '\\', [']'] = ']', ['_'] = '_', ['`'] = '`', ['{'] = '{',
    ['|'] = '|', ['}'] = '}', ['~'] = '~',
    ['a'] = 7, ['b'] = 8, ['d'] = 127, ['e'] = 27, ['f'] = 12, ['n'] = 10, ['r'] = 13,
    ['t'] = 9, ['v'] = 11, ['s'] = 32,
};

static bool string_escape(struct reader *R, size_t *p, struct strbuild *sb)
{
    size_t at = *p;
    uint8_t b = at + 1 < R->len ? R->text[at + 1] : 0;
    if (b < 0x80 && string_escape_byte[b]) { /* the usual escapes, at once */
        sb->buf[sb->k++] = string_escape_byte[b];
        sb->nchars++;
        *p = at + 2;
        return true;
    }
    int64_t c;
    (*p)++;
    if (!lex_escape(&R->lx, p, true, &c))
        return lex_failed(R);
    if (c == -1) /* backslash-newline, backslash-space */
        return true;
    c = string_escape_char(c, sb);
    if (c < 0)
        return syntax_error(R, at, "Invalid modifier in string");
    sb->k += (size_t)value_char_encode((uint32_t)c, sb->buf + sb->k);
    sb->nchars++;
    return true;
}

/* A literal non-ASCII character of the source inside a string. */
static void string_literal_char(struct reader *R, size_t *p, size_t e, struct strbuild *sb)
{
    int l;
    uint32_t c = lex_decode(R->text + *p, e - *p, &l);
    if (c >= 0x3FFF80) {
        sb->single = true;
        sb->k += (size_t)value_char_encode(c, sb->buf + sb->k);
    } else {
        sb->multi = true;
        memcpy(sb->buf + sb->k, R->text + *p, (size_t)l);
        sb->k += (size_t)l;
    }
    *p += (size_t)l;
    sb->nchars++;
}

/* Raw bytes and ASCII only: the unibyte form (one byte per character). */
static void to_unibyte(struct strbuild *sb)
{
    size_t r = 0, w = 0;
    while (r < sb->k) {
        uint8_t b = sb->buf[r];
        if (b < 0x80) {
            sb->buf[w++] = b;
            r++;
        } else {
            sb->buf[w++] = (uint8_t)(0x80 | ((b & 1) << 6) | (sb->buf[r + 1] & 0x3F));
            r += 2;
        }
    }
    sb->k = w;
}

bool read_string_token(struct reader *R, const struct lex_token *t, struct value **out)
{
    size_t p = t->start + 1, e = t->end - 1;
    if (!(t->flags & (LEX_ESCAPED | LEX_NONASCII))) {
        *out = read_make_string(R, R->text + p, e - p, false, e - p);
        return true;
    }
    struct strbuild sb = {arena_alloc(R->a, 2 * (e - p) + 8), 0, 0, false, false};
    while (p < e) {
        uint8_t b = R->text[p];
        if (b == '\\') {
            if (!string_escape(R, &p, &sb))
                return false;
        } else if (b < 0x80) {
            sb.buf[sb.k++] = b;
            sb.nchars++;
            p++;
        } else {
            string_literal_char(R, &p, e, &sb);
        }
    }
    if (!sb.multi && sb.single)
        to_unibyte(&sb);
    *out = string_over(R, sb.buf, sb.k, sb.multi, sb.nchars);
    return true;
}

/* ---- symbols and numbers ---- */

/* Symbol name of the text [p, e): backslashes dropped, raw bytes in the
 * internal encoding.  Points into the source when nothing changes. */
static const char *symbol_name(struct reader *R, size_t p, size_t e, uint8_t flags,
                               size_t *n)
{
    if (!(flags & (LEX_ESCAPED | LEX_NONASCII))) {
        *n = e - p;
        return (const char *)R->text + p;
    }
    uint8_t *buf = arena_alloc(R->a, 2 * (e - p) + 1);
    size_t k = 0;
    while (p < e) {
        if (R->text[p] == '\\')
            p++;
        int l = 1;
        uint32_t c = R->text[p] < 0x80 ? R->text[p] : lex_decode(R->text + p, e - p, &l);
        if (c >= 0x3FFF80)
            k += (size_t)value_char_encode(c, buf + k);
        else
            memcpy(buf + k, R->text + p, (size_t)l), k += (size_t)l;
        p += (size_t)l;
    }
    *n = k;
    return (const char *)buf;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* `e+NaN`: a quiet NaN whose payload is the leading integer digits
 * (wrapping at 2^64) modulo 2^51; with no leading digits 2^51 - 2. */
static double nan_value(const char *digits, size_t n, bool neg)
{
    uint64_t payload = 0;
    for (size_t k = 0; k < n; k++)
        payload = payload * 10 + (uint64_t)(digits[k] - '0');
    uint64_t mask = (UINT64_C(1) << 51) - 1;
    payload = n ? payload & mask : mask - 1;
    uint64_t bits = UINT64_C(0x7FF8000000000000) | payload;
    if (neg)
        bits |= UINT64_C(1) << 63;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* strtod on the unsigned part of the token, then the sign (so -0.0). */
static double float_value(struct reader *R, const char *s, size_t n, bool neg)
{
    char small[64];
    char *buf = n < sizeof small ? small : arena_alloc(R->a, n + 1);
    memcpy(buf, s, n);
    buf[n] = 0;
    double d = strtod(buf, NULL);
    return neg ? -d : d;
}

/* The exponent part at s[i..n) (after e/E): [sign] digits, +INF or +NaN.
 * Returns 0 for digits, 1 for INF, 2 for NaN, -1 if none of these. */
static int exponent_kind(const char *s, size_t i, size_t n)
{
    if (n - i == 4 && memcmp(s + i, "+INF", 4) == 0)
        return 1;
    if (n - i == 4 && memcmp(s + i, "+NaN", 4) == 0)
        return 2;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    size_t d0 = i;
    while (i < n && is_digit(s[i]))
        i++;
    return (i > d0 && i == n) ? 0 : -1;
}

/* Is the ASCII token s[0..n) a number by elisp-syntax.md 1.4's grammar?
 * If so, *out gets its value. */
static bool parse_number(struct reader *R, const char *s, size_t n, struct value **out)
{
    size_t i = 0;
    bool neg = s[0] == '-';
    if (s[0] == '+' || s[0] == '-')
        i++;
    size_t lead0 = i;
    while (i < n && is_digit(s[i]))
        i++;
    size_t lead = i - lead0;
    if (i < n && s[i] == '.')
        i++;
    size_t trail0 = i;
    while (i < n && is_digit(s[i]))
        i++;
    size_t trail = i - trail0;
    size_t sign = lead0;
    if (i == n && lead && !trail) {
        *out = value_integer_from_decimal(R->a, s + lead0, lead, neg);
        return true;
    }
    if (i == n && trail) {
        *out = value_float(R->a, float_value(R, s + sign, n - sign, neg));
        return true;
    }
    if (i == n || (s[i] != 'e' && s[i] != 'E') || (!lead && !trail))
        return false;
    int k = exponent_kind(s, i + 1, n);
    if (k < 0)
        return false;
    double d = k == 1 ? (neg ? -INFINITY : INFINITY)
             : k == 2 ? nan_value(s + lead0, lead, neg)
                      : float_value(R, s + sign, n - sign, neg);
    *out = value_float(R->a, d);
    return true;
}

/* ---- symbols ---- */

/* The masks that keep the first k bytes of a name's two key words
 * (intern.h), k = 0..16: two tables, so that a mask is one operand. */
static const uint64_t key_mask0[17] = {
    0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, UINT64_C(0xFFFFFFFFFF), UINT64_C(0xFFFFFFFFFFFF),
    UINT64_C(0xFFFFFFFFFFFFFF), UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX,
    UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX,
};
static const uint64_t key_mask1[17] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, UINT64_C(0xFFFFFFFFFF),
    UINT64_C(0xFFFFFFFFFFFF), UINT64_C(0xFFFFFFFFFFFFFF), UINT64_MAX,
};

/* The symbol table's slots where the machine looks names up: they move
 * when the table grows (the old ones would only miss the names added
 * since, which intern_slow then finds). */
static inline void table_load(struct reader *R)
{
    R->islots = R->L->tab->slots;
    R->imask = R->L->tab->cap - 1;
}

/* intern_symbol out of the way of the lookups: for a name too near the
 * end of the text for its key's loads, or one that may be a number. */
static READ_COLD struct value *intern_slow(struct reader *R, const char *name, size_t n)
{
    struct value *sym = intern_symbol(R->L, name, n);
    table_load(R);
    return sym;
}

/* The key of the n bytes at name (16 of which can be read): two loads
 * and two masks. */
static inline void plain_key(const uint8_t *name, size_t n, uint64_t *w0, uint64_t *w1)
{
    *w0 = intern_load8(name);
    *w1 = intern_load8(name + 8);
    if (n < 16) {
        *w0 &= key_mask0[n];
        *w1 &= key_mask1[n];
    }
}

/* The printer's class of a name the machine scanned as a plain symbol
 * (value_symbol.plain: 1 prints as it is): such a name is not empty, has
 * only ASCII constituents, and does not start like a number or with `.`
 * or `?` (a digit, sign, dot or question mark starts another kind of
 * token), so it never needs a backslash (the `.` and `?` inside it do
 * not, as Emacs 30 prints them).  Set when the symbol is made, it spares
 * the printer a pass over each name. */
#define PLAIN_SYMBOL_CLASS 1

/* A name plain_symbol did not find (one in seven), out of the way of
 * the lookups: its key and mix are found again here, so that only the
 * free slot where the lookup ended lives across the call (the registers
 * of the machine's loop are few).  The symbol goes there: R->islots are
 * the table's slots, table_load following every intern of the machine. */
static READ_COLD struct value *intern_new_name(struct reader *R, const uint8_t *name, size_t n,
                                               struct intern_slot *free)
{
    uint64_t w0, w1;
    plain_key(name, n, &w0, &w1);
    const char *cname = (const char *)name;
    struct value *sym =
        intern_add_at(R->L, free, cname, n, w0, w1, intern_mix(cname, n, w0, w1));
    sym->u.sym.plain = PLAIN_SYMBOL_CLASS;
    table_load(R);
    return sym;
}

/* The symbol named by the n bytes at name, in a text that ends at end.
 * Where 16 bytes can be read from name, its key is two loads and two
 * masks, and the table lookup is inline. */
static READ_INLINE struct value *plain_symbol(struct reader *R, const uint8_t *name, size_t n,
                                              const uint8_t *end)
{
    const char *cname = (const char *)name;
    if (end - name < 16)
        return intern_slow(R, cname, n);
    uint64_t w0, w1;
    plain_key(name, n, &w0, &w1);
    struct intern_slot *s =
        intern_probe_in(R->islots, R->imask, cname, n, w0, w1, intern_mix(cname, n, w0, w1));
    return s->mixlen != INTERN_FREE ? s->sym : intern_new_name(R, name, n, s);
}

/* Is s[0..n) the digits of an integer below 10^18 (most numbers)?  If so,
 * *out gets it, without parse_number's grammar. */
static inline bool small_integer(const uint8_t *s, size_t n, struct value **out,
                                 struct arena *a)
{
    if (n > 18)
        return false;
    int64_t i = 0;
    for (size_t k = 0; k < n; k++) {
        if (!is_digit((char)s[k]))
            return false;
        i = i * 10 + (s[k] - '0');
    }
    *out = value_int(a, i);
    return true;
}

/* Symbol or number from the atom [p, q) of plain ASCII bytes (no
 * backslash, nothing >= 0x80), for atoms that may be numbers: symbols
 * among them are rare (-, 1+), and are interned out of line. */
static struct value *plain_atom_value(struct reader *R, size_t p, size_t q)
{
    const uint8_t *s = R->text + p;
    size_t n = q - p;
    struct value *v;
    if (small_integer(s, n, &v, R->a) ||
        ((is_digit((char)s[0]) || s[0] == '-' || s[0] == '+' || s[0] == '.') &&
         parse_number(R, (const char *)s, n, &v))) {
        origin_new(R, v, (uint32_t)p, (uint32_t)q, 0, 0);
        return v;
    }
    return intern_slow(R, (const char *)s, n);
}

/* Symbol or number from an LK_ATOM token. */
static struct value *atom_value(struct reader *R, const struct lex_token *t)
{
    if (!t->flags)
        return plain_atom_value(R, t->start, t->end);
    size_t n;
    const char *name = symbol_name(R, t->start, t->end, t->flags, &n);
    return intern_symbol(R->L, name, n);
}

static int digit_value(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    return c - 'A' + 10;
}

/* Value of a radix token (digits validated by the lexer).  Radix 0 has
 * only zeros, which Emacs 30.1's string_to_number does not take for
 * digits of radix 0: the token reads as nil. */
static struct value *radix_value(struct reader *R, const struct lex_token *t)
{
    const char *s = (const char *)R->text + t->start + t->aux;
    size_t n = t->end - t->start - t->aux;
    int radix = (int)t->ival;
    if (radix == 0)
        return R->L->nil;
    bool neg = s[0] == '-';
    if (s[0] == '-' || s[0] == '+')
        s++, n--;
    while (n > 1 && s[0] == '0')
        s++, n--;
    /* the magnitude while it fits 64 bits (at most 64 digits are looked
     * at) */
    uint64_t v = 0;
    size_t k = 0;
    for (; k < n; k++) {
        unsigned d = (unsigned)digit_value((uint8_t)s[k]);
        if (v > (UINT64_MAX - d) / (unsigned)radix)
            break;
        v = v * (unsigned)radix + d;
    }
    if (k == n && v <= (uint64_t)INT64_MAX)
        return value_int(R->a, neg ? -(int64_t)v : (int64_t)v);
    if (k == n && neg && v == (uint64_t)INT64_MAX + 1)
        return value_int(R->a, INT64_MIN);
    /* beyond int64: its decimal digits are made only if the value is
     * needed (an untouched literal is printed from its text) */
    return value_bignum_radix(R->a, s, n, radix, neg);
}

/* ---- atoms ---- */

/* Note v, an atom read at `at`, when it is a head symbol: one whose
 * VALUE_ROW_EXPAND cache holds a row (the expander primes every head's
 * before reading; any other symbol's is unknown or none). */
static inline void note_symbol_head(struct reader *R, const struct value *sym, uint32_t at)
{
    /* rows 1 .. VALUE_ROW_NONE - 1: one compare (0 and NONE wrap past) */
    if ((uint8_t)(sym->u.sym.row[VALUE_ROW_EXPAND] - 1) < VALUE_ROW_NONE - 1) {
        if (R->n_heads < READ_HEADS_MAX)
            R->heads[R->n_heads] = at;
        R->n_heads++;
    }
}

static inline void note_head(struct reader *R, const struct value *v, uint32_t at)
{
    if (v->kind == VK_SYMBOL)
        note_symbol_head(R, v, at);
}

static bool atom_item(struct reader *R, const struct lex_token *t, struct item *it)
{
    struct lisp *L = R->L;
    size_t n;
    const char *name;
    struct value *v;
    it->start = t->start;
    it->end = t->end;
    switch (t->kind) {
    case LK_ATOM:
        v = atom_value(R, t);
        break;
    case LK_STRING:
        if (!read_string_token(R, t, &v))
            return false;
        origin_new(R, v, t->start, t->end, 0, 0);
        break;
    case LK_CHAR:
    case LK_RADIX:
        v = t->kind == LK_CHAR ? value_int(R->a, t->ival) : radix_value(R, t);
        if (v->kind != VK_SYMBOL) /* radix 0 reads nil, a shared symbol */
            origin_new(R, v, t->start, t->end, 0, 0);
        break;
    case LK_EMPTY_SYMBOL:
        v = intern_symbol(L, "", 0);
        break;
    case LK_UNINTERNED:
    case LK_NOSHORTHAND:
        name = symbol_name(R, t->start + 2, t->end, t->flags, &n);
        v = t->kind == LK_UNINTERNED ? intern_uninterned(L, name, n)
                                     : intern_symbol(L, name, n);
        break;
    case LK_LABEL_REF:
        return read_label_ref(R, t, &it->v);
    default: /* LK_LOAD_NAME (load-file-name is nil), LK_SKIP_END */
        v = L->nil;
        break;
    }
    note_head(R, v, t->start);
    it->v = v;
    return true;
}

/* ---- lists and vectors ---- */

/* Bytes of a cons: the header and the two pointers, not the whole union.
 * Nothing writes another member into a cons or copies one whole (as for
 * value_cons's). */
#define CONS_SIZE (offsetof(struct value, u) + sizeof(struct value_cons))

/* Link the n cells of block (CONS_SIZE apart) into a list of the items
 * ending in last. */
static void link_cells(char *block, const struct item *items, size_t n,
                       struct value *last)
{
    struct value *c = (struct value *)block;
    for (size_t i = 0; i < n; i++, c = (struct value *)((char *)c + CONS_SIZE)) {
        c->kind = VK_CONS;
        c->origin = 0;
        c->u.cons.car = items[i].v;
        c->u.cons.cdr = (struct value *)((char *)c + CONS_SIZE);
    }
    ((struct value *)(block + (n - 1) * CONS_SIZE))->u.cons.cdr = last;
}

/* link_cells_origin where the map's chunk ends inside the list: the
 * entries are taken one at a time. */
static READ_COLD void link_cells_split(struct read_origin *o, char *block,
                                       const struct item *items, size_t n, struct value *last,
                                       uint32_t start, uint32_t end)
{
    link_cells(block, items, n, last);
    struct value *c = (struct value *)block;
    for (size_t i = 0; i < n; i++, c = (struct value *)((char *)c + CONS_SIZE)) {
        uint32_t index;
        struct origin_slot *e = read_origin_take(o, 1, &index);
        c->origin = index;
        e->key = c;
        e->span.start = i ? items[i].start : start;
        e->span.end = end;
        e->car.start = items[i].start;
        e->car.end = items[i].end;
    }
}

/* link_cells that also records each cell's origin entry, in the same
 * pass: cell i spans [start, end) for i = 0 and [items[i].start, end)
 * after, and its car spans items[i] (copied as one word). */
static READ_INLINE void link_cells_origin(struct read_origin *o, char *block,
                                     const struct item *items, size_t n, struct value *last,
                                     uint32_t start, uint32_t end)
{
    uint32_t index;
    struct origin_slot *first = read_origin_take(o, n, &index), *e = first;
    if (!first) {
        link_cells_split(o, block, items, n, last, start, end);
        return;
    }
    struct value *c = (struct value *)block;
    for (size_t i = 0; i < n; i++, e++) {
        struct value *next = (struct value *)((char *)c + CONS_SIZE);
        uint64_t car;
        memcpy(&car, &items[i].start, sizeof car);
        c->kind = VK_CONS;
        c->origin = index + (uint32_t)i;
        c->u.cons.car = items[i].v;
        c->u.cons.cdr = next;
        e->key = c;
        e->span.start = items[i].start;
        e->span.end = end;
        memcpy(&e->car, &car, sizeof car);
        c = next;
    }
    ((struct value *)(block + (n - 1) * CONS_SIZE))->u.cons.cdr = last;
    first->span.start = start;
}

/* The list of the n > 0 items ending in last, spanning [start, end): one
 * block for the whole list (one allocation, consecutive cells of a cons's
 * size), its origin entries written in the same pass. */
static READ_INLINE struct value *build_list(struct reader *R, const struct item *items,
                                            size_t n, struct value *last, uint32_t start,
                                            uint32_t end)
{
    char *block = arena_alloc(R->a, n * CONS_SIZE);
    if (R->origin)
        link_cells_origin(R->origin, block, items, n, last, start, end);
    else
        link_cells(block, items, n, last);
    return (struct value *)block;
}

/* `)` of a list or a #s( (whose elements are read as a list, which
 * read_make_record converts).  A list has an element before any dot. */
static bool finish_list(struct reader *R, struct frame *f, uint32_t end, struct item *it)
{
    size_t n = R->nitems - f->base;
    struct value *v;
    struct value *last = f->dot == 2 ? f->u.tail.v : R->L->nil;
    if (n == 0 && f->kind == FR_RECORD)
        return syntax_error(R, end - 1, "#s");
    if (n == 0) /* () is nil */
        v = last;
    else
        v = build_list(R, R->items + f->base, n, last, f->start, end);
    R->nitems = f->base;
    if (f->kind == FR_RECORD) {
        if (!read_make_record(R, v, f->start, &v))
            return false;
        origin_new(R, v, f->start, end, 0, 0);
    }
    it->v = v;
    it->start = f->start;
    it->end = end;
    R->nframes--;
    return true;
}

static bool finish_vector(struct reader *R, struct frame *f, uint32_t end, struct item *it)
{
    size_t n = R->nitems - f->base;
    struct value *v = value_vector(R->a, (enum value_kind)f->sub, n);
    for (size_t k = 0; k < n; k++)
        v->u.vec.items[k] = R->items[f->base + k].v;
    R->nitems = f->base;
    if (f->sub != VK_VECTOR && !read_check_vector(R, v, f->start))
        return false;
    origin_new(R, v, f->start, end, 0, 0);
    it->v = v;
    it->start = f->start;
    it->end = end;
    R->nframes--;
    return true;
}

/* `)` at [pos, pos + 1): closes a list (not while it waits for the
 * object after its dot), a #s( or a #(; anything else is an error. */
static bool close_paren(struct reader *R, uint32_t pos, struct item *it)
{
    struct frame *f = R->nframes ? &R->frames[R->nframes - 1] : NULL;
    if (f && ((f->kind == FR_LIST && f->dot != 1) || f->kind == FR_RECORD))
        return finish_list(R, f, pos + 1, it);
    if (f && f->kind == FR_PROPS)
        return read_props_finish(R, f, pos, pos + 1, it);
    return syntax_error(R, pos, ")");
}

/* `]` closes a vector (or #[ #^[ #^^[); anything else is an error. */
static bool close_bracket(struct reader *R, const struct lex_token *t, struct item *it)
{
    struct frame *f = R->nframes ? &R->frames[R->nframes - 1] : NULL;
    if (f && f->kind == FR_VECTOR)
        return finish_vector(R, f, t->end, it);
    return syntax_error(R, t->start, "]");
}

/* A dot token is the dot of a list that has an element and no dot yet;
 * anywhere else (a #s(, a vector, the start of a list) it is an error. */
static bool dot_token(struct reader *R, const struct lex_token *t)
{
    struct frame *f = R->nframes ? &R->frames[R->nframes - 1] : NULL;
    if (f && f->kind == FR_LIST && f->dot == 0 && R->nitems > f->base) {
        f->dot = 1;
        return true;
    }
    return syntax_error(R, t->start, ".");
}

/* After the object that follows a list's dot, Emacs reads the `)` at
 * once, skipping only whitespace (NBSP too) and `;` comments: anything
 * else there is "expected )" (before it is read), the end of input an
 * end-of-file. */
static bool expect_close(struct reader *R, size_t p)
{
    const uint8_t *s = R->text;
    size_t n = R->len;
    for (;;) {
        while (p < n && s[p] <= ' ')
            p++;
        if (p + 1 < n && s[p] == 0xC2 && s[p + 1] == 0xA0)
            p += 2;
        else if (p < n && s[p] == ';')
            while (p < n && s[p] != '\n')
                p++;
        else
            break;
    }
    if (p >= n)
        return read_fail(R, n, "end-of-file", "");
    return s[p] == ')' || syntax_error(R, p, "expected )");
}

/* ---- the machine ---- */

static struct value *prefix_symbol(struct lisp *L, uint8_t kind)
{
    switch (kind) {
    case LK_QUOTE: return L->quote;
    case LK_BACKQUOTE: return L->backquote;
    case LK_COMMA: return L->comma;
    case LK_COMMA_AT: return L->comma_at;
    default: return L->function;
    }
}

/* 'X -> (quote X) for the prefix token [start, tok_end): the inner cons
 * spans X, the outer the whole form, whose car is written as the prefix
 * token.  Both cells are one block, and their origin entries are taken
 * together. */
static READ_INLINE void wrap_prefix(struct reader *R, uint8_t kind, uint32_t start,
                                    uint32_t tok_end, struct item *it)
{
    char *block = arena_alloc(R->a, 2 * CONS_SIZE);
    struct value *outer = (struct value *)block;
    struct value *inner = (struct value *)(block + CONS_SIZE);
    inner->kind = VK_CONS;
    inner->origin = 0;
    inner->u.cons.car = it->v;
    inner->u.cons.cdr = R->L->nil;
    outer->kind = VK_CONS;
    outer->origin = 0;
    outer->u.cons.car = prefix_symbol(R->L, kind);
    outer->u.cons.cdr = inner;
    uint32_t index;
    struct origin_slot *e = R->origin ? read_origin_take(R->origin, 2, &index) : NULL;
    if (e) {
        outer->origin = index;
        e[0].key = outer;
        e[0].span = (struct span){start, it->end};
        e[0].car = (struct span){start, tok_end};
        inner->origin = index + 1;
        e[1].key = inner;
        e[1].span = (struct span){it->start, it->end};
        e[1].car = e[1].span;
    } else if (R->origin) { /* the map's chunk ends here */
        origin_new(R, outer, start, it->end, start, tok_end);
        origin_new(R, inner, it->start, it->end, it->start, it->end);
    }
    it->v = outer;
    it->start = start;
}

/* Wrap *it in the prefixes of frame f, the innermost (last) first. */
static READ_INLINE void finish_prefix(struct reader *R, const struct frame *f, struct item *it)
{
    uint32_t len = f->tok_end - f->start;
    for (uint32_t k = f->u.run; k-- > 0;)
        wrap_prefix(R, f->sub, f->start + k * len, f->start + (k + 1) * len, it);
}

/* A prefix token [start, start + len) of this kind right after the
 * prefixes of the open frame, all of the same kind: one more in its run
 * (no frame).  False when it starts a frame of its own. */
static READ_INLINE bool extend_prefix(struct reader *R, uint8_t kind, uint32_t start,
                                      uint32_t len)
{
    struct frame *f = R->nframes ? &R->frames[R->nframes - 1] : NULL;
    if (!f || f->kind != FR_PREFIX || f->sub != kind || f->tok_end - f->start != len ||
        start != f->start + f->u.run * len)
        return false;
    f->u.run++;
    return true;
}

/* A frame for the prefix token [start, end) (or one more in the open
 * frame's run). */
static void push_prefix(struct reader *R, uint8_t kind, uint32_t start, uint32_t end)
{
    if (!extend_prefix(R, kind, start, end - start)) {
        struct frame *f = push_frame(R, FR_PREFIX, start, end);
        f->sub = kind;
        f->u.run = 1;
    }
}

/* Hand a finished item to the top frame.  Returns 1 if the frame keeps
 * reading, 0 if the frame finished (popped; *it is now its result), -1 on
 * error. */
static int give_frame(struct reader *R, struct frame *f, struct item *it)
{
    switch (f->kind) {
    case FR_LIST:
        if (f->dot == 0) {
            push_item(R, it);
            return 1;
        }
        f->u.tail = *it, f->dot = 2;
        return expect_close(R, it->end) ? 1 : -1;
    case FR_RECORD:
    case FR_VECTOR:
    case FR_PROPS:
        push_item(R, it);
        return 1;
    case FR_PREFIX:
        finish_prefix(R, f, it);
        break;
    default: /* FR_LABEL */
        it->v = read_label_finish(R, f, it->v);
        if (!it->v)
            return -1;
        it->start = f->start;
        break;
    }
    R->nframes--;
    return 0;
}

/* give_frame with the common case, an element of a list, inline. */
static inline int give(struct reader *R, struct item *it)
{
    struct frame *f = &R->frames[R->nframes - 1];
    if (f->kind == FR_LIST && f->dot == 0) {
        push_item(R, it);
        return 1;
    }
    return give_frame(R, f, it);
}

/* #&N (the token t) and the string that follows it at once. */
static bool read_boolvec(struct reader *R, const struct lex_token *t, struct item *it)
{
    struct lex_token len = *t;
    R->pos = len.end;
    const struct lex_token *str = read_next_token(R);
    struct value *s;
    if (!str || !read_string_token(R, str, &s))
        return false;
    if (!read_make_boolvec(R, (uint64_t)len.ival, s, str->start, &it->v))
        return false;
    it->start = len.start;
    it->end = str->end;
    origin_new(R, it->v, it->start, it->end, 0, 0);
    return true;
}

static void push_vector(struct reader *R, const struct lex_token *t, enum value_kind k)
{
    push_frame(R, FR_VECTOR, t->start, t->end)->sub = (uint8_t)k;
}

/* Dispatch on one token of the lexer (the module's one long switch).
 * Returns 1 when a frame was opened or changed (more input needed), 0
 * when *it holds a finished object, -1 on error. */
static int token(struct reader *R, const struct lex_token *t, struct item *it)
{
    struct frame *f;
    switch (t->kind) {
    case LK_EOF:
        return read_fail(R, R->len, "end-of-file", "") ? 0 : -1;
    case LK_LPAREN:
        push_frame(R, FR_LIST, t->start, t->end);
        return 1;
    case LK_RECORD:
        push_frame(R, FR_RECORD, t->start, t->end);
        return 1;
    case LK_LBRACK:
        push_vector(R, t, VK_VECTOR);
        return 1;
    case LK_BYTECODE:
        push_vector(R, t, VK_BYTECODE);
        return 1;
    case LK_CHARTABLE:
        push_vector(R, t, VK_CHARTABLE);
        return 1;
    case LK_SUBCHARTABLE:
        push_vector(R, t, VK_SUBCHARTABLE);
        return 1;
    case LK_PROPSTRING:
        push_frame(R, FR_PROPS, t->start, t->end);
        return 1;
    case LK_QUOTE:
    case LK_BACKQUOTE:
    case LK_COMMA:
    case LK_COMMA_AT:
    case LK_FUNCTION:
        push_prefix(R, t->kind, t->start, t->end);
        return 1;
    case LK_LABEL_DEF:
        f = push_frame(R, FR_LABEL, t->start, t->end);
        f->label = t->ival;
        read_label_begin(R, f, R->nframes - 1);
        return 1;
    case LK_BOOLVEC:
        return read_boolvec(R, t, it) ? 0 : -1;
    case LK_RPAREN:
        return close_paren(R, t->start, it) ? 0 : -1;
    case LK_RBRACK:
        return close_bracket(R, t, it) ? 0 : -1;
    case LK_DOT:
        return dot_token(R, t) ? 1 : -1;
    default:
        return atom_item(R, t, it) ? 0 : -1;
    }
}

enum { RD_OK, RD_END, RD_ERROR };

/* A string that does not end: Emacs reads its characters one by one, so
 * an error in one of its escapes comes before the end of input. */
static READ_COLD bool unterminated_string(struct reader *R)
{
    size_t p = lex_skip_trivia(R->text, R->len, R->pos);
    struct value *v;
    struct lex_token t = {.start = (uint32_t)p, .end = (uint32_t)R->len + 1,
                          .kind = LK_STRING, .flags = LEX_ESCAPED};
    if (p < R->len && R->text[p] == '"' && !read_string_token(R, &t, &v))
        return false;
    return lex_failed(R);
}

const struct lex_token *read_next_token(struct reader *R)
{
    R->lx.pos = R->pos;
    if (!lex_next(&R->lx, &R->tok)) {
        if (strcmp(R->lx.err.symbol, "end-of-file") == 0)
            unterminated_string(R);
        else
            lex_failed(R);
        return NULL;
    }
    R->pos = R->tok.end;
    return &R->tok;
}

/* The token at *p by the lexer, dispatched by token(); *p moves past it
 * (and past the string of a #&, which token() reads). */
static int lexer_token(struct reader *R, size_t *p, struct item *it)
{
    R->pos = *p;
    const struct lex_token *t = read_next_token(R);
    if (!t)
        return -1;
    int r = token(R, t, it);
    *p = R->pos;
    return r;
}

/* ---- tokens read without the lexer ---- */

/* Most of a text is plain atoms, parentheses, quotes and single spaces.
 * The machine scans these itself, straight from the text into its
 * stacks; the tokens it leaves go to next_token, and any atom with a
 * byte >= 0x80 and the other syntaxes through the lexer (lexer_token),
 * which finds the same boundaries for the tokens read here. */
enum lead {
    LD_LEXER,     /* any other token: the lexer's */
    LD_ATOM,      /* an ASCII constituent that starts a symbol */
    LD_NUMBER,    /* a digit, `+` or `-`: an atom that may be a number */
    LD_SPACE,     /* ' ' */
    LD_BLANK,     /* the other whitespace and controls, `;` */
    LD_OPEN,      /* ( */
    LD_CLOSE,     /* ) */
    LD_PREFIX,    /* ' ` , */
    LD_STRING,    /* " */
    LD_ESCAPE,    /* a backslash: an atom that starts with an escape */
    LD_HASH,      /* #: the machine's when #' */
    LD_DOT,       /* .: the machine's when a dot token followed by a space */
    LD_VOPEN,     /* [ */
    LD_VCLOSE,    /* ] */
};

#define X LD_LEXER
#define A LD_ATOM
#define N LD_NUMBER
#define B LD_BLANK
#define P LD_PREFIX
/* The lead of each byte that starts a token (or trivia). */
static const uint8_t lead[256] = {
    B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,             /* 0x00 */
    B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,             /* 0x10 */
    LD_SPACE, A, LD_STRING, LD_HASH, A, A, A, P,                /* 0x20 */
    LD_OPEN, LD_CLOSE, A, N, P, N, LD_DOT, A,                  /* 0x28 */
    N, N, N, N, N, N, N, N, N, N, A, B, A, A, A, X,             /* 0x30 */
    A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A,             /* 0x40 */
    A, A, A, A, A, A, A, A, A, A, A, LD_VOPEN, LD_ESCAPE, LD_VCLOSE, A, A, /* 0x50 */
    P, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A,             /* 0x60 */
    A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, A,             /* 0x70 */
    /* 0x80 and above: the lexer's (multibyte atoms, NBSP) */
};
#undef X
#undef A
#undef N
#undef B
#undef P

/* The machine's own tokens are read from text[0..n), the reader's text,
 * which the functions below take as arguments: the compiler then keeps
 * them in registers instead of loading them again after each store. */

/* The position after the token that ends at q: past one space too, the
 * usual separator, which then costs no turn of the machine. */
static inline size_t after_token(const uint8_t *s, size_t n, size_t q)
{
    return q + (q < n && s[q] == ' ');
}

/* Where an item just read goes: the next slot of the item stack when the
 * open frame is a list before its dot (most items), else NULL: the
 * machine then hands the item to the frames (deliver). */
static inline struct item *list_slot(struct reader *R)
{
    if (R->nframes == 0)
        return NULL;
    const struct frame *f = &R->frames[R->nframes - 1];
    if (f->kind != FR_LIST || f->dot != 0)
        return NULL;
    if (R->nitems == R->capitems)
        grow_items(R);
    return &R->items[R->nitems++];
}

/* Put the item [start, end) of value v where it goes (list_slot, else
 * *it); returns like token(). */
static inline int put_item(struct reader *R, struct value *v, uint32_t start, uint32_t end,
                           struct item *it)
{
    struct item *d = list_slot(R);
    int r = d ? 1 : 0;
    if (!d)
        d = it;
    d->v = v;
    d->start = start;
    d->end = end;
    return r;
}

/* Is the atom at `at` a backslash and a comma, nothing more: the symbol
 * `,`?  What follows must end it the way escaped_atom's scan ends a name. */
static inline bool escaped_comma(const uint8_t *s, size_t n, size_t at)
{
    if (n - at < 2 || s[at] != '\\' || s[at + 1] != ',')
        return false;
    return n - at == 2 || (lex_atom_stop[s[at + 2]] && s[at + 2] != '\\' && s[at + 2] < 0x80);
}

/* Longest name escaped_atom builds on the stack. */
#define ESCAPED_MAX 64

/* A symbol written with backslashes, all of it ASCII (`\,` in backquote
 * patterns, `a\ b`), from *p: its name (backslashes dropped) is built
 * on the stack and interned from there.  The lexer's when a byte >= 0x80
 * occurs, the input ends after a backslash, or the name is long. */
static int escaped_atom(struct reader *R, const uint8_t *s, size_t n, size_t *p,
                        struct item *it)
{
    char name[ESCAPED_MAX];
    size_t at = *p, q = at, k = 0;
    if (escaped_comma(s, n, at)) { /* most of them (backquote patterns) */
        *p = at + 2;
        return put_item(R, R->L->comma, (uint32_t)at, (uint32_t)at + 2, it);
    }
    while (q < n && k < ESCAPED_MAX) {
        uint8_t b = s[q];
        if (b == '\\') {
            if (q + 1 >= n || s[q + 1] >= 0x80)
                break;
            b = s[++q];
        } else if (lex_atom_stop[b]) {
            break;
        }
        name[k++] = (char)b;
        q++;
    }
    if (q < n && (s[q] == '\\' || s[q] >= 0x80 || !lex_atom_stop[s[q]]))
        return lexer_token(R, p, it);
    *p = q;
    struct value *sym = intern_symbol(R->L, name, k);
    note_head(R, sym, (uint32_t)at);
    return put_item(R, sym, (uint32_t)at, (uint32_t)q, it);
}

/* The closing quote of the string whose text goes on at q (at a
 * backslash or a byte >= 0x80 that lex_plain_string_end stopped at), as
 * the lexer finds it (lex_string_escape_end).  n when the string does
 * not end. */
static size_t escaped_string_end(const uint8_t *s, size_t n, size_t q)
{
    while (q < n && s[q] != '"') {
        q = s[q] == '\\' ? lex_string_escape_end(s, n, q) : q + 1;
        if (q < n)
            q = lex_plain_string_end(s, n, q);
    }
    return q < n ? q : n;
}

/* A string at *p: inline when its bytes are its characters (ASCII, no
 * backslash); decoded here from its text when it has escapes or other
 * characters (one scan for its end, not the lexer's token); the
 * lexer's when it does not end, for the error. */
static int plain_string(struct reader *R, const uint8_t *s, size_t n, size_t *p,
                        struct item *it)
{
    size_t at = *p, q = lex_plain_string_end(s, n, at + 1);
    struct value *v;
    if (q < n && s[q] != '"') {
        q = escaped_string_end(s, n, q);
        if (q >= n)
            return lexer_token(R, p, it);
        struct lex_token t = {.start = (uint32_t)at, .end = (uint32_t)q + 1,
                              .kind = LK_STRING, .flags = LEX_ESCAPED};
        if (!read_string_token(R, &t, &v))
            return -1;
    } else if (q < n) {
        v = read_make_string(R, s + at + 1, q - at - 1, false, q - at - 1);
    } else {
        return lexer_token(R, p, it);
    }
    origin_new(R, v, (uint32_t)at, (uint32_t)q + 1, 0, 0);
    *p = after_token(s, n, q + 1);
    return put_item(R, v, (uint32_t)at, (uint32_t)q + 1, it);
}

/* ' ` , ,@ at *p: a frame waiting for the object. */
static int prefix_token(struct reader *R, const uint8_t *s, size_t n, size_t *p)
{
    size_t at = *p, len = 1;
    uint8_t kind = LK_COMMA;
    if (s[at] == '\'')
        kind = LK_QUOTE;
    else if (s[at] == '`')
        kind = LK_BACKQUOTE;
    else if (at + 1 < n && s[at + 1] == '@')
        kind = LK_COMMA_AT, len = 2;
    push_prefix(R, kind, (uint32_t)at, (uint32_t)(at + len));
    *p = at + len;
    return 1;
}

/* The token or trivia at *p (< n) that fast_token leaves: returns like
 * token(), and 1 after trivia.  *p moves past what was read. */
static int next_token(struct reader *R, const uint8_t *s, size_t n, size_t *p,
                      struct item *it)
{
    size_t at = *p;
    switch (lead[s[at]]) {
    case LD_ATOM: /* continued by a backslash or a byte >= 0x80 */
    case LD_NUMBER: {
        size_t q = lex_plain_end(s, n, at + 1);
        if (q < n && s[q] == '\\')
            return escaped_atom(R, s, n, p, it);
        return lexer_token(R, p, it);
    }
    case LD_CLOSE: /* not a list before its dot */
        *p = after_token(s, n, at + 1);
        return close_paren(R, (uint32_t)at, it) ? 0 : -1;
    case LD_SPACE: /* not taken with a token (after `(`), or more than one */
    case LD_BLANK:
        *p = lex_skip_trivia(s, n, at);
        return 1;
    case LD_PREFIX:
        return prefix_token(R, s, n, p);
    case LD_STRING:
        return plain_string(R, s, n, p, it);
    case LD_ESCAPE:
        return escaped_atom(R, s, n, p, it);
    default:
        return lexer_token(R, p, it);
    }
}

/* Hand the finished item *it to the open frames until one wants more
 * input (1), the stack is empty (0: *it is the top-level object), or an
 * error (-1). */
static inline int deliver(struct reader *R, struct item *it)
{
    while (R->nframes) {
        int r = give(R, it);
        if (r)
            return r;
    }
    return 0;
}

/* ---- the machine's registers ---- */

/* The state fast_run keeps in registers while it reads the commonest
 * tokens: where it reads, and the item stack's top.  top is the next
 * free slot, and an item goes straight there while top < lim.  lim is
 * the end of the stack when the open frame is a list before its dot or
 * a vector, else the stack's base, so that one comparison says both that
 * the item is an element and that there is room for it.  R->nitems is
 * only up to date outside fast_run. */
struct cursor {
    const uint8_t *at;   /* the next byte */
    const uint8_t *end;  /* the end of the text */
    const uint8_t *text; /* its first byte: positions are offsets from it */
    struct item *top;
    struct item *lim;
};

/* lim for the open frame. */
static inline void cursor_load_lim(const struct reader *R, struct cursor *c)
{
    c->lim = R->items;
    if (R->nframes) {
        const struct frame *f = &R->frames[R->nframes - 1];
        if ((f->kind == FR_LIST && f->dot == 0) || f->kind == FR_VECTOR)
            c->lim = R->items + R->capitems;
    }
}

/* lim when the frame f that has just finished had FRAME_IN_LIST or not. */
static inline void cursor_restore_lim(const struct reader *R, struct cursor *c,
                                      const struct frame *f)
{
    c->lim = f->flags & FRAME_IN_LIST ? R->items + R->capitems : R->items;
}

/* Position of p. */
static inline uint32_t cursor_pos(const struct cursor *c, const uint8_t *p)
{
    return (uint32_t)(p - c->text);
}

/* The item [start, end) of v: into its list (1) when the cursor has
 * room, else into *it (0: the frames take it). */
static READ_INLINE int cursor_put(struct cursor *c, struct value *v, uint32_t start,
                                  uint32_t end, struct item *it)
{
    if (c->top < c->lim) {
        struct item *d = c->top++;
        d->v = v;
        d->start = start;
        d->end = end;
        return 1;
    }
    it->v = v;
    it->start = start;
    it->end = end;
    return 0;
}

/* Fast tokens return like token(), or FAST_NOT for a token they leave
 * to next_token. */
#define FAST_NOT 2

/* An atom of plain ASCII constituents (a symbol, or a number when
 * may_be_number), or FAST_NOT when a backslash or a byte >= 0x80
 * continues it. */
static READ_INLINE int fast_atom(struct reader *R, struct cursor *c, struct item *it,
                                 bool may_be_number)
{
    const uint8_t *a = c->at, *q = lex_plain_run(a + 1, c->end), *next = q;
    if (q < c->end) { /* what stopped the scan: a space (past it too), ... */
        if (*q == ' ')
            next = q + 1;
        else if (*q == '\\' || *q >= 0x80)
            return FAST_NOT;
    }
    uint32_t start = cursor_pos(c, a), stop = cursor_pos(c, q);
    struct value *v;
    if (may_be_number) {
        v = plain_atom_value(R, start, stop);
        note_head(R, v, start);
    } else {
        v = plain_symbol(R, a, (size_t)(q - a), c->end);
        note_symbol_head(R, v, start);
    }
    c->at = next;
    return cursor_put(c, v, start, stop, it);
}

/* A new frame of this kind for the opening token [c->at, c->at + len),
 * which takes the room for elements away unless it is a list or a
 * vector. */
static READ_INLINE struct frame *fast_push(struct reader *R, struct cursor *c, uint8_t kind,
                                           size_t len)
{
    if (R->nframes == R->capframes)
        grow_frames(R);
    struct frame *f = &R->frames[R->nframes++];
    if (R->nframes > R->most_frames)
        R->most_frames = R->nframes;
    uint32_t start = cursor_pos(c, c->at);
    f->kind = kind;
    f->dot = 0;
    f->flags = c->lim != R->items ? FRAME_IN_LIST : 0;
    f->start = start;
    if (kind != FR_LIST) /* a list's is its start plus one, and unused */
        f->tok_end = start + (uint32_t)len;
    f->base = (uint32_t)(c->top - R->items);
    c->lim = kind == FR_LIST || kind == FR_VECTOR ? R->items + R->capitems : R->items;
    c->at += len;
    return f;
}

/* ' ` , ,@: a frame waiting for the object, which fast_run wraps
 * (fast_prefix_done). */
static READ_INLINE int fast_prefix(struct reader *R, struct cursor *c)
{
    const uint8_t *a = c->at;
    uint8_t kind = *a == '\'' ? LK_QUOTE : *a == '`' ? LK_BACKQUOTE : LK_COMMA;
    size_t len = kind == LK_COMMA && c->end - a > 1 && a[1] == '@' ? 2 : 1;
    if (len == 2)
        kind = LK_COMMA_AT;
    if (extend_prefix(R, kind, cursor_pos(c, a), (uint32_t)len)) {
        c->at += len;
        return 1;
    }
    struct frame *f = fast_push(R, c, FR_PREFIX, len);
    f->sub = kind;
    f->u.run = 1;
    return 1;
}

/* The object *it finished with a prefix frame open (which took the
 * room for list elements away): wrap it, and put the result where the
 * frame below wants it (like cursor_put). */
static READ_INLINE int fast_prefix_done(struct reader *R, struct cursor *c, struct item *it)
{
    const struct frame *f = &R->frames[R->nframes - 1];
    finish_prefix(R, f, it);
    R->nframes--;
    cursor_restore_lim(R, c, f);
    return cursor_put(c, it->v, it->start, it->end, it);
}

/* `)` closing a list without a dot (nearly every `)`): the list is built
 * from its elements on the item stack; FAST_NOT for other frames. */
static READ_INLINE int fast_close(struct reader *R, struct cursor *c, struct item *it)
{
    if (!R->nframes)
        return FAST_NOT;
    const struct frame *f = &R->frames[R->nframes - 1];
    if (f->kind != FR_LIST || f->dot != 0)
        return FAST_NOT;
    uint32_t start = f->start, stop = cursor_pos(c, c->at) + 1;
    struct item *base = R->items + f->base;
    size_t k = (size_t)(c->top - base);
    struct value *v = k ? build_list(R, base, k, R->L->nil, start, stop) : R->L->nil;
    R->nframes--;
    c->top = base;
    cursor_restore_lim(R, c, f);
    c->at += 1 + (c->end - c->at > 1 && c->at[1] == ' ');
    return cursor_put(c, v, start, stop, it);
}

/* A string of ASCII bytes without backslashes (its bytes are its
 * characters): its value and origin entry, [at, at + n + 2) with the
 * quotes.  Out of line: strings are few. */
static struct value *fast_string_value(struct reader *R, const uint8_t *data, size_t n,
                                       uint32_t at)
{
    struct value *v = read_make_string(R, data, n, false, n);
    origin_new(R, v, at, at + (uint32_t)n + 2, 0, 0);
    return v;
}

/* `"`: a plain string (fast_string_value), or FAST_NOT for the lexer's. */
static READ_INLINE int fast_string(struct reader *R, struct cursor *c, struct item *it)
{
    const uint8_t *a = c->at;
    size_t n = (size_t)(c->end - a), q = lex_plain_string_end(a, n, 1);
    if (q >= n || a[q] != '"')
        return FAST_NOT;
    uint32_t start = cursor_pos(c, a);
    struct value *v = fast_string_value(R, a + 1, q - 1, start);
    c->at = a + q + 1 + (q + 1 < n && a[q + 1] == ' ');
    return cursor_put(c, v, start, start + (uint32_t)q + 1, it);
}

/* `#'`: a prefix frame; FAST_NOT for the other `#` syntaxes. */
static READ_INLINE int fast_hash(struct reader *R, struct cursor *c)
{
    if (c->end - c->at < 2 || c->at[1] != '\'')
        return FAST_NOT;
    if (extend_prefix(R, LK_FUNCTION, cursor_pos(c, c->at), 2)) {
        c->at += 2;
        return 1;
    }
    struct frame *f = fast_push(R, c, FR_PREFIX, 2);
    f->sub = LK_FUNCTION;
    f->u.run = 1;
    return 1;
}

/* A dot followed by a space in a list before its dot: the list's object
 * after the dot goes to the frames (give_frame).  FAST_NOT otherwise (a
 * symbol or number that starts with a dot, the errors). */
static READ_INLINE int fast_dot(struct reader *R, struct cursor *c)
{
    if (c->end - c->at < 2 || c->at[1] != ' ' || !R->nframes)
        return FAST_NOT;
    struct frame *f = &R->frames[R->nframes - 1];
    if (f->kind != FR_LIST || f->dot != 0 || c->top == R->items + f->base)
        return FAST_NOT;
    f->dot = 1;
    c->lim = R->items;
    c->at += 2;
    return 1;
}

/* `]` closing a vector: FAST_NOT for other frames (#[ and the errors). */
static READ_INLINE int fast_vclose(struct reader *R, struct cursor *c, struct item *it)
{
    struct frame *f = R->nframes ? &R->frames[R->nframes - 1] : NULL;
    if (!f || f->kind != FR_VECTOR || f->sub != VK_VECTOR)
        return FAST_NOT;
    uint32_t stop = cursor_pos(c, c->at) + 1;
    bool in_list = f->flags & FRAME_IN_LIST;
    R->nitems = (size_t)(c->top - R->items);
    finish_vector(R, f, stop, it);
    c->top = R->items + R->nitems;
    c->lim = in_list ? R->items + R->capitems : R->items;
    c->at += 1 + (c->end - c->at > 1 && c->at[1] == ' ');
    return cursor_put(c, it->v, it->start, it->end, it);
}

/* The commonest tokens at c->at (< c->end): atoms, `(`, `)`, quotes,
 * then plain strings, `#'`, vectors and dots; returns like token(), or
 * FAST_NOT. */
static READ_INLINE int fast_token(struct reader *R, struct cursor *c, struct item *it)
{
    uint8_t lead_class = lead[*c->at];
    if (lead_class == LD_ATOM)
        return fast_atom(R, c, it, false);
    if (lead_class == LD_CLOSE)
        return fast_close(R, c, it);
    if (lead_class == LD_OPEN)
        return fast_push(R, c, FR_LIST, 1), 1;
    if (lead_class == LD_NUMBER)
        return fast_atom(R, c, it, true);
    switch (lead_class) {
    case LD_PREFIX:
        return fast_prefix(R, c);
    case LD_STRING:
        return fast_string(R, c, it);
    case LD_HASH:
        return fast_hash(R, c);
    case LD_DOT:
        return fast_dot(R, c);
    case LD_VOPEN:
        fast_push(R, c, FR_VECTOR, 1)->sub = VK_VECTOR;
        return 1;
    case LD_VCLOSE:
        return fast_vclose(R, c, it);
    default:
        return FAST_NOT;
    }
}

/* Run the machine over the commonest tokens from *p on, with its state
 * in registers, until an item is finished that the frames must take (0,
 * in *it) or a token it leaves to next_token (FAST_NOT). */
static int fast_run(struct reader *R, size_t *p, struct item *it)
{
    struct cursor c = {R->text + *p, R->text + R->len, R->text, R->items + R->nitems, NULL};
    cursor_load_lim(R, &c);
    table_load(R);
    int r;
    do {
        r = c.at < c.end ? fast_token(R, &c, it) : FAST_NOT;
        while (r == 0 && R->nframes && R->frames[R->nframes - 1].kind == FR_PREFIX)
            r = fast_prefix_done(R, &c, it);
    } while (r == 1);
    R->nitems = (size_t)(c.top - R->items);
    *p = cursor_pos(&c, c.at);
    return r;
}

/* Read one top-level object; RD_END when only trivia is left.  p runs
 * ahead of R->pos, the end of the last token used, by the trivia after
 * it. */
static int read_object(struct reader *R, struct item *out)
{
    R->nframes = 0;
    R->most_frames = 0;
    R->nitems = 0;
    R->n_heads = 0;
    if (R->labels_used)
        read_labels_reset(R);
    size_t p = lex_skip_trivia(R->text, R->len, R->pos);
    R->pos = p;
    if (p >= R->len)
        return RD_END;
    for (;;) {
        struct item it;
        int r = fast_run(R, &p, &it);
        if (r == FAST_NOT)
            r = p < R->len ? next_token(R, R->text, R->len, &p, &it) : lexer_token(R, &p, &it);
        if (r > 0)
            continue;
        if (r < 0)
            return RD_ERROR;
        R->pos = it.end;
        r = deliver(R, &it);
        if (r < 0)
            return RD_ERROR;
        if (r == 0) {
            *out = it;
            return RD_OK;
        }
    }
}

static struct reader *reader_new(struct lisp *L, const uint8_t *text, size_t start,
                                 size_t len, bool origin)
{
    struct reader *R = arena_zalloc(L->a, sizeof *R);
    R->L = L;
    R->a = L->a;
    R->text = text;
    R->len = len;
    R->pos = start;
    lex_init(&R->lx, text, len, start);
    /* The item stack exists from the start: the main loop's cursor points
     * into it before anything is pushed. */
    grow_items(R);
    R->origin = origin ? read_origin_new(L->a, text, len - start) : NULL;
    /* Emacs Lisp has a new symbol every 75 to 100 bytes: room for one
     * every 64 keeps the table half full or less (a lookup is a probe or
     * two); it grows from there if need be. */
    intern_reserve(L, (len - start) / 64);
    return R;
}

static void add_form(struct read_result *out, size_t *cap, struct arena *a,
                     const struct item *it, const struct reader *R)
{
    if (out->n_forms == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        out->forms = arena_grow(a, out->forms, *cap * sizeof *out->forms,
                                ncap * sizeof *out->forms);
        *cap = ncap;
    }
    struct read_form *f = &out->forms[out->n_forms++];
    f->v = it->v;
    f->span.start = it->start;
    f->span.end = it->end;
    f->labels = R->labels_used;
    f->depth = (uint32_t)R->most_frames;
    f->n_heads = R->n_heads;
    memcpy(f->heads, R->heads, sizeof f->heads);
}

bool read_source(struct lisp *L, const uint8_t *text, size_t len,
                 struct read_result *out)
{
    return read_source_opts(L, text, len, 0, out);
}

bool read_source_opts(struct lisp *L, const uint8_t *text, size_t len,
                      unsigned flags, struct read_result *out)
{
    return read_source_range(L, text, 0, len, flags, out);
}

bool read_source_range(struct lisp *L, const uint8_t *text, size_t start,
                       size_t len, unsigned flags, struct read_result *out)
{
    memset(out, 0, sizeof *out);
    bool huge = len >= UINT32_MAX;
    if (huge || start > len)
        start = len = 0;
    struct reader *R = reader_new(L, text, start, len, !(flags & READ_NO_ORIGIN));
    out->origin = R->origin;
    out->heads_known = L->heads_primed;
    if (huge) {
        read_fail(R, 0, "error", "Input too large (4 GiB or more)");
        out->err = R->err;
        return false;
    }
    size_t cap = 0;
    for (;;) {
        struct item it;
        int r = read_object(R, &it);
        if (r == RD_END)
            break;
        if (r == RD_ERROR) {
            out->err = R->err;
            return false;
        }
        add_form(out, &cap, L->a, &it, R);
    }
    out->ok = true;
    return true;
}

bool read_one(struct lisp *L, const uint8_t *text, size_t len,
              struct value **v, size_t *consumed, struct read_error *err)
{
    struct reader *R = reader_new(L, text, 0, len >= UINT32_MAX ? 0 : len, true);
    struct item it;
    int r = len >= UINT32_MAX ? RD_END : read_object(R, &it);
    if (r == RD_END)
        read_fail(R, len, "end-of-file", "");
    if (r != RD_OK) {
        *err = R->err;
        return false;
    }
    *v = it.v;
    *consumed = lex_count_chars(text, R->pos);
    return true;
}
