import FaroCommandLine
import Glibc

/// `faro-bench`: the measurements behind `make bench` (bench/README.md), kept out of the shipped `faro`.
let help = BenchCommand.help
do {
    let words = Arguments(Array(CommandLine.arguments.dropFirst()))
    if words.contains("--help") || words.contains("-h") || CommandLine.arguments.count < 2 {
        Output.line(help.text())
        exit(0)
    }
    exit(try BenchCommand.run(words))
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
