/* witness.c - which values reach a place of a decision DAG (witness.h).
 *
 * Order: value classes and the predicate table, the facts of one way
 * (entries: the subject and what is computed from it), settling the facts
 * (contradictions, constants forced through car/cdr/length/aref), reading
 * a test or call form, the evaluator (constant parts of forms, concrete
 * runs of the DAG), building a candidate value, the search.
 */
#include "match/witness.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lisp/print.h"
#include "match/emit.h"

/* ---- value classes ----------------------------------------------------- */

/* A partition of Lisp values.  OTHER: every kind a witness is never made
 * of (bool-vectors, char-tables, hash tables, functions, buffers, ...). */
enum {
    C_NIL = 1, C_T = 2, C_KW = 4, C_SYM = 8, C_INT = 16, C_FLOAT = 32,
    C_STR = 64, C_CONS = 128, C_VEC = 256, C_REC = 512, C_OTHER = 1024,
    C_ALL = 2047,
    C_SYMBOLS = C_NIL | C_T | C_KW | C_SYM,
    C_LIST = C_CONS | C_NIL,
    C_SEQ = C_CONS | C_NIL | C_STR | C_VEC,
};

static unsigned class_of(const struct lisp *L, const struct value *v)
{
    switch (v->kind) {
    case VK_SYMBOL:
        if (v == L->nil)
            return C_NIL;
        if (v == L->t)
            return C_T;
        return v->u.sym.interned && v->u.sym.name[0] == ':' ? C_KW : C_SYM;
    case VK_INT:
    case VK_BIGNUM: return C_INT;
    case VK_FLOAT: return C_FLOAT;
    case VK_STRING: return C_STR;
    case VK_CONS: return C_CONS;
    case VK_VECTOR: return C_VEC;
    case VK_RECORD: return C_REC;
    default: return C_OTHER;
    }
}

/* A type predicate: true on every value of `sure`, false outside `maybe`;
 * in between it depends on the value (natnump on integers) or on methods
 * the user may add (seqp, mapp), and `check` decides for a concrete value
 * as Emacs 30.1 does without such methods.  Sorted by name. */
enum check { CK_CLASS, CK_NATNUM, CK_FIXNUM, CK_BIGNUM, CK_CHAR, CK_PROPER };

static const struct pred_row {
    const char *name;
    unsigned sure, maybe;
    enum check check;
} pred_rows[] = {
    {"arrayp", C_STR | C_VEC, C_STR | C_VEC | C_OTHER, CK_CLASS},
    {"atom", C_ALL & ~C_CONS, C_ALL & ~C_CONS, CK_CLASS},
    {"bignump", 0, C_INT, CK_BIGNUM},
    {"bool-vector-p", 0, C_OTHER, CK_CLASS},
    {"booleanp", C_NIL | C_T, C_NIL | C_T, CK_CLASS},
    {"bufferp", 0, C_OTHER, CK_CLASS},
    {"char-or-string-p", C_STR, C_STR | C_INT, CK_CHAR},
    {"char-table-p", 0, C_OTHER, CK_CLASS},
    {"characterp", 0, C_INT, CK_CHAR},
    {"consp", C_CONS, C_CONS, CK_CLASS},
    {"fixnump", 0, C_INT, CK_FIXNUM},
    {"floatp", C_FLOAT, C_FLOAT, CK_CLASS},
    {"hash-table-p", 0, C_OTHER, CK_CLASS},
    {"identity", C_ALL & ~C_NIL, C_ALL & ~C_NIL, CK_CLASS},
    {"integer-or-marker-p", C_INT, C_INT | C_OTHER, CK_CLASS},
    {"integerp", C_INT, C_INT, CK_CLASS},
    {"keywordp", C_KW, C_KW, CK_CLASS},
    {"listp", C_LIST, C_LIST, CK_CLASS},
    {"mapp", C_SEQ, C_ALL, CK_CLASS},
    {"markerp", 0, C_OTHER, CK_CLASS},
    {"natnump", 0, C_INT, CK_NATNUM},
    {"nlistp", C_ALL & ~C_LIST, C_ALL & ~C_LIST, CK_CLASS},
    {"not", C_NIL, C_NIL, CK_CLASS},
    {"null", C_NIL, C_NIL, CK_CLASS},
    {"number-or-marker-p", C_INT | C_FLOAT, C_INT | C_FLOAT | C_OTHER, CK_CLASS},
    {"numberp", C_INT | C_FLOAT, C_INT | C_FLOAT, CK_CLASS},
    {"proper-list-p", C_NIL, C_LIST, CK_PROPER},
    {"recordp", C_REC, C_REC, CK_CLASS},
    {"seqp", C_SEQ, C_ALL, CK_CLASS},
    {"sequencep", C_SEQ, C_SEQ | C_OTHER, CK_CLASS},
    {"string-or-null-p", C_STR | C_NIL, C_STR | C_NIL, CK_CLASS},
    {"stringp", C_STR, C_STR, CK_CLASS},
    {"symbolp", C_SYMBOLS, C_SYMBOLS, CK_CLASS},
    {"vectorp", C_VEC, C_VEC, CK_CLASS},
    {"wholenump", 0, C_INT, CK_NATNUM},
};

static int pred_find(const char *name)
{
    size_t lo = 0, hi = sizeof pred_rows / sizeof pred_rows[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(pred_rows[mid].name, name);
        if (!c)
            return (int)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* The row is kept on the symbol (value_sym_row): every test and every
 * entry settled asks again. */
static const struct pred_row *pred_of(const struct value *f)
{
    if (f->kind != VK_SYMBOL || !f->u.sym.interned)
        return NULL;
    int r = value_sym_row(f, VALUE_ROW_WITNESS, pred_find);
    return r < 0 ? NULL : &pred_rows[r];
}

long witness_check_table(void)
{
    for (size_t i = 1; i < sizeof pred_rows / sizeof pred_rows[0]; i++)
        if (strcmp(pred_rows[i - 1].name, pred_rows[i].name) >= 0 ||
            (pred_rows[i].sure & ~pred_rows[i].maybe))
            return (long)i;
    return -1;
}

/* ---- the facts of one way ---------------------------------------------- */

/* How an entry's value is computed from its parent's. */
enum op { OP_ROOT, OP_CAR, OP_CDR, OP_LENGTH, OP_AREF, OP_ELT, OP_OPAQUE };

/* A persistent list of constants (or predicate outcomes): shared between
 * the facts of a way and of the ways that continue it. */
struct clist {
    struct value *v;          /* constant, member set (a Lisp list) or predicate */
    const struct value *fn;   /* member sets: memq, memql or member; preds:
                                 non-NULL when the outcome was true */
    const struct clist *next;
};

struct ent {
    int parent;               /* entry index, -1 for the root */
    enum op op;
    long k;                   /* AREF / ELT index */
    unsigned classes;         /* where the value can be */
    struct value *eqc;        /* the constant it is `equal' to, or NULL */
    const struct clist *neq;  /* constants it is not `equal' to */
    const struct clist *sets; /* member sets it is in */
    const struct clist *preds; /* outcomes of partial predicates */
    /* settle's bookkeeping: ver counts the changes of the fields above;
     * a rule that found nothing to change keeps the versions it saw, and
     * is not run again until one of them changes (it would find the same) */
    uint32_t ver, own_ok, link_e, link_p;
};

/* A temporary (or the root's expression) and the entry it holds. */
struct alias {
    const struct value *expr;
    int ent;
};

struct facts {
    struct ent *e;
    size_t n, cap;
    struct alias *al;
    size_t n_al, cap_al;
    const struct clist *blockers; /* forms it could not evaluate */
};

struct ws {
    struct memo_ctx *m;
    struct lisp *L;
    struct arena *a;              /* facts (released as the search backs up) */
    struct value *s_eq, *s_eql, *s_equal, *s_memq, *s_memql, *s_member, *s_not,
        *s_null, *s_car, *s_cdr, *s_car_safe, *s_cdr_safe, *s_length, *s_aref,
        *s_nth, *s_nthcdr, *s_elt_safe;
    uint64_t todo;                /* pruned: the clauses (bit i: clause i)
                                     still to reach */
    bool pruned;                  /* go only where a clause of todo lies
                                     below (dnode.below) */
    /* the forms of the tests met, made once each (keyed by identity:
     * the table's order decides nothing) */
    const struct dtest **fk;
    struct value **fv;
    size_t fcap, fn;
};

static size_t slot_of(const struct ws *w, const struct dtest *t)
{
    uint64_t h = (uint64_t)(uintptr_t)t * 0x9e3779b97f4a7c15u;
    size_t i = (size_t)(h >> 32) & (w->fcap - 1);
    while (w->fk[i] && w->fk[i] != t)
        i = (i + 1) & (w->fcap - 1);
    return i;
}

/* The Lisp form of test t, as written (user code unexpanded). */
static struct value *form_of(struct ws *w, const struct dtest *t)
{
    if (w->pruned) /* it meets each test once, or nearly */
        return emit_test_form(w->m, t, false);
    if (2 * (w->fn + 1) > w->fcap) {
        const struct dtest **ok = w->fk;
        struct value **ov = w->fv;
        size_t oc = w->fcap;
        w->fcap = oc ? 2 * oc : 64;
        w->fk = arena_zalloc(w->L->a, w->fcap * sizeof *w->fk);
        w->fv = arena_alloc(w->L->a, w->fcap * sizeof *w->fv);
        for (size_t i = 0; i < oc; i++)
            if (ok[i]) {
                size_t j = slot_of(w, ok[i]);
                w->fk[j] = ok[i];
                w->fv[j] = ov[i];
            }
    }
    size_t i = slot_of(w, t);
    if (!w->fk[i]) {
        w->fk[i] = t;
        w->fv[i] = emit_test_form(w->m, t, false);
        w->fn++;
    }
    return w->fv[i];
}

static struct facts *facts_copy(struct ws *w, const struct facts *f)
{
    struct facts *g = arena_alloc(w->a, sizeof *g);
    *g = *f;
    g->cap = f->n + 4;
    g->e = arena_alloc(w->a, g->cap * sizeof *g->e);
    memcpy(g->e, f->e, f->n * sizeof *g->e);
    g->cap_al = f->n_al + 4;
    g->al = arena_alloc(w->a, g->cap_al * sizeof *g->al);
    memcpy(g->al, f->al, f->n_al * sizeof *g->al);
    return g;
}

static const struct clist *clist_add(struct ws *w, const struct clist *l, struct value *v,
                                     const struct value *fn)
{
    struct clist *c = arena_alloc(w->a, sizeof *c);
    *c = (struct clist){v, fn, l};
    return c;
}

static int ent_of(const struct facts *f, const struct value *expr)
{
    for (size_t i = 0; i < f->n_al; i++)
        if (f->al[i].expr == expr)
            return f->al[i].ent;
    return -1;
}

static void add_alias(struct ws *w, struct facts *f, const struct value *expr, int e)
{
    if (f->n_al == f->cap_al) {
        size_t ncap = f->cap_al * 2 + 4;
        f->al = arena_grow(w->a, f->al, f->cap_al * sizeof *f->al, ncap * sizeof *f->al);
        f->cap_al = ncap;
    }
    f->al[f->n_al++] = (struct alias){expr, e};
}

/* The entry (parent, op, k), made when new (OPAQUE entries are never shared). */
static int child(struct ws *w, struct facts *f, int parent, enum op op, long k)
{
    for (size_t i = 0; op != OP_OPAQUE && i < f->n; i++)
        if (f->e[i].parent == parent && f->e[i].op == op && f->e[i].k == k)
            return (int)i;
    if (f->n == f->cap) {
        size_t ncap = f->cap * 2 + 4;
        f->e = arena_grow(w->a, f->e, f->cap * sizeof *f->e, ncap * sizeof *f->e);
        f->cap = ncap;
    }
    f->e[f->n] = (struct ent){.parent = parent, .op = op, .k = k, .classes = C_ALL, .ver = 1};
    return (int)f->n++;
}

/* ---- concrete operations ------------------------------------------------ */

/* The value of applying op to a constant: NULL when it signals. */
static struct value *op_on(struct ws *w, enum op op, long k, struct value *v)
{
    struct lisp *L = w->L;
    switch (op) {
    case OP_CAR: return v->kind == VK_CONS ? value_car(v) : L->nil;
    case OP_CDR: return v->kind == VK_CONS ? value_cdr(v) : L->nil;
    case OP_LENGTH: {
        if (v->kind == VK_STRING)
            return value_int(L->a, (int64_t)v->u.str.nchars);
        if (v->kind == VK_VECTOR || v->kind == VK_RECORD)
            return value_int(L->a, (int64_t)v->u.vec.n);
        long n = value_list_length(v, L->nil);
        return n < 0 ? NULL : value_int(L->a, n);
    }
    case OP_AREF:
    case OP_ELT: {
        bool safe = op == OP_ELT;
        if (safe && (v->kind == VK_CONS || v == L->nil)) {
            for (long i = 0; i < k && v->kind == VK_CONS; i++)
                v = value_cdr(v);
            return v->kind == VK_CONS ? value_car(v) : L->nil;
        }
        if ((v->kind == VK_VECTOR || v->kind == VK_RECORD) && k >= 0 &&
            (size_t)k < v->u.vec.n)
            return v->u.vec.items[k];
        if (v->kind == VK_STRING && k >= 0 && (size_t)k < v->u.str.nchars) {
            const uint8_t *p = v->u.str.data, *end = p + v->u.str.len;
            int len = 1;
            uint32_t c = 0;
            for (long i = 0; i <= k && p < end; i++, p += len)
                c = v->u.str.multibyte ? value_char_decode(p, (size_t)(end - p), &len) : *p;
            return value_int(L->a, c);
        }
        return safe ? L->nil : NULL;
    }
    default: return NULL;
    }
}

/* Does predicate row r hold for concrete v?  -1 when it cannot tell. */
static int pred_holds(struct ws *w, const struct pred_row *r, const struct value *v)
{
    unsigned c = class_of(w->L, v);
    if (c & r->sure)
        return 1;
    if (!(c & r->maybe))
        return 0;
    switch (r->check) {
    case CK_NATNUM: return v->kind == VK_INT ? v->u.i >= 0 : !v->u.big.neg;
    case CK_FIXNUM: return value_fixnump(v);
    case CK_BIGNUM: return !value_fixnump(v);
    case CK_CHAR: return v->kind == VK_INT && v->u.i >= 0 && v->u.i <= VALUE_MAX_CHAR;
    case CK_PROPER: return value_list_length(v, w->L->nil) >= 0;
    default: return c & (C_SEQ) ? 1 : c == C_OTHER || c == C_REC ? -1 : 0;
    }
}

/* (FN x c) for constants: 1, 0, or -1 when it cannot tell (eq of values
 * whose identity matters). */
static int same(struct ws *w, const struct value *fn, const struct value *x,
                const struct value *c)
{
    if (fn == w->s_equal || fn == w->s_member)
        return value_equal(x, c);
    if (fn == w->s_eql || fn == w->s_memql)
        return value_eql(x, c);
    bool plain = x->kind == VK_SYMBOL || value_fixnump(x) || c->kind == VK_SYMBOL ||
                 value_fixnump(c);
    return plain ? value_eql(x, c) : -1;
}

static int in_set(struct ws *w, const struct value *fn, const struct value *x,
                  const struct value *list)
{
    int r = 0;
    for (; list->kind == VK_CONS; list = value_cdr(list)) {
        int s = same(w, fn, x, value_car(list));
        if (s == 1)
            return 1;
        if (s < 0)
            r = -1;
    }
    return r;
}

static bool among(const struct clist *l, const struct value *v)
{
    for (; l; l = l->next)
        if (value_equal(l->v, v))
            return true;
    return false;
}

/* ---- settling the facts ------------------------------------------------- */

/* Narrow e's classes; false when none is left. */
static bool narrow(struct ent *e, unsigned to, bool *changed)
{
    if ((e->classes & to) != e->classes) {
        e->classes &= to;
        e->ver++;
        *changed = true;
    }
    return e->classes != 0;
}

static bool force(struct ent *e, struct value *v, bool *changed)
{
    if (e->eqc)
        return value_equal(e->eqc, v);
    e->eqc = v;
    e->ver++;
    *changed = true;
    return true;
}

/* The one member of e's sets that its other facts allow, when there is
 * exactly one; false when there is none. */
static bool settle_sets(struct ws *w, struct ent *e, bool *changed)
{
    if (!e->sets)
        return true;
    struct value *only = NULL;
    size_t n = 0;
    for (struct value *l = e->sets->v; l->kind == VK_CONS; l = value_cdr(l)) {
        struct value *x = value_car(l);
        bool ok = (class_of(w->L, x) & e->classes) && !among(e->neq, x);
        for (const struct clist *s = e->sets->next; ok && s; s = s->next)
            ok = in_set(w, s->fn, x, s->v) != 0;
        if (ok && !(only && value_equal(only, x))) {
            only = x;
            n++;
        }
    }
    if (n == 1 && !e->eqc)
        return force(e, only, changed);
    return n > 0;
}

/* Facts of e alone. */
static bool settle_own(struct ws *w, struct ent *e, bool *changed)
{
    if (!e->classes)
        return false;
    if (!e->eqc && (e->classes == C_NIL || e->classes == C_T))
        force(e, e->classes == C_NIL ? w->L->nil : w->L->t, changed);
    if (!e->eqc)
        return settle_sets(w, e, changed);
    if (!narrow(e, class_of(w->L, e->eqc), changed) || among(e->neq, e->eqc))
        return false;
    for (const struct clist *s = e->sets; s; s = s->next)
        if (in_set(w, s->fn, e->eqc, s->v) == 0)
            return false;
    for (const struct clist *p = e->preds; p; p = p->next) {
        int h = pred_holds(w, pred_of(p->v), e->eqc);
        if (h >= 0 && h != (p->fn != NULL))
            return false;
    }
    return true;
}

/* Facts that tie e to its parent p. */
static bool settle_link(struct ws *w, struct ent *e, struct ent *p, bool *changed)
{
    if (p->eqc && e->op != OP_OPAQUE) {
        struct value *v = op_on(w, e->op, e->k, p->eqc);
        if (!v || !force(e, v, changed))
            return false;
    }
    switch (e->op) {
    case OP_CAR:
    case OP_CDR:
        if (!(p->classes & C_CONS) && !narrow(e, C_NIL, changed))
            return false;
        if (!(e->classes & C_NIL) && !narrow(p, C_CONS, changed))
            return false;
        return true;
    case OP_LENGTH:
        if (!narrow(e, C_INT, changed) || !narrow(p, C_SEQ | C_REC | C_OTHER, changed))
            return false;
        if (p->classes == C_NIL && !force(e, value_int(w->L->a, 0), changed))
            return false;
        if (e->eqc && e->eqc->kind == VK_INT) {
            if (e->eqc->u.i < 0)
                return false;
            if (!narrow(p, e->eqc->u.i ? ~C_NIL : ~C_CONS, changed))
                return false;
        }
        return true;
    case OP_AREF:
        return narrow(p, C_STR | C_VEC | C_REC | C_OTHER, changed);
    default:
        return true;
    }
}

/* Run the rules until nothing changes; false on a contradiction.  A rule
 * is skipped where it found nothing to change on the same versions of
 * its entries: it would find nothing again, so the rounds are those of
 * running every rule. */
static bool settle(struct ws *w, struct facts *f)
{
    for (size_t round = 0; round < 4 * f->n + 8; round++) {
        bool changed = false;
        for (size_t i = 0; i < f->n; i++) {
            struct ent *e = &f->e[i];
            bool c = false;
            if (e->own_ok != e->ver) {
                if (!settle_own(w, e, &c))
                    return false;
                if (!c)
                    e->own_ok = e->ver;
            }
            if (e->parent < 0)
                continue;
            struct ent *p = &f->e[e->parent];
            if (e->link_e != e->ver || e->link_p != p->ver) {
                bool cl = false;
                if (!settle_link(w, e, p, &cl))
                    return false;
                if (!cl) {
                    e->link_e = e->ver;
                    e->link_p = p->ver;
                }
                c |= cl;
            }
            changed |= c;
        }
        if (!changed)
            return true;
    }
    return true;
}

/* ---- reading forms ------------------------------------------------------ */

/* The constant an argument of a generated form stands for, or NULL. */
static struct value *constant(struct ws *w, struct value *a)
{
    if (a->kind == VK_CONS)
        return value_car(a) == w->L->quote && value_cdr(a)->kind == VK_CONS
                   ? value_car(value_cdr(a))
                   : NULL;
    if (a->kind != VK_SYMBOL)
        return a;
    if (a == w->L->nil || a == w->L->t || (a->u.sym.interned && a->u.sym.name[0] == ':'))
        return a;
    return NULL;
}

static struct value *arg(const struct value *form, int i)
{
    const struct value *l = value_cdr(form);
    while (i-- > 0 && l->kind == VK_CONS)
        l = value_cdr(l);
    return l->kind == VK_CONS ? value_car(l) : NULL;
}

static size_t nargs(const struct value *form)
{
    size_t n = 0;
    for (const struct value *l = value_cdr(form); l->kind == VK_CONS; l = value_cdr(l))
        n++;
    return n;
}

static bool small_index(const struct value *v, long *k)
{
    if (!v || v->kind != VK_INT || v->u.i < 0 || v->u.i > 1 << 20)
        return false;
    *k = (long)v->u.i;
    return true;
}

/* ---- applying a test to the facts -------------------------------------- */

/* Is `eq' with c the same as `equal' with c? */
static bool plain_eq(const struct value *c)
{
    return c->kind == VK_SYMBOL || value_fixnump(c);
}

static bool is_equality(const struct ws *w, const struct value *h)
{
    return h == w->s_eq || h == w->s_eql || h == w->s_equal;
}

static bool is_member(const struct ws *w, const struct value *h)
{
    return h == w->s_memq || h == w->s_memql || h == w->s_member;
}

/* What outcome `yes' of form tells: false on a contradiction.  Forms it
 * cannot read add to the way's blockers. */
static bool learn(struct ws *w, struct facts *f, struct value *form, bool yes)
{
    if (form->kind != VK_CONS || value_car(form)->kind != VK_SYMBOL)
        goto unknown;
    struct value *h = value_car(form), *a0 = arg(form, 0), *a1 = arg(form, 1);
    size_t n = nargs(form);
    if ((h == w->s_not || h == w->s_null) && n == 1 && a0->kind == VK_CONS &&
        ent_of(f, a0) < 0)
        return learn(w, f, a0, !yes);
    int e = n >= 1 ? ent_of(f, a0) : -1;
    if (e < 0 && n == 2 && is_equality(w, h) && ent_of(f, a1) >= 0) {
        struct value *t = a0;
        a0 = a1;
        a1 = t;
        e = ent_of(f, a0);
    }
    if (e < 0)
        goto unknown;
    struct ent *x = &f->e[e];
    const struct pred_row *r = n == 1 ? pred_of(h) : NULL;
    struct value *c = n == 2 ? constant(w, a1) : NULL;
    if (r) {
        x->classes &= yes ? r->maybe : ~r->sure;
        if (r->sure != r->maybe)
            x->preds = clist_add(w, x->preds, h, yes ? h : NULL);
    } else if (c && is_equality(w, h)) {
        if (yes && x->eqc && !value_equal(x->eqc, c))
            return false;
        if (yes)
            x->eqc = c;
        else if (h != w->s_eq || plain_eq(c)) /* eq can fail on equal values */
            x->neq = clist_add(w, x->neq, c, NULL);
    } else if (c && is_member(w, h) && value_list_length(c, w->L->nil) >= 0) {
        if (yes)
            x->sets = clist_add(w, x->sets, c, h);
        else
            for (struct value *l = c; l->kind == VK_CONS; l = value_cdr(l))
                if (h != w->s_memq || plain_eq(value_car(l)))
                    x->neq = clist_add(w, x->neq, value_car(l), NULL);
    } else {
        goto unknown;
    }
    x->ver++;
    return settle(w, f);
unknown:
    if (!w->pruned) /* the reachability walk needs no reasons */
        f->blockers = clist_add(w, f->blockers, form, NULL);
    return true;
}

/* The entry of a list's element k (car after k cdrs), or of its k-th
 * tail when !car. */
static int list_part(struct ws *w, struct facts *f, int p, long k, bool car)
{
    for (long i = 0; i < k; i++)
        p = child(w, f, p, OP_CDR, 0);
    return car ? child(w, f, p, OP_CAR, 0) : p;
}

/* The entry computed by call form (-1: not one the facts follow). */
static int call_entry(struct ws *w, struct facts *f, struct value *form)
{
    if (form->kind != VK_CONS || nargs(form) < 1 || nargs(form) > 2)
        return -1;
    struct value *h = value_car(form), *a0 = arg(form, 0), *a1 = arg(form, 1);
    int p0 = ent_of(f, a0), p1 = a1 ? ent_of(f, a1) : -1;
    long k;
    if (!a1 && p0 >= 0) {
        if (h == w->s_car || h == w->s_cdr) { /* else they signal */
            f->e[p0].classes &= C_LIST;
            f->e[p0].ver++;
        }
        if (h == w->s_car || h == w->s_car_safe)
            return child(w, f, p0, OP_CAR, 0);
        if (h == w->s_cdr || h == w->s_cdr_safe)
            return child(w, f, p0, OP_CDR, 0);
        return h == w->s_length ? child(w, f, p0, OP_LENGTH, 0) : -1;
    }
    if (p1 >= 0 && (h == w->s_nth || h == w->s_nthcdr) && small_index(a0, &k)) {
        f->e[p1].classes &= C_LIST;
        f->e[p1].ver++;
        return list_part(w, f, p1, k, h == w->s_nth);
    }
    if (p0 < 0 || !small_index(a1, &k))
        return -1;
    if (h == w->s_aref)
        return child(w, f, p0, OP_AREF, k);
    if (h != w->s_elt_safe)
        return -1;
    /* on a list, element k; on anything else, its own relation */
    return (f->e[p0].classes & ~C_LIST) ? child(w, f, p0, OP_ELT, k)
                                        : list_part(w, f, p0, k, true);
}

/* The entry a call form computes: temp becomes its name. */
static bool learn_call(struct ws *w, struct facts *f, struct value *form,
                       const struct value *temp)
{
    int e = form ? call_entry(w, f, form) : -1;
    if (e < 0)
        e = child(w, f, -1, OP_OPAQUE, 0);
    add_alias(w, f, temp, e);
    return settle(w, f);
}

/* ---- the evaluator ------------------------------------------------------ */

/* Concrete values of the temporaries on one run. */
struct env {
    const struct value **expr;
    struct value **val;
    size_t n, cap;
};

static struct value *env_get(const struct env *v, const struct value *expr)
{
    for (size_t i = v->n; i-- > 0;)
        if (v->expr[i] == expr)
            return v->val[i];
    return NULL;
}

static void env_put(struct ws *w, struct env *v, const struct value *expr, struct value *val)
{
    if (v->n == v->cap) {
        size_t ncap = v->cap * 2 + 8;
        v->expr = arena_grow(w->a, v->expr, v->cap * sizeof *v->expr, ncap * sizeof *v->expr);
        v->val = arena_grow(w->a, v->val, v->cap * sizeof *v->val, ncap * sizeof *v->val);
        v->cap = ncap;
    }
    v->expr[v->n] = expr;
    v->val[v->n++] = val;
}

/* An argument's value: a temporary's, or a constant. */
static struct value *arg_value(struct ws *w, const struct env *v, struct value *a)
{
    struct value *x = env_get(v, a);
    return x ? x : constant(w, a);
}

/* Value of a generated test or call on concrete temporaries; NULL when it
 * signals or cannot be evaluated (*known false then). */
static struct value *eval(struct ws *w, const struct env *v, struct value *form, bool *known)
{
    *known = false;
    if (form->kind != VK_CONS || value_car(form)->kind != VK_SYMBOL || nargs(form) > 2 ||
        nargs(form) < 1)
        return NULL;
    struct value *h = value_car(form), *a0 = arg(form, 0), *a1 = arg(form, 1);
    struct lisp *L = w->L;
    if ((h == w->s_not || h == w->s_null) && a0->kind == VK_CONS && !env_get(v, a0)) {
        struct value *r = eval(w, v, a0, known);
        return r ? (r == L->nil ? L->t : L->nil) : NULL;
    }
    struct value *x = arg_value(w, v, a0), *y = a1 ? arg_value(w, v, a1) : NULL;
    if (!x || (a1 && !y))
        return NULL;
    *known = true;
    const struct pred_row *r = a1 ? NULL : pred_of(h);
    int b = -2;
    long k;
    if (r)
        b = pred_holds(w, r, x);
    else if (a1 && is_equality(w, h))
        b = same(w, h, x, y);
    else if (a1 && is_member(w, h))
        b = in_set(w, h, x, y);
    else if (!a1 && (h == w->s_car || h == w->s_car_safe || h == w->s_cdr || h == w->s_cdr_safe)) {
        bool strict = h == w->s_car || h == w->s_cdr;
        if (strict && x->kind != VK_CONS && x != L->nil)
            return *known = true, NULL;
        return op_on(w, h == w->s_car || h == w->s_car_safe ? OP_CAR : OP_CDR, 0, x);
    } else if (!a1 && h == w->s_length)
        return op_on(w, OP_LENGTH, 0, x);
    else if (a1 && h == w->s_aref && small_index(y, &k))
        return op_on(w, OP_AREF, k, x);
    else if (a1 && h == w->s_elt_safe && small_index(y, &k))
        return op_on(w, OP_ELT, k, x);
    else if (a1 && (h == w->s_nth || h == w->s_nthcdr) && small_index(x, &k)) {
        if (y->kind != VK_CONS && y != L->nil)
            return NULL;
        for (long i = 0; i < k && y->kind == VK_CONS; i++)
            y = value_cdr(y);
        return h == w->s_nthcdr ? y : op_on(w, OP_CAR, 0, y);
    }
    if (b < 0)
        *known = false;
    return b < 0 ? NULL : b ? L->t : L->nil;
}

/* Does a run on root value v reach target?  1 yes, 0 no, -1 it met
 * something it cannot evaluate. */
static int run_dag(struct ws *w, const struct dnode *n, const struct subj *root,
                   struct value *v, long target)
{
    struct env env = {NULL, NULL, 0, 0};
    env_put(w, &env, root->expr, v);
    for (size_t steps = 0; steps < 1u << 20; steps++) {
        bool known;
        struct value *r;
        switch (n->kind) {
        case DN_LEAF: return target >= 0 && n->clause == (uint32_t)target;
        case DN_FAIL: return target < 0;
        case DN_DONTCARE: return 0;
        case DN_USE: n = n->then; break;
        case DN_BIND:
            r = eval(w, &env, form_of(w, n->test), &known);
            if (!r)
                return known ? 0 : -1;
            env_put(w, &env, n->temp->expr, r);
            n = n->then;
            break;
        case DN_TEST:
            r = eval(w, &env, form_of(w, n->test), &known);
            if (!r)
                return known ? 0 : -1;
            n = r != w->L->nil ? n->then : n->els;
            break;
        }
    }
    return -1;
}

/* ---- building a value from the facts ----------------------------------- */

/* The first of a few plain values of class c that e's facts allow. */
static struct value *plain_value(struct ws *w, const struct ent *e, unsigned c)
{
    struct lisp *L = w->L;
    char name[32];
    for (int i = 0; i < 12; i++) {
        struct value *v = NULL;
        switch (c) {
        case C_NIL: v = L->nil; break;
        case C_T: v = L->t; break;
        case C_INT: v = value_int(L->a, i < 10 ? i : 9 - i); break;
        case C_FLOAT: v = value_float(L->a, i + 0.5); break;
        case C_SYM:
            snprintf(name, sizeof name, i ? "foo%d" : "foo", i);
            v = intern_cstr(L, name);
            break;
        case C_KW:
            snprintf(name, sizeof name, i ? ":foo%d" : ":foo", i);
            v = intern_cstr(L, name);
            break;
        case C_STR:
            snprintf(name, sizeof name, "%.*s", i, "abcdefghijkl");
            v = value_string(L->a, name, strlen(name), false);
            break;
        default: return NULL;
        }
        if (among(e->neq, v))
            continue;
        bool ok = true;
        for (const struct clist *s = e->sets; ok && s; s = s->next)
            ok = in_set(w, s->fn, v, s->v) == 1;
        for (const struct clist *p = e->preds; ok && p; p = p->next)
            ok = pred_holds(w, pred_of(p->v), v) == (p->fn != NULL);
        if (ok)
            return v;
    }
    return NULL;
}

static struct value *build(struct ws *w, const struct facts *f, int e, unsigned prefer);

/* The children of e with operation op. */
static int kid(const struct facts *f, int e, enum op op, long k)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->e[i].parent == e && f->e[i].op == op && f->e[i].k == k)
            return (int)i;
    return -1;
}

static long max_index(const struct facts *f, int e)
{
    long m = -1;
    for (size_t i = 0; i < f->n; i++)
        if (f->e[i].parent == e && (f->e[i].op == OP_AREF || f->e[i].op == OP_ELT) &&
            f->e[i].k > m)
            m = f->e[i].k;
    return m;
}

/* A vector (or list when as_list) of the wanted length with e's indexed children. */
static struct value *build_seq(struct ws *w, const struct facts *f, int e, bool as_list)
{
    struct lisp *L = w->L;
    int len_e = kid(f, e, OP_LENGTH, 0);
    long len = max_index(f, e) + 1;
    if (len_e >= 0 && f->e[len_e].eqc && f->e[len_e].eqc->kind == VK_INT)
        len = (long)f->e[len_e].eqc->u.i;
    else if (len_e >= 0)
        while (among(f->e[len_e].neq, value_int(L->a, len)) && len < 64)
            len++;
    if (len < 0 || len > 64)
        return NULL;
    struct value **items = arena_alloc(L->a, ((size_t)len + 1) * sizeof *items);
    for (long i = 0; i < len; i++) {
        int c = kid(f, e, OP_AREF, i);
        if (c < 0)
            c = kid(f, e, OP_ELT, i);
        items[i] = c >= 0 ? build(w, f, c, 0) : L->nil;
        if (!items[i])
            return NULL;
    }
    if (as_list)
        return lisp_list(L, (size_t)len, items);
    struct value *v = value_vector(L->a, VK_VECTOR, (size_t)len);
    for (long i = 0; i < len; i++)
        v->u.vec.items[i] = items[i];
    return v;
}

static const unsigned class_order[] = {C_SYM, C_INT, C_STR, C_NIL, C_T, C_KW,
                                       C_FLOAT, C_CONS, C_VEC};

/* The class a value for e is made in: the one its computed parts need,
 * else `prefer', else the first allowed in class_order. */
static unsigned pick_class(const struct facts *f, int e, unsigned prefer)
{
    const struct ent *x = &f->e[e];
    int car = kid(f, e, OP_CAR, 0), cdr = kid(f, e, OP_CDR, 0);
    bool cons_parts = (car >= 0 && !(f->e[car].classes & C_NIL)) ||
                      (cdr >= 0 && !(f->e[cdr].classes & C_NIL));
    bool indexed = max_index(f, e) >= 0 || kid(f, e, OP_LENGTH, 0) >= 0;
    if (cons_parts && (x->classes & C_CONS))
        return C_CONS;
    if (indexed && (x->classes & C_VEC))
        return C_VEC;
    if (indexed && (x->classes & C_CONS))
        return C_CONS;
    if (prefer & x->classes)
        return prefer;
    for (size_t i = 0; i < sizeof class_order / sizeof class_order[0]; i++)
        if (x->classes & class_order[i])
            return class_order[i];
    return 0;
}

static struct value *build(struct ws *w, const struct facts *f, int e, unsigned prefer)
{
    const struct ent *x = &f->e[e];
    if (x->eqc)
        return x->eqc;
    if (x->sets && x->sets->v->kind == VK_CONS) /* settle left a member */
        for (struct value *l = x->sets->v; l->kind == VK_CONS; l = value_cdr(l))
            if ((class_of(w->L, value_car(l)) & x->classes) && !among(x->neq, value_car(l)))
                return value_car(l);
    if (!memo_enter(w->m))
        return NULL;
    unsigned c = pick_class(f, e, prefer);
    struct value *v = NULL;
    if (c == C_CONS && max_index(f, e) < 0 && kid(f, e, OP_LENGTH, 0) < 0) {
        int car = kid(f, e, OP_CAR, 0), cdr = kid(f, e, OP_CDR, 0);
        struct value *a = car >= 0 ? build(w, f, car, 0) : w->L->nil;
        struct value *d = cdr >= 0 ? build(w, f, cdr, 0) : w->L->nil;
        v = a && d ? value_cons(w->L->a, a, d) : NULL;
    } else if (c == C_CONS || c == C_VEC) {
        v = build_seq(w, f, e, c == C_CONS);
    } else if (c) {
        v = plain_value(w, x, c);
    }
    memo_leave(w->m);
    return v;
}

/* ---- the search --------------------------------------------------------- */

struct frame {
    const struct dnode *n;
    struct facts *f;
    struct arena_mark mark;   /* the arena after f was made */
};

static void add_blockers(struct ws *w, struct witness_result *out, const struct clist *b)
{
    for (; b; b = b->next) {
        bool seen = false;
        for (size_t i = 0; i < out->n_blockers && !seen; i++)
            seen = value_equal(out->blockers[i], b->v);
        if (seen || out->n_blockers >= 8)
            continue;
        struct value **nb = arena_alloc(w->L->a, (out->n_blockers + 1) * sizeof *nb);
        if (out->n_blockers)
            memcpy(nb, out->blockers, out->n_blockers * sizeof *nb);
        /* newest first in the list: keep the order met */
        memmove(nb + 1, nb, out->n_blockers * sizeof *nb);
        nb[0] = b->v;
        out->blockers = nb;
        out->n_blockers++;
    }
}

/* A way reached the target with facts f: try values on it. */
static bool try_way(struct ws *w, const struct facts *f, const struct dnode *dag,
                    const struct subj *root, long target, struct witness_result *out)
{
    for (size_t i = 0; i < sizeof class_order / sizeof class_order[0]; i++) {
        if (!(f->e[0].classes & class_order[i]))
            continue;
        struct value *v = build(w, f, 0, class_order[i]);
        if (v && run_dag(w, dag, root, v, target) == 1) {
            out->status = WITNESS_FOUND;
            out->value = v;
            return true;
        }
        if (f->e[0].eqc)
            break;
    }
    return false;
}

static void init_syms(struct ws *w)
{
    struct value *const *fn = w->L->fns;
    w->s_eq = fn[LISP_FN_EQ];
    w->s_eql = fn[LISP_FN_EQL];
    w->s_equal = fn[LISP_FN_EQUAL];
    w->s_memq = fn[LISP_FN_MEMQ];
    w->s_memql = fn[LISP_FN_MEMQL];
    w->s_member = fn[LISP_FN_MEMBER];
    w->s_not = fn[LISP_FN_NOT];
    w->s_null = fn[LISP_FN_NULL];
    w->s_car = fn[LISP_FN_CAR];
    w->s_cdr = fn[LISP_FN_CDR];
    w->s_car_safe = fn[LISP_FN_CAR_SAFE];
    w->s_cdr_safe = fn[LISP_FN_CDR_SAFE];
    w->s_length = fn[LISP_FN_LENGTH];
    w->s_aref = fn[LISP_FN_AREF];
    w->s_nth = fn[LISP_FN_NTH];
    w->s_nthcdr = fn[LISP_FN_NTHCDR];
    w->s_elt_safe = fn[LISP_FN_ELT_SAFE];
}

/* The facts at the root: a copyable subject that is a constant is known. */
static struct facts *root_facts(struct ws *w, const struct subj *root)
{
    struct facts *f = arena_alloc(w->a, sizeof *f);
    memset(f, 0, sizeof *f);
    child(w, f, -1, OP_ROOT, 0);
    add_alias(w, f, root->expr, 0);
    struct value *c = root->temp ? NULL : constant(w, root->expr);
    if (c)
        f->e[0].eqc = c;
    return f;
}

/* Is there a clause still to reach at or below x?  Always, unless the
 * search is pruned (w->todo). */
static bool wanted(const struct ws *w, const struct dnode *x)
{
    return !w->pruned || (x->below & w->todo);
}

/* Follow node x of frame fr: push the ways on.  The frame's facts are
 * its own (no other frame holds them), so the last way taken from it
 * continues them in place; the others copy them first. */
static size_t push_next(struct ws *w, struct frame *st, size_t top, const struct frame *fr)
{
    const struct dnode *x = fr->n;
    struct facts *g;
    switch (x->kind) {
    case DN_USE:
        if (wanted(w, x->then))
            st[top++] = (struct frame){x->then, fr->f, arena_mark(w->a)};
        return top;
    case DN_BIND:
        if (wanted(w, x->then) && learn_call(w, fr->f, form_of(w, x->test), x->temp->expr))
            st[top++] = (struct frame){x->then, fr->f, arena_mark(w->a)};
        return top;
    case DN_TEST: {
        struct value *form = form_of(w, x->test);
        if (!form)
            return top;
        bool then = wanted(w, x->then);
        if (wanted(w, x->els)) {
            g = then ? facts_copy(w, fr->f) : fr->f;
            if (learn(w, g, form, false))
                st[top++] = (struct frame){x->els, g, arena_mark(w->a)};
        }
        if (then && learn(w, fr->f, form, true))
            st[top++] = (struct frame){x->then, fr->f, arena_mark(w->a)};
        return top;
    }
    default:
        return top;
    }
}

/* What the search does at a node it reached: true to stop. */
typedef bool at_node_fn(struct ws *w, const struct frame *fr, void *arg);

/* Frames the search keeps on the C stack before it needs the arena. */
enum { FRAMES_LOCAL = 64 };

/* Depth-first through the ways of dag that no fact contradicts (then
 * before else); false when it stopped at its bound. */
static bool search(struct ws *w, const struct dnode *dag, const struct subj *root,
                   at_node_fn *at, void *arg)
{
    /* the facts are released as the search backs up, unless they share
     * the arena of the Lisp values it returns */
    bool release = w->a != w->L->a;
    struct arena_mark base = arena_mark(w->a);
    struct frame local[FRAMES_LOCAL];
    size_t cap = FRAMES_LOCAL, top = 0, visits = 0;
    bool complete = true;
    struct frame *st = local;
    st[top++] = (struct frame){dag, root_facts(w, root), arena_mark(w->a)};
    while (top) {
        struct frame fr = st[--top];
        if (release)
            arena_release(w->a, fr.mark);
        if (!wanted(w, fr.n))
            continue;
        if (++visits > WITNESS_BUDGET) {
            complete = false;
            break;
        }
        if (at(w, &fr, arg))
            break;
        if (top + 3 > cap) { /* the frames outlive releases of w->a */
            struct frame *ns = arena_alloc(w->L->a, 2 * cap * sizeof *st);
            memcpy(ns, st, top * sizeof *st);
            st = ns;
            cap *= 2;
        }
        top = push_next(w, st, top, &fr);
    }
    if (release)
        arena_release(w->a, base);
    return complete;
}

struct find_arg {
    const struct dnode *dag;
    const struct subj *root;
    long target;
    bool want_value;
    struct witness_result *out;
};

static bool at_find(struct ws *w, const struct frame *fr, void *arg)
{
    struct find_arg *f = arg;
    const struct dnode *x = fr->n;
    bool hit = (x->kind == DN_LEAF && f->target >= 0 && x->clause == (uint32_t)f->target) ||
               (x->kind == DN_FAIL && f->target < 0);
    if (!hit)
        return false;
    f->out->ways++;
    if (!f->want_value || try_way(w, fr->f, f->dag, f->root, f->target, f->out))
        return true;
    add_blockers(w, f->out, fr->f->blockers);
    return false;
}

void witness_find(struct memo_ctx *m, const struct dnode *dag, const struct subj *root,
                  long target, bool want_value, struct witness_result *out)
{
    memset(out, 0, sizeof *out);
    out->status = WITNESS_NONE;
    struct ws w = {.m = m, .L = m->L, .a = m->a};
    init_syms(&w);
    struct find_arg f = {dag, root, target, want_value, out};
    out->budget = !search(&w, dag, root, at_find, &f);
    if (out->status != WITNESS_FOUND && (out->ways || out->budget))
        out->status = WITNESS_UNKNOWN;
}

struct reach_arg {
    bool *reached;
    size_t n;
};

static bool at_reach(struct ws *w, const struct frame *fr, void *arg)
{
    struct reach_arg *r = arg;
    if (fr->n->kind != DN_LEAF || fr->n->clause >= r->n)
        return false;
    r->reached[fr->n->clause] = true;
    if (!w->pruned)
        return false;
    w->todo &= ~(UINT64_C(1) << fr->n->clause);
    return !w->todo;
}

/* The answer for the wanted clauses is the full search's: a pruned
 * search visits some of the full search's nodes, so when it reaches
 * every wanted clause the full one does too (or stops at its bound, and
 * then the caller counts every clause with leaves reached); when it
 * stops at its bound, so would the full one.  Only when a wanted clause
 * is left does the full search run, to tell unreachable from a bound. */
bool witness_reach(struct memo_ctx *m, const struct dnode *dag, const struct subj *root,
                   const bool *want, bool *reached, size_t n)
{
    memset(reached, 0, n * sizeof *reached);
    struct ws w = {.m = m, .L = m->L, .a = m->a};
    init_syms(&w);
    struct reach_arg r = {reached, n};
    if (n <= 64) {
        for (size_t i = 0; i < n; i++)
            w.todo |= (uint64_t)want[i] << i;
        if (!w.todo)
            return true;
        w.pruned = true;
        if (!search(&w, dag, root, at_reach, &r))
            return false;
        if (!w.todo)
            return true;
        w.pruned = false;
        memset(reached, 0, n * sizeof *reached);
    }
    return search(&w, dag, root, at_reach, &r);
}

/* One line of witness_dump. */
static void dump_result(struct memo_ctx *m, struct buf *out, const struct witness_result *r)
{
    struct print_opts o = print_opts_compact();
    switch (r->status) {
    case WITNESS_FOUND:
        print_value(m->L, out, r->value, &o);
        break;
    case WITNESS_NONE:
        buf_puts(out, "no value");
        break;
    case WITNESS_UNKNOWN:
        buf_puts(out, r->budget ? "unknown (search bound)" : "unknown");
        for (size_t i = 0; i < r->n_blockers; i++) {
            buf_puts(out, i ? ", " : ": ");
            print_value(m->L, out, r->blockers[i], &o);
        }
        break;
    }
    buf_puts(out, "\n");
}

void witness_dump(struct memo_ctx *m, struct buf *out, const struct dnode *dag,
                  const struct subj *root, size_t n)
{
    struct witness_result r;
    for (size_t i = 0; i < n; i++) {
        witness_find(m, dag, root, (long)i, true, &r);
        buf_printf(out, "clause %zu: ", i);
        dump_result(m, out, &r);
    }
    witness_find(m, dag, root, WITNESS_NO_MATCH, true, &r);
    buf_puts(out, "no match: ");
    dump_result(m, out, &r);
}
