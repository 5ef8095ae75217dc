import Dispatch
import FaroCore
import FaroWeb
import FoundationEssentials
import Glibc

/// `faro show FILE.mht`: prints the readable text of a saved archive (Faro's, Chrome's, IE's, Word's, …) with no
/// network access at all: nothing here can fetch. Its links, and its messages, carry no device id.
enum ShowCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let file = OptionSpec("FILE.mht", "The archive.")
        static let timing = OptionSpec("--timing", "Report on stderr how long opening and rendering took.")
        static let declared = [file, timing]
    }

    static let help = CommandHelp(
        name: "show", synopsis: ["faro show FILE.mht [--timing]"],
        summary: "Print the readable text of a saved archive, with no network access.",
        description: """
            Reads an MHT archive (one written by 'faro save', the window's Export, or Chromium) and prints the \
            readable text of its page. Nothing is fetched: this command has no network access at all.
            """,
        options: Option.declared,
        examples: [ExampleHelp("faro show cafe.mht", "Prints the saved café page as text, offline.")])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let timing = args.flag(Option.timing)
        let path = try WebSupport.withoutDeviceID { () throws(UsageError) in try args.positional("FILE.mht") }
        try WebSupport.withoutDeviceID { () throws(UsageError) in try args.finish() }
        let started = ContinuousClock.now
        let opened: OpenedArchive
        do { opened = try ArchiveOpener.open(path: path) } catch {
            throw WebSupport.failure(error.description, deviceID: nil)
        }
        let text = PlainTextRenderer.render(opened.document)
        Output.line(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        WebSupport.sayIfItNeedsJavaScript(opened.document, url: opened.archive.location ?? "")
        if timing {
            Output.error(
                "timing: open+parse+render \(WebSupport.milliseconds(ContinuousClock.now - started)) ms, "
                    + "\(opened.archive.parts.count) parts")
        }
        return 0
    }
}
