/* pcx.h - the public interface of libpcx, the pcexpand library.
 *
 * Everything a program needs to read Emacs Lisp, expand pcase-family and
 * cond* forms, and print the result.  Names are pcx_<object>_<verb>; an
 * options pointer of NULL means the defaults.
 */
#ifndef PCX_PCX_H
#define PCX_PCX_H

#include <stddef.h>

#if defined(__GNUC__)
#define PCX_API __attribute__((visibility("default")))
#else
#define PCX_API
#endif

#define PCX_VERSION "0.1.0"

/* Version string of the library ("0.1.0"). */
PCX_API const char *pcx_version(void);

#endif
