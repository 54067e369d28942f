// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/template_highlighter.h"
#include "designer_test_support.h"
#include "test_main.h"

#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using ccm::designer::TemplateHighlighter;
using TemplateToken = TemplateHighlighter::Token;
using Base = TemplateHighlighter::Base;
using ccm::test::formatAt;

namespace {

QString foregroundAndItalic(const QTextCharFormat &format)
{
    return QStringLiteral("%1 %2")
        .arg(format.foreground().style() == Qt::NoBrush ? QStringLiteral("none") : format.foreground().color().name())
        .arg(format.fontItalic());
}

/// What `token` looks like, or plain text for -1.
QString lookOf(const TemplateHighlighter &highlighter, int token)
{
    return token < 0 ? foregroundAndItalic(QTextCharFormat())
                     : foregroundAndItalic(highlighter.tokenFormat(static_cast<TemplateToken>(token)));
}

} // namespace

class TestTemplateHighlighter : public QObject {
    Q_OBJECT

private slots:
    void colours_data()
    {
        QTest::addColumn<int>("base");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("token");
        const int plain = static_cast<int>(Base::Plain);
        const int yaml = static_cast<int>(Base::Yaml);
        const auto t = [](TemplateToken token) { return static_cast<int>(token); };
        QTest::newRow("go action") << plain << QStringLiteral("a {{ .Data.x }} b") << 0 << 5
                                   << t(TemplateToken::Template);
        QTest::newRow("text around stays plain") << plain << QStringLiteral("a {{ .Data.x }} b") << 0 << 16 << -1;
        QTest::newRow("trimming") << plain << QStringLiteral("{{- .x -}}") << 0 << 2 << t(TemplateToken::Template);
        QTest::newRow("jet action") << plain << QStringLiteral("x [[ Data.port ]]") << 0 << 6
                                    << t(TemplateToken::Template);
        QTest::newRow("string in action")
            << plain << QStringLiteral("{{ lookup('data.x') }}") << 0 << 12 << t(TemplateToken::String);
        QTest::newRow("jet comment") << plain << QStringLiteral("{* note *} x") << 0 << 4 << t(TemplateToken::Comment);
        QTest::newRow("comment over lines")
            << plain << QStringLiteral("{* one\ntwo *} x") << 1 << 1 << t(TemplateToken::Comment);
        QTest::newRow("after the comment") << plain << QStringLiteral("{* one\ntwo *} x") << 1 << 7 << -1;
        QTest::newRow("go comment") << plain << QStringLiteral("{{/* note */}}") << 0 << 6 << t(TemplateToken::Comment);
        QTest::newRow("open action to the end")
            << plain << QStringLiteral("a {{ if .x") << 0 << 9 << t(TemplateToken::Template);
        QTest::newRow("yaml key under jet")
            << yaml << QStringLiteral("- package:\n    - [[ . ]]: {}") << 0 << 3 << t(TemplateToken::Key);
        QTest::newRow("jet in yaml") << yaml << QStringLiteral("- package:\n    - [[ . ]]: {}") << 1 << 8
                                     << t(TemplateToken::Template);
    }

    void colours()
    {
        QFETCH(int, base);
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(int, token);
        QTextDocument document;
        TemplateHighlighter highlighter(&document, static_cast<Base>(base));
        document.setPlainText(text);
        // A new highlighter colours the document once the event loop turns: do it now instead.
        highlighter.rehighlight();
        QCOMPARE(foregroundAndItalic(formatAt(document, line, column)), lookOf(highlighter, token));
    }

    void keywordsStandOut()
    {
        QTextDocument document;
        TemplateHighlighter highlighter(&document, Base::Plain);
        document.setPlainText(QStringLiteral("{{ range .Data.users }}{{ end }}"));
        highlighter.rehighlight();
        const QTextCharFormat keyword = formatAt(document, 0, 4);
        QCOMPARE(keyword.fontWeight(), int(QFont::Bold));
        QCOMPARE(keyword.foreground(), highlighter.tokenFormat(TemplateToken::Key).foreground());
        QVERIFY(formatAt(document, 0, 10).foreground() != keyword.foreground());
    }

    void baseByFileName_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("base");
        QTest::newRow("yaml") << QStringLiteral("parts/base.yaml") << static_cast<int>(Base::Yaml);
        QTest::newRow("yaml jet") << QStringLiteral("resources.yaml.jet") << static_cast<int>(Base::Yaml);
        QTest::newRow("templ") << QStringLiteral("templates/motd.templ") << static_cast<int>(Base::Plain);
        QTest::newRow("conf") << QStringLiteral("templates/app/myapp.conf") << static_cast<int>(Base::Plain);
    }

    void baseByFileName()
    {
        QFETCH(QString, path);
        QFETCH(int, base);
        QCOMPARE(static_cast<int>(TemplateHighlighter::baseFor(path)), base);
    }
};

CCM_TEST_MAIN(TestTemplateHighlighter)
#include "tst_template_highlighter.moc"
