// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/property_editor.h"

#include "core/model/validator.h"
#include "designer/core/form_description.h"
#include "designer/ui/editors/field_editors.h"
#include "designer/ui/icons.h"
#include "designer/ui/palette_tone.h"
#include "designer/ui/panels/empty_state.h"
#include "designer/ui/panels/results_panel.h"

#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ccm::designer {

namespace {

constexpr const char *kSeverityProperty = "ccmSeverity";

/// Package and service names are words of a restricted alphabet; the other types name paths,
/// commands or URLs, which the document's checks judge.
bool namesArePackageLike(const QString &type)
{
    return type == QStringLiteral("package") || type == QStringLiteral("service");
}

/// Text colours for messages that read well on light and dark palettes alike.
QColor severityColour(const QPalette &palette, Severity severity)
{
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    switch (severity) {
    case Severity::Error:
        return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x00, 0x20);
    case Severity::Warning:
        return dark ? QColor(0xff, 0xd5, 0x4f) : QColor(0x8a, 0x5a, 0x00);
    case Severity::Info:
        break;
    }
    return palette.color(QPalette::PlaceholderText);
}

void colourLabel(QLabel *label, const QColor &colour)
{
    QPalette palette = label->palette();
    palette.setColor(QPalette::WindowText, colour);
    label->setPalette(palette);
}

/// A property the host has otherwise: what applying would change, in the colour the results and
/// the resource list give a change.
QColor differsColour(const QPalette &palette)
{
    return ResultsPanel::outcomeColor(QStringLiteral("changed"), palette);
}

/// A tooltip that shows `text` as it is: a backend's words that happen to look like HTML are not
/// rendered as such.
QString literalToolTip(const QString &text)
{
    return Qt::mightBeRichText(text) ? QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped()) : text;
}

/// The marker beside a field the host has otherwise, centred on the field's first line.
QLabel *hostMarker(QWidget *cell, const QString &property, int lineHeight)
{
    auto *marker = new QLabel(QStringLiteral("●"), cell);
    marker->setObjectName(property + QStringLiteral("-host"));
    colourLabel(marker, differsColour(cell->palette()));
    QFont bold = marker->font();
    bold.setBold(true);
    marker->setFont(bold);
    marker->setAlignment(Qt::AlignCenter);
    marker->setMinimumHeight(lineHeight);
    marker->hide();
    return marker;
}

/// The glyph and colour that start the host line: the resource list's marks for a resource that
/// stays as it is (✓), would change (●) or failed (✗); a grey ? or … while nothing is known.
std::pair<QString, QColor> hostGlyph(const HostStateView &view, const QPalette &palette)
{
    const QColor quiet = palette.color(QPalette::PlaceholderText);
    switch (view.kind) {
    case HostStateView::Kind::Known:
        if (!view.markers.empty())
            return {QStringLiteral("●"), differsColour(palette)};
        return {QStringLiteral("✓"), isDarkPalette(palette) ? QColor(0x81, 0xc7, 0x84) : QColor(0x2e, 0x7d, 0x32)};
    case HostStateView::Kind::Failed:
        return {QStringLiteral("✗"), ResultsPanel::outcomeColor(QStringLiteral("failed"), palette)};
    case HostStateView::Kind::Unknown:
        return {QStringLiteral("?"), quiet};
    case HostStateView::Kind::Checking:
    case HostStateView::Kind::Hidden:
        break;
    }
    return {QStringLiteral("…"), quiet};
}

/// Shows lines of a given worst severity in a message label, hiding it when there are none.
void showMessages(QLabel *label, const QStringList &lines, Severity worst)
{
    label->setText(lines.join(QLatin1Char('\n')));
    label->setAccessibleName(label->text());
    label->setProperty(kSeverityProperty, static_cast<int>(worst));
    colourLabel(label, severityColour(label->parentWidget()->palette(), worst));
    label->setVisible(!lines.isEmpty());
}

QLabel *messageLabel(QWidget *parent, const QString &objectName)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->hide();
    return label;
}

/// The first reference token of a JSON Pointer, unescaped; empty when there is none.
QString firstToken(std::string_view pointer)
{
    if (pointer.empty() || pointer.front() != '/')
        return {};
    pointer.remove_prefix(1);
    std::string token(pointer.substr(0, pointer.find('/')));
    std::string out;
    for (std::size_t index = 0; index < token.size(); ++index) {
        if (token[index] == '~' && index + 1 < token.size()) {
            out += token[index + 1] == '1' ? '/' : '~';
            ++index;
        } else {
            out += token[index];
        }
    }
    return QString::fromStdString(out);
}

/// A diagnostic's message as the form shows it: the form is the resource's own, so the
/// "type#name: " the message starts with for the Problems panel would only repeat it.
QString formMessage(const Diagnostic &diagnostic, const QString &label)
{
    const QString message = QString::fromStdString(diagnostic.message);
    const QString prefix = label + QLatin1String(": ");
    return !label.isEmpty() && message.startsWith(prefix) ? message.mid(prefix.size()) : message;
}

Severity worstOf(const std::vector<Diagnostic> &diagnostics, bool localProblem)
{
    Severity worst = localProblem ? Severity::Error : Severity::Info;
    for (const Diagnostic &diagnostic : diagnostics) {
        if (static_cast<int>(diagnostic.severity) < static_cast<int>(worst))
            worst = diagnostic.severity;
    }
    return worst;
}

/// The button that names a group of fields and folds it away.
QToolButton *groupHeader(const GroupDescription &group, QWidget *parent)
{
    auto *header = new QToolButton(parent);
    header->setObjectName(QStringLiteral("group-%1").arg(QString::fromStdString(group.title)));
    header->setText(schemaText(group.title));
    header->setCheckable(true);
    header->setChecked(true);
    header->setArrowType(Qt::DownArrow);
    header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    header->setAutoRaise(true);
    QFont bold = header->font();
    bold.setBold(true);
    header->setFont(bold);
    return header;
}

} // namespace

PropertyEditor::PropertyEditor(QWidget *parent)
    : QScrollArea(parent)
{
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    clear();
}

PropertyEditor::~PropertyEditor() = default;

void PropertyEditor::clear(const QString &hint)
{
    startContent();
    m_hint->setText(hint.isEmpty() ? tr("Select a resource to edit its properties.") : hint);
    m_hint->setAlignment(Qt::AlignCenter);
    static_cast<QVBoxLayout *>(m_content->layout())->addStretch(1);
    installContent();
}

void PropertyEditor::showEmptyManifest()
{
    clear(tr("This manifest has no resources yet.\n\n"
             "To start, double-click a type under Resource Types, or drag it onto the Resources list.\n\n"
             "To begin from a complete manifest instead, open an example with File ▸ Open…: the package "
             "installs them with its documentation, under examples/."));
}

void PropertyEditor::startContent()
{
    m_rows.clear();
    m_name = nullptr;
    m_nameMessage = nullptr;
    m_messages = nullptr;
    m_hostBar = nullptr;
    m_hostText = nullptr;
    m_hostDetail = nullptr;
    m_hostRefresh = nullptr;
    m_type.clear();
    m_label.clear();
    m_built = false;
    m_content = new QWidget;
    auto *layout = new QVBoxLayout(m_content);
    m_staleBanner = createStaleBanner(m_content);
    layout->addWidget(m_staleBanner);
    m_hint = new QLabel(m_content);
    m_hint->setObjectName(QStringLiteral("hint"));
    m_hint->setWordWrap(true);
    layout->addWidget(m_hint);
}

void PropertyEditor::installContent()
{
    // The form is complete before it is shown, so every widget is visible at once, and a form
    // replaced while the scroll area is visible needs an explicit show.
    setWidget(m_content);
    m_content->show();
}

void PropertyEditor::build(const QString &type, bool isDefaults)
{
    startContent();
    m_type = type;
    m_isDefaults = isDefaults;
    m_built = true;
    m_lineHeight = QLineEdit().sizeHint().height();
    const FormDescription &form = formDescription(type.toStdString());
    m_hint->setText(form.empty() ? tr("The type \"%1\" is unknown; edit it in the YAML view.").arg(type)
                                 : (isDefaults ? tr("Defaults of every %1 in this block").arg(schemaText(form.label))
                                               : schemaText(form.summary)));
    auto *layout = static_cast<QVBoxLayout *>(m_content->layout());

    if (!isDefaults && !form.empty())
        addHostBar(layout);
    m_messages = messageLabel(m_content, QStringLiteral("messages"));
    layout->addWidget(m_messages);
    if (!isDefaults)
        addNameRow(layout);

    for (const GroupDescription &group : form.groups)
        addGroup(layout, group);
    layout->addStretch(1);
    updateHostState();
    installContent();
}

/// The line saying what this host has of the resource, with its refresh button, and the lines of
/// detail below it.
void PropertyEditor::addHostBar(QVBoxLayout *layout)
{
    m_hostBar = new QWidget(m_content);
    m_hostBar->setObjectName(QStringLiteral("hostState"));
    auto *rows = new QVBoxLayout(m_hostBar);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->setSpacing(0);
    auto *line = new QHBoxLayout;
    line->setContentsMargins(0, 0, 0, 0);
    m_hostText = new QLabel(m_hostBar);
    m_hostText->setObjectName(QStringLiteral("hostStateText"));
    m_hostText->setTextFormat(Qt::RichText);
    m_hostText->setWordWrap(true);
    m_hostText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hostRefresh = new QToolButton(m_hostBar);
    m_hostRefresh->setObjectName(QStringLiteral("hostStateRefresh"));
    m_hostRefresh->setIcon(actionIcon(QStringLiteral("view-refresh")));
    m_hostRefresh->setAutoRaise(true);
    m_hostRefresh->setToolTip(tr("Look at this resource on this host again"));
    m_hostRefresh->setAccessibleName(tr("Refresh the state on this host"));
    connect(m_hostRefresh, &QToolButton::clicked, this, &PropertyEditor::hostStateRefreshRequested);
    line->addWidget(m_hostText, 1);
    line->addWidget(m_hostRefresh, 0, Qt::AlignTop);
    rows->addLayout(line);
    m_hostDetail = messageLabel(m_hostBar, QStringLiteral("hostStateDetail"));
    m_hostDetail->setTextFormat(Qt::PlainText);
    rows->addWidget(m_hostDetail);
    layout->addWidget(m_hostBar);
}

void PropertyEditor::setHostState(const HostStateView &view)
{
    if (view == m_hostState)
        return;
    m_hostState = view;
    updateHostState();
}

void PropertyEditor::updateHostState()
{
    for (auto &[property, row] : m_rows) {
        const auto marker = m_hostState.markers.find(property);
        const bool marked = marker != m_hostState.markers.end() && m_hostBar != nullptr;
        row.hostMarker->setToolTip(marked ? literalToolTip(marker->second) : QString());
        row.hostMarker->setAccessibleName(marked ? marker->second : QString());
        row.hostMarker->setVisible(marked);
    }
    if (m_hostBar == nullptr)
        return;
    m_hostBar->setVisible(m_hostState.kind != HostStateView::Kind::Hidden);
    const auto [glyph, colour] = hostGlyph(m_hostState, palette());
    m_hostText->setText(QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>&nbsp;%3")
                            .arg(colour.name(), glyph, m_hostState.text.toHtmlEscaped()));
    m_hostText->setAccessibleName(m_hostState.text);
    m_hostText->setToolTip(m_hostState.markers.empty()
            ? QString()
            : tr("Properties that differ on this host: %1").arg(m_hostState.markers.size()));
    m_hostDetail->setText(m_hostState.detail);
    colourLabel(m_hostDetail, palette().color(QPalette::PlaceholderText));
    m_hostDetail->setVisible(!m_hostState.detail.isEmpty());
    m_hostRefresh->setEnabled(!m_hostState.checking);
}

/// Adds a collapsible section for `group`, or nothing when all its fields are left out of the form.
void PropertyEditor::addGroup(QVBoxLayout *layout, const GroupDescription &group)
{
    QToolButton *header = groupHeader(group, m_content);
    auto *section = new QWidget(m_content);
    auto *fields = new QFormLayout(section);
    fields->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    connect(header, &QToolButton::toggled, section, [header, section](bool open) {
        section->setVisible(open);
        header->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });
    layout->addWidget(header);
    layout->addWidget(section);

    bool any = false;
    for (const FieldDescription &field : group.fields) {
        if (field.property == "name")
            continue;
        any = true;
        addFieldRow(field, header, section, fields);
    }
    if (!any) {
        delete header;
        delete section;
    }
}

/// Adds the label, editor and message labels of `field` to the section below `header`.
void PropertyEditor::addFieldRow(
    const FieldDescription &field, QToolButton *header, QWidget *section, QFormLayout *fields)
{
    const QString property = QString::fromStdString(field.property);
    auto *cell = new QWidget(section);
    auto *cellLayout = new QVBoxLayout(cell);
    cellLayout->setContentsMargins(0, 0, 0, 0);
    cellLayout->setSpacing(2);
    Row row;
    row.editor = createFieldEditor(field, property, cell);
    row.editor->setReferenceTargets(m_targets);
    if (m_fieldHook)
        m_fieldHook(row.editor);
    row.inheritedHint = messageLabel(cell, property + QStringLiteral("-inherited"));
    row.message = messageLabel(cell, property + QStringLiteral("-message"));
    row.hostMarker = hostMarker(cell, property, m_lineHeight);
    auto *editorLine = new QHBoxLayout;
    editorLine->setContentsMargins(0, 0, 0, 0);
    editorLine->addWidget(row.editor, 1);
    editorLine->addWidget(row.hostMarker, 0, Qt::AlignTop);
    cellLayout->addLayout(editorLine);
    cellLayout->addWidget(row.inheritedHint);
    cellLayout->addWidget(row.message);
    row.label = new QLabel(schemaText(field.label), section);
    row.label->setObjectName(property + QStringLiteral("-label"));
    row.label->setToolTip(schemaText(field.description));
    row.label->setBuddy(row.editor->focusTarget());
    row.section = section;
    row.header = header;
    fields->addRow(row.label, cell);
    connect(row.editor, &FieldEditor::changed, this, [this, property] { onEdited(property); });
    m_rows.emplace(property, row);
}

void PropertyEditor::addNameRow(QVBoxLayout *layout)
{
    const FieldDescription *field = formDescription(m_type.toStdString()).field("name");
    auto *row = new QWidget(m_content);
    auto *form = new QFormLayout(row);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *cell = new QWidget(row);
    auto *cellLayout = new QVBoxLayout(cell);
    cellLayout->setContentsMargins(0, 0, 0, 0);
    m_name = new QLineEdit(cell);
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setClearButtonEnabled(true);
    m_nameMessage = messageLabel(cell, QStringLiteral("name-message"));
    cellLayout->addWidget(m_name);
    cellLayout->addWidget(m_nameMessage);
    auto *label = new QLabel(field ? tr("%1 *").arg(schemaText(field->label)) : tr("Name *"), row);
    label->setObjectName(QStringLiteral("name-label"));
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    label->setBuddy(m_name);
    m_name->setAccessibleDescription(tr("Required."));
    if (field) {
        m_name->setPlaceholderText(QString::fromStdString(field->placeholder));
        m_name->setToolTip(schemaText(field->description));
        label->setToolTip(schemaText(field->description));
    }
    form->addRow(label, cell);
    layout->addWidget(row);
    connect(m_name, &QLineEdit::textEdited, this, [this](const QString &text) {
        updateNameMessage();
        emit nameEdited(text);
    });
}

void PropertyEditor::setResource(
    const QString &type, const QString &name, const Json &ownProperties, const Json &inherited, bool isDefaults)
{
    if (!m_built || type != m_type || isDefaults != m_isDefaults)
        build(type, isDefaults);
    m_inherited = inherited.is_object() ? inherited : Json::object();
    m_label = isDefaults ? QString() : type + QLatin1Char('#') + name;
    if (m_name && m_name->text() != name)
        m_name->setText(name);
    for (auto &[property, row] : m_rows) {
        const std::string key = property.toStdString();
        const Json own = ownProperties.is_object() && ownProperties.contains(key) ? ownProperties[key] : Json();
        const Json fallback = m_inherited.contains(key) ? m_inherited[key] : Json();
        row.editor->setInherited(fallback);
        row.editor->setValue(own);
        row.inheritedHint->setText(tr("From defaults: %1").arg(displayText(fallback)));
        colourLabel(row.inheritedHint, palette().color(QPalette::PlaceholderText));
        row.inheritedHint->setVisible(own.is_null() && !fallback.is_null());
        updateMessage(property);
    }
    updateNameMessage();
    updateRequired();
    updateApplicable();
}

void PropertyEditor::setStale(const QString &reason)
{
    // Read-only rather than editable: an edit could not be applied to text that does not read,
    // and what the user typed would be lost when the form next follows the document.
    m_staleBanner->setText(reason);
    m_staleBanner->setVisible(!reason.isEmpty());
    for (QWidget *child : m_content->findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
        if (child != m_staleBanner)
            child->setEnabled(reason.isEmpty());
    }
}

bool PropertyEditor::isStale() const
{
    return !m_staleBanner->text().isEmpty();
}

void PropertyEditor::setReferenceTargets(const QStringList &targets)
{
    // Every document change passes them; resetting each reference field's completions when they
    // are the same costs more than the comparison.
    if (targets == m_targets)
        return;
    m_targets = targets;
    for (auto &[property, row] : m_rows) {
        row.editor->setReferenceTargets(targets);
        updateMessage(property);
    }
}

void PropertyEditor::setDiagnostics(const Diagnostics &diagnostics, const std::string &entryPointer)
{
    for (auto &[property, row] : m_rows)
        row.diagnostics.clear();
    m_nameDiagnostics.clear();
    m_otherDiagnostics.clear();
    for (const Diagnostic &diagnostic : diagnostics) {
        const bool below = diagnostic.path.size() > entryPointer.size()
            && diagnostic.path.compare(0, entryPointer.size(), entryPointer) == 0
            && diagnostic.path[entryPointer.size()] == '/';
        const QString property
            = below ? firstToken(std::string_view(diagnostic.path).substr(entryPointer.size())) : QString();
        if (property == QLatin1String("name") && m_name)
            m_nameDiagnostics.push_back(diagnostic);
        else if (const auto it = m_rows.find(property); !property.isEmpty() && it != m_rows.end())
            it->second.diagnostics.push_back(diagnostic);
        else
            m_otherDiagnostics.push_back(diagnostic);
    }
    for (auto &[property, row] : m_rows)
        updateMessage(property);
    updateNameMessage();
    if (m_messages) {
        QStringList lines;
        for (const Diagnostic &diagnostic : m_otherDiagnostics)
            lines.append(formMessage(diagnostic, m_label));
        showMessages(m_messages, lines, worstOf(m_otherDiagnostics, false));
    }
}

void PropertyEditor::setFieldHook(std::function<void(FieldEditor *)> hook)
{
    m_fieldHook = std::move(hook);
}

bool PropertyEditor::focusProperty(const QString &property)
{
    QWidget *target = nullptr;
    if (property == QLatin1String("name") && m_name) {
        target = m_name;
    } else if (const auto it = m_rows.find(property); it != m_rows.end()) {
        it->second.header->setChecked(true);
        target = it->second.editor->focusTarget();
    }
    if (!target)
        return false;
    ensureWidgetVisible(target);
    target->setFocus(Qt::OtherFocusReason);
    return true;
}

void PropertyEditor::changeEvent(QEvent *event)
{
    QScrollArea::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateColours();
}

void PropertyEditor::onEdited(const QString &property)
{
    const auto it = m_rows.find(property);
    if (it == m_rows.end())
        return;
    Row &row = it->second;
    const Json value = row.editor->value();
    const std::string key = property.toStdString();
    row.inheritedHint->setVisible(value.is_null() && m_inherited.contains(key));
    updateMessage(property);
    if (property == QLatin1String("ensure"))
        updateRequired();
    updateApplicable();
    if (value.is_null())
        emit propertyCleared(property);
    else
        emit propertyEdited(property, value);
}

void PropertyEditor::updateMessage(const QString &property)
{
    const auto it = m_rows.find(property);
    if (it == m_rows.end())
        return;
    Row &row = it->second;
    QStringList lines;
    const QString local = row.editor->localProblem();
    if (!local.isEmpty())
        lines.append(local);
    for (const Diagnostic &diagnostic : row.diagnostics) {
        const QString text = formMessage(diagnostic, m_label);
        if (!lines.contains(text))
            lines.append(text);
    }
    showMessages(row.message, lines, worstOf(row.diagnostics, !local.isEmpty()));
}

void PropertyEditor::updateNameMessage()
{
    if (!m_name)
        return;
    QStringList lines;
    const std::string name = m_name->text().toStdString();
    if (name.empty())
        lines.append(tr("A name is required."));
    else if (const auto problem = nameCharacterProblem(name); problem && namesArePackageLike(m_type) && !isTemplated(name))
        lines.append(QString::fromStdString(*problem));
    for (const Diagnostic &diagnostic : m_nameDiagnostics) {
        const QString text = formMessage(diagnostic, m_label);
        if (!lines.contains(text))
            lines.append(text);
    }
    showMessages(
        m_nameMessage, lines, worstOf(m_nameDiagnostics, lines.size() > static_cast<int>(m_nameDiagnostics.size())));
}

QString PropertyEditor::ensureValue() const
{
    const auto it = m_rows.find(QStringLiteral("ensure"));
    if (it == m_rows.end())
        return {};
    const Json own = it->second.editor->value();
    const Json &value = !own.is_null()   ? own
        : m_inherited.contains("ensure") ? m_inherited["ensure"]
                                         : it->second.editor->field().defaultValue;
    return displayText(value);
}

void PropertyEditor::updateRequired()
{
    const std::string ensure = ensureValue().toStdString();
    for (auto &[property, row] : m_rows) {
        const FieldDescription &field = row.editor->field();
        const bool required = !m_isDefaults && isRequired(field, ensure);
        row.label->setText(required ? tr("%1 *").arg(schemaText(field.label)) : schemaText(field.label));
        QFont font = row.label->font();
        font.setBold(required);
        row.label->setFont(font);
        row.editor->focusTarget()->setAccessibleDescription(
            required ? tr("Required. %1").arg(schemaText(field.description)) : schemaText(field.description));
    }
}

void PropertyEditor::updateApplicable()
{
    const FormDescription &form = formDescription(m_type.toStdString());
    if (form.conditions.empty())
        return;
    // The effective values: the resource's own, else the block's defaults, else the schema's.
    Json values = Json::object();
    for (const auto &[property, row] : m_rows) {
        const std::string key = property.toStdString();
        Json value = row.editor->value();
        if (value.is_null() && m_inherited.contains(key))
            value = m_inherited[key];
        if (value.is_null())
            value = row.editor->field().defaultValue;
        if (!value.is_null())
            values[key] = std::move(value);
    }
    const std::set<std::string> inapplicable = inapplicableProperties(form, values);
    std::map<QWidget *, bool> sectionShown;
    for (const auto &[property, row] : m_rows) {
        // A value the resource gives stays in view, so that nothing in the manifest is hidden.
        const bool shown = !inapplicable.contains(property.toStdString()) || !row.editor->value().is_null();
        if (auto *fields = qobject_cast<QFormLayout *>(row.section->layout()))
            fields->setRowVisible(row.label, shown);
        sectionShown[row.section] = sectionShown[row.section] || shown;
    }
    for (const auto &[section, shown] : sectionShown) {
        const auto row = std::find_if(m_rows.begin(), m_rows.end(),
            [section = section](const auto &entry) { return entry.second.section == section; });
        QToolButton *header = row->second.header;
        header->setVisible(shown);
        section->setVisible(shown && header->isChecked());
    }
}

void PropertyEditor::updateColours()
{
    const auto recolour = [this](QLabel *label) {
        if (label)
            colourLabel(
                label, severityColour(palette(), static_cast<Severity>(label->property(kSeverityProperty).toInt())));
    };
    recolour(m_messages);
    recolour(m_nameMessage);
    for (auto &[property, row] : m_rows) {
        recolour(row.message);
        colourLabel(row.inheritedHint, palette().color(QPalette::PlaceholderText));
        colourLabel(row.hostMarker, differsColour(palette()));
    }
    updateHostState();
}

} // namespace ccm::designer
