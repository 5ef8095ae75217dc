/// Faro's views and styles (`Resources/`: GtkBuilder `.ui` templates and CSS), compiled by
/// `glib-compile-resources` at build time and embedded here by the CompileResources plugin. FaroUI registers the
/// bundle with GIO once at start; the templates are then found under `resourcePath`.
public enum FaroResources {
    /// Where the bundle's files are, as GResource paths.
    public static let resourcePath = "/io/github/faro/Faro/"

    /// The bundle's bytes.
    public static func bundle() -> [UInt8] {
        bundleBase64.withUTF8Buffer { Base64.decode($0) }
    }
}

/// Base64 decoding of the embedded bundle (the standard alphabet, `=` padding), without Foundation.
enum Base64 {
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var values = [UInt8](repeating: 255, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            values[Int(c)] = UInt8(i)
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for c in text {
            let v = values[Int(c)]
            guard v != 255 else { continue }  // padding and anything else
            accumulator = accumulator << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }
}
