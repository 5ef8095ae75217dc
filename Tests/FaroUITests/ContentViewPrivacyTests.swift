import CGtk
import FaroApp
import FaroCore
import FaroStore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroUI
@testable import faro

/// The real content view (SitePage with the window's own SiteAdapters, on GTK under Xvfb) for a place whose URL
/// carries the device id: every error it shows leaves the id out; a plain-http page from another host says in one
/// line that it is shown without the id; a save past the archive limit says so and the page goes on working.
///
/// libcurl reads `http_proxy`, and Faro the test-only `FARO_TEST_CA_BUNDLE`, from the environment when a load
/// starts: the tests that need them set them for their own duration only (the suites run one at a time).
@Suite("Content view and the device id", .serialized)
@MainActor
struct ContentViewPrivacyTests {
    nonisolated static let id = "356938035643809"

    /// A content view on a fresh profile, as the window builds it.
    @MainActor
    final class View {
        let folder: TemporaryDirectory
        let database: FaroDatabase
        let adapters: SiteAdapters
        let page: SitePage

        init() throws {
            folder = try TemporaryDirectory("faro-content-view")
            database = try FaroDatabase(path: folder.file("faro.sqlite3"))
            adapters = SiteAdapters(database: database, deviceID: ContentViewPrivacyTests.id)
            let clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
            page = SitePage(
                services: adapters,
                useCases: FaroUseCases(
                    profile: ContactProfileAdapter(database: database), outbox: OutboxAdapter(database: database),
                    flags: SiteFlagsAdapter(database: database), deviceID: ContentViewPrivacyTests.id, clock: clock),
                clock: clock)
        }

        /// Opens `url` as a place's microsite and runs the main loop until the page answered (an error, or its
        /// text); returns the error line and the notice line.
        func open(_ url: String) -> (error: String, notice: String, text: String) {
            let identity = BeaconIdentity(
                uuid: BeaconUUID("fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1")!, major: 1, minor: 1)
            page.open(CatalogPlace(identity: identity, cliente: "Prueba", titulo: "Sitio", url: url))
            ReadableTextViewTests.runMainLoop { !self.page.isLoading }
            return (page.shownError, page.shownNotice, page.shownText)
        }
    }

    /// Sets an environment variable for the duration of `body`.
    static func with<T>(_ name: String, _ value: String, _ body: () throws -> T) rethrows -> T {
        setenv(name, value, 1)
        defer { unsetenv(name) }
        return try body()
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func everyErrorTheContentViewShowsLeavesTheIDOut() throws {
        try ReadableTextViewTests.gtk()
        try RequiredTool.openssl.require()
        let peer = try HTTPSPeer()
        let backend = try TestBackend()
        let view = try View()
        var cases: [(what: String, url: String, trusted: Bool, says: String)] = [
            ("untrusted certificate", peer.httpsBase + "/page?imei=\(Self.id)", false, "secure connection"),
            ("refused connection", "https://127.0.0.1:1/?imei=\(Self.id)", false, "could not be reached"),
            ("not a web address", "ftp://127.0.0.1/x?imei=\(Self.id)", false, "address is not valid"),
            ("HTTP error", backend.base + "/sitios/no-existe/?imei=\(Self.id)", false, "error 404"),
            (
                "redirect loop", backend.base + "/debug/redirect?loop=0&imei=\(Self.id)", false,
                "address it does not follow"
            ),
        ]
        cases += [
            ("wrong host name", peer.wrongNameBase + "/page?imei=\(Self.id)", true, "secure connection"),
            ("https to http", peer.httpsBase + "/to-http?imei=\(Self.id)", true, "address it does not follow"),
            ("https to ftp", peer.httpsBase + "/to-ftp?imei=\(Self.id)", true, "address it does not follow"),
            ("HTTP error over https", peer.httpsBase + "/status/500?imei=\(Self.id)", true, "error 500"),
        ]
        for c in cases {
            let shown =
                c.trusted ? Self.with("FARO_TEST_CA_BUNDLE", peer.caBundle) { view.open(c.url) } : view.open(c.url)
            #expect(shown.error.contains("The site could not be loaded"), "\(c.what): \(shown)")
            #expect(shown.error.contains(c.says), "\(c.what): \(shown.error)")
            #expect(!shown.error.contains(Self.id) && !shown.notice.contains(Self.id), "\(c.what): \(shown)")
        }
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func aPlainHTTPPageSaysItIsShownWithoutTheID() throws {
        try ReadableTextViewTests.gtk()
        try RequiredTool.openssl.require()
        let peer = try HTTPSPeer()
        let view = try View()
        let plain = Self.with("http_proxy", peer.httpBase) { view.open("http://shop.example/sitio/") }
        #expect(plain.error.isEmpty, "\(plain.error)")
        #expect(plain.text.contains("Asked for http://shop.example/sitio/"))
        #expect(plain.notice == "This page is shown without the device id because it is not https.")
        #expect(peer.requests == ["http GET http://shop.example/sitio/"])
        // Over https the id goes, and no such line is shown; the page's echoed links do not show it.
        let secure = Self.with("FARO_TEST_CA_BUNDLE", peer.caBundle) { view.open(peer.httpsBase + "/page") }
        #expect(secure.error.isEmpty && secure.notice.isEmpty, "\(secure)")
        #expect(peer.requests.last == "https GET /page?imei=\(Self.id)")
        #expect(!secure.text.contains(Self.id))
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func savingPastTheArchiveLimitSaysSoAndThePageGoesOn() throws {
        try ReadableTextViewTests.gtk()
        // A page whose pictures weigh 70 MB: more than the 64 MB an archive may hold.
        let site = try TestSite()
        let folder = site.folder.file("demo/sites/prueba")
        let html =
            "<html><head><title>Pesada</title></head><body><h1>Pesada</h1><p>\(TestSite.sentence)</p>"
            + (0..<5).map { "<img src=\"big\($0).png\" alt=\"grande \($0)\">" }.joined() + "</body></html>"
        try Data(html.utf8).write(to: URL(fileURLWithPath: folder + "/index.html"))
        for n in 0..<5 { try Data(count: 14 << 20).write(to: URL(fileURLWithPath: folder + "/big\(n).png")) }
        let backend = try TestBackend(data: site.data)
        let view = try View()
        let url = backend.base + "/sitios/prueba/"
        let opened = view.open(url)
        #expect(opened.error.isEmpty && opened.text.contains(TestSite.sentence), "\(opened)")
        let save = try #require(Self.button(in: view.page.root, label: "_Save page"))
        gtk_button_clicked(cast(save))
        ReadableTextViewTests.runMainLoop { view.page.shownNotice.contains("could not be saved") }
        #expect(view.page.shownNotice.contains("larger than 64 MB"), "\(view.page.shownNotice)")
        #expect(try view.database.savedPages.list().isEmpty)
        // The button works again and the page reloads.
        #expect(gtk_widget_get_sensitive(save) != 0)
        let again = view.open(url)
        #expect(again.error.isEmpty && again.text.contains(TestSite.sentence))
    }

    /// The first button under `widget` whose label is `label`.
    static func button(in widget: UnsafeMutablePointer<GtkWidget>, label: String) -> UnsafeMutablePointer<GtkWidget>? {
        let instance = UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)
        if g_type_check_instance_is_a(instance, gtk_button_get_type()) != 0,
            let text = gtk_button_get_label(cast(widget)), String(cString: text) == label
        {
            return widget
        }
        guard g_type_check_instance_is_a(instance, gtk_container_get_type()) != 0 else { return nil }
        let children = gtk_container_get_children(cast(widget))
        defer { g_list_free(children) }
        var node = children
        while let current = node {
            if let child = current.pointee.data?.assumingMemoryBound(to: GtkWidget.self),
                let found = button(in: child, label: label)
            {
                return found
            }
            node = current.pointee.next
        }
        return nil
    }
}
