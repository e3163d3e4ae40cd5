/* print_fast.c - print_tree's fast path (see print.h).
 *
 * The --compact printer spends its time on expansions: trees of conses,
 * symbols and small atoms, printed without print-circle, print-length,
 * print-level or kept source text.  This walker does only that, with a
 * small fixed stack and none of the general walker's bookkeeping (path
 * entries, phases, labels).  It prints exactly what print.c's walker
 * prints for such a value, and gives up (false, b as before) as soon as
 * the value is anything else: nesting deeper than PRINT_FAST_DEPTH, a
 * list that runs in a circle, an object other than a cons, a plain vector
 * or an atom, a string with properties.  print_tree then starts again on
 * the general path, which decides what such a value prints as.
 *
 * Text goes through a local cursor: the room is checked once per value
 * (FAST_SLACK bytes cover the separators, a short token and the closing
 * brackets of every open frame), not once per byte or token.  Atoms
 * other than plain names, small integers and temporaries' texts go
 * through print_atom_opts, the general walker's own atom printer.
 */
#include "print_fast.h"

#include <string.h>

#include "../base/buf.h"

#define FAST_DEPTH PRINT_FAST_DEPTH

/* Names and texts up to this long are copied without a room check. */
#define FAST_SHORT 32

/* Names and temporaries' texts up to this long are copied as one 16-byte
 * move: an interned symbol's name is stored zero-padded to 16 bytes at
 * least (intern.h), and the table of temporaries keeps its texts so. */
#define FAST_NAME 16

/* Strings up to this long are written through the cursor. */
#define FAST_STRING 64

/* Room made sure of before each value: a separator or " . ", a quote
 * prefix or bracket, a short token, then the closing brackets of every
 * frame and the opening ones of as many (the loop opens lists and
 * closes them without a check of its own: only values check). */
#define FAST_SLACK (FAST_SHORT + 2 * FAST_DEPTH + 24)

/* Bytes printed before the first check for a list that runs in a circle
 * (a value of the benchmark's size is never checked). */
#define FAST_CYCLE_CHECK 32768

/* Temporaries whose text the walk keeps (a power of two). */
#define FAST_TEMPS 16

struct ffr {
    const struct value *cur; /* list: the next tail; vector: the vector;
                                wrap: the value inside */
    uint32_t k;              /* list: 0 before its first element, then 1
                                (its '(' is out either way); vector,
                                wrap: the next item */
    int8_t bq;               /* wrap: change made to the backquote level */
    uint8_t kind;            /* FK_* */
};

enum { FK_LIST, FK_VEC, FK_WRAP };

/* A temporary's text, asked of the caller's hook once per walk (the
 * symbol it belongs to is in struct fast's temp_sym, which alone needs
 * clearing for each walk). */
struct ftemp {
    uint32_t len;
    char text[FAST_NAME]; /* zero-padded */
};

struct fast {
    struct lisp *L;
    struct buf *b;
    const struct print_opts *o;
    const struct value *nil;
    /* Addresses from qlo to qlo + qspan hold the five symbols that head
     * a quote form (interned one after the other): one comparison keeps
     * nearly every list head from the exact test. */
    uintptr_t qlo, qspan;
    char *e;           /* end of the room the cursor may fill */
    size_t start, max; /* where the text starts in b, its most bytes */
    size_t check_at;   /* text's size at the next check for a circle */
    int bq;            /* backquote nesting, as the general walker counts it */
    bool bail;
    struct ffr *deepest; /* the last frame of st */
    /* Temporaries' texts, by the symbol's id (NULL: a free entry). */
    const struct value *temp_sym[FAST_TEMPS];
    struct ftemp temps[FAST_TEMPS];
    struct ffr st[FAST_DEPTH + 1]; /* a wrap frame around the value, then its frames */
};

/* Give up: the caller restores the buffer. */
static const struct value *fast_fail(struct fast *f)
{
    f->bail = true;
    return NULL;
}

/* f->e for the room now in b, at least need bytes: all of it, unless the
 * text may not grow that far before it is too long or due for a check
 * for a circle, then need bytes past that (the next room check comes in
 * time to do it). */
static inline void fast_set_end(struct fast *f, size_t need)
{
    struct buf *b = f->b;
    size_t room = b->cap - b->len - 1; /* the NUL's byte stays free */
    size_t used = b->len - f->start;
    size_t stop = f->max < f->check_at ? f->max : f->check_at;
    size_t left = used < stop ? stop - used : 0;
    if (left < room && need < room && left + need < room)
        room = left + need;
    f->e = b->data + b->len + room;
}

/* Does the list from tail c run in a circle?  Brent's algorithm (as
 * Emacs's FOR_EACH_TAIL_SAFE): the tortoise moves to the tail after 1,
 * 2, 4, 8 ... steps; meeting it in between is a circle. */
static bool circular(const struct value *c)
{
    const struct value *tortoise = c;
    for (uint64_t k = 1; c->kind == VK_CONS; k++) {
        c = c->u.cons.cdr;
        if ((k & (k - 1)) == 0)
            tortoise = c;
        else if (c == tortoise)
            return true;
    }
    return false;
}

/* The check for a circle, made when the text reaches f->check_at bytes
 * rather than at every element: the walk of a list that runs in a circle
 * never ends (each element adds a byte at least), so a check comes while
 * it is open.  Each checks the rest of every open list, up to frame top;
 * they come at twice the size each time, so their cost stays below the
 * walk's times the log of its length. */
static bool fast_cycle_check(struct fast *f, const struct ffr *top)
{
    f->check_at = f->check_at < SIZE_MAX / 4 ? 2 * f->check_at : SIZE_MAX / 2;
    for (const struct ffr *t = f->st; t <= top; t++)
        if (t->kind == FK_LIST && circular(t->cur))
            return true;
    return false;
}

/* Cursor p with at least need bytes of room after it; NULL when the
 * text is already longer than allowed or runs in a circle (top: the
 * top frame, its tail up to date). */
static char *fast_room(struct fast *f, const struct ffr *top, char *p, size_t need)
{
    struct buf *b = f->b;
    b->len = (size_t)(p - b->data);
    size_t used = b->len - f->start;
    if (used > f->max || (used >= f->check_at && fast_cycle_check(f, top))) {
        fast_fail(f);
        return NULL;
    }
    if (b->cap - b->len <= need)
        buf_reserve(b, need);
    fast_set_end(f, need);
    return b->data + b->len;
}

/* The cursor after a write through b (an atom printer): its end, with
 * a step's room. */
static char *fast_resume(struct fast *f, const struct ffr *top)
{
    char *p = f->b->data + f->b->len;
    fast_set_end(f, 0);
    return f->e - p < FAST_SLACK ? fast_room(f, top, p, FAST_SLACK) : p;
}

/* n bytes (room known) as at most two overlapping moves: no call for
 * the most frequent tokens. */
static inline char *copy_name(char *d, const char *s, size_t n)
{
    if (n > 16) {
        if (n > FAST_SHORT)
            memcpy(d, s, n);
        else
            memcpy(d, s, 16), memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n) {
        d[0] = s[0];
        d[n >> 1] = s[n >> 1];
        d[n - 1] = s[n - 1];
    }
    return d + n;
}

/* Text s of n bytes at the cursor. */
static inline char *fast_text(struct fast *f, const struct ffr *top, char *p, const char *s,
                              size_t n)
{
    if (n <= FAST_SHORT)
        return copy_name(p, s, n);
    if (f->e - p < (ptrdiff_t)(n + FAST_SLACK) && !(p = fast_room(f, top, p, n + FAST_SLACK)))
        return NULL;
    memcpy(p, s, n);
    return p + n;
}

/* An atom by the general walker's printer. */
static char *fast_atom_opts(struct fast *f, const struct ffr *top, char *p,
                            const struct value *v)
{
    f->b->len = (size_t)(p - f->b->data);
    print_atom_opts(f->b, v, f->o);
    return fast_resume(f, top);
}

/* Symbol v as print_symbol writes it, at p (room known). */
static char *fast_print_symbol(struct fast *f, const struct ffr *top, char *p,
                               const struct value *v)
{
    f->b->len = (size_t)(p - f->b->data);
    print_symbol(f->b, v, f->o->gensym);
    return fast_resume(f, top);
}

/* fast_temp's text t of n bytes (NULL: the hook has none for v). */
static __attribute__((noinline)) char *fast_temp_other(struct fast *f, const struct ffr *top,
                                                       char *p, const struct value *v,
                                                       const char *t, size_t n)
{
    return t ? fast_text(f, top, p, t, n) : fast_print_symbol(f, top, p, v);
}

/* An uninterned symbol, the caller's hook given, at p (room known): a
 * temporary's text, kept for its next occurrences when it is short, or
 * the symbol itself when the hook has no text for it.  Anything but a
 * short text is a tail call, so that the usual case keeps few
 * registers (it runs once per temporary and walk). */
static __attribute__((noinline)) char *fast_temp(struct fast *f, const struct ffr *top, char *p,
                                                 const struct value *v)
{
    size_t n = 0;
    const char *t = f->o->sym_text(f->o->sym_ctx, v, &n);
    if (!t || n > FAST_NAME)
        return fast_temp_other(f, top, p, v, t, n);
    size_t k = v->u.sym.id & (FAST_TEMPS - 1);
    struct ftemp *e = &f->temps[k];
    f->temp_sym[k] = v;
    e->len = (uint32_t)n;
    memset(e->text, 0, FAST_NAME);
    copy_name(e->text, t, n);
    memcpy(p, e->text, FAST_NAME);
    return p + n;
}

/* A symbol the loop does not copy itself: one not printed yet, one
 * that needs backslashes, a long name, a temporary met first. */
static char *fast_symbol(struct fast *f, const struct ffr *top, char *p, const struct value *v)
{
    const struct value_symbol *s = &v->u.sym;
    if (!s->interned && f->o->sym_text)
        return fast_temp(f, top, p, v);
    if (s->interned && print_symbol_plain(v))
        return fast_text(f, top, p, s->name, s->len);
    return fast_print_symbol(f, top, p, v);
}

/* A fixnum in decimal, as print_integer writes it (at most 20 bytes). */
static char *fast_int(char *p, int64_t i)
{
    if ((uint64_t)i < 10) {
        *p = (char)('0' + i);
        return p + 1;
    }
    char tmp[24], *q = tmp + sizeof tmp;
    uint64_t u = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
    do {
        *--q = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (i < 0)
        *--q = '-';
    return copy_name(p, q, (size_t)(tmp + sizeof tmp - q));
}

/* Is v a string print_string_short writes, with its room at p (the
 * usual string of a program)? */
static inline bool fast_short_string(const struct fast *f, const struct value *v,
                                     const char *p)
{
    return v->kind == VK_STRING && (!v->u.str.props || v->u.str.props == f->nil) &&
           v->u.str.len <= FAST_STRING && !f->o->escape_control && !f->o->escape_multibyte &&
           f->e - p >= 4 * FAST_STRING + 2 + FAST_SLACK;
}

/* Any other atom; NULL for what the fast path does not print. */
static char *fast_atom(struct fast *f, const struct ffr *top, char *p, const struct value *v)
{
    switch (v->kind) {
    case VK_INT:
        if (!f->o->integers_as_chars)
            return fast_int(p, v->u.i);
        return fast_atom_opts(f, top, p, v);
    case VK_STRING:
        if (v->u.str.props && v->u.str.props != f->nil)
            return NULL; /* printed with its properties: not a plain atom */
        if (v->u.str.len > FAST_STRING || f->o->escape_control || f->o->escape_multibyte)
            return fast_atom_opts(f, top, p, v);
        if (f->e - p < 4 * FAST_STRING + 2 + FAST_SLACK &&
            !(p = fast_room(f, top, p, 4 * FAST_STRING + 2 + FAST_SLACK)))
            return NULL;
        return print_string_short(p, v, f->o->escape_newlines);
    case VK_BIGNUM:
    case VK_FLOAT:
    case VK_BOOLVEC:
        return fast_atom_opts(f, top, p, v);
    default:
        return NULL;
    }
}

/* An atom, after a step's room is made sure of (top: the top frame, its
 * tail up to date); NULL for what the fast path does not print. */
static __attribute__((noinline)) char *fast_leaf(struct fast *f, const struct ffr *top,
                                                 char *p, const struct value *v)
{
    if (f->e - p < FAST_SLACK && !(p = fast_room(f, top, p, FAST_SLACK)))
        return NULL;
    /* the usual strings and integers without fast_atom's frame */
    if (fast_short_string(f, v, p))
        return print_string_short(p, v, f->o->escape_newlines);
    if (v->kind == VK_INT && !f->o->integers_as_chars)
        return fast_int(p, v->u.i);
    return v->kind == VK_SYMBOL ? fast_symbol(f, top, p, v) : fast_atom(f, top, p, v);
}

/* The loop's own copy of a symbol (cursor *pp, room up to lim): an
 * interned one known to print as its name, or a temporary whose text
 * this walk has; false for every other value.  A name longer than
 * FAST_NAME takes two moves, its last bytes and its first. */
static inline bool fast_name(const struct fast *f, const struct value *v, char **pp,
                             const char *lim)
{
    if (v->kind != VK_SYMBOL)
        return false;
    const char *s;
    size_t n;
    if (v->u.sym.plain == 1) {
        s = v->u.sym.name, n = v->u.sym.len;
        if (n > FAST_NAME) {
            if (n > FAST_SHORT || *pp > lim)
                return false;
            memcpy(*pp + n - FAST_NAME, s + n - FAST_NAME, FAST_NAME);
        } else if (*pp > lim) {
            return false;
        }
    } else {
        size_t k = v->u.sym.id & (FAST_TEMPS - 1);
        const struct ftemp *e = &f->temps[k];
        if (f->temp_sym[k] != v || *pp > lim)
            return false;
        s = e->text, n = e->len;
    }
    memcpy(*pp, s, FAST_NAME);
    *pp += n;
    return true;
}

/* fast_name for an interned symbol not printed before: its plain-name
 * cache is filled first (out of line), then fast_name copies it. */
static inline bool fast_new_name(const struct fast *f, const struct value *v, char **pp,
                                 const char *lim)
{
    if (v->kind != VK_SYMBOL || v->u.sym.plain || !v->u.sym.interned ||
        !print_symbol_plain(v))
        return false;
    return fast_name(f, v, pp, lim);
}

static bool quote_head(const struct lisp *L, const struct value *h)
{
    return h == L->quote || h == L->function || h == L->backquote || h == L->comma ||
           h == L->comma_at;
}

/* The prefix of quote form v (head h, print-quoted) around a name, as
 * print_quote_prefix writes it, at p: its end, or NULL when v prints as
 * a list (a comma outside a backquote, or before a name that starts
 * with @).  The change to the backquote level does not matter for a
 * name. */
static inline char *name_prefix(const struct fast *f, char *p, const struct value *h,
                                const struct value *x)
{
    const struct lisp *L = f->L;
    if (h == L->quote || h == L->function || h == L->backquote) {
        if (h == L->function)
            *p++ = '#';
        *p++ = h == L->backquote ? '`' : '\'';
        return p;
    }
    if (f->bq <= 0 || (h == L->comma && print_comma_needs_list(x)))
        return NULL;
    *p++ = ',';
    if (h == L->comma_at)
        *p++ = '@';
    return p;
}

/* 'X #'X `X ,X ,@X for a name X that fast_name or fast_new_name copies:
 * its prefix and X, and true; false for any other value (the bytes past
 * *pp may have changed).  Such a form needs no frame, but counts as one
 * toward the depth limit (t: the frame it is in), as everywhere else.
 * v's head is one of the five (or the caller's range test passed it:
 * then the tests below fail for any other symbol). */
static inline bool fast_quoted_name(const struct fast *f, const struct value *v, char **pp,
                                    const char *lim, const struct ffr *t)
{
    const struct value *rest = v->u.cons.cdr;
    if (!quote_head(f->L, v->u.cons.car) || rest->kind != VK_CONS ||
        rest->u.cons.cdr != f->nil || t == f->deepest)
        return false;
    char *p = name_prefix(f, *pp, v->u.cons.car, rest->u.cons.car);
    const struct value *x = rest->u.cons.car;
    if (!p || !(fast_name(f, x, &p, lim) || fast_new_name(f, x, &p, lim)))
        return false;
    *pp = p;
    return true;
}

/* A new top frame of kind over cur above t; NULL when too deep. */
static inline struct ffr *fast_push(struct fast *f, struct ffr *t, uint8_t kind,
                                    const struct value *cur)
{
    if (t == f->deepest)
        return (struct ffr *)fast_fail(f);
    t++;
    t->kind = kind;
    t->cur = cur;
    t->k = 0;
    return t;
}

/* Is list v opened inside the loop: no quote form, not too deep? */
static inline bool fast_opens(const struct fast *f, const struct value *v,
                              const struct ffr *t)
{
    return (uintptr_t)v->u.cons.car - f->qlo > f->qspan && t != f->deepest;
}

/* 'X #'X `X ,X ,@X (print-quoted), as the general walker's enter_quote
 * (print_quote_prefix's rules, as name_prefix writes them): the prefix
 * and a frame that prints X above *pt; when X is a list, its frame too,
 * the wrap's item taken (what fast_walk's next turn would do).  False
 * when v prints as a list (or the walk gave up). */
static bool fast_quote(struct fast *f, struct ffr **pt, char **pp, const struct value *v)
{
    const struct lisp *L = f->L;
    const struct value *h = v->u.cons.car, *rest = v->u.cons.cdr, *arg;
    char *p;
    if (!quote_head(L, h) || rest->kind != VK_CONS || rest->u.cons.cdr != f->nil ||
        !(p = name_prefix(f, *pp, h, arg = rest->u.cons.car)))
        return false;
    struct ffr *t = fast_push(f, *pt, FK_WRAP, arg);
    if (!t)
        return true;
    t->bq = h == L->backquote ? 1 : h == L->comma || h == L->comma_at ? -1 : 0;
    f->bq += t->bq;
    if (arg->kind == VK_CONS && fast_opens(f, arg, t)) {
        t->k = 1;
        *p++ = '(';
        t = fast_push(f, t, FK_LIST, arg);
    }
    *pt = t;
    *pp = p;
    return true;
}

/* Print v: an atom, or the opening of its container (a new frame above
 * *pt). */
static inline char *fast_value(struct fast *f, struct ffr **pt, char *p,
                               const struct value *v)
{
    if (f->e - p < FAST_SLACK && !(p = fast_room(f, *pt, p, FAST_SLACK)))
        return NULL;
    if (v->kind == VK_SYMBOL)
        return fast_symbol(f, *pt, p, v);
    if (v->kind == VK_CONS) {
        if ((uintptr_t)v->u.cons.car - f->qlo <= f->qspan && fast_quote(f, pt, &p, v))
            return p;
        *p++ = '(';
        *pt = fast_push(f, *pt, FK_LIST, v);
        return p;
    }
    if (v->kind == VK_VECTOR) {
        *p++ = '[';
        *pt = fast_push(f, *pt, FK_VEC, v);
        return p;
    }
    return fast_atom(f, *pt, p, v);
}

/* Does v go to the caller's hook (an uninterned symbol, a hook given)? */
static inline bool fast_is_temp(const struct fast *f, const struct value *v)
{
    return v->kind == VK_SYMBOL && !v->u.sym.interned && f->o->sym_text;
}

/* The lists on top of the stack, from frame *pt: plain names (most of
 * the text), temporaries and atoms are printed here, and lists inside
 * are opened and closed here, their state in registers (in memory, the
 * bytes written through the cursor would make the compiler reload it
 * after every store).  Returns the first other value, to print next, or
 * NULL when the top frame is no longer a list (or the walk gave up). */
static inline const struct value *fast_lists(struct fast *f, struct ffr **pt, char **pp)
{
    struct ffr *t = *pt;
    char *p = *pp, *lim = f->e - FAST_SLACK; /* a step's room ends here */
    const struct value *c = t->cur, *v = NULL;
    if (!t->k) {
        t->k = 1;
        goto first; /* c is the list: its '(' is out */
    }
    for (;;) {
        if (c->kind != VK_CONS) {
            if (__builtin_expect(c != f->nil, 0)) { /* a dotted tail: the frame closes at its next turn */
                memcpy(p, " . ", 3);
                p += 3;
                v = c;
                t->cur = f->nil, t->k = 1;
                break;
            }
            *p++ = ')';
            if (__builtin_expect((--t)->kind != FK_LIST, 0)) {
                v = NULL;
                break;
            }
            c = t->cur;
            continue;
        }
        *p++ = ' ';
    first:
        v = c->u.cons.car;
        c = c->u.cons.cdr;
    element:
        if (fast_name(f, v, &p, lim))
            continue;
        if (v->kind == VK_CONS && fast_opens(f, v, t)) {
            t->cur = c;
            (++t)->kind = FK_LIST;
            *p++ = '(';
            c = v->u.cons.cdr, v = v->u.cons.car; /* its first element */
            goto element;
        }
        if (v->kind == VK_CONS ? fast_quoted_name(f, v, &p, lim, t)
                               : fast_new_name(f, v, &p, lim))
            continue;
        t->cur = c, t->k = 1;
        if (v->kind == VK_CONS || v->kind == VK_VECTOR)
            break;
        p = fast_is_temp(f, v) && p <= lim ? fast_temp(f, t, p, v) : fast_leaf(f, t, p, v);
        if (!p)
            return fast_fail(f);
        lim = f->e - FAST_SLACK;
    }
    *pt = t;
    *pp = p;
    return v;
}
/* The next value of vector or wrap frame t (NULL: the frame is over). */
static inline const struct value *fast_item(struct ffr *t, char **pp)
{
    if (t->kind == FK_WRAP)
        return t->k++ ? NULL : t->cur;
    if (t->k == t->cur->u.vec.n)
        return NULL;
    if (t->k)
        *(*pp)++ = ' ';
    return t->cur->u.vec.items[t->k++];
}

/* End vector or wrap frame t: its bracket, or the backquote level back. */
static inline char *fast_close(struct fast *f, const struct ffr *t, char *p)
{
    if (t->kind == FK_VEC)
        *p++ = ']';
    else
        f->bq -= t->bq;
    return p;
}

/* Print v: a wrap frame around it (no text), then a frame per turn. */
static void fast_walk(struct fast *f, const struct value *v)
{
    char *p = f->b->data + f->b->len;
    struct ffr *t = f->st;
    t->kind = FK_WRAP;
    t->cur = v;
    t->k = 0;
    t->bq = 0;
    /* The usual value, a list, is opened at once (in fast_init's room),
     * without the turns that take the wrap's item and print it. */
    if (v->kind == VK_CONS && fast_opens(f, v, t)) {
        t->k = 1;
        *p++ = '(';
        t = fast_push(f, t, FK_LIST, v);
    }
    for (;;) {
        if (t->kind == FK_LIST) {
            v = fast_lists(f, &t, &p);
        } else if (!(v = fast_item(t, &p))) {
            p = fast_close(f, t, p);
            if (t == f->st)
                break;
            t--;
        }
        if (v && !(p = fast_value(f, &t, p, v)))
            fast_fail(f);
        if (f->bail)
            return;
    }
    f->b->len = (size_t)(p - f->b->data);
}

bool print_fast_usable(const struct print_opts *o)
{
    return !o->circle && o->length < 0 && o->level < 0 && !o->atom_text;
}

static inline uintptr_t umin(uintptr_t a, uintptr_t b) { return a < b ? a : b; }
static inline uintptr_t umax(uintptr_t a, uintptr_t b) { return a > b ? a : b; }

/* State for printing into b; the quote heads' range only with
 * print-quoted. */
static void fast_init(struct fast *f, struct lisp *L, struct buf *b,
                      const struct print_opts *o, size_t max)
{
    f->L = L;
    f->b = b;
    f->o = o;
    f->nil = L->nil;
    uintptr_t q1 = (uintptr_t)L->quote, q2 = (uintptr_t)L->function;
    uintptr_t q3 = (uintptr_t)L->backquote, q4 = (uintptr_t)L->comma;
    uintptr_t q5 = (uintptr_t)L->comma_at;
    uintptr_t lo = umin(umin(umin(q1, q2), umin(q3, q4)), q5);
    uintptr_t hi = umax(umax(umax(q1, q2), umax(q3, q4)), q5);
    f->qlo = o->quoted ? lo : UINTPTR_MAX; /* UINTPTR_MAX: no head is in range */
    f->qspan = o->quoted ? hi - lo : 0;
    f->deepest = &f->st[FAST_DEPTH];
    f->start = b->len;
    f->max = max;
    f->bq = 0;
    f->bail = false;
    f->check_at = FAST_CYCLE_CHECK;
    memset(f->temp_sym, 0, sizeof f->temp_sym);
    if (b->cap - b->len <= FAST_SLACK)
        buf_reserve(b, FAST_SLACK);
    fast_set_end(f, FAST_SLACK);
}

bool print_tree_fast(struct lisp *L, struct buf *b, const struct value *v,
                     const struct print_opts *o, size_t max)
{
    if (!print_fast_usable(o))
        return false;
    struct fast f;
    fast_init(&f, L, b, o, max);
    fast_walk(&f, v);
    if (!f.bail && b->len - f.start > max)
        f.bail = true;
    if (f.bail)
        b->len = f.start;
    b->data[b->len] = 0;
    return !f.bail;
}

bool print_fast(struct lisp *L, struct buf *b, const struct value *v,
                const struct print_opts *o)
{
    return print_tree_fast(L, b, v, o, SIZE_MAX);
}
