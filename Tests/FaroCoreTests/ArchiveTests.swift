import Foundation
import Testing

@testable import FaroCore

/// Archives as real writers produce them, written out here by hand (line ends made explicit).
enum ArchiveSamples {
    static func crlf(_ text: String) -> [UInt8] { Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8) }
    static func lf(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Chromium 120 "Save page as… Webpage, single file".
    static let chrome = """
        From: <Saved by Blink>
        Snapshot-Content-Location: https://ejemplo.mx/sitios/cafe/
        Subject: =?utf-8?Q?Caf=C3=A9_de_olla?=
        Date: Tue, 3 Oct 2023 10:00:00 -0000
        MIME-Version: 1.0
        Content-Type: multipart/related;
        \ttype="text/html";
        \tboundary="----MultipartBoundary--abc123----"


        ------MultipartBoundary--abc123----
        Content-Type: text/html
        Content-ID: <frame-1@mhtml.blink>
        Content-Transfer-Encoding: quoted-printable
        Content-Location: https://ejemplo.mx/sitios/cafe/

        <html><head><meta charset=3D"utf-8"><title>Caf=C3=A9</title></head><body><h1>=
        Caf=C3=A9 de olla</h1><img src=3D"foto.png"></body></html>
        ------MultipartBoundary--abc123----
        Content-Type: image/png
        Content-Transfer-Encoding: base64
        Content-Location: https://ejemplo.mx/sitios/cafe/foto.png

        iVBORw0KGgo=

        ------MultipartBoundary--abc123------

        """

    /// Internet Explorer 11 "Web Archive, single file": preamble, `=_NextPart` boundary, iso-8859-1 QP.
    static let internetExplorer = """
        From: <Saved by Windows Internet Explorer 11>
        Subject: Librer=?iso-8859-1?Q?=EDa?=
        Date: Mon, 2 Oct 2023 09:00:00 -0600
        MIME-Version: 1.0
        Content-Type: multipart/related;
        \ttype="text/html";
        \tboundary="----=_NextPart_000_0000_01D9F4A1.2B3C4D50"
        X-MimeOLE: Produced By Microsoft MimeOLE

        This is a multi-part message in MIME format.

        ------=_NextPart_000_0000_01D9F4A1.2B3C4D50
        Content-Type: text/html;
        \tcharset="iso-8859-1"
        Content-Transfer-Encoding: quoted-printable
        Content-Location: http://ejemplo.mx/libreria/

        <HTML><HEAD><TITLE>Librer=EDa</TITLE></HEAD><BODY><P>Novedades de la =
        semana</P><IMG src=3D"cid:logo@ie"></BODY></HTML>

        ------=_NextPart_000_0000_01D9F4A1.2B3C4D50
        Content-Type: image/gif
        Content-Transfer-Encoding: base64
        Content-ID: <logo@ie>

        R0lGODlhAQABAAAAACw=

        ------=_NextPart_000_0000_01D9F4A1.2B3C4D50--

        """

    /// Word "Single File Web Page": windows-1252 HTML, relative resources beside a file:// page.
    static let word = """
        MIME-Version: 1.0
        Content-Type: multipart/related; boundary="----=_NextPart_01D9F5B2.3C4D5E60"

        Este documento es una página web de un solo archivo.

        ------=_NextPart_01D9F5B2.3C4D5E60
        Content-Location: file:///C:/D2A1B3C4/Farmacia.htm
        Content-Transfer-Encoding: quoted-printable
        Content-Type: text/html; charset="windows-1252"

        <html xmlns:o=3D"urn:schemas-microsoft-com:office:office"><head><title>Promo=
        ciones</title></head><body lang=3DES-MX><p class=3DMsoNormal>Descuento del =
        20% en =93vitaminas=94<img src=3D"Farmacia_archivos/image001.png"></p></bod=
        y></html>

        ------=_NextPart_01D9F5B2.3C4D5E60
        Content-Location: file:///C:/D2A1B3C4/Farmacia_archivos/image001.png
        Content-Transfer-Encoding: base64
        Content-Type: image/png

        iVBORw0KGgo=

        ------=_NextPart_01D9F5B2.3C4D5E60--

        """

    /// A Firefox extension (UnMHT-style): LF line ends, 8bit UTF-8 HTML, a nested multipart/alternative.
    static let firefox = """
        MIME-Version: 1.0
        Content-Type: multipart/related; boundary="outer"; start="<main@unmht>"

        --outer
        Content-Type: multipart/alternative; boundary="inner"

        --inner
        Content-Type: text/plain; charset=utf-8

        Galería
        --inner
        Content-Type: text/html; charset=utf-8
        Content-Transfer-Encoding: 8bit
        Content-ID: <main@unmht>
        Content-Location: https://ejemplo.mx/galeria/

        <html><body><p>Galería — exposición</p></body></html>
        --inner--
        --outer
        Content-Type: application/octet-stream
        Content-Transfer-Encoding: binary
        Content-Location: https://ejemplo.mx/galeria/datos.bin

        \u{01}\u{02}\u{03}
        --outer--

        """
}

@Suite("MHT archives")
struct ArchiveTests {
    @Test func quotedPrintableRoundTripsAndKeepsLinesShort() {
        let input = Array(("<p class=\"x\">Café  \t\n" + String(repeating: "ñandú ", count: 40) + "= end \n").utf8)
        let encoded = QuotedPrintable.encode(input)
        let lines = String(decoding: encoded, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 76 })
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") && !$0.hasSuffix("\t") })
        let decoded = QuotedPrintable.decode(encoded)
        #expect(
            String(decoding: decoded, as: UTF8.self)
                == String(decoding: input, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test func quotedPrintableDecodingIsLenient() {
        #expect(QuotedPrintable.decode(Array("a=3Db=3db=\r\nc= \nd=ZZ=".utf8)) == Array("a=b=bcd=ZZ".utf8))
    }

    @Test func base64RoundTripsInLinesOf76() throws {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let encoded = Base64.encode(bytes)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.components(separatedBy: "\r\n").dropLast().allSatisfy { $0.count <= 76 })
        #expect(Base64.decode(encoded) == bytes)
        #expect(text.replacingOccurrences(of: "\r\n", with: "") == Data(bytes).base64EncodedString())
        #expect(Base64.decode(Array("QUJD\nRA".utf8)) == Array("ABCD".utf8))  // missing padding tolerated
        #expect(Base64.decode(Array("QU*D".utf8)) == nil)
    }

    @Test func readsChromium() throws {
        let archive = try MHTReader.read(ArchiveSamples.crlf(ArchiveSamples.chrome))
        #expect(archive.parts.count == 2)
        #expect(archive.subject == "Café de olla")
        #expect(archive.location == "https://ejemplo.mx/sitios/cafe/")
        #expect(archive.main.isHTML)
        #expect(archive.main.text.contains("<h1>Café de olla</h1><img src=\"foto.png\">"))
        let image = try #require(archive.resource(for: "foto.png"))
        #expect(image.mediaType == "image/png")
        #expect(image.body == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func readsChromiumWithLFLineEnds() throws {
        let archive = try MHTReader.read(ArchiveSamples.lf(ArchiveSamples.chrome))
        #expect(archive.main.text.contains("Café de olla</h1>"))
        #expect(archive.resource(for: "https://ejemplo.mx/sitios/cafe/foto.png") != nil)
    }

    @Test func readsInternetExplorerWithPreambleCharsetAndContentID() throws {
        let archive = try MHTReader.read(ArchiveSamples.crlf(ArchiveSamples.internetExplorer))
        #expect(archive.subject == "Librería")
        #expect(archive.main.charset == "iso-8859-1")
        #expect(archive.main.text.contains("<TITLE>Librería</TITLE>"))
        #expect(archive.main.text.contains("Novedades de la semana"))
        let logo = try #require(archive.resource(for: "cid:logo@ie"))
        #expect(logo.mediaType == "image/gif" && logo.body.starts(with: Array("GIF89a".utf8)))
    }

    @Test func readsWordSingleFileWebPage() throws {
        let bytes = ArchiveSamples.crlf(ArchiveSamples.word).map { $0 }
        let archive = try MHTReader.read(bytes)
        #expect(archive.main.text.contains("Descuento del 20% en “vitaminas”"))
        #expect(archive.main.text.contains("<title>Promociones</title>"))
        #expect(archive.resource(for: "Farmacia_archivos/image001.png")?.mediaType == "image/png")
    }

    @Test func readsNestedMultipartsBinaryPartsAndTheStartParameter() throws {
        let archive = try MHTReader.read(ArchiveSamples.lf(ArchiveSamples.firefox))
        #expect(archive.parts.count == 3)
        #expect(archive.main.contentID == "main@unmht")
        #expect(archive.main.text.contains("Galería — exposición"))
        #expect(archive.resource(for: "datos.bin")?.body == [1, 2, 3])
    }

    @Test func writerOutputIsChromiumShapedAndReadsBack() throws {
        let html = Array(
            "<html><head><title>Café</title></head><body><p>Hola = mundo</p>\n<img src=\"a.png\"></body></html>\n".utf8)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47] + (0..<300).map { UInt8($0 % 256) }
        let page = MHTWriter.Page(
            url: "http://127.0.0.1:8080/sitios/cafe/", title: "Café de olla — «especial»", html: html, charset: "utf-8",
            savedAt: Date(timeIntervalSince1970: 1_790_000_000),
            resources: [
                .init(url: "http://127.0.0.1:8080/sitios/cafe/a.png", contentType: "image/png", body: png),
                .init(
                    url: "http://127.0.0.1:8080/sitios/cafe/s.css", contentType: "text/css",
                    body: Array("p { color: red }".utf8)),
            ])
        let bytes = MHTWriter(boundaryToken: { "TOKEN" }).write(page)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text.hasPrefix(
                "From: <Saved by Blink>\r\nSnapshot-Content-Location: http://127.0.0.1:8080/sitios/cafe/\r\nSubject: =?utf-8?Q?"
            ))
        #expect(text.contains("\r\nDate: Mon, 21 Sep 2026 14:13:20 -0000"))
        #expect(
            text.contains(
                "MIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n\ttype=\"text/html\";\r\n\tboundary=\"----MultipartBoundary--TOKEN----\"\r\n\r\n\r\n------MultipartBoundary--TOKEN----\r\n"
            ))
        #expect(text.hasSuffix("\r\n------MultipartBoundary--TOKEN------\r\n"))
        // Every line ends in CRLF: a stray LF makes Chromium show an empty page.
        #expect(!bytes.enumerated().contains { $0.element == 10 && ($0.offset == 0 || bytes[$0.offset - 1] != 13) })
        #expect(
            text.components(separatedBy: "\r\n").allSatisfy {
                $0.utf8.count <= 76 || $0.hasPrefix("Snapshot") || $0.hasPrefix("Content-Location")
            })

        let archive = try MHTReader.read(bytes)
        #expect(archive.subject == "Café de olla — «especial»")
        #expect(archive.location == "http://127.0.0.1:8080/sitios/cafe/")
        #expect(archive.main.charset == "utf-8")
        #expect(archive.main.text.contains("<p>Hola = mundo</p>"))
        #expect(archive.resource(for: "a.png")?.body == png)
        #expect(archive.resource(for: "s.css")?.text == "p { color: red }")
    }

    @Test func rfc5322Dates() {
        #expect(MHTWriter.rfc5322Date(Date(timeIntervalSince1970: 0)) == "Thu, 1 Jan 1970 00:00:00 -0000")
        #expect(MHTWriter.rfc5322Date(Date(timeIntervalSince1970: 1_709_251_199)) == "Thu, 29 Feb 2024 23:59:59 -0000")
    }

    @Test func headerValuesCannotInjectHeaders() {
        #expect(MHTWriter.headerURL("http://a.mx/x\r\nX-Evil: 1") == "http://a.mx/xX-Evil: 1")
        #expect(MHTWriter.headerURL("http://a.mx/ñ") == "http://a.mx/%C3%B1")
        #expect(!MHTWriter.encodedSubject("a\r\nb: c").contains("\n"))
    }

    @Test func refusesMalformedArchivesWithClearMessages() {
        #expect(throws: MHTError.notAnArchive("the file does not start with a MIME header block")) {
            try MHTReader.read(Array("<html>hola</html>".utf8))
        }
        #expect(throws: MHTError.notAnArchive("its Content-Type is text/html, not multipart/related")) {
            try MHTReader.read(Array("Content-Type: text/html\r\n\r\n<html></html>".utf8))
        }
        #expect(throws: MHTError.missingBoundary) {
            try MHTReader.read(Array("Content-Type: multipart/related\r\n\r\n--x\r\n\r\nhi\r\n--x--\r\n".utf8))
        }
        #expect(throws: MHTError.boundaryNotFound("abc")) {
            try MHTReader.read(
                Array("Content-Type: multipart/related; boundary=abc\r\n\r\n--abd\r\n\r\nhi\r\n--abd--\r\n".utf8))
        }
        let chrome = ArchiveSamples.crlf(ArchiveSamples.chrome)
        #expect(throws: MHTError.truncated) { try MHTReader.read(Array(chrome.prefix(chrome.count - 60))) }
        #expect(throws: MHTError.tooLarge(bytes: chrome.count, limit: 100)) {
            try MHTReader.read(chrome, limits: MHTLimits(maxBytes: 100))
        }
        #expect(throws: MHTError.tooManyParts(limit: 1)) { try MHTReader.read(chrome, limits: MHTLimits(maxParts: 1)) }
        #expect(throws: MHTError.nestedTooDeep(limit: 1)) {
            try MHTReader.read(ArchiveSamples.lf(ArchiveSamples.firefox), limits: MHTLimits(maxDepth: 1))
        }
        let badBase64 = ArchiveSamples.chrome.replacingOccurrences(of: "iVBORw0KGgo=", with: "iVBO*w0KGgo=")
        #expect(
            throws: MHTError.malformedPart(
                index: 1, reason: "its base64 data holds characters outside the base64 alphabet")
        ) {
            try MHTReader.read(ArchiveSamples.crlf(badBase64))
        }
        let onlyImages = "Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: image/png\n\nx\n--b--\n"
        #expect(throws: MHTError.noMainDocument) { try MHTReader.read(ArchiveSamples.lf(onlyImages)) }
        #expect(MHTError.truncated.description.contains("save the page again"))
    }

    @Test func encodedWordsInHeaders() {
        #expect(Charset.decodeEncodedWords("=?utf-8?Q?Caf=C3=A9?= =?utf-8?B?w7E=?= y m\u{E1}s") == "Caféñ y más")
        #expect(Charset.decodeEncodedWords("=?windows-1252?Q?=93hola=94?=") == "“hola”")
        #expect(Charset.decodeEncodedWords("=?bogus") == "=?bogus")
    }

    @Test func charsetsDecodeThroughFoundation() {
        #expect(Charset.decode([0x93, 0x41, 0x94], charset: "windows-1252") == "“A”")
        #expect(Charset.decode([0xB1], charset: "iso-8859-2") == "ą")
        #expect(Charset.decode([0xE9], charset: nil) == "é")  // not UTF-8: Windows-1252, as browsers do
        #expect(Charset.decode(Array("ñ".utf8), charset: "x-unknown") == "ñ")
    }
}
