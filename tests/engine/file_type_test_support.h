// SPDX-License-Identifier: Apache-2.0
// What the file type tests share: providers that record or misbehave, and trees described as text.
#pragma once

#include "base/sha256.h"
#include "engine/resources/file/file_type.h"
#include "engine/resources/file/posix/posix_file_provider.h"
#include "engine/resources/registration.h"
#include "engine/util/checksum_read_ahead.h"
#include "engine_test_support.h"
#include "file_test_support.h"
#include "test_common.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

/// The posix provider with a record of what the type asked it.
class SpyProvider : public PosixFileProvider {
public:
    Result<FileState> status(
        const std::filesystem::path &path, bool withChecksum, ChecksumReadAhead *readAhead) override
    {
        checksumRequests.push_back(withChecksum);
        return PosixFileProvider::status(path, withChecksum, readAhead);
    }
    Result<void> store(const std::filesystem::path &path, std::string_view content, const std::filesystem::path &source,
        const std::string &owner, const std::string &group, const std::string &mode) override
    {
        calls.push_back(QStringLiteral("store"));
        return PosixFileProvider::store(path, content, source, owner, group, mode);
    }
    Result<void> setAttributes(const std::filesystem::path &path, const std::string &owner, const std::string &group,
        const std::string &mode) override
    {
        calls.push_back(QStringLiteral("setAttributes"));
        return PosixFileProvider::setAttributes(path, owner, group, mode);
    }
    Result<void> createDirectory(const std::filesystem::path &path, const std::string &owner, const std::string &group,
        const std::string &mode) override
    {
        calls.push_back(QStringLiteral("createDirectory"));
        return PosixFileProvider::createDirectory(path, owner, group, mode);
    }
    Result<void> remove(const std::filesystem::path &path, bool force) override
    {
        calls.push_back(QStringLiteral("remove"));
        if (!forward)
            return {};
        return PosixFileProvider::remove(path, force);
    }

    std::vector<bool> checksumRequests;
    QStringList calls;
    bool forward = true;
};

/// A provider that reports success and changes nothing, as a broken system would.
class IneffectiveFileProvider : public PosixFileProvider {
public:
    Result<void> store(const std::filesystem::path &, std::string_view, const std::filesystem::path &,
        const std::string &, const std::string &, const std::string &) override
    {
        return {};
    }
    Result<void> setAttributes(
        const std::filesystem::path &, const std::string &, const std::string &, const std::string &) override
    {
        return {};
    }
    Result<void> createDirectory(
        const std::filesystem::path &, const std::string &, const std::string &, const std::string &) override
    {
        return {};
    }
    Result<void> remove(const std::filesystem::path &, bool) override { return {}; }
};

class OtherProvider : public Provider {
public:
    [[nodiscard]] std::string_view name() const override { return "other"; }
};

using DiffPermission = std::function<bool(const std::filesystem::path &)>;

LoggedApply applyFile(const QString &root, const QString &path, const Json &properties, Provider &provider,
    bool noop = false, const DiffPermission &mayShowDiff = {})
{
    RecordingRunner runner;
    RecordingLogger log;
    const LazyFacts facts;
    ApplyContext context {noop, {}, runner, log, facts, local(root), mayShowDiff, {}};
    LoggedApply outcome;
    outcome.result = FileType().apply(local(path), properties, provider, context, outcome.event);
    outcome.logged = log.messages;
    return outcome;
}

LoggedApply applyFile(const QString &root, const QString &path, const Json &properties, bool noop = false,
    const DiffPermission &mayShowDiff = {})
{
    PosixFileProvider provider;
    return applyFile(root, path, properties, provider, noop, mayShowDiff);
}

inline QString failure(const LoggedApply &outcome)
{
    return outcome.result.ok() ? QString() : q(outcome.result.error().message);
}

inline Json parseProperties(const QString &json, const QString &root)
{
    return Json::parse(QString(json).replace(QStringLiteral("{dir}"), root).toStdString());
}

inline QString escaped(const QByteArray &content)
{
    return QString::fromUtf8(content)
        .replace(QStringLiteral("\\"), QStringLiteral("\\\\"))
        .replace(QStringLiteral("\n"), QStringLiteral("\\n"));
}

inline QByteArray unescaped(const QString &content)
{
    QByteArray bytes;
    for (qsizetype i = 0; i < content.size(); ++i) {
        if (content[i] == QLatin1Char('\\') && i + 1 < content.size()) {
            bytes += content[++i] == QLatin1Char('n') ? '\n' : content[i].toLatin1();
            continue;
        }
        bytes += QString(content[i]).toUtf8();
    }
    return bytes;
}

/// Everything below root, sorted, one entry each: `name f uid:gid mode "content"`, `name d uid:gid
/// mode` or `name l -> target`, joined with "; ". Links are not followed.
inline QString describeTree(const QString &root)
{
    QStringList lines;
    const std::filesystem::path base = local(root);
    std::error_code error;
    for (std::filesystem::recursive_directory_iterator it(base, error), end; !error && it != end; it.increment(error)) {
        const QString relative = q(it->path().lexically_relative(base).string());
        const QString full = q(it->path().string());
        const struct stat status = lstatOf(full);
        const QString owner = QStringLiteral("%1:%2 %3")
                                  .arg(status.st_uid)
                                  .arg(status.st_gid)
                                  .arg(status.st_mode & 07777, 4, 8, QLatin1Char('0'));
        if (S_ISLNK(status.st_mode))
            lines << relative + QStringLiteral(" l -> ") + q(std::filesystem::read_symlink(it->path()).string());
        else if (S_ISDIR(status.st_mode))
            lines << relative + QStringLiteral(" d ") + owner;
        else
            lines << relative + QStringLiteral(" f ") + owner + QStringLiteral(" \"") + escaped(readFile(full))
                    + QStringLiteral("\"");
    }
    if (error)
        lines << QStringLiteral("<cannot list: %1>").arg(q(error.message()));
    lines.sort();
    return lines.join(QStringLiteral("; "));
}

/// Creates the entries of a describeTree() description, in the order given.
inline bool buildTree(const QString &root, const QString &description)
{
    static const QRegularExpression file(QStringLiteral("^(\\S+) f (\\d+):(\\d+) ([0-7]{4}) \"(.*)\"$"));
    static const QRegularExpression directory(QStringLiteral("^(\\S+) d (\\d+):(\\d+) ([0-7]{4})$"));
    static const QRegularExpression link(QStringLiteral("^(\\S+) l -> (\\S+)$"));
    for (const QString &entry : description.split(QStringLiteral("; "), Qt::SkipEmptyParts)) {
        QRegularExpressionMatch match;
        if ((match = link.match(entry)).hasMatch()) {
            if (::symlink(local(match.captured(2)).c_str(), local(root + QLatin1Char('/') + match.captured(1)).c_str())
                != 0)
                return false;
            continue;
        }
        const bool isFile = (match = file.match(entry)).hasMatch();
        if (!isFile && !(match = directory.match(entry)).hasMatch())
            return false;
        const std::string path = local(root + QLatin1Char('/') + match.captured(1));
        if (isFile ? !writeFile(q(path), unescaped(match.captured(5))) : ::mkdir(path.c_str(), 0700) != 0)
            return false;
        // The owner first: chown clears set-ID bits.
        if (::chown(path.c_str(), match.captured(2).toUInt(), match.captured(3).toUInt()) != 0
            || ::chmod(path.c_str(), match.captured(4).toUInt(nullptr, 8)) != 0)
            return false;
    }
    return true;
}

inline QString substituted(QString text, const QString &root, const QString &path)
{
    return text.replace(QStringLiteral("{path}"), path).replace(QStringLiteral("{dir}"), root);
}

inline void requireRootForOtherOwners()
{
    if (::geteuid() != 0)
        QSKIP("the decision table gives files to other users, which needs root");
}

const QString kRootAttributes = QStringLiteral(R"("owner":"root","group":"root")");

inline QString props(const char *json)
{
    return QStringLiteral("{") + s(json) + QStringLiteral("}");
}

} // namespace
