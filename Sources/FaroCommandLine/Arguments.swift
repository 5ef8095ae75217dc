/// A usage mistake on the command line: the program prints it with the command's usage and exits with status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible, Sendable {
    public var description: String

    public init(description: String) { self.description = description }
}

/// One option of a command, declared once: how it is written (`--kind ad|msd|hci`, `-o, --output FILE.mht`,
/// `--json`), what its help says and, for a number, the range it must lie in. The parser (`Arguments`), `--help`,
/// the manual page and the bash completion all read this one value. A form without a leading `-` (`URL`, `HEX`)
/// is a positional value, listed in the help and taken with `Arguments.positional`.
public struct OptionSpec: Sendable, Equatable {
    /// As typed: the names, then the placeholder of the value (none for a flag).
    public var form: String
    public var text: String
    /// A number option's range (`Arguments.number` checks it).
    public var range: ClosedRange<Double>?
    /// false: parsed but left out of the help (GLib's `--gapplication-service`, for D-Bus activation only).
    public var listed: Bool

    public init(_ form: String, _ text: String, range: ClosedRange<Double>? = nil, listed: Bool = true) {
        self.form = form
        self.text = text
        self.range = range
        self.listed = listed
    }

    /// The option's names: `--kind`; `-o` and `--output` for `-o, --output FILE`; none for a positional value.
    public var names: [String] { help.names }
    /// What follows the names (`ad|msd|hci`, `FILE.mht`, `N`), or nil for a flag.
    public var placeholder: String? { help.placeholder }
    /// The row the help texts print.
    public var help: OptionHelp { OptionHelp(form, text) }
}

/// The words after a program or subcommand name, read against the command's declared options (`OptionSpec`):
/// `--name VALUE` and `--name=VALUE` for an option with a value, `--name` for a flag, any other word not starting
/// with `--` (and every word after `--`) positional. The command takes out what it uses; `finish()` then refuses whatever is left (an
/// undeclared option, one given twice, one the command did not use in this form, an extra positional value), so a
/// typo never passes silently. `faro`, `faro-backend` and `faro-bench` all parse with it.
public struct Arguments: Sendable {
    /// One word (or `--name VALUE` pair) as given, in order.
    struct Word: Sendable {
        /// As typed, for messages: `--backend`, `--backend=URL`, `FILE`.
        var text: String
        /// The declared option it is (index into `declared`), nil for a positional value or an undeclared option.
        var option: Int?
        var value: String?
        /// The option's name as typed (`-o` or `--output`).
        var name: String
        /// After `--`: positional whatever it looks like.
        var literal = false
        var used = false
    }

    private let declared: [OptionSpec]
    private var words: [Word] = []

    /// Reads `words` against `declared`. Nothing is refused here: a missing value is refused when the command asks
    /// for that option, everything else by `finish()`.
    public init(_ words: some Sequence<String>, declared: [OptionSpec]) {
        self.declared = declared
        var byName: [String: Int] = [:]
        for (index, spec) in declared.enumerated() {
            for name in spec.names { byName[name] = index }
        }
        var rest = Array(words)[...]
        while let word = rest.popFirst() {
            if word == "--" {
                self.words += rest.map { Word(text: $0, name: "", literal: true) }
                break
            }
            let (name, inline) = Self.split(word)
            guard let index = byName[name] else {
                self.words.append(Word(text: word, name: ""))
                continue
            }
            if declared[index].placeholder == nil {
                // A flag takes no value: `--json=1` is no flag.
                self.words.append(Word(text: word, option: inline == nil ? index : nil, name: name))
            } else if let inline {
                self.words.append(Word(text: word, option: index, value: inline, name: name))
            } else {
                self.words.append(Word(text: word, option: index, value: rest.popFirst(), name: name))
            }
        }
    }

    /// `--name=value` as `(--name, value)`; any other word as itself and nil.
    static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("-"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// Whether `name` (for example `--help`) is among `words` before a `--` separator, read before any command
    /// parses them.
    public static func contains(_ name: String, in words: some Sequence<String>) -> Bool {
        for word in words {
            if word == "--" { return false }
            if word == name { return true }
        }
        return false
    }

    /// The first unused occurrence of `spec`, now used. A command asks only for options it declares (checked in
    /// debug builds: the tests run those).
    private mutating func take(_ spec: OptionSpec) -> Word? {
        assert(declared.contains(spec), "\(spec.form) is not among the options the command declares")
        guard let index = declared.firstIndex(of: spec),
            let i = words.firstIndex(where: { $0.option == index && !$0.used })
        else { return nil }
        words[i].used = true
        return words[i]
    }

    /// Whether the flag was given (taking it out).
    public mutating func flag(_ spec: OptionSpec) -> Bool {
        take(spec) != nil
    }

    /// The option's value, or nil when it was not given; given without a value is a usage error.
    public mutating func option(_ spec: OptionSpec) throws(UsageError) -> String? {
        guard let word = take(spec) else { return nil }
        guard let value = word.value else { throw UsageError(description: "\(word.name) needs a value") }
        return value
    }

    /// Every value of an option that may be given more than once, in order.
    public mutating func options(_ spec: OptionSpec) throws(UsageError) -> [String] {
        var values: [String] = []
        while let value = try option(spec) { values.append(value) }
        return values
    }

    /// A number option, checked to lie in its declared range (or in `narrower`, where one use of it allows less).
    public mutating func number(_ spec: OptionSpec, in narrower: ClosedRange<Double>? = nil) throws(UsageError)
        -> Double?
    {
        guard let word = take(spec) else { return nil }
        guard let text = word.value else { throw UsageError(description: "\(word.name) needs a value") }
        let range = narrower ?? spec.range ?? -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
        guard let value = Double(text), range.contains(value) else {
            throw UsageError(
                description: "\(word.name) must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Takes the next positional value; `what` names it when it is missing.
    public mutating func positional(_ what: String) throws(UsageError) -> String {
        guard
            let i = words.firstIndex(where: { $0.option == nil && !$0.used && ($0.literal || !$0.text.hasPrefix("--")) }
            )
        else { throw UsageError(description: "missing \(what)") }
        words[i].used = true
        return words[i].text
    }

    /// Whether a positional value equal to `word` is left (an action such as `clear`), without taking it.
    public func hasPositional(_ word: String) -> Bool {
        words.contains { $0.option == nil && !$0.used && $0.text == word }
    }

    /// Refuses the first word left over, so a typo never passes silently.
    public func finish() throws(UsageError) {
        if let extra = words.first(where: { !$0.used }) {
            throw UsageError(description: "unexpected argument '\(extra.text)'")
        }
    }
}
