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
    free(text);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
