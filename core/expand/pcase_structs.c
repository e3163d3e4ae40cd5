/* pcase_structs.c - struct layouts and the cl-struct pattern macro.
 *
 * Part of pattern-macro expansion (pcase.md 2.7).  Slot offsets come from
 * cl-defstruct forms met earlier in the input or in the files it requires
 * (computed as cl-defstruct computes its slot table), or from the
 * configuration's `structs:`.  Without a layout a cl-struct pattern never
 * guesses an offset: it reads each slot with cl-struct-slot-value when the
 * code runs, and says so in a note (struct-layout-unknown).
 */
#include "expand/pcase_macros_int.h"

#include <string.h>

#include "expand/learn.h"

/* ---- the table ---- */

const struct pm_struct *pcase_macros_find_struct(struct pcase_macros *m,
                                                 const struct value *name)
{
    for (size_t i = m->n_st; i-- > 0;)
        if (m->st[i].name == name)
            return &m->st[i];
    return NULL;
}

static void add_struct(struct pcase_macros *m, const struct pm_struct *s)
{
    if (m->n_st == m->cap_st) {
        size_t cap = m->cap_st ? m->cap_st * 2 : 8;
        m->st = arena_grow(m->L->a, m->st, m->cap_st * sizeof *m->st,
                           cap * sizeof *m->st);
        m->cap_st = cap;
    }
    m->st[m->n_st++] = *s;
}

static struct pcase_macros *table(struct expand_ctx *x)
{
    if (!x->macros)
        x->macros = pcase_macros_new(x->L);
    return x->macros;
}

/* Entry list under construction. */
struct entries {
    struct value **v;
    size_t n, cap;
};

static void entries_push(struct arena *a, struct entries *e, struct value *v)
{
    if (e->n == e->cap) {
        size_t cap = e->cap * 2 + 8;
        e->v = arena_grow(a, e->v, e->cap * sizeof *e->v, cap * sizeof *e->v);
        e->cap = cap;
    }
    e->v[e->n++] = v;
}

void pcase_macros_define_struct(struct expand_ctx *x, struct value *name,
                                enum pcase_macros_struct_type type, bool named,
                                struct value *slots)
{
    struct pm_struct s = {.name = name, .type = type};
    struct entries e = {0};
    if (type == PCASE_STRUCT_RECORD || named)
        entries_push(x->L->a, &e, pm_sym(x, "cl-tag-slot"));
    for (; value_consp(slots); slots = value_cdr(slots))
        entries_push(x->L->a, &e, value_car(slots));
    s.e = e.v;
    s.n = e.n;
    s.class_named = type != PCASE_STRUCT_RECORD && named;
    add_struct(table(x), &s);
}

/* ---- learning cl-defstruct ---- */

/* What the options of one cl-defstruct say. */
struct defstruct {
    struct value *name;
    struct value *include;  /* :include parent, or NULL */
    bool typed;             /* :type given */
    enum pcase_macros_struct_type type;
    bool named;             /* :named */
    long skips;             /* :initial-offset total */
};

static bool natnum(const struct value *v, long *out)
{
    if (v->kind != VK_INT || v->u.i < 0 || v->u.i > 100000)
        return false;
    *out = (long)v->u.i;
    return true;
}

/* One option, OPT or (OPT ARGS...); false for what cl-defstruct rejects. */
static bool defstruct_option(struct expand_ctx *x, struct defstruct *d,
                             struct value *o)
{
    struct value *kw = value_consp(o) ? value_car(o) : o;
    struct value *args = value_consp(o) ? value_cdr(o) : x->L->nil;
    struct value *a0 = value_consp(args) ? value_car(args) : x->L->nil;
    long k;
    if (pm_symbol_named(kw, ":include")) {
        if (d->include || !value_symbolp(a0))
            return false;
        d->include = a0;
    } else if (pm_symbol_named(kw, ":type")) {
        d->typed = true;
        if (pm_symbol_named(a0, "vector"))
            d->type = PCASE_STRUCT_VECTOR;
        else if (pm_symbol_named(a0, "list"))
            d->type = PCASE_STRUCT_LIST;
        else
            return false;
    } else if (pm_symbol_named(kw, ":named"))
        d->named = true;
    else if (pm_symbol_named(kw, ":initial-offset")) {
        if (!natnum(a0, &k))
            return false;
        d->skips += k;
    } else {
        static const char *const ignored[] = {":conc-name", ":constructor",
            ":copier", ":predicate", ":print-function", ":noinline", NULL};
        for (const char *const *p = ignored; *p; p++)
            if (pm_symbol_named(kw, *p))
                return true;
        return false;
    }
    return true;
}

/* Slot names of the defstruct body (after the optional docstring). */
static bool own_slots(struct expand_ctx *x, struct value **v, size_t n,
                      struct entries *out)
{
    size_t i = n > 0 && value_is(v[0], VK_STRING) ? 1 : 0;
    for (; i < n; i++) {
        struct value *s = value_consp(v[i]) ? value_car(v[i]) : v[i];
        if (!value_symbolp(s))
            return false;
        entries_push(x->L->a, out, s);
    }
    return true;
}

/* cl-struct-slot-info of a parent: records list their hidden tag first. */
static void parent_info(struct expand_ctx *x, const struct pm_struct *p,
                        struct entries *out)
{
    struct value *tag = pm_sym(x, "cl-tag-slot");
    if (p->type == PCASE_STRUCT_RECORD && (p->n == 0 || p->e[0] != tag))
        entries_push(x->L->a, out, tag);
    for (size_t i = 0; i < p->n; i++)
        entries_push(x->L->a, out, p->e[i]);
}

/* The layout of d with own slots `own': cl-defstruct's descs. */
static bool defstruct_layout(struct expand_ctx *x, const struct defstruct *d,
                             const struct entries *own, struct pm_struct *s)
{
    struct value *tag = pm_sym(x, "cl-tag-slot");
    struct entries e = {0};
    static const struct pm_struct root = {.type = PCASE_STRUCT_RECORD};
    const struct pm_struct *parent = NULL;
    if (d->include)
        parent = pcase_macros_find_struct(table(x), d->include);
    else if (!d->typed)
        parent = &root; /* cl-structure-object: just the tag */
    if (d->include && (!parent || parent->missing)) {
        s->missing = d->include;
        return true;
    }
    if (!parent) { /* typed, no parent */
        for (long i = 0; i < d->skips; i++)
            entries_push(x->L->a, &e, pm_sym(x, "cl-skip-slot"));
        if (d->named)
            entries_push(x->L->a, &e, tag);
        s->type = d->type;
        s->class_named = d->named;
    } else {
        if (d->typed && d->type != parent->type)
            return false; /* ":type disagrees with :include" */
        parent_info(x, parent, &e);
        for (long i = 0; i < d->skips; i++)
            entries_push(x->L->a, &e, pm_sym(x, "cl-skip-slot"));
        s->type = parent->type;
        s->class_named = parent->type != PCASE_STRUCT_RECORD && parent->class_named;
    }
    for (size_t i = 0; i < own->n; i++)
        entries_push(x->L->a, &e, own->v[i]);
    s->e = e.v;
    s->n = e.n;
    return true;
}

bool pcase_macros_learn_defstruct(struct expand_ctx *x, struct value *form,
                                  const char *origin)
{
    size_t n;
    struct value **v = pm_items(x, form, &n);
    if (!v || n < 2)
        return false;
    struct defstruct d = {.name = value_consp(v[1]) ? value_car(v[1]) : v[1]};
    if (!value_symbolp(d.name) || lisp_nilp(x->L, d.name))
        return false;
    size_t no = 0;
    struct value **opts = value_consp(v[1]) ? pm_items(x, value_cdr(v[1]), &no) : v;
    if (!opts)
        return false;
    for (size_t i = 0; value_consp(v[1]) && i < no; i++)
        if (!defstruct_option(x, &d, opts[i]))
            return false;
    struct entries own = {0};
    if (!own_slots(x, v + 2, n - 2, &own))
        return false;
    struct pm_struct s = {.name = d.name, .def = form, .origin = origin, .from_file = true};
    if (!defstruct_layout(x, &d, &own, &s))
        return false;
    add_struct(table(x), &s);
    return true;
}

/* ---- the cl-struct pattern ---- */

/* cl-struct-slot-offset: the last entry of that name (the index table is
 * filled in order); records hide a leading tag and count from 1. */
static long slot_offset(const struct pm_struct *s, const struct value *slot,
                        const struct value *tag)
{
    long pos = -1;
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i] == slot)
            pos = (long)i;
    if (pos < 0 || s->type != PCASE_STRUCT_RECORD)
        return pos;
    return s->n > 0 && s->e[0] == tag ? pos : pos + 1;
}

/* The note of a cl-struct pattern whose slots are read at run time. */
static void layout_unknown(struct expand_ctx *x, struct value *pat, struct value *type,
                           const struct pm_struct *s)
{
    const struct value *at = pm_at(x, type, pat);
    x->missed = true;
    if (s && s->missing)
        expand_diag(x, DIAG_NOTE, at, "struct-layout-unknown",
                    "the layout of struct %s is not known: it includes %s, whose "
                    "definition was not seen; its slots are read with "
                    "cl-struct-slot-value when the code runs", pm_show(x, type),
                    pm_show(x, s->missing));
    else
        expand_diag(x, DIAG_NOTE, at, "struct-layout-unknown",
                    "the layout of struct %s is not known (no cl-defstruct of it in this "
                    "file, the files it requires or the configuration): its slots are "
                    "read with cl-struct-slot-value when the code runs", pm_show(x, type));
}

/* FIELD -> (app (nth OFFSET) PAT) or (app (aref _ OFFSET) PAT). */
static struct value *struct_field(struct expand_ctx *x, struct value *pat,
                                  struct value *type, const struct pm_struct *s,
                                  struct value *field)
{
    struct value *name = value_consp(field) ? value_car(field) : field;
    struct value *fpat = field;
    if (value_consp(field)) {
        if (!value_consp(value_cdr(field)))
            return lisp_nilp(x->L, value_cdr(field))
                       ? pm_missing(x, field)
                       : pm_error(x, pm_at(x, field, pat), "malformed-pattern",
                                  "Malformed cl-struct field: %s", pm_show(x, field));
        fpat = value_car(value_cdr(field));
    }
    if (!s || s->missing) /* (cl-struct-slot-value 'TYPE 'NAME x) */
        return pm_app(x, lisp_listv(x->L, pm_sym(x, "cl-struct-slot-value"),
                                    pm_quote(x, type), pm_quote(x, name), NULL),
                      fpat);
    long off = slot_offset(s, name, pm_sym(x, "cl-tag-slot"));
    if (off < 0)
        return pm_error(x, pm_at(x, name, field), "malformed-pattern",
                        "struct has no slot: %s, %s", pm_show(x, type),
                        pm_show(x, name));
    struct value *o = value_int(x->L->a, off);
    struct value *fun = s->type == PCASE_STRUCT_LIST
        ? lisp_listv(x->L, pm_sym(x, "nth"), o, NULL)
        : lisp_listv(x->L, pm_sym(x, "aref"), pm_sym(x, "_"), o, NULL);
    return pm_app(x, fun, fpat);
}

/* (cl-struct TYPE FIELD...) -> (and (pred (cl-typep _ 'TYPE)) APP...). */
struct value *pcase_macros_cl_struct(struct expand_ctx *x, struct value *pat,
                                     struct value *args)
{
    size_t n;
    struct value **v = pm_items(x, args, &n);
    if (n < 1)
        return pm_error(x, pm_at(x, pat, NULL), "malformed-pattern",
                        "Wrong number of arguments for cl-struct pattern: %s",
                        pm_show(x, pat));
    struct value *type = v[0];
    if (!value_symbolp(type) || lisp_nilp(x->L, type))
        return pm_error(x, pm_at(x, type, pat), "malformed-pattern", "%s is not a struct name",
                        pm_show(x, type));
    const struct pm_struct *s = pcase_macros_find_struct(table(x), type);
    struct value **apps = ARENA_NEWN(x->L->a, struct value *, n);
    for (size_t i = 1; i < n; i++)
        if (!(apps[i - 1] = struct_field(x, pat, type, s, v[i])))
            return NULL;
    if (n > 1 && (!s || s->missing))
        layout_unknown(x, pat, type, s);
    struct value *typep = lisp_listv(x->L, pm_sym(x, "cl-typep"), pm_sym(x, "_"),
                                     pm_quote(x, type), NULL);
    struct value *pred = lisp_listv(x->L, pm_sym(x, "pred"), typep, NULL);
    return pm_and(x, pred, apps, n - 1);
}
