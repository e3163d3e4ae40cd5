/* clean_known.c - the pass `known': no test whose outcome is known.
 *
 * Where the tests on the way (clean_facts) tell what kind of object an
 * expression is, a test of it that cannot be seen running gives a known
 * value: a type predicate the byte compiler compiles to an instruction
 * (consp, listp, null, not, symbolp, integerp, numberp, stringp) and an
 * equality or membership test with constants (eq, eql, equal, memq,
 * memql, member) of an expression of another kind (a cons is eq to no
 * atom, a number is eq to no symbol...).  The test becomes t or nil, and
 * the if, cond, and and or around it fold: (if nil A B) is B, a cond
 * clause whose test is nil goes, (and X nil) is nil when X does nothing.
 * Emacs's pcase propagates what a test tells to the later clauses' tests
 * of the same value only by its tables (pcase.md 3.4, 3.5); these are
 * the tests it leaves, after (consp x) succeeded, (null x) or (eq x 'a).
 */
#include "match/clean_int.h"

static struct value *at(struct facts *f, struct value *v)
{
    struct clean *c = clean_facts_clean(f);
    const struct value *h = clean_car(v), *r = clean_cdr(v);
    if (r->kind != VK_CONS || clean_kind(c, v) == CK_USER)
        return NULL;
    /* the form first, the facts (a look at each) only for a test they
     * may decide */
    uint8_t yes, no;
    if (clean_cdr(r) == c->L->nil) {
        if (clean_head_kind(h) != CK_PURE || !clean_facts_pred(h, &yes, &no) ||
            no == CLEAN_KIND_ALL)
            return NULL;
        uint8_t kinds = clean_facts_kinds(f, clean_car(r));
        if (!(kinds & ~yes))
            return c->L->t; /* it is one of what the (exact) predicate accepts */
        return kinds & yes ? NULL : c->L->nil;
    }
    if (clean_cdr(clean_cdr(r)) != c->L->nil)
        return NULL;
    const struct value *k = clean_constant(c, clean_car(clean_cdr(r)));
    uint8_t of = k ? clean_facts_equal_kinds(c, h, k) : 0;
    return of && !(clean_facts_kinds(f, clean_car(r)) & of) ? c->L->nil : NULL;
}

void clean_known(struct clean *c, struct value **slot)
{
    clean_facts_walk(c, slot, at, true);
}

struct clean_facts_dry *clean_known_dry(struct clean *c, struct value **slot,
                                        const struct value *go)
{
    clean_ran(c, CLEAN_PASS_KNOWN);
    return clean_facts_dry(c, slot, at, go);
}

void clean_known_at(struct clean *c, const struct clean_facts_at *k, struct value **place)
{
    clean_facts_walk_at(c, k, place, at);
}
