import FaroTestSupport
import Foundation
import Testing

extension WindowTests {
    /// A demo data folder whose café is a framework page with a `<noscript>` and whose bakery is all script.
    static func javaScriptSites() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory("faro-ui-javascript")
        try FileManager.default.createDirectory(atPath: folder.file("demo"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.data + "/demo/sites", toPath: folder.file("demo/sites"))
        try FileManager.default.copyItem(
            atPath: Paths.data + "/demo/beacons.json", toPath: folder.file("demo/beacons.json"))
        let cafe = """
            <!doctype html>
            <html lang="es"><head><meta charset="UTF-8" /><title>Café La Parroquia</title>
            <script type="module" crossorigin src="/assets/index-4b1f9c2e.js"></script></head>
            <body><noscript>Necesitas habilitar JavaScript para ver este sitio.</noscript><div id="root"></div></body>
            </html>
            """
        let bakery = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>Panadería Santa Clara</title></head>
            <body><script>document.body.innerHTML = '<h1>Conchas</h1>'</script></body></html>
            """
        try cafe.write(
            toFile: folder.file("demo/sites/cafe-la-parroquia/index.html"), atomically: true, encoding: .utf8)
        try bakery.write(
            toFile: folder.file("demo/sites/panaderia-santa-clara/index.html"), atomically: true, encoding: .utf8)
        return folder
    }

    /// In the Spanish window, through AT-SPI: a page that needs JavaScript shows its `<noscript>` text and the line
    /// "Este sitio necesita JavaScript para mostrarse completo" with "Abrir en el navegador", whose tooltip says why
    /// the device id is left out; the button hands the browser the site's address without the device id (the page
    /// itself was loaded with it). A page that is all script shows the same line, and the saved copy of the first,
    /// opened from Guardados, shows what the live page showed.
    @Test func aPageThatNeedsJavaScriptSaysSoAndOpensInTheBrowserWithoutTheDeviceID() throws {
        let sites = try Self.javaScriptSites()
        let backend = try Backend(data: sites.path)
        let data = try TemporaryDirectory("faro-ui")
        let r = try drive(["javascript"], language: "es", backend: backend, data: data)
        #expect(r.status == 0, "\(r.output)")
        #expect(
            r.output.contains(
                "OK javascript-line 'Este sitio necesita JavaScript para mostrarse completo' 'Abrir en el navegador'"),
            "\(r.output)")
        #expect(r.output.contains("OK javascript-all-script"), "\(r.output)")
        #expect(r.output.contains("OK javascript-saved"), "\(r.output)")
        // Both from the live page and from its saved copy in Guardados.
        #expect(openedURLs(data) == Array(repeating: backend.url + "/sitios/cafe-la-parroquia/", count: 2))
        #expect(!openedURLs(data).joined().contains("imei"))
        // The content view's own load did carry the device id.
        let loads = try backend.siteRequests().filter { $0["path"] as? String == "/sitios/cafe-la-parroquia" }
        #expect(!loads.isEmpty && loads.allSatisfy { ($0["query"] as? String ?? "").contains("imei=") }, "\(loads)")
    }
}
