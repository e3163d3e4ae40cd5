/* minieval.c - a tiny Emacs Lisp evaluator for the printer's tests (see
 * minieval.h): quote, let, progn, let-bound variables, the fixnum limits and
 * a sorted table of builtins doing what their Emacs 30 namesakes do.  It
 * recurses on the (short) table expressions, with a depth guard.
 */
#include "minieval.h"

#include "base/buf.h"

#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct ev {
    struct lisp *L;
    struct value *env; /* alist of let bindings */
    jmp_buf fail;
    const char *why;
    int depth;
};

enum { MAX_ARGS = 32, MAX_DEPTH = 200 };

static _Noreturn void fail(struct ev *e, const char *why)
{
    e->why = why;
    longjmp(e->fail, 1);
}

static struct value *eval(struct ev *e, struct value *form);

/* ---- argument helpers ---- */

static bool is_nil(struct ev *e, const struct value *v) { return v == e->L->nil; }

static const char *sym_name(const struct value *v)
{
    return v->kind == VK_SYMBOL ? v->u.sym.name : "";
}

static int64_t arg_int(struct ev *e, const struct value *v)
{
    if (v->kind != VK_INT)
        fail(e, "wrong-type-argument integerp");
    return v->u.i;
}

static struct value *arg_string(struct ev *e, struct value *v)
{
    if (v->kind != VK_STRING)
        fail(e, "wrong-type-argument stringp");
    return v;
}

static double as_double(const struct value *v)
{
    return v->kind == VK_FLOAT ? v->u.f : (double)v->u.i;
}

static void need_numbers(struct ev *e, struct value **a, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (a[k]->kind != VK_INT && a[k]->kind != VK_FLOAT)
            fail(e, "wrong-type-argument number-or-marker-p");
}

static bool any_float(struct value **a, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (a[k]->kind == VK_FLOAT)
            return true;
    return false;
}

/* ---- numbers ---- */

static struct value *f_1plus(struct ev *e, struct value **a, size_t n)
{
    if (n != 1)
        fail(e, "wrong-number-of-arguments");
    need_numbers(e, a, 1);
    if (a[0]->kind == VK_FLOAT)
        return value_float(e->L->a, a[0]->u.f + 1.0);
    return value_int(e->L->a, a[0]->u.i + 1);
}

static struct value *f_minus(struct ev *e, struct value **a, size_t n)
{
    need_numbers(e, a, n);
    if (n == 0)
        return value_int(e->L->a, 0);
    if (any_float(a, n)) {
        double d = as_double(a[0]);
        if (n == 1)
            return value_float(e->L->a, -d);
        for (size_t k = 1; k < n; k++)
            d -= as_double(a[k]);
        return value_float(e->L->a, d);
    }
    int64_t i = n == 1 ? -a[0]->u.i : a[0]->u.i;
    for (size_t k = 1; k < n; k++)
        i -= a[k]->u.i;
    return value_int(e->L->a, i);
}

static struct value *f_div(struct ev *e, struct value **a, size_t n)
{
    if (n < 2)
        fail(e, "wrong-number-of-arguments");
    need_numbers(e, a, n);
    if (!any_float(a, n))
        fail(e, "integer division is not needed by the table");
    volatile double d = as_double(a[0]); /* divide at run time, as Emacs does */
    for (size_t k = 1; k < n; k++)
        d = d / as_double(a[k]);
    return value_float(e->L->a, d);
}

static struct value *f_expt(struct ev *e, struct value **a, size_t n)
{
    if (n != 2)
        fail(e, "wrong-number-of-arguments");
    need_numbers(e, a, 2);
    if (!any_float(a, 2))
        fail(e, "integer expt is not needed by the table");
    return value_float(e->L->a, pow(as_double(a[0]), as_double(a[1])));
}

/* ---- symbols, conses, vectors ---- */

static struct value *f_list(struct ev *e, struct value **a, size_t n)
{
    return lisp_list(e->L, n, a);
}

/* A second argument is some other obarray: the symbol is not interned in
 * the initial one, so it behaves like an uninterned symbol. */
static struct value *f_intern(struct ev *e, struct value **a, size_t n)
{
    if (n < 1 || n > 2)
        fail(e, "wrong-number-of-arguments");
    struct value *s = arg_string(e, a[0]);
    if (n == 2 && !is_nil(e, a[1]))
        return intern_uninterned(e->L, (const char *)s->u.str.data, s->u.str.len);
    return intern_symbol(e->L, (const char *)s->u.str.data, s->u.str.len);
}

static struct value *f_make_symbol(struct ev *e, struct value **a, size_t n)
{
    if (n != 1)
        fail(e, "wrong-number-of-arguments");
    struct value *s = arg_string(e, a[0]);
    return intern_uninterned(e->L, (const char *)s->u.str.data, s->u.str.len);
}

static struct value *f_obarray_make(struct ev *e, struct value **a, size_t n)
{
    (void)a;
    (void)n;
    return value_vector(e->L->a, VK_VECTOR, 0);
}

static struct value *f_cdr(struct ev *e, struct value **a, size_t n)
{
    if (n != 1)
        fail(e, "wrong-number-of-arguments");
    if (is_nil(e, a[0]))
        return a[0];
    if (a[0]->kind != VK_CONS)
        fail(e, "wrong-type-argument listp");
    return a[0]->u.cons.cdr;
}

static struct value *f_setcdr(struct ev *e, struct value **a, size_t n)
{
    if (n != 2 || a[0]->kind != VK_CONS)
        fail(e, "wrong-type-argument consp");
    a[0]->u.cons.cdr = a[1];
    return a[1];
}

static struct value *make_vec(struct ev *e, enum value_kind k, struct value **a, size_t n)
{
    struct value *v = value_vector(e->L->a, k, n);
    for (size_t i = 0; i < n; i++)
        v->u.vec.items[i] = a[i];
    return v;
}

static struct value *f_vector(struct ev *e, struct value **a, size_t n)
{
    return make_vec(e, VK_VECTOR, a, n);
}

static struct value *f_record(struct ev *e, struct value **a, size_t n)
{
    if (n < 1)
        fail(e, "wrong-number-of-arguments");
    return make_vec(e, VK_RECORD, a, n);
}

static struct value *f_make_record(struct ev *e, struct value **a, size_t n)
{
    if (n != 3)
        fail(e, "wrong-number-of-arguments");
    int64_t slots = arg_int(e, a[1]);
    if (slots < 0 || slots > 1000)
        fail(e, "args-out-of-range");
    struct value *v = value_vector(e->L->a, VK_RECORD, (size_t)slots + 1);
    v->u.vec.items[0] = a[0];
    for (int64_t i = 1; i <= slots; i++)
        v->u.vec.items[i] = a[2];
    return v;
}

static struct value *f_aset(struct ev *e, struct value **a, size_t n)
{
    if (n != 3 || (a[0]->kind != VK_VECTOR && a[0]->kind != VK_RECORD))
        fail(e, "wrong-type-argument arrayp");
    int64_t i = arg_int(e, a[1]);
    if (i < 0 || (size_t)i >= a[0]->u.vec.n)
        fail(e, "args-out-of-range");
    a[0]->u.vec.items[i] = a[2];
    return a[2];
}

/* ---- strings and text properties ---- */

/* Per-character plists of string s (nil where there are none). */
static struct value **props_expand(struct ev *e, const struct value *s)
{
    size_t n = s->u.str.nchars;
    struct value **pl = arena_alloc(e->L->a, (n + 1) * sizeof *pl);
    for (size_t k = 0; k < n; k++)
        pl[k] = e->L->nil;
    for (const struct value *p = s->u.str.props; p && p->kind == VK_CONS;) {
        const struct value *b = p->u.cons.car, *r = p->u.cons.cdr;
        const struct value *en = r->u.cons.car, *plist = r->u.cons.cdr->u.cons.car;
        for (int64_t k = b->u.i; k < en->u.i && (size_t)k < n; k++)
            pl[k] = (struct value *)plist;
        p = r->u.cons.cdr->u.cons.cdr;
    }
    return pl;
}

/* The (B E PLIST ...) list of maximal runs of identical non-nil plists. */
static struct value *props_collapse(struct ev *e, struct value **pl, size_t n)
{
    struct value *out = e->L->nil, **tail = &out;
    for (size_t k = 0; k < n;) {
        size_t j = k;
        while (j < n && pl[j] == pl[k])
            j++;
        if (!is_nil(e, pl[k])) {
            struct value *t[3] = {value_int(e->L->a, (int64_t)k), value_int(e->L->a, (int64_t)j), pl[k]};
            *tail = lisp_list(e->L, 3, t);
            tail = &(*tail)->u.cons.cdr->u.cons.cdr->u.cons.cdr;
        }
        k = j;
    }
    return is_nil(e, out) ? NULL : out;
}

static struct value *copy_string(struct ev *e, const struct value *s)
{
    struct value *c = value_string(e->L->a, s->u.str.data, s->u.str.len, s->u.str.multibyte);
    c->u.str.props = s->u.str.props;
    return c;
}

static struct value *f_copy_sequence(struct ev *e, struct value **a, size_t n)
{
    if (n != 1)
        fail(e, "wrong-number-of-arguments");
    return copy_string(e, arg_string(e, a[0]));
}

/* Emacs's propertize: a copy whose whole text gets the plist built from
 * the pairs, consed up front to back (so the last pair comes first). */
static struct value *f_propertize(struct ev *e, struct value **a, size_t n)
{
    if (n < 1 || n % 2 == 0)
        fail(e, "wrong-number-of-arguments");
    struct value *s = copy_string(e, arg_string(e, a[0]));
    if (s->u.str.props)
        fail(e, "propertize on a string with properties");
    struct value *plist = e->L->nil;
    for (size_t k = 1; k < n; k += 2)
        plist = value_cons(e->L->a, a[k], value_cons(e->L->a, a[k + 1], plist));
    struct value **pl = props_expand(e, s);
    for (size_t k = 0; k < s->u.str.nchars; k++)
        pl[k] = plist;
    s->u.str.props = props_collapse(e, pl, s->u.str.nchars);
    return s;
}

/* plist with key k set to v: a changed copy, or (k v . plist). */
static struct value *plist_put(struct ev *e, struct value *plist, struct value *k, struct value *v)
{
    for (struct value *p = plist; p->kind == VK_CONS; p = p->u.cons.cdr->u.cons.cdr)
        if (p->u.cons.car == k) {
            struct value *out = e->L->nil, **tail = &out;
            for (struct value *q = plist; q->kind == VK_CONS; q = q->u.cons.cdr->u.cons.cdr) {
                struct value *t[2] = {q->u.cons.car, q == p ? v : q->u.cons.cdr->u.cons.car};
                *tail = lisp_list(e->L, 2, t);
                tail = &(*tail)->u.cons.cdr->u.cons.cdr;
            }
            return out;
        }
    return value_cons(e->L->a, k, value_cons(e->L->a, v, plist));
}

static struct value *f_put_text_property(struct ev *e, struct value **a, size_t n)
{
    if (n != 5)
        fail(e, "wrong-number-of-arguments");
    struct value *s = arg_string(e, a[4]);
    int64_t b = arg_int(e, a[0]), en = arg_int(e, a[1]);
    if (b < 0 || en < b || (size_t)en > s->u.str.nchars)
        fail(e, "args-out-of-range");
    struct value **pl = props_expand(e, s), *from = NULL, *to = NULL;
    for (int64_t k = b; k < en; k++) {
        if (pl[k] != from) /* chars sharing a plist keep sharing one */
            from = pl[k], to = plist_put(e, pl[k], a[2], a[3]);
        pl[k] = to;
    }
    s->u.str.props = props_collapse(e, pl, s->u.str.nchars);
    return e->L->nil;
}

/* Text of s in the multibyte encoding: unibyte bytes >= 0x80 become
 * raw-byte characters. */
static void put_multibyte(struct buf *b, const struct value *s)
{
    for (size_t k = 0; k < s->u.str.len; k++) {
        uint8_t c = s->u.str.data[k], enc[5];
        if (s->u.str.multibyte || c < 0x80)
            buf_put(b, &c, 1);
        else
            buf_put(b, enc, (size_t)value_char_encode(VALUE_RAW_BYTE_BASE + c, enc));
    }
}

static struct value *f_string_to_multibyte(struct ev *e, struct value **a, size_t n)
{
    if (n != 1)
        fail(e, "wrong-number-of-arguments");
    struct value *s = arg_string(e, a[0]);
    if (s->u.str.multibyte)
        return s;
    struct buf b;
    buf_init(&b, e->L->a);
    put_multibyte(&b, s);
    struct value *m = value_string(e->L->a, b.data ? b.data : "", b.len, true);
    m->u.str.props = s->u.str.props;
    return m;
}

static struct value *f_concat(struct ev *e, struct value **a, size_t n)
{
    bool mb = false;
    size_t chars = 0;
    for (size_t k = 0; k < n; k++)
        mb = mb || arg_string(e, a[k])->u.str.multibyte, chars += a[k]->u.str.nchars;
    struct buf b;
    buf_init(&b, e->L->a);
    struct value **pl = arena_alloc(e->L->a, (chars + 1) * sizeof *pl);
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        if (mb)
            put_multibyte(&b, a[k]);
        else
            buf_put(&b, a[k]->u.str.data, a[k]->u.str.len);
        struct value **part = props_expand(e, a[k]);
        memcpy(pl + at, part, a[k]->u.str.nchars * sizeof *pl);
        at += a[k]->u.str.nchars;
    }
    struct value *s = value_string(e->L->a, b.data ? b.data : "", b.len, mb);
    s->u.str.props = props_collapse(e, pl, chars);
    return s;
}

/* ---- hash tables, bool-vectors ---- */

static struct value *f_make_hash_table(struct ev *e, struct value **a, size_t n)
{
    struct value *h = arena_zalloc(e->L->a, sizeof *h);
    h->kind = VK_HASHTABLE;
    h->u.hash.test = intern_cstr(e->L, "eql");
    h->u.hash.data = e->L->nil;
    if (n % 2)
        fail(e, "odd keyword arguments");
    for (size_t k = 0; k < n; k += 2) {
        const char *key = sym_name(a[k]);
        if (strcmp(key, ":test") == 0)
            h->u.hash.test = a[k + 1];
        else if (strcmp(key, ":size") == 0 || strcmp(key, ":rehash-size") == 0 ||
                 strcmp(key, ":rehash-threshold") == 0)
            continue; /* ignored by Emacs 30 */
        else if (strcmp(key, ":weakness") == 0) /* t is key-and-value */
            h->u.hash.weakness = a[k + 1] == e->L->t ? intern_cstr(e->L, "key-and-value")
                                 : a[k + 1] == e->L->nil ? NULL : a[k + 1];
        else if (strcmp(key, ":purecopy") == 0)
            h->u.hash.purecopy = a[k + 1] != e->L->nil;
        else
            fail(e, "unsupported make-hash-table keyword");
    }
    return h;
}

static bool hash_same(struct ev *e, const struct value *h, const struct value *x,
                      const struct value *y)
{
    const char *test = sym_name(h->u.hash.test);
    if (strcmp(test, "equal") == 0)
        return value_equal(x, y);
    if (strcmp(test, "eq") == 0)
        return x == y || (value_fixnump(x) && value_fixnump(y) && x->u.i == y->u.i);
    (void)e;
    return value_eql(x, y);
}

static struct value *f_puthash(struct ev *e, struct value **a, size_t n)
{
    if (n != 3 || a[2]->kind != VK_HASHTABLE)
        fail(e, "wrong-type-argument hash-table-p");
    struct value *h = a[2], **tail = &h->u.hash.data;
    for (; (*tail)->kind == VK_CONS; tail = &(*tail)->u.cons.cdr->u.cons.cdr)
        if (hash_same(e, h, (*tail)->u.cons.car, a[0])) {
            (*tail)->u.cons.cdr->u.cons.car = a[1];
            return a[1];
        }
    *tail = lisp_list(e->L, 2, a);
    return a[1];
}

static struct value *new_boolvec(struct ev *e, size_t nbits, uint8_t **bits)
{
    struct value *v = arena_zalloc(e->L->a, sizeof *v);
    v->kind = VK_BOOLVEC;
    v->u.bv.nbits = nbits;
    *bits = arena_zalloc(e->L->a, (nbits + 7) / 8 + 1);
    v->u.bv.bits = *bits;
    return v;
}

static struct value *f_make_bool_vector(struct ev *e, struct value **a, size_t n)
{
    if (n != 2)
        fail(e, "wrong-number-of-arguments");
    int64_t len = arg_int(e, a[0]);
    if (len < 0 || len > 100000)
        fail(e, "args-out-of-range");
    uint8_t *bits;
    struct value *v = new_boolvec(e, (size_t)len, &bits);
    if (!is_nil(e, a[1]))
        for (int64_t k = 0; k < len; k++)
            bits[k / 8] |= (uint8_t)(1u << (k % 8));
    return v;
}

static struct value *f_bool_vector(struct ev *e, struct value **a, size_t n)
{
    uint8_t *bits;
    struct value *v = new_boolvec(e, n, &bits);
    for (size_t k = 0; k < n; k++)
        if (!is_nil(e, a[k]))
            bits[k / 8] |= (uint8_t)(1u << (k % 8));
    return v;
}

/* ---- the evaluator ---- */

typedef struct value *(*builtin)(struct ev *, struct value **, size_t);

static const struct {
    const char *name;
    builtin fn;
} builtins[] = { /* sorted by name (strcmp) for bsearch */
    {"-", f_minus},
    {"/", f_div},
    {"1+", f_1plus},
    {"aset", f_aset},
    {"bool-vector", f_bool_vector},
    {"cdr", f_cdr},
    {"concat", f_concat},
    {"copy-sequence", f_copy_sequence},
    {"expt", f_expt},
    {"intern", f_intern},
    {"list", f_list},
    {"make-bool-vector", f_make_bool_vector},
    {"make-hash-table", f_make_hash_table},
    {"make-record", f_make_record},
    {"make-symbol", f_make_symbol},
    {"obarray-make", f_obarray_make},
    {"propertize", f_propertize},
    {"put-text-property", f_put_text_property},
    {"puthash", f_puthash},
    {"record", f_record},
    {"setcdr", f_setcdr},
    {"string-to-multibyte", f_string_to_multibyte},
    {"vector", f_vector},
};

static builtin find_builtin(const char *name)
{
    size_t lo = 0, hi = sizeof builtins / sizeof builtins[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(name, builtins[mid].name);
        if (c == 0)
            return builtins[mid].fn;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

static struct value *eval_symbol(struct ev *e, struct value *s)
{
    const char *name = s->u.sym.name;
    if (s == e->L->nil || s == e->L->t || name[0] == ':')
        return s;
    for (struct value *p = e->env; p->kind == VK_CONS; p = p->u.cons.cdr)
        if (p->u.cons.car->u.cons.car == s)
            return p->u.cons.car->u.cons.cdr;
    if (strcmp(name, "most-positive-fixnum") == 0)
        return value_int(e->L->a, VALUE_FIXNUM_MAX);
    if (strcmp(name, "most-negative-fixnum") == 0)
        return value_int(e->L->a, VALUE_FIXNUM_MIN);
    fail(e, "void-variable");
}

static struct value *eval_body(struct ev *e, struct value *body)
{
    struct value *r = e->L->nil;
    for (; body->kind == VK_CONS; body = body->u.cons.cdr)
        r = eval(e, body->u.cons.car);
    return r;
}

/* (let ((VAR INIT) ...) BODY...): inits in the outer scope, then bind. */
static struct value *eval_let(struct ev *e, struct value *form)
{
    struct value *rest = form->u.cons.cdr, *env = e->env;
    if (rest->kind != VK_CONS)
        fail(e, "malformed let");
    for (struct value *b = rest->u.cons.car; b->kind == VK_CONS; b = b->u.cons.cdr) {
        struct value *bind = b->u.cons.car, *var = bind, *val = e->L->nil;
        if (bind->kind == VK_CONS) {
            var = bind->u.cons.car;
            if (bind->u.cons.cdr->kind == VK_CONS)
                val = eval(e, bind->u.cons.cdr->u.cons.car);
        }
        if (var->kind != VK_SYMBOL || var == e->L->nil || var == e->L->t)
            fail(e, "let binds a non-variable");
        if (strcmp(var->u.sym.name, "lexical-binding") == 0)
            fail(e, "let of lexical-binding");
        env = value_cons(e->L->a, value_cons(e->L->a, var, val), env);
    }
    struct value *saved = e->env;
    e->env = env;
    struct value *r = eval_body(e, rest->u.cons.cdr);
    e->env = saved;
    return r;
}

static struct value *eval_call(struct ev *e, struct value *form)
{
    struct value *head = form->u.cons.car;
    if (head->kind != VK_SYMBOL)
        fail(e, "invalid-function");
    const char *name = head->u.sym.name;
    if (head == e->L->quote)
        return form->u.cons.cdr->kind == VK_CONS ? form->u.cons.cdr->u.cons.car : e->L->nil;
    if (strcmp(name, "let") == 0)
        return eval_let(e, form);
    if (strcmp(name, "progn") == 0)
        return eval_body(e, form->u.cons.cdr);
    builtin fn = find_builtin(name);
    if (!fn)
        fail(e, name);
    struct value *args[MAX_ARGS];
    size_t n = 0;
    for (struct value *p = form->u.cons.cdr; p->kind == VK_CONS; p = p->u.cons.cdr) {
        if (n == MAX_ARGS)
            fail(e, "too many arguments");
        args[n++] = eval(e, p->u.cons.car);
    }
    return fn(e, args, n);
}

static struct value *eval(struct ev *e, struct value *form)
{
    if (++e->depth > MAX_DEPTH)
        fail(e, "nesting too deep");
    struct value *r = form;
    if (form->kind == VK_SYMBOL)
        r = eval_symbol(e, form);
    else if (form->kind == VK_CONS)
        r = eval_call(e, form);
    e->depth--;
    return r;
}

bool minieval(struct lisp *L, struct value *form, struct value **out, const char **why)
{
    struct ev e;
    e.L = L;
    e.env = L->nil;
    e.why = NULL;
    e.depth = 0;
    if (setjmp(e.fail)) {
        *why = e.why;
        return false;
    }
    *out = eval(&e, form);
    return true;
}

/* ---- equal on possibly circular data ---- */

struct seen {
    const struct value **x, **y;
    size_t n, cap;
};

static bool seen_pair(struct seen *s, const struct value *x, const struct value *y)
{
    for (size_t k = 0; k < s->n; k++)
        if (s->x[k] == x && s->y[k] == y)
            return true;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->x = realloc(s->x, s->cap * sizeof *s->x);
        s->y = realloc(s->y, s->cap * sizeof *s->y);
        if (!s->x || !s->y)
            abort();
    }
    s->x[s->n] = x, s->y[s->n] = y, s->n++;
    return false;
}

static bool is_vectorlike(const struct value *v)
{
    return v->kind == VK_VECTOR || v->kind == VK_RECORD || v->kind == VK_BYTECODE ||
           v->kind == VK_CHARTABLE || v->kind == VK_SUBCHARTABLE;
}

/* Greatest fixpoint: a pair of containers met again is assumed equal. */
static bool equal_rec(struct seen *s, const struct value *x, const struct value *y, int depth)
{
    if (x == y)
        return true;
    if (x->kind != y->kind || depth > 100000)
        return false;
    if (x->kind != VK_CONS && !is_vectorlike(x))
        return value_equal(x, y);
    if (seen_pair(s, x, y))
        return true;
    if (x->kind == VK_CONS)
        return equal_rec(s, x->u.cons.car, y->u.cons.car, depth + 1) &&
               equal_rec(s, x->u.cons.cdr, y->u.cons.cdr, depth + 1);
    if (x->u.vec.n != y->u.vec.n)
        return false;
    for (size_t k = 0; k < x->u.vec.n; k++)
        if (!equal_rec(s, x->u.vec.items[k], y->u.vec.items[k], depth + 1))
            return false;
    return true;
}

bool minieval_equal(const struct value *x, const struct value *y)
{
    struct seen s = {NULL, NULL, 0, 0};
    bool r = equal_rec(&s, x, y, 0);
    free(s.x);
    free(s.y);
    return r;
}
