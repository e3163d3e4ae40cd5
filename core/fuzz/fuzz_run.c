/* fuzz_run.c - one pipeline run for the fuzz targets (see fuzz.h).
 *
 * The same stages as core/api.c's run, in one arena with a memory cap and
 * the out-of-memory jump installed; the results are copied out before the
 * arena is released.
 */
#include "fuzz.h"

#include <setjmp.h>
#include <stdio.h>
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
#include "lisp/intern.h"
#include "syntax/pretty.h"
#include "syntax/read.h"
#include "syntax/splice.h"

struct frun {
    struct arena *a;
    const uint8_t *text;
    size_t len;
    struct lisp *L;
    struct diag_list dl;
    struct read_result rd;
    struct expand_ctx x;
    struct splice_site *sites;
    size_t n_sites, cap_sites;
    struct buf out;
    bool internal;
};

static char *copy_out(const char *p, size_t n)
{
    char *c = malloc(n + 1);
    if (!c)
        abort();
    if (n)
        memcpy(c, p, n);
    c[n] = 0;
    return c;
}

static void add_site(struct frun *r, const struct expand_site *es)
{
    if (r->n_sites == r->cap_sites) {
        size_t cap = r->cap_sites ? r->cap_sites * 2 : 16;
        r->sites = arena_grow(r->a, r->sites, r->cap_sites * sizeof *r->sites,
                              cap * sizeof *r->sites);
        r->cap_sites = cap;
    }
    r->sites[r->n_sites++] = (struct splice_site){es->orig, es->expansion};
}

/* Expand every top-level form; r->rd.forms[i].v gets the expansion. */
static void expand_all(struct frun *r, bool memo)
{
    expand_init(&r->x, r->L, &r->dl, &r->rd);
    r->x.memo = memo;
    r->x.macros = pcase_macros_new(r->L);
    for (size_t i = 0; i < r->rd.n_forms; i++) {
        struct value *v = expand_form(&r->x, r->rd.forms[i].v);
        if (!v)
            continue;
        r->rd.forms[i].v = v;
        for (size_t j = 0; j < r->x.n_sites; j++)
            add_site(r, &r->x.sites[j]);
    }
}

static void render_compact(struct frun *r)
{
    struct gensym *g = expand_gensyms(&r->x);
    for (size_t i = 0; i < r->rd.n_forms; i++) {
        struct span sp = r->rd.forms[i].span;
        gensym_begin_form(g, splice_label_floor(r->text, r->len, sp.start,
                                                sp.end));
        struct pretty_opts po = {0};
        po.sym_text = gensym_text;
        po.sym_ctx = g;
        if (!pretty_compact(r->L, &po, &r->out, r->rd.forms[i].v)) {
            r->internal = true;
            return;
        }
        buf_puts(&r->out, "\n");
    }
}

static const struct value *origin(void *ctx, const struct value *v)
{
    return expand_origin(ctx, v);
}

static void begin_form(void *ctx, unsigned floor)
{
    gensym_begin_form(expand_gensyms(ctx), floor);
}

static void render_default(struct frun *r)
{
    if (r->n_sites == 0) {
        buf_put(&r->out, r->text, r->len);
        return;
    }
    struct splice_in in = {0};
    in.L = r->L;
    in.text = r->text;
    in.len = r->len;
    in.src = &r->rd;
    in.sites = r->sites;
    in.n_sites = r->n_sites;
    in.pretty.sym_text = gensym_text;
    in.pretty.sym_ctx = expand_gensyms(&r->x);
    in.origin = origin;
    in.origin_ctx = &r->x;
    in.begin_form = begin_form;
    in.begin_ctx = &r->x;
    if (!splice_source(&in, &r->out, NULL))
        r->internal = true;
}

static void stages(struct frun *r, bool memo, bool compact)
{
    struct span name;
    if (!read_check_coding(r->text, r->len, &name)) {
        diag_add(&r->dl, DIAG_ERROR, name.start, name.end, "encoding", "coding");
        return;
    }
    r->L = intern_new(r->a);
    if (!read_source(r->L, r->text, r->len, &r->rd)) {
        diag_add(&r->dl, DIAG_ERROR, r->rd.err.pos, r->rd.err.pos, "read",
                 "%s", r->rd.err.symbol);
        return;
    }
    expand_all(r, memo);
    if (r->dl.n_errors)
        return;
    if (compact)
        render_compact(r);
    else
        render_default(r);
}

static void collect(struct frun *r, struct fuzz_result *res)
{
    struct source src;
    source_init(&src, r->a, "fuzz.el", r->text, r->len);
    struct report_opts o = {REPORT_GNU, false, false};
    struct buf msgs;
    buf_init(&msgs, r->a);
    diag_sort(&r->dl);
    report_render(&msgs, &src, &r->dl, &o);
    res->diags = copy_out(msgs.data, msgs.len);
    res->diags_len = msgs.len;
    res->internal = r->internal;
    res->ok = !r->internal && r->dl.n_errors == 0;
    res->out = copy_out(res->ok ? r->out.data : "", res->ok ? r->out.len : 0);
    res->out_len = res->ok ? r->out.len : 0;
}

void fuzz_run(const uint8_t *text, size_t len, bool memo, bool compact,
              struct fuzz_result *res)
{
    memset(res, 0, sizeof *res);
    struct arena *a = arena_new(NULL);
    if (!a)
        abort();
    a->limit = memo ? FUZZ_MEMORY_LIMIT : FUZZ_NO_MEMO_LIMIT;
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        struct frun *r = ARENA_NEW(a, struct frun);
        r->a = a;
        r->text = text;
        r->len = len;
        diag_init(&r->dl, a);
        buf_init(&r->out, a);
        stages(r, memo, compact);
        collect(r, res);
    } else {
        free(res->diags);
        free(res->out);
        memset(res, 0, sizeof *res);
        res->oom = true;
        res->out = copy_out("", 0);
        res->diags = copy_out("", 0);
    }
    arena_free(a);
}

void fuzz_result_free(struct fuzz_result *res)
{
    free(res->out);
    free(res->diags);
    memset(res, 0, sizeof *res);
}

bool fuzz_reads(const uint8_t *text, size_t len)
{
    struct arena *a = arena_new(NULL);
    if (!a)
        abort();
    a->limit = FUZZ_MEMORY_LIMIT;
    volatile bool ok = true; /* OOM is not a read error */
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        struct lisp *L = intern_new(a);
        struct read_result rd;
        ok = read_source_opts(L, text, len, READ_NO_ORIGIN, &rd);
    }
    arena_free(a);
    return ok;
}

_Noreturn void fuzz_fail(const char *what, const uint8_t *text, size_t len,
                         const char *detail)
{
    fprintf(stderr, "fuzz: %s\n--- input (%zu bytes)\n", what, len);
    fwrite(text, 1, len, stderr);
    if (detail)
        fprintf(stderr, "\n--- detail\n%s", detail);
    fprintf(stderr, "\n---\n");
    abort();
}
