/* learn.c - what the top-level forms of a file define (learn.h).
 *
 * A worklist of forms (no recursion on the nesting of progn and
 * friends, nor on macros that expand to macro calls): each form is
 * dispatched on its head through a sorted table, and a call of a macro
 * the file (or a required file) defines is expanded by the evaluator and
 * its expansion put back on the list.  Definitions are kept in the run's
 * arena, found through a hash of their symbols; the latest definition of
 * a name wins, as in Emacs.  A name the file does not define is asked of
 * the loader (the required files), and the answer, even "none", is
 * remembered until another file is loaded.
 */
#include "expand/learn.h"

#include <stdlib.h>
#include <string.h>

#include "expand/pcase_macros.h"
#include "lisp/print.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
/* Macro expansions while learning from one top-level form: a macro that
 * expands to a call of itself stops here. */
#define LEARN_MAX_EXPANSIONS 64
/* Constants whose values are computed while computing another one. */
#define LEARN_MAX_VAR_NESTING 8
/* Skipped definer calls remembered for notes. */
#define LEARN_SKIPPED 3

/* A function, macro or variable definition. */
struct def {
    struct value *name;
    bool variable;
    bool none;               /* no definition (a remembered miss) */
    unsigned gen;            /* none: valid while the generation is this */
    struct interp_fn fn;     /* a function or macro */
    struct value *form;      /* a variable: its value form */
    struct value *value;     /* ... its value once computed */
    bool evaluating, failed; /* ... being computed, could not be */
    const char *origin;      /* the required file, NULL: the input */
};

/* A definer call the evaluator could not expand. */
struct skipped {
    const struct value *at;  /* the input's form */
    const char *call;        /* the call, as shown (and its file) */
    const char *why;         /* why it was not expanded */
};

struct learn {
    struct def *defs;
    size_t n, cap;
    uint32_t *slots;         /* hash of (symbol, variable) -> index + 1 */
    size_t n_slots;          /* a power of two */
    const struct learn_loader *loader;
    unsigned gen;            /* bumped when a required file is learned */
    struct interp_budget budget;
    struct interp_host host;
    struct skipped skip[LEARN_SKIPPED];
    size_t n_skip;           /* skipped so far (the last LEARN_SKIPPED kept) */
    unsigned var_nesting;
};

static struct value *host_make_symbol(void *ctx, const char *name, size_t len);
static const struct interp_fn *host_function(void *ctx, struct value *sym);
static bool host_variable(void *ctx, struct value *sym, struct value **out);
static bool host_special(void *ctx, struct value *sym);

static struct learn *state(struct expand_ctx *x)
{
    if (!x->learn) {
        struct learn *l = ARENA_NEW(x->L->a, struct learn);
        interp_budget_init(&l->budget);
        l->host = (struct interp_host){host_function, host_variable, host_make_symbol, x,
                                       &l->budget, host_special};
        x->learn = l;
    }
    return x->learn;
}

void learn_set_loader(struct expand_ctx *x, const struct learn_loader *l)
{
    state(x)->loader = l;
}

const struct interp_host *learn_host(struct expand_ctx *x)
{
    return &state(x)->host;
}

/* ---- the table of definitions ---- */

static size_t slot_of(const struct learn *l, const struct value *name, bool variable)
{
    uint64_t h = ((uint64_t)name->u.sym.id * 2 + variable) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 32) & (l->n_slots - 1);
}

static struct def *find(struct learn *l, const struct value *name, bool variable)
{
    if (!l->n_slots)
        return NULL;
    for (size_t j = slot_of(l, name, variable);; j = (j + 1) & (l->n_slots - 1)) {
        uint32_t k = l->slots[j];
        if (!k)
            return NULL;
        struct def *d = &l->defs[k - 1];
        if (d->name == name && d->variable == variable)
            return d;
    }
}

static void rehash(struct expand_ctx *x, struct learn *l)
{
    size_t n = l->n_slots ? l->n_slots * 2 : 64;
    l->slots = arena_zalloc(x->L->a, n * sizeof *l->slots);
    l->n_slots = n;
    for (size_t i = 0; i < l->n; i++) {
        struct def *d = &l->defs[i];
        size_t j = slot_of(l, d->name, d->variable);
        while (l->slots[j] && (l->defs[l->slots[j] - 1].name != d->name ||
                               l->defs[l->slots[j] - 1].variable != d->variable))
            j = (j + 1) & (n - 1);
        l->slots[j] = (uint32_t)(i + 1); /* later definitions win */
    }
}

/* Add d, replacing what its name had. */
static struct def *define(struct expand_ctx *x, const struct def *d)
{
    struct learn *l = state(x);
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        l->defs = arena_grow(x->L->a, l->defs, l->cap * sizeof *l->defs, cap * sizeof *l->defs);
        l->cap = cap;
    }
    l->defs[l->n++] = *d;
    if (l->n * 2 > l->n_slots) {
        rehash(x, l);
    } else {
        size_t j = slot_of(l, d->name, d->variable);
        while (l->slots[j] && (l->defs[l->slots[j] - 1].name != d->name ||
                               l->defs[l->slots[j] - 1].variable != d->variable))
            j = (j + 1) & (l->n_slots - 1);
        l->slots[j] = (uint32_t)l->n;
    }
    return &l->defs[l->n - 1];
}

/* ---- the forms ---- */

/* Learning from one top-level form: the worklist and where it came from. */
struct walk {
    struct expand_ctx *x;
    const char *origin;       /* the required file, NULL: the input */
    const struct value *at;   /* the input's form (diagnostics) */
    struct value **stack;
    size_t top, cap;
    unsigned expansions;
};

static void push(struct walk *w, struct value *form)
{
    if (w->top == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        w->stack = arena_grow(w->x->L->a, w->stack, w->cap * sizeof *w->stack,
                              cap * sizeof *w->stack);
        w->cap = cap;
    }
    w->stack[w->top++] = form;
}

/* The body forms from index `from` of form, pushed so that they are
 * learned in order (nothing from a body that is not a proper list: a
 * circular one is the walker's error to report). */
static void push_body(struct walk *w, struct value *form, size_t from)
{
    struct value *p = form;
    for (; value_consp(p) && from > 0; from--)
        p = value_cdr(p);
    long len = value_list_length(p, w->x->L->nil);
    if (len < 0)
        return;
    size_t n = (size_t)len;
    size_t base = w->top;
    for (size_t i = 0; i < n; i++)
        push(w, NULL);
    for (size_t i = 0; i < n; i++, p = value_cdr(p))
        w->stack[base + n - 1 - i] = value_car(p);
}

static struct value *nth(struct expand_ctx *x, struct value *form, size_t n)
{
    for (; n > 0 && value_consp(form); n--)
        form = value_cdr(form);
    return value_consp(form) ? value_car(form) : x->L->nil;
}

static bool is_symbol(struct expand_ctx *x, const struct value *v)
{
    return value_symbolp(v) && v->u.sym.interned && v != x->L->nil && v != x->L->t;
}

/* (quote SYM) -> SYM, else NULL. */
static struct value *quoted_symbol(struct expand_ctx *x, struct value *v)
{
    if (!value_consp(v) || value_car(v) != x->L->quote || !value_consp(value_cdr(v)))
        return NULL;
    struct value *s = value_car(value_cdr(v));
    return is_symbol(x, s) ? s : NULL;
}

typedef void form_fn(struct walk *w, struct value *form);

static void f_body1(struct walk *w, struct value *form)
{
    push_body(w, form, 1);
}

static void f_body2(struct walk *w, struct value *form)
{
    push_body(w, form, 2);
}

/* (defun NAME ARGS BODY...) and its kin; macro / cl per the head. */
static void function_def(struct walk *w, struct value *form, bool macro, bool cl)
{
    struct value *name = nth(w->x, form, 1);
    struct value *args = nth(w->x, form, 2);
    if (!is_symbol(w->x, name) || !value_consp(value_cdr(value_cdr(form))))
        return;
    if (!value_consp(args) && !lisp_nilp(w->x->L, args))
        return;
    struct def d = {.name = name, .origin = w->origin};
    d.fn = (struct interp_fn){name, args, value_cdr(value_cdr(value_cdr(form))), w->x->L->nil,
                              NULL, macro, cl};
    define(w->x, &d);
}

static void f_defun(struct walk *w, struct value *form)
{
    function_def(w, form, false, false);
}

static void f_defmacro(struct walk *w, struct value *form)
{
    function_def(w, form, true, false);
}

static void f_cl_defun(struct walk *w, struct value *form)
{
    function_def(w, form, false, true);
}

static void f_cl_defmacro(struct walk *w, struct value *form)
{
    function_def(w, form, true, true);
}

/* (defalias 'NAME DEF): DEF evaluated now (#'f, 'f, a lambda). */
static void f_defalias(struct walk *w, struct value *form)
{
    struct value *name = quoted_symbol(w->x, nth(w->x, form, 1));
    if (!name)
        return;
    struct interp_result r;
    interp_eval(w->x->L, learn_host(w->x), nth(w->x, form, 2), &r);
    if (r.status != INTERP_OK || lisp_nilp(w->x->L, r.value))
        return;
    struct def d = {.name = name, .origin = w->origin};
    d.fn = (struct interp_fn){name, w->x->L->nil, w->x->L->nil, w->x->L->nil, r.value, false,
                              false};
    define(w->x, &d);
}

/* (defvar NAME VALUE) / (defconst NAME VALUE): VALUE computed when a
 * body first reads NAME. */
static void f_defvar(struct walk *w, struct value *form)
{
    struct value *name = nth(w->x, form, 1);
    if (!is_symbol(w->x, name) || !value_consp(value_cdr(value_cdr(form))))
        return;
    struct def d = {.name = name, .variable = true, .origin = w->origin,
                    .form = nth(w->x, form, 2)};
    define(w->x, &d);
}

static void f_definition(struct walk *w, struct value *form)
{
    struct value *name = pcase_macros_learn_from(w->x, form, w->origin);
    const char *head = value_car(form)->u.sym.name;
    if (name && w->x->verbose && !w->origin && w->expansions > 0)
        expand_diag(w->x, DIAG_NOTE, w->at, "definer", "this macro call defines %s %s",
                    strcmp(head, "cl-defstruct") == 0  ? "struct"
                    : strcmp(head, "rx-define") == 0 ? "rx definition"
                                                     : "pattern macro",
                    name->u.sym.name);
}

static void f_require(struct walk *w, struct value *form)
{
    struct learn *l = state(w->x);
    struct value *feature = quoted_symbol(w->x, nth(w->x, form, 1));
    struct value *file = nth(w->x, form, 2);
    if (!feature || !l->loader || !l->loader->require)
        return;
    l->gen++; /* what is found missing may now be defined */
    l->loader->require(l->loader->ctx, w->x, feature, value_is(file, VK_STRING) ? file : NULL,
                       w->at);
}

static void f_ignore(struct walk *w, struct value *form)
{
    (void)w;
    (void)form;
}

struct form_row {
    const char *name;
    form_fn *fn;
};

/* Heads learned from; sorted.  (declare-function and the like are
 * listed so that they are not looked up as definer macros.) */
static const struct form_row rows[] = {
    {"cl-defmacro", f_cl_defmacro},
    {"cl-defstruct", f_definition},
    {"cl-defsubst", f_cl_defun},
    {"cl-defun", f_cl_defun},
    {"cl-eval-when", f_body2},
    {"declare-function", f_ignore},
    {"defalias", f_defalias},
    {"defconst", f_defvar},
    {"defcustom", f_ignore},
    {"defface", f_ignore},
    {"defgroup", f_ignore},
    {"defmacro", f_defmacro},
    {"defsubst", f_defun},
    {"defun", f_defun},
    {"defvar", f_defvar},
    {"eval-and-compile", f_body1},
    {"eval-when-compile", f_body1},
    {"pcase-defmacro", f_definition},
    {"progn", f_body1},
    {"provide", f_ignore},
    {"require", f_require},
    {"rx-define", f_definition},
    {"with-no-warnings", f_body1},
};

static int row_cmp(const void *key, const void *row)
{
    return strcmp(key, ((const struct form_row *)row)->name);
}

static const struct form_row *find_row(const char *name)
{
    return bsearch(name, rows, NELEM(rows), sizeof rows[0], row_cmp);
}

/* find_row as an index (value_sym_row's lookup), or -1. */
static int row_index(const char *name)
{
    const struct form_row *r = find_row(name);
    return r ? (int)(r - rows) : -1;
}

bool learn_is_definition_head(const char *head)
{
    const struct form_row *r = find_row(head);
    return r && r->fn != f_ignore;
}

bool learn_tables_sorted(void)
{
    for (size_t i = 1; i < NELEM(rows); i++)
        if (strcmp(rows[i - 1].name, rows[i].name) >= 0)
            return false;
    return true;
}

/* ---- definer calls ---- */

static const char *show(struct expand_ctx *x, const struct value *v)
{
    struct buf b;
    struct print_opts o = print_opts_default();
    o.length = 3;
    o.level = 2;
    buf_init(&b, x->L->a);
    print_value(x->L, &b, v, &o);
    return buf_cstr(&b);
}

/* Why an evaluation failed, as a clause: "calls F, which pcexpand does
 * not evaluate", "signalled: MESSAGE", "stopped: LIMIT". */
static const char *why(struct expand_ctx *x, const struct interp_result *r)
{
    struct buf b;
    buf_init(&b, x->L->a);
    if (r->status == INTERP_UNKNOWN)
        buf_printf(&b, "%s %s, which pcexpand does not evaluate",
                   r->variable ? "reads the variable" : "calls", show(x, r->what));
    else if (r->status == INTERP_SIGNAL)
        buf_printf(&b, "signals: %s", r->message);
    else
        buf_printf(&b, "stops: %s", r->message);
    return buf_cstr(&b);
}

static void skip(struct walk *w, struct value *form, const char *text)
{
    struct learn *l = state(w->x);
    struct skipped *s = &l->skip[l->n_skip++ % LEARN_SKIPPED];
    struct buf b;
    buf_init(&b, w->x->L->a);
    buf_printf(&b, "%s%s%s", show(w->x, form), w->origin ? " in " : "",
               w->origin ? w->origin : "");
    s->at = w->at;
    s->call = buf_cstr(&b);
    s->why = text;
    if (w->x->verbose)
        expand_diag(w->x, DIAG_NOTE, w->at, "definer", "%s was not learned from: %s",
                    s->call, s->why);
}

static void definer(struct walk *w, struct value *form)
{
    struct expand_ctx *x = w->x;
    struct value *head = value_car(form);
    const struct interp_fn *fn = learn_function(x, head);
    if (!fn || !fn->macro)
        return;
    if (w->expansions++ >= LEARN_MAX_EXPANSIONS) {
        skip(w, form, "macros expanded more than 64 times");
        return;
    }
    struct interp_result r;
    interp_apply(x->L, learn_host(x), fn, value_cdr(form), &r);
    if (r.status != INTERP_OK) {
        struct buf b;
        buf_init(&b, x->L->a);
        buf_printf(&b, "macro %s %s", head->u.sym.name, why(x, &r));
        skip(w, form, buf_cstr(&b));
        return;
    }
    push(w, r.value);
}

static void learn_walk(struct walk *w, struct value *form)
{
    push(w, form);
    while (w->top) {
        struct value *f = w->stack[--w->top];
        if (!value_consp(f) || !is_symbol(w->x, value_car(f)))
            continue;
        /* every top-level form asks: the row is kept on its head */
        int k = value_sym_row(value_car(f), VALUE_ROW_LEARN, row_index);
        const struct form_row *row = k < 0 ? NULL : &rows[k];
        if (row)
            row->fn(w, f);
        else
            definer(w, f);
    }
}

void learn_form(struct expand_ctx *x, struct value *form)
{
    struct walk w = {.x = x, .at = form};
    learn_walk(&w, form);
}

void learn_library_form(struct expand_ctx *x, struct value *form, const char *origin,
                        const struct value *at)
{
    struct walk w = {.x = x, .origin = origin, .at = at};
    learn_walk(&w, form);
}

/* ---- lookups ---- */

/* A definition of the required files, read by the loader on demand. */
static struct def *from_loader(struct expand_ctx *x, struct value *sym, bool variable)
{
    struct learn *l = state(x);
    const char *origin = NULL;
    struct value *form = l->loader && l->loader->definition
                             ? l->loader->definition(l->loader->ctx, x, sym, variable, &origin)
                             : NULL;
    if (form) {
        struct walk w = {.x = x, .origin = origin, .at = NULL};
        const struct form_row *row = value_consp(form) && value_symbolp(value_car(form))
                                         ? find_row(value_car(form)->u.sym.name)
                                         : NULL;
        /* only definitions: nothing is pushed, nothing loaded */
        if (row && (row->fn == f_defun || row->fn == f_defmacro || row->fn == f_cl_defun ||
                    row->fn == f_cl_defmacro || row->fn == f_defalias || row->fn == f_defvar))
            row->fn(&w, form);
    }
    struct def *d = find(l, sym, variable);
    if (!d || d->none) {
        struct def miss = {.name = sym, .variable = variable, .none = true, .gen = l->gen};
        define(x, &miss);
        return NULL;
    }
    return d;
}

const struct interp_fn *learn_function(struct expand_ctx *x, struct value *sym)
{
    struct learn *l = state(x);
    if (!is_symbol(x, sym))
        return NULL;
    struct def *d = find(l, sym, false);
    if (d && !d->none)
        return &d->fn;
    if (d && d->gen == l->gen)
        return NULL;
    d = from_loader(x, sym, false);
    return d ? &d->fn : NULL;
}

const char *learn_origin(struct expand_ctx *x, const struct interp_fn *fn)
{
    struct learn *l = state(x);
    for (size_t i = 0; i < l->n; i++)
        if (&l->defs[i].fn == fn)
            return l->defs[i].origin;
    return NULL;
}

/* ---- the evaluator's host ---- */

static const struct interp_fn *host_function(void *ctx, struct value *sym)
{
    return learn_function(ctx, sym);
}

static bool host_variable(void *ctx, struct value *sym, struct value **out)
{
    struct expand_ctx *x = ctx;
    struct learn *l = state(x);
    struct def *d = find(l, sym, true);
    if (!d || (d->none && d->gen != l->gen))
        d = from_loader(x, sym, true);
    if (!d || d->none || d->failed || d->evaluating)
        return false;
    if (!d->value) {
        if (l->var_nesting >= LEARN_MAX_VAR_NESTING)
            return false;
        struct interp_result r;
        d->evaluating = true;
        l->var_nesting++;
        interp_eval(x->L, &l->host, d->form, &r);
        l->var_nesting--;
        /* the table may have grown: find the definition again */
        d = find(l, sym, true);
        d->evaluating = false;
        if (r.status != INTERP_OK) {
            d->failed = true;
            return false;
        }
        d->value = r.value;
    }
    *out = d->value;
    return true;
}

/* A defvar or defconst of the file or of a required file, whether or
 * not its value can be computed. */
static bool host_special(void *ctx, struct value *sym)
{
    struct expand_ctx *x = ctx;
    struct learn *l = state(x);
    struct def *d = find(l, sym, true);
    if (!d || (d->none && d->gen != l->gen))
        d = from_loader(x, sym, true);
    return d && !d->none;
}

static struct value *host_make_symbol(void *ctx, const char *name, size_t len)
{
    struct expand_ctx *x = ctx;
    return expand_gensym(x, arena_strndup(x->L->a, name, len));
}

/* ---- notes ---- */

void learn_note_skipped(struct expand_ctx *x, const struct value *at, const char *code)
{
    struct learn *l = state(x);
    size_t n = l->n_skip < LEARN_SKIPPED ? l->n_skip : LEARN_SKIPPED;
    for (size_t i = 0; i < n; i++) {
        const struct skipped *s = &l->skip[(l->n_skip - 1 - i) % LEARN_SKIPPED];
        expand_diag(x, DIAG_NOTE, s->at ? s->at : at, code,
                    "%s may define it, but could not be expanded: %s", s->call, s->why);
    }
}
