import FaroCommandLine
import Testing

/// The one parser of faro and faro-backend: options in both spellings, flags, numbers in range, positional values
/// (also after `--`), and nothing left over.
@Suite("Arguments")
struct ArgumentsTests {
    @Test func optionsInBothSpellings() throws {
        var args = Arguments(["--port", "8080", "--data=/srv/faro", "--json"])
        #expect(try args.option("--port") == "8080")
        #expect(try args.option("--data") == "/srv/faro")
        #expect(try args.option("--backend") == nil)
        let first = args.flag("--json")
        let second = args.flag("--json")
        #expect(first && !second)
        try args.finish()
    }

    @Test func anOptionWithoutItsValueIsAUsageError() {
        var args = Arguments(["--port"])
        #expect(throws: UsageError(description: "--port needs a value")) { try args.option("--port") }
    }

    @Test func numbersAreCheckedAgainstTheirRange() throws {
        var args = Arguments(["--fail-rate", "0.25", "--drop-rate", "2", "--seed", "x"])
        #expect(try args.number("--fail-rate", in: 0...1) == 0.25)
        #expect(throws: UsageError(description: "--drop-rate must be a number from 0.0 to 1.0")) {
            try args.number("--drop-rate", in: 0...1)
        }
        #expect(throws: UsageError.self) { try args.number("--seed", in: 0...10) }
    }

    @Test func positionalValuesAlsoAfterTheSeparator() throws {
        var args = Arguments(["--json", "first", "--", "--looks-like-an-option"])
        #expect(try args.positional("FILE") == "first")
        #expect(try args.positional("HEX") == "--looks-like-an-option")
        #expect(throws: UsageError(description: "missing URL")) { try args.positional("URL") }
    }

    @Test func whateverIsLeftIsRefused() {
        var args = Arguments(["--json", "--bogus"])
        _ = args.flag("--json")
        #expect(throws: UsageError(description: "unexpected argument '--bogus'")) { try args.finish() }
    }

    @Test func helpIsSeenOnlyBeforeTheSeparator() {
        #expect(Arguments(["--nombre", "x", "--help"]).contains("--help"))
        #expect(!Arguments(["decode", "--", "--help"]).contains("--help"))
    }
}
