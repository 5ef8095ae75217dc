internal import CGtk
import FaroApp
import FaroInstall
import FoundationEssentials

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

    /// The translations (see `InstallLayout.localeDirectory`).
    static func localeDirectory() -> String? { InstallLayout.localeDirectory() }

    /// The translation of an English message id.
    static func tr(_ msgid: String) -> String {
        msgid.withCString { String(cString: dgettext(domain, $0)) }
    }

    /// The form of a counted message for `count` (`ngettext`, following the catalog's `Plural-Forms`).
    static func plural(_ singular: String, _ plural: String, _ count: Int) -> String {
        // Without a translation ngettext returns the msgid pointer it was given: read it while it is still valid.
        singular.withCString { one in
            plural.withCString { many in String(cString: dngettext(domain, one, many, UInt(max(count, 0)))) }
        }
    }

    /// The localizer handed to view models.
    static let localizer = Localizer({ tr($0) }, plural: { plural($0, $1, $2) })
}
