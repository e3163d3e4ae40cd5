/* fuzz_yaml.c - libFuzzer target: configuration files and golden
 * manifests.
 *
 * The bytes are a YAML text, read three ways:
 *  - as a tree (yaml_parse): when it parses, the tree emitted as block
 *    YAML (every scalar quoted as its text needs) parses back to the
 *    same tree, and emitting that gives the same text (unless a string
 *    holds bytes that are not UTF-8, from escapes: those are written as
 *    U+FFFD);
 *  - as a configuration (config_load_text, snippets read and templates
 *    checked as pcexpand does it): when it loads, what
 *    --print-config prints loads back and prints the same (all UTF-8,
 *    as above);
 *  - as a golden manifest (golden_load_text), whose paths are resolved
 *    against a directory that does not exist.
 * Everything lives in one arena with a memory cap; running out of it is
 * a clean exit, not a finding.
 */
#include "fuzz.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "base/arena.h"
#include "base/buf.h"
#include "io/config.h"
#include "io/golden.h"
#include "io/yaml.h"
#include "lisp/value.h"

/* Where the texts pretend to be: relative paths in them lead nowhere. */
#define FUZZ_DIR "/nonexistent-pcx-fuzz"

/* ---- the tree round trip ---- */

/* A plain null: YAML's word for an empty value. */
static bool null_word(const struct yaml_node *y)
{
    return y->kind == YAML_NULL || (y->kind == YAML_SCALAR && y->style == YAML_STYLE_PLAIN &&
                                    strcmp(y->text, "null") == 0);
}

/* A copy of y whose scalars are to be quoted as their text needs (an
 * empty value stays the word null). */
static struct yaml_node *as_strings(struct arena *a, const struct yaml_node *y)
{
    if (null_word(y))
        return yaml_new_plain(a, "null");
    if (y->kind == YAML_SCALAR)
        return yaml_new_string(a, y->text, y->len);
    struct yaml_node *c = yaml_new(a, y->kind);
    for (size_t i = 0; i < y->n; i++) {
        if (y->kind == YAML_SEQ) {
            yaml_push(a, c, as_strings(a, y->kids[i]));
            continue;
        }
        const struct yaml_node *k = y->kids[2 * i];
        /* keys are copied as strings: an empty one ("? ") and one with a
         * NUL are left out */
        if (k->kind == YAML_SCALAR && strlen(k->text) == k->len)
            yaml_put(a, c, k->text, as_strings(a, y->kids[2 * i + 1]));
    }
    return c;
}

/* Has a scalar of y bytes that are not UTF-8 (from escapes such as
 * "\xff")?  The emitter writes them as U+FFFD: such a tree does not
 * read back as itself. */
static bool raw_bytes(const struct yaml_node *y)
{
    if (y->kind == YAML_SCALAR) {
        for (size_t i = 0; i < y->len;) {
            int l;
            uint32_t c = value_char_decode((const uint8_t *)y->text + i, y->len - i, &l);
            if (c >= VALUE_RAW_BYTE_BASE || (c >= 0xD800 && c <= 0xDFFF))
                return true;
            i += (size_t)l;
        }
        return false;
    }
    size_t kids = y->kind == YAML_MAP ? 2 * y->n : y->kind == YAML_SEQ ? y->n : 0;
    for (size_t i = 0; i < kids; i++)
        if (raw_bytes(y->kids[i]))
            return true;
    return false;
}

/* Same tree?  An empty value was emitted as the word null. */
static bool same_tree(const struct yaml_node *x, const struct yaml_node *y)
{
    if (null_word(x) || null_word(y))
        return null_word(x) && null_word(y);
    if (x->kind != y->kind || x->n != y->n)
        return false;
    if (x->kind == YAML_SCALAR)
        return x->len == y->len && memcmp(x->text, y->text, x->len) == 0;
    size_t kids = x->kind == YAML_MAP ? 2 * x->n : x->n;
    for (size_t i = 0; i < kids; i++)
        if (!same_tree(x->kids[i], y->kids[i]))
            return false;
    return true;
}

/* Returns false when the text's strings are not all UTF-8 (then nothing
 * printed from it can read back the same). */
static bool tree_round_trip(struct arena *a, const uint8_t *data, size_t size)
{
    struct source s;
    struct diag_list d;
    struct yaml_node *root, *back;
    source_init(&s, a, "fuzz.yaml", data, size);
    diag_init(&d, a);
    if (!yaml_parse(a, &s, "config", &d, &root))
        return true;
    if (raw_bytes(root))
        return false;
    struct yaml_node *tree = as_strings(a, root);
    struct buf once, twice;
    buf_init(&once, a);
    buf_init(&twice, a);
    yaml_emit(&once, tree, YAML_EMIT_BLOCK);
    struct source s2;
    source_init(&s2, a, "emitted.yaml", (const uint8_t *)once.data, once.len);
    diag_init(&d, a);
    if (!yaml_parse(a, &s2, "config", &d, &back))
        fuzz_fail("the emitted YAML does not parse", data, size, buf_cstr(&once));
    if (!same_tree(tree, back))
        fuzz_fail("the emitted YAML parses to another tree", data, size, buf_cstr(&once));
    yaml_emit(&twice, as_strings(a, back), YAML_EMIT_BLOCK);
    if (once.len != twice.len || memcmp(once.data, twice.data, once.len) != 0)
        fuzz_fail("emitting the tree read back gives other text", data, size,
                  buf_cstr(&twice));
    return true;
}

/* ---- the configuration round trip ---- */

/* --print-config's text without its first line (which names the files). */
static const char *printed(struct arena *a, const struct config *c)
{
    struct buf b;
    buf_init(&b, a);
    config_print(c, a, &b);
    const char *t = buf_cstr(&b), *nl = strchr(t, '\n');
    return nl ? nl + 1 : t;
}

static void config_round_trip(struct arena *a, const uint8_t *data, size_t size,
                              bool printable)
{
    static const struct config_params p = {
        .mode = CONFIG_FILE, .lisp = {api_read_snippet, api_check_template, NULL},
    };
    const char *path = FUZZ_DIR "/.pcexpand.yaml";
    struct buf msgs;
    buf_init(&msgs, a);
    const struct config *c = config_load_text(a, path, data, size, &p, &msgs);
    if (!c || !printable)
        return;
    const char *once = printed(a, c);
    const struct config *back =
        config_load_text(a, path, (const uint8_t *)once, strlen(once), &p, &msgs);
    if (!back)
        fuzz_fail("--print-config's output does not load", data, size, buf_cstr(&msgs));
    const char *twice = printed(a, back);
    if (strcmp(once, twice) != 0)
        fuzz_fail("--print-config's output loads as another configuration", data, size,
                  twice);
}

/* ---- the manifest ---- */

static void manifest_load(struct arena *a, const uint8_t *data, size_t size)
{
    struct report_opts ro = {REPORT_GNU, false, false};
    struct golden_manifest m;
    struct buf msgs;
    buf_init(&msgs, a);
    bool ok = golden_load_text(a, FUZZ_DIR "/test/goldens.yaml", data, size, &ro, &m,
                               &msgs);
    if (ok != (msgs.len == 0))
        fuzz_fail("a manifest with errors loads, or one without is refused", data, size,
                  buf_cstr(&msgs));
    for (size_t i = 0; ok && i < m.n_cases; i++) {
        struct buf g;
        buf_init(&g, a);
        golden_text(&m.cases[i], "t.yaml", "x", 1, &g);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct arena *a = arena_new(NULL);
    if (!a)
        abort();
    a->limit = FUZZ_MEMORY_LIMIT;
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        bool printable = tree_round_trip(a, data, size);
        config_round_trip(a, data, size, printable);
        manifest_load(a, data, size);
    }
    arena_free(a);
    return 0;
}
