// SPDX-License-Identifier: Apache-2.0
#include "designer/core/capture_insertion.h"

#include "designer/core/manifest_document.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>
#include <QUndoStack>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

namespace ccm::designer {
namespace {

/// The translation context of this file's texts.
class InsertionTexts {
    Q_DECLARE_TR_FUNCTIONS(ccm::designer::CaptureInsertion)
};

/// The rank of the types a capture does not write.
constexpr int kOtherTypes = 3;

/// The order a capture writes its types in; other types sort after them.
int captureTypeRank(const std::string &type)
{
    if (type == "package")
        return 0;
    if (type == "file")
        return 1;
    if (type == "service")
        return 2;
    return kOtherTypes;
}

/// What the manifest has: "type#name", and for files "file#PATH" of an explicit path too.
std::set<std::string> presentResources(const ManifestDocument &document)
{
    std::set<std::string> present;
    for (const FlatResource &resource : document.resources()) {
        present.insert(resource.label());
        const auto path = resource.properties.find("path");
        if (resource.type == "file" && path != resource.properties.end() && path->is_string())
            present.insert("file#" + path->get<std::string>());
    }
    return present;
}

/// Whether any added resource looks up `dataPath` ("data.package_versions.nginx").
bool lookedUp(const std::string &addedText, const std::string &dataPath)
{
    return addedText.find(dataPath + '\'') != std::string::npos || addedText.find(dataPath + '"') != std::string::npos;
}

/// Merges `captured` into `target` where an added resource looks the value up; a value the target
/// already holds differently stays and is reported.
bool mergeData(ccm::Json &target, const ccm::Json &captured, const std::string &prefix, const std::string &addedText,
    QStringList &conflicts)
{
    bool changed = false;
    for (const auto &[key, value] : captured.items()) {
        const std::string path = prefix + '.' + key;
        const auto existing = target.find(key);
        if (existing == target.end()) {
            ccm::Json taken = value.is_object() ? ccm::Json::object() : value;
            if (value.is_object() && mergeData(taken, value, path, addedText, conflicts)) {
                target[key] = std::move(taken);
                changed = true;
            } else if (!value.is_object() && lookedUp(addedText, path)) {
                target[key] = std::move(taken);
                changed = true;
            }
        } else if (existing->is_object() && value.is_object()) {
            changed = mergeData(*existing, value, path, addedText, conflicts) || changed;
        } else if (*existing != value && lookedUp(addedText, path)) {
            conflicts.append(
                InsertionTexts::tr("%1 is %2 in the manifest and %3 on the host; the manifest's value is kept")
                    .arg(QString::fromStdString(path), QString::fromStdString(existing->dump()),
                        QString::fromStdString(value.dump())));
        }
    }
    return changed;
}

/// Where a resource of `type` goes: the end of the last block of its type, else a new block
/// before the first block of a type the capture writes later, else a new block at the end.
std::pair<int, int> placeFor(const ManifestDocument &document, const std::string &type)
{
    const std::vector<ResourceBlock> &blocks = document.blocks();
    for (std::size_t b = blocks.size(); b-- > 0;) {
        if (blocks[b].type == type)
            return {static_cast<int>(b), static_cast<int>(blocks[b].entries.size())};
    }
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const int rank = captureTypeRank(blocks[b].type);
        if (rank > captureTypeRank(type) && rank < kOtherTypes)
            return {static_cast<int>(b), 0};
    }
    return {static_cast<int>(blocks.size()), 0};
}

/// Why `relative` cannot be written under `directory`, or empty; *same when the same bytes are
/// there already.
QString sourceProblem(const QString &directory, const CapturedSource &source, bool *same)
{
    *same = false;
    const QString relative = QString::fromStdString(source.path);
    const QStringList parts = relative.split(QLatin1Char('/'));
    QString walked = directory;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        walked = QDir(walked).filePath(parts[i]);
        const QFileInfo step(walked);
        if (step.isSymLink() || (step.exists() && !step.isDir()))
            return InsertionTexts::tr("%1 is in the way: it is not a directory").arg(QDir::toNativeSeparators(walked));
    }
    const QString target = QDir(directory).filePath(relative);
    const QFileInfo info(target);
    if (!info.exists() && !info.isSymLink())
        return {};
    if (info.isSymLink() || !info.isFile())
        return InsertionTexts::tr("%1 already exists and is not a regular file").arg(QDir::toNativeSeparators(target));
    QFile existing(target);
    if (!existing.open(QIODevice::ReadOnly))
        return InsertionTexts::tr("%1 already exists and cannot be read: %2")
            .arg(QDir::toNativeSeparators(target), existing.errorString());
    if (existing.readAll() != QByteArray::fromStdString(source.content))
        return InsertionTexts::tr("%1 already exists with other content; move it away, or add the file without it")
            .arg(QDir::toNativeSeparators(target));
    *same = true;
    return {};
}

/// Writes one source: a temporary file beside the target (0600 from the start), renamed over it.
QString writeSource(const QString &directory, const CapturedSource &source)
{
    const QString target = QDir(directory).filePath(QString::fromStdString(source.path));
    const QString parent = QFileInfo(target).absolutePath();
    if (!QDir().mkpath(parent))
        return InsertionTexts::tr("Cannot create the directory %1").arg(QDir::toNativeSeparators(parent));
    QTemporaryFile file(QDir(parent).filePath(QStringLiteral(".ccm-capture-XXXXXX")));
    if (!file.open())
        return InsertionTexts::tr("Cannot write in %1: %2").arg(QDir::toNativeSeparators(parent), file.errorString());
    const QByteArray bytes = QByteArray::fromStdString(source.content);
    const QFile::Permissions owner = QFile::ReadOwner | QFile::WriteOwner;
    const QFile::Permissions permissions = source.privateContent ? owner : owner | QFile::ReadGroup | QFile::ReadOther;
    if (file.write(bytes) != bytes.size() || !file.flush() || !file.setPermissions(permissions))
        return InsertionTexts::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(target), file.errorString());
    file.close();
    if (std::rename(QFile::encodeName(file.fileName()).constData(), QFile::encodeName(target).constData()) != 0)
        return InsertionTexts::tr("Cannot write %1: %2")
            .arg(QDir::toNativeSeparators(target), QString::fromLocal8Bit(std::strerror(errno)));
    file.setAutoRemove(false);
    return {};
}

} // namespace

CaptureInsertionPlan planCaptureInsertion(const ManifestDocument &document, const CapturedManifest &capture)
{
    CaptureInsertionPlan plan;
    std::set<std::string> present = presentResources(document);
    std::set<std::string> sourcePaths;
    std::string addedText;
    for (const CapturedResource &resource : capture.resources) {
        const std::string label = resource.type + '#' + resource.name;
        if (!present.insert(label).second) {
            plan.alreadyPresent.append(QString::fromStdString(label));
            continue;
        }
        plan.added.push_back(resource);
        addedText += resource.properties.dump();
        const auto source = resource.properties.find("source");
        if (source != resource.properties.end() && source->is_string())
            sourcePaths.insert(source->get<std::string>());
    }
    for (const CapturedSource &source : capture.sources) {
        if (sourcePaths.count(source.path))
            plan.sources.push_back(source);
    }
    const std::optional<Json> &current = document.loaded().manifest.data;
    plan.data = current && current->is_object() ? *current : ccm::Json::object();
    if (capture.data.is_object())
        plan.dataChanged = mergeData(plan.data, capture.data, "data", addedText, plan.dataConflicts);
    return plan;
}

CaptureInsertionPlan insertCapture(
    ManifestDocument &document, const CapturedManifest &capture, const QString &label, bool *ok, QString *error)
{
    CaptureInsertionPlan plan = planCaptureInsertion(document, capture);
    const auto fail = [&](const QString &message) {
        if (ok)
            *ok = false;
        if (error)
            *error = message;
        return plan;
    };
    if (!document.loaded().parsed)
        return fail(InsertionTexts::tr("The manifest does not read as YAML; correct it before adding to it."));
    const std::optional<Json> &current = document.loaded().manifest.data;
    if (plan.dataChanged && current && !current->is_object())
        return fail(InsertionTexts::tr("The manifest's data is not a map; the captured data cannot be added to it."));
    QUndoStack *stack = document.undoStack();
    stack->beginMacro(label);
    bool inserted = true;
    for (const CapturedResource &resource : plan.added) {
        const auto [block, entry] = placeFor(document, resource.type);
        if (!document.insertEntry(resource.type, block, entry, resource.name, resource.properties).valid()) {
            inserted = false;
            break;
        }
    }
    if (inserted && plan.dataChanged)
        document.setData(plan.data);
    stack->endMacro();
    if (!inserted) {
        // Half a capture is not what was asked for: the step is taken back whole.
        stack->undo();
        return fail(InsertionTexts::tr("The captured resources could not be added to the manifest."));
    }
    if (ok)
        *ok = true;
    return plan;
}

SourceWriteOutcome writeCaptureSources(const QString &directory, const std::vector<CapturedSource> &sources)
{
    SourceWriteOutcome outcome;
    std::vector<const CapturedSource *> toWrite;
    QStringList problems;
    for (const CapturedSource &source : sources) {
        bool same = false;
        const QString problem = sourceProblem(directory, source, &same);
        if (!problem.isEmpty())
            problems.append(problem);
        else if (same)
            outcome.unchanged.append(QString::fromStdString(source.path));
        else
            toWrite.push_back(&source);
    }
    if (!problems.isEmpty()) {
        outcome.error = InsertionTexts::tr("No source file was written, nothing was added: %1")
                            .arg(problems.join(QStringLiteral("; ")));
        return outcome;
    }
    for (const CapturedSource *source : toWrite) {
        const QString problem = writeSource(directory, *source);
        if (!problem.isEmpty()) {
            outcome.error = outcome.written.isEmpty() ? problem
                                                      : InsertionTexts::tr("%1 (written before: %2)")
                                                            .arg(problem, outcome.written.join(QStringLiteral(", ")));
            return outcome;
        }
        outcome.written.append(QString::fromStdString(source->path));
    }
    outcome.ok = true;
    return outcome;
}

CaptureAddOutcome addCapture(ManifestDocument &document, const CapturedManifest &capture, const QString &label)
{
    CaptureAddOutcome outcome;
    outcome.plan = planCaptureInsertion(document, capture);
    if (!document.loaded().parsed) {
        outcome.error = InsertionTexts::tr("The manifest does not read as YAML; correct it before adding to it.");
        return outcome;
    }
    if (!outcome.plan.sources.empty()) {
        if (document.filePath().isEmpty() || !document.bundleDirectory().isEmpty()) {
            outcome.error = InsertionTexts::tr(
                "%n of the chosen files must be source files beside the manifest, which has no directory of its "
                "own yet: save the manifest first, then add them again.",
                nullptr, static_cast<int>(outcome.plan.sources.size()));
            return outcome;
        }
        outcome.sources = writeCaptureSources(document.baseDirectory(), outcome.plan.sources);
        if (!outcome.sources.ok) {
            outcome.error = outcome.sources.error;
            return outcome;
        }
    }
    bool inserted = false;
    outcome.plan = insertCapture(document, capture, label, &inserted, &outcome.error);
    outcome.ok = inserted;
    return outcome;
}

} // namespace ccm::designer
