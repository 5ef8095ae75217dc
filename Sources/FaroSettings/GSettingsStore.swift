internal import CSecret
import FaroApp
import FaroGLib
import FoundationEssentials

/// Faro's settings in GSettings (schema `io.github.faro.Faro`): what `gsettings`, dconf-editor and administrators
/// read and set. It is the app's `SettingsStore` (string values by `SettingsKey`, change observation) and offers
/// the same settings typed.
///
/// Create it on the thread whose main context should deliver change callbacks (the GTK main thread in the app).
/// The standard backend is GLib's choice: dconf on a desktop, or what `GSETTINGS_BACKEND` names (`keyfile` keeps
/// them in `$XDG_CONFIG_HOME/glib-2.0/settings/keyfile`, as `faro --demo` uses for its private profile).
public final class GSettingsStore: SettingsStore {
    /// Where the values are kept.
    public enum Backend: Sendable, Equatable {
        /// GLib's default backend (dconf, or `GSETTINGS_BACKEND`).
        case standard
        /// A keyfile at this path (what `GSETTINGS_BACKEND=keyfile` uses, at a path of one's own).
        case keyfile(path: String)
        /// In memory, gone with the process.
        case memory
    }

    public let schemaID: String
    private let settings: UnsafeMutablePointer<GSettings>
    /// The schema the settings were opened with (its key ranges check writes).
    private let schema: OpaquePointer
    /// The backend chosen at creation (nil: GLib's default), for the settings objects of batched writes.
    private let backend: UnsafeMutablePointer<GSettingsBackend>?

    /// Opens the settings; fails (never aborts) when the schema is missing or older than this Faro.
    public init(
        schemaID: String = SettingsKey.schemaID, schemaDirectory: String? = nil, backend: Backend = .standard
    ) throws(SettingsError) {
        let schema = try SchemaLookup.find(schemaID, directory: schemaDirectory)
        var store: UnsafeMutablePointer<GSettingsBackend>?
        switch backend {
        case .standard: store = nil
        case .keyfile(let path): store = g_keyfile_settings_backend_new(path, "/", nil)
        case .memory: store = g_memory_settings_backend_new()
        }
        guard let settings = g_settings_new_full(schema, store, nil) else {
            g_settings_schema_unref(schema)
            if let store { g_object_unref(store) }
            throw .schemaMissing(id: schemaID, searched: [])
        }
        self.schemaID = schemaID
        self.settings = settings
        self.schema = schema
        self.backend = store
    }

    deinit {
        g_object_unref(settings)
        g_settings_schema_unref(schema)
        if let backend { g_object_unref(backend) }
    }

    // MARK: typed

    /// Background monitoring: `monitoring` (on/off) and `paused-until` (seconds since 1970; 0 = not paused).
    public var monitoring: MonitoringPreference {
        guard bool(.monitoring) else { return .off }
        let until = g_settings_get_int64(settings, SettingsKey.pausedUntil.rawValue)
        return until > 0 ? .paused(until: Double(until)) : .on
    }

    /// Sets both monitoring keys in one change, so an observer never sees half of it.
    public func setMonitoring(_ preference: MonitoringPreference) throws(SettingsError) {
        let until: Int64
        switch preference {
        case .on, .off: until = 0
        case .paused(let time): until = Int64(time.rounded(.up))
        }
        guard monitoring != preference else { return }
        // A second settings object in delay-apply mode (it stays in that mode for good): both keys reach the
        // backend in one change.
        guard let batch = g_settings_new_full(schema, backend, nil) else {
            throw .notWritable(key: SettingsKey.monitoring.rawValue)
        }
        defer { g_object_unref(batch) }
        g_settings_delay(batch)
        let on = g_settings_set_boolean(batch, SettingsKey.monitoring.rawValue, preference == .off ? 0 : 1)
        let paused = g_settings_set_int64(batch, SettingsKey.pausedUntil.rawValue, gint64(until))
        g_settings_apply(batch)
        guard on != 0, paused != 0 else { throw .notWritable(key: SettingsKey.monitoring.rawValue) }
    }

    public func bool(_ key: SettingsKey) -> Bool { g_settings_get_boolean(settings, key.rawValue) != 0 }

    public func setBool(_ key: SettingsKey, _ value: Bool) throws(SettingsError) {
        try check(key, "b")
        guard bool(key) != value else { return }
        guard g_settings_set_boolean(settings, key.rawValue, value ? 1 : 0) != 0 else {
            throw .notWritable(key: key.rawValue)
        }
    }

    /// A string key; empty reads as nil.
    public func text(_ key: SettingsKey) -> String? {
        guard let value = g_settings_get_string(settings, key.rawValue) else { return nil }
        defer { g_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    public func setText(_ key: SettingsKey, _ value: String?) throws(SettingsError) {
        try check(key, "s")
        guard text(key) != value, !(value == "" && text(key) == nil) else { return }
        guard g_settings_set_string(settings, key.rawValue, value ?? "") != 0 else {
            throw .notWritable(key: key.rawValue)
        }
    }

    /// A period in whole seconds (`exit-period`, `cool-down`, `catalog-refresh-interval`).
    public func seconds(_ key: SettingsKey) -> UInt32 { g_settings_get_uint(settings, key.rawValue) }

    /// Sets a period, refused (not clamped) outside the range the schema allows.
    public func setSeconds(_ key: SettingsKey, _ value: UInt32) throws(SettingsError) {
        try check(key, "u")
        guard seconds(key) != value else { return }
        if let range = allowedRange(key), !range.contains(value) {
            throw .invalidValue(
                key: key.rawValue, value: String(value),
                reason: "it must be from \(range.lowerBound) to \(range.upperBound) seconds")
        }
        guard g_settings_set_uint(settings, key.rawValue, value) != 0 else { throw .notWritable(key: key.rawValue) }
    }

    /// The backend table names, from the four `table-*` keys.
    public var tableNames: (catalog: String, interested: String, contactame: String, rateme: String) {
        (
            text(.tableBeacons) ?? "beacons", text(.tableInterested) ?? "interested",
            text(.tableContactame) ?? "contactame", text(.tableRateme) ?? "rateme"
        )
    }

    /// Writes whatever is pending to the backend (dconf writes asynchronously); call before a short-lived process
    /// exits after changing something.
    public func sync() { g_settings_sync() }

    // MARK: SettingsStore

    public func string(_ key: String) -> String? {
        if key == SettingsKey.monitoring.rawValue { return monitoring.storedValue }
        guard let schemaKey = SettingsKey(rawValue: key) else { return nil }
        switch schemaKey.typeString {
        case "b": return bool(schemaKey) ? "true" : nil
        case "u": return String(seconds(schemaKey))
        case "x": return String(g_settings_get_int64(settings, key))
        default: return text(schemaKey)
        }
    }

    /// Sets a value from its string form (see `SettingsKey`); a value that does not fit is ignored, like a write
    /// the backend refuses (use `set(_:_:)` to hear why).
    public func setString(_ key: String, _ value: String?) {
        try? set(key, value)
    }

    /// Sets a value from its string form, or says why it cannot be.
    public func set(_ key: String, _ value: String?) throws(SettingsError) {
        if key == SettingsKey.monitoring.rawValue {
            return try setMonitoring(MonitoringPreference(storedValue: value))
        }
        guard let schemaKey = SettingsKey(rawValue: key) else {
            throw .invalidValue(key: key, value: value ?? "", reason: "Faro has no such setting")
        }
        switch schemaKey.typeString {
        case "b":
            try setBool(schemaKey, value.map { !["", "false", "no", "0"].contains($0) } ?? false)
        case "u":
            guard let text = value, let number = UInt32(text) else {
                throw .invalidValue(key: key, value: value ?? "", reason: "it must be a whole number of seconds")
            }
            try setSeconds(schemaKey, number)
        case "x":
            guard let number = Int64(value ?? "0") else {
                throw .invalidValue(key: key, value: value ?? "", reason: "it must be a whole number")
            }
            guard g_settings_set_int64(settings, key, gint64(number)) != 0 else { throw .notWritable(key: key) }
        default:
            try setText(schemaKey, value)
        }
    }

    public func observe(_ changed: @escaping (String) -> Void) -> SettingsObservation {
        let id = GObjectSignal.connect(
            UnsafeMutableRawPointer(settings), "changed",
            pointer: { key in
                guard let key else { return }
                let name = String(cString: key.assumingMemoryBound(to: CChar.self))
                changed(SettingsKey(rawValue: name)?.settingsKey ?? name)
            })
        let instance = settings
        // The token holds the settings object too, so the connection outlives neither.
        g_object_ref(UnsafeMutableRawPointer(instance))
        return SettingsObservation {
            GObjectSignal.disconnect(UnsafeMutableRawPointer(instance), id)
            g_object_unref(UnsafeMutableRawPointer(instance))
        }
    }

    // MARK: helpers

    /// Whether the backend holds a value for `key` (set by a user, not the schema's default).
    func userValue(_ key: String) -> Bool {
        guard let value = g_settings_get_user_value(settings, key) else { return false }
        g_variant_unref(value)
        return true
    }

    private func check(_ key: SettingsKey, _ type: String) throws(SettingsError) {
        guard key.typeString == type else {
            throw .invalidValue(key: key.rawValue, value: "", reason: "it is not a \(type) key")
        }
    }

    /// The `<range min="…" max="…"/>` of a `u` key in the installed schema, nil when it has none.
    private func allowedRange(_ key: SettingsKey) -> ClosedRange<UInt32>? {
        guard let schemaKey = g_settings_schema_get_key(schema, key.rawValue) else { return nil }
        defer { g_settings_schema_key_unref(schemaKey) }
        // ('range', <(min, max)>), or ('type', <@au []>) for a key without a range.
        guard let range = g_settings_schema_key_get_range(schemaKey) else { return nil }
        defer { g_variant_unref(range) }
        guard let kind = g_variant_get_child_value(range, 0), let boxed = g_variant_get_child_value(range, 1) else {
            return nil
        }
        defer {
            g_variant_unref(kind)
            g_variant_unref(boxed)
        }
        guard String(cString: g_variant_get_string(kind, nil)) == "range", let bounds = g_variant_get_variant(boxed),
            let low = g_variant_get_child_value(bounds, 0), let high = g_variant_get_child_value(bounds, 1)
        else { return nil }
        defer {
            g_variant_unref(bounds)
            g_variant_unref(low)
            g_variant_unref(high)
        }
        let lower = g_variant_get_uint32(low)
        let upper = g_variant_get_uint32(high)
        return lower <= upper ? lower...upper : nil
    }
}
