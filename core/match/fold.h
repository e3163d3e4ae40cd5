/* fold.h - calls Emacs 30 makes on pattern constants while it compiles.
 *
 * When Emacs 30.1 compiles (app FUN PAT) on a subject, it refines every
 * later (quote C) leaf on that subject into a test of FUN's result against
 * (funcall FUN C), computed there and then (pcase.md 3.7): FUN is called
 * by the compiler.  pcexpand runs no user code, so it makes only the
 * calls whose answer it knows: a FUN that is a symbol of its table of
 * built-in functions (car, cdr, length, type-of, symbol-name, type
 * predicates...) or a `(lambda (ARG) BODY...)` whose body is made of
 * constants, the argument and calls of that table.  Any other call is
 * taken to fail, as in Emacs a function that is not defined while the
 * code is compiled (a file's own functions, when the file is compiled):
 * the leaf is then not refined, in Emacs too.
 *
 * Functions, in order: fold_call, fold_other_part, fold_check_table.
 */
#ifndef PCX_FOLD_H
#define PCX_FOLD_H

#include <stdbool.h>

#include "lisp/intern.h"

/* Emacs's (funcall fun arg) as Emacs 30.1 makes it while compiling: true
 * with the result in *out (values made in L->a), false when Emacs's call
 * signals or pcexpand does not know it (see above). */
bool fold_call(struct lisp *L, const struct value *fun, struct value *arg,
               struct value **out);

/* For fun car or car-safe: the symbol cdr-safe; for cdr or cdr-safe:
 * car-safe; else NULL.  Emacs refines a cons constant through these by its
 * two parts (the part fun does not see is tested through the other). */
struct value *fold_other_part(struct lisp *L, const struct value *fun);

/* Index of the first row of the function table not sorted after its
 * predecessor, or -1 (tests). */
long fold_check_table(void);

#endif
