/* pretty_layout.c - phase 2 of the pretty printer: line breaks, indentation.
 *
 * Stage "print" (cli.md section 8).  In order: output with column and
 * line tracking, the model of Emacs 30.1's calculate-lisp-indent /
 * lisp-indent-function / lisp-indent-specform / lisp-indent-defform
 * (emu_indent), the choice of which elements start new lines (styles),
 * and the explicit-stack layout loop.
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

/* The output's state.  The loop that lays a document out keeps it in
 * locals: every function that takes it is inlined there (a byte stored
 * through the text may change any object for all the compiler knows,
 * so state kept in memory would be read again after each). */
struct lout {
    struct buf *b;      /* the output: its length is w's offset at the end */
    char *w, *end;      /* next byte of b, end of its room */
    int col;            /* display column after the last byte */
    long line;          /* line breaks written so far */
    const char *nl;     /* line end */
    size_t nl_len;
    int width;          /* fill column */
    bool simple;        /* the document's text is printable ASCII (else
                           its nodes say which are) */
};

static char *grow_out(struct buf *b, char *w, size_t n)
{
    b->len = (size_t)(w - b->data);
    buf_grow(b, n);
    return b->data + b->len;
}

/* Room for n bytes and one more. */
static PRETTY_INLINE void out_room(struct lout *o, size_t n)
{
    if ((size_t)(o->end - o->w) <= n) {
        o->w = grow_out(o->b, o->w, n);
        o->end = o->b->data + o->b->cap;
    }
}

/* The column after text t (n bytes) and the lines it ends, from col. */
static int advance_lines(const char *t, size_t n, int col, long *line)
{
    /* Columns are display columns (TAB stops, wide characters), the
     * unit Emacs's current-column counts in. */
    const char *last = NULL;
    for (const char *p = t; (p = memchr(p, '\n', (size_t)(t + n - p))); p++) {
        ++*line;
        last = p;
    }
    if (last)
        return pretty_advance((const uint8_t *)last + 1, (size_t)(t + n - last - 1), 0);
    return pretty_advance((const uint8_t *)t, n, col);
}

/* Append text (a line break inside it, from a multi-line string, is
 * copied as written). */
static PRETTY_INLINE void put_any(struct lout *o, const char *t, size_t n)
{
    out_room(o, n);
    memcpy(o->w, t, n);
    o->w += n;
    long line = o->line;
    o->col = advance_lines(t, n, o->col, &line);
    o->line = line;
}

/* Append a piece of printable ASCII text of the document (one column a
 * byte).  The document's text has 16 bytes of room after its end, so a
 * piece of up to 32 bytes is copied as one or two 16-byte moves, which
 * cost less than a call. */
static PRETTY_INLINE void put(struct lout *o, const char *t, size_t n)
{
    out_room(o, n + 16);
    if (n <= 16) {
        memcpy(o->w, t, 16);
    } else if (n <= 32) {
        memcpy(o->w, t, 16);
        memcpy(o->w + n - 16, t + n - 16, 16);
    } else {
        memcpy(o->w, t, n);
    }
    o->w += n;
    o->col += (int)n;
}

/* Append the ASCII character ch. */
static PRETTY_INLINE void put_char(struct lout *o, char ch)
{
    out_room(o, 1);
    *o->w++ = ch;
    o->col++;
}

/* A line break and col spaces, the spaces 16 at a time (the room asked
 * for covers the last move's excess). */
static PRETTY_INLINE void newline_to(struct lout *o, int col)
{
    size_t n = o->nl_len + (size_t)col;
    out_room(o, n + 16);
    char *d = o->w;
    if (o->nl_len == 1)
        d[0] = o->nl[0];
    else
        memcpy(d, o->nl, o->nl_len);
    static const char spaces[16] = "                ";
    for (size_t k = o->nl_len; k < n; k += 16)
        memcpy(d + k, spaces, 16);
    o->w += n;
    o->line++;
    o->col = col;
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
    ST_KEEP,   /* kids 1..keep on the head line, every later kid on its own */
    ST_PAIRS,  /* setq: VAR VALUE pairs, one per line */
    ST_FILL,   /* data: as many kids per line as fit */
    ST_SOURCE, /* kept text: a kid starts a line where it did in the input */
};

struct lframe {
    uint32_t p;        /* the list's node */
    uint32_t kid;      /* node of the next kid */
    uint32_t k;        /* its position */
    int paren;         /* column of the open bracket */
    int trail;         /* columns after the closing bracket */
    uint8_t head;      /* enum phead of the first kid */
    uint8_t style;     /* enum style */
    int spec;          /* indent spec of a symbol head */
    uint32_t keep;     /* ST_KEEP: kids on the head line after the head */
    size_t pl;         /* its first place in the stack of places */
    uint32_t ne;       /* elements placed (the dot counts) */
    long kid_line;     /* line where the kid being laid out started */
    uint32_t prev_end; /* where the last kid placed ends in the text */
    bool pending;      /* the kid is being laid out by the frame above */
    bool prev_multi;   /* the previous kid ended on a later line */
    bool local;        /* a local definition of cl-flet & co (body at +2) */
};

/* calculate-lisp-indent followed by lisp-indent-function, for element j
 * of a list with head class `head` and indent spec `spec` (flags: enum
 * pretty_list_flag).  Emacs looks only at the last complete element
 * before the line (`last`): whether it started on the list's first line,
 * and which element starts the line it is on (`first`).  Lines never
 * start inside a list before element 1 and never continue after a
 * multi-line element, so those two facts are all the model needs. */
static int emu_indent(int head, int spec, int paren,
                      const struct pretty_place *pl, uint32_t j, unsigned flags)
{
    uint32_t last = j - 1, first = last;
    while (first > 0 && pl[first - 1].line == pl[last].line)
        first--;
    bool on_first = pl[last].line == pl[0].line;
    /* The column calculate-lisp-indent finds before asking the head:
     * under a list in front; on the head line under the first argument,
     * or under the head when nothing or whitespace comes between it and
     * the paren; on a later line under the previous line's first
     * element. */
    int normal = head == PH_LIST ? pl[0].col
                 : !on_first     ? pl[first].col
                 : last == 0 || (flags & PRETTY_SPACE_AFTER_PAREN) ? pl[0].col
                                                                   : pl[1].col;
    /* A local definition is a body whatever its head:
     * lisp-indent-defform, which answers only for the second line. */
    if (flags & PRETTY_LOCAL_DEF)
        return on_first ? paren + 2 : normal;
    /* A list, string ... in front: everything lines up under the first
     * element of the previous line (the list's first element at first). */
    if (head != PH_SYMBOL)
        return on_first ? pl[0].col : pl[first].col;
    if (spec == PRETTY_DEFUN) /* lisp-indent-defform: only the second line */
        return on_first ? paren + 2 : normal;
    if (spec >= 0)
        return specform(spec, (int)j - 1, paren, normal);
    return normal;
}

int pretty_indent_column(const struct pretty_opts *o, const char *head,
                         size_t head_len, int paren,
                         const struct pretty_place *places, uint32_t j,
                         unsigned flags)
{
    const char *name;
    size_t len;
    int cls = pretty_head_class_text(head, head_len, &name, &len);
    int spec = PRETTY_NONE;
    if (cls == PH_SYMBOL) {
        bool found;
        spec = pretty_indent_spec(o, name, len, &found);
    }
    return emu_indent(cls, spec, paren, places, j, flags);
}

/* ---- the layout loop's state ---- */

struct lctx {
    struct lout o;
    const struct pretty_opts *po;
    struct pretty_doc *d;
    const struct pnode *nodes;
    const char *text;
    struct lframe *st; /* explicit stack of broken lists */
    size_t n, cap;
    struct pretty_place *pl; /* where the elements of those lists start */
    size_t npl, plcap;
    struct pretty_deep *deep; /* Emacs's parser state, where it departs
                                 from the lines' structure (else NULL) */
};

/* ---- styles ---- */

/* The text of atom k after its prefix. */
static PRETTY_INLINE const char *atom_text(const struct lctx *c,
                                           const struct pnode *k, size_t *len)
{
    *len = k->end - k->start - k->prefix_len;
    return c->text + k->start + k->prefix_len;
}

static PRETTY_INLINE bool named(const struct lctx *c, const struct pnode *k,
                                const char *s, size_t n)
{
    size_t len;
    const char *t = atom_text(c, k, &len);
    return k->kind == PN_ATOM && !k->prefix_len && len == n && memcmp(t, s, n) == 0;
}

#define NAMED(c, k, lit) named((c), (k), (lit), sizeof(lit) - 1)

/* Head class and indent spec of first element h, an atom, from its text
 * (after its prefix). */
static void head_of_text(struct pretty_doc *d, const struct pretty_opts *po,
                         const struct pnode *h, uint8_t *cls, int *spec)
{
    const char *name;
    size_t len, n = h->end - h->start - h->prefix_len;
    const char *t = d->text.data + h->start + h->prefix_len;
    *cls = (uint8_t)pretty_head_class_text(t, n, &name, &len);
    *spec = PRETTY_NONE;
    if (*cls != PH_SYMBOL)
        return;
    if (!d->specs)
        d->specs = pretty_spec_index_new(d->a);
    *spec = pretty_spec_lookup(d->specs, po, name, len);
}

/* Head class and indent spec of first element h.  A symbol that prints
 * as its name has them looked up once per document's memory (its text
 * is the same wherever it occurs). */
static void head_of(struct pretty_doc *d, const struct pretty_opts *po,
                    const struct pnode *h, uint8_t *cls, int *spec)
{
    if (h->kind != PN_ATOM) {
        *cls = PH_LIST;
        *spec = PRETTY_NONE;
        return;
    }
    if (!h->sym)
        return head_of_text(d, po, h, cls, spec);
    if (!d->memo)
        d->memo = arena_zalloc(d->a, PRETTY_HEAD_MEMO * sizeof *d->memo);
    struct pretty_head_memo *m = &d->memo[h->sym->u.sym.id & (PRETTY_HEAD_MEMO - 1)];
    if (m->sym != h->sym) {
        head_of_text(d, po, h, cls, spec);
        *m = (struct pretty_head_memo){h->sym, (int8_t)*cls, *spec};
    }
    *cls = (uint8_t)m->cls;
    *spec = m->spec;
}

/* Is the top frame's list a local definition, an element of the second
 * element of a cl-flet & co form (lisp--local-defform-body-p)?  The two
 * lists around a list that spans lines span lines too: they are the two
 * frames below it, the outer one laying out its element 1. */
static bool local_definition(const struct lctx *c)
{
    if (c->n < 3 || c->st[c->n - 3].k != 1)
        return false;
    const struct pnode *h = &c->nodes[c->st[c->n - 3].p + 1];
    if (h->kind != PN_ATOM || h->prefix_len)
        return false;
    size_t len;
    const char *t = atom_text(c, h, &len);
    return pretty_local_def_head(t, len);
}

/* Which kids start their own line (cli.md section 8, layout rules). */
static PRETTY_INLINE void choose_style(struct lctx *c, struct lframe *f)
{
    const struct pnode *p = &c->nodes[f->p], *h = &c->nodes[f->p + 1];
    head_of(c->d, c->po, h, &f->head, &f->spec);
    /* A local definition is laid out as a defun: name and argument
     * list on the head line. */
    f->local = local_definition(c);
    if (f->local && f->head == PH_SYMBOL)
        f->spec = PRETTY_DEFUN;
    f->style = ST_KEEP;
    f->keep = 0;
    if (p->flags & PF_SOURCE) {
        f->style = ST_SOURCE;
        return;
    }
    if (f->head != PH_SYMBOL || (p->flags & PF_CLAUSE)) {
        /* keep 0: test, then body lines */
        f->style = p->flags & PF_DATA ? ST_FILL : ST_KEEP;
        return;
    }
    if (p->flags & PF_DATA) {
        f->style = ST_FILL;
    } else if (NAMED(c, h, "setq") || NAMED(c, h, "setq-default") ||
               NAMED(c, h, "setq-local")) {
        f->style = ST_PAIRS;
    } else if (!NAMED(c, h, "cond") && f->spec != 0) {
        f->keep = 1;
    }
    /* A standard call whose first argument does not fit after the head
     * puts every argument on its own line, one column after the paren,
     * when that helps: an atom always gets a shorter line there, a list
     * only if it then fits whole. */
    if (f->style == ST_KEEP && f->spec == PRETTY_NONE && f->keep && h->next < p->next) {
        const struct pnode *k1 = &c->nodes[h->next];
        int at = f->paren + 1 + h->width + 1;
        int width = c->o.width;
        if (at + k1->width > width &&
            (k1->kind == PN_ATOM || f->paren + 1 + k1->width <= width))
            f->keep = 0;
    }
}

/* Must kid k (k >= 1) of f, the node kid, start a new line? */
static PRETTY_INLINE bool breaks_before(const struct lframe *f,
                                        const struct lout *o,
                                        const struct pnode *kid, bool last,
                                        bool dotted)
{
    if (kid->comments || f->prev_multi || (kid->flags & PF_BLANK))
        return true;
    if (last && dotted)
        return false;
    uint32_t k = f->k;
    switch (f->style) {
    case ST_SOURCE: return (kid->flags & PF_NEWLINE) != 0;
    case ST_PAIRS: return k >= 3 && k % 2 == 1;
    case ST_FILL:
        return o->col + 1 + kid->width + (last ? f->trail + 1 : 0) > o->width;
    default: return k > f->keep;
    }
}

/* ---- the layout loop ---- */

static PRETTY_INLINE struct lframe *push(struct lctx *c)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        c->st = arena_grow(c->d->a, c->st, c->cap * sizeof *c->st, cap * sizeof *c->st);
        c->cap = cap;
    }
    struct lframe *f = &c->st[c->n++];
    memset(f, 0, sizeof *f);
    return f;
}

static PRETTY_INLINE void record(struct lctx *c, struct lframe *f)
{
    if (c->npl == c->plcap) {
        size_t cap = c->plcap ? c->plcap * 2 : 64;
        c->pl = arena_grow(c->d->a, c->pl, c->plcap * sizeof *c->pl, cap * sizeof *c->pl);
        c->plcap = cap;
    }
    c->pl[c->npl++] = (struct pretty_place){c->o.line, c->o.col};
    f->ne++;
}

/* Start node i at the current position: on one line when it fits (and
 * may), else open it and push a frame for its kids. */
static PRETTY_INLINE void place(struct lctx *c, uint32_t i, int trail)
{
    struct lout *o = &c->o;
    const struct pnode *p = &c->nodes[i];
    long line = o->line;
    int col = o->col;
    if (p->kind == PN_ATOM || p->next == i + 1 ||
        (!(p->flags & PF_MULTILINE) && o->col + p->width + trail <= o->width)) {
        if (o->simple || (p->flags & PF_ASCII))
            put(o, c->text + p->start, p->end - p->start);
        else
            put_any(o, c->text + p->start, p->end - p->start);
        if (c->deep)
            pretty_deep_flat(c->deep, i, line, col, o->line);
        return;
    }
    put(o, c->text + p->start, p->prefix_len + 1); /* prefixes and bracket */
    if (c->deep)
        pretty_deep_open(c->deep, i, line, col);
    struct lframe *f = push(c);
    f->p = i;
    f->kid = i + 1;
    f->paren = o->col - 1;
    f->trail = trail;
    f->pl = c->npl;
    choose_style(c, f);
}

/* What goes before a kid that starts a line, after the code before it
 * (cli.md 4.2): its first trailing comment at the end of that code's
 * line (at its column in the input when there is room, else after one
 * space); an empty line when asked; then the other comments, each on
 * its own line: `;;` and more at the indentation of the code that
 * follows, a single `;` at comment-column (40), which is where
 * indent-region puts them. */
static PRETTY_INLINE void emit_comments(struct lctx *c, const struct pnode *kid,
                                        int indent)
{
    const struct pretty_comment *cm = kid->comments;
    if (cm && cm->trailing) {
        int at = cm->col > c->o.col ? cm->col : c->o.col + 1;
        out_room(&c->o, (size_t)(at - c->o.col));
        while (c->o.col < at)
            put_char(&c->o, ' ');
        put_any(&c->o, (const char *)cm->text, cm->len);
        cm = cm->next;
    }
    if (kid->flags & PF_BLANK)
        newline_to(&c->o, 0);
    for (; cm; cm = cm->next) {
        bool single = cm->len < 2 || cm->text[1] != ';';
        newline_to(&c->o, single ? 40 : indent);
        put_any(&c->o, (const char *)cm->text, cm->len);
    }
}

/* The kid that was being laid out is complete.  Whether it spans lines
 * decides whether the next kid may follow on the same line. */
static PRETTY_INLINE void kid_done(struct lctx *c)
{
    struct lframe *f = &c->st[c->n - 1];
    f->pending = false;
    f->prev_multi = c->o.line != f->kid_line;
    f->prev_end = c->nodes[f->kid].end;
    f->kid = c->nodes[f->kid].next;
    f->k++;
}

/* The line break or space before kid k >= 1 of f, and the dot before a
 * dotted tail. */
static PRETTY_INLINE void before_kid(struct lctx *c, struct lframe *f,
                                     const struct pnode *kid, bool last,
                                     bool dotted)
{
    if (breaks_before(f, &c->o, kid, last, dotted)) {
        /* A local definition's first line break gets paren + 2 (its
         * last element is on the head line), and indent-region keeps a
         * list's first such answer for its later lines. */
        int indent = f->local ? f->paren + 2
                              : emu_indent(f->head, f->spec, f->paren, c->pl + f->pl,
                                           f->ne, 0);
        if (c->deep)
            indent = pretty_deep_indent(c->deep, f->kid, indent);
        emit_comments(c, kid, indent);
        newline_to(&c->o, indent);
        if (c->deep)
            pretty_deep_line(c->deep, f->kid, c->o.line);
    } else if (f->style == ST_SOURCE && !(last && dotted)) {
        /* the input's spaces (ASCII, kept in the text between kids) */
        put(&c->o, c->text + f->prev_end, kid->start - f->prev_end);
    } else {
        put_char(&c->o, ' ');
    }
    if (last && dotted) {
        record(c, f);
        if (c->deep)
            pretty_deep_dot(c->deep, f->kid, c->o.line, c->o.col);
        put_char(&c->o, '.');
        put_char(&c->o, ' ');
    }
}

/* One step: place the next kid of the top frame, or close it. */
static PRETTY_INLINE void step(struct lctx *c)
{
    struct lframe *f = &c->st[c->n - 1];
    if (f->pending)
        kid_done(c);
    const struct pnode *p = &c->nodes[f->p];
    if (f->kid == p->next) {
        put_char(&c->o, p->kind == PN_LIST ? ')' : ']');
        if (c->deep)
            pretty_deep_close(c->deep);
        c->npl = f->pl;
        c->n--;
        return;
    }
    uint32_t kid = f->kid;
    bool last = c->nodes[kid].next == p->next;
    if (f->k > 0)
        before_kid(c, f, &c->nodes[kid], last, (p->flags & PF_DOTTED) != 0);
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
    if (!out->data) /* the cursor below points into the buffer */
        buf_reserve(out, 64);
    c.o.b = out;
    c.o.w = out->data + out->len;
    c.o.end = out->data + out->cap;
    c.o.col = col;
    c.o.nl = po && po->newline ? po->newline : "\n";
    c.o.nl_len = strlen(c.o.nl);
    c.o.width = po && po->width > 0 ? po->width : 80;
    c.o.simple = doc->simple;
    c.po = po;
    c.d = doc;
    c.nodes = doc->nodes;
    c.text = doc->text.data;
    c.st = doc->st.lf;
    c.cap = doc->st.lf_cap;
    c.pl = doc->st.pl;
    c.plcap = doc->st.pl_cap;
    const struct pretty_indent *user = po ? po->user : NULL;
    if (doc->memo && doc->memo_user != user)
        memset(doc->memo, 0, PRETTY_HEAD_MEMO * sizeof *doc->memo);
    doc->memo_user = user;
    if (po && (po->emulate || (long)po->depth + (long)doc->depth >= PRETTY_DEEP_LEVELS))
        c.deep = pretty_deep_new(doc, po, c.o.line);
    place(&c, 0, trail);
    while (c.n)
        step(&c);
    out_room(&c.o, 0);
    *c.o.w = 0;
    out->len = (size_t)(c.o.w - out->data);
    doc->st.lf = c.st;
    doc->st.lf_cap = c.cap;
    doc->st.pl = c.pl;
    doc->st.pl_cap = c.plcap;
}
