/* replay.c - runs a fuzz target on saved inputs, without libFuzzer.
 *
 * Linked with one target's LLVMFuzzerTestOneInput to make the regression
 * tests: every file named on the command line, or found in a directory
 * named there, is passed to the target once.  A broken property aborts
 * (the test fails with the input's name printed last); otherwise the exit
 * status is 0.
 */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *data = malloc(cap);
    size_t got;
    while (data && (got = fread(data + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap)
            data = realloc(data, cap *= 2);
    }
    fclose(f);
    if (!data)
        return 1;
    fprintf(stderr, "replay %s (%zu bytes)\n", path, len);
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return 0;
}

static int cmp_names(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Every regular file of dir, in name order. */
static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(len);
        snprintf(path, len, "%s/%s", dir, names[i]);
        bad |= replay_file(path);
        free(path);
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            bad |= replay_dir(argv[i]);
        else
            bad |= replay_file(argv[i]);
    }
    return bad;
}
