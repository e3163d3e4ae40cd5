/* bquote.c - Emacs's backquote macro, for backquoted match* patterns.
 *
 * Functions in pipeline order: bquote_expand (the macroexpand loop) ->
 * process (one object of the template; dispatches to process_vector,
 * unquote, delay, process_list) -> listify (a run of elements into `list',
 * `cons', `backquote-list*' or one folded constant) -> list_star (the
 * `backquote-list*' macro: nested `cons').  Pieces carry Emacs's tags:
 * 0 = constant, 1 = computed, 2 = to be spliced.
 */
#include "expand/bquote.h"

#include <stddef.h>

/* State of one expansion. */
struct bq {
    struct expand_ctx *x;
    const struct condstar_syms *S;
    struct lisp *L;
    struct condstar_at at; /* where errors are reported (the pattern) */
};

/* A processed template object. */
struct piece {
    int tag;            /* 0 constant, 1 computed, 2 spliced */
    struct value *form; /* the expression that produces it */
};

static bool process(struct bq *q, struct value *s, int level,
                    struct piece *out);

static struct value *cons(struct bq *q, struct value *a, struct value *d)
{
    return value_cons(q->L->a, a, d);
}

static struct value *list2(struct bq *q, struct value *a, struct value *b)
{
    return cons(q, a, cons(q, b, q->L->nil));
}

static bool fail(struct bq *q, const char *msg)
{
    condstar_diag(q->x, DIAG_ERROR, q->at, "malformed-pattern",
                  "backquote pattern: %s", msg);
    return false;
}

/* Is v a cons whose car is head? */
static bool headed(const struct value *v, const struct value *head)
{
    return value_consp(v) && value_car(v) == head;
}

/* Emacs evaluates constant pieces at expansion time; they are
 * self-evaluating atoms or (quote X). */
static bool eval_const(struct bq *q, struct value *form, struct value **out)
{
    if (!headed(form, q->S->quote)) {
        *out = form;
        return true;
    }
    struct value *args = value_cdr(form);
    if (!value_consp(args) || value_cdr(args) != q->L->nil)
        return fail(q, "quote needs exactly one argument");
    *out = value_car(args);
    return true;
}

/* An element item of a run: (TAG . FORM), as Emacs keeps them. */
static struct value *item(struct bq *q, struct piece p)
{
    return cons(q, value_int(q->L->a, p.tag), p.form);
}

static int item_tag(const struct value *it) { return (int)value_car(it)->u.i; }

/* Fold old_tail into the final expression (tail) of a run. */
static struct value *listify_tail(struct bq *q, struct value *heads,
                                  struct value *tail, bool tail_const)
{
    if (tail == q->L->nil)
        return cons(q, q->S->list, heads);
    if (tail_const)
        tail = list2(q, q->S->quote, tail);
    if (heads == q->L->nil)
        return tail;
    struct value *first = value_car(heads);
    bool use_star = value_cdr(heads) != q->L->nil ||
                    headed(first, q->S->comma_at);
    struct value *args = lisp_reverse(q->L, cons(q, tail, lisp_reverse(q->L, heads)));
    return cons(q, use_star ? q->S->bq_list_star : q->S->cons, args);
}

/* A run of non-spliced elements (rev: items, last element first) in
 * front of old_tail.  Trailing constants fold into a quoted tail. */
static bool listify(struct bq *q, struct value *rev, struct piece old_tail,
                    struct value **out)
{
    struct value *heads = q->L->nil, *tail = old_tail.form;
    bool tail_const = old_tail.tag == 0;
    if (tail_const && !eval_const(q, tail, &tail))
        return false;
    for (; value_consp(rev); rev = value_cdr(rev)) {
        struct value *it = value_car(rev);
        if (heads != q->L->nil || !tail_const || item_tag(it) != 0) {
            heads = cons(q, value_cdr(it), heads);
            continue;
        }
        struct value *c;
        if (!eval_const(q, value_cdr(it), &c))
            return false;
        tail = cons(q, c, tail);
    }
    *out = listify_tail(q, heads, tail, tail_const);
    return true;
}

static void set_piece(struct bq *q, struct value *form, struct piece *out)
{
    out->tag = headed(form, q->S->quote) ? 0 : 1;
    out->form = form;
}

/* A nested (back|un|splice)quote above level 0: rebuilt as data. */
static bool delay(struct bq *q, struct value *s, int level, struct piece *out)
{
    struct piece rest;
    if (!process(q, value_cdr(s), level, &rest))
        return false;
    struct piece head = {0, list2(q, q->S->quote, value_car(s))};
    struct value *form;
    if (!listify(q, cons(q, item(q, head), q->L->nil), rest, &form))
        return false;
    set_piece(q, form, out);
    return true;
}

/* , and ,@ (splice true) at level 0: exactly one argument. */
static bool unquote(struct bq *q, struct value *s, int level, bool splice,
                    struct piece *out)
{
    if (level > 0)
        return delay(q, s, level - 1, out);
    long n = value_list_length(s, q->L->nil);
    if (n < 0)
        return fail(q, "improper list after , or ,@");
    if (n > 2)
        return fail(q, splice ? "multiple args to ,@ are not supported"
                              : "multiple args to , are not supported");
    struct value *arg = n == 2 ? value_car(value_cdr(s)) : q->L->nil;
    if (splice) {
        out->tag = 2;
        out->form = arg;
    } else {
        out->tag = headed(arg, q->S->quote) ? 0 : 1;
        out->form = arg;
    }
    return true;
}

/* A vector template: processed as a list, then rebuilt as a vector. */
static bool process_vector(struct bq *q, struct value *s, int level,
                           struct piece *out)
{
    struct value *l = lisp_list(q->L, s->u.vec.n, s->u.vec.items);
    struct piece n;
    if (!process(q, l, level, &n))
        return false;
    out->tag = n.tag == 0 ? 0 : 1;
    struct value *e = n.form;
    if (n.tag == 0)
        out->form = s;
    else if (!value_consp(e) && e != q->L->nil)
        out->form = list2(q, q->S->vconcat, e);
    else if (headed(e, q->S->list))
        out->form = cons(q, q->S->vector, value_cdr(e));
    else if (headed(e, q->S->append))
        out->form = cons(q, q->S->vconcat, value_cdr(e));
    else
        out->form = cons(q, q->S->apply,
                         list2(q, list2(q, q->S->function, q->S->vector), e));
    return true;
}

/* Scan state of one list level. */
struct scan {
    struct value *list;      /* pending non-spliced items, reversed */
    struct value *lists;     /* forms producing parts of the list, reversed */
    struct value *firstlist; /* items before the first splice, reversed */
};

/* One element of a list template. */
static bool scan_elt(struct bq *q, struct scan *sc, struct value *elt, int level)
{
    struct piece it;
    if (!process(q, elt, level, &it))
        return false;
    if (it.tag != 2) {
        sc->list = cons(q, item(q, it), sc->list);
        return true;
    }
    if (sc->lists == q->L->nil) {
        sc->firstlist = sc->list;
        sc->list = q->L->nil;
    }
    if (sc->list != q->L->nil) {
        struct value *part;
        struct piece none = {0, q->L->nil};
        if (!listify(q, sc->list, none, &part))
            return false;
        sc->lists = cons(q, part, sc->lists);
    }
    sc->lists = cons(q, it.form, sc->lists);
    sc->list = q->L->nil;
    return true;
}

/* A list template: runs, splices, and the tail after the last element
 * (a dotted atom or a `,X' written as a dotted tail). */
static bool process_list(struct bq *q, struct value *s, int level,
                         struct piece *out)
{
    struct value *nil = q->L->nil;
    struct scan sc = {nil, nil, nil};
    struct value *rest = s;
    for (; value_consp(rest) && value_car(rest) != q->S->comma &&
           value_car(rest) != q->S->backquote;
         rest = value_cdr(rest))
        if (!scan_elt(q, &sc, value_car(rest), level))
            return false;
    if (rest != nil || sc.list != nil) {
        struct piece tail;
        struct value *part;
        if (!process(q, rest, level, &tail) || !listify(q, sc.list, tail, &part))
            return false;
        sc.lists = cons(q, part, sc.lists);
    }
    struct value *expr = nil;
    if (value_consp(sc.lists)) {
        bool join = value_cdr(sc.lists) != nil ||
                    headed(value_car(sc.lists), q->S->comma_at);
        expr = join ? cons(q, q->S->append, lisp_reverse(q->L, sc.lists))
                    : value_car(sc.lists);
    }
    if (sc.firstlist != nil) {
        struct piece computed = {1, expr};
        if (!listify(q, sc.firstlist, computed, &expr))
            return false;
    }
    set_piece(q, expr, out);
    return true;
}

/* One template object at nesting level `level` (0 = directly inside the
 * outermost backquote). */
static bool process(struct bq *q, struct value *s, int level,
                    struct piece *out)
{
    if (!condstar_enter(q->x, q->at))
        return false;
    bool ok = true;
    if (value_is(s, VK_VECTOR)) {
        ok = process_vector(q, s, level, out);
    } else if (!value_consp(s)) {
        bool self = s == q->L->nil || s == q->L->t || !value_symbolp(s);
        out->tag = 0;
        out->form = self ? s : list2(q, q->S->quote, s);
    } else if (value_car(s) == q->S->comma || value_car(s) == q->S->comma_at) {
        ok = unquote(q, s, level, value_car(s) == q->S->comma_at, out);
    } else if (value_car(s) == q->S->backquote) {
        ok = delay(q, s, level + 1, out);
    } else {
        ok = process_list(q, s, level, out);
    }
    condstar_leave(q->x);
    return ok;
}

/* The backquote-list* macro: (backquote-list* A B C) = (cons A (cons B C)). */
static bool list_star(struct bq *q, struct value *args, struct value **out)
{
    long n = value_list_length(args, q->L->nil);
    if (n < 1)
        return fail(q, n == 0 ? "backquote-list* needs an argument"
                              : "improper argument list of backquote-list*");
    struct value *rev = lisp_reverse(q->L, args);
    struct value *r = value_car(rev);
    for (rev = value_cdr(rev); value_consp(rev); rev = value_cdr(rev))
        r = cons(q, q->S->cons, list2(q, value_car(rev), r));
    *out = r;
    return true;
}

struct value *bquote_expand(struct expand_ctx *x,
                            const struct condstar_syms *S,
                            struct value *form, struct condstar_at at)
{
    struct bq q = {x, S, x->L, at};
    while (headed(form, S->backquote) || headed(form, S->bq_list_star)) {
        struct value *args = value_cdr(form);
        if (value_car(form) == S->bq_list_star) {
            if (!list_star(&q, args, &form))
                return NULL;
            continue;
        }
        if (value_list_length(args, x->L->nil) != 1) {
            fail(&q, "backquote needs exactly one argument");
            return NULL;
        }
        struct piece p;
        if (!process(&q, value_car(args), 0, &p))
            return NULL;
        form = p.form;
    }
    return form;
}
