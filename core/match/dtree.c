/* dtree.c - the decision-DAG builder (see dtree.h).
 *
 * Order: free-temporary sets, tests and nodes (unique table), splitting the
 * remaining branches, dropping irrelevant backtracking branches, the steps
 * of the main recursion (test, variable, app, or) and u / u1 / dtree_build.
 * u1 is Emacs's pcase--u1: a state is (pending match trees, clause,
 * variables, remaining branches); its result depends on the state only, so
 * the computed cache may answer it.
 */
#include "match/dtree.h"

#include <string.h>

#include "match/know.h"

enum { TAG_EQL = 303 };

/* Distinct states one context may build before giving up (m->states:
 * the builds that look for the clauses shadowing another share it). */
#define STATE_BUDGET 400000
/* ... and their total size (state_size): states that each carry many
 * variables cost time and memory in proportion (an `and` of 30 `or`s
 * binding different variables makes 2^30 of them; 13 such `or`s, 0.6
 * million units, take 0.15 GB).  The largest in Emacs's sources is 1,600. */
#define SIZE_BUDGET 1000000

struct scratch {
    struct memo_obj **tv, **ev;   /* kept branches, then / else side */
    size_t *ti, *ei;              /* their positions in rest */
    struct memo_list **cells;     /* rest's cells by position */
    size_t cap;
};

struct dt {
    struct memo_ctx *m;
    struct value **names;       /* every variable name of every clause,
                                   collected when first needed
                                   (mentions_a_name) */
    size_t n_names;
    const struct pat *const *pats; /* the clauses' patterns */
    size_t n_pats;
    bool have_names;            /* names and has_dontcare are filled in */
    bool has_dontcare;          /* a clause has a "don't care" pattern */
    struct memo_table eql;      /* (pred (eql PREV)) pattern -> PREV subject */
    const struct dnode *fail;
    const struct dnode *dontcare; /* made when first reached (pcase-let's) */
    struct scratch sc;          /* split_rest's and subst_rest's buffers */
    uint64_t *words;            /* compute_free's buffer (past 64 temporaries) */
    uint32_t cap_words;
    size_t size;                /* state_size of the distinct states built */
    struct value *not;          /* the symbol (strip_not), looked up at the
                                   first function that is a list: most
                                   compilations have none */
    bool or_branches;           /* or_step pushed a branch of its clause
                                   (before, prune has nothing to drop) */
};

/* ---- free temporary sets --------------------------------------------- */

/* Add temporary x (if it is one) to the words w. */
static inline void set_add(uint64_t *w, const struct subj *x)
{
    if (x && x->temp)
        w[x->tnum / 64] |= UINT64_C(1) << (x->tnum % 64);
}

static void set_or(uint64_t *w, struct tset s)
{
    for (uint32_t i = 0; i < s.n; i++)
        w[i] |= s.w[i];
}

static bool set_is(const uint64_t *w, uint32_t n, struct tset s)
{
    return s.n == n && !memcmp(s.w, w, n * sizeof *w);
}

static bool set_has(struct tset s, const struct subj *t)
{
    return t->temp && t->tnum / 64 < s.n && (s.w[t->tnum / 64] >> (t->tnum % 64) & 1);
}

bool dtree_free_has(const struct dnode *n, const struct subj *t)
{
    return set_has(n->free, t);
}

bool dtree_uses(const struct dnode *n, const struct subj *t)
{
    return set_has(n->uses, t);
}

uint32_t dtree_free_count(const struct dnode *n)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < n->free.n; i++)
        c += (uint32_t)__builtin_popcountll(n->free.w[i]);
    return c;
}

const struct subj *dtree_free_next(const struct memo_ctx *m, const struct dnode *n,
                                   uint32_t *i)
{
    for (uint32_t k = *i; k / 64 < n->free.n; k = (k / 64 + 1) * 64) {
        uint64_t w = n->free.w[k / 64] >> (k % 64);
        if (w) {
            *i = k + (uint32_t)__builtin_ctzll(w);
            return m->temps[*i];
        }
    }
    return NULL;
}

/* Temporaries the code of test t reads.  A guard does not read the
 * subject it is attached to. */
static inline void test_refs(uint64_t *w, const struct dtest *t)
{
    if (t->kind != DT_GUARD)
        set_add(w, t->s);
    set_add(w, t->prev);
    for (const struct memo_list *l = t->env; l; l = l->cdr)
        set_add(w, ((const struct vbind *)l->car)->s);
}

/* The temporaries n's own test and bindings read. */
static void own_refs(uint64_t *w, const struct dnode *n)
{
    if (n->test)
        test_refs(w, n->test);
    for (const struct memo_list *l = n->vars; l; l = l->cdr)
        set_add(w, ((const struct vbind *)l->car)->s);
}

/* The temporaries n reads (uses false) or uses (true), into the nw words
 * w: its children's, but for the one a binding binds, and its own. */
static void node_words(uint64_t *w, uint32_t nw, const struct dnode *n, bool uses)
{
    memset(w, 0, nw * sizeof *w);
    if (n->then)
        set_or(w, uses ? n->then->uses : n->then->free);
    if (n->kind == DN_BIND) /* free below the binding only */
        w[n->temp->tnum / 64] &= ~(UINT64_C(1) << (n->temp->tnum % 64));
    if (n->els)
        set_or(w, uses ? n->els->uses : n->els->free);
    own_refs(w, n);
    if (uses && n->kind == DN_USE)
        set_add(w, n->temp);
}

/* The set of the words w[0..nw): a child's equal set, else a copy. */
static struct tset set_of(struct dt *d, const struct dnode *n, bool uses,
                          const uint64_t *w, uint32_t nw)
{
    while (nw > 0 && !w[nw - 1])
        nw--;
    const struct dnode *kids[2] = {n->then, n->els};
    for (int i = 0; i < 2; i++)
        if (kids[i] && set_is(w, nw, uses ? kids[i]->uses : kids[i]->free))
            return uses ? kids[i]->uses : kids[i]->free;
    uint64_t *copy = ARENA_NEWN(d->m->a, uint64_t, nw + 1);
    memcpy(copy, w, nw * sizeof *w);
    return (struct tset){copy, nw};
}

/* One word holds every temporary of most compilations: the sets are
 * computed together and kept in the node (its children's are in theirs,
 * made before it, so also while one word did).  Inline in make_node. */
static inline __attribute__((always_inline))
void compute_free_word(struct dnode *n)
{
    uint64_t own = n->test ? n->test->refs : 0, tf = 0, tu = 0, ef = 0, eu = 0;
    for (const struct memo_list *l = n->vars; l; l = l->cdr)
        set_add(&own, ((const struct vbind *)l->car)->s);
    if (n->then) {
        tf = n->then->free_word;
        tu = n->then->uses_word;
    }
    if (n->kind == DN_BIND) { /* free below the binding only */
        tf &= ~(UINT64_C(1) << n->temp->tnum);
        tu &= ~(UINT64_C(1) << n->temp->tnum);
    }
    if (n->els) {
        ef = n->els->free_word;
        eu = n->els->uses_word;
    }
    n->free_word = tf | ef | own;
    n->uses_word = tu | eu | own;
    if (n->kind == DN_USE)
        set_add(&n->uses_word, n->temp);
    n->free = (struct tset){&n->free_word, 1};
    n->uses = (struct tset){&n->uses_word, 1};
}

/* n's sets (inline in make_node: its one-word case is a few operations;
 * the general one is out of line, in node_words and set_of). */
static inline __attribute__((always_inline))
void compute_free(struct dt *d, struct dnode *n)
{
    uint32_t nw = (d->m->n_temps + 63) / 64;
    if (nw <= 1) {
        compute_free_word(n);
        return;
    }
    if (nw > d->cap_words) {
        d->words = ARENA_NEWN(d->m->a, uint64_t, nw * 2);
        d->cap_words = nw * 2;
    }
    n->free_word = n->uses_word = 0; /* unused past one word */
    node_words(d->words, nw, n, false);
    n->free = set_of(d, n, false, d->words, nw);
    node_words(d->words, nw, n, true);
    n->uses = set_of(d, n, true, d->words, nw);
}

/* ---- tests and nodes -------------------------------------------------- */

/* The bindings of vars whose names code mentions (Emacs's fgrep). */
static struct memo_list *env_of(struct dt *d, const struct value *code,
                                struct memo_list *vars)
{
    size_t n = vars ? vars->len : 0, i = 0;
    if (!n)
        return NULL;
    struct value **names = ARENA_NEWN(d->m->a, struct value *, n);
    bool *found = ARENA_NEWN(d->m->a, bool, n);
    for (const struct memo_list *l = vars; l; l = l->cdr)
        names[i++] = ((const struct vbind *)l->car)->name->v;
    if (!pat_mentions(d->m, code, names, n, found))
        return NULL;
    struct memo_list *env = NULL;
    i = n;
    while (i-- > 0)
        if (found[i])
            env = memo_cons(d->m, memo_nth(vars, i), env);
    return env;
}

/* FUN without its `not` wrappers (the code whose variables matter). */
static const struct value *strip_not(struct dt *d, const struct value *fun)
{
    if (fun->kind != VK_CONS)
        return fun;
    if (!d->not)
        d->not = pat_sym_not(d->m);
    while (fun->kind == VK_CONS && value_car(fun) == d->not) {
        const struct value *r = value_cdr(fun);
        fun = r->kind == VK_CONS ? value_car(r) : d->m->L->nil;
    }
    return fun;
}

/* Are tests t and k the same test (they are not hash-consed: a node is,
 * and a new test is most often the test of a new node)? */
static bool same_test(const struct dtest *t, const struct dtest *k)
{
    return t == k || (t->o.h.hash == k->o.h.hash && t->kind == k->kind && t->p == k->p &&
                      t->s == k->s && t->env == k->env && t->prev == k->prev);
}

/* The test of kind on p and s with the variables vars in scope.  Inline
 * at its two callers: a call and its saved registers cost more than the
 * test it makes. */
static inline __attribute__((always_inline, returns_nonnull))
const struct dtest *make_test(struct dt *d, enum dtest_kind kind, const struct pat *p,
                              const struct subj *s, struct memo_list *vars)
{
    if (!p || !s) /* never: their hashes need no test for NULL */
        __builtin_unreachable();
    struct memo_list *env = NULL;
    const struct subj *prev = NULL;
    if (kind == DT_PRED || kind == DT_CALL) {
        const struct value *fun = strip_not(d, p->val->v);
        if (fun->kind != VK_SYMBOL)
            env = env_of(d, fun, vars);
        struct memo_key ek = {TAG_EQL, 0, {p, NULL, NULL, NULL}};
        if (d->eql.n) /* there are repeated variables */
            prev = memo_find(&d->eql, &ek, memo_key_hash(&ek));
    } else if (kind == DT_GUARD) {
        env = env_of(d, p->val->v, vars);
    }
    struct dtest *t = ARENA_NEWN(d->m->a, struct dtest, 1);
    *t = (struct dtest){.kind = kind, .p = p, .s = s, .env = env, .prev = prev};
    memo_stamp(d->m, &t->o.h, memo_obj_hash(MEMO_KIND_TEST, kind, p, s, env, prev));
    if (d->m->n_temps <= 64) /* its temporaries exist: all are in one word */
        test_refs(&t->refs, t);
    return t;
}

/* The identity of a node: kind, clause, test, then, else and a leaf's
 * vars or else the temp of a binding or a use. */
struct node_key {
    enum dnode_kind kind;
    uint32_t clause;
    const struct dtest *t;
    const struct dnode *then, *els;
    const void *w3;
};

/* make_node's test: inline in the probe (called, it needs its key in
 * memory, written at every node). */
static inline __attribute__((always_inline))
bool same_node(const void *obj, const void *arg)
{
    const struct dnode *n = obj;
    const struct node_key *k = arg;
    const void *w3 = n->kind == DN_LEAF ? (const void *)n->vars : (const void *)n->temp;
    return n->kind == k->kind && n->clause == k->clause &&
           (!n->test || !k->t ? n->test == k->t : same_test(n->test, k->t)) &&
           n->then == k->then && n->els == k->els && w3 == k->w3;
}

/* The hash-consed node of these fields.  Inline at its few callers: a
 * call and its saved registers cost more than the lookup. */
static inline __attribute__((always_inline))
const struct dnode *make_node(struct dt *d, enum dnode_kind kind, const struct dtest *t,
                              const struct dnode *then, const struct dnode *els,
                              const struct subj *temp, uint32_t clause,
                              struct memo_list *vars)
{
    const void *w3 = kind == DN_LEAF ? (const void *)vars : (const void *)temp;
    struct node_key k = {kind, clause, t, then, els, w3};
    uint32_t h = memo_obj_hash(MEMO_KIND_NODE, (uint32_t)kind | clause << 3, t, then, els, w3);
    size_t hole;
    struct dnode *n = memo_probe_obj(&d->m->unique, h, same_node, &k, &hole);
    if (n)
        return n;
    n = memo_obj_new(d->m, &d->m->unique, h, sizeof *n, &hole);
    memo_stamp(d->m, &n->o.h, h);
    n->kind = kind; /* every field written once: no zeroing first */
    n->test = t;
    n->then = then;
    n->els = els;
    n->temp = temp;
    n->clause = clause;
    n->vars = vars;
    n->mark_epoch = 0;
    n->below = kind == DN_LEAF ? (clause < 64 ? UINT64_C(1) << clause : 0)
               : (then ? then->below : 0) | (els ? els->below : 0);
    n->em = (struct dnode_emit){0, 0, 0, NULL};
    compute_free(d, n);
    memo_put_obj(&d->m->unique, h, n, hole);
    return n;
}

/* A leaf binds the variables in a canonical order (by name creation), so
 * paths that bind the same variables to the same places share it; the
 * sorted list is kept on vars (leaves of many states have the same). */
static struct memo_list *sorted_vars(struct dt *d, const struct memo_list *vars)
{
    size_t n = vars->len, i = 0;
    struct memo_obj **v = ARENA_NEWN(d->m->a, struct memo_obj *, n);
    for (const struct memo_list *l = vars; l; l = l->cdr) {
        size_t j = i++;
        const struct vbind *b = (const struct vbind *)l->car;
        while (j > 0 && ((const struct vbind *)v[j - 1])->name->o.h.id > b->name->o.h.id) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = l->car;
    }
    return memo_list_of(d->m, v, n);
}

static const struct dnode *leaf(struct dt *d, uint32_t clause, struct memo_list *vars)
{
    if (vars && !d->m->ordered_leaves) {
        if (!vars->sorted)
            vars->sorted = sorted_vars(d, vars);
        vars = vars->sorted;
    }
    return make_node(d, DN_LEAF, NULL, NULL, NULL, NULL, clause, vars);
}

/* ---- splitting the remaining branches --------------------------------- */

struct splitter {
    struct dt *d;
    const struct pat *upat;   /* the test performed */
    struct memo_list *vars;   /* in scope at the test */
};

static struct mt_split by_quote(void *arg, const struct pat *leaf_pat)
{
    struct splitter *sp = arg;
    return know_after_quote(sp->upat, leaf_pat);
}

static struct mt_split by_pred(void *arg, const struct pat *leaf_pat)
{
    struct splitter *sp = arg;
    return know_after_pred(sp->d->m, sp->upat, leaf_pat, sp->vars);
}

/* split_rest's and subst_rest's buffers: they return before any
 * recursion, so one set serves every call. */
static void scratch_fit(struct dt *d, size_t n)
{
    struct scratch *sc = &d->sc;
    if (n <= sc->cap)
        return;
    size_t cap = n * 2;
    sc->tv = ARENA_NEWN(d->m->a, struct memo_obj *, cap * 3); /* one block */
    sc->ev = sc->tv + cap;
    sc->cells = (struct memo_list **)(sc->ev + cap);
    sc->ti = ARENA_NEWN(d->m->a, size_t, cap * 2);
    sc->ei = sc->ti + cap;
    sc->cap = cap;
}

/* The kept branches v (at positions ix) as a list: those after the last
 * change (position changed_to and on) are rest's own suffix, so an
 * untouched rest costs nothing. */
static inline struct memo_list *kept(struct dt *d, struct memo_obj **v, const size_t *ix,
                              size_t nk, size_t changed_to, size_t n)
{
    struct memo_list *l = changed_to < n ? d->sc.cells[changed_to] : NULL;
    size_t k = 0;
    while (k < nk && ix[k] < changed_to)
        k++;
    while (k-- > 0)
        l = memo_cons(d->m, v[k], l);
    return l;
}

/* Split every branch of rest after a test on s; branches known to fail on
 * a side are dropped from it.  False when the depth guard tripped. */
static bool split_rest(struct dt *d, struct memo_list *rest, const struct subj *s,
                       const struct mt_splitter *sp,
                       struct memo_list **then_rest, struct memo_list **else_rest)
{
    size_t n = rest ? rest->len : 0, nt = 0, ne = 0, tc = 0, ec = 0, i = 0;
    scratch_fit(d, n + 1);
    struct scratch *sc = &d->sc;
    for (struct memo_list *l = rest; l; l = l->cdr, i++) {
        const struct branch *b = (const struct branch *)l->car;
        const struct mtree *t, *e;
        sc->cells[i] = l;
        if (!(b->match->subjects & s->bit)) /* no leaf on s: as mtree_split */
            t = e = b->match;
        else if (!mtree_split(d->m, b->match, s, sp, &t, &e))
            return false;
        if (b->match->degenerate &&
            (!(t = mtree_simplify(d->m, t)) || !(e = mtree_simplify(d->m, e))))
            return false;
        if (t != b->match)
            tc = i + 1;
        if (e != b->match)
            ec = i + 1;
        if (t->kind != MT_FAIL) {
            sc->ti[nt] = i;
            sc->tv[nt++] = t == b->match ? l->car
                         : (struct memo_obj *)mtree_branch(d->m, t, b->clause, b->vars);
        }
        if (e->kind != MT_FAIL) {
            sc->ei[ne] = i;
            sc->ev[ne++] = e == b->match ? l->car
                         : (struct memo_obj *)mtree_branch(d->m, e, b->clause, b->vars);
        }
    }
    *then_rest = kept(d, sc->tv, sc->ti, nt, tc, n);
    *else_rest = kept(d, sc->ev, sc->ei, ne, ec, n);
    return true;
}

/* ---- irrelevant backtracking branches --------------------------------- */

/* Facts about a pending list P, cached on it: can a branch (and X . P) of
 * the same clause ever run after P was tried?  Not if every way P can fail
 * also makes that branch fail by knowledge propagation, which holds when
 * each leaf of P is merged into the branch's copy of it: no `not` preds,
 * no impure test twice, no variable twice, no code mentioning a variable.
 * Where a failing test may be ignored (a "don't care" clause follows: the
 * way goes on as if it succeeded), P's tests must not repeat either: the
 * branch's copy of the first is merged as a success, and the second's
 * failure would then lead to the branch. */
struct tailinfo {
    bool ok;                  /* the leaves qualify */
    bool no_repeats;          /* and no test occurs twice */
    const struct value **var; /* variable names of P's leaves */
    size_t n_var;
};

struct walk {
    struct dt *d;
    const struct memo_obj **stack; /* pats and mtrees still to look at */
    bool *is_mt;
    size_t top, cap;
    const struct pat **tests;     /* the tests met so far */
    size_t n_tests, cap_tests;
    struct tailinfo *ti;
    size_t cap_var;
};

static void walk_push(struct walk *w, const void *o, bool mt)
{
    if (w->top == w->cap) {
        size_t ncap = w->cap * 2 + 16;
        struct arena *a = w->d->m->a;
        w->stack = arena_grow(a, w->stack, w->cap * sizeof *w->stack, ncap * sizeof *w->stack);
        w->is_mt = arena_grow(a, w->is_mt, w->cap * sizeof *w->is_mt, ncap * sizeof *w->is_mt);
        w->cap = ncap;
    }
    w->stack[w->top] = o;
    w->is_mt[w->top++] = mt;
}

static bool note_var(struct walk *w, const struct value *name)
{
    struct tailinfo *ti = w->ti;
    for (size_t i = 0; i < ti->n_var; i++)
        if (ti->var[i] == name)
            return false;
    if (ti->n_var == w->cap_var) {
        size_t ncap = w->cap_var * 2 + 8;
        ti->var = arena_grow(w->d->m->a, ti->var, w->cap_var * sizeof *ti->var,
                             ncap * sizeof *ti->var);
        w->cap_var = ncap;
    }
    ti->var[ti->n_var++] = name;
    return true;
}

/* Note test p; false if it was met before (then no_repeats is off). */
static bool note_test(struct walk *w, const struct pat *p)
{
    for (size_t i = 0; i < w->n_tests; i++)
        if (w->tests[i] == p) {
            w->ti->no_repeats = false;
            return false;
        }
    if (w->n_tests == w->cap_tests) {
        size_t ncap = w->cap_tests * 2 + 8;
        w->tests = arena_grow(w->d->m->a, w->tests, w->cap_tests * sizeof *w->tests,
                              ncap * sizeof *w->tests);
        w->cap_tests = ncap;
    }
    w->tests[w->n_tests++] = p;
    return true;
}

static bool mentions_a_name(struct dt *d, const struct value *code);
static bool dontcare_possible(struct dt *d);

/* Does leaf pattern p qualify (see struct tailinfo)?  Pushes its parts. */
static bool leaf_ok(struct walk *w, const struct pat *p)
{
    struct dt *d = w->d;
    const struct value *code = p->val ? p->val->v : NULL;
    switch (p->kind) {
    case PAT_VAR:
        return note_var(w, code);
    case PAT_PRED:
        if (strip_not(d, code) != code)
            return false;
        if (!note_test(w, p) && !pat_pure_pred(code))
            return false;
        return code->kind == VK_SYMBOL ||
               !mentions_a_name(d, code);
    case PAT_GUARD:
        return note_test(w, p) && !mentions_a_name(d, code);
    case PAT_QUOTE:
    case PAT_MEMBER:
        note_test(w, p);
        return true;
    case PAT_APP:
        walk_push(w, p->sub, false);
        return true;
    case PAT_AND:
    case PAT_OR:
        for (const struct memo_list *l = p->items; l; l = l->cdr)
            walk_push(w, l->car, false);
        return true;
    default:
        return true;
    }
}

/* Not inlined into u1: it runs once per pending list, and inlined it
 * makes the frame of every step of the recursion larger. */
__attribute__((noinline))
static struct tailinfo *tail_info(struct dt *d, struct memo_list *pending)
{
    if (pending->aux)
        return pending->aux;
    struct tailinfo *ti = ARENA_NEW(d->m->a, struct tailinfo);
    struct walk w = {d, NULL, NULL, 0, 0, NULL, 0, 0, ti, 0};
    ti->ok = ti->no_repeats = true;
    for (const struct memo_list *l = pending; l; l = l->cdr)
        walk_push(&w, l->car, true);
    while (ti->ok && w.top) {
        w.top--;
        const void *o = w.stack[w.top];
        if (!w.is_mt[w.top]) {
            ti->ok = leaf_ok(&w, o);
            continue;
        }
        const struct mtree *mt = o;
        if (mt->kind == MT_LEAF)
            ti->ok = leaf_ok(&w, mt->p);
        for (const struct memo_list *l = mt->items; l; l = l->cdr)
            walk_push(&w, l->car, true);
    }
    pending->aux = ti;
    return ti;
}

static bool is_candidate(const struct branch *b, struct memo_list *pending,
                         uint32_t clause)
{
    /* An empty (and) has no items: it is never a candidate. */
    return b->clause == clause && b->match->kind == MT_AND &&
           b->match->items && b->match->items->cdr == pending;
}

/* rest without the branches that cannot run after pending was tried. */
static struct memo_list *prune(struct dt *d, struct memo_list *pending,
                               uint32_t clause, struct memo_list *vars,
                               struct memo_list *rest)
{
    size_t n = 0, k = 0;
    if (!pending || !d->or_branches) /* the candidates are or_step's */
        return rest;
    for (const struct memo_list *l = rest; l; l = l->cdr)
        n += is_candidate((const struct branch *)l->car, pending, clause);
    if (!n)
        return rest;
    struct tailinfo *ti = tail_info(d, pending);
    if (!ti->ok || (!ti->no_repeats && dontcare_possible(d)))
        return rest;
    for (const struct memo_list *l = vars; l; l = l->cdr)
        for (size_t i = 0; i < ti->n_var; i++)
            if (ti->var[i] == ((const struct vbind *)l->car)->name->v)
                return rest; /* would be an eql test, not a binding */
    struct memo_obj **keep = ARENA_NEWN(d->m->a, struct memo_obj *, rest->len);
    for (const struct memo_list *l = rest; l; l = l->cdr)
        if (!is_candidate((const struct branch *)l->car, pending, clause))
            keep[k++] = l->car;
    return memo_list_of(d->m, keep, k);
}

/* ---- the main recursion ----------------------------------------------- */

/* What a state weighs in SIZE_BUDGET: its pending tests and bound
 * variables, which its node and the nodes made from it copy.  The
 * branches left (rest) share their tails from state to state: a pcase of
 * thousands of constant clauses is cheap however long its rests are. */
static size_t state_size(const struct memo_list *pending, const struct memo_list *vars)
{
    return 1 + (pending ? pending->len : 0) + (vars ? vars->len : 0);
}

static const struct dnode *u1(struct dt *d, struct memo_list *pending,
                              uint32_t clause, struct memo_list *vars,
                              struct memo_list *rest);

static const struct dnode *u(struct dt *d, struct memo_list *rest)
{
    if (!rest)
        return d->fail;
    const struct branch *b = (const struct branch *)rest->car;
    return u1(d, mtree_alone(d->m, b->match), b->clause,
              b->vars, rest->cdr);
}

static const struct dnode *test_step(struct dt *d, const struct subj *s,
                                     const struct pat *p, struct memo_list *more,
                                     uint32_t clause, struct memo_list *vars,
                                     struct memo_list *rest)
{
    enum dtest_kind kind = p->kind == PAT_QUOTE ? DT_QUOTE
                         : p->kind == PAT_GUARD ? DT_GUARD
                         : p->kind == PAT_MEMBER ? DT_MEMBER : DT_PRED;
    const struct dtest *t = make_test(d, kind, p, s, vars);
    struct splitter sp = {d, p, vars};
    /* by_quote and by_pred answer unknown about leaves that are not tests,
     * but through a `not' of the test; by_pred enters the depth guard
     * (know.h) */
    struct mt_splitter ms = {
        kind == DT_QUOTE ? by_quote : by_pred, &sp,
        kind == DT_QUOTE ? MT_ASK_TESTS
        : p->kind == PAT_PRED && strip_not(d, p->val->v) != p->val->v ? MT_ASK_ALL
        : MT_ASK_GUARDED};
    struct memo_list *tr, *er;
    if (!split_rest(d, rest, s, &ms, &tr, &er))
        return NULL;
    const struct dnode *then = u1(d, more, clause, vars, tr);
    const struct dnode *els = then ? u(d, er) : NULL;
    if (!els)
        return NULL;
    return make_node(d, DN_TEST, t, then, els, NULL, 0, NULL);
}

static const struct vbind *find_var(struct memo_list *vars, const struct pat_val *name)
{
    for (; vars; vars = vars->cdr)
        if (((const struct vbind *)vars->car)->name == name)
            return (const struct vbind *)vars->car;
    return NULL;
}

/* A repeated variable: (pred (eql PREV-VALUE)) on the new subject. */
static const struct pat *eql_pat(struct dt *d, const struct subj *prev)
{
    struct lisp *L = d->m->L;
    struct value *fun = lisp_listv(L, INTERN_LIT(L, "eql"), prev->expr, NULL);
    const struct pat *p = pat_pred(d->m, fun);
    struct memo_key k = {TAG_EQL, 0, {p, NULL, NULL, NULL}};
    uint32_t h = memo_key_hash(&k);
    size_t hole;
    if (!memo_lookup(&d->eql, &k, h, &hole))
        memo_add(d->m, &d->eql, &k, h, (void *)prev, hole);
    return p;
}

/* Does tree mt have a leaf on t?  Its Bloom set answers most questions
 * without the call. */
static inline bool mentions(const struct mtree *mt, const struct subj *t)
{
    return (mt->subjects & t->bit) && mtree_mentions_subj(mt, t);
}

/* Is t the subject of a binding of vars? */
static inline bool vars_use(const struct memo_list *vars, const struct subj *t)
{
    for (const struct memo_list *l = vars; l; l = l->cdr)
        if (((const struct vbind *)l->car)->s == t)
            return true;
    return false;
}

/* Is subject t still referenced by the state (so its temporary may not be
 * rebound)? */
static bool state_uses(struct memo_list *pending, struct memo_list *vars,
                       struct memo_list *rest, const struct subj *t)
{
    for (const struct memo_list *l = pending; l; l = l->cdr)
        if (mentions((const struct mtree *)l->car, t))
            return true;
    if (vars_use(vars, t))
        return true;
    for (const struct memo_list *l = rest; l; l = l->cdr) {
        const struct branch *b = (const struct branch *)l->car;
        if (mentions(b->match, t) || vars_use(b->vars, t))
            return true;
    }
    return false;
}

/* rest with every branch's (app fun P) leaves on s made P on n: the
 * branches after the last one that changes are rest's own tail (split_rest's
 * buffers serve: nothing here recurses into u1).  False when the depth
 * guard tripped. */
static bool subst_rest(struct dt *d, struct memo_list *rest, const struct subj *s,
                       const struct pat_val *fun, const struct subj *n,
                       struct memo_list **out)
{
    size_t len = rest ? rest->len : 0, i = 0, changed_to = 0;
    scratch_fit(d, len + 1);
    struct scratch *sc = &d->sc;
    for (struct memo_list *l = rest; l; l = l->cdr, i++) {
        const struct branch *b = (const struct branch *)l->car;
        const struct mtree *mt = b->match;
        if ((mt->subjects & s->bit) && /* else nothing on s: as mtree_app_subst */
            !(mt = mtree_app_subst(d->m, mt, s, fun, n)))
            return false;
        sc->cells[i] = l;
        sc->tv[i] = l->car;
        if (mt != b->match) {
            sc->tv[i] = (struct memo_obj *)mtree_branch(d->m, mt, b->clause, b->vars);
            changed_to = i + 1;
        }
    }
    struct memo_list *r = changed_to < len ? sc->cells[changed_to] : NULL;
    while (changed_to-- > 0)
        r = memo_cons(d->m, sc->tv[changed_to], r);
    *out = r;
    return true;
}

/* Not inlined into u1, as tail_info: most steps are tests. */
__attribute__((noinline))
static const struct dnode *app_step(struct dt *d, const struct subj *s,
                                    const struct pat *p, struct memo_list *more,
                                    uint32_t clause, struct memo_list *vars,
                                    struct memo_list *rest)
{
    uint32_t gen = 0, first_new = d->m->next_id;
    const struct subj *n = mtree_temp(d->m, s, p->val, gen);
    /* a subject made just now is in no tree of the state */
    while (n->o.h.id < first_new && state_uses(more, vars, rest, n))
        n = mtree_temp(d->m, s, p->val, ++gen);
    struct memo_list *new_rest;
    if (!subst_rest(d, rest, s, p->val, n, &new_rest))
        return NULL;
    const struct mtree *sub = mtree_make(d->m, n, p->sub);
    if (!sub)
        return NULL;
    const struct dnode *body = u1(d, memo_cons(d->m, (struct memo_obj *)sub, more),
                                  clause, vars, new_rest);
    if (!body || body == d->dontcare)
        return body;
    if (!dtree_uses(body, n)) /* the call is never made, but s counts as used */
        return s->temp ? make_node(d, DN_USE, NULL, body, NULL, s, 0, NULL) : body;
    const struct dtest *call = make_test(d, DT_CALL, p, s, vars);
    return make_node(d, DN_BIND, call, body, NULL, n, 0, NULL);
}

/* (and ALT . MORE), or ALT alone when nothing follows (pcase--and). */
static const struct mtree *and_more(struct dt *d, const struct mtree *alt,
                                    struct memo_list *more)
{
    if (!more)
        return alt;
    return mtree_and(d->m, memo_cons(d->m, (struct memo_obj *)alt, more));
}

/* memq for symbols only, memql once an integer occurs, member once
 * anything else occurs (pcase.md 3.6). */
static struct value *mem_fun(struct lisp *L, struct memo_obj *const *simples, size_t n)
{
    const char *fn = "memq";
    for (size_t i = 0; i < n; i++) {
        const struct value *c = ((const struct mtree *)simples[i])->p->val->v;
        if (value_integerp(c)) {
            if (!strcmp(fn, "memq"))
                fn = "memql";
        } else if (c->kind != VK_SYMBOL) {
            fn = "member";
        }
    }
    return intern_cstr(L, fn);
}

static const struct dnode *or_step(struct dt *d, const struct mtree *mt,
                                   struct memo_list *more, uint32_t clause,
                                   struct memo_list *vars, struct memo_list *rest)
{
    struct memo_list *alts = mt->items;
    const struct mtree *first = (const struct mtree *)alts->car;
    size_t n = alts->len, ns = 0, no = 0;
    struct memo_obj **simples = ARENA_NEWN(d->m->a, struct memo_obj *, n);
    struct memo_obj **others = ARENA_NEWN(d->m->a, struct memo_obj *, n);
    for (const struct memo_list *l = alts; l; l = l->cdr) {
        const struct mtree *a = (const struct mtree *)l->car;
        if (first->kind == MT_LEAF && a->kind == MT_LEAF && a->s == first->s &&
            a->p->kind == PAT_QUOTE)
            simples[ns++] = l->car;
        else
            others[no++] = l->car;
    }
    struct memo_list *tail;
    const struct mtree *now;
    if (ns > 1) {
        struct lisp *L = d->m->L;
        struct value *set = L->nil; /* reversed, as Emacs pushes them */
        for (size_t i = 0; i < ns; i++)
            set = value_cons(L->a, ((const struct mtree *)simples[i])->p->val->v, set);
        now = mtree_make(d->m, first->s, pat_member(d->m, mem_fun(L, simples, ns), set));
        tail = no ? memo_list_of(d->m, others, no) : NULL;
    } else {
        now = first;
        tail = alts->cdr;
    }
    if (tail) {
        const struct mtree *alt = tail->cdr ? mtree_or(d->m, tail)
                                            : (const struct mtree *)tail->car;
        const struct branch *b = mtree_branch(d->m, and_more(d, alt, more), clause, vars);
        rest = memo_cons(d->m, (struct memo_obj *)b, rest);
        d->or_branches = true;
    }
    return u1(d, memo_cons(d->m, (struct memo_obj *)now, more), clause, vars, rest);
}

/* One leaf of the pending list: a dispatch switch over pattern kinds. */
static const struct dnode *step(struct dt *d, struct memo_list *pending,
                                uint32_t clause, struct memo_list *vars,
                                struct memo_list *rest)
{
    for (;;) {
        if (!pending)
            return leaf(d, clause, vars);
        const struct mtree *mt = (const struct mtree *)pending->car;
        struct memo_list *more = pending->cdr;
        switch (mt->kind) {
        case MT_FAIL:
            return u(d, rest);
        case MT_SUCCEED:
            pending = more;
            continue;
        case MT_AND:
            pending = memo_append(d->m, mt->items, more);
            continue;
        case MT_OR:
            if (!mt->items || !mt->items->cdr) { /* "Please avoid it" */
                d->m->bad = mt->p;
                d->m->failed = true;
                return NULL;
            }
            return or_step(d, mt, more, clause, vars, rest);
        case MT_LEAF:
            break;
        }
        const struct pat *p = mt->p;
        switch (p->kind) {
        case PAT_ANY:
            pending = more;
            continue;
        case PAT_DONTCARE:
            if (!d->dontcare)
                d->dontcare = make_node(d, DN_DONTCARE, NULL, NULL, NULL, NULL, 0, NULL);
            return d->dontcare;
        case PAT_BAD: /* Emacs signals only when it gets here */
            d->m->bad = p;
            d->m->failed = true;
            return NULL;
        case PAT_VAR: {
            const struct vbind *prev = find_var(vars, p->val);
            if (!prev)
                vars = memo_cons(d->m, (struct memo_obj *)mtree_vbind(d->m, p->val, mt->s), vars);
            else
                more = memo_cons(d->m, (struct memo_obj *)mtree_make(d->m, mt->s, eql_pat(d, prev->s)), more);
            pending = more;
            continue;
        }
        case PAT_APP:
            return app_step(d, mt->s, p, more, clause, vars, rest);
        case PAT_AND:
        case PAT_OR: /* hoisted by mtree_make; kept for completeness */
            pending = memo_cons(d->m, (struct memo_obj *)mtree_make(d->m, mt->s, p), more);
            continue;
        default:
            return test_step(d, mt->s, p, more, clause, vars, rest);
        }
    }
}

/* A state of u1, the computed cache's entry: recorded when first reached,
 * its node set once built (NULL while it is being built).  Kept in
 * m->unique as an own-key object of its kind, so that no table of its own
 * is made and grown per compilation. */
struct state {
    struct memo_list *pending, *vars, *rest;
    uint32_t clause;
    const struct dnode *node;
};

static bool same_state(const void *obj, const void *arg)
{
    const struct state *s = obj, *k = arg;
    return s->pending == k->pending && s->vars == k->vars && s->rest == k->rest &&
           s->clause == k->clause;
}

/* The state of these fields as recorded (now if it is new): one probe
 * serves the cache's question and the recording of the state. */
static inline struct state *state_of(struct dt *d, struct memo_list *pending,
                                     struct memo_list *vars, struct memo_list *rest,
                                     uint32_t clause)
{
    struct memo_ctx *m = d->m;
    struct state k = {pending, vars, rest, clause, NULL};
    uint32_t h = memo_obj_hash(MEMO_KIND_STATE, clause, pending, vars, rest, NULL);
    size_t hole;
    struct state *st = memo_probe_obj(&m->unique, h, same_state, &k, &hole);
    if (!st) {
        st = memo_obj_new(m, &m->unique, h, sizeof *st, &hole);
        st->pending = pending; /* each field written once, from registers */
        st->vars = vars;
        st->rest = rest;
        st->clause = clause;
        st->node = NULL;
        memo_put_obj(&m->unique, h, st, hole);
    }
    return st;
}

static const struct dnode *u1(struct dt *d, struct memo_list *pending,
                              uint32_t clause, struct memo_list *vars,
                              struct memo_list *rest)
{
    struct memo_ctx *m = d->m;
    if (m->too_deep || m->failed)
        return NULL;
    rest = prune(d, pending, clause, vars, rest);
    struct state *st = state_of(d, pending, vars, rest, clause);
    if (m->use_cache) {
        if (st->node) {
            m->hits++;
            return st->node;
        }
        m->misses++;
    }
    if (m->states >= STATE_BUDGET || d->size >= SIZE_BUDGET || !memo_enter(m)) {
        m->too_deep = true;
        return NULL;
    }
    const struct dnode *r = step(d, pending, clause, vars, rest);
    memo_leave(m);
    if (r && !st->node) { /* distinct states only: the same with memo off */
        st->node = r;
        m->states++;
        d->size += state_size(pending, vars);
    }
    return r;
}

/* ---- entry ------------------------------------------------------------ */

/* The node of no clause matching, made once per context: no other node
 * has its identity, so it is kept there instead of in the unique table. */
static const struct dnode *fail_node(struct dt *d)
{
    struct memo_ctx *m = d->m;
    if (!m->no_match) {
        struct dnode *n = ARENA_NEW(m->a, struct dnode); /* reads nothing */
        n->kind = DN_FAIL;
        n->below = 0;
        n->free = (struct tset){&n->free_word, 0};
        n->uses = (struct tset){&n->uses_word, 0};
        memo_stamp(m, &n->o.h, memo_obj_hash(MEMO_KIND_NODE, DN_FAIL, NULL, NULL, NULL, NULL));
        m->no_match = n;
    }
    return m->no_match;
}

/* Every variable name of the clauses, for the mention checks of prune
 * (collected when one is first made: few compilations make any). */

/* Add the variable name sym, unless it is there already. */
static void add_name(struct dt *d, struct value *sym, size_t *cap)
{
    for (size_t i = 0; i < d->n_names; i++)
        if (d->names[i] == sym)
            return;
    if (d->n_names == *cap) {
        size_t c2 = *cap * 2 + 8;
        d->names = arena_grow(d->m->a, d->names, *cap * sizeof *d->names, c2 * sizeof *d->names);
        *cap = c2;
    }
    d->names[d->n_names++] = sym;
}

static void collect_names(struct dt *d, const struct pat *const *pats, size_t n)
{
    size_t cap = 16, top = 0;
    const struct pat **st = ARENA_NEWN(d->m->a, const struct pat *, cap);
    size_t ncap = 0;
    for (size_t i = 0; i < n; i++) {
        st[top++] = pats[i];
        while (top) {
            const struct pat *p = st[--top];
            if (p->kind == PAT_VAR) /* a symbol */
                add_name(d, p->val->v, &ncap);
            d->has_dontcare |= p->kind == PAT_DONTCARE;
            size_t need = top + (p->items ? p->items->len : 0) + 1;
            if (need > cap) {
                st = arena_grow(d->m->a, st, cap * sizeof *st, need * 2 * sizeof *st);
                cap = need * 2;
            }
            if (p->sub)
                st[top++] = p->sub;
            for (const struct memo_list *l = p->items; l; l = l->cdr)
                st[top++] = (const struct pat *)l->car;
        }
    }
}

/* The clauses' names and whether one has a "don't care" pattern. */
static void scan_clauses(struct dt *d)
{
    if (!d->have_names) {
        collect_names(d, d->pats, d->n_pats);
        d->have_names = true;
    }
}

/* May a failing test be ignored (a "don't care" clause follows)? */
static bool dontcare_possible(struct dt *d)
{
    scan_clauses(d);
    return d->has_dontcare;
}

/* Does code mention a variable name of the clauses? */
static bool mentions_a_name(struct dt *d, const struct value *code)
{
    scan_clauses(d);
    return pat_mentions(d->m, code, d->names, d->n_names, NULL) > 0;
}

const struct dnode *dtree_build(struct memo_ctx *m, const struct subj *root,
                                const struct pat *const *pats, size_t n)
{
    struct dt d;
    memset(&d, 0, sizeof d);
    d.m = m;
    d.fail = fail_node(&d);
    if (n >= (size_t)m->max_depth) { /* each clause may need a level */
        m->too_deep = true;
        return NULL;
    }
    d.pats = pats;
    d.n_pats = n;
    struct memo_obj **bs = ARENA_NEWN(m->a, struct memo_obj *, n + 1);
    for (size_t i = 0; i < n; i++) {
        const struct mtree *mt = mtree_make(m, root, pats[i]);
        if (!mt)
            return NULL;
        bs[i] = (struct memo_obj *)mtree_branch(m, mt, (uint32_t)i, NULL);
    }
    const struct dnode *r = u(&d, memo_list_of(m, bs, n));
    if (d.size >= SIZE_BUDGET) /* crossed by the last states: as in every mode */
        m->too_deep = true;
    return m->too_deep || m->failed ? NULL : r;
}

/* ---- traversal -------------------------------------------------------- */

const struct dnode **dtree_visit(struct memo_ctx *m, const struct dnode *root,
                                 size_t *n)
{
    return dtree_visit_order(m, root, n, false);
}

const struct dnode **dtree_visit_order(struct memo_ctx *m, const struct dnode *root,
                                       size_t *n, bool else_first)
{
    uint32_t epoch = memo_epoch(m);
    size_t cap = 64, top = 0, cap_out = 64;
    const struct dnode **st = ARENA_NEWN(m->a, const struct dnode *, cap);
    const struct dnode **out = ARENA_NEWN(m->a, const struct dnode *, cap_out);
    *n = 0;
    st[top++] = root;
    while (top) {
        struct dnode *x = (struct dnode *)st[--top]; /* marks only */
        if (x->mark_epoch == epoch)
            continue;
        x->mark_epoch = epoch;
        if (*n == cap_out) {
            out = arena_grow(m->a, out, cap_out * sizeof *out, cap_out * 2 * sizeof *out);
            cap_out *= 2;
        }
        out[(*n)++] = x;
        if (top + 2 > cap) {
            st = arena_grow(m->a, st, cap * sizeof *st, cap * 2 * sizeof *st);
            cap *= 2;
        }
        const struct dnode *second = else_first ? x->then : x->els;
        const struct dnode *first = else_first ? x->els : x->then;
        if (second)
            st[top++] = second;
        if (first)
            st[top++] = first;
    }
    return out;
}
