/* api_out.c - what printing modes other than Lisp print (api_int.h).
 *
 * --format=yaml|json records (cli.md 4.5), built as io/yaml trees and
 * emitted as one YAML document or one JSON line per replaced form;
 * --dump=pat|dtree stage dumps (cli.md 4.6) from the pcase front end;
 * the --stats line (cli.md section 15).
 */
#include "api_int.h"

#include <string.h>

#include "expand/pcase.h"
#include "io/yaml.h"

/* ---- records ---- */

static struct yaml_node *record_stats(struct arena *a, const struct run_site *s,
                                      size_t bytes)
{
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    yaml_put(a, m, "memo_hits", yaml_new_int(a, (long long)s->st.memo_hits));
    yaml_put(a, m, "memo_misses", yaml_new_int(a, (long long)s->st.memo_misses));
    yaml_put(a, m, "temporaries", yaml_new_int(a, (long long)s->st.temporaries));
    yaml_put(a, m, "bytes", yaml_new_int(a, (long long)bytes));
    return m;
}

/* The record of site s, whose replacement text is t. */
static struct yaml_node *record(struct run *r, const struct run_site *s,
                                const struct splice_text *t)
{
    struct arena *a = r->a;
    struct span sp = {0, 0};
    read_origin_span(&r->rd, s->orig, &sp);
    struct source_pos p0 = run_pos(r, sp.start), p1 = run_pos(r, sp.end);
    const char *name = r->in->name;
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    yaml_put(a, m, "file", yaml_new_string(a, name, strlen(name)));
    yaml_put(a, m, "line", yaml_new_int(a, p0.line));
    yaml_put(a, m, "column", yaml_new_int(a, p0.col));
    yaml_put(a, m, "end_line", yaml_new_int(a, p1.line));
    yaml_put(a, m, "end_column", yaml_new_int(a, p1.col));
    yaml_put(a, m, "macro", yaml_new_string(a, s->head, strlen(s->head)));
    yaml_put(a, m, "original",
             yaml_new_string(a, (const char *)r->text + sp.start,
                             sp.end - sp.start));
    yaml_put(a, m, "expansion", yaml_new_string(a, t->text, t->len));
    yaml_put(a, m, "stats", record_stats(a, s, t->len));
    return m;
}

void out_records(struct run *r, const struct splice_text *texts)
{
    bool json = r->cx->o.format == PCX_FORMAT_JSON;
    for (size_t i = 0; i < r->n_sites; i++) {
        struct yaml_node *m = record(r, &r->sites[i], &texts[i]);
        if (!json)
            buf_puts(&r->out, "---\n");
        yaml_emit(&r->out, m, json ? YAML_EMIT_JSON : YAML_EMIT_BLOCK);
        if (json)
            buf_putc(&r->out, '\n');
    }
}

/* ---- dumps ---- */

/* The dump of one pcase-family site, with the expander's diagnostics and
 * counters put aside (the site was expanded once already: what it has to
 * say has been said). */
static void dump_site(struct run *r, const struct run_site *s)
{
    struct expand_ctx *x = &r->x;
    struct expand_stats saved = x->stats;
    struct diag_list *real = x->diags, scratch;
    diag_init(&scratch, r->a);
    x->diags = &scratch;
    enum pcase_dump_kind kind = r->cx->o.dump == PCX_DUMP_PAT ? PCASE_DUMP_PAT
                                                              : PCASE_DUMP_DTREE;
    pcase_dump(x, s->orig, kind, &r->out);
    x->stats = saved;
    x->diags = real;
}

void out_dumps(struct run *r)
{
    for (size_t i = 0; i < r->n_sites; i++) {
        const struct run_site *s = &r->sites[i];
        struct span sp = {0, 0};
        read_origin_span(&r->rd, s->orig, &sp);
        struct source_pos p = run_pos(r, sp.start);
        buf_printf(&r->out, ";;; %s:%u:%u %s\n", r->in->name, p.line, p.col,
                   s->head);
        if (expand_head_bit(s->head) <= 0)
            buf_puts(&r->out, "; outside a cond* condition: replaced by nil\n");
        else if (expand_head_bit(s->head) == EXPAND_HEAD_COND_STAR)
            buf_puts(&r->out, "; cond* is compiled clause by clause, "
                              "without a pattern IR or decision DAG\n");
        else
            dump_site(r, s);
    }
}

/* ---- statistics ---- */

void out_stats_line(struct buf *b, const char *name, const struct pcx_stats *s,
                    uint64_t ns)
{
    buf_puts(b, "pcexpand: stats: ");
    if (name)
        buf_printf(b, "file=%s", name);
    else
        buf_printf(b, "files=%zu", s->files);
    buf_printf(b, " forms=%zu memo-hits=%zu memo-misses=%zu temporaries=%zu "
                  "output-bytes=%zu time-ms=%llu\n",
               s->expanded, s->memo_hits, s->memo_misses, s->temporaries,
               s->bytes_out, (unsigned long long)(ns / 1000000u));
}
