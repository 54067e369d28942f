<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>ccm::designer</name>
    <message>
        <source>Cannot read the recovery copy %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The recovery copy %1 is too large.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The recovery copy %1 is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::FieldEditor</name>
    <message>
        <source>At least %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide the secret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rwx…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the permissions with check boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unset)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unset: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unset (yes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unset (no)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unset (left as it is)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add the entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the selected entry up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the selected entry down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No resource is called &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Values that read as JSON (numbers, true, false, lists, maps) are stored as such.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Row %1 has a value but no name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is given twice; the last one counts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> *</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (from defaults)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::JsonTreeEditor</name>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add &amp;Child</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add an entry inside the selected map or list (Ctrl+Insert)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add &amp;Entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add an entry after the selected one (Insert)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected entry (Delete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>String</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boolean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Null</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key%1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::MainWindow</name>
    <message>
        <source>Resource Types</source>
        <translation>Ressourcentypen</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Quit CCM Designer</source>
        <translation>CCM Designer beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About CCM Designer</source>
        <translation>Ü&amp;ber CCM Designer</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Open Manifest</source>
        <translation>Manifest öffnen</translation>
    </message>
    <message>
        <source>CCM manifests (*.yaml *.yml);;All files (*)</source>
        <translation>CCM-Manifeste (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>About CCM Designer</source>
        <translation>Über CCM Designer</translation>
    </message>
    <message>
        <source>&lt;h3&gt;CCM Designer %1&lt;/h3&gt;&lt;p&gt;Authoring and preview tool for CCM manifests.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;CCM Designer %1&lt;/h3&gt;&lt;p&gt;Werkzeug zum Erstellen von CCM-Manifesten und zur Vorschau ihrer Anwendung.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a new, empty manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a CCM manifest or bundle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the manifest under another name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go back to the saved manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>D&amp;uplicate Resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete Resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move &amp;Up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move Do&amp;wn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add Block &amp;Defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the selected block a defaults entry shared by its resources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Filter Resources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go to &amp;YAML</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go to &amp;Properties</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go to &amp;Resources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Next Problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CCM manifests (*.yaml *.yml);;Manifest bundles (*.tar.gz *.tgz);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard the changes made since %1 was saved?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has unsaved changes. Save them?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot add a resource while the YAML has syntax errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write the recovery copy: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an untitled manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recover Unsaved Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CCM Designer did not close properly. Unsaved changes to %1 from %2 were kept. Restore them?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <extracomment>Entry of the Open Recent menu; %1 is its number (the keyboard accelerator), %2 the path.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1[*] — CCM Designer</source>
        <extracomment>Window title; %1 is the manifest&apos;s file name, [*] the place of the unsaved-changes marker.</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::ManifestDocument</name>
    <message>
        <source>Cannot open bundle %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the member &quot;%1&quot; has an unsafe path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>manifest.yaml is not a regular file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>manifest.yaml is larger than %1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the bundle has no manifest.yaml</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The document has not been saved, so there is nothing to revert to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore recovered changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duplicate %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change hierarchy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change overrides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change fail_on_error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::ManifestSettingsEditor</name>
    <message>
        <source>Values the manifest&apos;s templates read with lookup(&apos;data.KEY&apos;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data overrides, keyed by the entries of the hierarchy&apos;s order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Hierarchy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Overrides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Override names tried in turn; entries may hold templates such as os:{{ lookup(&apos;facts.host.info.platformFamily&apos;) }}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move &amp;Up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move Do&amp;wn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unset)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first: use the first matching override; deep: merge every matching override in order. Unset means first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Order:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Merge:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add an entry to the order (Insert)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected entry (Delete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the selected entry up (Ctrl+Up)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the selected entry down (Ctrl+Down)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Printed before the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Printed after the run when no resource failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unset: no)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whether the run stops at the first failed resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pre message:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;ost message:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fail on error:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::ModeDialog</name>
    <message>
        <source>Permissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Execute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Owner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Others</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set user ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set group ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sticky</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::ProblemsModel</name>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Location</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Property</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::ProblemsPanel</name>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Which problems to list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::PropertyEditor</name>
    <message>
        <source>Select a resource to edit its properties.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The type &quot;%1&quot; is unknown; edit it in the YAML view.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Defaults of every %1 in this block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 *</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name *</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From defaults: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A name is required.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required. %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::RecoveryStore</name>
    <message>
        <source>Cannot create the recovery directory %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the recovery copy %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::ResourceListModel</name>
    <message numerus="yes">
        <source>%n %1 resource(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ccm::designer::ResourceListPanel</name>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter resources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shows the resources whose type#name contains the text</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ccm::designer::ResourcePalette</name>
    <message>
        <source>Install, upgrade or remove a system package</source>
        <translation>Ein Systempaket installieren, aktualisieren oder entfernen</translation>
    </message>
    <message>
        <source>Keep a system service running or stopped, enabled or disabled</source>
        <translation>Einen Systemdienst gestartet oder gestoppt, aktiviert oder deaktiviert halten</translation>
    </message>
    <message>
        <source>Manage a file or directory: its contents, owner and mode</source>
        <translation>Eine Datei oder ein Verzeichnis verwalten: Inhalt, Eigentümer und Zugriffsrechte</translation>
    </message>
    <message>
        <source>Run a command, optionally guarded by conditions</source>
        <translation>Einen Befehl ausführen, optional abhängig von Bedingungen</translation>
    </message>
    <message>
        <source>Download an archive over HTTP and extract it</source>
        <translation>Ein Archiv per HTTP herunterladen und entpacken</translation>
    </message>
    <message>
        <source>Render a directory of templates into a target directory</source>
        <translation>Ein Verzeichnis mit Vorlagen in ein Zielverzeichnis rendern</translation>
    </message>
    <message>
        <source>Apply a child manifest</source>
        <translation>Ein untergeordnetes Manifest anwenden</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Authoring and preview tool for CCM manifests.</source>
        <translation>Werkzeug zum Erstellen von CCM-Manifesten und zur Vorschau ihrer Anwendung.</translation>
    </message>
    <message>
        <source>The CCM manifest to open.</source>
        <translation>Das zu öffnende CCM-Manifest.</translation>
    </message>
</context>
<context>
    <name>schema</name>
    <message>
        <source>General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs another manifest inline, in the same session, so manifests can be composed from reusable parts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Include and run a child manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Behaviour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dependencies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Path of the child manifest, relative to the directory of the manifest that includes it unless absolute.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ensure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Always &quot;present&quot;: the child manifest is resolved and run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Noop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the child manifest in noop mode even when this run is real. It can only make a run more cautious: a noop parent always runs its children in noop.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health checks only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run only the health checks of the child manifest&apos;s resources. Like noop, it can only be switched on, never off, for children.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow nested apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whether the child manifest may itself contain apply resources. Turn it off to limit what a manifest written by someone else can pull in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data merged over the child manifest&apos;s own resolved data for this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloads a .tar.gz, .tgz, .tar or .zip archive over HTTP(S), optionally verifies and extracts it, and optionally deletes the download afterwards.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download and extract a release archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Absolute, clean path the archive is saved to. Its extension (.tar.gz, .tgz, .tar or .zip) must match the one in url.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;present&quot; to download (and extract) the archive, &quot;absent&quot; to delete the downloaded file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>http or https address to download from. The path must end in the same archive extension as the name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SHA-256 checksum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected SHA-256 of the archive as 64 hexadecimal characters. A download that does not match is rejected, and an existing file that does not match is fetched again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extract into</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Absolute directory the archive is unpacked into; created when missing. Leave unset to only download.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete after extracting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the downloaded archive once it is extracted. Needs extract_parent and creates, so later runs can tell extraction already happened.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Creates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Absolute path of a file the extraction produces. While it exists the archive is not extracted again; with cleanup it is not downloaded again either, without cleanup a missing archive is downloaded and extracted again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Owner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User that owns the downloaded archive file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group that owns the downloaded archive file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User name for HTTP basic authentication.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password for HTTP basic authentication. Prefer a template such as {{ lookup(&apos;data.download_password&apos;) }} over a literal value.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP headers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extra request headers, header name to value, for example an Authorization token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CCM common resource definitions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building blocks shared by every resource type schema: naming, provider choice, dependencies, control expressions, health checks and service registration.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A second name for this resource. require and subscribe entries may use it in place of the name, and log lines show it next to the name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use this provider instead of the one CCM would pick automatically. Leave it empty unless you need to force a choice; a provider that is unknown or unusable on the host is an error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another resource of this manifest, written &quot;type#name&quot;; the part after # may also be that resource&apos;s alias. Example: &quot;package#nginx&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resources that must succeed before this one is applied. When one of them failed or was skipped for its own unmet requirements, this resource is skipped. Each entry is &quot;type#name&quot; and is taken literally (no templates).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subscribes to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resources to watch. When any of them changed during this run, this resource is refreshed: a service restarts, an exec runs regardless of its guards. Each entry is &quot;type#name&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Control</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decides whether the resource is managed in this run. It is managed when &quot;if&quot; is true (the default) and &quot;unless&quot; is false (the default); otherwise it is reported as skipped. Both are bare expressions, written without {{ }}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Manage only if</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expression that must be true for the resource to be managed, for example Facts.host.info.platformFamily == &quot;debian&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip when</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expression that skips the resource when it is true, for example Data.maintenance == true.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A length of time in Go notation, such as &quot;300ms&quot;, &quot;30s&quot;, &quot;2h45m&quot; or &quot;1.5h&quot;. The extra units d (day), w (week), M (30 days) and y (year) are also understood.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One check that runs after the resource is applied: either a Nagios-style command or a set of Goss rules. Any result other than OK marks the resource as failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Label used for this check in logs and reports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A Nagios-compatible plugin command line. It is split into words like a shell would, but runs without a shell. Exit code 0 means OK, 1 WARNING, 2 CRITICAL and anything else UNKNOWN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Goss rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Goss validation rules, laid out as in a goss.yaml file. Requires the goss binary on the managed host.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How to read the result: &quot;nagios&quot; or &quot;goss&quot;. When unset it is inferred from whether goss_rules is given.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longest time a single attempt may run, as a duration such as &quot;10s&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many times the check may run before its result counts; it stops at the first OK.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause between attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time to wait between two attempts, as a duration such as &quot;5s&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health checks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checks run after the resource is applied, even when applying it failed. In health-check-only runs they are the only thing that happens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Service registration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An entry announcing a network service once the resource is stable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registration cluster the entry belongs to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Service name: a letter first, then letters, digits, &quot;_&quot; or &quot;-&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Protocol clients use to talk to the service, such as http or tcp.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IPv4 address the service listens on; a template such as {{ lookup(&apos;facts.network.default_ipv4&apos;) }} is allowed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TCP or UDP port, 1 to 65535, or a template that resolves to one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Priority of this entry among entries for the same service, 1 to 255.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Annotations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free string labels published together with the entry.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Register when stable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Service registration entries to announce once the resource is stable and its health checks pass. The designer edits them; the local backend publishes them nowhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exec resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs a command, optionally only when a marker file is missing, a guard command allows it, or a subscribed resource changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run a command with guards and refresh triggers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The command to run when no separate command is given, or a short label for it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave at &quot;present&quot;, the default; whether the command runs is decided by creates, onlyif, unless, refreshonly and subscribe.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command line to run; defaults to the name. The posix provider splits it into words and runs it without a shell; choose the shell provider for pipes or redirections.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Absolute directory the command (and its guards) run in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extra environment variables, one &quot;KEY=value&quot; entry each; key and value must not be empty. They are added to, not replacing, the inherited environment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colon-separated list of absolute directories used as PATH to find the executable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success exit codes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exit codes that count as success.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longest time the command may run, as a duration such as &quot;30s&quot; or &quot;5m&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Absolute path of a file the command produces. When it already exists the command is not run (unless a subscription triggers it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only if</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guard command: the exec runs only when this exits 0. It shares cwd, environment, path and timeout with the main command, and runs in noop mode too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unless</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guard command: the exec runs only when this exits non-zero. It shares cwd, environment, path and timeout with the main command, and runs in noop mode too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run only when a resource listed in subscribe changed in this run; otherwise the exec is considered stable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh only (old spelling)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deprecated spelling of refreshonly, accepted when reading older manifests. Use refreshonly instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log every line the command prints to standard output.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keeps a regular file or a directory in a given state: present with given content, a directory, or absent, always with explicit owner, group and mode.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Manage a file or directory, its content and permissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Absolute, clean path of the file or directory (starts with /, no &quot;.&quot; or &quot;..&quot; parts, no trailing slash).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;present&quot; for a regular file, &quot;directory&quot; for a directory, &quot;absent&quot; to remove the path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text the file must contain; templates are resolved just before the file is written. Leave it unset (or null) to manage only owner, group and mode, or set &quot;&quot; for an empty file. Cannot be combined with source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local file whose bytes are copied into place, relative to the manifest&apos;s directory unless absolute. Cannot be combined with content.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User name or numeric UID that owns the path. A purely numeric value is used as a UID without looking it up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group name or numeric GID that owns the path. A purely numeric value is used as a GID without looking it up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Permission bits as a quoted octal string such as &quot;0644&quot; or &quot;0755&quot;, at most &quot;0777&quot;: setuid, setgid and sticky bits cannot be set here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Force removal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With ensure absent, also remove a directory that is not empty, with everything in it. Only valid together with ensure absent, and never for /.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Installs, upgrades, pins or removes a system package with the host&apos;s package manager.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Package</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Install, pin or remove a system package</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name of the package as the package manager knows it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;present&quot; (any version), &quot;latest&quot; (upgrade on every run), &quot;absent&quot;, or an exact version string such as &quot;1.24.0-1.el9&quot; to install, upgrade or downgrade to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scaffold resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Renders a directory of templates into a target directory, optionally deleting files the templates no longer produce and post-processing the results.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scaffold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Render a template directory into a target directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Directory that receives the rendered files, as an absolute, clean path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;present&quot; renders the templates; &quot;absent&quot; removes the files the scaffold manages (other files stay).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Directory holding the templates, relative to the manifest&apos;s directory unless absolute. Only local directories can be rendered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;jet&quot; for Jet templates ([[ ]] delimiters) or &quot;go&quot; for Go text/template ({{ }} delimiters).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left delimiter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaces the engine&apos;s opening delimiter, for templates whose text contains [[ or {{.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right delimiter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaces the engine&apos;s closing delimiter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data given to the templates instead of the manifest&apos;s resolved data (facts stay available). String values may use templates.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip empty files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not write files whose rendered output is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Purge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete files in the target directory that the templates do not produce.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Post-processing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Commands run on each rendered file, one single-entry map per rule: a glob matched against the file&apos;s base name, and the command to run. {} in the command stands for the file&apos;s full path; without it the path is appended.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Post-processing rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A single entry mapping a file-name glob to a command, such as &quot;*.go&quot;: &quot;go fmt {}&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Service resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keeps a system service running or stopped and, independently, enabled or disabled at boot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run, stop, enable or disable a system service</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name of the service unit, such as &quot;nginx&quot; or &quot;nginx.service&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;running&quot; to start the service when it is stopped, &quot;stopped&quot; to stop it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start at boot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>true enables the service at boot, false disables it; leave unset to keep the boot configuration as it is.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
