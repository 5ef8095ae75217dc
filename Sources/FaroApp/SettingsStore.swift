/// Small persisted settings (monitoring state, one-time hints), kept in the local store.
public protocol SettingsStore: AnyObject {
    func string(_ key: String) -> String?
    func setString(_ key: String, _ value: String?)
}

/// The keys Faro stores.
public enum SettingsKey {
    public static let monitoring = "monitoring"
    public static let toldAboutBackground = "told-about-background"
}
