import FaroCore

/// Writing to stdout and stderr unbuffered: every line is one write, so a pipe reader (or a test) sees each tick
/// as it happens.
public enum Output {
    public static func line(_ text: String) {
        StandardStreams.writeOutput(text + "\n")
    }

    public static func error(_ text: String) {
        StandardStreams.writeError(text + "\n")
    }
}

/// A failure the user can act on: one line on stderr, exit status 1.
public struct CommandFailure: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}
