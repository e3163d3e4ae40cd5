/* interp_lib.c - the built-in functions of the evaluator (interp.h).
 *
 * Pure functions of Emacs 30.1 that macro bodies call, each a row of the
 * sorted table at the end: its name, its numbers of arguments and the C
 * function that computes it from evaluated arguments.  Functions that
 * modify their arguments in Emacs (nreverse, nconc, delq, plist-put...)
 * return the same value here without modifying anything: the evaluator
 * never changes a value it did not make (values read from the input are
 * shared by the whole run).  Everything else is refused by omission.
 */
#include "expand/interp_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lisp/print.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- argument checks ---- */

static bool listp(struct interp_st *s, const struct value *v)
{
    return value_consp(v) || interp_nilp(s, v);
}

static bool want_list(struct interp_st *s, struct value *v)
{
    return listp(s, v) || (interp_wrong_type(s, "listp", v), false);
}

static bool want_int(struct interp_st *s, struct value *v)
{
    return v->kind == VK_INT || (interp_wrong_type(s, "integerp", v), false);
}

static bool want_number(struct interp_st *s, struct value *v)
{
    return v->kind == VK_INT || v->kind == VK_FLOAT ||
           (interp_wrong_type(s, "number-or-marker-p", v), false);
}

static bool want_string(struct interp_st *s, struct value *v)
{
    return v->kind == VK_STRING || (interp_wrong_type(s, "stringp", v), false);
}

static bool want_symbol(struct interp_st *s, struct value *v)
{
    return v->kind == VK_SYMBOL || (interp_wrong_type(s, "symbolp", v), false);
}

/* The elements of a sequence (list, vector, string, nil); characters of
 * a string as integers. */
static struct value **seq_items(struct interp_st *s, struct value *v, size_t *n)
{
    if (listp(s, v))
        return interp_items(s, v, n);
    if (v->kind == VK_VECTOR || v->kind == VK_RECORD) {
        *n = v->u.vec.n;
        return interp_charge(s, *n * sizeof(struct value *)) ? v->u.vec.items : NULL;
    }
    if (v->kind != VK_STRING)
        return interp_wrong_type(s, "sequencep", v), NULL;
    const struct value_string *str = &v->u.str;
    if (!interp_charge(s, str->nchars * (sizeof(struct value *) + INTERP_VALUE_BYTES)))
        return NULL;
    struct value **a = ARENA_NEWN(s->L->a, struct value *, str->nchars + 1);
    *n = 0;
    for (size_t i = 0; i < str->len;) {
        int len = 1;
        uint32_t c = str->multibyte ? value_char_decode(str->data + i, str->len - i, &len)
                                    : str->data[i];
        a[(*n)++] = value_int(s->L->a, c);
        i += (size_t)len;
    }
    return a;
}

/* ---- lists ---- */

static struct value *car_of(struct interp_st *s, struct value *v)
{
    return value_consp(v) ? value_car(v) : want_list(s, v) ? v : NULL;
}

static struct value *cdr_of(struct interp_st *s, struct value *v)
{
    return value_consp(v) ? value_cdr(v) : want_list(s, v) ? v : NULL;
}

/* c[ad]+r of the path (read right to left, as the name is). */
static struct value *cxr(struct interp_st *s, struct value *v, const char *path)
{
    for (size_t i = strlen(path); i-- > 0 && v;)
        v = path[i] == 'a' ? car_of(s, v) : cdr_of(s, v);
    return v;
}

#define CXR(fn, path)                                                      \
    static struct value *fn(struct interp_st *s, struct value **a, size_t n) \
    {                                                                      \
        (void)n;                                                           \
        return cxr(s, a[0], path);                                         \
    }
CXR(f_car, "a")
CXR(f_cdr, "d")
CXR(f_caar, "aa")
CXR(f_cadr, "ad")
CXR(f_cdar, "da")
CXR(f_cddr, "dd")
CXR(f_caddr, "add")
CXR(f_cdddr, "ddd")
CXR(f_cadddr, "addd")

static struct value *f_car_safe(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return value_consp(a[0]) ? value_car(a[0]) : s->L->nil;
}

static struct value *f_cdr_safe(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return value_consp(a[0]) ? value_cdr(a[0]) : s->L->nil;
}

static struct value *f_cons(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return interp_cons(s, a[0], a[1]);
}

static struct value *f_list(struct interp_st *s, struct value **a, size_t n)
{
    return interp_list(s, a, n);
}

/* (cl-list* A... LAST): LAST is the tail. */
static struct value *f_list_star(struct interp_st *s, struct value **a, size_t n)
{
    struct value *r = a[n - 1];
    for (size_t i = n - 1; i-- > 0;)
        r = interp_cons(s, a[i], r);
    return r;
}

static struct value *nthcdr(struct interp_st *s, struct value *k, struct value *l)
{
    if (!want_int(s, k))
        return NULL;
    for (int64_t i = 0; i < k->u.i && l && value_consp(l); i++) {
        if (!interp_tick(s))
            return NULL;
        l = value_cdr(l);
    }
    return l && (listp(s, l) || k->u.i <= 0) ? l : want_list(s, l) ? l : NULL;
}

static struct value *f_nthcdr(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return nthcdr(s, a[0], a[1]);
}

static struct value *f_nth(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    struct value *l = nthcdr(s, a[0], a[1]);
    return l ? car_of(s, l) : NULL;
}

static struct value *f_elt(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (listp(s, a[0])) {
        struct value *b[2] = {a[1], a[0]};
        return f_nth(s, b, 2);
    }
    size_t k;
    struct value **items = seq_items(s, a[0], &k);
    if (!items || !want_int(s, a[1]))
        return NULL;
    if (a[1]->u.i < 0 || (size_t)a[1]->u.i >= k)
        return interp_signal_n(s, "args-out-of-range", 2, a[0], a[1]);
    return items[a[1]->u.i];
}

static struct value *f_aref(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (listp(s, a[0]))
        return interp_wrong_type(s, "arrayp", a[0]);
    return f_elt(s, a, 2);
}

static struct value *f_length(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (a[0]->kind == VK_STRING)
        return interp_int(s, (int64_t)a[0]->u.str.nchars);
    size_t k;
    return seq_items(s, a[0], &k) ? interp_int(s, (int64_t)k) : NULL;
}

static struct value *f_last(struct interp_st *s, struct value **a, size_t n)
{
    size_t k;
    struct value **items = interp_items(s, a[0], &k);
    int64_t want = 1;
    if (!items || (n > 1 && !interp_nilp(s, a[1]) && !want_int(s, a[1])))
        return NULL;
    if (n > 1 && !interp_nilp(s, a[1]))
        want = a[1]->u.i;
    struct value *l = a[0];
    for (int64_t skip = (int64_t)k - (want < 0 ? 0 : want); skip > 0; skip--)
        l = value_cdr(l);
    return l;
}

static struct value *f_butlast(struct interp_st *s, struct value **a, size_t n)
{
    size_t k;
    struct value **items = interp_items(s, a[0], &k);
    if (!items || (n > 1 && !interp_nilp(s, a[1]) && !want_int(s, a[1])))
        return NULL;
    int64_t drop = n > 1 && !interp_nilp(s, a[1]) ? a[1]->u.i : 1;
    if (drop < 0)
        drop = 0;
    return interp_list(s, items, (int64_t)k > drop ? k - (size_t)drop : 0);
}

static struct value *f_take(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    size_t k;
    struct value **items = want_int(s, a[0]) ? interp_items(s, a[1], &k) : NULL;
    if (!items)
        return NULL;
    return interp_list(s, items, a[0]->u.i < 0 ? 0 : (size_t)a[0]->u.i < k ? (size_t)a[0]->u.i : k);
}

static struct value *f_append(struct interp_st *s, struct value **a, size_t n)
{
    if (n == 0)
        return s->L->nil;
    struct value *r = a[n - 1];
    for (size_t i = n - 1; i-- > 0;) {
        size_t k;
        struct value **items = seq_items(s, a[i], &k);
        if (!items)
            return NULL;
        for (size_t j = k; j-- > 0 && !s->failed;)
            r = interp_cons(s, items[j], r);
    }
    return r;
}

static struct value *f_reverse(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    size_t k;
    struct value **items = seq_items(s, a[0], &k);
    if (!items)
        return NULL;
    if (a[0]->kind == VK_VECTOR) {
        struct value *v = value_vector(s->L->a, VK_VECTOR, k);
        for (size_t i = 0; i < k; i++)
            v->u.vec.items[i] = items[k - 1 - i];
        return v;
    }
    if (!listp(s, a[0]))
        return interp_wrong_type(s, "listp", a[0]);
    struct value *r = s->L->nil;
    for (size_t i = 0; i < k && !s->failed; i++)
        r = interp_cons(s, items[i], r);
    return r;
}

static struct value *f_copy_sequence(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (a[0]->kind == VK_STRING || a[0]->kind == VK_VECTOR)
        return a[0]; /* never modified: sharing is invisible */
    size_t k;
    struct value **items = seq_items(s, a[0], &k);
    return items ? interp_list(s, items, k) : NULL;
}

static struct value *f_copy_tree(struct interp_st *s, struct value **a, size_t n)
{
    (void)s;
    (void)n;
    return a[0]; /* nothing is ever modified: a copy is the same value */
}

static struct value *f_make_list(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (!want_int(s, a[0]))
        return NULL;
    if (a[0]->u.i < 0)
        return interp_wrong_type(s, "wholenump", a[0]);
    struct value *r = s->L->nil;
    for (int64_t i = 0; i < a[0]->u.i && !s->failed; i++)
        r = interp_cons(s, a[1], r);
    return r;
}

static struct value *f_number_sequence(struct interp_st *s, struct value **a, size_t n)
{
    if (!want_int(s, a[0]))
        return NULL;
    if (n < 2 || interp_nilp(s, a[1]))
        return interp_list(s, a, 1);
    int64_t step = n > 2 && !interp_nilp(s, a[2]) ? (want_int(s, a[2]) ? a[2]->u.i : 0) : 1;
    if (s->failed || !want_int(s, a[1]))
        return NULL;
    if (step == 0)
        return interp_error(s, "The increment can not be zero");
    struct value *head = s->L->nil, **tail = &head;
    for (int64_t i = a[0]->u.i; (step > 0 ? i <= a[1]->u.i : i >= a[1]->u.i) && !s->failed;
         i += step) {
        *tail = interp_cons(s, interp_int(s, i), s->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    return head;
}

static struct value *f_flatten_tree(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    /* an explicit stack of the lists still to walk */
    size_t cap = 16, top = 0;
    struct value **st = ARENA_NEWN(s->L->a, struct value *, cap);
    struct value *head = s->L->nil, **tail = &head;
    st[top++] = a[0];
    while (top && !s->failed) {
        struct value *v = st[--top];
        if (interp_nilp(s, v))
            continue;
        if (!value_consp(v)) {
            *tail = interp_cons(s, v, s->L->nil);
            tail = &(*tail)->u.cons.cdr;
            continue;
        }
        if (top + 2 > cap) {
            if (!interp_charge(s, cap * sizeof *st))
                return NULL;
            st = arena_grow(s->L->a, st, cap * sizeof *st, 2 * cap * sizeof *st);
            cap *= 2;
        }
        st[top++] = value_cdr(v);
        st[top++] = value_car(v);
    }
    return head;
}

/* ---- membership, association ---- */

enum test { T_EQ, T_EQL, T_EQUAL };

static bool same(enum test t, const struct value *x, const struct value *y)
{
    return t == T_EQ ? interp_eq(x, y) : t == T_EQL ? value_eql(x, y) : value_equal(x, y);
}

static struct value *member(struct interp_st *s, struct value *x, struct value *l, enum test t)
{
    for (; value_consp(l); l = value_cdr(l)) {
        if (!interp_tick(s))
            return NULL;
        if (same(t, value_car(l), x))
            return l;
    }
    return want_list(s, l) ? s->L->nil : NULL;
}

#define MEMBER(fn, t)                                                      \
    static struct value *fn(struct interp_st *s, struct value **a, size_t n) \
    {                                                                      \
        (void)n;                                                           \
        return member(s, a[0], a[1], t);                                   \
    }
MEMBER(f_memq, T_EQ)
MEMBER(f_memql, T_EQL)
MEMBER(f_member, T_EQUAL)

/* (assq KEY ALIST) and friends; by_cdr: rassq, rassoc. */
static struct value *assoc(struct interp_st *s, struct value *key, struct value *l,
                           enum test t, bool by_cdr)
{
    for (; value_consp(l); l = value_cdr(l)) {
        struct value *e = value_car(l);
        if (!interp_tick(s))
            return NULL;
        if (value_consp(e) && same(t, by_cdr ? value_cdr(e) : value_car(e), key))
            return e;
    }
    return want_list(s, l) ? s->L->nil : NULL;
}

#define ASSOC(fn, t, by_cdr)                                               \
    static struct value *fn(struct interp_st *s, struct value **a, size_t n) \
    {                                                                      \
        (void)n;                                                           \
        return assoc(s, a[0], a[1], t, by_cdr);                            \
    }
ASSOC(f_assq, T_EQ, false)
ASSOC(f_assoc, T_EQUAL, false)
ASSOC(f_rassq, T_EQ, true)
ASSOC(f_rassoc, T_EQUAL, true)

/* (alist-get KEY ALIST &optional DEFAULT REMOVE TESTFN): TESTFN nil
 * (eq) or equal only. */
static struct value *f_alist_get(struct interp_st *s, struct value **a, size_t n)
{
    enum test t = T_EQ;
    if (n > 4 && !interp_nilp(s, a[4])) {
        if (a[4]->kind != VK_SYMBOL || strcmp(a[4]->u.sym.name, "equal") != 0)
            return interp_unknown(s, intern_cstr(s->L, "alist-get"), false);
        t = T_EQUAL;
    }
    struct value *e = assoc(s, a[0], a[1], t, false);
    if (!e)
        return NULL;
    return value_consp(e) ? value_cdr(e) : n > 2 ? a[2] : s->L->nil;
}

/* Copy of list without the elements equal (by t) to x. */
static struct value *remove_all(struct interp_st *s, struct value *x, struct value *l,
                                enum test t)
{
    size_t k;
    struct value **items = interp_items(s, l, &k);
    if (!items)
        return NULL;
    struct value *head = s->L->nil, **tail = &head;
    for (size_t i = 0; i < k && !s->failed; i++)
        if (!same(t, items[i], x)) {
            *tail = interp_cons(s, items[i], s->L->nil);
            tail = &(*tail)->u.cons.cdr;
        }
    return head;
}

#define REMOVE(fn, t)                                                      \
    static struct value *fn(struct interp_st *s, struct value **a, size_t n) \
    {                                                                      \
        (void)n;                                                           \
        return remove_all(s, a[0], a[1], t);                               \
    }
REMOVE(f_remq, T_EQ)
REMOVE(f_remove, T_EQUAL)

static struct value *f_delete_dups(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    size_t k;
    struct value **items = interp_items(s, a[0], &k);
    if (!items)
        return NULL;
    struct value *head = s->L->nil, **tail = &head;
    for (size_t i = 0; i < k && !s->failed; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = value_equal(items[j], items[i]);
        if (!seen && interp_tick(s)) {
            *tail = interp_cons(s, items[i], s->L->nil);
            tail = &(*tail)->u.cons.cdr;
        }
    }
    return head;
}

static struct value *plist_find(struct interp_st *s, struct value *plist, struct value *prop,
                                enum test t)
{
    for (; value_consp(plist) && value_consp(value_cdr(plist));
         plist = value_cdr(value_cdr(plist))) {
        if (!interp_tick(s))
            return NULL;
        if (same(t, value_car(plist), prop))
            return plist;
    }
    return s->L->nil;
}

/* (plist-get PLIST PROP &optional PREDICATE): PREDICATE eq or equal. */
static enum test plist_test(struct interp_st *s, struct value **a, size_t n, size_t at)
{
    if (n > at && a[at]->kind == VK_SYMBOL && strcmp(a[at]->u.sym.name, "equal") == 0)
        return T_EQUAL;
    (void)s;
    return T_EQ;
}

static struct value *f_plist_get(struct interp_st *s, struct value **a, size_t n)
{
    struct value *c = plist_find(s, a[0], a[1], plist_test(s, a, n, 2));
    return !c ? NULL : value_consp(c) ? value_car(value_cdr(c)) : c;
}

static struct value *f_plist_member(struct interp_st *s, struct value **a, size_t n)
{
    return plist_find(s, a[0], a[1], plist_test(s, a, n, 2));
}

/* plist-put returns a new plist (the value Emacs returns; the argument is
 * not changed). */
static struct value *f_plist_put(struct interp_st *s, struct value **a, size_t n)
{
    enum test t = plist_test(s, a, n, 3);
    size_t k;
    struct value **items = interp_items(s, a[0], &k);
    if (!items)
        return NULL;
    struct value *head = s->L->nil, **tail = &head;
    bool done = false;
    for (size_t i = 0; i < k && !s->failed; i++) {
        struct value *v = items[i];
        if (i % 2 == 1 && !done && same(t, items[i - 1], a[1])) {
            v = a[2];
            done = true;
        }
        *tail = interp_cons(s, v, s->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    if (!done) {
        *tail = interp_cons(s, a[1], interp_cons(s, a[2], s->L->nil));
    }
    return head;
}

/* ---- mapping ---- */

/* Call f on each element of seq; collect: the results as a list. */
static struct value *map(struct interp_st *s, struct value *f, struct value *seq, bool collect)
{
    size_t k;
    struct value **items = seq_items(s, seq, &k);
    if (!items)
        return NULL;
    struct value *head = s->L->nil, **tail = &head;
    for (size_t i = 0; i < k; i++) {
        struct value *r = interp_funcall(s, f, &items[i], 1);
        if (!r)
            return NULL;
        if (collect) {
            *tail = interp_cons(s, r, s->L->nil);
            tail = &(*tail)->u.cons.cdr;
        }
    }
    return collect ? head : seq;
}

static struct value *f_mapcar(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return map(s, a[0], a[1], true);
}

static struct value *f_mapc(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return map(s, a[0], a[1], false);
}

static struct value *f_mapcan(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    struct value *r = map(s, a[0], a[1], true);
    size_t k;
    struct value **lists = r ? interp_items(s, r, &k) : NULL;
    return lists ? f_append(s, lists, k) : NULL;
}

/* seq-filter / cl-remove-if-not (keep: true), seq-remove / cl-remove-if. */
static struct value *filter(struct interp_st *s, struct value *pred, struct value *seq,
                            bool keep)
{
    size_t k;
    struct value **items = seq_items(s, seq, &k);
    if (!items)
        return NULL;
    struct value *head = s->L->nil, **tail = &head;
    for (size_t i = 0; i < k; i++) {
        struct value *r = interp_funcall(s, pred, &items[i], 1);
        if (!r)
            return NULL;
        if (interp_nilp(s, r) != keep) {
            *tail = interp_cons(s, items[i], s->L->nil);
            tail = &(*tail)->u.cons.cdr;
        }
    }
    return head;
}

static struct value *f_remove_if_not(struct interp_st *s, struct value **a, size_t n)
{
    return n > 2 ? interp_unknown(s, intern_cstr(s->L, "cl-remove-if-not"), false)
                 : filter(s, a[0], a[1], true);
}

static struct value *f_remove_if(struct interp_st *s, struct value **a, size_t n)
{
    return n > 2 ? interp_unknown(s, intern_cstr(s->L, "cl-remove-if"), false)
                 : filter(s, a[0], a[1], false);
}

static struct value *f_seq_filter(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return filter(s, a[0], a[1], true);
}

static struct value *f_seq_remove(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return filter(s, a[0], a[1], false);
}

static struct value *f_funcall(struct interp_st *s, struct value **a, size_t n)
{
    return interp_funcall(s, a[0], a + 1, n - 1);
}

static struct value *f_apply(struct interp_st *s, struct value **a, size_t n)
{
    if (n == 1) { /* (apply '(F . ARGS)) */
        size_t k;
        struct value **items = interp_items(s, a[0], &k);
        return !items ? NULL : k == 0 ? interp_wrong_type(s, "consp", a[0])
                                      : interp_funcall(s, items[0], items + 1, k - 1);
    }
    size_t k;
    struct value **spread = interp_items(s, a[n - 1], &k);
    if (!spread || !interp_charge(s, (n + k) * sizeof(struct value *)))
        return NULL;
    struct value **all = ARENA_NEWN(s->L->a, struct value *, n + k);
    memcpy(all, a + 1, (n - 2) * sizeof *all);
    memcpy(all + n - 2, spread, k * sizeof *all);
    return interp_funcall(s, a[0], all, n - 2 + k);
}

static struct value *f_identity(struct interp_st *s, struct value **a, size_t n)
{
    (void)s;
    (void)n;
    return a[0];
}

static struct value *f_ignore(struct interp_st *s, struct value **a, size_t n)
{
    (void)a;
    (void)n;
    return s->L->nil;
}

/* ---- predicates ---- */

#define PRED(fn, test)                                                     \
    static struct value *fn(struct interp_st *s, struct value **a, size_t n) \
    {                                                                      \
        (void)n;                                                           \
        struct value *v = a[0];                                            \
        return interp_bool(s, (test));                                     \
    }
PRED(f_null, interp_nilp(s, v))
PRED(f_atom, !value_consp(v))
PRED(f_consp, value_consp(v))
PRED(f_listp, listp(s, v))
PRED(f_nlistp, !listp(s, v))
PRED(f_symbolp, v->kind == VK_SYMBOL)
PRED(f_keywordp, v->kind == VK_SYMBOL && v->u.sym.interned && v->u.sym.name[0] == ':')
PRED(f_stringp, v->kind == VK_STRING)
PRED(f_integerp, value_integerp(v))
PRED(f_fixnump, value_fixnump(v))
PRED(f_natnump, (v->kind == VK_INT && v->u.i >= 0) || (v->kind == VK_BIGNUM && !v->u.big.neg))
PRED(f_numberp, value_numberp(v))
PRED(f_floatp, v->kind == VK_FLOAT)
PRED(f_vectorp, v->kind == VK_VECTOR)
PRED(f_arrayp, v->kind == VK_VECTOR || v->kind == VK_STRING || v->kind == VK_BOOLVEC ||
                   v->kind == VK_CHARTABLE)
PRED(f_sequencep, listp(s, v) || v->kind == VK_VECTOR || v->kind == VK_STRING ||
                      v->kind == VK_BOOLVEC || v->kind == VK_CHARTABLE)
PRED(f_booleanp, v == s->L->nil || v == s->L->t)
PRED(f_characterp, v->kind == VK_INT && v->u.i >= 0 && v->u.i <= VALUE_MAX_CHAR)
PRED(f_proper_list_p, value_list_length(v, s->L->nil) >= 0)

static struct value *f_eq(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return interp_bool(s, interp_eq(a[0], a[1]));
}

static struct value *f_eql(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return interp_bool(s, value_eql(a[0], a[1]));
}

static struct value *f_equal(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return interp_bool(s, value_equal(a[0], a[1]));
}

static struct value *f_functionp(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    struct value *v = a[0];
    if (v->kind == VK_SYMBOL && !interp_nilp(s, v) && v->u.sym.interned) {
        const struct interp_fn *f = s->h->function ? s->h->function(s->h->ctx, v) : NULL;
        return interp_bool(s, interp_lib_find(v->u.sym.name) || (f && !f->macro));
    }
    return interp_bool(s, value_consp(v) && value_car(v)->kind == VK_SYMBOL &&
                              (value_car(v) == s->L->lambda || value_car(v) == s->closure));
}

/* ---- numbers ---- */

static double as_double(const struct value *v)
{
    return v->kind == VK_FLOAT ? v->u.f : (double)v->u.i;
}

static struct value *int_result(struct interp_st *s, __int128 r)
{
    if (r > VALUE_FIXNUM_MAX || r < VALUE_FIXNUM_MIN)
        return interp_limit(s, "an integer outgrew the fixnum range (bignums are not "
                               "evaluated)");
    return interp_int(s, (int64_t)r);
}

enum arith { A_ADD, A_SUB, A_MUL, A_DIV };

static struct value *arith(struct interp_st *s, struct value **a, size_t n, enum arith op)
{
    bool fl = false;
    for (size_t i = 0; i < n; i++) {
        if (!want_number(s, a[i]))
            return NULL;
        fl = fl || a[i]->kind == VK_FLOAT;
    }
    if (n == 0)
        return interp_int(s, op == A_MUL ? 1 : 0);
    if (fl) {
        double r = as_double(a[0]);
        if (n == 1)
            return interp_float(s, op == A_SUB ? -r : op == A_DIV ? 1.0 / r : r);
        for (size_t i = 1; i < n; i++) {
            double y = as_double(a[i]);
            r = op == A_ADD ? r + y : op == A_SUB ? r - y : op == A_MUL ? r * y : r / y;
        }
        return interp_float(s, r);
    }
    __int128 r = a[0]->u.i;
    if (n == 1 && op == A_SUB)
        return int_result(s, -r);
    if (n == 1 && op == A_DIV) { /* (/ N) is 1/N */
        if (r == 0)
            return interp_signal(s, intern_cstr(s->L, "arith-error"), s->L->nil);
        return int_result(s, 1 / r);
    }
    for (size_t i = 1; i < n; i++) {
        __int128 y = a[i]->u.i;
        if (op == A_DIV && y == 0)
            return interp_signal(s, intern_cstr(s->L, "arith-error"), s->L->nil);
        r = op == A_ADD ? r + y : op == A_SUB ? r - y : op == A_MUL ? r * y : r / y;
        if (r > VALUE_FIXNUM_MAX || r < VALUE_FIXNUM_MIN)
            return int_result(s, r);
    }
    return int_result(s, r);
}

#define ARITH(fn, op)                                                      \
    static struct value *fn(struct interp_st *s, struct value **a, size_t n) \
    {                                                                      \
        return arith(s, a, n, op);                                         \
    }
ARITH(f_add, A_ADD)
ARITH(f_sub, A_SUB)
ARITH(f_mul, A_MUL)
ARITH(f_div, A_DIV)

static struct value *f_1plus(struct interp_st *s, struct value **a, size_t n)
{
    struct value *b[2] = {a[0], NULL};
    (void)n;
    b[1] = value_int(s->L->a, 1);
    return arith(s, b, 2, A_ADD);
}

static struct value *f_1minus(struct interp_st *s, struct value **a, size_t n)
{
    struct value *b[2] = {a[0], NULL};
    (void)n;
    b[1] = value_int(s->L->a, 1);
    return arith(s, b, 2, A_SUB);
}

/* % (integers, truncating) and mod (floor, floats too). */
static struct value *modulo(struct interp_st *s, struct value **a, bool floor_mod)
{
    if (!want_number(s, a[0]) || !want_number(s, a[1]))
        return NULL;
    if (a[0]->kind == VK_FLOAT || a[1]->kind == VK_FLOAT) {
        if (!floor_mod)
            return interp_wrong_type(s, "integer-or-marker-p",
                                     a[0]->kind == VK_FLOAT ? a[0] : a[1]);
        double x = as_double(a[0]), y = as_double(a[1]), r = fmod(x, y);
        if (r != 0 && (r < 0) != (y < 0))
            r += y;
        return interp_float(s, r);
    }
    if (a[1]->u.i == 0)
        return interp_signal(s, intern_cstr(s->L, "arith-error"), s->L->nil);
    int64_t r = a[0]->u.i % a[1]->u.i;
    if (floor_mod && r != 0 && (r < 0) != (a[1]->u.i < 0))
        r += a[1]->u.i;
    return interp_int(s, r);
}

static struct value *f_rem(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return modulo(s, a, false);
}

static struct value *f_mod(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return modulo(s, a, true);
}

enum cmp { C_EQ, C_LT, C_GT, C_LE, C_GE };

static bool compare2(const struct value *x, const struct value *y, enum cmp c)
{
    if (x->kind == VK_INT && y->kind == VK_INT) {
        int64_t p = x->u.i, q = y->u.i;
        return c == C_EQ ? p == q : c == C_LT ? p < q : c == C_GT ? p > q : c == C_LE ? p <= q
                                                                                      : p >= q;
    }
    double p = as_double(x), q = as_double(y);
    return c == C_EQ ? p == q : c == C_LT ? p < q : c == C_GT ? p > q : c == C_LE ? p <= q
                                                                                  : p >= q;
}

static struct value *compare(struct interp_st *s, struct value **a, size_t n, enum cmp c)
{
    for (size_t i = 0; i < n; i++)
        if (!want_number(s, a[i]))
            return NULL;
    for (size_t i = 1; i < n; i++)
        if (!compare2(a[i - 1], a[i], c))
            return s->L->nil;
    return s->L->t;
}

#define COMPARE(fn, c)                                                     \
    static struct value *fn(struct interp_st *s, struct value **a, size_t n) \
    {                                                                      \
        return compare(s, a, n, c);                                        \
    }
COMPARE(f_num_eq, C_EQ)
COMPARE(f_lt, C_LT)
COMPARE(f_gt, C_GT)
COMPARE(f_le, C_LE)
COMPARE(f_ge, C_GE)

static struct value *f_num_ne(struct interp_st *s, struct value **a, size_t n)
{
    struct value *r = compare(s, a, n, C_EQ);
    return r ? interp_bool(s, interp_nilp(s, r)) : NULL;
}

/* max and min: a float among the arguments makes the result a float. */
static struct value *extreme(struct interp_st *s, struct value **a, size_t n, bool max)
{
    bool fl = false;
    struct value *best = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!want_number(s, a[i]))
            return NULL;
        fl = fl || a[i]->kind == VK_FLOAT;
        if (!best || compare2(a[i], best, max ? C_GT : C_LT))
            best = a[i];
    }
    return fl && best->kind != VK_FLOAT ? interp_float(s, as_double(best)) : best;
}

static struct value *f_max(struct interp_st *s, struct value **a, size_t n)
{
    return extreme(s, a, n, true);
}

static struct value *f_min(struct interp_st *s, struct value **a, size_t n)
{
    return extreme(s, a, n, false);
}

static struct value *f_abs(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (!want_number(s, a[0]))
        return NULL;
    if (a[0]->kind == VK_FLOAT)
        return interp_float(s, fabs(a[0]->u.f));
    return int_result(s, a[0]->u.i < 0 ? -(__int128)a[0]->u.i : a[0]->u.i);
}

static struct value *f_zerop(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return want_number(s, a[0]) ? interp_bool(s, as_double(a[0]) == 0) : NULL;
}

/* ---- strings and symbols ---- */

static struct value *f_symbol_name(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (!want_symbol(s, a[0]))
        return NULL;
    const struct value_symbol *y = &a[0]->u.sym;
    return interp_string(s, y->name, y->len, y->multibyte);
}

static struct value *f_intern(struct interp_st *s, struct value **a, size_t n)
{
    if (n > 1 && !interp_nilp(s, a[1]))
        return interp_unknown(s, intern_cstr(s->L, "intern"), false); /* another obarray */
    if (!want_string(s, a[0]) || !interp_charge(s, INTERP_VALUE_BYTES + a[0]->u.str.len))
        return NULL;
    return intern_symbol(s->L, (const char *)a[0]->u.str.data, a[0]->u.str.len);
}

static struct value *f_intern_soft(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (a[0]->kind == VK_SYMBOL)
        return a[0]->u.sym.interned ? a[0] : s->L->nil;
    if (!want_string(s, a[0]))
        return NULL;
    struct value *y = intern_find(s->L, (const char *)a[0]->u.str.data, a[0]->u.str.len);
    return y ? y : s->L->nil;
}

static struct value *f_make_symbol(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (!want_string(s, a[0]))
        return NULL;
    return interp_make_symbol(s, (const char *)a[0]->u.str.data, a[0]->u.str.len);
}

static struct value *f_gensym(struct interp_st *s, struct value **a, size_t n)
{
    if (n > 0 && !interp_nilp(s, a[0])) {
        if (!want_string(s, a[0]))
            return NULL;
        return interp_make_symbol(s, (const char *)a[0]->u.str.data, a[0]->u.str.len);
    }
    return interp_make_symbol(s, "g", 1);
}

/* Append the text of v as princ (raw: true) or prin1 prints it. */
static void print_into(struct interp_st *s, struct buf *b, const struct value *v, bool raw,
                       bool *multibyte)
{
    if (raw && v->kind == VK_STRING) {
        buf_put(b, v->u.str.data, v->u.str.len);
        *multibyte = *multibyte || v->u.str.multibyte;
        return;
    }
    if (raw && v->kind == VK_SYMBOL) {
        buf_put(b, v->u.sym.name, v->u.sym.len);
        *multibyte = *multibyte || v->u.sym.multibyte;
        return;
    }
    struct print_opts o = print_opts_default();
    size_t from = b->len;
    print_value(s->L, b, v, &o);
    for (size_t i = from; i < b->len && !*multibyte; i++)
        *multibyte = (unsigned char)b->data[i] >= 0x80;
}

static void put_char(struct buf *b, uint32_t c, bool *multibyte)
{
    uint8_t enc[8];
    int k = value_char_encode(c, enc);
    buf_put(b, enc, (size_t)k);
    *multibyte = *multibyte || c >= 0x80;
}

/* One %-spec of format: flags, width, precision, conversion. */
struct spec {
    char flags[8];
    int width, prec;
    char conv;
};

/* Parse the spec at *p (after '%'); false when malformed. */
static bool parse_format_spec(const char **p, const char *end, struct spec *sp)
{
    const char *q = *p;
    size_t nf = 0;
    memset(sp, 0, sizeof *sp);
    sp->prec = -1;
    while (q < end && strchr("-+ #0", *q) && nf + 1 < sizeof sp->flags)
        sp->flags[nf++] = *q++;
    while (q < end && *q >= '0' && *q <= '9' && sp->width < 100000)
        sp->width = sp->width * 10 + (*q++ - '0');
    if (q < end && *q == '.') {
        sp->prec = 0;
        for (q++; q < end && *q >= '0' && *q <= '9' && sp->prec < 100000; q++)
            sp->prec = sp->prec * 10 + (*q - '0');
    }
    if (q >= end)
        return false;
    sp->conv = *q++;
    *p = q;
    return true;
}

/* Pad text [from, b->len) to the spec's width (left-justified with '-'). */
static void pad(struct buf *b, size_t from, const struct spec *sp)
{
    size_t len = b->len - from;
    if ((size_t)sp->width <= len)
        return;
    size_t add = (size_t)sp->width - len;
    bool left = strchr(sp->flags, '-') != NULL;
    for (size_t i = 0; i < add; i++)
        buf_putc(b, ' ');
    if (!left) {
        memmove(b->data + from + add, b->data + from, len);
        memset(b->data + from, ' ', add);
    }
}

/* A numeric conversion through C's printf with the same flags, width and
 * precision (a precision given only when the spec has one: C drops the
 * 0 flag of an integer conversion that has one). */
static bool format_number(struct interp_st *s, struct buf *b, const struct spec *sp,
                          struct value *v)
{
    char f[32], out[1024];
    if (!want_number(s, v))
        return false;
    bool integer = strchr("dioxXc", sp->conv) != NULL;
    int width = sp->width > 400 ? 400 : sp->width;
    int prec = sp->prec > 400 ? 400 : sp->prec;
    int k = snprintf(f, sizeof f, "%%%s*%s", sp->flags, prec >= 0 ? ".*" : "");
    if (integer) {
        snprintf(f + k, sizeof f - (size_t)k, "ll%c", sp->conv == 'i' ? 'd' : sp->conv);
        long long x = v->kind == VK_FLOAT ? (long long)v->u.f : (long long)v->u.i;
        if (prec >= 0)
            snprintf(out, sizeof out, f, width, prec, x);
        else
            snprintf(out, sizeof out, f, width, x);
    } else {
        snprintf(f + k, sizeof f - (size_t)k, "%c", sp->conv);
        if (prec >= 0)
            snprintf(out, sizeof out, f, width, prec, as_double(v));
        else
            snprintf(out, sizeof out, f, width, as_double(v));
    }
    buf_puts(b, out);
    return true;
}

static bool format_one(struct interp_st *s, struct buf *b, const struct spec *sp,
                       struct value *v, bool *multibyte)
{
    size_t from = b->len;
    switch (sp->conv) {
    case 's':
    case 'S':
        print_into(s, b, v, sp->conv == 's', multibyte);
        if (sp->prec >= 0 && (size_t)sp->prec < b->len - from)
            b->len = from + (size_t)sp->prec; /* characters: ASCII in practice */
        break;
    case 'c':
        if (!want_int(s, v))
            return false;
        put_char(b, (uint32_t)v->u.i, multibyte);
        break;
    case 'd':
    case 'i': /* an alias of %d */
    case 'o':
    case 'x':
    case 'X':
    case 'f':
    case 'e':
    case 'g':
        return format_number(s, b, sp, v);
    default:
        interp_error(s, "Invalid format operation %%%c", sp->conv);
        return false;
    }
    pad(b, from, sp);
    return true;
}

static struct value *format(struct interp_st *s, struct value **a, size_t n)
{
    if (!want_string(s, a[0]))
        return NULL;
    struct buf b;
    buf_init(&b, s->L->a);
    bool multibyte = a[0]->u.str.multibyte;
    const char *p = (const char *)a[0]->u.str.data, *end = p + a[0]->u.str.len;
    size_t next = 1;
    while (p < end) {
        if (*p != '%') {
            buf_putc(&b, *p++);
            continue;
        }
        p++;
        struct spec sp;
        if (!parse_format_spec(&p, end, &sp))
            return interp_error(s, "Format string ends in middle of format specifier");
        if (sp.conv == '%') {
            buf_putc(&b, '%');
            continue;
        }
        if (next >= n)
            return interp_error(s, "Not enough arguments for format string");
        if (!format_one(s, &b, &sp, a[next++], &multibyte))
            return NULL;
        if (!interp_charge(s, 0))
            return NULL;
    }
    return interp_string(s, b.data, b.len, multibyte);
}

static struct value *f_format(struct interp_st *s, struct value **a, size_t n)
{
    return format(s, a, n);
}

static struct value *f_error(struct interp_st *s, struct value **a, size_t n)
{
    struct value *msg = format(s, a, n);
    return msg ? interp_signal(s, s->error, interp_list(s, &msg, 1)) : NULL;
}

static struct value *f_user_error(struct interp_st *s, struct value **a, size_t n)
{
    struct value *msg = format(s, a, n);
    return msg ? interp_signal(s, intern_cstr(s->L, "user-error"), interp_list(s, &msg, 1))
               : NULL;
}

static struct value *f_signal(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (!want_symbol(s, a[0]))
        return NULL;
    return interp_signal(s, a[0], a[1]);
}

/* concat and string: strings, nil, lists and vectors of characters. */
static struct value *f_concat(struct interp_st *s, struct value **a, size_t n)
{
    struct buf b;
    buf_init(&b, s->L->a);
    bool multibyte = false;
    for (size_t i = 0; i < n; i++) {
        if (a[i]->kind == VK_STRING) {
            buf_put(&b, a[i]->u.str.data, a[i]->u.str.len);
            multibyte = multibyte || a[i]->u.str.multibyte;
            continue;
        }
        size_t k;
        struct value **items = seq_items(s, a[i], &k);
        if (!items)
            return NULL;
        for (size_t j = 0; j < k; j++) {
            if (!want_int(s, items[j]) || items[j]->u.i < 0 || items[j]->u.i > VALUE_MAX_CHAR)
                return s->failed ? NULL : interp_wrong_type(s, "characterp", items[j]);
            put_char(&b, (uint32_t)items[j]->u.i, &multibyte);
        }
        if (!interp_charge(s, 0))
            return NULL;
    }
    return interp_string(s, b.data, b.len, multibyte);
}

static struct value *f_string(struct interp_st *s, struct value **a, size_t n)
{
    struct value *l = interp_list(s, a, n);
    return f_concat(s, &l, 1);
}

/* Byte offset of character index i (negative: from the end) of string v;
 * false when out of range. */
static bool char_offset(const struct value *v, int64_t i, size_t *out)
{
    const struct value_string *str = &v->u.str;
    if (i < 0)
        i += (int64_t)str->nchars;
    if (i < 0 || (size_t)i > str->nchars)
        return false;
    size_t off = 0;
    for (int64_t k = 0; k < i; k++) {
        int len = 1;
        if (str->multibyte)
            value_char_decode(str->data + off, str->len - off, &len);
        off += (size_t)len;
    }
    *out = off;
    return true;
}

static struct value *f_substring(struct interp_st *s, struct value **a, size_t n)
{
    if (!want_string(s, a[0]))
        return NULL;
    int64_t from = 0, to = (int64_t)a[0]->u.str.nchars;
    if (n > 1 && !interp_nilp(s, a[1]) && want_int(s, a[1]))
        from = a[1]->u.i;
    if (n > 2 && !interp_nilp(s, a[2]) && want_int(s, a[2]))
        to = a[2]->u.i;
    size_t lo, hi;
    if (s->failed)
        return NULL;
    if (!char_offset(a[0], from, &lo) || !char_offset(a[0], to, &hi) || lo > hi)
        return interp_signal_n(s, "args-out-of-range", 3, a[0], n > 1 ? a[1] : s->L->nil,
                               n > 2 ? a[2] : s->L->nil);
    return interp_string(s, a[0]->u.str.data + lo, hi - lo, a[0]->u.str.multibyte);
}

/* A string argument of the string comparisons: a symbol stands for its
 * name. */
static bool text_of(struct interp_st *s, struct value *v, const uint8_t **p, size_t *len)
{
    if (v->kind == VK_SYMBOL) {
        *p = (const uint8_t *)v->u.sym.name;
        *len = v->u.sym.len;
        return true;
    }
    if (!want_string(s, v))
        return false;
    *p = v->u.str.data;
    *len = v->u.str.len;
    return true;
}

static struct value *f_string_eq(struct interp_st *s, struct value **a, size_t n)
{
    const uint8_t *x, *y;
    size_t nx, ny;
    (void)n;
    if (!text_of(s, a[0], &x, &nx) || !text_of(s, a[1], &y, &ny))
        return NULL;
    return interp_bool(s, nx == ny && memcmp(x, y, nx) == 0);
}

static struct value *f_string_lt(struct interp_st *s, struct value **a, size_t n)
{
    const uint8_t *x, *y;
    size_t nx, ny;
    (void)n;
    if (!text_of(s, a[0], &x, &nx) || !text_of(s, a[1], &y, &ny))
        return NULL;
    int c = memcmp(x, y, nx < ny ? nx : ny);
    return interp_bool(s, c < 0 || (c == 0 && nx < ny));
}

/* string-prefix-p / string-suffix-p (PREFIX STRING &optional IGNORE-CASE):
 * IGNORE-CASE nil only. */
static struct value *affix(struct interp_st *s, struct value **a, size_t n, bool suffix)
{
    const uint8_t *x, *y;
    size_t nx, ny;
    if (n > 2 && !interp_nilp(s, a[2]))
        return interp_unknown(s, intern_cstr(s->L, suffix ? "string-suffix-p"
                                                          : "string-prefix-p"), false);
    if (!text_of(s, a[0], &x, &nx) || !text_of(s, a[1], &y, &ny))
        return NULL;
    return interp_bool(s, nx <= ny && memcmp(x, y + (suffix ? ny - nx : 0), nx) == 0);
}

static struct value *f_string_prefix_p(struct interp_st *s, struct value **a, size_t n)
{
    return affix(s, a, n, false);
}

static struct value *f_string_suffix_p(struct interp_st *s, struct value **a, size_t n)
{
    return affix(s, a, n, true);
}

static struct value *f_string_join(struct interp_st *s, struct value **a, size_t n)
{
    size_t k;
    struct value **items = seq_items(s, a[0], &k);
    if (!items)
        return NULL;
    struct value *sep = n > 1 && !interp_nilp(s, a[1]) ? a[1] : NULL;
    if (sep && !want_string(s, sep))
        return NULL;
    struct value **parts = ARENA_NEWN(s->L->a, struct value *, 2 * k + 1);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (i > 0 && sep)
            parts[m++] = sep;
        parts[m++] = items[i];
    }
    return f_concat(s, parts, m);
}

static struct value *f_mapconcat(struct interp_st *s, struct value **a, size_t n)
{
    struct value *r = map(s, a[0], a[1], true);
    if (!r)
        return NULL;
    struct value *b[2] = {r, n > 2 ? a[2] : s->L->nil};
    return f_string_join(s, b, 2);
}

/* ASCII case conversion; other characters are refused (their case
 * tables are not evaluated). */
static struct value *change_case(struct interp_st *s, struct value *v, bool up,
                                 const char *name)
{
    if (v->kind == VK_INT) {
        if (v->u.i >= 0x80)
            return interp_unknown(s, intern_cstr(s->L, name), false);
        int c = (int)v->u.i;
        return interp_int(s, up ? (c >= 'a' && c <= 'z' ? c - 32 : c)
                                : (c >= 'A' && c <= 'Z' ? c + 32 : c));
    }
    if (!want_string(s, v))
        return NULL;
    struct value *r = interp_string(s, v->u.str.data, v->u.str.len, v->u.str.multibyte);
    uint8_t *d = (uint8_t *)r->u.str.data;
    for (size_t i = 0; i < r->u.str.len; i++) {
        if (d[i] >= 0x80)
            return interp_unknown(s, intern_cstr(s->L, name), false);
        if (up && d[i] >= 'a' && d[i] <= 'z')
            d[i] = (uint8_t)(d[i] - 32);
        else if (!up && d[i] >= 'A' && d[i] <= 'Z')
            d[i] = (uint8_t)(d[i] + 32);
    }
    return r;
}

static struct value *f_upcase(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return change_case(s, a[0], true, "upcase");
}

static struct value *f_downcase(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    return change_case(s, a[0], false, "downcase");
}

static struct value *f_number_to_string(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (!want_number(s, a[0]))
        return NULL;
    struct buf b;
    buf_init(&b, s->L->a);
    if (a[0]->kind == VK_FLOAT)
        print_float(&b, a[0]->u.f);
    else
        print_integer(&b, a[0], false);
    return interp_string(s, b.data, b.len, false);
}

static struct value *f_string_to_number(struct interp_st *s, struct value **a, size_t n)
{
    if (!want_string(s, a[0]))
        return NULL;
    if (n > 1 && !interp_nilp(s, a[1]) && !(a[1]->kind == VK_INT && a[1]->u.i == 10))
        return interp_unknown(s, intern_cstr(s->L, "string-to-number"), false);
    char tmp[64];
    size_t len = a[0]->u.str.len < sizeof tmp - 1 ? a[0]->u.str.len : sizeof tmp - 1;
    memcpy(tmp, a[0]->u.str.data, len);
    tmp[len] = 0;
    char *end;
    long long i = strtoll(tmp, &end, 10);
    if (*end != '.' && *end != 'e' && *end != 'E')
        return end == tmp ? interp_int(s, 0) : interp_int(s, i);
    return interp_float(s, strtod(tmp, NULL));
}

/* ---- vectors ---- */

static struct value *make_vector(struct interp_st *s, struct value **items, size_t n)
{
    if (!interp_charge(s, INTERP_VALUE_BYTES + n * sizeof(struct value *)))
        return NULL;
    struct value *v = value_vector(s->L->a, VK_VECTOR, n);
    memcpy(v->u.vec.items, items, n * sizeof *items);
    return v;
}

static struct value *f_vector(struct interp_st *s, struct value **a, size_t n)
{
    return make_vector(s, a, n);
}

static struct value *f_vconcat(struct interp_st *s, struct value **a, size_t n)
{
    struct value *l, **all = ARENA_NEWN(s->L->a, struct value *, n + 1);
    for (size_t i = 0; i < n; i++)
        all[i] = a[i];
    all[n] = s->L->nil;
    l = f_append(s, all, n + 1);
    size_t k;
    struct value **items = l ? interp_items(s, l, &k) : NULL;
    return items ? make_vector(s, items, k) : NULL;
}

/* ---- macroexp helpers (pure functions of macroexp.el) ---- */

/* (macroexp-progn EXPS): one form as it is, else (progn . EXPS). */
static struct value *f_macroexp_progn(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    if (value_consp(a[0]) && interp_nilp(s, value_cdr(a[0])))
        return value_car(a[0]);
    return interp_cons(s, intern_cstr(s->L, "progn"), a[0]);
}

/* (macroexp-quote V): V when it evaluates to itself, else (quote V). */
static struct value *f_macroexp_quote(struct interp_st *s, struct value **a, size_t n)
{
    (void)n;
    struct value *v = a[0];
    bool self = v->kind == VK_SYMBOL
                    ? interp_nilp(s, v) || v == s->L->t || (v->u.sym.interned &&
                                                            v->u.sym.name[0] == ':')
                    : !value_consp(v);
    if (self)
        return v;
    return interp_list(s, (struct value *[]){s->L->quote, v}, 2);
}

/* ---- the table ---- */

/* Sorted by name (strcmp); a unit test checks it. */
static const struct interp_row rows[] = {
    {"%", 2, 2, f_rem},
    {"*", 0, -1, f_mul},
    {"+", 0, -1, f_add},
    {"-", 0, -1, f_sub},
    {"/", 1, -1, f_div},
    {"/=", 2, 2, f_num_ne},
    {"1+", 1, 1, f_1plus},
    {"1-", 1, 1, f_1minus},
    {"<", 1, -1, f_lt},
    {"<=", 1, -1, f_le},
    {"=", 1, -1, f_num_eq},
    {">", 1, -1, f_gt},
    {">=", 1, -1, f_ge},
    {"abs", 1, 1, f_abs},
    {"alist-get", 2, 5, f_alist_get},
    {"append", 0, -1, f_append},
    {"apply", 1, -1, f_apply},
    {"aref", 2, 2, f_aref},
    {"arrayp", 1, 1, f_arrayp},
    {"assoc", 2, 2, f_assoc},
    {"assq", 2, 2, f_assq},
    {"atom", 1, 1, f_atom},
    {"booleanp", 1, 1, f_booleanp},
    {"butlast", 1, 2, f_butlast},
    {"caar", 1, 1, f_caar},
    {"cadddr", 1, 1, f_cadddr},
    {"caddr", 1, 1, f_caddr},
    {"cadr", 1, 1, f_cadr},
    {"car", 1, 1, f_car},
    {"car-safe", 1, 1, f_car_safe},
    {"cdar", 1, 1, f_cdar},
    {"cdddr", 1, 1, f_cdddr},
    {"cddr", 1, 1, f_cddr},
    {"cdr", 1, 1, f_cdr},
    {"cdr-safe", 1, 1, f_cdr_safe},
    {"characterp", 1, 2, f_characterp},
    {"cl-caddr", 1, 1, f_caddr},
    {"cl-copy-list", 1, 1, f_copy_sequence},
    {"cl-first", 1, 1, f_car},
    {"cl-list*", 1, -1, f_list_star},
    {"cl-remove-if", 2, -1, f_remove_if},
    {"cl-remove-if-not", 2, -1, f_remove_if_not},
    {"cl-rest", 1, 1, f_cdr},
    {"cl-second", 1, 1, f_cadr},
    {"cl-third", 1, 1, f_caddr},
    {"concat", 0, -1, f_concat},
    {"cons", 2, 2, f_cons},
    {"consp", 1, 1, f_consp},
    {"copy-alist", 1, 1, f_copy_sequence},
    {"copy-sequence", 1, 1, f_copy_sequence},
    {"copy-tree", 1, 2, f_copy_tree},
    {"delete", 2, 2, f_remove},
    {"delete-dups", 1, 1, f_delete_dups},
    {"delq", 2, 2, f_remq},
    {"downcase", 1, 1, f_downcase},
    {"elt", 2, 2, f_elt},
    {"eq", 2, 2, f_eq},
    {"eql", 2, 2, f_eql},
    {"equal", 2, 2, f_equal},
    {"error", 1, -1, f_error},
    {"fixnump", 1, 1, f_fixnump},
    {"flatten-tree", 1, 1, f_flatten_tree},
    {"floatp", 1, 1, f_floatp},
    {"format", 1, -1, f_format},
    {"format-message", 1, -1, f_format},
    {"funcall", 1, -1, f_funcall},
    {"functionp", 1, 1, f_functionp},
    {"gensym", 0, 1, f_gensym},
    {"identity", 1, 1, f_identity},
    {"ignore", 0, -1, f_ignore},
    {"integerp", 1, 1, f_integerp},
    {"intern", 1, 2, f_intern},
    {"intern-soft", 1, 2, f_intern_soft},
    {"keywordp", 1, 1, f_keywordp},
    {"last", 1, 2, f_last},
    {"length", 1, 1, f_length},
    {"list", 0, -1, f_list},
    {"listp", 1, 1, f_listp},
    {"macroexp-progn", 1, 1, f_macroexp_progn},
    {"macroexp-quote", 1, 1, f_macroexp_quote},
    {"make-list", 2, 2, f_make_list},
    {"make-symbol", 1, 1, f_make_symbol},
    {"mapc", 2, 2, f_mapc},
    {"mapcan", 2, 2, f_mapcan},
    {"mapcar", 2, 2, f_mapcar},
    {"mapconcat", 2, 3, f_mapconcat},
    {"max", 1, -1, f_max},
    {"member", 2, 2, f_member},
    {"memq", 2, 2, f_memq},
    {"memql", 2, 2, f_memql},
    {"min", 1, -1, f_min},
    {"mod", 2, 2, f_mod},
    {"natnump", 1, 1, f_natnump},
    {"nconc", 0, -1, f_append},
    {"nlistp", 1, 1, f_nlistp},
    {"not", 1, 1, f_null},
    {"nreverse", 1, 1, f_reverse},
    {"nth", 2, 2, f_nth},
    {"nthcdr", 2, 2, f_nthcdr},
    {"null", 1, 1, f_null},
    {"number-sequence", 1, 3, f_number_sequence},
    {"number-to-string", 1, 1, f_number_to_string},
    {"numberp", 1, 1, f_numberp},
    {"plist-get", 2, 3, f_plist_get},
    {"plist-member", 2, 3, f_plist_member},
    {"plist-put", 3, 4, f_plist_put},
    {"proper-list-p", 1, 1, f_proper_list_p},
    {"purecopy", 1, 1, f_identity},
    {"rassoc", 2, 2, f_rassoc},
    {"rassq", 2, 2, f_rassq},
    {"remove", 2, 2, f_remove},
    {"remq", 2, 2, f_remq},
    {"reverse", 1, 1, f_reverse},
    {"seq-filter", 2, 2, f_seq_filter},
    {"seq-remove", 2, 2, f_seq_remove},
    {"sequencep", 1, 1, f_sequencep},
    {"signal", 2, 2, f_signal},
    {"string", 0, -1, f_string},
    {"string-equal", 2, 2, f_string_eq},
    {"string-join", 1, 2, f_string_join},
    {"string-lessp", 2, 2, f_string_lt},
    {"string-prefix-p", 2, 3, f_string_prefix_p},
    {"string-suffix-p", 2, 3, f_string_suffix_p},
    {"string-to-number", 1, 2, f_string_to_number},
    {"string<", 2, 2, f_string_lt},
    {"string=", 2, 2, f_string_eq},
    {"stringp", 1, 1, f_stringp},
    {"substring", 1, 3, f_substring},
    {"symbol-name", 1, 1, f_symbol_name},
    {"symbolp", 1, 1, f_symbolp},
    {"take", 2, 2, f_take},
    {"upcase", 1, 1, f_upcase},
    {"user-error", 1, -1, f_user_error},
    {"vconcat", 0, -1, f_vconcat},
    {"vector", 0, -1, f_vector},
    {"vectorp", 1, 1, f_vectorp},
    {"zerop", 1, 1, f_zerop},
};

static int row_cmp(const void *key, const void *row)
{
    return strcmp(key, ((const struct interp_row *)row)->name);
}

const struct interp_row *interp_lib_find(const char *name)
{
    const struct interp_row *r = bsearch(name, rows, NELEM(rows), sizeof rows[0], row_cmp);
    return r ? r : interp_re_find(name);
}

bool interp_lib_sorted(void)
{
    for (size_t i = 1; i < NELEM(rows); i++)
        if (strcmp(rows[i - 1].name, rows[i].name) >= 0)
            return false;
    return interp_re_sorted();
}
