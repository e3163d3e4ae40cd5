/* diff.h - line differences of two texts, printed as a unified diff.
 *
 * Layer base, used by the --diff target mode (cli.md section 5): the
 * target's current bytes against the fresh output.  Myers's O(ND)
 * algorithm in linear space (middle snake), with an explicit work list
 * instead of recursion.  Lines keep their terminators, so a missing final
 * newline is a difference, shown as "\ No newline at end of file".
 */
#ifndef PCX_DIFF_H
#define PCX_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "buf.h"

/* Append to out the unified diff (3 lines of context) that turns old_text
 * into new_text, with the headers "--- OLD_NAME" and "+++ NEW_NAME" (the
 * caller adds "a/", "b/" or uses "/dev/null").  Appends nothing and
 * returns false when the texts are equal.  Work memory comes from arena a. */
bool diff_unified(struct arena *a, const uint8_t *old_text, size_t old_len,
                  const uint8_t *new_text, size_t new_len, const char *old_name,
                  const char *new_name, struct buf *out);

/* The edit script as flags: after the call, del[i] marks line i of the old
 * text as deleted and ins[j] line j of the new text as inserted (the other
 * lines are common, in order).  old_n/new_n get the line counts; the
 * arrays come from arena a.  For tests and for diff_unified. */
void diff_lines(struct arena *a, const uint8_t *old_text, size_t old_len,
                const uint8_t *new_text, size_t new_len, bool **del,
                size_t *old_n, bool **ins, size_t *new_n);

#endif
