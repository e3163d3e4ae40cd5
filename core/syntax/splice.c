/* splice.c - lossless output: the input with replaced forms printed in.
 *
 * Last stage in default mode (cli.md 4.1, 4.2).  In order: labels, the
 * indentation of the line break inserted before an expansion that starts
 * with comments, and the loop that copies the bytes between replaced
 * spans and prints each replaced form (its comments and empty lines are
 * placed by splice_notes.c; the user's code in it keeps its text).
 */
#include "syntax/splice_int.h"

#include <stddef.h>
#include <string.h>

#include "syntax/lex.h"

/* ---- positions ---- */

bool splice_crlf(const uint8_t *text, size_t len)
{
    size_t e = splice_line_end(text, len, 0);
    return e < len && e > 0 && text[e - 1] == '\r';
}

unsigned splice_labels(const uint8_t *text, size_t len, uint32_t start, uint32_t end,
                       bool *defines, bool *refers)
{
    struct lex lx;
    struct lex_token t;
    unsigned floor = 0;
    *defines = *refers = false;
    lex_init(&lx, text, len, start);
    while (lex_next(&lx, &t) && t.kind != LK_EOF && t.start < end) {
        if (t.kind == LK_LABEL_REF)
            *refers = true;
        if (t.kind != LK_LABEL_DEF)
            continue;
        *defines = true;
        if (t.ival > (int64_t)floor && t.ival < 1000000000)
            floor = (unsigned)t.ival;
    }
    return floor;
}

unsigned splice_label_floor(const uint8_t *text, size_t len, uint32_t start,
                            uint32_t end)
{
    bool defines, refers;
    return splice_labels(text, len, start, end, &defines, &refers);
}

/* ---- the line break before an expansion that starts with comments ---- */

/* The list or vector whose element is `site` within top-level form top,
 * and the element's index; NULL when site is top.  Prefix forms ('X, ,X)
 * are not lists in the text: the search goes on with the prefix form. */
static const struct datum *container_of(struct data *ds, const struct value *site,
                                        const uint8_t *text, size_t *index)
{
    for (;;) {
        size_t si = 0;
        while (si < ds->n && ds->d[si].v != site)
            si++;
        if (si == ds->n || ds->d[si].parent < 0)
            return NULL;
        const struct datum *c = &ds->d[ds->d[si].parent];
        if (text[c->start] == '(' || text[c->start] == '[') {
            *index = ds->d[si].index;
            return c;
        }
        site = c->v;
    }
}

/* Lines between offsets a <= b. */
static long lines_between(const uint8_t *text, size_t a, size_t b)
{
    long n = 0;
    for (size_t k = a; k < b; k++)
        n += text[k] == '\n';
    return n;
}

/* The first element of container c (one exists). */
static const struct datum *first_elem(const struct data *ds, const struct datum *c)
{
    size_t i = 0;
    while (ds->d[i].parent < 0 || &ds->d[ds->d[i].parent] != c)
        i++;
    return &ds->d[i];
}

/* What pretty_indent_column needs to know of container c besides its
 * elements: whitespace after its bracket, and whether it is a local
 * definition (an element of element 1 of a cl-flet & co form). */
static unsigned list_flags(struct data *ds, const struct datum *c, const uint8_t *text)
{
    unsigned flags = 0;
    if (pretty_space_after_paren(text + c->start + 1, c->end - c->start - 1))
        flags |= PRETTY_SPACE_AFTER_PAREN;
    size_t k = 0;
    const struct datum *p = container_of(ds, c->v, text, &k);
    const struct datum *g = p ? container_of(ds, p->v, text, &k) : NULL;
    if (g && k == 1) {
        const struct datum *h = first_elem(ds, g);
        if (pretty_local_def_head((const char *)text + h->start, h->end - h->start))
            flags |= PRETTY_LOCAL_DEF;
    }
    return flags;
}

/* The column Emacs gives a line that starts with the replaced form, which
 * now follows other text on its line (cli.md 4.1). */
static int indent_for(const struct splice_in *in, const struct pretty_opts *po,
                      const struct read_form *top, const struct value *site)
{
    struct data ds = splice_data(in->L->a, in->src, top->v, top->span, in->L->nil);
    size_t j;
    const struct datum *c = container_of(&ds, site, in->text, &j);
    if (!c || j == 0)
        return c ? splice_column(in->text, c->start) + 1 : 0;
    struct pretty_place *pl = arena_alloc(in->L->a, (j + 1) * sizeof *pl);
    const struct datum *head = first_elem(&ds, c);
    size_t k = 0;
    for (size_t i = 0; i < ds.n && k <= j; i++) {
        const struct datum *d = &ds.d[i];
        if (d->parent >= 0 && &ds.d[d->parent] == c)
            pl[k++] = (struct pretty_place){lines_between(in->text, c->start, d->start),
                                            splice_column(in->text, d->start)};
    }
    return pretty_indent_column(po, (const char *)in->text + head->start,
                                head->end - head->start, splice_column(in->text, c->start),
                                pl, (uint32_t)j, list_flags(&ds, c, in->text));
}

/* ---- output ---- */

struct out {
    struct buf *b;
    const char *nl;
    struct pretty_doc *doc; /* the last site's document, whose memory the
                               next one reuses */
    /* Lists open around a site, as Emacs's parser counts them in its
     * top-level form's text from form_start: depth, up to scanned. */
    size_t form_start, scanned;
    int depth;
    size_t edit, made; /* the next of in->edits to look at; those made */
};

/* Lists and vectors open at `to`, as Emacs's parser counts them in
 * emacs-lisp-mode, from `from` (outside strings and comments) where
 * depth were: brackets outside strings and comments and not after a
 * backslash.  A `?` only prefixes, so `?(` opens a list for it. */
static int open_lists(const uint8_t *t, size_t from, size_t to, int depth)
{
    for (size_t k = from; k < to; k++) {
        switch (t[k]) {
        case '\\': k++; break;
        case '(': case '[': depth++; break;
        case ')': case ']': depth--; break;
        case ';':
            while (k + 1 < to && t[k + 1] != '\n')
                k++;
            break;
        case '"':
            for (k++; k < to && t[k] != '"'; k++)
                k += t[k] == '\\';
            break;
        default: break;
        }
    }
    return depth;
}

static void spaces(struct buf *b, int n)
{
    for (int i = 0; i < n; i++)
        buf_putc(b, ' ');
}

/* Comment lines (the first one starts at column col, already reached),
 * then the line break and indentation for code at column code. */
static void put_comments(struct out *o, const struct pretty_comment *cm,
                         int col, int code)
{
    for (bool first = true; cm; cm = cm->next, first = false) {
        bool single = cm->len < 2 || cm->text[1] != ';';
        int at = single ? 40 : code;
        if (!first) {
            buf_puts(o->b, o->nl);
            col = 0;
        }
        if (at > col)
            spaces(o->b, at - col);
        buf_put(o->b, cm->text, cm->len);
    }
    buf_puts(o->b, o->nl);
    spaces(o->b, code);
}

/* Display column at the end of b (after its last line break). */
static int out_column(const struct buf *b)
{
    size_t ls = b->len;
    while (ls > 0 && b->data[ls - 1] != '\n')
        ls--;
    return pretty_advance((const uint8_t *)b->data + ls, b->len - ls, 0);
}

/* Where a replaced span is in its top-level form and on its line. */
struct site_pos {
    struct span sp;          /* the replaced text */
    const struct read_form *top; /* its top-level form */
    int trail;               /* display width after it on its line */
    bool starts_line;        /* only blanks before it on its line */
};

static struct site_pos site_pos(const struct splice_in *in, struct span sp,
                                const struct read_form *top)
{
    struct site_pos p = {sp, top, 0, false};
    size_t ls = splice_line_start(in->text, sp.start);
    size_t le = splice_line_end(in->text, in->len, sp.end);
    if (le > sp.end && in->text[le - 1] == '\r')
        le--;
    p.trail = pretty_advance(in->text + sp.end, le - sp.end, 0);
    p.starts_line = splice_only_blanks(in->text, ls, sp.start);
    return p;
}

/* Does an atom run on over byte b?  Over what lex_atom_stop lets the
 * scan of a plain atom pass, and the backslash escapes and non-ASCII
 * bytes the lexer takes on its slow path. */
static bool joins(uint8_t b) { return !lex_atom_stop[b] || b == '\\' || b >= 0x80; }

/* Does b end with a read label's definition, "#N="? */
static bool ends_label(const struct buf *b)
{
    size_t n = b->len, k = n - 1; /* n > 0, b ends with '=' */
    while (k > 0 && b->data[k - 1] >= '0' && b->data[k - 1] <= '9')
        k--;
    return k < n - 1 && k > 0 && b->data[k - 1] == '#';
}

/* Does the text in b end a token that an atom written right after it
 * would run into?  An atom does (not a label's "#N=", whose `=` is not
 * a name's), and a character literal: `?X` and `?\X` want a delimiter
 * after them whatever X is (`??`, `?(`, `? `), and so does an escaped
 * byte at the end of a name.  A space after any other token is
 * harmless, so the test need not know which token ends b. */
static bool ends_joinable(const struct buf *b)
{
    size_t n = b->len;
    if (n == 0)
        return false;
    char last = b->data[n - 1];
    if (last == '=' && ends_label(b))
        return false;
    return joins((uint8_t)last) ||
           (n > 1 && (b->data[n - 2] == '?' || b->data[n - 2] == '\\'));
}

/* May the printed v start with an atom's byte?  Lists, vectors and
 * strings start with a delimiter (a list also as 'X, #'X, `X or ,X). */
static bool may_start_atom(const struct value *v)
{
    return !value_consp(v) && !value_is(v, VK_VECTOR) && !value_is(v, VK_STRING);
}

/* The lists open around site p, as far as the layout of its document
 * needs them: where they and the document's pass 100 levels, it
 * follows Emacs's parser state (else 0 is as good).  The reader's
 * nesting of the top-level form bounds them; only past that bound is
 * its text scanned, from the form's start (or the last site scanned
 * to). */
static int lists_around(const struct splice_in *in, struct out *o, struct site_pos p,
                        const struct pretty_doc *doc)
{
    if ((long)p.top->depth < pretty_depth_matters(doc))
        return 0;
    if (o->form_start != p.top->span.start || o->scanned > p.sp.start) {
        o->form_start = o->scanned = p.top->span.start;
        o->depth = 0;
    }
    o->depth = open_lists(in->text, o->scanned, p.sp.start, o->depth);
    o->scanned = p.sp.start;
    return o->depth;
}

/* Copy the kept text [from, to) with the edits that lie in it; an edit
 * that begins before `from` overlapped a replaced span: it is not made
 * (splice_source counts those made). */
static void put_kept(const struct splice_in *in, struct out *o, size_t from, size_t to)
{
    while (o->edit < in->n_edits && in->edits[o->edit].start < from)
        o->edit++;
    for (; o->edit < in->n_edits && in->edits[o->edit].end <= to; o->edit++) {
        const struct splice_edit *e = &in->edits[o->edit];
        buf_put(o->b, in->text + from, e->start - from);
        buf_put(o->b, e->text, e->len);
        from = e->end;
        o->made++;
    }
    buf_put(o->b, in->text + from, to - from);
}

/* Print one site; out already holds the input up to *pos.  Sets *pos to
 * the end of the replaced span.  The document is built first: only then
 * is it known which comments found their code in the expansion and
 * which must come before it, and those decide where the expansion
 * starts. */
static bool emit_site(const struct splice_in *in, struct out *o,
                      const struct splice_site *s, struct site_pos p,
                      size_t *pos, struct splice_text *t)
{
    struct arena *a = in->L->a;
    struct splice_notes *notes = splice_notes_new(in, s->orig, p.sp);
    struct pretty_opts po = in->pretty;
    po.src = in->src;
    splice_notes_hook(notes, &po);
    po.newline = o->nl;
    /* the user's code keeps its text, but text that defines read labels
     * (#1=) would be printed twice or without its label */
    po.keep_text = !p.top->labels;
    struct pretty_doc *doc = pretty_rebuild(o->doc, in->L, &po, s->expansion);
    if (doc && (long)p.top->depth >= pretty_depth_matters(doc)) {
        /* Past 100 nested lists the layout follows a model of Emacs's
         * parser state (pretty_deep.c) made for the layout's own lines:
         * no line of the input's text, no comment line inside.  The
         * comments go before the expansion. */
        po.keep_text = false;
        po.comments = NULL;
        splice_notes_reset(notes);
        doc = pretty_rebuild(doc, in->L, &po, s->expansion);
    }
    if (!doc)
        return false;
    o->doc = doc;
    struct pretty_comment *before = splice_notes_before(notes, pretty_take_root_comments(doc));
    int col;
    if (before && !p.starts_line) {
        size_t ws = p.sp.start;
        while (ws > *pos && splice_blank(in->text[ws - 1]))
            ws--;
        put_kept(in, o, *pos, ws);
        col = indent_for(in, &po, p.top, s->orig);
        buf_puts(o->b, o->nl);
        spaces(o->b, col);
    } else {
        /* The column in the output: an earlier expansion on the same
         * line may have moved the form. */
        put_kept(in, o, *pos, p.sp.start);
        /* a replaced form starts with "(": an atom put in its place
         * must not run into the token before it ("??nil", "anil") */
        if (may_start_atom(s->expansion) && ends_joinable(o->b))
            buf_putc(o->b, ' ');
        col = out_column(o->b);
    }
    size_t mark = o->b->len;
    if (before)
        put_comments(o, before, col, col);
    po.depth = lists_around(in, o, p, doc);
    pretty_layout(doc, &po, o->b, col, p.trail);
    if (t) {
        t->text = arena_strndup(a, o->b->data + mark, o->b->len - mark);
        t->len = o->b->len - mark;
    }
    /* nor the token after it into the expansion ("nilx") */
    if (p.sp.end < in->len && joins(in->text[p.sp.end]) && ends_joinable(o->b))
        buf_putc(o->b, ' ');
    *pos = p.sp.end;
    return true;
}

bool splice_source(const struct splice_in *in, struct buf *out,
                   struct splice_text *texts)
{
    const char *nl = in->newline ? in->newline
                                 : splice_crlf(in->text, in->len) ? "\r\n" : "\n";
    struct out o = {out, nl, NULL, SIZE_MAX, 0, 0, 0, 0};
    size_t pos = in->start, form = 0, begun = SIZE_MAX;
    for (size_t i = 0; i < in->n_sites; i++) {
        struct span sp;
        if (!read_origin_span(in->src, in->sites[i].orig, &sp) || sp.start < pos)
            return false;
        while (form + 1 < in->src->n_forms && in->src->forms[form].span.end <= sp.start)
            form++;
        const struct read_form *top = &in->src->forms[form];
        if (form != begun && in->begin_form) {
            begun = form;
            /* the reader says which forms define labels: no lexing of others */
            in->begin_form(in->begin_ctx,
                           top->labels ? splice_label_floor(in->text, in->len,
                                                            top->span.start,
                                                            top->span.end)
                                       : 0);
        }
        if (!emit_site(in, &o, &in->sites[i], site_pos(in, sp, top), &pos,
                       texts ? &texts[i] : NULL))
            return false;
    }
    put_kept(in, &o, pos, in->len);
    return o.made == in->n_edits;
}
