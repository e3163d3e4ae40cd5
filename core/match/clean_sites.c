/* clean_sites.c - where each temporary is bound and read (clean_sites).
 *
 * One walk over the generated code with its scopes: every binding of a
 * temporary (by let, let*, a lambda's parameters or dolist) is a site,
 * and every reference to a temporary counts for the innermost site that
 * binds it.  A temporary bound again inside the scope of its binding (the
 * emitter reuses a temporary on two paths, which may nest) hides the
 * outer site there.  User code holds no temporary: it is not entered.
 *
 * The walk also keeps the variables (no temporaries) surely read already
 * on the way to where it is: read by code that runs on every path to
 * here, with no unknown code since (which could make one void).  A
 * binding whose value reads only such variables cannot signal for a void
 * one (clean_site.init_bound).
 */
#include "match/clean_int.h"

#include <string.h>

/* Variables surely read: at most this many are kept. */
#define MAX_DOM 32

struct walk {
    struct clean *c;
    struct clean_marks *sc;           /* temporary -> 1 + its innermost site */
    struct clean_site *sites;
    size_t n, cap;
    const struct value *dom[MAX_DOM]; /* the variables surely read */
    size_t n_dom;
    clean_dom_fn *fn;                 /* clean_visit_dom's callback, or NULL */
};

/* ---- the scope -------------------------------------------------------- */

/* The innermost site of temporary v, or -1. */
static int current(const struct walk *w, const struct value *v)
{
    return clean_map_get(w->sc, v) - 1;
}

static void set_current(struct walk *w, const struct value *v, int site)
{
    clean_map_put(w->sc, v, site + 1);
}

/* A new site of temporary var; it is the innermost one until unbind. */
static void bind(struct walk *w, struct value *var, struct value *owner,
                 struct value *cell, enum clean_site_kind kind, bool init_bound)
{
    if (!clean_temp(var))
        return;
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 4; /* a small form has few */
        w->sites = arena_grow(w->c->L->a, w->sites, w->n * sizeof *w->sites,
                              cap * sizeof *w->sites);
        w->cap = cap;
    }
    struct clean_site *s = &w->sites[w->n];
    memset(s, 0, sizeof *s);
    s->var = var;
    s->owner = owner;
    s->cell = cell;
    s->kind = kind;
    s->init_bound = init_bound;
    s->prev = current(w, var);
    set_current(w, var, (int)w->n);
    w->n++;
}

/* Undo the binds of sites from..n-1 (innermost first). */
static void unbind(struct walk *w, size_t from)
{
    for (size_t i = w->n; i-- > from;)
        if (current(w, w->sites[i].var) == (int)i)
            set_current(w, w->sites[i].var, w->sites[i].prev);
}

/* ---- variables surely read -------------------------------------------- */

static bool dominated(const struct walk *w, const struct value *v)
{
    for (size_t i = 0; i < w->n_dom; i++)
        if (w->dom[i] == v)
            return true;
    return false;
}

static void read_var(struct walk *w, const struct value *v)
{
    if (clean_variable(w->c, v) && !clean_temp(v) && !dominated(w, v) &&
        w->n_dom < MAX_DOM)
        w->dom[w->n_dom++] = v;
}

/* Leave a part not every path runs: what it read is not surely read
 * after it, and what it forgot stays forgotten. */
static void restore(struct walk *w, size_t mark)
{
    if (w->n_dom > mark)
        w->n_dom = mark;
}

/* Do all the variables form mentions (but temporaries) count as read? */
static bool all_dominated(const struct walk *w, const struct value *form, unsigned depth)
{
    if (form->kind == VK_SYMBOL)
        return !clean_variable(w->c, form) || clean_temp(form) || dominated(w, form);
    if (form->kind != VK_CONS)
        return true;
    if (depth > 64)
        return false;
    if (clean_car(form) == w->c->L->quote)
        return true;
    if (clean_car(form)->kind == VK_SYMBOL) /* a function's name */
        form = clean_cdr(form);
    for (; form->kind == VK_CONS; form = clean_cdr(form))
        if (!all_dominated(w, clean_car(form), depth + 1))
            return false;
    return all_dominated(w, form, depth + 1);
}

/* ---- the walk --------------------------------------------------------- */

static void walk(struct walk *w, struct value **slot, bool ok, unsigned depth);

static void walk_list(struct walk *w, struct value *l, bool ok, unsigned depth)
{
    for (; l->kind == VK_CONS; l = clean_cdr(l))
        walk(w, &l->u.cons.car, ok, depth);
}

/* Forms of list l of which only the first surely runs (if, and, or). */
static void walk_branches(struct walk *w, struct value *l, unsigned depth)
{
    if (l->kind != VK_CONS)
        return;
    walk(w, &l->u.cons.car, true, depth);
    size_t mark = w->n_dom;
    for (l = clean_cdr(l); l->kind == VK_CONS; l = clean_cdr(l))
        walk(w, &l->u.cons.car, true, depth);
    restore(w, mark);
}

/* Code that runs at another time or more than once (a lambda's body, a
 * loop's): nothing read outside counts inside, nothing read inside
 * counts after it; after a loop nothing counts (its body may run user
 * code), after a lambda (made, not run) what counted before does. */
static void walk_apart(struct walk *w, struct value *l, bool ok, bool loop, unsigned depth)
{
    const struct value *saved[MAX_DOM];
    size_t n = w->n_dom;
    memcpy(saved, w->dom, n * sizeof *saved);
    w->n_dom = 0;
    walk_list(w, l, ok, depth);
    memcpy(w->dom, saved, n * sizeof *saved);
    w->n_dom = loop ? 0 : n;
}

static void walk_lambda(struct walk *w, struct value *lam, unsigned depth)
{
    struct value *r = clean_cdr(lam);
    if (r->kind != VK_CONS)
        return;
    size_t mark = w->n;
    for (struct value *p = clean_car(r); p->kind == VK_CONS; p = clean_cdr(p))
        bind(w, clean_car(p), lam, p, CLEAN_SITE_PARAM, false);
    walk_apart(w, clean_cdr(r), true, false, depth);
    unbind(w, mark);
}

/* The variable of binding x (SYM or (SYM ...)). */
static struct value *var_of(struct value *x)
{
    return x->kind == VK_CONS ? clean_car(x) : x;
}

/* Does the value of binding x read only variables surely read (or has
 * it none)? */
static bool value_bound(const struct walk *w, const struct value *x)
{
    return x->kind != VK_CONS || clean_cdr(x)->kind != VK_CONS ||
           all_dominated(w, clean_car(clean_cdr(x)), 0);
}

static void walk_let(struct walk *w, struct value *v, bool star, unsigned depth)
{
    struct value *r = clean_cdr(v);
    if (r->kind != VK_CONS)
        return;
    size_t mark = w->n;
    struct value *b = clean_car(r), *l;
    if (star) {
        for (l = b; l->kind == VK_CONS; l = clean_cdr(l)) {
            struct value *x = clean_car(l);
            bool bound = value_bound(w, x);
            if (x->kind == VK_CONS && clean_cdr(x)->kind == VK_CONS)
                walk(w, &clean_cdr(x)->u.cons.car, true, depth);
            bind(w, var_of(x), v, l, CLEAN_SITE_LET, bound);
        }
    } else {
        /* the values in order, then the variables are bound */
        size_t n = 0, k = 0;
        for (l = b; l->kind == VK_CONS; l = clean_cdr(l))
            n++;
        bool *bound = arena_alloc(w->c->L->a, n + 1);
        for (l = b; l->kind == VK_CONS; l = clean_cdr(l), k++) {
            struct value *x = clean_car(l);
            bound[k] = value_bound(w, x);
            if (x->kind == VK_CONS && clean_cdr(x)->kind == VK_CONS)
                walk(w, &clean_cdr(x)->u.cons.car, true, depth);
        }
        for (l = b, k = 0; l->kind == VK_CONS; l = clean_cdr(l), k++)
            bind(w, var_of(clean_car(l)), v, l, CLEAN_SITE_LET, bound[k]);
    }
    walk_list(w, clean_cdr(r), true, depth);
    unbind(w, mark);
}

static void walk(struct walk *w, struct value **slot, bool ok, unsigned depth)
{
    struct value *v = *slot;
    if (v->kind != VK_CONS) {
        int s = clean_temp(v) ? current(w, v) : -1;
        if (s >= 0) {
            w->sites[s].refs++;
            w->sites[s].ref = slot;
            w->sites[s].ref_ok = ok;
        } else if (v->kind == VK_SYMBOL) {
            read_var(w, v);
        }
        return;
    }
    if (depth > CLEAN_MAX_DEPTH)
        return;
    if (w->fn && clean_kind(w->c, v) != CK_USER) {
        w->fn(w->c, slot, w->dom, w->n_dom);
        if ((v = *slot)->kind != VK_CONS)
            return;
    }
    struct value *args = clean_cdr(v);
    switch (clean_kind(w->c, v)) {
    case CK_USER:
        w->n_dom = 0; /* it may do anything */
        return;
    case CK_QUOTE:
        return;
    case CK_FUNCTION:
        if (args->kind == VK_CONS && clean_car(args)->kind == VK_CONS &&
            clean_car(clean_car(args)) == w->c->L->lambda)
            walk_lambda(w, clean_car(args), depth + 1);
        return;
    case CK_LAMBDA:
        walk_lambda(w, v, depth + 1);
        return;
    case CK_LET:
    case CK_LET_STAR:
        walk_let(w, v, clean_kind(w->c, v) == CK_LET_STAR, depth + 1);
        return;
    case CK_IF:
    case CK_AND:
        walk_branches(w, args, depth + 1);
        return;
    case CK_COND: {
        size_t mark = w->n_dom;
        for (bool first = true; args->kind == VK_CONS; args = clean_cdr(args)) {
            struct value *cl = clean_car(args);
            if (cl->kind != VK_CONS)
                continue;
            walk(w, &cl->u.cons.car, true, depth + 1);
            if (first)
                mark = w->n_dom; /* the first test runs on every path */
            first = false;
            size_t body = w->n_dom;
            walk_list(w, clean_cdr(cl), true, depth + 1);
            restore(w, body);
        }
        restore(w, mark);
        return;
    }
    case CK_SETQ:
        for (; args->kind == VK_CONS && clean_cdr(args)->kind == VK_CONS;
             args = clean_cdr(clean_cdr(args)))
            walk(w, &clean_cdr(args)->u.cons.car, true, depth + 1);
        return;
    case CK_DOLIST: {
        struct value *spec = args->kind == VK_CONS ? clean_car(args) : w->c->L->nil;
        if (spec->kind != VK_CONS)
            return;
        if (clean_cdr(spec)->kind == VK_CONS)
            walk(w, &clean_cdr(spec)->u.cons.car, true, depth + 1);
        size_t mark = w->n;
        bind(w, clean_car(spec), v, spec, CLEAN_SITE_PARAM, false);
        if (clean_cdr(spec)->kind == VK_CONS)
            walk_apart(w, clean_cdr(clean_cdr(spec)), false, true, depth + 1);
        walk_apart(w, clean_cdr(args), false, true, depth + 1);
        unbind(w, mark);
        return;
    }
    case CK_CALL:
    case CK_FORM:
        /* a reference here takes no other form in its place */
        walk_list(w, args, false, depth + 1);
        w->n_dom = 0;
        return;
    case CK_FUNCALL:
        walk_list(w, args, true, depth + 1);
        w->n_dom = 0;
        return;
    default:
        walk_list(w, args, true, depth + 1);
        return;
    }
}

void clean_visit_dom(struct clean *c, struct value **slot, clean_dom_fn *fn)
{
    struct walk w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.sc = clean_marks_new(c->L->a);
    w.fn = fn;
    walk(&w, slot, true, 0);
}

struct clean_site *clean_sites(struct clean *c, struct value **slot, size_t *n)
{
    struct walk w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.sc = clean_marks_new(c->L->a);
    walk(&w, slot, true, 0);
    *n = w.n;
    return w.sites;
}
