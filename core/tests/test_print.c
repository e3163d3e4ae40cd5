/* test_print.c - the printer against Emacs 30.1's prin1-to-string: values
 * built by hand (outputs taken from Emacs), then one test per row of
 * testdata/spec/printer-cases.tsv, whose expression is read and evaluated
 * by minieval.c; rows minieval cannot build (byte-code, buffers, closures)
 * must read and print back unchanged, or (`#<...>`) not read at all.
 */
#include "support.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisp/print.h"
#include "lisp/print_fast.h"
#include "minieval.h"
#include "syntax/read.h"

/* ---- fixtures ---- */

/* Each test owns one arena for its values and output, released at its end
 * (cmocka counts the arena's pages as blocks of the test). */
struct fx {
    struct arena *a;
    struct lisp *L;
    struct print_opts o;
};

static struct fx *fx_new(void)
{
    struct fx *f = test_calloc(1, sizeof *f);
    f->a = support_arena();
    f->L = intern_new(f->a);
    f->o = print_opts_default();
    return f;
}

static void fx_free(struct fx *f)
{
    arena_free(f->a);
    test_free(f);
}

/* print_tree on v must print exactly what print_value printed (want),
 * or give up and leave the buffer as it was. */
static void check_tree(struct fx *f, const struct value *v, const struct buf *want)
{
    struct buf t;
    buf_init(&t, f->a);
    buf_puts(&t, "<");
    if (print_tree(f->L, &t, v, &f->o)) {
        assert_int_equal(t.len, want->len + 1);
        assert_memory_equal(t.data + 1, want->data, want->len);
    } else {
        assert_int_equal(t.len, 1);
        assert_string_equal(buf_cstr(&t), "<");
    }
}

/* print_value's text (print_tree checked against it on the way). */
static const char *pr(struct fx *f, const struct value *v)
{
    struct buf b;
    buf_init(&b, f->a);
    print_value(f->L, &b, v, &f->o);
    check_tree(f, v, &b);
    return buf_cstr(&b);
}

/* Does print_tree print v (into a scratch buffer)? */
static bool tree_prints(struct fx *f, const struct value *v)
{
    struct buf t;
    buf_init(&t, f->a);
    return print_tree(f->L, &t, v, &f->o);
}

#define CHECK(f, v, want) assert_string_equal(pr((f), (v)), (want))

static struct value *S(struct fx *f, const char *name) { return intern_cstr(f->L, name); }
static struct value *I(struct fx *f, int64_t i) { return value_int(f->a, i); }
static struct value *F(struct fx *f, double d) { return value_float(f->a, d); }

/* A string literal: multibyte when it has non-ASCII bytes. */
static struct value *STR(struct fx *f, const char *s)
{
    bool mb = false;
    for (const char *p = s; *p; p++)
        mb = mb || (unsigned char)*p >= 0x80;
    return value_string(f->a, s, strlen(s), mb);
}

static struct value *UNI(struct fx *f, const char *s, size_t n)
{
    return value_string(f->a, s, n, false);
}

#define LIST(f, ...) lisp_listv((f)->L, __VA_ARGS__, NULL)

/* (a b . c) */
static struct value *lisp_cons_dot(struct fx *f, struct value *a, struct value *b,
                                   struct value *c)
{
    return value_cons(f->a, a, value_cons(f->a, b, c));
}

static struct value *vec(struct fx *f, enum value_kind k, size_t n, struct value **items)
{
    struct value *v = value_vector(f->a, k, n);
    for (size_t i = 0; i < n; i++)
        v->u.vec.items[i] = items[i];
    return v;
}

/* ---- numbers ---- */

static void integers(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    CHECK(f, I(f, 0), "0");
    CHECK(f, I(f, -1), "-1");
    CHECK(f, I(f, INT64_MIN), "-9223372036854775808");
    CHECK(f, value_integer_from_decimal(f->a, "1180591620717411303424", 22, true),
          "-1180591620717411303424");
    CHECK(f, I(f, 134217825), "134217825");
    fx_free(f);
}

static void integers_as_characters(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.integers_as_chars = true;
    struct value *l = LIST(f, I(f, 32), I(f, 8), I(f, 13), I(f, 12), I(f, '\''),
                           I(f, '['), I(f, ']'), I(f, ')'), I(f, '}'), I(f, '#'),
                           I(f, '?'), I(f, ','), I(f, '.'), I(f, '|'), I(f, 0x10ffff),
                           I(f, 0x10fffd), I(f, 0x110000), I(f, 173), I(f, 0x200b),
                           I(f, 0x300), I(f, 0x1f600), I(f, 0x3042), I(f, -1),
                           I(f, 0x3fff80), I(f, 127), I(f, 160));
    CHECK(f, l, "(?\\s ?\\b ?\\r ?\\f ?\\' ?\\[ ?\\] ?\\) ?\\} ?# ?? ?, ?. ?| 1114111 "
                "?\xf4\x8f\xbf\xbd 1114112 173 8203 768 ?\xf0\x9f\x98\x80 ?\xe3\x81\x82 "
                "-1 4194176 127 160)");
    fx_free(f);
}

/* Table of elisp-syntax.md 2.3 and further values checked with Emacs. */
static void floats_shortest_round_trip(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    static const struct {
        double d;
        const char *want;
    } cases[] = {
        {0.1, "0.1"}, {100.0, "100.0"}, {1.0, "1.0"}, {-0.0, "-0.0"}, {0.0, "0.0"},
        {1e21, "1e+21"}, {1e20, "1e+20"}, {1e16, "1e+16"}, {1e15, "1e+15"},
        {1.5e15, "1.5e+15"}, {123456789012345.0, "123456789012345.0"},
        {1234567890123456.0, "1234567890123456.0"}, {9007199254740992.0, "9007199254740992.0"},
        {1152921504606846976.0, "1.152921504606847e+18"},
        {123456789012345678.0, "1.2345678901234568e+17"},
        {1e-4, "0.0001"}, {1e-5, "1e-05"}, {2.5e-5, "2.5e-05"}, {-1.25e-7, "-1.25e-07"},
        {1.0 / 3.0, "0.3333333333333333"}, {0.1 + 0.2, "0.30000000000000004"},
        {5e-324, "5e-324"}, {2.2250738585072014e-308, "2.2250738585072014e-308"},
        {1.7976931348623157e308, "1.7976931348623157e+308"}, {12345.678, "12345.678"},
        {1e22, "1e+22"}, {-123.456, "-123.456"}, {1e100, "1e+100"},
        {123456789.123, "123456789.123"}, {1e23, "1e+23"}, {2e-308, "2e-308"},
        {2.225073858507201e-308, "2.225073858507201e-308"},
        {INFINITY, "1.0e+INF"}, {-INFINITY, "-1.0e+INF"},
        /* up to 4 decimals and 15 digits (digits only, no round trip tried) */
        {-7.0, "-7.0"}, {999999999999999.0, "999999999999999.0"},
        {-999999999999999.0, "-999999999999999.0"}, {999999999999999.5, "999999999999999.5"},
        {22.1, "22.1"}, {-0.25, "-0.25"}, {0.3, "0.3"}, {0.0001, "0.0001"}, {-0.0005, "-0.0005"},
        {0.00015, "0.00015"}, {99999999999.9999, "99999999999.9999"},
        {999999999999.9999, "999999999999.9999"}, {1.0 / 1024, "0.0009765625"},
        {4.35, "4.35"}, {2.675, "2.675"}, {1.005, "1.005"}, {0.7, "0.7"}, {-12.5, "-12.5"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        CHECK(f, F(f, cases[k].d), cases[k].want);
    fx_free(f);
}

static double nan_with(bool neg, uint64_t payload)
{
    uint64_t bits = (UINT64_C(0x7FF8) << 48) | payload | ((uint64_t)neg << 63);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static void floats_nan_payloads(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    CHECK(f, F(f, nan_with(false, 0)), "0.0e+NaN");
    CHECK(f, F(f, nan_with(true, 0)), "-0.0e+NaN");
    CHECK(f, F(f, nan_with(false, 123)), "123.0e+NaN");
    CHECK(f, F(f, nan_with(true, 5)), "-5.0e+NaN");
    CHECK(f, F(f, nan_with(false, (UINT64_C(1) << 51) - 2)), "2251799813685246.0e+NaN");
    fx_free(f);
}

static void float_output_format(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *l = LIST(f, F(f, 1.0), F(f, 0.1), F(f, 100.0));
    static const char *const fmts[][2] = {
        {"%.3f", "(1.000 0.100 100.000)"}, {"%.0f", "(1 0 100)"},
        {"%.3e", "(1.000e+00 1.000e-01 1.000e+02)"}, {"%.3g", "(1.0 0.1 100.0)"},
        {"%g", "(1.0 0.1 100.0)"}, {"%5.2f", "(1.0 0.1 100.0)"},
        {"%.f", "(1.0 0.0 100.0)"}, {"%.0e", "(1.0 0.1 100.0)"},
        {"%.16g", "(1.0 0.1 100.0)"}, {"%.15g", "(1.0 0.1 100.0)"},
        {"%.3fx", "(1.0 0.1 100.0)"},
    };
    for (size_t k = 0; k < sizeof fmts / sizeof fmts[0]; k++) {
        f->o.float_format = fmts[k][0];
        CHECK(f, l, fmts[k][1]);
    }
    f->o.float_format = "%.2f";
    CHECK(f, LIST(f, F(f, INFINITY), F(f, nan_with(false, 0)), F(f, -0.0)),
          "(1.0e+INF 0.0e+NaN -0.00)");
    f->o.float_format = "%.3g";
    CHECK(f, LIST(f, F(f, 1e20), F(f, 12345.0), F(f, 1e10)), "(1e+20 1.23e+04 1e+10)");
    f->o.float_format = "%.0f";
    CHECK(f, LIST(f, F(f, 0.5), F(f, 1.5)), "(0 2)");
    fx_free(f);
}

/* ---- symbols ---- */

static void symbol_escaping(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    static const char *const cases[][2] = {
        {"foo", "foo"}, {"a.b", "a.b"}, {"a?b", "a?b"}, {".a", "\\.a"},
        {"?a", "\\?a"}, {"1", "\\1"}, {"-1.5", "\\-1.5"}, {"1e5", "\\1e5"},
        {"1.", "\\1."}, {"+", "+"}, {"1+", "1+"}, {"-", "-"},
        {"0.0e+NaN", "\\0.0e+NaN"}, {"a b", "a\\ b"}, {"a\tb", "a\\\tb"},
        {"a\xc2\xa0" "b", "a\\\xc2\xa0" "b"},
        {"a(b)c[d];e\"f'g`h,i#j\\k", "a\\(b\\)c\\[d\\]\\;e\\\"f\\'g\\`h\\,i\\#j\\\\k"},
        {"{|}~!@$%^&*_=<>/:", "{|}~!@$%^&*_=<>/:"}, {"\xc3\xa9\xe2\x80\x98", "\xc3\xa9\xe2\x80\x98"},
        {"#foo", "\\#foo"}, {"a#", "a\\#"}, {":kw", ":kw"}, {"\x7f", "\x7f"},
        {".e5", "\\.e5"}, {"1.5.", "1.5."}, {"+1", "\\+1"}, {"+-1", "+-1"},
        {"--1", "--1"}, {"-.", "-."}, {"1e", "1e"}, {"1.5e", "1.5e"}, {"e5", "e5"},
        {"1e3.", "1e3."}, {"1..", "1.."}, {"1_000", "1_000"}, {"1a", "1a"},
        {".", "\\."}, {"+.", "+."}, {"-1e+INF", "\\-1e+INF"}, {"1e+INF", "\\1e+INF"},
        {".5e+NaN", "\\.5e+NaN"}, {"1E5", "\\1E5"}, {"1e+5", "\\1e+5"}, {"1.e5", "\\1.e5"},
        {"-0", "\\-0"}, {"+.5", "\\+.5"}, {"1e-INF", "1e-INF"}, {"5.e+INF", "\\5.e+INF"},
        {"-.5e3", "\\-.5e3"}, {"1e5x", "1e5x"}, {"\\", "\\\\"}, {"a\nb", "a\\\nb"},
        {"??", "\\??"}, {"?.", "\\?."}, {"..", "\\.."}, {"...", "\\..."}, {"-?", "-?"},
        {"a?", "a?"}, {"a.", "a."}, {"-.e5", "-.e5"}, {".?", "\\.?"}, {"?", "\\?"},
        {"\x03", "\\\x03"}, {"1\xc2\xa0", "1\\\xc2\xa0"}, {"", "##"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        CHECK(f, S(f, cases[k][0]), cases[k][1]);
    assert_true(print_name_is_number("-1.5e-3", 7));
    assert_false(print_name_is_number("-1.5e-", 6));
    fx_free(f);
}

/* Names of every length up to 24, in a list and alone, printed twice:
 * the first print learns that the name needs no backslash, the second
 * copies it by the short-name path (words of 4 and 8 bytes). */
static void symbol_name_lengths(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    const char *abc = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    char name[48], want[160];
    /* every copy the fast path makes (1-3, 4-7, 8-16, 17-32 bytes and
     * longer), the first time (the name is scanned) and after */
    for (int round = 0; round < 2; round++)
        for (size_t n = 1; n <= 40; n++) {
            memcpy(name, abc, n);
            name[n] = 0;
            CHECK(f, S(f, name), name);
            snprintf(want, sizeof want, "(x %s . %s)", name, name);
            CHECK(f, lisp_cons_dot(f, S(f, "x"), S(f, name), S(f, name)), want);
            snprintf(want, sizeof want, "(x '%s #'%s)", name, name);
            CHECK(f, LIST(f, S(f, "x"), LIST(f, f->L->quote, S(f, name)),
                          LIST(f, f->L->function, S(f, name))), want);
        }
    fx_free(f);
}

static void uninterned_symbols(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *g = intern_uninterned(f->L, "foo", 3);
    struct value *e = intern_uninterned(f->L, "", 0);
    struct value *one = intern_uninterned(f->L, "1", 1);
    CHECK(f, g, "foo");
    CHECK(f, e, "##");
    f->o.gensym = true;
    CHECK(f, g, "#:foo");
    CHECK(f, e, "#:");
    CHECK(f, one, "#:\\1");
    struct value *x = intern_uninterned(f->L, "x", 1);
    CHECK(f, LIST(f, x, x), "(#:x #:x)");
    f->o.circle = true;
    CHECK(f, LIST(f, x, x), "(#1=#:x #1#)");
    f->o.gensym = false;
    CHECK(f, LIST(f, x, LIST(f, x), x), "(x (x) x)");
    fx_free(f);
}

/* ---- strings ---- */

static void strings_default(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    CHECK(f, STR(f, "abc"), "\"abc\"");
    CHECK(f, STR(f, "a\"b\\c"), "\"a\\\"b\\\\c\"");
    CHECK(f, STR(f, "a\nb\tc\fd\re"), "\"a\nb\tc\fd\re\"");
    struct buf b;
    buf_init(&b, f->a);
    print_value(f->L, &b, UNI(f, "\0\1\033\177", 4), &f->o);
    assert_int_equal(b.len, 6); /* NUL and the other controls literally */
    assert_memory_equal(b.data, "\"\0\1\033\177\"", 6);
    CHECK(f, STR(f, "\xc3\xa9"), "\"\xc3\xa9\"");
    CHECK(f, UNI(f, "\377", 1), "\"\\377\"");
    CHECK(f, value_string(f->a, "\xc1\xbf", 2, true), "\"\\377\""); /* raw byte */
    CHECK(f, value_string(f->a, "\xc3\xa9\xc1\xbf", 4, true), "\"\xc3\xa9\\377\"");
    CHECK(f, UNI(f, "\x80", 1), "\"\\200\"");
    CHECK(f, STR(f, "\xc2\x80"), "\"\xc2\x80\"");
    CHECK(f, STR(f, "\xf8\x8f\xbf\xbd\xbf"), "\"\xf8\x8f\xbf\xbd\xbf\""); /* 0x3FFF7F */
    f->o.escape_nonascii = true; /* always on in prin1-to-string anyway */
    CHECK(f, LIST(f, UNI(f, "\377", 1), STR(f, "\xc3\xa9")), "(\"\\377\" \"\xc3\xa9\")");
    fx_free(f);
}

/* Runs of plain bytes end at each byte that needs a backslash, wherever
 * it falls in the four bytes the scan takes at a time. */
static void string_runs(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    const char specials[] = "\"\\\n\f";
    char text[24], want[48];
    /* every place in the first three words the fast path checks at once */
    for (int esc = 0; esc < 2; esc++) {
        f->o.escape_newlines = esc;
        for (size_t n = 1; n <= 20; n++)
            for (size_t i = 0; i < n; i++)
                for (const char *c = specials; *c; c++) {
                    memset(text, 'a', n);
                    text[i] = *c;
                    text[n] = 0;
                    bool nl = *c == '\n' || *c == '\f', slash = !nl || esc;
                    char shown = !slash ? *c : *c == '\n' ? 'n' : *c == '\f' ? 'f' : *c;
                    snprintf(want, sizeof want, "\"%.*s%s%c%s\"", (int)i, text,
                             slash ? "\\" : "", shown, text + i + 1);
                    CHECK(f, STR(f, text), want);
                }
    }
    /* short strings: empty, a multibyte character, a raw byte */
    CHECK(f, STR(f, ""), "\"\"");
    CHECK(f, value_string(f->a, "x\xc3\xa9", 3, true), "\"x\xc3\xa9\"");
    CHECK(f, value_string(f->a, "\xc1\xbfy", 3, true), "\"\\377y\"");
    /* a tab is copied as it is; a multibyte character in a word stops it */
    CHECK(f, STR(f, "abcdefgh\tij\xc3\xa9klmnopq\"r"), "\"abcdefgh\tij\xc3\xa9klmnopq\\\"r\"");
    /* past the length the fast path writes itself: the same escapes */
    char longer[80];
    memset(longer, 'a', 70);
    memcpy(longer + 64, "\"\xc1\xbf\n\xc3\xa9", 7); /* 6 bytes and the NUL */
    CHECK(f, value_string(f->a, longer, 70, true),
          "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
          "\\\"\\377\\n\xc3\xa9\"");
    CHECK(f, value_string(f->a, longer + 8, 62, true),
          "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
          "\\\"\\377\\n\xc3\xa9\"");
    fx_free(f);
}

static void strings_escape_settings(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.escape_newlines = true;
    CHECK(f, STR(f, "a\nb\tc\fd\re"), "\"a\\nb\tc\\fd\re\"");
    f->o.escape_newlines = false;
    f->o.escape_control = true;
    CHECK(f, STR(f, "a\nb\tc\fd\001\0017\0018\177\033"),
          "\"a\\12b\\11c\\14d\\1\\0017\\18\\177\\33\"");
    CHECK(f, LIST(f, UNI(f, "\0", 1), UNI(f, "\1\2", 2), UNI(f, "\0330", 2),
                  UNI(f, "\0338", 2), UNI(f, "\0377", 2), STR(f, "\xc3\xa9\t")),
          "(\"\\0\" \"\\1\\2\" \"\\0330\" \"\\338\" \"\\0377\" \"\xc3\xa9\\11\")");
    f->o.escape_newlines = true;
    CHECK(f, STR(f, "a\nb\fc\t"), "\"a\\nb\\fc\\11\"");
    f->o.escape_newlines = false;
    f->o.escape_multibyte = true;
    CHECK(f, LIST(f, STR(f, "\xc3\xa9\n"), STR(f, "\xc3\xa9\0017")),
          "(\"\\x00e9\\12\" \"\\x00e9\\0017\")");
    f->o.escape_control = false;
    CHECK(f, LIST(f, STR(f, "\xc3\xa9"), STR(f, "\xc3\xa9" "a"), STR(f, "\xc3\xa9z"),
                  STR(f, "\xc3\xa9" "9"), STR(f, "\xf0\x9f\x98\x80"), UNI(f, "\377", 1),
                  STR(f, "\xf8\x8f\xbf\xbd\xbf" "a"), value_string(f->a, "\xc3\xa9\xc1\xbf" "a", 5, true),
                  STR(f, "\xc3\xa9" "A"), STR(f, "\xc3\xa9 ")),
          "(\"\\x00e9\" \"\\x00e9\\ a\" \"\\x00e9z\" \"\\x00e9\\ 9\" \"\\x1f600\" \"\\377\" "
          "\"\\x3fff7f\\ a\" \"\\x00e9\\377a\" \"\\x00e9\\ A\" \"\\x00e9 \")");
    fx_free(f);
}

/* (B E PLIST ...) property list for a string. */
static struct value *with_props(struct value *s, struct value *props)
{
    s->u.str.props = props;
    return s;
}

static void strings_with_properties(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *face = LIST(f, S(f, "face"), S(f, "bold"));
    CHECK(f, with_props(STR(f, "abc"), LIST(f, I(f, 0), I(f, 3), face)),
          "#(\"abc\" 0 3 (face bold))");
    struct value *s = with_props(STR(f, "abcd"),
                                 LIST(f, I(f, 0), I(f, 2), face, I(f, 3), I(f, 4),
                                      LIST(f, S(f, "k"), LIST(f, I(f, 1), I(f, 2)))));
    CHECK(f, s, "#(\"abcd\" 0 2 (face bold) 3 4 (k (1 2)))");
    f->o.length = 1;
    CHECK(f, s, "#(\"abcd\" 0 2 (face ...) 3 4 (k ...))");
    f->o.length = -1;
    f->o.integers_as_chars = true;
    CHECK(f, with_props(STR(f, "x"), LIST(f, I(f, 0), I(f, 100), LIST(f, S(f, "a"), I(f, 97)))),
          "#(\"x\" 0 ?d (a ?a))");
    fx_free(f);
}

static void strings_charset_property(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *cs = LIST(f, S(f, "charset"), S(f, "iso-8859-1"));
    struct value *only = with_props(STR(f, "ab"), LIST(f, I(f, 0), I(f, 1), cs));
    CHECK(f, only, "\"ab\"");
    f->o.charset_props = 1;
    CHECK(f, only, "#(\"ab\" 0 1 (charset iso-8859-1))");
    f->o.charset_props = 2;
    struct value *cx = LIST(f, S(f, "charset"), S(f, "x"), S(f, "face"), S(f, "bold"));
    struct value *mixed = with_props(STR(f, "\xc3\xa9" "b"),
                                     LIST(f, I(f, 0), I(f, 1), cx, I(f, 1), I(f, 2),
                                          LIST(f, S(f, "face"), S(f, "bold"))));
    /* e-acute is not in charset x: the property carries information. */
    CHECK(f, mixed, "#(\"\xc3\xa9" "b\" 0 1 (charset x face bold) 1 2 (face bold))");
    cx->u.cons.cdr->u.cons.car = S(f, "unicode");
    CHECK(f, mixed, "#(\"\xc3\xa9" "b\" 0 1 (face bold) 1 2 (face bold))");
    f->o.charset_props = 0;
    cx->u.cons.cdr->u.cons.car = S(f, "x");
    CHECK(f, mixed, "#(\"\xc3\xa9" "b\" 0 1 (face bold) 1 2 (face bold))");
    fx_free(f);
}

/* ---- lists, quote forms ---- */

static void lists_and_quotes(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *a = S(f, "a"), *b = S(f, "b"), *c = S(f, "c"), *x = S(f, "x");
    struct value *q = f->L->quote, *fn = f->L->function, *bq = f->L->backquote;
    struct value *cm = f->L->comma, *ca = f->L->comma_at;
    CHECK(f, LIST(f, a, b, c), "(a b c)");
    CHECK(f, value_cons(f->a, a, b), "(a . b)");
    CHECK(f, value_cons(f->a, a, value_cons(f->a, b, c)), "(a b . c)");
    CHECK(f, f->L->nil, "nil");
    CHECK(f, LIST(f, q, x), "'x");
    CHECK(f, LIST(f, fn, x), "#'x");
    struct value *tmpl = LIST(f, bq, LIST(f, a, LIST(f, cm, b), LIST(f, ca, c)));
    CHECK(f, tmpl, "`(a ,b ,@c)");
    CHECK(f, LIST(f, cm, x), "(\\, x)");
    CHECK(f, LIST(f, ca, x), "(\\,@ x)");
    CHECK(f, LIST(f, q, x, S(f, "y")), "(quote x y)");
    CHECK(f, value_cons(f->a, q, x), "(quote . x)");
    CHECK(f, LIST(f, q), "(quote)");
    CHECK(f, LIST(f, a, q, b), "(a quote b)");
    CHECK(f, LIST(f, bq, value_cons(f->a, a, LIST(f, cm, b))), "`(a \\, b)");
    CHECK(f, LIST(f, bq, LIST(f, bq, LIST(f, a, LIST(f, cm, LIST(f, cm, b))))), "``(a ,,b)");
    CHECK(f, LIST(f, bq, LIST(f, q, LIST(f, cm, x))), "`',x");
    /* `,@b` would read as a splice: a comma before a symbol named @...
     * stays a list (Emacs's prin1 writes the unreadable `,@b`). */
    CHECK(f, LIST(f, bq, LIST(f, a, LIST(f, cm, S(f, "@b")), LIST(f, ca, S(f, "@c")))),
          "`(a (\\, @b) ,@@c)");
    CHECK(f, LIST(f, q, LIST(f, q, x)), "''x");
    /* One level out after a comma: the inner comma is a plain list again. */
    CHECK(f, LIST(f, bq, LIST(f, cm, LIST(f, cm, x))), "`,(\\, x)");
    CHECK(f, vec(f, VK_VECTOR, 2, (struct value *[]){bq, LIST(f, bq, vec(f, VK_VECTOR, 1, (struct value *[]){LIST(f, cm, x)}))}),
          "[\\` `[,x]]");
    f->o.quoted = false;
    CHECK(f, LIST(f, LIST(f, q, x), LIST(f, fn, S(f, "y")), tmpl),
          "((quote x) (function y) (\\` (a (\\, b) (\\,@ c))))");
    fx_free(f);
}

static void print_length_and_level(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *l4 = LIST(f, I(f, 1), I(f, 2), I(f, 3), I(f, 4));
    struct value *v4 = vec(f, VK_VECTOR, 4, (struct value *[]){I(f, 1), I(f, 2), I(f, 3), I(f, 4)});
    f->o.length = 2;
    CHECK(f, l4, "(1 2 ...)");
    CHECK(f, v4, "[1 2 ...]");
    f->o.length = 0;
    CHECK(f, l4, "(...)");
    CHECK(f, v4, "[...]");
    CHECK(f, LIST(f, f->L->quote, S(f, "a")), "'a");
    struct value *r = vec(f, VK_RECORD, 3, (struct value *[]){S(f, "a"), I(f, 1), I(f, 2)});
    CHECK(f, r, "#s(...)");
    f->o.length = 1;
    CHECK(f, r, "#s(a ...)");
    f->o.length = -1;
    f->o.level = 1;
    CHECK(f, LIST(f, I(f, 1), LIST(f, I(f, 2), LIST(f, I(f, 3)))), "(1 ...)");
    /* 'X is X printed at the quote form's level; ` and , count one */
    CHECK(f, LIST(f, f->L->quote, LIST(f, S(f, "b"))), "'(b)");
    CHECK(f, LIST(f, f->L->backquote, LIST(f, S(f, "b"))), "`...");
    CHECK(f, LIST(f, S(f, "a"), S(f, "b"), S(f, "c")), "(a b c)");
    /* Vectors and records count a level, but only a cons is cut. */
    CHECK(f, LIST(f, v4, r), "([1 2 3 4] #s(a 1 2))");
    f->o.level = 2;
    CHECK(f, LIST(f, S(f, "a"), vec(f, VK_VECTOR, 1, (struct value *[]){LIST(f, S(f, "b"), LIST(f, S(f, "c")))})),
          "(a [...])");
    f->o.level = 0;
    CHECK(f, LIST(f, I(f, 1)), "...");
    CHECK(f, v4, "[1 2 3 4]");
    fx_free(f);
}

/* ---- circular and shared structure ---- */

static void circular_without_print_circle(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *x = LIST(f, I(f, 1), I(f, 2));
    x->u.cons.cdr->u.cons.cdr = x;
    CHECK(f, x, "(1 2 1 2 . #2)");
    struct value *y = LIST(f, I(f, 1), I(f, 2), I(f, 3));
    y->u.cons.cdr->u.cons.cdr->u.cons.cdr = y;
    CHECK(f, y, "(1 2 3 1 2 . #2)");
    y->u.cons.cdr->u.cons.cdr->u.cons.cdr = y->u.cons.cdr;
    CHECK(f, y, "(1 2 3 2 . #2)");
    struct value *items[10];
    for (int k = 0; k < 10; k++)
        items[k] = I(f, k + 1);
    struct value *z = lisp_list(f->L, 10, items), *last = z, *eighth = z;
    while (last->u.cons.cdr != f->L->nil)
        last = last->u.cons.cdr;
    for (int k = 0; k < 7; k++)
        eighth = eighth->u.cons.cdr;
    last->u.cons.cdr = eighth;
    CHECK(f, z, "(1 2 3 4 5 6 7 8 9 10 8 9 10 8 9 10 8 . #14)"); /* the tortoise's index */
    struct value *one = LIST(f, I(f, 1));
    one->u.cons.cdr = one;
    CHECK(f, one, "(1 . #0)");
    CHECK(f, LIST(f, one), "((1 . #0))");
    f->o.length = 3;
    CHECK(f, one, "(1 . #0)");
    f->o.length = 1; /* print-length cuts the list before the cycle is seen */
    CHECK(f, one, "(1 ...)");
    fx_free(f);
}

static void self_reference_without_print_circle(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *v = vec(f, VK_VECTOR, 1, (struct value *[]){I(f, 1)});
    v->u.vec.items[0] = v;
    CHECK(f, v, "[#0]");
    struct value *self = LIST(f, I(f, 1));
    self->u.cons.car = self;
    CHECK(f, self, "(#0)");
    struct value *r = vec(f, VK_RECORD, 2, (struct value *[]){S(f, "a"), I(f, 1)});
    r->u.vec.items[1] = LIST(f, r);
    CHECK(f, r, "#s(a (#0))");
    /* A shared (not circular) object is printed twice. */
    struct value *sh = LIST(f, I(f, 1));
    CHECK(f, LIST(f, sh, vec(f, VK_RECORD, 2, (struct value *[]){S(f, "r"), sh})),
          "((1) #s(r (1)))");
    fx_free(f);
}

static void print_circle_labels(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.circle = true;
    struct value *x = LIST(f, I(f, 1), I(f, 2));
    x->u.cons.cdr->u.cons.cdr = x;
    CHECK(f, x, "#1=(1 2 . #1#)");
    struct value *one = LIST(f, I(f, 1));
    CHECK(f, LIST(f, one, one), "(#1=(1) #1#)");
    CHECK(f, LIST(f, S(f, "a"), one, S(f, "b"), one), "(a #1=(1) b #1#)");
    struct value *v = vec(f, VK_VECTOR, 1, (struct value *[]){I(f, 1)});
    v->u.vec.items[0] = v;
    CHECK(f, v, "#1=[#1#]");
    /* Numbers follow the scan (second sighting), not the printing order. */
    struct value *a = LIST(f, I(f, 1)), *b = LIST(f, I(f, 2));
    CHECK(f, LIST(f, a, b, b, a), "(#2=(1) #1=(2) #1# #2#)");
    /* Shared tails print as ". #N#". */
    struct value *t = LIST(f, I(f, 1), I(f, 2));
    CHECK(f, LIST(f, t, t->u.cons.cdr), "((1 . #1=(2)) #1#)");
    CHECK(f, LIST(f, t->u.cons.cdr, t), "(#1=(2) (1 . #1#))");
    struct value *t23 = LIST(f, I(f, 2), I(f, 3));
    CHECK(f, value_cons(f->a, I(f, 1), value_cons(f->a, t23, t23)), "(1 #1=(2 3) . #1#)");
    /* Quote forms are abbreviated even when their tail is shared. */
    struct value *three = LIST(f, I(f, 3));
    CHECK(f, LIST(f, value_cons(f->a, f->L->quote, three), three), "('3 #1=(3))");
    f->o.level = 1;
    CHECK(f, LIST(f, one, one), "(#1=... #1#)");
    f->o.level = -1;
    f->o.length = 1;
    struct value *l3 = LIST(f, I(f, 1), I(f, 2), I(f, 3));
    CHECK(f, LIST(f, l3, l3->u.cons.cdr->u.cons.cdr), "((1 ...) ...)");
    fx_free(f);
}

/* Emacs 30 labels every string printed more than once. */
static void print_circle_strings(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.circle = true;
    struct value *s = STR(f, "x");
    CHECK(f, LIST(f, s, s), "(#1=\"x\" #1#)");
    CHECK(f, LIST(f, s, LIST(f, s)), "(#1=\"x\" (#1#))");
    CHECK(f, LIST(f, LIST(f, s), LIST(f, s)), "((#1=\"x\") (#1#))");
    CHECK(f, LIST(f, LIST(f, s), s), "((#1=\"x\") #1#)");
    CHECK(f, value_cons(f->a, s, value_cons(f->a, s, s)), "(#1=\"x\" #1# . #1#)");
    CHECK(f, LIST(f, LIST(f, s), value_cons(f->a, s, s)), "((#1=\"x\") (#1# . #1#))");
    CHECK(f, LIST(f, S(f, "a"), LIST(f, f->L->quote, s), s), "(a '#1=\"x\" #1#)");
    struct value *p = with_props(STR(f, "p"), LIST(f, I(f, 0), I(f, 1), LIST(f, S(f, "a"), I(f, 1))));
    CHECK(f, LIST(f, p, p), "(#1=#(\"p\" 0 1 (a 1)) #1#)");
    struct value *q = with_props(STR(f, "a"), LIST(f, I(f, 0), I(f, 1), LIST(f, S(f, "y"), s, S(f, "x"), s)));
    CHECK(f, q, "#(\"a\" 0 1 (y #1=\"x\" x #1#))");
    CHECK(f, vec(f, VK_VECTOR, 2, (struct value *[]){s, s}), "[#1=\"x\" #1#]");
    /* Emacs has one empty unibyte string, one multibyte, one empty vector. */
    struct value *eu = UNI(f, "", 0), *em = value_string(f->a, "", 0, true);
    CHECK(f, LIST(f, UNI(f, "", 0), LIST(f, eu), vec(f, VK_VECTOR, 0, NULL),
                  vec(f, VK_VECTOR, 0, NULL), em, LIST(f, value_string(f->a, "", 0, true))),
          "(#1=\"\" (#1#) #2=[] #2# #3=\"\" (#3#))");
    fx_free(f);
}

static struct value *hash(struct fx *f, struct value *data)
{
    struct value *h = arena_zalloc(f->a, sizeof *h);
    h->kind = VK_HASHTABLE;
    h->u.hash.test = S(f, "eql");
    h->u.hash.data = data;
    return h;
}

/* Emacs 30's format: the test unless eql, weakness, purecopy, the data
 * when there is some. */
static void hash_tables(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *h = hash(f, f->L->nil);
    CHECK(f, h, "#s(hash-table)");
    h->u.hash.test = S(f, "equal");
    h->u.hash.data = LIST(f, STR(f, "k"), I(f, 1));
    CHECK(f, h, "#s(hash-table test equal data (\"k\" 1))");
    struct value *w = hash(f, LIST(f, S(f, "a"), I(f, 2), S(f, "b"), I(f, 3)));
    w->u.hash.test = S(f, "eq");
    w->u.hash.weakness = S(f, "key");
    w->u.hash.purecopy = true;
    CHECK(f, w, "#s(hash-table test eq weakness key purecopy t data (a 2 b 3))");
    struct value *p = hash(f, LIST(f, I(f, 1), I(f, 2), I(f, 3), I(f, 4)));
    f->o.length = 1;
    CHECK(f, p, "#s(hash-table data (1 2 ...))");
    f->o.length = 0;
    CHECK(f, p, "#s(hash-table data (...))");
    f->o.length = -1;
    p->u.hash.data = LIST(f, I(f, 1), p);
    CHECK(f, p, "#s(hash-table data (1 #0))");
    fx_free(f);
}

static void hash_tables_with_print_circle(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.circle = true;
    struct value *s = STR(f, "k");
    struct value *h = hash(f, LIST(f, s, I(f, 1)));
    CHECK(f, LIST(f, h, s), "(#s(hash-table data (#1=\"k\" 1)) #1#)");
    h->u.hash.data = LIST(f, s, s);
    CHECK(f, h, "#s(hash-table data (#1=\"k\" #1#))");
    CHECK(f, LIST(f, h), "(#s(hash-table data (#1=\"k\" #1#)))");
    /* No free slot takes a label (Emacs 30's tables read have none). */
    f->o.gensym = true;
    struct value *a = LIST(f, I(f, 1));
    h->u.hash.data = LIST(f, I(f, 1), I(f, 2));
    CHECK(f, LIST(f, h, a, a), "(#s(hash-table data (1 2)) #1=(1) #1#)");
    struct value *u = intern_uninterned(f->L, "u", 1);
    h->u.hash.data = LIST(f, u, u);
    CHECK(f, LIST(f, h, u, u), "(#s(hash-table data (#1=#:u #1#)) #1# #1#)");
    fx_free(f);
}

static void vectors_records_and_tables(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    CHECK(f, vec(f, VK_VECTOR, 0, NULL), "[]");
    CHECK(f, vec(f, VK_VECTOR, 4, (struct value *[]){I(f, 1), STR(f, "a"), LIST(f, S(f, "b")),
                                                     vec(f, VK_VECTOR, 1, (struct value *[]){S(f, "c")})}),
          "[1 \"a\" (b) [c]]");
    CHECK(f, vec(f, VK_RECORD, 3, (struct value *[]){S(f, "foo"), I(f, 1), STR(f, "a")}),
          "#s(foo 1 \"a\")");
    CHECK(f, vec(f, VK_BYTECODE, 5, (struct value *[]){I(f, 257), UNI(f, "\211@\207", 3),
                                                       vec(f, VK_VECTOR, 0, NULL), I(f, 2),
                                                       STR(f, "\n\n(fn X)")}),
          "#[257 \"\\211@\\207\" [] 2 \"\n\n(fn X)\"]");
    fx_free(f);
}

static void char_tables(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *sub3[130], *sub1[18];
    sub3[0] = I(f, 3), sub3[1] = I(f, 0);
    for (int k = 2; k < 130; k++)
        sub3[k] = f->L->nil;
    sub1[0] = I(f, 1), sub1[1] = I(f, 0), sub1[2] = vec(f, VK_SUBCHARTABLE, 130, sub3);
    for (int k = 3; k < 18; k++)
        sub1[k] = S(f, "x");
    struct value *st = vec(f, VK_SUBCHARTABLE, 18, sub1);
    struct buf want;
    buf_init(&want, f->a);
    buf_puts(&want, "#^^[1 0 #^^[3 0"); /* Emacs 30: no newline before depth 3 */
    for (int k = 0; k < 128; k++)
        buf_puts(&want, " nil");
    buf_puts(&want, "]");
    for (int k = 3; k < 18; k++)
        buf_puts(&want, " x");
    buf_puts(&want, "]");
    CHECK(f, st, buf_cstr(&want));
    f->o.length = 70; /* Emacs's slot 0 (depth, min-char) counts */
    buf_init(&want, f->a);
    buf_puts(&want, "#^^[3 0");
    for (int k = 0; k < 69; k++)
        buf_puts(&want, " nil");
    buf_puts(&want, " ...]");
    CHECK(f, sub1[2], buf_cstr(&want));
    f->o.length = 0;
    CHECK(f, sub1[2], "#^^[3 0 ...]");
    f->o.length = 2;
    CHECK(f, vec(f, VK_CHARTABLE, 3, (struct value *[]){f->L->nil, f->L->nil, S(f, "foo")}),
          "#^[nil nil ...]");
    fx_free(f);
}

static void bool_vectors(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *bv = arena_zalloc(f->a, sizeof *bv);
    bv->kind = VK_BOOLVEC;
    bv->u.bv.nbits = 3;
    bv->u.bv.bits = (const uint8_t *)"\007";
    CHECK(f, bv, "#&3\"\007\"");
    bv->u.bv.nbits = 10;
    bv->u.bv.bits = (const uint8_t *)"\377\003";
    CHECK(f, bv, "#&10\"\\377\003\"");
    bv->u.bv.nbits = 0;
    CHECK(f, bv, "#&0\"\"");
    bv->u.bv.nbits = 12;
    bv->u.bv.bits = (const uint8_t *)"\n\"";
    CHECK(f, bv, "#&12\"\n\\\"\"");
    f->o.escape_newlines = true;
    CHECK(f, bv, "#&12\"\\n\\\"\"");
    f->o.escape_newlines = false;
    f->o.escape_control = true;
    bv->u.bv.nbits = 11;
    bv->u.bv.bits = (const uint8_t *)"\r\005";
    CHECK(f, bv, "#&11\"\\15\\5\"");
    f->o.escape_control = false;
    f->o.length = 2;
    bv->u.bv.nbits = 26;
    bv->u.bv.bits = (const uint8_t *)"\377\377\377\003";
    CHECK(f, bv, "#&26\"\\377\\377 ...\"");
    fx_free(f);
}

/* ---- depth, size, source text ---- */

static void deep_nesting_is_iterative(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    enum { DEPTH = 1000000 };
    struct value *v = f->L->nil;
    for (int k = 0; k < DEPTH; k++)
        v = value_cons(f->a, v, f->L->nil);
    const char *out = pr(f, v);
    size_t n = strlen(out);
    assert_int_equal(n, 2 * (size_t)DEPTH + 3);
    assert_memory_equal(out, "((((", 4);
    assert_memory_equal(out + DEPTH - 2, "((nil))", 7);
    assert_int_equal(out[n - 1], ')');
    /* Quote chains and vectors are walked the same way. */
    struct value *q = S(f, "x");
    for (int k = 0; k < DEPTH; k++)
        q = LIST(f, f->L->quote, q);
    out = pr(f, q);
    assert_int_equal(strlen(out), (size_t)DEPTH + 1);
    assert_string_equal(out + DEPTH - 3, "'''x");
    struct value *w = I(f, 7);
    for (int k = 0; k < DEPTH / 4; k++)
        w = vec(f, VK_VECTOR, 1, &w);
    out = pr(f, w);
    assert_int_equal(strlen(out), 2 * (size_t)(DEPTH / 4) + 1);
    f->o.circle = true;
    out = pr(f, v);
    assert_int_equal(strlen(out), 2 * (size_t)DEPTH + 3);
    fx_free(f);
}

static void long_list(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    enum { N = 1000000 };
    struct value *v = f->L->nil;
    for (int k = 0; k < N; k++)
        v = value_cons(f->a, I(f, k % 10), v);
    const char *out = pr(f, v);
    assert_int_equal(strlen(out), 2 * (size_t)N + 1);
    assert_memory_equal(out, "(9 8 7", 6);
    fx_free(f);
}

/* A circular structure deeper than the frame scan limit still ends. */
static void deep_self_reference(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *inner = LIST(f, I(f, 0)), *v = inner;
    for (int k = 0; k < 100; k++)
        v = LIST(f, v);
    inner->u.cons.car = v;
    const char *out = pr(f, v);
    assert_int_equal(strlen(out), 101 * 2 + 2);
    assert_memory_equal(out + 101, "#0", 2);
    out = pr(f, LIST(f, inner));
    assert_memory_equal(out + 102, "#1", 2);
    /* Beyond Emacs's 200-level limit only every 64th depth is remembered:
     * a cycle of 500 lists entered at depth 300 is cut when the one at the
     * remembered depth 320 comes round again, at depth 820. */
    struct value *ring[500];
    for (int k = 0; k < 500; k++)
        ring[k] = LIST(f, I(f, k));
    for (int k = 0; k < 500; k++)
        ring[k]->u.cons.car = ring[(k + 1) % 500];
    struct value *w = ring[0];
    for (int k = 0; k < 300; k++)
        w = LIST(f, w);
    out = pr(f, w);
    assert_int_equal(strlen(out), 820 * 2 + 4);
    assert_memory_equal(out + 820, "#320)", 5);
    fx_free(f);
}

static const uint8_t *source_of(void *ctx, const struct value *v, size_t *n)
{
    const struct value *want = ctx;
    if (v != want)
        return NULL;
    *n = 4;
    return (const uint8_t *)"#xFF";
}

static void atom_text_keeps_source(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *n = I(f, 255);
    f->o.atom_text = source_of;
    f->o.atom_ctx = n;
    CHECK(f, LIST(f, n, I(f, 255), n), "(#xFF 255 #xFF)");
    CHECK(f, n, "#xFF"); /* alone too */
    CHECK(f, I(f, 255), "255");
    fx_free(f);
}

/* An atom printed alone takes no frame, label or path: what the walker
 * would print, under print-circle and print-gensym too. */
static void lone_atoms(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *g = intern_uninterned(f->L, "g", 1);
    struct value *s = with_props(STR(f, "p"), LIST(f, I(f, 0), I(f, 1),
                                                   LIST(f, S(f, "face"), S(f, "bold"))));
    f->o.circle = true;
    f->o.gensym = true;
    CHECK(f, g, "#:g");
    CHECK(f, LIST(f, g, g), "(#1=#:g #1#)");
    CHECK(f, s, "#(\"p\" 0 1 (face bold))");
    CHECK(f, STR(f, "q"), "\"q\"");
    CHECK(f, F(f, 1.5), "1.5");
    fx_free(f);
}

static void compact_options(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o = print_opts_compact();
    assert_true(f->o.escape_newlines && f->o.quoted);
    assert_int_equal(f->o.length, -1);
    CHECK(f, LIST(f, STR(f, "a\nb"), LIST(f, f->L->quote, S(f, "x"))), "(\"a\\nb\" 'x)");
    struct buf b;
    buf_init(&b, f->a);
    buf_puts(&b, "x=");
    print_float(&b, 0.5);
    print_symbol(&b, S(f, "1"), false);
    assert_string_equal(buf_cstr(&b), "x=0.5\\1");
    fx_free(f);
}

/* ---- printer-cases.tsv ---- */

enum { COL_EXPR, COL_SETTINGS, COL_OUTPUT, COL_READBACK, NCOLS };

struct row {
    int line;              /* in the TSV file */
    char *col[NCOLS];      /* unescaped, NUL-terminated */
    size_t len[NCOLS];
    char name[96];         /* the cmocka test name */
};

static int rows_by_eval, rows_by_round_trip;

/* TSV field escapes: \\ \t \n \r and \ooo. */
static size_t tsv_unescape(char *s, size_t n)
{
    size_t o = 0;
    for (size_t k = 0; k < n; k++) {
        if (s[k] != '\\' || k + 1 >= n) {
            s[o++] = s[k];
            continue;
        }
        char c = s[++k];
        if (c >= '0' && c <= '7' && k + 2 < n) {
            s[o++] = (char)((c - '0') * 64 + (s[k + 1] - '0') * 8 + (s[k + 2] - '0'));
            k += 2;
        } else {
            s[o++] = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c;
        }
    }
    s[o] = 0;
    return o;
}

static bool setting_bool(const char *v)
{
    if (strcmp(v, "t") == 0)
        return true;
    assert_string_equal(v, "nil");
    return false;
}

/* One NAME=VALUE of the settings column into o. */
static void apply_setting(struct print_opts *o, char *name, char *v)
{
    static const struct {
        const char *name;
        size_t off;
    } flags[] = {
        {"print-circle", offsetof(struct print_opts, circle)},
        {"print-escape-control-characters", offsetof(struct print_opts, escape_control)},
        {"print-escape-multibyte", offsetof(struct print_opts, escape_multibyte)},
        {"print-escape-newlines", offsetof(struct print_opts, escape_newlines)},
        {"print-escape-nonascii", offsetof(struct print_opts, escape_nonascii)},
        {"print-gensym", offsetof(struct print_opts, gensym)},
        {"print-integers-as-characters", offsetof(struct print_opts, integers_as_chars)},
        {"print-quoted", offsetof(struct print_opts, quoted)},
    };
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        if (strcmp(name, flags[k].name) == 0) {
            *(bool *)((char *)o + flags[k].off) = setting_bool(v);
            return;
        }
    if (strcmp(name, "print-length") == 0 || strcmp(name, "print-level") == 0) {
        long n = strcmp(v, "nil") == 0 ? -1 : strtol(v, NULL, 10);
        *(strcmp(name, "print-length") == 0 ? &o->length : &o->level) = n;
    } else if (strcmp(name, "float-output-format") == 0) {
        size_t n = strlen(v);
        assert_true(n >= 2 && v[0] == '"' && v[n - 1] == '"');
        v[n - 1] = 0;
        o->float_format = v + 1;
    } else if (strcmp(name, "print-charset-text-property") == 0) {
        o->charset_props = strcmp(v, "t") == 0 ? 1 : strcmp(v, "nil") == 0 ? 0 : 2;
    } else {
        fail_msg("unknown print setting %s", name);
    }
}

/* The settings column ("" or NAME=VALUE separated by spaces), applied to
 * the defaults.  Works on a copy: float-output-format points into it. */
static void apply_settings(struct fx *f, const char *settings)
{
    char *copy = arena_strndup(f->a, settings, strlen(settings));
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        *eq = 0;
        apply_setting(&f->o, tok, eq + 1);
    }
}

static size_t count_chars(const char *s, size_t n)
{
    size_t chars = 0;
    for (size_t k = 0; k < n; chars++) {
        int len;
        value_char_decode((const uint8_t *)s + k, n - k, &len);
        k += (size_t)len;
    }
    return chars;
}

/* read-from-string of the whole text; NULL and *err on a read error. */
static struct value *read_all(struct fx *f, const char *text, size_t n, struct read_error *err)
{
    struct value *v = NULL;
    size_t consumed = 0;
    if (!read_one(f->L, (const uint8_t *)text, n, &v, &consumed, err))
        return NULL;
    assert_int_equal(consumed, count_chars(text, n));
    return v;
}

static void assert_prints(struct fx *f, const struct value *v, const struct row *r)
{
    struct buf b;
    buf_init(&b, f->a);
    print_value(f->L, &b, v, &f->o);
    check_tree(f, v, &b);
    if (b.len != r->len[COL_OUTPUT] || memcmp(b.data, r->col[COL_OUTPUT], b.len) != 0)
        fail_msg("line %d: printed\n  %s\nEmacs printed\n  %s", r->line, buf_cstr(&b),
                 r->col[COL_OUTPUT]);
}

/* The read_back column: what reading Emacs's output gives. */
static void check_read_back(struct fx *f, const struct row *r, const struct value *val)
{
    const char *rb = r->col[COL_READBACK];
    struct read_error err;
    struct value *back = read_all(f, r->col[COL_OUTPUT], r->len[COL_OUTPUT], &err);
    if (strncmp(rb, "read-error ", 11) == 0 && strcmp(rb + 11, "circular-list") != 0) {
        assert_null(back);
        assert_string_equal(err.symbol, rb + 11);
        return;
    }
    assert_non_null(back);
    if (strcmp(rb, "equal") == 0)
        assert_true(minieval_equal(back, val));
    else if (strcmp(rb, "NOT-equal") == 0)
        assert_false(minieval_equal(back, val));
    else /* circular data Emacs's equal refused: reprint what was read */
        assert_prints(f, back, r);
}

/* Rows whose value needs a real Emacs: `#<...>` must not read (the reader
 * stops at "#"); anything else must read and print back unchanged. */
static void check_by_round_trip(struct fx *f, const struct row *r)
{
    struct read_error err;
    struct value *back = read_all(f, r->col[COL_OUTPUT], r->len[COL_OUTPUT], &err);
    if (strncmp(r->col[COL_OUTPUT], "#<", 2) == 0) {
        assert_null(back);
        assert_string_equal(err.symbol, "invalid-read-syntax");
        assert_string_equal(err.message, "#<"); /* Emacs 30 names what it read */
        return;
    }
    assert_non_null(back);
    assert_prints(f, back, r);
}

static void printer_case(void **state)
{
    const struct row *r = *state;
    struct fx *f = fx_new();
    apply_settings(f, r->col[COL_SETTINGS]);
    struct read_error err;
    struct value *form = read_all(f, r->col[COL_EXPR], r->len[COL_EXPR], &err);
    if (!form)
        fail_msg("line %d: expression does not read: %s %s", r->line, err.symbol, err.message);
    struct value *val;
    const char *why;
    if (minieval(f->L, form, &val, &why)) {
        assert_prints(f, val, r);
        check_read_back(f, r, val);
        rows_by_eval++;
    } else {
        check_by_round_trip(f, r);
        rows_by_round_trip++;
    }
    fx_free(f);
}

/* Split the TSV (header line, then 4 columns per line) into rows. */
static size_t load_rows(char *text, struct row **out)
{
    size_t cap = 256, n = 0;
    struct row *rows = calloc(cap, sizeof *rows);
    char *line = strchr(text, '\n');
    for (int lineno = 2; line && line[1]; lineno++) {
        line++;
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        struct row *r = &rows[n];
        r->line = lineno;
        for (int c = 0; c < NCOLS; c++) {
            char *tab = c + 1 < NCOLS ? strchr(line, '\t') : NULL;
            if (tab)
                *tab = 0;
            r->col[c] = line;
            r->len[c] = tsv_unescape(line, strlen(line));
            line = tab ? tab + 1 : line + strlen(line);
        }
        snprintf(r->name, sizeof r->name, "printer-cases.tsv:%d %.60s", lineno, r->col[COL_EXPR]);
        for (char *p = r->name; *p; p++)
            if ((unsigned char)*p < 32)
                *p = ' ';
        if (++n == cap)
            rows = realloc(rows, (cap *= 2) * sizeof *rows);
        line = end;
    }
    *out = rows;
    return n;
}

static char *slurp_plain(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    size_t got = fread(buf, 1, (size_t)len, fp);
    fclose(fp);
    buf[got] = 0;
    return buf;
}

/* A temporary's text from the caller (gensym naming): only for the
 * symbol given as ctx. */
static const char *rename_one(void *ctx, const struct value *sym, size_t *n)
{
    if (sym != ctx)
        return NULL;
    *n = 6;
    return "pcx--x";
}

/* print_tree prints trees (with the caller's symbol texts) and gives up
 * on data inside itself and on every container but lists and vectors. */
static void tree_printing(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *tmp = intern_uninterned(f->L, "x", 1);
    struct value *vec = value_vector(f->a, VK_VECTOR, 2);
    vec->u.vec.items[0] = LIST(f, S(f, "quote"), tmp);
    vec->u.vec.items[1] = STR(f, "s");
    struct value *form = LIST(f, S(f, "let"), LIST(f, LIST(f, tmp, I(f, 1))),
                              LIST(f, S(f, "function"), S(f, "car")), vec);
    f->o.sym_text = rename_one;
    f->o.sym_ctx = tmp;
    assert_true(tree_prints(f, form));
    CHECK(f, form, "(let ((pcx--x 1)) #'car ['pcx--x \"s\"])");
    f->o.sym_text = NULL;
    struct value *loop = LIST(f, I(f, 1), I(f, 2));
    loop->u.cons.cdr->u.cons.cdr = loop;
    assert_false(tree_prints(f, loop));
    struct value *self = LIST(f, I(f, 1), I(f, 2));
    self->u.cons.cdr->u.cons.car = self;
    assert_false(tree_prints(f, self));
    assert_false(tree_prints(f, LIST(f, with_props(STR(f, "a"),
                                                   LIST(f, I(f, 0), I(f, 1),
                                                        LIST(f, S(f, "face"), S(f, "bold")))))));
    struct value *rec = value_vector(f->a, VK_RECORD, 1);
    rec->u.vec.items[0] = S(f, "point");
    assert_false(tree_prints(f, LIST(f, rec)));
    fx_free(f);
}

/* print_tree_fast's limits: the text's size (it stops soon after the
 * limit, not at the end), the depth, the options it takes. */
static void fast_path_limits(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o = print_opts_compact();
    struct value *list = f->L->nil;
    for (int k = 0; k < 10000; k++)
        list = value_cons(f->a, S(f, "abcd"), list);
    struct buf b;
    buf_init(&b, f->a);
    buf_puts(&b, "<");
    assert_false(print_tree_fast(f->L, &b, list, &f->o, 1000));
    assert_string_equal(buf_cstr(&b), "<");
    assert_true(b.cap < 4096); /* not the 50 kB the whole text takes */
    assert_false(print_tree_fast(f->L, &b, list, &f->o, 50000)); /* one byte short */
    assert_true(print_tree_fast(f->L, &b, list, &f->o, 50001));
    assert_int_equal(b.len, 1 + 50001);
    struct value *small = LIST(f, S(f, "a"), I(f, 12), STR(f, "s"));
    b.len = 0;
    assert_false(print_tree_fast(f->L, &b, small, &f->o, 9));
    assert_int_equal(b.len, 0);
    assert_true(print_tree_fast(f->L, &b, small, &f->o, 10));
    assert_string_equal(buf_cstr(&b), "(a 12 \"s\")");
    /* PRINT_FAST_DEPTH frames, lists and quote forms alike */
    struct value *deep = S(f, "x"), *quoted = S(f, "x");
    for (int k = 0; k < PRINT_FAST_DEPTH; k++) {
        deep = LIST(f, deep);
        quoted = LIST(f, f->L->quote, quoted);
    }
    b.len = 0;
    assert_true(print_tree_fast(f->L, &b, deep, &f->o, SIZE_MAX));
    assert_true(print_tree_fast(f->L, &b, quoted, &f->o, SIZE_MAX));
    assert_false(print_tree_fast(f->L, &b, LIST(f, deep), &f->o, SIZE_MAX));
    assert_false(print_tree_fast(f->L, &b, LIST(f, f->L->quote, quoted), &f->o, SIZE_MAX));
    assert_true(tree_prints(f, LIST(f, deep)));
    /* a quoted name counts as a frame too */
    struct value *qname = LIST(f, f->L->quote, S(f, "x"));
    for (int k = 0; k < PRINT_FAST_DEPTH - 1; k++)
        qname = LIST(f, qname);
    assert_true(print_tree_fast(f->L, &b, qname, &f->o, SIZE_MAX));
    assert_false(print_tree_fast(f->L, &b, LIST(f, qname), &f->o, SIZE_MAX));
    assert_true(tree_prints(f, LIST(f, qname)));
    f->o.circle = true;
    assert_false(print_tree_fast(f->L, &b, small, &f->o, SIZE_MAX));
    fx_free(f);
}

/* A name printed plain once is remembered for interned symbols only: an
 * uninterned one then still takes the caller's text. */
static void plain_names_cache(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o = print_opts_compact();
    struct value *tmp = intern_uninterned(f->L, "x", 1);
    struct value *odd = S(f, "a b");
    struct value *form = LIST(f, S(f, "setq"), tmp, odd, LIST(f, tmp, odd));
    CHECK(f, form, "(setq x a\\ b (x a\\ b))");
    f->o.sym_text = rename_one;
    f->o.sym_ctx = tmp;
    CHECK(f, form, "(setq pcx--x a\\ b (pcx--x a\\ b))");
    f->o.sym_text = NULL;
    f->o.gensym = true;
    CHECK(f, form, "(setq #:x a\\ b (#:x a\\ b))");
    fx_free(f);
}

/* Quoted names printed for the first time (their plain-name cache not
 * filled yet) by print_fast: the same text as once the cache is filled,
 * for names that print as they are, short and long, and names that need
 * a backslash or read as numbers. */
static void quoted_new_names(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o = print_opts_compact();
    struct lisp *L = f->L;
    struct value *form = LIST(
        f, LIST(f, L->quote, S(f, "qa")), LIST(f, L->function, S(f, "qb-function-name")),
        LIST(f, L->quote, S(f, "a-quoted-name-of-more-than-32-bytes")),
        LIST(f, L->quote, S(f, "q.c")), LIST(f, L->quote, S(f, ".qc")),
        LIST(f, L->quote, S(f, "12")),
        LIST(f, L->backquote, LIST(f, LIST(f, L->comma, S(f, "qd")),
                                   LIST(f, L->comma_at, S(f, "qe")), LIST(f, L->comma, S(f, "@qf")))));
    const char *want = "('qa #'qb-function-name 'a-quoted-name-of-more-than-32-bytes 'q.c '\\.qc '\\12 "
                       "`(,qd ,@qe (\\, @qf)))";
    for (int round = 0; round < 2; round++) {
        struct buf b;
        buf_init(&b, f->a);
        assert_true(print_fast(f->L, &b, form, &f->o));
        assert_string_equal(buf_cstr(&b), want);
    }
    assert_int_equal(S(f, "qa")->u.sym.plain, 1);
    assert_int_equal(S(f, "q.c")->u.sym.plain, 1);
    assert_int_equal(S(f, ".qc")->u.sym.plain, 2);
    fx_free(f);
}

/* print_fast on v: prints what print_value prints (true), or gives up
 * with the buffer as it was (false). */
static bool fast_prints(struct fx *f, const struct value *v)
{
    struct buf want, t;
    buf_init(&want, f->a);
    buf_init(&t, f->a);
    print_value(f->L, &want, v, &f->o);
    buf_puts(&t, "<");
    if (!print_fast(f->L, &t, v, &f->o)) {
        assert_string_equal(buf_cstr(&t), "<");
        return false;
    }
    assert_string_equal(buf_cstr(&t) + 1, buf_cstr(&want));
    return true;
}

/* The fast path takes plain trees (quote forms, backquote levels, dotted
 * tails, vectors, every atom kind) and leaves the rest to the general
 * walker: deep nesting, circular lists, records, strings with
 * properties, and options it does not implement. */
static void fast_path(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o = print_opts_compact();
    struct value *a = S(f, "a"), *b = S(f, "b"), *x = S(f, "x");
    struct value *bq = f->L->backquote, *cm = f->L->comma, *ca = f->L->comma_at;
    struct value *vec = value_vector(f->a, VK_VECTOR, 3);
    vec->u.vec.items[0] = value_float(f->a, 1.5);
    vec->u.vec.items[1] = STR(f, "l1\nl2");
    vec->u.vec.items[2] = LIST(f, f->L->quote, value_cons(f->a, a, I(f, 7)));
    struct value *forms[] = {
        LIST(f, a, value_cons(f->a, b, x), vec, f->L->nil),
        LIST(f, bq, LIST(f, a, LIST(f, cm, b), LIST(f, ca, x), LIST(f, cm, S(f, "@b")))),
        LIST(f, bq, LIST(f, cm, LIST(f, cm, x))),
        LIST(f, bq, LIST(f, bq, LIST(f, a, LIST(f, cm, LIST(f, cm, b))))),
        LIST(f, f->L->function, LIST(f, S(f, "lambda"), f->L->nil, S(f, "a b"))),
        value_cons(f->a, vec, vec), /* shared, not circular: printed twice */
        /* quote forms around lists, at each backquote level */
        LIST(f, bq, LIST(f, a, LIST(f, cm, LIST(f, b, x)), LIST(f, ca, LIST(f, x)),
                         LIST(f, cm, LIST(f, bq, LIST(f, cm, LIST(f, a)))))),
        LIST(f, a, LIST(f, f->L->quote, LIST(f, a, b)), LIST(f, cm, LIST(f, b)),
             LIST(f, f->L->quote, LIST(f, f->L->quote, LIST(f, a))), LIST(f, ca, LIST(f, x))),
        intern_uninterned(f->L, "g", 1),
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        assert_true(fast_prints(f, forms[i]));
    /* 250 levels: beyond the fast path, printed by print_tree all the same */
    struct value *deep = x;
    for (int i = 0; i < 250; i++)
        deep = LIST(f, deep);
    assert_false(fast_prints(f, deep));
    assert_true(tree_prints(f, deep));
    struct value *loop = LIST(f, I(f, 1), I(f, 2), I(f, 3));
    loop->u.cons.cdr->u.cons.cdr->u.cons.cdr = loop;
    assert_false(fast_prints(f, LIST(f, a, loop)));
    struct value *rec = value_vector(f->a, VK_RECORD, 1);
    rec->u.vec.items[0] = a;
    assert_false(fast_prints(f, LIST(f, rec)));
    assert_false(fast_prints(f, with_props(STR(f, "p"), LIST(f, I(f, 0), I(f, 1),
                                                           LIST(f, S(f, "face"), b)))));
    assert_true(print_fast_usable(&f->o));
    f->o.length = 2;
    assert_false(print_fast_usable(&f->o));
    fx_free(f);
}

/* A list of n elements made by item(k), its last cons returned in *last. */
static struct value *list_of(struct fx *f, int n, struct value *(*item)(struct fx *, int),
                             struct value **last)
{
    struct value *head = f->L->nil, **tail = &head;
    for (int k = 0; k < n; k++) {
        *tail = value_cons(f->a, item(f, k), f->L->nil);
        *last = *tail;
        tail = &(*tail)->u.cons.cdr;
    }
    return head;
}

static struct value *int_item(struct fx *f, int k) { return I(f, k); }
static struct value *str_item(struct fx *f, int k) { return k % 2 ? STR(f, "s") : S(f, "x"); }
static struct value *list_item(struct fx *f, int k) { return LIST(f, S(f, "f"), I(f, k)); }

/* The fast path checks for lists that run in a circle now and then, not
 * at every element: long lists still print, every circle is found, at
 * any depth, whatever the elements are. */
static void fast_path_cycles(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o = print_opts_compact();
    struct value *(*items[])(struct fx *, int) = {int_item, str_item, list_item};
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        struct value *last, *mid;
        struct value *list = list_of(f, 20000, items[i], &last);
        assert_true(fast_prints(f, LIST(f, S(f, "a"), list, list)));
        mid = list;
        for (int k = 0; k < 15000; k++)
            mid = mid->u.cons.cdr;
        last->u.cons.cdr = mid; /* the last 5000 elements run in a circle */
        assert_false(fast_prints(f, list));
        assert_false(fast_prints(f, LIST(f, S(f, "a"), LIST(f, S(f, "b"), list), I(f, 1))));
        struct value *small = list_of(f, 3, items[i], &last);
        last->u.cons.cdr = small;
        assert_false(fast_prints(f, LIST(f, LIST(f, small))));
        assert_false(fast_prints(f, LIST(f, f->L->quote, small)));
    }
    fx_free(f);
}

/* Texts of temporaries for temp_texts: "tK" for the Kth of syms, and
 * for every third one a name longer than the printer keeps; counts the
 * questions. */
struct temp_names {
    struct value *syms[40];
    char text[40][40];
    int asked;
};

static const char *temp_name(void *ctx, const struct value *sym, size_t *n)
{
    struct temp_names *t = ctx;
    t->asked++;
    for (int k = 0; k < 40; k++)
        if (t->syms[k] == sym) {
            *n = strlen(t->text[k]);
            return t->text[k];
        }
    return NULL;
}

/* The fast path asks for a temporary's text once per call and reuses
 * it: right whatever the number of temporaries (more than it keeps) and
 * the texts' lengths, and still asking every time for what it does not
 * keep (long texts, uninterned symbols the hook does not name). */
static void temp_texts(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o = print_opts_compact();
    struct temp_names *t = test_calloc(1, sizeof *t);
    struct buf want;
    buf_init(&want, f->a);
    struct value *list = f->L->nil;
    for (int k = 39; k >= 0; k--) {
        t->syms[k] = intern_uninterned(f->L, "g", 1);
        snprintf(t->text[k], sizeof t->text[k], k % 3 ? "t%d" : "temporary-number-%d", k);
    }
    for (int k = 39; k >= 0; k--)
        list = value_cons(f->a, LIST(f, t->syms[k], S(f, "x"), t->syms[k]), list);
    for (int k = 0; k < 40; k++)
        buf_printf(&want, "%s(%s x %s)", k ? " " : "(", t->text[k], t->text[k]);
    buf_puts(&want, ")");
    f->o.sym_text = temp_name;
    f->o.sym_ctx = t;
    CHECK(f, list, buf_cstr(&want));
    /* ten short texts, two occurrences each, and a symbol it does not name */
    struct value *g = intern_uninterned(f->L, "g", 1);
    list = LIST(f, g, g);
    for (int k = 9; k >= 0; k--)
        list = value_cons(f->a, LIST(f, t->syms[3 * k + 1], t->syms[3 * k + 1]), list);
    t->asked = 0;
    struct buf b;
    buf_init(&b, f->a);
    assert_true(print_fast(f->L, &b, list, &f->o));
    assert_string_equal(buf_cstr(&b), "((t1 t1) (t4 t4) (t7 t7) (t10 t10) (t13 t13) (t16 t16) "
                                      "(t19 t19) (t22 t22) (t25 t25) (t28 t28) g g)");
    assert_int_equal(t->asked, 10 + 2);
    test_free(t);
    fx_free(f);
}

#define T(fn) cmocka_unit_test(fn)

static const struct CMUnitTest unit_tests[] = {
    T(integers), T(integers_as_characters), T(floats_shortest_round_trip),
    T(floats_nan_payloads), T(float_output_format), T(symbol_escaping),
    T(symbol_name_lengths),
    T(uninterned_symbols), T(strings_default), T(string_runs), T(strings_escape_settings),
    T(strings_with_properties), T(strings_charset_property), T(lists_and_quotes),
    T(print_length_and_level), T(circular_without_print_circle),
    T(self_reference_without_print_circle), T(print_circle_labels),
    T(print_circle_strings), T(hash_tables), T(hash_tables_with_print_circle),
    T(vectors_records_and_tables), T(char_tables), T(bool_vectors), T(deep_nesting_is_iterative),
    T(long_list), T(deep_self_reference), T(atom_text_keeps_source), T(lone_atoms), T(compact_options),
    T(tree_printing), T(fast_path), T(fast_path_limits), T(fast_path_cycles),
    T(plain_names_cache), T(quoted_new_names), T(temp_texts),
};

int main(void)
{
    int failed = cmocka_run_group_tests_name("printer", unit_tests, NULL, NULL);
    char *text = slurp_plain(support_testdata("spec/printer-cases.tsv"));
    if (!text) {
        fprintf(stderr, "cannot read %s\n", support_testdata("spec/printer-cases.tsv"));
        return 1;
    }
    struct row *rows;
    size_t n = load_rows(text, &rows);
    struct CMUnitTest *cases = calloc(n, sizeof *cases);
    for (size_t k = 0; k < n; k++) {
        cases[k].name = rows[k].name;
        cases[k].test_func = printer_case;
        cases[k].initial_state = &rows[k];
    }
    failed += _cmocka_run_group_tests("printer-cases.tsv", cases, n, NULL, NULL);
    printf("printer-cases.tsv: %zu rows, %d checked by evaluation, %d by read-print round trip\n",
           n, rows_by_eval, rows_by_round_trip);
    if (n != 163 || (size_t)(rows_by_eval + rows_by_round_trip) != n)
        failed++;
    free(cases);
    free(rows);
    free(text);
    return failed ? 1 : 0;
}
