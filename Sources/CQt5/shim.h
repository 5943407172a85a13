// Qt 5's compiler and linker flags (pkg-config Qt5Gui: KSyntaxHighlighting's headers use QColor)
// for the C++ glue in Sources/SitegenHighlight; no Swift code imports this module.
