/* rx_norm.c - character patterns: or, not and intersection, as Emacs
 * 30.1's rx.el translates them through rx--normalise-char-pattern.
 *
 * Part of the rx translation (rx.h).  Normalising an argument of or, not
 * or intersection turns characters into strings and (any ...) forms and
 * class names into sets (MARK . INDEX), expands definitions and constant
 * evals, and recurses through or, not and intersection.  Then: an `or` of
 * strings goes to regexp-opt; otherwise runs of adjacent single-character
 * alternatives merge into one set (Emacs 30; 28 kept them apart); `not`
 * and `intersection` need arguments that reduce to sets.  Error messages
 * show the argument as rx--human-readable writes it.
 */
#include "expand/rx_int.h"

#include <string.h>

#define MAX_CHAR 0x3FFFFFu

/* ---- normalised sets ---- */

const struct rx_cset *rx_norm_cset(const struct rx_tr *t, const struct value *form)
{
    if (!value_consp(form) || value_car(form) != t->mark)
        return NULL;
    return t->csets[value_cdr(form)->u.i];
}

static struct value *cset_form(struct rx_tr *t, struct rx_cset *cs)
{
    if (t->n_csets == t->cap_csets) {
        size_t cap = t->cap_csets ? t->cap_csets * 2 : 8;
        t->csets = arena_grow(t->L->a, t->csets, t->cap_csets * sizeof *t->csets,
                              cap * sizeof *t->csets);
        t->cap_csets = cap;
    }
    t->csets[t->n_csets] = cs;
    return value_cons(t->L->a, t->mark, value_int(t->L->a, (int64_t)t->n_csets++));
}

static struct rx_cset *cset_new(struct rx_tr *t)
{
    return ARENA_NEW(t->L->a, struct rx_cset);
}

static struct rx_cset *cset_of_ivs(struct rx_tr *t, struct rx_ivs ivs)
{
    struct rx_cset *cs = cset_new(t);
    cs->ivs = ivs;
    return cs;
}

static bool has_class(const char *const *cls, size_t n, const char *c)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(cls[i], c) == 0)
            return true;
    return false;
}

/* A union being built: intervals gathered unsorted and merged once at the
 * end (an `or` of n characters costs n log n, not n squared). */
struct uni {
    struct rx_ivs ivs;
    const char **cls;
    size_t ncls;
};

/* Add c, as rx--char-alt-union adds it: the classes of c that the union
 * lacks go in front, the last first (rx.el pushes them). */
static void uni_add(struct rx_tr *t, struct uni *u, const struct rx_cset *c)
{
    for (size_t i = 0; i < c->ivs.n; i++)
        rx_ivs_push(t->L->a, &u->ivs, c->ivs.v[i].lo, c->ivs.v[i].hi);
    if (!c->ncls)
        return;
    if (!u->ncls) { /* shared: never written to */
        u->cls = c->cls;
        u->ncls = c->ncls;
        return;
    }
    const char **cls = ARENA_NEWN(t->L->a, const char *, u->ncls + c->ncls);
    size_t n = 0;
    for (size_t i = c->ncls; i-- > 0;)
        if (!has_class(u->cls, u->ncls, c->cls[i]))
            cls[n++] = c->cls[i];
    for (size_t i = 0; i < u->ncls; i++)
        cls[n++] = u->cls[i];
    u->cls = cls;
    u->ncls = n;
}

static struct rx_cset *uni_finish(struct rx_tr *t, struct uni *u)
{
    struct rx_cset *cs = cset_new(t);
    rx_ivs_condense(&u->ivs);
    cs->ivs = u->ivs;
    cs->cls = u->cls;
    cs->ncls = u->ncls;
    return cs;
}

/* ---- normalising ---- */

static bool normalise(struct rx_tr *t, struct value *form, struct value **out);

/* (op . the normalised items of body). */
static bool normalise_args(struct rx_tr *t, struct value *op, struct value *form,
                           struct value *body, struct value **out)
{
    struct value **items;
    size_t n;
    if (!rx_list(t, form, body, true, &items, &n))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!normalise(t, items[i], &items[i]))
            return false;
    *out = value_cons(t->L->a, op, lisp_list(t->L, n, items));
    return true;
}

static bool normalise_cons(struct rx_tr *t, struct value *form, struct value **out)
{
    struct value *op = value_car(form), *body = value_cdr(form), *e;
    if (rx_sym_is(op, "or") || rx_sym_is(op, "|"))
        return normalise_args(t, INTERN_LIT(t->L, "or"), form, body, out);
    if (rx_sym_is(op, "any") || rx_sym_is(op, "in") || rx_sym_is(op, "char")) {
        struct rx_cset *cs = cset_new(t);
        if (!rx_parse_any(t, form, body, cs))
            return false;
        *out = cset_form(t, cs);
        return true;
    }
    if (rx_sym_is(op, "not") || rx_sym_is(op, "intersection"))
        return normalise_args(t, op, form, body, out);
    if (rx_sym_is(op, "eval"))
        return rx_eval_constant(t, form, &e) && normalise(t, e, out);
    if (rx_builtin_form(op))
        return true;
    if (!rx_expand_form(t, form, &e))
        return false;
    return !e || normalise(t, e, out);
}

static bool normalise_symbol(struct rx_tr *t, struct value *sym, struct value **out)
{
    const char *cls = rx_char_class(sym);
    if (cls) {
        struct rx_cset *cs = cset_new(t);
        cs->cls = ARENA_NEWN(t->L->a, const char *, 1);
        cs->cls[cs->ncls++] = cls;
        *out = cset_form(t, cs);
        return true;
    }
    if (rx_builtin_symbol(sym))
        return true;
    struct value *e;
    const struct rx_def *def;
    if (!rx_expand_symbol(t, sym, &e, &def))
        return false;
    if (!e)
        return true;
    rx_def_push(t, def);
    bool ok = normalise(t, e, out);
    rx_def_pop(t);
    return ok;
}

/* rx--normalise-char-pattern; *out is form itself when nothing changes. */
static bool normalise(struct rx_tr *t, struct value *form, struct value **out)
{
    if (!rx_enter(t, form))
        return false;
    bool ok = true;
    *out = form;
    if (value_consp(form))
        ok = normalise_cons(t, form, out);
    else if (value_symbolp(form))
        ok = normalise_symbol(t, form, out);
    else if (rx_charp(form))
        *out = rx_str_value(t->L->a, rx_str_of_char(t->L->a, (uint32_t)form->u.i));
    rx_leave(t);
    return ok;
}

/* ---- reducing to a set ---- */

static bool reduce(struct rx_tr *t, struct value *form, struct rx_cset **out);
static bool intersection_ivs(struct rx_tr *t, struct value *forms, struct rx_ivs *out);

/* aref of a one-character string: a unibyte string's byte is its code,
 * even >= 0x80 (it then stands for a Unicode character, as in rx.el). */
static uint32_t aref0(struct rx_tr *t, const struct value *s)
{
    uint32_t c = rx_str_of_value(t->L->a, s)->c[0];
    return !s->u.str.multibyte && c >= 0x3FFF80 ? c - 0x3FFF00 : c;
}

/* The sets nonl, anychar and unmatchable stand for; false for others. */
static bool symbol_set(struct rx_tr *t, const struct value *sym, struct rx_cset **out)
{
    struct rx_ivs ivs = {0};
    if (rx_sym_is(sym, "nonl") || rx_sym_is(sym, "not-newline") || rx_sym_is(sym, "any")) {
        rx_ivs_push(t->L->a, &ivs, 0, '\n' - 1);
        rx_ivs_push(t->L->a, &ivs, '\n' + 1, MAX_CHAR);
    } else if (rx_sym_is(sym, "anychar") || rx_sym_is(sym, "anything"))
        rx_ivs_push(t->L->a, &ivs, 0, MAX_CHAR);
    else if (!rx_sym_is(sym, "unmatchable"))
        return false;
    *out = cset_of_ivs(t, ivs);
    return true;
}

/* Does form name something rx does not know and nobody defines here (a
 * definition would have been expanded by normalise)? */
static bool unknown_name(const struct value *form)
{
    return rx_maybe_defined_later(value_consp(form) ? value_car(form) : form);
}

/* (or ...): the union, or nothing as soon as one argument is not a set. */
static bool reduce_or(struct rx_tr *t, struct value *args, struct rx_cset **out)
{
    struct uni u = {0};
    for (; value_consp(args); args = value_cdr(args)) {
        struct rx_cset *c;
        if (!reduce(t, value_car(args), &c))
            return false;
        if (!c) {
            *out = NULL;
            return true;
        }
        uni_add(t, &u, c);
    }
    *out = uni_finish(t, &u);
    return true;
}

static bool reduce_cons(struct rx_tr *t, struct value *form, struct rx_cset **out)
{
    const struct rx_cset *cs = rx_norm_cset(t, form);
    struct value *head = value_car(form), *args = value_cdr(form);
    struct rx_ivs ivs;
    if (cs) {
        *out = (struct rx_cset *)cs;
    } else if (rx_sym_is(head, "not")) {
        if (value_list_length(form, t->L->nil) != 2)
            return rx_fail(t, form, "rx `not' form takes exactly one argument");
        struct rx_cset *c;
        if (!reduce(t, value_car(args), &c))
            return false;
        if (c && !c->ncls)
            *out = cset_of_ivs(t, rx_ivs_complement(t->L->a, &c->ivs));
    } else if (rx_sym_is(head, "or"))
        return reduce_or(t, args, out);
    else if (rx_sym_is(head, "intersection")) {
        if (!intersection_ivs(t, args, &ivs))
            return false;
        *out = cset_of_ivs(t, ivs);
    } else if (unknown_name(form))
        return rx_foreign(t, form);
    return true;
}

/* rx--reduce-to-char-alt of a normalised form: *out is its set, or NULL
 * when it is not one; false after an error, or when a name nobody defines
 * here decides it (foreign). */
static bool reduce(struct rx_tr *t, struct value *form, struct rx_cset **out)
{
    if (!rx_enter(t, form))
        return false;
    bool ok = true;
    *out = NULL;
    if (value_is(form, VK_STRING)) {
        if (form->u.str.nchars == 1) {
            uint32_t c = aref0(t, form);
            struct rx_ivs ivs = {0};
            rx_ivs_push(t->L->a, &ivs, c, c);
            *out = cset_of_ivs(t, ivs);
        }
    } else if (value_consp(form))
        ok = reduce_cons(t, form, out);
    else if (value_symbolp(form) && !symbol_set(t, form, out) && unknown_name(form))
        ok = rx_foreign(t, form);
    rx_leave(t);
    return ok;
}

/* ---- human-readable forms (error messages) ---- */

static bool readable(struct rx_tr *t, struct value *form, struct value **out);

static struct value *string_of(struct rx_tr *t, const uint32_t *c, size_t n)
{
    struct rx_str *s = rx_str_new(t->L->a);
    for (size_t i = 0; i < n; i++)
        rx_str_putc(t->L->a, s, c[i]);
    return rx_str_value(t->L->a, s);
}

/* rx.el's own list for a set: (rx--char-alt INTERVALS . CLASSES). */
static struct value *cset_lisp(struct rx_tr *t, const struct rx_cset *cs)
{
    struct lisp *L = t->L;
    struct value *cls = L->nil, *ivs = L->nil;
    for (size_t i = cs->ncls; i-- > 0;)
        cls = value_cons(L->a, intern_cstr(L, cs->cls[i]), cls);
    for (size_t i = cs->ivs.n; i-- > 0;)
        ivs = value_cons(L->a, value_cons(L->a, value_int(L->a, cs->ivs.v[i].lo),
                                          value_int(L->a, cs->ivs.v[i].hi)),
                         ivs);
    return value_cons(L->a, INTERN_LIT(L, "rx--char-alt"), value_cons(L->a, ivs, cls));
}

/* A set as (any STRING... CLASS...): an interval is one string, two
 * strings for two characters, "A-B" for more (rx.el's branch for ranges
 * from - calls string on a string: an error). */
static bool readable_cset(struct rx_tr *t, const struct value *form,
                          const struct rx_cset *cs, struct value **out)
{
    struct lisp *L = t->L;
    const struct rx_iv *v = cs->ivs.v;
    if (cs->ivs.n == 1 && v[0].lo == v[0].hi && !cs->ncls)
        /* rx.el's resugaring calls char-to-string on the whole list */
        return rx_wrong_type(t, form, "characterp", cset_lisp(t, cs));
    if (!cs->ivs.n && cs->ncls == 1) {
        *out = intern_cstr(L, cs->cls[0]);
        return true;
    }
    struct value **items = ARENA_NEWN(L->a, struct value *, 2 * cs->ivs.n + cs->ncls + 1);
    size_t n = 0;
    items[n++] = INTERN_LIT(L, "any");
    for (size_t i = 0; i < cs->ivs.n; i++) {
        uint32_t lo = v[i].lo, hi = v[i].hi;
        if (lo == hi || hi == lo + 1) {
            items[n++] = string_of(t, &lo, 1);
            if (hi != lo)
                items[n++] = string_of(t, &hi, 1);
            continue;
        }
        if (lo == '-') /* rx.el's (string "-") for it signals */
            return rx_wrong_type(t, form, "characterp", string_of(t, &lo, 1));
        items[n++] = string_of(t, (uint32_t[]){lo, '-', hi}, 3);
    }
    for (size_t i = 0; i < cs->ncls; i++)
        items[n++] = intern_cstr(L, cs->cls[i]);
    *out = lisp_list(L, n, items);
    return true;
}

/* (op ARG...) with the arguments after the first skip made readable. */
static bool readable_args(struct rx_tr *t, struct value *op, struct value *form,
                          size_t skip, struct value **out)
{
    struct value **items;
    size_t n;
    /* mapcar on the arguments, after (take SKIP ...) */
    if (!rx_list(t, form, value_cdr(form), skip == 0, &items, &n))
        return false;
    for (size_t i = skip; i < n; i++)
        if (!readable(t, items[i], &items[i]))
            return false;
    *out = value_cons(t->L->a, op, lisp_list(t->L, n, items));
    return true;
}

static bool head_in(const struct value *head, const char *const *names)
{
    for (; *names; names++)
        if (rx_sym_is(head, *names))
            return true;
    return false;
}

static bool readable_cons(struct rx_tr *t, struct value *form, struct value **out)
{
    static const char *const skip1[] = {"=", ">=", "group-n", "submatch-n", NULL};
    static const char *const kept[] = {"backref", "syntax", "not-syntax", "category",
                                       "eval", "regex", "regexp", "literal", NULL};
    struct value *head = value_car(form);
    const struct rx_cset *cs = rx_norm_cset(t, form);
    if (cs)
        return readable_cset(t, form, cs, out);
    if (head->kind == VK_INT && (head->u.i == ' ' || head->u.i == '?'))
        return readable_args(t, intern_cstr(t->L, head->u.i == ' ' ? "?" : "??"),
                             form, 0, out);
    if (rx_sym_is(head, "repeat") && value_list_length(form, t->L->nil) == 3)
        return readable_args(t, head, form, 1, out);
    if (rx_sym_is(head, "repeat") || rx_sym_is(head, "**"))
        return readable_args(t, head, form, 2, out);
    if (head_in(head, skip1))
        return readable_args(t, head, form, 1, out);
    if (head_in(head, kept))
        return true;
    return readable_args(t, head, form, 0, out);
}

/* rx--human-readable: characters as strings, sets as (any ...). */
static bool readable(struct rx_tr *t, struct value *form, struct value **out)
{
    if (!rx_enter(t, form))
        return false;
    bool ok = true;
    *out = form;
    if (rx_charp(form))
        *out = rx_str_value(t->L->a, rx_str_of_char(t->L->a, (uint32_t)form->u.i));
    else if (value_consp(form))
        ok = readable_cons(t, form, out);
    rx_leave(t);
    return ok;
}

/* An error whose message ends with the readable form of form (%S). */
static bool fail_readable(struct rx_tr *t, struct value *form, const char *msg)
{
    struct value *r;
    if (!readable(t, form, &r))
        return false;
    return rx_fail(t, form, "%s%s", msg, rx_show(t, r, false));
}

/* ---- intersection ---- */

/* rx--intersection-intervals of the normalised forms: each must be a set
 * without classes (all are checked before any is intersected). */
static bool intersection_ivs(struct rx_tr *t, struct value *forms, struct rx_ivs *out)
{
    struct value **items;
    size_t n;
    if (!rx_list(t, forms, forms, true, &items, &n))
        return false;
    const struct rx_ivs **sets = ARENA_NEWN(t->L->a, const struct rx_ivs *, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        struct rx_cset *c;
        if (!reduce(t, items[i], &c))
            return false;
        if (!c || c->ncls)
            return fail_readable(t, items[i], "Cannot be used in rx intersection: ");
        sets[i] = &c->ivs;
    }
    *out = rx_ivs_intersect_all(t->L->a, sets, n);
    return true;
}

/* The normalised items of body (a list). */
static bool normalised_items(struct rx_tr *t, struct value *form, struct value *body,
                             struct value ***items, size_t *n)
{
    if (!rx_list(t, form, body, true, items, n))
        return false;
    for (size_t i = 0; i < *n; i++)
        if (!normalise(t, (*items)[i], &(*items)[i]))
            return false;
    return true;
}

bool rx_tr_intersection(struct rx_tr *t, bool negated, struct value *body,
                        struct rx_item *out)
{
    struct value **items;
    size_t n;
    struct rx_ivs ivs;
    if (!normalised_items(t, body, body, &items, &n)
        || !intersection_ivs(t, lisp_list(t->L, n, items), &ivs))
        return false;
    rx_generate_alt(t, negated, &ivs, NULL, 0, out);
    return true;
}

/* ---- not ---- */

bool rx_tr_not(struct rx_tr *t, bool negated, struct value *form,
               struct value *body, struct rx_item *out)
{
    if (!rx_one_arg(t, form, body, "not"))
        return false;
    struct value *arg;
    if (!normalise(t, value_car(body), &arg))
        return false;
    if (value_consp(arg)) {
        struct value *h = value_car(arg), *args = value_cdr(arg);
        if (rx_sym_is(h, "not"))
            return rx_tr_not(t, !negated, arg, args, out);
        if (rx_sym_is(h, "syntax"))
            return rx_tr_syntax(t, !negated, arg, args, out);
        if (rx_sym_is(h, "category"))
            return rx_tr_category(t, !negated, arg, args, out);
    }
    if (rx_sym_is(arg, "word-boundary")) {
        rx_item_init(out, RX_P_T);
        rx_item_puts(t, out, negated ? "\\b" : "\\B");
        return true;
    }
    struct rx_cset *cs;
    if (!reduce(t, arg, &cs))
        return false;
    if (!cs)
        return fail_readable(t, arg, "Illegal argument to rx `not': ");
    rx_generate_alt(t, !negated, &cs->ivs, cs->cls, cs->ncls, out);
    return true;
}

/* ---- or ---- */

/* rx--all-string-branches-p over a list of normalised forms: strings, or
 * `or' forms of them (nested no deeper than normalise allowed). */
static bool all_strings(struct value *list)
{
    for (; value_consp(list); list = value_cdr(list)) {
        struct value *x = value_car(list);
        if (value_is(x, VK_STRING))
            continue;
        if (!value_consp(x) || !rx_sym_is(value_car(x), "or")
            || !all_strings(value_cdr(x)))
            return false;
    }
    return true;
}

struct strs {
    struct rx_str **v;
    size_t n, cap;
};

/* rx--collect-or-strings, in order. */
static void collect_strings(struct rx_tr *t, struct value *list, struct strs *s)
{
    for (; value_consp(list); list = value_cdr(list)) {
        struct value *x = value_car(list);
        if (!value_is(x, VK_STRING)) {
            collect_strings(t, value_cdr(x), s);
            continue;
        }
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 8;
            s->v = arena_grow(t->L->a, s->v, s->cap * sizeof *s->v, cap * sizeof *s->v);
            s->cap = cap;
        }
        s->v[s->n++] = rx_str_of_value(t->L->a, x);
    }
}

/* rx--optimise-or-args: each run of adjacent arguments that reduce to
 * sets becomes one set (their union); the branches into b[0..*nb). */
static bool optimise(struct rx_tr *t, struct value **args, size_t n,
                     struct value **b, size_t *nb)
{
    struct uni run = {0};
    bool open = false; /* a run of sets is being gathered */
    *nb = 0;
    for (size_t i = 0; i < n; i++) {
        struct rx_cset *c;
        if (!reduce(t, args[i], &c))
            return false;
        if (c) {
            uni_add(t, &run, c);
            open = true;
            continue;
        }
        if (open)
            b[(*nb)++] = cset_form(t, uni_finish(t, &run));
        memset(&run, 0, sizeof run);
        open = false;
        b[(*nb)++] = args[i];
    }
    if (open)
        b[(*nb)++] = cset_form(t, uni_finish(t, &run));
    return true;
}

/* The branches joined by \| (precedence nil). */
static bool alternation(struct rx_tr *t, struct value **b, size_t n,
                        struct rx_item *out)
{
    rx_item_init(out, RX_P_NIL);
    for (size_t i = 0; i < n; i++) {
        struct rx_item it;
        if (!rx_tr_item(t, b[i], &it))
            return false;
        if (i > 0)
            rx_item_puts(t, out, "\\|");
        rx_item_append(t, out, &it);
    }
    out->prec = RX_P_NIL;
    return true;
}

/* rx--translate-or. */
bool rx_tr_or(struct rx_tr *t, struct value *form, struct value *body,
              struct rx_item *out)
{
    struct value **args;
    size_t n;
    if (!rx_list(t, form, body, false, &args, &n))
        return false;
    if (n == 0) {
        rx_item_unmatchable(t, out);
        return true;
    }
    if (n == 1)
        return rx_tr_item(t, args[0], out);
    for (size_t i = 0; i < n; i++)
        if (!normalise(t, args[i], &args[i]))
            return false;
    struct value *list = lisp_list(t->L, n, args);
    if (all_strings(list)) {
        struct strs s = {0};
        collect_strings(t, list, &s);
        struct rx_str *re = rx_regexp_opt(t->L->a, s.v, s.n);
        if (!re)
            return rx_too_deep(t, form, "rx pattern nested too deeply");
        rx_item_init(out, RX_P_T);
        rx_item_str(t, out, re);
        return true;
    }
    struct value **b = ARENA_NEWN(t->L->a, struct value *, n);
    size_t nb;
    if (!optimise(t, args, n, b, &nb))
        return false;
    return nb == 1 ? rx_tr_item(t, b[0], out) : alternation(t, b, nb, out);
}
