import Dispatch
import FaroCore
import FaroWeb
import FoundationEssentials
import Glibc

/// `faro page URL`: fetches a microsite exactly as the content view does (fresh, device id added where the URL is
/// https or loopback) and prints its readable text. No message it prints carries the device id.
enum PageCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let url = OptionSpec("URL", "The microsite's address.")
        static let deviceId = OptionSpec(
            "--device-id ID",
            "Send this device id instead of the modem's IMEI or the app-specific id derived from " + "/etc/machine-id.")
        static let timeout = OptionSpec("--timeout SECONDS", "Give up after this long (default 30).", range: 1...600)
        static let timing = OptionSpec(
            "--timing", "Report on stderr how long the transfer, parsing and rendering took.")
        static let declared = [url, deviceId, timeout, timing]
    }

    static let help = CommandHelp(
        name: "page", synopsis: ["faro page URL [--device-id ID] [--timeout SECONDS] [--timing]"],
        summary: "Fetch a microsite as the content view does and print its readable text.",
        description: """
            Fetches a microsite exactly as the content view does: always from the network (no cache, a fresh cookie \
            store), with the device id added as ?imei= (https and loopback only), and prints its readable text. A page \
            that needs JavaScript to show in full is printed as far as it goes without scripts, and a line on stderr \
            says so, with its address (without the device id) to open in a browser; the exit status is still 0.
            """,
        options: Option.declared,
        examples: [
            ExampleHelp(
                "faro page https://example.com/sitios/cafe/",
                "Prints the café's page as text, fetched fresh with the device id.")
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let explicitID = try WebSupport.withoutDeviceID { () throws(UsageError) in try args.option(Option.deviceId) }
        let timeout = try WebSupport.withoutDeviceID { () throws(UsageError) in
            try args.number(Option.timeout) ?? 30
        }
        let timing = args.flag(Option.timing)
        let url = try WebSupport.withoutDeviceID { () throws(UsageError) in try args.positional("URL") }
        try WebSupport.withoutDeviceID { () throws(UsageError) in try args.finish() }
        let deviceID = try WebSupport.deviceID(explicitID)
        let loader = PageLoader(fetcher: FreshFetcher(options: FetchOptions(totalTimeout: timeout)))
        let page: LoadedPage
        do { page = try loader.load(url, deviceID: deviceID.value) } catch {
            throw WebSupport.failure(error.description, deviceID: deviceID.value)
        }
        if !page.sentDeviceID, !DeviceIDURL.mayCarryDeviceID(url) {
            Output.error("faro: \(RedactedURL(url)) is not https: loaded without the device id")
        }
        let renderStart = ContinuousClock.now
        let text = PlainTextRenderer.render(page.document)
        let rendered = ContinuousClock.now
        Output.line(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        WebSupport.sayIfItNeedsJavaScript(page.document, url: page.url)
        if timing {
            Output.error(
                "timing: transfer \(WebSupport.milliseconds(page.response.transferDuration)) ms, perform "
                    + "\(WebSupport.milliseconds(page.response.performDuration)) ms, fetch "
                    + "\(WebSupport.milliseconds(page.fetchDuration)) ms, parse "
                    + "\(WebSupport.milliseconds(page.parseDuration)) ms, render \(WebSupport.milliseconds(rendered - renderStart)) ms, "
                    + "\(page.response.body.count) bytes, device id from \(deviceID.source.rawValue)")
        }
        return 0
    }
}

/// What the web commands share: the device id (explicit, or ModemManager, or the machine id), messages without it,
/// and time formatting.
enum WebSupport {
    static func deviceID(_ explicit: String?) throws -> DeviceID {
        if let explicit { return DeviceID(value: explicit, source: .machine) }
        do { return try DeviceIDResolver.fromEnvironment().resolve() } catch {
            throw CommandFailure(description: error.description)
        }
    }

    /// A failure whose text has been through `DeviceIDScrubber` (every `imei=` parameter, and the id itself, out).
    static func failure(_ text: String, deviceID: String?) -> CommandFailure {
        CommandFailure(description: DeviceIDScrubber.scrub(text, knownID: deviceID))
    }

    /// Runs a step of argument parsing; its usage error (which may quote a URL given on the command line) comes out
    /// without the device id.
    static func withoutDeviceID<T>(_ step: () throws(UsageError) -> T) throws(UsageError) -> T {
        do { return try step() } catch {
            throw UsageError(description: DeviceIDScrubber.scrub(error.description))
        }
    }

    /// The content view's JavaScript line, on stderr: the page is shown as far as it goes without scripts, and the
    /// address to open in a browser carries no device id (docs/reading-pages.md).
    static func sayIfItNeedsJavaScript(_ document: ReadableDocument, url: String) {
        guard document.needsJavaScript != nil else { return }
        Output.error(
            "faro: this site needs JavaScript to show in full; open it in a browser (without the device id): "
                + RedactedURL(url).description)
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(cFormat: "%.2f", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
}
