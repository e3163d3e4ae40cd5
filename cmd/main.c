/* main.c - the pcexpand command: argv -> options -> pcx_ calls -> exit.
 *
 * Everything that can be decided without touching files lives in cli.c;
 * everything that reads, expands and prints lives in the library.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcx/pcx.h>

#include "cli.h"

/* A failed assertion is a bug: say so and exit with status 3 (cli.md
 * section 11) instead of dying of SIGABRT.  Only async-signal-safe calls. */
static void on_abort(int sig)
{
    static const char msg[] =
        "pcexpand: internal error: an assertion failed; this is a bug in "
        "pcexpand " PCX_VERSION ", please report it with the output of "
        "'pcexpand --version' and the input\n";
    (void)sig;
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(PCX_STATUS_INTERNAL);
}

/* Run every operand in order; standard input when there is none. */
static enum pcx_status run(struct cli *c)
{
    if (c->jobs_auto) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        c->opts.jobs = n > 0 && n <= 1024 ? (unsigned)n : 1;
    }
    struct pcx_ctx *cx = pcx_ctx_new(&c->opts);
    if (!cx) {
        fputs("pcexpand: error: out of memory\n", stderr);
        return PCX_STATUS_ERROR;
    }
    if (c->print_config)
        pcx_print_config(cx, c->n_operands && strcmp(c->operands[0], "-") != 0
                                 ? c->operands[0] : NULL);
    else if (c->goldens)
        pcx_run_goldens(cx, c->operands, c->n_operands);
    else
        pcx_run_operands(cx, c->operands, c->n_operands, stdin, c->stdin_name);
    enum pcx_status st = pcx_ctx_finish(cx);
    pcx_ctx_free(cx);
    return st;
}

/* Close standard output, where the last buffered bytes are written: a
 * failure there fails the run (exit 2), said unless the exit code says
 * an error already. */
static int close_stdout(int code)
{
    if (fclose(stdout) == 0 || code >= PCX_STATUS_ERROR)
        return code;
    fprintf(stderr, "pcexpand: error: cannot write the output: %s\n",
            strerror(errno));
    return PCX_STATUS_ERROR;
}

int main(int argc, char **argv)
{
    signal(SIGABRT, on_abort);
    /* Past the file-size limit a write fails (EFBIG) and is reported,
     * instead of the signal killing the process mid-file. */
    signal(SIGXFSZ, SIG_IGN);
    const char **operands = malloc(sizeof *operands * (size_t)(argc + 1));
    if (!operands) {
        fputs("pcexpand: error: out of memory\n", stderr);
        return PCX_STATUS_ERROR;
    }
    struct cli c;
    enum pcx_status st = PCX_STATUS_OK;
    cli_parse(&c, argc, argv, operands);
    switch (c.action) {
    case CLI_HELP:
        cli_print_help(stdout);
        break;
    case CLI_VERSION:
        printf("pcexpand %s\n", pcx_version());
        break;
    case CLI_USAGE:
        fprintf(stderr, "pcexpand: error: %s [usage]\nTry 'pcexpand --help'.\n",
                c.error);
        break;
    case CLI_RUN:
        st = run(&c);
        break;
    }
    free(operands);
    return close_stdout(cli_exit_code(&c, st));
}
