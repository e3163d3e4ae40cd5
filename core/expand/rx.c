/* rx.c - rx forms to an Emacs regexp: names, sequences, repetition,
 * groups, back references, literal/regexp/eval, and the result expression.
 *
 * Part of the `rx` pattern macro.  Each rule mirrors Emacs 30.1's rx.el so
 * the string is identical (or/not/intersection: rx_norm.c, sets:
 * rx_charset.c, definitions: rx_env.c, regexp-opt: rx_str.c).  Names
 * nobody defines here fall back to a run-time (rx-to-string 'FORM t).
 */
#include "expand/rx_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisp/print.h"

/* ---- name tables ---- */

struct sym_row {
    const char *name;
    const char *re;     /* regexp text; NULL = regexp-unmatchable */
    enum rx_prec prec;
    bool listed;        /* in rx--builtin-symbols (bot, eot, buffer-start
                           and buffer-end are not: a definition may take
                           those names, and the normaliser then uses it) */
};

/* rx's plain symbols (rx--translate-symbol), sorted by name.  not-wordchar
 * is what (not wordchar) gives. */
static const struct sym_row symbols[] = {
    {"any", ".", RX_P_T, true},
    {"anychar", "[^z-a]", RX_P_T, true},
    {"anything", "[^z-a]", RX_P_T, true},
    {"bol", "^", RX_P_LSEQ, true},
    {"bos", "\\`", RX_P_T, true},
    {"bot", "\\`", RX_P_T, false},
    {"bow", "\\<", RX_P_T, true},
    {"buffer-end", "\\'", RX_P_T, false},
    {"buffer-start", "\\`", RX_P_T, false},
    {"eol", "$", RX_P_RSEQ, true},
    {"eos", "\\'", RX_P_T, true},
    {"eot", "\\'", RX_P_T, false},
    {"eow", "\\>", RX_P_T, true},
    {"line-end", "$", RX_P_RSEQ, true},
    {"line-start", "^", RX_P_LSEQ, true},
    {"nonl", ".", RX_P_T, true},
    {"not-newline", ".", RX_P_T, true},
    {"not-word-boundary", "\\B", RX_P_T, true},
    {"not-wordchar", "[^[:word:]]", RX_P_T, true},
    {"point", "\\=", RX_P_T, true},
    {"string-end", "\\'", RX_P_T, true},
    {"string-start", "\\`", RX_P_T, true},
    {"symbol-end", "\\_>", RX_P_T, true},
    {"symbol-start", "\\_<", RX_P_T, true},
    {"unmatchable", NULL, RX_P_SEQ, true},
    {"word-boundary", "\\b", RX_P_T, true},
    {"word-end", "\\>", RX_P_T, true},
    {"word-start", "\\<", RX_P_T, true},
};

struct class_row {
    const char *name;
    const char *cls; /* the [:class:] name */
};

/* rx--char-classes, sorted by name. */
static const struct class_row classes[] = {
    {"alnum", "alnum"},          {"alpha", "alpha"},
    {"alphabetic", "alpha"},     {"alphanumeric", "alnum"},
    {"ascii", "ascii"},          {"blank", "blank"},
    {"cntrl", "cntrl"},          {"control", "cntrl"},
    {"digit", "digit"},          {"graph", "graph"},
    {"graphic", "graph"},        {"hex", "xdigit"},
    {"hex-digit", "xdigit"},     {"letter", "alpha"},
    {"lower", "lower"},          {"lower-case", "lower"},
    {"multibyte", "multibyte"},  {"nonascii", "nonascii"},
    {"num", "digit"},            {"numeric", "digit"},
    {"print", "print"},          {"printing", "print"},
    {"punct", "punct"},          {"punctuation", "punct"},
    {"space", "space"},          {"unibyte", "unibyte"},
    {"upper", "upper"},          {"upper-case", "upper"},
    {"white", "space"},          {"whitespace", "space"},
    {"word", "word"},            {"wordchar", "word"},
    {"xdigit", "xdigit"},
};

enum form_kind {
    F_SEQ, F_OR, F_ANY, F_NOT_CHAR, F_NOT, F_INTERSECTION,
    F_REPEAT, F_EQ, F_GE, F_STARSTAR, F_REP, F_MINIMAL, F_MAXIMAL,
    F_GROUP, F_GROUP_N, F_BACKREF, F_SYNTAX, F_NOT_SYNTAX, F_CATEGORY,
    F_LITERAL, F_EVAL, F_REGEXP,
};

enum { GREEDY_DYN = -1 };

struct form_row {
    const char *name;
    enum form_kind kind;
    char op;       /* F_REP: '*', '+' or '?' */
    int greedy;    /* F_REP: 1, 0, or GREEDY_DYN (follows minimal-match) */
};

/* rx's forms (rx--translate-form), sorted by name: rx--builtin-forms. */
static const struct form_row forms[] = {
    {"*", F_REP, '*', 1},
    {"**", F_STARSTAR, 0, 0},
    {"*?", F_REP, '*', 0},
    {"+", F_REP, '+', 1},
    {"+?", F_REP, '+', 0},
    {"0+", F_REP, '*', GREEDY_DYN},
    {"1+", F_REP, '+', GREEDY_DYN},
    {":", F_SEQ, 0, 0},
    {"=", F_EQ, 0, 0},
    {">=", F_GE, 0, 0},
    {"?", F_REP, '?', 1},
    {"??", F_REP, '?', 0},
    {"and", F_SEQ, 0, 0},
    {"any", F_ANY, 0, 0},
    {"backref", F_BACKREF, 0, 0},
    {"category", F_CATEGORY, 0, 0},
    {"char", F_ANY, 0, 0},
    {"eval", F_EVAL, 0, 0},
    {"group", F_GROUP, 0, 0},
    {"group-n", F_GROUP_N, 0, 0},
    {"in", F_ANY, 0, 0},
    {"intersection", F_INTERSECTION, 0, 0},
    {"literal", F_LITERAL, 0, 0},
    {"maximal-match", F_MAXIMAL, 0, 0},
    {"minimal-match", F_MINIMAL, 0, 0},
    {"not", F_NOT, 0, 0},
    {"not-char", F_NOT_CHAR, 0, 0},
    {"not-syntax", F_NOT_SYNTAX, 0, 0},
    {"one-or-more", F_REP, '+', GREEDY_DYN},
    {"opt", F_REP, '?', GREEDY_DYN},
    {"optional", F_REP, '?', GREEDY_DYN},
    {"or", F_OR, 0, 0},
    {"regex", F_REGEXP, 0, 0},
    {"regexp", F_REGEXP, 0, 0},
    {"repeat", F_REPEAT, 0, 0},
    {"seq", F_SEQ, 0, 0},
    {"sequence", F_SEQ, 0, 0},
    {"submatch", F_GROUP, 0, 0},
    {"submatch-n", F_GROUP_N, 0, 0},
    {"syntax", F_SYNTAX, 0, 0},
    {"zero-or-more", F_REP, '*', GREEDY_DYN},
    {"zero-or-one", F_REP, '?', GREEDY_DYN},
    {"|", F_OR, 0, 0},
};

/* (? ...) and (?? ...) read as the characters 32 and 63. */
static const struct form_row char_space_row = {"?", F_REP, '?', 1};
static const struct form_row char_qmark_row = {"??", F_REP, '?', 0};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int name_cmp(const void *key, const void *row)
{
    /* every table row starts with its name */
    return strcmp(key, *(const char *const *)row);
}

static const void *lookup(const void *tab, size_t n, size_t size, const char *name)
{
    return name ? bsearch(name, tab, n, size, name_cmp) : NULL;
}

static const struct form_row *form_row(const struct value *head)
{
    if (head->kind == VK_INT && head->u.i == ' ')
        return &char_space_row;
    if (head->kind == VK_INT && head->u.i == '?')
        return &char_qmark_row;
    return lookup(forms, NELEM(forms), sizeof *forms, rx_symname(head));
}

static const struct sym_row *sym_row(const struct value *v)
{
    return lookup(symbols, NELEM(symbols), sizeof *symbols, rx_symname(v));
}

const char *rx_symname(const struct value *v)
{
    return v && value_symbolp(v) && v->u.sym.interned ? v->u.sym.name : NULL;
}

bool rx_sym_is(const struct value *v, const char *name)
{
    const char *s = rx_symname(v);
    return s && strcmp(s, name) == 0;
}

const char *rx_char_class(const struct value *v)
{
    const struct class_row *r = lookup(classes, NELEM(classes), sizeof *classes,
                                       rx_symname(v));
    return r ? r->cls : NULL;
}

bool rx_builtin_form(const struct value *v)
{
    return value_symbolp(v) && form_row(v) != NULL;
}

bool rx_builtin_symbol(const struct value *v)
{
    const struct sym_row *r = sym_row(v);
    return (r && r->listed) || rx_char_class(v) != NULL;
}

bool rx_builtin_name(const struct value *v)
{
    return rx_builtin_form(v) || rx_builtin_symbol(v);
}

bool rx_maybe_defined_later(const struct value *v)
{
    const char *n = rx_symname(v);
    /* bot and the like are no built-in names, but rx translates them as
     * built-ins when nothing defines them */
    return n && n[0] != ':' && strcmp(n, "nil") != 0 && strcmp(n, "t") != 0
           && !rx_builtin_name(v) && !sym_row(v);
}

bool rx_charp(const struct value *v)
{
    return v->kind == VK_INT && v->u.i >= 0 && v->u.i <= VALUE_MAX_CHAR;
}

bool rx_tables_sorted(void)
{
    for (size_t i = 1; i < NELEM(symbols); i++)
        if (strcmp(symbols[i - 1].name, symbols[i].name) >= 0)
            return false;
    for (size_t i = 1; i < NELEM(classes); i++)
        if (strcmp(classes[i - 1].name, classes[i].name) >= 0)
            return false;
    for (size_t i = 1; i < NELEM(forms); i++)
        if (strcmp(forms[i - 1].name, forms[i].name) >= 0)
            return false;
    return rx_charset_tables_sorted();
}

/* ---- errors and items ---- */

/* princ writes the strings inside a list without quotes too. */
static const uint8_t *string_contents(void *ctx, const struct value *v, size_t *n)
{
    (void)ctx;
    if (!value_is(v, VK_STRING))
        return NULL;
    *n = v->u.str.len;
    return v->u.str.data;
}

const char *rx_print(struct lisp *L, const struct value *v, bool princ)
{
    if (princ && value_symbolp(v))
        return v->u.sym.name;
    struct buf b;
    buf_init(&b, L->a);
    struct print_opts o = print_opts_default();
    if (princ)
        o.atom_text = string_contents;
    print_value(L, &b, v, &o);
    return buf_cstr(&b);
}

const char *rx_show(struct rx_tr *t, const struct value *v, bool princ)
{
    return rx_print(t->L, v, princ);
}

static bool set_errorv(struct lisp *L, struct rx_error *err, enum rx_error_kind kind,
                       const struct value *at, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

static bool set_errorv(struct lisp *L, struct rx_error *err, enum rx_error_kind kind,
                       const struct value *at, const char *fmt, va_list ap)
{
    struct buf b;
    buf_init(&b, L->a);
    buf_vprintf(&b, fmt, ap);
    err->kind = kind;
    err->message = buf_cstr(&b);
    err->at = at;
    return false;
}

bool rx_error_set(struct lisp *L, struct rx_error *err, const struct value *at,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_errorv(L, err, RX_ERR_FORM, at, fmt, ap);
    va_end(ap);
    return false;
}

bool rx_fail(struct rx_tr *t, const struct value *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_errorv(t->L, t->err, RX_ERR_FORM, at, fmt, ap);
    va_end(ap);
    return false;
}

bool rx_too_deep(struct rx_tr *t, const struct value *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_errorv(t->L, t->err, RX_ERR_TOO_DEEP, at, fmt, ap);
    va_end(ap);
    return false;
}

bool rx_wrong_type(struct rx_tr *t, const struct value *at, const char *pred,
                   const struct value *v)
{
    return rx_fail(t, at, "Wrong type argument: %s, %s", pred, rx_show(t, v, false));
}

bool rx_foreign(struct rx_tr *t, const struct value *at)
{
    t->foreign = true;
    t->err->at = at;
    return false;
}

bool rx_steps(struct rx_tr *t, size_t n, const struct value *at)
{
    t->steps += n;
    if (t->steps <= RX_MAX_STEPS)
        return true;
    return rx_too_deep(t, at, "rx pattern too large: more than %d steps to "
                       "translate it, its definitions expanded", RX_MAX_STEPS);
}

bool rx_enter(struct rx_tr *t, const struct value *form)
{
    if (!rx_steps(t, 1, form))
        return false;
    if (++t->depth > RX_MAX_DEPTH) {
        t->depth--;
        return rx_too_deep(t, form, "rx pattern nested too deeply");
    }
    return true;
}

void rx_item_init(struct rx_item *it, enum rx_prec prec)
{
    memset(it, 0, sizeof *it);
    it->prec = prec;
}

static void item_push(struct rx_tr *t, struct rx_item *it, struct rx_piece pc)
{
    struct arena *a = t->L->a;
    struct rx_piece *last = it->n > 0 ? &it->p[it->n - 1] : NULL;
    if (pc.s && last && last->s) {
        /* adjacent constant text merges, as rx--to-expr would later: into
         * a copy the first time, then in place (items are used once), so
         * a long sequence costs linear time */
        if (!last->merged) {
            struct rx_str *m = rx_str_new(a);
            rx_str_append(a, m, last->s);
            last->s = m;
            last->merged = true;
        }
        rx_str_append(a, last->s, pc.s);
        return;
    }
    if (it->n == it->cap) {
        size_t cap = it->cap ? it->cap * 2 : 4;
        it->p = arena_grow(a, it->p, it->cap * sizeof *it->p, cap * sizeof *it->p);
        it->cap = cap;
    }
    it->p[it->n++] = pc;
}

void rx_item_str(struct rx_tr *t, struct rx_item *it, struct rx_str *s)
{
    item_push(t, it, (struct rx_piece){.s = s});
}

void rx_item_puts(struct rx_tr *t, struct rx_item *it, const char *text)
{
    struct rx_str *s = rx_str_new(t->L->a);
    rx_str_puts(t->L->a, s, text);
    rx_item_str(t, it, s);
}

void rx_item_unmatchable(struct rx_tr *t, struct rx_item *out)
{
    rx_item_init(out, RX_P_SEQ);
    rx_item_puts(t, out, "\\`a\\`");
}

void rx_item_append(struct rx_tr *t, struct rx_item *it, const struct rx_item *o)
{
    for (size_t i = 0; i < o->n; i++)
        item_push(t, it, o->p[i]);
}

bool rx_not_list(struct lisp *L, struct rx_error *err, const struct value *form,
                 const struct value *list, bool seq)
{
    if (!value_consp(list))
        return rx_error_set(L, err, form, "Wrong type argument: %s, %s",
                            seq ? "sequencep" : "listp", rx_print(L, list, false));
    const struct value *tail = list, *slow = list;
    for (size_t k = 0; value_consp(tail); k++) {
        tail = value_cdr(tail);
        if (k % 2)
            slow = value_cdr(slow);
        if (tail == slow && value_consp(tail))
            return rx_error_set(L, err, form, "List contains a loop: %s",
                                rx_print(L, form, false));
    }
    return rx_error_set(L, err, form, "Wrong type argument: listp, %s",
                        rx_print(L, tail, false));
}

bool rx_list(struct rx_tr *t, struct value *form, struct value *body, bool seq,
             struct value ***items, size_t *n)
{
    long len = value_list_length(body, t->L->nil);
    if (len < 0)
        return rx_not_list(t->L, t->err, form, body, seq);
    *items = ARENA_NEWN(t->L->a, struct value *, len ? (size_t)len : 1);
    *n = 0;
    for (; value_consp(body); body = value_cdr(body))
        (*items)[(*n)++] = value_car(body);
    return true;
}

bool rx_atom_body(struct rx_tr *t, struct value *form, struct value *body, bool seq)
{
    if (value_consp(body) || lisp_nilp(t->L, body))
        return false;
    rx_not_list(t->L, t->err, form, body, seq);
    return true;
}

bool rx_one_arg(struct rx_tr *t, struct value *form, struct value *body,
                const char *what)
{
    if (rx_atom_body(t, form, body, false))
        return false;
    if (value_consp(body) && lisp_nilp(t->L, value_cdr(body)))
        return true;
    return rx_fail(t, form, "rx `%s' form takes exactly one argument", what);
}

/* ---- sequences ---- */

/* Wrap in a shy group: rx--bracket. */
static struct rx_item bracket(struct rx_tr *t, const struct rx_item *it)
{
    struct rx_item r;
    rx_item_init(&r, RX_P_T);
    rx_item_puts(t, &r, "\\(?:");
    rx_item_append(t, &r, it);
    rx_item_puts(t, &r, "\\)");
    return r;
}

/* rx--sequence: concatenate, bracketing operands of too low precedence. */
static void sequence(struct rx_tr *t, struct rx_item *left,
                     const struct rx_item *right)
{
    if (right->n == 0)
        return;
    if (left->n == 0) {
        *left = *right;
        return;
    }
    struct rx_item l = *left, r = *right;
    if (l.prec == RX_P_NIL || l.prec == RX_P_RSEQ)
        l = bracket(t, &l);
    if (r.prec == RX_P_NIL || r.prec == RX_P_LSEQ)
        r = bracket(t, &r);
    enum rx_prec p;
    if (l.prec == RX_P_LSEQ)
        p = r.prec == RX_P_RSEQ ? RX_P_NIL : RX_P_LSEQ;
    else
        p = r.prec == RX_P_RSEQ ? RX_P_RSEQ : RX_P_SEQ;
    rx_item_append(t, &l, &r);
    l.prec = p;
    *left = l;
}

static bool tr_seq(struct rx_tr *t, struct value *form, struct value *body,
                   struct rx_item *out)
{
    struct value **items;
    size_t n;
    if (!rx_list(t, form, body, true, &items, &n))
        return false;
    rx_item_init(out, RX_P_SEQ);
    for (size_t i = 0; i < n; i++) {
        struct rx_item it;
        if (!rx_tr_item(t, items[i], &it))
            return false;
        if (i == 0)
            *out = it;
        else
            sequence(t, out, &it);
    }
    return true;
}

/* rx--atomic-regexp: usable as a postfix operand. */
static struct rx_item atomic(struct rx_tr *t, const struct rx_item *it)
{
    return it->prec == RX_P_T ? *it : bracket(t, it);
}

/* ---- repetition ---- */

static bool natnump(const struct value *v)
{
    return (v->kind == VK_INT && v->u.i >= 0)
           || (v->kind == VK_BIGNUM && !v->u.big.neg);
}

/* Compare two natural numbers (int or bignum). */
static int nat_cmp(const struct value *x, const struct value *y)
{
    if (x->kind == VK_INT && y->kind == VK_INT)
        return x->u.i < y->u.i ? -1 : x->u.i > y->u.i;
    if (x->kind != y->kind)
        return x->kind == VK_INT ? -1 : 1;
    const char *dx = value_big_digits(x), *dy = value_big_digits(y);
    size_t lx = strlen(dx), ly = strlen(dy);
    if (lx != ly)
        return lx < ly ? -1 : 1;
    return strcmp(dx, dy);
}

static void put_number(struct rx_tr *t, struct rx_str *s, const struct value *v)
{
    char tmp[32];
    if (v->kind == VK_INT) {
        snprintf(tmp, sizeof tmp, "%" PRId64, v->u.i);
        rx_str_puts(t->L->a, s, tmp);
    } else
        rx_str_puts(t->L->a, s, value_big_digits(v));
}

/* rx--translate-counted-repetition; max NULL = unbounded. */
static bool counted(struct rx_tr *t, struct value *form, const struct value *min,
                    const struct value *max, struct value *body,
                    struct rx_item *out)
{
    struct rx_item op;
    if (!tr_seq(t, form, body, &op))
        return false;
    if (op.n == 0) {
        *out = op;
        return true;
    }
    *out = atomic(t, &op);
    struct rx_str *s = rx_str_new(t->L->a);
    rx_str_puts(t->L->a, s, "\\{");
    put_number(t, s, min);
    if (!max)
        rx_str_puts(t->L->a, s, ",");
    else if (nat_cmp(min, max) < 0) {
        rx_str_puts(t->L->a, s, ",");
        put_number(t, s, max);
    }
    rx_str_puts(t->L->a, s, "\\}");
    rx_item_str(t, out, s);
    out->prec = RX_P_T;
    return true;
}

/* rx--check-repeat-arg. */
static bool check_repeat(struct rx_tr *t, struct value *form, const char *name,
                         size_t min_args, struct value **items, size_t n)
{
    if (n < min_args)
        return rx_fail(t, form, "rx `%s' requires at least %zu argument%s", name,
                       min_args, min_args == 1 ? "" : "s");
    if (!natnump(items[0]))
        return rx_fail(t, form, "rx `%s' first argument must be nonnegative", name);
    return true;
}

static bool bounded(struct rx_tr *t, struct value *form, const char *name,
                    struct value *body, struct rx_item *out)
{
    struct value *min = value_car(body), *rest = value_cdr(body);
    struct value *max = value_consp(rest) ? value_car(rest) : t->L->nil;
    if (!natnump(min) || !natnump(max) || nat_cmp(min, max) > 0)
        return rx_fail(t, form, "rx `%s' range error", name);
    return counted(t, form, min, max, value_cdr(rest), out);
}

static bool tr_counted(struct rx_tr *t, const struct form_row *r,
                       struct value *form, struct value *body,
                       struct rx_item *out)
{
    struct value **items;
    size_t n;
    if (!rx_list(t, form, body, true, &items, &n))
        return false;
    const char *name = r->name;
    size_t min_args = r->kind == F_REPEAT || r->kind == F_STARSTAR ? 2 : 1;
    if (!check_repeat(t, form, name, min_args, items, n))
        return false;
    switch (r->kind) {
    case F_REPEAT:
        if (n == 2)
            return counted(t, form, items[0], items[0], value_cdr(body), out);
        return bounded(t, form, name, body, out);
    case F_STARSTAR:
        return bounded(t, form, name, body, out);
    case F_GE:
        return counted(t, form, items[0], NULL, value_cdr(body), out);
    default: /* F_EQ */
        return counted(t, form, items[0], items[0], value_cdr(body), out);
    }
}

/* rx--translate-rep: *, + or ?, greedy or not. */
static bool tr_rep(struct rx_tr *t, const struct form_row *r, struct value *form,
                   struct value *body, struct rx_item *out)
{
    bool greedy = r->greedy == GREEDY_DYN ? t->greedy : r->greedy == 1;
    struct rx_item op;
    if (!tr_seq(t, form, body, &op))
        return false;
    if (op.n == 0) {
        *out = op;
        return true;
    }
    *out = atomic(t, &op);
    char text[3] = {r->op, greedy ? 0 : '?', 0};
    rx_item_puts(t, out, text);
    out->prec = RX_P_SEQ;
    return true;
}

static bool tr_greedy(struct rx_tr *t, bool greedy, struct value *form,
                      struct value *body, struct rx_item *out)
{
    bool saved = t->greedy;
    t->greedy = greedy;
    bool ok = tr_seq(t, form, body, out);
    t->greedy = saved;
    return ok;
}

/* ---- groups and back references ---- */

static bool tr_group(struct rx_tr *t, struct value *form, struct value *body,
                     const char *open, struct rx_item *out)
{
    struct rx_item in;
    if (!tr_seq(t, form, body, &in))
        return false;
    rx_item_init(out, RX_P_T);
    rx_item_puts(t, out, open);
    rx_item_append(t, out, &in);
    rx_item_puts(t, out, "\\)");
    out->prec = RX_P_T;
    return true;
}

static bool tr_group_n(struct rx_tr *t, struct value *form, struct value *body,
                       struct rx_item *out)
{
    if (rx_atom_body(t, form, body, false))
        return false;
    struct value *n = value_consp(body) ? value_car(body) : t->L->nil;
    bool pos = (n->kind == VK_INT && n->u.i > 0)
               || (n->kind == VK_BIGNUM && !n->u.big.neg);
    if (!pos)
        return rx_fail(t, form,
                       "rx `group-n' requires a positive number as first argument");
    struct buf b;
    buf_init(&b, t->L->a);
    buf_puts(&b, "\\(?");
    if (n->kind == VK_INT)
        buf_printf(&b, "%" PRId64, n->u.i);
    else
        buf_puts(&b, value_big_digits(n));
    buf_putc(&b, ':');
    return tr_group(t, form, value_cdr(body), buf_cstr(&b), out);
}

static bool tr_backref(struct rx_tr *t, struct value *form, struct value *body,
                       struct rx_item *out)
{
    if (value_list_length(body, t->L->nil) < 0) /* (length BODY) */
        return rx_not_list(t->L, t->err, form, body, true);
    struct value *n = value_consp(body) ? value_car(body) : t->L->nil;
    if (!value_consp(body) || !lisp_nilp(t->L, value_cdr(body))
        || n->kind != VK_INT || n->u.i < 1 || n->u.i > 9)
        return rx_fail(t, form, "rx `backref' requires an argument in the range 1..9");
    char text[4] = {'\\', (char)('0' + n->u.i), 0};
    rx_item_init(out, RX_P_T);
    rx_item_puts(t, out, text);
    return true;
}

/* ---- literal, regexp, eval ---- */

static bool tr_literal(struct rx_tr *t, struct value *form, struct value *body,
                       struct rx_item *out)
{
    if (!rx_one_arg(t, form, body, "literal"))
        return false;
    struct value *arg = value_car(body);
    if (value_is(arg, VK_STRING)) {
        struct rx_str *q = rx_str_new(t->L->a);
        rx_str_put_quoted(t->L->a, q, rx_str_of_value(t->L->a, arg));
        rx_item_init(out, arg->u.str.nchars == 1 ? RX_P_T : RX_P_SEQ);
        rx_item_str(t, out, q);
        return true;
    }
    rx_item_init(out, RX_P_SEQ);
    struct value *call = lisp_listv(t->L, INTERN_LIT(t->L, "regexp-quote"), arg, NULL);
    item_push(t, out, (struct rx_piece){.expr = call});
    return true;
}

/* Does the whole of s match rx.el's "atomic regexp" test? */
static bool bracket_atomic(struct arena *a, const struct rx_str *s, size_t i)
{
    /* "[" "^"? "]"? ("[:" [a-z]+ ":]" | [^]])* "]" */
    size_t n = s->n;
    if (n < 2 || s->c[n - 1] != ']')
        return false;
    for (int caret = 1; caret >= 0; caret--) {
        for (int rb = 1; rb >= 0; rb--) {
            size_t j = i + 1;
            if (caret && !(j < n && s->c[j] == '^'))
                continue;
            j += (size_t)caret;
            if (rb && !(j < n && s->c[j] == ']'))
                continue;
            j += (size_t)rb;
            if (j > n - 1)
                continue;
            /* reach[k]: prefix up to k parses as items */
            bool *reach = arena_zalloc(a, (n + 1) * sizeof *reach);
            reach[j] = true;
            for (size_t k = j; k < n - 1; k++) {
                if (!reach[k])
                    continue;
                if (s->c[k] != ']')
                    reach[k + 1] = true;
                if (s->c[k] == '[' && k + 1 < n && s->c[k + 1] == ':') {
                    size_t m = k + 2;
                    while (m < n && s->c[m] >= 'a' && s->c[m] <= 'z')
                        m++;
                    if (m > k + 2 && m + 1 < n && s->c[m] == ':' && s->c[m + 1] == ']')
                        reach[m + 2] = true;
                }
            }
            if (reach[n - 1])
                return true;
        }
    }
    return false;
}

static bool group_atomic(const struct rx_str *s)
{
    /* "\\(" ([^\\] | "\\" [^)])* "\\)" */
    size_t n = s->n, k = 2;
    while (k < n) {
        if (s->c[k] != '\\') {
            k++;
            continue;
        }
        if (k + 1 < n && s->c[k + 1] == ')')
            return k + 2 == n;
        if (k + 1 >= n)
            return false;
        k += 2;
    }
    return false;
}

static bool regexp_atomic(struct arena *a, const struct rx_str *s)
{
    if (s->n == 0)
        return false;
    uint32_t c = s->c[0];
    if (c == '[')
        return bracket_atomic(a, s, 0);
    if (c == '\\') {
        if (s->n == 2)
            return true;
        if (s->n == 3 && s->c[1] && s->c[1] < 0x80 && strchr("sScC_", (int)s->c[1]))
            return true;
        return s->n >= 4 && s->c[1] == '(' && group_atomic(s);
    }
    return s->n == 1 && !(c && c < 0x80 && strchr("*+?^$[\\", (int)c));
}

static bool tr_regexp(struct rx_tr *t, struct value *form, struct value *body,
                      struct rx_item *out)
{
    if (!rx_one_arg(t, form, body, "regexp"))
        return false;
    struct value *arg = value_car(body);
    if (value_is(arg, VK_STRING)) {
        struct rx_str *s = rx_str_of_value(t->L->a, arg);
        rx_item_init(out, regexp_atomic(t->L->a, s) ? RX_P_T : RX_P_NIL);
        /* the string itself, even when empty (rx.el keeps ("")) */
        out->p = ARENA_NEWN(t->L->a, struct rx_piece, 1);
        out->p[0] = (struct rx_piece){.s = s};
        out->n = out->cap = 1;
        return true;
    }
    rx_item_init(out, RX_P_NIL);
    item_push(t, out, (struct rx_piece){.expr = arg});
    return true;
}

static bool self_evaluating(struct rx_tr *t, const struct value *v)
{
    if (value_symbolp(v))
        return v == t->L->nil || v == t->L->t
               || (v->u.sym.interned && v->u.sym.name[0] == ':');
    return !value_consp(v);
}

bool rx_eval_constant(struct rx_tr *t, struct value *form, struct value **out)
{
    if (!rx_one_arg(t, form, value_cdr(form), "eval"))
        return false;
    struct value *e = value_car(value_cdr(form));
    if (self_evaluating(t, e)) {
        *out = e;
        return true;
    }
    bool quoted = value_consp(e)
                  && (value_car(e) == t->L->quote || value_car(e) == t->L->function)
                  && value_consp(value_cdr(e))
                  && lisp_nilp(t->L, value_cdr(value_cdr(e)));
    if (!quoted)
        return rx_foreign(t, form);
    *out = value_car(value_cdr(e));
    return true;
}

/* ---- dispatch ---- */

static bool tr_form_row(struct rx_tr *t, const struct form_row *r,
                        struct value *form, struct rx_item *out)
{
    struct value *body = value_cdr(form), *v;
    switch (r->kind) {
    case F_SEQ: return tr_seq(t, form, body, out);
    case F_OR: return rx_tr_or(t, form, body, out);
    case F_ANY: return rx_tr_any(t, false, form, body, out);
    case F_NOT_CHAR: return rx_tr_any(t, true, form, body, out);
    case F_NOT: return rx_tr_not(t, false, form, body, out);
    case F_INTERSECTION: return rx_tr_intersection(t, false, body, out);
    case F_REPEAT: case F_EQ: case F_GE: case F_STARSTAR:
        return tr_counted(t, r, form, body, out);
    case F_REP: return tr_rep(t, r, form, body, out);
    case F_MINIMAL: return tr_greedy(t, false, form, body, out);
    case F_MAXIMAL: return tr_greedy(t, true, form, body, out);
    case F_GROUP: return tr_group(t, form, body, "\\(", out);
    case F_GROUP_N: return tr_group_n(t, form, body, out);
    case F_BACKREF: return tr_backref(t, form, body, out);
    case F_SYNTAX: return rx_tr_syntax(t, false, form, body, out);
    case F_NOT_SYNTAX: return rx_tr_syntax(t, true, form, body, out);
    case F_CATEGORY: return rx_tr_category(t, false, form, body, out);
    case F_LITERAL: return tr_literal(t, form, body, out);
    case F_REGEXP: return tr_regexp(t, form, body, out);
    case F_EVAL: return rx_eval_constant(t, form, &v) && rx_tr_item(t, v, out);
    }
    return false;
}

/* rx--translate-form: built-in forms, then definitions. */
static bool tr_form(struct rx_tr *t, struct value *form, struct rx_item *out)
{
    struct value *head = value_car(form), *e;
    const struct rx_cset *cs = rx_norm_cset(t, form);
    if (cs) {
        rx_generate_alt(t, false, &cs->ivs, cs->cls, cs->ncls, out);
        return true;
    }
    const struct form_row *r = form_row(head);
    if (r)
        return tr_form_row(t, r, form, out);
    if (!value_symbolp(head))
        return rx_fail(t, form, "Bad rx operator `%s'", rx_show(t, head, false));
    if (!rx_expand_form(t, form, &e))
        return false;
    if (e)
        return rx_tr_item(t, e, out);
    if (rx_maybe_defined_later(head))
        return rx_foreign(t, form);
    return rx_fail(t, form, "Unknown rx form `%s'", rx_show(t, head, true));
}

/* rx--translate-symbol: built-in symbols, classes, then definitions. */
static bool tr_symbol(struct rx_tr *t, struct value *sym, struct rx_item *out)
{
    const struct sym_row *r = sym_row(sym);
    if (r && !r->re) {
        rx_item_unmatchable(t, out);
        return true;
    }
    if (r) {
        rx_item_init(out, r->prec);
        rx_item_puts(t, out, r->re);
        return true;
    }
    const char *cls = rx_char_class(sym);
    if (cls) {
        rx_item_init(out, RX_P_T);
        rx_item_puts(t, out, "[[:");
        rx_item_puts(t, out, cls);
        rx_item_puts(t, out, ":]]");
        return true;
    }
    struct value *e;
    const struct rx_def *def;
    if (!rx_expand_symbol(t, sym, &e, &def))
        return false;
    if (e) {
        rx_def_push(t, def);
        bool ok = rx_tr_item(t, e, out);
        rx_def_pop(t);
        return ok;
    }
    if (rx_maybe_defined_later(sym) || !sym->u.sym.interned)
        return rx_foreign(t, sym);
    return rx_fail(t, sym, "Unknown rx symbol `%s'", rx_show(t, sym, true));
}

static bool tr_string(struct rx_tr *t, struct value *s, struct rx_item *out)
{
    rx_item_init(out, s->u.str.nchars == 1 ? RX_P_T : RX_P_SEQ);
    if (s->u.str.nchars == 0)
        return true;
    struct rx_str *q = rx_str_new(t->L->a);
    rx_str_put_quoted(t->L->a, q, rx_str_of_value(t->L->a, s));
    rx_item_str(t, out, q);
    return true;
}

bool rx_tr_item(struct rx_tr *t, struct value *form, struct rx_item *out)
{
    if (!rx_enter(t, form))
        return false;
    bool ok;
    if (value_is(form, VK_STRING))
        ok = tr_string(t, form, out);
    else if (rx_charp(form)) {
        struct rx_str *q = rx_str_new(t->L->a);
        rx_str_put_quoted(t->L->a, q, rx_str_of_char(t->L->a, (uint32_t)form->u.i));
        rx_item_init(out, RX_P_T);
        rx_item_str(t, out, q);
        ok = true;
    } else if (value_symbolp(form))
        ok = tr_symbol(t, form, out);
    else if (value_consp(form))
        ok = tr_form(t, form, out);
    else
        ok = rx_fail(t, form, "Bad rx expression: %s", rx_show(t, form, false));
    rx_leave(t);
    return ok;
}

/* ---- result ---- */

/* rx--to-expr's merge: "" / one string / one expression / (concat ...). */
static struct value *to_expr(struct rx_tr *t, const struct rx_item *it)
{
    struct lisp *L = t->L;
    struct value **args = ARENA_NEWN(L->a, struct value *, it->n + 1);
    size_t n = 0;
    for (size_t i = 0; i < it->n; i++) {
        if (!it->p[i].s)
            args[n++] = it->p[i].expr;
        else if (it->p[i].s->n > 0)
            args[n++] = rx_str_value(L->a, it->p[i].s);
    }
    if (n == 0)
        return value_string(L->a, "", 0, false);
    if (n == 1)
        return args[0];
    return value_cons(L->a, INTERN_LIT(L, "concat"), lisp_list(L, n, args));
}

/* Does form contain a literal/regexp with a non-constant argument? */
static bool has_runtime(struct rx_tr *t, struct value *form, int depth)
{
    if (!value_consp(form))
        return false;
    if (depth > RX_MAX_DEPTH)
        return true;
    const struct form_row *r = form_row(value_car(form));
    if (r && r->kind == F_EVAL)
        return false;
    if (r && (r->kind == F_LITERAL || r->kind == F_REGEXP))
        return value_consp(value_cdr(form))
               && !value_is(value_car(value_cdr(form)), VK_STRING);
    for (struct value *b = value_cdr(form); value_consp(b); b = value_cdr(b))
        if (has_runtime(t, value_car(b), depth + 1))
            return true;
    return false;
}

/* The run-time rx-to-string cannot stand in for the translation of form:
 * say why (at: the name or eval form that needs it). */
static struct value *no_runtime(struct rx_tr *t, const char *why)
{
    const struct value *at = t->err->at;
    struct buf b;
    buf_init(&b, t->L->a);
    if (value_consp(at) && rx_sym_is(value_car(at), "eval"))
        buf_puts(&b, "rx `eval' of a non-constant expression needs the regexp "
                     "computed at run time");
    else
        buf_printf(&b, "rx name `%s' is not defined here, so the regexp would be "
                   "computed at run time",
                   rx_show(t, value_consp(at) ? value_car(at) : at, true));
    buf_printf(&b, ", %s", why);
    t->err->kind = RX_ERR_RUNTIME;
    t->err->message = buf_cstr(&b);
    return NULL;
}

struct value *rx_translate(struct lisp *L, const struct rx_env *env,
                           bool locals, struct value *form, struct rx_error *err)
{
    struct rx_tr t = {.L = L, .env = env, .locals = locals, .err = err,
                      .greedy = true};
    struct rx_item it;
    memset(err, 0, sizeof *err);
    t.mark = intern_uninterned(L, "rx--char-alt", 12);
    if (rx_tr_item(&t, form, &it))
        return to_expr(&t, &it);
    if (!t.foreign)
        return NULL;
    if (locals && env && rx_env_has_locals(env))
        return no_runtime(&t, "where the rx-let definitions around it are not seen");
    if (has_runtime(&t, form, 0))
        return no_runtime(&t, "which a literal or regexp with a run-time argument "
                              "prevents");
    err->kind = RX_ERR_NONE;
    err->at = NULL;
    struct value *quoted = lisp_listv(L, L->quote, form, NULL);
    return lisp_listv(L, INTERN_LIT(L, "rx-to-string"), quoted, L->t, NULL);
}
