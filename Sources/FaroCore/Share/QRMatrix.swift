/// A QR code symbol as a square of dark and light modules (made by the libqrencode adapter), and its two
/// renderings: a PNG for the share dialog and `--qr FILE.png`, and Unicode half blocks for the terminal.
public struct QRMatrix: Sendable, Equatable {
    /// Modules per side.
    public let size: Int
    /// Row-major, `true` = dark.
    public let modules: [Bool]

    public init?(size: Int, modules: [Bool]) {
        guard size > 0, modules.count == size * size else { return nil }
        self.size = size
        self.modules = modules
    }

    public func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// A black-on-white PNG, `scale` pixels per module, with a quiet zone of `border` modules (4 per the standard).
    public func png(scale: Int = 8, border: Int = 4) -> [UInt8] {
        let side = (size + 2 * border) * scale
        var raw: [UInt8] = []
        let rowBytes = (side + 7) / 8
        raw.reserveCapacity((rowBytes + 1) * side)
        for py in 0..<side {
            raw.append(0)  // filter: none
            var byte: UInt8 = 0
            for px in 0..<side {
                // 1-bit grayscale: 1 = white, 0 = black.
                let light = !isDark(x: px / scale - border, y: py / scale - border)
                if light { byte |= 0x80 >> UInt8(px % 8) }
                if px % 8 == 7 || px == side - 1 {
                    raw.append(byte)
                    byte = 0
                }
            }
        }
        return PNG.image(width: side, height: side, bitDepth: 1, colorType: .grayscale, scanlines: raw)
    }

    /// The symbol drawn with `▀ ▄ █` and spaces, two module rows per text line, dark modules as spaces on a light
    /// terminal-independent background (light modules are drawn), with a two-module quiet zone.
    public func terminalText(border: Int = 2) -> String {
        var lines: [String] = []
        var y = -border
        while y < size + border {
            var line = ""
            for x in -border..<(size + border) {
                let top = !isDark(x: x, y: y)
                let bottom = !isDark(x: x, y: y + 1) && y + 1 < size + border
                switch (top, bottom) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
            y += 2
        }
        return lines.joined(separator: "\n")
    }
}
