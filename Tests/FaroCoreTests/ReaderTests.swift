import Foundation
import Testing

@testable import FaroCore

@Suite("Readable document")
struct ReaderTests {
    typealias N = HTMLNode

    static let page: HTMLNode = .el(
        "html", [:],
        [
            .el(
                "head", [:],
                [.el("title", [:], [.text("  Café   de olla ")]), .el("style", [:], [.text("p{color:red}")])]),
            .el(
                "body", [:],
                [
                    .el("script", [:], [.text("alert('x')")]),
                    .el("h1", ["id": "inicio"], [.text("Bienvenidos")]),
                    .el(
                        "p", [:],
                        [
                            .text("Pan   dulce\n y "), .el("em", [:], [.text("café")]), .text(" de "),
                            .el("strong", [:], [.text("olla")]), .text("."),
                        ]),
                    .el(
                        "p", [:],
                        [
                            .el("a", ["href": "menu.html"], [.text("Menú")]), .text(" · "),
                            .el("a", ["href": "#horario"], [.text("Horario")]), .text(" · "),
                            .el("a", ["href": "javascript:alert(1)"], [.text("Truco")]),
                        ]),
                    .el("div", ["style": "display: none"], [.text("oculto")]),
                    .el("p", ["hidden": ""], [.text("también oculto")]),
                    .el("form", [:], [.el("input", ["type": "text", "value": "secreto"]), .text("Formulario")]),
                    .el(
                        "ul", [:],
                        [
                            .el("li", [:], [.text("Concha")]),
                            .el(
                                "li", [:],
                                [
                                    .text("Oreja"),
                                    .el("ol", [:], [.el("li", [:], [.text("chica")])]),
                                ]),
                        ]),
                    .el("img", ["src": "/img/pan.png", "alt": "Pan"]),
                    .el(
                        "table", [:],
                        [
                            .el(
                                "tbody", [:],
                                [
                                    .el(
                                        "tr", [:], [.el("th", [:], [.text("Día")]), .el("th", [:], [.text("Horario")])]),
                                    .el(
                                        "tr", [:],
                                        [.el("td", [:], [.text("Lunes")]), .el("td", [:], [.text("8 a 20")])]),
                                ])
                        ]),
                    .el("h2", ["id": "horario"], [.text("Horario")]),
                    .el("pre", [:], [.text("\n  L  8-20\n  D  cerrado\n")]),
                ]),
        ])

    @Test func buildsTheModelAndDropsWhatIsNeverShown() {
        let doc = ReadableDocumentBuilder.build(Self.page, baseURL: "http://127.0.0.1:9/sitios/cafe/")
        #expect(doc.title == "Café de olla")
        #expect(doc.blocks.first == .heading(level: 1, [.anchor("inicio"), .text("Bienvenidos")]))
        #expect(
            doc.blocks.contains(
                .paragraph([
                    .text("Pan dulce y "), .emphasis([.text("café")]), .text(" de "),
                    .strong([.text("olla")]), .text("."),
                ])))
        #expect(
            doc.blocks.contains(
                .paragraph([
                    .link(href: "http://127.0.0.1:9/sitios/cafe/menu.html", [.text("Menú")]),
                    .text(" · "), .link(href: "#horario", [.text("Horario")]), .text(" · Truco"),
                ])))
        #expect(
            doc.blocks.contains(
                .list(
                    ordered: false,
                    items: [
                        [.paragraph([.text("Concha")])],
                        [.paragraph([.text("Oreja")]), .list(ordered: true, items: [[.paragraph([.text("chica")])]])],
                    ])))
        #expect(doc.imageSources == ["http://127.0.0.1:9/img/pan.png"])
        #expect(
            doc.blocks.contains(
                .table(rows: [
                    [[.strong([.text("Día")])], [.strong([.text("Horario")])]],
                    [[.text("Lunes")], [.text("8 a 20")]],
                ])))
        #expect(doc.blocks.contains(.preformatted("  L  8-20\n  D  cerrado")))
        let text = PlainTextRenderer.render(doc)
        for hidden in ["alert", "oculto", "secreto", "Formulario", "color:red", "javascript"] {
            #expect(!text.contains(hidden), "\(hidden) must never be shown")
        }
    }

    @Test func rendersReadablePlainText() {
        let doc = ReadableDocumentBuilder.build(Self.page, baseURL: "http://127.0.0.1:9/sitios/cafe/")
        let expected = """
            Café de olla
            ============

            # Bienvenidos

            Pan dulce y café de olla.

            Menú <http://127.0.0.1:9/sitios/cafe/menu.html> · Horario · Truco

            - Concha
            - Oreja
              1. chica

            [image: Pan]

            Día | Horario
            Lunes | 8 a 20

            ## Horario

                  L  8-20
                  D  cerrado

            """
        #expect(PlainTextRenderer.render(doc) == expected)
    }

    @Test func baseHrefWinsAndBlocksInsideLinksAreFlattened() {
        let page: HTMLNode = .el(
            "html", [:],
            [
                .el("head", [:], [.el("base", ["href": "https://cdn.ejemplo.mx/a/"])]),
                .el(
                    "body", [:],
                    [.el("a", ["href": "x.html"], [.el("div", [:], [.text("Uno")]), .el("div", [:], [.text("Dos")])])]),
            ])
        let doc = ReadableDocumentBuilder.build(page, baseURL: "http://127.0.0.1/")
        #expect(
            doc.blocks == [
                .paragraph([.link(href: "https://cdn.ejemplo.mx/a/x.html", [.text("Uno"), .lineBreak, .text("Dos")])])
            ])
        #expect(doc.title == nil)
    }

    @Test func hugePagesAreCutWithANote() {
        let paragraphs = (0..<500).map { HTMLNode.el("p", [:], [.text("Párrafo \($0)")]) }
        let doc = ReadableDocumentBuilder.build(
            .el("body", [:], paragraphs), baseURL: nil, limits: ReaderLimits(maxBlocks: 100))
        #expect(doc.blocks.count == 101)  // 100 paragraphs and the note
        #expect(doc.blocks.last == .paragraph([.text(ReadableDocumentBuilder.truncationNote)]))
    }

    @Test func deepNestingDoesNotRecurseWithoutBound() {
        var node = HTMLNode.text("fondo")
        for _ in 0..<5000 { node = .el("div", [:], [node]) }
        let doc = ReadableDocumentBuilder.build(node, baseURL: nil)
        #expect(!PlainTextRenderer.render(doc).contains("fondo"))
    }
}

@Suite("Styled runs for the content view")
struct StyledRunsTests {
    @Test func layoutCarriesStylesLinksImagesAnchorsAndMarkers() {
        let doc = ReadableDocumentBuilder.build(ReaderTests.page, baseURL: "http://127.0.0.1:9/sitios/cafe/")
        let runs = StyledRuns.layout(doc)
        #expect(runs.first == StyledRun(.text("Café de olla"), styles: [.title]))
        #expect(runs.contains(StyledRun(.anchor("inicio"))))
        #expect(runs.contains(StyledRun(.text("Bienvenidos"), styles: [.heading(1)])))
        #expect(runs.contains(StyledRun(.text("café"), styles: [.emphasis])))
        #expect(runs.contains(StyledRun(.text("Menú"), link: "http://127.0.0.1:9/sitios/cafe/menu.html")))
        #expect(runs.contains(StyledRun(.text("Horario"), link: "#horario")))
        #expect(runs.contains(StyledRun(.image(source: "http://127.0.0.1:9/img/pan.png", alt: "Pan"))))
        #expect(runs.contains(StyledRun(.text("  L  8-20\n  D  cerrado"), styles: [.preformatted])))
        let text = StyledRuns.plainText(runs)
        #expect(text.hasPrefix("Café de olla\n\nBienvenidos\n\nPan dulce y café de olla."))
        #expect(text.contains("• Concha\n\n• Oreja\n\n1. chica"))
        #expect(text.contains("Día  |  Horario\n\nLunes  |  8 a 20"))
        // The anchor of "Horario" sits right before its heading, so `#horario` scrolls there.
        let anchor = runs.firstIndex(of: StyledRun(.anchor("horario")))
        let heading = runs.firstIndex(of: StyledRun(.text("Horario"), styles: [.heading(2)]))
        #expect(anchor != nil && heading == anchor.map { $0 + 1 })
    }
}

@Suite("Link resolution fast path")
struct LinkResolutionTests {
    @Test(arguments: [
        "http://127.0.0.1:8080/sitios/cafe/index.html?x=1", "https://ejemplo.mx", "https://ejemplo.mx/a/b",
    ])
    func fastPathAgreesWithFoundation(_ baseText: String) throws {
        let base = try #require(URL(string: baseText))
        let parts = try #require(ReadableDocumentBuilder.BaseParts(base))
        let references = [
            "menu.html", "img/a.png", "/sitios/x/", "a-b_c~d.e", "http://otro.mx/p", "HTTPS://otro.mx:8443/p/q",
            "../arriba.html", "./aqui.html", "a b.html", "x.html?y=1", "#ancla", "//cdn.mx/x.js", "mailto:a@b.mx",
            "dir/../x.html", "ñ.html", "javascript:alert(1)",
        ]
        var fast = 0
        for reference in references {
            let expected = URL(string: reference, relativeTo: base)?.absoluteURL.absoluteString
            if let quick = ReadableDocumentBuilder.resolveSimple(reference, base: parts, schemes: ["http", "https"]) {
                fast += 1
                #expect(quick.lowercased() == expected?.lowercased(), "\(reference) against \(baseText)")
            }
        }
        #expect(fast == 6)  // the first six take the fast path, the rest the full parser
    }
}

@Suite("data: URLs")
struct DataURLTests {
    @Test func decodesBase64AndPercentEncodedPayloads() {
        #expect(
            DataURL.decode("data:image/png;base64,iVBORw0KGgo=")?.bytes == [
                0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A,
            ])
        #expect(DataURL.decode("data:image/png;base64,iVBORw0KGgo=")?.mediaType == "image/png")
        #expect(DataURL.decode("DATA:,Hola%20mundo")?.bytes == Array("Hola mundo".utf8))
        #expect(DataURL.decode("data:,x")?.mediaType == "text/plain")
        #expect(DataURL.decode("data:image/png;base64,**") == nil)
        #expect(DataURL.decode("http://x/a.png") == nil)
    }
}
