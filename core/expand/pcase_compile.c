/* pcase_compile.c - one pcase compilation: clauses -> DAG -> Lisp + warnings.
 *
 * Stage "expand" of the pcase front end, between the entry points
 * (pcase.c) and the match layer.  pcase_compile normalises every clause
 * pattern first (so pattern-macro errors in unreachable clauses are still
 * reported, as in Emacs; errors Emacs finds only while compiling wait for
 * the DAG to reach them),
 * builds the decision DAG (match/dtree), emits it (match/emit) and then
 * reports unreachable clauses and unused pattern variables.  The match
 * layer reaches the expander only through the hooks defined here.
 *
 * Functions, in order: pcase_diag, pcase_show, pcase_code and the hooks,
 * pcase_init, warnings (unreachable-clause, unused-variable), the steps
 * of a compilation, the scratch arena the compilations share, pcase_compile.
 */
#include "expand/pcase_int.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lisp/print.h"
#include "match/dump.h"
#include "match/explain.h"
#include "match/witness.h"

/* ---- diagnostics ------------------------------------------------------ */

/* A symbol has no text of its own (symbols are shared): its cell does. */
void pcase_diag(struct pcase_run *c, enum diag_severity sev, const struct value *v,
             const struct value *cell, const char *code, const char *fmt, ...)
{
    const struct value *at = v;
    if (!v || (v->kind == VK_SYMBOL && cell))
        at = cell;
    if (!at)
        at = c->site;
    va_list ap;
    va_start(ap, fmt);
    expand_diagv(c->x, sev, at, code, fmt, ap);
    va_end(ap);
    if (sev == DIAG_ERROR)
        c->failed = true;
}

const char *pcase_show(struct pcase_run *c, const struct value *v)
{
    struct buf b;
    buf_init(&b, c->L->a);
    struct print_opts o = print_opts_default();
    o.length = 12;
    o.level = 4;
    print_value(c->L, &b, v, &o);
    return buf_cstr(&b);
}

/* ---- hooks ------------------------------------------------------------ */

struct code_entry {
    struct memo_hdr h;
    struct value *form;      /* as written */
    struct value *expanded;  /* NULL: expansion failed */
};

static bool same_form(const void *obj, const void *arg)
{
    return ((const struct code_entry *)obj)->form == arg;
}

/* The table's hash of a form: its address.  Entries are found by
 * identity only (same_form) and nothing walks the table in slot order, so
 * the address decides probe lengths, never a result. */
static uint32_t form_hash(const struct value *form)
{
    uint64_t a = (uint64_t)(uintptr_t)form * 0x9e3779b97f4a7c15u;
    return (uint32_t)(a >> 32);
}

static struct memo_ctx *base_ctx(struct pcase_run *c);

/* Code is expanded once per form: a form emitted at several places (a
 * guard tested on two paths) shares its expansion and its diagnostics.
 * Most user code holds nothing to expand: it is its own expansion, and
 * needs no entry. */
struct value *pcase_code(struct pcase_run *c, struct value *form)
{
    if (form->kind != VK_CONS || expand_unchanged(c->x, form))
        return form;
    uint32_t h = form_hash(form);
    size_t hole;
    struct code_entry *e = memo_find_by(&c->code, h, same_form, form, &hole);
    if (!e) {
        e = ARENA_NEW(c->L->a, struct code_entry);
        e->form = form;
        e->expanded = expand_code_touched(c->x, form);
        struct memo_key k = {1, (uint32_t)c->code.n, {NULL, NULL, NULL, NULL}};
        memo_insert(base_ctx(c), &c->code, &k, h, e); /* expand_code may add */
    }
    if (!e->expanded)
        c->failed = true;
    return e->expanded;
}

static struct value *hook_code(void *ctx, struct value *form)
{
    return pcase_code(ctx, form);
}

static struct value *hook_gensym(void *ctx, const char *base)
{
    struct pcase_run *c = ctx;
    return expand_gensym(c->x, base);
}

/* Code carrying a user clause of the compilation: told to the expander,
 * for the printer (comments over their clauses). */
static void hook_carries(void *ctx, const struct value *code, uint32_t clause)
{
    struct pcase_run *c = ctx;
    if (clause < c->n_carried && c->carried[clause].user)
        expand_carries(c->x, code, c->carried[clause].form);
}

void pcase_init(struct pcase_run *c, struct expand_ctx *x, struct value *site)
{
    memset(c, 0, offsetof(struct pcase_run, base));
    c->describe = -1;
    c->no_match.status = WITNESS_NONE;
    c->x = x;
    c->L = x->L;
    c->site = site;
    c->code.first = 8; /* a form's few bodies and guards, in the run's arena */
    c->m = &c->base;
}

/* c->base, initialised on first use. */
static struct memo_ctx *base_ctx(struct pcase_run *c)
{
    if (!c->base_ready) {
        struct memo_hooks hooks = {hook_gensym, hook_code, c, NULL};
        memo_ctx_init(&c->base, c->L, &hooks, false, 0);
        c->base_ready = true;
    }
    return &c->base;
}

/* ---- warnings --------------------------------------------------------- */

/* Does p match every value (so later clauses it covers are shadowed)? */
static bool irrefutable(const struct pat *p)
{
    switch (p->kind) {
    case PAT_ANY:
    case PAT_VAR:
        return true;
    case PAT_APP:
        return irrefutable(p->sub);
    case PAT_AND:
        for (const struct memo_list *l = p->items; l; l = l->cdr)
            if (!irrefutable((const struct pat *)l->car))
                return false;
        return true;
    case PAT_OR:
        for (const struct memo_list *l = p->items; l; l = l->cdr)
            if (irrefutable((const struct pat *)l->car))
                return true;
        return false;
    default:
        return false;
    }
}

/* Is clause sub[k-1] reached when only the clauses sub[0..k) are compiled
 * (by a way some value can take)?  1 yes or maybe, 0 no, -1 unknown (the compilation failed: a bad pattern reached,
 * or a limit).  The match context is reused: its caches only grow. */
static int reached_after(struct memo_ctx *m, const struct subj *root,
                         const struct pat **sub, size_t k)
{
    const struct dnode *dag = dtree_build(m, root, sub, k);
    if (!dag) {
        m->bad = NULL;
        m->too_deep = false;
        return -1;
    }
    struct witness_result r;
    witness_find(m, dag, root, (long)(k - 1), false, &r);
    return r.status != WITNESS_NONE;
}

/* Clauses that can shadow: reached, and real (not the don't-care one). */
static size_t shadow_candidates(const struct pcase_clause *cl, size_t i,
                                const struct emit_info *info, size_t *out)
{
    size_t n = 0;
    for (size_t j = 0; j < i; j++)
        if (info[j].leaves && !cl[j].dontcare)
            out[n++] = j;
    return n;
}

enum { SHADOW_SEARCH_MAX = 16 }; /* candidates for the set search (quadratic) */

/* Shrink set[0..n) (clauses that together shadow clause i) to a minimal
 * subset that still does; returns its size, or 0 when unknown. */
static size_t minimal_shadow(struct memo_ctx *m, const struct subj *root,
                             const struct pcase_clause *cl, size_t i,
                             size_t *set, size_t n)
{
    const struct pat **sub = ARENA_NEWN(m->L->a, const struct pat *, n + 1);
    for (size_t drop = n; drop-- > 0;) {
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            if (j != drop)
                sub[k++] = cl[set[j]].pat;
        sub[k++] = cl[i].pat;
        int r = reached_after(m, root, sub, k);
        if (r < 0)
            return 0;
        if (r == 0) {
            memmove(set + drop, set + drop + 1, (n - drop - 1) * sizeof *set);
            n--;
        }
    }
    return n;
}

/* The clauses to blame for clause i being unreachable, into set (returns
 * how many): an earlier catch-all; else the first earlier clause that
 * shadows it alone; else a minimal set of earlier clauses that do so
 * together; else (too many to search) the nearest reached clause. */
static size_t shadowing(struct memo_ctx *m, const struct subj *root,
                        const struct pcase_clause *cl, size_t i,
                        const struct emit_info *info, size_t *set)
{
    size_t n = shadow_candidates(cl, i, info, set);
    for (size_t j = 0; j < n; j++)
        if (irrefutable(cl[set[j]].pat)) {
            set[0] = set[j];
            return 1;
        }
    const struct pat *pair[2] = {NULL, cl[i].pat};
    for (size_t j = 0; j < n; j++) {
        pair[0] = cl[set[j]].pat;
        if (reached_after(m, root, pair, 2) == 0) {
            set[0] = set[j];
            return 1;
        }
    }
    size_t k = n > 1 && n <= SHADOW_SEARCH_MAX ? minimal_shadow(m, root, cl, i, set, n) : 0;
    if (k > 1)
        return k;
    if (n)
        set[0] = set[n - 1];
    return n ? 1 : 0;
}

/* Which clauses some value can choose: not those the DAG has no leaf of,
 * nor those every way to whose leaves needs contradicting facts
 * (match/witness: a constant of a type an earlier test excluded, a pred
 * an earlier one implies, ...). */
static bool *reachable_clauses(struct pcase_run *c, struct memo_ctx *m, const struct dnode *dag,
                               const struct subj *root, const struct pcase_clause *cl, size_t n,
                               const struct emit_info *info)
{
    bool *r = ARENA_NEWN(c->L->a, bool, n + 1);
    bool *want = ARENA_NEWN(m->a, bool, n + 1); /* the clauses read below */
    for (size_t i = 0; i < n; i++)
        want[i] = info[i].leaves > 0 && !cl[i].dontwarn && !cl[i].dontcare;
    if (!witness_reach(m, dag, root, want, r, n))
        for (size_t i = 0; i < n; i++) /* not searched to the end: trust the DAG */
            r[i] = info[i].leaves > 0;
    return r;
}

/* Warn about every clause no value can choose, with the clauses that
 * take its values first; into sh (when not NULL) for --explain. */
static void warn_unreachable(struct pcase_run *c, struct memo_ctx *m, const struct dnode *dag,
                             const struct subj *root, const struct pcase_clause *cl, size_t n,
                             const struct emit_info *info, struct pcase_shadow *sh)
{
    size_t *set = NULL; /* made at the first unreachable clause */
    bool *reached = reachable_clauses(c, m, dag, root, cl, n, info);
    for (size_t i = 0; i < n; i++) {
        if (cl[i].dontwarn || cl[i].dontcare || reached[i])
            continue;
        if (!set)
            set = ARENA_NEWN(c->L->a, size_t, n + 1);
        pcase_diag(c, DIAG_WARNING, cl[i].form, cl[i].cell, "unreachable-clause",
                "this clause can never be reached");
        size_t k = shadowing(m, root, cl, i, info, set);
        for (size_t j = 0; j < k; j++)
            pcase_diag(c, DIAG_NOTE, cl[set[j]].form, cl[set[j]].cell, "unreachable-clause",
                    k == 1 ? "because this clause matches first"
                           : "because this clause matches some of its cases first");
        if (sh) {
            sh[i].unreachable = true;
            sh[i].by = ARENA_NEWN(c->L->a, uint32_t, k + 1);
            for (size_t j = 0; j < k; j++)
                sh[i].by[j] = (uint32_t)set[j];
            sh[i].n = k;
        }
    }
}

/* Variables of a clause whose use warn_unused looks for without taking
 * memory: most clauses bind a few. */
enum { UNUSED_SMALL = 8 };

/* Only the variables a warning would be given for are looked for: the
 * scan of the scope stops as soon as it has seen them all. */
static void warn_unused(struct pcase_run *c, const struct pcase_clause *cl)
{
    /* Inside cl-macrolet or cl-symbol-macrolet a body may read a
     * variable through a local macro's expansion, which pcexpand does
     * not see: no warning there rather than a false one. */
    if (!cl->scope || !cl->n_vars || expand_in_local_macros(c->x))
        return;
    struct value *look_small[UNUSED_SMALL], **look = look_small;
    size_t at_small[UNUSED_SMALL], *at = at_small, k = 0;
    bool found_small[UNUSED_SMALL], *found = found_small;
    if (cl->n_vars > UNUSED_SMALL) {
        look = ARENA_NEWN(c->m->a, struct value *, cl->n_vars);
        at = ARENA_NEWN(c->m->a, size_t, cl->n_vars);
        found = ARENA_NEWN(c->m->a, bool, cl->n_vars);
    }
    for (size_t j = 0; j < cl->n_vars; j++) {
        struct value *v = cl->vars[j];
        if (!cl->used[j] && v->u.sym.interned && v->u.sym.name[0] != '_') {
            look[k] = v;
            at[k++] = j;
        }
    }
    if (!k || pat_mentions(c->m, cl->scope, look, k, found) == k)
        return;
    for (size_t i = 0; i < k; i++)
        if (!found[i])
            pcase_diag(c, DIAG_WARNING, NULL, cl->var_cells[at[i]], "unused-variable",
                    "variable `%s' is bound by the pattern but never used",
                    look[i]->u.sym.name);
}

/* ---- compilation ------------------------------------------------------ */

static bool norm_all(struct pcase_run *c, struct pcase_clause *cl, size_t n,
                     const struct pat **pats)
{
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        if (cl[i].dontcare) {
            cl[i].pat = pat_dontcare(c->m);
            cl[i].n_vars = 0;
        } else if (!pcase_norm(c, &cl[i])) {
            ok = false;
        }
        pats[i] = cl[i].pat;
    }
    return ok;
}

/* The error for the PAT_BAD pattern the compiler reached, at its text. */
static void report_bad(struct pcase_run *c, const struct pat *p)
{
    const struct pcase_bad *b = c->bad;
    while (b && b->pat != p)
        b = b->next;
    const struct value *v = b ? b->v : p->val->v;
    const struct value *cell = b ? b->cell : NULL;
    if (p->kind == PAT_OR) {
        pcase_diag(c, DIAG_ERROR, v, cell, "malformed-pattern",
                "Please avoid it: (or) needs at least two alternatives");
        struct value *msg = value_string(c->L->a, "Please avoid it", 15, false);
        expand_set_signal(c->x, lisp_listv(c->L, INTERN_LIT(c->L, "error"), msg, NULL));
    } else
        pcase_diag(c, DIAG_ERROR, v, cell, "malformed-pattern",
                "Unknown pattern `%s'", pcase_show(c, p->val->v));
}

static void dump_section(struct pcase_run *c, const struct subj *root,
                         const struct pat **pats, size_t n,
                         const struct dnode *dag)
{
    if (c->n_dumps++)
        buf_puts(c->dump, "\n");
    if (c->dump_kind == PCASE_DUMP_PAT)
        dump_pat(c->m, c->dump, root, pats, n);
    else if (c->dump_kind == PCASE_DUMP_DOT)
        dump_dot(c->m, c->dump, root, dag);
    else
        dump_dtree(c->m, c->dump, root, dag);
}

static struct value *finish(struct pcase_run *c, struct memo_ctx *m, struct value *form)
{
    c->x->stats.memo_hits += m->hits;
    c->x->stats.memo_misses += m->misses;
    c->m = &c->base;
    c->bad = NULL; /* it points into the compilation's objects */
    return form;
}

/* The root subject: a copyable subject is read again at each test; any
 * other is expanded and bound to a `val` temporary (*expanded). */
static const struct subj *root_subject(struct pcase_run *c, struct memo_ctx *m,
                                       struct value *subject, bool user,
                                       struct value **expanded)
{
    *expanded = NULL;
    if (pcase_copyable(c, subject))
        return mtree_root(m, subject, false);
    *expanded = user ? pcase_code(c, subject) : subject;
    return *expanded ? mtree_root(m, expand_gensym(c->x, "val"), true) : NULL;
}

static struct value *emit_dag(struct pcase_run *c, struct memo_ctx *m,
                              const struct dnode *dag, const struct subj *root,
                              struct value *expanded, struct pcase_clause *cl,
                              size_t n, struct emit_info *info)
{
    /* read by emit_form only: the compilation's memory */
    struct emit_clause *ec = ARENA_NEWN(m->a, struct emit_clause, n + 1);
    for (size_t i = 0; i < n; i++)
        ec[i] = (struct emit_clause){cl[i].kind, cl[i].body, cl[i].user,
                                     cl[i].vars, cl[i].n_vars, cl[i].used};
    struct value *form = emit_form(m, dag, root, expanded, ec, n, info);
    if (!form && m->too_deep)
        pcase_diag(c, DIAG_ERROR, c->site, NULL, "nesting-too-deep",
                "pattern too deeply nested to emit");
    return form;
}

/* The head of the form being expanded, to name it in a limit's error. */
static const char *site_head(const struct pcase_run *c)
{
    const struct value *h = c->site && c->site->kind == VK_CONS ? value_car(c->site) : NULL;
    return h && h->kind == VK_SYMBOL ? h->u.sym.name : "pcase";
}

/* The objects a compilation makes, per object its patterns made: 4 to 7
 * in most compilations.  Making room for them at once spares the unique
 * table the rehashing (and zeroing) of each doubling on the way. */
enum { OBJECTS_PER_PATTERN_OBJECT = 5 };

/* One compilation in context m (its objects in m->a). */
static struct value *compile(struct pcase_run *c, struct memo_ctx *m, struct value *subject,
                             bool subject_user, struct pcase_clause *cl, size_t n,
                             struct emit_info *info)
{
    c->m = m;
    c->bad = NULL;
    const struct pat **pats = ARENA_NEWN(m->a, const struct pat *, n + 1);
    struct value *expanded;
    const struct subj *root;
    if (!norm_all(c, cl, n, pats) ||
        !(root = root_subject(c, m, subject, subject_user, &expanded)))
        return finish(c, m, NULL);
    memo_reserve(m, &m->unique, m->unique.n * OBJECTS_PER_PATTERN_OBJECT);
    for (size_t i = 0; i < n; i++) /* pcase-setq: see emit's setq order */
        m->ordered_leaves |= cl[i].kind == EMIT_SETQ;
    const struct dnode *dag = dtree_build(m, root, pats, n);
    if (!dag) {
        if (m->bad)
            report_bad(c, m->bad);
        else if (m->too_deep)
            pcase_diag(c, DIAG_ERROR, c->site, NULL, "nesting-too-deep",
                    "%s form too large to compile: more clauses, decision states "
                    "or pattern nesting than the limits allow", site_head(c));
        return finish(c, m, NULL);
    }
    if (!info)
        info = ARENA_NEWN(m->a, struct emit_info, n + 1);
    struct value *form = emit_dag(c, m, dag, root, expanded, cl, n, info);
    if (!form)
        return finish(c, m, NULL);
    if (c->dump)
        dump_section(c, root, pats, n, dag);
    if (c->describe >= 0 && (size_t)c->describe < n && info[c->describe].leaves) {
        witness_find(m, dag, root, c->describe, true, &c->no_match);
        for (size_t i = 0; i < c->no_match.n_blockers; i++) /* as the user reads them */
            c->no_match.blockers[i] = explain_spell(m, dag, c->no_match.blockers[i]);
    }
    struct pcase_shadow *sh = c->explain ? arena_zalloc(c->L->a, (n + 1) * sizeof *sh) : NULL;
    warn_unreachable(c, m, dag, root, cl, n, info, sh);
    if (c->explain)
        pcase_explain_section(c, m, root, subject, cl, n, dag, sh);
    for (size_t i = 0; i < n; i++)
        warn_unused(c, &cl[i]);
    return finish(c, m, form);
}

/* ---- the compilations' scratch arena ---------------------------------- */

/* The compilation's own objects (patterns, match trees, the DAG, the memo
 * tables: most of the memory a compilation takes) live in a scratch arena
 * released to its mark when the compilation ends, so a file's memory grows
 * with its output only.  One scratch arena serves every compilation of an
 * expander (nested ones above the outer one's objects), so a compilation
 * makes and frees no arena.  Its pages are blocks of the run's arena, each
 * with its size before it: a page given back is kept as the spare when it
 * is the largest yet, and the next page asked for is the spare, so a run
 * keeps at most the pages of its largest compilation, about twice over. */
struct pcase_scratch {
    struct arena *main;   /* the run's arena, where the pages come from */
    struct arena *a;      /* the scratch arena */
    char *spare;          /* a page given back (its size block), or NULL */
    size_t spare_n;       /* its bytes */
};

/* Room for a page's size before it, keeping the page aligned. */
#define PAGE_HEAD ARENA_ALIGN

static void *scratch_alloc(void *ctx, size_t n)
{
    struct pcase_scratch *s = ctx;
    if (s->spare && s->spare_n >= n) {
        char *p = s->spare;
        s->spare = NULL;
        s->spare_n = 0;
        return p + PAGE_HEAD;
    }
    char *p = arena_alloc(s->main, n + PAGE_HEAD); /* out of memory: jumps */
    *(size_t *)p = n;
    return p + PAGE_HEAD;
}

/* A page the scratch arena gives back: kept when the largest yet (the
 * others stay in the run's arena, which releases them with the run). */
static void scratch_free(void *ctx, void *page)
{
    struct pcase_scratch *s = ctx;
    char *p = (char *)page - PAGE_HEAD;
    size_t n = *(size_t *)p;
    if (n > s->spare_n) {
        s->spare = p;
        s->spare_n = n;
        /* the next page asked for is the spare (less than its bytes
         * by more than a page's header) */
        s->a->next_page = n > 4 * PAGE_HEAD ? n - 4 * PAGE_HEAD : 0;
    }
}

/* The expander's scratch arena, made in the run's arena on first use
 * (the expander lives there too). */
static struct arena *scratch_arena(struct pcase_run *c)
{
    struct pcase_scratch *s = c->x->scratch;
    struct arena *main = c->L->a;
    if (!s) {
        s = ARENA_NEW(main, struct pcase_scratch);
        s->main = main;
        struct arena_backing b = {scratch_alloc, scratch_free, s};
        s->a = arena_new(&b); /* from main: never NULL */
        /* its first page: a release to a mark inside it keeps the page */
        (void)arena_alloc(s->a, 1);
        c->x->scratch = s;
    }
    return s->a;
}

/* Out of memory needs no handler here: the scratch arena's pages are the
 * run's memory, which the run's handler gives back whole, so the scratch
 * arena jumps where the run's arena does. */
struct value *pcase_compile(struct pcase_run *c, struct value *subject, bool subject_user,
                         struct pcase_clause *cl, size_t n, struct emit_info *info)
{
    struct memo_ctx m;
    struct memo_hooks hooks = {hook_gensym, hook_code, c,
                               c->carried ? hook_carries : NULL};
    int depth = c->x->max_depth > 0 ? c->x->max_depth * 4 : 0;
    memo_ctx_init(&m, c->L, &hooks, c->x->memo, depth > 8000 || !depth ? 8000 : depth);
    /* most compilations make a few hundred objects: room for the ones of
     * patterns of up to 51 objects (compile's memo_reserve) without a
     * rehash, and for all of nineteen compilations in twenty; 2 KiB of
     * hashes to zero (a larger table is zeroed by a slower path) */
    m.unique.first = 512;
    struct arena *scratch = scratch_arena(c);
    arena_on_oom(scratch, c->L->a->oom);
    struct arena_mark mark = arena_mark(scratch);
    m.a = scratch;
    struct value *form = compile(c, &m, subject, subject_user, cl, n, info);
    arena_release(scratch, mark);
    return form;
}
