/* read_forms.c - the reader's `#` objects that are validated as they are
 * built, and `#N=` labels.
 *
 * Stage 1b of the pipeline, called from read.c's machine: records and hash
 * tables (`#s(`), byte-code (`#[`), char-tables (`#^[`, `#^^[`),
 * bool-vectors (`#&`), strings with text properties (`#(`) and shared
 * structure (`#N=` / `#N#`).  Each reproduces Emacs 30.1's checks and error
 * data (elisp-syntax.md 1.12).
 */
#include <string.h>

#include "read_int.h"

static bool fixnump(const struct value *v) { return value_fixnump(v); }

static struct value *sym(struct reader *R, const char *name)
{
    return intern_cstr(R->L, name);
}

static bool type_error(struct reader *R, size_t pos, const char *pred, struct value *v)
{
    return read_failv(R, pos, "wrong-type-argument", NULL, sym(R, pred), v);
}

/* Length of a list that may be dotted or (through #N#) circular: the
 * number of conses, the final cdr in *tail; -1 when circular, *tail then
 * being the cons where Emacs's FOR_EACH_TAIL finds the cycle (Brent's
 * method: the tortoise jumps to the tail after 2, 4, 8 ... steps, and the
 * tail is compared with it at every other step), which list-length's
 * circular-list error names. */
static long list_walk(struct value *l, struct value **tail)
{
    long n = 0;
    struct value *tortoise = l;
    for (uint64_t left = 2, max = 2; l->kind == VK_CONS;) {
        l = l->u.cons.cdr;
        n++;
        if (--left == 0) {
            max <<= 1;
            left = max;
            tortoise = l;
        } else if (l == tortoise) {
            *tail = l;
            return -1;
        }
    }
    *tail = l;
    return n;
}

/* ---- records and hash tables ---- */

/* plist-get: the value after the first KEY at an even position, nil if
 * none; stops at a non-cons (and on a cycle). */
static struct value *plist_get(struct reader *R, struct value *plist, const char *key)
{
    struct value *k = sym(R, key), *slow = plist;
    for (long n = 1; plist->kind == VK_CONS && plist->u.cons.cdr->kind == VK_CONS; n++) {
        if (plist->u.cons.car == k)
            return plist->u.cons.cdr->u.cons.car;
        plist = plist->u.cons.cdr->u.cons.cdr;
        if ((n & 1) == 0) {
            slow = slow->u.cons.cdr->u.cons.cdr;
            if (slow == plist)
                break;
        }
    }
    return R->L->nil;
}

static struct value *weakness_value(struct reader *R, struct value *w, bool *ok)
{
    static const char *const names[] = {"key", "key-and-value", "key-or-value", "value"};
    *ok = true;
    if (w == R->L->nil)
        return NULL;
    if (w == R->L->t)
        return sym(R, "key-and-value");
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (w == sym(R, names[k]))
            return w;
    *ok = false;
    return NULL;
}

/* Emacs 30 reads only test, weakness, purecopy and data (size and the
 * rehash parameters are ignored), and checks data before it makes the
 * table (make-hash-table then checks test and weakness). */
static bool hash_params(struct reader *R, struct value *plist, struct value_hash *h,
                        uint32_t pos)
{
    struct lisp *L = R->L;
    struct value *test = plist_get(R, plist, "test");
    if (test == L->nil)
        test = sym(R, "eql");
    if (test != sym(R, "eq") && test != sym(R, "eql") && test != sym(R, "equal"))
        return read_failv(R, pos, "error", "Invalid hash table test", test, NULL);
    h->test = test;
    bool ok;
    struct value *v = plist_get(R, plist, "weakness");
    h->weakness = weakness_value(R, v, &ok);
    if (!ok)
        return read_failv(R, pos, "error", "Invalid hash table weakness", v, NULL);
    h->purecopy = plist_get(R, plist, "purecopy") != L->nil;
    return true;
}

/* Do two keys collide under the table's test? */
static bool same_key(struct reader *R, const struct value_hash *h, struct value *a,
                     struct value *b)
{
    if (a == b)
        return true;
    if (h->test == sym(R, "eq"))
        return fixnump(a) && fixnump(b) && a->u.i == b->u.i;
    if (h->test == sym(R, "eql") || R->labels_used) /* equal could loop on cycles */
        return value_eql(a, b);
    return value_equal(a, b);
}

/* data: nil or a proper list of even length (list-length's errors for a
 * dotted or circular one). */
static bool check_data(struct reader *R, struct value *data, uint32_t pos, long *n)
{
    struct value *tail;
    if (data != R->L->nil && data->kind != VK_CONS)
        return read_fail(R, pos, "error", "Hash table data is not a list");
    *n = list_walk(data, &tail);
    if (*n < 0)
        return read_failv(R, pos, "circular-list", NULL, tail, NULL);
    if (tail != R->L->nil)
        return type_error(R, pos, "listp", tail);
    if (*n & 1)
        return read_fail(R, pos, "error", "Hash table data length is odd");
    return true;
}

/* Insert the data pairs in order; a repeated key keeps its first place and
 * its last value. */
static void hash_data(struct reader *R, struct value *data, long n, struct value_hash *h)
{
    struct value **kv = arena_alloc(R->a, (size_t)(n + 1) * sizeof *kv);
    long count = 0;
    for (struct value *p = data; p != R->L->nil; p = p->u.cons.cdr->u.cons.cdr) {
        struct value *k = p->u.cons.car, *v = p->u.cons.cdr->u.cons.car;
        long j = 0;
        while (j < count && !same_key(R, h, kv[2 * j], k))
            j++;
        if (j == count)
            kv[2 * count++] = k;
        kv[2 * j + 1] = v;
    }
    h->data = lisp_list(R->L, (size_t)count * 2, kv);
}

static bool make_hash(struct reader *R, struct value *plist, uint32_t pos,
                      struct value **out)
{
    struct value *v = arena_zalloc(R->a, sizeof *v);
    v->kind = VK_HASHTABLE;
    struct value *data = plist_get(R, plist, "data");
    long n = 0;
    if (!check_data(R, data, pos, &n) || !hash_params(R, plist, &v->u.hash, pos))
        return false;
    hash_data(R, data, n, &v->u.hash);
    *out = v;
    return true;
}

bool read_make_record(struct reader *R, struct value *list, uint32_t start,
                      struct value **out)
{
    if (list->u.cons.car == sym(R, "hash-table"))
        return make_hash(R, list->u.cons.cdr, start, out);
    struct value *tail;
    long n = list_walk(list, &tail); /* a proper list: the elements read */
    struct value *v = value_vector(R->a, VK_RECORD, (size_t)n);
    for (long k = 0; k < n; k++, list = list->u.cons.cdr)
        v->u.vec.items[k] = list->u.cons.car;
    *out = v;
    return true;
}

/* ---- byte-code and char-tables ---- */

/* string-as-unibyte: the internal bytes, raw-byte characters as bytes. */
static struct value *as_unibyte(struct reader *R, const struct value *s)
{
    const uint8_t *d = s->u.str.data;
    size_t n = s->u.str.len, w = 0;
    uint8_t *buf = arena_alloc(R->a, n + 1);
    for (size_t r = 0; r < n; r++) {
        if ((d[r] == 0xC0 || d[r] == 0xC1) && r + 1 < n && (d[r + 1] & 0xC0) == 0x80) {
            buf[w++] = (uint8_t)(0x80 | ((d[r] & 1) << 6) | (d[r + 1] & 0x3F));
            r++;
        } else {
            buf[w++] = d[r];
        }
    }
    return read_make_string(R, buf, w, false, w);
}

/* #[ARGS CODE CONSTANTS [DEPTH [DOC [INTERACTIVE]]]], 3 to 6 slots, is a
 * byte-code function (CODE a string, CONSTANTS a vector, DEPTH a natural
 * fixnum) or, Emacs 30's interpreted closure (CODE the body, a cons;
 * CONSTANTS the environment, a cons or nil). */
static bool check_bytecode(struct reader *R, struct value *v, uint32_t start)
{
    struct value **it = v->u.vec.items;
    struct lisp *L = R->L;
    size_t n = v->u.vec.n;
    bool ok = n >= 3 && n <= 6 &&
              (fixnump(it[0]) || it[0]->kind == VK_CONS || it[0] == L->nil) &&
              ((it[1]->kind == VK_STRING && it[2]->kind == VK_VECTOR && n > 3 &&
                fixnump(it[3]) && it[3]->u.i >= 0) ||
               (it[1]->kind == VK_CONS && (it[2]->kind == VK_CONS || it[2] == L->nil)));
    if (!ok)
        return read_fail(R, start, "invalid-read-syntax", "Invalid byte-code object");
    if (it[1]->kind == VK_STRING && it[1]->u.str.multibyte)
        it[1] = as_unibyte(R, it[1]);
    return true;
}

static bool check_subchartable(struct reader *R, struct value *v, uint32_t start)
{
    static const size_t entries[4] = {64, 16, 32, 128};
    struct value **it = v->u.vec.items;
    size_t n = v->u.vec.n;
    if (n < 2)
        return read_fail(R, start, "error", "Invalid size of sub-char-table");
    if (!(fixnump(it[0]) && it[0]->u.i >= 1 && it[0]->u.i <= 3))
        return read_fail(R, start, "error", "Invalid depth in sub-char-table");
    if (n - 2 != entries[it[0]->u.i])
        return read_fail(R, start, "error", "Invalid size in sub-char-table");
    if (!(fixnump(it[1]) && it[1]->u.i >= 0 && it[1]->u.i <= 0x3FFFFF))
        return read_fail(R, start, "error", "Invalid minimum character in sub-char-table");
    return true;
}

bool read_check_vector(struct reader *R, struct value *v, uint32_t start)
{
    switch (v->kind) {
    case VK_BYTECODE:
        return check_bytecode(R, v, start);
    case VK_CHARTABLE: /* 4 header slots + 64 entries at least */
        return v->u.vec.n >= 68 ||
               read_fail(R, start, "invalid-read-syntax", "Invalid size char-table");
    default:
        return check_subchartable(R, v, start);
    }
}

/* ---- bool-vectors ---- */

bool read_make_boolvec(struct reader *R, uint64_t nbits, const struct value *s,
                       uint32_t pos, struct value **out)
{
    uint64_t bytes = nbits / 8 + (nbits % 8 != 0), nch = s->u.str.nchars;
    if (s->u.str.multibyte || (nch != bytes && !(nch > 0 && nbits == (nch - 1) * 8)))
        return read_fail(R, pos, "invalid-read-syntax", "#&...");
    uint8_t *bits = arena_zalloc(R->a, bytes + 1);
    memcpy(bits, s->u.str.data, bytes);
    if (nbits % 8)
        bits[bytes - 1] &= (uint8_t)((1u << (nbits % 8)) - 1);
    struct value *v = arena_zalloc(R->a, sizeof *v);
    v->kind = VK_BOOLVEC;
    v->u.bv.nbits = nbits;
    v->u.bv.bits = bits;
    *out = v;
    return true;
}

/* ---- strings with text properties ---- */

/* One interval of the string (Emacs's interval tree, flattened). */
struct interval {
    int64_t beg, end;    /* character positions */
    struct value *plist; /* nil for an interval without properties */
};

/* The string of a #( being given its properties. */
struct props_state {
    struct item str;      /* the string */
    struct interval *iv;  /* covers [0, nchars) when niv > 0 */
    size_t niv, cap;
};

static void add_interval(struct reader *R, struct props_state *ps, int64_t b, int64_t e,
                         struct value *pl)
{
    if (b >= e)
        return;
    if (ps->niv == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 8;
        ps->iv = arena_grow(R->a, ps->iv, ps->cap * sizeof *ps->iv, cap * sizeof *ps->iv);
        ps->cap = cap;
    }
    ps->iv[ps->niv++] = (struct interval){b, e, pl};
}

/* Intervals of a string that already has properties (shared via #N#). */
static void intervals_from_string(struct reader *R, struct props_state *ps)
{
    const struct value *s = ps->str.v;
    int64_t at = 0, n = (int64_t)s->u.str.nchars;
    for (struct value *p = s->u.str.props; p && p->kind == VK_CONS;
         p = p->u.cons.cdr->u.cons.cdr->u.cons.cdr) {
        int64_t b = p->u.cons.car->u.i, e = p->u.cons.cdr->u.cons.car->u.i;
        add_interval(R, ps, at, b, R->L->nil);
        add_interval(R, ps, b, e, p->u.cons.cdr->u.cons.cdr->u.cons.car);
        at = e;
    }
    if (ps->niv)
        add_interval(R, ps, at, n, R->L->nil);
}

/* copy-sequence of a property list. */
static struct value *copy_plist(struct reader *R, struct value *pl)
{
    struct value *head = R->L->nil, **tail = &head;
    for (; pl->kind == VK_CONS; pl = pl->u.cons.cdr) {
        *tail = value_cons(R->a, pl->u.cons.car, R->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    return head;
}

/* set-text-properties on [b, e): the covered part becomes one interval.
 * When one interval is cut into a left and a right rest, the right rest
 * gets a copy of the property list, as Emacs's interval split does. */
static void set_range(struct reader *R, struct props_state *ps, int64_t b, int64_t e,
                      struct value *pl)
{
    struct interval *old = ps->iv;
    size_t n = ps->niv;
    ps->iv = NULL, ps->niv = ps->cap = 0;
    bool placed = false;
    for (size_t k = 0; k < n; k++) {
        struct interval o = old[k];
        if (o.end <= b || o.beg >= e) {
            if (o.beg >= e && !placed)
                add_interval(R, ps, b, e, pl), placed = true;
            add_interval(R, ps, o.beg, o.end, o.plist);
            continue;
        }
        add_interval(R, ps, o.beg, b, o.plist);
        if (!placed)
            add_interval(R, ps, b, e, pl), placed = true;
        add_interval(R, ps, e, o.end, o.beg < b ? copy_plist(R, o.plist) : o.plist);
    }
    if (!placed)
        add_interval(R, ps, b, e, pl);
}

/* validate_plist: nil, an even-length list, or X meaning (X nil). */
static struct value *check_plist(struct reader *R, struct value *pl, uint32_t pos)
{
    if (pl == R->L->nil)
        return pl;
    if (pl->kind != VK_CONS)
        return lisp_listv(R->L, pl, R->L->nil, NULL);
    struct value *t = pl;
    for (long n = 0; t->kind == VK_CONS; n++) {
        t = t->u.cons.cdr;
        if (t->kind != VK_CONS) {
            read_fail(R, pos, "error", "Odd length text property list");
            return NULL;
        }
        t = t->u.cons.cdr;
        if (n > (long)R->len) /* circular */
            break;
    }
    return pl;
}

/* set-text-properties with the triple t (BEG END PLIST). */
static bool apply_triple(struct reader *R, struct props_state *ps, const struct item *t)
{
    struct value *pl = check_plist(R, t[2].v, t[2].start), *tail;
    if (!pl)
        return false;
    for (int k = 0; k < 2; k++)
        if (!fixnump(t[k].v))
            return type_error(R, t[k].start, "integer-or-marker-p", t[k].v);
    int64_t b = t[0].v->u.i, e = t[1].v->u.i, n = (int64_t)ps->str.v->u.str.nchars;
    if (pl == R->L->nil && b == 0 && e == n) {
        ps->niv = 0;
        return true;
    }
    if (b == e)
        return true;
    if (b > e) {
        int64_t x = b;
        b = e, e = x;
    }
    if (b < 0 || e > n)
        return read_failv(R, t[0].start, "args-out-of-range", NULL, t[0].v, t[1].v);
    if (list_walk(pl, &tail) >= 0 && tail != R->L->nil)
        return type_error(R, t[2].start, "listp", tail);
    if (ps->niv == 0 && pl == R->L->nil)
        return true;
    if (ps->niv == 0)
        add_interval(R, ps, 0, n, R->L->nil);
    set_range(R, ps, b, e, pl);
    return true;
}

/* Emacs 30 checks a #( when it is closed: the first element must be a
 * string, then each BEG END PLIST triple is applied in turn, an
 * incomplete one being an error when it is reached. */
bool read_props_finish(struct reader *R, struct frame *f, uint32_t pos, uint32_t end,
                       struct item *out)
{
    const struct item *el = R->items + f->base;
    size_t n = R->nitems - f->base;
    if (n == 0 || el[0].v->kind != VK_STRING)
        return read_fail(R, n ? el[0].start : pos, "invalid-read-syntax", "#");
    struct props_state st = {el[0], NULL, 0, 0}, *ps = &st;
    intervals_from_string(R, ps);
    for (size_t k = 1; k < n; k += 3) {
        if (k + 2 >= n)
            return read_fail(R, pos, "invalid-read-syntax", "Invalid string property list");
        if (!apply_triple(R, ps, el + k))
            return false;
    }
    R->nitems = f->base;
    struct value **flat = arena_alloc(R->a, (ps->niv * 3 + 1) * sizeof *flat);
    size_t k = 0;
    for (size_t j = 0; j < ps->niv; j++) {
        if (ps->iv[j].plist == R->L->nil)
            continue;
        flat[k++] = value_int(R->a, ps->iv[j].beg);
        flat[k++] = value_int(R->a, ps->iv[j].end);
        flat[k++] = ps->iv[j].plist;
    }
    struct value *s = ps->str.v;
    s->u.str.props = k ? lisp_list(R->L, k, flat) : NULL;
    read_origin_put(R->origin, s, f->start, end, 0, 0);
    out->v = s;
    out->start = f->start;
    out->end = end;
    R->nframes--;
    return true;
}

/* ---- #N= and #N# ---- */

static struct label_slot *label_slot(struct reader *R, int64_t n, bool create)
{
    if (!R->labels && !create)
        return NULL;
    if (!R->labels || (create && (R->nlabels + 1) * 2 > R->capl)) {
        struct label_slot *old = R->labels;
        size_t oldcap = R->capl;
        R->capl = oldcap ? oldcap * 2 : 16;
        R->labels = arena_alloc(R->a, R->capl * sizeof *R->labels);
        for (size_t k = 0; k < R->capl; k++)
            R->labels[k].n = -1;
        R->nlabels = 0;
        for (size_t k = 0; k < oldcap; k++)
            if (old[k].n >= 0)
                *label_slot(R, old[k].n, true) = old[k];
    }
    size_t j = (size_t)((uint64_t)n * UINT64_C(0x9E3779B97F4A7C15) >> 40) & (R->capl - 1);
    while (R->labels[j].n >= 0 && R->labels[j].n != n)
        j = (j + 1) & (R->capl - 1);
    if (R->labels[j].n < 0) {
        if (!create)
            return NULL;
        R->labels[j].n = n;
        R->nlabels++;
    }
    return &R->labels[j];
}

void read_labels_reset(struct reader *R)
{
    for (size_t k = 0; k < R->capl; k++)
        R->labels[k].n = -1;
    R->nlabels = 0;
    R->labels_used = false;
}

void read_label_begin(struct reader *R, struct frame *f, size_t frame_index)
{
    f->u.ph = value_cons(R->a, R->L->nil, R->L->nil);
    struct label_slot *s = label_slot(R, f->label, true);
    s->v = f->u.ph;
    s->frame = (int32_t)frame_index;
    R->labels_used = true;
}

bool read_label_ref(struct reader *R, const struct lex_token *t, struct value **out)
{
    struct label_slot *s = R->labels_used ? label_slot(R, t->ival, false) : NULL;
    if (!s) { /* Emacs names the text read: "#1#" */
        char msg[32];
        size_t n = t->end - t->start < sizeof msg ? t->end - t->start : sizeof msg - 1;
        memcpy(msg, R->text + t->start, n);
        msg[n] = 0;
        return read_fail(R, t->start, "invalid-read-syntax", msg);
    }
    if (s->frame >= 0)
        R->frames[s->frame].flags |= FRAME_REFERENCED;
    *out = s->v;
    return true;
}

/* Pointer set for the substitution walk (membership only). */
struct ptrset {
    const struct value **slots;
    size_t cap, n;
};

static bool ptrset_add(struct reader *R, struct ptrset *p, const struct value *v)
{
    if ((p->n + 1) * 2 > p->cap) {
        struct ptrset old = *p;
        p->cap = old.cap ? old.cap * 2 : 64;
        p->slots = arena_zalloc(R->a, p->cap * sizeof *p->slots);
        p->n = 0;
        for (size_t k = 0; k < old.cap; k++)
            if (old.slots[k])
                ptrset_add(R, p, old.slots[k]);
    }
    size_t j = (size_t)(((uint64_t)(uintptr_t)v >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 32) &
               (p->cap - 1);
    while (p->slots[j] && p->slots[j] != v)
        j = (j + 1) & (p->cap - 1);
    if (p->slots[j])
        return false;
    p->slots[j] = v;
    p->n++;
    return true;
}

/* The child slots of v that may hold the placeholder. */
static size_t child_slots(struct value *v, struct value ***slots, struct value **one[2])
{
    switch (v->kind) {
    case VK_CONS:
        one[0] = &v->u.cons.car, one[1] = &v->u.cons.cdr;
        *slots = NULL;
        return 2;
    case VK_VECTOR: case VK_RECORD: case VK_BYTECODE: case VK_CHARTABLE:
    case VK_SUBCHARTABLE:
        *slots = v->u.vec.items;
        return v->u.vec.n;
    case VK_STRING:
        one[0] = &v->u.str.props, *slots = NULL;
        return v->u.str.props ? 1 : 0;
    default: /* a hash table too: Emacs 30's substitution leaves its data */
        return 0;
    }
}

/* Replace every reference to ph inside root by root (Emacs's
 * lread--substitute-object-in-subtree), with an explicit stack. */
static void substitute(struct reader *R, struct value *root, struct value *ph)
{
    struct ptrset seen = {0};
    size_t n = 0, cap = 64;
    struct value **stack = arena_alloc(R->a, cap * sizeof *stack);
    stack[n++] = root;
    ptrset_add(R, &seen, root);
    while (n) {
        struct value *v = stack[--n], **vec, **one[2];
        size_t k = child_slots(v, &vec, one);
        for (size_t j = 0; j < k; j++) {
            struct value **slot = vec ? &vec[j] : one[j];
            if (*slot == ph)
                *slot = root;
            else if (ptrset_add(R, &seen, *slot)) {
                if (n == cap) {
                    stack = arena_grow(R->a, stack, cap * sizeof *stack, 2 * cap * sizeof *stack);
                    cap *= 2;
                }
                stack[n++] = *slot;
            }
        }
    }
}

struct value *read_label_finish(struct reader *R, struct frame *f, struct value *v)
{
    struct value *ph = f->u.ph;
    struct label_slot *s = label_slot(R, f->label, true);
    if (v == ph) { /* #1=#1# */
        read_fail(R, f->start, "invalid-read-syntax", "nonsensical self-reference");
        return NULL;
    }
    if (v->kind == VK_CONS) {
        ph->u.cons.car = v->u.cons.car;
        ph->u.cons.cdr = v->u.cons.cdr;
        read_origin_copy(R->origin, ph, v);
        if (s->v == ph)
            s->frame = -1;
        return ph;
    }
    if (f->flags & FRAME_REFERENCED)
        substitute(R, v, ph);
    s->v = v;
    s->frame = -1;
    return v;
}
