import CGtk
import FaroCore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroUI
@testable import FaroWeb

/// Pages made to hurt: a decompression-bomb PNG, a page of 200 images, resources past the page's budget, a save
/// past the archive limit. Each gets a clear answer and the view stays usable.
@Suite("Hostile pages", .serialized)
@MainActor
struct HostilePageTests {
    /// A 1-bit PNG that declares 30000×30000 pixels in about 110 KB (the one that froze the window for 6.4 s and
    /// took 2.8 GB), made with Python's zlib.
    nonisolated static func bomb() throws -> [UInt8] {
        let folder = try TemporaryDirectory("faro-bomb")
        let script = #"""
            import struct, sys, zlib
            w = h = 30000
            def chunk(t, d):
                return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
            z = zlib.compressobj(9)
            row = b"\x00" * (1 + (w + 7) // 8)
            data = b"".join(z.compress(row) for _ in range(h)) + z.flush()
            png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
            png += chunk(b"IDAT", data) + chunk(b"IEND", b"")
            open(sys.argv[1], "wb").write(png)
            """#
        let r = try ChildProcess.run("/usr/bin/python3", ["-c", script, folder.file("bomb.png")], timeout: 120)
        guard r.status == 0, let data = FileManager.default.contents(atPath: folder.file("bomb.png")) else {
            throw WebTestError(description: "could not make the bomb: \(r.stderr)")
        }
        return Array(data)
    }

    @Test func theBombIsRefusedFromItsHeaderWithoutDecoding() throws {
        let bomb = try Self.bomb()
        #expect(bomb.count < 200_000)
        let decoder = ImageDecoder(maxWidth: 560, maxPixels: 12_600_000)
        guard case .failure(let refusal) = decoder.decode(bomb) else {
            Issue.record("the bomb was decoded")
            return
        }
        #expect(refusal == .declaredTooLarge(width: 30000, height: 30000))
        // A big but acceptable image is decoded straight to the view's width.
        let wide = TestPNG.solid(width: 1200, height: 900, rgb: (0, 120, 255))
        guard case .success(let image) = decoder.decode(wide) else {
            Issue.record("a 1200×900 picture was refused")
            return
        }
        #expect(image.width == 560 && image.height == 420)
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func aBombOnAPageShowsItsTextAndANoteAndTheViewGoesOn() throws {
        try ReadableTextViewTests.gtk()
        let bomb = try Self.bomb()
        let html = #"<html><body><h1>Oferta</h1><p>Antes <img src="bomba.png" alt="Bomba"> después</p></body></html>"#
        let doc = HTMLParser.readableDocument(Array(html.utf8), url: "https://ejemplo.mx/")
        let view = ReadableTextView()
        view.show(doc) { $0.hasSuffix("bomba.png") ? bomb : nil }
        // show() returned before the image was decoded: decoding is not the GTK thread's work.
        #expect(view.pendingImages == 1)
        #expect(view.text.contains("Antes  después"))
        ReadableTextViewTests.runMainLoop { view.pendingImages == 0 }
        #expect(view.imageCount == 0 && view.refusedImages == 1)
        #expect(view.text.contains("Antes [Bomba] [image too large to show] después"), "\(view.text)")
        // The view goes on: the next page shows, with its picture.
        let next = HTMLParser.readableDocument(
            Array(#"<p>Otra <img src="ok.png" alt="ok"></p>"#.utf8), url: "https://ejemplo.mx/")
        view.show(next) { _ in TestPNG.solid(width: 10, height: 10, rgb: (1, 2, 3)) }
        ReadableTextViewTests.runMainLoop { view.pendingImages == 0 }
        #expect(view.imageCount == 1 && view.refusedImages == 0 && view.text == "Otra ")
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func aPageOf200ImagesStaysWithinItsMemory() throws {
        try ReadableTextViewTests.gtk()
        let html =
            "<html><body><p>" + (0..<200).map { "<img src=\"i\($0).png\" alt=\"i\($0)\">" }.joined()
            + "</p></body></html>"
        let doc = HTMLParser.readableDocument(Array(html.utf8), url: "https://ejemplo.mx/")
        let picture = TestPNG.solid(width: 64, height: 64, rgb: (200, 10, 10))
        let view = ReadableTextView()
        view.maxPageImageBytes = 1 << 20  // 64×64 RGB is 12 KB decoded: about 85 fit
        view.show(doc) { _ in picture }
        ReadableTextViewTests.runMainLoop { view.pendingImages == 0 }
        #expect(view.imageCount + view.refusedImages == 200)
        #expect(view.imageCount >= 80 && view.imageCount <= 90, "\(view.imageCount) shown")
        #expect(view.text.contains("[i199] [image too large to show]"))
        #expect(!view.text.contains("[i0]"))
    }

    @Test func thePageLoaderFetchesABoundedNumberAndSizeOfImages() throws {
        let site = try TestSite(extraImages: 200)
        let backend = try TestBackend(data: site.data)
        let page = try PageLoader().load(backend.base + "/sitios/prueba/", deviceID: nil, images: true)
        #expect(page.images.count == 100)
        // Past the byte budget the rest are left out, whatever their count.
        let urls = (0..<10).map { backend.base + "/sitios/prueba/magenta.png?n=\($0)" }
        let one = TestPNG.solid(width: 40, height: 40, rgb: (255, 0, 255)).count
        let fetcher = ResourceFetcher(maxConcurrent: 1, maxTotalBytes: one * 2 + one / 2)
        let results = fetcher.fetchAll(urls)
        let fetched = results.values.compactMap { try? $0.get() }
        #expect(fetched.count >= 1 && fetched.count <= 3, "\(fetched.count) fetched")
        #expect(results.values.contains { $0 == .failure(.resourcesTooLarge(limit: one * 2 + one / 2)) })
        #expect(fetched.reduce(0) { $0 + $1.body.count } <= one * 3)
    }

    @Test func savingAndReadingShareOneLimit() throws {
        #expect(PageSaver().archiveLimit == MHTLimits.standard.maxBytes)
        #expect(MHTLimits.standard.maxBytes == MHTLimits.archiveMaxBytes)
        let site = try TestSite(extraImages: 3)
        let backend = try TestBackend(data: site.data)
        let url = backend.base + "/sitios/prueba/"
        let whole = try PageSaver().save(url, deviceID: nil)
        // A limit just large enough: saved, and it opens again under the same limit.
        let fits = try PageSaver(archiveLimit: whole.archive.count + 1024).save(url, deviceID: nil)
        #expect(
            try ArchiveOpener.open(fits.archive, limits: MHTLimits(maxBytes: whole.archive.count + 1024))
                .document.title == "Página de prueba")
        // Below what the page and its images take: refused with a message that says so, nothing half saved.
        let limit = whole.archive.count - 100
        #expect(throws: FetchError.archiveTooLarge(limit: limit)) {
            try PageSaver(archiveLimit: limit).save(url, deviceID: nil)
        }
        #expect(FetchError.archiveTooLarge(limit: 64 << 20).description.contains("larger than 64 MB"))
    }
}
