/* matchstar.c - the match* pattern compiler (see matchstar.h).
 *
 * Functions in pipeline order: matchstar_compile -> subpat (one
 * sub-pattern: atom rules 1-7 of cond-star.md 3.1, or a compound pattern
 * dispatched through the sorted head table: rx, quote, cons, list, apply,
 * vector, cdr-ignore, cdr, and, or, backquote macros, constrain, and the
 * predicate rule) -> bind_around / used_within (3.2) -> and_of (Emacs's
 * cond*-and).  Tests are built in the order Emacs evaluates them; nothing
 * is reordered.
 */
#include "expand/matchstar.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "expand/bquote.h"
#include "expand/pcase_macros.h"
#include "expand/rx.h"
#include "base/buf.h"

/* Compiler state of one pattern. */
struct mc {
    struct expand_ctx *x;
    const struct condstar_syms *S;
    struct lisp *L;
    const struct matchstar_alias *aliases; /* all aliases so far, newest first */
    struct value *user_tests; /* constrain expressions used as tests as they
                                 are: user code, never merged into ours */
    bool opaque; /* the test may run code that could assign the datum's
                    variable, or user code before it reads the datum */
    bool effects; /* the test may signal or assign (not only compare) */
    bool value_used; /* the test's value is the cond*'s, not a truth */
};

/* Where a sub-pattern sits. */
struct sub {
    struct value *acc;     /* expression for its part of the datum */
    struct condstar_at at; /* its position (or its nearest written ancestor's) */
    bool lax;              /* under cdr-ignore: lists skip the final-nil check */
    bool in_or;            /* inside an or: variables go through aliases */
    bool dropped;          /* V of constrain: the test is dropped (Q9), so
                              the divergences of tests (Q2-Q4) do not show */
};

typedef const struct matchstar_binding *bindings_t;

static struct value *subpat(struct mc *m, struct value *pat,
                            const struct sub *s, bindings_t *b);

/* ---- small builders ---- */

static struct value *cons(struct mc *m, struct value *a, struct value *d)
{
    return value_cons(m->L->a, a, d);
}

static struct value *list2(struct mc *m, struct value *a, struct value *b)
{
    return cons(m, a, cons(m, b, m->L->nil));
}

static struct value *list3(struct mc *m, struct value *a, struct value *b,
                           struct value *c)
{
    return cons(m, a, list2(m, b, c));
}

static struct value *num(struct mc *m, long i)
{
    return value_int(m->L->a, i);
}

/* Was test made by and_of/or of this compiler (not user code)? */
static bool generated(struct mc *m, const struct value *test, const struct value *head)
{
    if (!value_consp(test) || value_car(test) != head)
        return false;
    for (const struct value *u = m->user_tests; u != m->L->nil; u = value_cdr(u))
        if (value_car(u) == test)
            return false;
    return true;
}

/* (HEAD tests...) with the tests of a generated (HEAD ...) among them
 * spliced in: (and A (and B C)) is (and A B C), the same for or. */
static struct value *flat(struct mc *m, struct value *head,
                          struct value *const *tests, size_t n)
{
    struct value *r = m->L->nil;
    for (size_t i = n; i-- > 0;) {
        if (!generated(m, tests[i], head)) {
            r = cons(m, tests[i], r);
            continue;
        }
        struct value *rev = lisp_reverse(m->L, value_cdr(tests[i]));
        for (; rev != m->L->nil; rev = value_cdr(rev))
            r = cons(m, value_car(rev), r);
    }
    return cons(m, head, r);
}

/* Emacs's cond*-and: drop literal t entries; none -> t, one -> it. */
static struct value *and_of(struct mc *m, struct value *const *tests, size_t n)
{
    struct value **kept = ARENA_NEWN(m->L->a, struct value *, n ? n : 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (tests[i] != m->S->t)
            kept[k++] = tests[i];
    if (k == 0)
        return m->S->t;
    if (k == 1)
        return kept[0];
    return flat(m, m->S->and_, kept, k);
}

static bindings_t bind(struct mc *m, bindings_t b, struct value *var,
                       struct value *val)
{
    struct matchstar_binding *n = ARENA_NEW(m->L->a, struct matchstar_binding);
    n->var = var;
    n->val = val;
    n->next = b;
    return n;
}

static bindings_t assq(bindings_t b, const struct value *var)
{
    for (; b; b = b->next)
        if (b->var == var)
            return b;
    return NULL;
}

/* Record an error; NULL for the caller to return. */
static struct value *fail(struct mc *m, struct condstar_at at, const char *code,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static struct value *fail(struct mc *m, struct condstar_at at, const char *code,
                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct buf b;
    buf_init(&b, m->L->a);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    condstar_diag(m->x, DIAG_ERROR, at, code, "%s", buf_cstr(&b));
    return NULL;
}

/* A pattern with a dotted list where Emacs takes a list apart. */
static struct value *improper(struct mc *m, const struct sub *s, const char *what)
{
    return fail(m, s->at, "malformed-pattern", "%s pattern: improper list", what);
}

/* Element i (0-based) of pattern list p; false if p is improper before it.
 * Missing elements are nil, as with Emacs's nth. */
static bool nth_arg(struct mc *m, struct value *p, int i, struct value **v,
                    struct value **holder)
{
    for (; i > 0 && value_consp(p); i--)
        p = value_cdr(p);
    *holder = value_consp(p) ? p : NULL;
    *v = value_consp(p) ? value_car(p) : m->L->nil;
    return value_consp(p) || p == m->L->nil;
}

static bool proper(struct mc *m, struct value *l)
{
    return value_list_length(l, m->L->nil) >= 0;
}

/* The position and accessor of a child pattern. */
static struct sub child(struct mc *m, const struct sub *s, struct value *v,
                        struct value *holder, struct value *acc)
{
    struct sub c = *s;
    c.acc = acc;
    c.at = condstar_at_child(m->x, s->at, v, holder);
    return c;
}

/* ---- aliases (or, rx) ---- */

static struct value *alias_for(struct mc *m, struct value *var)
{
    for (const struct matchstar_alias *a = m->aliases; a; a = a->next)
        if (a->var == var)
            return a->temp;
    struct matchstar_alias *n = ARENA_NEW(m->L->a, struct matchstar_alias);
    n->var = var;
    n->temp = expand_gensym(m->x, "ba");
    n->next = m->aliases;
    m->aliases = n;
    m->effects = true;
    return n->temp;
}

/* ---- bind-around (cond-star.md 3.2) ---- */

/* Selected bindings, most recently added first (Emacs's `combined'). */
struct sel {
    bindings_t b;
    struct sel *next;
};

static bool sel_has(const struct sel *s, bindings_t b)
{
    for (; s; s = s->next)
        if (s->b == b)
            return true;
    return false;
}

/* Emacs's cond*-used-within: the bindings whose variable occurs anywhere
 * in exp (function positions and quoted data included). */
static bool used_within(struct mc *m, bindings_t b, struct value *exp,
                        struct condstar_at at, struct sel **out)
{
    *out = NULL;
    if (value_symbolp(exp)) {
        bindings_t w = assq(b, exp);
        if (w) {
            *out = ARENA_NEW(m->L->a, struct sel);
            (*out)->b = w;
        }
        return true;
    }
    if (!value_consp(exp))
        return true;
    if (!condstar_enter(m->x, at))
        return false;
    struct sel *combined = NULL;
    for (struct value *r = exp; r != m->L->nil;
         r = value_consp(r) ? value_cdr(r) : m->L->nil) {
        struct sel *in;
        if (!used_within(m, b, value_consp(r) ? value_car(r) : r, at, &in)) {
            condstar_leave(m->x);
            return false;
        }
        for (; in; in = in->next) {
            if (sel_has(combined, in->b))
                continue;
            struct sel *n = ARENA_NEW(m->L->a, struct sel);
            n->b = in->b;
            n->next = combined;
            combined = n;
        }
    }
    condstar_leave(m->x);
    *out = combined;
    return true;
}

/* Wrap out in (let SELECTED out), SELECTED = the bindings used in walk
 * (the same expression with user code as written, which is what Emacs
 * walks).  Emacs binds them with let*; every value is an accessor of the
 * datum or an alias, never a pattern variable, so let is the same. */
static struct value *bind_around(struct mc *m, bindings_t b, struct value *walk,
                                 struct value *out, struct condstar_at at)
{
    struct sel *used;
    if (!used_within(m, b, walk, at, &used))
        return NULL;
    if (!used)
        return out;
    struct value *lets = m->L->nil; /* in the order of the pattern */
    for (; b; b = b->next)
        if (sel_has(used, b))
            lets = cons(m, list2(m, b->var, b->val), lets);
    return list3(m, m->S->let, lets, out);
}

/* ---- atoms (rules 1-7) ---- */

static struct value *variable(struct mc *m, struct value *var,
                              const struct sub *s, bindings_t *b)
{
    bindings_t prev = assq(*b, var);
    if (prev)
        return list3(m, m->S->equal, prev->val, s->acc);
    if (!s->in_or) {
        *b = bind(m, *b, var, s->acc);
        return m->S->t;
    }
    struct value *alias = alias_for(m, var);
    *b = bind(m, *b, var, alias);
    if (!s->dropped)
        condstar_diag(m->x, DIAG_WARNING, s->at, "emacs-divergence",
                      "variable '%s' inside or: in Emacs 30 this alternative "
                      "fails when the value is nil; pcexpand matches and "
                      "binds nil", var->u.sym.name);
    return list3(m, m->S->progn, list3(m, m->S->setq, alias, s->acc), m->S->t);
}

/* (concat STR "\\'"): same representation, text properties kept. */
static struct value *concat_anchor(struct mc *m, const struct value *str)
{
    const struct value *end = m->S->end_anchor;
    size_t n = str->u.str.len + end->u.str.len;
    char *bytes = arena_alloc(m->L->a, n);
    memcpy(bytes, str->u.str.data, str->u.str.len);
    memcpy(bytes + str->u.str.len, end->u.str.data, end->u.str.len);
    struct value *re = value_string(m->L->a, bytes, n, str->u.str.multibyte);
    re->u.str.props = str->u.str.props;
    return re;
}

/* Rules 1-7: _, nil/t, keywords, variables, numbers, strings, atoms.
 * Comparisons are written datum first, as people write them (Emacs puts
 * the constant first: eq, eql and equal are symmetric and a constant
 * evaluates to itself, so the order changes nothing); nil is null. */
static struct value *atom(struct mc *m, struct value *pat, const struct sub *s,
                          bindings_t *b)
{
    const struct condstar_syms *S = m->S;
    if (pat == S->underscore)
        return S->t;
    if (pat == S->nil)
        condstar_diag(m->x, DIAG_WARNING, s->at, "emacs-divergence",
                      "nil sub-pattern: Emacs 30 enters the debugger while "
                      "expanding this (batch Emacs exits with status 255); "
                      "pcexpand tests (eq nil VALUE)");
    if (pat == S->nil)
        return list2(m, S->null, s->acc);
    if (pat == S->t || condstar_keywordp(pat))
        return list3(m, S->eq, s->acc, pat);
    if (value_symbolp(pat))
        return variable(m, pat, s, b);
    if (value_numberp(pat))
        return list3(m, S->eql, s->acc, pat);
    if (value_is(pat, VK_STRING)) { /* a regexp anchored at the end only (Q8) */
        m->effects = true; /* it signals on a non-string, sets the match data */
        return list3(m, S->string_match, concat_anchor(m, pat), s->acc);
    }
    return list3(m, S->equal, s->acc, pat);
}

/* ---- compound patterns (rules 9-22), one function per head ---- */

/* The regexp of (rx RX ...) followed by \\' : a string computed now, as
 * Emacs computes it with rx-to-string while expanding, or the run-time
 * (concat (rx-to-string 'RX t) "\\'") when RX uses names rx does not
 * define here. */
static struct value *rx_regexp(struct mc *m, struct value *rx,
                               const struct sub *s)
{
    const struct condstar_syms *S = m->S;
    struct rx_error err = {RX_ERR_NONE, NULL, NULL};
    struct value *re = rx_translate(m->L, pcase_macros_rx_env(m->x), false, rx, &err);
    if (re && value_is(re, VK_STRING))
        return concat_anchor(m, re);
    if (re && !value_consp(re))
        re = NULL;
    if (re && value_car(re) != S->rx_to_string) {
        condstar_diag(m->x, DIAG_ERROR, s->at, "malformed-pattern",
                      "rx pattern: literal, regexp and eval need constant "
                      "arguments here (Emacs 30 signals an error while "
                      "expanding)");
        return NULL;
    }
    if (!re && err.kind != RX_ERR_RUNTIME) {
        condstar_diag(m->x, DIAG_ERROR, s->at,
                      err.kind == RX_ERR_TOO_DEEP ? "nesting-too-deep"
                                                  : "malformed-pattern",
                      "rx pattern: %s", err.message ? err.message : "invalid rx form");
        return NULL;
    }
    if (!re)
        re = list3(m, S->rx_to_string, list2(m, S->quote, rx), S->t);
    m->opaque = true; /* rx-to-string runs before the datum is read */
    m->x->missed = true; /* a name not defined here: perhaps before a part */
    return list3(m, S->concat, re, S->end_anchor);
}

/* (rx RX VAR0 VAR1 ...): VARk gets submatch k through an alias (Q4 fixed);
 * a `_' gets nothing, so its submatch is not even taken. */
static struct value *pat_rx(struct mc *m, struct value *pat,
                            const struct sub *s, bindings_t *b)
{
    const struct condstar_syms *S = m->S;
    struct value *vars = value_cdr(value_cdr(pat));
    if (!proper(m, vars))
        return fail(m, s->at, "malformed-pattern", "%s",
                    "rx pattern: improper list of variables");
    for (struct value *v = vars; v != m->L->nil; v = value_cdr(v)) {
        struct value *var = value_car(v);
        if (!value_symbolp(var) || var == S->nil || var == S->t ||
            condstar_keywordp(var))
            return fail(m, condstar_at_child(m->x, s->at, var, v),
                        "malformed-pattern", "rx pattern: %s is not a variable name",
                        condstar_describe(m->L, var));
    }
    struct value *re = rx_regexp(m, value_car(value_cdr(pat)), s);
    if (!re)
        return NULL;
    struct value *match = list3(m, S->string_match, re, s->acc);
    m->effects = true;
    if (vars == m->L->nil)
        return match;
    struct value *setqs = m->L->nil;
    long k = 0;
    for (struct value *v = vars; v != m->L->nil; v = value_cdr(v), k++) {
        if (value_car(v) == S->underscore)
            continue;
        struct value *alias = alias_for(m, value_car(v));
        *b = bind(m, *b, value_car(v), alias);
        struct value *str = list3(m, S->match_string, num(m, k), s->acc);
        setqs = cons(m, list3(m, S->setq, alias, str), setqs);
    }
    if (!s->dropped)
        condstar_diag(m->x, DIAG_WARNING, s->at, "emacs-divergence",
                      "rx variables: in Emacs 30 they are nil in the body and "
                      "the submatches are assigned to the variables visible "
                      "where cond* is used; pcexpand binds them");
    if (setqs == m->L->nil) /* the value is t, as with variables */
        return list3(m, S->and_, match, S->t);
    setqs = lisp_reverse(m->L, cons(m, S->t, setqs));
    return list3(m, S->if_, match, cons(m, S->progn, setqs));
}

/* 'X: eq for a symbol, equal otherwise. */
static struct value *pat_quote(struct mc *m, struct value *pat,
                               const struct sub *s, bindings_t *b)
{
    (void)b;
    bool sym = value_symbolp(value_car(value_cdr(pat)));
    return list3(m, sym ? m->S->eq : m->S->equal, s->acc, pat);
}

static struct value *pat_cons(struct mc *m, struct value *pat,
                              const struct sub *s, bindings_t *b)
{
    struct value *p, *q, *hp, *hq;
    if (!nth_arg(m, pat, 1, &p, &hp) || !nth_arg(m, pat, 2, &q, &hq))
        return improper(m, s, "cons");
    struct value *tests[3];
    tests[0] = list2(m, m->S->consp, s->acc);
    struct sub c = child(m, s, p, hp, list2(m, m->S->car, s->acc));
    if (!(tests[1] = subpat(m, p, &c, b)))
        return NULL;
    c = child(m, s, q, hq, list2(m, m->S->cdr, s->acc));
    if (!(tests[2] = subpat(m, q, &c, b)))
        return NULL;
    return and_of(m, tests, 3);
}

/* (nth I A) and (nthcdr I A), as car and cdr where they are that. */
static struct value *nth_of(struct mc *m, long i, struct value *acc)
{
    if (i == 0)
        return list2(m, m->S->car, acc);
    return list3(m, m->S->nth, num(m, i), acc);
}

static struct value *nthcdr_of(struct mc *m, long i, struct value *acc)
{
    if (i == 0)
        return acc;
    if (i == 1)
        return list2(m, m->S->cdr, acc);
    return list3(m, m->S->nthcdr, num(m, i), acc);
}

/* (list P0 ... Pn-1): consp of each tail, then Pi on (nth i A). */
static struct value *pat_list(struct mc *m, struct value *pat,
                              const struct sub *s, bindings_t *b)
{
    struct value *elts = value_cdr(pat);
    long n = value_list_length(elts, m->L->nil);
    if (n < 0)
        return improper(m, s, "list");
    struct value **tests = ARENA_NEWN(m->L->a, struct value *, 2 * n + 1);
    size_t k = 0;
    long i = 0;
    for (struct value *e = elts; e != m->L->nil; e = value_cdr(e), i++) {
        struct value *acc = nth_of(m, i, s->acc);
        struct sub c = child(m, s, value_car(e), e, acc);
        struct value *t = subpat(m, value_car(e), &c, b);
        if (!t)
            return NULL;
        tests[k++] = list2(m, m->S->consp, nthcdr_of(m, i, s->acc));
        tests[k++] = t;
    }
    if (!s->lax)
        tests[k++] = list2(m, m->S->null, nthcdr_of(m, n, s->acc));
    return and_of(m, tests, k);
}

/* (vector P0 ... Pn-1), elements read with (aref A I) (Q1 fixed). */
static struct value *pat_vector(struct mc *m, struct value *pat,
                                const struct sub *s, bindings_t *b)
{
    struct value *elts = value_cdr(pat);
    long n = value_list_length(elts, m->L->nil);
    if (n < 0)
        return improper(m, s, "vector");
    struct value **tests = ARENA_NEWN(m->L->a, struct value *, n + 2);
    size_t k = 0;
    tests[k++] = list2(m, m->S->vectorp, s->acc);
    tests[k++] = list3(m, m->S->num_eq, list2(m, m->S->length, s->acc), num(m, n));
    bool uses_elements = false;
    long i = 0;
    for (struct value *e = elts; e != m->L->nil; e = value_cdr(e), i++) {
        bindings_t before = *b;
        struct value *acc = list3(m, m->S->aref, s->acc, num(m, i));
        struct sub c = child(m, s, value_car(e), e, acc);
        if (!(tests[k++] = subpat(m, value_car(e), &c, b)))
            return NULL;
        uses_elements |= tests[k - 1] != m->S->t || *b != before;
    }
    if (uses_elements)
        condstar_diag(m->x, DIAG_WARNING, s->at, "emacs-divergence",
                      "vector pattern: Emacs 30 generates (aref I VECTOR) here "
                      "and signals wrong-type-argument fixnump when the datum "
                      "is a vector of length %ld; pcexpand binds the elements",
                      n);
    return and_of(m, tests, k);
}

/* Emacs's cond*-un-backquote-list*: all arguments but the last are kept,
 * the last must be 'LIST, whose elements are quoted. */
static bool unbackquote(struct mc *m, struct value *args, struct value **out)
{
    struct value *nil = m->L->nil, *rev = nil;
    for (; value_consp(args) && value_cdr(args) != nil; args = value_cdr(args))
        rev = cons(m, value_car(args), rev);
    if (args != nil && !value_consp(args))
        return false;
    struct value *last = args == nil ? nil : value_car(args); /* 'LIST */
    if (last != nil && !(value_consp(last) &&
                         (value_cdr(last) == nil || value_consp(value_cdr(last)))))
        return false;
    struct value *items = last == nil || value_cdr(last) == nil
                              ? nil : value_car(value_cdr(last));
    if (value_is(items, VK_VECTOR))
        items = lisp_list(m->L, items->u.vec.n, items->u.vec.items);
    if (!proper(m, items))
        return false;
    struct value *q = nil;
    for (; items != nil; items = value_cdr(items))
        q = cons(m, list2(m, m->S->quote, value_car(items)), q);
    for (q = lisp_reverse(m->L, q); rev != nil; rev = value_cdr(rev))
        q = cons(m, value_car(rev), q);
    *out = q;
    return true;
}

/* (apply F (backquote-list* ... 'LIST)): what backquote makes of a vector
 * with a splice; rewritten to a vector pattern. */
static struct value *pat_apply(struct mc *m, struct value *pat,
                               const struct sub *s, bindings_t *b)
{
    struct value *arg, *holder, *elts;
    if (!nth_arg(m, pat, 2, &arg, &holder) ||
        (arg != m->L->nil && !value_consp(arg)) ||
        !unbackquote(m, arg == m->L->nil ? arg : value_cdr(arg), &elts))
        return fail(m, s->at, "malformed-pattern", "%s",
                    s->at.v == pat
                        ? "apply pattern: only (apply #'vector (backquote-list* "
                          "... 'LIST)) can be matched (Emacs 30 signals "
                          "wrong-type-argument while expanding)"
                        : "a backquoted vector with ,@ cannot be matched: it "
                          "becomes an apply pattern, which Emacs 30 can only "
                          "take apart when the spliced part is a constant "
                          "(it signals wrong-type-argument while expanding)");
    return subpat(m, cons(m, m->S->vector, elts), s, b);
}

static struct value *pat_cdr_ignore(struct mc *m, struct value *pat,
                                    const struct sub *s, bindings_t *b)
{
    struct sub c = child(m, s, value_car(value_cdr(pat)), value_cdr(pat), s->acc);
    c.lax = true;
    return subpat(m, value_car(value_cdr(pat)), &c, b);
}

static struct value *pat_cdr(struct mc *m, struct value *pat,
                             const struct sub *s, bindings_t *b)
{
    struct sub c = child(m, s, value_car(value_cdr(pat)), value_cdr(pat), s->acc);
    c.lax = false;
    return subpat(m, value_car(value_cdr(pat)), &c, b);
}

static struct value *pat_and(struct mc *m, struct value *pat,
                             const struct sub *s, bindings_t *b)
{
    struct value *elts = value_cdr(pat);
    long n = value_list_length(elts, m->L->nil);
    if (n < 0)
        return improper(m, s, "and");
    struct value **tests = ARENA_NEWN(m->L->a, struct value *, n);
    size_t k = 0;
    for (struct value *e = elts; e != m->L->nil; e = value_cdr(e)) {
        struct sub c = child(m, s, value_car(e), e, s->acc);
        if (!(tests[k++] = subpat(m, value_car(e), &c, b)))
            return NULL;
    }
    return and_of(m, tests, k);
}

/* An or arm that made k new bindings: when it fails, its aliases are
 * reset to nil so that the next arm starts clean (Emacs does this for
 * k = 1 only and makes the arm fail for k >= 2: Q3 fixed). */
static struct value *or_arm(struct mc *m, struct value *test, bindings_t arm,
                            bindings_t before, const struct sub *c)
{
    struct value *clearing = m->L->nil;
    long k = 0;
    for (; arm != before; arm = arm->next, k++)
        clearing = cons(m, list3(m, m->S->setq, alias_for(m, arm->var), m->L->nil),
                        clearing);
    if (k == 0)
        return test;
    struct value *arms[2] = {test, value_car(clearing)};
    if (k == 1)
        return flat(m, m->S->or_, arms, 2);
    if (!c->dropped)
        condstar_diag(m->x, DIAG_WARNING, c->at, "emacs-divergence",
                      "or alternative binds %ld variables: in Emacs 30 it "
                      "can never match; pcexpand tries it", k);
    clearing = lisp_reverse(m->L, cons(m, m->L->nil, lisp_reverse(m->L, clearing)));
    arms[1] = cons(m, m->S->progn, clearing);
    return flat(m, m->S->or_, arms, 2);
}

/* The constant that test compares with acc, if it is (eq acc C),
 * (eql acc C), (equal acc C) or (null acc); NULL otherwise.  *strength:
 * 0 eq, 1 eql, 2 equal. */
static struct value *constant_test(struct mc *m, struct value *test,
                                   const struct value *acc, int *strength)
{
    struct value *const ops[] = {m->S->eq, m->S->eql, m->S->equal};
    long n = value_list_length(test, m->L->nil);
    if (n < 2 || value_car(value_cdr(test)) != acc)
        return NULL;
    if (n == 2 && value_car(test) == m->S->null) {
        *strength = 0;
        return m->L->nil;
    }
    struct value *k = n == 3 ? value_car(value_cdr(value_cdr(test))) : NULL;
    bool quoted = k && value_consp(k) && value_car(k) == m->S->quote;
    if (!k || (value_consp(k) && !quoted) ||
        (value_symbolp(k) && k != m->S->t && !condstar_keywordp(k)))
        return NULL; /* not a constant */
    for (int i = 0; i < 3; i++)
        if (value_car(test) == ops[i]) {
            *strength = i;
            return quoted ? value_car(value_cdr(k)) : k;
        }
    return NULL;
}

/* (or TESTS...).  Where only its truth counts and every test compares one
 * accessor with a constant, the same test as a person writes it:
 * (memq A '(C...)), or memql, member when eql, equal are needed.  The
 * byte compiler makes a jump table of it in a cond. */
static struct value *or_tests(struct mc *m, struct value **tests, size_t k)
{
    const struct value *acc = value_consp(tests[0]) && value_consp(value_cdr(tests[0]))
                                  ? value_car(value_cdr(tests[0])) : NULL;
    struct value *consts = m->L->nil;
    int strongest = 0;
    for (size_t i = k; acc && !m->value_used && i-- > 0;) {
        int strength;
        struct value *x = constant_test(m, tests[i], acc, &strength);
        if (!x)
            return flat(m, m->S->or_, tests, k);
        consts = cons(m, x, consts);
        strongest = strength > strongest ? strength : strongest;
    }
    if (!acc || m->value_used)
        return flat(m, m->S->or_, tests, k);
    struct value *fn = strongest == 0 ? m->S->memq : strongest == 1 ? m->S->memql
                                                                    : m->S->member;
    return list3(m, fn, (struct value *)acc, list2(m, m->S->quote, consts));
}

/* (or P...): each arm from the bindings before the or; afterwards each
 * variable that got a new alias in this or is bound to it (3.3). */
static struct value *pat_or(struct mc *m, struct value *pat,
                            const struct sub *s, bindings_t *b)
{
    struct value *elts = value_cdr(pat);
    if (!proper(m, elts))
        return improper(m, s, "or");
    const struct matchstar_alias *aliases_before = m->aliases;
    long n = value_list_length(elts, m->L->nil);
    struct value **tests = ARENA_NEWN(m->L->a, struct value *, n);
    size_t k = 0;
    for (struct value *e = elts; e != m->L->nil; e = value_cdr(e)) {
        bindings_t arm = *b;
        struct sub c = child(m, s, value_car(e), e, s->acc);
        c.in_or = true;
        struct value *t = subpat(m, value_car(e), &c, &arm);
        if (!t)
            return NULL;
        tests[k++] = or_arm(m, t, arm, *b, &c);
    }
    const struct matchstar_alias *made = NULL; /* this or's aliases, oldest first */
    for (const struct matchstar_alias *a = m->aliases; a != aliases_before; a = a->next) {
        struct matchstar_alias *n = ARENA_NEW(m->L->a, struct matchstar_alias);
        *n = (struct matchstar_alias){a->var, a->temp, made};
        made = n;
    }
    for (; made; made = made->next)
        *b = bind(m, *b, made->var, made->temp);
    return k == 1 ? tests[0] : or_tests(m, tests, k);
}

/* Backquote and backquote-list*: match what the macro expands to. */
static struct value *pat_macro(struct mc *m, struct value *pat,
                               const struct sub *s, bindings_t *b)
{
    struct value *e = bquote_expand(m->x, m->S, pat, s->at);
    if (!e)
        return NULL;
    struct sub c = child(m, s, e, NULL, s->acc);
    return subpat(m, e, &c, b);
}

/* Expand each form of a proper list of user code. */
static struct value *expand_list(struct mc *m, struct value *l)
{
    struct value *r = m->L->nil;
    for (; l != m->L->nil; l = value_cdr(l)) {
        struct value *e = expand_code(m->x, value_car(l));
        if (!e)
            return NULL;
        r = cons(m, e, r);
    }
    return lisp_reverse(m->L, r);
}

/* ---- code that cannot change the datum ---- */

/* Sorted: built-in functions that call no Lisp function and assign no
 * variable.  A test made only of these (on constants and variables)
 * cannot change the variable a datum was read from, so condstar.c may
 * read that variable again instead of copying it. */
static const char *const inert_fns[] = {
    "/=", "<", "<=", "=", ">", ">=", "aref", "arrayp", "assq", "atom",
    "bool-vector-p", "bufferp", "car", "car-safe", "cdr", "cdr-safe",
    "char-or-string-p", "char-table-p", "characterp", "consp", "eq", "eql",
    "equal", "floatp", "integerp", "keywordp", "length", "listp", "markerp",
    "member", "memq", "memql", "natnump", "nlistp", "not", "nth", "nthcdr",
    "null", "numberp", "proper-list-p", "recordp", "sequencep",
    "string-equal", "string-lessp", "string<", "string=", "stringp",
    "symbolp", "vectorp",
};

static int name_cmp(const struct value *sym, const char *name)
{
    size_t n = strlen(name);
    int c = memcmp(sym->u.sym.name, name, sym->u.sym.len < n ? sym->u.sym.len : n);
    if (c)
        return c;
    return sym->u.sym.len < n ? -1 : sym->u.sym.len > n;
}

static int inert_cmp(const void *key, const void *elt)
{
    return name_cmp(key, *(const char *const *)elt);
}

static bool inert_fn(const struct value *f)
{
    return value_symbolp(f) && f->u.sym.interned &&
           bsearch(f, inert_fns, sizeof inert_fns / sizeof inert_fns[0],
                   sizeof inert_fns[0], inert_cmp);
}

#define INERT_DEPTH 8 /* deeper argument forms are taken to be code */

/* Is form a constant, a variable, or an inert function applied to such
 * forms (at most depth levels)? */
static bool inert(struct mc *m, const struct value *form, int depth)
{
    if (!value_consp(form))
        return true;
    const struct value *h = value_car(form);
    if (h == m->S->quote || h == m->S->function)
        return true;
    if (depth == 0 || !inert_fn(h))
        return false;
    for (form = value_cdr(form); value_consp(form); form = value_cdr(form))
        if (!inert(m, value_car(form), depth - 1))
            return false;
    return form == m->L->nil;
}

/* (constrain V EXPR): only EXPR is the test (Q9), V gives bindings.  An
 * EXPR that uses no pattern variable is the test as it is: it may run
 * before anything reads the datum, and it stays out of flat(). */
static struct value *pat_constrain(struct mc *m, struct value *pat,
                                   const struct sub *s, bindings_t *b)
{
    struct value *v, *hv, *exp, *hexp;
    if (!nth_arg(m, pat, 1, &v, &hv) || !nth_arg(m, pat, 2, &exp, &hexp))
        return improper(m, s, "constrain");
    struct sub c = child(m, s, v, hv, s->acc);
    c.dropped = true;
    if (!subpat(m, v, &c, b))
        return NULL;
    struct value *out = expand_code(m->x, exp);
    if (!out)
        return NULL;
    struct value *test = bind_around(m, *b, exp, out, s->at);
    m->effects = true;
    if (test == out) {
        m->opaque = true;
        m->user_tests = cons(m, out, m->user_tests);
    }
    m->opaque |= !inert(m, out, INERT_DEPTH);
    return test;
}

/* (PRED V ARGS...): (PRED A ARGS...) and V's own test (rule 21). */
static struct value *pat_pred(struct mc *m, struct value *pat,
                              const struct sub *s, bindings_t *b)
{
    struct value *v = value_car(value_cdr(pat)), *args = value_cdr(value_cdr(pat));
    if (!proper(m, args))
        return improper(m, s, "predicate");
    struct sub c = child(m, s, v, value_cdr(pat), s->acc);
    struct value *vtest = subpat(m, v, &c, b);
    struct value *xargs = vtest ? expand_list(m, args) : NULL;
    if (!xargs)
        return NULL;
    struct value *head = value_car(pat);
    struct value *walk[2] = {cons(m, head, cons(m, s->acc, args)), vtest};
    struct value *out[2] = {cons(m, head, cons(m, s->acc, xargs)), vtest};
    m->opaque |= !inert(m, out[0], INERT_DEPTH);
    m->effects = true; /* a predicate may signal: (> n 0) on a string */
    return bind_around(m, *b, and_of(m, walk, 2), and_of(m, out, 2), s->at);
}

/* ---- head classification (cond-star.md 3.6) ---- */

enum head_kind {
    HK_BUILTIN,   /* a head of the dispatch table: fn */
    HK_SPECIAL,   /* special form of Emacs 28.2: undefined pattern type */
    HK_MACRO,     /* standard macro expanding to a special form: same */
    HK_PCASE,     /* pcase pattern syntax, no function in Emacs */
    HK_UNDEFINED, /* nil, t: never functions */
};

typedef struct value *(*head_fn)(struct mc *, struct value *,
                                 const struct sub *, bindings_t *);

struct head {
    const char *name;
    enum head_kind kind;
    head_fn fn; /* HK_BUILTIN only */
};

/* Sorted by name (strcmp); checked by matchstar_heads_sorted. */
static const struct head heads[] = {
    {"`", HK_BUILTIN, pat_macro},
    {"and", HK_BUILTIN, pat_and},
    {"app", HK_PCASE, NULL},
    {"apply", HK_BUILTIN, pat_apply},
    {"backquote-list*", HK_BUILTIN, pat_macro},
    {"catch", HK_SPECIAL, NULL},
    {"cdr", HK_BUILTIN, pat_cdr},
    {"cdr-ignore", HK_BUILTIN, pat_cdr_ignore},
    {"cl-decf", HK_MACRO, NULL},
    {"cl-incf", HK_MACRO, NULL},
    {"cl-struct", HK_PCASE, NULL},
    {"cl-type", HK_PCASE, NULL},
    {"cond", HK_SPECIAL, NULL},
    {"condition-case", HK_SPECIAL, NULL},
    {"cons", HK_BUILTIN, pat_cons},
    {"constrain", HK_BUILTIN, pat_constrain},
    {"defconst", HK_SPECIAL, NULL},
    {"defvar", HK_SPECIAL, NULL},
    {"dolist", HK_MACRO, NULL},
    {"dotimes", HK_MACRO, NULL},
    {"function", HK_SPECIAL, NULL},
    {"guard", HK_PCASE, NULL},
    {"if", HK_SPECIAL, NULL},
    {"inline", HK_SPECIAL, NULL},
    {"interactive", HK_SPECIAL, NULL},
    {"lambda", HK_MACRO, NULL},
    {"let", HK_SPECIAL, NULL},
    {"let*", HK_SPECIAL, NULL},
    {"list", HK_BUILTIN, pat_list},
    {"map", HK_PCASE, NULL},
    {"nil", HK_UNDEFINED, NULL},
    {"or", HK_BUILTIN, pat_or},
    {"pop", HK_MACRO, NULL},
    {"pred", HK_PCASE, NULL},
    {"prog1", HK_SPECIAL, NULL},
    {"progn", HK_SPECIAL, NULL},
    {"push", HK_MACRO, NULL},
    {"quote", HK_BUILTIN, pat_quote},
    {"rx", HK_BUILTIN, pat_rx},
    {"save-current-buffer", HK_SPECIAL, NULL},
    {"save-excursion", HK_SPECIAL, NULL},
    {"save-restriction", HK_SPECIAL, NULL},
    {"seq", HK_PCASE, NULL},
    {"setq", HK_SPECIAL, NULL},
    {"t", HK_UNDEFINED, NULL},
    {"unless", HK_MACRO, NULL},
    {"unwind-protect", HK_SPECIAL, NULL},
    {"vector", HK_BUILTIN, pat_vector},
    {"when", HK_MACRO, NULL},
    {"while", HK_SPECIAL, NULL},
};

static int head_cmp(const void *key, const void *elt)
{
    return name_cmp(key, ((const struct head *)elt)->name);
}

bool matchstar_heads_sorted(void)
{
    for (size_t i = 1; i < sizeof heads / sizeof heads[0]; i++)
        if (strcmp(heads[i - 1].name, heads[i].name) >= 0)
            return false;
    for (size_t i = 1; i < sizeof inert_fns / sizeof inert_fns[0]; i++)
        if (strcmp(inert_fns[i - 1], inert_fns[i]) >= 0)
            return false;
    return true;
}

static const struct head *find_head(const struct value *sym)
{
    if (!sym->u.sym.interned)
        return NULL;
    return bsearch(sym, heads, sizeof heads / sizeof heads[0], sizeof heads[0],
                   head_cmp);
}

static struct value *unknown_head(struct mc *m, struct value *pat,
                                  const struct sub *s, enum head_kind kind)
{
    const char *name = value_car(pat)->u.sym.name;
    if (kind == HK_PCASE)
        fail(m, s->at, "unknown-pattern",
              "undefined pattern type `%s' in match*: that is pcase pattern "
              "syntax; in match* a predicate is written (FUNCTION VAR ARGS...)",
              name);
    else
        fail(m, s->at, "unknown-pattern",
              "undefined pattern type `%s' in match* (not a function)", name);
    return NULL;
}

/* Rules 8-23 for a cons pattern. */
static struct value *compound(struct mc *m, struct value *pat,
                              const struct sub *s, bindings_t *b)
{
    struct value *head = value_car(pat);
    if (!value_consp(value_cdr(pat))) {
        fail(m, s->at, "malformed-pattern",
              "`%s' subpattern with malformed or missing arguments",
              condstar_describe(m->L, head));
        return NULL;
    }
    if (!value_symbolp(head)) {
        fail(m, s->at, "malformed-pattern",
              "pattern head is %s, not a symbol (Emacs 30 signals "
              "wrong-type-argument symbolp)", condstar_describe(m->L, head));
        return NULL;
    }
    const struct head *h = find_head(head);
    if (h && h->kind == HK_BUILTIN)
        return h->fn(m, pat, s, b);
    if (h)
        return unknown_head(m, pat, s, h->kind);
    if (condstar_keywordp(head))
        return unknown_head(m, pat, s, HK_UNDEFINED);
    return pat_pred(m, pat, s, b);
}

static struct value *subpat(struct mc *m, struct value *pat,
                            const struct sub *s, bindings_t *b)
{
    if (!condstar_enter(m->x, s->at))
        return NULL;
    struct value *t = value_consp(pat) ? compound(m, pat, s, b) : atom(m, pat, s, b);
    condstar_leave(m->x);
    return t;
}

/* test where only its truth counts: a final t of a generated and (an rx
 * pattern whose variables are all `_') is dropped. */
static struct value *truth_of(struct mc *m, struct value *test)
{
    if (!generated(m, test, m->S->and_))
        return test;
    struct value *rev = lisp_reverse(m->L, value_cdr(test));
    if (value_car(rev) != m->S->t)
        return test;
    struct value *kept = lisp_reverse(m->L, value_cdr(rev));
    long n = value_list_length(kept, m->L->nil);
    return n == 1 ? value_car(kept) : cons(m, m->S->and_, kept);
}

bool matchstar_compile(struct expand_ctx *x, const struct condstar_syms *S,
                       struct value *pattern, struct condstar_at at,
                       struct value *datum, bool value_used,
                       struct matchstar_result *out)
{
    struct mc m = {x, S, x->L, NULL, x->L->nil, false, false, value_used};
    struct sub s = {datum, at, false, false, false};
    bindings_t b = NULL;
    struct value *t = subpat(&m, pattern, &s, &b);
    if (!t)
        return false;
    out->test = value_used ? t : truth_of(&m, t);
    out->bindings = b;
    out->aliases = m.aliases;
    out->opaque = m.opaque;
    out->effects = m.effects || m.opaque;
    return true;
}

struct value *matchstar_let_list(struct lisp *L, const struct matchstar_binding *b)
{
    struct value *r = L->nil;
    for (; b; b = b->next)
        r = value_cons(L->a, lisp_listv(L, b->var, b->val, NULL), r);
    return r;
}
