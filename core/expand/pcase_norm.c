/* pcase_norm.c - surface pcase patterns -> match/pat IR (pcase.md 2.1-2.6).
 *
 * Stage "normalise" of the pcase front end.  Atoms become variables,
 * wildcards or constants; the core heads (quote pred guard app and or let
 * and backquote) are translated here, every other head goes through
 * pcase_macros_expand and its result is normalised again.  Errors carry
 * the position of the offending sub-pattern.  Each clause's variables are
 * recorded in order of first occurrence, with whether the pattern itself
 * reads them (for `ignore` lists and unused-variable warnings).
 *
 * Functions, in order: occurrences and code bookkeeping, atoms, the head
 * table (quote pred guard app and or let `), backquote (qpat, iterative
 * along lists), norm, pcase_norm, pcase_copyable.
 */
#include "expand/pcase_int.h"

#include <string.h>

#include "expand/pcase_macros.h"

/* One occurrence of a variable in the clause's pattern. */
struct occ {
    struct value *sym;
    struct value *cell;        /* cons whose car it is (may be NULL) */
    bool rep;                  /* repeated within one path (an eql test) */
    bool read;                 /* mentioned by later pred/app/guard/let code */
};

struct nz {
    struct pcase_run *c;
    struct memo_ctx *m;
    struct lisp *L;
    struct pcase_clause *cl;
    struct occ *occ;           /* variable occurrences, in order */
    size_t n_occ, cap_occ;
    const struct value *anchor; /* pattern whose text stands for generated parts */
    size_t nodes;              /* norm calls so far (NORM_MAX_NODES) */
    const struct pat *consp;   /* (pred consp), once made for this clause */
    const struct pat_val *car, *cdr; /* car-safe, cdr-safe (likewise) */
    bool stopped;              /* an error was reported: abandon the clause */
};

/* Sub-patterns one clause may have once its pattern macros are expanded:
 * a template that doubles its pattern at each level stops here with an
 * error instead of exhausting memory. */
#define NORM_MAX_NODES 200000

static const struct pat *norm(struct nz *z, struct value *p, struct value *cell);

/* ---- bookkeeping ------------------------------------------------------ */

static void *grow(struct nz *z, void *v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return v;
    size_t ncap = *cap * 2 + 8;
    v = arena_grow(z->m->a, v, *cap * size, ncap * size);
    *cap = ncap;
    return v;
}

static void note_var(struct nz *z, struct value *sym, struct value *cell)
{
    z->occ = grow(z, z->occ, &z->cap_occ, z->n_occ, sizeof *z->occ);
    z->occ[z->n_occ++] = (struct occ){sym, cell, false, false};
}

/* After the alternatives of an `or` (occurrences from start on, alt[k -
 * start] telling which alternative): a variable in two alternatives is
 * bound on different paths, not repeated; keep its first occurrence only.
 * A repeat inside one alternative stays a repeat. */
static void merge_or_vars(struct nz *z, size_t start, const unsigned *alt)
{
    size_t w = start;
    unsigned *walt = ARENA_NEWN(z->m->a, unsigned, z->n_occ - start + 1);
    for (size_t k = start; k < z->n_occ; k++) {
        size_t j = start;
        while (j < w && z->occ[j].sym != z->occ[k].sym)
            j++;
        if (j < w) {
            z->occ[j].rep |= walt[j - start] == alt[k - start] || z->occ[k].rep;
            z->occ[j].read |= z->occ[k].read;
            continue;
        }
        z->occ[w] = z->occ[k];
        walt[w - start] = alt[k - start];
        w++;
    }
    z->n_occ = w;
}

/* Code of a pred/app FUN, guard or let: the variables bound before it
 * (in pattern order) that it mentions are read by the pattern, as in
 * Emacs, which wraps the code in a let* of exactly those.  A variable
 * bound only later is not (the code sees an outer binding). */
static void note_code(struct nz *z, struct value *code)
{
    if (!z->n_occ)
        return;
    struct value **syms = ARENA_NEWN(z->m->a, struct value *, z->n_occ);
    for (size_t i = 0; i < z->n_occ; i++)
        syms[i] = z->occ[i].sym;
    bool *found = arena_zalloc(z->m->a, z->n_occ);
    pat_mentions(z->m, code, syms, z->n_occ, found);
    for (size_t i = 0; i < z->n_occ; i++)
        z->occ[i].read |= found[i];
}

/* Was v read from the input (does it have a text position)? */
static bool from_input(struct nz *z, const struct value *v)
{
    struct span sp;
    const struct read_result *src = z->c->x->src;
    return src && read_origin_span(src, expand_origin(z->c->x, v), &sp);
}

/* Where a diagnostic about p goes: p itself if read from the input, else
 * the cell holding it, else the pattern macro call it came from. */
static void diag(struct nz *z, enum diag_severity sev, const struct value *p,
                 struct value *cell, const char *code, const char *msg)
{
    const struct value *at = p;
    if (z->anchor && !cell && !from_input(z, p))
        at = z->anchor;
    pcase_diag(z->c, sev, at, cell, code, "%s", msg);
}

static const struct pat *fail(struct nz *z, const struct value *p,
                              struct value *cell, const char *code,
                              const char *msg)
{
    diag(z, DIAG_ERROR, p, cell, code, msg);
    z->stopped = true;
    return NULL;
}

/* Should norm stop at p?  After the clause's first error (fail) every
 * sub-pattern still pending fails silently, as Emacs stops at its first
 * error: the copies a doubling template makes of a bad or too-deep branch
 * (2^depth of them) are neither normalised nor reported again.  Reports
 * the size and depth limits. */
static bool over_limit(struct nz *z, const struct value *p, struct value *cell)
{
    struct expand_ctx *x = z->c->x;
    if (z->stopped)
        return true;
    if (++z->nodes > NORM_MAX_NODES) {
        fail(z, p, cell, "nesting-too-deep", "pattern too large once its pattern "
             "macros are expanded (more than 200000 sub-patterns)");
        return true;
    }
    if (x->max_depth > 0 && x->depth >= x->max_depth) {
        fail(z, p, cell, "nesting-too-deep", "pattern nested too deeply");
        return true;
    }
    return false;
}

/* A pattern that is an error only if the compiler reaches it (pcase.md
 * 6.1: Emacs signals these while compiling, not while normalising). */
static void where(struct nz *z, const struct pat *b, struct value *p, struct value *cell)
{
    struct pcase_bad *r = ARENA_NEW(z->m->a, struct pcase_bad);
    r->pat = b;
    r->v = p;
    r->cell = cell;
    if (z->anchor && !cell && !from_input(z, p))
        r->v = z->anchor;
    r->next = z->c->bad;
    z->c->bad = r;
}

static const struct pat *bad(struct nz *z, struct value *p, struct value *cell, int why)
{
    const struct pat *b = pat_bad(z->m, p, why);
    where(z, b, p, cell);
    return b;
}

static const char *fmt(struct nz *z, const char *f, const char *arg)
{
    struct buf b;
    buf_init(&b, z->L->a);
    buf_printf(&b, f, arg);
    return buf_cstr(&b);
}

/* ---- list access ------------------------------------------------------ */

static struct value *nth_or_nil(struct nz *z, struct value *l, int n)
{
    while (n-- > 0 && l->kind == VK_CONS)
        l = value_cdr(l);
    return l->kind == VK_CONS ? value_car(l) : z->L->nil;
}

/* The cell whose car is element n of l, or NULL. */
static struct value *nth_cell(struct value *l, int n)
{
    while (n-- > 0 && l->kind == VK_CONS)
        l = value_cdr(l);
    return l->kind == VK_CONS ? l : NULL;
}

/* The first byte is compared inline: most symbols differ there, and this
 * runs for every symbol of a pattern. */
static inline bool named(const struct value *v, const char *name)
{
    return v->kind == VK_SYMBOL && v->u.sym.interned && v->u.sym.name[0] == name[0] &&
           strcmp(v->u.sym.name, name) == 0;
}

/* ---- atoms ------------------------------------------------------------ */

static const struct pat *atom(struct nz *z, struct value *p, struct value *cell)
{
    if (p->kind == VK_SYMBOL) {
        if (p == z->L->nil)
            return bad(z, p, cell, PAT_BAD_UNKNOWN);
        if (named(p, "_"))
            return pat_any(z->m);
        if (p == z->L->t) {
            diag(z, DIAG_WARNING, p, cell, "deprecated-t-pattern",
                 "Pattern t is deprecated.  Use `_' instead");
            return pat_any(z->m);
        }
        if (p->u.sym.interned && p->u.sym.name[0] == ':')
            return pat_quote(z->m, p);
        if (named(p, "pcase--dontcare")) /* Emacs's own sources use it */
            return pat_dontcare(z->m);
        note_var(z, p, cell);
        return pat_var(z->m, p);
    }
    if (value_integerp(p) || p->kind == VK_STRING)
        return pat_quote(z->m, p);
    return bad(z, p, cell, PAT_BAD_UNKNOWN);
}

/* ---- FUN forms -------------------------------------------------------- */

/* Warn about `_' as an argument of a call FUN written in the input. */
static void check_underscore(struct nz *z, struct value *fun)
{
    struct value *not = pat_sym_not(z->m);
    while (fun->kind == VK_CONS && value_car(fun) == not)
        fun = nth_or_nil(z, fun, 1);
    if (fun->kind != VK_CONS || value_car(fun) == z->L->lambda)
        return;
    if (!from_input(z, fun))
        return;
    for (struct value *l = value_cdr(fun); l->kind == VK_CONS; l = value_cdr(l))
        if (named(value_car(l), "_")) {
            pcase_diag(z->c, DIAG_WARNING, fun, NULL, "underscore-argument",
                    "`_' in %s stands for the value being matched (Emacs 30); "
                    "Emacs 28 reads it as a variable", pcase_show(z->c, fun));
            return;
        }
}

/* ---- core heads ------------------------------------------------------- */

typedef const struct pat *head_fn(struct nz *z, struct value *p);

static const struct pat *h_quote(struct nz *z, struct value *p)
{
    return pat_quote(z->m, nth_or_nil(z, p, 1));
}

static const struct pat *h_pred(struct nz *z, struct value *p)
{
    if (value_cdr(p)->kind != VK_CONS)
        diag(z, DIAG_WARNING, p, NULL, "pred-without-function",
             "(pred) has no function: Emacs compiles the call (nil VALUE), "
             "a void-function error at run time");
    struct value *fun = nth_or_nil(z, p, 1);
    check_underscore(z, fun);
    note_code(z, fun);
    return pat_pred(z->m, fun);
}

static const struct pat *h_guard(struct nz *z, struct value *p)
{
    struct value *e = nth_or_nil(z, p, 1);
    note_code(z, e);
    return pat_guard(z->m, e);
}

static const struct pat *h_app(struct nz *z, struct value *p)
{
    struct value *fun = nth_or_nil(z, p, 1);
    check_underscore(z, fun);
    note_code(z, fun);
    const struct pat *sub = norm(z, nth_or_nil(z, p, 2), nth_cell(p, 2) ? nth_cell(p, 2) : p);
    return sub ? pat_app(z->m, fun, sub) : NULL;
}

/* (let PAT EXPR) is (app (lambda (_) EXPR) PAT). */
static const struct pat *h_let(struct nz *z, struct value *p)
{
    struct lisp *L = z->L;
    struct value *expr = nth_or_nil(z, p, 2);
    note_code(z, expr);
    struct value *us = INTERN_LIT(L, "_");
    struct value *fun = lisp_listv(L, L->lambda, lisp_listv(L, us, NULL), expr, NULL);
    const struct pat *sub = norm(z, nth_or_nil(z, p, 1), nth_cell(p, 1) ? nth_cell(p, 1) : p);
    return sub ? pat_app(z->m, fun, sub) : NULL;
}

static const struct pat *h_andor(struct nz *z, struct value *p, bool is_or)
{
    long n = value_list_length(value_cdr(p), z->L->nil);
    if (n < 0)
        return fail(z, p, NULL, "malformed-pattern",
                    fmt(z, "Malformed %s pattern: not a proper list", is_or ? "or" : "and"));
    const struct pat **items = ARENA_NEWN(z->m->a, const struct pat *, (size_t)n + 1);
    size_t i = 0, start = z->n_occ, cap = 0;
    unsigned *alt = NULL;
    bool ok = true;
    for (struct value *l = value_cdr(p); l->kind == VK_CONS; l = value_cdr(l)) {
        size_t before = z->n_occ;
        items[i] = norm(z, value_car(l), l);
        ok &= items[i++] != NULL;
        for (size_t k = before; is_or && k < z->n_occ; k++) {
            alt = grow(z, alt, &cap, k - start, sizeof *alt);
            alt[k - start] = (unsigned)i;
        }
    }
    if (!ok)
        return NULL;
    if (is_or && z->n_occ > start)
        merge_or_vars(z, start, alt);
    if (!is_or)
        return pat_and(z->m, items, i);
    const struct pat *r = pat_or(z->m, items, i);
    if (i < 2) /* an error only if the compiler meets it unsimplified */
        where(z, r, p, NULL);
    return r;
}

static const struct pat *h_and(struct nz *z, struct value *p)
{
    return h_andor(z, p, false);
}

static const struct pat *h_or(struct nz *z, struct value *p)
{
    return h_andor(z, p, true);
}

static const struct pat *qpat(struct nz *z, struct value *q, struct value *cell,
                              struct value **cval);

static const struct pat *h_bq(struct nz *z, struct value *p)
{
    struct value *cval;
    return qpat(z, nth_or_nil(z, p, 1), nth_cell(p, 1) ? nth_cell(p, 1) : p, &cval);
}

/* Sorted by name (strcmp) for bsearch. */
static const struct {
    const char *name;
    head_fn *fn;
} heads[] = {
    {"`", h_bq}, {"and", h_and}, {"app", h_app}, {"guard", h_guard},
    {"let", h_let}, {"or", h_or}, {"pred", h_pred}, {"quote", h_quote},
};

long pcase_norm_check_table(void)
{
    for (size_t i = 1; i < sizeof heads / sizeof heads[0]; i++)
        if (strcmp(heads[i - 1].name, heads[i].name) >= 0)
            return (long)i;
    return -1;
}

/* Row of name in heads, or -1 (value_sym_row keeps it on the symbol). */
static int head_row(const char *name)
{
    size_t lo = 0, hi = sizeof heads / sizeof heads[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(name, heads[mid].name);
        if (c == 0)
            return (int)mid;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

static head_fn *core_head(const struct value *h)
{
    if (h->kind != VK_SYMBOL || !h->u.sym.interned)
        return NULL;
    int row = value_sym_row(h, VALUE_ROW_PATTERN, head_row);
    return row < 0 ? NULL : heads[row].fn;
}

/* ---- backquote -------------------------------------------------------- */

/* Emacs 30 folds a QPAT all of whose parts are constants into one
 * constant, compared with `equal' (pcase.md 2.6): `(a "s") is '(a "s"),
 * `[1 ,'x] is '[1 x].  A part is constant when it is an atom, or ,X where
 * X is written (quote V) - X as written, before pattern macros: ,1 and
 * ,"s" are patterns equal to constants, not constants, and stop the
 * folding.  Each qpat function stores the folded value in *cval, or NULL
 * when the QPAT is not constant. */

static const struct pat *qpat(struct nz *z, struct value *q, struct value *cell,
                              struct value **cval);

static const struct pat *qvec(struct nz *z, struct value *q, struct value *cell,
                              struct value **cval)
{
    struct lisp *L = z->L;
    size_t n = q->u.vec.n;
    const struct pat **items = ARENA_NEWN(L->a, const struct pat *, n + 2);
    struct value **consts = ARENA_NEWN(L->a, struct value *, n + 1);
    bool constant = true, same = true;
    for (size_t i = 0; i < n; i++) {
        if (!(items[i + 2] = qpat(z, q->u.vec.items[i], cell, &consts[i])))
            return NULL;
        constant &= consts[i] != NULL;
        same &= consts[i] == q->u.vec.items[i];
    }
    if (constant) {
        struct value *v = q;
        if (!same) {
            v = value_vector(L->a, VK_VECTOR, n);
            memcpy(v->u.vec.items, consts, n * sizeof *consts);
        }
        *cval = v;
        return pat_quote(z->m, v);
    }
    items[0] = pat_pred(z->m, INTERN_LIT(L, "vectorp"));
    items[1] = pat_app(z->m, INTERN_LIT(L, "length"),
                       pat_quote(z->m, value_int(L->a, (int64_t)n)));
    struct value *aref = INTERN_LIT(L, "aref"), *us = INTERN_LIT(L, "_");
    for (size_t i = 0; i < n; i++) {
        struct value *fun = lisp_listv(L, aref, us, value_int(L->a, (int64_t)i), NULL);
        items[i + 2] = pat_app(z->m, fun, items[i + 2]);
    }
    return pat_and(z->m, items, n + 2);
}

/* Is q (, X) (which: L->comma) or (,@ X) (L->comma_at)? */
static bool unquote(const struct value *q, const struct value *which)
{
    return q->kind == VK_CONS && value_car(q) == which;
}

/* A QPAT that is not a list to walk: ,PAT, ,@X, a vector or an atom. */
static const struct pat *qpat_leaf(struct nz *z, struct value *q, struct value *cell,
                                   struct value **cval)
{
    *cval = NULL;
    if (unquote(q, z->L->comma)) {
        struct value *x = nth_or_nil(z, q, 1);
        if (x->kind == VK_CONS && value_car(x) == z->L->quote)
            *cval = nth_or_nil(z, x, 1);
        return norm(z, x, nth_cell(q, 1) ? nth_cell(q, 1) : q);
    }
    if (unquote(q, z->L->comma_at) || named(q, "...")) {
        fail(z, q, cell, "splice-in-backquote",
                    fmt(z, "Unsupported QPAT: %s (Emacs 30 rejects it; "
                           "Emacs 28.2 matched it as literal structure)", pcase_show(z->c, q)));
        expand_set_error_signal(z->c->x, "Unsupported QPAT: ", q);
        return NULL;
    }
    if (q->kind == VK_VECTOR)
        return qvec(z, q, cell, cval);
    if (q->kind == VK_SYMBOL || q->kind == VK_STRING || value_numberp(q)) {
        *cval = q;
        return pat_quote(z->m, q);
    }
    fail(z, q, cell, "malformed-pattern", fmt(z, "Unknown QPAT: %s", pcase_show(z->c, q)));
    expand_set_error_signal(z->c->x, "Unknown QPAT: ", q);
    return NULL;
}

/* A backquote inside a backquote pattern is literal structure in Emacs 28
 * and 30 (its commas still bind), an error in Emacs 31: say so
 * (pcase.md 9). */
static void nested_backquote(struct nz *z, struct value *q, struct value *cell)
{
    if (q->kind == VK_CONS && value_car(q) == z->L->backquote && from_input(z, q))
        diag(z, DIAG_WARNING, q, cell, "nested-backquote",
             "a backquote inside a backquote pattern matches the symbol ` literally "
             "(Emacs 28 and 30; Emacs 31 rejects it)");
}

/* The folded constant of the list cell t whose car and cdr fold to car
 * and cdr: t itself when they are its own parts (the value as written). */
static struct value *fold_cell(struct nz *z, struct value *t, struct value *car,
                               struct value *cdr)
{
    if (car == value_car(t) && cdr == value_cdr(t))
        return t;
    return value_cons(z->L->a, car, cdr);
}

/* `(Q1 Q2 ... . TAIL): the elements are normalised in order (so variables
 * are recorded in reading order), then the nested
 * (and (pred consp) (app car-safe Qi) (app cdr-safe REST)) patterns are
 * built from the end, so long lists do not recurse; a cell whose car and
 * cdr are both constant folds into one constant, as in Emacs 30. */
static const struct pat *qpat_list(struct nz *z, struct value *q, struct value *cell,
                                   struct value **cval)
{
    size_t n = 0, cap = 0, ccap = 0, kcap = 0;
    const struct pat **elts = NULL;
    struct value **consts = NULL, **cells = NULL;
    struct value *t = q;
    for (; t->kind == VK_CONS && !unquote(t, z->L->comma) && !unquote(t, z->L->comma_at);
         t = value_cdr(t)) {
        nested_backquote(z, t, t == q ? cell : NULL);
        elts = grow(z, elts, &cap, n, sizeof *elts);
        consts = grow(z, consts, &ccap, n, sizeof *consts);
        cells = grow(z, cells, &kcap, n, sizeof *cells);
        cells[n] = t;
        if (!(elts[n] = qpat(z, value_car(t), t, &consts[n])))
            return NULL;
        n++;
    }
    struct value *acc_val;
    const struct pat *acc = qpat_leaf(z, t, n ? NULL : cell, &acc_val);
    if (!acc)
        return NULL;
    /* Made where they always were (the first time in the clause): the
     * pattern table numbers its entries in order of making. */
    struct lisp *L = z->L;
    if (!z->consp) {
        z->consp = pat_pred(z->m, INTERN_LIT(L, "consp"));
        z->car = pat_val(z->m, INTERN_LIT(L, "car-safe"));
        z->cdr = pat_val(z->m, INTERN_LIT(L, "cdr-safe"));
    }
    while (n-- > 0) {
        if (acc_val && consts[n]) {
            acc_val = fold_cell(z, cells[n], consts[n], acc_val);
            acc = pat_quote(z->m, acc_val);
            continue;
        }
        acc_val = NULL;
        const struct pat *three[3] = {z->consp, pat_app_val(z->m, z->car, elts[n]),
                                      pat_app_val(z->m, z->cdr, acc)};
        acc = pat_and(z->m, three, 3);
    }
    *cval = acc_val;
    return acc;
}

/* A QPAT, under the shared depth guard: nested conses and vectors of a
 * backquote pattern recurse here, not through norm.  *cval: as above. */
static const struct pat *qpat(struct nz *z, struct value *q, struct value *cell,
                              struct value **cval)
{
    struct expand_ctx *x = z->c->x;
    *cval = NULL;
    if (over_limit(z, q, cell))
        return NULL;
    x->depth++;
    const struct pat *r = qpat_list(z, q, cell, cval);
    x->depth--;
    return r;
}

/* ---- the normaliser --------------------------------------------------- */

static const struct pat *macro(struct nz *z, struct value *p, struct value *cell)
{
    struct value *r = pcase_macros_expand(z->c->x, p);
    if (!r) { /* reported: the clause stops here too */
        z->stopped = true;
        return NULL;
    }
    const struct value *saved = z->anchor;
    if (from_input(z, p))
        z->anchor = p;
    const struct pat *out = norm(z, r, r == p ? cell : NULL);
    z->anchor = saved;
    return out;
}

static const struct pat *norm(struct nz *z, struct value *p, struct value *cell)
{
    struct expand_ctx *x = z->c->x;
    if (over_limit(z, p, cell))
        return NULL;
    x->depth++;
    const struct pat *r;
    if (p->kind != VK_CONS) {
        r = atom(z, p, cell);
    } else {
        head_fn *fn = core_head(value_car(p));
        r = fn ? fn(z, p) : macro(z, p, cell);
    }
    x->depth--;
    return r;
}

/* Fill cl's variable tables from the occurrences: first occurrences in
 * order; a variable is "used" by the pattern when it occurs twice or some
 * later pred/app/guard/let code mentions it. */
static void settle_vars(struct nz *z)
{
    struct pcase_clause *cl = z->cl;
    /* the three tables in one block, in the compilation's arena: nothing
     * reads them once it is over */
    size_t n = z->n_occ + 1;
    cl->vars = arena_alloc(z->m->a, n * (2 * sizeof *cl->vars + sizeof *cl->used));
    cl->var_cells = cl->vars + n;
    cl->used = (bool *)(cl->var_cells + n);
    cl->n_vars = 0;
    for (size_t i = 0; i < z->n_occ; i++) {
        size_t j = 0;
        while (j < cl->n_vars && cl->vars[j] != z->occ[i].sym)
            j++;
        if (j < cl->n_vars) {
            cl->used[j] = true;
            continue;
        }
        cl->vars[j] = z->occ[i].sym;
        cl->var_cells[j] = z->occ[i].cell;
        cl->used[j] = z->occ[i].rep || z->occ[i].read;
        cl->n_vars++;
    }
}

bool pcase_norm(struct pcase_run *c, struct pcase_clause *cl)
{
    struct nz z;
    memset(&z, 0, sizeof z);
    z.c = c;
    z.m = c->m;
    z.L = c->L;
    z.cl = cl;
    cl->pat = norm(&z, cl->pattern, cl->cell);
    settle_vars(&z);
    return cl->pat != NULL;
}

/* Emacs's macroexp-copyable-p: a symbol, a non-list atom, (quote X) or
 * (function SYMBOL). */
bool pcase_copyable(struct pcase_run *c, const struct value *e)
{
    if (e->kind != VK_CONS)
        return true;
    if (value_car(e) == c->L->quote)
        return true;
    if (value_car(e) != c->L->function)
        return false;
    const struct value *r = value_cdr(e);
    return r->kind == VK_CONS && value_car(r)->kind == VK_SYMBOL;
}
