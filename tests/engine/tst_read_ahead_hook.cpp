// SPDX-License-Identifier: Apache-2.0
// Which files a run reads ahead is each resource type's to say (ResourceType::contentToCompare):
// the file type names its file when it will compare content; the run reads ahead what the types
// name, once there are enough files, and nothing for types that name none.
#include "engine/resources/file/file_type.h"
#include "engine/run.h"
#include "test_main.h"

#include <QTest>

#include <optional>
#include <string>

using namespace ccm;
using namespace ccm::engine;

namespace {

class HookProvider : public Provider {
public:
    [[nodiscard]] std::string_view name() const override { return "hook"; }
};

class HookProviderFactory : public ProviderFactory {
public:
    explicit HookProviderFactory(std::string type)
        : m_type(std::move(type))
    {
    }
    [[nodiscard]] std::string_view typeName() const override { return m_type; }
    [[nodiscard]] std::string_view name() const override { return "hook"; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &, const LazyFacts &) const override
    {
        return std::optional<int>(1);
    }
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &) const override
    {
        return std::make_unique<HookProvider>();
    }

private:
    std::string m_type;
};

/// Records, for every resource it applies, whether the run gave it a read-ahead. With `names`,
/// it says every resource compares the content of the file its name is.
class HookType : public ResourceType {
public:
    HookType(std::string name, bool names, std::vector<bool> &sawReadAhead)
        : m_name(std::move(name))
        , m_names(names)
        , m_sawReadAhead(sawReadAhead)
    {
    }
    [[nodiscard]] std::string_view name() const override { return m_name; }
    [[nodiscard]] std::optional<std::filesystem::path> contentToCompare(
        const std::string &name, const Json &) const override
    {
        return m_names ? std::optional<std::filesystem::path>(name) : std::nullopt;
    }
    [[nodiscard]] Result<void> apply(
        const std::string &, const Json &, Provider &, ApplyContext &context, TransactionEvent &) const override
    {
        m_sawReadAhead.push_back(context.checksumReadAhead != nullptr);
        return {};
    }

private:
    std::string m_name;
    bool m_names;
    std::vector<bool> &m_sawReadAhead;
};

class SilentObserver : public RunObserver {
public:
    void message(std::string_view) override { }
    void resourceStarting(std::string_view, std::size_t, std::size_t) override { }
    void resourceFinished(const TransactionEvent &) override { }
    void log(LogLevel, std::string_view, std::string_view) override { }
};

} // namespace

class TestReadAheadHook : public QObject {
    Q_OBJECT

private slots:
    void theFileTypeNamesItsFileWhenItComparesContent_data()
    {
        QTest::addColumn<QByteArray>("properties");
        QTest::addColumn<bool>("named");
        QTest::newRow("content") << QByteArray(R"({"ensure": "present", "content": "x"})") << true;
        QTest::newRow("empty content") << QByteArray(R"({"ensure": "present", "content": ""})") << true;
        QTest::newRow("source") << QByteArray(R"({"ensure": "present", "source": "files/a"})") << true;
        QTest::newRow("attributes only") << QByteArray(R"({"ensure": "present", "mode": "0644"})") << false;
        QTest::newRow("null content") << QByteArray(R"({"ensure": "present", "content": null})") << false;
        QTest::newRow("absent") << QByteArray(R"({"ensure": "absent", "content": "x"})") << false;
        QTest::newRow("directory") << QByteArray(R"({"ensure": "directory", "source": "d"})") << false;
        QTest::newRow("no ensure") << QByteArray(R"({"content": "x"})") << false;
    }

    void theFileTypeNamesItsFileWhenItComparesContent()
    {
        QFETCH(QByteArray, properties);
        QFETCH(bool, named);
        const FileType type;
        const auto path = type.contentToCompare("/srv/www/index.html", Json::parse(properties.toStdString()));
        QCOMPARE(path.has_value(), named);
        if (named)
            QCOMPARE(path->string(), std::string("/srv/www/index.html"));
    }

    void otherTypesNameNothing()
    {
        // The default of every type that reads no file's content.
        std::vector<bool> unused;
        const HookType plain("service", false, unused);
        QVERIFY(!plain.contentToCompare("/etc/motd", Json {{"ensure", "present"}}).has_value());
    }

    void theRunReadsAheadWhatTheTypesName_data()
    {
        QTest::addColumn<bool>("names");
        QTest::addColumn<int>("resources");
        QTest::addColumn<bool>("readAhead");
        QTest::newRow("named, enough") << true << 32 << true;
        QTest::newRow("named, too few") << true << 31 << false;
        QTest::newRow("none named") << false << 40 << false;
    }

    void theRunReadsAheadWhatTheTypesName()
    {
        QFETCH(bool, names);
        QFETCH(int, resources);
        QFETCH(bool, readAhead);
        std::vector<bool> sawReadAhead;
        Catalog catalog;
        catalog.addType(std::make_unique<HookType>("package", names, sawReadAhead));
        catalog.addProvider(std::make_unique<HookProviderFactory>("package"));
        ResolvedManifest manifest;
        for (int i = 0; i < resources; ++i)
            manifest.resources.push_back({"package", "/nonexistent/file-" + std::to_string(i), Json::object(), {}, {}});
        ProcessRunner runner;
        SilentObserver observer;
        const RunResult result = runManifest(manifest, {}, {}, runner, observer, catalog);
        QCOMPARE(result.summary.total, std::size_t(resources));
        QCOMPARE(result.summary.stable, std::size_t(resources));
        QCOMPARE(sawReadAhead.size(), std::size_t(resources));
        for (const bool saw : sawReadAhead)
            QCOMPARE(saw, readAhead);
    }
};

CCM_TEST_APPLESS_MAIN(TestReadAheadHook)
#include "tst_read_ahead_hook.moc"
