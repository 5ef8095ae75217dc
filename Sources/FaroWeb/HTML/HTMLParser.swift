internal import CShim
import FaroCore
import FoundationEssentials

/// Parses HTML with libxml2's HTML parser (tolerant of broken markup) into FaroCore's `HTMLNode` tree. The page is
/// first decoded to UTF-8 by `HTMLEncoding` (byte order mark, the HTTP header's or archive part's charset, the
/// page's `<meta>`, a UTF-8 check, as browsers do), so libxml2 only ever reads UTF-8. Never fetches anything
/// (`HTML_PARSE_NONET`); size caps keep huge pages bounded; libxml2's messages and what did not decode as declared
/// go to the debug log (`DebugLog`), one line each, never raw to the terminal. Thread-safe: every call parses its
/// own document, so it runs on worker threads, never on the UI thread. libxml2 is opened by the first parse, not at
/// launch (CShim/xml_loader.c).
public enum HTMLParser {
    /// Caps on what is parsed: input bytes (the rest is dropped, the parser recovers), nodes kept, depth.
    public struct Limits: Sendable, Equatable {
        public var maxBytes: Int
        public var maxNodes: Int
        public var maxDepth: Int

        public init(maxBytes: Int = 8 << 20, maxNodes: Int = 400_000, maxDepth: Int = 256) {
            self.maxBytes = maxBytes
            self.maxNodes = maxNodes
            self.maxDepth = maxDepth
        }

        public static let standard = Limits()
    }

    /// What one parse met besides the tree: the encoding it read the page in, and where that came from, what did
    /// not decode as declared, and libxml2's messages (how many, the first one).
    public struct Report: Sendable {
        public var charset: HTMLCharset
        public var source: EncodingSource
        public var encodingWarnings: [String]
        public var parserMessages: Int
        public var firstParserMessage: String?
    }

    /// The tree of `bytes` (an `html` element at the root), or an empty `html` element when libxml2 finds nothing
    /// (or cannot be loaded: `unavailableReason` says so). `charset` is the HTTP header's (or archive part's).
    public static func parse(
        _ bytes: [UInt8], charset: String? = nil, url: String? = nil,
        limits: Limits = .standard
    ) -> HTMLNode {
        parseReporting(bytes, charset: charset, url: url, limits: limits).tree
    }

    /// `parse`, with what it met; its warnings are written to the debug log as well.
    public static func parseReporting(
        _ bytes: [UInt8], charset: String? = nil, url: String? = nil,
        limits: Limits = .standard
    ) -> (tree: HTMLNode, report: Report) {
        let input = bytes.count > limits.maxBytes ? Array(bytes.prefix(limits.maxBytes)) : bytes
        let decoded = HTMLEncoding.decode(input, httpCharset: charset)
        var messages = faro_xml_messages()
        // An empty page still gets a document (libxml2 answers NULL for zero bytes).
        let text = decoded.utf8.isEmpty ? [0x20] : decoded.utf8
        let doc: OpaquePointer? = text.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                faro_html_read_memory(chars, Int32(buffer.count), url, "UTF-8", &messages)
            }
        }
        let first = withUnsafeBytes(of: &messages.first) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let report = Report(
            charset: decoded.charset, source: decoded.source, encodingWarnings: decoded.warnings,
            parserMessages: Int(messages.count), firstParserMessage: first.isEmpty ? nil : first)
        log(report, url: url)
        guard let doc, let root = faro_xml_root(doc) else {
            if let doc { faro_xml_free_document(doc) }
            return (.el("html"), report)
        }
        defer { faro_xml_free_document(doc) }
        var budget = limits.maxNodes
        return (convert(root, depth: 0, limits: limits, budget: &budget) ?? .el("html"), report)
    }

    /// One debug-log line per encoding warning, and one for libxml2's messages (the count and the first).
    private static func log(_ report: Report, url: String?) {
        guard DebugLog.isEnabled else { return }
        let page = url.map { DeviceIDScrubber.scrub(RedactedURL($0).description) } ?? "a page"
        for warning in report.encodingWarnings { DebugLog.write("reader", "\(page): \(warning)") }
        if report.parserMessages > 0 {
            DebugLog.write(
                "reader",
                "\(page): libxml2 recovered from \(report.parserMessages) problem(s), the first: "
                    + (report.firstParserMessage ?? "(no text)").trimmingWhitespace())
        }
    }

    /// Why HTML cannot be read on this system (libxml2 missing), or nil when it can.
    public static var unavailableReason: String? { faro_xml_load_error().map { String(cString: $0) } }

    /// Parses and builds the readable document in one step.
    public static func readableDocument(
        _ bytes: [UInt8], charset: String? = nil, url: String?,
        limits: Limits = .standard
    ) -> ReadableDocument {
        let document = ReadableDocumentBuilder.build(
            parse(bytes, charset: charset, url: url, limits: limits), baseURL: url)
        if let need = document.needsJavaScript, DebugLog.isEnabled {
            let page = url.map { DeviceIDScrubber.scrub(RedactedURL($0).description) } ?? "a page"
            DebugLog.write("reader", "\(page) needs JavaScript: \(need.reason)")
        }
        return document
    }

    private static func convert(_ node: OpaquePointer, depth: Int, limits: Limits, budget: inout Int) -> HTMLNode? {
        guard budget > 0 else { return nil }
        budget -= 1
        switch faro_xml_node_kind(node) {
        case FARO_XML_TEXT:
            return faro_xml_node_content(node).map { .text(String(cString: $0)) }
        case FARO_XML_ELEMENT:
            let name = faro_xml_node_name(node).map { String(cString: $0).lowercased() } ?? ""
            var attributes: [String: String] = [:]
            var attribute = faro_xml_node_attributes(node)
            while let a = attribute {
                if let attrName = faro_xml_attribute_name(a) {
                    attributes[String(cString: attrName).lowercased()] = text(of: faro_xml_attribute_children(a))
                }
                attribute = faro_xml_attribute_next(a)
            }
            var children: [HTMLNode] = []
            if depth < limits.maxDepth {
                var child = faro_xml_node_children(node)
                while let c = child, budget > 0 {
                    if let converted = convert(c, depth: depth + 1, limits: limits, budget: &budget) {
                        children.append(converted)
                    }
                    child = faro_xml_node_next(c)
                }
            }
            return .element(name: name, attributes: attributes, children: children)
        default:
            return nil
        }
    }

    /// The concatenated text of an attribute's value nodes.
    private static func text(of first: OpaquePointer?) -> String {
        var out = ""
        var node = first
        while let n = node {
            if let content = faro_xml_node_content(n) { out += String(cString: content) }
            node = faro_xml_node_next(n)
        }
        return out
    }
}
