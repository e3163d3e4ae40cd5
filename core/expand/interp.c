/* interp.c - evaluation, special forms and lambda lists of the evaluator.
 *
 * eval() dispatches on the head of a form: a special form of the sorted
 * table below, a built-in function (interp_lib.c), then a function or
 * macro of the host.  Lexical environments are alists of (VAR . VALUE)
 * cells made here (setq changes a cell the evaluator made, never a value
 * read from the input); closures are lists (closure ENV ARGS . BODY).
 * Every nested evaluation counts one level against INTERP_MAX_DEPTH, so
 * the recursion of eval, backquote and destructuring stays shallow.
 */
#include "expand/interp_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "lisp/print.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

void interp_budget_init(struct interp_budget *b)
{
    b->steps = INTERP_RUN_STEPS;
    b->bytes = INTERP_RUN_BYTES;
}

/* ---- values ---- */

bool interp_charge(struct interp_st *s, size_t bytes)
{
    struct interp_budget *b = s->h->budget;
    if (s->failed)
        return false;
    s->bytes += bytes;
    if (s->bytes > s->max_bytes)
        return interp_limit(s, "the evaluation made more than 64 MiB of values"), false;
    if (b && bytes > b->bytes)
        return interp_limit(s, "the evaluations of this input made more than 256 MiB of "
                               "values"), false;
    if (b)
        b->bytes -= bytes;
    return true;
}

struct value *interp_cons(struct interp_st *s, struct value *car, struct value *cdr)
{
    interp_charge(s, INTERP_VALUE_BYTES);
    return value_cons(s->L->a, car, cdr);
}

struct value *interp_int(struct interp_st *s, int64_t i)
{
    interp_charge(s, INTERP_VALUE_BYTES);
    return value_int(s->L->a, i);
}

struct value *interp_float(struct interp_st *s, double f)
{
    interp_charge(s, INTERP_VALUE_BYTES);
    return value_float(s->L->a, f);
}

struct value *interp_string(struct interp_st *s, const void *data, size_t len,
                            bool multibyte)
{
    interp_charge(s, INTERP_VALUE_BYTES + len);
    return value_string(s->L->a, data, len, multibyte);
}

struct value *interp_list(struct interp_st *s, struct value *const *v, size_t n)
{
    struct value *r = s->L->nil;
    for (size_t i = n; i-- > 0;)
        r = interp_cons(s, v[i], r);
    return r;
}

struct value *interp_bool(struct interp_st *s, bool b)
{
    return b ? s->L->t : s->L->nil;
}

struct value *interp_make_symbol(struct interp_st *s, const char *name, size_t len)
{
    interp_charge(s, INTERP_VALUE_BYTES + len);
    if (s->h->make_symbol)
        return s->h->make_symbol(s->h->ctx, name, len);
    return intern_uninterned(s->L, name, len);
}

bool interp_eq(const struct value *a, const struct value *b)
{
    return a == b || (a->kind == VK_INT && b->kind == VK_INT && a->u.i == b->u.i &&
                      value_fixnump(a));
}

struct value **interp_items(struct interp_st *s, struct value *v, size_t *n)
{
    long len = value_list_length(v, s->L->nil);
    if (len < 0)
        return interp_wrong_type(s, "listp", v), NULL;
    if (!interp_charge(s, (size_t)len * sizeof(struct value *)))
        return NULL;
    struct value **a = ARENA_NEWN(s->L->a, struct value *, len ? (size_t)len : 1);
    *n = 0;
    for (; value_consp(v); v = value_cdr(v))
        a[(*n)++] = value_car(v);
    return a;
}

/* ---- failures ---- */

/* Messages of the error symbols the evaluator signals (their
 * error-message property in Emacs); sorted. */
struct message_row {
    const char *symbol, *message;
};

static const struct message_row error_messages[] = {
    {"args-out-of-range", "Args out of range"},
    {"arith-error", "Arithmetic error"},
    {"invalid-function", "Invalid function"},
    {"invalid-regexp", "Invalid regexp"},
    {"overflow-error", "Arithmetic overflow error"},
    {"setting-constant", "Attempt to set a constant symbol"},
    {"wrong-number-of-arguments", "Wrong number of arguments"},
    {"wrong-type-argument", "Wrong type argument"},
};

static int message_cmp(const void *key, const void *row)
{
    return strcmp(key, *(const char *const *)row);
}

/* Emacs's error-message-string of (errsym . data). */
static const char *signal_message(struct interp_st *s, struct value *errsym,
                                  struct value *data)
{
    struct buf b;
    buf_init(&b, s->L->a);
    struct print_opts o = print_opts_default();
    bool plain = errsym == s->error || strcmp(errsym->u.sym.name, "user-error") == 0;
    const char *msg = NULL;
    if (plain && value_consp(data) && value_is(value_car(data), VK_STRING)) {
        const struct value_string *m = &value_car(data)->u.str;
        buf_put(&b, m->data, m->len);
        data = value_cdr(data);
    } else {
        const struct message_row *row =
            bsearch(errsym->u.sym.name, error_messages, NELEM(error_messages),
                    sizeof error_messages[0], message_cmp);
        msg = row ? row->message : "peculiar error";
        buf_puts(&b, msg);
    }
    for (const char *sep = ": "; value_consp(data); data = value_cdr(data), sep = ", ") {
        buf_puts(&b, sep);
        print_value(s->L, &b, value_car(data), &o);
    }
    return buf_cstr(&b);
}

struct value *interp_signal(struct interp_st *s, struct value *errsym, struct value *data)
{
    if (s->failed)
        return NULL;
    s->failed = true;
    s->res->status = INTERP_SIGNAL;
    s->res->signal = value_cons(s->L->a, errsym, data);
    s->res->message = signal_message(s, errsym, data);
    return NULL;
}

struct value *interp_signal_n(struct interp_st *s, const char *errname, size_t n, ...)
{
    struct value *v[4];
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n && i < NELEM(v); i++)
        v[i] = va_arg(ap, struct value *);
    va_end(ap);
    struct value *data = lisp_list(s->L, n < NELEM(v) ? n : NELEM(v), v);
    return interp_signal(s, intern_cstr(s->L, errname), data);
}

struct value *interp_wrong_type(struct interp_st *s, const char *pred, struct value *v)
{
    return interp_signal_n(s, "wrong-type-argument", 2, intern_cstr(s->L, pred), v);
}

struct value *interp_error(struct interp_st *s, const char *fmt, ...)
{
    struct buf b;
    va_list ap;
    buf_init(&b, s->L->a);
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    struct value *msg = value_string(s->L->a, b.data, b.len, false);
    return interp_signal(s, s->error, lisp_listv(s->L, msg, NULL));
}

struct value *interp_unknown(struct interp_st *s, struct value *what, bool variable)
{
    if (s->failed)
        return NULL;
    s->failed = true;
    s->res->status = INTERP_UNKNOWN;
    s->res->what = what;
    s->res->variable = variable;
    struct buf b;
    buf_init(&b, s->L->a);
    struct print_opts o = print_opts_default();
    buf_puts(&b, variable ? "variable " : "function ");
    print_value(s->L, &b, what, &o);
    s->res->message = buf_cstr(&b);
    return NULL;
}

struct value *interp_limit(struct interp_st *s, const char *message)
{
    if (s->failed)
        return NULL;
    s->failed = true;
    s->res->status = INTERP_LIMIT;
    s->res->message = message;
    return NULL;
}

bool interp_tick(struct interp_st *s)
{
    struct interp_budget *b = s->h->budget;
    if (s->failed)
        return false;
    if (++s->steps > s->max_steps) {
        interp_limit(s, "the evaluation took more than 1000000 steps");
        return false;
    }
    if (b) {
        if (b->steps == 0) {
            interp_limit(s, "the evaluations of this input took more than 20000000 steps");
            return false;
        }
        b->steps--;
    }
    return true;
}

/* ---- helpers of the forms ---- */

static struct value *eval(struct interp_st *s, struct value *form, struct value *env);
static struct value *progn(struct interp_st *s, struct value *body, struct value *env);

static bool enter(struct interp_st *s)
{
    if (s->failed)
        return false;
    if (s->depth >= INTERP_MAX_DEPTH) {
        interp_limit(s, "the evaluation nested more than 500 levels deep");
        return false;
    }
    s->depth++;
    return true;
}

static bool symbolp(const struct value *v)
{
    return v->kind == VK_SYMBOL;
}

static bool keywordp(const struct value *v)
{
    return symbolp(v) && v->u.sym.interned && v->u.sym.name[0] == ':';
}

/* Constants: nil, t and keywords evaluate to themselves and cannot be
 * bound. */
static bool constant_symbol(struct interp_st *s, const struct value *v)
{
    return v == s->L->nil || v == s->L->t || keywordp(v);
}

/* The nth argument form of a special form's arguments (nil past the end). */
static struct value *arg(struct interp_st *s, struct value *args, size_t n)
{
    for (; n > 0 && value_consp(args); n--)
        args = value_cdr(args);
    return value_consp(args) ? value_car(args) : s->L->nil;
}

static struct value *rest(struct interp_st *s, struct value *args, size_t n)
{
    for (; n > 0 && value_consp(args); n--)
        args = value_cdr(args);
    return value_consp(args) ? args : s->L->nil;
}

/* The (VAR . VALUE) cell of var in env, or NULL. */
static struct value *cell(struct value *env, const struct value *var)
{
    for (; value_consp(env); env = value_cdr(env)) {
        struct value *c = value_car(env);
        if (value_consp(c) && value_car(c) == var)
            return c;
    }
    return NULL;
}

static struct value *bind(struct interp_st *s, struct value *env, struct value *var,
                          struct value *val)
{
    return interp_cons(s, interp_cons(s, var, val), env);
}

/* Built-in constants (Emacs 30.1's values); sorted. */
struct constant_row {
    const char *name;
    long value;
};

static const struct constant_row constants[] = {
    {"emacs-major-version", 30},
    {"emacs-minor-version", 1},
    {"most-negative-fixnum", -2305843009213693951L - 1},
    {"most-positive-fixnum", 2305843009213693951L},
};

static int constant_cmp(const void *key, const void *row)
{
    return strcmp(key, *(const char *const *)row);
}

static const struct constant_row *constant_row(const struct value *sym)
{
    if (!sym->u.sym.interned)
        return NULL;
    return bsearch(sym->u.sym.name, constants, NELEM(constants), sizeof constants[0],
                   constant_cmp);
}

/* The cell of var's binding: lexical (env), then dynamic, then the
 * global values this evaluation set; NULL when none. */
static struct value *binding(struct interp_st *s, struct value *env, const struct value *var)
{
    struct value *c = cell(env, var);
    if (!c)
        c = cell(s->dyn, var);
    return c ? c : cell(s->globals, var);
}

/* The global value of sym before this evaluation: a constant, the
 * default of case-fold-search (t), a defvar of the host; NULL. */
static struct value *global_value(struct interp_st *s, struct value *sym)
{
    const struct constant_row *row = constant_row(sym);
    if (row)
        return interp_int(s, row->value);
    if (sym->u.sym.interned && strcmp(sym->u.sym.name, "emacs-version") == 0)
        return interp_string(s, "30.1", 4, false);
    if (sym == s->case_fold)
        return s->L->t;
    struct value *out;
    if (s->h->variable && s->h->variable(s->h->ctx, sym, &out))
        return out;
    return NULL;
}

/* Is var special (let binds it dynamically, setq may set it
 * globally)?  The built-in variables and the host's defvars. */
static bool special(struct interp_st *s, struct value *var)
{
    if (!symbolp(var) || !var->u.sym.interned)
        return false;
    if (var == s->case_fold || constant_row(var))
        return true;
    if (s->h->special)
        return s->h->special(s->h->ctx, var);
    struct value *out;
    return s->h->variable && s->h->variable(s->h->ctx, var, &out);
}

struct value *interp_global(struct interp_st *s, struct value *sym)
{
    struct value *c = binding(s, s->L->nil, sym);
    if (c)
        return value_cdr(c);
    struct value *v = global_value(s, sym);
    return v ? v : interp_unknown(s, sym, true);
}

static struct value *variable(struct interp_st *s, struct value *sym, struct value *env)
{
    if (constant_symbol(s, sym))
        return sym;
    struct value *c = binding(s, env, sym);
    if (c)
        return value_cdr(c);
    struct value *v = global_value(s, sym);
    return v ? v : interp_unknown(s, sym, true);
}

/* ---- lambda lists ---- */

struct binder {
    struct value **a; /* the arguments */
    size_t n, i;      /* how many, the next one */
    struct value *env;
    struct value *fname;
    bool cl;          /* a cl lambda list: sub-lists destructure */
};

static struct value *arity_error(struct interp_st *s, struct binder *b)
{
    return interp_signal_n(s, "wrong-number-of-arguments", 2, b->fname,
                           interp_int(s, (int64_t)b->n));
}

static bool bind_var(struct interp_st *s, struct binder *b, struct value *var,
                     struct value *val);

/* A destructuring sub-list (cl lambda lists) bound to the value val. */
static bool destructure(struct interp_st *s, struct binder *b, struct value *params,
                        struct value *val, bool cl);

static bool bind_var(struct interp_st *s, struct binder *b, struct value *var,
                     struct value *val)
{
    if (value_consp(var) && b->cl)
        return destructure(s, b, var, val, true);
    if (!symbolp(var) || constant_symbol(s, var)) {
        interp_signal_n(s, "invalid-function", 1, var);
        return false;
    }
    if (special(s, var)) /* until apply_lambda returns */
        s->dyn = bind(s, s->dyn, var, val);
    else
        b->env = bind(s, b->env, var, val);
    return !s->failed;
}

enum lmode { L_REQ, L_OPT, L_REST, L_KEY, L_AUX, L_DONE };

/* The value of a &key argument key in the arguments from index from. */
static struct value *key_value(struct binder *b, size_t from, const struct value *key,
                               bool *found)
{
    for (size_t i = from; i + 1 < b->n; i += 2)
        if (b->a[i] == key) {
            *found = true;
            return b->a[i + 1];
        }
    *found = false;
    return NULL;
}

/* (VAR [DEFAULT [SVAR]]) of &optional / &key; *key gets the keyword of a
 * &key spec ((KEYWORD VAR) DEFAULT SVAR) or :VAR. */
static bool parse_spec(struct interp_st *s, struct value *p, bool is_key, struct value **var,
                       struct value **def, struct value **svar, struct value **key)
{
    *def = s->L->nil;
    *svar = NULL;
    *var = p;
    if (value_consp(p)) {
        *var = value_car(p);
        *def = arg(s, p, 1);
        struct value *sv = arg(s, p, 2);
        *svar = interp_nilp(s, sv) ? NULL : sv;
    }
    if (!is_key)
        return true;
    if (value_consp(*var)) { /* ((KEYWORD VAR) ...) */
        *key = value_car(*var);
        *var = arg(s, *var, 1);
        return true;
    }
    if (!symbolp(*var))
        return false;
    struct buf nb;
    buf_init(&nb, s->L->a);
    buf_putc(&nb, ':');
    buf_put(&nb, (*var)->u.sym.name, (*var)->u.sym.len);
    *key = intern_symbol(s->L, nb.data, nb.len);
    return true;
}

/* One parameter spec in mode m; rest_from: where &rest/&key values start. */
static bool bind_one(struct interp_st *s, struct binder *b, struct value *p, enum lmode m,
                     size_t rest_from)
{
    struct value *var, *def, *svar, *key = NULL;
    bool found = false;
    struct value *val;
    switch (m) {
    case L_REQ:
        if (b->i >= b->n)
            return arity_error(s, b), false;
        return bind_var(s, b, p, b->a[b->i++]);
    case L_OPT:
    case L_KEY:
        if ((!b->cl && value_consp(p)) || !parse_spec(s, p, m == L_KEY, &var, &def, &svar, &key))
            return interp_signal_n(s, "invalid-function", 1, p), false;
        if (m == L_OPT) {
            found = b->i < b->n;
            val = found ? b->a[b->i++] : NULL;
        } else {
            val = key_value(b, rest_from, key, &found);
        }
        if (!found && !(val = eval(s, def, b->env)))
            return false;
        return bind_var(s, b, var, val) &&
               (!svar || bind_var(s, b, svar, interp_bool(s, found)));
    case L_AUX:
        if (!parse_spec(s, p, false, &var, &def, &svar, &key) ||
            !(val = eval(s, def, b->env)))
            return false;
        return bind_var(s, b, var, val);
    default:
        return false;
    }
}

/* Check &key arguments against the keys of the specs (unless
 * &allow-other-keys or :allow-other-keys t). */
static bool check_keys(struct interp_st *s, struct binder *b, struct value **keys,
                       size_t n_keys, size_t from)
{
    if ((b->n - from) % 2 != 0)
        return interp_error(s, "Odd number of keyword arguments"), false;
    for (size_t i = from; i < b->n; i += 2) {
        if (strcmp(symbolp(b->a[i]) ? b->a[i]->u.sym.name : "", ":allow-other-keys") == 0)
            return true;
        bool known = false;
        for (size_t k = 0; k < n_keys && !known; k++)
            known = keys[k] == b->a[i];
        if (!known)
            return interp_error(s, "Keyword argument %s not one of the keys",
                                symbolp(b->a[i]) ? b->a[i]->u.sym.name : "?"),
                   false;
    }
    return true;
}

/* What a lambda list has said before its end. */
struct lambda_seen {
    bool has_key, allow;  /* &key, &allow-other-keys */
    struct value **keys;  /* the keywords of the &key specs */
    size_t n_keys;
    size_t rest_from;     /* where &rest / &key arguments start */
};

/* The end of a lambda list at p: a dotted rest variable (cl), the check
 * of &key arguments (unless &allow-other-keys), the count. */
static bool finish_params(struct interp_st *s, struct binder *b, struct value *p, bool cl,
                          struct lambda_seen *seen)
{
    size_t rest_from = seen->rest_from;
    if (cl && !interp_nilp(s, p)) { /* dotted: (a b . rest) */
        struct value *r = interp_list(s, b->a + b->i, b->n - b->i);
        rest_from = b->i;
        b->i = b->n;
        if (!bind_var(s, b, p, r))
            return false;
    }
    if (seen->has_key) {
        b->i = b->n;
        if (!seen->allow && !check_keys(s, b, seen->keys, seen->n_keys, rest_from))
            return false;
    }
    return b->i >= b->n || (arity_error(s, b), false);
}

/* Bind the lambda list params to b's arguments, extending b->env. */
static bool bind_params(struct interp_st *s, struct binder *b, struct value *params, bool cl)
{
    enum lmode m = L_REQ;
    size_t rest_from = 0;
    bool allow = false, has_key = false;
    struct value *keys[64];
    size_t n_keys = 0;
    struct value *p = params;
    for (; value_consp(p) && !s->failed; p = value_cdr(p)) {
        struct value *e = value_car(p);
        if (e == s->optional && m < L_OPT) {
            m = L_OPT;
        } else if ((e == s->rest || (cl && e == s->body)) && m < L_REST) {
            m = L_REST;
        } else if (cl && e == s->key && m < L_KEY) {
            m = L_KEY;
            has_key = true;
            rest_from = b->i;
        } else if (cl && e == s->allow) {
            allow = true;
        } else if (cl && e == s->aux) {
            m = L_AUX;
        } else if (cl && (e == s->whole || e == s->environment)) {
            p = value_cdr(p); /* its variable: the call itself is not kept */
            if (!value_consp(p) || !bind_var(s, b, value_car(p), s->L->nil))
                return false;
        } else if (m == L_REST) {
            struct value *r = interp_list(s, b->a + b->i, b->n - b->i);
            rest_from = b->i;
            b->i = b->n;
            if (!bind_var(s, b, e, r))
                return false;
            m = L_DONE;
        } else if (m == L_DONE) {
            return interp_signal_n(s, "invalid-function", 1, params), false;
        } else {
            if (m == L_KEY) {
                struct value *var, *def, *svar, *key = NULL;
                if (parse_spec(s, e, true, &var, &def, &svar, &key) && n_keys < NELEM(keys))
                    keys[n_keys++] = key;
            }
            if (!bind_one(s, b, e, m, rest_from))
                return false;
        }
    }
    struct lambda_seen seen = {has_key, allow, keys, n_keys, rest_from};
    return !s->failed && finish_params(s, b, p, cl, &seen);
}

static bool destructure(struct interp_st *s, struct binder *b, struct value *params,
                        struct value *val, bool cl)
{
    if (!enter(s))
        return false;
    size_t n = 0;
    struct value **a;
    if (!interp_nilp(s, val) && !value_consp(val)) { /* (a b . c) against an atom */
        a = NULL;
        interp_wrong_type(s, "listp", val);
    } else {
        a = interp_items(s, val, &n);
    }
    bool ok = false;
    if (a) {
        struct binder sub = {a, n, 0, b->env, b->fname, cl};
        ok = bind_params(s, &sub, params, cl);
        b->env = sub.env;
    }
    s->depth--;
    return ok;
}

/* ---- calling ---- */

/* Apply a lambda list and body in the lexical environment env. */
static struct value *apply_lambda(struct interp_st *s, struct value *name, struct value *params,
                                  struct value *body, struct value *env, bool cl,
                                  struct value **a, size_t n)
{
    if (!enter(s))
        return NULL;
    struct binder b = {a, n, 0, env, name, cl};
    struct value *dyn = s->dyn;
    struct value *r = bind_params(s, &b, params, cl) ? progn(s, body, b.env) : NULL;
    s->dyn = dyn;
    s->depth--;
    return r;
}

static struct value *apply_fn(struct interp_st *s, const struct interp_fn *fn,
                              struct value **a, size_t n)
{
    if (fn->alias)
        return interp_funcall(s, fn->alias, a, n);
    return apply_lambda(s, fn->name, fn->args, fn->body, fn->env, fn->cl, a, n);
}

/* A closure (closure ENV ARGS . BODY) or a lambda (lambda ARGS . BODY)? */
static bool function_list(struct interp_st *s, struct value *f, struct value **env,
                          struct value **params, struct value **body)
{
    if (!value_consp(f) || !value_consp(value_cdr(f)))
        return false;
    if (value_car(f) == s->closure) {
        *env = arg(s, f, 1);
        *params = arg(s, f, 2);
        *body = rest(s, f, 3);
        return value_consp(value_cdr(value_cdr(f)));
    }
    if (value_car(f) == s->L->lambda) {
        *env = s->L->nil;
        *params = arg(s, f, 1);
        *body = rest(s, f, 2);
        return true;
    }
    return false;
}

static const struct interp_fn *host_function(struct interp_st *s, struct value *sym)
{
    return s->h->function && sym->u.sym.interned ? s->h->function(s->h->ctx, sym) : NULL;
}

typedef struct value *special_fn(struct interp_st *s, struct value *args, struct value *env);
static const struct special_row *find_special(const struct value *sym);

struct value *interp_funcall(struct interp_st *s, struct value *fn, struct value **a, size_t n)
{
    if (s->failed)
        return NULL;
    struct value *env, *params, *body;
    if (symbolp(fn) && !interp_nilp(s, fn)) {
        const struct interp_row *row = fn->u.sym.interned ? interp_lib_find(fn->u.sym.name)
                                                          : NULL;
        if (row) {
            if ((long)n < row->min || (row->max >= 0 && (long)n > row->max))
                return interp_signal_n(s, "wrong-number-of-arguments", 2, fn,
                                       interp_int(s, (int64_t)n));
            struct value *r = row->fn(s, a, n);
            return s->failed ? NULL : r;
        }
        if (find_special(fn))
            return interp_signal_n(s, "invalid-function", 1, fn);
        const struct interp_fn *f = host_function(s, fn);
        if (!f)
            return interp_unknown(s, fn, false);
        if (f->macro)
            return interp_signal_n(s, "invalid-function", 1, fn);
        return apply_fn(s, f, a, n);
    }
    if (function_list(s, fn, &env, &params, &body))
        return apply_lambda(s, s->L->lambda, params, body, env, false, a, n);
    return interp_signal_n(s, "invalid-function", 1, fn);
}

/* Evaluate the argument forms of a call into an array. */
static struct value **eval_args(struct interp_st *s, struct value *forms, struct value *env,
                                size_t *n)
{
    struct value **a = interp_items(s, forms, n);
    if (!a)
        return NULL;
    for (size_t i = 0; i < *n; i++)
        if (!(a[i] = eval(s, a[i], env)))
            return NULL;
    return a;
}

/* ---- macro calls, expanded once ---- */

/* The slot of form in the table of expansions.  Emacs expands the macro
 * calls of a function once, when it is defined (eagerly, or by the byte
 * compiler), not at each call: a call form met again (the same cons, in
 * a body run again) reuses its expansion, which also keeps what a macro
 * computes from global state (a counter of generated names) as Emacs
 * has it.  The table is only looked up, never walked: what it gives does
 * not depend on where the forms are in memory. */
static size_t mx_slot(const struct interp_st *s, const struct value *form)
{
    size_t h = (size_t)(((uintptr_t)form >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 16);
    size_t j = h & (s->mx_cap - 1);
    while (s->mx_form[j] && s->mx_form[j] != form)
        j = (j + 1) & (s->mx_cap - 1);
    return j;
}

static struct value *mx_find(const struct interp_st *s, const struct value *form)
{
    return s->mx_cap ? s->mx_expansion[mx_slot(s, form)] : NULL;
}

static void mx_add(struct interp_st *s, struct value *form, struct value *expansion)
{
    if ((s->mx_n + 1) * 2 > s->mx_cap) {
        size_t cap = s->mx_cap ? s->mx_cap * 2 : 64;
        if (!interp_charge(s, 2 * cap * sizeof *s->mx_form))
            return;
        struct value **oldf = s->mx_form, **olde = s->mx_expansion;
        size_t oldcap = s->mx_cap;
        s->mx_form = arena_zalloc(s->L->a, cap * sizeof *s->mx_form);
        s->mx_expansion = arena_zalloc(s->L->a, cap * sizeof *s->mx_expansion);
        s->mx_cap = cap;
        for (size_t i = 0; i < oldcap; i++)
            if (oldf[i]) {
                size_t j = mx_slot(s, oldf[i]);
                s->mx_form[j] = oldf[i];
                s->mx_expansion[j] = olde[i];
            }
    }
    size_t j = mx_slot(s, form);
    s->mx_form[j] = form;
    s->mx_expansion[j] = expansion;
    s->mx_n++;
}

/* The expansion of form, a call of the macro f with the argument forms
 * args. */
static struct value *expand_call(struct interp_st *s, const struct interp_fn *f,
                                 struct value *form, struct value *args)
{
    struct value *expansion = mx_find(s, form);
    if (expansion)
        return expansion;
    size_t n;
    struct value **a = interp_items(s, args, &n);
    expansion = a ? apply_fn(s, f, a, n) : NULL;
    if (expansion)
        mx_add(s, form, expansion);
    return expansion;
}

/* A call: of a macro of the host (expanded, then evaluated), else of a
 * function.  A head the evaluator does not have is named before the
 * arguments are evaluated: it may be a macro whose arguments are not
 * code (cl-flet, cl-loop). */
static struct value *call(struct interp_st *s, struct value *form, struct value *env)
{
    struct value *head = value_car(form), *args = value_cdr(form);
    size_t n;
    if (symbolp(head) && head->u.sym.interned && !interp_lib_find(head->u.sym.name)) {
        const struct interp_fn *f = host_function(s, head);
        if (!f)
            return interp_unknown(s, head, false);
        if (f->macro) {
            struct value *expansion = expand_call(s, f, form, args);
            return expansion ? eval(s, expansion, env) : NULL;
        }
    }
    struct value **a = eval_args(s, args, env, &n);
    return a ? interp_funcall(s, head, a, n) : NULL;
}

/* ---- backquote ---- */

static struct value *bq(struct interp_st *s, struct value *t, int level, struct value *env);

/* (\` X), (\, X) or (\,@ X): which, else NULL. */
static struct value *bq_head(struct interp_st *s, const struct value *v)
{
    if (!value_consp(v) || !value_consp(value_cdr(v)) || !interp_nilp(s, value_cdr(value_cdr(v))))
        return NULL;
    struct value *h = value_car(v);
    return h == s->L->backquote || h == s->L->comma || h == s->L->comma_at ? h : NULL;
}

/* The elements of a list template, a splice spliced (copied, but for a
 * last splice, which is shared as append shares its last argument). */
static struct value *bq_list(struct interp_st *s, struct value *t, int level,
                             struct value *env)
{
    struct value *head = s->L->nil, **tail = &head, *p = t;
    for (; value_consp(p) && !s->failed; p = value_cdr(p)) {
        if (p != t && bq_head(s, p)) /* (a . ,b) reads as (a \, b) */
            break;
        struct value *e = value_car(p);
        if (level == 1 && bq_head(s, e) == s->L->comma_at) {
            struct value *v = eval(s, value_car(value_cdr(e)), env);
            if (!v)
                return NULL;
            if (interp_nilp(s, value_cdr(p))) {
                *tail = v;
                return head;
            }
            size_t n;
            struct value **items = interp_items(s, v, &n);
            if (!items)
                return NULL;
            for (size_t i = 0; i < n; i++) {
                *tail = interp_cons(s, items[i], s->L->nil);
                tail = &(*tail)->u.cons.cdr;
            }
            continue;
        }
        struct value *v = bq(s, e, level, env);
        if (!v)
            return NULL;
        *tail = interp_cons(s, v, s->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    if (s->failed)
        return NULL;
    if (level == 1 && bq_head(s, p) == s->L->comma_at)
        return interp_error(s, ",@ after .");
    if (!interp_nilp(s, p) && !(*tail = bq(s, p, level, env)))
        return NULL;
    return head;
}

static struct value *bq_vector(struct interp_st *s, struct value *t, int level,
                               struct value *env)
{
    struct value *l = bq_list(s, interp_list(s, t->u.vec.items, t->u.vec.n), level, env);
    size_t n;
    struct value **items = l ? interp_items(s, l, &n) : NULL;
    if (!items || !interp_charge(s, INTERP_VALUE_BYTES + n * sizeof(struct value *)))
        return NULL;
    struct value *v = value_vector(s->L->a, VK_VECTOR, n);
    memcpy(v->u.vec.items, items, n * sizeof *items);
    return v;
}

static struct value *bq(struct interp_st *s, struct value *t, int level, struct value *env)
{
    if (t->kind != VK_VECTOR && !value_consp(t))
        return t;
    if (!enter(s))
        return NULL;
    struct value *h = t->kind == VK_VECTOR ? NULL : bq_head(s, t), *r;
    if (t->kind == VK_VECTOR)
        r = bq_vector(s, t, level, env);
    else if (h == s->L->backquote)
        r = interp_list(s, (struct value *[]){h, bq(s, value_car(value_cdr(t)), level + 1, env)},
                        2);
    else if (h && level > 1)
        r = interp_list(s, (struct value *[]){h, bq(s, value_car(value_cdr(t)), level - 1, env)},
                        2);
    else if (h == s->L->comma)
        r = eval(s, value_car(value_cdr(t)), env);
    else if (h)
        r = interp_error(s, ",@ after `");
    else
        r = bq_list(s, t, level, env);
    s->depth--;
    return s->failed ? NULL : r;
}

/* ---- special forms ---- */

static struct value *progn(struct interp_st *s, struct value *body, struct value *env)
{
    struct value *r = s->L->nil;
    for (; value_consp(body); body = value_cdr(body))
        if (!(r = eval(s, value_car(body), env)))
            return NULL;
    return r;
}

static struct value *sf_quote(struct interp_st *s, struct value *args, struct value *env)
{
    (void)env;
    return arg(s, args, 0);
}

static struct value *sf_function(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *f = arg(s, args, 0);
    if (value_consp(f) && value_car(f) == s->L->lambda)
        return interp_cons(s, s->closure, interp_cons(s, env, value_cdr(f)));
    return f;
}

static struct value *sf_lambda(struct interp_st *s, struct value *args, struct value *env)
{
    return interp_cons(s, s->closure, interp_cons(s, env, args));
}

static struct value *sf_backquote(struct interp_st *s, struct value *args, struct value *env)
{
    return bq(s, arg(s, args, 0), 1, env);
}

static struct value *sf_progn(struct interp_st *s, struct value *args, struct value *env)
{
    return progn(s, args, env);
}

static struct value *sf_nil(struct interp_st *s, struct value *args, struct value *env)
{
    (void)args;
    (void)env;
    return s->L->nil;
}

static struct value *sf_save_match_data(struct interp_st *s, struct value *args,
                                        struct value *env)
{
    return interp_save_match_data(s, args, env, progn);
}

static struct value *sf_prog1(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *r = eval(s, arg(s, args, 0), env);
    return r && progn(s, rest(s, args, 1), env) ? r : NULL;
}

static struct value *sf_prog2(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *r;
    return eval(s, arg(s, args, 0), env) && (r = eval(s, arg(s, args, 1), env)) &&
                   progn(s, rest(s, args, 2), env)
               ? r
               : NULL;
}

static struct value *sf_if(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *c = eval(s, arg(s, args, 0), env);
    if (!c)
        return NULL;
    return !interp_nilp(s, c) ? eval(s, arg(s, args, 1), env) : progn(s, rest(s, args, 2), env);
}

static struct value *sf_when(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *c = eval(s, arg(s, args, 0), env);
    return !c ? NULL : interp_nilp(s, c) ? c : progn(s, rest(s, args, 1), env);
}

static struct value *sf_unless(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *c = eval(s, arg(s, args, 0), env);
    return !c ? NULL : !interp_nilp(s, c) ? s->L->nil : progn(s, rest(s, args, 1), env);
}

static struct value *sf_cond(struct interp_st *s, struct value *args, struct value *env)
{
    for (; value_consp(args); args = value_cdr(args)) {
        struct value *clause = value_car(args);
        if (!value_consp(clause))
            return interp_wrong_type(s, "listp", clause);
        struct value *c = eval(s, value_car(clause), env);
        if (!c)
            return NULL;
        if (!interp_nilp(s, c))
            return interp_nilp(s, value_cdr(clause)) ? c : progn(s, value_cdr(clause), env);
    }
    return s->L->nil;
}

static struct value *sf_and(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *r = s->L->t;
    for (; value_consp(args); args = value_cdr(args))
        if (!(r = eval(s, value_car(args), env)) || interp_nilp(s, r))
            return r;
    return r;
}

static struct value *sf_or(struct interp_st *s, struct value *args, struct value *env)
{
    for (; value_consp(args); args = value_cdr(args)) {
        struct value *r = eval(s, value_car(args), env);
        if (!r || !interp_nilp(s, r))
            return r;
    }
    return s->L->nil;
}

/* One binding of let: VAR, (VAR) or (VAR VALUE); *val evaluated in env. */
static bool let_binding(struct interp_st *s, struct value *b, struct value *env,
                        struct value **var, struct value **val)
{
    *var = value_consp(b) ? value_car(b) : b;
    *val = s->L->nil;
    if (!symbolp(*var) || constant_symbol(s, *var))
        return interp_signal_n(s, "setting-constant", 1, *var), false;
    return !value_consp(b) || (*val = eval(s, arg(s, b, 1), env)) != NULL;
}

/* let binds a special variable dynamically, for the time of its body,
 * every other lexically; all values are computed first. */
static struct value *sf_let(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *bindings = arg(s, args, 0), *inner = env, *saved = s->dyn, *dyn = s->dyn;
    for (; value_consp(bindings); bindings = value_cdr(bindings)) {
        struct value *var, *val;
        if (!let_binding(s, value_car(bindings), env, &var, &val))
            return NULL;
        if (special(s, var))
            dyn = bind(s, dyn, var, val);
        else
            inner = bind(s, inner, var, val);
    }
    s->dyn = dyn;
    struct value *r = progn(s, rest(s, args, 1), inner);
    s->dyn = saved;
    return r;
}

static struct value *sf_let_star(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *bindings = arg(s, args, 0), *saved = s->dyn;
    for (; value_consp(bindings); bindings = value_cdr(bindings)) {
        struct value *var, *val;
        if (!let_binding(s, value_car(bindings), env, &var, &val)) {
            s->dyn = saved;
            return NULL;
        }
        if (special(s, var))
            s->dyn = bind(s, s->dyn, var, val);
        else
            env = bind(s, env, var, val);
    }
    struct value *r = progn(s, rest(s, args, 1), env);
    s->dyn = saved;
    return r;
}

/* Set var to val where it is bound: lexically, dynamically, else (a
 * special variable) its global value, until the evaluation ends.  Any
 * other free variable is refused. */
static struct value *set_var(struct interp_st *s, struct value *var, struct value *val,
                             struct value *env)
{
    if (!symbolp(var) || constant_symbol(s, var))
        return interp_signal_n(s, "setting-constant", 1, var);
    struct value *c = binding(s, env, var);
    if (!c) {
        if (!special(s, var))
            return interp_unknown(s, var, true);
        s->globals = bind(s, s->globals, var, val);
        return s->failed ? NULL : val;
    }
    c->u.cons.cdr = val;
    return val;
}

static struct value *sf_setq(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *r = s->L->nil;
    for (; value_consp(args); args = value_cdr(value_cdr(args))) {
        if (!value_consp(value_cdr(args)))
            return interp_signal_n(s, "wrong-number-of-arguments", 2, intern_cstr(s->L, "setq"),
                                   interp_int(s, 1));
        if (!(r = eval(s, arg(s, args, 1), env)) || !set_var(s, value_car(args), r, env))
            return NULL;
    }
    return r;
}

/* (setf PLACE VALUE...) of variables: setq (other places are refused). */
static struct value *sf_setf(struct interp_st *s, struct value *args, struct value *env)
{
    for (struct value *p = args; value_consp(p); p = value_cdr(value_cdr(p)))
        if (!symbolp(value_car(p)))
            return interp_unknown(s, intern_cstr(s->L, "setf"), false);
    return sf_setq(s, args, env);
}

/* (with-case-table ascii-case-table BODY...): the body.  The evaluator's
 * case conversions are ASCII's (other characters are refused), which is
 * what the ASCII case table gives; any other table is refused. */
static struct value *sf_with_case_table(struct interp_st *s, struct value *args,
                                        struct value *env)
{
    struct value *table = arg(s, args, 0);
    if (!symbolp(table) || !table->u.sym.interned ||
        strcmp(table->u.sym.name, "ascii-case-table") != 0)
        return interp_unknown(s, intern_cstr(s->L, "with-case-table"), false);
    return progn(s, rest(s, args, 1), env);
}

static struct value *sf_while(struct interp_st *s, struct value *args, struct value *env)
{
    for (;;) {
        struct value *c = eval(s, arg(s, args, 0), env);
        if (!c)
            return NULL;
        if (interp_nilp(s, c))
            return c;
        if (!progn(s, rest(s, args, 1), env) || !interp_tick(s))
            return NULL;
    }
}

/* dolist and dotimes bind their variable afresh at each turn, as their
 * Emacs 30 expansions do (a closure made in the body keeps its turn's
 * value); the result form sees the variable bound to nil (dolist) or to
 * the count (dotimes). */
static struct value *sf_dolist(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *spec = arg(s, args, 0), *var = arg(s, spec, 0);
    struct value *list = eval(s, arg(s, spec, 1), env);
    if (!list)
        return NULL;
    if (!symbolp(var))
        return interp_wrong_type(s, "symbolp", var);
    for (; value_consp(list); list = value_cdr(list))
        if (!progn(s, rest(s, args, 1), bind(s, env, var, value_car(list))) || !interp_tick(s))
            return NULL;
    if (!interp_nilp(s, list))
        return interp_wrong_type(s, "listp", list);
    return eval(s, arg(s, spec, 2), bind(s, env, var, s->L->nil));
}

static struct value *sf_dotimes(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *spec = arg(s, args, 0), *var = arg(s, spec, 0);
    struct value *count = eval(s, arg(s, spec, 1), env);
    if (!count)
        return NULL;
    if (count->kind != VK_INT)
        return interp_wrong_type(s, "integerp", count);
    if (!symbolp(var))
        return interp_wrong_type(s, "symbolp", var);
    for (int64_t i = 0; i < count->u.i; i++)
        if (!progn(s, rest(s, args, 1), bind(s, env, var, interp_int(s, i))) ||
            !interp_tick(s))
            return NULL;
    struct value *end = interp_int(s, count->u.i > 0 ? count->u.i : 0);
    return eval(s, arg(s, spec, 2), bind(s, env, var, end));
}

static struct value *sf_push(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *v = eval(s, arg(s, args, 0), env), *place = arg(s, args, 1);
    if (!v)
        return NULL;
    if (!symbolp(place))
        return interp_unknown(s, intern_cstr(s->L, "push"), false);
    struct value *old = variable(s, place, env);
    return old ? set_var(s, place, interp_cons(s, v, old), env) : NULL;
}

static struct value *sf_pop(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *place = arg(s, args, 0);
    if (!symbolp(place))
        return interp_unknown(s, intern_cstr(s->L, "pop"), false);
    struct value *old = variable(s, place, env);
    if (!old)
        return NULL;
    if (interp_nilp(s, old))
        return old;
    if (!value_consp(old))
        return interp_wrong_type(s, "listp", old);
    return set_var(s, place, value_cdr(old), env) ? value_car(old) : NULL;
}

/* (cl-incf PLACE [N]) / (cl-decf ...) on a variable. */
static struct value *step_var(struct interp_st *s, struct value *args, struct value *env,
                              int sign)
{
    struct value *place = arg(s, args, 0), *by = s->L->nil;
    if (!symbolp(place))
        return interp_unknown(s, intern_cstr(s->L, sign > 0 ? "cl-incf" : "cl-decf"), false);
    struct value *old = variable(s, place, env);
    if (!old || (value_consp(rest(s, args, 1)) && !(by = eval(s, arg(s, args, 1), env))))
        return NULL;
    struct value *a[2] = {old, interp_nilp(s, by) ? interp_int(s, 1) : by};
    struct value *r = interp_funcall(s, intern_cstr(s->L, sign > 0 ? "+" : "-"), a, 2);
    return r ? set_var(s, place, r, env) : NULL;
}

static struct value *sf_incf(struct interp_st *s, struct value *args, struct value *env)
{
    return step_var(s, args, env, 1);
}

static struct value *sf_decf(struct interp_st *s, struct value *args, struct value *env)
{
    return step_var(s, args, env, -1);
}

/* The bindings of if-let*, when-let* and and-let*: each (VAR VALUE), (VALUE)
 * or SYMBOL; false in *ok when one is nil.  The old single binding
 * (VAR VALUE) of if-let is accepted too. */
static struct value *let_star_and(struct interp_st *s, struct value *spec, struct value *env,
                                  bool *ok, struct value **last)
{
    if (value_consp(spec) && symbolp(value_car(spec)) && value_consp(value_cdr(spec)) &&
        !value_consp(value_car(spec)) && !interp_nilp(s, value_car(spec)) &&
        interp_nilp(s, value_cdr(value_cdr(spec))))
        spec = interp_list(s, &spec, 1);
    *ok = true;
    *last = s->L->t;
    for (; value_consp(spec) && *ok; spec = value_cdr(spec)) {
        struct value *b = value_car(spec), *var = NULL, *v;
        if (symbolp(b))
            v = variable(s, b, env);
        else if (value_consp(b) && interp_nilp(s, value_cdr(b)))
            v = eval(s, value_car(b), env);
        else {
            var = arg(s, b, 0);
            v = eval(s, arg(s, b, 1), env);
        }
        if (!v)
            return NULL;
        if (var)
            env = bind(s, env, var, v);
        *ok = !interp_nilp(s, v);
        *last = v;
    }
    return env;
}

static struct value *sf_if_let(struct interp_st *s, struct value *args, struct value *env)
{
    bool ok;
    struct value *last, *inner = let_star_and(s, arg(s, args, 0), env, &ok, &last);
    if (!inner)
        return NULL;
    return ok ? eval(s, arg(s, args, 1), inner) : progn(s, rest(s, args, 2), inner);
}

static struct value *sf_when_let(struct interp_st *s, struct value *args, struct value *env)
{
    bool ok;
    struct value *last, *inner = let_star_and(s, arg(s, args, 0), env, &ok, &last);
    if (!inner)
        return NULL;
    return ok ? progn(s, rest(s, args, 1), inner) : s->L->nil;
}

static struct value *sf_and_let(struct interp_st *s, struct value *args, struct value *env)
{
    bool ok;
    struct value *last, *inner = let_star_and(s, arg(s, args, 0), env, &ok, &last);
    if (!inner)
        return NULL;
    if (!ok)
        return s->L->nil;
    return value_consp(rest(s, args, 1)) ? progn(s, rest(s, args, 1), inner) : last;
}

/* (cl-case EXPR (KEYS BODY...)...): KEYS an atom, a list, t or otherwise. */
static struct value *sf_case(struct interp_st *s, struct value *args, struct value *env)
{
    struct value *v = eval(s, arg(s, args, 0), env);
    if (!v)
        return NULL;
    for (struct value *c = rest(s, args, 1); value_consp(c); c = value_cdr(c)) {
        struct value *clause = value_car(c), *keys;
        if (!value_consp(clause))
            return interp_wrong_type(s, "listp", clause);
        keys = value_car(clause);
        bool hit = keys == s->L->t || (symbolp(keys) && keys->u.sym.interned &&
                                       strcmp(keys->u.sym.name, "otherwise") == 0);
        if (value_consp(keys))
            for (; value_consp(keys) && !hit; keys = value_cdr(keys))
                hit = value_eql(value_car(keys), v);
        else if (!hit)
            hit = value_eql(keys, v);
        if (hit)
            return progn(s, value_cdr(clause), env);
    }
    return s->L->nil;
}

/* Does a condition-case handler's condition catch (errsym . data)?
 * `error' and t catch every signal, a list any of its symbols. */
static bool catches(struct interp_st *s, struct value *cond, struct value *errsym)
{
    if (value_consp(cond)) {
        for (; value_consp(cond); cond = value_cdr(cond))
            if (catches(s, value_car(cond), errsym))
                return true;
        return false;
    }
    return cond == s->L->t || cond == s->error || cond == errsym;
}

/* A signal (not an unknown function nor a limit) is caught: failure off. */
static bool catch_signal(struct interp_st *s, unsigned depth)
{
    if (!s->failed || s->res->status != INTERP_SIGNAL)
        return false;
    s->failed = false;
    s->res->status = INTERP_OK;
    s->depth = depth;
    return true;
}

static struct value *sf_condition_case(struct interp_st *s, struct value *args,
                                       struct value *env)
{
    struct value *var = arg(s, args, 0), *dyn = s->dyn;
    unsigned depth = s->depth;
    struct value *r = eval(s, arg(s, args, 1), env);
    if (r)
        return r;
    if (s->res->status != INTERP_SIGNAL)
        return NULL;
    s->dyn = dyn; /* the bindings made inside are undone */
    struct value *sig = s->res->signal;
    for (struct value *h = rest(s, args, 2); value_consp(h); h = value_cdr(h)) {
        struct value *handler = value_car(h);
        if (!value_consp(handler) || !catches(s, value_car(handler), value_car(sig)))
            continue;
        catch_signal(s, depth);
        struct value *inner = interp_nilp(s, var) ? env : bind(s, env, var, sig);
        return progn(s, value_cdr(handler), inner);
    }
    return NULL;
}

static struct value *sf_ignore_errors(struct interp_st *s, struct value *args,
                                      struct value *env)
{
    unsigned depth = s->depth;
    struct value *dyn = s->dyn;
    struct value *r = progn(s, args, env);
    if (r)
        return r;
    s->dyn = dyn;
    return catch_signal(s, depth) ? s->L->nil : NULL;
}

struct special_row {
    const char *name;
    special_fn *fn;
};

/* Special forms and the standard macros evaluated as such; sorted.
 * Macros of the file (and of required files) with these names are not
 * consulted. */
static const struct special_row specials[] = {
    {"`", sf_backquote},
    {"and", sf_and},
    {"and-let*", sf_and_let},
    {"cl-case", sf_case},
    {"cl-decf", sf_decf},
    {"cl-incf", sf_incf},
    {"cond", sf_cond},
    {"condition-case", sf_condition_case},
    {"declare", sf_nil},
    {"dolist", sf_dolist},
    {"dotimes", sf_dotimes},
    {"eval-and-compile", sf_progn},
    {"eval-when-compile", sf_progn},
    {"function", sf_function},
    {"if", sf_if},
    {"if-let", sf_if_let},
    {"if-let*", sf_if_let},
    {"ignore-errors", sf_ignore_errors},
    {"interactive", sf_nil},
    {"lambda", sf_lambda},
    {"let", sf_let},
    {"let*", sf_let_star},
    {"or", sf_or},
    {"pop", sf_pop},
    {"prog1", sf_prog1},
    {"prog2", sf_prog2},
    {"progn", sf_progn},
    {"push", sf_push},
    {"quote", sf_quote},
    {"save-match-data", sf_save_match_data},
    {"setf", sf_setf},
    {"setq", sf_setq},
    {"unless", sf_unless},
    {"when", sf_when},
    {"when-let", sf_when_let},
    {"when-let*", sf_when_let},
    {"while", sf_while},
    {"with-case-table", sf_with_case_table},
    {"with-no-warnings", sf_progn},
};

static int special_cmp(const void *key, const void *row)
{
    return strcmp(key, ((const struct special_row *)row)->name);
}

static const struct special_row *find_special(const struct value *sym)
{
    if (!sym->u.sym.interned)
        return NULL;
    return bsearch(sym->u.sym.name, specials, NELEM(specials), sizeof specials[0], special_cmp);
}

bool interp_tables_sorted(void)
{
    for (size_t i = 1; i < NELEM(specials); i++)
        if (strcmp(specials[i - 1].name, specials[i].name) >= 0)
            return false;
    for (size_t i = 1; i < NELEM(constants); i++)
        if (strcmp(constants[i - 1].name, constants[i].name) >= 0)
            return false;
    for (size_t i = 1; i < NELEM(error_messages); i++)
        if (strcmp(error_messages[i - 1].symbol, error_messages[i].symbol) >= 0)
            return false;
    return interp_lib_sorted();
}

bool interp_knows(const char *name)
{
    return interp_lib_find(name) ||
           bsearch(name, specials, NELEM(specials), sizeof specials[0], special_cmp);
}

/* ---- eval ---- */

static struct value *eval(struct interp_st *s, struct value *form, struct value *env)
{
    if (!interp_tick(s))
        return NULL;
    if (symbolp(form))
        return variable(s, form, env);
    if (!value_consp(form))
        return form;
    if (!enter(s))
        return NULL;
    struct value *head = value_car(form), *r;
    const struct special_row *sp = symbolp(head) ? find_special(head) : NULL;
    struct value *fenv, *params, *body;
    if (sp) {
        r = sp->fn(s, value_cdr(form), env);
    } else if (symbolp(head)) {
        r = call(s, form, env);
    } else if (function_list(s, head, &fenv, &params, &body)) {
        size_t n;
        struct value **a = eval_args(s, value_cdr(form), env, &n);
        r = a ? apply_lambda(s, s->L->lambda, params, body,
                             value_car(head) == s->closure ? fenv : env, false, a, n)
              : NULL;
    } else {
        r = interp_signal_n(s, "invalid-function", 1, head);
    }
    s->depth--;
    return s->failed ? NULL : r;
}

/* ---- entry points ---- */

static void start(struct interp_st *s, struct lisp *L, const struct interp_host *h,
                  struct interp_result *out)
{
    static const struct interp_host none = {0};
    memset(out, 0, sizeof *out);
    memset(s, 0, sizeof *s);
    s->L = L;
    s->h = h ? h : &none;
    s->res = out;
    s->max_steps = INTERP_MAX_STEPS;
    s->max_bytes = INTERP_MAX_BYTES;
    s->closure = intern_cstr(L, "closure");
    s->optional = intern_cstr(L, "&optional");
    s->rest = intern_cstr(L, "&rest");
    s->body = intern_cstr(L, "&body");
    s->key = intern_cstr(L, "&key");
    s->aux = intern_cstr(L, "&aux");
    s->allow = intern_cstr(L, "&allow-other-keys");
    s->whole = intern_cstr(L, "&whole");
    s->environment = intern_cstr(L, "&environment");
    s->error = intern_cstr(L, "error");
    s->dyn = s->globals = L->nil;
    s->case_fold = intern_cstr(L, "case-fold-search");
}

static void finish(struct interp_st *s, struct value *v)
{
    s->res->steps = s->steps;
    if (!s->failed && v) {
        s->res->status = INTERP_OK;
        s->res->value = v;
    }
}

void interp_apply(struct lisp *L, const struct interp_host *h, const struct interp_fn *fn,
                  struct value *args, struct interp_result *out)
{
    struct interp_st s;
    start(&s, L, h, out);
    size_t n;
    struct value **a = interp_items(&s, args, &n);
    finish(&s, a ? apply_fn(&s, fn, a, n) : NULL);
}

void interp_eval(struct lisp *L, const struct interp_host *h, struct value *form,
                 struct interp_result *out)
{
    struct interp_st s;
    start(&s, L, h, out);
    finish(&s, eval(&s, form, L->nil));
}
