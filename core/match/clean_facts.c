/* clean_facts.c - what the tests on the way say about values
 * (clean_facts_walk; the passes `safe' and `known' use it).
 *
 * The walk keeps the facts of the tests that hold where it is: those of
 * an if's test in its then part (of its failure in the else part), those
 * of each failed cond clause in the clauses after it, those of the
 * conjuncts before an and's operand (the disjuncts before an or's).  A
 * fact says what kinds of object an expression may be (a set of
 * CLEAN_KIND_* bits): a type predicate that held or failed, an equality
 * with a constant that held ((eq E 'a): E is a symbol), (null E), and
 * (eq (car-safe E) C) with C not nil, after which E is a cons.  A
 * temporary bound to an accessor of a value ((car-safe E), (cdr E)...)
 * stands for it there.  A fact dies where
 * E could change: an assignment of a variable it reads, a binding that
 * hides one, and unknown code (user code, a funcall, an unknown
 * function), which could set any variable but a temporary or change what
 * a cons holds (a fact about a bare temporary survives it: an object
 * keeps its type).  Facts a branch of an if or cond falsifies are dead
 * after the if or cond, not in the other branches.  Inside a lambda or a
 * loop no outer fact holds.
 */
#include "match/clean_int.h"

#include <string.h>

struct fact {
    const struct value *e;      /* an expression, or NULL once dead */
    uint8_t kinds;              /* what it may be */
};

/* A temporary bound to an accessor expression, in scope. */
struct alias {
    const struct value *temp, *of; /* of: NULL once it may have changed */
};

struct facts {
    struct clean *c;
    struct fact *f;
    size_t n, cap, base;        /* facts below base do not hold here */
    struct alias *al;
    size_t n_al, cap_al, al_base;
    clean_fact_fn *fn;          /* the pass's rewrite of a call */
    bool fold;                  /* fold the constant tests fn makes */
    bool dry;                   /* change nothing: note that fn or a fold
                                   would (would) */
    bool would;
    bool body;                  /* the form walked next is a statement or a
                                   branch (its value is not looked at) */
    const struct value *go;     /* dry: keep the facts at (setq GO ...) */
    struct clean_facts_dry *kept;
};

/* The facts where a place begins: the walk's state at its slot. */
struct clean_facts_at {
    struct value **slot;
    unsigned depth;
    struct fact *f;
    size_t n, base;
    struct alias *al;
    size_t n_al, al_base;
};

struct clean_facts_dry {
    struct clean_facts_at *at;
    size_t n, cap;
};

/* ---- type predicates -------------------------------------------------- */

/* What a predicate's truth says: when it holds, the value is one of
 * `yes'; when it fails, one of `no' (CLEAN_KIND_ALL: nothing known). */
static const struct {
    const char *name;
    uint8_t yes, no;
} preds[] = {
#define K(x) CLEAN_KIND_##x
#define NOT(x) (uint8_t)(CLEAN_KIND_ALL & ~(x))
    {"arrayp", K(STRING) | K(VECTOR) | K(OTHER), NOT(K(STRING) | K(VECTOR))},
    {"atom", NOT(K(CONS)), K(CONS)},
    {"booleanp", K(NIL) | K(SYMBOL), CLEAN_KIND_ALL},
    {"characterp", K(INT), CLEAN_KIND_ALL},
    {"consp", K(CONS), NOT(K(CONS))},
    {"fixnump", K(INT), CLEAN_KIND_ALL},
    {"floatp", K(FLOAT), NOT(K(FLOAT))},
    {"integerp", K(INT), NOT(K(INT))},
    {"keywordp", K(SYMBOL), CLEAN_KIND_ALL},
    {"listp", K(CONS) | K(NIL), NOT(K(CONS) | K(NIL))},
    {"natnump", K(INT), CLEAN_KIND_ALL},
    {"nlistp", NOT(K(CONS) | K(NIL)), K(CONS) | K(NIL)},
    {"not", K(NIL), NOT(K(NIL))},
    {"null", K(NIL), NOT(K(NIL))},
    {"numberp", K(INT) | K(FLOAT), NOT(K(INT) | K(FLOAT))},
    {"stringp", K(STRING), NOT(K(STRING))},
    {"symbolp", K(NIL) | K(SYMBOL), NOT(K(NIL) | K(SYMBOL))},
    {"vectorp", K(VECTOR), NOT(K(VECTOR))},
#undef NOT
#undef K
};

#define N_PREDS (sizeof preds / sizeof preds[0])

static int find_pred(const char *name)
{
    return clean_row(preds, N_PREDS, sizeof preds[0], name);
}

/* The row of preds[] of h, or -1 (a lookup the symbol keeps). */
static int pred_row(const struct value *h)
{
    if (h->kind != VK_SYMBOL || !h->u.sym.interned)
        return -1;
    return value_sym_row(h, VALUE_ROW_FACTS, find_pred);
}

/* The first row of preds[] not sorted after its predecessor, or -1. */
long clean_facts_check_table(void)
{
    return clean_rows_sorted(preds, N_PREDS, sizeof preds[0]);
}

uint8_t clean_kind_of(const struct clean *c, const struct value *v)
{
    return clean_kind_of_value(v, c->L->nil);
}

uint8_t clean_kind_of_value(const struct value *v, const struct value *nil)
{
    switch (v->kind) {
    case VK_SYMBOL:
        return v == nil ? CLEAN_KIND_NIL : CLEAN_KIND_SYMBOL;
    case VK_INT:
    case VK_BIGNUM:
        return CLEAN_KIND_INT;
    case VK_FLOAT:
        return CLEAN_KIND_FLOAT;
    case VK_STRING:
        return CLEAN_KIND_STRING;
    case VK_CONS:
        return CLEAN_KIND_CONS;
    case VK_VECTOR:
        return CLEAN_KIND_VECTOR;
    default:
        return CLEAN_KIND_OTHER;
    }
}

/* The constant v evaluates to (a quoted object, or an atom that evaluates
 * to itself), or NULL. */
const struct value *clean_constant(const struct clean *c, const struct value *v)
{
    if (v->kind == VK_CONS)
        return clean_car(v) == c->L->quote && clean_cdr(v)->kind == VK_CONS &&
                       clean_cdr(clean_cdr(v)) == c->L->nil
                   ? clean_car(clean_cdr(v)) : NULL;
    return v->kind != VK_SYMBOL || !clean_variable(c, v) ? v : NULL;
}

/* The kinds of the elements of proper list l, or 0 when it is no proper
 * list. */
static uint8_t list_kinds(const struct clean *c, const struct value *l)
{
    if (value_list_length(l, c->L->nil) < 0)
        return 0;
    uint8_t k = 0;
    for (; l->kind == VK_CONS; l = clean_cdr(l))
        k |= clean_kind_of(c, clean_car(l));
    return k;
}

/* ---- the facts -------------------------------------------------------- */

static const struct value *alias_of(const struct facts *s, const struct value *x);

/* Are a and b the same access expression (car and car-safe alike, a
 * temporary and the accessor it is bound to alike)? */
static bool same_as(const struct facts *s, const struct value *a, const struct value *b,
                    const struct value *rb_, unsigned depth);

static bool same(const struct facts *s, const struct value *a, const struct value *b,
                 unsigned depth)
{
    return same_as(s, a, b, alias_of(s, b), depth);
}

/* same, rb_ being alias_of(s, b) (clean_facts_kinds compares one b with
 * every fact: it looks b's alias up once). */
static bool same_as(const struct facts *s, const struct value *a, const struct value *b,
                    const struct value *rb_, unsigned depth)
{
    const struct clean *c = s->c;
    if (a == b)
        return true;
    if (depth > 64)
        return false;
    const struct value *ra_ = alias_of(s, a);
    if (ra_ || rb_)
        return same(s, ra_ ? ra_ : a, rb_ ? rb_ : b, depth + 1);
    if (a->kind != VK_CONS || b->kind != VK_CONS || depth > 64)
        return false;
    const struct value *ha = clean_car(a), *hb = clean_car(b);
    if (ha == c->sym[CS_CAR_SAFE])
        ha = c->sym[CS_CAR];
    if (ha == c->sym[CS_CDR_SAFE])
        ha = c->sym[CS_CDR];
    if (hb == c->sym[CS_CAR_SAFE])
        hb = c->sym[CS_CAR];
    if (hb == c->sym[CS_CDR_SAFE])
        hb = c->sym[CS_CDR];
    bool ca = ha == c->sym[CS_CAR] || ha == c->sym[CS_CDR];
    if (ha != hb && (ca || hb == c->sym[CS_CAR] || hb == c->sym[CS_CDR]))
        return false; /* an accessor and another head: value_equal's answer */
    if (!ca)
        return value_equal(a, b);
    const struct value *ra = clean_cdr(a), *rb = clean_cdr(b);
    return ra->kind == VK_CONS && rb->kind == VK_CONS && clean_cdr(ra) == c->L->nil &&
           clean_cdr(rb) == c->L->nil && same(s, clean_car(ra), clean_car(rb), depth + 1);
}

uint8_t clean_facts_kinds(const struct facts *s, const struct value *e)
{
    uint8_t k = CLEAN_KIND_ALL;
    const struct value *re = s->n > s->base ? alias_of(s, e) : NULL;
    for (size_t i = s->n; i-- > s->base;)
        if (s->f[i].e && same_as(s, s->f[i].e, e, re, 0))
            k &= s->f[i].kinds;
    return k;
}

static void push(struct facts *s, const struct value *e, uint8_t kinds)
{
    if (kinds == CLEAN_KIND_ALL)
        return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        s->f = arena_grow(s->c->L->a, s->f, s->n * sizeof *s->f, cap * sizeof *s->f);
        s->cap = cap;
    }
    s->f[s->n].kinds = kinds;
    s->f[s->n++].e = e;
}

/* The accessor expression temporary x is bound to, or NULL. */
static const struct value *alias_of(const struct facts *s, const struct value *x)
{
    if (x->kind != VK_SYMBOL || !clean_temp(x))
        return NULL;
    for (size_t i = s->n_al; i-- > s->al_base;)
        if (s->al[i].temp == x)
            return s->al[i].of;
    return NULL;
}

/* Is x an accessor expression: a variable, or car, cdr, car-safe or
 * cdr-safe of one? */
static bool accessor(const struct clean *c, const struct value *x, unsigned depth)
{
    if (x->kind == VK_SYMBOL)
        return clean_variable(c, x);
    if (x->kind != VK_CONS || depth > 16)
        return false;
    const struct value *h = clean_car(x), *r = clean_cdr(x);
    return (h == c->sym[CS_CAR] || h == c->sym[CS_CDR] || h == c->sym[CS_CAR_SAFE] ||
            h == c->sym[CS_CDR_SAFE]) &&
           r->kind == VK_CONS && clean_cdr(r) == c->L->nil &&
           accessor(c, clean_car(r), depth + 1);
}

/* E of a (car-safe E) or (car E) form, or of a temporary bound to one. */
static const struct value *car_of(const struct facts *s, const struct value *x)
{
    const struct value *a = alias_of(s, x);
    if (a)
        x = a;
    if (x->kind != VK_CONS || (clean_car(x) != s->c->sym[CS_CAR_SAFE] &&
                               clean_car(x) != s->c->sym[CS_CAR]))
        return NULL;
    const struct value *r = clean_cdr(x);
    return r->kind == VK_CONS && clean_cdr(r) == s->c->L->nil ? clean_car(r) : NULL;
}

/* Forget the facts that unknown code could falsify: all but those about
 * a bare temporary. */
static void forget_all(struct facts *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->f[i].e && !clean_temp(s->f[i].e))
            s->f[i].e = NULL;
    for (size_t i = 0; i < s->n_al; i++)
        if (s->al[i].of && !clean_temp(s->al[i].of))
            s->al[i].of = NULL;
}

/* Does expression e read variable v?  (Most facts are of a bare
 * variable: no walk for them.) */
static bool reads(struct facts *s, const struct value *e, const struct value *v)
{
    return e->kind == VK_CONS ? clean_mentions(s->c, e, v) : e == v;
}

/* reads of an accessor expression x (what a temporary is an alias of:
 * a variable, or (car X), (cdr X), (car-safe X), (cdr-safe X) of one):
 * the symbols it holds are its heads, its variable and the nils that end
 * its lists. */
static bool chain_reads(struct facts *s, const struct value *x, const struct value *v)
{
    if (x->kind == VK_CONS && v == s->c->L->nil)
        return true;
    for (; x->kind == VK_CONS; x = clean_car(clean_cdr(x)))
        if (clean_car(x) == v)
            return true;
    return x == v;
}

/* Forget the facts that read variable v. */
static void forget(struct facts *s, const struct value *v)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->f[i].e && reads(s, s->f[i].e, v))
            s->f[i].e = NULL;
    for (size_t i = 0; i < s->n_al; i++)
        if (s->al[i].of && (s->al[i].temp == v || chain_reads(s, s->al[i].of, v)))
            s->al[i].of = NULL;
}

/* Push what an equality of x with constant k (h: eq, eql, equal, memq,
 * memql, member) that held says. */
static void equality(struct facts *s, const struct value *h, const struct value *x,
                     const struct value *k)
{
    struct clean *c = s->c;
    bool member = h == c->sym[CS_MEMQ] || h == c->sym[CS_MEMQL] || h == c->sym[CS_MEMBER];
    if (!member && h != c->sym[CS_EQ] && h != c->sym[CS_EQL] && h != c->sym[CS_EQUAL])
        return;
    uint8_t kinds = member ? list_kinds(c, k) : clean_kind_of(c, k);
    if (!kinds)
        return;
    push(s, x, kinds);
    const struct value *e = car_of(s, x);
    if (e && !(kinds & CLEAN_KIND_NIL))
        push(s, e, CLEAN_KIND_CONS); /* only a cons has a car that is not nil */
}

/* Push what test form t having a true (sense) or nil value tells. */
static void derive(struct facts *s, const struct value *t, bool sense)
{
    struct clean *c = s->c;
    if (t->kind != VK_CONS || clean_kind(c, t) == CK_USER)
        return;
    const struct value *h = clean_car(t), *r = clean_cdr(t);
    if (r->kind != VK_CONS)
        return;
    if ((h == c->sym[CS_AND] && sense) || (h == c->sym[CS_OR] && !sense)) {
        size_t from = s->n;
        for (; r->kind == VK_CONS; r = clean_cdr(r)) {
            if (clean_effect(c, clean_car(r)) == CE_ANY)
                for (size_t i = from; i < s->n; i++)
                    if (s->f[i].e && !clean_temp(s->f[i].e))
                        s->f[i].e = NULL;
            derive(s, clean_car(r), sense);
        }
        return;
    }
    if (clean_cdr(r) == c->L->nil) {
        int row = pred_row(h);
        if (row >= 0)
            push(s, clean_car(r), sense ? preds[row].yes : preds[row].no);
        if (h == c->sym[CS_NOT] || h == c->sym[CS_NULL])
            derive(s, clean_car(r), !sense);
        return;
    }
    if (clean_cdr(r)->kind != VK_CONS || clean_cdr(clean_cdr(r)) != c->L->nil)
        return;
    const struct value *k = clean_constant(c, clean_car(clean_cdr(r)));
    if (!k)
        return;
    if (sense)
        equality(s, h, clean_car(r), k);
    else if (k == c->L->nil && (h == c->sym[CS_EQ] || h == c->sym[CS_EQL] ||
                                h == c->sym[CS_EQUAL]))
        push(s, clean_car(r), (uint8_t)(CLEAN_KIND_ALL & ~CLEAN_KIND_NIL));
}

/* ---- harmless code ---------------------------------------------------- */

static bool harmless(const struct facts *s, const struct value *form, unsigned depth);

static bool harmless_args(const struct facts *s, const struct value *form, unsigned depth)
{
    for (const struct value *l = clean_cdr(form); l->kind == VK_CONS; l = clean_cdr(l))
        if (!harmless(s, clean_car(l), depth + 1))
            return false;
    return true;
}

/* Does evaluating form do nothing that can be seen, here: clean_effect,
 * with car and cdr of a known cons as harmless as car-safe and cdr-safe? */
static bool harmless(const struct facts *s, const struct value *form, unsigned depth)
{
    if (form->kind != VK_CONS)
        return clean_effect(s->c, form) == CE_NONE;
    if (depth > 64)
        return false;
    const struct value *h = clean_car(form), *r = clean_cdr(form);
    enum clean_kind k = clean_kind(s->c, form);
    if ((h == s->c->sym[CS_CAR] || h == s->c->sym[CS_CDR]) && r->kind == VK_CONS &&
        clean_cdr(r) == s->c->L->nil && clean_facts_kinds(s, clean_car(r)) == CLEAN_KIND_CONS)
        return harmless(s, clean_car(r), depth + 1);
    if (k == CK_AND || k == CK_IF || k == CK_PROGN)
        return harmless_args(s, form, depth);
    if (k == CK_PURE || k == CK_MEMBER)
        return clean_call_effect(s->c, form) == CE_NONE && harmless_args(s, form, depth);
    return clean_effect(s->c, form) == CE_NONE;
}

/* ---- folding the constant tests a pass makes -------------------------- */

static bool is_const(const struct clean *c, const struct value *v)
{
    return v == c->L->nil || v == c->L->t;
}

/* (and ... nil ...), (or ... t ...), (and t X), (or nil X): simpler, when
 * what comes before the constant has no effect. */
static void fold_and(struct facts *s, struct value **slot)
{
    struct clean *c = s->c;
    struct value *v = *slot;
    bool and = clean_car(v) == c->sym[CS_AND];
    struct value *stop = and ? c->L->nil : c->L->t, *neutral = and ? c->L->t : c->L->nil;
    bool pure = true;
    for (struct value **p = &v->u.cons.cdr; (*p)->kind == VK_CONS;) {
        struct value *x = clean_car(*p);
        if (x == stop && pure) {
            *slot = stop;
            clean_edited(c);
            return;
        }
        if (x == neutral && clean_cdr(*p)->kind == VK_CONS) {
            *p = clean_cdr(*p);
            clean_edited(c);
            continue;
        }
        pure &= harmless(s, x, 0);
        p = &(*p)->u.cons.cdr;
    }
    struct value *args = clean_cdr(v);
    if (args == c->L->nil)
        *slot = neutral;
    else if (clean_cdr(args) == c->L->nil)
        *slot = clean_car(args);
    else
        return;
    clean_edited(c);
}

/* (if t A B) is A, (if nil A B...) its else forms. */
static void fold_if(struct clean *c, struct value **slot)
{
    struct value *args = clean_cdr(*slot);
    if (args->kind != VK_CONS || !is_const(c, clean_car(args)) ||
        clean_cdr(args)->kind != VK_CONS)
        return;
    *slot = clean_car(args) == c->L->t ? clean_car(clean_cdr(args))
                                       : clean_progn(c, clean_cdr(clean_cdr(args)));
    clean_edited(c);
}

/* A cond clause whose test is nil goes; one whose test is t and has a
 * body ends the cond. */
static void fold_cond(struct clean *c, struct value **slot)
{
    bool changed = false;
    for (struct value **p = &(*slot)->u.cons.cdr; (*p)->kind == VK_CONS;) {
        struct value *cl = clean_car(*p);
        if (cl->kind == VK_CONS && clean_car(cl) == c->L->nil) {
            *p = clean_cdr(*p);
            changed = true;
            continue;
        }
        if (cl->kind == VK_CONS && clean_car(cl) == c->L->t && clean_cdr(cl)->kind == VK_CONS &&
            clean_cdr(*p) != c->L->nil) {
            (*p)->u.cons.cdr = c->L->nil;
            changed = true;
        }
        p = &(*p)->u.cons.cdr;
    }
    if (changed) {
        clean_edited(c);
        clean_tidy_cond(c, slot);
    }
}

/* Would fold_and, fold_if or fold_cond (k) change v?  For an and or an
 * or: also when one of its operands is t or nil at all (whether what
 * comes before does nothing depends on the facts). */
static bool would_fold(const struct clean *c, const struct value *v, enum clean_kind k)
{
    const struct value *args = clean_cdr(v);
    switch (k) {
    case CK_AND:
        if (args->kind != VK_CONS || clean_cdr(args)->kind != VK_CONS)
            return true;
        for (; args->kind == VK_CONS; args = clean_cdr(args))
            if (is_const(c, clean_car(args)))
                return true;
        return false;
    case CK_IF:
        return args->kind == VK_CONS && is_const(c, clean_car(args)) &&
               clean_cdr(args)->kind == VK_CONS;
    default:
        for (; args->kind == VK_CONS; args = clean_cdr(args)) {
            const struct value *cl = clean_car(args);
            if (cl->kind == VK_CONS &&
                (clean_car(cl) == c->L->nil ||
                 (clean_car(cl) == c->L->t && clean_cdr(cl)->kind == VK_CONS &&
                  clean_cdr(args) != c->L->nil)))
                return true;
        }
        return false;
    }
}

/* The fold of the if, cond, and or or (k) at *slot, or in a dry walk a
 * note that it would change it. */
static void fold_at(struct facts *s, struct value **slot, enum clean_kind k)
{
    if (s->dry)
        s->would |= would_fold(s->c, *slot, k);
    else if (k == CK_AND)
        fold_and(s, slot);
    else if (k == CK_IF)
        fold_if(s->c, slot);
    else
        fold_cond(s->c, slot);
}

/* ---- alternatives ----------------------------------------------------- */

/* The facts alive before a set of alternative branches (an if's, a
 * cond's clauses): each branch starts from them, and after the set every
 * fact one of them may have falsified is dead. */
struct alts {
    const struct value **e;    /* the facts before, or NULL if dead */
    bool *killed;              /* falsified in a branch walked so far */
    size_t n;
    const struct value **of;   /* the same for the aliases in scope */
    bool *al_killed;
    size_t n_al;
};

static void alts_begin(struct facts *s, struct alts *a)
{
    struct arena *ar = s->c->L->a;
    a->n = s->n;
    a->e = ARENA_NEWN(ar, const struct value *, s->n + 1);
    a->killed = arena_zalloc(ar, s->n + 1);
    for (size_t i = 0; i < s->n; i++)
        a->e[i] = s->f[i].e;
    a->n_al = s->n_al;
    a->of = ARENA_NEWN(ar, const struct value *, s->n_al + 1);
    a->al_killed = arena_zalloc(ar, s->n_al + 1);
    for (size_t i = 0; i < s->n_al; i++)
        a->of[i] = s->al[i].of;
}

/* A branch ended: note what it falsified, and start the next from the
 * facts and aliases before (those the branch pushed are gone: s->n was
 * reset, and a let's aliases end with it). */
static void alts_next(struct facts *s, struct alts *a)
{
    for (size_t i = 0; i < a->n; i++) {
        a->killed[i] |= a->e[i] && !s->f[i].e;
        s->f[i].e = a->e[i];
    }
    for (size_t i = 0; i < a->n_al; i++) {
        a->al_killed[i] |= a->of[i] && !s->al[i].of;
        s->al[i].of = a->of[i];
    }
}

static void alts_end(struct facts *s, struct alts *a)
{
    alts_next(s, a);
    for (size_t i = 0; i < a->n; i++)
        if (a->killed[i])
            s->f[i].e = NULL;
    for (size_t i = 0; i < a->n_al; i++)
        if (a->al_killed[i])
            s->al[i].of = NULL;
}

/* ---- the walk --------------------------------------------------------- */

static void walk(struct facts *s, struct value **slot, unsigned depth);

/* body: the forms are statements, or the last the value of the form
 * around (a progn's, a let's, a cond clause's, an if's else forms). */
static void walk_list(struct facts *s, struct value *l, bool body, unsigned depth)
{
    for (; l->kind == VK_CONS; l = clean_cdr(l))
        if (clean_car(l)->kind == VK_CONS) { /* an atom tells nothing */
            s->body = body;
            walk(s, &l->u.cons.car, depth);
        }
}

/* Code that runs at another time (a lambda's body) or again (a loop's):
 * no outer fact holds there. */
static void walk_apart(struct facts *s, struct value *l, unsigned depth)
{
    size_t base = s->base, n = s->n, n_al = s->n_al, al_base = s->al_base;
    s->base = s->n;
    s->al_base = s->n_al;
    walk_list(s, l, false, depth);
    s->base = base;
    s->al_base = al_base;
    s->n = n;
    s->n_al = n_al;
}

static void bind(struct facts *s, struct value *b)
{
    struct value *var, *val;
    if (!clean_binding(s->c, b, &var, &val))
        return;
    forget(s, var);
    const struct value *e = clean_temp(var) && accessor(s->c, val, 0) ? val : NULL;
    if (!e)
        return;
    if (s->n_al == s->cap_al) {
        size_t cap = s->cap_al ? 2 * s->cap_al : 16;
        s->al = arena_grow(s->c->L->a, s->al, s->n_al * sizeof *s->al, cap * sizeof *s->al);
        s->cap_al = cap;
    }
    s->al[s->n_al++] = (struct alias){var, e};
}

static void walk_let(struct facts *s, struct value *v, bool star, unsigned depth)
{
    struct value *r = clean_cdr(v);
    if (r->kind != VK_CONS)
        return;
    size_t n_al = s->n_al;
    struct value *l;
    for (l = clean_car(r); l->kind == VK_CONS; l = clean_cdr(l)) {
        struct value *x = clean_car(l);
        if (x->kind == VK_CONS && clean_cdr(x)->kind == VK_CONS)
            walk(s, &clean_cdr(x)->u.cons.car, depth);
        if (star)
            bind(s, x);
    }
    for (l = clean_car(r); !star && l->kind == VK_CONS; l = clean_cdr(l))
        bind(s, clean_car(l));
    walk_list(s, clean_cdr(r), true, depth);
    s->n_al = n_al;
}

static void walk_if(struct facts *s, struct value **slot, unsigned depth)
{
    struct value *args = clean_cdr(*slot);
    if (args->kind != VK_CONS)
        return;
    walk(s, &args->u.cons.car, depth);
    size_t n = s->n;
    struct alts a;
    alts_begin(s, &a);
    if (clean_cdr(args)->kind == VK_CONS) {
        derive(s, clean_car(args), true);
        s->body = true;
        walk(s, &clean_cdr(args)->u.cons.car, depth);
        s->n = n;
        alts_next(s, &a);
        derive(s, clean_car(args), false);
        walk_list(s, clean_cdr(clean_cdr(args)), true, depth);
    }
    s->n = n;
    alts_end(s, &a);
    if (s->fold)
        fold_at(s, slot, CK_IF);
}

static void walk_cond(struct facts *s, struct value **slot, unsigned depth)
{
    size_t n = s->n, n_al = s->n_al;
    bool *killed = arena_zalloc(s->c->L->a, n + 1);
    bool *al_killed = arena_zalloc(s->c->L->a, n_al + 1);
    for (struct value *args = clean_cdr(*slot); args->kind == VK_CONS; args = clean_cdr(args)) {
        struct value *cl = clean_car(args);
        if (cl->kind != VK_CONS)
            continue;
        walk(s, &cl->u.cons.car, depth);
        size_t k = s->n;
        struct alts a;
        alts_begin(s, &a);
        derive(s, clean_car(cl), true);
        walk_list(s, clean_cdr(cl), true, depth);
        s->n = k;
        /* the tests after this clause run only when its body did not */
        alts_next(s, &a);
        for (size_t i = 0; i < n; i++)
            killed[i] |= a.killed[i];
        for (size_t i = 0; i < n_al; i++)
            al_killed[i] |= a.al_killed[i];
        derive(s, clean_car(cl), false);
    }
    s->n = n;
    for (size_t i = 0; i < n; i++)
        if (killed[i])
            s->f[i].e = NULL;
    for (size_t i = 0; i < n_al; i++)
        if (al_killed[i])
            s->al[i].of = NULL;
    if (s->fold)
        fold_at(s, slot, CK_COND);
}

/* Copies of n facts, of n aliases (an empty stack may be NULL). */
static struct fact *copy_facts(struct arena *a, const struct fact *f, size_t n)
{
    struct fact *to = ARENA_NEWN(a, struct fact, n + 1);
    if (n)
        memcpy(to, f, n * sizeof *f);
    return to;
}

static struct alias *copy_aliases(struct arena *a, const struct alias *al, size_t n)
{
    struct alias *to = ARENA_NEWN(a, struct alias, n + 1);
    if (n)
        memcpy(to, al, n * sizeof *al);
    return to;
}

/* A dry walk keeps the facts at a place whose value nothing looks at. */
static void keep(struct facts *s, struct value **slot, unsigned depth)
{
    struct clean_facts_dry *d = s->kept;
    struct arena *a = s->c->L->a;
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 8;
        d->at = arena_grow(a, d->at, d->cap * sizeof *d->at, cap * sizeof *d->at);
        d->cap = cap;
    }
    struct clean_facts_at *k = &d->at[d->n++];
    *k = (struct clean_facts_at){slot, depth, NULL, s->n, s->base, NULL, s->n_al, s->al_base};
    k->f = copy_facts(a, s->f, s->n);
    k->al = copy_aliases(a, s->al, s->n_al);
}

static bool is_place(const struct facts *s, const struct value *v)
{
    return clean_car(v) == s->c->sym[CS_SETQ] && clean_cdr(v)->kind == VK_CONS &&
           clean_car(clean_cdr(v)) == s->go;
}

static void walk(struct facts *s, struct value **slot, unsigned depth)
{
    struct value *v = *slot;
    bool body = s->body;
    s->body = false;
    if (v->kind != VK_CONS || depth > CLEAN_MAX_DEPTH || s->would)
        return;
    if (s->kept && body && is_place(s, v) && clean_kind(s->c, v) == CK_SETQ)
        keep(s, slot, depth);
    struct value *args = clean_cdr(v);
    depth++;
    switch (clean_kind(s->c, v)) {
    case CK_QUOTE:
        return;
    case CK_USER:
    case CK_CALL:
    case CK_FORM:
        forget_all(s);
        return;
    case CK_FUNCTION:
        if (args->kind == VK_CONS && clean_car(args)->kind == VK_CONS &&
            clean_car(clean_car(args)) == s->c->L->lambda &&
            clean_kind(s->c, clean_car(args)) != CK_USER &&
            clean_cdr(clean_car(args))->kind == VK_CONS)
            walk_apart(s, clean_cdr(clean_cdr(clean_car(args))), depth);
        return;
    case CK_LAMBDA:
        if (args->kind == VK_CONS)
            walk_apart(s, clean_cdr(args), depth);
        return;
    case CK_DOLIST:
        if (args->kind == VK_CONS && clean_car(args)->kind == VK_CONS &&
            clean_cdr(clean_car(args))->kind == VK_CONS)
            walk(s, &clean_cdr(clean_car(args))->u.cons.car, depth);
        forget_all(s);
        if (args->kind == VK_CONS)
            walk_apart(s, clean_cdr(args), depth);
        forget_all(s);
        return;
    case CK_FUNCALL:
        walk_list(s, args, false, depth);
        forget_all(s);
        return;
    case CK_SETQ:
        for (; args->kind == VK_CONS && clean_cdr(args)->kind == VK_CONS;
             args = clean_cdr(clean_cdr(args))) {
            walk(s, &clean_cdr(args)->u.cons.car, depth);
            forget(s, clean_car(args));
        }
        return;
    case CK_IF:
        walk_if(s, slot, depth);
        return;
    case CK_COND:
        walk_cond(s, slot, depth);
        return;
    case CK_AND: {
        size_t n = s->n;
        bool and = clean_car(v) == s->c->sym[CS_AND];
        for (; args->kind == VK_CONS; args = clean_cdr(args)) {
            walk(s, &args->u.cons.car, depth);
            derive(s, clean_car(args), and);
        }
        s->n = n;
        if (s->fold)
            fold_at(s, slot, CK_AND);
        return;
    }
    case CK_LET:
    case CK_LET_STAR:
        walk_let(s, v, clean_kind(s->c, v) == CK_LET_STAR, depth);
        return;
    case CK_PROGN:
        walk_list(s, args, clean_car(v) == s->c->sym[CS_PROGN], depth);
        return;
    default: {
        walk_list(s, args, false, depth);
        struct value *k = s->fn(s, v);
        if (k && s->dry)
            s->would = true;
        else if (k) {
            *slot = k;
            clean_edited(s->c);
        }
        return;
    }
    }
}

struct clean *clean_facts_clean(struct facts *f)
{
    return f->c;
}

bool clean_facts_pred(const struct value *h, uint8_t *yes, uint8_t *no)
{
    int row = pred_row(h);
    if (row < 0)
        return false;
    *yes = preds[row].yes;
    *no = preds[row].no;
    return true;
}

uint8_t clean_facts_equal_kinds(const struct clean *c, const struct value *h,
                                const struct value *k)
{
    if (h == c->sym[CS_MEMQ] || h == c->sym[CS_MEMQL] || h == c->sym[CS_MEMBER])
        return list_kinds(c, k);
    if (h == c->sym[CS_EQ] || h == c->sym[CS_EQL] || h == c->sym[CS_EQUAL])
        return clean_kind_of(c, k);
    return 0;
}

struct clean_facts_dry *clean_facts_dry(struct clean *c, struct value **slot, clean_fact_fn *fn,
                                        const struct value *go)
{
    struct facts s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.fn = fn;
    s.fold = true;
    s.dry = true;
    s.go = go;
    s.kept = ARENA_NEW(c->L->a, struct clean_facts_dry);
    memset(s.kept, 0, sizeof *s.kept);
    walk(&s, slot, 0);
    return s.would ? NULL : s.kept;
}

const struct clean_facts_at *clean_facts_kept(const struct clean_facts_dry *dry,
                                              struct value **place)
{
    for (size_t i = 0; i < dry->n; i++)
        if (dry->at[i].slot == place)
            return &dry->at[i];
    return NULL;
}

void clean_facts_walk_at(struct clean *c, const struct clean_facts_at *k, struct value **place,
                         clean_fact_fn *fn)
{
    struct facts s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.fn = fn;
    s.fold = true;
    /* copies: the walk pushes, pops and kills facts */
    s.n = s.cap = k->n;
    s.base = k->base;
    s.f = copy_facts(c->L->a, k->f, k->n);
    s.n_al = s.cap_al = k->n_al;
    s.al_base = k->al_base;
    s.al = copy_aliases(c->L->a, k->al, k->n_al);
    walk(&s, place, k->depth);
}

void clean_facts_walk(struct clean *c, struct value **slot, clean_fact_fn *fn, bool fold)
{
    struct facts s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.fn = fn;
    s.fold = fold;
    walk(&s, slot, 0);
}
