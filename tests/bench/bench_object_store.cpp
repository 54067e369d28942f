// SPDX-License-Identifier: Apache-2.0
// Puts and gets a 64 MiB object through a local nats-server with JetStream (file storage) and
// prints the median time and throughput of each, and the peak resident memory of this process. The
// store streams in 128 KiB chunks; the benchmark itself holds the object twice (its bytes and the
// input stream's copy), so about 128 MiB of the peak is its own.
#include "../fleet/nats_server.h"
#include "bench_timing.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"

#include <QCoreApplication>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/resource.h>

using namespace ccm;
using namespace ccm::fleet;

namespace {

constexpr std::size_t kObjectSize = std::size_t(64) << 20;

/// Discards what is written, as a download to /dev/null would.
class NullBuffer : public std::streambuf {
protected:
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char *, std::streamsize count) override { return count; }
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication application(argc, argv);
    if (!test::NatsServer::available()) {
        std::fprintf(stderr, "bench_object_store: nats-server is not installed\n");
        return 1;
    }
    test::NatsServer server;
    if (!server.start()) {
        std::fprintf(stderr, "bench_object_store: %s\n", qPrintable(server.error()));
        return 1;
    }
    NatsSettings settings;
    settings.url = server.urlString();
    auto connection = NatsConnection::connect(settings);
    if (!connection) {
        std::fprintf(stderr, "bench_object_store: %s\n", connection.error().message.c_str());
        return 1;
    }
    auto store = ObjectStore::openOrCreate(*connection.value(), "bench");
    if (!store) {
        std::fprintf(stderr, "bench_object_store: %s\n", store.error().message.c_str());
        return 1;
    }

    std::string data(kObjectSize, '\0');
    std::mt19937_64 random(1);
    for (std::size_t i = 0; i + 8 <= data.size(); i += 8) {
        const std::uint64_t value = random();
        std::memcpy(data.data() + i, &value, 8);
    }

    bool failed = false;
    const double putMs = bench::medianMilliseconds(
        [&] {
            std::istringstream input(data);
            if (auto put = store.value().put("bench.tar.gz", input); !put) {
                std::fprintf(stderr, "put: %s\n", put.error().message.c_str());
                failed = true;
            }
        },
        5);
    const double getMs = bench::medianMilliseconds(
        [&] {
            NullBuffer sink;
            std::ostream output(&sink);
            if (auto got = store.value().get("bench.tar.gz", output); !got) {
                std::fprintf(stderr, "get: %s\n", got.error().message.c_str());
                failed = true;
            }
        },
        5);
    const double mib = static_cast<double>(kObjectSize) / (1024.0 * 1024.0);
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("object store, %.0f MiB object in %zu KiB chunks, median of 5:\n", mib, ObjectStore::kChunkSize / 1024);
    std::printf("  put  %8.1f ms  %7.1f MiB/s\n", putMs, mib / (putMs / 1000.0));
    std::printf("  get  %8.1f ms  %7.1f MiB/s (digest checked)\n", getMs, mib / (getMs / 1000.0));
    std::printf("  peak resident memory %ld MiB (of which %.0f MiB are the benchmark's two copies of the object)\n",
        usage.ru_maxrss / 1024, 2 * mib);
    return failed ? 1 : 0;
}
