import FaroCore
import Testing

@testable import FaroWeb

@Suite("QR codes")
struct QRCodeTests {
    @Test func encodesAURLWithFinderPatternsInThreeCorners() throws {
        let matrix = try QRCodeEncoder.encode("http://127.0.0.1:8080/sitios/cafe-la-parroquia/")
        #expect(matrix.size >= 25 && (matrix.size - 17) % 4 == 0)  // version v has 17 + 4v modules per side
        for (ox, oy) in [(0, 0), (matrix.size - 7, 0), (0, matrix.size - 7)] {
            for i in 0..<7 {
                // The 7×7 finder's outer ring is dark, the ring inside it light, the 3×3 centre dark.
                #expect(matrix.isDark(x: ox + i, y: oy) && matrix.isDark(x: ox + i, y: oy + 6))
                #expect(matrix.isDark(x: ox, y: oy + i) && matrix.isDark(x: ox + 6, y: oy + i))
            }
            #expect(!matrix.isDark(x: ox + 1, y: oy + 1) && matrix.isDark(x: ox + 3, y: oy + 3))
        }
    }

    @Test func pngHasTheRightSizeAndValidChunks() throws {
        let matrix = try QRCodeEncoder.encode("https://ejemplo.mx/")
        let png = matrix.png(scale: 4, border: 4)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let side = UInt32((matrix.size + 8) * 4)
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        #expect(
            Array(png[16..<24]) == [
                UInt8(side >> 24), UInt8(side >> 16 & 0xFF), UInt8(side >> 8 & 0xFF), UInt8(side & 0xFF),
                UInt8(side >> 24), UInt8(side >> 16 & 0xFF), UInt8(side >> 8 & 0xFF), UInt8(side & 0xFF),
            ])
        // IEND and its CRC.
        #expect(Array(png.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }

    @Test func emptyTextIsRefused() {
        #expect(throws: QRCodeError.self) { try QRCodeEncoder.encode("") }
    }
}
