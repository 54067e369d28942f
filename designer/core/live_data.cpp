// SPDX-License-Identifier: Apache-2.0
#include "designer/core/live_data.h"

#include "designer/core/backend_client.h"

#include <memory>

namespace ccm::designer {

namespace {

constexpr int kMethodNotFound = int(protocol::ErrorCode::MethodNotFound);

QString cacheKey(const QString &kind, const QString &text)
{
    return kind + QChar(0x1f) + text;
}

/// A value as the tooltip shows it: strings as they are, anything else as JSON.
QString valueText(const ccm::Json &value)
{
    return value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString::fromStdString(value.dump());
}

/// One entry of expression.evaluate's `values` in words.
QString describeValue(const ccm::Json &entry, bool *failed)
{
    *failed = true;
    if (!entry.is_object())
        return LiveData::tr("the backend sent no value");
    if (const auto value = entry.find("value"); value != entry.end()) {
        *failed = false;
        return valueText(*value);
    }
    const ccm::Json error = entry.value("error", ccm::Json::object());
    const QString message
        = error.is_object() ? QString::fromStdString(error.value("message", std::string())) : QString();
    const int column = error.is_object() ? error.value("column", 0) : 0;
    if (column > 0)
        return LiveData::tr("%1 (column %2)").arg(message).arg(column);
    return message.isEmpty() ? LiveData::tr("the backend sent no value") : message;
}

} // namespace

QString dataSectionsOnly(const QString &text)
{
    // One pass over the text, line by line, without splitting it into a list: a manifest of 5,000
    // resources has 40,000 lines, and this runs at every change.
    QString kept;
    kept.reserve(text.size());
    bool inCcm = false;
    qsizetype start = 0;
    while (true) {
        const qsizetype newline = text.indexOf(QLatin1Char('\n'), start);
        const qsizetype end = newline < 0 ? text.size() : newline;
        const QStringView line = QStringView(text).mid(start, end - start);
        const bool topLevel = !line.isEmpty() && !line.at(0).isSpace() && !line.startsWith(QLatin1Char('#'));
        if (topLevel)
            inCcm = line.startsWith(QLatin1String("ccm:"));
        // The key stays, its body goes: a manifest without data sections is still a manifest, not
        // an empty text the backend would report as "the manifest is empty".
        if (!inCcm)
            kept += line;
        else if (topLevel)
            kept += QLatin1String("ccm:");
        if (newline < 0)
            break;
        kept += QLatin1Char('\n');
        start = newline + 1;
    }
    return kept;
}

LiveData::LiveData(BackendClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(250);
    connect(&m_timer, &QTimer::timeout, this, &LiveData::resolveNow);
    if (client != nullptr)
        connect(client, &BackendClient::connected, this, &LiveData::refresh);
}

void LiveData::setManifest(const QString &text, const QString &baseDirectory)
{
    if (text == m_text && baseDirectory == m_baseDirectory)
        return;
    m_text = text;
    m_sentText = dataSectionsOnly(text);
    m_baseDirectory = baseDirectory;
    ++m_generation;
    m_cache.clear();
    m_timer.start();
}

void LiveData::setWhatIfFacts(const ccm::Json &facts)
{
    const ccm::Json normalised = facts.is_object() ? facts : ccm::Json::object();
    if (normalised == m_whatIfFacts)
        return;
    m_whatIfFacts = normalised;
    ++m_generation;
    m_cache.clear();
    m_timer.start();
}

bool LiveData::hasWhatIf() const
{
    return !m_whatIfFacts.empty();
}

void LiveData::setDelay(int milliseconds)
{
    m_timer.setInterval(milliseconds);
}

int LiveData::delay() const
{
    return m_timer.interval();
}

void LiveData::refresh()
{
    requestFacts();
    ++m_generation;
    m_cache.clear();
    resolveNow();
}

void LiveData::requestFacts()
{
    if (m_client == nullptr || !m_client->isConnected())
        return;
    m_client->call(QStringLiteral("facts.get"), ccm::Json::object(),
        [guard = QPointer<LiveData>(this)](const BackendClient::Answer &answer) {
            if (guard == nullptr || !answer.ok || !answer.result.is_object())
                return;
            guard->m_facts = answer.result.value("facts", ccm::Json::object());
            emit guard->factsChanged();
        });
}

ccm::Json LiveData::commonParams(bool whatIf) const
{
    ccm::Json params = {{"manifest", m_sentText.toStdString()}};
    if (!m_baseDirectory.isEmpty())
        params["base_dir"] = m_baseDirectory.toStdString();
    if (whatIf)
        params["facts"] = m_whatIfFacts;
    return params;
}

QString LiveData::tooOld(const QString &method, int code, const QString &message) const
{
    if (code == kMethodNotFound)
        return tr("This backend is too old for %1; update ccm-backend to see resolved data and live values.")
            .arg(method);
    return tr("%1 failed: %2").arg(method, message);
}

void LiveData::resolveNow()
{
    m_timer.stop();
    if (m_inFlight || m_client == nullptr || !m_client->isConnected() || m_text.isEmpty())
        return;
    sendResolve(false, m_generation);
}

void LiveData::sendResolve(bool whatIf, quint64 generation)
{
    m_inFlight = true;
    m_client->call(QStringLiteral("data.resolve"), commonParams(whatIf),
        [guard = QPointer<LiveData>(this), whatIf, generation](const BackendClient::Answer &answer) {
            if (guard != nullptr)
                guard->resolveAnswered(whatIf, generation, answer.ok, answer.result, answer.code, answer.message);
        });
}

void LiveData::resolveAnswered(
    bool whatIf, quint64 generation, bool ok, const ccm::Json &result, int code, const QString &message)
{
    m_inFlight = false;
    if (generation != m_generation) {
        resolveNow();
        return;
    }
    if (!ok) {
        m_problem = tooOld(QStringLiteral("data.resolve"), code, message);
        m_host.reset();
        m_whatIf.reset();
        emit resolved();
        return;
    }
    m_problem.clear();
    (whatIf ? m_whatIf : m_host) = DataResolution::fromJson(result);
    if (!whatIf && hasWhatIf()) {
        sendResolve(true, generation);
        return;
    }
    if (!hasWhatIf())
        m_whatIf.reset();
    emit resolved();
}

std::optional<LiveValue> LiveData::cachedValue(const QString &kind, const QString &text) const
{
    const auto found = m_cache.constFind(cacheKey(kind, text));
    if (found == m_cache.constEnd())
        return std::nullopt;
    return *found;
}

void LiveData::evaluate(const QString &kind, const QString &text, ValueHandler done)
{
    if (const auto cached = cachedValue(kind, text)) {
        done(*cached);
        return;
    }
    const quint64 generation = m_generation;
    auto value = std::make_shared<LiveValue>();
    auto pending = std::make_shared<int>(hasWhatIf() ? 2 : 1);
    auto finish = [guard = QPointer<LiveData>(this), value, pending, generation, kind, text, done] {
        if (--*pending > 0)
            return;
        if (guard != nullptr && generation == guard->m_generation)
            guard->m_cache.insert(cacheKey(kind, text), *value);
        done(*value);
    };
    sendEvaluate(kind, text, false, [value, finish](bool failed, const QString &shown) {
        value->host = shown;
        value->hostFailed = failed;
        finish();
    });
    if (hasWhatIf()) {
        sendEvaluate(kind, text, true, [value, finish](bool failed, const QString &shown) {
            value->whatIf = shown;
            value->whatIfFailed = failed;
            finish();
        });
    }
}

void LiveData::sendEvaluate(
    const QString &kind, const QString &text, bool whatIf, std::function<void(bool failed, const QString &text)> done)
{
    if (m_client == nullptr) {
        done(true, tr("not connected to a backend"));
        return;
    }
    ccm::Json params = commonParams(whatIf);
    params["items"] = ccm::Json::array({{{"kind", kind.toStdString()}, {"text", text.toStdString()}}});
    m_client->call(QStringLiteral("expression.evaluate"), std::move(params),
        [guard = QPointer<LiveData>(this), done](const BackendClient::Answer &answer) {
            if (!answer.ok) {
                const QString why = guard != nullptr
                    ? guard->tooOld(QStringLiteral("expression.evaluate"), answer.code, answer.message)
                    : answer.message;
                done(true, why);
                return;
            }
            const ccm::Json values
                = answer.result.is_object() ? answer.result.value("values", ccm::Json()) : ccm::Json();
            bool failed = true;
            const QString shown
                = describeValue(values.is_array() && !values.empty() ? values.front() : ccm::Json(), &failed);
            done(failed, shown);
        });
}

} // namespace ccm::designer
