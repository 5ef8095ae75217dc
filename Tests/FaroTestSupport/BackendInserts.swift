import Foundation

/// What a faro-backend started with `--debug` says it accepted: `GET /debug/inserts`, the count of 201 answers per
/// table and row id. A row accepted twice would show a 2 there even when the table holds it once. And how often it
/// was asked to list each table (`GET /debug/lists`): a catalog pull lists the beacons table.
public enum BackendInserts {
    /// table → row id → 201 answers.
    public static func counts(_ base: String) throws -> [String: [String: Int]] {
        try debugJSON(base, "inserts")
    }

    /// How many times each table was listed (`GET /tables/{table}`): `GET /debug/lists`, table → listings.
    public static func listings(_ base: String) throws -> [String: Int] {
        try debugJSON(base, "lists")
    }

    /// The ids of the rows `table` holds, in the backend's order, read with curl (not with the client under test):
    /// `GET /tables/{table}?$top=1000`, answered in 2.0.0 (an array) or 3.0.0 (`{items, nextLink}`: the bare query
    /// strings of `nextLink` are followed).
    public static func storedIDs(_ base: String, table: String) throws -> [String] {
        var ids: [String] = []
        var query: String? = "$top=1000"
        var pages = 0
        while let next = query, pages < 100 {
            let r = try ChildProcess.run(
                "/usr/bin/curl",
                ["-s", "-m", "20", "-H", "ZUMO-API-VERSION: 2.0.0", base + "/tables/" + table + "?" + next],
                timeout: 30)
            let answer = r.status == 0 ? try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) : nil
            let rows = answer as? [[String: Any]] ?? (answer as? [String: Any])?["items"] as? [[String: Any]]
            guard let rows else { throw Failure(description: "GET /tables/\(table) failed: \(r.stdout)") }
            ids += rows.compactMap { $0["id"] as? String }
            query = (answer as? [String: Any])?["nextLink"] as? String
            pages += 1
        }
        return ids
    }

    /// `GET /debug/{route}`, decoded as `T`.
    static func debugJSON<T>(_ base: String, _ route: String) throws -> T {
        let r = try ChildProcess.run("/usr/bin/curl", ["-s", "-m", "20", base + "/debug/" + route], timeout: 30)
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? T else {
            throw Failure(
                description: "GET /debug/\(route) failed (is faro-backend running with --debug?): \(r.stdout)")
        }
        return json
    }

    /// The 201 answers per row id, all tables together.
    public static func perID(_ base: String) throws -> [String: Int] {
        var total: [String: Int] = [:]
        for ids in try counts(base).values { for (id, n) in ids { total[id, default: 0] += n } }
        return total
    }

    /// Why the counts could not be read.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }
}
