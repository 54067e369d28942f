// SPDX-License-Identifier: Apache-2.0
// `ccm-backend apply` killed with SIGKILL at many points of a run over 200 files: every
// file is whole (old or new content with the matching mode), the next run converges everything and
// leaves no temporary file behind, and a noop run afterwards finds nothing to do.
//
// CCM_KILL_APPLY_ROUNDS sets how many kills are spread over the run besides the one before the
// first event (20 by default); sanitizer builds set it lower to keep the run time in bounds.
#include "backend_process.h"
#include "test_main.h"

#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSocketNotifier>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <vector>

using namespace ccm::test;

namespace {

mode_t modeOf(const QString &path)
{
    struct stat status { };
    return ::lstat(QFile::encodeName(path).constData(), &status) == 0 ? status.st_mode : 0;
}

constexpr int resourceCount = 200;
constexpr int defaultRounds = 20;

/// Printable text of exactly size bytes, different for each resource and version; no template
/// markers, so the manifest can carry it as content.
QByteArray text(qsizetype size, int resource, const char *version)
{
    const QByteArray line = QByteArrayLiteral("resource ") + QByteArray::number(resource) + ' ' + version + '\n';
    QByteArray result;
    result.reserve(size + line.size());
    while (result.size() < size)
        result += line;
    result.truncate(size);
    return result;
}

/// One file resource: what its target holds before the run and what the manifest asks for.
struct Target {
    QString name;
    QByteArray oldContent;
    mode_t oldMode;
    QByteArray newContent;
    mode_t newMode;
    bool fromSource;
};

bool isLarge(int resource)
{
    return resource % 10 == 9;
}

QString targetName(int resource)
{
    return s("t%1.conf").arg(resource, 3, 10, QLatin1Char('0'));
}

std::vector<Target> makeTargets()
{
    // Every mode keeps the owner's read bit, so that the test can read the files back.
    static const mode_t modes[] = {0644, 0600, 0640, 0755, 0444, 0700};
    std::vector<Target> targets;
    for (int i = 0; i < resourceCount; ++i) {
        // Mostly small files as configuration is, some of 64 KiB and one in ten of 1 MiB, which
        // take long enough to write that a kill can land inside; the large ones come from a source
        // file, which keeps the manifest small enough to parse quickly.
        qsizetype newSize = 1 + (i * 37) % 300;
        if (i % 10 == 0)
            newSize = 0;
        else if (i % 20 == 8)
            newSize = 64 * 1024;
        else if (isLarge(i))
            newSize = 1024 * 1024;
        const bool fromSource = i % 3 == 0 || newSize > 64 * 1024;
        const qsizetype oldSize = isLarge(i) ? 1024 * 1024 - 4096 : 1 + (i * 53) % 5000;
        targets.push_back({targetName(i), text(oldSize, i, "old"), modes[(i + 1) % std::size(modes)],
            text(newSize, i, "new"), modes[i % std::size(modes)], fromSource});
    }
    return targets;
}

/// A directory in memory when there is one with room to spare, the usual temporary directory
/// otherwise. A kill -9 test does not need a disk, and the few thousand fsync() calls of the
/// runs would take far longer on one than everything else together.
QString scratchBase()
{
    const QByteArray memory = QByteArrayLiteral("/dev/shm");
    struct statvfs space { };
    if (::statvfs(memory.constData(), &space) == 0 && ::access(memory.constData(), W_OK) == 0
        && static_cast<unsigned long long>(space.f_bavail) * space.f_frsize >= 512ULL << 20)
        return QString::fromUtf8(memory);
    return QDir::tempPath();
}

/// The names of all `.ccm-*` entries anywhere below directory.
QStringList temporaries(const QString &directory)
{
    QStringList found;
    QDirIterator it(
        directory, {s(".ccm-*")}, QDir::AllEntries | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        found << it.next();
    return found;
}

/// Reports the files created in one directory, through inotify.
class CreationWatch {
public:
    explicit CreationWatch(const QString &directory)
        : m_fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC))
    {
        if (m_fd >= 0 && ::inotify_add_watch(m_fd, QFile::encodeName(directory).constData(), IN_CREATE) < 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    CreationWatch(const CreationWatch &) = delete;
    CreationWatch &operator=(const CreationWatch &) = delete;
    ~CreationWatch()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }

    [[nodiscard]] int fd() const { return m_fd; }

    /// Reads what has been reported so far; true when a name starting with one of prefixes was
    /// among it.
    bool sawCreated(const QByteArrayList &prefixes)
    {
        bool seen = false;
        alignas(inotify_event) char buffer[64 * 1024];
        for (;;) {
            const ssize_t size = ::read(m_fd, buffer, sizeof buffer);
            if (size <= 0)
                return seen;
            for (ssize_t at = 0; at < size;) {
                const auto *event = reinterpret_cast<const inotify_event *>(buffer + at);
                const QByteArray name(event->name);
                if (event->len > 0 && std::any_of(prefixes.begin(), prefixes.end(), [&](const QByteArray &prefix) {
                        return name.startsWith(prefix);
                    }))
                    seen = true;
                at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
            }
        }
    }

private:
    int m_fd;
};

} // namespace

class TestKillApply : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::vector<Target> m_targets;
    QString m_manifest;

    QString targetPath(const Target &target) const { return m_dir->filePath(s("targets/") + target.name); }

    void resetTargets()
    {
        for (const Target &target : m_targets) {
            const QString path = targetPath(target);
            QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
            QVERIFY2(writeFile(path, target.oldContent), qPrintable(path));
            QCOMPARE(::chmod(QFile::encodeName(path).constData(), target.oldMode), 0);
        }
    }

    QJsonObject lastLine(const QString &out)
    {
        const QStringList lines = out.trimmed().split(QLatin1Char('\n'));
        return QJsonDocument::fromJson(lines.last().toUtf8()).object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_dir = std::make_unique<QTemporaryDir>(scratchBase() + s("/tst_kill_apply-XXXXXX"));
        QVERIFY(m_dir->isValid());
        QVERIFY(QDir(m_dir->path()).mkpath(s("targets")));
        QVERIFY(QDir(m_dir->path()).mkpath(s("sources")));
        m_targets = makeTargets();
        QString manifest = s("ccm:\n  resources:\n    - file:\n");
        const QString owner = currentUserName();
        const QString group = currentGroupName();
        for (const Target &target : m_targets) {
            QString what;
            if (target.fromSource) {
                writeFile(*m_dir, s("sources/") + target.name, target.newContent);
                what = s("source: sources/") + target.name;
            } else {
                what = s("content: ")
                    + QString::fromUtf8(QJsonDocument::fromVariant(QVariantList {QString::fromUtf8(target.newContent)})
                                            .toJson(QJsonDocument::Compact)
                                            .chopped(1)
                                            .mid(1));
            }
            manifest += s("        - %1: {ensure: present, %2, owner: %3, group: %4, mode: \"%5\"}\n")
                            .arg(targetPath(target), what, owner, group)
                            .arg(target.newMode, 4, 8, QLatin1Char('0'));
        }
        m_manifest = writeFile(*m_dir, s("site.yaml"), manifest.toUtf8());
    }

    void killedApplyLeavesWholeFilesAndTheNextRunConverges()
    {
        bool roundsGiven = false;
        const int rounds = qEnvironmentVariableIntValue("CCM_KILL_APPLY_ROUNDS", &roundsGiven);
        std::vector<int> kills {0};
        const int spread = roundsGiven ? rounds : defaultRounds;
        for (int j = 1; j <= spread; ++j)
            kills.push_back(j * resourceCount / spread);
        // Every other kill waits after its event until the temporary file of the next large file
        // is created, so that it lands in the middle of writing a file rather than between two
        // resources (a small file is written faster than the kill arrives).
        bool atTemporary = false;
        QByteArrayList largeTemporaries;
        for (int i = 0; i < resourceCount; ++i) {
            if (isLarge(i))
                largeTemporaries << ".ccm-" + QFile::encodeName(targetName(i)) + '.';
        }

        QStringList abandoned;
        QStringList stale;
        for (const int k : kills) {
            atTemporary = !atTemporary;
            const QString round = s("kill after %1 events%2: ")
                                      .arg(k)
                                      .arg(atTemporary ? s(" and a new large temporary file") : QString());
            resetTargets();
            if (QTest::currentTestFailed())
                return;
            CreationWatch watch(m_dir->filePath(s("targets")));
            QVERIFY(watch.fd() >= 0);

            QProcess process;
            process.setProcessEnvironment(isolatedEnvironment(*m_dir));
            process.start(s(CCM_BACKEND_BIN), {s("apply"), s("--json"), m_manifest});
            QVERIFY(process.waitForStarted());
            int events = 0;
            while (events < k && process.state() == QProcess::Running) {
                if (!process.canReadLine() && !process.waitForReadyRead(60000)) {
                    QVERIFY2(process.state() != QProcess::Running, qPrintable(round + s("no event for a minute")));
                    break;
                }
                while (events < k && process.canReadLine()) {
                    const QByteArray line = process.readLine();
                    if (!line.trimmed().isEmpty())
                        ++events;
                }
            }
            if (atTemporary && process.state() == QProcess::Running) {
                // The files created before the k-th event are of no interest.
                watch.sawCreated(largeTemporaries);
                QEventLoop loop;
                QSocketNotifier created(watch.fd(), QSocketNotifier::Read);
                connect(&created, &QSocketNotifier::activated, &loop, [&] {
                    if (watch.sawCreated(largeTemporaries))
                        loop.quit();
                });
                connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
                if (process.state() == QProcess::Running)
                    loop.exec();
            }
            if (process.state() == QProcess::Running)
                ::kill(static_cast<pid_t>(process.processId()), SIGKILL);
            // waitForFinished() is false for a process that has finished already: a run that ended
            // before its kill, while the loop above waited for a temporary file.
            QVERIFY2(process.state() == QProcess::NotRunning || process.waitForFinished(60000),
                qPrintable(round + s("the killed run did not end")));

            int updated = 0;
            for (const Target &target : m_targets) {
                const QString path = targetPath(target);
                const QByteArray content = readFile(path);
                const mode_t mode = modeOf(path);
                QVERIFY2(S_ISREG(mode), qPrintable(round + path));
                const bool isOld = content == target.oldContent && (mode & 07777) == target.oldMode;
                const bool isNew = content == target.newContent && (mode & 07777) == target.newMode;
                QVERIFY2(isOld || isNew,
                    qPrintable(round + path
                        + s(" is neither the old nor the new file (%1 bytes, mode %2)")
                              .arg(content.size())
                              .arg(mode & 07777, 4, 8, QLatin1Char('0'))));
                updated += isNew ? 1 : 0;
            }
            QVERIFY2(k > 0 || updated < resourceCount, qPrintable(round + s("nothing was left to interrupt")));
            abandoned += temporaries(m_dir->path());

            const BackendRun second
                = runBackend({s("apply"), s("--json"), m_manifest}, {}, isolatedEnvironment(*m_dir));
            QVERIFY2(second.exitCode == 0, qPrintable(round + second.err));
            for (const Target &target : m_targets) {
                const QString path = targetPath(target);
                QVERIFY2(readFile(path) == target.newContent, qPrintable(round + path));
                QCOMPARE(modeOf(path) & 07777, target.newMode);
            }
            const QStringList left = temporaries(m_dir->path());
            stale += left;
            // Removed here so that each round counts only what it left itself.
            for (const QString &path : left)
                QFile::remove(path);

            const BackendRun noop
                = runBackend({s("apply"), s("--json"), s("--noop"), m_manifest}, {}, isolatedEnvironment(*m_dir));
            QVERIFY2(noop.exitCode == 0, qPrintable(round + noop.err));
            const QJsonObject summary = lastLine(noop.out)[s("summary")].toObject();
            QVERIFY2(summary[s("stable")].toInt() == resourceCount, qPrintable(round + noop.out.right(500)));
            QCOMPARE(summary[s("changed")].toInt(), 0);
        }
        qInfo("%d kills, %lld temporary files left by the killed runs", int(kills.size()),
            static_cast<long long>(abandoned.size()));
        QVERIFY2(stale.isEmpty(),
            qPrintable(s("%1 temporary files outlived the next run, e.g. %2").arg(stale.size()).arg(stale.value(0))));
    }
};

CCM_TEST_GUILESS_MAIN(TestKillApply)
#include "tst_kill_apply.moc"
