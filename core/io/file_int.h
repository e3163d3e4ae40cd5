/* file_int.h - what file.c and file_write.c share; nothing else includes
 * it. */
#ifndef PCX_FILE_INT_H
#define PCX_FILE_INT_H

#include "file.h"

/* "what: strerror(err)" in arena a. */
const char *file_errmsg(struct arena *a, const char *what, int err);

#endif
