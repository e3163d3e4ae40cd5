/* expand.c - the expansion driver: walk code positions, dispatch on heads.
 *
 * Stage "walk + expand" (cli.md section 3).  In order: the head table
 * (eight heads -> front end, sorted), the copy -> original map that keeps
 * rebuilt forms traceable to their text, the walker callback (expand a
 * selected head, keep an unselected one and look inside it, replace a
 * stray cond* keyword by nil), the look through code that finds it
 * needs no walk (no list starting with a head symbol in it), the prefetch
 * of a top-level form's memory, the public entry points expand_init /
 * expand_form / expand_code, temporaries, and diagnostics with a span.
 *
 * Nesting: a front end expands the user code it copies with expand_code,
 * so the driver is re-entered; only sites met at nesting level 0 are
 * recorded in x->sites (the outermost replaced forms).
 */
#include "expand/expand.h"

#include <stdarg.h>
#include <string.h>

#include "expand/condstar.h"
#include "expand/ert.h"
#include "expand/gensym.h"
#include "expand/learn.h"
#include "expand/pcase.h"
#include "expand/pcase_macros.h"
#include "lisp/print.h"
#include "syntax/walk.h"

/* Default of x->max_depth: nested expansions plus the front ends'
 * recursive passes share it.  Emacs's own sources nest 29 levels. */
#define EXPAND_MAX_DEPTH 1000

typedef struct value *(*front_end_fn)(struct expand_ctx *x, struct value *form);

struct head_row {
    const char *name;
    unsigned bit;     /* EXPAND_HEAD_* */
    front_end_fn fn;
};

/* The eight heads, sorted by strcmp (test_expand checks it). */
static const struct head_row head_rows[] = {
    {"cond*", EXPAND_HEAD_COND_STAR, condstar_expand},
    {"pcase", EXPAND_HEAD_PCASE, pcase_expand},
    {"pcase-dolist", EXPAND_HEAD_PCASE_DOLIST, pcase_expand},
    {"pcase-exhaustive", EXPAND_HEAD_PCASE_EXHAUSTIVE, pcase_expand},
    {"pcase-lambda", EXPAND_HEAD_PCASE_LAMBDA, pcase_expand},
    {"pcase-let", EXPAND_HEAD_PCASE_LET, pcase_expand},
    {"pcase-let*", EXPAND_HEAD_PCASE_LET_STAR, pcase_expand},
    {"pcase-setq", EXPAND_HEAD_PCASE_SETQ, pcase_expand},
};

/* cond* clause keywords: macros expanding to nil outside a condition. */
static const char *const stray_keywords[] = {"bind*", "bind-and*", "match*", "pcase*"};

/* ERT's assertions, which expand their form themselves and turn an
 * expansion error into a run-time signal (ert.c).  skip-when and
 * skip-unless are local macros of ert-deftest bodies. */
static const char *const ert_heads[] = {
    "ert--skip-unless", "ert--skip-when", "should", "should-error",
    "should-not", "skip-unless", "skip-when",
};

#define COUNT(t) (sizeof(t) / sizeof((t)[0]))

static const struct head_row *find_head(const char *name)
{
    size_t lo = 0, hi = COUNT(head_rows);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(name, head_rows[mid].name);
        if (c == 0)
            return &head_rows[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* Do name and t start with the same two bytes?  t is never empty, so
 * name[1] is only read when name[0] is not its terminator. */
static bool same_start(const char *name, const char *t)
{
    return name[0] == t[0] && name[1] == t[1];
}

/* Could name be in either table, judging by its first two bytes?  Most
 * symbols are ruled out here without a string comparison
 * (expand_check_tables verifies that every name of the tables passes). */
static bool head_start(const char *name)
{
    switch (name[0]) {
    case 'p': return name[1] == 'c';
    case 'c': return name[1] == 'o';
    case 'b': return name[1] == 'i';
    case 'm': return name[1] == 'a';
    case 's': return name[1] == 'h' || name[1] == 'k';
    case 'e': return name[1] == 'r';
    default: return false;
    }
}

/* What a head symbol is to the driver, cached on the symbol
 * (value_sym_row): a row of head_rows, STRAY_ROW for a cond* keyword,
 * ERT_ROW for an ERT assertion, or -1.  Asked once for every symbol in a
 * car position (untouched). */
#define STRAY_ROW ((int)COUNT(head_rows))
#define ERT_ROW (STRAY_ROW + 1)

static int classify_head(const char *name)
{
    if (!head_start(name))
        return -1;
    for (size_t i = 0; i < COUNT(head_rows); i++)
        if (same_start(name, head_rows[i].name) && strcmp(name, head_rows[i].name) == 0)
            return (int)i;
    for (size_t i = 0; i < COUNT(stray_keywords); i++)
        if (same_start(name, stray_keywords[i]) && strcmp(name, stray_keywords[i]) == 0)
            return STRAY_ROW;
    for (size_t i = 0; i < COUNT(ert_heads); i++)
        if (same_start(name, ert_heads[i]) && strcmp(name, ert_heads[i]) == 0)
            return ERT_ROW;
    return -1;
}

long expand_check_tables(void)
{
    for (size_t i = 1; i < COUNT(head_rows); i++)
        if (strcmp(head_rows[i - 1].name, head_rows[i].name) >= 0)
            return (long)i;
    for (size_t i = 0; i < COUNT(head_rows); i++)
        if (!head_start(head_rows[i].name))
            return 100 + (long)i;
    for (size_t i = 0; i < COUNT(stray_keywords); i++)
        if (!head_start(stray_keywords[i]))
            return 200 + (long)i;
    for (size_t i = 0; i < COUNT(ert_heads); i++)
        if (!head_start(ert_heads[i]) ||
            (i > 0 && strcmp(ert_heads[i - 1], ert_heads[i]) >= 0))
            return 300 + (long)i;
    return -1;
}

int expand_head_bit(const char *name)
{
    const struct head_row *r = find_head(name);
    return r ? (int)r->bit : 0;
}

unsigned expand_head_of(const struct value *sym)
{
    if (!value_symbolp(sym))
        return 0;
    int k = value_sym_row(sym, VALUE_ROW_EXPAND, classify_head);
    return k >= 0 && k < STRAY_ROW ? head_rows[k].bit : 0;
}

/* ---- driver state ---- */

/* A map between values by address (open addressing).  Only looked up,
 * never walked, so addresses decide no output. */
struct ptrmap {
    const struct value **key, **val;
    size_t cap, n;
};

struct priv {
    struct gensym *g;               /* temporaries of the run */
    int nest;                       /* > 0 while a front end runs */
    const struct value *form;       /* current top-level form */
    const struct value *site;       /* outermost form being expanded */
    const struct value *target;     /* expand only this form (NULL: all) */
    struct value **found;           /* expand_list_forms: forms seen */
    size_t n_found, cap_found;
    bool listing;                   /* walking for expand_list_forms */
    struct ptrmap alias;            /* copy -> original */
    struct ptrmap carriers;         /* code -> the clause it carries, and a
                                       carried clause -> itself */
    struct ptrmap riders;           /* clause -> the next in its chain of
                                       riders (expand_rides) */
    /* The walkers' frame stacks, reused: one per nesting of walks (user
     * code inside a pattern form is walked inside the outer walk), so
     * nested walks do not each grow a fresh stack. */
    void *walk_spare[16];
    size_t walk_spare_cap[16];
    unsigned walk_depth;            /* walks in progress */
    unsigned inline_quote;          /* inline-quote templates around the walk */
    unsigned local_macros;          /* cl-macrolet and kin around the walk */
    struct value **scan;            /* untouched()'s stack, reused */
    size_t scan_cap;
    uintptr_t prev_top;             /* previous top-level form (prefetch) */
    uintptr_t prefetched;           /* end of the bytes asked for so far */
};

static struct priv *priv_of(const struct expand_ctx *x) { return x->priv; }

static size_t hash_ptr(const void *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return (size_t)h;
}

static size_t ptrmap_slot(const struct ptrmap *m, const struct value *k)
{
    size_t j = hash_ptr(k) & (m->cap - 1);
    while (m->key[j] && m->key[j] != k)
        j = (j + 1) & (m->cap - 1);
    return j;
}

static void ptrmap_put(struct arena *a, struct ptrmap *m, const struct value *k,
                       const struct value *v)
{
    if ((m->n + 1) * 2 > m->cap) {
        const struct value **ok = m->key, **ov = m->val;
        size_t oc = m->cap;
        m->cap = oc ? oc * 2 : 256;
        m->key = arena_zalloc(a, m->cap * sizeof *m->key);
        m->val = arena_zalloc(a, m->cap * sizeof *m->val);
        for (size_t i = 0; i < oc; i++)
            if (ok[i]) {
                size_t j = ptrmap_slot(m, ok[i]);
                m->key[j] = ok[i];
                m->val[j] = ov[i];
            }
    }
    size_t j = ptrmap_slot(m, k);
    if (!m->key[j])
        m->n++;
    m->key[j] = k;
    m->val[j] = v;
}

/* The value of key k, or NULL. */
static const struct value *ptrmap_get(const struct ptrmap *m, const struct value *k)
{
    if (!m->cap || !k)
        return NULL;
    size_t j = ptrmap_slot(m, k);
    return m->key[j] ? m->val[j] : NULL;
}

const struct value *expand_origin(const struct expand_ctx *x,
                                  const struct value *v)
{
    const struct priv *p = priv_of(x);
    for (int hops = 0; hops < 64; hops++) {
        const struct value *o = ptrmap_get(&p->alias, v);
        if (!o)
            break;
        v = o;
    }
    return v;
}

/* The walker copied orig because a nested form inside it was replaced:
 * remember that the copy stands for orig (comments attached to orig must
 * find it; diagnostics at it need its text). */
static void on_rebuilt(struct walker *w, struct value *orig, struct value *copy)
{
    struct expand_ctx *x = w->ctx;
    ptrmap_put(x->L->a, &priv_of(x)->alias, copy, orig);
}

struct gensym *expand_gensyms(struct expand_ctx *x) { return priv_of(x)->g; }

/* ---- sites ---- */

static void add_site(struct expand_ctx *x, struct value *orig,
                     struct value *expansion, const char *head)
{
    if (x->n_sites == x->cap_sites) {
        size_t cap = x->cap_sites ? x->cap_sites * 2 : 8;
        x->sites = arena_grow(x->L->a, x->sites, x->cap_sites * sizeof *x->sites,
                              cap * sizeof *x->sites);
        x->cap_sites = cap;
    }
    x->sites[x->n_sites++] = (struct expand_site){orig, expansion, head};
    x->stats.forms++;
}

/* ---- the walker callback ---- */

static void note_found(struct expand_ctx *x, struct value *form)
{
    struct priv *p = priv_of(x);
    if (p->n_found == p->cap_found) {
        size_t cap = p->cap_found ? p->cap_found * 2 : 8;
        p->found = arena_grow(x->L->a, p->found, p->cap_found * sizeof *p->found,
                              cap * sizeof *p->found);
        p->cap_found = cap;
    }
    p->found[p->n_found++] = form;
}

static bool selected(const struct expand_ctx *x, unsigned bit)
{
    return x->heads == 0 || (x->heads & bit) != 0;
}

/* Depth guard shared with the front ends. */
static bool enter(struct expand_ctx *x, const struct value *at)
{
    if (++x->depth <= x->max_depth)
        return true;
    x->depth--;
    expand_diag(x, DIAG_ERROR, at, "nesting-too-deep",
                "nesting too deep (more than %d levels of expansion)",
                x->max_depth);
    return false;
}

/* Run the front end of row on form; records the site at level 0.  A
 * front end that fails must have said why; if it did not, an internal
 * error is recorded so that no form fails silently. */
static struct value *expand_site(struct expand_ctx *x, const struct head_row *row,
                                 struct value *form)
{
    struct priv *p = priv_of(x);
    size_t errors = x->diags->n_errors;
    if (!enter(x, form))
        return NULL;
    const struct value *outer = p->site;
    if (p->nest++ == 0)
        p->site = form;
    struct value *r = row->fn(x, form);
    p->nest--;
    x->depth--;
    if (!r && x->diags->n_errors == errors)
        expand_diag(x, DIAG_ERROR, form, "internal",
                    "expanding %s failed without a diagnostic", row->name);
    if (r && p->nest == 0)
        add_site(x, form, r, row->name);
    if (p->nest == 0)
        p->site = outer;
    return r;
}

/* The row of head_rows of form's head, or NULL (another head, a stray
 * cond* keyword).  An uninterned symbol in head position (#:pcase) is
 * not the macro. */
static const struct head_row *row_of(const struct value *form)
{
    const struct value *h = value_car(form);
    if (!value_symbolp(h) || !h->u.sym.interned)
        return NULL;
    int k = value_sym_row(h, VALUE_ROW_EXPAND, classify_head);
    return k >= 0 && k < STRAY_ROW ? &head_rows[k] : NULL;
}

/* Is form (headed by row's head) expanded where it is met?  Not when
 * listing (--at), when its head is not selected, or when another form is
 * the target. */
static bool expanded_here(const struct expand_ctx *x, const struct head_row *row,
                          const struct value *form)
{
    const struct priv *p = priv_of(x);
    return !p->listing && selected(x, row->bit) &&
           !(p->target && p->nest == 0 && form != p->target);
}

/* A stray cond* keyword in head position: nil, with a warning. */
static enum walk_status stray(struct walker *w, struct value *form)
{
    struct expand_ctx *x = w->ctx;
    const struct priv *p = priv_of(x);
    if (!selected(x, EXPAND_HEAD_COND_STAR) || p->listing || (p->target && p->nest == 0))
        return WALK_CONTINUE;
    const char *name = value_car(form)->u.sym.name;
    expand_diag(x, DIAG_WARNING, form, "cond-star-keyword-outside",
                "%s outside a cond* condition is nil", name);
    if (p->nest == 0)
        add_site(x, form, x->L->nil, name);
    w->replacement = x->L->nil;
    return WALK_PRUNE;
}

/* Is h the symbol inline-quote? */
static bool inline_quote_head(const struct value *h)
{
    return value_symbolp(h) && h->u.sym.len == 12 && h->u.sym.interned &&
           memcmp(h->u.sym.name, "inline-quote", 12) == 0;
}

/* Does h define local macros (cl-macrolet, cl-symbol-macrolet)?  Code in
 * them may use a variable through a macro pcexpand does not expand. */
static bool local_macro_head(const struct value *h)
{
    return value_symbolp(h) && h->u.sym.interned && h->u.sym.len >= 11 &&
           (strcmp(h->u.sym.name, "cl-macrolet") == 0 ||
            strcmp(h->u.sym.name, "cl-symbol-macrolet") == 0);
}

/* Is h the symbol rx-let?  Length first: most heads differ there. */
static bool rx_let_head(const struct value *h)
{
    return value_symbolp(h) && h->u.sym.len == 6 && h->u.sym.interned &&
           memcmp(h->u.sym.name, "rx-let", 6) == 0;
}

/* (rx-let BINDINGS BODY...): rx patterns in BODY see the definitions (as
 * Emacs expands BODY with them in the macro environment) until the walker
 * leaves the form (leave_scope).  Bad bindings are Emacs's error, and the
 * form is kept as written (Emacs expands nothing in it). */
static enum walk_status rx_let(struct walker *w, struct value *form)
{
    struct expand_ctx *x = w->ctx;
    struct value *rest = value_cdr(form);
    struct rx_error err;
    if (rx_env_push_let(pcase_macros_rx_env(x),
                        value_consp(rest) ? value_car(rest) : x->L->nil, &err))
        return WALK_SCOPE;
    expand_diag(x, DIAG_ERROR, err.at ? err.at : form, "malformed-pattern", "%s",
                err.message);
    return WALK_PRUNE;
}

static void leave_scope(struct walker *w, struct value *form)
{
    const struct value *h = value_car(form);
    if (inline_quote_head(h))
        priv_of(w->ctx)->inline_quote--;
    else if (local_macro_head(h))
        priv_of(w->ctx)->local_macros--;
    else
        rx_env_pop(pcase_macros_rx_env(w->ctx));
}

bool expand_in_local_macros(const struct expand_ctx *x)
{
    return priv_of(x)->local_macros > 0;
}

/* ---- forms inside inline-quote ----
 *
 * define-inline's (inline-quote FORM) is code in the function it defines
 * and a template where the function is inlined: every `,X` and `,@X` in
 * FORM, at any depth (inline-quote does not count backquote levels), is
 * filled in there with the argument's code.  A pcase-family or cond* form
 * whose `,` holes stand in code (its subject, bodies) expands the same
 * before or after they are filled; one with a hole in a pattern or in the
 * clause structure means what the filled-in text will say, so it is kept
 * as written. */

/* Does the tree v hold the symbol , or ,@?  An explicit stack: patterns
 * may nest as deep as the reader allows. */
static bool has_hole(struct expand_ctx *x, struct value *v)
{
    const struct lisp *L = x->L;
    struct value *local[64], **st = local;
    size_t n = 0, cap = 64;
    for (;;) {
        if (v == L->comma || v == L->comma_at)
            return true;
        if (value_consp(v)) {
            if (n == cap) {
                struct value **grown = arena_alloc(x->L->a, 2 * cap * sizeof *grown);
                memcpy(grown, st, n * sizeof *grown);
                st = grown;
                cap *= 2;
            }
            st[n++] = value_cdr(v);
            v = value_car(v);
            continue;
        }
        if (n == 0)
            return false;
        v = st[--n];
    }
}

static bool is_hole_form(const struct lisp *L, const struct value *v)
{
    return value_consp(v) && (value_car(v) == L->comma || value_car(v) == L->comma_at);
}

/* Has each element of list l (a clause, binding...) its pattern part free
 * of holes, and is no element itself a hole?  pat: the part to look at. */
static bool items_hole_free(struct expand_ctx *x, struct value *l, bool whole)
{
    if (is_hole_form(x->L, l))
        return false;
    for (; value_consp(l); l = value_cdr(l)) {
        struct value *it = value_car(l);
        if (is_hole_form(x->L, it) ||
            (value_consp(it) && has_hole(x, whole ? it : value_car(it))))
            return false;
    }
    return !has_hole(x, l); /* a dotted tail */
}

/* Is there a hole of the template in a place of form that is not code? */
static bool hole_outside_code(struct expand_ctx *x, const struct head_row *row,
                              struct value *form)
{
    struct value *args = value_cdr(form);
    struct value *first = value_consp(args) ? value_car(args) : x->L->nil;
    struct value *rest = value_consp(args) ? value_cdr(args) : x->L->nil;
    switch (row->bit) {
    case EXPAND_HEAD_PCASE:
    case EXPAND_HEAD_PCASE_EXHAUSTIVE: /* clause patterns */
        return !items_hole_free(x, rest, false);
    case EXPAND_HEAD_COND_STAR: /* conditions hold the match* patterns */
        return !items_hole_free(x, args, false);
    case EXPAND_HEAD_PCASE_LET:
    case EXPAND_HEAD_PCASE_LET_STAR: /* binding patterns */
        return !items_hole_free(x, first, false);
    case EXPAND_HEAD_PCASE_DOLIST:
        return is_hole_form(x->L, first) ||
               (value_consp(first) && has_hole(x, value_car(first)));
    case EXPAND_HEAD_PCASE_LAMBDA: /* the argument list */
        return has_hole(x, first);
    default: /* pcase-setq: every other argument a pattern */
        for (bool pat = true; value_consp(args); args = value_cdr(args), pat = !pat)
            if (is_hole_form(x->L, value_car(args)) || (pat && has_hole(x, value_car(args))))
                return true;
        return has_hole(x, args);
    }
}

/* The walker's callback: every cons in a code position comes here,
 * outermost first. */
static enum walk_status visit(struct walker *w, struct value *form)
{
    struct expand_ctx *x = w->ctx;
    const struct head_row *row = row_of(form);
    if (!row) {
        const struct value *h = value_car(form);
        if (rx_let_head(h))
            return rx_let(w, form);
        if (inline_quote_head(h)) {
            priv_of(x)->inline_quote++;
            return WALK_SCOPE; /* its form is walked as code */
        }
        if (local_macro_head(h)) {
            priv_of(x)->local_macros++;
            return WALK_SCOPE;
        }
        int k = value_symbolp(h) && h->u.sym.interned
                    ? value_sym_row(h, VALUE_ROW_EXPAND, classify_head) : -1;
        if (k == STRAY_ROW)
            return stray(w, form);
        if (k == ERT_ROW && !priv_of(x)->listing && !priv_of(x)->target)
            return ert_assertion(x, form, &w->replacement);
        return WALK_CONTINUE;
    }
    if (priv_of(x)->listing) {
        if (selected(x, row->bit))
            note_found(x, form);
        return WALK_CONTINUE;
    }
    if (!expanded_here(x, row, form))
        return WALK_CONTINUE; /* kept as written; look inside */
    if (priv_of(x)->inline_quote && hole_outside_code(x, row, form)) {
        expand_diag(x, DIAG_NOTE, form, "inline-template",
                    "%s kept as written: inside inline-quote, a `,' in its "
                    "patterns or clauses is filled in where the function is "
                    "inlined", row->name);
        return WALK_CONTINUE;
    }
    /* a form that fails is kept as written (no replacement) and the walk
     * goes on: the forms after it are expanded and report their errors */
    w->replacement = expand_site(x, row, form);
    return WALK_PRUNE;
}

/* ---- code a walk cannot change ---- */

/* untouched() gives up after this many conses and vectors: a circular
 * list never ends, and a larger tree is simply walked.  Below the
 * walker's own frame limit, so a tree it accepts cannot be too deep. */
#define SCAN_BUDGET 65536

/* Is h a symbol visit acts on (a head of head_rows or a stray keyword)?
 * Most symbols were looked up already and are in neither table: that
 * cached answer is tested first.  A symbol met for the first time is
 * mostly ruled out by its first bytes, here, where the cache gets the
 * answer classify_head would have given (not in the tables). */
static bool acted_on(const struct value *h)
{
    uint8_t cached = h->u.sym.row[VALUE_ROW_EXPAND];
    if (cached == VALUE_ROW_NONE)
        return false;
    if (cached == 0 && !head_start(h->u.sym.name)) {
        ((struct value *)h)->u.sym.row[VALUE_ROW_EXPAND] = VALUE_ROW_NONE;
        return false;
    }
    if (!h->u.sym.interned)
        return false;
    int k = value_sym_row(h, VALUE_ROW_EXPAND, classify_head);
    return k >= 0 && k <= STRAY_ROW; /* an ERT assertion alone changes nothing */
}

/* Room for one more entry on untouched()'s stack. */
static struct value **scan_grow(struct arena *a, struct priv *p)
{
    size_t cap = p->scan_cap ? p->scan_cap * 2 : 256;
    p->scan = arena_grow(a, p->scan, p->scan_cap * sizeof *p->scan,
                         cap * sizeof *p->scan);
    p->scan_cap = cap;
    return p->scan;
}

/* Does the walker enter v (a list or a vector)? */
static bool nested(const struct value *v)
{
    return value_consp(v) || value_is(v, VK_VECTOR);
}

/* untouched()'s work: the lists and vectors still to look through. */
struct scan {
    struct value **stack;
    size_t n, cap;
};

static inline void scan_push(struct arena *a, struct priv *p, struct scan *s,
                             struct value *v)
{
    if (s->n == s->cap) {
        s->stack = scan_grow(a, p);
        s->cap = p->scan_cap;
    }
    s->stack[s->n++] = v;
}

/* Can walking code change nothing and say nothing?  visit acts only on a
 * cons whose car is a head symbol, and the walker hands it only the
 * forms it meets as elements (cars of conses, vector items) or code
 * itself: never a cons further down a list.  So when no list reachable
 * through cars, cdrs and vector items starts with such a symbol, the walk
 * would return code itself without a diagnostic.  Most user code inside a
 * pcase has no nested pcase: this look costs a few instructions a cons
 * where the walk costs dozens.  A list's last element, when it is a list
 * or a vector, is looked at next without going on the stack (code mostly
 * ends in a form). */
static bool untouched(struct arena *a, struct priv *p, struct value *code)
{
    struct scan s = {p->scan, 0, p->scan_cap};
    size_t budget = SCAN_BUDGET;
    for (struct value *v = code;;) {
        if (value_consp(v)) {
            struct value *h = value_car(v);
            if (value_symbolp(h) && acted_on(h))
                return false;
            for (struct value *d;; v = d, h = value_car(v)) {
                if (budget-- == 0)
                    return false;
                d = value_cdr(v);
                if (!value_consp(d)) {
                    if (value_is(d, VK_VECTOR))
                        scan_push(a, p, &s, d);
                    break;
                }
                if (nested(h))
                    scan_push(a, p, &s, h);
            }
            if (nested(h)) {
                v = h;
                continue;
            }
        } else if (value_is(v, VK_VECTOR)) {
            if (budget-- == 0)
                return false;
            for (size_t i = 0; i < v->u.vec.n; i++)
                if (nested(v->u.vec.items[i]))
                    scan_push(a, p, &s, v->u.vec.items[i]);
        }
        if (s.n == 0)
            return true;
        v = s.stack[--s.n];
    }
}

/* Walk code that untouched() did not rule out; on a depth overflow of
 * the walker itself, record it. */
static struct value *walk_touched(struct expand_ctx *x, struct value *code)
{
    struct walker w;
    struct priv *p = priv_of(x);
    /* code that is itself a form to expand (the usual top-level form, a
     * body form that is a nested pcase) needs no walker: the walk would
     * stop at its root */
    const struct head_row *row = value_consp(code) ? row_of(code) : NULL;
    if (row && expanded_here(x, row, code))
        return expand_site(x, row, code);
    walk_init(&w, x->L, visit, x);
    w.rebuilt = on_rebuilt;
    w.leave = leave_scope;
    unsigned d = p->walk_depth++; /* deeper than the spares: grow its own */
    if (d < 16) {
        w.spare = p->walk_spare[d];
        w.spare_cap = p->walk_spare_cap[d];
        p->walk_spare[d] = NULL;
        p->walk_spare_cap[d] = 0;
    }
    struct value *r = walk_form(&w, code);
    p->walk_depth--;
    if (d < 16 && w.spare_cap > p->walk_spare_cap[d]) {
        p->walk_spare[d] = w.spare;
        p->walk_spare_cap[d] = w.spare_cap;
    }
    if (!r && w.too_deep)
        expand_diag(x, DIAG_ERROR, w.deep_at, "nesting-too-deep",
                    w.circular ? "circular list in a code position"
                               : "nesting too deep to walk");
    return r;
}

/* Does the reader say code holds no head symbol?  It does when code is
 * a list or vector it read, of the top-level form x->top (no read label
 * in it: a label could bring in structure from elsewhere), and none of
 * that form's head tokens lies in code's text: a read value is made of
 * what its text says, and nothing changes it after reading. */
static bool quiet_text(const struct expand_ctx *x, const struct value *code)
{
    const struct read_form *f = x->top;
    struct span sp;
    if (!f || !x->src || !x->src->heads_known || f->labels || f->n_heads > READ_HEADS_MAX ||
        !(value_consp(code) || value_is(code, VK_VECTOR)) ||
        !read_origin_span(x->src, code, &sp) || sp.start < f->span.start ||
        sp.end > f->span.end)
        return false;
    for (uint32_t i = 0; i < f->n_heads; i++)
        if (f->heads[i] >= sp.start && f->heads[i] < sp.end)
            return false;
    return true;
}

/* Is there nothing to do in code?  The reader may know; else a look
 * through it. */
static bool nothing_to_do(struct expand_ctx *x, struct value *code)
{
    return quiet_text(x, code) || untouched(x->L->a, priv_of(x), code);
}

/* Walk code, unless the look through it finds nothing to do. */
static struct value *walk(struct expand_ctx *x, struct value *code)
{
    if (nothing_to_do(x, code))
        return code;
    return walk_touched(x, code);
}

/* ---- public entry points ---- */

/* The reader allocates a top-level form's data while it reads it (atoms
 * as they come, each list in one block when it closes), so the form lies
 * in the arena between the previous top-level form's root block and the
 * end of its own, which the reader allocates last.  Walk, normaliser and
 * printer then meet those objects in tree order, not in address order,
 * and the first touch of each was a cache miss waited for alone (the
 * walker's look through user code took three times its share of the
 * instructions in time).  Asking for the whole window at once, in address
 * order, lets the memory system fetch it in parallel; asking PREFETCH_AHEAD
 * bytes beyond it too (the next forms) has their first objects there
 * before they are needed.  Each line is asked for once.  Prefetches never
 * fault: a window that holds something else (the first form, a page
 * boundary) only costs the requests. */
#define PREFETCH_MAX ((uintptr_t)64 * 1024)   /* bytes before the root cons */
#define PREFETCH_AFTER ((uintptr_t)256)       /* the root block's cells */
#define PREFETCH_AHEAD ((uintptr_t)32 * 1024) /* the next forms' first bytes */
#define LINE ((uintptr_t)64)

static void prefetch_form(struct priv *p, const struct value *form)
{
    uintptr_t end = (uintptr_t)form + PREFETCH_AFTER + PREFETCH_AHEAD;
    uintptr_t start = (uintptr_t)form - PREFETCH_MAX;
    if (p->prev_top > start && p->prev_top < (uintptr_t)form)
        start = p->prev_top;
    if (p->prefetched > start && p->prefetched < end)
        start = p->prefetched; /* asked for with an earlier form */
    p->prefetched = end;
    p->prev_top = (uintptr_t)form;
    /* to the outer caches (locality 1): a large window would evict the
     * first level's working set */
    for (uintptr_t q = start & ~(LINE - 1); q < end; q += 2 * LINE) {
        __builtin_prefetch((const void *)q, 0, 1);
        __builtin_prefetch((const void *)(q + LINE), 0, 1);
    }
}

void expand_init(struct expand_ctx *x, struct lisp *L, struct diag_list *diags,
                 const struct read_result *src)
{
    memset(x, 0, sizeof *x);
    x->L = L;
    x->src = src;
    x->diags = diags;
    x->memo = true;
    x->max_depth = EXPAND_MAX_DEPTH;
    struct priv *p = arena_zalloc(L->a, sizeof *p);
    p->g = gensym_new(L);
    x->priv = p;
}

struct value *expand_form(struct expand_ctx *x, struct value *form)
{
    struct priv *p = priv_of(x);
    x->n_sites = 0;
    p->form = form;
    p->site = NULL;
    p->nest = 0;
    prefetch_form(p, form);
    size_t errors = x->diags->n_errors;
    learn_form(x, form);
    pcase_macros_check_definition(x, form);
    struct value *r = walk(x, form);
    if (x->diags->n_errors == errors)
        return r;
    if (!x->keep_going)
        return NULL;
    if (!r) /* the form itself failed, or the walk stopped: all as written */
        x->n_sites = 0;
    return r ? r : form;
}

size_t expand_list_forms(struct expand_ctx *x, struct value *form,
                         struct value ***out)
{
    struct priv *p = priv_of(x);
    p->found = NULL;
    p->n_found = p->cap_found = 0;
    p->listing = true;
    p->form = form;
    struct value *r = walk(x, form);
    p->listing = false;
    (void)r; /* listing never replaces or aborts */
    *out = p->found;
    return p->n_found;
}

void expand_set_target(struct expand_ctx *x, const struct value *target)
{
    priv_of(x)->target = target;
}

bool expand_unchanged(struct expand_ctx *x, struct value *code)
{
    return x->depth < x->max_depth && nothing_to_do(x, code);
}

void expand_prime_heads(struct lisp *L)
{
    if (L->heads_primed)
        return;
    for (size_t i = 0; i < COUNT(head_rows); i++)
        value_sym_row(intern_cstr(L, head_rows[i].name), VALUE_ROW_EXPAND, classify_head);
    for (size_t i = 0; i < COUNT(stray_keywords); i++)
        value_sym_row(intern_cstr(L, stray_keywords[i]), VALUE_ROW_EXPAND, classify_head);
    L->heads_primed = true;
}

struct value *expand_code_partial(struct expand_ctx *x, struct value *code)
{
    if (!enter(x, code))
        return NULL;
    struct value *r = walk(x, code);
    x->depth--;
    return r;
}

/* Nested code fails as a whole when a form inside it failed: the front
 * end that asked for it fails, and its own form is kept as written. */
struct value *expand_code(struct expand_ctx *x, struct value *code)
{
    size_t errors = x->diags->n_errors;
    struct value *r = expand_code_partial(x, code);
    return x->diags->n_errors > errors ? NULL : r;
}

struct value *expand_code_touched(struct expand_ctx *x, struct value *code)
{
    if (!enter(x, code))
        return NULL;
    size_t errors = x->diags->n_errors;
    struct value *r = walk_touched(x, code);
    x->depth--;
    return x->diags->n_errors > errors ? NULL : r;
}

bool expand_nested(const struct expand_ctx *x)
{
    return priv_of(x)->nest > 0;
}

void expand_add_site(struct expand_ctx *x, struct value *orig,
                     struct value *expansion, const char *head)
{
    if (priv_of(x)->nest == 0)
        add_site(x, orig, expansion, head);
}

void expand_copied(struct expand_ctx *x, const struct value *copy,
                   const struct value *orig)
{
    ptrmap_put(x->L->a, &priv_of(x)->alias, copy, orig);
}

void expand_carries(struct expand_ctx *x, const struct value *code,
                    const struct value *clause)
{
    struct priv *p = priv_of(x);
    ptrmap_put(x->L->a, &p->carriers, code, clause);
    ptrmap_put(x->L->a, &p->carriers, clause, clause);
}

const struct value *expand_clause_of(const struct expand_ctx *x, const struct value *v)
{
    return ptrmap_get(&priv_of(x)->carriers, v);
}

void expand_rides(struct expand_ctx *x, const struct value *rider,
                  const struct value *clause)
{
    struct priv *p = priv_of(x);
    /* rider goes at the end of clause's chain, once: a clause in the
     * chain already (or the clause itself) is not added again, so the
     * chain never loops */
    const struct value *end = clause, *next;
    if (rider == clause)
        return;
    while ((next = ptrmap_get(&p->riders, end))) {
        if (next == rider)
            return;
        end = next;
    }
    for (const struct value *r = rider; r; r = ptrmap_get(&p->riders, r))
        if (r == clause)
            return;
    ptrmap_put(x->L->a, &p->riders, end, rider);
}

const struct value *expand_rider_of(const struct expand_ctx *x, const struct value *clause)
{
    return ptrmap_get(&priv_of(x)->riders, clause);
}

struct value *expand_gensym(struct expand_ctx *x, const char *base)
{
    x->stats.temporaries++;
    return gensym_make(priv_of(x)->g, base);
}

/* ---- diagnostics ---- */

void expand_set_signal(struct expand_ctx *x, struct value *err)
{
    if (x->diags->n > 0)
        x->diags->items[x->diags->n - 1].detail = err;
}

void expand_set_error_signal(struct expand_ctx *x, const char *prefix,
                             const struct value *v)
{
    struct buf b;
    buf_init(&b, x->L->a);
    buf_puts(&b, prefix);
    struct print_opts o = print_opts_default();
    print_value(x->L, &b, v, &o);
    bool multibyte = false;
    for (size_t i = 0; i < b.len; i++)
        multibyte |= (unsigned char)b.data[i] >= 0x80;
    struct value *msg = value_string(x->L->a, b.data, b.len, multibyte);
    expand_set_signal(x, lisp_listv(x->L, INTERN_LIT(x->L, "error"), msg, NULL));
}

/* The text of v (through the copy -> original map), if known. */
static bool locate(const struct expand_ctx *x, const struct value *v,
                   struct span *sp)
{
    if (!v || !x->src)
        return false;
    v = expand_origin(x, v);
    if (read_origin_span(x->src, v, sp))
        return true;
    return value_consp(v) && read_origin_car_span(x->src, v, sp);
}

void expand_diagv(struct expand_ctx *x, enum diag_severity sev,
                  const struct value *at, const char *code, const char *fmt,
                  va_list ap)
{
    const struct priv *p = priv_of(x);
    struct span sp = {0, 0};
    if (!locate(x, at, &sp) && !locate(x, p->site, &sp))
        locate(x, p->form, &sp);
    diag_addv(x->diags, sev, sp.start, sp.end, code, fmt, ap);
}

void expand_diag(struct expand_ctx *x, enum diag_severity sev,
                 const struct value *at, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    expand_diagv(x, sev, at, code, fmt, ap);
    va_end(ap);
}
