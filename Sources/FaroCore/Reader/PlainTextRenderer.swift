/// Renders a `ReadableDocument` as readable plain text for the terminal (`faro page`, `faro show`): the title
/// underlined, headings marked with `#`, blank lines between blocks, lists with `-` or `1.`, links as
/// `text <url>`, images as `[image: alt]`, tables as rows of cells separated by `|`.
public enum PlainTextRenderer {
    public static func render(_ document: ReadableDocument) -> String {
        var sections: [String] = []
        if let title = document.title, !title.isEmpty {
            sections.append(title + "\n" + String(repeating: "=", count: max(3, title.count)))
        }
        sections += blocks(document.blocks, indent: "")
        return sections.joined(separator: "\n\n") + "\n"
    }

    static func blocks(_ blocks: [Block], indent: String) -> [String] {
        blocks.compactMap { block in
            let text = render(block, indent: indent)
            return text.isEmpty ? nil : text
        }
    }

    static func render(_ block: Block, indent: String) -> String {
        switch block {
        case .heading(let level, let inlines):
            return indent + String(repeating: "#", count: min(max(level, 1), 6)) + " "
                + lines(text(of: inlines, links: true), indent: indent, first: false)
        case .paragraph(let inlines):
            let body = text(of: inlines, links: true)
            return body.isEmpty ? "" : indent + lines(body, indent: indent, first: false)
        case .list(let ordered, let items):
            var out: [String] = []
            for (n, item) in items.enumerated() {
                let marker = ordered ? "\(n + 1). " : "- "
                let inner = blocks(item, indent: indent + String(repeating: " ", count: marker.count))
                guard let first = inner.first else { continue }
                let firstText = first.dropFirst(indent.count + marker.count)
                out.append(indent + marker + firstText + inner.dropFirst().map { "\n" + $0 }.joined())
            }
            return out.joined(separator: "\n")
        case .quote(let inner):
            return blocks(inner, indent: indent + "> ").joined(separator: "\n" + indent + ">\n")
        case .table(let rows):
            return rows.map { row in
                indent + row.map { text(of: $0, links: true).replacingNewlines }.joined(separator: " | ")
            }
            .joined(separator: "\n")
        case .preformatted(let text):
            return text.split(separator: "\n", omittingEmptySubsequences: false).map { indent + "    " + $0 }.joined(
                separator: "\n")
        case .rule:
            return indent + "----"
        }
    }

    /// Continuation lines of a multi-line block keep the block's indent.
    static func lines(_ text: String, indent: String, first: Bool) -> String {
        indent.isEmpty
            ? text : text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + indent)
    }

    /// The plain text of inline content; with `links`, a link's target follows its text as ` <url>`.
    public static func text(of inlines: [Inline], links: Bool = false) -> String {
        var out = ""
        for inline in inlines {
            switch inline {
            case .text(let t): out += t
            case .emphasis(let inner), .strong(let inner), .code(let inner): out += text(of: inner, links: links)
            case .link(let href, let inner):
                let label = text(of: inner, links: links)
                out += label
                if links, !href.hasPrefix("#"), href != label, "mailto:" + label != href, "tel:" + label != href {
                    out += " <\(href)>"
                }
            case .image(_, let alt): out += links ? (alt.isEmpty ? "[image]" : "[image: \(alt)]") : alt
            case .lineBreak: out += "\n"
            case .anchor: break
            }
        }
        return out
    }
}

extension String {
    fileprivate var replacingNewlines: String {
        String(map { $0 == "\n" ? " " : $0 })
    }
}
