/* api_config.c - the configuration file in the runs (cli.md section 12).
 *
 * The context keeps one config_set (io/config.h) in its own arena; each
 * input's configuration is found by the thread that owns the context
 * while the inputs are listed (files under a DIR operand that an
 * `exclude` glob matches are dropped there), so workers only read it.  A
 * run applies it under the command line: width, temporaries, heads,
 * indent specs, pattern-macro templates, struct layouts, built-in
 * families and disabled warnings.  Also --print-config, and the Lisp
 * reader and template check that io/config borrows.
 */
#include "api_int.h"

#include <setjmp.h>
#include <string.h>

#include "expand/gensym.h"
#include "expand/pcase_macros.h"

/* ---- what io/config borrows ---- */

/* A snippet must read as exactly one complete form. */
struct value *api_read_snippet(void *ctx, struct lisp *L, const char *text,
                                  size_t len, size_t *err_off, const char **why)
{
    (void)ctx;
    struct read_result rd;
    if (!read_source_opts(L, (const uint8_t *)text, len, READ_NO_ORIGIN, &rd)) {
        *err_off = rd.err.pos;
        *why = api_read_error_text(L, &rd.err);
        return NULL;
    }
    if (rd.n_forms == 1)
        return rd.forms[0].v;
    *err_off = rd.n_forms ? rd.forms[1].span.start : 0;
    *why = rd.n_forms ? "more than one form" : "no form at all";
    return NULL;
}

/* Would the expander accept the template?  Asks it, on a scratch table. */
const char *api_check_template(void *ctx, struct lisp *L, struct value *name,
                                  struct value *args, struct value *body)
{
    (void)ctx;
    struct diag_list d;
    struct expand_ctx x;
    diag_init(&d, L->a);
    expand_init(&x, L, &d, NULL);
    x.macros = pcase_macros_new(L);
    if (pcase_macros_define_template(&x, name, args, body))
        return NULL;
    return d.n ? d.items[0].message : "not a pattern-macro template";
}

/* ---- the context's set ---- */

bool api_config_init(struct pcx_ctx *cx)
{
    cx->cfg_arena = arena_new(NULL);
    if (!cx->cfg_arena)
        return false;
    /* ORDER: enum pcx_config */
    static const enum config_mode modes[] = {CONFIG_DISCOVER, CONFIG_FILE,
                                             CONFIG_NONE};
    struct config_params p = {0};
    p.mode = (unsigned)cx->o.config < 3 ? modes[cx->o.config] : CONFIG_DISCOVER;
    p.file = cx->o.config_file;
    p.stdin_path = cx->o.stdin_filepath;
    p.report = cx->rep;
    p.lisp = (struct config_lisp){api_read_snippet, api_check_template, NULL};
    jmp_buf jb;
    if (setjmp(jb) != 0)
        return false;
    arena_on_oom(cx->cfg_arena, &jb);
    cx->configs = config_set_new(cx->cfg_arena, &p);
    arena_on_oom(cx->cfg_arena, NULL);
    return true;
}

/* The path the configuration of in is searched from (NULL: standard
 * input, searched from --stdin-filepath or the current directory). */
static const char *config_path(const struct input *in)
{
    return in->stream ? NULL : in->path ? in->path : in->name;
}

void api_config_input(struct pcx_ctx *cx, struct arena *a, struct input *in)
{
    struct buf msgs;
    buf_init(&msgs, a);
    in->cfg = config_for(cx->configs, config_path(in), &msgs);
    if (!in->cfg) {
        in->cfg_failed = true;
        in->cfg_msgs = msgs.len ? msgs.data : "";
        in->cfg_msgs_len = msgs.len;
    } else if (msgs.len) { /* a distrusted file was passed over */
        api_sink_write(&cx->o.diag, msgs.data, msgs.len);
    }
}

bool api_config_excluded(struct arena *a, const struct input *in)
{
    return in->cfg && config_excludes(a, in->cfg, in->path);
}

void api_config_note(struct pcx_ctx *cx, const struct input *in)
{
    if (!cx->o.verbose || !in->cfg)
        return;
    char msg[1024];
    if (in->cfg->path)
        snprintf(msg, sizeof msg, "configuration %s", in->cfg->path);
    else
        snprintf(msg, sizeof msg, "no configuration file: the built-in defaults");
    api_say(cx, in->name, DIAG_NOTE, NULL, msg);
}

/* ---- in a run ---- */

const struct config *run_config(const struct run *r)
{
    return r->in->cfg ? r->in->cfg : config_defaults();
}

unsigned run_skip_heads(const struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    return o->heads_given ? o->skip_heads : run_config(r)->skip_heads;
}

unsigned run_width(const struct run *r)
{
    return r->cx->o.width ? r->cx->o.width : run_config(r)->width;
}

const char *run_gensym_prefix(const struct run *r)
{
    const char *p = r->cx->o.gensym_prefix;
    return p ? p : run_config(r)->gensym_prefix;
}

void api_config_expander(struct run *r)
{
    /* ORDER: enum pcx_gensyms and enum config_gensyms */
    static const enum gensym_mode modes[] = {GENSYM_RENAME, GENSYM_HASH,
                                             GENSYM_CIRCLE};
    const struct pcx_options *o = &r->cx->o;
    const struct config *cfg = run_config(r);
    struct expand_ctx *x = &r->x;
    unsigned g = o->gensyms_given ? (unsigned)o->gensyms : (unsigned)cfg->gensyms;
    gensym_configure(expand_gensyms(x), modes[g < 3 ? g : 0], run_gensym_prefix(r));
    pcase_macros_set_builtins(x->macros, cfg->builtins);
    struct config_values v;
    const struct config_lisp lisp = {api_read_snippet, api_check_template, NULL};
    if (!config_values(cfg, r->L, &lisp, &v))
        return;
    for (size_t i = 0; i < v.n_templates; i++)
        pcase_macros_define_template(x, v.templates[i].name, v.templates[i].args,
                                     v.templates[i].body);
    for (size_t i = 0; i < v.n_structs; i++)
        pcase_macros_define_struct(x, v.structs[i].name,
                                   (enum pcase_macros_struct_type)v.structs[i].type,
                                   v.structs[i].named, v.structs[i].slots);
}

/* ---- --print-config ---- */

/* The configuration with the command line's values over it. */
static struct config with_options(const struct pcx_options *o,
                                  const struct config *cfg)
{
    struct config c = *cfg;
    if (o->width)
        c.width = o->width;
    if (o->gensyms_given)
        c.gensyms = (enum config_gensyms)o->gensyms;
    if (o->gensym_prefix)
        c.gensym_prefix = o->gensym_prefix;
    if (o->heads_given)
        c.skip_heads = o->skip_heads;
    return c;
}

enum pcx_status pcx_print_config(struct pcx_ctx *cx, const char *input)
{
    struct arena *a = arena_new(NULL);
    enum pcx_status st = PCX_STATUS_ERROR;
    jmp_buf jb;
    if (!a || setjmp(jb) != 0) {
        st = api_say(cx, input ? input : "<stdin>", DIAG_ERROR, "resource",
                     "out of memory");
    } else {
        arena_on_oom(a, &jb);
        arena_on_oom(cx->cfg_arena, &jb);
        struct input in = {.name = input ? input : "<stdin>", .path = input,
                           .stream = input ? NULL : stdin};
        api_config_input(cx, a, &in);
        struct buf out;
        buf_init(&out, a);
        if (in.cfg) {
            struct config c = with_options(&cx->o, in.cfg);
            config_print(&c, a, &out);
            st = api_sink_write(&cx->o.out, out.data, out.len)
                     ? PCX_STATUS_OK
                     : api_say(cx, NULL, DIAG_ERROR, "io", "cannot write the output");
        } else {
            api_sink_write(&cx->o.diag, in.cfg_msgs, in.cfg_msgs_len);
        }
    }
    arena_on_oom(cx->cfg_arena, NULL);
    arena_free(a);
    cx->status = st > cx->status ? st : cx->status;
    return st;
}
