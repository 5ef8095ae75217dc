/// A usage mistake on the command line: the program prints it with the command's usage and exits with status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible, Sendable {
    public var description: String

    public init(description: String) { self.description = description }
}

/// The words after a program or subcommand name: options (`--name value`, `--name=value`, flags) and positional
/// values, taken out one by one by the command that knows them; `finish()` then rejects whatever is left, so a typo
/// never passes silently. `faro` and `faro-backend` both parse with it.
public struct Arguments: Sendable {
    private var words: [String]
    /// Every option name the command asked for so far (`flag`, `option`, `number`), whether it was given or not:
    /// what the command accepts, for tests that hold its help to it.
    public private(set) var asked: [String] = []

    public init(_ words: some Sequence<String>) { self.words = Array(words) }

    /// Whether `name` (for example `--help`) is among the words before a `--` separator, without removing it.
    public func contains(_ name: String) -> Bool {
        let options = words.firstIndex(of: "--").map { words[..<$0] } ?? words[...]
        return options.contains(name)
    }

    /// Removes a flag (`--json`) and says whether it was there.
    public mutating func flag(_ name: String) -> Bool {
        asked.append(name)
        guard let i = words.firstIndex(of: name) else { return false }
        words.remove(at: i)
        return true
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns the value.
    public mutating func option(_ name: String) throws(UsageError) -> String? {
        asked.append(name)
        if let i = words.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(words[i].dropFirst(name.count + 1))
            words.remove(at: i)
            return value
        }
        guard let i = words.firstIndex(of: name) else { return nil }
        guard i + 1 < words.count else { throw UsageError(description: "\(name) needs a value") }
        let value = words[i + 1]
        words.removeSubrange(i...(i + 1))
        return value
    }

    /// A number option, checked to lie in `range`.
    public mutating func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(text), range.contains(value) else {
            throw UsageError(description: "\(name) must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Removes and returns the next positional value.
    public mutating func positional(_ what: String) throws(UsageError) -> String {
        guard let i = words.firstIndex(where: { !$0.hasPrefix("--") || $0 == "--" }) else {
            throw UsageError(description: "missing \(what)")
        }
        if words[i] == "--" {
            guard i + 1 < words.count else { throw UsageError(description: "missing \(what)") }
            words.remove(at: i)
        }
        return words.remove(at: i)
    }

    /// Fails on anything left over, so a typo never passes silently.
    public func finish() throws(UsageError) {
        if let extra = words.first { throw UsageError(description: "unexpected argument '\(extra)'") }
    }
}
