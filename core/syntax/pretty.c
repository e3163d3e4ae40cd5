/* pretty.c - phase 1 of the pretty printer: value -> document.
 *
 * Stage "print" (cli.md section 8).  In order: display widths, the indent
 * spec tables (Emacs's, generated, plus the user's, and an index of
 * Emacs's), atom texts (source text, temporaries, canonical), node
 * construction with reader-prefix folding, lists that keep their text
 * (the input's line breaks, spaces and spelling), comments (a node's own,
 * trailing ones held for the next line break, those carried to the
 * branch around a node), the explicit-stack builder (a general step, and
 * a loop for the usual generated lists when no comment is asked for),
 * and the public entry points.  Layout (phase 2) is in pretty_layout.c.
 */
#include "syntax/pretty.h"

#include <string.h>

#include "lisp/print.h"
#include "syntax/lex.h"
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
        if (text[k] >= 0x20 && text[k] < 0x7f) { /* most text: one column */
            k++, col++;
            continue;
        }
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

/* Order of name (len bytes) against a table's row: strncmp's, with a
 * longer row after.  Most rows differ in the first byte, compared
 * without a call. */
static int row_order(const char *name, size_t len, const char *row)
{
    if (len && name[0] != row[0])
        return (uint8_t)name[0] < (uint8_t)row[0] ? -1 : 1;
    int c = strncmp(name, row, len);
    return c == 0 && row[len] != 0 ? -1 : c;
}

/* Binary search of a sorted table for name (len bytes). */
static const struct pretty_indent *find_spec(const struct pretty_indent *t,
                                             size_t n, const char *name,
                                             size_t len)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = row_order(name, len, t[mid].name);
        if (c == 0)
            return &t[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* The spec given a table's row r, or NULL.  Only the property counts:
 * Emacs 30 no longer indents a head named "def..." as a definition
 * when it has none. */
static int spec_of(const struct pretty_indent *r)
{
    int spec = r ? r->spec : PRETTY_NONE;
    return spec == PRETTY_UNSUPPORTED ? PRETTY_NONE : spec;
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
    return spec_of(r);
}

/* Emacs's table hashed by name (open addressing), for a caller that
 * looks names up many times. */
#define SPEC_SLOTS 1024
_Static_assert(COUNT(emacs_specs) < SPEC_SLOTS / 2, "the index stays half empty");

struct pretty_spec_index {
    uint16_t slot[SPEC_SLOTS];            /* 1 + row, 0 for a free slot */
    uint16_t len[COUNT(emacs_specs)];     /* bytes of each row's name */
};

/* A few bytes and the length: the index is made once per document
 * memory, and hashing every byte of every row cost more than the
 * lookups it saved. */
static uint32_t name_hash(const char *name, size_t len)
{
    if (!len)
        return 0;
    uint32_t h = (uint32_t)len * 0x9E3779B1u;
    h ^= (uint8_t)name[0] * 0x85EBCA6Bu ^ (uint8_t)name[len - 1] * 0xC2B2AE35u ^
         (uint8_t)name[len / 2] * 0x27D4EB2Fu;
    return h ^ (h >> 15);
}

struct pretty_spec_index *pretty_spec_index_new(struct arena *a)
{
    struct pretty_spec_index *x = arena_zalloc(a, sizeof *x);
    for (size_t i = 0; i < COUNT(emacs_specs); i++) {
        size_t len = strlen(emacs_specs[i].name);
        x->len[i] = (uint16_t)len;
        uint32_t j = name_hash(emacs_specs[i].name, len) & (SPEC_SLOTS - 1);
        while (x->slot[j])
            j = (j + 1) & (SPEC_SLOTS - 1);
        x->slot[j] = (uint16_t)(i + 1);
    }
    return x;
}

int pretty_spec_lookup(const struct pretty_spec_index *x,
                       const struct pretty_opts *o, const char *name, size_t len)
{
    const struct pretty_indent *r = NULL;
    if (o && o->user)
        r = find_spec(o->user, o->n_user, name, len);
    for (uint32_t j = name_hash(name, len) & (SPEC_SLOTS - 1); !r && x->slot[j];
         j = (j + 1) & (SPEC_SLOTS - 1)) {
        size_t i = x->slot[j] - 1u;
        if (x->len[i] == len && memcmp(emacs_specs[i].name, name, len) == 0)
            r = &emacs_specs[i];
    }
    return spec_of(r);
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

/* Expression prefixes (' ` , #) and @ (prefix flag), which the parser
 * skips before it looks at an element; and NUL, as strchr finds it. */
static bool skipped_char(char c)
{
    return c == '\'' || c == '`' || c == ',' || c == '#' || c == '@' || c == 0;
}

/* Heads whose element 1 lists local definitions, which Emacs 30's
 * lisp-indent-function indents as defuns whatever their own head. */
static const struct pretty_indent local_def_heads[] = {
    {"cl-flet", 0}, {"cl-flet*", 0}, {"cl-labels", 0}, {"cl-macrolet", 0},
    {"cl-symbol-macrolet", 0},
};

bool pretty_local_def_head(const char *text, size_t len)
{
    return find_spec(local_def_heads, COUNT(local_def_heads), text, len) != NULL;
}

/* Characters of whitespace syntax in emacs-lisp-mode beyond ASCII's
 * space, TAB and form feed (Emacs 30.1's table), as ranges. */
static const uint32_t unicode_spaces[][2] = {
    {0xa0, 0xa0}, {0x2000, 0x200b}, {0x202f, 0x202f}, {0x205f, 0x205f},
    {0x3000, 0x3000},
};

bool pretty_space_after_paren(const uint8_t *text, size_t len)
{
    if (!len)
        return false;
    if (text[0] < 0x80)
        return text[0] == ' ' || text[0] == '\t' || text[0] == '\f';
    int n;
    uint32_t c = value_char_decode(text, len, &n);
    for (size_t i = 0; i < COUNT(unicode_spaces); i++)
        if (c >= unicode_spaces[i][0] && c <= unicode_spaces[i][1])
            return true;
    return false;
}

enum phead pretty_head_class_text(const char *text, size_t n,
                                  const char **name, size_t *len)
{
    while (n && skipped_char(text[0]))
        text++, n--;
    *name = text;
    *len = n;
    if (n && (text[0] == '(' || text[0] == '['))
        return PH_LIST;
    return n && symbol_char((uint8_t)text[0]) ? PH_SYMBOL : PH_OTHER;
}

/* ---- building ---- */

struct bctx {
    struct lisp *L;
    const struct pretty_opts *o;
    struct pretty_doc *d;
    struct print_opts po;        /* atoms by the canonical printer */
    struct print_opts po_circle; /* quoted data printed as one atom */
    bool compact;
    bool data_atoms; /* quoted lists and vectors print as one atom */
    bool quiet;      /* no comment is asked for (compact, or no hook) */
    const uint8_t *src;          /* the input, when lists keep their text */
    const struct value *holder;  /* the cell of the element being made, or NULL */
    bool kept;                   /* that element is one of a list keeping its text */
    struct pretty_comment *trail1; /* for the clause node trail1_node, made but */
    uint32_t trail1_node;          /* not opened yet: its bframe.trail1 */
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
    /* the positions in the table: most nils are elsewhere */
    if ((index != 1 && index != 2) || !head || !value_symbolp(head))
        return false;
    const struct pretty_indent *r =
        find_spec(arglist_pos, COUNT(arglist_pos), head->u.sym.name, head->u.sym.len);
    return r && (size_t)r->spec == index;
}

/* Is sym named `cond` (as strcmp sees its name)? */
static bool named_cond(const struct value *sym)
{
    return sym->u.sym.len >= 4 && memcmp(sym->u.sym.name, "cond", 5) == 0;
}

/* Does v, a symbol, print as its own name when interned?  The printer's
 * answer is kept on the symbol. */
static inline bool plain_name(const struct value *v)
{
    const struct value_symbol *s = &v->u.sym;
    return s->interned && s->len &&
           (s->plain == 1 || (s->plain == 0 && print_symbol_plain(v)));
}

/* Room for n more bytes of the document's text, where the caller writes
 * them and moves the length (the text has no NUL after it while it is
 * built: build puts one at the end). */
static inline char *text_room(struct buf *t, size_t n)
{
    if (t->cap - t->len <= n)
        buf_grow(t, n);
    return t->data + t->len;
}

/* A space in the document's text. */
static inline void put_space(struct buf *t)
{
    *text_room(t, 1) = ' ';
    t->len++;
}

/* A symbol in a list that keeps its text is written as in the input:
 * the text of its cell's car.  False when that is not known. */
static bool kept_symbol(struct bctx *c, struct buf *t)
{
    struct span sp;
    if (!c->holder || !read_origin_car_span(c->o->src, c->holder, &sp) || sp.end <= sp.start)
        return false;
    buf_put(t, c->src + sp.start, sp.end - sp.start);
    return true;
}

/* Append the text of atom v, element `index` of a list headed by `head`,
 * to the document's text.  Temporaries first (their names depend on
 * print order); then the source text of atoms read from the input (?a
 * stays ?a); else the canonical printer, which an interned symbol that
 * prints as its name does not need.  Uninterned symbols that are not
 * temporaries print with #: outside --compact, so the output never
 * silently turns them into interned ones. */
static void put_atom(struct bctx *c, struct pnode *p, const struct value *v,
                     const struct value *head, size_t index)
{
    struct buf *t = &c->d->text;
    const struct pretty_opts *o = c->o;
    size_t n;
    if (value_symbolp(v)) {
        const struct value_symbol *s = &v->u.sym;
        if (!s->interned) {
            const char *x = o->sym_text ? o->sym_text(o->sym_ctx, v, &n) : NULL;
            if (x) {
                buf_put(t, x, n);
                return;
            }
        } else if (c->kept && kept_symbol(c, t)) {
            return;
        } else if (!c->compact && v == c->L->nil && arglist_position(head, index)) {
            buf_put(t, "()", 2);
            return;
        } else if (s->len && print_symbol_plain(v)) {
            p->sym = v;
            buf_put(t, s->name, s->len);
            return;
        }
    } else if (!c->compact && o->src) {
        const uint8_t *x = read_origin_text(o->src, v, &n);
        if (x) {
            buf_put(t, x, n);
            return;
        }
    }
    print_value(c->L, t, v, &c->po);
}

/* The hook's reply for v, held by cell holder (NULL: none). */
static void ask(struct bctx *c, const struct value *v, const struct value *holder,
                struct pretty_hook_reply *r)
{
    memset(r, 0, sizeof *r);
    if (!c->compact && c->o->comments)
        c->o->comments(c->o->comment_ctx, v, holder, r);
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
static inline const char *prefix_of(const struct lisp *L, const struct value *v,
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

/* Is v, a quote form, written in the input as a list ("(quote x)"), which
 * a list keeping its text prints as written? */
static bool written_out(const struct bctx *c, const struct value *v)
{
    struct span sp;
    return c->src && read_origin_span(c->o->src, v, &sp) && c->src[sp.start] == '(';
}

/* Fold reader prefixes of v into node p, their text into the document's.
 * A prefix and its object are one node, so no line break can come
 * between them; what the hook says of each value on the chain is said
 * of the node (merged into *acc).  c->holder follows the chain (the cell
 * of its object). */
static struct unwrapped unwrap(struct bctx *c, struct pnode *p, const struct value *v,
                               int level, bool data, struct pretty_hook_reply *acc)
{
    struct buf *t = &c->d->text;
    const char *pre;
    while ((pre = prefix_of(c->L, v, level)) && !written_out(c, v)) {
        buf_puts(t, pre);
        if (pre[0] == '`')
            level++, data = true;
        else if (pre[0] == ',')
            level--, data = false;
        else
            data = pre[0] == '\'';
        c->holder = value_cdr(v);
        v = value_car(value_cdr(v));
        struct pretty_hook_reply r;
        ask(c, v, c->holder, &r);
        acc->comments = append_comments(acc->comments, r.comments);
        acc->carried = append_comments(acc->carried, r.carried);
        acc->blank |= r.blank;
        acc->user |= r.user;
    }
    p->prefix_len = (uint32_t)(t->len - p->start);
    return (struct unwrapped){v, level, data};
}

/* A container being filled with its kids. */
struct bframe {
    uint32_t node;                /* its node */
    uint32_t index;               /* next element's position */
    const struct value *cur;      /* list: the cons of the next element;
                                     vector: the vector */
    const struct value *head;     /* first element (arglist rule) */
    const struct value *tortoise; /* Brent's cycle check on the spine */
    const struct value *holder;   /* the cell of the element taken last */
    struct pretty_comment *trail; /* trailing comments for the next kid */
    struct pretty_comment *trail1; /* a cond clause's: for its element 1 */
    uint32_t power, lam;
    uint32_t prev_end;            /* where the last element ends in the
                                     input (0: it was not read from it) */
    int level;                    /* backquote level inside */
    bool vec;                     /* a vector */
    bool data;                    /* inside a quote */
    bool cond;                    /* a list headed by cond: lists are clauses */
    bool is_if;                   /* a list headed by if */
    bool bindings;                /* element 1 of a let or let* */
    bool kept;                    /* it keeps its text (PF_SOURCE) */
    bool user;                    /* it stands for a datum of the input */
};

struct bstack {
    struct bframe *f;
    size_t n, cap;
};

/* The first room holds most expansions' nodes (160 KB: copying a
 * growing array cost more than the room, which costs nothing until
 * written). */
static void grow_nodes(struct pretty_doc *d)
{
    uint32_t cap = d->cap ? d->cap * 2 : 4096;
    d->nodes = arena_grow(d->a, d->nodes, d->cap * sizeof *d->nodes,
                          cap * sizeof *d->nodes);
    d->cap = cap;
}

/* A new node at the end of the document (not initialised). */
static inline uint32_t new_node(struct pretty_doc *d)
{
    if (d->n == d->cap)
        grow_nodes(d);
    return d->n++;
}

static void grow_frames(struct bctx *c, struct bstack *s)
{
    size_t cap = s->cap ? s->cap * 2 : 32;
    s->f = arena_grow(c->L->a, s->f, s->cap * sizeof *s->f, cap * sizeof *s->f);
    s->cap = cap;
}

/* Is sym named exactly name (a literal)? */
static bool sym_named(const struct value *sym, const char *name, size_t n)
{
    return value_symbolp(sym) && sym->u.sym.len == n && memcmp(sym->u.sym.name, name, n) == 0;
}

/* Is the list being opened inside the top frame element 1 of a let or
 * let* (its bindings)? */
static bool opens_bindings(const struct bstack *s)
{
    if (!s->n)
        return false;
    const struct bframe *f = &s->f[s->n - 1];
    return !f->vec && !f->data && f->index == 2 &&
           (sym_named(f->head, "let", 3) || sym_named(f->head, "let*", 4));
}

/* A frame for the kids of container v, node i (level and data: inside
 * it). */
static PRETTY_INLINE void push_frame(struct bctx *c, struct bstack *s,
                                     uint32_t i, const struct value *v,
                                     int level, bool data)
{
    if (s->n == s->cap)
        grow_frames(c, s);
    bool list = value_consp(v);
    const struct value *head = list ? value_car(v) : NULL;
    bool bindings = list && opens_bindings(s);
    s->f[s->n++] = (struct bframe){
        .node = i, .cur = v, .head = head, .tortoise = v, .power = 1, .lam = 1,
        .level = level, .vec = !list, .data = data, .bindings = bindings,
        .cond = list && value_symbolp(head) && named_cond(head),
        .is_if = list && sym_named(head, "if", 2)};
    if (s->n > c->d->depth)
        c->d->depth = (uint32_t)s->n;
}

/* ---- lists that keep their text (pretty_opts.keep_text) ---- */

/* Span of element e of a list (its cell holder) or vector (holder NULL):
 * symbols are known through their cell only. */
static bool elem_span(const struct bctx *c, const struct value *e,
                      const struct value *holder, struct span *sp)
{
    if (read_origin_span(c->o->src, e, sp))
        return true;
    return holder && read_origin_car_span(c->o->src, holder, sp);
}

/* Is element e, written at sp, a reader prefix ('x, `x, ,x, ,@x, #'x)
 * rather than a symbol?  Then its list is that form spliced in as a
 * dotted tail, "(a . ,b)" = (a \, b), whose text is not its elements'. */
static bool prefix_token(const struct bctx *c, const struct value *e, struct span sp)
{
    uint8_t b = c->src[sp.start];
    return value_symbolp(e) &&
           (b == '\'' || b == '`' || b == ',' || (b == '#' && sp.end - sp.start == 2 &&
                                                  c->src[sp.start + 1] == '\''));
}

/* Is text[from, to) blanks and line breaks only? */
static bool white_only(const uint8_t *text, uint32_t from, uint32_t to)
{
    for (uint32_t k = from; k < to; k++)
        if (text[k] != ' ' && text[k] != '\t' && text[k] != '\n' && text[k] != '\r')
            return false;
    return true;
}

/* Is the rest v of a list the tail `. ,X` as written, from input offset
 * `at` (where the element before it ends) to `end`?  The reader makes
 * (A . ,X) the list (A \, X): its last two elements stand for the tail,
 * which a list keeping its text prints as written (printed whole, it
 * would be (A \, X), as Emacs prints it).  Only where `,` is printed as
 * a prefix (inside a backquote), and only blanks around the dot. */
static bool comma_tail(const struct bctx *c, const struct value *v, int level,
                       uint32_t at, uint32_t end)
{
    struct span t;
    const char *pre = prefix_of(c->L, v, level);
    if (!pre || strcmp(pre, ",") != 0 || !read_origin_span(c->o->src, v, &t) ||
        t.start < at || t.end > end || c->src[t.start] != ',')
        return false;
    const uint8_t *dot = memchr(c->src + at, '.', t.start - at);
    uint32_t d = dot ? (uint32_t)(dot - c->src) : 0;
    return dot && white_only(c->src, at, d) && white_only(c->src, d + 1, t.start);
}

/* Does container v keep its text?  It must be the reader's own, written
 * with a bracket, every element (but a dotted tail) with a span after
 * the last one's inside v's: then its text is v's and the elements' texts
 * are theirs.  *open gets where its text starts. */
static bool keeps_text(const struct bctx *c, const struct value *v, int level,
                       uint32_t *open)
{
    struct span sp, e;
    if (!c->src || !read_origin_span(c->o->src, v, &sp) ||
        (c->src[sp.start] != '(' && c->src[sp.start] != '['))
        return false;
    uint32_t at = sp.start + 1;
    if (value_is(v, VK_VECTOR)) {
        for (size_t k = 0; k < v->u.vec.n; k++, at = e.end)
            if (!elem_span(c, v->u.vec.items[k], NULL, &e) || e.start < at || e.end >= sp.end)
                return false;
    } else {
        /* each element takes a byte at least: the walk ends, even on a
         * spine that loops */
        for (size_t n = 0; value_consp(v); v = value_cdr(v), at = e.end) {
            if (n > 0 && comma_tail(c, v, level, at, sp.end))
                break; /* a dotted tail, as written */
            if (++n > sp.end - sp.start || !elem_span(c, value_car(v), v, &e) ||
                e.start < at || e.end >= sp.end || prefix_token(c, value_car(v), e))
                return false;
        }
    }
    *open = sp.start + 1;
    return true;
}

/* The separator before element e (position index) of kept frame f: the
 * input's spaces when it is on the line of the element before (one
 * space for other blanks), else one space, and PF_NEWLINE (PF_BLANK too
 * after an empty line) in *flags; none before the first element. */
static void kept_separator(struct bctx *c, struct bframe *f, const struct value *e,
                           uint32_t index, uint8_t *flags)
{
    struct buf *t = &c->d->text;
    struct span sp;
    if (!elem_span(c, e, f->holder, &sp)) { /* keeps_text saw every span */
        if (index > 0)
            put_space(t);
        return;
    }
    uint32_t from = f->prev_end;
    f->prev_end = sp.end;
    if (index == 0)
        return;
    bool newline, empty;
    lex_trivia_lines(c->src, from, sp.start, &newline, &empty);
    if (newline)
        *flags |= PF_NEWLINE | (empty ? PF_BLANK : 0);
    uint32_t k = from;
    while (k < sp.start && c->src[k] == ' ')
        k++;
    if (newline || k < sp.start || k == from) {
        put_space(t);
        return;
    }
    buf_put(t, c->src + from, k - from);
}

/* Element e of frame f, whose list does not keep its text, after the
 * element before it: when both were read, one right after the other in
 * the input (body forms of a clause, say), an empty line between them
 * is kept (PF_BLANK, else 0). */
static uint8_t apart(struct bctx *c, struct bframe *f, const struct value *e)
{
    struct span sp;
    uint32_t from = f->prev_end;
    f->prev_end = 0;
    if (!read_origin_span(c->o->src, e, &sp))
        return 0;
    f->prev_end = sp.end;
    if (!from || from > sp.start ||
        lex_skip_trivia(c->src, sp.start, from) != sp.start)
        return 0;
    bool newline, empty;
    lex_trivia_lines(c->src, from, sp.start, &newline, &empty);
    return empty ? PF_BLANK : 0;
}

/* Open container v as node i: its bracket, and a frame for its kids;
 * user: v stands for a datum of the input. */
static void open_node(struct bctx *c, struct bstack *s, uint32_t i,
                      const struct value *v, int level, bool data, bool user)
{
    struct pnode *p = &c->d->nodes[i];
    bool list = value_consp(v);
    uint32_t open = 0;
    bool kept = c->src && keeps_text(c, v, level, &open);
    p->kind = list ? PN_LIST : PN_VECTOR;
    if (kept)
        p->flags |= PF_SOURCE;
    *text_room(&c->d->text, 1) = list ? '(' : '[';
    c->d->text.len++;
    push_frame(c, s, i, v, level, data);
    struct bframe *f = &s->f[s->n - 1];
    if (c->trail1 && c->trail1_node == i) {
        f->trail1 = c->trail1;
        c->trail1 = NULL;
    }
    f->kept = kept;
    f->prev_end = kept ? open : 0;
    f->user = user;
}

/* ---- comments ---- */

/* The innermost frame whose list has elements after the one being
 * made (its next kid starts a line after a trailing comment), or NULL. */
static struct bframe *frame_with_more(const struct bctx *c, struct bstack *s)
{
    for (size_t j = s->n; j-- > 0;) {
        struct bframe *f = &s->f[j];
        if (f->vec ? f->index < f->cur->u.vec.n : f->cur != c->L->nil)
            return f;
    }
    return NULL;
}

/* The comment *held, no longer trailing, and *held emptied. */
static struct pretty_comment *untrail(struct pretty_comment **held)
{
    struct pretty_comment *cm = *held;
    cm->trailing = false;
    *held = NULL;
    return cm;
}

/* Did cm end a line of code in the input, and start with one `;` (the
 * convention for a comment on the right of code)? */
static bool margin_comment(const struct pretty_comment *cm)
{
    return cm->trailing && (cm->len < 2 || cm->text[1] != ';');
}

/* Of the comments carried to a clause of the cond whose frame is j - 1,
 * the first margin comment (at the end of the pattern's line, as
 * `('found  ; 302`) ends the line of the clause's test, as people write
 * it: it goes first among the comments of the clause's
 * element 1, where that element is not made yet (bframe.trail1 of the
 * clause's frame j, or bctx.trail1 while the clause is node i itself, not
 * opened yet) or is being made (node i, or the node of frame j + 1).
 * The other comments are returned. */
static struct pretty_comment *clause_trailer(struct bctx *c, struct bstack *s,
                                             size_t j, uint32_t i, uint32_t n,
                                             struct pretty_comment *carried)
{
    struct pretty_comment **held = NULL;
    struct pnode *elem1 = NULL;
    if (n == i)
        held = c->trail1 ? NULL : &c->trail1;
    else if (s->f[j].index <= 1)
        held = s->f[j].trail1 ? NULL : &s->f[j].trail1;
    else if (s->f[j].index == 2)
        elem1 = &c->d->nodes[j + 1 < s->n ? s->f[j + 1].node : i];
    if (!held && !elem1)
        return carried;
    struct pretty_comment **p = &carried;
    while (*p && !margin_comment(*p))
        p = &(*p)->next;
    struct pretty_comment *cm = *p;
    if (!cm)
        return carried;
    *p = cm->next;
    cm->next = NULL;
    if (held) {
        *held = cm;
        if (held == &c->trail1)
            c->trail1_node = i;
    } else {
        elem1->comments = append_comments(cm, elem1->comments);
    }
    return carried;
}

/* Carried comments of node i go to the branch that carries it (see
 * pretty_hook_reply): i or a list around it, up to the whole value or
 * to the element of a list that stands for a datum of the input. */
static void carry(struct bctx *c, struct bstack *s, uint32_t i,
                  struct pretty_comment *carried, bool blank)
{
    uint32_t n = i, blank_from = 1; /* where empty lines may go: between
                                         branches, not after a list's head */
    size_t j = s->n;
    uint32_t idx = j ? s->f[j - 1].index - 1 : 0;
    while (j > 0) {
        const struct bframe *p = &s->f[j - 1];
        bool code = !p->data;
        if (p->user || (p->bindings && idx >= 1))
            break;
        if ((code && p->cond && idx >= 1) || (code && p->is_if && idx >= 2)) {
            blank_from = p->cond ? 2 : 3;
            break;
        }
        n = p->node;
        j--;
        idx = j ? s->f[j - 1].index - 1 : 0;
    }
    if (j > 0 && s->f[j - 1].cond && !s->f[j - 1].data)
        carried = clause_trailer(c, s, j, i, n, carried);
    for (struct pretty_comment *cm = carried; cm; cm = cm->next)
        cm->trailing = false;
    struct pnode *k = &c->d->nodes[n];
    k->comments = n == i ? append_comments(carried, k->comments)
                         : append_comments(k->comments, carried);
    if (blank && j > 0 && idx >= blank_from)
        k->flags |= PF_BLANK;
}

/* What the hook said of node i (made, its frame not pushed yet): its
 * own comments; trailing ones for the next kid of the innermost list
 * around it that has one, else on lines before it too; and the carried
 * ones. */
static void place_comments(struct bctx *c, struct bstack *s, uint32_t i,
                           const struct pretty_hook_reply *r)
{
    struct pretty_comment *own = NULL, **tail = &own;
    for (struct pretty_comment *cm = r->comments, *next; cm; cm = next) {
        next = cm->next;
        cm->next = NULL;
        struct bframe *f = cm->trailing ? frame_with_more(c, s) : NULL;
        if (f) {
            f->trail = append_comments(f->trail, cm);
        } else {
            cm->trailing = false;
            *tail = cm;
            tail = &cm->next;
        }
    }
    struct pnode *p = &c->d->nodes[i];
    p->comments = append_comments(p->comments, own);
    if (r->carried || r->blank)
        carry(c, s, i, r->carried, r->blank);
}

/* The node for v (its index); pushes a frame when v is a list or vector
 * whose kids are still to be read.  Quoted data becomes one atom,
 * printed with print-circle labels, when data_atoms is set: the way to
 * print data that contains itself or is nested deeper than the layout
 * goes.  Such data holds no temporaries (those are only made for code). */
static uint32_t make_node(struct bctx *c, struct bstack *s,
                          const struct value *v, int level, bool data,
                          const struct value *head, size_t index)
{
    struct pretty_doc *d = c->d;
    uint32_t i = new_node(d);
    struct pnode *p = &d->nodes[i];
    p->start = (uint32_t)d->text.len;
    p->flags = 0;
    p->sym = NULL;
    p->comments = NULL;
    struct pretty_hook_reply r;
    ask(c, v, c->holder, &r);
    struct unwrapped u = unwrap(c, p, v, level, data, &r);
    if (u.data)
        p->flags = PF_DATA;
    if (r.comments || r.carried || r.blank)
        place_comments(c, s, i, &r);
    bool container = value_consp(u.v) || value_is(u.v, VK_VECTOR);
    if (container && !(c->data_atoms && u.data && u.level == 0)) {
        open_node(c, s, i, u.v, u.level, u.data, r.user);
        return i;
    }
    if (c->trail1 && c->trail1_node == i) /* no elements: before it after all */
        p->comments = append_comments(p->comments, untrail(&c->trail1));
    p->kind = PN_ATOM;
    if (container)
        print_value(c->L, &d->text, u.v, &c->po_circle);
    else
        put_atom(c, p, u.v, head, index);
    p->end = (uint32_t)d->text.len;
    p->next = i + 1;
    p->width = (int32_t)(p->end - p->start);
    return i;
}

/* Kid k of node i is complete: a kid that spans lines, or one after the
 * first that starts a line (comments before it, an empty line, a line
 * break kept from the input), puts i on several lines. */
static void kid_done(struct pretty_doc *d, uint32_t i, uint32_t k)
{
    const struct pnode *kid = &d->nodes[k];
    if ((kid->flags & PF_MULTILINE) ||
        (k > i + 1 && (kid->comments || (kid->flags & (PF_NEWLINE | PF_BLANK)))))
        d->nodes[i].flags |= PF_MULTILINE;
}

/* All kids of node i read: its closing bracket, extent and width (in
 * bytes; measure corrects it for other text). */
static PRETTY_INLINE void finish_node(struct pretty_doc *d, uint32_t i)
{
    struct pnode *p = &d->nodes[i];
    *text_room(&d->text, 1) = p->kind == PN_LIST ? ')' : ']';
    p->end = (uint32_t)++d->text.len;
    p->next = d->n;
    p->width = (int32_t)(p->end - p->start);
    /* No line break right after an open paren: comments of the first
     * element go before the whole list. */
    if (p->next > i + 1 && d->nodes[i + 1].comments) {
        p->comments = append_comments(p->comments, d->nodes[i + 1].comments);
        d->nodes[i + 1].comments = NULL;
    }
}

/* The next element of frame f, or NULL at the end; *dotted when it is a
 * dotted tail.  Sets *cycle when the spine loops. */
static const struct value *next_elem(struct bctx *c, struct bframe *f,
                                     bool *dotted, bool *cycle)
{
    *dotted = false;
    f->holder = NULL;
    if (f->vec)
        return f->index < f->cur->u.vec.n ? f->cur->u.vec.items[f->index] : NULL;
    const struct value *cur = f->cur;
    if (cur == c->L->nil)
        return NULL;
    if (!value_consp(cur)) {
        *dotted = true;
        f->cur = c->L->nil;
        return cur;
    }
    if (f->kept && f->index > 0 && comma_tail(c, cur, f->level, f->prev_end, UINT32_MAX)) {
        *dotted = true; /* `. ,X` as written (keeps_text) */
        f->cur = c->L->nil;
        return cur;
    }
    f->holder = cur;
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

/* The text atom e has before any printing, when no comment is asked
 * for: a temporary's name from the caller, or an atom's source text (a
 * symbol printing as its name is quiet_run's).  NULL for others: the
 * general step prints them, and asks again the same question, which
 * changes nothing for them. */
static const char *ready_text(const struct bctx *c, const struct value *e,
                              size_t *n)
{
    const struct pretty_opts *o = c->o;
    if (value_symbolp(e))
        return !e->u.sym.interned && o->sym_text ? o->sym_text(o->sym_ctx, e, n) : NULL;
    if (c->compact || !o->src)
        return NULL;
    return (const char *)read_origin_text(o->src, e, n);
}

/* Does element e of frame f (position index) print as its own name: an
 * interned symbol that prints so, but nil where it stands for an empty
 * argument list? */
static inline bool name_elem(const struct bctx *c, const struct bframe *f,
                             const struct value *e, uint32_t index)
{
    return plain_name(e) &&
           (e != c->L->nil || c->compact || !arglist_position(f->head, index));
}

/* The top frame's element e (position index, a dotted tail when dotted)
 * after its separator; a list or vector gets a frame of its own. */
static void add_elem(struct bctx *c, struct bstack *s, const struct value *e,
                     uint32_t index, bool dotted)
{
    struct pretty_doc *d = c->d;
    size_t depth = s->n;
    struct bframe *f = &s->f[depth - 1];
    uint32_t parent = f->node;
    bool clauses = f->cond && !f->data && index > 0;
    uint8_t flags = 0;
    if (dotted) {
        buf_put(&d->text, " . ", 3);
        d->nodes[parent].flags |= PF_DOTTED;
    } else if (f->kept) {
        kept_separator(c, f, e, index, &flags);
    } else {
        if (index > 0)
            put_space(&d->text);
        if (c->src)
            flags |= apart(c, f, e);
    }
    struct pretty_comment *trail = f->trail;
    f->trail = NULL;
    if (index == 1 && f->trail1) {
        trail = append_comments(trail, f->trail1);
        f->trail1 = NULL;
    }
    c->holder = f->holder;
    c->kept = f->kept;
    uint32_t k = make_node(c, s, e, f->level, f->data, f->head, index);
    c->holder = NULL;
    c->kept = false;
    struct pnode *kid = &d->nodes[k];
    kid->flags |= flags;
    if (trail)
        kid->comments = append_comments(trail, kid->comments);
    if (clauses && kid->kind == PN_LIST && !kid->prefix_len)
        kid->flags |= PF_CLAUSE;
    if (s->n == depth) /* an atom: complete */
        kid_done(d, parent, k);
}

/* Is frame f, of `elements' elements in all, a cond that pcexpand made,
 * with two clauses or more?  It gets a line per clause even where it
 * would fit on one, as people write a cond; a cond of the user's keeps
 * the user's layout.  (quiet_run's frames are never kept nor the user's:
 * no hook says so there.) */
static bool generated_cond(const struct bframe *f, uint32_t elements)
{
    return f->cond && !f->data && !f->vec && !f->kept && !f->user && elements >= 3;
}

/* The spine state of the list being read, which quiet_run keeps in
 * locals (its frame holds it otherwise). */
struct spine {
    const struct value *cur, *tortoise;
    uint32_t index, lam, power;
};

static inline struct spine spine_of(const struct bframe *f)
{
    return (struct spine){f->cur, f->tortoise, f->index, f->lam, f->power};
}

static inline void spine_keep(struct bframe *f, const struct spine *sp)
{
    f->cur = sp->cur;
    f->tortoise = sp->tortoise;
    f->index = sp->index;
    f->lam = sp->lam;
    f->power = sp->power;
}

/* Take the element at sp->cur: Brent's step (as next_elem takes it).
 * Returns whether a separator goes before it (not the first). */
static inline bool spine_take(struct spine *sp)
{
    if (sp->lam++ == sp->power) {
        sp->tortoise = sp->cur;
        sp->power *= 2;
        sp->lam = 1;
    }
    sp->cur = value_cdr(sp->cur);
    return sp->index++ > 0;
}


/* Where quiet_run writes, kept in locals: a byte stored through the
 * text may change any object for all the compiler knows, so positions
 * kept in the document would be read again after each. */
struct wpos {
    char *text, *t, *t_end; /* the text, its next byte, its room's end */
    struct pnode *nodes;
    uint32_t n, cap;        /* nodes used, allocated */
};

static PRETTY_INLINE struct wpos wpos_of(const struct pretty_doc *d)
{
    return (struct wpos){d->text.data, d->text.data + d->text.len,
                         d->text.data + d->text.cap, d->nodes, d->n, d->cap};
}

static PRETTY_INLINE void wpos_keep(struct pretty_doc *d, const struct wpos *w)
{
    d->text.len = (size_t)(w->t - w->text);
    d->n = w->n;
}

static void grow_room(struct pretty_doc *d, size_t n)
{
    buf_reserve(&d->text, n);
    if (d->n == d->cap)
        grow_nodes(d);
}

/* Room for a node and n bytes of text (and one more). */
static PRETTY_INLINE void wpos_room(struct pretty_doc *d, struct wpos *w,
                                    size_t n)
{
    if ((size_t)(w->t_end - w->t) > n && w->n != w->cap)
        return;
    wpos_keep(d, w);
    grow_room(d, n);
    *w = wpos_of(d);
}

/* The node of an atom whose text is x (n bytes), after a space when sep.
 * sym: an interned symbol whose name x is (zero-padded to 16 bytes, so
 * a short one is copied as two words), else NULL. */
static PRETTY_INLINE void w_atom(struct pretty_doc *d, struct wpos *w,
                                 const char *x, size_t n, bool sep,
                                 uint8_t flags, const struct value *sym)
{
    wpos_room(d, w, n + 17);
    uint32_t start = (uint32_t)(w->t - w->text) + sep, i = w->n++;
    *w->t = ' ';
    w->t += sep;
    if (sym && n <= 16)
        memcpy(w->t, x, 16);
    else
        memcpy(w->t, x, n);
    w->t += n;
    w->nodes[i] = (struct pnode){start, start + (uint32_t)n, i + 1, (int32_t)n, 0,
                                 PN_ATOM, flags, sym, NULL};
}

/* The node of a list, opened after a space when sep; its index. */
static PRETTY_INLINE uint32_t w_open(struct pretty_doc *d, struct wpos *w,
                                     bool sep, uint8_t flags)
{
    wpos_room(d, w, 2);
    uint32_t start = (uint32_t)(w->t - w->text) + sep, i = w->n++;
    *w->t = ' ';
    w->t += sep;
    *w->t++ = '(';
    w->nodes[i] = (struct pnode){start, 0, 0, 0, 0, PN_LIST, flags, NULL, NULL};
    return i;
}

/* List node i is complete.  Without comments, nothing of its kids
 * changes it further (no comment to hoist, none to make it span lines:
 * kid_done and finish_node's other work). */
static PRETTY_INLINE void w_close(struct pretty_doc *d, struct wpos *w,
                                  uint32_t i)
{
    wpos_room(d, w, 1);
    *w->t++ = ')';
    struct pnode *p = &w->nodes[i];
    p->end = (uint32_t)(w->t - w->text);
    p->next = w->n;
    p->width = (int32_t)(p->end - p->start);
}

/* May list e keep its text (the general step decides)? */
static inline bool may_keep(const struct bctx *c, const struct value *e)
{
    struct span sp;
    return c->src && read_origin_span(c->o->src, e, &sp);
}

/* The usual part of the build when no comment is asked for: lists of
 * names, of atoms with a ready text and of lists without prefix, read
 * with the top list's spine and the write positions in locals, opening
 * and closing lists as they come.  Stops at any other element, a dotted
 * tail, a vector and where the cycle check fires, all left to the
 * general step (next_elem takes the same steps); false when the nesting
 * passes BUILD_MAX_DEPTH. */
__attribute__((noinline)) static bool quiet_run(struct bctx *c, struct bstack *s)
{
    struct pretty_doc *d = c->d;
    struct bframe *f = &s->f[s->n - 1];
    struct spine sp = spine_of(f);
    struct wpos w = wpos_of(d);
    const struct value *nil = c->L->nil;
    for (;;) {
        if (!value_consp(sp.cur) || (sp.index && sp.cur == sp.tortoise)) {
            if (sp.cur != nil)
                break;
            if (generated_cond(f, sp.index))
                w.nodes[f->node].flags |= PF_MULTILINE;
            w_close(d, &w, f->node);
            if (!--s->n || s->f[s->n - 1].vec || s->f[s->n - 1].kept)
                return wpos_keep(d, &w), true;
            f = &s->f[s->n - 1];
            sp = spine_of(f);
            continue;
        }
        const struct value *e = value_car(sp.cur);
        uint8_t flags = f->data ? PF_DATA : 0;
        if (value_symbolp(e) && name_elem(c, f, e, sp.index)) {
            w_atom(d, &w, e->u.sym.name, e->u.sym.len, spine_take(&sp), flags, e);
            continue;
        }
        size_t n;
        const char *x = value_consp(e) ? NULL : ready_text(c, e, &n);
        if (x) {
            w_atom(d, &w, x, n, spine_take(&sp), flags, NULL);
            continue;
        }
        if (!value_consp(e) || prefix_of(c->L, e, f->level) || may_keep(c, e))
            break;
        if (f->cond && !f->data && sp.index > 0)
            flags |= PF_CLAUSE;
        uint32_t i = w_open(d, &w, spine_take(&sp), flags);
        spine_keep(f, &sp);
        push_frame(c, s, i, e, f->level, f->data);
        if (s->n > BUILD_MAX_DEPTH)
            return wpos_keep(d, &w), false;
        f = &s->f[s->n - 1];
        sp = spine_of(f);
    }
    spine_keep(f, &sp);
    wpos_keep(d, &w);
    return true;
}

/* Read kids until the stack is empty.  False on a cycle or excessive
 * depth (a value that contains itself).  Lists keeping their text are
 * the general step's. */
static bool build_run(struct bctx *c, struct bstack *s)
{
    while (s->n) {
        if (c->quiet && !s->f[s->n - 1].vec && !s->f[s->n - 1].kept) {
            if (!quiet_run(c, s))
                return false;
            if (!s->n)
                break;
        }
        struct bframe *f = &s->f[s->n - 1];
        bool dotted, cycle = false;
        const struct value *e = next_elem(c, f, &dotted, &cycle);
        if (cycle)
            return false;
        if (!e) {
            uint32_t done = f->node;
            if (generated_cond(f, f->index))
                c->d->nodes[done].flags |= PF_MULTILINE;
            if (f->trail1) /* a clause of one element: before it */
                c->d->nodes[done].comments =
                    append_comments(c->d->nodes[done].comments, untrail(&f->trail1));
            finish_node(c->d, done);
            if (--s->n)
                kid_done(c->d, s->f[s->n - 1].node, done);
            continue;
        }
        add_elem(c, s, e, f->index++, dotted);
        if (s->n > BUILD_MAX_DEPTH)
            return false;
    }
    return true;
}

/* Is every byte of t printable ASCII (one column, no line break)?  A
 * word of eight bytes flags some byte below 0x20 or above 0x7e; the
 * flags of four words are tested at once. */
static bool printable_ascii(const char *t, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, high = ones * 0x80;
    size_t k = 0;
    for (; k + 32 <= n; k += 32) { /* one test per 32 bytes */
        uint64_t w[4], bad = 0;
        memcpy(w, t + k, 32);
        for (int j = 0; j < 4; j++)
            bad |= ((w[j] - ones * 0x20) & ~w[j]) | (w[j] + ones) | w[j];
        if (bad & high)
            return false;
    }
    for (; k + 8 <= n; k += 8) {
        uint64_t w;
        memcpy(&w, t + k, 8);
        if ((((w - ones * 0x20) & ~w) | (w + ones) | w) & high)
            return false;
    }
    for (; k < n; k++)
        if ((uint8_t)(t[k] - 0x20) >= 0x5f)
            return false;
    return true;
}

/* Widths in display columns, line breaks inside atoms and the nodes
 * whose text is printable ASCII all the same, for a text that is not all
 * so.  Kids come after their parent, so going backwards measures them
 * first. */
static void measure(struct pretty_doc *d)
{
    const char *t = d->text.data;
    for (uint32_t i = d->n; i-- > 0;) {
        struct pnode *p = &d->nodes[i];
        int w = pretty_width(t + p->start, p->prefix_len);
        if (p->kind == PN_ATOM) {
            const char *x = t + p->start + p->prefix_len;
            size_t len = p->end - p->start - p->prefix_len;
            if (memchr(x, '\n', len))
                p->flags |= PF_MULTILINE;
            if (printable_ascii(x, len))
                p->flags |= PF_ASCII;
            p->width = w + pretty_width(x, len);
            continue;
        }
        /* brackets, kids, and the separators between kids (ASCII: one
         * space, the input's spaces, or " . ") */
        w += 2;
        uint8_t ascii = PF_ASCII;
        uint32_t after = p->start + p->prefix_len + 1;
        for (uint32_t k = i + 1; k < p->next; k = d->nodes[k].next) {
            w += d->nodes[k].width + (int)(d->nodes[k].start - after);
            after = d->nodes[k].end;
            p->flags |= d->nodes[k].flags & PF_MULTILINE;
            ascii &= d->nodes[k].flags;
        }
        p->flags |= ascii;
        p->width = w;
    }
}

static struct pretty_doc *new_doc(struct arena *a)
{
    struct pretty_doc *d = arena_zalloc(a, sizeof *d);
    d->a = a;
    buf_init(&d->text, a);
    return d;
}

/* Build the document of v from scratch into d; false on a cycle. */
static bool build_once(struct bctx *c, const struct value *v)
{
    struct pretty_doc *d = c->d;
    struct bstack s = {d->st.bf, 0, d->st.bf_cap};
    d->n = 0;
    d->depth = 0;
    d->text.len = 0;
    make_node(c, &s, v, 0, false, NULL, 0);
    bool ok = build_run(c, &s);
    d->st.bf = s.f;
    d->st.bf_cap = s.cap;
    return ok;
}

static struct pretty_doc *build(struct pretty_doc *d, struct lisp *L,
                                const struct pretty_opts *o,
                                const struct value *v, bool compact)
{
    struct bctx c = {L, o, d ? d : new_doc(L->a), {0}, {0}, compact, false,
                     compact || !o->comments, NULL, NULL, false, NULL, 0};
    if (!compact && o->keep_text)
        c.src = read_origin_bytes(o->src);
    c.po = compact ? print_opts_compact() : print_opts_default();
    c.po.gensym = !compact;
    c.po_circle = c.po;
    c.po_circle.circle = true;
    /* Code neither loops nor nests that deep (the walker refuses it), so
     * quoted data did: again, with quoted data as atoms. */
    if (!build_once(&c, v)) {
        c.data_atoms = true;
        if (!build_once(&c, v))
            return NULL;
    }
    d = c.d;
    *text_room(&d->text, 16) = 0; /* the layout copies 16 bytes at a time */
    d->simple = printable_ascii(d->text.data, d->text.len);
    if (!d->simple)
        measure(d);
    return d;
}

struct pretty_doc *pretty_build(struct lisp *L, const struct pretty_opts *o,
                                const struct value *v)
{
    return build(NULL, L, o, v, false);
}

struct pretty_doc *pretty_rebuild(struct pretty_doc *doc, struct lisp *L,
                                  const struct pretty_opts *o,
                                  const struct value *v)
{
    return build(doc, L, o, v, false);
}

long pretty_depth_matters(const struct pretty_doc *doc)
{
    return PRETTY_DEEP_LEVELS - (long)doc->depth;
}

struct pretty_comment *pretty_take_root_comments(struct pretty_doc *doc)
{
    struct pretty_comment *c = doc->nodes[0].comments;
    doc->nodes[0].comments = NULL;
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
    struct pretty_doc *d = build(NULL, L, o, v, true);
    if (!d)
        return false;
    buf_put(out, d->text.data, d->text.len);
    return true;
}
