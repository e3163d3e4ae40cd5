/* clean_lets.c - the pass `lets': one let* for nested lets, let for one
 * binding or independent ones.
 *
 * (let* (A...) (let* (B...) BODY...)) is (let* (A... B...) BODY...) when
 * the inner let is the whole body of the outer one.  A let of several
 * bindings becomes sequential (and a let* parallel) only when that
 * changes nothing: no value reads a variable bound before it in the same
 * list, and none calls unknown code after a variable that is no
 * temporary is bound (it could be a special variable the code reads).
 * Then a let* of one binding, or of independent ones, is written let,
 * and a let of no binding is its body.
 */
#include "match/clean_int.h"

/* Up to this many bindings the check compares each pair; above, it keeps
 * the bound variables in a set. */
#define PAIRWISE 16

/* Can the bindings of list b be evaluated in sequence as well as in
 * parallel (see the file comment)? */
static bool independent(struct clean *c, const struct value *b)
{
    size_t n = 0;
    const struct value *l;
    for (l = b; l->kind == VK_CONS; l = clean_cdr(l))
        n++;
    struct clean_marks *bound = n > PAIRWISE ? clean_marks_new(c->L->a) : NULL;
    bool user = false; /* a variable that is no temporary is bound */
    for (l = b; l->kind == VK_CONS; l = clean_cdr(l)) {
        struct value *var, *val;
        if (!clean_binding(c, clean_car(l), &var, &val))
            return false;
        if (user && clean_effect(c, val) == CE_ANY)
            return false;
        if (bound) {
            if (clean_set_has(bound, var) || clean_mentions_any(c, val, bound))
                return false;
            clean_set_add(bound, var);
        } else {
            for (const struct value *k = b; k != l; k = clean_cdr(k)) {
                struct value *kv, *kval;
                clean_binding(c, clean_car(k), &kv, &kval);
                if (kv == var || clean_mentions(c, val, kv))
                    return false;
            }
        }
        user |= !clean_temp(var);
    }
    return true;
}

/* Can the list b be read in sequence: one binding, or independent ones? */
static bool sequential(struct clean *c, const struct value *b)
{
    return clean_cdr(b) == c->L->nil || independent(c, b);
}

static void at(struct clean *c, struct value **slot)
{
    struct value *v = *slot;
    enum clean_kind k = clean_kind(c, v);
    struct value *args = clean_cdr(v);
    if ((k != CK_LET && k != CK_LET_STAR) || args->kind != VK_CONS)
        return;
    struct value *binds = clean_car(args), *body = clean_cdr(args);
    if (binds == c->L->nil) {
        *slot = clean_progn(c, body);
        clean_moved(c, v, *slot);
        clean_edited(c);
        return;
    }
    if (k == CK_LET && !sequential(c, binds))
        return;
    /* v's bindings may now be read in sequence */
    struct value *in = body->kind == VK_CONS && clean_cdr(body) == c->L->nil
                           ? clean_car(body) : NULL;
    enum clean_kind ik = in && in->kind == VK_CONS ? clean_kind(c, in) : CK_CALL;
    if ((ik == CK_LET || ik == CK_LET_STAR) && clean_cdr(in)->kind == VK_CONS &&
        clean_car(clean_cdr(in))->kind == VK_CONS &&
        (ik == CK_LET_STAR || sequential(c, clean_car(clean_cdr(in))))) {
        /* one let*: the outer bindings, then the inner ones */
        struct value **tail = &args->u.cons.car;
        while ((*tail)->kind == VK_CONS)
            tail = &(*tail)->u.cons.cdr;
        *tail = clean_car(clean_cdr(in));
        args->u.cons.cdr = clean_cdr(clean_cdr(in));
        binds = clean_car(args);
        clean_moved(c, in, v);
        clean_edited(c);
    }
    struct value *head = sequential(c, binds) ? c->sym[CS_LET] : c->sym[CS_LET_STAR];
    if (clean_car(v) != head) {
        v->u.cons.car = head;
        clean_edited(c);
    }
}

void clean_lets(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
