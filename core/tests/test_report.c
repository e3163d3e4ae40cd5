/* test_report.c - rendering diagnostics in the GNU, JSON and GitHub formats. */
#include "support.h"

#include <string.h>

#include "base/report.h"

struct fixture {
    struct arena *a;
    struct source src;
    struct diag_list d;
    struct buf out;
};

static const char text[] = "(a)\n\t(b \"x\")\n";

static void setup(struct fixture *f)
{
    f->a = support_arena();
    source_init(&f->src, f->a, "dir/f.el", (const uint8_t *)text, sizeof text - 1);
    diag_init(&f->d, f->a);
    buf_init(&f->out, f->a);
}

static void gnu_format_has_position_and_code(void **state)
{
    (void)state;
    struct fixture f;
    setup(&f);
    diag_add(&f.d, DIAG_ERROR, 6, 7, "read", "invalid read syntax: \"%s\"", ")");
    diag_add(&f.d, DIAG_WARNING, 0, 3, "unused-variable", "unused %s", "x");
    diag_add(&f.d, DIAG_NOTE, 1, 2, "unused-variable", "bound here");
    struct report_opts o = {REPORT_GNU, false, false};
    report_render(&f.out, &f.src, &f.d, &o);
    assert_string_equal(buf_cstr(&f.out),
                        "dir/f.el:2:10: error: invalid read syntax: \")\" [read]\n"
                        "dir/f.el:1:1: warning: unused x [unused-variable]\n"
                        "dir/f.el:1:2: note: bound here [unused-variable]\n");
    arena_free(f.a);
}

static void werror_and_quiet(void **state)
{
    (void)state;
    struct fixture f;
    setup(&f);
    diag_add(&f.d, DIAG_WARNING, 0, 3, "w", "careful");
    diag_add(&f.d, DIAG_NOTE, 0, 3, "w", "because");
    struct report_opts o = {REPORT_GNU, true, true};
    report_render(&f.out, &f.src, &f.d, &o);
    assert_string_equal(buf_cstr(&f.out), "dir/f.el:1:1: error: careful [w]\n");
    arena_free(f.a);
}

static void messages_stay_on_one_line(void **state)
{
    (void)state;
    struct fixture f;
    setup(&f);
    diag_add(&f.d, DIAG_ERROR, 0, 0, "x", "two\nlines\r");
    struct report_opts o = {REPORT_GNU, false, false};
    report_render(&f.out, &f.src, &f.d, &o);
    assert_string_equal(buf_cstr(&f.out), "dir/f.el:1:1: error: two\\nlines\\r [x]\n");
    arena_free(f.a);
}

static void json_lines(void **state)
{
    (void)state;
    struct fixture f;
    setup(&f);
    diag_add(&f.d, DIAG_ERROR, 8, 11, "read", "say \"hi\"\\\t");
    struct report_opts o = {REPORT_JSON, false, false};
    report_render(&f.out, &f.src, &f.d, &o);
    report_plain(&f.out, "g.el", DIAG_ERROR, "io", "cannot open: No such file", &o);
    report_tool(&f.out, DIAG_NOTE, "no forms", &o);
    assert_string_equal(
        buf_cstr(&f.out),
        "{\"file\":\"dir/f.el\",\"line\":2,\"column\":12,\"end_line\":2,"
        "\"end_column\":15,\"severity\":\"error\",\"code\":\"read\","
        "\"message\":\"say \\\"hi\\\"\\\\\\u0009\"}\n"
        "{\"file\":\"g.el\",\"severity\":\"error\",\"code\":\"io\","
        "\"message\":\"cannot open: No such file\"}\n"
        "{\"file\":null,\"severity\":\"note\",\"code\":null,\"message\":\"no forms\"}\n");
    arena_free(f.a);
}

static void github_commands(void **state)
{
    (void)state;
    struct fixture f;
    setup(&f);
    diag_add(&f.d, DIAG_WARNING, 4, 5, "c", "50%% done\nnext");
    diag_add(&f.d, DIAG_NOTE, 0, 1, "c", "see");
    struct report_opts o = {REPORT_GITHUB, false, false};
    report_render(&f.out, &f.src, &f.d, &o);
    report_plain(&f.out, "a,b:c.el", DIAG_ERROR, "io", "gone", &o);
    assert_string_equal(
        buf_cstr(&f.out),
        "::warning file=dir/f.el,line=2,col=1,endLine=2,endColumn=9::"
        "50%25 done%0Anext [c]\n"
        "::notice file=dir/f.el,line=1,col=1,endLine=1,endColumn=2::see [c]\n"
        "::error file=a%2Cb%3Ac.el::gone [io]\n");
    arena_free(f.a);
}

static void tool_lines(void **state)
{
    (void)state;
    struct fixture f;
    setup(&f);
    struct report_opts o = {REPORT_GNU, false, false};
    report_tool(&f.out, DIAG_NOTE, "no pcase-family or cond* forms", &o);
    report_tool(&f.out, DIAG_ERROR, "cannot write the output", &o);
    o.quiet = true;
    report_tool(&f.out, DIAG_NOTE, "dropped", &o);
    report_plain(&f.out, "x.el", DIAG_ERROR, "resource", "out of memory", &o);
    assert_string_equal(buf_cstr(&f.out),
                        "pcexpand: no pcase-family or cond* forms\n"
                        "pcexpand: error: cannot write the output\n"
                        "x.el: error: out of memory [resource]\n");
    arena_free(f.a);
}

/* Is s valid UTF-8 without control characters but the line's end? */
static bool clean_utf8_line(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        if (*p < 0x20 || *p == 0x7F)
            return *p == '\n' && p[1] == 0;
        int n = source_char_len(p, strlen((const char *)p));
        if (*p >= 0x80 && (n == 1 || n > 4 || (p[0] == 0xC2 && p[1] < 0xA0)))
            return false;
        p += n;
    }
    return false; /* no line end */
}

/* A file name with terminal controls (ESC, BEL, CSI as U+009B), a line
 * break and bytes that are no UTF-8: shown escaped in the text formats,
 * valid JSON in the JSON format, in positioned and plain diagnostics. */
static void names_with_controls_are_escaped(void **state)
{
    (void)state;
    static const char name[] = "a\x1b[31mb\x07\xc2\x9b\n\xff\xfe\xc3\xa9.el";
    static const struct {
        enum report_format format;
        const char *line;
    } want[] = {
        {REPORT_GNU, "a\\x1b[31mb\\x07\\xc2\\x9b\\n\\xff\\xfe\xc3\xa9.el:1:1: error: m\\x1b [c]\n"},
        {REPORT_GITHUB, "::error file=a\\x1b[31mb\\x07\\xc2\\x9b%0A\\xff\\xfe\xc3\xa9.el,"
                        "line=1,col=1,endLine=1,endColumn=2::m\\x1b [c]\n"},
        {REPORT_JSON, "{\"file\":\"a\\u001b[31mb\\u0007\\u009b\\n\\ufffd\\ufffd\xc3\xa9.el\","
                      "\"line\":1,\"column\":1,\"end_line\":1,\"end_column\":2,"
                      "\"severity\":\"error\",\"code\":\"c\",\"message\":\"m\\u001b\"}\n"},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        struct fixture f;
        setup(&f);
        f.src.name = name;
        diag_add(&f.d, DIAG_ERROR, 0, 1, "c", "m\x1b");
        struct report_opts o = {want[k].format, false, false};
        report_render(&f.out, &f.src, &f.d, &o);
        assert_string_equal(buf_cstr(&f.out), want[k].line);
        assert_true(clean_utf8_line(buf_cstr(&f.out)));
        f.out.len = 0;
        report_plain(&f.out, name, DIAG_ERROR, "io", "gone", &o);
        assert_true(clean_utf8_line(buf_cstr(&f.out)));
        arena_free(f.a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gnu_format_has_position_and_code),
        cmocka_unit_test(werror_and_quiet),
        cmocka_unit_test(messages_stay_on_one_line),
        cmocka_unit_test(json_lines),
        cmocka_unit_test(github_commands),
        cmocka_unit_test(tool_lines),
        cmocka_unit_test(names_with_controls_are_escaped),
    };
    return SUPPORT_RUN(tests);
}
