/// A parsed HTML tree as plain values: what the libxml2 adapter hands to `ReadableDocumentBuilder`, and what tests
/// build by hand. Element names and attribute names are lower-case.
public indirect enum HTMLNode: Sendable, Equatable {
    case element(name: String, attributes: [String: String], children: [HTMLNode])
    case text(String)

    /// Shorthand for tests and adapters.
    public static func el(_ name: String, _ attributes: [String: String] = [:], _ children: [HTMLNode] = []) -> HTMLNode
    {
        .element(name: name, attributes: attributes, children: children)
    }
}
