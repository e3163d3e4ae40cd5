/* api.c - implements pcx.h: the context, the entry points, the order of
 * results.
 *
 * Each input is one run with its own arena: computed (api_run.c; in a
 * worker with -j) and then committed here, in input order: counters,
 * diagnostics, then the result to the output sink or the target.  The
 * library's setjmps are all in this layer: compute() turns out of memory
 * anywhere in a run into a diagnostic, reserve_page() guards the page the
 * context keeps for saying so (and stream_run guards a streamed input).
 */
#include "api_int.h"

#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/file.h"
#include "match/clean.h"

const char *pcx_version(void) { return PCX_VERSION; }

int pcx_clean_pass(const char *name, size_t len) { return clean_pass_find(name, len); }

const char *pcx_clean_pass_name(int n)
{
    return n >= 0 && n < CLEAN_PASS_COUNT ? clean_pass_name((enum clean_pass)n) : NULL;
}

uint64_t api_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- context ---- */

/* Give a the page that later allocations use; false when out of memory. */
static bool reserve_page(struct arena *a)
{
    jmp_buf jb;
    if (setjmp(jb) != 0) {
        arena_on_oom(a, NULL);
        return false;
    }
    arena_on_oom(a, &jb);
    arena_alloc(a, 1);
    arena_on_oom(a, NULL);
    return true;
}

/* Sinks and report options from the options as given. */
static void resolve_options(struct pcx_ctx *cx)
{
    if (!cx->o.out.write && !cx->o.out.file)
        cx->o.out.file = stdout;
    if (!cx->o.diag.write && !cx->o.diag.file)
        cx->o.diag.file = stderr;
    static const enum report_format formats[] = {
        [PCX_MESSAGE_GNU] = REPORT_GNU,
        [PCX_MESSAGE_JSON] = REPORT_JSON,
        [PCX_MESSAGE_GITHUB] = REPORT_GITHUB,
    };
    cx->rep.format = (unsigned)cx->o.message_format < 3
                         ? formats[cx->o.message_format] : REPORT_GNU;
    cx->rep.werror = cx->o.werror;
    cx->rep.quiet = cx->o.quiet;
}

struct pcx_ctx *pcx_ctx_new(const struct pcx_options *o)
{
    struct pcx_ctx *cx = calloc(1, sizeof *cx);
    if (!cx)
        return NULL;
    /* Reserve the page now, so that reporting "out of memory" later
     * needs no new memory. */
    cx->talk = arena_new(NULL);
    if (!cx->talk || !reserve_page(cx->talk)) {
        arena_free(cx->talk);
        free(cx);
        return NULL;
    }
    cx->empty = arena_mark(cx->talk);
    if (o)
        cx->o = *o;
    resolve_options(cx);
    cx->start_ns = api_now();
    cx->lib = api_library_new();
    if (!cx->lib || !api_config_init(cx)) {
        pcx_ctx_free(cx);
        return NULL;
    }
    return cx;
}

void pcx_ctx_free(struct pcx_ctx *cx)
{
    if (!cx)
        return;
    arena_free(cx->cfg_arena);
    api_library_free(cx->lib);
    arena_free(cx->talk);
    free(cx);
}

void pcx_ctx_stats(const struct pcx_ctx *cx, struct pcx_stats *out)
{
    *out = cx->stats;
}

static enum pcx_status worst(enum pcx_status x, enum pcx_status y)
{
    return x > y ? x : y;
}

bool api_sink_write(const struct pcx_sink *s, const void *p, size_t n)
{
    if (n == 0)
        return true;
    errno = 0; /* a callback that fails need not set it */
    if (s->write)
        return s->write(s->ctx, p, n);
    return fwrite(p, 1, n, s->file) == n;
}

/* The first failure of the output sink, whose errno was err (0: none
 * known): say it once; the run stops. */
static enum pcx_status out_failure(struct pcx_ctx *cx, int err)
{
    if (cx->out_failed)
        return PCX_STATUS_ERROR;
    cx->out_failed = true;
    char msg[160] = "cannot write the output";
    if (err)
        snprintf(msg, sizeof msg, "cannot write the output: %s", strerror(err));
    return api_say(cx, NULL, DIAG_ERROR, "io", msg);
}

enum pcx_status api_out(struct pcx_ctx *cx, const void *p, size_t n)
{
    if (cx->out_failed)
        return PCX_STATUS_ERROR;
    return api_sink_write(&cx->o.out, p, n) ? PCX_STATUS_OK
                                             : out_failure(cx, errno);
}

enum pcx_status api_out_flush(struct pcx_ctx *cx)
{
    FILE *f = cx->o.out.write ? NULL : cx->o.out.file;
    if (cx->out_failed)
        return PCX_STATUS_ERROR;
    if (!f)
        return PCX_STATUS_OK;
    if (fflush(f) != 0)
        return out_failure(cx, errno);
    /* an earlier write's failure, not said by api_out (its writer said it) */
    return ferror(f) ? out_failure(cx, 0) : PCX_STATUS_OK;
}

/* Uses the context's reserved page, not a run's arena (which may be gone
 * or full). */
enum pcx_status api_say(struct pcx_ctx *cx, const char *name,
                        enum diag_severity sev, const char *code,
                        const char *msg)
{
    struct buf b;
    buf_init(&b, cx->talk);
    if (name)
        report_plain(&b, name, sev, code, msg, &cx->rep);
    else
        report_tool(&b, sev, msg, &cx->rep);
    api_sink_write(&cx->o.diag, b.data, b.len);
    arena_release(cx->talk, cx->empty);
    if (sev != DIAG_ERROR)
        return PCX_STATUS_OK;
    cx->stats.errors++;
    return PCX_STATUS_ERROR;
}

/* ---- one run: compute, then commit ---- */

void api_run_init(struct run *r, const struct pcx_ctx *cx, struct arena *a,
                  const struct input *in)
{
    memset(r, 0, sizeof *r);
    r->cx = cx;
    r->a = a;
    r->in = in;
    r->at_form = -1;
    r->select_nth = -1;
    r->diag_mark = SIZE_MAX;
    r->coding = RUN_CODING_START | RUN_CODING_END;
    diag_init(&r->diags, a);
    buf_init(&r->out, a);
    buf_init(&r->msgs, a);
    buf_init(&r->report, a);
    source_init(&r->src, a, in->name, (const uint8_t *)"", 0);
    r->text = r->src.text;
    r->stats.files = 1;
}

struct run *api_compute(const struct pcx_ctx *cx, const struct input *in,
                        struct arena **ap)
{
    struct arena *a = arena_new(NULL);
    *ap = a;
    if (!a)
        return NULL;
    a->limit = cx->o.memory_limit;
    struct run *volatile r = NULL;
    uint64_t t0 = api_now();
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        struct run *fresh = ARENA_NEW(a, struct run);
        api_run_init(fresh, cx, a, in);
        r = fresh;
        run_input(fresh);
        if (run_writes(fresh))
            target_prepare(fresh);
    } else if (r) {
        r->oom = true;
    }
    arena_on_oom(a, NULL);
    if (r)
        r->ns = api_now() - t0;
    return r;
}

void api_add_stats(struct pcx_stats *to, const struct pcx_stats *s)
{
    to->files += s->files;
    to->forms += s->forms;
    to->expanded += s->expanded;
    to->errors += s->errors;
    to->warnings += s->warnings;
    to->bytes_in += s->bytes_in;
    to->bytes_out += s->bytes_out;
    to->memo_hits += s->memo_hits;
    to->memo_misses += s->memo_misses;
    to->temporaries += s->temporaries;
    to->parts += s->parts;
    to->parts_redone += s->parts_redone;
    to->bytes_read += s->bytes_read;
    to->held_max = s->held_max > to->held_max ? s->held_max : to->held_max;
}

/* -v --stats: the counters of one input. */
static void file_stats(struct pcx_ctx *cx, const struct run *r)
{
    if (!cx->o.stats || !cx->o.verbose)
        return;
    struct buf b;
    buf_init(&b, r->a);
    out_stats_line(&b, r->in->name, &r->stats, r->ns);
    api_sink_write(&cx->o.diag, b.data, b.len);
}

enum pcx_status api_commit(struct pcx_ctx *cx, struct run *r)
{
    if (run_writes(r))
        r->stats.bytes_out += r->out.len;
    r->stats.errors += r->diags.n_errors;
    r->stats.warnings += r->diags.n_warnings;
    api_add_stats(&cx->stats, &r->stats);
    api_sink_write(&cx->o.diag, r->msgs.data, r->msgs.len);
    enum pcx_status st;
    if (r->internal)
        st = PCX_STATUS_INTERNAL;
    else if (run_failed(r))
        st = worst(PCX_STATUS_ERROR,
                   run_writes(r) ? target_commit(cx, r) : PCX_STATUS_OK);
    else
        st = target_commit(cx, r);
    if (!r->stretch)
        file_stats(cx, r);
    cx->status = worst(cx->status, st);
    return st;
}

/* The whole input cannot be run for lack of memory. */
static enum pcx_status out_of_memory(struct pcx_ctx *cx, const char *name)
{
    cx->stats.files++;
    enum pcx_status st = api_say(cx, name, DIAG_ERROR, "resource",
                                 "out of memory");
    cx->status = worst(cx->status, st);
    return st;
}

/* A copy of buffer b in arena a (data only when keep_data: else its
 * length alone, which the counters read). */
static struct buf copy_buf(struct arena *a, const struct buf *b, bool keep_data)
{
    struct buf c;
    buf_init(&c, a);
    if (keep_data)
        buf_put(&c, b->data, b->len);
    else
        c.len = b->len;
    return c;
}

static const char *copy_str(struct arena *a, const char *s)
{
    return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

/* The slim copy of r in arena a: every field commit reads, the buffers
 * it prints copied, the rest (text, values, expander) left out. */
static struct run *slim_copy(struct arena *a, const struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    struct run *s = ARENA_NEW(a, struct run);
    *s = *r;
    s->a = a;
    source_init(&s->src, a, r->in->name, (const uint8_t *)"", 0);
    s->text = s->src.text;
    s->len = 0;
    diag_init(&s->diags, a);
    s->diags.n_errors = r->diags.n_errors;
    s->diags.n_warnings = r->diags.n_warnings;
    memset(&s->rd, 0, sizeof s->rd);
    memset(&s->x, 0, sizeof s->x);
    s->L = NULL;
    s->forms = NULL;
    s->sites = NULL;
    s->n_sites = s->cap_sites = 0;
    s->at_target = NULL;
    s->known = NULL;
    s->out = copy_buf(a, &r->out, o->target == PCX_TARGET_STDOUT && !o->check);
    s->msgs = copy_buf(a, &r->msgs, true);
    s->report = copy_buf(a, &r->report, true);
    s->target = copy_str(a, r->target);
    s->target_error = copy_str(a, r->target_error);
    return s;
}

/* slim_copy into a fresh arena *ap; NULL when memory is short. */
static struct run *slim_in_new_arena(const struct run *r, struct arena **ap)
{
    struct arena *a = arena_new(NULL);
    *ap = a;
    if (!a)
        return NULL;
    a->limit = r->cx->o.memory_limit;
    struct run *volatile s = NULL;
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        s = slim_copy(a, r);
    }
    arena_on_oom(a, NULL);
    return s;
}

struct run *api_slim(struct run *r, struct arena **ap)
{
    if (!r || r->oom || r->in->serial)
        return r; /* a serial input is written at its turn, from its text */
    struct arena *a;
    struct run *s = slim_in_new_arena(r, &a);
    if (!s) {
        arena_free(a);
        return r;
    }
    arena_free(*ap);
    *ap = a;
    return s;
}

enum pcx_status api_deliver(struct pcx_ctx *cx, const struct input *in,
                            struct run *r)
{
    api_config_note(cx, in);
    return r && !r->oom ? api_commit(cx, r) : out_of_memory(cx, in->name);
}

bool api_inline(const struct pcx_ctx *cx, const struct input *in)
{
    return in->error || in->cfg_failed ||
           (in->stream && fileno(in->stream) >= 0 && cx->o.stream && !cx->o.add_requires &&
            cx->o.target == PCX_TARGET_STDOUT && !cx->o.check && !cx->o.at_line);
}

/* An input that cannot run: it could not be listed, or its configuration
 * file is invalid (whose errors are said with the first input using it). */
static enum pcx_status refuse(struct pcx_ctx *cx, const struct input *in)
{
    enum pcx_status st = PCX_STATUS_ERROR;
    cx->stats.files++;
    if (in->error) {
        st = api_say(cx, in->name, DIAG_ERROR,
                     in->error_code ? in->error_code : "io", in->error);
    } else {
        cx->stats.errors++;
        api_sink_write(&cx->o.diag, in->cfg_msgs, in->cfg_msgs_len);
    }
    cx->status = worst(cx->status, st);
    return st;
}

enum pcx_status api_run_one(struct pcx_ctx *cx, const struct input *in)
{
    if (in->error || in->cfg_failed)
        return refuse(cx, in);
    if (api_inline(cx, in)) {
        api_config_note(cx, in);
        return stream_run(cx, in);
    }
    struct arena *a;
    struct run *r = api_compute(cx, in, &a);
    enum pcx_status st = api_deliver(cx, in, r);
    arena_free(a);
    return st;
}

/* ---- entry points ---- */

/* Growable list of inputs in arena a. */
struct inputs {
    struct input *items;
    size_t n, cap;
};

static struct input *add_input(struct arena *a, struct inputs *v)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        v->items = arena_grow(a, v->items, v->cap * sizeof *v->items,
                              cap * sizeof *v->items);
        v->cap = cap;
    }
    struct input *in = &v->items[v->n++];
    memset(in, 0, sizeof *in);
    return in;
}

/* The inputs of one operand: a directory's *.el files (their paths
 * relative to it kept for --out-dir; those its configuration excludes
 * left out), or the operand itself.  The --out-dir is not searched when
 * it lies inside the directory (its files are results: each run would
 * mirror the last one's a level deeper), and is refused as the
 * directory itself (its files would be rewritten in place, which only -w
 * does). */
static void list_operand(struct pcx_ctx *cx, struct arena *a, struct inputs *v,
                         const char *op)
{
    const char **paths, *err = NULL, *skipped = NULL;
    const char *out_dir = cx->o.target == PCX_TARGET_DIR ? cx->o.target_path : NULL;
    size_t n = 0;
    if (file_kind(op) != FILE_KIND_DIR) {
        struct input *in = add_input(a, v);
        in->name = in->path = op;
        api_config_input(cx, a, in);
        return;
    }
    if (out_dir && file_same(op, out_dir)) {
        struct input *in = add_input(a, v);
        in->name = op;
        in->error = "this directory is the --out-dir: its files would be "
                    "rewritten in place (only -w rewrites inputs)";
        in->error_code = "usage";
        return;
    }
    if (!file_walk_dir_except(a, op, out_dir, &paths, &n, &skipped, &err)) {
        struct input *in = add_input(a, v);
        in->name = op;
        in->error = err;
        return;
    }
    if (skipped)
        api_say(cx, skipped, DIAG_NOTE, NULL,
                "not searched for inputs: it is the --out-dir");
    size_t skip = strlen(op);
    skip += skip > 0 && op[skip - 1] != '/';
    for (size_t i = 0; i < n; i++) {
        struct input *in = add_input(a, v);
        in->name = in->path = paths[i];
        in->rel = paths[i] + skip;
        api_config_input(cx, a, in);
        if (api_config_excluded(a, in))
            v->n--;
    }
}

/* What to run: operands (n == 0: standard input), or one given input. */
struct operands {
    const char *const *ops;
    size_t n;
    FILE *in;
    const char *stdin_name;
    const struct input *one;
};

static void list_all(struct pcx_ctx *cx, struct arena *a, struct inputs *v,
                     const struct operands *o)
{
    if (o->one) {
        struct input *in = add_input(a, v);
        *in = *o->one;
        api_config_input(cx, a, in);
        return;
    }
    for (size_t i = 0; i < o->n || (i == 0 && o->n == 0); i++) {
        if (o->n > 0 && strcmp(o->ops[i], "-") != 0) {
            list_operand(cx, a, v, o->ops[i]);
            continue;
        }
        struct input *in = add_input(a, v);
        in->name = o->stdin_name;
        in->stream = o->in;
        api_config_input(cx, a, in);
    }
}

/* List the inputs (with their configurations; under protection of a
 * setjmp: directories may be large), then run them. */
static enum pcx_status run_listed(struct pcx_ctx *cx, const struct operands *o)
{
    const char *first = o->one ? o->one->name : o->n ? o->ops[0] : o->stdin_name;
    struct arena *a = arena_new(NULL);
    if (!a)
        return out_of_memory(cx, first);
    enum pcx_status st;
    struct inputs v = {NULL, 0, 0};
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        arena_on_oom(cx->cfg_arena, &jb);
        list_all(cx, a, &v, o);
        target_plan(a, &cx->o, v.items, v.n);
        target_sweep(cx, a, v.items, v.n);
        arena_on_oom(a, NULL);
        arena_on_oom(cx->cfg_arena, NULL);
        st = jobs_run(cx, v.items, v.n);
    } else {
        arena_on_oom(cx->cfg_arena, NULL);
        st = out_of_memory(cx, first);
    }
    arena_free(a);
    return st;
}

enum pcx_status pcx_run_buffer(struct pcx_ctx *cx, const char *name,
                               const void *data, size_t len)
{
    struct input in = {.name = name, .data = data ? data : "",
                       .len = data ? len : 0};
    if (len > FILE_MAX_SIZE)
        in.error = "cannot read: input larger than 4 GiB";
    const struct operands o = {.one = &in};
    return run_listed(cx, &o);
}

enum pcx_status pcx_run_file(struct pcx_ctx *cx, const char *path)
{
    struct input in = {.name = path, .path = path};
    const struct operands o = {.one = &in};
    return run_listed(cx, &o);
}

enum pcx_status pcx_run_stream(struct pcx_ctx *cx, FILE *f, const char *name)
{
    struct input in = {.name = name, .stream = f};
    const struct operands o = {.one = &in};
    return run_listed(cx, &o);
}

enum pcx_status pcx_run_path(struct pcx_ctx *cx, const char *path)
{
    const struct operands o = {&path, 1, stdin, "<stdin>", NULL};
    return run_listed(cx, &o);
}

enum pcx_status pcx_run_operands(struct pcx_ctx *cx,
                                 const char *const *operands, size_t n,
                                 FILE *in, const char *stdin_name)
{
    const struct operands o = {operands, n, in,
                               stdin_name ? stdin_name : "<stdin>", NULL};
    return run_listed(cx, &o);
}

unsigned pcx_head_bit(const char *name)
{
    _Static_assert(EXPAND_HEAD_COND_STAR == 1u << 7 &&
                       PCX_HEADS_ALL == (EXPAND_HEAD_COND_STAR << 1) - 1,
                   "PCX_HEADS_ALL covers the heads of expand.h");
    int bit = name ? expand_head_bit(name) : 0;
    return bit > 0 ? (unsigned)bit : 0;
}

/* The --stats line over all runs. */
static void total_stats(struct pcx_ctx *cx)
{
    struct buf b;
    buf_init(&b, cx->talk);
    out_stats_line(&b, NULL, &cx->stats, api_now() - cx->start_ns);
    api_sink_write(&cx->o.diag, b.data, b.len);
    arena_release(cx->talk, cx->empty);
}

enum pcx_status pcx_ctx_finish(struct pcx_ctx *cx)
{
    cx->status = worst(cx->status, api_out_flush(cx));
    bool printing = cx->o.target == PCX_TARGET_STDOUT && !cx->o.check;
    if (printing && !cx->o.no_expand && cx->stats.files > 0 &&
        cx->stats.expanded == 0 && cx->status == PCX_STATUS_OK)
        api_say(cx, NULL, DIAG_NOTE, NULL, "no pcase-family or cond* forms");
    if (cx->o.check && !cx->golden)
        target_summary(cx);
    if (cx->o.stats)
        total_stats(cx);
    if (cx->o.diag.file)
        fflush(cx->o.diag.file);
    return cx->status;
}
