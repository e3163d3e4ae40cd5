/* clean_memq.c - the pass `memq': an or of constants tests them in the
 * order they are written.
 *
 * The emitter writes the membership test of an `or' of constants as
 * Emacs does, its list in the reverse of the written order (pcase.md
 * 3.6).  What memq, memql and member return is the tail of the list from
 * the element found, so the order shows only where the value is used for
 * more than its truth: the list is reversed where only its truth counts
 * (the test of an if, of a cond clause with a body, an operand of and, or,
 * not and null whose own value only counts so, a form whose value is not
 * used at all).  Only the tests the emitter marked are touched.
 */
#include "match/clean_int.h"

static void walk(struct clean *c, struct value **slot, bool truth, unsigned depth);

/* The forms of list l: the last one's value is the list's (inheriting
 * truth), the others' values are not used. */
static void walk_body(struct clean *c, struct value *l, bool truth, unsigned depth)
{
    for (; l->kind == VK_CONS; l = clean_cdr(l))
        walk(c, &l->u.cons.car, clean_cdr(l)->kind == VK_CONS || truth, depth);
}

static void walk_all(struct clean *c, struct value *l, bool truth, unsigned depth)
{
    for (; l->kind == VK_CONS; l = clean_cdr(l))
        walk(c, &l->u.cons.car, truth, depth);
}

static struct value *reversed(struct clean *c, struct value *l)
{
    struct value *r = c->L->nil;
    for (; l->kind == VK_CONS; l = clean_cdr(l))
        r = clean_cons(c, clean_car(l), r);
    return r;
}

static void walk(struct clean *c, struct value **slot, bool truth, unsigned depth)
{
    struct value *v = *slot;
    if (v->kind != VK_CONS || depth > CLEAN_MAX_DEPTH)
        return;
    struct value *args = clean_cdr(v);
    depth++;
    if (truth && clean_mark_of(c->marks, v) == CLEAN_MEMBER && args->kind == VK_CONS &&
        clean_cdr(args)->kind == VK_CONS) {
        struct value *q = clean_car(clean_cdr(args));
        if (q->kind == VK_CONS && clean_car(q) == c->L->quote && clean_cdr(q)->kind == VK_CONS &&
            value_list_length(clean_car(clean_cdr(q)), c->L->nil) >= 0) {
            clean_cdr(args)->u.cons.car =
                clean_list2(c, c->L->quote, reversed(c, clean_car(clean_cdr(q))));
            clean_edited(c);
        }
        return;
    }
    switch (clean_kind(c, v)) {
    case CK_IF:
        if (args->kind != VK_CONS)
            return;
        walk(c, &args->u.cons.car, true, depth);
        if (clean_cdr(args)->kind == VK_CONS) {
            walk(c, &clean_cdr(args)->u.cons.car, truth, depth);
            walk_body(c, clean_cdr(clean_cdr(args)), truth, depth);
        }
        return;
    case CK_COND:
        for (; args->kind == VK_CONS; args = clean_cdr(args)) {
            struct value *cl = clean_car(args);
            if (cl->kind != VK_CONS)
                continue;
            walk(c, &cl->u.cons.car, truth || clean_cdr(cl)->kind == VK_CONS, depth);
            walk_body(c, clean_cdr(cl), truth, depth);
        }
        return;
    case CK_AND:
    case CK_PROGN:
        if (clean_car(v) == c->sym[CS_AND] || clean_car(v) == c->sym[CS_OR] ||
            clean_car(v) == c->sym[CS_PROGN])
            walk_body(c, args, truth, depth);
        return;
    case CK_LET:
    case CK_LET_STAR:
        if (args->kind != VK_CONS)
            return;
        for (struct value *b = clean_car(args); b->kind == VK_CONS; b = clean_cdr(b)) {
            struct value *x = clean_car(b);
            if (x->kind == VK_CONS && clean_cdr(x)->kind == VK_CONS)
                walk(c, &clean_cdr(x)->u.cons.car, false, depth);
        }
        walk_body(c, clean_cdr(args), truth, depth);
        return;
    case CK_LAMBDA:
        if (args->kind == VK_CONS)
            walk_body(c, clean_cdr(args), false, depth);
        return;
    case CK_FUNCTION:
        if (args->kind == VK_CONS && clean_car(args)->kind == VK_CONS &&
            clean_car(clean_car(args)) == c->L->lambda &&
            clean_kind(c, clean_car(args)) != CK_USER)
            walk(c, &args->u.cons.car, false, depth);
        return;
    case CK_PURE:
        walk_all(c, args, clean_car(v) == c->sym[CS_NOT] || clean_car(v) == c->sym[CS_NULL] ||
                              clean_car(v) == c->sym[CS_IGNORE],
                 depth);
        return;
    case CK_DOLIST:
        if (args->kind != VK_CONS)
            return;
        if (clean_car(args)->kind == VK_CONS)
            walk_all(c, clean_cdr(clean_car(args)), false, depth);
        walk_all(c, clean_cdr(args), true, depth); /* the body's values are unused */
        return;
    case CK_MEMBER:
    case CK_PARTIAL:
    case CK_FUNCALL:
    case CK_SETQ:
        walk_all(c, args, false, depth);
        return;
    default:
        return;
    }
}

void clean_memq(struct clean *c, struct value **slot)
{
    walk(c, slot, false, 0);
}
