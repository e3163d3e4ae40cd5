/* fold.c - calls Emacs 30 makes on pattern constants (see fold.h).
 *
 * Order: list access, the built-in functions (accessors, type predicates,
 * constructors) and their sorted table, the evaluator of lambda bodies,
 * fold_call, fold_other_part.
 *
 * A call either gives Emacs's value or fails; it fails wherever Emacs
 * signals and wherever the answer is not known here (a function outside
 * the table, a variable other than the lambda's arguments, a form that is
 * not a call).  Failing is Emacs's answer for a function that is not
 * defined when the code is compiled.
 */
#include "match/fold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nesting of calls in a lambda body evaluated here: a deeper body fails
 * (no recursion that deep input could overflow).  Emacs evaluates up to
 * max-lisp-eval-depth (1600); a `let' expression nested 200 calls deep is
 * not one people write. */
#define FOLD_MAX_DEPTH 200
/* Arguments of one call in a lambda body. */
#define FOLD_MAX_ARGS 8
/* Arguments of a lambda (it is called with one). */
#define FOLD_MAX_PARAMS 8

struct fold {
    struct lisp *L;
    struct value *names[FOLD_MAX_PARAMS]; /* the lambda's arguments */
    struct value *vals[FOLD_MAX_PARAMS];  /* and their values */
    size_t n;
    int depth;
};

/* ---- list access ------------------------------------------------------ */

static struct value *bool_value(struct lisp *L, bool b)
{
    return b ? L->t : L->nil;
}

static bool is_list(struct lisp *L, const struct value *v)
{
    return v == L->nil || v->kind == VK_CONS;
}

/* Emacs's car and cdr: nil of nil, an error (false) for other atoms. */
static bool car_of(struct lisp *L, struct value *v, struct value **out)
{
    if (!is_list(L, v))
        return false;
    *out = v == L->nil ? v : value_car(v);
    return true;
}

static bool cdr_of(struct lisp *L, struct value *v, struct value **out)
{
    if (!is_list(L, v))
        return false;
    *out = v == L->nil ? v : value_cdr(v);
    return true;
}

/* ---- built-in functions ----------------------------------------------- */

typedef bool builtin_fn(struct lisp *L, struct value **args, size_t n,
                        struct value **out);

static bool f_car(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    return car_of(L, a[0], out);
}

static bool f_cdr(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    return cdr_of(L, a[0], out);
}

static bool f_car_safe(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    *out = a[0]->kind == VK_CONS ? value_car(a[0]) : L->nil;
    return true;
}

static bool f_cdr_safe(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    *out = a[0]->kind == VK_CONS ? value_cdr(a[0]) : L->nil;
    return true;
}

/* c[ad][ad]r: the inner accessor first, as Emacs composes them. */
static bool cxxr(struct lisp *L, struct value *v, bool outer_car, bool inner_car,
                 struct value **out)
{
    struct value *mid;
    if (!(inner_car ? car_of(L, v, &mid) : cdr_of(L, v, &mid)))
        return false;
    return outer_car ? car_of(L, mid, out) : cdr_of(L, mid, out);
}

static bool f_caar(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    return cxxr(L, a[0], true, true, out);
}

static bool f_cadr(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    return cxxr(L, a[0], true, false, out);
}

static bool f_cdar(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    return cxxr(L, a[0], false, true, out);
}

static bool f_cddr(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    return cxxr(L, a[0], false, false, out);
}

/* (nthcdr N LIST) with a fixnum N: cdrs while LIST is a cons, nil once
 * it ends, an error at any other atom. */
static bool nthcdr_of(struct lisp *L, struct value *k, struct value *l, struct value **out)
{
    if (k->kind != VK_INT)
        return false; /* a bignum or a non-number: not taken further */
    for (int64_t i = 0; i < k->u.i && l != L->nil; i++) {
        if (l->kind != VK_CONS)
            return false;
        l = value_cdr(l);
    }
    *out = l;
    return true;
}

static bool f_nthcdr(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    return nthcdr_of(L, a[0], a[1], out);
}

static bool f_nth(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    struct value *tail;
    return nthcdr_of(L, a[0], a[1], &tail) && car_of(L, tail, out);
}

static bool f_length(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    const struct value *v = a[0];
    int64_t len;
    switch (v->kind) {
    case VK_CONS: {
        long k = value_list_length(v, L->nil);
        if (k < 0)
            return false; /* dotted or circular */
        len = k;
        break;
    }
    case VK_SYMBOL:
        if (v != L->nil)
            return false;
        len = 0;
        break;
    case VK_STRING: len = (int64_t)v->u.str.nchars; break;
    case VK_VECTOR:
    case VK_RECORD:
    case VK_BYTECODE: len = (int64_t)v->u.vec.n; break;
    case VK_BOOLVEC: len = (int64_t)v->u.bv.nbits; break;
    case VK_CHARTABLE: len = VALUE_MAX_CHAR; break;
    default: return false;
    }
    *out = value_int(L->a, len);
    return true;
}

/* (1+ N) when up, else (1- N), for any integer or float: integers are
 * stepped in decimal (those beyond 64 bits are kept in decimal). */
static bool step_number(struct lisp *L, const struct value *v, bool up, struct value **out)
{
    if (v->kind == VK_FLOAT) {
        *out = value_float(L->a, v->u.f + (up ? 1.0 : -1.0));
        return true;
    }
    char small[24];
    const char *mag;
    bool neg;
    if (v->kind == VK_INT) {
        neg = v->u.i < 0;
        snprintf(small, sizeof small, "%llu",
                 neg ? (unsigned long long)(-(v->u.i + 1)) + 1u : (unsigned long long)v->u.i);
        mag = small;
    } else if (v->kind == VK_BIGNUM) {
        neg = v->u.big.neg;
        mag = value_big_digits(v);
    } else {
        return false;
    }
    /* the magnitude grows when the step moves away from zero */
    bool grow = up != neg || !strcmp(mag, "0");
    size_t n = strlen(mag);
    char *d = arena_alloc(L->a, n + 2);
    d[0] = '0';
    memcpy(d + 1, mag, n + 1);
    for (size_t i = n; ; i--) {
        if (grow ? d[i] != '9' : d[i] != '0') {
            d[i] = (char)(d[i] + (grow ? 1 : -1));
            break;
        }
        d[i] = grow ? '0' : '9';
    }
    if (!strcmp(mag, "0"))
        neg = !up; /* 0 steps to 1 or -1 */
    *out = value_integer_from_decimal(L->a, d, n + 1, neg && strspn(d, "0") <= n);
    return true;
}

static bool f_add1(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    return step_number(L, a[0], true, out);
}

static bool f_sub1(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    return step_number(L, a[0], false, out);
}

static bool f_identity(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)L;
    (void)n;
    *out = a[0];
    return true;
}

static bool f_null(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    *out = bool_value(L, a[0] == L->nil);
    return true;
}

/* The names type-of gives, by value kind (NULL: see f_type_of). */
static const char *const type_names[] = {
    [VK_INT] = "integer", [VK_BIGNUM] = "integer", [VK_FLOAT] = "float",
    [VK_SYMBOL] = "symbol", [VK_STRING] = "string", [VK_CONS] = "cons",
    [VK_VECTOR] = "vector", [VK_RECORD] = NULL,
    [VK_BYTECODE] = "byte-code-function", [VK_CHARTABLE] = "char-table",
    [VK_SUBCHARTABLE] = "sub-char-table", [VK_BOOLVEC] = "bool-vector",
    [VK_HASHTABLE] = "hash-table",
};

static bool f_type_of(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    const struct value *v = a[0];
    if (v->kind == VK_RECORD) { /* its type, when that is a symbol */
        if (!v->u.vec.n || v->u.vec.items[0]->kind != VK_SYMBOL)
            return false;
        *out = v->u.vec.items[0];
        return true;
    }
    *out = intern_cstr(L, type_names[v->kind]);
    return true;
}

static bool f_symbol_name(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    const struct value *v = a[0];
    if (v->kind != VK_SYMBOL)
        return false;
    *out = value_string(L->a, v->u.sym.name, v->u.sym.len, v->u.sym.multibyte);
    return true;
}

static bool f_list(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    struct value *l = L->nil;
    while (n-- > 0)
        l = value_cons(L->a, a[n], l);
    *out = l;
    return true;
}

static bool f_cons(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    *out = value_cons(L->a, a[0], a[1]);
    return true;
}

static bool f_equal(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    *out = bool_value(L, value_equal(a[0], a[1]));
    return true;
}

static bool f_eql(struct lisp *L, struct value **a, size_t n, struct value **out)
{
    (void)n;
    *out = bool_value(L, value_eql(a[0], a[1]));
    return true;
}

/* ---- type predicates: one question about a value each ---- */

static bool is_array(const struct value *v)
{
    return v->kind == VK_STRING || v->kind == VK_VECTOR || v->kind == VK_BOOLVEC ||
           v->kind == VK_CHARTABLE;
}

enum type_q {
    TQ_ATOM, TQ_ARRAY, TQ_BIGNUM, TQ_BOOLEAN, TQ_BOOLVEC, TQ_CHARACTER,
    TQ_CHARTABLE, TQ_CONS, TQ_FIXNUM, TQ_FLOAT, TQ_HASH, TQ_INTEGER,
    TQ_KEYWORD, TQ_LIST, TQ_NATNUM, TQ_NLIST, TQ_NUMBER, TQ_RECORD,
    TQ_SEQUENCE, TQ_STRING, TQ_SYMBOL, TQ_VECTOR,
};

static bool type_answer(struct lisp *L, enum type_q q, const struct value *v)
{
    switch (q) {
    case TQ_ATOM: return v->kind != VK_CONS;
    case TQ_ARRAY: return is_array(v);
    case TQ_BIGNUM: return value_integerp(v) && !value_fixnump(v);
    case TQ_BOOLEAN: return v == L->nil || v == L->t;
    case TQ_BOOLVEC: return v->kind == VK_BOOLVEC;
    case TQ_CHARACTER: return v->kind == VK_INT && v->u.i >= 0 && v->u.i <= VALUE_MAX_CHAR;
    case TQ_CHARTABLE: return v->kind == VK_CHARTABLE;
    case TQ_CONS: return v->kind == VK_CONS;
    case TQ_FIXNUM: return value_fixnump(v);
    case TQ_FLOAT: return v->kind == VK_FLOAT;
    case TQ_HASH: return v->kind == VK_HASHTABLE;
    case TQ_INTEGER: return value_integerp(v);
    case TQ_KEYWORD:
        return v->kind == VK_SYMBOL && v->u.sym.interned && v->u.sym.name[0] == ':';
    case TQ_LIST: return is_list(L, v);
    case TQ_NATNUM:
        return (v->kind == VK_INT && v->u.i >= 0) || (v->kind == VK_BIGNUM && !v->u.big.neg);
    case TQ_NLIST: return !is_list(L, v);
    case TQ_NUMBER: return value_numberp(v);
    case TQ_RECORD: return v->kind == VK_RECORD;
    case TQ_SEQUENCE: return is_list(L, v) || is_array(v);
    case TQ_STRING: return v->kind == VK_STRING;
    case TQ_SYMBOL: return v->kind == VK_SYMBOL;
    case TQ_VECTOR: return v->kind == VK_VECTOR;
    }
    return false;
}

/* ---- the table -------------------------------------------------------- */

/* Sorted by name (strcmp) for bsearch.  fn NULL: a type predicate, q
 * says which.  Every row is a function that depends on its arguments
 * only, as Emacs computes it. */
static const struct {
    const char *name;
    unsigned char min, max; /* arguments; max 255: any number */
    builtin_fn *fn;
    enum type_q q;
} builtins[] = {
    {"1+", 1, 1, f_add1, 0},
    {"1-", 1, 1, f_sub1, 0},
    {"arrayp", 1, 1, NULL, TQ_ARRAY},
    {"atom", 1, 1, NULL, TQ_ATOM},
    {"bignump", 1, 1, NULL, TQ_BIGNUM},
    {"bool-vector-p", 1, 1, NULL, TQ_BOOLVEC},
    {"booleanp", 1, 1, NULL, TQ_BOOLEAN},
    {"caar", 1, 1, f_caar, 0},
    {"cadr", 1, 1, f_cadr, 0},
    {"car", 1, 1, f_car, 0},
    {"car-safe", 1, 1, f_car_safe, 0},
    {"cdar", 1, 1, f_cdar, 0},
    {"cddr", 1, 1, f_cddr, 0},
    {"cdr", 1, 1, f_cdr, 0},
    {"cdr-safe", 1, 1, f_cdr_safe, 0},
    {"char-table-p", 1, 1, NULL, TQ_CHARTABLE},
    {"characterp", 1, 2, NULL, TQ_CHARACTER},
    {"cons", 2, 2, f_cons, 0},
    {"consp", 1, 1, NULL, TQ_CONS},
    {"eql", 2, 2, f_eql, 0},
    {"equal", 2, 2, f_equal, 0},
    {"fixnump", 1, 1, NULL, TQ_FIXNUM},
    {"floatp", 1, 1, NULL, TQ_FLOAT},
    {"hash-table-p", 1, 1, NULL, TQ_HASH},
    {"identity", 1, 1, f_identity, 0},
    {"integerp", 1, 1, NULL, TQ_INTEGER},
    {"keywordp", 1, 1, NULL, TQ_KEYWORD},
    {"length", 1, 1, f_length, 0},
    {"list", 0, 255, f_list, 0},
    {"listp", 1, 1, NULL, TQ_LIST},
    {"natnump", 1, 1, NULL, TQ_NATNUM},
    {"nlistp", 1, 1, NULL, TQ_NLIST},
    {"not", 1, 1, f_null, 0},
    {"nth", 2, 2, f_nth, 0},
    {"nthcdr", 2, 2, f_nthcdr, 0},
    {"null", 1, 1, f_null, 0},
    {"numberp", 1, 1, NULL, TQ_NUMBER},
    {"recordp", 1, 1, NULL, TQ_RECORD},
    {"sequencep", 1, 1, NULL, TQ_SEQUENCE},
    {"stringp", 1, 1, NULL, TQ_STRING},
    {"symbol-name", 1, 1, f_symbol_name, 0},
    {"symbolp", 1, 1, NULL, TQ_SYMBOL},
    {"type-of", 1, 1, f_type_of, 0},
    {"vectorp", 1, 1, NULL, TQ_VECTOR},
};

#define N_BUILTINS (sizeof builtins / sizeof builtins[0])

long fold_check_table(void)
{
    for (size_t i = 1; i < N_BUILTINS; i++)
        if (strcmp(builtins[i - 1].name, builtins[i].name) >= 0)
            return (long)i;
    return -1;
}

static int name_cmp(const void *key, const void *row)
{
    return strcmp(key, *(const char *const *)row);
}

/* Row of the function named by symbol f, or -1. */
static long builtin_row(const struct value *f)
{
    if (f->kind != VK_SYMBOL || !f->u.sym.interned)
        return -1;
    const void *row = bsearch(f->u.sym.name, builtins, N_BUILTINS, sizeof *builtins,
                              name_cmp);
    return row ? (long)((const char *)row - (const char *)builtins) / (long)sizeof *builtins
               : -1;
}

/* Apply the function of row r to args[0..n): false on a wrong number of
 * arguments, as on any error. */
static bool apply_row(struct lisp *L, long r, struct value **args, size_t n,
                      struct value **out)
{
    if (n < builtins[r].min || (builtins[r].max != 255 && n > builtins[r].max))
        return false;
    if (builtins[r].fn)
        return builtins[r].fn(L, args, n, out);
    *out = bool_value(L, type_answer(L, builtins[r].q, args[0]));
    return true;
}

/* ---- lambda bodies ---------------------------------------------------- */

static bool eval(struct fold *f, struct value *form, struct value **out);

static bool is_sym(const struct value *v, const char *name)
{
    return v->kind == VK_SYMBOL && v->u.sym.interned && !strcmp(v->u.sym.name, name);
}

static bool variable(struct fold *f, struct value *sym, struct value **out)
{
    struct lisp *L = f->L;
    if (sym == L->nil || sym == L->t || (sym->u.sym.interned && sym->u.sym.name[0] == ':')) {
        *out = sym; /* constants */
        return true;
    }
    for (size_t i = f->n; i-- > 0;)
        if (f->names[i] == sym) {
            *out = f->vals[i];
            return true;
        }
    return false; /* taken to be unbound while compiling */
}

/* (quote X) and (function X): X, with exactly one argument. */
static bool quoted(struct lisp *L, struct value *form, struct value **out)
{
    struct value *rest = value_cdr(form);
    if (rest->kind != VK_CONS || value_cdr(rest) != L->nil)
        return false;
    *out = value_car(rest);
    return true;
}

static bool call(struct fold *f, struct value *form, struct value **out)
{
    struct lisp *L = f->L;
    struct value *head = value_car(form);
    if (head == L->quote || head == L->function)
        return quoted(L, form, out);
    long r = builtin_row(head);
    if (r < 0)
        return false;
    struct value *args[FOLD_MAX_ARGS];
    size_t n = 0;
    struct value *l = value_cdr(form);
    for (; l->kind == VK_CONS; l = value_cdr(l)) {
        if (n == FOLD_MAX_ARGS || !eval(f, value_car(l), &args[n]))
            return false;
        n++;
    }
    return l == L->nil && apply_row(L, r, args, n, out);
}

static bool eval(struct fold *f, struct value *form, struct value **out)
{
    if (form->kind == VK_SYMBOL)
        return variable(f, form, out);
    if (form->kind != VK_CONS) {
        *out = form; /* numbers, strings, vectors... evaluate to themselves */
        return true;
    }
    if (f->depth >= FOLD_MAX_DEPTH)
        return false;
    f->depth++;
    bool ok = call(f, form, out);
    f->depth--;
    return ok;
}

/* Bind the arguments of lambda list params to the one value arg, as
 * Emacs's funcall does: the first required argument, or else the first
 * optional one, or else a &rest list; false when one value does not fit. */
static bool bind_params(struct fold *f, struct value *params, struct value *arg)
{
    struct lisp *L = f->L;
    enum { REQUIRED, OPTIONAL, REST } mode = REQUIRED;
    bool used = false;
    for (; params->kind == VK_CONS; params = value_cdr(params)) {
        struct value *p = value_car(params);
        if (p->kind != VK_SYMBOL || p == L->nil || p == L->t)
            return false;
        if (is_sym(p, "&optional") || is_sym(p, "&rest")) {
            mode = is_sym(p, "&rest") ? REST : OPTIONAL;
            continue;
        }
        if (f->n == FOLD_MAX_PARAMS)
            return false;
        struct value *v = L->nil;
        if (!used) {
            v = mode == REST ? value_cons(L->a, arg, L->nil) : arg;
            used = true;
        } else if (mode == REQUIRED) {
            return false; /* a second required argument: too few */
        }
        f->names[f->n] = p;
        f->vals[f->n++] = v;
    }
    return params == L->nil && used;
}

/* (funcall '(lambda PARAMS BODY...) arg): the last body form's value. */
static bool apply_lambda(struct lisp *L, const struct value *fun, struct value *arg,
                         struct value **out)
{
    struct fold f = {.L = L};
    struct value *rest = value_cdr(fun);
    if (rest->kind != VK_CONS || !bind_params(&f, value_car(rest), arg))
        return false;
    *out = L->nil;
    for (struct value *b = value_cdr(rest); b->kind == VK_CONS; b = value_cdr(b))
        if (!eval(&f, value_car(b), out))
            return false;
    return true;
}

/* ---- entry points ----------------------------------------------------- */

bool fold_call(struct lisp *L, const struct value *fun, struct value *arg,
               struct value **out)
{
    if (fun->kind == VK_CONS && value_car(fun) == L->lambda)
        return apply_lambda(L, fun, arg, out);
    long r = builtin_row(fun);
    return r >= 0 && apply_row(L, r, &arg, 1, out);
}

struct value *fold_other_part(struct lisp *L, const struct value *fun)
{
    if (is_sym(fun, "car") || is_sym(fun, "car-safe"))
        return INTERN_LIT(L, "cdr-safe");
    if (is_sym(fun, "cdr") || is_sym(fun, "cdr-safe"))
        return INTERN_LIT(L, "car-safe");
    return NULL;
}
