import FaroTestSupport
import Foundation
import Testing

/// The settings schema (both profiles) passes `glib-compile-schemas --strict`, and debian/ is something dpkg's own
/// tools accept: the Build-Depends are all installable Debian packages (the Swift toolchain is not one of them).
@Suite("Schema and Debian files")
struct PackagingFilesTests {
    let root = Paths.packageRoot

    @Test(arguments: [
        ("io.github.faro.Faro", "/io/github/faro/Faro/"), ("io.github.faro.Faro.Devel", "/io/github/faro/Faro/Devel/"),
    ])
    func theSchemaCompilesStrictly(_ id: String, _ path: String) throws {
        let folder = try TemporaryDirectory("faro-schema")
        let text = try String(contentsOfFile: root + "/data/io.github.faro.Faro.gschema.xml.in", encoding: .utf8)
            .replacingOccurrences(of: "@APP_ID@", with: id).replacingOccurrences(of: "@APP_PATH@", with: path)
        try text.write(toFile: folder.file("\(id).gschema.xml"), atomically: true, encoding: .utf8)
        let r = try ChildProcess.run("/usr/bin/glib-compile-schemas", ["--strict", "--dry-run", folder.path])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }

    @Test func dpkgCheckbuilddepsIsSatisfied() throws {
        let r = try ChildProcess.run("/usr/bin/dpkg-checkbuilddeps", [root + "/debian/control"])
        #expect(r.status == 0, "\(r.stderr)")
        let control = try String(contentsOfFile: root + "/debian/control", encoding: .utf8)
        #expect(!control.lowercased().contains("swiftlang") && !control.contains("swift,"))
    }

    @Test func debianRulesIsExecutableAndTheChangelogParses() throws {
        #expect(FileManager.default.isExecutableFile(atPath: root + "/debian/rules"))
        let r = try ChildProcess.run(
            "/usr/bin/dpkg-parsechangelog", ["-l", root + "/debian/changelog", "-S", "Version"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.isEmpty)
    }
}
