/* minieval.h - a tiny Emacs Lisp evaluator for the printer's tests (test
 * only): builds the objects of printer-cases.tsv from the few functions its
 * expressions use (list, intern, let, setcdr, aset, record, propertize,
 * puthash, ...); anything else (byte-compile, buffers, closures,
 * char-tables, cl-defstruct) is reported as unsupported.
 */
#ifndef PCX_TEST_MINIEVAL_H
#define PCX_TEST_MINIEVAL_H

#include <stdbool.h>

#include "lisp/intern.h"

/* Evaluate form.  True and *out on success; false with *why naming the
 * unsupported function or the problem. */
bool minieval(struct lisp *L, struct value *form, struct value **out,
              const char **why);

/* Emacs's `equal`, also on circular data (pairs met again count as equal,
 * as Emacs 28's cycle-aware equal decides for the table's cases). */
bool minieval_equal(const struct value *x, const struct value *y);

#endif
