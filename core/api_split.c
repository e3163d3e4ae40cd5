/* api_split.c - one large input computed in parts by several threads
 * (-j N when the input is the only one).
 *
 * The text is cut at lines that begin with "(", where top-level forms
 * start, into more parts than threads: a thread that finishes early
 * takes the next part, so uneven parts still keep every thread busy.
 * Each part is an ordinary run whose text ends at the next cut.  It reads
 * only its own stretch when nothing before it matters: no definition of
 * a pattern macro or structure lies before it (else it reads from the
 * start and learns those), and no symbol of the input could be a
 * temporary's name (else the input is run in one piece).  It expands and
 * prints its share of forms; what it gives is kept and its arena freed at
 * once, so the threads reuse the same memory.
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
#include <setjmp.h>
#include <stdatomic.h>
#include <string.h>

#include "syntax/read.h"

/* Inputs up to twice this are run in one piece. */
#define SPLIT_MIN_BYTES (64 * 1024)
#define SPLIT_MAX_THREADS 16
/* Parts per thread, each at least PART_MIN_BYTES: enough for uneven parts
 * to even out, few enough that each part's setup does not count. */
#define PARTS_PER_THREAD 8
#define PART_MIN_BYTES (32 * 1024)
#define SPLIT_MAX_PARTS (SPLIT_MAX_THREADS * PARTS_PER_THREAD)
/* A part's arena starts with one page this large: a fresh thread's pages
 * are faulted in, and huge pages take one fault per 2 MiB. */
#define PART_FIRST_PAGE ((size_t)4 * 1024 * 1024)

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

/* Where name first occurs in text[lo, hi) as a symbol may write it,
 * with a backslash before any of its characters (hi: nowhere).  Inside
 * strings and comments too: a false alarm only costs speed.  The plain
 * spelling is found by memmem; one with backslashes starts less than 2n
 * bytes before one of them, so only the text near a backslash is tried
 * character by character (names begin with common letters: trying at
 * each of those was most of a split's set-up). */
static size_t find_name(const uint8_t *text, size_t lo, size_t hi, const char *name)
{
    size_t n = strlen(name);
    if (!n || lo >= hi)
        return hi;
    const uint8_t *m = memmem(text + lo, hi - lo, name, n);
    size_t best = m ? (size_t)(m - text) : hi;
    size_t b = lo;
    const uint8_t *p;
    while (b < best && (p = memchr(text + b, '\\', best - b))) {
        b = (size_t)(p - text);
        for (size_t at = b > lo + 2 * n ? b - 2 * n : lo; at < b && at < best; at++)
            if (text[at] == (uint8_t)name[0] && name_at(text, at, hi, name, n))
                best = at;
        b++;
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
    return a < b ? a : b;
}

/* May r's text be computed in parts at all?  Not when a symbol of the
 * text could be a temporary's name (a part knows only the symbols it
 * reads), nor with `#@N` (which skips bytes past a cut), nor when the
 * text declares a coding system the run refuses. */
static bool splittable(const struct run *r)
{
    const char *prefix = run_gensym_prefix(r);
    struct span name;
    return *prefix && find_name(r->text, 0, r->len, prefix) == r->len &&
           find_pair(r->text, 0, r->len, '#', '@') == r->len &&
           read_check_coding(r->text, r->len, &name);
}

unsigned api_split_parts(const struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    size_t n = r->in->parts;
    if (n < 2 || o->no_expand || o->dump || o->format != PCX_FORMAT_LISP ||
        o->at_line || r->select_nth >= 0 || r->select_defun)
        return 1;
    if (n > r->len / SPLIT_MIN_BYTES)
        n = r->len / SPLIT_MIN_BYTES;
    if (n > SPLIT_MAX_THREADS)
        n = SPLIT_MAX_THREADS;
    return n < 2 || !splittable(r) ? 1 : (unsigned)n;
}

/* One part: its stretch of text and, once computed, what it gives. */
struct part {
    size_t lo, hi;            /* its share: bytes [lo, hi) */
    size_t read_lo;           /* where its reading starts */
    struct arena *a;          /* what it gives (its run's arena is gone) */
    const char *out;
    size_t out_len;
    struct diag *diags;       /* said while expanding its share */
    size_t n_diags;
    struct pcx_stats stats;
    bool internal, failed, oom;
};

struct split {
    const struct run *whole;  /* the loaded input: read only while parts run */
    struct part *p;
    unsigned n;
    atomic_uint next;         /* the next part to take */
    atomic_bool stop;         /* a part failed: the rest is wasted work */
};

/* Cut text into at most n parts of about equal size, each starting at a
 * line that begins with "(" (the first at 0).  Returns how many. */
static unsigned cut(struct part *p, const uint8_t *text, size_t len, unsigned n)
{
    unsigned k = 0;
    p[0].lo = 0;
    for (unsigned i = 1; i < n; i++) {
        size_t from = len / n * i;
        if (from <= p[k].lo)
            from = p[k].lo + 1;
        size_t at = from < len ? find_pair(text, from - 1, len, '\n', '(') : len;
        if (at == len)
            break;
        p[k].hi = at + 1;
        p[k + 1].lo = p[k].hi;
        k++;
    }
    p[k].hi = len;
    return k + 1;
}

/* Copy what merge needs of part run q into p->a (where q's output
 * already is). */
static void keep(struct part *p, const struct run *q)
{
    struct arena *a = p->a;
    p->out = q->out.data;
    p->out_len = q->out.len;
    size_t from = q->diag_mark == SIZE_MAX ? q->diags.n : q->diag_mark;
    p->n_diags = q->diags.n - from;
    p->diags = ARENA_NEWN(a, struct diag, p->n_diags + 1);
    for (size_t i = 0; i < p->n_diags; i++) {
        p->diags[i] = q->diags.items[from + i];
        const char *m = p->diags[i].message;
        p->diags[i].message = arena_strndup(a, m, strlen(m));
    }
    p->stats = q->stats;
    p->stats.forms = q->rd.n_forms - q->lo;
    p->internal = q->internal;
    p->failed = q->split_failed;
}

static void part_compute(struct split *s, unsigned k)
{
    const struct run *w = s->whole;
    struct part *p = &s->p[k];
    struct arena *a = arena_new(NULL);
    p->a = arena_new(NULL);
    if (!a || !p->a) {
        arena_free(a);
        p->oom = true;
        return;
    }
    a->limit = w->cx->o.memory_limit;
    a->next_page = PART_FIRST_PAGE;
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        arena_on_oom(p->a, &jb);
        struct run *q = ARENA_NEW(a, struct run);
        api_run_init(q, w->cx, a, w->in);
        buf_init(&q->out, p->a); /* kept when a goes */
        run_set_text(q, w->text, p->hi);
        q->parts = s->n;
        q->read_lo = p->read_lo;
        q->share_lo = p->lo;
        run_stages(q);
        keep(p, q);
    } else {
        p->oom = true;
    }
    arena_on_oom(p->a, NULL);
    arena_free(a);
    if (p->oom || p->failed)
        atomic_store(&s->stop, true);
}

static void *worker(void *arg)
{
    struct split *s = arg;
    unsigned k;
    while (!atomic_load(&s->stop) && (k = atomic_fetch_add(&s->next, 1)) < s->n)
        part_compute(s, k);
    return NULL;
}

/* Add part p to r: its output after r's, its diagnostics, counters. */
static void merge(struct run *r, const struct part *p)
{
    buf_put(&r->out, p->out, p->out_len);
    for (size_t i = 0; i < p->n_diags; i++) {
        const struct diag *d = &p->diags[i];
        diag_add(&r->diags, d->sev, d->start, d->end, d->code, "%s", d->message);
    }
    r->internal = r->internal || p->internal;
    r->stats.forms += p->stats.forms;
    r->stats.expanded += p->stats.expanded;
    r->stats.memo_hits += p->stats.memo_hits;
    r->stats.memo_misses += p->stats.memo_misses;
    r->stats.temporaries += p->stats.temporaries;
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
static bool merge_all(struct run *r, const struct split *s)
{
    jmp_buf *outer = r->a->oom;
    jmp_buf jb;
    volatile bool merged = false;
    if (setjmp(jb) == 0) {
        arena_on_oom(r->a, &jb);
        size_t total = 0;
        for (unsigned k = 0; k < s->n; k++)
            total += s->p[k].out_len;
        buf_reserve(&r->out, total + 1); /* one block, not doubling copies */
        for (unsigned k = 0; k < s->n; k++)
            merge(r, &s->p[k]);
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

void api_split_run(struct run *r, unsigned threads)
{
    struct part p[SPLIT_MAX_PARTS];
    memset(p, 0, sizeof p);
    unsigned want = threads * PARTS_PER_THREAD;
    if (want > r->len / PART_MIN_BYTES)
        want = (unsigned)(r->len / PART_MIN_BYTES);
    struct split s = {.whole = r, .p = p, .n = cut(p, r->text, r->len, want)};
    if (s.n < 2) {
        run_text(r);
        return;
    }
    size_t def = first_definition(r->text, r->len);
    for (unsigned k = 0; k < s.n; k++)
        p[k].read_lo = def < p[k].lo ? 0 : p[k].lo;
    atomic_init(&s.next, 0);
    atomic_init(&s.stop, false);
    pthread_t th[SPLIT_MAX_THREADS];
    bool started[SPLIT_MAX_THREADS] = {false};
    for (unsigned t = 1; t < threads && t < s.n; t++)
        started[t] = pthread_create(&th[t], NULL, worker, &s) == 0;
    worker(&s);
    for (unsigned t = 1; t < threads && t < s.n; t++)
        if (started[t])
            pthread_join(th[t], NULL);
    bool oom = false, clean = all_clean(&s, &oom);
    bool ok = !oom && (!clean || merge_all(r, &s));
    for (unsigned k = 0; k < s.n; k++)
        arena_free(p[k].a);
    if (!ok) {
        r->oom = true; /* api_deliver says so */
        return;
    }
    if (!clean) {
        run_whole(r);
        r->stats.parts_redone++;
    } else {
        r->stats.parts += s.n;
        run_render_diagnostics(r);
    }
}
