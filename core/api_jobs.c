/* api_jobs.c - parallel runs (-j) and streamed standard input.
 *
 * jobs_run: workers compute inputs (each run in its own arena; the
 * context is only read) while the calling thread commits them strictly in
 * input order, so output, targets and diagnostics are those of -j 1.  At
 * most WINDOW_PER_JOB * jobs computed runs wait to be committed.
 * stream_run: standard input read as it arrives; every complete stretch
 * of top-level forms (cut at a line end) is run and printed at once, so an
 * editor can keep one process and read each answer before sending more.
 */
#include "api_int.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/file.h"

#define WINDOW_PER_JOB 4

/* ---- parallel runs ---- */

struct slot {
    struct arena *a; /* the run's arena (NULL until computed) */
    struct run *r;   /* the computed run (NULL: out of memory, or inline) */
    bool done;       /* computed (or left to the committing thread) */
};

struct pool {
    pthread_mutex_t mu;
    pthread_cond_t work;  /* a slot may be taken */
    pthread_cond_t ready; /* a slot is done */
    const struct pcx_ctx *cx;
    const struct input *ins;
    struct slot *slots;
    size_t n;
    size_t next;          /* next input to take */
    size_t committed;     /* inputs committed so far */
    size_t window;        /* inputs taken but not committed, at most */
};

/* Take the next input, waiting while the window is full; false at the end. */
static bool take(struct pool *p, size_t *i)
{
    pthread_mutex_lock(&p->mu);
    while (p->next < p->n && p->next >= p->committed + p->window)
        pthread_cond_wait(&p->work, &p->mu);
    bool more = p->next < p->n;
    if (more)
        *i = p->next++;
    pthread_mutex_unlock(&p->mu);
    return more;
}

static void *worker(void *arg)
{
    struct pool *p = arg;
    size_t i;
    while (take(p, &i)) {
        struct slot *s = &p->slots[i];
        if (!api_inline(p->cx, &p->ins[i]))
            s->r = api_compute(p->cx, &p->ins[i], &s->a);
        pthread_mutex_lock(&p->mu);
        s->done = true;
        pthread_cond_broadcast(&p->ready);
        pthread_mutex_unlock(&p->mu);
    }
    return NULL;
}

/* Commit slot i when it is done; inline inputs run here. */
static enum pcx_status commit_slot(struct pcx_ctx *cx, struct pool *p, size_t i)
{
    struct slot *s = &p->slots[i];
    pthread_mutex_lock(&p->mu);
    while (!s->done)
        pthread_cond_wait(&p->ready, &p->mu);
    pthread_mutex_unlock(&p->mu);
    enum pcx_status st = api_inline(cx, &p->ins[i])
                             ? api_run_one(cx, &p->ins[i])
                             : api_deliver(cx, &p->ins[i], s->r);
    arena_free(s->a);
    s->a = NULL;
    pthread_mutex_lock(&p->mu);
    p->committed++;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    return st;
}

static enum pcx_status sequential(struct pcx_ctx *cx, const struct input *ins,
                                  size_t n)
{
    enum pcx_status st = PCX_STATUS_OK;
    for (size_t i = 0; i < n && !cx->out_failed; i++) {
        enum pcx_status s = api_run_one(cx, &ins[i]);
        st = s > st ? s : st;
    }
    return st;
}

/* No input is taken any more: the workers end once their runs are done. */
static void stop(struct pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->next = p->n;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
}

/* Start up to want workers; returns how many started. */
static size_t start_workers(struct pool *p, pthread_t *th, size_t want)
{
    size_t k = 0;
    while (k < want && pthread_create(&th[k], NULL, worker, p) == 0)
        k++;
    return k;
}

static enum pcx_status parallel(struct pcx_ctx *cx, const struct input *ins,
                                size_t n, size_t jobs, struct slot *slots,
                                pthread_t *th)
{
    struct pool p = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                     PTHREAD_COND_INITIALIZER, cx, ins, slots, n, 0, 0,
                     WINDOW_PER_JOB * jobs};
    size_t started = start_workers(&p, th, jobs);
    if (started == 0)
        return sequential(cx, ins, n);
    enum pcx_status st = PCX_STATUS_OK;
    size_t i = 0;
    for (; i < n && !cx->out_failed; i++) {
        enum pcx_status s = commit_slot(cx, &p, i);
        st = s > st ? s : st;
    }
    stop(&p);
    for (size_t k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    for (; i < n; i++) /* computed, but the output failed before their turn */
        arena_free(slots[i].a);
    return st;
}

enum pcx_status jobs_run(struct pcx_ctx *cx, struct input *ins, size_t n)
{
    size_t jobs = cx->o.jobs ? cx->o.jobs : 1;
    if (n == 1 && jobs > 1) /* the threads share the only input (api_split.c) */
        ins[0].threads = jobs > 64 ? 64 : (unsigned)jobs;
    if (jobs > n)
        jobs = n;
    if (jobs <= 1)
        return sequential(cx, ins, n);
    struct slot *slots = calloc(n, sizeof *slots);
    pthread_t *th = calloc(jobs, sizeof *th);
    enum pcx_status st = slots && th ? parallel(cx, ins, n, jobs, slots, th)
                                     : sequential(cx, ins, n);
    free(slots);
    free(th);
    return st;
}

/* ---- streamed standard input ---- */

#define READ_BLOCK (64 * 1024)

struct stream {
    struct pcx_ctx *cx;
    const struct input *in;
    struct run *r;          /* one run for all parts (arena a) */
    struct arena *a;
    struct arena *scratch;  /* trial reads, released after each */
    int fd;
    uint8_t *buf;           /* everything read so far */
    size_t len, cap;
    size_t done;            /* start of the text not yet run */
    bool eof;
    bool new_break;         /* the last read brought a line end */
    bool ran;               /* a part has been run */
    enum pcx_status st;
};

/* Read what is available; false on a read error (reported). */
static bool read_more(struct stream *s)
{
    if (s->cap - s->len < READ_BLOCK) {
        size_t cap = s->cap * 2 > s->len + READ_BLOCK ? s->cap * 2
                                                      : s->len + READ_BLOCK;
        s->buf = arena_grow(s->a, s->buf, s->cap, cap + 1);
        s->cap = cap;
    }
    ssize_t got;
    do
        got = read(s->fd, s->buf + s->len, s->cap - s->len);
    while (got < 0 && errno == EINTR);
    if (got < 0 || s->len + (size_t)got > FILE_MAX_SIZE) {
        char msg[128];
        snprintf(msg, sizeof msg, "cannot read: %s",
                 strerror(got < 0 ? errno : EFBIG));
        s->st = api_say(s->cx, s->in->name, DIAG_ERROR, "io", msg);
        return false;
    }
    s->new_break = memchr(s->buf + s->len, '\n', (size_t)got) != NULL;
    s->len += (size_t)got;
    s->eof = got == 0;
    return true;
}

/* Where the incomplete form after the complete ones starts: past the
 * whitespace and comments that follow offset lo. */
static size_t trivia_end(const uint8_t *t, size_t len, size_t lo)
{
    while (lo < len) {
        if (t[lo] == ';') {
            const uint8_t *nl = memchr(t + lo, '\n', len - lo);
            lo = nl ? (size_t)(nl - t) + 1 : len;
        } else if (t[lo] <= ' ') {
            lo++;
        } else {
            break;
        }
    }
    return lo;
}

/* The last line end in t[lo, hi), as an offset just after it, or 0. */
static size_t last_break(const uint8_t *t, size_t lo, size_t hi)
{
    while (hi > lo)
        if (t[--hi] == '\n')
            return hi + 1;
    return 0;
}

/* A trial read of t[0, len) that stopped at the end of the text: the
 * longest prefix that is complete forms and whole lines (a cut at a line
 * end in the trivia between forms), or 0. */
static size_t complete_prefix(const uint8_t *t, size_t len,
                              const struct read_result *rd)
{
    size_t n = rd->n_forms;
    size_t lo = n ? rd->forms[n - 1].span.end : 0;
    size_t hi = trivia_end(t, len, lo);
    for (;;) {
        size_t cut = last_break(t, lo, hi);
        if (cut || n == 0)
            return cut;
        n--;
        hi = rd->forms[n].span.start;
        lo = n ? rd->forms[n - 1].span.end : 0;
    }
}

/* How much of the unrun text [done, end) (end after a line end) to run
 * now: all of it when it reads completely, or when it has an error that
 * more text cannot mend; else its complete prefix. */
static size_t ready_part(struct stream *s, size_t end)
{
    if (s->eof)
        return end;
    struct arena_mark m = arena_mark(s->scratch);
    struct read_result rd;
    const uint8_t *t = s->buf + s->done;
    bool ok = read_source_opts(intern_new(s->scratch), t, end - s->done,
                               READ_NO_ORIGIN, &rd);
    size_t cut = end - s->done;
    if (!ok && strcmp(rd.err.symbol, "end-of-file") == 0)
        cut = complete_prefix(t, end - s->done, &rd);
    arena_release(s->scratch, m);
    return s->done + cut;
}

/* Run and commit the part [s->done, cut), then flush the sinks. */
static void run_part(struct stream *s, size_t cut)
{
    struct run *r = s->r;
    r->text = (const uint8_t *)arena_strndup(s->a, (const char *)s->buf + s->done,
                                             cut - s->done);
    r->len = cut - s->done;
    r->base = (uint32_t)s->done;
    source_init(&r->src, s->a, s->in->name, s->buf, cut);
    diag_init(&r->diags, s->a);
    buf_init(&r->out, s->a);
    buf_init(&r->msgs, s->a);
    memset(&r->stats, 0, sizeof r->stats);
    memset(&r->rd, 0, sizeof r->rd);
    r->stats.files = !s->ran;
    r->stats.bytes_in = r->len;
    r->n_sites = 0;
    r->internal = false;
    run_text(r);
    enum pcx_status st = api_commit(s->cx, r);
    enum pcx_status flushed = api_out_flush(s->cx);
    st = flushed > st ? flushed : st;
    s->st = st > s->st ? st : s->st;
    s->done = cut;
    s->ran = true;
    if (s->cx->o.diag.file)
        fflush(s->cx->o.diag.file);
}

/* Read and run until the end of the input, or until the output fails
 * (a closed pipe: nothing more can reach the reader). */
static void stream_loop(struct stream *s)
{
    s->r = ARENA_NEW(s->a, struct run);
    api_run_init(s->r, s->cx, s->a, s->in);
    while (!s->eof && !s->cx->out_failed) {
        if (!read_more(s))
            return;
        if (!s->eof && !s->new_break)
            continue;
        size_t end = s->eof ? s->len : last_break(s->buf, s->done, s->len);
        size_t cut = end > s->done ? ready_part(s, end) : s->done;
        if (cut > s->done || (s->eof && !s->ran))
            run_part(s, cut);
    }
}

enum pcx_status stream_run(struct pcx_ctx *cx, const struct input *in)
{
    struct stream s = {cx, in, NULL, arena_new(NULL), arena_new(NULL),
                       fileno(in->stream), NULL, 0, 0, 0, false, false,
                       false, PCX_STATUS_OK};
    enum pcx_status st;
    jmp_buf jb;
    if (!s.a || !s.scratch) {
        st = api_say(cx, in->name, DIAG_ERROR, "resource", "out of memory");
    } else if (setjmp(jb) == 0) {
        s.a->limit = cx->o.memory_limit;
        s.scratch->limit = cx->o.memory_limit;
        arena_on_oom(s.a, &jb);
        arena_on_oom(s.scratch, &jb);
        stream_loop(&s);
        st = s.st;
    } else {
        st = api_say(cx, in->name, DIAG_ERROR, "resource", "out of memory");
    }
    arena_free(s.a);
    arena_free(s.scratch);
    cx->status = st > cx->status ? st : cx->status;
    return st;
}
