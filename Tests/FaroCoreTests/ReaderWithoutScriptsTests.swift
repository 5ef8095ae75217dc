import Testing

@testable import FaroCore

/// What a page shows when no script runs (docs/reading-pages.md): `<noscript>`, the JavaScript notice's signs,
/// MathML and inline SVG text, and a `<br>` at the end of an inline element.
@Suite("Reading pages without scripts")
struct ReaderWithoutScriptsTests {
    static func build(_ body: [HTMLNode], head: [HTMLNode] = []) -> ReadableDocument {
        ReadableDocumentBuilder.build(
            .el("html", [:], [.el("head", [:], head), .el("body", [:], body)]), baseURL: "https://ejemplo.mx/")
    }

    static func text(_ document: ReadableDocument) -> String { PlainTextRenderer.render(document) }

    @Test func noscriptIsShownInPlaceWithItsBlocks() {
        let doc = Self.build([
            .el("p", [:], [.text("Antes")]),
            .el(
                "noscript", [:],
                [
                    .el("h2", [:], [.text("Menú")]), .el("p", [:], [.text("Tacos al pastor")]),
                    .el("img", ["src": "https://px.ejemplo.mx/t.gif", "width": "1", "height": "1"]),
                ]),
            .el("p", [:], [.text("Después "), .el("noscript", [:], [.text("sin scripts")]), .text(" fin")]),
        ])
        #expect(
            doc.blocks == [
                .paragraph([.text("Antes")]), .heading(level: 2, [.text("Menú")]),
                .paragraph([.text("Tacos al pastor")]), .paragraph([.text("Después sin scripts fin")]),
            ])
    }

    @Test func hiddenNoscriptStaysHidden() {
        let doc = Self.build([
            .el("p", [:], [.text("Visible")]),
            .el("noscript", ["style": "display: none"], [.text("oculto uno")]),
            .el("noscript", ["hidden": ""], [.text("oculto dos")]),
            .el("noscript", [:], [.el("div", ["style": "display:none"], [.text("oculto tres")])]),
        ])
        #expect(Self.text(doc) == "Visible\n")
    }

    @Test func aFrameworkPageWithNoscriptSaysItNeedsJavaScript() {
        let doc = Self.build(
            [
                .el("div", ["id": "root"]),
                .el("noscript", [:], [.text("Necesitas habilitar JavaScript para ver este sitio.")]),
            ],
            head: [.el("script", ["type": "module", "src": "/assets/index-3f2a.js"])])
        #expect(doc.needsJavaScript == .noscriptAsksForIt)
        #expect(Self.text(doc) == "Necesitas habilitar JavaScript para ver este sitio.\n")
    }

    @Test func aFrameworkPageWithoutNoscriptIsRecognisedByItsEmptyRoot() {
        let react = Self.build(
            [.el("div", ["id": "root"], [.text("\n ")]), .el("script", ["src": "/static/js/main.js"])])
        #expect(react.needsJavaScript == .emptyScriptRoot("#root"))
        #expect(Self.text(react) == "\n")
        let angular = Self.build(
            [.el("h1", [:], [.text("Tienda")]), .el("app-root"), .el("script", ["src": "main.js"])])
        #expect(angular.needsJavaScript == .emptyScriptRoot("<app-root>"))
        // An id the page's own script fills.
        let custom = Self.build([
            .el("div", ["id": "tienda-vista"]),
            .el("script", [:], [.text("document.getElementById('tienda-vista').innerHTML = pintar()")]),
        ])
        #expect(custom.needsJavaScript == .emptyScriptRoot("#tienda-vista"))
    }

    @Test func aPageThatIsAllScriptSaysSo() {
        let doc = Self.build(
            [.el("script", [:], [.text("document.body.innerHTML = '<h1>Hola</h1>'")])],
            head: [.el("title", [:], [.text("Cargando")])])
        #expect(doc.needsJavaScript == .littleText)
        #expect(doc.blocks.isEmpty)
    }

    @Test func ordinaryPagesDoNotSayTheyNeedJavaScript() {
        let sentence = String(repeating: "Pan dulce recién horneado cada mañana. ", count: 8)
        // Scripts for analytics beside real text; an empty mount point on a long page; JSON-LD data only.
        let analytics = Self.build(
            [.el("p", [:], [.text(sentence)]), .el("script", [:], [.text("gtag('config', 'G-1')")])])
        #expect(analytics.needsJavaScript == nil)
        let jsonLD = Self.build(
            [.el("p", [:], [.text("Hola")]), .el("script", ["type": "application/ld+json"], [.text("{}")])])
        #expect(jsonLD.needsJavaScript == nil)
        let noScripts = Self.build([.el("p", [:], [.text("Hola")]), .el("div", ["id": "app"])])
        #expect(noScripts.needsJavaScript == nil)
        let long = String(repeating: sentence, count: 8)
        let widget = Self.build([
            .el("p", [:], [.text(long)]), .el("div", ["id": "app"]), .el("script", ["src": "chat.js"]),
        ])
        #expect(widget.needsJavaScript == nil)
        // A noscript with a tracking pixel asks for nothing.
        let pixel = Self.build([
            .el("p", [:], [.text(sentence)]), .el("script", [:], [.text("fbq('init')")]),
            .el(
                "noscript", [:],
                [.el("img", ["src": "https://www.facebook.com/tr?id=1", "style": "display:none", "height": "1"])]),
        ])
        #expect(pixel.needsJavaScript == nil)
        #expect(Self.text(pixel) == sentence.trimmingWhitespace() + "\n")
    }

    @Test func aBreakAtTheEndOfAnInlineElementStillBreaksTheLine() {
        let doc = Self.build([
            .el(
                "p", [:],
                [
                    .el("b", [:], [.text("Queue"), .el("br")]), .text(" ATF uses AWS "),
                    .el("a", ["href": "/sqs"], [.text("SQS"), .el("br")]), .text(" y "),
                    .el("em", [:], [.text("fin"), .el("br"), .el("br")]), .text("otra"),
                ])
        ])
        #expect(Self.text(doc) == "Queue\nATF uses AWS SQS <https://ejemplo.mx/sqs>\ny fin\notra\n")
        #expect(
            doc.blocks.first
                == .paragraph([
                    .strong([.text("Queue")]), .lineBreak, .text("ATF uses AWS "),
                    .link(href: "https://ejemplo.mx/sqs", [.text("SQS")]), .lineBreak, .text("y "),
                    .emphasis([.text("fin")]), .lineBreak, .text("otra"),
                ]))
    }

    @Test func mathMLReadsAsItsAnnotationOrItsCharacters() {
        let quadratic: HTMLNode = .el(
            "math", [:],
            [
                .el(
                    "semantics", [:],
                    [
                        .el(
                            "mrow", [:],
                            [
                                .el("mi", [:], [.text("x")]), .el("mo", [:], [.text("=")]),
                                .el("mn", [:], [.text("2")]),
                            ]),
                        .el("annotation", ["encoding": "application/x-tex"], [.text("x = \\frac{-b}{2a}")]),
                    ])
            ])
        let squared: HTMLNode = .el(
            "math", [:],
            [
                .el(
                    "msup", [:],
                    [.el("mi", [:], [.text("a")]), .el("mn", [:], [.text("2")])]),
                .el("mo", [:], [.text("+")]),
                .el("mi", [:], [.text("sin")]), .el("mi", [:], [.text(" x ")]),
            ])
        let doc = Self.build([
            .el("p", [:], [.text("When "), quadratic, .text(", there are two solutions.")]),
            .el("p", [:], [.text("Y "), squared, .text(" crece.")]),
            .el(
                "p", [:], [.text("Con "), .el("math", ["alttext": "pi r al cuadrado"], [.el("mi", [:], [.text("π")])])]),
        ])
        #expect(
            Self.text(doc)
                == "When x = \\frac{-b}{2a}, there are two solutions.\n\nY a2+sin x crece.\n\nCon pi r al cuadrado\n")
    }

    @Test func inlineSVGShowsWhatAScreenReaderReads() {
        let doc = Self.build([
            .el(
                "p", [:],
                [
                    .text("Logo"),
                    .el("svg", ["role": "img"], [.el("title", [:], [.text("Café La Parroquia")]), .el("path")]),
                    .text("y mapa"),
                    .el(
                        "svg", [:],
                        [
                            .el("desc", [:], [.text("descripción larga")]),
                            .el("g", [:], [.el("text", [:], [.text("Entrada")]), .el("text", [:], [.text("Caja")])]),
                        ]),
                    .el("svg", ["aria-hidden": "true"], [.el("text", [:], [.text("decorado")])]),
                    .text("."),
                ])
        ])
        #expect(Self.text(doc) == "Logo Café La Parroquia y mapa Entrada Caja .\n")
    }

    @Test func textInATableOutsideItsCellsIsShownBeforeIt() {
        let doc = Self.build([
            .el(
                "table", [:],
                [
                    .el("p", [:], [.text("Aviso suelto")]),
                    .el("tbody", [:], [.el("tr", [:], [.el("td", [:], [.text("a")]), .text(" perdido ")])]),
                    .el("form", [:], [.el("tr", [:], [.el("td", [:], [.text("b")])])]),
                ])
        ])
        #expect(Self.text(doc) == "Aviso suelto\n\nperdido\n\na\nb\n")
    }

    @Test func inlineQuotationsGetTheirQuotationMarks() {
        let doc = Self.build([.el("p", [:], [.text("Se pronuncia "), .el("q", [:], [.text("faro")]), .text(".")])])
        #expect(Self.text(doc) == "Se pronuncia “faro”.\n")
    }
}
