import Foundation

/// What a faro-backend started with `--debug` says it accepted: `GET /debug/inserts`, the count of 201 answers per
/// table and row id. A row accepted twice would show a 2 there even when the table holds it once.
public enum BackendInserts {
    /// table → row id → 201 answers.
    public static func counts(_ base: String) throws -> [String: [String: Int]] {
        let r = try ChildProcess.run("/usr/bin/curl", ["-s", "-m", "20", base + "/debug/inserts"], timeout: 30)
        guard r.status == 0,
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: [String: Int]]
        else {
            throw Failure(description: "GET /debug/inserts failed (is faro-backend running with --debug?): \(r.stdout)")
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
