// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <functional>
#include <memory>

namespace ccm {

/// Facts that are gathered the first time something reads them, then kept. Gathering the system's
/// facts costs more than running a small manifest, and most manifests never read them. Copies share
/// one gathering; get() may be called from several threads.
class LazyFacts {
public:
    /// An empty map.
    LazyFacts();
    /// Facts already known. Explicit, so that `facts = {{"k", "v"}}` cannot quietly build a list:
    /// write `facts = Json {{"k", "v"}}`.
    explicit LazyFacts(Json facts);
    /// Replaces the facts with ones already known.
    LazyFacts &operator=(Json facts) { return *this = LazyFacts(std::move(facts)); }

    /// Facts that `gather` gives when first read; it is called at most once.
    static LazyFacts deferred(std::function<Json()> gather);

    /// The facts, gathering them now if nothing read them before.
    [[nodiscard]] const Json &get() const;
    operator const Json &() const { return get(); } // NOLINT(google-explicit-constructor)

private:
    struct State;
    std::shared_ptr<State> m_state;
};

} // namespace ccm
