import FaroTestSupport
import Foundation
import Testing

/// A private settings world for one test: Faro's schema (from data/, under the id asked for) compiled into a
/// temporary schema folder, and the keyfile backend in a temporary XDG_CONFIG_HOME, so that neither the user's
/// dconf nor an installed copy of Faro is ever read or written.
final class SchemaFixture {
    let folder: TemporaryDirectory
    let schemaID: String

    /// `removingKey` drops one key from the schema (an older schema); `signedExitPeriod` makes `exit-period` an
    /// `i` instead of a `u` (a foreign schema).
    init(id: String = "io.github.faro.Faro", removingKey: String? = nil, signedExitPeriod: Bool = false) throws {
        folder = try TemporaryDirectory("faro-settings")
        schemaID = id
        var text = try String(contentsOfFile: Paths.data + "/io.github.faro.Faro.gschema.xml.in", encoding: .utf8)
            .replacingOccurrences(of: "@APP_ID@", with: id)
            .replacingOccurrences(
                of: "@APP_PATH@", with: "/" + id.replacingOccurrences(of: ".", with: "/") + "/")
        if let key = removingKey {
            let range = try #require(
                text.range(of: #"<key name="\#(key)"[\s\S]*?</key>"#, options: .regularExpression))
            text.removeSubrange(range)
        }
        if signedExitPeriod {
            let unsigned = #"<key name="exit-period" type="u">"# + "\n      " + #"<range min="1" max="3600"/>"#
            try #require(text.contains(unsigned))
            text = text.replacingOccurrences(of: unsigned, with: #"<key name="exit-period" type="i">"#)
        }
        try FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
        try text.write(toFile: schemas + "/\(id).gschema.xml", atomically: true, encoding: .utf8)
        let compiled = try ChildProcess.run("/usr/bin/glib-compile-schemas", ["--strict", schemas])
        try #require(compiled.status == 0, "glib-compile-schemas: \(compiled.stderr)")
    }

    var schemas: String { folder.file("schemas") }
    var configHome: String { folder.file("config") }
    /// The file GLib's keyfile backend uses for `XDG_CONFIG_HOME=configHome`.
    var keyfile: String { configHome + "/glib-2.0/settings/keyfile" }

    /// What a child process (`gsettings`, `faro`) needs to see these settings.
    var environment: [String: String] {
        [
            "GSETTINGS_SCHEMA_DIR": schemas, "GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": configHome,
            "XDG_DATA_HOME": folder.file("data"), "HOME": folder.file("home"),
            // No session bus: the app key goes to the 0600 file, and nothing autolaunches a bus.
            "DBUS_SESSION_BUS_ADDRESS": "disabled:", "XDG_RUNTIME_DIR": folder.file("runtime"),
        ]
    }

    /// Runs `gsettings` against these settings.
    @discardableResult
    func gsettings(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run("/usr/bin/gsettings", arguments, environment: environment, timeout: 30)
    }
}
