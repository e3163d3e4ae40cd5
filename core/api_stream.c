/* api_stream.c - standard input, a stretch of complete forms at a time
 * (cli.md section 2; options.stream).
 *
 * The text is read as it arrives, and a scan (read_bounds) that looks at
 * each byte once finds where the forms so far are complete; each stretch
 * of complete forms that ends at a line end is run and printed at once,
 * so that an editor can keep one process and read each answer before it
 * sends more.  A stretch is an ordinary run, in memory given back after
 * it: only the text not run yet is kept, with what later stretches need
 * of earlier ones, so that memory is that of the largest stretch and the
 * output is that of the same text as a file:
 * - the definitions that later forms learn from (pcase-defmacro,
 *   cl-defstruct): their text, read again before each stretch as a part
 *   of a split input reads the text before it (api_split.c), with where
 *   their lines are for messages.  A stretch is as long as the
 *   definitions it reads again, unless the writer waits for its answer;
 * - the symbols read so far that are named like temporaries, whose names
 *   temporaries do not take (a file's temporaries also avoid the names
 *   of symbols after them, which a stream cannot know);
 * - the libraries required so far and those already noted missing
 *   (api_requires.c): a note missing-require is said once, at the first
 *   stretch that needs the library, and not when an earlier stretch
 *   required it (a require after that stretch comes too late for it);
 * - the line ends of generated text (those of the input's first line),
 *   the line the next stretch starts at, and the last 3000 bytes, where
 *   the input's Local Variables block may begin.
 * The first stretch holds the `-*-` line.  A stretch that the reader
 * finds unfinished after all (the scan follows the lexer's rules but is
 * not the reader) is not run; the next try waits for twice the text.
 */
#include "api_int.h"

#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>

#include "expand/gensym.h"
#include "expand/learn.h"
#include "io/file.h"

/* Bytes asked of one read. */
#define READ_BLOCK (64 * 1024)
/* The first page of the stretches' arena (what a run of 64 KiB of text
 * takes, some 100 bytes per byte when it expands; only what is written
 * is resident). */
#define STRETCH_PAGE ((size_t)16 << 20)

struct stream {
    struct pcx_ctx *cx;
    const struct input *in;
    int fd;
    struct arena *keep;        /* what lasts from stretch to stretch */
    struct arena *part;        /* one stretch's run, given back after it */
    struct arena_mark fresh;   /* part with nothing in it */
    uint8_t *buf;              /* the text not run yet: buf[0, len) */
    size_t len, cap;
    struct read_bounds bounds; /* the scan of buf */
    size_t retry;              /* run nothing before len reaches this */
    size_t first_end;          /* the first stretch ends no earlier: after
                                  the -*- line (0: not found yet) */
    size_t searched;           /* buf[0, searched) has first_lines line ends */
    unsigned first_lines;
    uint32_t line;             /* line of buf[0] in the input (1-based) */
    const char *eol;           /* generated line ends (first stretch on) */
    struct buf defs;           /* definitions read so far, each from the
                                  start of its line (blanked) to a '\n' */
    struct source_seg *segs;   /* where each begins in the input */
    size_t n_segs, cap_segs;
    struct lisp *names;        /* symbols read named like temporaries */
    struct run_libs libs;      /* libraries required and noted so far */
    uint8_t tail[READ_CODING_TAIL]; /* the last bytes run */
    size_t tail_len;
    struct pcx_stats stats;    /* of the whole input (-v --stats) */
    uint64_t ns;
    bool eof, ran;
    bool refused;              /* its -*- line declares a coding system
                                  that is refused: nothing more is run */
    enum pcx_status st;
};

/* ---- reading ---- */

/* Read what is available (at most READ_BLOCK bytes); false on a read
 * error (said). */
static bool read_more(struct stream *s)
{
    if (s->cap - s->len < READ_BLOCK) {
        size_t cap = s->cap * 2 > s->len + READ_BLOCK ? s->cap * 2 : s->len + READ_BLOCK;
        s->buf = arena_grow(s->keep, s->buf, s->cap, cap);
        s->cap = cap;
    }
    ssize_t got;
    do
        got = read(s->fd, s->buf + s->len, READ_BLOCK);
    while (got < 0 && errno == EINTR);
    if (got < 0 || s->len + (size_t)got > FILE_MAX_SIZE) {
        char msg[128];
        snprintf(msg, sizeof msg, "cannot read: %s", strerror(got < 0 ? errno : EFBIG));
        s->st = api_say(s->cx, s->in->name, DIAG_ERROR, "io", msg);
        return false;
    }
    s->len += (size_t)got;
    s->eof = got == 0;
    read_bounds_scan(&s->bounds, s->buf, s->len);
    return true;
}

/* Does the writer wait (nothing more to read at once)?  Then a stretch
 * shorter than the definitions it reads again is run all the same. */
static bool writer_waits(const struct stream *s)
{
    struct pollfd p = {s->fd, POLLIN, 0};
    return poll(&p, 1, 0) == 0;
}

/* Where the first stretch may end: after the first line, or the second
 * when the first is a `#!` line (the -*- line is there); 0 while that
 * line end has not come. */
static size_t first_end(struct stream *s)
{
    unsigned want = s->len >= 2 && s->buf[0] == '#' && s->buf[1] == '!' ? 2 : 1;
    while (!s->first_end && s->searched < s->len) {
        const uint8_t *nl = memchr(s->buf + s->searched, '\n', s->len - s->searched);
        s->searched = nl ? (size_t)(nl - s->buf) + 1 : s->len;
        if (nl && ++s->first_lines == want)
            s->first_end = s->searched;
    }
    return s->first_end;
}

/* How much of buf to run now (0: nothing). */
static size_t stretch_end(struct stream *s)
{
    size_t ready = s->bounds.ready;
    if (s->eof)
        return s->len;
    if (!ready || s->len < s->retry || (!s->ran && (!first_end(s) || ready < s->first_end)))
        return 0;
    if (ready < s->defs.len && !writer_waits(s))
        return 0;
    return ready;
}

/* ---- what stretches hand on ---- */

/* Add the definition at sp (of a stretch at text + lo, whose first line
 * is s->line) to s->defs: its line up to it blanked (a space for each
 * character, tabs kept: its columns stay), its text, a line end.  *at and
 * *line: an offset at a line start whose line in the stretch is known,
 * and that line (0-based), carried from one definition to the next. */
static void keep_definition(struct stream *s, const uint8_t *text, size_t lo,
                            struct span sp, size_t *at, uint32_t *line)
{
    for (const uint8_t *p; *at < sp.start && (p = memchr(text + *at, '\n', sp.start - *at));
         (*line)++)
        *at = (size_t)(p - text) + 1;
    size_t ls = sp.start;
    while (ls > lo && text[ls - 1] != '\n')
        ls--;
    if (s->n_segs == s->cap_segs) {
        size_t cap = s->cap_segs ? 2 * s->cap_segs : 16;
        s->segs = arena_grow(s->keep, s->segs, s->cap_segs * sizeof *s->segs,
                             cap * sizeof *s->segs);
        s->cap_segs = cap;
    }
    s->segs[s->n_segs++] = (struct source_seg){(uint32_t)s->defs.len,
                                               s->line + *line};
    for (size_t k = ls; k < sp.start; k += (size_t)source_char_len(text + k, sp.start - k))
        buf_putc(&s->defs, text[k] == '\t' ? '\t' : ' ');
    buf_put(&s->defs, text + sp.start, sp.end - sp.start);
    buf_putc(&s->defs, '\n');
}

/* Function and variable definitions: learned for the evaluator of
 * pattern and definer macros, and not handed on at the top level (they
 * are most of a file: every stretch would read the whole input again);
 * a macro needs a helper at expansion time only in eval-and-compile or
 * eval-when-compile, as in Emacs, and those are handed on. */
static const char *const not_handed_on[] = {
    "cl-defsubst", "cl-defun", "defalias", "defconst", "defsubst", "defun", "defvar",
};

/* Is top-level form f of run r one the next stretches learn from (and
 * read again): a pattern macro, structure or rx definition, a require, a
 * macro, a call of a macro (a definer macro), a form that wraps
 * top-level forms (learn.h)? */
static bool handed_on(struct run *r, const struct value *f)
{
    if (!value_consp(f) || !value_symbolp(value_car(f)))
        return false;
    const char *head = value_car(f)->u.sym.name;
    for (size_t k = 0; k < sizeof not_handed_on / sizeof not_handed_on[0]; k++)
        if (strcmp(head, not_handed_on[k]) == 0)
            return false;
    if (learn_is_definition_head(head))
        return true;
    const struct interp_fn *fn = learn_function(&r->x, value_car(f));
    return fn && fn->macro;
}

/* What the next stretches need of run r (of the stretch buf[0, cut)):
 * the libraries required and noted so far (r began with those of the
 * stretches before), its definitions, and its symbols named like
 * temporaries. */
static void hand_on(struct stream *s, struct run *r)
{
    s->libs.has = r->libs.has;
    s->libs.noted = r->libs.noted;
    if (!r->expanding || !r->L)
        return;
    size_t at = r->share_lo;
    uint32_t line = 0;
    for (size_t i = r->lo; i < r->rd.n_forms; i++)
        if (handed_on(r, r->rd.forms[i].v))
            keep_definition(s, r->text, r->share_lo, r->rd.forms[i].span, &at, &line);
    const char *prefix = run_gensym_prefix(r);
    uint32_t limit = gensym_input_limit(expand_gensyms(&r->x));
    const struct intern_table *t = r->L->tab;
    for (size_t i = 0; i < t->cap; i++) {
        const struct value *sym = t->slots[i].sym;
        if (t->slots[i].mixlen != INTERN_FREE && sym->u.sym.id < limit &&
            run_temp_like(&sym->u.sym, prefix))
            intern_symbol(s->names, sym->u.sym.name, sym->u.sym.len);
    }
}

/* buf[0, cut) has been run: move on past it. */
static void consume(struct stream *s, size_t cut)
{
    for (const uint8_t *p = s->buf, *end = s->buf + cut;
         p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++)
        s->line++;
    size_t keep = cut >= READ_CODING_TAIL ? 0
                  : s->tail_len + cut > READ_CODING_TAIL ? READ_CODING_TAIL - cut
                  : s->tail_len;
    memmove(s->tail, s->tail + s->tail_len - keep, keep);
    size_t add = cut < READ_CODING_TAIL ? cut : READ_CODING_TAIL;
    memcpy(s->tail + keep, s->buf + cut - add, add);
    s->tail_len = keep + add;
    memmove(s->buf, s->buf + cut, s->len - cut);
    s->len -= cut;
    read_bounds_shift(&s->bounds, cut);
    s->retry = 0;
    s->ran = true;
}

/* ---- one stretch ---- */

/* The run of stretch buf[0, cut), after the definitions read so far when
 * it expands (they are learned, not printed: its share starts after
 * them). */
static struct run *new_stretch(struct stream *s, size_t cut)
{
    struct run *r = ARENA_NEW(s->part, struct run);
    api_run_init(r, s->cx, s->part, s->in);
    size_t pre = s->defs.len;
    const uint8_t *text = s->buf;
    if (pre) {
        uint8_t *t = arena_alloc(s->part, pre + cut + 1);
        memcpy(t, s->defs.data, pre);
        memcpy(t + pre, s->buf, cut);
        text = t;
    }
    struct source_seg *segs = ARENA_NEWN(s->part, struct source_seg, s->n_segs + 1);
    if (s->n_segs)
        memcpy(segs, s->segs, s->n_segs * sizeof *segs);
    segs[s->n_segs] = (struct source_seg){(uint32_t)pre, s->line};
    run_set_text(r, text, pre + cut);
    r->src.segs = segs;
    r->src.n_segs = s->n_segs + 1;
    r->parts = pre ? 2 : 0;
    r->share_lo = pre;
    r->stretch = true;
    r->eol = s->eol;
    r->coding = s->ran ? 0 : RUN_CODING_START;
    r->known = s->names;
    r->libs.has = s->libs.has;
    r->libs.noted = s->libs.noted;
    r->stats.files = !s->ran;
    r->stats.bytes_in = cut;
    return r;
}

/* The input's end: does its Local Variables block declare a coding
 * system that is refused?  It is looked for in the last 3000 bytes, which
 * may begin in stretches already run (s->tail).  If so, r (the last
 * stretch, buf[0, cut)) is made the error's, its text those bytes and
 * the stretch, numbered from the tail's first line: the error is said
 * where it is, and the stretch is not run. */
static bool refused_at_end(struct stream *s, struct run *r, size_t cut)
{
    size_t n = s->tail_len + cut;
    uint8_t *w = arena_alloc(s->part, n + 1);
    memcpy(w, s->tail, s->tail_len);
    memcpy(w + s->tail_len, s->buf, cut);
    struct span name;
    if (read_check_coding_end(w, n, &name))
        return false;
    struct source_seg *seg = ARENA_NEW(s->part, struct source_seg);
    *seg = (struct source_seg){0, s->line};
    for (const uint8_t *p = w, *end = w + s->tail_len;
         p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++)
        seg->line--;
    run_set_text(r, w, n);
    r->src.segs = seg;
    r->src.n_segs = 1;
    r->share_lo = 0;
    run_coding_error(r, name);
    return true;
}

/* Did the stretch end inside a form after all? */
static bool unfinished(const struct run *r)
{
    return r->rd.err.symbol && strcmp(r->rd.err.symbol, "end-of-file") == 0;
}

enum computed {
    STRETCH_DONE,    /* to be said and printed */
    STRETCH_WAIT,    /* unfinished: left for more text */
    STRETCH_NOTHING, /* the end, with nothing left to run or say */
};

/* Compute stretch buf[0, cut) into r. */
static enum computed compute(struct stream *s, struct run *r, size_t cut)
{
    /* (a refused -*- line is said first, as for a file) */
    struct span name;
    bool line_refused = !s->ran && !read_check_coding_start(s->buf, cut, &name);
    if (s->eof && !line_refused && refused_at_end(s, r, cut)) {
        run_render_diagnostics(r);
        return STRETCH_DONE;
    }
    if (cut == 0 && s->ran)
        return STRETCH_NOTHING;
    run_text(r);
    if (!s->eof && unfinished(r)) {
        s->retry = 2 * s->len;
        return STRETCH_WAIT;
    }
    if (r->parts > 1)
        r->stats.forms -= r->lo; /* the definitions read again */
    /* a coding system declared in the -*- line is the whole input's */
    s->refused = r->coding_refused;
    return STRETCH_DONE;
}

/* Say and print run r; what the next stretches need is kept. */
static void deliver(struct stream *s, struct run *r)
{
    enum pcx_status st = api_commit(s->cx, r);
    enum pcx_status flushed = api_out_flush(s->cx);
    st = flushed > st ? flushed : st;
    s->st = st > s->st ? st : s->st;
    api_add_stats(&s->stats, &r->stats);
    hand_on(s, r);
}

/* Run, say and print stretch buf[0, cut) (at the end, what is left);
 * then its memory is free. */
static void run_stretch(struct stream *s, size_t cut)
{
    if (!s->eol)
        s->eol = splice_crlf(s->buf, s->len) ? "\r\n" : "\n";
    uint64_t t0 = api_now();
    volatile enum computed c = STRETCH_DONE;
    jmp_buf jb;
    if (s->refused) {
        c = STRETCH_NOTHING; /* its text is not run */
    } else if (setjmp(jb) == 0) {
        arena_on_oom(s->part, &jb);
        struct run *r = new_stretch(s, cut);
        c = compute(s, r, cut);
        if (c == STRETCH_DONE)
            deliver(s, r);
    } else {
        s->st = api_say(s->cx, s->in->name, DIAG_ERROR, "resource", "out of memory");
    }
    arena_on_oom(s->part, NULL);
    arena_release(s->part, s->fresh);
    s->ns += api_now() - t0;
    if (c != STRETCH_WAIT)
        consume(s, cut);
    if (s->cx->o.diag.file)
        fflush(s->cx->o.diag.file);
}

/* Read and run until the end of the input, or until the output fails
 * (a closed pipe: nothing more can reach the reader). */
static void stream_loop(struct stream *s)
{
    buf_init(&s->defs, s->keep);
    s->names = intern_new(s->keep);
    read_bounds_init(&s->bounds);
    s->line = 1;
    /* The stretches' first page is kept from one to the next (pages
     * freed and taken again were faulted in again each time). */
    s->part->next_page = STRETCH_PAGE;
    arena_alloc(s->part, 1);
    s->fresh = arena_mark(s->part);
    while (!s->eof && !s->cx->out_failed) {
        if (!read_more(s))
            return;
        size_t cut = stretch_end(s);
        if (cut > 0 || s->eof)
            run_stretch(s, cut);
    }
}

/* -v --stats: one line for the whole input. */
static void stream_stats(struct stream *s)
{
    if (!s->cx->o.stats || !s->cx->o.verbose)
        return;
    struct buf b;
    buf_init(&b, s->keep);
    out_stats_line(&b, s->in->name, &s->stats, s->ns);
    api_sink_write(&s->cx->o.diag, b.data, b.len);
}

enum pcx_status stream_run(struct pcx_ctx *cx, const struct input *in)
{
    struct stream s;
    memset(&s, 0, sizeof s);
    s.cx = cx;
    s.in = in;
    s.fd = fileno(in->stream);
    s.keep = arena_new(NULL);
    s.part = arena_new(NULL);
    enum pcx_status st;
    jmp_buf jb;
    if (!s.keep || !s.part) {
        st = api_say(cx, in->name, DIAG_ERROR, "resource", "out of memory");
    } else if (setjmp(jb) == 0) {
        s.keep->limit = cx->o.memory_limit;
        s.part->limit = cx->o.memory_limit;
        arena_on_oom(s.keep, &jb);
        stream_loop(&s);
        stream_stats(&s);
        st = s.st;
    } else {
        st = api_say(cx, in->name, DIAG_ERROR, "resource", "out of memory");
    }
    arena_free(s.keep);
    arena_free(s.part);
    cx->status = st > cx->status ? st : cx->status;
    return st;
}
