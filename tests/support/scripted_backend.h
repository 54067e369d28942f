// SPDX-License-Identifier: Apache-2.0
// A scripted user backend on a FakeServer: answers backend.hello, each scripted method with what
// its responder writes (notifications, then the answer) and every other request with an empty
// object, recording the requests it read.
#pragma once

#include "core/model/json.h"
#include "fake_server.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ccm::test {

/// What the scripted backend writes for one request: notifications, then the answer.
using Responder = std::function<std::vector<ccm::Json>(const ccm::Json &request)>;

/// The requests the script read, shared with the test thread.
struct Recorder {
    std::mutex mutex;
    std::vector<ccm::Json> requests;

    std::optional<ccm::Json> find(const std::string &method)
    {
        std::lock_guard lock(mutex);
        for (const ccm::Json &request : requests) {
            if (request.value("method", "") == method)
                return request;
        }
        return std::nullopt;
    }
};

inline ccm::Json answer(const ccm::Json &request, ccm::Json result)
{
    return ccm::Json {{"jsonrpc", "2.0"}, {"id", request.value("id", ccm::Json())}, {"result", std::move(result)}};
}

inline ccm::Json notification(const char *method, ccm::Json params)
{
    return ccm::Json {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

/// Answers backend.hello as a user backend, each scripted method with its responder and every
/// other request with an empty object. The script ends when the client goes or after `patience`
/// silences of 10 s each.
inline FakeServer::Script scriptedBackend(
    std::map<std::string, Responder> responders, std::shared_ptr<Recorder> recorder, int patience = 1)
{
    return [responders = std::move(responders), recorder, patience](FakeConnection &peer, QList<QByteArray> &) {
        for (int silences = 0; silences < patience;) {
            const auto line = peer.readLine();
            if (!line) {
                ++silences;
                continue;
            }
            ccm::Json request;
            try {
                request = ccm::Json::parse(line->toStdString());
            } catch (const ccm::Json::exception &) {
                continue;
            }
            {
                std::lock_guard lock(recorder->mutex);
                recorder->requests.push_back(request);
            }
            const std::string method = request.value("method", "");
            std::vector<ccm::Json> replies;
            if (method == "backend.hello") {
                replies.push_back(answer(request,
                    {{"server", "ccm-backend"}, {"version", "9.9.9"}, {"protocol", 1}, {"role", "apply"},
                        {"user", "alice"}, {"uid", 1000}}));
            } else if (const auto found = responders.find(method); found != responders.end()) {
                replies = found->second(request);
            } else {
                replies.push_back(answer(request, ccm::Json::object()));
            }
            QByteArray bytes;
            for (const ccm::Json &reply : replies)
                bytes += QByteArray::fromStdString(reply.dump() + "\n");
            if (!peer.write(bytes))
                return;
        }
    };
}

} // namespace ccm::test
