/* pretty.c - phase 1 of the pretty printer: value -> document tree.
 *
 * Stage "print" (cli.md section 8).  In order: display widths, the indent
 * spec tables (Emacs's, generated, plus the user's), atom texts (source
 * text, temporaries, canonical), node construction with reader-prefix
 * folding, the explicit-stack builder, and the public entry points.
 * Layout (phase 2) is in pretty_layout.c.
 */
#include "syntax/pretty.h"

#include <string.h>

#include "lisp/print.h"
#include "syntax/pretty_doc.h"

/* ---- display widths ---- */

/* Columns of character c as Emacs displays it (char-width, with control
 * characters as ^X and raw bytes / C1 controls as \ooo). */
static int char_cols(uint32_t c)
{
    if (c < 0x20 || c == 0x7f)
        return 2;
    if (c < 0x7f)
        return 1;
    if (c >= 0x3FFF80 || (c >= 0x80 && c < 0xa0))
        return 4;
    if (c >= 0x300 && c < 0x370)
        return 0; /* combining diacritics */
    if ((c >= 0x1100 && c < 0x1160) || (c >= 0x2e80 && c < 0xa4d0) ||
        (c >= 0xac00 && c < 0xd7a4) || (c >= 0xf900 && c < 0xfb00) ||
        (c >= 0xfe30 && c < 0xfe50) || (c >= 0xff00 && c < 0xff61) ||
        (c >= 0xffe0 && c < 0xffe7) || (c >= 0x1f300 && c < 0x1f650) ||
        (c >= 0x20000 && c < 0x3fffe))
        return 2;
    return 1;
}

int pretty_advance(const uint8_t *text, size_t len, int col)
{
    for (size_t k = 0; k < len;) {
        int n;
        uint32_t c = value_char_decode(text + k, len - k, &n);
        k += (size_t)n;
        if (c == '\n')
            col = 0;
        else if (c == '\t')
            col = (col / 8 + 1) * 8;
        else
            col += char_cols(c);
    }
    return col;
}

int pretty_width(const char *text, size_t len)
{
    return pretty_advance((const uint8_t *)text, len, 0);
}

/* ---- indent specs ---- */

static const struct pretty_indent emacs_specs[] = {
#include "syntax/pretty_specs.inc"
};

#define COUNT(t) (sizeof(t) / sizeof((t)[0]))

/* Binary search of a sorted table for name (len bytes). */
static const struct pretty_indent *find_spec(const struct pretty_indent *t,
                                             size_t n, const char *name,
                                             size_t len)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strncmp(name, t[mid].name, len);
        if (c == 0 && t[mid].name[len] != 0)
            c = -1;
        if (c == 0)
            return &t[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

int pretty_indent_spec(const struct pretty_opts *o, const char *name,
                       size_t len, bool *found)
{
    const struct pretty_indent *r = NULL;
    if (o && o->user)
        r = find_spec(o->user, o->n_user, name, len);
    if (!r)
        r = find_spec(emacs_specs, COUNT(emacs_specs), name, len);
    *found = r != NULL;
    int spec = r ? r->spec : PRETTY_NONE;
    if (spec == PRETTY_UNSUPPORTED)
        spec = PRETTY_NONE;
    /* lisp-indent-function: no method and a name "def..." longer than 3. */
    if (spec == PRETTY_NONE && len > 3 && memcmp(name, "def", 3) == 0)
        spec = PRETTY_DEFUN;
    return spec;
}

long pretty_check_table(void)
{
    for (size_t i = 1; i < COUNT(emacs_specs); i++)
        if (strcmp(emacs_specs[i - 1].name, emacs_specs[i].name) >= 0)
            return (long)i;
    return -1;
}

/* ---- head classification (what lisp-indent-function looks at) ---- */

/* Word or symbol constituent in emacs-lisp-mode's syntax table. */
static bool symbol_char(uint8_t c)
{
    if (c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
        return true;
    return c && strchr("!$%&*+-./:<=>?@^_{|}~", c) != NULL;
}

enum phead pretty_head_class_text(const char *text, size_t n,
                                  const char **name, size_t *len)
{
    /* Expression prefixes (' ` , #) and @ (prefix flag) are skipped by
     * the parser before it looks at the element. */
    while (n && strchr("'`,#@", text[0]))
        text++, n--;
    *name = text;
    *len = n;
    if (n && (text[0] == '(' || text[0] == '['))
        return PH_LIST;
    return n && symbol_char((uint8_t)text[0]) ? PH_SYMBOL : PH_OTHER;
}

enum phead pretty_head_class(const struct pnode *kid0, const char **name,
                             size_t *len)
{
    if (kid0->kind != PN_ATOM)
        return PH_LIST;
    return pretty_head_class_text(kid0->text, kid0->len, name, len);
}

/* ---- building ---- */

struct bctx {
    struct lisp *L;
    const struct pretty_opts *o;
    bool compact;
    bool data_atoms; /* quoted lists and vectors print as one atom */
};

/* Argument-list positions: nil there prints as "()" (cli.md section 8).
 * nil is one interned symbol, so its source text cannot be kept; an
 * empty argument list is the one place where "()" is what people write. */
static const struct pretty_indent arglist_pos[] = {
    {"cl-defmacro", 2}, {"cl-defun", 2}, {"defmacro", 2}, {"defsubst", 2},
    {"defun", 2},       {"lambda", 1},   {"let", 1},      {"let*", 1},
};

static bool arglist_position(const struct value *head, size_t index)
{
    if (!head || !value_symbolp(head))
        return false;
    const struct pretty_indent *r =
        find_spec(arglist_pos, COUNT(arglist_pos), head->u.sym.name, head->u.sym.len);
    return r && (size_t)r->spec == index;
}

/* v by the canonical printer; circle: with print-circle labels. */
static const char *canonical(struct bctx *c, const struct value *v, bool circle,
                             size_t *n)
{
    struct print_opts po = c->compact ? print_opts_compact() : print_opts_default();
    po.gensym = !c->compact;
    po.circle = circle;
    struct buf b;
    buf_init(&b, c->L->a);
    print_value(c->L, &b, v, &po);
    *n = b.len;
    return buf_cstr(&b);
}

/* The text of atom v, element `index` of a list headed by `head`.
 * Temporaries first (their names depend on print order); then the
 * source text of atoms read from the input (?a stays ?a); else the
 * canonical printer.  Uninterned symbols that are not temporaries print
 * with #: outside --compact, so the output never silently turns them into
 * interned ones. */
static const char *atom_text(struct bctx *c, const struct value *v,
                             const struct value *head, size_t index, size_t *n)
{
    const struct pretty_opts *o = c->o;
    if (value_symbolp(v)) {
        const char *t = o->sym_text ? o->sym_text(o->sym_ctx, v, n) : NULL;
        if (t)
            return t;
        if (!c->compact && v == c->L->nil && arglist_position(head, index)) {
            *n = 2;
            return "()";
        }
    } else if (!c->compact && o->src) {
        const uint8_t *t = read_origin_text(o->src, v, n);
        if (t)
            return (const char *)t;
    }
    return canonical(c, v, false, n);
}

static struct pretty_comment *comments_of(struct bctx *c, const struct value *v)
{
    if (c->compact || !c->o->comments)
        return NULL;
    return c->o->comments(c->o->comment_ctx, v);
}

static struct pretty_comment *append_comments(struct pretty_comment *a,
                                              struct pretty_comment *b)
{
    if (!a)
        return b;
    struct pretty_comment *p = a;
    while (p->next)
        p = p->next;
    p->next = b;
    return a;
}

/* The reader prefix that abbreviates v (a two-element list), or NULL.
 * `,` and `,@` only inside a backquote, as Emacs prints them. */
static const char *prefix_of(const struct lisp *L, const struct value *v,
                             int level)
{
    if (!value_consp(v) || !value_consp(value_cdr(v)) ||
        value_cdr(value_cdr(v)) != L->nil)
        return NULL;
    const struct value *h = value_car(v);
    if (h == L->quote)
        return "'";
    if (h == L->function)
        return "#'";
    if (h == L->backquote)
        return "`";
    if (level > 0 && h == L->comma && !print_comma_needs_list(value_car(value_cdr(v))))
        return ",";
    if (level > 0 && h == L->comma_at)
        return ",@";
    return NULL;
}

/* Where a node's prefix folding left off: its value, level and mode. */
struct unwrapped {
    const struct value *v;
    int level;
    bool data;
};

/* Fold reader prefixes of v into node p.  A prefix and its object are one
 * node, so no line break can come between them; the comments of each
 * value on the chain belong to the node. */
static struct unwrapped unwrap(struct bctx *c, struct pnode *p,
                               const struct value *v, int level, bool data)
{
    struct buf b;
    buf_init(&b, c->L->a);
    const char *pre;
    while ((pre = prefix_of(c->L, v, level))) {
        buf_puts(&b, pre);
        if (pre[0] == '`')
            level++, data = true;
        else if (pre[0] == ',')
            level--, data = false;
        else
            data = pre[0] == '\'';
        v = value_car(value_cdr(v));
        p->comments = append_comments(p->comments, comments_of(c, v));
    }
    if (b.len) {
        p->prefix = buf_cstr(&b);
        p->prefix_len = (uint16_t)b.len;
    }
    return (struct unwrapped){v, level, data};
}

/* A container being filled with its kids. */
struct bframe {
    struct pnode *node;
    const struct value *cur;      /* list: the cons of the next element */
    const struct value *vec;      /* vector being read, or NULL */
    const struct value *head;     /* first element (arglist rule) */
    size_t index;                 /* next element's position */
    size_t cap;                   /* kids allocated */
    int level;                    /* backquote level inside */
    bool data;                    /* inside a quote */
    const struct value *tortoise; /* Brent's cycle check on the spine */
    size_t power, lam;
};

struct bstack {
    struct bframe *f;
    size_t n, cap;
};

static void add_kid(struct bctx *c, struct bframe *f, struct pnode *k)
{
    struct pnode *p = f->node;
    if (p->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 4;
        p->kids = arena_grow(c->L->a, p->kids, f->cap * sizeof *p->kids,
                             cap * sizeof *p->kids);
        f->cap = cap;
    }
    p->kids[p->n++] = k;
}

static struct bframe *push_frame(struct bctx *c, struct bstack *s)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        s->f = arena_grow(c->L->a, s->f, s->cap * sizeof *s->f, cap * sizeof *s->f);
        s->cap = cap;
    }
    struct bframe *f = &s->f[s->n++];
    memset(f, 0, sizeof *f);
    f->power = f->lam = 1;
    return f;
}

/* p, whose prefix is set, becomes the atom `text`. */
static struct pnode *set_atom(struct pnode *p, const char *text, size_t len)
{
    p->kind = PN_ATOM;
    p->text = text;
    p->len = len;
    p->has_nl = memchr(p->text, '\n', p->len) != NULL;
    p->multiline = p->has_nl;
    p->width = pretty_width(p->prefix ? p->prefix : "", p->prefix_len) +
               pretty_width(p->text, p->len);
    return p;
}

/* Quoted data as one atom, printed with print-circle labels: the way to
 * print data that contains itself or is nested deeper than the layout
 * goes.  Such data holds no temporaries (those are only made for code). */
static struct pnode *data_atom(struct bctx *c, struct pnode *p,
                               const struct value *v)
{
    size_t n;
    const char *t = canonical(c, v, true, &n);
    return set_atom(p, t, n);
}

/* The node for v; pushes a frame when v is a list or vector whose kids
 * are still to be read. */
static struct pnode *make_node(struct bctx *c, struct bstack *s,
                               const struct value *v, int level, bool data,
                               const struct value *head, size_t index)
{
    struct pnode *p = arena_zalloc(c->L->a, sizeof *p);
    p->comments = comments_of(c, v);
    struct unwrapped u = unwrap(c, p, v, level, data);
    p->data = u.data;
    bool container = value_consp(u.v) || value_is(u.v, VK_VECTOR);
    if (container && c->data_atoms && u.data && u.level == 0)
        return data_atom(c, p, u.v);
    if (container) {
        p->kind = value_consp(u.v) ? PN_LIST : PN_VECTOR;
        struct bframe *f = push_frame(c, s);
        f->node = p;
        f->level = u.level;
        f->data = u.data;
        if (p->kind == PN_LIST)
            f->cur = f->tortoise = u.v, f->head = value_car(u.v);
        else
            f->vec = u.v;
        return p;
    }
    size_t n;
    const char *t = atom_text(c, u.v, head, index, &n);
    return set_atom(p, t, n);
}

/* All kids read: width, line-break needs, comments of the first kid. */
static void finish_node(struct pnode *p)
{
    int w = pretty_width(p->prefix ? p->prefix : "", p->prefix_len) + 2;
    for (uint32_t i = 0; i < p->n; i++) {
        struct pnode *k = p->kids[i];
        w += k->width + (i ? 1 : 0);
        if (k->multiline || (i > 0 && k->comments))
            p->multiline = true;
    }
    if (p->dotted)
        w += 2;
    p->width = w;
    /* No line break right after an open paren: comments of the first
     * element go before the whole list. */
    if (p->n && p->kids[0]->comments) {
        p->comments = append_comments(p->comments, p->kids[0]->comments);
        p->kids[0]->comments = NULL;
    }
}

/* The next element of frame f, or NULL at the end; *dotted when it is a
 * dotted tail.  Sets *cycle when the spine loops. */
static const struct value *next_elem(struct bctx *c, struct bframe *f,
                                     bool *dotted, bool *cycle)
{
    *dotted = false;
    if (f->vec)
        return f->index < f->vec->u.vec.n ? f->vec->u.vec.items[f->index] : NULL;
    const struct value *cur = f->cur;
    if (cur == c->L->nil)
        return NULL;
    if (!value_consp(cur)) {
        *dotted = true;
        f->cur = c->L->nil;
        return cur;
    }
    f->cur = value_cdr(cur);
    if (f->index > 0 && cur == f->tortoise) {
        *cycle = true;
        return NULL;
    }
    if (f->lam++ == f->power) {
        f->tortoise = cur;
        f->power *= 2;
        f->lam = 1;
    }
    return value_car(cur);
}

/* A value nested deeper than this contains itself (a car cycle): the
 * reader's and expander's own limits are far below it. */
#define BUILD_MAX_DEPTH 100000

/* Read kids until the stack is empty.  False on a cycle or excessive
 * depth (a value that contains itself). */
static bool build_run(struct bctx *c, struct bstack *s)
{
    while (s->n) {
        struct bframe *f = &s->f[s->n - 1];
        bool dotted, cycle = false;
        const struct value *e = next_elem(c, f, &dotted, &cycle);
        if (cycle)
            return false;
        if (!e) {
            finish_node(f->node);
            s->n--;
            continue;
        }
        size_t index = f->index++;
        struct pnode *parent = f->node;
        int level = f->level;
        bool data = f->data;
        const struct value *head = f->head;
        size_t cap_before = s->n;
        struct pnode *k = make_node(c, s, e, level, data, head, index);
        f = &s->f[cap_before - 1]; /* the stack may have moved */
        k->clause = !data && index > 0 && k->kind == PN_LIST && !k->prefix_len &&
                    head && value_symbolp(head) && strcmp(head->u.sym.name, "cond") == 0;
        add_kid(c, f, k);
        parent->dotted = dotted;
        if (s->n > BUILD_MAX_DEPTH)
            return false;
    }
    return true;
}

static struct pretty_doc *build(struct lisp *L, const struct pretty_opts *o,
                                const struct value *v, bool compact)
{
    struct bctx c = {L, o, compact, false};
    struct bstack s = {0};
    struct pnode *root = make_node(&c, &s, v, 0, false, NULL, 0);
    if (!build_run(&c, &s)) {
        /* Code neither loops nor nests that deep (the walker refuses
         * it), so quoted data did: again, with quoted data as atoms. */
        c.data_atoms = true;
        s.n = 0;
        root = make_node(&c, &s, v, 0, false, NULL, 0);
        if (!build_run(&c, &s))
            return NULL;
    }
    struct pretty_doc *d = arena_zalloc(L->a, sizeof *d);
    d->a = L->a;
    d->root = root;
    return d;
}

struct pretty_doc *pretty_build(struct lisp *L, const struct pretty_opts *o,
                                const struct value *v)
{
    return build(L, o, v, false);
}

struct pretty_comment *pretty_take_root_comments(struct pretty_doc *doc)
{
    struct pretty_comment *c = doc->root->comments;
    doc->root->comments = NULL;
    return c;
}

bool pretty_print(struct lisp *L, const struct pretty_opts *o, struct buf *out,
                  const struct value *v, int col, int trail)
{
    struct pretty_doc *d = pretty_build(L, o, v);
    if (!d)
        return false;
    pretty_layout(d, o, out, col, trail);
    return true;
}

bool pretty_compact(struct lisp *L, const struct pretty_opts *o,
                    struct buf *out, const struct value *v)
{
    struct pretty_doc *d = build(L, o, v, true);
    if (!d)
        return false;
    pretty_flat(d->root, out);
    return true;
}
