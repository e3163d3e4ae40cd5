/* fuzz.h - shared pieces of the libFuzzer targets (core/fuzz/).
 *
 * fuzz_run mirrors what core/api.c does for one input (coding check, read,
 * expand with the pattern-macro table, splice or compact rendering), but
 * exposes the expander's memo switch so targets can compare runs; its
 * results are malloc'd copies that outlive the run's arena.  fuzz_fail
 * reports a violated property and aborts, which libFuzzer records as a
 * crash with the input that caused it.
 */
#ifndef PCX_FUZZ_H
#define PCX_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Memory one fuzzed run may use: beyond it the run ends with the "out of
 * memory" path (a clean error), well before libFuzzer's RSS limit. */
#define FUZZ_MEMORY_LIMIT ((size_t)256 * 1024 * 1024)

/* The same with the computed cache off: without sharing, nested or
 * patterns grow exponentially, and such inputs would only slow fuzzing. */
#define FUZZ_NO_MEMO_LIMIT ((size_t)48 * 1024 * 1024)

/* libFuzzer's entry point, defined by each target. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Result of one pipeline run. */
struct fuzz_result {
    char *out;        /* output bytes (malloc'd, NUL-terminated) */
    size_t out_len;
    char *diags;      /* diagnostics, GNU format (malloc'd) */
    size_t diags_len;
    bool ok;          /* no error: out is what pcexpand would print */
    bool internal;    /* an internal error (a bug) was reported */
    bool oom;         /* the run hit its memory limit */
};

/* Run the pipeline on text like pcx_run_buffer ("fuzz.el"), with the
 * computed cache on or off, rendering compactly or as the default mode
 * does.  Fills *res; release with fuzz_result_free. */
void fuzz_run(const uint8_t *text, size_t len, bool memo, bool compact,
              struct fuzz_result *res);

void fuzz_result_free(struct fuzz_result *res);

/* True when text reads without error (all of it). */
bool fuzz_reads(const uint8_t *text, size_t len);

/* Report a broken property about the input (printed with it) and abort. */
_Noreturn void fuzz_fail(const char *what, const uint8_t *text, size_t len,
                         const char *detail);

#endif
