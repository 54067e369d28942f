// SPDX-License-Identifier: Apache-2.0
// One program per test directory. Each test unit ends with CCM_TEST_MAIN, CCM_TEST_GUILESS_MAIN or
// CCM_TEST_APPLESS_MAIN instead of QTest's macros of the same names: rather than a main() of its
// own, the unit registers its class under its file's name, and the directory's program runs the
// class named by its first argument (`ccm_core_tests tst_duration -v2`), with the application object
// QTest's macro would have made. CTest runs each class as its own test, in its own process.
// The function and flag the macro defines are named after the class: the program compiles its
// units in batches (unity build), where names of the same spelling would clash.
#pragma once

#include <QTest>

namespace ccm::test {

using RunTestClass = int (*)(int argc, char **argv);

// Registers the test class of the unit `sourceFile` under the file's base name (tst_duration).
bool registerTestClass(const char *sourceFile, RunTestClass run);

} // namespace ccm::test

#define CCM_TEST_MAIN_WRAPPER(TestObject, ...)                                                                         \
    namespace {                                                                                                        \
    int run##TestObject(int argc, char *argv[])                                                                        \
    {                                                                                                                  \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                             \
        __VA_ARGS__                                                                                                    \
        TestObject tc;                                                                                                 \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return QTest::qExec(&tc, argc, argv);                                                                          \
    }                                                                                                                  \
    [[maybe_unused]] const bool TestObject##Registered = ccm::test::registerTestClass(__FILE__, run##TestObject);      \
    }

#define CCM_TEST_MAIN(TestObject) CCM_TEST_MAIN_WRAPPER(TestObject, QTEST_MAIN_SETUP())
#define CCM_TEST_GUILESS_MAIN(TestObject) CCM_TEST_MAIN_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
#define CCM_TEST_APPLESS_MAIN(TestObject) CCM_TEST_MAIN_WRAPPER(TestObject)
