import FaroApp
import FaroCore
import FaroStore
import FoundationEssentials
import Glibc

/// `faro visits [--json] [--since YYYY-MM-DD]` and `faro visits clear`: "Lugares visitados" from the terminal
/// (docs/visits.md).
enum VisitsCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let json = OptionSpec(
            "--json", "One JSON object per visit: {entered, left, place, business, url, beacon, closest_m}.")
        static let since = OptionSpec("--since YYYY-MM-DD", "Only visits entered on or after that day (UTC).")
        static let declared = [json, since]
    }

    static let help = CommandHelp(
        name: "visits",
        synopsis: ["faro visits [--json] [--since YYYY-MM-DD]", "faro visits clear"],
        summary: "List the catalogued places you entered, or clear that history.",
        description: """
            Every zone entry of a catalogued place is kept in the profile database, on this device only: the \
            place, its site, when you entered and left, and the closest distance. This lists them newest first, \
            with times in UTC (ISO 8601). Visits older than the retention setting (visits-retention-days, 30 by \
            default) are deleted. 'faro visits clear' deletes them all.
            """,
        options: Option.declared,
        examples: [ExampleHelp("faro visits --since 2026-12-01", "The visits since the first of December.")])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let clear = args.hasPositional("clear") ? (try args.positional("clear")) == "clear" : false
        let json = args.flag(Option.json)
        let sinceText = try args.option(Option.since)
        try args.finish()
        let since = try sinceText.map { text throws(UsageError) -> Double in
            guard let day = VisitsCommand.day(text) else {
                throw UsageError(description: "--since must be a date like 2026-12-01, not '\(text)'")
            }
            return day
        }
        let database: FaroDatabase
        do { database = try FaroDatabase(path: FaroDatabase.defaultPath()) } catch {
            throw CommandFailure(description: error.description)
        }
        // Retention first: what is older than the setting is gone before anything is listed.
        if case .success(let settings) = SettingsAccess.open(database: database, only: []) {
            VisitRetention.apply(settings: settings, to: database, now: Date().timeIntervalSince1970)
        }
        do {
            if clear {
                let n = try database.visits.clear()
                Output.line(n == 1 ? "1 visit deleted." : "\(n) visits deleted.")
                return 0
            }
            for visit in try database.visits.list(since: since, limit: Int.max) {
                Output.line(json ? VisitsCommand.json(visit) : VisitsCommand.text(visit))
            }
        } catch { throw CommandFailure(description: error.description) }
        return 0
    }

    /// Midnight UTC of `YYYY-MM-DD`, in seconds since 1970; nil when it is not such a date.
    static func day(_ text: String) -> Double? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m),
            (1...31).contains(d)
        else { return nil }
        return Double(CivilDate(year: Int64(y), month: Int64(m), day: Int64(d)).daysSince1970) * 86_400
    }

    static func json(_ v: VisitRepository.Visit) -> String {
        JSONValue.object([
            ("entered", .string(Fechahora.format(secondsSince1970: v.enteredAt))),
            ("left", v.leftAt.map { .string(Fechahora.format(secondsSince1970: $0)) } ?? .null),
            ("place", .string(v.title)), ("business", .string(v.business)), ("url", .string(v.url)),
            ("beacon", .string(v.identity.colonSeparated)),
            ("closest_m", v.closest.map { JSONValue.rounded($0, decimals: 2) } ?? .null),
        ]).spaced
    }

    static func text(_ v: VisitRepository.Visit) -> String {
        let left = v.leftAt.map { Fechahora.format(secondsSince1970: $0) } ?? "still there"
        let closest = v.closest.map { "  " + DistanceText.oneDecimal($0) } ?? ""
        return "\(Fechahora.format(secondsSince1970: v.enteredAt)) – \(left)  \(v.title) (\(v.business))  \(v.url)"
            + closest
    }
}

/// "Conservar visitas": deletes visits entered more than `visits-retention-days` days ago (docs/visits.md).
enum VisitRetention {
    static func days(_ settings: any SettingsStore) -> Int {
        settings.string(SettingsKey.visitsRetentionDays).flatMap { Int($0) }.map { max(1, $0) } ?? 30
    }

    @discardableResult
    static func apply(settings: any SettingsStore, to database: FaroDatabase, now: Double) -> Int {
        (try? database.visits.deleteEntered(before: now - Double(days(settings)) * 86_400)) ?? 0
    }
}
