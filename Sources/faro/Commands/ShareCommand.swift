import Dispatch
import FaroCore
import FaroWeb
import FoundationEssentials
import Glibc

/// `faro share URL`: prints the share menu's links for a beacon's URL (never with the device id) and, with
/// `--qr FILE.png`, writes its QR code; `--qr-text` draws the QR code in the terminal.
enum ShareCommand {
    /// The options, declared once: the parser, `--help`, faro(1) and the completion read them.
    enum Option {
        static let url = OptionSpec("URL", "The site's address.")
        static let title = OptionSpec(
            "--title TITLE", "The site's title, used as the e-mail subject and the message text.")
        static let qr = OptionSpec("--qr FILE.png", "Write the address's QR code to this PNG file.")
        static let qrText = OptionSpec("--qr-text", "Draw the QR code in the terminal.")
        static let declared = [url, title, qr, qrText]
    }

    static let help = CommandHelp(
        name: "share", synopsis: ["faro share URL [--title TITLE] [--qr FILE.png] [--qr-text]"],
        summary: "Print a site's share links (e-mail, WhatsApp, Telegram, ...) and its QR code.",
        description: """
            Prints the share links of the content view's "Compartir" menu, one per line as TARGET, a tab and the \
            link: link (the address itself), email (mailto:), whatsapp, telegram, facebook, x and linkedin. The \
            shared address never carries the device id.
            """,
        options: Option.declared,
        examples: [
            ExampleHelp(
                "faro share https://example.com/sitios/cafe/ --title 'Café La Parroquia' --qr-text",
                "Prints the seven links and draws the QR code.")
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let title = try args.option(Option.title)
        let qrFile = try args.option(Option.qr)
        let qrText = args.flag(Option.qrText)
        let url = try args.positional("URL")
        try args.finish()
        for (target, link) in ShareLinks.all(url: url, title: title) {
            Output.line("\(target.rawValue)\t\(link)")
        }
        guard qrFile != nil || qrText else { return 0 }
        let matrix: QRMatrix
        do { matrix = try QRCodeEncoder.encode(ShareLinks.sharedURL(url)) } catch {
            throw CommandFailure(description: error.description)
        }
        if let qrFile {
            do { try AtomicFile.write(matrix.png(), to: qrFile) } catch {
                throw CommandFailure(description: error.description)
            }
        }
        if qrText { Output.line(matrix.terminalText()) }
        return 0
    }
}
