/* test_api.c - the public interface: runs, sinks, statuses, out of memory. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcx/pcx.h"

/* A sink collecting bytes in a fixed buffer. */
struct capture {
    char data[8192];
    size_t len;
    bool fail; /* report a write error */
};

static bool capture_write(void *ctx, const void *p, size_t n)
{
    struct capture *c = ctx;
    if (c->fail)
        return false;
    assert_true(c->len + n < sizeof c->data);
    memcpy(c->data + c->len, p, n);
    c->len += n;
    c->data[c->len] = 0;
    return true;
}

struct world {
    struct capture out, err;
    struct pcx_options o;
};

static struct pcx_ctx *make(struct world *w, bool no_expand, bool compact)
{
    memset(w, 0, sizeof *w);
    w->o.no_expand = no_expand;
    w->o.compact = compact;
    w->o.out = (struct pcx_sink){capture_write, &w->out, NULL};
    w->o.diag = (struct pcx_sink){capture_write, &w->err, NULL};
    struct pcx_ctx *cx = pcx_ctx_new(&w->o);
    assert_non_null(cx);
    return cx;
}

static void no_expand_prints_input_unchanged(void **state)
{
    (void)state;
    struct world w;
    struct pcx_ctx *cx = make(&w, true, false);
    static const char text[] = ";; c\n(a 'b)  ; t\n\f\n(c . d)";
    assert_int_equal(pcx_run_buffer(cx, "x.el", text, sizeof text - 1),
                     PCX_STATUS_OK);
    assert_int_equal(w.out.len, sizeof text - 1);
    assert_memory_equal(w.out.data, text, sizeof text - 1);
    assert_int_equal(w.err.len, 0);
    struct pcx_stats st;
    pcx_ctx_stats(cx, &st);
    assert_int_equal(st.files, 1);
    assert_int_equal(st.forms, 2);
    assert_int_equal(st.bytes_in, sizeof text - 1);
    assert_int_equal(pcx_ctx_finish(cx), PCX_STATUS_OK);
    assert_int_equal(w.err.len, 0); /* no note under --no-expand */
    pcx_ctx_free(cx);
}

static void default_mode_expands(void **state)
{
    (void)state;
    struct world w;
    struct pcx_ctx *cx = make(&w, false, false);
    static const char text[] = ";; k\n(defun k (x)\n  (pcase x (1 'one) (_ 'other)))\n";
    assert_int_equal(pcx_run_buffer(cx, "k.el", text, sizeof text - 1),
                     PCX_STATUS_OK);
    assert_true(strncmp(w.out.data, ";; k\n(defun k (x)\n  (", 19) == 0);
    assert_null(strstr(w.out.data, "pcase"));
    assert_non_null(strstr(w.out.data, "'one"));
    struct pcx_stats st;
    pcx_ctx_stats(cx, &st);
    assert_int_equal(st.expanded, 1);
    assert_int_equal(pcx_ctx_finish(cx), PCX_STATUS_OK);
    assert_int_equal(w.err.len, 0);
    pcx_ctx_free(cx);
}

static void note_when_nothing_expands(void **state)
{
    (void)state;
    struct world w;
    struct pcx_ctx *cx = make(&w, false, true);
    assert_int_equal(pcx_run_buffer(cx, "n.el", "(a 'b)", 6), PCX_STATUS_OK);
    assert_string_equal(w.out.data, "(a 'b)\n");
    assert_int_equal(pcx_ctx_finish(cx), PCX_STATUS_OK);
    assert_string_equal(w.err.data, "pcexpand: no pcase-family or cond* forms\n");
    pcx_ctx_free(cx);
}

static void compact_prints_one_line_per_form(void **state)
{
    (void)state;
    struct world w;
    struct pcx_ctx *cx = make(&w, true, true);
    static const char text[] = "(a (quote b))\r\n;; c\n\"x\ny\" ?a";
    assert_int_equal(pcx_run_buffer(cx, "x.el", text, sizeof text - 1),
                     PCX_STATUS_OK);
    /* the first line ends in CRLF, so generated lines do too */
    assert_string_equal(w.out.data, "(a 'b)\r\n\"x\\ny\"\r\n97\r\n");
    pcx_ctx_free(cx);
}

static void read_error_prints_nothing(void **state)
{
    (void)state;
    struct world w;
    struct pcx_ctx *cx = make(&w, true, false);
    static const char text[] = "(a)\n(b\n";
    assert_int_equal(pcx_run_buffer(cx, "dir/x.el", text, sizeof text - 1),
                     PCX_STATUS_ERROR);
    assert_int_equal(w.out.len, 0);
    assert_string_equal(w.err.data,
                        "dir/x.el:3:1: error: end of file during parsing [read]\n");
    /* a later good input still prints */
    assert_int_equal(pcx_run_buffer(cx, "y.el", "(y)", 3), PCX_STATUS_OK);
    assert_string_equal(w.out.data, "(y)");
    assert_int_equal(pcx_ctx_finish(cx), PCX_STATUS_ERROR);
    pcx_ctx_free(cx);
}

static void invalid_syntax_is_quoted(void **state)
{
    (void)state;
    struct world w;
    struct pcx_ctx *cx = make(&w, true, false);
    assert_int_equal(pcx_run_buffer(cx, "z.el", "\t(a))", 5), PCX_STATUS_ERROR);
    assert_string_equal(w.err.data,
                        "z.el:1:12: error: invalid read syntax: \")\" [read]\n");
    pcx_ctx_free(cx);
}

static void out_of_memory_is_a_diagnostic(void **state)
{
    (void)state;
    struct world w;
    memset(&w, 0, sizeof w);
    w.o.no_expand = true;
    w.o.compact = true;
    w.o.memory_limit = 200 * 1024;
    w.o.out = (struct pcx_sink){capture_write, &w.out, NULL};
    w.o.diag = (struct pcx_sink){capture_write, &w.err, NULL};
    struct pcx_ctx *cx = pcx_ctx_new(&w.o);
    size_t n = 1 << 20;
    char *big = malloc(n);
    for (size_t i = 0; i < n; i += 4)
        memcpy(big + i, "(a)", 4); /* "(a)" and a NUL: 262144 forms */
    assert_int_equal(pcx_run_buffer(cx, "big.el", big, n), PCX_STATUS_ERROR);
    assert_int_equal(w.out.len, 0);
    assert_string_equal(w.err.data, "big.el: error: out of memory [resource]\n");
    /* the context stays usable */
    w.err.len = 0;
    assert_int_equal(pcx_run_buffer(cx, "small.el", "(b)", 3), PCX_STATUS_OK);
    assert_string_equal(w.out.data, "(b)\n");
    free(big);
    pcx_ctx_free(cx);
}

static void io_errors(void **state)
{
    (void)state;
    struct world w;
    struct pcx_ctx *cx = make(&w, true, false);
    assert_int_equal(pcx_run_file(cx, "/nonexistent/a.el"), PCX_STATUS_ERROR);
    assert_string_equal(w.err.data, "/nonexistent/a.el: error: cannot open: "
                                    "No such file or directory [io]\n");
    w.err.len = 0;
    assert_int_equal(pcx_run_file(cx, "/"), PCX_STATUS_ERROR);
    assert_string_equal(w.err.data, "/: error: cannot read: Is a directory [io]\n");
    pcx_ctx_free(cx);
}

static void write_errors_are_reported(void **state)
{
    (void)state;
    struct world w;
    struct pcx_ctx *cx = make(&w, true, false);
    w.out.fail = true;
    assert_int_equal(pcx_run_buffer(cx, "w.el", "(w)", 3), PCX_STATUS_ERROR);
    assert_string_equal(w.err.data, "pcexpand: error: cannot write the output\n");
    pcx_ctx_free(cx);
}

static void json_diagnostics(void **state)
{
    (void)state;
    struct world w;
    memset(&w, 0, sizeof w);
    w.o.no_expand = true;
    w.o.message_format = PCX_MESSAGE_JSON;
    w.o.out = (struct pcx_sink){capture_write, &w.out, NULL};
    w.o.diag = (struct pcx_sink){capture_write, &w.err, NULL};
    struct pcx_ctx *cx = pcx_ctx_new(&w.o);
    assert_int_equal(pcx_run_buffer(cx, "j.el", "]", 1), PCX_STATUS_ERROR);
    assert_string_equal(w.err.data,
                        "{\"file\":\"j.el\",\"line\":1,\"column\":1,\"end_line\":1,"
                        "\"end_column\":1,\"severity\":\"error\",\"code\":\"read\","
                        "\"message\":\"invalid read syntax: \\\"]\\\"\"}\n");
    pcx_ctx_free(cx);
}

static void runs_directories_in_order(void **state)
{
    (void)state;
    char dir[] = "/tmp/pcx-test-api-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    const char *names[] = {"b.el", "a.el", "c.txt"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "w");
        fprintf(f, "(%c)\n", names[i][0]);
        fclose(f);
    }
    struct world w;
    struct pcx_ctx *cx = make(&w, true, false);
    assert_int_equal(pcx_run_path(cx, dir), PCX_STATUS_OK);
    assert_string_equal(w.out.data, "(a)\n(b)\n");
    struct pcx_stats st;
    pcx_ctx_stats(cx, &st);
    assert_int_equal(st.files, 2);
    pcx_ctx_free(cx);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A sink that takes its time, as a slow reader of a pipe: the runs
 * computed ahead of their turn wait. */
struct slow {
    size_t len;
};

static bool slow_write(void *ctx, const void *p, size_t n)
{
    (void)p;
    ((struct slow *)ctx)->len += n;
    usleep(3000);
    return true;
}

/* -j 2 on 16 files computed in one piece (about 13 MB each), printed to
 * a slow sink: the runs waiting for their turn hold their output only
 * (each held its whole memory: 8 of them 100 MB); the output is -j 1's. */
static void waiting_runs_keep_their_output_only(void **state)
{
    (void)state;
    char dir[] = "/tmp/pcx-test-api-XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (int k = 0; k < 16; k++) {
        char path[128];
        snprintf(path, sizeof path, "%s/f%02d.el", dir, k);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        for (int i = 0; i < 900; i++)
            fprintf(f, "(defun f%d (x) (pcase x (`(,a . ,b) (list a b %d)) (_ nil)))\n", i, i);
        fclose(f);
    }
    size_t out[2];
    for (unsigned jobs = 1; jobs <= 2; jobs++) {
        struct slow sink = {0};
        struct capture err = {{0}, 0, false};
        struct pcx_options o;
        memset(&o, 0, sizeof o);
        o.jobs = jobs;
        o.whole = true;
        o.quiet = true;
        o.out = (struct pcx_sink){slow_write, &sink, NULL};
        o.diag = (struct pcx_sink){capture_write, &err, NULL};
        struct pcx_ctx *cx = pcx_ctx_new(&o);
        assert_non_null(cx);
        const char *ops[] = {dir};
        assert_int_equal(pcx_run_operands(cx, ops, 1, stdin, NULL), PCX_STATUS_OK);
        struct pcx_stats st;
        pcx_ctx_stats(cx, &st);
        assert_int_equal(st.files, 16);
        if (jobs == 2)
            assert_true(st.held_max < ((size_t)8 << 20));
        out[jobs - 1] = sink.len;
        pcx_ctx_free(cx);
    }
    assert_int_equal(out[0], out[1]);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void null_options_mean_defaults(void **state)
{
    (void)state;
    struct pcx_ctx *cx = pcx_ctx_new(NULL);
    assert_non_null(cx);
    struct pcx_stats st;
    pcx_ctx_stats(cx, &st);
    assert_int_equal(st.files, 0);
    pcx_ctx_free(cx);
    pcx_ctx_free(NULL);
    assert_string_equal(pcx_version(), PCX_VERSION);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_expand_prints_input_unchanged),
        cmocka_unit_test(default_mode_expands),
        cmocka_unit_test(note_when_nothing_expands),
        cmocka_unit_test(compact_prints_one_line_per_form),
        cmocka_unit_test(read_error_prints_nothing),
        cmocka_unit_test(invalid_syntax_is_quoted),
        cmocka_unit_test(out_of_memory_is_a_diagnostic),
        cmocka_unit_test(io_errors),
        cmocka_unit_test(write_errors_are_reported),
        cmocka_unit_test(json_diagnostics),
        cmocka_unit_test(waiting_runs_keep_their_output_only),
        cmocka_unit_test(runs_directories_in_order),
        cmocka_unit_test(null_options_mean_defaults),
    };
    return SUPPORT_RUN(tests);
}
