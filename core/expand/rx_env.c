/* rx_env.c - rx definitions: rx-define's global ones, rx-let's scopes,
 * and their expansion (rx--expand-def-symbol, rx--expand-def-form and
 * rx--expand-template with rx--substitute).
 *
 * Part of the rx translation (rx.h).  The environment lives for one run;
 * global definitions are dropped at each new input file.  Lookups scan
 * from the newest definition back: files define a handful of names.
 */
#include "expand/rx_int.h"

#include <string.h>

struct defs {
    struct rx_def *v;
    size_t n, cap;
};

struct rx_env {
    struct lisp *L;
    struct defs globals;  /* in definition order; the latest wins */
    struct defs locals;   /* innermost scope last; within a scope, its
                             bindings in reverse (the first one wins) */
    size_t *scopes;       /* locals.n when each open scope began */
    size_t n_scopes, cap_scopes;
};

struct rx_env *rx_env_new(struct lisp *L)
{
    struct rx_env *env = ARENA_NEW(L->a, struct rx_env);
    env->L = L;
    return env;
}

static void defs_push(struct arena *a, struct defs *d, struct rx_def def)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 8;
        d->v = arena_grow(a, d->v, d->cap * sizeof *d->v, cap * sizeof *d->v);
        d->cap = cap;
    }
    d->v[d->n++] = def;
}

static const struct rx_def *defs_find(const struct defs *d, const struct value *name)
{
    for (size_t i = d->n; i-- > 0;)
        if (d->v[i].name == name)
            return &d->v[i];
    return NULL;
}

bool rx_env_has_locals(const struct rx_env *env)
{
    return env && env->locals.n > 0;
}

void rx_env_begin_file(struct rx_env *env)
{
    env->globals.n = 0;
}

/* ---- checking definitions (rx--make-binding) ---- */

/* A definition of name from tail ([ARGS] RX), checked as rx.el does. */
static bool make_def(struct lisp *L, struct value *name, struct value *tail,
                     struct rx_def *def, struct rx_error *err)
{
    if (!value_symbolp(name))
        return rx_error_set(L, err, name, "Bad `rx' definition name: %s",
                            rx_print(L, name, false));
    if (rx_builtin_name(name))
        return rx_error_set(L, err, name, "Cannot redefine built-in rx name `%s'",
                            name->u.sym.name);
    long n = value_list_length(tail, L->nil);
    if (n != 1 && n != 2)
        return rx_error_set(L, err, value_consp(tail) ? tail : name,
                            "Bad `rx' definition of %s: %s", name->u.sym.name,
                            rx_print(L, tail, false));
    def->name = name;
    def->args = n == 2 ? value_car(tail) : NULL;
    def->body = value_car(n == 2 ? value_cdr(tail) : tail);
    if (!def->args)
        return true;
    /* (listp ARGS) and every element a symbol, checked in order: a dotted
     * tail is then taken as a list (car of a non-list) */
    struct value *a = def->args;
    bool ok = value_consp(a) || lisp_nilp(L, a);
    for (; ok && value_consp(a); a = value_cdr(a))
        ok = value_symbolp(value_car(a));
    if (!ok)
        return rx_error_set(L, err, def->args,
                            "Bad argument list for `rx' definition %s: %s",
                            name->u.sym.name, rx_print(L, def->args, false));
    if (!lisp_nilp(L, a))
        return rx_error_set(L, err, def->args, "Wrong type argument: listp, %s",
                            rx_print(L, a, false));
    return true;
}

bool rx_define_add(struct rx_env *env, struct value *name, struct value *args,
                   struct value *body, struct rx_error *err)
{
    struct lisp *L = env->L;
    struct value *tail = lisp_listv(L, body, NULL);
    if (args)
        tail = value_cons(L->a, args, tail);
    struct rx_def def;
    memset(err, 0, sizeof *err);
    if (!make_def(L, name, tail, &def, err))
        return false;
    defs_push(L->a, &env->globals, def);
    return true;
}

bool rx_define_form(struct rx_env *env, struct value *form, struct rx_error *err)
{
    struct lisp *L = env->L;
    struct rx_def def;
    memset(err, 0, sizeof *err);
    if (!value_consp(form) || !rx_sym_is(value_car(form), "rx-define"))
        return false;
    struct value *rest = value_cdr(form);
    if (!value_consp(rest))
        return rx_error_set(L, err, form, "Wrong number of arguments: rx-define, 0");
    if (!make_def(L, value_car(rest), value_cdr(rest), &def, err))
        return false;
    defs_push(L->a, &env->globals, def);
    return true;
}

bool rx_env_push_let(struct rx_env *env, struct value *bindings,
                     struct rx_error *err)
{
    struct lisp *L = env->L;
    memset(err, 0, sizeof *err);
    long n = value_list_length(bindings, L->nil);
    if (n < 0)
        return rx_not_list(L, err, bindings, bindings, true);
    struct rx_def *defs = ARENA_NEWN(L->a, struct rx_def, n ? (size_t)n : 1);
    size_t k = 0;
    for (struct value *b = bindings; value_consp(b); b = value_cdr(b)) {
        struct value *spec = value_car(b);
        if (!value_consp(spec))
            return rx_error_set(L, err, spec, "Bad `rx-let' binding: %s",
                                rx_print(L, spec, false));
        if (!make_def(L, value_car(spec), value_cdr(spec), &defs[k++], err)) {
            if (!value_consp(err->at)) /* a name has no place of its own */
                err->at = spec;
            return false;
        }
    }
    if (env->n_scopes == env->cap_scopes) {
        size_t cap = env->cap_scopes ? env->cap_scopes * 2 : 8;
        env->scopes = arena_grow(L->a, env->scopes, env->cap_scopes * sizeof *env->scopes,
                                 cap * sizeof *env->scopes);
        env->cap_scopes = cap;
    }
    env->scopes[env->n_scopes++] = env->locals.n;
    while (k > 0)
        defs_push(L->a, &env->locals, defs[--k]);
    return true;
}

void rx_env_pop(struct rx_env *env)
{
    if (env->n_scopes > 0)
        env->locals.n = env->scopes[--env->n_scopes];
}

/* ---- expanding definitions ---- */

/* rx--lookup-def: local definitions first (when the translation sees
 * them), then global ones. */
static const struct rx_def *lookup(const struct rx_tr *t, const struct value *name)
{
    if (!t->env)
        return NULL;
    const struct rx_def *d = t->locals ? defs_find(&t->env->locals, name) : NULL;
    return d ? d : defs_find(&t->env->globals, name);
}

void rx_def_push(struct rx_tr *t, const struct rx_def *def)
{
    if (t->n_active == t->cap_active) {
        size_t cap = t->cap_active ? t->cap_active * 2 : 8;
        t->active = arena_grow(t->L->a, t->active, t->cap_active * sizeof *t->active,
                               cap * sizeof *t->active);
        t->cap_active = cap;
    }
    t->active[t->n_active++] = def;
}

bool rx_expand_symbol(struct rx_tr *t, struct value *sym, struct value **out,
                      const struct rx_def **def)
{
    const struct rx_def *d = lookup(t, sym);
    *out = NULL;
    *def = d;
    if (!d)
        return true;
    if (d->args)
        return rx_fail(t, sym, "Not an `rx' symbol definition: %s", sym->u.sym.name);
    /* a plain name's expansion does not depend on where it is used: met
     * again inside itself, it recurses for ever */
    for (size_t i = 0; i < t->n_active; i++)
        if (t->active[i] == d)
            return rx_too_deep(t, sym, "rx definition `%s' expands into itself",
                               sym->u.sym.name);
    *out = d->body;
    return true;
}

/* Parameter bindings of one expansion: a parameter stands for the list
 * of values it splices in (one value; any number for &rest). */
struct binds {
    struct value **names, **vals;  /* vals: lists */
    size_t n;
};

static struct value *bound(const struct binds *b, const struct value *name)
{
    for (size_t i = b->n; i-- > 0;) /* a repeated name: the later one */
        if (b->names[i] == name)
            return b->vals[i];
    return NULL;
}

/* rx--expand-template's binding of arglist to the values. */
static bool bind(struct rx_tr *t, struct value *form, struct value **vals, size_t nv,
                 struct value *arglist, struct binds *b)
{
    struct value *op = value_car(form);
    struct lisp *L = t->L;
    size_t nargs = (size_t)value_list_length(arglist, L->nil), nreq = 0, k = 0;
    bool rest = false;
    for (struct value *f = arglist; value_consp(f); f = value_cdr(f), nreq++)
        if (rx_sym_is(value_car(f), "&rest")) {
            rest = true;
            break;
        }
    b->names = ARENA_NEWN(L->a, struct value *, nargs + 1);
    b->vals = ARENA_NEWN(L->a, struct value *, nargs + 1);
    b->n = 0;
    for (struct value *f = arglist; value_consp(f); f = value_cdr(f)) {
        struct value *name = value_car(f);
        if (rx_sym_is(name, "&rest")) {
            if (!value_consp(value_cdr(f)))
                return rx_fail(t, form, "Expanding rx def `%s': missing &rest parameter name",
                               op->u.sym.name);
            b->names[b->n] = value_car(value_cdr(f));
            b->vals[b->n++] = lisp_list(L, nv - k, vals + k);
            k = nv;
            break;
        }
        if (k == nv)
            return rx_fail(t, form, "Expanding rx def `%s': too few arguments (got %zu, "
                           "need %s%zu)", op->u.sym.name, nv, rest ? "at least " : "",
                           nreq);
        b->names[b->n] = name;
        b->vals[b->n++] = lisp_listv(L, vals[k++], NULL);
    }
    if (k < nv)
        return rx_fail(t, form, "Expanding rx def `%s': too many arguments (got %zu, "
                       "need %zu)", op->u.sym.name, nv, nargs);
    return true;
}

struct vals {
    struct value **v;
    size_t n, cap;
};

static void vals_push(struct arena *a, struct vals *s, struct value *v)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        s->v = arena_grow(a, s->v, s->cap * sizeof *s->v, cap * sizeof *s->v);
        s->cap = cap;
    }
    s->v[s->n++] = v;
}

static bool substitute(struct rx_tr *t, const struct binds *b, struct value *form,
                       struct vals *out);

/* A dotted pair (an interval): both halves must be one value each. */
static bool substitute_pair(struct rx_tr *t, const struct binds *b,
                            struct value *form, struct vals *out)
{
    struct vals car = {0}, cdr = {0};
    if (!substitute(t, b, value_car(form), &car) || !substitute(t, b, value_cdr(form), &cdr))
        return false;
    if (car.n != 1 || cdr.n != 1)
        return rx_fail(t, form, "Cannot substitute a &rest parameter into a dotted pair");
    vals_push(t->L->a, out, value_cons(t->L->a, car.v[0], cdr.v[0]));
    return true;
}

/* rx--substitute: the values form stands for (parameters spliced in,
 * the head of a list included). */
static bool substitute(struct rx_tr *t, const struct binds *b, struct value *form,
                       struct vals *out)
{
    struct value *v = value_symbolp(form) ? bound(b, form) : NULL;
    if (v) {
        /* every value spliced in counts: &rest parameters used twice
         * double the list at each level of definitions */
        for (; value_consp(v); v = value_cdr(v)) {
            if (!rx_steps(t, 1, form))
                return false;
            vals_push(t->L->a, out, value_car(v));
        }
        return true;
    }
    if (!value_consp(form)) {
        vals_push(t->L->a, out, form);
        return rx_steps(t, 1, form);
    }
    if (!rx_enter(t, form))
        return false;
    bool ok;
    struct value *d = value_cdr(form);
    if (!value_consp(d) && !lisp_nilp(t->L, d))
        ok = substitute_pair(t, b, form, out);
    else if (value_list_length(form, t->L->nil) < 0)
        ok = rx_not_list(t->L, t->err, form, form, true);
    else {
        struct vals items = {0};
        ok = true;
        for (struct value *e = form; ok && value_consp(e); e = value_cdr(e))
            ok = substitute(t, b, value_car(e), &items);
        if (ok)
            vals_push(t->L->a, out, lisp_list(t->L, items.n, items.v));
    }
    rx_leave(t);
    return ok;
}

bool rx_expand_form(struct rx_tr *t, struct value *form, struct value **out)
{
    struct value *op = value_car(form);
    *out = NULL;
    const struct rx_def *d = value_symbolp(op) ? lookup(t, op) : NULL;
    if (!d)
        return true;
    if (!d->args)
        return rx_fail(t, form, "Not an `rx' form definition: %s", op->u.sym.name);
    struct value **vals;
    size_t nv;
    struct binds b;
    struct vals r = {0};
    if (!rx_list(t, form, value_cdr(form), false, &vals, &nv)
        || !bind(t, form, vals, nv, d->args, &b) || !substitute(t, &b, d->body, &r))
        return false;
    if (r.n != 1)
        return rx_fail(t, form, "Expanding rx def `%s': must result in a single value",
                       op->u.sym.name);
    *out = r.v[0];
    return true;
}
