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
    /// `GET /tables/{table}?$top=1000`.
    public static func storedIDs(_ base: String, table: String) throws -> [String] {
        let r = try ChildProcess.run(
            "/usr/bin/curl",
            ["-s", "-m", "20", "-H", "ZUMO-API-VERSION: 2.0.0", base + "/tables/" + table + "?$top=1000"],
            timeout: 30)
        guard r.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        else {
            throw Failure(description: "GET /tables/\(table) failed: \(r.stdout)")
        }
        return rows.compactMap { $0["id"] as? String }
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
