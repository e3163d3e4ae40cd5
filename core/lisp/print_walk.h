/* print_walk.h - state shared by the printer's walker (print.c) and its
 * identity bookkeeping (print_circle.c); private to the print module.
 * One frame per container being printed; each but those of 'X and #'X
 * is one level of Emacs's print depth, which is what `#N` and
 * print-level count.
 */
#ifndef PCX_PRINT_WALK_H
#define PCX_PRINT_WALK_H

#include <stdint.h>

#include "print.h"

/* Pointer-keyed open-addressing map to int32 (0 = absent).  Arena memory;
 * no iteration order is ever observable. */
struct ptrmap {
    const void **keys; /* NULL = empty slot */
    int32_t *vals;
    size_t cap;        /* power of two, or 0 before first use */
    size_t n;          /* occupied slots */
};

enum frame_kind {
    F_LIST,  /* ( a b . c ) */
    F_VEC,   /* vector, record, byte-code, char-table, sub-char-table */
    F_HASH,  /* #s(hash-table ... data (k v ...)) */
    F_PROPS, /* #("text" B E PLIST ...) */
    F_WRAP,  /* 'X #'X `X ,X ,@X: the quote form around X */
};

struct frame {
    const struct value *obj; /* the container: this depth's path entry */
    const struct value *cur; /* list: current tail; hash/props: position;
                                wrap: the quoted object */
    union {
        struct {
            const struct value *tortoise; /* cycle check (Brent's, as Emacs) */
            uint64_t left;                /* elements print-length still allows */
            uint64_t n, m;                /* steps to the next tortoise move,
                                             and between moves */
            uint64_t tortoise_at;         /* index of the tortoise's element */
        } list;
        struct {
            size_t i, end, real; /* Emacs's slot index, print limit, size */
        } vec;
        struct {
            size_t j, lim, count; /* pairs printed, limit, pairs in table */
        } hash;
    } u;
    uint8_t kind;  /* enum frame_kind */
    uint8_t phase; /* kind-specific step */
    int8_t bq;     /* wrap: change made to the backquote level */
    bool level;    /* one level of print depth (all but 'X #'X wraps) */
    uint8_t off;   /* vec: items[i + off] holds slot i */
    char close;    /* vec: closing bracket */
};

/* Containers on the path below this depth are compared one by one, which
 * gives Emacs's `#N` exactly (Emacs 30 refuses to print deeper than 200).
 * Deeper, only every PRINT_PATH_STRIDE-th depth is remembered: enough to
 * cut every cycle, at most one period and one stride late. */
#define PRINT_PATH_SCAN 256
#define PRINT_PATH_STRIDE 64

struct pstate {
    struct lisp *L;
    struct buf *b;
    const struct print_opts *o;
    int bq;               /* backquote nesting (commas abbreviate when > 0) */
    struct frame *st;     /* frames */
    size_t n, cap;
    size_t depth;         /* Emacs's print depth: the frames that count */
    const struct value *chain_tortoise; /* the 'X #'X chain's (quote_chain_step) */
    size_t chain_steps, chain_lim;
    const struct value *path[PRINT_PATH_SCAN]; /* the object at each depth */
    struct ptrmap deep;   /* without print-circle: sampled deeper path entries */
    struct ptrmap labels; /* with print-circle: object -> label state */
    int32_t nlabels;      /* labels handed out by the scan */
    bool tree;            /* print_tree: give up on anything but a tree */
    bool known_tree;      /* print_known_tree: a tree however deep; no path
                             is kept, a row of quotes takes one frame */
    bool bail;            /* print_tree: gave up */
};

/* Label states in pstate.labels: absent (0), seen once, or -N (label N
 * not printed yet) / +N (printed). */
#define PRINT_SEEN INT32_MAX

/* Is v an object print-circle labels: a container, a string (Emacs 30
 * labels every string printed twice), an uninterned symbol with
 * print-gensym? */
bool print_candidate(const struct pstate *s, const struct value *v);

/* print-circle's first pass over root: give every candidate reached twice
 * a label number, in Emacs's order. */
void print_circle_scan(struct pstate *s, const struct value *root);

/* Label state of v (0 when it has no label). */
int32_t print_label_get(struct pstate *s, const struct value *v);
/* Mark v's label as printed. */
void print_label_set_printed(struct pstate *s, const struct value *v);

/* Depth of v if it is on the current path, else -1. */
long print_path_find(struct pstate *s, const struct value *v);
/* Record / forget the container v entered at depth d. */
void print_path_add(struct pstate *s, const struct value *v, size_t d);
void print_path_remove(struct pstate *s, const struct value *v, size_t d);

#endif
