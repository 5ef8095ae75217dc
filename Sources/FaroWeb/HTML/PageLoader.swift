import FaroCore
import FoundationEssentials

/// A microsite loaded for reading: where it came from (without the device id), the response, and its readable
/// document.
public struct LoadedPage: Sendable {
    /// The page's address as shown, shared and saved: the final URL without the device id.
    public var url: String
    public var response: FetchResponse
    public var document: ReadableDocument
    /// How long the transfer took, and the parse into the document (for `--timing` and the benchmarks).
    public var fetchDuration: Duration
    public var parseDuration: Duration
    /// The document's images by source URL, when loaded with `images: true` (those that failed are absent).
    public var images: [String: [UInt8]] = [:]
    /// Whether the request carried the device id: false for a plain-http page from another computer (and when no
    /// id was given), which the content view says.
    public var sentDeviceID = false
}

/// Loads a microsite exactly as the content view does: device id added to the URL (`?imei=`/`&imei=`) when the
/// URL is https (or loopback), fetched fresh, parsed into the readable document. Blocking: the GUI calls it on a
/// worker thread, never the UI thread.
public struct PageLoader: Sendable {
    public var fetcher: FreshFetcher
    public var resources: ResourceFetcher
    /// At most this many images are fetched with a page.
    public var maxImages: Int

    /// What the content view fetches of a page's images: up to 8 MB each and 32 MB together (the view then limits
    /// what it decodes).
    public static let imageFetcher = ResourceFetcher(
        options: FetchOptions(totalTimeout: 20, maxBytes: 8 << 20), maxTotalBytes: 32 << 20)

    public init(
        fetcher: FreshFetcher = FreshFetcher(), resources: ResourceFetcher = PageLoader.imageFetcher,
        maxImages: Int = 100
    ) {
        self.fetcher = fetcher
        self.resources = resources
        self.maxImages = maxImages
    }

    /// Fetches and reads `url` (blocking); `deviceID` nil sends no id (only for tests and benchmarks). With
    /// `images`, the document's images are fetched too, concurrently and just as fresh, for the view to show.
    public func load(
        _ url: String, deviceID: String?, images: Bool = false, cancellation: FetchCancellation? = nil,
        progress: (@Sendable (Int64, Int64?) -> Void)? = nil
    ) throws(FetchError) -> LoadedPage {
        let requested = DeviceIDURL.forLoad(url, deviceID: deviceID)
        let clock = ContinuousClock()
        let started = clock.now
        let response = try fetcher.fetch(requested, cancellation: cancellation, progress: progress)
        let fetched = clock.now
        let shown = DeviceIDURL.stripping(from: response.finalURL)
        let document: ReadableDocument
        if let type = response.mediaType, type.hasPrefix("text/plain") {
            let text = Charset.decode(response.body, charset: response.charset)
            document = ReadableDocument(title: nil, blocks: [.preformatted(text)])
        } else {
            document = HTMLParser.readableDocument(response.body, charset: response.charset, url: shown)
        }
        var page = LoadedPage(
            url: shown, response: response, document: document, fetchDuration: fetched - started,
            parseDuration: clock.now - fetched)
        page.sentDeviceID = requested != DeviceIDURL.stripping(from: url)
        if images {
            let sources = document.imageSources.filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }.prefix(
                maxImages)
            for (source, result) in resources.fetchAll(Array(sources), cancellation: cancellation) {
                if case .success(let image) = result { page.images[source] = image.body }
            }
            if cancellation?.isCancelled == true { throw .cancelled }
        }
        return page
    }

    /// Loads `url` with its images on a thread of its own (fetch and parse never touch the UI thread) and calls
    /// `completion` there; the GUI hops back to GTK with `g_idle_add`. Cancel through the task when the user moves on.
    @discardableResult
    public func start(
        _ url: String, deviceID: String?, images: Bool = true,
        progress: (@Sendable (Int64, Int64?) -> Void)? = nil,
        completion: @escaping @Sendable (Result<LoadedPage, FetchError>) -> Void
    ) -> FetchTask {
        let task = FetchTask()
        let loader = self
        DetachedThread.start(name: "faro-page") {
            do throws(FetchError) {
                completion(
                    .success(
                        try loader.load(
                            url, deviceID: deviceID, images: images, cancellation: task.cancellation,
                            progress: progress)))
            } catch {
                completion(.failure(error))
            }
        }
        return task
    }
}
