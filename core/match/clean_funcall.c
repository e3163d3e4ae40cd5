/* clean_funcall.c - the pass `funcall': a lambda called in place is a let.
 *
 * (funcall #'(lambda (P...) BODY...) A...) evaluates the A in order,
 * binds each P to its value (lexically or dynamically, as a let would in
 * the same file) and runs BODY: it is (let ((P A)...) BODY...) when the
 * parameters are plain symbols, as many as the arguments, and BODY does
 * not start with an interactive or declare form.  A `let' pattern's
 * (funcall #'(lambda (_) E) X), whose E does not read `_', is just E when
 * X is a constant or a temporary, or a variable read before on every
 * path or that E reads before anything else happens (were it void, E
 * signals the same).  The body of a user's
 * lambda stays user code.
 */
#include "match/clean_int.h"

#include <string.h>

/* The lambda of a funcall's function form (#'(lambda ...) or (lambda
 * ...)), or NULL. */
static struct value *lambda_of(struct clean *c, struct value *f)
{
    if (f->kind != VK_CONS)
        return NULL;
    if (clean_car(f) == c->L->function) {
        struct value *r = clean_cdr(f);
        if (r->kind != VK_CONS || clean_cdr(r) != c->L->nil)
            return NULL;
        f = clean_car(r);
    }
    if (f->kind != VK_CONS || clean_car(f) != c->L->lambda ||
        clean_cdr(f)->kind != VK_CONS)
        return NULL;
    return f;
}

static bool named(const struct value *v, const char *name)
{
    return v->kind == VK_SYMBOL && v->u.sym.interned && !strcmp(v->u.sym.name, name);
}

/* Can body be the body of a let: forms, the first no interactive or
 * declare form. */
static bool plain_body(const struct value *body)
{
    if (body->kind != VK_CONS)
        return false;
    const struct value *f = clean_car(body);
    return f->kind != VK_CONS ||
           !(named(clean_car(f), "interactive") || named(clean_car(f), "declare"));
}

/* The let bindings of params to args, or NULL when they do not pair up
 * (a lambda-list keyword, a non-symbol, a count that differs). */
static struct value *pairs(struct clean *c, struct value *params, struct value *args)
{
    struct value *out = c->L->nil, **tail = &out;
    for (; params->kind == VK_CONS; params = clean_cdr(params), args = clean_cdr(args)) {
        struct value *p = clean_car(params);
        if (args->kind != VK_CONS || !clean_variable(c, p) || p->u.sym.name[0] == '&')
            return NULL;
        *tail = clean_cons(c, clean_list2(c, p, clean_car(args)), c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    return params == c->L->nil && args == c->L->nil ? out : NULL;
}

static bool read(const struct value *const *dom, size_t n, const struct value *v)
{
    for (size_t i = 0; i < n; i++)
        if (dom[i] == v)
            return true;
    return false;
}

static void at(struct clean *c, struct value **slot, const struct value *const *dom,
               size_t n_dom)
{
    struct value *v = *slot;
    if (clean_kind(c, v) != CK_FUNCALL || clean_car(v) != c->sym[CS_FUNCALL] ||
        clean_cdr(v)->kind != VK_CONS)
        return;
    struct value *lam = lambda_of(c, clean_car(clean_cdr(v)));
    if (!lam)
        return;
    struct value *params = clean_car(clean_cdr(lam)), *body = clean_cdr(clean_cdr(lam));
    struct value *args = clean_cdr(clean_cdr(v));
    struct value *binds = plain_body(body) ? pairs(c, params, args) : NULL;
    if (!binds)
        return;
    clean_edited(c);
    if (clean_mark_of(c->marks, lam) == CLEAN_USER)
        for (struct value *l = body; l->kind == VK_CONS; l = clean_cdr(l))
            clean_mark(c->marks, clean_car(l), CLEAN_USER);
    struct value *us = c->sym[CS_UNDERSCORE];
    if (binds != c->L->nil && clean_cdr(binds) == c->L->nil &&
        clean_car(clean_car(binds)) == us && clean_car(args)->kind != VK_CONS &&
        !clean_mentions(c, body, us) &&
        (clean_effect(c, clean_car(args)) == CE_NONE || read(dom, n_dom, clean_car(args)) ||
         clean_reads_first(c, body, clean_car(args)))) {
        *slot = clean_progn(c, body);
        clean_moved(c, v, *slot);
        return;
    }
    *slot = clean_cons(c, binds == c->L->nil ? c->sym[CS_PROGN] : c->sym[CS_LET],
                       binds == c->L->nil ? body : clean_cons(c, binds, body));
    clean_moved(c, v, *slot);
}

void clean_funcall(struct clean *c, struct value **slot)
{
    clean_visit_dom(c, slot, at);
}
