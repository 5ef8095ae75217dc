import FaroCore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroWeb

/// Real page bytes through libxml2 and the reader (docs/reading-pages.md): framework pages with and without
/// `<noscript>`, charsets declared right and wrong (legacy bytes made by glibc's `iconv`), mixed encodings, MathML,
/// SVG and a `<br>` at the end of an inline element.
@Suite("Reading real page bytes")
struct PageReadingTests {
    static func read(_ bytes: [UInt8], charset: String? = nil) -> (ReadableDocument, String) {
        let document = HTMLParser.readableDocument(bytes, charset: charset, url: "https://ejemplo.mx/")
        return (document, PlainTextRenderer.render(document))
    }

    /// `text` in `encoding`, converted by the `iconv` command (the bytes a legacy page really holds).
    static func iconv(_ text: String, to encoding: String) throws -> [UInt8] {
        let folder = try TemporaryDirectory("faro-iconv")
        let out = folder.file("out")
        let r = try ChildProcess.run(
            "/usr/bin/iconv", ["-f", "UTF-8", "-t", encoding, "-o", out], stdin: Data(text.utf8), timeout: 30)
        try #require(r.status == 0, "iconv to \(encoding): \(r.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    static let viteNoscript = """
        <!doctype html>
        <html lang="es">
          <head>
            <meta charset="UTF-8" />
            <link rel="icon" type="image/svg+xml" href="/vite.svg" />
            <meta name="viewport" content="width=device-width, initial-scale=1.0" />
            <title>Taquería Los Cocuyos</title>
            <script type="module" crossorigin src="/assets/index-4b1f9c2e.js"></script>
            <link rel="stylesheet" href="/assets/index-7d3a.css">
          </head>
          <body>
            <noscript>Necesitas habilitar JavaScript para ver este sitio.</noscript>
            <div id="root"></div>
          </body>
        </html>
        """

    @Test func aFrameworkPageWithNoscriptShowsItAndSaysItNeedsJavaScript() {
        let (doc, text) = Self.read(Array(Self.viteNoscript.utf8))
        #expect(doc.needsJavaScript == .noscriptAsksForIt)
        #expect(
            text
                == "Taquería Los Cocuyos\n====================\n\nNecesitas habilitar JavaScript para ver este sitio.\n"
        )
    }

    @Test func aFrameworkPageWithoutNoscriptSaysItNeedsJavaScript() {
        let html = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>Farmacia</title>
            <script defer="defer" src="/static/js/main.8a1b2c.js"></script></head>
            <body><div id="app"></div></body></html>
            """
        let (doc, _) = Self.read(Array(html.utf8))
        #expect(doc.needsJavaScript == .emptyScriptRoot("#app"))
        let allScript = "<html><head><script>document.write('<h1>Hola</h1>')</script></head><body></body></html>"
        #expect(Self.read(Array(allScript.utf8)).0.needsJavaScript == .littleText)
        // A noscript the parser leaves in the head still shows, as a browser without scripts shows it.
        let inHead =
            "<html><head><noscript>Activa JavaScript</noscript><script src=a.js></script></head><body></body></html>"
        let (headDoc, headText) = Self.read(Array(inHead.utf8))
        #expect(headDoc.needsJavaScript == .noscriptAsksForIt)
        #expect(headText == "Activa JavaScript\n")
    }

    @Test func aWrongMetaCharsetOnUTF8BytesReadsAsUTF8() {
        let html = """
            <html><head><meta charset="gb2312"><title>Librería 书店</title></head>
            <body><p>Novedades de la semana: 你好世界, café y piñata.</p><p>Segundo párrafo con acentos: ñandú.</p></body></html>
            """
        let (tree, report) = HTMLParser.parseReporting(Array(html.utf8), url: "https://ejemplo.mx/")
        let text = PlainTextRenderer.render(ReadableDocumentBuilder.build(tree, baseURL: nil))
        #expect(text.contains("Novedades de la semana: 你好世界, café y piñata."), "\(text)")
        #expect(text.contains("Segundo párrafo con acentos: ñandú."))
        #expect(text.hasPrefix("Librería 书店\n"))
        #expect(report.charset == .utf8)
        #expect(report.encodingWarnings == ["the <meta> says gbk but the bytes are UTF-8: read as UTF-8"])
        // The same with the wrong charset in the HTTP header.
        let (_, httpText) = Self.read(Array(html.utf8), charset: "iso-8859-1")
        #expect(httpText.contains("你好世界, café y piñata."))
    }

    @Test(arguments: [
        ("windows-1252", "WINDOWS-1252", "“Niño” pagó 5 € por el café; ¿sí? ¡Olé!"),
        ("iso-8859-1", "ISO-8859-1", "Añejo, güero, corazón."),
        ("iso-8859-2", "ISO-8859-2", "Zażółć gęślą jaźń. Příliš žluťoučký kůň."),
        ("iso-8859-5", "ISO-8859-5", "Съешь же ещё этих мягких французских булок."),
        ("iso-8859-7", "ISO-8859-7", "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία."),
        ("iso-8859-15", "ISO-8859-15", "Œuvre à 20 €, façon Šárka."),
        ("shift_jis", "SHIFT_JIS", "日本語のページです。カタカナとひらがな。"),
        ("euc-jp", "EUC-JP", "東京の天気は晴れです。"),
        ("gb2312", "GB2312", "简体中文网页，欢迎光临本店。"),
        ("gbk", "GBK", "欢迎光临，镕基与喆。"),
        ("big5", "BIG5", "繁體中文網頁，歡迎光臨。"),
        ("euc-kr", "EUC-KR", "한국어 웹 페이지입니다. 환영합니다."),
        ("koi8-r", "KOI8-R", "Привет, мир!"),
    ])
    func correctlyDeclaredLegacyCharsetsKeepWorking(_ label: String, _ iconvName: String, _ sentence: String) throws {
        let head = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=\(label)\"></head>"
        let page = try Self.iconv(head + "<body><p>\(sentence)</p></body></html>", to: iconvName)
        #expect(!UTF8Check(page[...]).isValid, "the \(label) bytes must not be UTF-8 for this test to mean anything")
        let (tree, report) = HTMLParser.parseReporting(page)
        #expect(report.encodingWarnings.isEmpty, "\(report.encodingWarnings)")
        #expect(report.source == .meta)
        #expect(PlainTextRenderer.render(ReadableDocumentBuilder.build(tree, baseURL: nil)) == sentence + "\n")
        // Declared by HTTP instead (no <meta>), as a server does.
        let bare = try Self.iconv("<p>\(sentence)</p>", to: iconvName)
        #expect(Self.read(bare, charset: label).1 == sentence + "\n")
    }

    @Test func theCharsetComesFromTheByteOrderMarkThenHTTPThenMeta() throws {
        let body = "<html><head><meta charset=\"windows-1252\"></head><body><p>Año 2026</p></body></html>"
        // A UTF-8 byte order mark wins over everything.
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(body.utf8)
        let (_, bomReport) = HTMLParser.parseReporting(bom, charset: "iso-8859-2")
        #expect(bomReport.source == .byteOrderMark)
        #expect(Self.read(bom, charset: "iso-8859-2").1 == "Año 2026\n")
        // UTF-16 with its byte order mark.
        let utf16 = try Self.iconv(body, to: "UTF-16")
        #expect(Self.read(utf16).1 == "Año 2026\n")
        // HTTP says ISO-8859-2 on bytes that are not UTF-8: HTTP wins over the page's <meta> (0xF1 is ń there).
        let latin = try Self.iconv(body, to: "ISO-8859-1")
        #expect(Self.read(latin, charset: "iso-8859-2").1 == "Ańo 2026\n")
        // Nothing declared, not UTF-8: windows-1252.
        let undeclared = try Self.iconv("<p>Año “2026”</p>", to: "WINDOWS-1252")
        let (_, report) = HTMLParser.parseReporting(undeclared)
        #expect(report.source == .fallback)
        #expect(Self.read(undeclared).1 == "Año “2026”\n")
        // A charset no browser knows is ignored, with a warning.
        let (_, unknown) = HTMLParser.parseReporting(Array("<p>Año</p>".utf8), charset: "x-klingon")
        #expect(unknown.encodingWarnings == ["the HTTP header names an unknown charset \"x-klingon\": ignored"])
        #expect(unknown.source == .utf8Check)
    }

    @Test func mixedEncodingsGetTheBestReadingAndAWarning() throws {
        // A UTF-8 page with a paragraph pasted in windows-1252, and a Shift_JIS page with a stray UTF-8 run.
        let pasted = try Self.iconv("<p>Pasado: “Niño” año</p>", to: "WINDOWS-1252")
        let page =
            Array("<html><head><meta charset=utf-8></head><body><p>Café ☕</p>".utf8) + pasted
            + Array("</body></html>".utf8)
        let (tree, report) = HTMLParser.parseReporting(page)
        let text = PlainTextRenderer.render(ReadableDocumentBuilder.build(tree, baseURL: nil))
        #expect(text == "Café ☕\n\nPasado: “Niño” año\n")
        #expect(report.encodingWarnings.count == 1)
        #expect(
            report.encodingWarnings.first?.hasPrefix("4 byte(s) are not UTF-8") == true, "\(report.encodingWarnings)")
        let sjis =
            try Self.iconv("<meta charset=shift_jis><p>日本</p>", to: "SHIFT_JIS") + [0xFF, 0xFF]
            + Array("<p>ok</p>".utf8)
        let (sjisTree, sjisReport) = HTMLParser.parseReporting(sjis)
        let sjisText = PlainTextRenderer.render(ReadableDocumentBuilder.build(sjisTree, baseURL: nil))
        #expect(sjisText.contains("日本") && sjisText.contains("ok"), "\(sjisText)")
        #expect(sjisReport.encodingWarnings.count == 1)
        // Random bytes under every declaration: a reading, never a crash.
        var generator = SplitMix64(seed: 30)
        for label in ["utf-8", "shift_jis", "gbk", "big5", "euc-kr", "iso-2022-jp", "utf-16le", nil] {
            let noise = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let document = HTMLParser.readableDocument(noise, charset: label, url: nil)
            #expect(document.blocks.count >= 0)
        }
    }

    @Test func aFormulaKeepsItsPlaceInTheSentence() {
        let html = """
            <p>When <math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mi>a</mi><mo>≠</mo><mn>0</mn>
            </mrow><annotation encoding="application/x-tex">a \\ne 0</annotation></semantics></math>, there are two
            solutions to <math><mi>a</mi><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mi>b</mi><mi>x</mi><mo>+</mo>
            <mi>c</mi><mo>=</mo><mn>0</mn></math> and they are</p>
            """
        let text = Self.read(Array(html.utf8)).1
        #expect(text == "When a \\ne 0, there are two solutions to a x2+b x+c=0 and they are\n")
    }

    @Test func aBreakAtTheEndOfBoldStillBreaksTheLine() {
        let html = "<div><b>Queue<br /></b> ATF uses AWS SQS to queue jobs.<br><i>Nota<br></i>Fin</div>"
        #expect(Self.read(Array(html.utf8)).1 == "Queue\nATF uses AWS SQS to queue jobs.\nNota\nFin\n")
    }

    @Test func inlineSVGTitleAndTextAreRead() {
        let html = """
            <p>Visítanos <svg role="img" aria-labelledby="t"><title id="t">Mapa de la tienda</title><path d="M0 0"/></svg>
            en el centro. <svg width="80" height="20"><text x="0" y="15">Abierto</text></svg></p>
            """
        #expect(Self.read(Array(html.utf8)).1 == "Visítanos Mapa de la tienda en el centro. Abierto\n")
    }

    @Test func theFastUTF8CheckAgreesWithTheCountingOne() {
        var generator = SplitMix64(seed: 7)
        let samples: [[UInt8]] =
            [
                Array("plain ascii text, more than eight bytes".utf8), Array("Año “2026” 日本 🎉 ok".utf8),
                [0xED, 0xA0, 0x80],
            ]
            + (0..<200).map { n in
                var bytes = Array("Café ☕ \(n) ".utf8)
                for _ in 0..<(n % 24) { bytes.append(UInt8(truncatingIfNeeded: generator.next())) }
                return bytes + Array(" fin".utf8)
            }
        for bytes in samples {
            #expect(HTMLEncoding.isValidUTF8(bytes, from: 0) == UTF8Check(bytes[...]).isValid, "\(bytes)")
        }
    }
}
