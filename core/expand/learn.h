/* learn.h - what the top-level forms of a file define, for the expander.
 *
 * As the byte compiler does, the expander learns from every top-level
 * form of the input, in file order (and from the forms of the files it
 * requires, through a loader the library's top layer provides):
 *   - (require 'F): the loader reads F's file and learns from it;
 *   - defun, defsubst, defmacro, cl-defun, cl-defmacro, defalias, defvar,
 *     defconst: kept for the evaluator (interp.h), which calls them from
 *     pattern-macro and definer-macro bodies;
 *   - pcase-defmacro and cl-defstruct: given to the pattern-macro table
 *     (pcase_macros.h);
 *   - progn, eval-and-compile, eval-when-compile, cl-eval-when and
 *     with-no-warnings: their body forms, as top-level forms;
 *   - a call of a macro of the file or of a required file: expanded by
 *     the evaluator, and its expansion learned from in turn (a definer
 *     macro, such as Emacs 30.1's xref--defstruct, yields a cl-defstruct
 *     or a pcase-defmacro).  One the evaluator cannot run is skipped (a
 *     note with --verbose, and a note at a pattern that then needs what it
 *     might have defined).
 * Nothing is evaluated for its effects: only macro expansions and the
 * values of constants are computed, by the pure evaluator.
 */
#ifndef PCX_LEARN_H
#define PCX_LEARN_H

#include <stdbool.h>

#include "expand/expand.h"
#include "expand/interp.h"

/* What the library's top layer does for the learning (api_load.c). */
struct learn_loader {
    /* (require 'FEATURE [FILENAME]) met: learn from the feature's file
     * (each file once per run; learn_library_form for each of its forms).
     * filename: the string argument, or NULL.  at: the input's form that
     * led here (diagnostics are put there). */
    void (*require)(void *ctx, struct expand_ctx *x, struct value *feature,
                    struct value *filename, const struct value *at);
    /* The definition of the function or macro (variable: of the
     * variable) name in the files required so far, read on demand: a
     * (defun NAME ...)-like form, or NULL.  *origin gets the file's name
     * as diagnostics show it. */
    struct value *(*definition)(void *ctx, struct expand_ctx *x, struct value *name,
                                bool variable, const char **origin);
    void *ctx;
};

/* Use loader l (kept by reference; NULL: requires are not followed). */
void learn_set_loader(struct expand_ctx *x, const struct learn_loader *l);

/* Learn from a top-level form of the input. */
void learn_form(struct expand_ctx *x, struct value *form);

/* Learn from a top-level form of a required file: origin names the file
 * (notes and messages say it), at is the input's form diagnostics go to. */
void learn_library_form(struct expand_ctx *x, struct value *form, const char *origin,
                        const struct value *at);

/* The function or macro sym as the evaluator calls it (the file's, else
 * the required files'), or NULL. */
const struct interp_fn *learn_function(struct expand_ctx *x, struct value *sym);

/* Where the function of a learn_function result was defined: the
 * required file's name, or NULL for the input itself. */
const char *learn_origin(struct expand_ctx *x, const struct interp_fn *fn);

/* The evaluator's host for x: learn_function, the file's constants, the
 * expander's temporaries for make-symbol and gensym, the run's budget. */
const struct interp_host *learn_host(struct expand_ctx *x);

/* A note at `at` about the definer calls skipped so far (the last few),
 * for a pattern that needs a definition nobody gave: they may be where it
 * was meant to come from.  Nothing when none was skipped. */
void learn_note_skipped(struct expand_ctx *x, const struct value *at, const char *code);

/* Is head a form learn_form handles itself (require, defun, progn...)? */
bool learn_is_definition_head(const char *head);

/* Are the tables sorted (for tests)? */
bool learn_tables_sorted(void);

#endif
