// SPDX-License-Identifier: Apache-2.0
// YAML the parser refuses, reported as the mistake a person made, at its line and column.
#include "core/yaml/yaml_mistakes.h"
#include "core/yaml/yaml_reader.h"
#include "test_main.h"
#include "test_support.h"

#include <QDirIterator>
#include <QFile>
#include <QTest>

using namespace ccm;
using namespace ccm::test;

class TestYamlMistakes : public QObject {
    Q_OBJECT

private slots:
    void mistakes_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("key indented less than its siblings")
            << QByteArray("ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            owner: root\n"
                          "           ensure: present\n            mode: \"0644\"\n")
            << QStringLiteral("invalid YAML: `ensure` is indented 11 spaces but its siblings 12 (`owner` on line 5)")
            << 6 << 12;
        QTest::newRow("key indented between two levels")
            << QByteArray("data:\n  a: 1\n b: 2\n")
            << QStringLiteral("invalid YAML: `b` is indented 1 space but its siblings 2 (`a` on line 2)") << 3 << 2;
        QTest::newRow("key indented more than its siblings")
            << QByteArray("data:\n  a: 1\n    b: 2\n  c: 3\n")
            << QStringLiteral("invalid YAML: `b` is indented 4 spaces but its siblings 2 (`a` on line 2); only a "
                              "line that ends with ':' or '-' starts a deeper level")
            << 3 << 5;
        QTest::newRow("list item indented less than the ones before")
            << QByteArray("packages:\n    - vim\n    - git\n   - curl\n")
            << QStringLiteral("invalid YAML: the list item `- curl` is indented 3 spaces but the list items before "
                              "it 4 (`- git` on line 3)")
            << 4 << 4;
        QTest::newRow("missing colon") << QByteArray("data:\n  a: 1\n  owner root\n  b: 2\n")
                                       << QStringLiteral("invalid YAML: expected `key: value`, found `owner root`") << 3
                                       << 3;
        QTest::newRow("missing colon before a deeper level")
            << QByteArray("data:\n  a: 1\n  file\n    b: 2\n")
            << QStringLiteral("invalid YAML: expected `key: value`, found `file`") << 3 << 3;
        QTest::newRow("no space after the colon")
            << QByteArray("data:\n  owner:root\n  group: root\n")
            << QStringLiteral("invalid YAML: expected `key: value`, found `owner:root`; put a space after the ':'") << 2
            << 3;
        QTest::newRow("no space after the dash")
            << QByteArray("packages:\n  - git\n  -vim\n  - curl\n")
            << QStringLiteral("invalid YAML: expected a list item `- ...` like `- git` on line 2, found `-vim`; put a "
                              "space after the '-'")
            << 3 << 3;
        QTest::newRow("tab indentation") << QByteArray(
            "data:\n\ta: 1\n") << QStringLiteral("invalid YAML: a tab indents this line; YAML indents with spaces only")
                                         << 2 << 1;
        QTest::newRow("tab after spaces")
            << QByteArray("data:\n  a: 1\n  \tb: 2\n")
            << QStringLiteral("invalid YAML: a tab indents this line; YAML indents with spaces only") << 3 << 3;
        QTest::newRow("unclosed brace") << QByteArray("data: {a: 1\nnext: 2\n")
                                        << QStringLiteral(
                                               "invalid YAML: the '{' opened here is never closed; close it with '}'")
                                        << 1 << 7;
        QTest::newRow("unclosed bracket")
            << QByteArray("ccm:\n  resources: [\n")
            << QStringLiteral("invalid YAML: the '[' opened here is never closed; close it with ']'") << 2 << 14;
        QTest::newRow("mismatched bracket")
            << QByteArray("data: {a: [1, 2}\n")
            << QStringLiteral("invalid YAML: '}' does not match the '[' opened at line 1, column 11") << 1 << 16;
        QTest::newRow("quote closed on a later line")
            << QByteArray("data:\n  a: \"x\n  b: \"y\"\n")
            << QStringLiteral("invalid YAML: this quoted string is not closed on its line; it runs on to the \" on "
                              "line 3, column 6")
            << 2 << 6;
        QTest::newRow("text after a quoted string")
            << QByteArray("data:\n  a: \"x\" y\n")
            << QStringLiteral("invalid YAML: unexpected text `y` after the quoted string that ends at column 8") << 2
            << 10;
        QTest::newRow("line of a block scalar indented less")
            << QByteArray("a: |\n  x\n b: 1\n")
            << QStringLiteral("invalid YAML: `b` is indented 1 space but its siblings 0 (`a` on line 1); only a line "
                              "that ends with ':' or '-' starts a deeper level")
            << 3 << 2;
        QTest::newRow("quote inside single quotes")
            << QByteArray("a: 'it's'\n")
            << QStringLiteral("invalid YAML: the quoted string ends here and `s'` follows; inside single quotes write "
                              "'' for a quote, as in 'it''s'")
            << 1 << 7;
        QTest::newRow("quote inside double quotes")
            << QByteArray("a: \"say \"hi\"\"\n")
            << QStringLiteral("invalid YAML: the quoted string ends here and `hi\"\"` follows; inside double quotes "
                              "write \\\" for a quote, as in \"say \\\"hi\\\"\"")
            << 1 << 9;
        QTest::newRow("unknown escape")
            << QByteArray("a: \"C:\\qemu\"\n")
            << QStringLiteral("invalid YAML: `\\q` is not an escape YAML knows; write \\\\ for a backslash, or put "
                              "the text in single quotes")
            << 1 << 7;
        QTest::newRow("colon in a plain value")
            << QByteArray("data:\n  greeting: Hello: world\n")
            << QStringLiteral("invalid YAML: a value cannot hold ': ' unquoted; put it in quotes: `\"Hello: world\"`")
            << 2 << 18;
        QTest::newRow("key among list items")
            << QByteArray("packages:\n  - a\n  b: 1\n")
            << QStringLiteral("invalid YAML: expected a list item `- ...` like `- a` on line 2, found `b: 1`") << 3
            << 3;
        QTest::newRow("list item among keys")
            << QByteArray("a: 1\n- b\n")
            << QStringLiteral("invalid YAML: expected `key: value` like `a` on line 1, found the list item `- b`") << 2
            << 1;
    }

    void mistakes()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QFETCH(int, line);
        QFETCH(int, column);
        const YamlReadResult result = readYaml(std::string_view(text.constData(), std::size_t(text.size())));
        QVERIFY(!result.document);
        QCOMPARE(result.diagnostics.size(), std::size_t(1));
        const Diagnostic &found = result.diagnostics.front();
        QCOMPARE(q(found.message), message);
        QCOMPARE(found.severity, Severity::Error);
        QCOMPARE(found.position, (SourcePosition {line, column}));
    }

    /// Nesting deeper than the check follows is left to the parser's message, in bounded memory
    /// and without recursion.
    void deepNestingIsLeftToTheParser()
    {
        std::string list;
        for (int i = 0; i < 1'000'000; ++i)
            list += "- ";
        QVERIFY(!findYamlMistake(list + "x\n  y: [\n"));
        QVERIFY(!findYamlMistake(std::string(2'000'000, '[') + "\n"));
        // Within the limit the mistake is still found.
        QCOMPARE(q(findYamlMistake(std::string(500, '[') + "\n")->message),
            QStringLiteral("invalid YAML: the '[' opened here is never closed; close it with ']'"));
    }

    /// Comments, block scalars, multi-line strings and flow collections over several lines, a
    /// list written at its key's column: YAML that reads is never taken for a mistake.
    void validYamlHasNoMistake()
    {
        const QList<QByteArray> texts {
            "a: |\n  line one\n\n    indented: more\n  \ta tab inside\nb: >-\n  folded: text\nc: 1\n",
            "packages:\n- vim\n- git\nnext: 1\n",
            "a: \"multi\n  line\" # comment\nb: 'it''s'\n",
            "list: [1,\n  2, {x: 3,\n  y: [4]}]\nafter: ok\n",
            "# only a comment first\n\nroot:\n  key: plain text that\n    goes on\n  other: value # comment\n",
            "- a\n- - b\n  - c\n-\n  d: 1\n- &anchor\n  e: 2\n- !!str tagged\n",
            "url: http://example.com:8080/x\ntime: 12:30\n\"quoted key\": 1\n'single': {a: 1}\n",
            "key:    # comment\n  nested: 1\nempty:\nnext: 1\n",
            "a:\n  - b: 1\n    c: 2\n  - d\n  -\n    - e\n",
            "a: 'x' # c\nb: \"y\"\ns: \"line one\n\n  line three\"\n",
            "- |\n  block: text\n- >\n  folded\n- last\n",
            "k: &a v\nj: *a\nm: &m\n  x: 1\nn: *m\na: x # trailing: colon in a comment\n",
            "a: |2\n    indented\n  b\nc: >\n\n  after a blank line\n# a comment\nd: 1\n",
            "a: \"tab\\there \\u00e9 \\\\ \\\" \\/ \\x41\"\nb: 'say \"hi\"'\n",
        };
        for (const QByteArray &text : texts) {
            const std::string_view view(text.constData(), std::size_t(text.size()));
            const YamlReadResult read = readYaml(view);
            QVERIFY2(read.document, text.constData());
            const auto mistake = findYamlMistake(view);
            QVERIFY2(!mistake,
                qPrintable(
                    q(mistake ? mistake->message : std::string()) + QLatin1Char('\n') + QString::fromUtf8(text)));
        }
        // Every YAML file of the project that reads, but the fuzzers' mutated seeds: yaml-cpp reads
        // some that are broken (a quote never closed swallows the rest of the file as a key).
        int files = 0;
        for (const char *where : {"/resources", "/tests", "/docs", "/packaging"}) {
            QDirIterator it(QStringLiteral(CCM_SOURCE_DIR) + QLatin1String(where),
                {QStringLiteral("*.yaml"), QStringLiteral("*.yml")}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile file(it.next());
                if (file.fileName().contains(QStringLiteral("/tests/fuzz/")))
                    continue;
                QVERIFY(file.open(QIODevice::ReadOnly));
                const QByteArray text = file.readAll();
                const std::string_view view(text.constData(), std::size_t(text.size()));
                if (!readYaml(view).document)
                    continue;
                ++files;
                const auto mistake = findYamlMistake(view);
                QVERIFY2(!mistake,
                    qPrintable(file.fileName() + QStringLiteral(": ") + q(mistake ? mistake->message : std::string())));
            }
        }
        QVERIFY2(files >= 8, qPrintable(QString::number(files)));
    }
};

CCM_TEST_GUILESS_MAIN(TestYamlMistakes)
#include "tst_yaml_mistakes.moc"
