import Dispatch
import FaroCore
import FaroWeb
import FoundationEssentials
import Glibc

/// `faro share URL`: prints the share menu's links for a beacon's URL (never with the device id) and, with
/// `--qr FILE.png`, writes its QR code; `--qr-text` draws the QR code in the terminal.
enum ShareCommand {
    static let usage = "faro share URL [--title TITLE] [--qr FILE.png] [--qr-text]"

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let title = try args.option("--title")
        let qrFile = try args.option("--qr")
        let qrText = args.flag("--qr-text")
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
