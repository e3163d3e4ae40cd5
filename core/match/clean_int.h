/* clean_int.h - shared internals of the clean-up passes (clean*.c only).
 *
 * clean.c holds the marks, the table of heads, the copy of the generated
 * code every cleaning starts with, the helpers the passes share and the
 * driver; each clean_<pass>.c holds one pass, clean_<pass>(c, slot),
 * which rewrites the form at *slot in place.  The copy makes every cons
 * of generated code the passes see their own (not shared with another
 * place, nor with the caller), so they change it in place; user code and
 * quoted data are shared and never changed.
 */
#ifndef PCX_CLEAN_INT_H
#define PCX_CLEAN_INT_H

#include "match/clean.h"

/* What the head of a list tells about it.  ORDER: clean_heads[] in clean.c. */
enum clean_kind {
    CK_CALL,     /* a function pcexpand knows nothing of (a user's): its
                    arguments are evaluated, then anything may happen; it
                    may be a macro, so nothing is put into its arguments */
    CK_PURE,     /* a function without effects that never signals */
    CK_PARTIAL,  /* a function without effects that may signal (car) */
    CK_MEMBER,   /* memq, memql, member: CK_PURE on a quoted proper list */
    CK_QUOTE,
    CK_FUNCTION,
    CK_LAMBDA,
    CK_LET,
    CK_LET_STAR,
    CK_IF,
    CK_COND,
    CK_AND,      /* and, or */
    CK_PROGN,    /* progn, prog1 */
    CK_SETQ,
    CK_FUNCALL,
    CK_DOLIST,
    CK_FORM,     /* another special form or macro (while, catch, ...): its
                    parts are code run any number of times, in an order
                    not modelled */
    CK_USER,     /* a form marked CLEAN_USER (never a head's kind) */
};

/* Symbols the passes compare heads with.  ORDER: sym_names[] in clean.c. */
enum clean_sym {
    CS_IF,
    CS_COND,
    CS_LET,
    CS_LET_STAR,
    CS_PROGN,
    CS_AND,
    CS_OR,
    CS_FUNCALL,
    CS_IGNORE,
    CS_NOT,
    CS_NULL,
    CS_CAR,
    CS_CDR,
    CS_CAR_SAFE,
    CS_CDR_SAFE,
    CS_CONSP,
    CS_EQ,
    CS_EQL,
    CS_EQUAL,
    CS_MEMQ,
    CS_MEMQL,
    CS_MEMBER,
    CS_UNDERSCORE,
    CS_SETQ,
    CS_COUNT
};

struct clean {
    struct lisp *L;
    struct clean_marks *marks;
    const struct clean_hooks *hooks;
    struct value *sym[CS_COUNT];
    struct value *dead;             /* stands for a binding a pass removed
                                       (clean_sweep takes them out) */
    bool all_bound;                 /* clean_effect_bound is running */
    bool decided;                   /* blocks put a block's code in a place
                                       that also went on (merge runs again) */
    void *state;                    /* the running pass's own (for the
                                       functions it gives clean_visit) */
    struct value **root;            /* the whole form being cleaned */
    uint32_t seen;                  /* what the copy met in the generated
                                       code (clean.c, SEEN_*): a pass that
                                       needs none of it has nothing to do */
    struct value **undo_at;         /* by_depth's form, while a pass that
                                       may be undone runs; else NULL */
    struct value *undo;             /* its copy from before the first change */
    size_t undo_depth;              /* how deeply it nested then */
    bool changed;                   /* clean_changing was called */
    uint32_t edits;                 /* changes made to the form so far
                                       (clean_edited): a pass that found
                                       nothing to do on a form is not run
                                       again while this stays the same */
    struct clean_site *sites;       /* clean_sites of the form as it is, when
                                       the last pass (unused) left it as its
                                       last walk found it; else NULL */
    size_t n_sites;
    const struct value **stack;     /* clean_mentions' stack, reused */
    size_t cap_stack;
    struct same_pair *same_stack;   /* clean_same_code's, reused */
    size_t same_cap;
    const struct value **joins;     /* the running pass's merged clauses:
                                       pairs of bodies (into, from), told
                                       to the hook if the pass is kept */
    size_t n_joins, cap_joins;
};

/* What clean_visit calls at each generated list. */
typedef void clean_fn(struct clean *c, struct value **slot);

/* The passes (each in clean_<name>.c). */
void clean_ignore(struct clean *c, struct value **slot);
void clean_funcall(struct clean *c, struct value **slot);
void clean_not(struct clean *c, struct value **slot);
void clean_inline(struct clean *c, struct value **slot);
void clean_unused(struct clean *c, struct value **slot);
void clean_lets(struct clean *c, struct value **slot);
void clean_safe(struct clean *c, struct value **slot);
void clean_known(struct clean *c, struct value **slot);
struct clean_facts_dry;
struct clean_facts_at;
/* known's dry walk of a dispatch, and its walk of one place (clean_facts_dry,
 * clean_facts_walk_at): blocks tries a block's code at each of its
 * places with these. */
struct clean_facts_dry *clean_known_dry(struct clean *c, struct value **slot,
                                        const struct value *go);
void clean_known_at(struct clean *c, const struct clean_facts_at *at, struct value **place);
/* Tell the caller's hook that pass p walks the form (or a dispatch of it). */
void clean_ran(struct clean *c, enum clean_pass p);
void clean_memq(struct clean *c, struct value **slot);
void clean_hoist(struct clean *c, struct value **slot);

void clean_merge(struct clean *c, struct value **slot);
void clean_nil(struct clean *c, struct value **slot);
void clean_blocks(struct clean *c, struct value **slot);
void clean_unshare(struct clean *c, struct value **slot);
void clean_and(struct clean *c, struct value **slot);
void clean_consp(struct clean *c, struct value **slot);
void clean_split(struct clean *c, struct value **slot);
void clean_if(struct clean *c, struct value **slot);

/* The clause of a cond whose body is the list `from` joined the clause
 * whose body is `into` (told to clean_hooks.joined when the running pass
 * is kept). */
void clean_note_join(struct clean *c, const struct value *into, const struct value *from);

/* A cond at *slot whose clauses may have changed, in its shortest form
 * (clean_nil.c): no last clause (t nil), a cond of one or two clauses an
 * if, a cond of none nil. */
void clean_tidy_cond(struct clean *c, struct value **slot);

/* ---- blocks (clean_blocks.c; unshare uses them too) ---- */

/* The block dispatch of one let* (clean_blocks.c says its shape). */
struct clean_dispatch {
    struct value *go, *res;
    struct value **first; /* the slot of its first form after the bindings */
};

/* Is the let* v a block dispatch?  Fills d. */
bool clean_dispatch_of(struct clean *c, struct value *v, struct clean_dispatch *d);

/* The slot of the code of the block of dispatch form f, its number in
 * *key; NULL when f is no block. */
struct value **clean_block_of(struct clean *c, const struct clean_dispatch *d, struct value *f,
                              const struct value **key);

/* The slots of the places that go to block key of dispatch d (the let*
 * at *slot), *n of them. */
struct value ***clean_block_places(struct clean *c, struct value **slot,
                                   struct clean_dispatch *d, const struct value *key,
                                   size_t *n);

/* May block code b stand at place p under the dispatch let* v? */
bool clean_block_place_ok(struct clean *c, struct value *v, struct value **p, struct value *b);

/* The place go_form (setq GO K C0 V0...) as block code b: (let ((C0
 * V0)...) b). */
struct value *clean_block_arrive(struct clean *c, struct value *go_form, struct value *b);

/* Conses of v, user code included, quoted data as one; counting stops
 * past max. */
size_t clean_size_upto(struct clean *c, struct value *v, size_t max);

/* The dispatch form at *l (a block no place reaches now) taken out. */
void clean_block_remove(struct clean *c, const struct clean_dispatch *d, struct value **l);

/* With no block left, the dispatch let* at *slot keeps what comes before
 * its selector, and the main code. */
void clean_block_unwrap(struct clean *c, struct value **slot, const struct clean_dispatch *d);

/* ---- facts (clean_facts.c) ---- */

struct facts;

/* The rewrite a pass makes of a call whose arguments were walked (with
 * the facts that hold there): its replacement, or NULL. */
typedef struct value *clean_fact_fn(struct facts *f, struct value *form);

/* Walk *slot with the facts of the tests on the way, calling fn at each
 * call of a function; fold: fold the t and nil tests fn makes (if, cond,
 * and, or). */
void clean_facts_walk(struct clean *c, struct value **slot, clean_fact_fn *fn, bool fold);

/* The facts where each place (setq GO ...) of a dispatch begins, kept by
 * clean_facts_dry. */
struct clean_facts_dry;

/* clean_facts_walk of *slot (fold: true) that changes nothing: NULL when
 * fn or a fold would change something, else the facts at each place
 * (setq go ...) that stands as a statement or a branch, whose value no
 * form around it looks at (a progn's, a let's, a cond clause's body, an
 * if's branches). */
struct clean_facts_dry *clean_facts_dry(struct clean *c, struct value **slot, clean_fact_fn *fn,
                                        const struct value *go);

/* The facts dry kept where *place begins, or NULL. */
struct clean_facts_at;
const struct clean_facts_at *clean_facts_kept(const struct clean_facts_dry *dry,
                                              struct value **place);

/* clean_facts_walk (fold: true) of what stands at *place now, from the
 * facts at kept there.  On a form where the dry walk found nothing to
 * change, the walk of the whole form with new code at a place changes
 * only that code, as this walk does: the tests before the place are
 * walked as before, and after it fewer facts hold, which decide no test
 * (a fact only narrows what a value may be). */
void clean_facts_walk_at(struct clean *c, const struct clean_facts_at *at, struct value **place,
                         clean_fact_fn *fn);

/* The kinds expression e may be where the walk is (CLEAN_KIND_ALL when
 * nothing is known). */
uint8_t clean_facts_kinds(const struct facts *f, const struct value *e);

struct clean *clean_facts_clean(struct facts *f);

/* The kinds of the constants an equality or membership test h compares
 * with (k: the constant, or the list); 0 when h is no such test. */
uint8_t clean_facts_equal_kinds(const struct clean *c, const struct value *h,
                                const struct value *k);

/* The kind of object v. */
uint8_t clean_kind_of(const struct clean *c, const struct value *v);

/* The constant v evaluates to (a quoted object, or an atom that
 * evaluates to itself), or NULL. */
const struct value *clean_constant(const struct clean *c, const struct value *v);

/* ---- helpers (clean.c) ---- */

static inline struct value *clean_car(const struct value *v) { return v->u.cons.car; }
static inline struct value *clean_cdr(const struct value *v) { return v->u.cons.cdr; }

/* Every pass calls this where it changes the form (a slot, a car or cdr
 * of the generated code, a mark): the driver skips a pass that ran on
 * the very same form before and changed nothing (clean.c, run_pass). */
static inline void clean_edited(struct clean *c) { c->edits++; }

/* An open-addressing map from values to small integers (0: absent): the
 * marks, the sets, the scopes of clean_sites.  Only looked up by
 * identity, never walked, so the addresses decide probe lengths, never a
 * result.  Here, so that the lookups every walk makes at every list are
 * inline. */
struct clean_marks {
    struct arena *a;
    const struct value **key;
    int32_t *val;
    size_t cap, n;
};

static inline size_t clean_map_slot(const struct clean_marks *s, const struct value *v)
{
    uint64_t h = (uint64_t)(uintptr_t)v * 0x9e3779b97f4a7c15u;
    size_t j = (size_t)(h >> 32) & (s->cap - 1);
    while (s->key[j] && s->key[j] != v)
        j = (j + 1) & (s->cap - 1);
    return j;
}

/* A clean_marks as a map from values to integers, 0 for none. */
void clean_map_put(struct clean_marks *s, const struct value *v, int32_t k);

static inline int32_t clean_map_get(const struct clean_marks *s, const struct value *v)
{
    if (!s || !s->n)
        return 0;
    size_t j = clean_map_slot(s, v);
    return s->key[j] ? s->val[j] : 0;
}

/* The heads pcexpand knows, sorted by name (clean.c). */
struct clean_head {
    const char *name;
    enum clean_kind kind;
};
extern const struct clean_head clean_heads[];

/* clean_head_kind of an interned symbol not looked up yet. */
enum clean_kind clean_head_kind_first(const struct value *head);

/* The kind of the function or form named by symbol head (its row of
 * clean_heads is kept in the symbol: one lookup a symbol). */
static inline enum clean_kind clean_head_kind(const struct value *head)
{
    if (head->kind != VK_SYMBOL || !head->u.sym.interned)
        return head->kind == VK_CONS ? CK_FORM : CK_CALL;
    uint8_t r = head->u.sym.row[VALUE_ROW_CLEAN];
    if (r == 0)
        return clean_head_kind_first(head);
    return r == VALUE_ROW_NONE ? CK_CALL : clean_heads[r - 1].kind;
}

/* The kind of form v (a list), CK_USER for user code. */
static inline enum clean_kind clean_kind(const struct clean *c, const struct value *v)
{
    if (clean_map_get(c->marks, v) == CLEAN_USER)
        return CK_USER;
    return clean_head_kind(clean_car(v));
}

/* Is v a temporary (a symbol the expander made)? */
static inline bool clean_temp(const struct value *v)
{
    return v->kind == VK_SYMBOL && !v->u.sym.interned && v->u.sym.temp != 0;
}

/* Is v a symbol that names a variable (not nil, t or a keyword)? */
bool clean_variable(const struct clean *c, const struct value *v);

/* A list (a b), (a b c), (a . d). */
struct value *clean_list2(struct clean *c, struct value *a, struct value *b);
struct value *clean_list3(struct clean *c, struct value *a, struct value *b,
                          struct value *d);
struct value *clean_cons(struct clean *c, struct value *a, struct value *d);

/* One form for the list of forms `forms` (nil, the form, or a progn). */
struct value *clean_progn(struct clean *c, struct value *forms);

/* The variable and value of a let binding: SYM, (SYM) or (SYM VAL);
 * false for anything else.  *val is nil when absent. */
bool clean_binding(const struct clean *c, const struct value *b, struct value **var,
                   struct value **val);

/* Does form mention symbol s anywhere (quoted data and user code
 * included)?  Iterative. */
bool clean_mentions(struct clean *c, const struct value *form, const struct value *s);

/* Does form mention a symbol of set (clean_set_add)?  Iterative. */
bool clean_mentions_any(struct clean *c, const struct value *form,
                        const struct clean_marks *set);

/* The row of a table sorted by name whose rows (size bytes each) begin
 * with their name (const char *), or -1. */
int clean_row(const void *rows, size_t n, size_t size, const char *name);

/* The first row of such a table not sorted after its predecessor, or -1. */
long clean_rows_sorted(const void *rows, size_t n, size_t size);


/* A set of values (any kind), made by clean_marks_new. */
void clean_set_add(struct clean_marks *s, const struct value *v);
bool clean_set_has(const struct clean_marks *s, const struct value *v);

/* Call fn at every generated list in a code position of *slot, the
 * innermost first, *slot last (fn may replace the form at its slot).
 * User code, quoted data, the arguments of unknown functions and forms
 * of CK_FORM are not entered. */
void clean_visit(struct clean *c, struct value **slot, clean_fn *fn, unsigned depth);

/* A copy of the generated code of v, its user code and quoted data
 * shared (what every cleaning starts with), or NULL when v nests more
 * than CLEAN_MAX_DEPTH lists deep. */
struct value *clean_copy(struct clean *c, struct value *v);

/* The code `to' stands where `from' was (a pass replaced or merged it):
 * what the caller knows of from (which clause's code it carries, for the
 * comments) goes to to.  Either may be an atom: then nothing is told. */
void clean_moved(struct clean *c, const struct value *from, const struct value *to);

/* The pass running is about to change the form in place (each pass that
 * may be undone, merge, hoist, unshare, and, split and if, calls it
 * before its first change): the driver keeps what the form was, to undo
 * the pass by (clean.c, by_depth).  A pass that never calls it changed
 * nothing, and nothing is copied. */
void clean_changing(struct clean *c);

/* Take every binding replaced by c->dead out of its let or let*. */
void clean_sweep(struct clean *c, struct value **slot);

/* What evaluating a form may do, from least to most. */
enum clean_effect {
    CE_NONE,   /* nothing: reads variables, makes values */
    CE_SIGNAL, /* no effect, but may signal */
    CE_ANY,    /* anything: calls code pcexpand does not know */
};

/* The most form's evaluation may do.  Reading a variable that is no
 * temporary may signal (void-variable): the pattern's subject, a guard's
 * variable. */
enum clean_effect clean_effect(const struct clean *c, const struct value *form);

/* The effect of the call form itself, its arguments' apart. */
enum clean_effect clean_call_effect(const struct clean *c, const struct value *form);

/* Do the forms of list forms, evaluated in order, read variable v before
 * anything else that could be seen happens (another variable that may be
 * void, a call that may signal, unknown code, a test)?  User code is
 * looked at too (read only). */
bool clean_reads_first(const struct clean *c, const struct value *forms,
                       const struct value *v);

/* clean_effect, every variable taken to be bound (each was read before,
 * on every path: a void one would have signalled there). */
enum clean_effect clean_effect_bound(struct clean *c, const struct value *form);

/* Where a temporary is bound (clean_sites). */
enum clean_site_kind {
    CLEAN_SITE_LET,   /* a binding of let or let* */
    CLEAN_SITE_PARAM, /* a lambda's parameter, dolist's variable */
};

struct clean_site {
    struct value *var;          /* the temporary */
    struct value *owner;        /* the let, let*, lambda or dolist form */
    struct value *cell;         /* the list cell whose car is the binding */
    enum clean_site_kind kind;
    uint32_t refs;              /* references that see this binding */
    struct value **ref;         /* where the last one is */
    bool ref_ok;                /* it is where any form could stand (not an
                                   argument of an unknown function) */
    bool init_bound;            /* the value reads only variables read
                                   before on every path (none is void) */
    int prev;                   /* the site this one hides, or -1 */
};

/* Every site of a temporary in *slot, bindings in the order the walk
 * meets them (a let* binding before the ones after it, an outer site
 * before the inner ones); *n their number. */
struct clean_site *clean_sites(struct clean *c, struct value **slot, size_t *n);

/* What clean_visit_dom calls at each generated list: dom[0..n) are the
 * variables surely read on every path to it (clean_sites.c). */
typedef void clean_dom_fn(struct clean *c, struct value **slot,
                          const struct value *const *dom, size_t n);

/* Call fn at every generated list in a code position of *slot, outer
 * ones first, in the order of evaluation (fn may replace the form at its
 * slot; the walk goes on into the new form). */
void clean_visit_dom(struct clean *c, struct value **slot, clean_dom_fn *fn);

/* Are the forms a and b the same code?  Generated code equal, user code
 * the same object: the copies of one clause's body are the same code,
 * the equal text of two clauses' bodies is not (which clause a body is,
 * and where its comments go, is the user's), nor a variable the user
 * wrote as a body.  Iterative. */
bool clean_same(struct clean *c, const struct value *a, const struct value *b);

/* clean_same of two lists of statements (bodies: a variable there is
 * user code). */
bool clean_same_code(struct clean *c, const struct value *a, const struct value *b,
                     bool statements);

#endif
