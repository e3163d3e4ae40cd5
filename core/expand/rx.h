/* rx.h - the rx notation (rx.el) translated to an Emacs regexp, and the
 * rx definitions (rx-define, rx-let) it expands.
 *
 * Used by the `rx` pattern macro (pcase.md 2.7): the regexp is computed at
 * expansion time as Emacs 30.1's rx--to-expr computes it, with the names
 * of the definition environment (struct rx_env) expanded as rx.el expands
 * them.  Names neither rx nor the environment defines, and `eval` forms
 * whose argument is not a constant, give a run-time rx-to-string.
 */
#ifndef PCX_RX_H
#define PCX_RX_H

#include <stdbool.h>
#include <stdint.h>

#include "lisp/intern.h"

enum rx_error_kind {
    RX_ERR_NONE,
    RX_ERR_FORM,      /* Emacs's rx error: message is its text */
    RX_ERR_TOO_DEEP,  /* nesting beyond RX_MAX_DEPTH, more than RX_MAX_STEPS
                         steps, or a definition that expands into itself
                         (message says which) */
    RX_ERR_RUNTIME,   /* a name nobody defines here or a non-constant eval,
                         where a run-time rx-to-string cannot stand in (a
                         run-time literal/regexp, or rx-let definitions in
                         scope) */
};

struct rx_error {
    enum rx_error_kind kind;
    const char *message;       /* formatted, arena-owned */
    const struct value *at;    /* offending sub-form (may be generated) */
};

/* Deepest rx nesting translated (deeper input is an error, not a crash);
 * nested definition expansions count as nesting. */
#define RX_MAX_DEPTH 500
/* Translation steps (forms translated, normalised or substituted) of one
 * form: definitions that double their text at each level stop here. */
#define RX_MAX_STEPS 1000000

/* ---- definitions ----
 * One environment per run, as Emacs has one obarray: rx-define's global
 * definitions (latest wins, as `put` on the name's rx-definition
 * property), and a stack of rx-let scopes (innermost first; within one
 * rx-let, its first binding of a name).  Local definitions shadow global
 * ones, and a definition's body sees the definitions in effect where it is
 * used (rx.el looks names up dynamically).  Definitions are arena-owned;
 * the environment keeps the values it is given (never copies them). */
struct rx_env;

struct rx_env *rx_env_new(struct lisp *L);

/* Register a global definition, as (rx-define NAME BODY) when args is
 * NULL, else as (rx-define NAME ARGS BODY); ARGS is a list of symbols
 * where `&rest NAME` takes the remaining arguments.  The checks of
 * rx--make-binding apply (a symbol, not a built-in rx name, ARGS a list of
 * symbols): false with Emacs's message in *err (nothing registered) when
 * one fails.  For the definitions of the input (rx_define_form) and of the
 * files it requires. */
bool rx_define_add(struct rx_env *env, struct value *name, struct value *args,
                   struct value *body, struct rx_error *err);

/* Register a whole (rx-define NAME [ARGS] RX) form; false with Emacs's
 * message in *err when Emacs would refuse it (nothing registered).  A form
 * with another head is refused with err->kind RX_ERR_NONE. */
bool rx_define_form(struct rx_env *env, struct value *form,
                    struct rx_error *err);

/* Forget the global definitions (the next input file starts afresh). */
void rx_env_begin_file(struct rx_env *env);

/* Enter the scope of (rx-let BINDINGS ...): each binding is
 * (NAME [ARGS] RX), checked as Emacs checks it; false with Emacs's message
 * in *err (nothing entered) when one is bad.  Leave it with rx_env_pop. */
bool rx_env_push_let(struct rx_env *env, struct value *bindings,
                     struct rx_error *err);
void rx_env_pop(struct rx_env *env);

/* ---- translation ---- */

/* Translate the rx form (normally (seq RX...)) to a Lisp expression
 * yielding the regexp, as rx--to-expr does with the definitions of env
 * (may be NULL: none), its rx-let scopes included when locals is set
 * (rx-to-string, which cond*'s rx pattern calls, sees only rx-define's
 * definitions): a string when everything is constant, else
 * (concat ...) / (regexp-quote E) / E for `literal` and `regexp` forms
 * with non-constant arguments, or (rx-to-string 'FORM t) when FORM uses a
 * name nobody defines here or a non-constant `eval`.
 * Returns NULL and fills *err on error. */
struct value *rx_translate(struct lisp *L, const struct rx_env *env,
                           bool locals, struct value *form,
                           struct rx_error *err);

/* Are all of rx's name tables sorted and free of duplicates (for tests)? */
bool rx_tables_sorted(void);

/* ---- strings ---- */

/* Characters of an Emacs string as rx and regexp-opt handle them: unibyte
 * bytes >= 0x80 are kept as raw-byte characters (0x3FFF00 + byte). */
struct rx_str {
    uint32_t *c;  /* characters */
    size_t n;     /* used */
    size_t cap;   /* allocated */
    bool mb;      /* the Emacs string would be multibyte */
};

struct rx_str *rx_str_new(struct arena *a);
void rx_str_putc(struct arena *a, struct rx_str *s, uint32_t c);
/* Append ASCII text. */
void rx_str_puts(struct arena *a, struct rx_str *s, const char *t);
/* Append other (and its multibyteness, as concat does). */
void rx_str_append(struct arena *a, struct rx_str *s, const struct rx_str *o);
/* Characters of Lisp string v (v must be a string). */
struct rx_str *rx_str_of_value(struct arena *a, const struct value *v);
/* Lisp string with these characters. */
struct value *rx_str_value(struct arena *a, const struct rx_str *s);
/* (regexp-quote S) appended to out. */
void rx_str_put_quoted(struct arena *a, struct rx_str *out,
                       const struct rx_str *s);
/* Emacs's char-to-string: ASCII gives a unibyte string, else multibyte. */
struct rx_str *rx_str_of_char(struct arena *a, uint32_t c);

/* (regexp-opt STRINGS nil) of n strings, as Emacs 30.1's regexp-opt.el
 * computes it (n == 0: a group around regexp-unmatchable); NULL when the
 * recursion would exceed RX_MAX_DEPTH. */
struct rx_str *rx_regexp_opt(struct arena *a, struct rx_str **strings,
                             size_t n);

#endif
