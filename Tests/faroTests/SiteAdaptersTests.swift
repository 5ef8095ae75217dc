import FaroApp
import FaroCore
import FaroStore
import FaroTestSupport
import Foundation
import Testing

@testable import faro

/// The window's Guardados actions on a real SQLite file: export writes the stored archive byte for byte, open
/// reads it back without any network, delete removes it.
@Suite("Guardados store actions")
struct SiteAdaptersTests {
    @Test func exportOpenAndDeleteASavedPage() throws {
        let dir = try TemporaryDirectory("faro-saved")
        let database = try FaroDatabase(path: dir.file("faro.sqlite3"))
        let html =
            "<html><head><title>Café de olla</title></head><body><h1>Café de olla</h1><p>Con canela.</p></body></html>"
        let page = MHTWriter().write(
            MHTWriter.Page(
                url: "http://127.0.0.1:9/sitios/cafe/", title: "Café de olla", html: Array(html.utf8), charset: "utf-8",
                savedAt: Date(timeIntervalSince1970: 0), resources: []))
        let id = try database.savedPages.save(
            url: "http://127.0.0.1:9/sitios/cafe/", title: "Café de olla",
            business: "Café La Parroquia", mht: page, now: 1_800_000_000)
        let adapters = SiteAdapters(database: database, deviceID: "x")

        #expect(adapters.savedSites().map(\.title) == ["Café de olla"])
        #expect(adapters.savedCopy(of: "http://127.0.0.1:9/sitios/cafe/?imei=123") == id)

        let target = dir.file("export.mht")
        try adapters.exportSaved(id, to: target)
        #expect(FileManager.default.contents(atPath: target).map(Array.init) == page)

        let opened = try adapters.openSaved(id)
        #expect(PlainTextRenderer.render(opened.document).contains("Con canela."))

        try adapters.deleteSaved(id)
        #expect(adapters.savedSites().isEmpty)
        #expect(throws: SiteError.self) { try adapters.exportSaved(id, to: dir.file("gone.mht")) }
    }
}
