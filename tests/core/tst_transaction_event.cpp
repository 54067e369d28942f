// SPDX-License-Identifier: Apache-2.0
// Transaction events: JSON compatible with CCM v1's schema (where the reference is present, see
// referenceSchemaPath), round trips, report lines and summary.
#include "core/model/transaction_event.h"
#include "test_main.h"
#include "test_support.h"

#include <QFile>
#include <QTest>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

using namespace ccm;
using namespace ccm::test;
using namespace std::chrono_literals;

namespace {

TransactionEvent sampleEvent()
{
    TransactionEvent event;
    event.eventId = newEventId();
    event.timestamp = std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
        std::chrono::seconds(1795274400) + 123456789ns));
    event.type = "file";
    event.provider = "posix";
    event.name = "/etc/motd";
    event.requestedEnsure = "present";
    event.finalEnsure = "present";
    event.duration = 1500000ns;
    event.properties = Json::parse(R"({"ensure": "present", "mode": "0644"})");
    event.status = Json::parse(R"({"checksum": "abc"})");
    event.noopMessage = "Would have changed the content";
    event.healthChecks = {{HealthCheckResult::Status::Ok, 1, "OK: fine"}, {HealthCheckResult::Status::Critical, 3, {}}};
    event.errors = {"health check status \"CRITICAL\""};
    event.changed = true;
    event.failed = true;
    event.noop = true;
    event.unmetRequirements = {"package#nginx"};
    event.diff = "--- /etc/motd\n+++ /etc/motd\n@@ -1 +1 @@\n-old\n+new\n";
    event.refreshed = true;
    event.refreshedBy = {"file#/etc/nginx/nginx.conf", "package#web"};
    return event;
}

TransactionEvent withState(const char *state)
{
    TransactionEvent event;
    event.type = "package";
    event.name = "nginx";
    event.provider = "apt";
    event.requestedEnsure = "present";
    event.finalEnsure = "present";
    event.duration = 2500000ns;
    const std::string flags(state);
    event.failed = flags.find('F') != std::string::npos;
    event.skipped = flags.find('S') != std::string::npos;
    event.changed = flags.find('C') != std::string::npos;
    event.refreshed = flags.find('R') != std::string::npos;
    if (flags.find('U') != std::string::npos)
        event.unmetRequirements = {"file#/etc/a", "exec#b"};
    if (event.failed)
        event.errors = {"apt: install nginx: exit 100", "second"};
    return event;
}

} // namespace

class TestTransactionEvent : public QObject
{
    Q_OBJECT

    valijson::Schema m_reference;
    QByteArray m_referenceMissing; // why the comparison with the reference is skipped, if it is

private Q_SLOTS:
    void initTestCase()
    {
        const QString path = referenceSchemaPath("resource_ensure_response.json");
        m_referenceMissing = missingReferenceSchema(path);
        if (!m_referenceMissing.isEmpty())
            return;
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const nlohmann::json response = nlohmann::json::parse(file.readAll().toStdString());
        // Validate against the reference's transactionEvent definition itself.
        static nlohmann::json schema;
        schema = {{"$defs", response["$defs"]}, {"allOf", {{{"$ref", "#/$defs/transactionEvent"}}}}};
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        valijson::adapters::NlohmannJsonAdapter adapter(schema);
        parser.populateSchema(adapter, m_reference);
    }

    void compatibleWithReferenceSchema_data()
    {
        QTest::addColumn<bool>("full");
        QTest::newRow("every field") << true;
        QTest::newRow("a stable event") << false;
    }

    void compatibleWithReferenceSchema()
    {
        QFETCH(bool, full);
        TransactionEvent event = full ? sampleEvent() : withState("");
        if (!full) {
            event.eventId = newEventId();
            event.timestamp = std::chrono::system_clock::now();
        }
        nlohmann::json json = nlohmann::json::parse(eventToJson(event).dump());
        QCOMPARE(q(json["resource"].get<std::string>()), q(event.type + "#" + event.name));
        if (!m_referenceMissing.isEmpty())
            QSKIP(m_referenceMissing.constData());
        if (full)
            QCOMPARE(q(json["refreshed_by"].dump()), QStringLiteral(R"(["file#/etc/nginx/nginx.conf","package#web"])"));
        else
            QVERIFY(!json.contains("refreshed_by"));
        // The keys this project adds are the only ones the reference does not know.
        json.erase("diff");
        json.erase("refreshed_by");
        json.erase("resource");
        valijson::Validator validator;
        valijson::ValidationResults results;
        valijson::adapters::NlohmannJsonAdapter target(json);
        QStringList problems;
        if (!validator.validate(m_reference, target, &results)) {
            valijson::ValidationResults::Error error;
            while (results.popError(error))
                problems << q(error.description);
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n')) + q(json.dump())));
    }

    void roundTrip()
    {
        const TransactionEvent event = sampleEvent();
        const Json json = eventToJson(event);
        QCOMPARE(q(json["timestamp"].get<std::string>()), QStringLiteral("2026-11-21T15:20:00.123456789Z"));
        QCOMPARE(json["duration"].get<std::int64_t>(), 1500000);
        const auto back = eventFromJson(Json::parse(json.dump()));
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QVERIFY(back.value() == event);
    }

    void failKeepsEveryError()
    {
        TransactionEvent event;
        QVERIFY(!event.failed);
        event.fail("first");
        event.fail("second");
        QVERIFY(event.failed);
        QCOMPARE(event.errors, (std::vector<std::string> {"first", "second"}));
    }

    void timestamps_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("nanoseconds"); // since the epoch; -1: invalid
        QTest::newRow("utc") << QStringLiteral("2026-11-21T15:20:00Z") << qint64(1795274400000000000);
        QTest::newRow("fraction") << QStringLiteral("2026-11-21T15:20:00.5Z") << qint64(1795274400500000000);
        QTest::newRow("offset") << QStringLiteral("2026-11-21T16:20:00+01:00") << qint64(1795274400000000000);
        QTest::newRow("negative offset") << QStringLiteral("2026-11-21T09:50:00-05:30") << qint64(1795274400000000000);
        QTest::newRow("no zone") << QStringLiteral("2026-11-21T12:40:00") << qint64(-1);
        QTest::newRow("date only") << QStringLiteral("2026-11-21") << qint64(-1);
        QTest::newRow("bad month") << QStringLiteral("2026-13-21T12:40:00Z") << qint64(-1);
        QTest::newRow("empty fraction") << QStringLiteral("2026-11-21T12:40:00.Z") << qint64(-1);
    }

    void timestamps()
    {
        QFETCH(QString, text);
        QFETCH(qint64, nanoseconds);
        Json json = eventToJson(withState(""));
        json["event_id"] = "x";
        json["timestamp"] = text.toStdString();
        const auto event = eventFromJson(json);
        QCOMPARE(event.ok(), nanoseconds >= 0);
        if (nanoseconds >= 0)
            QCOMPARE(static_cast<qint64>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             event.value().timestamp.time_since_epoch())
                                             .count()),
                     nanoseconds);
        else
            QVERIFY(q(event.error().message).contains(QStringLiteral("timestamp")));
    }

    void timestampText_data()
    {
        QTest::addColumn<qint64>("nanoseconds"); // since the epoch
        QTest::addColumn<QString>("text");
        QTest::newRow("whole second") << qint64(1795274400000000000) << QStringLiteral("2026-11-21T15:20:00Z");
        QTest::newRow("trailing zeros dropped") << qint64(1795274400500000000) << QStringLiteral("2026-11-21T15:20:00.5Z");
        QTest::newRow("nanoseconds") << qint64(1795274400000000001) << QStringLiteral("2026-11-21T15:20:00.000000001Z");
        QTest::newRow("padded fields") << qint64(946789384012000000) << QStringLiteral("2000-01-02T05:03:04.012Z");
        QTest::newRow("epoch") << qint64(0) << QStringLiteral("1970-01-01T00:00:00Z");
        QTest::newRow("before the epoch") << qint64(-1) << QStringLiteral("1969-12-31T23:59:59.999999999Z");
    }

    void timestampText()
    {
        QFETCH(qint64, nanoseconds);
        QFETCH(QString, text);
        const std::chrono::system_clock::time_point time {
            std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::nanoseconds(nanoseconds))};
        QCOMPARE(q(formatTimestamp(time)), text);
    }

    void durations_data()
    {
        QTest::addColumn<qint64>("nanoseconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("ns") << qint64(999) << QStringLiteral("999ns");
        QTest::newRow("µs") << qint64(34049) << QStringLiteral("34.0µs");
        QTest::newRow("µs rounded up") << qint64(34051) << QStringLiteral("34.1µs");
        QTest::newRow("ms") << qint64(2500000) << QStringLiteral("2.5ms");
        QTest::newRow("just under a second") << qint64(999940000) << QStringLiteral("999.9ms");
        QTest::newRow("s") << qint64(1234000000) << QStringLiteral("1.23s");
        QTest::newRow("minutes") << qint64(125000000000) << QStringLiteral("2m5s");
    }

    void durations()
    {
        QFETCH(qint64, nanoseconds);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatDuration(std::chrono::nanoseconds(nanoseconds))), text);
    }

    void invalidJson_data()
    {
        QTest::addColumn<QString>("change"); // JSON merged over a valid event
        QTest::addColumn<QString>("message");
        QTest::newRow("not an event") << QStringLiteral(R"({"protocol": "other"})") << QStringLiteral("protocol must be");
        QTest::newRow("missing name") << QStringLiteral(R"({"name": null})") << QStringLiteral("missing 'name'");
        QTest::newRow("name not a string") << QStringLiteral(R"({"name": 5})")
                                           << QStringLiteral("'name' must be a string, not an integer");
        QTest::newRow("changed not a boolean") << QStringLiteral(R"({"changed": "yes"})")
                                               << QStringLiteral("'changed' must be a boolean");
        QTest::newRow("errors not strings") << QStringLiteral(R"({"error": [1]})")
                                            << QStringLiteral("'error' must be a list of strings");
        QTest::newRow("duration") << QStringLiteral(R"({"duration": 1.5})") << QStringLiteral("'duration' must be an integer");
        QTest::newRow("health check status") << QStringLiteral(R"({"health_check": [{"status": "fine", "tries": 1}]})")
                                             << QStringLiteral("needs a status");
        QTest::newRow("refreshed_by not strings") << QStringLiteral(R"({"refreshed_by": "file#/etc/a"})")
                                                  << QStringLiteral("'refreshed_by' must be a list of strings");
    }

    void invalidJson()
    {
        QFETCH(QString, change);
        QFETCH(QString, message);
        Json json = eventToJson(sampleEvent());
        const Json overlay = Json::parse(change.toStdString());
        for (const auto &[key, value] : overlay.items())
            json[key] = value;
        const auto event = eventFromJson(json);
        QVERIFY(!event.ok());
        QVERIFY2(q(event.error().message).contains(message), event.error().message.c_str());
        QVERIFY(!eventFromJson(Json::array()).ok());
    }

    void eventIds()
    {
        const std::string first = newEventId();
        const std::string second = newEventId();
        QCOMPARE(first.size(), std::size_t(27));
        QVERIFY(first != second);
        for (const char c : first)
            QVERIFY(std::isalnum(static_cast<unsigned char>(c)));
        // The first four bytes are seconds since 2014-05-13T16:53:20Z: decode and compare with now.
        const std::string alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        std::array<unsigned, 20> bytes {};
        for (const char c : first) {
            unsigned carry = static_cast<unsigned>(alphabet.find(c));
            for (std::size_t i = bytes.size(); i-- > 0;) {
                const unsigned next = bytes[i] * 62 + carry;
                bytes[i] = next & 0xFF;
                carry = next >> 8;
            }
        }
        const std::int64_t stamp = (std::int64_t(bytes[0]) << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3];
        const std::int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count();
        QVERIFY(std::abs(stamp + 1400000000 - now) <= 5);
    }

    void summaryBuckets()
    {
        RunSummary summary;
        for (const char *state : {"", "C", "CR", "S", "SU", "F", "FC", "FS", ""}) {
            TransactionEvent event = withState(state);
            if (std::string(state) == "C")
                event.healthChecks = {{HealthCheckResult::Status::Ok, 1, {}}, {HealthCheckResult::Status::Warning, 2, {}}};
            if (std::string(state) == "F")
                event.healthChecks = {{HealthCheckResult::Status::Critical, 1, {}}, {HealthCheckResult::Status::Unknown, 1, {}}};
            summary.add(event);
        }
        QCOMPARE(summary.total, std::size_t(9));
        QCOMPARE(summary.stable, std::size_t(2));
        QCOMPARE(summary.changed, std::size_t(2));
        QCOMPARE(summary.skipped, std::size_t(2));
        QCOMPARE(summary.failed, std::size_t(3));
        QCOMPARE(summary.refreshed, std::size_t(1));
        QCOMPARE(summary.unmetRequirements, std::size_t(1));
        QCOMPARE(summary.checksOk + summary.checksWarning + summary.checksCritical + summary.checksUnknown, std::size_t(4));
        QCOMPARE(summary.errors, std::size_t(6));
        summary.runTime = 1250ms;
        const QString text = q(summaryText(summary));
        QVERIFY2(text.contains(QStringLiteral("Run time: 1.25s")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("total=9 stable=2 changed=2 failed=3 skipped=2 refreshed=1 unmet_requirements=1")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("ok=1 warning=1 critical=1 unknown=1")), qPrintable(text));
        QCOMPARE(summaryToJson(summary)["failed"].get<int>(), 3);
    }

    void reportLines_data()
    {
        QTest::addColumn<QString>("state");
        QTest::addColumn<bool>("noop");
        QTest::addColumn<int>("level");
        QTest::addColumn<QString>("line");
        const auto row = [](const char *name, const char *state, bool noop, ReportLevel level, const char *line) {
            QTest::newRow(name) << QString::fromLatin1(state) << noop << static_cast<int>(level) << QString::fromUtf8(line);
        };
        row("stable", "", false, ReportLevel::Info, "package#nginx stable ensure=present runtime=2.5ms provider=apt");
        row("changed", "C", false, ReportLevel::Warning, "package#nginx changed ensure=present runtime=2.5ms provider=apt");
        row("refreshed wins over changed", "CR", false, ReportLevel::Warning,
            "package#nginx refreshed ensure=present runtime=2.5ms provider=apt");
        row("skipped", "S", false, ReportLevel::Warning, "package#nginx skipped ensure=present runtime=2.5ms provider=apt");
        row("unmet wins over skipped", "SU", false, ReportLevel::Error,
            "package#nginx skipped due to unmet requirement unmet=\"file#/etc/a, exec#b\" ensure=present runtime=2.5ms "
            "provider=apt");
        row("failed wins", "FSCU", false, ReportLevel::Error,
            "package#nginx failed errors=\"apt: install nginx: exit 100, second\" ensure=present runtime=2.5ms provider=apt");
        row("noop message", "C", true, ReportLevel::Warning,
            "package#nginx changed ensure=present runtime=2.5ms provider=apt noop=\"Would have installed 1.2\"");
    }

    void reportLines()
    {
        QFETCH(QString, state);
        QFETCH(bool, noop);
        QFETCH(int, level);
        QFETCH(QString, line);
        TransactionEvent event = withState(qPrintable(state));
        event.noop = noop;
        if (noop)
            event.noopMessage = "Would have installed 1.2";
        const ReportLine report = reportLine(event);
        QCOMPARE(q(report.text), line);
        QCOMPARE(static_cast<int>(report.level), level);
    }

    void refreshTexts_data()
    {
        QTest::addColumn<bool>("noop");
        QTest::addColumn<QStringList>("changed");
        QTest::addColumn<QStringList>("wouldChange");
        QTest::addColumn<QString>("text");
        const QString conf = QStringLiteral("file#/etc/nginx/nginx.conf");
        const QString package = QStringLiteral("package#nginx");
        const QString site = QStringLiteral("file#/etc/nginx/sites-enabled/default");
        QTest::newRow("noop") << true << QStringList() << QStringList {conf}
                              << QStringLiteral(
                                     "would refresh: subscribed to file#/etc/nginx/nginx.conf, which would change");
        QTest::newRow("real") << false << QStringList {conf} << QStringList()
                              << QStringLiteral("refreshed: subscribed to file#/etc/nginx/nginx.conf, which changed");
        QTest::newRow("two") << false << QStringList {conf, package} << QStringList()
                             << QStringLiteral("refreshed: subscribed to file#/etc/nginx/nginx.conf and package#nginx, "
                                               "which changed");
        QTest::newRow("three") << true << QStringList() << QStringList {conf, package, site}
                               << QStringLiteral(
                                      "would refresh: subscribed to file#/etc/nginx/nginx.conf, package#nginx "
                                      "and file#/etc/nginx/sites-enabled/default, which would change");
        // A noop child manifest inside a real run: its subscriber would refresh for a real change.
        QTest::newRow("both") << true << QStringList {package} << QStringList {conf}
                              << QStringLiteral("would refresh: subscribed to package#nginx, which changed, and to "
                                                "file#/etc/nginx/nginx.conf, which would change");
    }

    void refreshTexts()
    {
        QFETCH(bool, noop);
        QFETCH(QStringList, changed);
        QFETCH(QStringList, wouldChange);
        QFETCH(QString, text);
        const auto strings = [](const QStringList &list) {
            std::vector<std::string> out;
            for (const QString &item : list)
                out.push_back(item.toStdString());
            return out;
        };
        QCOMPARE(q(refreshText(noop, strings(changed), strings(wouldChange))), text);
    }

    void aRealRefreshSaysWhatCausedIt()
    {
        TransactionEvent event = withState("CR");
        event.type = "exec";
        event.name = "reload";
        event.provider = "posix";
        event.refreshedBy = {"file#/etc/nginx/nginx.conf", "package#nginx"};
        QCOMPARE(q(reportLine(event).text),
            QStringLiteral("exec#reload refreshed ensure=present runtime=2.5ms provider=posix message=\"refreshed: "
                           "subscribed to file#/etc/nginx/nginx.conf and package#nginx, which changed\""));
        // In noop the noop message says it, once.
        event.noop = true;
        event.noopMessage = "would refresh: subscribed to file#/etc/nginx/nginx.conf, which would change";
        QCOMPARE(q(reportLine(event).text),
            QStringLiteral("exec#reload refreshed ensure=present runtime=2.5ms provider=posix noop=\"would refresh: "
                           "subscribed to file#/etc/nginx/nginx.conf, which would change\""));
    }

    void aliasNamesTheResource()
    {
        TransactionEvent event = withState("");
        event.alias = "webserver";
        QVERIFY(q(reportLine(event).text).startsWith(QStringLiteral("package#webserver (alias) stable")));
    }
};

CCM_TEST_GUILESS_MAIN(TestTransactionEvent)
#include "tst_transaction_event.moc"
