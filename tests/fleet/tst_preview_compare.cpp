// SPDX-License-Identifier: Apache-2.0
// Drift versus intent, the agent's part: which resources of the current bundle run again, and
// how each of the proposal's changes is classed from the two runs.
#include "fleet/preview/preview_compare.h"
#include "test_main.h"

#include <QtTest>

using namespace ccm;
using namespace ccm::fleet;

namespace compare_test {

ResolvedResource makeResource(const std::string &type, const std::string &name, Json properties = Json::object())
{
    return ResolvedResource {type, name, std::move(properties), {}, {}};
}

TransactionEvent makeEvent(const std::string &type, const std::string &name, bool changed, bool failed = false)
{
    TransactionEvent result;
    result.type = type;
    result.name = name;
    result.changed = changed;
    result.failed = failed;
    return result;
}

std::vector<std::string> labels(const ResolvedManifest &manifest, const std::vector<std::size_t> &indexes)
{
    std::vector<std::string> names;
    for (const std::size_t i : indexes)
        names.push_back(manifest.resources[i].label());
    return names;
}

} // namespace compare_test

using namespace compare_test;

class TestPreviewCompare : public QObject {
    Q_OBJECT

private slots:
    void onlyTheChangedResourcesAndWhatTheyNeedRun()
    {
        ResolvedManifest current;
        current.resources = {
            makeResource("package", "nginx", {{"alias", "web"}}),
            makeResource("file", "/etc/untouched"),
            makeResource("file", "/etc/nginx.conf", {{"require", Json::array({"package#web"})}}),
            makeResource("service", "nginx", {{"subscribe", Json::array({"file#/etc/nginx.conf"})}}),
            makeResource("exec", "reload"),
        };
        // The service changes: it subscribes to the file, which requires the package by alias.
        QCOMPARE(labels(current, resourcesToCompare(current, {"service#nginx"})),
            (std::vector<std::string> {"package#nginx", "file#/etc/nginx.conf", "service#nginx"}));
        QCOMPARE(
            labels(current, resourcesToCompare(current, {"exec#reload"})), (std::vector<std::string> {"exec#reload"}));
        QVERIFY(resourcesToCompare(current, {}).empty());
        // A resource the current bundle lacks runs nothing (it is added) unless a child manifest
        // might hold it.
        QVERIFY(resourcesToCompare(current, {"file#/new"}).empty());
        current.resources.push_back(makeResource("apply", "child.yaml"));
        QCOMPARE(labels(current, resourcesToCompare(current, {"file#/new"})),
            (std::vector<std::string> {"apply#child.yaml"}));
        const ResolvedManifest subset = subsetOf(current, resourcesToCompare(current, {"file#/etc/nginx.conf"}));
        QCOMPARE(subset.resources.size(), std::size_t {2});
        QCOMPARE(subset.resources[1].label(), std::string("file#/etc/nginx.conf"));
    }

    void classesFromTheTwoRuns()
    {
        ProposalOutcome proposal;
        proposal.add(makeEvent("file", "/drift", true));
        proposal.add(makeEvent("file", "/edit", true));
        proposal.add(makeEvent("file", "/new", true));
        proposal.add(makeEvent("file", "/same", false));
        proposal.add(makeEvent("exec", "broken", false, true));
        proposal.add(makeEvent("service", "cut-short", true));
        proposal.add(makeEvent("package", "guard-failed", true));
        QCOMPARE(proposal.changed().size(), std::size_t {5});

        CurrentOutcome current;
        current.add(makeEvent("file", "/drift", true));
        current.add(makeEvent("file", "/edit", false));
        current.add(makeEvent("package", "guard-failed", false, true));
        const std::set<std::string> declared {
            "file#/drift", "file#/edit", "service#cut-short", "package#guard-failed", "exec#broken"};
        const auto classes = classify(proposal, current, declared);
        const std::map<std::string, ChangeClass> expected {{"file#/drift", ChangeClass::Drift},
            {"file#/edit", ChangeClass::Intended}, {"file#/new", ChangeClass::Added},
            {"exec#broken", ChangeClass::Failed}, {"service#cut-short", ChangeClass::Uncompared},
            {"package#guard-failed", ChangeClass::Uncompared}};
        QVERIFY(classes == expected);
    }

    void aResourceMetTwiceKeepsItsWorstOutcome()
    {
        CurrentOutcome current;
        current.add(makeEvent("file", "/a", false));
        current.add(makeEvent("file", "/a", true));
        QVERIFY(current.find("file#/a")->changed);
        ProposalOutcome proposal;
        proposal.add(makeEvent("file", "/a", true));
        proposal.add(makeEvent("file", "/a", false, true));
        QVERIFY(proposal.changed().empty());
        QVERIFY(classify(proposal, current, {}).at("file#/a") == ChangeClass::Failed);
    }
};

CCM_TEST_GUILESS_MAIN(TestPreviewCompare)
#include "tst_preview_compare.moc"
