/* pcase.c - entry points of the pcase family (see pcase.h; pcase.md 1).
 *
 * One function per head, dispatched from a sorted table: pcase and
 * pcase-exhaustive compile their clauses once; pcase-let* destructures its
 * bindings from the last to the first (no recursion on their number), each
 * non-trivial one as a two-clause compilation with an unchecked catch-all;
 * pcase-let binds every value first and destructures in reverse order;
 * pcase-dolist, pcase-setq and pcase-lambda reduce to those.  The cond*
 * interface and the dumps share the same code.
 *
 * Functions, in order: list helpers, the binding list of pcase-let*
 * (let_star), the seven heads, pcase_expand, pcase_compile_clauses,
 * pcase_destructure, pcase_dump, pcase_explain.
 */
#include "expand/pcase.h"

#include <string.h>

#include "expand/gensym.h"
#include "expand/pcase_int.h"
#include "syntax/pretty.h"

/* ---- helpers ---------------------------------------------------------- */

static struct value *sym(struct pcase_run *c, const char *name)
{
    return intern_cstr(c->L, name);
}

static struct value *cons(struct pcase_run *c, struct value *a, struct value *d)
{
    return value_cons(c->L->a, a, d);
}

static struct value *nth(struct pcase_run *c, struct value *l, int n)
{
    while (n-- > 0 && l->kind == VK_CONS)
        l = value_cdr(l);
    return l->kind == VK_CONS ? value_car(l) : c->L->nil;
}

/* Is v the interned symbol name?  The first byte rules most out. */
static bool is_named(const struct value *v, const char *name)
{
    return v->kind == VK_SYMBOL && v->u.sym.interned && v->u.sym.name[0] == name[0] &&
           !strcmp(v->u.sym.name, name);
}

/* pcase--trivial-upat-p: a symbol that is not a wildcard. */
static bool trivial(struct pcase_run *c, const struct value *p)
{
    return p->kind == VK_SYMBOL && p != c->L->t && !is_named(p, "_") &&
           !is_named(p, "pcase--dontcare");
}

/* Expanded copies of a list of user forms; NULL after an error. */
static struct value *code_list(struct pcase_run *c, struct value *forms)
{
    struct value *out = c->L->nil, **tail = &out;
    for (; forms->kind == VK_CONS; forms = value_cdr(forms)) {
        struct value *f = pcase_code(c, value_car(forms));
        if (!f)
            return NULL;
        *tail = cons(c, f, c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    return out;
}

/* Length of the proper list l; false after an error at `at` when l is
 * dotted or circular. */
static bool proper(struct pcase_run *c, struct value *l, struct value *at, const char *what,
                   size_t *n)
{
    long len = value_list_length(l, c->L->nil);
    *n = (size_t)len;
    if (len >= 0)
        return true;
    pcase_diag(c, DIAG_ERROR, at, NULL, "malformed-pattern", "%s is not a proper list", what);
    return false;
}

/* The forms a generated form stands for in a body (a progn is spliced). */
static struct value *splice(struct pcase_run *c, struct value *forms)
{
    if (forms->kind == VK_CONS && value_cdr(forms) == c->L->nil) {
        struct value *f = value_car(forms);
        if (f->kind == VK_CONS && value_car(f) == sym(c, "progn") &&
            value_cdr(f)->kind == VK_CONS)
            return value_cdr(f);
    }
    return forms;
}

/* One form for a body. */
static struct value *progn(struct pcase_run *c, struct value *forms)
{
    if (forms == c->L->nil)
        return c->L->nil;
    if (value_cdr(forms) == c->L->nil)
        return value_car(forms);
    return cons(c, sym(c, "progn"), forms);
}

/* ---- pcase-let* ------------------------------------------------------- */

/* One destructuring binding. */
struct bind {
    struct value *pat;      /* pattern */
    struct value *exp;      /* value expression */
    bool exp_user;          /* exp is user code */
    struct value *cell;     /* the binding as written (positions) */
    struct value *scope;    /* where its variables may be used, or NULL */
    struct value *written;  /* --explain: what exp (a temporary) holds, as
                               written, or NULL */
    const char *note;       /* --explain: how that is evaluated */
};

/* (let* ((PAT EXP)) FORMS...), merged into FORMS when that is a let* this
 * function made itself (as Emacs's macroexp-let* does). */
static struct value *let1(struct pcase_run *c, struct value *pat, struct value *exp,
                          struct value *forms, struct value **mine)
{
    struct value *b = lisp_listv(c->L, pat, exp, NULL);
    if (*mine && forms->kind == VK_CONS && value_car(forms) == *mine &&
        value_cdr(forms) == c->L->nil) {
        struct value *rest = value_cdr(*mine);
        rest->u.cons.car = cons(c, b, value_car(rest));
        return forms;
    }
    *mine = cons(c, sym(c, "let*"), cons(c, cons(c, b, c->L->nil), forms));
    return cons(c, *mine, c->L->nil);
}

/* The body forms of (pcase-let* B[0..n) FORMS...), built from the last
 * binding to the first.  NULL after an error. */
static struct value *let_star(struct pcase_run *c, struct bind *b, size_t n, struct value *forms)
{
    struct value *mine = NULL;
    for (size_t i = n; i-- > 0;) {
        struct value *exp = b[i].exp_user ? pcase_code(c, b[i].exp) : b[i].exp;
        if (!exp)
            return NULL;
        if (trivial(c, b[i].pat)) {
            forms = let1(c, b[i].pat, exp, forms, &mine);
            continue;
        }
        struct pcase_clause cl[2];
        memset(cl, 0, sizeof cl);
        cl[0] = (struct pcase_clause){.form = b[i].cell, .pattern = b[i].pat,
                                   .cell = b[i].cell, .body = forms,
                                   .kind = EMIT_BODY, .scope = b[i].scope};
        cl[1].dontcare = true;
        cl[1].body = c->L->nil;
        c->written = b[i].written;
        c->written_note = b[i].note;
        struct value *f = pcase_compile(c, b[i].exp, b[i].exp_user, cl, 2, NULL);
        c->written = NULL;
        if (!f)
            return NULL;
        forms = cons(c, f, c->L->nil);
        mine = NULL;
    }
    return forms;
}

/* Bindings of a pcase-let* list; scope of each: what follows it. */
/* Emacs's error for the error just recorded: car of a non-list v. */
static void not_a_list(struct pcase_run *c, struct value *v)
{
    expand_set_signal(c->x, lisp_listv(c->L, INTERN_LIT(c->L, "wrong-type-argument"),
                                       INTERN_LIT(c->L, "listp"), v, NULL));
}

static struct bind *bindings(struct pcase_run *c, struct value *list, struct value *body,
                             size_t *n)
{
    if (!proper(c, list, list, "the binding list", n))
        return NULL;
    struct bind *b = ARENA_NEWN(c->L->a, struct bind, *n + 1);
    size_t i = 0;
    for (struct value *l = list; l->kind == VK_CONS; l = value_cdr(l), i++) {
        struct value *e = value_car(l);
        if (e->kind != VK_CONS) {
            pcase_diag(c, DIAG_ERROR, NULL, l, "malformed-pattern",
                    "a binding must be a list (PATTERN EXP)");
            not_a_list(c, e);
            return NULL;
        }
        b[i] = (struct bind){value_car(e), nth(c, e, 1), true, e,
                             cons(c, value_cdr(l), body), NULL, NULL};
    }
    return b;
}

/* ---- heads ------------------------------------------------------------ */

/* A head called with fewer than min arguments.  When the argument list
 * is proper and short, Emacs's macroexpansion signals the arity error of
 * the macro's byte code, (wrong-number-of-arguments (MIN . MIN) N) (its
 * required arguments, all of them before &rest), which ERT's assertions
 * turn into that run-time signal; another malformation has no signal. */
static struct value *arity(struct pcase_run *c, struct value *form, long min,
                           const char *what)
{
    pcase_diag(c, DIAG_ERROR, form, NULL, "malformed-pattern",
            "wrong number of arguments: %s", what);
    long n = value_list_length(value_cdr(form), c->L->nil);
    if (n >= 0 && n < min) {
        struct value *arity = value_cons(c->L->a, value_int(c->L->a, min),
                                         value_int(c->L->a, min));
        expand_set_signal(c->x, lisp_listv(c->L, INTERN_LIT(c->L, "wrong-number-of-arguments"),
                                           arity, value_int(c->L->a, n), NULL));
    }
    return NULL;
}

/* The clauses (PATTERN BODY...) of list as compilation clauses, with
 * `extra` slots after them that the caller fills (with a whole clause)
 * if it uses them; NULL after an error. */
static struct pcase_clause *user_clauses(struct pcase_run *c, struct value *list,
                                         struct value *at, size_t extra, size_t *n)
{
    if (!proper(c, list, at, "the clause list", n))
        return NULL;
    struct pcase_clause *cl = ARENA_NEWN(c->L->a, struct pcase_clause, *n + extra + 1);
    size_t i = 0;
    for (struct value *l = list; l->kind == VK_CONS; l = value_cdr(l), i++) {
        struct value *k = value_car(l);
        if (k->kind != VK_CONS) {
            pcase_diag(c, DIAG_ERROR, NULL, l, "malformed-pattern",
                       "a clause must be a list (PATTERN BODY...)");
            not_a_list(c, k);
            return NULL;
        }
        cl[i] = (struct pcase_clause){.form = k, .pattern = value_car(k), .cell = k,
                                      .body = value_cdr(k), .user = true,
                                      .kind = EMIT_BODY, .scope = value_cdr(k)};
    }
    return cl;
}

/* pcase-exhaustive's implicit last clause: a fresh variable and the
 * run-time error of pcase.md 1.2. */
static struct pcase_clause error_clause(struct pcase_run *c)
{
    struct value *x = expand_gensym(c->x, "x");
    struct value *msg = value_string(c->L->a, "No clause matching `%S'", 23, false);
    struct value *call = lisp_listv(c->L, sym(c, "error"), msg, x, NULL);
    return (struct pcase_clause){.pattern = x, .kind = EMIT_BODY, .dontwarn = true,
                                 .body = cons(c, call, c->L->nil)};
}

/* The forms a no-match search could not evaluate, as text. */
static const char *blockers_text(struct pcase_run *c, const struct witness_result *r)
{
    struct buf b;
    buf_init(&b, c->L->a);
    for (size_t i = 0; i < r->n_blockers; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", pcase_show(c, r->blockers[i]));
    return buf_cstr(&b);
}

static void warn_exhaustive(struct pcase_run *c, struct value *form)
{
    const struct witness_result *r = &c->no_match;
    if (r->status == WITNESS_NONE)
        pcase_diag(c, DIAG_WARNING, form, NULL, "exhaustive-never-fails",
                   "this pcase-exhaustive can never fail: a plain pcase would do");
    else if (r->status == WITNESS_FOUND) {
        const char *w = explain_show(c->L, r->value);
        pcase_diag(c, DIAG_WARNING, form, NULL, "exhaustive-can-fail",
                   "this pcase-exhaustive can signal \"No clause matching\": no "
                   "clause matches the value %s", w);
        diag_set_witness(c->x->diags, w);
    } else if (r->n_blockers)
        pcase_diag(c, DIAG_WARNING, form, NULL, "exhaustive-can-fail",
                   "this pcase-exhaustive may signal \"No clause matching\", "
                   "depending on what %s return%s", blockers_text(c, r),
                   r->n_blockers == 1 ? "s" : "");
    else
        pcase_diag(c, DIAG_WARNING, form, NULL, "exhaustive-can-fail",
                   "some values may match no clause: this pcase-exhaustive can signal "
                   "\"No clause matching\"");
}

/* Is there a comment in the text between the datum in the car of cell
 * prev and clause (the space between two elements holds nothing else)? */
static bool comment_between(struct pcase_run *c, const struct value *prev,
                            const struct value *clause)
{
    const uint8_t *text = c->x->src ? read_origin_bytes(c->x->src) : NULL;
    struct span a, b;
    if (!text || !read_origin_car_span(c->x->src, expand_origin(c->x, prev), &a) ||
        !read_origin_span(c->x->src, expand_origin(c->x, clause), &b) || a.end > b.start)
        return false;
    return memchr(text + a.end, ';', b.start - a.end) != NULL;
}

/* Remember the clauses of the pcase form whose cells follow subject_cell
 * that are written with a nil body after a comment (see pcase_run). */
static void note_commented(struct pcase_run *c, const struct value *subject_cell)
{
    const struct value *prev = subject_cell;
    for (const struct value *l = value_cdr(subject_cell); value_consp(l);
         prev = l, l = value_cdr(l)) {
        const struct value *cl = value_car(l), *body = value_consp(cl) ? value_cdr(cl) : NULL;
        bool nil_body = body && (body == c->L->nil ||
                                 (value_consp(body) && value_car(body) == c->L->nil &&
                                  value_cdr(body) == c->L->nil));
        if (!nil_body || !comment_between(c, prev, cl))
            continue;
        c->commented = arena_grow(c->L->a, c->commented, c->n_commented * sizeof *c->commented,
                                  (c->n_commented + 1) * sizeof *c->commented);
        c->commented[c->n_commented++] = cl;
    }
}

static struct value *do_pcase(struct pcase_run *c, struct value *form, bool exhaustive)
{
    struct value *args = value_cdr(form);
    if (args->kind != VK_CONS)
        return arity(c, form, 1, "(pcase EXP CLAUSE...) needs EXP");
    size_t n;
    struct pcase_clause *cl = user_clauses(c, value_cdr(args), form, 1, &n);
    if (!cl)
        return NULL;
    if (exhaustive)
        cl[n++] = error_clause(c);
    struct emit_info *info = ARENA_NEWN(c->L->a, struct emit_info, n + 1);
    c->describe = exhaustive ? (long)n - 1 : -1;
    if (c->x->carriers) {
        c->carried = cl;
        c->n_carried = n;
        note_commented(c, args);
    }
    struct value *out = pcase_compile(c, value_car(args), true, cl, n, info);
    c->carried = NULL;
    if (out && exhaustive)
        warn_exhaustive(c, form);
    return out;
}

static struct value *h_pcase(struct pcase_run *c, struct value *form)
{
    return do_pcase(c, form, false);
}

static struct value *h_exhaustive(struct pcase_run *c, struct value *form)
{
    return do_pcase(c, form, true);
}

static struct value *h_let_star(struct pcase_run *c, struct value *form)
{
    if (value_cdr(form)->kind != VK_CONS)
        return arity(c, form, 1, "(pcase-let* BINDINGS BODY...) needs BINDINGS");
    struct value *body = value_cdr(value_cdr(form));
    size_t n;
    struct bind *b = bindings(c, nth(c, form, 1), body, &n);
    struct value *forms = b ? code_list(c, body) : NULL;
    forms = forms ? let_star(c, b, n, forms) : NULL;
    return forms ? progn(c, forms) : NULL;
}

/* Parallel: every EXP is evaluated first by one let (wildcards into `_`
 * temporaries, other patterns into xN), then the patterns are
 * destructured in reverse order, so the first binding of a variable wins
 * (pcase.md 1.4). */
static struct value *h_let(struct pcase_run *c, struct value *form)
{
    if (value_cdr(form)->kind != VK_CONS)
        return arity(c, form, 1, "(pcase-let BINDINGS BODY...) needs BINDINGS");
    struct value *body = value_cdr(value_cdr(form));
    size_t n;
    struct bind *b = bindings(c, nth(c, form, 1), body, &n);
    if (!b)
        return NULL;
    if (n == 1)
        return h_let_star(c, form);
    struct value *lets = c->L->nil, **tail = &lets;
    struct bind *m = ARENA_NEWN(c->L->a, struct bind, n + 1);
    size_t k = n;
    for (size_t i = 0; i < n; i++) {
        struct value *exp = pcase_code(c, b[i].exp), *var = b[i].pat;
        if (!exp)
            return NULL;
        if (!trivial(c, var)) {
            bool wild = var->kind == VK_SYMBOL;
            var = expand_gensym(c->x, wild ? "_" : "x");
            if (!wild)
                m[--k] = (struct bind){b[i].pat, var, false, b[i].cell, value_cdr(form),
                                       b[i].exp, "evaluated once, before the other "
                                       "bindings' patterns; called VAL below"};
        }
        *tail = cons(c, lisp_listv(c->L, var, exp, NULL), c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    struct value *forms = code_list(c, body);
    forms = forms ? let_star(c, m + k, n - k, forms) : NULL;
    return forms ? cons(c, sym(c, "let"), cons(c, lets, splice(c, forms))) : NULL;
}

static struct value *h_dolist(struct pcase_run *c, struct value *form)
{
    struct value *spec = nth(c, form, 1);
    if (spec->kind != VK_CONS || value_cdr(spec)->kind != VK_CONS)
        return arity(c, form, 1, "(pcase-dolist (PATTERN LIST [RESULT]) BODY...)");
    struct value *body = value_cdr(value_cdr(form)), *pat = value_car(spec);
    struct value *tail = code_list(c, value_cdr(spec));
    if (!tail)
        return NULL;
    struct value *var = pat, *forms;
    if (trivial(c, pat)) {
        forms = code_list(c, body);
    } else {
        var = expand_gensym(c->x, "x");
        struct bind b = {pat, var, false, spec, body, nth(c, spec, 1),
                         "a list: each of its elements in turn is called VAL below"};
        forms = code_list(c, body);
        forms = forms ? let_star(c, &b, 1, forms) : NULL;
    }
    if (!forms)
        return NULL;
    return cons(c, sym(c, "dolist"), cons(c, cons(c, var, tail), splice(c, forms)));
}

/* One PAT VAL pair: (setq ...) at each leaf, unchecked (pcase.md 1.6). */
static struct value *setq1(struct pcase_run *c, struct value *pat, struct value *val,
                           struct value *cell)
{
    if (trivial(c, pat)) {
        struct value *v = pcase_code(c, val);
        return v ? lisp_listv(c->L, sym(c, "setq"), pat, v, NULL) : NULL;
    }
    struct pcase_clause cl[2];
    memset(cl, 0, sizeof cl);
    cl[0] = (struct pcase_clause){.form = cell, .pattern = pat, .cell = cell,
                               .body = c->L->nil, .kind = EMIT_SETQ};
    cl[1].dontcare = true;
    cl[1].body = c->L->nil;
    return pcase_compile(c, val, true, cl, 2, NULL);
}

static struct value *h_setq(struct pcase_run *c, struct value *form)
{
    struct value *args = value_cdr(form);
    long n = value_list_length(args, c->L->nil);
    if (n < 2)
        return arity(c, form, 2, "(pcase-setq PATTERN VALUE...) needs a pattern and a value");
    if (n % 2) {
        pcase_diag(c, DIAG_ERROR, form, NULL, "malformed-pattern",
                "(wrong-number-of-arguments pcase-setq %ld)", n);
        expand_set_signal(c->x, lisp_listv(c->L, INTERN_LIT(c->L, "wrong-number-of-arguments"),
                                           INTERN_LIT(c->L, "pcase-setq"),
                                           value_int(c->L->a, n), NULL));
        return NULL;
    }
    if (n == 2)
        return setq1(c, value_car(args), nth(c, args, 1), args);
    struct value *out = c->L->nil, **tail = &out;
    for (struct value *l = args; l->kind == VK_CONS; l = value_cdr(value_cdr(l))) {
        struct value *f = setq1(c, value_car(l), nth(c, l, 1), l);
        if (!f)
            return NULL;
        *tail = cons(c, f, c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    return cons(c, sym(c, "progn"), out);
}

/* Emacs's macroexp-parse-body: the leading docstring / declare /
 * interactive forms (never the last form). */
static bool decl_form(struct value *body)
{
    struct value *e = value_car(body);
    if (value_cdr(body)->kind != VK_CONS)
        return false;
    if (e->kind == VK_STRING)
        return true;
    if (e->kind != VK_CONS)
        return false;
    struct value *h = value_car(e);
    return is_named(h, ":documentation") || is_named(h, "declare") ||
           is_named(h, "interactive") || is_named(h, "cl-declare");
}

/* --explain's words for the subject of pcase-lambda's argument n. */
static const char *arg_note(struct pcase_run *c, size_t n)
{
    struct buf b;
    buf_init(&b, c->L->a);
    buf_printf(&b, "argument %zu of the function, called VAL below", n);
    return buf_cstr(&b);
}

static struct value *h_lambda(struct pcase_run *c, struct value *form)
{
    struct value *args = nth(c, form, 1), *body = value_cdr(value_cdr(form));
    size_t n, k = 0, pos = 0;
    if (value_cdr(form)->kind != VK_CONS || !proper(c, args, form, "the argument list", &n))
        return arity(c, form, 1, "(pcase-lambda ARGS BODY...) needs ARGS");
    struct bind *b = ARENA_NEWN(c->L->a, struct bind, n + 1);
    struct value *out = c->L->nil, **tail = &out;
    for (struct value *l = args; l->kind == VK_CONS; l = value_cdr(l)) {
        struct value *a = value_car(l);
        pos++;
        if (a->kind != VK_SYMBOL) {
            struct value *t = expand_gensym(c->x, "arg");
            b[k] = (struct bind){a, t, false, l, body, t, arg_note(c, pos)};
            k++;
            a = t;
        }
        *tail = cons(c, a, c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    struct value *decls = c->L->nil, **dt = &decls;
    for (; body->kind == VK_CONS && decl_form(body); body = value_cdr(body)) {
        *dt = cons(c, value_car(body), c->L->nil);
        dt = &(*dt)->u.cons.cdr;
    }
    struct value *forms = code_list(c, body);
    forms = forms && k ? let_star(c, b, k, forms) : forms;
    if (!forms)
        return NULL;
    *dt = k ? splice(c, forms) : forms;
    return cons(c, c->L->lambda, cons(c, out, decls));
}

typedef struct value *head_fn(struct pcase_run *c, struct value *form);

/* Sorted by name (strcmp); found by the head's EXPAND_HEAD_* bit, which
 * the driver keeps on the symbol. */
static const struct {
    const char *name;
    unsigned bit;
    head_fn *fn;
} heads[] = {
    {"pcase", EXPAND_HEAD_PCASE, h_pcase},
    {"pcase-dolist", EXPAND_HEAD_PCASE_DOLIST, h_dolist},
    {"pcase-exhaustive", EXPAND_HEAD_PCASE_EXHAUSTIVE, h_exhaustive},
    {"pcase-lambda", EXPAND_HEAD_PCASE_LAMBDA, h_lambda},
    {"pcase-let", EXPAND_HEAD_PCASE_LET, h_let},
    {"pcase-let*", EXPAND_HEAD_PCASE_LET_STAR, h_let_star},
    {"pcase-setq", EXPAND_HEAD_PCASE_SETQ, h_setq},
};

static head_fn *find_head(const struct value *h)
{
    if (h->kind != VK_SYMBOL || !h->u.sym.interned)
        return NULL;
    unsigned bit = expand_head_of(h);
    for (size_t i = 0; bit && i < sizeof heads / sizeof heads[0]; i++)
        if (heads[i].bit == bit)
            return heads[i].fn;
    return NULL;
}

long pcase_check_tables(void)
{
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
        if ((i > 0 && strcmp(heads[i - 1].name, heads[i].name) >= 0) ||
            (unsigned)expand_head_bit(heads[i].name) != heads[i].bit)
            return (long)i;
    long k = pcase_norm_check_table();
    return k < 0 ? -1 : 100 + k;
}

/* ---- entry points ----------------------------------------------------- */

static struct value *clean_gensym(void *ctx, const char *base)
{
    return expand_gensym(((struct pcase_run *)ctx)->x, base);
}

/* --dump=clean: the code of one stage, laid out, under the stage's name,
 * when its text differs from the stage before. */
static void dump_stage(struct pcase_run *c, const char *name, struct value *form)
{
    struct pretty_opts o = {.width = 80, .sym_text = gensym_text,
                            .sym_ctx = expand_gensyms(c->x)};
    struct buf b;
    buf_init(&b, c->L->a);
    if (!pretty_print(c->L, &o, &b, form, 0, 0))
        buf_puts(&b, "; (not printable)");
    const char *text = buf_cstr(&b);
    if (c->dump_prev && !strcmp(c->dump_prev, text))
        return;
    if (c->n_dumps++)
        buf_puts(c->dump, "\n");
    buf_printf(c->dump, ";; %s\n%s\n", name, text);
    c->dump_prev = text;
}

static void dump_after(void *ctx, enum clean_pass p, struct value *form)
{
    dump_stage(ctx, clean_pass_name(p), form);
}

/* A cell of the copy clean-up works on carries the clause its original
 * carried (the comments of the clause go before it). */
static void clean_copied(void *ctx, const struct value *orig, const struct value *copy)
{
    struct pcase_run *c = ctx;
    const struct value *clause = expand_clause_of(c->x, orig);
    if (clause)
        expand_carries(c->x, copy, clause);
}

/* The clause the body list `body` of a cond clause carries: its cell (an
 * atom's), or its first form. */
static const struct value *body_clause(struct pcase_run *c, const struct value *body)
{
    const struct value *k = expand_clause_of(c->x, body);
    if (!k && body->kind == VK_CONS && value_car(body)->kind == VK_CONS)
        k = expand_clause_of(c->x, value_car(body));
    return k;
}

/* The clean-up merged the body `from` into the body `into`: the clause
 * from carried rides with into's (its comments go with them). */
static void clean_joined(void *ctx, const struct value *into, const struct value *from)
{
    struct pcase_run *c = ctx;
    const struct value *a = body_clause(c, into), *b = body_clause(c, from);
    if (a && b)
        expand_rides(c->x, b, a);
}

/* Must code stay though it does nothing: the nil of a clause that has
 * comments (note_commented)? */
static bool clean_keep(void *ctx, const struct value *code)
{
    struct pcase_run *c = ctx;
    const struct value *clause = expand_clause_of(c->x, code);
    for (size_t i = 0; clause && clause != code && i < c->n_commented; i++)
        if (c->commented[i] == clause)
            return true;
    return false;
}

/* The generated code of out cleaned (match/clean), unless switched off. */
static struct value *cleaned(struct pcase_run *c, struct value *out)
{
    bool dump = c->dump && c->dump_kind == PCASE_DUMP_CLEAN;
    struct clean_hooks h = {clean_gensym, dump ? dump_after : NULL, c,
                            c->x->carriers ? clean_copied : NULL,
                            c->n_commented ? clean_keep : NULL,
                            c->x->carriers ? clean_joined : NULL, NULL};
    if (dump) {
        gensym_begin_form(expand_gensyms(c->x), 0);
        dump_stage(c, "emit", out);
    }
    return clean_form(c->L, pcase_marks(c), &h, out, c->x->clean_off);
}

static struct value *run(struct expand_ctx *x, struct value *form, struct buf *dump,
                         int kind, struct pcase_explain_out *explain)
{
    head_fn *fn = form->kind == VK_CONS ? find_head(value_car(form)) : NULL;
    struct pcase_run c;
    pcase_init(&c, x, form);
    c.dump = dump;
    c.dump_kind = kind;
    c.explain = explain;
    if (!fn) {
        pcase_diag(&c, DIAG_ERROR, form, NULL, "internal", "not a pcase-family form");
        return NULL;
    }
    if (x->max_depth > 0 && x->depth >= x->max_depth) {
        pcase_diag(&c, DIAG_ERROR, form, NULL, "nesting-too-deep", "forms nested too deeply");
        return NULL;
    }
    x->depth++;
    struct value *out = fn(&c, form);
    x->depth--;
    return c.failed || !out ? NULL : cleaned(&c, out);
}

struct value *pcase_expand(struct expand_ctx *x, struct value *form)
{
    return run(x, form, NULL, 0, NULL);
}

struct value *pcase_compile_clauses(struct expand_ctx *x, struct value *subject,
                                    struct value *clauses,
                                    struct value *on_nomatch)
{
    struct pcase_run c;
    pcase_init(&c, x, clauses);
    size_t n;
    struct pcase_clause *cl = user_clauses(&c, clauses, clauses, 1, &n);
    if (!cl)
        return NULL;
    if (on_nomatch) {
        cl[n] = (struct pcase_clause){.pattern = INTERN_LIT(c.L, "_"), .kind = EMIT_BODY,
                                   .dontwarn = true,
                                   .body = cons(&c, on_nomatch, c.L->nil)};
        n++;
    }
    struct value *out = pcase_compile(&c, subject, true, cl, n, NULL);
    return c.failed ? NULL : out;
}

struct value *pcase_destructure(struct expand_ctx *x, struct value *pattern,
                                struct value *value_expr, struct value *body)
{
    struct pcase_run c;
    pcase_init(&c, x, pattern);
    /* no unused-variable check: cond* decides what its rest clauses use */
    struct bind b = {pattern, value_expr, true, NULL, NULL, NULL, NULL};
    struct value *forms = let_star(&c, &b, 1, body);
    return forms && !c.failed ? progn(&c, forms) : NULL;
}

bool pcase_dump(struct expand_ctx *x, struct value *form,
                enum pcase_dump_kind kind, struct buf *out)
{
    return run(x, form, out, kind, NULL) != NULL;
}

bool pcase_explain(struct expand_ctx *x, struct value *form, struct pcase_explain_out *out)
{
    return run(x, form, NULL, 0, out) != NULL;
}
