/* ert.c - ERT's assertions (ert.h).
 *
 * In order: the error that decides (the first recorded inside FORM), the
 * signal form that replaces FORM, the other arguments, and ert_assertion.
 */
#include "expand/ert.h"

#include <string.h>

/* Index of the first error diagnostic at or after mark. */
static size_t first_error(const struct diag_list *d, size_t mark)
{
    size_t i = mark;
    while (i < d->n && d->items[i].sev != DIAG_ERROR)
        i++;
    return i;
}

/* (signal 'ERR 'DATA) for err = (ERR . DATA). */
static struct value *signal_form(struct lisp *L, struct value *err)
{
    struct value *q_err = lisp_listv(L, L->quote, value_car(err), NULL);
    struct value *q_data = lisp_listv(L, L->quote, value_cdr(err), NULL);
    return lisp_listv(L, INTERN_LIT(L, "signal"), q_err, q_data, NULL);
}

/* The errors of FORM, recorded from diagnostic `mark' and site `sites'
 * on, become ERT's run-time signal: FORM's replacement, or NULL when the
 * deciding error's signal is not known (the errors then stay). */
static struct value *as_signal(struct expand_ctx *x, struct value *form,
                               struct value *body, size_t mark, size_t sites,
                               size_t forms)
{
    struct diag_list *d = x->diags;
    const char *head = value_car(form)->u.sym.name;
    struct diag *e = &d->items[first_error(d, mark)];
    struct value *err = (struct value *)e->detail;
    if (!err) {
        expand_diag(x, DIAG_NOTE, body, "ert-expansion-error",
                    "%s would signal this expansion error when the test runs, "
                    "but which error Emacs signals for it is not known", head);
        return NULL;
    }
    size_t len = strlen(e->message);
    char *message = arena_strndup(x->L->a, e->message, len);
    diag_truncate(d, mark);
    x->n_sites = sites;
    x->stats.forms = forms;
    struct value *sig = signal_form(x->L, err);
    expand_diag(x, DIAG_NOTE, body, "ert-expansion-error",
                "expanding the form of %s fails (%s); as in ERT, the form is "
                "replaced by the run-time signal of that error", head, message);
    expand_add_site(x, body, sig, head);
    return sig;
}

/* The arguments after FORM, each code: walked as the body of a progn. */
static struct value *rest_args(struct expand_ctx *x, struct value *rest)
{
    if (!value_consp(rest))
        return rest;
    struct value *progn = value_cons(x->L->a, INTERN_LIT(x->L, "progn"), rest);
    struct value *r = expand_code_partial(x, progn);
    return r ? value_cdr(r) : rest;
}

enum walk_status ert_assertion(struct expand_ctx *x, struct value *form,
                               struct value **out)
{
    *out = NULL;
    struct value *args = value_cdr(form);
    if (!value_consp(args))
        return WALK_PRUNE;
    struct value *body = value_car(args);
    size_t mark = x->diags->n, errors = x->diags->n_errors;
    size_t sites = x->n_sites, forms = x->stats.forms;
    struct value *nb = expand_code_partial(x, body);
    if (x->diags->n_errors > errors) {
        struct value *sig = as_signal(x, form, body, mark, sites, forms);
        nb = sig ? sig : nb;
    }
    if (!nb)
        nb = body;
    struct value *rest = value_cdr(args);
    struct value *nrest = rest_args(x, rest);
    if (nb == body && nrest == rest)
        return WALK_PRUNE;
    struct value *tail = value_cons(x->L->a, nb, nrest);
    *out = value_cons(x->L->a, value_car(form), tail);
    expand_copied(x, *out, form);
    expand_copied(x, tail, args);
    return WALK_PRUNE;
}
