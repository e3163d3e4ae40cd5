/* walk.c - the code walker: which sub-forms of a form are evaluated.
 *
 * Stage "walk" (cli.md section 3).  Functions in order: the role and spec
 * tables (what each argument of a known head is), the frame stack
 * (push, accept a child's result, finish with a copy when something
 * changed), enter (start one element in a given role), and the main loop
 * walk_run behind walk_form / walk_body.
 *
 * Every list being walked is a frame on an explicit stack; an element is
 * entered with a role.  A frame copies its spine lazily: only when a child
 * comes back different, so an unchanged form is returned as the same
 * pointer and unchanged sub-forms stay shared with the input.
 */
#include "syntax/walk.h"

#include <string.h>

/* What an element is.  ORDER: walk-roles (enter() switches on these). */
enum role {
    R_DATA,            /* not evaluated */
    R_CODE,            /* a form */
    R_FUNCTION,        /* argument of `function`: code only when a lambda */
    R_BINDINGS,        /* let bindings: list of R_BINDING */
    R_BINDING,         /* SYM, or (SYM VALUE...) with the values code */
    R_IFLET_BINDINGS,  /* if-let bindings, or one (SYM VALUE) binding */
    R_IFLET_BINDING,   /* SYM, (SYM VALUE) or (VALUE) */
    R_CLAUSE,          /* cond clause: every element code */
    R_HEADED,          /* (DATA CODE...): handlers, cl-case clauses, dolist specs */
    R_FUNBINDINGS,     /* cl-flet bindings: list of R_FUNBINDING */
    R_FUNBINDING,      /* (NAME ARGS BODY...) or (NAME EXPR) */
    R_TEMPLATE,        /* backquote template at the frame's level */
    R_PATTERN,         /* pcase pattern (walked only in skipped pcase forms) */
    R_PREDFUN,         /* function of pred/app */
    R_PCASE_CLAUSE,    /* (PATTERN BODY...) */
    R_PCASE_BINDINGS,  /* list of R_PCASE_BINDING */
    R_PCASE_BINDING,   /* (PATTERN VALUE) */
    R_PATTERNS,        /* list of patterns (pcase-lambda arguments) */
    R_CSTAR_CLAUSE,    /* cond* clause (CONDITION BODY...) */
    R_CSTAR_COND,      /* cond* condition: match*, bind* ... or code */
    R_DECLARE,         /* a clause of declare: by its head (decl_heads) */
    R_CL_ARGS,         /* cl-lib argument list: list of R_CL_ARG */
    R_CL_ARG,          /* VAR, or (VAR-or-LIST DEFAULT SVAR): DEFAULT is code */
    R_CL_LAMBDA,       /* (lambda CL-ARGS BODY...) of cl-function, else code */
};

/* Roles of a list's elements: fixed[] for the first n_fixed positions
 * (position 0 is the head of a form), then rest (alternating with rest2
 * when alt is set, as for setq's VAR VALUE pairs). */
struct spec {
    uint8_t fixed[4];
    uint8_t n_fixed;
    uint8_t rest;
    uint8_t rest2;
    uint8_t alt;
};

#define SPEC1(a, r) {{a}, 1, r, 0, 0}
#define SPEC2(a, b, r) {{a, b}, 2, r, 0, 0}
#define SPEC3(a, b, c, r) {{a, b, c}, 3, r, 0, 0}

static const struct spec all_code = {{0}, 0, R_CODE, 0, 0};
static const struct spec sp_code = SPEC1(R_DATA, R_CODE);
static const struct spec sp_quote = SPEC1(R_DATA, R_DATA);
static const struct spec sp_function = SPEC2(R_DATA, R_FUNCTION, R_DATA);
static const struct spec sp_let = SPEC2(R_DATA, R_BINDINGS, R_CODE);
static const struct spec sp_named_let = SPEC3(R_DATA, R_DATA, R_BINDINGS, R_CODE);
static const struct spec sp_lambda = SPEC2(R_DATA, R_DATA, R_CODE);
static const struct spec sp_defun = SPEC3(R_DATA, R_DATA, R_DATA, R_CODE);
static const struct spec sp_cond = SPEC1(R_DATA, R_CLAUSE);
static const struct spec sp_condcase = SPEC3(R_DATA, R_DATA, R_CODE, R_HEADED);
static const struct spec sp_dolist = SPEC2(R_DATA, R_HEADED, R_CODE);
static const struct spec sp_setq = {{R_DATA}, 1, R_DATA, R_CODE, 1};
static const struct spec sp_bquote = SPEC2(R_DATA, R_TEMPLATE, R_DATA);
static const struct spec sp_iflet = SPEC2(R_DATA, R_IFLET_BINDINGS, R_CODE);
static const struct spec sp_case = SPEC2(R_DATA, R_CODE, R_HEADED);
static const struct spec sp_flet = SPEC2(R_DATA, R_FUNBINDINGS, R_CODE);
static const struct spec sp_pcase = SPEC2(R_DATA, R_CODE, R_PCASE_CLAUSE);
static const struct spec sp_pcase_let = SPEC2(R_DATA, R_PCASE_BINDINGS, R_CODE);
static const struct spec sp_pcase_dolist = SPEC2(R_DATA, R_PCASE_BINDING, R_CODE);
static const struct spec sp_pcase_setq = {{R_DATA}, 1, R_PATTERN, R_CODE, 1};
static const struct spec sp_pcase_lambda = SPEC2(R_DATA, R_PATTERNS, R_CODE);
static const struct spec sp_condstar = SPEC1(R_DATA, R_CSTAR_CLAUSE);
static const struct spec sp_match = SPEC2(R_DATA, R_DATA, R_CODE);
static const struct spec sp_bind = SPEC1(R_DATA, R_BINDING);
static const struct spec sp_two_data = SPEC2(R_DATA, R_DATA, R_CODE);
static const struct spec sp_declare = SPEC1(R_DATA, R_DECLARE);
static const struct spec sp_assert = {{R_DATA, R_CODE, R_DATA, R_CODE}, 4, R_CODE, 0, 0};
static const struct spec sp_callf = SPEC2(R_DATA, R_FUNCTION, R_CODE);
static const struct spec sp_do = SPEC3(R_DATA, R_BINDINGS, R_CLAUSE, R_CODE);
static const struct spec sp_args_list = SPEC2(R_DATA, R_CLAUSE, R_CODE);
static const struct spec sp_cl_defun = SPEC3(R_DATA, R_DATA, R_CL_ARGS, R_CODE);
static const struct spec sp_cl_bind = SPEC2(R_DATA, R_CL_ARGS, R_CODE);
static const struct spec sp_cl_function = SPEC2(R_DATA, R_CL_LAMBDA, R_DATA);
static const struct spec sp_interactive = SPEC2(R_DATA, R_CODE, R_DATA);

struct head {
    const char *name;
    const struct spec *spec;
};

/* Heads whose arguments are not all code, plus the special forms (whose
 * arguments are).  Sorted by strcmp; walk_check_tables verifies it. */
static const struct head heads[] = {
    {"`", &sp_bquote},
    {"and", &sp_code},
    {"and-let*", &sp_iflet},
    {"bind*", &sp_bind},
    {"bind-and*", &sp_bind},
    {"catch", &sp_code},
    {"cl-assert", &sp_assert},
    {"cl-block", &sp_two_data},
    {"cl-callf", &sp_callf},
    {"cl-callf2", &sp_callf},
    {"cl-case", &sp_case},
    {"cl-check-type", &sp_assert},
    {"cl-declare", &sp_quote},
    {"cl-defgeneric", &sp_defun},
    {"cl-define-compiler-macro", &sp_cl_defun},
    {"cl-defmacro", &sp_cl_defun},
    {"cl-defsubst", &sp_cl_defun},
    {"cl-defun", &sp_cl_defun},
    {"cl-destructuring-bind", &sp_cl_bind},
    {"cl-do", &sp_do},
    {"cl-do*", &sp_do},
    {"cl-do-all-symbols", &sp_dolist},
    {"cl-do-symbols", &sp_dolist},
    {"cl-dolist", &sp_dolist},
    {"cl-dotimes", &sp_dolist},
    {"cl-ecase", &sp_case},
    {"cl-etypecase", &sp_case},
    {"cl-eval-when", &sp_two_data},
    {"cl-flet", &sp_flet},
    {"cl-flet*", &sp_flet},
    {"cl-function", &sp_cl_function},
    {"cl-iter-defun", &sp_cl_defun},
    {"cl-labels", &sp_flet},
    {"cl-letf", &sp_let},
    {"cl-letf*", &sp_let},
    {"cl-macrolet", &sp_flet},
    {"cl-multiple-value-bind", &sp_two_data},
    {"cl-multiple-value-setq", &sp_two_data},
    {"cl-once-only", &sp_let},
    {"cl-prog", &sp_let},
    {"cl-prog*", &sp_let},
    {"cl-return-from", &sp_two_data},
    {"cl-symbol-macrolet", &sp_let},
    {"cl-the", &sp_two_data},
    {"cl-typecase", &sp_case},
    {"cl-with-gensyms", &sp_let},
    {"cond", &sp_cond},
    {"cond*", &sp_condstar},
    {"condition-case", &sp_condcase},
    {"condition-case-unless-debug", &sp_condcase},
    {"declare", &sp_declare},
    {"declare-function", &sp_quote},
    {"def-edebug-spec", &sp_quote},
    {"define-inline", &sp_defun},
    {"defmacro", &sp_defun},
    {"defsubst", &sp_defun},
    {"defun", &sp_defun},
    {"dlet", &sp_let},
    {"dolist", &sp_dolist},
    {"dolist-with-progress-reporter", &sp_dolist},
    {"dotimes", &sp_dolist},
    {"dotimes-with-progress-reporter", &sp_dolist},
    {"ert-deftest", &sp_defun},
    {"function", &sp_function},
    {"gv-define-expander", &sp_two_data},
    {"gv-define-simple-setter", &sp_quote},
    {"if", &sp_code},
    {"if-let", &sp_iflet},
    {"if-let*", &sp_iflet},
    {"ignore-error", &sp_two_data},
    {"interactive", &sp_interactive},
    {"iter-defun", &sp_defun},
    {"iter-lambda", &sp_lambda},
    {"lambda", &sp_lambda},
    {"let", &sp_let},
    {"let*", &sp_let},
    {"letrec", &sp_let},
    {"map-let", &sp_two_data},
    {"match*", &sp_match},
    {"named-let", &sp_named_let},
    {"or", &sp_code},
    {"pcase", &sp_pcase},
    {"pcase*", &sp_match},
    {"pcase-defmacro", &sp_defun},
    {"pcase-dolist", &sp_pcase_dolist},
    {"pcase-exhaustive", &sp_pcase},
    {"pcase-lambda", &sp_pcase_lambda},
    {"pcase-let", &sp_pcase_let},
    {"pcase-let*", &sp_pcase_let},
    {"pcase-setq", &sp_pcase_setq},
    {"prog1", &sp_code},
    {"prog2", &sp_code},
    {"progn", &sp_code},
    {"quote", &sp_quote},
    {"rx-define", &sp_quote},
    {"rx-let", &sp_two_data},
    {"save-current-buffer", &sp_code},
    {"save-excursion", &sp_code},
    {"save-restriction", &sp_code},
    {"seq-doseq", &sp_dolist},
    {"seq-let", &sp_two_data},
    {"setq", &sp_setq},
    {"setq-default", &sp_setq},
    {"setq-local", &sp_setq},
    {"unwind-protect", &sp_code},
    {"when", &sp_code},
    {"when-let", &sp_iflet},
    {"when-let*", &sp_iflet},
    {"while", &sp_code},
    {"with-delayed-message", &sp_args_list},
    {"with-slots", &sp_two_data},
    {"with-suppressed-warnings", &sp_two_data},
};

/* Heads of pcase patterns whose arguments hold patterns or code. */
static const struct spec pp_pred = SPEC1(R_DATA, R_PREDFUN);
static const struct spec pp_app = SPEC2(R_DATA, R_PREDFUN, R_PATTERN);
static const struct spec pp_guard = SPEC1(R_DATA, R_CODE);
static const struct spec pp_andor = SPEC1(R_DATA, R_PATTERN);
static const struct spec pp_let = SPEC2(R_DATA, R_PATTERN, R_CODE);

static const struct head pattern_heads[] = {
    {"`", &sp_bquote}, /* operands of `,` are patterns here (see enter) */
    {"and", &pp_andor},
    {"app", &pp_app},
    {"guard", &pp_guard},
    {"let", &pp_let},
    {"or", &pp_andor},
    {"pred", &pp_pred},
};

/* Clauses of declare whose arguments hold code: what the handlers of
 * Emacs 30.1's defun-declarations-alist and macro-declarations-alist put
 * in an evaluated (or compiled) position.  A function argument (a symbol,
 * or a lambda that becomes a definition); obsolete's WHEN; the FORMs of
 * interactive-args, which call-interactively stores in the command
 * history and `repeat-complex-command' evaluates.  Every other clause
 * (indent, debug, doc-string, pure, ftype, ...) is data. */
static const struct spec dc_function = SPEC2(R_DATA, R_FUNCTION, R_DATA);
static const struct spec dc_obsolete = SPEC3(R_DATA, R_DATA, R_CODE, R_DATA);
static const struct spec dc_arg_forms = SPEC1(R_DATA, R_HEADED);

static const struct head decl_heads[] = {
    {"compiler-macro", &dc_function},
    {"completion", &dc_function},
    {"gv-expander", &dc_function},
    {"gv-setter", &dc_function},
    {"interactive-args", &dc_arg_forms},
    {"obsolete", &dc_obsolete},
};

#define COUNT(t) (sizeof(t) / sizeof((t)[0]))

/* Index of name in the sorted table t[0..n), or -1.  Most steps of the
 * search are decided by the first byte, without a call to strcmp. */
static int find_row(const struct head *t, size_t n, const char *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = (unsigned char)name[0] - (unsigned char)t[mid].name[0];
        if (c == 0 && name[0])
            c = strcmp(name + 1, t[mid].name + 1);
        if (c == 0)
            return (int)mid;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

static const struct spec *lookup(const struct head *t, size_t n,
                                 const struct value *sym)
{
    int i = find_row(t, n, sym->u.sym.name);
    return i < 0 ? NULL : t[i].spec;
}

/* Row of name in heads, or -1 (value_sym_row's lookup). */
static int head_row(const char *name)
{
    return find_row(heads, COUNT(heads), name);
}

bool walk_knows(const char *name)
{
    return head_row(name) >= 0;
}

static long check_sorted(const struct head *t, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (strcmp(t[i - 1].name, t[i].name) >= 0)
            return (long)i;
    return -1;
}

long walk_check_tables(void)
{
    long bad = check_sorted(heads, COUNT(heads));
    if (bad >= 0)
        return bad;
    bad = check_sorted(pattern_heads, COUNT(pattern_heads));
    if (bad >= 0)
        return 1000 + bad;
    bad = check_sorted(decl_heads, COUNT(decl_heads));
    return bad >= 0 ? 2000 + bad : -1;
}

/* ---- frames ---- */

struct frame {
    struct value *orig;       /* the list or vector being walked */
    struct value *cur;        /* list: the cons holding the next element */
    size_t index;             /* position of the next element */
    const struct spec *spec;  /* roles of the elements */
    int level;                /* R_TEMPLATE: backquote nesting level */
    uint8_t unq;              /* R_TEMPLATE: role of level-1 unquote operands */
    bool vector;              /* orig is a vector */
    bool at_tail;             /* the pending child replaces the list's tail */
    bool done_tail;           /* the tail was handled as a template unquote */
    bool copying;             /* a child changed: the spine is being copied */
    bool scope;               /* visit said WALK_SCOPE: call leave when done */
    struct value *head, *last;/* list copy so far (head NULL while empty) */
    struct value **items;     /* vector copy (NULL until a change) */
    struct value *tortoise;   /* Brent's check: a spine that loops (#1#) */
    size_t power, lam;
};

struct state {
    struct walker *w;
    struct frame *stack;
    size_t n, cap;
};

static struct frame *push(struct state *s, struct value *v,
                          const struct spec *sp, int level, uint8_t unq)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        s->stack = arena_grow(s->w->L->a, s->stack, s->cap * sizeof *s->stack,
                              cap * sizeof *s->stack);
        s->cap = cap;
    }
    struct frame *f = &s->stack[s->n++];
    memset(f, 0, sizeof *f);
    f->orig = v;
    f->cur = v;
    f->spec = sp;
    f->level = level;
    f->unq = unq;
    f->vector = value_is(v, VK_VECTOR);
    f->tortoise = v;
    f->power = f->lam = 1;
    return f;
}

/* Has f's spine come back to a cons it already passed?  (Brent's cycle
 * detection: reader labels can make circular code.) */
static bool spine_loops(struct frame *f)
{
    if (f->index > 0 && f->cur == f->tortoise)
        return true;
    if (f->lam++ == f->power) {
        f->tortoise = f->cur;
        f->power *= 2;
        f->lam = 1;
    }
    return false;
}

static enum role role_at(const struct frame *f)
{
    const struct spec *sp = f->spec;
    if (f->index < sp->n_fixed)
        return (enum role)sp->fixed[f->index];
    if (sp->alt && (f->index - sp->n_fixed) % 2 == 1)
        return (enum role)sp->rest2;
    return (enum role)sp->rest;
}

/* Copy the spine of f's list up to (not including) cons stop: a child
 * changed, so the conses before it must be new (the input is never
 * modified; the reader's conses keep their origins). */
static void start_copy(struct state *s, struct frame *f, struct value *stop)
{
    struct lisp *L = s->w->L;
    f->head = f->last = NULL;
    f->copying = true;
    for (struct value *c = f->orig; c != stop; c = value_cdr(c)) {
        struct value *n = value_cons(L->a, value_car(c), L->nil);
        if (s->w->rebuilt)
            s->w->rebuilt(s->w, c, n);
        if (f->last)
            f->last->u.cons.cdr = n;
        else
            f->head = n;
        f->last = n;
    }
}

/* Vectors only change inside backquote templates ([a ,(pcase ...)]). */
static void accept_vector(struct state *s, struct frame *f, struct value *r)
{
    struct value_vec *vec = &f->orig->u.vec;
    if (!f->items && r != vec->items[f->index]) {
        f->items = arena_alloc(s->w->L->a, vec->n * sizeof *f->items);
        memcpy(f->items, vec->items, vec->n * sizeof *f->items);
    }
    if (f->items)
        f->items[f->index] = r;
    f->index++;
}

/* A child finished with result r: record it and advance past it. */
static void accept(struct state *s, struct frame *f, struct value *r)
{
    if (f->vector) {
        accept_vector(s, f, r);
        return;
    }
    struct lisp *L = s->w->L;
    if (f->at_tail) {
        if (r != f->cur && !f->copying)
            start_copy(s, f, f->cur);
        if (f->copying)
            f->last->u.cons.cdr = r; /* the tail is never the first cons */
        f->done_tail = true;
        f->at_tail = false;
        return;
    }
    if (!f->copying && r != value_car(f->cur))
        start_copy(s, f, f->cur);
    if (f->copying) {
        struct value *n = value_cons(L->a, r, L->nil);
        if (s->w->rebuilt)
            s->w->rebuilt(s->w, f->cur, n);
        if (f->last)
            f->last->u.cons.cdr = n;
        else
            f->head = n;
        f->last = n;
    }
    f->cur = value_cdr(f->cur);
    f->index++;
}

/* f has no more elements: its result (a copy when something changed). */
static struct value *finish(struct state *s, struct frame *f)
{
    struct lisp *L = s->w->L;
    if (f->vector) {
        if (!f->items)
            return f->orig;
        struct value_vec *vec = &f->orig->u.vec;
        struct value *v = value_vector(L->a, (enum value_kind)f->orig->kind, vec->n);
        memcpy(v->u.vec.items, f->items, vec->n * sizeof *f->items);
        if (s->w->rebuilt)
            s->w->rebuilt(s->w, f->orig, v);
        return v;
    }
    if (!f->copying)
        return f->orig;
    if (!f->done_tail)
        f->last->u.cons.cdr = f->cur; /* dotted tail atom, or nil */
    return f->head;
}

/* ---- entering an element ---- */

enum entered {
    E_DONE,   /* *out holds the element's result */
    E_PUSHED, /* a frame was pushed; its result comes later */
    E_ABORT,  /* a callback aborted */
};

static const struct spec sp_headed = SPEC1(R_DATA, R_CODE);
static const struct spec sp_funbinding = SPEC2(R_DATA, R_DATA, R_CODE);
static const struct spec sp_list_bindings = {{0}, 0, R_BINDING, 0, 0};
static const struct spec sp_list_iflet = {{0}, 0, R_IFLET_BINDING, 0, 0};
static const struct spec sp_list_funbindings = {{0}, 0, R_FUNBINDING, 0, 0};
static const struct spec sp_list_pbindings = {{0}, 0, R_PCASE_BINDING, 0, 0};
static const struct spec sp_list_patterns = {{0}, 0, R_PATTERN, 0, 0};
static const struct spec sp_template = {{0}, 0, R_TEMPLATE, 0, 0};
static const struct spec sp_unquote_up = SPEC1(R_DATA, R_TEMPLATE);
static const struct spec sp_pat_body = SPEC1(R_PATTERN, R_CODE);
static const struct spec sp_not_fun = SPEC1(R_DATA, R_PREDFUN);
static const struct spec sp_cstar_clause = SPEC1(R_CSTAR_COND, R_CODE);
static const struct spec sp_unquote_code = SPEC1(R_DATA, R_CODE);
static const struct spec sp_unquote_pat = SPEC1(R_DATA, R_PATTERN);
static const struct spec sp_list_cl_args = {{0}, 0, R_CL_ARG, 0, 0};
static const struct spec sp_cl_arg = SPEC2(R_CL_ARGS, R_CODE, R_DATA);
static const struct spec sp_cl_lambda = SPEC2(R_DATA, R_CL_ARGS, R_CODE);

/* Is v a symbol named name?  The first byte rules most out. */
static bool symbol_named(const struct value *v, const char *name)
{
    return value_symbolp(v) && v->u.sym.name[0] == name[0] &&
           strcmp(v->u.sym.name, name) == 0;
}

static bool head_is(const struct value *v, const char *name)
{
    return value_consp(v) && symbol_named(value_car(v), name);
}

static bool unquote_sym(const struct lisp *L, const struct value *v)
{
    return v == L->comma || v == L->comma_at;
}

static int pushed(struct state *s, struct value *v, const struct spec *sp,
                  int level, uint8_t unq)
{
    push(s, v, sp, level, unq);
    return E_PUSHED;
}

/* A form in a code position: ask the callback, then descend by head.
 * Unknown heads (function calls, macros the table does not know) have all
 * their arguments walked as code: expanding a pcase in an argument that
 * is really data is the lesser error, and it is what a call means. */
static int enter_code(struct state *s, struct value *v, struct value **out)
{
    struct walker *w = s->w;
    if (!value_consp(v))
        return E_DONE;
    w->replacement = NULL;
    enum walk_status st = w->visit(w, v);
    if (st == WALK_ABORT)
        return E_ABORT;
    if (st == WALK_PRUNE) {
        if (w->replacement)
            *out = w->replacement;
        return E_DONE;
    }
    struct value *h = value_car(v);
    const struct spec *sp = &all_code;
    if (value_symbolp(h)) {
        int row = value_sym_row(h, VALUE_ROW_WALK, head_row);
        sp = row >= 0 ? heads[row].spec : &sp_headed;
    }
    push(s, v, sp, 1, R_CODE)->scope = st == WALK_SCOPE;
    return E_PUSHED;
}

/* An element of a backquote template at nesting level `level`.  Only
 * what is unquoted back to level 0 is evaluated: `,` lowers the level,
 * a nested backquote raises it. */
static int enter_template(struct state *s, struct value *v, int level,
                          uint8_t unq)
{
    struct lisp *L = s->w->L;
    if (value_is(v, VK_VECTOR))
        return pushed(s, v, &sp_template, level, unq);
    if (!value_consp(v))
        return E_DONE;
    struct value *h = value_car(v);
    if (unquote_sym(L, h)) {
        if (level > 1)
            return pushed(s, v, &sp_unquote_up, level - 1, unq);
        return pushed(s, v, unq == R_PATTERN ? &sp_unquote_pat : &sp_unquote_code,
                      level, unq);
    }
    if (h == L->backquote)
        return pushed(s, v, &sp_unquote_up, level + 1, unq);
    return pushed(s, v, &sp_template, level, unq);
}

/* A pcase pattern (only walked when its pcase form is kept, --skip):
 * guard expressions, pred/app functions and let values are code, the
 * rest is pattern syntax. */
static int enter_pattern(struct state *s, struct value *v)
{
    if (!value_consp(v) || !value_symbolp(value_car(v)))
        return E_DONE;
    const struct spec *sp =
        lookup(pattern_heads, COUNT(pattern_heads), value_car(v));
    return sp ? pushed(s, v, sp, 1, R_PATTERN) : E_DONE;
}

/* The function of a pred/app pattern: a symbol, a lambda, (not F), or a
 * call with the matched value added (F ARGS...). */
static int enter_predfun(struct state *s, struct value *v, struct value **out)
{
    if (!value_consp(v))
        return E_DONE;
    struct value *h = value_car(v);
    if (h == s->w->L->lambda || h == s->w->L->function)
        return enter_code(s, v, out);
    if (symbol_named(h, "not"))
        return pushed(s, v, &sp_not_fun, 1, R_CODE);
    return pushed(s, v, &sp_headed, 1, R_CODE);
}

/* if-let's SPEC: a list of bindings, or a single (SYMBOL VALUE) - the old
 * form subr-x still accepts. */
static int enter_iflet(struct state *s, struct value *v)
{
    struct lisp *L = s->w->L;
    if (!value_consp(v))
        return E_DONE;
    long n = value_list_length(v, L->nil);
    if (value_symbolp(value_car(v)) && n >= 1 && n <= 2)
        return pushed(s, v, &sp_headed, 1, R_CODE);
    return pushed(s, v, &sp_list_iflet, 1, R_CODE);
}

/* One if-let binding: SYMBOL, (SYMBOL VALUE) or (VALUE). */
static int enter_iflet_binding(struct state *s, struct value *v)
{
    if (!value_consp(v))
        return E_DONE;
    if (value_cdr(v) == s->w->L->nil)
        return pushed(s, v, &all_code, 1, R_CODE);
    return pushed(s, v, &sp_headed, 1, R_CODE);
}

static int enter_cstar_cond(struct state *s, struct value *v, struct value **out)
{
    if (head_is(v, "match*") || head_is(v, "pcase*"))
        return pushed(s, v, &sp_match, 1, R_CODE);
    if (head_is(v, "bind*") || head_is(v, "bind-and*"))
        return pushed(s, v, &sp_bind, 1, R_CODE);
    return enter_code(s, v, out);
}

/* A clause of declare: walked by decl_heads, else data. */
static int enter_declare(struct state *s, struct value *v)
{
    if (!value_consp(v) || !value_symbolp(value_car(v)))
        return E_DONE;
    const struct spec *sp = lookup(decl_heads, COUNT(decl_heads), value_car(v));
    return sp ? pushed(s, v, sp, 1, R_CODE) : E_DONE;
}

/* Push a frame over v with spec sp when v is a list, else nothing. */
static int list_of(struct state *s, struct value *v, const struct spec *sp)
{
    return value_consp(v) ? pushed(s, v, sp, 1, R_CODE) : E_DONE;
}

/* Start element v in role r.  Dispatch switch of the module (one case per
 * role, ORDER: walk-roles). */
static int enter(struct state *s, struct value *v, enum role r,
                 const struct frame *parent, struct value **out)
{
    *out = v;
    switch (r) {
    case R_DATA: return E_DONE;
    case R_CODE: return enter_code(s, v, out);
    case R_FUNCTION:
        return head_is(v, "lambda") ? enter_code(s, v, out) : E_DONE;
    case R_BINDINGS: return list_of(s, v, &sp_list_bindings);
    case R_BINDING: return list_of(s, v, &sp_headed);
    case R_IFLET_BINDINGS: return enter_iflet(s, v);
    case R_IFLET_BINDING: return enter_iflet_binding(s, v);
    case R_CLAUSE: return list_of(s, v, &all_code);
    case R_HEADED: return list_of(s, v, &sp_headed);
    case R_FUNBINDINGS: return list_of(s, v, &sp_list_funbindings);
    case R_FUNBINDING:
        if (value_list_length(v, s->w->L->nil) == 2)
            return list_of(s, v, &sp_headed);
        return list_of(s, v, &sp_funbinding);
    case R_TEMPLATE:
        return enter_template(s, v, parent ? parent->level : 1,
                              parent ? parent->unq : R_CODE);
    case R_PATTERN: return enter_pattern(s, v);
    case R_PREDFUN: return enter_predfun(s, v, out);
    case R_PCASE_CLAUSE: return list_of(s, v, &sp_pat_body);
    case R_PCASE_BINDINGS: return list_of(s, v, &sp_list_pbindings);
    case R_PCASE_BINDING: return list_of(s, v, &sp_pat_body);
    case R_PATTERNS: return list_of(s, v, &sp_list_patterns);
    case R_CSTAR_CLAUSE: return list_of(s, v, &sp_cstar_clause);
    case R_CSTAR_COND: return enter_cstar_cond(s, v, out);
    case R_DECLARE: return enter_declare(s, v);
    case R_CL_ARGS: return list_of(s, v, &sp_list_cl_args);
    case R_CL_ARG: return list_of(s, v, &sp_cl_arg);
    case R_CL_LAMBDA:
        return head_is(v, "lambda") ? list_of(s, v, &sp_cl_lambda) : enter_code(s, v, out);
    }
    return E_DONE;
}

/* ---- the main loop ---- */

/* The next element of the top frame, or NULL when it is exhausted.  Sets
 * *role; flags a dotted `. ,X` tail of a template. */
static struct value *next_element(struct state *s, struct frame *f,
                                  enum role *role)
{
    if (f->vector) {
        if (f->index >= f->orig->u.vec.n)
            return NULL;
        *role = role_at(f);
        return f->orig->u.vec.items[f->index];
    }
    if (f->done_tail || !value_consp(f->cur))
        return NULL;
    if (spine_loops(f)) {
        s->w->circular = true;
        return NULL;
    }
    *role = role_at(f);
    if (*role == R_TEMPLATE && f->index > 0 &&
        unquote_sym(s->w->L, value_car(f->cur))) {
        f->at_tail = true;
        return f->cur;
    }
    return value_car(f->cur);
}

/* The walk stops early: leave the open scopes, innermost first. */
static struct value *stop(struct state *s)
{
    while (s->n > 0) {
        struct frame *f = &s->stack[--s->n];
        if (f->scope)
            s->w->leave(s->w, f->orig);
    }
    return NULL;
}

static struct value *too_deep(struct state *s, struct value *at)
{
    s->w->too_deep = true;
    s->w->deep_at = at;
    return stop(s);
}

/* Drive the frames until the stack is empty; e and r: how the root
 * element was entered.  `pending` says the top frame is waiting for the
 * result r of the element it handed out (an atom done at once, or a
 * child frame that just finished). */
static struct value *run(struct state *s, int e, struct value *r)
{
    size_t limit = s->w->max_depth ? s->w->max_depth : 100000;
    bool pending = false;
    while (s->n > 0) {
        struct frame *f = &s->stack[s->n - 1];
        if (e == E_DONE && pending)
            accept(s, f, r);
        enum role role = R_DATA;
        struct value *elem = next_element(s, f, &role);
        if (!elem && s->w->circular)
            return too_deep(s, f->orig);
        if (!elem) {
            r = finish(s, f);
            if (f->scope)
                s->w->leave(s->w, f->orig);
            s->n--;
            e = E_DONE;
            pending = true;
            continue;
        }
        e = enter(s, elem, role, f, &r);
        pending = true;
        if (e == E_ABORT)
            return stop(s);
        if (e == E_PUSHED) {
            pending = false;
            if (s->n > limit)
                return too_deep(s, elem);
        }
    }
    return r;
}

void walk_init(struct walker *w, struct lisp *L, walk_visit_fn visit, void *ctx)
{
    memset(w, 0, sizeof *w);
    w->L = L;
    w->visit = visit;
    w->ctx = ctx;
}

/* Start a walk with the walker's spare frame stack (a nested walk of the
 * same walker, started from a callback, finds none and grows its own). */
static void begin(struct state *s, struct walker *w)
{
    memset(s, 0, sizeof *s);
    s->w = w;
    s->stack = w->spare;
    s->cap = w->spare_cap;
    w->spare = NULL;
    w->spare_cap = 0;
    w->too_deep = w->circular = false;
}

/* Give the stack back for the next walk: arena memory is only freed with
 * the arena, so without this each top-level form would cost a stack. */
static struct value *end(struct state *s, struct value *r)
{
    if (s->cap > s->w->spare_cap) {
        s->w->spare = s->stack;
        s->w->spare_cap = s->cap;
    }
    return r;
}

struct value *walk_form(struct walker *w, struct value *form)
{
    struct state s;
    struct value *r = form;
    begin(&s, w);
    int e = enter(&s, form, R_CODE, NULL, &r);
    if (e == E_ABORT)
        return end(&s, NULL);
    return end(&s, run(&s, e == E_PUSHED ? E_PUSHED : E_DONE, r));
}

struct value *walk_body(struct walker *w, struct value *body)
{
    struct state s;
    static const struct spec sp_body = {{0}, 0, R_CODE, 0, 0};
    begin(&s, w);
    if (!value_consp(body))
        return end(&s, body);
    push(&s, body, &sp_body, 1, R_CODE);
    return end(&s, run(&s, E_PUSHED, body));
}
