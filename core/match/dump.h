/* dump.h - stable text dumps of the pattern IR and the decision DAG.
 *
 * Debug printers of the pattern compiler (cli.md 4.6, --dump=pat|dtree;
 * format in docs/pcase.md).  No pointer values: subjects are `$N`
 * (the root is $0, the others numbered in order of first appearance) and
 * decision nodes `nN` in depth-first order (then before else), so equal
 * inputs give equal bytes.  User code is shown as written.
 *
 * Functions, in order: dump_pat, dump_dtree, dump_dot.
 */
#ifndef PCX_DUMP_H
#define PCX_DUMP_H

#include "base/buf.h"
#include "match/dtree.h"

/* One line per clause: `clause I: PATTERN`, PATTERN in the IR syntax
 * (var, quote, pred, guard, app FUN $A -> $B, and, or, member, dontcare). */
void dump_pat(struct memo_ctx *m, struct buf *out, const struct subj *root,
              const struct pat *const *pats, size_t n);

/* One line per DAG node reachable from dag. */
void dump_dtree(struct memo_ctx *m, struct buf *out, const struct subj *root,
                const struct dnode *dag);

/* The DAG as a Graphviz digraph: a node per DAG node (class "test",
 * "bind", "leaf" or "fail"; shared nodes drawn once, with two borders and
 * the number of places they are reached from), tests' edges labelled
 * non-nil and nil.  Node numbers and texts as in dump_dtree. */
void dump_dot(struct memo_ctx *m, struct buf *out, const struct subj *root,
              const struct dnode *dag);

#endif
