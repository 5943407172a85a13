#include "CHighlightLoader.h"
#include "../SitegenHighlight/include/SitegenHighlight.h"
#include <dlfcn.h>
#include <stdio.h>

// The library's functions, typed from its own header: a changed signature does not compile.
static struct {
    __typeof__(sgh_interface) *interface;
    __typeof__(sgh_repository_new) *repository_new;
    __typeof__(sgh_repository_free) *repository_free;
    __typeof__(sgh_definition) *definition;
    __typeof__(sgh_highlight) *highlight;
    __typeof__(sgh_theme_names) *theme_names;
    __typeof__(sgh_theme) *theme;
} g;

static char failure[1024];

const char *sghl_failure(void) { return failure; }

#define RESOLVE(field, name) \
    if (!(*(void **)&g.field = dlsym(lib, name))) { \
        snprintf(failure, sizeof failure, "%s has no %s", path, name); \
        return -1; \
    }

int sghl_open(const char *path) {
    // RTLD_LOCAL: KSyntaxHighlighting's calls to QStandardPaths resolve to the library's own
    // definition (see highlight.cpp), and nothing of Qt becomes visible to the rest of sitegen.
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(failure, sizeof failure, "%s", dlerror());
        return -1;
    }
    RESOLVE(interface, "sgh_interface") RESOLVE(repository_new, "sgh_repository_new")
    RESOLVE(repository_free, "sgh_repository_free") RESOLVE(definition, "sgh_definition")
    RESOLVE(highlight, "sgh_highlight") RESOLVE(theme_names, "sgh_theme_names") RESOLVE(theme, "sgh_theme")
    if (g.interface() != SGH_INTERFACE) {
        snprintf(failure, sizeof failure, "%s has interface %d, sitegen needs %d", path, g.interface(), SGH_INTERFACE);
        return -1;
    }
    return 0;
}

SGHRepository *sghl_repository_new(char *error, size_t size) { return g.repository_new(error, size); }
void sghl_repository_free(SGHRepository *repository) { g.repository_free(repository); }
int sghl_definition(SGHRepository *repository, const char *language, char *name, size_t size) {
    return g.definition(repository, language, name, size);
}
const SGHSpan *sghl_highlight(SGHRepository *repository, const char *definition, const char *text, size_t length,
                              size_t *count) {
    return g.highlight(repository, definition, text, length, count);
}
size_t sghl_theme_names(SGHRepository *repository, char *buffer, size_t size) {
    return g.theme_names(repository, buffer, size);
}
int sghl_theme(SGHRepository *repository, const char *name, SGHStyle styles[SGH_STYLES],
               uint32_t editor[SGH_EDITOR_COLORS]) {
    return g.theme(repository, name, styles, editor);
}
