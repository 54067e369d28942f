// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/ui/editors/field_editors.h"

namespace ccm::designer {

/// The editor of control's `if` and `unless` expressions, one line each; the fields' object names
/// start with `prefix`.
FieldEditor *createExpressionsEditor(const FieldDescription &field, const QString &prefix, QWidget *parent);

/// The editor of a list of maps (health checks, registrations): one group of fields per item, with
/// Add and Remove.
FieldEditor *createNestedListEditor(const FieldDescription &field, QWidget *parent);

} // namespace ccm::designer
