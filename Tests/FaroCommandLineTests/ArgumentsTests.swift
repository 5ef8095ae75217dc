import FaroCommandLine
import Testing

/// The one parser of faro, faro-backend and faro-bench, reading the words against the options a command declares:
/// options in both spellings, flags, numbers in their declared range, positional values (also after `--`), and
/// nothing left over: an undeclared option, one given twice, one without its value, one the command did not use.
@Suite("Arguments")
struct ArgumentsTests {
    static let port = OptionSpec("--port N", "The port.", range: 0...65535)
    static let data = OptionSpec("--data DIR", "The data.")
    static let json = OptionSpec("--json", "JSON.")
    static let output = OptionSpec("-o, --output FILE", "Where.")
    static let load = OptionSpec("--load FILE", "Repeatable.")
    static let rate = OptionSpec("--fail-rate F", "A fraction.", range: 0...1)
    static let url = OptionSpec("URL", "A positional value the help lists.")
    static let declared = [port, data, json, output, load, rate, url]

    func parse(_ words: [String]) -> Arguments { Arguments(words, declared: Self.declared) }

    @Test func optionsInBothSpellingsAndFlags() throws {
        var args = parse(["--port", "8080", "--data=/srv/faro", "--json", "-o", "x.mht"])
        #expect(try args.number(Self.port) == 8080)
        #expect(try args.option(Self.data) == "/srv/faro")
        #expect(try args.option(Self.load) == nil)
        #expect(args.flag(Self.json) == true)
        #expect(args.flag(Self.json) == false)
        #expect(try args.option(Self.output) == "x.mht")
        try args.finish()
        var long = parse(["--output=y.mht"])
        #expect(try long.option(Self.output) == "y.mht")
        try long.finish()
    }

    @Test func anUndeclaredOptionIsRefused() {
        var args = parse(["--json", "--bogus", "--port=1"])
        _ = args.flag(Self.json)
        #expect(throws: UsageError(description: "unexpected argument '--bogus'")) { try args.finish() }
        // A flag given a value is no flag.
        var valued = parse(["--json=1"])
        #expect(valued.flag(Self.json) == false)
        #expect(throws: UsageError(description: "unexpected argument '--json=1'")) { try valued.finish() }
    }

    @Test func anOptionWithoutItsValueIsRefusedWhenAskedFor() {
        var args = parse(["--data"])
        #expect(throws: UsageError(description: "--data needs a value")) { try args.option(Self.data) }
        var number = parse(["--json", "--port"])
        #expect(throws: UsageError(description: "--port needs a value")) { try number.number(Self.port) }
    }

    @Test func anOptionGivenTwiceIsRefusedUnlessTakenAsRepeatable() throws {
        var flags = parse(["--json", "--json"])
        #expect(flags.flag(Self.json) == true)
        #expect(throws: UsageError(description: "unexpected argument '--json'")) { try flags.finish() }
        var values = parse(["--data", "a", "--data=b"])
        #expect(try values.option(Self.data) == "a")
        #expect(throws: UsageError(description: "unexpected argument '--data=b'")) { try values.finish() }
        var both = parse(["-o", "a", "--output", "b"])
        #expect(try both.option(Self.output) == "a")
        #expect(throws: UsageError(description: "unexpected argument '--output'")) { try both.finish() }
        var repeated = parse(["--load", "a", "--json", "--load=b"])
        #expect(try repeated.options(Self.load) == ["a", "b"])
        #expect(repeated.flag(Self.json) == true)
        try repeated.finish()
    }

    @Test func anOptionTheCommandDidNotUseIsRefused() {
        // Declared, given, but not asked for in this form of the command (`--adapter` with `--source hci`).
        var args = parse(["--json", "--data", "d"])
        _ = args.flag(Self.json)
        #expect(throws: UsageError(description: "unexpected argument '--data'")) { try args.finish() }
    }

    @Test func numbersAreCheckedAgainstTheirDeclaredRange() throws {
        var args = parse(["--fail-rate", "0.25", "--port", "70000"])
        #expect(try args.number(Self.rate) == 0.25)
        #expect(throws: UsageError(description: "--port must be a number from 0.0 to 65535.0")) {
            try args.number(Self.port)
        }
        var text = parse(["--fail-rate=x"])
        #expect(throws: UsageError(description: "--fail-rate must be a number from 0.0 to 1.0")) {
            try text.number(Self.rate)
        }
        var narrower = parse(["--port", "80"])
        #expect(throws: UsageError(description: "--port must be a number from 1024.0 to 65535.0")) {
            try narrower.number(Self.port, in: 1024...65535)
        }
    }

    @Test func theValueIsTheNextWordWhateverItLooksLike() throws {
        var args = parse(["--data", "--json"])
        #expect(try args.option(Self.data) == "--json")
        #expect(args.flag(Self.json) == false)
        try args.finish()
    }

    @Test func positionalValuesInOrderAlsoAfterTheSeparator() throws {
        var args = parse(["first", "--json", "-x", "--", "--looks-like-an-option", "--json"])
        #expect(args.hasPositional("first"))
        #expect(try args.positional("FILE") == "first")
        #expect(try args.positional("NAME") == "-x")
        #expect(try args.positional("HEX") == "--looks-like-an-option")
        #expect(try args.positional("MORE") == "--json")
        #expect(throws: UsageError(description: "missing URL")) { try args.positional("URL") }
        #expect(args.flag(Self.json) == true)
        try args.finish()
        var extra = parse(["a", "b"])
        _ = try extra.positional("A")
        #expect(throws: UsageError(description: "unexpected argument 'b'")) { try extra.finish() }
    }

    @Test func helpIsSeenOnlyBeforeTheSeparator() {
        #expect(Arguments.contains("--help", in: ["--nombre", "x", "--help"]))
        #expect(!Arguments.contains("--help", in: ["decode", "--", "--help"]))
    }

    @Test func aDeclarationGivesItsNamesPlaceholderAndHelpRow() {
        #expect(Self.output.names == ["-o", "--output"])
        #expect(Self.output.placeholder == "FILE")
        #expect(Self.json.placeholder == nil)
        #expect(Self.url.names.isEmpty)
        #expect(Self.port.help == OptionHelp("--port N", "The port."))
        let hidden = OptionSpec("--gapplication-service", "D-Bus activation.", listed: false)
        let command = CommandHelp(
            name: "x", synopsis: ["tool x"], summary: "", description: "", options: [Self.json, hidden], examples: [])
        #expect(command.listed == [Self.json.help])
        #expect(!command.text().contains("--gapplication-service"))
        var args = Arguments(["--gapplication-service"], declared: command.options)
        #expect(args.flag(hidden) == true)
    }
}
