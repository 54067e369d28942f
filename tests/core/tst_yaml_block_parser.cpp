// SPDX-License-Identifier: Apache-2.0
#include "core/yaml/yaml_block_parser.h"
#include "test_main.h"

#include <QTest>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <sstream>
#include <string>

using namespace ccm;

namespace {

/// Writes every event with its mark, so two parsers' event streams compare as text.
class EventLog : public YAML::EventHandler {
public:
    std::string text;

    void OnDocumentStart(const YAML::Mark &mark) override { add("document", mark); }
    void OnDocumentEnd() override { text += "end document\n"; }
    void OnNull(const YAML::Mark &mark, YAML::anchor_t) override { add("null", mark); }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t) override { add("alias", mark); }
    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t, const std::string &value) override
    {
        add("scalar " + tag + " [" + value + "]", mark);
    }
    void OnSequenceStart(
        const YAML::Mark &mark, const std::string &tag, YAML::anchor_t, YAML::EmitterStyle::value style) override
    {
        add("sequence " + tag + styleName(style), mark);
    }
    void OnSequenceEnd() override { text += "end sequence\n"; }
    void OnMapStart(
        const YAML::Mark &mark, const std::string &tag, YAML::anchor_t, YAML::EmitterStyle::value style) override
    {
        add("map " + tag + styleName(style), mark);
    }
    void OnMapEnd() override { text += "end map\n"; }

private:
    static std::string styleName(YAML::EmitterStyle::value style)
    {
        return style == YAML::EmitterStyle::Flow ? " flow" : style == YAML::EmitterStyle::Block ? " block" : " default";
    }
    void add(const std::string &event, const YAML::Mark &mark)
    {
        text += event + " @" + std::to_string(mark.pos) + ":" + std::to_string(mark.line) + ":"
            + std::to_string(mark.column) + "\n";
    }
};

std::string yamlCppEvents(const std::string &text)
{
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    EventLog log;
    while (parser.HandleNextDocument(log)) { }
    return log.text;
}

} // namespace

class TestYamlBlockParser : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sameEventsAsYamlCpp_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("read"); // false: left to yaml-cpp
        QTest::newRow("manifest") << QByteArray("# site\nccm:\n  resources:\n    - file:\n        - /etc/motd:\n"
                                                "            ensure: present\n            content: \"hi\\n\"\n"
                                                "            mode: '0644'\n")
                                  << true;
        QTest::newRow("empty values") << QByteArray("a:\nb: # none\n\nc:\n  -\n  - x\n  -\n") << true;
        QTest::newRow("nulls and trailing blanks") << QByteArray("a: ~   \nb: null # c\nNULL: x\n") << true;
        QTest::newRow("colons and hashes") << QByteArray("url: http://h/p#x\nk:v: w\n'q''s': \"a\\\"b\"\n") << true;
        QTest::newRow("map in sequence") << QByteArray("-   a: 1\n    b: 2\n-\n  c: 3\n- d\n") << true;
        QTest::newRow("indentless sequence") << QByteArray("a:\n- 1\n- 2\n") << false;
        QTest::newRow("multi-line plain") << QByteArray("a: one\n  two\n") << false;
        QTest::newRow("flow") << QByteArray("a: [1, 2]\n") << false;
        QTest::newRow("empty flow collections")
            << QByteArray("ccm:\n  resources: []\n  data: {} # none\nlist:\n  - []\n  - {}\n  -   []\n") << true;
        QTest::newRow("empty flow, no final line break") << QByteArray("a: []") << true;
        QTest::newRow("empty flow with a blank inside") << QByteArray("a: [ ]\n") << false;
        QTest::newRow("empty flow, text after") << QByteArray("a: []x\n") << false;
        QTest::newRow("empty flow, comment without a blank") << QByteArray("a: []#x\n") << false;
        QTest::newRow("empty flow as a key") << QByteArray("[]: x\n") << false;
        QTest::newRow("empty flow, deeper line after") << QByteArray("a: {}\n  b: 1\n") << false;
        QTest::newRow("anchor") << QByteArray("a: &x 1\nb: *x\n") << false;
        QTest::newRow("literal") << QByteArray("a: |\n  text\n   more\n\n  last  \nb: 1\n") << true;
        QTest::newRow("literal strip") << QByteArray("a: |-\n  text\n\n\nb: 1\n") << true;
        QTest::newRow("literal keep") << QByteArray("a: |+\n  text\n\n \nb: 1\n") << true;
        QTest::newRow("literal at the end") << QByteArray("a:\n  b: |\n    x\n    # not a comment\n") << true;
        QTest::newRow("literal in sequence") << QByteArray("- |\n  one\n- |-\n  two\n-   k: |\n      three\n") << true;
        QTest::newRow("literal with blank lines first") << QByteArray("a: |\n\n  \n  text\n") << true;
        QTest::newRow("literal, blank deeper than content") << QByteArray("a: |\n     \n  text\n") << false;
        QTest::newRow("literal, empty") << QByteArray("a: |\nb: 1\n") << false;
        QTest::newRow("literal, comment after") << QByteArray("a: |\n  text\n# c\nb: 1\n") << false;
        QTest::newRow("literal, indentation indicator") << QByteArray("a: |2\n   text\n") << false;
        QTest::newRow("literal, header comment") << QByteArray("a: | # c\n  text\n") << false;
        QTest::newRow("folded") << QByteArray("a: >\n  text\n") << false;
        QTest::newRow("two documents") << QByteArray("a: 1\n---\nb: 2\n") << false;
        QTest::newRow("no final line break") << QByteArray("a: 1") << true;
        QTest::newRow("no final line break after a comment") << QByteArray("a: 1\n# b") << true;
        QTest::newRow("no final line break, literal") << QByteArray("a: |\n  x\n  y") << false;
        QTest::newRow("document marker inside a literal")
            << QByteArray("daa: |\n `text\n   mvre\n\n  last ta:\n  ...illed in later ") << false;
        QTest::newRow("no final line break, after a literal") << QByteArray("a: |\n  x\nb: 1") << true;
        QTest::newRow("no final line break, empty value") << QByteArray("a: 1\nb:") << false;
        QTest::newRow("no final line break, empty item") << QByteArray("- 1\n-") << false;
        QTest::newRow("tab") << QByteArray("a:\t1\n") << false;
        QTest::newRow("bad indentation") << QByteArray("a:\n    b: 1\n  c: 2\n") << false;
        QTest::newRow("long key") << QByteArray(std::string(1030, 'k').append(": v\n").c_str()) << false;
        QTest::newRow("unknown escape") << QByteArray("a: \"\\x41\"\n") << false;
    }

    void sameEventsAsYamlCpp()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, read);
        EventLog log;
        QCOMPARE(parseBlockYaml(text.toStdString(), log), read);
        if (read)
            QCOMPARE(QString::fromStdString(log.text), QString::fromStdString(yamlCppEvents(text.toStdString())));
        else
            QVERIFY(log.text.empty());
    }
};

CCM_TEST_GUILESS_MAIN(TestYamlBlockParser)
#include "tst_yaml_block_parser.moc"
