/* clean_ignore.c - the pass `ignore': statements that do nothing go.
 *
 * pcase-let and its friends keep the tests Emacs does not check as
 * (ignore TEST) statements (pcase.md 7: a test that can signal must still
 * be made).  A statement whose evaluation has no effect and cannot signal
 * (clean_effect CE_NONE: (ignore (consp x)), a variable, a constant) is
 * taken out of the body it stands in, unless it is the body's last form
 * (its value) or an (ignore VAR...) of variables, which is there to tell
 * the byte compiler that a variable only the pattern reads is used.  A progn left with one form is that form; a progn among
 * the forms of a body is spliced into it.
 */
#include "match/clean_int.h"

/* (ignore VAR...): it silences the byte compiler's unused-variable
 * warning, and stays. */
static bool ignores_variables(const struct clean *c, const struct value *f)
{
    if (f->kind != VK_CONS || clean_car(f) != c->sym[CS_IGNORE] ||
        clean_cdr(f)->kind != VK_CONS)
        return false;
    for (const struct value *l = clean_cdr(f); l->kind == VK_CONS; l = clean_cdr(l))
        if (!clean_variable(c, clean_car(l)))
            return false;
    return true;
}

/* The one variable form reads that may be void, or NULL (none, or more
 * than one). */
static const struct value *only_variable(struct clean *c, const struct value *form,
                                         const struct value *found, bool *many,
                                         unsigned depth)
{
    if (form->kind == VK_SYMBOL) {
        if (clean_variable(c, form) && !clean_temp(form) && form != found) {
            *many |= found != NULL;
            return form;
        }
        return found;
    }
    if (form->kind != VK_CONS || clean_car(form) == c->L->quote || depth > 64)
        return found;
    if (clean_car(form)->kind == VK_SYMBOL) /* a function's name */
        form = clean_cdr(form);
    for (; form->kind == VK_CONS && !*many; form = clean_cdr(form))
        found = only_variable(c, clean_car(form), found, many, depth + 1);
    return found;
}

/* Can statement f go, the forms after it in its body being rest?  When
 * it does nothing at all; or when all it could do is signal for a void
 * variable, which the forms after it read before anything else happens
 * (the same signal, at no other point of what can be seen). */
static bool does_nothing(struct clean *c, const struct value *f, const struct value *rest)
{
    enum clean_effect e = clean_effect(c, f);
    if (e == CE_NONE)
        return true;
    if (e != CE_SIGNAL || clean_effect_bound(c, f) != CE_NONE)
        return false;
    bool many = false;
    const struct value *v = only_variable(c, f, NULL, &many, 0);
    return v && !many && clean_reads_first(c, rest, v);
}

/* Take the statements that do nothing out of the body list at *p (every
 * form but the last is evaluated for effect), and splice its progns. */
static void tidy_body(struct clean *c, struct value **p)
{
    while ((*p)->kind == VK_CONS) {
        struct value *cell = *p, *f = clean_car(cell);
        bool last = clean_cdr(cell)->kind != VK_CONS;
        if (!last && f->kind == VK_CONS && !ignores_variables(c, f) &&
            does_nothing(c, f, clean_cdr(cell))) {
            *p = clean_cdr(cell);
            clean_edited(c);
            continue;
        }
        if (f->kind == VK_CONS && clean_kind(c, f) == CK_PROGN &&
            clean_car(f) == c->sym[CS_PROGN] && clean_cdr(f)->kind == VK_CONS) {
            /* (progn A B) among the forms: A B in its place */
            struct value *l = clean_cdr(f);
            while (clean_cdr(l)->kind == VK_CONS)
                l = clean_cdr(l);
            l->u.cons.cdr = clean_cdr(cell);
            *p = clean_cdr(f);
            clean_edited(c);
            continue;
        }
        p = &cell->u.cons.cdr;
    }
}

static void at(struct clean *c, struct value **slot)
{
    struct value *v = *slot, *args = clean_cdr(v);
    switch (clean_kind(c, v)) {
    case CK_PROGN:
        if (clean_car(v) != c->sym[CS_PROGN])
            return; /* prog1: its first form is the value */
        tidy_body(c, &v->u.cons.cdr);
        if (clean_cdr(v)->kind == VK_CONS && clean_cdr(clean_cdr(v)) == c->L->nil) {
            *slot = clean_car(clean_cdr(v));
            clean_edited(c);
        }
        return;
    case CK_LET:
    case CK_LET_STAR:
    case CK_LAMBDA:
        if (args->kind == VK_CONS)
            tidy_body(c, &args->u.cons.cdr);
        return;
    case CK_IF:
        if (args->kind == VK_CONS && clean_cdr(args)->kind == VK_CONS)
            tidy_body(c, &clean_cdr(args)->u.cons.cdr);
        return;
    case CK_DOLIST:
        if (args->kind == VK_CONS)
            tidy_body(c, &args->u.cons.cdr);
        return;
    case CK_COND:
        for (; args->kind == VK_CONS; args = clean_cdr(args))
            if (clean_car(args)->kind == VK_CONS)
                tidy_body(c, &clean_car(args)->u.cons.cdr);
        return;
    default:
        return;
    }
}

void clean_ignore(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
