import FaroCore
import FoundationEssentials

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
        let ext = name.contains(".") ? (name.split(separator: ".").last.map { $0.lowercased() } ?? "") : ""
        return (Array(data), types[ext] ?? "application/octet-stream")
    }
}

/// A `--load` file: `{"table": [row, …], …}`, each row a flat JSON object with a string `id`.
enum LoadFile {
    /// Why a load file was refused.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func read(_ path: String) throws(Problem) -> [(String, [[(String, JSONValue)]])] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "cannot read it")
        }
        let root: JSONValue
        do { root = try JSONValue.parse(bytes: Array(data)) } catch { throw Problem(description: error.description) }
        guard let tables = root.objectMembers else { throw Problem(description: "expected {\"table\": [rows]}") }
        var result: [(String, [[(String, JSONValue)]])] = []
        for (table, rows) in tables {
            guard let list = rows.arrayValue else { throw Problem(description: "\(table): expected an array of rows") }
            var objects: [[(String, JSONValue)]] = []
            for row in list {
                guard let fields = row.objectMembers else {
                    throw Problem(description: "\(table): a row is not an object")
                }
                objects.append(fields)
            }
            result.append((table, objects))
        }
        return result
    }
}

extension TableError: CustomStringConvertible {
    var description: String { "HTTP \(status): \(message)" }
}
