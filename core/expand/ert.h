/* ert.h - ERT's assertions: an expansion error in their form is a
 * run-time signal, as ERT makes it.
 *
 * `should', `should-not', `should-error' (and the skip-when / skip-unless
 * of ert-deftest bodies) expand their FORM themselves with
 * macroexpand-all and, when that signals, use (signal 'ERR 'DATA) as the
 * form instead: a test of an expansion error passes in Emacs.  The driver
 * hands such a form here (expand.c, visit).
 */
#ifndef PCX_ERT_H
#define PCX_ERT_H

#include "expand/expand.h"
#include "syntax/walk.h"

/* Expand the arguments of the assertion `form' (a code position).  FORM,
 * its first argument, is expanded; when that fails with an error whose
 * Emacs signal is known (expand_set_signal), the errors of FORM are
 * dropped, FORM is replaced by (signal 'ERR 'DATA) with a note
 * [ert-expansion-error], and the first error decides, as macroexpand-all
 * stops at it.  The other arguments are code as usual.  *out gets the new
 * form, or NULL when nothing changed; returns WALK_PRUNE. */
enum walk_status ert_assertion(struct expand_ctx *x, struct value *form,
                               struct value **out);

#endif
