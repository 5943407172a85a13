// libSitegenHighlight.so (Sources/SitegenHighlight: KSyntaxHighlighting behind a C interface),
// loaded at run time: sitegen opens it with dlopen the first time a note has a fenced code block
// with a language, so a site without code never maps Qt and KSyntaxHighlighting (their
// libraries take ~15 ms to map), and a sitegen without the library still builds (code blocks
// stay plain). Each function of the library has a wrapper here, callable once `sghl_open`
// succeeded.
#include "../../SitegenHighlight/include/SitegenHighlightTypes.h"

/// Opens the library at `path` and resolves its functions, once per process; 0 on success, else
/// -1 and `sghl_failure` says why.
int sghl_open(const char *path);
const char *sghl_failure(void);

SGHRepository *sghl_repository_new(char *error, size_t size);
void sghl_repository_free(SGHRepository *repository);
int sghl_definition(SGHRepository *repository, const char *language, char *name, size_t size);
const SGHSpan *sghl_highlight(SGHRepository *repository, const char *definition, const char *text, size_t length,
                              size_t *count);
size_t sghl_theme_names(SGHRepository *repository, char *buffer, size_t size);
int sghl_theme(SGHRepository *repository, const char *name, SGHStyle styles[SGH_STYLES],
               uint32_t editor[SGH_EDITOR_COLORS]);
