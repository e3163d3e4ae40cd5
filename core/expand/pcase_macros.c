/* pcase_macros.c - the pattern-macro table: dispatch, templates, learning.
 *
 * Stage "normalise" of the pcase front end (pcase.md 2.1): a pattern whose
 * head is not core is rewritten until it is.  Templates (configuration and
 * one-backquote pcase-defmacro bodies) substitute ,ARG / splice ,@ARG with
 * backquote's nesting levels; library macros are in pcase_macros_lib.c.
 */
#include "expand/pcase_macros_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "expand/learn.h"
#include "lisp/print.h"

/* Rewrites of one pattern's head when x->max_depth gives no limit. */
#define PM_MAX_STEPS 200
/* Deepest template (nesting of its text) accepted. */
#define PM_TEMPLATE_DEPTH 500

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Heads the pcase front end handles itself (pcase.md 2.2), sorted. */
static const char *const core_heads[] = {
    "`", "and", "app", "guard", "let", "or", "pred", "quote",
};

struct builtin_row {
    const char *name;
    unsigned family;     /* PCASE_MACROS_* */
    pm_builtin_fn *fn;
};

/* Library pattern macros pcexpand implements (pcase.md 2.7), sorted. */
static const struct builtin_row builtins[] = {
    {"cl-struct", PCASE_MACROS_CL_STRUCT, pcase_macros_cl_struct},
    {"cl-type", PCASE_MACROS_CL_TYPE, pcase_macros_cl_type},
    {"eieio", PCASE_MACROS_EIEIO, pcase_macros_eieio},
    {"map", PCASE_MACROS_MAP, pcase_macros_map},
    {"rx", PCASE_MACROS_RX, pcase_macros_rx},
    {"seq", PCASE_MACROS_SEQ, pcase_macros_seq},
};

/* The original pattern of the running pcase_macros_expand call: where
 * diagnostics about generated sub-forms point. */
static const struct value *current_orig(struct expand_ctx *x);

/* ---- building blocks ---- */

static const char *symname(const struct value *v)
{
    return v && value_symbolp(v) && v->u.sym.interned ? v->u.sym.name : NULL;
}

static int str_row_cmp(const void *key, const void *row)
{
    return strcmp(key, *(const char *const *)row);
}

static bool is_core(const struct value *head)
{
    const char *n = symname(head);
    return n && bsearch(n, core_heads, NELEM(core_heads), sizeof *core_heads,
                        str_row_cmp);
}

static const struct builtin_row *find_builtin(const struct value *head)
{
    const char *n = symname(head);
    return n ? bsearch(n, builtins, NELEM(builtins), sizeof *builtins, str_row_cmp)
             : NULL;
}

bool pcase_macros_tables_sorted(void)
{
    for (size_t i = 1; i < NELEM(core_heads); i++)
        if (strcmp(core_heads[i - 1], core_heads[i]) >= 0)
            return false;
    for (size_t i = 1; i < NELEM(builtins); i++)
        if (strcmp(builtins[i - 1].name, builtins[i].name) >= 0)
            return false;
    return true;
}

struct value *pm_sym(struct expand_ctx *x, const char *name)
{
    return intern_cstr(x->L, name);
}

const char *pm_show(struct expand_ctx *x, const struct value *v)
{
    struct buf b;
    struct print_opts o = print_opts_default();
    buf_init(&b, x->L->a);
    print_value(x->L, &b, v, &o);
    return buf_cstr(&b);
}

const char *pm_name(struct expand_ctx *x, const struct value *v)
{
    return value_symbolp(v) ? v->u.sym.name : pm_show(x, v);
}

static bool has_span(struct expand_ctx *x, const struct value *v)
{
    struct span sp;
    return v && x->src && read_origin_span(x->src, v, &sp);
}

const struct value *pm_at(struct expand_ctx *x, const struct value *v,
                          const struct value *fallback)
{
    if (has_span(x, v))
        return v;
    if (has_span(x, fallback))
        return fallback;
    const struct value *orig = current_orig(x);
    return orig ? orig : (v ? v : fallback);
}

struct value *pm_error(struct expand_ctx *x, const struct value *at,
                       const char *code, const char *fmt, ...)
{
    struct buf b;
    va_list ap;
    buf_init(&b, x->L->a);
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    expand_diag(x, DIAG_ERROR, at, code, "%s", buf_cstr(&b));
    return NULL;
}

struct value *pm_missing(struct expand_ctx *x, const struct value *at)
{
    return pm_error(x, pm_at(x, at, NULL), "malformed-pattern",
                    "Unknown pattern `nil' (a sub-pattern is missing in %s)",
                    pm_show(x, at));
}

struct value *pm_app(struct expand_ctx *x, struct value *fun, struct value *pat)
{
    return lisp_listv(x->L, pm_sym(x, "app"), fun, pat, NULL);
}

struct value *pm_quote(struct expand_ctx *x, struct value *v)
{
    return lisp_listv(x->L, x->L->quote, v, NULL);
}

struct value *pm_and(struct expand_ctx *x, struct value *first,
                     struct value **items, size_t n)
{
    struct value *list = lisp_list(x->L, n, items);
    list = value_cons(x->L->a, first, list);
    return value_cons(x->L->a, pm_sym(x, "and"), list);
}

struct value **pm_items(struct expand_ctx *x, struct value *list, size_t *n)
{
    long len = value_list_length(list, x->L->nil);
    if (len < 0)
        return NULL;
    struct value **v = ARENA_NEWN(x->L->a, struct value *, len ? (size_t)len : 1);
    *n = 0;
    for (; value_consp(list); list = value_cdr(list))
        v[(*n)++] = value_car(list);
    return v;
}

/* ---- the table ---- */

static struct pcase_macros *table(struct expand_ctx *x)
{
    if (!x->macros)
        x->macros = pcase_macros_new(x->L);
    return x->macros;
}

struct pcase_macros *pcase_macros_new(struct lisp *L)
{
    struct pcase_macros *m = ARENA_NEW(L->a, struct pcase_macros);
    m->L = L;
    m->builtins = PCASE_MACROS_ALL;
    m->rx = rx_env_new(L);
    return m;
}

void pcase_macros_set_builtins(struct pcase_macros *m, unsigned mask)
{
    m->builtins = mask & PCASE_MACROS_ALL;
}

void pcase_macros_begin_file(struct pcase_macros *m)
{
    size_t k = 0;
    for (size_t i = 0; i < m->n_tpl; i++)
        if (!m->tpl[i].from_file)
            m->tpl[k++] = m->tpl[i];
    m->n_tpl = k;
    k = 0;
    for (size_t i = 0; i < m->n_st; i++)
        if (!m->st[i].from_file)
            m->st[k++] = m->st[i];
    m->n_st = k;
    rx_env_begin_file(m->rx);
}

struct rx_env *pcase_macros_rx_env(struct expand_ctx *x)
{
    return table(x)->rx;
}

size_t pcase_macros_count(const struct pcase_macros *m, enum pcase_macros_kind k)
{
    return k == PCASE_MACROS_KIND_MACRO ? m->n_tpl : k == PCASE_MACROS_KIND_STRUCT ? m->n_st
                                                                                   : m->n_rx;
}

const struct value *pcase_macros_name(const struct pcase_macros *m, enum pcase_macros_kind k,
                                      size_t i)
{
    return k == PCASE_MACROS_KIND_MACRO    ? m->tpl[i].name
           : k == PCASE_MACROS_KIND_STRUCT ? m->st[i].name
                                           : m->rx_names[i];
}

/* The latest definition of name, or NULL. */
static const struct pm_template *find_template(struct pcase_macros *m,
                                               const struct value *name)
{
    for (size_t i = m->n_tpl; i-- > 0;)
        if (m->tpl[i].name == name)
            return &m->tpl[i];
    return NULL;
}

static void add_template(struct pcase_macros *m, const struct pm_template *t)
{
    if (m->n_tpl == m->cap_tpl) {
        size_t cap = m->cap_tpl ? m->cap_tpl * 2 : 8;
        m->tpl = arena_grow(m->L->a, m->tpl, m->cap_tpl * sizeof *m->tpl,
                            cap * sizeof *m->tpl);
        m->cap_tpl = cap;
    }
    m->tpl[m->n_tpl++] = *t;
}

/* The definition of head in charge: a learned one never replaces an
 * enabled built-in (seq.el defines `seq' too); *b gets the built-in. */
static const struct pm_template *in_charge(struct pcase_macros *m, const struct value *head,
                                           const struct builtin_row **b)
{
    const struct pm_template *t = value_symbolp(head) ? find_template(m, head) : NULL;
    *b = find_builtin(head);
    bool builtin_on = *b && (m->builtins & (*b)->family);
    return t && t->from_file && builtin_on ? NULL : t;
}

bool pcase_macros_is_macro(struct expand_ctx *x, struct value *head_symbol)
{
    if (!value_symbolp(head_symbol) || is_core(head_symbol))
        return false;
    const struct builtin_row *b;
    const struct pm_template *t = in_charge(table(x), head_symbol, &b);
    return t || (b && (x->macros->builtins & b->family));
}

/* ---- templates: parameters ---- */

/* A parameter name: a symbol other than nil, t, keywords and &-words. */
static bool param_name_ok(struct expand_ctx *x, const struct value *v)
{
    const char *n = symname(v);
    return n && v != x->L->nil && v != x->L->t && n[0] != ':' && n[0] != '&';
}

/* A constant default: self-evaluating, or (quote X). */
static bool constant_value(struct expand_ctx *x, struct value *e,
                           struct value **out)
{
    if (value_consp(e)) {
        if (value_car(e) != x->L->quote || !value_consp(value_cdr(e))
            || !lisp_nilp(x->L, value_cdr(value_cdr(e))))
            return false;
        *out = value_car(value_cdr(e));
        return true;
    }
    const char *n = symname(e);
    if (value_symbolp(e) && e != x->L->nil && e != x->L->t && !(n && n[0] == ':'))
        return false;
    *out = e;
    return true;
}

/* One &optional parameter: VAR, or (VAR [DEFAULT]) when defaults are
 * allowed. */
static bool opt_param(struct expand_ctx *x, struct value *p, bool defaults,
                      struct value **var, struct value **def)
{
    *var = p;
    *def = x->L->nil;
    if (!value_consp(p))
        return param_name_ok(x, p);
    size_t n;
    struct value **v = pm_items(x, p, &n);
    if (!defaults || !v || n < 1 || n > 2 || !param_name_ok(x, v[0]))
        return false;
    *var = v[0];
    return n == 1 || constant_value(x, v[1], def);
}

enum param_state { P_REQ, P_OPT, P_REST, P_DONE };

static bool param_dup(const struct pm_template *t, const struct value *v)
{
    for (size_t i = 0; i < t->n_req; i++)
        if (t->req[i] == v)
            return true;
    for (size_t i = 0; i < t->n_opt; i++)
        if (t->opt[i] == v)
            return true;
    return t->rest == v;
}

/* One element of the lambda list; advances *st. */
static bool param(struct expand_ctx *x, struct pm_template *t, struct value *p,
                  bool defaults, enum param_state *st)
{
    if (pm_symbol_named(p, "&optional") && *st == P_REQ) {
        *st = P_OPT;
        return true;
    }
    if (pm_symbol_named(p, "&rest") && *st < P_REST) {
        *st = P_REST;
        return true;
    }
    if (*st == P_REQ) {
        if (!param_name_ok(x, p) || param_dup(t, p))
            return false;
        t->req[t->n_req++] = p;
    } else if (*st == P_OPT) {
        struct value *var, *def;
        if (!opt_param(x, p, defaults, &var, &def) || param_dup(t, var))
            return false;
        t->opt_def[t->n_opt] = def;
        t->opt[t->n_opt++] = var;
    } else if (*st == P_REST) {
        if (!param_name_ok(x, p) || param_dup(t, p))
            return false;
        t->rest = p;
        *st = P_DONE;
    } else
        return false;
    return true;
}

static bool parse_params(struct expand_ctx *x, struct pm_template *t,
                         struct value *arglist, bool defaults)
{
    size_t n;
    struct value **v = pm_items(x, arglist, &n);
    if (!v)
        return false;
    t->req = ARENA_NEWN(x->L->a, struct value *, n + 1);
    t->opt = ARENA_NEWN(x->L->a, struct value *, n + 1);
    t->opt_def = ARENA_NEWN(x->L->a, struct value *, n + 1);
    enum param_state st = P_REQ;
    for (size_t i = 0; i < n; i++)
        if (!param(x, t, v[i], defaults, &st))
            return false;
    return st != P_REST; /* &rest needs its variable */
}

/* ---- templates: backquote structure ---- */

enum bq_kind { BQ_NONE, BQ_BACKQUOTE, BQ_UNQUOTE, BQ_SPLICE };

/* Is form (` X), (, X) or (,@ X)? */
static enum bq_kind bq_kind(struct expand_ctx *x, const struct value *form)
{
    if (!value_consp(form) || !value_consp(value_cdr(form))
        || !lisp_nilp(x->L, value_cdr(value_cdr(form))))
        return BQ_NONE;
    const struct value *h = value_car(form);
    if (h == x->L->backquote)
        return BQ_BACKQUOTE;
    if (h == x->L->comma)
        return BQ_UNQUOTE;
    if (h == x->L->comma_at)
        return BQ_SPLICE;
    return BQ_NONE;
}

static struct value *bq_arg(const struct value *form)
{
    return value_car(value_cdr(form));
}

/* Substitution state: parameter bindings of one application. */
struct subst {
    struct expand_ctx *x;
    const struct pm_template *t;
    struct value **names, **vals; /* bindings */
    size_t n;
    bool check;                   /* validate only (at definition time) */
    bool ok;                      /* false after a failure */
    bool reported;                /* a diagnostic was recorded */
    const struct value *use;      /* the pattern being expanded (errors) */
};

static struct value *lookup(struct subst *s, const struct value *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->names[i] == name)
            return s->vals[i];
    s->ok = false; /* only reachable when checking */
    return s->x->L->nil;
}

static struct value *subst_form(struct subst *s, struct value *form, int level,
                                int depth);

static void push(struct subst *s, struct value ***out, size_t *n, size_t *cap,
                 struct value *v)
{
    if (*n == *cap) {
        size_t nc = *cap * 2 + 8;
        *out = arena_grow(s->x->L->a, *out, *cap * sizeof **out, nc * sizeof **out);
        *cap = nc;
    }
    (*out)[(*n)++] = v;
}

/* ,@ARG inside a list: its elements into out (copied, as append does). */
static bool splice_into(struct subst *s, struct value *v, struct value ***out,
                        size_t *n, size_t *cap)
{
    long len = value_list_length(v, s->x->L->nil);
    if (len < 0) {
        pm_error(s->x, pm_at(s->x, v, s->use), "malformed-pattern",
                 "Wrong type argument: listp, %s (spliced by the %s pattern "
                 "macro)", pm_show(s->x, v), pm_name(s->x, s->t->name));
        s->reported = true;
        return false;
    }
    for (; value_consp(v); v = value_cdr(v))
        push(s, out, n, cap, value_car(v));
    return true;
}

/* A list template: elements, level-1 splices, and a dotted tail that may
 * itself be an unquote ((a . ,b) reads as (a \, b)). */
static struct value *subst_list(struct subst *s, struct value *form, int level,
                                int depth)
{
    struct lisp *L = s->x->L;
    struct value **out = NULL, *tail = L->nil, *p = form;
    size_t n = 0, cap = 0;
    for (; value_consp(p) && s->ok; p = value_cdr(p)) {
        if (p != form && bq_kind(s->x, p) != BQ_NONE) {
            if (level == 1 && bq_kind(s->x, p) == BQ_SPLICE)
                s->ok = false; /* ,@ after a dot */
            tail = subst_form(s, p, level, depth + 1);
            p = L->nil;
            break;
        }
        struct value *e = value_car(p);
        if (level == 1 && bq_kind(s->x, e) == BQ_SPLICE) {
            struct value *v = lookup(s, bq_arg(e));
            if (lisp_nilp(L, value_cdr(p)) && !s->check)
                tail = v; /* the last splice is shared, as append does */
            else if (!s->check && !splice_into(s, v, &out, &n, &cap))
                s->ok = false;
            continue;
        }
        push(s, &out, &n, &cap, subst_form(s, e, level, depth + 1));
    }
    if (!value_consp(p) && !lisp_nilp(L, p))
        tail = p;
    for (size_t i = n; i-- > 0;)
        tail = value_cons(L->a, out[i], tail);
    return tail;
}

static struct value *subst_vector(struct subst *s, struct value *form, int level,
                                  int depth)
{
    struct lisp *L = s->x->L;
    struct value *list = lisp_list(L, form->u.vec.n, form->u.vec.items);
    struct value *r = subst_list(s, list, level, depth);
    size_t n;
    struct value **items = pm_items(s->x, r, &n);
    if (!items) {
        s->ok = false;
        return form;
    }
    struct value *v = value_vector(L->a, VK_VECTOR, n);
    for (size_t i = 0; i < n; i++)
        v->u.vec.items[i] = items[i];
    return v;
}

static struct value *subst_form(struct subst *s, struct value *form, int level,
                                int depth)
{
    if (depth > PM_TEMPLATE_DEPTH || !s->ok) {
        s->ok = false;
        return form;
    }
    if (value_is(form, VK_VECTOR))
        return subst_vector(s, form, level, depth);
    if (!value_consp(form))
        return form;
    enum bq_kind k = bq_kind(s->x, form);
    struct lisp *L = s->x->L;
    if (k == BQ_BACKQUOTE)
        return lisp_listv(L, L->backquote,
                          subst_form(s, bq_arg(form), level + 1, depth + 1), NULL);
    if ((k == BQ_UNQUOTE || k == BQ_SPLICE) && level > 1)
        return lisp_listv(L, value_car(form),
                          subst_form(s, bq_arg(form), level - 1, depth + 1), NULL);
    if (k == BQ_UNQUOTE)
        return lookup(s, bq_arg(form));
    if (k == BQ_SPLICE) {
        s->ok = false; /* ,@ not inside a list */
        return form;
    }
    return subst_list(s, form, level, depth);
}

/* Bind the parameters of t to the arguments; false if the counts differ. */
static bool bind_args(struct subst *s, struct value **args, size_t n)
{
    const struct pm_template *t = s->t;
    if (n < t->n_req || (!t->rest && n > t->n_req + t->n_opt))
        return false;
    size_t cap = t->n_req + t->n_opt + 1;
    s->names = ARENA_NEWN(s->x->L->a, struct value *, cap);
    s->vals = ARENA_NEWN(s->x->L->a, struct value *, cap);
    size_t i = 0;
    for (; i < t->n_req; i++) {
        s->names[s->n] = t->req[i];
        s->vals[s->n++] = args[i];
    }
    for (size_t k = 0; k < t->n_opt; k++, i++) {
        s->names[s->n] = t->opt[k];
        s->vals[s->n++] = i < n ? args[i] : t->opt_def[k];
    }
    if (t->rest) {
        s->names[s->n] = t->rest;
        s->vals[s->n++] = i < n ? lisp_list(s->x->L, n - i, args + i) : s->x->L->nil;
    }
    return true;
}

static struct value *apply_template(struct expand_ctx *x,
                                    const struct pm_template *t,
                                    struct value *pat, struct value **args,
                                    size_t n)
{
    struct subst s = {.x = x, .t = t, .ok = true, .use = pat};
    if (!bind_args(&s, args, n))
        return pm_error(x, pm_at(x, pat, NULL), "malformed-pattern",
                        "Wrong number of arguments for %s pattern: %s",
                        pm_name(x, t->name), pm_show(x, pat));
    struct value *r = subst_form(&s, t->body, 1, 0);
    if (!s.ok && !s.reported)
        return pm_error(x, pm_at(x, pat, NULL), "internal",
                        "template of pattern macro %s failed to apply",
                        pm_name(x, t->name));
    if (!s.ok)
        return NULL;
    if (lisp_nilp(x->L, r))
        return pm_error(x, pm_at(x, pat, NULL), "malformed-pattern",
                        "Unexpandable %s pattern: %s", pm_name(x, t->name),
                        pm_show(x, pat));
    return r;
}

/* Validate a template body against the parameters of t. */
static bool check_template(struct expand_ctx *x, const struct pm_template *t)
{
    struct subst s = {.x = x, .t = t, .ok = true, .check = true};
    size_t cap = t->n_req + t->n_opt + 1;
    s.names = ARENA_NEWN(x->L->a, struct value *, cap);
    s.vals = ARENA_NEWN(x->L->a, struct value *, cap);
    for (size_t i = 0; i < t->n_req; i++)
        s.names[s.n++] = t->req[i];
    for (size_t i = 0; i < t->n_opt; i++)
        s.names[s.n++] = t->opt[i];
    if (t->rest)
        s.names[s.n++] = t->rest;
    for (size_t i = 0; i < s.n; i++)
        s.vals[i] = x->L->nil;
    subst_form(&s, t->body, 1, 0);
    return s.ok;
}

/* Fill *t from a lambda list and a (` TEMPLATE) form. */
static bool make_template(struct expand_ctx *x, struct pm_template *t,
                          struct value *name, struct value *arglist,
                          struct value *body, bool defaults)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    if (!symname(name) || !parse_params(x, t, arglist, defaults)
        || bq_kind(x, body) != BQ_BACKQUOTE)
        return false;
    t->body = bq_arg(body);
    return check_template(x, t);
}

bool pcase_macros_define_template(struct expand_ctx *x, struct value *name,
                                  struct value *arglist,
                                  struct value *template_body)
{
    struct pm_template t;
    if (!make_template(x, &t, name, arglist, template_body, true)) {
        pm_error(x, template_body, "config",
                 "pattern macro %s: args must be a lambda list (&optional with "
                 "constant defaults, &rest) and expand one backquote form whose "
                 "only computation is ,ARG and ,@ARG", pm_name(x, name));
        return false;
    }
    add_template(table(x), &t);
    return true;
}

/* ---- learning pcase-defmacro ---- */

/* BODY of (pcase-defmacro NAME ARGS BODY...) without its declare form and
 * docstring; *n gets the count. */
static struct value **defmacro_body(struct expand_ctx *x, struct value **v,
                                    size_t n, size_t *m)
{
    struct value **body = ARENA_NEWN(x->L->a, struct value *, n + 1);
    struct value *decl = NULL;
    for (size_t i = 0; i < n && !decl; i++)
        if (value_consp(v[i]) && pm_symbol_named(value_car(v[i]), "declare"))
            decl = v[i];
    *m = 0;
    for (size_t i = 0; i < n; i++)
        if (!decl || !value_equal(v[i], decl))
            body[(*m)++] = v[i];
    if (*m >= 2 && value_is(body[0], VK_STRING)) {
        (*m)--;
        return body + 1;
    }
    return body;
}

/* A pcase-defmacro: a template when its body is one backquote form,
 * else a function for the evaluator. */
static struct value *learn_defmacro(struct expand_ctx *x, struct value *form,
                                    const char *origin)
{
    size_t n, m;
    struct value **v = pm_items(x, form, &n);
    if (!v || n < 3 || !symname(v[1]) || is_core(v[1]))
        return NULL;
    struct value *args = v[2];
    if (!value_consp(args) && !lisp_nilp(x->L, args))
        return NULL;
    struct value **body = defmacro_body(x, v + 3, n - 3, &m);
    struct pm_template t;
    if (!(m == 1 && make_template(x, &t, v[1], args, body[0], false))) {
        memset(&t, 0, sizeof t);
        t.name = v[1];
        t.evaluated = true;
        t.fn = (struct interp_fn){v[1], args, value_cdr(value_cdr(value_cdr(form))), x->L->nil,
                                  NULL, true, false};
    }
    t.def = form;
    t.origin = origin;
    t.from_file = true;
    add_template(table(x), &t);
    return v[1];
}

struct value *pcase_macros_learn_from(struct expand_ctx *x, struct value *form,
                                      const char *origin)
{
    if (!value_consp(form))
        return NULL;
    if (pm_symbol_named(value_car(form), "pcase-defmacro"))
        return learn_defmacro(x, form, origin);
    if (pm_symbol_named(value_car(form), "cl-defstruct") &&
        pcase_macros_learn_defstruct(x, form, origin))
        return value_consp(value_car(value_cdr(form))) ? value_car(value_car(value_cdr(form)))
                                                       : value_car(value_cdr(form));
    struct rx_error err;
    struct pcase_macros *m = table(x);
    if (!pm_symbol_named(value_car(form), "rx-define") || !rx_define_form(m->rx, form, &err))
        return NULL;
    if (m->n_rx == m->cap_rx) {
        size_t cap = m->cap_rx ? 2 * m->cap_rx : 8;
        m->rx_names = arena_grow(m->L->a, m->rx_names, m->cap_rx * sizeof *m->rx_names,
                                 cap * sizeof *m->rx_names);
        m->cap_rx = cap;
    }
    return m->rx_names[m->n_rx++] = value_car(value_cdr(form));
}

bool pcase_macros_learn(struct expand_ctx *x, struct value *form)
{
    return pcase_macros_learn_from(x, form, NULL) != NULL;
}

bool pcase_macros_check_definition(struct expand_ctx *x, struct value *form)
{
    if (!value_consp(form) || !pm_symbol_named(value_car(form), "rx-define"))
        return true;
    /* checked against a scratch environment: the table has it already */
    struct rx_error err;
    if (rx_define_form(rx_env_new(x->L), form, &err))
        return true;
    pm_error(x, pm_at(x, err.at, form), "malformed-pattern", "%s", err.message);
    return false;
}

/* ---- expansion ---- */

static const struct value *current_orig(struct expand_ctx *x)
{
    return x->macros ? x->macros->cur_orig : NULL;
}

static struct value *unknown(struct expand_ctx *x, struct value *pat,
                             const struct builtin_row *b)
{
    const struct value *at = pm_at(x, pat, NULL);
    const char *name = pm_name(x, value_car(pat));
    x->missed = true;
    pm_error(x, at, "unknown-pattern", "Unknown %s pattern: %s", name,
             pm_show(x, pat));
    struct buf prefix;
    buf_init(&prefix, x->L->a);
    buf_printf(&prefix, "Unknown %s pattern: ", name);
    expand_set_error_signal(x, buf_cstr(&prefix), pat);
    if (b) /* present but disabled */
        expand_diag(x, DIAG_NOTE, at, "unknown-pattern",
                    "the built-in %s pattern macro is disabled by "
                    "builtin-pattern-macros", name);
    else
        expand_diag(x, DIAG_NOTE, at, "unknown-pattern",
                    "pattern macro '%s' is not defined in this file or the files it "
                    "requires, nor under pattern-macros", name);
    learn_note_skipped(x, at, "unknown-pattern");
    return NULL;
}

/* Where an evaluated pattern macro was defined, for notes. */
static void note_definition(struct expand_ctx *x, const struct pm_template *t,
                            const struct value *at, const char *code)
{
    if (t->origin)
        expand_diag(x, DIAG_NOTE, at, code, "pattern macro %s is defined in %s",
                    pm_name(x, t->name), t->origin);
    else
        expand_diag(x, DIAG_NOTE, t->def, code, "pattern macro %s is defined here",
                    pm_name(x, t->name));
}

/* An evaluated pattern macro applied to the arguments of pat. */
static struct value *apply_evaluated(struct expand_ctx *x, const struct pm_template *t,
                                     struct value *pat)
{
    const struct value *at = pm_at(x, pat, NULL);
    const char *name = pm_name(x, t->name);
    struct interp_result r;
    interp_apply(x->L, learn_host(x), &t->fn, value_cdr(pat), &r);
    const char *code = r.status == INTERP_SIGNAL  ? "malformed-pattern"
                       : r.status == INTERP_LIMIT ? "nesting-too-deep"
                                                  : "macro-eval";
    switch (r.status) {
    case INTERP_OK:
        if (lisp_nilp(x->L, r.value))
            return pm_error(x, at, "malformed-pattern", "Unexpandable %s pattern: %s", name,
                            pm_show(x, pat));
        return r.value;
    case INTERP_UNKNOWN:
        x->missed = true;
        pm_error(x, at, code, "pattern macro %s cannot be expanded: its body %s %s, which "
                 "pcexpand does not evaluate", name, r.variable ? "reads the variable" : "calls",
                 pm_show(x, r.what));
        break;
    case INTERP_SIGNAL:
        pm_error(x, at, code, "%s", r.message);
        expand_set_signal(x, r.signal); /* what Emacs signals expanding it */
        break;
    case INTERP_LIMIT:
        pm_error(x, at, code, "pattern macro %s: %s", name, r.message);
        break;
    }
    note_definition(x, t, at, code);
    if (r.status == INTERP_UNKNOWN)
        learn_note_skipped(x, at, code);
    return NULL;
}

static struct value *expand_once(struct expand_ctx *x, struct value *pat)
{
    struct pcase_macros *m = table(x);
    struct value *head = value_car(pat);
    const struct builtin_row *b;
    const struct pm_template *t = in_charge(m, head, &b);
    bool lib = !t && b && (m->builtins & b->family);
    if (!t && !lib)
        return unknown(x, pat, b);
    size_t n;
    struct value **args = pm_items(x, value_cdr(pat), &n);
    if (!args)
        return pm_error(x, pm_at(x, pat, NULL), "malformed-pattern",
                        "Malformed %s pattern (not a proper list): %s",
                        pm_name(x, head), pm_show(x, pat));
    if (t && t->evaluated)
        return apply_evaluated(x, t, pat);
    if (t)
        return apply_template(x, t, pat, args, n);
    return b->fn(x, pat, value_cdr(pat));
}

static struct value *too_deep(struct expand_ctx *x, struct value *orig,
                              int limit)
{
    return pm_error(x, pm_at(x, orig, NULL), "nesting-too-deep",
                    "pattern macro %s keeps expanding to pattern macros "
                    "(stopped after %d rewrites)", pm_show(x, value_car(orig)),
                    limit);
}

struct value *pcase_macros_expand(struct expand_ctx *x, struct value *pattern)
{
    struct pcase_macros *m = table(x);
    struct value *orig = pattern;
    const struct value *saved = m->cur_orig;
    int limit = x->max_depth > 0 ? x->max_depth : PM_MAX_STEPS;
    m->cur_orig = pattern;
    for (int step = 0; pattern && value_consp(pattern)
                       && !is_core(value_car(pattern));
         step++) {
        if (step >= limit) {
            pattern = too_deep(x, orig, limit);
            break;
        }
        pattern = expand_once(x, pattern);
    }
    m->cur_orig = saved;
    return pattern;
}
