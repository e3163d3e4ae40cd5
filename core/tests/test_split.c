/* test_split.c - one large input computed in parts, one after the other or by -j threads
 * (api_split.c): the parts read only their own stretch of text when
 * nothing before it matters, and whatever the text, output, diagnostics
 * and counters are those of a run in one piece. */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcx/pcx.h"


struct outcome {
    struct support_capture out, err;
    enum pcx_status st;
    struct pcx_stats stats;
};

static void outcome_free(struct outcome *o)
{
    test_free(o->out.data);
    test_free(o->err.data);
}

static char dir[] = "/tmp/pcx-split-XXXXXX";

static const char *path_of(const char *name)
{
    static char path[sizeof dir + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

/* Run file name with -j jobs as the program does (whole: in one piece). */
static struct outcome run_opts(const char *name, unsigned jobs, bool compact, bool whole)
{
    struct outcome o = {{NULL, 0}, {NULL, 0}, PCX_STATUS_OK, {0}};
    struct pcx_options opt = {0};
    opt.compact = compact;
    opt.config = PCX_CONFIG_NONE;
    opt.quiet = true;
    opt.jobs = jobs;
    opt.whole = whole;
    opt.out = (struct pcx_sink){support_capture_write, &o.out, NULL};
    opt.diag = (struct pcx_sink){support_capture_write, &o.err, NULL};
    struct pcx_ctx *cx = pcx_ctx_new(&opt);
    assert_non_null(cx);
    const char *operands[] = {path_of(name)};
    o.st = pcx_run_operands(cx, operands, 1, NULL, "-");
    enum pcx_status fin = pcx_ctx_finish(cx);
    if (fin > o.st)
        o.st = fin;
    pcx_ctx_stats(cx, &o.stats);
    pcx_ctx_free(cx);
    return o;
}

static struct outcome run(const char *name, unsigned jobs, bool compact)
{
    return run_opts(name, jobs, compact, false);
}

/* b gave the same bytes, diagnostics, status and counters as a. */
static void same_outcome(const struct outcome *a, const struct outcome *b)
{
    assert_int_equal(b->st, a->st);
    assert_int_equal(b->out.len, a->out.len);
    if (a->out.len)
        assert_memory_equal(b->out.data, a->out.data, a->out.len);
    assert_string_equal(b->err.data ? b->err.data : "", a->err.data ? a->err.data : "");
    assert_int_equal(b->stats.forms, a->stats.forms);
    assert_int_equal(b->stats.expanded, a->stats.expanded);
    assert_int_equal(b->stats.temporaries, a->stats.temporaries);
    assert_int_equal(b->stats.memo_hits + b->stats.memo_misses > 0,
                     a->stats.memo_hits + a->stats.memo_misses > 0);
}

/* -j 1 and -j 2 of file name in both output modes give the bytes,
 * diagnostics, status and counters of the run in one piece (--whole),
 * from the same parts; returns -j 2's counters (compact). */
static struct pcx_stats same_as_one_piece(const char *name)
{
    struct pcx_stats two_stats = {0};
    for (int compact = 0; compact < 2; compact++) {
        struct outcome whole = run_opts(name, 1, compact, true);
        struct outcome one = run(name, 1, compact), two = run(name, 2, compact);
        same_outcome(&whole, &one);
        same_outcome(&whole, &two);
        assert_int_equal(whole.stats.parts, 0);
        assert_int_equal(whole.stats.parts_redone, 0);
        assert_int_equal(one.stats.parts, two.stats.parts);
        assert_int_equal(one.stats.parts_redone, two.stats.parts_redone);
        two_stats = two.stats;
        outcome_free(&whole);
        outcome_free(&one);
        outcome_free(&two);
    }
    return two_stats;
}

/* The same, for a file whose parts could not all be read: it was run
 * again in one piece. */
static struct pcx_stats redone(const char *name)
{
    struct pcx_stats st = same_as_one_piece(name);
    assert_int_equal(st.parts, 0);
    assert_int_equal(st.parts_redone, 1);
    return st;
}

static FILE *create(const char *name)
{
    FILE *f = fopen(path_of(name), "wb");
    assert_non_null(f);
    return f;
}

/* n forms of about 150 bytes each, numbered from first. */
static void forms(FILE *f, int first, int n)
{
    for (int i = first; i < first + n; i++)
        fprintf(f, ";; form %d\n(defun sp%d (v)\n  (pcase v\n    (`(,a ,b . ,c) (list a b c %d))\n"
                   "    ((and (pred stringp) s) s)\n    (_ nil)))\n", i, i, i);
}

static void close_file(FILE *f)
{
    assert_int_equal(fclose(f), 0);
}

/* Plain forms: every part reads only its stretch; none is redone. */
static void parts_read_their_stretch(void **state)
{
    (void)state;
    FILE *f = create("plain.el");
    fprintf(f, ";;; plain.el  -*- lexical-binding: t -*-\n");
    forms(f, 0, 2500);
    fprintf(f, "(defun sp-last (v) (pcase v (_ 1) (2 3)))\n");
    close_file(f);
    struct pcx_stats st = same_as_one_piece("plain.el");
    assert_true(st.parts >= 4);
    assert_int_equal(st.parts_redone, 0);
    assert_int_equal(st.forms, 2501);
}

/* Every line that starts with "(" lies inside one long string: the cuts
 * fall in it, a part fails to read, and the input is run in one piece. */
static void cut_inside_a_string_is_redone(void **state)
{
    (void)state;
    FILE *f = create("string.el");
    fprintf(f, "(defvar sp-doc \"\n");
    for (int i = 0; i < 12000; i++)
        fprintf(f, "(not a form %d) and more words\n", i);
    fprintf(f, "\")\n");
    for (int i = 0; i < 100; i++)
        fprintf(f, " (pcase sp-doc (`(,a) a) (_ %d))\n", i);
    close_file(f);
    assert_int_equal(redone("string.el").forms, 101);
}

/* Every form after a quote on the line before it: each cut leaves a
 * quote without its object at the end of a part, and the input is run
 * in one piece (where the pcase forms are quoted data). */
static void cut_after_a_quote_is_redone(void **state)
{
    (void)state;
    FILE *f = create("quote.el");
    for (int i = 0; i < 2500; i++)
        fprintf(f, "'\n(defun sq%d (v) (pcase v (`(,a . ,b) (list a b %d)) (_ nil)))\n", i, i);
    close_file(f);
    assert_int_equal(redone("quote.el").expanded, 0);
}

/* A character literal `?\M-` and a newline (meta-newline: the newline is
 * the literal's last character) ends each line before a form: the cuts
 * after it are between forms, and the parts read alone. */
static void cut_after_a_character_literal(void **state)
{
    (void)state;
    FILE *f = create("char.el");
    for (int i = 0; i < 2500; i++)
        fprintf(f, "?\\M-\n(defun sc%d (v) (pcase v (`(,a . ,b) (list a b %d)) (_ nil)))\n", i, i);
    close_file(f);
    struct pcx_stats st = same_as_one_piece("char.el");
    assert_true(st.parts >= 4);
    assert_int_equal(st.forms, 5000);
    assert_int_equal(st.expanded, 2500);
}

/* A symbol that could be a temporary's name, however it is written,
 * keeps the input in one piece: a part knows only the symbols it reads. */
static void temporary_names_keep_one_piece(void **state)
{
    (void)state;
    static const char *const spellings[] = {"pcx--v", "p\\cx-\\-v", "_pcx--x0"};
    for (size_t k = 0; k < sizeof spellings / sizeof spellings[0]; k++) {
        FILE *f = create("names.el");
        forms(f, 0, 2000);
        fprintf(f, "(defun sp-n (x) (pcase x (`(,v) (list v '%s))))\n", spellings[k]);
        close_file(f);
        struct pcx_stats st = same_as_one_piece("names.el");
        assert_int_equal(st.parts, 0);
        assert_int_equal(st.parts_redone, 0);
    }
}

/* The temporaries' prefix is found wherever it lies against the scan's
 * blocks of 64 bytes, in the middle of the text and in its last bytes:
 * with it the file is run in one piece, without it in parts. */
static void prefix_at_every_alignment(void **state)
{
    (void)state;
    for (int pad = -1; pad < 64; pad++) {
        for (int at_end = 0; at_end < 2; at_end++) {
            FILE *f = create("align.el");
            for (int i = 0; i < 9000; i++) /* quick to run: nothing to expand */
                fprintf(f, "(defvar sp-v%d %d)\n", i, i);
            if (pad >= 0 && !at_end)
                fprintf(f, ";; %*s pcx--v\n", pad, "");
            fprintf(f, "(defvar sp-last 0)\n");
            if (pad >= 0 && at_end)
                fprintf(f, ";; %*s pcx--v", pad, "");
            close_file(f);
            struct outcome o = run("align.el", 2, true);
            assert_int_equal(o.st, PCX_STATUS_OK);
            if (pad < 0)
                assert_true(o.stats.parts >= 2);
            else
                assert_int_equal(o.stats.parts, 0);
            outcome_free(&o);
        }
    }
}

/* A pattern macro, a struct and an rx name defined near the end and used
 * after: the parts after them read from the start and learn them, also
 * when the definers are written with backslashes. */
static void definitions_near_the_end(void **state)
{
    (void)state;
    static const char *const macro[] = {"pcase-defmacro", "p\\case\\-defmacro"};
    static const char *const strukt[] = {"cl-defstruct", "cl-def\\struct"};
    static const char *const rx[] = {"rx-define", "rx\\-define"};
    for (size_t k = 0; k < 2; k++) {
        FILE *f = create("defs.el");
        forms(f, 0, 2850);
        fprintf(f, "(%s sp-pair (a b) `(and (pred consp) (app car ,a) (app cdr ,b)))\n",
                macro[k]);
        fprintf(f, "(%s sp-pt x y)\n", strukt[k]);
        fprintf(f, "(%s sp-word (+ \"w\"))\n", rx[k]);
        forms(f, 2850, 150);
        fprintf(f, "(defun sp-use (v) (pcase v ((sp-pair x y) (+ x y)) ((cl-struct sp-pt x) x)"
                   " ((rx sp-word) 'w)))\n");
        close_file(f);
        struct pcx_stats st = same_as_one_piece("defs.el");
        assert_true(st.parts >= 4);
        struct outcome o = run("defs.el", 2, true);
        assert_int_equal(o.st, PCX_STATUS_OK);
        assert_null(strstr(o.out.data, "sp-pair x y"));
        assert_non_null(strstr(o.out.data, "(cl-typep v 'sp-pt)"));
        assert_non_null(strstr(o.out.data, "(string-match \"w+\" v)"));
        outcome_free(&o);
    }
}

/* An rx name alone defined near the end: the parts after it learn it. */
static void rx_definition_near_the_end(void **state)
{
    (void)state;
    FILE *f = create("defs.el");
    forms(f, 0, 2850);
    fprintf(f, "(rx-define sp-word (+ \"w\"))\n");
    forms(f, 2850, 150);
    fprintf(f, "(defun sp-use (v) (pcase v ((rx sp-word) 'w)))\n");
    close_file(f);
    struct pcx_stats st = same_as_one_piece("defs.el");
    assert_true(st.parts >= 4);
    struct outcome o = run("defs.el", 2, true);
    assert_int_equal(o.st, PCX_STATUS_OK);
    assert_non_null(strstr(o.out.data, "(string-match \"w+\" v)"));
    outcome_free(&o);
}

/* A definition near the top: every part after it would read the text
 * before it again, so the input is run in one piece (same result). */
static void definition_at_the_top_keeps_one_piece(void **state)
{
    (void)state;
    FILE *f = create("defs.el");
    fprintf(f, "(cl-defstruct sp-pt x y)\n");
    forms(f, 0, 3000);
    fprintf(f, "(defun sp-use (v) (pcase v ((cl-struct sp-pt x) x)))\n");
    close_file(f);
    struct pcx_stats st = same_as_one_piece("defs.el");
    assert_int_equal(st.parts, 0);
    assert_int_equal(st.parts_redone, 0);
}

/* One thread learns from the forms its parts read, not from the text:
 * a definer's name in a comment or a string near the top leaves the
 * input in parts, with the result of one piece; a temporary's name as a
 * symbol in the last part (read last) still has it run in one piece. */
static void one_thread_learns_from_forms(void **state)
{
    (void)state;
    for (int late_symbol = 0; late_symbol < 2; late_symbol++) {
        FILE *f = create("mentions.el");
        fprintf(f, ";; not a (cl-defstruct sp-pt x y) here\n");
        fprintf(f, "(defvar sp-doc \"(pcase-defmacro sp-pair ...)\")\n");
        forms(f, 0, 3000);
        fprintf(f, "(defun sp-use (v) (pcase v (`(,x) (list x '%s))))\n",
                late_symbol ? "_pcx--y1" : "pcx-y1");
        close_file(f);
        for (int compact = 0; compact < 2; compact++) {
            struct outcome whole = run_opts("mentions.el", 1, compact, true);
            struct outcome one = run("mentions.el", 1, compact);
            same_outcome(&whole, &one);
            if (late_symbol)
                assert_int_equal(one.stats.parts, 0);
            else
                assert_true(one.stats.parts >= 4);
            assert_int_equal(one.stats.parts_redone, 0);
            outcome_free(&whole);
            outcome_free(&one);
        }
    }
}

/* A read error in the middle: the same error as in one piece. */
static void read_error_in_the_middle(void **state)
{
    (void)state;
    FILE *f = create("bad.el");
    forms(f, 0, 1500);
    fprintf(f, "(defun sp-bad (v) (pcase v (1 \"unfinished)))\n");
    forms(f, 1500, 1500);
    close_file(f);
    redone("bad.el");
    struct outcome o = run("bad.el", 2, false);
    assert_int_equal(o.st, PCX_STATUS_ERROR);
    assert_non_null(strstr(o.err.data, "error: "));
    outcome_free(&o);
}

/* Forms on one long line, and on lines that begin with a blank (no line
 * begins with "("): cut between forms within the lines, the parts laid
 * out as in one piece (an expansion after a cut starts at the column
 * the output left, and one with a comment inside takes the blank before
 * it), with one thread and with two. */
static void forms_in_a_line_are_cut_there(void **state)
{
    (void)state;
    FILE *f = create("line.el");
    /* (not many expansions far in a line: each of their lines would be
     * indented as far) */
    for (int i = 0; i < 3; i++)
        fprintf(f, "(defun sp%d (v) (pcase v (`(,a . ,b) (list a b %d)) (_ nil))) ", i, i);
    for (int i = 0; i < 9000; i++)
        fprintf(f, "(a%d (b c) \"d\" ?e) ", i);
    fprintf(f, "\n");
    for (int i = 0; i < 3000; i++)
        fprintf(f, "(b%d) (pcase x ; c%d\n (%d 2)) ", i, i, i);
    fprintf(f, "\n");
    close_file(f);
    struct pcx_stats st = same_as_one_piece("line.el");
    assert_true(st.parts >= 4);
    assert_int_equal(st.parts_redone, 0);
    assert_int_equal(st.forms, 15003);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    static const char *const names[] = {"plain.el", "string.el", "quote.el", "char.el",
                                        "names.el", "defs.el", "bad.el", "align.el",
                                        "line.el", "mentions.el"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(path_of(names[i]));
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parts_read_their_stretch),
        cmocka_unit_test(cut_inside_a_string_is_redone),
        cmocka_unit_test(cut_after_a_quote_is_redone),
        cmocka_unit_test(cut_after_a_character_literal),
        cmocka_unit_test(temporary_names_keep_one_piece),
        cmocka_unit_test(prefix_at_every_alignment),
        cmocka_unit_test(definitions_near_the_end),
        cmocka_unit_test(rx_definition_near_the_end),
        cmocka_unit_test(definition_at_the_top_keeps_one_piece),
        cmocka_unit_test(one_thread_learns_from_forms),
        cmocka_unit_test(read_error_in_the_middle),
        cmocka_unit_test(forms_in_a_line_are_cut_there),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
