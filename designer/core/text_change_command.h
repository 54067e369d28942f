// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QUndoCommand>

#include <functional>
#include <utility>

namespace ccm::designer {

/// One change of a document's text: the text before and after, whatever kind of edit made it.
/// Commands with the same non-empty merge key merge, so a run of keystrokes or of edits of one
/// property is one step of the history.
class TextChangeCommand : public QUndoCommand {
public:
    using Apply = std::function<void(const QString &)>;

    TextChangeCommand(const QString &label, QString before, QString after, QString mergeKey, Apply apply)
        : QUndoCommand(label)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_mergeKey(std::move(mergeKey))
        , m_apply(std::move(apply))
    {
    }

    [[nodiscard]] int id() const override { return m_mergeKey.isEmpty() ? -1 : 1; }

    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = static_cast<const TextChangeCommand *>(other);
        if (next->m_mergeKey != m_mergeKey)
            return false;
        m_after = next->m_after;
        setObsolete(m_after == m_before);
        return true;
    }

    void undo() override { m_apply(m_before); }
    void redo() override { m_apply(m_after); }

private:
    QString m_before;
    QString m_after;
    QString m_mergeKey;
    Apply m_apply;
};

} // namespace ccm::designer
