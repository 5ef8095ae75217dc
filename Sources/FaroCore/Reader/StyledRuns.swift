/// The readable document flattened into styled runs: what a rich-text view (the GTK content view's GtkTextBuffer)
/// inserts one after another — text with its styles and link, images to fetch or look up and insert scaled, and
/// anchors to place as named marks for in-page `#name` links. Block spacing, list markers and indents are already
/// laid out, so the view only maps styles to tags.
public struct StyledRun: Sendable, Equatable {
    /// What the run inserts.
    public enum Content: Sendable, Equatable {
        case text(String)
        /// An image by absolute URL (or `cid:`), with its alternative text for when it cannot be shown.
        case image(source: String, alt: String)
        /// A named position (an element's `id`): the target of `#name` links.
        case anchor(String)
    }

    /// A character style; a view maps each to a text tag.
    public enum Style: Sendable, Hashable {
        case title
        case heading(Int)
        case emphasis
        case strong
        case code
        case preformatted
        case quote
        case tableCell
    }

    public var content: Content
    public var styles: Set<Style>
    /// The link target (absolute URL, or `#name` for an in-page anchor) when the run is part of a link.
    public var link: String?
    /// Nesting depth for the left margin (lists and quotes), 0 at the top level.
    public var indent: Int

    public init(_ content: Content, styles: Set<Style> = [], link: String? = nil, indent: Int = 0) {
        self.content = content
        self.styles = styles
        self.link = link
        self.indent = indent
    }
}

/// Lays a `ReadableDocument` out as `StyledRun`s (see `StyledRun`).
public enum StyledRuns {
    public static func layout(_ document: ReadableDocument) -> [StyledRun] {
        var out = Layout()
        if let title = document.title, !title.isEmpty { out.text(title, styles: [.title], indent: 0) }
        out.blocks(document.blocks, indent: 0, styles: [])
        return out.runs
    }

    /// All the text of the runs, as the view's buffer holds it (images as their alternative text in brackets).
    public static func plainText(_ runs: [StyledRun]) -> String {
        runs.map { run in
            switch run.content {
            case .text(let t): return t
            case .image(_, let alt): return alt.isEmpty ? "[image]" : "[\(alt)]"
            case .anchor: return ""
            }
        }.joined()
    }

    private struct Layout {
        var runs: [StyledRun] = []
        private var atBlockStart = true

        /// Starts a new block: a blank line after the previous one.
        mutating func startBlock() {
            if !runs.isEmpty { append(StyledRun(.text("\n\n"))) }
            atBlockStart = true
        }

        mutating func text(_ text: String, styles: Set<StyledRun.Style>, indent: Int) {
            startBlock()
            append(StyledRun(.text(text), styles: styles, indent: indent))
        }

        mutating func append(_ run: StyledRun) {
            // Adjacent text runs with the same look merge, so views insert fewer pieces.
            if case .text(let new) = run.content, let last = runs.last, case .text(let old) = last.content,
                last.styles == run.styles, last.link == run.link, last.indent == run.indent
            {
                runs[runs.count - 1].content = .text(old + new)
            } else {
                runs.append(run)
            }
            atBlockStart = false
        }

        mutating func blocks(_ blocks: [Block], indent: Int, styles: Set<StyledRun.Style>, firstPrefix: String? = nil) {
            var prefix = firstPrefix
            for block in blocks {
                switch block {
                case .heading(let level, let inlines):
                    startBlock()
                    inline(inlines, styles: styles.union([.heading(level)]), link: nil, indent: indent, prefix: &prefix)
                case .paragraph(let inlines):
                    startBlock()
                    inline(inlines, styles: styles, link: nil, indent: indent, prefix: &prefix)
                case .list(let ordered, let items):
                    for (n, item) in items.enumerated() {
                        let marker = ordered ? "\(n + 1). " : "• "
                        self.blocks(item, indent: indent + 1, styles: styles, firstPrefix: (prefix ?? "") + marker)
                        prefix = nil
                    }
                case .quote(let inner):
                    self.blocks(inner, indent: indent + 1, styles: styles.union([.quote]), firstPrefix: prefix)
                    prefix = nil
                case .table(let rows):
                    for row in rows {
                        startBlock()
                        for (c, cell) in row.enumerated() {
                            if c > 0 {
                                append(StyledRun(.text("  |  "), styles: styles.union([.tableCell]), indent: indent))
                            }
                            inline(cell, styles: styles.union([.tableCell]), link: nil, indent: indent, prefix: &prefix)
                        }
                    }
                case .preformatted(let text):
                    startBlock()
                    append(
                        StyledRun(.text((prefix ?? "") + text), styles: styles.union([.preformatted]), indent: indent))
                    prefix = nil
                case .rule:
                    startBlock()
                    append(StyledRun(.text("―――――"), styles: styles, indent: indent))
                }
            }
        }

        mutating func inline(
            _ inlines: [Inline], styles: Set<StyledRun.Style>, link: String?, indent: Int, prefix: inout String?
        ) {
            if let p = prefix {
                append(StyledRun(.text(p), styles: styles.subtracting([.emphasis, .strong, .code]), indent: indent))
                prefix = nil
            }
            for item in inlines {
                switch item {
                case .text(let t): append(StyledRun(.text(t), styles: styles, link: link, indent: indent))
                case .emphasis(let inner):
                    inline(inner, styles: styles.union([.emphasis]), link: link, indent: indent, prefix: &prefix)
                case .strong(let inner):
                    inline(inner, styles: styles.union([.strong]), link: link, indent: indent, prefix: &prefix)
                case .code(let inner):
                    inline(inner, styles: styles.union([.code]), link: link, indent: indent, prefix: &prefix)
                case .link(let href, let inner):
                    inline(inner, styles: styles, link: href, indent: indent, prefix: &prefix)
                case .image(let source, let alt):
                    append(StyledRun(.image(source: source, alt: alt), styles: styles, link: link, indent: indent))
                case .lineBreak: append(StyledRun(.text("\n"), styles: styles, link: nil, indent: indent))
                case .anchor(let name): append(StyledRun(.anchor(name), indent: indent))
                }
            }
        }
    }
}
