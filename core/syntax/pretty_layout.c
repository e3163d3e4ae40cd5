/* pretty_layout.c - phase 2 of the pretty printer: line breaks, indentation.
 *
 * Stage "print" (cli.md section 8).  In order: output with column and
 * line tracking, one-line printing, the model of Emacs 28.2's
 * calculate-lisp-indent / lisp-indent-function / lisp-indent-specform /
 * lisp-indent-defform (emu_indent), the choice of which elements start
 * new lines (styles), and the explicit-stack layout loop.
 *
 * The design keeps two questions apart: the style decides *which*
 * elements start a line (fill rules, readable shapes); the model of
 * Emacs decides *where* such a line starts, from the positions of the
 * elements already placed.  So every line is where indent-region would
 * put it, whatever the style chose.
 */
#include <string.h>

#include "syntax/pretty_doc.h"

/* ---- output ---- */

struct lout {
    struct buf *b;
    int col;            /* display column after the last byte */
    long line;          /* line breaks written so far */
    const char *nl;     /* line end */
    size_t nl_len;
    int width;          /* fill column */
};

/* Append text (a line break inside it, from a multi-line string, is
 * copied as written). */
static void put(struct lout *o, const char *t, size_t n)
{
    /* Columns are display columns (TAB stops, wide characters), the
     * unit Emacs's current-column counts in. */
    buf_put(o->b, t, n);
    const char *last = NULL;
    for (const char *p = t; (p = memchr(p, '\n', (size_t)(t + n - p))); p++) {
        o->line++;
        last = p;
    }
    if (last)
        o->col = pretty_advance((const uint8_t *)last + 1, (size_t)(t + n - last - 1), 0);
    else
        o->col = pretty_advance((const uint8_t *)t, n, o->col);
}

static void puts_(struct lout *o, const char *s) { put(o, s, strlen(s)); }

static void newline_to(struct lout *o, int col)
{
    buf_put(o->b, o->nl, o->nl_len);
    for (int i = 0; i < col; i++)
        buf_putc(o->b, ' ');
    o->line++;
    o->col = col;
}

static void put_prefix(struct lout *o, const struct pnode *p)
{
    if (p->prefix_len)
        put(o, p->prefix, p->prefix_len);
}

/* ---- one line ---- */

struct fframe {
    const struct pnode *p;
    uint32_t k;
};

/* Print p on one line, iteratively. */
static void flat(struct lout *o, const struct pnode *root, struct arena *a)
{
    struct fframe *st = NULL;
    size_t n = 0, cap = 0;
    const struct pnode *p = root;
    for (;;) {
        if (p) {
            put_prefix(o, p);
            if (p->kind == PN_ATOM) {
                put(o, p->text, p->len);
            } else {
                puts_(o, p->kind == PN_LIST ? "(" : "[");
                if (n == cap) {
                    size_t c2 = cap ? cap * 2 : 16;
                    st = arena_grow(a, st, cap * sizeof *st, c2 * sizeof *st);
                    cap = c2;
                }
                st[n++] = (struct fframe){p, 0};
            }
            p = NULL;
        }
        if (!n)
            return;
        struct fframe *f = &st[n - 1];
        if (f->k == f->p->n) {
            puts_(o, f->p->kind == PN_LIST ? ")" : "]");
            n--;
            continue;
        }
        if (f->k > 0)
            puts_(o, f->p->dotted && f->k == f->p->n - 1 ? " . " : " ");
        p = f->p->kids[f->k++];
    }
}

void pretty_flat(const struct pnode *node, struct buf *out)
{
    struct lout o = {out, 0, 0, "\n", 1, 0};
    flat(&o, node, out->a);
}

/* ---- Emacs's indentation model ---- */

/* lisp-indent-specform for a head with n distinguished arguments, at a
 * line whose first element is preceded by nargs arguments.  `normal` is
 * the column calculate-lisp-indent found before asking the head. */
static int specform(int n, int nargs, int paren, int normal)
{
    int count = n - nargs; /* distinguished arguments still to come */
    if (count > 0)         /* a distinguished argument: the first two at +4 */
        return nargs <= 1 ? paren + 4 : normal;
    /* The first body form goes to +2 unless the previous line sits
     * further left (then Emacs keeps the normal column). */
    if ((n == 0 && nargs == 0) || (count == 0 && paren + 2 <= normal))
        return paren + 2;
    return normal;
}

enum style {
    ST_KEEP,  /* kids 1..keep on the head line, every later kid on its own */
    ST_PAIRS, /* setq: VAR VALUE pairs, one per line */
    ST_FILL,  /* data: as many kids per line as fit */
};

struct lframe {
    const struct pnode *p;
    uint32_t k;        /* next kid */
    int paren;         /* column of the open bracket */
    int trail;         /* columns after the closing bracket */
    uint8_t head;      /* enum phead of kids[0] */
    uint8_t style;     /* enum style */
    int spec;          /* indent spec of a symbol head */
    uint32_t keep;     /* ST_KEEP: kids on the head line after the head */
    struct pretty_place *pl; /* where each placed element starts (the dot counts) */
    uint32_t ne;       /* elements placed */
    long kid_line;     /* line where the kid being laid out started */
    bool pending;      /* kids[k] is being laid out by the frame above */
    bool prev_multi;   /* the previous kid ended on a later line */
};

/* calculate-lisp-indent followed by lisp-indent-function, for element j
 * of a list with head class `head` and indent spec `spec`.  Emacs looks
 * only at the last complete element before the line (`last`): whether it
 * started on the list's first line, and which element starts the line it
 * is on (`first`).  Lines never start inside a list before element 1 and
 * never continue after a multi-line element, so those two facts are all
 * the model needs. */
static int emu_indent(int head, int spec, int paren,
                      const struct pretty_place *pl, uint32_t j)
{
    uint32_t last = j - 1, first = last;
    while (first > 0 && pl[first - 1].line == pl[last].line)
        first--;
    bool on_first = pl[last].line == pl[0].line;
    /* A list, string ... in front: everything lines up under the first
     * element of the previous line (the list's first element at first). */
    if (head != PH_SYMBOL)
        return on_first ? pl[0].col : pl[first].col;
    /* A function call: under the first argument when it is on the head
     * line, under the head when nothing follows it, else under the
     * previous line's first element. */
    int normal = on_first ? pl[last == 0 ? 0 : 1].col : pl[first].col;
    if (spec == PRETTY_DEFUN) /* lisp-indent-defform: only the second line */
        return on_first ? paren + 2 : normal;
    if (spec >= 0)
        return specform(spec, (int)j - 1, paren, normal);
    return normal;
}

int pretty_indent_column(const struct pretty_opts *o, const char *head,
                         size_t head_len, int paren,
                         const struct pretty_place *places, uint32_t j)
{
    const char *name;
    size_t len;
    int cls = pretty_head_class_text(head, head_len, &name, &len);
    int spec = PRETTY_NONE;
    if (cls == PH_SYMBOL) {
        bool found;
        spec = pretty_indent_spec(o, name, len, &found);
    }
    return emu_indent(cls, spec, paren, places, j);
}

/* ---- styles ---- */

static bool named(const struct pnode *k, const char *s)
{
    return k->kind == PN_ATOM && !k->prefix_len && k->len == strlen(s) &&
           memcmp(k->text, s, k->len) == 0;
}

/* Which kids start their own line (cli.md section 8, layout rules). */
static void choose_style(struct lframe *f, const struct pretty_opts *po,
                         int width)
{
    const struct pnode *p = f->p, *h = p->kids[0];
    const char *name;
    size_t len;
    f->head = (uint8_t)pretty_head_class(h, &name, &len);
    f->spec = PRETTY_NONE;
    f->style = ST_KEEP;
    f->keep = 0;
    if (f->head != PH_SYMBOL || p->clause) {
        f->style = p->data ? ST_FILL : ST_KEEP; /* keep 0: test, then body lines */
        if (f->head == PH_SYMBOL) {
            bool found;
            f->spec = pretty_indent_spec(po, name, len, &found);
        }
        return;
    }
    bool found;
    f->spec = pretty_indent_spec(po, name, len, &found);
    if (p->data) {
        f->style = ST_FILL;
    } else if (named(h, "setq") || named(h, "setq-default") ||
               named(h, "setq-local")) {
        f->style = ST_PAIRS;
    } else if (!named(h, "cond") && f->spec != 0) {
        f->keep = 1;
    }
    /* A standard call whose first argument does not fit after the head
     * puts every argument on its own line, one column after the paren,
     * when that helps: an atom always gets a shorter line there, a list
     * only if it then fits whole. */
    if (f->style == ST_KEEP && f->spec == PRETTY_NONE && f->keep && p->n > 1) {
        const struct pnode *k1 = p->kids[1];
        int at = f->paren + 1 + h->width + 1;
        if (at + k1->width > width &&
            (k1->kind == PN_ATOM || f->paren + 1 + k1->width <= width))
            f->keep = 0;
    }
}

/* Must kid k (k >= 1) of f start a new line? */
static bool breaks_before(const struct lframe *f, const struct lout *o,
                          uint32_t k)
{
    const struct pnode *kid = f->p->kids[k];
    if (kid->comments || f->prev_multi)
        return true;
    bool last = k + 1 == f->p->n;
    if (last && f->p->dotted)
        return false;
    switch (f->style) {
    case ST_PAIRS: return k >= 3 && k % 2 == 1;
    case ST_FILL:
        return o->col + 1 + kid->width + (last ? f->trail + 1 : 0) > o->width;
    default: return k > f->keep;
    }
}

/* ---- the layout loop ---- */

struct lctx {
    struct lout o;
    const struct pretty_opts *po;
    struct arena *a;
    struct lframe *st; /* explicit stack of broken lists */
    size_t n, cap;
};

static struct lframe *push(struct lctx *c)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        c->st = arena_grow(c->a, c->st, c->cap * sizeof *c->st, cap * sizeof *c->st);
        c->cap = cap;
    }
    struct lframe *f = &c->st[c->n++];
    memset(f, 0, sizeof *f);
    return f;
}

static void record(struct lctx *c, struct lframe *f)
{
    f->pl[f->ne++] = (struct pretty_place){c->o.line, c->o.col};
}

/* Start node p at the current position: on one line when it fits (and
 * may), else open it and push a frame for its kids. */
static void place(struct lctx *c, const struct pnode *p, int trail)
{
    struct lout *o = &c->o;
    if (p->kind == PN_ATOM || p->n == 0 ||
        (!p->multiline && o->col + p->width + trail <= o->width)) {
        flat(o, p, c->a);
        return;
    }
    put_prefix(o, p);
    puts_(o, p->kind == PN_LIST ? "(" : "[");
    struct lframe *f = push(c);
    f->p = p;
    f->paren = o->col - 1;
    f->trail = trail;
    f->pl = arena_alloc(c->a, (p->n + 1) * sizeof *f->pl);
    choose_style(f, c->po, o->width);
}

/* Re-emitted comments, each on its own line: `;;` and more at the
 * indentation of the code that follows, a single `;` at comment-column
 * (40), which is where indent-region puts them (cli.md 4.2). */
static void emit_comments(struct lctx *c, const struct pretty_comment *cm,
                          int indent)
{
    for (; cm; cm = cm->next) {
        bool single = cm->len < 2 || cm->text[1] != ';';
        newline_to(&c->o, single ? 40 : indent);
        put(&c->o, (const char *)cm->text, cm->len);
    }
}

/* The kid that was being laid out is complete.  Whether it spans lines
 * decides whether the next kid may follow on the same line. */
static void kid_done(struct lctx *c)
{
    struct lframe *f = &c->st[c->n - 1];
    f->pending = false;
    f->prev_multi = c->o.line != f->kid_line;
    f->k++;
}

/* One step: place the next kid of the top frame, or close it. */
static void step(struct lctx *c)
{
    struct lframe *f = &c->st[c->n - 1];
    if (f->pending)
        kid_done(c);
    if (f->k == f->p->n) {
        puts_(&c->o, f->p->kind == PN_LIST ? ")" : "]");
        c->n--;
        return;
    }
    uint32_t k = f->k;
    const struct pnode *kid = f->p->kids[k];
    bool last = k + 1 == f->p->n;
    if (k > 0) {
        if (breaks_before(f, &c->o, k)) {
            int indent = emu_indent(f->head, f->spec, f->paren, f->pl, f->ne);
            emit_comments(c, kid->comments, indent);
            newline_to(&c->o, indent);
        } else {
            puts_(&c->o, " ");
        }
        if (last && f->p->dotted) {
            record(c, f);
            puts_(&c->o, ". ");
        }
    }
    record(c, f);
    f->kid_line = c->o.line;
    f->pending = true;
    /* Only the last kid is followed on its line by this list's ")" and
     * whatever follows the list; the others end their line or are
     * followed by a kid the style already measured. */
    size_t depth = c->n;
    place(c, kid, last ? f->trail + 1 : 0);
    if (c->n == depth)
        kid_done(c);
}

void pretty_layout(struct pretty_doc *doc, const struct pretty_opts *po,
                   struct buf *out, int col, int trail)
{
    struct lctx c = {0};
    c.o.b = out;
    c.o.col = col;
    c.o.nl = po && po->newline ? po->newline : "\n";
    c.o.nl_len = strlen(c.o.nl);
    c.o.width = po && po->width > 0 ? po->width : 80;
    c.po = po;
    c.a = doc->a;
    place(&c, doc->root, trail);
    while (c.n)
        step(&c);
}
