/* test_stream.c - standard input a stretch at a time (api_stream.c):
 * memory given back from stretch to stretch, each byte read once, and
 * the output of the same text as a whole. */
#include "support.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcx/pcx.h"

/* A text written into a pipe by a thread, piece by piece. */
struct writer {
    int fd;
    const char *text;
    size_t len, piece;
};

static void *write_pieces(void *arg)
{
    struct writer *w = arg;
    for (size_t at = 0; at < w->len;) {
        size_t n = w->len - at < w->piece ? w->len - at : w->piece;
        ssize_t k = write(w->fd, w->text + at, n);
        if (k <= 0)
            break;
        at += (size_t)k;
    }
    close(w->fd);
    return NULL;
}

/* What a sink gets: its size and a checksum (the outputs are large). */
struct tally {
    size_t len;
    uint64_t sum;
};

static bool tally_write(void *ctx, const void *p, size_t n)
{
    struct tally *t = ctx;
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        t->sum = t->sum * 1099511628211u + b[i] + 1;
    t->len += n;
    return true;
}

/* Run text through standard input (pieces of `piece` bytes, each arena
 * limited to `limit` bytes) or as a buffer; the output's tally and the
 * counters. */
static enum pcx_status run_text(const char *text, size_t len, bool stream, size_t piece,
                                size_t limit, struct tally *out, struct pcx_stats *st)
{
    struct tally err = {0, 0};
    struct pcx_options o;
    memset(&o, 0, sizeof o);
    o.stream = true;
    o.memory_limit = limit;
    o.quiet = true;
    o.out = (struct pcx_sink){tally_write, out, NULL};
    o.diag = (struct pcx_sink){tally_write, &err, NULL};
    struct pcx_ctx *cx = pcx_ctx_new(&o);
    assert_non_null(cx);
    enum pcx_status s;
    if (stream) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        struct writer w = {fds[1], text, len, piece};
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, write_pieces, &w), 0);
        FILE *f = fdopen(fds[0], "rb");
        assert_non_null(f);
        s = pcx_run_stream(cx, f, "<stdin>");
        fclose(f); /* a run that stopped early does not keep the writer waiting */
        pthread_join(th, NULL);
    } else {
        s = pcx_run_buffer(cx, "<stdin>", text, len);
    }
    pcx_ctx_stats(cx, st);
    pcx_ctx_free(cx);
    return s;
}

/* n bytes (about) of small top-level forms, a pcase among them now and
 * then; malloc'd. */
static char *small_forms(size_t n, size_t *len)
{
    char *t = malloc(n + 200);
    assert_non_null(t);
    size_t at = 0;
    for (unsigned i = 0; at < n; i++)
        at += (size_t)sprintf(t + at, i % 8 ? "(foo (bar %u) \"baz\" 'q)\n"
                                            : "(pcase x (%u 'one) (`(,a . ,b) (+ a b)))\n",
                              i);
    *len = at;
    return t;
}

/* 16 MB of small forms through standard input, each arena limited to
 * 32 MB: the memory of a stretch is given back to the next (it was kept
 * for the whole input: 40 bytes per byte); the output is the buffer's. */
static void memory_is_given_back(void **state)
{
    (void)state;
    size_t len;
    char *text = small_forms((size_t)16 << 20, &len);
    struct tally streamed = {0, 0}, whole = {0, 0};
    struct pcx_stats st;
    assert_int_equal(run_text(text, len, true, 64 * 1024, (size_t)32 << 20, &streamed, &st),
                     PCX_STATUS_OK);
    assert_int_equal(st.bytes_in, len);
    assert_int_equal(run_text(text, len, false, 0, 0, &whole, &st), PCX_STATUS_OK);
    assert_int_equal(streamed.len, whole.len);
    assert_true(streamed.sum == whole.sum);
    free(text);
}

/* One form of 4 MB over many lines, arriving 4 KiB at a time: the reader
 * reads it once (it was read again at every piece: 2,000 times). */
static void a_long_form_is_read_once(void **state)
{
    (void)state;
    size_t n = (size_t)4 << 20, len = 0;
    char *text = malloc(n + 100);
    assert_non_null(text);
    len += (size_t)sprintf(text, "(pcase x (1 '(");
    while (len < n)
        len += (size_t)sprintf(text + len, "a b c d e f g h i j k l m n o p q r s t u v w\n");
    len += (size_t)sprintf(text + len, ")) (_ 2))\n");
    struct tally streamed = {0, 0}, whole = {0, 0};
    struct pcx_stats st;
    assert_int_equal(run_text(text, len, true, 4096, 0, &streamed, &st), PCX_STATUS_OK);
    assert_true(st.bytes_read <= len + len / 2);
    assert_int_equal(run_text(text, len, false, 0, 0, &whole, &st), PCX_STATUS_OK);
    assert_true(streamed.len == whole.len && streamed.sum == whole.sum);
    free(text);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN); /* a write to a closed pipe fails, and says so */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memory_is_given_back),
        cmocka_unit_test(a_long_form_is_read_once),
    };
    return SUPPORT_RUN(tests);
}
