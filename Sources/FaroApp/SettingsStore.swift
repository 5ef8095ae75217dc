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
    /// The value of one of Faro's settings (see `SettingsKey` for the string forms).
    public func string(_ key: SettingsKey) -> String? { string(key.rawValue) }

    /// Sets one of Faro's settings from its string form.
    public func setString(_ key: SettingsKey, _ value: String?) { setString(key.rawValue, value) }

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
