/* api_jobs.c - parallel runs (-j).
 *
 * jobs_run: workers compute inputs (each run in its own arena; the
 * context is only read) while the calling thread commits them strictly in
 * input order, so output, targets and diagnostics are those of -j 1.  At
 * most WINDOW_PER_JOB * jobs computed runs wait to be committed, each cut
 * down to its output and messages (api_slim), and workers take no new
 * input while those hold more than HOLD_BYTES (one is always taken:
 * the next to commit is being computed or waits).
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
#define HOLD_BYTES ((size_t)64 << 20)

/* ---- parallel runs ---- */

struct slot {
    struct arena *a; /* the run's arena (NULL until computed) */
    size_t held;     /* its bytes while it waits */
    struct run *r;   /* the computed run (NULL: out of memory, or inline) */
    bool done;       /* computed (or left to the committing thread) */
};

/* The threads wake each other only when the other waits for just that:
 * a worker the committing thread when the slot it waits for is done, the
 * committing thread the workers when one waits for room.  Waking a
 * thread at every slot, with the mutex held, made it block at once on
 * the mutex, and writing files (-j 2 --out-dir: nothing to print, so the
 * committing thread was always waiting) spent a quarter of its switches
 * in that. */
struct pool {
    pthread_mutex_t mu;
    pthread_cond_t work;  /* a slot may be taken */
    pthread_cond_t ready; /* the slot the committing thread waits for is done */
    const struct pcx_ctx *cx;
    const struct input *ins;
    struct slot *slots;
    size_t n;
    size_t next;          /* next input to take */
    size_t committed;     /* inputs committed so far */
    size_t window;        /* inputs taken but not committed, at most */
    size_t held;          /* bytes of the computed runs not committed */
    size_t held_max;      /* ... at most */
    size_t waiting;       /* the slot the committing thread waits for
                             (SIZE_MAX: none) */
    size_t sleepers;      /* workers waiting for room */
};

/* Take the next input, waiting while the window is full; false at the end. */
static bool take(struct pool *p, size_t *i)
{
    pthread_mutex_lock(&p->mu);
    while (p->next < p->n &&
           (p->next >= p->committed + p->window || p->held > HOLD_BYTES)) {
        p->sleepers++;
        pthread_cond_wait(&p->work, &p->mu);
        p->sleepers--;
    }
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
        if (!api_inline(p->cx, &p->ins[i])) {
            s->r = api_compute(p->cx, &p->ins[i], &s->a);
            s->r = api_slim(s->r, &s->a);
        }
        pthread_mutex_lock(&p->mu);
        s->held = s->a ? s->a->total : 0;
        p->held += s->held;
        p->held_max = p->held > p->held_max ? p->held : p->held_max;
        s->done = true;
        bool wake = p->waiting == i;
        pthread_mutex_unlock(&p->mu);
        if (wake)
            pthread_cond_signal(&p->ready);
    }
    return NULL;
}

/* Commit slot i when it is done; inline inputs run here. */
static enum pcx_status commit_slot(struct pcx_ctx *cx, struct pool *p, size_t i)
{
    struct slot *s = &p->slots[i];
    pthread_mutex_lock(&p->mu);
    p->waiting = i;
    while (!s->done)
        pthread_cond_wait(&p->ready, &p->mu);
    p->waiting = SIZE_MAX;
    pthread_mutex_unlock(&p->mu);
    enum pcx_status st = api_inline(cx, &p->ins[i])
                             ? api_run_one(cx, &p->ins[i])
                             : api_deliver(cx, &p->ins[i], s->r);
    arena_free(s->a);
    s->a = NULL;
    pthread_mutex_lock(&p->mu);
    p->held -= s->held;
    p->committed++;
    bool wake = p->sleepers > 0;
    pthread_mutex_unlock(&p->mu);
    if (wake)
        pthread_cond_broadcast(&p->work);
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
                     WINDOW_PER_JOB * jobs, 0, 0, SIZE_MAX, 0};
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
    if (p.held_max > cx->stats.held_max)
        cx->stats.held_max = p.held_max;
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
