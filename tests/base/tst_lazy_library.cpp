// SPDX-License-Identifier: Apache-2.0
// A library opened on first use that cannot be loaded is an error of what needs it: the message
// names the library (or the function it lacks), what needs it and the loader's reason, and the
// program goes on.
#include "base/library_check.h"
#include "lazy_libraries/lazy_library.h"
#include "test_main.h"

#include <QTest>

#include <string>

using namespace ccm;

namespace {

// zlib is on every machine that builds the backend: present, with the function registered below.
lazy::LazyLibrary presentLibrary("libz.so.1", "the present-library test needs");
const lazy::NeededFunction presentVersion(presentLibrary, "zlibVersion");

lazy::LazyLibrary absentLibrary("libccm-no-such-library.so.7", "the absent-library test needs");
const lazy::NeededFunction absentFunction(absentLibrary, "ccm_anything");

// Present, but without one of the functions the program says it calls (a library too old).
lazy::LazyLibrary lackingLibrary("libz.so.1", "the lacking-library test needs");
const lazy::NeededFunction lackingVersion(lackingLibrary, "zlibVersion");
const lazy::NeededFunction lackingFunction(lackingLibrary, "ccm_function_zlib_lacks");

bool contains(const std::string &text, const char *part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestLazyLibrary : public QObject {
    Q_OBJECT

private slots:
    void aPresentLibraryIsCalled()
    {
        QVERIFY(!presentLibrary.unavailable().has_value());
        QVERIFY(requireLibrary(presentLibrary).ok());
        const auto version = presentLibrary.function<const char *(*)()>("zlibVersion");
        QVERIFY(version != nullptr);
        QVERIFY(std::string(version()).starts_with("1."));
    }

    void anAbsentLibraryIsAnErrorNamingItAndWhatNeedsIt()
    {
        const auto missing = absentLibrary.unavailable();
        QVERIFY(missing.has_value());
        QVERIFY2(missing->starts_with("cannot load libccm-no-such-library.so.7, which the absent-library test needs: "),
            missing->c_str());
        // The loader's reason follows.
        QVERIFY2(contains(*missing, "No such file"), missing->c_str());
        // Asked again, the same answer, without the program having ended.
        QCOMPARE(absentLibrary.unavailable(), missing);

        const auto required = requireLibrary(absentLibrary);
        QVERIFY(!required.ok());
        QVERIFY(hasCode(required.error(), LibraryErrc::Unavailable));
        QCOMPARE(required.error().code, std::string("library_unavailable"));
        QCOMPARE(required.error().message, *missing);
    }

    void anUncheckedCallOfAnAbsentLibraryThrows()
    {
        try {
            static_cast<void>(absentLibrary.function<void (*)()>("ccm_anything"));
            QFAIL("the call did not throw");
        } catch (const lazy::LibraryUnavailable &e) {
            QVERIFY2(std::string(e.what()).starts_with("cannot load libccm-no-such-library.so.7"), e.what());
        }
    }

    void aLibraryLackingAFunctionIsUnavailableAsAWhole()
    {
        const auto missing = lackingLibrary.unavailable();
        QVERIFY(missing.has_value());
        QVERIFY2(missing->starts_with(
                     "cannot load ccm_function_zlib_lacks from libz.so.1, which the lacking-library test needs: "),
            missing->c_str());
        // Not even the functions it has are handed out: the library is not used half-way.
        QVERIFY_THROWS_EXCEPTION(
            lazy::LibraryUnavailable, static_cast<void>(lackingLibrary.function<const char *(*)()>("zlibVersion")));
    }
};

CCM_TEST_APPLESS_MAIN(TestLazyLibrary)
#include "tst_lazy_library.moc"
