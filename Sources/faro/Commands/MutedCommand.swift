import FaroCore
import FaroStore
import FoundationEssentials

/// `faro muted [--json]`, `faro muted remove KEY` and `faro muted clear`: the places whose zone entries raise no
/// notification (docs/notifications.md), from the terminal.
enum MutedCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let json = OptionSpec("--json", "One JSON object per muted place: {key, place, business, muted}.")
        static let declared = [json]
    }

    static let help = CommandHelp(
        name: "muted",
        synopsis: ["faro muted [--json]", "faro muted remove KEY", "faro muted clear"],
        summary: "List the places you muted, or un-mute them.",
        description: """
            A muted place raises no notification when you enter it; it is still listed, ranged and kept in your \
            visits. Places are muted from a notification ("Silenciar este lugar") or from a place's page, and \
            kept in the profile database by the catalog row's id (or UUID/major/minor for a row without one). \
            This lists them, the most recently muted first: KEY, when (UTC, ISO 8601), place and business. \
            'faro muted remove KEY' un-mutes one; 'faro muted clear' un-mutes them all. A running window \
            follows at the next entry.
            """,
        options: Option.declared,
        actions: ["remove", "clear"],
        examples: [ExampleHelp("faro muted clear", "Every place notifies again.")])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let json = args.flag(Option.json)
        let verb = try? args.positional("remove or clear")
        if let verb, verb != "remove", verb != "clear" {
            throw UsageError(description: "unknown 'faro muted' command '\(verb)' (remove KEY, clear)")
        }
        let key = verb == "remove" ? try args.positional("the KEY to remove (faro muted lists them)") : nil
        try args.finish()
        let database: FaroDatabase
        do { database = try FaroDatabase(path: FaroDatabase.defaultPath()) } catch {
            throw CommandFailure(description: error.description)
        }
        do {
            switch verb {
            case "clear":
                let n = try database.mutedPlaces.clear()
                Output.line(n == 1 ? "1 place un-muted." : "\(n) places un-muted.")
            case "remove":
                guard let key, try database.mutedPlaces.unmute(key: key) else {
                    throw CommandFailure(
                        description: "no muted place has the key '\(key ?? "")' (faro muted lists them)")
                }
                Output.line("Un-muted \(key).")
            default:
                for place in try database.mutedPlaces.list() {
                    Output.line(json ? MutedCommand.json(place) : MutedCommand.text(place))
                }
            }
        } catch let error as StoreError { throw CommandFailure(description: error.description) }
        return 0
    }

    static func json(_ place: MutedPlace) -> String {
        JSONValue.object([
            ("key", .string(place.key)), ("place", .string(place.title)), ("business", .string(place.business)),
            ("muted", .string(Fechahora.format(secondsSince1970: place.mutedAt))),
        ]).spaced
    }

    static func text(_ place: MutedPlace) -> String {
        "\(place.key)  \(Fechahora.format(secondsSince1970: place.mutedAt))  \(place.title) (\(place.business))"
    }
}
