import FaroCore

/// Every setting Faro keeps: the key names of its GSettings schema (`data/io.github.faro.Faro.gschema.xml.in`, which
/// a test checks against this list), their GVariant types and, for the periods, their defaults. The one declaration:
/// the settings adapter checks an installed schema against it, and the app reads and writes by it.
///
/// Through `SettingsStore` values are strings: `monitoring` reads `on`, `off` or `paused:<seconds since 1970>` (see
/// `MonitoringPreference`; `paused-until` is part of it); yes/no settings read `true` when set and nil when not;
/// periods read whole seconds (`30`); names and URLs read as they are, nil when empty.
public enum SettingsKey: String, CaseIterable, Sendable {
    case monitoring
    case pausedUntil = "paused-until"
    /// Whether Faro starts in the background at login (the XDG autostart entry follows it).
    case startAtLogin = "start-at-login"
    case toldAboutBackground = "told-about-background"
    /// The backend's base URL (used when neither `--backend` nor `FARO_BACKEND` is given).
    case backendURL = "backend-url"
    /// The tables protocol generation: `auto` (learned per backend URL), `2` or `3` (docs/backend-protocols.md).
    case backendProtocol = "backend-protocol"
    case tableBeacons = "table-beacons"
    case tableInterested = "table-interested"
    case tableContactame = "table-contactame"
    case tableRateme = "table-rateme"
    /// Seconds unseen before a beacon's zone counts as left (region exit).
    case exitPeriod = "exit-period"
    /// Seconds after an announced entry during which re-entering the same zone is silent.
    case coolDown = "cool-down"
    /// Seconds between catalog refreshes from the backend.
    case catalogRefreshInterval = "catalog-refresh-interval"
    /// The BlueZ adapter to scan with (`hci1`); empty: the first powered one.
    case adapter
    /// Days visits are kept in "Lugares visitados" (docs/visits.md).
    case visitsRetentionDays = "visits-retention-days"
    /// Which places may raise a zone notification: `all`, `saved` or `none` (`NotifyPlaces`; docs/notifications.md).
    case notifyPlaces = "notify-places"

    /// The schema id of Faro's settings in a default install (a development-profile install has
    /// `io.github.faro.Faro.Devel`: FaroInstall's `AppIdentity`, which the `faro` executable passes in).
    public static let schemaID = "io.github.faro.Faro"

    /// The key's GVariant type string.
    public var typeString: String {
        switch self {
        case .monitoring, .startAtLogin, .toldAboutBackground: return "b"
        case .pausedUntil: return "x"
        case .backendURL, .backendProtocol, .tableBeacons, .tableInterested, .tableContactame, .tableRateme, .adapter,
            .notifyPlaces:
            return "s"
        case .exitPeriod, .coolDown, .catalogRefreshInterval, .visitsRetentionDays: return "u"
        }
    }

    /// The default of a period, in seconds (nil for the other keys): the same values FaroCore starts from.
    public var defaultSeconds: Double? {
        switch self {
        case .exitPeriod: return RegionMonitorConfiguration.defaultExitPeriod
        case .coolDown: return RegionMonitorConfiguration.defaultCoolDown
        case .catalogRefreshInterval: return CatalogSyncSettings.defaultPeriod
        default: return nil
        }
    }

    /// The setting this key's value belongs to, as `SettingsStore` names it: `paused-until` is part of
    /// `monitoring`, the rest are their own.
    public var settingsKey: String {
        self == .pausedUntil ? SettingsKey.monitoring.rawValue : rawValue
    }
}
