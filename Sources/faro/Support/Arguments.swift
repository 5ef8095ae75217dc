/// A usage mistake on the command line: printed with the command's usage, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
}

/// A failure the user can act on: one line on stderr, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}

/// The words after a subcommand: options (`--name value`, `--name=value`, flags) and positional values.
struct Arguments {
    private var words: [String]

    init(_ words: some Sequence<String>) { self.words = Array(words) }

    /// Removes a flag (`--json`) and says whether it was there.
    mutating func flag(_ name: String) -> Bool {
        guard let i = words.firstIndex(of: name) else { return false }
        words.remove(at: i)
        return true
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns the value.
    mutating func option(_ name: String) throws(UsageError) -> String? {
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
    mutating func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(text), range.contains(value) else {
            throw UsageError(description: "\(name) must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Removes and returns the next positional value.
    mutating func positional(_ what: String) throws(UsageError) -> String {
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
    func finish() throws(UsageError) {
        if let extra = words.first { throw UsageError(description: "unexpected argument '\(extra)'") }
    }
}
