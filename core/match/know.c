/* know.c - knowledge rules of the decision-tree builder (see know.h).
 *
 * Order: the exclusion table and know_exclusive, know_after_quote, the
 * pred rules (merge, `not` on either side, exclusion, membership) and
 * know_after_pred.
 */
#include "match/know.h"

#include <string.h>

/* Emacs 28.2's pcase-mutually-exclusive-predicates, both orders, sorted
 * for binary search (pcase.md 3.5).  No `null` entries, deliberately. */
static const char *const exclusive[][2] = {
    {"arrayp", "byte-code-function-p"}, {"arrayp", "consp"},
    {"arrayp", "integerp"}, {"arrayp", "numberp"}, {"arrayp", "symbolp"},
    {"atom", "consp"},
    {"byte-code-function-p", "arrayp"}, {"byte-code-function-p", "consp"},
    {"byte-code-function-p", "integerp"}, {"byte-code-function-p", "numberp"},
    {"byte-code-function-p", "stringp"}, {"byte-code-function-p", "symbolp"},
    {"byte-code-function-p", "vectorp"},
    {"consp", "arrayp"}, {"consp", "atom"}, {"consp", "byte-code-function-p"},
    {"consp", "integerp"}, {"consp", "numberp"}, {"consp", "recordp"},
    {"consp", "stringp"}, {"consp", "symbolp"}, {"consp", "vectorp"},
    {"integerp", "arrayp"}, {"integerp", "byte-code-function-p"},
    {"integerp", "consp"}, {"integerp", "recordp"}, {"integerp", "stringp"},
    {"integerp", "symbolp"}, {"integerp", "vectorp"},
    {"numberp", "arrayp"}, {"numberp", "byte-code-function-p"},
    {"numberp", "consp"}, {"numberp", "recordp"}, {"numberp", "stringp"},
    {"numberp", "symbolp"}, {"numberp", "vectorp"},
    {"recordp", "consp"}, {"recordp", "integerp"}, {"recordp", "numberp"},
    {"recordp", "stringp"}, {"recordp", "symbolp"}, {"recordp", "vectorp"},
    {"stringp", "byte-code-function-p"}, {"stringp", "consp"},
    {"stringp", "integerp"}, {"stringp", "numberp"}, {"stringp", "recordp"},
    {"stringp", "symbolp"}, {"stringp", "vectorp"},
    {"symbolp", "arrayp"}, {"symbolp", "byte-code-function-p"},
    {"symbolp", "consp"}, {"symbolp", "integerp"}, {"symbolp", "numberp"},
    {"symbolp", "recordp"}, {"symbolp", "stringp"}, {"symbolp", "vectorp"},
    {"vectorp", "byte-code-function-p"}, {"vectorp", "consp"},
    {"vectorp", "integerp"}, {"vectorp", "numberp"}, {"vectorp", "recordp"},
    {"vectorp", "stringp"}, {"vectorp", "symbolp"},
};

/* strcmp's order, settled by the first bytes when they differ (in most
 * steps of the search: the table's names start with 8 letters). */
static int name_cmp(const char *a, const char *b)
{
    if (a[0] != b[0])
        return (unsigned char)a[0] < (unsigned char)b[0] ? -1 : 1;
    return strcmp(a, b);
}

static int pair_cmp(const char *a, const char *b, const char *const e[2])
{
    int c = name_cmp(a, e[0]);
    return c ? c : name_cmp(b, e[1]);
}

bool know_exclusive(const struct value *f1, const struct value *f2)
{
    if (!f1 || !f2 || f1->kind != VK_SYMBOL || f2->kind != VK_SYMBOL ||
        !f1->u.sym.interned || !f2->u.sym.interned)
        return false;
    size_t lo = 0, hi = sizeof exclusive / sizeof exclusive[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = pair_cmp(f1->u.sym.name, f2->u.sym.name, exclusive[mid]);
        if (c == 0)
            return true;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}

static bool has_pair(const char *a, const char *b)
{
    for (size_t i = 0; i < sizeof exclusive / sizeof exclusive[0]; i++)
        if (!strcmp(exclusive[i][0], a) && !strcmp(exclusive[i][1], b))
            return true;
    return false;
}

long know_check_table(void)
{
    size_t n = sizeof exclusive / sizeof exclusive[0];
    for (size_t i = 0; i < n; i++) {
        if (i && pair_cmp(exclusive[i - 1][0], exclusive[i - 1][1], exclusive[i]) >= 0)
            return (long)i;
        if (!has_pair(exclusive[i][1], exclusive[i][0]))
            return (long)i;
    }
    return -1;
}

static const struct mt_split unknown = {MT_UNKNOWN, MT_UNKNOWN};

struct mt_split know_after_quote(const struct pat *upat, const struct pat *pat)
{
    if (pat->kind != PAT_QUOTE)
        return unknown;
    if (pat->val == upat->val)
        return (struct mt_split){MT_KNOWN_SUCCEED, MT_KNOWN_FAIL};
    return (struct mt_split){MT_KNOWN_FAIL, MT_UNKNOWN};
}

/* ---- pred rules ------------------------------------------------------- */

static enum mt_know flip(enum mt_know k)
{
    return k == MT_KNOWN_SUCCEED ? MT_KNOWN_FAIL
         : k == MT_KNOWN_FAIL ? MT_KNOWN_SUCCEED : MT_UNKNOWN;
}

/* F when fun is (not F), else NULL. */
static struct value *not_arg(struct memo_ctx *m, const struct value *fun)
{
    if (fun->kind != VK_CONS || value_car(fun) != pat_sym_not(m))
        return NULL;
    struct value *rest = value_cdr(fun);
    return rest->kind == VK_CONS ? value_car(rest) : m->L->nil;
}

/* May a second copy of test upat be answered from the first?  Not when
 * its code mentions a variable in scope: the two copies may see different
 * bindings of that name (Emacs bug#14773). */
static bool mergeable(struct memo_ctx *m, const struct pat *upat,
                      struct memo_list *vars)
{
    if (upat->kind == PAT_MEMBER)
        return true; /* a pure test: repeating it is unobservable */
    const struct value *code = upat->val->v;
    if (upat->kind == PAT_PRED && code->kind == VK_SYMBOL)
        return true;
    size_t n = vars ? vars->len : 0, i = 0;
    struct value **names = ARENA_NEWN(m->a, struct value *, n + 1);
    for (const struct memo_list *l = vars; l; l = l->cdr)
        names[i++] = ((const struct vbind *)l->car)->name->v;
    return pat_mentions(m, code, names, n, NULL) == 0;
}

/* The predicate a leaf pattern amounts to, for the exclusion table: its
 * FUN, or for a constant the type test Emacs 28.2 maps it to. */
static const struct value *other_pred(struct memo_ctx *m, const struct pat *pat)
{
    if (pat->kind == PAT_PRED)
        return pat->val->v;
    if (pat->kind != PAT_QUOTE)
        return NULL;
    switch (pat->val->v->kind) {
    case VK_CONS: return INTERN_LIT(m->L, "consp");
    case VK_STRING: return INTERN_LIT(m->L, "stringp");
    case VK_VECTOR: return INTERN_LIT(m->L, "vectorp");
    case VK_BYTECODE: return INTERN_LIT(m->L, "byte-code-function-p");
    default: return NULL;
    }
}

/* `equal' for a constant of a set: symbols (most constants) are equal
 * only when they are the same, values of two kinds or strings of two
 * lengths never. */
static bool same_constant(const struct value *a, const struct value *c)
{
    if (a == c)
        return true;
    if (a->kind != c->kind || a->kind == VK_SYMBOL)
        return false;
    if (a->kind == VK_STRING && a->u.str.len != c->u.str.len)
        return false; /* equal strings have the same bytes */
    return a->kind == VK_INT ? a->u.i == c->u.i : value_equal(a, c);
}

static bool in_set(const struct value *c, const struct value *set)
{
    for (; set->kind == VK_CONS; set = value_cdr(set))
        if (same_constant(value_car(set), c))
            return true;
    return false;
}

static struct mt_split rules(struct memo_ctx *m, const struct pat *upat,
                             const struct pat *pat, struct memo_list *vars)
{
    if (upat == pat && mergeable(m, upat, vars))
        return (struct mt_split){MT_KNOWN_SUCCEED, MT_KNOWN_FAIL};
    struct value *f;
    if (pat->kind == PAT_PRED && (f = not_arg(m, pat->val->v))) {
        struct mt_split r = know_after_pred(m, upat, pat_pred(m, f), vars);
        return (struct mt_split){flip(r.then_k), flip(r.else_k)};
    }
    if (upat->kind == PAT_GUARD)
        return unknown;
    if (upat->kind == PAT_PRED && (f = not_arg(m, upat->val->v))) {
        struct mt_split r = know_after_pred(m, pat_pred(m, f), pat, vars);
        return (struct mt_split){r.else_k, r.then_k};
    }
    if (upat->kind == PAT_PRED && know_exclusive(upat->val->v, other_pred(m, pat)))
        return (struct mt_split){MT_KNOWN_FAIL, MT_UNKNOWN};
    if (upat->kind == PAT_MEMBER && pat->kind == PAT_QUOTE) {
        if (in_set(pat->val->v, upat->val->v))
            return (struct mt_split){MT_UNKNOWN, MT_KNOWN_FAIL};
        return (struct mt_split){MT_KNOWN_FAIL, MT_UNKNOWN};
    }
    return unknown;
}

struct mt_split know_after_pred(struct memo_ctx *m, const struct pat *upat,
                                const struct pat *pat, struct memo_list *vars)
{
    if (!memo_enter(m))
        return unknown;
    struct mt_split r = rules(m, upat, pat, vars);
    memo_leave(m);
    return r;
}
