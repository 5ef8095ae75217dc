import FaroInstall
import Foundation

/// The command line of `faro-backend` (PRODUCT.md §13) plus its fault-injection flags.
struct BackendOptions {
    static let usage = """
        Usage: faro-backend [--port N] [--database FILE] [--data DIR] [--app-key KEY]
                            [--fail-rate F] [--fail-status 500,503] [--latency-ms MIN[:MAX]] [--drop-rate F]
                            [--refuse-for SECONDS] [--refuse-every SECONDS] [--seed N]
                            [--page-cap N] [--ignore-top] [--fail-body-containing TEXT] [--refuse-listing TABLE]
                            [--load FILE [--load-only]]

        A local stand-in for Faro's Azure Mobile Apps backend (tables protocol 2.0.0) on 127.0.0.1, with the demo
        catalog (table 'beacons') and the demo microsites (/sitios/<slug>/) from DIR/demo.

          --port N            port to listen on; 0 (the default) picks a free one. Prints
                              'listening on http://127.0.0.1:PORT' once it accepts connections.
          --database FILE     SQLite file for the tables (default: in memory, gone at exit).
          --data DIR          Faro's data folder (default: $FARO_DATA_DIR, or the data/ folder of the source tree).
          --app-key KEY       require the header ZUMO-API-KEY: KEY on /tables (401 otherwise).
        Faults (on /tables requests only):
          --fail-rate F       answer this fraction of requests with 500 or 503 without doing anything.
          --fail-status LIST  the statuses --fail-rate picks from (default 500,503).
          --latency-ms A[:B]  delay every answer by A ms (or a random A…B ms).
          --drop-rate F       cut this fraction of insert (POST) connections in the middle of the response,
                              after the insert took effect (the client cannot tell whether it happened).
          --refuse-for S      stop listening for S seconds, starting right after the start-up line…
          --refuse-every P    …and again every P seconds.
          --seed N            seed of the fault dice (default: random).
          --page-cap N        list pages hold at most N rows whatever $top asks (short pages).
          --ignore-top        list pages hold every matching row ($top is ignored).
          --fail-body-containing TEXT   inserts whose body contains TEXT always fail with 500.
          --refuse-listing TABLE        listing TABLE answers 403 unless it looks up one major/minor.
        Data:
          --load FILE         apply FILE ({"table": [rows]}) to the tables at start: rows are inserted or updated
                              (their own updatedAt kept when given), "deleted": true soft-deletes.
          --load-only         apply --load to --database and exit (while another faro-backend serves that file).
        """

    var port: UInt32 = 0
    var database = ":memory:"
    var dataDirectory: String?
    var appKey: String?
    var failRate = 0.0
    var failStatuses: [Int] = [500, 503]
    var latency: ClosedRange<Double> = 0...0
    var dropRate = 0.0
    var refuseFor = 0.0
    var refuseEvery = 0.0
    var seed: UInt64?
    var pageCap: Int?
    var ignoreTop = false
    var poison: String?
    var loadFiles: [String] = []
    var refuseListing: Set<String> = []
    var loadOnly = false

    /// A command-line mistake: printed with the usage, exit status 2.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(_ arguments: [String]) throws(UsageError) {
        var i = 0
        func value(_ name: String) throws(UsageError) -> String {
            guard i + 1 < arguments.count else { throw UsageError(description: "\(name) needs a value") }
            i += 1
            return arguments[i]
        }
        func fraction(_ name: String) throws(UsageError) -> Double {
            guard let f = Double(try value(name)), (0...1).contains(f) else {
                throw UsageError(description: "\(name) must be a number from 0 to 1")
            }
            return f
        }
        func seconds(_ name: String) throws(UsageError) -> Double {
            guard let s = Double(try value(name)), s >= 0, s <= 86_400 else {
                throw UsageError(description: "\(name) must be a number of seconds from 0 to 86400")
            }
            return s
        }
        while i < arguments.count {
            let word = arguments[i]
            switch word {
            case "--port":
                guard let p = UInt32(try value(word)), p <= 65535 else {
                    throw UsageError(description: "--port must be a number from 0 to 65535")
                }
                port = p
            case "--database": database = try value(word)
            case "--data": dataDirectory = try value(word)
            case "--app-key": appKey = try value(word)
            case "--fail-rate": failRate = try fraction(word)
            case "--drop-rate": dropRate = try fraction(word)
            case "--fail-status":
                let codes = try value(word).split(separator: ",").compactMap { Int($0) }
                guard !codes.isEmpty, codes.allSatisfy({ (400...599).contains($0) }) else {
                    throw UsageError(description: "--fail-status takes HTTP statuses from 400 to 599, like 500,503")
                }
                failStatuses = codes
            case "--latency-ms":
                let parts = try value(word).split(separator: ":").compactMap { Double($0) }
                guard (1...2).contains(parts.count), parts.allSatisfy({ $0 >= 0 && $0 <= 60_000 }),
                    parts[0] <= parts[parts.count - 1]
                else {
                    throw UsageError(description: "--latency-ms takes MS or MIN:MAX (0 to 60000)")
                }
                latency = parts[0]...parts[parts.count - 1]
            case "--refuse-for": refuseFor = try seconds(word)
            case "--refuse-every": refuseEvery = try seconds(word)
            case "--seed":
                guard let s = UInt64(try value(word)) else { throw UsageError(description: "--seed must be a number") }
                seed = s
            case "--page-cap":
                guard let n = Int(try value(word)), n >= 1 else {
                    throw UsageError(description: "--page-cap must be a whole number from 1")
                }
                pageCap = n
            case "--ignore-top": ignoreTop = true
            case "--fail-body-containing": poison = try value(word)
            case "--refuse-listing": refuseListing.insert(try value(word))
            case "--load": loadFiles.append(try value(word))
            case "--load-only": loadOnly = true
            case "--help", "-h":
                throw UsageError(description: "")
            default:
                throw UsageError(description: "unknown argument '\(word)'")
            }
            i += 1
        }
        if refuseEvery > 0, refuseEvery <= refuseFor {
            throw UsageError(description: "--refuse-every must be longer than --refuse-for")
        }
    }
}

/// Where the demo catalog and microsites are: `--data`, else Faro's data folder (`InstallLayout`).
enum BackendDataDirectory {
    static func locate(explicit: String?) -> String? {
        explicit ?? InstallLayout.dataDirectory()
    }
}
