<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>DataResolution</name>
    <message>
        <source>data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>override %1 (entry %2)</source>
        <translation>Überschreibung %1 (Eintrag %2)</translation>
    </message>
    <message>
        <source>external</source>
        <translation>extern</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
</context>
<context>
    <name>FunctionCatalog</name>
    <message>
        <source>value at a dotted path of facts, data or environ</source>
        <translation>Wert an einem Punkt-Pfad in facts, data oder environ</translation>
    </message>
    <message>
        <source>length of a string, list or map</source>
        <translation>Länge eines Strings, einer Liste oder Map</translation>
    </message>
    <message>
        <source>text in lower case</source>
        <translation>Text in Kleinbuchstaben</translation>
    </message>
    <message>
        <source>text in upper case</source>
        <translation>Text in Großbuchstaben</translation>
    </message>
    <message>
        <source>text without leading and trailing blanks (or chars)</source>
        <translation>Text ohne führende und folgende Leerzeichen (oder chars)</translation>
    </message>
    <message>
        <source>list of the parts of text</source>
        <translation>Liste der Teile des Texts</translation>
    </message>
    <message>
        <source>list items joined into one string</source>
        <translation>Listeneinträge zu einem String verbunden</translation>
    </message>
    <message>
        <source>value as a string</source>
        <translation>Wert als String</translation>
    </message>
    <message>
        <source>value as an integer</source>
        <translation>Wert als ganze Zahl</translation>
    </message>
    <message>
        <source>value as a number</source>
        <translation>Wert als Zahl</translation>
    </message>
    <message>
        <source>sorted keys of a map</source>
        <translation>sortierte Schlüssel einer Map</translation>
    </message>
    <message>
        <source>values of a map, in key order</source>
        <translation>Werte einer Map, nach Schlüsseln geordnet</translation>
    </message>
    <message>
        <source>absolute value</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <source>smallest argument (or item of one list)</source>
        <translation>kleinstes Argument (oder Element einer Liste)</translation>
    </message>
    <message>
        <source>largest argument (or item of one list)</source>
        <translation>größtes Argument (oder Element einer Liste)</translation>
    </message>
    <message>
        <source>value as compact JSON text</source>
        <translation>Wert als kompakter JSON-Text</translation>
    </message>
    <message>
        <source>value parsed from JSON text</source>
        <translation>Wert aus JSON-Text gelesen</translation>
    </message>
    <message>
        <source>true for an IPv4 or IPv6 address</source>
        <translation>wahr für eine IPv4- oder IPv6-Adresse</translation>
    </message>
    <message>
        <source>true for an IPv4 address</source>
        <translation>wahr für eine IPv4-Adresse</translation>
    </message>
    <message>
        <source>true for an IPv6 address</source>
        <translation>wahr für eine IPv6-Adresse</translation>
    </message>
    <message>
        <source>true for a whole number</source>
        <translation>wahr für eine ganze Zahl</translation>
    </message>
    <message>
        <source>true for a number</source>
        <translation>wahr für eine Zahl</translation>
    </message>
    <message>
        <source>true for a duration such as 30s or 1h30m</source>
        <translation>wahr für eine Dauer wie 30s oder 1h30m</translation>
    </message>
    <message>
        <source>true when value matches the regular expression re</source>
        <translation>wahr, wenn value zum regulären Ausdruck re passt</translation>
    </message>
    <message>
        <source>true when value has no shell metacharacters</source>
        <translation>wahr, wenn value keine Shell-Metazeichen enthält</translation>
    </message>
    <message>
        <source>true for a valid host name</source>
        <translation>wahr für einen gültigen Hostnamen</translation>
    </message>
    <message>
        <source>true for a fully qualified domain name</source>
        <translation>wahr für einen voll qualifizierten Domainnamen</translation>
    </message>
    <message>
        <source>alias of isIP</source>
        <translation>Alias von isIP</translation>
    </message>
    <message>
        <source>alias of isIPv4</source>
        <translation>Alias von isIPv4</translation>
    </message>
    <message>
        <source>alias of isIPv6</source>
        <translation>Alias von isIPv6</translation>
    </message>
    <message>
        <source>alias of isInt</source>
        <translation>Alias von isInt</translation>
    </message>
    <message>
        <source>alias of isFloat</source>
        <translation>Alias von isFloat</translation>
    </message>
    <message>
        <source>alias of isDuration</source>
        <translation>Alias von isDuration</translation>
    </message>
    <message>
        <source>alias of isRegex</source>
        <translation>Alias von isRegex</translation>
    </message>
    <message>
        <source>alias of isShellSafe</source>
        <translation>Alias von isShellSafe</translation>
    </message>
    <message>
        <source>alias of isHostname</source>
        <translation>Alias von isHostname</translation>
    </message>
    <message>
        <source>alias of isFQDN</source>
        <translation>Alias von isFQDN</translation>
    </message>
    <message>
        <source>contents of a file, relative to the manifest</source>
        <translation>Inhalt einer Datei, relativ zum Manifest</translation>
    </message>
    <message>
        <source>alias of readFile</source>
        <translation>Alias von readFile</translation>
    </message>
    <message>
        <source>a .templ or .jet file rendered, or text resolved</source>
        <translation>eine gerenderte .templ- oder .jet-Datei oder aufgelöster Text</translation>
    </message>
    <message>
        <source>Jet template rendered ([[ ]] unless given)</source>
        <translation>gerendertes Jet-Template ([[ ]], wenn nicht angegeben)</translation>
    </message>
    <message>
        <source>value of a key in a NATS key-value bucket</source>
        <translation>Wert eines Schlüssels in einem NATS-Key-Value-Bucket</translation>
    </message>
    <message>
        <source>registered services (always empty here)</source>
        <translation>registrierte Dienste (hier immer leer)</translation>
    </message>
</context>
<context>
    <name>ccm::designer</name>
    <message>
        <source>Cannot read the recovery copy %1: %2</source>
        <translation>Die Wiederherstellungskopie %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>The recovery copy %1 is too large.</source>
        <translation>Die Wiederherstellungskopie %1 ist zu groß.</translation>
    </message>
    <message>
        <source>The recovery copy %1 is damaged.</source>
        <translation>Die Wiederherstellungskopie %1 ist beschädigt.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::BackendClient</name>
    <message>
        <source>connection refused; the backend is not running</source>
        <translation>Verbindung abgelehnt; das Backend läuft nicht</translation>
    </message>
    <message>
        <source>the socket is not there</source>
        <translation>der Socket ist nicht vorhanden</translation>
    </message>
    <message>
        <source>permission denied; join the group ccm-designer, then log in again</source>
        <translation>Zugriff verweigert; treten Sie der Gruppe ccm-designer bei und melden Sie sich dann erneut an</translation>
    </message>
    <message>
        <source>your role on this backend is &apos;%1&apos;: join the group ccm-designer to preview and ccm-apply to apply, then log in again</source>
        <translation>Ihre Rolle bei diesem Backend ist „%1“: Treten Sie für die Vorschau der Gruppe ccm-designer bei, zum Anwenden der Gruppe ccm-apply, und melden Sie sich dann erneut an</translation>
    </message>
    <message>
        <source>the backend at %1 did not answer backend.hello within %2 seconds</source>
        <translation>das Backend unter %1 hat nicht innerhalb von %2 Sekunden auf backend.hello geantwortet</translation>
    </message>
    <message>
        <source>the connection to the backend was closed</source>
        <translation>die Verbindung zum Backend wurde geschlossen</translation>
    </message>
    <message>
        <source>cannot connect to the backend at %1: %2</source>
        <translation>keine Verbindung zum Backend unter %1 möglich: %2</translation>
    </message>
    <message>
        <source>the backend was started but does not accept connections on %1; its output: %2</source>
        <translation>das Backend wurde gestartet, nimmt aber keine Verbindungen unter %1 an; seine Ausgabe: %2</translation>
    </message>
    <message>
        <source>the backend refused backend.hello: %1</source>
        <translation>das Backend hat backend.hello abgelehnt: %1</translation>
    </message>
    <message>
        <source>an unknown version</source>
        <translation>unbekannter Version</translation>
    </message>
    <message>
        <source>the backend speaks protocol %1; this designer needs %2. Install the ccm-backend that belongs to this designer.</source>
        <translation>das Backend verwendet Protokoll %1; dieser Designer benötigt %2. Installieren Sie das ccm-backend, das zu diesem Designer gehört.</translation>
    </message>
    <message>
        <source>the backend at %1 closed the connection before answering backend.hello</source>
        <translation>das Backend unter %1 hat die Verbindung geschlossen, bevor es auf backend.hello geantwortet hat</translation>
    </message>
    <message>
        <source>the connection closed</source>
        <translation>die Verbindung wurde geschlossen</translation>
    </message>
    <message>
        <source>the backend stopped during the run (%1)</source>
        <translation>das Backend wurde während des Laufs beendet (%1)</translation>
    </message>
    <message>
        <source>the connection to the backend at %1 was lost (%2); reconnecting</source>
        <translation>die Verbindung zum Backend unter %1 ist abgebrochen (%2); neue Verbindung wird aufgebaut</translation>
    </message>
    <message>
        <source>the backend sent a line longer than %1 bytes; it was skipped</source>
        <translation>das Backend hat eine Zeile gesendet, die länger als %1 Byte ist; sie wurde übersprungen</translation>
    </message>
    <message>
        <source>the backend sent JSON nested deeper than %1 levels; the line was skipped</source>
        <translation>das Backend hat JSON gesendet, das tiefer als %1 Ebenen verschachtelt ist; die Zeile wurde übersprungen</translation>
    </message>
    <message>
        <source>the backend sent a line that is not JSON (%1); it was skipped</source>
        <translation>das Backend hat eine Zeile gesendet, die kein JSON ist (%1); sie wurde übersprungen</translation>
    </message>
    <message>
        <source>the backend sent a line that is not a JSON object; it was skipped</source>
        <translation>das Backend hat eine Zeile gesendet, die kein JSON-Objekt ist; sie wurde übersprungen</translation>
    </message>
    <message>
        <source>the backend sent a message without an id or a method; it was skipped</source>
        <translation>das Backend hat eine Nachricht ohne id und ohne method gesendet; sie wurde übersprungen</translation>
    </message>
    <message>
        <source>the backend gave an error without a message (code %1)</source>
        <translation>das Backend hat einen Fehler ohne Meldung zurückgegeben (Code %1)</translation>
    </message>
    <message>
        <source>the backend sent an answer with neither result nor error; it was skipped</source>
        <translation>das Backend hat eine Antwort gesendet, die weder result noch error enthält; sie wurde übersprungen</translation>
    </message>
    <message>
        <source>the backend reported: %1</source>
        <translation>das Backend meldete: %1</translation>
    </message>
    <message>
        <source>a run is already going on this connection; wait for it to end or cancel it</source>
        <translation>auf dieser Verbindung ist bereits ein Lauf im Gange; warten Sie, bis er endet, oder brechen Sie ihn ab</translation>
    </message>
    <message>
        <source>not connected to the backend</source>
        <translation>nicht mit dem Backend verbunden</translation>
    </message>
    <message>
        <source>the backend&apos;s answer to apply.start is not an object</source>
        <translation>die Antwort des Backends auf apply.start ist kein Objekt</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>another apply is running on this backend; try again when it has ended</source>
        <translation>auf diesem Backend wird gerade ein anderes Manifest angewendet; versuchen Sie es erneut, wenn das beendet ist</translation>
    </message>
    <message>
        <source>%1 (from CCM_BACKEND)</source>
        <translation>%1 (aus CCM_BACKEND)</translation>
    </message>
    <message>
        <source>%1 and the directories of PATH</source>
        <translation>%1 und den Verzeichnissen aus PATH</translation>
    </message>
    <message>
        <source>the backend program ccm-backend was not found (looked in %1); install it or set CCM_BACKEND to its path</source>
        <translation>das Backend-Programm ccm-backend wurde nicht gefunden (gesucht in %1); installieren Sie es oder setzen Sie CCM_BACKEND auf seinen Pfad</translation>
    </message>
    <message>
        <source>could not start the backend %1: %2</source>
        <translation>das Backend %1 konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>the backend process was killed or crashed</source>
        <translation>der Backend-Prozess wurde zwangsweise beendet oder ist abgestürzt</translation>
    </message>
    <message>
        <source>the backend process exited with status %1</source>
        <translation>der Backend-Prozess wurde mit Status %1 beendet</translation>
    </message>
    <message>
        <source>%1 while starting: %2</source>
        <translation>%1 (beim Start): %2</translation>
    </message>
    <message>
        <source>(no output)</source>
        <translation>(keine Ausgabe)</translation>
    </message>
    <message>
        <source>the connection to the backend was lost before it answered</source>
        <translation>die Verbindung zum Backend brach ab, bevor es geantwortet hat</translation>
    </message>
</context>
<context>
    <name>ccm::designer::DataProvenancePanel</name>
    <message>
        <source>Click to go to line %1 of the manifest</source>
        <translation>Klicken, um zu Zeile %1 des Manifests zu gehen</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>yes, no override</source>
        <translation>ja, keine Überschreibung</translation>
    </message>
    <message>
        <source>yes, applied</source>
        <translation>ja, angewendet</translation>
    </message>
    <message>
        <source>yes, not applied</source>
        <translation>ja, nicht angewendet</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>This host</source>
        <translation>Dieser Host</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <source>What If</source>
        <translation>Was-wäre-wenn</translation>
    </message>
    <message>
        <source>From (What If)</source>
        <translation>Herkunft (Was-wäre-wenn)</translation>
    </message>
    <message>
        <source>Hierarchy entry</source>
        <translation>Hierarchie-Eintrag</translation>
    </message>
    <message>
        <source>Matched</source>
        <translation>Passt</translation>
    </message>
    <message>
        <source>Matched (What If)</source>
        <translation>Passt (Was-wäre-wenn)</translation>
    </message>
    <message>
        <source>Suggested override</source>
        <translation>Vorgeschlagene Überschreibung</translation>
    </message>
    <message>
        <source>From entry</source>
        <translation>Aus Eintrag</translation>
    </message>
    <message>
        <source>Resolved data appears here once the backend is connected.</source>
        <translation>Die aufgelösten Daten erscheinen hier, sobald das Backend verbunden ist.</translation>
    </message>
    <message>
        <source>Resolving the data…</source>
        <translation>Daten werden aufgelöst…</translation>
    </message>
    <message>
        <source>The data as resolved for this host and for the What If facts.</source>
        <translation>Die Daten, wie sie für diesen Host und für die Was-wäre-wenn-Fakten aufgelöst werden.</translation>
    </message>
    <message>
        <source>The data as resolved for this host.</source>
        <translation>Die Daten, wie sie für diesen Host aufgelöst werden.</translation>
    </message>
    <message>
        <source>What If: %1</source>
        <translation>Was-wäre-wenn: %1</translation>
    </message>
    <message>
        <source>Add override</source>
        <translation>Überschreibung hinzufügen</translation>
    </message>
    <message>
        <source>Add an empty override named %1 to the manifest</source>
        <translation>Eine leere Überschreibung namens %1 zum Manifest hinzufügen</translation>
    </message>
</context>
<context>
    <name>ccm::designer::DiffView</name>
    <message>
        <source>Old content</source>
        <translation>Alter Inhalt</translation>
    </message>
    <message>
        <source>New content</source>
        <translation>Neuer Inhalt</translation>
    </message>
    <message>
        <source>Unified diff</source>
        <translation>Unterschiede im einheitlichen Format</translation>
    </message>
    <message>
        <source>Unified</source>
        <translation>Einheitlich</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>Nebeneinander</translation>
    </message>
    <message>
        <source>(unset)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <source>Content not shown (binary, too large, or not readable by you)</source>
        <translation>Inhalt nicht angezeigt (binär, zu groß oder für Sie nicht lesbar)</translation>
    </message>
    <message>
        <source>No content change</source>
        <translation>Keine Änderung am Inhalt</translation>
    </message>
    <message>
        <source>\ No newline at end of file</source>
        <translation>\ Kein Zeilenumbruch am Dateiende</translation>
    </message>
    <message>
        <source>  (no newline at end of file)</source>
        <translation>  (kein Zeilenumbruch am Dateiende)</translation>
    </message>
</context>
<context>
    <name>ccm::designer::ExportBundleDialog</name>
    <message>
        <source>Export Bundle</source>
        <translation>Bundle exportieren</translation>
    </message>
    <message>
        <source>Files that go into the bundle:</source>
        <translation>Dateien, die in das Bundle kommen:</translation>
    </message>
    <message>
        <source>Warnings:</source>
        <translation>Warnungen:</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Exportieren…</translation>
    </message>
    <message>
        <source>Collecting the files the manifest reaches…</source>
        <translation>Die Dateien, die das Manifest erreicht, werden gesammelt…</translation>
    </message>
    <message>
        <source>No warnings.</source>
        <translation>Keine Warnungen.</translation>
    </message>
    <message>
        <source>Warnings and errors:</source>
        <translation>Warnungen und Fehler:</translation>
    </message>
    <message>
        <source>1 file will go into the bundle.</source>
        <translation>1 Datei kommt in das Bundle.</translation>
    </message>
    <message>
        <source>%1 files will go into the bundle.</source>
        <translation>%1 Dateien kommen in das Bundle.</translation>
    </message>
    <message>
        <source>The manifest cannot be bundled until the errors above are fixed.</source>
        <translation>Das Manifest kann erst gebündelt werden, wenn die Fehler oben behoben sind.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::ExpressionCompleter</name>
    <message>
        <source>%1: error: %2</source>
        <translation>%1: Fehler: %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>This host</source>
        <translation>Dieser Host</translation>
    </message>
    <message>
        <source>What If</source>
        <translation>Was-wäre-wenn</translation>
    </message>
</context>
<context>
    <name>ccm::designer::FieldEditor</name>
    <message>
        <source>At least %1.</source>
        <translation>Mindestens %1.</translation>
    </message>
    <message>
        <source>At most %1.</source>
        <translation>Höchstens %1.</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
    <message>
        <source>Show or hide the secret</source>
        <translation>Geheimen Wert anzeigen oder verbergen</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>Datei auswählen</translation>
    </message>
    <message>
        <source>rwx…</source>
        <translation>rwx…</translation>
    </message>
    <message>
        <source>Choose the permissions with check boxes</source>
        <translation>Zugriffsrechte mit Kontrollkästchen auswählen</translation>
    </message>
    <message>
        <source>(unset)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
    <message>
        <source>(unset: %1)</source>
        <translation>(nicht gesetzt: %1)</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Ja</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Nein</translation>
    </message>
    <message>
        <source>Unset (yes)</source>
        <translation>Nicht gesetzt (ja)</translation>
    </message>
    <message>
        <source>Unset (no)</source>
        <translation>Nicht gesetzt (nein)</translation>
    </message>
    <message>
        <source>Unset (left as it is)</source>
        <translation>Nicht gesetzt (bleibt unverändert)</translation>
    </message>
    <message>
        <source>Unset</source>
        <translation>Nicht gesetzt</translation>
    </message>
    <message>
        <source>New entry</source>
        <translation>Neuer Eintrag</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add the entry</source>
        <translation>Eintrag hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove the selected entry</source>
        <translation>Ausgewählten Eintrag entfernen</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>Nach oben</translation>
    </message>
    <message>
        <source>Move the selected entry up</source>
        <translation>Ausgewählten Eintrag nach oben verschieben</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>Nach unten</translation>
    </message>
    <message>
        <source>Move the selected entry down</source>
        <translation>Ausgewählten Eintrag nach unten verschieben</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number.</source>
        <translation>„%1“ ist keine ganze Zahl.</translation>
    </message>
    <message>
        <source>No resource is called &quot;%1&quot;.</source>
        <translation>Es gibt keine Ressource namens „%1“.</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>Muster</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Values that read as JSON (numbers, true, false, lists, maps) are stored as such.</source>
        <translation>Werte, die sich als JSON lesen lassen (Zahlen, true, false, Listen, Maps), werden als solche gespeichert.</translation>
    </message>
    <message>
        <source>Add a row</source>
        <translation>Zeile hinzufügen</translation>
    </message>
    <message>
        <source>Remove the selected row</source>
        <translation>Ausgewählte Zeile entfernen</translation>
    </message>
    <message>
        <source>Row %1 has a value but no name.</source>
        <translation>Zeile %1 hat einen Wert, aber keinen Namen.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is given twice; the last one counts.</source>
        <translation>„%1“ ist doppelt angegeben; die letzte Angabe gilt.</translation>
    </message>
    <message>
        <source> *</source>
        <translation> *</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation>%1 hinzufügen</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
    <message>
        <source>entry</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Remove %1 %2</source>
        <translation>%1 %2 entfernen</translation>
    </message>
    <message>
        <source>%1 (from defaults)</source>
        <translation>%1 (aus den Standardwerten)</translation>
    </message>
</context>
<context>
    <name>ccm::designer::FilesController</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Move Content to &amp;Template File…</source>
        <translation>Inhalt in &amp;Vorlagendatei verschieben…</translation>
    </message>
    <message>
        <source>Open &amp;Source File</source>
        <translation>&amp;Quelldatei öffnen</translation>
    </message>
    <message>
        <source>Put the selected file resource&apos;s content into a template file beside the manifest and render it from there</source>
        <translation>Den Inhalt der ausgewählten Dateiressource in eine Vorlagendatei neben dem Manifest schreiben und von dort rendern</translation>
    </message>
    <message>
        <source>Open the file the selected file resource copies</source>
        <translation>Die Datei öffnen, die die ausgewählte Dateiressource kopiert</translation>
    </message>
    <message>
        <source>Open File</source>
        <translation>Datei öffnen</translation>
    </message>
    <message>
        <source>Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>%1 has unsaved changes. Save them?</source>
        <translation>%1 enthält ungespeicherte Änderungen. Möchten Sie sie speichern?</translation>
    </message>
    <message>
        <source>Save File</source>
        <translation>Datei speichern</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>These files have unsaved changes: %1. Save them?</source>
        <translation>Diese Dateien enthalten ungespeicherte Änderungen: %1. Möchten Sie sie speichern?</translation>
    </message>
    <message>
        <source>Only the content of a file resource can be moved to a template file, and this one has none.</source>
        <translation>Nur der Inhalt einer Dateiressource kann in eine Vorlagendatei verschoben werden, und diese hat keinen.</translation>
    </message>
    <message>
        <source>Save the manifest first: the template file goes into the manifest&apos;s directory.</source>
        <translation>Speichern Sie zuerst das Manifest: Die Vorlagendatei kommt in das Verzeichnis des Manifests.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a file name inside the manifest&apos;s directory; use a name such as templates/motd.templ.</source>
        <translation>„%1“ ist kein Dateiname innerhalb des Manifest-Verzeichnisses; verwenden Sie einen Namen wie templates/motd.templ.</translation>
    </message>
    <message>
        <source>%1 exists already; choose another name.</source>
        <translation>%1 existiert bereits; wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <source>Move Content to %1</source>
        <translation>Inhalt nach %1 verschieben</translation>
    </message>
    <message>
        <source>Moved the content to %1</source>
        <translation>Der Inhalt wurde nach %1 verschoben</translation>
    </message>
    <message>
        <source>The selected resource has no source file.</source>
        <translation>Die ausgewählte Ressource hat keine Quelldatei.</translation>
    </message>
    <message>
        <source>The source %1 is not a file beside the manifest.</source>
        <translation>Die Quelle %1 ist keine Datei neben dem Manifest.</translation>
    </message>
    <message>
        <source>Move Content to Template File</source>
        <translation>Inhalt in Vorlagendatei verschieben</translation>
    </message>
    <message>
        <source>Template file, relative to the manifest&apos;s directory:</source>
        <translation>Vorlagendatei, relativ zum Verzeichnis des Manifests:</translation>
    </message>
    <message>
        <source>Open Source File</source>
        <translation>Quelldatei öffnen</translation>
    </message>
    <message>
        <source>Could not write the recovery copy: %1</source>
        <translation>Die Wiederherstellungskopie konnte nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>Recover Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen wiederherstellen</translation>
    </message>
    <message>
        <source>CCM Designer did not close properly. Unsaved changes to %1 (used by %2) from %3 were kept. Restore them?</source>
        <translation>CCM Designer wurde nicht ordnungsgemäß beendet. Ungespeicherte Änderungen an %1 (verwendet von %2) vom %3 wurden aufbewahrt. Möchten Sie sie wiederherstellen?</translation>
    </message>
</context>
<context>
    <name>ccm::designer::FilesDock</name>
    <message>
        <source>The files beside the manifest (templates, data) appear here once it is saved.</source>
        <translation>Die Dateien neben dem Manifest (Vorlagen, Daten) erscheinen hier, sobald es gespeichert ist.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::FleetController</name>
    <message>
        <source>&amp;Export Bundle…</source>
        <translation>Bundle &amp;exportieren…</translation>
    </message>
    <message>
        <source>Write the manifest and the files it reaches as a bundle</source>
        <translation>Das Manifest und die Dateien, die es erreicht, als Bundle schreiben</translation>
    </message>
    <message>
        <source>&amp;Publish to Fleet…</source>
        <translation>In der Flotte &amp;veröffentlichen…</translation>
    </message>
    <message>
        <source>Put the manifest as a bundle into a NATS object store for the agents</source>
        <translation>Das Manifest als Bundle für die Agenten in einen NATS-Object-Store legen</translation>
    </message>
    <message>
        <source>Open &amp;Location…</source>
        <translation>&amp;Adresse öffnen…</translation>
    </message>
    <message>
        <source>Open the manifest of a bundle from a URL or a .tar.gz file</source>
        <translation>Das Manifest eines Bundles von einer URL oder aus einer .tar.gz-Datei öffnen</translation>
    </message>
    <message>
        <source>Export Bundle</source>
        <translation>Bundle exportieren</translation>
    </message>
    <message>
        <source>Manifest bundles (*.tar.gz *.tgz)</source>
        <translation>Manifest-Bundles (*.tar.gz *.tgz)</translation>
    </message>
    <message>
        <source>Your own backend cannot be reached: %1</source>
        <translation>Ihr eigenes Backend ist nicht erreichbar: %1</translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation>%1 wird geschrieben…</translation>
    </message>
    <message>
        <source>The bundle was written to %1.</source>
        <translation>Das Bundle wurde nach %1 geschrieben.</translation>
    </message>
    <message>
        <source>Cannot create a temporary directory for the bundle: %1</source>
        <translation>Für das Bundle kann kein temporäres Verzeichnis angelegt werden: %1</translation>
    </message>
    <message>
        <source>Exporting the bundle…</source>
        <translation>Das Bundle wird exportiert…</translation>
    </message>
    <message>
        <source>Connecting to the NATS server…</source>
        <translation>Verbindung zum NATS-Server wird aufgebaut…</translation>
    </message>
    <message>
        <source>Published %1</source>
        <translation>%1 veröffentlicht</translation>
    </message>
    <message>
        <source>Open Location</source>
        <translation>Adresse öffnen</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet…</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>%1 came from %2, which cannot be written here. Save it as a bundle on this computer, or publish it?</source>
        <translation>%1 stammt von %2, wohin von hier aus nicht geschrieben werden kann. Als Bundle auf diesem Computer speichern oder veröffentlichen?</translation>
    </message>
    <message>
        <source>Save as &amp;Local Bundle…</source>
        <translation>Als &amp;lokales Bundle speichern…</translation>
    </message>
    <message>
        <source>&amp;Publish…</source>
        <translation>&amp;Veröffentlichen…</translation>
    </message>
    <message>
        <source>Save as Local Bundle</source>
        <translation>Als lokales Bundle speichern</translation>
    </message>
    <message>
        <source>Cannot write the bundle %1: %2</source>
        <translation>Das Bundle %1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Saved to the bundle %1</source>
        <translation>Im Bundle %1 gespeichert</translation>
    </message>
</context>
<context>
    <name>ccm::designer::FleetDock</name>
    <message>
        <source>Fleet</source>
        <translation>Flotte</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Vorschau</translation>
    </message>
    <message>
        <source>Preview on &amp;Fleet</source>
        <translation>Vorschau in der &amp;Flotte</translation>
    </message>
    <message>
        <source>Run the manifest in noop mode on the agents and show what it would change</source>
        <translation>Das Manifest auf den Agenten im Noop-Modus ausführen und zeigen, was es ändern würde</translation>
    </message>
    <message>
        <source>Fleet &amp;Key…</source>
        <translation>Flotten-&amp;Schlüssel…</translation>
    </message>
    <message>
        <source>Set up the key that signs fleet previews and the agents that trust it</source>
        <translation>Den Schlüssel einrichten, der Flottenvorschauen signiert, und die Agenten, die ihm vertrauen</translation>
    </message>
    <message>
        <source>NATS context:</source>
        <translation>NATS-Kontext:</translation>
    </message>
    <message>
        <source>The NATS CLI context (under %1) your backend connects with</source>
        <translation>Der NATS-CLI-Kontext (unter %1), mit dem sich Ihr Backend verbindet</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>The hosts running ccm-backend agent appear here: when each last ran, what it changed and what failed, and which have gone quiet. Press Refresh to read their status from the NATS server of the context above.</source>
        <translation>Hier erscheinen die Hosts, auf denen ccm-backend agent läuft: wann jeder zuletzt lief, was er geändert hat, was fehlschlug und welche verstummt sind. Aktualisieren liest ihren Status vom NATS-Server des Kontexts oben.</translation>
    </message>
    <message>
        <source>Preview on Fleet runs this manifest in noop mode on the agents that take previews and shows here what it would change on each host: a row per host, a column per resource, with totals. Nothing changes on the hosts. Previews are signed: set up your key with Fleet ▸ Fleet Key… first.</source>
        <translation>Vorschau in der Flotte führt dieses Manifest im Noop-Modus auf den Agenten aus, die Vorschauen annehmen, und zeigt hier, was es auf jedem Host ändern würde: eine Zeile je Host, eine Spalte je Ressource, mit Summen. Auf den Hosts ändert sich nichts. Vorschauen werden signiert: Richten Sie zuerst Ihren Schlüssel unter Flotte ▸ Flotten-Schlüssel… ein.</translation>
    </message>
    <message>
        <source>Hosts where:</source>
        <translation>Hosts, auf denen:</translation>
    </message>
    <message>
        <source>every host (or a fact expression, e.g. Facts.host.info.os == &quot;linux&quot;)</source>
        <translation>jeder Host (oder ein Fakten-Ausdruck, z. B. Facts.host.info.os == &quot;linux&quot;)</translation>
    </message>
    <message>
        <source>Only hosts whose facts make this expression true run the preview</source>
        <translation>Nur Hosts, deren Fakten diesen Ausdruck wahr machen, führen die Vorschau aus</translation>
    </message>
    <message>
        <source>Wait:</source>
        <translation>Warten:</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>How long to wait for the hosts; those that have not answered by then count as silent</source>
        <translation>Wie lange auf die Hosts gewartet wird; wer bis dahin nicht geantwortet hat, gilt als stumm</translation>
    </message>
    <message>
        <source>Preview on Fleet</source>
        <translation>Vorschau in der Flotte</translation>
    </message>
    <message>
        <source>All resources</source>
        <translation>Alle Ressourcen</translation>
    </message>
    <message>
        <source>Changes only</source>
        <translation>Nur Änderungen</translation>
    </message>
    <message>
        <source>Failures only</source>
        <translation>Nur Fehlschläge</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>A host&apos;s name shows that host alone; part of a name, every host containing it</source>
        <translation>Der Name eines Hosts zeigt nur diesen Host; ein Teil eines Namens jeden Host, der ihn enthält</translation>
    </message>
    <message>
        <source>&amp;Publish…</source>
        <translation>&amp;Veröffentlichen…</translation>
    </message>
    <message>
        <source>No host would fail: publish the manifest for the agents to apply</source>
        <translation>Kein Host würde fehlschlagen: das Manifest veröffentlichen, damit die Agenten es anwenden</translation>
    </message>
    <message>
        <source>Reading the status of the fleet…</source>
        <translation>Der Status der Flotte wird gelesen…</translation>
    </message>
    <message>
        <source>Your own backend cannot be reached: %1</source>
        <translation>Ihr eigenes Backend ist nicht erreichbar: %1</translation>
    </message>
    <message>
        <source>The status could not be read: %1</source>
        <translation>Der Status konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>No agent has reported yet. Agents write their status after each run.</source>
        <translation>Noch kein Agent hat sich gemeldet. Agenten schreiben ihren Status nach jedem Lauf.</translation>
    </message>
    <message>
        <source>Hosts: %1, stale: %2</source>
        <translation>Hosts: %1, veraltet: %2</translation>
    </message>
    <message>
        <source>There is no signing key at %1. Create one with Fleet ▸ Fleet Key… and give the agents its public key.</source>
        <translation>Unter %1 liegt kein Signierschlüssel. Erstellen Sie einen unter Flotte ▸ Flotten-Schlüssel… und geben Sie den Agenten seinen öffentlichen Schlüssel.</translation>
    </message>
    <message>
        <source>Sending the preview to the fleet…</source>
        <translation>Die Vorschau wird an die Flotte gesendet…</translation>
    </message>
    <message>
        <source>The fleet preview did not run: %1</source>
        <translation>Die Flottenvorschau lief nicht: %1</translation>
    </message>
    <message>
        <source>%1 of %2 hosts answered…</source>
        <translation>%1 von %2 Hosts haben geantwortet…</translation>
    </message>
    <message>
        <source>No host answered. Check the selector, that the agents have previews enabled and that they trust your key (Fleet ▸ Fleet Key…).</source>
        <translation>Kein Host hat geantwortet. Prüfen Sie die Auswahl, ob die Agenten Vorschauen erlauben und ob sie Ihrem Schlüssel vertrauen (Flotte ▸ Flotten-Schlüssel…).</translation>
    </message>
    <message>
        <source>%1 of %2 hosts answered, %3 silent</source>
        <translation>%1 von %2 Hosts haben geantwortet, %3 stumm</translation>
    </message>
    <message>
        <source>; there are failures: fix them before publishing</source>
        <translation>; es gibt Fehlschläge: Beheben Sie sie vor dem Veröffentlichen</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
</context>
<context>
    <name>ccm::designer::FleetKeyDialog</name>
    <message>
        <source>Fleet Key</source>
        <translation>Flotten-Schlüssel</translation>
    </message>
    <message>
        <source>Fleet previews are signed. An agent runs a preview only when it is signed with a key it trusts, so nobody else can make your hosts run manifests, even in noop mode. The private key stays on this computer, readable by you alone; the agents get the public key.</source>
        <translation>Flottenvorschauen werden signiert. Ein Agent führt eine Vorschau nur aus, wenn sie mit einem Schlüssel signiert ist, dem er vertraut; so kann niemand sonst Ihre Hosts Manifeste ausführen lassen, auch nicht im Noop-Modus. Der private Schlüssel bleibt auf diesem Computer und ist nur für Sie lesbar; die Agenten erhalten den öffentlichen Schlüssel.</translation>
    </message>
    <message>
        <source>There is no key at this place yet. Generate Key creates one.</source>
        <translation>An diesem Ort liegt noch kein Schlüssel. Schlüssel erzeugen legt einen an.</translation>
    </message>
    <message>
        <source>Private key:</source>
        <translation>Privater Schlüssel:</translation>
    </message>
    <message>
        <source>Where the private key is kept. Previews are signed with the key at this place.</source>
        <translation>Wo der private Schlüssel liegt. Vorschauen werden mit dem Schlüssel an diesem Ort signiert.</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Private Key</source>
        <translation>Privater Schlüssel</translation>
    </message>
    <message>
        <source>PEM keys (*.pem)</source>
        <translation>PEM-Schlüssel (*.pem)</translation>
    </message>
    <message>
        <source>Generate Key</source>
        <translation>Schlüssel erzeugen</translation>
    </message>
    <message>
        <source>Copy Public Key</source>
        <translation>Öffentlichen Schlüssel kopieren</translation>
    </message>
    <message>
        <source>The public key is on the clipboard.</source>
        <translation>Der öffentliche Schlüssel ist in der Zwischenablage.</translation>
    </message>
    <message>
        <source>On every agent, put the public key at %1 and add this to the agent&apos;s configuration, then restart the agent:</source>
        <translation>Legen Sie auf jedem Agenten den öffentlichen Schlüssel unter %1 ab, ergänzen Sie die Konfiguration des Agenten um Folgendes und starten Sie ihn neu:</translation>
    </message>
    <message>
        <source>Copy Configuration</source>
        <translation>Konfiguration kopieren</translation>
    </message>
    <message>
        <source>The configuration is on the clipboard.</source>
        <translation>Die Konfiguration ist in der Zwischenablage.</translation>
    </message>
    <message>
        <source>Your own backend cannot be reached: %1</source>
        <translation>Ihr eigenes Backend ist nicht erreichbar: %1</translation>
    </message>
    <message>
        <source>Cannot read the key: %1</source>
        <translation>Der Schlüssel kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Choose where the private key goes first.</source>
        <translation>Wählen Sie zuerst, wohin der private Schlüssel kommt.</translation>
    </message>
    <message>
        <source>Replace Key</source>
        <translation>Schlüssel ersetzen</translation>
    </message>
    <message>
        <source>%1 already holds a key. Agents that trust it will refuse previews signed with a new one until they get its public key. Replace it?</source>
        <translation>%1 enthält bereits einen Schlüssel. Agenten, die ihm vertrauen, lehnen mit einem neuen signierte Vorschauen ab, bis sie dessen öffentlichen Schlüssel erhalten. Ersetzen?</translation>
    </message>
    <message>
        <source>Generating the key…</source>
        <translation>Der Schlüssel wird erzeugt…</translation>
    </message>
    <message>
        <source>The key was not created: %1</source>
        <translation>Der Schlüssel wurde nicht erzeugt: %1</translation>
    </message>
    <message>
        <source>Fingerprint: %1</source>
        <translation>Fingerabdruck: %1</translation>
    </message>
    <message>
        <source>Previews are signed with this key.</source>
        <translation>Vorschauen werden mit diesem Schlüssel signiert.</translation>
    </message>
    <message>
        <source>The key pair was created. The public key is also in %1.</source>
        <translation>Das Schlüsselpaar wurde erzeugt. Der öffentliche Schlüssel liegt auch in %1.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::FleetPreviewModel</name>
    <message>
        <source>%1: would change on %2 hosts, failed on %3</source>
        <translation>%1: würde sich auf %2 Hosts ändern, schlug auf %3 fehl</translation>
    </message>
    <message>
        <source>All hosts (%1)</source>
        <translation>Alle Hosts (%1)</translation>
    </message>
    <message>
        <source>%1 answered</source>
        <translation>%1 geantwortet</translation>
    </message>
    <message>
        <source>%1 on %2: %3</source>
        <translation>%1 auf %2: %3</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>angenommen</translation>
    </message>
    <message>
        <source>running %1/%2</source>
        <translation>läuft %1/%2</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>declined</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>silent</source>
        <translation>stumm</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>Änderungen</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>Fehlschläge</translation>
    </message>
    <message>
        <source>%1 ✗</source>
        <translation>%1 ✗</translation>
    </message>
    <message>
        <source>%1 ●</source>
        <translation>%1 ●</translation>
    </message>
</context>
<context>
    <name>ccm::designer::FleetStatusModel</name>
    <message>
        <source>⚠ %1</source>
        <translation>⚠ %1</translation>
    </message>
    <message>
        <source>%1 (stale)</source>
        <translation>%1 (veraltet)</translation>
    </message>
    <message>
        <source>%1: last run ended %2 (%3)</source>
        <translation>%1: letzter Lauf endete %2 (%3)</translation>
    </message>
    <message>
        <source>Stale: no run for more than twice the agent&apos;s interval. Check that the agent runs and reaches the NATS server.</source>
        <translation>Veraltet: kein Lauf seit mehr als dem doppelten Intervall des Agenten. Prüfen Sie, ob der Agent läuft und den NATS-Server erreicht.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Last run</source>
        <translation>Letzter Lauf</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>Geändert</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>Ressourcen</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>gerade eben</translation>
    </message>
    <message>
        <source>%1 min ago</source>
        <translation>vor %1 min</translation>
    </message>
    <message>
        <source>%1 h ago</source>
        <translation>vor %1 h</translation>
    </message>
    <message>
        <source>%1 d ago</source>
        <translation>vor %1 d</translation>
    </message>
</context>
<context>
    <name>ccm::designer::Icons</name>
    <message>
        <source>%1 (%2)</source>
        <extracomment>Tooltip of a toolbar button; %1 is the action, %2 its keyboard shortcut.</extracomment>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>ccm::designer::JsonTreeEditor</name>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Add &amp;Child</source>
        <translation>&amp;Untereintrag hinzufügen</translation>
    </message>
    <message>
        <source>Add an entry inside the selected map or list (Ctrl+Insert)</source>
        <translation>Einen Eintrag in der ausgewählten Map oder Liste hinzufügen (Strg+Einfg)</translation>
    </message>
    <message>
        <source>Add &amp;Entry</source>
        <translation>&amp;Eintrag hinzufügen</translation>
    </message>
    <message>
        <source>Add an entry after the selected one (Insert)</source>
        <translation>Einen Eintrag nach dem ausgewählten hinzufügen (Einfg)</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>E&amp;ntfernen</translation>
    </message>
    <message>
        <source>Remove the selected entry (Delete)</source>
        <translation>Ausgewählten Eintrag entfernen (Entf)</translation>
    </message>
    <message>
        <source>String</source>
        <translation>Zeichenkette</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>Zahl</translation>
    </message>
    <message>
        <source>Boolean</source>
        <translation>Wahrheitswert</translation>
    </message>
    <message>
        <source>Null</source>
        <translation>Null</translation>
    </message>
    <message>
        <source>Map</source>
        <translation>Map</translation>
    </message>
    <message>
        <source>List</source>
        <translation>Liste</translation>
    </message>
    <message>
        <source>key</source>
        <translation>schluessel</translation>
    </message>
    <message>
        <source>key%1</source>
        <translation>schluessel%1</translation>
    </message>
</context>
<context>
    <name>ccm::designer::LiveData</name>
    <message>
        <source>the backend sent no value</source>
        <translation>das Backend hat keinen Wert geschickt</translation>
    </message>
    <message>
        <source>%1 (column %2)</source>
        <translation>%1 (Spalte %2)</translation>
    </message>
    <message>
        <source>This backend is too old for %1; update ccm-backend to see resolved data and live values.</source>
        <translation>Dieses Backend ist zu alt für %1; aktualisieren Sie ccm-backend, um aufgelöste Daten und Live-Werte zu sehen.</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>not connected to a backend</source>
        <translation>nicht mit einem Backend verbunden</translation>
    </message>
</context>
<context>
    <name>ccm::designer::LiveValuesController</name>
    <message>
        <source>What If: %1</source>
        <translation>Was-wäre-wenn: %1</translation>
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
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Manifest</source>
        <translation>Manifest</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>Ressourcen</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Probleme</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Hauptwerkzeugleiste</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>Start a new, empty manifest</source>
        <translation>Ein neues, leeres Manifest beginnen</translation>
    </message>
    <message>
        <source>Open a CCM manifest or bundle</source>
        <translation>Ein CCM-Manifest oder Manifest-Bundle öffnen</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <source>Save the manifest under another name</source>
        <translation>Das Manifest unter einem anderen Namen speichern</translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation>Zu&amp;rücksetzen</translation>
    </message>
    <message>
        <source>Go back to the saved manifest</source>
        <translation>Zum gespeicherten Stand des Manifests zurückkehren</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>D&amp;uplicate Resource</source>
        <translation>Ressource &amp;duplizieren</translation>
    </message>
    <message>
        <source>&amp;Delete Resource</source>
        <translation>Ressource &amp;löschen</translation>
    </message>
    <message>
        <source>Move &amp;Up</source>
        <translation>Nach &amp;oben verschieben</translation>
    </message>
    <message>
        <source>Move Do&amp;wn</source>
        <translation>Nach &amp;unten verschieben</translation>
    </message>
    <message>
        <source>Add Block &amp;Defaults</source>
        <translation>Block-&amp;Standardwerte hinzufügen</translation>
    </message>
    <message>
        <source>Give the selected block a defaults entry shared by its resources</source>
        <translation>Dem ausgewählten Block einen defaults-Eintrag hinzufügen, der für alle seine Ressourcen gilt</translation>
    </message>
    <message>
        <source>&amp;Filter Resources</source>
        <translation>Ressourcen &amp;filtern</translation>
    </message>
    <message>
        <source>Go to &amp;YAML</source>
        <translation>Zum &amp;YAML wechseln</translation>
    </message>
    <message>
        <source>Go to &amp;Properties</source>
        <translation>Zu den &amp;Eigenschaften wechseln</translation>
    </message>
    <message>
        <source>Go to &amp;Resources</source>
        <translation>Zu den &amp;Ressourcen wechseln</translation>
    </message>
    <message>
        <source>&amp;Next Problem</source>
        <translation>&amp;Nächstes Problem</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>CCM manifests (*.yaml *.yml);;Manifest bundles (*.tar.gz *.tgz);;All files (*)</source>
        <translation>CCM-Manifeste (*.yaml *.yml);;Manifest-Bundles (*.tar.gz *.tgz);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save Manifest</source>
        <translation>Manifest speichern</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>Discard the changes made since %1 was saved?</source>
        <translation>Die Änderungen seit dem letzten Speichern von %1 verwerfen?</translation>
    </message>
    <message>
        <source>The new manifest</source>
        <translation>Das neue Manifest</translation>
    </message>
    <message>
        <source>Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>%1 has unsaved changes. Save them?</source>
        <translation>%1 enthält ungespeicherte Änderungen. Möchten Sie sie speichern?</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <source>Cannot add a resource while the YAML has syntax errors</source>
        <translation>Solange das YAML Syntaxfehler enthält, kann keine Ressource hinzugefügt werden</translation>
    </message>
    <message>
        <source>Could not write the recovery copy: %1</source>
        <translation>Die Wiederherstellungskopie konnte nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>an untitled manifest</source>
        <translation>einem unbenannten Manifest</translation>
    </message>
    <message>
        <source>Recover Unsaved Changes</source>
        <translation>Ungespeicherte Änderungen wiederherstellen</translation>
    </message>
    <message>
        <source>CCM Designer did not close properly. Unsaved changes to %1 from %2 were kept. Restore them?</source>
        <translation>CCM Designer wurde nicht ordnungsgemäß beendet. Ungespeicherte Änderungen an %1 vom %2 wurden aufbewahrt. Möchten Sie sie wiederherstellen?</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <extracomment>Entry of the Open Recent menu; %1 is its number (the keyboard accelerator), %2 the path.</extracomment>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation>Liste &amp;leeren</translation>
    </message>
    <message>
        <source>%1[*] — CCM Designer</source>
        <extracomment>Window title; %1 is the manifest&apos;s file name, [*] the place of the unsaved-changes marker.</extracomment>
        <translation>%1[*] — CCM Designer</translation>
    </message>
    <message>
        <source>Preview Results</source>
        <translation>Vorschauergebnisse</translation>
    </message>
    <message>
        <source>What If</source>
        <translation>Was-wäre-wenn</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>A&amp;usführen</translation>
    </message>
    <message>
        <source>F&amp;leet</source>
        <translation>&amp;Flotte</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Save the manifest, or the file of the current tab</source>
        <translation>Das Manifest speichern oder die Datei des aktuellen Tabs</translation>
    </message>
    <message>
        <source>Save A&amp;ll</source>
        <translation>A&amp;lle speichern</translation>
    </message>
    <message>
        <source>Save the manifest and every modified file</source>
        <translation>Das Manifest und jede geänderte Datei speichern</translation>
    </message>
</context>
<context>
    <name>ccm::designer::ManifestDocument</name>
    <message>
        <source>Cannot open bundle %1: %2</source>
        <translation>Das Bundle %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>the member &quot;%1&quot; has an unsafe path</source>
        <translation>das Element „%1“ hat einen unsicheren Pfad</translation>
    </message>
    <message>
        <source>manifest.yaml is not a regular file</source>
        <translation>manifest.yaml ist keine reguläre Datei</translation>
    </message>
    <message>
        <source>manifest.yaml is larger than %1 bytes</source>
        <translation>manifest.yaml ist größer als %1 Byte</translation>
    </message>
    <message>
        <source>the bundle has no manifest.yaml</source>
        <translation>das Bundle enthält keine manifest.yaml</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>%1 kann nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>The document has not been saved, so there is nothing to revert to.</source>
        <translation>Das Dokument wurde noch nicht gespeichert, daher gibt es keinen Stand, auf den es zurückgesetzt werden könnte.</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>Restore recovered changes</source>
        <translation>Wiederhergestellte Änderungen übernehmen</translation>
    </message>
    <message>
        <source>Edit text</source>
        <translation>Text bearbeiten</translation>
    </message>
    <message>
        <source>Change %1</source>
        <translation>%1 ändern</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>%1 entfernen</translation>
    </message>
    <message>
        <source>Rename %1</source>
        <translation>%1 umbenennen</translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation>%1 hinzufügen</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>%1 löschen</translation>
    </message>
    <message>
        <source>Duplicate %1</source>
        <translation>%1 duplizieren</translation>
    </message>
    <message>
        <source>Move %1</source>
        <translation>%1 verschieben</translation>
    </message>
    <message>
        <source>Move block</source>
        <translation>Block verschieben</translation>
    </message>
    <message>
        <source>Add defaults</source>
        <translation>Standardwerte hinzufügen</translation>
    </message>
    <message>
        <source>Change data</source>
        <translation>Daten ändern</translation>
    </message>
    <message>
        <source>Change hierarchy</source>
        <translation>Hierarchie ändern</translation>
    </message>
    <message>
        <source>Change overrides</source>
        <translation>Überschreibungen ändern</translation>
    </message>
    <message>
        <source>Change messages</source>
        <translation>Meldungen ändern</translation>
    </message>
    <message>
        <source>Change fail_on_error</source>
        <translation>fail_on_error ändern</translation>
    </message>
</context>
<context>
    <name>ccm::designer::ManifestSettingsEditor</name>
    <message>
        <source>Values the manifest&apos;s templates read with lookup(&apos;data.KEY&apos;)</source>
        <translation>Werte, die die Vorlagen des Manifests mit lookup(&apos;data.KEY&apos;) lesen</translation>
    </message>
    <message>
        <source>Data overrides, keyed by the entries of the hierarchy&apos;s order</source>
        <translation>Überschreibungen der Daten, mit den Einträgen der Hierarchie-Reihenfolge als Schlüssel</translation>
    </message>
    <message>
        <source>&amp;Data</source>
        <translation>Da&amp;ten</translation>
    </message>
    <message>
        <source>&amp;Hierarchy</source>
        <translation>Hie&amp;rarchie</translation>
    </message>
    <message>
        <source>&amp;Overrides</source>
        <translation>Über&amp;schreibungen</translation>
    </message>
    <message>
        <source>&amp;Run Settings</source>
        <translation>&amp;Laufeinstellungen</translation>
    </message>
    <message>
        <source>Override names tried in turn; entries may hold templates such as os:{{ lookup(&apos;facts.host.info.platformFamily&apos;) }}</source>
        <translation>Namen der Überschreibungen, die der Reihe nach versucht werden; Einträge dürfen Vorlagen enthalten, etwa os:{{ lookup(&apos;facts.host.info.platformFamily&apos;) }}</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>H&amp;inzufügen</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>Move &amp;Up</source>
        <translation>Nach &amp;oben</translation>
    </message>
    <message>
        <source>Move Do&amp;wn</source>
        <translation>Nach &amp;unten</translation>
    </message>
    <message>
        <source>(unset)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
    <message>
        <source>first: use the first matching override; deep: merge every matching override in order. Unset means first.</source>
        <translation>first: die erste passende Überschreibung verwenden; deep: alle passenden Überschreibungen der Reihe nach zusammenführen. Nicht gesetzt bedeutet first.</translation>
    </message>
    <message>
        <source>&amp;Order:</source>
        <translation>Reihen&amp;folge:</translation>
    </message>
    <message>
        <source>&amp;Merge:</source>
        <translation>Zusa&amp;mmenführung:</translation>
    </message>
    <message>
        <source>Add an entry to the order (Insert)</source>
        <translation>Einen Eintrag zur Reihenfolge hinzufügen (Einfg)</translation>
    </message>
    <message>
        <source>Remove the selected entry (Delete)</source>
        <translation>Ausgewählten Eintrag entfernen (Entf)</translation>
    </message>
    <message>
        <source>Move the selected entry up (Ctrl+Up)</source>
        <translation>Ausgewählten Eintrag nach oben verschieben (Strg+↑)</translation>
    </message>
    <message>
        <source>Move the selected entry down (Ctrl+Down)</source>
        <translation>Ausgewählten Eintrag nach unten verschieben (Strg+↓)</translation>
    </message>
    <message>
        <source>Printed before the run</source>
        <translation>Wird vor dem Lauf ausgegeben</translation>
    </message>
    <message>
        <source>Printed after the run when no resource failed</source>
        <translation>Wird nach dem Lauf ausgegeben, wenn keine Ressource fehlgeschlagen ist</translation>
    </message>
    <message>
        <source>(unset: no)</source>
        <translation>(nicht gesetzt: nein)</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Ja</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Nein</translation>
    </message>
    <message>
        <source>Whether the run stops at the first failed resource</source>
        <translation>Ob der Lauf bei der ersten fehlgeschlagenen Ressource abbricht</translation>
    </message>
    <message>
        <source>&amp;Pre message:</source>
        <translation>Meldung &amp;vor dem Lauf:</translation>
    </message>
    <message>
        <source>P&amp;ost message:</source>
        <translation>Meldung &amp;nach dem Lauf:</translation>
    </message>
    <message>
        <source>&amp;Fail on error:</source>
        <translation>Bei &amp;Fehler abbrechen:</translation>
    </message>
    <message>
        <source>Template error: %1</source>
        <translation>Vorlagenfehler: %1</translation>
    </message>
    <message>
        <source>name</source>
        <translation>name</translation>
    </message>
</context>
<context>
    <name>ccm::designer::ModeDialog</name>
    <message>
        <source>Permissions</source>
        <translation>Zugriffsrechte</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>Write</source>
        <translation>Schreiben</translation>
    </message>
    <message>
        <source>Execute</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>Eigentümer</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Others</source>
        <translation>Andere</translation>
    </message>
    <message>
        <source>Set user ID</source>
        <translation>Set-User-ID</translation>
    </message>
    <message>
        <source>Set group ID</source>
        <translation>Set-Group-ID</translation>
    </message>
    <message>
        <source>Sticky</source>
        <translation>Sticky-Bit</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <extracomment>Accessible name of a permission check box, e.g. &quot;Owner, Write&quot;.</extracomment>
        <translation>%1, %2</translation>
    </message>
</context>
<context>
    <name>ccm::designer::OpenLocationDialog</name>
    <message>
        <source>Open Location</source>
        <translation>Adresse öffnen</translation>
    </message>
    <message>
        <source>Open the manifest of a bundle: an obj://BUCKET/NAME or http(s):// URL, or a .tar.gz file on this computer.</source>
        <translation>Das Manifest eines Bundles öffnen: eine obj://BUCKET/NAME- oder http(s)://-URL oder eine .tar.gz-Datei auf diesem Computer.</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>&amp;Location:</source>
        <translation>&amp;Adresse:</translation>
    </message>
    <message>
        <source>NATS &amp;context:</source>
        <translation>NATS-&amp;Kontext:</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <source>Open Bundle</source>
        <translation>Bundle öffnen</translation>
    </message>
    <message>
        <source>Manifest bundles (*.tar.gz *.tgz);;All files (*)</source>
        <translation>Manifest-Bundles (*.tar.gz *.tgz);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>ccm::designer::PreviewController</name>
    <message>
        <source>%1 resources: %2 would change, %3 stable, %4 would fail, %5 skipped, %6 unmet requirements, %7 would refresh</source>
        <extracomment>Preview summary; the counts of ENGINE-SPEC: total, then what would change, fail, ...</extracomment>
        <translation>%1 Ressourcen: %2 würden geändert, %3 unverändert, %4 würden fehlschlagen, %5 übersprungen, %6 unerfüllte Voraussetzungen, %7 würden aufgefrischt</translation>
    </message>
    <message>
        <source>%1 resources: %2 changed, %3 stable, %4 failed, %5 skipped, %6 unmet requirements, %7 refreshed</source>
        <translation>%1 Ressourcen: %2 geändert, %3 unverändert, %4 fehlgeschlagen, %5 übersprungen, %6 unerfüllte Voraussetzungen, %7 aufgefrischt</translation>
    </message>
    <message>
        <source>Backend: not connected</source>
        <translation>Backend: nicht verbunden</translation>
    </message>
    <message>
        <source>&amp;Preview</source>
        <translation>&amp;Vorschau</translation>
    </message>
    <message>
        <source>Show what applying the manifest would change on this machine, changing nothing</source>
        <translation>Zeigen, was das Anwenden des Manifests auf diesem Rechner ändern würde, ohne etwas zu ändern</translation>
    </message>
    <message>
        <source>&amp;Apply…</source>
        <translation>&amp;Anwenden…</translation>
    </message>
    <message>
        <source>Apply the manifest to this machine for real</source>
        <translation>Das Manifest tatsächlich auf diesen Rechner anwenden</translation>
    </message>
    <message>
        <source>&amp;Cancel Run</source>
        <translation>Lauf a&amp;bbrechen</translation>
    </message>
    <message>
        <source>Stop the running preview or apply before its next resource</source>
        <translation>Die laufende Vorschau oder das laufende Anwenden vor der nächsten Ressource anhalten</translation>
    </message>
    <message>
        <source>Export Results as &amp;JSON…</source>
        <translation>Ergebnisse als &amp;JSON exportieren…</translation>
    </message>
    <message>
        <source>Export Results as &amp;Text…</source>
        <translation>Ergebnisse als &amp;Text exportieren…</translation>
    </message>
    <message>
        <source>Backend: disconnected, reconnecting…</source>
        <translation>Backend: getrennt, neue Verbindung wird aufgebaut…</translation>
    </message>
    <message>
        <source>Backend: connecting…</source>
        <translation>Backend: Verbindung wird aufgebaut…</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>This backend lets %1 preview only: applying for real needs membership of the group ccm-apply (log in again after joining it).</source>
        <translation>Dieses Backend erlaubt %1 nur die Vorschau: Zum tatsächlichen Anwenden ist die Mitgliedschaft in der Gruppe ccm-apply nötig (melden Sie sich nach dem Beitritt erneut an).</translation>
    </message>
    <message numerus="yes">
        <source>The last preview found %n resource(s) that would change.</source>
        <translation>
            <numerusform>Die letzte Vorschau hat %n Ressource gefunden, die geändert würde.</numerusform>
            <numerusform>Die letzte Vorschau hat %n Ressourcen gefunden, die geändert würden.</numerusform>
        </translation>
    </message>
    <message>
        <source>There is no preview of the manifest as it is now, so what would change is not known.</source>
        <translation>Für den aktuellen Stand des Manifests gibt es keine Vorschau, daher ist nicht bekannt, was geändert würde.</translation>
    </message>
    <message>
        <source>your own backend</source>
        <translation>Ihr eigenes Backend</translation>
    </message>
    <message>
        <source>the system backend</source>
        <translation>das System-Backend</translation>
    </message>
    <message>
        <source>Apply the manifest to this machine through %1, as user %2?

%3</source>
        <translation>Das Manifest über %1 als Benutzer %2 auf diesen Rechner anwenden?

%3</translation>
    </message>
    <message>
        <source>untitled manifest</source>
        <translation>Unbenanntes Manifest</translation>
    </message>
    <message>
        <source>Previewing…</source>
        <translation>Vorschau läuft…</translation>
    </message>
    <message>
        <source>Applying…</source>
        <translation>Wird angewendet…</translation>
    </message>
    <message>
        <source>The run was cancelled before all resources ran.</source>
        <translation>Der Lauf wurde abgebrochen, bevor alle Ressourcen ausgeführt wurden.</translation>
    </message>
    <message>
        <source>Preview finished</source>
        <translation>Vorschau abgeschlossen</translation>
    </message>
    <message>
        <source>Apply finished</source>
        <translation>Anwenden abgeschlossen</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Export Results as JSON</source>
        <translation>Ergebnisse als JSON exportieren</translation>
    </message>
    <message>
        <source>Export Results as Text</source>
        <translation>Ergebnisse als Text exportieren</translation>
    </message>
    <message>
        <source>JSON lines (*.jsonl *.json);;All files (*)</source>
        <translation>JSON Lines (*.jsonl *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>Textdateien (*.txt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Export Results</source>
        <translation>Ergebnisse exportieren</translation>
    </message>
    <message>
        <source>Results written to %1</source>
        <translation>Ergebnisse in %1 geschrieben</translation>
    </message>
    <message>
        <source>system backend</source>
        <translation>System-Backend</translation>
    </message>
    <message>
        <source>preview and apply</source>
        <translation>Vorschau und Anwenden</translation>
    </message>
    <message>
        <source>preview only</source>
        <translation>nur Vorschau</translation>
    </message>
    <message>
        <source>no access</source>
        <translation>kein Zugriff</translation>
    </message>
    <message>
        <source>Backend: %1 · %2 · %3</source>
        <extracomment>Status bar: %1 which backend, %2 what it allows, %3 the user it acts for.</extracomment>
        <translation>Backend: %1 · %2 · %3</translation>
    </message>
    <message>
        <source>%1 %2 on %3</source>
        <translation>%1 %2 unter %3</translation>
    </message>
    <message>
        <source>Backend: %1</source>
        <translation>Backend: %1</translation>
    </message>
</context>
<context>
    <name>ccm::designer::ProblemsModel</name>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>Ort</translation>
    </message>
    <message>
        <source>Property</source>
        <translation>Eigenschaft</translation>
    </message>
</context>
<context>
    <name>ccm::designer::ProblemsPanel</name>
    <message>
        <source>All</source>
        <translation>Alle</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>Warnungen</translation>
    </message>
    <message>
        <source>Which problems to list</source>
        <translation>Welche Probleme aufgelistet werden</translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation>An&amp;zeigen:</translation>
    </message>
    <message>
        <source>1 error</source>
        <translation>1 Fehler</translation>
    </message>
    <message>
        <source>%1 errors</source>
        <translation>%1 Fehler</translation>
    </message>
    <message>
        <source>1 warning</source>
        <translation>1 Warnung</translation>
    </message>
    <message>
        <source>%1 warnings</source>
        <translation>%1 Warnungen</translation>
    </message>
    <message>
        <source>1 note</source>
        <translation>1 Hinweis</translation>
    </message>
    <message>
        <source>%1 notes</source>
        <translation>%1 Hinweise</translation>
    </message>
    <message>
        <source>No problems</source>
        <translation>Keine Probleme</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>No problems. Errors and warnings of the manifest appear here as you type.</source>
        <translation>Keine Probleme. Fehler und Warnungen des Manifests erscheinen hier während der Eingabe.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::PropertyEditor</name>
    <message>
        <source>Select a resource to edit its properties.</source>
        <translation>Wählen Sie eine Ressource aus, um ihre Eigenschaften zu bearbeiten.</translation>
    </message>
    <message>
        <source>The type &quot;%1&quot; is unknown; edit it in the YAML view.</source>
        <translation>Der Typ „%1“ ist unbekannt; bearbeiten Sie die Ressource in der YAML-Ansicht.</translation>
    </message>
    <message>
        <source>Defaults of every %1 in this block</source>
        <translation>Standardwerte für alle Ressourcen vom Typ %1 in diesem Block</translation>
    </message>
    <message>
        <source>%1 *</source>
        <translation>%1 *</translation>
    </message>
    <message>
        <source>Name *</source>
        <translation>Name *</translation>
    </message>
    <message>
        <source>Required.</source>
        <translation>Erforderlich.</translation>
    </message>
    <message>
        <source>From defaults: %1</source>
        <translation>Aus den Standardwerten: %1</translation>
    </message>
    <message>
        <source>A name is required.</source>
        <translation>Ein Name ist erforderlich.</translation>
    </message>
    <message>
        <source>Required. %1</source>
        <translation>Erforderlich. %1</translation>
    </message>
    <message>
        <source>Look at this resource on this host again</source>
        <translation>Diese Ressource auf diesem Host erneut ansehen</translation>
    </message>
    <message>
        <source>Refresh the state on this host</source>
        <translation>Zustand auf diesem Host aktualisieren</translation>
    </message>
    <message>
        <source>Properties that differ on this host: %1</source>
        <translation>Eigenschaften, die auf diesem Host abweichen: %1</translation>
    </message>
</context>
<context>
    <name>ccm::designer::PublishDialog</name>
    <message>
        <source>Publish to Fleet</source>
        <translation>In der Flotte veröffentlichen</translation>
    </message>
    <message>
        <source>Exports the manifest as a bundle and puts it into a NATS JetStream object store, where agents fetch it by its obj:// URL.</source>
        <translation>Exportiert das Manifest als Bundle und legt es in einen NATS-JetStream-Object-Store, aus dem die Agenten es über seine obj://-URL holen.</translation>
    </message>
    <message>
        <source>&amp;Publish</source>
        <translation>&amp;Veröffentlichen</translation>
    </message>
    <message>
        <source>Server URL…</source>
        <translation>Server-URL…</translation>
    </message>
    <message>
        <source>&amp;Connect with:</source>
        <translation>&amp;Verbinden mit:</translation>
    </message>
    <message>
        <source>Server &amp;URL:</source>
        <translation>Server-&amp;URL:</translation>
    </message>
    <message>
        <source>letters, digits, - and _</source>
        <translation>Buchstaben, Ziffern, - und _</translation>
    </message>
    <message>
        <source>&amp;Bucket:</source>
        <translation>&amp;Bucket:</translation>
    </message>
    <message>
        <source>Object &amp;name:</source>
        <translation>Object&amp;name:</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>The URL is on the clipboard.</source>
        <translation>Die URL ist in der Zwischenablage.</translation>
    </message>
    <message>
        <source>Sending: %1 of %2 KiB</source>
        <translation>Wird gesendet: %1 von %2 KiB</translation>
    </message>
    <message>
        <source>Published. Agents fetch the bundle from:</source>
        <translation>Veröffentlicht. Die Agenten holen das Bundle von:</translation>
    </message>
</context>
<context>
    <name>ccm::designer::RecoveryStore</name>
    <message>
        <source>Cannot create the recovery directory %1.</source>
        <translation>Das Wiederherstellungsverzeichnis %1 kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>Cannot write the recovery copy %1: %2</source>
        <translation>Die Wiederherstellungskopie %1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>ccm::designer::ResourceListModel</name>
    <message numerus="yes">
        <source>%n %1 resource(s)</source>
        <translation>
            <numerusform>%n %1-Ressource</numerusform>
            <numerusform>%n %1-Ressourcen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ccm::designer::ResourceListPanel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Filter resources</source>
        <translation>Ressourcen filtern</translation>
    </message>
    <message>
        <source>Shows the resources whose type#name contains the text</source>
        <translation>Zeigt die Ressourcen, deren type#name den Text enthält</translation>
    </message>
    <message>
        <source>No resources yet. Double-click a type under Resource Types, or drag it here, to add one.</source>
        <translation>Noch keine Ressourcen. Doppelklicken Sie auf einen Typ unter Ressourcentypen oder ziehen Sie ihn hierher, um eine hinzuzufügen.</translation>
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
    <name>ccm::designer::ResultsPanel</name>
    <message>
        <source>Changes only</source>
        <translation>Nur Änderungen</translation>
    </message>
    <message>
        <source>Results are out of date: the manifest changed since this preview</source>
        <translation>Die Ergebnisse sind veraltet: Das Manifest wurde seit dieser Vorschau geändert</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Hide the resources that are already as the manifest describes them</source>
        <translation>Ressourcen ausblenden, die bereits so sind, wie das Manifest sie beschreibt</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>As JSON (the event stream)…</source>
        <translation>Als JSON (der Ereignisstrom)…</translation>
    </message>
    <message>
        <source>As a text report…</source>
        <translation>Als Textbericht…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Wird gestartet…</translation>
    </message>
    <message>
        <source>Checking (%1 of %2)</source>
        <translation>Wird geprüft (%1 von %2)</translation>
    </message>
    <message>
        <source>Checking %1 (%2 of %3)</source>
        <translation>%1 wird geprüft (%2 von %3)</translation>
    </message>
    <message>
        <source>Run Preview (F5 or the toolbar) to see here what a noop apply would change on this host.</source>
        <translation>Starten Sie die Vorschau (F5 oder Werkzeugleiste), um hier zu sehen, was eine Anwendung im Noop-Modus auf diesem Host ändern würde.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::RunResults</name>
    <message>
        <source>stable</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <source>would change</source>
        <translation>würde geändert</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>would fail</source>
        <translation>würde fehlschlagen</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>übersprungen</translation>
    </message>
    <message>
        <source>unmet requirement</source>
        <translation>unerfüllte Voraussetzung</translation>
    </message>
    <message>
        <source>would refresh</source>
        <translation>würde aufgefrischt</translation>
    </message>
    <message>
        <source>refreshed</source>
        <translation>aufgefrischt</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Provider</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Preview (noop) of %1, %2</source>
        <translation>Vorschau (Probelauf): %1, %2</translation>
    </message>
    <message>
        <source>Apply of %1, %2</source>
        <translation>Anwenden: %1, %2</translation>
    </message>
    <message>
        <source>unmet: %1</source>
        <translation>unerfüllt: %1</translation>
    </message>
    <message>
        <source>The run was cancelled before its end.</source>
        <translation>Der Lauf wurde vor seinem Ende abgebrochen.</translation>
    </message>
    <message>
        <source>The run stopped after a failure.</source>
        <translation>Der Lauf wurde nach einem Fehlschlag beendet.</translation>
    </message>
    <message>
        <source>The run did not end.</source>
        <translation>Der Lauf wurde nicht zu Ende geführt.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::TemplateEditor</name>
    <message>
        <source>Rendered resource</source>
        <translation>Gerenderte Ressource</translation>
    </message>
    <message>
        <source>Jet line</source>
        <translation>Jet-Zeile</translation>
    </message>
    <message>
        <source>The rendered output shows here.</source>
        <translation>Hier erscheint die gerenderte Ausgabe.</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Cannot open %1: it is larger than 16 MiB.</source>
        <translation>%1 kann nicht geöffnet werden: Die Datei ist größer als 16 MiB.</translation>
    </message>
    <message>
        <source>Cannot open %1: it is a binary file.</source>
        <translation>%1 kann nicht geöffnet werden: Es ist eine Binärdatei.</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>%1 kann nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Rendering…</source>
        <translation>Wird gerendert…</translation>
    </message>
    <message>
        <source>Rendered.</source>
        <translation>Gerendert.</translation>
    </message>
    <message>
        <source>The manifest&apos;s data: %1</source>
        <translation>Die Daten des Manifests: %1</translation>
    </message>
    <message>
        <source>The rendered text is not a list of resource blocks.</source>
        <translation>Der gerenderte Text ist keine Liste von Ressourcenblöcken.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::TemplateRenderer</name>
    <message>
        <source>Cannot render the template: %1</source>
        <translation>Die Vorlage kann nicht gerendert werden: %1</translation>
    </message>
    <message>
        <source>Cannot render the template: there is no backend.</source>
        <translation>Die Vorlage kann nicht gerendert werden: Es gibt kein Backend.</translation>
    </message>
    <message>
        <source>This backend is too old to render templates (it has no %1); update ccm-backend to see the rendered output.</source>
        <translation>Dieses Backend ist zu alt, um Vorlagen zu rendern (es kennt %1 nicht); aktualisieren Sie ccm-backend, um die gerenderte Ausgabe zu sehen.</translation>
    </message>
    <message>
        <source>The backend sent neither output nor diagnostics.</source>
        <translation>Das Backend hat weder eine Ausgabe noch Diagnosen gesendet.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::UnifiedDiff</name>
    <message>
        <source>line %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
    <message>
        <source>more context lines than the hunk header announces</source>
        <translation>mehr Kontextzeilen, als die Hunk-Kopfzeile ankündigt</translation>
    </message>
    <message>
        <source>more removed lines than the hunk header announces</source>
        <translation>mehr entfernte Zeilen, als die Hunk-Kopfzeile ankündigt</translation>
    </message>
    <message>
        <source>more added lines than the hunk header announces</source>
        <translation>mehr hinzugefügte Zeilen, als die Hunk-Kopfzeile ankündigt</translation>
    </message>
    <message>
        <source>not a hunk header: &quot;%1&quot;</source>
        <translation>keine Hunk-Kopfzeile: „%1“</translation>
    </message>
    <message>
        <source>text outside a hunk: &quot;%1&quot;</source>
        <translation>Text außerhalb eines Hunks: „%1“</translation>
    </message>
    <message>
        <source>&quot;\ No newline at end of file&quot; without a line before it</source>
        <translation>„\ No newline at end of file“ ohne vorangehende Zeile</translation>
    </message>
    <message>
        <source>line %1: the hunk that starts there is missing %2 old and %3 new lines</source>
        <translation>Zeile %1: Dem dort beginnenden Hunk fehlen %2 alte und %3 neue Zeilen</translation>
    </message>
</context>
<context>
    <name>ccm::designer::WhatIfPanel</name>
    <message>
        <source>row %1: the path is empty; write a fact path such as host.info.platformFamily</source>
        <translation>Zeile %1: Der Pfad ist leer; geben Sie einen Fakt-Pfad wie host.info.platformFamily ein</translation>
    </message>
    <message>
        <source>row %1: &quot;%2&quot; has an empty part; separate the names with single dots</source>
        <translation>Zeile %1: „%2“ enthält einen leeren Teil; trennen Sie die Namen durch einzelne Punkte</translation>
    </message>
    <message>
        <source>row %1: &quot;%2&quot; may use only letters, digits, &apos;_&apos; and &apos;-&apos; between the dots</source>
        <translation>Zeile %1: „%2“ darf zwischen den Punkten nur Buchstaben, Ziffern, „_“ und „-“ enthalten</translation>
    </message>
    <message>
        <source>row %1: &quot;%2&quot; overlaps &quot;%3&quot; of row %4; set each fact once</source>
        <translation>Zeile %1: „%2“ überschneidet sich mit „%3“ aus Zeile %4; setzen Sie jeden Fakt nur einmal</translation>
    </message>
    <message>
        <source>Use these overrides</source>
        <translation>Diese Überschreibungen verwenden</translation>
    </message>
    <message>
        <source>Preview as if the facts and data below were true of this host</source>
        <translation>Die Vorschau so erstellen, als träfen die folgenden Fakten und Daten auf diesen Host zu</translation>
    </message>
    <message>
        <source>Fact path</source>
        <translation>Fakt-Pfad</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Add fact</source>
        <translation>Fakt hinzufügen</translation>
    </message>
    <message>
        <source>Remove fact</source>
        <translation>Fakt entfernen</translation>
    </message>
    <message>
        <source>Facts</source>
        <translation>Fakten</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>No fact overrides. Add fact to preview as if this host&apos;s facts were different, e.g. host.info.platformFamily = rhel.</source>
        <translation>Keine überschriebenen Fakten. Mit „Fakt hinzufügen“ zeigt die Vorschau, was wäre, wenn dieser Host andere Fakten hätte, z. B. host.info.platformFamily = rhel.</translation>
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
        <translation>Allgemein</translation>
    </message>
    <message>
        <source>Apply resource</source>
        <translation>apply-Ressource</translation>
    </message>
    <message>
        <source>Runs another manifest inline, in the same session, so manifests can be composed from reusable parts.</source>
        <translation>Führt ein anderes Manifest direkt in derselben Sitzung aus, sodass sich Manifeste aus wiederverwendbaren Teilen zusammensetzen lassen.</translation>
    </message>
    <message>
        <source>Apply manifest</source>
        <translation>Manifest anwenden</translation>
    </message>
    <message>
        <source>Include and run a child manifest</source>
        <translation>Ein untergeordnetes Manifest einbinden und ausführen</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>Behaviour</source>
        <translation>Verhalten</translation>
    </message>
    <message>
        <source>Dependencies</source>
        <translation>Abhängigkeiten</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>Erweitert</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Path of the child manifest, relative to the directory of the manifest that includes it unless absolute.</source>
        <translation>Pfad des untergeordneten Manifests; sofern er nicht absolut ist, relativ zum Verzeichnis des einbindenden Manifests.</translation>
    </message>
    <message>
        <source>Ensure</source>
        <translation>Sollzustand</translation>
    </message>
    <message>
        <source>Always &quot;present&quot;: the child manifest is resolved and run.</source>
        <translation>Immer „present“: Das untergeordnete Manifest wird aufgelöst und ausgeführt.</translation>
    </message>
    <message>
        <source>Noop</source>
        <translation>Vorschau (Probelauf)</translation>
    </message>
    <message>
        <source>Run the child manifest in noop mode even when this run is real. It can only make a run more cautious: a noop parent always runs its children in noop.</source>
        <translation>Das untergeordnete Manifest als Vorschau (Probelauf) ausführen, auch wenn dieser Lauf echt ist. Das kann einen Lauf nur vorsichtiger machen: Ein übergeordnetes Manifest in der Vorschau führt seine untergeordneten Manifeste immer ebenfalls als Vorschau aus.</translation>
    </message>
    <message>
        <source>Health checks only</source>
        <translation>Nur Zustandsprüfungen</translation>
    </message>
    <message>
        <source>Run only the health checks of the child manifest&apos;s resources. Like noop, it can only be switched on, never off, for children.</source>
        <translation>Nur die Zustandsprüfungen der Ressourcen des untergeordneten Manifests ausführen. Wie noop lässt sich dies für untergeordnete Manifeste nur einschalten, nie ausschalten.</translation>
    </message>
    <message>
        <source>Allow nested apply</source>
        <translation>Verschachteltes apply erlauben</translation>
    </message>
    <message>
        <source>Whether the child manifest may itself contain apply resources. Turn it off to limit what a manifest written by someone else can pull in.</source>
        <translation>Ob das untergeordnete Manifest selbst apply-Ressourcen enthalten darf. Schalten Sie dies aus, um zu begrenzen, was ein von anderen geschriebenes Manifest einbinden kann.</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>Data merged over the child manifest&apos;s own resolved data for this run.</source>
        <translation>Daten, die für diesen Lauf über die eigenen aufgelösten Daten des untergeordneten Manifests gelegt werden.</translation>
    </message>
    <message>
        <source>Archive resource</source>
        <translation>archive-Ressource</translation>
    </message>
    <message>
        <source>Downloads a .tar.gz, .tgz, .tar or .zip archive over HTTP(S), optionally verifies and extracts it, and optionally deletes the download afterwards.</source>
        <translation>Lädt ein .tar.gz-, .tgz-, .tar- oder .zip-Archiv per HTTP(S) herunter, prüft und entpackt es auf Wunsch und löscht die heruntergeladene Datei danach auf Wunsch wieder.</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archiv</translation>
    </message>
    <message>
        <source>Download and extract a release archive</source>
        <translation>Ein Release-Archiv herunterladen und entpacken</translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation>Attribute</translation>
    </message>
    <message>
        <source>Guards</source>
        <translation>Bedingungen</translation>
    </message>
    <message>
        <source>Absolute, clean path the archive is saved to. Its extension (.tar.gz, .tgz, .tar or .zip) must match the one in url.</source>
        <translation>Absoluter, normalisierter Pfad, unter dem das Archiv gespeichert wird. Seine Endung (.tar.gz, .tgz, .tar oder .zip) muss mit der in url übereinstimmen.</translation>
    </message>
    <message>
        <source>&quot;present&quot; to download (and extract) the archive, &quot;absent&quot; to delete the downloaded file.</source>
        <translation>„present“ lädt das Archiv herunter (und entpackt es), „absent“ löscht die heruntergeladene Datei.</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>http or https address to download from. The path must end in the same archive extension as the name.</source>
        <translation>http- oder https-Adresse, von der heruntergeladen wird. Der Pfad muss auf dieselbe Archivendung enden wie der Name.</translation>
    </message>
    <message>
        <source>SHA-256 checksum</source>
        <translation>SHA-256-Prüfsumme</translation>
    </message>
    <message>
        <source>Expected SHA-256 of the archive as 64 hexadecimal characters. A download that does not match is rejected, and an existing file that does not match is fetched again.</source>
        <translation>Erwartete SHA-256-Prüfsumme des Archivs als 64 Hexadezimalzeichen. Ein Download, der nicht übereinstimmt, wird verworfen, und eine vorhandene Datei, die nicht übereinstimmt, wird erneut heruntergeladen.</translation>
    </message>
    <message>
        <source>Extract into</source>
        <translation>Entpacken nach</translation>
    </message>
    <message>
        <source>Absolute directory the archive is unpacked into; created when missing. Leave unset to only download.</source>
        <translation>Absolutes Verzeichnis, in das das Archiv entpackt wird; es wird angelegt, falls es fehlt. Nicht setzen, um nur herunterzuladen.</translation>
    </message>
    <message>
        <source>Delete after extracting</source>
        <translation>Nach dem Entpacken löschen</translation>
    </message>
    <message>
        <source>Remove the downloaded archive once it is extracted. Needs extract_parent and creates, so later runs can tell extraction already happened.</source>
        <translation>Das heruntergeladene Archiv nach dem Entpacken entfernen. Erfordert extract_parent und creates, damit spätere Läufe erkennen können, dass bereits entpackt wurde.</translation>
    </message>
    <message>
        <source>Creates</source>
        <translation>Erzeugte Datei</translation>
    </message>
    <message>
        <source>Absolute path of a file the extraction produces. While it exists the archive is not extracted again; with cleanup it is not downloaded again either, without cleanup a missing archive is downloaded and extracted again.</source>
        <translation>Absoluter Pfad einer Datei, die beim Entpacken entsteht. Solange sie existiert, wird das Archiv nicht erneut entpackt; mit cleanup wird es auch nicht erneut heruntergeladen, ohne cleanup wird ein fehlendes Archiv erneut heruntergeladen und entpackt.</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>Eigentümer</translation>
    </message>
    <message>
        <source>User that owns the downloaded archive file.</source>
        <translation>Benutzer, dem die heruntergeladene Archivdatei gehört.</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Group that owns the downloaded archive file.</source>
        <translation>Gruppe, der die heruntergeladene Archivdatei gehört.</translation>
    </message>
    <message>
        <source>User name</source>
        <translation>Benutzername</translation>
    </message>
    <message>
        <source>User name for HTTP basic authentication.</source>
        <translation>Benutzername für die HTTP-Basic-Authentifizierung.</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Passwort</translation>
    </message>
    <message>
        <source>Password for HTTP basic authentication. Prefer a template such as {{ lookup(&apos;data.download_password&apos;) }} over a literal value.</source>
        <translation>Passwort für die HTTP-Basic-Authentifizierung. Verwenden Sie lieber eine Vorlage wie {{ lookup(&apos;data.download_password&apos;) }} als einen wörtlichen Wert.</translation>
    </message>
    <message>
        <source>HTTP headers</source>
        <translation>HTTP-Header</translation>
    </message>
    <message>
        <source>Extra request headers, header name to value, for example an Authorization token.</source>
        <translation>Zusätzliche Anfrage-Header als Zuordnung von Header-Name zu Wert, zum Beispiel ein Authorization-Token.</translation>
    </message>
    <message>
        <source>CCM common resource definitions</source>
        <translation>Gemeinsame CCM-Ressourcendefinitionen</translation>
    </message>
    <message>
        <source>Building blocks shared by every resource type schema: naming, provider choice, dependencies, control expressions, health checks and service registration.</source>
        <translation>Bausteine, die alle Schemas der Ressourcentypen gemeinsam nutzen: Benennung, Wahl des Providers, Abhängigkeiten, control-Ausdrücke, Zustandsprüfungen und Dienstregistrierung.</translation>
    </message>
    <message>
        <source>Alias</source>
        <translation>Alias</translation>
    </message>
    <message>
        <source>A second name for this resource. require and subscribe entries may use it in place of the name, and log lines show it next to the name.</source>
        <translation>Ein zweiter Name für diese Ressource. Einträge in require und subscribe dürfen ihn anstelle des Namens verwenden, und Protokollzeilen zeigen ihn neben dem Namen an.</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Provider</translation>
    </message>
    <message>
        <source>Use this provider instead of the one CCM would pick automatically. Leave it empty unless you need to force a choice; a provider that is unknown or unusable on the host is an error.</source>
        <translation>Diesen Provider statt des von CCM automatisch gewählten verwenden. Lassen Sie das Feld leer, sofern Sie die Wahl nicht erzwingen müssen; ein Provider, der unbekannt oder auf dem Host nicht nutzbar ist, ist ein Fehler.</translation>
    </message>
    <message>
        <source>Resource reference</source>
        <translation>Ressourcenverweis</translation>
    </message>
    <message>
        <source>Another resource of this manifest, written &quot;type#name&quot;; the part after # may also be that resource&apos;s alias. Example: &quot;package#nginx&quot;.</source>
        <translation>Eine andere Ressource dieses Manifests, geschrieben als „type#name“; der Teil nach # darf auch der Alias dieser Ressource sein. Beispiel: „package#nginx“.</translation>
    </message>
    <message>
        <source>Requires</source>
        <translation>Benötigt</translation>
    </message>
    <message>
        <source>Resources that must succeed before this one is applied. When one of them failed or was skipped for its own unmet requirements, this resource is skipped. Each entry is &quot;type#name&quot; and is taken literally (no templates).</source>
        <translation>Ressourcen, die erfolgreich sein müssen, bevor diese angewendet wird. Ist eine davon fehlgeschlagen oder wurde sie wegen eigener unerfüllter Voraussetzungen übersprungen, wird diese Ressource übersprungen. Jeder Eintrag hat die Form „type#name“ und wird wörtlich genommen (keine Vorlagen).</translation>
    </message>
    <message>
        <source>Subscribes to</source>
        <translation>Abonniert</translation>
    </message>
    <message>
        <source>Resources to watch. When any of them changed during this run, this resource is refreshed: a service restarts, an exec runs regardless of its guards. Each entry is &quot;type#name&quot;.</source>
        <translation>Zu beobachtende Ressourcen. Hat sich eine davon in diesem Lauf geändert, wird diese Ressource aufgefrischt: Ein service wird neu gestartet, ein exec läuft unabhängig von seinen Bedingungen. Jeder Eintrag hat die Form „type#name“.</translation>
    </message>
    <message>
        <source>Control</source>
        <translation>Steuerung</translation>
    </message>
    <message>
        <source>Decides whether the resource is managed in this run. It is managed when &quot;if&quot; is true (the default) and &quot;unless&quot; is false (the default); otherwise it is reported as skipped. Both are bare expressions, written without {{ }}.</source>
        <translation>Entscheidet, ob die Ressource in diesem Lauf verwaltet wird. Sie wird verwaltet, wenn „if“ wahr ist (Standard) und „unless“ falsch ist (Standard); andernfalls wird sie als übersprungen gemeldet. Beide sind reine Ausdrücke und werden ohne {{ }} geschrieben.</translation>
    </message>
    <message>
        <source>Manage only if</source>
        <translation>Nur verwalten, wenn</translation>
    </message>
    <message>
        <source>Expression that must be true for the resource to be managed, for example Facts.host.info.platformFamily == &quot;debian&quot;.</source>
        <translation>Ausdruck, der wahr sein muss, damit die Ressource verwaltet wird, zum Beispiel Facts.host.info.platformFamily == &quot;debian&quot;.</translation>
    </message>
    <message>
        <source>Skip when</source>
        <translation>Überspringen, wenn</translation>
    </message>
    <message>
        <source>Expression that skips the resource when it is true, for example Data.maintenance == true.</source>
        <translation>Ausdruck, bei dem die Ressource übersprungen wird, wenn er wahr ist, zum Beispiel Data.maintenance == true.</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>A length of time in Go notation, such as &quot;300ms&quot;, &quot;30s&quot;, &quot;2h45m&quot; or &quot;1.5h&quot;. The extra units d (day), w (week), M (30 days) and y (year) are also understood.</source>
        <translation>Eine Zeitspanne in Go-Schreibweise, etwa „300ms“, „30s“, „2h45m“ oder „1.5h“. Zusätzlich werden die Einheiten d (Tag), w (Woche), M (30 Tage) und y (Jahr) verstanden.</translation>
    </message>
    <message>
        <source>Health check</source>
        <translation>Zustandsprüfung</translation>
    </message>
    <message>
        <source>One check that runs after the resource is applied: either a Nagios-style command or a set of Goss rules. Any result other than OK marks the resource as failed.</source>
        <translation>Eine Prüfung, die nach dem Anwenden der Ressource läuft: entweder ein Befehl im Nagios-Stil oder eine Reihe von Goss-Regeln. Jedes andere Ergebnis als OK markiert die Ressource als fehlgeschlagen.</translation>
    </message>
    <message>
        <source>Check name</source>
        <translation>Name der Prüfung</translation>
    </message>
    <message>
        <source>Label used for this check in logs and reports.</source>
        <translation>Bezeichnung dieser Prüfung in Protokollen und Berichten.</translation>
    </message>
    <message>
        <source>Check command</source>
        <translation>Prüfbefehl</translation>
    </message>
    <message>
        <source>A Nagios-compatible plugin command line. It is split into words like a shell would, but runs without a shell. Exit code 0 means OK, 1 WARNING, 2 CRITICAL and anything else UNKNOWN.</source>
        <translation>Befehlszeile eines Nagios-kompatiblen Plugins. Sie wird wie von einer Shell in Wörter zerlegt, läuft aber ohne Shell. Exit-Code 0 bedeutet OK, 1 WARNING, 2 CRITICAL und alles andere UNKNOWN.</translation>
    </message>
    <message>
        <source>Goss rules</source>
        <translation>Goss-Regeln</translation>
    </message>
    <message>
        <source>Goss validation rules, laid out as in a goss.yaml file. Requires the goss binary on the managed host.</source>
        <translation>Goss-Validierungsregeln, aufgebaut wie in einer goss.yaml-Datei. Erfordert das Programm goss auf dem verwalteten Host.</translation>
    </message>
    <message>
        <source>Result format</source>
        <translation>Ergebnisformat</translation>
    </message>
    <message>
        <source>How to read the result: &quot;nagios&quot; or &quot;goss&quot;. When unset it is inferred from whether goss_rules is given.</source>
        <translation>Wie das Ergebnis gelesen wird: „nagios“ oder „goss“. Ist es nicht gesetzt, wird es daraus abgeleitet, ob goss_rules angegeben ist.</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>Longest time a single attempt may run, as a duration such as &quot;10s&quot;.</source>
        <translation>Längste Zeit, die ein einzelner Versuch laufen darf, als Dauer wie „10s“.</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>How many times the check may run before its result counts; it stops at the first OK.</source>
        <translation>Wie oft die Prüfung laufen darf, bevor ihr Ergebnis zählt; sie endet beim ersten OK.</translation>
    </message>
    <message>
        <source>Pause between attempts</source>
        <translation>Pause zwischen Versuchen</translation>
    </message>
    <message>
        <source>Time to wait between two attempts, as a duration such as &quot;5s&quot;.</source>
        <translation>Wartezeit zwischen zwei Versuchen, als Dauer wie „5s“.</translation>
    </message>
    <message>
        <source>Health checks</source>
        <translation>Zustandsprüfungen</translation>
    </message>
    <message>
        <source>Checks run after the resource is applied, even when applying it failed. In health-check-only runs they are the only thing that happens.</source>
        <translation>Prüfungen, die nach dem Anwenden der Ressource laufen, auch wenn das Anwenden fehlgeschlagen ist. In Läufen, die nur Zustandsprüfungen ausführen, geschieht nichts anderes.</translation>
    </message>
    <message>
        <source>Service registration</source>
        <translation>Dienstregistrierung</translation>
    </message>
    <message>
        <source>An entry announcing a network service once the resource is stable.</source>
        <translation>Ein Eintrag, der einen Netzwerkdienst bekannt gibt, sobald die Ressource stabil ist.</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Registration cluster the entry belongs to.</source>
        <translation>Registrierungscluster, zu dem der Eintrag gehört.</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>Dienst</translation>
    </message>
    <message>
        <source>Service name: a letter first, then letters, digits, &quot;_&quot; or &quot;-&quot;.</source>
        <translation>Name des Dienstes: zuerst ein Buchstabe, dann Buchstaben, Ziffern, „_“ oder „-“.</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>Protocol clients use to talk to the service, such as http or tcp.</source>
        <translation>Protokoll, über das Clients mit dem Dienst kommunizieren, etwa http oder tcp.</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>IPv4 address the service listens on; a template such as {{ lookup(&apos;facts.network.default_ipv4&apos;) }} is allowed.</source>
        <translation>IPv4-Adresse, auf der der Dienst lauscht; eine Vorlage wie {{ lookup(&apos;facts.network.default_ipv4&apos;) }} ist erlaubt.</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>TCP or UDP port, 1 to 65535, or a template that resolves to one.</source>
        <translation>TCP- oder UDP-Port von 1 bis 65535 oder eine Vorlage, die einen solchen ergibt.</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>Priorität</translation>
    </message>
    <message>
        <source>Priority of this entry among entries for the same service, 1 to 255.</source>
        <translation>Priorität dieses Eintrags unter den Einträgen für denselben Dienst, 1 bis 255.</translation>
    </message>
    <message>
        <source>Annotations</source>
        <translation>Annotationen</translation>
    </message>
    <message>
        <source>Free string labels published together with the entry.</source>
        <translation>Frei wählbare Zeichenketten-Labels, die zusammen mit dem Eintrag veröffentlicht werden.</translation>
    </message>
    <message>
        <source>Register when stable</source>
        <translation>Bei Stabilität registrieren</translation>
    </message>
    <message>
        <source>Service registration entries to announce once the resource is stable and its health checks pass. The designer edits them; the local backend publishes them nowhere.</source>
        <translation>Einträge zur Dienstregistrierung, die bekannt gegeben werden, sobald die Ressource stabil ist und ihre Zustandsprüfungen bestehen. Der Designer bearbeitet sie; das lokale Backend veröffentlicht sie nirgends.</translation>
    </message>
    <message>
        <source>Exec resource</source>
        <translation>exec-Ressource</translation>
    </message>
    <message>
        <source>Runs a command, optionally only when a marker file is missing, a guard command allows it, or a subscribed resource changed.</source>
        <translation>Führt einen Befehl aus, auf Wunsch nur, wenn eine Markierungsdatei fehlt, ein Bedingungsbefehl es erlaubt oder sich eine abonnierte Ressource geändert hat.</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Run a command with guards and refresh triggers</source>
        <translation>Einen Befehl mit Bedingungen und Auslösern für die Auffrischung ausführen</translation>
    </message>
    <message>
        <source>The command to run when no separate command is given, or a short label for it.</source>
        <translation>Der auszuführende Befehl, wenn command nicht angegeben ist, oder eine kurze Bezeichnung dafür.</translation>
    </message>
    <message>
        <source>Leave at &quot;present&quot;, the default; whether the command runs is decided by creates, onlyif, unless, refreshonly and subscribe.</source>
        <translation>Auf dem Standardwert „present“ belassen; ob der Befehl läuft, entscheiden creates, onlyif, unless, refreshonly und subscribe.</translation>
    </message>
    <message>
        <source>Command line to run; defaults to the name. The posix provider splits it into words and runs it without a shell; choose the shell provider for pipes or redirections.</source>
        <translation>Auszuführende Befehlszeile; standardmäßig der Name. Der Provider posix zerlegt sie in Wörter und führt sie ohne Shell aus; wählen Sie für Pipes oder Umleitungen den Provider shell.</translation>
    </message>
    <message>
        <source>Working directory</source>
        <translation>Arbeitsverzeichnis</translation>
    </message>
    <message>
        <source>Absolute directory the command (and its guards) run in.</source>
        <translation>Absolutes Verzeichnis, in dem der Befehl (und seine Bedingungen) ausgeführt werden.</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>Extra environment variables, one &quot;KEY=value&quot; entry each; key and value must not be empty. They are added to, not replacing, the inherited environment.</source>
        <translation>Zusätzliche Umgebungsvariablen, je ein Eintrag „KEY=value“; Schlüssel und Wert dürfen nicht leer sein. Sie ergänzen die geerbte Umgebung, statt sie zu ersetzen.</translation>
    </message>
    <message>
        <source>Search path</source>
        <translation>Suchpfad</translation>
    </message>
    <message>
        <source>Colon-separated list of absolute directories used as PATH to find the executable.</source>
        <translation>Durch Doppelpunkte getrennte Liste absoluter Verzeichnisse, die als PATH zum Finden des Programms dienen.</translation>
    </message>
    <message>
        <source>Success exit codes</source>
        <translation>Exit-Codes für Erfolg</translation>
    </message>
    <message>
        <source>Exit codes that count as success.</source>
        <translation>Exit-Codes, die als Erfolg gelten.</translation>
    </message>
    <message>
        <source>Longest time the command may run, as a duration such as &quot;30s&quot; or &quot;5m&quot;.</source>
        <translation>Längste Zeit, die der Befehl laufen darf, als Dauer wie „30s“ oder „5m“.</translation>
    </message>
    <message>
        <source>Absolute path of a file the command produces. When it already exists the command is not run (unless a subscription triggers it).</source>
        <translation>Absoluter Pfad einer Datei, die der Befehl erzeugt. Existiert sie bereits, wird der Befehl nicht ausgeführt (es sei denn, ein Abonnement löst ihn aus).</translation>
    </message>
    <message>
        <source>Only if</source>
        <translation>Nur wenn</translation>
    </message>
    <message>
        <source>Guard command: the exec runs only when this exits 0. It shares cwd, environment, path and timeout with the main command, and runs in noop mode too.</source>
        <translation>Bedingungsbefehl: Der exec läuft nur, wenn dieser Befehl mit 0 endet. Er teilt cwd, environment, path und timeout mit dem Hauptbefehl und läuft auch in der Vorschau (Probelauf).</translation>
    </message>
    <message>
        <source>Unless</source>
        <translation>Außer wenn</translation>
    </message>
    <message>
        <source>Guard command: the exec runs only when this exits non-zero. It shares cwd, environment, path and timeout with the main command, and runs in noop mode too.</source>
        <translation>Bedingungsbefehl: Der exec läuft nur, wenn dieser Befehl nicht mit 0 endet. Er teilt cwd, environment, path und timeout mit dem Hauptbefehl und läuft auch in der Vorschau (Probelauf).</translation>
    </message>
    <message>
        <source>Refresh only</source>
        <translation>Nur bei Auffrischung</translation>
    </message>
    <message>
        <source>Run only when a resource listed in subscribe changed in this run; otherwise the exec is considered stable.</source>
        <translation>Nur ausführen, wenn sich eine in subscribe aufgeführte Ressource in diesem Lauf geändert hat; andernfalls gilt der exec als stabil.</translation>
    </message>
    <message>
        <source>Refresh only (old spelling)</source>
        <translation>Nur bei Auffrischung (alte Schreibweise)</translation>
    </message>
    <message>
        <source>Deprecated spelling of refreshonly, accepted when reading older manifests. Use refreshonly instead.</source>
        <translation>Veraltete Schreibweise von refreshonly, die beim Lesen älterer Manifeste akzeptiert wird. Verwenden Sie stattdessen refreshonly.</translation>
    </message>
    <message>
        <source>Log output</source>
        <translation>Ausgabe protokollieren</translation>
    </message>
    <message>
        <source>Log every line the command prints to standard output.</source>
        <translation>Jede Zeile protokollieren, die der Befehl auf der Standardausgabe ausgibt.</translation>
    </message>
    <message>
        <source>File resource</source>
        <translation>file-Ressource</translation>
    </message>
    <message>
        <source>Keeps a regular file or a directory in a given state: present with given content, a directory, or absent, always with explicit owner, group and mode.</source>
        <translation>Hält eine reguläre Datei oder ein Verzeichnis in einem festgelegten Zustand: present mit vorgegebenem Inhalt, als Verzeichnis oder absent, stets mit ausdrücklich angegebenem Eigentümer, Gruppe und Zugriffsrechten.</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Manage a file or directory, its content and permissions</source>
        <translation>Eine Datei oder ein Verzeichnis samt Inhalt und Zugriffsrechten verwalten</translation>
    </message>
    <message>
        <source>Absolute, clean path of the file or directory (starts with /, no &quot;.&quot; or &quot;..&quot; parts, no trailing slash).</source>
        <translation>Absoluter, normalisierter Pfad der Datei oder des Verzeichnisses (beginnt mit /, keine Bestandteile „.“ oder „..“, kein abschließender Schrägstrich).</translation>
    </message>
    <message>
        <source>&quot;present&quot; for a regular file, &quot;directory&quot; for a directory, &quot;absent&quot; to remove the path.</source>
        <translation>„present“ für eine reguläre Datei, „directory“ für ein Verzeichnis, „absent“, um den Pfad zu entfernen.</translation>
    </message>
    <message>
        <source>Text the file must contain; templates are resolved just before the file is written. Leave it unset (or null) to manage only owner, group and mode, or set &quot;&quot; for an empty file. Cannot be combined with source.</source>
        <translation>Text, den die Datei enthalten muss; Vorlagen werden unmittelbar vor dem Schreiben der Datei aufgelöst. Setzen Sie ihn nicht (oder auf null), um nur Eigentümer, Gruppe und Zugriffsrechte zu verwalten, oder setzen Sie &quot;&quot; für eine leere Datei. Kann nicht mit source kombiniert werden.</translation>
    </message>
    <message>
        <source>Source file</source>
        <translation>Quelldatei</translation>
    </message>
    <message>
        <source>Local file whose bytes are copied into place, relative to the manifest&apos;s directory unless absolute. Cannot be combined with content.</source>
        <translation>Lokale Datei, deren Bytes an den Zielort kopiert werden; sofern der Pfad nicht absolut ist, relativ zum Verzeichnis des Manifests. Kann nicht mit content kombiniert werden.</translation>
    </message>
    <message>
        <source>User name or numeric UID that owns the path. A purely numeric value is used as a UID without looking it up.</source>
        <translation>Benutzername oder numerische UID des Benutzers, dem der Pfad gehört. Ein rein numerischer Wert wird ohne Nachschlagen als UID verwendet.</translation>
    </message>
    <message>
        <source>Group name or numeric GID that owns the path. A purely numeric value is used as a GID without looking it up.</source>
        <translation>Gruppenname oder numerische GID der Gruppe, der der Pfad gehört. Ein rein numerischer Wert wird ohne Nachschlagen als GID verwendet.</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Zugriffsrechte</translation>
    </message>
    <message>
        <source>Permission bits as a quoted octal string such as &quot;0644&quot; or &quot;0755&quot;, at most &quot;0777&quot;: setuid, setgid and sticky bits cannot be set here.</source>
        <translation>Berechtigungsbits als Oktalzahl in Anführungszeichen wie &quot;0644&quot; oder &quot;0755&quot;, höchstens &quot;0777&quot;: setuid-, setgid- und Sticky-Bits lassen sich hier nicht setzen.</translation>
    </message>
    <message>
        <source>Force removal</source>
        <translation>Entfernen erzwingen</translation>
    </message>
    <message>
        <source>With ensure absent, also remove a directory that is not empty, with everything in it. Only valid together with ensure absent, and never for /.</source>
        <translation>Bei ensure absent auch ein nicht leeres Verzeichnis samt seinem gesamten Inhalt entfernen. Nur zusammen mit ensure absent gültig und niemals für /.</translation>
    </message>
    <message>
        <source>Package resource</source>
        <translation>package-Ressource</translation>
    </message>
    <message>
        <source>Installs, upgrades, pins or removes a system package with the host&apos;s package manager.</source>
        <translation>Installiert, aktualisiert, fixiert oder entfernt ein Systempaket mit dem Paketmanager des Hosts.</translation>
    </message>
    <message>
        <source>Package</source>
        <translation>Paket</translation>
    </message>
    <message>
        <source>Install, pin or remove a system package</source>
        <translation>Ein Systempaket installieren, fixieren oder entfernen</translation>
    </message>
    <message>
        <source>Name of the package as the package manager knows it.</source>
        <translation>Name des Pakets, wie ihn der Paketmanager kennt.</translation>
    </message>
    <message>
        <source>&quot;present&quot; (any version), &quot;latest&quot; (upgrade on every run), &quot;absent&quot;, or an exact version string such as &quot;1.24.0-1.el9&quot; to install, upgrade or downgrade to.</source>
        <translation>„present“ (beliebige Version), „latest“ (bei jedem Lauf aktualisieren), „absent“ oder eine genaue Versionsangabe wie „1.24.0-1.el9“; auf diese Version wird installiert, aktualisiert oder zurückgestuft.</translation>
    </message>
    <message>
        <source>Scaffold resource</source>
        <translation>scaffold-Ressource</translation>
    </message>
    <message>
        <source>Renders a directory of templates into a target directory, optionally deleting files the templates no longer produce and post-processing the results.</source>
        <translation>Rendert ein Verzeichnis mit Vorlagen in ein Zielverzeichnis, löscht auf Wunsch Dateien, die die Vorlagen nicht mehr erzeugen, und bearbeitet die Ergebnisse nach.</translation>
    </message>
    <message>
        <source>Scaffold</source>
        <translation>Scaffold</translation>
    </message>
    <message>
        <source>Render a template directory into a target directory</source>
        <translation>Ein Vorlagenverzeichnis in ein Zielverzeichnis rendern</translation>
    </message>
    <message>
        <source>Directory that receives the rendered files, as an absolute, clean path.</source>
        <translation>Verzeichnis, das die gerenderten Dateien aufnimmt, als absoluter, normalisierter Pfad.</translation>
    </message>
    <message>
        <source>&quot;present&quot; renders the templates; &quot;absent&quot; removes the files the scaffold manages (other files stay).</source>
        <translation>„present“ rendert die Vorlagen; „absent“ entfernt die Dateien, die der scaffold verwaltet (andere Dateien bleiben erhalten).</translation>
    </message>
    <message>
        <source>Template directory</source>
        <translation>Vorlagenverzeichnis</translation>
    </message>
    <message>
        <source>Directory holding the templates, relative to the manifest&apos;s directory unless absolute. Only local directories can be rendered.</source>
        <translation>Verzeichnis mit den Vorlagen; sofern der Pfad nicht absolut ist, relativ zum Verzeichnis des Manifests. Nur lokale Verzeichnisse können gerendert werden.</translation>
    </message>
    <message>
        <source>Template engine</source>
        <translation>Vorlagen-Engine</translation>
    </message>
    <message>
        <source>&quot;jet&quot; for Jet templates ([[ ]] delimiters) or &quot;go&quot; for Go text/template ({{ }} delimiters).</source>
        <translation>„jet“ für Jet-Vorlagen (Begrenzer [[ ]]) oder „go“ für Go text/template (Begrenzer {{ }}).</translation>
    </message>
    <message>
        <source>Left delimiter</source>
        <translation>Linker Begrenzer</translation>
    </message>
    <message>
        <source>Replaces the engine&apos;s opening delimiter, for templates whose text contains [[ or {{.</source>
        <translation>Ersetzt den öffnenden Begrenzer der Engine, für Vorlagen, deren Text [[ oder {{ enthält.</translation>
    </message>
    <message>
        <source>Right delimiter</source>
        <translation>Rechter Begrenzer</translation>
    </message>
    <message>
        <source>Replaces the engine&apos;s closing delimiter.</source>
        <translation>Ersetzt den schließenden Begrenzer der Engine.</translation>
    </message>
    <message>
        <source>Template data</source>
        <translation>Vorlagendaten</translation>
    </message>
    <message>
        <source>Data given to the templates instead of the manifest&apos;s resolved data (facts stay available). String values may use templates.</source>
        <translation>Daten, die die Vorlagen anstelle der aufgelösten Daten des Manifests erhalten (Facts bleiben verfügbar). Zeichenkettenwerte dürfen Vorlagen verwenden.</translation>
    </message>
    <message>
        <source>Skip empty files</source>
        <translation>Leere Dateien überspringen</translation>
    </message>
    <message>
        <source>Do not write files whose rendered output is empty.</source>
        <translation>Dateien, deren gerenderte Ausgabe leer ist, nicht schreiben.</translation>
    </message>
    <message>
        <source>Purge</source>
        <translation>Bereinigen</translation>
    </message>
    <message>
        <source>Delete files in the target directory that the templates do not produce.</source>
        <translation>Dateien im Zielverzeichnis löschen, die die Vorlagen nicht erzeugen.</translation>
    </message>
    <message>
        <source>Post-processing</source>
        <translation>Nachbearbeitung</translation>
    </message>
    <message>
        <source>Commands run on each rendered file, one single-entry map per rule: a glob matched against the file&apos;s base name, and the command to run. {} in the command stands for the file&apos;s full path; without it the path is appended.</source>
        <translation>Befehle, die für jede gerenderte Datei ausgeführt werden, je Regel eine Map mit genau einem Eintrag: ein Glob-Muster, das mit dem Basisnamen der Datei verglichen wird, und der auszuführende Befehl. {} im Befehl steht für den vollständigen Pfad der Datei; fehlt es, wird der Pfad angehängt.</translation>
    </message>
    <message>
        <source>Post-processing rule</source>
        <translation>Nachbearbeitungsregel</translation>
    </message>
    <message>
        <source>A single entry mapping a file-name glob to a command, such as &quot;*.go&quot;: &quot;go fmt {}&quot;.</source>
        <translation>Ein einzelner Eintrag, der einem Glob-Muster für Dateinamen einen Befehl zuordnet, etwa &quot;*.go&quot;: &quot;go fmt {}&quot;.</translation>
    </message>
    <message>
        <source>Service resource</source>
        <translation>service-Ressource</translation>
    </message>
    <message>
        <source>Keeps a system service running or stopped and, independently, enabled or disabled at boot.</source>
        <translation>Hält einen Systemdienst gestartet oder gestoppt und, davon unabhängig, beim Booten aktiviert oder deaktiviert.</translation>
    </message>
    <message>
        <source>Run, stop, enable or disable a system service</source>
        <translation>Einen Systemdienst starten, stoppen, aktivieren oder deaktivieren</translation>
    </message>
    <message>
        <source>Name of the service unit, such as &quot;nginx&quot; or &quot;nginx.service&quot;.</source>
        <translation>Name der Dienst-Unit, etwa „nginx“ oder „nginx.service“.</translation>
    </message>
    <message>
        <source>&quot;running&quot; to start the service when it is stopped, &quot;stopped&quot; to stop it.</source>
        <translation>„running“ startet den Dienst, wenn er gestoppt ist, „stopped“ stoppt ihn.</translation>
    </message>
    <message>
        <source>Start at boot</source>
        <translation>Beim Booten starten</translation>
    </message>
    <message>
        <source>true enables the service at boot, false disables it; leave unset to keep the boot configuration as it is.</source>
        <translation>true aktiviert den Dienst beim Booten, false deaktiviert ihn; nicht setzen, um die Boot-Konfiguration unverändert zu lassen.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::HostState</name>
    <message>
        <source>On this host: checking…</source>
        <translation>Auf diesem Host: wird geprüft…</translation>
    </message>
    <message>
        <source>On this host: not known until the designer is connected to a backend.</source>
        <translation>Auf diesem Host: unbekannt, bis der Designer mit einem Backend verbunden ist.</translation>
    </message>
    <message>
        <source>On this host: not known; the name holds a template, which only a run resolves.</source>
        <translation>Auf diesem Host: unbekannt; der Name enthält eine Vorlage, die erst ein Lauf auflöst.</translation>
    </message>
    <message>
        <source>On this host: not known; this backend cannot tell (update ccm-backend).</source>
        <translation>Auf diesem Host: unbekannt; dieses Backend kann es nicht sagen (aktualisieren Sie ccm-backend).</translation>
    </message>
    <message>
        <source>On this host: not known; asking the backend failed: %1</source>
        <translation>Auf diesem Host: unbekannt; die Anfrage an das Backend ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>On this host: %1</source>
        <translation>Auf diesem Host: %1</translation>
    </message>
    <message>
        <source>On this host: the backend gave no summary.</source>
        <translation>Auf diesem Host: das Backend hat keine Zusammenfassung geliefert.</translation>
    </message>
    <message>
        <source>On this host: the state cannot be told.</source>
        <translation>Auf diesem Host: der Zustand lässt sich nicht feststellen.</translation>
    </message>
    <message>
        <source>The backend gave no reason.</source>
        <translation>Das Backend hat keinen Grund genannt.</translation>
    </message>
    <message>
        <source>Not compared, as they hold templates: %1</source>
        <translation>Nicht verglichen, da sie Vorlagen enthalten: %1</translation>
    </message>
    <message>
        <source>%1 on this host: %2</source>
        <translation>%1 auf diesem Host: %2</translation>
    </message>
</context>
<context>
    <name>ccm::designer::HostStateController</name>
    <message>
        <source>Refresh State on This &amp;Host</source>
        <translation>Zustand auf diesem &amp;Host aktualisieren</translation>
    </message>
    <message>
        <source>Look again at what this host has of the selected resource</source>
        <translation>Erneut nachsehen, was dieser Host von der ausgewählten Ressource hat</translation>
    </message>
</context>
<context>
    <name>ccm::designer::ResourceStatus</name>
    <message>
        <source>its %1 is not a string</source>
        <translation>ihr Feld %1 ist keine Zeichenkette</translation>
    </message>
    <message>
        <source>its differences are not a list</source>
        <translation>ihr Feld differences ist keine Liste</translation>
    </message>
    <message>
        <source>its notes are not a list</source>
        <translation>ihr Feld notes ist keine Liste</translation>
    </message>
    <message>
        <source>The backend&apos;s answer is not an object.</source>
        <translation>Die Antwort des Backends ist kein Objekt.</translation>
    </message>
    <message>
        <source>it does not say whether the state can be told</source>
        <translation>sie sagt nicht, ob sich der Zustand feststellen lässt</translation>
    </message>
    <message>
        <source>The backend&apos;s answer cannot be read: %1.</source>
        <translation>Die Antwort des Backends ist nicht lesbar: %1.</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
</context>
<context>
    <name>ccm::designer::CaptureController</name>
    <message>
        <source>A&amp;dd</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>From &amp;This Machine…</source>
        <translation>Von &amp;diesem Rechner…</translation>
    </message>
    <message>
        <source>Write packages, services and files of this host down as resources</source>
        <translation>Pakete, Dienste und Dateien dieses Hosts als Ressourcen festhalten</translation>
    </message>
    <message>
        <source>From a &amp;Fleet Host…</source>
        <translation>Von einem &amp;Flotten-Host…</translation>
    </message>
    <message>
        <source>Write packages, services and files of a fleet host down as resources, through its agent</source>
        <translation>Pakete, Dienste und Dateien eines Flotten-Hosts über seinen Agenten als Ressourcen festhalten</translation>
    </message>
    <message numerus="yes">
        <source>Added %n resource(s) from this machine.</source>
        <translation>
            <numerusform>%n Ressource von diesem Rechner hinzugefügt.</numerusform>
            <numerusform>%n Ressourcen von diesem Rechner hinzugefügt.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Added %n resource(s) from a fleet host.</source>
        <translation>
            <numerusform>%n Ressource von einem Flotten-Host hinzugefügt.</numerusform>
            <numerusform>%n Ressourcen von einem Flotten-Host hinzugefügt.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ccm::designer::CaptureDialog</name>
    <message>
        <source>A symbolic link (to %1): it cannot be a file resource</source>
        <translation>Ein symbolischer Link (auf %1): er kann keine Datei-Ressource sein</translation>
    </message>
    <message>
        <source>A socket: it cannot be a file resource</source>
        <translation>Ein Socket: er kann keine Datei-Ressource sein</translation>
    </message>
    <message>
        <source>A device: it cannot be a file resource</source>
        <translation>Ein Gerät: es kann keine Datei-Ressource sein</translation>
    </message>
    <message>
        <source>A named pipe: it cannot be a file resource</source>
        <translation>Eine benannte Pipe: sie kann keine Datei-Ressource sein</translation>
    </message>
    <message>
        <source>Not a file or directory: it cannot be a file resource</source>
        <translation>Weder Datei noch Verzeichnis: es kann keine Datei-Ressource sein</translation>
    </message>
    <message>
        <source>Unreadable: the backend may not list it for you</source>
        <translation>Nicht lesbar: das Backend darf es für Sie nicht auflisten</translation>
    </message>
    <message>
        <source>Unreadable: the backend may not read it for you</source>
        <translation>Nicht lesbar: das Backend darf sie für Sie nicht lesen</translation>
    </message>
    <message>
        <source>link → %1</source>
        <translation>Link → %1</translation>
    </message>
    <message>
        <source>not capturable</source>
        <translation>nicht erfassbar</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>nicht lesbar</translation>
    </message>
    <message>
        <source>private</source>
        <translation>privat</translation>
    </message>
    <message>
        <source>Only its owner may read it: captured only with &quot;Include private files&quot;, as a source file with mode 0600</source>
        <translation>Nur der Eigentümer darf sie lesen: wird nur mit „Private Dateien einschließen“ erfasst, als Quelldatei mit Modus 0600</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen…</translation>
    </message>
    <message>
        <source>Add From This Machine</source>
        <translation>Von diesem Rechner hinzufügen</translation>
    </message>
    <message>
        <source>Choose what this host has: each becomes a resource that describes it as it is now. A preview right after finds nothing to change.</source>
        <translation>Wählen Sie, was dieser Host hat: Jedes wird zu einer Ressource, die es so beschreibt, wie es jetzt ist. Eine Vorschau direkt danach findet nichts zu ändern.</translation>
    </message>
    <message>
        <source>&amp;Packages</source>
        <translation>&amp;Pakete</translation>
    </message>
    <message>
        <source>&amp;Services</source>
        <translation>&amp;Dienste</translation>
    </message>
    <message>
        <source>&amp;Files</source>
        <translation>Da&amp;teien</translation>
    </message>
    <message>
        <source>&amp;Add to Manifest</source>
        <translation>Zum Manifest &amp;hinzufügen</translation>
    </message>
    <message>
        <source>Search packages</source>
        <translation>Pakete suchen</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>Architektur</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Search services</source>
        <translation>Dienste suchen</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Aktiviert</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Go to a path, for example /etc/nginx</source>
        <translation>Zu einem Pfad gehen, zum Beispiel /etc/nginx</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>Eigentümer</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>The manifest is not saved as a file yet. Files that cannot be written inline (binary, large or secret-looking) become source files beside it: save the manifest first to add those.</source>
        <translation>Das Manifest ist noch nicht als Datei gespeichert. Dateien, die nicht eingebettet werden können (binär, groß oder nach Geheimnis aussehend), werden zu Quelldateien daneben: Speichern Sie das Manifest zuerst, um diese hinzuzufügen.</translation>
    </message>
    <message>
        <source>Will add:</source>
        <translation>Wird hinzugefügt:</translation>
    </message>
    <message>
        <source>Waiting for the backend…</source>
        <translation>Warte auf das Backend…</translation>
    </message>
    <message>
        <source>Asking the backend for the installed packages…</source>
        <translation>Frage das Backend nach den installierten Paketen…</translation>
    </message>
    <message>
        <source>The packages cannot be listed: %1</source>
        <translation>Die Pakete können nicht aufgelistet werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n package(s) installed.</source>
        <translation>
            <numerusform>%n Paket installiert.</numerusform>
            <numerusform>%n Pakete installiert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Asking the backend for the services…</source>
        <translation>Frage das Backend nach den Diensten…</translation>
    </message>
    <message>
        <source>The services cannot be listed: %1</source>
        <translation>Die Dienste können nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>enabled</source>
        <translation>aktiviert</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>deaktiviert</translation>
    </message>
    <message>
        <source>A service resource cannot express it</source>
        <translation>Eine Dienst-Ressource kann ihn nicht ausdrücken</translation>
    </message>
    <message numerus="yes">
        <source>%n service(s).</source>
        <translation>
            <numerusform>%n Dienst.</numerusform>
            <numerusform>%n Dienste.</numerusform>
        </translation>
    </message>
    <message>
        <source>Listing %1…</source>
        <translation>Liste %1 auf…</translation>
    </message>
    <message>
        <source>%1 cannot be listed: %2</source>
        <translation>%1 kann nicht aufgelistet werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: only the first %n entries are listed.</source>
        <translation>
            <numerusform>%1: nur der erste Eintrag ist aufgelistet.</numerusform>
            <numerusform>%1: nur die ersten %n Einträge sind aufgelistet.</numerusform>
        </translation>
    </message>
    <message>
        <source>… more entries, not listed: type a path above to go to one</source>
        <translation>… weitere Einträge, nicht aufgelistet: Geben Sie oben einen Pfad ein, um zu einem zu gehen</translation>
    </message>
    <message>
        <source>Type an absolute path, starting with /.</source>
        <translation>Geben Sie einen absoluten Pfad ein, der mit / beginnt.</translation>
    </message>
    <message>
        <source>%1 has no entry %2.</source>
        <translation>%1 hat keinen Eintrag %2.</translation>
    </message>
    <message>
        <source>package %1</source>
        <translation>Paket %1</translation>
    </message>
    <message>
        <source>file %1 and everything below it</source>
        <translation>Datei %1 und alles darunter</translation>
    </message>
    <message>
        <source>file %1</source>
        <translation>Datei %1</translation>
    </message>
    <message>
        <source>service %1</source>
        <translation>Dienst %1</translation>
    </message>
    <message numerus="yes">
        <source>Capturing %n item(s)…</source>
        <translation>
            <numerusform>Erfasse %n Element…</numerusform>
            <numerusform>Erfasse %n Elemente…</numerusform>
        </translation>
    </message>
    <message>
        <source>The capture failed: %1</source>
        <translation>Die Erfassung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Add from This Machine</source>
        <translation>Von diesem Rechner hinzufügen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Already in the manifest, left as they are: %1</source>
        <translation>Schon im Manifest, unverändert gelassen: %1</translation>
    </message>
    <message>
        <source>Skipped %1 (%2): %3</source>
        <translation>Übersprungen: %1 (%2): %3</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <source>Data: %1</source>
        <translation>Daten: %1</translation>
    </message>
    <message numerus="yes">
        <source>Added %n resource(s) from %1 in one step (Edit ▸ Undo takes them back).</source>
        <translation>
            <numerusform>%n Ressource von %1 in einem Schritt hinzugefügt (Bearbeiten ▸ Rückgängig nimmt sie zurück).</numerusform>
            <numerusform>%n Ressourcen von %1 in einem Schritt hinzugefügt (Bearbeiten ▸ Rückgängig nimmt sie zurück).</numerusform>
        </translation>
    </message>
    <message>
        <source>Source files written beside the manifest: %1</source>
        <translation>Neben das Manifest geschriebene Quelldateien: %1</translation>
    </message>
    <message>
        <source>&amp;Pin versions</source>
        <translation>Versionen &amp;festschreiben</translation>
    </message>
    <message>
        <source>Packages get their installed version instead of ensure: present</source>
        <translation>Pakete erhalten ihre installierte Version statt ensure: present</translation>
    </message>
    <message>
        <source>Move host &amp;values to data</source>
        <translation>Host-&amp;Werte in die Daten verschieben</translation>
    </message>
    <message>
        <source>Pinned versions and this host&apos;s name in file content go into data: and are looked up, so other hosts can override them</source>
        <translation>Festgeschriebene Versionen und der Name dieses Hosts in Dateiinhalten kommen in data: und werden nachgeschlagen, damit andere Hosts sie überschreiben können</translation>
    </message>
    <message>
        <source>Include p&amp;rivate files</source>
        <translation>P&amp;rivate Dateien einschließen</translation>
    </message>
    <message>
        <source>Files only their owner may read are left out unless this is on; they become source files written with mode 0600</source>
        <translation>Dateien, die nur ihr Eigentümer lesen darf, werden ausgelassen, außer dies ist eingeschaltet; sie werden zu Quelldateien mit Modus 0600</translation>
    </message>
</context>
<context>
    <name>ccm::designer::CaptureClient</name>
    <message>
        <source>a list</source>
        <translation>eine Liste</translation>
    </message>
    <message>
        <source>%1 has no %2</source>
        <translation>%1 hat kein %2</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>eine Zeichenkette</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true oder false</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>eine ganze Zahl</translation>
    </message>
    <message>
        <source>%1.%2 is not %3</source>
        <translation>%1.%2 ist nicht %3</translation>
    </message>
    <message>
        <source>The backend&apos;s answer cannot be read: %1</source>
        <translation>Die Antwort des Backends kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The backend&apos;s answer cannot be read: it is not an object</source>
        <translation>Die Antwort des Backends kann nicht gelesen werden: sie ist kein Objekt</translation>
    </message>
    <message>
        <source>The backend&apos;s answer cannot be read: %1 is not an object</source>
        <translation>Die Antwort des Backends kann nicht gelesen werden: %1 ist kein Objekt</translation>
    </message>
    <message>
        <source>The backend&apos;s capture cannot be read: %1</source>
        <translation>Die Erfassung des Backends kann nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>ccm::designer::FleetCaptureDialog</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Add From a Fleet Host</source>
        <translation>Von einem Flotten-Host hinzufügen</translation>
    </message>
    <message>
        <source>Asks one host&apos;s agent for a capture over the signed preview channel. The agent answers only with preview.capture: true in its configuration and a trusted key, and reads files as its preview user.</source>
        <translation>Bittet den Agenten eines Hosts über den signierten Vorschaukanal um eine Erfassung. Der Agent antwortet nur mit preview.capture: true in seiner Konfiguration und einem vertrauenswürdigen Schlüssel, und er liest Dateien als sein Vorschau-Benutzer.</translation>
    </message>
    <message>
        <source>Server URL…</source>
        <translation>Server-URL…</translation>
    </message>
    <message>
        <source>&amp;Open as New Manifest…</source>
        <translation>Als neues Manifest ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>&amp;Add to Manifest</source>
        <translation>Zum Manifest &amp;hinzufügen</translation>
    </message>
    <message>
        <source>Open as New Manifest</source>
        <translation>Als neues Manifest öffnen</translation>
    </message>
    <message>
        <source>Manifests (*.yaml *.yml)</source>
        <translation>Manifeste (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>the agent&apos;s identity, for example web1.example.org</source>
        <translation>die Identität des Agenten, zum Beispiel web1.example.org</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>&amp;Host:</translation>
    </message>
    <message>
        <source>private key (PEM) the agents trust</source>
        <translation>privater Schlüssel (PEM), dem die Agenten vertrauen</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>Signing Key</source>
        <translation>Signaturschlüssel</translation>
    </message>
    <message>
        <source>PEM keys (*.pem)</source>
        <translation>PEM-Schlüssel (*.pem)</translation>
    </message>
    <message>
        <source>Signing &amp;key:</source>
        <translation>Signatur&amp;schlüssel:</translation>
    </message>
    <message>
        <source>&amp;Connect with:</source>
        <translation>&amp;Verbinden mit:</translation>
    </message>
    <message>
        <source>Server &amp;URL:</source>
        <translation>Server-&amp;URL:</translation>
    </message>
    <message>
        <source>package names or patterns, one a line: nginx, lib*</source>
        <translation>Paketnamen oder Muster, eins pro Zeile: nginx, lib*</translation>
    </message>
    <message>
        <source>&amp;Packages:</source>
        <translation>&amp;Pakete:</translation>
    </message>
    <message>
        <source>service names or patterns, one a line</source>
        <translation>Dienstnamen oder Muster, eins pro Zeile</translation>
    </message>
    <message>
        <source>&amp;Services:</source>
        <translation>&amp;Dienste:</translation>
    </message>
    <message>
        <source>absolute paths, one a line, each taken recursively</source>
        <translation>absolute Pfade, einer pro Zeile, jeder rekursiv erfasst</translation>
    </message>
    <message>
        <source>&amp;Files:</source>
        <translation>Da&amp;teien:</translation>
    </message>
    <message>
        <source>path patterns to leave out: /etc/ssl/private*</source>
        <translation>auszulassende Pfadmuster: /etc/ssl/private*</translation>
    </message>
    <message>
        <source>E&amp;xclude:</source>
        <translation>&amp;Auslassen:</translation>
    </message>
    <message>
        <source>Options:</source>
        <translation>Optionen:</translation>
    </message>
    <message>
        <source>Will add:</source>
        <translation>Wird hinzugefügt:</translation>
    </message>
    <message>
        <source>Name the host to capture.</source>
        <translation>Nennen Sie den zu erfassenden Host.</translation>
    </message>
    <message>
        <source>Choose the signing key the agents trust.</source>
        <translation>Wählen Sie den Signaturschlüssel, dem die Agenten vertrauen.</translation>
    </message>
    <message>
        <source>Type the NATS server&apos;s URL, or choose a context.</source>
        <translation>Geben Sie die URL des NATS-Servers ein oder wählen Sie einen Kontext.</translation>
    </message>
    <message>
        <source>Type at least one package, service or path.</source>
        <translation>Geben Sie mindestens ein Paket, einen Dienst oder einen Pfad ein.</translation>
    </message>
    <message>
        <source>%1 is not an absolute path.</source>
        <translation>%1 ist kein absoluter Pfad.</translation>
    </message>
    <message>
        <source>packages matching %1</source>
        <translation>Pakete passend zu %1</translation>
    </message>
    <message>
        <source>file %1 and everything below it</source>
        <translation>Datei %1 und alles darunter</translation>
    </message>
    <message>
        <source>services matching %1</source>
        <translation>Dienste passend zu %1</translation>
    </message>
    <message>
        <source>leaving out %1</source>
        <translation>ohne %1</translation>
    </message>
    <message>
        <source>Asking %1 for a capture…</source>
        <translation>Bitte %1 um eine Erfassung…</translation>
    </message>
    <message>
        <source>Your own backend cannot be reached: %1</source>
        <translation>Ihr eigenes Backend ist nicht erreichbar: %1</translation>
    </message>
    <message>
        <source>The capture failed: %1</source>
        <translation>Die Erfassung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Add from %1</source>
        <translation>Von %1 hinzufügen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Nothing was opened: the current manifest&apos;s changes are still unsaved.</source>
        <translation>Nichts wurde geöffnet: Die Änderungen am aktuellen Manifest sind noch nicht gespeichert.</translation>
    </message>
</context>
<context>
    <name>ccm::designer::CaptureInsertion</name>
    <message>
        <source>%1 is %2 in the manifest and %3 on the host; the manifest&apos;s value is kept</source>
        <translation>%1 ist %2 im Manifest und %3 auf dem Host; der Wert des Manifests bleibt</translation>
    </message>
    <message>
        <source>%1 is in the way: it is not a directory</source>
        <translation>%1 ist im Weg: es ist kein Verzeichnis</translation>
    </message>
    <message>
        <source>%1 already exists and is not a regular file</source>
        <translation>%1 existiert schon und ist keine reguläre Datei</translation>
    </message>
    <message>
        <source>%1 already exists and cannot be read: %2</source>
        <translation>%1 existiert schon und kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 already exists with other content; move it away, or add the file without it</source>
        <translation>%1 existiert schon mit anderem Inhalt; verschieben Sie sie oder fügen Sie die Datei ohne sie hinzu</translation>
    </message>
    <message>
        <source>Cannot create the directory %1</source>
        <translation>Das Verzeichnis %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>Cannot write in %1: %2</source>
        <translation>In %1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>The manifest does not read as YAML; correct it before adding to it.</source>
        <translation>Das Manifest lässt sich nicht als YAML lesen; korrigieren Sie es, bevor Sie etwas hinzufügen.</translation>
    </message>
    <message>
        <source>The manifest&apos;s data is not a map; the captured data cannot be added to it.</source>
        <translation>Die Daten des Manifests sind keine Map; die erfassten Daten können nicht hinzugefügt werden.</translation>
    </message>
    <message>
        <source>The captured resources could not be added to the manifest.</source>
        <translation>Die erfassten Ressourcen konnten dem Manifest nicht hinzugefügt werden.</translation>
    </message>
    <message>
        <source>No source file was written, nothing was added: %1</source>
        <translation>Keine Quelldatei wurde geschrieben, nichts wurde hinzugefügt: %1</translation>
    </message>
    <message>
        <source>%1 (written before: %2)</source>
        <translation>%1 (zuvor geschrieben: %2)</translation>
    </message>
    <message numerus="yes">
        <source>%n of the chosen files must be source files beside the manifest, which has no directory of its own yet: save the manifest first, then add them again.</source>
        <translation>
            <numerusform>%n der gewählten Dateien muss eine Quelldatei neben dem Manifest werden, das noch kein eigenes Verzeichnis hat: Speichern Sie das Manifest zuerst und fügen Sie sie dann erneut hinzu.</numerusform>
            <numerusform>%n der gewählten Dateien müssen Quelldateien neben dem Manifest werden, das noch kein eigenes Verzeichnis hat: Speichern Sie das Manifest zuerst und fügen Sie sie dann erneut hinzu.</numerusform>
        </translation>
    </message>
</context>
</TS>
