// SPDX-License-Identifier: Apache-2.0
#include "core/facts/lazy_facts.h"

#include <mutex>

namespace ccm {

struct LazyFacts::State {
    std::once_flag once;
    std::function<Json()> gather; ///< empty once the facts are known
    Json facts = Json::object();
};

LazyFacts::LazyFacts()
    : LazyFacts(Json::object())
{
}

LazyFacts::LazyFacts(Json facts)
    : m_state(std::make_shared<State>())
{
    m_state->facts = std::move(facts);
}

LazyFacts LazyFacts::deferred(std::function<Json()> gather)
{
    LazyFacts lazy;
    lazy.m_state->gather = std::move(gather);
    return lazy;
}

const Json &LazyFacts::get() const
{
    std::call_once(m_state->once, [this] {
        if (m_state->gather) {
            m_state->facts = m_state->gather();
            m_state->gather = nullptr;
        }
    });
    return m_state->facts;
}

} // namespace ccm
