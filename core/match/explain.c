/* explain.c - what a compiled pattern form does, in words (explain.h).
 *
 * Order: text helpers, the names of values (the subject and what app
 * functions compute from it), the words of tests (the predicate table),
 * explain_subject, the pattern walk (explain_clause), the calls of the
 * DAG (explain_calls), explain_no_match, explain_render.
 */
#include "match/explain.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lisp/print.h"
#include "match/emit.h"

/* ---- text helpers ------------------------------------------------------- */

static const char *fmt(struct lisp *L, const char *f, ...) __attribute__((format(printf, 2, 3)));

static const char *fmt(struct lisp *L, const char *f, ...)
{
    struct buf b;
    buf_init(&b, L->a);
    va_list ap;
    va_start(ap, f);
    char small[512];
    int n = vsnprintf(small, sizeof small, f, ap);
    va_end(ap);
    if (n < (int)sizeof small) {
        buf_puts(&b, small);
    } else {
        char *big = arena_alloc(L->a, (size_t)n + 1);
        va_start(ap, f);
        vsnprintf(big, (size_t)n + 1, f, ap);
        va_end(ap);
        buf_puts(&b, big);
    }
    return buf_cstr(&b);
}

const char *explain_show(struct lisp *L, const struct value *v)
{
    struct buf b;
    buf_init(&b, L->a);
    struct print_opts o = print_opts_compact();
    print_value(L, &b, v, &o);
    return buf_cstr(&b);
}

/* A growable array of strings. */
struct strs {
    const char **s;
    size_t n, cap;
};

static void strs_add(struct lisp *L, struct strs *v, const char *s)
{
    if (v->n == v->cap) {
        size_t ncap = v->cap * 2 + 4;
        v->s = arena_grow(L->a, v->s, v->cap * sizeof *v->s, ncap * sizeof *v->s);
        v->cap = ncap;
    }
    v->s[v->n++] = s;
}

/* items joined with sep (arena string). */
static const char *join(struct lisp *L, const struct strs *v, size_t from, const char *sep)
{
    struct buf b;
    buf_init(&b, L->a);
    for (size_t i = from; i < v->n; i++) {
        if (i > from)
            buf_puts(&b, sep);
        buf_puts(&b, v->s[i]);
    }
    return buf_cstr(&b);
}

/* ---- names of values ---------------------------------------------------- */

/* A value the text talks about: the subject or a part computed from it. */
struct name {
    const char *text;      /* "the car of x" */
    struct value *lisp;    /* the same as a Lisp form, for calls: (car-safe x) */
    const char *base;      /* the list it is a tail of (cdrs > 0), or NULL */
    struct value *base_lisp;
    unsigned cdrs;         /* it is (nthcdr cdrs base) */
};

static bool named(const struct value *v, const char *s)
{
    return v->kind == VK_SYMBOL && v->u.sym.interned && !strcmp(v->u.sym.name, s);
}

/* The integer at position pos of fun's arguments, for FUN (F _ K) (pos
 * 1, `_' first) or (nth K) (pos 0); -1 when fun is not such a FUN. */
static long fun_index(const struct value *fun, const char *head, int pos)
{
    if (fun->kind != VK_CONS || !named(value_car(fun), head))
        return -1;
    const struct value *l = value_cdr(fun);
    for (int i = 0; i < pos && l->kind == VK_CONS; i++)
        l = value_cdr(l);
    if (l->kind != VK_CONS || value_car(l)->kind != VK_INT)
        return -1;
    if (pos == 1 && !named(value_car(value_cdr(fun)), "_"))
        return -1;
    return (long)value_car(l)->u.i;
}

/* (FUN ARG) as Emacs's pcase calls it: `_' stands for ARG, else ARG is
 * the last argument. */
static struct value *call_form(struct lisp *L, const struct value *fun, struct value *arg)
{
    if (fun->kind == VK_CONS && (named(value_car(fun), "lambda") ||
                                 named(value_car(fun), "function")))
        return lisp_listv(L, intern_cstr(L, "funcall"), (struct value *)fun, arg, NULL);
    if (fun->kind != VK_CONS)
        return lisp_listv(L, (struct value *)fun, arg, NULL);
    struct value *out = L->nil, **tail = &out;
    bool under = false;
    for (const struct value *l = fun; l->kind == VK_CONS; l = value_cdr(l)) {
        struct value *x = value_car(l);
        if (named(x, "_")) {
            x = arg;
            under = true;
        }
        *tail = value_cons(L->a, x, L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    if (!under)
        *tail = value_cons(L->a, arg, L->nil);
    return out;
}

/* The expression of a `let' pattern: FUN (lambda (_) EXP) ignores its
 * argument, so the value is EXP's.  NULL for any other FUN. */
static const struct value *let_body(const struct value *fun)
{
    if (fun->kind != VK_CONS || !named(value_car(fun), "lambda"))
        return NULL;
    const struct value *r = value_cdr(fun);
    if (r->kind != VK_CONS || value_car(r)->kind != VK_CONS)
        return NULL;
    const struct value *args = value_car(r), *body = value_cdr(r);
    if (!named(value_car(args), "_") || value_cdr(args)->kind == VK_CONS ||
        body->kind != VK_CONS || value_cdr(body)->kind == VK_CONS)
        return NULL;
    return value_car(body);
}

/* The name of (FUN of n). */
static struct name name_app(struct lisp *L, const struct name *n, const struct value *fun)
{
    struct name r = {NULL, call_form(L, fun, n->lisp), NULL, NULL, 0};
    const char *base = n->cdrs ? n->base : n->text;
    unsigned k = n->cdrs;
    long i;
    if (named(fun, "car-safe") || named(fun, "car"))
        r.text = k ? fmt(L, "element %u of %s", k, base) : fmt(L, "the car of %s", base);
    else if (named(fun, "cdr-safe") || named(fun, "cdr")) {
        r.base = base;
        r.base_lisp = n->cdrs ? n->base_lisp : n->lisp;
        r.cdrs = k + 1;
        r.text = k ? fmt(L, "the rest of %s after %u elements", base, k + 1)
                   : fmt(L, "the cdr of %s", base);
    } else if (named(fun, "length"))
        r.text = fmt(L, "the length of %s", n->text);
    else if ((i = fun_index(fun, "aref", 1)) >= 0 || (i = fun_index(fun, "seq--elt-safe", 1)) >= 0)
        r.text = fmt(L, "element %ld of %s", i, n->text);
    else if ((i = fun_index(fun, "nth", 0)) >= 0 && fun->kind == VK_CONS &&
             value_cdr(value_cdr(fun))->kind != VK_CONS)
        r.text = fmt(L, "element %ld of %s", i, n->text);
    else if (let_body(fun))
        r.text = fmt(L, "the value of %s", explain_show(L, let_body(fun)));
    else
        r.text = fmt(L, "the value of %s", explain_show(L, r.lisp));
    return r;
}

/* ---- the words of tests ------------------------------------------------- */

/* What (pred F) says of a value, for the type predicates.  Sorted. */
static const struct {
    const char *name, *noun;
} nouns[] = {
    {"arrayp", "an array"},
    {"atom", "an atom (not a cons)"},
    {"bignump", "a bignum"},
    {"bool-vector-p", "a bool-vector"},
    {"booleanp", "t or nil"},
    {"bufferp", "a buffer"},
    {"byte-code-function-p", "a byte-code function"},
    {"char-or-string-p", "a character or a string"},
    {"char-table-p", "a char-table"},
    {"characterp", "a character"},
    {"consp", "a cons"},
    {"fixnump", "a fixnum"},
    {"floatp", "a float"},
    {"framep", "a frame"},
    {"functionp", "a function"},
    {"hash-table-p", "a hash table"},
    {"identity", "non-nil"},
    {"integer-or-marker-p", "an integer or a marker"},
    {"integerp", "an integer"},
    {"keywordp", "a keyword"},
    {"listp", "a list (a cons or nil)"},
    {"mapp", "a map (mapp)"},
    {"markerp", "a marker"},
    {"natnump", "a natural number"},
    {"nlistp", "not a list"},
    {"not", "nil"},
    {"null", "nil"},
    {"number-or-marker-p", "a number or a marker"},
    {"numberp", "a number"},
    {"overlayp", "an overlay"},
    {"processp", "a process"},
    {"proper-list-p", "a proper list"},
    {"recordp", "a record"},
    {"seqp", "a sequence (seqp)"},
    {"sequencep", "a sequence"},
    {"string-or-null-p", "a string or nil"},
    {"stringp", "a string"},
    {"subrp", "a primitive function"},
    {"symbolp", "a symbol"},
    {"vectorp", "a vector"},
    {"wholenump", "a natural number"},
    {"windowp", "a window"},
};

static const char *noun_of(const struct value *f)
{
    if (f->kind != VK_SYMBOL || !f->u.sym.interned)
        return NULL;
    size_t lo = 0, hi = sizeof nouns / sizeof nouns[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(nouns[mid].name, f->u.sym.name);
        if (!c)
            return nouns[mid].noun;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

long explain_check_table(void)
{
    for (size_t i = 1; i < sizeof nouns / sizeof nouns[0]; i++)
        if (strcmp(nouns[i - 1].name, nouns[i].name) >= 0)
            return (long)i;
    return -1;
}

/* "the symbol `a'", "3", "the string \"s\"", "nil", ... */
static const char *constant_words(struct lisp *L, const struct value *c)
{
    const char *t = explain_show(L, c);
    if (c == L->nil || c == L->t)
        return t;
    switch (c->kind) {
    case VK_SYMBOL:
        return c->u.sym.interned && c->u.sym.name[0] == ':' ? fmt(L, "the keyword %s", t)
                                                           : fmt(L, "the symbol `%s'", t);
    case VK_STRING: return fmt(L, "the string %s", t);
    case VK_INT:
    case VK_BIGNUM: return fmt(L, "the integer %s", t);
    case VK_FLOAT: return fmt(L, "the float %s", t);
    default: return fmt(L, "equal to %s", t);
    }
}

static const char *pred_words(struct lisp *L, const struct name *n, const struct value *fun)
{
    bool neg = fun->kind == VK_CONS && named(value_car(fun), "not") &&
               value_cdr(fun)->kind == VK_CONS;
    const struct value *f = neg ? value_car(value_cdr(fun)) : fun;
    const char *noun = noun_of(f);
    if (noun)
        return fmt(L, "%s is %s%s", n->text, neg ? "not " : "", noun);
    return fmt(L, "%s is %s", explain_show(L, call_form(L, f, n->lisp)), neg ? "nil" : "non-nil");
}

static const char *member_words(struct lisp *L, const struct name *n, const struct value *list)
{
    struct strs v = {NULL, 0, 0};
    bool syms = true;
    for (const struct value *l = list; l->kind == VK_CONS; l = value_cdr(l)) {
        const struct value *x = value_car(l);
        syms = syms && x->kind == VK_SYMBOL && x != L->nil && x != L->t;
        strs_add(L, &v, explain_show(L, x));
    }
    if (syms) {
        for (size_t i = 0; i < v.n; i++)
            v.s[i] = fmt(L, "`%s'", v.s[i]);
        return fmt(L, "%s is one of the symbols %s", n->text, join(L, &v, 0, ", "));
    }
    return fmt(L, "%s is one of %s", n->text, join(L, &v, 0, ", "));
}

/* ---- the subject -------------------------------------------------------- */

void explain_subject(struct memo_ctx *m, struct explain_section *sec, const struct subj *root,
                     struct value *written)
{
    struct lisp *L = m->L;
    sec->subject = explain_show(L, written);
    bool var = written->kind == VK_SYMBOL && written != L->nil && written != L->t &&
               !(written->u.sym.interned && written->u.sym.name[0] == ':');
    if (var && !root->temp) {
        sec->name = sec->subject;
        sec->subject_note = "a variable, read by each test: reading it runs no code";
    } else if (!root->temp) {
        sec->name = "VAL";
        sec->subject_note = "a constant; called VAL below";
    } else {
        sec->name = "VAL";
        sec->subject_note = "evaluated once, before any test; its value is called VAL below";
    }
}

/* ---- the pattern walk --------------------------------------------------- */

/* A variable bound so far in a clause (or an alternative of an or). */
struct bound {
    const struct value *var;
    const char *text;
};

struct walk {
    struct memo_ctx *m;
    struct lisp *L;
    struct strs when;         /* conditions */
    struct bound *b;          /* bindings in order */
    size_t nb, capb;
};

static void bind(struct walk *w, const struct value *var, const char *text)
{
    for (size_t i = 0; i < w->nb; i++)
        if (w->b[i].var == var)
            return;
    if (w->nb == w->capb) {
        size_t ncap = w->capb * 2 + 4;
        w->b = arena_grow(w->L->a, w->b, w->capb * sizeof *w->b, ncap * sizeof *w->b);
        w->capb = ncap;
    }
    w->b[w->nb++] = (struct bound){var, text};
}

static const char *bound_text(const struct walk *w, const struct value *var)
{
    for (size_t i = 0; i < w->nb; i++)
        if (w->b[i].var == var)
            return w->b[i].text;
    return NULL;
}

static void walk_pat(struct walk *w, const struct pat *p, const struct name *n);

/* An or: one condition line naming each alternative; variables are
 * bound to what the alternative that matched gives (nil where it binds
 * nothing, as in Emacs). */
static void walk_or(struct walk *w, const struct pat *p, const struct name *n)
{
    struct lisp *L = w->L;
    struct strs alts = {NULL, 0, 0};
    struct walk *sub = arena_alloc(L->a, (p->items ? p->items->len : 1) * sizeof *sub);
    size_t k = 0;
    for (const struct memo_list *l = p->items; l; l = l->cdr, k++) {
        sub[k] = (struct walk){w->m, L, {NULL, 0, 0}, NULL, 0, 0};
        for (size_t i = 0; i < w->nb; i++) /* earlier bindings stay visible */
            bind(&sub[k], w->b[i].var, w->b[i].text);
        size_t before = sub[k].nb;
        walk_pat(&sub[k], (const struct pat *)l->car, n);
        const char *c = sub[k].when.n ? join(L, &sub[k].when, 0, " and ") : "any value";
        strs_add(L, &alts, fmt(L, "(%zu) %s", k + 1, c));
        sub[k].nb = sub[k].nb; /* keep */
        (void)before;
    }
    strs_add(L, &w->when, fmt(L, "one of: %s", join(L, &alts, 0, "; ")));
    /* variables of the alternatives, in order of first appearance */
    for (size_t a = 0; a < k; a++)
        for (size_t i = 0; i < sub[a].nb; i++) {
            const struct value *var = sub[a].b[i].var;
            if (bound_text(w, var))
                continue;
            struct strs per = {NULL, 0, 0};
            bool same = true;
            for (size_t j = 0; j < k; j++) {
                const char *t = bound_text(&sub[j], var);
                t = t ? t : "nil";
                same = same && (!per.n || !strcmp(t, per.s[0]));
                strs_add(L, &per, fmt(L, "%s if (%zu) matched", t, j + 1));
            }
            bind(w, var, same ? bound_text(&sub[a], var) : join(L, &per, 0, ", "));
        }
}

static void walk_pat(struct walk *w, const struct pat *p, const struct name *n)
{
    struct lisp *L = w->L;
    if (!memo_enter(w->m))
        return;
    switch (p->kind) {
    case PAT_VAR: {
        const char *t = bound_text(w, p->val->v);
        if (t)
            strs_add(L, &w->when, fmt(L, "%s is eql to %s (%s)", n->text,
                                      explain_show(L, p->val->v), t));
        else
            bind(w, p->val->v, n->text);
        break;
    }
    case PAT_QUOTE:
        strs_add(L, &w->when, fmt(L, "%s is %s", n->text, constant_words(L, p->val->v)));
        break;
    case PAT_PRED:
        strs_add(L, &w->when, pred_words(L, n, p->val->v));
        break;
    case PAT_GUARD:
        strs_add(L, &w->when, fmt(L, "%s is non-nil", explain_show(L, p->val->v)));
        break;
    case PAT_MEMBER:
        strs_add(L, &w->when, member_words(L, n, p->val->v));
        break;
    case PAT_APP: {
        struct name r = name_app(L, n, p->val->v);
        walk_pat(w, p->sub, &r);
        break;
    }
    case PAT_AND:
        for (const struct memo_list *l = p->items; l; l = l->cdr)
            walk_pat(w, (const struct pat *)l->car, n);
        break;
    case PAT_OR:
        walk_or(w, p, n);
        break;
    default: /* _, the don't-care pattern: nothing to say */
        break;
    }
    memo_leave(w->m);
}

void explain_clause(struct memo_ctx *m, const struct explain_section *sec,
                    const struct subj *root, const struct pat *p,
                    struct explain_clause *cl)
{
    struct lisp *L = m->L;
    bool val = root->temp || !strcmp(sec->name, "VAL");
    struct name n = {sec->name, val ? intern_cstr(L, "VAL") : root->expr, NULL, NULL, 0};
    struct walk w = {m, L, {NULL, 0, 0}, NULL, 0, 0};
    walk_pat(&w, p, &n);
    cl->when = w.when.s;
    cl->n_when = w.when.n;
    cl->binds = ARENA_NEWN(L->a, const char *, w.nb + 1);
    for (size_t i = 0; i < w.nb; i++)
        cl->binds[i] = fmt(L, "%s = %s", explain_show(L, w.b[i].var), w.b[i].text);
    cl->n_binds = w.nb;
}

void explain_example(struct memo_ctx *m, const struct subj *root, const struct pat *p,
                     struct explain_clause *cl)
{
    cl->example = NULL;
    const struct dnode *dag = dtree_build(m, root, &p, 1);
    if (!dag) {
        m->bad = NULL;
        m->too_deep = false;
        return;
    }
    struct witness_result r;
    witness_find(m, dag, root, 0, true, &r);
    if (r.status == WITNESS_FOUND)
        cl->example = explain_show(m->L, r.value);
}

/* ---- calls -------------------------------------------------------------- */

/* Is the test or call one the text does not list: a type predicate or a
 * structure accessor pcexpand knows the effects of (none)? */
static bool quiet(const struct dtest *t)
{
    if (t->kind == DT_QUOTE || t->kind == DT_MEMBER)
        return true;
    if (t->kind == DT_GUARD || t->env || t->prev)
        return t->prev != NULL;
    const struct value *f = t->p->val->v;
    if (t->kind == DT_PRED)
        return pat_pure_pred(f) || noun_of(f) != NULL;
    static const char *const access[] = {"car-safe", "cdr-safe", "car", "cdr", "length"};
    for (size_t i = 0; i < sizeof access / sizeof access[0]; i++)
        if (named(f, access[i]))
            return true;
    return fun_index(f, "aref", 1) >= 0 || fun_index(f, "seq--elt-safe", 1) >= 0 ||
           fun_index(f, "nth", 0) >= 0;
}

/* form with each temporary of the DAG replaced by the call that computed
 * it (so that a call reads as what it is applied to). */
static struct value *spelled(struct memo_ctx *m, const struct dnode **all, size_t n,
                             struct value *form, int depth);

struct value *explain_spell(struct memo_ctx *m, const struct dnode *dag, struct value *form)
{
    size_t n;
    const struct dnode **all = dtree_visit(m, dag, &n);
    return spelled(m, all, n, form, 0);
}

static struct value *spelled(struct memo_ctx *m, const struct dnode **all, size_t n,
                             struct value *form, int depth)
{
    if (form->kind == VK_SYMBOL && !form->u.sym.interned && depth < 16)
        for (size_t i = 0; i < n; i++)
            if (all[i]->kind == DN_BIND && all[i]->temp->expr == form) {
                struct value *f = emit_test_form(m, all[i]->test, false);
                return f ? spelled(m, all, n, f, depth + 1) : form;
            }
    if (form->kind != VK_CONS || depth >= 16)
        return form;
    struct lisp *L = m->L;
    struct value *out = L->nil, **tail = &out;
    const struct value *l = form;
    for (; l->kind == VK_CONS; l = value_cdr(l)) {
        *tail = value_cons(L->a, spelled(m, all, n, value_car(l), depth + 1), L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    *tail = (struct value *)l;
    return out;
}

struct call_acc {
    const struct dtest *t;    /* its first test */
    struct value *form;       /* the call as written */
    const char *kind;
};

/* The distinct listed calls of the DAG's nodes, in visit order. */
static size_t collect_calls(struct memo_ctx *m, const struct dnode **all, size_t n,
                            struct call_acc *acc, int *which, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        which[i] = -1;
        const struct dnode *x = all[i];
        if ((x->kind != DN_TEST && x->kind != DN_BIND) || quiet(x->test))
            continue;
        /* a guard as written (its emitted form binds the variables) */
        struct value *form = x->test->kind == DT_GUARD ? x->test->p->val->v
                                                       : emit_test_form(m, x->test, false);
        if (!form)
            continue;
        form = spelled(m, all, n, form, 0);
        size_t j = 0;
        while (j < k && !value_equal(acc[j].form, form))
            j++;
        if (j == k && k < max) {
            const char *kind = x->test->kind == DT_GUARD ? "guard"
                             : x->test->kind == DT_CALL ? "app" : "pred";
            acc[k++] = (struct call_acc){x->test, form, kind};
        }
        which[i] = j < k ? (int)j : -1;
    }
    return k;
}

static size_t index_of(const struct dnode **all, size_t n, const struct dnode *x)
{
    for (size_t i = 0; i < n; i++)
        if (all[i] == x)
            return i;
    return n;
}

enum { CALLS_MAX = 24 };

/* The successors of node x (0, 1 or 2 of them) as indexes of all. */
static int succs(const struct dnode **all, size_t n, const struct dnode *x, size_t *out)
{
    int k = 0;
    if (x->kind == DN_TEST || x->kind == DN_BIND || x->kind == DN_USE)
        out[k++] = index_of(all, n, x->then);
    if (x->kind == DN_TEST)
        out[k++] = index_of(all, n, x->els);
    return k;
}

/* The nodes' indexes in postorder (every node after its successors), by
 * an explicit stack. */
static size_t *postorder(struct lisp *L, const struct dnode **all, size_t n)
{
    size_t *order = ARENA_NEWN(L->a, size_t, n + 1), k = 0, top = 0;
    size_t *stack = ARENA_NEWN(L->a, size_t, n + 1);
    unsigned char *state = arena_zalloc(L->a, n + 1); /* 1 pushed, 2 done */
    stack[top++] = 0;
    state[0] = 1;
    while (top) {
        size_t i = stack[top - 1], s[2];
        int m = succs(all, n, all[i], s);
        bool pushed = false;
        for (int j = 0; j < m && !pushed; j++)
            if (s[j] < n && !state[s[j]]) {
                state[s[j]] = 1;
                stack[top++] = s[j];
                pushed = true;
            }
        if (!pushed) {
            state[i] = 2;
            order[k++] = i;
            top--;
        }
    }
    return order;
}

/* most[i]: calls of c on the worst way from node i. */
static uint32_t most_calls(const struct dnode **all, size_t n, const size_t *post,
                           const int *which, int c, uint32_t *most)
{
    for (size_t p = 0; p < n; p++) {
        size_t i = post[p], s[2];
        int m = succs(all, n, all[i], s);
        uint32_t best = 0;
        for (int j = 0; j < m; j++)
            if (most[s[j]] > best)
                best = most[s[j]];
        most[i] = best + (which[i] == c);
    }
    return most[0];
}

/* before[a * k + b]: some call of a comes before a call of b. */
static void call_order(const struct dnode **all, size_t n, const size_t *post,
                       const int *which, size_t k, bool *before, bool *seen)
{
    /* seen[i * k + c]: node i or a node after it calls c */
    for (size_t p = 0; p < n; p++) {
        size_t i = post[p], s[2];
        bool *row = seen + i * k;
        int m = succs(all, n, all[i], s);
        for (int j = 0; j < m; j++) {
            const bool *r = seen + s[j] * k;
            for (size_t c = 0; c < k; c++)
                row[c] = row[c] || r[c];
        }
        if (which[i] >= 0) {
            for (size_t c = 0; c < k; c++)
                if (row[c] && c != (size_t)which[i])
                    before[(size_t)which[i] * k + c] = true;
            row[which[i]] = true;
        }
    }
}

void explain_calls(struct memo_ctx *m, struct explain_section *sec, const struct subj *root,
                   const struct dnode *dag)
{
    struct lisp *L = m->L;
    (void)root;
    size_t n;
    const struct dnode **all = dtree_visit(m, dag, &n);
    int *which = ARENA_NEWN(L->a, int, n + 1);
    struct call_acc acc[CALLS_MAX];
    size_t k = collect_calls(m, all, n, acc, which, CALLS_MAX);
    sec->calls = arena_zalloc(L->a, (k + 1) * sizeof *sec->calls);
    sec->n_calls = k;
    if (!k)
        return;
    uint32_t *most = ARENA_NEWN(L->a, uint32_t, n + 1);
    bool *before = arena_zalloc(L->a, k * k);
    bool *seen = arena_zalloc(L->a, n * k + 1);
    size_t *post = postorder(L, all, n);
    call_order(all, n, post, which, k, before, seen);
    for (size_t c = 0; c < k; c++) {
        struct explain_call *e = &sec->calls[c];
        e->form = explain_show(L, acc[c].form);
        e->kind = acc[c].kind;
        e->at_most = most_calls(all, n, post, which, (int)c, most);
        e->after = ARENA_NEWN(L->a, const char *, k + 1);
        e->n_after = 0;
        for (size_t o = 0; o < k; o++) {
            if (o == c)
                continue;
            if (before[o * k + c] && before[c * k + o])
                e->order_varies = true;
            else if (before[o * k + c])
                e->after[e->n_after++] = explain_show(L, acc[o].form);
        }
    }
}

/* ---- values no clause matches ------------------------------------------- */

void explain_no_match(struct memo_ctx *m, struct explain_section *sec,
                      const struct subj *root, const struct dnode *dag, long target)
{
    struct witness_result r;
    witness_find(m, dag, root, target, true, &r);
    sec->witness = NULL;
    sec->n_depends = 0;
    if (r.status == WITNESS_NONE) {
        sec->no_match = "none";
        return;
    }
    if (r.status == WITNESS_FOUND) {
        sec->no_match = "some";
        sec->witness = explain_show(m->L, r.value);
        return;
    }
    sec->no_match = "unknown";
    sec->depends = ARENA_NEWN(m->L->a, const char *, r.n_blockers + 1);
    for (size_t i = 0; i < r.n_blockers; i++)
        sec->depends[i] = explain_show(m->L, explain_spell(m, dag, r.blockers[i]));
    sec->n_depends = r.n_blockers;
}

/* ---- text --------------------------------------------------------------- */

static void put_clause_list(struct buf *out, const uint32_t *v, size_t n)
{
    buf_puts(out, n == 1 ? "clause " : "clauses ");
    for (size_t i = 0; i < n; i++)
        buf_printf(out, "%s%u", i == 0 ? "" : i + 1 == n ? " and " : ", ", v[i] + 1);
}

/* cond*: the earlier clauses that end the form when they match. */
static void render_exits(struct buf *out, const struct explain_section *sec,
                         const struct explain_clause *c)
{
    uint32_t ex[64];
    size_t n = 0;
    for (const struct explain_clause *e = sec->clauses; e < c && n < 64; e++)
        if (!e->nonexit)
            ex[n++] = e->index;
    if (!n)
        return;
    buf_puts(out, "  only if ");
    put_clause_list(out, ex, n);
    buf_puts(out, n == 1 ? " did not match\n" : " did not match\n");
}

static void render_clause(struct lisp *L, struct buf *out, const struct explain_section *sec,
                          const struct explain_clause *c)
{
    buf_printf(out, "clause %u", c->index + 1);
    if (c->line)
        buf_printf(out, " (line %u)", c->line);
    buf_printf(out, ": %s\n", c->pattern ? explain_show(L, c->pattern) : "(implicit)");
    if (c->unreachable && !c->n_shadow) {
        buf_puts(out, "  never chosen: the subject's value never matches it\n");
        return;
    }
    if (c->unreachable) {
        buf_puts(out, "  never chosen: every value it matches");
        if (c->example)
            buf_printf(out, " (such as %s)", c->example);
        buf_puts(out, " is taken first by ");
        put_clause_list(out, c->shadow, c->n_shadow);
        buf_puts(out, "\n");
        return;
    }
    const char *verb = sec->kind == EXPLAIN_DESTRUCTURE ? "  tests (not checked):"
                     : sec->kind == EXPLAIN_COND_STAR ? "  condition:"
                                                      : "  chosen when:";
    if (!c->n_when)
        buf_printf(out, "%s %s\n", verb, sec->kind == EXPLAIN_COND_STAR ? "always true"
                                                                       : "any value");
    else if (c->n_when == 1)
        buf_printf(out, "%s %s\n", verb, c->when[0]);
    else {
        buf_printf(out, "%s\n", verb);
        for (size_t i = 0; i < c->n_when; i++)
            buf_printf(out, "    %s\n", c->when[i]);
    }
    if (c->n_binds) {
        buf_puts(out, "  binds:");
        for (size_t i = 0; i < c->n_binds; i++)
            buf_printf(out, "%s %s", i ? ";" : "", c->binds[i]);
        buf_puts(out, "\n");
    }
    if (c->example && sec->kind == EXPLAIN_MATCH)
        buf_printf(out, "  matches, e.g.: %s\n", c->example);
    if (sec->kind == EXPLAIN_COND_STAR)
        render_exits(out, sec, c);
    else if (sec->kind != EXPLAIN_DESTRUCTURE && c->index > 0) {
        if (c->index == 1)
            buf_puts(out, "  only if clause 1 did not match\n");
        else
            buf_printf(out, "  only if clauses 1 %s %u did not match\n",
                       c->index == 2 ? "and" : "to", c->index);
    }
}

static void render_no_match(struct buf *out, const struct explain_section *sec)
{
    if (!sec->no_match)
        return;
    if (!strcmp(sec->no_match, "none"))
        buf_puts(out, "no match: never (some clause matches every value)\n");
    else if (sec->witness)
        buf_printf(out, "no match: some values match no clause, e.g. %s\n", sec->witness);
    else if (sec->n_depends) {
        buf_puts(out, "no match: depends on what these return:");
        for (size_t i = 0; i < sec->n_depends; i++)
            buf_printf(out, "%s %s", i ? "," : "", sec->depends[i]);
        buf_puts(out, "\n");
    } else
        buf_puts(out, "no match: some values may match no clause\n");
}

static void render_calls(struct buf *out, const struct explain_section *sec)
{
    if (sec->kind == EXPLAIN_COND_STAR)
        return;
    if (!sec->n_calls) {
        buf_puts(out, "calls: none (only type tests and car/cdr/length/aref)\n");
        return;
    }
    buf_puts(out, "calls:\n");
    for (size_t i = 0; i < sec->n_calls; i++) {
        const struct explain_call *c = &sec->calls[i];
        buf_printf(out, "  %s [%s]: at most %s", c->form, c->kind,
                   c->at_most == 1 ? "once" : c->at_most == 2 ? "twice" : "");
        if (c->at_most > 2)
            buf_printf(out, "%u times", c->at_most);
        if (c->n_after) {
            buf_puts(out, ", after ");
            for (size_t j = 0; j < c->n_after; j++)
                buf_printf(out, "%s%s", j ? ", " : "", c->after[j]);
            buf_puts(out, " where those run too");
        }
        if (c->order_varies)
            buf_puts(out, "; its order with others depends on the value");
        buf_puts(out, "\n");
    }
}

void explain_render(struct lisp *L, struct buf *out, const struct explain_section *sec)
{
    buf_printf(out, "subject: %s (%s)\n", sec->subject, sec->subject_note);
    if (sec->kind == EXPLAIN_DESTRUCTURE)
        buf_puts(out, "destructures without checking: where a test fails, the variables "
                      "still get what the accessors return\n");
    for (size_t i = 0; i < sec->n_clauses; i++)
        render_clause(L, out, sec, &sec->clauses[i]);
    render_no_match(out, sec);
    render_calls(out, sec);
}
