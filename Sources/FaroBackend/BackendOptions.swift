import FaroCommandLine
import FaroInstall
import FoundationEssentials

/// The command line of `faro-backend` (docs/cli.md) plus its fault-injection flags, read with the same parser
/// as `faro` (`FaroCommandLine`); `help` is what `--help`, faro-backend(1) and the bash completion say.
struct BackendOptions {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let port = OptionSpec("--port N", "Port to listen on; 0 (the default) picks a free one.")
        static let database = OptionSpec(
            "--database FILE", "SQLite file for the tables (default: in memory, gone at exit).")
        static let data = OptionSpec(
            "--data DIR", "Faro's data folder (default: $FARO_DATA_DIR, /usr/share/faro or the source tree's data/).")
        static let appKey = OptionSpec(
            "--app-key KEY", "Require the header ZUMO-API-KEY: KEY on /tables (401 otherwise).")
        static let debug = OptionSpec(
            "--debug",
            "Serve /debug/..., for tests: the microsite request log (it holds cookies and device ids: never on a "
                + "shared machine), redirects, the count of accepted inserts (201) per row id and of listings per "
                + "table. Without it /debug/... answers 404 and nothing is logged.")
        static let failRate = OptionSpec(
            "--fail-rate F", "Answer this fraction of requests with 500 or 503 without doing anything.", range: 0...1)
        static let failStatus = OptionSpec(
            "--fail-status LIST", "The statuses --fail-rate picks from (default 500,503).")
        static let latencyMs = OptionSpec("--latency-ms A[:B]", "Delay every answer by A ms (or a random A to B ms).")
        static let dropRate = OptionSpec(
            "--drop-rate F",
            "Cut this fraction of insert (POST) connections in the middle of the response, after the insert "
                + "took effect (the client cannot tell whether it happened).", range: 0...1)
        static let refuseFor = OptionSpec(
            "--refuse-for S", "Stop listening for S seconds, starting right after the start-up line...",
            range: 0...86_400)
        static let refuseEvery = OptionSpec(
            "--refuse-every P",
            "...and again every P seconds. Each change prints a line: 'refusing connections' and 'listening "
                + "again on http://127.0.0.1:PORT'.", range: 0...86_400)
        static let seed = OptionSpec("--seed N", "Seed of the fault dice (default: random).")
        static let generation = OptionSpec(
            "--protocol 2|3",
            "The tables protocol generation to speak (default 2). 2: ZUMO-API-VERSION 2.0.x required, list "
                + "answers are arrays ({results, count} with $inlinecount=allpages), datetimeoffset'...' literals. "
                + "3 (as the Datasync Community Toolkit): the header is ignored, list answers are {items, count, "
                + "nextLink} with nulls present, pages capped at 100 rows, cast(...,Edm.DateTimeOffset) and bare "
                + "date literals (datetimeoffset'...' is 400), no createdAt, 410 for a soft-deleted row.")
        static let nextLink = OptionSpec(
            "--next-link query|absolute",
            "With --protocol 3: nextLink as a bare query string (the Toolkit, default) or an absolute URL "
                + "(ASP.NET Core Datasync).")
        static let timestamps = OptionSpec(
            "--timestamps ms|offset|seconds",
            "How updatedAt is written: 2026-11-29T14:03:07.123Z (default), ...07.123+00:00 (ASP.NET Core "
                + "Datasync), or whole seconds ...07Z (a clock that keeps seconds: stamps are truncated).")
        static let requestLog = OptionSpec(
            "--request-log FILE", "Write 'METHOD /tables/...?query' for every /tables request to FILE.")
        static let pageCap = OptionSpec(
            "--page-cap N",
            "List pages hold at most N rows whatever $top asks (short pages; with --protocol 3 the cap, "
                + "default 100).")
        static let ignoreTop = OptionSpec("--ignore-top", "List pages hold every matching row ($top is ignored).")
        static let failBodyContaining = OptionSpec(
            "--fail-body-containing TEXT", "Inserts whose body contains TEXT always fail with 500.")
        static let refuseListing = OptionSpec(
            "--refuse-listing TABLE", "Listing TABLE answers 403 unless it looks up one major/minor (repeatable).")
        static let load = OptionSpec(
            "--load FILE",
            "Apply FILE ({\"table\": [rows]}) to the tables at start: rows are inserted or updated (their own "
                + "updatedAt kept when given), \"deleted\": true soft-deletes (repeatable).")
        static let loadOnly = OptionSpec(
            "--load-only", "Apply --load to --database and exit (while another faro-backend serves that file).")
        static let version = OptionSpec("--version", "Show the version and exit.")
        static let man = OptionSpec("--man", "Print the manual page faro-backend(1), in roff.")
        static let bashCompletion = OptionSpec("--bash-completion", "Print the bash completion script.")
        static let declared = [
            port, database, data, appKey, debug, failRate, failStatus, latencyMs, dropRate, refuseFor, refuseEvery,
            seed, generation, nextLink, timestamps, requestLog, pageCap, ignoreTop, failBodyContaining, refuseListing,
            load, loadOnly,
        ]
    }

    static let command = CommandHelp(
        name: "",
        synopsis: [
            "faro-backend [--port N] [--database FILE] [--data DIR] [--app-key KEY] [--debug] [--fail-rate F] "
                + "[--fail-status 500,503] [--latency-ms MIN[:MAX]] [--drop-rate F] [--refuse-for SECONDS] "
                + "[--refuse-every SECONDS] [--seed N] [--page-cap N] [--ignore-top] [--fail-body-containing TEXT] "
                + "[--refuse-listing TABLE] [--load FILE [--load-only]] [--protocol 2|3] [--next-link query|absolute] "
                + "[--timestamps ms|offset|seconds] [--request-log FILE]"
        ],
        summary: "Serve the tables protocol and the demo sites on 127.0.0.1.",
        description: """
            A local stand-in for Faro's backend on 127.0.0.1, speaking tables protocol 2.0.0 (Azure Mobile Apps) or \
            3.0.0 (Datasync, with --protocol 3), with the demo catalog (table 'beacons') and the demo microsites (/sitios/<slug>/) from DIR/demo, and faults to \
            inject for tests: errors, delays, dropped and refused connections. It prints 'listening on \
            http://127.0.0.1:PORT' on stdout once it accepts connections. Faults apply to /tables requests only.
            """,
        options: Option.declared,
        examples: [
            ExampleHelp(
                "faro-backend --port 0 --fail-rate 0.3 --latency-ms 50:200",
                "Serves on a free port; three requests in ten fail, every answer takes 50 to 200 ms.")
        ])

    static let help = ProgramHelp(
        name: "faro-backend", version: FaroVersion.string,
        summary: "a local stand-in for Faro's Azure Mobile Apps backend",
        description: """
            faro-backend is what 'faro --demo' and Faro's tests talk to; a real deployment points Faro at the real \
            App Service instead.
            """,
        commands: [command],
        options: [
            CommandHelp.helpOption, Option.version, Option.man, Option.bashCompletion,
        ],
        environment: [OptionHelp("FARO_DATA_DIR", "The data folder, when --data is not given.")],
        exitStatus: "0 after a clean stop, 1 when it cannot start (one line on stderr says why), 2 usage error.",
        seeAlso: ["faro(1)"])

    /// What `--help` prints.
    static var usage: String { command.text(extra: help.options) }

    /// A command-line mistake: printed with the usage, exit status 2.
    typealias UsageError = FaroCommandLine.UsageError

    /// What to print instead of serving (`--help`, `--version`, `--man`, `--bash-completion`), if anything.
    var output: String?
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
    var debug = false
    var pageCap: Int?
    var ignoreTop = false
    var poison: String?
    var loadFiles: [String] = []
    var refuseListing: Set<String> = []
    var loadOnly = false
    var generation = 2
    var absoluteNextLinks = false
    var timestamps = TimestampStyle.milliseconds
    var requestLog: String?

    init(_ words: [String]) throws(UsageError) {
        var args = Arguments(words, declared: Self.command.options + Self.help.options)
        if args.flag(CommandHelp.helpOption) {
            output = Self.usage
        } else if args.flag(Option.version) {
            output = Self.help.versionLine
        } else if args.flag(Option.man) {
            output = ManPage.render(Self.help)
        } else if args.flag(Option.bashCompletion) {
            output = BashCompletion.render(Self.help)
        }
        if let text = try args.option(Option.port) {
            guard let p = UInt32(text), p <= 65535 else {
                throw UsageError(description: "--port must be a number from 0 to 65535")
            }
            port = p
        }
        database = try args.option(Option.database) ?? database
        dataDirectory = try args.option(Option.data)
        appKey = try args.option(Option.appKey)
        debug = args.flag(Option.debug)
        failRate = try args.number(Option.failRate) ?? failRate
        dropRate = try args.number(Option.dropRate) ?? dropRate
        if let text = try args.option(Option.failStatus) {
            let codes = text.split(separator: ",").compactMap { Int($0) }
            guard !codes.isEmpty, codes.allSatisfy({ (400...599).contains($0) }) else {
                throw UsageError(description: "--fail-status takes HTTP statuses from 400 to 599, like 500,503")
            }
            failStatuses = codes
        }
        if let text = try args.option(Option.latencyMs) {
            let parts = text.split(separator: ":").compactMap { Double($0) }
            guard (1...2).contains(parts.count), parts.allSatisfy({ $0 >= 0 && $0 <= 60_000 }),
                parts[0] <= parts[parts.count - 1]
            else {
                throw UsageError(description: "--latency-ms takes MS or MIN:MAX (0 to 60000)")
            }
            latency = parts[0]...parts[parts.count - 1]
        }
        refuseFor = try args.number(Option.refuseFor) ?? refuseFor
        refuseEvery = try args.number(Option.refuseEvery) ?? refuseEvery
        if let text = try args.option(Option.seed) {
            guard let s = UInt64(text) else { throw UsageError(description: "--seed must be a number") }
            seed = s
        }
        if let text = try args.option(Option.pageCap) {
            guard let n = Int(text), n >= 1 else {
                throw UsageError(description: "--page-cap must be a whole number from 1")
            }
            pageCap = n
        }
        ignoreTop = args.flag(Option.ignoreTop)
        poison = try args.option(Option.failBodyContaining)
        refuseListing = Set(try args.options(Option.refuseListing))
        loadFiles = try args.options(Option.load)
        loadOnly = args.flag(Option.loadOnly)
        if let text = try args.option(Option.generation) {
            guard let n = Int(text), n == 2 || n == 3 else {
                throw UsageError(description: "--protocol must be 2 or 3")
            }
            generation = n
        }
        if let text = try args.option(Option.nextLink) {
            guard text == "query" || text == "absolute" else {
                throw UsageError(description: "--next-link must be query or absolute")
            }
            absoluteNextLinks = text == "absolute"
        }
        if let text = try args.option(Option.timestamps) {
            guard let style = TimestampStyle(rawValue: text) else {
                throw UsageError(description: "--timestamps must be ms, offset or seconds")
            }
            timestamps = style
        }
        requestLog = try args.option(Option.requestLog)
        try args.finish()
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
