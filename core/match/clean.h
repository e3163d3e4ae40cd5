/* clean.h - clean-up passes over generated Lisp.
 *
 * Last stage of the pattern compiler, after match/emit (and after the
 * pcase front end has wrapped the emitted forms of one family form):
 * small passes, each in a file of its own (clean_<pass>.c), that rewrite
 * the generated code into what a person would write without changing
 * any observable behaviour (pcase.md 7, output-style.md): the same calls
 * of user code in the same order with the same arguments on every path,
 * the same values and the same errors.  User code (bodies, guards, the
 * functions of pred and app, the subject) is never looked into nor
 * changed: the front end marks it (clean_mark), and every pass treats a
 * marked form as an opaque piece of code that may read or set any
 * variable but the temporaries and may signal.  Code nested more deeply
 * than CLEAN_MAX_DEPTH lists is left as it is.
 *
 * Functions, in order: clean_marks_new, clean_mark, clean_mark_of,
 * clean_pass_name, clean_pass_find, clean_form.
 */
#ifndef PCX_CLEAN_H
#define PCX_CLEAN_H

#include <stdbool.h>
#include <stdint.h>

#include "lisp/intern.h"

/* Forms deeper than this (nested lists) are not cleaned at all. */
#define CLEAN_MAX_DEPTH 3000

/* What a marked form is. */
enum clean_mark {
    CLEAN_GENERATED = 0, /* not marked: generated code */
    CLEAN_USER,          /* user code: opaque */
    CLEAN_MEMBER,        /* a membership test (memq/memql/member) the
                            emitter made for an `or` of constants, its
                            constants in Emacs's order (the reverse of the
                            written one) */
};

/* The passes, in the order they run.  ORDER: clean_pass, passes[] in
 * clean.c, docs/pcase.md (clean-up passes), cli.md 4.6. */
enum clean_pass {
    CLEAN_PASS_IGNORE,  /* (ignore TEST) of a test that cannot signal: gone */
    CLEAN_PASS_NOT,     /* (if (not X) A B): (if X B A) */
    CLEAN_PASS_UNUSED,  /* temporaries never read: not bound */
    CLEAN_PASS_INLINE,  /* temporaries used once: their value in place */
    CLEAN_PASS_FUNCALL, /* (funcall #'(lambda (ARGS) BODY) VALS): a let */
    CLEAN_PASS_LETS,    /* nested lets: one let*; let* of one binding: let */
    CLEAN_PASS_NIL,     /* (if C A nil): (if C A); (t nil) clauses gone */
    CLEAN_PASS_KNOWN,   /* tests whose outcome is known: t or nil, folded */
    CLEAN_PASS_SAFE,    /* car-safe / cdr-safe of a known cons: car / cdr */
    CLEAN_PASS_MEMQ,    /* memq lists of an or of constants: written order */
    CLEAN_PASS_HOIST,   /* ((consp X) (let ((V (car X))) (cond T...))) in a
                           cond: T... in that cond, V bound around it */
    CLEAN_PASS_MERGE,   /* cond clauses with equal bodies: one memq test */
    CLEAN_PASS_BLOCKS,  /* shared code one place reaches: in that place
                           (runs after known, which finds places dead) */
    CLEAN_PASS_UNSHARE, /* a small block two to four places reach: in
                           each, where the form then nests less deeply */
    CLEAN_PASS_AND,     /* (if A (if C X E) E): (if (and A C) X E), a let
                           of parts between around it */
    CLEAN_PASS_CONSP,   /* (and (consp E) (P (car E))) of a P false on nil:
                           (P (car-safe E)) */
    CLEAN_PASS_SPLIT,   /* ((or A B) K) of a constant K: (A K) (B K), where
                           the form then nests less deeply */
    CLEAN_PASS_IF,      /* (cond (A B...) (t E...)): (if A (progn B...) E...),
                           where the form then nests less deeply */
    CLEAN_PASS_COUNT
};

struct clean_marks;

/* An empty set of marks, in arena a. */
struct clean_marks *clean_marks_new(struct arena *a);

/* Mark form v (a list: atoms need no mark) as k. */
void clean_mark(struct clean_marks *s, const struct value *v, enum clean_mark k);

/* The mark of v (CLEAN_GENERATED when none). */
enum clean_mark clean_mark_of(const struct clean_marks *s, const struct value *v);

/* Is fun the name of a function without effects that never signals
 * (a type predicate, car-safe, eq...)? */
bool clean_pure_function(const struct value *fun);

/* Kinds of objects, as bits of a set (what a value may be). */
enum {
    CLEAN_KIND_NIL = 1,
    CLEAN_KIND_SYMBOL = 2,  /* a symbol other than nil */
    CLEAN_KIND_INT = 4,
    CLEAN_KIND_FLOAT = 8,
    CLEAN_KIND_STRING = 16,
    CLEAN_KIND_CONS = 32,
    CLEAN_KIND_VECTOR = 64,
    CLEAN_KIND_OTHER = 128,
    CLEAN_KIND_ALL = 255,
};

/* The kinds type predicate fun accepts (*yes) and, when it fails, those a
 * value may still be (*no, CLEAN_KIND_ALL: anything); false when fun is
 * no predicate of the table (clean_facts.c). */
bool clean_facts_pred(const struct value *fun, uint8_t *yes, uint8_t *no);

/* The kind of object v (nil: the run's nil). */
uint8_t clean_kind_of_value(const struct value *v, const struct value *nil);

/* The name of pass p ("ignore", "funcall", ...). */
const char *clean_pass_name(enum clean_pass p);

/* The pass named name, or -1. */
int clean_pass_find(const char *name, size_t len);

/* Callbacks of a cleaning. */
struct clean_hooks {
    /* A fresh temporary with base name base (as memo_hooks.gensym). */
    struct value *(*gensym)(void *ctx, const char *base);
    /* Optional: called with the form after each pass that ran (NULL when
     * the pass changed nothing is not told apart: it is called anyway). */
    void (*after)(void *ctx, enum clean_pass p, struct value *form);
    void *ctx;
    /* Optional: cell `copy` of the copy the passes work on stands for cell
     * `orig` of the generated code (what the caller knows of orig, as
     * which clause's code it carries, goes to copy).  Called for every
     * cell copied, before the passes run. */
    void (*copied)(void *ctx, const struct value *orig, const struct value *copy);
    /* Optional: must code (a list, or the cell of an atom) stay though it
     * does nothing?  The nil of a clause the user wrote with comments
     * before it: `nil' keeps its (t nil), the comments' place. */
    bool (*keep)(void *ctx, const struct value *code);
    /* Optional: the clause of a cond whose body is the list `from` (its
     * cells as copied) was merged into the clause whose body is `into`
     * (pass merge): what from's code carried, into's code now carries
     * too. */
    void (*joined)(void *ctx, const struct value *into, const struct value *from);
    /* Optional: pass p is about to run (not called for a pass skipped as
     * having nothing to do: the form has nothing it needs, or it changed
     * nothing the last time it ran and the form is as it left it). */
    void (*ran)(void *ctx, enum clean_pass p);
};

/* Form cleaned by every pass not switched off in `off` (bit 1 << pass).
 * The result shares user code with form; the generated code of form is
 * copied first, so form itself is left as it was.  Never NULL. */
struct value *clean_form(struct lisp *L, struct clean_marks *marks,
                         const struct clean_hooks *hooks, struct value *form,
                         uint32_t off);

#endif
