import FaroTestSupport
import Foundation
import FoundationXML
import Testing

/// The desktop integration files are valid for the tools distributions run on them.
@Suite("Desktop data files")
struct DataFilesTests {
    /// A data template with the app id filled in, written to a temporary folder.
    func instantiate(_ template: String, as name: String, in dir: TemporaryDirectory) throws -> String {
        let text = try String(contentsOfFile: Paths.data + "/" + template, encoding: .utf8)
            .replacingOccurrences(of: "@APP_ID@", with: "io.github.faro.Faro")
            .replacingOccurrences(of: "@BINDIR@", with: "/usr/bin")
        let path = dir.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func desktopFileValidates() throws {
        let dir = try TemporaryDirectory()
        let path = try instantiate("io.github.faro.Faro.desktop.in", as: "io.github.faro.Faro.desktop", in: dir)
        let r = try ChildProcess.run("/usr/bin/desktop-file-validate", [path])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("X-GNOME-UsesNotifications=true"))
        #expect(text.contains("DBusActivatable=true"))
    }

    @Test func metainfoValidates() throws {
        let dir = try TemporaryDirectory()
        let path = try instantiate(
            "io.github.faro.Faro.metainfo.xml.in", as: "io.github.faro.Faro.metainfo.xml", in: dir)
        let r = try ChildProcess.run("/usr/bin/appstreamcli", ["validate", "--no-net", path])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("<screenshot"))
    }

    @Test func iconsAreSVG() throws {
        for icon in [
            "icons/hicolor/scalable/apps/io.github.faro.Faro.svg",
            "icons/hicolor/symbolic/apps/io.github.faro.Faro-symbolic.svg",
        ] {
            let text = try String(contentsOfFile: Paths.data + "/" + icon, encoding: .utf8)
            #expect(text.hasPrefix("<svg"))
            #expect(XMLParser(data: Data(text.utf8)).parse())
        }
    }

    @Test func spanishTranslationCompiles() throws {
        let r = try ChildProcess.run(
            "/usr/bin/msgfmt", ["--check", "-o", "/dev/null", Paths.packageRoot + "/po/es.po"])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
