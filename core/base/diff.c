/* diff.c - Myers line diff and unified output (diff.h).
 *
 * The texts are split into lines (with their terminators) and hashed; the
 * common prefix and suffix of each sub-problem are stripped, and the rest
 * is split at the "middle snake" of Myers's linear-space algorithm.  Sub-
 * problems wait on a work list, so deep or long inputs cannot overflow
 * the stack.  The result is a pair of flag arrays, turned into hunks.
 */
#include "diff.h"

#include <string.h>

#define CONTEXT 3 /* lines of context around each change */

struct line {
    const uint8_t *p; /* first byte */
    size_t n;         /* bytes, with the '\n' when there is one */
    uint32_t h;       /* FNV-1a of the bytes */
};

/* Split text into lines; the last one may lack its '\n'. */
static size_t split(struct arena *a, const uint8_t *t, size_t len,
                    struct line **out)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += t[i] == '\n';
    n += len > 0 && t[len - 1] != '\n';
    struct line *l = arena_alloc(a, (n + 1) * sizeof *l);
    size_t k = 0, start = 0;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h = (h ^ t[i]) * 16777619u;
        if (t[i] == '\n' || i + 1 == len) {
            l[k++] = (struct line){t + start, i + 1 - start, h};
            start = i + 1;
            h = 2166136261u;
        }
    }
    *out = l;
    return n;
}

static bool same(const struct line *x, const struct line *y)
{
    return x->h == y->h && x->n == y->n && memcmp(x->p, y->p, x->n) == 0;
}

/* A sub-problem: old lines [a0, a1) against new lines [b0, b1). */
struct box {
    long a0, a1, b0, b1;
};

struct work {
    const struct line *A, *B;
    bool *del, *ins;
    long *vf, *vb;        /* furthest x per diagonal, indexed from the middle */
    struct box *stack;    /* pending sub-problems */
    size_t n_stack, cap_stack;
    struct arena *a;
};

/* The middle snake's ends: (sx, sy) to (ex, ey). */
struct snake {
    long sx, sy, ex, ey;
};

/* Forward half-step d: extend every diagonal; true when a path meets the
 * reverse paths of step d - 1 (odd delta). */
static bool forward(struct work *w, struct box b, long d, struct snake *s)
{
    long N = b.a1 - b.a0, M = b.b1 - b.b0, delta = N - M;
    long *vf = w->vf, *vb = w->vb;
    for (long k = -d; k <= d; k += 2) {
        long x = (k == -d || (k != d && vf[k - 1] < vf[k + 1])) ? vf[k + 1]
                                                                : vf[k - 1] + 1;
        long y = x - k, x0 = x, y0 = y;
        while (x < N && y < M && same(&w->A[b.a0 + x], &w->B[b.b0 + y]))
            x++, y++;
        vf[k] = x;
        if ((delta & 1) && k >= delta - (d - 1) && k <= delta + (d - 1) &&
            x + vb[delta - k] >= N) {
            *s = (struct snake){b.a0 + x0, b.b0 + y0, b.a0 + x, b.b0 + y};
            return true;
        }
    }
    return false;
}

/* Reverse half-step d (coordinates counted from the ends); true when a
 * path meets the forward paths of step d (even delta). */
static bool reverse(struct work *w, struct box b, long d, struct snake *s)
{
    long N = b.a1 - b.a0, M = b.b1 - b.b0, delta = N - M;
    long *vf = w->vf, *vb = w->vb;
    for (long k = -d; k <= d; k += 2) {
        long x = (k == -d || (k != d && vb[k - 1] < vb[k + 1])) ? vb[k + 1]
                                                                : vb[k - 1] + 1;
        long y = x - k, x0 = x, y0 = y;
        while (x < N && y < M &&
               same(&w->A[b.a1 - 1 - x], &w->B[b.b1 - 1 - y]))
            x++, y++;
        vb[k] = x;
        if (!(delta & 1) && delta - k >= -d && delta - k <= d &&
            x + vf[delta - k] >= N) {
            *s = (struct snake){b.a1 - x, b.b1 - y, b.a1 - x0, b.b1 - y0};
            return true;
        }
    }
    return false;
}

/* After MAX_STEPS steps without meeting, give up on the shortest diff
 * for this box (as GNU diff's heuristic does): split it at the point of
 * the furthest forward or reverse path, a point that some path of the
 * edit graph passes.  The diff stays correct, only maybe longer. */
#define MAX_STEPS 2048
static void give_up(struct work *w, struct box b, long d, struct snake *s)
{
    long N = b.a1 - b.a0, M = b.b1 - b.b0, best = -1, bx = 0, by = 0;
    for (long k = -d; k <= d; k += 2) {
        long x = w->vf[k], y = x - k;
        if (x >= 0 && x <= N && y >= 0 && y <= M && x + y > best)
            best = x + y, bx = x, by = y;
        x = w->vb[k], y = x - k;
        if (x >= 0 && x <= N && y >= 0 && y <= M && x + y > best)
            best = x + y, bx = N - x, by = M - y;
    }
    *s = (struct snake){b.a0 + bx, b.b0 + by, b.a0 + bx, b.b0 + by};
}

/* The middle snake of a box whose first and last lines differ (or the
 * split point of give_up). */
static bool middle_snake(struct work *w, struct box b, struct snake *s)
{
    long max = (b.a1 - b.a0 + b.b1 - b.b0 + 1) / 2;
    w->vf[1] = 0;
    w->vb[1] = 0;
    for (long d = 0; d <= max; d++) {
        if (forward(w, b, d, s) || reverse(w, b, d, s))
            return true;
        if (d == MAX_STEPS) {
            give_up(w, b, d, s);
            return true;
        }
    }
    return false;
}

static void push(struct work *w, struct box b)
{
    if (b.a0 == b.a1 && b.b0 == b.b1)
        return;
    if (w->n_stack == w->cap_stack) {
        size_t cap = w->cap_stack ? w->cap_stack * 2 : 32;
        w->stack = arena_grow(w->a, w->stack, w->cap_stack * sizeof *w->stack,
                              cap * sizeof *w->stack);
        w->cap_stack = cap;
    }
    w->stack[w->n_stack++] = b;
}

/* Solve one box: strip what is common at both ends, mark what is left
 * when one side is empty, else split at the middle snake. */
static void solve(struct work *w, struct box b)
{
    while (b.a0 < b.a1 && b.b0 < b.b1 && same(&w->A[b.a0], &w->B[b.b0]))
        b.a0++, b.b0++;
    while (b.a0 < b.a1 && b.b0 < b.b1 && same(&w->A[b.a1 - 1], &w->B[b.b1 - 1]))
        b.a1--, b.b1--;
    struct snake s;
    if (b.a0 == b.a1 || b.b0 == b.b1 || !middle_snake(w, b, &s) ||
        (s.sx == b.a0 && s.sy == b.b0 && s.ex == b.a1 && s.ey == b.b1)) {
        for (long i = b.a0; i < b.a1; i++)
            w->del[i] = true;
        for (long j = b.b0; j < b.b1; j++)
            w->ins[j] = true;
        return;
    }
    push(w, (struct box){b.a0, s.sx, b.b0, s.sy});
    push(w, (struct box){s.ex, b.a1, s.ey, b.b1});
}

/* Flags for line arrays A (n) and B (m). */
static void run_diff(struct arena *a, const struct line *A, size_t n,
                     const struct line *B, size_t m, bool **del, bool **ins)
{
    struct work w = {A, B, NULL, NULL, NULL, NULL, NULL, 0, 0, a};
    w.del = arena_zalloc(a, n + 1);
    w.ins = arena_zalloc(a, m + 1);
    long off = (long)((n + m + 1) / 2) + 2;
    w.vf = (long *)arena_zalloc(a, (size_t)(2 * off + 1) * sizeof(long)) + off;
    w.vb = (long *)arena_zalloc(a, (size_t)(2 * off + 1) * sizeof(long)) + off;
    push(&w, (struct box){0, (long)n, 0, (long)m});
    while (w.n_stack > 0)
        solve(&w, w.stack[--w.n_stack]);
    *del = w.del;
    *ins = w.ins;
}

void diff_lines(struct arena *a, const uint8_t *old_text, size_t old_len,
                const uint8_t *new_text, size_t new_len, bool **del,
                size_t *old_n, bool **ins, size_t *new_n)
{
    struct line *A, *B;
    *old_n = split(a, old_text, old_len, &A);
    *new_n = split(a, new_text, new_len, &B);
    run_diff(a, A, *old_n, B, *new_n, del, ins);
}

/* ---- unified output ---- */

/* Where the text differs: old lines [i0, i1) became new lines [j0, j1). */
struct change {
    size_t i0, i1, j0, j1;
};

struct script {
    const struct line *A, *B;
    size_t n, m;
    const bool *del, *ins;
};

/* The next change at or after (*i, *j); false when there is none. */
static bool next_change(const struct script *s, size_t *i, size_t *j,
                        struct change *c)
{
    while (*i < s->n && *j < s->m && !s->del[*i] && !s->ins[*j])
        (*i)++, (*j)++;
    if (*i == s->n && *j == s->m)
        return false;
    c->i0 = *i;
    c->j0 = *j;
    while (*i < s->n && s->del[*i])
        (*i)++;
    while (*j < s->m && s->ins[*j])
        (*j)++;
    c->i1 = *i;
    c->j1 = *j;
    return true;
}

static void put_line(struct buf *out, char mark, const struct line *l)
{
    buf_putc(out, mark);
    buf_put(out, l->p, l->n);
    if (l->n == 0 || l->p[l->n - 1] != '\n')
        buf_puts(out, "\n\\ No newline at end of file\n");
}

/* "-START,COUNT" as diff prints it (an empty range names the line before). */
static void put_range(struct buf *out, char sign, size_t start, size_t count)
{
    buf_printf(out, "%c%zu", sign, count == 0 ? start : start + 1);
    if (count != 1)
        buf_printf(out, ",%zu", count);
}

/* One hunk: old [i0, i1) and new [j0, j1), changes inside flagged. */
static void put_hunk(struct buf *out, const struct script *s, size_t i0,
                     size_t i1, size_t j0, size_t j1)
{
    buf_puts(out, "@@ ");
    put_range(out, '-', i0, i1 - i0);
    buf_putc(out, ' ');
    put_range(out, '+', j0, j1 - j0);
    buf_puts(out, " @@\n");
    size_t i = i0, j = j0;
    while (i < i1 || j < j1) {
        if (i < i1 && j < j1 && !s->del[i] && !s->ins[j]) {
            put_line(out, ' ', &s->A[i++]);
            j++;
            continue;
        }
        size_t before = i + j;
        while (i < i1 && s->del[i])
            put_line(out, '-', &s->A[i++]);
        while (j < j1 && s->ins[j])
            put_line(out, '+', &s->B[j++]);
        if (i + j == before) /* flags out of step: cannot happen */
            break;
    }
}

/* Group changes closer than 2 * CONTEXT lines into hunks and print them. */
static void put_hunks(struct buf *out, const struct script *s)
{
    size_t i = 0, j = 0;
    struct change c, next;
    bool more = next_change(s, &i, &j, &c);
    while (more) {
        size_t hi0 = c.i0 > CONTEXT ? c.i0 - CONTEXT : 0;
        size_t hj0 = c.j0 - (c.i0 - hi0);
        struct change last = c;
        while ((more = next_change(s, &i, &j, &next)) &&
               next.i0 - last.i1 <= 2 * CONTEXT)
            last = next;
        size_t tail = s->n - last.i1 < CONTEXT ? s->n - last.i1 : CONTEXT;
        put_hunk(out, s, hi0, last.i1 + tail, hj0, last.j1 + tail);
        c = next;
    }
}

bool diff_unified(struct arena *a, const uint8_t *old_text, size_t old_len,
                  const uint8_t *new_text, size_t new_len, const char *old_name,
                  const char *new_name, struct buf *out)
{
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0)
        return false;
    struct line *A, *B;
    struct script s;
    s.n = split(a, old_text, old_len, &A);
    s.m = split(a, new_text, new_len, &B);
    s.A = A;
    s.B = B;
    bool *del, *ins;
    run_diff(a, A, s.n, B, s.m, &del, &ins);
    s.del = del;
    s.ins = ins;
    buf_printf(out, "--- %s\n+++ %s\n", old_name, new_name);
    put_hunks(out, &s);
    return true;
}
