import Foundation

/// Where the things under test are: built executables, the source tree, its `data/` folder.
public enum Paths {
    /// The folder holding the built executables (`faro`, `faro-backend`): beside the test bundle, or `$FARO_BIN_DIR`.
    public static var binaries: String {
        if let dir = ProcessInfo.processInfo.environment["FARO_BIN_DIR"], !dir.isEmpty { return dir }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // The xctest bundle on Linux is a single file (`FaroPackageTests.xctest`) in the build folder.
        for _ in 0..<4 {
            url = url.deletingLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("faro").path) { return url.path }
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    }

    /// A built executable's path.
    public static func executable(_ name: String) -> String { binaries + "/" + name }

    /// The package's root folder (where Package.swift is), found from this source file's location.
    public static var packageRoot: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url = url.deletingLastPathComponent() }
        return url.path
    }

    /// The source tree's `data/` folder.
    public static var data: String { packageRoot + "/data" }
}

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init(_ label: String = "faro-test") throws {
        let base = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    /// A path inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Environment variables that keep a `faro` process's data and settings inside this folder.
    public var xdgEnvironment: [String: String] {
        [
            "XDG_DATA_HOME": file("data"), "XDG_CONFIG_HOME": file("config"), "XDG_CACHE_HOME": file("cache"),
            "HOME": file("home"),
            // Test buses cannot start dconf: settings live in a keyfile under XDG_CONFIG_HOME.
            "GSETTINGS_BACKEND": "keyfile",
        ]
    }

    /// The environment of a Faro window under test in `language` (`es` or `en`): this folder's XDG folders (with the
    /// home made), the source tree's data and translations, the test locales `scripts/make-locales.sh` builds, and
    /// GTK's Adwaita theme without animations (so that screenshots never catch a half-faded popover).
    public func windowEnvironment(language: String) throws -> [String: String] {
        var env = xdgEnvironment
        env["FARO_DATA_DIR"] = Paths.data
        env["FARO_LOCALE_DIR"] = Paths.packageRoot + "/build/locale"
        env["LANG"] = language == "es" ? "es_MX.UTF-8" : "C.UTF-8"
        env["LANGUAGE"] = language
        env["LOCPATH"] = Paths.packageRoot + "/build/locales"
        env["GTK_THEME"] = "Adwaita"
        try FileManager.default.createDirectory(atPath: file("config/gtk-3.0"), withIntermediateDirectories: true)
        try "[Settings]\ngtk-enable-animations=false\n".write(
            toFile: file("config/gtk-3.0/settings.ini"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: file("home"), withIntermediateDirectories: true)
        return env
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
