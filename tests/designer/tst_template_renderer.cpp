// SPDX-License-Identifier: Apache-2.0
// TemplateRenderer against a scripted backend: requests are coalesced with one in flight and
// stale answers dropped, .templ goes through expression.evaluate, and a backend without the
// methods is reported as too old.
#include "designer/core/backend_client.h"
#include "designer/core/template_renderer.h"
#include "gui_test_support.h"
#include "scripted_backend.h"
#include "test_main.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using ccm::Json;
using namespace ccm::designer;
using namespace ccm::test;

namespace {

/// Renders a template as its own text, upper-cased, so the answer tells which text it was for.
std::vector<Json> echoRender(const Json &request)
{
    std::string text = request["params"].value("text", std::string());
    for (char &c : text)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return {answer(request, {{"output", text}, {"line_map", Json::array({1})}})};
}

std::vector<Json> methodNotFound(const Json &request)
{
    return {Json {{"jsonrpc", "2.0"}, {"id", request.value("id", Json())},
        {"error", {{"code", -32601}, {"message", "method not found"}}}}};
}

struct RendererHarness {
    explicit RendererHarness(std::map<std::string, Responder> responders)
        : recorder(std::make_shared<Recorder>())
        , server(dir.filePath(QStringLiteral("backend.sock")), scriptedBackend(std::move(responders), recorder))
        , renderer(&client, [] {
            return Json {{"manifest", "data:\n  port: 80\n"}};
        })
    {
        client.setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
        client.setUserSocket(dir.filePath(QStringLiteral("backend.sock")));
    }

    int requestsFor(const std::string &method)
    {
        std::lock_guard lock(recorder->mutex);
        return static_cast<int>(std::count_if(recorder->requests.begin(), recorder->requests.end(),
            [&](const Json &request) { return request.value("method", "") == method; }));
    }

    QTemporaryDir dir;
    std::shared_ptr<Recorder> recorder;
    FakeServer server;
    BackendClient client;
    TemplateRenderer renderer;
};

} // namespace

class TestTemplateRenderer : public QObject {
    Q_OBJECT

private slots:
    void engineByExtension_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("engine");
        QTest::newRow("jet") << QStringLiteral("templates/site.jet") << QStringLiteral("jet");
        QTest::newRow("templ") << QStringLiteral("templates/motd.templ") << QStringLiteral("template");
        QTest::newRow("tmpl") << QStringLiteral("scaffold/app.conf.tmpl") << QStringLiteral("go");
    }

    void engineByExtension()
    {
        QFETCH(QString, path);
        QFETCH(QString, engine);
        QCOMPARE(TemplateRenderer::engineFor(path), engine);
    }

    void onlyTheLatestTextIsShown()
    {
        RendererHarness harness({{"template.render", echoRender}});
        QSignalSpy rendered(&harness.renderer, &TemplateRenderer::rendered);
        // Not connected yet: the first render connects and is sent once the backend answers.
        harness.renderer.render(QStringLiteral("one"), QStringLiteral("jet"), QStringLiteral("a.jet"));
        QVERIFY(rendered.wait(kPatienceMs));
        QCOMPARE(rendered.takeFirst().at(0).value<RenderedTemplate>().output, QStringLiteral("ONE"));

        // Three edits while the first of them is in flight: the middle one is never sent and the
        // answer to the first is dropped.
        harness.renderer.render(QStringLiteral("two"), QStringLiteral("jet"), QStringLiteral("a.jet"));
        QVERIFY(harness.renderer.isBusy());
        harness.renderer.render(QStringLiteral("three"), QStringLiteral("jet"), QStringLiteral("a.jet"));
        harness.renderer.render(QStringLiteral("four"), QStringLiteral("jet"), QStringLiteral("a.jet"));
        QVERIFY(rendered.wait(kPatienceMs));
        QCOMPARE(rendered.size(), 1);
        QCOMPARE(rendered.takeFirst().at(0).value<RenderedTemplate>().output, QStringLiteral("FOUR"));
        QTRY_VERIFY(!harness.renderer.isBusy());
        QCOMPARE(harness.requestsFor("template.render"), 3);
        const auto request = harness.recorder->find("template.render");
        QVERIFY(request);
        QCOMPARE((*request)["params"].value("manifest", std::string()), std::string("data:\n  port: 80\n"));
        QCOMPARE((*request)["params"].value("path", std::string()), std::string("a.jet"));
    }

    void templErrorsBecomeLineAndColumn()
    {
        RendererHarness harness(
            {{"expression.evaluate", [](const Json &request) {
                  return std::vector<Json> {
                      answer(request, {{"values", Json::array({{{"error", {{"message", "bad"}, {"column", 9}}}}})}})};
              }}});
        QSignalSpy failed(&harness.renderer, &TemplateRenderer::failed);
        harness.renderer.render(QStringLiteral("ab\ncdef {{ + }}"), QStringLiteral("template"), {});
        QVERIFY(failed.wait(kPatienceMs));
        const auto problems = failed.takeFirst().at(0).value<ccm::Diagnostics>();
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems.front().message, std::string("bad"));
        QCOMPARE(problems.front().position.line, 2);
        QCOMPARE(problems.front().position.column, 6);
        const auto request = harness.recorder->find("expression.evaluate");
        QVERIFY(request);
        QCOMPARE((*request)["params"]["items"][0].value("kind", std::string()), std::string("template"));
    }

    void anOlderBackendIsNamed()
    {
        RendererHarness harness({{"template.render", methodNotFound}});
        QSignalSpy unavailable(&harness.renderer, &TemplateRenderer::unavailable);
        harness.renderer.render(QStringLiteral("x"), QStringLiteral("jet"), {});
        QVERIFY(unavailable.wait(kPatienceMs));
        const QString message = unavailable.takeFirst().at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("too old")) && message.contains(QStringLiteral("template.render")),
            qPrintable(message));
    }
};

CCM_TEST_MAIN(TestTemplateRenderer)
#include "tst_template_renderer.moc"
