/* fuzz_read.c - libFuzzer target: the reader and the printer alone.
 *
 * Reads the bytes as a source file (with and without the origin map, which
 * must agree), prints every form read, and checks the printer's round trip:
 * with print-circle and print-gensym on (print-quoted off), reading the
 * printed text back and printing it again gives the same text.  Also feeds the bytes to
 * read_one (read-from-string) and the coding-cookie check.
 */
#include "fuzz.h"

#include <setjmp.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "lisp/intern.h"
#include "lisp/print.h"
#include "lisp/value.h"
#include "syntax/read.h"

/* Printed text of v, print-circle and print-gensym on.  print-quoted is
 * off: Emacs's own `,@' shorthand for (\\, @) inside a backquote does not
 * read back as what it printed. */
static void print_circle(struct lisp *L, struct buf *b, const struct value *v)
{
    struct print_opts o = print_opts_default();
    o.circle = true;
    o.gensym = true;
    o.quoted = false;
    print_value(L, b, v, &o);
}

/* The printed text (a multibyte string, in Emacs's internal encoding) as
 * Emacs writes it to a file in utf-8-emacs.  False when that file would
 * not read back as the same characters, in Emacs too: a surrogate code
 * point (written, but not decoded back) or a raw byte (printed unescaped
 * in a symbol, so that neighbouring raw bytes can form a UTF-8 sequence). */
static bool externalize(struct buf *out, const struct buf *in)
{
    const uint8_t *p = (const uint8_t *)in->data;
    for (size_t k = 0; k < in->len;) {
        int l;
        uint32_t c = value_char_decode(p + k, in->len - k, &l);
        if ((c >= 0xD800 && c <= 0xDFFF) || c >= VALUE_RAW_BYTE_BASE)
            return false;
        buf_put(out, p + k, (size_t)l);
        k += (size_t)l;
    }
    return true;
}

/* The printed text of a form, written to a file, must read back as one
 * form that prints the same. */
static void round_trip(struct arena *a, const uint8_t *data, size_t size,
                       struct lisp *L, const struct value *v)
{
    struct buf b1, file, b2;
    buf_init(&b1, a);
    buf_init(&file, a);
    buf_init(&b2, a);
    print_circle(L, &b1, v);
    if (!externalize(&file, &b1))
        return;
    struct lisp *L2 = intern_new(a);
    struct read_result rd;
    if (!read_source_opts(L2, (const uint8_t *)file.data, file.len,
                          READ_NO_ORIGIN, &rd) || rd.n_forms != 1)
        fuzz_fail("printed form does not read back as one form", data, size,
                  buf_cstr(&b1));
    print_circle(L2, &b2, rd.forms[0].v);
    if (b1.len != b2.len || memcmp(b1.data, b2.data, b1.len) != 0) {
        buf_puts(&b1, "\n--- printed again\n");
        buf_put(&b1, b2.data, b2.len);
        fuzz_fail("print/read/print is not stable", data, size, buf_cstr(&b1));
    }
}

static void read_and_print(struct arena *a, const uint8_t *data, size_t size)
{
    struct lisp *L = intern_new(a);
    struct read_result rd, rd2;
    bool ok = read_source(L, data, size, &rd);
    struct lisp *L2 = intern_new(a);
    bool ok2 = read_source_opts(L2, data, size, READ_NO_ORIGIN, &rd2);
    if (ok != ok2 || rd.n_forms != rd2.n_forms ||
        (!ok && rd.err.pos != rd2.err.pos))
        fuzz_fail("reading with and without origins differs", data, size, NULL);
    struct print_opts dflt = print_opts_default();
    struct print_opts comp = print_opts_compact();
    for (size_t i = 0; i < rd.n_forms; i++) {
        struct buf b;
        buf_init(&b, a);
        print_value(L, &b, rd.forms[i].v, &dflt);
        print_value(L, &b, rd.forms[i].v, &comp);
        if (rd.forms[i].span.end > size || rd.forms[i].span.start > rd.forms[i].span.end)
            fuzz_fail("form span out of the text", data, size, NULL);
        round_trip(a, data, size, L, rd.forms[i].v);
    }
    struct value *v;
    size_t consumed;
    struct read_error err;
    if (read_one(L, data, size, &v, &consumed, &err)) {
        struct buf b;
        buf_init(&b, a);
        print_value(L, &b, v, &dflt);
    }
    struct span name;
    read_check_coding(data, size, &name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct arena *a = arena_new(NULL);
    if (!a)
        return 0;
    a->limit = FUZZ_MEMORY_LIMIT;
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        read_and_print(a, data, size);
    }
    arena_free(a);
    return 0;
}
