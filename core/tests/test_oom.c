/* test_oom.c - out of memory anywhere in a run ends it cleanly.
 *
 * Two sweeps over a few inputs (pcase with backquote and or, cond*, a
 * pattern macro defined in the input, a read error, --compact output):
 *  - the run's stages as core/api.c computes them (api_run_init +
 *    run_input under a setjmp), on an arena whose backing fails its Nth
 *    allocation, for every N up to the number a full run makes: each run
 *    must take the out-of-memory exit, leak no page (cmocka checks), and
 *    leave nothing behind that changes the next run's result.  Pages are
 *    large, so a run makes few allocations; to make the failure strike at
 *    every point of the pipeline, each N is tried with the page boundary
 *    moved by a pad allocated first, in steps of PAD_STEP bytes;
 *  - the public API with memory_limit stepped up from a few bytes: each
 *    run prints exactly "NAME: error: out of memory [resource]" and
 *    nothing else, with status 2, until the limit suffices, and then the
 *    same output as an unlimited run.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "pcx/pcx.h"

struct oom_case {
    const char *name;
    const char *text;
    bool compact;
};

static const struct oom_case cases[] = {
    {"pcase.el",
     "(defun f (x)\n  (pcase x\n    (`(,a . ,(or 'b 'c)) (list a))\n"
     "    ((and (pred stringp) s (guard (> (length s) 2))) s)\n"
     "    ([1 ,y] y)\n    (_ nil)))\n",
     false},
    {"cond-star.el",
     "(cond* ((match* (list a (constrain b (> b a))) v) (+ a b))\n"
     "       ((bind* (n (length v))) :non-exit)\n"
     "       ((pcase* `(,k . ,_) v) k)\n       (t 'none))\n",
     false},
    {"macro.el",
     "(pcase-defmacro pair (a b) `(and (pred consp) (app car ,a) (app cdr ,b)))\n"
     "(pcase-let (((pair p q) (cons 1 2))) (+ p q))\n"
     "(pcase-dolist ((seq a b) '([1 2])) (print (+ a b)))\n",
     true},
    {"read-error.el", "(pcase x (1 2))\n(a \"b\n", false},
};

#define N_CASES (sizeof cases / sizeof cases[0])

/* The arena's smallest page, and the step of the pad that moves the page
 * boundaries through the run. */
#define PAGE_BYTES (64 * 1024)
#define PAD_STEP 128

/* A sink collecting bytes with test_malloc (leaks fail the test). */
struct capture {
    char *data;
    size_t len;
};

static bool capture_write(void *ctx, const void *p, size_t n)
{
    struct capture *c = ctx;
    char *d = test_realloc(c->data, c->len + n + 1);
    assert_non_null(d);
    memcpy(d + c->len, p, n);
    c->data = d;
    c->len += n;
    d[c->len] = 0;
    return true;
}

static void capture_reset(struct capture *c)
{
    test_free(c->data);
    c->data = NULL;
    c->len = 0;
}

static struct pcx_ctx *context(const struct oom_case *k, size_t limit,
                               struct capture *out, struct capture *err)
{
    struct pcx_options o = {0};
    o.compact = k->compact;
    o.quiet = true;
    o.memory_limit = limit;
    o.out = (struct pcx_sink){capture_write, out, NULL};
    o.diag = (struct pcx_sink){capture_write, err, NULL};
    struct pcx_ctx *cx = pcx_ctx_new(&o);
    assert_non_null(cx);
    return cx;
}

/* What a computed run produced: result bytes, then diagnostics. */
struct outcome {
    char *text; /* test_malloc'd */
    bool oom;   /* the run took the out-of-memory exit */
};

/* One run of k's stages on an arena with backing f, as core/api.c's
 * compute() does it, after pad bytes of the first page are used up. */
static struct outcome run_stages(const struct pcx_ctx *cx, const struct oom_case *k,
                                 struct support_failing *f, size_t pad)
{
    struct outcome res = {NULL, false};
    struct arena_backing b = support_failing_backing(f);
    struct arena *a = arena_new(&b);
    if (!a) { /* the arena header itself: compute() says out of memory */
        res.oom = true;
        return res;
    }
    struct input in = {0};
    in.name = k->name;
    in.data = (const uint8_t *)k->text;
    in.len = strlen(k->text);
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        if (pad)
            arena_alloc(a, pad);
        struct run *fresh = ARENA_NEW(a, struct run);
        api_run_init(fresh, cx, a, &in);
        run_input(fresh);
        size_t n = fresh->out.len + fresh->msgs.len;
        res.text = test_malloc(n + 1);
        memcpy(res.text, fresh->out.data ? fresh->out.data : "", fresh->out.len);
        memcpy(res.text + fresh->out.len, fresh->msgs.data ? fresh->msgs.data : "",
               fresh->msgs.len);
        res.text[n] = 0;
    } else {
        res.oom = true;
    }
    arena_free(a);
    return res;
}

/* Every failure point of k: allocation n fails, with the boundaries of
 * the pages moved by pad; a run that needs fewer allocations must give
 * the result ref.  Returns the number of runs. */
static long sweep_case(const struct pcx_ctx *cx, const struct oom_case *k,
                       long total, const char *ref)
{
    long runs = 0;
    for (size_t pad = 0; pad < PAGE_BYTES; pad += PAD_STEP) {
        for (long n = 1; n <= total; n++, runs++) {
            struct support_failing g = {n, 0};
            struct outcome o = run_stages(cx, k, &g, pad);
            if (!o.oom && g.count >= n)
                fail_msg("%s: allocation %ld (pad %zu) failed, but the run "
                         "completed", k->name, n, pad);
            if (!o.oom)
                assert_string_equal(o.text, ref);
            test_free(o.text);
        }
    }
    return runs;
}

static void failing_backing_sweep(void **state)
{
    (void)state;
    struct capture out = {0}, err = {0};
    for (size_t i = 0; i < N_CASES; i++) {
        const struct oom_case *k = &cases[i];
        struct pcx_ctx *cx = context(k, 0, &out, &err);
        struct support_failing f = {0, 0};
        struct outcome ref = run_stages(cx, k, &f, 0);
        assert_false(ref.oom);
        assert_true(strlen(ref.text) > 0);
        long total = f.count + 1; /* a pad can cost one more page */
        assert_true(total >= 3); /* the header and at least one page */
        long runs = sweep_case(cx, k, total, ref.text);
        print_message("%s: %ld allocations, %ld failing runs\n", k->name,
                      f.count, runs);
        /* Nothing of the failed runs is left over to change this one. */
        struct support_failing h = {0, 0};
        struct outcome again = run_stages(cx, k, &h, 0);
        assert_false(again.oom);
        assert_string_equal(again.text, ref.text);
        assert_int_equal(h.count, f.count);
        test_free(again.text);
        test_free(ref.text);
        pcx_ctx_free(cx);
    }
}

static void memory_limit_sweep(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_CASES; i++) {
        const struct oom_case *k = &cases[i];
        struct capture ref_out = {0}, ref_err = {0};
        struct pcx_ctx *cx = context(k, 0, &ref_out, &ref_err);
        enum pcx_status ref = pcx_run_buffer(cx, k->name, k->text, strlen(k->text));
        pcx_ctx_free(cx);
        char oom_line[256];
        snprintf(oom_line, sizeof oom_line, "%s: error: out of memory [resource]\n",
                 k->name);
        size_t limit = 1, runs = 0;
        for (;; limit += 8 * 1024, runs++) {
            assert_true(limit < 256u * 1024 * 1024); /* a small input */
            struct capture out = {0}, err = {0};
            cx = context(k, limit, &out, &err);
            enum pcx_status st = pcx_run_buffer(cx, k->name, k->text, strlen(k->text));
            pcx_ctx_free(cx);
            bool oom = err.data && strcmp(err.data, oom_line) == 0;
            if (oom) {
                assert_int_equal(st, PCX_STATUS_ERROR);
                assert_int_equal(out.len, 0);
            } else {
                /* Enough memory: exactly the unlimited run. */
                assert_int_equal(st, ref);
                assert_int_equal(out.len, ref_out.len);
                assert_int_equal(err.len, ref_err.len);
                if (out.len)
                    assert_memory_equal(out.data, ref_out.data, out.len);
                if (err.len)
                    assert_memory_equal(err.data, ref_err.data, err.len);
            }
            capture_reset(&out);
            capture_reset(&err);
            if (!oom)
                break;
        }
        assert_true(runs > 0); /* the first limits were too small */
        print_message("%s: out of memory below %zu bytes (%zu runs)\n", k->name,
                      limit, runs);
        capture_reset(&ref_out);
        capture_reset(&ref_err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(failing_backing_sweep),
        cmocka_unit_test(memory_limit_sweep),
    };
    return SUPPORT_RUN(tests);
}
