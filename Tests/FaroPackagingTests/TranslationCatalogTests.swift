import FaroTestSupport
import Foundation
import Testing

/// What xgettext finds in po/POTFILES (Swift code, desktop file, metainfo, settings schema) with the keywords
/// po/meson.build gives it is all translated in po/es.po, plural forms included; the desktop file and the metainfo
/// come out of msgfmt translated.
@Suite("Translation catalog")
struct TranslationCatalogTests {
    let root = Paths.packageRoot

    func tool(_ name: String) throws -> String {
        let path = "/usr/bin/" + name
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(name) is missing (scripts/install-deps.sh)")
        return path
    }

    /// The template xgettext makes from POTFILES with meson's keywords.
    func template(in folder: TemporaryDirectory) throws -> String {
        let meson = try String(contentsOfFile: root + "/po/meson.build", encoding: .utf8)
        let keywords = try NSRegularExpression(pattern: #"'(--keyword=[^']+)'"#)
            .matches(in: meson, range: NSRange(meson.startIndex..., in: meson))
            .compactMap { Range($0.range(at: 1), in: meson).map { String(meson[$0]) } }
        #expect(keywords.contains("--keyword=plural:1,2"), "ngettext's keyword is not given to xgettext")
        let pot = folder.file("faro.pot")
        let r = try ChildProcess.run(
            try tool("xgettext"),
            ["--from-code=UTF-8", "--directory=" + root, "--files-from=" + root + "/po/POTFILES", "-o", pot]
                + keywords)
        try #require(r.status == 0, "xgettext: \(r.stderr)")
        return pot
    }

    @Test func everyMessageTheSourcesUseIsTranslated() throws {
        let folder = try TemporaryDirectory("faro-po")
        let pot = try template(in: folder)
        let text = try String(contentsOfFile: pot, encoding: .utf8)
        // The plural pairs are extracted as such (one msgid, one msgid_plural).
        for pair in ["%@ star", "%@ submission pending", "You are near %@ place", "%@ place nearby"] {
            #expect(text.contains("msgid \"\(pair)\"\nmsgid_plural"), "\(pair) is not extracted as a plural")
        }
        // And from the data files.
        for message in ["Beacon Companion", "Find the beacons near you and open their sites", "Exit period"] {
            #expect(text.contains("msgid \"\(message)\""), "\(message) is not extracted")
        }
        let compared = try ChildProcess.run(try tool("msgcmp"), [root + "/po/es.po", pot])
        #expect(compared.status == 0, "po/es.po lacks translations: \(compared.stderr)")
        let statistics = try ChildProcess.run(
            try tool("msgfmt"), ["--check", "--statistics", "-o", "/dev/null", root + "/po/es.po"])
        #expect(statistics.status == 0, "\(statistics.stderr)")
        #expect(
            !statistics.stderr.contains("fuzzy") && !statistics.stderr.contains("untranslated"), "\(statistics.stderr)")
    }

    /// xgettext reads only the files po/POTFILES lists: a new file with messages that is not listed would show
    /// English in the Spanish window while every check above passes.
    @Test func potfilesListsEveryFileWithMessages() throws {
        let listed = Set(
            try String(contentsOfFile: root + "/po/POTFILES", encoding: .utf8).split(separator: "\n").map(String.init)
                .filter { !$0.isEmpty && !$0.hasPrefix("#") })
        for path in listed {
            #expect(FileManager.default.fileExists(atPath: root + "/" + path), "po/POTFILES lists a missing \(path)")
        }
        let calls = try NSRegularExpression(
            pattern: #"I18n\.tr\(\s*"|\blocalize(\.format)?\(\s*"|localizer\.(format|plural)\(\s*"|translatable="yes""#)
        var found: [String] = []
        for folder in ["Sources", "Resources"] {
            let enumerator = FileManager.default.enumerator(atPath: root + "/" + folder)
            while let relative = enumerator?.nextObject() as? String {
                guard relative.hasSuffix(".swift") || relative.hasSuffix(".ui") else { continue }
                let path = folder + "/" + relative
                let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
                if calls.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    found.append(path)
                }
            }
        }
        #expect(found.count >= 30, "the search found only \(found)")
        for path in found.sorted() where !listed.contains(path) {
            Issue.record("\(path) has messages but po/POTFILES does not list it")
        }
    }

    @Test func pluralEntriesHaveEveryFormAndKeepTheCount() throws {
        let po = try String(contentsOfFile: root + "/po/es.po", encoding: .utf8)
        #expect(po.contains(#""Plural-Forms: nplurals=2; plural=(n != 1);\n""#))
        let entries = po.components(separatedBy: "\n\n").filter { $0.contains("msgid_plural") }
        #expect(entries.count >= 5)
        for entry in entries {
            let lines = entry.split(separator: "\n")
            let forms = lines.filter { $0.hasPrefix("msgstr[") }
            #expect(forms.count == 2, "\(entry)")
            for form in forms {
                #expect(!form.hasSuffix("\"\""), "empty plural form in \(entry)")
                #expect(form.contains("%@"), "the count is lost in \(form)")
            }
        }
    }

    @Test func theDesktopFileAndMetainfoComeOutTranslated() throws {
        let folder = try TemporaryDirectory("faro-po")
        func instantiate(_ name: String) throws -> String {
            let text = try String(contentsOfFile: root + "/data/" + name, encoding: .utf8)
                .replacingOccurrences(of: "@APP_ID@", with: "io.github.faro.Faro")
            let path = folder.file(name)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let desktop = folder.file("io.github.faro.Faro.desktop")
        let d = try ChildProcess.run(
            try tool("msgfmt"),
            [
                "--desktop", "--template", try instantiate("io.github.faro.Faro.desktop.in"), "-d", root + "/po", "-o",
                desktop,
            ])
        try #require(d.status == 0, "\(d.stderr)")
        let entry = try String(contentsOfFile: desktop, encoding: .utf8)
        #expect(entry.contains("\nComment[es]=Encuentra los beacons cercanos y abre los sitios de sus lugares\n"))
        #expect(entry.contains("\nGenericName[es]=Compañero de beacons\n"))
        #expect(entry.contains("\nKeywords[es]=beacon;iBeacon;Bluetooth;cercano;micrositio;\n"))
        #expect(try ChildProcess.run(try tool("desktop-file-validate"), [desktop]).status == 0)

        let metainfo = folder.file("io.github.faro.Faro.metainfo.xml")
        let m = try ChildProcess.run(
            try tool("msgfmt"),
            [
                "--xml", "--template", try instantiate("io.github.faro.Faro.metainfo.xml.in"), "-d", root + "/po", "-o",
                metainfo,
            ])
        try #require(m.status == 0, "\(m.stderr)")
        let component = try String(contentsOfFile: metainfo, encoding: .utf8)
        #expect(
            component.contains(#"<summary xml:lang="es">Encuentra los beacons cercanos y abre sus sitios</summary>"#))
        #expect(component.contains(#"<li xml:lang="es">Notificaciones de zona con la ventana cerrada</li>"#))
        let valid = try ChildProcess.run(try tool("appstreamcli"), ["validate", "--no-net", metainfo])
        #expect(valid.status == 0, "\(valid.stdout)")
    }
}
