/* api_golden.c - golden mode (cli.md sections 6 and 13) on the runs.
 *
 * io/golden reads the manifest, selects the cases, compares, writes and
 * reports; it lends each case to golden_expand, which runs the case's
 * text like pcx_run_buffer in default mode: the case's options over the
 * configuration found from the case's file (or the manifest), restricted
 * to the case's form selector, diagnostics in GNU format.
 */
#include "api_int.h"

#include <setjmp.h>
#include <string.h>

#include "io/golden.h"

/* The options of a case over the context's: width, temporaries and heads
 * are the case's (the manifest's defaults filled in). */
static struct pcx_ctx case_context(const struct pcx_ctx *cx,
                                   const struct golden_case *c)
{
    struct pcx_ctx k = *cx;
    struct pcx_options *o = &k.o;
    o->width = c->opts.width;
    o->gensyms = (enum pcx_gensyms)c->opts.gensyms;
    o->gensyms_given = true;
    o->gensym_prefix = c->opts.gensym_prefix;
    o->skip_heads = c->opts.skip_heads;
    o->heads_given = true;
    o->compact = o->no_expand = false;
    o->format = PCX_FORMAT_LISP;
    o->dump = PCX_DUMP_NONE;
    o->explain = false;
    o->target = PCX_TARGET_STDOUT;
    o->check = 0;
    o->at_line = c->form == GOLDEN_FORM_LINE ? (unsigned)c->line : 0;
    o->at_col = 0;
    k.rep = (struct report_opts){REPORT_GNU, false, false};
    return k;
}

/* The result of a computed run, copied into arena a. */
static void copy_result(struct arena *a, const struct run *r,
                        struct golden_result *res)
{
    bool ok = r && !r->oom && !r->internal && !run_failed(r);
    res->status = !r || r->oom ? 2 : r->internal ? 3 : ok ? 0 : 2;
    res->out = ok ? arena_strndup(a, r->out.data ? r->out.data : "", r->out.len) : "";
    res->out_len = ok ? r->out.len : 0;
    const char *err = !r || r->oom ? "out of memory\n" : r->msgs.data ? r->msgs.data : "";
    size_t n = !r || r->oom ? strlen(err) : r->msgs.len;
    res->err = arena_strndup(a, err, n);
    res->err_len = n;
}

/* One run of the case in k, its result copied into arena a. */
static void expand_case(const struct pcx_ctx *k, struct arena *a, const struct golden_case *c,
                        const struct input *in, struct golden_result *res)
{
    struct arena *ra = arena_new(NULL);
    struct run *volatile r = NULL;
    jmp_buf jb;
    if (ra && setjmp(jb) == 0) {
        arena_on_oom(ra, &jb);
        struct run *fresh = ARENA_NEW(ra, struct run);
        api_run_init(fresh, k, ra, in);
        fresh->form_only = c->form != GOLDEN_FORM_ALL;
        fresh->select_nth = c->form == GOLDEN_FORM_NTH ? (long)c->nth : -1;
        fresh->select_defun = c->form == GOLDEN_FORM_DEFUN ? c->defun : NULL;
        r = fresh;
        run_input(fresh);
    } else if (r) {
        r->oom = true;
    }
    if (ra)
        arena_on_oom(ra, NULL);
    copy_result(a, r, res);
    arena_free(ra);
}

/* golden_expand_fn: one case, run in its own arena.  The diagnostics are
 * shown as the user asked (--message-format, -q); the .err golden holds
 * them in GNU format, with every note: when the two differ, a case with
 * diagnostics runs twice. */
static void golden_expand(void *ctx, struct arena *a, const struct golden_job *job,
                          struct golden_result *res)
{
    struct pcx_ctx *cx = ctx;
    const struct golden_case *c = job->c;
    struct pcx_ctx k = case_context(cx, c);
    struct input in = {.name = job->name, .data = job->text, .len = job->len};
    struct buf msgs;
    buf_init(&msgs, a);
    in.cfg = config_for(cx->configs, job->config_from, &msgs);
    if (!in.cfg) {
        *res = (struct golden_result){"", 0, msgs.len ? msgs.data : "", msgs.len, 2,
                                      NULL, 0};
        return;
    }
    api_sink_write(&cx->o.diag, msgs.data, msgs.len); /* a file passed over */
    expand_case(&k, a, c, &in, res);
    if (res->err_len == 0 || (cx->rep.format == REPORT_GNU && !cx->rep.quiet))
        return;
    struct golden_result shown;
    k.rep = (struct report_opts){cx->rep.format, false, cx->rep.quiet};
    expand_case(&k, a, c, &in, &shown);
    res->shown = shown.err;
    res->shown_len = shown.err_len;
}

/* The manifest: --manifest, else goldens.manifest of the configuration of
 * the current directory; NULL (an error said) when there is none. */
static const char *manifest_path(struct pcx_ctx *cx, struct arena *a)
{
    if (cx->o.manifest)
        return cx->o.manifest;
    struct buf msgs;
    buf_init(&msgs, a);
    const struct config *cfg = config_for(cx->configs, NULL, &msgs);
    api_sink_write(&cx->o.diag, msgs.data, msgs.len);
    if (cfg && cfg->manifest_path)
        return cfg->manifest_path;
    if (cfg)
        api_say(cx, NULL, DIAG_ERROR, "usage",
                "golden mode needs --manifest=FILE or goldens.manifest in the "
                "configuration");
    return NULL;
}

static enum pcx_status run_goldens(struct pcx_ctx *cx, struct arena *a,
                                   const char *const *select, size_t n)
{
    const char *manifest = manifest_path(cx, a);
    if (!manifest)
        return PCX_STATUS_ERROR;
    /* ORDER: enum pcx_update */
    static const enum golden_action actions[] = {GOLDEN_CHECK, GOLDEN_UPDATE_ALL,
                                                 GOLDEN_UPDATE_MISSING};
    struct golden_params p = {0};
    p.manifest = manifest;
    p.manifest_from_cli = cx->o.manifest != NULL;
    p.select = select;
    p.n_select = n;
    p.action = (unsigned)cx->o.update < 3 ? actions[cx->o.update] : GOLDEN_CHECK;
    p.diff = (cx->o.check & PCX_CHECK_DIFF) != 0;
    p.list = (cx->o.check & PCX_CHECK_LIST) != 0;
    p.obsolete = n == 0;
    p.report = cx->rep;
    p.expand = golden_expand;
    p.ctx = cx;
    struct buf out, err;
    buf_init(&out, a);
    buf_init(&err, a);
    int st = golden_run(a, &p, &out, &err);
    api_sink_write(&cx->o.diag, err.data, err.len);
    if (!api_sink_write(&cx->o.out, out.data, out.len))
        return api_say(cx, NULL, DIAG_ERROR, "io", "cannot write the output");
    return st < 0 ? PCX_STATUS_OK : st > 3 ? PCX_STATUS_INTERNAL : (enum pcx_status)st;
}

enum pcx_status pcx_run_goldens(struct pcx_ctx *cx, const char *const *select,
                                size_t n)
{
    cx->golden = true;
    struct arena *a = arena_new(NULL);
    enum pcx_status st;
    jmp_buf jb;
    if (!a || setjmp(jb) != 0) {
        st = api_say(cx, NULL, DIAG_ERROR, "resource", "out of memory");
    } else {
        arena_on_oom(a, &jb);
        arena_on_oom(cx->cfg_arena, &jb);
        st = run_goldens(cx, a, select, n);
    }
    arena_on_oom(cx->cfg_arena, NULL);
    arena_free(a);
    cx->status = st > cx->status ? st : cx->status;
    return st;
}
