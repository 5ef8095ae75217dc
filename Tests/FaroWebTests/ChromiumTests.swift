import FaroCore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroWeb

/// The real-client check: an MHT written by Faro opens in headless Chromium (Debian's `chromium`) with the page's
/// text and its images, with the server already gone. Runs where chromium is installed (`apt-get install chromium`).
@Suite("Faro's MHT in Chromium", .serialized)
struct ChromiumTests {
    static let chromium = "/usr/bin/chromium"
    static var installed: Bool { RequiredTool.chromium.shouldRun }

    static func run(_ arguments: [String], home: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(home)/profile",
            ] + arguments,
            environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache"],
            timeout: 120)
    }

    @Test(.enabled(if: installed, Comment(rawValue: RequiredTool.chromium.reason)))
    func faroArchiveOpensInChromiumWithTextAndImages() throws {
        try RequiredTool.chromium.require()
        let site = try TestSite()
        let folder = try TemporaryDirectory("faro-web-chromium")
        let backend = try TestBackend(data: site.data)
        let saved = try PageSaver().save(backend.base + "/sitios/prueba/", deviceID: "356938035643809")
        backend.stop()
        let file = folder.file("prueba.mht")
        try Data(saved.archive).write(to: URL(fileURLWithPath: file))

        let dom = try Self.run(["--dump-dom", "file://" + file], home: folder.path)
        #expect(dom.status == 0, "\(dom.stderr.suffix(500))")
        #expect(dom.stdout.contains(TestSite.sentence))
        #expect(dom.stdout.contains("<h1>Prueba</h1>"))

        let shot = folder.file("shot.png")
        let screenshot = try Self.run(
            ["--screenshot=\(shot)", "--window-size=800,600", "--hide-scrollbars", "file://" + file],
            home: folder.path)
        #expect(screenshot.status == 0, "\(screenshot.stderr.suffix(500))")
        // The 200×200 magenta picture comes from the archive: count its pixels in the screenshot.
        let count = try ChildProcess.run("/usr/bin/python3", ["-c", Self.pixelCounter, shot, "255,0,255"], timeout: 60)
        #expect(count.status == 0, "\(count.stderr)")
        let magenta = Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(magenta >= 30_000, "only \(magenta) magenta pixels: the image did not come out of the archive")
    }

    /// Counts the pixels of one colour in an 8-bit RGB/RGBA PNG (Python's standard library only).
    static let pixelCounter = #"""
        import sys, zlib, struct
        data = open(sys.argv[1], 'rb').read()
        want = tuple(int(v) for v in sys.argv[2].split(','))
        pos, idat, width, height, ctype = 8, b'', 0, 0, 0
        while pos < len(data):
            n, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + n]
            if kind == b'IHDR':
                width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
                assert depth == 8 and ctype in (2, 6), (depth, ctype)
            elif kind == b'IDAT':
                idat += body
            pos += 12 + n
        bpp = 3 if ctype == 2 else 4
        raw, stride, prev, count, i = zlib.decompress(idat), width * bpp, bytearray(width * bpp), 0, 0
        for _ in range(height):
            f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
                if f == 1: line[x] = (line[x] + a) & 255
                elif f == 2: line[x] = (line[x] + b) & 255
                elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            count += sum(1 for x in range(0, stride, bpp) if tuple(line[x:x + 3]) == want)
            prev = line
        print(count)
        """#
}
