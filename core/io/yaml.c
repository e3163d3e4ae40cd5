/* yaml.c - the libfyaml boundary: YAML text <-> yaml_node trees (yaml.h).
 *
 * Parsing runs libfyaml twice over the same text: once to measure the
 * tree and the errors, once to copy them into memory taken from the arena
 * in between, so that running out of arena memory (a longjmp) can never
 * strand a libfyaml document.  Emitting is done here, not by libfyaml's
 * emitter: for scalars it creates, 0.7.12 drops leading spaces and leaves
 * "#foo" and "" unquoted (verified), and quoting is the whole difficulty.
 */
#include "io/yaml.h"

#include <libfyaml.h>
#include <stdio.h>
#include <string.h>

/* ---- parsing ---- */

/* One error found while copying or reported by libfyaml. */
struct yerr {
    int line, col;      /* 1-based, columns in characters; line 0: use pos */
    uint32_t pos;       /* byte offset when line is 0 */
    const char *msg;
};

/* The two passes over a document: counting (fill false) and copying. */
struct walk {
    bool fill;
    size_t n_nodes, n_kids, n_text, n_errs; /* used so far */
    struct yaml_node *nodes;  /* fill: room for the counts of pass 1 */
    struct yaml_node **kids;
    char *text;
    struct yerr *errs;
    struct yaml_node scratch; /* written to while counting */
};

static struct yaml_node *take_node(struct walk *w)
{
    w->n_nodes++;
    if (!w->fill)
        return memset(&w->scratch, 0, sizeof w->scratch);
    return memset(&w->nodes[w->n_nodes - 1], 0, sizeof *w->nodes);
}

/* Copy of n bytes plus NUL from the text block (NULL while counting). */
static char *take_text(struct walk *w, const char *p, size_t n)
{
    w->n_text += n + 1;
    if (!w->fill)
        return NULL;
    char *t = w->text + w->n_text - n - 1;
    memcpy(t, p, n);
    t[n] = 0;
    return t;
}

static void add_err(struct walk *w, uint32_t pos, const char *msg)
{
    if (w->fill)
        w->errs[w->n_errs] = (struct yerr){0, 0, pos, msg};
    w->n_errs++;
}

static uint32_t token_pos(struct fy_token *t, uint32_t fallback)
{
    const struct fy_mark *m = t ? fy_token_start_mark(t) : NULL;
    return m ? (uint32_t)m->input_pos : fallback;
}

static enum yaml_style style_of(enum fy_node_style s)
{
    switch (s) {
    case FYNS_SINGLE_QUOTED: return YAML_STYLE_SINGLE;
    case FYNS_DOUBLE_QUOTED: return YAML_STYLE_DOUBLE;
    case FYNS_LITERAL: return YAML_STYLE_LITERAL;
    case FYNS_FOLDED: return YAML_STYLE_FOLDED;
    default: return YAML_STYLE_PLAIN;
    }
}

static struct yaml_node *copy_node(struct walk *w, struct fy_node *fn,
                                   uint32_t fallback);

static void copy_scalar(struct walk *w, struct fy_node *fn,
                        struct yaml_node *y, uint32_t fallback)
{
    struct fy_token *t = fy_node_get_scalar_token(fn);
    size_t len = 0;
    const char *p = t ? fy_node_get_scalar(fn, &len) : NULL;
    y->pos = token_pos(t, fallback);
    if (!p) {
        y->kind = YAML_NULL;
        y->text = take_text(w, "", 0);
        return;
    }
    y->kind = YAML_SCALAR;
    y->style = style_of(fy_node_get_style(fn));
    y->text = take_text(w, p, len);
    y->len = len;
}

/* Room for n children (NULL while counting). */
static struct yaml_node **take_kids(struct walk *w, size_t n)
{
    w->n_kids += n;
    return w->fill ? w->kids + w->n_kids - n : NULL;
}

static void copy_seq(struct walk *w, struct fy_node *fn, struct yaml_node *y,
                     uint32_t fallback)
{
    size_t n = (size_t)fy_node_sequence_item_count(fn);
    struct yaml_node **kids = take_kids(w, n);
    void *it = NULL;
    struct fy_node *c;
    uint32_t pos = fallback;
    for (size_t i = 0; i < n && (c = fy_node_sequence_iterate(fn, &it)); i++) {
        struct yaml_node *k = copy_node(w, c, pos);
        pos = k->pos;
        if (kids)
            kids[i] = k;
        if (i == 0)
            fallback = pos;
    }
    y->kind = YAML_SEQ;
    y->kids = kids;
    y->n = y->cap = n;
    y->pos = fallback;
}

static void copy_map(struct walk *w, struct fy_node *fn, struct yaml_node *y,
                     uint32_t fallback)
{
    size_t n = (size_t)fy_node_mapping_item_count(fn);
    struct yaml_node **kids = take_kids(w, 2 * n);
    void *it = NULL;
    struct fy_node_pair *pr;
    for (size_t i = 0; i < n && (pr = fy_node_mapping_iterate(fn, &it)); i++) {
        struct fy_node *kn = fy_node_pair_key(pr);
        struct yaml_node *k = copy_node(w, kn, fallback);
        if (kn && !fy_node_is_scalar(kn))
            add_err(w, k->pos, "a mapping key must be a scalar");
        struct yaml_node *v = copy_node(w, fy_node_pair_value(pr), k->pos);
        if (kids && k->kind == YAML_NULL) /* "? " has no position of its own */
            k->pos = v->pos;
        if (kids) {
            kids[2 * i] = k;
            kids[2 * i + 1] = v;
        }
        if (i == 0)
            fallback = k->pos;
    }
    y->kind = YAML_MAP;
    y->kids = kids;
    y->n = y->cap = n;
    y->pos = fallback;
}

/* The node for fn (NULL fn: an empty value).  Recursion is bounded by
 * libfyaml's own depth limit (64 levels), checked while parsing. */
static struct yaml_node *copy_node(struct walk *w, struct fy_node *fn,
                                   uint32_t fallback)
{
    struct yaml_node *y = take_node(w);
    y->pos = fallback;
    if (!fn) {
        y->kind = YAML_NULL;
        y->text = take_text(w, "", 0);
    } else if (fy_node_is_alias(fn)) {
        copy_scalar(w, fn, y, fallback);
        add_err(w, y->pos > 0 ? y->pos - 1 : 0, /* at the '*' */
                "aliases are not supported here");
    } else if (fy_node_is_sequence(fn)) {
        copy_seq(w, fn, y, fallback);
    } else if (fy_node_is_mapping(fn)) {
        copy_map(w, fn, y, fallback);
    } else {
        copy_scalar(w, fn, y, fallback);
    }
    return w->fill ? y : &w->scratch;
}

/* Errors libfyaml collected. */
static void copy_fy_errors(struct walk *w, struct fy_diag *diag)
{
    void *it = NULL;
    struct fy_diag_error *e;
    while ((e = fy_diag_errors_iterate(diag, &it)) != NULL) {
        if (e->type < FYET_ERROR)
            continue;
        const char *msg = e->msg ? e->msg : "invalid YAML";
        char *t = take_text(w, msg, strlen(msg));
        if (w->fill)
            w->errs[w->n_errs] = (struct yerr){e->line, e->column, 0, t};
        w->n_errs++;
    }
}

/* A document after the first: libfyaml would build the first alone and
 * drop the rest unseen. */
static void check_one_document(struct walk *w, struct fy_parser *fyp)
{
    struct fy_event *ev = fy_parser_parse(fyp);
    if (ev && ev->type == FYET_DOCUMENT_START) {
        const struct fy_mark *m = fy_event_start_mark(ev);
        add_err(w, m ? (uint32_t)m->input_pos : 0,
                "a second YAML document: the file must hold exactly one");
    }
    fy_parser_event_free(fyp, ev);
}

/* One pass: parse s with libfyaml, walk the document, release it.
 * Duplicate keys are found afterwards (find_duplicates), in linear time:
 * libfyaml compares each new key with every earlier one. */
static bool pass(struct walk *w, const struct source *s, struct yaml_node **root)
{
    struct fy_diag_cfg dc;
    fy_diag_cfg_default(&dc);
    dc.fp = NULL;
    struct fy_diag *diag = fy_diag_create(&dc);
    if (!diag)
        return false;
    fy_diag_set_collect_errors(diag, true);
    struct fy_parse_cfg cfg = {0};
    cfg.flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG | FYPCF_ALLOW_DUPLICATE_KEYS;
    cfg.diag = diag;
    struct fy_parser *fyp = fy_parser_create(&cfg);
    if (!fyp || fy_parser_set_string(fyp, (const char *)s->text, s->len) != 0) {
        fy_parser_destroy(fyp);
        fy_diag_destroy(diag);
        return false;
    }
    struct fy_document *doc = fy_parse_load_document(fyp);
    if (doc)
        check_one_document(w, fyp);
    struct fy_node *top = doc ? fy_document_root(doc) : NULL;
    copy_fy_errors(w, diag);
    *root = copy_node(w, top, 0);
    fy_parse_document_destroy(fyp, doc);
    fy_parser_destroy(fyp);
    fy_diag_destroy(diag);
    return true;
}

/* ---- duplicate keys ---- */

static uint64_t key_hash(const struct yaml_node *k)
{
    uint64_t h = 14695981039346656037u ^ (uint64_t)k->kind;
    for (size_t i = 0; i < k->len; i++)
        h = (h ^ (unsigned char)k->text[i]) * 1099511628211u;
    return h;
}

static _Thread_local size_t key_compares;

size_t yaml_key_compares(void)
{
    return key_compares;
}

/* Keys are the same when both are empty values or scalars of the same
 * text, however quoted (as libfyaml compares them). */
static bool same_key(const struct yaml_node *x, const struct yaml_node *y)
{
    key_compares++;
    return x->kind == y->kind && x->len == y->len &&
           memcmp(x->text, y->text, x->len) == 0;
}

/* An error at each key of map equal to an earlier one, through a hash
 * table of its keys in slot (cap slots, a power of two at least twice the
 * number of keys, cleared here). */
static size_t map_duplicates(const struct yaml_node *map, const struct yaml_node **slot,
                             size_t cap, struct diag_list *d, const char *code)
{
    size_t found = 0;
    memset(slot, 0, cap * sizeof *slot);
    for (size_t i = 0; i < map->n; i++) {
        const struct yaml_node *k = map->kids[2 * i];
        if (k->kind != YAML_SCALAR && k->kind != YAML_NULL)
            continue; /* reported as a non-scalar key */
        size_t j = (size_t)key_hash(k) & (cap - 1);
        while (slot[j] && !same_key(slot[j], k))
            j = (j + 1) & (cap - 1);
        if (slot[j]) {
            diag_add(d, DIAG_ERROR, k->pos, k->pos, code, "duplicate key");
            found++;
        } else {
            slot[j] = k;
        }
    }
    return found;
}

static size_t slots_for(size_t keys)
{
    size_t cap = 4;
    while (cap < 2 * keys)
        cap *= 2;
    return cap;
}

/* Duplicate keys of every mapping of the n nodes (all of the tree), with
 * one table, as large as the largest mapping needs. */
static size_t find_duplicates(struct arena *a, const struct yaml_node *nodes, size_t n,
                              struct diag_list *d, const char *code)
{
    size_t most = 0, found = 0;
    for (size_t i = 0; i < n; i++)
        if (nodes[i].kind == YAML_MAP && nodes[i].n > most)
            most = nodes[i].n;
    if (most < 2)
        return 0;
    const struct yaml_node **slot = ARENA_NEWN(a, const struct yaml_node *, slots_for(most));
    for (size_t i = 0; i < n; i++)
        if (nodes[i].kind == YAML_MAP && nodes[i].n > 1)
            found += map_duplicates(&nodes[i], slot, slots_for(nodes[i].n), d, code);
    return found;
}

/* Byte offset of 1-based line and character column in s. */
static uint32_t offset_of(const struct source *s, int line, int col)
{
    size_t i = 0;
    for (int l = 1; l < line && i < s->len; i++)
        if (s->text[i] == '\n')
            l++;
    for (int c = 1; c < col && i < s->len && s->text[i] != '\n'; c++)
        i += (size_t)source_char_len(s->text + i, s->len - i);
    return (uint32_t)(i < s->len ? i : s->len);
}

/* libfyaml's wording, with a hint where its position misleads. */
static const struct {
    const char *contains; /* part of libfyaml's message */
    const char *hint;
} hints[] = {
    {"cannot start with", "quote the value or use a | block"},
    {"without a closing", "the bracket that is not closed is earlier in the file"},
};

static void report(struct diag_list *d, const struct source *s,
                   const char *code, const struct yerr *e)
{
    uint32_t pos = e->line > 0 ? offset_of(s, e->line, e->col) : e->pos;
    const char *hint = NULL;
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
        if (strstr(e->msg, hints[i].contains))
            hint = hints[i].hint;
    diag_add(d, DIAG_ERROR, pos, pos, code, "%s%s%s", e->msg,
             hint ? "; " : "", hint ? hint : "");
}

static int utf8_len(const unsigned char *p, size_t n);
static unsigned code_point(const char *t, size_t k);

/* Is the character of l bytes at t outside YAML's printable set (C0 and
 * C1 controls but tab, line ends and NEL; DEL; U+FFFE, U+FFFF)? */
static bool control_char(const uint8_t *t, int l)
{
    unsigned c = code_point((const char *)t, (size_t)l);
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
           (c >= 0x7F && c <= 0x9F && c != 0x85) || c == 0xFFFE || c == 0xFFFF;
}

/* Where line i's first byte that is not a space is, within the line. */
static size_t line_indent(const uint8_t *t, size_t i, size_t n)
{
    size_t k = i;
    while (k < n && (t[k] == ' ' || t[k] == '\t'))
        k++;
    return k;
}

/* What libfyaml (0.7.12) would not read faithfully, found before it
 * reads: a NUL (taken for the end of the text), bytes that are not
 * UTF-8 (after a '%', they make it loop forever), control characters
 * (in a | block, it returned other bytes than the text's), and a
 * directive line ('%' first) after the document began (dropped without
 * a word).
 * Returns the message, *at its offset; NULL when there is none. */
static const char *unreadable(const struct source *s, uint32_t *at)
{
    const uint8_t *t = s->text;
    bool content = false;
    for (size_t i = 0; i < s->len;) {
        size_t k = line_indent(t, i, s->len);
        if (k == i && t[i] == '%' && content) {
            *at = (uint32_t)i;
            return "a line starting with '%' is a YAML directive, which may only "
                   "come before the document; indent or quote the text";
        }
        content |= k < s->len && t[k] != '\n' && t[k] != '\r' && t[k] != '#' &&
                   !(k == i && t[i] == '%');
        for (i = k; i < s->len && t[i] != '\n'; ) {
            int l = utf8_len(t + i, s->len - i);
            *at = (uint32_t)i;
            if (t[i] == 0)
                return "a NUL byte: a YAML file is text (nothing after it would be read)";
            if (l == 0)
                return "a byte that is not UTF-8: a YAML file is UTF-8 text";
            if (control_char(t + i, l))
                return "a control character: a YAML file is printable text (write "
                       "it as an escape in a double-quoted string)";
            i += (size_t)l;
        }
        i += i < s->len; /* the line end */
    }
    return NULL;
}

bool yaml_parse(struct arena *a, struct source *s, const char *code,
                struct diag_list *d, struct yaml_node **root)
{
    uint32_t at;
    const char *why = unreadable(s, &at);
    if (why) {
        diag_add(d, DIAG_ERROR, at, at, code, "%s", why);
        *root = yaml_new(a, YAML_NULL);
        return false;
    }
    struct walk count = {0};
    if (!pass(&count, s, root)) {
        diag_add(d, DIAG_ERROR, 0, 0, code, "cannot parse YAML: out of memory");
        return false;
    }
    struct walk w = {.fill = true};
    w.nodes = ARENA_NEWN(a, struct yaml_node, count.n_nodes);
    w.kids = ARENA_NEWN(a, struct yaml_node *, count.n_kids + 1);
    w.text = arena_alloc(a, count.n_text + 1);
    w.errs = ARENA_NEWN(a, struct yerr, count.n_errs + 1);
    if (!pass(&w, s, root) || w.n_nodes != count.n_nodes ||
        w.n_text != count.n_text || w.n_errs != count.n_errs) {
        diag_add(d, DIAG_ERROR, 0, 0, code, "cannot parse YAML: out of memory");
        return false;
    }
    for (size_t i = 0; i < w.n_errs; i++)
        report(d, s, code, &w.errs[i]);
    size_t dups = find_duplicates(a, w.nodes, w.n_nodes, d, code);
    return w.n_errs == 0 && dups == 0;
}

const struct yaml_node *yaml_map_get(const struct yaml_node *map,
                                     const char *key)
{
    if (!map || map->kind != YAML_MAP)
        return NULL;
    for (size_t i = 0; i < map->n; i++) {
        const struct yaml_node *k = map->kids[2 * i];
        if (k->kind == YAML_SCALAR && strcmp(k->text, key) == 0)
            return map->kids[2 * i + 1];
    }
    return NULL;
}

/* Start of the line after skipping `lines` line ends from p. */
static size_t skip_lines(const struct source *s, size_t p, size_t lines)
{
    for (; lines > 0 && p < s->len; p++)
        lines -= s->text[p] == '\n';
    return p;
}

/* Offset of byte off of a | block's value: the value's line k is the
 * text's line k after the start, shifted right by the block indentation
 * (what the first non-empty line has more than its value). */
static uint32_t literal_offset(const struct source *s,
                               const struct yaml_node *n, size_t off)
{
    size_t line = 0, col = off, first = strspn(n->text, "\n");
    for (size_t i = 0; i < off && i < n->len; i++)
        if (n->text[i] == '\n') {
            line++;
            col = off - i - 1;
        }
    size_t p = skip_lines(s, n->pos, first), spaces = 0;
    while (p + spaces < s->len && s->text[p + spaces] == ' ')
        spaces++;
    size_t own = strspn(n->text + first, " ");
    size_t indent = spaces > own ? spaces - own : 0;
    p = skip_lines(s, n->pos, line);
    size_t room = 0;
    while (p + room < s->len && s->text[p + room] != '\n')
        room++;
    return (uint32_t)(p + (indent + col <= room ? indent + col : room));
}

uint32_t yaml_text_offset(const struct source *s, const struct yaml_node *n,
                          size_t off)
{
    if (n->kind != YAML_SCALAR)
        return n->pos;
    if (n->style == YAML_STYLE_LITERAL)
        return literal_offset(s, n, off);
    if (memchr(n->text, '\n', n->len) || n->pos + off > s->len)
        return n->pos;
    return n->pos + (uint32_t)off;
}

/* ---- building ---- */

static struct yaml_node *scalar(struct arena *a, enum yaml_style st,
                                const char *text, size_t len)
{
    struct yaml_node *y = ARENA_NEW(a, struct yaml_node);
    y->kind = YAML_SCALAR;
    y->style = st;
    y->text = arena_strndup(a, text, len);
    y->len = len;
    return y;
}

struct yaml_node *yaml_new_string(struct arena *a, const char *text, size_t len)
{
    return scalar(a, YAML_STYLE_AUTO, text, len);
}

struct yaml_node *yaml_new_plain(struct arena *a, const char *text)
{
    return scalar(a, YAML_STYLE_PLAIN, text, strlen(text));
}

struct yaml_node *yaml_new_int(struct arena *a, long long v)
{
    char t[32];
    snprintf(t, sizeof t, "%lld", v);
    return yaml_new_plain(a, t);
}

struct yaml_node *yaml_new_bool(struct arena *a, bool v)
{
    return yaml_new_plain(a, v ? "true" : "false");
}

struct yaml_node *yaml_new(struct arena *a, enum yaml_kind kind)
{
    struct yaml_node *y = ARENA_NEW(a, struct yaml_node);
    y->kind = kind;
    return y;
}

static void grow(struct arena *a, struct yaml_node *y, size_t need)
{
    if (need <= y->cap)
        return;
    size_t cap = y->cap ? y->cap * 2 : 8;
    while (cap < need)
        cap *= 2;
    y->kids = arena_grow(a, y->kids, y->cap * sizeof *y->kids,
                         cap * sizeof *y->kids);
    y->cap = cap;
}

void yaml_push(struct arena *a, struct yaml_node *seq, struct yaml_node *v)
{
    grow(a, seq, seq->n + 1);
    seq->kids[seq->n++] = v;
}

void yaml_put(struct arena *a, struct yaml_node *map, const char *key,
              struct yaml_node *v)
{
    grow(a, map, 2 * (map->n + 1));
    map->kids[2 * map->n] = yaml_new_string(a, key, strlen(key));
    map->kids[2 * map->n + 1] = v;
    map->n++;
}

/* ---- emitting ---- */

/* Length of the valid UTF-8 sequence at p (at most U+10FFFF, no
 * surrogates, shortest form), or 0. */
static int utf8_len(const unsigned char *p, size_t n)
{
    static const struct { unsigned char lead_mask, lead, len; unsigned min; } forms[] = {
        {0x80, 0x00, 1, 0}, {0xE0, 0xC0, 2, 0x80}, {0xF0, 0xE0, 3, 0x800},
        {0xF8, 0xF0, 4, 0x10000},
    };
    for (size_t f = 0; f < 4; f++) {
        if ((p[0] & forms[f].lead_mask) != forms[f].lead)
            continue;
        size_t len = forms[f].len;
        unsigned c = p[0] & (unsigned char)~forms[f].lead_mask;
        for (size_t i = 1; i < len; i++) {
            if (i >= n || (p[i] & 0xC0) != 0x80)
                return 0;
            c = c << 6 | (p[i] & 0x3F);
        }
        bool ok = c >= forms[f].min && c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF);
        return ok ? (int)len : 0;
    }
    return 0;
}

/* ASCII-only, so that no locale can change the answer. */
static bool same_word_icase(const char *w, const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = t[i] >= 'A' && t[i] <= 'Z' ? (char)(t[i] - 'A' + 'a') : t[i];
        if (w[i] != c)
            return false;
    }
    return w[n] == 0;
}

/* Words YAML 1.1 or 1.2 reads as something other than a string. */
static bool special_word(const char *t, size_t n)
{
    static const char *const words[] = {
        "false", "n", "no", "null", "off", "on", "true", "y", "yes", "~",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && same_word_icase(words[i], t, n))
            return true;
    return false;
}

/* Does t read back as the same string when written plain (in block and
 * flow context)? */
static bool plain_ok(const char *t, size_t n)
{
    static const char more[] = "-_./*+<>=!?$%&^~@";
    unsigned char c0 = (unsigned char)t[0];
    if (n == 0 || special_word(t, n))
        return false;
    if (!((c0 | 0x20) >= 'a' && (c0 | 0x20) <= 'z') && c0 != '_' && c0 != '/')
        return false;
    for (size_t i = 1; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        bool alnum = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
        if (!alnum && (c == 0 || !strchr(more, c))) /* strchr finds the NUL */
            return false;
    }
    return true;
}

/* The code point of the valid UTF-8 sequence of k bytes at t. */
static unsigned code_point(const char *t, size_t k)
{
    static const unsigned char lead_bits[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    unsigned c = (unsigned char)t[0] & lead_bits[k];
    for (size_t i = 1; i < k; i++)
        c = c << 6 | ((unsigned char)t[i] & 0x3F);
    return c;
}

/* Characters YAML may treat as line breaks or a byte order mark
 * (U+0085, U+2028, U+2029, U+FEFF): never written as themselves. */
static bool line_break_like(const char *t, size_t k)
{
    unsigned c = code_point(t, k);
    return c == 0x85 || c == 0x2028 || c == 0x2029 || c == 0xFEFF;
}

/* Can t be a | block: several lines of printable UTF-8, no CR? */
static bool literal_ok(const char *t, size_t n)
{
    if (!memchr(t, '\n', n) || strspn(t, "\n") == n)
        return false;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)t[i];
        int k = utf8_len((const unsigned char *)t + i, n - i);
        if (k == 0 || (c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
            return false;
        if (k > 1 && line_break_like(t + i, (size_t)k))
            return false;
        i += (size_t)k;
    }
    return true;
}

/* Escape of a byte that cannot appear as itself in a quoted string. */
static void put_escape(struct buf *b, unsigned char c, bool json)
{
    static const char from[] = "\"\\\n\t\r\b\f", to[] = "\"\\ntrbf";
    const char *p = c ? strchr(from, c) : NULL;
    if (p)
        buf_printf(b, "\\%c", to[p - from]);
    else
        buf_printf(b, json ? "\\u%04x" : "\\x%02x", c);
}

/* A double-quoted string (YAML) or a JSON string. */
static void put_quoted(struct buf *b, const char *t, size_t n, bool json)
{
    buf_putc(b, '"');
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)t[i];
        int k = utf8_len((const unsigned char *)t + i, n - i);
        if (k == 0) {
            buf_puts(b, "\\ufffd");
            i++;
        } else if (c < 0x20 || c == 0x7F || c == '"' || c == '\\') {
            put_escape(b, c, json);
            i++;
        } else if (!json && k > 1 && line_break_like(t + i, (size_t)k)) {
            buf_printf(b, "\\u%04x", code_point(t + i, (size_t)k));
            i += (size_t)k;
        } else {
            buf_put(b, t + i, (size_t)k);
            i += (size_t)k;
        }
    }
    buf_putc(b, '"');
}

static void put_indent(struct buf *b, int n)
{
    for (int i = 0; i < n; i++)
        buf_putc(b, ' ');
}

/* A | block whose lines are indented by indent, two columns more than
 * the key or item it is the value of.  The indentation indicator counts
 * from there (it was once written as indent, which reads back only for
 * a top-level key). */
static void put_literal(struct buf *b, const char *t, size_t n, int indent)
{
    size_t trailing = 0;
    while (trailing < n && t[n - 1 - trailing] == '\n')
        trailing++;
    buf_putc(b, '|');
    if (t[0] == ' ' || t[0] == '\n')
        buf_putc(b, '2');
    buf_puts(b, trailing == 0 ? "-" : trailing == 1 ? "" : "+");
    buf_putc(b, '\n');
    size_t end = trailing ? n - 1 : n; /* the lines, without the last break */
    for (size_t i = 0;; ) {
        size_t k = 0;
        while (i + k < end && t[i + k] != '\n')
            k++;
        if (k > 0)
            put_indent(b, indent);
        buf_put(b, t + i, k);
        buf_putc(b, '\n');
        if (i + k >= end)
            break;
        i += k + 1;
    }
}

/* A scalar in block context at indentation indent (for | blocks). */
static void put_scalar(struct buf *b, const struct yaml_node *y, int indent,
                       bool flow, bool json)
{
    if (y->kind == YAML_NULL)
        buf_puts(b, "null");
    else if (y->style == YAML_STYLE_PLAIN)
        buf_put(b, y->text, y->len);
    else if (!json && plain_ok(y->text, y->len))
        buf_put(b, y->text, y->len);
    else if (!json && !flow && literal_ok(y->text, y->len))
        put_literal(b, y->text, y->len, indent);
    else
        put_quoted(b, y->text, y->len, json);
}

static void emit_json(struct buf *b, const struct yaml_node *y)
{
    if (y->kind != YAML_SEQ && y->kind != YAML_MAP)
        return put_scalar(b, y, 0, true, true);
    bool map = y->kind == YAML_MAP;
    buf_putc(b, map ? '{' : '[');
    for (size_t i = 0; i < y->n; i++) {
        if (i)
            buf_putc(b, ',');
        if (map) {
            put_quoted(b, y->kids[2 * i]->text, y->kids[2 * i]->len, true);
            buf_putc(b, ':');
        }
        emit_json(b, map ? y->kids[2 * i + 1] : y->kids[i]);
    }
    buf_putc(b, map ? '}' : ']');
}

static bool all_scalars(const struct yaml_node *seq)
{
    for (size_t i = 0; i < seq->n; i++)
        if (seq->kids[i]->kind == YAML_SEQ || seq->kids[i]->kind == YAML_MAP)
            return false;
    return true;
}

/* Empty collections and lists of scalars go on the key's line. */
static bool inline_value(const struct yaml_node *y)
{
    return (y->kind != YAML_SEQ && y->kind != YAML_MAP) || y->n == 0 ||
           (y->kind == YAML_SEQ && all_scalars(y));
}

static void emit_block(struct buf *b, const struct yaml_node *y, int indent);

/* A value after "key:" or "- ", finishing the line. */
static void emit_inline(struct buf *b, const struct yaml_node *y, int indent)
{
    if (y->kind == YAML_MAP)
        buf_puts(b, "{}");
    else if (y->kind != YAML_SEQ)
        put_scalar(b, y, indent, false, false);
    else {
        buf_putc(b, '[');
        for (size_t i = 0; i < y->n; i++) {
            buf_puts(b, i ? ", " : "");
            put_scalar(b, y->kids[i], indent, true, false);
        }
        buf_putc(b, ']');
    }
    if (b->len == 0 || b->data[b->len - 1] != '\n')
        buf_putc(b, '\n');
}

static void emit_pairs(struct buf *b, const struct yaml_node *y, int indent,
                       bool first_indented)
{
    for (size_t i = 0; i < y->n; i++) {
        const struct yaml_node *k = y->kids[2 * i], *v = y->kids[2 * i + 1];
        if (i > 0 || first_indented)
            put_indent(b, indent);
        put_scalar(b, k, indent, true, false);
        buf_putc(b, ':');
        if (inline_value(v)) {
            buf_putc(b, ' ');
            emit_inline(b, v, indent + 2);
        } else {
            buf_putc(b, '\n');
            emit_block(b, v, indent + 2);
        }
    }
}

/* A collection in block style, each line indented by indent. */
static void emit_block(struct buf *b, const struct yaml_node *y, int indent)
{
    if (y->kind == YAML_MAP)
        return emit_pairs(b, y, indent, true);
    for (size_t i = 0; i < y->n; i++) {
        const struct yaml_node *v = y->kids[i];
        put_indent(b, indent);
        if (!inline_value(v) && v->kind == YAML_SEQ) { /* a list of lists */
            buf_puts(b, "-\n");
            emit_block(b, v, indent + 2);
            continue;
        }
        buf_puts(b, "- ");
        if (v->kind == YAML_MAP && v->n > 0)
            emit_pairs(b, v, indent + 2, false);
        else
            emit_inline(b, v, indent + 2);
    }
}

void yaml_emit(struct buf *out, const struct yaml_node *root,
               enum yaml_emit_mode mode)
{
    if (mode == YAML_EMIT_JSON)
        emit_json(out, root);
    else if (inline_value(root))
        emit_inline(out, root, 2);
    else
        emit_block(out, root, 0);
}
