/* cli.h - the command line of pcexpand as data: argv -> struct cli.
 *
 * Parsing is a pure function over a sorted table of options (cli.md
 * section 17): it touches no files and prints nothing, so every rule is
 * unit-tested without spawning the program.  main.c acts on the result.
 */
#ifndef PCX_CLI_H
#define PCX_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <pcx/pcx.h>

enum cli_action {
    CLI_RUN,     /* process the operands */
    CLI_HELP,    /* print the usage text, exit 0 */
    CLI_VERSION, /* print "pcexpand VERSION", exit 0 */
    CLI_USAGE,   /* a usage error: print cli.error, exit 2 */
};

struct cli {
    enum cli_action action;
    struct pcx_options opts; /* what the library is asked to do */
    const char *stdin_name;  /* name of standard input in diagnostics */
    const char **operands;   /* FILE, DIR or "-", in command-line order */
    size_t n_operands;       /* 0 = read standard input */
    bool write;              /* -w (opts.target is set from the three below
                                once all options are read) */
    const char *output;      /* -o FILE, or NULL */
    const char *out_dir;     /* --out-dir DIR, or NULL */
    bool jobs_auto;          /* -j 0: as many jobs as online CPUs */
    bool goldens;            /* -g or --manifest: operands are golden cases */
    bool print_config;       /* --print-config */
    size_t room;             /* the operands array's size (argc): -L
                                directories are kept at its end */
    char error[256];         /* what is wrong, when action is CLI_USAGE */
};

/* One row of the option table. */
struct cli_option {
    const char *name;  /* long name without "--"; the table is sorted by it */
    char short_name;   /* single-letter alias, or 0 */
    const char *arg;   /* name of the argument in --help, or NULL for none;
                          "[=...]": optional, only as --opt=VALUE */
    const char *help;  /* one line for --help */
    bool (*set)(struct cli *c, const char *value); /* false: c->error set */
};

/* The option table, sorted by name; *n gets its length. */
const struct cli_option *cli_table(size_t *n);

/* Parse argv[1..argc-1] into *c.  operands must have room for argc
 * pointers; c->operands points to it afterwards (and opts.load_path to
 * its end, where the -L directories are kept, in command-line order).  --help and --version
 * take effect as soon as they are seen.  After the last word, the
 * combination is checked (cli.md section 5: -w with standard input, -w
 * with -o/--out-dir/-c/-d/-l/--compact/--format/--dump, -o with several
 * inputs, --at with several inputs...) and opts.target is derived from
 * -w/-o/--out-dir/-c/-d/-l.  Returns false for a usage error
 * (c->action == CLI_USAGE, c->error says what is wrong). */
bool cli_parse(struct cli *c, int argc, char *const *argv,
               const char **operands);

/* The usage text of cli.md section 2 and one line per option, to f. */
void cli_print_help(FILE *f);

/* The exit code for a parsed command line whose run (if any) ended with
 * status run: 2 for usage errors, 0 for --help/--version, else run. */
int cli_exit_code(const struct cli *c, enum pcx_status run);

#endif
