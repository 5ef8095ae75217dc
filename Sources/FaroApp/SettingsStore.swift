/// Small persisted settings (monitoring state, one-time hints, the backend), read and written by key (a
/// `SettingsKey`). The app's adapter keeps them in the GSettings schema `io.github.faro.Faro`, so `gsettings`,
/// dconf-editor and administrators can read and set them while Faro runs.
public protocol SettingsStore: AnyObject {
    func string(_ key: String) -> String?
    func setString(_ key: String, _ value: String?)
    /// Calls `changed` with the `SettingsKey` of every setting that changes, whether this process changed it or
    /// another one did (`gsettings set io.github.faro.Faro monitoring false`). The calls come on the thread that
    /// runs the main context the store was created under: the GTK main thread in the app. Observing lasts as long
    /// as the returned token.
    func observe(_ changed: @escaping (String) -> Void) -> SettingsObservation
}

extension SettingsStore {
    /// Stores that cannot see changes from outside never call back.
    public func observe(_ changed: @escaping (String) -> Void) -> SettingsObservation { SettingsObservation {} }
}

/// Keeps a settings observation alive: the callbacks stop when it is cancelled or goes away.
public final class SettingsObservation {
    private var stop: (() -> Void)?

    public init(stop: @escaping () -> Void) { self.stop = stop }

    public func cancel() {
        stop?()
        stop = nil
    }

    deinit { stop?() }
}

/// The keys Faro stores (the GSettings key names of the schema `io.github.faro.Faro`).
///
/// Values are strings: `monitoring` reads `on`, `off` or `paused:<seconds since 1970>` (see `MonitoringPreference`);
/// yes/no settings read `true` when set and nil when not; periods read whole seconds (`30`); names and URLs read as
/// they are, nil when empty.
public enum SettingsKey {
    public static let monitoring = "monitoring"
    public static let toldAboutBackground = "told-about-background"
    /// Whether Faro starts in the background at login (the XDG autostart entry follows it).
    public static let startAtLogin = "start-at-login"
    /// The backend's base URL (used when neither `--backend` nor `FARO_BACKEND` is given).
    public static let backendURL = "backend-url"
    /// The tables protocol generation: `auto` (learned per backend URL), `2` or `3` (docs/backend-protocols.md).
    public static let backendProtocol = "backend-protocol"
    public static let tableBeacons = "table-beacons"
    public static let tableInterested = "table-interested"
    public static let tableContactame = "table-contactame"
    public static let tableRateme = "table-rateme"
    /// Seconds unseen before a beacon's zone counts as left (region exit; default 30).
    public static let exitPeriod = "exit-period"
    /// Seconds after an exit during which re-entering the same zone is silent (default 600).
    public static let coolDown = "cool-down"
    /// Seconds between catalog refreshes from the backend (default 900).
    public static let catalogRefreshInterval = "catalog-refresh-interval"
}
