// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "designer/core/data_resolution.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <functional>
#include <optional>

namespace ccm::designer {

class BackendClient;

/// `text` with the lines of its top-level `ccm:` section blanked but for the bare `ccm:` key: data,
/// hierarchy and overrides stay on their lines, and the backend need not read a thousand resources
/// to resolve the data.
QString dataSectionsOnly(const QString &text);

/// The value of one expression on this host and, when What If facts are set, on the What If host.
struct LiveValue {
    QString host; ///< the value as text, or the error
    bool hostFailed = false;
    std::optional<QString> whatIf; ///< unset without What If facts
    bool whatIfFailed = false;
};

/// What the designer knows of the manifest's data and facts from the backend: the gathered facts
/// (facts.get), the data and its provenance for this host and for the What If facts
/// (data.resolve), and values of expressions (expression.evaluate). Resolving follows the manifest
/// after a short quiet time with one request in flight; answers about an older manifest or older
/// facts are dropped. Values are cached by text until the manifest or the facts change.
class LiveData : public QObject {
    Q_OBJECT

public:
    explicit LiveData(BackendClient *client, QObject *parent = nullptr);

    /// The manifest text and its directory; resolving starts after delay() ms of quiet.
    void setManifest(const QString &text, const QString &baseDirectory);
    /// The What If facts merged over the gathered ones; an empty object or null means none.
    void setWhatIfFacts(const ccm::Json &facts);
    [[nodiscard]] bool hasWhatIf() const;

    /// Milliseconds of quiet before data.resolve (default 250).
    void setDelay(int milliseconds);
    [[nodiscard]] int delay() const;

    /// The gathered facts of this host (empty until facts.get answered).
    [[nodiscard]] const ccm::Json &facts() const { return m_facts; }
    /// The latest resolution for this host and for the What If facts.
    [[nodiscard]] const std::optional<DataResolution> &hostResolution() const { return m_host; }
    [[nodiscard]] const std::optional<DataResolution> &whatIfResolution() const { return m_whatIf; }
    /// Why there is no resolution (a backend too old, a failed request); empty when there is one.
    [[nodiscard]] QString problem() const { return m_problem; }

    /// Asks for facts.get and resolves again.
    void refresh();

    using ValueHandler = std::function<void(const LiveValue &value)>;
    /// The value of `text` (`kind` "template" or "expression") on both hosts; from the cache when
    /// known, else from the backend. `done` is called once, possibly before this returns.
    void evaluate(const QString &kind, const QString &text, ValueHandler done);
    /// The cached value, if any.
    [[nodiscard]] std::optional<LiveValue> cachedValue(const QString &kind, const QString &text) const;

signals:
    /// facts() changed.
    void factsChanged();
    /// A resolution (or a problem) for the current manifest and facts arrived.
    void resolved();

private:
    void resolveNow();
    void sendResolve(bool whatIf, quint64 generation);
    void resolveAnswered(
        bool whatIf, quint64 generation, bool ok, const ccm::Json &result, int code, const QString &message);
    void requestFacts();
    [[nodiscard]] ccm::Json commonParams(bool whatIf) const;
    void sendEvaluate(const QString &kind, const QString &text, bool whatIf,
        std::function<void(bool failed, const QString &text)> done);
    [[nodiscard]] QString tooOld(const QString &method, int code, const QString &message) const;

    QPointer<BackendClient> m_client;
    QString m_text;
    QString m_sentText; ///< m_text as sent: dataSectionsOnly()
    QString m_baseDirectory;
    ccm::Json m_whatIfFacts = ccm::Json::object();
    ccm::Json m_facts = ccm::Json::object();
    std::optional<DataResolution> m_host;
    std::optional<DataResolution> m_whatIf;
    QString m_problem;
    QTimer m_timer;
    quint64 m_generation = 0;
    bool m_inFlight = false;
    QHash<QString, LiveValue> m_cache;
};

} // namespace ccm::designer
