// SPDX-License-Identifier: Apache-2.0
// ccm-preview-fleet: many preview responders in one process, for tests and benchmarks.
//
//   ccm-preview-fleet --nats URL --trusted PUB.pem --hosts N [--prefix NAME] [--user USER]
//                     [--work DIR] [--status] [--recorded FILE [--recorded2 FILE]]
//
// Each host is a real PreviewResponder with its own connection, identity PREFIX-I and facts
// {"index": I, "role": "web" for even I, else "db"}. With --recorded FILE the process instead
// holds one connection and answers every valid request for every identity with the answers in
// FILE (one JSON object per line, e.g. {"type":"event","event":{...}}; id, identity and seq are
// filled in), which simulates a fleet of thousands of hosts without running anything: the answers
// of answer format 1, sent to every request unless --recorded2 FILE gives those of format 2 and
// the request asks for format 2 (its "answers" member), as a real agent decides. --status
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
    std::optional<std::string> recorded2;
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
        else if (option == "--recorded2")
            arguments.recorded2 = value;
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

/// One recorded answer: its type, and its own members as JSON text without the braces, for the
/// common fields to be put in front.
struct RecordedAnswer {
    std::string type;
    std::string members;
    Json json;
};

/// The recorded fleet: one subscription answering for every identity, in the format each request
/// asks for (a real agent's rule): `format2` when the request reads format 2 and it was given,
/// else `format1`.
struct Recorded {
    const Arguments *arguments = nullptr;
    NatsConnection *connection = nullptr;
    std::string trusted;
    std::vector<RecordedAnswer> format1;
    std::vector<RecordedAnswer> format2;
};

std::vector<RecordedAnswer> readRecording(const std::string &path)
{
    std::vector<RecordedAnswer> answers;
    std::ifstream file(path);
    for (std::string line; std::getline(file, line);) {
        if (line.empty())
            continue;
        Json answer = parseJson(line);
        RecordedAnswer recorded {answer.value("type", ""), {}, answer};
        answer.erase("type");
        const std::string text = answer.dump();
        recorded.members = text.size() > 2 ? text.substr(1, text.size() - 2) : std::string();
        answers.push_back(std::move(recorded));
    }
    return answers;
}

/// Publishes one host's answers; the text is written directly (the requester reads members in any
/// order) and split like an agent's only when larger than the server takes.
void publishHost(const Recorded &recorded, const std::vector<RecordedAnswer> &answers, const PreviewRequest &request,
    const std::string &identity, std::size_t maxPayload)
{
    std::uint64_t seq = 0;
    std::string payload;
    for (const RecordedAnswer &answer : answers) {
        payload.clear();
        payload += R"({"id":")" + request.id + R"(","identity":")" + identity + R"(","seq":)" + std::to_string(seq)
            + R"(,"type":")" + answer.type + '"';
        if (!answer.members.empty())
            payload += ',' + answer.members;
        payload += '}';
        std::vector<std::string> parts;
        if (payload.size() > maxPayload) {
            Json full = answer.json;
            full.update(answerHeader(request.id, identity, seq, answer.type));
            parts = splitAnswer(full, maxPayload);
        } else {
            parts.push_back(payload);
        }
        ++seq;
        for (const std::string &part : parts)
            natsConnection_Publish(
                recorded.connection->connection(), request.reply.c_str(), part.data(), static_cast<int>(part.size()));
    }
}

void answerRecorded(natsConnection *, natsSubscription *, natsMsg *message, void *closure)
{
    const auto *recorded = static_cast<Recorded *>(closure);
    auto request = decodeSignedRequest(
        std::string_view(natsMsg_GetData(message), static_cast<std::size_t>(natsMsg_GetDataLength(message))));
    natsMsg_Destroy(message);
    if (!request || request->publicKey != recorded->trusted || !checkRequestRules(request->request, Clock::now()))
        return;
    const auto maxPayload = static_cast<std::size_t>(recorded->connection->maxPayload());
    const bool format2 = answerFormatFor(request->request) >= 2 && !recorded->format2.empty();
    const std::vector<RecordedAnswer> &answers = format2 ? recorded->format2 : recorded->format1;
    for (std::size_t host = 0; host < recorded->arguments->hosts; ++host)
        publishHost(*recorded, answers, request->request, identityOf(*recorded->arguments, host), maxPayload);
    natsConnection_Flush(recorded->connection->connection());
}

int runRecorded(const Arguments &arguments)
{
    auto connection = connect(arguments.url);
    Recorded recorded {
        &arguments, connection.get(), loadPublicKey(arguments.trusted).value(), readRecording(*arguments.recorded), {}};
    if (arguments.recorded2)
        recorded.format2 = readRecording(*arguments.recorded2);
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
                     " [--work DIR] [--status yes] [--recorded FILE [--recorded2 FILE]]\n";
        return 2;
    }
    return arguments->recorded ? runRecorded(*arguments) : runResponders(*arguments);
}
