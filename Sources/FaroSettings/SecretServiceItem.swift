internal import CSecret

/// Faro's one item in the Secret Service: the app key, under the schema `io.github.faro.Faro.AppKey` with the
/// attribute `kind=app-key` (so `secret-tool lookup kind app-key` finds it too), in the default collection.
/// Each call is libsecret's synchronous `secret_password_*v_sync`; a lookup first asks whether the item exists, and a
/// lookup or a clear whether a locked keyring holds it.
enum SecretServiceItem {
    static let schemaName = "io.github.faro.Faro.AppKey"
    static let label = "Faro app key (ZUMO-API-KEY)"

    /// The stored key, or nil. Reading a secret needs an encrypted session with the service (a Diffie-Hellman
    /// exchange through libgcrypt: about 0.7 MB resident from then on, in a tray app that lives all day); asking
    /// whether the item exists does not. Most users store no key, so the session is opened only when there is one.
    /// A key in a locked keyring is not read (no prompt is raised): that is `AppKeyError.keyringLocked`.
    static func lookup() throws(AppKeyError) -> String? {
        try withSchema { schema, attributes throws(AppKeyError) in
            switch try presence(schema, attributes) {
            case .none: return nil
            case .locked: throw .keyringLocked
            case .unlocked: break
            }
            var error: UnsafeMutablePointer<GError>?
            let found = secret_password_lookupv_sync(schema, attributes, nil, &error)
            try check(error)
            guard let found else { return nil }
            defer { secret_password_free(found) }
            let key = String(cString: found)
            return key.isEmpty ? nil : key
        }
    }

    static func store(_ key: String) throws(AppKeyError) {
        try withSchema { schema, attributes throws(AppKeyError) in
            var error: UnsafeMutablePointer<GError>?
            let stored = secret_password_storev_sync(schema, attributes, "default", label, key, nil, &error)
            try check(error)
            if stored == 0 { throw .secretService("the key was not stored") }
        }
    }

    /// Removes the key. One left in a locked keyring is `AppKeyError.keyringLocked`, not a success.
    static func clear() throws(AppKeyError) {
        try withSchema { schema, attributes throws(AppKeyError) in
            var error: UnsafeMutablePointer<GError>?
            _ = secret_password_clearv_sync(schema, attributes, nil, &error)
            try check(error)
            if try presence(schema, attributes) == .locked { throw .keyringLocked }
        }
    }

    /// Where the service shows Faro's item.
    enum Presence: Equatable {
        case none
        /// In a locked collection: neither its secret nor, in GNOME Keyring, its schema can be read until unlocked.
        case locked
        case unlocked
    }

    /// Asked without a session (`secret_service_search_sync` without `SECRET_SEARCH_LOAD_SECRETS` or
    /// `SECRET_SEARCH_UNLOCK` loads no secret, unlocks nothing and prompts for nothing). GNOME Keyring does not
    /// match a locked item's schema name, so when nothing unlocked has the schema, the attributes alone are asked
    /// (`kind=app-key`, no schema): an item with them in a locked collection counts as the key, locked.
    private static func presence(
        _ schema: UnsafePointer<SecretSchema>, _ attributes: OpaquePointer
    ) throws(AppKeyError) -> Presence {
        var error: UnsafeMutablePointer<GError>?
        let service = secret_service_get_sync(SECRET_SERVICE_NONE, nil, &error)
        try check(error)
        guard let service else { throw .secretService("no Secret Service answered") }
        defer { g_object_unref(service) }
        var locked = false
        for named in [true, false] {
            let items = secret_service_search_sync(
                service, named ? schema : nil, attributes, SECRET_SEARCH_ALL, nil, &error)
            try check(error)
            defer { g_list_free_full(items, g_object_unref) }
            var node = items
            while let current = node {
                let item = current.pointee.data.assumingMemoryBound(to: SecretItem.self)
                if secret_item_get_locked(item) == 0 { if named { return .unlocked } } else { locked = true }
                node = current.pointee.next
            }
            if locked { return .locked }
        }
        return .none
    }

    /// Runs `body` with the schema and the attributes that name the item.
    private static func withSchema<T>(
        _ body: (UnsafePointer<SecretSchema>, OpaquePointer) throws(AppKeyError) -> T
    ) throws(AppKeyError) -> T {
        let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)
        let values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)
        defer {
            g_hash_table_unref(types)
            g_hash_table_unref(values)
        }
        // The value of a schema attribute is its type: SECRET_SCHEMA_ATTRIBUTE_STRING is 0.
        g_hash_table_insert(types, g_strdup("kind"), nil)
        g_hash_table_insert(values, g_strdup("kind"), g_strdup("app-key"))
        guard let schema = secret_schema_newv(schemaName, SECRET_SCHEMA_NONE, types), let values else {
            throw .secretService("cannot describe the item")
        }
        defer { secret_schema_unref(schema) }
        return try body(schema, values)
    }

    private static func check(_ error: UnsafeMutablePointer<GError>?) throws(AppKeyError) {
        guard let error else { return }
        let locked =
            error.pointee.domain == secret_error_get_quark() && error.pointee.code == SECRET_ERROR_IS_LOCKED.rawValue
        let message = String(cString: error.pointee.message)
        g_error_free(error)
        throw locked ? .keyringLocked : .secretService(message)
    }
}
