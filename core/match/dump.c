/* dump.c - text dumps of patterns and decision DAGs (see dump.h).
 *
 * Order: subject numbering and value printing (temporaries shown as $N),
 * the pattern printer, dump_pat, the node printer, dump_dtree, the DOT
 * printer, dump_dot.
 */
#include "match/dump.h"

#include <stdio.h>
#include <string.h>

#include "lisp/print.h"
#include "match/emit.h"

struct dp {
    struct memo_ctx *m;
    struct buf *out;
    const struct value **temps; /* temporaries in numbering order */
    size_t n_temps, cap;
    const struct value **known; /* every temporary of the DAG (dtree dumps) */
    size_t n_known, cap_known;
    unsigned next_app;          /* pattern dumps: next $N for an app result */
};

static void add(struct dp *p, const struct value ***v, size_t *n, size_t *cap,
                const struct value *x)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i] == x)
            return;
    if (*n == *cap) {
        size_t ncap = *cap * 2 + 8;
        *v = arena_grow(p->m->a, *v, *cap * sizeof **v, ncap * sizeof **v);
        *cap = ncap;
    }
    (*v)[(*n)++] = x;
}

/* $N of temporary t, numbering it on first use. */
static size_t temp_index(struct dp *p, const struct value *t)
{
    for (size_t i = 0; i < p->n_temps; i++)
        if (p->temps[i] == t)
            return i;
    add(p, &p->temps, &p->n_temps, &p->cap, t);
    return p->n_temps - 1;
}

static bool is_known(struct dp *p, const struct value *v)
{
    for (size_t i = 0; i < p->n_known; i++)
        if (p->known[i] == v)
            return true;
    return false;
}

/* A copy of v with every known temporary replaced by the symbol $N. */
static struct value *renamed(struct dp *p, struct value *v)
{
    struct lisp *L = p->m->L;
    if (v->kind == VK_SYMBOL && is_known(p, v)) {
        char name[32];
        snprintf(name, sizeof name, "$%zu", temp_index(p, v));
        return intern_cstr(L, name);
    }
    if (v->kind != VK_CONS || !memo_enter(p->m))
        return v;
    struct value *head = value_cons(L->a, renamed(p, value_car(v)), L->nil), *last = head;
    struct value *l = value_cdr(v);
    for (; l->kind == VK_CONS; l = value_cdr(l)) {
        struct value *c = value_cons(L->a, renamed(p, value_car(l)), L->nil);
        last->u.cons.cdr = c;
        last = c;
    }
    last->u.cons.cdr = renamed(p, l);
    memo_leave(p->m);
    return head;
}

static void put(struct dp *p, const char *s)
{
    buf_puts(p->out, s);
}

static void put_value(struct dp *p, struct value *v)
{
    struct print_opts o = print_opts_compact();
    print_value(p->m->L, p->out, renamed(p, v), &o);
}

/* ---- patterns --------------------------------------------------------- */

static void put_subj(struct dp *p, unsigned s)
{
    buf_printf(p->out, " $%u", s);
}

static void put_pat(struct dp *p, const struct pat *x, unsigned s);

/* The items of an `and` (an app's sub-pattern is spliced after it). */
static void put_conj(struct dp *p, const struct pat *x, unsigned s, bool *first)
{
    if (!*first)
        put(p, " ");
    *first = false;
    if (x->kind == PAT_AND) {
        *first = true;
        for (const struct memo_list *l = x->items; l; l = l->cdr)
            put_conj(p, (const struct pat *)l->car, s, first);
        return;
    }
    if (x->kind != PAT_APP) {
        put_pat(p, x, s);
        return;
    }
    unsigned r = p->next_app++;
    put(p, "(app ");
    put_value(p, x->val->v);
    put_subj(p, s);
    buf_printf(p->out, " -> $%u)", r);
    if (x->sub->kind != PAT_ANY)
        put_conj(p, x->sub, r, first);
}

static void put_items(struct dp *p, const char *head, const struct pat *x, unsigned s)
{
    buf_printf(p->out, "(%s", head);
    for (const struct memo_list *l = x->items; l; l = l->cdr) {
        put(p, " ");
        put_pat(p, (const struct pat *)l->car, s);
    }
    put(p, ")");
}

static void put_pat(struct dp *p, const struct pat *x, unsigned s)
{
    if (!memo_enter(p->m)) {
        put(p, "...");
        return;
    }
    static const char *const name[] = {
        [PAT_ANY] = "_", [PAT_VAR] = "var", [PAT_QUOTE] = "quote",
        [PAT_PRED] = "pred", [PAT_GUARD] = "guard", [PAT_DONTCARE] = "dontcare",
        [PAT_BAD] = "bad",
    };
    switch (x->kind) {
    case PAT_AND:
    case PAT_APP: {
        bool first = true;
        put(p, "(and ");
        put_conj(p, x, s, &first);
        put(p, ")");
        break;
    }
    case PAT_OR:
        put_items(p, "or", x, s);
        break;
    case PAT_MEMBER:
        buf_printf(p->out, "(%s ", x->memfn->u.sym.name);
        put_value(p, x->val->v);
        put_subj(p, s);
        put(p, ")");
        break;
    default:
        buf_printf(p->out, "(%s", name[x->kind]);
        if (x->val) {
            put(p, " ");
            put_value(p, x->val->v);
        }
        if (x->kind != PAT_GUARD)
            put_subj(p, s);
        put(p, ")");
    }
    memo_leave(p->m);
}

void dump_pat(struct memo_ctx *m, struct buf *out, const struct subj *root,
              const struct pat *const *pats, size_t n)
{
    struct dp p = {m, out, NULL, 0, 0, NULL, 0, 0, 1};
    (void)root;
    for (size_t i = 0; i < n; i++) {
        buf_printf(out, "clause %zu: ", i);
        put_pat(&p, pats[i], 0);
        put(&p, "\n");
    }
}

/* ---- decision DAGs ---------------------------------------------------- */

static size_t node_index(const struct dnode **all, size_t n, const struct dnode *x)
{
    for (size_t i = 0; i < n; i++)
        if (all[i] == x)
            return i;
    return n;
}

static void collect_temps(struct dp *p, const struct dnode *const *all, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct dnode *x = all[i];
        if (x->temp)
            add(p, &p->known, &p->n_known, &p->cap_known, x->temp->expr);
        const struct subj *t;
        for (uint32_t j = 0; (t = dtree_free_next(p->m, x, &j)); j++)
            add(p, &p->known, &p->n_known, &p->cap_known, t->expr);
    }
}

static void put_leaf(struct dp *p, const struct dnode *x)
{
    buf_printf(p->out, "clause %u [", x->clause);
    for (const struct memo_list *l = x->vars; l; l = l->cdr) {
        const struct vbind *b = (const struct vbind *)l->car;
        put_value(p, b->name->v);
        put(p, "=");
        put_value(p, b->s->expr);
        if (l->cdr)
            put(p, " ");
    }
    put(p, "]");
}

static void put_node(struct dp *p, const struct dnode **all, size_t n,
                     const struct dnode *x)
{
    struct value *form;
    switch (x->kind) {
    case DN_FAIL: put(p, "fail"); break;
    case DN_DONTCARE: put(p, "dontcare"); break;
    case DN_LEAF: put_leaf(p, x); break;
    case DN_TEST:
        form = emit_test_form(p->m, x->test, false);
        put(p, "if ");
        put_value(p, form ? form : p->m->L->nil);
        buf_printf(p->out, " then n%zu else n%zu", node_index(all, n, x->then),
                   node_index(all, n, x->els));
        break;
    case DN_USE:
        put(p, "use ");
        put_value(p, x->temp->expr);
        buf_printf(p->out, " -> n%zu", node_index(all, n, x->then));
        break;
    case DN_BIND:
        form = emit_test_form(p->m, x->test, false);
        put(p, "let ");
        put_value(p, x->temp->expr);
        put(p, " = ");
        put_value(p, form ? form : p->m->L->nil);
        buf_printf(p->out, " -> n%zu", node_index(all, n, x->then));
        break;
    }
}

/* The nodes of dag in dump order, its temporaries numbered. */
static const struct dnode **dump_nodes(struct dp *p, const struct subj *root,
                                       const struct dnode *dag, size_t *n)
{
    const struct dnode **all = dtree_visit(p->m, dag, n);
    collect_temps(p, all, *n);
    /* $0 is the root (as in pattern dumps); a copyable root shows as itself */
    temp_index(p, root->temp ? root->expr : p->m->L->t);
    return all;
}

void dump_dtree(struct memo_ctx *m, struct buf *out, const struct subj *root,
                const struct dnode *dag)
{
    struct dp p = {m, out, NULL, 0, 0, NULL, 0, 0, 1};
    size_t n;
    const struct dnode **all = dump_nodes(&p, root, dag, &n);
    for (size_t i = 0; i < n; i++) {
        buf_printf(out, "n%zu: ", i);
        put_node(&p, all, n, all[i]);
        put(&p, "\n");
    }
}

/* ---- Graphviz DOT ------------------------------------------------------ */

/* A DOT string: quotes and backslashes escaped, a newline as \n. */
static void put_dot_string(struct buf *out, const char *s)
{
    buf_putc(out, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            buf_putc(out, '\\');
        if (*s == '\n')
            buf_puts(out, "\\n");
        else
            buf_putc(out, *s);
    }
    buf_putc(out, '"');
}

/* The text of the value's print, temporaries as $N. */
static const char *value_text(struct dp *p, struct value *v)
{
    struct buf b;
    buf_init(&b, p->m->L->a);
    struct buf *keep = p->out;
    p->out = &b;
    put_value(p, v);
    p->out = keep;
    return buf_cstr(&b);
}

static const char *node_label(struct dp *p, const struct dnode *x, const char **cls)
{
    struct buf b;
    buf_init(&b, p->m->L->a);
    struct value *form;
    struct buf *keep = p->out;
    switch (x->kind) {
    case DN_FAIL: *cls = "fail"; return "no clause matches";
    case DN_DONTCARE: *cls = "fail"; return "(unchecked)";
    case DN_LEAF:
        *cls = "leaf";
        p->out = &b;
        put_leaf(p, x);
        p->out = keep;
        return buf_cstr(&b);
    case DN_TEST:
        *cls = "test";
        form = emit_test_form(p->m, x->test, false);
        return value_text(p, form ? form : p->m->L->nil);
    case DN_USE:
        *cls = "bind";
        buf_printf(&b, "use %s", value_text(p, x->temp->expr));
        return buf_cstr(&b);
    case DN_BIND:
        *cls = "bind";
        form = emit_test_form(p->m, x->test, false);
        buf_printf(&b, "%s = %s", value_text(p, x->temp->expr),
                   value_text(p, form ? form : p->m->L->nil));
        return buf_cstr(&b);
    }
    return "";
}

/* Past this many nodes Graphviz's dot spends minutes routing splines and
 * reordering ranks (a 327-node DAG of comp.el: 196 s of CPU); the graph
 * then asks for straight edges and bounded layout passes (about 1 s). */
#define DOT_LARGE 200

static const char *const dot_shape[] = {"box", "box", "ellipse", "octagon"};

static void dot_node(struct dp *p, const struct dnode **all, size_t n, size_t i,
                     const uint32_t *indeg)
{
    const char *cls = "test";
    const char *label = node_label(p, all[i], &cls);
    int shape = !strcmp(cls, "test") ? 0 : !strcmp(cls, "bind") ? 1
              : !strcmp(cls, "leaf") ? 2 : 3;
    buf_printf(p->out, "  n%zu [class=\"%s\", shape=%s%s, label=", i, cls, dot_shape[shape],
               shape == 1 ? ", style=dashed" : shape == 0 ? ", style=rounded" : "");
    if (indeg[i] > 1) {
        struct buf b;
        buf_init(&b, p->m->L->a);
        buf_printf(&b, "%s\n(shared: reached from %u places)", label, indeg[i]);
        put_dot_string(p->out, buf_cstr(&b));
        buf_puts(p->out, ", peripheries=2");
    } else {
        put_dot_string(p->out, label);
    }
    buf_puts(p->out, "];\n");
    const struct dnode *x = all[i];
    if (x->kind == DN_TEST) {
        buf_printf(p->out, "  n%zu -> n%zu [label=\"non-nil\"];\n", i, node_index(all, n, x->then));
        buf_printf(p->out, "  n%zu -> n%zu [label=\"nil\", style=dashed];\n", i,
                   node_index(all, n, x->els));
    } else if (x->kind == DN_BIND || x->kind == DN_USE) {
        buf_printf(p->out, "  n%zu -> n%zu;\n", i, node_index(all, n, x->then));
    }
}

void dump_dot(struct memo_ctx *m, struct buf *out, const struct subj *root,
              const struct dnode *dag)
{
    struct dp p = {m, out, NULL, 0, 0, NULL, 0, 0, 1};
    size_t n;
    const struct dnode **all = dump_nodes(&p, root, dag, &n);
    uint32_t *indeg = arena_zalloc(m->L->a, (n + 1) * sizeof *indeg);
    for (size_t i = 0; i < n; i++) {
        const struct dnode *x = all[i];
        if (x->kind == DN_TEST || x->kind == DN_BIND || x->kind == DN_USE)
            indeg[node_index(all, n, x->then)]++;
        if (x->kind == DN_TEST)
            indeg[node_index(all, n, x->els)]++;
    }
    buf_puts(out, "digraph dtree {\n  node [fontname=\"monospace\"];\n"
                  "  edge [fontname=\"monospace\"];\n");
    if (n > DOT_LARGE)
        buf_puts(out, "  graph [splines=line, nslimit=1, nslimit1=1, mclimit=0.1];\n");
    for (size_t i = 0; i < n; i++)
        dot_node(&p, all, n, i, indeg);
    buf_puts(out, "}\n");
}
