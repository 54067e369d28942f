// SPDX-License-Identifier: Apache-2.0
#include "base/temp_dir.h"
#include "test_main.h"

#include <QTest>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>

using namespace ccm;
namespace fs = std::filesystem;

namespace {

void writeFile(const fs::path &path, const std::string &text)
{
    std::ofstream(path) << text;
}

} // namespace

class TestTempDir : public QObject {
    Q_OBJECT

private slots:
    void privateAndRemovedWithEverythingInIt()
    {
        const TempDir parent = TempDir::create("ccm-test").value();
        fs::path made;
        {
            auto dir = TempDir::create("ccm-unit", parent.path());
            QVERIFY2(dir, dir ? "" : dir.error().message.c_str());
            made = dir->path();
            QCOMPARE(made.parent_path(), parent.path());
            QVERIFY(made.filename().string().starts_with("ccm-unit-"));
            struct stat info { };
            QCOMPARE(::stat(made.c_str(), &info), 0);
            QVERIFY(S_ISDIR(info.st_mode));
            QCOMPARE(info.st_mode & 07777, mode_t(0700));
            fs::create_directories(made / "a/b");
            writeFile(made / "a/b/file", "text");
            // A directory made read-only inside is still removed.
            fs::permissions(made / "a", fs::perms::owner_read | fs::perms::owner_exec);
        }
        QVERIFY(!fs::exists(made));
        QVERIFY(fs::exists(parent.path()));
    }

    void inTheSystemsTemporaryDirectoryByDefault()
    {
        const TempDir parent = TempDir::create("ccm-test").value();
        const QByteArray saved = qgetenv("TMPDIR");
        qputenv("TMPDIR", QByteArray::fromStdString(parent.path().string()));
        QCOMPARE(TempDir::systemDirectory(), parent.path());
        auto dir = TempDir::create("ccm-default");
        QVERIFY(dir);
        QCOMPARE(dir->path().parent_path(), parent.path());
        qputenv("TMPDIR", QByteArray("/no/such/directory"));
        QCOMPARE(TempDir::systemDirectory(), fs::path("/tmp"));
        if (saved.isNull())
            qunsetenv("TMPDIR");
        else
            qputenv("TMPDIR", saved);
    }

    void anErrorNamesWhereAndWhy()
    {
        auto dir = TempDir::create("ccm-unit", "/no/such/directory");
        QVERIFY(!dir);
        QCOMPARE(dir.error().message,
            std::string("cannot create a temporary directory in /no/such/directory: No such file or directory"));
    }

    void movedOwnershipAndRelease()
    {
        TempDir first = TempDir::create("ccm-unit").value();
        const fs::path path = first.path();
        TempDir second = std::move(first);
        QVERIFY(first.empty());
        QCOMPARE(second.path(), path);
        TempDir third = TempDir::create("ccm-unit").value();
        const fs::path replaced = third.path();
        third = std::move(second);
        // The directory assigned over is removed; the moved one lives on.
        QVERIFY(!fs::exists(replaced));
        QVERIFY(fs::exists(path));
        const fs::path kept = third.release();
        QCOMPARE(kept, path);
        QVERIFY(third.empty());
        QVERIFY(fs::exists(kept));
        fs::remove_all(kept);
    }

    void removedOnRequest()
    {
        TempDir dir = TempDir::create("ccm-unit").value();
        const fs::path path = dir.path();
        writeFile(path / "file", "text");
        QVERIFY(dir.remove());
        QVERIFY(dir.empty());
        QVERIFY(!fs::exists(path));
        QVERIFY(dir.remove());
    }
};

CCM_TEST_APPLESS_MAIN(TestTempDir)
#include "tst_temp_dir.moc"
