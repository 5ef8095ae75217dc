import CQREncode
import FaroCore

/// Why a QR code could not be made.
public struct QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
}

/// Makes QR codes with libqrencode (error correction level M, 8-bit mode, smallest version that fits).
public enum QRCodeEncoder {
    public static func encode(_ text: String) throws(QRCodeError) -> QRMatrix {
        guard !text.isEmpty else { throw QRCodeError(description: "there is no text to put in a QR code") }
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw QRCodeError(description: "the text is too long for a QR code (\(text.utf8.count) bytes)")
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        guard size > 0, let data = code.pointee.data else {
            throw QRCodeError(description: "libqrencode returned an empty symbol")
        }
        // Bit 0 of each byte is the module's colour (1 = dark); the other bits are libqrencode's bookkeeping.
        let modules = (0..<(size * size)).map { data[$0] & 1 == 1 }
        guard let matrix = QRMatrix(size: size, modules: modules) else {
            throw QRCodeError(description: "malformed QR symbol")
        }
        return matrix
    }
}
