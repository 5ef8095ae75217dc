import FaroCommandLine

/// The shared parser and help types (`FaroCommandLine`), under the names every command of `faro` uses, so that a
/// command file needs no import of its own for them.
typealias Arguments = FaroCommandLine.Arguments
typealias UsageError = FaroCommandLine.UsageError
typealias CommandHelp = FaroCommandLine.CommandHelp
typealias OptionHelp = FaroCommandLine.OptionHelp
typealias OptionSpec = FaroCommandLine.OptionSpec
typealias ExampleHelp = FaroCommandLine.ExampleHelp
typealias Output = FaroCommandLine.Output
typealias CommandFailure = FaroCommandLine.CommandFailure
