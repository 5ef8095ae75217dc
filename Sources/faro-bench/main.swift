import FaroCommandLine
import Glibc

/// `faro-bench`: the measurements behind `make bench` (bench/README.md), kept out of the shipped `faro`.
let help = BenchCommand.help
do {
    let words = CommandLine.arguments.dropFirst()
    if Arguments.contains("--help", in: words) || Arguments.contains("-h", in: words) || words.isEmpty {
        Output.line(help.text())
        exit(0)
    }
    exit(try BenchCommand.run(Arguments(words, declared: help.options)))
} catch let failure as CommandFailure {
    Output.error("faro-bench: \(failure)")
    exit(1)
} catch let mistake as UsageError {
    Output.error("faro-bench: \(mistake)\nUsage: \(help.synopsis.joined(separator: "\n       "))")
    exit(2)
} catch {
    Output.error("faro-bench: \(error)")
    exit(1)
}
