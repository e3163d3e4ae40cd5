/* emit.c - decision DAG -> Lisp (see emit.h).
 *
 * Order: small list helpers, node bookkeeping (in-degrees, sharing),
 * test and call forms, leaves and shared bodies, nodes (test chains become
 * one `cond`, bind chains one `let*`), shared continuations, emit_form.
 */
#include "match/emit.h"

#include <string.h>

/* Code smaller than this is copied to each place that reaches it rather
 * than made a shared lambda (a funcall is not much smaller). */
#define SHARE_MIN_COST 12

struct cinfo {
    bool *in_union;      /* vars[i] bound on some path to the clause */
    uint32_t body_size;  /* size_of(body, SHARE_MIN_COST) + 1, 0 = not yet
                            measured */
    struct value *fn;    /* shared body lambda variable, once made */
    struct value *body;  /* expanded body forms, once made */
    bool body_done;
};

struct em {
    struct memo_ctx *m;
    struct lisp *L;
    const struct subj *rsubj;
    const struct emit_clause *cl;
    struct cinfo *ci;
    struct emit_info *info;
    uint32_t epoch;           /* this pass: the bookkeeping kept on nodes */
    struct value *defs;       /* (VAR LAMBDA) bindings, newest first */
    bool raw;                 /* leave user code unexpanded (dumps) */
    struct value *progn;      /* asked for at every form a body is made of */
};

/* ---- list helpers ----------------------------------------------------- */

/* The symbol named by a string literal. */
#define sym(e, name) INTERN_LIT((e)->L, name)

static struct value *cons(struct em *e, struct value *a, struct value *d)
{
    return value_cons(e->L->a, a, d);
}

static struct value *list2(struct em *e, struct value *a, struct value *b)
{
    return cons(e, a, cons(e, b, e->L->nil));
}

static struct value *list3(struct em *e, struct value *a, struct value *b,
                           struct value *c)
{
    return cons(e, a, list2(e, b, c));
}

/* Build lists front to back. */
struct tail {
    struct value *head;
    struct value *last;
};

static void push(struct em *e, struct tail *t, struct value *v)
{
    struct value *c = cons(e, v, e->L->nil);
    if (t->last)
        t->last->u.cons.cdr = c;
    else
        t->head = c;
    t->last = c;
}

static struct value *tail_list(struct em *e, struct tail *t)
{
    return t->head ? t->head : e->L->nil;
}

/* The forms a form stands for in a body: a non-empty progn is spliced. */
static struct value *as_forms(struct em *e, struct value *form)
{
    if (form->kind == VK_CONS && value_car(form) == e->progn &&
        value_cdr(form)->kind == VK_CONS)
        return value_cdr(form);
    return cons(e, form, e->L->nil);
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

/* a followed by b (a copied). */
static struct value *append_list(struct em *e, struct value *a, struct value *b)
{
    struct tail t = {NULL, NULL};
    for (; a->kind == VK_CONS; a = value_cdr(a))
        push(e, &t, value_car(a));
    if (!t.last)
        return b;
    t.last->u.cons.cdr = b;
    return t.head;
}

static struct value *quoted(struct em *e, struct value *v)
{
    return list2(e, e->L->quote, v);
}

/* ---- node bookkeeping ------------------------------------------------- */

/* The emitter's bookkeeping for n, kept on the node for this pass. */
static struct dnode_emit *ninfo(struct em *e, const struct dnode *n)
{
    struct dnode_emit *ni = &((struct dnode *)n)->em; /* not part of identity */
    if (ni->epoch != e->epoch)
        *ni = (struct dnode_emit){e->epoch, 0, 0, NULL};
    return ni;
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
    return inner_kind(n) && ninfo(e, n)->indeg >= 2 && node_cost(e, n) >= SHARE_MIN_COST;
}

/* What a reference to child costs in its parent's code. */
static uint32_t child_cost(struct em *e, const struct dnode *c)
{
    return shared(e, c) ? capped(2 + dtree_free_count(c)) : node_cost(e, c);
}

/* Size estimate of n's inline code (capped), measured once. */
static uint32_t node_cost(struct em *e, const struct dnode *n)
{
    struct dnode_emit *ni = ninfo(e, n);
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

/* Walk the DAG from root, each node once (pushed when first reached,
 * which resets its bookkeeping), counting in-degrees on the way; the
 * leaves it reached are returned (*n of them). */
static const struct dnode **count_indegrees(struct em *e, const struct dnode *root,
                                            size_t *n)
{
    size_t cap = 32, top = 0, cap_l = 16;
    const struct dnode **st = ARENA_NEWN(e->m->a, const struct dnode *, cap);
    const struct dnode **leaves = ARENA_NEWN(e->m->a, const struct dnode *, cap_l);
    *n = 0;
    ninfo(e, root)->indeg = 1;
    st[top++] = root;
    while (top) {
        const struct dnode *x = st[--top];
        if (x->kind == DN_LEAF && *n == cap_l) {
            leaves = arena_grow(e->m->a, leaves, cap_l * sizeof *leaves, cap_l * 2 * sizeof *leaves);
            cap_l *= 2;
        }
        if (x->kind == DN_LEAF)
            leaves[(*n)++] = x;
        if (top + 2 > cap) {
            st = arena_grow(e->m->a, st, cap * sizeof *st, cap * 2 * sizeof *st);
            cap *= 2;
        }
        const struct dnode *kids[2] = {x->els, x->then};
        for (int i = 0; i < 2; i++) {
            if (!kids[i])
                continue;
            bool first = kids[i]->em.epoch != e->epoch;
            ninfo(e, kids[i])->indeg++;
            if (first)
                st[top++] = kids[i];
        }
    }
    return leaves;
}

/* Count in-degrees and, per clause, leaves, sites and bound variables. */
static void survey(struct em *e, const struct dnode *root, size_t n_clauses)
{
    size_t n;
    const struct dnode **leaves = count_indegrees(e, root, &n);
    for (size_t i = 0; i < n; i++) {
        const struct dnode *x = leaves[i];
        if (x->clause >= n_clauses)
            continue;
        const struct emit_clause *c = &e->cl[x->clause];
        e->info[x->clause].leaves++;
        e->info[x->clause].sites += ninfo(e, x)->indeg;
        for (const struct memo_list *l = x->vars; l; l = l->cdr)
            for (size_t j = 0; j < c->n_vars; j++)
                if (c->vars[j] == ((const struct vbind *)l->car)->name->v)
                    e->ci[x->clause].in_union[j] = true;
    }
    for (size_t i = 0; i < n_clauses; i++)
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
    struct tail b = {NULL, NULL};
    if (pre)
        push(e, &b, pre);
    for (const struct memo_list *l = env; l; l = l->cdr) {
        const struct vbind *vb = (const struct vbind *)l->car;
        push(e, &b, list2(e, vb->name->v, vb->s->expr));
    }
    return list3(e, sym(e, "let*"), tail_list(e, &b), code);
}

static bool lambda_form(struct em *e, const struct value *fun)
{
    return fun->kind == VK_CONS &&
           (value_car(fun) == e->L->lambda || value_car(fun) == sym(e, "closure"));
}

/* (F A... ARG), or with every top-level `_` argument replaced by ARG
 * (Emacs 30's placeholder). */
static struct value *call_with(struct em *e, struct value *fun, struct value *arg)
{
    struct value *us = sym(e, "_");
    bool placeholder = false;
    for (struct value *l = value_cdr(fun); l->kind == VK_CONS; l = value_cdr(l))
        placeholder |= value_car(l) == us;
    struct tail t = {NULL, NULL};
    push(e, &t, value_car(fun));
    struct value *l = value_cdr(fun);
    for (; l->kind == VK_CONS; l = value_cdr(l))
        push(e, &t, placeholder && value_car(l) == us ? arg : value_car(l));
    if (!placeholder)
        push(e, &t, arg);
    return tail_list(e, &t);
}

/* BODY when code is (lambda (_) BODY) and BODY does not mention `_` (the
 * lambda of a `let` pattern): calling it just evaluates BODY. */
static struct value *ignoring_lambda_body(struct em *e, struct value *code)
{
    struct value *us = sym(e, "_");
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
        call = list3(e, sym(e, "funcall"), list2(e, e->L->function, code), arg);
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
        return list2(e, sym(e, "null"), s);
    if (value_integerp(c))
        return list3(e, sym(e, "eql"), s, c);
    if (c->kind == VK_SYMBOL) {
        bool self = c == e->L->t || (c->u.sym.interned && c->u.sym.name[0] == ':');
        return list3(e, sym(e, "eq"), s, self ? c : quoted(e, c));
    }
    bool self = c->kind == VK_STRING || c->kind == VK_FLOAT;
    return list3(e, sym(e, "equal"), s, self ? c : quoted(e, c));
}

static struct value *test_form(struct em *e, const struct dtest *t)
{
    struct value *s = t->s->expr;
    switch (t->kind) {
    case DT_QUOTE:
        return quote_form(e, s, t->p->val->v);
    case DT_MEMBER:
        return list3(e, t->p->memfn, s, quoted(e, t->p->val->v));
    case DT_GUARD:
        return guard_form(e, t);
    case DT_PRED:
        if (t->prev)
            return list3(e, sym(e, "eql"), t->prev->expr, s);
        /* fall through */
    case DT_CALL:
    default:
        return fun_call(e, t->p->val->v, s, t->env,
                        t->s->temp || s->kind != VK_SYMBOL);
    }
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

static struct value *clause_body(struct em *e, uint32_t c)
{
    struct cinfo *ci = &e->ci[c];
    if (ci->body_done)
        return ci->body;
    struct tail t = {NULL, NULL};
    for (struct value *l = e->cl[c].body; l->kind == VK_CONS; l = value_cdr(l)) {
        struct value *f = e->cl[c].user ? user_code(e, value_car(l)) : value_car(l);
        if (!f)
            return NULL;
        push(e, &t, f);
    }
    ci->body = tail_list(e, &t);
    if (!e->cl[c].user && ci->body->kind == VK_CONS && value_cdr(ci->body) == e->L->nil)
        ci->body = as_forms(e, value_car(ci->body)); /* generated: splice a progn */
    ci->body_done = true;
    return ci->body;
}

/* (ignore USED...) for the variables the pattern read, if any. */
static struct value *ignores(struct em *e, uint32_t c)
{
    const struct emit_clause *cl = &e->cl[c];
    struct tail t = {NULL, NULL};
    for (size_t i = 0; i < cl->n_vars; i++)
        if (e->ci[c].in_union[i] && cl->used && cl->used[i])
            push(e, &t, cl->vars[i]);
    return t.head ? cons(e, sym(e, "ignore"), t.head) : NULL;
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
    struct tail params = {NULL, NULL};
    for (size_t i = 0; i < e->cl[c].n_vars; i++)
        if (ci->in_union[i])
            push(e, &params, e->cl[c].vars[i]);
    struct value *ig = ignores(e, c);
    if (ig)
        body = cons(e, ig, body);
    ci->fn = e->m->hooks.gensym(e->m->hooks.ctx, "pcase-");
    struct value *lam = cons(e, e->L->lambda, cons(e, tail_list(e, &params), body));
    e->defs = cons(e, list2(e, ci->fn, lam), e->defs);
    return ci->fn;
}

static struct value *leaf_form(struct em *e, const struct dnode *n)
{
    uint32_t c = n->clause;
    const struct emit_clause *cl = &e->cl[c];
    struct tail binds = {NULL, NULL}, vals = {NULL, NULL}, pairs = {NULL, NULL};
    for (size_t i = 0; i < cl->n_vars; i++) {
        if (!e->ci[c].in_union[i])
            continue;
        struct value *v = value_of(e, n, cl->vars[i]);
        push(e, &binds, list2(e, cl->vars[i], v));
        push(e, &vals, v);
        push(e, &pairs, cl->vars[i]);
        push(e, &pairs, v);
    }
    if (cl->kind == EMIT_SETQ)
        return pairs.head ? cons(e, sym(e, "setq"), pairs.head) : e->L->nil;
    if (nil_body(e, cl->body))
        return e->L->nil;
    if (e->info[c].shared) {
        struct value *fn = shared_body(e, c);
        return fn ? cons(e, sym(e, "funcall"), cons(e, fn, tail_list(e, &vals))) : NULL;
    }
    struct value *body = clause_body(e, c);
    if (!body)
        return NULL;
    if (!binds.head)
        return as_form(e, body);
    struct value *ig = ignores(e, c);
    if (ig)
        body = cons(e, ig, body);
    return cons(e, sym(e, "let"), cons(e, binds.head, body));
}

/* ---- nodes ------------------------------------------------------------ */

static struct value *node_form(struct em *e, const struct dnode *n);

static struct value *node_forms(struct em *e, const struct dnode *n)
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
    struct value *rest = tf ? node_forms(e, next) : NULL;
    if (!rest)
        return NULL;
    return cons(e, e->progn, cons(e, list2(e, sym(e, "ignore"), tf), rest));
}

static bool chainable(struct em *e, const struct dnode *n)
{
    return n->kind == DN_TEST && !shared(e, n) && n->then->kind != DN_DONTCARE &&
           n->els->kind != DN_DONTCARE;
}

/* A test and the tests of its else-chain become one if/cond (iterative
 * along the chain, so long clause lists do not recurse). */
static struct value *test_chain(struct em *e, const struct dnode *n)
{
    if (n->els->kind == DN_DONTCARE)
        return ignored_test(e, n->test, n->then);
    if (n->then->kind == DN_DONTCARE)
        return ignored_test(e, n->test, n->els);
    struct tail clauses = {NULL, NULL};
    size_t count = 0;
    const struct dnode *cur = n;
    for (;;) {
        struct value *tf = test_form(e, cur->test);
        struct value *body = tf ? node_forms(e, cur->then) : NULL;
        if (!body)
            return NULL;
        push(e, &clauses, cons(e, tf, body));
        count++;
        if (!chainable(e, cur->els))
            break;
        cur = cur->els;
    }
    struct value *els = NULL;
    if (cur->els->kind != DN_FAIL && !(els = node_forms(e, cur->els)))
        return NULL;
    struct value *first = value_car(clauses.head);
    if (count == 1 && value_cdr(value_cdr(first)) == e->L->nil)
        return cons(e, sym(e, "if"), cons(e, value_car(first),
                    cons(e, value_car(value_cdr(first)), els ? els : e->L->nil)));
    if (els)
        push(e, &clauses, cons(e, e->L->t, els));
    return cons(e, sym(e, "cond"), clauses.head);
}

/* A chain of app calls becomes one let*.  A call whose result nothing
 * reads (its subject is only marked used) is kept for its effects in a
 * `_` temporary. */
static struct value *bind_chain(struct em *e, const struct dnode *n)
{
    struct tail binds = {NULL, NULL};
    const struct dnode *cur = n;
    do {
        if (cur->kind == DN_BIND) {
            struct value *call = test_form(e, cur->test);
            if (!call)
                return NULL;
            struct value *var = dtree_free_has(cur->then, cur->temp)
                              ? cur->temp->expr
                              : e->m->hooks.gensym(e->m->hooks.ctx, "_");
            push(e, &binds, list2(e, var, call));
        }
        cur = cur->then;
    } while ((cur->kind == DN_BIND || cur->kind == DN_USE) && !shared(e, cur));
    struct value *body = node_forms(e, cur);
    if (!body)
        return NULL;
    return binds.head ? cons(e, sym(e, "let*"), cons(e, binds.head, body))
                      : as_form(e, body);
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
static struct value *shared_call(struct em *e, const struct dnode *n)
{
    struct dnode_emit *ni = ninfo(e, n);
    struct tail params = {NULL, NULL};
    const struct subj *t;
    for (uint32_t i = 0; (t = dtree_free_next(e->m, n, &i)); i++)
        if (t != e->rsubj)
            push(e, &params, t->expr);
    if (!ni->k) {
        struct value *body = inline_form(e, n);
        if (!body)
            return NULL;
        ni->k = e->m->hooks.gensym(e->m->hooks.ctx, "pcase-");
        struct value *lam = cons(e, e->L->lambda,
                                 cons(e, tail_list(e, &params), as_forms(e, body)));
        e->defs = cons(e, list2(e, ni->k, lam), e->defs);
    }
    return cons(e, sym(e, "funcall"), cons(e, ni->k, tail_list(e, &params)));
}

static struct value *node_form(struct em *e, const struct dnode *n)
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
    return test_form(&e, t);
}

struct value *emit_form(struct memo_ctx *m, const struct dnode *root,
                        const struct subj *rsubj, struct value *subject,
                        const struct emit_clause *cl, size_t n,
                        struct emit_info *info)
{
    struct em e;
    memset(&e, 0, sizeof e);
    e.m = m;
    e.L = m->L;
    e.epoch = memo_epoch(m);
    e.progn = sym(&e, "progn");
    e.rsubj = rsubj;
    e.cl = cl;
    e.ci = ARENA_NEWN(m->a, struct cinfo, n + 1);
    memset(e.ci, 0, (n + 1) * sizeof *e.ci);
    e.info = info ? info : ARENA_NEWN(m->a, struct emit_info, n + 1);
    memset(e.info, 0, n * sizeof *e.info);
    e.defs = e.L->nil;
    for (size_t i = 0; i < n; i++)
        e.ci[i].in_union = arena_zalloc(m->a, cl[i].n_vars + 1);
    survey(&e, root, n);
    struct value *body = node_forms(&e, root);
    if (!body)
        return NULL;
    struct value *defs = lisp_reverse(e.L, e.defs);
    bool reads = rsubj->temp && dtree_free_has(root, rsubj);
    if (reads)
        defs = cons(&e, list2(&e, rsubj->expr, subject), defs);
    struct value *inner = value_car(body);
    if (defs != e.L->nil && value_cdr(body) == e.L->nil && inner->kind == VK_CONS &&
        value_car(inner) == sym(&e, "let*") && root->kind == DN_BIND && !shared(&e, root)) {
        /* the root's own let* joins the bindings (macroexp-let*) */
        defs = append_list(&e, defs, value_car(value_cdr(inner)));
        body = value_cdr(value_cdr(inner));
    }
    struct value *form = defs == e.L->nil ? as_form(&e, body)
                       : cons(&e, sym(&e, "let*"), cons(&e, defs, body));
    if (rsubj->temp && !reads)
        form = cons(&e, e.progn, cons(&e, subject, as_forms(&e, form)));
    return form;
}
