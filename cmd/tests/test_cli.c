/* test_cli.c - option parsing, the option table, help text, exit codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Parse a NULL-terminated list of words (argv[0] is added). */
static struct cli parse_words(const char *first, ...)
{
    static char *argv[64];
    static const char *ops[64];
    int argc = 0;
    argv[argc++] = "pcexpand";
    va_list ap;
    va_start(ap, first);
    for (const char *w = first; w; w = va_arg(ap, const char *))
        argv[argc++] = (char *)w;
    va_end(ap);
    struct cli c;
    bool ok = cli_parse(&c, argc, argv, ops);
    assert_true(ok == (c.action != CLI_USAGE));
    return c;
}
#define PARSE(...) parse_words(__VA_ARGS__, (const char *)NULL)

static void table_is_sorted_and_unique(void **state)
{
    (void)state;
    size_t n;
    const struct cli_option *t = cli_table(&n);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        assert_non_null(t[i].help);
        assert_non_null(t[i].set);
        if (i > 0)
            assert_true(strcmp(t[i - 1].name, t[i].name) < 0);
        for (size_t j = i + 1; j < n; j++)
            assert_true(!t[i].short_name || t[i].short_name != t[j].short_name);
    }
}

static void every_row_is_reachable(void **state)
{
    (void)state;
    size_t n;
    const struct cli_option *t = cli_table(&n);
    for (size_t i = 0; i < n; i++) {
        char word[64];
        snprintf(word, sizeof word, "--%s%s", t[i].name,
                 t[i].arg ? "=x" : "");
        struct cli c = PARSE(word);
        /* a bad value may be rejected, but never as an unknown option */
        if (c.action == CLI_USAGE)
            assert_null(strstr(c.error, "unrecognized"));
    }
}

static void no_operand_means_stdin(void **state)
{
    (void)state;
    struct cli c = PARSE(NULL);
    assert_int_equal(c.action, CLI_RUN);
    assert_int_equal(c.n_operands, 0);
    assert_string_equal(c.stdin_name, "<stdin>");
    assert_false(c.opts.no_expand);
    assert_false(c.opts.compact);
}

static void operands_keep_their_order(void **state)
{
    (void)state;
    struct cli c = PARSE("b.el", "--no-expand", "dir", "-", "a.el", "--compact");
    assert_int_equal(c.action, CLI_RUN);
    assert_true(c.opts.no_expand && c.opts.compact);
    assert_int_equal(c.n_operands, 4);
    assert_string_equal(c.operands[0], "b.el");
    assert_string_equal(c.operands[1], "dir");
    assert_string_equal(c.operands[2], "-");
    assert_string_equal(c.operands[3], "a.el");
}

static void stdin_at_most_once(void **state)
{
    (void)state;
    struct cli c = PARSE("-", "x.el", "-");
    assert_int_equal(c.action, CLI_USAGE);
    assert_non_null(strstr(c.error, "only once"));
}

static void double_dash_ends_options(void **state)
{
    (void)state;
    struct cli c = PARSE("-q", "--", "--compact", "-h");
    assert_int_equal(c.action, CLI_RUN);
    assert_true(c.opts.quiet);
    assert_false(c.opts.compact);
    assert_int_equal(c.n_operands, 2);
    assert_string_equal(c.operands[0], "--compact");
    assert_string_equal(c.operands[1], "-h");
}

static void option_arguments_both_ways(void **state)
{
    (void)state;
    struct cli c = PARSE("--stdin-filepath=lisp/a.el");
    assert_string_equal(c.stdin_name, "lisp/a.el");
    c = PARSE("--stdin-filepath", "b.el", "--width", "100");
    assert_string_equal(c.stdin_name, "b.el");
    assert_int_equal(c.opts.width, 100);
    assert_int_equal(c.n_operands, 0);
    c = PARSE("--stdin-filepath");
    assert_int_equal(c.action, CLI_USAGE);
    assert_string_equal(c.error, "option '--stdin-filepath' requires an argument");
    c = PARSE("--stdin-filepath=");
    assert_int_equal(c.action, CLI_USAGE);
}

static void unknown_options_are_usage_errors(void **state)
{
    (void)state;
    struct cli c = PARSE("--bogus");
    assert_int_equal(c.action, CLI_USAGE);
    assert_string_equal(c.error, "unrecognized option '--bogus'");
    c = PARSE("--compac");
    assert_int_equal(c.action, CLI_USAGE); /* no abbreviations */
    c = PARSE("--compactx");
    assert_int_equal(c.action, CLI_USAGE);
    c = PARSE("--bogus=1");
    assert_string_equal(c.error, "unrecognized option '--bogus'");
    c = PARSE("-x");
    assert_int_equal(c.action, CLI_USAGE);
    assert_string_equal(c.error, "invalid option -- 'x'");
    c = PARSE("--compact=yes");
    assert_int_equal(c.action, CLI_USAGE);
    assert_string_equal(c.error, "option '--compact' doesn't allow an argument");
}

static void help_and_version_win(void **state)
{
    (void)state;
    assert_int_equal(PARSE("a.el", "--help", "--bogus").action, CLI_HELP);
    assert_int_equal(PARSE("-h").action, CLI_HELP);
    assert_int_equal(PARSE("-qh").action, CLI_HELP);
    assert_int_equal(PARSE("--version").action, CLI_VERSION);
    assert_int_equal(PARSE("--bogus", "--help").action, CLI_USAGE);
}

static void bundled_short_options(void **state)
{
    (void)state;
    struct cli c = PARSE("-qq", "f.el");
    assert_int_equal(c.action, CLI_RUN);
    assert_true(c.opts.quiet);
    assert_int_equal(c.n_operands, 1);
    c = PARSE("-qz");
    assert_int_equal(c.action, CLI_USAGE);
    assert_string_equal(c.error, "invalid option -- 'z'");
}

static void enumerated_values(void **state)
{
    (void)state;
    struct cli c = PARSE("--gensyms=circle", "--message-format", "github");
    assert_int_equal(c.action, CLI_RUN);
    assert_int_equal(c.opts.gensyms, PCX_GENSYMS_CIRCLE);
    assert_int_equal(c.opts.message_format, PCX_MESSAGE_GITHUB);
    c = PARSE("--gensyms=hash", "--message-format=json");
    assert_int_equal(c.opts.gensyms, PCX_GENSYMS_HASH);
    assert_int_equal(c.opts.message_format, PCX_MESSAGE_JSON);
    c = PARSE("--gensyms=Rename");
    assert_int_equal(c.action, CLI_USAGE);
    c = PARSE("--message-format=xml");
    assert_int_equal(c.action, CLI_USAGE);
    assert_non_null(strstr(c.error, "gnu, json or github"));
}

static void width_is_validated(void **state)
{
    (void)state;
    assert_int_equal(PARSE("--width=0").action, CLI_USAGE);
    assert_int_equal(PARSE("--width=-5").action, CLI_USAGE);
    assert_int_equal(PARSE("--width=12x").action, CLI_USAGE);
    assert_int_equal(PARSE("--width=").action, CLI_USAGE);
    assert_int_equal(PARSE("--width=99999999999999999999").action, CLI_USAGE);
    assert_int_equal(PARSE("--width=1").opts.width, 1);
    assert_int_equal(PARSE("--width=10000").opts.width, 10000);
    assert_int_equal(PARSE("--width=10001").action, CLI_USAGE);
}

static void exit_codes(void **state)
{
    (void)state;
    struct cli c = PARSE("--bogus");
    assert_int_equal(cli_exit_code(&c, PCX_STATUS_OK), 2);
    c = PARSE("--help");
    assert_int_equal(cli_exit_code(&c, PCX_STATUS_ERROR), 0);
    c = PARSE("--version");
    assert_int_equal(cli_exit_code(&c, PCX_STATUS_OK), 0);
    c = PARSE("f.el");
    assert_int_equal(cli_exit_code(&c, PCX_STATUS_OK), 0);
    assert_int_equal(cli_exit_code(&c, PCX_STATUS_STALE), 1);
    assert_int_equal(cli_exit_code(&c, PCX_STATUS_ERROR), 2);
    assert_int_equal(cli_exit_code(&c, PCX_STATUS_INTERNAL), 3);
}

static void help_lists_every_option(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    cli_print_help(f);
    long n = ftell(f);
    rewind(f);
    char *text = calloc(1, (size_t)n + 1);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    assert_true(strncmp(text, "Usage: pcexpand [OPTION]... [FILE|DIR|-]...\n", 44) == 0);
    size_t rows;
    const struct cli_option *t = cli_table(&rows);
    for (size_t i = 0; i < rows; i++) {
        char word[64];
        snprintf(word, sizeof word, "--%s", t[i].name);
        assert_non_null(strstr(text, word));
    }
    assert_non_null(strstr(text, "  -q, --quiet "));
    assert_non_null(strstr(text, "      --stdin-filepath=PATH "));
    assert_non_null(strstr(text, "  -j, --jobs=N "));
    assert_non_null(strstr(text, "  -o, --output=FILE "));
    assert_non_null(strstr(text, "  -w, --write "));
    assert_non_null(strstr(text, "      --update[=all|missing] "));
    free(text);
}


/* ---- options of the modes (cli.md sections 3-7, 15, 17) ---- */

static void target_options(void **state)
{
    (void)state;
    struct cli c = PARSE("a.el");
    assert_int_equal(c.opts.target, PCX_TARGET_STDOUT);
    assert_int_equal(c.opts.check, 0);
    assert_true(c.opts.stream);
    c = PARSE("-w", "a.el", "b.el");
    assert_int_equal(c.action, CLI_RUN);
    assert_int_equal(c.opts.target, PCX_TARGET_INPUT);
    assert_int_equal(c.opts.check, 0);
    c = PARSE("--write", "a.el");
    assert_int_equal(c.opts.target, PCX_TARGET_INPUT);
    c = PARSE("-o", "out.el", "a.el");
    assert_int_equal(c.opts.target, PCX_TARGET_FILE);
    assert_string_equal(c.opts.target_path, "out.el");
    c = PARSE("--output=o.el");
    assert_int_equal(c.opts.target, PCX_TARGET_FILE); /* standard input */
    c = PARSE("--out-dir", "out", "lisp");
    assert_int_equal(c.opts.target, PCX_TARGET_DIR);
    assert_string_equal(c.opts.target_path, "out");
    c = PARSE("-c", "lisp");
    assert_int_equal(c.opts.target, PCX_TARGET_INPUT);
    assert_int_equal(c.opts.check, PCX_CHECK_STATUS);
    c = PARSE("-dl", "--out-dir=o", "lisp");
    assert_int_equal(c.opts.target, PCX_TARGET_DIR);
    assert_int_equal(c.opts.check, PCX_CHECK_DIFF | PCX_CHECK_LIST);
    c = PARSE("--check", "--diff", "--list", "-o", "x.el", "a.el");
    assert_int_equal(c.opts.check,
                     PCX_CHECK_STATUS | PCX_CHECK_DIFF | PCX_CHECK_LIST);
    assert_int_equal(c.opts.target, PCX_TARGET_FILE);
}

static void write_combinations(void **state)
{
    (void)state;
    static const char *const others[][2] = {
        {"-o", "x.el"}, {"--out-dir", "d"}, {"-c", NULL}, {"-d", NULL},
        {"-l", NULL}, {"--compact", NULL}, {"--format=json", NULL},
        {"--dump=pat", NULL},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        struct cli c = others[i][1] ? PARSE("-w", others[i][0], others[i][1], "a.el")
                                    : PARSE("-w", others[i][0], "a.el");
        assert_int_equal(c.action, CLI_USAGE);
        assert_non_null(strstr(c.error, "-w cannot be combined with"));
    }
    struct cli c = PARSE("-w");
    assert_int_equal(c.action, CLI_USAGE);
    assert_non_null(strstr(c.error, "standard input"));
    c = PARSE("-w", "a.el", "-");
    assert_int_equal(c.action, CLI_USAGE);
    assert_non_null(strstr(c.error, "standard input"));
    c = PARSE("-w", "--format=lisp", "a.el"); /* lisp is the default */
    assert_int_equal(c.action, CLI_RUN);
}

static void other_combinations(void **state)
{
    (void)state;
    struct cli c = PARSE("-o", "x.el", "--out-dir=d", "a.el");
    assert_int_equal(c.action, CLI_USAGE);
    assert_string_equal(c.error, "-o cannot be combined with --out-dir");
    c = PARSE("-o", "x.el", "a.el", "b.el");
    assert_int_equal(c.action, CLI_USAGE);
    assert_string_equal(c.error, "-o needs exactly one input");
    c = PARSE("--at=3", "a.el", "b.el");
    assert_string_equal(c.error, "--at needs exactly one input");
    assert_int_equal(PARSE("--at=3", "a.el").action, CLI_RUN);
    assert_int_equal(PARSE("--at=3").action, CLI_RUN); /* standard input */
    c = PARSE("--format=yaml", "-c", "a.el");
    assert_int_equal(c.action, CLI_USAGE);
    assert_string_equal(c.error,
                        "--format=yaml|json cannot be combined with -c, -d and -l");
    c = PARSE("--format=json", "--out-dir=o", "a.el");
    assert_int_equal(c.action, CLI_USAGE);
    c = PARSE("--dump=dtree", "--compact", "a.el");
    assert_string_equal(c.error, "--dump cannot be combined with --compact");
    c = PARSE("--dump=dtree", "--format=json", "a.el");
    assert_int_equal(c.action, CLI_USAGE);
    c = PARSE("--dump=pat", "--no-expand", "a.el");
    assert_int_equal(c.action, CLI_USAGE);
    c = PARSE("--dump=pat", "-o", "x", "a.el");
    assert_int_equal(c.action, CLI_USAGE);
    c = PARSE("--format=json", "--compact", "a.el");
    assert_int_equal(c.action, CLI_RUN);
    /* --help still wins over a bad combination */
    assert_int_equal(PARSE("-w", "--help").action, CLI_HELP);
}

static void format_and_dump_values(void **state)
{
    (void)state;
    assert_int_equal(PARSE("a.el").opts.format, PCX_FORMAT_LISP);
    assert_int_equal(PARSE("--format=yaml").opts.format, PCX_FORMAT_YAML);
    assert_int_equal(PARSE("--format", "json").opts.format, PCX_FORMAT_JSON);
    assert_int_equal(PARSE("--format=lisp").opts.format, PCX_FORMAT_LISP);
    assert_int_equal(PARSE("--format=xml").action, CLI_USAGE);
    assert_int_equal(PARSE("a.el").opts.dump, PCX_DUMP_NONE);
    assert_int_equal(PARSE("--dump=pat").opts.dump, PCX_DUMP_PAT);
    assert_int_equal(PARSE("--dump=dtree").opts.dump, PCX_DUMP_DTREE);
    assert_int_equal(PARSE("--dump=clean").opts.dump, PCX_DUMP_CLEAN);
    struct cli c = PARSE("--dump=mtree");
    assert_int_equal(c.action, CLI_USAGE);
    assert_non_null(strstr(c.error, "pat, dtree or clean"));
}

/* --no-clean names passes (pcx_clean_pass), or all of them. */
static void no_clean_values(void **state)
{
    (void)state;
    assert_int_equal(PARSE("a.el").opts.no_clean, 0);
    int inl = pcx_clean_pass("inline", 6), lets = pcx_clean_pass("lets", 4);
    assert_true(inl >= 0 && lets >= 0 && inl != lets);
    assert_int_equal(PARSE("--no-clean=inline,lets").opts.no_clean,
                     (1u << inl) | (1u << lets));
    unsigned all = 0;
    for (int i = 0; pcx_clean_pass_name(i); i++)
        all |= 1u << i;
    assert_int_equal(PARSE("--no-clean=all").opts.no_clean, all);
    struct cli c = PARSE("--no-clean=inline,nosuch");
    assert_int_equal(c.action, CLI_USAGE);
    assert_non_null(strstr(c.error, "nosuch"));
    assert_non_null(strstr(c.error, "inline"));
    assert_int_equal(PARSE("--no-clean=").action, CLI_USAGE);
}

static void head_lists(void **state)
{
    (void)state;
    unsigned pcase = pcx_head_bit("pcase"), let = pcx_head_bit("pcase-let*"),
             cs = pcx_head_bit("cond*");
    assert_true(pcase && let && cs && pcase != let && let != cs);
    assert_int_equal(pcx_head_bit("pcase-defmacro"), 0);
    assert_int_equal(pcx_head_bit("match*"), 0);
    assert_int_equal(PARSE("a.el").opts.skip_heads, 0);
    struct cli c = PARSE("--only=pcase,cond*");
    assert_int_equal(c.action, CLI_RUN);
    assert_int_equal(c.opts.skip_heads, PCX_HEADS_ALL & ~(pcase | cs));
    c = PARSE("--skip", "pcase-let*");
    assert_int_equal(c.opts.skip_heads, let);
    c = PARSE("--only=pcase,pcase-let*", "--skip=pcase");
    assert_int_equal(c.opts.skip_heads, PCX_HEADS_ALL & ~let);
    unsigned all = 0;
    static const char *const names[] = {"pcase", "pcase-exhaustive", "pcase-let",
                                        "pcase-let*", "pcase-setq", "pcase-dolist",
                                        "pcase-lambda", "cond*"};
    for (size_t i = 0; i < 8; i++)
        all |= pcx_head_bit(names[i]);
    assert_int_equal(all, PCX_HEADS_ALL);
    static const char *const bad[] = {"--only=pcase,foo", "--only=", "--skip=,pcase",
                                      "--only=pcase,", "--skip=PCASE", "--only=cond"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        c = PARSE(bad[i]);
        assert_int_equal(c.action, CLI_USAGE);
        assert_non_null(strstr(c.error, "expected names from"));
    }
}

static void at_values(void **state)
{
    (void)state;
    struct cli c = PARSE("--at=12");
    assert_int_equal(c.opts.at_line, 12);
    assert_int_equal(c.opts.at_col, 0);
    c = PARSE("--at", "3:17", "f.el");
    assert_int_equal(c.opts.at_line, 3);
    assert_int_equal(c.opts.at_col, 17);
    static const char *const bad[] = {"--at=0", "--at=3:0", "--at=3:", "--at=:3",
                                      "--at=x", "--at=3:4:5", "--at=-1",
                                      "--at=", "--at=99999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        c = PARSE(bad[i]);
        assert_int_equal(c.action, CLI_USAGE);
        assert_non_null(strstr(c.error, "LINE or LINE:COL"));
    }
}

static void jobs_values(void **state)
{
    (void)state;
    struct cli c = PARSE("a.el");
    assert_int_equal(c.opts.jobs, 0);
    assert_false(c.jobs_auto);
    c = PARSE("-j4", "a.el");
    assert_int_equal(c.opts.jobs, 4);
    c = PARSE("-j", "2", "a.el");
    assert_int_equal(c.opts.jobs, 2);
    assert_int_equal(c.n_operands, 1);
    c = PARSE("--jobs=1");
    assert_int_equal(c.opts.jobs, 1);
    c = PARSE("-j0");
    assert_true(c.jobs_auto);
    c = PARSE("-qj3");
    assert_true(c.opts.quiet);
    assert_int_equal(c.opts.jobs, 3);
    assert_int_equal(PARSE("-j").action, CLI_USAGE);
    assert_int_equal(PARSE("-jx").action, CLI_USAGE);
    assert_int_equal(PARSE("-j1025").action, CLI_USAGE);
    assert_int_equal(PARSE("-j-1").action, CLI_USAGE);
}

static void flags(void **state)
{
    (void)state;
    struct cli c = PARSE("a.el");
    assert_false(c.opts.stats || c.opts.verbose || c.opts.no_memo || c.opts.werror ||
                 c.opts.whole);
    c = PARSE("--stats", "-v", "--no-memo", "--werror", "-q", "--whole", "a.el");
    assert_true(c.opts.stats && c.opts.verbose && c.opts.no_memo && c.opts.werror &&
                c.opts.quiet && c.opts.whole);
    c = PARSE("--verbose");
    assert_true(c.opts.verbose);
    c = PARSE("--stats=1");
    assert_int_equal(c.action, CLI_USAGE);
    c = PARSE("-o");
    assert_string_equal(c.error, "option requires an argument -- 'o'");
    c = PARSE("-oout.el", "a.el");
    assert_string_equal(c.output, "out.el");
    c = PARSE("--out-dir=");
    assert_int_equal(c.action, CLI_USAGE);
}

static void configuration_options(void **state)
{
    (void)state;
    struct cli c = PARSE("a.el");
    assert_int_equal(c.opts.config, PCX_CONFIG_DISCOVER);
    assert_null(c.opts.stdin_filepath);
    assert_false(c.opts.gensyms_given || c.opts.heads_given || c.print_config);
    c = PARSE("--config=ci.yaml", "a.el");
    assert_int_equal(c.opts.config, PCX_CONFIG_FILE);
    assert_string_equal(c.opts.config_file, "ci.yaml");
    c = PARSE("--config=ci.yaml", "--no-config");
    assert_int_equal(c.opts.config, PCX_CONFIG_NONE);
    assert_int_equal(PARSE("--config=").action, CLI_USAGE);
    c = PARSE("--stdin-filepath=lisp/x.el");
    assert_string_equal(c.opts.stdin_filepath, "lisp/x.el");
    c = PARSE("--gensyms=rename", "--skip=cond*");
    assert_true(c.opts.gensyms_given && c.opts.heads_given);
    c = PARSE("--print-config", "-w"); /* nothing is run: no -w rules */
    assert_int_equal(c.action, CLI_RUN);
    assert_true(c.print_config);
}

/* -L DIR, repeatable, kept in command-line order beside the operands. */
static void load_path_options(void **state)
{
    (void)state;
    struct cli c = PARSE("a.el");
    assert_int_equal(c.opts.n_load_path, 0);
    assert_null(c.opts.load_path);
    c = PARSE("-L", "lib", "a.el", "-Lvendor", "--directory=/usr/share/x", "b.el",
              "--directory", "d");
    assert_int_equal(c.action, CLI_RUN);
    assert_int_equal(c.opts.n_load_path, 4);
    assert_string_equal(c.opts.load_path[0], "lib");
    assert_string_equal(c.opts.load_path[1], "vendor");
    assert_string_equal(c.opts.load_path[2], "/usr/share/x");
    assert_string_equal(c.opts.load_path[3], "d");
    assert_int_equal(c.n_operands, 2);
    assert_string_equal(c.operands[0], "a.el");
    assert_string_equal(c.operands[1], "b.el");
    assert_int_equal(PARSE("-L").action, CLI_USAGE);
    assert_int_equal(PARSE("-L", "").action, CLI_USAGE);
}

static void golden_options(void **state)
{
    (void)state;
    struct cli c = PARSE("-g");
    assert_int_equal(c.action, CLI_RUN);
    assert_true(c.goldens);
    assert_int_equal(c.opts.update, PCX_UPDATE_NONE);
    c = PARSE("--manifest", "t/g.yaml", "lexer-*", "cons");
    assert_true(c.goldens);
    assert_string_equal(c.opts.manifest, "t/g.yaml");
    assert_int_equal(c.n_operands, 2);
    c = PARSE("-g", "--update");
    assert_int_equal(c.opts.update, PCX_UPDATE_ALL);
    assert_int_equal(c.n_operands, 0); /* an optional value is never the next word */
    c = PARSE("-g", "--update", "all");
    assert_int_equal(c.n_operands, 1);
    c = PARSE("-g", "--update=missing");
    assert_int_equal(c.opts.update, PCX_UPDATE_MISSING);
    c = PARSE("-g", "--update=all");
    assert_int_equal(c.opts.update, PCX_UPDATE_ALL);
    c = PARSE("-g", "--update=some");
    assert_int_equal(c.action, CLI_USAGE);
    c = PARSE("--update");
    assert_string_equal(c.error, "--update needs -g or --manifest");
    c = PARSE("-g", "-dl");
    assert_int_equal(c.action, CLI_RUN);
    assert_int_equal(c.opts.check, PCX_CHECK_DIFF | PCX_CHECK_LIST);
    static const char *const bad[] = {"-w", "--compact", "--format=json",
                                      "--dump=pat", "--at=3", "--no-expand"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        c = PARSE("-g", bad[i]);
        assert_int_equal(c.action, CLI_USAGE);
        assert_non_null(strstr(c.error, "-g cannot be combined with"));
    }
    c = PARSE("-g", "-o", "x");
    assert_string_equal(c.error, "-g cannot be combined with -o");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_sorted_and_unique),
        cmocka_unit_test(every_row_is_reachable),
        cmocka_unit_test(no_operand_means_stdin),
        cmocka_unit_test(operands_keep_their_order),
        cmocka_unit_test(stdin_at_most_once),
        cmocka_unit_test(double_dash_ends_options),
        cmocka_unit_test(option_arguments_both_ways),
        cmocka_unit_test(unknown_options_are_usage_errors),
        cmocka_unit_test(help_and_version_win),
        cmocka_unit_test(bundled_short_options),
        cmocka_unit_test(enumerated_values),
        cmocka_unit_test(width_is_validated),
        cmocka_unit_test(exit_codes),
        cmocka_unit_test(help_lists_every_option),
        cmocka_unit_test(target_options),
        cmocka_unit_test(write_combinations),
        cmocka_unit_test(other_combinations),
        cmocka_unit_test(format_and_dump_values),
        cmocka_unit_test(no_clean_values),
        cmocka_unit_test(head_lists),
        cmocka_unit_test(at_values),
        cmocka_unit_test(jobs_values),
        cmocka_unit_test(flags),
        cmocka_unit_test(configuration_options),
        cmocka_unit_test(load_path_options),
        cmocka_unit_test(golden_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
