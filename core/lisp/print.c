/* print.c - value -> text, exactly as Emacs 30.1's prin1-to-string.
 *
 * Layer `lisp`: --compact output and all printing of generated code.  An
 * explicit stack of frames (print_walk.h) replaces Emacs's recursive
 * print_object, so deep data never touches the C stack.  Atoms are in
 * print_atom.c, labels and the path check in print_circle.c.
 */
#include "print.h"

#include <string.h>

#include "print_fast.h"
#include "print_out.h"
#include "print_walk.h"

struct print_opts print_opts_default(void)
{
    /* the rest zero: false, NULL */
    return (struct print_opts){.quoted = true, .length = -1, .level = -1, .charset_props = 2};
}

struct print_opts print_opts_compact(void)
{
    struct print_opts o = print_opts_default();
    o.escape_newlines = true;
    return o;
}

static void put_uint(struct buf *b, uint64_t u)
{
    char tmp[24], *p = tmp + sizeof tmp;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    out_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

/* ---- frames ---- */

/* A frame for obj.  Every kind but the wrap of 'X and #'X is one level
 * of Emacs's print depth (what `#N` and print-level count): Emacs prints
 * X in place of the quote form, at its depth. */
static struct frame *push(struct pstate *s, const struct value *obj,
                          enum frame_kind kind, bool level)
{
    if (s->n == s->cap) {
        size_t cap = s->cap * 2;
        struct frame *st = arena_alloc(s->L->a, cap * sizeof *st);
        memcpy(st, s->st, s->n * sizeof *st);
        s->st = st;
        s->cap = cap;
    }
    if (!s->o->circle && level && !s->known_tree)
        print_path_add(s, obj, s->depth);
    if (s->tree && s->n >= PRINT_TREE_MAX_DEPTH)
        s->bail = true;
    struct frame *f = &s->st[s->n++];
    f->obj = obj;
    f->cur = obj;
    f->kind = (uint8_t)kind;
    f->phase = 0;
    f->bq = 0;
    f->level = level;
    s->depth += level;
    return f;
}

/* Finish the top frame: write its closing text. */
static void pop(struct pstate *s, const char *close, size_t n)
{
    out_put(s->b, close, n);
    const struct frame *f = &s->st[--s->n];
    s->depth -= f->level;
    if (!s->o->circle && f->level)
        print_path_remove(s, f->obj, s->depth);
}

#define POP_LIT(s, lit) pop((s), (lit), sizeof(lit) - 1)

static void emit_value(struct pstate *s, const struct value *v);

/* List frame phases: the first element next, the others, the `)` after
 * a dotted tail. */
enum { LIST_FIRST, LIST_LOOP, LIST_CLOSE };

/* ---- atoms ---- */

static bool is_nil(const struct pstate *s, const struct value *v)
{
    return v == s->L->nil;
}

/* A symbol: the caller's text for it (temporaries), else its name. */
static void print_symbol_opts(struct buf *b, const struct value *v,
                              const struct print_opts *o)
{
    if (o->sym_text && !v->u.sym.interned) {
        size_t n = 0;
        const char *t = o->sym_text(o->sym_ctx, v, &n);
        if (t) {
            out_put(b, t, n);
            return;
        }
    }
    print_symbol(b, v, o->gensym);
}

void print_atom_opts(struct buf *b, const struct value *v, const struct print_opts *o)
{
    switch (v->kind) {
    case VK_INT:
    case VK_BIGNUM:
        print_integer(b, v, o->integers_as_chars);
        break;
    case VK_FLOAT:
        print_float_format(b, v->u.f, o->float_format);
        break;
    case VK_SYMBOL:
        print_symbol_opts(b, v, o);
        break;
    case VK_STRING:
        print_string_text(b, v, o);
        break;
    default:
        print_boolvec(b, v, o);
        break;
    }
}

static void print_atom(struct pstate *s, const struct value *v)
{
    print_atom_opts(s->b, v, s->o);
}

/* Kinds whose objects contain others (they get frames and path entries;
 * strings only when they have properties), and kinds whose source text
 * the caller may keep (symbols are shared, so they have none). */
static const bool container_kind[] = {
    [VK_CONS] = true, [VK_VECTOR] = true, [VK_RECORD] = true,
    [VK_BYTECODE] = true, [VK_CHARTABLE] = true, [VK_SUBCHARTABLE] = true,
    [VK_HASHTABLE] = true,
};
static const bool source_kind[] = {
    [VK_INT] = true, [VK_BIGNUM] = true, [VK_FLOAT] = true,
    [VK_STRING] = true, [VK_BOOLVEC] = true,
};

/* The source text of an atom read from input, when the caller keeps it. */
static bool emit_source_text(struct pstate *s, const struct value *v)
{
    if (!s->o->atom_text || !source_kind[v->kind])
        return false;
    size_t n = 0;
    const uint8_t *t = s->o->atom_text(s->o->atom_ctx, v, &n);
    if (!t)
        return false;
    out_put(s->b, t, n);
    return true;
}

/* ---- labels and the path check ---- */

static bool is_container(const struct pstate *s, const struct value *v)
{
    if (v->kind == VK_STRING)
        return v->u.str.props && !is_nil(s, v->u.str.props);
    return container_kind[v->kind];
}

/* Does the top frame wrap 'X or #'X (a frame that is no level)? */
static bool in_quote_wrap(const struct pstate *s)
{
    return s->n && !s->st[s->n - 1].level;
}

/* The 'X and #'X wraps opened one inside the other at one depth form a
 * chain, which Emacs keeps off its path: a quote form that quotes itself
 * (#1=(quote #1#)) makes Emacs print forever.  Here the chain is watched
 * as Brent's method watches a list (the tortoise moves to the newest
 * wrap after 2, 4, 8 ... wraps), and the form met again is printed as if
 * it were on the path at this depth.  Called before the wrap of v is
 * pushed. */
static void quote_chain_step(struct pstate *s, const struct value *v)
{
    if (!in_quote_wrap(s) || ++s->chain_steps == s->chain_lim) {
        s->chain_lim = in_quote_wrap(s) ? s->chain_lim << 1 : 2;
        s->chain_steps = 0;
        s->chain_tortoise = v;
    }
}

static bool quoted_by_itself(const struct pstate *s, const struct value *v)
{
    return in_quote_wrap(s) && v == s->chain_tortoise;
}

/* Write v's `#N=` label, or the reference that replaces v (`#N#` with
 * print-circle, `#D` for an object already being printed D levels up
 * without it).  False when v has been printed that way. */
static bool emit_label(struct pstate *s, const struct value *v)
{
    if (!s->o->circle) {
        if (!is_container(s, v) || s->known_tree)
            return true;
        /* A tree is printed until it is known to contain itself: that
         * is found late enough by the sampled deep entries alone (a
         * cycle makes the path grow past them), which spares the scan
         * of the whole path at every container. */
        long d = s->tree && s->depth < PRINT_PATH_SCAN ? -1 : print_path_find(s, v);
        if (d < 0 && quoted_by_itself(s, v))
            d = (long)s->depth;
        if (d < 0)
            return true;
        s->bail = s->bail || s->tree; /* v contains itself: not a tree */
        out_putc(s->b, '#');
        put_uint(s->b, (uint64_t)d);
        return false;
    }
    if (!print_candidate(s, v))
        return true;
    int32_t st = print_label_get(s, v);
    if (st == 0 || st == PRINT_SEEN)
        return true;
    out_putc(s->b, '#');
    put_uint(s->b, (uint64_t)(st < 0 ? -st : st));
    if (st > 0) {
        out_putc(s->b, '#');
        return false;
    }
    out_putc(s->b, '=');
    print_label_set_printed(s, v);
    return true;
}

/* ---- lists and quote forms ---- */

bool print_comma_needs_list(const struct value *x)
{
    return x->kind == VK_SYMBOL && x->u.sym.len > 0 && x->u.sym.name[0] == '@';
}

bool print_quote_prefix(const struct lisp *L, struct buf *b, const struct value *v,
                        int bq_level, int8_t *bq, const struct value **arg)
{
    const struct value *head = v->u.cons.car, *rest = v->u.cons.cdr;
    if (rest->kind != VK_CONS || rest->u.cons.cdr != L->nil)
        return false;
    *bq = 0;
    if (head == L->quote)
        out_putc(b, '\'');
    else if (head == L->function)
        OUT_LIT(b, "#'");
    else if (head == L->backquote)
        out_putc(b, '`'), *bq = 1;
    else if ((head == L->comma || head == L->comma_at) && bq_level > 0 &&
             !(head == L->comma && print_comma_needs_list(rest->u.cons.car))) {
        out_put(b, head->u.sym.name, head->u.sym.len);
        *bq = -1;
    } else
        return false;
    *arg = rest->u.cons.car;
    return true;
}

/* A quote form printed abbreviated: pushes a frame that prints X. */
static bool enter_quote(struct pstate *s, const struct value *v)
{
    int8_t bq;
    const struct value *arg;
    if (!print_quote_prefix(s->L, s->b, v, s->bq, &bq, &arg))
        return false;
    s->bq += bq;
    /* In a known tree, a quote form right inside another (``x aside)
     * takes its frame: the outer one had nothing left to print. */
    struct frame *top = s->n ? &s->st[s->n - 1] : NULL;
    bool inner = top && top->kind == F_WRAP && top->phase == 1 && top->cur == v;
    if (s->known_tree && inner && bq == 0 && top->bq == 0 && s->o->level < 0) {
        top->obj = v;
        top->cur = arg;
        top->phase = 0;
        return true;
    }
    if (bq == 0)
        quote_chain_step(s, v);
    struct frame *f = push(s, v, F_WRAP, bq != 0); /* ` and , count a level */
    f->cur = arg;
    f->bq = bq;
    return true;
}

static void wrap_step(struct pstate *s, struct frame *f)
{
    if (f->phase == 0) {
        f->phase = 1;
        emit_value(s, f->cur);
        return;
    }
    s->bq -= f->bq;
    pop(s, "", 0);
}

/* A cons: "..." past print-level, a quote form abbreviated, else a list
 * whose frame prints the elements (print-length 0 prints "(...)"). */
static void enter_cons(struct pstate *s, const struct value *v)
{
    if (s->o->level >= 0 && (long)s->depth + 1 > s->o->level) {
        OUT_LIT(s->b, "...");
        return;
    }
    if (s->o->quoted && enter_quote(s, v))
        return;
    if (s->o->length == 0) {
        OUT_LIT(s->b, "(...)");
        return;
    }
    out_putc(s->b, '(');
    struct frame *f = push(s, v, F_LIST, true);
    f->phase = LIST_FIRST;
    f->u.list.tortoise = v;
    f->u.list.left = s->o->length > 0 ? (uint64_t)s->o->length : UINT64_MAX;
    f->u.list.n = f->u.list.m = 2;
    f->u.list.tortoise_at = 0;
}

/* The end of a list, or its tail after " . ". */
static void list_end(struct pstate *s, struct frame *f, const struct value *tail)
{
    if (is_nil(s, tail)) {
        POP_LIT(s, ")");
        return;
    }
    OUT_LIT(s->b, " . ");
    f->phase = LIST_CLOSE;
    emit_value(s, tail);
}

/* The element after the one printed last (f->cur its cons), as Emacs's
 * printer goes on: a tail with a print-circle label is printed as a
 * dotted tail; print-length cuts the list with "..."; and Brent's method
 * (the tortoise jumps to the tail after 2, 4, 8 ... elements) finds a
 * circular tail, printed `. #I` with I the index of the tortoise's
 * element. */
static void list_once(struct pstate *s, struct frame *f)
{
    if (f->phase == LIST_CLOSE) {
        POP_LIT(s, ")");
        return;
    }
    if (f->phase == LIST_FIRST) {
        f->phase = LIST_LOOP;
        emit_value(s, f->cur->u.cons.car);
        return;
    }
    const struct value *next = f->cur->u.cons.cdr;
    if (next->kind != VK_CONS) {
        list_end(s, f, next);
        return;
    }
#ifdef __GNUC__
    __builtin_prefetch(next->u.cons.cdr); /* needed after the element: hide the miss */
#endif
    int32_t st = s->o->circle ? print_label_get(s, next) : 0;
    if (st != 0 && st != PRINT_SEEN) { /* a shared tail */
        list_end(s, f, next);
        return;
    }
    out_putc(s->b, ' ');
    if (--f->u.list.left == 0) {
        POP_LIT(s, "...)");
        return;
    }
    f->cur = next;
    if (--f->u.list.n == 0) {
        f->u.list.tortoise_at += f->u.list.m;
        f->u.list.m <<= 1;
        f->u.list.n = f->u.list.m;
        f->u.list.tortoise = next;
    } else if (next == f->u.list.tortoise) {
        s->bail = s->bail || s->tree; /* a circular list */
        OUT_LIT(s->b, ". #");
        put_uint(s->b, f->u.list.tortoise_at);
        POP_LIT(s, ")");
        return;
    }
    emit_value(s, next->u.cons.car);
}

/* Steps of one list while they neither open a container (whose frame then
 * takes over) nor finish the list: runs of atoms stay in this loop. */
static void list_step(struct pstate *s, struct frame *f)
{
    size_t n = s->n;
    do
        list_once(s, f);
    while (s->n == n);
}

/* ---- vector-like objects ---- */

/* "#^^[DEPTH MINCHAR" (Emacs 30 starts no new line before a depth-3
 * table).  False (nothing written) when the two header slots are not
 * integers. */
static bool subchar_header(struct pstate *s, const struct value *v)
{
    const struct value_vec *x = &v->u.vec;
    if (x->n < 2 || x->items[0]->kind != VK_INT || x->items[1]->kind != VK_INT)
        return false;
    OUT_LIT(s->b, "#^^[");
    print_integer(s->b, x->items[0], false);
    out_putc(s->b, ' ');
    print_integer(s->b, x->items[1], false);
    return true;
}

static void enter_vec(struct pstate *s, const struct value *v)
{
    size_t first = 0, real = v->u.vec.n;
    char close = ']';
    switch (v->kind) {
    case VK_RECORD: OUT_LIT(s->b, "#s("), close = ')'; break;
    case VK_BYTECODE: OUT_LIT(s->b, "#["); break;
    case VK_CHARTABLE: OUT_LIT(s->b, "#^["); break;
    case VK_SUBCHARTABLE:
        /* Emacs's slot 0 holds depth and min-char; contents are slots 1.. */
        if (subchar_header(s, v))
            first = 1, real = v->u.vec.n - 1;
        else
            OUT_LIT(s->b, "#^^[");
        break;
    default: out_putc(s->b, '['); break;
    }
    size_t end = s->o->length >= 0 && (size_t)s->o->length < real
                     ? (size_t)s->o->length : real;
    struct frame *f = push(s, v, F_VEC, true);
    f->u.vec.i = first;
    f->u.vec.end = end;
    f->u.vec.real = real;
    f->off = (uint8_t)first;
    f->close = close;
}

/* Elements until one opens a container (as list_step) or the end. */
static void vec_step(struct pstate *s, struct frame *f)
{
    size_t n = s->n;
    while (f->u.vec.i < f->u.vec.end) {
        if (f->u.vec.i)
            out_putc(s->b, ' ');
        const struct value *item = f->obj->u.vec.items[f->u.vec.i + f->off];
        f->u.vec.i++;
        emit_value(s, item);
        if (s->n != n)
            return;
    }
    if (f->u.vec.end < f->u.vec.real && f->u.vec.i > 0)
        OUT_LIT(s->b, " ...");
    else if (f->u.vec.end < f->u.vec.real)
        OUT_LIT(s->b, "...");
    pop(s, &f->close, 1);
}

/* ---- hash tables (Emacs 30 format) ---- */

/* "#s(hash-table" with test (unless eql), weakness and purecopy, then
 * " data (K V ...))" when the table has pairs, else ")".  print-length
 * L shows L pairs and "...". */
static void enter_hash(struct pstate *s, const struct value *v)
{
    const struct value_hash *h = &v->u.hash;
    OUT_LIT(s->b, "#s(hash-table");
    if (h->test && strcmp(h->test->u.sym.name, "eql") != 0) {
        OUT_LIT(s->b, " test ");
        print_atom(s, h->test);
    }
    if (h->weakness && !is_nil(s, h->weakness)) {
        OUT_LIT(s->b, " weakness ");
        print_atom(s, h->weakness);
    }
    if (h->purecopy)
        OUT_LIT(s->b, " purecopy t");
    long pairs = value_list_length(h->data, s->L->nil);
    size_t count = pairs > 0 ? (size_t)pairs / 2 : 0;
    if (count == 0) {
        out_putc(s->b, ')');
        return;
    }
    OUT_LIT(s->b, " data (");
    struct frame *f = push(s, v, F_HASH, true);
    f->cur = h->data;
    f->u.hash.j = 0;
    f->u.hash.count = count;
    f->u.hash.lim = s->o->length >= 0 && (size_t)s->o->length < count
                        ? (size_t)s->o->length : count;
}

/* One key or value per step, then "...", if print-length cut the pairs,
 * and "))". */
static void hash_step(struct pstate *s, struct frame *f)
{
    if (f->u.hash.j == 2 * f->u.hash.lim) {
        if (f->u.hash.lim < f->u.hash.count && f->u.hash.j)
            OUT_LIT(s->b, " ...");
        else if (f->u.hash.lim < f->u.hash.count)
            OUT_LIT(s->b, "...");
        POP_LIT(s, "))");
        return;
    }
    if (f->u.hash.j++)
        out_putc(s->b, ' ');
    const struct value *c = f->cur;
    f->cur = c->u.cons.cdr;
    emit_value(s, c->u.cons.car);
}

/* ---- strings with text properties ---- */

/* Emacs's charset of character c, approximated for the charset-property
 * check: eight-bit for raw bytes, unicode up to U+10FFFF; NULL (never
 * matches) beyond, where it depends on the language environment. */
static const char *char_charset(uint32_t c)
{
    if (c >= 0x3FFF80)
        return "eight-bit";
    return c <= 0x10FFFF ? "unicode" : NULL;
}

/* Does characters [beg, end) of s contain a non-ASCII character whose
 * charset is not the symbol cs? */
static bool charset_unsafe(const struct value *s, const struct value *beg,
                           const struct value *end, const struct value *cs)
{
    if (beg->kind != VK_INT || end->kind != VK_INT)
        return false;
    const struct value_string *x = &s->u.str;
    size_t k = 0;
    for (int64_t ch = 0; k < x->len && ch < end->u.i; ch++) {
        int len = 1;
        uint32_t c = x->multibyte ? value_char_decode(x->data + k, x->len - k, &len)
                                  : x->data[k];
        k += (size_t)len;
        if (ch < beg->u.i || c < 0x80)
            continue;
        const char *name = char_charset(c);
        if (!name || cs->kind != VK_SYMBOL || strcmp(cs->u.sym.name, name) != 0)
            return true;
    }
    return false;
}

/* The value of the first `charset` key of plist p, or NULL. */
static const struct value *plist_charset(const struct value *p)
{
    for (; p->kind == VK_CONS && p->u.cons.cdr->kind == VK_CONS;
         p = p->u.cons.cdr->u.cons.cdr) {
        const struct value *k = p->u.cons.car;
        if (k->kind == VK_SYMBOL && k->u.sym.interned && strcmp(k->u.sym.name, "charset") == 0)
            return p->u.cons.cdr->u.cons.car;
    }
    return NULL;
}

static bool is_charset_key(const struct value *k)
{
    return k->kind == VK_SYMBOL && k->u.sym.interned && strcmp(k->u.sym.name, "charset") == 0;
}

/* plist without its `charset' pairs (fresh conses). */
static struct value *plist_without_charset(struct lisp *L, const struct value *p)
{
    struct value *items[2], *out = L->nil, **tail = &out;
    for (; p->kind == VK_CONS && p->u.cons.cdr->kind == VK_CONS;
         p = p->u.cons.cdr->u.cons.cdr) {
        if (is_charset_key(p->u.cons.car))
            continue;
        items[0] = p->u.cons.car;
        items[1] = p->u.cons.cdr->u.cons.car;
        *tail = lisp_list(L, 2, items);
        tail = &(*tail)->u.cons.cdr->u.cons.cdr;
    }
    return out;
}

/* The next (BEG END PLIST) triple at *p, advancing *p past it. */
static bool props_next(const struct value **p, const struct value *t[3])
{
    const struct value *c = *p;
    for (int k = 0; k < 3; k++, c = c->u.cons.cdr) {
        if (!c || c->kind != VK_CONS)
            return false;
        t[k] = c->u.cons.car;
    }
    *p = c;
    return true;
}

/* Does the charset property of this plist hide other information (Emacs's
 * "non-charset found": other keys, or charset not alone)? */
static bool plist_more_than_charset(const struct value *plist, const struct value *nil)
{
    if (plist->kind != VK_CONS || !is_charset_key(plist->u.cons.car))
        return true;
    const struct value *rest = plist->u.cons.cdr;
    return rest->kind == VK_CONS && rest->u.cons.cdr != nil;
}

/* The (B E PLIST ...) list to print for string v, and whether `#(` is
 * printed at all.  Unless print-charset-text-property is t, Emacs drops
 * `charset` properties, except (for `default`) when some character
 * disagrees with its charset property; intervals left empty vanish. */
static bool printed_props(struct pstate *s, const struct value *v,
                          const struct value **out)
{
    const struct value *props = v->u.str.props, *t[3];
    *out = props;
    if (s->o->charset_props == 1)
        return true;
    bool any = false, unsafe = false, other = false;
    for (const struct value *p = props; props_next(&p, t);) {
        const struct value *cs = plist_charset(t[2]);
        other = other || plist_more_than_charset(t[2], s->L->nil);
        if (!cs)
            continue;
        any = true;
        unsafe = unsafe || charset_unsafe(v, t[0], t[1], cs);
    }
    if (!any || (unsafe && s->o->charset_props == 2))
        return true;
    struct value *list = s->L->nil, **tail = &list;
    for (const struct value *p = props; props_next(&p, t);) {
        struct value *items[3] = {(struct value *)t[0], (struct value *)t[1],
                                  plist_without_charset(s->L, t[2])};
        if (is_nil(s, items[2]))
            continue;
        *tail = lisp_list(s->L, 3, items);
        tail = &(*tail)->u.cons.cdr->u.cons.cdr->u.cons.cdr;
    }
    *out = list;
    return other; /* only charset properties: Emacs removes the intervals */
}

static void enter_string(struct pstate *s, const struct value *v)
{
    const struct value *props = NULL;
    if (!is_container(s, v) || !printed_props(s, v, &props)) {
        print_string_text(s->b, v, s->o);
        return;
    }
    OUT_LIT(s->b, "#(");
    print_string_text(s->b, v, s->o);
    struct frame *f = push(s, v, F_PROPS, true);
    f->cur = props;
}

/* One interval per step: " B E PLIST" (positions as print_object prints
 * integers, so print-integers-as-characters applies to them too). */
static void props_step(struct pstate *s, struct frame *f)
{
    const struct value *t[3];
    while (props_next(&f->cur, t)) {
        if (is_nil(s, t[2]))
            continue;
        out_putc(s->b, ' ');
        print_atom(s, t[0]);
        out_putc(s->b, ' ');
        print_atom(s, t[1]);
        out_putc(s->b, ' ');
        emit_value(s, t[2]);
        return;
    }
    POP_LIT(s, ")");
}

/* ---- driver ---- */

/* Print v: a reference, an atom, or the opening of a container whose frame
 * then prints the rest. */
static void emit_value(struct pstate *s, const struct value *v)
{
    if (s->tree && is_container(s, v) && v->kind != VK_CONS &&
        v->kind != VK_VECTOR) {
        s->bail = true; /* a record, a string with properties ...: not a tree */
        return;
    }
    if (!emit_label(s, v) || emit_source_text(s, v))
        return;
    switch (v->kind) {
    case VK_CONS:
        enter_cons(s, v);
        break;
    case VK_STRING:
        enter_string(s, v);
        break;
    case VK_HASHTABLE:
        enter_hash(s, v);
        break;
    case VK_VECTOR:
    case VK_RECORD:
    case VK_BYTECODE:
    case VK_CHARTABLE:
    case VK_SUBCHARTABLE:
        enter_vec(s, v);
        break;
    default:
        print_atom(s, v);
        break;
    }
}

/* Print v with state s (set up by the caller); stops early when
 * print_tree gives up. */
static void walk(struct pstate *s, const struct value *v)
{
    if (s->o->circle)
        print_circle_scan(s, v);
    emit_value(s, v);
    while (s->n && !s->bail) {
        struct frame *f = &s->st[s->n - 1];
        switch (f->kind) {
        case F_LIST: list_step(s, f); break;
        case F_VEC: vec_step(s, f); break;
        case F_HASH: hash_step(s, f); break;
        case F_PROPS: props_step(s, f); break;
        default: wrap_step(s, f); break;
        }
    }
}

/* Fresh printer state over the caller's frames (small, cap of them). */
static void state_init(struct pstate *s, struct lisp *L, struct buf *b,
                       const struct print_opts *o, struct frame *small,
                       size_t cap)
{
    /* path[] is written before it is read: not cleared */
    s->L = L;
    s->b = b;
    s->o = o;
    s->bq = 0;
    s->st = small;
    s->n = 0;
    s->depth = 0;
    s->chain_tortoise = NULL;
    s->chain_steps = s->chain_lim = 0;
    s->cap = cap;
    memset(&s->deep, 0, sizeof s->deep);
    memset(&s->labels, 0, sizeof s->labels);
    s->nlabels = 0;
    s->tree = s->bail = s->known_tree = false;
}

/* An atom printed alone: no frames, labels or path (the layout engine
 * prints each of its atoms this way).  print-circle labels nothing that
 * contains no other object and occurs once. */
static bool print_lone_atom(struct buf *b, const struct value *v, const struct print_opts *o)
{
    if (container_kind[v->kind] || (v->kind == VK_STRING && v->u.str.props) ||
        (o->atom_text && source_kind[v->kind]))
        return false;
    print_atom_opts(b, v, o);
    out_end(b);
    return true;
}

/* print_value, or print_known_tree when known_tree. */
static void print_walk(struct lisp *L, struct buf *b, const struct value *v,
                       const struct print_opts *o, bool known_tree)
{
    if (print_lone_atom(b, v, o))
        return;
    struct frame small[64];
    struct pstate s;
    state_init(&s, L, b, o, small, sizeof small / sizeof small[0]);
    s.known_tree = known_tree && !o->circle;
    walk(&s, v);
    out_end(b);
}

void print_value(struct lisp *L, struct buf *b, const struct value *v,
                 const struct print_opts *o)
{
    print_walk(L, b, v, o, false);
}

void print_known_tree(struct lisp *L, struct buf *b, const struct value *v,
                      const struct print_opts *o)
{
    print_walk(L, b, v, o, true);
}

bool print_tree(struct lisp *L, struct buf *b, const struct value *v,
                const struct print_opts *o)
{
    if (print_tree_fast(L, b, v, o, SIZE_MAX))
        return true;
    struct frame small[64];
    struct pstate s;
    size_t len = b->len;
    state_init(&s, L, b, o, small, sizeof small / sizeof small[0]);
    s.tree = true;
    walk(&s, v);
    if (s.bail)
        b->len = len;
    out_end(b);
    return !s.bail;
}
