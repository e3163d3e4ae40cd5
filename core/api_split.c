/* api_split.c - one large input computed in parts, one after the other
 * or by several threads (-j N when the input is the only one).
 *
 * The text is cut at lines that begin with "(", where top-level forms
 * start, into parts of about 16 KiB: small enough that the memory of a
 * part's run, given back and taken again by the next part, stays in the
 * processor's caches (a large input in one piece fills memory it touches
 * once); with several threads, more parts than threads, so that a thread
 * that finishes early takes the next part and uneven parts still keep
 * every thread busy.
 * Each part is an ordinary run whose text ends at the next cut.  It reads
 * only its own stretch when nothing before it matters: no definition of
 * a pattern macro, structure or rx name lies before it (else it reads from the
 * start and learns those), and no symbol of the input could be a
 * temporary's name (else the input is run in one piece).  It expands and
 * prints its share of forms; what it gives is kept in its thread's output
 * arena, and the memory of its run is given back at once, so each thread
 * reuses the same memory.  With several threads, the scan of the text
 * that decides whether it may be cut and where parts read from is made
 * while the first part (which reads from the start in any case) is
 * computed: a new thread's first moments (often a millisecond before it
 * runs) and the scan are no longer spent before any part begins.  One
 * thread computes the parts in order and learns the same from them, with
 * no scan (work_in_order).
 *
 * A cut that is not between top-level forms leaves the part before it
 * with an unfinished list, string or quote, which fails to read; then
 * the input is run again in one piece (which also says where a real read
 * error is).
 * Otherwise the outputs are joined in order and the diagnostics and
 * counters merged into the run of the whole input: what is printed, said
 * and written is what a run in one piece gives.
 */
/* memmem: POSIX.1-2024; glibc declares it for _GNU_SOURCE */
#define _GNU_SOURCE
#include "api_int.h"

#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <string.h>

#include "lisp/intern.h"
#include "syntax/read.h"

/* Smaller inputs are run in one piece: their memory fits the caches. */
#define SPLIT_MIN_BYTES (128 * 1024)
#define SPLIT_MAX_THREADS 16
/* The size of a part: a run takes some 30 bytes of memory per byte of
 * text, so that a part's memory (reused by the next part) stays in a
 * core's second-level cache, while each part's own setup (its run, its
 * expander, reading the text before it when a definition lies there)
 * stays small beside its work.  On a 449 KB file of pcase forms, parts of
 * 16 KiB missed the last-level cache a third as often as the run in one
 * piece, for 7% more instructions (the scan of the text most of it). */
#define PART_BYTES (16 * 1024)
/* Parts that read from the start (to learn a definition before them) may
 * read at most this many times the text more than one piece reads. */
#define READ_AGAIN_MAX 2
/* At most this many parts (larger parts for larger inputs): */
#define SPLIT_MAX_PARTS 256
/* A thread's run arena starts with one page this large, a huge page (a
 * fresh thread's pages are faulted in, one fault per 2 MiB). */
#define PART_FIRST_PAGE ((size_t)2 * 1024 * 1024)
/* The first page of a thread's output arena, which keeps its symbols
 * and the output of its parts (about 1.6 bytes per byte of text), is
 * this much of that huge page: a part's run takes under 600 KB of the
 * rest (pcase forms; more comes from further pages), and the thread
 * faults in one huge page, not two. */
#define PART_OUT_SHARE ((size_t)1280 * 1024)
/* The output arena's next page, when the share is full or not taken: */
#define PART_OUT_PAGE ((size_t)2 * 1024 * 1024)

/* Does name (n >= 1 bytes) start at text[at], with a backslash allowed
 * before any of its characters after the first? */
static bool name_at(const uint8_t *text, size_t at, size_t hi, const char *name, size_t n)
{
    const uint8_t *q = text + at + 1, *end = text + hi;
    size_t i = 1;
    while (i < n && q < end) {
        if (*q == '\\' && q + 1 < end)
            q++;
        if (*q != (uint8_t)name[i])
            return false;
        q++;
        i++;
    }
    return i == n;
}

/* Sixteen bytes at once (GCC's and Clang's vector extension: SSE2 on
 * x86-64, plain code elsewhere). */
typedef uint8_t bytes16 __attribute__((vector_size(16)));

static bytes16 load16(const uint8_t *p)
{
    bytes16 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Do name's first and last bytes (first, last: each repeated sixteen
 * times; n the name's length) stand n - 1 bytes apart at any of the
 * sixteen starts at p?  Lane j of the result is nonzero where they do. */
static bytes16 ends_match(const uint8_t *p, size_t n, bytes16 first, bytes16 last)
{
    return (bytes16)(load16(p) == first) & (bytes16)(load16(p + n - 1) == last);
}

static bool any16(bytes16 v)
{
    uint64_t half[2];
    memcpy(half, &v, sizeof half);
    return (half[0] | half[1]) != 0;
}

/* Where name (n >= 2 bytes) first occurs in text[lo, hi), spelled
 * plainly (hi: nowhere).  64 starts are tried at once by their first and
 * last bytes; only where both match are the bytes compared (memmem took
 * twice the instructions on Lisp text). */
static size_t find_plain(const uint8_t *text, size_t lo, size_t hi, const char *name,
                         size_t n)
{
    bytes16 first, last;
    memset(&first, (uint8_t)name[0], sizeof first);
    memset(&last, (uint8_t)name[n - 1], sizeof last);
    size_t at = lo;
    for (; hi - at >= n - 1 + 64; at += 64) {
        const uint8_t *p = text + at;
        if (!any16(ends_match(p, n, first, last) | ends_match(p + 16, n, first, last) |
                   ends_match(p + 32, n, first, last) | ends_match(p + 48, n, first, last)))
            continue;
        for (size_t j = 0; j < 64; j++)
            if (p[j] == (uint8_t)name[0] && memcmp(p + j, name, n) == 0)
                return at + j;
    }
    const uint8_t *m = memmem(text + at, hi - at, name, n);
    return m ? (size_t)(m - text) : hi;
}

/* Where name first occurs in text[lo, hi) as a symbol may write it,
 * with a backslash before any of its characters (hi: nowhere).  Inside
 * strings and comments too: a false alarm only costs speed.  The plain
 * spelling is found by find_plain.  One with backslashes has a backslash
 * before one of the name's characters after the first, and it starts in
 * the run of the name's characters and backslashes just before that
 * backslash, at most 2n bytes back: only there is it tried character
 * by character (most backslashes of Lisp text escape a parenthesis, a
 * quote or a backslash, or start a string escape, and are passed at
 * once). */
static size_t find_name(const uint8_t *text, size_t lo, size_t hi, const char *name)
{
    size_t n = strlen(name);
    if (!n || lo >= hi)
        return hi;
    size_t best = hi;
    if (n >= 2) {
        best = find_plain(text, lo, hi, name, n);
    } else {
        const uint8_t *m = memchr(text + lo, (uint8_t)name[0], hi - lo);
        best = m ? (size_t)(m - text) : hi;
    }
    bool tail[256] = {false}, part[256] = {false}; /* name[1..]; name and '\\' */
    for (size_t i = 0; i < n; i++)
        tail[(uint8_t)name[i]] = i > 0, part[(uint8_t)name[i]] = true;
    part['\\'] = true;
    const uint8_t *p;
    for (size_t b = lo; b < best && (p = memchr(text + b, '\\', best - b)); b++) {
        b = (size_t)(p - text);
        if (b + 1 >= hi || !tail[text[b + 1]])
            continue;
        size_t floor = b > lo + 2 * n ? b - 2 * n : lo;
        for (size_t at = b; at > floor && part[text[at - 1]];) {
            at--;
            if (text[at] == (uint8_t)name[0] && at < best && name_at(text, at, hi, name, n))
                best = at;
        }
    }
    return best;
}

/* Where the two bytes "ab" first occur in text[from, len) (len: nowhere). */
static size_t find_pair(const uint8_t *text, size_t from, size_t len, uint8_t a, uint8_t b)
{
    const uint8_t *p = text + from, *end = text + len;
    while (p + 1 < end && (p = memchr(p, a, (size_t)(end - p - 1)))) {
        if (p[1] == b)
            return (size_t)(p - text);
        p++;
    }
    return len;
}

/* The first byte of text where a definition that later forms learn from
 * may be written (len: none). */
static size_t first_definition(const uint8_t *text, size_t len)
{
    size_t a = find_name(text, 0, len, "pcase-defmacro");
    size_t b = find_name(text, 0, len, "cl-defstruct");
    size_t c = find_name(text, 0, len, "rx-define");
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* May r's text be computed in parts, as far as the quick checks can
 * tell?  Not with `#@N` (which skips bytes past a cut), nor when the
 * text declares a coding system the run refuses, nor without a prefix
 * for the temporaries' names. */
static bool splittable_quick(const struct run *r)
{
    struct span name;
    return *run_gensym_prefix(r) && find_pair(r->text, 0, r->len, '#', '@') == r->len &&
           read_check_coding(r->text, r->len, &name);
}

/* ... and not when a symbol of the text could be a temporary's name (a
 * part knows only the symbols it reads). */
static bool splittable(const struct run *r)
{
    return splittable_quick(r) && find_name(r->text, 0, r->len, run_gensym_prefix(r)) == r->len;
}

/* Does a symbol of L's table have a name a temporary could take? */
static bool prefixed_symbol(const struct lisp *L, const char *prefix)
{
    const struct intern_table *t = L->tab;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].mixlen != INTERN_FREE &&
            run_temp_like(&t->slots[i].sym->u.sym, prefix))
            return true;
    return false;
}

/* Is forms' head a definition that expand_form learns from? */
static bool definition_form(const struct value *form)
{
    if (!value_consp(form) || !value_symbolp(value_car(form)))
        return false;
    const char *name = value_car(form)->u.sym.name;
    return strcmp(name, "pcase-defmacro") == 0 || strcmp(name, "cl-defstruct") == 0 ||
           strcmp(name, "rx-define") == 0;
}

unsigned api_split_threads(const struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    if (o->whole || o->add_requires || r->len < SPLIT_MIN_BYTES || o->no_expand || o->dump ||
        o->explain ||
        o->format != PCX_FORMAT_LISP || o->at_line || r->select_nth >= 0 ||
        r->select_defun)
        return 0;
    unsigned n = r->in->threads ? r->in->threads : 1;
    return n > SPLIT_MAX_THREADS ? SPLIT_MAX_THREADS : n;
}

/* One part: its stretch of text and, once computed, what it gives. */
struct part {
    size_t lo, hi;            /* its share: bytes [lo, hi) */
    size_t read_lo;           /* where its reading starts */
    struct arena *a;          /* what it gives (its thread's output arena) */
    const char *out;
    size_t out_len;
    struct diag *diags;       /* said while expanding its share */
    size_t n_diags;
    struct pcx_stats stats;
    struct run_libs libs;     /* the libraries its share calls and requires */
    bool defines;             /* a form of its share is a definition */
    bool internal, failed, oom;
};

/* The text's scan (splittable, first_definition): done once, by the
 * first thread that is free for it. */
enum { SCAN_TODO, SCAN_BUSY, SCAN_DONE };

struct split {
    const struct run *whole;  /* the loaded input: read only while parts run */
    struct part *p;
    unsigned n;
    atomic_uint next;         /* the next part to take */
    atomic_bool stop;         /* a part failed: the rest is wasted work */
    atomic_uint scan;         /* SCAN_*: the scan's progress */
    bool splittable;          /* the scan's verdict (read after SCAN_DONE) */
};

/* A thread's memory: the run arena its parts use one after the other
 * (released to `mark` after each), and the arena that keeps what its
 * parts give until they are merged, and its symbols: the parts a thread
 * computes share one symbol table, so that a symbol is made once per
 * thread and not once per part, with what is learned about it (its
 * head's row, whether its name prints plainly).  What a part prints does
 * not depend on which other symbols exist or on their numbers. */
struct worker {
    struct split *s;
    struct arena *run, *out;
    struct lisp *L;           /* in out; its values go to run */
    struct run *q;
    struct arena_mark mark;
    struct buf *joined;       /* one thread: the whole run's output */
    bool oom;
};

/* The first place at or after `from` that is after a blank between
 * top-level forms (len: none), scanning from lo, a place between forms:
 * a text on one long line is cut too (it took 47 bytes of memory per
 * byte in one piece). */
static size_t cut_in_line(const uint8_t *text, size_t lo, size_t from, size_t len)
{
    struct read_bounds b;
    read_bounds_init(&b);
    b.anywhere = true;
    b.pos = lo;
    for (size_t end = from; end < len;) {
        end = len - end > 4096 ? end + 4096 : len;
        read_bounds_scan(&b, text, end);
        if (b.ready >= from && b.ready < len)
            return b.ready;
    }
    return len;
}

/* Cut text into at most n parts of about equal size, each starting at a
 * line that begins with "(" (the first at 0), or where the scan finds
 * the end of a form when no such line comes within a part's size
 * (*in_line: some part starts so, in a line).  Returns how many. */
static unsigned cut(struct part *p, const uint8_t *text, size_t len, unsigned n,
                    bool *in_line)
{
    unsigned k = 0;
    size_t size = len / n;
    p[0].lo = 0;
    for (unsigned i = 1; i < n; i++) {
        size_t from = size * i;
        if (from <= p[k].lo)
            from = p[k].lo + 1;
        size_t at = from < len ? find_pair(text, from - 1, len, '\n', '(') : len;
        at = at < len ? at + 1 : len;
        if (at - from > size && from < len) {
            size_t mid = cut_in_line(text, p[k].lo, from, len);
            *in_line = *in_line || mid < at;
            at = mid < at ? mid : at;
        }
        if (at >= len)
            break;
        p[k].hi = at;
        p[k + 1].lo = p[k].hi;
        k++;
    }
    p[k].hi = len;
    return k + 1;
}

/* The scan: may the text be cut at all, and where do parts read from
 * (part 0 reads from 0 in any case, so it may run before the scan). */
static void scan_text(struct split *s)
{
    const struct run *w = s->whole;
    s->splittable = splittable(w);
    size_t def = s->splittable ? first_definition(w->text, w->len) : 0;
    size_t again = 0; /* bytes read more than once */
    for (unsigned k = 1; k < s->n; k++) {
        s->p[k].read_lo = def < s->p[k].lo ? 0 : s->p[k].lo;
        again += s->p[k].lo - s->p[k].read_lo;
    }
    /* Parts after an early definition would each read the text before
     * them again: the reading grows with the square of the text (a 1.4 MB
     * file of autoloads with a structure at its top took 40 times the
     * instructions of one piece).  Past READ_AGAIN_MAX times the text,
     * it is run in one piece. */
    if (again > READ_AGAIN_MAX * w->len)
        s->splittable = false;
}

/* Make sure the scan is done: do it when no thread has begun it, else
 * wait for the thread that has (it takes a fraction of a part's time). */
static void scan_once(struct split *s)
{
    unsigned expect = SCAN_TODO;
    if (atomic_compare_exchange_strong(&s->scan, &expect, SCAN_BUSY)) {
        scan_text(s);
        atomic_store(&s->scan, SCAN_DONE);
        return;
    }
    while (atomic_load(&s->scan) != SCAN_DONE)
        sched_yield();
}

/* Copy what merge needs of part run q into p->a (where q's output
 * already is, from byte `from` on). */
static void keep(struct part *p, const struct run *q, size_t from_byte)
{
    struct arena *a = p->a;
    p->out = q->out.data ? q->out.data + from_byte : NULL; /* none printed */
    p->out_len = q->out.len - from_byte;
    size_t from = q->diag_mark == SIZE_MAX ? q->diags.n : q->diag_mark;
    p->n_diags = q->diags.n - from;
    p->diags = ARENA_NEWN(a, struct diag, p->n_diags + 1);
    for (size_t i = 0; i < p->n_diags; i++) {
        p->diags[i] = q->diags.items[from + i];
        const char *m = p->diags[i].message;
        p->diags[i].message = arena_strndup(a, m, strlen(m));
        const char *w = p->diags[i].witness;
        p->diags[i].witness = w ? arena_strndup(a, w, strlen(w)) : NULL;
    }
    p->stats = q->stats;
    p->stats.forms = q->rd.n_forms - q->lo;
    p->libs = q->libs;
    p->internal = q->internal;
    p->failed = q->split_failed;
    for (size_t i = q->lo; i < q->rd.n_forms && !p->defines; i++)
        p->defines = definition_form(q->rd.forms[i].v);
}

/* A part's output is given room for twice its text and takes about 1.6
 * times: the tail goes back to the thread's arena when nothing was
 * allocated after the output (the usual case), for the next parts'
 * output and symbols. */
static void trim_output(struct buf *b)
{
    if (b->cap > b->len + 1) {
        b->data = arena_grow(b->a, b->data, b->cap, b->len + 1);
        b->cap = b->len + 1;
    }
}

/* A thread's arenas.  Their first pages are huge-page sized: a fresh
 * thread's memory is faulted in, and a huge page takes one fault per
 * 2 MiB.  false: out of memory. */
static bool worker_start(struct worker *wk)
{
    const struct run *w = wk->s->whole;
    wk->run = arena_new(NULL);
    if (!wk->joined)
        wk->out = arena_new(NULL);
    if (!wk->run || !wk->out)
        return false;
    wk->run->limit = w->cx->o.memory_limit;
    wk->run->next_page = PART_FIRST_PAGE;
    if (!wk->joined) {
        wk->out->limit = w->cx->o.memory_limit;
        wk->out->next_page = PART_OUT_PAGE;
    }
    jmp_buf *outer = wk->out->oom;
    jmp_buf jb;
    volatile bool made = false;
    if (setjmp(jb) == 0) {
        arena_on_oom(wk->run, &jb);
        arena_on_oom(wk->out, &jb);
        wk->q = ARENA_NEW(wk->run, struct run);
        /* not when a memory limit kept the run's first page small */
        if (!wk->joined &&
            (size_t)(wk->run->end - wk->run->cur) >= PART_OUT_SHARE + PART_OUT_SHARE / 2)
            arena_adopt(wk->out, arena_alloc(wk->run, PART_OUT_SHARE), PART_OUT_SHARE);
        wk->L = intern_new(wk->out);
        /* one thread: room for the whole text's symbols at once (as
         * read_source_range reserves a part's): the table is not rehashed
         * at every doubling as the parts add theirs, nor left behind in
         * the arena at each size (with several threads, each table holds
         * a share, which the adopted page has room for as it grows) */
        if (wk->joined)
            intern_reserve(wk->L, w->len / 64);
        wk->mark = arena_mark(wk->run);
        made = true;
    }
    /* also after running out: no jump target left on a stack that is gone */
    arena_on_oom(wk->run, NULL);
    arena_on_oom(wk->out, outer);
    return made;
}

/* The output arena first: its first page may be adopted from the run
 * arena, whose pages must outlive it. */
static void worker_end(struct worker *wk)
{
    if (!wk->joined)
        arena_free(wk->out);
    arena_free(wk->run);
}

static void part_compute(struct worker *wk, unsigned k)
{
    struct split *s = wk->s;
    const struct run *w = s->whole;
    struct part *p = &s->p[k];
    p->a = wk->out;
    jmp_buf *outer = p->a->oom;
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(wk->run, &jb);
        arena_on_oom(p->a, &jb);
        struct run *q = wk->q;
        api_run_init(q, w->cx, wk->run, w->in);
        intern_set_arena(wk->L, wk->run);
        q->L = wk->L;
        /* kept when the run's memory goes; one thread's parts come in
         * order and print straight after each other */
        size_t from = 0;
        if (wk->joined) {
            q->out = *wk->joined;
            from = q->out.len;
        } else {
            buf_init(&q->out, p->a);
        }
        run_set_text(q, w->text, p->hi);
        q->parts = s->n;
        q->read_lo = p->read_lo;
        q->share_lo = p->lo;
        run_stages(q);
        if (!wk->joined)
            trim_output(&q->out);
        keep(p, q, from);
        if (wk->joined)
            *wk->joined = q->out;
    } else {
        p->oom = true;
    }
    arena_on_oom(p->a, outer);
    arena_on_oom(wk->run, NULL);
    arena_release(wk->run, wk->mark);
    if (p->oom || p->failed)
        atomic_store(&s->stop, true);
}

/* Take parts until none is left; part 0 (first: it reads from 0) is the
 * calling thread's, which computes it while another does the scan. */
static void work(struct worker *wk, bool first)
{
    struct split *s = wk->s;
    if (!worker_start(wk)) {
        wk->oom = true;
        atomic_store(&s->stop, true);
        return;
    }
    if (first)
        part_compute(wk, 0);
    scan_once(s);
    if (!s->splittable)
        return;
    unsigned k;
    while (!atomic_load(&s->stop) && (k = atomic_fetch_add(&s->next, 1)) < s->n)
        part_compute(wk, k);
}

/* Have the parts after part k more than READ_AGAIN_MAX times the text to
 * read again when each reads from the start? */
static bool too_much_again(const struct split *s, unsigned k)
{
    size_t again = 0;
    for (unsigned j = k + 1; j < s->n; j++)
        again += s->p[j].lo;
    return again > READ_AGAIN_MAX * s->whole->len;
}

/* One thread: the parts run in order, and what the scan would find in the
 * whole text beforehand (a few percent of the time) is learned from the
 * parts themselves.  A part reads from the start once a part before it
 * has a definition among its forms (what expand_form learns from: the
 * scan finds the names anywhere, a false alarm costs only speed), and
 * the text is run in one piece when, all parts read, one of the symbols
 * read could be a temporary's name (as it is when the scan finds the
 * prefix: the same symbols, fewer false alarms). */
static void work_in_order(struct worker *wk)
{
    struct split *s = wk->s;
    if (!worker_start(wk)) {
        wk->oom = true;
        return;
    }
    s->splittable = splittable_quick(s->whole);
    bool defs = false;
    for (unsigned k = 0; s->splittable && k < s->n && !atomic_load(&s->stop); k++) {
        s->p[k].read_lo = defs ? 0 : s->p[k].lo;
        part_compute(wk, k);
        if (!defs && s->p[k].defines && too_much_again(s, k))
            s->splittable = false;
        defs = defs || s->p[k].defines;
    }
    if (s->splittable && !atomic_load(&s->stop) &&
        prefixed_symbol(wk->L, run_gensym_prefix(s->whole)))
        s->splittable = false;
}

static void *worker(void *arg)
{
    work(arg, false);
    return NULL;
}

/* Add part p to r: its output after r's (unless it is there already),
 * its diagnostics, counters. */
static void merge(struct run *r, const struct part *p, bool joined)
{
    if (!joined)
        buf_put(&r->out, p->out, p->out_len);
    for (size_t i = 0; i < p->n_diags; i++) {
        const struct diag *d = &p->diags[i];
        diag_add(&r->diags, d->sev, d->start, d->end, d->code, "%s", d->message)->witness =
            d->witness;
    }
    r->internal = r->internal || p->internal;
    api_requires_merge(&r->libs, &p->libs);
    r->stats.forms += p->stats.forms;
    r->stats.expanded += p->stats.expanded;
    r->stats.memo_hits += p->stats.memo_hits;
    r->stats.memo_misses += p->stats.memo_misses;
    r->stats.temporaries += p->stats.temporaries;
    r->stats.bytes_read += p->stats.bytes_read;
}

/* Start again in one piece, keeping the loaded text. */
static void run_whole(struct run *r)
{
    const struct pcx_ctx *cx = r->cx;
    const struct input *in = r->in;
    const uint8_t *text = r->text;
    size_t len = r->len;
    uint64_t bytes_in = r->stats.bytes_in;
    api_run_init(r, cx, r->a, in);
    run_set_text(r, text, len);
    r->stats.bytes_in = bytes_in;
    run_text(r);
}

/* Merge every part into r; false when memory ran out doing it. */
static bool merge_all(struct run *r, const struct split *s, bool joined)
{
    jmp_buf *outer = r->a->oom;
    jmp_buf jb;
    volatile bool merged = false;
    if (setjmp(jb) == 0) {
        arena_on_oom(r->a, &jb);
        size_t total = 0;
        for (unsigned k = 0; k < s->n; k++)
            total += s->p[k].out_len;
        if (!joined)
            buf_reserve(&r->out, total + 1); /* one block, not doubling copies */
        for (unsigned k = 0; k < s->n; k++)
            merge(r, &s->p[k], joined);
        merged = true;
    }
    arena_on_oom(r->a, outer);
    return merged;
}

/* Has every part been computed and given a clean result?  *oom: one ran
 * out of memory. */
static bool all_clean(const struct split *s, bool *oom)
{
    bool clean = true;
    for (unsigned k = 0; k < s->n; k++) {
        const struct part *p = &s->p[k];
        *oom = *oom || p->oom;
        clean = clean && p->a && !p->failed && !p->oom;
    }
    return clean;
}

/* Run the parts on `threads` threads (this one included); false when a
 * thread could not get its memory. */
static bool run_parts(struct split *s, struct worker *wk, unsigned threads)
{
    pthread_t th[SPLIT_MAX_THREADS];
    bool started[SPLIT_MAX_THREADS] = {false};
    for (unsigned t = 1; t < threads; t++) {
        wk[t].s = s;
        started[t] = pthread_create(&th[t], NULL, worker, &wk[t]) == 0;
    }
    wk[0].s = s;
    if (threads == 1)
        work_in_order(&wk[0]);
    else
        work(&wk[0], true);
    bool oom = wk[0].oom;
    for (unsigned t = 1; t < threads; t++)
        if (started[t]) {
            pthread_join(th[t], NULL);
            oom = oom || wk[t].oom;
        }
    /* a thread that never started leaves its parts to the others */
    return !oom;
}

/* One thread: its parts print into r's output one after the other, and
 * what they keep goes to r's memory.  The output is not copied again,
 * and the huge page that holds the text has room for it and the
 * thread's symbols: no other fresh memory is faulted in for them.  The
 * output is about 1.6 bytes per byte of text (pcase forms: 1.56): room
 * for that and 64 KiB is given at once, no more (the symbols come after
 * it in the same huge page); more output grows the buffer. */
static void join_output(struct run *r, struct worker *wk)
{
    wk->out = r->a;
    wk->joined = &r->out;
    buf_init_room(&r->out, r->a, r->len / 5 * 8 + 64 * 1024);
}

void api_split_run(struct run *r, unsigned threads)
{
    size_t want = r->len / PART_BYTES;
    if (want > SPLIT_MAX_PARTS)
        want = SPLIT_MAX_PARTS;
    struct part *p = arena_zalloc(r->a, want * sizeof *p);
    bool in_line = false;
    struct split s = {.whole = r, .p = p};
    s.n = cut(p, r->text, r->len, (unsigned)want, &in_line);
    /* the quick checks first: threads compute part 0 before the scan,
     * which would throw it away */
    if (s.n < 2 || !splittable_quick(r)) {
        run_text(r);
        return;
    }
    /* A part that starts in a line lays out its expansions from the
     * column the parts before it left the output at (an expansion earlier
     * in the line moves what follows): one thread prints the parts into
     * one output, in order. */
    if (in_line)
        threads = 1;
    atomic_init(&s.next, 1);
    atomic_init(&s.stop, false);
    atomic_init(&s.scan, SCAN_TODO);
    if (threads > s.n)
        threads = s.n;
    struct worker wk[SPLIT_MAX_THREADS];
    memset(wk, 0, sizeof wk);
    if (threads == 1)
        join_output(r, &wk[0]);
    bool oom = !run_parts(&s, wk, threads);
    bool clean = !oom && s.splittable && all_clean(&s, &oom);
    bool ok = !oom && (!clean || merge_all(r, &s, threads == 1));
    for (unsigned t = 0; t < threads; t++)
        worker_end(&wk[t]);
    if (!ok) {
        r->oom = true; /* api_deliver says so */
        return;
    }
    if (!s.splittable) {
        r->out.len = 0; /* what part 0 printed there, when joined */
        if (r->out.cap)
            r->out.data[0] = 0;
        run_text(r); /* as if never split */
    } else if (!clean) {
        run_whole(r);
        r->stats.parts_redone++;
    } else {
        r->stats.parts += s.n;
        r->made = true; /* every part printed its share */
        api_requires_note(r);
        run_render_diagnostics(r);
    }
}
