/* match_fixture.c - the match-layer test context (see match_fixture.h). */
#include "match_fixture.h"

#include <string.h>

#include "support.h"
#include "syntax/read.h"

static struct value *gensym(void *ctx, const char *base)
{
    struct match_fx *f = ctx;
    return intern_uninterned(f->L, base, strlen(base));
}

static struct value *code(void *ctx, struct value *form)
{
    (void)ctx;
    return form;
}

struct match_fx *match_fx_new(bool cache)
{
    struct arena *a = support_arena();
    struct match_fx *f = ARENA_NEW(a, struct match_fx);
    f->a = a;
    f->L = intern_new(a);
    struct memo_hooks h = {gensym, code, f, NULL};
    memo_ctx_init(&f->m, f->L, &h, cache, 0);
    f->root = mtree_root(&f->m, intern_cstr(f->L, "x"), false);
    return f;
}

struct value *match_fx_read(struct match_fx *f, const char *text)
{
    struct value *v;
    size_t used;
    struct read_error err;
    assert_true(read_one(f->L, (const uint8_t *)text, strlen(text), &v, &used, &err));
    return v;
}
