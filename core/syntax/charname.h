/* charname.h - Unicode character names for the reader's \N{NAME} escape.
 *
 * Part of stage 1 (lexing).  Answers what Emacs 30.1's `char-from-name`
 * answers with IGNORE-CASE set: the current and Unicode 1.0 names of
 * its `ucs-names` table, Hangul syllables, and the numbered ideograph
 * names (`CJK IDEOGRAPH-4E00`, `TANGUT IDEOGRAPH-17000`, ...).
 */
#ifndef PCX_CHARNAME_H
#define PCX_CHARNAME_H

#include <stddef.h>
#include <stdint.h>

/* Code of the character called name[0..len) (ASCII, any case, runs of
 * whitespace already collapsed to one space); -1 if no character has that
 * name. */
int32_t charname_lookup(const char *name, size_t len);

#endif
