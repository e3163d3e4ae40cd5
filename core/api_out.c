/* api_out.c - what printing modes other than Lisp print (api_int.h).
 *
 * --format=yaml|json records (cli.md 4.5), built as io/yaml trees and
 * emitted as one YAML document or one JSON line per replaced form;
 * --dump=pat|dtree stage dumps (cli.md 4.6) from the pcase front end,
 * as text or (dtree) Graphviz DOT; --explain (cli.md 4.7) as text or as
 * records;
 * the --stats line (cli.md section 15).
 */
#include "api_int.h"

#include <string.h>

#include "expand/condstar.h"
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
    enum pcase_dump_kind kind = r->cx->o.dump == PCX_DUMP_PAT     ? PCASE_DUMP_PAT
                              : r->cx->o.dump == PCX_DUMP_CLEAN ? PCASE_DUMP_CLEAN
                              : r->cx->o.format == PCX_FORMAT_DOT ? PCASE_DUMP_DOT
                                                                : PCASE_DUMP_DTREE;
    pcase_dump(x, s->orig, kind, &r->out);
    x->stats = saved;
    x->diags = real;
}

void out_dumps(struct run *r)
{
    bool dot = r->cx->o.format == PCX_FORMAT_DOT;
    /* DOT has no line comments of Lisp's kind: the same words in C's */
    const char *open = dot ? "/* " : ";;; ", *close = dot ? " */" : "";
    const char *note = dot ? "/* " : "; ";
    for (size_t i = 0; i < r->n_sites; i++) {
        const struct run_site *s = &r->sites[i];
        struct span sp = {0, 0};
        read_origin_span(&r->rd, s->orig, &sp);
        struct source_pos p = run_pos(r, sp.start);
        buf_puts(&r->out, open);
        report_put_text(&r->out, r->in->name);
        buf_printf(&r->out, ":%u:%u %s%s\n", p.line, p.col, s->head, close);
        if (expand_head_bit(s->head) <= 0)
            buf_printf(&r->out, "%soutside a cond* condition: replaced by nil%s\n", note,
                       close);
        else if (expand_head_bit(s->head) == EXPAND_HEAD_COND_STAR)
            buf_printf(&r->out, "%scond* is compiled clause by clause, "
                                "without a pattern IR or decision DAG%s\n", note, close);
        else
            dump_site(r, s);
    }
}

/* ---- explanations ---- */

/* Where the first clause of section s is written (its text offset). */
static uint32_t section_start(struct run *r, const struct explain_section *s)
{
    struct span sp = {0, 0};
    if (s->n_clauses && s->clauses[0].at)
        read_origin_span(&r->rd, s->clauses[0].at, &sp);
    return sp.start;
}

/* Sections in text order: pcase-let* compiles its last binding first.
 * Insertion sort: a form has a few sections. */
static void sort_sections(struct run *r, struct pcase_explain_out *o)
{
    for (size_t i = 1; i < o->n; i++) {
        struct explain_section s = o->secs[i];
        uint32_t k = section_start(r, &s);
        size_t j = i;
        for (; j > 0 && section_start(r, &o->secs[j - 1]) > k; j--)
            o->secs[j] = o->secs[j - 1];
        o->secs[j] = s;
    }
}

/* The sections of one site, with the expander's diagnostics and counters
 * put aside as for dumps.  Clause positions are filled in. */
static struct pcase_explain_out explain_site(struct run *r, const struct run_site *s)
{
    struct expand_ctx *x = &r->x;
    struct expand_stats saved = x->stats;
    struct diag_list *real = x->diags, scratch;
    diag_init(&scratch, r->a);
    x->diags = &scratch;
    struct pcase_explain_out o = {NULL, 0, 0};
    if (expand_head_bit(s->head) == EXPAND_HEAD_COND_STAR)
        condstar_explain(x, s->orig, &o);
    else if (expand_head_bit(s->head) > 0)
        pcase_explain(x, s->orig, &o);
    x->stats = saved;
    x->diags = real;
    sort_sections(r, &o);
    for (size_t k = 0; k < o.n; k++)
        for (size_t j = 0; j < o.secs[k].n_clauses; j++) {
            struct explain_clause *c = &o.secs[k].clauses[j];
            struct span sp = {0, 0};
            if (c->at && read_origin_span(&r->rd, c->at, &sp)) {
                struct source_pos p = run_pos(r, sp.start);
                c->line = p.line;
                c->col = p.col;
            }
        }
    return o;
}

static struct yaml_node *str_node(struct arena *a, const char *s)
{
    return s ? yaml_new_string(a, s, strlen(s)) : yaml_new_plain(a, "null");
}

static struct yaml_node *str_list(struct arena *a, const char *const *v, size_t n)
{
    struct yaml_node *l = yaml_new(a, YAML_SEQ);
    for (size_t i = 0; i < n; i++)
        yaml_push(a, l, str_node(a, v[i]));
    return l;
}

static struct yaml_node *clause_record(struct run *r, const struct explain_clause *c)
{
    struct arena *a = r->a;
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    yaml_put(a, m, "clause", yaml_new_int(a, c->index + 1));
    yaml_put(a, m, "line", yaml_new_int(a, c->line));
    yaml_put(a, m, "column", yaml_new_int(a, c->col));
    yaml_put(a, m, "pattern", str_node(a, c->pattern ? explain_show(r->x.L, c->pattern) : NULL));
    yaml_put(a, m, "example", str_node(a, c->example));
    yaml_put(a, m, "reachable", yaml_new_bool(a, !c->unreachable));
    struct yaml_node *by = yaml_new(a, YAML_SEQ);
    for (size_t i = 0; i < c->n_shadow; i++)
        yaml_push(a, by, yaml_new_int(a, c->shadow[i] + 1));
    yaml_put(a, m, "shadowed_by", by);
    yaml_put(a, m, "when", str_list(a, c->when, c->unreachable ? 0 : c->n_when));
    yaml_put(a, m, "binds", str_list(a, c->binds, c->unreachable ? 0 : c->n_binds));
    return m;
}

static struct yaml_node *call_record(struct arena *a, const struct explain_call *c)
{
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    yaml_put(a, m, "call", str_node(a, c->form));
    yaml_put(a, m, "kind", str_node(a, c->kind));
    yaml_put(a, m, "at_most", yaml_new_int(a, c->at_most));
    yaml_put(a, m, "after", str_list(a, c->after, c->n_after));
    yaml_put(a, m, "order_varies", yaml_new_bool(a, c->order_varies));
    return m;
}

static const char *const kind_words[] = {"match", "destructure", "cond*"};

static struct yaml_node *section_record(struct run *r, const struct run_site *s, size_t k,
                                        const struct explain_section *sec)
{
    struct arena *a = r->a;
    struct span sp = {0, 0};
    read_origin_span(&r->rd, s->orig, &sp);
    struct source_pos p0 = run_pos(r, sp.start);
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    yaml_put(a, m, "file", str_node(a, r->in->name));
    yaml_put(a, m, "line", yaml_new_int(a, p0.line));
    yaml_put(a, m, "column", yaml_new_int(a, p0.col));
    yaml_put(a, m, "macro", str_node(a, s->head));
    yaml_put(a, m, "section", yaml_new_int(a, (long long)k + 1));
    yaml_put(a, m, "kind", str_node(a, kind_words[sec->kind]));
    yaml_put(a, m, "subject", str_node(a, sec->subject));
    yaml_put(a, m, "subject_note", str_node(a, sec->subject_note));
    struct yaml_node *cl = yaml_new(a, YAML_SEQ);
    for (size_t i = 0; i < sec->n_clauses; i++)
        yaml_push(a, cl, clause_record(r, &sec->clauses[i]));
    yaml_put(a, m, "clauses", cl);
    yaml_put(a, m, "no_match", str_node(a, sec->no_match));
    yaml_put(a, m, "witness", str_node(a, sec->witness));
    yaml_put(a, m, "depends_on", str_list(a, sec->depends, sec->n_depends));
    struct yaml_node *calls = yaml_new(a, YAML_SEQ);
    for (size_t i = 0; i < sec->n_calls; i++)
        yaml_push(a, calls, call_record(a, &sec->calls[i]));
    yaml_put(a, m, "calls", calls);
    return m;
}

void out_explain(struct run *r)
{
    enum pcx_format f = r->cx->o.format;
    for (size_t i = 0; i < r->n_sites; i++) {
        const struct run_site *s = &r->sites[i];
        struct pcase_explain_out o = explain_site(r, s);
        if (f == PCX_FORMAT_LISP) {
            struct span sp = {0, 0};
            read_origin_span(&r->rd, s->orig, &sp);
            struct source_pos p = run_pos(r, sp.start);
            buf_printf(&r->out, ";;; %s:%u:%u %s\n", r->in->name, p.line, p.col, s->head);
            if (expand_head_bit(s->head) <= 0)
                buf_puts(&r->out, "; outside a cond* condition: replaced by nil\n");
            for (size_t k = 0; k < o.n; k++) {
                if (k)
                    buf_puts(&r->out, "\n");
                explain_render(r->x.L, &r->out, &o.secs[k]);
            }
            continue;
        }
        for (size_t k = 0; k < o.n; k++) {
            if (f != PCX_FORMAT_JSON)
                buf_puts(&r->out, "---\n");
            yaml_emit(&r->out, section_record(r, s, k, &o.secs[k]),
                      f == PCX_FORMAT_JSON ? YAML_EMIT_JSON : YAML_EMIT_BLOCK);
            if (f == PCX_FORMAT_JSON)
                buf_putc(&r->out, '\n');
        }
    }
}

/* ---- statistics ---- */

void out_stats_line(struct buf *b, const char *name, const struct pcx_stats *s,
                    uint64_t ns)
{
    buf_puts(b, "pcexpand: stats: ");
    if (name) {
        buf_puts(b, "file=");
        report_put_text(b, name);
    } else {
        buf_printf(b, "files=%zu", s->files);
    }
    buf_printf(b, " forms=%zu memo-hits=%zu memo-misses=%zu temporaries=%zu "
                  "output-bytes=%zu time-ms=%llu\n",
               s->expanded, s->memo_hits, s->memo_misses, s->temporaries,
               s->bytes_out, (unsigned long long)(ns / 1000000u));
}
