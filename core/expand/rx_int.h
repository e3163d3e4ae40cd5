/* rx_int.h - shared internals of the rx translator (rx.c, rx_charset.c).
 *
 * A translated item is a list of pieces (constant strings or run-time
 * expressions) plus a precedence, as rx.el's (REGEXP . PRECEDENCE) pairs.
 * Nothing outside rx*.c includes this header.
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
};

struct rx_item {
    struct rx_piece *p; /* pieces; n == 0 is rx.el's nil (the empty regexp) */
    size_t n, cap;
    enum rx_prec prec;
};

/* Translation state (rx--greedy and friends, plus error reporting). */
struct rx_tr {
    struct lisp *L;
    struct rx_error *err;
    bool greedy;      /* rx--greedy */
    bool foreign;     /* met a name rx does not define, or a non-constant eval */
    int depth;        /* current nesting, bounded by RX_MAX_DEPTH */
};

/* ---- rx.c ---- */
bool rx_tr_item(struct rx_tr *t, struct value *form, struct rx_item *out);
/* Record an rx error at form `at`; always returns false. */
bool rx_fail(struct rx_tr *t, const struct value *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Give up on translation: `at` is a non-builtin name.  Returns false. */
bool rx_foreign(struct rx_tr *t, const struct value *at);
/* Printed representation for messages (princ when princ, else prin1). */
const char *rx_show(struct rx_tr *t, const struct value *v, bool princ);
/* Interned symbol name of v, or NULL. */
const char *rx_symname(const struct value *v);
/* Is v a name rx defines itself (form, symbol or character class)? */
bool rx_builtin_name(const struct value *v);
/* Could expanding form consult a user definition (rx--expand-def)? */
bool rx_maybe_user_def(const struct value *form);
/* Character class name ("digit" ...) of symbol v, or NULL. */
const char *rx_char_class(const struct value *v);
/* Is v a character (integer 0..max-char)? */
bool rx_charp(const struct value *v);
/* Building translated items. */
void rx_item_init(struct rx_item *it, enum rx_prec prec);
void rx_item_puts(struct rx_tr *t, struct rx_item *it, const char *text);
void rx_item_str(struct rx_tr *t, struct rx_item *it, struct rx_str *s);
void rx_item_unmatchable(struct rx_tr *t, struct rx_item *out);
/* The items of a proper list into *n; false (with an error) if dotted. */
bool rx_list(struct rx_tr *t, struct value *form, struct value *body,
             struct value ***items, size_t *n);

/* ---- rx_charset.c ---- */
bool rx_tr_any(struct rx_tr *t, bool negated, struct value *form,
               struct value *body, struct rx_item *out);
bool rx_tr_not(struct rx_tr *t, bool negated, struct value *form,
               struct value *body, struct rx_item *out);
bool rx_tr_union(struct rx_tr *t, bool negated, struct value *body,
                 struct rx_item *out);
bool rx_tr_intersection(struct rx_tr *t, bool negated, struct value *body,
                        struct rx_item *out);
bool rx_tr_syntax(struct rx_tr *t, bool negated, struct value *form,
                  struct value *body, struct rx_item *out);
bool rx_tr_category(struct rx_tr *t, bool negated, struct value *form,
                    struct value *body, struct rx_item *out);
/* rx--charset-p; false with t->foreign set when a user name decides it. */
bool rx_charset_p(struct rx_tr *t, struct value *form, bool *yes);
/* Are the syntax and category tables sorted and duplicate-free? */
bool rx_charset_tables_sorted(void);

#endif
