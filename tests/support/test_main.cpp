// SPDX-License-Identifier: Apache-2.0
// The main() of a test directory's program: runs the one test class its first argument names.
#include "test_main.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ccm::test {
namespace {

std::map<std::string, RunTestClass> &registry()
{
    static std::map<std::string, RunTestClass> classes;
    return classes;
}

int usage(const char *program, const char *problem)
{
    std::fprintf(stderr, "%s: %s\nusage: %s TEST [QTest options...]\ntests:\n", program, problem, program);
    for (const auto &[name, run] : registry()) {
        std::fprintf(stderr, "  %s\n", name.c_str());
    }
    return 2;
}

} // namespace

bool registerTestClass(const char *sourceFile, RunTestClass run)
{
    const auto [at, added] = registry().emplace(std::filesystem::path(sourceFile).stem().string(), run);
    if (!added) {
        std::fprintf(stderr, "two test classes are registered as %s\n", at->first.c_str());
        std::abort();
    }
    return true;
}

} // namespace ccm::test

int main(int argc, char *argv[])
{
    using ccm::test::registry;
    if (argc < 2 || argv[1][0] == '-') {
        return ccm::test::usage(argv[0], "the first argument names the test to run");
    }
    const auto found = registry().find(argv[1]);
    if (found == registry().end()) {
        const std::string problem = std::string("no test is named ") + argv[1];
        return ccm::test::usage(argv[0], problem.c_str());
    }
    // QTest sees the program and the options after the test's name, and the application is named after
    // the test, as if the test were its own program (QStandardPaths and QSettings use the name).
    QCoreApplication::setApplicationName(QString::fromLocal8Bit(argv[1]));
    std::vector<char *> arguments {argv[0]};
    arguments.insert(arguments.end(), argv + 2, argv + argc + 1); // with argv's terminating null
    return found->second(argc - 1, arguments.data());
}
