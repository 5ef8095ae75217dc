import FaroCore
import FaroStore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroWeb

/// `faro page`, `faro save` and `faro show` on pages built for JavaScript, against a real faro-backend: the notice
/// on stderr (exit 0), nothing of libxml2 on the terminal, and a saved page that shows offline what it showed online.
@Suite("Pages without scripts, end to end", .serialized)
struct PageWithoutScriptsCLITests {
    static let deviceID = "356938035643809"

    /// A framework page with a `<noscript>` that holds the real content: a formula in a sentence, a heading whose
    /// `<br>` ends inside `<b>`, an inline SVG and a tracking pixel.
    static let frameworkPage = """
        <!doctype html>
        <html lang="es">
          <head>
            <meta charset="UTF-8" />
            <title>Academia Faro</title>
            <script type="module" crossorigin src="/assets/index-4b1f9c2e.js"></script>
          </head>
          <body>
            <div id="root"></div>
            <noscript>
              <p>Necesitas habilitar JavaScript para ver este sitio.</p>
              <p><b>Fórmula<br /></b> Cuando <math><semantics><mrow><mi>a</mi><mo>≠</mo><mn>0</mn></mrow>
              <annotation encoding="application/x-tex">a \\ne 0</annotation></semantics></math>, hay dos soluciones.</p>
              <p>Mapa: <svg role="img"><title>Plano del salón</title><rect width="9" height="9"/></svg></p>
              <img src="https://px.ejemplo.mx/t.gif?id=1" width="1" height="1" alt="">
            </noscript>
          </body>
        </html>
        """

    static let expectedText = """
        Academia Faro
        =============

        Necesitas habilitar JavaScript para ver este sitio.

        Fórmula
        Cuando a \\ne 0, hay dos soluciones.

        Mapa: Plano del salón
        """

    @Test func pagePrintsTheNoscriptContentAndTheNoticeOnStderr() throws {
        let site = try TestSite(pageBytes: Array(Self.frameworkPage.utf8))
        let backend = try TestBackend(data: site.data)
        let url = backend.base + "/sitios/prueba/"
        let folder = try TemporaryDirectory("faro-web-js")
        let page = try ChildProcess.run(
            Paths.executable("faro"), ["page", url, "--device-id", Self.deviceID],
            environment: folder.xdgEnvironment, timeout: 60)
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout == Self.expectedText + "\n", "\(page.stdout)")
        #expect(
            page.stderr
                == "faro: this site needs JavaScript to show in full; open it in a browser (without the device id): "
                + url + "\n")
        #expect(try backend.requests().first?["query"] as? String == "imei=\(Self.deviceID)")

        // A page without a noscript, 100 % script: the notice too, exit 0.
        let bare = try TestSite(
            pageBytes: Array(
                "<html><head><title>Cargando</title></head><body><script>pinta()</script></body></html>".utf8))
        let bareBackend = try TestBackend(data: bare.data)
        let empty = try ChildProcess.run(
            Paths.executable("faro"), ["page", bareBackend.base + "/sitios/prueba/", "--device-id", Self.deviceID],
            environment: folder.xdgEnvironment, timeout: 60)
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stderr.contains("this site needs JavaScript to show in full"))
        #expect(!empty.stderr.contains("imei") && !empty.stderr.contains(Self.deviceID))
    }

    @Test func libxml2NeverReachesTheTerminalAndTheDebugLogSaysWhatHappened() throws {
        // Served as UTF-8 (faro-backend's header) with a windows-1252 paragraph pasted in, and broken markup.
        let page: [UInt8] =
            Array("<html><head><title>Mezcla</title></head><body><p>Café ☕</p><p>".utf8) + [
                0x93, 0x4E, 0x69, 0xF1, 0x6F, 0x94,
            ]
            + Array("</p><table><p>roto</span></div><a href=x>&#xD800; &bogus; <p</body></html>".utf8)
        let site = try TestSite(pageBytes: page)
        let backend = try TestBackend(data: site.data)
        let url = backend.base + "/sitios/prueba/"
        let folder = try TemporaryDirectory("faro-web-mixed")
        let quiet = try ChildProcess.run(
            Paths.executable("faro"), ["page", url, "--device-id", Self.deviceID],
            environment: folder.xdgEnvironment.merging(["G_MESSAGES_DEBUG": ""]) { $1 }, timeout: 60)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.stdout.contains("Café ☕") && quiet.stdout.contains("“Niño”") && quiet.stdout.contains("roto"))
        let debug = try ChildProcess.run(
            Paths.executable("faro"), ["page", url, "--device-id", Self.deviceID],
            environment: folder.xdgEnvironment.merging(["G_MESSAGES_DEBUG": "faro"]) { $1 }, timeout: 60)
        #expect(debug.stdout == quiet.stdout)
        let lines = debug.stderr.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("faro-DEBUG: reader: \(url): ") }, "\(lines)")
        #expect(lines.contains { $0.contains("3 byte(s) are not UTF-8 as the HTTP header says") }, "\(lines)")
        #expect(lines.contains { $0.contains("libxml2 recovered from") }, "\(lines)")
        #expect(!debug.stderr.contains(Self.deviceID) && !debug.stderr.contains("imei"))
    }

    @Test func aSavedPageShowsOfflineWhatItShowedOnline() throws {
        let site = try TestSite(pageBytes: Array(Self.frameworkPage.utf8))
        let backend = try TestBackend(data: site.data)
        let url = backend.base + "/sitios/prueba/"
        let folder = try TemporaryDirectory("faro-web-js-saved")
        let faro = Paths.executable("faro")
        let online = try ChildProcess.run(
            faro, ["page", url, "--device-id", Self.deviceID], environment: folder.xdgEnvironment, timeout: 60)
        let file = folder.file("academia.mht")
        let save = try ChildProcess.run(
            faro, ["save", url, "-o", file, "--device-id", Self.deviceID], environment: folder.xdgEnvironment,
            timeout: 60)
        #expect(save.status == 0, "\(save.stderr)")
        // The tracking pixel in the noscript is not shown, so it was not fetched (nor left out with a warning).
        #expect(!save.stderr.contains("px.ejemplo.mx") && !save.stdout.contains("px.ejemplo.mx"), "\(save.stderr)")
        backend.stop()  // offline from here: only the archive is read
        let show = try ChildProcess.run(faro, ["show", file], environment: folder.xdgEnvironment, timeout: 60)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == online.stdout, "\(show.stdout)")
        #expect(show.stdout == Self.expectedText + "\n")
        #expect(show.stderr == online.stderr, "\(show.stderr)")
        // Guardados holds the same archive, and the window opens it through ArchiveOpener.
        let database = try FaroDatabase(path: FaroDatabase.defaultPath(environment: folder.xdgEnvironment))
        let saved = try #require(try database.savedPages.list().first)
        let opened = try ArchiveOpener.open(try #require(try database.savedPages.archive(id: saved.id)))
        #expect(PlainTextRenderer.render(opened.document) == Self.expectedText + "\n")
        #expect(opened.document.needsJavaScript == .noscriptAsksForIt)
    }
}
