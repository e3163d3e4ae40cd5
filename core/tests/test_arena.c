/* test_arena.c - the page allocator: alignment, growth, marks, OOM jump. */
#include "support.h"

#include <string.h>

#include "base/buf.h"

static void alloc_is_aligned_and_distinct(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    char *p = arena_alloc(a, 3), *q = arena_alloc(a, 5);
    assert_true(((uintptr_t)p & 15) == 0 && ((uintptr_t)q & 15) == 0);
    assert_true(q >= p + 3);
    char *big = arena_alloc(a, 1 << 20); /* larger than a page */
    memset(big, 1, 1 << 20);
    arena_free(a);
}

static void mark_release_frees_pages(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    arena_alloc(a, 10);
    struct arena_mark m = arena_mark(a);
    size_t before = a->total;
    for (int k = 0; k < 100; k++)
        arena_alloc(a, 10000);
    assert_true(a->total > before);
    arena_release(a, m);
    assert_int_equal(a->total, before);
    arena_free(a);
}

static void oom_jumps_to_handler(void **state)
{
    (void)state;
    struct support_failing f = {2, 0}; /* header ok, first page fails */
    struct arena_backing b = support_failing_backing(&f);
    struct arena *a = arena_new(&b);
    assert_non_null(a);
    jmp_buf jb;
    volatile int jumped = 0;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        arena_alloc(a, 100);
    } else {
        jumped = 1;
    }
    assert_int_equal(jumped, 1);
    arena_free(a);
}

static void limit_is_oom(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    a->limit = 100000;
    jmp_buf jb;
    volatile int jumped = 0;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        for (int k = 0; k < 1000; k++)
            arena_alloc(a, 1000);
    } else {
        jumped = 1;
    }
    assert_int_equal(jumped, 1);
    arena_free(a);
}

/* next_page sets the size of the next new page once; doubling goes on
 * from it, and a limit it would break makes it count for nothing. */
static void next_page_sizes_one_page(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    arena_alloc(a, 10);
    size_t first = a->total; /* the smallest page */
    a->next_page = (size_t)4 << 20;
    arena_alloc(a, first); /* does not fit: a new page, of that size */
    assert_int_equal(a->total, first + ((size_t)4 << 20));
    assert_int_equal(a->next_page, 0);
    for (int k = 0; k < 3; k++) /* fits beside the first */
        arena_alloc(a, (size_t)1 << 20);
    assert_int_equal(a->total, first + ((size_t)4 << 20));
    arena_alloc(a, (size_t)1 << 20); /* full: the next page doubles */
    assert_int_equal(a->total, first + ((size_t)12 << 20));
    arena_free(a);

    a = support_arena();
    a->limit = (size_t)1 << 20;
    a->next_page = (size_t)4 << 20; /* beyond the limit: ignored */
    arena_alloc(a, 10);
    assert_true(a->total < ((size_t)1 << 20));
    assert_int_equal(a->next_page, 0);
    arena_free(a);
}

static void buf_grows_and_formats(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct buf b;
    buf_init(&b, a);
    for (int k = 0; k < 1000; k++)
        buf_printf(&b, "%d,", k % 10);
    assert_int_equal(b.len, 2000);
    assert_memory_equal(b.data, "0,1,2,", 6);
    buf_puts(&b, "end");
    assert_string_equal(buf_cstr(&b) + 2000, "end");
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(alloc_is_aligned_and_distinct),
        cmocka_unit_test(mark_release_frees_pages),
        cmocka_unit_test(oom_jumps_to_handler),
        cmocka_unit_test(limit_is_oom),
        cmocka_unit_test(next_page_sizes_one_page),
        cmocka_unit_test(buf_grows_and_formats),
    };
    return SUPPORT_RUN(tests);
}
