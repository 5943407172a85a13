// The types of libSitegenHighlight.so's C interface (SitegenHighlight.h), shared with
// CHighlightLoader, which opens the library and calls it through pointers of these types.
#ifndef SITEGEN_HIGHLIGHT_TYPES_H
#define SITEGEN_HIGHLIGHT_TYPES_H
#include <stddef.h>
#include <stdint.h>

/// The version of this interface: the loader refuses a library that reports another.
#define SGH_INTERFACE 1

/// A repository of KSyntaxHighlighting's built-in definitions and themes (one per thread at a
/// time: a repository loads definitions lazily and is not thread-safe).
typedef struct SGHRepository SGHRepository;

/// A token: its place in the highlighted text in UTF-16 code units, and its default style
/// (KSyntaxHighlighting's `Theme::TextStyle`, 1...30; normal text has no span).
typedef struct {
    uint32_t start;
    uint32_t length;
    uint32_t style;
} SGHSpan;

/// How a theme draws one default style: colours as 0xAARRGGBB (alpha 0: the theme sets none).
typedef struct {
    uint32_t color;
    uint32_t background;
    uint8_t bold, italic, underline, strikeThrough;
} SGHStyle;

enum { SGH_STYLES = 31, SGH_EDITOR_COLORS = 28 };

#endif
