import Dispatch
import FaroBackend
import FaroCommandLine
import FaroSettings
import FoundationEssentials
import Glibc

/// The `faro` command: the window when called without a command, the terminal front end with one.

/// One command of `faro`: its help (with the options it declares) and what runs it, given its words read against
/// those options.
struct Subcommand {
    let help: CommandHelp
    let run: @MainActor (Arguments) throws -> Int32
}

/// Every command, in the order `faro --help` lists them.
let subcommands: [Subcommand] = [
    Subcommand(help: DecodeCommand.help, run: DecodeCommand.run),
    Subcommand(help: RangeCommand.help, run: RangeCommand.run),
    Subcommand(help: ScanCommand.help, run: ScanCommand.run),
    Subcommand(help: CalibrateCommand.help, run: CalibrateCommand.run),
    Subcommand(help: VisitsCommand.help, run: VisitsCommand.run),
    Subcommand(help: MutedCommand.help, run: MutedCommand.run),
    Subcommand(help: RegisterCommand.help, run: RegisterCommand.run),
    Subcommand(help: OutboxCommand.help, run: OutboxCommand.run),
    Subcommand(help: CatalogCommand.help, run: CatalogCommand.run),
    Subcommand(help: PageCommand.help, run: PageCommand.run),
    Subcommand(help: SaveCommand.help, run: SaveCommand.run),
    Subcommand(help: ShowCommand.help, run: ShowCommand.run),
    Subcommand(help: ShareCommand.help, run: ShareCommand.run),
    Subcommand(help: AppKeyCommand.help, run: AppKeyCommand.run),
]

let program = ProgramText.program(commands: subcommands.map(\.help))

/// What `faro --help` adds about this machine: where the app key is kept, where the settings are.
func machineNotes() -> [String] {
    let schema = InstalledAppID.resolve()
    return [
        AppKeyStore.standard().summary,
        "Settings (backend URL, table names, monitoring, periods) are in the GSettings schema "
            + "\(schema): 'gsettings list-recursively \(schema)' shows them.",
    ]
}

/// A usage error with the help of the command it happened in (nil: no command was recognised).
struct UsageMistake: Error {
    let error: UsageError
    let help: CommandHelp?
}

/// Runs `body` for the command `help`: a usage error in it comes out with that command's usage.
@MainActor
func within(_ help: CommandHelp?, _ body: () throws -> Int32) throws -> Int32 {
    do { return try body() } catch let error as UsageError { throw UsageMistake(error: error, help: help) }
}

@MainActor
func dispatch(_ words: [String]) throws -> Int32 {
    let hasDisplay =
        !(ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty
        || !(ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    guard let command = words.first else {
        if hasDisplay { return try GUICommand.run(Arguments([], declared: ProgramText.window.options)) }
        Output.line(program.overview(notes: machineNotes()))
        return 0
    }
    switch command {
    case "--version":
        Output.line(program.versionLine)
        return 0
    case "--help", "-h":
        Output.line(program.overview(notes: machineNotes()))
        return 0
    case "help":
        return try within(ProgramText.help) {
            try help(Arguments(words.dropFirst(), declared: ProgramText.help.options), words: words.dropFirst())
        }
    default:
        break
    }
    if command.hasPrefix("--") {
        if Arguments.contains("--help", in: words) || Arguments.contains("-h", in: words) {
            Output.line(ProgramText.window.text())
            return 0
        }
        return try within(ProgramText.window) {
            try GUICommand.run(Arguments(words, declared: ProgramText.window.options))
        }
    }
    guard let subcommand = subcommands.first(where: { $0.help.name == command }) else {
        throw UsageMistake(error: UsageError(description: "unknown command '\(command)'"), help: nil)
    }
    let rest = words.dropFirst()
    if Arguments.contains("--help", in: rest) || Arguments.contains("-h", in: rest) {
        Output.line(subcommand.help.text())
        return 0
    }
    return try within(subcommand.help) {
        try subcommand.run(Arguments(rest, declared: subcommand.help.options))
    }
}

/// `faro help [COMMAND] | --man | --bash-completion`.
func help(_ arguments: Arguments, words: ArraySlice<String>) throws -> Int32 {
    var args = arguments
    if Arguments.contains("--help", in: words) || Arguments.contains("-h", in: words) {
        Output.line(ProgramText.help.text())
        return 0
    }
    let man = args.flag(ProgramText.HelpOption.man)
    let completion = args.flag(ProgramText.HelpOption.bashCompletion)
    let name = try? args.positional("COMMAND")
    try args.finish()
    if man {
        Output.line(ManPage.render(program))
    } else if completion {
        Output.line(BashCompletion.render(program))
    } else if let name {
        guard let command = program.command(name) else { throw UsageError(description: "unknown command '\(name)'") }
        Output.line(command.text())
    } else {
        Output.line(program.overview(notes: machineNotes()))
    }
    return 0
}

// One binary for both commands: the installed faro-backend is a link to faro, and the name it is started by chooses
// the command (files are found from /proc/self/exe, never from that name).
if CommandLine.arguments.first.map({ $0.split(separator: "/").last == "faro-backend" }) == true {
    BackendMain.run(arguments: Array(CommandLine.arguments.dropFirst()))
}

do {
    exit(try dispatch(Array(CommandLine.arguments.dropFirst())))
} catch let failure as CommandFailure {
    Output.error("faro: \(failure)")
    exit(1)
} catch let mistake as UsageMistake {
    if let help = mistake.help {
        let more = help.name.isEmpty ? "faro --help" : "faro help \(help.name)"
        Output.error(
            "faro: \(mistake.error)\nUsage: \(help.synopsis.joined(separator: "\n       "))\nRun '\(more)' for more.")
    } else {
        Output.error("faro: \(mistake.error)\nRun 'faro --help' for the commands.")
    }
    exit(2)
} catch let mistake as UsageError {
    Output.error("faro: \(mistake)\nRun 'faro --help' for the commands.")
    exit(2)
} catch {
    Output.error("faro: \(error)")
    exit(1)
}
