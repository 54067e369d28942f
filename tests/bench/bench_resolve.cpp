// SPDX-License-Identifier: Apache-2.0
// Resolving manifests of growing size (Hiera data plus templated resources), large data maps, many
// resources reading data keys, and the cost of one template expression; prints the median of
// several runs.
#include "bench_timing.h"
#include "core/expr/expression.h"
#include "core/model/manifest.h"
#include "core/model/resolve.h"
#include "core/template/template_string.h"

#include <cstdio>
#include <string>

namespace {

std::string manifestOf(int resources)
{
    std::string text
        = "data:\n  owner: root\n  app: shop\n  port: \"{{ 8080 }}\"\n"
          "hierarchy:\n  order: [\"os:{{ lookup('facts.host.info.platformFamily') }}\", default]\n"
          "  merge: deep\n"
          "overrides:\n  \"os:debian\":\n    owner: www-data\n  default:\n    app: store\n"
          "ccm:\n  resources:\n    - file:\n"
          "        - defaults:\n            owner: \"{{ lookup('data.owner') }}\"\n            group: root\n";
    for (int i = 0; i < resources; ++i) {
        text += "        - /srv/{{ lookup('data.app') }}/conf.d/" + std::to_string(i)
            + ".conf:\n"
              "            ensure: present\n            mode: \"0644\"\n"
              "            content: |\n              port = {{ Data.port + "
            + std::to_string(i) + " }}\n";
    }
    return text;
}

/// A data map of `keys` members, every other one a template, and one resource that reads it.
std::string manifestWithDataKeys(int keys)
{
    std::string text = "data:\n";
    for (int i = 0; i < keys; ++i) {
        const std::string index = std::to_string(i);
        text += "  k" + index
            + (i % 2 == 0 ? ": \"{{ lookup('facts.host.info.hostname') }}-" + index + "\"\n" : ": v" + index + "\n");
    }
    text += "ccm:\n  resources:\n    - file:\n        - /tmp/bench:\n            ensure: present\n"
            "            owner: root\n            group: root\n            mode: \"0644\"\n"
            "            content: \"{{ Data.k0 }}\"\n";
    return text;
}

/// `count` data keys and as many resources, each reading its own key, by Data and by lookup().
std::string manifestReadingDataKeys(int count)
{
    std::string text = "data:\n";
    for (int i = 0; i < count; ++i)
        text += "  k" + std::to_string(i) + ": v" + std::to_string(i) + "\n";
    text += "ccm:\n  resources:\n    - exec:\n";
    for (int i = 0; i < count; ++i) {
        const std::string index = std::to_string(i);
        text += "        - \"echo {{ Data.k" + index + " }} {{ lookup('data.k" + index + "') }}\": {}\n";
    }
    return text;
}

} // namespace

using ccm::bench::medianMilliseconds;

int main()
{
    ccm::ResolveOptions options;
    options.facts = ccm::Json::parse(R"({"host": {"info": {"platformFamily": "debian", "hostname": "web1"}}})");

    std::printf("%10s %12s %12s\n", "resources", "load ms", "resolve ms");
    for (int count : {100, 1000, 10000}) {
        const std::string text = manifestOf(count);
        const double load = medianMilliseconds([&] { (void)ccm::loadManifest(text); });
        const ccm::LoadedManifest loaded = ccm::loadManifest(text);
        const ccm::ResolvedManifest check = ccm::resolveManifest(loaded, text, options);
        if (!check.ok() || check.resources.size() != static_cast<std::size_t>(count)) {
            std::fprintf(stderr, "benchmark manifest did not resolve\n");
            return 1;
        }
        const double resolve = medianMilliseconds([&] { (void)ccm::resolveManifest(loaded, text, options); });
        std::printf("%10d %12.1f %12.1f\n", count, load, resolve);
    }

    // Resolution of a data map should grow linearly with its keys: the time per key should stay flat.
    std::printf("\n%10s %12s %14s %14s\n", "data keys", "resolve ms", "us per key", "vs 10k per key");
    double firstPerKey = 0;
    for (int keys : {10000, 80000, 300000}) {
        const std::string text = manifestWithDataKeys(keys);
        const ccm::LoadedManifest loaded = ccm::loadManifest(text);
        const ccm::ResolvedManifest check = ccm::resolveManifest(loaded, text, options);
        if (!check.ok() || check.data.size() != static_cast<std::size_t>(keys)) {
            std::fprintf(stderr, "data benchmark manifest did not resolve\n");
            return 1;
        }
        const double resolve = medianMilliseconds([&] { (void)ccm::resolveManifest(loaded, text, options); }, 3);
        const double perKey = resolve * 1000.0 / keys;
        if (firstPerKey == 0)
            firstPerKey = perKey;
        std::printf("%10d %12.1f %14.2f %14.2f\n", keys, resolve, perKey, perKey / firstPerKey);
    }

    // Every resource reading its own data key: the time per resource should stay flat as well.
    std::printf("\n%10s %12s %14s %14s\n", "readers", "resolve ms", "us per reader", "vs 5k per reader");
    double firstPerReader = 0;
    for (int count : {5000, 20000, 80000}) {
        const std::string text = manifestReadingDataKeys(count);
        const ccm::LoadedManifest loaded = ccm::loadManifest(text);
        const ccm::ResolvedManifest check = ccm::resolveManifest(loaded, text, options);
        if (!check.ok() || check.resources.size() != static_cast<std::size_t>(count)) {
            std::fprintf(stderr, "data reading benchmark manifest did not resolve\n");
            return 1;
        }
        const double resolve = medianMilliseconds([&] { (void)ccm::resolveManifest(loaded, text, options); }, 3);
        const double perReader = resolve * 1000.0 / count;
        if (firstPerReader == 0)
            firstPerReader = perReader;
        std::printf("%10d %12.1f %14.2f %14.2f\n", count, resolve, perReader, perReader / firstPerReader);
    }

    const ccm::Json data = ccm::Json::parse(R"({"port": 8080, "users": ["alice", "bob"]})");
    const ccm::Json environment = ccm::Json::object();
    const ccm::StandardScope scope(options.facts, data, environment);
    constexpr int kEvaluations = 100000;
    const char *expression = "lookup('facts.host.info.platformFamily') == 'debian' && Data.port + 1 > 80";
    const double parseAndEvaluate = medianMilliseconds([&] {
        for (int i = 0; i < kEvaluations; ++i)
            (void)ccm::evaluateExpression(expression, scope);
    });
    const auto parsed = ccm::Expression::parse(expression);
    const double evaluateOnly = medianMilliseconds([&] {
        for (int i = 0; i < kEvaluations; ++i)
            (void)parsed.value().evaluate(scope);
    });
    const double templateString = medianMilliseconds([&] {
        for (int i = 0; i < kEvaluations; ++i)
            (void)ccm::resolveTemplate("/srv/{{ Data.users[0] }}/${ Data.port }.conf", scope);
    });
    std::printf("\nper expression: parse+evaluate %.2f us, evaluate %.2f us; template string with two "
                "expressions %.2f us\n",
        parseAndEvaluate * 1000.0 / kEvaluations, evaluateOnly * 1000.0 / kEvaluations,
        templateString * 1000.0 / kEvaluations);
    return 0;
}
