/* print_fast.c - print_tree's fast path (see print.h).
 *
 * The --compact printer spends its time on expansions: trees of conses,
 * symbols and small atoms, printed without print-circle, print-length,
 * print-level or kept source text.  This walker does only that, with a
 * small fixed stack and none of the general walker's bookkeeping (path
 * entries, phases, labels).  It prints exactly what print.c's walker
 * prints for such a value, and gives up (false, b as before) as soon as
 * the value is anything else: nesting deeper than FAST_DEPTH, a list that
 * runs in a circle, an object other than a cons, a plain vector or an
 * atom, a string with properties.  print_tree then starts again on the
 * general path, which decides what such a value prints as.
 */
#include "print_fast.h"

#include "../base/buf.h"
#include "print_out.h"

/* Deeper values take the general path, which checks the path for data
 * inside itself below PRINT_PATH_SCAN (256) only: stopping shallower
 * keeps the two paths' verdicts on every tree the same. */
#define FAST_DEPTH 200

struct ffr {
    const struct value *cur;      /* list: tail; vector: the vector */
    const struct value *tortoise; /* list: Brent's cycle check */
    uint32_t i;                   /* elements printed */
    uint32_t left, max;           /* list: steps to the next tortoise move */
    int8_t bq;                    /* wrap: change made to the backquote level */
    uint8_t kind;                 /* FK_* */
};

enum { FK_LIST, FK_VEC, FK_WRAP };

struct fast {
    struct lisp *L;
    struct buf *b;
    const struct print_opts *o;
    struct ffr st[FAST_DEPTH];
    int n;      /* frames in use */
    int bq;     /* backquote nesting, as the general walker counts it */
    bool bail;
};

static struct ffr *fpush(struct fast *f, const struct value *v, uint8_t kind)
{
    if (f->n == FAST_DEPTH) {
        f->bail = true;
        return NULL;
    }
    struct ffr *r = &f->st[f->n++];
    r->cur = r->tortoise = v;
    r->i = 0;
    r->left = r->max = 2;
    r->bq = 0;
    r->kind = kind;
    return r;
}

/* Only a list headed by one of these symbols can print as a quote form;
 * most conses are not. */
static inline bool quote_head(const struct lisp *L, const struct value *h)
{
    return h == L->quote || h == L->function || h == L->backquote || h == L->comma ||
           h == L->comma_at;
}

/* 'X #'X `X ,X ,@X (print-quoted), as the general walker's enter_quote. */
static bool fquote(struct fast *f, const struct value *v)
{
    int8_t bq;
    const struct value *arg;
    if (!print_quote_prefix(f->L, f->b, v, f->bq, &bq, &arg))
        return false;
    struct ffr *r = fpush(f, arg, FK_WRAP);
    if (r) {
        f->bq += bq;
        r->bq = bq;
    }
    return true;
}

/* Print an atom, or open the frame of a container. */
static void fvalue(struct fast *f, const struct value *v)
{
    switch (v->kind) {
    case VK_CONS:
        if (f->o->quoted && quote_head(f->L, v->u.cons.car) && fquote(f, v))
            return;
        out_putc(f->b, '(');
        fpush(f, v, FK_LIST);
        return;
    case VK_VECTOR:
        out_putc(f->b, '[');
        fpush(f, v, FK_VEC);
        return;
    case VK_SYMBOL:
        /* most symbols: interned (no hook, no #:), known to need no
         * backslash (print_symbol's cache) */
        if (v->u.sym.interned && v->u.sym.plain == 1)
            out_name(f->b, v->u.sym.name, v->u.sym.len);
        else
            print_atom_opts(f->b, v, f->o);
        return;
    case VK_STRING:
        if (v->u.str.props && v->u.str.props != f->L->nil) {
            f->bail = true; /* printed with its properties: not a plain atom */
            return;
        }
        print_atom_opts(f->b, v, f->o);
        return;
    case VK_INT:
    case VK_BIGNUM:
    case VK_FLOAT:
    case VK_BOOLVEC:
        print_atom_opts(f->b, v, f->o);
        return;
    default:
        f->bail = true;
        return;
    }
}

/* One step of the list frame r: the next element, or the end. */
static void flist(struct fast *f, struct ffr *r)
{
    const struct value *c = r->cur;
    if (c->kind != VK_CONS) {
        if (c != f->L->nil) {
            OUT_LIT(f->b, " . ");
            r->cur = f->L->nil;
            fvalue(f, c);
            return; /* the frame closes at its next step */
        }
        out_putc(f->b, ')');
        f->n--;
        return;
    }
    if (r->i++)
        out_putc(f->b, ' ');
    r->cur = c->u.cons.cdr;
    if (--r->left == 0) {
        r->max <<= 1;
        r->left = r->max;
        r->tortoise = r->cur;
    } else if (r->cur == r->tortoise) {
        f->bail = true; /* a circular list */
        return;
    }
    fvalue(f, c->u.cons.car);
}

static void fvec(struct fast *f, struct ffr *r)
{
    const struct value *v = r->cur;
    if (r->i == v->u.vec.n) {
        out_putc(f->b, ']');
        f->n--;
        return;
    }
    if (r->i)
        out_putc(f->b, ' ');
    fvalue(f, v->u.vec.items[r->i++]);
}

/* The quoted object first, then the frame ends. */
static void fwrap(struct fast *f, struct ffr *r)
{
    if (r->i++ == 0) {
        fvalue(f, r->cur);
        return;
    }
    f->bq -= r->bq;
    f->n--;
}

bool print_fast_usable(const struct print_opts *o)
{
    return !o->circle && o->length < 0 && o->level < 0 && !o->atom_text;
}

bool print_fast(struct lisp *L, struct buf *b, const struct value *v,
                const struct print_opts *o)
{
    struct fast f;
    f.L = L;
    f.b = b;
    f.o = o;
    f.n = 0;
    f.bq = 0;
    f.bail = false;
    size_t len = b->len;
    fvalue(&f, v);
    while (f.n && !f.bail) {
        struct ffr *r = &f.st[f.n - 1];
        switch (r->kind) {
        case FK_LIST: flist(&f, r); break;
        case FK_VEC: fvec(&f, r); break;
        default: fwrap(&f, r); break;
        }
    }
    if (f.bail)
        b->len = len;
    out_end(b);
    return !f.bail;
}
