/* know.h - what one test's outcome tells about another leaf pattern.
 *
 * The knowledge rules of the decision-tree builder (pcase.md 3.4-3.5), as
 * Emacs 30.1 applies them without byte-opt loaded: identical preds/guards
 * are merged, `(pred (not F))` swaps outcomes, mutually exclusive type
 * predicates (Emacs 30.1's sets of built-in types), and equality and
 * membership facts about constants.  No predicate is evaluated on a
 * constant (Emacs does that only for functions byte-opt marks
 * side-effect-free).
 *
 * Functions, in order: know_exclusive_names, know_exclusive,
 * know_check_table, know_pred_name, know_after_quote, know_after_pred.
 */
#ifndef PCX_KNOW_H
#define PCX_KNOW_H

#include "match/mtree.h"

/* Are the predicates named a and b mutually exclusive (pcase.md 3.5)? */
bool know_exclusive_names(const char *a, const char *b);

/* know_exclusive_names of two symbols; false for anything else. */
bool know_exclusive(const struct value *f1, const struct value *f2);

/* Index of the first row of the predicate table not sorted after its
 * predecessor, or -1 (tests). */
long know_check_table(void);

/* The name of the predicate in row i of the table, or NULL past its end
 * (tests: every pair is compared with Emacs's answer). */
const char *know_pred_name(size_t i);

/* After testing the subject against constant upat (a PAT_QUOTE): what is
 * known of leaf pattern pat on the same subject. */
struct mt_split know_after_quote(const struct pat *upat, const struct pat *pat);

/* After the test upat (PAT_PRED, PAT_GUARD or PAT_MEMBER) ran with the
 * variables vars (struct vbind list) in scope: what is known of pat on the
 * same subject.  Identical tests merge only when upat is a pred of a symbol
 * or its code mentions none of vars.  Sets m->too_deep and answers
 * "unknown" on absurdly nested `not` wrappers. */
struct mt_split know_after_pred(struct memo_ctx *m, const struct pat *upat,
                                const struct pat *pat, struct memo_list *vars);

#endif
