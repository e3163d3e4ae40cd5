/* api_split.c - one large input computed in parts by several threads
 * (-j N when the input is the only one).
 *
 * Every part is an ordinary run of the whole text: it reads all of it (so
 * positions, and the input's symbols that temporaries must not be named
 * after, are those of the file), learns the definitions made by the
 * top-level forms before its share, and expands and prints only its share
 * (struct run's lo/hi, api_run.c).  The parts' outputs are joined in order
 * and their diagnostics and counters merged into the first part's run,
 * which is then delivered as the run of the whole input: what is printed,
 * said and written is what a run in one piece gives.  A part whose output
 * cannot be cut out cleanly (api_run.c checks the text around it) makes
 * the input run again in one piece.
 */
#include "api_int.h"

#include <pthread.h>
#include <setjmp.h>
#include <string.h>

/* Smaller inputs are run in one piece; a part gets at least this much. */
#define SPLIT_MIN_BYTES (64 * 1024)
#define SPLIT_MAX_PARTS 16

unsigned api_split_parts(const struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    size_t n = r->in->parts;
    if (n < 2 || o->no_expand || o->dump || o->format != PCX_FORMAT_LISP ||
        o->at_line || r->select_nth >= 0 || r->select_defun)
        return 1;
    if (n > r->len / SPLIT_MIN_BYTES)
        n = r->len / SPLIT_MIN_BYTES;
    if (n > SPLIT_MAX_PARTS)
        n = SPLIT_MAX_PARTS;
    return n < 2 ? 1 : (unsigned)n;
}

/* A part after the first, computed in its own arena. */
struct part {
    const struct run *whole; /* the loaded input: read only while parts run */
    unsigned k, n;
    struct arena *a;
    struct run *r;           /* NULL: memory ran out */
    pthread_t th;
    bool started;            /* th runs it (else the calling thread does) */
};

static void part_compute(struct part *p)
{
    const struct run *w = p->whole;
    p->a = arena_new(NULL);
    if (!p->a)
        return;
    p->a->limit = w->cx->o.memory_limit;
    struct run *volatile r = NULL;
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(p->a, &jb);
        struct run *q = ARENA_NEW(p->a, struct run);
        api_run_init(q, w->cx, p->a, w->in);
        run_set_text(q, w->text, w->len);
        q->part = p->k;
        q->parts = p->n;
        run_stages(q);
        r = q;
    }
    arena_on_oom(p->a, NULL);
    p->r = r;
}

static void *part_main(void *arg)
{
    part_compute(arg);
    return NULL;
}

/* Add part q's share to r: its output after r's, the diagnostics it
 * recorded after reading, its expansion counters. */
static void merge(struct run *r, const struct run *q)
{
    buf_put(&r->out, q->out.data, q->out.len);
    for (size_t i = q->diag_mark; q->diag_mark != SIZE_MAX && i < q->diags.n; i++) {
        const struct diag *d = &q->diags.items[i];
        diag_add(&r->diags, d->sev, d->start, d->end, d->code, "%s", d->message);
    }
    r->internal = r->internal || q->internal;
    r->split_failed = r->split_failed || q->split_failed;
    r->stats.expanded += q->stats.expanded;
    r->stats.memo_hits += q->stats.memo_hits;
    r->stats.memo_misses += q->stats.memo_misses;
    r->stats.temporaries += q->stats.temporaries;
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

/* Part 0 runs here, in r; out of memory in it is caught here, so that the
 * other parts (which read r's text) are joined before the arena goes. */
static bool first_part(struct run *r)
{
    jmp_buf *outer = r->a->oom;
    jmp_buf jb;
    volatile bool ok = false;
    if (setjmp(jb) == 0) {
        arena_on_oom(r->a, &jb);
        run_stages(r);
        ok = true;
    }
    arena_on_oom(r->a, outer);
    return ok;
}

/* Merge parts 1..n-1 into r; false when one of them or the merge ran out
 * of memory. */
static bool merge_all(struct run *r, const struct part *parts, unsigned n)
{
    for (unsigned k = 1; k < n; k++)
        if (!parts[k].r)
            return false;
    jmp_buf *outer = r->a->oom;
    jmp_buf jb;
    volatile bool merged = false;
    if (setjmp(jb) == 0) {
        arena_on_oom(r->a, &jb);
        for (unsigned k = 1; k < n; k++)
            merge(r, parts[k].r);
        merged = true;
    }
    arena_on_oom(r->a, outer);
    return merged;
}

void api_split_run(struct run *r, unsigned n)
{
    struct part parts[SPLIT_MAX_PARTS];
    for (unsigned k = 1; k < n; k++) {
        parts[k] = (struct part){.whole = r, .k = k, .n = n};
        parts[k].started = pthread_create(&parts[k].th, NULL, part_main, &parts[k]) == 0;
    }
    r->part = 0;
    r->parts = n;
    bool ok = first_part(r);
    for (unsigned k = 1; k < n; k++) {
        if (parts[k].started)
            pthread_join(parts[k].th, NULL);
        else if (ok)
            part_compute(&parts[k]);
    }
    ok = ok && merge_all(r, parts, n);
    for (unsigned k = 1; k < n; k++)
        arena_free(parts[k].a);
    if (!ok) {
        r->oom = true; /* api_deliver says so */
        return;
    }
    if (r->split_failed)
        run_whole(r);
    else
        run_render_diagnostics(r);
}
