import CXML2
import FaroCore
import FoundationEssentials

/// Parses HTML with libxml2's HTML parser (tolerant of broken markup; the charset from the HTTP header or archive
/// part when known, else the page's own `<meta charset>`, else libxml2's detection) into FaroCore's `HTMLNode`
/// tree. Never fetches anything (`HTML_PARSE_NONET`); size caps keep huge pages bounded. Thread-safe: every call
/// parses its own document, so it runs on worker threads, never on the UI thread.
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

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// The tree of `bytes` (an `html` element at the root), or an empty `html` element when libxml2 finds nothing.
    public static func parse(
        _ bytes: [UInt8], charset: String? = nil, url: String? = nil,
        limits: Limits = .standard
    ) -> HTMLNode {
        _ = initialized
        let input = bytes.count > limits.maxBytes ? Array(bytes.prefix(limits.maxBytes)) : bytes
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)
        // An unknown name is ignored by libxml2, which then detects the charset itself.
        let encoding = charset?.isEmpty == false ? charset : nil
        let doc: htmlDocPtr? = input.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: max(1, buffer.count)) { chars in
                htmlReadMemory(chars, Int32(buffer.count), url, encoding, options)
            }
        }
        guard let doc else { return .el("html") }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else { return .el("html") }
        var budget = limits.maxNodes
        return convert(root, depth: 0, limits: limits, budget: &budget) ?? .el("html")
    }

    /// Parses and builds the readable document in one step.
    public static func readableDocument(
        _ bytes: [UInt8], charset: String? = nil, url: String?,
        limits: Limits = .standard
    ) -> ReadableDocument {
        ReadableDocumentBuilder.build(parse(bytes, charset: charset, url: url, limits: limits), baseURL: url)
    }

    private static func convert(_ node: xmlNodePtr, depth: Int, limits: Limits, budget: inout Int) -> HTMLNode? {
        guard budget > 0 else { return nil }
        budget -= 1
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            return node.pointee.content.map { .text(String(cString: $0)) }
        case XML_ELEMENT_NODE:
            let name = node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
            var attributes: [String: String] = [:]
            var attribute = node.pointee.properties
            while let a = attribute {
                if let attrName = a.pointee.name {
                    attributes[String(cString: attrName).lowercased()] = text(of: a.pointee.children)
                }
                attribute = a.pointee.next
            }
            var children: [HTMLNode] = []
            if depth < limits.maxDepth {
                var child = node.pointee.children
                while let c = child, budget > 0 {
                    if let converted = convert(c, depth: depth + 1, limits: limits, budget: &budget) {
                        children.append(converted)
                    }
                    child = c.pointee.next
                }
            }
            return .element(name: name, attributes: attributes, children: children)
        default:
            return nil
        }
    }

    /// The concatenated text of an attribute's value nodes.
    private static func text(of first: xmlNodePtr?) -> String {
        var out = ""
        var node = first
        while let n = node {
            if let content = n.pointee.content { out += String(cString: content) }
            node = n.pointee.next
        }
        return out
    }
}
