/* test_buf.c - the byte buffer's appends (inline in buf.h, their slow
 * path in buf.c): contents, the NUL after them, growth at every length.
 */
#include "support.h"

#include <string.h>

#include "base/buf.h"

/* A byte at a time, a token at a time: each append keeps what came
 * before, puts a NUL after, across every growth of the buffer. */
static void appends_across_growth(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct buf b;
    buf_init(&b, a);
    char want[3000];
    size_t n = 0;
    for (int k = 0; k < 1000; k++) {
        char c = (char)('a' + k % 26);
        buf_putc(&b, c);
        want[n++] = c;
        buf_put(&b, "xy", k % 3); /* 0, 1 or 2 bytes */
        memcpy(want + n, "xy", (size_t)(k % 3));
        n += (size_t)(k % 3);
        assert_int_equal(b.len, n);
        assert_true(b.cap > b.len);
        assert_int_equal(b.data[b.len], 0);
    }
    assert_memory_equal(b.data, want, n);
    buf_puts(&b, "end");
    assert_string_equal(buf_cstr(&b) + n, "end");
    arena_free(a);
}

/* An empty append to a new buffer still gives a string; reserving makes
 * room without writing. */
static void empty_and_reserve(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct buf b;
    buf_init(&b, a);
    buf_put(&b, "", 0);
    assert_int_equal(b.len, 0);
    assert_string_equal(b.data, "");
    buf_reserve(&b, 500);
    assert_int_equal(b.len, 0);
    assert_true(b.cap > 500);
    char *data = b.data;
    for (int k = 0; k < 500; k++)
        buf_putc(&b, '.');
    assert_ptr_equal(b.data, data); /* no growth within the room reserved */
    assert_int_equal(strlen(b.data), 500);
    arena_free(a);
}

/* A buffer made with its room: exactly that room, filled without moving,
 * then grown like any other with its contents kept. */
static void room_given_up_front(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct buf b;
    buf_init_room(&b, a, 1000);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 1001);
    assert_string_equal(b.data, "");
    char *data = b.data;
    for (int k = 0; k < 1000; k++)
        buf_putc(&b, (char)('a' + k % 26));
    assert_ptr_equal(b.data, data);
    buf_puts(&b, "!");
    assert_true(b.cap > 1001);
    assert_int_equal(b.len, 1001);
    assert_int_equal(b.data[25], 'z');
    assert_string_equal(b.data + 1000, "!");
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(appends_across_growth),
        cmocka_unit_test(empty_and_reserve),
        cmocka_unit_test(room_given_up_front),
    };
    return SUPPORT_RUN(tests);
}
