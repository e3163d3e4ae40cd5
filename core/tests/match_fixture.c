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

const struct pat *match_fx_quote(struct match_fx *f, const char *c)
{
    return pat_quote(&f->m, match_fx_read(f, c));
}

const struct pat *match_fx_pred(struct match_fx *f, const char *fun)
{
    return pat_pred(&f->m, match_fx_read(f, fun));
}

const struct pat *match_fx_var(struct match_fx *f, const char *s)
{
    return pat_var(&f->m, match_fx_read(f, s));
}

const struct pat *match_fx_app(struct match_fx *f, const char *fun, const struct pat *p)
{
    return pat_app(&f->m, match_fx_read(f, fun), p);
}

const struct pat *match_fx_and2(struct match_fx *f, const struct pat *a, const struct pat *b)
{
    const struct pat *v[2] = {a, b};
    return pat_and(&f->m, v, 2);
}

const struct pat *match_fx_or2(struct match_fx *f, const struct pat *a, const struct pat *b)
{
    const struct pat *v[2] = {a, b};
    return pat_or(&f->m, v, 2);
}
