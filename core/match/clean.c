/* clean.c - marks, heads, helpers and the driver of the clean-up passes
 * (see clean.h and clean_int.h).
 *
 * Order: the set of marks, the table of heads, list helpers, effects,
 * the copy of the generated code, the table of passes, clean_form.
 */
#include "match/clean_int.h"

#include <string.h>

/* ---- marks ------------------------------------------------------------ */

struct clean_marks *clean_marks_new(struct arena *a)
{
    struct clean_marks *s = ARENA_NEW(a, struct clean_marks);
    s->a = a;
    return s;
}

static void grow(struct clean_marks *s)
{
    const struct value **key = s->key;
    int32_t *val = s->val;
    size_t cap = s->cap;
    s->cap = cap ? 2 * cap : 16; /* most maps are of one small form */
    s->key = arena_zalloc(s->a, s->cap * sizeof *s->key);
    s->val = arena_zalloc(s->a, s->cap * sizeof *s->val);
    for (size_t i = 0; i < cap; i++)
        if (key[i]) {
            size_t j = clean_map_slot(s, key[i]);
            s->key[j] = key[i];
            s->val[j] = val[i];
        }
}

void clean_map_put(struct clean_marks *s, const struct value *v, int32_t k)
{
    if ((s->n + 1) * 2 > s->cap)
        grow(s);
    size_t j = clean_map_slot(s, v);
    if (!s->key[j]) {
        s->key[j] = v;
        s->n++;
    }
    s->val[j] = k;
}

void clean_mark(struct clean_marks *s, const struct value *v, enum clean_mark k)
{
    if (v->kind == VK_CONS)
        clean_map_put(s, v, (int32_t)k);
}

enum clean_mark clean_mark_of(const struct clean_marks *s, const struct value *v)
{
    return v->kind == VK_CONS ? (enum clean_mark)clean_map_get(s, v) : CLEAN_GENERATED;
}

void clean_set_add(struct clean_marks *s, const struct value *v)
{
    clean_map_put(s, v, 1);
}

bool clean_set_has(const struct clean_marks *s, const struct value *v)
{
    return clean_map_get(s, v) != 0;
}

/* ---- heads ------------------------------------------------------------ */

/* Sorted by name (strcmp).  The functions are Emacs's built-ins.
 * CK_PURE ones are those the byte compiler compiles to an instruction of
 * their own (or away: ignore), and pcase's own equality tests: no call is
 * made, so no advice and no test harness sees how often they run.  Any
 * other function, even without effects (markerp, vectorp), is called,
 * and may be written in a pattern's pred: its calls count, as those of a
 * function that may signal (CK_PARTIAL). */
const struct clean_head clean_heads[] = {
    {"1+", CK_PARTIAL},
    {"1-", CK_PARTIAL},
    {"<", CK_PARTIAL},
    {"<=", CK_PARTIAL},
    {"=", CK_PARTIAL},
    {">", CK_PARTIAL},
    {">=", CK_PARTIAL},
    {"and", CK_AND},
    {"aref", CK_PARTIAL},
    {"arrayp", CK_PARTIAL},
    {"atom", CK_PARTIAL},
    {"bignump", CK_PARTIAL},
    {"bool-vector-p", CK_PARTIAL},
    {"booleanp", CK_PARTIAL},
    {"bufferp", CK_PARTIAL},
    {"byte-code-function-p", CK_PARTIAL},
    {"caar", CK_PARTIAL},
    {"cadr", CK_PARTIAL},
    {"car", CK_PARTIAL},
    {"car-safe", CK_PURE},
    {"catch", CK_FORM},
    {"cdar", CK_PARTIAL},
    {"cddr", CK_PARTIAL},
    {"cdr", CK_PARTIAL},
    {"cdr-safe", CK_PURE},
    {"char-or-string-p", CK_PARTIAL},
    {"char-table-p", CK_PARTIAL},
    {"characterp", CK_PARTIAL},
    {"compiled-function-p", CK_PARTIAL},
    {"cond", CK_COND},
    {"condition-case", CK_FORM},
    {"cons", CK_PURE},
    {"consp", CK_PURE},
    {"dolist", CK_DOLIST},
    {"elt", CK_PARTIAL},
    {"eq", CK_PURE},
    {"eql", CK_PURE},
    {"equal", CK_MEMBER},
    {"error", CK_PARTIAL},
    {"fixnump", CK_PARTIAL},
    {"floatp", CK_PARTIAL},
    {"funcall", CK_FUNCALL},
    {"function", CK_FUNCTION},
    {"functionp", CK_PARTIAL},
    {"hash-table-p", CK_PARTIAL},
    {"identity", CK_PARTIAL},
    {"if", CK_IF},
    {"ignore", CK_PURE},
    {"integer-or-marker-p", CK_PARTIAL},
    {"integerp", CK_PURE},
    {"keywordp", CK_PARTIAL},
    {"lambda", CK_LAMBDA},
    {"length", CK_PARTIAL},
    {"let", CK_LET},
    {"let*", CK_LET_STAR},
    {"list", CK_PURE},
    {"listp", CK_PURE},
    {"markerp", CK_PARTIAL},
    {"member", CK_MEMBER},
    {"memq", CK_MEMBER},
    {"memql", CK_MEMBER},
    {"natnump", CK_PARTIAL},
    {"nlistp", CK_PARTIAL},
    {"not", CK_PURE},
    {"nth", CK_PARTIAL},
    {"nthcdr", CK_PARTIAL},
    {"null", CK_PURE},
    {"number-or-marker-p", CK_PARTIAL},
    {"numberp", CK_PURE},
    {"or", CK_AND},
    {"prog1", CK_PROGN},
    {"progn", CK_PROGN},
    {"quote", CK_QUOTE},
    {"recordp", CK_PARTIAL},
    {"sequencep", CK_PARTIAL},
    {"setq", CK_SETQ},
    {"signal", CK_PARTIAL},
    {"stringp", CK_PURE},
    {"subrp", CK_PARTIAL},
    {"symbol-name", CK_PARTIAL},
    {"symbolp", CK_PURE},
    {"type-of", CK_PARTIAL},
    {"unless", CK_FORM},
    {"unwind-protect", CK_FORM},
    {"vector", CK_PARTIAL},
    {"vectorp", CK_PARTIAL},
    {"when", CK_FORM},
    {"while", CK_FORM},
};

#define N_HEADS (sizeof clean_heads / sizeof clean_heads[0])

int clean_row(const void *rows, size_t n, size_t size, const char *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int k = strcmp(*(const char *const *)((const char *)rows + mid * size), name);
        if (!k)
            return (int)mid;
        if (k < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

long clean_rows_sorted(const void *rows, size_t n, size_t size)
{
    for (size_t i = 1; i < n; i++)
        if (strcmp(*(const char *const *)((const char *)rows + (i - 1) * size),
                   *(const char *const *)((const char *)rows + i * size)) >= 0)
            return (long)i;
    return -1;
}

static int head_row(const char *name)
{
    return clean_row(clean_heads, N_HEADS, sizeof clean_heads[0], name);
}

enum clean_kind clean_head_kind_first(const struct value *head)
{
    int row = value_sym_row(head, VALUE_ROW_CLEAN, head_row);
    return row < 0 ? CK_CALL : clean_heads[row].kind;
}

bool clean_pure_function(const struct value *fun)
{
    return clean_head_kind(fun) == CK_PURE;
}

/* Index of the first row of clean_heads[] not sorted after its predecessor, or
 * -1 (the unit tests check it). */
long clean_check_heads(void);
long clean_check_heads(void)
{
    return clean_rows_sorted(clean_heads, N_HEADS, sizeof clean_heads[0]);
}

/* ---- list helpers ----------------------------------------------------- */

bool clean_variable(const struct clean *c, const struct value *v)
{
    return v->kind == VK_SYMBOL && v != c->L->nil && v != c->L->t &&
           !(v->u.sym.interned && v->u.sym.name[0] == ':');
}

struct value *clean_cons(struct clean *c, struct value *a, struct value *d)
{
    return value_cons(c->L->a, a, d);
}

struct value *clean_list2(struct clean *c, struct value *a, struct value *b)
{
    return clean_cons(c, a, clean_cons(c, b, c->L->nil));
}

struct value *clean_list3(struct clean *c, struct value *a, struct value *b,
                          struct value *d)
{
    return clean_cons(c, a, clean_list2(c, b, d));
}

struct value *clean_progn(struct clean *c, struct value *forms)
{
    if (forms->kind != VK_CONS)
        return c->L->nil;
    if (clean_cdr(forms) == c->L->nil)
        return clean_car(forms);
    return clean_cons(c, c->sym[CS_PROGN], forms);
}

bool clean_binding(const struct clean *c, const struct value *b, struct value **var,
                   struct value **val)
{
    *val = c->L->nil;
    if (b->kind == VK_SYMBOL) {
        *var = (struct value *)b;
        return true;
    }
    if (b->kind != VK_CONS || clean_car(b)->kind != VK_SYMBOL)
        return false;
    *var = clean_car(b);
    struct value *r = clean_cdr(b);
    if (r == c->L->nil)
        return true;
    if (r->kind != VK_CONS || clean_cdr(r) != c->L->nil)
        return false;
    *val = clean_car(r);
    return true;
}

/* Lists a walk of clean_mentions follows at most: more means a constant
 * that contains itself, as '#1=(a . #1#) (the walker refuses such
 * code, but quoted data may be anything), and the answer is yes. */
#define MENTIONS_BUDGET ((size_t)1 << 22)

/* Does form hold a symbol that is s, or (s NULL) one of set?  Quoted data
 * is looked into too (a quoted name may stand for a variable, as in
 * (symbol-value 'x)); past MENTIONS_BUDGET conses, the answer is yes, the
 * answer that changes nothing. */
static bool holds(struct clean *c, const struct value *form, const struct value *s,
                  const struct clean_marks *set)
{
#define HIT(x) ((x) == s || (set && (x)->kind == VK_SYMBOL && clean_set_has(set, (x))))
    /* cars on an explicit stack, cdrs followed in place: no recursion */
    size_t top = 0, budget = MENTIONS_BUDGET;
    if (!c->cap_stack) {
        c->cap_stack = 64;
        c->stack = ARENA_NEWN(c->L->a, const struct value *, c->cap_stack);
    }
    c->stack[top++] = form;
    while (top) {
        const struct value *v = c->stack[--top];
        for (; v->kind == VK_CONS; v = clean_cdr(v)) {
            if (!budget--)
                return true;
            const struct value *a = clean_car(v);
            if (HIT(a))
                return true;
            if (a->kind != VK_CONS)
                continue;
            if (top == c->cap_stack) {
                size_t cap = 2 * c->cap_stack;
                c->stack = arena_grow(c->L->a, c->stack, top * sizeof *c->stack,
                                      cap * sizeof *c->stack);
                c->cap_stack = cap;
            }
            c->stack[top++] = a;
        }
        if (HIT(v))
            return true;
    }
    return false;
#undef HIT
}

bool clean_mentions(struct clean *c, const struct value *form, const struct value *s)
{
    return holds(c, form, s, NULL);
}

bool clean_mentions_any(struct clean *c, const struct value *form,
                        const struct clean_marks *set)
{
    return holds(c, form, NULL, set);
}

/* ---- the visitor ------------------------------------------------------ */

static void visit_list(struct clean *c, struct value *l, clean_fn *fn, unsigned depth)
{
    for (; l->kind == VK_CONS; l = clean_cdr(l))
        if (clean_car(l)->kind == VK_CONS) /* an atom has nothing to visit */
            clean_visit(c, &l->u.cons.car, fn, depth);
}

void clean_visit(struct clean *c, struct value **slot, clean_fn *fn, unsigned depth)
{
    struct value *v = *slot;
    if (v->kind != VK_CONS || depth > CLEAN_MAX_DEPTH)
        return;
    struct value *args = clean_cdr(v);
    switch (clean_kind(c, v)) {
    case CK_USER:
    case CK_QUOTE:
    case CK_CALL:
    case CK_FORM:
        return;
    case CK_FUNCTION:
        if (args->kind == VK_CONS && clean_car(args)->kind == VK_CONS &&
            clean_car(clean_car(args)) == c->L->lambda &&
            clean_mark_of(c->marks, clean_car(args)) != CLEAN_USER &&
            clean_cdr(clean_car(args))->kind == VK_CONS)
            visit_list(c, clean_cdr(clean_cdr(clean_car(args))), fn, depth + 1);
        break;
    case CK_LAMBDA:
        if (args->kind == VK_CONS)
            visit_list(c, clean_cdr(args), fn, depth + 1);
        break;
    case CK_LET:
    case CK_LET_STAR:
        if (args->kind != VK_CONS)
            break;
        for (struct value *b = clean_car(args); b->kind == VK_CONS; b = clean_cdr(b)) {
            struct value *x = clean_car(b);
            if (x->kind == VK_CONS && clean_cdr(x)->kind == VK_CONS)
                clean_visit(c, &clean_cdr(x)->u.cons.car, fn, depth + 1);
        }
        visit_list(c, clean_cdr(args), fn, depth + 1);
        break;
    case CK_COND:
        for (; args->kind == VK_CONS; args = clean_cdr(args))
            visit_list(c, clean_car(args), fn, depth + 1);
        break;
    case CK_DOLIST:
        if (args->kind != VK_CONS)
            break;
        if (clean_car(args)->kind == VK_CONS)
            visit_list(c, clean_cdr(clean_car(args)), fn, depth + 1);
        visit_list(c, clean_cdr(args), fn, depth + 1);
        break;
    case CK_SETQ:
        for (; args->kind == VK_CONS && clean_cdr(args)->kind == VK_CONS;
             args = clean_cdr(clean_cdr(args)))
            clean_visit(c, &clean_cdr(args)->u.cons.car, fn, depth + 1);
        break;
    default:
        visit_list(c, args, fn, depth + 1);
        break;
    }
    fn(c, slot);
}

/* ---- effects ---------------------------------------------------------- */

static enum clean_effect max_effect(enum clean_effect a, enum clean_effect b)
{
    return a > b ? a : b;
}

static enum clean_effect effect_at(const struct clean *c, const struct value *form,
                                   unsigned depth);

/* The effect of evaluating each form of the list l. */
static enum clean_effect effect_of_list(const struct clean *c, const struct value *l,
                                        unsigned depth)
{
    enum clean_effect e = CE_NONE;
    for (; l->kind == VK_CONS && e < CE_ANY; l = clean_cdr(l))
        e = max_effect(e, effect_at(c, clean_car(l), depth));
    return e;
}

/* A quoted constant, or an atom that evaluates to itself. */
static bool constant(const struct clean *c, const struct value *v)
{
    if (v->kind == VK_CONS)
        return clean_car(v) == c->L->quote;
    return v->kind != VK_SYMBOL || !clean_variable(c, v);
}

/* memq, memql and member on a quoted proper list, equal with a constant
 * argument: they end, so they never signal. */
static bool member_ends(const struct clean *c, const struct value *form)
{
    const struct value *a = clean_cdr(form);
    if (a->kind != VK_CONS || clean_cdr(a)->kind != VK_CONS)
        return false;
    const struct value *x = clean_car(a), *l = clean_car(clean_cdr(a));
    if (clean_car(form) == c->sym[CS_EQUAL])
        return constant(c, x) || constant(c, l);
    if (l->kind != VK_CONS || clean_car(l) != c->L->quote || clean_cdr(l)->kind != VK_CONS)
        return false;
    return value_list_length(clean_car(clean_cdr(l)), c->L->nil) >= 0;
}

/* Is v a variable that is no temporary and not known to be bound (its
 * value may be void: reading it signals)? */
static bool maybe_void(const struct clean *c, const struct value *v)
{
    return clean_variable(c, v) && !clean_temp(v) && !c->all_bound;
}

static enum clean_effect effect_at(const struct clean *c, const struct value *form,
                                   unsigned depth)
{
    if (form->kind != VK_CONS)
        return form->kind == VK_SYMBOL && maybe_void(c, form) ? CE_SIGNAL : CE_NONE;
    if (depth > CLEAN_MAX_DEPTH)
        return CE_ANY;
    const struct value *args = clean_cdr(form);
    switch (clean_kind(c, form)) {
    case CK_QUOTE:
    case CK_FUNCTION:
    case CK_LAMBDA:
        return CE_NONE;
    case CK_PURE:
        return effect_of_list(c, args, depth + 1);
    case CK_MEMBER:
        return max_effect(member_ends(c, form) ? CE_NONE : CE_SIGNAL,
                          effect_of_list(c, args, depth + 1));
    case CK_PARTIAL:
        return max_effect(CE_SIGNAL, effect_of_list(c, args, depth + 1));
    case CK_IF:
    case CK_AND:
    case CK_PROGN:
        return effect_of_list(c, args, depth + 1);
    case CK_COND: {
        enum clean_effect e = CE_NONE;
        for (; args->kind == VK_CONS && e < CE_ANY; args = clean_cdr(args))
            e = max_effect(e, effect_of_list(c, clean_car(args), depth + 1));
        return e;
    }
    case CK_LET:
    case CK_LET_STAR: {
        if (args->kind != VK_CONS)
            return CE_ANY;
        enum clean_effect e = effect_of_list(c, clean_cdr(args), depth + 1);
        for (const struct value *b = clean_car(args); b->kind == VK_CONS && e < CE_ANY;
             b = clean_cdr(b)) {
            struct value *var, *val;
            if (!clean_binding(c, clean_car(b), &var, &val))
                return CE_ANY;
            e = max_effect(e, effect_at(c, val, depth + 1));
        }
        return e;
    }
    default:
        return CE_ANY;
    }
}

enum clean_effect clean_effect(const struct clean *c, const struct value *form)
{
    return effect_at(c, form, 0);
}

enum clean_effect clean_call_effect(const struct clean *c, const struct value *form)
{
    switch (clean_kind(c, form)) {
    case CK_QUOTE:
    case CK_FUNCTION:
    case CK_LAMBDA:
    case CK_PURE:
        return CE_NONE;
    case CK_MEMBER:
        return member_ends(c, form) ? CE_NONE : CE_SIGNAL;
    case CK_PARTIAL:
        return CE_SIGNAL;
    default:
        return CE_ANY;
    }
}

/* Does evaluating form read v before it does anything else that could
 * be seen: before another variable that may be void, a call that may
 * signal, unknown code?  *stop is set when something else comes first. */
static bool reads_first(const struct clean *c, const struct value *form,
                        const struct value *v, bool *stop, unsigned depth)
{
    if (form == v)
        return true;
    if (form->kind == VK_SYMBOL) {
        *stop = maybe_void(c, form);
        return false;
    }
    if (form->kind != VK_CONS || clean_car(form) == c->L->quote)
        return false;
    if (depth > 64) {
        *stop = true;
        return false;
    }
    const struct value *args = clean_cdr(form);
    enum clean_kind k = clean_head_kind(clean_car(form));
    switch (k) {
    case CK_PURE:
    case CK_MEMBER:
    case CK_PARTIAL:
    case CK_PROGN:
        for (; args->kind == VK_CONS && !*stop; args = clean_cdr(args))
            if (reads_first(c, clean_car(args), v, stop, depth + 1))
                return true;
        if (clean_call_effect(c, form) != CE_NONE || k == CK_PROGN)
            *stop = true;
        return false;
    case CK_IF:
    case CK_AND:
        if (args->kind != VK_CONS)
            return false;
        if (reads_first(c, clean_car(args), v, stop, depth + 1))
            return true;
        *stop = true; /* what comes next depends on a test */
        return false;
    case CK_LET:
    case CK_LET_STAR:
        if (args->kind != VK_CONS)
            return false;
        for (const struct value *b = clean_car(args); b->kind == VK_CONS && !*stop;
             b = clean_cdr(b)) {
            struct value *var, *val;
            if (!clean_binding(c, clean_car(b), &var, &val) || var == v) {
                *stop = true;
                return false;
            }
            if (reads_first(c, val, v, stop, depth + 1))
                return true;
        }
        *stop = true;
        return false;
    default:
        *stop = true;
        return false;
    }
}

bool clean_reads_first(const struct clean *c, const struct value *forms,
                       const struct value *v)
{
    bool stop = false;
    for (; forms->kind == VK_CONS && !stop; forms = clean_cdr(forms))
        if (reads_first(c, clean_car(forms), v, &stop, 0))
            return true;
    return false;
}

enum clean_effect clean_effect_bound(struct clean *c, const struct value *form)
{
    c->all_bound = true;
    enum clean_effect e = effect_at(c, form, 0);
    c->all_bound = false;
    return e;
}

/* What clean_same compares: two forms, two statements of bodies (a
 * variable there is a body the user wrote), or two cond clauses. */
enum same_kind { SAME_FORM, SAME_STATEMENT, SAME_CLAUSE };

struct same_pair {
    const struct value *a, *b;
    enum same_kind k;
};

/* Are atoms a and b the same?  A variable the user wrote as a statement
 * (`form', as two clauses may both have) tells nothing of which clause
 * it comes from: never the same; nor numbers or strings of two bodies
 * (the copies of one body are one object). */
static bool same_atom(const struct clean *c, const struct value *a, const struct value *b,
                      bool statement)
{
    if (a->kind != VK_SYMBOL || b->kind != VK_SYMBOL)
        return a == b || (!statement && value_equal(a, b));
    return a == b && (!statement || clean_temp(a) || a == c->L->nil || a == c->L->t ||
                      (a->u.sym.len > 0 && a->u.sym.name[0] == ':'));
}

/* Push the elements of generated lists a and b pairwise, those from
 * index `from` on as statements (every one as kind k when k is
 * SAME_CLAUSE); false when their lengths or tails differ. */
static bool push_pairs(const struct clean *c, struct same_pair **st, size_t *n, size_t *cap,
                       const struct value *a, const struct value *b, size_t from,
                       enum same_kind k)
{
    for (size_t i = 0; a->kind == VK_CONS && b->kind == VK_CONS;
         i++, a = clean_cdr(a), b = clean_cdr(b)) {
        if (*n == *cap) {
            *st = arena_grow(c->L->a, *st, *cap * sizeof **st, 2 * *cap * sizeof **st);
            *cap *= 2;
        }
        enum same_kind ki = k == SAME_CLAUSE ? k : i >= from ? SAME_STATEMENT : SAME_FORM;
        (*st)[(*n)++] = (struct same_pair){clean_car(a), clean_car(b), ki};
    }
    return a->kind != VK_CONS && b->kind != VK_CONS && same_atom(c, a, b, false);
}

/* Where the statements of generated list v begin: let and let* after
 * the bindings, if after the test, progn at once (SIZE_MAX: none). */
static size_t body_from(const struct clean *c, const struct value *v)
{
    const struct value *h = clean_car(v);
    if (h == c->sym[CS_LET] || h == c->sym[CS_LET_STAR] || h == c->sym[CS_IF])
        return 2;
    return h == c->sym[CS_PROGN] ? 1 : SIZE_MAX;
}

bool clean_same(struct clean *c, const struct value *a, const struct value *b)
{
    return clean_same_code(c, a, b, false);
}

/* clean_same_code with the stack st (cap pairs, grown as needed). */
static bool same_code(const struct clean *c, struct same_pair **stp, size_t *cap,
                      const struct value *a, const struct value *b, bool statements)
{
    size_t n = 0;
    struct same_pair *st = *stp;
    bool ok = true;
    if (statements)
        ok = push_pairs(c, &st, &n, cap, a, b, 0, SAME_FORM);
    else
        st[n++] = (struct same_pair){a, b, SAME_FORM};
    while (n && ok) {
        struct same_pair p = st[--n];
        if (p.a == p.b && p.a->kind == VK_CONS)
            continue; /* one object: the same code, user code included */
        if (p.a->kind != VK_CONS || p.b->kind != VK_CONS) {
            ok = same_atom(c, p.a, p.b, p.k == SAME_STATEMENT);
            continue;
        }
        if (clean_mark_of(c->marks, p.a) == CLEAN_USER ||
            clean_mark_of(c->marks, p.b) == CLEAN_USER) {
            ok = false;
            continue;
        }
        if (p.k != SAME_CLAUSE && clean_car(p.a) == c->L->quote) {
            ok = value_equal(p.a, p.b);
            continue;
        }
        if (p.k == SAME_CLAUSE)
            ok = push_pairs(c, &st, &n, cap, p.a, p.b, 1, SAME_FORM);
        else if (clean_car(p.a) == c->sym[CS_COND])
            ok = clean_car(p.b) == clean_car(p.a) &&
                 push_pairs(c, &st, &n, cap, clean_cdr(p.a), clean_cdr(p.b), 0, SAME_CLAUSE);
        else
            ok = push_pairs(c, &st, &n, cap, p.a, p.b, body_from(c, p.a), SAME_FORM);
    }
    *stp = st;
    return ok;
}

bool clean_same_code(struct clean *c, const struct value *a, const struct value *b,
                     bool statements)
{
    /* one stack for every comparison of the cleaning: merge compares the
     * bodies of every two clauses next to each other */
    if (!c->same_stack) {
        c->same_cap = 32;
        c->same_stack = ARENA_NEWN(c->L->a, struct same_pair, c->same_cap);
    }
    struct same_pair *st = c->same_stack;
    bool ok = same_code(c, &st, &c->same_cap, a, b, statements);
    c->same_stack = st;
    return ok;
}

/* ---- the copy --------------------------------------------------------- */

/* What the copy notes of the generated lists it meets (c->seen): the kind
 * of each one's head (1 << clean_kind), and these.  Passes only move,
 * drop or copy what was there, or make heads of the kinds that the table
 * of passes lets them make, so a pass that needs none of what was seen
 * finds nothing to do. */
#define SEEN(k) (1u << (k))
#define SEEN_CONSP (1u << 27)  /* consp */
#define SEEN_NOT (1u << 28)    /* not */
#define SEEN_TEMP (1u << 29)   /* a let, let*, lambda or dolist binding a
                                  temporary */
#define SEEN_MEMBER (1u << 30) /* a membership test the emitter marked */
#define SEEN_SAFE (1u << 31)   /* car-safe, cdr-safe, car, cdr (hoist makes
                                  car-safe of car) */

/* Does the list of bindings, parameters or (VAR LIST) l name a
 * temporary? */
static bool binds_temp(const struct value *l)
{
    for (; l->kind == VK_CONS; l = clean_cdr(l)) {
        const struct value *x = clean_car(l);
        if (clean_temp(x->kind == VK_CONS ? clean_car(x) : x))
            return true;
    }
    return false;
}

static uint32_t seen_of(const struct clean *c, const struct value *v, enum clean_mark k)
{
    const struct value *h = clean_car(v);
    enum clean_kind kind = clean_head_kind(h);
    uint32_t s = SEEN(kind);
    if ((kind == CK_LET || kind == CK_LET_STAR || kind == CK_LAMBDA || kind == CK_DOLIST) &&
        clean_cdr(v)->kind == VK_CONS && binds_temp(clean_car(clean_cdr(v))))
        s |= SEEN_TEMP;
    if (k == CLEAN_MEMBER)
        s |= SEEN_MEMBER;
    if (h == c->sym[CS_CAR_SAFE] || h == c->sym[CS_CDR_SAFE] || h == c->sym[CS_CAR] ||
        h == c->sym[CS_CDR])
        s |= SEEN_SAFE;
    if (h == c->sym[CS_NOT])
        s |= SEEN_NOT;
    if (h == c->sym[CS_CONSP])
        s |= SEEN_CONSP;
    if (h == c->L->t)
        s |= SEEN(CK_COND); /* a clause (t ...): merge looks at clauses anywhere */
    return s;
}

/* A copy of the generated code of v (its user code and quoted data
 * shared), or NULL when v is nested more than CLEAN_MAX_DEPTH lists deep.
 * A copied membership test keeps its mark. */
static struct value *copy(struct clean *c, struct value *v, unsigned depth)
{
    if (v->kind != VK_CONS)
        return v;
    enum clean_mark k = clean_mark_of(c->marks, v);
    if (k == CLEAN_USER || clean_car(v) == c->L->quote)
        return v;
    if (depth > CLEAN_MAX_DEPTH)
        return NULL;
    c->seen |= seen_of(c, v, k);
    struct value *head = NULL, **tail = &head;
    for (; v->kind == VK_CONS; v = clean_cdr(v)) {
        struct value *a = copy(c, clean_car(v), depth + 1);
        if (!a)
            return NULL;
        *tail = clean_cons(c, a, c->L->nil);
        if (c->hooks && c->hooks->copied)
            c->hooks->copied(c->hooks->ctx, v, *tail);
        tail = &(*tail)->u.cons.cdr;
    }
    *tail = v;
    if (k != CLEAN_GENERATED)
        clean_mark(c->marks, head, k);
    return head;
}

struct value *clean_copy(struct clean *c, struct value *v)
{
    return copy(c, v, 0);
}

void clean_moved(struct clean *c, const struct value *from, const struct value *to)
{
    if (c->hooks && c->hooks->copied && from != to && from->kind == VK_CONS &&
        to->kind == VK_CONS)
        c->hooks->copied(c->hooks->ctx, from, to);
}

/* ---- the sweep -------------------------------------------------------- */

static void sweep_at(struct clean *c, struct value **slot)
{
    struct value *v = *slot;
    enum clean_kind k = clean_kind(c, v);
    struct value *args = clean_cdr(v);
    if ((k != CK_LET && k != CK_LET_STAR) || args->kind != VK_CONS)
        return;
    struct value **p = &args->u.cons.car;
    while ((*p)->kind == VK_CONS) {
        if (clean_car(*p) == c->dead)
            *p = clean_cdr(*p);
        else
            p = &(*p)->u.cons.cdr;
    }
    if (clean_car(args) == c->L->nil) {
        *slot = clean_progn(c, clean_cdr(args));
        clean_moved(c, v, *slot);
    }
}

void clean_sweep(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, sweep_at, 0);
}

/* ---- the passes ------------------------------------------------------- */

/* needs: what the copy must have seen for the pass to find anything to do:
 * something of each mask that is not 0 (no mask: it always runs).
 *   not: a not (the test of an if);
 *   unused, inline: a temporary bound (they rewrite lets of them);
 *   funcall: a funcall;  lets: a let, a let* or a funcall;
 *   known: a test (if, cond, and, or: where facts come from and what
 *     folds);  safe: a car-safe or cdr-safe, and a test;
 *   memq: a marked membership test;
 *   hoist: a consp test and a temporary bound (a let of car and cdr);
 *   merge, and, split, if: an if or a cond;
 *   consp: a consp test and a test (it rewrites ands of them);
 *   blocks: a temporary bound and an if or a cond (the dispatch binds GO
 *     and RES, then tests GO);
 *   unshare: a temporary bound and a setq (a block's places: GO set).
 * No pass makes a not, a consp, a setq, a funcall or a marked test; a
 * car-safe or cdr-safe but of a car or cdr (hoist); an if or a cond but
 * of an if or a cond; an and or an or but of a test (merge, and); a let
 * but of a funcall, a let (hoist) or in a let* (blocks, unshare: the
 * dispatch); nor binds a temporary but where one was bound (a lambda's
 * parameters, a block's C0... bound by the dispatch). */
#define SEEN_TEST (SEEN(CK_IF) | SEEN(CK_COND) | SEEN(CK_AND))
#define SEEN_CHOICE (SEEN(CK_IF) | SEEN(CK_COND))

/* undo: the pass is undone for a form it makes nest more deeply
 * (UNDO_DEEPER: merge, hoist, and), or not less deeply (UNDO_FLAT:
 * unshare, split, if), see by_depth. */
enum undo { UNDO_NEVER, UNDO_DEEPER, UNDO_FLAT };

static const struct {
    const char *name;
    void (*run)(struct clean *c, struct value **slot);
    uint32_t needs[2];
    enum undo undo;
} passes[CLEAN_PASS_COUNT] = {
    [CLEAN_PASS_IGNORE] = {"ignore", clean_ignore, {0}, UNDO_NEVER},
    [CLEAN_PASS_NOT] = {"not", clean_not, {SEEN_NOT}, UNDO_NEVER},
    [CLEAN_PASS_UNUSED] = {"unused", clean_unused, {SEEN_TEMP}, UNDO_NEVER},
    [CLEAN_PASS_INLINE] = {"inline", clean_inline, {SEEN_TEMP}, UNDO_NEVER},
    [CLEAN_PASS_FUNCALL] = {"funcall", clean_funcall, {SEEN(CK_FUNCALL)}, UNDO_NEVER},
    [CLEAN_PASS_LETS] = {"lets", clean_lets,
                         {SEEN(CK_LET) | SEEN(CK_LET_STAR) | SEEN(CK_FUNCALL)}, UNDO_NEVER},
    [CLEAN_PASS_NIL] = {"nil", clean_nil, {0}, UNDO_NEVER},
    [CLEAN_PASS_KNOWN] = {"known", clean_known, {SEEN_TEST}, UNDO_NEVER},
    [CLEAN_PASS_SAFE] = {"safe", clean_safe, {SEEN_SAFE, SEEN_TEST}, UNDO_NEVER},
    [CLEAN_PASS_MEMQ] = {"memq", clean_memq, {SEEN_MEMBER}, UNDO_NEVER},
    [CLEAN_PASS_HOIST] = {"hoist", clean_hoist, {SEEN_CONSP, SEEN_TEMP}, UNDO_DEEPER},
    [CLEAN_PASS_MERGE] = {"merge", clean_merge, {SEEN_CHOICE}, UNDO_DEEPER},
    [CLEAN_PASS_BLOCKS] = {"blocks", clean_blocks, {SEEN_TEMP, SEEN_CHOICE}, UNDO_NEVER},
    [CLEAN_PASS_UNSHARE] = {"unshare", clean_unshare, {SEEN_TEMP, SEEN(CK_SETQ)}, UNDO_FLAT},
    [CLEAN_PASS_AND] = {"and", clean_and, {SEEN_CHOICE}, UNDO_DEEPER},
    [CLEAN_PASS_CONSP] = {"consp", clean_consp, {SEEN_CONSP, SEEN_TEST}, UNDO_NEVER},
    [CLEAN_PASS_SPLIT] = {"split", clean_split, {SEEN_CHOICE}, UNDO_FLAT},
    [CLEAN_PASS_IF] = {"if", clean_if, {SEEN_CHOICE}, UNDO_FLAT},
};

/* The order the passes run in: folding known tests (safe) leaves
 * temporaries nothing reads and lets to join, so unused and lets run
 * again after it; merge takes out the clauses that would keep hoist
 * from joining two conds ((null V) going where t goes), and hoist leaves
 * a block's gotos fewer, before blocks; a block's code decided into a
 * place (blocks) may end as the clause after it, so merge runs again;
 * the blocks left with few places (unshare) and the ifs joined (and)
 * before inline, which takes out the renamings a block brings to its
 * places and the parts and's lets bind. */
static const enum clean_pass pipeline[] = {
    CLEAN_PASS_IGNORE, CLEAN_PASS_NOT,    CLEAN_PASS_UNUSED, CLEAN_PASS_INLINE,
    CLEAN_PASS_FUNCALL, CLEAN_PASS_LETS,  CLEAN_PASS_NIL,    CLEAN_PASS_KNOWN,
    CLEAN_PASS_MERGE,  CLEAN_PASS_HOIST,  CLEAN_PASS_BLOCKS, CLEAN_PASS_MERGE,  CLEAN_PASS_UNSHARE,
    CLEAN_PASS_AND,    CLEAN_PASS_INLINE, CLEAN_PASS_SAFE,
    CLEAN_PASS_UNUSED, CLEAN_PASS_LETS,   CLEAN_PASS_MEMQ,   CLEAN_PASS_NIL,
    CLEAN_PASS_CONSP,  CLEAN_PASS_INLINE, CLEAN_PASS_SPLIT,  CLEAN_PASS_IF,
};

const char *clean_pass_name(enum clean_pass p)
{
    return (unsigned)p < CLEAN_PASS_COUNT ? passes[p].name : NULL;
}

int clean_pass_find(const char *name, size_t len)
{
    for (int i = 0; i < CLEAN_PASS_COUNT; i++)
        if (strlen(passes[i].name) == len && !memcmp(passes[i].name, name, len))
            return i;
    return -1;
}

static const char *const sym_names[CS_COUNT] = {
    [CS_IF] = "if",
    [CS_COND] = "cond",
    [CS_LET] = "let",
    [CS_LET_STAR] = "let*",
    [CS_PROGN] = "progn",
    [CS_AND] = "and",
    [CS_OR] = "or",
    [CS_FUNCALL] = "funcall",
    [CS_IGNORE] = "ignore",
    [CS_NOT] = "not",
    [CS_NULL] = "null",
    [CS_CAR] = "car",
    [CS_CDR] = "cdr",
    [CS_CAR_SAFE] = "car-safe",
    [CS_CDR_SAFE] = "cdr-safe",
    [CS_CONSP] = "consp",
    [CS_EQ] = "eq",
    [CS_EQL] = "eql",
    [CS_EQUAL] = "equal",
    [CS_MEMQ] = "memq",
    [CS_MEMQL] = "memql",
    [CS_MEMBER] = "member",
    [CS_UNDERSCORE] = "_",
    [CS_SETQ] = "setq",
};

/* How deeply lists nest in form (a quoted list counts one level: quoted
 * data may be circular, and is never changed), iteratively. */
static size_t depth_of(struct clean *c, struct value *form)
{
    /* on the C stack while small: the run's memory keeps what it takes
     * until the end */
    struct value *st0[64];
    size_t at0[64];
    size_t cap = 64, n = 0, max = 0;
    struct value **st = st0;
    size_t *at = at0;
    st[n] = form;
    at[n++] = 1;
    while (n) {
        struct value *v = st[--n];
        size_t d = at[n];
        if (v->kind != VK_CONS)
            continue;
        if (clean_car(v) == c->L->quote) {
            bool list = clean_cdr(v)->kind == VK_CONS && clean_car(clean_cdr(v))->kind == VK_CONS;
            d += list;
            max = d > max ? d : max;
            continue;
        }
        max = d > max ? d : max;
        for (; v->kind == VK_CONS; v = clean_cdr(v)) {
            if (n == cap) {
                struct value **st2 = ARENA_NEWN(c->L->a, struct value *, 2 * cap);
                size_t *at2 = ARENA_NEWN(c->L->a, size_t, 2 * cap);
                memcpy(st2, st, cap * sizeof *st);
                memcpy(at2, at, cap * sizeof *at);
                st = st2;
                at = at2;
                cap *= 2;
            }
            st[n] = clean_car(v);
            at[n++] = d + 1;
        }
    }
    return max;
}

/* Pass p on the form, undone when the form then nests more deeply than
 * before (less: as deeply).  merge and hoist, unless they make the form
 * nest more deeply (a memq's quoted list is one level more than an eq's
 * constant; hoist puts the clauses around the car's one list deeper):
 * a form no deeper than Emacs's expansion of it stays so, and so for
 * and (its first test two lists lower); unshare, split
 * and if only where the form then nests less deeply (unshare writes a
 * block's code again, split a test's constant body, if makes a progn:
 * worth it only for the depth).  The copy that undoes a pass is made, and the
 * form's depth measured, only when the pass is about to change the form
 * (clean_changing): a form it leaves as it was is neither copied nor
 * looked at first.  False when the pass was undone. */
static void find_cond(struct clean *c, struct value **slot)
{
    if (clean_kind(c, *slot) == CK_COND)
        *(bool *)c->state = true;
}

/* What merge looks for first: it runs only on a form with a cond (its
 * rewrites of an if alone are not made). */
static clean_fn *const worth[CLEAN_PASS_COUNT] = {
    [CLEAN_PASS_MERGE] = find_cond,
};

static bool by_depth(struct clean *c, struct value **out, enum clean_pass p, bool less)
{
    if (worth[p]) {
        bool any = false;
        void *old = c->state;
        c->state = &any;
        clean_visit(c, out, worth[p], 0);
        c->state = old;
        if (!any)
            return true;
    }
    c->undo_at = out;
    c->undo = NULL;
    c->changed = false;
    passes[p].run(c, out);
    c->undo_at = NULL;
    if (!c->changed)
        return true;
    size_t after = depth_of(c, *out);
    if (c->undo && (after > c->undo_depth || (less && after == c->undo_depth))) {
        clean_edited(c);
        *out = c->undo;
        return false;
    }
    return true;
}

void clean_changing(struct clean *c)
{
    clean_edited(c);
    if (!c->undo_at || c->changed)
        return;
    c->changed = true;
    c->undo_depth = depth_of(c, *c->undo_at);
    c->undo = copy(c, *c->undo_at, 0);
}

void clean_ran(struct clean *c, enum clean_pass p)
{
    if (c->hooks && c->hooks->ran)
        c->hooks->ran(c->hooks->ctx, p);
}

/* Pass p on the form at *out, unless the form has nothing it needs;
 * false when its work was undone. */
static bool run_pass(struct clean *c, struct value **out, enum clean_pass p)
{
    for (size_t i = 0; i < 2; i++)
        if (passes[p].needs[i] && !(c->seen & passes[p].needs[i]))
            return true;
    clean_ran(c, p);
    if (passes[p].undo != UNDO_NEVER)
        return by_depth(c, out, p, passes[p].undo == UNDO_FLAT);
    passes[p].run(c, out);
    return true;
}

void clean_note_join(struct clean *c, const struct value *into, const struct value *from)
{
    if (!c->hooks || !c->hooks->joined)
        return;
    if (c->n_joins + 2 > c->cap_joins) {
        size_t cap = c->cap_joins ? 2 * c->cap_joins : 16;
        c->joins = arena_grow(c->L->a, c->joins, c->cap_joins * sizeof *c->joins,
                              cap * sizeof *c->joins);
        c->cap_joins = cap;
    }
    c->joins[c->n_joins++] = into;
    c->joins[c->n_joins++] = from;
}

/* What the driver knows of the last run of each pass: a pass is a
 * function of the form (its code and marks) and of what the copy saw, so
 * one that changed nothing (no clean_edited) on a form that has not
 * changed since (the same count of edits, the same seen) would change
 * nothing again: it is not run. */
struct last_run {
    bool idle;       /* it ran and changed nothing */
    uint32_t edits;  /* c->edits when it began */
    uint32_t seen;
};

static bool needless(const struct clean *c, const struct last_run *r)
{
    return r->idle && r->edits == c->edits && r->seen == c->seen;
}

/* The joins of a pass, told to the hook when the pass is kept. */
static void tell_joins(struct clean *c, bool kept)
{
    for (size_t i = 0; kept && i < c->n_joins; i += 2)
        c->hooks->joined(c->hooks->ctx, c->joins[i], c->joins[i + 1]);
    c->n_joins = 0;
}

struct value *clean_form(struct lisp *L, struct clean_marks *marks,
                         const struct clean_hooks *hooks, struct value *form,
                         uint32_t off)
{
    if ((off & ((1u << CLEAN_PASS_COUNT) - 1)) == (1u << CLEAN_PASS_COUNT) - 1)
        return form;
    struct clean c = {.L = L, .marks = marks, .hooks = hooks};
    for (int i = 0; i < CS_COUNT; i++)
        c.sym[i] = intern_static(L, sym_names[i]); /* literals: cached by address */
    c.dead = intern_uninterned(L, "dead", 4);
    struct value *out = copy(&c, form, 0);
    if (!out)
        return form;
    c.root = &out;
    struct last_run last[CLEAN_PASS_COUNT] = {{0}};
    for (size_t i = 0; i < sizeof pipeline / sizeof pipeline[0]; i++) {
        enum clean_pass p = pipeline[i];
        if (off >> p & 1)
            continue;
        if (p == CLEAN_PASS_MERGE && i > 0 && pipeline[i - 1] == CLEAN_PASS_BLOCKS &&
            !c.decided)
            continue; /* merge again only where blocks put a block's code */
        if (!needless(&c, &last[p])) {
            last[p] = (struct last_run){false, c.edits, c.seen};
            tell_joins(&c, run_pass(&c, &out, p));
            last[p].idle = c.edits == last[p].edits;
        }
        if (p != CLEAN_PASS_UNUSED)
            c.sites = NULL; /* only unused hands its walk on, to inline */
        if (hooks && hooks->after)
            hooks->after(hooks->ctx, p, out);
    }
    return out;
}
