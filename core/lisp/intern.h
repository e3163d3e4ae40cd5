/* intern.h - the symbol table of one run, and the well-known symbols.
 *
 * `struct lisp` bundles the run's arena with its obarray so constructors
 * that need symbols (nil!) have one handle.  Interned symbols are unique
 * per struct lisp, so `eq` is `==`.  Deterministic: nothing here depends on
 * pointer values; symbols carry a creation id for stable ordering.
 */
#ifndef PCX_INTERN_H
#define PCX_INTERN_H

#include "value.h"

struct intern_table;

struct lisp {
    struct arena *a;            /* every value of the run */
    struct intern_table *tab;   /* the obarray */
    uint32_t next_id;           /* creation counter for symbols */
    /* Well-known symbols, interned at creation. */
    struct value *nil, *t, *quote, *function, *backquote, *comma, *comma_at;
    struct value *lambda;
};

/* New symbol table in arena a (never NULL: OOM longjmps via the arena). */
struct lisp *intern_new(struct arena *a);

/* The interned symbol with this name (bytes in internal encoding). */
struct value *intern_symbol(struct lisp *L, const char *name, size_t len);
struct value *intern_cstr(struct lisp *L, const char *name);
/* intern_cstr of a string literal (INTERN_LIT makes sure it is one): its
 * text never changes, so the symbol cached for its address is taken
 * without comparing names.  The expander asks for "let", "if", "funcall"
 * at every form it builds. */
struct value *intern_static(struct lisp *L, const char *name);
#define INTERN_LIT(L, s) intern_static((L), "" s "")

/* Is there already an interned symbol with this name?  NULL if not. */
struct value *intern_find(struct lisp *L, const char *name, size_t len);

/* A fresh uninterned symbol (`make-symbol`). */
struct value *intern_uninterned(struct lisp *L, const char *name, size_t len);

/* List helpers used everywhere. */
static inline bool lisp_nilp(const struct lisp *L, const struct value *v) { return v == L->nil; }
struct value *lisp_list(struct lisp *L, size_t n, struct value *const *items);
/* (a b ...) of NULL-terminated arguments. */
struct value *lisp_listv(struct lisp *L, ...);
/* Reverse a proper list in place-free fashion (fresh conses). */
struct value *lisp_reverse(struct lisp *L, struct value *list);

#endif
