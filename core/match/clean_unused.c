/* clean_unused.c - the pass `unused': no temporary is bound and not read.
 *
 * A temporary nothing reads (its readers were inlined, or the clause that
 * would read it binds nothing: ((app car c) nil)) is not bound: a value
 * without effect or error is dropped, and one that may signal or has
 * effects (Emacs makes the call: the call of an app whose variable is
 * bound, a car) is still evaluated in its place.  Bindings of that kind
 * that open their let or let* become (ignore VALUE...) before it, which
 * is also what a let of nothing else and no body becomes; one after
 * another binding is renamed to a temporary the byte compiler does not
 * report (base name `_').  No "Unused lexical variable" warning either
 * way.
 */
#include "match/clean_int.h"

#include <string.h>

struct unused {
    struct clean *c;
    struct value **kept;        /* renamed temporaries, kept for effect */
    size_t n, cap;
};

static bool kept(const struct unused *u, const struct value *v)
{
    for (size_t i = 0; i < u->n; i++)
        if (u->kept[i] == v)
            return true;
    return false;
}

/* (progn (ignore VALUES...) FORM): FORM after the values, or just the
 * ignore when FORM is nil. */
static struct value *after_ignore(struct clean *c, struct value *values, struct value *form)
{
    struct value *ig = clean_cons(c, c->sym[CS_IGNORE], values);
    if (form == c->L->nil)
        return ig;
    struct value *rest = form->kind == VK_CONS && clean_car(form) == c->sym[CS_PROGN]
                             ? clean_cdr(form)
                             : clean_cons(c, form, c->L->nil);
    return clean_cons(c, c->sym[CS_PROGN], clean_cons(c, ig, rest));
}

/* A let or let* whose first bindings are kept for effect: their values
 * go into an ignore before it. */
static void hoist(struct clean *c, struct value **slot)
{
    struct value *v = *slot;
    enum clean_kind k = clean_kind(c, v);
    if ((k != CK_LET && k != CK_LET_STAR) || clean_cdr(v)->kind != VK_CONS)
        return;
    struct value *args = clean_cdr(v), *b = clean_car(args);
    struct value *values = c->L->nil, **tail = &values;
    while (b->kind == VK_CONS && clean_car(b)->kind == VK_CONS &&
           kept(c->state, clean_car(clean_car(b)))) {
        struct value *var, *val;
        clean_binding(c, clean_car(b), &var, &val);
        *tail = clean_cons(c, val, c->L->nil);
        tail = &(*tail)->u.cons.cdr;
        b = clean_cdr(b);
    }
    if (values == c->L->nil)
        return;
    clean_edited(c);
    args->u.cons.car = b;
    struct value *rest = b == c->L->nil ? clean_progn(c, clean_cdr(args)) : v;
    *slot = after_ignore(c, values, rest);
    clean_moved(c, v, *slot);
}

/* Rounds of the pass at most: each takes the temporaries that only the
 * values of the ones the last round dropped read (a chain of accessors
 * no clause needed: (cdr-safe (cdr-safe x)) of a pcase-let's ignored
 * tests). */
#define ROUNDS 16

/* One round: drop what nothing reads, keep for effect what must run.
 * True when a binding was dropped. */
static bool round_of(struct clean *c, struct value **slot, struct unused *u)
{
    size_t n;
    struct clean_site *sites = clean_sites(c, slot, &n);
    bool dead = false;
    for (size_t i = 0; i < n; i++) {
        struct clean_site *s = &sites[i];
        struct value *var, *val;
        if (s->kind != CLEAN_SITE_LET || s->refs ||
            !clean_binding(c, clean_car(s->cell), &var, &val))
            continue;
        if ((s->init_bound ? clean_effect_bound(c, val) : clean_effect(c, val)) == CE_NONE) {
            s->cell->u.cons.car = c->dead;
            dead = true;
            clean_edited(c);
            continue;
        }
        struct value *fresh = c->hooks->gensym(c->hooks->ctx, "_");
        s->cell->u.cons.car = clean_list2(c, fresh, val);
        clean_edited(c);
        if (u->n == u->cap) {
            size_t cap = u->cap ? 2 * u->cap : 8;
            u->kept = arena_grow(c->L->a, u->kept, u->n * sizeof *u->kept,
                                 cap * sizeof *u->kept);
            u->cap = cap;
        }
        u->kept[u->n++] = fresh;
    }
    if (dead)
        clean_sweep(c, slot);
    else if (!u->n) {
        c->sites = sites; /* the form is as this walk found it: inline's */
        c->n_sites = n;
    }
    return dead;
}

void clean_unused(struct clean *c, struct value **slot)
{
    struct unused u = {c, NULL, 0, 0};
    for (int r = 0; r < ROUNDS && round_of(c, slot, &u); r++)
        ;
    if (u.n) {
        c->state = &u;
        clean_visit(c, slot, hoist, 0);
        c->state = NULL;
    }
}
