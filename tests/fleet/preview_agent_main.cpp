// SPDX-License-Identifier: Apache-2.0
// ccm-preview-fleet: many preview responders in one process, for tests and benchmarks.
//
//   ccm-preview-fleet --nats URL --trusted PUB.pem --hosts N [--prefix NAME] [--user USER]
//                     [--work DIR] [--status] [--recorded FILE]
//
// Each host is a real PreviewResponder with its own connection, identity PREFIX-I and facts
// {"index": I, "role": "web" for even I, else "db"}. With --recorded FILE the process instead
// holds one connection and answers every valid request for every identity with the answers in
// FILE (one JSON object per line, e.g. {"type":"event","event":{...}}; id, identity and seq are
// filled in), which simulates a fleet of thousands of hosts without running anything. --status
// lists every identity in CCM_STATUS. Prints "ready" once listening; runs until stdin closes.
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/preview/preview_responder.h"
#include "fleet/preview/preview_wire.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nats/nats.h>
#include <optional>
#include <string>
#include <vector>

using namespace ccm;
using namespace ccm::fleet;

namespace {

struct Arguments {
    std::string url;
    std::string trusted;
    std::size_t hosts = 1;
    std::string prefix = "host";
    std::string user = "root";
    std::string work = std::filesystem::temp_directory_path() / "ccm-preview-fleet";
    bool status = false;
    std::optional<std::string> recorded;
};

std::optional<Arguments> parseArguments(int argc, char **argv)
{
    Arguments arguments;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i];
        const std::string value = argv[i + 1];
        if (option == "--nats")
            arguments.url = value;
        else if (option == "--trusted")
            arguments.trusted = value;
        else if (option == "--hosts")
            arguments.hosts = std::stoul(value);
        else if (option == "--prefix")
            arguments.prefix = value;
        else if (option == "--user")
            arguments.user = value;
        else if (option == "--work")
            arguments.work = value;
        else if (option == "--recorded")
            arguments.recorded = value;
        else if (option == "--status" && value == "yes")
            arguments.status = true;
        else
            return std::nullopt;
    }
    if (arguments.url.empty() || arguments.trusted.empty())
        return std::nullopt;
    return arguments;
}

std::string identityOf(const Arguments &arguments, std::size_t index)
{
    return arguments.prefix + "-" + std::to_string(index);
}

std::unique_ptr<NatsConnection> connect(const std::string &url)
{
    NatsSettings settings;
    settings.url = url;
    auto connection = NatsConnection::connect(settings);
    if (!connection) {
        std::cerr << "ccm-preview-fleet: " << connection.error().message << '\n';
        std::exit(1);
    }
    return std::move(connection).value();
}

void listStatus(const Arguments &arguments, NatsConnection &connection)
{
    auto bucket = KvBucket::openOrCreate(connection, std::string(kStatusBucket));
    const std::string now = formatRfc3339(Clock::now());
    for (std::size_t i = 0; bucket && i < arguments.hosts; ++i) {
        const std::string identity = identityOf(arguments, i);
        const Json value {{"identity", identity}, {"time", now}, {"interval_seconds", 300}, {"version", "test"},
            {"summary", Json::object()}, {"failed_resources", Json::array()}, {"runs", Json::array()}};
        (void)bucket.value().put(statusKey(identity), value.dump());
    }
}

/// The recorded fleet: one subscription answering for every identity.
struct Recorded {
    const Arguments *arguments = nullptr;
    NatsConnection *connection = nullptr;
    std::string trusted;
    std::vector<Json> answers;
};

void answerRecorded(natsConnection *, natsSubscription *, natsMsg *message, void *closure)
{
    const auto *recorded = static_cast<Recorded *>(closure);
    auto request = decodeSignedRequest(
        std::string_view(natsMsg_GetData(message), static_cast<std::size_t>(natsMsg_GetDataLength(message))));
    natsMsg_Destroy(message);
    if (!request || request->publicKey != recorded->trusted || !checkRequestRules(request->request, Clock::now()))
        return;
    const auto maxPayload = static_cast<std::size_t>(recorded->connection->maxPayload());
    const std::string &reply = request->request.reply;
    for (std::size_t host = 0; host < recorded->arguments->hosts; ++host) {
        std::uint64_t seq = 0;
        for (const Json &answer : recorded->answers) {
            Json full = answerHeader(
                request->request.id, identityOf(*recorded->arguments, host), seq++, answer.value("type", ""));
            for (const auto &[key, value] : answer.items())
                if (key != "type")
                    full[key] = value;
            for (const std::string &payload : splitAnswer(full, maxPayload))
                natsConnection_Publish(recorded->connection->connection(), reply.c_str(), payload.data(),
                    static_cast<int>(payload.size()));
        }
    }
    natsConnection_Flush(recorded->connection->connection());
}

int runRecorded(const Arguments &arguments)
{
    auto connection = connect(arguments.url);
    Recorded recorded {&arguments, connection.get(), loadPublicKey(arguments.trusted).value(), {}};
    std::ifstream file(*arguments.recorded);
    for (std::string line; std::getline(file, line);)
        if (!line.empty())
            recorded.answers.push_back(parseJson(line));
    if (arguments.status)
        listStatus(arguments, *connection);
    natsSubscription *subscription = nullptr;
    natsConnection_Subscribe(&subscription, connection->connection(), std::string(kPreviewRequestSubject).c_str(),
        answerRecorded, &recorded);
    natsConnection_Flush(connection->connection());
    std::cout << "ready" << std::endl;
    for (std::string ignored; std::getline(std::cin, ignored);) { }
    natsSubscription_Unsubscribe(subscription);
    natsSubscription_Destroy(subscription);
    return 0;
}

int runResponders(const Arguments &arguments)
{
    std::vector<std::unique_ptr<NatsConnection>> connections;
    std::vector<std::unique_ptr<PreviewResponder>> responders;
    for (std::size_t i = 0; i < arguments.hosts; ++i) {
        connections.push_back(connect(arguments.url));
        PreviewResponderOptions options;
        options.identity = identityOf(arguments, i);
        options.trustedKeys = {arguments.trusted};
        options.previewUser = arguments.user;
        options.facts = [i] { return Json {{"index", i}, {"role", i % 2 == 0 ? "web" : "db"}}; };
        options.workDirectory = std::filesystem::path(arguments.work) / options.identity;
        options.log = [](engine::LogLevel, const std::string &line) { std::cerr << line << std::endl; };
        auto responder = PreviewResponder::start(*connections.back(), options);
        if (!responder) {
            std::cerr << "ccm-preview-fleet: " << responder.error().message << '\n';
            return 1;
        }
        responders.push_back(std::move(responder).value());
    }
    if (arguments.status)
        listStatus(arguments, *connections.front());
    std::cout << "ready" << std::endl;
    for (std::string ignored; std::getline(std::cin, ignored);) { }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const auto arguments = parseArguments(argc, argv);
    if (!arguments) {
        std::cerr << "usage: ccm-preview-fleet --nats URL --trusted PUB.pem [--hosts N] [--prefix NAME] [--user USER]"
                     " [--work DIR] [--status yes] [--recorded FILE]\n";
        return 2;
    }
    return arguments->recorded ? runRecorded(*arguments) : runResponders(*arguments);
}
