/* test_oom.c - out of memory anywhere in a run ends it cleanly.
 *
 * Three sweeps over a few inputs (pcase with backquote and or, cond*, a
 * pattern macro defined in the input, a read error, --compact output, a
 * file read from disk whose configuration declares a template and a
 * struct):
 *  - loading a configuration file (libfyaml, then Lisp snippets read and
 *    a template checked) on an arena that fails its Nth allocation, for
 *    every N: each load either gives the same configuration as an
 *    unlimited one or takes the out-of-memory exit, and leaks no page and
 *    no file descriptor;
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
 *    same output as an unlimited run;
 *  - golden mode (io/golden.c: the manifest, its paths, the golden files
 *    compared, the golden directory listed for obsolete files) on an
 *    arena that fails its Nth allocation, with pads as above.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api_int.h"
#include "io/config.h"
#include "io/golden.h"
#include "pcx/pcx.h"
#include "syntax/read.h"

struct oom_case {
    const char *name;
    const char *text;
    bool compact;
    bool file; /* read from a file (config_dir/NAME), under the configuration */
    unsigned jobs; /* options.jobs */
    bool whole;    /* options.whole */
};

static const struct oom_case cases[] = {
    {"pcase.el",
     "(defun f (x)\n  (pcase x\n    (`(,a . ,(or 'b 'c)) (list a))\n"
     "    ((and (pred stringp) s (guard (> (length s) 2))) s)\n"
     "    ([1 ,y] y)\n    (_ nil)))\n",
     false, false, 0, false},
    {"cond-star.el",
     "(cond* ((match* (list a (constrain b (> b a))) v) (+ a b))\n"
     "       ((bind* (n (length v))) :non-exit)\n"
     "       ((pcase* `(,k . ,_) v) k)\n       (t 'none))\n",
     false, false, 0, false},
    {"macro.el",
     "(pcase-defmacro pair (a b) `(and (pred consp) (app car ,a) (app cdr ,b)))\n"
     "(pcase-let (((pair p q) (cons 1 2))) (+ p q))\n"
     "(pcase-dolist ((seq a b) '([1 2])) (print (+ a b)))\n",
     true, false, 0, false},
    {"read-error.el", "(pcase x (1 2))\n(a \"b\n", false, false, 0, false},
    {"config.el",
     "(pcase v ((my-pos n) n) ((cl-struct point x y) (+ x y)) (_ 0))\n",
     false, true, 0, false},
};

/* The configuration of the "file" cases: YAML, a template and a struct
 * layout, so that loading it reads Lisp snippets and checks a template. */
static const char config_yaml[] =
    "version: 1\n"
    "output:\n  width: 60\n"
    "pattern-macros:\n"
    "  my-pos:\n"
    "    args: \"(v)\"\n"
    "    expand: |\n"
    "      `(and (pred integerp) ,v (guard (> ,v 0)))\n"
    "structs:\n"
    "  point:\n    type: vector\n    named: true\n    slots: [x, y]\n";

/* A scratch folder holding the configuration and the file cases. */
static char config_dir[] = "/tmp/pcx-test-oom-XXXXXX";
static char config_path[sizeof config_dir + 32];

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[sizeof config_dir + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
}

/* A configuration snippet must read as exactly one form. */
static struct value *read_snippet(void *ctx, struct lisp *L, const char *text,
                                  size_t len, size_t *err_off, const char **why)
{
    (void)ctx;
    struct read_result rd;
    *err_off = 0;
    *why = "not exactly one form";
    if (!read_source_opts(L, (const uint8_t *)text, len, READ_NO_ORIGIN, &rd) ||
        rd.n_forms != 1)
        return NULL;
    return rd.forms[0].v;
}

static const struct config_params config_params = {
    .mode = CONFIG_FILE,
    .lisp = {read_snippet, NULL, NULL},
};

/* The lowest free file descriptor: one leaked by a failed run moves it. */
static int lowest_free_fd(void)
{
    int fd = dup(0);
    assert_true(fd >= 0);
    close(fd);
    return fd;
}

#define N_CASES (sizeof cases / sizeof cases[0])

/* The arena's smallest page, and the step of the pad that moves the page
 * boundaries through the run. */
#define PAGE_BYTES (64 * 1024)
#define PAD_STEP 128

/* A sink collecting bytes with test_malloc (leaks fail the test). */

static void capture_reset(struct support_capture *c)
{
    test_free(c->data);
    c->data = NULL;
    c->len = 0;
}

/* Path of a file case. */
static const char *case_path(const struct oom_case *k)
{
    static char path[sizeof config_dir + 64];
    snprintf(path, sizeof path, "%s/%s", config_dir, k->name);
    return path;
}

static struct pcx_ctx *context(const struct oom_case *k, size_t limit,
                               struct support_capture *out, struct support_capture *err)
{
    struct pcx_options o = {0};
    o.compact = k->compact;
    o.config = k->file ? PCX_CONFIG_FILE : PCX_CONFIG_NONE;
    o.config_file = k->file ? config_path : NULL;
    o.quiet = true;
    o.memory_limit = limit;
    o.jobs = k->jobs;
    o.whole = k->whole;
    o.out = (struct pcx_sink){support_capture_write, out, NULL};
    o.diag = (struct pcx_sink){support_capture_write, err, NULL};
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
 * compute() does it, after pad bytes of the first page are used up; a
 * file case reads its file and applies cfg. */
static struct outcome oom_run_stages(const struct pcx_ctx *cx, const struct oom_case *k,
                                 const struct config *cfg,
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
    if (k->file) {
        in.path = case_path(k);
        in.cfg = cfg;
    } else {
        in.data = (const uint8_t *)k->text;
        in.len = strlen(k->text);
    }
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
                       const struct config *cfg, long total, const char *ref)
{
    long runs = 0;
    for (size_t pad = 0; pad < PAGE_BYTES; pad += PAD_STEP) {
        for (long n = 1; n <= total; n++, runs++) {
            struct support_failing g = {n, 0};
            struct outcome o = oom_run_stages(cx, k, cfg, &g, pad);
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
    struct support_capture out = {0}, err = {0};
    struct arena *ca = support_arena();
    struct buf msgs;
    buf_init(&msgs, ca);
    const struct config *cfg = config_load(ca, config_path, &config_params, &msgs);
    assert_non_null(cfg);
    int fd0 = lowest_free_fd();
    for (size_t i = 0; i < N_CASES; i++) {
        const struct oom_case *k = &cases[i];
        struct pcx_ctx *cx = context(k, 0, &out, &err);
        struct support_failing f = {0, 0};
        struct outcome ref = oom_run_stages(cx, k, cfg, &f, 0);
        assert_false(ref.oom);
        assert_true(strlen(ref.text) > 0);
        long total = f.count + 1; /* a pad can cost one more page */
        assert_true(total >= 3); /* the header and at least one page */
        long runs = sweep_case(cx, k, cfg, total, ref.text);
        assert_int_equal(lowest_free_fd(), fd0); /* no file left open */
        print_message("%s: %ld allocations, %ld failing runs\n", k->name,
                      f.count, runs);
        /* Nothing of the failed runs is left over to change this one. */
        struct support_failing h = {0, 0};
        struct outcome again = oom_run_stages(cx, k, cfg, &h, 0);
        assert_false(again.oom);
        assert_string_equal(again.text, ref.text);
        assert_int_equal(h.count, f.count);
        test_free(again.text);
        if (k->file) /* the configuration's template and struct were used */
            assert_non_null(strstr(ref.text, "integerp"));
        test_free(ref.text);
        pcx_ctx_free(cx);
    }
    arena_free(ca);
}

/* A run under a memory limit ended either with exactly the out-of-memory
 * error (status error, nothing printed) or exactly as the unlimited run
 * (ref); returns whether it ran out. */
static bool limited_outcome(enum pcx_status st, const struct support_capture *out,
                            const struct support_capture *err, enum pcx_status ref,
                            const struct support_capture *ref_out, const struct support_capture *ref_err,
                            const char *oom_line)
{
    bool oom = err->data && strcmp(err->data, oom_line) == 0;
    if (oom) {
        assert_int_equal(st, PCX_STATUS_ERROR);
        assert_int_equal(out->len, 0);
        return true;
    }
    assert_int_equal(st, ref);
    assert_int_equal(out->len, ref_out->len);
    assert_int_equal(err->len, ref_err->len);
    if (out->len)
        assert_memory_equal(out->data, ref_out->data, out->len);
    if (err->len)
        assert_memory_equal(err->data, ref_err->data, err->len);
    return false;
}

/* Run k through the public API. */
static enum pcx_status run_public(struct pcx_ctx *cx, const struct oom_case *k)
{
    return k->file ? pcx_run_file(cx, case_path(k))
                   : pcx_run_buffer(cx, k->name, k->text, strlen(k->text));
}

static void memory_limit_sweep(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_CASES; i++) {
        const struct oom_case *k = &cases[i];
        struct support_capture ref_out = {0}, ref_err = {0};
        struct pcx_ctx *cx = context(k, 0, &ref_out, &ref_err);
        enum pcx_status ref = run_public(cx, k);
        pcx_ctx_free(cx);
        char oom_line[256];
        snprintf(oom_line, sizeof oom_line, "%s: error: out of memory [resource]\n",
                 k->file ? case_path(k) : k->name);
        size_t limit = 1, runs = 0;
        for (;; limit += 8 * 1024, runs++) {
            assert_true(limit < 256u * 1024 * 1024); /* a small input */
            struct support_capture out = {0}, err = {0};
            cx = context(k, limit, &out, &err);
            enum pcx_status st = run_public(cx, k);
            pcx_ctx_free(cx);
            bool oom = limited_outcome(st, &out, &err, ref, &ref_out, &ref_err, oom_line);
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

/* A file of 160 KiB of pcase forms with a warning in its last form: run
 * alone with jobs 2, it is computed in two parts (api_split.c). */
static const char split_name[] = "split.el";

static void write_split_file(void)
{
    char path[sizeof config_dir + 64];
    snprintf(path, sizeof path, "%s/%s", config_dir, split_name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 0; i < 3000; i++) /* over 128 KiB: computed in parts */
        fprintf(f, "(defun s%d (v)\n  (pcase v (`(,a . ,b) (list a b %d)) (_ nil)))\n", i, i);
    fprintf(f, "(defun s-last (v) (pcase v (_ 1) (2 3)))\n");
    assert_int_equal(fclose(f), 0);
}

/* Parts the last run_split computed its input in. */
static size_t split_parts;

/* A run of the split file through pcx_run_operands, as the program does. */
static enum pcx_status run_split(unsigned jobs, bool whole, size_t limit,
                                 struct support_capture *out, struct support_capture *err)
{
    const struct oom_case k = {split_name, NULL, true, false, jobs, whole};
    struct pcx_ctx *cx = context(&k, limit, out, err);
    char path[sizeof config_dir + 64];
    snprintf(path, sizeof path, "%s/%s", config_dir, split_name);
    const char *operands[] = {path};
    enum pcx_status st = pcx_run_operands(cx, operands, 1, NULL, "-");
    enum pcx_status fin = pcx_ctx_finish(cx);
    struct pcx_stats stats;
    pcx_ctx_stats(cx, &stats);
    split_parts = stats.parts;
    pcx_ctx_free(cx);
    return fin > st ? fin : st;
}

/* The same with a file computed in parts: every part's arena has the
 * limit, and running out in any part (or while merging) ends the input
 * with the one out-of-memory error; with enough memory, the output and
 * diagnostics of a run in one piece. */
static void memory_limit_split(void **state)
{
    (void)state;
    write_split_file();
    struct support_capture ref_out = {0}, ref_err = {0}, two_out = {0}, two_err = {0};
    enum pcx_status ref = run_split(1, true, 0, &ref_out, &ref_err);
    assert_int_equal(split_parts, 0);
    for (unsigned jobs = 1; jobs <= 2; jobs++) {
        assert_int_equal(run_split(jobs, false, 0, &two_out, &two_err), ref);
        assert_true(split_parts >= 2);
        assert_int_equal(two_out.len, ref_out.len);
        assert_memory_equal(two_out.data, ref_out.data, ref_out.len);
        assert_string_equal(two_err.data, ref_err.data);
        capture_reset(&two_out);
        capture_reset(&two_err);
    }
    assert_non_null(strstr(ref_err.data, "unreachable"));
    char oom_line[256];
    snprintf(oom_line, sizeof oom_line, "%s/%s: error: out of memory [resource]\n",
             config_dir, split_name);
    size_t limit = 1, runs = 0;
    for (;; limit += 256 * 1024, runs++) {
        assert_true(limit < 512u * 1024 * 1024);
        struct support_capture out = {0}, err = {0};
        enum pcx_status st = run_split(2, false, limit, &out, &err);
        bool oom = limited_outcome(st, &out, &err, ref, &ref_out, &ref_err, oom_line);
        capture_reset(&out);
        capture_reset(&err);
        if (!oom)
            break;
    }
    assert_true(runs > 4);
    print_message("%s in parts: out of memory below %zu bytes (%zu runs)\n",
                  split_name, limit, runs);
    capture_reset(&ref_out);
    capture_reset(&ref_err);
    capture_reset(&two_out);
    capture_reset(&two_err);
    char path[sizeof config_dir + 64];
    snprintf(path, sizeof path, "%s/%s", config_dir, split_name);
    unlink(path);
}

/* The configuration loaded on an arena with backing f after pad bytes,
 * printed (test_malloc'd), or NULL when it ran out of memory. */
static char *load_config(struct support_failing *f, size_t pad)
{
    struct arena_backing b = support_failing_backing(f);
    struct arena *a = arena_new(&b);
    if (!a)
        return NULL;
    char *volatile text = NULL;
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        if (pad)
            arena_alloc(a, pad);
        struct buf msgs, out;
        buf_init(&msgs, a);
        const struct config *c = config_load(a, config_path, &config_params, &msgs);
        if (!c || msgs.len)
            fail_msg("configuration refused: %.*s", (int)msgs.len, msgs.data);
        buf_init(&out, a);
        config_print(c, a, &out);
        char *t = test_malloc(out.len + 1);
        memcpy(t, out.data, out.len);
        t[out.len] = 0;
        text = t;
    }
    arena_free(a);
    return text;
}

/* Every failure point of once (which returns its text, or NULL after
 * the out-of-memory exit): each result is ref's, and no descriptor is
 * left open.  Says how it went; the text of ref must hold want. */
static void sweep_texts(char *(*once)(struct support_failing *f, size_t pad),
                        const char *what, const char *want)
{
    struct support_failing f = {0, 0};
    char *ref = once(&f, 0);
    assert_non_null(ref);
    assert_non_null(strstr(ref, want));
    int fd0 = lowest_free_fd();
    long runs = 0, failed = 0, total = f.count + 1;
    for (size_t pad = 0; pad < PAGE_BYTES; pad += PAD_STEP) {
        for (long n = 1; n <= total; n++, runs++) {
            struct support_failing g = {n, 0};
            char *t = once(&g, pad);
            assert_int_equal(lowest_free_fd(), fd0);
            if (!t) {
                failed++;
                continue;
            }
            if (g.count >= n)
                fail_msg("%s: allocation %ld (pad %zu) failed, but it completed", what,
                         n, pad);
            assert_string_equal(t, ref);
            test_free(t);
        }
    }
    assert_true(failed > 0);
    print_message("%s: %ld allocations, %ld runs, %ld out of memory\n", what, f.count,
                  runs, failed);
    test_free(ref);
}

static void config_sweep(void **state)
{
    (void)state;
    sweep_texts(load_config, "configuration", "my-pos");
}

/* ---- golden mode ---- */

/* A golden case's "expansion": its text as output, one warning. */
static void echo_case(void *ctx, struct arena *a, const struct golden_job *job,
                      struct golden_result *res)
{
    (void)ctx;
    res->out = arena_strndup(a, (const char *)job->text, job->len);
    res->out_len = job->len;
    res->err = "";
    res->err_len = 0;
    res->status = 0;
}

/* The golden run of the manifest in golden_dir on an arena whose backing
 * is f, after pad bytes: its messages (test_malloc'd), or NULL when it
 * took the out-of-memory exit. */
static char *golden_once(struct support_failing *f, size_t pad)
{
    struct arena_backing b = support_failing_backing(f);
    struct arena *a = arena_new(&b);
    if (!a)
        return NULL;
    char *volatile text = NULL;
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        if (pad)
            arena_alloc(a, pad);
        char manifest[sizeof config_dir + 32];
        snprintf(manifest, sizeof manifest, "%s/g/m.yaml", config_dir);
        struct golden_params p = {0};
        p.manifest = manifest;
        p.label = "m.yaml";
        p.obsolete = true;
        p.report = (struct report_opts){REPORT_GNU, false, false};
        p.expand = echo_case;
        struct buf out, err;
        buf_init(&out, a);
        buf_init(&err, a);
        golden_run(a, &p, &out, &err);
        char *t = test_malloc(err.len + 1);
        memcpy(t, err.data ? err.data : "", err.len);
        t[err.len] = 0;
        text = t;
    }
    arena_free(a);
    return text;
}

/* Out of memory at every point of a golden run, the golden directory
 * (forty files no case refers to) open while its names are read: each
 * run ends with the same messages as an unlimited one or takes the
 * out-of-memory exit, and leaves no page and no descriptor behind. */
static void golden_sweep(void **state)
{
    (void)state;
    sweep_texts(golden_once, "golden mode", "obsolete-golden-file-number-39.el: warning");
}

/* The scratch folder: the configuration and the file cases. */
static int make_files(void **state)
{
    (void)state;
    if (!mkdtemp(config_dir))
        return -1;
    snprintf(config_path, sizeof config_path, "%s/pcexpand.yaml", config_dir);
    write_file(config_dir, "pcexpand.yaml", config_yaml);
    for (size_t i = 0; i < N_CASES; i++)
        if (cases[i].file)
            write_file(config_dir, cases[i].name, cases[i].text);
    char dir[sizeof config_dir + 32];
    snprintf(dir, sizeof dir, "%s/g", config_dir);
    mkdir(dir, 0755);
    write_file(dir, "m.yaml", "version: 1\ncases:\n  a: {source: \"(pcase x (1 2))\"}\n");
    snprintf(dir, sizeof dir, "%s/g/goldens", config_dir);
    mkdir(dir, 0755);
    for (int i = 0; i < 40; i++) {
        char name[64];
        snprintf(name, sizeof name, "obsolete-golden-file-number-%02d.el", i);
        write_file(dir, name, "x\n");
    }
    return 0;
}

static int remove_files(void **state)
{
    (void)state;
    char cmd[sizeof config_dir + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/g'", config_dir);
    if (system(cmd) != 0)
        return -1;
    unlink(config_path);
    for (size_t i = 0; i < N_CASES; i++)
        if (cases[i].file)
            unlink(case_path(&cases[i]));
    return rmdir(config_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(config_sweep),
        cmocka_unit_test(golden_sweep),
        cmocka_unit_test(failing_backing_sweep),
        cmocka_unit_test(memory_limit_sweep),
        cmocka_unit_test(memory_limit_split),
    };
    /* SUPPORT_RUN, with the scratch folder made around the group. */
    return cmocka_run_group_tests(tests, make_files, remove_files) ? 1 : 0;
}
