import FaroCore
import Foundation

/// The demo catalog and microsites from `data/demo`: `beacons.json` is the one source of truth; each beacon's row
/// in table `beacons` points at its microsite on this server.
struct DemoContent {
    let dataDirectory: String

    /// Why the demo content could not be loaded.
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The catalog rows for a server at `baseURL` (`http://127.0.0.1:PORT`).
    func catalogRows(baseURL: String) throws(LoadError) -> [[(String, JSONValue)]] {
        let path = dataDirectory + "/demo/beacons.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read \(path); pass --data DIR with Faro's data/ folder")
        }
        let root: JSONValue
        do { root = try JSONValue.parse(bytes: Array(data)) } catch {
            throw LoadError(description: "\(path): \(error)")
        }
        guard let uuid = root["uuid"]?.stringValue, let beacons = root["beacons"]?.arrayValue else {
            throw LoadError(description: "\(path) has no 'uuid' and 'beacons'")
        }
        return beacons.compactMap { b in
            guard let major = b["major"]?.intValue, let minor = b["minor"]?.intValue, let slug = b["slug"]?.stringValue,
                let cliente = b["cliente"]?.stringValue, let titulo = b["titulo"]?.stringValue
            else { return nil }
            return [
                ("id", .string("demo-\(major)-\(minor)")), ("uuid", .string(uuid.lowercased())),
                ("major", .integer(Int64(major))), ("minor", .integer(Int64(minor))),
                ("cliente", .string(cliente)), ("titulo", .string(titulo)),
                ("url", .string("\(baseURL)/sitios/\(slug)/")),
            ]
        }
    }

    /// A microsite file for `/sitios/<slug>/<file>`, or nil (404). Only plain names inside the site's folder.
    func siteFile(slug: String, file: String) -> (bytes: [UInt8], contentType: String)? {
        let name = file.isEmpty ? "index.html" : file
        let allowed: (String) -> Bool = { part in
            !part.isEmpty && !part.hasPrefix(".")
                && part.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        }
        guard allowed(slug), allowed(name) else { return nil }
        let path = "\(dataDirectory)/demo/sites/\(slug)/\(name)"
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let types = [
            "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "png": "image/png",
            "svg": "image/svg+xml", "jpg": "image/jpeg", "jpeg": "image/jpeg", "js": "text/javascript",
        ]
        let ext = (name as NSString).pathExtension.lowercased()
        return (Array(data), types[ext] ?? "application/octet-stream")
    }
}
