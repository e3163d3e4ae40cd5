/* pcase_macros_lib.c - pattern macros of Emacs libraries: seq, map, rx,
 * cl-type and eieio (pcase.md 2.7), called by pcase_macros.c's dispatch.
 *
 * Each produces the pattern Emacs 30's macro produces, calls written with
 * Emacs 30's `_` placeholder (never pcase--flip); rx patterns carry the
 * regexp computed by rx.c.
 */
#include "expand/pcase_macros_int.h"

#include <string.h>

#include "base/buf.h"
#include "expand/rx.h"

#define UNDERSCORE(x) pm_sym((x), "_")

static struct value *arity_error(struct expand_ctx *x, struct value *pat)
{
    return pm_error(x, pm_at(x, pat, NULL), "malformed-pattern",
                    "Wrong number of arguments for %s pattern: %s",
                    pm_name(x, value_car(pat)), pm_show(x, pat));
}

/* (pred (F _ 'ARG)) style call: (F _ A...) */
static struct value *call_(struct expand_ctx *x, const char *f, struct value *a,
                           struct value *b)
{
    return lisp_listv(x->L, pm_sym(x, f), UNDERSCORE(x), a, b, NULL);
}

static struct value *pred(struct expand_ctx *x, struct value *fun)
{
    return lisp_listv(x->L, pm_sym(x, "pred"), fun, NULL);
}

/* ---- seq ---- */

/* (seq P0 .. Pn-1 [&rest PR]) -> (and (pred seqp) APP...), the apps in
 * reverse order (seq.el pushes them), the &rest one first. */
struct value *pcase_macros_seq(struct expand_ctx *x, struct value *pat,
                               struct value *args)
{
    size_t n;
    struct value **v = pm_items(x, args, &n);
    struct value **apps = ARENA_NEWN(x->L->a, struct value *, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        struct value *idx = value_int(x->L->a, (int64_t)i);
        if (pm_symbol_named(v[i], "&rest")) {
            if (i + 1 >= n)
                return pm_missing(x, pat);
            apps[k++] = pm_app(x, call_(x, "seq-drop", idx, NULL), v[i + 1]);
            break;
        }
        apps[k++] = pm_app(x, call_(x, "seq--elt-safe", idx, NULL), v[i]);
    }
    for (size_t i = 0; i < k / 2; i++) {
        struct value *tmp = apps[i];
        apps[i] = apps[k - 1 - i];
        apps[k - 1 - i] = tmp;
    }
    return pm_and(x, pred(x, pm_sym(x, "seqp")), apps, k);
}

/* ---- map ---- */

static bool keywordp(const struct value *v)
{
    return value_symbolp(v) && v->u.sym.interned && v->u.sym.len > 0
           && v->u.sym.name[0] == ':';
}

/* (KEY PAT [DEFAULT]) -> (app (map-elt _ KEY DEFAULT) PAT): Emacs 30's
 * map.el passes DEFAULT always, nil when there is none. */
static struct value *map_pair(struct expand_ctx *x, struct value *elt)
{
    size_t n;
    struct value **v = pm_items(x, elt, &n);
    if (!v)
        return pm_error(x, pm_at(x, elt, NULL), "malformed-pattern",
                        "Malformed map pattern element: %s", pm_show(x, elt));
    if (n < 2)
        return pm_missing(x, elt);
    struct value *def = n >= 3 ? v[2] : x->L->nil;
    if (!lisp_nilp(x->L, def))
        expand_diag(x, DIAG_WARNING, pm_at(x, def, elt), "map-default-ignored",
                    "map pattern DEFAULT %s is honoured as in Emacs 30; Emacs "
                    "28.2 ignores it", pm_show(x, def));
    return pm_app(x, call_(x, "map-elt", v[0], def), v[1]);
}

static struct value *map_elt(struct expand_ctx *x, struct value *elt)
{
    if (value_consp(elt))
        return map_pair(x, elt);
    if (keywordp(elt)) {
        struct value *var = intern_symbol(x->L, elt->u.sym.name + 1,
                                          elt->u.sym.len - 1);
        return pm_app(x, call_(x, "map-elt", elt, NULL), var);
    }
    return pm_app(x, call_(x, "map-elt", pm_quote(x, elt), NULL), elt);
}

typedef struct value *field_fn(struct expand_ctx *x, struct value *arg);

/* (and (pred TYPE_P) FIELD(ARG)...) for the ARGs of a map or eieio
 * pattern; NULL when a FIELD failed (it reported why). */
static struct value *pred_and_fields(struct expand_ctx *x, struct value *args,
                                     const char *type_p, field_fn *field)
{
    size_t n;
    struct value **v = pm_items(x, args, &n);
    struct value **apps = ARENA_NEWN(x->L->a, struct value *, n + 1);
    for (size_t i = 0; i < n; i++)
        if (!(apps[i] = field(x, v[i])))
            return NULL;
    return pm_and(x, pred(x, pm_sym(x, type_p)), apps, n);
}

/* (map ARG...) -> (and (pred mapp) (app (map-elt _ KEY) PAT)...). */
struct value *pcase_macros_map(struct expand_ctx *x, struct value *pat,
                               struct value *args)
{
    (void)pat;
    return pred_and_fields(x, args, "mapp", map_elt);
}

/* ---- cl-type and eieio ---- */

/* (cl-type TYPE) -> (pred (cl-typep _ 'TYPE)). */
struct value *pcase_macros_cl_type(struct expand_ctx *x, struct value *pat,
                                   struct value *args)
{
    if (!value_consp(args) || !lisp_nilp(x->L, value_cdr(args)))
        return arity_error(x, pat);
    return pred(x, call_(x, "cl-typep", pm_quote(x, value_car(args)), NULL));
}

/* FIELD is (NAME PAT) or NAME: (app (eieio-oref _ 'NAME) PAT). */
static struct value *eieio_field(struct expand_ctx *x, struct value *f)
{
    size_t n;
    struct value **v = value_consp(f) ? pm_items(x, f, &n) : NULL;
    if (v && n == 2)
        return pm_app(x, call_(x, "eieio-oref", pm_quote(x, v[0]), NULL), v[1]);
    if (value_symbolp(f))
        return pm_app(x, call_(x, "eieio-oref", pm_quote(x, f), NULL), f);
    return pm_error(x, pm_at(x, f, NULL), "malformed-pattern",
                    "No clause matching `%s' (an eieio field is NAME or "
                    "(NAME PAT))", pm_show(x, f));
}

/* (eieio FIELD...) -> (and (pred eieio-object-p) APP...). */
struct value *pcase_macros_eieio(struct expand_ctx *x, struct value *pat,
                                 struct value *args)
{
    (void)pat;
    return pred_and_fields(x, args, "eieio-object-p", eieio_field);
}

/* ---- rx ---- */

/* Submatch names of (let NAME RX...), in order of first definition. */
struct rx_names {
    struct value **v;
    size_t n, cap;
};

static size_t name_index(const struct rx_names *names, const struct value *name)
{
    for (size_t i = 0; i < names->n; i++)
        if (names->v[i] == name)
            return i + 1;
    return 0;
}

static size_t name_add(struct expand_ctx *x, struct rx_names *names,
                       struct value *name)
{
    if (names->n == names->cap) {
        size_t cap = names->cap * 2 + 4;
        names->v = arena_grow(x->L->a, names->v, names->cap * sizeof *names->v,
                              cap * sizeof *names->v);
        names->cap = cap;
    }
    names->v[names->n++] = name;
    return names->n;
}

struct rx_pcase {
    struct expand_ctx *x;
    struct rx_names names;
    const struct value *pat; /* the rx pattern (error fallback) */
};

static struct value *transform(struct rx_pcase *p, struct value *form, int depth);

/* Map transform over the list body; the same list when nothing changed. */
static struct value *transform_list(struct rx_pcase *p, struct value *body,
                                    int depth)
{
    size_t n;
    struct value **v = pm_items(p->x, body, &n);
    if (!v) /* not a list: the translation says so, as rx.el does */
        return body;
    bool changed = false;
    for (size_t i = 0; i < n; i++) {
        struct value *t = transform(p, v[i], depth + 1);
        if (!t)
            return NULL;
        changed = changed || t != v[i];
        v[i] = t;
    }
    return changed ? lisp_list(p->x->L, n, v) : body;
}

/* (let NAME RX...) -> (group-n I (seq RX...)). */
static struct value *transform_let(struct rx_pcase *p, struct value *form,
                                   int depth)
{
    struct expand_ctx *x = p->x;
    struct value *name = value_car(value_cdr(form));
    size_t i = name_index(&p->names, name);
    if (!i)
        i = name_add(x, &p->names, name);
    struct value *seq = value_cons(x->L->a, pm_sym(x, "seq"),
                                   value_cdr(value_cdr(form)));
    struct value *body = transform(p, seq, depth + 1);
    if (!body)
        return NULL;
    return lisp_listv(x->L, pm_sym(x, "group-n"), value_int(x->L->a, (int64_t)i),
                      body, NULL);
}

/* (backref NAME) -> (backref I). */
static struct value *transform_backref(struct rx_pcase *p, struct value *form)
{
    struct expand_ctx *x = p->x;
    struct value *ref = value_car(value_cdr(form));
    size_t i = name_index(&p->names, ref);
    if (i)
        return lisp_listv(x->L, value_car(form), value_int(x->L->a, (int64_t)i),
                          NULL);
    struct buf b;
    buf_init(&b, x->L->a);
    for (size_t k = p->names.n; k-- > 0;)
        buf_printf(&b, "%s%s", k + 1 < p->names.n ? " " : "",
                   pm_show(x, p->names.v[k]));
    return pm_error(x, pm_at(x, form, p->pat), "malformed-pattern",
                    "rx `backref' variable must be one of: %s", buf_cstr(&b));
}

static bool one_arg(struct expand_ctx *x, const struct value *form)
{
    return value_consp(value_cdr(form))
           && lisp_nilp(x->L, value_cdr(value_cdr(form)));
}

/* rx--pcase-transform: named submatches become numbered groups. */
static struct value *transform(struct rx_pcase *p, struct value *form, int depth)
{
    struct expand_ctx *x = p->x;
    if (depth > RX_MAX_DEPTH)
        return pm_error(x, pm_at(x, form, p->pat), "nesting-too-deep",
                        "rx pattern nested too deeply");
    if (!value_consp(form))
        return form;
    struct value *head = value_car(form);
    if (pm_symbol_named(head, "let") && value_consp(value_cdr(form)))
        return transform_let(p, form, depth);
    if (pm_symbol_named(head, "backref") && one_arg(x, form)
        && value_symbolp(value_car(value_cdr(form))))
        return transform_backref(p, form);
    bool opchar = head->kind == VK_INT && (head->u.i == ' ' || head->u.i == '?');
    if (!(value_symbolp(head) || opchar) || pm_symbol_named(head, "literal")
        || pm_symbol_named(head, "regexp") || pm_symbol_named(head, "regex")
        || pm_symbol_named(head, "eval"))
        return form;
    struct value *rest = transform_list(p, value_cdr(form), depth);
    if (!rest)
        return NULL;
    return rest == value_cdr(form) ? form : value_cons(x->L->a, head, rest);
}

static struct value *rx_regexp(struct rx_pcase *p, struct value *pat)
{
    struct expand_ctx *x = p->x;
    struct value *seq = transform(p, value_cons(x->L->a, pm_sym(x, "seq"),
                                                value_cdr(pat)), 0);
    if (!seq)
        return NULL;
    struct rx_error err;
    struct value *re = rx_translate(x->L, pcase_macros_rx_env(x), true, seq, &err);
    if (re && !value_is(re, VK_STRING))
        x->missed = true; /* run-time names: perhaps defined before a part */
    if (re)
        return re;
    const struct value *at = pm_at(x, err.at, pat);
    return pm_error(x, at, err.kind == RX_ERR_TOO_DEEP ? "nesting-too-deep"
                                                        : "malformed-pattern",
                    "%s", err.message);
}

/* (lambda (s) BODY) */
static struct value *lambda_s(struct expand_ctx *x, struct value *body)
{
    return lisp_listv(x->L, x->L->lambda, lisp_listv(x->L, pm_sym(x, "s"), NULL),
                      body, NULL);
}

static struct value *match_string(struct expand_ctx *x, size_t i)
{
    return lisp_listv(x->L, pm_sym(x, "match-string"),
                      value_int(x->L->a, (int64_t)i), pm_sym(x, "s"), NULL);
}

/* One submatch: 0 encodes failure (the submatch itself may be nil). */
static struct value *rx_one_var(struct expand_ctx *x, struct value *re,
                                struct value *name)
{
    struct lisp *L = x->L;
    struct value *s = pm_sym(x, "s");
    struct value *match = lisp_listv(L, pm_sym(x, "string-match"), re, s, NULL);
    struct value *body = lisp_listv(L, pm_sym(x, "if"), match, match_string(x, 1),
                                    value_int(L->a, 0), NULL);
    struct value *notnum = pred(x, lisp_listv(L, pm_sym(x, "not"),
                                              pm_sym(x, "numberp"), NULL));
    return pm_app(x, lambda_s(x, body),
                  lisp_listv(L, pm_sym(x, "and"), name, notnum, NULL));
}

/* Several submatches: a dotted list of them, destructured by backquote. */
static struct value *rx_vars(struct expand_ctx *x, struct value *re,
                             const struct rx_names *names)
{
    struct lisp *L = x->L;
    size_t n = names->n;
    struct value *conses = match_string(x, n);
    struct value *qpat = lisp_listv(L, L->comma, names->v[n - 1], NULL);
    for (size_t i = n - 1; i-- > 0;) {
        conses = lisp_listv(L, pm_sym(x, "cons"), match_string(x, i + 1), conses, NULL);
        qpat = value_cons(L->a, lisp_listv(L, L->comma, names->v[i], NULL), qpat);
    }
    struct value *match = lisp_listv(L, pm_sym(x, "string-match"), re,
                                     pm_sym(x, "s"), NULL);
    struct value *body = lisp_listv(L, pm_sym(x, "and"), match, conses, NULL);
    return pm_app(x, lambda_s(x, body), lisp_listv(L, L->backquote, qpat, NULL));
}

/* (rx RX...) -> (and (pred stringp) MATCH), MATCH per number of names. */
struct value *pcase_macros_rx(struct expand_ctx *x, struct value *pat,
                              struct value *args)
{
    struct rx_pcase p = {.x = x, .pat = pat};
    struct value *re = rx_regexp(&p, pat);
    (void)args;
    if (!re)
        return NULL;
    struct value *m;
    if (p.names.n == 0)
        m = pred(x, lisp_listv(x->L, pm_sym(x, "string-match"), re, NULL));
    else if (p.names.n == 1)
        m = rx_one_var(x, re, p.names.v[0]);
    else
        m = rx_vars(x, re, &p.names);
    return lisp_listv(x->L, pm_sym(x, "and"), pred(x, pm_sym(x, "stringp")), m,
                      NULL);
}
