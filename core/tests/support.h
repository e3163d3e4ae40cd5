/* support.h - shared helpers for the cmocka unit tests. */
#ifndef PCX_TEST_SUPPORT_H
#define PCX_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/arena.h"

/* Arena whose pages come from cmocka's test_malloc, so a page never
 * released fails the test. */
struct arena *support_arena(void);

/* Backing allocator that fails allocation number fail_at (1-based; 0 =
 * never) and counts the others in *count. */
struct support_failing {
    long fail_at;  /* which allocation fails */
    long count;    /* allocations seen */
};
struct arena_backing support_failing_backing(struct support_failing *f);

/* Path of a file under testdata/ (from $PCX_TESTDATA, default "testdata"). */
const char *support_testdata(const char *rel);

/* Whole file into a test_malloc'd buffer (NUL-terminated); *n gets the size.
 * Fails the test if it cannot be read. */
char *support_slurp(const char *path, size_t *n);

/* cmocka returns the number of failures; exit 0/1 for meson. */
#define SUPPORT_RUN(tests) (cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0)

#endif
