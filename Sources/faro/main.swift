import Foundation

/// The `faro` command: the terminal front end (the GUI joins with the window issue).
let usage = """
    Faro: listens for iBeacons and opens the microsites tied to them.

    Usage:
      \(DecodeCommand.usage)
      \(RangeCommand.usage)
      \(ScanCommand.usage)
      \(BenchCommand.usage.replacingOccurrences(of: "\n", with: "\n  "))

    Exit status: 0 success, 1 failure (one line on stderr says why), 2 usage error.
    """

let words = Array(CommandLine.arguments.dropFirst())

func dispatch(_ words: [String]) throws -> Int32 {
    guard let command = words.first else {
        Output.line(usage)
        return 0
    }
    let rest = Arguments(words.dropFirst())
    switch command {
    case "decode": return try DecodeCommand.run(rest)
    case "range": return try RangeCommand.run(rest)
    case "scan": return try ScanCommand.run(rest)
    case "bench": return try BenchCommand.run(rest)
    case "--help", "-h", "help":
        Output.line(usage)
        return 0
    default:
        throw UsageError(description: "unknown command '\(command)'")
    }
}

do {
    exit(try dispatch(words))
} catch let failure as CommandFailure {
    Output.error("faro: \(failure)")
    exit(1)
} catch let mistake as UsageError {
    Output.error("faro: \(mistake)\n\n\(usage)")
    exit(2)
} catch {
    Output.error("faro: \(error)")
    exit(1)
}
