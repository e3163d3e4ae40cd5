/* api_run.c - the stages of one run (api_int.h).
 *
 * Load the bytes, check their coding, read them (syntax/read), expand the
 * forms (expand/; --only/--skip, --at, --no-memo), render the result into
 * r->out (lisp/print, syntax/splice, or api_out.c for records and dumps),
 * and render the diagnostics into r->msgs.  Nothing here touches the
 * context or a sink: runs are computed in workers with -j.
 */
#include "api_int.h"

#include <stddef.h>
#include <string.h>

#include "expand/gensym.h"
#include "expand/learn.h"
#include "expand/pcase_macros.h"
#include "io/file.h"
#include "lisp/print.h"
#include "syntax/pretty.h"

void run_set_text(struct run *r, const uint8_t *text, size_t len)
{
    source_init(&r->src, r->a, r->in->name, text, len);
    r->text = text;
    r->len = len;
}

#define RUN_BIG_TEXT ((size_t)128 * 1024)
#define RUN_BIG_PAGE ((size_t)4 * 1024 * 1024)

/* Get the input bytes into the run; an io error otherwise.  An input to
 * be written in place (-w) is first checked to be a regular file with one
 * link: a FIFO's bytes are not consumed for an error. */
static bool load(struct run *r)
{
    const struct input *in = r->in;
    const struct pcx_options *o = &r->cx->o;
    struct file_data fd = {(uint8_t *)in->data, in->len, NULL, {0}};
    bool in_place = o->target == PCX_TARGET_INPUT && !o->check;
    /* A run takes some 30 bytes of memory per byte of text.  For a large
     * text (itself included) the arena's next page is at once a multiple
     * of the huge page: the kernel fills those in 2 MiB per fault
     * instead of 4 KiB per fault in the small pages the arena would go
     * through first (page faults were a tenth of such a run's time). */
    if (in->path && file_size(in->path) >= RUN_BIG_TEXT)
        r->a->next_page = RUN_BIG_PAGE;
    if (in->path && (!in_place || file_check_in_place(r->a, in->path, &fd.error)))
        file_read(r->a, in->path, &fd);
    else if (!in->path && in->stream)
        file_read_stream(r->a, in->stream, in->name, &fd);
    if (fd.error) {
        report_plain(&r->msgs, in->name, DIAG_ERROR, "io", fd.error,
                     &r->cx->rep);
        r->diags.n_errors++;
        return false;
    }
    run_set_text(r, fd.data, fd.len);
    r->stamp = fd.stamp;
    r->stats.bytes_in += fd.len;
    return true;
}

/* How a reader error is worded: as Emacs's error-message-string shows
 * it ("Invalid read syntax: \")\""), lower-cased as GNU messages are.
 * NULL text: the first datum (a string) is the message. */
static const struct {
    const char *symbol; /* error symbol of elisp-syntax.md 1.13 */
    const char *text;   /* the error's message */
} read_words[] = {
    {"args-out-of-range", "args out of range"},
    {"end-of-file", "end of file during parsing"},
    {"error", NULL},
    {"invalid-read-syntax", "invalid read syntax"},
    {"wrong-type-argument", "wrong type argument"},
};

/* "MESSAGE: DATUM, DATUM" of a reader error, into b. */
static void word_read_error(struct lisp *L, const struct read_error *e,
                            struct buf *b)
{
    const char *text = e->symbol;
    for (size_t i = 0; i < sizeof read_words / sizeof read_words[0]; i++)
        if (strcmp(e->symbol, read_words[i].symbol) == 0)
            text = read_words[i].text;
    struct value *data = e->data ? e->data : L->nil;
    if (!text && data->kind == VK_CONS && data->u.cons.car->kind == VK_STRING) {
        const struct value_string *m = &data->u.cons.car->u.str;
        buf_put(b, m->data, m->len);
        data = data->u.cons.cdr;
    } else if (!text) {
        text = e->message && *e->message ? e->message : e->symbol;
    }
    if (text)
        buf_puts(b, text);
    struct print_opts po = print_opts_default();
    po.escape_newlines = true;
    for (const char *sep = ": "; data->kind == VK_CONS; sep = ", ") {
        buf_puts(b, sep);
        print_value(L, b, data->u.cons.car, &po);
        data = data->u.cons.cdr;
    }
    if (b->len && b->data[0] >= 'A' && b->data[0] <= 'Z')
        b->data[0] = (char)(b->data[0] - 'A' + 'a');
}

const char *api_read_error_text(struct lisp *L, const struct read_error *e)
{
    struct buf b;
    buf_init(&b, L->a);
    word_read_error(L, e, &b);
    return buf_cstr(&b);
}

static void read_error_diag(struct run *r, const struct read_error *e)
{
    diag_add(&r->diags, DIAG_ERROR, e->pos, e->pos, "read", "%s",
             api_read_error_text(r->L, e));
}

/* Refuse a file that declares a coding system other than UTF-8: read as
 * UTF-8 it would mean something else than it does in Emacs.  The parts
 * of a split input were checked as a whole; a stretch of standard input
 * checks what it is asked to. */
static bool coding_stage(struct run *r)
{
    struct span name;
    const uint8_t *t = r->text + r->share_lo;
    size_t n = r->len - r->share_lo;
    if (r->parts > 1 && !r->stretch)
        return true;
    if ((!(r->coding & RUN_CODING_START) || read_check_coding_start(t, n, &name)) &&
        (!(r->coding & RUN_CODING_END) || read_check_coding_end(t, n, &name)))
        return true;
    name.start += (uint32_t)r->share_lo;
    name.end += (uint32_t)r->share_lo;
    run_coding_error(r, name);
    r->coding_refused = true;
    return false;
}

void run_coding_error(struct run *r, struct span name)
{
    diag_add(&r->diags, DIAG_ERROR, name.start, name.end, "encoding",
             "unsupported coding system '%.*s' (pcexpand reads UTF-8 only)",
             (int)(name.end - name.start), (const char *)r->text + name.start);
}

/* Is anything to be expanded at all? */
static bool expanding(const struct run *r)
{
    return !r->cx->o.no_expand && (PCX_HEADS_ALL & ~run_skip_heads(r)) != 0;
}

static bool read_stage(struct run *r)
{
    if (!r->L)
        r->L = intern_new(r->a);
    /* Without expansion nothing asks where a value came from, and the
     * origin map is a large share of reading time; with it, the reader
     * counts the head tokens of each form (expand_prime_heads). */
    bool expand = expanding(r);
    if (expand)
        expand_prime_heads(r->L);
    r->stats.bytes_read += r->len - r->read_lo;
    if (!read_source_range(r->L, r->text, r->read_lo, r->len, expand ? 0 : READ_NO_ORIGIN,
                           &r->rd)) {
        /* a part: the cut may be wrong; the whole text, read in one
         * piece, says where the error is */
        r->split_failed = r->parts > 1;
        read_error_diag(r, &r->rd.err);
        return false;
    }
    r->forms = ARENA_NEWN(r->a, struct value *, r->rd.n_forms + 1);
    for (size_t i = 0; i < r->rd.n_forms; i++)
        r->forms[i] = r->rd.forms[i].v;
    r->stats.forms += r->rd.n_forms;
    return true;
}

/* ---- expansion ---- */

/* --keep-going, for a run that expands the whole input (not with --at or
 * a golden selector, which print one form). */
static bool keeps_going(const struct run *r)
{
    return r->cx->o.keep_going && !r->cx->o.at_line && r->select_nth < 0 &&
           !r->select_defun;
}

/* The run's load path (api_int.h, api_load_run). */
void api_load_run(struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    const struct config *cfg = run_config(r);
    const struct input *in = r->in;
    const char *file = in->path ? in->path : in->stream ? o->stdin_filepath : in->name;
    size_t n = 1 + o->n_load_path + cfg->n_load_path;
    const char **dirs = ARENA_NEWN(r->a, const char *, n);
    dirs[0] = config_path_dir(r->a, file ? file : ".");
    for (size_t i = 0; i < o->n_load_path; i++)
        dirs[1 + i] = o->load_path[i];
    for (size_t i = 0; i < cfg->n_load_path; i++)
        dirs[1 + o->n_load_path + i] = cfg->load_dirs[i];
    r->x.verbose = o->verbose;
    r->loader = api_load_attach(&r->x, r->cx->lib, in->path, dirs, n);
}

/* Make the expander, after reading: the symbols read so far are the
 * input's (temporaries avoid their names). */
static void prepare_expander(struct run *r)
{
    struct expand_ctx *x = &r->x;
    expand_init(x, r->L, &r->diags, &r->rd);
    x->macros = pcase_macros_new(r->L);
    x->memo = !r->cx->o.no_memo;
    x->clean_off = r->cx->o.no_clean;
    x->keep_going = keeps_going(r);
    x->carriers = true; /* the layout puts comments over clauses; a clause
                          with comments keeps its code (pcase.c): the same
                          code in every mode */
    unsigned heads = PCX_HEADS_ALL & ~run_skip_heads(r);
    x->heads = heads == PCX_HEADS_ALL ? 0 : heads;
    api_config_expander(r);
    api_load_run(r);
    gensym_set_known(expand_gensyms(x), r->known);
}

/* Remember one replaced site. */
static struct run_site *add_site(struct run *r, const struct expand_site *es,
                                 size_t form)
{
    if (r->n_sites == r->cap_sites) {
        size_t cap = r->cap_sites ? r->cap_sites * 2 : 16;
        r->sites = arena_grow(r->a, r->sites, r->cap_sites * sizeof *r->sites,
                              cap * sizeof *r->sites);
        r->cap_sites = cap;
    }
    struct run_site *s = &r->sites[r->n_sites++];
    memset(s, 0, sizeof *s);
    s->orig = es->orig;
    s->expansion = es->expansion;
    s->head = es->head;
    s->form = form;
    return s;
}

/* Records report what each site cost: expand it again, alone (the
 * expander is deterministic), with its diagnostics and counters put
 * aside.  Stray cond* keywords cost nothing. */
static void measure(struct run *r, size_t form, struct run_site *s)
{
    struct expand_ctx *x = &r->x;
    if (expand_head_bit(s->head) <= 0)
        return;
    struct expand_stats saved = x->stats;
    struct diag_list *real = x->diags, scratch;
    diag_init(&scratch, r->a);
    x->diags = &scratch;
    memset(&x->stats, 0, sizeof x->stats);
    expand_set_target(x, s->orig);
    expand_form(x, r->rd.forms[form].v);
    s->st = x->stats;
    expand_set_target(x, r->at_target);
    x->stats = saved;
    x->diags = real;
}

/* What printing one expansion may cost: with the layout, the sum over
 * its conses of their nesting depth, about the bytes of text it prints
 * (64 MB; the largest in Emacs's own sources is 31 kB); on one line
 * (--compact), its conses.  A nested expansion (cond* wraps each clause
 * around the next ones) lays out text that grows with the square of its
 * depth: 20,000 clauses would take gigabytes. */
#define PRINT_BUDGET 64000000u
/* ... and how deep it may nest (Emacs evaluates 1,600 at most). */
#define PRINT_MAX_DEPTH 10000u
_Static_assert(PRINT_FAST_DEPTH <= PRINT_MAX_DEPTH,
               "a text the fast printer takes is never too deep");

struct print_item {
    const struct value *v; /* a cons */
    uint32_t depth;        /* lists it is nested in */
};

/* Why v is too large to print (NULL: it is not).  v is walked as it is
 * printed (a shared part once per reference) until a limit is passed;
 * quoted data is not walked, it may contain itself. */
static const char *print_cost(struct run *r, const struct value *v, bool layout)
{
    size_t cap = 64, top = 0;
    struct print_item *st = ARENA_NEWN(r->a, struct print_item, cap);
    uint64_t cost = 0;
    if (v->kind == VK_CONS)
        st[top++] = (struct print_item){v, 1};
    while (top && cost <= PRINT_BUDGET) {
        struct print_item it = st[--top];
        if (it.depth > PRINT_MAX_DEPTH)
            return "nested more than 10000 lists deep";
        if (value_car(it.v) == r->L->quote)
            continue;
        for (const struct value *c = it.v; c->kind == VK_CONS && cost <= PRINT_BUDGET;
             c = value_cdr(c)) {
            cost += layout ? it.depth : 1;
            if (value_car(c)->kind != VK_CONS)
                continue;
            if (top == cap) {
                st = arena_grow(r->a, st, cap * sizeof *st, 2 * cap * sizeof *st);
                cap *= 2;
            }
            st[top++] = (struct print_item){value_car(c), it.depth + 1};
        }
    }
    if (cost <= PRINT_BUDGET)
        return NULL;
    return layout ? "nested too deeply for its size (--compact prints it on one line)"
                  : "more than 64 million conses";
}

static bool render_early(const struct run *r);
static bool gensym_circle(const struct run *r);

/* Is the size of a form's expansions checked by printing it?  When its
 * --compact text is made right after it is expanded (render_early) by
 * the fast printer: a text of at most PRINT_BUDGET / 2 bytes it prints
 * proves every expansion in it small (compact_form), and only a form
 * the fast printer gives up on is measured with print_cost. */
static bool size_checked_by_printing(const struct run *r)
{
    return render_early(r) && !gensym_circle(r) && r->diags.n_errors == 0;
}

/* print_cost, its work stack given back at once (it runs for every
 * expanded form of a file). */
static const char *measured_cost(struct run *r, const struct value *v, bool layout)
{
    struct arena_mark m = arena_mark(r->a);
    const char *why = print_cost(r, v, layout);
    arena_release(r->a, m);
    return why;
}

/* measured_cost, or NULL at once when printing the form will check it. */
static const char *too_large_to_print(struct run *r, const struct value *v,
                                      bool layout)
{
    if (!layout && size_checked_by_printing(r))
        return NULL;
    return measured_cost(r, v, layout);
}

/* The error of a site whose expansion is too large to print (why). */
static void too_large(struct run *r, struct value *orig, const char *head,
                      const char *why)
{
    expand_diag(&r->x, DIAG_ERROR, orig, "nesting-too-deep",
                "%s form's expansion too large to print: %s", head, why);
}

/* Expand top-level form i.  A form whose expansion failed has recorded an
 * error, so the run will print nothing; the other forms are still
 * expanded, to report every independent error of the file. */
static void expand_top(struct run *r, size_t i)
{
    struct expand_ctx *x = &r->x;
    x->top = r->forms[i] == r->rd.forms[i].v ? &r->rd.forms[i] : NULL;
    struct value *v = expand_form(x, r->forms[i]);
    x->top = NULL;
    if (!v)
        return;
    r->forms[i] = v;
    bool records = r->cx->o.format != PCX_FORMAT_LISP && !r->cx->o.dump && !r->cx->o.explain;
    size_t n = x->n_sites;
    struct expand_site *es = ARENA_NEWN(r->a, struct expand_site, n + 1);
    if (n)
        memcpy(es, x->sites, n * sizeof *es);
    bool layout = !r->cx->o.compact;
    for (size_t j = 0; j < n; j++) {
        const char *why = r->cx->o.dump || r->cx->o.explain ? NULL
                        : too_large_to_print(r, es[j].expansion, layout);
        if (why) {
            too_large(r, es[j].orig, es[j].head, why);
            continue;
        }
        struct run_site *s = add_site(r, &es[j], i);
        if (records)
            measure(r, i, s);
    }
}

/* ---- --at (cli.md section 3) ---- */

/* Offset of the start of line `line` (1-based) in r->text; false when
 * the text has fewer lines. */
static bool line_start(const struct run *r, unsigned line, uint32_t *out)
{
    uint32_t off = 0;
    for (unsigned l = 1; l < line; l++) {
        const uint8_t *nl = memchr(r->text + off, '\n', r->len - off);
        if (!nl)
            return false;
        off = (uint32_t)(nl - r->text) + 1;
    }
    *out = off;
    return true;
}

/* Offset of screen column col (1-based, counted as in diagnostics) on
 * the line starting at ls: the character covering that column, or the
 * end of the line. */
static uint32_t column_offset(const struct run *r, uint32_t ls, unsigned col)
{
    unsigned c = 1;
    uint32_t off = ls;
    while (off < r->len && r->text[off] != '\n') {
        unsigned next = r->text[off] == '\t'
                            ? ((c - 1) / SOURCE_TAB_WIDTH + 1) * SOURCE_TAB_WIDTH + 1
                            : c + 1;
        if (col < next)
            break;
        c = next;
        off += (uint32_t)source_char_len(r->text + off, r->len - off);
    }
    return off;
}

/* Where --at looks: the position, its line, and how forms rank. */
struct at_query {
    uint32_t pos;       /* offset of LINE:COL (of LINE's start without COL) */
    uint32_t ls, le;    /* LINE's start, and its end (the '\n' or EOF) */
    bool col;           /* COL was given */
};

/* Rank of a form with span sp: 2 = first choice, 1 = fallback, 0 = no;
 * among equal ranks the smaller *key wins. */
static int at_rank(const struct at_query *q, struct span sp, uint64_t *key)
{
    uint64_t width = sp.end - sp.start;
    if (q->col && sp.start <= q->pos && q->pos < sp.end)
        return *key = width, 2; /* innermost containing the position */
    if (q->col && sp.end <= q->pos && sp.end > q->ls)
        return *key = UINT32_MAX - sp.end, 1; /* last ending before it */
    if (!q->col && sp.start >= q->ls && sp.start <= q->le)
        return *key = sp.start, 2; /* first starting on the line */
    if (!q->col && sp.start <= q->ls && q->ls < sp.end)
        return *key = width, 1; /* innermost containing the line start */
    return 0;
}

/* Choose the --at form (r->at_target, r->at_form) among the expandable
 * forms of every top-level form. */
static void pick_at(struct run *r, const struct at_query *q)
{
    int best = 0;
    uint64_t best_key = 0;
    for (size_t i = 0; i < r->rd.n_forms; i++) {
        struct value **found;
        size_t n = expand_list_forms(&r->x, r->forms[i], &found);
        for (size_t j = 0; j < n; j++) {
            struct span sp;
            uint64_t key;
            if (!read_origin_span(&r->rd, found[j], &sp))
                continue;
            int rank = at_rank(q, sp, &key);
            if (rank > best || (rank == best && rank > 0 && key < best_key)) {
                best = rank;
                best_key = key;
                r->at_target = found[j];
                r->at_form = (long)i;
            }
        }
    }
}

/* Select the --at form; false (an error recorded) when there is none. */
static bool select_at(struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    struct at_query q = {(uint32_t)r->len, (uint32_t)r->len, (uint32_t)r->len,
                         o->at_col > 0};
    if (line_start(r, o->at_line, &q.ls)) {
        const uint8_t *nl = memchr(r->text + q.ls, '\n', r->len - q.ls);
        q.le = nl ? (uint32_t)(nl - r->text) : (uint32_t)r->len;
        q.pos = q.col ? column_offset(r, q.ls, o->at_col) : q.ls;
        pick_at(r, &q);
    }
    if (r->at_target) {
        expand_set_target(&r->x, r->at_target);
        return true;
    }
    if (q.col)
        diag_add(&r->diags, DIAG_ERROR, q.pos, q.pos, "usage",
                 "no pcase-family or cond* form at %u:%u", o->at_line, o->at_col);
    else
        diag_add(&r->diags, DIAG_ERROR, q.pos, q.pos, "usage",
                 "no pcase-family or cond* form at line %u", o->at_line);
    return false;
}

/* Is form a definition of the symbol named name: (def... NAME ...)? */
static bool defines(const struct value *form, const char *name)
{
    if (form->kind != VK_CONS || !value_symbolp(form->u.cons.car) ||
        form->u.cons.cdr->kind != VK_CONS)
        return false;
    const struct value *head = form->u.cons.car, *sym = form->u.cons.cdr->u.cons.car;
    return strstr(head->u.sym.name, "def") && value_symbolp(sym) &&
           strcmp(sym->u.sym.name, name) == 0;
}

/* Golden selectors: the nth top-level form, or the definition of a name
 * (r->at_form); false, with an error said, when there is none. */
static bool select_top(struct run *r)
{
    for (size_t i = 0; i < r->rd.n_forms && r->at_form < 0; i++)
        if (r->select_defun ? defines(r->forms[i], r->select_defun)
                            : (long)i == r->select_nth)
            r->at_form = (long)i;
    if (r->at_form >= 0)
        return true;
    struct buf b;
    buf_init(&b, r->a);
    if (r->select_defun)
        buf_printf(&b, "no top-level definition named %s", r->select_defun);
    else
        buf_printf(&b, "no top-level form %ld (counting from 0)", r->select_nth);
    report_plain(&r->msgs, r->in->name, DIAG_ERROR, "usage", buf_cstr(&b),
                 &r->cx->rep);
    r->diags.n_errors++;
    return false;
}

static bool render_early(const struct run *r);
static void reserve_output(struct run *r);
static void render_compact(struct run *r, size_t upto);

/* A part's share: the forms read that start at share_lo or later (its
 * text ends where the share does). */
static void part_range(struct run *r)
{
    size_t n = r->rd.n_forms;
    r->lo = 0;
    while (r->lo < n && r->rd.forms[r->lo].span.start < r->share_lo)
        r->lo++;
}

/* Learn from top-level form i without expanding it (the forms before a
 * part's share, or before a golden's selected form): what it says
 * (notes, a warning about a required file) is said where it is expanded. */
static void learn_only(struct run *r, size_t i)
{
    struct diag_list *real = r->x.diags, scratch;
    diag_init(&scratch, r->a);
    r->x.diags = &scratch;
    learn_form(&r->x, r->forms[i]);
    r->x.diags = real;
}

/* Replace the selected forms of every top-level form (cli.md section 3);
 * with a golden selector only those of the selected top-level form (the
 * definitions of the forms before it are still learned). */
static void expand_stage(struct run *r)
{
    prepare_expander(r);
    bool early = render_early(r);
    if (early)
        reserve_output(r);
    struct expand_stats before = r->x.stats;
    bool top = r->select_defun || r->select_nth >= 0;
    if (top ? !select_top(r) : r->cx->o.at_line && !select_at(r))
        return;
    size_t first = r->n_sites;
    if (r->parts > 1)
        part_range(r);
    r->diag_mark = r->diags.n;
    r->rendered = r->lo;
    for (size_t i = 0; i < r->rd.n_forms; i++) {
        /* definitions of the forms before a part's share are learned, as
         * expanding them would have */
        if ((top && (long)i < r->at_form) || i < r->lo)
            learn_only(r, i);
        else if (!top || (long)i == r->at_form)
            expand_top(r, i);
        if (early && (r->diags.n_errors == 0 || r->x.keep_going))
            render_compact(r, i + 1);
    }
    r->stats.expanded += r->n_sites - first;
    r->stats.memo_hits += r->x.stats.memo_hits - before.memo_hits;
    r->stats.memo_misses += r->x.stats.memo_misses - before.memo_misses;
    r->stats.temporaries += r->x.stats.temporaries - before.temporaries;
}

/* ---- rendering ---- */

/* An impossible state met while printing: a bug, exit status 3. */
static void internal_error(struct run *r, uint32_t pos, const char *what)
{
    diag_add(&r->diags, DIAG_ERROR, pos, pos, "internal",
             "%s; this is a bug in pcexpand %s, please report it", what,
             PCX_VERSION);
    r->internal = true;
}

/* Are temporaries printed as #K=#:x0 / #K# (--gensyms=circle)?  The
 * choice api_config_expander makes. */
static bool gensym_circle(const struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    unsigned g = o->gensyms_given ? (unsigned)o->gensyms
                                  : (unsigned)run_config(r)->gensyms;
    return g == PCX_GENSYMS_CIRCLE;
}

/* The --compact print options for an expansion, its temporaries named as
 * in top-level form `form` (numbering restarts at each new top-level
 * form). */
static struct print_opts compact_opts(struct run *r, size_t form, size_t *begun)
{
    struct gensym *g = expand_gensyms(&r->x);
    if (*begun != form) {
        /* Only circle-mode labels start above the input's own: the scan
         * of the form's text is skipped otherwise, and for a form the
         * reader saw define no label. */
        const struct read_form *top = &r->rd.forms[form];
        gensym_begin_form(g, gensym_circle(r) && top->labels
                                 ? splice_label_floor(r->text, r->len, top->span.start,
                                                      top->span.end)
                                 : 0);
        *begun = form;
    }
    struct print_opts o = print_opts_compact();
    o.sym_text = gensym_text;
    o.sym_ctx = g;
    return o;
}

/* Compact text of one expanded value, temporaries named as in top-level
 * form `form`. */
static bool compact_value(struct run *r, struct buf *b, const struct value *v,
                          size_t form, size_t *begun)
{
    struct print_opts o = compact_opts(r, form, begun);
    /* Most expansions are trees: printed directly, they need none of the
     * layout engine's node tree (the larger share of --compact's time).
     * Circle-mode names say "#K=" once only, so they take the general
     * path, which would otherwise repeat a name asked for before a
     * failed try. */
    if (!gensym_circle(r) && print_tree(r->L, b, v, &o))
        return true;
    struct pretty_opts po = {0};
    po.sym_text = o.sym_text;
    po.sym_ctx = o.sym_ctx;
    return pretty_compact(r->L, &po, b, v);
}

/* The size check of top-level form i's sites (the last ones recorded)
 * that too_large_to_print left to the printer: each site too large is
 * reported and forgotten, as expand_top does.  True when none is. */
static bool sites_fit(struct run *r, size_t i)
{
    size_t k = r->n_sites, kept;
    while (k > 0 && r->sites[k - 1].form == i)
        k--;
    for (kept = k; k < r->n_sites; k++) {
        struct run_site *s = &r->sites[k];
        const char *why = measured_cost(r, s->expansion, false);
        if (why)
            too_large(r, s->orig, s->head, why);
        else
            r->sites[kept++] = *s;
    }
    bool fit = kept == r->n_sites;
    r->n_sites = kept;
    return fit;
}

/* Expanded top-level form i into r->out; false (with a diagnostic) when
 * it cannot be printed.  When the printing checks its size, the fast
 * printer tries first with a bound.  Each site's expansion is in the
 * text, nested no deeper than there, and each cons print_cost counts
 * in it puts a byte in the text: '(' or the space before its element,
 * or for the two conses of a #'X `X ,X ,@X form the prefix.  So a text
 * of PRINT_BUDGET / 2 bytes within PRINT_FAST_DEPTH levels proves every
 * site small; only what the fast printer gives up on is measured. */
static bool compact_form(struct run *r, size_t i)
{
    if (size_checked_by_printing(r)) {
        struct print_opts o = compact_opts(r, i, &r->begun);
        if (print_tree_fast(r->L, &r->out, r->forms[i], &o, PRINT_BUDGET / 2))
            return true;
        if (!sites_fit(r, i))
            return false;
    }
    if (compact_value(r, &r->out, r->forms[i], i, &r->begun))
        return true;
    internal_error(r, r->rd.forms[i].span.start, "the expansion contains itself");
    return false;
}

/* --compact: each top-level form on one line, canonical (cli.md 4.3);
 * with --at only the form that holds the selected one. */
static void render_compact(struct run *r, size_t upto)
{
    if (!r->nl)
        r->nl = r->eol ? r->eol : splice_crlf(r->text, r->len) ? "\r\n" : "\n";
    for (size_t i = r->rendered; i < upto; i++) {
        r->rendered = i + 1;
        if (r->at_form >= 0 && (size_t)r->at_form != i)
            continue;
        /* A form with nothing expanded prints as read: the printer also
         * copes with circular data, which the layout engine refuses. */
        if (!r->expanding || r->forms[i] == r->rd.forms[i].v) {
            /* (a form printed as read has no sites: this keeps the size
             * check's promise whatever the expander did) */
            if (size_checked_by_printing(r) && !sites_fit(r, i))
                return;
            /* print_tree is print_value without its check for data
             * inside itself, which is most of its cost on deep code.
             * What is not a tree prints with print-circle labels, so
             * that data read with #N= labels reads back the same; a form
             * read without labels is a tree however deep (the reader's
             * conses are fresh), and needs no table of what it holds. */
            struct print_opts po = print_opts_compact();
            if (!print_tree(r->L, &r->out, r->forms[i], &po)) {
                struct print_opts pc = po;
                pc.circle = true;
                if (r->rd.forms[i].labels)
                    print_value(r->L, &r->out, r->forms[i], &pc);
                else
                    print_known_tree(r->L, &r->out, r->forms[i], &po);
            }
        } else if (!compact_form(r, i)) {
            return;
        }
        buf_puts(&r->out, r->nl);
    }
}

/* --compact records: each site's expansion on one line. */
static bool compact_texts(struct run *r, struct splice_text *texts)
{
    size_t begun = SIZE_MAX;
    for (size_t i = 0; i < r->n_sites; i++) {
        struct buf b;
        buf_init(&b, r->a);
        if (!compact_value(r, &b, r->sites[i].expansion, r->sites[i].form,
                           &begun))
            return false;
        texts[i].text = b.len ? b.data : "";
        texts[i].len = b.len;
    }
    return true;
}

static const struct value *site_origin(void *ctx, const struct value *v)
{
    return expand_origin(ctx, v);
}

static const struct value *site_clause(void *ctx, const struct value *v)
{
    return expand_clause_of(ctx, v);
}

static const struct value *site_rider(void *ctx, const struct value *clause)
{
    return expand_rider_of(ctx, clause);
}

static void site_begin_form(void *ctx, unsigned label_floor)
{
    gensym_begin_form(expand_gensyms(ctx), label_floor);
}

/* Must the top-level form of sites [lo, hi) (all of its sites) be
 * printed whole?  When one of them defines a read label (#N=) and the
 * text kept around them refers to one (#N#): a replaced form is printed
 * without the label, and the kept #N# would have no #N= to read.  Only a
 * form the reader saw define a label is lexed again. */
static bool label_crosses_sites(const struct run *r, size_t lo, size_t hi)
{
    const struct read_form *top = &r->rd.forms[r->sites[lo].form];
    if (!top->labels)
        return false;
    bool defines = false, refers = false, def, ref;
    uint32_t kept = top->span.start;
    for (size_t i = lo; i < hi; i++) {
        struct span sp;
        if (!read_origin_span(&r->rd, r->sites[i].orig, &sp))
            continue;
        splice_labels(r->text, r->len, sp.start, sp.end, &def, &ref);
        defines = defines || def;
        splice_labels(r->text, r->len, kept, sp.start, &def, &ref);
        refers = refers || ref;
        kept = sp.end;
    }
    splice_labels(r->text, r->len, kept, top->span.end, &def, &ref);
    refers = refers || ref;
    return defines && refers;
}

/* The sites to splice: r's, except that a top-level form whose kept text
 * refers to a label one of its sites defines is replaced whole (its
 * expansion printed in one piece, every use of the labelled object with
 * it).  Texts for records need r's sites as they are (want_texts).  The
 * sites of a form are consecutive (text order). */
static struct splice_site *splice_sites(struct run *r, bool want_texts, size_t *n)
{
    struct splice_site *ss = ARENA_NEWN(r->a, struct splice_site, r->n_sites + 1);
    size_t k = 0;
    for (size_t i = 0, j; i < r->n_sites; i = j) {
        size_t f = r->sites[i].form;
        for (j = i; j < r->n_sites && r->sites[j].form == f; j++)
            ;
        if (!want_texts && label_crosses_sites(r, i, j)) {
            ss[k++] = (struct splice_site){r->rd.forms[f].v, r->forms[f]};
            continue;
        }
        for (size_t q = i; q < j; q++)
            ss[k++] = (struct splice_site){r->sites[q].orig, r->sites[q].expansion};
    }
    *n = k;
    return ss;
}

/* Default mode: the input bytes, the replaced forms printed in their
 * place by the splicer (cli.md 4.1, 4.2), the kept text changed by the
 * edits (--add-requires); texts (may be NULL) get what replaced each
 * site. */
static bool splice_into(struct run *r, struct buf *b, struct splice_text *texts,
                        const struct splice_edit *edits, size_t n_edits)
{
    size_t n_ss;
    struct splice_site *ss = splice_sites(r, texts != NULL, &n_ss);
    struct splice_in in = {0};
    in.L = r->L;
    in.text = r->text;
    in.len = r->len;
    in.start = r->share_lo; /* a part prints its share only */
    in.src = &r->rd;
    in.sites = ss;
    in.n_sites = n_ss;
    in.pretty.width = (int)run_width(r);
    const struct config *cfg = run_config(r);
    _Static_assert(sizeof(struct config_indent) == sizeof(struct pretty_indent) &&
                       offsetof(struct config_indent, spec) ==
                           offsetof(struct pretty_indent, spec),
                   "config_indent is laid out as pretty_indent (io/config.h)");
    in.pretty.user = (const struct pretty_indent *)cfg->indent;
    in.pretty.n_user = cfg->n_indent;
    in.pretty.sym_text = gensym_text;
    in.pretty.sym_ctx = expand_gensyms(&r->x);
    in.origin = site_origin;
    in.clause_of = site_clause;
    in.rider_of = site_rider;
    in.origin_ctx = &r->x;
    in.begin_form = site_begin_form;
    in.begin_ctx = &r->x;
    in.edits = edits;
    in.n_edits = n_edits;
    in.newline = r->eol;
    return splice_source(&in, b, texts);
}

/* Keep of r->out only the output of the text [start, end): the text
 * around it has no replaced form, so it is copied unchanged, and that
 * output is what lies between the same prefix and suffix. */
static void keep_between(struct run *r, size_t start, size_t end)
{
    size_t stop = r->out.len - (r->len - end);
    memmove(r->out.data, r->out.data + start, stop - start);
    r->out.len = stop - start;
    r->out.data[r->out.len] = 0;
}

static void render_default(struct run *r)
{
    size_t n_edits = 0;
    const struct splice_edit *edits =
        r->cx->o.add_requires && r->expanding && !r->form_only
            ? api_requires_edits(r, &n_edits)
            : NULL;
    if (r->n_sites == 0 && n_edits == 0)
        buf_put(&r->out, r->text + r->share_lo, r->len - r->share_lo);
    else if (!splice_into(r, &r->out, NULL, edits, n_edits))
        return internal_error(r, 0, "an expansion cannot be printed");
    if (!r->form_only || r->at_form < 0)
        return;
    /* Only the selected top-level form. */
    struct span sp = r->rd.forms[r->at_form].span;
    keep_between(r, sp.start, sp.end);
}

/* --format=yaml|json: the texts that replaced the sites, then records. */
static void render_records(struct run *r)
{
    struct splice_text *texts = ARENA_NEWN(r->a, struct splice_text,
                                           r->n_sites + 1);
    struct buf scratch;
    buf_init(&scratch, r->a);
    bool ok = r->cx->o.compact ? compact_texts(r, texts)
                               : r->n_sites == 0 || splice_into(r, &scratch, texts, NULL, 0);
    if (!ok)
        return internal_error(r, 0, "an expansion cannot be printed");
    out_records(r, texts);
}

/* The output is about one to three times the input: room for twice the
 * input up front spares most of the doubling copies (room never written
 * costs nothing). */
static void reserve_output(struct run *r)
{
    if (!r->out.cap) /* a part prints its share only */
        buf_reserve(&r->out, 2 * (r->len - r->share_lo) + 64);
}

/* Is each top-level form printed as soon as it is expanded?  For plain
 * --compact output of the whole file: forms are printed in order and
 * independently.  Output made before an error is dropped (expand_stage). */
static bool render_early(const struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    bool plain = !o->dump && !o->explain && o->format == PCX_FORMAT_LISP && o->compact;
    bool whole = r->at_form < 0 && r->select_nth < 0 && !r->select_defun;
    return plain && whole;
}

static void render(struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    if (o->dump || o->explain || o->format != PCX_FORMAT_LISP) {
        /* one dump, explanation or record per replaced form: none without
         * expansion */
        if (r->expanding && o->explain)
            out_explain(r);
        else if (r->expanding && o->dump)
            out_dumps(r);
        else if (r->expanding)
            render_records(r);
    } else {
        reserve_output(r);
        if (o->compact)
            render_compact(r, r->rd.n_forms);
        else
            render_default(r);
    }
}

/* Diagnostics, sorted, positioned in the whole input, rendered. */
void run_render_diagnostics(struct run *r)
{
    config_filter_diags(run_config(r), &r->diags);
    diag_sort(&r->diags);
    report_render(&r->msgs, &r->src, &r->diags, &r->cx->rep);
}

struct source_pos run_pos(struct run *r, uint32_t off)
{
    return source_pos(&r->src, off);
}

/* Is the output the input's text with forms replaced (cli.md 4.1)? */
static bool plain_text(const struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    return !o->dump && !o->explain && !o->compact && o->format == PCX_FORMAT_LISP;
}

void run_stages(struct run *r)
{
    /* --compact's progress through this text (a stream runs several) */
    r->rendered = 0;
    r->begun = SIZE_MAX;
    r->nl = NULL;
    if (coding_stage(r) && read_stage(r)) {
        r->expanding = expanding(r);
        if (r->expanding)
            expand_stage(r);
        /* the libraries that Lisp output calls */
        const struct pcx_options *o = &r->cx->o;
        bool lisp = !o->dump && !o->explain && o->format == PCX_FORMAT_LISP;
        if (r->expanding && lisp && (r->diags.n_errors == 0 || keeps_going(r)))
            api_requires_scan(r);
        /* a part's are said by its whole run; a stretch of standard input
         * is a whole run, even when it reads definitions before it */
        if (!r->parts || r->stretch)
            api_requires_note(r);
        /* a part that did not read the text before its share needed a
         * definition it may have held: the input runs in one piece */
        if (r->parts > 1 && r->read_lo > 0 && r->x.missed)
            r->split_failed = true;
        if (r->diags.n_errors == 0 || keeps_going(r)) {
            render(r);
            r->made = true;
        }
    } else if (keeps_going(r) && plain_text(r) && !r->split_failed) {
        /* the input cannot be read: it is its own output, unchanged */
        buf_put(&r->out, r->text + r->share_lo, r->len - r->share_lo);
        r->made = true;
    }
}

void run_text(struct run *r)
{
    run_stages(r);
    run_render_diagnostics(r);
}

void run_input(struct run *r)
{
    if (!load(r))
        return;
    unsigned n = api_split_threads(r);
    if (n)
        api_split_run(r, n);
    else
        run_text(r);
}

bool run_writes(const struct run *r)
{
    if (r->internal || r->oom)
        return false;
    return !run_failed(r) || (r->made && keeps_going(r));
}

bool run_temp_like(const struct value_symbol *s, const char *prefix)
{
    size_t n = strlen(prefix);
    size_t skip = s->len > 0 && s->name[0] == '_';
    return s->len >= n + skip && memcmp(s->name + skip, prefix, n) == 0;
}


bool run_failed(const struct run *r)
{
    return r->diags.n_errors > 0 ||
           (r->cx->o.werror && r->diags.n_warnings > 0);
}
