/* api.c - implements pcx.h on top of every layer.
 *
 * One run per input: load the bytes, check their coding, read them
 * (syntax/read), expand the forms (expand/), render the result (lisp/print
 * or syntax/splice), then write it.  A run's memory is one arena; nothing
 * is written before the run is complete, so an input with errors prints
 * nothing.  The library's setjmps are all here: protect() turns out of
 * memory anywhere in a run into a diagnostic, reserve_page() guards the
 * page the context keeps for saying so.
 */
#include "pcx/pcx.h"

#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/report.h"
#include "base/source.h"
#include "expand/expand.h"
#include "expand/gensym.h"
#include "expand/pcase_macros.h"
#include "io/file.h"
#include "lisp/intern.h"
#include "lisp/print.h"
#include "syntax/pretty.h"
#include "syntax/read.h"
#include "syntax/splice.h"

struct pcx_ctx {
    struct pcx_options o;   /* as given; sinks resolved */
    struct report_opts rep; /* rendering of diagnostics, from o */
    struct pcx_stats stats; /* over all runs */
    enum pcx_status status; /* highest so far */
    struct arena *talk;     /* one page, reserved for messages outside runs */
    struct arena_mark empty;/* talk with nothing allocated but its page */
};

/* One input: data, or else path, or else stream. */
struct input {
    const char *name;     /* for diagnostics */
    const uint8_t *data;  /* bytes given by the caller, or NULL */
    size_t len;           /* bytes in data */
    const char *path;     /* file to read, or NULL */
    FILE *stream;         /* stream to read, or NULL */
};

/* State of one run; lives in the run's arena. */
struct run {
    struct pcx_ctx *cx;
    struct arena *a;          /* everything below */
    const struct input *in;
    struct source src;        /* the input text */
    struct diag_list diags;   /* positioned diagnostics */
    struct lisp *L;           /* symbols and values */
    struct read_result rd;    /* forms read */
    struct value **forms;     /* top-level forms to print (expanded or not) */
    bool expanding;           /* expansion is on for this run */
    struct expand_ctx x;      /* the expander, when expanding */
    struct splice_site *sites;/* replaced forms of all top-level forms, in order */
    size_t n_sites, cap_sites;
    bool internal;            /* an internal error was recorded */
    const uint8_t *result;    /* bytes to write on success */
    size_t result_len;
    struct buf msgs;          /* rendered diagnostics */
};

const char *pcx_version(void) { return PCX_VERSION; }

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
    return cx;
}

void pcx_ctx_free(struct pcx_ctx *cx)
{
    if (!cx)
        return;
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

/* Write to a sink; false (errno set) on failure. */
static bool sink_write(const struct pcx_sink *s, const void *p, size_t n)
{
    if (n == 0)
        return true;
    if (s->write)
        return s->write(s->ctx, p, n);
    errno = 0;
    return fwrite(p, 1, n, s->file) == n;
}

/* Say something that is not about a position in a text (an unreadable
 * file, out of memory, the closing note) on the diagnostic sink.  Uses the
 * context's reserved page, not the run's arena (which may be gone or
 * full).  name NULL = the program. */
static enum pcx_status say(struct pcx_ctx *cx, const char *name,
                           enum diag_severity sev, const char *code,
                           const char *msg)
{
    struct buf b;
    buf_init(&b, cx->talk);
    if (name)
        report_plain(&b, name, sev, code, msg, &cx->rep);
    else
        report_tool(&b, sev, msg, &cx->rep);
    sink_write(&cx->o.diag, b.data, b.len);
    arena_release(cx->talk, cx->empty);
    if (sev != DIAG_ERROR)
        return PCX_STATUS_OK;
    cx->stats.errors++;
    return PCX_STATUS_ERROR;
}

/* Work done inside protect(): gets a fresh arena. */
typedef enum pcx_status (*protected_fn)(struct pcx_ctx *cx, struct arena *a,
                                        const void *arg);

/* Run fn with a fresh arena, catching out of memory.  Safe because everything fn allocates lives in that arena and
 * nothing has been written when memory runs out (runs write last). */
static enum pcx_status protect(struct pcx_ctx *cx, const char *name,
                               protected_fn fn, const void *arg)
{
    enum pcx_status st;
    struct arena *a = arena_new(NULL);
    if (!a) {
        st = say(cx, name, DIAG_ERROR, "resource", "out of memory");
    } else {
        a->limit = cx->o.memory_limit;
        jmp_buf jb;
        if (setjmp(jb) == 0) {
            arena_on_oom(a, &jb);
            st = fn(cx, a, arg);
        } else {
            st = say(cx, name, DIAG_ERROR, "resource", "out of memory");
        }
        arena_free(a);
    }
    cx->status = worst(cx->status, st);
    return st;
}

/* ---- the stages of a run ---- */

/* Get the input bytes into the run; an io error otherwise. */
static bool load(struct run *r)
{
    const struct input *in = r->in;
    struct file_data fd = {(uint8_t *)in->data, in->len, NULL};
    if (in->path)
        file_read(r->a, in->path, &fd);
    else if (in->stream)
        file_read_stream(r->a, in->stream, in->name, &fd);
    else if (in->len > FILE_MAX_SIZE)
        fd.error = "cannot read: input larger than 4 GiB";
    if (fd.error) {
        report_plain(&r->msgs, in->name, DIAG_ERROR, "io", fd.error,
                     &r->cx->rep);
        r->diags.n_errors++;
        return false;
    }
    source_init(&r->src, r->a, in->name, fd.data, fd.len);
    r->cx->stats.bytes_in += fd.len;
    return true;
}

/* How a reader error is worded: as Emacs's error-message-string shows
 * it ("Invalid read syntax: \")\""), lower-cased as GNU messages are.
 * NULL text: the first datum (a string) is the message. */
static const struct {
    const char *symbol; /* error symbol of elisp-syntax.md 1.13 */
    const char *text;   /* the error's message */
} read_words[] = {
    {"args-out-of-range", "args out of range"},
    {"end-of-file", "end of file during parsing"},
    {"error", NULL},
    {"invalid-read-syntax", "invalid read syntax"},
    {"wrong-type-argument", "wrong type argument"},
};

/* "MESSAGE: DATUM, DATUM" of a reader error, into b. */
static void word_read_error(struct run *r, const struct read_error *e,
                            struct buf *b)
{
    const char *text = e->symbol;
    for (size_t i = 0; i < sizeof read_words / sizeof read_words[0]; i++)
        if (strcmp(e->symbol, read_words[i].symbol) == 0)
            text = read_words[i].text;
    struct value *data = e->data ? e->data : r->L->nil;
    if (!text && data->kind == VK_CONS && data->u.cons.car->kind == VK_STRING) {
        const struct value_string *m = &data->u.cons.car->u.str;
        buf_put(b, m->data, m->len);
        data = data->u.cons.cdr;
    } else if (!text) {
        text = e->message && *e->message ? e->message : e->symbol;
    }
    if (text)
        buf_puts(b, text);
    struct print_opts po = print_opts_default();
    po.escape_newlines = true;
    for (const char *sep = ": "; data->kind == VK_CONS; sep = ", ") {
        buf_puts(b, sep);
        print_value(r->L, b, data->u.cons.car, &po);
        data = data->u.cons.cdr;
    }
    if (b->len && b->data[0] >= 'A' && b->data[0] <= 'Z')
        b->data[0] = (char)(b->data[0] - 'A' + 'a');
}

static void read_error_diag(struct run *r, const struct read_error *e)
{
    struct buf b;
    buf_init(&b, r->a);
    word_read_error(r, e, &b);
    diag_add(&r->diags, DIAG_ERROR, e->pos, e->pos, "read", "%s", buf_cstr(&b));
}

/* Refuse a file that declares a coding system other than UTF-8: read as
 * UTF-8 it would mean something else than it does in Emacs. */
static bool coding_stage(struct run *r)
{
    struct span name;
    if (read_check_coding(r->src.text, r->src.len, &name))
        return true;
    diag_add(&r->diags, DIAG_ERROR, name.start, name.end, "encoding",
             "unsupported coding system '%.*s' (pcexpand reads UTF-8 only)",
             (int)(name.end - name.start), (const char *)r->src.text + name.start);
    return false;
}

static bool read_stage(struct run *r)
{
    r->L = intern_new(r->a);
    /* Without expansion nothing asks where a value came from, and the
     * origin map is a large share of reading time. */
    unsigned flags = r->cx->o.no_expand ? READ_NO_ORIGIN : 0;
    if (!read_source_opts(r->L, r->src.text, r->src.len, flags, &r->rd)) {
        read_error_diag(r, &r->rd.err);
        return false;
    }
    r->forms = ARENA_NEWN(r->a, struct value *, r->rd.n_forms + 1);
    for (size_t i = 0; i < r->rd.n_forms; i++)
        r->forms[i] = r->rd.forms[i].v;
    r->cx->stats.forms += r->rd.n_forms;
    return true;
}

/* Remember one replaced site for the splicer. */
static void add_site(struct run *r, const struct expand_site *es)
{
    if (r->n_sites == r->cap_sites) {
        size_t cap = r->cap_sites ? r->cap_sites * 2 : 16;
        r->sites = arena_grow(r->a, r->sites, r->cap_sites * sizeof *r->sites,
                              cap * sizeof *r->sites);
        r->cap_sites = cap;
    }
    r->sites[r->n_sites++] = (struct splice_site){es->orig, es->expansion};
}

/* Replace each top-level form by its expansion (cli.md section 3).  A
 * form whose expansion failed has recorded an error, so the run will
 * print nothing; the other forms are still expanded, to report every
 * independent error of the file. */
static void expand_stage(struct run *r)
{
    /* ORDER: enum pcx_gensyms */
    static const enum gensym_mode modes[] = {GENSYM_RENAME, GENSYM_HASH,
                                             GENSYM_CIRCLE};
    struct expand_ctx *x = &r->x;
    expand_init(x, r->L, &r->diags, &r->rd);
    x->macros = pcase_macros_new(r->L);
    unsigned g = (unsigned)r->cx->o.gensyms;
    gensym_configure(expand_gensyms(x), modes[g < 3 ? g : 0],
                     r->cx->o.gensym_prefix);
    for (size_t i = 0; i < r->rd.n_forms; i++) {
        struct value *v = expand_form(x, r->forms[i]);
        if (!v)
            continue;
        r->forms[i] = v;
        for (size_t j = 0; j < x->n_sites; j++)
            add_site(r, &x->sites[j]);
    }
    r->cx->stats.expanded += r->n_sites;
}

/* An impossible state met while printing: a bug, exit status 3. */
static void internal_error(struct run *r, uint32_t pos, const char *what)
{
    diag_add(&r->diags, DIAG_ERROR, pos, pos, "internal",
             "%s; this is a bug in pcexpand %s, please report it", what,
             PCX_VERSION);
    r->internal = true;
}

/* Line break of generated text: CRLF when the input's first line ends so
 * (cli.md section 2). */
static const char *eol(const struct run *r)
{
    return splice_crlf(r->src.text, r->src.len) ? "\r\n" : "\n";
}

/* One top-level form of --compact output, expanded: temporaries are named
 * per top-level form (cli.md section 7). */
static bool compact_expanded(struct run *r, struct buf *b, size_t i)
{
    struct gensym *g = expand_gensyms(&r->x);
    struct span sp = r->rd.forms[i].span;
    gensym_begin_form(g, splice_label_floor(r->src.text, r->src.len, sp.start,
                                            sp.end));
    struct pretty_opts po = {0};
    po.sym_text = gensym_text;
    po.sym_ctx = g;
    return pretty_compact(r->L, &po, b, r->forms[i]);
}

/* --compact: each top-level form on one line, canonical (cli.md 4.3). */
static void render_compact(struct run *r)
{
    struct buf b;
    buf_init(&b, r->a);
    struct print_opts po = print_opts_compact();
    const char *nl = eol(r);
    for (size_t i = 0; i < r->rd.n_forms; i++) {
        if (!r->expanding)
            print_value(r->L, &b, r->forms[i], &po);
        else if (!compact_expanded(r, &b, i))
            return internal_error(r, r->rd.forms[i].span.start,
                                  "the expansion contains itself");
        buf_puts(&b, nl);
    }
    r->result = (const uint8_t *)b.data;
    r->result_len = b.len;
}

static const struct value *site_origin(void *ctx, const struct value *v)
{
    return expand_origin(ctx, v);
}

static void site_begin_form(void *ctx, unsigned label_floor)
{
    gensym_begin_form(expand_gensyms(ctx), label_floor);
}

/* Default mode: the input bytes, the replaced forms printed in their
 * place by the splicer (cli.md 4.1, 4.2). */
static void render_default(struct run *r)
{
    r->result = r->src.text;
    r->result_len = r->src.len;
    if (r->n_sites == 0)
        return;
    struct splice_in in = {0};
    in.L = r->L;
    in.text = r->src.text;
    in.len = r->src.len;
    in.src = &r->rd;
    in.sites = r->sites;
    in.n_sites = r->n_sites;
    in.pretty.width = (int)r->cx->o.width;
    in.pretty.sym_text = gensym_text;
    in.pretty.sym_ctx = expand_gensyms(&r->x);
    in.origin = site_origin;
    in.origin_ctx = &r->x;
    in.begin_form = site_begin_form;
    in.begin_ctx = &r->x;
    struct buf b;
    buf_init(&b, r->a);
    if (!splice_source(&in, &b, NULL))
        return internal_error(r, 0, "an expansion cannot be printed");
    r->result = (const uint8_t *)b.data;
    r->result_len = b.len;
}

/* All stages; diagnostics end up rendered in r->msgs. */
static void pipeline(struct run *r)
{
    if (!load(r))
        return;
    if (coding_stage(r) && read_stage(r)) {
        r->expanding = !r->cx->o.no_expand;
        if (r->expanding)
            expand_stage(r);
        if (r->diags.n_errors == 0 && r->cx->o.compact)
            render_compact(r);
        else if (r->diags.n_errors == 0)
            render_default(r);
    }
    diag_sort(&r->diags);
    report_render(&r->msgs, &r->src, &r->diags, &r->cx->rep);
}

static bool failed(const struct run *r)
{
    return r->diags.n_errors > 0 ||
           (r->cx->o.werror && r->diags.n_warnings > 0);
}

/* Write what the run produced; returns its status. */
static enum pcx_status finish_run(struct run *r)
{
    struct pcx_ctx *cx = r->cx;
    cx->stats.errors += r->diags.n_errors;
    cx->stats.warnings += r->diags.n_warnings;
    sink_write(&cx->o.diag, r->msgs.data, r->msgs.len);
    if (r->internal)
        return PCX_STATUS_INTERNAL;
    if (failed(r))
        return PCX_STATUS_ERROR;
    if (!sink_write(&cx->o.out, r->result, r->result_len))
        return say(cx, NULL, DIAG_ERROR, "io", "cannot write the output");
    cx->stats.bytes_out += r->result_len;
    return PCX_STATUS_OK;
}

/* One input, start to end, in arena a (under protect). */
static enum pcx_status run_input(struct pcx_ctx *cx, struct arena *a,
                                 const void *arg)
{
    struct run *r = ARENA_NEW(a, struct run);
    r->cx = cx;
    r->a = a;
    r->in = arg;
    diag_init(&r->diags, a);
    buf_init(&r->msgs, a);
    source_init(&r->src, a, r->in->name, (const uint8_t *)"", 0);
    cx->stats.files++;
    pipeline(r);
    return finish_run(r);
}

/* ---- entry points ---- */

enum pcx_status pcx_run_buffer(struct pcx_ctx *cx, const char *name,
                               const void *data, size_t len)
{
    struct input in = {name, data ? data : "", data ? len : 0, NULL, NULL};
    return protect(cx, name, run_input, &in);
}

enum pcx_status pcx_run_file(struct pcx_ctx *cx, const char *path)
{
    struct input in = {path, NULL, 0, path, NULL};
    return protect(cx, path, run_input, &in);
}

enum pcx_status pcx_run_stream(struct pcx_ctx *cx, FILE *f, const char *name)
{
    struct input in = {name, NULL, 0, NULL, f};
    return protect(cx, name, run_input, &in);
}

/* Every *.el file under a directory, in order (under protect: the list
 * of paths lives in a, for the duration of the walk). */
static enum pcx_status run_dir(struct pcx_ctx *cx, struct arena *a,
                               const void *arg)
{
    const char *dir = arg, **paths, *err = NULL;
    size_t n = 0;
    if (!file_walk_dir(a, dir, &paths, &n, &err))
        return say(cx, dir, DIAG_ERROR, "io", err);
    enum pcx_status st = PCX_STATUS_OK;
    for (size_t i = 0; i < n; i++)
        st = worst(st, pcx_run_file(cx, paths[i]));
    return st;
}

enum pcx_status pcx_run_path(struct pcx_ctx *cx, const char *path)
{
    if (file_kind(path) == FILE_KIND_DIR)
        return protect(cx, path, run_dir, path);
    return pcx_run_file(cx, path);
}

enum pcx_status pcx_ctx_finish(struct pcx_ctx *cx)
{
    if (cx->o.out.file && fflush(cx->o.out.file) != 0)
        cx->status = worst(cx->status, say(cx, NULL, DIAG_ERROR, "io",
                                           "cannot write the output"));
    if (!cx->o.no_expand && cx->stats.expanded == 0 &&
        cx->status == PCX_STATUS_OK)
        say(cx, NULL, DIAG_NOTE, NULL, "no pcase-family or cond* forms");
    if (cx->o.diag.file)
        fflush(cx->o.diag.file);
    return cx->status;
}
