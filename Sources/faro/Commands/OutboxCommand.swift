import Dispatch
import FaroCore
import FaroCurl
import FaroNet
import FaroStore
import FoundationEssentials
import Glibc

/// `faro outbox [--json]` lists the pending and refused rows; `faro outbox flush` delivers now and exits 0 when
/// nothing is pending, 1 with the reason; `retry`, `discard` and `move` act on rows, as the window's panel does.
enum OutboxCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let json = OptionSpec(
            "--json", "List as one JSON object: {\"pending\": N, \"failed\": N, \"rows\": [...]}.")
        static let timeout = OptionSpec(
            "--timeout SECONDS", "flush: how long to keep trying (default 30).", range: 0...86_400)
        static let backend = OptionSpec(
            "--backend URL", "flush: the backend's base URL (else $FARO_BACKEND, else the backend-url setting).")
        static let retryFailed = OptionSpec("--retry-failed", "flush: try the rows the backend refused again, too.")
        static let generation = OptionSpec(
            "--protocol auto|2|3",
            "flush: the tables protocol generation (else $FARO_BACKEND_PROTOCOL, else the backend-protocol "
                + "setting).")
        static let all = OptionSpec("--all", "retry, move: every row instead of one ID.")
        static let declared = [json, timeout, backend, retryFailed, generation, all]
    }

    static let help = CommandHelp(
        name: "outbox",
        synopsis: [
            "faro outbox [--json]",
            "faro outbox flush [--timeout SECONDS] [--backend URL] [--protocol auto|2|3] [--retry-failed]",
            "faro outbox retry ID|--all",
            "faro outbox discard ID",
            "faro outbox move ID|--all [--backend URL]",
        ],
        summary: "List the submissions waiting for the backend, or deliver them now.",
        description: """
            Everything sent to the backend (registrations, contact details, ratings) is first committed to a local \
            outbox and delivered when the backend is reachable, so nothing is lost offline. 'faro outbox' lists the \
            rows still pending and those the backend refused; 'faro outbox flush' delivers now and exits with 0 when \
            nothing is left pending, 1 with the reason otherwise. 'retry' makes a pending or refused row due again \
            (--all: every one), 'discard' deletes one row for good, and 'move' gives a row queued for another \
            backend to this one. Rows are never dropped unless the user says so.
            """,
        options: Option.declared,
        actions: ["flush", "retry", "discard", "move"],
        examples: [
            ExampleHelp(
                "faro outbox flush --backend https://faro.azurewebsites.net --timeout 60",
                "Delivers every pending row, or says after a minute why some could not be.")
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let json = args.flag(Option.json)
        let retryFailed = args.flag(Option.retryFailed)
        let all = args.flag(Option.all)
        let timeout = try args.number(Option.timeout)
        let backend = try args.option(Option.backend)
        let generation = try args.option(Option.generation)
        let action = try? args.positional("action")
        var target: String?
        if ["retry", "discard", "move"].contains(action ?? ""), !all { target = try args.positional("row ID") }
        try args.finish()
        if action != "flush", retryFailed || timeout != nil {
            throw UsageError(description: "--timeout and --retry-failed go with 'faro outbox flush'")
        }
        if action != nil, json { throw UsageError(description: "--json goes with 'faro outbox' alone") }
        if let generation {
            guard action == "flush" else { throw UsageError(description: "--protocol goes with 'faro outbox flush'") }
            guard BackendProtocolSetting(generation) != nil else {
                throw UsageError(description: "--protocol must be \(BackendProtocolSetting.expected)")
            }
        }
        if all, !["retry", "move"].contains(action ?? "") {
            throw UsageError(description: "--all goes with 'faro outbox retry' or 'faro outbox move'")
        }
        switch action {
        case nil:
            if backend != nil { throw UsageError(description: "--backend goes with 'flush' or 'move'") }
            try list(json: json)
            return 0
        case "flush":
            return try flush(
                timeout: timeout ?? 30, backend: backend, retryFailed: retryFailed, protocolOption: generation)
        case "retry":
            if backend != nil { throw UsageError(description: "--backend goes with 'flush' or 'move'") }
            return try retry(target)
        case "discard":
            if backend != nil { throw UsageError(description: "--backend goes with 'flush' or 'move'") }
            return try discard(target ?? "")
        case "move":
            return try move(target, backend: backend)
        case let other?:
            throw UsageError(
                description: "unknown outbox action '\(other)' (use flush, retry, discard or move, or nothing)")
        }
    }

    static func list(json: Bool) throws {
        let database = try OutboxStoreAccess.open()
        let counts: OutboxCounts
        let rows: [OutboxRow]
        do {
            counts = try database.outbox.counts()
            rows = try database.outbox.list(states: [.pending, .failed])
        } catch {
            throw CommandFailure(description: error.description)
        }
        if json {
            let items = rows.map { r in
                JSONValue.object([
                    ("id", .string(r.id)), ("table", .string(r.table.rawValue)), ("state", .string(r.state.rawValue)),
                    ("attempts", .integer(Int64(r.attempts))),
                    ("created_at", .string(Fechahora.format(secondsSince1970: r.createdAt))),
                    ("last_error", .string(r.lastError)), ("backend", .string(r.backend)),
                ])
            }
            Output.line(
                JSONValue.object([
                    ("pending", .integer(Int64(counts.pending))), ("failed", .integer(Int64(counts.failed))),
                    ("rows", .array(items)),
                ]).spaced)
            return
        }
        Output.line("pending: \(counts.pending)  failed: \(counts.failed)  delivered: \(counts.delivered)")
        for r in rows {
            let when = Fechahora.format(secondsSince1970: r.createdAt)
            Output.line(
                "\(r.id)  \(r.table.rawValue)  \(r.state.rawValue)  \(when)  attempts=\(r.attempts)"
                    + "  backend=\(r.backend ?? "any")" + (r.lastError.map { "  \($0)" } ?? ""))
        }
    }

    static func flush(timeout: Double, backend: String?, retryFailed: Bool, protocolOption: String? = nil) throws
        -> Int32
    {
        let database = try OutboxStoreAccess.open()
        let configuration = try BackendSettings.required(
            option: backend, database: database, protocolOption: protocolOption)
        let clock = SystemOutboxClock()
        do {
            // "Deliver now": every pending row is due at once (and refused ones too with --retry-failed).
            try database.outbox.retryNow(now: clock.now(), includingFailed: retryFailed)
        } catch {
            throw CommandFailure(description: error.description)
        }
        CurlRuntime.initialize()
        let deliverer = OutboxDeliverer(
            databasePath: database.path, configuration: configuration,
            schedule: .interactive, clock: clock, idleRecheck: 1,
            policy: OutboxRetryPolicy(environment: ProcessInfo.processInfo.environment))
        deliverer.start()
        let status = deliverer.waitUntilDrained(timeout: timeout)
        deliverer.stop(timeout: 10)
        let counts: OutboxCounts
        let pendingHere: Int
        let elsewhere: [OutboxRow]
        do {
            counts = try database.outbox.counts()
            pendingHere = try database.outbox.pendingCount(backend: configuration.baseURL)
            elsewhere = try database.outbox.queuedElsewhere(than: configuration.baseURL)
        } catch {
            throw CommandFailure(description: error.description)
        }
        if counts.failed > 0 {
            Output.error(
                "faro: \(counts.failed) row(s) were refused by the backend and kept; see 'faro outbox' "
                    + "(retry them with 'faro outbox retry ID|--all')")
        }
        if let refused = status?.keyRefused, pendingHere > 0 {
            throw CommandFailure(description: "\(pendingHere) row(s) kept pending: \(refused)")
        }
        guard pendingHere == 0 else {
            let reason = status?.lastProblem ?? "the backend did not answer in time"
            throw CommandFailure(
                description:
                    "\(pendingHere) row(s) still pending after \(String(cFormat: "%.1f", timeout)) s: \(reason)")
        }
        if !elsewhere.isEmpty {
            let others = Set(elsewhere.compactMap(\.backend)).sorted().joined(separator: ", ")
            throw CommandFailure(
                description: "\(elsewhere.count) row(s) wait for another backend (\(others)): "
                    + "'faro outbox move ID|--all' sends them to \(configuration.baseURL), "
                    + "'faro outbox discard ID' drops one")
        }
        Output.line("delivered: \(counts.delivered)  pending: 0  failed: \(counts.failed)")
        return 0
    }

    static func retry(_ id: String?) throws -> Int32 {
        let database = try OutboxStoreAccess.open()
        let now = SystemOutboxClock().now()
        do {
            if let id {
                guard try database.outbox.retry(id: id, now: now) else {
                    throw CommandFailure(description: "no pending or failed row with id \(id); see 'faro outbox'")
                }
                Output.line("queued again: \(id)")
            } else {
                let n = try database.outbox.retryAll(now: now)
                Output.line("queued again: \(n) row(s)")
            }
        } catch let error as StoreError {
            throw CommandFailure(description: error.description)
        }
        Output.error("faro: 'faro outbox flush' delivers them now (so does the running window)")
        return 0
    }

    static func discard(_ id: String) throws -> Int32 {
        let database = try OutboxStoreAccess.open()
        do {
            guard try database.outbox.discard(id: id) else {
                throw CommandFailure(
                    description: "no pending or failed row with id \(id) (delivered rows stay); see 'faro outbox'")
            }
        } catch let error as StoreError {
            throw CommandFailure(description: error.description)
        }
        Output.line("discarded: \(id)")
        return 0
    }

    static func move(_ id: String?, backend: String?) throws -> Int32 {
        let database = try OutboxStoreAccess.open()
        let configuration = try BackendSettings.required(option: backend, database: database, readAppKey: false)
        let now = SystemOutboxClock().now()
        do {
            if let id {
                guard try database.outbox.move(id: id, to: configuration.baseURL, now: now) else {
                    throw CommandFailure(description: "no pending or failed row with id \(id); see 'faro outbox'")
                }
                Output.line("queued for \(configuration.baseURL): \(id)")
            } else {
                let n = try database.outbox.moveAll(to: configuration.baseURL, now: now)
                Output.line("queued for \(configuration.baseURL): \(n) row(s)")
            }
        } catch let error as StoreError {
            throw CommandFailure(description: error.description)
        }
        return 0
    }
}
