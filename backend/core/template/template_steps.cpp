// SPDX-License-Identifier: Apache-2.0
#include "core/template/template_steps.h"

namespace ccm {

namespace {

/// The budget of the outermost rendering running on this thread; null when none runs.
thread_local TemplateSteps::Budget *t_open = nullptr;

} // namespace

TemplateSteps::TemplateSteps(std::uint64_t limit)
    : m_own {limit, limit}
    , m_budget(t_open != nullptr ? t_open : &m_own)
    , m_opened(t_open == nullptr)
{
    if (m_opened)
        t_open = &m_own;
}

TemplateSteps::~TemplateSteps()
{
    if (m_opened)
        t_open = nullptr;
}

} // namespace ccm
