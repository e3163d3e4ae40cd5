/* rx_charset.c - character sets of the rx notation: any, not, or of
 * charsets, intersection, syntax and category.
 *
 * Part of the rx translation (rx.h).  Sets are sorted disjoint intervals,
 * written as a bracket expression with rx.el's placement of ], ^ and -.
 */
#include "expand/rx_int.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CHAR 0x3FFFFFu

struct iv {
    uint32_t lo, hi;
};

struct ivs {
    struct iv *v;
    size_t n, cap;
};

static void ivs_push(struct arena *a, struct ivs *s, uint32_t lo, uint32_t hi)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        s->v = arena_grow(a, s->v, s->cap * sizeof *s->v, cap * sizeof *s->v);
        s->cap = cap;
    }
    s->v[s->n++] = (struct iv){lo, hi};
}

static int iv_cmp(const void *x, const void *y)
{
    const struct iv *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Sort and merge overlapping or adjacent intervals (rx--condense-intervals). */
static void ivs_condense(struct ivs *s)
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

static struct ivs ivs_complement(struct arena *a, const struct ivs *s)
{
    struct ivs r = {0};
    uint32_t c = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (c < s->v[i].lo)
            ivs_push(a, &r, c, s->v[i].lo - 1);
        c = s->v[i].hi + 1;
    }
    /* rx.el's bound is (< c (max-char)): a set ending at max-char - 1
     * does not get max-char itself. */
    if (c < MAX_CHAR)
        ivs_push(a, &r, c, MAX_CHAR);
    return r;
}

static struct ivs ivs_intersect(struct arena *a, const struct ivs *x,
                                const struct ivs *y)
{
    struct ivs r = {0};
    size_t i = 0, j = 0;
    struct iv ca = i < x->n ? x->v[0] : (struct iv){0, 0};
    struct iv cb = j < y->n ? y->v[0] : (struct iv){0, 0};
    while (i < x->n && j < y->n) {
        if (ca.hi < cb.lo) {
            if (++i < x->n)
                ca = x->v[i];
        } else if (ca.lo > cb.hi) {
            if (++j < y->n)
                cb = y->v[j];
        } else {
            ivs_push(a, &r, ca.lo > cb.lo ? ca.lo : cb.lo,
                     ca.hi < cb.hi ? ca.hi : cb.hi);
            struct iv na = ca, nb = cb;
            bool adv_a = true, adv_b = true;
            if (ca.hi < cb.hi) {
                nb.lo = ca.hi + 1;
                adv_b = false;
            } else if (ca.hi > cb.hi) {
                na.lo = cb.hi + 1;
                adv_a = false;
            }
            if (adv_a && ++i < x->n)
                na = x->v[i];
            if (adv_b && ++j < y->n)
                nb = y->v[j];
            ca = na;
            cb = nb;
        }
    }
    return r;
}

static struct ivs ivs_union(struct arena *a, const struct ivs *x,
                            const struct ivs *y)
{
    struct ivs cx = ivs_complement(a, x), cy = ivs_complement(a, y);
    struct ivs i = ivs_intersect(a, &cx, &cy);
    return ivs_complement(a, &i);
}

/* ---- (any ...) ---- */

/* rx--string-to-intervals on the string s (at: the string, for errors). */
static bool string_intervals(struct rx_tr *t, const struct value *at,
                             struct ivs *out)
{
    struct arena *a = t->L->a;
    struct rx_str *s = rx_str_of_value(a, at);
    for (size_t i = 0; i < s->n;) {
        if (i + 2 < s->n && s->c[i + 1] == '-') {
            uint32_t lo = s->c[i], hi = s->c[i + 2];
            if (lo <= 0x7F && hi >= 0x3FFF80) {
                /* ranges from ASCII to raw bytes are split (as rx.el) */
                ivs_push(a, out, lo, 0x7F);
                ivs_push(a, out, 0x3FFF80, hi);
            } else if (lo <= hi)
                ivs_push(a, out, lo, hi);
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
            ivs_push(a, out, s->c[i], s->c[i]);
            i++;
        }
    }
    return true;
}

struct parsed {
    struct ivs ivs;
    const char **classes; /* class names in order of first occurrence */
    size_t n_classes;
};

static void add_class(struct arena *a, struct parsed *p, const char *cls,
                      size_t cap)
{
    for (size_t i = 0; i < p->n_classes; i++)
        if (strcmp(p->classes[i], cls) == 0)
            return;
    if (!p->classes)
        p->classes = ARENA_NEWN(a, const char *, cap);
    p->classes[p->n_classes++] = cls;
}

/* One non-string argument of `any'. */
static bool any_arg(struct rx_tr *t, struct value *arg, struct parsed *p,
                    size_t n)
{
    if (value_consp(arg) && rx_charp(value_car(arg)) && rx_charp(value_cdr(arg))
        && value_car(arg)->u.i <= value_cdr(arg)->u.i) {
        ivs_push(t->L->a, &p->ivs, (uint32_t)value_car(arg)->u.i,
                 (uint32_t)value_cdr(arg)->u.i);
        return true;
    }
    if (rx_charp(arg)) {
        ivs_push(t->L->a, &p->ivs, (uint32_t)arg->u.i, (uint32_t)arg->u.i);
        return true;
    }
    const char *cls = rx_char_class(arg);
    if (cls) {
        add_class(t->L->a, p, cls, n);
        return true;
    }
    return rx_fail(t, arg, "Invalid rx `any' argument: %s", rx_show(t, arg, true));
}

/* rx--parse-any: intervals sorted and merged, classes in order. */
static bool parse_any(struct rx_tr *t, struct value *form, struct value *body,
                      struct parsed *p)
{
    struct value **items;
    size_t n;
    if (!rx_list(t, form, body, &items, &n))
        return false;
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < n; i++)
        if (!value_is(items[i], VK_STRING) && !any_arg(t, items[i], p, n))
            return false;
    /* strings are converted last, in reverse order, as rx.el does */
    for (size_t i = n; i-- > 0;)
        if (value_is(items[i], VK_STRING) && !string_intervals(t, items[i], &p->ivs))
            return false;
    ivs_condense(&p->ivs);
    return true;
}

/* A bracket-expression element: an interval or a class. */
struct elt {
    const char *cls; /* class name, or NULL for an interval */
    uint32_t lo, hi;
};

struct elts {
    struct elt *v;
    size_t n;
};

static long find_lo(const struct elts *e, uint32_t c)
{
    for (size_t i = 0; i < e->n; i++)
        if (!e->v[i].cls && e->v[i].lo == c)
            return (long)i;
    return -1;
}

static long find_hi(const struct elts *e, uint32_t c)
{
    for (size_t i = 0; i < e->n; i++)
        if (!e->v[i].cls && e->v[i].hi == c)
            return (long)i;
    return -1;
}

static void elts_move_front(struct elts *e, size_t i)
{
    struct elt x = e->v[i];
    memmove(e->v + 1, e->v, i * sizeof *e->v);
    e->v[0] = x;
}

static void elts_remove(struct elts *e, size_t i)
{
    memmove(e->v + i, e->v + i + 1, (e->n - i - 1) * sizeof *e->v);
    e->n--;
}

/* Place ], - and ^ where a bracket expression reads them literally. */
static void place_specials(struct elts *e)
{
    long i = find_lo(e, ']');
    if (i >= 0)
        elts_move_front(e, (size_t)i);
    i = find_hi(e, ']');
    if (i >= 0 && e->v[i].lo != ']') {
        e->v[i].hi = '\\';
        e->v[e->n++] = (struct elt){NULL, ']', ']'};
        elts_move_front(e, e->n - 1);
    }
    i = find_hi(e, '-');
    if (i >= 0 && e->v[i].lo == ',') {
        e->v[i].hi = ',';
        e->v[e->n++] = (struct elt){NULL, '-', '-'};
    }
    i = find_lo(e, '-');
    if (i >= 0) {
        if (e->v[i].hi == '-')
            elts_remove(e, (size_t)i);
        else
            e->v[i].lo = '.';
        e->v[e->n++] = (struct elt){NULL, '-', '-'};
    }
    if (e->n > 1 && !e->v[0].cls && e->v[0].lo == '^') {
        struct elt x = e->v[0];
        e->v[0] = e->v[1];
        e->v[1] = x;
    }
}

static void put_elt(struct arena *a, struct rx_str *s, const struct elt *x)
{
    if (x->cls) {
        rx_str_puts(a, s, "[:");
        rx_str_puts(a, s, x->cls);
        rx_str_puts(a, s, ":]");
        return;
    }
    rx_str_putc(a, s, x->lo);
    if (x->lo == x->hi)
        return;
    if (x->lo + 1 != x->hi)
        rx_str_putc(a, s, '-');
    rx_str_putc(a, s, x->hi);
}

/* rx--generate-alt. */
static void generate_alt(struct rx_tr *t, bool negated, const struct ivs *ivs,
                         const char **classes, size_t n_classes,
                         struct rx_item *out)
{
    struct arena *a = t->L->a;
    struct elts e = {ARENA_NEWN(a, struct elt, ivs->n + n_classes + 3), 0};
    for (size_t i = 0; i < ivs->n; i++)
        e.v[e.n++] = (struct elt){NULL, ivs->v[i].lo, ivs->v[i].hi};
    for (size_t i = 0; i < n_classes; i++)
        e.v[e.n++] = (struct elt){classes[i], 0, 0};
    place_specials(&e);
    if (e.n == 0) {
        if (negated) {
            rx_item_init(out, RX_P_T);
            rx_item_puts(t, out, "[^z-a]");
        } else
            rx_item_unmatchable(t, out);
        return;
    }
    rx_item_init(out, RX_P_T);
    if (e.n == 1 && !e.v[0].cls && e.v[0].lo == e.v[0].hi && !negated) {
        struct rx_str *q = rx_str_new(a);
        rx_str_put_quoted(a, q, rx_str_of_char(a, e.v[0].lo));
        rx_item_str(t, out, q);
        return;
    }
    if (e.n == 1 && negated && !e.v[0].cls && e.v[0].lo == '\n'
        && e.v[0].hi == '\n') {
        rx_item_puts(t, out, ".");
        return;
    }
    struct rx_str *s = rx_str_new(a);
    rx_str_puts(a, s, negated ? "[^" : "[");
    for (size_t i = 0; i < e.n; i++)
        put_elt(a, s, &e.v[i]);
    rx_str_putc(a, s, ']');
    rx_item_str(t, out, s);
}

bool rx_tr_any(struct rx_tr *t, bool negated, struct value *form,
               struct value *body, struct rx_item *out)
{
    struct parsed p;
    if (!parse_any(t, form, body, &p))
        return false;
    generate_alt(t, negated, &p.ivs, p.classes, p.n_classes, out);
    return true;
}

/* rx--intervals-to-alt: a set containing the top of the Unicode range is
 * written complemented. */
static void intervals_to_alt(struct rx_tr *t, bool negated,
                             const struct ivs *ivs, struct rx_item *out)
{
    for (size_t i = 0; i < ivs->n; i++) {
        if (ivs->v[i].lo <= 0x3FFEFF && 0x3FFEFF <= ivs->v[i].hi) {
            struct ivs c = ivs_complement(t->L->a, ivs);
            generate_alt(t, !negated, &c, NULL, 0, out);
            return;
        }
    }
    generate_alt(t, negated, ivs, NULL, 0, out);
}

static bool is_sym(const struct value *v, const char *name)
{
    const char *s = rx_symname(v);
    return s && strcmp(s, name) == 0;
}

static bool head_in(const struct value *form, const char *const *names)
{
    if (!value_consp(form))
        return false;
    for (; *names; names++)
        if (is_sym(value_car(form), *names))
            return true;
    return false;
}

static const char *const any_heads[] = {"any", "in", "char", NULL};
static const char *const or_heads[] = {"or", "|", NULL};

static bool charset_intervals(struct rx_tr *t, struct value *cs, struct ivs *out);

/* Fold union (or intersection) over the sets of the list body. */
static bool charset_fold(struct rx_tr *t, struct value *form, struct value *body,
                         bool intersect, struct ivs *out)
{
    struct value **items;
    size_t n;
    if (!rx_list(t, form, body, &items, &n))
        return false;
    struct ivs *sets = ARENA_NEWN(t->L->a, struct ivs, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        memset(&sets[i], 0, sizeof sets[i]);
        if (!charset_intervals(t, items[i], &sets[i]))
            return false;
    }
    struct ivs acc = {0};
    if (intersect)
        ivs_push(t->L->a, &acc, 0, MAX_CHAR);
    for (size_t i = 0; i < n; i++)
        acc = intersect ? ivs_intersect(t->L->a, &acc, &sets[i])
                        : ivs_union(t->L->a, &acc, &sets[i]);
    *out = acc;
    return true;
}

static bool single_char_string(const struct value *v)
{
    return value_is(v, VK_STRING) && v->u.str.nchars == 1;
}

static uint32_t first_char(struct rx_tr *t, const struct value *s)
{
    return rx_str_of_value(t->L->a, s)->c[0];
}

/* rx--charset-intervals. */
static bool charset_intervals(struct rx_tr *t, struct value *cs, struct ivs *out)
{
    if (++t->depth > RX_MAX_DEPTH) {
        t->err->kind = RX_ERR_TOO_DEEP;
        t->err->at = cs;
        return false;
    }
    bool ok = true;
    if (head_in(cs, any_heads)) {
        struct parsed p;
        ok = parse_any(t, cs, value_cdr(cs), &p);
        if (ok && p.n_classes)
            ok = rx_fail(t, cs, "Character class not permitted in set operations: %s",
                         p.classes[0]);
        if (ok)
            *out = p.ivs;
    } else if (is_sym(value_consp(cs) ? value_car(cs) : NULL, "not")
               && value_consp(value_cdr(cs))
               && lisp_nilp(t->L, value_cdr(value_cdr(cs)))) {
        struct ivs inner = {0};
        ok = charset_intervals(t, value_car(value_cdr(cs)), &inner);
        if (ok)
            *out = ivs_complement(t->L->a, &inner);
    } else if (head_in(cs, or_heads))
        ok = charset_fold(t, cs, value_cdr(cs), false, out);
    else if (value_consp(cs) && is_sym(value_car(cs), "intersection"))
        ok = charset_fold(t, cs, value_cdr(cs), true, out);
    else if (rx_charp(cs))
        ivs_push(t->L->a, out, (uint32_t)cs->u.i, (uint32_t)cs->u.i);
    else if (single_char_string(cs)) {
        uint32_t c = first_char(t, cs);
        ivs_push(t->L->a, out, c, c);
    } else if (rx_maybe_user_def(cs))
        ok = rx_foreign(t, cs);
    else
        ok = rx_fail(t, cs, "Bad character set: %s", rx_show(t, cs, false));
    t->depth--;
    return ok;
}

bool rx_tr_union(struct rx_tr *t, bool negated, struct value *body,
                 struct rx_item *out)
{
    struct ivs s = {0};
    if (!charset_fold(t, body, body, false, &s))
        return false;
    intervals_to_alt(t, negated, &s, out);
    return true;
}

bool rx_tr_intersection(struct rx_tr *t, bool negated, struct value *body,
                        struct rx_item *out)
{
    struct ivs s = {0};
    if (!charset_fold(t, body, body, true, &s))
        return false;
    intervals_to_alt(t, negated, &s, out);
    return true;
}

/* ---- (not ...) ---- */

/* The `not' argument is a set form: translate it with the sense flipped.
 * *done is false when the head is not one of those. */
static bool not_of_form(struct rx_tr *t, bool negated, struct value *arg,
                        struct rx_item *out, bool *done)
{
    struct value *h = value_car(arg), *b = value_cdr(arg);
    *done = true;
    if (head_in(arg, any_heads))
        return rx_tr_any(t, !negated, arg, b, out);
    if (is_sym(h, "syntax"))
        return rx_tr_syntax(t, !negated, arg, b, out);
    if (is_sym(h, "category"))
        return rx_tr_category(t, !negated, arg, b, out);
    if (is_sym(h, "not"))
        return rx_tr_not(t, !negated, arg, b, out);
    if (head_in(arg, or_heads))
        return rx_tr_union(t, !negated, b, out);
    if (is_sym(h, "intersection"))
        return rx_tr_intersection(t, !negated, b, out);
    *done = false;
    return true;
}

static void single_alt(struct rx_tr *t, bool negated, uint32_t c,
                       struct rx_item *out)
{
    struct ivs s = {0};
    ivs_push(t->L->a, &s, c, c);
    generate_alt(t, negated, &s, NULL, 0, out);
}

bool rx_tr_not(struct rx_tr *t, bool negated, struct value *form,
               struct value *body, struct rx_item *out)
{
    if (!value_consp(body) || !lisp_nilp(t->L, value_cdr(body)))
        return rx_fail(t, form, "rx `not' form takes exactly one argument");
    struct value *arg = value_car(body);
    if (value_consp(arg)) {
        bool done, ok = not_of_form(t, negated, arg, out, &done);
        if (done)
            return ok;
    }
    const char *cls = rx_char_class(arg);
    if (cls) {
        generate_alt(t, !negated, &(struct ivs){0}, &cls, 1, out);
        return true;
    }
    if (is_sym(arg, "word-boundary")) {
        rx_item_init(out, RX_P_T);
        rx_item_puts(t, out, negated ? "\\b" : "\\B");
        return true;
    }
    if (rx_charp(arg)) {
        single_alt(t, !negated, (uint32_t)arg->u.i, out);
        return true;
    }
    if (single_char_string(arg)) {
        single_alt(t, !negated, first_char(t, arg), out);
        return true;
    }
    if (rx_maybe_user_def(arg))
        return rx_foreign(t, arg);
    return rx_fail(t, arg, "Illegal argument to rx `not': %s", rx_show(t, arg, false));
}

/* ---- charset-p ---- */

static bool all_non_symbols(struct rx_tr *t, struct value *body)
{
    for (; value_consp(body); body = value_cdr(body))
        if (value_symbolp(value_car(body)))
            return false;
    (void)t;
    return true;
}

bool rx_charset_p(struct rx_tr *t, struct value *form, bool *yes)
{
    static const char *const set_ops[] = {"not", "or", "|", "intersection", NULL};
    *yes = false;
    if (++t->depth > RX_MAX_DEPTH) {
        t->err->kind = RX_ERR_TOO_DEEP;
        t->err->at = form;
        return false;
    }
    bool ok = true;
    if (head_in(form, any_heads))
        *yes = all_non_symbols(t, value_cdr(form));
    else if (head_in(form, set_ops)) {
        *yes = true;
        for (struct value *b = value_cdr(form); ok && *yes && value_consp(b);
             b = value_cdr(b))
            ok = rx_charset_p(t, value_car(b), yes);
    } else if (rx_charp(form) || single_char_string(form))
        *yes = true;
    else if (rx_maybe_user_def(form))
        ok = rx_foreign(t, form);
    t->depth--;
    return ok;
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

static bool one_arg(struct rx_tr *t, struct value *form, struct value *body,
                    const char *what)
{
    if (value_consp(body) && lisp_nilp(t->L, value_cdr(body)))
        return true;
    return rx_fail(t, form, "rx `%s' form takes exactly one argument", what);
}

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

bool rx_tr_syntax(struct rx_tr *t, bool negated, struct value *form,
                  struct value *body, struct rx_item *out)
{
    if (!one_arg(t, form, body, "syntax"))
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
    escape_item(t, negated ? 'S' : 's', code, out);
    return true;
}

bool rx_tr_category(struct rx_tr *t, bool negated, struct value *form,
                    struct value *body, struct rx_item *out)
{
    if (!one_arg(t, form, body, "category"))
        return false;
    struct value *arg = value_car(body);
    uint32_t code;
    if (value_symbolp(arg)) {
        const struct code_row *row =
            code_find(categories, sizeof categories / sizeof *categories,
                      rx_symname(arg));
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
