import CGtk
import FaroCore
import FaroTestSupport
import FaroWeb
import Foundation
import Testing

@testable import FaroUI

/// The GTK reading surface on a real X server (Xvfb): text and tags from the document model, links, anchors, and
/// images scaled to the width. GTK is opened with `--display`, so no environment variable of the test process
/// changes.
@Suite("Readable text view (GTK, Xvfb)", .serialized)
@MainActor
struct ReadableTextViewTests {
    nonisolated static let xvfb = "/usr/bin/Xvfb"
    nonisolated static var available: Bool { RequiredTool.xvfb.shouldRun }

    /// Runs the GLib main loop until `done` holds (the view's images arrive from their decoding thread through it),
    /// or 60 s pass.
    static func runMainLoop(until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(60)
        while !done(), Date() < deadline {
            if g_main_context_iteration(nil, 0) == 0 { usleep(2000) }
        }
    }

    /// Runs the GLib main loop for `seconds` (for what must not happen).
    static func runMainLoop(for seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        runMainLoop { Date() >= end }
    }

    /// GTK on the test's Xvfb, or the reason it is not there.
    static func gtk() throws {
        try RequiredTool.xvfb.require()
        let gtk = try #require(display)
        try #require(gtk.ok, "GTK could not open the Xvfb display")
    }

    /// One Xvfb and one GTK initialisation for the whole test process.
    static let display: (server: ChildProcess, ok: Bool)? = {
        // Xvfb picks a free display and prints its number; -terminate ends it when the test process (its last
        // client) exits.
        guard
            let server = try? ChildProcess(
                xvfb,
                [
                    "-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp",
                    "-terminate",
                ]),
            let line = server.waitForLine(timeout: 20, { Int($0.trimmingCharacters(in: .whitespaces)) != nil }),
            let number = Int(line.trimmingCharacters(in: .whitespaces))
        else { return nil }
        var arguments = ["faro-tests", "--display", ":\(number)"]
        var argc = Int32(arguments.count)
        let cStrings = arguments.map { strdup($0) }
        defer { for p in cStrings { free(p) } }
        var pointers: [UnsafeMutablePointer<CChar>?] = cStrings + [nil]
        gdk_set_allowed_backends("x11")
        let ok = pointers.withUnsafeMutableBufferPointer { buffer -> Bool in
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
            return gtk_init_check(&argc, &argv) != 0
        }
        arguments.removeAll()
        return (server, ok)
    }()

    @Test(.enabled(if: available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func showsTextLinksAnchorsAndScaledImages() throws {
        try Self.gtk()
        let html = """
            <html><head><title>Café</title></head><body><h1>Bienvenidos</h1>
            <p>Ver el <a href="menu.html">Menú</a> o el <a href="#horario">Horario</a>.</p>
            <script>alert('no')</script><p>Foto: <img src="magenta.png" alt="Cuadro"> y <img src="ancha.png" alt="Ancha">
            y <img src="falta.png" alt="Falta"></p><h2 id="horario">Horario</h2><ul><li>Lunes</li></ul></body></html>
            """
        let doc = HTMLParser.readableDocument(Array(html.utf8), url: "http://127.0.0.1:9/sitios/cafe/")
        let images = [
            "http://127.0.0.1:9/sitios/cafe/magenta.png": TestPNG.solid(width: 40, height: 40, rgb: (255, 0, 255)),
            "http://127.0.0.1:9/sitios/cafe/ancha.png": TestPNG.solid(width: 1000, height: 10, rgb: (0, 0, 255)),
        ]
        let view = ReadableTextView()
        view.maxImageWidth = 300
        var opened: [String] = []
        view.openLink = { opened.append($0) }
        view.show(doc) { images[$0] }
        Self.runMainLoop { view.pendingImages == 0 }

        let text = view.text
        #expect(text.hasPrefix("Café\n\nBienvenidos\n\nVer el Menú o el Horario."))
        #expect(text.contains("[Falta]"))
        #expect(text.contains("• Lunes"))
        #expect(!text.contains("alert"))
        #expect(view.imageCount == 2)
        #expect(view.imageWidths == [40, 300])
        #expect(view.hasAnchor("horario"))

        let menuOffset = Int32(
            text.distance(from: text.startIndex, to: try #require(text.range(of: "Menú")).lowerBound))
        #expect(view.link(atOffset: menuOffset + 1) == "http://127.0.0.1:9/sitios/cafe/menu.html")
        #expect(view.link(atOffset: 0) == nil)
        view.activate("http://127.0.0.1:9/sitios/cafe/menu.html")
        view.activate("#horario")
        #expect(opened == ["http://127.0.0.1:9/sitios/cafe/menu.html"])

        view.show(ReadableDocument(title: "Otra", blocks: [.paragraph([.text("nada más")])]))
        #expect(view.text == "Otra\n\nnada más")
        #expect(view.imageCount == 0 && !view.hasAnchor("horario"))
    }
}
