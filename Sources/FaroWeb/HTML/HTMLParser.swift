internal import CShim
import FaroCore
import FoundationEssentials

/// Parses HTML with libxml2's HTML parser (tolerant of broken markup; the charset from the HTTP header or archive
/// part when known, else the page's own `<meta charset>`, else libxml2's detection) into FaroCore's `HTMLNode`
/// tree. Never fetches anything (`HTML_PARSE_NONET`); size caps keep huge pages bounded. Thread-safe: every call
/// parses its own document, so it runs on worker threads, never on the UI thread. libxml2 is opened by the first
/// parse, not at launch (CShim/xml_loader.c).
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

    /// The tree of `bytes` (an `html` element at the root), or an empty `html` element when libxml2 finds nothing
    /// (or cannot be loaded: `unavailableReason` says so).
    public static func parse(
        _ bytes: [UInt8], charset: String? = nil, url: String? = nil,
        limits: Limits = .standard
    ) -> HTMLNode {
        let input = bytes.count > limits.maxBytes ? Array(bytes.prefix(limits.maxBytes)) : bytes
        // An unknown name is ignored by libxml2, which then detects the charset itself.
        let encoding = charset?.isEmpty == false ? charset : nil
        let doc: OpaquePointer? = input.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: max(1, buffer.count)) { chars in
                faro_html_read_memory(chars, Int32(buffer.count), url, encoding)
            }
        }
        guard let doc else { return .el("html") }
        defer { faro_xml_free_document(doc) }
        guard let root = faro_xml_root(doc) else { return .el("html") }
        var budget = limits.maxNodes
        return convert(root, depth: 0, limits: limits, budget: &budget) ?? .el("html")
    }

    /// Why HTML cannot be read on this system (libxml2 missing), or nil when it can.
    public static var unavailableReason: String? { faro_xml_load_error().map { String(cString: $0) } }

    /// Parses and builds the readable document in one step.
    public static func readableDocument(
        _ bytes: [UInt8], charset: String? = nil, url: String?,
        limits: Limits = .standard
    ) -> ReadableDocument {
        ReadableDocumentBuilder.build(parse(bytes, charset: charset, url: url, limits: limits), baseURL: url)
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
