/* emit.c - decision DAG -> Lisp (see emit.h).
 *
 * Order: small list helpers, node bookkeeping (in-degrees, sharing),
 * test and call forms, leaves and shared bodies, nodes (test chains become
 * one `cond`, bind chains one `let*`), shared continuations, emit_form.
 */
#include "match/emit.h"

#include <stddef.h>
#include <string.h>

/* Code smaller than this is copied to each place that reaches it rather
 * than made a shared lambda (a funcall is not much smaller). */
#define SHARE_MIN_COST 12

struct cinfo {
    uint64_t *in_union;  /* bit i: vars[i] bound on some path to the clause
                            (made at the clause's first leaf) */
    uint64_t word;       /* in_union's bits for up to 64 variables */
    struct value *fn;    /* shared body lambda variable, once made */
    struct value *body;  /* expanded body forms, once made */
    uint32_t body_size;  /* size_of(body, SHARE_MIN_COST) + 1, 0 = not yet
                            measured */
    uint32_t *order;     /* EMIT_SETQ: the indexes of vars in the order of
                            assignment (setq_orders), NULL for vars' own */
};

/* Symbols the emitted code is made of, each looked up once per pass. */
enum known {
    K_IF,
    K_COND,
    K_LET,
    K_LET_STAR,
    K_FUNCALL,
    K_IGNORE,
    K_SETQ,
    K_EQ,
    K_EQL,
    K_EQUAL,
    K_NULL,
    K_UNDERSCORE,
    K_CLOSURE,
    N_KNOWN
};

static const char *const known_names[N_KNOWN] = {
    [K_IF] = "if",
    [K_COND] = "cond",
    [K_LET] = "let",
    [K_LET_STAR] = "let*",
    [K_FUNCALL] = "funcall",
    [K_IGNORE] = "ignore",
    [K_SETQ] = "setq",
    [K_EQ] = "eq",
    [K_EQL] = "eql",
    [K_EQUAL] = "equal",
    [K_NULL] = "null",
    [K_UNDERSCORE] = "_",
    [K_CLOSURE] = "closure",
};

struct leaf_mark;

struct em {
    struct memo_ctx *m;
    struct lisp *L;
    const struct subj *rsubj;
    const struct emit_clause *cl;
    size_t n_clauses;
    struct cinfo *ci;
    struct emit_info *info;
    uint32_t epoch;           /* this pass: the bookkeeping kept on nodes */
    struct value *defs;       /* (VAR LAMBDA) bindings, newest first */
    bool raw;                 /* leave user code unexpanded (dumps) */
    struct value *progn;      /* asked for at every form a body is made of */
    struct value *known[N_KNOWN]; /* known(): NULL until first asked for */
    struct value **items;     /* the item stack (see items_list) */
    size_t n_items, cap_items;
    struct leaf_mark *marks;  /* atom leaves awaiting their cell (clause marks) */
    size_t n_marks, cap_marks;
};

/* The item stack's first slots, on the C stack: most passes need no more. */
#define ITEMS_LOCAL 64

/* ---- list helpers ----------------------------------------------------- */

/* The symbol named by a string literal. */
#define sym(e, name) INTERN_LIT((e)->L, name)

static inline struct value *known(struct em *e, enum known k)
{
    if (!e->known[k])
        e->known[k] = intern_lit(e->L, known_names[k]); /* literals: stable addresses */
    return e->known[k];
}

/* A list cell takes 24 bytes, as the reader packs them: a list of known
 * length is one block of consecutive cells (one bump of the arena instead
 * of one per cell, and a quarter less memory than cells rounded to the
 * arena's alignment). */
#define CELL (offsetof(struct value, u) + sizeof(struct value_cons))

/* The words before a cons's car and cdr, written as one block. */
static const struct value cons_head = {.kind = VK_CONS, .origin = 0};

static inline struct value *cell(char *block, size_t i, struct value *a,
                                 struct value *d)
{
    struct value *c = (struct value *)(block + i * CELL);
    memcpy(c, &cons_head, offsetof(struct value, u));
    c->u.cons.car = a;
    c->u.cons.cdr = d;
    return c;
}

static inline struct value *cons(struct em *e, struct value *a, struct value *d)
{
    return cell(arena_alloc(e->L->a, CELL), 0, a, d);
}

/* (a b . d) */
static inline struct value *cons2(struct em *e, struct value *a, struct value *b,
                                  struct value *d)
{
    char *block = arena_alloc(e->L->a, 2 * CELL);
    cell(block, 1, b, d);
    return cell(block, 0, a, (struct value *)(block + CELL));
}

/* (a b c . d) */
static inline struct value *cons3(struct em *e, struct value *a, struct value *b,
                                  struct value *c, struct value *d)
{
    char *block = arena_alloc(e->L->a, 3 * CELL);
    cell(block, 2, c, d);
    cell(block, 1, b, (struct value *)(block + 2 * CELL));
    return cell(block, 0, a, (struct value *)(block + CELL));
}

static inline struct value *list2(struct em *e, struct value *a, struct value *b)
{
    return cons2(e, a, b, e->L->nil);
}

static inline struct value *list3(struct em *e, struct value *a, struct value *b,
                                  struct value *c)
{
    return cons3(e, a, b, c, e->L->nil);
}

/* Lists of unknown length: their elements are pushed on the item stack
 * and become one block of cells when complete (items_list).  A list made
 * while another is gathered gathers above it: mark = e->n_items first. */
static void grow_items(struct em *e)
{
    size_t cap = e->cap_items * 2;
    struct value **items = ARENA_NEWN(e->m->a, struct value *, cap);
    memcpy(items, e->items, e->n_items * sizeof *items);
    e->items = items;
    e->cap_items = cap;
}

static inline void push(struct em *e, struct value *v)
{
    if (e->n_items == e->cap_items)
        grow_items(e);
    e->items[e->n_items++] = v;
}

/* The items pushed since mark, popped, as a list ending in tail. */
static inline struct value *items_list(struct em *e, size_t mark, struct value *tail)
{
    size_t n = e->n_items - mark;
    if (!n)
        return tail;
    char *block = arena_alloc(e->L->a, n * CELL);
    struct value *const *it = e->items + mark;
    for (size_t i = 0; i + 1 < n; i++)
        cell(block, i, it[i], (struct value *)(block + (i + 1) * CELL));
    cell(block, n - 1, it[n - 1], tail);
    e->n_items = mark;
    return (struct value *)block;
}

/* The forms of a non-empty progn (spliced into a body), else NULL. */
static inline struct value *spliced(struct em *e, struct value *form)
{
    if (form->kind == VK_CONS && value_car(form) == e->progn &&
        value_cdr(form)->kind == VK_CONS)
        return value_cdr(form);
    return NULL;
}

/* The forms a form stands for in a body. */
static struct value *as_forms(struct em *e, struct value *form)
{
    struct value *forms = spliced(e, form);
    return forms ? forms : cons(e, form, e->L->nil);
}

/* One form for a list of forms. */
static struct value *as_form(struct em *e, struct value *forms)
{
    if (forms->kind != VK_CONS)
        return e->L->nil;
    if (value_cdr(forms) == e->L->nil)
        return value_car(forms);
    return cons(e, e->progn, forms);
}

/* as_form of as_forms of form, without making the list. */
static struct value *single(struct em *e, struct value *form)
{
    if (!form)
        return NULL;
    struct value *forms = spliced(e, form);
    return forms && value_cdr(forms) == e->L->nil ? value_car(forms) : form;
}

/* a followed by b (a copied). */
static struct value *append_list(struct em *e, struct value *a, struct value *b)
{
    size_t mark = e->n_items;
    for (; a->kind == VK_CONS; a = value_cdr(a))
        push(e, value_car(a));
    return items_list(e, mark, b);
}

static struct value *quoted(struct em *e, struct value *v)
{
    return list2(e, e->L->quote, v);
}

/* ---- node bookkeeping ------------------------------------------------- */

/* The emitter's bookkeeping for n, kept on the node: survey reset it on
 * every node the pass reaches. */
static inline struct dnode_emit *ninfo(const struct dnode *n)
{
    return &((struct dnode *)n)->em; /* not part of identity */
}

/* Was vars[i] of clause c bound on some path to it? */
static inline bool in_union(const struct em *e, uint32_t c, size_t i)
{
    return e->ci[c].in_union[i / 64] >> (i % 64) & 1;
}

/* Kinds that are code of their own (leaves are shared by body lambdas). */
static bool inner_kind(const struct dnode *n)
{
    return n->kind == DN_TEST || n->kind == DN_BIND || n->kind == DN_USE;
}

/* Conses in v, counted up to limit. */
static uint32_t size_of(const struct value *v, uint32_t limit)
{
    uint32_t n = 0;
    const struct value *st[32];
    size_t top = 0;
    st[top++] = v;
    while (top && n < limit) {
        const struct value *x = st[--top];
        if (x->kind != VK_CONS)
            continue;
        n++;
        if (top + 2 <= 32) {
            st[top++] = value_cdr(x);
            st[top++] = value_car(x);
        }
    }
    return n;
}

/* Costs only decide whether a node reaches SHARE_MIN_COST, and adding
 * up costs capped there decides it the same: measuring stops at it. */
static uint32_t capped(uint32_t k)
{
    return k < SHARE_MIN_COST ? k : SHARE_MIN_COST;
}

/* size_of a clause's body, measured once (every leaf of the clause asks). */
static uint32_t body_size(struct em *e, uint32_t clause)
{
    struct cinfo *ci = &e->ci[clause];
    if (!ci->body_size)
        ci->body_size = size_of(e->cl[clause].body, SHARE_MIN_COST) + 1;
    return ci->body_size - 1;
}

static uint32_t node_cost(struct em *e, const struct dnode *n);

/* Is n emitted once as a lambda: code of its own, reached from two places
 * or more, and not small?  Only then is its size measured (and the sizes
 * below it that it adds up). */
static bool shared(struct em *e, const struct dnode *n)
{
    return inner_kind(n) && ninfo(n)->indeg >= 2 && node_cost(e, n) >= SHARE_MIN_COST;
}

/* What a reference to child costs in its parent's code. */
static uint32_t child_cost(struct em *e, const struct dnode *c)
{
    return shared(e, c) ? capped(2 + dtree_free_count(c)) : node_cost(e, c);
}

/* Size estimate of n's inline code (capped), measured once. */
static uint32_t node_cost(struct em *e, const struct dnode *n)
{
    struct dnode_emit *ni = ninfo(n);
    if (ni->cost)
        return ni->cost;
    uint32_t k = 1;
    if (n->kind == DN_LEAF) {
        k = capped(1 + 2 * (n->vars ? n->vars->len : 0) +
                   (e->info[n->clause].shared ? 1 : body_size(e, n->clause)));
    } else if (inner_kind(n) && memo_enter(e->m)) {
        k = capped((n->kind == DN_USE ? 0 : 4) + child_cost(e, n->then) +
                   (n->els ? child_cost(e, n->els) : 0));
        memo_leave(e->m);
    }
    ni->cost = k ? k : 1;
    return k;
}

/* Emacs's pcase--small-branch-p: one form, an atom or a list of atoms. */
static bool small_body(struct em *e, struct value *body)
{
    if (body->kind != VK_CONS || value_cdr(body) != e->L->nil)
        return false;
    struct value *f = value_car(body);
    for (; f->kind == VK_CONS; f = value_cdr(f))
        if (value_car(f)->kind == VK_CONS)
            return false;
    return f == e->L->nil || value_car(body)->kind != VK_CONS;
}

/* The DFS stack's first slots, on the C stack: most DAGs need no more. */
#define WALK_LOCAL 64

/* A leaf reached for the first time: its clause has one leaf and one
 * site more, and the variables it binds are bound on some path to it. */
static void first_leaf(struct em *e, const struct dnode *x)
{
    if (x->clause >= e->n_clauses)
        return;
    const struct emit_clause *c = &e->cl[x->clause];
    struct cinfo *ci = &e->ci[x->clause];
    e->info[x->clause].sites++;
    e->info[x->clause].leaves++;
    if (!c->n_vars)
        return;
    if (!ci->in_union)
        ci->in_union = c->n_vars <= 64 ? &ci->word
                     : arena_zalloc(e->m->a, (c->n_vars + 63) / 64 * sizeof(uint64_t));
    for (const struct memo_list *l = x->vars; l; l = l->cdr)
        for (size_t j = 0; j < c->n_vars; j++)
            if (c->vars[j] == ((const struct vbind *)l->car)->name->v)
                ci->in_union[j / 64] |= (uint64_t)1 << (j % 64);
}

/* Reach node k from a parent: the first time (its bookkeeping is from
 * another pass) resets it and pushes k on st (top is returned); later
 * times count one in-degree more, and one site more for a leaf's clause. */
static inline size_t reach(struct em *e, uint32_t epoch, const struct dnode *k,
                           const struct dnode **st, size_t top)
{
    struct dnode_emit *ki = ninfo(k);
    if (ki->epoch != epoch) {
        *ki = (struct dnode_emit){epoch, 1, 0, NULL};
        st[top++] = k;
        return top;
    }
    ki->indeg++;
    if (k->kind == DN_LEAF && k->clause < e->n_clauses)
        e->info[k->clause].sites++;
    return top;
}

/* Walk the DAG from root, each node once, counting in-degrees and, per
 * clause, leaves, sites and bound variables. */
static void survey(struct em *e, const struct dnode *root)
{
    const uint32_t epoch = e->epoch;
    const struct dnode *local[WALK_LOCAL], **st = local;
    size_t cap = WALK_LOCAL, top = 0;
    *ninfo(root) = (struct dnode_emit){epoch, 1, 0, NULL};
    st[top++] = root;
    while (top) {
        const struct dnode *x = st[--top];
        if (top + 2 > cap) {
            const struct dnode **bigger = ARENA_NEWN(e->m->a, const struct dnode *, 2 * cap);
            memcpy(bigger, st, top * sizeof *st);
            st = bigger;
            cap *= 2;
        }
        switch (x->kind) {
        case DN_LEAF:
            first_leaf(e, x);
            break;
        case DN_TEST:
            top = reach(e, epoch, x->els, st, top);
            /* fall through */
        case DN_BIND:
        case DN_USE:
            top = reach(e, epoch, x->then, st, top);
            break;
        default:
            break;
        }
    }
    for (size_t i = 0; i < e->n_clauses; i++)
        e->info[i].shared = e->cl[i].kind == EMIT_BODY && e->info[i].sites >= 2 &&
                            !small_body(e, e->cl[i].body);
}

/* ---- tests and calls -------------------------------------------------- */

static struct value *user_code(struct em *e, struct value *form)
{
    if (e->raw)
        return form;
    struct value *v = e->m->hooks.code(e->m->hooks.ctx, form);
    if (!v)
        e->m->failed = true;
    return v;
}

/* (let* ((VAR VALUE)...) CODE) for the pattern variables code mentions;
 * pre: an extra binding to put first (or NULL). */
static struct value *with_env(struct em *e, struct memo_list *env,
                              struct value *pre, struct value *code)
{
    if (!env && !pre)
        return code;
    size_t mark = e->n_items;
    if (pre)
        push(e, pre);
    for (const struct memo_list *l = env; l; l = l->cdr) {
        const struct vbind *vb = (const struct vbind *)l->car;
        push(e, list2(e, vb->name->v, vb->s->expr));
    }
    return list3(e, known(e, K_LET_STAR), items_list(e, mark, e->L->nil), code);
}

static bool lambda_form(struct em *e, const struct value *fun)
{
    return fun->kind == VK_CONS &&
           (value_car(fun) == e->L->lambda || value_car(fun) == known(e, K_CLOSURE));
}

/* (F A... ARG), or with every top-level `_` argument replaced by ARG
 * (Emacs 30's placeholder). */
static struct value *call_with(struct em *e, struct value *fun, struct value *arg)
{
    struct value *us = known(e, K_UNDERSCORE);
    bool placeholder = false;
    for (struct value *l = value_cdr(fun); l->kind == VK_CONS; l = value_cdr(l))
        placeholder |= value_car(l) == us;
    size_t mark = e->n_items;
    push(e, value_car(fun));
    struct value *l = value_cdr(fun);
    for (; l->kind == VK_CONS; l = value_cdr(l))
        push(e, placeholder && value_car(l) == us ? arg : value_car(l));
    if (!placeholder)
        push(e, arg);
    return items_list(e, mark, e->L->nil);
}

/* BODY when code is (lambda (_) BODY) and BODY does not mention `_` (the
 * lambda of a `let` pattern): calling it just evaluates BODY. */
static struct value *ignoring_lambda_body(struct em *e, struct value *code)
{
    struct value *us = known(e, K_UNDERSCORE);
    if (code->kind != VK_CONS || value_car(code) != e->L->lambda)
        return NULL;
    struct value *r = value_cdr(code);
    if (r->kind != VK_CONS || value_cdr(r)->kind != VK_CONS ||
        value_cdr(value_cdr(r)) != e->L->nil)
        return NULL;
    struct value *args = value_car(r), *body = value_car(value_cdr(r));
    if (args->kind != VK_CONS || value_car(args) != us || value_cdr(args) != e->L->nil)
        return NULL;
    return pat_mentions(e->m, body, &us, 1, NULL) ? NULL : body;
}

/* Emacs's pcase--funcall: the call of FUN on the subject expression.
 * safe: evaluating arg cannot fail (a temporary or a constant), so a call
 * that ignores its argument may skip it. */
static struct value *fun_call(struct em *e, struct value *fun, struct value *arg,
                              struct memo_list *env, bool safe)
{
    if (fun->kind == VK_SYMBOL)
        return list2(e, fun, arg);
    if (fun->kind == VK_CONS && value_car(fun) == pat_sym_not(e->m)) {
        struct value *r = value_cdr(fun);
        struct value *in = fun_call(e, r->kind == VK_CONS ? value_car(r) : e->L->nil,
                                    arg, env, safe);
        return in ? list2(e, pat_sym_not(e->m), in) : NULL;
    }
    struct value *code = user_code(e, fun);
    if (!code)
        return NULL;
    struct value *pre = NULL;
    for (const struct memo_list *l = env; l && arg->kind == VK_SYMBOL; l = l->cdr)
        if (((const struct vbind *)l->car)->name->v == arg) {
            struct value *fresh = e->m->hooks.gensym(e->m->hooks.ctx, "x");
            pre = list2(e, fresh, arg);
            arg = fresh;
            break;
        }
    struct value *call;
    if (safe && (call = ignoring_lambda_body(e, code)))
        ;
    else if (lambda_form(e, code) || code->kind != VK_CONS)
        call = list3(e, known(e, K_FUNCALL), list2(e, e->L->function, code), arg);
    else
        call = call_with(e, code, arg);
    return with_env(e, env, pre, call);
}

/* Emacs's pcase--eval for a guard. */
static struct value *guard_form(struct em *e, const struct dtest *t)
{
    struct value *expr = t->p->val->v;
    if (expr->kind == VK_SYMBOL && t->env && !t->env->cdr &&
        ((const struct vbind *)t->env->car)->name->v == expr)
        return ((const struct vbind *)t->env->car)->s->expr;
    struct value *code = user_code(e, expr);
    return code ? with_env(e, t->env, NULL, code) : NULL;
}

/* The equality test of pcase.md 2.4. */
static struct value *quote_form(struct em *e, struct value *s, struct value *c)
{
    if (c == e->L->nil)
        return list2(e, known(e, K_NULL), s);
    if (value_integerp(c))
        return list3(e, known(e, K_EQL), s, c);
    if (c->kind == VK_SYMBOL) {
        bool self = c == e->L->t || (c->u.sym.interned && c->u.sym.name[0] == ':');
        return list3(e, known(e, K_EQ), s, self ? c : quoted(e, c));
    }
    bool self = c->kind == VK_STRING || c->kind == VK_FLOAT;
    return list3(e, known(e, K_EQUAL), s, self ? c : quoted(e, c));
}

/* The tests test_form does not make itself. */
__attribute__((noinline)) static struct value *other_test_form(struct em *e,
                                                               const struct dtest *t)
{
    struct value *s = t->s->expr;
    switch (t->kind) {
    case DT_MEMBER:
        return list3(e, t->p->memfn, s, quoted(e, t->p->val->v));
    case DT_GUARD:
        return guard_form(e, t);
    case DT_PRED:
        if (t->prev)
            return list3(e, known(e, K_EQL), t->prev->expr, s);
        /* fall through */
    case DT_CALL:
    default:
        return fun_call(e, t->p->val->v, s, t->env,
                        t->s->temp || s->kind != VK_SYMBOL);
    }
}

/* The form of a test or app call.  Inline for the two kinds most tests
 * are: an equality, and a call of a named function (fun_call's first
 * case). */
static inline struct value *test_form(struct em *e, const struct dtest *t)
{
    struct value *s = t->s->expr, *v = t->p->val->v;
    if (t->kind == DT_QUOTE)
        return quote_form(e, s, v);
    if ((t->kind == DT_CALL || (t->kind == DT_PRED && !t->prev)) && v->kind == VK_SYMBOL)
        return list2(e, v, s);
    return other_test_form(e, t);
}

/* ---- leaves ----------------------------------------------------------- */

static bool nil_body(struct em *e, struct value *body)
{
    if (body == e->L->nil)
        return true;
    if (body->kind != VK_CONS || value_cdr(body) != e->L->nil)
        return false;
    struct value *f = value_car(body);
    return f == e->L->nil ||
           (f->kind == VK_CONS && value_car(f) == e->L->quote &&
            value_cdr(f)->kind == VK_CONS && value_car(value_cdr(f)) == e->L->nil &&
            value_cdr(value_cdr(f)) == e->L->nil);
}

/* The clause's body forms (user code expanded), made once.  A generated
 * body of one form that is a progn is spliced. */
static struct value *clause_body(struct em *e, uint32_t c)
{
    struct cinfo *ci = &e->ci[c];
    if (ci->body)
        return ci->body;
    const struct emit_clause *cl = &e->cl[c];
    struct value *l = cl->body;
    if (l->kind == VK_CONS && value_cdr(l) == e->L->nil) { /* most bodies */
        struct value *f = cl->user ? user_code(e, value_car(l)) : value_car(l);
        if (!f)
            return NULL;
        return ci->body = cl->user ? cons(e, f, e->L->nil) : as_forms(e, f);
    }
    size_t mark = e->n_items;
    for (; l->kind == VK_CONS; l = value_cdr(l)) {
        struct value *f = cl->user ? user_code(e, value_car(l)) : value_car(l);
        if (!f)
            return NULL;
        push(e, f);
    }
    return ci->body = items_list(e, mark, e->L->nil);
}

/* (ignore USED...) for the variables the pattern read, if any. */
static struct value *ignores(struct em *e, uint32_t c)
{
    const struct emit_clause *cl = &e->cl[c];
    size_t i = 0;
    while (i < cl->n_vars && !(cl->used && cl->used[i] && in_union(e, c, i)))
        i++;
    if (i == cl->n_vars)
        return NULL;
    size_t mark = e->n_items;
    push(e, known(e, K_IGNORE));
    for (; i < cl->n_vars; i++)
        if (cl->used[i] && in_union(e, c, i))
            push(e, cl->vars[i]);
    return items_list(e, mark, e->L->nil);
}

/* The value expression of variable name on this leaf, or nil. */
static struct value *value_of(struct em *e, const struct dnode *n, struct value *name)
{
    for (const struct memo_list *l = n->vars; l; l = l->cdr)
        if (((const struct vbind *)l->car)->name->v == name)
            return ((const struct vbind *)l->car)->s->expr;
    return e->L->nil;
}

static struct value *shared_body(struct em *e, uint32_t c)
{
    struct cinfo *ci = &e->ci[c];
    if (ci->fn)
        return ci->fn;
    struct value *body = clause_body(e, c);
    if (!body)
        return NULL;
    size_t mark = e->n_items;
    for (size_t i = 0; i < e->cl[c].n_vars; i++)
        if (in_union(e, c, i))
            push(e, e->cl[c].vars[i]);
    struct value *params = items_list(e, mark, e->L->nil);
    struct value *ig = ignores(e, c);
    if (ig)
        body = cons(e, ig, body);
    ci->fn = e->m->hooks.gensym(e->m->hooks.ctx, "pcase-");
    struct value *lam = cons2(e, e->L->lambda, params, body);
    e->defs = cons(e, list2(e, ci->fn, lam), e->defs);
    if (e->m->hooks.carries)
        e->m->hooks.carries(e->m->hooks.ctx, lam, c);
    return ci->fn;
}

/* pcase-setq assigns a clause's variables in the order Emacs's
 * pcase-compile-patterns lists them, which decides its value (the last
 * one assigned): the variables of the clause's leaves, read from the
 * decision tree's last leaf to its first and each leaf's variables from
 * the last bound, in order of first appearance, then reversed.  The
 * else-first walk of the DAG meets the leaves in that order (leaves keep
 * their binding order: memo_ctx.ordered_leaves). */
static void setq_orders(struct em *e, const struct dnode *root)
{
    size_t n_nodes;
    const struct dnode **all = NULL;
    for (uint32_t c = 0; c < e->n_clauses; c++) {
        const struct emit_clause *cl = &e->cl[c];
        if (cl->kind != EMIT_SETQ || !cl->n_vars)
            continue;
        if (!all)
            all = dtree_visit_order(e->m, root, &n_nodes, true);
        uint32_t *order = ARENA_NEWN(e->m->a, uint32_t, cl->n_vars);
        bool *seen = arena_zalloc(e->m->a, cl->n_vars);
        size_t k = 0;
        for (size_t i = 0; i < n_nodes; i++) {
            if (all[i]->kind != DN_LEAF || all[i]->clause != c)
                continue;
            for (const struct memo_list *l = all[i]->vars; l; l = l->cdr)
                for (uint32_t j = 0; j < cl->n_vars; j++)
                    if (!seen[j] && cl->vars[j] == ((const struct vbind *)l->car)->name->v) {
                        seen[j] = true;
                        order[k++] = j;
                    }
        }
        for (uint32_t j = 0; j < cl->n_vars; j++) /* bound nowhere: not pushed */
            if (!seen[j])
                order[k++] = j;
        for (size_t i = 0; i < k / 2; i++) { /* reversed */
            uint32_t t = order[i];
            order[i] = order[k - 1 - i];
            order[k - 1 - i] = t;
        }
        e->ci[c].order = order;
    }
}

/* What push_bindings pushes for each variable bound on the way to a leaf. */
enum bind_shape {
    AS_PAIRS,  /* (VAR VAL): let bindings */
    AS_VALUES, /* VAL: the arguments of a shared body's funcall */
    AS_SETQ,   /* VAR VAL: setq's arguments */
};

/* Push the clause's variables bound on some path to it (in_union), with
 * their values on leaf n, shaped as how says. */
static void push_bindings(struct em *e, const struct dnode *n, enum bind_shape how)
{
    uint32_t c = n->clause;
    const struct emit_clause *cl = &e->cl[c];
    const uint32_t *order = e->ci[c].order;
    for (size_t k = 0; k < cl->n_vars; k++) {
        size_t i = order ? order[k] : k;
        if (!in_union(e, c, i))
            continue;
        struct value *v = value_of(e, n, cl->vars[i]);
        if (how == AS_PAIRS)
            v = list2(e, cl->vars[i], v);
        else if (how == AS_SETQ)
            push(e, cl->vars[i]);
        push(e, v);
    }
}

/* What leaf n becomes: (setq VAR VAL...), nil for a nil body, the call
 * of the clause's shared body, or its body in a let of its variables. */
static struct value *leaf_code(struct em *e, const struct dnode *n)
{
    uint32_t c = n->clause;
    const struct emit_clause *cl = &e->cl[c];
    size_t mark = e->n_items;
    if (cl->kind == EMIT_SETQ) {
        push(e, known(e, K_SETQ));
        push_bindings(e, n, AS_SETQ);
        if (e->n_items > mark + 1)
            return items_list(e, mark, e->L->nil);
        e->n_items = mark;
        return e->L->nil;
    }
    if (nil_body(e, cl->body))
        return e->L->nil;
    if (e->info[c].shared) {
        struct value *fn = shared_body(e, c);
        if (!fn)
            return NULL;
        push(e, known(e, K_FUNCALL));
        push(e, fn);
        push_bindings(e, n, AS_VALUES);
        return items_list(e, mark, e->L->nil);
    }
    struct value *body = clause_body(e, c);
    if (!body)
        return NULL;
    if (!cl->n_vars) /* most clauses */
        return as_form(e, body);
    push_bindings(e, n, AS_PAIRS);
    if (e->n_items == mark)
        return as_form(e, body);
    struct value *binds = items_list(e, mark, e->L->nil);
    struct value *ig = ignores(e, c);
    if (ig)
        body = cons(e, ig, body);
    return cons2(e, known(e, K_LET), binds, body);
}

/* ---- clause marks ----------------------------------------------------- */

/* When the caller asks (hooks.carries), every leaf says which clause's
 * code it is: a leaf that is a list by itself.  An atom (nil, a symbol,
 * a number) has no identity of its own, only the list cell that holds
 * it, which exists once the form is complete: until then the leaf is a
 * marker, a symbol of its own that every step of the emitter treats as
 * the atom it stands for (an atom either way), and unmark puts the atom
 * back into its cell and reports the cell.  Without the hook nothing of
 * this runs. */
struct leaf_mark {
    struct value *marker;
    struct value *atom;
    uint32_t clause;
};

/* The name of every marker: a marker is known by it (its address). */
static const char marker_name[] = "pcx--leaf";

/* A marker for marks[index]. */
static struct value *new_marker(struct em *e, size_t index)
{
    struct value *m = arena_zalloc(e->L->a, sizeof *m);
    m->kind = VK_SYMBOL;
    m->u.sym.name = marker_name; /* printed only if one were left: never */
    m->u.sym.len = sizeof marker_name - 1;
    m->u.sym.hash = (uint32_t)index;
    return m;
}

/* form, the code of leaf n, reported to the hook, or its marker. */
static struct value *mark_leaf(struct em *e, const struct dnode *n, struct value *form)
{
    const struct memo_hooks *h = &e->m->hooks;
    if (!form || !h->carries || e->raw || n->clause >= e->n_clauses)
        return form;
    if (form->kind == VK_CONS) {
        /* the progn of several forms is spliced into the list around
         * it: its first form (or the cell holding it) is what remains */
        struct value *forms = spliced(e, form);
        if (!forms)
            h->carries(h->ctx, form, n->clause);
        else if (value_car(forms)->kind == VK_CONS)
            h->carries(h->ctx, value_car(forms), n->clause);
        else
            h->carries(h->ctx, forms, n->clause);
        return form;
    }
    if (e->n_marks == e->cap_marks) {
        size_t cap = e->cap_marks ? 2 * e->cap_marks : 16;
        struct leaf_mark *grown = ARENA_NEWN(e->m->a, struct leaf_mark, cap);
        if (e->n_marks)
            memcpy(grown, e->marks, e->n_marks * sizeof *grown);
        e->marks = grown;
        e->cap_marks = cap;
    }
    struct value *m = new_marker(e, e->n_marks);
    e->marks[e->n_marks++] = (struct leaf_mark){m, form, n->clause};
    return m;
}

/* The mark of v when it is a marker, else NULL. */
static inline const struct leaf_mark *mark_of(const struct em *e, const struct value *v)
{
    if (v->kind != VK_SYMBOL || v->u.sym.name != marker_name || v->u.sym.hash >= e->n_marks)
        return NULL;
    const struct leaf_mark *k = &e->marks[v->u.sym.hash];
    return k->marker == v ? k : NULL;
}

/* The stack of unmark's walk. */
struct ustack {
    struct value **v;
    size_t n, cap;
};

static void upush(struct em *e, struct ustack *s, struct value *v)
{
    if (v->kind != VK_CONS)
        return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct value **grown = ARENA_NEWN(e->m->a, struct value *, cap);
        if (s->n)
            memcpy(grown, s->v, s->n * sizeof *grown);
        s->v = grown;
        s->cap = cap;
    }
    s->v[s->n++] = v;
}

/* Cells from l on that are the emitter's lists of forms: each car that
 * is a marker gets its atom back (the cell is reported), each other one
 * is looked into later. */
static void unmark_forms(struct em *e, struct value *l, struct ustack *s)
{
    for (; l->kind == VK_CONS; l = value_cdr(l)) {
        const struct leaf_mark *k = mark_of(e, value_car(l));
        if (k) {
            l->u.cons.car = k->atom;
            e->m->hooks.carries(e->m->hooks.ctx, l, k->clause);
        } else {
            upush(e, s, value_car(l));
        }
    }
}

/* Put every marker of form back to its atom.  Markers are only where the
 * emitter puts a leaf: the forms of if and progn, of a cond clause, the
 * body of let, let* and lambda; a shared lambda is a let* binding's
 * value.  The walk goes through lists with those heads only (the user
 * code it meets is acyclic: the driver walked it; quoted data is never
 * entered). */
static struct value *unmark(struct em *e, struct value *form)
{
    if (!e->n_marks)
        return form;
    const struct leaf_mark *root = mark_of(e, form);
    if (root)
        return root->atom; /* the whole form: no cell holds it */
    struct ustack s = {0};
    upush(e, &s, form);
    while (s.n) {
        struct value *v = s.v[--s.n], *h = value_car(v), *r = value_cdr(v);
        if (h == known(e, K_IF) || h == e->progn) {
            unmark_forms(e, r, &s);
        } else if (h == known(e, K_COND)) {
            for (; r->kind == VK_CONS; r = value_cdr(r))
                if (value_car(r)->kind == VK_CONS)
                    unmark_forms(e, value_car(r), &s);
        } else if ((h == known(e, K_LET) || h == known(e, K_LET_STAR)) &&
                   r->kind == VK_CONS) {
            for (struct value *b = value_car(r); b->kind == VK_CONS; b = value_cdr(b))
                if (value_car(b)->kind == VK_CONS && value_cdr(value_car(b))->kind == VK_CONS)
                    upush(e, &s, value_car(value_cdr(value_car(b))));
            unmark_forms(e, value_cdr(r), &s);
        } else if (h == e->L->lambda && r->kind == VK_CONS) {
            unmark_forms(e, value_cdr(r), &s);
        }
    }
    return form;
}

/* leaf_code, with its clause mark. */
__attribute__((noinline)) static struct value *leaf_form(struct em *e,
                                                          const struct dnode *n)
{
    return mark_leaf(e, n, leaf_code(e, n));
}

/* ---- nodes ------------------------------------------------------------ */

static struct value *inner_form(struct em *e, const struct dnode *n);

/* The code of node n.  A leaf goes no deeper: of the depth guard only
 * its test is needed, here where the call is made. */
static inline struct value *node_form(struct em *e, const struct dnode *n)
{
    if (n->kind == DN_LEAF && e->m->depth < e->m->max_depth)
        return leaf_form(e, n);
    return inner_form(e, n);
}

static inline struct value *node_forms(struct em *e, const struct dnode *n)
{
    struct value *f = node_form(e, n);
    return f ? as_forms(e, f) : NULL;
}

/* (progn (ignore TEST) NEXT...) for a test whose other outcome is
 * impossible by assumption: it runs for its effects only. */
static struct value *ignored_test(struct em *e, const struct dtest *t,
                                  const struct dnode *next)
{
    struct value *tf = test_form(e, t);
    struct value *f = tf ? node_form(e, next) : NULL;
    if (!f)
        return NULL;
    struct value *ig = list2(e, known(e, K_IGNORE), tf), *rest = spliced(e, f);
    return rest ? cons2(e, e->progn, ig, rest) : cons3(e, e->progn, ig, f, e->L->nil);
}

static bool chainable(struct em *e, const struct dnode *n)
{
    return n->kind == DN_TEST && !shared(e, n) && n->then->kind != DN_DONTCARE &&
           n->els->kind != DN_DONTCARE;
}

/* The if or cond of a test chain: pushed since mark are the symbol cond,
 * then each test's form and its success branch's form; els is the
 * failure branch's forms, or NULL when it fails.  A single test whose
 * success is one form is an if, else every test is a cond clause. */
static struct value *chain_form(struct em *e, size_t mark, struct value *els)
{
    struct value **it = e->items + mark + 1;
    size_t count = (e->n_items - mark - 1) / 2;
    struct value *rest = spliced(e, it[1]);
    if (count == 1 && (!rest || value_cdr(rest) == e->L->nil)) {
        e->n_items = mark;
        return cons3(e, known(e, K_IF), it[0], rest ? value_car(rest) : it[1],
                     els ? els : e->L->nil);
    }
    for (size_t i = 0; i < count; i++) {
        rest = spliced(e, it[2 * i + 1]);
        it[i] = rest ? cons(e, it[2 * i], rest) : list2(e, it[2 * i], it[2 * i + 1]);
    }
    e->n_items = mark + 1 + count;
    if (els)
        push(e, cons(e, e->L->t, els));
    return items_list(e, mark, e->L->nil);
}

/* A test and the tests of its else-chain become one if/cond (iterative
 * along the chain, so long clause lists do not recurse). */
static struct value *test_chain(struct em *e, const struct dnode *n)
{
    if (n->els->kind == DN_DONTCARE)
        return ignored_test(e, n->test, n->then);
    if (n->then->kind == DN_DONTCARE)
        return ignored_test(e, n->test, n->els);
    size_t mark = e->n_items;
    push(e, known(e, K_COND));
    const struct dnode *cur = n;
    for (;;) {
        struct value *tf = test_form(e, cur->test);
        struct value *then = tf ? node_form(e, cur->then) : NULL;
        if (!then)
            return NULL;
        push(e, tf);
        push(e, then);
        if (!chainable(e, cur->els))
            break;
        cur = cur->els;
    }
    struct value *els = NULL;
    if (cur->els->kind != DN_FAIL && !(els = node_forms(e, cur->els)))
        return NULL;
    return chain_form(e, mark, els);
}

/* A chain of app calls becomes one let*.  A call whose result nothing
 * reads (its subject is only marked used) is kept for its effects in a
 * `_` temporary. */
static struct value *bind_chain(struct em *e, const struct dnode *n)
{
    size_t mark = e->n_items;
    const struct dnode *cur = n;
    do {
        if (cur->kind == DN_BIND) {
            struct value *call = test_form(e, cur->test);
            if (!call)
                return NULL;
            struct value *var = dtree_free_has(cur->then, cur->temp)
                              ? cur->temp->expr
                              : e->m->hooks.gensym(e->m->hooks.ctx, "_");
            push(e, list2(e, var, call));
        }
        cur = cur->then;
    } while ((cur->kind == DN_BIND || cur->kind == DN_USE) && !shared(e, cur));
    if (e->n_items == mark)
        return single(e, node_form(e, cur));
    struct value *body = node_forms(e, cur);
    return body ? cons2(e, known(e, K_LET_STAR), items_list(e, mark, e->L->nil), body) : NULL;
}

static struct value *inline_form(struct em *e, const struct dnode *n)
{
    switch (n->kind) {
    case DN_LEAF:
        return leaf_form(e, n);
    case DN_TEST:
        return test_chain(e, n);
    case DN_BIND:
    case DN_USE:
        return bind_chain(e, n);
    default:
        return e->L->nil;
    }
}

/* A shared node: its lambda (made once, after the lambdas it calls) and a
 * call passing the temporaries it reads. */
__attribute__((noinline)) static struct value *shared_call(struct em *e,
                                                           const struct dnode *n)
{
    struct dnode_emit *ni = ninfo(n);
    struct value *body = NULL;
    if (!ni->k && !(body = inline_form(e, n)))
        return NULL;
    bool first = !ni->k;
    if (first)
        ni->k = e->m->hooks.gensym(e->m->hooks.ctx, "pcase-");
    size_t mark = e->n_items;
    push(e, known(e, K_FUNCALL));
    push(e, ni->k);
    const struct subj *t;
    for (uint32_t i = 0; (t = dtree_free_next(e->m, n, &i)); i++)
        if (t != e->rsubj)
            push(e, t->expr);
    struct value *call = items_list(e, mark, e->L->nil);
    if (first) {
        /* the lambda's parameters are the call's arguments (one list) */
        struct value *lam = cons2(e, e->L->lambda, value_cdr(value_cdr(call)),
                                  as_forms(e, body));
        e->defs = cons(e, list2(e, ni->k, lam), e->defs);
    }
    return call;
}

/* node_form of a node that is not a leaf, or of any node at the depth
 * limit (where it fails). */
static struct value *inner_form(struct em *e, const struct dnode *n)
{
    if (!memo_enter(e->m))
        return NULL;
    struct value *f = shared(e, n) ? shared_call(e, n) : inline_form(e, n);
    memo_leave(e->m);
    return f;
}

/* ---- entry ------------------------------------------------------------ */

struct value *emit_test_form(struct memo_ctx *m, const struct dtest *t,
                             bool expand)
{
    struct em e;
    memset(&e, 0, sizeof e);
    e.m = m;
    e.L = m->L;
    e.raw = !expand;
    e.epoch = memo_epoch(m);
    e.progn = sym(&e, "progn");
    struct value *local[ITEMS_LOCAL];
    e.items = local;
    e.cap_items = ITEMS_LOCAL;
    return test_form(&e, t);
}

struct value *emit_form(struct memo_ctx *m, const struct dnode *root,
                        const struct subj *rsubj, struct value *subject,
                        const struct emit_clause *cl, size_t n,
                        struct emit_info *info)
{
    struct em e = {.m = m, .L = m->L, .rsubj = rsubj, .cl = cl};
    e.epoch = memo_epoch(m);
    e.progn = sym(&e, "progn");
    e.ci = ARENA_NEWN(m->a, struct cinfo, n + 1);
    memset(e.ci, 0, (n + 1) * sizeof *e.ci);
    e.info = info ? info : ARENA_NEWN(m->a, struct emit_info, n + 1);
    memset(e.info, 0, n * sizeof *e.info);
    e.defs = e.L->nil;
    struct value *local[ITEMS_LOCAL];
    e.items = local;
    e.cap_items = ITEMS_LOCAL;
    e.n_clauses = n;
    survey(&e, root);
    setq_orders(&e, root);
    struct value *body = node_forms(&e, root);
    if (!body)
        return NULL;
    struct value *defs = lisp_reverse(e.L, e.defs);
    bool reads = rsubj->temp && dtree_free_has(root, rsubj);
    if (reads)
        defs = cons(&e, list2(&e, rsubj->expr, subject), defs);
    struct value *inner = value_car(body);
    if (defs != e.L->nil && value_cdr(body) == e.L->nil && inner->kind == VK_CONS &&
        value_car(inner) == known(&e, K_LET_STAR) && root->kind == DN_BIND && !shared(&e, root)) {
        /* the root's own let* joins the bindings (macroexp-let*) */
        defs = append_list(&e, defs, value_car(value_cdr(inner)));
        body = value_cdr(value_cdr(inner));
    }
    struct value *form = defs == e.L->nil ? as_form(&e, body)
                       : cons2(&e, known(&e, K_LET_STAR), defs, body);
    if (rsubj->temp && !reads)
        form = cons2(&e, e.progn, subject, as_forms(&e, form));
    return unmark(&e, form);
}
