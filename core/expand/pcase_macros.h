/* pcase_macros.h - pattern macros: pattern -> pattern rewriting.
 *
 * Stage "normalise" of the pcase front end (pcase.md 2.1, 2.7): a pattern
 * whose head is not core becomes one whose head is core, through library
 * macros (seq, map, rx, cl-type, cl-struct, eieio) or templates declared in
 * the configuration or by pcase-defmacro forms of the input (pcase.md 1.8).
 */
#ifndef PCX_PCASE_MACROS_H
#define PCX_PCASE_MACROS_H

#include <stdbool.h>

#include "expand/expand.h"
#include "expand/rx.h"

/* Per-run table of pattern macros and struct layouts (arena-owned). */
struct pcase_macros;

/* Built-in macro families, for `builtin-pattern-macros:` (cli.md 12). */
enum pcase_macros_builtin {
    PCASE_MACROS_SEQ = 1u << 0,
    PCASE_MACROS_MAP = 1u << 1,
    PCASE_MACROS_RX = 1u << 2,
    PCASE_MACROS_CL_TYPE = 1u << 3,
    PCASE_MACROS_CL_STRUCT = 1u << 4,
    PCASE_MACROS_EIEIO = 1u << 5,
    PCASE_MACROS_ALL = (1u << 6) - 1,
};

/* Representation of a cl-defstruct (cli.md 12 `structs:`). */
enum pcase_macros_struct_type {
    PCASE_STRUCT_RECORD, /* default: a record, slot i at index i + 1 */
    PCASE_STRUCT_VECTOR, /* (:type vector) */
    PCASE_STRUCT_LIST,   /* (:type list) */
};

/* A fresh table for one run: all built-ins enabled, no templates, no
 * structs.  Allocated from L's arena; never NULL. */
struct pcase_macros *pcase_macros_new(struct lisp *L);

/* Forget the definitions learned from the previous input file (templates
 * from pcase-defmacro forms, layouts from cl-defstruct forms, rx
 * definitions); declared ones (configuration) stay. */
void pcase_macros_begin_file(struct pcase_macros *m);

/* Enable exactly the built-in families in mask (PCASE_MACROS_*). */
void pcase_macros_set_builtins(struct pcase_macros *m, unsigned mask);

/* Is head_symbol the head of a pattern macro (enabled built-in or a
 * declared template)?  False for core heads and for non-symbols.  When
 * x->macros is NULL, a default table (all built-ins) is created there. */
bool pcase_macros_is_macro(struct expand_ctx *x, struct value *head_symbol);

/* Rewrite pattern (a cons whose car is not a core head) until its head is
 * core, and return the result; sub-patterns are not normalised here (the
 * caller's normaliser recurses and calls back for nested macro heads; its
 * depth guard stops templates that recurse through sub-patterns).  NULL
 * after recording an error through expand_diag: unknown-pattern for an
 * unknown head (plus a note saying how to declare it), malformed-pattern
 * for bad arguments and for an error an evaluated body signals,
 * macro-eval for a body that calls a function the evaluator does not
 * have, nesting-too-deep when a template keeps producing macro heads
 * (more than x->max_depth rewrites, or 200 when that is 0) or an
 * evaluation passes a limit.  A cl-struct pattern without a known layout
 * reads its slots at run time and gets the note struct-layout-unknown.
 * May record warnings (map-default-ignored).  Sets x->missed when a
 * definition was missing.  x->macros is created on first use. */
struct value *pcase_macros_expand(struct expand_ctx *x, struct value *pattern);

/* Declare a template macro NAME: arglist is a lambda list (&optional with
 * (VAR DEFAULT) defaults, &rest), template_body one backquote form
 * `(\` TEMPLATE)` whose only computation is `,ARG` and `,@ARG`.  A later
 * definition of the same name replaces an earlier one.  Returns false after
 * recording a `config' error when arglist or body is not of that shape
 * (the value has no source position: callers may report their own). */
bool pcase_macros_define_template(struct expand_ctx *x, struct value *name,
                                  struct value *arglist,
                                  struct value *template_body);

/* Declare a struct layout (configuration `structs:`): slots in order,
 * including inherited ones (a list of symbols); named: for vector/list
 * types, the type tag occupies the first slot.  Replaces an earlier
 * layout of the same name. */
void pcase_macros_define_struct(struct expand_ctx *x, struct value *name,
                                enum pcase_macros_struct_type type, bool named,
                                struct value *slots);

/* What a table holds that learning adds to, at its end: the names from
 * an earlier count on are what was learned since. */
enum pcase_macros_kind {
    PCASE_MACROS_KIND_MACRO,  /* pattern macros (templates, evaluated) */
    PCASE_MACROS_KIND_STRUCT, /* struct layouts */
    PCASE_MACROS_KIND_RX,     /* rx-define names */
};
size_t pcase_macros_count(const struct pcase_macros *m, enum pcase_macros_kind k);
const struct value *pcase_macros_name(const struct pcase_macros *m, enum pcase_macros_kind k,
                                      size_t i);

/* Are the module's name tables sorted and duplicate-free (for tests)? */
bool pcase_macros_tables_sorted(void);

/* Learn from a definition form met in the input or in a file it requires
 * (learn.h calls this in file order): `(pcase-defmacro NAME ARGS [DOC]
 * [(declare ...)] BODY...)` registers a pattern macro, a template when
 * BODY is one backquote form, else a function the evaluator (interp.h)
 * runs at each use; `(cl-defstruct NAME-OR-(NAME OPTIONS...) [DOC]
 * SLOTS...)` registers a layout; `(rx-define NAME [ARGS] RX)` an rx
 * definition.  A learned macro named like an enabled built-in family
 * (seq.el's own `seq') never replaces the built-in.  origin: the required
 * file's name (messages say it), NULL for the input.  Returns the name
 * defined, or NULL (other forms, malformed ones).  Never records an error:
 * a body that cannot be evaluated is reported at the pattern that uses it,
 * a malformed rx-define of the input by pcase_macros_check_definition (a
 * split input's parts learn the forms before them without reporting on
 * them). */
struct value *pcase_macros_learn_from(struct expand_ctx *x, struct value *form,
                                      const char *origin);

/* pcase_macros_learn_from a form of the input: true when something was
 * registered. */
bool pcase_macros_learn(struct expand_ctx *x, struct value *form);

/* The error Emacs gives for a definition form pcase_macros_learn could not
 * register (an rx-define with a bad name or argument list): recorded at
 * the form; false then, true for every other form. */
bool pcase_macros_check_definition(struct expand_ctx *x, struct value *form);

/* The run's rx definitions (rx.h), for rx-let scopes and for definitions
 * read from other files (rx_define_add).  Created with the table. */
struct rx_env *pcase_macros_rx_env(struct expand_ctx *x);

#endif
