import Dispatch
import FaroCore
import FaroStore
import FaroWeb
import FoundationEssentials
import Glibc

/// `faro save URL [-o FILE.mht]`: saves a microsite exactly as "Guardar" does (fresh page, its images and
/// stylesheets fetched concurrently, a Chromium-compatible MHT without the device id) into Guardados (the SQLite
/// store, with title, business, URL and time saved) and, with `-o`, into FILE as well.
enum SaveCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let url = OptionSpec("URL", "The microsite's address.")
        static let output = OptionSpec("-o, --output FILE.mht", "Also write the archive to this file.")
        static let business = OptionSpec("--business NAME", "The business the page belongs to, as Guardados lists it.")
        static let deviceId = OptionSpec("--device-id ID", "Send this device id with the page's request.")
        static let timing = OptionSpec("--timing", "Report on stderr how long saving took.")
        static let declared = [url, output, business, deviceId, timing]
    }

    static let help = CommandHelp(
        name: "save", synopsis: ["faro save URL [-o FILE.mht] [--business NAME] [--device-id ID] [--timing]"],
        summary: "\"Guardar\": save a microsite with its images and styles into Guardados.",
        description: """
            Saves a microsite as the window's "Guardar" does: the page with its images and stylesheets, fetched \
            fresh, as an MHT archive that Chromium opens; stored in Guardados (with title, business, address and the \
            time saved) and, with -o, written to FILE.mht as well. The device id is never kept in the archive.
            """,
        options: Option.declared,
        examples: [
            ExampleHelp(
                "faro save https://example.com/sitios/cafe/ -o cafe.mht --business 'Café La Parroquia'",
                "Stores the page in Guardados and writes cafe.mht.")
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let output = try WebSupport.withoutDeviceID { () throws(UsageError) in try args.option(Option.output) }
        let business = try WebSupport.withoutDeviceID { () throws(UsageError) in try args.option(Option.business) ?? ""
        }
        let explicitID = try WebSupport.withoutDeviceID { () throws(UsageError) in try args.option(Option.deviceId) }
        let timing = args.flag(Option.timing)
        let url = try WebSupport.withoutDeviceID { () throws(UsageError) in try args.positional("URL") }
        try WebSupport.withoutDeviceID { () throws(UsageError) in try args.finish() }
        let deviceID = try WebSupport.deviceID(explicitID)
        let started = ContinuousClock.now
        let saved: SavedPage
        do { saved = try PageSaver().save(url, deviceID: deviceID.value) } catch {
            throw WebSupport.failure(error.description, deviceID: deviceID.value)
        }
        let elapsed = ContinuousClock.now - started
        if let output {
            do { try AtomicFile.write(saved.archive, to: output) } catch {
                throw WebSupport.failure(error.description, deviceID: deviceID.value)
            }
        }
        let database = try OutboxStoreAccess.open()
        let id: Int64
        do {
            id = try database.savedPages.save(
                url: saved.url, title: saved.title, business: business, mht: saved.archive,
                now: saved.savedAt.timeIntervalSince1970)
        } catch {
            throw WebSupport.failure(
                "cannot store the page in Guardados: \(error.description)", deviceID: deviceID.value)
        }
        let destination = output.map { " and \($0)" } ?? ""
        Output.line(
            DeviceIDScrubber.scrub(
                "saved \"\(saved.title)\" (\(RedactedURL(saved.url))) with \(saved.resourceCount) resource(s) to "
                    + "Guardados #\(id)\(destination)", knownID: deviceID.value))
        for (missingURL, why) in saved.missing {
            Output.error(
                DeviceIDScrubber.scrub("faro: left out \(RedactedURL(missingURL)): \(why)", knownID: deviceID.value))
        }
        if timing {
            Output.error(
                "timing: save \(WebSupport.milliseconds(elapsed)) ms, \(saved.resourceCount) resources, "
                    + "\(saved.archive.count) bytes")
        }
        return 0
    }
}
