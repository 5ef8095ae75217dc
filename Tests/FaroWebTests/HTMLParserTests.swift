import FaroCore
import FaroWeb
import Foundation
import Testing

@Suite("libxml2 HTML reading")
struct HTMLParserTests {
    @Test func brokenMarkupStillReads() {
        let html =
            "<html><head><title>Caf&eacute; <b>x</title><body><p>Uno<p>Dos <i>tres</i><ul><li>cuatro<li>cinco</ul><table><tr><td>a<td>b</table></div></span><script>document.write('no')</script>"
        let doc = HTMLParser.readableDocument(Array(html.utf8), url: "http://127.0.0.1/x/")
        let text = PlainTextRenderer.render(doc)
        #expect(doc.title?.hasPrefix("Café") == true)
        #expect(text.contains("Uno"))
        #expect(text.contains("Dos tres"))
        #expect(text.contains("- cuatro\n- cinco"))
        #expect(text.contains("a | b"))
        #expect(!text.contains("document.write"))
    }

    @Test func declaredCharsetsAreHonoured() {
        // windows-1252 bytes for “Niño” declared in a meta tag, and the same page with the charset given by HTTP.
        let body: [UInt8] =
            Array("<html><head><meta charset=\"windows-1252\"></head><body><p>".utf8) + [
                0x93, 0x4E, 0x69, 0xF1, 0x6F, 0x94,
            ]
            + Array("</p></body></html>".utf8)
        #expect(PlainTextRenderer.render(HTMLParser.readableDocument(body, url: nil)).contains("“Niño”"))
        let bare: [UInt8] = Array("<p>".utf8) + [0xE1, 0xE9] + Array("</p>".utf8)
        #expect(
            PlainTextRenderer.render(HTMLParser.readableDocument(bare, charset: "iso-8859-1", url: nil)).contains("áé"))
        let sjis: [UInt8] = Array("<p>".utf8) + [0x93, 0xFA, 0x96, 0x7B] + Array("</p>".utf8)  // 日本
        #expect(
            PlainTextRenderer.render(HTMLParser.readableDocument(sjis, charset: "shift_jis", url: nil)).contains("日本"))
    }

    @Test func hiddenAndActiveContentNeverShows() {
        let html = """
            <body><p>visible</p><div hidden>h1</div><p style="display:none">h2</p><span aria-hidden="true">h3</span>
            <form><input value="h4"><label>h5</label><button>h6</button></form><iframe src="x">h7</iframe>
            <style>.h8{}</style><noscript>h9</noscript><template><p>h10</p></template><a href="javascript:void(0)">link</a></body>
            """
        let text = PlainTextRenderer.render(HTMLParser.readableDocument(Array(html.utf8), url: "http://127.0.0.1/"))
        #expect(text.contains("visible"))
        for n in [1, 2, 3, 4, 5, 6, 7, 8, 10] { #expect(!text.contains("h\(n)"), "h\(n) must stay hidden") }
        #expect(text.contains("h9"), "noscript content is shown: Faro runs no scripts")
        #expect(!text.contains("javascript"))
    }

    @Test func hugeInputIsCappedNotFatal() {
        let paragraph = "<p>" + String(repeating: "palabra ", count: 50) + "</p>\n"
        let html = Array(("<html><body>" + String(repeating: paragraph, count: 4000) + "</body></html>").utf8)
        let limits = HTMLParser.Limits(maxBytes: 100_000, maxNodes: 1000, maxDepth: 64)
        let tree = HTMLParser.parse(html, url: nil, limits: limits)
        let doc = ReadableDocumentBuilder.build(tree, baseURL: nil)
        #expect(doc.blocks.count > 10 && doc.blocks.count < 1000)
    }

    @Test func resourceReferencesAreAbsoluteAndUnique() {
        let html = """
            <html><head><link rel="stylesheet" href="s.css"><link rel="icon" href="i.ico"><style>body{background:url('bg.png')}</style></head>
            <body><img src="a.png"><img src="a.png"><img src="data:image/png;base64,AA=="><img src="https://cdn.ejemplo.mx/b.jpg#x">
            <div style="background-image:url(c.gif)"></div></body></html>
            """
        let tree = HTMLParser.parse(Array(html.utf8), url: nil)
        #expect(
            ResourceReferences.collect(tree, baseURL: "http://127.0.0.1:8/sitios/x/") == [
                "http://127.0.0.1:8/sitios/x/s.css", "http://127.0.0.1:8/sitios/x/bg.png",
                "http://127.0.0.1:8/sitios/x/a.png",
                "https://cdn.ejemplo.mx/b.jpg", "http://127.0.0.1:8/sitios/x/c.gif",
            ])
        #expect(
            ResourceReferences.cssURLs("a{b:url( \"../f.woff\" )} @import url(x.css);", baseURL: "http://h/a/b/s.css")
                == ["http://h/a/f.woff", "http://h/a/b/x.css"])
    }
}
