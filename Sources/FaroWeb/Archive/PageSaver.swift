import FaroCore
import FoundationEssentials

/// A page saved for Guardados: the MHT bytes and what the list shows.
public struct SavedPage: Sendable {
    /// The page's address without the device id.
    public var url: String
    public var title: String
    public var savedAt: Date
    public var archive: [UInt8]
    /// Resources stored in the archive.
    public var resourceCount: Int
    /// Resources that could not be fetched (the page is saved without them), with the reason.
    public var missing: [(url: String, error: FetchError)]
}

/// "Guardar" (docs/guardados.md): fetches the page fresh (with the device id where a content load carries it), then its
/// images and stylesheets concurrently (libcurl multi), plus the images those stylesheets use, and writes a
/// Chromium-compatible MHT that carries no device id: not in its addresses, not in the page's own links (a page may
/// echo the id back), not in its stylesheets. The archive never exceeds the size the reader opens
/// (`MHTLimits.archiveMaxBytes`): a page that would is not saved, with a message that says why.
public struct PageSaver: Sendable {
    public var fetcher: FreshFetcher
    public var resources: ResourceFetcher
    public var writer: MHTWriter
    /// At most this many resources are stored (the rest are left out).
    public var maxResources: Int
    /// The largest archive written: the reader's limit, so whatever is saved opens again.
    public var archiveLimit: Int

    public init(
        fetcher: FreshFetcher = FreshFetcher(), resources: ResourceFetcher = ResourceFetcher(),
        writer: MHTWriter = MHTWriter(), maxResources: Int = 300, archiveLimit: Int = MHTLimits.archiveMaxBytes
    ) {
        self.fetcher = fetcher
        self.resources = resources
        self.writer = writer
        self.maxResources = maxResources
        self.archiveLimit = archiveLimit
    }

    public func save(
        _ url: String, deviceID: String?, now: Date = Date(),
        cancellation: FetchCancellation? = nil
    ) throws(FetchError) -> SavedPage {
        let requested = DeviceIDURL.forLoad(url, deviceID: deviceID)
        var page = try fetcher.fetch(requested, cancellation: cancellation)
        page.body = DeviceIDScrubber.scrub(page.body, knownID: deviceID)
        guard page.body.count <= archiveLimit else {
            throw .archiveTooLarge(limit: archiveLimit)
        }
        let pageURL = DeviceIDURL.stripping(from: page.finalURL)
        let tree = HTMLParser.parse(page.body, charset: page.charset, url: pageURL)
        let document = ReadableDocumentBuilder.build(tree, baseURL: pageURL)
        var references = ResourceReferences.collect(tree, baseURL: pageURL)
        references = Array(references.prefix(maxResources))

        // Whatever the page and its resources weigh beyond the archive's size can never be saved: stop fetching there.
        var resources = self.resources
        resources.maxTotalBytes = min(resources.maxTotalBytes, archiveLimit - page.body.count)
        var fetched = resources.fetchAll(references, cancellation: cancellation)
        // Images referenced from the stylesheets (backgrounds, …): one more concurrent round.
        var cssReferences: [String] = []
        for url in references {
            guard case .success(let response)? = fetched[url], response.mediaType == "text/css" else { continue }
            let css = Charset.decode(response.body, charset: response.charset)
            for reference in ResourceReferences.cssURLs(css, baseURL: response.finalURL)
            where fetched[reference] == nil
                && !cssReferences.contains(reference)
            {
                cssReferences.append(reference)
            }
        }
        cssReferences = Array(cssReferences.prefix(max(0, maxResources - references.count)))
        if !cssReferences.isEmpty {
            let received = fetched.values.reduce(0) { total, result in
                if case .success(let response) = result { return total + response.body.count }
                return total
            }
            resources.maxTotalBytes = max(0, resources.maxTotalBytes - received)
            fetched.merge(resources.fetchAll(cssReferences, cancellation: cancellation)) { a, _ in a }
        }
        if cancellation?.isCancelled == true { throw .cancelled }
        for case .failure(.resourcesTooLarge) in fetched.values {
            throw .archiveTooLarge(limit: archiveLimit)
        }

        var stored: [MHTWriter.Resource] = []
        var missing: [(String, FetchError)] = []
        for url in references + cssReferences {
            switch fetched[url] {
            case .success(let response)?:
                // Stored under the address the page uses, so relative references resolve inside the archive.
                let type = response.contentType ?? "application/octet-stream"
                let body =
                    MHTWriter.isTextual(type) ? DeviceIDScrubber.scrub(response.body, knownID: deviceID) : response.body
                stored.append(.init(url: url, contentType: type, body: body))
            case .failure(let error)?:
                missing.append((url, error))
            case nil:
                missing.append((url, .network("not fetched")))
            }
        }
        let title = document.title ?? pageURL
        let bytes = writer.write(
            MHTWriter.Page(
                url: pageURL, title: title, html: page.body, charset: page.charset,
                savedAt: now, resources: stored))
        guard bytes.count <= archiveLimit else { throw .archiveTooLarge(limit: archiveLimit) }
        return SavedPage(
            url: pageURL, title: title, savedAt: now, archive: bytes, resourceCount: stored.count, missing: missing)
    }
}

/// Finds what a page needs to look right offline: images (`img src`), stylesheets (`link rel=stylesheet`), and
/// the `url(…)` references of stylesheets; all made absolute, http(s) only, in document order, without duplicates.
public enum ResourceReferences {
    public static func collect(_ root: HTMLNode, baseURL: String) -> [String] {
        var base = URL(string: baseURL)
        var out: [String] = []
        func add(_ reference: String?) {
            guard let reference, let url = absolute(reference, base: base), !out.contains(url) else { return }
            out.append(url)
        }
        func visit(_ node: HTMLNode, depth: Int) {
            guard depth < 256, case .element(let name, let attributes, let children) = node else { return }
            switch name {
            case "base":
                if let href = attributes["href"], let url = URL(string: href, relativeTo: base) {
                    base = url.absoluteURL
                }
            case "img":
                // A tracking pixel is not shown, so it is neither fetched nor saved.
                if !ReadableDocumentBuilder.isPixel(attributes) { add(attributes["src"]) }
            case "link":
                let rel = (attributes["rel"] ?? "").lowercased().split(separator: " ")
                if rel.contains("stylesheet") { add(attributes["href"]) }
            case "style":
                for case .text(let css) in children {
                    cssURLs(css, baseURL: base?.absoluteString ?? baseURL).forEach(add)
                }
            default:
                break
            }
            if let style = attributes["style"], style.contains("url(") {
                cssURLs(style, baseURL: base?.absoluteString ?? baseURL).forEach(add)
            }
            for child in children { visit(child, depth: depth + 1) }
        }
        visit(root, depth: 0)
        return out
    }

    /// The absolute http(s) URLs in a stylesheet's `url(…)` values and `@import "…"` rules.
    public static func cssURLs(_ css: String, baseURL: String) -> [String] {
        let base = URL(string: baseURL)
        var out: [String] = []
        var rest = Substring(css)
        while let open = rest.firstRange(of: "url(") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            var value = rest[..<close].trimmingWhitespaceAndNewlines()
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            if let url = absolute(value, base: base), !out.contains(url) { out.append(url) }
            rest = rest[close...]
        }
        return out
    }

    static func absolute(_ reference: String, base: URL?) -> String? {
        let trimmed = reference.trimmingWhitespaceAndNewlines()
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !trimmed.lowercased().hasPrefix("data:"),
            let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        var text = url.absoluteString
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        // A page that echoes the id into its resources' addresses gets them asked for (and stored) without it.
        return DeviceIDURL.stripping(from: text)
    }
}
