/* support.c - shared helpers for the unit tests (see support.h). */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>

static void *t_alloc(void *ctx, size_t n) { (void)ctx; return test_malloc(n); }
static void t_free(void *ctx, void *p) { (void)ctx; test_free(p); }

static const struct arena_backing cmocka_backing = {t_alloc, t_free, NULL};

struct arena *support_arena(void)
{
    struct arena *a = arena_new(&cmocka_backing);
    assert_non_null(a);
    return a;
}

static void *f_alloc(void *ctx, size_t n)
{
    struct support_failing *f = ctx;
    if (++f->count == f->fail_at)
        return NULL;
    return test_malloc(n);
}

struct arena_backing support_failing_backing(struct support_failing *f)
{
    struct arena_backing b = {f_alloc, t_free, f};
    return b;
}

const char *support_testdata(const char *rel)
{
    static char path[4096];
    const char *root = getenv("PCX_TESTDATA");
    snprintf(path, sizeof path, "%s/%s", root ? root : "testdata", rel);
    return path;
}

char *support_slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = test_malloc((size_t)len + 1);
    size_t got = fread(buf, 1, (size_t)len, f);
    fclose(f);
    assert_int_equal(got, (size_t)len);
    buf[len] = 0;
    *n = (size_t)len;
    return buf;
}
