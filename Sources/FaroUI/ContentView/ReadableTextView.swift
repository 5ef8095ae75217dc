internal import CGtk
import FaroCore
import FaroGLib

/// The content view's reading surface: a read-only, word-wrapped GtkTextView showing a `ReadableDocument` (laid out
/// by `StyledRuns`) with text tags for the title, headings and emphasis; links followed on a click or on Enter at the
/// cursor (web links go to `openLink`, by default the desktop's browser; `#name` scrolls to the anchor); images from
/// `image(source)` scaled to at most `maxImageWidth`; and a named mark per anchor. Filling the buffer is cheap:
/// fetching and parsing happen on a worker thread before `show` is called on the GTK thread, and so does decoding the
/// images (`ImageDecoder`, one page at a time): each appears in its place once decoded. A page's images are bounded
/// (`maxImagePixels` declared per image, checked before decoding; `maxPageImageBytes` of decoded pixels per page):
/// one past a limit is shown as its alternative text with a note, and the window stays responsive.
@MainActor
public final class ReadableTextView {
    /// The widget to pack (inside a GtkScrolledWindow).
    let widget: UnsafeMutablePointer<GtkWidget>
    let textView: UnsafeMutablePointer<GtkTextView>
    let buffer: UnsafeMutablePointer<GtkTextBuffer>
    private var styleTags: [StyledRun.Style: UnsafeMutablePointer<GtkTextTag>] = [:]
    private var indentTags: [Int: UnsafeMutablePointer<GtkTextTag>] = [:]
    /// Each link tag's target (read by the click and key handling in ReadableTextView+Links.swift).
    var linkTags: [UnsafeMutablePointer<GtkTextTag>: String] = [:]
    private var anchorMarks: [String] = []
    /// Images inserted by the last `show` (for tests and the status line), and their widths as shown.
    public private(set) var imageCount = 0
    private(set) var imageWidths: [Int32] = []
    /// Opens a web link; the default hands it to the desktop's default handler.
    public var openLink: (String) -> Void = { link in _ = g_app_info_launch_default_for_uri(link, nil, nil) }
    /// Images wider than this are scaled down to it (keeping their aspect ratio).
    public var maxImageWidth: Int32 = 560
    /// An image that declares more pixels than this (width × height) is not decoded at all.
    public var maxImagePixels = 12_600_000
    /// The decoded pixels of one page's images, in bytes, at most; images past it are not shown.
    public var maxPageImageBytes = 48 << 20
    /// Images of the current page still being decoded (0 once every one is in place or refused).
    public private(set) var pendingImages = 0
    /// Images of the current page that were not shown because of a limit.
    public private(set) var refusedImages = 0
    /// Where each image being decoded goes, by its number in the page.
    private var placeholders: [Int: Placeholder] = [:]
    /// The current page's decoding, cancelled when another page is shown.
    private var batch: DecodeBatch?

    public init() {
        guard let view = gtk_text_view_new(), let textView = cast(view, to: GtkTextView.self),
            let buffer = gtk_text_view_get_buffer(textView)
        else {
            preconditionFailure("GTK could not create a GtkTextView (is GTK initialised?)")
        }
        widget = view
        self.textView = textView
        self.buffer = buffer
        gtk_text_view_set_editable(textView, 0)
        gtk_text_view_set_cursor_visible(textView, 0)
        gtk_text_view_set_wrap_mode(textView, GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_left_margin(textView, 16)
        gtk_text_view_set_right_margin(textView, 16)
        gtk_text_view_set_top_margin(textView, 12)
        gtk_text_view_set_bottom_margin(textView, 12)
        setAccessibleName(view, I18n.tr("Site content"))
        Signal.connect(view, "event-after", pointer: { [weak self] event in self?.handle(event) })
    }

    /// Replaces the view's content with `document`; `image` gives an image's bytes by source URL (from the page's
    /// fetched resources, or a saved archive), nil when it is not available (its alternative text is shown).
    public func show(_ document: ReadableDocument, image: (String) -> [UInt8]? = { _ in nil }) {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        gtk_text_buffer_delete(buffer, &start, &end)
        // Link tags and anchor marks belong to the previous document.
        let table = gtk_text_buffer_get_tag_table(buffer)
        for tag in linkTags.keys { gtk_text_tag_table_remove(table, tag) }
        linkTags.removeAll()
        for name in anchorMarks { gtk_text_buffer_delete_mark_by_name(buffer, name) }
        anchorMarks.removeAll()
        batch?.cancel()
        for placeholder in placeholders.values { gtk_text_buffer_delete_mark(buffer, placeholder.mark) }
        placeholders.removeAll()
        imageCount = 0
        imageWidths = []
        refusedImages = 0
        var jobs: [DecodeBatch.Job] = []
        for run in StyledRuns.layout(document) {
            switch run.content {
            case .text(let text):
                insert(text, run: run)
            case .image(let source, let alt):
                // Images embedded as data: URLs need no lookup.
                if let bytes = DataURL.decode(source)?.bytes ?? image(source), !bytes.isEmpty {
                    var end = GtkTextIter()
                    gtk_text_buffer_get_end_iter(buffer, &end)
                    // Left gravity: the mark stays before whatever is inserted at it, text that follows moves on.
                    guard let mark = gtk_text_buffer_create_mark(buffer, nil, &end, 1) else { continue }
                    placeholders[jobs.count] = Placeholder(mark: mark, run: run, alt: alt)
                    jobs.append(DecodeBatch.Job(index: jobs.count, bytes: bytes))
                } else {
                    insert(ReadableTextView.altText(alt), run: run)
                }
            case .anchor(let name):
                var iter = GtkTextIter()
                gtk_text_buffer_get_end_iter(buffer, &iter)
                if gtk_text_buffer_get_mark(buffer, "anchor:" + name) == nil {
                    gtk_text_buffer_create_mark(buffer, "anchor:" + name, &iter, 1)
                    anchorMarks.append("anchor:" + name)
                }
            }
        }
        gtk_text_buffer_get_start_iter(buffer, &start)
        gtk_text_buffer_place_cursor(buffer, &start)
        decode(jobs)
    }

    /// The text shown for an image that is not there.
    static func altText(_ alt: String) -> String { alt.isEmpty ? "[imagen]" : "[\(alt)]" }

    /// Decodes `jobs` in order on a worker thread; each result is put in place on the GTK thread.
    private func decode(_ jobs: [DecodeBatch.Job]) {
        pendingImages = jobs.count
        guard !jobs.isEmpty else {
            batch = nil
            return
        }
        let batch = DecodeBatch(
            decoder: ImageDecoder(maxWidth: maxImageWidth, maxPixels: maxImagePixels), budget: maxPageImageBytes)
        self.batch = batch
        DetachedThread.start(name: "faro-images") {
            batch.run(jobs) { index, result in
                MainThread.run { [weak self] in self?.place(result, index: index, from: batch) }
            }
        }
    }

    /// Puts a decoded image (or, when it was refused, its alternative text and a note) where it belongs.
    private func place(_ result: Result<DecodedImage, ImageRefusal>, index: Int, from batch: DecodeBatch) {
        guard batch === self.batch, let placeholder = placeholders.removeValue(forKey: index) else { return }
        pendingImages -= 1
        defer { gtk_text_buffer_delete_mark(buffer, placeholder.mark) }
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(buffer, &iter, placeholder.mark)
        switch result {
        case .success(let image):
            let offset = gtk_text_iter_get_offset(&iter)
            gtk_text_buffer_insert_pixbuf(buffer, &iter, image.pixbuf)
            imageCount += 1
            imageWidths.append(image.width)
            if let link = placeholder.run.link {
                var start = GtkTextIter()
                gtk_text_buffer_get_iter_at_offset(buffer, &start, offset)
                var end = GtkTextIter()
                gtk_text_buffer_get_iter_at_offset(buffer, &end, offset + 1)
                gtk_text_buffer_apply_tag(buffer, linkTag(link), &start, &end)
            }
        case .failure(let refusal):
            var text = ReadableTextView.altText(placeholder.alt)
            if refusal != .undecodable {
                refusedImages += 1
                text += " " + I18n.tr("[image too large to show]")
            }
            insert(text, run: placeholder.run, at: placeholder.mark)
        }
    }

    /// The buffer's text (images are not text).
    public var text: String {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }

    /// The link at a character offset of the buffer, if any.
    public func link(atOffset offset: Int32) -> String? {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &iter, offset)
        return link(at: &iter)
    }

    /// Whether an anchor named `name` exists (a target for `#name`).
    public func hasAnchor(_ name: String) -> Bool { gtk_text_buffer_get_mark(buffer, "anchor:" + name) != nil }

    /// Follows a link as a click does: `#name` scrolls to the anchor, anything else goes to `openLink`.
    public func activate(_ link: String) {
        if link.hasPrefix("#") {
            if let mark = gtk_text_buffer_get_mark(buffer, "anchor:" + String(link.dropFirst())) {
                gtk_text_view_scroll_to_mark(textView, mark, 0, 1, 0, 0)
            }
        } else {
            openLink(link)
        }
    }

    // MARK: Insertion

    /// Appends `text` with the run's styles, indent and link; at `mark` instead of the end when given.
    private func insert(_ text: String, run: StyledRun, at mark: UnsafeMutablePointer<GtkTextMark>? = nil) {
        var iter = GtkTextIter()
        if let mark {
            gtk_text_buffer_get_iter_at_mark(buffer, &iter, mark)
        } else {
            gtk_text_buffer_get_end_iter(buffer, &iter)
        }
        let startOffset = gtk_text_iter_get_offset(&iter)
        gtk_text_buffer_insert(buffer, &iter, text, -1)
        let endOffset = gtk_text_iter_get_offset(&iter)
        var start = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &start, startOffset)
        var end = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &end, endOffset)
        for style in run.styles { gtk_text_buffer_apply_tag(buffer, styleTag(style), &start, &end) }
        if run.indent > 0 { gtk_text_buffer_apply_tag(buffer, indentTag(run.indent), &start, &end) }
        if let link = run.link { gtk_text_buffer_apply_tag(buffer, linkTag(link), &start, &end) }
    }

    // MARK: Tags

    private func newTag(_ configure: (UnsafeMutablePointer<GObject>) -> Void) -> UnsafeMutablePointer<GtkTextTag> {
        guard let tag = gtk_text_tag_new(nil), let object = cast(tag, to: GObject.self) else {
            preconditionFailure("GTK could not create a text tag")
        }
        configure(object)
        gtk_text_tag_table_add(gtk_text_buffer_get_tag_table(buffer), tag)
        g_object_unref(UnsafeMutableRawPointer(tag))  // the table keeps it
        return tag
    }

    private func styleTag(_ style: StyledRun.Style) -> UnsafeMutablePointer<GtkTextTag> {
        if let tag = styleTags[style] { return tag }
        let tag = newTag { object in
            switch style {
            case .title:
                Property.set(object, "weight", int: 800)
                Property.set(object, "scale", double: 1.6)
                Property.set(object, "pixels-below-lines", int: 4)
            case .heading(let level):
                Property.set(object, "weight", int: 700)
                Property.set(object, "scale", double: level <= 1 ? 1.4 : level == 2 ? 1.25 : 1.1)
            case .emphasis:
                Property.set(object, "style", enum: Int32(PANGO_STYLE_ITALIC.rawValue), type: pango_style_get_type())
            case .strong:
                Property.set(object, "weight", int: 700)
            case .code, .preformatted:
                Property.set(object, "family", string: "monospace")
            case .quote:
                Property.set(object, "foreground", string: "#5e5c64")
            case .tableCell:
                Property.set(object, "family", string: "sans")
            }
        }
        styleTags[style] = tag
        return tag
    }

    private func indentTag(_ depth: Int) -> UnsafeMutablePointer<GtkTextTag> {
        if let tag = indentTags[depth] { return tag }
        let tag = newTag { Property.set($0, "left-margin", int: Int32(16 + 24 * min(depth, 12))) }
        indentTags[depth] = tag
        return tag
    }

    private func linkTag(_ href: String) -> UnsafeMutablePointer<GtkTextTag> {
        let tag = newTag { object in
            Property.set(object, "foreground", string: "#1a5fb4")
            Property.set(
                object, "underline", enum: Int32(PANGO_UNDERLINE_SINGLE.rawValue), type: pango_underline_get_type())
        }
        linkTags[tag] = href
        return tag
    }
}
