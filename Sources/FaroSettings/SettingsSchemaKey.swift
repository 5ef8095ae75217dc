import FaroApp

/// The keys of Faro's GSettings schema (`data/io.github.faro.Faro.gschema.xml.in`) with their GVariant types: the
/// one list the adapter checks an installed schema against before reading anything, so an old or foreign schema
/// is a clear error instead of GLib aborting on an unknown key.
public enum SettingsSchemaKey: String, CaseIterable, Sendable {
    case monitoring
    case pausedUntil = "paused-until"
    case startAtLogin = "start-at-login"
    case toldAboutBackground = "told-about-background"
    case backendURL = "backend-url"
    case backendProtocol = "backend-protocol"
    case tableBeacons = "table-beacons"
    case tableInterested = "table-interested"
    case tableContactame = "table-contactame"
    case tableRateme = "table-rateme"
    case exitPeriod = "exit-period"
    case coolDown = "cool-down"
    case catalogRefreshInterval = "catalog-refresh-interval"

    /// The schema id of Faro's settings in a default install (a development-profile install has
    /// `io.github.faro.Faro.Devel`: FaroInstall's `AppIdentity`, which the `faro` executable passes in).
    public static let schemaID = "io.github.faro.Faro"

    /// The key's GVariant type string.
    public var typeString: String {
        switch self {
        case .monitoring, .startAtLogin, .toldAboutBackground: return "b"
        case .pausedUntil: return "x"
        case .backendURL, .backendProtocol, .tableBeacons, .tableInterested, .tableContactame, .tableRateme: return "s"
        case .exitPeriod, .coolDown, .catalogRefreshInterval: return "u"
        }
    }

    /// The app's `SettingsKey` this key belongs to: `paused-until` is part of `monitoring`, the rest are their own.
    public var settingsKey: String {
        self == .pausedUntil ? SettingsKey.monitoring : rawValue
    }
}
