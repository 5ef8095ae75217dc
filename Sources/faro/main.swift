import Dispatch
import FoundationEssentials
import Glibc

/// The `faro` command: the window when called without a command, the terminal front end with one.
let usage = """
    Faro: listens for iBeacons and opens the microsites tied to them.

    Usage:
      \(GUICommand.usage)
      \(DecodeCommand.usage)
      \(RangeCommand.usage)
      \(ScanCommand.usage)
      \(RegisterCommand.usage)
      \(OutboxCommand.usage.replacing("\n", with: "\n  "))
      \(CatalogCommand.usage.replacing("\n", with: "\n  "))
      \(PageCommand.usage)
      \(SaveCommand.usage)
      \(ShowCommand.usage)
      \(ShareCommand.usage)
      \(BenchCommand.usage.replacing("\n", with: "\n  "))

    Exit status: 0 success, 1 failure (one line on stderr says why), 2 usage error.
    """

let words = Array(CommandLine.arguments.dropFirst())

@MainActor
func dispatch(_ words: [String]) throws -> Int32 {
    let hasDisplay =
        !(ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty
        || !(ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    guard let command = words.first else {
        if hasDisplay { return try GUICommand.run(Arguments([])) }
        Output.line(usage)
        return 0
    }
    if command.hasPrefix("--"), !["--help", "-h"].contains(command) {
        return try GUICommand.run(Arguments(words))
    }
    let rest = Arguments(words.dropFirst())
    switch command {
    case "decode": return try DecodeCommand.run(rest)
    case "range": return try RangeCommand.run(rest)
    case "scan": return try ScanCommand.run(rest)
    case "register": return try RegisterCommand.run(rest)
    case "outbox": return try OutboxCommand.run(rest)
    case "catalog": return try CatalogCommand.run(rest)
    case "page": return try PageCommand.run(rest)
    case "save": return try SaveCommand.run(rest)
    case "show": return try ShowCommand.run(rest)
    case "share": return try ShareCommand.run(rest)
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
