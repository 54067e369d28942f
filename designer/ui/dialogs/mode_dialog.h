// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

#include <utility>
#include <vector>

class QCheckBox;

namespace ccm::designer {

/// Edits an octal file mode as read, write and execute for owner, group and others plus setuid,
/// setgid and sticky.
class ModeDialog : public QDialog {
    Q_OBJECT

public:
    explicit ModeDialog(unsigned mode, QWidget *parent = nullptr);
    /// The mode the boxes describe.
    [[nodiscard]] unsigned mode() const;
    /// mode() written as four octal digits, e.g. "0750".
    [[nodiscard]] QString modeText() const;
    /// The check box of one permission bit (0400 is owner read), for keyboard-free tests.
    [[nodiscard]] QCheckBox *bitBox(unsigned bit) const;

private:
    std::vector<std::pair<unsigned, QCheckBox *>> m_boxes;
};

} // namespace ccm::designer
