/* pcase_explain.c - the --explain section of one compilation.
 *
 * The pcase front end's share of --explain (cli.md 4.7): what only it
 * knows (the head, the subject and the clauses as written, the implicit
 * clauses, which clauses take an unreachable one's values) around what
 * match/explain says of the patterns and the DAG.
 *
 * Functions, in order: pcase_explain_section.
 */
#include "expand/pcase_int.h"

#include <string.h>

static struct explain_section *new_section(struct pcase_explain_out *o, struct arena *a)
{
    if (o->n == o->cap) {
        size_t ncap = o->cap * 2 + 2;
        o->secs = arena_grow(a, o->secs, o->cap * sizeof *o->secs, ncap * sizeof *o->secs);
        o->cap = ncap;
    }
    struct explain_section *s = &o->secs[o->n++];
    memset(s, 0, sizeof *s);
    return s;
}

/* The head of the form explained. */
static const char *head_name(const struct pcase_run *c)
{
    const struct value *h = c->site && c->site->kind == VK_CONS ? value_car(c->site) : NULL;
    return h && h->kind == VK_SYMBOL ? h->u.sym.name : "pcase";
}

/* The clause no value of the user's chose, when there is one: the
 * implicit error of pcase-exhaustive, or a cond* pcase*'s fallback. */
static long implicit_target(const struct pcase_run *c, const struct pcase_clause *cl, size_t n)
{
    if (c->describe >= 0)
        return c->describe;
    return n && cl[n - 1].dontwarn && !cl[n - 1].form ? (long)n - 1 : WITNESS_NO_MATCH;
}

void pcase_explain_section(struct pcase_run *c, struct memo_ctx *m, const struct subj *root,
                           struct value *subject, const struct pcase_clause *cl, size_t n,
                           const struct dnode *dag, const struct pcase_shadow *sh)
{
    struct explain_section *sec = new_section(c->explain, c->L->a);
    bool destructure = n && cl[n - 1].dontcare;
    sec->kind = destructure ? EXPLAIN_DESTRUCTURE : EXPLAIN_MATCH;
    sec->head = head_name(c);
    explain_subject(m, sec, root, subject);
    if (c->written) { /* a temporary of the form's own: say what it holds */
        /* pcase-lambda's argument has no text: its note says which */
        sec->subject = c->written == subject ? "(an argument)" : explain_show(c->L, c->written);
        sec->subject_note = c->written_note;
        sec->name = "VAL";
    }
    sec->clauses = ARENA_NEWN(c->L->a, struct explain_clause, n + 1);
    for (size_t i = 0; i < n; i++) {
        if (cl[i].dontcare || cl[i].dontwarn)
            continue;
        struct explain_clause *e = &sec->clauses[sec->n_clauses++];
        memset(e, 0, sizeof *e);
        e->index = (uint32_t)i;
        e->pattern = cl[i].pattern;
        e->at = cl[i].form ? cl[i].form : cl[i].cell;
        explain_clause(m, sec, root, cl[i].pat, e);
        if (!destructure)
            explain_example(m, root, cl[i].pat, e);
        if (sh && sh[i].unreachable) {
            e->unreachable = true;
            e->shadow = sh[i].by;
            e->n_shadow = sh[i].n;
        }
    }
    if (!destructure)
        explain_no_match(m, sec, root, dag, implicit_target(c, cl, n));
    explain_calls(m, sec, root, dag);
}
