/* test_lex.c - tokens, trivia and decoding of the lexer.
 *
 * The trivia and token spans must tile the input exactly (that is what
 * lets the splicer reproduce untouched text byte for byte); the decoder
 * must follow Emacs's extended UTF-8 with raw bytes; token boundaries and
 * kinds follow elisp-syntax.md 1.1-1.12.
 */
#include "support.h"

#include <string.h>

#include "syntax/lex.h"

/* Lex all of text; check that lead/start/end tile it; return the number of
 * tokens before LK_EOF (or -1 on a lexical error). */
static long tile(const char *text, size_t len, struct lex_token *toks, size_t max)
{
    struct lex lx;
    lex_init(&lx, (const uint8_t *)text, len, 0);
    size_t at = 0;
    long n = 0;
    for (;;) {
        struct lex_token t;
        if (!lex_next(&lx, &t))
            return -1;
        assert_int_equal(t.lead, at);
        assert_true(t.lead <= t.start && t.start <= t.end);
        at = t.end;
        if (t.kind == LK_EOF) {
            assert_int_equal(t.end, len);
            return n;
        }
        if (toks && (size_t)n < max)
            toks[n] = t;
        n++;
    }
}

static void trivia_round_trip(void **state)
{
    (void)state;
    static const char text[] =
        "#!/usr/bin/emacs --script\n"
        ";;; x.el --- test -*- lexical-binding: t -*-\n"
        "\f\n(defun f (x) ; comment\n  \"doc \\\" string\"\r\n"
        "  (list ?a ?\\C-x #x1F 'y `(,z ,@w) #'car [1 2] . nil))\t\302\240\n"
        "#@5 skip\037 (a #!junk\n b) #s(r 1) #&3\"\\7\" #1=(a . #1#) ## #:u #_v\n"
        "\0\033 ; trailing comment";
    size_t len = sizeof text - 1;
    long n = tile(text, len, NULL, 0);
    assert_true(n > 40);
    /* Reassemble: every trivia and token span in order is the text. */
    struct lex lx;
    lex_init(&lx, (const uint8_t *)text, len, 0);
    char out[sizeof text];
    size_t w = 0;
    struct lex_token t;
    do {
        assert_true(lex_next(&lx, &t));
        memcpy(out + w, text + t.lead, t.end - t.lead);
        w += t.end - t.lead;
    } while (t.kind != LK_EOF);
    assert_int_equal(w, len);
    assert_memory_equal(out, text, len);
}

static void token_kinds(void **state)
{
    (void)state;
    static const char text[] =
        "( ) [ ] ' ` , ,@ #' . a.b \"s\" ?x #xff ## #:u #_v #s( #( #[ #^[ #^^[ #&3\"a\" "
        "#1= #1# #$ .5 (a .b) #_ (a .\302\240b)";
    static const uint8_t kinds[] = {
        LK_LPAREN, LK_RPAREN, LK_LBRACK, LK_RBRACK, LK_QUOTE, LK_BACKQUOTE, LK_COMMA,
        LK_COMMA_AT, LK_FUNCTION, LK_DOT, LK_ATOM, LK_STRING, LK_CHAR, LK_RADIX,
        LK_EMPTY_SYMBOL, LK_UNINTERNED, LK_NOSHORTHAND, LK_RECORD, LK_PROPSTRING,
        LK_BYTECODE, LK_CHARTABLE, LK_SUBCHARTABLE, LK_BOOLVEC, LK_STRING, LK_LABEL_DEF,
        LK_LABEL_REF, LK_LOAD_NAME, LK_ATOM, LK_LPAREN, LK_ATOM, LK_ATOM, LK_RPAREN,
        LK_EMPTY_SYMBOL, LK_LPAREN, LK_ATOM, LK_DOT, LK_ATOM, LK_RPAREN,
    };
    struct lex_token toks[64];
    long n = tile(text, sizeof text - 1, toks, 64);
    assert_int_equal(n, sizeof kinds);
    for (long k = 0; k < n; k++)
        if (toks[k].kind != kinds[k])
            fail_msg("token %ld: kind %d, want %d", k, toks[k].kind, kinds[k]);
    assert_int_equal(toks[12].ival, 'x');
    assert_int_equal(toks[13].ival, 16);
    assert_int_equal(toks[22].ival, 3);
    assert_int_equal(toks[24].ival, 1);
}

static void atoms_end_at_delimiters(void **state)
{
    (void)state;
    /* ? . | { } @ : and non-ASCII are constituents; NBSP is not. */
    static const char text[] = "a?b.c|{d}@:\303\251 x\302\240y a\\ b a;c\n";
    struct lex_token toks[8];
    long n = tile(text, sizeof text - 1, toks, 8);
    assert_int_equal(n, 5);
    assert_int_equal(toks[0].end - toks[0].start, 13);
    assert_true(toks[0].flags & LEX_NONASCII);
    assert_int_equal(toks[1].end - toks[1].start, 1); /* x */
    assert_int_equal(toks[3].end - toks[3].start, 4); /* a\ b */
    assert_true(toks[3].flags & LEX_ESCAPED);
    assert_int_equal(toks[4].end - toks[4].start, 1); /* a, then ;c is trivia */
    assert_int_equal(toks[2].start, 17);             /* y, after x and NBSP */
}

static void decoding(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        int len;
        uint32_t code;
    } cases[] = {
        {"A", 1, 'A'},
        {"\303\251", 2, 0xE9},
        {"\342\230\203", 3, 0x2603},
        {"\360\237\230\200", 4, 0x1F600},
        {"\367\277\277\277", 4, 0x1FFFFF},         /* beyond Unicode: kept */
        {"\370\210\200\200\200", 5, 0x200000},     /* 5-byte form */
        {"\370\217\277\275\277", 5, 0x3FFF7F},
        {"\355\240\200", 1, 0x3FFFED},            /* surrogate: raw bytes */
        {"\300\200", 1, 0x3FFFC0},                /* overlong lead */
        {"\301\277", 1, 0x3FFFC1},
        {"\340\200\200", 1, 0x3FFFE0},            /* overlong 3-byte */
        {"\200", 1, 0x3FFF80},                    /* stray continuation */
        {"\303", 1, 0x3FFFC3},                    /* truncated */
        {"\370\217\277\276\200", 1, 0x3FFFF8},    /* a raw byte in 5-byte form */
        {"\377", 1, 0x3FFFFF},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        int len;
        const char *b = cases[k].bytes;
        uint32_t c = lex_decode((const uint8_t *)b, strlen(b), &len);
        if (c != cases[k].code || len != cases[k].len)
            fail_msg("case %zu: %#x/%d, want %#x/%d", k, c, len, cases[k].code, cases[k].len);
    }
    assert_int_equal(lex_count_chars((const uint8_t *)"a\303\251\355\240\200", 6), 5);
}

static void docref_skips_and_line_skips(void **state)
{
    (void)state;
    struct lex_token toks[4];
    /* #@COUNT skips to the next 0x1F; #! to the end of the line. */
    static const char a[] = "#@3 abc\037(b) #!x y\nz";
    assert_int_equal(tile(a, sizeof a - 1, toks, 4), 4);
    assert_int_equal(toks[0].start, 8);
    assert_int_equal(toks[3].start, 18);
    /* #@00 is a token taking the rest of the input. */
    static const char b[] = "#@00 (a)";
    assert_int_equal(tile(b, sizeof b - 1, toks, 4), 1);
    assert_int_equal(toks[0].kind, LK_SKIP_END);
    assert_int_equal(toks[0].end, sizeof b - 1);
}

static void lexical_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *symbol;
        unsigned pos;
    } cases[] = {
        {"\"abc", "end-of-file", 4},
        {"a\\", "end-of-file", 2},
        {"?", "end-of-file", 1},
        {"?ab", "invalid-read-syntax", 2},
        {"#<", "invalid-read-syntax", 1},
        {"#xg", "invalid-read-syntax", 2},
        {"?\\x10000000", "error", 10},
        {"?\\C-\\", "end-of-file", 5},
        {"?\\x", "error", 3},
        {"?\\\n", "error", 2},
        {"\"\\M-\"", "end-of-file", 5},
        {"#&3 \"a\"", "invalid-read-syntax", 3},
        {"#12(", "invalid-read-syntax", 3},
        {"#@99999999999999999999 x", "invalid-read-syntax", 2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct lex lx;
        struct lex_token t;
        lex_init(&lx, (const uint8_t *)cases[k].text, strlen(cases[k].text), 0);
        assert_false(lex_next(&lx, &t));
        assert_string_equal(lx.err.symbol, cases[k].symbol);
        if (lx.err.pos != cases[k].pos)
            fail_msg("%s: error at %u, want %u", cases[k].text, (unsigned)lx.err.pos,
                     cases[k].pos);
    }
}

/* The scans that go a word at a time stop where a byte at a time would:
 * every byte value at every place of a run of plain bytes, the words
 * and the tail after them. */
static void scans_stop_at_the_first_byte_they_must(void **state)
{
    (void)state;
    uint8_t text[40];
    for (unsigned b = 0; b < 256; b++)
        for (size_t at = 1; at < sizeof text; at++) {
            memset(text, 'a', sizeof text);
            text[at] = (uint8_t)b;
            size_t n = sizeof text;
            bool string_stop = b == '"' || b == '\\' || b >= 0x80;
            size_t want = string_stop ? at : n;
            if (lex_plain_string_end(text, n, 1) != want)
                fail_msg("string: byte %u at %zu", b, at);
            want = lex_atom_stop[b] ? at : n;
            if (lex_plain_end(text, n, 1) != want)
                fail_msg("atom: byte %u at %zu", b, at);
        }
}

/* One blank before a token is passed at once; everything else as before:
 * a comment, a #! line or an NBSP after the blank, two blanks, the end. */
static void trivia_before_a_token(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        size_t want;
    } cases[] = {
        {"\n(a)", 1}, {" a", 1}, {"\t\n(", 2}, {"\n;c\n(", 4}, {"\n#!x\n(", 5},
        {"\n\302\240(", 3}, {"\n", 1}, {"(", 0}, {"\n#'a", 1}, {"", 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *t = cases[k].text;
        size_t got = lex_skip_trivia((const uint8_t *)t, strlen(t), 0);
        if (got != cases[k].want)
            fail_msg("case %zu: %zu, want %zu", k, got, cases[k].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trivia_round_trip),
        cmocka_unit_test(token_kinds),
        cmocka_unit_test(atoms_end_at_delimiters),
        cmocka_unit_test(decoding),
        cmocka_unit_test(docref_skips_and_line_skips),
        cmocka_unit_test(lexical_errors),
        cmocka_unit_test(scans_stop_at_the_first_byte_they_must),
        cmocka_unit_test(trivia_before_a_token),
    };
    return SUPPORT_RUN(tests);
}
