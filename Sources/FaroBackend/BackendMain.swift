import FaroCore
internal import FaroGLib
import FaroStore
import FoundationEssentials
import Glibc

/// `faro-backend`: a local stand-in for Faro's Azure Mobile Apps backend (see BackendOptions.usage). Its own
/// executable in a SwiftPM build; the installed `faro-backend` is a link to `faro`, which runs this when started
/// under that name, so the package carries one copy of the Swift runtime and FoundationEssentials.
public enum BackendMain {
    /// Runs faro-backend with `arguments` (without the program name) until it is stopped; never returns.
    @MainActor
    public static func run(arguments: [String]) -> Never {
        let options: BackendOptions
        do {
            options = try BackendOptions(arguments)
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
            StandardStreams.writeError(
                "faro-backend: no data folder found (pass --data DIR): serving tables without the demo catalog\n")
        }
        var seed = SystemRandomNumberGenerator()
        let faults = FaultInjector(
            failRate: options.failRate, failStatuses: options.failStatuses, latency: options.latency,
            dropRate: options.dropRate, random: SplitMix64(seed: options.seed ?? seed.next()))
        let routes = Routes(
            tables: tables, demo: demo, appKey: options.appKey, debug: options.debug, clock: { clock.now() })
        routes.absoluteNextLinks = options.absoluteNextLinks
        if let path = options.requestLog {
            guard let log = RequestLog(path: path) else { fail("cannot write the request log \(path)") }
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

        StandardStreams.writeOutput("listening on http://127.0.0.1:\(port)\n")
        var refusal: RefusalSchedule?
        if options.refuseFor > 0 {
            let schedule = RefusalSchedule(server: server, closedFor: options.refuseFor, period: options.refuseEvery)
            schedule.closeNow()
            refusal = schedule
        }
        withExtendedLifetime((server, routes, tables, refusal)) {
            GLibMainLoop().run()
        }
        exit(0)
    }

    static func fail(_ message: String, status: Int32 = 1) -> Never {
        StandardStreams.writeError("faro-backend: \(message)\n")
        exit(status)
    }
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
        if !server.resume() { StandardStreams.writeError("faro-backend: could not listen again\n") }
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

/// The `--request-log` file: one line appended per /tables request, written whole as it comes.
final class RequestLog {
    private let fd: Int32

    /// Creates (or empties) the file at `path`; nil when it cannot be written.
    init?(path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    func append(_ line: String) {
        let bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }  // a full disk: the log is a test aid, the request still runs
            offset += n
        }
    }
}
