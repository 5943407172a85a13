// KSyntaxHighlighting alone, through libSitegenHighlight.so's C interface: the cost sitegen's
// highlighting cannot go below. Opens the library as sitegen does (dlopen, RTLD_LOCAL), makes a
// repository, then highlights the file's text N times with one definition; prints the one-off
// costs and the wall and CPU µs per block (the median of R rounds of N/R blocks).
//
//     cc -O2 -I Sources/SitegenHighlight/include bench/highlight_alone.c -o /tmp/highlight_alone -ldl
//     /tmp/highlight_alone .build/release/libSitegenHighlight.so BLOCK.swift [Swift] [1500] [5]
//
// bench/highlight_bench.py builds and runs it in the same run as sitegen when given --alone.
#include "SitegenHighlight.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define RESOLVE(name) __typeof__(name) *f_##name = (__typeof__(name) *)dlsym(lib, #name)

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s LIBRARY FILE [DEFINITION] [BLOCKS] [ROUNDS]\n", argv[0]);
        return 2;
    }
    const char *definition = argc > 3 ? argv[3] : "Swift";
    const int blocks = argc > 4 ? atoi(argv[4]) : 1500;
    const int rounds = argc > 5 ? atoi(argv[5]) : 5;
    FILE *file = fopen(argv[2], "rb");
    if (!file) { perror(argv[2]); return 1; }
    static char text[1 << 20];
    const size_t length = fread(text, 1, sizeof text, file);
    fclose(file);

    double start = seconds(CLOCK_MONOTONIC);
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    const double opened = seconds(CLOCK_MONOTONIC);
    RESOLVE(sgh_repository_new);
    RESOLVE(sgh_highlight);
    char error[1024];
    SGHRepository *repository = f_sgh_repository_new(error, sizeof error);
    if (!repository) { fprintf(stderr, "%s\n", error); return 1; }
    const double made = seconds(CLOCK_MONOTONIC);
    size_t count = 0;
    if (!f_sgh_highlight(repository, definition, text, length, &count)) {
        fprintf(stderr, "no definition %s\n", definition);
        return 1;
    }
    const double first = seconds(CLOCK_MONOTONIC);

    double wall[64], cpu[64];
    const int r = rounds < 1 ? 1 : rounds > 64 ? 64 : rounds;
    const int each = blocks / r > 0 ? blocks / r : 1;
    for (int i = 0; i < r; ++i) {
        const double w = seconds(CLOCK_MONOTONIC), c = seconds(CLOCK_PROCESS_CPUTIME_ID);
        for (int j = 0; j < each; ++j) f_sgh_highlight(repository, definition, text, length, &count);
        wall[i] = (seconds(CLOCK_MONOTONIC) - w) / each * 1e6;
        cpu[i] = (seconds(CLOCK_PROCESS_CPUTIME_ID) - c) / each * 1e6;
    }
    qsort(wall, r, sizeof *wall, compare);
    qsort(cpu, r, sizeof *cpu, compare);
    printf("library alone: %zu bytes, %zu spans; dlopen %.1f ms, repository %.1f ms, first block %.1f ms\n",
           length, count, (opened - start) * 1e3, (made - opened) * 1e3, (first - made) * 1e3);
    printf("library alone: %d rounds of %d blocks (medians): wall %.1f µs, CPU %.1f µs per block\n", r, each,
           wall[r / 2], cpu[r / 2]);
    return 0;
}
