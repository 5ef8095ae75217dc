import Dispatch
import FaroCore
import FaroWeb
import FoundationEssentials
import Glibc

/// `faro page URL`: fetches a microsite exactly as the content view does (fresh, device id added) and prints its
/// readable text.
enum PageCommand {
    static let help = CommandHelp(
        name: "page", synopsis: ["faro page URL [--device-id ID] [--timeout SECONDS] [--timing]"],
        summary: "Fetch a microsite as the content view does and print its readable text.",
        description: """
            Fetches a microsite exactly as the content view does: always from the network (no cache, a fresh cookie \
            store), with the device id added as ?imei= (https and loopback only), and prints its readable text.
            """,
        options: [
            OptionHelp("URL", "The microsite's address."),
            OptionHelp(
                "--device-id ID",
                "Send this device id instead of the modem's IMEI or the app-specific id derived from "
                    + "/etc/machine-id."),
            OptionHelp("--timeout SECONDS", "Give up after this long (default 30)."),
            OptionHelp("--timing", "Report on stderr how long the transfer, parsing and rendering took."),
        ],
        examples: [
            ExampleHelp(
                "faro page https://example.com/sitios/cafe/",
                "Prints the café's page as text, fetched fresh with the device id.")
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let explicitID = try args.option("--device-id")
        let timeout = try args.number("--timeout", in: 1...600) ?? 30
        let timing = args.flag("--timing")
        let url = try args.positional("URL")
        try args.finish()
        let deviceID = try WebSupport.deviceID(explicitID)
        let loader = PageLoader(fetcher: FreshFetcher(options: FetchOptions(totalTimeout: timeout)))
        let page: LoadedPage
        do { page = try loader.load(url, deviceID: deviceID.value) } catch {
            throw CommandFailure(description: error.description)
        }
        let renderStart = ContinuousClock.now
        let text = PlainTextRenderer.render(page.document)
        let rendered = ContinuousClock.now
        Output.line(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        if timing {
            Output.error(
                "timing: transfer \(WebSupport.milliseconds(page.response.transferDuration)) ms, fetch "
                    + "\(WebSupport.milliseconds(page.fetchDuration)) ms, parse "
                    + "\(WebSupport.milliseconds(page.parseDuration)) ms, render \(WebSupport.milliseconds(rendered - renderStart)) ms, "
                    + "\(page.response.body.count) bytes, device id from \(deviceID.source.rawValue)")
        }
        return 0
    }
}

/// What the web commands share: the device id (explicit, or ModemManager, or the machine id) and time formatting.
enum WebSupport {
    static func deviceID(_ explicit: String?) throws -> DeviceID {
        if let explicit { return DeviceID(value: explicit, source: .machine) }
        do { return try DeviceIDResolver.fromEnvironment().resolve() } catch {
            throw CommandFailure(description: error.description)
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(cFormat: "%.2f", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
}
