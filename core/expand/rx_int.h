/* rx_int.h - shared internals of the rx translator (rx.c, rx_norm.c,
 * rx_charset.c, rx_env.c).
 *
 * A translated item is a list of pieces (constant strings or run-time
 * expressions) plus a precedence, as rx.el's (REGEXP . PRECEDENCE) pairs.
 * Character patterns are normalised as rx--normalise-char-pattern does:
 * a set becomes (MARK . INDEX), MARK an uninterned symbol of the
 * translation and INDEX the set's slot in rx_tr.csets (rx.el's
 * (rx--char-alt INTERVALS . CLASSES)).  Nothing outside rx*.c includes
 * this header.
 */
#ifndef PCX_RX_INT_H
#define PCX_RX_INT_H

#include "expand/rx.h"

/* rx.el's precedence lattice: t > seq > lseq, rseq > nil. */
enum rx_prec {
    RX_P_T,    /* usable as the operand of a postfix operator ("a") */
    RX_P_SEQ,  /* concatenable ("ab") */
    RX_P_LSEQ, /* only to the left of rseq or higher ("^a") */
    RX_P_RSEQ, /* only to the right of lseq or higher ("a$") */
    RX_P_NIL,  /* only inside alternatives ("a\\|b") */
};

struct rx_piece {
    struct rx_str *s;    /* constant text, or NULL */
    struct value *expr;  /* run-time string expression when s is NULL */
    bool merged;         /* s is the piece's own copy (appended to in place) */
};

struct rx_item {
    struct rx_piece *p; /* pieces; n == 0 is rx.el's nil (the empty regexp) */
    size_t n, cap;
    enum rx_prec prec;
};

/* Sorted, disjoint, non-adjacent character intervals. */
struct rx_iv {
    uint32_t lo, hi;
};

struct rx_ivs {
    struct rx_iv *v;
    size_t n, cap;
};

/* A character set: intervals and named classes ("digit"...), the classes
 * in rx.el's list order (which is the order they are written in). */
struct rx_cset {
    struct rx_ivs ivs;
    const char **cls;
    size_t ncls;
};

/* One definition: a name, its parameters (NULL: a plain name) and body. */
struct rx_def {
    struct value *name;
    struct value *args;
    struct value *body;
};

/* Translation state (rx--greedy and friends, plus error reporting). */
struct rx_tr {
    struct lisp *L;
    const struct rx_env *env;
    bool locals;      /* env's rx-let scopes are seen */
    struct rx_error *err;
    bool greedy;      /* rx--greedy */
    bool foreign;     /* met a name nobody defines, or a non-constant eval */
    int depth;        /* current nesting, bounded by RX_MAX_DEPTH */
    size_t steps;     /* bounded by RX_MAX_STEPS */
    struct value *mark;        /* head of normalised sets (uninterned) */
    struct rx_cset **csets;    /* their contents, by index */
    size_t n_csets, cap_csets;
    const struct rx_def **active; /* plain-name definitions being expanded */
    size_t n_active, cap_active;
};

/* ---- rx.c ---- */
bool rx_tr_item(struct rx_tr *t, struct value *form, struct rx_item *out);
/* Count n steps at `at` (false with the error past RX_MAX_STEPS). */
bool rx_steps(struct rx_tr *t, size_t n, const struct value *at);
/* Count a step and a level of nesting at form (false with the error when
 * a limit is passed); rx_leave undoes the level. */
bool rx_enter(struct rx_tr *t, const struct value *form);
static inline void rx_leave(struct rx_tr *t) { t->depth--; }
/* Printed representation (princ when princ, else prin1). */
const char *rx_print(struct lisp *L, const struct value *v, bool princ);
/* Fill *err (RX_ERR_FORM) with the message; always returns false. */
bool rx_error_set(struct lisp *L, struct rx_error *err, const struct value *at,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The error Emacs signals when list (whose form is form) is not a proper
 * list where one is walked: a dotted tail is (wrong-type-argument listp
 * TAIL); an atom is (wrong-type-argument sequencep ATOM) when seq (mapcar
 * and length walk it), else listp (car and cdr).  False. */
bool rx_not_list(struct lisp *L, struct rx_error *err, const struct value *form,
                 const struct value *list, bool seq);
/* Record an rx error at form `at`; always returns false. */
bool rx_fail(struct rx_tr *t, const struct value *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Record a limit error (RX_ERR_TOO_DEEP) with this message; false. */
bool rx_too_deep(struct rx_tr *t, const struct value *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Give up on translation: `at` needs a run-time translation.  Returns
 * false. */
bool rx_foreign(struct rx_tr *t, const struct value *at);
/* rx_print with the translation's values. */
const char *rx_show(struct rx_tr *t, const struct value *v, bool princ);
/* Interned symbol name of v, or NULL. */
const char *rx_symname(const struct value *v);
/* Is v an interned symbol named name? */
bool rx_sym_is(const struct value *v, const char *name);
/* Is v in rx--builtin-forms / rx--builtin-symbols (char classes included)
 * / either (rx--builtin-names, the names no definition may take)? */
bool rx_builtin_form(const struct value *v);
bool rx_builtin_symbol(const struct value *v);
bool rx_builtin_name(const struct value *v);
/* Could v be a name defined where the regexp is computed at run time (an
 * interned symbol no built-in name takes, nor nil, t or a keyword)? */
bool rx_maybe_defined_later(const struct value *v);
/* Character class name ("digit" ...) of symbol v, or NULL. */
const char *rx_char_class(const struct value *v);
/* Is v a character (integer 0..max-char)? */
bool rx_charp(const struct value *v);
/* Building translated items. */
void rx_item_init(struct rx_item *it, enum rx_prec prec);
void rx_item_puts(struct rx_tr *t, struct rx_item *it, const char *text);
void rx_item_str(struct rx_tr *t, struct rx_item *it, struct rx_str *s);
void rx_item_append(struct rx_tr *t, struct rx_item *it, const struct rx_item *o);
void rx_item_unmatchable(struct rx_tr *t, struct rx_item *out);
/* The items of a proper list into *n; false (with rx_not_list's error)
 * if it is not one. */
bool rx_list(struct rx_tr *t, struct value *form, struct value *body, bool seq,
             struct value ***items, size_t *n);
/* Is body an atom other than nil (rx_not_list's error recorded)? */
bool rx_atom_body(struct rx_tr *t, struct value *form, struct value *body, bool seq);
/* Exactly one argument (else Emacs's "takes exactly one argument"). */
bool rx_one_arg(struct rx_tr *t, struct value *form, struct value *body,
                const char *what);
/* rx--expand-eval when its argument is a constant; else foreign. */
bool rx_eval_constant(struct rx_tr *t, struct value *form, struct value **out);
/* Emacs's "Wrong type argument: PRED, VALUE" error; false. */
bool rx_wrong_type(struct rx_tr *t, const struct value *at, const char *pred,
                   const struct value *v);

/* ---- rx_norm.c: or, not, intersection ---- */
bool rx_tr_or(struct rx_tr *t, struct value *form, struct value *body,
              struct rx_item *out);
bool rx_tr_not(struct rx_tr *t, bool negated, struct value *form,
               struct value *body, struct rx_item *out);
bool rx_tr_intersection(struct rx_tr *t, bool negated, struct value *body,
                        struct rx_item *out);
/* Is form a normalised set (MARK . INDEX)?  Its set, or NULL. */
const struct rx_cset *rx_norm_cset(const struct rx_tr *t, const struct value *form);

/* ---- rx_charset.c ---- */
void rx_ivs_push(struct arena *a, struct rx_ivs *s, uint32_t lo, uint32_t hi);
struct rx_ivs rx_ivs_complement(struct arena *a, const struct rx_ivs *s);
/* The intersection of n sets (n == 0: every character). */
struct rx_ivs rx_ivs_intersect_all(struct arena *a, const struct rx_ivs *const *sets,
                                   size_t n);
/* Sort and merge overlapping or adjacent intervals: the union of what s
 * holds (rx--condense-intervals after the sort, rx--interval-set-union). */
void rx_ivs_condense(struct rx_ivs *s);
/* rx--parse-any of body into *out. */
bool rx_parse_any(struct rx_tr *t, struct value *form, struct value *body,
                  struct rx_cset *out);
/* rx--generate-alt. */
void rx_generate_alt(struct rx_tr *t, bool negated, const struct rx_ivs *ivs,
                     const char *const *cls, size_t ncls, struct rx_item *out);
bool rx_tr_any(struct rx_tr *t, bool negated, struct value *form,
               struct value *body, struct rx_item *out);
bool rx_tr_syntax(struct rx_tr *t, bool negated, struct value *form,
                  struct value *body, struct rx_item *out);
bool rx_tr_category(struct rx_tr *t, bool negated, struct value *form,
                    struct value *body, struct rx_item *out);
/* Are the syntax and category tables sorted and duplicate-free? */
bool rx_charset_tables_sorted(void);

/* ---- rx_env.c ---- */
/* Are rx-let definitions in scope? */
bool rx_env_has_locals(const struct rx_env *env);
/* rx--expand-def-symbol: *out is sym's definition body (NULL when it has
 * none) and *def the definition; false with an error when the definition
 * takes arguments or is already being expanded (it expands into itself:
 * Emacs recurses until its Lisp nesting limit). */
bool rx_expand_symbol(struct rx_tr *t, struct value *sym, struct value **out,
                      const struct rx_def **def);
/* While a plain name's body is translated or normalised, it is active. */
void rx_def_push(struct rx_tr *t, const struct rx_def *def);
static inline void rx_def_pop(struct rx_tr *t) { t->n_active--; }
/* rx--expand-def-form: *out is form expanded once (NULL when its head
 * has no definition); false with an error. */
bool rx_expand_form(struct rx_tr *t, struct value *form, struct value **out);

#endif
