/* clean_inline.c - the pass `inline': a temporary read once is its value.
 *
 * (let* ((x0 (car-safe s))) (let ((kind x0)) BODY)) says what
 * (let ((kind (car-safe s))) BODY) says, when nothing between the binding
 * and the one reference can tell the two apart.  The value is moved to
 * the reference when:
 *   - the reference is where a form may stand: not an argument of a
 *     function pcexpand does not know (it may be a macro), not inside a
 *     lambda or a loop (it would be evaluated at another time, or again);
 *   - no binding between rebinds a variable the value reads (a value that
 *     calls unknown code: any variable but a temporary), no assignment
 *     sets one, and no unknown code runs between (it could set one, or
 *     change the data the value reads: (setcar ...) in a guard);
 *   - a value that may signal or has effects (car, a user's app function)
 *     is evaluated at the same point of the sequence of effects: nothing
 *     that may signal or has effects runs between, no variable but a
 *     temporary is read between (the value could set it), and the
 *     reference is reached on every path the binding is (not inside an
 *     if, cond, and or or after its first test).
 * A value that reads variables and computes without effect or error
 * (car-safe, cdr-safe, a constant) may move anywhere these allow, into a
 * branch too: evaluating it on fewer paths is not observable.  The walk
 * from a binding to its reference stops after WALK_BUDGET forms (the
 * temporary stays), so the pass is linear in the size of the code.
 */
#include "match/clean_int.h"

#include <string.h>

#define WALK_BUDGET 512
#define MAX_READS 32

struct flow {
    struct clean *c;
    const struct value *t;          /* the temporary */
    const struct value *reads[MAX_READS]; /* the variables its value reads */
    size_t n_reads;
    enum clean_effect eff;          /* what its value may do */
    bool bound;                     /* the variables it reads are bound */
    const struct value *void_var;   /* the one variable the value may
                                       signal for (being void), else NULL */
    bool changed;                   /* something that may change the value ran */
    bool effect;                    /* something that may signal or has effects ran */
    bool read;                      /* a variable that is no temporary was read */
    unsigned branch;                /* > 0: in a part not every path reaches */
    unsigned shadow;                /* > 0: a variable of reads is rebound */
    unsigned hidden;                /* > 0: t itself is rebound */
    uint32_t budget;
    int result;                     /* 0 going on, 1 found and movable, -1 not */
};

static bool reads(const struct flow *f, const struct value *v)
{
    for (size_t i = 0; i < f->n_reads; i++)
        if (f->reads[i] == v)
            return true;
    return false;
}

/* Does binding or setting v matter to the value? */
static bool touches(const struct flow *f, const struct value *v)
{
    return reads(f, v) || (f->eff == CE_ANY && !clean_temp(v));
}

/* Collect the symbols form mentions into f->reads; false when there are
 * too many. */
static bool collect(struct flow *f, const struct value *form, unsigned depth)
{
    if (form->kind == VK_SYMBOL) {
        if (!clean_variable(f->c, form) || reads(f, form))
            return true;
        if (f->n_reads == MAX_READS)
            return false;
        f->reads[f->n_reads++] = form;
        return true;
    }
    if (form->kind != VK_CONS || depth > CLEAN_MAX_DEPTH)
        return form->kind != VK_CONS;
    if (clean_car(form) == f->c->L->quote)
        return true;
    if (clean_car(form)->kind == VK_SYMBOL) /* a function's name */
        form = clean_cdr(form);
    for (; form->kind == VK_CONS; form = clean_cdr(form))
        if (!collect(f, clean_car(form), depth + 1))
            return false;
    return collect(f, form, depth + 1);
}

static void found(struct flow *f)
{
    bool ok = !f->changed && !f->shadow &&
              (f->eff == CE_NONE ||
               (!f->effect && !f->branch && (f->eff != CE_ANY || !f->read)));
    f->result = ok ? 1 : -1;
}

/* Something that may change the value, signal or have effects ran. */
static void opaque(struct flow *f)
{
    f->changed = f->effect = true;
}

/* Going on is useless once nothing found later could move. */
static bool hopeless(const struct flow *f)
{
    return f->changed || (f->eff != CE_NONE && f->effect);
}

static void flow(struct flow *f, const struct value *v);

static void flow_list(struct flow *f, const struct value *l)
{
    for (; l->kind == VK_CONS && !f->result; l = clean_cdr(l))
        flow(f, clean_car(l));
}

/* A binding of v begins (d = 1) or ends (d = -1). */
static void scope(struct flow *f, const struct value *v, int d)
{
    if (v == f->t)
        f->hidden += (unsigned)d;
    else if (touches(f, v))
        f->shadow += (unsigned)d;
}

/* The binding of list cell l: 1, or 0 for one this pass removed (its
 * value moved to its reference: the walk meets it there), -1 when it is
 * no binding. */
static int live_binding(struct clean *c, const struct value *l, struct value **var,
                        struct value **val)
{
    if (clean_car(l) == c->dead)
        return 0;
    return clean_binding(c, clean_car(l), var, val) ? 1 : -1;
}

static void flow_let(struct flow *f, const struct value *v, bool star)
{
    const struct value *r = clean_cdr(v);
    if (r->kind != VK_CONS) {
        f->result = -1;
        return;
    }
    const struct value *l;
    for (l = clean_car(r); l->kind == VK_CONS && !f->result; l = clean_cdr(l)) {
        struct value *var, *val;
        int b = live_binding(f->c, l, &var, &val);
        if (b < 0) {
            f->result = -1;
            return;
        }
        if (b == 0)
            continue;
        flow(f, val);
        if (star)
            scope(f, var, 1);
    }
    for (l = clean_car(r); !star && l->kind == VK_CONS; l = clean_cdr(l)) {
        struct value *var, *val;
        if (live_binding(f->c, l, &var, &val) > 0)
            scope(f, var, 1);
    }
    flow_list(f, clean_cdr(r));
    for (l = clean_car(r); l->kind == VK_CONS; l = clean_cdr(l)) {
        struct value *var, *val;
        if (live_binding(f->c, l, &var, &val) > 0)
            scope(f, var, -1);
    }
}

/* Everything after the first of the forms of l is reached on some paths
 * only (if, and, or). */
static void flow_branches(struct flow *f, const struct value *l)
{
    if (l->kind != VK_CONS)
        return;
    flow(f, clean_car(l));
    f->branch++;
    flow_list(f, clean_cdr(l));
    f->branch--;
}

static void flow(struct flow *f, const struct value *v)
{
    if (f->result)
        return;
    if (!f->budget-- || hopeless(f)) {
        f->result = -1;
        return;
    }
    if (v->kind != VK_CONS) {
        if (v == f->t && !f->hidden) {
            found(f);
        } else if (clean_variable(f->c, v) && !clean_temp(v)) {
            f->read = true;
            if (v == f->void_var && !f->effect && !f->branch)
                f->eff = CE_NONE; /* were it void, this signals the same first */
            else if (!f->bound || !reads(f, v))
                f->effect = true; /* it may be void */
        }
        return;
    }
    const struct value *args = clean_cdr(v);
    switch (clean_kind(f->c, v)) {
    case CK_QUOTE:
        return;
    case CK_USER:
        opaque(f);
        return;
    case CK_FUNCTION:
    case CK_LAMBDA:
    case CK_CALL:
    case CK_FORM:
    case CK_DOLIST:
        /* the temporary may not move into these; they may run anything
         * (a closure only when called: making one does nothing) */
        if (clean_mentions(f->c, v, f->t))
            f->result = -1;
        else if (clean_kind(f->c, v) != CK_FUNCTION && clean_kind(f->c, v) != CK_LAMBDA)
            opaque(f);
        return;
    case CK_PURE:
    case CK_MEMBER:
    case CK_PARTIAL:
        flow_list(f, args);
        if (clean_call_effect(f->c, v) != CE_NONE)
            f->effect = true;
        return;
    case CK_FUNCALL:
        flow_list(f, args);
        opaque(f);
        return;
    case CK_SETQ:
        for (; args->kind == VK_CONS && clean_cdr(args)->kind == VK_CONS && !f->result;
             args = clean_cdr(clean_cdr(args))) {
            flow(f, clean_car(clean_cdr(args)));
            if (touches(f, clean_car(args)) || clean_car(args) == f->t)
                f->changed = true;
            f->effect = true;
        }
        return;
    case CK_IF:
    case CK_AND:
        flow_branches(f, args);
        return;
    case CK_COND:
        if (args->kind != VK_CONS)
            return;
        if (clean_car(args)->kind == VK_CONS)
            flow_branches(f, clean_car(args));
        f->branch++;
        for (args = clean_cdr(args); args->kind == VK_CONS; args = clean_cdr(args))
            flow_list(f, clean_car(args));
        f->branch--;
        return;
    case CK_PROGN:
        flow_list(f, args);
        return;
    case CK_LET:
    case CK_LET_STAR:
        flow_let(f, v, clean_kind(f->c, v) == CK_LET_STAR);
        return;
    }
}

/* Can the value of site s move to its reference?  The forms evaluated
 * between are the values of the bindings after s in its list (which do
 * not see s's temporary in a let), then the body. */
static bool movable(struct clean *c, const struct clean_site *s, struct value *val)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.c = c;
    f.t = s->var;
    f.budget = WALK_BUDGET;
    if (!collect(&f, val, 0))
        return false;
    f.bound = s->init_bound;
    f.eff = f.bound ? clean_effect_bound(c, val) : clean_effect(c, val);
    if (f.eff == CE_SIGNAL && clean_effect_bound(c, val) == CE_NONE) {
        /* the value can only signal for a void variable: if it is one
         * variable, a read of it before anything else happens takes the
         * signal over */
        size_t vars = 0;
        for (size_t i = 0; i < f.n_reads; i++)
            if (!clean_temp(f.reads[i])) {
                f.void_var = f.reads[i];
                vars++;
            }
        if (vars != 1)
            f.void_var = NULL;
    }
    bool star = clean_kind(c, s->owner) == CK_LET_STAR;
    const struct value *l;
    if (!star)
        f.hidden++;
    for (l = clean_cdr(s->cell); l->kind == VK_CONS && !f.result; l = clean_cdr(l)) {
        struct value *var, *v;
        int b = live_binding(c, l, &var, &v);
        if (b < 0)
            return false;
        if (b == 0)
            continue;
        flow(&f, v);
        if (star)
            scope(&f, var, 1);
    }
    if (!star) {
        f.hidden--;
        for (l = clean_car(clean_cdr(s->owner)); l != s->cell && l->kind == VK_CONS;
             l = clean_cdr(l)) {
            struct value *var, *v;
            if (live_binding(c, l, &var, &v) > 0)
                scope(&f, var, 1);
        }
        for (l = clean_cdr(s->cell); l->kind == VK_CONS; l = clean_cdr(l)) {
            struct value *var, *v;
            if (live_binding(c, l, &var, &v) > 0)
                scope(&f, var, 1);
        }
    }
    flow_list(&f, clean_cdr(clean_cdr(s->owner)));
    return f.result == 1;
}

/* A temporary t that was a binding's value (at slot from) moved to slot
 * to: the site of t that saw that reference (one bound before the
 * binding, so one the walk has still to look at) sees it there.  A value
 * that is a list moves with its cells: the references in it stay. */
static void follow(struct clean_site *sites, size_t i, const struct value *t,
                   struct value **from, struct value **to)
{
    while (i-- > 0)
        if (sites[i].var == t && sites[i].ref == from) {
            sites[i].ref = to;
            return;
        }
}

void clean_inline(struct clean *c, struct value **slot)
{
    size_t n = c->n_sites;
    struct clean_site *sites = c->sites ? c->sites : clean_sites(c, slot, &n);
    bool any = false;
    /* the last first: a value moved to its reference leaves the way free
     * for the bindings before it ((let* ((x0 (f a)) (x1 (f b))) (g x0 x1))
     * moves (f b), then (f a)) */
    for (size_t i = n; i-- > 0;) {
        struct clean_site *s = &sites[i];
        struct value *var, *val;
        if (s->kind != CLEAN_SITE_LET || s->refs != 1 || !s->ref_ok ||
            !clean_binding(c, clean_car(s->cell), &var, &val) || !movable(c, s, val))
            continue;
        struct value **from = &clean_cdr(clean_car(s->cell))->u.cons.car;
        *s->ref = val;
        s->cell->u.cons.car = c->dead;
        any = true;
        if (clean_temp(val))
            follow(sites, i, val, from, s->ref);
    }
    if (any) {
        clean_edited(c);
        clean_sweep(c, slot);
    }
}
