/* test_config.c - .pcexpand.yaml: keys, errors with positions, extends,
 * discovery, the per-context set, --print-config, warnings, exclude.
 *
 * The Lisp hooks are the real reader and pcase_macros_define_template,
 * as core/api.c lends them.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcx/pcx.h> /* enum pcx_gensyms */

#include "expand/expand.h"
#include "expand/pcase_macros.h"
#include "io/config.h"
#include "syntax/pretty.h"
#include "syntax/read.h"

/* ---- the hooks ---- */

static struct value *read_snippet(void *ctx, struct lisp *L, const char *text,
                                  size_t len, size_t *err_off, const char **why)
{
    struct read_result rd;
    (void)ctx;
    if (!read_source_opts(L, (const uint8_t *)text, len, READ_NO_ORIGIN, &rd)) {
        *err_off = rd.err.pos;
        *why = strcmp(rd.err.symbol, "end-of-file") == 0 ? "end of file during parsing"
                                                         : "invalid read syntax";
        return NULL;
    }
    if (rd.n_forms == 1)
        return rd.forms[0].v;
    *err_off = rd.n_forms ? rd.forms[1].span.start : 0;
    *why = rd.n_forms ? "more than one form" : "no form";
    return NULL;
}

static const char *check_template(void *ctx, struct lisp *L, struct value *name,
                                  struct value *args, struct value *body)
{
    struct diag_list d;
    struct expand_ctx x;
    (void)ctx;
    diag_init(&d, L->a);
    expand_init(&x, L, &d, NULL);
    x.macros = pcase_macros_new(L);
    if (pcase_macros_define_template(&x, name, args, body))
        return NULL;
    return d.n ? d.items[0].message : "not a template";
}

static const struct config_params params = {
    .mode = CONFIG_DISCOVER,
    .report = {REPORT_GNU, false, false},
    .lisp = {read_snippet, check_template, NULL},
};

/* ---- scratch files ---- */

static char root[64];
static char start_dir[4096];

static int make_root(void **state)
{
    (void)state;
    strcpy(root, "/tmp/pcx-test-config-XXXXXX");
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

/* Write text to rel (under the scratch directory, the current one),
 * creating directories. */
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

/* Load file, expecting success. */
static const struct config *ok_load(struct arena *a, const char *file)
{
    struct buf msgs;
    buf_init(&msgs, a);
    const struct config *c = config_load(a, file, &params, &msgs);
    if (!c || msgs.len)
        fail_msg("%s: unexpected errors:\n%s", file, buf_cstr(&msgs));
    return c;
}

/* Load text as file, expecting failure with exactly the messages want. */
static void bad(const char *file, const char *text, const char *want)
{
    struct arena *a = support_arena();
    struct buf msgs;
    buf_init(&msgs, a);
    put(file, text);
    const struct config *c = config_load(a, file, &params, &msgs);
    assert_null(c);
    assert_string_equal(buf_cstr(&msgs), want);
    arena_free(a);
}

/* ---- tests ---- */

static void defaults_are_the_spec(void **state)
{
    (void)state;
    const struct config *c = config_defaults();
    assert_null(c->path);
    assert_int_equal(c->width, 80);
    assert_int_equal(c->gensyms, CONFIG_GENSYMS_RENAME);
    assert_string_equal(c->gensym_prefix, "pcx--");
    assert_int_equal(c->skip_heads, 0);
    assert_int_equal(c->builtins, PCASE_MACROS_ALL);
    assert_int_equal(c->warnings_off, 0);
    assert_null(c->manifest);
}

/* The ORDER tags: the tables of config.c match the enums they mirror. */
static void tables_follow_their_enums(void **state)
{
    (void)state;
    unsigned i;
    for (i = 0; config_head_name(i); i++) {
        assert_int_equal(expand_head_bit(config_head_name(i)), 1u << i);
    }
    assert_int_equal(i, 8);
    static const unsigned bits[] = {PCASE_MACROS_SEQ, PCASE_MACROS_MAP, PCASE_MACROS_RX,
                                    PCASE_MACROS_CL_TYPE, PCASE_MACROS_CL_STRUCT,
                                    PCASE_MACROS_EIEIO};
    for (i = 0; config_builtin_name(i); i++)
        assert_int_equal(bits[i], 1u << i);
    assert_int_equal(i, 6);
    for (i = 1; config_warning_code(i); i++)
        assert_true(strcmp(config_warning_code(i - 1), config_warning_code(i)) < 0);
    assert_int_equal(i, 15);
    assert_int_equal(CONFIG_GENSYMS_HASH, PCX_GENSYMS_HASH);
    assert_int_equal(CONFIG_GENSYMS_CIRCLE, PCX_GENSYMS_CIRCLE);
    assert_int_equal(CONFIG_STRUCT_VECTOR, PCASE_STRUCT_VECTOR);
    assert_int_equal(CONFIG_STRUCT_LIST, PCASE_STRUCT_LIST);
    assert_int_equal(CONFIG_INDENT_NIL, PRETTY_NONE);
    assert_int_equal(CONFIG_INDENT_DEFUN, PRETTY_DEFUN);
    assert_int_equal(sizeof(struct config_indent), sizeof(struct pretty_indent));
}

static const char example[] =
    "# .pcexpand.yaml\n"
    "version: 1\n"
    "expand:\n"
    "  skip: [pcase-setq, \"cond*\"]\n"
    "output:\n"
    "  width: 100\n"
    "  gensyms: circle\n"
    "  gensym-prefix: \"my--\"\n"
    "indent:\n"
    "  my-with-db: 1\n"
    "  my-deftest: defun\n"
    "  a-plain: nil\n"
    "pattern-macros:\n"
    "  my-pos:\n"
    "    args: \"(v)\"\n"
    "    expand: |\n"
    "      `(and (pred integerp) ,v (guard (> ,v 0)))\n"
    "  my-kv:\n"
    "    args: \"(k &optional (v '_))\"\n"
    "    expand: |\n"
    "      `(and (pred consp) (app car ,k) (app cdr ,v))\n"
    "builtin-pattern-macros: [seq, rx]\n"
    "structs:\n"
    "  point:\n"
    "    type: vector\n"
    "    named: true\n"
    "    slots: [x, y]\n"
    "warnings:\n"
    "  exhaustive-can-fail: false\n"
    "exclude: [\"vendor/**\", \"*-autoloads.el\"]\n"
    "load-path: [lib, /opt/site-lisp]\n"
    "goldens:\n"
    "  manifest: test/pcexpand-goldens.yaml\n";

static void every_key(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("proj/.pcexpand.yaml", example);
    const struct config *c = ok_load(a, "proj/.pcexpand.yaml");
    assert_string_equal(c->path, "proj/.pcexpand.yaml");
    assert_int_equal(c->skip_heads, EXPAND_HEAD_PCASE_SETQ | EXPAND_HEAD_COND_STAR);
    assert_int_equal(c->width, 100);
    assert_int_equal(c->gensyms, CONFIG_GENSYMS_CIRCLE);
    assert_string_equal(c->gensym_prefix, "my--");
    assert_int_equal(c->n_indent, 3); /* sorted by name */
    assert_string_equal(c->indent[0].name, "a-plain");
    assert_int_equal(c->indent[0].spec, CONFIG_INDENT_NIL);
    assert_string_equal(c->indent[1].name, "my-deftest");
    assert_int_equal(c->indent[1].spec, CONFIG_INDENT_DEFUN);
    assert_int_equal(c->indent[2].spec, 1);
    assert_int_equal(c->n_templates, 2);
    assert_string_equal(c->templates[0].name, "my-pos");
    assert_string_equal(c->templates[1].args.text, "(k &optional (v '_))");
    assert_int_equal(c->builtins, PCASE_MACROS_SEQ | PCASE_MACROS_RX);
    assert_int_equal(c->n_structs, 1);
    assert_int_equal(c->structs[0].type, CONFIG_STRUCT_VECTOR);
    assert_true(c->structs[0].named);
    assert_int_equal(c->structs[0].n_slots, 2);
    assert_string_equal(c->structs[0].slots[1], "y");
    assert_false(config_warning_on(c, "exhaustive-can-fail"));
    assert_true(config_warning_on(c, "unused-variable"));
    assert_int_equal(c->n_exclude, 2);
    /* load-path: relative to the file, kept as written too */
    assert_int_equal(c->n_load_path, 2);
    assert_string_equal(c->load_path[0], "lib");
    assert_string_equal(c->load_dirs[0], "proj/lib");
    assert_string_equal(c->load_dirs[1], "/opt/site-lisp");
    assert_string_equal(c->manifest, "test/pcexpand-goldens.yaml");
    assert_string_equal(c->manifest_path, "proj/test/pcexpand-goldens.yaml");
    arena_free(a);
}

static void only_selects_heads(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("only.yaml", "version: 1\nexpand: {only: [pcase, \"pcase-let*\"]}\n");
    const struct config *c = ok_load(a, "only.yaml");
    assert_int_equal(c->skip_heads, 0xffu & ~(unsigned)(EXPAND_HEAD_PCASE |
                                                        EXPAND_HEAD_PCASE_LET_STAR));
    arena_free(a);
}

static void structure_errors(void **state)
{
    (void)state;
    bad("e1.yaml", "", "e1.yaml:1:1: error: empty configuration: it needs at least "
        "'version: 1' [config]\n");
    bad("e2.yaml", "- a\n", "e2.yaml:1:3: error: a configuration must be a mapping of "
        "keys [config]\n");
    bad("e3.yaml", "output: {width: 80}\n",
        "e3.yaml:1:1: error: missing 'version: 1' (required) [config]\n");
    bad("e4.yaml", "version: 2\n",
        "e4.yaml:1:10: error: unsupported version '2' (only version 1 exists) [config]\n");
    bad("e5.yaml", "version: 1\noutptu: {}\n",
        "e5.yaml:2:1: error: unknown key 'outptu' (expected one of builtin-pattern-macros, "
        "exclude, expand, extends, goldens, indent, load-path, output, pattern-macros, structs, "
        "version, warnings) [config]\n");
    bad("e6.yaml", "version: 1\nversion: 1\n", "e6.yaml:2:1: error: duplicate key [config]\n");
}

static void value_errors(void **state)
{
    (void)state;
    bad("v1.yaml", "version: 1\noutput:\n  width: wide\n  gensyms: pretty\n  color: 1\n",
        "v1.yaml:3:10: error: 'output.width' must be an integer from 1 to 10000, not "
        "'wide' [config]\n"
        "v1.yaml:4:12: error: 'output.gensyms' must be rename, hash or circle, not "
        "'pretty' [config]\n"
        "v1.yaml:5:3: error: unknown key 'color' in 'output' (expected width, gensyms or "
        "gensym-prefix) [config]\n");
    bad("v2.yaml", "version: 1\nwarnings:\n  unused-variable: no\n  bogus: true\n",
        "v2.yaml:3:20: error: 'warnings.unused-variable' must be true or false; YAML 1.1 "
        "booleans like 'no' are not accepted [config]\n"
        "v2.yaml:4:3: error: unknown warning code 'bogus' (expected "
        "cond-star-keyword-outside, deprecated-t-pattern, emacs-divergence, "
        "exhaustive-can-fail, exhaustive-never-fails, golden-obsolete, "
        "indent-spec-unsupported, library-unreadable, map-default-ignored, nested-backquote, pred-without-function, "
        "splice-in-backquote, underscore-argument, unreachable-clause or "
        "unused-variable) [config]\n");
    bad("v3.yaml", "version: 1\nexpand:\n  only: [pcase]\n  skip: [pcase-foo]\n",
        "v3.yaml:4:3: error: 'expand' takes 'only' or 'skip', not both [config]\n");
    bad("v4.yaml", "version: 1\nexpand: {skip: [pcase-foo]}\n",
        "v4.yaml:2:17: error: 'expand.skip' must be pcase, pcase-exhaustive, pcase-let, "
        "pcase-let*, pcase-dolist, pcase-setq, pcase-lambda or cond*, not 'pcase-foo' "
        "[config]\n");
    bad("v5.yaml", "version: 1\nindent:\n  f: (lambda)\n  g: -1\n",
        "v5.yaml:3:6: error: indent spec of 'f' must be an integer, defun or nil [config]\n"
        "v5.yaml:4:6: error: indent spec of 'g' must be an integer, defun or nil [config]\n");
    bad("v6.yaml", "version: 1\nstructs:\n  p: {type: hash}\n  q: {slots: x}\n",
        "v6.yaml:3:7: error: 'structs.p' needs 'slots' (the slot names in order) [config]\n"
        "v6.yaml:3:13: error: 'structs.p.type' must be record, vector or list, not 'hash' "
        "[config]\n"
        "v6.yaml:4:14: error: 'structs.q.slots' must be a list (write [a, b] or one '- a' "
        "per line) [config]\n");
    bad("v7.yaml", "version: 1\nexclude: vendor\nbuiltin-pattern-macros: [seq, ruby]\n",
        "v7.yaml:2:10: error: 'exclude' must be a list (write [a, b] or one '- a' per "
        "line) [config]\n"
        "v7.yaml:3:31: error: 'builtin-pattern-macros' must be seq, map, rx, cl-type, "
        "cl-struct or eieio, not 'ruby' [config]\n");
}

/* Snippets are read; positions point into the YAML text. */
static void snippet_errors(void **state)
{
    (void)state;
    /* " #" starts a YAML comment: the plain value is "(funcall" */
    bad("s1.yaml", "version: 1\npattern-macros:\n  m:\n    expand: (funcall #'f x)\n",
        "s1.yaml:4:21: error: 'pattern-macros.m.expand' must read as exactly one Lisp "
        "form: end of file during parsing; quote the value or use a | block [config]\n");
    bad("s2.yaml", "version: 1\npattern-macros:\n  m:\n    args: \"(a) (b)\"\n"
        "    expand: \"`(a ,a)\"\n",
        "s2.yaml:4:16: error: 'pattern-macros.m.args' must read as exactly one Lisp form: "
        "more than one form; quote the value or use a | block [config]\n");
    bad("s3.yaml", "version: 1\npattern-macros:\n  m:\n    expand: |\n"
        "      `(and\n        ,v))\n",
        "s3.yaml:6:12: error: 'pattern-macros.m.expand' must read as exactly one Lisp "
        "form: invalid read syntax; quote the value or use a | block [config]\n");
    bad("s4.yaml", "version: 1\npattern-macros:\n  m:\n    args: \"(v)\"\n"
        "    expand: \"(and ,v)\"\n",
        "s4.yaml:5:14: error: pattern macro m: args must be a lambda list (&optional "
        "with constant defaults, &rest) and expand one backquote form whose only "
        "computation is ,ARG and ,@ARG [config]\n");
    bad("s5.yaml", "version: 1\npattern-macros:\n  m: {args: \"(v)\"}\n",
        "s5.yaml:3:7: error: 'pattern-macros.m' needs 'expand' (one backquote form) "
        "[config]\n");
}

static void extends_merges(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("ext/base.yaml", "version: 1\noutput: {width: 60, gensyms: hash}\n"
        "indent: {a: 1, b: 2}\nexclude: [x]\nwarnings: {unused-variable: false}\n"
        "load-path: [lisp]\n");
    put("ext/sub/.pcexpand.yaml", "version: 1\nextends: ../base.yaml\n"
        "output: {width: 70}\nindent: {b: 3, c: defun}\n");
    const struct config *c = ok_load(a, "ext/sub/.pcexpand.yaml");
    assert_int_equal(c->width, 70);                    /* the including file wins */
    assert_int_equal(c->gensyms, CONFIG_GENSYMS_HASH); /* kept from the base */
    assert_int_equal(c->n_indent, 3);
    assert_int_equal(c->indent[1].spec, 3);
    assert_int_equal(c->n_exclude, 1);
    assert_false(config_warning_on(c, "unused-variable"));
    /* relative to the file that says it */
    assert_int_equal(c->n_load_path, 1);
    assert_string_equal(c->load_dirs[0], "ext/sub/../lisp");
    assert_int_equal(c->n_chain, 2);
    assert_string_equal(c->chain[1], "ext/sub/../base.yaml");
    arena_free(a);
}

static void extends_errors(void **state)
{
    (void)state;
    put("cyc/a.yaml", "version: 1\nextends: b.yaml\n");
    bad("cyc/b.yaml", "version: 1\nextends: a.yaml\n",
        "cyc/a.yaml:2:10: error: 'extends' makes a cycle: 'b.yaml' is already being "
        "read [config]\n"
        "cyc/b.yaml:2:10: error: 'extends': 'a.yaml' has errors [config]\n");
    bad("cyc/c.yaml", "version: 1\nextends: nowhere.yaml\n",
        "cyc/c.yaml:2:10: error: 'extends': cannot read 'nowhere.yaml': no such file "
        "[config]\n");
    put("cyc/d.yaml", "version: 1\nwidth: 3\n");
    bad("cyc/e.yaml", "version: 1\nextends: d.yaml\n",
        "cyc/d.yaml:2:1: error: unknown key 'width' (expected one of "
        "builtin-pattern-macros, exclude, expand, extends, goldens, indent, load-path, output, "
        "pattern-macros, structs, version, warnings) [config]\n"
        "cyc/e.yaml:2:10: error: 'extends': 'd.yaml' has errors [config]\n");
}

/* A configuration is a regular file of at most 16 MiB: a FIFO blocked
 * forever, /dev/zero filled the memory, /dev/urandom took a minute. */
static void only_regular_files_are_read(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct buf msgs;
    buf_init(&msgs, a);
    assert_int_equal(mkfifo("fifo.yaml", 0600), 0);
    assert_null(config_load(a, "fifo.yaml", &params, &msgs));
    assert_string_equal(buf_cstr(&msgs),
                        "fifo.yaml: error: cannot read: not a regular file [config]\n");
    buf_init(&msgs, a);
    assert_null(config_load(a, "/dev/zero", &params, &msgs));
    assert_string_equal(buf_cstr(&msgs),
                        "/dev/zero: error: cannot read: not a regular file [config]\n");
    bad("dev/a.yaml", "version: 1\nextends: /dev/urandom\n",
        "dev/a.yaml:2:10: error: 'extends': cannot read '/dev/urandom': not a regular "
        "file [config]\n");
    bad("dev/b.yaml", "version: 1\nextends: ../fifo.yaml\n",
        "dev/b.yaml:2:10: error: 'extends': cannot read '../fifo.yaml': not a regular "
        "file [config]\n");
    /* 16 MiB and one byte: refused before it is read */
    FILE *f = fopen("big.yaml", "wb");
    assert_non_null(f);
    assert_int_equal(fputs("version: 1\n", f) >= 0, 1);
    assert_int_equal(fseek(f, (long)CONFIG_MAX_SIZE, SEEK_SET), 0);
    assert_int_equal(fputc('\n', f), '\n');
    assert_int_equal(fclose(f), 0);
    buf_init(&msgs, a);
    assert_null(config_load(a, "big.yaml", &params, &msgs));
    assert_string_equal(buf_cstr(&msgs),
                        "big.yaml: error: cannot read: larger than 16 MiB [config]\n");
    bad("dev/c.yaml", "version: 1\nextends: ../big.yaml\n",
        "dev/c.yaml:2:10: error: 'extends': cannot read '../big.yaml': larger than "
        "16 MiB [config]\n");
    unlink("big.yaml");
    /* a FIFO found by discovery is an error, not a wait */
    assert_int_equal(mkdir("fifodir", 0755), 0);
    assert_int_equal(mkfifo("fifodir/.pcexpand.yaml", 0600), 0);
    struct config_set *set = config_set_new(a, &params);
    buf_init(&msgs, a);
    assert_null(config_for(set, "fifodir/x.el", &msgs));
    assert_non_null(strstr(buf_cstr(&msgs), "not a regular file"));
    arena_free(a);
}

/* As git's safe.directory: a file another user (not root) owns, in a
 * directory anyone may write to, is passed over with a warning, and the
 * search goes on above it.  Changing owners needs root. */
static void distrusted_files_are_ignored(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("not root: the owner of a file cannot be changed, skipped\n");
        skip();
    }
    struct arena *a = support_arena();
    put("trust/.git/HEAD", "");
    put("trust/.pcexpand.yaml", "version: 1\noutput: {width: 60}\n");
    put("trust/tmp/.pcexpand.yaml", "version: 1\nexclude: [\"*.el\"]\n"
        "output: {width: 20}\n");
    assert_int_equal(chmod("trust/tmp", 01777), 0);
    assert_int_equal(chown("trust/tmp/.pcexpand.yaml", 1234, 1234), 0);
    struct config_set *set = config_set_new(a, &params);
    struct buf msgs;
    buf_init(&msgs, a);
    const struct config *c = config_for(set, "trust/tmp/x.el", &msgs);
    assert_non_null(c);
    assert_int_equal(c->width, 60); /* the one above */
    assert_int_equal(c->n_exclude, 0);
    assert_string_equal(buf_cstr(&msgs), "trust/tmp/.pcexpand.yaml: warning: configuration "
                        "ignored: it is owned by user 1234, in a directory that others "
                        "can write to [config]\n");
    size_t len = msgs.len;
    assert_ptr_equal(config_for(set, "trust/tmp/y.el", &msgs), c);
    assert_int_equal(msgs.len, len); /* said once */
    /* 0777 too; owned by root, or in a directory others cannot write to:
     * applied */
    assert_int_equal(chmod("trust/tmp", 0777), 0);
    set = config_set_new(a, &params);
    assert_int_equal(config_for(set, "trust/tmp/x.el", NULL)->width, 60);
    assert_int_equal(chown("trust/tmp/.pcexpand.yaml", 0, 0), 0);
    set = config_set_new(a, &params);
    assert_int_equal(config_for(set, "trust/tmp/x.el", NULL)->width, 20);
    assert_int_equal(chown("trust/tmp/.pcexpand.yaml", 1234, 1234), 0);
    assert_int_equal(chmod("trust/tmp", 0755), 0);
    set = config_set_new(a, &params);
    assert_int_equal(config_for(set, "trust/tmp/x.el", NULL)->width, 20);
    /* --config=FILE names the file: no question of trust */
    assert_int_equal(chmod("trust/tmp", 01777), 0);
    struct config_params p = params;
    p.mode = CONFIG_FILE;
    p.file = "trust/tmp/.pcexpand.yaml";
    set = config_set_new(a, &p);
    assert_int_equal(config_for(set, "trust/tmp/x.el", NULL)->width, 20);
    /* without a file above: the built-in defaults */
    put("trust2/tmp/.pcexpand.yaml", "version: 1\noutput: {width: 20}\n");
    put("trust2/.hg/x", "");
    assert_int_equal(chmod("trust2/tmp", 01777), 0);
    assert_int_equal(chown("trust2/tmp/.pcexpand.yaml", 1234, 1234), 0);
    set = config_set_new(a, &params);
    assert_ptr_equal(config_for(set, "trust2/tmp/x.el", NULL), config_defaults());
    arena_free(a);
}

static void discovery(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("disc/.pcexpand.yaml", "version: 1\n");
    put("disc/a/b/x.el", "");
    put("disc/repo/.git/HEAD", "");
    put("disc/repo/src/y.el", "");
    put("disc/yml/.pcexpand.yml", "version: 1\n");
    put("disc/yml/both/.pcexpand.yaml", "version: 1\n");
    put("disc/yml/both/.pcexpand.yml", "version: 1\n");
    assert_string_equal(config_discover(a, "disc/a/b"), "disc/.pcexpand.yaml");
    assert_string_equal(config_discover(a, "disc/a/./b/../b"), "disc/.pcexpand.yaml");
    assert_null(config_discover(a, "disc/repo/src")); /* stops at .git */
    assert_string_equal(config_discover(a, "disc/yml"), "disc/yml/.pcexpand.yml");
    assert_string_equal(config_discover(a, "disc/yml/both"),
                        "disc/yml/both/.pcexpand.yaml");
    assert_int_equal(chdir("disc/a/b"), 0);
    assert_string_equal(config_discover(a, "."), "../../.pcexpand.yaml");
    assert_int_equal(chdir(root), 0);
    char abs[256];
    snprintf(abs, sizeof abs, "%s/disc/a", root);
    char want[300];
    snprintf(want, sizeof want, "%s/disc/.pcexpand.yaml", root);
    assert_string_equal(config_discover(a, abs), want);
    arena_free(a);
}

static void the_set_loads_once(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("set/good/.pcexpand.yaml", "version: 1\noutput: {width: 50}\n");
    put("set/bad/.pcexpand.yaml", "version: 1\noutput: {width: 0}\n");
    put("set/.git/HEAD", "");
    struct config_set *s = config_set_new(a, &params);
    struct buf msgs;
    buf_init(&msgs, a);
    const struct config *c1 = config_for(s, "set/good/x.el", &msgs);
    const struct config *c2 = config_for(s, "set/good/sub/../y.el", &msgs);
    assert_non_null(c1);
    assert_ptr_equal(c1, c2);
    assert_int_equal(c1->width, 50);
    assert_int_equal(msgs.len, 0);
    assert_null(config_for(s, "set/bad/x.el", &msgs));
    assert_string_equal(buf_cstr(&msgs), "set/bad/.pcexpand.yaml:2:17: error: "
                        "'output.width' must be an integer from 1 to 10000, not '0' [config]\n");
    size_t len = msgs.len;
    assert_null(config_for(s, "set/bad/y.el", &msgs));
    assert_int_equal(msgs.len, len); /* reported once */
    assert_ptr_equal(config_for(s, "set/none.el", &msgs), config_defaults());
    /* errors met without msgs are given to the next caller with msgs */
    s = config_set_new(a, &params);
    assert_null(config_for(s, "set/bad/x.el", NULL));
    buf_init(&msgs, a);
    assert_null(config_for(s, "set/bad/y.el", &msgs));
    assert_non_null(strstr(buf_cstr(&msgs), "'output.width' must be"));
    len = msgs.len;
    assert_null(config_for(s, "set/bad/z.el", &msgs));
    assert_int_equal(msgs.len, len);
    /* standard input: from --stdin-filepath's directory */
    struct config_params p = params;
    p.stdin_path = "set/good/buffer.el";
    s = config_set_new(a, &p);
    assert_int_equal(config_for(s, NULL, &msgs)->width, 50);
    p.mode = CONFIG_NONE;
    s = config_set_new(a, &p);
    assert_ptr_equal(config_for(s, "set/good/x.el", &msgs), config_defaults());
    p.mode = CONFIG_FILE;
    p.file = "set/good/.pcexpand.yaml";
    s = config_set_new(a, &p);
    assert_int_equal(config_for(s, "set/bad/x.el", &msgs)->width, 50);
    p.file = "set/missing.yaml";
    s = config_set_new(a, &p);
    assert_null(config_for(s, "x.el", &msgs));
    assert_non_null(strstr(buf_cstr(&msgs), "set/missing.yaml: error: cannot open: "
                                            "No such file or directory [config]"));
    arena_free(a);
}

/* --print-config prints a file that loads back to the same configuration. */
static void print_round_trip(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("pr/.pcexpand.yaml", example);
    const struct config *c = ok_load(a, "pr/.pcexpand.yaml");
    struct buf b1, b2;
    buf_init(&b1, a);
    buf_init(&b2, a);
    config_print(c, a, &b1);
    const char *text = buf_cstr(&b1);
    assert_non_null(strstr(text, "# pcexpand configuration: pr/.pcexpand.yaml\nversion: 1\n"));
    assert_non_null(strstr(text, "  only: [pcase, pcase-exhaustive, pcase-let, pcase-let*, "
                                 "pcase-dolist, pcase-lambda]\n"));
    assert_non_null(strstr(text, "    expand: |\n      `(and (pred integerp) ,v (guard "
                                 "(> ,v 0)))\n"));
    assert_non_null(strstr(text, "  exhaustive-can-fail: false\n"));
    put("pr/printed.yaml", text);
    config_print(ok_load(a, "pr/printed.yaml"), a, &b2);
    assert_string_equal(strchr(buf_cstr(&b2), '\n'), strchr(text, '\n'));
    buf_init(&b1, a);
    config_print(config_defaults(), a, &b1);
    put("pr/defaults.yaml", buf_cstr(&b1));
    buf_init(&b2, a);
    config_print(ok_load(a, "pr/defaults.yaml"), a, &b2);
    assert_string_equal(strchr(buf_cstr(&b2), '\n'), strchr(buf_cstr(&b1), '\n'));
    assert_non_null(strstr(buf_cstr(&b1), "goldens: {}\n"));
    arena_free(a);
}

static void values_for_a_run(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("val/.pcexpand.yaml", example);
    const struct config *c = ok_load(a, "val/.pcexpand.yaml");
    struct lisp *L = intern_new(a);
    struct config_values v;
    assert_true(config_values(c, L, &params.lisp, &v));
    assert_int_equal(v.n_templates, 2);
    assert_ptr_equal(v.templates[0].name, intern_cstr(L, "my-pos"));
    assert_true(value_consp(v.templates[0].body));
    assert_ptr_equal(value_car(v.templates[0].body), L->backquote);
    assert_int_equal(v.n_structs, 1);
    assert_ptr_equal(value_car(value_cdr(v.structs[0].slots)), intern_cstr(L, "y"));
    /* the values work: the template expands */
    struct diag_list d;
    diag_init(&d, a);
    struct expand_ctx x;
    expand_init(&x, L, &d, NULL);
    x.macros = pcase_macros_new(L);
    assert_true(pcase_macros_define_template(&x, v.templates[0].name, v.templates[0].args,
                                             v.templates[0].body));
    assert_true(pcase_macros_is_macro(&x, intern_cstr(L, "my-pos")));
    struct config_lisp none = {0};
    assert_false(config_values(c, L, &none, &v));
    arena_free(a);
}

static void disabled_warnings_are_dropped(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("w/.pcexpand.yaml", "version: 1\nwarnings: {unreachable-clause: false}\n");
    const struct config *c = ok_load(a, "w/.pcexpand.yaml");
    struct diag_list d;
    diag_init(&d, a);
    diag_add(&d, DIAG_WARNING, 1, 1, "unreachable-clause", "never");
    diag_add(&d, DIAG_NOTE, 2, 2, "unreachable-clause", "because");
    diag_add(&d, DIAG_ERROR, 3, 3, "read", "bad");
    diag_add(&d, DIAG_NOTE, 4, 4, "read", "here");
    diag_add(&d, DIAG_WARNING, 5, 5, "unused-variable", "unused");
    config_filter_diags(c, &d);
    assert_int_equal(d.n, 3);
    assert_string_equal(d.items[0].code, "read");
    assert_int_equal(d.items[1].sev, DIAG_NOTE);
    assert_string_equal(d.items[2].code, "unused-variable");
    assert_int_equal(d.n_warnings, 1);
    assert_int_equal(d.n_errors, 1);
    arena_free(a);
}

static void globs(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    static const struct {
        const char *glob, *text;
        bool match;
    } cases[] = {
        {"*.el", "a.el", true},         {"*.el", "d/a.el", false},
        {"vendor/**", "vendor/a/b.el", true}, {"vendor/**", "vendor2/a.el", false},
        {"**/x.el", "x.el", true},      {"**/x.el", "a/b/x.el", true},
        {"a/**/x.el", "a/x.el", true},  {"a/**/x.el", "a/b/c/x.el", true},
        {"?.el", "a.el", true},         {"?.el", "ab.el", false},
        {"[ab].el", "b.el", true},      {"[!ab].el", "b.el", false},
        {"[a-c]x", "cx", true},         {"*-pkg.el", "foo-pkg.el", true},
        {"lexer-*", "lexer-dispatch", true}, {"", "", true}, {"[", "[", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (config_glob(a, cases[i].glob, cases[i].text, true) != cases[i].match)
            fail_msg("glob %s on %s", cases[i].glob, cases[i].text);
    assert_true(config_glob(a, "*", "a/b", false));
    put("ex/.pcexpand.yaml", "version: 1\nexclude: [\"vendor/**\", \"*-autoloads.el\"]\n");
    put("ex/lisp/a.el", "");
    const struct config *c = ok_load(a, "ex/.pcexpand.yaml");
    assert_true(config_excludes(a, c, "ex/vendor/lib/a.el"));
    assert_true(config_excludes(a, c, "ex/lisp/foo-autoloads.el"));
    assert_false(config_excludes(a, c, "ex/lisp/vendor/a.el"));
    assert_false(config_excludes(a, c, "ex/lisp/a.el"));
    assert_int_equal(chdir("ex/lisp"), 0);
    assert_true(config_excludes(a, c, "../vendor/a.el"));
    assert_int_equal(chdir(root), 0);
    assert_false(config_excludes(a, config_defaults(), "vendor/a.el"));
    arena_free(a);
}

static void lexical_paths(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    assert_string_equal(config_path_dir(a, "a/b.el"), "a");
    assert_string_equal(config_path_dir(a, "b.el"), ".");
    assert_string_equal(config_path_dir(a, "/b.el"), "/");
    assert_string_equal(config_path_dir(a, "a//b.el"), "a");
    assert_string_equal(config_path_join(a, ".", "x"), "x");
    assert_string_equal(config_path_join(a, "d/", "x"), "d/x");
    assert_string_equal(config_path_join(a, "d", "/x"), "/x");
    assert_string_equal(config_path_abs(a, "/a/./b/../c//d"), "/a/c/d");
    assert_string_equal(config_path_abs(a, "/.."), "/");
    char want[128];
    snprintf(want, sizeof want, "%s/q", root);
    assert_string_equal(config_path_abs(a, "x/../q"), want);
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_are_the_spec),
        cmocka_unit_test(tables_follow_their_enums),
        cmocka_unit_test(every_key),
        cmocka_unit_test(only_selects_heads),
        cmocka_unit_test(structure_errors),
        cmocka_unit_test(value_errors),
        cmocka_unit_test(snippet_errors),
        cmocka_unit_test(extends_merges),
        cmocka_unit_test(extends_errors),
        cmocka_unit_test(only_regular_files_are_read),
        cmocka_unit_test(distrusted_files_are_ignored),
        cmocka_unit_test(discovery),
        cmocka_unit_test(the_set_loads_once),
        cmocka_unit_test(print_round_trip),
        cmocka_unit_test(values_for_a_run),
        cmocka_unit_test(disabled_warnings_are_dropped),
        cmocka_unit_test(globs),
        cmocka_unit_test(lexical_paths),
    };
    return cmocka_run_group_tests(tests, make_root, remove_root) ? 1 : 0;
}
