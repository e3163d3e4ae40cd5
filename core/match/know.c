/* know.c - knowledge rules of the decision-tree builder (see know.h).
 *
 * Order: the predicate sets and know_exclusive, know_after_quote, the
 * pred rules (merge, `not` on either side, exclusion, membership) and
 * know_after_pred.
 */
#include "match/know.h"

#include <stdlib.h>
#include <string.h>

/* Emacs 30.1 computes exclusivity from its built-in type hierarchy
 * (pcase.md 3.5, Appendix A): each built-in type without a subtype that
 * has a predicate is a leaf, a predicate stands for the set of leaves it
 * can be true on, and two predicates are exclusive when both have a set
 * and the sets do not meet.  Plain symbols other than nil have no leaf. */
enum leaf {
    LF_FIXNUM, LF_BIGNUM, LF_FLOAT, LF_MARKER, LF_NULL, LF_SYMPOS, LF_CONS,
    LF_STRING, LF_VECTOR, LF_BOOLVEC, LF_CHARTAB, LF_RECORD, LF_PRIMFN,
    LF_BYTECODE, LF_NATIVEFN, LF_INTERPFN, LF_MODULEFN, LF_SPECIAL, LF_MUTEX,
    LF_FRAME, LF_HASH, LF_WINCONF, LF_USERPTR, LF_OVERLAY, LF_PROCESS,
    LF_OBARRAY, LF_BUFFER, LF_THREAD, LF_WINDOW, LF_COUNT
};

#define B(x) (UINT32_C(1) << LF_##x)
#define ALL ((UINT32_C(1) << LF_COUNT) - 1)
#define INTEGER (B(FIXNUM) | B(BIGNUM))
#define SYMBOL (B(NULL) | B(SYMPOS))
#define COMPILED (B(PRIMFN) | B(BYTECODE) | B(NATIVEFN))
#define FUNCTION (COMPILED | B(INTERPFN) | B(MODULEFN))

/* Emacs 30.1's pcase--subtype-bitsets, sorted by name for binary search
 * (testdata/conformance/pcase/exclusive.txt holds Emacs's own table; the
 * conformance suite compares the two).  One change (pcase.md 9): Emacs
 * gives special-form-p the set {special-form} only, but the predicate is
 * also true on the symbols naming special forms, so Emacs takes it to
 * exclude symbolp and fboundp (E#52); it is exclusive with neither here. */
static const struct {
    const char *name;
    uint32_t leaves;
} pred_sets[] = {
    {"arrayp", B(STRING) | B(VECTOR) | B(BOOLVEC) | B(CHARTAB)},
    {"atom", ALL & ~B(CONS)},
    {"bignump", B(BIGNUM)},
    {"bool-vector-p", B(BOOLVEC)},
    {"booleanp", B(NULL)},
    {"bufferp", B(BUFFER)},
    {"byte-code-function-p", B(BYTECODE)},
    {"char-table-p", B(CHARTAB)},
    {"characterp", B(FIXNUM)},
    {"cl-functionp", FUNCTION},
    {"cl-struct-p", B(RECORD)},
    {"closurep", B(BYTECODE) | B(INTERPFN)},
    {"compiled-function-p", COMPILED},
    {"consp", B(CONS)},
    {"facep", SYMBOL | B(STRING)},
    {"fboundp", SYMBOL},
    {"fixnump", B(FIXNUM)},
    {"floatp", B(FLOAT)},
    {"framep", B(FRAME)},
    {"functionp", FUNCTION | SYMBOL | B(CONS)},
    {"hash-table-p", B(HASH)},
    {"integer-or-marker-p", INTEGER | B(MARKER)},
    {"integerp", INTEGER},
    {"interpreted-function-p", B(INTERPFN)},
    {"keywordp", SYMBOL},
    {"listp", B(NULL) | B(CONS)},
    {"markerp", B(MARKER)},
    {"module-function-p", B(MODULEFN)},
    {"mutexp", B(MUTEX)},
    {"native-comp-function-p", B(NATIVEFN)},
    {"natnump", INTEGER},
    {"null", B(NULL)},
    {"number-or-marker-p", INTEGER | B(FLOAT) | B(MARKER)},
    {"numberp", INTEGER | B(FLOAT)},
    {"obarrayp", B(OBARRAY)},
    {"overlayp", B(OVERLAY)},
    {"plistp", B(NULL) | B(CONS)},
    {"primitive-function-p", B(PRIMFN)},
    {"processp", B(PROCESS)},
    {"recordp", B(RECORD)},
    {"sequencep", B(NULL) | B(CONS) | B(STRING) | B(VECTOR) | B(BOOLVEC) | B(CHARTAB)},
    {"special-form-p", B(SPECIAL)},
    {"stringp", B(STRING)},
    {"subrp", B(PRIMFN) | B(NATIVEFN) | B(SPECIAL)},
    {"symbol-with-pos-p", B(SYMPOS)},
    {"symbolp", SYMBOL},
    {"threadp", B(THREAD)},
    {"user-ptrp", B(USERPTR)},
    {"vectorp", B(VECTOR)},
    {"window-configuration-p", B(WINCONF)},
    {"windowp", B(WINDOW)},
};

#define N_PREDS (sizeof pred_sets / sizeof pred_sets[0])

/* The predicates true on some symbol naming a special form, with which
 * special-form-p is not exclusive (see above). */
static const char *const true_on_special_symbols[] = {"fboundp", "symbolp"};

static int name_cmp(const void *key, const void *row)
{
    return strcmp(key, *(const char *const *)row);
}

/* Row of the predicate named name in pred_sets, or -1. */
static long pred_row(const char *name)
{
    const void *row = bsearch(name, pred_sets, N_PREDS, sizeof *pred_sets, name_cmp);
    return row ? (long)((const char *)row - (const char *)pred_sets) / (long)sizeof *pred_sets
               : -1;
}

static bool names_special_symbols(const char *a, const char *b)
{
    if (strcmp(a, "special-form-p") != 0)
        return false;
    for (size_t i = 0; i < sizeof true_on_special_symbols / sizeof *true_on_special_symbols; i++)
        if (!strcmp(b, true_on_special_symbols[i]))
            return true;
    return false;
}

bool know_exclusive_names(const char *a, const char *b)
{
    long ra = pred_row(a), rb = pred_row(b);
    if (ra < 0 || rb < 0 || names_special_symbols(a, b) || names_special_symbols(b, a))
        return false;
    return (pred_sets[ra].leaves & pred_sets[rb].leaves) == 0;
}

bool know_exclusive(const struct value *f1, const struct value *f2)
{
    if (!f1 || !f2 || f1->kind != VK_SYMBOL || f2->kind != VK_SYMBOL ||
        !f1->u.sym.interned || !f2->u.sym.interned)
        return false;
    return know_exclusive_names(f1->u.sym.name, f2->u.sym.name);
}

long know_check_table(void)
{
    for (size_t i = 1; i < N_PREDS; i++)
        if (strcmp(pred_sets[i - 1].name, pred_sets[i].name) >= 0)
            return (long)i;
    return -1;
}

const char *know_pred_name(size_t i)
{
    return i < N_PREDS ? pred_sets[i].name : NULL;
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
    if (upat->kind == PAT_PRED && pat->kind == PAT_PRED &&
        know_exclusive(upat->val->v, pat->val->v))
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
