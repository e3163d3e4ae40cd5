/* fuzz_pipeline.c - libFuzzer target: the whole pipeline on raw bytes.
 *
 * Runs the bytes through the public API (pcx_run_buffer) in default and
 * --compact mode, the naming of temporaries and the message format chosen
 * by the input's length, then checks what must hold for any input: no
 * internal error, and, when the run succeeded, output that reads back
 * without error.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "pcx/pcx.h"

/* A sink growing a malloc'd buffer. */
struct sink_buf {
    char *data;
    size_t len, cap;
};

static bool sink_put(void *ctx, const void *p, size_t n)
{
    struct sink_buf *s = ctx;
    if (s->len + n + 1 > s->cap) {
        size_t cap = (s->len + n + 1) * 2;
        char *d = realloc(s->data, cap);
        if (!d)
            abort();
        s->data = d;
        s->cap = cap;
    }
    memcpy(s->data + s->len, p, n);
    s->len += n;
    s->data[s->len] = 0;
    return true;
}

static void run_api(const uint8_t *data, size_t size, bool compact)
{
    struct sink_buf out = {0}, err = {0};
    struct pcx_options o = {0};
    o.compact = compact;
    o.gensyms = (enum pcx_gensyms)(size % 3);
    o.message_format = (enum pcx_message_format)(size / 3 % 3);
    o.werror = size % 7 == 0;
    o.width = size % 5 == 0 ? 20 : 0;
    o.memory_limit = FUZZ_MEMORY_LIMIT;
    o.out = (struct pcx_sink){sink_put, &out, NULL};
    o.diag = (struct pcx_sink){sink_put, &err, NULL};
    struct pcx_ctx *cx = pcx_ctx_new(&o);
    if (!cx)
        abort();
    enum pcx_status st = pcx_run_buffer(cx, "fuzz.el", data, size);
    if (st == PCX_STATUS_INTERNAL)
        fuzz_fail("internal error", data, size, err.data);
    /* Temporaries printed as #:x are uninterned (each reads as a new
     * symbol) but still readable; only the rename mode is checked for
     * re-reading, which covers the printer of expansions. */
    if (st == PCX_STATUS_OK && o.gensyms == PCX_GENSYMS_RENAME && out.len &&
        !fuzz_reads((const uint8_t *)out.data, out.len))
        fuzz_fail("output does not read back", data, size, out.data);
    pcx_ctx_finish(cx);
    pcx_ctx_free(cx);
    free(out.data);
    free(err.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run_api(data, size, false);
    run_api(data, size, true);
    return 0;
}
