/* witness.h - which values reach a place of a decision DAG.
 *
 * A pass over a finished DAG (match/dtree): it follows the ways from the
 * root to a target (the leaves of one clause, or the places where no
 * clause matches), keeping what each test on the way says about the
 * subject and the values computed from it (car, cdr, length, aref, ...):
 * the classes of Lisp values it can be in (nil, symbols, integers,
 * strings, conses, ...), the constant it equals, the constants it differs
 * from.  A way whose facts contradict each other is taken by no value.
 * For a way that some value may take, a concrete value is built and run
 * through the DAG by a small evaluator of the tests and calls pcexpand
 * generates; it is a witness only when that run reaches the target.
 * Tests of functions and guards the pass cannot evaluate are kept as the
 * reason no witness could be given.  Nothing of the user's is evaluated.
 *
 * The facts are sound: "no value reaches it" is said only when every way
 * contradicts itself (assuming, as Emacs's own pcase does, that the
 * functions of the pattern do not change the subject).  The search is
 * bounded (WITNESS_BUDGET visits); past it the answer is "unknown".
 *
 * Functions, in order: witness_check_table, witness_find, witness_reach,
 * witness_dump.
 */
#ifndef PCX_WITNESS_H
#define PCX_WITNESS_H

#include "base/buf.h"
#include "match/dtree.h"

enum witness_status {
    WITNESS_FOUND,   /* value reaches the target (checked by evaluation) */
    WITNESS_NONE,    /* no value can reach it: every way contradicts itself */
    WITNESS_UNKNOWN, /* a way may be taken, but no value was checked */
};

/* The target of the search: the leaves of clause `clause`, or, when
 * clause is WITNESS_NO_MATCH, the nodes where no clause matches. */
#define WITNESS_NO_MATCH (-1L)

struct witness_result {
    enum witness_status status;
    struct value *value;          /* FOUND: in the run's arena */
    struct value **blockers;      /* UNKNOWN: tests and calls it could not
                                     evaluate on the ways to the target
                                     (forms as written, distinct, in the
                                     order met), in the run's arena */
    size_t n_blockers;
    size_t ways;                  /* ways to the target found possible */
    bool budget;                  /* the search stopped at its bound */
};

/* Index of the first row of the predicate table not sorted after its
 * predecessor or true where it may be false; -1 if none (tests). */
long witness_check_table(void);

/* Visits of DAG nodes one search may make. */
enum { WITNESS_BUDGET = 40000 };

/* Search dag (its root subject root) for a value reaching target.  With
 * want_value false, the search stops at the first way that may be taken
 * (enough to tell reachable from unreachable). */
void witness_find(struct memo_ctx *m, const struct dnode *dag, const struct subj *root,
                  long target, bool want_value, struct witness_result *out);

/* Which of the clauses 0..n) with want[i] some way of dag that no fact
 * contradicts reaches (reached[i]; false for the others).  False when the
 * search stopped at its bound (then a clause not marked may still be
 * reached).  The search ends once every wanted clause is reached. */
bool witness_reach(struct memo_ctx *m, const struct dnode *dag, const struct subj *root,
                   const bool *want, bool *reached, size_t n);

/* Text dump of the pass (tests): a line per clause 0..n) and one for the
 * places no clause matches, each the value found, "no value", or
 * "unknown" and the forms it could not evaluate. */
void witness_dump(struct memo_ctx *m, struct buf *out, const struct dnode *dag,
                  const struct subj *root, size_t n);

#endif
