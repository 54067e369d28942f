// SPDX-License-Identifier: Apache-2.0
#include "base/temp_dir.h"
#include "base/temp_file.h"
#include "test_main.h"

#include <QTest>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace ccm;
namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path &path)
{
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

mode_t modeOf(const fs::path &path)
{
    struct stat info { };
    return ::stat(path.c_str(), &info) == 0 ? info.st_mode & 07777 : 0;
}

std::size_t entries(const fs::path &directory)
{
    return std::size_t(std::distance(fs::directory_iterator(directory), fs::directory_iterator()));
}

} // namespace

class TestTempFile : public QObject {
    Q_OBJECT

private slots:
    void privateAndRemovedWhenItGoes()
    {
        const TempDir dir = TempDir::create("ccm-test").value();
        fs::path made;
        {
            auto file = TempFile::create("ccm-rules", dir.path(), ".yaml");
            QVERIFY2(file, file ? "" : file.error().message.c_str());
            made = file->path();
            QCOMPARE(made.parent_path(), dir.path());
            QVERIFY(made.filename().string().starts_with("ccm-rules-"));
            QCOMPARE(made.extension().string(), std::string(".yaml"));
            QCOMPARE(modeOf(made), mode_t(0600));
            QCOMPARE(::write(file->fd(), "text", 4), ssize_t(4));
            QVERIFY(file.value().close());
            QCOMPARE(file->fd(), -1);
            QCOMPARE(readText(made), std::string("text"));
        }
        QVERIFY(!fs::exists(made));
        QCOMPARE(entries(dir.path()), std::size_t(0));
    }

    void committedOverItsDestination()
    {
        const TempDir dir = TempDir::create("ccm-test").value();
        const fs::path destination = dir.path() / "site.tar.gz";
        std::ofstream(destination) << "old";
        {
            auto file = TempFile::beside(destination);
            QVERIFY(file);
            QCOMPARE(file->path().parent_path(), dir.path());
            QVERIFY(file->path().filename().string().starts_with(".site.tar.gz-"));
            QCOMPARE(::write(file->fd(), "new", 3), ssize_t(3));
            // The destination is whole until the rename.
            QCOMPARE(readText(destination), std::string("old"));
            QVERIFY(file.value().commit(destination));
            QVERIFY(file->path().empty());
        }
        QCOMPARE(readText(destination), std::string("new"));
        QCOMPARE(modeOf(destination), mode_t(0644));
        QCOMPARE(entries(dir.path()), std::size_t(1));
    }

    void aFailedCommitLeavesNothing()
    {
        const TempDir dir = TempDir::create("ccm-test").value();
        {
            auto file = TempFile::create("ccm-unit", dir.path());
            QVERIFY(file);
            const auto committed = file.value().commit(dir.path() / "no/such/directory/file");
            QVERIFY(!committed);
            QVERIFY(committed.error().message.starts_with("cannot rename " + file->path().string()));
        }
        QCOMPARE(entries(dir.path()), std::size_t(0));
    }

    void errorsNameWhereAndWhy()
    {
        auto created = TempFile::create("ccm-unit", "/no/such/directory");
        QVERIFY(!created);
        QCOMPARE(created.error().message,
            std::string("cannot create a temporary file in /no/such/directory: No such file or directory"));
        auto beside = TempFile::beside("/no/such/directory/site.tgz");
        QVERIFY(!beside);
        QCOMPARE(beside.error().message,
            std::string(
                "cannot create a temporary file beside /no/such/directory/site.tgz: No such file or directory"));
    }

    void movedOwnership()
    {
        TempFile first = TempFile::create("ccm-unit").value();
        const fs::path path = first.path();
        TempFile second = std::move(first);
        QVERIFY(first.path().empty());
        QCOMPARE(second.path(), path);
        TempFile third = TempFile::create("ccm-unit").value();
        const fs::path replaced = third.path();
        third = std::move(second);
        QVERIFY(!fs::exists(replaced));
        QVERIFY(fs::exists(path));
    }
};

CCM_TEST_APPLESS_MAIN(TestTempFile)
#include "tst_temp_file.moc"
