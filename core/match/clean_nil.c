/* clean_nil.c - the pass `nil': no code for the value nil a form has
 * anyway.
 *
 * (if C A nil) is (if C A), and (if C nil) nil when C does nothing but
 * compute its value; a cond's last clause whose body is nil and
 * whose test does nothing else ((t nil)) goes, since a cond none of
 * whose clauses matches is nil too; a cond of one clause (TEST FORM) is
 * (if TEST FORM), of two whose second is (t ELSE...) and whose first has
 * one form (if TEST FORM ELSE...); a cond of no clause is nil, of a first
 * clause (t BODY...) its body, a progn of one form that form.
 */
#include "match/clean_int.h"

static bool is_nil_body(const struct clean *c, const struct value *forms)
{
    return forms->kind == VK_CONS && clean_cdr(forms) == c->L->nil &&
           clean_car(forms) == c->L->nil;
}

/* The cell of the atom the whole form ends with, when generated code
 * holds it (the last element of the last element... of the form), else
 * NULL. */
static const struct value *last_cell(const struct clean *c)
{
    const struct value *v = *c->root;
    for (unsigned d = 0; v->kind == VK_CONS && d <= CLEAN_MAX_DEPTH; d++) {
        if (clean_mark_of(c->marks, v) == CLEAN_USER || clean_car(v) == c->L->quote)
            return NULL;
        while (clean_cdr(v)->kind == VK_CONS)
            v = clean_cdr(v);
        if (clean_car(v)->kind != VK_CONS)
            return v;
        v = clean_car(v);
    }
    return NULL;
}

/* Must the code stay (clean_hooks.keep)?  Only where the form ends: the
 * comments of a clause written last with a nil body stand there, after
 * the code of every clause before it. */
static bool kept(const struct clean *c, const struct value *code)
{
    return c->hooks && c->hooks->keep && code == last_cell(c) &&
           c->hooks->keep(c->hooks->ctx, code);
}

void clean_tidy_cond(struct clean *c, struct value **slot)
{
    struct value *v = *slot, **last = NULL;
    for (struct value **p = &v->u.cons.cdr; (*p)->kind == VK_CONS; p = &(*p)->u.cons.cdr)
        last = p;
    if (last) {
        struct value *cl = clean_car(*last);
        if (cl->kind == VK_CONS && is_nil_body(c, clean_cdr(cl)) &&
            clean_effect(c, clean_car(cl)) == CE_NONE && !kept(c, clean_cdr(cl))) {
            *last = c->L->nil;
            clean_edited(c);
        }
    }
    struct value *cls = clean_cdr(v);
    if (cls == c->L->nil) {
        *slot = c->L->nil;
        clean_edited(c);
        return;
    }
    struct value *first = clean_car(cls);
    if (first->kind == VK_CONS && clean_car(first) == c->L->t &&
        clean_cdr(first)->kind == VK_CONS) {
        *slot = clean_progn(c, clean_cdr(first)); /* (cond (t BODY...)) */
        clean_moved(c, v, *slot);
        clean_edited(c);
        return;
    }
    if (first->kind != VK_CONS || clean_cdr(first)->kind != VK_CONS ||
        clean_cdr(clean_cdr(first)) != c->L->nil)
        return;
    struct value *rest = clean_cdr(cls);
    if (rest == c->L->nil) {
        *slot = clean_list3(c, c->sym[CS_IF], clean_car(first), clean_car(clean_cdr(first)));
        clean_moved(c, clean_cdr(first), clean_cdr(clean_cdr(*slot))); /* an atom's cell */
        clean_moved(c, v, *slot);
        clean_edited(c);
        return;
    }
    struct value *second = clean_car(rest);
    if (clean_cdr(rest) == c->L->nil && second->kind == VK_CONS &&
        clean_car(second) == c->L->t && clean_cdr(second)->kind == VK_CONS)
    {
        *slot = clean_cons(c, c->sym[CS_IF],
                           clean_cons(c, clean_car(first),
                                      clean_cons(c, clean_car(clean_cdr(first)),
                                                 clean_cdr(second))));
        clean_moved(c, clean_cdr(first), clean_cdr(clean_cdr(*slot)));
        clean_moved(c, v, *slot);
        clean_edited(c);
    }
}

static void at(struct clean *c, struct value **slot)
{
    struct value *v = *slot, *args = clean_cdr(v);
    switch (clean_kind(c, v)) {
    case CK_IF:
        if (args->kind == VK_CONS && clean_cdr(args)->kind == VK_CONS &&
            is_nil_body(c, clean_cdr(clean_cdr(args))) && !kept(c, clean_cdr(clean_cdr(args)))) {
            clean_cdr(args)->u.cons.cdr = c->L->nil;
            clean_edited(c);
        }
        /* (if TEST nil): nil, when the test does nothing else */
        if (args->kind == VK_CONS && clean_cdr(args)->kind == VK_CONS &&
            is_nil_body(c, clean_cdr(args)) && clean_effect(c, clean_car(args)) == CE_NONE &&
            !kept(c, clean_cdr(args))) {
            *slot = c->L->nil;
            clean_edited(c);
        }
        return;
    case CK_COND:
        clean_tidy_cond(c, slot);
        return;
    case CK_PROGN:
        if (clean_car(v) == c->sym[CS_PROGN] && args->kind == VK_CONS &&
            clean_cdr(args) == c->L->nil) {
            *slot = clean_car(args);
            clean_edited(c);
        }
        return;
    default:
        return;
    }
}

void clean_nil(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
