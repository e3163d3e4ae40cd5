/* test_read.c - the reader against Emacs 30.1's read-from-string.
 *
 * First every row of testdata/spec/reader-cases.tsv: the input is read
 * with read_one, printed with prin1 settings (print-circle and
 * print-gensym, then defaults) and compared with Emacs's output, the
 * consumed character count, or the error symbol and data.  Then the
 * things the table cannot show: deep nesting without recursion, error
 * offsets, whitespace and raw bytes, sharing, the origin map, coding
 * cookies, the forms of a whole text.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/file.h"
#include "lisp/print.h"
#include "syntax/lex.h"
#include "syntax/read.h"

struct fx {
    struct arena *a;
    struct lisp *L;
};

static struct fx fx_new(void)
{
    struct fx f;
    f.a = support_arena();
    f.L = intern_new(f.a);
    return f;
}

static const char *pr(struct fx *f, const struct value *v, bool circle)
{
    struct buf b;
    buf_init(&b, f->a);
    struct print_opts o = print_opts_default();
    o.circle = o.gensym = circle;
    print_value(f->L, &b, v, &o);
    return buf_cstr(&b);
}

/* ---- reader-cases.tsv ---- */

/* Undo the table's escapes: \\ \t \n \r \ooo. */
static size_t unescape(char *s)
{
    size_t w = 0;
    for (size_t r = 0; s[r]; r++) {
        if (s[r] != '\\' || !s[r + 1]) {
            s[w++] = s[r];
            continue;
        }
        char c = s[++r];
        if (c >= '0' && c <= '7') {
            s[w++] = (char)((c - '0') * 64 + (s[r + 1] - '0') * 8 + (s[r + 2] - '0'));
            r += 2;
        } else {
            s[w++] = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c;
        }
    }
    s[w] = 0;
    return w;
}

struct row {
    char *f[5];  /* input, result, consumed, detail, prin1_defaults */
    size_t inlen;
    int line;
};

/* Check one row; returns NULL when it passes, else what went wrong. */
static const char *check_row(struct fx *f, const struct row *r, char *why, size_t n)
{
    const char *want = r->f[1], *consumed = r->f[2], *detail = r->f[3];
    struct value *v;
    size_t used;
    struct read_error err;
    bool ok = read_one(f->L, (const uint8_t *)r->f[0], r->inlen, &v, &used, &err);
    if (strncmp(want, "ERROR:", 6) == 0) {
        if (ok)
            snprintf(why, n, "read %s, want %s", pr(f, v, true), want);
        else if (strcmp(err.symbol, want + 6) != 0)
            snprintf(why, n, "error %s, want %s", err.symbol, want + 6);
        else if (strcmp(pr(f, err.data, true), detail) != 0)
            snprintf(why, n, "error data %s, want %s", pr(f, err.data, true), detail);
        else
            return NULL;
        return why;
    }
    if (!ok)
        snprintf(why, n, "error %s %s at %u", err.symbol, err.message, (unsigned)err.pos);
    else if (strcmp(pr(f, v, true), want) != 0)
        snprintf(why, n, "printed %s, want %s", pr(f, v, true), want);
    else if (r->f[4][0] && strcmp(pr(f, v, false), r->f[4]) != 0)
        snprintf(why, n, "printed (defaults) %s, want %s", pr(f, v, false), r->f[4]);
    else if ((size_t)atol(consumed) != used)
        snprintf(why, n, "consumed %zu, want %s", used, consumed);
    else
        return NULL;
    return why;
}

/* Split a TSV line (modified in place) into the five fields. */
static bool split_row(char *line, struct row *r)
{
    for (int k = 0; k < 5; k++) {
        r->f[k] = line;
        char *tab = strchr(line, k < 4 ? '\t' : '\n');
        if (!tab && k < 4)
            return false;
        if (tab) {
            *tab = 0;
            line = tab + 1;
        }
    }
    r->inlen = unescape(r->f[0]);
    for (int k = 1; k < 5; k++)
        unescape(r->f[k]);
    return true;
}

static void reader_cases_table(void **state)
{
    (void)state;
    size_t n;
    char *text = support_slurp(support_testdata("spec/reader-cases.tsv"), &n);
    char *line = strchr(text, '\n') + 1; /* skip the header */
    int rows = 0, passed = 0, lineno = 1;
    while (line && *line) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        struct row r = {{NULL}, 0, 0};
        lineno++;
        assert_true(split_row(line, &r));
        struct fx f = fx_new();
        char why[1024];
        const char *bad = check_row(&f, &r, why, sizeof why);
        rows++;
        if (bad)
            print_message("reader-cases.tsv:%d: %s: %s\n", lineno, r.f[0], bad);
        else
            passed++;
        arena_free(f.a);
        line = next;
    }
    print_message("reader-cases.tsv: %d of %d rows pass\n", passed, rows);
    test_free(text);
    assert_int_equal(rows, 654);
    assert_int_equal(passed, rows);
}

/* ---- deep nesting ---- */

static char *repeat(const char *unit, size_t times, const char *tail)
{
    size_t u = strlen(unit), t = strlen(tail);
    char *s = test_malloc(u * times + t + 1);
    for (size_t k = 0; k < times; k++)
        memcpy(s + k * u, unit, u);
    memcpy(s + u * times, tail, t + 1);
    return s;
}

#define DEEP 1000000

static void deep_open_parens_are_end_of_file(void **state)
{
    (void)state;
    struct fx f = fx_new();
    char *s = repeat("(", DEEP, "");
    struct read_result r;
    assert_false(read_source(f.L, (const uint8_t *)s, DEEP, &r));
    assert_string_equal(r.err.symbol, "end-of-file");
    assert_int_equal(r.err.pos, DEEP);
    assert_int_equal(r.n_forms, 0);
    test_free(s);
    arena_free(f.a);
}

static void deep_closed_list_reads(void **state)
{
    (void)state;
    struct fx f = fx_new();
    char *s = repeat("(", DEEP, "");
    char *t = repeat(")", DEEP, "");
    char *all = test_malloc(2 * DEEP + 1);
    memcpy(all, s, DEEP);
    memcpy(all + DEEP, t, DEEP + 1);
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)all, 2 * DEEP, &r));
    assert_int_equal(r.n_forms, 1);
    size_t depth = 0;
    for (struct value *v = r.forms[0].v; v != f.L->nil; v = value_car(v)) {
        assert_true(value_consp(v));
        assert_true(value_cdr(v) == f.L->nil);
        depth++;
    }
    assert_int_equal(depth, DEEP - 1); /* the innermost () is nil */
    test_free(s), test_free(t), test_free(all);
    arena_free(f.a);
}

static void deep_vectors_and_quotes(void **state)
{
    (void)state;
    struct fx f = fx_new();
    char *v = repeat("[", DEEP, "");
    struct read_result r;
    assert_false(read_source(f.L, (const uint8_t *)v, DEEP, &r));
    assert_string_equal(r.err.symbol, "end-of-file");
    char *q = repeat("'", DEEP, "a");
    assert_true(read_source(f.L, (const uint8_t *)q, DEEP + 1, &r));
    size_t depth = 0;
    struct value *x = r.forms[0].v;
    for (; value_consp(x); x = value_car(value_cdr(x))) {
        assert_true(value_car(x) == f.L->quote);
        depth++;
    }
    assert_int_equal(depth, DEEP);
    assert_true(x == intern_cstr(f.L, "a"));
    char *c = test_malloc(3 * DEEP + 3); /* a modifier chain is a loop too */
    c[0] = '?';
    for (size_t k = 0; k < DEEP; k++)
        memcpy(c + 1 + 3 * k, "\\C-", 3);
    memcpy(c + 1 + 3 * DEEP, "a", 2);
    assert_true(read_source(f.L, (const uint8_t *)c, 3 * DEEP + 2, &r));
    assert_int_equal(r.forms[0].v->u.i, 0x4000001);
    test_free(v), test_free(q), test_free(c);
    arena_free(f.a);
}

/* ---- errors and offsets ---- */

struct err_case {
    const char *text;
    const char *symbol;
    const char *message;
    unsigned pos;
};

static void errors_have_offsets(void **state)
{
    (void)state;
    static const struct err_case cases[] = {
        {"(a b", "end-of-file", "", 4},
        {"(a) (b", "end-of-file", "", 6},
        {"(a))", "invalid-read-syntax", ")", 3},
        {"\n  )", "invalid-read-syntax", ")", 3},
        {"(a \"unterminated", "end-of-file", "", 16},
        {"[a b)", "invalid-read-syntax", ")", 4},
        {"(a ]", "invalid-read-syntax", "]", 3},
        {"(x . y z)", "invalid-read-syntax", "expected )", 7},
        {"(x . y #!z\n)", "invalid-read-syntax", "expected )", 7},
        {"(x . y \"\\x\")", "invalid-read-syntax", "expected )", 7},
        {"(x . y ;c\n ]", "invalid-read-syntax", "expected )", 11},
        {"(. a)", "invalid-read-syntax", ".", 1},
        {"[a . b]", "invalid-read-syntax", ".", 3},
        {"#s(a . b)", "invalid-read-syntax", ".", 5},
        {"#s()", "invalid-read-syntax", "#s", 3},
        {"#1=#1#", "invalid-read-syntax", "nonsensical self-reference", 0},
        {"(#2#)", "invalid-read-syntax", "#2#", 1},
        {"#&3 \"a\"", "invalid-read-syntax", "#&", 3},
        {"#12(", "invalid-read-syntax", "#12(", 3},
        {"#^^x", "invalid-read-syntax", "#^^", 3},
        {"?\\x", "error", "Invalid escape char syntax: \\x not followed by hex digit", 3},
        {"\"\\M-", "invalid-read-syntax", "Invalid modifier in string", 1},
        {"?ab", "invalid-read-syntax", "?", 2},
        {"#<buffer>", "invalid-read-syntax", "#<", 1},
        {"(#xZZ)", "invalid-read-syntax", "integer, radix 16", 3},
        {"\"\\C-%\"", "invalid-read-syntax", "Invalid modifier in string", 1},
        {"(a . )", "invalid-read-syntax", ")", 5},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct fx f = fx_new();
        struct read_result r;
        const struct err_case *c = &cases[k];
        assert_false(read_source(f.L, (const uint8_t *)c->text, strlen(c->text), &r));
        assert_string_equal(r.err.symbol, c->symbol);
        assert_string_equal(r.err.message, c->message);
        if (r.err.pos != c->pos)
            fail_msg("%s: error at %u, want %u", c->text, (unsigned)r.err.pos, c->pos);
        arena_free(f.a);
    }
}

static void forms_before_an_error_are_kept(void **state)
{
    (void)state;
    struct fx f = fx_new();
    const char *s = "(a) b )";
    struct read_result r;
    assert_false(read_source(f.L, (const uint8_t *)s, strlen(s), &r));
    assert_int_equal(r.n_forms, 2);
    assert_string_equal(pr(&f, r.forms[1].v, true), "b");
    assert_int_equal(r.err.pos, 6);
    arena_free(f.a);
}

/* ---- whitespace, raw bytes, sharing ---- */

static void nul_and_controls_separate_forms(void **state)
{
    (void)state;
    struct fx f = fx_new();
    static const char s[] = "a\0b\001c\302\240d\033e";
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)s, sizeof s - 1, &r));
    assert_int_equal(r.n_forms, 5);
    assert_string_equal(pr(&f, r.forms[4].v, true), "e");
    assert_int_equal(r.forms[3].span.start, 7);
    arena_free(f.a);
}

static void invalid_utf8_is_raw_bytes(void **state)
{
    (void)state;
    struct fx f = fx_new();
    /* An encoded surrogate, a C0 lead and a stray continuation byte. */
    static const char s[] = "(?\355 \"a\355\240\200\" x\300\200y \"\377\")";
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)s, sizeof s - 1, &r));
    struct value *l = r.forms[0].v;
    assert_int_equal(value_car(l)->u.i, 0xED); /* ?<raw byte> is the byte */
    struct value *str = value_car(value_cdr(l));
    assert_false(str->u.str.multibyte); /* ASCII + raw bytes: unibyte */
    assert_int_equal(str->u.str.len, 4);
    assert_memory_equal(str->u.str.data, "a\355\240\200", 4);
    struct value *sym = value_car(value_cdr(value_cdr(l)));
    assert_int_equal(sym->u.sym.len, 6); /* raw bytes in internal form */
    assert_memory_equal(sym->u.sym.name, "x\301\200\300\200y", 6);
    struct value *s2 = value_car(value_cdr(value_cdr(value_cdr(l))));
    assert_false(s2->u.str.multibyte);
    assert_int_equal(s2->u.str.data[0], 0xFF);
    arena_free(f.a);
}

static void extended_utf8_is_kept(void **state)
{
    (void)state;
    struct fx f = fx_new();
    /* U+1FFFFF (4 bytes, beyond Unicode) and 0x3FFF7F (5 bytes). */
    static const char s[] = "(?\367\277\277\277 \"\370\217\277\275\277\")";
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)s, sizeof s - 1, &r));
    assert_int_equal(value_car(r.forms[0].v)->u.i, 0x1FFFFF);
    struct value *str = value_car(value_cdr(r.forms[0].v));
    assert_true(str->u.str.multibyte);
    assert_int_equal(str->u.str.nchars, 1);
    assert_memory_equal(str->u.str.data, "\370\217\277\275\277", 5);
    arena_free(f.a);
}

/* Each form says how deep it nests (lists, vectors, reader prefixes;
 * the fast path's and the general one's), an upper bound on the lists
 * open anywhere in its text (splice uses it). */
static void forms_say_their_nesting(void **state)
{
    (void)state;
    struct fx f = fx_new();
    const char *s = "x (a (b) c) (a [b '(c \"((\")] ?\\() #s(r (x)) ((((d)))) (e)";
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)s, strlen(s), &r));
    assert_int_equal(r.n_forms, 6);
    assert_int_equal(r.forms[0].depth, 0);
    assert_int_equal(r.forms[1].depth, 2);
    assert_int_equal(r.forms[2].depth, 4);
    assert_true(r.forms[3].depth >= 2);
    assert_int_equal(r.forms[4].depth, 4);
    assert_int_equal(r.forms[5].depth, 1); /* not the last form's */
    arena_free(f.a);
}

static void labels_share_and_are_per_form(void **state)
{
    (void)state;
    struct fx f = fx_new();
    const char *s = "(#1=(x) #1# #2=\"s\" #2#) #1#";
    struct read_result r;
    assert_false(read_source(f.L, (const uint8_t *)s, strlen(s), &r));
    assert_int_equal(r.n_forms, 1); /* labels do not cross top-level forms */
    struct value *l = r.forms[0].v;
    assert_true(value_car(l) == value_car(value_cdr(l)));
    struct value *t = value_cdr(value_cdr(l));
    assert_true(value_car(t) == value_car(value_cdr(t)));
    s = "#1=[a #1# #2=(b . #2#)]";
    assert_true(read_source(f.L, (const uint8_t *)s, strlen(s), &r));
    struct value *v = r.forms[0].v;
    assert_true(v->u.vec.items[1] == v);
    assert_true(value_cdr(v->u.vec.items[2]) == v->u.vec.items[2]);
    s = "(#:g #:g)";
    assert_true(read_source(f.L, (const uint8_t *)s, strlen(s), &r));
    assert_true(value_car(r.forms[0].v) != value_car(value_cdr(r.forms[0].v)));
    /* each form says whether it defined a label (a string never does) */
    s = "(a \"#1=\") (b '#1=(c)) (d) [#2=e]";
    assert_true(read_source(f.L, (const uint8_t *)s, strlen(s), &r));
    assert_int_equal(r.n_forms, 4);
    assert_false(r.forms[0].labels);
    assert_true(r.forms[1].labels);
    assert_false(r.forms[2].labels);
    assert_true(r.forms[3].labels);
    arena_free(f.a);
}

/* ---- origin map ---- */

static void span_is(const struct read_result *r, const struct value *v, bool car,
                    unsigned start, unsigned end)
{
    struct span sp;
    assert_true(car ? read_origin_car_span(r, v, &sp) : read_origin_span(r, v, &sp));
    if (sp.start != start || sp.end != end)
        fail_msg("span %u-%u, want %u-%u", sp.start, sp.end, start, end);
}

static void origin_map_records_spans(void **state)
{
    (void)state;
    struct fx f = fx_new();
    /*                  0123456789012345678901234567 */
    const char *s = "  (foo ?a \"x\\ y\" . #xFF) 'b";
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)s, strlen(s), &r));
    assert_int_equal(r.n_forms, 2);
    assert_int_equal(r.forms[0].span.start, 2);
    assert_int_equal(r.forms[0].span.end, 24);
    struct value *l = r.forms[0].v;
    span_is(&r, l, false, 2, 24);
    span_is(&r, l, true, 3, 6); /* foo, through its cons */
    struct value *c2 = value_cdr(l);
    span_is(&r, c2, false, 7, 24); /* a dotted tail starts at its car */
    size_t n;
    const uint8_t *t = read_origin_text(&r, value_car(c2), &n);
    assert_non_null(t);
    assert_int_equal(n, 2);
    assert_memory_equal(t, "?a", 2);
    t = read_origin_text(&r, value_car(value_cdr(c2)), &n);
    assert_memory_equal(t, "\"x\\ y\"", n);
    t = read_origin_text(&r, value_cdr(value_cdr(c2)), &n);
    assert_memory_equal(t, "#xFF", n);
    struct value *q = r.forms[1].v;
    span_is(&r, q, false, 25, 27);
    span_is(&r, q, true, 25, 26); /* quote is written as ' */
    span_is(&r, value_cdr(q), true, 26, 27);
    struct span sp;
    assert_false(read_origin_span(&r, f.L->nil, &sp));
    assert_null(read_origin_text(&r, value_car(l), &n)); /* symbols: no text */
    arena_free(f.a);
}

/* Many new names, each read twice: the symbol table grows while the
 * machine looks names up in it, and the second reading of a name finds
 * the symbol the first made (names that may be numbers among them). */
static void names_while_the_table_grows(void **state)
{
    (void)state;
    struct fx f = fx_new();
    enum { N = 5000 };
    char *s = arena_alloc(f.a, 2 * N * 12 + 8);
    size_t k = 0;
    s[k++] = '(';
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < N; i++)
            k += (size_t)sprintf(s + k, i % 7 ? "s%d " : "-%d- ", i);
    s[k - 1] = ')';
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)s, k, &r));
    const struct value *a = r.forms[0].v, *b = a;
    for (int i = 0; i < N; i++)
        b = value_cdr(b);
    for (int i = 0; i < N; i++, a = value_cdr(a), b = value_cdr(b)) {
        assert_int_equal(value_car(a)->kind, VK_SYMBOL);
        assert_ptr_equal(value_car(a), value_car(b));
    }
    assert_ptr_equal(b, f.L->nil);
    arena_free(f.a);
}

/* The printer's class a symbol gets when the reader makes it agrees
 * with what the printer finds for its name: names with `.` and `?` at
 * each place of their words (the first two, the ones past 16 bytes, the
 * last one overlapping the one before it), and plain ones.  None needs a
 * backslash: Emacs 30 escapes `.` and `?` only at the start of a name,
 * where they start other tokens. */
static void symbols_know_whether_they_print_plainly(void **state)
{
    (void)state;
    struct fx f = fx_new();
    struct buf b;
    buf_init(&b, f.a);
    buf_puts(&b, "(a foo-bar x\177y 1+ <= ?a");
    const char *marks = ".?";
    for (int len = 1; len <= 40; len++)
        for (int at = 0; at <= len; at++)
            for (int m = 0; m < 2; m++) {
                char name[48];
                for (int k = 0; k < len; k++)
                    name[k] = (char)('a' + (k + len) % 26);
                if (at > 0 && at < len)
                    name[at] = marks[m];
                name[len] = 0;
                buf_puts(&b, " ");
                buf_puts(&b, name);
            }
    buf_puts(&b, ")                    ");
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)b.data, b.len, &r));
    size_t known = 0, marked = 0;
    for (const struct value *l = r.forms[0].v; l != f.L->nil; l = value_cdr(l)) {
        struct value *sym = value_car(l);
        if (sym->kind != VK_SYMBOL || !sym->u.sym.plain)
            continue;
        uint8_t mine = sym->u.sym.plain;
        sym->u.sym.plain = 0;
        if (print_symbol_plain(sym) != (mine == 1))
            fail_msg("%s: reader says %d", sym->u.sym.name, mine);
        known++;
        marked += strpbrk(sym->u.sym.name, ".?") != NULL;
    }
    assert_true(known > 1600);
    assert_true(marked > 1400);
    arena_free(f.a);
}

/* A string of one escape "\\X" holds the character ?\\X stands for, for
 * every printable ASCII X that is all of its escape (the reader takes
 * the usual ones from a table, the character literal from lex_escape). */
static void string_escapes_agree_with_characters(void **state)
{
    (void)state;
    for (int b = 0x21; b < 0x7F; b++) {
        if (strchr("^CMSHAxuUN01234567", b))
            continue;
        struct fx f = fx_new();
        char text[16];
        int n = snprintf(text, sizeof text, "\"\\%c\" ?\\%c", b, b);
        struct read_result r;
        assert_true(read_source(f.L, (const uint8_t *)text, (size_t)n, &r));
        assert_int_equal(r.n_forms, 2);
        const struct value *str = r.forms[0].v, *ch = r.forms[1].v;
        assert_int_equal(str->kind, VK_STRING);
        assert_int_equal(str->u.str.len, 1);
        assert_int_equal(ch->kind, VK_INT);
        if (str->u.str.data[0] != ch->u.i)
            fail_msg("\\%c: string %d, character %d", b, str->u.str.data[0], (int)ch->u.i);
        arena_free(f.a);
    }
}

/* The machine's own tokens (quotes, #', vectors, a dot, plain strings)
 * get the spans the lexer's tokens would. */
static void origin_of_the_machines_tokens(void **state)
{
    (void)state;
    struct fx f = fx_new();
    /*               0         1         2         3 */
    /*               01234567890123456789012345678901234567 */
    const char *s = "(f #'g [a \"s\" 1] (x . y) '(q) ,@z \"t\")";
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)s, strlen(s), &r));
    assert_string_equal(pr(&f, r.forms[0].v, false),
                        "(f #'g [a \"s\" 1] (x . y) '(q) (\\,@ z) \"t\")");
    const struct value *c = r.forms[0].v;
    span_is(&r, c, false, 0, 38);
    span_is(&r, c, true, 1, 2);
    c = value_cdr(c); /* #'g */
    span_is(&r, c, true, 3, 6);
    span_is(&r, value_car(c), false, 3, 6);
    span_is(&r, value_car(c), true, 3, 5);
    span_is(&r, value_cdr(value_car(c)), true, 5, 6);
    c = value_cdr(c); /* the vector */
    span_is(&r, value_car(c), false, 7, 16);
    size_t n;
    const uint8_t *t = read_origin_text(&r, value_car(c)->u.vec.items[1], &n);
    assert_non_null(t);
    assert_int_equal(t - (const uint8_t *)s, 10);
    assert_int_equal(n, 3);
    c = value_cdr(c); /* (x . y) */
    span_is(&r, value_car(c), false, 17, 24);
    span_is(&r, value_car(c), true, 18, 19);
    assert_int_equal(value_cdr(value_car(c))->kind, VK_SYMBOL);
    c = value_cdr(c); /* '(q) */
    span_is(&r, value_car(c), false, 25, 29);
    span_is(&r, value_cdr(value_car(c)), false, 26, 29);
    span_is(&r, value_car(value_cdr(value_car(c))), false, 26, 29);
    c = value_cdr(c); /* ,@z */
    span_is(&r, value_car(c), false, 30, 33);
    span_is(&r, value_car(c), true, 30, 32);
    c = value_cdr(c); /* "t" */
    t = read_origin_text(&r, value_car(c), &n);
    assert_int_equal(t - (const uint8_t *)s, 34);
    assert_int_equal(n, 3);
    assert_ptr_equal(value_cdr(c), f.L->nil);
    arena_free(f.a);
}

/* A list of n one-letter symbols and n lists of one, from offset 0:
 * every cell's spans, whatever chunk of the map its entry fell in. */
static void origin_spans_of_long_lists(size_t n)
{
    struct fx f = fx_new();
    char *s = arena_alloc(f.a, 6 * n + 8);
    size_t k = 0;
    s[k++] = '(';
    for (size_t i = 0; i < n; i++)
        k += (size_t)sprintf(s + k, i ? " x" : "x");
    s[k++] = ')';
    size_t second = ++k - 1;
    s[second] = ' ';
    for (size_t i = 0; i < n; i++)
        k += (size_t)sprintf(s + k, "(y)");
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)s, k, &r));
    assert_int_equal(r.n_forms, 1 + n);
    const struct value *c = r.forms[0].v;
    for (size_t i = 0; i < n; i++, c = value_cdr(c)) {
        span_is(&r, c, false, i ? (unsigned)(1 + 2 * i) : 0, (unsigned)(2 * n + 1));
        span_is(&r, c, true, (unsigned)(1 + 2 * i), (unsigned)(2 + 2 * i));
    }
    for (size_t i = 0; i < n; i++) {
        unsigned at = (unsigned)(second + 1 + 3 * i);
        span_is(&r, r.forms[1 + i].v, false, at, at + 3);
        span_is(&r, r.forms[1 + i].v, true, at + 1, at + 2);
    }
    arena_free(f.a);
}

/* The map fills chunk after chunk: the short first chunk of a short text
 * grows, lists cross the end of a chunk, the table of chunks grows. */
static void origin_map_across_chunks(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 40, 300, 4095, 4096, 4097, 9000, 70000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        origin_spans_of_long_lists(sizes[i]);
}

/* ---- the reader's own scanning agrees with the lexer ---- */

/* v is the symbol written as the ASCII text t[0..n) with backslashes. */
static void symbol_name_is(const struct value *v, const char *t, size_t n)
{
    char want[128];
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        want[k++] = t[i] == '\\' ? t[++i] : t[i];
    assert_int_equal(v->kind, VK_SYMBOL);
    assert_int_equal(v->u.sym.len, k);
    assert_memory_equal(v->u.sym.name, want, k);
}

/* The reader scans plain atoms, strings, parentheses and single spaces
 * itself and hands everything else to the lexer.  For lists of one-token
 * elements, separated in every way, each element's car span must be the
 * lexer's token and its value the token's kind. */
static void own_scanning_matches_lexer(void **state)
{
    (void)state;
    static const char *const toks[] = {
        "a", "foo-bar", "x1", "1", "-1", "+", "-", "1.5", ".5", "1e3", "a.b", "a?b",
        "\\(x", "ab\\ c", "\\,", "\\,a", "\\,\\,", "\\,\303\251", "a\\\\b", "\\\303\251", "x\\\n",
        "a-name-with-an-escape-\\ and-more-than-sixty-four-bytes-of-name-in-all-xx",
        "caf\303\251", "\303\251t\303\251", "ab|{c}@:", "aaaaaaaaaaaaaaaa",
        "a-symbol-longer-than-sixteen", "\"\"", "\"str\"", "\"a\\\"b\"", "\"\303\251\"",
        "\"a long string of more than eight bytes\"", "#x1F", "##",
        "\"x\\\\\"", "\"\\n\\t\303\251 ok, and eight more bytes\\\"\"",
        "\"a\\\nb\"", "\"\303\251\\\"\303\251\\\\\"",
        "#:u", "\177", "a\177b",
    };
    static const char *const seps[] = {" ", "  ", "\n", "\t", " ;c\n", "\302\240", "\f "};
    size_t ntoks = sizeof toks / sizeof *toks, nseps = sizeof seps / sizeof *seps;
    uint32_t rnd = 12345;
    for (int round = 0; round < 400; round++) {
        struct fx f = fx_new();
        char text[512];
        size_t w = 0, count = 1 + (size_t)round % 7;
        text[w++] = '(';
        for (size_t k = 0; k < count; k++) {
            rnd = rnd * 1103515245u + 12345u;
            const char *t = toks[(rnd >> 8) % ntoks], *sep = seps[(rnd >> 20) % nseps];
            memcpy(text + w, t, strlen(t)), w += strlen(t);
            if (k + 1 < count || (rnd & 1))
                memcpy(text + w, sep, strlen(sep)), w += strlen(sep);
        }
        text[w++] = ')';
        struct read_result r;
        if (!read_source(f.L, (const uint8_t *)text, w, &r))
            fail_msg("%.*s: %s %s", (int)w, text, r.err.symbol, r.err.message);
        struct lex lx;
        struct lex_token t;
        lex_init(&lx, (const uint8_t *)text, w, 1);
        struct value *l = r.forms[0].v;
        for (size_t k = 0; k < count; k++, l = value_cdr(l)) {
            assert_true(lex_next(&lx, &t));
            assert_true(value_consp(l));
            span_is(&r, l, true, t.start, t.end);
            const struct value *v = value_car(l);
            if (t.kind == LK_STRING)
                assert_int_equal(v->kind, VK_STRING);
            else if (t.kind == LK_ATOM)
                assert_true(v->kind == VK_SYMBOL || value_numberp(v));
            if (t.kind == LK_ATOM && t.flags == LEX_ESCAPED)
                symbol_name_is(v, text + t.start, t.end - t.start);
        }
        assert_ptr_equal(l, f.L->nil);
        arena_free(f.a);
    }
}

/* Integers of up to 18 digits are read without the number grammar; the
 * value and the text kept for printing must not change at the bound. */
static void integers_at_the_bound(void **state)
{
    (void)state;
    struct fx f = fx_new();
    const char *s = "(007 123456789012345678 1234567890123456789 "
                    "99999999999999999999 -12 +3 1. 12a)";
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)s, strlen(s), &r));
    assert_string_equal(pr(&f, r.forms[0].v, false),
                        "(7 123456789012345678 1234567890123456789 "
                        "99999999999999999999 -12 3 1 12a)");
    size_t n;
    const uint8_t *t = read_origin_text(&r, value_car(r.forms[0].v), &n);
    assert_non_null(t);
    assert_memory_equal(t, "007", 3);
    assert_int_equal(value_car(value_cdr(r.forms[0].v))->kind, VK_INT);
    arena_free(f.a);
}

/* A #& object reads its string itself: the elements after it in a list
 * must start where that string ends. */
static void boolvec_in_a_list(void **state)
{
    (void)state;
    struct fx f = fx_new();
    const char *s = "(a #&3\"\\7\" b)"; /* b is byte 11 */
    struct read_result r;
    assert_true(read_source(f.L, (const uint8_t *)s, strlen(s), &r));
    assert_string_equal(pr(&f, r.forms[0].v, false), "(a #&3\"\007\" b)");
    struct value *c = value_cdr(value_cdr(r.forms[0].v));
    span_is(&r, c, true, 11, 12);
    arena_free(f.a);
}

/* ---- coding cookies ---- */

static void coding_cookies(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool ok;
        const char *name;
    } cases[] = {
        {";;; x.el --- y -*- lexical-binding: t -*-\n", true, NULL},
        {";;; x.el -*- coding: utf-8; lexical-binding: t -*-\n", true, NULL},
        {";; -*- coding: utf-8-emacs-unix -*-\n", true, NULL},
        {";; -*- mode: emacs-lisp; coding: latin-1 -*-\n", false, "latin-1"},
        {"#!/usr/bin/emacs --script\n;; -*- coding: euc-jp -*-\n", false, "euc-jp"},
        {";; nothing\n;; # -*- coding: cn-big5 -*-\n", true, NULL},
        {"(a)\n;; Local Variables:\n;; coding: iso-8859-1\n;; End:\n", false, "iso-8859-1"},
        {"(a)\n;; Local Variables:\n;; coding: us-ascii\n;; End:\n", true, NULL},
        {";; -*- my-coding: latin-1 -*-\n", true, NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct span sp;
        const char *t = cases[k].text;
        bool ok = read_check_coding((const uint8_t *)t, strlen(t), &sp);
        if (ok != cases[k].ok)
            fail_msg("case %zu: %s", k, t);
        if (!ok)
            assert_memory_equal(t + sp.start, cases[k].name, sp.end - sp.start);
    }
}

/* ---- named characters ---- */

static void named_characters(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int64_t code;
    } cases[] = {
        {"?\\N{LEFT-TO-RIGHT OVERRIDE}", 0x202D},
        {"?\\N{pop directional isolate}", 0x2069},
        {"?\\N{HANGUL SYLLABLE GAG}", 0xAC01},
        {"?\\N{hangul syllable hih}", 0xD7A3},
        {"?\\N{CJK IDEOGRAPH-4E00}", 0x4E00},
        {"?\\N{cjk compatibility ideograph-f900}", 0xF900},
        {"?\\N{CJK IDEOGRAPH-04E00}", -1},
        {"?\\N{CJK IDEOGRAPH-A000}", -1},
        {"?\\N{HANGUL SYLLABLE}", -1},
        {"?\\N{greek small letter alpha}", 0x3B1},
        {"?\\N{TIBETAN LETTER -A}", 0xF60},
        {"?\\N{Box Drawings Light\n  Down And Right}", 0x250C},
        {"?\\N{NUSHU CHARACTER-1B170}", 0x1B170},
        {"?\\N{LATIN CAPITAL LETTER A WITH MACRON AND GRAVE}", -1},
        {"?\\N{LATIN SMALL LETTER}", -1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct fx f = fx_new();
        struct value *v;
        size_t used;
        struct read_error err;
        bool ok = read_one(f.L, (const uint8_t *)cases[k].text, strlen(cases[k].text), &v,
                           &used, &err);
        if (cases[k].code < 0) {
            assert_false(ok);
            assert_string_equal(err.symbol, "invalid-read-syntax");
        } else {
            if (!ok)
                fail_msg("%s: %s", cases[k].text, err.message);
            assert_int_equal(v->u.i, cases[k].code);
        }
        arena_free(f.a);
    }
}

/* Radix literals of any size (values from Emacs 30.1). */
static void radix_bignums(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"#36rZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ", "1357602166130257152481187563160405662935023615"},
        {"#b-1000000000000000000000000000000000000000000000000000000000000000",
         "-9223372036854775808"},
        {"#o7777777777777777777777", "73786976294838206463"},
        {"#x-8000000000000000", "-9223372036854775808"},
        {"#x7fffffffffffffff", "9223372036854775807"},
        {"#x000000000000000000000000001", "1"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct fx f = fx_new();
        struct value *v;
        size_t used;
        struct read_error err;
        assert_true(read_one(f.L, (const uint8_t *)cases[k][0], strlen(cases[k][0]), &v,
                             &used, &err));
        assert_string_equal(pr(&f, v, false), cases[k][1]);
        arena_free(f.a);
    }
}

/* A row of a million quotes reads into its two conses and two origin
 * entries a quote (96 bytes): the reader's stack holds one frame for the
 * whole row (it held one a quote, and copies of the stack as it grew:
 * some 180 bytes a quote).  Rows with blanks, of other prefixes and
 * mixed ones read as before. */
static void a_row_of_quotes_takes_one_frame(void **state)
{
    (void)state;
    size_t n = 1000000;
    char *text = test_malloc(n + 2);
    memset(text, '\'', n);
    text[n] = 'x';
    text[n + 1] = 0;
    struct fx f = fx_new();
    size_t before = f.a->total;
    struct read_result rr;
    assert_true(read_source(f.L, (const uint8_t *)text, n + 1, &rr));
    assert_true(f.a->total - before < 110 * n);
    const struct value *v = rr.forms[0].v;
    for (size_t k = 0; k < n; k++) {
        struct span sp;
        assert_true(read_origin_span(&rr, v, &sp));
        assert_int_equal(sp.start, k);
        v = value_car(value_cdr(v));
    }
    assert_string_equal(v->u.sym.name, "x");
    arena_free(f.a);
    test_free(text);
    static const char *const rows[][2] = {
        {"'' 'x", "'''x"},
        {"#'#'f", "#'#'f"},
        {",,@,z", "(\\, (\\,@ (\\, z)))"},
        {"``'`x", "``'`x"},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        struct fx g = fx_new();
        struct value *w;
        size_t used;
        struct read_error err;
        assert_true(read_one(g.L, (const uint8_t *)rows[k][0], strlen(rows[k][0]), &w, &used,
                             &err));
        assert_string_equal(pr(&g, w, false), rows[k][1]);
        arena_free(g.a);
    }
}

/* Does text[0, cut) read without running out of text (an end-of-file
 * error)?  Other errors are the text's own. */
static bool reads_to(const uint8_t *text, size_t cut)
{
    struct arena *a = support_arena();
    struct read_result rr;
    bool ok = read_source_opts(intern_new(a), text, cut, READ_NO_ORIGIN, &rr) ||
              strcmp(rr.err.symbol, "end-of-file") != 0;
    arena_free(a);
    return ok;
}

/* Every stretch read_bounds calls complete reads to its end, whatever the
 * pieces the text came in; a whole text that reads is complete at its
 * last line end.  On every Lisp file of testdata/ and on texts made to
 * hide parentheses in characters, strings, escapes and #@ skips. */
static void bounds_agree_with_the_reader(void **state)
{
    (void)state;
    static const char *const made[] = {
        "(a ?( ?\\( ?\\C-( ?\\C-\\M-\\( ?\\^( ?\\s-( \"(\\\"(\" a\\(b)\n(b)\n",
        "'\n(a\n b)\n#1=\n(c)\n,@\nd\n`(e\n)\n",
        "(a #@4 x(\x1f b)\n(c ; (\n)\n#!(\n(d)\n#@00 (\n(e\n",
        "#s(r a) #^[nil] #&3\"(\" #x1f #24r1k #1# #'(f\n)\nfoo?(bar\n",
        "(a))\n(b)\n",
    };
    struct arena *a = support_arena();
    const char **paths, *err = NULL;
    size_t n_paths;
    assert_true(file_walk_dir(a, support_testdata(""), &paths, &n_paths, &err));
    size_t total = n_paths + sizeof made / sizeof *made, whole = 0;
    for (size_t k = 0; k < total; k++) {
        size_t len;
        char *text = k < n_paths ? support_slurp(paths[k], &len) : NULL;
        if (!text) {
            const char *m = made[k - n_paths];
            len = strlen(m);
            text = test_malloc(len + 1);
            memcpy(text, m, len + 1);
        }
        const uint8_t *t = (const uint8_t *)text;
        struct read_bounds b;
        read_bounds_init(&b);
        size_t step = 1 + k % 37, seen = 0;
        for (size_t end = 0; end < len;) {
            end = end + step < len ? end + step : len;
            read_bounds_scan(&b, t, end);
            if (b.ready != seen && !reads_to(t, b.ready))
                fail_msg("%s: the stretch up to byte %zu does not read",
                         k < n_paths ? paths[k] : made[k - n_paths], b.ready);
            seen = b.ready;
        }
        /* a text that reads is complete at its end (unless it skips to
         * the end with #@00, or does not end its last line) */
        whole += len && text[len - 1] == '\n' && reads_to(t, len) && b.ready == len;
        test_free(text);
    }
    assert_true(whole * 10 > total * 9); /* nearly all are found complete */
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reader_cases_table),
        cmocka_unit_test(deep_open_parens_are_end_of_file),
        cmocka_unit_test(deep_closed_list_reads),
        cmocka_unit_test(deep_vectors_and_quotes),
        cmocka_unit_test(errors_have_offsets),
        cmocka_unit_test(forms_before_an_error_are_kept),
        cmocka_unit_test(nul_and_controls_separate_forms),
        cmocka_unit_test(invalid_utf8_is_raw_bytes),
        cmocka_unit_test(extended_utf8_is_kept),
        cmocka_unit_test(labels_share_and_are_per_form),
        cmocka_unit_test(forms_say_their_nesting),
        cmocka_unit_test(origin_map_records_spans),
        cmocka_unit_test(origin_map_across_chunks),
        cmocka_unit_test(origin_of_the_machines_tokens),
        cmocka_unit_test(names_while_the_table_grows),
        cmocka_unit_test(symbols_know_whether_they_print_plainly),
        cmocka_unit_test(string_escapes_agree_with_characters),
        cmocka_unit_test(own_scanning_matches_lexer),
        cmocka_unit_test(boolvec_in_a_list),
        cmocka_unit_test(integers_at_the_bound),
        cmocka_unit_test(coding_cookies),
        cmocka_unit_test(named_characters),
        cmocka_unit_test(radix_bignums),
        cmocka_unit_test(bounds_agree_with_the_reader),
        cmocka_unit_test(a_row_of_quotes_takes_one_frame),
    };
    return SUPPORT_RUN(tests);
}
