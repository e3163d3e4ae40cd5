/* pretty_deep.c - the layout's model of Emacs's parser state, for text
 * nested 100 lists deep.
 *
 * Stage "print" (cli.md section 8), a part of phase 2.  Emacs's
 * parse-partial-sexp keeps, per level of nesting, where the last list
 * opened there and the last complete element there start, in an array
 * of 100 levels: a list opened on the last level does not get one of
 * its own (its content shares that level), yet every close steps down a
 * level.  Past 99 open lists, or after such a list has closed, the
 * "containing list" and "last complete element" that calculate-lisp-
 * indent reads may not be the line's own, and indent-region then puts
 * the line elsewhere than the rules of pretty_layout.c say.  So for a
 * document that reaches that depth (or when asked, to check this model
 * against Emacs), the layout reports what it writes here: where each
 * element starts, every open, close and complete element, the line
 * breaks; and it asks here where a line goes.  The answer follows, on
 * that state: the per-line parse of lisp-indent-calc-next (each line's
 * parse starts from the last one's with the current level cleared, and
 * keeps the last element when the line completed none), its cache of
 * one answer per depth, calculate-lisp-indent (with its second parse
 * from the last element, which finds the real list again when that
 * element encloses the line), lisp-indent-function, -specform, -defform
 * and lisp--local-defform-body-p.
 *
 * Positions are keys in text order: node i's element starts at 2i + 1
 * (after its reader prefixes), the dot before a dotted tail t at 2t.
 * Before the document (in the input around an expansion) are the lists
 * open around it, on levels 0, 1 ..., and an element before it on its
 * level: their keys are negative, in the same order.  Where this model
 * would need more of them than where they start, it gives the layout's
 * own answer.
 */
#include <string.h>

#include "syntax/pretty_doc.h"

#define LEVELS PRETTY_DEEP_LEVELS
#define NONE (-1)      /* no position (Emacs's nil, or -1 in the C state) */
#define OUTSIDE_LIST(k) (-1000 + 2 * (int64_t)(k)) /* the list open around the
                                                      document on level k */
#define OUTSIDE_ELEM (-1000 + 2 * LEVELS + 1)    /* an element before it */
#define OUTSIDE_LEVEL(key) ((int)(((key) + 1000) / 2))
#define NO_NODE UINT32_MAX

struct pretty_deep {
    struct arena *a;
    const struct pnode *nodes;
    const char *text;
    const struct pretty_opts *po;
    bool simple;                 /* one column per byte of text */
    uint32_t *parent;            /* per node: the list around it, NO_NODE */
    uint32_t *index;             /* per node: its place in that list (the
                                    head 0; a dotted tail's dot counts) */
    int64_t *before;             /* per node: the element before it there */
    struct pretty_place *where;  /* per key: line and column where its text
                                    starts, reader prefixes included */
    uint32_t *stack;             /* scratch: lists being walked */
    /* the parser's state: levels, the level in use, the real depth */
    int64_t last[LEVELS], prev[LEVELS];
    int c;
    long depth;
    /* what lisp-indent-calc-next carries from line to line */
    int64_t nth2;                /* the state's last complete element */
    long part_depth;             /* depth where the current parse began */
    /* lines: where the first element of each line after the first is */
    long line0;
    int64_t *first;
    size_t first_cap;
    /* lisp-indent-calc-next's answers per depth (NONE: not known) */
    int *cache;
    long cache_cap;
    long line_depth;             /* depth at the start of the last line */
    int64_t *chain;              /* scratch: lists of a second parse */
    int base_level;              /* levels the lists around the document use */
};

static inline int64_t key_of(uint32_t node) { return 2 * (int64_t)node + 1; }
static inline int64_t dot_key(uint32_t tail) { return 2 * (int64_t)tail; }
static inline uint32_t node_at(int64_t key) { return (uint32_t)(key / 2); }
static inline bool is_dot(int64_t key) { return key % 2 == 0; }

/* ---- positions ---- */

/* Display width of text from byte a to byte b of the document. */
static int width_between(const struct pretty_deep *e, uint32_t a, uint32_t b)
{
    return e->simple ? (int)(b - a) : pretty_width(e->text + a, b - a);
}

/* Column where the element at key starts, after its reader prefixes
 * (where Emacs's parser puts the position), and before them (where
 * backward-prefix-chars goes). */
static int col_after_prefix(const struct pretty_deep *e, int64_t key)
{
    if (is_dot(key))
        return e->where[key].col;
    const struct pnode *p = &e->nodes[node_at(key)];
    return e->where[key].col + width_between(e, p->start, p->start + p->prefix_len);
}

static int col_of(const struct pretty_deep *e, int64_t key) { return e->where[key].col; }

static long line_of(const struct pretty_deep *e, int64_t key) { return e->where[key].line; }

/* The list around the element at key (NO_NODE for the root). */
static uint32_t list_of(const struct pretty_deep *e, int64_t key)
{
    return e->parent[node_at(key)];
}

/* ---- the parser's events ---- */

static void element_starts(struct pretty_deep *e, int64_t key) { e->last[e->c] = key; }

static void element_ends(struct pretty_deep *e) { e->prev[e->c] = e->last[e->c]; }

static void list_opens(struct pretty_deep *e, int64_t key)
{
    e->last[e->c] = key;
    if (e->c < LEVELS - 1)
        e->c++;
    e->last[e->c] = e->prev[e->c] = NONE;
    e->depth++;
}

static void list_closes(struct pretty_deep *e)
{
    e->depth--;
    if (e->c > 0)
        e->c--;
    e->prev[e->c] = e->last[e->c];
}

/* A parse that stops at a line's end: when it completed no element at
 * its level and the depth did not change, the last one is kept. */
static void part_ends(struct pretty_deep *e)
{
    int64_t p = e->prev[e->c];
    if (p != NONE || e->depth != e->part_depth)
        e->nth2 = p;
    e->part_depth = e->depth;
}

/* A parse that resumes from a state: the current level starts empty. */
static void part_begins(struct pretty_deep *e) { e->last[e->c] = e->prev[e->c] = NONE; }

/* ---- the layout's reports ---- */

/* Each node's list, place in it and the element before it, in one
 * pass: the stack holds the open lists, and (in chain) the last kid
 * seen of each. */
static void index_nodes(struct pretty_deep *e, uint32_t n)
{
    const struct pnode *nodes = e->nodes;
    size_t sp = 0;
    for (uint32_t i = 0; i < n; i++) {
        while (sp && nodes[e->stack[sp - 1]].next <= i)
            sp--;
        uint32_t up = sp ? e->stack[sp - 1] : NO_NODE;
        e->parent[i] = up;
        e->index[i] = 0;
        e->before[i] = NONE;
        if (up != NO_NODE && i > up + 1) { /* after a sibling */
            uint32_t sib = (uint32_t)e->chain[sp - 1];
            e->index[i] = e->index[sib] + 1;
            e->before[i] = key_of(sib);
            if ((nodes[up].flags & PF_DOTTED) && nodes[i].next == nodes[up].next) {
                e->index[i]++;
                e->before[i] = dot_key(i);
            }
        }
        if (up != NO_NODE)
            e->chain[sp - 1] = i;
        if (nodes[i].kind != PN_ATOM)
            e->stack[sp++] = i;
    }
}

struct pretty_deep *pretty_deep_new(struct pretty_doc *d, const struct pretty_opts *po,
                                    long line)
{
    struct pretty_deep *e = arena_zalloc(d->a, sizeof *e);
    e->a = d->a;
    e->nodes = d->nodes;
    e->text = d->text.data;
    e->po = po;
    e->simple = d->simple;
    e->parent = arena_alloc(d->a, (size_t)d->n * sizeof *e->parent);
    e->index = arena_alloc(d->a, (size_t)d->n * sizeof *e->index);
    e->before = arena_alloc(d->a, (size_t)d->n * sizeof *e->before);
    e->where = arena_zalloc(d->a, (2 * (size_t)d->n + 2) * sizeof *e->where);
    e->stack = arena_alloc(d->a, ((size_t)d->depth + 2) * sizeof *e->stack);
    e->chain = arena_alloc(d->a, ((size_t)d->depth + LEVELS + 2) * sizeof *e->chain);
    index_nodes(e, d->n);
    /* What the input before the document leaves: its lists, and an
     * element before this one on the level. */
    long base = po && po->depth > 0 ? po->depth : 0;
    e->depth = base;
    e->c = base < LEVELS - 1 ? (int)base : LEVELS - 1;
    for (int k = 0; k < e->c; k++)
        e->last[k] = e->prev[k] = OUTSIDE_LIST(k);
    e->last[e->c] = e->prev[e->c] = OUTSIDE_ELEM;
    e->base_level = e->c;
    e->nth2 = OUTSIDE_ELEM;
    e->part_depth = base;
    e->line0 = line;
    e->cache_cap = base + (long)d->depth + 2;
    e->cache = arena_alloc(d->a, (size_t)e->cache_cap * sizeof *e->cache);
    for (long k = 0; k < e->cache_cap; k++)
        e->cache[k] = NONE;
    e->line_depth = base;
    return e;
}

void pretty_deep_open(struct pretty_deep *e, uint32_t node, long line, int col)
{
    e->where[key_of(node)] = (struct pretty_place){line, col};
    list_opens(e, key_of(node));
}

void pretty_deep_close(struct pretty_deep *e) { list_closes(e); }

void pretty_deep_dot(struct pretty_deep *e, uint32_t tail, long line, int col)
{
    e->where[dot_key(tail)] = (struct pretty_place){line, col};
    element_starts(e, dot_key(tail));
    element_ends(e);
}

/* An atom that spans lines (a string with line breaks), started: the
 * line's parse stops inside it, a parse to its end follows (which
 * completes nothing on the level it resumed, and says the string was
 * the last element), and the rest of the line is parsed from there. */
static void string_across_lines(struct pretty_deep *e, int64_t key)
{
    part_ends(e);
    part_begins(e);
    element_ends(e);
    e->nth2 = key;
    e->part_depth = e->depth;
    part_begins(e);
}

/* Does c end a symbol for Emacs's parser? */
static bool ends_symbol(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '(' ||
           c == ')' || c == '[' || c == ']' || c == '"' || c == ';';
}

/* The parser's events for the text of atom k: most atoms are one
 * element, but the empty argument list printed "()" is a list, and a
 * record or byte-code literal holds lists.  Every element in it counts
 * as starting where the atom does. */
static void atom_events(struct pretty_deep *e, uint32_t k)
{
    const struct pnode *p = &e->nodes[k];
    const char *t = e->text + p->start + p->prefix_len;
    size_t n = p->end - p->start - p->prefix_len;
    int64_t key = key_of(k);
    for (size_t i = 0; i < n;) {
        char ch = t[i];
        if (ch == '(' || ch == '[') {
            list_opens(e, key);
            i++;
        } else if (ch == ')' || ch == ']') {
            list_closes(e);
            i++;
        } else if (ends_symbol(ch) || ch == '\'' || ch == '`' || ch == ',' || ch == '#' ||
                   ch == '@' || ch == '?') {
            i++; /* blanks; prefix characters */
        } else if (ch == '"') {
            element_starts(e, key);
            for (i++; i < n && t[i] != '"'; i++)
                i += t[i] == '\\';
            i++;
            element_ends(e);
        } else {
            element_starts(e, key);
            while (i < n && !ends_symbol(t[i]))
                i += t[i] == '\\' ? 2 : 1;
            element_ends(e);
        }
    }
}

void pretty_deep_flat(struct pretty_deep *e, uint32_t node, long line, int col,
                      long end_line)
{
    const struct pnode *nodes = e->nodes;
    uint32_t end = nodes[node].next, prev_start = nodes[node].start;
    size_t sp = 0;
    for (uint32_t k = node; k < end; k++) {
        while (sp && nodes[e->stack[sp - 1]].next <= k) {
            sp--;
            list_closes(e);
        }
        col += width_between(e, prev_start, nodes[k].start);
        prev_start = nodes[k].start;
        uint32_t up = sp ? e->stack[sp - 1] : NO_NODE;
        if (up != NO_NODE && (nodes[up].flags & PF_DOTTED) && nodes[k].next == nodes[up].next)
            pretty_deep_dot(e, k, line, col - 2); /* " . " before the tail */
        e->where[key_of(k)] = (struct pretty_place){line, col};
        if (nodes[k].kind != PN_ATOM) {
            list_opens(e, key_of(k));
            e->stack[sp++] = k;
        } else if (end_line == line) {
            atom_events(e, k);
        } else { /* an atom alone, a string with line breaks */
            element_starts(e, key_of(k));
            string_across_lines(e, key_of(k));
        }
    }
    while (sp--)
        list_closes(e);
}

void pretty_deep_line(struct pretty_deep *e, uint32_t kid, long line)
{
    size_t i = (size_t)(line - e->line0);
    if (i >= e->first_cap) {
        size_t cap = e->first_cap ? e->first_cap * 2 : 64;
        while (cap <= i)
            cap *= 2;
        e->first = arena_grow(e->a, e->first, e->first_cap * sizeof *e->first,
                              cap * sizeof *e->first);
        memset(e->first + e->first_cap, 0xff, (cap - e->first_cap) * sizeof *e->first);
        e->first_cap = cap;
    }
    e->first[i] = key_of(kid);
    part_begins(e);
}

/* ---- calculate-lisp-indent on that state ---- */

/* The state calculate-lisp-indent works on: the containing list, the
 * last complete element, and the open lists Emacs lists in it (nth 9,
 * outermost first). */
struct lstate {
    int64_t list, last;
    const int64_t *chain;
    size_t n_chain;
};

/* An answer: a column, kept for the depth's later lines or not. */
struct answer {
    int col;
    bool keep;
    bool known; /* false: the model cannot tell (it would look outside) */
};

static const struct answer UNKNOWN = {0, false, false};

/* Key of the first element of the line holding key, or NONE when that
 * is the document's first line (whose start is not the document's). */
static int64_t first_on_line(const struct pretty_deep *e, int64_t key)
{
    long l = line_of(e, key);
    return l > e->line0 && (size_t)(l - e->line0) < e->first_cap ? e->first[l - e->line0] : NONE;
}

/* The second parse of calculate-lisp-indent, from the last element to
 * the line (kid starts it): when it ends inside a list, the state it
 * gives (its open lists: those it entered, outermost first).  False
 * when it does not (the last element is on the line's own level). */
static bool reparse(struct pretty_deep *e, int64_t last, uint32_t kid, struct lstate *s,
                    bool *unknown)
{
    uint32_t around = NO_NODE; /* the document's list the parse starts in */
    size_t n = 0;
    if (last == OUTSIDE_ELEM) {
        around = NO_NODE;
    } else if (last < 0) { /* an outside list: it and those inside it */
        for (int k = OUTSIDE_LEVEL(last); k < e->base_level; k++)
            e->chain[n++] = OUTSIDE_LIST(k);
    } else {
        around = list_of(e, last);
        if (around != NO_NODE && !(kid > around && kid < e->nodes[around].next)) {
            *unknown = true; /* the parse would leave that list: not modelled */
            return false;
        }
    }
    uint32_t l = e->parent[kid];
    size_t first = n;
    for (uint32_t a = l; a != around && n < LEVELS; a = e->parent[a])
        e->chain[n++] = key_of(a);
    if (n == 0)
        return false;
    if (n >= LEVELS) { /* that parse's own levels run out */
        *unknown = true;
        return false;
    }
    for (size_t i = first, j = n - 1; i < j; i++, j--) { /* outermost first */
        int64_t t = e->chain[i];
        e->chain[i] = e->chain[j];
        e->chain[j] = t;
    }
    *s = (struct lstate){key_of(l), e->before[kid], e->chain, n};
    return true;
}

/* The element after list's head (a dotted tail's dot counts), or NONE. */
static int64_t second_element(const struct pretty_deep *e, uint32_t list)
{
    uint32_t k = e->nodes[list + 1].next;
    if (k >= e->nodes[list].next)
        return NONE;
    return e->before[k] == key_of(list + 1) ? key_of(k) : dot_key(k);
}

/* Elements of list after its head that start before the line that kid
 * starts (kid is inside list). */
static size_t elements_before(const struct pretty_deep *e, uint32_t list, uint32_t kid)
{
    uint32_t x = kid;
    while (e->parent[x] != list)
        x = e->parent[x];
    return x == kid ? e->index[kid] - 1 : e->index[x];
}

/* calculate-lisp-indent's column before it asks the head. */
static int normal_column(const struct pretty_deep *e, const struct lstate *s, bool *known)
{
    uint32_t list = node_at(s->list);
    int64_t head = key_of(list + 1);
    if (e->nodes[list + 1].kind != PN_ATOM)
        return col_after_prefix(e, head); /* under a list in front */
    if (line_of(e, s->last) == line_of(e, head)) {
        if (s->last == head)
            return col_of(e, head);
        return col_of(e, second_element(e, list));
    }
    int64_t f = first_on_line(e, s->last);
    *known = f != NONE;
    return f != NONE ? col_of(e, f) : 0;
}

/* lisp--local-defform-body-p: is the state's list an element of the
 * element 1 of a cl-flet & co form, as the state's open lists say? */
static bool local_definition(const struct pretty_deep *e, const struct lstate *s,
                             bool *known)
{
    size_t i = 2;
    while (i < s->n_chain && s->chain[i] != s->list)
        i++;
    if (i >= s->n_chain)
        return false;
    int64_t outer = s->chain[i - 2], up = s->chain[i - 1];
    if (outer < 0) /* the layout's rules do not look there either */
        return false;
    if (up < 0) {
        *known = false;
        return false;
    }
    uint32_t g = node_at(outer);
    const struct pnode *h = &e->nodes[g + 1];
    if (h->kind != PN_ATOM || h->prefix_len ||
        !pretty_local_def_head(e->text + h->start, h->end - h->start))
        return false;
    int64_t defs = second_element(e, g);
    if (defs == NONE || defs > up)
        defs = up;
    uint32_t real_up = e->parent[node_at(s->list)];
    return real_up != NO_NODE && defs == key_of(real_up);
}

/* lisp-indent-function on the state, normal being calculate-lisp-
 * indent's column; keep false when it has no answer of its own. */
static struct answer head_rules(struct pretty_deep *e, const struct lstate *s,
                                uint32_t kid, int normal)
{
    bool known = true;
    uint32_t list = node_at(s->list);
    int64_t head = key_of(list + 1);
    const struct pnode *h = &e->nodes[list + 1];
    int paren = col_after_prefix(e, s->list);
    const char *name = NULL;
    size_t len = 0;
    int cls = h->kind == PN_ATOM ? pretty_head_class_text(e->text + h->start,
                                                           h->end - h->start, &name, &len)
                                 : PH_LIST;
    bool local = local_definition(e, s, &known);
    int spec = cls == PH_SYMBOL && !local ? pretty_indent_spec(e->po, name, len, &(bool){0})
                                          : PRETTY_NONE;
    struct answer none = {normal, true, known};
    if (local || spec == PRETTY_DEFUN) /* lisp-indent-defform */
        return line_of(e, s->last) == line_of(e, s->list)
                   ? (struct answer){paren + 2, true, known} : none;
    if (cls != PH_SYMBOL) {
        if (line_of(e, s->last) == line_of(e, head))
            return (struct answer){col_of(e, head), true, known};
        int64_t f = first_on_line(e, s->last);
        return f != NONE ? (struct answer){col_of(e, f), true, known} : UNKNOWN;
    }
    if (spec < 0)
        return none;
    /* lisp-indent-specform: distinguished arguments are not kept */
    int count = spec - (int)elements_before(e, list, kid);
    if (count > 0)
        return (struct answer){spec - count <= 1 ? paren + 4 : normal, false, known};
    if ((spec == 0 && count == 0) || (count == 0 && paren + 2 <= normal))
        return (struct answer){paren + 2, true, known};
    return none;
}

/* calculate-lisp-indent for the line that kid starts, on the state
 * after the last line. */
static struct answer calculate(struct pretty_deep *e, uint32_t kid)
{
    struct lstate s = {e->c > 0 ? e->last[e->c - 1] : NONE, e->nth2, e->last, (size_t)e->c};
    bool unknown = false;
    for (int rounds = 0;; rounds++) {
        if (s.list == NONE || rounds > 2) /* Emacs would fail */
            return UNKNOWN;
        if (s.last == NONE) /* right after the paren: one column after it */
            return s.list < 0 ? UNKNOWN
                              : (struct answer){col_after_prefix(e, s.list) + 1, true, true};
        /* a second parse when the last element is past the paren's
         * next character (where a head without prefix starts) */
        bool at_head = s.list > 0 && s.last == key_of(node_at(s.list) + 1) &&
                       !e->nodes[node_at(s.list) + 1].prefix_len;
        if (s.last <= s.list || at_head || !reparse(e, s.last, kid, &s, &unknown))
            break;
    }
    if (unknown || s.list < 0 || s.last <= s.list)
        return UNKNOWN; /* Emacs reads outside, or parses backwards */
    bool known = true;
    int normal = normal_column(e, &s, &known);
    if (!known)
        return UNKNOWN;
    return head_rules(e, &s, kid, normal);
}

int pretty_deep_indent(struct pretty_deep *e, uint32_t kid, int model)
{
    part_ends(e);
    long d = e->depth;
    /* The answers kept for the levels the last line left go.  Inside the
     * document none is kept for a level before its first line there
     * (the input's lines are on other levels), as when indent-region
     * runs over the whole form or file. */
    for (long k = d + 1; k <= e->line_depth && k < e->cache_cap; k++)
        e->cache[k] = NONE;
    e->line_depth = d;
    if (d < e->cache_cap && e->cache[d] != NONE)
        return e->cache[d];
    struct answer a = calculate(e, kid);
    if (a.known && a.keep && d < e->cache_cap)
        e->cache[d] = a.col;
    return a.known ? a.col : model;
}
