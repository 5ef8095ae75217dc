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
        return PNG.grayscale1Bit(width: side, height: side, scanlines: raw)
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

/// A minimal PNG writer (uncompressed deflate blocks, CRC-32, Adler-32): enough for QR codes, no zlib needed.
enum PNG {
    static func grayscale1Bit(width: Int, height: Int, scanlines: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, filter 0, no interlace
        out += chunk("IHDR", header)
        out += chunk("IDAT", zlibStored(scanlines))
        out += chunk("IEND", [])
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length >= data.count ? 1 : 0
            out.append(final)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        return out + bigEndian(adler32(data))
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
