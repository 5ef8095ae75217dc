import FaroBackend

/// `faro-backend` as its own executable (SwiftPM builds); installed, it is a link to `faro` (FaroBackend).
BackendMain.run(arguments: Array(CommandLine.arguments.dropFirst()))
