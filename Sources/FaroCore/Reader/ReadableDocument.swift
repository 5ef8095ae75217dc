/// What Faro shows of a microsite: a small, safe document model made from the page's HTML. Scripts, styles, forms
/// and hidden elements never make it in; the content view (GTK) and the terminal (`faro page`, `faro show`) both
/// render this model.
public struct ReadableDocument: Sendable, Equatable {
    public var title: String?
    public var blocks: [Block]
    /// Why the page seems to need JavaScript to show its content (Faro runs none), or nil: the content view and
    /// `faro page` then say so, with a way to open the page in a browser (docs/reading-pages.md).
    public var needsJavaScript: JavaScriptNeed?

    public init(title: String? = nil, blocks: [Block] = [], needsJavaScript: JavaScriptNeed? = nil) {
        self.title = title
        self.blocks = blocks
        self.needsJavaScript = needsJavaScript
    }

    /// Every image reference in the document, in order, without duplicates.
    public var imageSources: [String] {
        var seen = Set<String>()
        var out: [String] = []
        func visit(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline {
                case .image(let src, _): if seen.insert(src).inserted { out.append(src) }
                case .emphasis(let inner), .strong(let inner), .code(let inner): visit(inner)
                case .link(_, let inner): visit(inner)
                case .text, .lineBreak, .anchor: break
                }
            }
        }
        func visit(_ blocks: [Block]) {
            for block in blocks {
                switch block {
                case .heading(_, let inlines), .paragraph(let inlines): visit(inlines)
                case .list(_, let items): for item in items { visit(item) }
                case .quote(let inner): visit(inner)
                case .table(let rows): for row in rows { for cell in row { visit(cell) } }
                case .preformatted, .rule: break
                }
            }
        }
        visit(blocks)
        return out
    }
}

/// The sign that a page builds its content with scripts, which Faro never runs.
public enum JavaScriptNeed: Sendable, Equatable {
    /// A visible `<noscript>` asks for JavaScript.
    case noscriptAsksForIt
    /// An element a script fills (`<div id="root"></div>`, `<app-root>`) is empty, and the page has little text.
    case emptyScriptRoot(String)
    /// The page runs scripts and has (almost) no readable text of its own.
    case littleText

    /// One line for the debug log.
    public var reason: String {
        switch self {
        case .noscriptAsksForIt: return "a <noscript> asks for JavaScript"
        case .emptyScriptRoot(let id): return "the script-filled element \(id) is empty"
        case .littleText: return "the page has scripts and almost no text"
        }
    }
}

/// A block of the readable document.
public enum Block: Sendable, Equatable {
    /// `h1`…`h6`.
    case heading(level: Int, [Inline])
    case paragraph([Inline])
    /// `ul`/`ol`: each item is a list of blocks (nested lists stay nested).
    case list(ordered: Bool, items: [[Block]])
    /// `blockquote`.
    case quote([Block])
    /// A table as rows of cells; the renderers show it as readable text.
    case table(rows: [[[Inline]]])
    /// `pre`: text with its line breaks and spaces kept.
    case preformatted(String)
    /// `hr`.
    case rule
}

/// Inline content of a block.
public enum Inline: Sendable, Equatable {
    case text(String)
    /// `em`, `i`.
    case emphasis([Inline])
    /// `strong`, `b`.
    case strong([Inline])
    /// `code`, `kbd`, `samp`, `tt`.
    case code([Inline])
    /// `a href`: the absolute URL, or `#name` for an in-page anchor.
    case link(href: String, [Inline])
    /// `img`: the absolute source URL and the alternative text.
    case image(source: String, alt: String)
    /// `br`.
    case lineBreak
    /// An element's `id` (or `a name`): the target of in-page `#name` links.
    case anchor(String)
}
