/* know.h - what one test's outcome tells about another leaf pattern.
 *
 * The knowledge rules of the decision-tree builder (pcase.md 3.4-3.5), as
 * Emacs 28.2 applies them without byte-opt loaded: identical preds/guards
 * are merged, `(pred (not F))` swaps outcomes, the 28.2 table of mutually
 * exclusive type predicates (also against the type of a constant), and
 * equality/membership facts about constants.  Nothing is ever evaluated at
 * expansion time.
 *
 * Functions, in order: know_exclusive, know_check_table, know_after_quote,
 * know_after_pred.
 */
#ifndef PCX_KNOW_H
#define PCX_KNOW_H

#include "match/mtree.h"

/* Are the predicates named f1 and f2 mutually exclusive in Emacs 28.2's
 * table (either order)?  False for anything that is not a symbol. */
bool know_exclusive(const struct value *f1, const struct value *f2);

/* Index of the first row of the exclusion table not sorted after its
 * predecessor, or of a pair whose mirror is missing; -1 if none (tests). */
long know_check_table(void);

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
