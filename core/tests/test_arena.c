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

/* An adopted page: allocations come from it first, it is not counted,
 * and neither release nor free gives it back (the counting backing would
 * fail on a pointer it did not hand out); its owner still has it. */
static void adopted_page_stays_its_owners(void **state)
{
    (void)state;
    struct arena *owner = support_arena(), *a = support_arena();
    char *mem = arena_alloc(owner, 4096);
    arena_adopt(a, mem, 4096);
    char *p = arena_alloc(a, 100);
    assert_true(p >= mem && p + 100 <= mem + 4096);
    assert_int_equal(a->total, 0);
    struct arena_mark m = arena_mark(a);
    char *q = arena_alloc(a, 10000); /* past the adopted page: a new one */
    assert_true(q < mem || q >= mem + 4096);
    assert_true(a->total > 0);
    arena_release(a, m);
    assert_int_equal(a->total, 0);
    assert_ptr_equal(arena_alloc(a, 16), p + 112);
    arena_alloc(a, 10000);
    arena_free(a);
    memset(mem, 7, 4096);
    assert_int_equal(mem[4095], 7);
    arena_free(owner);
}

/* Shrinking the most recent block keeps it where it is and its first
 * bytes, and gives its tail to the next allocation; an older block is
 * copied as before. */
static void most_recent_block_shrinks_in_place(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    char *old = arena_alloc(a, 64);
    memset(old, 'o', 64);
    char *p = arena_alloc(a, 1000);
    memset(p, 'x', 1000);
    assert_ptr_equal(arena_grow(a, p, 1000, 100), p);
    assert_ptr_equal(arena_alloc(a, 8), p + 112);
    assert_int_equal(p[99], 'x');
    char *q = arena_grow(a, old, 64, 32); /* not the most recent */
    assert_ptr_not_equal(q, old);
    assert_memory_equal(q, old, 32);
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
        cmocka_unit_test(adopted_page_stays_its_owners),
        cmocka_unit_test(most_recent_block_shrinks_in_place),
        cmocka_unit_test(buf_grows_and_formats),
    };
    return SUPPORT_RUN(tests);
}
