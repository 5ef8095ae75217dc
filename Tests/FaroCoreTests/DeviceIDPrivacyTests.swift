import FoundationEssentials
import Testing

@testable import FaroCore

/// The device id's rules (docs/content-view.md, docs/privacy.md) in the pure core: it is added only where it cannot travel in clear
/// text, and it is taken out of every URL and document that is shown, saved or exported.
@Suite("Device id privacy rules")
struct DeviceIDPrivacyTests {
    static let id = "356938035643809"

    @Test(arguments: [
        ("https://ejemplo.mx/sitio/", true),
        ("HTTPS://Ejemplo.MX/", true),
        ("http://127.0.0.1:8080/sitios/cafe/", true),
        ("http://127.8.9.10/", true),
        ("http://localhost:9/x", true),
        ("http://[::1]:8080/x", true),
        ("http://ejemplo.mx/sitio/", false),
        ("http://127.0.0.1.ejemplo.mx/", false),
        ("http://user@ejemplo.mx/", false),
        ("http://127.0.0.1@ejemplo.mx/", false),
        ("ftp://127.0.0.1/", false),
        ("file:///etc/passwd", false),
        ("no es una URL", false),
    ])
    func theIDGoesOnlyWhereItCannotBeReadOnTheWay(_ url: String, _ allowed: Bool) {
        #expect(DeviceIDURL.mayCarryDeviceID(url) == allowed, "\(url)")
    }

    @Test func loadsOfPlainHTTPFromAnotherHostCarryNoID() {
        #expect(
            DeviceIDURL.forLoad("https://ejemplo.mx/p", deviceID: Self.id) == "https://ejemplo.mx/p?imei=\(Self.id)")
        #expect(DeviceIDURL.forLoad("http://ejemplo.mx/p", deviceID: Self.id) == "http://ejemplo.mx/p")
        // An id already in a plain-http URL is taken out, never sent.
        #expect(DeviceIDURL.forLoad("http://ejemplo.mx/p?imei=9&a=1", deviceID: Self.id) == "http://ejemplo.mx/p?a=1")
        #expect(DeviceIDURL.forLoad("https://ejemplo.mx/p", deviceID: nil) == "https://ejemplo.mx/p")
    }

    @Test func loopbackIsOnlyThisComputer() {
        for host in ["127.0.0.1", "127.255.0.1", "localhost", "LOCALHOST", "::1", "[::1]", "0:0:0:0:0:0:0:1"] {
            #expect(LoopbackHost.contains(host), "\(host)")
        }
        for host in ["128.0.0.1", "127.0.0", "127.0.0.1.evil", "127.0.0.256", "127.0.0.0001", "localhost.", "", "::2"] {
            #expect(!LoopbackHost.contains(host), "\(host)")
        }
        for host in ["127.0.0.+1", "127.+0.0.1", "127.0.0.-0"] {
            #expect(!LoopbackHost.contains(host), "\(host)")
        }
    }

    @Test func aRedactedURLNeverHoldsTheID() {
        let url = RedactedURL("https://ejemplo.mx/p?a=1&imei=\(Self.id)#top")
        #expect(url.text == "https://ejemplo.mx/p?a=1#top")
        #expect("\(url)" == "https://ejemplo.mx/p?a=1#top")
        let literal: RedactedURL = "https://ejemplo.mx/?IMEI=1"
        #expect(literal.text == "https://ejemplo.mx/")
    }

    @Test func theScrubberTakesEchoedParametersOutOfHTML() {
        let html = """
            <a href="/next?imei=\(Self.id)">a</a> <a href="/n?x=1&imei=\(Self.id)&y=2">b</a>
            <a href="/m?x=1&amp;imei=\(Self.id)">c</a> <img src='/i.png?imei=\(Self.id)&amp;s=2'>
            <a href="https://share.example/?u=https%3A%2F%2Fa.mx%2F%3Fimei%3D\(Self.id)%26k%3D1">d</a>
            <p>primei=keep imeis=keep</p>
            """
        let scrubbed = DeviceIDScrubber.scrub(html)
        #expect(!scrubbed.contains(Self.id))
        #expect(scrubbed.contains(#"href="/next""#))
        #expect(scrubbed.contains(#"href="/n?x=1&y=2""#))
        #expect(scrubbed.contains(#"href="/m?x=1""#))
        #expect(scrubbed.contains("src='/i.png?s=2'"))
        #expect(scrubbed.contains("u=https%3A%2F%2Fa.mx%2F%3Fk%3D1"))
        #expect(scrubbed.contains("primei=keep imeis=keep"))
    }

    @Test func theKnownIDGoesWhereverItIs() {
        let text = "var id = '\(Self.id)'; url('/x/\(Self.id)/y'); encoded a%20b"
        let scrubbed = DeviceIDScrubber.scrub(text, knownID: Self.id)
        #expect(scrubbed == "var id = ''; url('/x//y'); encoded a%20b")
        #expect(DeviceIDScrubber.scrub("id ab%20cd%2Fef", knownID: "ab cd/ef") == "id ")
        // Too short to be an id: left alone (a test id of "1" must not eat every digit).
        #expect(DeviceIDScrubber.scrub("1 2 3", knownID: "1") == "1 2 3")
        let plain = "nothing to take out here"
        #expect(DeviceIDScrubber.scrub(plain, knownID: Self.id) == plain)
    }

    @Test func aPageThatEchoesTheIDIntoItsLinksShowsThemWithoutIt() {
        let root = HTMLNode.el(
            "html", [:],
            [
                .el(
                    "body", [:],
                    [
                        .el(
                            "p", [:],
                            [
                                .element(
                                    name: "a", attributes: ["href": "siguiente?imei=\(Self.id)&p=2"],
                                    children: [.text("siguiente")]),
                                .element(
                                    name: "a", attributes: ["href": "https://otro.mx/?imei=\(Self.id)"],
                                    children: [.text("otro")]),
                                .element(
                                    name: "img", attributes: ["src": "/foto.png?imei=\(Self.id)", "alt": "foto"],
                                    children: []),
                            ])
                    ])
            ])
        let document = ReadableDocumentBuilder.build(root, baseURL: "https://ejemplo.mx/sitio/")
        let text = PlainTextRenderer.render(document)
        #expect(!text.contains(Self.id) && !text.contains("imei"))
        #expect(text.contains("<https://ejemplo.mx/sitio/siguiente?p=2>"))
        #expect(text.contains("<https://otro.mx/>"))
        #expect(document.imageSources == ["https://ejemplo.mx/foto.png"])
    }

    @Test func archivesNeverCarryTheParameter() {
        let bytes = MHTWriter(boundaryToken: { "fixed" }).write(
            MHTWriter.Page(
                url: "https://ejemplo.mx/p?imei=\(Self.id)", title: "P",
                html: Array(#"<a href="/q?imei=\#(Self.id)">q</a>"#.utf8), charset: "utf-8",
                savedAt: Date(timeIntervalSince1970: 0),
                resources: [
                    .init(
                        url: "https://ejemplo.mx/s.css?imei=\(Self.id)", contentType: "text/css",
                        body: Array("a { background: url(/f.png?imei=\(Self.id)) }".utf8))
                ]))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains(Self.id))
        #expect(text.contains("Snapshot-Content-Location: https://ejemplo.mx/p\r\n"))
        #expect(text.contains("Content-Location: https://ejemplo.mx/s.css\r\n"))
    }
}
