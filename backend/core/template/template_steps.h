// SPDX-License-Identifier: Apache-2.0
// The work one rendering of a template may do, shared by both engines (Go and Jet) and by the
// templates a template renders in turn.
#pragma once

#include <cstdint>

namespace ccm {

/// The steps one rendering may take: each piece of text, action and block it walks, and each pass
/// of a loop, counts one. Output is bounded by its size already; this bounds loops nested over data
/// that print little or nothing, which could otherwise run for hours (seven loops nested over seven
/// values make 823,543 passes of the innermost one alone). A large generated file takes a few
/// hundred thousand steps (20 lines for each of 10,000 hosts: about 200,000), and 5,000,000 steps
/// take about a quarter of a second.
inline constexpr std::uint64_t kMaxTemplateSteps = 5'000'000;

/// The step budget of a rendering. The first rendering on a thread opens a budget of its limit;
/// a rendering it causes (jet() called in a Jet loop, a template() file) takes its steps from that
/// same budget, so nesting cannot multiply the work. Lives on the stack of the rendering.
class TemplateSteps {
public:
    struct Budget {
        std::uint64_t left = 0;
        std::uint64_t limit = 0;
    };

    /// Opens a budget of `limit` steps, or joins the one a rendering further out opened.
    explicit TemplateSteps(std::uint64_t limit);
    ~TemplateSteps();
    TemplateSteps(const TemplateSteps &) = delete;
    TemplateSteps &operator=(const TemplateSteps &) = delete;

    /// Takes one step; false once the budget is spent.
    bool take()
    {
        if (m_budget->left == 0)
            return false;
        --m_budget->left;
        return true;
    }
    /// The steps the budget had when it was opened, for messages.
    std::uint64_t limit() const { return m_budget->limit; }

private:
    Budget m_own;
    Budget *m_budget;
    bool m_opened;
};

} // namespace ccm
