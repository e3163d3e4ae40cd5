/* config_check.c - typed values out of YAML trees, with positioned errors.
 *
 * YAML gives scalars no types (cli.md section 14), so every number,
 * boolean and word of the configuration and of the golden manifest is
 * checked here; a mistake is a diagnostic at the value's position with
 * the checker's code ("config", "manifest").  Used by config.c and
 * golden.c.
 */
#include "io/config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int config_word(const char *const *words, const char *w)
{
    for (int i = 0; words[i]; i++)
        if (strcmp(words[i], w) == 0)
            return i;
    return -1;
}

const char *config_words(struct arena *a, const char *const *words)
{
    struct buf b;
    size_t n = 0;
    buf_init(&b, a);
    while (words[n])
        n++;
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", words[i]);
    return buf_cstr(&b);
}

bool config_error(const struct config_check *k, const struct yaml_node *at,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    uint32_t pos = at ? at->pos : 0;
    diag_addv(k->d, DIAG_ERROR, pos, pos, k->code, fmt, ap);
    va_end(ap);
    return false;
}

bool config_check_map(const struct config_check *k, const struct yaml_node *v,
                      const char *what)
{
    if (v->kind == YAML_MAP || v->kind == YAML_NULL)
        return true;
    return config_error(k, v, "'%s' must be a mapping", what);
}

bool config_check_seq(const struct config_check *k, const struct yaml_node *v,
                      const char *what)
{
    if (v->kind == YAML_SEQ || v->kind == YAML_NULL)
        return true;
    return config_error(k, v, "'%s' must be a list (write [a, b] or one '- a' per line)",
                        what);
}

bool config_check_scalar(const struct config_check *k, const struct yaml_node *v,
                         const char *what)
{
    if (v->kind == YAML_SCALAR)
        return true;
    if (v->kind == YAML_NULL)
        return config_error(k, v, "'%s' needs a value", what);
    return config_error(k, v, "'%s' must be a single value, not a %s", what,
                        v->kind == YAML_MAP ? "mapping" : "list");
}

bool config_check_string(const struct config_check *k, const struct yaml_node *v,
                         const char *what, const char **out)
{
    if (!config_check_scalar(k, v, what))
        return false;
    if (v->len == 0 || strlen(v->text) != v->len)
        return config_error(k, v, "'%s' must be a non-empty string without NUL", what);
    *out = v->text;
    return true;
}

bool config_check_int(const struct config_check *k, const struct yaml_node *v,
                      const char *what, long lo, long hi, long *out)
{
    if (!config_check_scalar(k, v, what))
        return false;
    char *end;
    long n = strtol(v->text, &end, 10);
    bool digits = v->text[0] >= '0' && v->text[0] <= '9';
    if (v->style != YAML_STYLE_PLAIN || !digits || *end || n < lo || n > hi)
        return config_error(k, v, "'%s' must be an integer from %ld to %ld, not '%s'",
                            what, lo, hi, v->text);
    *out = n;
    return true;
}

bool config_check_bool(const struct config_check *k, const struct yaml_node *v,
                       const char *what, bool *out)
{
    static const char *const yaml11[] = {"yes", "no", "on", "off", "y", "n",
                                         "Yes", "No", "On", "Off", "YES", "NO",
                                         "ON", "OFF", "Y", "N", NULL};
    if (!config_check_scalar(k, v, what))
        return false;
    bool plain = v->style == YAML_STYLE_PLAIN;
    if (plain && (strcmp(v->text, "true") == 0 || strcmp(v->text, "false") == 0)) {
        *out = v->text[0] == 't';
        return true;
    }
    if (plain && config_word(yaml11, v->text) >= 0)
        return config_error(k, v, "'%s' must be true or false; YAML 1.1 booleans "
                            "like '%s' are not accepted", what, v->text);
    return config_error(k, v, "'%s' must be true or false, not '%s'", what, v->text);
}

bool config_check_word(const struct config_check *k, const struct yaml_node *v,
                       const char *what, const char *const *words, int *out)
{
    if (!config_check_scalar(k, v, what))
        return false;
    *out = config_word(words, v->text);
    if (*out >= 0)
        return true;
    return config_error(k, v, "'%s' must be %s, not '%s'", what,
                        config_words(k->a, words), v->text);
}

bool config_check_bits(const struct config_check *k, const struct yaml_node *v,
                       const char *what, const char *const *words, unsigned *out)
{
    if (!config_check_seq(k, v, what))
        return false;
    bool ok = true;
    *out = 0;
    for (size_t i = 0; i < v->n; i++) {
        int w;
        if (config_check_word(k, v->kids[i], what, words, &w))
            *out |= 1u << w;
        else
            ok = false;
    }
    return ok;
}

void config_check_keys(const struct config_check *k, const struct yaml_node *map,
                       const char *what, const char *const *keys)
{
    for (size_t i = 0; i < map->n; i++)
        if (config_word(keys, map->kids[2 * i]->text) < 0)
            config_error(k, map->kids[2 * i], "unknown key '%s' in '%s' (expected %s)",
                         map->kids[2 * i]->text, what, config_words(k->a, keys));
}

/* ---- arrays of named elements ---- */

static uint64_t name_hash(const char *s)
{
    uint64_t h = 14695981039346656037u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static const char *name_at(const void *arr, size_t sz, size_t i)
{
    return *(const char *const *)((const char *)arr + i * sz);
}

/* The slot of name: where it is, or the empty slot where it would go. */
static size_t index_slot(const struct config_index *x, const void *arr, size_t sz,
                         const char *name)
{
    size_t j = (size_t)name_hash(name) & (x->cap - 1);
    while (x->slot[j] && strcmp(name_at(arr, sz, x->slot[j] - 1), name) != 0)
        j = (j + 1) & (x->cap - 1);
    return j;
}

static void index_fill(struct config_index *x, const void *arr, size_t n, size_t sz)
{
    x->slot = arena_zalloc(x->a, x->cap * sizeof *x->slot);
    for (size_t i = 0; i < n; i++)
        x->slot[index_slot(x, arr, sz, name_at(arr, sz, i))] = i + 1;
}

void config_index_init(struct config_index *x, struct arena *a, const void *arr,
                       size_t n, size_t sz)
{
    x->a = a;
    x->cap = 16;
    while (x->cap < 2 * n + 2)
        x->cap *= 2;
    index_fill(x, arr, n, sz);
}

size_t config_index_get(const struct config_index *x, const void *arr, size_t n,
                        size_t sz, const char *name)
{
    size_t s = x->slot[index_slot(x, arr, sz, name)];
    return s ? s - 1 : n;
}

void config_index_add(struct config_index *x, const void *arr, size_t n, size_t sz)
{
    if (2 * n + 2 > x->cap) { /* at most half full: short probe runs */
        x->cap *= 2;
        index_fill(x, arr, n - 1, sz);
    }
    x->slot[index_slot(x, arr, sz, name_at(arr, sz, n - 1))] = n;
}

void *config_array_push(struct arena *a, void *arr, size_t *n, size_t *cap, size_t sz)
{
    if (*n == *cap) {
        size_t more = *cap ? 2 * *cap : 8;
        arr = arena_grow(a, arr, *cap * sz, more * sz);
        *cap = more;
    }
    memset((char *)arr + *n * sz, 0, sz);
    (*n)++;
    return arr;
}
