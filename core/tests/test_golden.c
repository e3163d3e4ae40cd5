/* test_golden.c - the golden manifest and golden mode: loading with
 * positioned errors, the golden file format, the check / --update round
 * trip, diffs and lists, broken cases, selection, obsolete files.
 *
 * Cases are expanded by the real pipeline (support_run_text), as the
 * program's expansion function does it.
 */
#include "support.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/golden.h"

/* ---- the expansion function ---- */

static int expansions; /* calls, to see which cases ran */

/* Default mode over the job's text (nth: that top-level form alone). */
static void expand(void *ctx, struct arena *a, const struct golden_job *job,
                   struct golden_result *res)
{
    (void)ctx;
    expansions++;
    const char *text = (const char *)job->text;
    size_t len = job->len;
    struct support_run *r = ARENA_NEW(a, struct support_run);
    if (job->c->form == GOLDEN_FORM_NTH) {
        support_run_text(r, a, text, len, true);
        struct span sp = r->rr.forms[job->c->nth].span;
        text += sp.start;
        len = sp.end - sp.start;
    }
    support_run_text(r, a, text, len, true);
    res->err = support_run_diags(r, job->name);
    res->err_len = strlen(res->err);
    res->status = r->failed ? 2 : 0;
    res->out = r->failed ? "" : support_run_output(r);
    res->out_len = strlen(res->out);
}

/* ---- scratch files ---- */

static char root[64];
static char start_dir[4096];

static int make_root(void **state)
{
    (void)state;
    strcpy(root, "/tmp/pcx-test-golden-XXXXXX");
    if (!mkdtemp(root) || !getcwd(start_dir, sizeof start_dir))
        return -1;
    return chdir(root);
}

static int remove_root(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return chdir(start_dir) == 0 && system(cmd) == 0 ? 0 : -1;
}

static void put(const char *rel, const char *text)
{
    char dir[256];
    snprintf(dir, sizeof dir, "%s", rel);
    for (char *p = dir; (p = strchr(p + 1, '/')) != NULL;) {
        *p = 0;
        mkdir(dir, 0755);
        *p = '/';
    }
    FILE *f = fopen(rel, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *slurp(struct arena *a, const char *rel)
{
    FILE *f = fopen(rel, "rb");
    if (!f)
        return NULL;
    struct buf b;
    buf_init(&b, a);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_put(&b, chunk, n);
    fclose(f);
    return (char *)buf_cstr(&b);
}

/* One golden_run; out and err are returned NUL-terminated. */
struct outcome {
    int status;
    const char *out, *err;
};

static struct outcome run(struct arena *a, const char *manifest, enum golden_action act,
                          bool diff, bool list, const char *const *sel, size_t n_sel)
{
    struct golden_params p = {0};
    p.manifest = manifest;
    p.action = act;
    p.diff = diff;
    p.list = list;
    p.select = sel;
    p.n_select = n_sel;
    p.obsolete = true;
    p.report = (struct report_opts){REPORT_GNU, false, false};
    p.expand = expand;
    struct buf out, err;
    buf_init(&out, a);
    buf_init(&err, a);
    struct outcome o = {golden_run(a, &p, &out, &err), NULL, NULL};
    o.out = buf_cstr(&out);
    o.err = buf_cstr(&err);
    return o;
}

static const char manifest[] =
    "# test/pcexpand-goldens.yaml\n"
    "version: 1\n"
    "defaults:\n"
    "  golden-dir: goldens\n"
    "  width: 80\n"
    "  gensyms: rename\n"
    "cases:\n"
    "  cons-destructure:\n"
    "    source: |\n"
    "      (pcase x\n"
    "        (`(,a . ,b) (+ a b))\n"
    "        (_ 'other))\n"
    "  second-form:\n"
    "    file: ../lisp/two.el\n"
    "    form: { nth: 1 }\n"
    "  whole-file:\n"
    "    file: ../lisp/two.el\n"
    "    golden: goldens/two.expanded.el\n"
    "    options: { width: 40, skip: [pcase-let] }\n"
    "  rejects-unknown-pattern:\n"
    "    source: \"(pcase x ((my-undeclared y) y))\"\n"
    "    expect: error\n"
    "  warns-unused:\n"
    "    source: \"(pcase x (y 1))\"\n"
    "    expect: warning\n";

static const char two_el[] =
    ";;; two.el  -*- lexical-binding: t -*-\n"
    "(defun f (x) (pcase x ('a 1) (_ 2)))\n"
    "(defun g (x) (pcase-let ((`(,a ,b) x)) (list a b)))\n";

static void setup_project(void)
{
    put("proj/.pcexpand.yaml", "version: 1\n");
    put("proj/test/pcexpand-goldens.yaml", manifest);
    put("proj/lisp/two.el", two_el);
}

static void loads_the_manifest(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    setup_project();
    struct golden_manifest m;
    struct buf msgs;
    buf_init(&msgs, a);
    struct report_opts ro = {REPORT_GNU, false, false};
    assert_true(golden_load(a, "proj/test/pcexpand-goldens.yaml", &ro, &m, &msgs));
    assert_int_equal(msgs.len, 0);
    assert_string_equal(m.golden_dir_path, "proj/test/goldens");
    assert_int_equal(m.n_cases, 5);
    const struct golden_case *c = &m.cases[0];
    assert_string_equal(c->name, "cons-destructure");
    assert_non_null(strstr(c->source, "(_ 'other))\n"));
    assert_string_equal(c->golden, "goldens/cons-destructure.el");
    assert_string_equal(c->golden_path, "proj/test/goldens/cons-destructure.el");
    assert_string_equal(c->err, "goldens/cons-destructure.err");
    assert_int_equal(c->expect, GOLDEN_EXPECT_OK);
    c = &m.cases[1];
    assert_string_equal(c->file_path, "proj/test/../lisp/two.el");
    assert_int_equal(c->form, GOLDEN_FORM_NTH);
    assert_int_equal(c->nth, 1);
    c = &m.cases[2];
    assert_int_equal(c->form, GOLDEN_FORM_ALL);
    assert_string_equal(c->golden_path, "proj/test/goldens/two.expanded.el");
    assert_string_equal(c->err, "goldens/two.expanded.err");
    assert_int_equal(c->opts.width, 40);
    assert_int_equal(c->opts.skip_heads, 1u << 2);
    c = &m.cases[3];
    assert_int_equal(c->expect, GOLDEN_EXPECT_ERROR);
    assert_string_equal(c->golden, "goldens/rejects-unknown-pattern.err");
    assert_string_equal(c->err, c->golden);
    assert_int_equal(m.cases[4].expect, GOLDEN_EXPECT_WARNING);
    arena_free(a);
}

static void bad_manifest(const char *text, const char *want)
{
    struct arena *a = support_arena();
    put("bad.yaml", text);
    struct golden_manifest m;
    struct buf msgs;
    buf_init(&msgs, a);
    struct report_opts ro = {REPORT_GNU, false, false};
    assert_false(golden_load(a, "bad.yaml", &ro, &m, &msgs));
    assert_string_equal(buf_cstr(&msgs), want);
    arena_free(a);
}

static void manifest_errors(void **state)
{
    (void)state;
    bad_manifest("cases: {}\n", "bad.yaml:1:1: error: missing 'version: 1' (required) [manifest]\n");
    bad_manifest("version: 1\ncases:\n  a:\n    source: x\n    file: y.el\n"
                 "  b:\n    expect: maybe\n    source: x\n",
                 "bad.yaml:4:5: error: case 'a' needs either 'source' or 'file' [manifest]\n"
                 "bad.yaml:7:13: error: 'b.expect' must be ok, warning or error, not 'maybe' "
                 "[manifest]\n");
    bad_manifest("version: 1\ncases:\n  .hidden: {source: x}\n  c: {source: x, form: {nth: 1}}\n"
                 "  d: {file: d.el, form: {nth: 1, line: 2}}\n  e: {source: x, colour: red}\n",
                 "bad.yaml:3:3: error: case name '.hidden' must be letters, digits, '-', "
                 "'_', '.' or '+', not starting with '.' or '-' [manifest]\n"
                 "bad.yaml:4:25: error: 'form' selects part of a 'file'; case 'c' has none "
                 "[manifest]\n"
                 "bad.yaml:5:26: error: 'd.form' takes exactly one of line, defun or nth "
                 "[manifest]\n"
                 "bad.yaml:6:18: error: unknown key 'colour' in 'e' (expected source, file, "
                 "form, golden, expect or options) [manifest]\n");
    bad_manifest("version: 1\ndefaults: {width: 0, gensyms: yes}\ncases:\n  a:\n    source: x\n"
                 "    options: {only: [pcase], skip: [cond*]}\n",
                 "bad.yaml:2:19: error: 'defaults.width' must be an integer from 1 to 10000, "
                 "not '0' [manifest]\n"
                 "bad.yaml:2:31: error: 'defaults.gensyms' must be rename, hash or circle, "
                 "not 'yes' [manifest]\n"
                 "bad.yaml:6:37: error: 'a.options' takes 'only' or 'skip', not both "
                 "[manifest]\n");
    bad_manifest("version: 1\ncases:\n  a: {source: x}\n  a: {source: y}\n",
                 "bad.yaml:4:3: error: duplicate key [manifest]\n");
}

/* The header and the body of a golden file, as cli.md section 13 shows. */
static void golden_file_format(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    setup_project();
    struct outcome o = run(a, "proj/test/pcexpand-goldens.yaml", GOLDEN_UPDATE_ALL,
                           false, false, NULL, 0);
    assert_int_equal(o.status, 0);
    assert_string_equal(slurp(a, "proj/test/goldens/cons-destructure.el"),
        ";;; cons-destructure.el --- pcexpand golden  -*- lexical-binding: t -*-\n"
        ";; Case: cons-destructure (test/pcexpand-goldens.yaml); do not edit.\n"
        ";; Options: width=80 gensyms=rename\n"
        "\n"
        "(if (consp x) (let ((a (car x)) (b (cdr x))) (+ a b)) 'other)\n");
    assert_string_equal(slurp(a, "proj/test/goldens/rejects-unknown-pattern.err"),
        "rejects-unknown-pattern.el:1:11: error: Unknown my-undeclared pattern: "
        "(my-undeclared y) [unknown-pattern]\n"
        "rejects-unknown-pattern.el:1:11: note: pattern macro 'my-undeclared' is not "
        "defined in this file or the files it requires, nor under pattern-macros "
        "[unknown-pattern]\n");
    assert_null(slurp(a, "proj/test/goldens/rejects-unknown-pattern.el"));
    assert_non_null(strstr(slurp(a, "proj/test/goldens/warns-unused.err"),
                           "warns-unused.el:1:10: warning: variable `y' is bound"));
    assert_non_null(strstr(slurp(a, "proj/test/goldens/two.expanded.el"),
                           ";; Options: width=40 gensyms=rename skip=pcase-let\n"));
    const char *second = slurp(a, "proj/test/goldens/second-form.el");
    assert_non_null(strstr(second, "\n\n(defun g (x)"));
    assert_null(strstr(second, "defun f"));
    /* without a final newline in the output, the golden gets one */
    struct golden_case c = {.name = "n", .golden = "g/n.el"};
    c.opts = (struct golden_options){80, CONFIG_GENSYMS_HASH, "p-", 0x81};
    struct buf b;
    buf_init(&b, a);
    golden_text(&c, "m.yaml", "(x)", 3, &b);
    assert_string_equal(buf_cstr(&b),
                        ";;; n.el --- pcexpand golden  -*- lexical-binding: t -*-\n"
                        ";; Case: n (m.yaml); do not edit.\n"
                        ";; Options: width=80 gensyms=hash gensym-prefix=p- skip=pcase,cond*\n"
                        "\n(x)\n");
    buf_init(&b, a);
    c.opts.skip_heads = 0xffu & ~0x80u;
    golden_text(&c, "m.yaml", "", 0, &b);
    assert_non_null(strstr(buf_cstr(&b), " gensym-prefix=p- only=cond*\n\n"));
    arena_free(a);
}

/* --update writes, --check passes, an edited golden fails with a diff. */
static void round_trip(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    const char *m = "rt/test/pcexpand-goldens.yaml";
    put(m, manifest);
    mkdir("rt/.git", 0755); /* the project: the manifest's file is in ../lisp */
    put("rt/lisp/two.el", two_el);
    struct outcome o = run(a, m, GOLDEN_CHECK, false, false, NULL, 0);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.err, "pcexpand: missing: goldens/cons-destructure.el\n"));
    assert_non_null(strstr(o.err, "pcexpand: 0 passed, 0 failed, 5 missing\n"
                                  "pcexpand: run: pcexpand -g --update cons-destructure "
                                  "second-form whole-file rejects-unknown-pattern "
                                  "warns-unused\n"));
    assert_null(slurp(a, "rt/test/goldens/cons-destructure.el")); /* checking never writes */
    o = run(a, m, GOLDEN_UPDATE_ALL, false, false, NULL, 0);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.err, "pcexpand: updated: goldens/cons-destructure.el\n"));
    assert_non_null(strstr(o.err, "pcexpand: 5 passed, 0 failed, 0 missing\n"));
    o = run(a, m, GOLDEN_CHECK, false, false, NULL, 0);
    assert_int_equal(o.status, 0);
    assert_string_equal(o.err, "pcexpand: 5 passed, 0 failed, 0 missing\n");
    assert_string_equal(o.out, "");
    /* a stale golden: exit 1, the diff golden -> fresh output, the list */
    const char *g = "rt/test/goldens/cons-destructure.el";
    char *text = slurp(a, g);
    char *other = strstr(text, "'other)");
    memcpy(other, "'OTHER)", 7);
    put(g, text);
    o = run(a, m, GOLDEN_CHECK, true, true, NULL, 0);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.out, "--- a/rt/test/goldens/cons-destructure.el\n"
                                  "+++ b/rt/test/goldens/cons-destructure.el\n"));
    assert_non_null(strstr(o.out, "-(if (consp x) (let ((a (car x)) (b (cdr x))) (+ a b)) "
                                  "'OTHER)\n+(if (consp x) (let ((a (car x)) (b (cdr x))) "
                                  "(+ a b)) 'other)\n"));
    assert_non_null(strstr(o.out, "\ncons-destructure\n"));
    assert_non_null(strstr(o.err, "pcexpand: failed: goldens/cons-destructure.el differs "
                                  "from the fresh output\n"));
    assert_non_null(strstr(o.err, "pcexpand: 4 passed, 1 failed, 0 missing\n"
                                  "pcexpand: run: pcexpand -g --update cons-destructure\n"));
    /* --update=missing leaves stale goldens stale, writes missing ones */
    remove("rt/test/goldens/warns-unused.err");
    o = run(a, m, GOLDEN_UPDATE_MISSING, false, false, NULL, 0);
    assert_int_equal(o.status, 1);
    assert_non_null(slurp(a, "rt/test/goldens/warns-unused.err"));
    assert_non_null(strstr(slurp(a, g), "'OTHER)"));
    o = run(a, m, GOLDEN_UPDATE_ALL, false, false, NULL, 0);
    assert_int_equal(o.status, 0);
    assert_null(strstr(slurp(a, g), "'OTHER)"));
    /* an unchanged golden is not rewritten */
    struct stat before, after;
    assert_int_equal(stat(g, &before), 0);
    sleep(1);
    run(a, m, GOLDEN_UPDATE_ALL, false, false, NULL, 0);
    assert_int_equal(stat(g, &after), 0);
    assert_int_equal(before.st_mtime, after.st_mtime);
    arena_free(a);
}

static void missing_diff_is_from_dev_null(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("dn/m.yaml", "version: 1\ncases:\n  one: {source: \"(pcase x (1 2))\"}\n");
    struct outcome o = run(a, "dn/m.yaml", GOLDEN_CHECK, true, false, NULL, 0);
    assert_int_equal(o.status, 1);
    assert_non_null(strstr(o.out, "--- /dev/null\n+++ b/dn/goldens/one.el\n"));
    assert_non_null(strstr(o.out, "\n+(if (eql x 1) 2)\n"));
    arena_free(a);
}

static void broken_cases(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("br/m.yaml", "version: 1\ncases:\n"
        "  errs: {source: \"(pcase x ((bogus-head y) y))\"}\n"
        "  fine: {source: \"(pcase x (1 2))\", expect: error}\n"
        "  warns: {source: \"(pcase x (y 1))\"}\n");
    struct outcome o = run(a, "br/m.yaml", GOLDEN_UPDATE_ALL, false, true, NULL, 0);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "errs.el:1:11: error: Unknown bogus-head pattern"));
    assert_non_null(strstr(o.err, "br/m.yaml:3:3: error: case 'errs' has errors (expect: "
                                  "ok) [manifest]\n"));
    assert_non_null(strstr(o.err, "pcexpand: failed: fine expands without error "
                                  "(expect: error)\n"));
    assert_non_null(strstr(o.err, "warns.el:1:10: warning: variable `y'"));
    assert_non_null(strstr(o.err, "pcexpand: failed: warns prints warnings (expect: ok; "
                                  "use expect: warning)\n"));
    assert_non_null(strstr(o.err, "pcexpand: 0 passed, 3 failed, 0 missing\n"));
    assert_null(strstr(o.err, "run: pcexpand")); /* --update cannot accept them */
    assert_string_equal(o.out, "fine\nwarns\n");
    assert_null(slurp(a, "br/goldens/errs.el"));
    assert_null(slurp(a, "br/goldens/fine.err"));
    /* a case whose file is missing: said at its `file:` in the manifest */
    put("br/f.yaml", "version: 1\ncases:\n  gone:\n    file: nothere.el\n");
    o = run(a, "br/f.yaml", GOLDEN_CHECK, false, false, NULL, 0);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "br/f.yaml:4:11: error: case 'gone': nothere.el: "
                                  "cannot open: No such file or directory [io]\n"));
    /* without the broken case, the contradictions give exit status 1 */
    put("br/n.yaml", "version: 1\ncases:\n"
        "  fine: {source: \"(pcase x (1 2))\", expect: error}\n");
    o = run(a, "br/n.yaml", GOLDEN_UPDATE_ALL, false, false, NULL, 0);
    assert_int_equal(o.status, 1);
    arena_free(a);
}

/* Goldens and inputs resolve, links followed, inside the project (the
 * closest directory holding .git, .hg or a configuration, else the
 * manifest's): --update wrote anywhere, -d printed any file. */
static void goldens_and_inputs_stay_in_the_project(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("pj/.git/HEAD", "");
    put("pj/lisp/in.el", "(pcase x (1 2))\n");
    put("outside/keys", "secret\n");
    put("pj/t/m.yaml", "version: 1\ncases:\n"
        "  up: {source: \"(pcase x (1 2))\", golden: ../../outside/keys}\n"
        "  abs: {source: \"(pcase x (1 2))\", golden: /tmp/pcx-golden-abs.el}\n"
        "  env: {file: /proc/self/environ}\n"
        "  linked: {source: \"(pcase x (1 2))\", golden: via/g.el}\n"
        "  fine: {file: ../lisp/in.el, golden: ../lisp/in.expanded.el}\n");
    assert_int_equal(symlink("../../outside", "pj/t/via"), 0);
    struct outcome o = run(a, "pj/t/m.yaml", GOLDEN_UPDATE_ALL, true, false, NULL, 0);
    assert_int_equal(o.status, 2);
    char want[1024];
    char *real = realpath("pj", NULL);
    snprintf(want, sizeof want,
             "pj/t/m.yaml:3:43: error: case 'up': golden '../../outside/keys' is outside "
             "the project directory %s [manifest]\n"
             "pj/t/m.yaml:4:44: error: case 'abs': golden '/tmp/pcx-golden-abs.el' is "
             "outside the project directory %s [manifest]\n"
             "pj/t/m.yaml:5:15: error: case 'env': file '/proc/self/environ' is outside "
             "the project directory %s [manifest]\n"
             "pj/t/m.yaml:6:47: error: case 'linked': golden 'via/g.el' is outside the "
             "project directory %s [manifest]\n", real, real, real, real);
    free(real);
    assert_string_equal(o.err, want);
    assert_string_equal(o.out, "");
    assert_string_equal(slurp(a, "outside/keys"), "secret\n");
    assert_null(slurp(a, "/tmp/pcx-golden-abs.el"));
    assert_null(slurp(a, "outside/g.el"));
    /* without a mark above it, the project is the manifest's directory */
    put("nomark/m.yaml", "version: 1\ncases:\n  c: {file: ../pj/lisp/in.el}\n");
    o = run(a, "nomark/m.yaml", GOLDEN_CHECK, false, false, NULL, 0);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "nomark/m.yaml:3:13: error: case 'c': file "
                                  "'../pj/lisp/in.el' is outside the project directory"));
    /* two dots inside a name are no "..", and the manifest may be a link
     * to elsewhere (its goldens are still beside the link) */
    put("elsewhere/m.yaml", "version: 1\ncases:\n"
        "  c: {source: \"(pcase x (1 2))\", golden: \"sub/../two..dots.el\"}\n");
    assert_int_equal(symlink("../../elsewhere/m.yaml", "pj/t/linked.yaml"), 0);
    o = run(a, "pj/t/linked.yaml", GOLDEN_UPDATE_ALL, false, false, NULL, 0);
    assert_int_equal(o.status, 0);
    assert_non_null(slurp(a, "pj/t/two..dots.el"));
    /* a FIFO as golden would block the check */
    assert_int_equal(mkfifo("pj/t/fifo.el", 0600), 0);
    put("pj/t/f.yaml", "version: 1\ncases:\n"
        "  c: {source: \"(pcase x (1 2))\", golden: fifo.el}\n");
    o = run(a, "pj/t/f.yaml", GOLDEN_CHECK, false, false, NULL, 0);
    assert_int_equal(o.status, 2);
    assert_string_equal(o.err, "pj/t/f.yaml:3:42: error: case 'c': golden 'fifo.el' is not "
                               "a regular file [manifest]\n");
    arena_free(a);
}

/* --update must not overwrite what the manifest names as a source: the
 * case's own input, the manifest, or another case's golden. */
static void goldens_overwrite_nothing(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("ow/src.el", "(pcase x (1 2))\n");
    put("ow/m.yaml", "version: 1\ncases:\n"
        "  own: {file: src.el, golden: src.el}\n"
        "  self: {source: \"(pcase x (1 2))\", golden: m.yaml}\n"
        "  one: {source: \"(pcase x (1 2))\", golden: same.el}\n"
        "  two: {source: \"(pcase x (2 3))\", golden: ./sub/../same.el}\n"
        "  warn: {source: \"(pcase x (y 1))\", expect: warning, golden: w.el}\n"
        "  errs: {source: \"(pcase x (y 1))\", expect: error, golden: w.err}\n");
    struct outcome o = run(a, "ow/m.yaml", GOLDEN_UPDATE_ALL, false, false, NULL, 0);
    assert_int_equal(o.status, 2);
    assert_string_equal(o.err,
                        "ow/m.yaml:3:31: error: case 'own': golden 'src.el' is the case's "
                        "own input [manifest]\n"
                        "ow/m.yaml:4:45: error: case 'self': golden 'm.yaml' is the "
                        "manifest itself [manifest]\n"
                        "ow/m.yaml:6:44: error: case 'two': golden './sub/../same.el' is "
                        "also a golden of case 'one' [manifest]\n"
                        "ow/m.yaml:8:60: error: case 'errs': golden 'w.err' is also a "
                        "golden of case 'warn' [manifest]\n");
    assert_string_equal(slurp(a, "ow/src.el"), "(pcase x (1 2))\n");
    assert_null(slurp(a, "ow/same.el"));
    /* a hard link is the same file */
    put("hl/a.el", "(pcase x (1 2))\n");
    assert_int_equal(link("hl/a.el", "hl/b.el"), 0);
    put("hl/m.yaml", "version: 1\ncases:\n  c: {file: a.el, golden: b.el}\n");
    o = run(a, "hl/m.yaml", GOLDEN_UPDATE_ALL, false, false, NULL, 0);
    assert_int_equal(o.status, 2);
    assert_non_null(strstr(o.err, "golden 'b.el' is the case's own input"));
    assert_string_equal(slurp(a, "hl/a.el"), "(pcase x (1 2))\n");
    /* the manifest itself must be a regular file */
    assert_int_equal(mkfifo("hl/fifo.yaml", 0600), 0);
    o = run(a, "hl/fifo.yaml", GOLDEN_CHECK, false, false, NULL, 0);
    assert_int_equal(o.status, 2);
    assert_string_equal(o.err, "hl/fifo.yaml: error: cannot read: not a regular file "
                               "[manifest]\n");
    arena_free(a);
}

static void selection_and_obsolete(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("sel/m.yaml", "version: 1\ncases:\n"
        "  lexer-a: {source: \"(pcase x (1 2))\"}\n"
        "  lexer-b: {source: \"(pcase x (2 3))\"}\n"
        "  parser: {source: \"(pcase x (3 4))\"}\n");
    static const char *const lexers[] = {"lexer-*"};
    expansions = 0;
    struct outcome o = run(a, "sel/m.yaml", GOLDEN_UPDATE_ALL, false, false, lexers, 1);
    assert_int_equal(o.status, 0);
    assert_int_equal(expansions, 2);
    assert_null(slurp(a, "sel/goldens/parser.el"));
    static const char *const none[] = {"lexer-*", "nothing*"};
    o = run(a, "sel/m.yaml", GOLDEN_CHECK, false, false, none, 2);
    assert_int_equal(o.status, 2);
    assert_string_equal(o.err, "pcexpand: error: no case of sel/m.yaml matches 'nothing*'\n");
    run(a, "sel/m.yaml", GOLDEN_UPDATE_ALL, false, false, NULL, 0);
    put("sel/goldens/old-case.el", ";; obsolete\n");
    o = run(a, "sel/m.yaml", GOLDEN_CHECK, false, false, NULL, 0);
    assert_int_equal(o.status, 0);
    assert_non_null(strstr(o.err, "goldens/old-case.el: warning: golden file not "
                                  "referenced by any case of the manifest [golden-obsolete]\n"));
    o = run(a, "sel/m.yaml", GOLDEN_CHECK, false, false, lexers, 1);
    assert_null(strstr(o.err, "golden-obsolete")); /* only over every case */
    arena_free(a);
}

static void labels_do_not_depend_on_the_directory(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("lab/.pcexpand.yaml", "version: 1\n");
    put("lab/t/m.yaml", "version: 1\ncases:\n  one: {source: \"(pcase x (1 2))\"}\n");
    run(a, "lab/t/m.yaml", GOLDEN_UPDATE_ALL, false, false, NULL, 0);
    assert_non_null(strstr(slurp(a, "lab/t/goldens/one.el"), ";; Case: one (t/m.yaml)"));
    assert_int_equal(chdir("lab/t/goldens"), 0);
    struct outcome o = run(a, "../m.yaml", GOLDEN_CHECK, false, false, NULL, 0);
    assert_int_equal(chdir(root), 0);
    assert_int_equal(o.status, 0);
    /* without a configuration: the file name */
    put("nolab/m.yaml", "version: 1\ncases:\n  one: {source: \"(pcase x (1 2))\"}\n");
    run(a, "nolab/m.yaml", GOLDEN_UPDATE_ALL, false, false, NULL, 0);
    assert_non_null(strstr(slurp(a, "nolab/goldens/one.el"), ";; Case: one (m.yaml)"));
    arena_free(a);
}

/* The lowest free file descriptor: one left open moves it. */
static int lowest_free_fd(void)
{
    int fd = dup(0);
    assert_true(fd >= 0);
    close(fd);
    return fd;
}

/* The golden run of om/m.yaml on an arena whose backing fails its nth
 * page, after pad bytes; true when it took the out-of-memory exit. */
static bool run_failing(long n, size_t pad)
{
    struct support_failing f = {n, 0};
    struct arena_backing b = support_failing_backing(&f);
    struct arena *a = arena_new(&b);
    assert_non_null(a);
    jmp_buf jb;
    volatile bool oom = true;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        arena_alloc(a, pad + 1);
        struct outcome o = run(a, "om/m.yaml", GOLDEN_CHECK, false, false, NULL, 0);
        assert_non_null(strstr(o.err, "obsolete-file-number-39.el"));
        oom = false;
    }
    arena_on_oom(a, NULL);
    arena_free(a);
    return oom;
}

/* Memory running out at any point of a golden run (the golden folder is
 * listed for obsolete files) takes the out-of-memory exit and leaves no
 * file descriptor open.  The arena's backing fails its Nth page; a pad
 * allocated first moves the page boundaries, so that the failure also
 * strikes while the folder is open. */
static void out_of_memory_leaves_no_descriptor(void **state)
{
    (void)state;
    put("om/m.yaml", "version: 1\ncases:\n  a: {source: \"(pcase x (1 2))\"}\n");
    char name[64];
    for (int i = 0; i < 40; i++) {
        snprintf(name, sizeof name, "om/goldens/obsolete-file-number-%02d.el", i);
        put(name, "x\n");
    }
    int fd0 = lowest_free_fd();
    size_t oom_runs = 0;
    for (size_t pad = 0; pad < 64 * 1024; pad += 1024)
        for (long n = 2; run_failing(n, pad); n++) {
            assert_int_equal(lowest_free_fd(), fd0);
            oom_runs++;
        }
    assert_int_equal(lowest_free_fd(), fd0);
    assert_true(oom_runs > 64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads_the_manifest),
        cmocka_unit_test(manifest_errors),
        cmocka_unit_test(golden_file_format),
        cmocka_unit_test(round_trip),
        cmocka_unit_test(missing_diff_is_from_dev_null),
        cmocka_unit_test(broken_cases),
        cmocka_unit_test(goldens_and_inputs_stay_in_the_project),
        cmocka_unit_test(goldens_overwrite_nothing),
        cmocka_unit_test(selection_and_obsolete),
        cmocka_unit_test(labels_do_not_depend_on_the_directory),
        cmocka_unit_test(out_of_memory_leaves_no_descriptor),
    };
    return cmocka_run_group_tests(tests, make_root, remove_root) ? 1 : 0;
}
