<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>ccm::designer::MainWindow</name>
    <message>
        <source>Resource Types</source>
        <translation>Ressourcentypen</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>%1 konnte nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>%1 konnte nicht gelesen werden: %2</translation>
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
        <source>Open a CCM manifest</source>
        <translation>Ein CCM-Manifest öffnen</translation>
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
        <source>CCM Designer</source>
        <translation>CCM Designer</translation>
    </message>
    <message>
        <source>%1 — CCM Designer</source>
        <extracomment>Window title while a manifest is open; %1 is the manifest&apos;s file name.</extracomment>
        <translation>%1 — CCM Designer</translation>
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
</TS>
