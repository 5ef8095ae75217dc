import FaroApp
import Foundation
internal import CGtk

/// gettext for the GTK layer: the `faro` text domain, bound to the installed or the built translations.
enum I18n {
    static let domain = "faro"

    /// Follows the user's locale (`LANG`, `LANGUAGE`) and binds the text domain. Call once, before any widget.
    static func setUp() {
        setlocale(LC_ALL, "")
        if let dir = localeDirectory() { bindtextdomain(domain, dir) }
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }

    /// The translations: `$FARO_LOCALE_DIR`, the installed `share/locale`, or the source tree's `build/locale`.
    static func localeDirectory() -> String? {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["FARO_LOCALE_DIR"], !env.isEmpty { return env }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let installed = exe.deletingLastPathComponent().appendingPathComponent("share/locale")
        if fm.fileExists(atPath: installed.appendingPathComponent("es/LC_MESSAGES/faro.mo").path) { return installed.path }
        var dir = exe
        for _ in 0..<6 {
            let built = dir.appendingPathComponent("build/locale")
            if fm.fileExists(atPath: built.path) { return built.path }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// The translation of an English message id.
    static func tr(_ msgid: String) -> String {
        msgid.withCString { String(cString: dgettext(domain, $0)) }
    }

    /// The localizer handed to view models.
    static let localizer = Localizer { tr($0) }
}
