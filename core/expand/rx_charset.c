/* rx_charset.c - character sets of the rx notation: interval sets, (any
 * ...), the bracket expression rx--generate-alt writes, syntax and
 * category.
 *
 * Part of the rx translation (rx.h).  Sets are sorted, disjoint,
 * non-adjacent intervals (struct rx_ivs), combined as Emacs 30.1's
 * rx--interval-set-* functions combine them, and written with rx.el's
 * placement of ], ^ and -.
 */
#include "expand/rx_int.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CHAR 0x3FFFFFu
/* The last character below the raw bytes: a range across it is written
 * in two parts, and a set without classes that holds it is written
 * complemented (Emacs's regexp parser mangles such ranges). */
#define LAST_UNICODE_RAW_EDGE 0x3FFF7Fu

/* ---- interval sets ---- */

void rx_ivs_push(struct arena *a, struct rx_ivs *s, uint32_t lo, uint32_t hi)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        s->v = arena_grow(a, s->v, s->cap * sizeof *s->v, cap * sizeof *s->v);
        s->cap = cap;
    }
    s->v[s->n++] = (struct rx_iv){lo, hi};
}

static int iv_cmp(const void *x, const void *y)
{
    const struct rx_iv *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

void rx_ivs_condense(struct rx_ivs *s)
{
    if (s->n == 0)
        return;
    qsort(s->v, s->n, sizeof *s->v, iv_cmp);
    size_t m = 0;
    for (size_t i = 1; i < s->n; i++) {
        if (s->v[m].hi + 1 >= s->v[i].lo) {
            if (s->v[i].hi > s->v[m].hi)
                s->v[m].hi = s->v[i].hi;
        } else
            s->v[++m] = s->v[i];
    }
    s->n = m + 1;
}

struct rx_ivs rx_ivs_complement(struct arena *a, const struct rx_ivs *s)
{
    struct rx_ivs r = {0};
    uint32_t c = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (c < s->v[i].lo)
            rx_ivs_push(a, &r, c, s->v[i].lo - 1);
        c = s->v[i].hi + 1;
    }
    /* rx.el's bound is (< c (max-char)): a set ending at max-char - 1
     * does not get max-char itself. */
    if (c < MAX_CHAR)
        rx_ivs_push(a, &r, c, MAX_CHAR);
    return r;
}

struct event {
    uint32_t at;  /* a set's interval starts here (+1) or ended before (-1) */
    int delta;
};

static int event_cmp(const void *x, const void *y)
{
    const struct event *a = x, *b = y;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* The characters all n sets hold: the fold of
 * rx--interval-set-intersection (whose result is the same normalised
 * set), as one sweep over the sorted ends, so that n sets cost
 * (total intervals) log (total intervals), not n times the result. */
struct rx_ivs rx_ivs_intersect_all(struct arena *a, const struct rx_ivs *const *sets,
                                   size_t n)
{
    struct rx_ivs r = {0};
    size_t m = 0, k = 0;
    for (size_t i = 0; i < n; i++)
        m += 2 * sets[i]->n;
    if (n == 0) {
        rx_ivs_push(a, &r, 0, MAX_CHAR);
        return r;
    }
    struct event *ev = ARENA_NEWN(a, struct event, m ? m : 1);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < sets[i]->n; j++) {
            ev[k++] = (struct event){sets[i]->v[j].lo, 1};
            ev[k++] = (struct event){sets[i]->v[j].hi + 1, -1};
        }
    qsort(ev, m, sizeof *ev, event_cmp);
    size_t depth = 0;
    for (size_t i = 0; i < m;) {
        uint32_t at = ev[i].at;
        bool was_all = depth == n;
        for (; i < m && ev[i].at == at; i++)
            depth = (size_t)((long)depth + ev[i].delta);
        if (!was_all && depth == n)
            rx_ivs_push(a, &r, at, at); /* hi set when it ends */
        else if (was_all && depth != n)
            r.v[r.n - 1].hi = at - 1;
    }
    return r;
}

/* ---- (any ...) ---- */

/* rx--string-to-intervals on the string s (at: the string, for errors). */
static bool string_intervals(struct rx_tr *t, const struct value *at,
                             struct rx_ivs *out)
{
    struct arena *a = t->L->a;
    struct rx_str *s = rx_str_of_value(a, at);
    for (size_t i = 0; i < s->n;) {
        if (i + 2 < s->n && s->c[i + 1] == '-') {
            uint32_t lo = s->c[i], hi = s->c[i + 2];
            if (lo <= 0x7F && hi >= 0x3FFF80) {
                /* ranges from ASCII to raw bytes are split (as rx.el) */
                rx_ivs_push(a, out, lo, 0x7F);
                rx_ivs_push(a, out, 0x3FFF80, hi);
            } else if (lo <= hi)
                rx_ivs_push(a, out, lo, hi);
            else {
                struct rx_str *r = rx_str_new(a);
                for (size_t k = i; k < i + 3; k++)
                    rx_str_putc(a, r, s->c[k]);
                r->mb = s->mb;
                return rx_fail(t, at, "Invalid rx `any' range: %s",
                               rx_show(t, rx_str_value(a, r), true));
            }
            i += 3;
        } else {
            rx_ivs_push(a, out, s->c[i], s->c[i]);
            i++;
        }
    }
    return true;
}

static void add_class(struct arena *a, struct rx_cset *p, const char *cls,
                      size_t cap)
{
    for (size_t i = 0; i < p->ncls; i++)
        if (strcmp(p->cls[i], cls) == 0)
            return;
    if (!p->cls)
        p->cls = ARENA_NEWN(a, const char *, cap);
    p->cls[p->ncls++] = cls;
}

/* One non-string argument of `any'. */
static bool any_arg(struct rx_tr *t, struct value *arg, struct rx_cset *p,
                    size_t n)
{
    if (value_consp(arg) && rx_charp(value_car(arg)) && rx_charp(value_cdr(arg))
        && value_car(arg)->u.i <= value_cdr(arg)->u.i) {
        rx_ivs_push(t->L->a, &p->ivs, (uint32_t)value_car(arg)->u.i,
                    (uint32_t)value_cdr(arg)->u.i);
        return true;
    }
    if (rx_charp(arg)) {
        rx_ivs_push(t->L->a, &p->ivs, (uint32_t)arg->u.i, (uint32_t)arg->u.i);
        return true;
    }
    const char *cls = rx_char_class(arg);
    if (cls) {
        add_class(t->L->a, p, cls, n);
        return true;
    }
    return rx_fail(t, arg, "Invalid rx `any' argument: %s", rx_show(t, arg, true));
}

bool rx_parse_any(struct rx_tr *t, struct value *form, struct value *body,
                  struct rx_cset *p)
{
    struct value **items;
    size_t n;
    if (!rx_list(t, form, body, false, &items, &n))
        return false;
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < n; i++)
        if (!value_is(items[i], VK_STRING) && !any_arg(t, items[i], p, n))
            return false;
    /* strings are converted last, in reverse order, as rx.el does */
    for (size_t i = n; i-- > 0;)
        if (value_is(items[i], VK_STRING) && !string_intervals(t, items[i], &p->ivs))
            return false;
    rx_ivs_condense(&p->ivs);
    return true;
}

/* ---- the bracket expression ---- */

/* The intervals being placed (a copy rx--generate-alt may rearrange). */
struct place {
    struct rx_iv *v;
    size_t n;
    bool dash, caret;  /* a - or ^ to write after the classes */
};

static long find_lo(const struct place *p, uint32_t c)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->v[i].lo == c)
            return (long)i;
    return -1;
}

static long find_hi(const struct place *p, uint32_t c)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->v[i].hi == c)
            return (long)i;
    return -1;
}

static void insert_at(struct place *p, size_t i, struct rx_iv x)
{
    memmove(p->v + i + 1, p->v + i, (p->n - i) * sizeof *p->v);
    p->v[i] = x;
    p->n++;
}

static void remove_at(struct place *p, size_t i)
{
    memmove(p->v + i, p->v + i + 1, (p->n - i - 1) * sizeof *p->v);
    p->n--;
}

/* Where ], - and ^ go so that the bracket expression reads them
 * literally: ] first, - last, ^ not first (rx.el's order of steps). */
static void place_specials(struct place *p, bool negated, size_t ncls)
{
    long i = find_lo(p, ']');
    if (i > 0) {
        struct rx_iv x = p->v[i];
        remove_at(p, (size_t)i);
        insert_at(p, 0, x);
    }
    i = find_hi(p, ']');
    if (i >= 0 && p->v[i].lo != ']') {
        p->v[i].hi = '\\';
        insert_at(p, 0, (struct rx_iv){']', ']'});
    }
    i = find_hi(p, '-');
    if (i >= 0 && p->v[i].lo == ',') {
        p->v[i].hi = ',';
        p->dash = true;
    }
    i = find_lo(p, '-');
    if (i >= 0) {
        if (p->v[i].hi == '-')
            remove_at(p, (size_t)i);
        else
            p->v[i].lo = '.';
        p->dash = true;
    }
    if (negated || p->n == 0 || p->v[0].lo != '^')
        return;
    if (p->v[0].hi != '^') {
        /* ^-x becomes _-x^ */
        p->v[0].lo = '_';
        insert_at(p, 1, (struct rx_iv){'^', '^'});
    } else if (p->n > 1 || ncls > 0) {
        remove_at(p, 0);
        p->caret = true;
    } else {
        insert_at(p, 0, (struct rx_iv){'-', '-'});
        p->dash = false;
    }
}

static void put_iv(struct arena *a, struct rx_str *s, struct rx_iv iv)
{
    rx_str_putc(a, s, iv.lo);
    if (iv.lo == iv.hi)
        return;
    if (iv.lo + 1 == iv.hi) {
        rx_str_putc(a, s, iv.hi);
        return;
    }
    if (iv.lo <= LAST_UNICODE_RAW_EDGE && LAST_UNICODE_RAW_EDGE <= iv.hi) {
        rx_str_putc(a, s, '-');
        rx_str_putc(a, s, LAST_UNICODE_RAW_EDGE);
        rx_str_putc(a, s, LAST_UNICODE_RAW_EDGE + 1);
    }
    rx_str_putc(a, s, '-');
    rx_str_putc(a, s, iv.hi);
}

/* A single character: itself quoted, or [^c] (. for newline). */
static void single_char(struct rx_tr *t, bool negated, uint32_t c,
                        struct rx_item *out)
{
    struct arena *a = t->L->a;
    rx_item_init(out, RX_P_T);
    if (negated && c == '\n') {
        rx_item_puts(t, out, ".");
        return;
    }
    struct rx_str *s = rx_str_new(a);
    if (negated) {
        rx_str_puts(a, s, "[^");
        rx_str_putc(a, s, c);
        rx_str_putc(a, s, ']');
    } else
        rx_str_put_quoted(a, s, rx_str_of_char(a, c));
    rx_item_str(t, out, s);
}

static bool covers_raw_edge(const struct rx_ivs *ivs)
{
    for (size_t i = 0; i < ivs->n; i++)
        if (ivs->v[i].lo <= LAST_UNICODE_RAW_EDGE && LAST_UNICODE_RAW_EDGE <= ivs->v[i].hi)
            return true;
    return false;
}

void rx_generate_alt(struct rx_tr *t, bool negated, const struct rx_ivs *ivs,
                     const char *const *cls, size_t ncls, struct rx_item *out)
{
    struct arena *a = t->L->a;
    struct rx_ivs set = *ivs;
    if (ncls == 0 && covers_raw_edge(ivs)) {
        negated = !negated;
        set = rx_ivs_complement(a, ivs);
    }
    if (set.n == 1 && set.v[0].lo == set.v[0].hi && ncls == 0) {
        single_char(t, negated, set.v[0].lo, out);
        return;
    }
    if (set.n == 0 && ncls == 0) {
        if (!negated) {
            rx_item_unmatchable(t, out);
            return;
        }
        rx_item_init(out, RX_P_T);
        rx_item_puts(t, out, "[^z-a]");
        return;
    }
    struct place p = {ARENA_NEWN(a, struct rx_iv, set.n + 2), set.n, false, false};
    if (set.n) /* only classes: set.v may be NULL */
        memcpy(p.v, set.v, set.n * sizeof *p.v);
    place_specials(&p, negated, ncls);
    struct rx_str *s = rx_str_new(a);
    rx_str_puts(a, s, negated ? "[^" : "[");
    for (size_t i = 0; i < p.n; i++)
        put_iv(a, s, p.v[i]);
    for (size_t i = 0; i < ncls; i++) {
        rx_str_puts(a, s, "[:");
        rx_str_puts(a, s, cls[i]);
        rx_str_puts(a, s, ":]");
    }
    rx_str_puts(a, s, p.caret ? "^" : "");
    rx_str_puts(a, s, p.dash ? "-]" : "]");
    rx_item_init(out, RX_P_T);
    rx_item_str(t, out, s);
}

bool rx_tr_any(struct rx_tr *t, bool negated, struct value *form,
               struct value *body, struct rx_item *out)
{
    struct rx_cset p;
    if (!rx_parse_any(t, form, body, &p))
        return false;
    rx_generate_alt(t, negated, &p.ivs, p.cls, p.ncls, out);
    return true;
}

/* ---- syntax and category ---- */

struct code_row {
    const char *name;
    char code;
};

/* rx--syntax-codes, sorted by name. */
static const struct code_row syntax_codes[] = {
    {"character-quote", '/'},   {"close-parenthesis", ')'},
    {"comment-delimiter", '!'}, {"comment-end", '>'},
    {"comment-start", '<'},     {"escape", '\\'},
    {"expression-prefix", '\''}, {"open-parenthesis", '('},
    {"paired-delimiter", '$'},  {"punctuation", '.'},
    {"string-delimiter", '|'},  {"string-quote", '"'},
    {"symbol", '_'},            {"whitespace", '-'},
    {"word", 'w'},
};

/* rx--categories, sorted by name. */
static const struct code_row categories[] = {
    {"alpha-numeric-two-byte", 'A'}, {"arabic", 'b'},
    {"ascii", 'a'},                  {"base", '.'},
    {"base-vowel", '1'},             {"can-break", '|'},
    {"chinese", 'c'},                {"chinese-two-byte", 'C'},
    {"chinse-two-byte", 'C'},        {"combining-diacritic", '^'},
    {"consonant", '0'},              {"cyrillic", 'y'},
    {"cyrillic-two-byte", 'Y'},      {"digit", '6'},
    {"ethiopic", 'e'},               {"greek", 'g'},
    {"greek-two-byte", 'G'},         {"hebrew", 'w'},
    {"indian", 'i'},                 {"indian-two-byte", 'I'},
    {"japanese", 'j'},               {"japanese-hiragana-two-byte", 'H'},
    {"japanese-katakana", 'k'},      {"japanese-katakana-two-byte", 'K'},
    {"japanese-roman", 'r'},         {"korean", 'h'},
    {"korean-hangul-two-byte", 'N'}, {"lao", 'o'},
    {"latin", 'l'},                  {"lower-diacritical-mark", '3'},
    {"not-at-beginning-of-line", '>'}, {"not-at-end-of-line", '<'},
    {"semivowel-lower", '9'},        {"space-for-indent", ' '},
    {"strong-left-to-right", 'L'},   {"strong-right-to-left", 'R'},
    {"symbol", '5'},                 {"thai", 't'},
    {"tibetan", 'q'},                {"tone-mark", '4'},
    {"upper-diacritical-mark", '2'}, {"vietnamese", 'v'},
    {"vowel-modifying-diacritical-mark", '7'}, {"vowel-sign", '8'},
};

static int code_cmp(const void *k, const void *row)
{
    return strcmp(k, ((const struct code_row *)row)->name);
}

static const struct code_row *code_find(const struct code_row *tab, size_t n,
                                        const char *name)
{
    return name ? bsearch(name, tab, n, sizeof *tab, code_cmp) : NULL;
}

static bool is_syntax_code(uint32_t c)
{
    for (size_t i = 0; i < sizeof syntax_codes / sizeof *syntax_codes; i++)
        if ((uint32_t)(unsigned char)syntax_codes[i].code == c)
            return true;
    return false;
}

/* A backslash escape: \sC, \SC, \cC or \CC. */
static void escape_item(struct rx_tr *t, char esc, uint32_t code,
                        struct rx_item *out)
{
    struct rx_str *s = rx_str_new(t->L->a);
    rx_str_putc(t->L->a, s, '\\');
    rx_str_putc(t->L->a, s, (uint32_t)(unsigned char)esc);
    rx_str_putc(t->L->a, s, code);
    rx_item_init(out, RX_P_T);
    rx_item_str(t, out, s);
}

/* rx--translate-syntax: a name, or a syntax code as a character or a
 * one-character symbol; word syntax is written \w / \W. */
bool rx_tr_syntax(struct rx_tr *t, bool negated, struct value *form,
                  struct value *body, struct rx_item *out)
{
    if (!rx_one_arg(t, form, body, "syntax"))
        return false;
    struct value *sym = value_car(body);
    const char *name = rx_symname(sym);
    const struct code_row *row =
        code_find(syntax_codes, sizeof syntax_codes / sizeof *syntax_codes, name);
    uint32_t code = row ? (uint32_t)(unsigned char)row->code : 0;
    if (!row && rx_charp(sym) && is_syntax_code((uint32_t)sym->u.i))
        code = (uint32_t)sym->u.i;
    else if (!row && value_symbolp(sym) && sym->u.sym.len == 1
             && is_syntax_code((unsigned char)sym->u.sym.name[0]))
        code = (unsigned char)sym->u.sym.name[0];
    if (!code)
        return rx_fail(t, sym, "Unknown rx syntax name `%s'", rx_show(t, sym, true));
    if (code == 'w') {
        rx_item_init(out, RX_P_T);
        rx_item_puts(t, out, negated ? "\\W" : "\\w");
        return true;
    }
    escape_item(t, negated ? 'S' : 's', code, out);
    return true;
}

bool rx_tr_category(struct rx_tr *t, bool negated, struct value *form,
                    struct value *body, struct rx_item *out)
{
    if (!rx_one_arg(t, form, body, "category"))
        return false;
    struct value *arg = value_car(body);
    uint32_t code;
    if (value_symbolp(arg)) {
        const struct code_row *row =
            code_find(categories, sizeof categories / sizeof *categories,
                      arg->u.sym.interned ? arg->u.sym.name : NULL);
        if (!row)
            return rx_fail(t, arg, "Unknown rx category `%s'", rx_show(t, arg, true));
        code = (uint32_t)(unsigned char)row->code;
    } else if (rx_charp(arg))
        code = (uint32_t)arg->u.i;
    else
        return rx_fail(t, arg, "Invalid rx `category' argument `%s'",
                       rx_show(t, arg, true));
    escape_item(t, negated ? 'C' : 'c', code, out);
    return true;
}

bool rx_charset_tables_sorted(void)
{
    for (size_t i = 1; i < sizeof syntax_codes / sizeof *syntax_codes; i++)
        if (strcmp(syntax_codes[i - 1].name, syntax_codes[i].name) >= 0)
            return false;
    for (size_t i = 1; i < sizeof categories / sizeof *categories; i++)
        if (strcmp(categories[i - 1].name, categories[i].name) >= 0)
            return false;
    return true;
}
