/* test_source.c - byte offsets to lines and screen columns. */
#include "support.h"

#include <string.h>

#include "base/source.h"

static struct source_pos at(struct source *s, uint32_t off)
{
    return source_pos(s, off);
}

#define ASSERT_POS(s, off, l, c)                                            \
    do {                                                                    \
        struct source_pos p_ = at((s), (off));                              \
        assert_int_equal(p_.line, (l));                                     \
        assert_int_equal(p_.col, (c));                                      \
    } while (0)

static void lines_are_one_based(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    const char *t = "(a)\n\n  (b c)\n";
    struct source s;
    source_init(&s, a, "x.el", (const uint8_t *)t, strlen(t));
    assert_null(s.lines); /* built lazily */
    ASSERT_POS(&s, 0, 1, 1);
    ASSERT_POS(&s, 3, 1, 4);  /* the LF itself is on line 1 */
    ASSERT_POS(&s, 4, 2, 1);  /* empty line */
    ASSERT_POS(&s, 7, 3, 3);  /* "(b" */
    ASSERT_POS(&s, 13, 4, 1); /* end of text, after the final LF */
    ASSERT_POS(&s, 999, 4, 1); /* clamped */
    assert_int_equal(s.n_lines, 4);
    arena_free(a);
}

static void tabs_advance_to_multiples_of_eight(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    const char *t = "\tx\n  \ty\nabcdefg\tz\nabcdefgh\tw";
    struct source s;
    source_init(&s, a, "t.el", (const uint8_t *)t, strlen(t));
    ASSERT_POS(&s, 1, 1, 9);   /* after one TAB */
    ASSERT_POS(&s, 6, 2, 9);   /* two spaces then TAB: still column 9 */
    ASSERT_POS(&s, 16, 3, 9);  /* 7 chars + TAB */
    ASSERT_POS(&s, 27, 4, 17); /* 8 chars + TAB */
    arena_free(a);
}

static void columns_count_characters(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    /* é (2 bytes), € (3), U+1F600 (4), Emacs char 0x3FFF7F (5), a lone
     * continuation byte and a truncated sequence (raw bytes, 1 each). */
    const uint8_t t[] = {0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80,
                         0xF8, 0x8F, 0xBF, 0xBD, 0xBF, 0x80, 0xE2, 0x82, 'x'};
    struct source s;
    source_init(&s, a, "u.el", t, sizeof t);
    ASSERT_POS(&s, 2, 1, 2);
    ASSERT_POS(&s, 5, 1, 3);
    ASSERT_POS(&s, 9, 1, 4);
    ASSERT_POS(&s, 14, 1, 5);
    ASSERT_POS(&s, 15, 1, 6);
    ASSERT_POS(&s, 17, 1, 8); /* E2 82 without its third byte: two raw bytes */
    ASSERT_POS(&s, 3, 1, 2);  /* inside € : the column of € */
    /* Later positions on the line count on from the last one: also
     * when that one was inside a character. */
    ASSERT_POS(&s, 4, 1, 2);
    ASSERT_POS(&s, 5, 1, 3);
    ASSERT_POS(&s, 17, 1, 8);
    ASSERT_POS(&s, 0, 1, 1);
    arena_free(a);
}

static void char_len_follows_emacs_decoding(void **state)
{
    (void)state;
    static const struct {
        uint8_t b[6];
        size_t n;
        int len;
    } cases[] = {
        {{'a'}, 1, 1},
        {{0xC2, 0xA0}, 2, 2},
        {{0xC0, 0x80}, 2, 1},             /* overlong */
        {{0xC1, 0xBF}, 2, 1},             /* overlong */
        {{0xE0, 0x80, 0x80}, 3, 1},       /* overlong */
        {{0xED, 0xA0, 0x80}, 3, 1},       /* surrogate */
        {{0xEF, 0xBF, 0xBF}, 3, 3},
        {{0xF4, 0x90, 0x80, 0x80}, 4, 4}, /* beyond U+10FFFF: Emacs accepts */
        {{0xF7, 0xBF, 0xBF, 0xBF}, 4, 4}, /* 0x1FFFFF */
        {{0xF0, 0x8F, 0xBF, 0xBF}, 4, 1}, /* overlong */
        {{0xF8, 0x88, 0x80, 0x80, 0x80}, 5, 5}, /* 0x200000 */
        {{0xF8, 0x8F, 0xBF, 0xBE, 0x80}, 5, 1}, /* 0x3FFF80: a raw byte's code */
        {{0xF8, 0x87, 0xBF, 0xBF, 0xBF}, 5, 1}, /* overlong */
        {{0xF9, 0x80, 0x80, 0x80, 0x80}, 5, 1},
        {{0xFF}, 1, 1},
        {{0xE2, 0x82}, 2, 1}, /* truncated at end of text */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_int_equal(source_char_len(cases[i].b, cases[i].n), cases[i].len);
}

static void empty_source(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct source s;
    source_init(&s, a, "e.el", (const uint8_t *)"", 0);
    ASSERT_POS(&s, 0, 1, 1);
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_are_one_based),
        cmocka_unit_test(tabs_advance_to_multiples_of_eight),
        cmocka_unit_test(columns_count_characters),
        cmocka_unit_test(char_len_follows_emacs_decoding),
        cmocka_unit_test(empty_source),
    };
    return SUPPORT_RUN(tests);
}
