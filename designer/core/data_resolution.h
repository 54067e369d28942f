// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/json.h"

#include <QString>

#include <vector>

namespace ccm::designer {

/// Which layer of the data produced a value.
struct DataLayer {
    enum class Kind { Data, Override, External, Unknown };
    Kind kind = Kind::Unknown;
    int entry = -1; ///< the hierarchy.order index of an override
    QString name; ///< the override's name
};

/// One value under /data and where it came from.
struct ResolvedKey {
    QString pointer; ///< "/data/web/port"
    ccm::Json value;
    DataLayer layer;
    int line = 0; ///< of the value in the manifest text that supplied it; 0 when unknown
    int column = 0;
};

/// One hierarchy.order entry as resolved with a set of facts.
struct HierarchyEntryState {
    QString templateText;
    QString resolved;
    bool matched = false;
    bool overrideExists = false;
    bool applied = false; ///< its override was merged into the data
    QString error;
};

/// An override the user may add: an entry's resolved name that has no override yet.
struct OverrideSuggestion {
    int entry = -1;
    QString name;
};

/// The answer of data.resolve: the data for one set of facts and its provenance.
struct DataResolution {
    ccm::Json data = ccm::Json::object();
    std::vector<ResolvedKey> keys;
    QString merge;
    std::vector<HierarchyEntryState> entries;
    std::vector<OverrideSuggestion> suggestions;
    ccm::Diagnostics diagnostics;

    /// The key with `pointer`, or null.
    [[nodiscard]] const ResolvedKey *key(const QString &pointer) const;
    /// The diagnostics whose path is `pointer`.
    [[nodiscard]] ccm::Diagnostics diagnosticsAt(const QString &pointer) const;

    /// Reads a data.resolve result. Missing or mistyped members are left empty, never a crash.
    static DataResolution fromJson(const ccm::Json &result);
};

/// Diagnostics in the manifest.validate shape (severity, message, path, line, column); entries that
/// are not objects are skipped.
ccm::Diagnostics diagnosticsFromJson(const ccm::Json &array);

/// A layer in words: "data", "override node.web1 (entry 2)", "external".
QString describeLayer(const DataLayer &layer);

} // namespace ccm::designer
