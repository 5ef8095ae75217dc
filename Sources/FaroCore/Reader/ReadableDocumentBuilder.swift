import FoundationEssentials

/// Size caps that keep a huge page responsive: past them the rest of the page is dropped and a note says so.
public struct ReaderLimits: Sendable, Equatable {
    public var maxBlocks: Int
    public var maxCharacters: Int
    public var maxDepth: Int

    public init(maxBlocks: Int = 20_000, maxCharacters: Int = 2_000_000, maxDepth: Int = 256) {
        self.maxBlocks = maxBlocks
        self.maxCharacters = maxCharacters
        self.maxDepth = maxDepth
    }

    public static let standard = ReaderLimits()
}

/// Turns an `HTMLNode` tree into a `ReadableDocument`: keeps text, headings, paragraphs, emphasis, lists, links,
/// images and tables; shows `<noscript>` content (Faro runs no scripts), MathML as its text and an inline SVG's
/// title and text; drops scripts, styles, forms, other embedded content and hidden elements; resolves relative URLs
/// against the page's address (or its `<base href>`); keeps only http(s), mailto, tel and in-page links; notes when
/// the page seems to need JavaScript (docs/reading-pages.md).
public struct ReadableDocumentBuilder {
    /// The marker paragraph added when a limit cut the page short.
    public static let truncationNote = "[…] The rest of this page is too long to show."

    private let limits: ReaderLimits
    private var base: URL? {
        didSet { baseParts = base.flatMap(BaseParts.init) }
    }
    private var blockCount = 0
    private var characterCount = 0
    private var truncated = false
    private var title: String?

    private var baseParts: BaseParts?

    // What tells a page that needs JavaScript: its scripts, its `<noscript>`s, the script-filled element left
    // empty, and how much text it shows outside `<noscript>` (counted only up to `ampleText`).
    private var scriptCount = 0
    private var inlineScripts = ""
    private var noscriptDepth = 0
    private var noscriptAsksForJavaScript = false
    private var emptyRoots: [String] = []
    /// `<noscript>`s the parser left in the head: a browser without scripts shows their text at the top of the body.
    private var headNoscripts: [[HTMLNode]] = []
    /// Other empty elements with an id: a script may fill them (looked up in `inlineScripts` at the end).
    private var emptyIDs: [String] = []
    private var ownText = 0

    private init(baseURL: String?, limits: ReaderLimits) {
        self.limits = limits
        base = baseURL.flatMap { URL(string: $0) }
        baseParts = base.flatMap(BaseParts.init)
    }

    /// The base URL cut up once for the fast path of `resolve`: its origin (`http://host:port`) and its directory
    /// (everything up to the last `/` of the path).
    struct BaseParts {
        var origin: String
        var directory: String

        init?(_ url: URL) {
            let text = url.absoluteString
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let schemeEnd = text.firstRange(of: "://")
            else { return nil }
            let afterScheme = text[schemeEnd.upperBound...]
            let hostEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
            origin = String(text[..<hostEnd])
            var path = String(text[hostEnd...])
            if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
            if let slash = path.lastIndex(of: "/") { path = String(path[...slash]) } else { path = "/" }
            directory = origin + path
        }
    }

    /// Resolves the common cases without Foundation's URL parser: absolute http(s) URLs and plain relative paths
    /// (`menu.html`, `img/a.png`, `/sitios/x/`) made only of unreserved characters and `/`. Anything else (dots,
    /// queries, fragments, escapes, other schemes) returns nil and takes the full RFC 3986 path.
    static func resolveSimple(_ reference: String, base: BaseParts?, schemes: Set<String>) -> String? {
        var sawSlashSlash = false
        var previousSlash = false
        for byte in reference.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"),
                UInt8(ascii: "."):
                previousSlash = false
            case UInt8(ascii: "/"):
                if previousSlash { sawSlashSlash = true }
                previousSlash = true
            case UInt8(ascii: ":"):
                // Only an absolute http(s) URL may carry a colon here (its scheme and port).
                let lower = reference.lowercased()
                guard
                    (lower.hasPrefix("http://") && schemes.contains("http"))
                        || (lower.hasPrefix("https://") && schemes.contains("https")),
                    !reference.contains("..")
                else { return nil }
                return reference.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") })
                    ? reference : nil
            default:
                return nil
            }
        }
        guard let base, !sawSlashSlash, !reference.hasPrefix("."), !reference.contains("/."),
            schemes.contains("http") || schemes.contains("https")
        else { return nil }
        return reference.hasPrefix("/") ? base.origin + reference : base.directory + reference
    }

    /// Builds the readable document of `root` (usually the `html` element), with relative URLs resolved against
    /// `baseURL`.
    public static func build(_ root: HTMLNode, baseURL: String?, limits: ReaderLimits = .standard) -> ReadableDocument {
        var builder = ReadableDocumentBuilder(baseURL: baseURL, limits: limits)
        builder.scanHead(root, depth: 0)
        var blocks: [Block] = []
        for noscript in builder.headNoscripts {
            builder.noscriptDepth += 1
            blocks += builder.blocks(of: noscript, depth: 2)
            builder.noscriptDepth -= 1
        }
        blocks += builder.blocks(of: [root], depth: 0)
        let needsJavaScript = builder.javaScriptNeed
        if builder.truncated { blocks.append(.paragraph([.text(truncationNote)])) }
        var title = builder.title
        if title == nil {
            for case .heading(_, let inlines) in blocks {
                let text = PlainTextRenderer.text(of: inlines).trimmingWhitespaceAndNewlines()
                if !text.isEmpty {
                    title = text
                    break
                }
            }
        }
        return ReadableDocument(title: title, blocks: blocks, needsJavaScript: needsJavaScript)
    }

    // MARK: Pages that need JavaScript

    /// Less text than this (in characters, outside `<noscript>`) on a page with scripts: it needs them to show.
    static let littleText = 100
    /// An empty script-filled element counts on a page with less text than this.
    static let ampleText = 2000
    /// The ids frameworks mount their application on.
    static let scriptRootIDs: Set<String> = [
        "root", "app", "__next", "__nuxt", "___gatsby", "svelte", "react-root", "app-root", "q-app", "application",
        "main-app", "vue-app", "ember-app",
    ]

    private var javaScriptNeed: JavaScriptNeed? {
        guard scriptCount > 0 else { return nil }
        if noscriptAsksForJavaScript { return .noscriptAsksForIt }
        if ownText < Self.ampleText {
            if let root = emptyRoots.first { return .emptyScriptRoot(root) }
            if let id = emptyIDs.first(where: {
                inlineScripts.contains("\"\($0)\"") || inlineScripts.contains("'\($0)'")
            }) {
                return .emptyScriptRoot("#" + id)
            }
        }
        if ownText < Self.littleText { return .littleText }
        return nil
    }

    /// Counts a script the browser would run (not JSON-LD, templates or other data blocks).
    private mutating func noteScript(_ attributes: [String: String], _ children: [HTMLNode]) {
        let type = (attributes["type"] ?? "").lowercased()
        guard
            type.isEmpty || type == "module" || type.contains("javascript") || type.contains("ecmascript")
                || type.contains("jsx") || type.contains("babel")
        else { return }
        scriptCount += 1
        if inlineScripts.utf8.count < 65_536 {
            for case .text(let code) in children { inlineScripts += code.prefix(65_536) }
        }
    }

    /// Notes a `<noscript>` whose text asks for JavaScript (in any language, it names it).
    private mutating func noteNoscript(_ children: [HTMLNode]) {
        guard !noscriptAsksForJavaScript else { return }
        if Self.rawText(children, dropping: Self.dropped).lowercased().contains("javascript") {
            noscriptAsksForJavaScript = true
        }
    }

    /// Notes an element a script fills that was left empty: a framework's mount point (by id, or one an inline
    /// script looks up), or an empty custom element (`<app-root>`).
    private mutating func noteEmptyRoot(name: String, id: String?, children: [HTMLNode]) {
        guard ownText < Self.ampleText, Self.isBlank(children) else { return }
        if let id, !id.isEmpty, Self.scriptRootIDs.contains(id) {
            emptyRoots.append("#" + id)
        } else if let id, !id.isEmpty {
            if emptyIDs.count < 64 { emptyIDs.append(id) }
        } else if name.contains("-") {
            emptyRoots.append("<\(name)>")
        }
    }

    static func isBlank(_ children: [HTMLNode]) -> Bool {
        children.allSatisfy {
            if case .text(let text) = $0 { return text.utf8.allSatisfy { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) } }
            return false
        }
    }

    /// Adds the characters of `text` that are not whitespace to the page's own text, up to `ampleText`.
    private mutating func countOwnText(_ text: String) {
        guard noscriptDepth == 0, ownText < Self.ampleText else { return }
        for byte in text.utf8 where byte > 0x20 && (byte & 0xC0) != 0x80 { ownText += 1 }
    }

    // MARK: Head: title and base

    private mutating func scanHead(_ node: HTMLNode, depth: Int) {
        guard depth < limits.maxDepth, case .element(let name, let attributes, let children) = node else { return }
        switch name {
        case "title" where title == nil:
            let text = Self.collapse(Self.rawText(children)).trimmingWhitespace()
            if !text.isEmpty { title = text }
        case "script":
            noteScript(attributes, children)
        case "noscript":
            if !Self.isHidden(attributes) {
                noteNoscript(children)
                headNoscripts.append(children)
            }
        case "base":
            if let href = attributes["href"], let url = URL(string: href, relativeTo: base) { base = url.absoluteURL }
        case "body":
            return
        default:
            for child in children { scanHead(child, depth: depth + 1) }
        }
    }

    // MARK: Classification

    /// Elements whose content is never shown.
    static let dropped: Set<String> = [
        "head", "script", "style", "template", "form", "input", "button", "select", "textarea", "option",
        "optgroup", "datalist", "label", "iframe", "frame", "frameset", "object", "embed", "applet", "param",
        "canvas", "audio", "video", "source", "track", "map", "dialog", "link", "meta", "base", "title",
    ]

    /// Elements that start a new block.
    static let blockElements: Set<String> = [
        "html", "body", "p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "figure",
        "figcaption", "address", "center", "details", "summary", "dl", "dt", "dd", "ul", "ol", "li", "menu", "dir",
        "blockquote", "pre", "listing", "xmp", "plaintext", "table", "caption", "thead", "tbody", "tfoot", "tr", "td",
        "th",
        "hr", "h1", "h2", "h3", "h4", "h5", "h6", "hgroup", "fieldset", "legend", "picture",
    ]

    static func isHidden(_ attributes: [String: String]) -> Bool {
        if attributes["hidden"] != nil { return true }
        if attributes["aria-hidden"]?.lowercased() == "true" { return true }
        if let style = attributes["style"]?.lowercased().replacing(" ", with: "") {
            if style.contains("display:none") || style.contains("visibility:hidden") { return true }
        }
        return false
    }

    // MARK: Blocks

    private mutating func blocks(of nodes: [HTMLNode], depth: Int) -> [Block] {
        var out: [Block] = []
        var inlines = InlineAccumulator()
        appendBlocks(of: nodes, depth: depth, inlines: &inlines, into: &out)
        flush(&inlines, into: &out)
        return out
    }

    private mutating func appendBlocks(
        of nodes: [HTMLNode], depth: Int, inlines: inout InlineAccumulator, into out: inout [Block]
    ) {
        for node in nodes {
            if truncated { break }
            switch node {
            case .text(let text):
                countOwnText(text)
                inlines.appendText(text)
            case .element(let name, let attributes, let children):
                if Self.dropped.contains(name) {
                    if name == "script" { noteScript(attributes, children) }
                    continue
                }
                if Self.isHidden(attributes) { continue }
                if name == "noscript" {
                    // Shown as a browser without JavaScript shows it: its content in place, blocks as blocks.
                    guard depth < limits.maxDepth else { continue }
                    noteNoscript(children)
                    noscriptDepth += 1
                    appendBlocks(of: children, depth: depth + 1, inlines: &inlines, into: &out)
                    noscriptDepth -= 1
                    continue
                }
                if !Self.blockElements.contains(name) {
                    appendInline(node, into: &inlines, depth: depth + 1)
                    continue
                }
                flush(&inlines, into: &out)
                guard depth < limits.maxDepth else { continue }
                if name != "html", name != "body", children.count <= 1 {
                    noteEmptyRoot(name: name, id: attributes["id"], children: children)
                }
                if let id = attributes["id"], !id.isEmpty {
                    // A heading carries its own anchor; other blocks get an anchor-only paragraph before them.
                    if name.count == 2, name.hasPrefix("h"), name != "hr" {
                        inlines.anchors.append(id)
                    } else {
                        add(.paragraph([.anchor(id)]), to: &out)
                    }
                }
                block(
                    name: name, attributes: attributes, children: children, depth: depth + 1, inlines: &inlines,
                    into: &out)
            }
        }
    }

    private mutating func block(
        name: String, attributes: [String: String], children: [HTMLNode], depth: Int,
        inlines: inout InlineAccumulator, into out: inout [Block]
    ) {
        switch name {
        case "h1", "h2", "h3", "h4", "h5", "h6":
            let level = Int(String(name.dropFirst())) ?? 1
            var acc = InlineAccumulator()
            acc.anchors = inlines.anchors
            inlines.anchors = []
            for child in children { appendInline(child, into: &acc, depth: depth) }
            let content = acc.finish()
            if Self.textLength(content) > 0 {
                add(.heading(level: level, content), to: &out)
            } else if !content.isEmpty {
                add(.paragraph(content), to: &out)
            }
        case "ul", "ol", "menu", "dir":
            var items: [[Block]] = []
            for child in children {
                if case .element(let childName, let childAttributes, let itemChildren) = child {
                    if Self.dropped.contains(childName) || Self.isHidden(childAttributes) { continue }
                    var item =
                        childName == "li"
                        ? blocks(of: itemChildren, depth: depth + 1) : blocks(of: [child], depth: depth + 1)
                    if let id = childAttributes["id"], childName == "li", !id.isEmpty {
                        item.insert(.paragraph([.anchor(id)]), at: 0)
                    }
                    if !item.isEmpty { items.append(item) }
                } else if case .text(let text) = child, !text.trimmingWhitespaceAndNewlines().isEmpty {
                    items.append([.paragraph([.text(Self.collapse(text).trimmingWhitespace())])])
                }
            }
            if !items.isEmpty { add(.list(ordered: name == "ol", items: items), to: &out) }
        case "blockquote":
            let inner = blocks(of: children, depth: depth)
            if !inner.isEmpty { add(.quote(inner), to: &out) }
        case "pre", "listing", "xmp", "plaintext":
            var text = Self.rawText(children, dropping: Self.dropped)
            countOwnText(text)
            if text.hasPrefix("\n") { text.removeFirst() }
            while text.hasSuffix("\n") { text.removeLast() }
            if !text.isEmpty { add(.preformatted(text), to: &out) }
        case "table":
            var rows: [[[Inline]]] = []
            var stray: [HTMLNode] = []
            collectRows(children, into: &rows, stray: &stray, depth: depth)
            // What sits in a table outside its cells is shown before it, as browsers do ("foster parenting").
            if !stray.isEmpty {
                for strayBlock in blocks(of: stray, depth: depth) { add(strayBlock, to: &out) }
            }
            if !rows.isEmpty { add(.table(rows: rows), to: &out) }
        case "hr":
            add(.rule, to: &out)
        case "dt":
            var acc = InlineAccumulator()
            for child in children { appendInline(child, into: &acc, depth: depth) }
            let content = acc.finish()
            if !content.isEmpty { add(.paragraph([.strong(content)]), to: &out) }
        default:
            // Containers (div, section, p, li outside a list, …): their content as blocks.
            out += blocks(of: children, depth: depth)
        }
    }

    private mutating func collectRows(
        _ nodes: [HTMLNode], into rows: inout [[[Inline]]], stray: inout [HTMLNode], depth: Int
    ) {
        guard depth < limits.maxDepth else { return }
        for node in nodes {
            guard case .element(let name, let attributes, let children) = node else {
                if !Self.isBlank([node]) { stray.append(node) }
                continue
            }
            if Self.isHidden(attributes) { continue }
            switch name {
            case "thead", "tbody", "tfoot", "form":
                collectRows(children, into: &rows, stray: &stray, depth: depth + 1)
            case "tr":
                var cells: [[Inline]] = []
                for cell in children {
                    guard case .element(let cellName, let cellAttributes, let cellChildren) = cell,
                        cellName == "td" || cellName == "th"
                    else {
                        if !Self.isBlank([cell]) { stray.append(cell) }
                        continue
                    }
                    if Self.isHidden(cellAttributes) { continue }
                    var acc = InlineAccumulator()
                    for child in cellChildren { appendInline(child, into: &acc, depth: depth + 2) }
                    let content = acc.finish()
                    cells.append(cellName == "th" && !content.isEmpty ? [.strong(content)] : content)
                }
                if cells.contains(where: { !$0.isEmpty }) {
                    rows.append(cells)
                    characterCount += cells.reduce(0) { $0 + Self.textLength($1) }
                }
            case "caption":
                var acc = InlineAccumulator()
                for child in children { appendInline(child, into: &acc, depth: depth + 1) }
                let content = acc.finish()
                if !content.isEmpty { rows.append([[.strong(content)]]) }
            case "colgroup", "col":
                break
            default:
                stray.append(node)
            }
        }
    }

    private mutating func flush(_ inlines: inout InlineAccumulator, into out: inout [Block]) {
        let content = inlines.finish()
        if !content.isEmpty { add(.paragraph(content), to: &out) }
    }

    private mutating func add(_ block: Block, to out: inout [Block]) {
        guard !truncated else { return }
        blockCount += 1
        if case .paragraph(let inlines) = block { characterCount += Self.textLength(inlines) }
        if case .heading(_, let inlines) = block { characterCount += Self.textLength(inlines) }
        if case .preformatted(let text) = block { characterCount += text.utf8.count }
        if blockCount > limits.maxBlocks || characterCount > limits.maxCharacters {
            truncated = true
            return
        }
        out.append(block)
    }

    // MARK: Inlines

    private mutating func appendInline(_ node: HTMLNode, into acc: inout InlineAccumulator, depth: Int) {
        switch node {
        case .text(let text):
            countOwnText(text)
            acc.appendText(text)
        case .element(let name, let attributes, let children):
            if Self.dropped.contains(name) {
                if name == "script" { noteScript(attributes, children) }
                return
            }
            if Self.isHidden(attributes) || depth >= limits.maxDepth { return }
            if let id = attributes["id"], !id.isEmpty { acc.anchors.append(id) }
            switch name {
            case "br":
                acc.append(.lineBreak)
            case "noscript":
                noteNoscript(children)
                noscriptDepth += 1
                for child in children { appendInline(child, into: &acc, depth: depth + 1) }
                noscriptDepth -= 1
            case "math":
                let text = Self.mathText(attributes, children)
                countOwnText(text)
                let display = attributes["display"]?.lowercased() == "block"
                if display, acc.hasContent { acc.append(.lineBreak) }
                acc.appendText(text)
                if display { acc.append(.lineBreak) }
            case "svg":
                let text = Self.svgText(attributes, children)
                guard !text.isEmpty else { return }
                countOwnText(text)
                acc.appendText(" " + text + " ")
            case "img":
                if Self.isPixel(attributes) { return }
                if let src = attributes["src"].flatMap({ resolve($0, schemes: ["http", "https", "cid", "data"]) }) {
                    acc.append(.image(source: src, alt: Self.collapse(attributes["alt"] ?? "").trimmingWhitespace()))
                } else if let alt = attributes["alt"], !alt.isEmpty {
                    acc.appendText(alt)
                }
            case "a":
                if let name = attributes["name"], !name.isEmpty { acc.anchors.append(name) }
                let (inner, breaks) = nested(children, acc: &acc, depth: depth)
                if let href = attributes["href"].flatMap({ linkTarget($0) }), !inner.isEmpty {
                    acc.append(.link(href: href, inner))
                } else {
                    for item in inner { acc.append(item) }
                }
                if breaks { acc.append(.lineBreak) }
            case "em", "i", "cite", "dfn", "var":
                let (inner, breaks) = nested(children, acc: &acc, depth: depth)
                if !inner.isEmpty { acc.append(.emphasis(inner)) }
                if breaks { acc.append(.lineBreak) }
            case "strong", "b":
                let (inner, breaks) = nested(children, acc: &acc, depth: depth)
                if !inner.isEmpty { acc.append(.strong(inner)) }
                if breaks { acc.append(.lineBreak) }
            case "q":
                // Quotation marks around an inline quotation, as browsers draw them.
                acc.appendText("“")
                let (inner, breaks) = nested(children, acc: &acc, depth: depth)
                for item in inner { acc.append(item) }
                acc.appendText("”")
                if breaks { acc.append(.lineBreak) }
            case "code", "kbd", "samp", "tt":
                let (inner, breaks) = nested(children, acc: &acc, depth: depth)
                if !inner.isEmpty { acc.append(.code(inner)) }
                if breaks { acc.append(.lineBreak) }
            default:
                if children.isEmpty, name.contains("-") {
                    noteEmptyRoot(name: name, id: attributes["id"], children: [])
                }
                // Block elements met inside inline content (a `div` in an `a`) are flattened onto new lines.
                let isBlock = Self.blockElements.contains(name)
                if isBlock, acc.hasContent { acc.append(.lineBreak) }
                for child in children { appendInline(child, into: &acc, depth: depth + 1) }
                if isBlock, acc.hasContent { acc.append(.lineBreak) }
            }
        }
    }

    /// The inlines of `children`, sharing the surrounding whitespace state so spaces collapse across tags, and
    /// whether they ended with a line break: that break is moved after the element (`<b>Queue<br></b> ATF` is
    /// "Queue", then "ATF" on the next line), so it still breaks the line.
    private mutating func nested(
        _ children: [HTMLNode], acc: inout InlineAccumulator, depth: Int
    ) -> (items: [Inline], endsWithBreak: Bool) {
        var inner = InlineAccumulator()
        inner.lastWasSpace = acc.lastWasSpace || !acc.hasContent
        for child in children { appendInline(child, into: &inner, depth: depth + 1) }
        acc.lastWasSpace = inner.lastWasSpace
        acc.anchors += inner.anchors
        var items = inner.items
        var breaks = false
        while case .lineBreak? = items.last {
            items.removeLast()
            breaks = true
        }
        return (items, breaks)
    }

    // MARK: Math, SVG and tracking pixels

    /// What a MathML formula reads as: its text `<annotation>` (TeX or plain), else its `alttext`, else the
    /// characters of its tokens in order.
    static func mathText(_ attributes: [String: String], _ children: [HTMLNode]) -> String {
        if let annotation = firstElement(named: "annotation", in: children, depth: 0) {
            let text = collapse(rawText(annotation)).trimmingWhitespace()
            if !text.isEmpty { return text }
        }
        if let alt = attributes["alttext"].map({ collapse($0).trimmingWhitespace() }), !alt.isEmpty { return alt }
        var out = ""
        func visit(_ nodes: [HTMLNode], _ depth: Int) {
            guard depth < 64 else { return }
            for node in nodes {
                switch node {
                case .text(let text): out += collapse(text).trimmingWhitespace()
                case .element(let name, let attributes, let children):
                    if name == "annotation-xml" || name == "annotation" || isHidden(attributes) { continue }
                    // A space between words (`sin x`), none inside numbers and operators.
                    if name == "mi" || name == "mtext", let last = out.unicodeScalars.last,
                        last.properties.isAlphabetic
                    {
                        out += " "
                    }
                    visit(children, depth + 1)
                }
            }
        }
        visit(children, 0)
        return out
    }

    /// What a screen reader reads of an inline SVG: its name (`aria-label`, else its own `<title>`), then, unless it
    /// is one image (`role="img"` with a name), the text of its `<text>` elements in order.
    static func svgText(_ attributes: [String: String], _ children: [HTMLNode]) -> String {
        let role = attributes["role"]?.lowercased()
        if role == "presentation" || role == "none" { return "" }
        var name = collapse(attributes["aria-label"] ?? "").trimmingWhitespace()
        if name.isEmpty {
            for case .element("title", _, let inner) in children {
                name = collapse(rawText(inner)).trimmingWhitespace()
                break
            }
        }
        if role == "img", !name.isEmpty { return name }
        var texts: [String] = name.isEmpty ? [] : [name]
        func visit(_ nodes: [HTMLNode], _ depth: Int) {
            guard depth < 64 else { return }
            for case .element(let elementName, let attributes, let inner) in nodes where !isHidden(attributes) {
                switch elementName {
                case "text":
                    let text = collapse(rawText(inner)).trimmingWhitespace()
                    if !text.isEmpty { texts.append(text) }
                case "title", "desc", "defs", "style", "script", "metadata", "symbol", "clippath", "mask",
                    "lineargradient", "radialgradient", "pattern", "filter":
                    continue
                default:
                    visit(inner, depth + 1)
                }
            }
        }
        visit(children, 0)
        return texts.joined(separator: " ")
    }

    static func firstElement(named wanted: String, in nodes: [HTMLNode], depth: Int) -> [HTMLNode]? {
        guard depth < 64 else { return nil }
        for case .element(let name, _, let children) in nodes {
            if name == wanted { return children }
            if name == "annotation-xml" { continue }
            if let found = firstElement(named: wanted, in: children, depth: depth + 1) { return found }
        }
        return nil
    }

    /// A 0 or 1 pixel image: a tracking pixel (often in `<noscript>`), never shown, fetched or saved.
    public static func isPixel(_ attributes: [String: String]) -> Bool {
        let tiny: (String?) -> Bool = { value in
            value.map { $0.trimmingWhitespace() == "0" || $0.trimmingWhitespace() == "1" } ?? false
        }
        return tiny(attributes["width"]) && tiny(attributes["height"])
    }

    private func linkTarget(_ href: String) -> String? {
        let trimmed = href.trimmingWhitespaceAndNewlines()
        if trimmed.hasPrefix("#") { return trimmed.count > 1 ? trimmed : nil }
        return resolve(trimmed, schemes: ["http", "https", "mailto", "tel"])
    }

    /// The absolute URL of a link or image reference, without the device id: a page may echo `imei=` back into its
    /// own links, and what the document holds is shown, opened in the browser, fetched and saved.
    private func resolve(_ reference: String, schemes: Set<String>) -> String? {
        let trimmed = reference.trimmingWhitespaceAndNewlines()
        guard !trimmed.isEmpty else { return nil }
        if let fast = Self.resolveSimple(trimmed, base: baseParts, schemes: schemes) {
            return Self.withoutDeviceID(fast)
        }
        // Real pages carry spaces and non-ASCII in URLs; browsers percent-encode them, so does Faro.
        let escaped = PercentEncoding.encode(trimmed, keeping: PercentEncoding.isURLReferenceAllowed)
        guard let url = URL(string: trimmed, relativeTo: base) ?? URL(string: escaped, relativeTo: base),
            let scheme = url.absoluteURL.scheme?.lowercased(), schemes.contains(scheme)
        else { return nil }
        return Self.withoutDeviceID(url.absoluteURL.absoluteString)
    }

    /// `url` through `DeviceIDURL.stripping(from:)` when it has a query (`data:` URLs are payload, not addresses).
    static func withoutDeviceID(_ url: String) -> String {
        guard url.contains("?"), !url.lowercased().hasPrefix("data:") else { return url }
        return DeviceIDURL.stripping(from: url)
    }

    // MARK: Text

    /// The UTF-8 length of the visible text of `inlines` (cheap: no string is built). Accumulated text never holds
    /// leading or trailing spaces, so a length of 0 means nothing visible.
    static func textLength(_ inlines: [Inline]) -> Int {
        var total = 0
        for inline in inlines {
            switch inline {
            case .text(let t): total += t.utf8.count
            case .emphasis(let inner), .strong(let inner), .code(let inner), .link(_, let inner):
                total += textLength(inner)
            case .image(_, let alt): total += alt.utf8.count
            case .lineBreak, .anchor: break
            }
        }
        return total
    }

    /// Collapses runs of HTML whitespace (space, tab, CR, LF, form feed) into single spaces.
    static func collapse(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var space = false
        for byte in text.utf8 {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                if !space { out.append(0x20) }
                space = true
            default:
                out.append(byte)
                space = false
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text content of `nodes` as written (for `pre` and `title`), skipping `dropping` elements.
    static func rawText(_ nodes: [HTMLNode], dropping: Set<String> = []) -> String {
        var out = ""
        func visit(_ node: HTMLNode, _ depth: Int) {
            guard depth < 256 else { return }
            switch node {
            case .text(let text): out += text
            case .element(let name, let attributes, let children):
                if dropping.contains(name) || isHidden(attributes) { return }
                if name == "br" { out += "\n" }
                for child in children { visit(child, depth + 1) }
            }
        }
        for node in nodes { visit(node, 0) }
        return out
    }
}

/// Collects a paragraph's inline content with HTML's whitespace rules: runs collapse to one space, also across
/// tags; no space at the start of a paragraph or after a line break; trailing space removed at the end.
struct InlineAccumulator {
    var items: [Inline] = []
    var anchors: [String] = []
    var lastWasSpace = true

    var hasContent: Bool { items.contains { if case .anchor = $0 { return false } else { return true } } }

    mutating func appendText(_ raw: String) {
        var text = ReadableDocumentBuilder.collapse(raw)
        if lastWasSpace, text.hasPrefix(" ") { text.removeFirst() }
        guard !text.isEmpty else { return }
        lastWasSpace = text.hasSuffix(" ")
        append(.text(text))
    }

    mutating func append(_ inline: Inline) {
        if !anchors.isEmpty {
            items += anchors.map(Inline.anchor)
            anchors = []
        }
        switch inline {
        case .text(let text):
            if case .text(let previous)? = items.last {
                items[items.count - 1] = .text(previous + text)
            } else {
                items.append(inline)
            }
        case .lineBreak:
            trimTrailingSpace()
            if case .lineBreak? = items.last { return }
            items.append(inline)
            lastWasSpace = true
        case .image:
            items.append(inline)
            lastWasSpace = false
        default:
            items.append(inline)
        }
    }

    /// The paragraph's content (empty when there is nothing visible and no anchor), resetting the accumulator.
    mutating func finish() -> [Inline] {
        if !anchors.isEmpty {
            items += anchors.map(Inline.anchor)
            anchors = []
        }
        trimTrailingSpace()
        while case .lineBreak? = items.last { items.removeLast() }
        let out = items
        items = []
        lastWasSpace = true
        return out
    }

    private mutating func trimTrailingSpace() {
        items = Self.trimmingTrailing(items)
    }

    static func trimmingTrailing(_ items: [Inline]) -> [Inline] {
        guard let last = items.last else { return items }
        var out = items
        switch last {
        case .text(let text):
            var t = text
            while t.hasSuffix(" ") { t.removeLast() }
            if t.isEmpty {
                out.removeLast()
                return trimmingTrailing(out)
            } else {
                out[out.count - 1] = .text(t)
            }
        case .emphasis(let inner): out[out.count - 1] = .emphasis(trimmingTrailing(inner))
        case .strong(let inner): out[out.count - 1] = .strong(trimmingTrailing(inner))
        case .code(let inner): out[out.count - 1] = .code(trimmingTrailing(inner))
        case .link(let href, let inner): out[out.count - 1] = .link(href: href, trimmingTrailing(inner))
        default: break
        }
        return out
    }
}
