/* clean_merge.c - the pass `merge': clauses with the same body, one test.
 *
 * In a cond, a clause whose test compares a variable V with constants
 * ((eq V 'a), (eql V 1), (equal V "s"), (null V), (memq V '(...))) and
 * whose body is the same code as an earlier clause's that compares V
 * with constants too joins that clause: its constants are added to the
 * earlier test, which becomes one memq (memql when an eql test is among
 * them, member when an equal one is: each constant is still compared as
 * it was, since equal is eql on numbers and eq on symbols).  The clauses
 * between must all compare V with constants, none of them one of the
 * moved clause's: then no value takes another clause than before, and
 * the tests skipped or moved are pure.  Only the WINDOW clauses before a
 * clause are looked at, so long conds stay linear.  A cond of two clauses
 * or more that compare one variable with constants is compiled with a
 * jump table (switch): merging stops when two such clauses are left.
 *
 * A clause whose test does nothing but compute its value and whose body
 * is the same code as the body of the (t ...) clause right after it goes
 * (the body runs either way), and so does the test of an if whose two
 * branches are the same code.
 */
#include "match/clean_int.h"

#define WINDOW 8

/* A test comparing variable var with the constants of list consts, by
 * eq (level 0), eql (1) or equal (2). */
struct ctest {
    struct value *var;
    struct value *consts;
    int level;
};

/* Clause `from` of a cond joined clause `into`: the caller hears of it
 * (clean_hooks.joined). */
static void tell_joined(struct clean *c, const struct value *into, const struct value *from)
{
    clean_note_join(c, clean_cdr(into), clean_cdr(from));
}

static bool quoted_list(const struct clean *c, const struct value *q, struct value **l)
{
    if (q->kind != VK_CONS || clean_car(q) != c->L->quote || clean_cdr(q)->kind != VK_CONS)
        return false;
    *l = clean_car(clean_cdr(q));
    return value_list_length(*l, c->L->nil) >= 1;
}

/* The constant a form evaluates to, when it is a constant. */
static bool constant(const struct clean *c, const struct value *v, struct value **k)
{
    if (v->kind == VK_CONS) {
        if (clean_car(v) != c->L->quote || clean_cdr(v)->kind != VK_CONS ||
            clean_cdr(clean_cdr(v)) != c->L->nil)
            return false;
        *k = clean_car(clean_cdr(v));
        return true;
    }
    if (v->kind == VK_SYMBOL && clean_variable(c, v))
        return false;
    *k = (struct value *)v;
    return true;
}

static bool ctest_of(struct clean *c, const struct value *t, struct ctest *out)
{
    if (t->kind != VK_CONS || clean_kind(c, t) == CK_USER)
        return false;
    const struct value *h = clean_car(t), *r = clean_cdr(t);
    if (r->kind != VK_CONS || !clean_variable(c, clean_car(r)))
        return false;
    out->var = clean_car(r);
    if (h == c->sym[CS_NULL]) {
        out->consts = clean_cons(c, c->L->nil, c->L->nil);
        out->level = 0;
        return clean_cdr(r) == c->L->nil;
    }
    if (clean_cdr(r)->kind != VK_CONS || clean_cdr(clean_cdr(r)) != c->L->nil)
        return false;
    const struct value *a = clean_car(clean_cdr(r));
    struct value *k;
    if (h == c->sym[CS_EQ] || h == c->sym[CS_EQL] || h == c->sym[CS_EQUAL]) {
        if (!constant(c, a, &k))
            return false;
        out->consts = clean_cons(c, k, c->L->nil);
        out->level = h == c->sym[CS_EQ] ? 0 : h == c->sym[CS_EQL] ? 1 : 2;
        return true;
    }
    if (h == c->sym[CS_MEMQ] || h == c->sym[CS_MEMQL] || h == c->sym[CS_MEMBER]) {
        if (!quoted_list(c, a, &out->consts))
            return false;
        out->level = h == c->sym[CS_MEMQ] ? 0 : h == c->sym[CS_MEMQL] ? 1 : 2;
        return true;
    }
    return false;
}

/* Do the constant lists a and b have no element in common (by equal,
 * which no test's equality exceeds)? */
static bool disjoint(const struct value *a, const struct value *b)
{
    for (; a->kind == VK_CONS; a = clean_cdr(a))
        for (const struct value *l = b; l->kind == VK_CONS; l = clean_cdr(l))
            if (value_equal(clean_car(a), clean_car(l)))
                return false;
    return true;
}

/* The test of the constants of x and then y's (without repeats). */
static struct value *joined(struct clean *c, const struct ctest *x, const struct ctest *y)
{
    struct value *l = c->L->nil, **tail = &l;
    for (int pass = 0; pass < 2; pass++)
        for (const struct value *k = pass ? y->consts : x->consts; k->kind == VK_CONS;
             k = clean_cdr(k)) {
            bool seen = false;
            for (const struct value *m = l; m->kind == VK_CONS && !seen; m = clean_cdr(m))
                seen = value_equal(clean_car(m), clean_car(k));
            if (!seen) {
                *tail = clean_cons(c, clean_car(k), c->L->nil);
                tail = &(*tail)->u.cons.cdr;
            }
        }
    int level = x->level > y->level ? x->level : y->level;
    struct value *fn = c->sym[level == 0 ? CS_MEMQ : level == 1 ? CS_MEMQL : CS_MEMBER];
    return clean_list3(c, fn, x->var, clean_list2(c, c->L->quote, l));
}

/* How many clauses of cond v compare variable var with constants. */
static size_t on_var(struct clean *c, const struct value *v, const struct value *var)
{
    size_t n = 0;
    for (const struct value *l = clean_cdr(v); l->kind == VK_CONS; l = clean_cdr(l)) {
        struct ctest t;
        if (clean_car(l)->kind == VK_CONS && ctest_of(c, clean_car(clean_car(l)), &t) &&
            t.var == var)
            n++;
    }
    return n;
}

/* Clauses (TEST BODY...) (t BODY...) with a pure TEST: only the second;
 * (if TEST A A) with a pure TEST: A.  True when v changed. */
static bool same_branches(struct clean *c, struct value **slot)
{
    struct value *v = *slot, *args = clean_cdr(v);
    if (clean_kind(c, v) == CK_IF) {
        if (args->kind == VK_CONS && clean_cdr(args)->kind == VK_CONS &&
            clean_cdr(clean_cdr(args))->kind == VK_CONS &&
            clean_cdr(clean_cdr(clean_cdr(args))) == c->L->nil &&
            clean_same_code(c, clean_cons(c, clean_car(clean_cdr(args)), c->L->nil),
                            clean_cdr(clean_cdr(args)), true) &&
            clean_effect(c, clean_car(args)) == CE_NONE) {
            *slot = clean_car(clean_cdr(args));
            return true;
        }
        return false;
    }
    bool changed = false;
    for (struct value **p = &v->u.cons.cdr; (*p)->kind == VK_CONS; p = &(*p)->u.cons.cdr) {
        struct value *cl = clean_car(*p), *next = clean_cdr(*p);
        if (next->kind != VK_CONS || cl->kind != VK_CONS || clean_car(next)->kind != VK_CONS)
            continue;
        struct value *nc = clean_car(next);
        if (clean_car(nc) == c->L->t && clean_cdr(cl)->kind == VK_CONS &&
            clean_same_code(c, clean_cdr(cl), clean_cdr(nc), true) &&
            clean_effect(c, clean_car(cl)) == CE_NONE) {
            tell_joined(c, nc, cl);
            *p = next;
            changed = true;
        }
    }
    return changed;
}

/* Is v a generated (HEAD X...) of symbol head? */
static bool generated(const struct clean *c, const struct value *v, enum clean_sym head)
{
    return v->kind == VK_CONS && clean_car(v) == c->sym[head] &&
           clean_mark_of(c->marks, v) != CLEAN_USER;
}

/* Are all of the forms of list l pure? */
static bool all_pure(const struct clean *c, const struct value *l)
{
    for (; l->kind == VK_CONS; l = clean_cdr(l))
        if (clean_effect(c, clean_car(l)) != CE_NONE)
            return false;
    return true;
}

/* (and ITEMS...) of the list items (nil: t), the one item alone. */
static struct value *and_of(struct clean *c, struct value *items)
{
    if (items->kind == VK_CONS && clean_cdr(items) == c->L->nil)
        return clean_car(items);
    return clean_cons(c, c->sym[CS_AND], items);
}

/* One test for two clauses' tests a then b: (and (or A B) C...) when a
 * is (and A... C...) and b (and B... C...), all pure (the same tests
 * run, C once where it ran twice); else (or a b), a's or continued. */
static struct value *either(struct clean *c, struct value *a, struct value *b)
{
    if (generated(c, a, CS_AND) && generated(c, b, CS_AND) && all_pure(c, clean_cdr(a)) &&
        all_pure(c, clean_cdr(b))) {
        size_t na = value_list_length(clean_cdr(a), c->L->nil);
        size_t nb = value_list_length(clean_cdr(b), c->L->nil), k = 0;
        const struct value *sa = clean_cdr(a), *sb = clean_cdr(b);
        for (size_t i = 0; i + nb < na; i++)
            sa = clean_cdr(sa);
        for (size_t i = 0; i + na < nb; i++)
            sb = clean_cdr(sb);
        /* the longest equal tail: where the two lists agree to the end */
        size_t n = na < nb ? na : nb, pos = 0;
        for (size_t i = 0; i < n; i++, sa = clean_cdr(sa), sb = clean_cdr(sb))
            if (!clean_same(c, clean_car(sa), clean_car(sb)))
                pos = i + 1;
        k = n - pos;
        if (k > 0 && k < na && k < nb) {
            struct value *pa = c->L->nil, **ta = &pa, *pb = c->L->nil, **tb = &pb;
            struct value *l = clean_cdr(a);
            for (size_t i = 0; i + k < na; i++, l = clean_cdr(l)) {
                *ta = clean_cons(c, clean_car(l), c->L->nil);
                ta = &(*ta)->u.cons.cdr;
            }
            struct value *tail = l;
            l = clean_cdr(b);
            for (size_t i = 0; i + k < nb; i++, l = clean_cdr(l)) {
                *tb = clean_cons(c, clean_car(l), c->L->nil);
                tb = &(*tb)->u.cons.cdr;
            }
            struct value *alt = clean_list3(c, c->sym[CS_OR], and_of(c, pa), and_of(c, pb));
            return clean_cons(c, c->sym[CS_AND], clean_cons(c, alt, tail));
        }
    }
    if (generated(c, a, CS_OR)) {
        struct value *l = a;
        while (clean_cdr(l)->kind == VK_CONS)
            l = clean_cdr(l);
        l->u.cons.cdr = clean_cons(c, b, c->L->nil);
        return a;
    }
    return clean_list3(c, c->sym[CS_OR], a, b);
}

/* Clauses next to each other with the same body (the goto of a block
 * both reach, the same error): one clause whose test is either of
 * theirs, run in the same order as before.  Constant comparisons are
 * left to the merge below (clauses of them make jump tables). */
static bool join_adjacent(struct clean *c, struct value *v)
{
    bool any = false;
    for (struct value *p = clean_cdr(v); p->kind == VK_CONS && clean_cdr(p)->kind == VK_CONS;) {
        struct value *a = clean_car(p), *b = clean_car(clean_cdr(p));
        struct ctest ta, tb;
        if (a->kind != VK_CONS || b->kind != VK_CONS || clean_cdr(a)->kind != VK_CONS ||
            clean_car(a) == c->L->t || clean_car(b) == c->L->t ||
            !clean_same_code(c, clean_cdr(a), clean_cdr(b), true) || ctest_of(c, clean_car(a), &ta) ||
            ctest_of(c, clean_car(b), &tb)) {
            p = clean_cdr(p);
            continue;
        }
        a->u.cons.car = either(c, clean_car(a), clean_car(b));
        tell_joined(c, a, b);
        p->u.cons.cdr = clean_cdr(clean_cdr(p));
        any = true;
    }
    return any;
}

static void at(struct clean *c, struct value **slot)
{
    if (same_branches(c, slot) && clean_kind(c, *slot) == CK_COND)
        clean_tidy_cond(c, slot);
    if (clean_kind(c, *slot) == CK_COND && join_adjacent(c, *slot))
        clean_tidy_cond(c, slot);
    struct value *v = *slot;
    if (v->kind != VK_CONS || clean_kind(c, v) != CK_COND)
        return;
    struct value *window[WINDOW];
    size_t n = 0;
    bool any = false;
    for (struct value **p = &v->u.cons.cdr; (*p)->kind == VK_CONS;) {
        struct value *cl = clean_car(*p);
        struct ctest tj;
        if (cl->kind != VK_CONS) {
            n = 0;
            p = &(*p)->u.cons.cdr;
            continue;
        }
        bool merged = false;
        /* a body of nil is left alone: where the cond's value is not
         * used, the byte compiler would say that memq's is not */
        if (clean_cdr(cl)->kind == VK_CONS && !(clean_car(clean_cdr(cl)) == c->L->nil && clean_cdr(clean_cdr(cl)) == c->L->nil) &&
            ctest_of(c, clean_car(cl), &tj)) {
            for (size_t i = n; i-- > 0;) {
                struct value *ci = window[i];
                struct ctest ti;
                if (!ctest_of(c, clean_car(ci), &ti) || ti.var != tj.var)
                    break;
                if (clean_same_code(c, clean_cdr(ci), clean_cdr(cl), true) && on_var(c, v, tj.var) > 2) {
                    ci->u.cons.car = joined(c, &ti, &tj);
                    tell_joined(c, ci, cl);
                    merged = true;
                    break;
                }
                if (!disjoint(ti.consts, tj.consts))
                    break;
            }
        }
        if (merged) {
            *p = clean_cdr(*p); /* the clause joined an earlier one */
            any = true;
            continue;
        }
        if (n == WINDOW) {
            for (size_t i = 1; i < WINDOW; i++)
                window[i - 1] = window[i];
            n--;
        }
        window[n++] = cl;
        p = &(*p)->u.cons.cdr;
    }
    if (any)
        clean_tidy_cond(c, slot);
}

void clean_merge(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
