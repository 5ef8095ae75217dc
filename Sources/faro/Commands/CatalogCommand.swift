import FaroCore
import FaroCurl
import FaroNet
import FaroStore
import FoundationEssentials

/// `faro catalog sync [--backend URL] [--full]` pulls the backend's catalog into the local one, incrementally (what
/// the window does at start and every period), and prints what changed; `faro catalog [--json] [--backend URL]`
/// prints the local catalog, one beacon per line.
enum CatalogCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let json = OptionSpec("--json", "catalog: one JSON object per beacon.")
        static let backend = OptionSpec(
            "--backend URL", "The backend's base URL (else $FARO_BACKEND, else the backend-url setting).")
        static let full = OptionSpec("--full", "sync: pull everything again instead of what changed.")
        static let generation = OptionSpec(
            "--protocol auto|2|3",
            "sync: the tables protocol generation (else $FARO_BACKEND_PROTOCOL, else the backend-protocol "
                + "setting; auto learns it from the backend).")
        static let declared = [json, backend, full, generation]
    }

    static let help = CommandHelp(
        name: "catalog",
        synopsis: [
            "faro catalog [--json] [--backend URL]", "faro catalog sync [--backend URL] [--protocol auto|2|3] [--full]",
        ],
        summary: "Show the local catalog of places, or bring it up to date from the backend.",
        description: """
            Faro keeps the backend's beacons table in a local catalog, so places are named and notified offline. \
            'faro catalog sync' pulls what changed since the last pull (as the window does at start, every period and \
            when the network comes back) and prints added, updated, deleted, pages and bytes, then the protocol \
            generation the backend speaks (2.0.0 or 3.0.0); 'faro catalog' prints the local catalog, one beacon per \
            line: uuid, major, minor, cliente, titulo, url, updatedAt.
            """,
        options: Option.declared,
        actions: ["sync"],
        examples: [
            ExampleHelp(
                "faro catalog sync --backend https://faro.azurewebsites.net",
                "Prints 'added: 12 updated: 0 deleted: 0 pages: 1 bytes: 4821' after a first pull, then "
                    + "'protocol: 2.0.0 (Azure Mobile Apps)'.")
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let json = args.flag(Option.json)
        let full = args.flag(Option.full)
        let backend = try args.option(Option.backend)
        let generation = try args.option(Option.generation)
        let action = try? args.positional("action")
        try args.finish()
        if let generation, BackendProtocolSetting(generation) == nil {
            throw UsageError(description: "--protocol must be \(BackendProtocolSetting.expected)")
        }
        switch action {
        case nil:
            if full { throw UsageError(description: "--full goes with 'faro catalog sync'") }
            if generation != nil { throw UsageError(description: "--protocol goes with 'faro catalog sync'") }
            return try list(backend: backend, json: json)
        case "sync":
            if json { throw UsageError(description: "--json goes with 'faro catalog' alone") }
            return try sync(backend: backend, full: full, protocolOption: generation)
        case let other?:
            throw UsageError(
                description: "unknown catalog action '\(other)' (use 'faro catalog' or 'faro catalog sync')")
        }
    }

    static func sync(backend: String?, full: Bool, protocolOption: String? = nil) throws -> Int32 {
        // libcurl and the libraries it brings (some twenty, ~10 ms to map and relocate) load while the database
        // opens; the client made below waits for them if they are not ready yet, and so does every way out of
        // here (a process that exits while libraries are being opened and started can crash).
        let preload = CurlPreload()
        defer { preload.wait() }
        // Not durable (synchronous=NORMAL): the catalog is a copy of the backend's, and a page lost to a power cut
        // is only pulled again; every page still commits with its delta token.
        let database: FaroDatabase
        do { database = try FaroDatabase(path: FaroDatabase.defaultPath(), durable: false) } catch {
            throw CommandFailure(description: error.description)
        }
        let configuration = try BackendSettings.required(
            option: backend, database: database, protocolOption: protocolOption)
        CurlRuntime.initialize()
        let sync: CatalogSync
        do {
            sync = CatalogSync(
                database: database, client: try TablesClient(configuration: configuration),
                settings: CatalogSyncSettings(environment: ProcessInfo.processInfo.environment))
            if full { try database.catalog.reset(source: sync.source) }
        } catch let error as TablesError {
            throw CommandFailure(description: error.description)
        } catch let error as StoreError {
            throw CommandFailure(description: error.description)
        }
        let report: CatalogPullReport
        do { report = try sync.run() } catch {
            throw CommandFailure(description: "catalog sync from \(configuration.baseURL) stopped: \(error)")
        }
        var line =
            "added: \(report.added)  updated: \(report.updated)  deleted: \(report.deleted)  "
            + "pages: \(report.pages)  bytes: \(report.bytes)"
        if report.skipped > 0 { line += "  skipped: \(report.skipped)" }
        Output.line(line)
        if let generation = report.generation { Output.line("protocol: \(generation.version) (\(generation.family))") }
        if let reason = report.skippedReason {
            Output.error("faro: \(report.skipped) row(s) could not be used, e.g. \(reason)")
        }
        return 0
    }

    static func list(backend: String?, json: Bool) throws -> Int32 {
        let database = try OutboxStoreAccess.open()
        let configuration = try BackendSettings.required(option: backend, database: database, readAppKey: false)
        let places: [CatalogPlace]
        do { places = try database.catalog.places(source: configuration.catalogSource) } catch {
            throw CommandFailure(description: error.description)
        }
        for place in CatalogIndex(places).places {
            let uuid = place.uuid?.description
            if json {
                Output.line(
                    JSONValue.object([
                        ("uuid", .string(uuid)), ("major", .integer(Int64(place.identity.major))),
                        ("minor", .integer(Int64(place.identity.minor))), ("cliente", .string(place.cliente)),
                        ("titulo", .string(place.titulo)), ("url", .string(place.url)),
                        ("updatedAt", .string(place.updatedAt)),
                    ]).spaced)
            } else {
                Output.line(
                    [
                        uuid ?? "any-uuid", String(place.identity.major), String(place.identity.minor), place.cliente,
                        place.titulo, place.url, place.updatedAt,
                    ].joined(separator: "\t"))
            }
        }
        return 0
    }
}

/// libcurl opened and started on a thread of its own (`CurlRuntime.initialize`); `wait` returns once that is done.
final class CurlPreload: @unchecked Sendable {
    private let condition = ConditionLock()
    private var done = false

    init() {
        let started = DetachedThread.start(name: "faro-curl-load") { [self] in
            CurlRuntime.initialize()
            condition.withLock {
                done = true
                condition.broadcast()
            }
        }
        if !started { done = true }
    }

    func wait() {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
    }
}
