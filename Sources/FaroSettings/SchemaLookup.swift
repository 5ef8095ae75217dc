internal import CSecret
import FaroApp
import FaroInstall
import FoundationEssentials

/// Finds Faro's compiled settings schema without ever letting GLib abort: `g_settings_new` aborts the process on
/// a schema it cannot find, so the schema is looked up first and a missing one becomes a `SettingsError`.
///
/// Where it looks: an explicit folder (tests) first; else, unless `GSETTINGS_SCHEMA_DIR` is set (then GLib's own
/// list decides), the folders beside the executable — `<prefix>/share/glib-2.0/schemas` for an installed copy,
/// the source tree's `build/glib-2.0/schemas` (scripts/build-schemas.sh) for an uninstalled one — ahead of GLib's
/// list (`GSETTINGS_SCHEMA_DIR`, `XDG_DATA_HOME`, `XDG_DATA_DIRS`).
enum SchemaLookup {
    static let compiledFile = "gschemas.compiled"

    /// The schema `id`, checked to hold every key of `SettingsKey` with its type. The caller owns the
    /// returned reference (`g_settings_schema_unref`).
    static func find(
        _ id: String, directory: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SettingsError) -> OpaquePointer {
        let folders = directory.map { [$0] } ?? (environment["GSETTINGS_SCHEMA_DIR"] == nil ? besideExecutable() : [])
        var source: OpaquePointer? = g_settings_schema_source_get_default().flatMap { g_settings_schema_source_ref($0) }
        defer { if let source { g_settings_schema_source_unref(source) } }
        // Chained so that a folder searched later (and GLib's own list, the parent) comes after the earlier ones.
        for folder in folders.reversed() where FileManager.default.fileExists(atPath: folder + "/" + compiledFile) {
            var error: UnsafeMutablePointer<GError>?
            guard let chained = g_settings_schema_source_new_from_directory(folder, source, 0, &error) else {
                g_error_free(error)
                continue
            }
            if let source { g_settings_schema_source_unref(source) }
            source = chained
        }
        guard let source, let schema = g_settings_schema_source_lookup(source, id, 1) else {
            throw .schemaMissing(id: id, searched: folders)
        }
        for key in SettingsKey.allCases {
            guard g_settings_schema_has_key(schema, key.rawValue) != 0 else {
                g_settings_schema_unref(schema)
                throw .schemaOutdated(id: id, key: key.rawValue, found: nil)
            }
            let found = typeString(of: key.rawValue, in: schema)
            guard found == key.typeString else {
                g_settings_schema_unref(schema)
                throw .schemaOutdated(id: id, key: key.rawValue, found: found)
            }
        }
        return schema
    }

    /// The GVariant type string of `key` in `schema`.
    static func typeString(of key: String, in schema: OpaquePointer) -> String {
        guard let schemaKey = g_settings_schema_get_key(schema, key) else { return "?" }
        defer { g_settings_schema_key_unref(schemaKey) }
        guard let type = g_settings_schema_key_get_value_type(schemaKey), let text = g_variant_type_dup_string(type)
        else { return "?" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// `<prefix>/share/glib-2.0/schemas` of an installed executable, then the source tree's `build/glib-2.0/schemas`
    /// (the folder holding `Package.swift`, found walking up from `.build/<configuration>/faro`).
    static func besideExecutable() -> [String] {
        let fm = FileManager.default
        guard let directory = RunningExecutable.directory else { return [] }
        let exe = URL(fileURLWithPath: directory)
        var folders = [exe.deletingLastPathComponent().appendingPathComponent("share/glib-2.0/schemas").path]
        var dir = exe
        for _ in 0..<6 {
            if fm.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                folders.append(dir.appendingPathComponent("build/glib-2.0/schemas").path)
                break
            }
            dir = dir.deletingLastPathComponent()
        }
        return folders
    }
}
