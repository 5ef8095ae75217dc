/// One row of a help text's table (an option, an environment variable, a file, a command): how it is written and what it does.
public struct OptionHelp: Sendable, Equatable {
    /// As typed: `--kind ad|msd|hci`, `-o FILE.mht`, `--json`, `FARO_BACKEND`.
    public var form: String
    public var text: String

    public init(_ form: String, _ text: String) {
        self.form = form
        self.text = text
    }

    /// The option's names (`--kind`; `-o` and `--output` for `-o, --output FILE`), for shell completion.
    public var names: [String] {
        form.split(separator: " ").map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }
            .prefix { $0.hasPrefix("-") }
    }

    /// What follows the names (`ad|msd|hci`, `FILE.mht`, `N`), or nil for a flag.
    public var placeholder: String? {
        let words = form.split(separator: " ").drop { $0.hasPrefix("-") }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}

/// One example in a help text: a command line and what it does.
public struct ExampleHelp: Sendable, Equatable {
    public var command: String
    public var text: String

    public init(_ command: String, _ text: String) {
        self.command = command
        self.text = text
    }
}

/// The help of one command: what `faro CMD --help`, `faro help CMD` and the command's part of the manual page say,
/// from this one value so that they cannot drift apart.
public struct CommandHelp: Sendable, Equatable {
    /// The command word (`decode`), or "" for the program run without one (the window).
    public var name: String
    /// The usage lines, each a whole command line: `faro decode [--kind ad|msd|hci] HEX`.
    public var synopsis: [String]
    /// One line for the program's list of commands.
    public var summary: String
    /// What the command does; paragraphs separated by a blank line.
    public var description: String
    /// The command's options, declared once: its parser reads them (`Arguments`), and its help, its part of the
    /// manual page and its completion list them.
    public var options: [OptionSpec]
    /// Words that may follow the command (`flush` after `outbox`), for shell completion.
    public var actions: [String]
    public var examples: [ExampleHelp]

    public init(
        name: String, synopsis: [String], summary: String, description: String, options: [OptionSpec] = [],
        actions: [String] = [], examples: [ExampleHelp]
    ) {
        self.name = name
        self.synopsis = synopsis
        self.summary = summary
        self.description = description
        self.options = options
        self.actions = actions
        self.examples = examples
    }

    /// The option every command takes.
    public static let helpOption = OptionSpec("-h, --help", "Show this help and exit.")

    /// The options the help lists, as its rows.
    public var listed: [OptionHelp] { options.filter(\.listed).map(\.help) }

    /// The text `faro CMD --help` prints; `extra` options are listed after the command's own (and `--help`).
    public func text(width: Int = 80, extra: [OptionSpec] = []) -> String {
        var lines = ["Usage: " + synopsis.joined(separator: "\n       "), ""]
        for paragraph in description.paragraphs {
            lines += TextWrap.wrap(paragraph, width: width)
            lines.append("")
        }
        lines.append("Options:")
        let rows = listed + ([Self.helpOption] + extra.filter { $0 != Self.helpOption }).map(\.help)
        lines += TextWrap.table(rows, width: width)
        lines.append("")
        lines.append(examples.count == 1 ? "Example:" : "Examples:")
        for example in examples {
            lines.append("  $ " + example.command)
            lines += TextWrap.wrap(example.text, width: width, indent: 4)
        }
        return lines.joined(separator: "\n")
    }
}

/// A whole program's help: `faro --help`, the manual page and the shell completion are all made from it.
public struct ProgramHelp: Sendable, Equatable {
    public var name: String
    public var version: String
    /// The NAME line of the manual page: what the program is, in a few words.
    public var summary: String
    public var description: String
    /// The program's commands, the program run without a command first when it has such a form.
    public var commands: [CommandHelp]
    /// Options that work on their own (`--help`, `--version`).
    public var options: [OptionSpec]
    public var environment: [OptionHelp]
    public var files: [OptionHelp]
    public var exitStatus: String
    public var seeAlso: [String]

    public init(
        name: String, version: String, summary: String, description: String, commands: [CommandHelp],
        options: [OptionSpec], environment: [OptionHelp] = [], files: [OptionHelp] = [], exitStatus: String,
        seeAlso: [String] = []
    ) {
        self.name = name
        self.version = version
        self.summary = summary
        self.description = description
        self.commands = commands
        self.options = options
        self.environment = environment
        self.files = files
        self.exitStatus = exitStatus
        self.seeAlso = seeAlso
    }

    /// `NAME VERSION`, what `--version` prints.
    public var versionLine: String { "\(name) \(version)" }

    /// The command called `name`, if there is one.
    public func command(_ name: String) -> CommandHelp? { commands.first { $0.name == name && !name.isEmpty } }

    /// The text `faro --help` prints: every usage line, the commands in a line each, and `notes` (facts of this
    /// machine, such as where the app key is kept) before the exit status.
    public func overview(notes: [String] = [], width: Int = 80) -> String {
        var lines = ["\(versionLine): \(summary).", "", "Usage:"]
        for command in commands {
            lines += command.synopsis.map { "  " + $0 }
        }
        lines.append("")
        let named = commands.filter { !$0.name.isEmpty }
        if !named.isEmpty {
            lines.append("Commands:")
            lines += TextWrap.table(named.map { OptionHelp($0.name, $0.summary) }, width: width)
            lines.append("")
            lines += TextWrap.wrap(
                "Run '\(name) help COMMAND' or '\(name) COMMAND --help' for a command's options and an example; "
                    + "'man \(name)' for the whole manual.", width: width)
            lines.append("")
        }
        lines.append("Options:")
        lines += TextWrap.table(options.map(\.help), width: width)
        for note in notes {
            lines.append("")
            lines += TextWrap.wrap(note, width: width)
        }
        lines.append("")
        lines += TextWrap.wrap("Exit status: " + exitStatus, width: width)
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The text's paragraphs: parts separated by a blank line, each with its line breaks turned into spaces.
    var paragraphs: [String] {
        split(separator: "\n\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "\n").joined(separator: " ")
        }
    }
}
