// libSitegenHighlight.so: KSyntaxHighlighting behind the C interface of SitegenHighlight.h.
#include "SitegenHighlight.h"

#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/abstracthighlighter.h>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/definition.h>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/format.h>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/repository.h>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/state.h>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/theme.h>
#include <QStandardPaths>
#include <QString>
#include <QStringView>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

using namespace KSyntaxHighlighting;

// Only the definitions and themes compiled into the library, whatever the machine and the user
// have installed. Repository reads the folders QStandardPaths::locateAll finds under
// XDG_DATA_HOME (~/.local/share) and XDG_DATA_DIRS (/usr/local/share, /usr/share) first, and a
// definition found there replaces the built-in one of the same name and version: a user's
// swift.xml would change the output. The library has no switch for this (NO_STANDARD_PATHS is a
// build option), and the environment cannot be changed safely in a process whose other threads
// may read it. This library defines locateAll itself: the dynamic linker resolves the calls of
// the libraries this one brought in (loaded with dlopen, RTLD_LOCAL) to it before Qt's, so the
// repository sees no standard folder. `sgh_repository_new` checks that every definition and
// theme came from the library's resources, so a library that finds folders some other way
// fails loudly instead of changing the output.
#if 1  // SGH_BUILTIN_ONLY
QStringList QStandardPaths::locateAll(StandardLocation, const QString &, LocateOptions) { return {}; }
#endif

namespace {

/// Where a resource compiled into the library lives.
bool isBuiltin(const QString &path) { return path.startsWith(QLatin1String(":/")); }

/// Qt's warnings (a definition KSyntaxHighlighting finds fault with) would go to sitegen's
/// standard error; the output does not depend on them.
void quiet(QtMsgType, const QMessageLogContext &, const QString &) {}

/// Collects the tokens of a text line by line.
class SpanCollector final : public AbstractHighlighter {
public:
    std::vector<SGHSpan> spans;

    void run(const Definition &definition, QStringView text) {
        setDefinition(definition);
        spans.clear();
        State state;
        qsizetype start = 0;
        while (start < text.size()) {
            qsizetype end = text.indexOf(u'\n', start);
            if (end < 0) end = text.size();
            qsizetype last = end;
            if (last > start && text[last - 1] == u'\r') --last;
            lineStart = uint32_t(start);
            state = highlightLine(text.mid(start, last - start), state);
            start = end + 1;
        }
    }

protected:
    void applyFormat(int offset, int length, const Format &format) override {
        if (length <= 0) return;
        const auto style = format.textStyle();
        const uint32_t start = lineStart + uint32_t(offset);
        const bool touches = !spans.empty() && spans.back().start + spans.back().length == start;
        // What a definition marks as an error (Swift's `\(` inside a string) is drawn like the
        // token it continues, else as plain text: never in an error colour.
        if (style == Theme::Error) {
            if (touches) spans.back().length += uint32_t(length);
            return;
        }
        if (style == Theme::Normal) return;
        if (touches && spans.back().style == uint32_t(style)) {
            spans.back().length += uint32_t(length);
        } else {
            spans.push_back(SGHSpan{start, uint32_t(length), uint32_t(style)});
        }
    }

private:
    uint32_t lineStart = 0;
};

void copyText(const QByteArray &text, char *buffer, size_t size) {
    if (size == 0) return;
    const size_t n = std::min(size - 1, size_t(text.size()));
    std::memcpy(buffer, text.constData(), n);
    buffer[n] = 0;
}

} // namespace

struct SGHRepository {
    Repository repository;
    SpanCollector collector;
    QString definitionName;
    Definition definition;
};

extern "C" {

int sgh_interface(void) { return SGH_INTERFACE; }

SGHRepository *sgh_repository_new(char *error, size_t size) {
    static std::once_flag quietened;
    std::call_once(quietened, [] { qInstallMessageHandler(quiet); });
    auto *handle = new (std::nothrow) SGHRepository();
    if (!handle) {
        copyText("out of memory", error, size);
        return nullptr;
    }
    QString outside;
    for (const auto &definition : handle->repository.definitions()) {
        if (!isBuiltin(definition.filePath())) outside = definition.filePath();
    }
    for (const auto &theme : handle->repository.themes()) {
        if (!isBuiltin(theme.filePath())) outside = theme.filePath();
    }
    if (!outside.isEmpty()) {
        copyText("KSyntaxHighlighting read " + outside.toUtf8() + ", which is not one of its built-in files", error,
                 size);
        delete handle;
        return nullptr;
    }
    if (handle->repository.definitions().isEmpty()) {
        copyText("KSyntaxHighlighting has no syntax definitions", error, size);
        delete handle;
        return nullptr;
    }
    return handle;
}

void sgh_repository_free(SGHRepository *repository) { delete repository; }

int sgh_definition(SGHRepository *repository, const char *language, char *name, size_t size) {
    const auto &r = repository->repository;
    const QString wanted = QString::fromUtf8(language);
    Definition found = r.definitionForName(wanted);
    if (!found.isValid()) {
        for (const auto &definition : r.definitions()) {
            if (definition.name().compare(wanted, Qt::CaseInsensitive) == 0) {
                found = definition;
                break;
            }
        }
    }
    if (!found.isValid() && !wanted.isEmpty() && !wanted.contains(u'/')) {
        found = r.definitionForFileName(QStringLiteral("code.") + wanted);
    }
    if (!found.isValid()) return -1;
    copyText(found.name().toUtf8(), name, size);
    return 0;
}

const SGHSpan *sgh_highlight(SGHRepository *repository, const char *definition, const char *text, size_t length,
                             size_t *count) {
    const QString name = QString::fromUtf8(definition);
    if (name != repository->definitionName) {
        repository->definition = repository->repository.definitionForName(name);
        repository->definitionName = name;
    }
    if (!repository->definition.isValid() || length > size_t(INT32_MAX)) return nullptr;
    const QString code = QString::fromUtf8(text, int(length));
    repository->collector.run(repository->definition, code);
    *count = repository->collector.spans.size();
    static const SGHSpan none{0, 0, 0};
    return *count ? repository->collector.spans.data() : &none;
}

size_t sgh_theme_names(SGHRepository *repository, char *buffer, size_t size) {
    QByteArray names;
    for (const auto &theme : repository->repository.themes()) names += theme.name().toUtf8() + '\n';
    if (size > 0) std::memcpy(buffer, names.constData(), std::min(size, size_t(names.size())));
    return size_t(names.size());
}

int sgh_theme(SGHRepository *repository, const char *name, SGHStyle styles[SGH_STYLES],
              uint32_t editor[SGH_EDITOR_COLORS]) {
    const Theme theme = repository->repository.theme(QString::fromUtf8(name));
    if (!theme.isValid()) return -1;
    for (int i = 0; i < SGH_STYLES; ++i) {
        const auto style = Theme::TextStyle(i);
        styles[i] = SGHStyle{theme.textColor(style), theme.backgroundColor(style), theme.isBold(style),
                             theme.isItalic(style), theme.isUnderline(style), theme.isStrikeThrough(style)};
    }
    for (int j = 0; j < SGH_EDITOR_COLORS; ++j) editor[j] = theme.editorColor(Theme::EditorColorRole(j));
    return 0;
}

} // extern "C"
