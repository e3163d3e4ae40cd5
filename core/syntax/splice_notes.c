/* splice_notes.c - the comments and empty lines inside a replaced form,
 * and where they go in its expansion.
 *
 * Stage "splice" (cli.md 4.2).  In order: the data of a replaced form,
 * its comments (found with the lexer, so strings and character literals
 * are skipped exactly), the clauses of its pcase forms, the attachment of
 * each comment (to a datum, to the cell of a symbol, or to a clause), and
 * the printer's hook.  A comment goes before the first printed occurrence
 * of its datum; the comments of a clause (before it, or inside its
 * pattern, which no expansion keeps) and the empty line before it go
 * before the branch of generated code that first carries the clause's
 * body, which the expander names (splice_in.clause_of).  Lookups are by
 * address in small hash tables, which decide no order: comments are
 * always handed out in source order.
 */
#include "syntax/splice_int.h"

#include <stddef.h>
#include <string.h>

#include "syntax/lex.h"

/* ---- the data of a replaced form ---- */

static size_t add_datum(struct arena *a, struct data *ds, struct datum d)
{
    if (ds->n == ds->cap) {
        size_t cap = ds->cap ? ds->cap * 2 : 64;
        ds->d = arena_grow(a, ds->d, ds->cap * sizeof *ds->d, cap * sizeof *ds->d);
        ds->cap = cap;
    }
    ds->d[ds->n] = d;
    return ds->n++;
}

/* Span of element v of a container; holder is the spine cons whose car it
 * is (NULL in a vector).  Symbols are known only through their holder. */
static bool elem_span(const struct read_result *r, const struct value *v,
                      const struct value *holder, struct span *sp)
{
    if (read_origin_span(r, v, sp))
        return true;
    return holder && read_origin_car_span(r, holder, sp);
}

static bool container(const struct value *v)
{
    return value_consp(v) || value_is(v, VK_VECTOR);
}

/* Record the elements of container number ci (a list or vector).  At
 * most `room` data in all: shared structure (#1=) cannot loop. */
static void add_elements(struct arena *a, const struct read_result *r,
                         struct data *ds, size_t ci, const struct value *nil,
                         size_t room)
{
    const struct value *c = ds->d[ci].v;
    uint32_t depth = ds->d[ci].depth + 1, k = 0;
    struct span sp;
    if (value_is(c, VK_VECTOR)) {
        for (; k < c->u.vec.n && ds->n < room; k++) {
            const struct value *e = c->u.vec.items[k];
            if (read_origin_span(r, e, &sp))
                add_datum(a, ds, (struct datum){e, NULL, sp.start, sp.end, depth,
                                                (int32_t)ci, k, container(e)});
        }
        return;
    }
    for (; value_consp(c) && ds->n < room && k < room; c = value_cdr(c), k++) {
        const struct value *e = value_car(c);
        if (elem_span(r, e, c, &sp))
            add_datum(a, ds, (struct datum){e, c, sp.start, sp.end, depth, (int32_t)ci, k,
                                            container(e)});
    }
    if (c != nil && ds->n < room && read_origin_span(r, c, &sp)) /* dotted tail */
        add_datum(a, ds, (struct datum){c, NULL, sp.start, sp.end, depth, (int32_t)ci, k,
                                        value_is(c, VK_VECTOR)});
}

struct data splice_data(struct arena *a, const struct read_result *r,
                        const struct value *form, struct span sp,
                        const struct value *nil)
{
    struct data ds = {0};
    add_datum(a, &ds, (struct datum){form, NULL, sp.start, sp.end, 0, -1, 0, true});
    size_t room = (size_t)(sp.end - sp.start) + 16;
    for (size_t i = 0; i < ds.n; i++)
        if (ds.d[i].container)
            add_elements(a, r, &ds, i, nil, room);
    return ds;
}

/* ---- lookups by address ---- */

/* Keys -> the first of a chain of comments (their `next`), in a table
 * made once per form: open addressing, twice as many slots as keys. */
struct keys {
    const struct value **key;
    int32_t *first;
    size_t cap;
};

static size_t key_slot(const struct keys *t, const struct value *k)
{
    uint64_t h = (uint64_t)(uintptr_t)k * 0x9E3779B97F4A7C15u;
    size_t j = (size_t)(h >> 32) & (t->cap - 1);
    while (t->key[j] && t->key[j] != k)
        j = (j + 1) & (t->cap - 1);
    return j;
}

static void keys_init(struct arena *a, struct keys *t, size_t n)
{
    t->cap = 16;
    while (t->cap < 2 * n + 2)
        t->cap *= 2;
    t->key = arena_zalloc(a, t->cap * sizeof *t->key);
    t->first = arena_alloc(a, t->cap * sizeof *t->first);
}

/* The chain of k (-1: none); *slot gets where k is or goes. */
static int32_t keys_get(const struct keys *t, const struct value *k, size_t *slot)
{
    if (!t->cap || !k)
        return -1;
    size_t j = key_slot(t, k);
    if (slot)
        *slot = j;
    return t->key[j] ? t->first[j] : -1;
}

/* ---- comments ---- */

struct comment {
    uint32_t start, end;        /* from ';' to the end of its line (no CR/LF) */
    bool trailing;              /* code before it on its line */
    bool keyed;                 /* it waits for the hook (not for before) */
    bool claimed;               /* handed to the printer */
    int32_t next;               /* the next comment of its chain (-1) */
    struct pretty_comment pc;   /* the printer's view of it */
};

struct comments {
    struct comment *c;
    size_t n, cap;
};

static void add_comment(struct arena *a, struct comments *cs,
                        const uint8_t *text, size_t s, size_t e)
{
    if (e > s && text[e - 1] == '\r')
        e--;
    if (cs->n == cs->cap) {
        size_t cap = cs->cap ? cs->cap * 2 : 8;
        cs->c = arena_grow(a, cs->c, cs->cap * sizeof *cs->c, cap * sizeof *cs->c);
        cs->cap = cap;
    }
    struct comment *c = &cs->c[cs->n++];
    memset(c, 0, sizeof *c);
    c->start = (uint32_t)s;
    c->end = (uint32_t)e;
    c->trailing = !splice_only_blanks(text, splice_line_start(text, s), s);
    c->next = -1;
    c->pc.text = text + s;
    c->pc.len = e - s;
    c->pc.col = splice_column(text, s);
    c->pc.trailing = c->trailing;
}

/* Comments in trivia text[from..to): `;` to the end of the line; `#!`
 * lines are not comments.  Trivia never contains strings or character
 * literals (the lexer put those in tokens), so a ';' here starts one. */
static void scan_trivia(struct arena *a, struct comments *cs,
                        const uint8_t *text, size_t len, size_t from, size_t to)
{
    for (size_t k = from; k < to; k++) {
        if (text[k] == ';' || (text[k] == '#' && k + 1 < to && text[k + 1] == '!')) {
            size_t e = splice_line_end(text, len, k);
            if (text[k] == ';')
                add_comment(a, cs, text, k, e);
            k = e;
        }
    }
}

/* Every comment between the first and the last token of span sp. */
static struct comments find_comments(struct arena *a, const uint8_t *text,
                                     size_t len, struct span sp)
{
    struct comments cs = {0};
    struct lex lx;
    struct lex_token t;
    lex_init(&lx, text, len, sp.start);
    while (lex_next(&lx, &t) && t.kind != LK_EOF && t.start < sp.end) {
        size_t from = t.lead < sp.start ? sp.start : t.lead;
        scan_trivia(a, &cs, text, len, from, t.start);
    }
    return cs;
}

/* Own-line comment at off: the first datum after it in the innermost
 * list containing it, else that list (cli.md 4.2).  The innermost list
 * is the deepest container whose text strictly contains the comment. */
static const struct datum *attach_own_line(const struct data *ds, uint32_t off)
{
    const struct datum *in = NULL;
    for (size_t i = 0; i < ds->n; i++) {
        const struct datum *d = &ds->d[i];
        if (d->container && d->start < off && off < d->end &&
            (!in || d->depth > in->depth))
            in = d;
    }
    if (!in)
        return NULL;
    const struct datum *next = NULL;
    for (size_t i = 0; i < ds->n; i++) {
        const struct datum *d = &ds->d[i];
        if (d->parent >= 0 && &ds->d[d->parent] == in && d->start > off &&
            (!next || d->start < next->start))
            next = d;
    }
    return next ? next : in;
}

/* The datum ending last before off among those starting at or after
 * from (outermost on ties). */
static const struct datum *ends_last(const struct data *ds, uint32_t from,
                                     uint32_t off)
{
    const struct datum *best = NULL;
    for (size_t i = 0; i < ds->n; i++) {
        const struct datum *d = &ds->d[i];
        if (d->start < from || d->end > off)
            continue;
        if (!best || d->end > best->end ||
            (d->end == best->end && d->depth < best->depth))
            best = d;
    }
    return best;
}

/* Trailing comment: the datum that starts on its line and ends last
 * before it; if none starts on that line, the one ending last before it. */
static const struct datum *attach_trailing(const struct data *ds,
                                           const uint8_t *text, uint32_t off)
{
    const struct datum *d = ends_last(ds, (uint32_t)splice_line_start(text, off), off);
    return d ? d : ends_last(ds, 0, off);
}

/* ---- the clauses of pcase forms ---- */

struct clause {
    const struct value *v;   /* the clause (PATTERN BODY...) as read */
    int32_t first;           /* the record of its form's first clause */
    int32_t comments;        /* the chain of its comments (-1) */
    uint32_t carried_before; /* carried clauses of its form before it */
    uint32_t placed;         /* in the first clause's record: clauses of
                                the form placed so far */
    uint32_t carried_all;    /* in the first clause's record: carried
                                clauses of the form */
    bool carried;            /* some code of the expansion carries it */
    bool by_code;            /* a cond* clause: found by its own code */
    bool blank;              /* an empty line before it in the input */
    bool done;               /* its branch was printed */
};

struct splice_notes {
    const struct splice_in *in;
    struct data ds;
    struct comments cs;
    struct clause *cl;
    size_t n_cl;
    int32_t *clause_at;      /* per datum: its clause record, -1 */
    struct keys anchors;     /* datum (not a symbol) -> comments before it */
    struct keys cells;       /* cell of a symbol -> comments before it */
    struct keys clauses;     /* clause -> its record (first: the index) */
    struct keys inside;      /* datum inside a cond* clause -> its record */
    size_t left;             /* comments and empty lines still to place */
};

/* Forms whose clauses have comments of their own: pcase and
 * pcase-exhaustive, clauses from element 2 on, which the expander marks
 * (splice_in.clause_of); cond*, clauses from element 1 on, each found by
 * its own code (the first printed datum read inside it). */
enum clause_form { NOT_CLAUSES, PCASE_CLAUSES, CONDSTAR_CLAUSES };

static const struct {
    const char *name;
    uint8_t kind;
} clause_heads[] = {
    {"cond*", CONDSTAR_CLAUSES},
    {"pcase", PCASE_CLAUSES},
    {"pcase-exhaustive", PCASE_CLAUSES},
};

/* The kind of form whose head (element 0) is d. */
static uint8_t clause_head(const struct datum *d)
{
    const struct value *v = d->v;
    if (!value_symbolp(v) || !v->u.sym.interned)
        return NOT_CLAUSES;
    for (size_t i = 0; i < sizeof clause_heads / sizeof clause_heads[0]; i++)
        if (v->u.sym.len == strlen(clause_heads[i].name) &&
            !memcmp(v->u.sym.name, clause_heads[i].name, v->u.sym.len))
            return clause_heads[i].kind;
    return NOT_CLAUSES;
}

/* Per datum, the kind of form it is: its element 0 says so. */
static uint8_t *clause_forms(struct arena *a, const struct data *ds)
{
    uint8_t *form = arena_zalloc(a, ds->n);
    for (size_t i = 0; i < ds->n; i++)
        if (ds->d[i].index == 0 && ds->d[i].parent >= 0 && ds->d[i].holder)
            form[ds->d[i].parent] = clause_head(&ds->d[i]);
    return form;
}

/* A record for the clause that is datum i (kind: its form's); the
 * elements of a list are consecutive data. */
static void add_clause(struct splice_notes *n, size_t i, uint8_t kind)
{
    const struct datum *d = &n->ds.d[i], *prev = &n->ds.d[i - 1];
    const struct splice_in *in = n->in;
    uint32_t from = kind == PCASE_CLAUSES ? 2 : 1;
    bool first = n->n_cl == 0 || prev->index < from || prev->parent != d->parent;
    int32_t k = (int32_t)n->n_cl++;
    struct clause *c = &n->cl[k];
    bool newline;
    memset(c, 0, sizeof *c);
    lex_trivia_lines(in->text, prev->end, d->start, &newline, &c->blank);
    c->v = d->v;
    c->first = first ? k : n->cl[k - 1].first;
    c->comments = -1;
    c->by_code = kind == CONDSTAR_CLAUSES;
    c->carried = c->by_code || (in->clause_of && in->clause_of(in->origin_ctx, d->v) == d->v);
    if (!first)
        c->carried_before = n->cl[k - 1].carried_before + n->cl[k - 1].carried;
    n->cl[c->first].carried_all += c->carried;
    n->clause_at[i] = k;
}

/* One record per clause of those forms.  A pcase form of which no code
 * carries a clause was not expanded (quoted data, a head left by --skip):
 * its text is printed as data, comments and all, and its records are
 * not used. */
static void find_clauses(struct splice_notes *n, struct arena *a)
{
    const struct data *ds = &n->ds;
    uint8_t *form = clause_forms(a, ds);
    n->clause_at = arena_alloc(a, ds->n * sizeof *n->clause_at);
    n->cl = arena_alloc(a, (ds->n + 1) * sizeof *n->cl);
    for (size_t i = 0; i < ds->n; i++) {
        const struct datum *d = &ds->d[i];
        n->clause_at[i] = -1;
        uint8_t kind = d->parent >= 0 ? form[d->parent] : NOT_CLAUSES;
        if (kind && d->index >= (kind == PCASE_CLAUSES ? 2u : 1u) && value_consp(d->v))
            add_clause(n, i, kind);
    }
    for (size_t i = 0; i < ds->n; i++) {
        int32_t k = n->clause_at[i];
        if (k >= 0 && !n->cl[n->cl[k].first].carried_all)
            n->clause_at[i] = -1;
    }
}

/* The carried clause that takes the comments of clause k: k, else the
 * next carried clause of its form (k's code is nowhere: an unreachable
 * clause); -1 when none follows. */
static int32_t taker(const struct splice_notes *n, int32_t k)
{
    int32_t f = n->cl[k].first;
    for (; (size_t)k < n->n_cl && n->cl[k].first == f; k++)
        if (n->cl[k].carried)
            return k;
    return -1;
}

/* The clause whose comments a comment attached to datum d goes with, or
 * -1: the innermost clause around d (or d itself) when d is that clause,
 * in its pattern, or a symbol that is one of its body forms (which has
 * nothing else to be found by). */
static int32_t clause_comment(const struct splice_notes *n, const struct datum *d)
{
    const struct datum *below = NULL;
    for (const struct datum *a = d;; below = a, a = &n->ds.d[a->parent]) {
        int32_t k = n->clause_at[a - n->ds.d];
        if (k >= 0) {
            bool ours = !below || below->index == 0 ||
                        (below == d && value_symbolp(d->v));
            return ours ? taker(n, k) : -1;
        }
        if (a->parent < 0)
            return -1;
    }
}

/* Add comment i to the chain of key in t (chains in source order: the
 * comments are attached in order, each to the end of its chain). */
static void chain(struct splice_notes *n, struct keys *t, const struct value *key,
                  int32_t i)
{
    size_t slot;
    int32_t k = keys_get(t, key, &slot);
    if (k < 0) {
        t->key[slot] = key;
        t->first[slot] = i;
        return;
    }
    while (n->cs.c[k].next >= 0)
        k = n->cs.c[k].next;
    n->cs.c[k].next = i;
}

static void chain_clause(struct splice_notes *n, int32_t k, int32_t i)
{
    int32_t *p = &n->cl[k].comments;
    while (*p >= 0)
        p = &n->cs.c[*p].next;
    *p = i;
}

/* Decide where every comment goes: before its datum, before the symbol
 * in its cell, with its clause, or (none of these: not keyed) before the
 * expansion.  The replaced form itself and the symbols of vectors cannot
 * be found in an expansion. */
static void attach(struct splice_notes *n, struct arena *a)
{
    const uint8_t *text = n->in->text;
    keys_init(a, &n->anchors, n->cs.n);
    keys_init(a, &n->cells, n->cs.n);
    for (size_t i = 0; i < n->cs.n; i++) {
        struct comment *c = &n->cs.c[i];
        const struct datum *d = c->trailing ? attach_trailing(&n->ds, text, c->start)
                                            : attach_own_line(&n->ds, c->start);
        if (!d || d->depth == 0)
            continue;
        int32_t k = clause_comment(n, d);
        c->keyed = true;
        if (k >= 0)
            chain_clause(n, k, (int32_t)i);
        else if (!value_symbolp(d->v))
            chain(n, &n->anchors, d->v, (int32_t)i);
        else if (d->holder)
            chain(n, &n->cells, d->holder, (int32_t)i);
        else
            c->keyed = false;
    }
}

static void put_key(struct keys *t, const struct value *key, int32_t k)
{
    size_t slot;
    keys_get(t, key, &slot);
    t->key[slot] = key;
    t->first[slot] = k;
}

/* Records by address: a pcase clause the expander marks, and every datum
 * (but a symbol) inside a cond* clause, for the innermost such clause. */
static void index_clauses(struct splice_notes *n, struct arena *a)
{
    bool condstar = false;
    keys_init(a, &n->clauses, n->n_cl);
    for (size_t k = 0; k < n->n_cl; k++) {
        condstar |= n->cl[k].by_code;
        if (n->cl[k].carried && !n->cl[k].by_code)
            put_key(&n->clauses, n->cl[k].v, (int32_t)k);
    }
    if (!condstar)
        return;
    keys_init(a, &n->inside, n->ds.n);
    for (size_t i = 0; i < n->ds.n; i++) {
        const struct datum *d = &n->ds.d[i];
        if (value_symbolp(d->v))
            continue;
        for (int32_t up = d->parent; up >= 0; up = n->ds.d[up].parent) {
            int32_t c = n->clause_at[up];
            if (c >= 0 && n->cl[c].by_code) {
                put_key(&n->inside, d->v, c);
                break;
            }
        }
    }
}

/* Is there an empty line in text[from, to)? */
static bool has_empty_line(const uint8_t *text, size_t from, size_t to)
{
    const uint8_t *p = text + from, *end = text + to;
    while ((p = memchr(p, '\n', (size_t)(end - p)))) {
        const uint8_t *q = p + 1;
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\f' || *q == '\r'))
            q++;
        if (q < end && *q == '\n')
            return true;
        p = q;
    }
    return false;
}

struct splice_notes *splice_notes_new(const struct splice_in *in,
                                      const struct value *orig, struct span sp)
{
    struct arena *a = in->L->a;
    struct comments cs = {0};
    /* Most forms have no comment and no empty line: no lexing. */
    if (memchr(in->text + sp.start, ';', sp.end - sp.start))
        cs = find_comments(a, in->text, in->len, sp);
    bool empty = in->clause_of && has_empty_line(in->text, sp.start, sp.end);
    if (!cs.n && !empty)
        return NULL;
    struct splice_notes *n = arena_zalloc(a, sizeof *n);
    n->in = in;
    n->cs = cs;
    n->ds = splice_data(a, in->src, orig, sp, in->L->nil);
    find_clauses(n, a);
    attach(n, a);
    index_clauses(n, a);
    splice_notes_reset(n);
    return n;
}

/* ---- the printer's hook ---- */

/* Append the unclaimed comments of chain i to *tail, claimed; returns the
 * new tail. */
static struct pretty_comment **take(struct splice_notes *n, int32_t i,
                                    struct pretty_comment **tail)
{
    for (; i >= 0; i = n->cs.c[i].next) {
        struct comment *c = &n->cs.c[i];
        if (c->claimed)
            continue;
        c->claimed = true;
        n->left--;
        c->pc.next = NULL;
        *tail = &c->pc;
        tail = &c->pc.next;
    }
    return tail;
}

/* Clause k's comments go with r, the first time (lead: k's own branch is
 * being printed, and its empty line goes with it too). */
static void place_one(struct splice_notes *n, int32_t k, struct pretty_hook_reply *r,
                      bool lead)
{
    struct clause *c = &n->cl[k], *f = &n->cl[c->first];
    if (c->done)
        return;
    c->done = true;
    struct pretty_comment **tail = &r->carried;
    while (*tail)
        tail = &(*tail)->next;
    take(n, c->comments, tail);
    /* the empty line where the clauses before it came before it */
    r->blank |= lead && c->blank && c->carried_before > 0 && f->placed == c->carried_before;
    n->left -= c->blank;
    f->placed++;
}

/* Clause k's branch is being printed: its comments and empty line, then
 * those of the clauses whose code joined its code (merged clauses: their
 * code is this branch too), in the order they joined. */
static void place_record(struct splice_notes *n, int32_t k, struct pretty_hook_reply *r)
{
    if (n->cl[k].done)
        return;
    place_one(n, k, r, true);
    const struct splice_in *in = n->in;
    if (!in->rider_of)
        return;
    for (const struct value *v = in->rider_of(in->origin_ctx, n->cl[k].v); v;
         v = in->rider_of(in->origin_ctx, v)) {
        int32_t j = keys_get(&n->clauses, v, NULL);
        if (j >= 0)
            place_one(n, j, r, false);
    }
}

/* Clause code: key (a list, or the cell of an atom) carries a pcase
 * clause, as the expander says. */
static void place_clause(struct splice_notes *n, const struct value *key,
                         struct pretty_hook_reply *r)
{
    const struct splice_in *in = n->in;
    const struct value *cv = in->clause_of(in->origin_ctx, key);
    int32_t k = cv && cv != key ? keys_get(&n->clauses, cv, NULL) : -1;
    if (k >= 0)
        place_record(n, k, r);
}

/* Comments anchored at the datum v stands for, or at the symbol held by
 * the cell holder stands for, the first time it is printed; called for
 * every printed node in print order, so "first" is first in the output:
 * a claimed comment is not handed out again when a body is inlined at
 * several leaves. */
static void hook_fn(void *ctx, const struct value *v, const struct value *holder,
                    struct pretty_hook_reply *r)
{
    struct splice_notes *n = ctx;
    if (!n->left)
        return;
    const struct splice_in *in = n->in;
    const struct value *o = in->origin ? in->origin(in->origin_ctx, v) : v;
    struct span sp;
    r->user = value_consp(v) && (o != v || read_origin_span(in->src, v, &sp));
    struct pretty_comment **tail = take(n, keys_get(&n->anchors, o, NULL), &r->comments);
    if (holder) {
        const struct value *h = in->origin ? in->origin(in->origin_ctx, holder) : holder;
        take(n, keys_get(&n->cells, h, NULL), tail);
    }
    const struct value *key = value_consp(v) ? v : holder;
    if (key && n->clauses.cap && in->clause_of)
        place_clause(n, key, r);
    int32_t k = keys_get(&n->inside, o, NULL); /* cond*: the clause's code */
    if (k >= 0)
        place_record(n, k, r);
}

void splice_notes_reset(struct splice_notes *n)
{
    if (!n)
        return;
    n->left = 0;
    for (size_t i = 0; i < n->cs.n; i++) {
        struct comment *c = &n->cs.c[i];
        c->claimed = false;
        c->pc.trailing = c->trailing;
        c->pc.next = NULL;
        n->left += c->keyed;
    }
    for (size_t k = 0; k < n->n_cl; k++) {
        n->cl[k].done = false;
        n->cl[k].placed = 0;
        n->left += n->cl[k].carried && n->cl[k].blank;
    }
}

void splice_notes_hook(struct splice_notes *n, struct pretty_opts *po)
{
    po->comments = n && n->left ? &hook_fn : NULL; /* asked once per printed node */
    po->comment_ctx = n;
}

struct pretty_comment *splice_notes_before(struct splice_notes *n,
                                           struct pretty_comment *root)
{
    if (!n)
        return NULL;
    for (struct pretty_comment *p = root; p; p = p->next)
        ((struct comment *)((char *)p - offsetof(struct comment, pc)))->claimed = false;
    struct pretty_comment *first = NULL, **tail = &first;
    for (size_t i = 0; i < n->cs.n; i++) {
        struct comment *c = &n->cs.c[i];
        if (c->claimed)
            continue;
        c->pc.next = NULL;
        *tail = &c->pc;
        tail = &c->pc.next;
    }
    return first;
}
