// The C interface of libSitegenHighlight.so, sitegen's glue over KDE's KSyntaxHighlighting (C++,
// Qt 5). sitegen never links it: CHighlightLoader opens it with dlopen the first time a note has
// a fenced code block with a language, so a site without code never maps Qt.
#ifndef SITEGEN_HIGHLIGHT_H
#define SITEGEN_HIGHLIGHT_H
#include "SitegenHighlightTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// SGH_INTERFACE, as the library was built.
int sgh_interface(void);

/// A repository, or NULL with the reason in `error`.
SGHRepository *sgh_repository_new(char *error, size_t size);
void sgh_repository_free(SGHRepository *repository);

/// The definition for `language` (its name, then its name ignoring case, then a file extension
/// such as "rs"): its name written to `name`; 0 when found, -1 when not.
int sgh_definition(SGHRepository *repository, const char *language, char *name, size_t size);

/// Highlights `text` (UTF-8, lines ended by \n; a \r before it is not highlighted) with the
/// definition named `definition`. The spans are in text order, never overlap and never cross a
/// line; they stay valid until the repository's next call. NULL for an unknown definition.
const SGHSpan *sgh_highlight(SGHRepository *repository, const char *definition, const char *text, size_t length,
                             size_t *count);

/// The names of the repository's themes, sorted, each ended by \n, written to `buffer` as far
/// as it holds them; returns the length they need.
size_t sgh_theme_names(SGHRepository *repository, char *buffer, size_t size);

/// The theme named `name`: `styles[i]` for each default style i and `editor[j]` for each of its
/// editor colours (`Theme::EditorColorRole`); 0 when found, -1 when not.
int sgh_theme(SGHRepository *repository, const char *name, SGHStyle styles[SGH_STYLES],
              uint32_t editor[SGH_EDITOR_COLORS]);

#ifdef __cplusplus
}
#endif
#endif
