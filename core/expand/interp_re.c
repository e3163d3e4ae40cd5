/* interp_re.c - the evaluator's regular expressions (interp.h).
 *
 * Macro bodies that build names (s.el's s-dashed-words, as lsp-mode's
 * definer macro calls it) match and replace with Emacs regexps on
 * strings.  This file gives the evaluator string-match, string-match-p,
 * match-beginning, match-end, match-string, replace-match on a string,
 * replace-regexp-in-string, split-string and regexp-quote, as Emacs 30.1
 * computes them, for the part of the regexp syntax and of the character
 * set where the answer does not depend on tables the evaluator does not
 * have:
 *
 *  - syntax: ordinary characters, `.', bracket expressions (ranges,
 *    negation, [:CLASS:]), `*' `+' `?' and their non-greedy forms,
 *    \{M,N\}, \( \) \(?: \), \|, back references \N, ^ $ \` \' (where
 *    Emacs takes them as anchors), \w \W \b \B \< \> \s- \sw \S- \Sw;
 *    anything else (\_< \c \= numbered groups...) is refused;
 *  - characters: case folding (case-fold-search, t unless let-bound)
 *    only of ASCII text; the classes only of ASCII characters; word and
 *    whitespace syntax (\w, \b, [:word:], [:space:], and the case
 *    conversion of replace-match) only where Emacs's standard syntax
 *    table and Emacs Lisp's agree (not $ % LF CR), as the table in
 *    effect when Emacs expands a macro is not known.
 * A refused regexp or string makes the call INTERP_UNKNOWN, naming the
 * call, never a guess.
 *
 * A regexp is parsed into a tree, compiled into a program of a
 * backtracking machine (first alternative first, greedy first: Emacs's
 * order), and run with an explicit stack: no recursion on the text, each
 * step counted against the evaluation's limits.  The match data of the
 * last string-match lives in the evaluation (save-match-data restores
 * it); reading it before any match in the evaluation is refused.
 */
#include "expand/interp_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
/* Groups of one regexp, nesting of its parse, size of its program. */
#define RE_MAX_GROUPS 64
#define RE_MAX_NESTING 100
#define RE_MAX_PROGRAM 20000

/* ---- characters ---- */

enum re_class {
    RC_ALNUM = 1 << 0, RC_ALPHA = 1 << 1, RC_BLANK = 1 << 2, RC_CNTRL = 1 << 3,
    RC_DIGIT = 1 << 4, RC_GRAPH = 1 << 5, RC_LOWER = 1 << 6, RC_PRINT = 1 << 7,
    RC_PUNCT = 1 << 8, RC_SPACE = 1 << 9, RC_UPPER = 1 << 10, RC_WORD = 1 << 11,
    RC_XDIGIT = 1 << 12, RC_ASCII = 1 << 13, RC_NONASCII = 1 << 14,
};

/* Classes whose answer is the syntax table's. */
#define RC_SYNTAX (RC_SPACE | RC_WORD)

static const struct {
    const char *name;
    unsigned bit;
} class_names[] = {
    {"alnum", RC_ALNUM}, {"alpha", RC_ALPHA}, {"ascii", RC_ASCII}, {"blank", RC_BLANK},
    {"cntrl", RC_CNTRL}, {"digit", RC_DIGIT}, {"graph", RC_GRAPH}, {"lower", RC_LOWER},
    {"nonascii", RC_NONASCII}, {"print", RC_PRINT}, {"punct", RC_PUNCT},
    {"space", RC_SPACE}, {"upper", RC_UPPER}, {"word", RC_WORD}, {"xdigit", RC_XDIGIT},
};

static bool lower_p(uint32_t c)
{
    return c >= 'a' && c <= 'z';
}

static bool upper_p(uint32_t c)
{
    return c >= 'A' && c <= 'Z';
}

static uint32_t to_lower(uint32_t c)
{
    return upper_p(c) ? c + 32 : c;
}

static uint32_t to_upper(uint32_t c)
{
    return lower_p(c) ? c - 32 : c;
}

static bool digit_p(uint32_t c)
{
    return c >= '0' && c <= '9';
}

/* Word syntax of an ASCII character where both tables agree. */
static bool word_p(uint32_t c)
{
    return lower_p(c) || upper_p(c) || digit_p(c);
}

/* Characters whose word or whitespace syntax differs between the two
 * tables (or is not known: not ASCII). */
static bool syntax_unknown(uint32_t c)
{
    return c >= 0x80 || c == '\n' || c == '\r' || c == '$' || c == '%';
}

/* Does the ASCII character c belong to one of the classes of bits? */
static bool in_classes(uint32_t c, unsigned bits)
{
    bool alpha = lower_p(c) || upper_p(c);
    unsigned have = (alpha || digit_p(c) ? RC_ALNUM : 0) | (alpha ? RC_ALPHA : 0) |
                    (c == ' ' || c == '\t' ? RC_BLANK : 0) |
                    (c < 0x20 || c == 0x7F ? RC_CNTRL : 0) | (digit_p(c) ? RC_DIGIT : 0) |
                    (c > 0x20 && c < 0x7F ? RC_GRAPH : 0) | (lower_p(c) ? RC_LOWER : 0) |
                    (c >= 0x20 && c < 0x7F ? RC_PRINT : 0) |
                    (c > 0x20 && c < 0x7F && !alpha && !digit_p(c) ? RC_PUNCT : 0) |
                    (c == ' ' || c == '\t' || c == '\f' ? RC_SPACE : 0) |
                    (upper_p(c) ? RC_UPPER : 0) | (word_p(c) ? RC_WORD : 0) |
                    (digit_p(c) || (to_lower(c) >= 'a' && to_lower(c) <= 'f') ? RC_XDIGIT
                                                                               : 0) |
                    (c < 0x80 ? RC_ASCII : RC_NONASCII);
    return (have & bits) != 0;
}

/* ---- growing arrays ---- */

/* Room for one more element in *v (n used, *cap allocated, each size
 * bytes), charged to the evaluation: doubles it when full.  false after
 * a failure. */
static bool room(struct interp_st *s, void **v, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return true;
    size_t ncap = *cap ? *cap * 2 : 16;
    if (!interp_charge(s, (ncap - *cap) * size))
        return false;
    *v = arena_grow(s->L->a, *v, *cap * size, ncap * size);
    *cap = ncap;
    return true;
}

/* ---- the tree ---- */

enum re_kind { RN_CHAR, RN_ANY, RN_SET, RN_GROUP, RN_CAT, RN_ALT, RN_REPEAT, RN_ASSERT,
               RN_SYNTAX, RN_BACKREF };

enum re_assert { RA_BOL, RA_EOL, RA_BOS, RA_EOS, RA_WORDB, RA_NWORDB, RA_WSTART, RA_WEND };

struct re_set {
    uint32_t (*ranges)[2];
    size_t n;
    unsigned classes;
    bool negated;
};

struct re_node {
    enum re_kind kind;
    uint32_t c;            /* CHAR: the character; ASSERT: which; SYNTAX: w or - */
    bool negated, greedy;  /* SYNTAX: \W \S; REPEAT: greedy */
    int group;             /* GROUP: its number (-1: shy); BACKREF: the group */
    long min, max;         /* REPEAT: bounds (max -1: none) */
    struct re_set *set;    /* SET */
    struct re_node **kids; /* GROUP, REPEAT: one; CAT, ALT: n */
    size_t n;
};

/* What a regexp needs of the text, to refuse what is not known. */
struct re_needs {
    bool syntax;  /* word or whitespace syntax */
    bool classes; /* character classes */
};

struct re_parse {
    struct interp_st *s;
    const uint32_t *p;
    size_t i, n;
    int groups;          /* groups opened so far */
    bool closed[RE_MAX_GROUPS + 1];
    unsigned depth;
    const char *error;   /* invalid-regexp message */
    bool refused;        /* a construct the evaluator does not have */
    struct re_needs needs;
};

static struct re_node *node(struct re_parse *ps, enum re_kind kind)
{
    if (!interp_charge(ps->s, sizeof(struct re_node)))
        return NULL;
    struct re_node *nd = ARENA_NEW(ps->s->L->a, struct re_node);
    nd->kind = kind;
    return nd;
}

/* kids[0..n) of a node, charged. */
static bool set_kids(struct re_parse *ps, struct re_node *nd, struct re_node **kids, size_t n)
{
    if (!interp_charge(ps->s, (n + 1) * sizeof *kids))
        return false;
    nd->kids = ARENA_NEWN(ps->s->L->a, struct re_node *, n + 1);
    if (n) /* an empty branch has no list at all */
        memcpy(nd->kids, kids, n * sizeof *kids);
    nd->n = n;
    return true;
}

static bool at(const struct re_parse *ps, size_t k, uint32_t c)
{
    return ps->i + k < ps->n && ps->p[ps->i + k] == c;
}

/* "\\X" at the current position? */
static bool at_escape(const struct re_parse *ps, uint32_t c)
{
    return at(ps, 0, '\\') && at(ps, 1, c);
}

static struct re_node *fail_parse(struct re_parse *ps, const char *error)
{
    if (!ps->error && !ps->refused)
        ps->error = error;
    return NULL;
}

static struct re_node *refuse_parse(struct re_parse *ps)
{
    if (!ps->error)
        ps->refused = true;
    return NULL;
}

static struct re_node *parse_alt(struct re_parse *ps);

/* A [:NAME:] at the current position (after its "[:"), its bit. */
static bool class_name(struct re_parse *ps, unsigned *bit)
{
    size_t start = ps->i;
    while (ps->i < ps->n && !(at(ps, 0, ':') && at(ps, 1, ']')))
        ps->i++;
    if (ps->i >= ps->n)
        return false;
    char name[16];
    size_t len = ps->i - start;
    ps->i += 2;
    if (len >= sizeof name)
        return false;
    for (size_t k = 0; k < len; k++)
        name[k] = ps->p[start + k] < 0x80 ? (char)ps->p[start + k] : '?';
    name[len] = 0;
    for (size_t k = 0; k < NELEM(class_names); k++)
        if (strcmp(class_names[k].name, name) == 0) {
            *bit = class_names[k].bit;
            return true;
        }
    return false;
}

static bool add_range(struct re_parse *ps, struct re_set *set, size_t *cap, uint32_t lo,
                      uint32_t hi)
{
    if (!room(ps->s, (void **)&set->ranges, set->n, cap, sizeof *set->ranges))
        return false;
    set->ranges[set->n][0] = lo;
    set->ranges[set->n++][1] = hi;
    return true;
}

/* A bracket expression, after its "[". */
static struct re_node *parse_set(struct re_parse *ps)
{
    struct re_node *nd = node(ps, RN_SET);
    struct re_set *set = nd && interp_charge(ps->s, sizeof *set)
                             ? ARENA_NEW(ps->s->L->a, struct re_set)
                             : NULL;
    if (!set)
        return NULL;
    nd->set = set;
    size_t cap = 0;
    if (at(ps, 0, '^')) {
        set->negated = true;
        ps->i++;
    }
    for (bool first = true; ps->i < ps->n && (first || !at(ps, 0, ']')); first = false) {
        if (at(ps, 0, '[') && at(ps, 1, ':')) {
            unsigned bit;
            ps->i += 2;
            if (!class_name(ps, &bit))
                return fail_parse(ps, "Invalid character class name");
            set->classes |= bit;
            ps->needs.classes = true;
            ps->needs.syntax = ps->needs.syntax || (bit & RC_SYNTAX);
            continue;
        }
        uint32_t lo = ps->p[ps->i++], hi = lo;
        if (at(ps, 0, '-') && ps->i + 1 < ps->n && !at(ps, 1, ']')) {
            hi = ps->p[ps->i + 1];
            ps->i += 2;
        }
        if (!add_range(ps, set, &cap, lo, hi))
            return NULL;
    }
    if (ps->i >= ps->n)
        return fail_parse(ps, "Unmatched [ or [^");
    ps->i++;
    return nd;
}

/* \( \(?: ... \), after the backslash and parenthesis. */
static struct re_node *parse_group(struct re_parse *ps)
{
    struct re_node *nd = node(ps, RN_GROUP);
    if (!nd)
        return NULL;
    nd->group = -1;
    if (at(ps, 0, '?')) {
        if (!at(ps, 1, ':'))
            return refuse_parse(ps); /* \(?N: ... \) */
        ps->i += 2;
    } else {
        if (ps->groups >= RE_MAX_GROUPS)
            return refuse_parse(ps);
        nd->group = ++ps->groups;
    }
    if (ps->depth >= RE_MAX_NESTING)
        return refuse_parse(ps);
    ps->depth++;
    struct re_node *inner = parse_alt(ps);
    ps->depth--;
    if (!inner)
        return NULL;
    if (!at_escape(ps, ')'))
        return fail_parse(ps, "Unmatched ( or \\(");
    ps->i += 2;
    if (nd->group > 0)
        ps->closed[nd->group] = true;
    return set_kids(ps, nd, &inner, 1) ? nd : NULL;
}

static struct re_node *assertion(struct re_parse *ps, enum re_assert a, bool syntax)
{
    struct re_node *nd = node(ps, RN_ASSERT);
    if (nd)
        nd->c = a;
    ps->needs.syntax = ps->needs.syntax || syntax;
    return nd;
}

static struct re_node *literal(struct re_parse *ps, uint32_t c)
{
    struct re_node *nd = node(ps, RN_CHAR);
    if (nd)
        nd->c = c;
    return nd;
}

/* \sC or \SC: whitespace (- or space) and word syntax only. */
static struct re_node *syntax_class(struct re_parse *ps, bool negated)
{
    if (ps->i >= ps->n)
        return fail_parse(ps, "Invalid syntax designator");
    uint32_t c = ps->p[ps->i++];
    if (c != '-' && c != ' ' && c != 'w')
        return refuse_parse(ps);
    struct re_node *nd = node(ps, RN_SYNTAX);
    if (nd) {
        nd->c = c == 'w' ? 'w' : '-';
        nd->negated = negated;
    }
    ps->needs.syntax = true;
    return nd;
}

/* The atom after a backslash. */
static struct re_node *parse_escape(struct re_parse *ps)
{
    if (ps->i >= ps->n)
        return fail_parse(ps, "Trailing backslash");
    uint32_t c = ps->p[ps->i++];
    switch (c) {
    case '(':
        return parse_group(ps);
    case 'w':
    case 'W': {
        struct re_node *nd = node(ps, RN_SYNTAX);
        if (nd) {
            nd->c = 'w';
            nd->negated = c == 'W';
        }
        ps->needs.syntax = true;
        return nd;
    }
    case 's':
    case 'S':
        return syntax_class(ps, c == 'S');
    case '`':
        return assertion(ps, RA_BOS, false);
    case '\'':
        return assertion(ps, RA_EOS, false);
    case 'b':
        return assertion(ps, RA_WORDB, true);
    case 'B':
        return assertion(ps, RA_NWORDB, true);
    case '<':
        return assertion(ps, RA_WSTART, true);
    case '>':
        return assertion(ps, RA_WEND, true);
    case '_':
    case 'c':
    case 'C':
    case '=':
        return refuse_parse(ps);
    default:
        break;
    }
    if (c >= '1' && c <= '9') {
        if ((int)(c - '0') > ps->groups || !ps->closed[c - '0'])
            return fail_parse(ps, "Invalid back reference");
        struct re_node *nd = node(ps, RN_BACKREF);
        if (nd)
            nd->group = (int)(c - '0');
        return nd;
    }
    return literal(ps, c);
}

/* Where ^ is an anchor: at the start of the regexp or of an alternative
 * or group. */
static bool anchor_start(const struct re_parse *ps)
{
    size_t i = ps->i;
    return i == 0 || (i >= 2 && ps->p[i - 2] == '\\' && (ps->p[i - 1] == '(' || ps->p[i - 1] == '|')) ||
           (i >= 4 && ps->p[i - 4] == '\\' && ps->p[i - 3] == '(' && ps->p[i - 2] == '?' &&
            ps->p[i - 1] == ':');
}

/* Where $ is an anchor: at the end of the regexp, an alternative or a
 * group. */
static bool anchor_end(const struct re_parse *ps)
{
    return ps->i + 1 == ps->n || (ps->i + 2 < ps->n && ps->p[ps->i + 1] == '\\' &&
                                  (ps->p[ps->i + 2] == ')' || ps->p[ps->i + 2] == '|'));
}

static struct re_node *parse_atom(struct re_parse *ps)
{
    uint32_t c = ps->p[ps->i++];
    switch (c) {
    case '.':
        return node(ps, RN_ANY);
    case '[':
        return parse_set(ps);
    case '\\':
        return parse_escape(ps);
    case '^':
        ps->i--;
        if (anchor_start(ps)) {
            ps->i++;
            return assertion(ps, RA_BOL, false);
        }
        ps->i++;
        return literal(ps, c);
    case '$':
        ps->i--;
        if (anchor_end(ps)) {
            ps->i++;
            return assertion(ps, RA_EOL, false);
        }
        ps->i++;
        return literal(ps, c);
    default:
        return literal(ps, c);
    }
}

/* \{M\}, \{M,\}, \{,N\}, \{M,N\} after "\{": the bounds. */
static bool parse_interval(struct re_parse *ps, long *min, long *max)
{
    long v[2] = {0, -1};
    int k = 0;
    bool digits = false, comma = false;
    for (; ps->i < ps->n && !at_escape(ps, '}'); ps->i++) {
        uint32_t c = ps->p[ps->i];
        if (digit_p(c) && (k == 0 || comma)) {
            v[k] = (v[k] < 0 ? 0 : v[k]) * 10 + (long)(c - '0');
            digits = true;
            if (v[k] > 0xFFFF)
                return false;
        } else if (c == ',' && !comma) {
            comma = true;
            k = 1;
        } else {
            return false;
        }
    }
    if (ps->i >= ps->n)
        return false;
    ps->i += 2;
    *min = v[0];
    *max = comma ? v[1] : v[0];
    return (digits || comma) && (*max < 0 || *max >= *min);
}

static struct re_node *repeat(struct re_parse *ps, struct re_node *kid, long min, long max,
                              bool greedy)
{
    struct re_node *nd = node(ps, RN_REPEAT);
    if (!nd || !set_kids(ps, nd, &kid, 1))
        return NULL;
    nd->min = min;
    nd->max = max;
    nd->greedy = greedy;
    return nd;
}

/* A run of * + ? after an atom is one operator, as Emacs reads it: a ?
 * after an operator makes it non-greedy, any * or + allows many, any * or
 * ? allows none. */
static struct re_node *postfix_run(struct re_parse *ps, struct re_node *atom)
{
    bool zero = false, many = false, greedy = true;
    while (ps->i < ps->n && (at(ps, 0, '*') || at(ps, 0, '+') || at(ps, 0, '?'))) {
        uint32_t c = ps->p[ps->i++];
        if (c == '?' && (zero || many)) {
            greedy = false;
        } else {
            zero = zero || c != '+';
            many = many || c != '?';
        }
    }
    return repeat(ps, atom, zero ? 0 : 1, many ? -1 : 1, greedy);
}

/* The postfix operators after an atom. */
static struct re_node *parse_postfix(struct re_parse *ps, struct re_node *atom)
{
    while (atom && ps->i < ps->n) {
        long min, max;
        if (at(ps, 0, '*') || at(ps, 0, '+') || at(ps, 0, '?')) {
            atom = postfix_run(ps, atom);
        } else if (at_escape(ps, '{')) {
            ps->i += 2;
            if (!parse_interval(ps, &min, &max))
                return fail_parse(ps, "Invalid content of \\{\\}");
            atom = repeat(ps, atom, min, max, true);
        } else {
            break;
        }
    }
    return atom;
}

/* The nodes of a concatenation or an alternation, as they are parsed. */
struct re_nodes {
    struct re_node **v;
    size_t n, cap;
};

static bool add_node(struct re_parse *ps, struct re_nodes *l, struct re_node *nd)
{
    if (!nd || !room(ps->s, (void **)&l->v, l->n, &l->cap, sizeof *l->v))
        return false;
    l->v[l->n++] = nd;
    return true;
}

/* A node of kind with the nodes of l as its children. */
static struct re_node *parent(struct re_parse *ps, enum re_kind kind, struct re_nodes *l)
{
    struct re_node *nd = node(ps, kind);
    return nd && set_kids(ps, nd, l->v, l->n) ? nd : NULL;
}

/* One alternative: atoms and their postfix operators, up to \| or \). */
static struct re_node *parse_branch(struct re_parse *ps)
{
    struct re_nodes l = {0};
    while (ps->i < ps->n && !at_escape(ps, '|') && !at_escape(ps, ')') && !ps->s->failed) {
        uint32_t c = ps->p[ps->i];
        struct re_node *atom;
        bool leading = l.n == 0 || (l.n == 1 && l.v[0]->kind == RN_ASSERT && l.v[0]->c == RA_BOL);
        if ((c == '*' || c == '+' || c == '?') && leading) { /* nothing to repeat */
            ps->i++;
            atom = literal(ps, c);
        } else {
            atom = parse_atom(ps);
        }
        /* after an anchor ^, * + ? are ordinary (they take the branch above) */
        if (atom && !(atom->kind == RN_ASSERT && atom->c == RA_BOL))
            atom = parse_postfix(ps, atom);
        if (!add_node(ps, &l, atom))
            return NULL;
    }
    return parent(ps, RN_CAT, &l);
}

static struct re_node *parse_alt(struct re_parse *ps)
{
    struct re_nodes l = {0};
    for (;;) {
        if (!add_node(ps, &l, parse_branch(ps)))
            return NULL;
        if (!at_escape(ps, '|'))
            break;
        ps->i += 2;
    }
    return l.n == 1 ? l.v[0] : parent(ps, RN_ALT, &l);
}

/* ---- the program ---- */

enum re_op { OP_CHAR, OP_ANY, OP_SET, OP_SPLIT, OP_JMP, OP_SAVE, OP_MARK, OP_PROGRESS,
             OP_ASSERT, OP_SYNTAX, OP_BACKREF, OP_MATCH };

struct re_insn {
    enum re_op op;
    bool negated;
    uint32_t c;
    int x, y;               /* SPLIT: first, second; JMP: target; SAVE...: slot */
    const struct re_set *set;
};

struct re_prog {
    struct re_insn *code;
    size_t n, cap;
    int groups;             /* numbered groups */
    int regs;               /* MARK registers */
    struct re_needs needs;
    bool too_big;
};

static int emit(struct interp_st *s, struct re_prog *p, struct re_insn in)
{
    if (p->n >= RE_MAX_PROGRAM) {
        p->too_big = true;
        return 0;
    }
    if (!room(s, (void **)&p->code, p->n, &p->cap, sizeof *p->code))
        return 0;
    p->code[p->n] = in;
    return (int)p->n++;
}

static bool gen(struct interp_st *s, struct re_prog *p, const struct re_node *nd,
                unsigned depth);

/* X{min,max}: min copies, then max-min optional ones or a loop.  The
 * loop ends after an iteration that matched the empty string (whose
 * groups are kept), as Emacs's on_failure_jump_loop does. */
static bool gen_repeat(struct interp_st *s, struct re_prog *p, const struct re_node *nd,
                       unsigned depth)
{
    for (long i = 0; i < nd->min; i++)
        if (!gen(s, p, nd->kids[0], depth))
            return false;
    if (nd->max < 0) {
        int loop = emit(s, p, (struct re_insn){.op = OP_SPLIT});
        int reg = p->regs++;
        emit(s, p, (struct re_insn){.op = OP_MARK, .x = reg});
        if (!gen(s, p, nd->kids[0], depth))
            return false;
        int progress = emit(s, p, (struct re_insn){.op = OP_PROGRESS, .x = reg});
        emit(s, p, (struct re_insn){.op = OP_JMP, .x = loop});
        if (p->too_big || s->failed)
            return false;
        int body = loop + 1, out = (int)p->n;
        p->code[loop].x = nd->greedy ? body : out;
        p->code[loop].y = nd->greedy ? out : body;
        p->code[progress].y = out;
        return true;
    }
    size_t first = p->n;
    for (long i = nd->min; i < nd->max; i++) {
        emit(s, p, (struct re_insn){.op = OP_SPLIT});
        if (!gen(s, p, nd->kids[0], depth))
            return false;
    }
    if (p->too_big || s->failed)
        return false;
    for (size_t k = first; k < p->n; k++)
        if (p->code[k].op == OP_SPLIT && p->code[k].x == 0 && p->code[k].y == 0) {
            int body = (int)k + 1, out = (int)p->n;
            p->code[k].x = nd->greedy ? body : out;
            p->code[k].y = nd->greedy ? out : body;
        }
    return true;
}

/* A | B | C: each but the last after a SPLIT, each but the last ending
 * with a jump past the others. */
static bool gen_alt(struct interp_st *s, struct re_prog *p, const struct re_node *nd,
                    unsigned depth)
{
    size_t first = p->n;
    for (size_t i = 0; i < nd->n; i++) {
        int split = i + 1 < nd->n ? emit(s, p, (struct re_insn){.op = OP_SPLIT}) : -1;
        if (!gen(s, p, nd->kids[i], depth))
            return false;
        if (split >= 0) {
            emit(s, p, (struct re_insn){.op = OP_JMP, .x = -1});
            if (p->too_big || s->failed)
                return false;
            p->code[split].x = split + 1;
            p->code[split].y = (int)p->n;
        }
    }
    for (size_t k = first; k < p->n; k++)
        if (p->code[k].op == OP_JMP && p->code[k].x == -1)
            p->code[k].x = (int)p->n;
    return !p->too_big && !s->failed;
}

static bool gen(struct interp_st *s, struct re_prog *p, const struct re_node *nd,
                unsigned depth)
{
    if (depth > 2 * RE_MAX_NESTING || p->too_big || s->failed || !interp_tick(s)) {
        p->too_big = p->too_big || depth > 2 * RE_MAX_NESTING;
        return false;
    }
    switch (nd->kind) {
    case RN_CHAR:
        emit(s, p, (struct re_insn){.op = OP_CHAR, .c = nd->c});
        break;
    case RN_ANY:
        emit(s, p, (struct re_insn){.op = OP_ANY});
        break;
    case RN_SET:
        emit(s, p, (struct re_insn){.op = OP_SET, .set = nd->set});
        break;
    case RN_ASSERT:
        emit(s, p, (struct re_insn){.op = OP_ASSERT, .c = nd->c});
        break;
    case RN_SYNTAX:
        emit(s, p, (struct re_insn){.op = OP_SYNTAX, .c = nd->c, .negated = nd->negated});
        break;
    case RN_BACKREF:
        emit(s, p, (struct re_insn){.op = OP_BACKREF, .x = nd->group});
        break;
    case RN_GROUP:
        if (nd->group > 0)
            emit(s, p, (struct re_insn){.op = OP_SAVE, .x = 2 * nd->group});
        if (!gen(s, p, nd->kids[0], depth + 1))
            return false;
        if (nd->group > 0)
            emit(s, p, (struct re_insn){.op = OP_SAVE, .x = 2 * nd->group + 1});
        break;
    case RN_CAT:
        for (size_t i = 0; i < nd->n; i++)
            if (!gen(s, p, nd->kids[i], depth + 1))
                return false;
        break;
    case RN_ALT:
        return gen_alt(s, p, nd, depth + 1);
    case RN_REPEAT:
        return gen_repeat(s, p, nd, depth + 1);
    }
    return !p->too_big && !s->failed;
}

/* ---- texts ---- */

struct re_text {
    uint32_t *c;
    long n;
    bool raw; /* a unibyte string with bytes over 0x7F */
};

static bool decode(struct interp_st *s, const struct value *v, struct re_text *t)
{
    const struct value_string *str = &v->u.str;
    if (!interp_charge(s, (str->nchars + 1) * sizeof *t->c))
        return false;
    t->c = ARENA_NEWN(s->L->a, uint32_t, str->nchars + 1);
    t->n = 0;
    t->raw = false;
    for (size_t i = 0; i < str->len;) {
        int len = 1;
        uint32_t c = str->multibyte ? value_char_decode(str->data + i, str->len - i, &len)
                                    : str->data[i];
        t->raw = t->raw || (!str->multibyte && c >= 0x80) || c > 0x10FFFF;
        t->c[t->n++] = c;
        i += (size_t)len;
    }
    return true;
}

/* A compiled regexp and what it is matched with. */
struct re {
    struct re_prog prog;
    struct re_text pattern;
    bool fold;
};

/* What the evaluator does not know of text matched by r: a reason to
 * refuse the call. */
static bool unknown_text(const struct re *r, const struct re_text *t)
{
    if (t->raw || r->pattern.raw)
        return true;
    for (long i = 0; i < t->n; i++) {
        uint32_t c = t->c[i];
        if ((r->prog.needs.syntax && syntax_unknown(c)) ||
            ((r->prog.needs.classes || r->fold) && c >= 0x80))
            return true;
    }
    for (long i = 0; r->fold && i < r->pattern.n; i++)
        if (r->pattern.c[i] >= 0x80)
            return true;
    return false;
}

/* (FN REGEXP ...) as the call the evaluator does not evaluate. */
static struct value *refuse(struct interp_st *s, const char *fn, struct value *regexp)
{
    struct value *call[2] = {intern_cstr(s->L, fn), regexp};
    return interp_unknown(s, interp_list(s, call, 2), false);
}

/* The last regexps compiled, by the identity of their string (a macro
 * body calls the same few many times; Emacs keeps a cache too). */
#define RE_CACHE 16
struct re_cache {
    struct value *regexp[RE_CACHE];
    struct re re[RE_CACHE];
    size_t next;
};

static bool compile_new(struct interp_st *s, const char *fn, struct value *regexp,
                        struct re *r);

/* Compile regexp (a string) for fn: false after a failure (an
 * invalid-regexp signal, or the call refused).  r->fold is the value of
 * case-fold-search now. */
static bool compile(struct interp_st *s, const char *fn, struct value *regexp, struct re *r)
{
    if (!s->re_cache && interp_charge(s, sizeof *s->re_cache))
        s->re_cache = ARENA_NEW(s->L->a, struct re_cache);
    struct re_cache *c = s->re_cache;
    if (!c)
        return false;
    size_t i = 0;
    while (i < RE_CACHE && c->regexp[i] != regexp)
        i++;
    if (i < RE_CACHE) {
        *r = c->re[i];
    } else {
        memset(r, 0, sizeof *r);
        if (!compile_new(s, fn, regexp, r))
            return false;
        c->regexp[c->next] = regexp;
        c->re[c->next] = *r;
        c->next = (c->next + 1) % RE_CACHE;
    }
    struct value *fold = interp_global(s, s->case_fold);
    r->fold = fold && !interp_nilp(s, fold);
    return fold != NULL;
}

static bool compile_new(struct interp_st *s, const char *fn, struct value *regexp,
                        struct re *r)
{
    if (regexp->kind != VK_STRING)
        return interp_wrong_type(s, "stringp", regexp), false;
    if (!decode(s, regexp, &r->pattern))
        return false;
    struct re_parse ps = {.s = s, .p = r->pattern.c, .n = (size_t)r->pattern.n};
    struct re_node *tree = parse_alt(&ps);
    if (tree && ps.i < ps.n)
        tree = fail_parse(&ps, "Unmatched ) or \\)");
    if (s->failed)
        return false;
    if (ps.error) {
        struct value *msg = interp_string(s, ps.error, strlen(ps.error), false);
        return interp_signal_n(s, "invalid-regexp", 1, msg), false;
    }
    r->prog.groups = ps.groups;
    r->prog.needs = ps.needs;
    if (!ps.refused && tree && gen(s, &r->prog, tree, 0))
        emit(s, &r->prog, (struct re_insn){.op = OP_MATCH});
    if (ps.refused || !tree || r->prog.too_big || s->failed) {
        if (!s->failed)
            refuse(s, fn, regexp);
        return false;
    }
    return true;
}

/* ---- matching ---- */

enum re_undo { UNDO_BRANCH, UNDO_SLOT, UNDO_REG };

struct re_frame {
    enum re_undo kind;
    int a;  /* BRANCH: pc; SLOT, REG: which */
    long b; /* BRANCH: position; SLOT, REG: the old value */
};

struct re_run {
    struct interp_st *s;
    const struct re *r;
    const struct re_text *t;
    long *slots, *regs;
    struct re_frame *stack;
    size_t top, cap;
};

static bool push_frame(struct re_run *m, enum re_undo kind, int a, long b)
{
    if (!room(m->s, (void **)&m->stack, m->top, &m->cap, sizeof *m->stack))
        return false;
    m->stack[m->top++] = (struct re_frame){kind, a, b};
    return true;
}

static bool same_char(const struct re_run *m, uint32_t a, uint32_t b)
{
    return a == b || (m->r->fold && to_lower(a) == to_lower(b));
}

static bool set_has(const struct re_set *set, uint32_t c)
{
    for (size_t i = 0; i < set->n; i++)
        if (c >= set->ranges[i][0] && c <= set->ranges[i][1])
            return true;
    return set->classes && c < 0x80 && in_classes(c, set->classes);
}

static bool set_match(const struct re_run *m, const struct re_set *set, uint32_t c)
{
    bool in = set_has(set, c) ||
              (m->r->fold && (set_has(set, to_lower(c)) || set_has(set, to_upper(c))));
    return in != set->negated;
}

static bool word_at(const struct re_run *m, long pos)
{
    return pos >= 0 && pos < m->t->n && word_p(m->t->c[pos]);
}

static bool assert_ok(const struct re_run *m, uint32_t kind, long pos)
{
    const struct re_text *t = m->t;
    bool before = word_at(m, pos - 1), after = word_at(m, pos);
    switch (kind) {
    case RA_BOL:
        return pos == 0 || t->c[pos - 1] == '\n';
    case RA_EOL:
        return pos == t->n || t->c[pos] == '\n';
    case RA_BOS:
        return pos == 0;
    case RA_EOS:
        return pos == t->n;
    case RA_WORDB:
        return pos == 0 || pos == t->n || before != after;
    case RA_NWORDB:
        return !(pos == 0 || pos == t->n || before != after);
    case RA_WSTART:
        return after && !before;
    default:
        return before && !after;
    }
}

/* Group g's text matched again at pos: its end, or -1. */
static long backref(const struct re_run *m, int g, long pos)
{
    long b = m->slots[2 * g], e = m->slots[2 * g + 1];
    if (b < 0 || e < b || pos + (e - b) > m->t->n)
        return -1;
    for (long i = 0; i < e - b; i++)
        if (!same_char(m, m->t->c[b + i], m->t->c[pos + i]))
            return -1;
    return pos + (e - b);
}

/* One instruction at *pc, *pos: false when it fails. */
static bool step(struct re_run *m, int *pc, long *pos)
{
    const struct re_insn *in = &m->r->prog.code[*pc];
    const struct re_text *t = m->t;
    long p = *pos;
    switch (in->op) {
    case OP_CHAR:
    case OP_ANY:
    case OP_SET:
    case OP_SYNTAX:
        if (p >= t->n)
            return false;
        if (in->op == OP_CHAR ? !same_char(m, t->c[p], in->c)
            : in->op == OP_ANY ? t->c[p] == '\n'
            : in->op == OP_SET ? !set_match(m, in->set, t->c[p])
            : (in->c == 'w' ? word_p(t->c[p]) : in_classes(t->c[p], RC_SPACE)) == in->negated)
            return false;
        *pos = p + 1;
        break;
    case OP_SPLIT:
        if (!push_frame(m, UNDO_BRANCH, in->y, p))
            return false;
        *pc = in->x;
        return true;
    case OP_JMP:
        *pc = in->x;
        return true;
    case OP_SAVE:
        if (!push_frame(m, UNDO_SLOT, in->x, m->slots[in->x]))
            return false;
        m->slots[in->x] = p;
        break;
    case OP_MARK:
        if (!push_frame(m, UNDO_REG, in->x, m->regs[in->x]))
            return false;
        m->regs[in->x] = p;
        break;
    case OP_PROGRESS: /* an empty iteration ends the loop */
        if (m->regs[in->x] == p) {
            *pc = in->y;
            return true;
        }
        break;
    case OP_ASSERT:
        if (!assert_ok(m, in->c, p))
            return false;
        break;
    case OP_BACKREF:
        if ((*pos = backref(m, in->x, p)) < 0)
            return false;
        break;
    case OP_MATCH:
        break;
    }
    (*pc)++;
    return true;
}

/* Back to the last untried branch, undoing what was set after it;
 * false when none is left. */
static bool backtrack(struct re_run *m, int *pc, long *pos)
{
    while (m->top > 0) {
        struct re_frame f = m->stack[--m->top];
        if (f.kind == UNDO_SLOT)
            m->slots[f.a] = f.b;
        else if (f.kind == UNDO_REG)
            m->regs[f.a] = f.b;
        else {
            *pc = f.a;
            *pos = f.b;
            return true;
        }
    }
    return false;
}

/* A match starting at start?  The groups' positions in m->slots. */
static bool match_at(struct re_run *m, long start)
{
    size_t n_slots = 2 * ((size_t)m->r->prog.groups + 1);
    for (size_t i = 0; i < n_slots; i++)
        m->slots[i] = -1;
    for (int i = 0; i < m->r->prog.regs; i++)
        m->regs[i] = -1;
    m->top = 0;
    int pc = 0;
    long pos = start;
    for (;;) {
        if (!interp_tick(m->s))
            return false;
        if (m->r->prog.code[pc].op == OP_MATCH) {
            m->slots[0] = start;
            m->slots[1] = pos;
            return true;
        }
        if (!step(m, &pc, &pos) && (m->s->failed || !backtrack(m, &pc, &pos)))
            return false;
    }
}

/* The first match at or after start: its slots (2 per group, group 0
 * the whole match), NULL when there is none or after a failure. */
static long *search(struct interp_st *s, const struct re *r, const struct re_text *t,
                    long start)
{
    size_t n_slots = 2 * ((size_t)r->prog.groups + 1);
    if (!interp_charge(s, (n_slots + (size_t)r->prog.regs + 1) * sizeof(long)))
        return NULL;
    struct re_run m = {s, r, t, ARENA_NEWN(s->L->a, long, n_slots),
                       ARENA_NEWN(s->L->a, long, (size_t)r->prog.regs + 1), NULL, 0, 0};
    for (long pos = start; pos <= t->n && !s->failed; pos++)
        if (match_at(&m, pos))
            return m.slots;
    return NULL;
}

/* ---- the functions ---- */

/* Registers Emacs keeps after a search of a string: at least 30 groups,
 * so that (match-beginning N) of a group the regexp has not is nil. */
#define RE_MIN_REGS 30

static bool want_string(struct interp_st *s, struct value *v)
{
    return v->kind == VK_STRING || (interp_wrong_type(s, "stringp", v), false);
}

/* An optional START argument against a text of n characters (negative:
 * from the end); false after signalling. */
static bool start_of(struct interp_st *s, struct value *string, struct value *v, long n,
                     long *start)
{
    *start = 0;
    if (!v || interp_nilp(s, v))
        return true;
    if (v->kind != VK_INT)
        return interp_wrong_type(s, "integerp", v), false;
    *start = v->u.i < 0 ? n + (long)v->u.i : (long)v->u.i;
    if (*start < 0 || *start > n)
        return interp_signal_n(s, "args-out-of-range", 2, string, v), false;
    return true;
}

static void set_match_data(struct interp_st *s, const struct re *r, const long *slots)
{
    size_t used = 2 * ((size_t)r->prog.groups + 1);
    size_t n = used > 2 * RE_MIN_REGS ? used : 2 * RE_MIN_REGS;
    if (!interp_charge(s, n * sizeof(long)))
        return;
    long *md = ARENA_NEWN(s->L->a, long, n);
    for (size_t i = 0; i < n; i++)
        md[i] = i < used ? slots[i] : -1;
    s->match = md;
    s->n_match = n;
}

/* string-match and string-match-p: the index of the first match of
 * regexp in string from start, or nil; the match data set when keep. */
static struct value *string_match(struct interp_st *s, const char *fn, struct value *regexp,
                                  struct value *string, struct value *start_arg, bool keep)
{
    struct re r;
    struct re_text t;
    long start;
    if (!compile(s, fn, regexp, &r) || !want_string(s, string) || !decode(s, string, &t) ||
        !start_of(s, string, start_arg, t.n, &start))
        return NULL;
    if (unknown_text(&r, &t))
        return refuse(s, fn, regexp);
    long *slots = search(s, &r, &t, start);
    if (s->failed)
        return NULL;
    if (!slots)
        return s->L->nil;
    if (keep)
        set_match_data(s, &r, slots);
    return interp_int(s, slots[0]);
}

static struct value *f_string_match(struct interp_st *s, struct value **a, size_t n)
{
    bool keep = n < 4 || interp_nilp(s, a[3]);
    return string_match(s, "string-match", a[0], a[1], n > 2 ? a[2] : NULL, keep);
}

static struct value *f_string_match_p(struct interp_st *s, struct value **a, size_t n)
{
    return string_match(s, "string-match-p", a[0], a[1], n > 2 ? a[2] : NULL, false);
}

/* Group n of the match data: true with its bounds (-1 when it did not
 * match); false after a failure (no match yet in this evaluation: the
 * match data Emacs has then is not known). */
static bool group(struct interp_st *s, const char *fn, struct value *nv, long *b, long *e)
{
    if (nv->kind != VK_INT)
        return interp_wrong_type(s, "integerp", nv), false;
    if (!s->match || nv->u.i < 0 || (size_t)nv->u.i >= s->n_match / 2)
        return interp_unknown(s, intern_cstr(s->L, fn), false), false;
    *b = s->match[2 * nv->u.i];
    *e = s->match[2 * nv->u.i + 1];
    return true;
}

static struct value *f_match_beginning(struct interp_st *s, struct value **a, size_t n)
{
    long b, e;
    (void)n;
    if (!group(s, "match-beginning", a[0], &b, &e))
        return NULL;
    return b < 0 ? s->L->nil : interp_int(s, b);
}

static struct value *f_match_end(struct interp_st *s, struct value **a, size_t n)
{
    long b, e;
    (void)n;
    if (!group(s, "match-end", a[0], &b, &e))
        return NULL;
    return e < 0 ? s->L->nil : interp_int(s, e);
}

/* (substring string b e) through the evaluator's substring. */
static struct value *substring(struct interp_st *s, struct value *string, long b, long e)
{
    struct value *a[3] = {string, interp_int(s, b), interp_int(s, e)};
    return interp_funcall(s, intern_cstr(s->L, "substring"), a, 3);
}

static struct value *f_match_string(struct interp_st *s, struct value **a, size_t n)
{
    long b, e;
    if (n < 2 || interp_nilp(s, a[1]))
        return interp_unknown(s, intern_cstr(s->L, "match-string"), false); /* a buffer */
    if (!group(s, "match-string", a[0], &b, &e) || !want_string(s, a[1]))
        return NULL;
    return b < 0 ? s->L->nil : substring(s, a[1], b, e);
}

/* How replace-match changes the case of the new text, from the case of
 * the replaced text (Emacs's rule).  false: the text has a character
 * whose case or syntax is not known. */
enum re_case { CASE_KEEP, CASE_ALL_CAPS, CASE_INITIALS };

static bool case_action(const struct re_text *t, long b, long e, enum re_case *out)
{
    bool lower = false, multi = false, nonupper_initial = false, upper = false;
    uint32_t prev = '\n';
    for (long i = b; i < e; i++) {
        uint32_t c = t->c[i];
        if (syntax_unknown(c))
            return false;
        bool in_word = word_p(prev);
        if (lower_p(c)) {
            lower = true;
            nonupper_initial = nonupper_initial || !in_word;
            multi = multi || in_word;
        } else if (upper_p(c)) {
            upper = true;
            multi = multi || in_word;
        } else if (!in_word && word_p(c)) {
            nonupper_initial = true;
        }
        prev = c;
    }
    *out = !lower && multi                 ? CASE_ALL_CAPS
           : !nonupper_initial && multi    ? CASE_INITIALS
           : !nonupper_initial && upper    ? CASE_ALL_CAPS
                                           : CASE_KEEP;
    return true;
}

/* upcase or upcase-initials of the characters of t, in place; false when
 * one is not ASCII or of unknown syntax. */
static bool change_case(struct re_text *t, enum re_case how)
{
    bool in_word = false;
    for (long i = 0; i < t->n; i++) {
        uint32_t c = t->c[i];
        if (syntax_unknown(c))
            return false;
        if (how == CASE_ALL_CAPS || !in_word)
            t->c[i] = to_upper(c);
        in_word = word_p(c);
    }
    return true;
}

struct re_out {
    uint32_t *c;
    long n, cap;
};

static bool put(struct interp_st *s, struct re_out *o, const uint32_t *c, long n)
{
    if (n <= 0)
        return true;
    if (o->n + n > o->cap) {
        long cap = (o->cap + n) * 2;
        if (!interp_charge(s, (size_t)(cap - o->cap) * sizeof *o->c))
            return false;
        o->c = arena_grow(s->L->a, o->c, (size_t)o->cap * sizeof *o->c,
                          (size_t)cap * sizeof *o->c);
        o->cap = cap;
    }
    memcpy(o->c + o->n, c, (size_t)n * sizeof *c);
    o->n += n;
    return true;
}

static struct value *text_string(struct interp_st *s, const uint32_t *c, long n)
{
    struct buf b;
    bool multibyte = false;
    buf_init(&b, s->L->a);
    for (long i = 0; i < n; i++) {
        uint8_t enc[8];
        int len = value_char_encode(c[i], enc);
        buf_put(&b, enc, (size_t)len);
        multibyte = multibyte || c[i] >= 0x80;
    }
    return interp_string(s, b.data, b.len, multibyte);
}

/* The new text with \& \N \\ replaced (not literal), into o; false after
 * a failure.  An unmatched group gives nothing and \? stays, as in
 * Emacs. */
static bool substitute(struct interp_st *s, const struct re_text *nt, struct value *string,
                       const struct re_text *str, bool literal, struct re_out *o)
{
    static const uint32_t backslash_q[2] = {'\\', '?'};
    for (long i = 0; i < nt->n; i++) {
        uint32_t c = nt->c[i];
        if (literal || c != '\\') {
            if (!put(s, o, &c, 1))
                return false;
            continue;
        }
        if (++i >= nt->n)
            return interp_unknown(s, intern_cstr(s->L, "replace-match"), false), false;
        c = nt->c[i];
        long g = c == '&' ? 0 : c >= '1' && c <= '9' ? (long)(c - '0') : -1;
        if (g < 0 && c != '\\' && c != '?')
            return interp_error(s, "Invalid use of `\\' in replacement text"), false;
        if (g < 0) {
            if (!put(s, o, c == '?' ? backslash_q : &c, c == '?' ? 2 : 1))
                return false;
            continue;
        }
        long b = s->match[2 * g], e = s->match[2 * g + 1];
        if (b < 0)
            continue;
        if (e > str->n)
            return interp_signal_n(s, "args-out-of-range", 3, string, interp_int(s, b),
                                   interp_int(s, e)),
                   false;
        if (!put(s, o, str->c + b, e - b))
            return false;
    }
    return true;
}

/* (replace-match NEWTEXT FIXEDCASE LITERAL STRING): of the whole match in
 * STRING, with the match data of the evaluation. */
static struct value *replace_in(struct interp_st *s, struct value *newtext, bool fixedcase,
                                bool literal, struct value *string)
{
    struct re_text nt, str;
    if (!want_string(s, newtext) || !want_string(s, string) || !decode(s, newtext, &nt) ||
        !decode(s, string, &str))
        return NULL;
    if (!s->match)
        return interp_unknown(s, intern_cstr(s->L, "replace-match"), false);
    long b = s->match[0], e = s->match[1];
    if (b < 0 || e > str.n)
        return interp_signal_n(s, "args-out-of-range", 2, interp_int(s, b), interp_int(s, e));
    enum re_case how = CASE_KEEP;
    struct re_out o = {0};
    if ((!fixedcase && !case_action(&str, b, e, &how)) || nt.raw || str.raw)
        return interp_unknown(s, intern_cstr(s->L, "replace-match"), false);
    if (!put(s, &o, str.c, b) || !substitute(s, &nt, string, &str, literal, &o))
        return NULL;
    /* o.c is NULL while nothing has been put (an empty prefix and text). */
    struct re_text mid = {o.c ? o.c + b : NULL, o.n - b, false};
    if (how != CASE_KEEP && !change_case(&mid, how))
        return interp_unknown(s, intern_cstr(s->L, "replace-match"), false);
    if (!put(s, &o, str.c + e, str.n - e))
        return NULL;
    return text_string(s, o.c, o.n);
}

static struct value *f_replace_match(struct interp_st *s, struct value **a, size_t n)
{
    if (n < 4 || interp_nilp(s, a[3]) || (n > 4 && !interp_nilp(s, a[4]) &&
                                         !(a[4]->kind == VK_INT && a[4]->u.i == 0)))
        return interp_unknown(s, intern_cstr(s->L, "replace-match"), false);
    return replace_in(s, a[0], n > 1 && !interp_nilp(s, a[1]), n > 2 && !interp_nilp(s, a[2]),
                      a[3]);
}

/* The match data moved by delta (match-data--translate). */
static void translate(struct interp_st *s, long delta)
{
    if (!interp_charge(s, s->n_match * sizeof(long)))
        return;
    long *md = ARENA_NEWN(s->L->a, long, s->n_match);
    for (size_t i = 0; i < s->n_match; i++)
        md[i] = s->match[i] < 0 ? s->match[i] : s->match[i] + delta < 0 ? 0 : s->match[i] + delta;
    s->match = md;
}

/* One replacement of replace-regexp-in-string, of the match mb..me of
 * string (the match data moved onto its text, as Emacs does). */
static struct value *replace_one(struct interp_st *s, struct value *rep, bool fixedcase,
                                 bool literal, struct value *string, long mb, long me)
{
    translate(s, -mb);
    struct value *str = substring(s, string, mb, me);
    struct value *newtext = rep;
    if (str && rep->kind != VK_STRING) {
        struct value *m = substring(s, str, s->match[0], s->match[1]);
        newtext = m ? interp_funcall(s, rep, &m, 1) : NULL;
    }
    return newtext && str ? replace_in(s, newtext, fixedcase, literal, str) : NULL;
}

/* Strings to concatenate, in order. */
struct re_pieces {
    struct value **v;
    size_t n, cap;
};

static bool add_piece(struct interp_st *s, struct re_pieces *p, struct value *v)
{
    if (!v)
        return false;
    if (!room(s, (void **)&p->v, p->n, &p->cap, sizeof *p->v))
        return false;
    p->v[p->n++] = v;
    return true;
}

/* (replace-regexp-in-string REGEXP REP STRING FIXEDCASE LITERAL nil
 * START), as subr.el computes it; the match data is restored. */
static struct value *f_replace_regexp_in_string(struct interp_st *s, struct value **a, size_t n)
{
    const char *fn = "replace-regexp-in-string";
    bool fixedcase = n > 3 && !interp_nilp(s, a[3]), literal = n > 4 && !interp_nilp(s, a[4]);
    struct re r;
    struct re_text t;
    long start;
    if (n > 5 && !interp_nilp(s, a[5]))
        return interp_unknown(s, intern_cstr(s->L, fn), false);
    if (!compile(s, fn, a[0], &r) || !want_string(s, a[2]) || !decode(s, a[2], &t) ||
        !start_of(s, a[2], n > 6 ? a[6] : NULL, t.n, &start))
        return NULL;
    if (unknown_text(&r, &t))
        return refuse(s, fn, a[0]);
    long *saved = s->match;
    size_t n_saved = s->n_match;
    struct re_pieces p = {0};
    while (start < t.n && !s->failed) {
        long *slots = search(s, &r, &t, start);
        if (!slots)
            break;
        set_match_data(s, &r, slots);
        long mb = slots[0], me = slots[1] == mb && mb < t.n ? mb + 1 : slots[1];
        if (!add_piece(s, &p, substring(s, a[2], start, mb)) ||
            !add_piece(s, &p, replace_one(s, a[1], fixedcase, literal, a[2], mb, me)))
            return NULL;
        start = me;
    }
    if (s->failed || !add_piece(s, &p, substring(s, a[2], start, t.n)))
        return NULL;
    s->match = saved;
    s->n_match = n_saved;
    return interp_funcall(s, intern_cstr(s->L, "concat"), p.v, p.n);
}

/* split-string's push-one: the text between this_start and this_end. */
static bool split_piece(struct interp_st *s, struct re_pieces *p, struct value *string,
                        long b, long e, bool keep_nulls)
{
    return (!keep_nulls && b >= e) || add_piece(s, p, substring(s, string, b, e));
}

/* (split-string STRING SEPARATORS OMIT-NULLS) as subr.el computes it,
 * the match data of its last match left set. */
static struct value *f_split_string(struct interp_st *s, struct value **a, size_t n)
{
    static const char default_separators[] = "[ \f\t\n\r\v]+";
    const char *fn = "split-string";
    if (n > 3 && !interp_nilp(s, a[3]))
        return interp_unknown(s, intern_cstr(s->L, fn), false); /* TRIM */
    bool given = n > 1 && !interp_nilp(s, a[1]);
    bool keep_nulls = given && !(n > 2 && !interp_nilp(s, a[2]));
    struct value *regexp =
        given ? a[1] : interp_string(s, default_separators, sizeof default_separators - 1, false);
    struct re r;
    struct re_text t;
    if (!compile(s, fn, regexp, &r) || !want_string(s, a[0]) || !decode(s, a[0], &t))
        return NULL;
    if (unknown_text(&r, &t))
        return refuse(s, fn, regexp);
    struct re_pieces p = {0};
    long start = 0, last_mb = -1;
    bool notfirst = false;
    for (;;) {
        long from = notfirst && start == last_mb && start < t.n ? start + 1 : start;
        long *slots = search(s, &r, &t, from);
        if (s->failed)
            return NULL;
        if (!slots)
            break;
        set_match_data(s, &r, slots);
        if (start >= t.n)
            break;
        notfirst = true;
        if (!split_piece(s, &p, a[0], start, slots[0], keep_nulls))
            return NULL;
        start = slots[1];
        last_mb = slots[0];
    }
    if (!split_piece(s, &p, a[0], start, t.n, keep_nulls))
        return NULL;
    return interp_list(s, p.v, p.n);
}

static struct value *f_regexp_quote(struct interp_st *s, struct value **a, size_t n)
{
    struct re_text t;
    struct re_out o = {0};
    (void)n;
    if (!want_string(s, a[0]) || !decode(s, a[0], &t))
        return NULL;
    for (long i = 0; i < t.n; i++) {
        static const uint32_t backslash = '\\';
        if (t.c[i] < 0x80 && strchr("[*.\\?+^$", (int)t.c[i]) &&
            !put(s, &o, &backslash, 1))
            return NULL;
        if (!put(s, &o, &t.c[i], 1))
            return NULL;
    }
    return t.raw ? interp_unknown(s, intern_cstr(s->L, "regexp-quote"), false)
                 : text_string(s, o.c, o.n);
}

struct value *interp_save_match_data(struct interp_st *s, struct value *body,
                                     struct value *env, interp_body_fn *progn)
{
    long *saved = s->match;
    size_t n_saved = s->n_match;
    struct value *r = progn(s, body, env);
    s->match = saved;
    s->n_match = n_saved;
    return r;
}

/* Sorted. */
static const struct interp_row rows[] = {
    {"match-beginning", 1, 1, f_match_beginning},
    {"match-end", 1, 1, f_match_end},
    {"match-string", 1, 2, f_match_string},
    {"match-string-no-properties", 1, 2, f_match_string},
    {"regexp-quote", 1, 1, f_regexp_quote},
    {"replace-match", 1, 5, f_replace_match},
    {"replace-regexp-in-string", 3, 7, f_replace_regexp_in_string},
    {"split-string", 1, 4, f_split_string},
    {"string-match", 2, 4, f_string_match},
    {"string-match-p", 2, 3, f_string_match_p},
};

static int row_cmp(const void *key, const void *row)
{
    return strcmp(key, ((const struct interp_row *)row)->name);
}

const struct interp_row *interp_re_find(const char *name)
{
    return bsearch(name, rows, NELEM(rows), sizeof rows[0], row_cmp);
}

bool interp_re_sorted(void)
{
    for (size_t i = 1; i < NELEM(rows); i++)
        if (strcmp(rows[i - 1].name, rows[i].name) >= 0)
            return false;
    return true;
}
