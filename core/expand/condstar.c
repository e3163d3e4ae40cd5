/* condstar.c - the cond* front end: clause structure (see condstar.h).
 *
 * Functions in pipeline order: condstar_expand -> parse (left to right:
 * classify each clause as exit or non-exit, normalise it, compile its
 * condition: ordinary, bind*, bind-and*, match* via matchstar.c, pcase*
 * checks) -> assemble (right to left, each clause wrapped around the
 * expansion of the clauses after it: templates of cond-star.md 6.2-6.6
 * with the fixes of section 7; pcase* through pcase.h).  Nested user code
 * is expanded with expand_code as it is met, so errors come in text order.
 */
#include "expand/condstar.h"

#include <stddef.h>
#include <string.h>

#include "expand/matchstar.h"
#include "expand/pcase.h"
#include "match/explain.h"

/* ---- shared helpers (condstar.h) ---- */

/* ORDER: condstar-syms - one row per field of struct condstar_syms. */
static const struct {
    const char *name;
    size_t off;
} sym_rows[] = {
#define ROW(name, field) {name, offsetof(struct condstar_syms, field)}
    ROW("_", underscore), ROW("and", and_), ROW("or", or_), ROW("if", if_), ROW("cond", cond),
    ROW("progn", progn), ROW("let", let), ROW("let*", let_star),
    ROW("setq", setq), ROW("prog1", prog1), ROW("when", when),
    ROW("car", car), ROW("cdr", cdr), ROW("nth", nth), ROW("nthcdr", nthcdr),
    ROW("consp", consp), ROW("null", null), ROW("eq", eq), ROW("eql", eql),
    ROW("equal", equal), ROW("=", num_eq), ROW("aref", aref),
    ROW("vectorp", vectorp), ROW("length", length), ROW("memq", memq),
    ROW("memql", memql), ROW("member", member),
    ROW("string-match", string_match), ROW("match-string", match_string),
    ROW("concat", concat), ROW("rx-to-string", rx_to_string),
    ROW("cons", cons), ROW("list", list), ROW("vector", vector),
    ROW("apply", apply), ROW("cdr-ignore", cdr_ignore), ROW("rx", rx),
    ROW("constrain", constrain), ROW("append", append),
    ROW("vconcat", vconcat), ROW("backquote-list*", bq_list_star),
    ROW("bind*", bind_star), ROW("bind-and*", bind_and_star),
    ROW("match*", match_star), ROW("pcase*", pcase_star),
    ROW(":non-exit", non_exit),
#undef ROW
};

void condstar_syms_init(struct condstar_syms *s, struct lisp *L)
{
    for (size_t i = 0; i < sizeof sym_rows / sizeof sym_rows[0]; i++)
        *(struct value **)((char *)s + sym_rows[i].off) =
            intern_cstr(L, sym_rows[i].name);
    s->nil = L->nil;
    s->t = L->t;
    s->quote = L->quote;
    s->function = L->function;
    s->backquote = L->backquote;
    s->comma = L->comma;
    s->comma_at = L->comma_at;
    s->end_anchor = value_string(L->a, "\\'", 2, false);
}

/* The text of at in the source, looking through copies the driver made
 * of forms with nested expansions (expand_origin). */
static bool text_of(const struct expand_ctx *x, struct condstar_at at,
                    struct span *sp)
{
    if (!x->src)
        return false;
    if (at.v && !value_symbolp(at.v) &&
        read_origin_span(x->src, expand_origin(x, at.v), sp))
        return true;
    return at.holder && value_consp(at.holder) &&
           read_origin_car_span(x->src, expand_origin(x, at.holder), sp);
}

struct condstar_at condstar_at_child(const struct expand_ctx *x,
                                     struct condstar_at parent,
                                     const struct value *child,
                                     const struct value *holder)
{
    struct condstar_at at = {child, holder};
    struct span sp;
    return text_of(x, at, &sp) ? at : parent;
}

void condstar_diag(struct expand_ctx *x, enum diag_severity sev,
                   struct condstar_at at, const char *code, const char *fmt,
                   ...)
{
    struct span sp = {0, 0};
    text_of(x, at, &sp);
    va_list ap;
    va_start(ap, fmt);
    diag_addv(x->diags, sev, sp.start, sp.end, code, fmt, ap);
    va_end(ap);
}

bool condstar_enter(struct expand_ctx *x, struct condstar_at at)
{
    if (x->max_depth > 0 && x->depth >= x->max_depth) {
        condstar_diag(x, DIAG_ERROR, at, "nesting-too-deep",
                      "nesting too deep (more than %d levels)", x->max_depth);
        return false;
    }
    x->depth++;
    return true;
}

void condstar_leave(struct expand_ctx *x) { x->depth--; }

const char *condstar_describe(struct lisp *L, const struct value *v)
{
    (void)L;
    switch (v->kind) {
    case VK_SYMBOL: return v->u.sym.name;
    case VK_CONS: return "a list";
    case VK_INT: case VK_BIGNUM: case VK_FLOAT: return "a number";
    case VK_STRING: return "a string";
    case VK_VECTOR: return "a vector";
    default: return "an atom";
    }
}

bool condstar_keywordp(const struct value *v)
{
    return value_symbolp(v) && v->u.sym.interned && v->u.sym.len > 0 &&
           v->u.sym.name[0] == ':';
}

/* ---- clauses ---- */

enum ckind {
    CK_ORD,      /* ordinary Lisp condition */
    CK_BIND,     /* (bind* B...) */
    CK_BIND_AND, /* (bind-and* B...) */
    CK_MATCH,    /* (match* PATTERN DATUM) */
    CK_PCASE,    /* (pcase* PATTERN DATUM) */
};

struct clause {
    struct value *src;    /* the clause as written */
    struct value *holder; /* the cons of the cond* form whose car is src */
    struct value *cond;   /* condition as written */
    struct value *body;   /* body forms as written (after normalisation) */
    bool nonexit;         /* 2.2 */
    bool last;            /* no clause follows */
    enum ckind kind;
    struct value *xcond;  /* CK_ORD: expanded condition */
    struct value *xbody;  /* expanded body (all kinds but CK_PCASE) */
    union {
        struct {
            struct value *init;  /* temporary for the first value */
            struct value *val1;  /* expanded first value */
            struct value *mb;    /* bindings with the first value replaced */
            struct value *all;   /* bindings as written, values expanded */
            bool plain;          /* the first variable still holds the
                                    first value after all bindings: it is
                                    tested itself, no init temporary */
        } bind;
        struct {
            struct value *lets;  /* ((V VALUE) ...), let* order */
            struct value *test;  /* what decides the body (t: nothing) */
            struct value *last;  /* last variable, or t (Q11) */
        } band;
        struct {
            struct value *d;      /* datum temporary */
            struct value *datum;  /* expanded datum */
            struct value *root;   /* what the test reads: d, or the datum
                                     variable itself (match_root) */
            struct matchstar_result r;
        } match;
    } u;
};

/* State of one cond* form. */
struct cs {
    struct expand_ctx *x;
    struct lisp *L;
    struct condstar_syms S;
    struct value *nil;
    bool failed; /* an error was recorded while assembling */
};

static struct value *cons(struct cs *c, struct value *a, struct value *d)
{
    return value_cons(c->L->a, a, d);
}

static struct value *list2(struct cs *c, struct value *a, struct value *b)
{
    return cons(c, a, cons(c, b, c->nil));
}

static struct value *list3(struct cs *c, struct value *a, struct value *b,
                           struct value *d)
{
    return cons(c, a, list2(c, b, d));
}

static bool headed(const struct value *v, const struct value *head)
{
    return value_consp(v) && value_car(v) == head;
}

/* Record an error at v (the car of holder) inside clause cl; false. */
static bool clause_error(struct cs *c, const struct clause *cl,
                         const struct value *v, const struct value *holder,
                         const char *msg)
{
    struct condstar_at at = {cl->src, cl->holder};
    condstar_diag(c->x, DIAG_ERROR, condstar_at_child(c->x, at, v, holder),
                  "malformed-pattern", "%s", msg);
    return false;
}

/* Expand every form of a proper list of user code. */
static struct value *expand_body(struct cs *c, struct value *forms)
{
    struct value *r = c->nil;
    for (; value_consp(forms); forms = value_cdr(forms)) {
        struct value *e = expand_code(c->x, value_car(forms));
        if (!e)
            return NULL;
        r = cons(c, e, r);
    }
    return lisp_reverse(c->L, r);
}

/* ---- parse: classification (2.2) and normalisation (2.3) ---- */

static bool starts_with_bind(struct cs *c, const struct value *cl)
{
    const struct value *h = value_car(cl);
    return value_consp(h) && (value_car(h) == c->S.bind_star ||
                              value_car(h) == c->S.bind_and_star);
}

static struct value *last_elt(struct value *l)
{
    while (value_consp(value_cdr(l)))
        l = value_cdr(l);
    return value_car(l);
}

static bool nonexit_p(struct cs *c, struct value *cl)
{
    if (!value_consp(cl) || !value_consp(value_cdr(cl)))
        return true;
    return value_car(cl) == c->S.t || starts_with_bind(c, cl) ||
           last_elt(cl) == c->S.non_exit;
}

/* The substance of a non-exit clause: what Emacs keeps of it. */
static struct value *substance(struct cs *c, struct value *cl)
{
    if (!value_consp(cl) || !value_consp(value_cdr(cl)) || starts_with_bind(c, cl))
        return cl;
    if (value_car(cl) == c->S.t || condstar_keywordp(value_car(cl)))
        return cons(c, c->S.t, value_cdr(cl));
    struct value *r = c->nil; /* butlast */
    for (; value_consp(value_cdr(cl)); cl = value_cdr(cl))
        r = cons(c, value_car(cl), r);
    return lisp_reverse(c->L, r);
}

/* Does var1, bound first, still hold its value once the later bindings
 * are made, so that testing it tests the first value?  Yes when it is an
 * ordinary variable (a `_' one must not be read) that no later binding
 * rebinds and no later value can assign: each is a constant or a
 * variable, so no code runs. */
static bool holds_first(struct cs *c, const struct value *var1,
                        const struct value *later)
{
    if (!value_symbolp(var1) || var1 == c->nil || var1 == c->S.t ||
        condstar_keywordp(var1) || var1->u.sym.name[0] == '_')
        return false;
    for (; value_consp(later); later = value_cdr(later)) {
        const struct value *b = value_car(later);
        if (!value_consp(b)) {
            if (b == var1)
                return false;
            continue;
        }
        const struct value *v = value_cdr(b);
        if (value_car(b) == var1 || (value_consp(v) && value_consp(value_car(v)) &&
                                     !headed(value_car(v), c->S.quote)))
            return false;
    }
    return true;
}

/* (bind* B...): first binding split off (6.3). */
static bool parse_bind(struct cs *c, struct clause *cl)
{
    struct value *b = value_cdr(cl->cond);
    if (value_list_length(b, c->nil) < 0)
        return clause_error(c, cl, cl->cond, NULL, "bind*: improper list of bindings");
    if (b == c->nil) {
        if (cl->body != c->nil || cl->last)
            return clause_error(c, cl, cl->cond, NULL,
                                "bind* with a body or as the last clause needs at "
                                "least one binding (Emacs 30 binds the constant "
                                "nil here: setting-constant when interpreted, "
                                "ignored when compiled)");
        cl->u.bind.all = c->nil;
        return true;
    }
    struct value *first = value_car(b);
    if (value_consp(first) && value_list_length(first, c->nil) < 0)
        return clause_error(c, cl, first, b, "bind*: malformed binding");
    if (!value_consp(first) && !value_symbolp(first))
        return clause_error(c, cl, first, b,
                            "bind*: a binding is a symbol or (VAR VALUE)");
    struct value *all = c->nil;
    for (; b != c->nil; b = value_cdr(b)) {
        struct value *e = value_car(b);
        if (value_consp(e) && value_list_length(e, c->nil) > 0) {
            struct value *vals = expand_body(c, value_cdr(e));
            if (!vals)
                return false;
            e = cons(c, value_car(e), vals);
        }
        all = cons(c, e, all);
    }
    all = cl->u.bind.all = lisp_reverse(c->L, all);
    first = value_car(all);
    struct value *var1 = value_consp(first) ? value_car(first) : first;
    struct value *r = value_consp(first) ? value_cdr(first) : c->nil;
    cl->u.bind.val1 = r == c->nil ? r : value_car(r);
    cl->u.bind.init = expand_gensym(c->x, "init");
    cl->u.bind.mb = cons(c, list2(c, var1, cl->u.bind.init), value_cdr(all));
    cl->u.bind.plain = holds_first(c, var1, value_cdr(all));
    return true;
}

/* (and FORMS...) of a reversed list of forms: t for none, one as it is. */
static struct value *and_rev(struct cs *c, struct value *rev)
{
    if (rev == c->nil)
        return c->S.t;
    if (value_cdr(rev) == c->nil)
        return value_car(rev);
    return cons(c, c->S.and_, lisp_reverse(c->L, rev));
}

/* (bind-and* (V E)...): the if-let* chain of checks (6.4).  Emacs binds
 * each Vk to (and V(k-1) Ek), the first to (and t E1), a `_' to a
 * temporary read only by the next check.  The same evaluations written
 * as a person would: the first value as it is, a `_' folded into the
 * next and ((and (and A E) F) is (and A E F)), and the last value into
 * the test when no body reads its variable. */
static bool parse_bind_and(struct cs *c, struct clause *cl)
{
    struct value *b = value_cdr(cl->cond), *var = c->S.t;
    struct value *lets = c->nil, *conj = c->nil; /* conj reversed */
    if (value_list_length(b, c->nil) < 0)
        return clause_error(c, cl, cl->cond, NULL, "bind-and*: improper list of bindings");
    for (; b != c->nil; b = value_cdr(b)) {
        struct value *e = value_car(b);
        if (!value_consp(e))
            return clause_error(c, cl, e, b,
                                "bind-and*: a binding must be (VAR EXPR), not a "
                                "bare symbol (Emacs 30 signals wrong-type-argument)");
        var = value_car(e);
        struct value *r = value_cdr(e);
        if (!value_symbolp(var))
            return clause_error(c, cl, e, b,
                                "bind-and*: (EXPR) bindings are not supported: "
                                "Emacs 30 uses EXPR as a variable name");
        if (r != c->nil && !value_consp(r))
            return clause_error(c, cl, e, b, "bind-and*: malformed binding");
        struct value *x = expand_code(c->x, r == c->nil ? r : value_car(r));
        if (!x)
            return false;
        conj = cons(c, x, conj);
        bool unread = cl->body == c->nil && value_cdr(b) == c->nil &&
                      var != c->nil && var != c->S.t && !condstar_keywordp(var);
        if (var == c->S.underscore || unread)
            continue;
        lets = cons(c, list2(c, var, and_rev(c, conj)), lets);
        conj = cons(c, var, c->nil);
    }
    cl->u.band.lets = lisp_reverse(c->L, lets);
    cl->u.band.test = and_rev(c, conj);
    cl->u.band.last = var == c->S.underscore ? expand_gensym(c->x, "s") : var;
    return true;
}

/* What a match* test reads.  Emacs copies the datum into a temporary.
 * A datum that is a variable is read directly instead (no copy, and a
 * dispatch on it can become a jump table) when that cannot be told
 * apart: the test runs no user code that could assign the variable and
 * reads it before running anything (the pattern is not opaque).  Then
 * nothing runs between the reads but inert built-ins, and the bindings
 * are read before the body.  A pattern that binds the variable itself
 * keeps the copy, so that in the output the name means one thing. */
static void match_root(struct clause *cl)
{
    const struct matchstar_result *mr = &cl->u.match.r;
    struct value *datum = cl->u.match.datum;
    cl->u.match.root = cl->u.match.d;
    if (!value_symbolp(datum) || mr->opaque)
        return;
    for (const struct matchstar_binding *b = mr->bindings; b; b = b->next)
        if (b->var == datum)
            return;
    cl->u.match.root = datum;
}

/* (match* PATTERN DATUM): exactly two arguments (Q13 is an error). */
static bool parse_match(struct cs *c, struct clause *cl)
{
    struct value *args = value_cdr(cl->cond);
    long n = value_list_length(args, c->nil);
    if (n != 2)
        return clause_error(c, cl, cl->cond, NULL,
                            n < 2 ? "match* needs a pattern and a datum: (match* "
                                    "PATTERN DATUM) (Emacs 30 matches a missing "
                                    "datum against nil)"
                                  : "match* takes exactly two arguments: (match* "
                                    "PATTERN DATUM)");
    struct value *d = expand_gensym(c->x, "d");
    struct value *datum = expand_code(c->x, value_car(value_cdr(args)));
    if (!datum)
        return false;
    struct condstar_at at = condstar_at_child(
        c->x, (struct condstar_at){cl->cond, NULL}, value_car(args), args);
    cl->u.match.d = d;
    cl->u.match.datum = datum;
    bool value_used = cl->last && cl->body == c->nil;
    if (!matchstar_compile(c->x, &c->S, value_car(args), at, d, value_used,
                           &cl->u.match.r))
        return false;
    match_root(cl);
    return true;
}

/* (pcase* PATTERN DATUM): only the :non-exit restriction is checked here;
 * pcase.c expands pattern, datum and body. */
static bool parse_pcase(struct cs *c, struct clause *cl)
{
    struct value *a = value_cdr(cl->cond);
    if (a != c->nil && !(value_consp(a) && (value_cdr(a) == c->nil ||
                                           value_consp(value_cdr(a)))))
        return clause_error(c, cl, cl->cond, NULL, "pcase*: improper argument list");
    if (cl->nonexit && cl->body != c->nil && !cl->last)
        return clause_error(c, cl, cl->src, cl->holder,
                            ":non-exit not supported with `pcase*' when clauses "
                            "follow");
    return true;
}

static enum ckind kind_of(struct cs *c, const struct value *cond)
{
    if (!value_consp(cond))
        return CK_ORD;
    const struct value *h = value_car(cond);
    if (h == c->S.bind_star)
        return CK_BIND;
    if (h == c->S.bind_and_star)
        return CK_BIND_AND;
    if (h == c->S.match_star)
        return CK_MATCH;
    return h == c->S.pcase_star ? CK_PCASE : CK_ORD;
}

static bool parse_clause(struct cs *c, struct clause *cl)
{
    struct value *src = cl->src;
    if (src != c->nil && !value_consp(src))
        return clause_error(c, cl, src, cl->holder,
                            "cond* clause is not a list (Emacs 30 signals "
                            "wrong-type-argument listp)");
    if (value_list_length(src, c->nil) < 0)
        return clause_error(c, cl, src, cl->holder, "cond* clause is not a proper list");
    cl->nonexit = nonexit_p(c, src);
    struct value *s = cl->nonexit ? substance(c, src) : src;
    cl->cond = s == c->nil ? s : value_car(s);
    cl->body = s == c->nil ? s : value_cdr(s);
    cl->kind = kind_of(c, cl->cond);
    bool ok = true;
    switch (cl->kind) { /* dispatch on the condition kind (2.4) */
    case CK_PCASE:
        return parse_pcase(c, cl); /* pcase.c expands the body */
    case CK_ORD:
        ok = (cl->xcond = expand_code(c->x, cl->cond)) != NULL;
        break;
    case CK_BIND:
        ok = parse_bind(c, cl);
        break;
    case CK_BIND_AND:
        ok = parse_bind_and(c, cl);
        break;
    case CK_MATCH:
        ok = parse_match(c, cl);
        break;
    }
    return ok && (cl->xbody = expand_body(c, cl->body)) != NULL;
}

/* ---- assemble: one clause in front of the expansion of the rest ---- */

/* The expansion of some clauses, kept as the clauses of one cond: an exit
 * clause puts one clause in front, so a run of exit clauses is one flat
 * cond (and the byte compiler makes a jump table of a dispatch on one
 * variable).  What must enclose the clauses after it (a binding, a
 * statement run before them) makes them one form, the body of a final
 * (t ...) clause. */
struct chain {
    struct value *clauses; /* cond clauses in order; nil for none (value nil) */
    struct value *vars;    /* temporaries to bind to nil around the cond:
                              the alias and carry temporaries of match*
                              clauses.  Each is set and read only by its
                              own clause and the ones after it, and is nil
                              when its clause starts however early it is
                              bound, so the bindings move out to the
                              nearest let that can take them. */
};

/* The expansion of the clauses after the current one. */
struct rest {
    struct chain ch; /* their expansion */
    bool any;        /* some clause follows */
    bool bare_progn; /* they are exactly ((progn)): Emacs's expansion of
                        them is (progn), and cond*-bind-pattern-syms then
                        drops the bindings of a non-exit match* (Q6) */
};

/* No clause: the value nil. */
static struct chain none(struct cs *c)
{
    return (struct chain){c->nil, c->nil};
}

/* nil, the single form, or (progn FORMS...). */
static struct value *body_form(struct cs *c, struct value *forms)
{
    if (forms == c->nil)
        return c->nil;
    if (value_cdr(forms) == c->nil)
        return value_car(forms);
    return cons(c, c->S.progn, forms);
}

/* form as a list of body forms (a progn is spliced). */
static struct value *forms_of(struct cs *c, struct value *form)
{
    if (headed(form, c->S.progn) && value_consp(value_cdr(form)))
        return value_cdr(form);
    return cons(c, form, c->nil);
}

/* (HEAD BINDINGS BODY...), or just the body when there is no binding;
 * let* of one binding is let. */
static struct value *let_form(struct cs *c, struct value *head,
                              struct value *bindings, struct value *body)
{
    if (bindings == c->nil)
        return body_form(c, body);
    if (value_cdr(bindings) == c->nil)
        head = c->S.let;
    return cons(c, head, cons(c, bindings, body));
}

/* Is the value of the condition v known while expanding?  1 non-nil,
 * 0 nil, -1 not known.  Constants only: a symbol other than nil, t or a
 * keyword is a variable. */
static int truth(struct cs *c, const struct value *v)
{
    if (v == c->nil)
        return 0;
    if (value_symbolp(v))
        return v == c->S.t || condstar_keywordp(v) ? 1 : -1;
    if (!value_consp(v))
        return 1; /* numbers, strings, vectors... evaluate to themselves */
    const struct value *a = value_cdr(v);
    if ((value_car(v) == c->S.quote || value_car(v) == c->S.function) &&
        value_consp(a) && value_cdr(a) == c->nil)
        return value_car(a) != c->nil;
    return -1;
}

/* (test forms...) in front of ch.  A test known to fail drops the
 * clause; one known to succeed makes it the last, (t forms...), and
 * (t nil) is no clause at all. */
static struct chain chain_push(struct cs *c, struct value *test,
                               struct value *forms, struct chain ch)
{
    int known = truth(c, test);
    if (known == 0)
        return ch;
    if (forms == c->nil) /* (test) would return the test's value */
        forms = cons(c, c->nil, c->nil);
    if (known == 1 && value_car(forms) == c->nil && value_cdr(forms) == c->nil)
        return none(c);
    if (known == 1)
        return (struct chain){cons(c, cons(c, c->S.t, forms), c->nil), c->nil};
    return (struct chain){cons(c, cons(c, test, forms), ch.clauses), ch.vars};
}

/* The chain as one form: nil, a body, (if ...), (when ...) or (cond ...);
 * its temporaries bound around it when with_vars. */
static struct value *chain_form(struct cs *c, struct chain ch, bool with_vars)
{
    struct value *cl = ch.clauses, *f;
    if (cl == c->nil) {
        f = c->nil;
    } else {
        struct value *first = value_car(cl), *next = value_cdr(cl);
        struct value *test = value_car(first), *forms = value_cdr(first);
        if (test == c->S.t)
            f = body_form(c, forms);
        else if (next == c->nil && value_cdr(forms) != c->nil)
            f = cons(c, c->S.when, first);
        else if (next == c->nil)
            f = cons(c, c->S.if_, first);
        else if (value_cdr(next) == c->nil && value_car(value_car(next)) == c->S.t)
            f = cons(c, c->S.if_, cons(c, test, cons(c, body_form(c, forms),
                                                     value_cdr(value_car(next)))));
        else
            f = cons(c, c->S.cond, cl);
    }
    if (with_vars && ch.vars != c->nil)
        f = cons(c, c->S.let, cons(c, ch.vars, forms_of(c, f)));
    return f;
}

/* A chain whose value is form's. */
static struct chain chain_of(struct cs *c, struct value *form)
{
    struct value *clause = cons(c, c->S.t, forms_of(c, form));
    return (struct chain){cons(c, clause, c->nil), c->nil};
}

/* stmts (run for their effects) and then ch; its temporaries stay
 * outside. */
static struct chain chain_after(struct cs *c, struct value *stmts, struct chain ch)
{
    if (stmts == c->nil)
        return ch;
    struct value *rest = forms_of(c, chain_form(c, ch, false));
    for (struct value *s = lisp_reverse(c->L, stmts); s != c->nil; s = value_cdr(s))
        rest = cons(c, value_car(s), rest);
    return (struct chain){cons(c, cons(c, c->S.t, rest), c->nil), ch.vars};
}

/* (vars... ch.vars...) */
static struct chain chain_vars(struct cs *c, struct value *vars, struct chain ch)
{
    struct value *all = ch.vars;
    for (struct value *v = lisp_reverse(c->L, vars); v != c->nil; v = value_cdr(v))
        all = cons(c, value_car(v), all);
    ch.vars = all;
    return ch;
}

/* (when test forms...) run for its effects, as a list of statements:
 * a constant test is decided now (and has no effect itself), a test
 * without forms is run alone. */
static struct value *when_stmts(struct cs *c, struct value *test, struct value *forms)
{
    switch (truth(c, test)) {
    case 0: return c->nil;
    case 1: return forms;
    }
    if (forms == c->nil)
        return cons(c, test, c->nil);
    return cons(c, chain_form(c, chain_push(c, test, forms, none(c)), false), c->nil);
}

/* Ordinary condition (6.2).  A constant condition is decided now. */
static struct chain asm_ord(struct cs *c, struct clause *cl, struct rest r)
{
    struct value *C = cl->xcond;
    if (!cl->nonexit || !r.any) {
        if (cl->xbody == c->nil) /* last, without body: C's value */
            return chain_of(c, C);
        return chain_push(c, C, cl->xbody, r.ch);
    }
    return chain_after(c, when_stmts(c, C, cl->xbody), r.ch);
}

/* bind* (6.3): the first value is computed and tested once, all bindings
 * cover the body and the rest. */
static struct chain asm_bind(struct cs *c, struct clause *cl, struct rest r)
{
    struct value *all = cl->u.bind.all;
    if (all == c->nil) /* (bind*) without body, not last */
        return r.ch;
    struct value *rest = r.any ? forms_of(c, chain_form(c, r.ch, true)) : c->nil;
    if (r.any && cl->xbody == c->nil)
        return chain_of(c, let_form(c, c->S.let_star, all, rest));
    if (!r.any && cl->xbody == c->nil) /* the values, and nil */
        return chain_of(c, let_form(c, c->S.let_star, all, cons(c, c->nil, c->nil)));
    struct value *first = value_car(value_car(cl->u.bind.mb));
    struct value *test = cl->u.bind.plain ? first : cl->u.bind.init;
    struct value *inner = cons(c, cons(c, c->S.when, cons(c, test, cl->xbody)), rest);
    if (cl->u.bind.plain)
        return chain_of(c, let_form(c, c->S.let_star, all, inner));
    inner = let_form(c, c->S.let_star, cl->u.bind.mb, inner);
    struct value *b = cons(c, list2(c, cl->u.bind.init, cl->u.bind.val1), c->nil);
    return chain_of(c, list3(c, c->S.let, b, inner));
}

/* bind-and* (6.4): bindings cover the body only; a last clause without
 * body yields the last variable itself (Q11, reproduced). */
static struct chain asm_bind_and(struct cs *c, struct clause *cl, struct rest r)
{
    if (!r.any && cl->xbody == c->nil)
        return chain_of(c, cl->u.band.last);
    struct value *lets = cl->u.band.lets;
    struct value *stmts = when_stmts(c, cl->u.band.test, cl->xbody);
    if (lets != c->nil)
        stmts = cons(c, let_form(c, c->S.let_star, lets, stmts), c->nil);
    if (r.any)
        return chain_after(c, stmts, r.ch);
    return chain_of(c, body_form(c, stmts));
}

/* Does x occur in tree below its root, as an element or a tail of a
 * list at any depth?  When reading, the variable of a (setq VAR VALUE)
 * form does not count (it is assigned, not read).  Explicit stack:
 * trees may be deep. */
static bool occurs(struct cs *c, const struct value *x, struct value *tree,
                   bool reading)
{
    size_t cap = 16, n = 0;
    struct value **stack = ARENA_NEWN(c->L->a, struct value *, cap);
    stack[n++] = tree;
    while (n) {
        struct value *v = stack[--n];
        if (reading && headed(v, c->S.setq) && value_consp(value_cdr(v)))
            v = value_cdr(value_cdr(v)); /* its value part only */
        for (; value_consp(v); v = value_cdr(v)) {
            if (value_car(v) == x || value_cdr(v) == x)
                return true;
            if (n == cap) {
                stack = arena_grow(c->L->a, stack, cap * sizeof *stack,
                                   2 * cap * sizeof *stack);
                cap *= 2;
            }
            stack[n++] = value_car(v);
        }
    }
    return false;
}

/* Is sym read in tree (tree itself, or occurs reading)? */
static bool reads(struct cs *c, const struct value *sym, struct value *tree)
{
    return tree == sym || occurs(c, sym, tree, true);
}

/* tree with every occurrence of from replaced by to (copying only the
 * conses on the way to one). */
static struct value *subst(struct cs *c, struct value *tree, struct value *from,
                           struct value *to, struct condstar_at at)
{
    if (tree == from)
        return to;
    if (!value_consp(tree))
        return tree;
    if (!condstar_enter(c->x, at))
        return NULL;
    struct value *rev = c->nil, *v = tree;
    bool changed = false;
    for (; value_consp(v); v = value_cdr(v)) {
        struct value *e = subst(c, value_car(v), from, to, at);
        if (!e)
            return condstar_leave(c->x), NULL;
        changed |= e != value_car(v);
        rev = cons(c, e, rev);
    }
    condstar_leave(c->x);
    if (!changed && v != from)
        return tree;
    struct value *r = v == from ? to : v;
    for (; rev != c->nil; rev = value_cdr(rev))
        r = cons(c, value_car(rev), r);
    return r;
}

/* When the bindings of a match* clause are not emitted, an alias that
 * the test only assigns would be an unused variable: it is renamed to a
 * temporary whose name starts with `_' (cli.md section 9).  Returns the
 * test, and the aliases oldest first in *names; NULL after an error. */
static struct value *match_aliases(struct cs *c, struct clause *cl,
                                   bool lets_emitted, struct value **names)
{
    struct value *test = cl->u.match.r.test;
    struct condstar_at at = {cl->src, cl->holder};
    *names = c->nil;
    for (const struct matchstar_alias *a = cl->u.match.r.aliases; a; a = a->next) {
        struct value *t = a->temp;
        if (!lets_emitted && !reads(c, t, test)) {
            t = expand_gensym(c->x, "_ba");
            if (!(test = subst(c, test, a->temp, t, at)))
                return NULL;
        }
        *names = cons(c, t, *names);
    }
    return test;
}

/* What the test of a match* clause runs on success (6.6 step 4), as a
 * list of forms; nil without body. */
static struct value *match_run(struct cs *c, struct clause *cl,
                               struct value *lets, struct value *stores)
{
    if (cl->xbody == c->nil)
        return c->nil;
    struct value *body = cl->xbody;
    if (stores != c->nil)
        body = cons(c, cons(c, c->S.prog1, cons(c, body_form(c, body), stores)), c->nil);
    return forms_of(c, let_form(c, c->S.let, lets, body));
}

/* Q5 fixed: one carry temporary per variable, stored when the body ends
 * and loaded around the rest. */
static void match_carry(struct cs *c, const struct matchstar_binding *b,
                        struct value **temps, struct value **stores,
                        struct value **loads)
{
    *temps = *stores = *loads = c->nil;
    for (; b; b = b->next) {
        struct value *t = expand_gensym(c->x, "ua");
        *temps = cons(c, t, *temps);
        *stores = cons(c, list3(c, c->S.setq, t, b->var), *stores);
        *loads = cons(c, list2(c, b->var, t), *loads);
    }
}

/* The clause's datum around ch: (let ((d DATUM) VARS...) CH), or, when
 * nothing reads d, DATUM as a statement before ch (a datum read directly
 * is read by the test or the bindings). */
static struct chain match_datum(struct cs *c, struct clause *cl, struct value *test,
                                struct value *lets, struct chain ch)
{
    struct value *d = cl->u.match.d, *datum = cl->u.match.datum;
    if (cl->u.match.root != d || !(reads(c, d, test) || reads(c, d, lets))) {
        bool read = cl->u.match.root != d && (reads(c, datum, test) || reads(c, datum, lets));
        if (read || truth(c, datum) >= 0)
            return ch;
        return chain_after(c, cons(c, datum, c->nil), ch);
    }
    struct value *b = cons(c, list2(c, d, datum), ch.vars);
    ch.vars = c->nil;
    return chain_of(c, cons(c, c->S.let, cons(c, b, forms_of(c, chain_form(c, ch, false)))));
}

/* test and lets with the datum read as match_root decided. */
static bool match_rooted(struct cs *c, struct clause *cl, struct value **test,
                         struct value **lets)
{
    struct value *d = cl->u.match.d, *root = cl->u.match.root;
    struct condstar_at at = {cl->src, cl->holder};
    if (root == d)
        return true;
    return (*test = subst(c, *test, d, root, at)) && (*lets = subst(c, *lets, d, root, at));
}

/* match* (6.6 with the Q5 fix of section 7). */
static struct chain asm_match(struct cs *c, struct clause *cl, struct rest r)
{
    const struct matchstar_result *mr = &cl->u.match.r;
    struct value *lets = matchstar_let_list(c->L, mr->bindings);
    bool body = cl->xbody != c->nil;
    bool tail = cl->nonexit && r.any; /* the rest runs inside this clause */
    bool tail_lets = tail && !r.bare_progn;
    bool carry = body && mr->bindings && tail_lets; /* Q5 */
    struct value *temps = c->nil, *stores = c->nil, *loads = c->nil, *aliases;
    struct value *test = match_aliases(c, cl, body || tail_lets, &aliases);
    if (!test || !match_rooted(c, cl, &test, &lets)) {
        c->failed = true;
        return none(c);
    }
    if (carry) {
        match_carry(c, mr->bindings, &temps, &stores, &loads);
        condstar_diag(c->x, DIAG_WARNING, (struct condstar_at){cl->src, cl->holder},
                      "emacs-divergence",
                      "non-exit match* with a body: in Emacs 30 later clauses "
                      "see the pattern variables as nil; pcexpand passes their "
                      "values");
    }
    struct value *run = match_run(c, cl, lets, stores);
    struct chain ch;
    if (!tail && !body) /* the last clause: the test's value */
        ch = chain_of(c, test);
    else if (!tail)
        ch = chain_push(c, test, run, cl->nonexit ? none(c) : r.ch);
    else { /* Q6: the rest is bound even when the test failed */
        struct value *b2 = carry ? loads : lets;
        struct chain rest = tail_lets ? r.ch : none(c);
        if (tail_lets && b2 != c->nil)
            rest = chain_vars(c, r.ch.vars,
                              chain_of(c, let_form(c, c->S.let, b2,
                                                   forms_of(c, chain_form(c, r.ch, false)))));
        struct value *stmt = body ? when_stmts(c, test, run)
                             : mr->effects ? cons(c, test, c->nil)
                                           : c->nil; /* only compares */
        ch = chain_after(c, stmt, rest);
    }
    ch = chain_vars(c, temps, chain_vars(c, aliases, ch));
    return match_datum(c, cl, test, lets, ch);
}

/* pcase's expansion e of an exit pcase* clause whose no-match form is
 * rest, the form of the chain r: when e is (if TEST THEN REST) or
 * (cond CLAUSE... (t REST)) and REST occurs nowhere else in it, e's
 * tests join the chain in front of r's clauses instead of enclosing
 * them.  False when e has another shape. */
static bool pcase_joins(struct cs *c, struct value *e, struct value *rest,
                        struct chain r, struct chain *out)
{
    if (!value_consp(rest) || value_list_length(e, c->nil) < 2)
        return false;
    struct value *head = value_car(e), *tail = value_cdr(e);
    if (head == c->S.if_ && value_list_length(tail, c->nil) == 3 &&
        value_car(value_cdr(value_cdr(tail))) == rest) {
        struct value *test = value_car(tail), *then = value_car(value_cdr(tail));
        if (occurs(c, rest, list2(c, test, then), false))
            return false;
        *out = chain_push(c, test, forms_of(c, then), r);
        return true;
    }
    if (head != c->S.cond)
        return false;
    struct value *rev = lisp_reverse(c->L, tail), *last = value_car(rev);
    if (value_list_length(last, c->nil) != 2 || value_car(last) != c->S.t ||
        value_car(value_cdr(last)) != rest)
        return false;
    for (struct value *l = value_cdr(rev); l != c->nil; l = value_cdr(l))
        if (!value_consp(value_car(l)) || !value_consp(value_cdr(value_car(l))) ||
            value_car(value_car(l)) == c->S.t || occurs(c, rest, value_car(l), false))
            return false;
    for (struct value *l = value_cdr(rev); l != c->nil; l = value_cdr(l))
        r.clauses = cons(c, value_car(l), r.clauses);
    *out = r;
    return true;
}

/* pcase* (6.5): an exit clause is a two-clause pcase, a body-less one is
 * unchecked destructuring around the rest. */
static struct chain asm_pcase(struct cs *c, struct clause *cl, struct rest r)
{
    struct value *a = value_cdr(cl->cond), *pat = c->nil, *datum = c->nil;
    if (value_consp(a)) {
        pat = value_car(a);
        if (value_consp(value_cdr(a)))
            datum = value_car(value_cdr(a));
    }
    struct value *rest = chain_form(c, r.ch, false), *e;
    if (cl->body != c->nil) {
        struct value *clauses = cons(c, cons(c, pat, cl->body), c->nil);
        bool exits = !cl->nonexit && r.any;
        e = pcase_compile_clauses(c->x, datum, clauses, exits ? rest : NULL);
        struct chain joined;
        if (e && exits && pcase_joins(c, e, rest, r.ch, &joined))
            return joined;
    } else {
        /* Emacs's body is (cond* REST...), one form even when REST is
         * empty: with no body form at all, pcase-let would not evaluate
         * the datum. */
        e = pcase_destructure(c->x, pat, datum, cons(c, rest, c->nil));
    }
    if (!e) {
        c->failed = true;
        return none(c);
    }
    struct chain ch = chain_of(c, e);
    ch.vars = r.ch.vars; /* pcase's code does not touch them */
    return ch;
}

static struct chain assemble(struct cs *c, struct clause *cl, struct rest r)
{
    switch (cl->kind) { /* dispatch on the condition kind (2.4) */
    case CK_ORD: return asm_ord(c, cl, r);
    case CK_BIND: return asm_bind(c, cl, r);
    case CK_BIND_AND: return asm_bind_and(c, cl, r);
    case CK_MATCH: return asm_match(c, cl, r);
    case CK_PCASE: return asm_pcase(c, cl, r);
    }
    return none(c);
}

/* Is this last clause one that Emacs expands to exactly (progn)? */
static bool bare_progn(struct cs *c, const struct clause *cl)
{
    return cl->kind == CK_ORD && cl->body == c->nil && headed(cl->cond, c->S.progn) &&
           value_cdr(cl->cond) == c->nil;
}

/* Parse left to right, then fold right to left (6.1). */
static struct value *expand_clauses(struct cs *c, struct value *form)
{
    struct value *list = value_cdr(form);
    long n = value_list_length(list, c->nil);
    if (n < 0) {
        condstar_diag(c->x, DIAG_ERROR, (struct condstar_at){form, NULL},
                      "malformed-pattern", "cond* form is not a proper list");
        return NULL;
    }
    struct clause *cls = ARENA_NEWN(c->L->a, struct clause, n ? n : 1);
    memset(cls, 0, sizeof *cls * (n ? n : 1));
    long i = 0;
    for (struct value *l = list; l != c->nil; l = value_cdr(l), i++) {
        cls[i].src = value_car(l);
        cls[i].holder = l;
        cls[i].last = i == n - 1;
        if (!parse_clause(c, &cls[i]))
            return NULL;
    }
    struct rest r = {none(c), false, false};
    for (i = n - 1; i >= 0; i--) {
        r.ch = assemble(c, &cls[i], r);
        if (c->failed)
            return NULL;
        r.bare_progn = i == n - 1 && bare_progn(c, &cls[i]);
        r.any = true;
    }
    return chain_form(c, r.ch, true);
}

struct value *condstar_expand(struct expand_ctx *x, struct value *form)
{
    struct cs c = {.x = x, .L = x->L, .nil = x->L->nil};
    condstar_syms_init(&c.S, x->L);
    if (!condstar_enter(x, (struct condstar_at){form, NULL}))
        return NULL;
    struct value *e = expand_clauses(&c, form);
    condstar_leave(x);
    return e;
}

/* ---- --explain ---- */

/* A growable list of strings. */
struct strs_acc {
    const char **s;
    size_t n, cap;
};

static void explain_add(struct cs *c, struct strs_acc *v, const char *s)
{
    if (v->n == v->cap) {
        size_t ncap = v->cap * 2 + 4;
        v->s = arena_grow(c->L->a, v->s, v->cap * sizeof *v->s, ncap * sizeof *v->s);
        v->cap = ncap;
    }
    v->s[v->n++] = s;
}

static const char *explain_text(struct cs *c, const char *fmt, const char *a, const char *b)
{
    struct buf out;
    buf_init(&out, c->L->a);
    buf_printf(&out, fmt, a, b);
    return buf_cstr(&out);
}

/* The datum temporary of a match* clause, named DATUM in the text. */
static const char *shown(struct cs *c, const struct clause *cl, struct value *v)
{
    if (cl->kind == CK_MATCH)
        v = subst(c, v, cl->u.match.d, intern_cstr(c->L, "DATUM"),
                  (struct condstar_at){cl->src, cl->holder});
    return explain_show(c->L, v ? v : c->nil);
}

static void explain_bindings(struct cs *c, const struct clause *cl, struct strs_acc *when,
                             struct strs_acc *binds)
{
    struct value *l = cl->kind == CK_BIND ? cl->u.bind.all : value_cdr(cl->cond);
    for (; value_consp(l); l = value_cdr(l)) {
        struct value *e = value_car(l);
        struct value *var = value_consp(e) ? value_car(e) : e;
        struct value *val = value_consp(e) && value_consp(value_cdr(e))
                                ? value_car(value_cdr(e)) : c->nil;
        const char *vs = explain_show(c->L, var), *xs = explain_show(c->L, val);
        explain_add(c, binds, explain_text(c, "%s = %s", vs, xs));
        if (cl->kind == CK_BIND_AND)
            explain_add(c, when, explain_text(c, "%s (the value of %s) is non-nil", vs, xs));
    }
}

static void explain_one(struct cs *c, const struct clause *cl, struct strs_acc *when,
                        struct strs_acc *binds)
{
    switch (cl->kind) {
    case CK_ORD:
        if (cl->cond != c->S.t)
            explain_add(c, when, explain_text(c, "%s is non-nil", shown(c, cl, cl->cond), ""));
        break;
    case CK_BIND:
        explain_add(c, when, "always true: bind* binds its variables and succeeds");
        explain_bindings(c, cl, when, binds);
        break;
    case CK_BIND_AND:
        explain_bindings(c, cl, when, binds);
        break;
    case CK_MATCH: {
        struct value *args = value_cdr(cl->cond);
        explain_add(c, when, explain_text(c, "DATUM = %s matches %s (evaluated once)",
                                          explain_show(c->L, value_car(value_cdr(args))),
                                          explain_show(c->L, value_car(args))));
        if (cl->u.match.r.test != c->S.t)
            explain_add(c, when, explain_text(c, "that is, %s is non-nil",
                                              shown(c, cl, cl->u.match.r.test), ""));
        for (const struct matchstar_binding *b = cl->u.match.r.bindings; b; b = b->next)
            explain_add(c, binds, explain_text(c, "%s = %s", explain_show(c->L, b->var),
                                               shown(c, cl, b->val)));
        break;
    }
    case CK_PCASE: {
        struct value *a = value_cdr(cl->cond);
        struct value *d = value_consp(value_cdr(a)) ? value_car(value_cdr(a)) : c->nil;
        explain_add(c, when, explain_text(c, "%s matches the pcase pattern %s",
                                          explain_show(c->L, d),
                                          explain_show(c->L, value_car(a))));
        break;
    }
    }
    bool explicit_nonexit = value_consp(cl->src) && last_elt(cl->src) == c->S.non_exit;
    if (explicit_nonexit)
        explain_add(c, when, "(:non-exit: after its body, the next clauses run)");
    else if (cl->nonexit && cl->body == c->nil && !cl->last)
        explain_add(c, when, "(no body: the clauses after it run, with its bindings)");
}

bool condstar_explain(struct expand_ctx *x, struct value *form, struct pcase_explain_out *out)
{
    struct cs c = {.x = x, .L = x->L, .nil = x->L->nil};
    condstar_syms_init(&c.S, x->L);
    struct value *list = value_cdr(form);
    long n = value_list_length(list, c.nil);
    if (n < 0 || !condstar_enter(x, (struct condstar_at){form, NULL}))
        return false;
    struct clause *cls = ARENA_NEWN(c.L->a, struct clause, n ? n : 1);
    memset(cls, 0, sizeof *cls * (n ? n : 1));
    struct explain_clause *ec = ARENA_NEWN(c.L->a, struct explain_clause, n ? n : 1);
    long i = 0;
    bool ok = true;
    for (struct value *l = list; ok && l != c.nil; l = value_cdr(l), i++) {
        cls[i] = (struct clause){.src = value_car(l), .holder = l, .last = i == n - 1};
        ok = parse_clause(&c, &cls[i]);
        struct strs_acc when = {NULL, 0, 0}, binds = {NULL, 0, 0};
        if (ok)
            explain_one(&c, &cls[i], &when, &binds);
        ec[i] = (struct explain_clause){.index = (uint32_t)i, .pattern = cls[i].cond,
                                        .at = cls[i].src, .when = when.s, .n_when = when.n,
                                        .binds = binds.s, .n_binds = binds.n,
                                        .nonexit = ok && cls[i].nonexit && !cls[i].last &&
                                                   cls[i].kind != CK_ORD};
    }
    condstar_leave(x);
    if (!ok)
        return false;
    if (out->n == out->cap) {
        size_t ncap = out->cap * 2 + 2;
        out->secs = arena_grow(c.L->a, out->secs, out->cap * sizeof *out->secs,
                               ncap * sizeof *out->secs);
        out->cap = ncap;
    }
    struct explain_section *sec = &out->secs[out->n++];
    memset(sec, 0, sizeof *sec);
    *sec = (struct explain_section){.kind = EXPLAIN_COND_STAR, .head = "cond*",
                                    .subject = "(none)", .subject_note = "each clause "
                                    "tests its own condition, in order",
                                    .name = "", .clauses = ec, .n_clauses = (size_t)n};
    return true;
}
