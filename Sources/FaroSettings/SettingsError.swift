/// Why Faro's settings cannot be read or written, in words a user (or an administrator) can act on.
public enum SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The schema is not installed where GLib (or Faro, next to its executable) looks.
    case schemaMissing(id: String, searched: [String])
    /// An installed schema lacks a key this Faro needs, or gives it another type: an older or foreign copy.
    case schemaOutdated(id: String, key: String, found: String?)
    /// The value cannot be stored in that key (a number out of range, a word that is not a number).
    case invalidValue(key: String, value: String, reason: String)
    /// The key is locked (by an administrator's dconf lock) or the backend refused the write.
    case notWritable(key: String)

    public var description: String {
        switch self {
        case .schemaMissing(let id, let searched):
            let places = (["GSETTINGS_SCHEMA_DIR", "XDG_DATA_DIRS"] + searched).joined(separator: ", ")
            return "the settings schema \(id) is not installed (looked in \(places)): reinstall Faro, or in a "
                + "source tree run scripts/build-schemas.sh"
        case .schemaOutdated(let id, let key, let found):
            let what = found.map { "gives the key \(key) the type \($0)" } ?? "has no key \(key)"
            return "the installed settings schema \(id) \(what): it is older than this Faro; reinstall Faro"
        case .invalidValue(let key, let value, let reason):
            return "cannot set \(key) to '\(value)': \(reason)"
        case .notWritable(let key):
            return "the setting \(key) cannot be changed (locked by the administrator, or the settings store refused)"
        }
    }
}
