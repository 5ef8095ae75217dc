import FaroCore
internal import FaroGLib
import FaroStore
import Foundation

/// `faro-backend`: a local stand-in for Faro's Azure Mobile Apps backend (see BackendOptions.usage).

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("faro-backend: \(message)\n".utf8))
    exit(status)
}

let options: BackendOptions
do {
    options = try BackendOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error.description)\n\n\(BackendOptions.usage)", status: 2)
}
if let text = options.output {
    print(text)
    exit(0)
}

signal(SIGPIPE, SIG_IGN)
let clock = SystemOutboxClock()
let tables: TableStore
do {
    let connection = try SQLiteConnection(path: options.database)
    if options.database != ":memory:" {
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
    }
    tables = try TableStore(database: connection)
} catch {
    fail(error.description)
}
tables.pageCap = options.pageCap
tables.ignoreTop = options.ignoreTop
tables.poison = options.poison
tables.refuseListing = options.refuseListing
tables.generation = options.generation
tables.timestamps = options.timestamps
var loaded = 0
for file in options.loadFiles {
    do {
        for (table, rows) in try LoadFile.read(file) {
            loaded += try tables.load(table: table, rows: rows, now: clock.now())
        }
    } catch {
        fail("\(file): \(error)")
    }
}
if options.loadOnly {
    print("loaded \(loaded) rows")
    exit(0)
}

let demo = BackendDataDirectory.locate(explicit: options.dataDirectory).map { DemoContent(dataDirectory: $0) }
if demo == nil {
    FileHandle.standardError.write(
        Data(
            "faro-backend: no data folder found (pass --data DIR): serving tables without the demo catalog\n".utf8))
}
var seed = SystemRandomNumberGenerator()
let faults = FaultInjector(
    failRate: options.failRate, failStatuses: options.failStatuses, latency: options.latency,
    dropRate: options.dropRate, random: SplitMix64(seed: options.seed ?? seed.next()))
let routes = Routes(tables: tables, demo: demo, appKey: options.appKey, debug: options.debug, clock: { clock.now() })
routes.absoluteNextLinks = options.absoluteNextLinks
if let path = options.requestLog {
    guard FileManager.default.createFile(atPath: path, contents: nil), let log = FileHandle(forWritingAtPath: path)
    else { fail("cannot write the request log \(path)") }
    routes.requestLog = log
}
let server: SoupHTTPServer
let port: UInt32
do {
    server = try SoupHTTPServer(routes: routes, faults: faults)
    port = try server.listen(port: options.port)
    if let demo {
        try tables.seed(table: "beacons", rows: try demo.catalogRows(baseURL: routes.baseURL), now: clock.now())
    }
} catch let error as CustomStringConvertible {
    fail(error.description)
} catch {
    fail("\(error)")
}

/// The "refuse connections" fault: closed for `refuseFor` seconds from the start, and again every `refuseEvery`.
final class RefusalSchedule {
    let server: SoupHTTPServer
    let closedFor: Double
    let period: Double

    init(server: SoupHTTPServer, closedFor: Double, period: Double) {
        self.server = server
        self.closedFor = closedFor
        self.period = period
    }

    func closeNow() {
        server.suspend()
        after(closedFor) { $0.reopen() }
    }

    func reopen() {
        if !server.resume() { FileHandle.standardError.write(Data("faro-backend: could not listen again\n".utf8)) }
        if period > 0 { after(period - closedFor) { $0.closeNow() } }
    }

    /// Runs `action` once after `seconds` (at least a millisecond) on the main loop.
    private func after(_ seconds: Double, _ action: @escaping (RefusalSchedule) -> Void) {
        MainContextSources.addTimeout(milliseconds: UInt32(max(1, seconds * 1000))) {
            action(self)
            return false
        }
    }
}

FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(port)\n".utf8))
var refusal: RefusalSchedule?
if options.refuseFor > 0 {
    let schedule = RefusalSchedule(server: server, closedFor: options.refuseFor, period: options.refuseEvery)
    schedule.closeNow()
    refusal = schedule
}
GLibMainLoop().run()
